/* The box-triangle manifold before the cut to 4 points, for the box-mesh manifold's merging. */
#ifndef SPX_MANIFOLD_TRIANGLE_H
#define SPX_MANIFOLD_TRIANGLE_H

#include <sepax/collide.h>

/* A box face clipped by a triangle has at most 7 corners. */
#define SPX_TRI_MANIFOLD_POINTS 8

/* Ids are the feature code alone (0..61); below this a box corner on the triangle's face. */
#define SPX_TRI_CODE_TRI_FEATURE 8u

/* Points closer than this times (box distance from the origin + size) are one: four float steps. */
#define SPX_TRI_SAME_POINT (4.0 * 1.1920928955078125e-7)

typedef struct spx_tri_manifold {
    spx_vec3 normal; /* unit, box towards triangle */
    int point_count;
    spx_manifold_point points[SPX_TRI_MANIFOLD_POINTS];
} spx_tri_manifold;

/* spx_manifold_obb_mesh_triangle on checked input, keeping up to `cap` points (4..8); more are cut
   to 4 by the shared rule. */
void spx_manifold_obb_triangle_checked(const spx_obb* a, const spx_triangle* b, const spx_triangle_edges* edges,
                                       float margin, int cap, spx_tri_manifold* out);

#endif
