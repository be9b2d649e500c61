/* An independent brute-force reference for the collision queries, in double precision.
 *
 * It shares no code with src/: pieces are plain vertex sets (a box is its 8 corners, a triangle
 * its 3, a segment-like triangle simply has collinear corners), the static test is GJK distance
 * between two vertex sets, and the swept answer comes from the signed distance sd(t) between the
 * two translating pieces. sd(t) is the signed distance of the origin to the Minkowski difference
 * B(t) - A(t), which only translates along the relative velocity; the signed distance to a convex
 * set is a convex function of the point, so sd(t) is convex in t. That makes the first root
 * findable by bracketing and bisection, and the minimum (the clearance) by golden-section search,
 * with no risk of stepping over a thin contact the way fixed sampling would.
 *
 * The penetration depth is exact, not sampled: the minimum over unit directions of the overlap of
 * the two projections is reached at a facet normal of the Minkowski difference, and every facet
 * normal is a face normal of a piece or a cross product of an edge of each. Any other direction
 * only gives a larger overlap, so the minimum over this finite superset is the exact depth. */
#ifndef SPX_TEST_REFERENCE_H
#define SPX_TEST_REFERENCE_H

#include <stdbool.h>
#include <sepax/geometry.h>

/* A convex piece as a vertex set, with the directions that can make facets of a Minkowski sum. */
typedef struct ref_piece {
    int count;                 /* vertices: 8 (box), 3 (triangle), 1 (point) */
    double v[8][3];            /* m */
    int edge_count;            /* distinct edge directions (box 3, triangle 3) */
    double edge[3][3];
    int normal_count;          /* face normals (box 3, proper triangle 1, segment-like 0) */
    double normal[3][3];       /* unit */
    bool flat;                 /* a triangle: its in-plane edge normals are candidate axes too */
} ref_piece;

void ref_piece_from_obb(const spx_obb* box, ref_piece* out);
void ref_piece_from_triangle(const spx_triangle* tri, ref_piece* out);
void ref_piece_from_point(const double p[3], ref_piece* out);

/* GJK distance between piece a shifted by offset_a and piece b shifted by offset_b. */
typedef struct ref_distance {
    double distance;           /* m, 0 when they overlap or touch */
    double point_a[3];         /* closest point on a (world) */
    double point_b[3];         /* closest point on b (world) */
    double direction[3];       /* unit (point_b - point_a), zero when distance is 0 */
    int iterations;
    bool converged;            /* false: stopped at the iteration cap (never seen; tests check it) */
} ref_distance;

double ref_gjk_distance(const ref_piece* a, const double offset_a[3], const ref_piece* b, const double offset_b[3],
                        ref_distance* out);

/* Candidate axes: face normals of both pieces, edge x edge crosses, in-plane normals of flat pieces. */
#define REF_MAX_AXES 32
typedef struct ref_axes {
    int count;
    double n[REF_MAX_AXES][3]; /* unit */
} ref_axes;

void ref_candidate_axes(const ref_piece* a, const ref_piece* b, ref_axes* out);

/* A swept problem: both pieces translate with constant velocity over [0, tmax]. */
typedef struct ref_problem {
    ref_piece a, b;
    double va[3], vb[3];       /* m/s */
    double tmax;               /* s */
    ref_axes axes;
    /* Scale of the problem: the largest of the pieces' diameters and the displacements |va| tmax,
       |vb| tmax, |vb - va| tmax. Every tolerance of the comparison is a fraction of it. */
    double size;
} ref_problem;

void ref_problem_obb_obb(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax, ref_problem* out);
void ref_problem_obb_triangle(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb, float tmax,
                              ref_problem* out);
void ref_problem_triangle_triangle(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                   float tmax, ref_problem* out);

/* Gap along unit n at time t: min over B of x.n minus max over A of x.n. Positive: n separates,
   with B on the +n side. Negative: the projections overlap by -gap. */
double ref_gap_along(const ref_problem* p, const double n[3], double t);

/* Minimum translation at time t, exact (see the top of this file). */
typedef struct ref_penetration {
    double depth;              /* m, >= 0: smallest overlap over all directions (0 if separated) */
    double normal[3];          /* unit, A towards B: move B by depth * normal to separate */
    double second;             /* smallest overlap over candidate axes more than 5e-4 rad away from normal */
} ref_penetration;

void ref_penetration_at(const ref_problem* p, double t, ref_penetration* out);

/* Signed distance at t: GJK distance when apart, minus the exact depth when overlapping. */
double ref_signed_distance(const ref_problem* p, double t, ref_distance* out_optional);

/* Distance of a world point from piece a (which = 0) or b (which = 1) at time t. */
double ref_point_distance(const ref_problem* p, int which, const double point[3], double t);

typedef enum ref_state { REF_MISS = 0, REF_HIT, REF_START_OVERLAP } ref_state;

typedef struct ref_sweep {
    ref_state state;           /* exact answer of the reference: sd(0) < 0 start overlap, first sd <= 0 hit */
    double time;               /* s: first time sd(t) <= 0; 0 for start overlap */
    double normal[3];          /* unit, A to B: closest-point direction just before contact, or the
                                  minimum translation direction for a start overlap */
    double point[3];           /* midpoint of the witnesses just before contact */
    double depth;              /* start overlap: exact penetration depth */
    double sd_start;           /* sd(0) */
    double sd_min;             /* min of sd over [0, tmax]: > 0 is the clearance of a miss */
    double t_min;              /* where sd reaches sd_min */
    bool normal_unique;        /* false when another candidate axis is as good within the uniqueness
                                  tolerance (contact at or near an edge/vertex of the Minkowski
                                  difference: several normals are valid) */
    int evaluations;           /* sd evaluations spent */
} ref_sweep;

/* unique_tol (m): a second axis whose gap at the contact time (or whose overlap, for a start
   overlap) is within unique_tol of the chosen one makes the normal ambiguous. */
void ref_sweep_solve(const ref_problem* p, double unique_tol, ref_sweep* out);

/* First time in [t0, t1] where sd(t) <= level, given sd(t0) > level and sd(t1) <= level. */
double ref_first_time_below(const ref_problem* p, double level, double t0, double t1);

/* Small double vector helpers shared by the tests. */
double ref_dot(const double a[3], const double b[3]);
double ref_angle(const double a[3], const double b[3]); /* rad, between two nonzero vectors */

#endif
