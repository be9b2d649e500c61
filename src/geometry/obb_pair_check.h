/* Two boxes checked in one branch-free SSE2 pass: spx_obb_validate's fast acceptance for both, and
 * the boxes left in registers for a query that goes on with them (the static box-box test). A pair
 * that fails goes to spx_obb_validate for its exact error code. */
#ifndef SPX_OBB_PAIR_CHECK_H
#define SPX_OBB_PAIR_CHECK_H

#include <sepax/geometry.h>
#include <stdbool.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/* (v1, v2, v0, v3): lane j takes lane j + 1 (mod 3) */
#define SPX_ROT1_PS(v) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(3, 0, 2, 1))

/* Three vectors whose lanes 0..2 are the rows of a 3x3 matrix, turned into its columns (lane 3: 0). */
static inline void spx_transpose3(__m128 k0, __m128 k1, __m128 k2, __m128* x, __m128* y, __m128* z)
{
    const __m128 zero = _mm_setzero_ps();
    const __m128 t0 = _mm_unpacklo_ps(k0, k1), t1 = _mm_unpackhi_ps(k0, k1);
    const __m128 t2 = _mm_unpacklo_ps(k2, zero), t3 = _mm_unpackhi_ps(k2, zero);
    *x = _mm_movelh_ps(t0, t2);
    *y = _mm_movehl_ps(t2, t0);
    *z = _mm_movelh_ps(t1, t3);
}

/* One box in registers: centre (lane 3: extent x), extents (lane 3: centre z), its axes as columns
   k0..k2 and, lane i being axis i, their x, y and z components. */
typedef struct spx_box_regs {
    __m128 c, h, k0, k1, k2, x, y, z;
} spx_box_regs;

static inline void spx_box_regs_load(const spx_obb* box, spx_box_regs* r)
{
    const float* f = &box->center.x;
    _Static_assert(sizeof(spx_obb) == 15 * sizeof(float), "spx_obb is 15 packed floats");
    r->c = _mm_loadu_ps(f);
    const __m128 h = _mm_loadu_ps(f + 2);                            /* c.z h.x h.y h.z */
    r->h = _mm_shuffle_ps(h, h, _MM_SHUFFLE(0, 3, 2, 1));
    r->k0 = _mm_loadu_ps(f + 6);
    r->k1 = _mm_loadu_ps(f + 9);
    const __m128 t = _mm_loadu_ps(f + 11);                           /* col1.z col2 (inside the struct) */
    r->k2 = _mm_shuffle_ps(t, t, _MM_SHUFFLE(0, 3, 2, 1));
    spx_transpose3(r->k0, r->k1, r->k2, &r->x, &r->y, &r->z);
}

/* spx_obb_validate's fast acceptance, the same sums in the same order: unit axes within
   SPX_ROTATION_TOLERANCE, a0.a1 too, a0.a2, a1.a2 and the determinant's distance from 1 within four
   times it, centre and extents in range, extents positive. NaN and infinity fail a comparison. */
static inline __m128 spx_box_regs_ok(const spx_box_regs* r, __m128 h_raw)
{
    const __m128 sign = _mm_set1_ps(-0.0f), one = _mm_set1_ps(1.0f);
    const float tol = SPX_ROTATION_TOLERANCE;
    const __m128 diag = _mm_add_ps(_mm_add_ps(_mm_mul_ps(r->x, r->x), _mm_mul_ps(r->y, r->y)), _mm_mul_ps(r->z, r->z));
    const __m128 off = _mm_add_ps(_mm_add_ps(_mm_mul_ps(r->x, SPX_ROT1_PS(r->x)), _mm_mul_ps(r->y, SPX_ROT1_PS(r->y))),
                                  _mm_mul_ps(r->z, SPX_ROT1_PS(r->z)));                 /* a0.a1 a1.a2 a2.a0 0 */
    __m128 ok = _mm_cmple_ps(_mm_andnot_ps(sign, _mm_sub_ps(diag, one)), _mm_set_ps(2.0f, tol, tol, tol));
    ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_andnot_ps(sign, off), _mm_set_ps(1.0f, 4.0f * tol, 4.0f * tol, tol)));
    const __m128 range = _mm_set1_ps(SPX_MAX_COORDINATE), zero = _mm_setzero_ps();
    ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_andnot_ps(sign, r->c), range));
    __m128 hok = _mm_and_ps(_mm_cmpgt_ps(h_raw, zero), _mm_cmple_ps(h_raw, range));
    hok = _mm_or_ps(hok, _mm_castsi128_ps(_mm_set_epi32(0, 0, 0, -1)));      /* lane 0 of h_raw is centre.z */
    return _mm_and_ps(ok, hok);
}

/* a0 . (a1 x a2) in lane 0 .. 2 order of the products, as (x + y) + z. */
static inline __m128 spx_box_regs_det(const spx_box_regs* r)
{
    const __m128 cr = _mm_sub_ps(_mm_mul_ps(r->k1, SPX_ROT1_PS(r->k2)), _mm_mul_ps(SPX_ROT1_PS(r->k1), r->k2)); /* z x y */
    return _mm_mul_ps(SPX_ROT1_PS(cr), r->k0);
}

/* Loads both boxes into A and B; true when both pass the fast checks. */
static inline bool spx_obb_pair_load_checked(const spx_obb* a, const spx_obb* b, spx_box_regs* A, spx_box_regs* B)
{
    spx_box_regs_load(a, A);
    spx_box_regs_load(b, B);
    __m128 ok = _mm_and_ps(spx_box_regs_ok(A, _mm_loadu_ps(&a->center.z)), spx_box_regs_ok(B, _mm_loadu_ps(&b->center.z)));
    /* both determinants: lane 0 A's, lane 1 B's */
    const __m128 pa = spx_box_regs_det(A), pb = spx_box_regs_det(B);
    const __m128 lo = _mm_unpacklo_ps(pa, pb), hi = _mm_unpackhi_ps(pa, pb);
    const __m128 det = _mm_add_ps(_mm_add_ps(lo, _mm_movehl_ps(lo, lo)), hi);
    const __m128 dev = _mm_andnot_ps(_mm_set1_ps(-0.0f), _mm_sub_ps(det, _mm_set1_ps(1.0f)));
    const __m128 upper = _mm_castsi128_ps(_mm_set_epi32(-1, -1, 0, 0)); /* lanes 2, 3: no determinant */
    ok = _mm_and_ps(ok, _mm_or_ps(upper, _mm_cmple_ps(dev, _mm_set1_ps(4.0f * SPX_ROTATION_TOLERANCE))));
    return _mm_movemask_ps(ok) == 0xF;
}

/* True when both boxes pass the fast checks (and so spx_obb_validate); false: ask it. */
static inline bool spx_obb_pair_fast_ok(const spx_obb* a, const spx_obb* b)
{
    spx_box_regs A, B;
    return spx_obb_pair_load_checked(a, b, &A, &B);
}
#else
static inline bool spx_obb_pair_fast_ok(const spx_obb* a, const spx_obb* b) { (void)a, (void)b; return false; }
#endif

#endif
