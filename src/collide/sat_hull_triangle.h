/* A triangle as a flat hull view (two faces, a two-corner side per edge, each edge split in two), so sat_hull.c's
 * loop serves hull against triangle. See docs/collision.md#hulls-against-triangles-and-meshes. */
#ifndef SPX_SAT_HULL_TRIANGLE_H
#define SPX_SAT_HULL_TRIANGLE_H

#include "sat_hull.h"

/* Faces: 0 the normal (v1 - v0) x (v2 - v0), 1 its opposite, 2 + j edge j's outward side. Edges: 2j between faces 0
   and 2 + j, 2j + 1 between 2 + j and 1. */
#define SPX_TRIANGLE_VIEW_FACES 5
#define SPX_TRIANGLE_VIEW_EDGES 6

typedef struct spx_triangle_view {
    spx_vec3 vertices[3];
    spx_hull_plane faces[SPX_TRIANGLE_VIEW_FACES];
    uint8_t corners[12];
    spx_hull_edge edges[SPX_TRIANGLE_VIEW_EDGES];
    spx_hull_view view;
} spx_triangle_view;

/* The view of checked triangle t in *tv (world coordinates) and a query whose B is it; tv must outlive q's use. */
void spx_hull_query_triangle(const spx_triangle* t, spx_triangle_view* tv, spx_hull_query* q);

#endif
