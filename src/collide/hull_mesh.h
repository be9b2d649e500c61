/* A hull swept against a mesh with a margin, for the continuous stage (dynamics/shape_hull.c): a hull
 * cannot grow its corners by the stage's rotation bound, so each pair's axes are pushed out by it. */
#ifndef SPX_COLLIDE_HULL_MESH_H
#define SPX_COLLIDE_HULL_MESH_H

#include <sepax/hull.h>

/* spx_sweep_hull_mesh without a contact set, the hull grown by `margin` (m, >= 0): never later than
   the first time within the margin. Inputs not checked here. */
void spx_sweep_hull_mesh_margin(const spx_placed_hull* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                spx_vec3 velocity_b, float tmax, float margin, spx_mesh_hit* out);

#endif
