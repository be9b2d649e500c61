/* spx_obb_validate's fast acceptance of two boxes in one SSE2 pass, leaving them in registers; a
 * failing pair goes to spx_obb_validate for its error code. */
#ifndef SPX_OBB_PAIR_CHECK_H
#define SPX_OBB_PAIR_CHECK_H

#include <sepax/geometry.h>
#include <stdbool.h>
#include "math/simd.h"

#if SPX_HAS_SIMD

/* (v1, v2, v0, v3): lane j takes lane j + 1 (mod 3) */
#define SPX_ROT1_PS(v) SPX_F4_SWIZZLE((v), 1, 2, 0, 3)

/* Rows to columns of a 3x3 (lane 3: 0). */
static inline void spx_transpose3(spx_f4 k0, spx_f4 k1, spx_f4 k2, spx_f4* x, spx_f4* y, spx_f4* z)
{
    const spx_f4 zero = spx_f4_zero();
    const spx_f4 t0 = spx_f4_unpacklo(k0, k1), t1 = spx_f4_unpackhi(k0, k1);
    const spx_f4 t2 = spx_f4_unpacklo(k2, zero), t3 = spx_f4_unpackhi(k2, zero);
    *x = spx_f4_movelh(t0, t2);
    *y = spx_f4_movehl(t2, t0);
    *z = spx_f4_movelh(t1, t3);
}

/* c (lane 3: extent x), h (lane 3: centre z), axes k0..k2, and x/y/z with lane i axis i. */
typedef struct spx_box_regs {
    spx_f4 c, h, k0, k1, k2, x, y, z;
} spx_box_regs;

static inline void spx_box_regs_load(const spx_obb* box, spx_box_regs* r)
{
    const float* f = &box->center.x;
    _Static_assert(sizeof(spx_obb) == 15 * sizeof(float), "spx_obb is 15 packed floats");
    r->c = spx_f4_load(f);
    const spx_f4 h = spx_f4_load(f + 2); /* c.z h.x h.y h.z */
    r->h = SPX_F4_SWIZZLE(h, 1, 2, 3, 0);
    r->k0 = spx_f4_load(f + 6);
    r->k1 = spx_f4_load(f + 9);
    const spx_f4 t = spx_f4_load(f + 11); /* col1.z col2 (inside the struct) */
    r->k2 = SPX_F4_SWIZZLE(t, 1, 2, 3, 0);
    spx_transpose3(r->k0, r->k1, r->k2, &r->x, &r->y, &r->z);
}

/* The same sums in the same order as spx_obb_validate's exact checks; NaN fails a comparison. */
static inline spx_f4 spx_box_regs_ok(const spx_box_regs* r, spx_f4 h_raw)
{
    const spx_f4 sign = spx_f4_splat(-0.0f), one = spx_f4_splat(1.0f);
    const float tol = SPX_ROTATION_TOLERANCE;
    const spx_f4 diag = spx_f4_add(spx_f4_add(spx_f4_mul(r->x, r->x), spx_f4_mul(r->y, r->y)), spx_f4_mul(r->z, r->z));
    const spx_f4 off = spx_f4_add(spx_f4_add(spx_f4_mul(r->x, SPX_ROT1_PS(r->x)), spx_f4_mul(r->y, SPX_ROT1_PS(r->y))),
                                  spx_f4_mul(r->z, SPX_ROT1_PS(r->z))); /* a0.a1 a1.a2 a2.a0 0 */
    spx_f4 ok = spx_f4_le(spx_f4_andnot(sign, spx_f4_sub(diag, one)), spx_f4_set(tol, tol, tol, 2.0f));
    ok = spx_f4_and(ok, spx_f4_le(spx_f4_andnot(sign, off), spx_f4_set(tol, tol, tol, 1.0f)));
    const spx_f4 range = spx_f4_splat(SPX_MAX_COORDINATE), zero = spx_f4_zero();
    ok = spx_f4_and(ok, spx_f4_le(spx_f4_andnot(sign, r->c), range));
    spx_f4 hok = spx_f4_and(spx_f4_gt(h_raw, zero), spx_f4_le(h_raw, range));
    hok = spx_f4_or(hok, spx_i4_as_f4(spx_i4_set(-1, 0, 0, 0))); /* lane 0 of h_raw is centre.z */
    return spx_f4_and(ok, hok);
}

/* a0 . (a1 x a2) in lane 0 .. 2 order of the products, as (x + y) + z. */
static inline spx_f4 spx_box_regs_det(const spx_box_regs* r)
{
    const spx_f4 cr =
        spx_f4_sub(spx_f4_mul(r->k1, SPX_ROT1_PS(r->k2)), spx_f4_mul(SPX_ROT1_PS(r->k1), r->k2)); /* z x y */
    return spx_f4_mul(SPX_ROT1_PS(cr), r->k0);
}

static inline bool spx_obb_pair_load_checked(const spx_obb* a, const spx_obb* b, spx_box_regs* A, spx_box_regs* B)
{
    spx_box_regs_load(a, A);
    spx_box_regs_load(b, B);
    spx_f4 ok =
        spx_f4_and(spx_box_regs_ok(A, spx_f4_load(&a->center.z)), spx_box_regs_ok(B, spx_f4_load(&b->center.z)));
    /* both determinants: lane 0 A's, lane 1 B's */
    const spx_f4 pa = spx_box_regs_det(A), pb = spx_box_regs_det(B);
    const spx_f4 lo = spx_f4_unpacklo(pa, pb), hi = spx_f4_unpackhi(pa, pb);
    const spx_f4 det = spx_f4_add(spx_f4_add(lo, spx_f4_movehl(lo, lo)), hi);
    const spx_f4 dev = spx_f4_andnot(spx_f4_splat(-0.0f), spx_f4_sub(det, spx_f4_splat(1.0f)));
    const spx_f4 upper = spx_i4_as_f4(spx_i4_set(0, 0, -1, -1)); /* lanes 2, 3: no determinant */
    ok = spx_f4_and(ok, spx_f4_or(upper, spx_f4_le(dev, spx_f4_splat(4.0f * SPX_ROTATION_TOLERANCE))));
    return spx_f4_mask(ok) == 0xF;
}

/* false: ask spx_obb_validate. */
static inline bool spx_obb_pair_fast_ok(const spx_obb* a, const spx_obb* b)
{
    spx_box_regs A, B;
    return spx_obb_pair_load_checked(a, b, &A, &B);
}
#else
static inline bool spx_obb_pair_fast_ok(const spx_obb* a, const spx_obb* b)
{
    (void)a, (void)b;
    return false;
}
#endif

#endif
