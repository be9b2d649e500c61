/* A hull swept against a mesh with a margin, for the world's continuous stage (dynamics/shape_hull.c):
 * the stage bounds a body's rotation over a sub-interval by how far it can move any point, and a hull
 * cannot grow its corners by that bound, so every axis of each hull-triangle pair is pushed out by it
 * (spx_hull_query_sweep_margin) and the descent's box grown with it. */
#ifndef SPX_COLLIDE_HULL_MESH_H
#define SPX_COLLIDE_HULL_MESH_H

#include <sepax/hull.h>

/* As spx_sweep_hull_mesh without a contact set (counts 0), the hull taken as grown by `margin` (m,
   >= 0): the time found is never later than the first time it comes within the margin of the mesh.
   Inputs as spx_sweep_hull_mesh checks them; not checked here. */
void spx_sweep_hull_mesh_margin(const spx_placed_hull* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                spx_vec3 velocity_b, float tmax, float margin, spx_mesh_hit* out);

#endif
