/* Random and adversarial problems for spheres and capsules, and a brute-force reference for them.
 *
 * The reference shares no code with src/: a round piece is its core as a vertex set (a point, a
 * segment's two ends, a box's 8 corners, a triangle's 3) with a radius; the signed distance of two
 * round pieces at time t is the cores' (GJK distance, or minus the exact depth where they overlap,
 * reference.c) less the sum of the radii, convex in t. The first contact is found by stepping
 * finely through [0, tmax], golden-section search for the smallest value between steps, and
 * bisection. */
#ifndef SPX_TEST_ROUND_CASES_H
#define SPX_TEST_ROUND_CASES_H

#include <sepax/round.h>
#include "cases.h"
#include "reference.h"

typedef enum round_pair_kind {
    RP_SPHERE_SPHERE = 0,
    RP_SPHERE_CAPSULE,
    RP_CAPSULE_CAPSULE,
    RP_SPHERE_OBB,
    RP_CAPSULE_OBB,
    RP_SPHERE_TRIANGLE,
    RP_CAPSULE_TRIANGLE,
    RP_KIND_COUNT
} round_pair_kind;

typedef enum round_family {
    RF_RANDOM = 0,             /* random poses and sizes, aimed at a third each of hits, misses, overlaps */
    RF_GRID,                   /* quarter-metre grid, boxes square to the axes: exact touches, parallel faces */
    RF_PARALLEL,               /* capsules along a box axis or edge, a triangle's edge or plane, each other */
    RF_DEGENERATE,             /* no motion, equal motion, capsules with equal ends, radius 0 */
    RF_COUNT
} round_family;

typedef struct round_case {
    round_pair_kind kind;
    round_family family;
    uint64_t seed;
    spx_sphere sphere[2];      /* used where piece i is a sphere */
    spx_capsule capsule[2];    /* used where piece i is a capsule */
    spx_obb box;               /* B, where it is a box */
    spx_triangle tri;          /* B, where it is a triangle */
    spx_vec3 velocity[2];
    float tmax;
} round_case;

const char* round_kind_name(round_pair_kind kind);
const char* round_family_name(round_family family);
bool round_kind_a_is_capsule(round_pair_kind kind);
/* 0 sphere, 1 capsule, 2 box, 3 triangle */
int round_kind_b(round_pair_kind kind);

void round_case_make(round_pair_kind kind, round_family family, uint64_t seed, round_case* out);
/* The library's queries on the case. */
spx_result round_case_sweep(const round_case* c, spx_sweep_hit* out);
spx_result round_case_penetration(const round_case* c, spx_penetration* out);
spx_result round_case_overlap(const round_case* c, bool* out);
spx_result round_case_manifold(const round_case* c, float margin, spx_manifold* out);
/* The same problem with A and B exchanged (sphere-sphere and capsule-capsule). */
void round_case_swap(const round_case* in, round_case* out);
/* The whole problem moved by `offset` and every velocity increased by `velocity`. */
void round_case_move(const round_case* in, spx_vec3 offset, spx_vec3 velocity, round_case* out);
/* Each capsule's ends exchanged. */
void round_case_flip_capsules(const round_case* in, round_case* out);
/* Every coordinate rounded to a multiple of 2^-10 m, every velocity to 2^-6 m/s, tmax to 2^-6 s: a
   grid on which the moves of round_case_move with offsets and velocities on it add exactly. */
void round_case_snap(const round_case* in, round_case* out);

typedef struct round_ref {
    ref_problem p;             /* the cores */
    double ra, rb;
} round_ref;

void round_ref_make(const round_case* c, round_ref* out);
/* Signed distance of the round pieces at t (m); the cores' witnesses in *d when given. */
double round_ref_sd(const round_ref* r, double t, ref_distance* d);
/* Distance of a world point from piece `which` (0 = A) at time t, 0 inside. */
double round_ref_point_distance(const round_ref* r, int which, const double point[3], double t);

typedef struct round_ref_sweep {
    ref_state state;
    double time;
    double normal[3];          /* unit, A to B; zero where not unique (cores meeting on tied axes) */
    double point[3];           /* A's surface point along the normal at the contact */
    double depth;              /* start overlap */
    double sd0, sd_min;        /* sd at 0, smallest sd over [0, tmax] */
} round_ref_sweep;

void round_ref_solve(const round_ref* r, round_ref_sweep* out);

#endif
