/* The contact solver: soft contacts, warm-started sequential impulses, substeps. */
#ifndef SPX_DYNAMICS_SOLVER_H
#define SPX_DYNAMICS_SOLVER_H

#include <stdint.h>

typedef struct spx_world spx_world;

/* Advances every awake body by dt: gravity and damping, the contacts of spx_contacts_update, and
   the positions; kinematic bodies move with their velocities. Uses the world's scratch. */
void spx_solve(spx_world* world, float dt);

#endif
