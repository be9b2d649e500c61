/* Islands of touching dynamic bodies, and sleeping. */
#ifndef SPX_DYNAMICS_ISLAND_H
#define SPX_DYNAMICS_ISLAND_H

#include <sepax/world.h>
#include <stdint.h>

typedef struct spx_world spx_world;

/* Wakes a body's whole island. */
void spx_island_wake(spx_world* world, uint32_t body);

/* After the solver: islands, rest times, sleep. Returns the island count. */
uint32_t spx_islands_update(spx_world* world, float dt);

/* Puts the body's island, as last found, to sleep now. */
void spx_island_sleep_now(spx_world* world, uint32_t body);

#endif
