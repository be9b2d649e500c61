/* Islands of touching dynamic bodies, and sleeping. */
#ifndef SPX_DYNAMICS_ISLAND_H
#define SPX_DYNAMICS_ISLAND_H

#include <sepax/world.h>
#include <stdint.h>

typedef struct spx_world spx_world;

/* Wakes a sleeping dynamic body and every body of the island it fell asleep with. */
void spx_island_wake(spx_world* world, uint32_t body);

/* After the solver: islands of awake dynamic bodies joined by manifolds (static and kinematic bodies
   do not join islands), each body's rest time advanced by dt, and every island whose bodies have
   all rested time_to_sleep put to sleep. Returns the number of islands. Uses the world's scratch. */
uint32_t spx_islands_update(spx_world* world, float dt);

/* Puts the island of a body to sleep now (spx_body_set_awake(false)); islands as last found. */
void spx_island_sleep_now(spx_world* world, uint32_t body);

#endif
