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
#ifndef TEST_SUPPORT_REFERENCE_H
#define TEST_SUPPORT_REFERENCE_H

#include <stdbool.h>
#include <sepax/geometry.h>

/* A convex piece as a vertex set, with the directions that can make facets of a Minkowski sum. */
typedef struct test_ref_piece {
    int count;      /* vertices: 8 (box), 3 (triangle), 1 (point) */
    double v[8][3]; /* m */
    int edge_count; /* distinct edge directions (box 3, triangle 3) */
    double edge[3][3];
    int normal_count;    /* face normals (box 3, proper triangle 1, segment-like 0) */
    double normal[3][3]; /* unit */
    bool flat;           /* a triangle: its in-plane edge normals are candidate axes too */
} test_ref_piece;

void test_ref_piece_from_obb(const spx_obb* box, test_ref_piece* out);
void test_ref_piece_from_triangle(const spx_triangle* tri, test_ref_piece* out);
void test_ref_piece_from_point(const double p[3], test_ref_piece* out);

/* GJK distance between piece a shifted by offset_a and piece b shifted by offset_b. */
typedef struct test_ref_distance {
    double distance;     /* m, 0 when they overlap or touch */
    double point_a[3];   /* closest point on a (world) */
    double point_b[3];   /* closest point on b (world) */
    double direction[3]; /* unit (point_b - point_a), zero when distance is 0 */
    int iterations;
    bool converged; /* false: stopped at the iteration cap (never seen; tests check it) */
} test_ref_distance;

double test_ref_gjk_distance(const test_ref_piece* a, const double offset_a[3], const test_ref_piece* b,
                             const double offset_b[3], test_ref_distance* out);

/* Candidate axes: face normals of both pieces, edge x edge crosses, in-plane normals of flat pieces. */
#define TEST_REF_MAX_AXES 32
typedef struct test_ref_axes {
    int count;
    double n[TEST_REF_MAX_AXES][3]; /* unit */
} test_ref_axes;

void test_ref_candidate_axes(const test_ref_piece* a, const test_ref_piece* b, test_ref_axes* out);

/* A swept problem: both pieces translate with constant velocity over [0, tmax]. */
typedef struct test_ref_problem {
    test_ref_piece a, b;
    double va[3], vb[3]; /* m/s */
    double tmax;         /* s */
    test_ref_axes axes;
    /* Scale of the problem: the largest of the pieces' diameters and the displacements |va| tmax,
       |vb| tmax, |vb - va| tmax. Every tolerance of the comparison is a fraction of it. */
    double size;
} test_ref_problem;

void test_ref_problem_obb_obb(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax,
                              test_ref_problem* out);
void test_ref_problem_obb_triangle(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb, float tmax,
                                   test_ref_problem* out);
void test_ref_problem_triangle_triangle(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                        float tmax, test_ref_problem* out);

/* Gap along unit n at time t: min over B of x.n minus max over A of x.n. Positive: n separates,
   with B on the +n side. Negative: the projections overlap by -gap. */
double test_ref_gap_along(const test_ref_problem* p, const double n[3], double t);

/* Minimum translation at time t, exact (see the top of this file). */
typedef struct test_ref_penetration {
    double depth;     /* m, >= 0: smallest overlap over all directions (0 if separated) */
    double normal[3]; /* unit, A towards B: move B by depth * normal to separate */
    double second;    /* smallest overlap over candidate axes more than 5e-4 rad away from normal */
} test_ref_penetration;

void test_ref_penetration_at(const test_ref_problem* p, double t, test_ref_penetration* out);

/* Signed distance at t: GJK distance when apart, minus the exact depth when overlapping. */
double test_ref_signed_distance(const test_ref_problem* p, double t, test_ref_distance* out_optional);

/* Distance of a world point from piece a (which = 0) or b (which = 1) at time t. */
double test_ref_point_distance(const test_ref_problem* p, int which, const double point[3], double t);

typedef enum test_ref_state { TEST_REF_MISS = 0, TEST_REF_HIT, TEST_REF_START_OVERLAP } test_ref_state;

typedef struct test_ref_sweep {
    test_ref_state state; /* exact answer of the reference: sd(0) < 0 start overlap, first sd <= 0 hit */
    double time;          /* s: first time sd(t) <= 0; 0 for start overlap */
    double normal[3];     /* unit, A to B: closest-point direction just before contact, or the
                                  minimum translation direction for a start overlap */
    double point[3];      /* midpoint of the witnesses just before contact */
    double depth;         /* start overlap: exact penetration depth */
    double sd_start;      /* sd(0) */
    double sd_min;        /* min of sd over [0, tmax]: > 0 is the clearance of a miss */
    double t_min;         /* where sd reaches sd_min */
    bool normal_unique;   /* false when another candidate axis is as good within the uniqueness
                                  tolerance (contact at or near an edge/vertex of the Minkowski
                                  difference: several normals are valid) */
    int evaluations;      /* sd evaluations spent */
} test_ref_sweep;

/* unique_tol (m): a second axis whose gap at the contact time (or whose overlap, for a start
   overlap) is within unique_tol of the chosen one makes the normal ambiguous. */
void test_ref_sweep_solve(const test_ref_problem* p, double unique_tol, test_ref_sweep* out);

/* First time in [t0, t1] where sd(t) <= level, given sd(t0) > level and sd(t1) <= level. */
double test_ref_first_time_below(const test_ref_problem* p, double level, double t0, double t1);

/* A function of time searched by the references: f(context, t). */
typedef double test_ref_time_fn(const void* context, double t);

/* The last two probes of a golden-section search, x1 < x2 while the bracket is wide. */
typedef struct test_ref_golden {
    double x1, f1, x2, f2;
} test_ref_golden;

/* Golden-section search for the minimum of a convex f on [lo, hi]: `steps` steps at most, stopping
   once the bracket is no wider than `width` (negative: never); on a tie of the two probes the left
   part is kept when `ties_left`, else the right. *evals (may be NULL) counts the evaluations. */
test_ref_golden test_ref_golden_search(test_ref_time_fn* f, const void* context, double lo, double hi, int steps,
                                       double width, bool ties_left, int* evals);

/* Small double vector helpers shared by the tests. */
double test_ref_dot(const double a[3], const double b[3]);
double test_ref_angle(const double a[3], const double b[3]); /* rad, between two nonzero vectors */

#endif
