/* Box-box minimum translation: which of the 15 axes wins, found in float when float can tell.
 *
 * The exact answer (sweep_obb_obb.c) runs all 15 axes in double. Here the overlap on every axis is
 * worked out in float lanes (A's faces, B's faces, and A's edge i against B's three edges: five
 * vectors), each with a bound on how far float can be from the double value: 3e-5 of the pair's
 * scale S = sum |t| + sum of the half extents, divided by the axis length (float's own error is
 * under 1e-6 of S / |L|: three float roundings of products of values up to S and axis components up
 * to 1 + 1e-5). The screen answers only where those bounds decide:
 *   - apart: some axis separates by more than its bound (the double test finds a separating axis);
 *   - axis k: every axis overlaps by more than its bound and k's depth plus bound is below every
 *     other axis's depth minus bound (the double test picks k: no tie, no edge axis along a face);
 * and otherwise (a near tie, near touching, an edge pair between 4e-7 and 1e-2 of parallel, where
 * float cannot say whether the double test skips the axis or how deep it is) says unsure, and the
 * double test runs. The depth and normal always come from double, on the winning axis. */
#ifndef SPX_PENETRATION_SCREEN_H
#define SPX_PENETRATION_SCREEN_H

#include "geometry/obb_pair_check.h"
#include <float.h>

#define SPX_SCREEN_APART (-1)
#define SPX_SCREEN_UNSURE (-2)

#if defined(__SSE2__)

/* The overlap bound, relative to the scale. */
#define SPX_SCREEN_BOUND 3e-5f

#define SPX_SCREEN_LANE(v, k) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(k, k, k, k))
#define SPX_SCREEN_ROT2(v) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(3, 1, 0, 2)) /* (v2, v0, v1, v3) */

/* One vector of axes: lanes 0..2 of depth (overlap / |L|) and its bound; the masks: lanes that
   separate beyond the bound, that cannot be decided, and that take part (not skipped). */
typedef struct spx_screen_axes {
    __m128 lo, hi;            /* depth - bound, depth + bound (FLT_MAX where not taking part) */
    int apart, unsure;
} spx_screen_axes;

static inline void spx_screen_axes_make(__m128 overlap, __m128 bound, __m128 len, __m128 part, __m128 unsure,
                                        spx_screen_axes* out)
{
    const __m128 three = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
    part = _mm_and_ps(part, three);
    const __m128 off = _mm_andnot_ps(part, _mm_set1_ps(FLT_MAX));
    const __m128 depth = _mm_div_ps(overlap, len);
    out->lo = _mm_or_ps(_mm_and_ps(part, _mm_sub_ps(depth, bound)), off);
    out->hi = _mm_or_ps(_mm_and_ps(part, _mm_add_ps(depth, bound)), off);
    /* apart: overlap below -bound (in overlap units: bound * len) on an axis that takes part and is trusted */
    const __m128 b = _mm_mul_ps(bound, len);
    const __m128 trusted = _mm_andnot_ps(unsure, part);
    out->apart = _mm_movemask_ps(_mm_and_ps(trusted, _mm_cmplt_ps(overlap, _mm_sub_ps(_mm_setzero_ps(), b))));
    out->unsure = _mm_movemask_ps(_mm_and_ps(part, _mm_or_ps(unsure, _mm_cmple_ps(overlap, b))));
}

/* SPX_SCREEN_APART, SPX_SCREEN_UNSURE, or the axis (0..14) of least overlap. */
static inline int spx_penetration_screen(const spx_box_regs* A, const spx_box_regs* B)
{
    const __m128 sign = _mm_set1_ps(-0.0f), one = _mm_set1_ps(1.0f), all = _mm_castsi128_ps(_mm_set1_epi32(-1));
    const __m128 C0 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A->x, SPX_SCREEN_LANE(B->k0, 0)), _mm_mul_ps(A->y, SPX_SCREEN_LANE(B->k0, 1))),
                                 _mm_mul_ps(A->z, SPX_SCREEN_LANE(B->k0, 2)));
    const __m128 C1 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A->x, SPX_SCREEN_LANE(B->k1, 0)), _mm_mul_ps(A->y, SPX_SCREEN_LANE(B->k1, 1))),
                                 _mm_mul_ps(A->z, SPX_SCREEN_LANE(B->k1, 2)));
    const __m128 C2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A->x, SPX_SCREEN_LANE(B->k2, 0)), _mm_mul_ps(A->y, SPX_SCREEN_LANE(B->k2, 1))),
                                 _mm_mul_ps(A->z, SPX_SCREEN_LANE(B->k2, 2)));
    __m128 R[3];
    spx_transpose3(C0, C1, C2, &R[0], &R[1], &R[2]);
    const __m128 d = _mm_sub_ps(B->c, A->c);
    const __m128 t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(A->x, SPX_SCREEN_LANE(d, 0)), _mm_mul_ps(A->y, SPX_SCREEN_LANE(d, 1))),
                                _mm_mul_ps(A->z, SPX_SCREEN_LANE(d, 2)));
    const __m128 ha = A->h, hb = B->h;
    const __m128 T[3] = { SPX_SCREEN_LANE(t, 0), SPX_SCREEN_LANE(t, 1), SPX_SCREEN_LANE(t, 2) };
    const __m128 HA[3] = { SPX_SCREEN_LANE(ha, 0), SPX_SCREEN_LANE(ha, 1), SPX_SCREEN_LANE(ha, 2) };
    /* The scale, in every lane. */
    const __m128 v = _mm_add_ps(_mm_add_ps(_mm_andnot_ps(sign, t), ha), hb);
    const __m128 scale = _mm_add_ps(_mm_add_ps(SPX_SCREEN_LANE(v, 0), SPX_SCREEN_LANE(v, 1)), SPX_SCREEN_LANE(v, 2));
    const __m128 bound = _mm_mul_ps(scale, _mm_set1_ps(SPX_SCREEN_BOUND));
    const __m128 zero = _mm_setzero_ps();

    spx_screen_axes ax[5];
    {   /* A's faces, lane i */
        const __m128 r = _mm_add_ps(_mm_add_ps(_mm_add_ps(ha, _mm_mul_ps(SPX_SCREEN_LANE(hb, 0), _mm_andnot_ps(sign, C0))),
                                               _mm_mul_ps(SPX_SCREEN_LANE(hb, 1), _mm_andnot_ps(sign, C1))),
                                    _mm_mul_ps(SPX_SCREEN_LANE(hb, 2), _mm_andnot_ps(sign, C2)));
        spx_screen_axes_make(_mm_sub_ps(r, _mm_andnot_ps(sign, t)), bound, one, all, zero, &ax[0]);
    }
    {   /* B's faces, lane j */
        const __m128 proj = _mm_add_ps(_mm_add_ps(_mm_mul_ps(T[0], R[0]), _mm_mul_ps(T[1], R[1])), _mm_mul_ps(T[2], R[2]));
        const __m128 r = _mm_add_ps(_mm_add_ps(_mm_add_ps(hb, _mm_mul_ps(HA[0], _mm_andnot_ps(sign, R[0]))),
                                               _mm_mul_ps(HA[1], _mm_andnot_ps(sign, R[1]))),
                                    _mm_mul_ps(HA[2], _mm_andnot_ps(sign, R[2])));
        spx_screen_axes_make(_mm_sub_ps(r, _mm_andnot_ps(sign, proj)), bound, one, all, zero, &ax[1]);
    }
    const __m128 hb1 = SPX_ROT1_PS(hb), hb2 = SPX_SCREEN_ROT2(hb);
    for (int i = 0; i < 3; ++i) { /* A's edge i x B's edge j, lane j: L[i1] = -R[i2][j], L[i2] = R[i1][j] */
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        const __m128 l1 = _mm_xor_ps(sign, R[i2]), l2 = R[i1];
        const __m128 len2 = _mm_add_ps(_mm_mul_ps(l1, l1), _mm_mul_ps(l2, l2));
        const __m128 proj = _mm_add_ps(_mm_mul_ps(T[i1], l1), _mm_mul_ps(T[i2], l2));
        const __m128 ra = _mm_add_ps(_mm_mul_ps(HA[i1], _mm_andnot_ps(sign, l1)), _mm_mul_ps(HA[i2], _mm_andnot_ps(sign, l2)));
        /* B's other two axes on L: minors of R, as the double test takes them */
        const __m128 m1 = _mm_add_ps(_mm_mul_ps(SPX_ROT1_PS(R[i1]), l1), _mm_mul_ps(SPX_ROT1_PS(R[i2]), l2));
        const __m128 m2 = _mm_add_ps(_mm_mul_ps(SPX_SCREEN_ROT2(R[i1]), l1), _mm_mul_ps(SPX_SCREEN_ROT2(R[i2]), l2));
        const __m128 rb = _mm_add_ps(_mm_mul_ps(hb1, _mm_andnot_ps(sign, m1)), _mm_mul_ps(hb2, _mm_andnot_ps(sign, m2)));
        /* Below 4.9e-13 the double test surely skips the axis (|L| < 1e-6 there, float's error on
           |L| being under 3e-7); above 1e-4 float's depth is trusted; between, unsure. */
        const __m128 part = _mm_cmpge_ps(len2, _mm_set1_ps(4.9e-13f));
        const __m128 unsure = _mm_cmple_ps(len2, _mm_set1_ps(1e-4f));
        const __m128 len = _mm_sqrt_ps(_mm_max_ps(len2, _mm_set1_ps(1e-30f)));
        spx_screen_axes_make(_mm_sub_ps(_mm_add_ps(ra, rb), _mm_andnot_ps(sign, proj)), _mm_div_ps(bound, len), len,
                             part, unsure, &ax[2 + i]);
    }
    int apart = 0, unsure = 0;
    for (int k = 0; k < 5; ++k) apart |= ax[k].apart, unsure |= ax[k].unsure;
    if (apart) return SPX_SCREEN_APART;
    if (unsure) return SPX_SCREEN_UNSURE;
    /* The least depth plus bound; the winner is the one axis whose depth minus bound is below it. */
    __m128 h = _mm_min_ps(_mm_min_ps(_mm_min_ps(ax[0].hi, ax[1].hi), _mm_min_ps(ax[2].hi, ax[3].hi)), ax[4].hi);
    h = _mm_min_ps(h, _mm_shuffle_ps(h, h, _MM_SHUFFLE(2, 3, 0, 1)));
    h = _mm_min_ps(h, _mm_shuffle_ps(h, h, _MM_SHUFFLE(1, 0, 3, 2)));
    int winner = SPX_SCREEN_UNSURE, count = 0;
    static const int base[5] = { 0, 3, 6, 9, 12 };
    for (int k = 0; k < 5; ++k) {
        const int m = _mm_movemask_ps(_mm_cmple_ps(ax[k].lo, h)) & 7;
        if (m) {
            count += (m & 1) + ((m >> 1) & 1) + (m >> 2);
            winner = base[k] + (m & 1 ? 0 : m & 2 ? 1 : 2);
        }
    }
    return count == 1 ? winner : SPX_SCREEN_UNSURE;
}

#undef SPX_SCREEN_LANE
#undef SPX_SCREEN_ROT2
#endif

#endif
