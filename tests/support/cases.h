/* Deterministic random swept problems for the comparison against the reference.
 *
 * Every case is a function of (kind, seed) only: an own splitmix64 generator, no rand(), no time,
 * so a failing case is reproduced from the seed printed with it. The mix aims at a third each of
 * hits, misses and start overlaps; which one a case really is, only the reference decides. */
#ifndef SPX_TEST_CASES_H
#define SPX_TEST_CASES_H

#include <stdint.h>
#include <stdio.h>
#include <sepax/geometry.h>
#include "reference.h"

typedef enum case_kind { CASE_OBB_OBB = 0, CASE_OBB_TRIANGLE, CASE_TRIANGLE_TRIANGLE, CASE_KIND_COUNT } case_kind;
typedef enum case_aim { CASE_AIM_HIT = 0, CASE_AIM_MISS, CASE_AIM_OVERLAP } case_aim;

typedef struct case_rng {
    uint64_t state;
} case_rng;

uint64_t case_rng_next(case_rng* rng);                 /* splitmix64 */
double case_uniform(case_rng* rng, double lo, double hi);
double case_log_uniform(case_rng* rng, double lo, double hi);
void case_unit_vector(case_rng* rng, double out[3]);     /* uniform on the sphere */
spx_quat case_random_quat(case_rng* rng);               /* uniform rotation (Shoemake) */

/* One swept problem. Piece 0 is A, piece 1 is B; kind says which of box/tri each one is
   (OBB-triangle: A is the box, B the triangle). */
typedef struct sweep_case {
    case_kind kind;
    case_aim aim;
    uint64_t seed;
    spx_obb box[2];
    spx_quat quat[2];          /* the rotation the box was built from */
    spx_triangle tri[2];
    spx_vec3 velocity[2];
    float tmax;
} sweep_case;

const char* case_kind_name(case_kind kind);
int case_piece_is_box(case_kind kind, int piece);

/* Builds case `seed` of `kind`. */
void case_make(case_kind kind, uint64_t seed, sweep_case* out);

/* The same problem with A and B exchanged (OBB-OBB and triangle-triangle only). */
void case_swap(const sweep_case* in, sweep_case* out);

/* The whole problem moved rigidly: x -> R(q) x + shift (positions), v -> R(q) v (velocities). */
void case_transform(const sweep_case* in, spx_quat q, const double shift[3], sweep_case* out);

/* The reference problem on exactly the floats the library sees. */
void case_reference_problem(const sweep_case* c, ref_problem* out);

/* Rotates a double vector by q (for comparing normals after case_transform). */
void case_rotate(spx_quat q, const double in[3], double out[3]);

/* Prints the case so it can be pasted back into a test: floats in %a with %.9g beside them. */
void case_print(FILE* f, const sweep_case* c);

#endif
