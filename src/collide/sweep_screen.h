/* Box-box sweep screen in float: every axis's offset at t = 0, displacement and radii sum, each within E =
 * SPX_SCREEN_BOUND of the scale (2E for the displacement). It answers only where the bounds decide (apart beyond r +
 * E at both ends, or one axis surely entering last, before every exit and tmax); else unsure, and the double test
 * runs. Edge axes count only where double surely uses (|L|^2 > 1e-4) or skips (< 4.9e-13) them. See
 * docs/collision.md#how-the-speed-is-reached. */
#ifndef SPX_SWEEP_SCREEN_H
#define SPX_SWEEP_SCREEN_H

#include "penetration_screen.h"

#if SPX_HAS_SIMD

/* pshufd on SSE2: no copy of a source still needed (SPX_F4_PERMUTE) */
#define SPX_SWEEP_LANE(v, k) SPX_F4_PERMUTE((v), k, k, k, k)
#define SPX_SWEEP_ROT1(v) SPX_F4_PERMUTE((v), 1, 2, 0, 3) /* (v1, v2, v0, v3) */
#define SPX_SWEEP_ROT2(v) SPX_F4_PERMUTE((v), 2, 0, 1, 3) /* (v2, v0, v1, v3) */

/* Lanes 0..2 where offsets s0 (t = 0) and s1 (t = tmax) both lie beyond r + bound on one side. */
static inline int spx_sweep_screen_apart(spx_f4 s0, spx_f4 s1, spx_f4 r, spx_f4 bound)
{
    const spx_f4 reach = spx_f4_add(r, bound);
    const spx_f4 ahead = spx_f4_min(s0, s1), behind = spx_f4_sub(spx_f4_zero(), spx_f4_max(s0, s1));
    return spx_f4_mask(spx_f4_gt(spx_f4_max(ahead, behind), reach)) & 7;
}

/* Entry and exit times of one vector of axes (lanes 0..2 where `part` is set), as interval fractions: the entry's
   bounds (-FLT_MAX when overlapping at t = 0 or not taking part) and a low bound of the exit (FLT_MAX where none). */
typedef struct spx_sweep_times {
    spx_f4 enter_lo, enter_hi, exit_lo;
    int ahead;  /* lanes where B lies along +axis at t = 0 */
    int unsure; /* lanes that take part and that float cannot settle */
} spx_sweep_times;

/* Two reciprocals a family: an axis that enters closes at |w| (exactly so where it surely closes, |w| > 2E), so
   1 / (|w| + 2E) bounds its entry from below and every exit from below, and 1 / (|w| - 2E) its entry from above.
   The exit side is the one B moves towards (for an axis that enters, the far side), either if float cannot tell. */
static inline void spx_sweep_times_make(spx_f4 s0, spx_f4 w, spx_f4 r, spx_f4 e, spx_f4 part, spx_f4 unsure,
                                        spx_sweep_times* out)
{
    const spx_f4 e2 = spx_f4_add(e, e), ne2 = spx_f4_neg(e2), none = spx_f4_splat(-FLT_MAX);
    const spx_f4 gp = spx_f4_sub(s0, r), gn = spx_f4_sub(spx_f4_neg(s0), r);
    const spx_f4 gap = spx_f4_max(gp, gn), aw = spx_f4_abs(w);
    const spx_f4 ahead = spx_f4_gt(gp, e), sep = spx_f4_gt(gap, e), over = spx_f4_lt(gap, spx_f4_neg(e));
    const spx_f4 wpos = spx_f4_gt(w, e2), wneg = spx_f4_lt(w, ne2);
    /* Separated and surely closing: B ahead moving along -axis, or behind along +axis. */
    const spx_f4 closing = spx_f4_or(spx_f4_and(ahead, wneg), spx_f4_andnot(ahead, wpos));
    const spx_f4 slow = spx_f4_andnot(closing, sep);
    const spx_f4 one = spx_f4_splat(1.0f);
    const spx_f4 inv_hi = spx_f4_div(one, spx_f4_add(aw, e2));
    const spx_f4 inv_lo = spx_f4_div(one, spx_f4_max(spx_f4_sub(aw, e2), spx_f4_splat(FLT_MIN)));
    const spx_f4 neg_inf = spx_f4_splat(-INFINITY);
    const spx_f4 g_exit = spx_f4_max(spx_f4_pick(wneg, neg_inf, gp), spx_f4_pick(wpos, neg_inf, gn));
    const spx_f4 leave = spx_f4_mul(spx_f4_neg(spx_f4_add(g_exit, e)), inv_hi);
    const spx_f4 in = spx_f4_and(spx_f4_andnot(unsure, part), sep);
    out->enter_lo = spx_f4_pick(in, spx_f4_mul(spx_f4_sub(gap, e), inv_hi), none);
    out->enter_hi = spx_f4_pick(in, spx_f4_mul(spx_f4_add(gap, e), inv_lo), none);
    out->exit_lo = spx_f4_pick(part, leave, spx_f4_splat(FLT_MAX));
    out->ahead = spx_f4_mask(spx_f4_and(part, ahead));
    const spx_f4 settled = spx_f4_andnot(spx_f4_or(unsure, slow), spx_f4_or(sep, over));
    out->unsure = spx_f4_mask(spx_f4_andnot(settled, part)) & 7;
}

static inline spx_f4 spx_sweep_hmax(spx_f4 v)
{
    v = spx_f4_max(v, SPX_F4_PERMUTE(v, 1, 0, 3, 2));
    return spx_f4_max(v, SPX_F4_PERMUTE(v, 2, 3, 0, 1));
}

/* Relative margin between float times that double surely orders alike (far beyond its 1e-9 ties), covering float's
   rounding of the ratios. */
#define SPX_SWEEP_TIME_MARGIN (1.0f + 1e-5f)

/* SPX_SCREEN_APART when B, moving by `move` (relative velocity times tmax, lanes 0..2), surely never touches A; the
   axis (0..14) that surely names the first contact, *ahead when B lies along +axis; SPX_SCREEN_UNSURE: ask the double
   test. */
static inline int spx_sweep_screen(const spx_box_regs* A, const spx_box_regs* B, spx_f4 move, bool* ahead)
{
    const spx_f4 sign = spx_f4_splat(-0.0f);
    const spx_f4 d = spx_f4_sub(B->c, A->c);
    const spx_f4 t =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(d, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(d, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(d, 2)));
    const spx_f4 u =
        spx_f4_add(spx_f4_add(spx_f4_mul(A->x, SPX_SWEEP_LANE(move, 0)), spx_f4_mul(A->y, SPX_SWEEP_LANE(move, 1))),
                   spx_f4_mul(A->z, SPX_SWEEP_LANE(move, 2)));
    const spx_f4 ha = A->h, hb = B->h;
    const spx_f4 three = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0));
    /* The scale in every lane: offsets, distance travelled, half extents. */
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
    spx_f4 s0[5], w[5], r[5], part[5], unsure[5];
    { /* A's faces, lane i: most misses leave here */
        r[0] = spx_f4_add(spx_f4_add(spx_f4_add(ha, spx_f4_mul(SPX_SWEEP_LANE(hb, 0), spx_f4_andnot(sign, C0))),
                                     spx_f4_mul(SPX_SWEEP_LANE(hb, 1), spx_f4_andnot(sign, C1))),
                          spx_f4_mul(SPX_SWEEP_LANE(hb, 2), spx_f4_andnot(sign, C2)));
        s0[0] = t, w[0] = u;
        if (spx_sweep_screen_apart(t, spx_f4_add(t, u), r[0], bound)) return SPX_SCREEN_APART;
    }
    spx_f4 R[3];
    spx_transpose3(C0, C1, C2, &R[0], &R[1], &R[2]);
    const spx_f4 T[3] = { SPX_SWEEP_LANE(t, 0), SPX_SWEEP_LANE(t, 1), SPX_SWEEP_LANE(t, 2) };
    const spx_f4 U[3] = { SPX_SWEEP_LANE(u, 0), SPX_SWEEP_LANE(u, 1), SPX_SWEEP_LANE(u, 2) };
    const spx_f4 HA[3] = { SPX_SWEEP_LANE(ha, 0), SPX_SWEEP_LANE(ha, 1), SPX_SWEEP_LANE(ha, 2) };
    { /* B's faces, lane j */
        s0[1] = spx_f4_add(spx_f4_add(spx_f4_mul(T[0], R[0]), spx_f4_mul(T[1], R[1])), spx_f4_mul(T[2], R[2]));
        w[1] = spx_f4_add(spx_f4_add(spx_f4_mul(U[0], R[0]), spx_f4_mul(U[1], R[1])), spx_f4_mul(U[2], R[2]));
        r[1] = spx_f4_add(spx_f4_add(spx_f4_add(hb, spx_f4_mul(HA[0], spx_f4_andnot(sign, R[0]))),
                                     spx_f4_mul(HA[1], spx_f4_andnot(sign, R[1]))),
                          spx_f4_mul(HA[2], spx_f4_andnot(sign, R[2])));
        if (spx_sweep_screen_apart(s0[1], spx_f4_add(s0[1], w[1]), r[1], bound)) return SPX_SCREEN_APART;
    }
    const spx_f4 hb1 = SPX_SWEEP_ROT1(hb), hb2 = SPX_SWEEP_ROT2(hb), usable = spx_f4_splat(1e-4f);
    int apart = 0;
    for (int i = 0; i < 3; ++i) { /* A's edge i x B's edge j, lane j: L[i1] = -R[i2][j], L[i2] = R[i1][j] */
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        const spx_f4 l1 = spx_f4_xor(sign, R[i2]), l2 = R[i1];
        const spx_f4 len2 = spx_f4_add(spx_f4_mul(l1, l1), spx_f4_mul(l2, l2));
        s0[2 + i] = spx_f4_add(spx_f4_mul(T[i1], l1), spx_f4_mul(T[i2], l2));
        w[2 + i] = spx_f4_add(spx_f4_mul(U[i1], l1), spx_f4_mul(U[i2], l2));
        const spx_f4 ra =
            spx_f4_add(spx_f4_mul(HA[i1], spx_f4_andnot(sign, l1)), spx_f4_mul(HA[i2], spx_f4_andnot(sign, l2)));
        /* B's other two axes on L: minors of R, as double takes them */
        const spx_f4 m1 = spx_f4_add(spx_f4_mul(SPX_SWEEP_ROT1(R[i1]), l1), spx_f4_mul(SPX_SWEEP_ROT1(R[i2]), l2));
        const spx_f4 m2 = spx_f4_add(spx_f4_mul(SPX_SWEEP_ROT2(R[i1]), l1), spx_f4_mul(SPX_SWEEP_ROT2(R[i2]), l2));
        const spx_f4 rb =
            spx_f4_add(spx_f4_mul(hb1, spx_f4_andnot(sign, m1)), spx_f4_mul(hb2, spx_f4_andnot(sign, m2)));
        r[2 + i] = spx_f4_add(ra, rb);
        part[2 + i] = spx_f4_ge(len2, spx_f4_splat(4.9e-13f));
        unsure[2 + i] = spx_f4_le(len2, usable);
        apart |= spx_sweep_screen_apart(s0[2 + i], spx_f4_add(s0[2 + i], w[2 + i]), r[2 + i], bound) &
                 spx_f4_mask(spx_f4_gt(len2, usable));
    }
    if (apart) return SPX_SCREEN_APART;

    /* A hit float can name. Outside these scales a product may leave float's normal range. */
    const float size = spx_f4_first(scale);
    if (!(size > 1e-15f && size < 1e17f)) return SPX_SCREEN_UNSURE;
    part[0] = part[1] = three;
    unsure[0] = unsure[1] = spx_f4_zero();
    spx_sweep_times st[5];
    int doubt = 0;
    for (int k = 0; k < 5; ++k) {
        spx_sweep_times_make(s0[k], w[k], r[k], bound, spx_f4_and(part[k], three), unsure[k], &st[k]);
        doubt |= st[k].unsure;
    }
    const spx_f4 lo = spx_sweep_hmax(
        spx_f4_max(spx_f4_max(spx_f4_max(st[0].enter_lo, st[1].enter_lo), spx_f4_max(st[2].enter_lo, st[3].enter_lo)),
                   st[4].enter_lo));
    const spx_f4 hi = spx_f4_mul(spx_sweep_hmax(spx_f4_max(spx_f4_max(spx_f4_max(st[0].enter_hi, st[1].enter_hi),
                                                                      spx_f4_max(st[2].enter_hi, st[3].enter_hi)),
                                                           st[4].enter_hi)),
                                 spx_f4_splat(SPX_SWEEP_TIME_MARGIN));
    /* An axis double surely uses enters after tmax: its miss. */
    if (spx_f4_first(lo) > SPX_SWEEP_TIME_MARGIN) return SPX_SCREEN_APART;
    if (doubt) return SPX_SCREEN_UNSURE;
    /* Some axis enters after t = 0 (else a start overlap) and before tmax. */
    if (!(spx_f4_first(lo) > 0.0f && spx_f4_first(hi) < 1.0f)) return SPX_SCREEN_UNSURE;
    int winner = -1, count = 0, before_exit = 0;
    for (int k = 0; k < 5; ++k) {
        /* lanes whose entry may be as late as the latest low entry (NaN counts) */
        const int m = ~spx_f4_mask(spx_f4_lt(spx_f4_mul(st[k].enter_hi, spx_f4_splat(SPX_SWEEP_TIME_MARGIN)), lo)) & 7;
        if (m) {
            count += (m & 1) + ((m >> 1) & 1) + (m >> 2);
            winner = 3 * k + (m & 1 ? 0 : m & 2 ? 1 : 2);
        }
        before_exit += (spx_f4_mask(spx_f4_lt(hi, st[k].exit_lo)) & 7) == 7;
    }
    if (count != 1 || before_exit != 5) return SPX_SCREEN_UNSURE;
    if (winner >= 6) {
        /* An edge axis within 1e-4 of a face axis might be that face for double, which then reports the face:
           unsure. */
        const int i = (winner - 6) / 3, j = (winner - 6) % 3;
        float rows[3][4];
        for (int k = 0; k < 3; ++k) spx_f4_store(rows[k], R[k]);
        for (int k = 0; k < 3; ++k)
            if ((k != i && fabsf(rows[k][j]) < 1e-4f) || (k != j && fabsf(rows[i][k]) < 1e-4f))
                return SPX_SCREEN_UNSURE;
    }
    *ahead = (st[winner / 3].ahead >> (winner % 3)) & 1;
    return winner;
}

#undef SPX_SWEEP_LANE
#undef SPX_SWEEP_ROT1
#undef SPX_SWEEP_ROT2
#endif

#endif
