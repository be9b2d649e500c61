/* Box-box minimum translation: the winning axis of the 15, found in float when float can tell. Each
 * axis's float overlap is within 3e-5 of the scale S = sum |t| + sum of half extents, over |L|, of
 * the double value (float's own error is under 1e-6 S / |L|: three roundings of products of values up
 * to S by axis components up to 1 + 1e-5). Apart: an axis separates beyond its bound; axis k: k's
 * depth + bound is below every other's depth - bound; else unsure and the double test runs. Depth and
 * normal always come from double. See docs/collision.md#how-the-speed-is-reached. */
#ifndef SPX_PENETRATION_SCREEN_H
#define SPX_PENETRATION_SCREEN_H

#include "geometry/obb_pair_check.h"
#include <float.h>

#define SPX_SCREEN_APART (-1)
#define SPX_SCREEN_UNSURE (-2)

#if SPX_HAS_SIMD

/* The overlap bound, relative to the scale. */
#define SPX_SCREEN_BOUND 3e-5f

/* pshufd on SSE2: no copy of a source still needed (SPX_F4_PERMUTE) */
#define SPX_SCREEN_LANE(v, k) SPX_F4_PERMUTE((v), k, k, k, k)
#define SPX_SCREEN_ROT1(v) SPX_F4_PERMUTE((v), 1, 2, 0, 3) /* (v1, v2, v0, v3) */
#define SPX_SCREEN_ROT2(v) SPX_F4_PERMUTE((v), 2, 0, 1, 3) /* (v2, v0, v1, v3) */

/* Lanes 0..2: depth (overlap / |L|) and its bound; masks: separate beyond the bound, undecided. */
typedef struct spx_screen_axes {
    spx_f4 lo, hi; /* depth -+ bound; FLT_MAX where not taking part */
    int apart, unsure;
} spx_screen_axes;

static inline void spx_screen_axes_make(spx_f4 overlap, spx_f4 bound, spx_f4 len, spx_f4 part, spx_f4 unsure,
                                        spx_screen_axes* out)
{
    const spx_f4 three = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0));
    part = spx_f4_and(part, three);
    const spx_f4 off = spx_f4_andnot(part, spx_f4_splat(FLT_MAX));
    const spx_f4 depth = spx_f4_div(overlap, len);
    out->lo = spx_f4_or(spx_f4_and(part, spx_f4_sub(depth, bound)), off);
    out->hi = spx_f4_or(spx_f4_and(part, spx_f4_add(depth, bound)), off);
    /* apart: overlap below -bound * len on a trusted axis that takes part */
    const spx_f4 b = spx_f4_mul(bound, len);
    const spx_f4 trusted = spx_f4_andnot(unsure, part);
    out->apart = spx_f4_mask(spx_f4_and(trusted, spx_f4_lt(overlap, spx_f4_sub(spx_f4_zero(), b))));
    out->unsure = spx_f4_mask(spx_f4_and(part, spx_f4_or(unsure, spx_f4_le(overlap, b))));
}

/* SPX_SCREEN_APART, SPX_SCREEN_UNSURE, or the axis (0..14) of least overlap. */
static inline int spx_penetration_screen(const spx_box_regs* A, const spx_box_regs* B)
{
    const spx_f4 sign = spx_f4_splat(-0.0f), one = spx_f4_splat(1.0f), all = spx_i4_as_f4(spx_i4_splat(-1));
    const spx_f4 C0 =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SCREEN_LANE(B->k0, 0)), spx_f4_mul(A->y, SPX_SCREEN_LANE(B->k0, 1))),
                   spx_f4_mul(A->z, SPX_SCREEN_LANE(B->k0, 2)));
    const spx_f4 C1 =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SCREEN_LANE(B->k1, 0)), spx_f4_mul(A->y, SPX_SCREEN_LANE(B->k1, 1))),
                   spx_f4_mul(A->z, SPX_SCREEN_LANE(B->k1, 2)));
    const spx_f4 C2 =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SCREEN_LANE(B->k2, 0)), spx_f4_mul(A->y, SPX_SCREEN_LANE(B->k2, 1))),
                   spx_f4_mul(A->z, SPX_SCREEN_LANE(B->k2, 2)));
    spx_f4 R[3];
    spx_transpose3(C0, C1, C2, &R[0], &R[1], &R[2]);
    const spx_f4 d = spx_f4_sub(B->c, A->c);
    const spx_f4 t =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SCREEN_LANE(d, 0)), spx_f4_mul(A->y, SPX_SCREEN_LANE(d, 1))),
                   spx_f4_mul(A->z, SPX_SCREEN_LANE(d, 2)));
    const spx_f4 ha = A->h, hb = B->h;
    const spx_f4 T[3] = { SPX_SCREEN_LANE(t, 0), SPX_SCREEN_LANE(t, 1), SPX_SCREEN_LANE(t, 2) };
    const spx_f4 HA[3] = { SPX_SCREEN_LANE(ha, 0), SPX_SCREEN_LANE(ha, 1), SPX_SCREEN_LANE(ha, 2) };
    const spx_f4 v = spx_f4_add(spx_f4_add(spx_f4_andnot(sign, t), ha), hb);
    const spx_f4 scale = spx_f4_add(spx_f4_add(SPX_SCREEN_LANE(v, 0), SPX_SCREEN_LANE(v, 1)), SPX_SCREEN_LANE(v, 2));
    const spx_f4 bound = spx_f4_mul(scale, spx_f4_splat(SPX_SCREEN_BOUND));
    const spx_f4 zero = spx_f4_zero();

    spx_screen_axes ax[5];
    { /* A's faces, lane i */
        const spx_f4 r =
            spx_f4_add(spx_f4_add(spx_f4_add(ha, spx_f4_mul(SPX_SCREEN_LANE(hb, 0), spx_f4_andnot(sign, C0))),
                                  spx_f4_mul(SPX_SCREEN_LANE(hb, 1), spx_f4_andnot(sign, C1))),
                       spx_f4_mul(SPX_SCREEN_LANE(hb, 2), spx_f4_andnot(sign, C2)));
        spx_screen_axes_make(spx_f4_sub(r, spx_f4_andnot(sign, t)), bound, one, all, zero, &ax[0]);
        if (ax[0].apart) return SPX_SCREEN_APART; /* most pairs apart leave here */
    }
    { /* B's faces, lane j */
        const spx_f4 proj =
            spx_f4_add(spx_f4_add(spx_f4_mul(T[0], R[0]), spx_f4_mul(T[1], R[1])), spx_f4_mul(T[2], R[2]));
        const spx_f4 r = spx_f4_add(spx_f4_add(spx_f4_add(hb, spx_f4_mul(HA[0], spx_f4_andnot(sign, R[0]))),
                                               spx_f4_mul(HA[1], spx_f4_andnot(sign, R[1]))),
                                    spx_f4_mul(HA[2], spx_f4_andnot(sign, R[2])));
        spx_screen_axes_make(spx_f4_sub(r, spx_f4_andnot(sign, proj)), bound, one, all, zero, &ax[1]);
        if (ax[1].apart) return SPX_SCREEN_APART;
    }
    const spx_f4 hb1 = SPX_SCREEN_ROT1(hb), hb2 = SPX_SCREEN_ROT2(hb);
    for (int i = 0; i < 3; ++i) { /* A's edge i x B's edge j, lane j: L[i1] = -R[i2][j], L[i2] = R[i1][j] */
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        const spx_f4 l1 = spx_f4_xor(sign, R[i2]), l2 = R[i1];
        const spx_f4 len2 = spx_f4_add(spx_f4_mul(l1, l1), spx_f4_mul(l2, l2));
        const spx_f4 proj = spx_f4_add(spx_f4_mul(T[i1], l1), spx_f4_mul(T[i2], l2));
        const spx_f4 ra =
            spx_f4_add(spx_f4_mul(HA[i1], spx_f4_andnot(sign, l1)), spx_f4_mul(HA[i2], spx_f4_andnot(sign, l2)));
        /* B's other axes on L by minors of R, as the double test */
        const spx_f4 m1 = spx_f4_add(spx_f4_mul(SPX_SCREEN_ROT1(R[i1]), l1), spx_f4_mul(SPX_SCREEN_ROT1(R[i2]), l2));
        const spx_f4 m2 = spx_f4_add(spx_f4_mul(SPX_SCREEN_ROT2(R[i1]), l1), spx_f4_mul(SPX_SCREEN_ROT2(R[i2]), l2));
        const spx_f4 rb =
            spx_f4_add(spx_f4_mul(hb1, spx_f4_andnot(sign, m1)), spx_f4_mul(hb2, spx_f4_andnot(sign, m2)));
        /* Below 4.9e-13 double surely skips the axis (|L| < 1e-6, float's error on |L| < 3e-7); above 1e-4
           float's depth is trusted; between, unsure. */
        const spx_f4 part = spx_f4_ge(len2, spx_f4_splat(4.9e-13f));
        const spx_f4 unsure = spx_f4_le(len2, spx_f4_splat(1e-4f));
        const spx_f4 len = spx_f4_sqrt(spx_f4_max(len2, spx_f4_splat(1e-30f)));
        spx_screen_axes_make(spx_f4_sub(spx_f4_add(ra, rb), spx_f4_andnot(sign, proj)), spx_f4_div(bound, len), len,
                             part, unsure, &ax[2 + i]);
    }
    int apart = 0, unsure = 0;
    for (int k = 0; k < 5; ++k) apart |= ax[k].apart, unsure |= ax[k].unsure;
    if (apart) return SPX_SCREEN_APART;
    if (unsure) return SPX_SCREEN_UNSURE;
    /* The winner: the one axis whose depth - bound is below the least depth + bound. */
    spx_f4 h = spx_f4_min(spx_f4_min(spx_f4_min(ax[0].hi, ax[1].hi), spx_f4_min(ax[2].hi, ax[3].hi)), ax[4].hi);
    h = spx_f4_min(h, SPX_F4_PERMUTE(h, 1, 0, 3, 2));
    h = spx_f4_min(h, SPX_F4_PERMUTE(h, 2, 3, 0, 1));
    int winner = SPX_SCREEN_UNSURE, count = 0;
    static const int base[5] = { 0, 3, 6, 9, 12 };
    for (int k = 0; k < 5; ++k) {
        const int m = spx_f4_mask(spx_f4_le(ax[k].lo, h)) & 7;
        if (m) {
            count += (m & 1) + ((m >> 1) & 1) + (m >> 2);
            winner = base[k] + (m & 1 ? 0 : m & 2 ? 1 : 2);
        }
    }
    return count == 1 ? winner : SPX_SCREEN_UNSURE;
}

#undef SPX_SCREEN_LANE
#undef SPX_SCREEN_ROT1
#undef SPX_SCREEN_ROT2
#endif

#endif
