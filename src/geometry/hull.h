/* Convex hulls inside the library: the block a spx_hull owns, and the view of it the queries read
 * (a box is such a view too, of its 8 corners). */
#ifndef SPX_HULL_INTERNAL_H
#define SPX_HULL_INTERNAL_H

#include <sepax/hull.h>
#include "math/dvec3.h"

#define SPX_HULL_DEF_COOKIE 0x48554C4Cu /* "HULL" */

/* A face: outward unit normal and offset in double (the queries test in double), its loop. */
typedef struct spx_hull_plane {
    spx_dvec3 normal;
    double offset;
    uint16_t first; /* into corners */
    uint16_t count;
} spx_hull_plane;

/* What the queries need of a hull, in its own frame. */
typedef struct spx_hull_view {
    const spx_vec3* vertices;
    const spx_hull_plane* faces;
    const uint8_t* corners;
    const spx_hull_edge* edges;
    uint32_t vertex_count, face_count, edge_count;
    spx_dvec3 center; /* a point inside (the mean of the corners) */
    double radius;    /* farthest corner from center */
} spx_hull_view;

struct spx_hull {
    spx_hull_view view;
    double volume;         /* m^3 */
    spx_dvec3 mass_center; /* hull frame */
    double inertia[3][3];  /* about mass_center, per unit density */
    spx_allocator allocator;
    size_t bytes;
};

/* The corner loops of one hull, indices into `points`, to be checked and turned into a hull. */
typedef struct spx_hull_loops {
    const spx_vec3* points;
    const uint32_t* corners; /* loop after loop */
    const uint32_t* sizes;
    uint32_t loop_count;
    uint32_t point_count;
} spx_hull_loops;

/* Builds the block from loops that are known good (quickhull's) or checks them first (a def's):
   planes, edges, mass. */
spx_result spx_hull_from_loops(const spx_hull_loops* loops, bool check, double size, const spx_allocator* allocator,
                               spx_hull** out);

/* Quickhull over the cloud: the merged face loops into scratch from the allocator, handed to
   spx_hull_from_loops. */
spx_result spx_quickhull(const spx_vec3* points, uint32_t count, const spx_allocator* allocator, spx_hull** out);

/* The view of a box with half extents h: corners c = (x | y << 1 | z << 2), the bit set for +h;
   faces 2k (+axis k) and 2k + 1 (-axis k). `vertices` and `faces` are the caller's storage. */
void spx_hull_box_view(spx_vec3 h, spx_vec3 vertices[8], spx_hull_plane faces[6], spx_hull_view* out);

#endif
