/* The swept tests of a box or triangle against a triangle, on input already checked: the mesh
 * descent calls them for every leaf pair and has validated the pieces once, not once a pair. */
#ifndef SPX_SWEEP_PIECES_H
#define SPX_SWEEP_PIECES_H

#include <sepax/collide.h>

/* As spx_sweep_triangle_triangle, for triangles that pass spx_triangle_validate, finite velocities
   and a finite tmax >= 0. */
void spx_sweep_triangle_triangle_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

/* As spx_sweep_triangle_triangle_checked with A grown by `margin` (m, >= 0) on every axis of the
   test: the first time at which the triangles may come within margin of each other, never later
   than it (the axes are the exact test's, each a necessary condition for the grown pair to touch;
   with no axis between corners, two corners meeting end to end read as touching up to about
   margin / sin(angle) early). For the world's continuous stage, where the margin bounds rotation. */
void spx_sweep_triangle_triangle_margin_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                                spx_vec3 velocity_b, float tmax, float margin, spx_sweep_hit* out);

/* As spx_sweep_obb_triangle, for a box that passes spx_obb_validate and a triangle that passes
   spx_triangle_validate, finite velocities and a finite tmax >= 0. */
void spx_sweep_obb_triangle_checked(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b,
                                    spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

#endif
