/* Round pieces as cores (point, segment, or a box or triangle itself) grown by a radius: every round query is about
 * two cores and a distance, in double relative to an origin near the pair. See
 * docs/collision.md#spheres-and-capsules. */
#ifndef SPX_ROUND_CORE_H
#define SPX_ROUND_CORE_H

#include <sepax/round.h>
#include "math/dvec3.h"

typedef enum round_kind { ROUND_POINT = 0, ROUND_SEGMENT, ROUND_BOX, ROUND_TRIANGLE } round_kind;

typedef struct round_core {
    round_kind kind;
    int vertex_count; /* 1, 2, 8 (corner k: +h along axis i where bit i of k is set), 3 */
    spx_dvec3 v[8];
    spx_dvec3 center;  /* box centre; else the vertices' mean */
    spx_dvec3 axis[3]; /* box: unit axes */
    double h[3];       /* box: half extents */
    spx_dvec3 normal;  /* triangle: unit (v1-v0) x (v2-v0), zero if segment-like */
    double size;       /* m: diameter of the core */
} round_core;

void round_core_point(spx_vec3 p, spx_dvec3 origin, round_core* out);
void round_core_segment(spx_vec3 p0, spx_vec3 p1, spx_dvec3 origin, round_core* out);
void round_core_box(const spx_obb* box, spx_dvec3 origin, round_core* out);
void round_core_triangle(const spx_triangle* tri, spx_dvec3 origin, round_core* out);

void round_core_shift(const round_core* in, spx_dvec3 shift, round_core* out);

/* Vertex pairs: box 12, triangle 3, segment 1, point 0. */
int round_core_edges(const round_core* c, int out_edges[12][2]);

/* Closest points of core a (point or segment) and core b, and their distance; where they meet, 0 and one common point
   (a segment through a box: the middle of its part inside). */
double round_closest(const round_core* a, const round_core* b, spx_dvec3* out_pa, spx_dvec3* out_pb);

/* Least overlap of meeting cores over their own axes: unit direction (A to B) and overlap; *out_axis is 1 + the
   axis's place. 0 with no axis (point on point or segment, parallel segments): depth 0, direction from `hint` (B's
   relative motion), then centre to centre, across a segment, a fixed perpendicular. */
void round_core_penetration(const round_core* a, const round_core* b, spx_dvec3 hint, spx_dvec3* out_normal,
                            double* out_depth, int* out_axis);

/* [lo, hi] clipped to the times o + d t is within `radius` of core c, into [*t0, *t1]; false when empty. Exact:
   closed form per convex piece of the grown core. */
bool round_line_interval(const round_core* c, double radius, spx_dvec3 o, spx_dvec3 d, double lo, double hi, double* t0,
                         double* t1);

/* First time in [0, tmax] at which core a (point or segment) and core b moving at `v` relative to it come within
   `radius`; false when never. */
bool round_first_time(const round_core* a, const round_core* b, spx_dvec3 v, double radius, double tmax,
                      double* out_time);

/* Shared with round_hull.c: closest point on a segment, closest points of two segments, a line's times within r of a
   ball or cylinder (clipping [*lo, *hi]), and the first time segment w0 + v t + [0, 1] ub comes within r of still
   segment [0, 1] ua. */
spx_dvec3 round_closest_on_segment(spx_dvec3 p, spx_dvec3 s0, spx_dvec3 s1);
double round_segments_closest(spx_dvec3 p1, spx_dvec3 q1, spx_dvec3 p2, spx_dvec3 q2, spx_dvec3* c1, spx_dvec3* c2);
bool round_line_ball(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c, double r, double* lo, double* hi);
bool round_line_cylinder(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c0, spx_dvec3 c1, double r, double* lo, double* hi);
bool round_segment_pair_time(spx_dvec3 ua, spx_dvec3 ub, spx_dvec3 w0, spx_dvec3 v, double r, double tmax, double* t);

/* Clips [*lo, *hi] to a <= (o + d t) . m <= b (a, b may be infinite); false when empty. */
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

/* A piece of kind k at s, and the seven round pairs of the public queries for X(name, type A, kind A, type B, kind
   B). */
#define ROUND_PIECE(k, s) ((round_piece){ (k), (s) })
#define ROUND_PAIRS(X)                                                         \
    X(sphere_sphere, spx_sphere, ROUND_POINT, spx_sphere, ROUND_POINT)         \
    X(sphere_capsule, spx_sphere, ROUND_POINT, spx_capsule, ROUND_SEGMENT)     \
    X(capsule_capsule, spx_capsule, ROUND_SEGMENT, spx_capsule, ROUND_SEGMENT) \
    X(sphere_obb, spx_sphere, ROUND_POINT, spx_obb, ROUND_BOX)                 \
    X(capsule_obb, spx_capsule, ROUND_SEGMENT, spx_obb, ROUND_BOX)             \
    X(sphere_triangle, spx_sphere, ROUND_POINT, spx_triangle, ROUND_TRIANGLE)  \
    X(capsule_triangle, spx_capsule, ROUND_SEGMENT, spx_triangle, ROUND_TRIANGLE)

/* ---- a pair of pieces ---- */

/* A piece named by its core's kind: POINT spx_sphere, SEGMENT spx_capsule, BOX spx_obb, TRIANGLE spx_triangle. */
typedef struct round_piece {
    round_kind kind;
    const void* shape;
} round_piece;

/* Cores relative to A's first point, radii, and size (m: the larger diameter). */
typedef struct round_pair {
    round_core a, b;
    double ra, rb;
    spx_dvec3 origin;
    double size;
} round_pair;

/* The piece's own validator; SPX_ERR_INVALID_ARGUMENT for NULL. */
spx_result round_piece_check(round_piece p);
/* For checked pieces; A is a sphere or a capsule. */
void round_pair_make(round_piece a, round_piece b, round_pair* out);

spx_dvec3 round_closest_to_point(const round_core* c, spx_dvec3 p);

/* The contact with B's core at `b`: unit normal (A to B), separation (distance, or minus least overlap), axis, a
   closest point of each (one common point where they meet); `hint` as for round_core_penetration. */
void round_contact_normal(const round_pair* p, const round_core* b, spx_dvec3 hint, spx_dvec3* out_normal,
                          double* out_separation, int* out_axis, spx_dvec3* out_pa, spx_dvec3* out_pb);

/* The manifold of a checked pair from round_contact_normal's normal, separation and points. Bit k of the mask: point
   k is a stretch end cut by B, not the capsule's own end. */
unsigned round_pair_manifold(const round_pair* p, double margin, spx_dvec3 n, double sep, spx_dvec3 pa, spx_dvec3 pb,
                             spx_manifold* out);

/* B a triangle with a plane: A's contact with it where A's core lies over the triangle, normal the face's towards B,
   one point (sphere) or two (capsule) within `margin`; mask as round_pair_manifold; none when not over it. */
unsigned round_pair_face_manifold(const round_pair* p, double margin, spx_manifold* out);

#endif
