/* Round pieces as cores grown by a radius: the core of a sphere is a point, of a capsule a segment;
 * a box or a triangle is its own core with radius 0. Two round pieces touch where their cores come
 * within the sum of the radii, so every query of round.h is a question about two cores and a
 * distance. Double precision, coordinates relative to an origin near the pair (A's first point; the
 * sweep, overlap and penetration first put the pieces in a canonical order, round_sweep.c). */
#ifndef SPX_ROUND_CORE_H
#define SPX_ROUND_CORE_H

#include <sepax/round.h>
#include "math/dvec3.h"

typedef enum round_kind { ROUND_POINT = 0, ROUND_SEGMENT, ROUND_BOX, ROUND_TRIANGLE } round_kind;

typedef struct round_core {
    round_kind kind;
    int vertex_count; /* 1, 2, 8 (corner k: +h along axis i where bit i of k is set), 3 */
    spx_dvec3 v[8];
    spx_dvec3 center;  /* box centre; otherwise the mean of the vertices */
    spx_dvec3 axis[3]; /* box: unit axes */
    double h[3];       /* box: half extents */
    spx_dvec3 normal;  /* triangle: unit (v1-v0) x (v2-v0), zero for a segment-like one */
    double size;       /* m: diameter of the core */
} round_core;

/* The cores, relative to `origin`. */
void round_core_point(spx_vec3 p, spx_dvec3 origin, round_core* out);
void round_core_segment(spx_vec3 p0, spx_vec3 p1, spx_dvec3 origin, round_core* out);
void round_core_box(const spx_obb* box, spx_dvec3 origin, round_core* out);
void round_core_triangle(const spx_triangle* tri, spx_dvec3 origin, round_core* out);

/* The core moved by `shift`. */
void round_core_shift(const round_core* in, spx_dvec3 shift, round_core* out);

/* Edges of a core: the vertex pairs (box 12, triangle 3, segment 1, point 0). */
int round_core_edges(const round_core* c, int out_edges[12][2]);

/* Closest points of core a (a point or a segment) and core b: the distance, and a closest point of each.
   Where the cores meet, 0 and one common point (for a segment through a box, the middle of its part
   inside). */
double round_closest(const round_core* a, const round_core* b, spx_dvec3* out_pa, spx_dvec3* out_pb);

/* The least overlap of cores that meet: the unit direction (A to B) to move B along and the overlap,
   over the axes of the cores' own test (box faces, the triangle's normal, cross products of a segment
   with the other's edges). *out_axis is 1 + the axis's place in that list; 0 when there is no axis (a
   point meeting a point or a segment, parallel segments): then the depth is 0 and the direction is
   taken from `hint` (B's motion relative to A, or zero), then from A's centre to B's, across a segment,
   and lastly a fixed perpendicular. */
void round_core_penetration(const round_core* a, const round_core* b, spx_dvec3 hint, spx_dvec3* out_normal,
                            double* out_depth, int* out_axis);

/* Times at which the point o + d t is within `radius` of core c: the interval [*t0, *t1] clipped to
   [lo, hi], false when empty. Exact: the grown core is a union of convex pieces (balls at the vertices,
   solid cylinders along the edges, a box's three plates, a triangle's prism) and the interval of a line
   in each is closed form. */
bool round_line_interval(const round_core* c, double radius, spx_dvec3 o, spx_dvec3 d, double lo, double hi, double* t0,
                         double* t1);

/* First time in [0, tmax] at which core a (a point or a segment) and core b moving at `v` relative to
   a come within `radius`: false when they never do. Per feature pair: each vertex of either core
   against the other grown by radius, and a segment's inside against each edge of b's. */
bool round_first_time(const round_core* a, const round_core* b, spx_dvec3 v, double radius, double tmax,
                      double* out_time);

/* The pieces the queries against convex hulls (round_hull.c) share with these: the closest point of
   segment s0-s1 to p; the closest points of two segments and their distance; and, clipping [*lo, *hi]
   as round_line_interval does, the times the line o + d t is within r of point c or of segment c0-c1
   (false when never), and the first time in [0, tmax] at which segment w0 + v t + [0, 1] ub comes
   within r of the still segment [0, 1] ua. */
spx_dvec3 round_closest_on_segment(spx_dvec3 p, spx_dvec3 s0, spx_dvec3 s1);
double round_segments_closest(spx_dvec3 p1, spx_dvec3 q1, spx_dvec3 p2, spx_dvec3 q2, spx_dvec3* c1, spx_dvec3* c2);
bool round_line_ball(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c, double r, double* lo, double* hi);
bool round_line_cylinder(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c0, spx_dvec3 c1, double r, double* lo, double* hi);
bool round_segment_pair_time(spx_dvec3 ua, spx_dvec3 ub, spx_dvec3 w0, spx_dvec3 v, double r, double tmax, double* t);

/* Clips [*lo, *hi] to the t where a <= (o + d t) . m <= b (a, b may be infinite): false when empty. */
static inline bool round_clip_slab(spx_dvec3 o, spx_dvec3 d, spx_dvec3 m, double a, double b, double* lo, double* hi)
{
    double p = spx_d3_dot(o, m), dp = spx_d3_dot(d, m);
    if (dp == 0.0) return p >= a && p <= b;
    double t0 = (a - p) / dp, t1 = (b - p) / dp;
    if (t0 > t1) {
        double s = t0;
        t0 = t1;
        t1 = s;
    }
    *lo = spx_dmax(*lo, t0);
    *hi = spx_dmin(*hi, t1);
    return *lo <= *hi;
}

/* A piece of kind k at s (round_piece), and the seven round pairs the public queries cover, for a
   macro X(name, type of A, kind of A, type of B, kind of B) that defines one pair's queries. */
#define ROUND_PIECE(k, s) ((round_piece){ (k), (s) })
#define ROUND_PAIRS(X)                                                         \
    X(sphere_sphere, spx_sphere, ROUND_POINT, spx_sphere, ROUND_POINT)         \
    X(sphere_capsule, spx_sphere, ROUND_POINT, spx_capsule, ROUND_SEGMENT)     \
    X(capsule_capsule, spx_capsule, ROUND_SEGMENT, spx_capsule, ROUND_SEGMENT) \
    X(sphere_obb, spx_sphere, ROUND_POINT, spx_obb, ROUND_BOX)                 \
    X(capsule_obb, spx_capsule, ROUND_SEGMENT, spx_obb, ROUND_BOX)             \
    X(sphere_triangle, spx_sphere, ROUND_POINT, spx_triangle, ROUND_TRIANGLE)  \
    X(capsule_triangle, spx_capsule, ROUND_SEGMENT, spx_triangle, ROUND_TRIANGLE)

/* ---- a pair of pieces ------------------------------------------------------------------------- */

/* A piece of round.h or geometry.h, named by the kind of its core: POINT an spx_sphere, SEGMENT an
   spx_capsule, BOX an spx_obb, TRIANGLE an spx_triangle. */
typedef struct round_piece {
    round_kind kind;
    const void* shape;
} round_piece;

/* The pair's cores relative to A's first point, with their radii and the problem's size (m: the
   larger of the pieces' diameters). */
typedef struct round_pair {
    round_core a, b;
    double ra, rb;
    spx_dvec3 origin;
    double size;
} round_pair;

/* The piece's own validator (SPX_ERR_INVALID_ARGUMENT for NULL). */
spx_result round_piece_check(round_piece p);
/* For pieces that pass round_piece_check; A is a sphere or a capsule. */
void round_pair_make(round_piece a, round_piece b, round_pair* out);

/* Closest point of core c to p. */
spx_dvec3 round_closest_to_point(const round_core* c, spx_dvec3 p);

/* The contact of the pair with B's core at `b` (A's moved relative to it): the unit normal (A to B) and
   the cores' separation along it (their distance, or minus their least overlap where they meet);
   `hint` as for round_core_penetration. *out_pa, *out_pb: a closest point of each core (where they
   meet, one common point). */
void round_contact_normal(const round_pair* p, const round_core* b, spx_dvec3 hint, spx_dvec3* out_normal,
                          double* out_separation, int* out_axis, spx_dvec3* out_pa, spx_dvec3* out_pb);

/* The manifold of round.h for a pair already checked, whose contact normal (A to B), separation and
   closest points round_contact_normal gave. Returns a mask: bit k set when point k is an end of a
   capsule's stretch cut by B (a face's side, the other segment's end), not the capsule's own end. */
unsigned round_pair_manifold(const round_pair* p, double margin, spx_dvec3 n, double sep, spx_dvec3 pa, spx_dvec3 pb,
                             spx_manifold* out);

/* B a triangle with a plane: A's contact with that plane where A's core lies over the triangle (a
   sphere's centre, or the part of a capsule's segment, inside the triangle's prism), normal the
   face's towards B, one point a sphere and two a capsule (ids as round.h's), kept within `margin`.
   The mask as round_pair_manifold's; no points when the core is not over the triangle. */
unsigned round_pair_face_manifold(const round_pair* p, double margin, spx_manifold* out);

#endif
