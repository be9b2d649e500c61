/* The swept tests of a box or triangle against a triangle, on input already checked: the mesh
 * descent calls them for every leaf pair and has validated the pieces once, not once a pair. */
#ifndef SPX_SWEEP_PIECES_H
#define SPX_SWEEP_PIECES_H

#include <sepax/collide.h>

/* As spx_sweep_triangle_triangle, for triangles that pass spx_triangle_validate, finite velocities
   and a finite tmax >= 0. */
void spx_sweep_triangle_triangle_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

/* As spx_sweep_obb_triangle, for a box that passes spx_obb_validate and a triangle that passes
   spx_triangle_validate, finite velocities and a finite tmax >= 0. */
void spx_sweep_obb_triangle_checked(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b,
                                    spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

#endif
