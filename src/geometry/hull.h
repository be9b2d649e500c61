/* A spx_hull's block and the view queries read (a box has one too). */
#ifndef SPX_HULL_INTERNAL_H
#define SPX_HULL_INTERNAL_H

#include <sepax/hull.h>
#include "math/dvec3.h"

#define SPX_HULL_DEF_COOKIE 0x48554C4Cu /* "HULL" */

/* Outward unit normal in double, as the queries test. */
typedef struct spx_hull_plane {
    spx_dvec3 normal;
    double offset;
    uint16_t first; /* into corners */
    uint16_t count;
    uint8_t far; /* a corner on the plane: the loop's first, unless a corner lies beyond that by more than rounding */
} spx_hull_plane;

/* In the hull's frame. */
typedef struct spx_hull_view {
    const spx_vec3* vertices;
    const spx_hull_plane* faces;
    const uint8_t* corners;
    const spx_hull_edge* edges;
    uint32_t vertex_count, face_count, edge_count;
    spx_dvec3 center; /* mean of the corners */
    double radius;
    uint32_t opposite_pairs; /* faces 2k and 2k + 1 below twice this: normals exact negations (one dot serves both) */
} spx_hull_view;

struct spx_hull {
    spx_hull_view view;
    double volume;
    spx_dvec3 mass_center;
    double inertia[3][3]; /* per unit density */
    spx_allocator allocator;
    size_t bytes;
};

typedef struct spx_hull_loops {
    const spx_vec3* points;
    const uint32_t* corners; /* loop after loop, into points */
    const uint32_t* sizes;
    uint32_t loop_count;
    uint32_t point_count;
} spx_hull_loops;

/* How many leading face pairs (2k, 2k + 1) have exactly opposite normals (== compares, so a zero's sign is free). */
uint32_t spx_hull_opposite_pairs(const spx_hull_plane* faces, uint32_t count);

/* `check` for a def's loops; quickhull's are known good. */
spx_result spx_hull_from_loops(const spx_hull_loops* loops, bool check, double size, const spx_allocator* allocator,
                               spx_hull** out);

spx_result spx_quickhull(const spx_vec3* points, uint32_t count, const spx_allocator* allocator, spx_hull** out);

/* Corner x | y << 1 | z << 2 (bit set: +h); faces 2k: +axis k, 2k + 1: -axis k. Caller's storage. */
void spx_hull_box_view(spx_vec3 h, spx_vec3 vertices[8], spx_hull_plane faces[6], spx_hull_view* out);

#endif
