/* Random and adversarial problems for spheres and capsules, and a brute-force reference for them.
 *
 * The reference shares no code with src/: a round piece is its core as a vertex set (a point, a
 * segment's two ends, a box's 8 corners, a triangle's 3) with a radius; the signed distance of two
 * round pieces at time t is the cores' (GJK distance, or minus the exact depth where they overlap,
 * reference.c) less the sum of the radii, convex in t. The first contact is found by stepping
 * finely through [0, tmax], golden-section search for the smallest value between steps, and
 * bisection. */
#ifndef TEST_SUPPORT_ROUND_CASES_H
#define TEST_SUPPORT_ROUND_CASES_H

#include <sepax/round.h>
#include "cases.h"
#include "reference.h"

typedef enum test_round_pair_kind {
    TEST_RP_SPHERE_SPHERE = 0,
    TEST_RP_SPHERE_CAPSULE,
    TEST_RP_CAPSULE_CAPSULE,
    TEST_RP_SPHERE_OBB,
    TEST_RP_CAPSULE_OBB,
    TEST_RP_SPHERE_TRIANGLE,
    TEST_RP_CAPSULE_TRIANGLE,
    TEST_RP_KIND_COUNT
} test_round_pair_kind;

typedef enum test_round_family {
    TEST_RF_RANDOM = 0, /* random poses and sizes, aimed at a third each of hits, misses, overlaps */
    TEST_RF_GRID,       /* quarter-metre grid, boxes square to the axes: exact touches, parallel faces */
    TEST_RF_PARALLEL,   /* capsules along a box axis or edge, a triangle's edge or plane, each other */
    TEST_RF_DEGENERATE, /* no motion, equal motion, capsules with equal ends, radius 0 */
    TEST_RF_COUNT
} test_round_family;

typedef struct test_round_case {
    test_round_pair_kind kind;
    test_round_family family;
    uint64_t seed;
    spx_sphere sphere[2];   /* used where piece i is a sphere */
    spx_capsule capsule[2]; /* used where piece i is a capsule */
    spx_obb box;            /* B, where it is a box */
    spx_triangle tri;       /* B, where it is a triangle */
    spx_vec3 velocity[2];
    float tmax;
} test_round_case;

const char* test_round_kind_name(test_round_pair_kind kind);
const char* test_round_family_name(test_round_family family);
bool test_round_kind_a_is_capsule(test_round_pair_kind kind);
/* 0 sphere, 1 capsule, 2 box, 3 triangle */
int test_round_kind_b(test_round_pair_kind kind);

void test_round_case_make(test_round_pair_kind kind, test_round_family family, uint64_t seed, test_round_case* out);
/* The library's queries on the case. */
spx_result test_round_case_sweep(const test_round_case* c, spx_sweep_hit* out);
spx_result test_round_case_penetration(const test_round_case* c, spx_penetration* out);
spx_result test_round_case_overlap(const test_round_case* c, bool* out);
spx_result test_round_case_manifold(const test_round_case* c, float margin, spx_manifold* out);
/* The same problem with A and B exchanged (sphere-sphere and capsule-capsule). */
void test_round_case_swap(const test_round_case* in, test_round_case* out);
/* The whole problem moved by `offset` and every velocity increased by `velocity`. */
void test_round_case_move(const test_round_case* in, spx_vec3 offset, spx_vec3 velocity, test_round_case* out);
/* Each capsule's ends exchanged. */
void test_round_case_flip_capsules(const test_round_case* in, test_round_case* out);
/* Every coordinate rounded to a multiple of 2^-10 m, every velocity to 2^-6 m/s, tmax to 2^-6 s: a
   grid on which the moves of test_round_case_move with offsets and velocities on it add exactly. */
void test_round_case_snap(const test_round_case* in, test_round_case* out);

typedef struct test_round_ref {
    test_ref_problem p; /* the cores */
    double ra, rb;
} test_round_ref;

void test_round_ref_make(const test_round_case* c, test_round_ref* out);
/* Signed distance of the round pieces at t (m); the cores' witnesses in *d when given. */
double test_round_ref_sd(const test_round_ref* r, double t, test_ref_distance* d);
/* Distance of a world point from piece `which` (0 = A) at time t, 0 inside. */
double test_round_ref_point_distance(const test_round_ref* r, int which, const double point[3], double t);

typedef struct test_round_ref_sweep {
    test_ref_state state;
    double time;
    double normal[3];   /* unit, A to B; zero where not unique (cores meeting on tied axes) */
    double point[3];    /* A's surface point along the normal at the contact */
    double depth;       /* start overlap */
    double sd0, sd_min; /* sd at 0, smallest sd over [0, tmax] */
} test_round_ref_sweep;

void test_round_ref_solve(const test_round_ref* r, test_round_ref_sweep* out);

#endif
