/* Static box-box overlap: the 15-axis test of Gottschalk, Lin and Manocha (OBBTree, 1996) in float,
 * with |R| + epsilon so that nearly parallel edges, whose cross products are rounding noise, can
 * never make touching boxes look apart. The price is a touch tolerance of about 1e-6 of the boxes'
 * size (docs/tolerances.md). This is the hot yes/no call; the exact answers live in sweep_obb_obb.c. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "overlap_obb_obb.h"

#if defined(__SSE2__)
#include <emmintrin.h>

#define LANE(v, k) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(k, k, k, k))
#define ROT1(v) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(3, 0, 2, 1)) /* (v1, v2, v0, v3) */
#define ROT2(v) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(3, 1, 0, 2)) /* (v2, v0, v1, v3) */

/* Three vectors whose lanes 0..2 are the rows of a 3x3 matrix, turned into its columns (lane 3: 0). */
static inline void transpose3(__m128 k0, __m128 k1, __m128 k2, __m128* x, __m128* y, __m128* z)
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
typedef struct box_regs {
    __m128 c, h, k0, k1, k2, x, y, z;
} box_regs;

static inline void box_load(const spx_obb* box, box_regs* r)
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
    transpose3(r->k0, r->k1, r->k2, &r->x, &r->y, &r->z);
}

/* spx_obb_validate's fast acceptance, the same sums in the same order: unit axes within
   SPX_ROTATION_TOLERANCE, a0.a1 too, a0.a2, a1.a2 and the determinant's distance from 1 within four
   times it, centre and extents in range, extents positive. NaN and infinity fail a comparison. */
static inline __m128 box_ok(const box_regs* r, __m128 h_raw)
{
    const __m128 sign = _mm_set1_ps(-0.0f), one = _mm_set1_ps(1.0f);
    const float tol = SPX_ROTATION_TOLERANCE;
    const __m128 diag = _mm_add_ps(_mm_add_ps(_mm_mul_ps(r->x, r->x), _mm_mul_ps(r->y, r->y)), _mm_mul_ps(r->z, r->z));
    const __m128 off = _mm_add_ps(_mm_add_ps(_mm_mul_ps(r->x, ROT1(r->x)), _mm_mul_ps(r->y, ROT1(r->y))),
                                  _mm_mul_ps(r->z, ROT1(r->z)));                 /* a0.a1 a1.a2 a2.a0 0 */
    __m128 ok = _mm_cmple_ps(_mm_andnot_ps(sign, _mm_sub_ps(diag, one)), _mm_set_ps(2.0f, tol, tol, tol));
    ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_andnot_ps(sign, off), _mm_set_ps(1.0f, 4.0f * tol, 4.0f * tol, tol)));
    const __m128 range = _mm_set1_ps(SPX_MAX_COORDINATE), zero = _mm_setzero_ps();
    ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_andnot_ps(sign, r->c), range));
    __m128 hok = _mm_and_ps(_mm_cmpgt_ps(h_raw, zero), _mm_cmple_ps(h_raw, range));
    hok = _mm_or_ps(hok, _mm_castsi128_ps(_mm_set_epi32(0, 0, 0, -1)));      /* lane 0 of h_raw is centre.z */
    return _mm_and_ps(ok, hok);
}

/* a0 . (a1 x a2) in lane 0 .. 2 order of the products, as (x + y) + z. */
static inline __m128 det_products(const box_regs* r)
{
    const __m128 cr = _mm_sub_ps(_mm_mul_ps(r->k1, ROT1(r->k2)), _mm_mul_ps(ROT1(r->k1), r->k2)); /* z x y */
    return _mm_mul_ps(ROT1(cr), r->k0);
}

/* Both boxes checked and tested in one pass without a branch. False when a box fails the fast
   checks: the caller then names the fault. */
static inline bool overlap_sse2(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    box_regs A, B;
    box_load(a, &A);
    box_load(b, &B);
    __m128 ok = _mm_and_ps(box_ok(&A, _mm_loadu_ps(&a->center.z)), box_ok(&B, _mm_loadu_ps(&b->center.z)));
    {   /* both determinants: lane 0 A's, lane 1 B's */
        const __m128 pa = det_products(&A), pb = det_products(&B);
        const __m128 lo = _mm_unpacklo_ps(pa, pb), hi = _mm_unpackhi_ps(pa, pb);
        const __m128 det = _mm_add_ps(_mm_add_ps(lo, _mm_movehl_ps(lo, lo)), hi);
        const __m128 dev = _mm_andnot_ps(_mm_set1_ps(-0.0f), _mm_sub_ps(det, _mm_set1_ps(1.0f)));
        const __m128 upper = _mm_castsi128_ps(_mm_set_epi32(-1, -1, 0, 0)); /* lanes 2, 3: no determinant */
        ok = _mm_and_ps(ok, _mm_or_ps(upper, _mm_cmple_ps(dev, _mm_set1_ps(4.0f * SPX_ROTATION_TOLERANCE))));
    }
    if (_mm_movemask_ps(ok) != 0xF) return false;

    /* The sums of spx_overlap_obb_obb_unchecked, in its order: C_j (lane i) = R[i][j], R_i (lane j). */
    const __m128 sign = _mm_set1_ps(-0.0f), eps = _mm_set1_ps(SPX_OVERLAP_R_EPSILON);
    const __m128 C0 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(B.k0, 0)), _mm_mul_ps(A.y, LANE(B.k0, 1))),
                                 _mm_mul_ps(A.z, LANE(B.k0, 2)));
    const __m128 C1 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(B.k1, 0)), _mm_mul_ps(A.y, LANE(B.k1, 1))),
                                 _mm_mul_ps(A.z, LANE(B.k1, 2)));
    const __m128 C2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(B.k2, 0)), _mm_mul_ps(A.y, LANE(B.k2, 1))),
                                 _mm_mul_ps(A.z, LANE(B.k2, 2)));
    __m128 R0, R1, R2;
    transpose3(C0, C1, C2, &R0, &R1, &R2);
    const __m128 d = _mm_sub_ps(B.c, A.c);
    const __m128 t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(d, 0)), _mm_mul_ps(A.y, LANE(d, 1))),
                                _mm_mul_ps(A.z, LANE(d, 2)));
    const __m128 AC0 = _mm_add_ps(_mm_andnot_ps(sign, C0), eps), AC1 = _mm_add_ps(_mm_andnot_ps(sign, C1), eps),
                 AC2 = _mm_add_ps(_mm_andnot_ps(sign, C2), eps);
    const __m128 AR0 = _mm_add_ps(_mm_andnot_ps(sign, R0), eps), AR1 = _mm_add_ps(_mm_andnot_ps(sign, R1), eps),
                 AR2 = _mm_add_ps(_mm_andnot_ps(sign, R2), eps);
    const __m128 ha = A.h, hb = B.h;
    const __m128 t0 = LANE(t, 0), t1 = LANE(t, 1), t2 = LANE(t, 2);
    const __m128 ha0 = LANE(ha, 0), ha1 = LANE(ha, 1), ha2 = LANE(ha, 2);
    /* A's faces (lane i), then B's (lane j) */
    __m128 apart = _mm_cmpgt_ps(
        _mm_andnot_ps(sign, t),
        _mm_add_ps(_mm_add_ps(_mm_add_ps(ha, _mm_mul_ps(LANE(hb, 0), AC0)), _mm_mul_ps(LANE(hb, 1), AC1)),
                   _mm_mul_ps(LANE(hb, 2), AC2)));
    apart = _mm_or_ps(apart, _mm_cmpgt_ps(
        _mm_andnot_ps(sign, _mm_add_ps(_mm_add_ps(_mm_mul_ps(t0, R0), _mm_mul_ps(t1, R1)), _mm_mul_ps(t2, R2))),
        _mm_add_ps(_mm_add_ps(_mm_add_ps(hb, _mm_mul_ps(ha0, AR0)), _mm_mul_ps(ha1, AR1)), _mm_mul_ps(ha2, AR2))));
    /* Edge i of A x edge j of B (lane j); hb[j1] and AR[i][j1] are lanes rotated by one, j2 by two. */
    const __m128 hb1 = ROT1(hb), hb2 = ROT2(hb);
#define EDGES(ti1, ti2, Ri1, Ri2, hai1, hai2, ARi, ARi1, ARi2)                                                   \
    apart = _mm_or_ps(apart, _mm_cmpgt_ps(                                                                    \
        _mm_andnot_ps(sign, _mm_sub_ps(_mm_mul_ps(ti2, Ri1), _mm_mul_ps(ti1, Ri2))),                           \
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(hai1, ARi2), _mm_mul_ps(hai2, ARi1)),                                 \
                   _mm_add_ps(_mm_mul_ps(hb1, ROT2(ARi)), _mm_mul_ps(hb2, ROT1(ARi))))))
    EDGES(t1, t2, R1, R2, ha1, ha2, AR0, AR1, AR2);
    EDGES(t2, t0, R2, R0, ha2, ha0, AR1, AR2, AR0);
    EDGES(t0, t1, R0, R1, ha0, ha1, AR2, AR0, AR1);
#undef EDGES
    *out_overlap = (_mm_movemask_ps(apart) & 7) == 0;
    return true;
}
#endif

SPX_API spx_result spx_overlap_obb_obb(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    if (!a || !b || !out_overlap) return SPX_ERR_INVALID_ARGUMENT;
#if defined(__SSE2__)
    if (overlap_sse2(a, b, out_overlap)) return SPX_OK;
#endif
    spx_result r = spx_first_error(spx_obb_validate(a), spx_obb_validate(b));
    if (r != SPX_OK) return r;
    *out_overlap = spx_overlap_obb_obb_unchecked(a, b);
    return SPX_OK;
}
