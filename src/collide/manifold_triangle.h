/* The box-triangle manifold before it is cut to 4 points, for the box-mesh manifold, which merges
 * the points of many triangles before choosing which to keep. */
#ifndef SPX_MANIFOLD_TRIANGLE_H
#define SPX_MANIFOLD_TRIANGLE_H

#include <sepax/collide.h>

/* A box face clipped by a triangle (or the reverse) is a convex polygon of at most 7 corners. */
#define SPX_TRI_MANIFOLD_POINTS 8

/* Point ids are the feature code alone (0..61, manifold_obb_triangle.c); codes below this one name
   a box corner against the triangle's face, the others involve a corner or an edge of the triangle. */
#define SPX_TRI_CODE_TRI_FEATURE 8u

/* Points closer than this times (the box's distance from the origin + its size) are one point: four
   float steps of the coordinates the inputs were rounded to. */
#define SPX_TRI_SAME_POINT (4.0 * 1.1920928955078125e-7)

typedef struct spx_tri_manifold {
    spx_vec3 normal; /* unit, box towards triangle */
    int point_count;
    spx_manifold_point points[SPX_TRI_MANIFOLD_POINTS];
} spx_tri_manifold;

/* As spx_manifold_obb_mesh_triangle on input already checked (a valid box and triangle, edges NULL or
   without NaN, a finite margin >= 0), keeping up to `cap` points (4..SPX_TRI_MANIFOLD_POINTS): more
   than `cap` are cut to 4 by the same rule as the other manifolds. */
void spx_manifold_obb_triangle_checked(const spx_obb* a, const spx_triangle* b, const spx_triangle_edges* edges,
                                       float margin, int cap, spx_tri_manifold* out);

#endif
