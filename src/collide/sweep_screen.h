/* Box-box sweep: misses found in float when float can tell.
 *
 * The exact answer (sweep_obb_obb.c) runs the 15 axes in double over [0, tmax]. Here every axis is
 * worked out in float lanes in the layout of the penetration screen (A's faces, B's faces, A's edge
 * i against B's three edges: five vectors), at both ends of the interval: the offset of B along the
 * axis at t = 0 and at t = tmax against the sum of the radii. An axis on which B lies beyond that
 * sum on the same side at both ends, by more than the screen's bound (SPX_SCREEN_BOUND of the scale,
 * now with the distance travelled in it), separates the pair over the whole interval in double
 * too: the double test then stops on some axis, and its answer is the miss this returns. Edge axes
 * count only where the double test surely uses them (|L|^2 above 1e-4). Anything else goes to the
 * double test. */
#ifndef SPX_SWEEP_SCREEN_H
#define SPX_SWEEP_SCREEN_H

#include "penetration_screen.h"

#if SPX_HAS_SIMD

#define SPX_SWEEP_LANE(v, k) SPX_F4_LANE((v), k)
#define SPX_SWEEP_ROT2(v) SPX_F4_SWIZZLE((v), 2, 0, 1, 3) /* (v2, v0, v1, v3) */

/* Lanes 0..2 where offsets s0 (t = 0) and s1 (t = tmax) both lie beyond r + bound on one side. */
static inline int spx_sweep_screen_apart(spx_f4 s0, spx_f4 s1, spx_f4 r, spx_f4 bound)
{
    const spx_f4 reach = spx_f4_add(r, bound);
    const spx_f4 ahead = spx_f4_min(s0, s1), behind = spx_f4_sub(spx_f4_zero(), spx_f4_max(s0, s1));
    return spx_f4_mask(spx_f4_gt(spx_f4_max(ahead, behind), reach)) & 7;
}

/* True when B, moving at `move` (its velocity relative to A times tmax, lanes 0..2) over the
   interval, surely never touches A; false: ask the double test. */
static inline bool spx_sweep_screen_miss(const spx_box_regs* A, const spx_box_regs* B, spx_f4 move)
{
    const spx_f4 sign = spx_f4_splat(-0.0f);
    const spx_f4 d = spx_f4_sub(B->c, A->c);
    /* B's offset and motion in A's frame */
    const spx_f4 t =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(d, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(d, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(d, 2)));
    const spx_f4 u =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(move, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(move, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(move, 2)));
    const spx_f4 ha = A->h, hb = B->h;
    const spx_f4 three = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0));
    /* The scale, in every lane: offsets, distance travelled and half extents. */
    const spx_f4 v =
        spx_f4_and(three, spx_f4_add(spx_f4_add(spx_f4_andnot(sign, t), spx_f4_andnot(sign, u)), spx_f4_add(ha, hb)));
    const spx_f4 scale = spx_f4_add(spx_f4_add(SPX_SWEEP_LANE(v, 0), SPX_SWEEP_LANE(v, 1)), SPX_SWEEP_LANE(v, 2));
    const spx_f4 bound = spx_f4_mul(scale, spx_f4_splat(SPX_SCREEN_BOUND));
    const spx_f4 C0 =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(B->k0, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(B->k0, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(B->k0, 2)));
    const spx_f4 C1 =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(B->k1, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(B->k1, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(B->k1, 2)));
    const spx_f4 C2 =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(B->k2, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(B->k2, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(B->k2, 2)));
    { /* A's faces, lane i: most misses leave here */
        const spx_f4 r =
            spx_f4_add(spx_f4_add(spx_f4_add(ha, spx_f4_mul(SPX_SWEEP_LANE(hb, 0), spx_f4_andnot(sign, C0))),
                                  spx_f4_mul(SPX_SWEEP_LANE(hb, 1), spx_f4_andnot(sign, C1))),
                       spx_f4_mul(SPX_SWEEP_LANE(hb, 2), spx_f4_andnot(sign, C2)));
        if (spx_sweep_screen_apart(t, spx_f4_add(t, u), r, bound)) return true;
    }
    spx_f4 R[3];
    spx_transpose3(C0, C1, C2, &R[0], &R[1], &R[2]);
    const spx_f4 T[3] = { SPX_SWEEP_LANE(t, 0), SPX_SWEEP_LANE(t, 1), SPX_SWEEP_LANE(t, 2) };
    const spx_f4 U[3] = { SPX_SWEEP_LANE(u, 0), SPX_SWEEP_LANE(u, 1), SPX_SWEEP_LANE(u, 2) };
    const spx_f4 HA[3] = { SPX_SWEEP_LANE(ha, 0), SPX_SWEEP_LANE(ha, 1), SPX_SWEEP_LANE(ha, 2) };
    { /* B's faces, lane j */
        const spx_f4 s0 =
            spx_f4_add(spx_f4_add(spx_f4_mul(T[0], R[0]), spx_f4_mul(T[1], R[1])), spx_f4_mul(T[2], R[2]));
        const spx_f4 w = spx_f4_add(spx_f4_add(spx_f4_mul(U[0], R[0]), spx_f4_mul(U[1], R[1])), spx_f4_mul(U[2], R[2]));
        const spx_f4 r = spx_f4_add(spx_f4_add(spx_f4_add(hb, spx_f4_mul(HA[0], spx_f4_andnot(sign, R[0]))),
                                               spx_f4_mul(HA[1], spx_f4_andnot(sign, R[1]))),
                                    spx_f4_mul(HA[2], spx_f4_andnot(sign, R[2])));
        if (spx_sweep_screen_apart(s0, spx_f4_add(s0, w), r, bound)) return true;
    }
    const spx_f4 hb1 = SPX_ROT1_PS(hb), hb2 = SPX_SWEEP_ROT2(hb), usable = spx_f4_splat(1e-4f);
    int apart = 0;
    for (int i = 0; i < 3; ++i) { /* A's edge i x B's edge j, lane j: L[i1] = -R[i2][j], L[i2] = R[i1][j] */
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        const spx_f4 l1 = spx_f4_xor(sign, R[i2]), l2 = R[i1];
        const spx_f4 len2 = spx_f4_add(spx_f4_mul(l1, l1), spx_f4_mul(l2, l2));
        const spx_f4 s0 = spx_f4_add(spx_f4_mul(T[i1], l1), spx_f4_mul(T[i2], l2));
        const spx_f4 w = spx_f4_add(spx_f4_mul(U[i1], l1), spx_f4_mul(U[i2], l2));
        const spx_f4 ra =
            spx_f4_add(spx_f4_mul(HA[i1], spx_f4_andnot(sign, l1)), spx_f4_mul(HA[i2], spx_f4_andnot(sign, l2)));
        /* B's other two axes on L: minors of R, as the double test takes them */
        const spx_f4 m1 = spx_f4_add(spx_f4_mul(SPX_ROT1_PS(R[i1]), l1), spx_f4_mul(SPX_ROT1_PS(R[i2]), l2));
        const spx_f4 m2 = spx_f4_add(spx_f4_mul(SPX_SWEEP_ROT2(R[i1]), l1), spx_f4_mul(SPX_SWEEP_ROT2(R[i2]), l2));
        const spx_f4 rb =
            spx_f4_add(spx_f4_mul(hb1, spx_f4_andnot(sign, m1)), spx_f4_mul(hb2, spx_f4_andnot(sign, m2)));
        apart |= spx_sweep_screen_apart(s0, spx_f4_add(s0, w), spx_f4_add(ra, rb), bound) &
                 spx_f4_mask(spx_f4_gt(len2, usable));
    }
    return apart != 0;
}

#undef SPX_SWEEP_LANE
#undef SPX_SWEEP_ROT2
#endif

#endif
