/* Static box-box overlap: the 15-axis test (Gottschalk, Lin, Manocha) in float with |R| + epsilon, so near-parallel
 * edges' noisy cross products never make touching boxes look apart (a touch tolerance of ~1e-6 of the size,
 * docs/tolerances.md). The hot yes/no call; exact answers are in sweep_obb_obb.c. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "overlap_obb_obb.h"
#include "geometry/obb_pair_check.h"

#if SPX_HAS_SIMD
#define LANE(v, k) SPX_F4_PERMUTE((v), k, k, k, k)
#define ROT1(v) SPX_F4_PERMUTE((v), 1, 2, 0, 3) /* (v1, v2, v0, v3) */
#define ROT2(v) SPX_F4_PERMUTE((v), 2, 0, 1, 3) /* (v2, v0, v1, v3) */

/* The 15 axes on two boxes in registers, family by family, leaving at the first family that separates. */
static inline bool boxes_overlap(const spx_box_regs* restrict pa, const spx_box_regs* restrict pb)
{
    const spx_box_regs A = *pa, B = *pb;
    /* The sums of spx_overlap_obb_obb_unchecked, in its order: C_j (lane i) = R[i][j], R_i (lane j). */
    const spx_f4 sign = spx_f4_splat(-0.0f), eps = spx_f4_splat(SPX_OVERLAP_R_EPSILON);
    const spx_f4 C0 = spx_f4_add(spx_f4_add(spx_f4_mul(A.x, LANE(B.k0, 0)), spx_f4_mul(A.y, LANE(B.k0, 1))),
                                 spx_f4_mul(A.z, LANE(B.k0, 2)));
    const spx_f4 C1 = spx_f4_add(spx_f4_add(spx_f4_mul(A.x, LANE(B.k1, 0)), spx_f4_mul(A.y, LANE(B.k1, 1))),
                                 spx_f4_mul(A.z, LANE(B.k1, 2)));
    const spx_f4 C2 = spx_f4_add(spx_f4_add(spx_f4_mul(A.x, LANE(B.k2, 0)), spx_f4_mul(A.y, LANE(B.k2, 1))),
                                 spx_f4_mul(A.z, LANE(B.k2, 2)));
    const spx_f4 d = spx_f4_sub(B.c, A.c);
    const spx_f4 t =
        spx_f4_add(spx_f4_add(spx_f4_mul(A.x, LANE(d, 0)), spx_f4_mul(A.y, LANE(d, 1))), spx_f4_mul(A.z, LANE(d, 2)));
    const spx_f4 AC0 = spx_f4_add(spx_f4_andnot(sign, C0), eps), AC1 = spx_f4_add(spx_f4_andnot(sign, C1), eps),
                 AC2 = spx_f4_add(spx_f4_andnot(sign, C2), eps);
    const spx_f4 ha = A.h, hb = B.h;
    /* A's faces (lane i): most apart pairs leave here. */
    spx_f4 apart =
        spx_f4_gt(spx_f4_andnot(sign, t),
                  spx_f4_add(spx_f4_add(spx_f4_add(ha, spx_f4_mul(LANE(hb, 0), AC0)), spx_f4_mul(LANE(hb, 1), AC1)),
                             spx_f4_mul(LANE(hb, 2), AC2)));
    if (spx_f4_mask(apart) & 7) return false;
    spx_f4 R0, R1, R2;
    spx_transpose3(C0, C1, C2, &R0, &R1, &R2);
    const spx_f4 AR0 = spx_f4_add(spx_f4_andnot(sign, R0), eps), AR1 = spx_f4_add(spx_f4_andnot(sign, R1), eps),
                 AR2 = spx_f4_add(spx_f4_andnot(sign, R2), eps);
    const spx_f4 t0 = LANE(t, 0), t1 = LANE(t, 1), t2 = LANE(t, 2);
    const spx_f4 ha0 = LANE(ha, 0), ha1 = LANE(ha, 1), ha2 = LANE(ha, 2);
    /* B's faces (lane j), then the edges */
    apart = spx_f4_gt(
        spx_f4_andnot(sign, spx_f4_add(spx_f4_add(spx_f4_mul(t0, R0), spx_f4_mul(t1, R1)), spx_f4_mul(t2, R2))),
        spx_f4_add(spx_f4_add(spx_f4_add(hb, spx_f4_mul(ha0, AR0)), spx_f4_mul(ha1, AR1)), spx_f4_mul(ha2, AR2)));
    if (spx_f4_mask(apart) & 7) return false;
    /* Edge i of A x edge j of B (lane j); j1, j2 lanes rotated by one and two. */
    const spx_f4 hb1 = ROT1(hb), hb2 = ROT2(hb);
    apart = spx_f4_zero(); /* B's faces left none of lanes 0..2 set */
#define EDGES(ti1, ti2, Ri1, Ri2, hai1, hai2, ARi, ARi1, ARi2)                                                  \
    apart =                                                                                                     \
        spx_f4_or(apart, spx_f4_gt(spx_f4_andnot(sign, spx_f4_sub(spx_f4_mul(ti2, Ri1), spx_f4_mul(ti1, Ri2))), \
                                   spx_f4_add(spx_f4_add(spx_f4_mul(hai1, ARi2), spx_f4_mul(hai2, ARi1)),       \
                                              spx_f4_add(spx_f4_mul(hb1, ROT2(ARi)), spx_f4_mul(hb2, ROT1(ARi))))))
    EDGES(t1, t2, R1, R2, ha1, ha2, AR0, AR1, AR2);
    EDGES(t2, t0, R2, R0, ha2, ha0, AR1, AR2, AR0);
    EDGES(t0, t1, R0, R1, ha0, ha1, AR2, AR0, AR1);
#undef EDGES
    return (spx_f4_mask(apart) & 7) == 0;
}

/* Both boxes checked in one branch-free pass, then the axes; false on a failed fast check (the caller names the
   fault). */
static inline bool overlap_sse2(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    spx_box_regs A, B;
    if (!spx_obb_pair_load_checked(a, b, &A, &B)) return false;
    *out_overlap = boxes_overlap(&A, &B);
    return true;
}
#endif

/* Failed fast checks (or no SIMD): the exact checks name the fault; out of line so the hot call saves no
   registers. */
__attribute__((noinline)) static spx_result overlap_checked(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    spx_result r = spx_first_error(spx_obb_validate(a), spx_obb_validate(b));
    if (r != SPX_OK) return r;
    *out_overlap = spx_overlap_obb_obb_unchecked(a, b);
    return SPX_OK;
}

SPX_API spx_result spx_overlap_obb_obb(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    if (__builtin_expect(!a, 0) || __builtin_expect(!b, 0) || __builtin_expect(!out_overlap, 0))
        return SPX_ERR_INVALID_ARGUMENT;
#if SPX_HAS_SIMD
    if (overlap_sse2(a, b, out_overlap)) return SPX_OK;
#endif
    return overlap_checked(a, b, out_overlap);
}

/* Only spx_obb_check writes it; any other value (a zeroed struct) is refused. */
#define OBB_CHECK_MARK 0x5350434Bu

SPX_API spx_result spx_obb_check(const spx_obb* box, spx_obb_checked* out)
{
    if (!box || !out) return SPX_ERR_INVALID_ARGUMENT;
    const spx_result r = spx_obb_validate(box);
    if (r != SPX_OK) return r;
    out->box = *box;
    out->mark = OBB_CHECK_MARK;
    return SPX_OK;
}

SPX_API spx_result spx_overlap_obb_obb_checked(const spx_obb_checked* a, const spx_obb_checked* b, bool* out_overlap)
{
    /* every fault unlikely: gcc keeps the refusals out of the hot path */
    if (__builtin_expect(!a, 0) || __builtin_expect(!b, 0) || __builtin_expect(!out_overlap, 0) ||
        __builtin_expect(a->mark != OBB_CHECK_MARK, 0) || __builtin_expect(b->mark != OBB_CHECK_MARK, 0))
        return SPX_ERR_INVALID_ARGUMENT;
#if SPX_HAS_SIMD
    spx_box_regs A, B;
    spx_box_regs_load(&a->box, &A);
    spx_box_regs_load(&b->box, &B);
    *out_overlap = boxes_overlap(&A, &B);
#else
    *out_overlap = spx_overlap_obb_obb_unchecked(&a->box, &b->box);
#endif
    return SPX_OK;
}
