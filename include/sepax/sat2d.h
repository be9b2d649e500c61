/* sepax: separating axes in the plane, on plain data: convex polygons and circles, at rest and
 * translating. No world; every query takes two pieces in world coordinates.
 *
 * The answers mirror the 3D queries of collide.h: whether the pieces overlap (touching counts), the
 * minimum translation that separates them, and the first contact of two pieces moving with constant
 * velocities over [0, tmax]. Normals point from A to B. The algorithms and their tolerances are in
 * docs/2d.md. */
#ifndef SEPAX_SAT2D_H
#define SEPAX_SAT2D_H

#include "collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A point or a direction in the plane (m).
typedef struct spx_vec2 {
    float x, y;
} spx_vec2;

/// The most corners a polygon keeps.
#define SPX_POLYGON_MAX_CORNERS 64

/// A convex polygon in world coordinates, its corners counter-clockwise. Made by spx_polygon_from_corners,
/// which accepts either winding and checks convexity; a polygon filled by hand is checked by every
/// query (count, finite corners, every turn to the left, one turn round in all).
typedef struct spx_polygon {
    uint32_t count;                            /* 3..SPX_POLYGON_MAX_CORNERS */
    spx_vec2 corners[SPX_POLYGON_MAX_CORNERS]; /* m, counter-clockwise */
    spx_vec2 normals[SPX_POLYGON_MAX_CORNERS]; /* unit, outward, of the edge from corner i to i + 1;
                                                      for the host: the queries work from the corners */
} spx_polygon;

/// A solid disc: centre (m) and radius (m, >= 0; 0 is a point).
typedef struct spx_circle {
    spx_vec2 center;
    float radius;
} spx_circle;

typedef enum spx_piece2d_kind { SPX_PIECE2D_POLYGON = 0, SPX_PIECE2D_CIRCLE } spx_piece2d_kind;

/// One piece of a 2D query: a polygon (borrowed, not copied) or a circle.
typedef struct spx_piece2d {
    spx_piece2d_kind kind;
    const spx_polygon* polygon; /* SPX_PIECE2D_POLYGON */
    spx_circle circle;          /* SPX_PIECE2D_CIRCLE */
} spx_piece2d;

/// The static answer at one pose. When the pieces overlap (touching counts), moving B by
/// depth * normal (or A by the opposite) separates them, also when one lies wholly inside the
/// other: the translation then pushes it fully out, not to the nearest edge.
typedef struct spx_penetration2d {
    bool overlapping;
    bool contained;  /* one piece lies wholly inside the other */
    spx_vec2 normal; /* unit, from A towards B; zero when not overlapping */
    float depth;     /* m, >= 0 when overlapping */
    spx_vec2 point;  /* m: midway along the normal between the two pieces'
                                                      deepest features, over where they overlap */
} spx_penetration2d;

/// The answer of a 2D sweep (states as spx_sweep_state of collide.h).
typedef struct spx_sweep_hit2d {
    spx_sweep_state state;
    float time;      /* s: first contact; 0 for START_OVERLAP */
    spx_vec2 normal; /* unit, from A towards B */
    spx_vec2 point;  /* m: where the pieces touch at `time`; START_OVERLAP as
                                                      spx_penetration2d.point */
    float depth;     /* m: START_OVERLAP, the minimum translation; else 0 */
} spx_sweep_hit2d;

/// Makes a convex polygon from `count` corners in order round its boundary, either winding
/// (1..SPX_POLYGON_MAX_CORNERS). Repeated corners (within 1e-6 of the polygon's size) and corners on
/// a straight line between their neighbours are dropped; the rest are stored counter-clockwise,
/// starting from the first one kept. Errors, the first that applies: SPX_ERR_INVALID_ARGUMENT
/// (NULL, count 0 or above the most), SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (a coordinate beyond
/// SPX_MAX_COORDINATE), SPX_ERR_ZERO_AREA (fewer than 3 corners left, or all on one line),
/// SPX_ERR_NOT_CONVEX (a corner turning the other way, or a boundary that winds round more than
/// once). On error `out` is unchanged.
SPX_API spx_result spx_polygon_from_corners(const spx_vec2* corners, uint32_t count, spx_polygon* out);

/// Checks a polygon as the queries do (see spx_polygon). Errors: SPX_ERR_INVALID_ARGUMENT (NULL,
/// count out of 3..SPX_POLYGON_MAX_CORNERS), SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE,
/// SPX_ERR_NOT_CONVEX (a turn that is not strictly to the left, or more than one turn round).
SPX_API spx_result spx_polygon_validate(const spx_polygon* polygon);

/// Checks a piece: its polygon as spx_polygon_validate, or a circle: SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE (centre or radius beyond SPX_MAX_COORDINATE), SPX_ERR_BAD_EXTENT (radius < 0).
/// SPX_ERR_INVALID_ARGUMENT for NULL, an unknown kind or a polygon piece without its polygon.
SPX_API spx_result spx_piece2d_validate(const spx_piece2d* piece);

/// Builds a piece that borrows `polygon`, or a circle.
SPX_API spx_piece2d spx_piece2d_from_polygon(const spx_polygon* polygon);
SPX_API spx_piece2d spx_piece2d_from_circle(spx_vec2 center, float radius);

/// Do the pieces overlap or touch? Stops at the first separating axis. Errors in the order of base.h
/// over both pieces: SPX_ERR_INVALID_ARGUMENT (NULL, a bad kind or count), SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE, then the shapes (SPX_ERR_BAD_EXTENT, SPX_ERR_NOT_CONVEX).
SPX_API spx_result spx_overlap_2d(const spx_piece2d* a, const spx_piece2d* b, bool* out_overlap);

/// Overlap and the minimum translation (spx_penetration2d), containment included. Two polygons: the
/// least push over both polygons' edge normals, each in both directions. A circle and a polygon: the
/// distance of the centre to the polygon, exactly. Two circles with one centre:
/// normal (1, 0) or (-1, 0), the opposite with A and B swapped (unless the circles are equal).
/// Errors as spx_overlap_2d.
SPX_API spx_result spx_penetration_2d(const spx_piece2d* a, const spx_piece2d* b, spx_penetration2d* out);

/// First contact of two pieces translating with constant velocities over [0, tmax]; START_OVERLAP
/// with the minimum translation when they overlap or touch at t = 0. Exact: the edge normals of two
/// polygons are all the axes there are in the plane, and a circle's contact with a polygon is the
/// first time its centre comes within the radius of an edge or a corner. Errors, in the order of
/// base.h over both pieces and the motion: SPX_ERR_INVALID_ARGUMENT (NULL, a bad kind or count),
/// SPX_ERR_NOT_FINITE (also a velocity or tmax), SPX_ERR_OUT_OF_RANGE (also a velocity component
/// times tmax beyond SPX_MAX_COORDINATE), the pieces' shapes, SPX_ERR_BAD_TIME for tmax < 0.
SPX_API spx_result spx_sweep_2d(const spx_piece2d* a, spx_vec2 velocity_a, const spx_piece2d* b, spx_vec2 velocity_b,
                                float tmax, spx_sweep_hit2d* out);

#ifdef __cplusplus
}
#endif

#endif
