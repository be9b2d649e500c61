/* Deterministic random swept problems for the comparison against the reference.
 *
 * Every case is a function of (kind, seed) only: an own splitmix64 generator, no rand(), no time,
 * so a failing case is reproduced from the seed printed with it. The mix aims at a third each of
 * hits, misses and start overlaps; which one a case really is, only the reference decides. */
#ifndef TEST_SUPPORT_CASES_H
#define TEST_SUPPORT_CASES_H

#include <stdint.h>
#include <stdio.h>
#include <sepax/geometry.h>
#include "reference.h"

typedef enum test_case_kind {
    TEST_CASE_OBB_OBB = 0,
    TEST_CASE_OBB_TRIANGLE,
    TEST_CASE_TRIANGLE_TRIANGLE,
    TEST_CASE_KIND_COUNT
} test_case_kind;
typedef enum test_case_aim { TEST_CASE_AIM_HIT = 0, TEST_CASE_AIM_MISS, TEST_CASE_AIM_OVERLAP } test_case_aim;

typedef struct test_case_rng {
    uint64_t state;
} test_case_rng;

uint64_t test_case_rng_next(test_case_rng* rng); /* splitmix64 */
double test_case_uniform(test_case_rng* rng, double lo, double hi);
double test_case_log_uniform(test_case_rng* rng, double lo, double hi);
void test_case_unit_vector(test_case_rng* rng, double out[3]); /* uniform on the sphere */
spx_quat test_case_random_quat(test_case_rng* rng);            /* uniform rotation (Shoemake) */
/* A vector of three numbers of test_case_uniform(rng, lo, hi) as floats, drawn z first, then y, then x:
   an order fixed here, not by the compiler, as every draw of a test is (one draw a statement). */
spx_vec3 test_case_random_vec3(test_case_rng* rng, double lo, double hi);
/* A move that keeps a problem's floats exact: an offset of whole metres within 1 km and a velocity on
   a 1/64 m/s grid within 8 m/s, each drawn z first, then y, then x. */
void test_case_random_shift(test_case_rng* rng, spx_vec3* out_offset, spx_vec3* out_velocity);

/* One swept problem. Piece 0 is A, piece 1 is B; kind says which of box/tri each one is
   (OBB-triangle: A is the box, B the triangle). */
typedef struct test_sweep_case {
    test_case_kind kind;
    test_case_aim aim;
    uint64_t seed;
    spx_obb box[2];
    spx_quat quat[2]; /* the rotation the box was built from */
    spx_triangle tri[2];
    spx_vec3 velocity[2];
    float tmax;
} test_sweep_case;

const char* test_case_kind_name(test_case_kind kind);
int test_case_piece_is_box(test_case_kind kind, int piece);

/* Builds case `seed` of `kind`. */
void test_case_make(test_case_kind kind, uint64_t seed, test_sweep_case* out);

/* The same problem with A and B exchanged (OBB-OBB and triangle-triangle only). */
void test_case_swap(const test_sweep_case* in, test_sweep_case* out);

/* The whole problem moved rigidly: x -> R(q) x + shift (positions), v -> R(q) v (velocities). */
void test_case_transform(const test_sweep_case* in, spx_quat q, const double shift[3], test_sweep_case* out);

/* The reference problem on exactly the floats the library sees. */
void test_case_reference_problem(const test_sweep_case* c, test_ref_problem* out);

/* Rotates a double vector by q (for comparing normals after test_case_transform). */
void test_case_rotate(spx_quat q, const double in[3], double out[3]);
/* The same for a float vector: turned in double, rounded once. */
spx_vec3 test_case_turn(spx_quat q, spx_vec3 v);

/* Prints the case so it can be pasted back into a test: floats in %a with %.9g beside them. */
void test_case_print(FILE* f, const test_sweep_case* c);

#endif
