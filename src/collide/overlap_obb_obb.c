/* Static box-box overlap: the 15-axis test of Gottschalk, Lin and Manocha (OBBTree, 1996) in float,
 * with |R| + epsilon so that nearly parallel edges, whose cross products are rounding noise, can
 * never make touching boxes look apart. The price is a touch tolerance of about 1e-6 of the boxes'
 * size (docs/tolerances.md). This is the hot yes/no call; the exact answers live in sweep_obb_obb.c. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "overlap_obb_obb.h"
#include "geometry/obb_pair_check.h"

#if defined(__SSE2__)
#define LANE(v, k) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(k, k, k, k))
#define ROT1(v) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(3, 0, 2, 1)) /* (v1, v2, v0, v3) */
#define ROT2(v) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(3, 1, 0, 2)) /* (v2, v0, v1, v3) */

/* Both boxes checked and tested in one pass without a branch. False when a box fails the fast
   checks: the caller then names the fault. */
static inline bool overlap_sse2(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    spx_box_regs A, B;
    if (!spx_obb_pair_load_checked(a, b, &A, &B)) return false;

    /* The sums of spx_overlap_obb_obb_unchecked, in its order: C_j (lane i) = R[i][j], R_i (lane j). */
    const __m128 sign = _mm_set1_ps(-0.0f), eps = _mm_set1_ps(SPX_OVERLAP_R_EPSILON);
    const __m128 C0 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(B.k0, 0)), _mm_mul_ps(A.y, LANE(B.k0, 1))),
                                 _mm_mul_ps(A.z, LANE(B.k0, 2)));
    const __m128 C1 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(B.k1, 0)), _mm_mul_ps(A.y, LANE(B.k1, 1))),
                                 _mm_mul_ps(A.z, LANE(B.k1, 2)));
    const __m128 C2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A.x, LANE(B.k2, 0)), _mm_mul_ps(A.y, LANE(B.k2, 1))),
                                 _mm_mul_ps(A.z, LANE(B.k2, 2)));
    __m128 R0, R1, R2;
    spx_transpose3(C0, C1, C2, &R0, &R1, &R2);
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
