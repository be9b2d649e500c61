/* Box-triangle and triangle-triangle sweeps: misses proved in float before the double test. Only axes
 * the double test surely uses are screened; B beyond A by more than the bound on one side at both ends
 * of the interval makes the double test stop with a miss too, and every other pair runs it.
 * The bound: each float value is a chain of at most ~25 roundings of sums of products, so its error
 * is below 25 * 2^-24 * 3 * T * A (T: largest corner offset 1-norm plus shift, half extents, margin;
 * A: the axis's size, 1, |e|_1 or |e|_1 |f|_1); SPX_TRI_SCREEN_BOUND (2^-14) is over twenty times
 * that. T * A outside [1e-25, 1e30] is not screened (subnormals, overflow); NaN never reads as apart.
 * See docs/collision.md#how-the-speed-is-reached. */
#ifndef SPX_TRIANGLE_SCREEN_H
#define SPX_TRIANGLE_SCREEN_H

#include <sepax/collide.h>
#include "math/simd.h"
#include <math.h>
#include <stdbool.h>

#define SPX_TRI_SCREEN_BOUND (1.0f / 16384.0f)
/* Edge products count where |l|^2 > this |e|^2 |f|^2, normals where |n|^2 > this |e_max|^4 (the
   double test's thresholds are 1e-12). */
#define SPX_TRI_SCREEN_USABLE 1e-4f

static inline spx_vec3 spx_ts_sub(spx_vec3 a, spx_vec3 b)
{
    spx_vec3 r = { a.x - b.x, a.y - b.y, a.z - b.z };
    return r;
}

/* One instruction each (fminf, fmaxf are calls); no NaN reaches them on a range-checked axis. */
static inline float spx_ts_min(float a, float b) { return a < b ? a : b; }
static inline float spx_ts_max(float a, float b) { return a > b ? a : b; }

static inline float spx_ts_dot(spx_vec3 a, spx_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static inline float spx_ts_norm1(spx_vec3 a) { return fabsf(a.x) + fabsf(a.y) + fabsf(a.z); }

/* Is B ([lo, hi] at t = 0, shifted by w at tmax) beyond A's [alo, ahi] by more than e on one side at
   both ends? sc = T * A must lie where float's relative error holds. */
static inline bool spx_ts_apart(float alo, float ahi, float lo, float hi, float w, float sc)
{
    if (!(sc > 1e-25f && sc < 1e30f)) return false;
    const float e = sc * SPX_TRI_SCREEN_BOUND;
    return (lo - ahi > e && lo + w - ahi > e) || (alo - hi > e && alo - hi - w > e);
}

/* Triangle corners p[] projected on l: lo and hi. */
static inline void spx_ts_project(const spx_vec3 p[3], spx_vec3 l, float* lo, float* hi)
{
    const float a = spx_ts_dot(p[0], l), b = spx_ts_dot(p[1], l), c = spx_ts_dot(p[2], l);
    *lo = spx_ts_min(a, spx_ts_min(b, c));
    *hi = spx_ts_max(a, spx_ts_max(b, c));
}

/* spx_ts_apart on four axes' lanes at once. */
static inline int spx_ts_apart4(spx_f4 alo, spx_f4 ahi, spx_f4 lo, spx_f4 hi, spx_f4 w, spx_f4 sc)
{
    const spx_f4 e = spx_f4_mul(sc, spx_f4_splat(SPX_TRI_SCREEN_BOUND));
    const spx_f4 ahead = spx_f4_sub(lo, ahi), behind = spx_f4_sub(alo, hi);
    const spx_f4 apart = spx_f4_or(spx_f4_and(spx_f4_gt(ahead, e), spx_f4_gt(spx_f4_add(ahead, w), e)),
                                   spx_f4_and(spx_f4_gt(behind, e), spx_f4_gt(spx_f4_sub(behind, w), e)));
    const spx_f4 in_range = spx_f4_and(spx_f4_gt(sc, spx_f4_splat(1e-25f)), spx_f4_lt(sc, spx_f4_splat(1e30f)));
    return spx_f4_mask(spx_f4_and(apart, in_range));
}

/* What the screen saw on up to 16 axes (4 lanes a group), for spx_ts_decide: gaps at t = 0 as the double
   test takes them (gp = B's low - A's high, gn = A's low - B's high), B's shift over [0, tmax] and the
   scale T * A (0: not screened). A lane that is no axis reads as overlapping and never leaving. */
typedef struct spx_ts_axes {
    spx_f4 gp[4], gn[4], w[4], sc[4];
} spx_ts_axes;

static inline void spx_ts_keep(spx_ts_axes* x, int g, spx_f4 alo, spx_f4 ahi, spx_f4 lo, spx_f4 hi, spx_f4 w, spx_f4 sc)
{
    x->gp[g] = spx_f4_sub(lo, ahi);
    x->gn[g] = spx_f4_sub(alo, hi);
    x->w[g] = w;
    x->sc[g] = sc;
}

static inline void spx_ts_keep_lane3(spx_ts_axes* x, int g, float gp, float gn, float w, float sc)
{
    const spx_f4 lane3 = spx_i4_as_f4(spx_i4_set(0, 0, 0, -1));
    x->gp[g] = spx_f4_pick(lane3, spx_f4_splat(gp), x->gp[g]);
    x->gn[g] = spx_f4_pick(lane3, spx_f4_splat(gn), x->gn[g]);
    x->w[g] = spx_f4_pick(lane3, spx_f4_splat(w), x->w[g]);
    x->sc[g] = spx_f4_pick(lane3, spx_f4_splat(sc), x->sc[g]);
}

/* Lane 3 of group g: no axis. */
static inline void spx_ts_no_axis(spx_ts_axes* x, int g) { spx_ts_keep_lane3(x, g, -1.0f, -1.0f, 0.0f, 1.0f); }

/* The axis (group * 4 + lane) that surely gives the double test's hit, or -1 when the float values
   cannot tell. Each gap and shift is within e = sc * SPX_TRI_SCREEN_BOUND of the exact one, so every
   axis's side at t = 0 must be clear by e, each entering axis's entry time (in units of tmax) is
   bounded by [(g - e) / (s + e), (g + e) / (s - e)] and each exit from below by (x - e) / (s + e);
   1e-5 more on each covers the divisions' rounding and the double test's 1e-9 entry tie. Decided: one
   axis enters surely later than every other, before tmax and before every exit. */
static inline int spx_ts_decide(const spx_ts_axes* x, int groups)
{
    const spx_f4 one = spx_f4_splat(1.0f), none = spx_f4_splat(-1.0f);
    const spx_f4 below = spx_f4_splat(1.0f - 1e-5f), above = spx_f4_splat(1.0f + 1e-5f);
    spx_f4 elo[4], ehi[4], clear = spx_f4_eq(one, one), exits = one, best = none;
    for (int g = 0; g < groups; ++g) {
        const spx_f4 sc = x->sc[g], gp = x->gp[g], gn = x->gn[g], w = x->w[g];
        const spx_f4 e = spx_f4_mul(sc, spx_f4_splat(SPX_TRI_SCREEN_BOUND)), ne = spx_f4_neg(e);
        const spx_f4 in_range = spx_f4_and(spx_f4_gt(sc, spx_f4_splat(1e-25f)), spx_f4_lt(sc, spx_f4_splat(1e30f)));
        const spx_f4 closing = spx_f4_lt(w, ne), opening = spx_f4_gt(w, e);
        const spx_f4 ahead = spx_f4_and(spx_f4_gt(gp, e), closing), behind = spx_f4_and(spx_f4_gt(gn, e), opening);
        const spx_f4 enters = spx_f4_or(ahead, behind);
        const spx_f4 overlap = spx_f4_and(spx_f4_lt(gp, ne), spx_f4_lt(gn, ne));
        clear = spx_f4_and(clear, spx_f4_and(in_range, spx_f4_or(enters, overlap)));
        /* B leaves through A's far side: moving along +l past A's high end, along -l past its low end */
        const spx_f4 out =
            spx_f4_pick(opening, spx_f4_neg(gp), spx_f4_pick(closing, spx_f4_neg(gn), spx_f4_neg(spx_f4_max(gp, gn))));
        const spx_f4 s = spx_f4_abs(w), g0 = spx_f4_pick(ahead, gp, gn);
        const spx_f4 exit_lo = spx_f4_mul(spx_f4_div(spx_f4_sub(out, e), spx_f4_add(s, e)), below);
        elo[g] = spx_f4_pick(enters, spx_f4_mul(spx_f4_div(spx_f4_sub(g0, e), spx_f4_add(s, e)), below), none);
        ehi[g] = spx_f4_pick(enters, spx_f4_mul(spx_f4_div(spx_f4_add(g0, e), spx_f4_sub(s, e)), above), none);
        exits = spx_f4_min(exits, exit_lo);
        best = spx_f4_max(best, elo[g]);
    }
    if (spx_f4_mask(clear) != 0xF) return -1;
    best = spx_f4_max(best, SPX_F4_SWIZZLE(best, 2, 3, 0, 1));
    best = spx_f4_max(best, SPX_F4_SWIZZLE(best, 1, 0, 3, 2));
    exits = spx_f4_min(exits, SPX_F4_SWIZZLE(exits, 2, 3, 0, 1));
    exits = spx_f4_min(exits, SPX_F4_SWIZZLE(exits, 1, 0, 3, 2));
    /* the latest surely-later entry: the only lane whose entry may reach it */
    int lane = -1;
    for (int g = 0; g < groups; ++g) {
        const int m = spx_f4_mask(spx_f4_ge(ehi[g], best));
        if (m == 0) continue;
        if (lane >= 0 || (m & (m - 1))) return -1;
        lane = 4 * g + (m & 1 ? 0 : (m & 2 ? 1 : (m & 4 ? 2 : 3)));
    }
    if (lane < 0 || !(spx_f4_first(best) > 0.0f)) return -1;
    float hi[4];
    spx_f4_store(hi, ehi[lane >> 2]);
    return hi[lane & 3] <= spx_f4_first(exits) ? lane : -1;
}

/* f x p in lanes 0..2: p's projections on box axis i x f (box_tri_edge_axis). */
static inline spx_f4 spx_ts_cross4(spx_f4 f, spx_f4 p)
{
    const spx_f4 c =
        spx_f4_sub(spx_f4_mul(f, SPX_F4_SWIZZLE(p, 1, 2, 0, 3)), spx_f4_mul(SPX_F4_SWIZZLE(f, 1, 2, 0, 3), p));
    return SPX_F4_SWIZZLE(c, 1, 2, 0, 3);
}

/* True when box A (velocity va) and triangle B (vb) surely do not touch over [0, tmax], so the double
   test (sweep_obb_triangle.c) answers a miss: box faces, the normal, then three edge products a vector.
   Otherwise, when `seen` is given, what it saw: group 0 the box faces (lanes 0..2, indices 1..3) and the
   normal (lane 3, index 0), group 1 + j box axis i x edge j (lane i, index 4 + 3i + j). */
static inline bool spx_box_tri_screen(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb, float tmax,
                                      spx_ts_axes* seen)
{
    const spx_vec3 mw = { (vb.x - va.x) * tmax, (vb.y - va.y) * tmax, (vb.z - va.z) * tmax };
    spx_vec3 d[3], f[3];
    float corner = 0.0f;
    for (int k = 0; k < 3; ++k) {
        /* corners from the box's centre, edges from the corners (as spx_tri_shape_make) */
        d[k] = spx_ts_sub(b->v[k], a->center);
        f[k] = spx_ts_sub(b->v[k == 2 ? 0 : k + 1], b->v[k]);
        corner = spx_ts_max(corner, spx_ts_norm1(d[k]));
    }
    const spx_vec3 hv = a->half_extents;
    const float T = corner + spx_ts_norm1(mw) + hv.x + hv.y + hv.z;
    const spx_vec3* c = a->rotation.col;
    /* box rotation rows: v in the box's frame is x v.x + y v.y + z v.z */
    const spx_f4 x = spx_f4_set(c[0].x, c[1].x, c[2].x, 0.0f), y = spx_f4_set(c[0].y, c[1].y, c[2].y, 0.0f),
                 z = spx_f4_set(c[0].z, c[1].z, c[2].z, 0.0f);
#define SPX_TS_FRAME(v)                                                                            \
    spx_f4_add(spx_f4_add(spx_f4_mul(x, spx_f4_splat((v).x)), spx_f4_mul(y, spx_f4_splat((v).y))), \
               spx_f4_mul(z, spx_f4_splat((v).z)))
    const spx_f4 p0 = SPX_TS_FRAME(d[0]), p1 = SPX_TS_FRAME(d[1]), p2 = SPX_TS_FRAME(d[2]), m = SPX_TS_FRAME(mw);
    const spx_f4 h = spx_f4_set(hv.x, hv.y, hv.z, 0.0f), nh = spx_f4_neg(h), scale = spx_f4_splat(T);
    const spx_f4 plo = spx_f4_min(p0, spx_f4_min(p1, p2)), phi = spx_f4_max(p0, spx_f4_max(p1, p2));
    if (spx_ts_apart4(nh, h, plo, phi, m, scale)) return true;
    if (seen) spx_ts_keep(seen, 0, nh, h, plo, phi, m, scale);
    spx_f4 e[3] = { SPX_TS_FRAME(f[0]), SPX_TS_FRAME(f[1]), SPX_TS_FRAME(f[2]) };
#undef SPX_TS_FRAME
    { /* the normal e[0] x (p[2] - p[0]), in lanes 0..2 and then summed */
        const spx_f4 n = spx_ts_cross4(e[0], spx_f4_neg(e[2]));
        const spx_f4 e0 = spx_f4_mul(e[0], e[0]), e1 = spx_f4_mul(e[1], e[1]), e2 = spx_f4_mul(e[2], e[2]);
        float v[7][4];
        spx_f4_store(v[0], n), spx_f4_store(v[1], p0), spx_f4_store(v[2], p1), spx_f4_store(v[3], p2);
        spx_f4_store(v[4], m), spx_f4_store(v[5], spx_f4_abs(e[0])), spx_f4_store(v[6], spx_f4_abs(e[2]));
        const spx_vec3 nn = { v[0][0], v[0][1], v[0][2] };
        float best = 0.0f;
        const spx_f4 len2[3] = { e0, e1, e2 };
        for (int k = 0; k < 3; ++k) {
            float l[4];
            spx_f4_store(l, len2[k]);
            best = spx_ts_max(best, l[0] + l[1] + l[2]);
        }
        if (seen) spx_ts_keep_lane3(seen, 0, 0.0f, 0.0f, 0.0f, 0.0f); /* not screened unless usable */
        if (spx_ts_dot(nn, nn) > SPX_TRI_SCREEN_USABLE * best * best) {
            const spx_vec3 pk[3] = { { v[1][0], v[1][1], v[1][2] },
                                     { v[2][0], v[2][1], v[2][2] },
                                     { v[3][0], v[3][1], v[3][2] } };
            const spx_vec3 mm = { v[4][0], v[4][1], v[4][2] };
            const float r = hv.x * fabsf(nn.x) + hv.y * fabsf(nn.y) + hv.z * fabsf(nn.z);
            float lo, hi;
            spx_ts_project(pk, nn, &lo, &hi);
            const float size = (v[5][0] + v[5][1] + v[5][2]) * (v[6][0] + v[6][1] + v[6][2]);
            const float wn = spx_ts_dot(mm, nn);
            if (spx_ts_apart(-r, r, lo, hi, wn, T * size)) return true;
            if (seen) spx_ts_keep_lane3(seen, 0, lo - r, -r - hi, wn, T * size);
        }
    }
    /* lane i of edge j: |axis i x f|^2 = |f|^2 - f_i^2, and the box's radius on it */
    const spx_f4 hyxx = SPX_F4_SWIZZLE(h, 1, 0, 0, 3), hzzy = SPX_F4_SWIZZLE(h, 2, 2, 1, 3);
    for (int j = 0; j < 3; ++j) {
        const spx_f4 fj = e[j], af = spx_f4_abs(fj), f2 = spx_f4_mul(fj, fj);
        const spx_f4 len2 = spx_f4_add(SPX_F4_SWIZZLE(f2, 1, 0, 0, 3), SPX_F4_SWIZZLE(f2, 2, 2, 1, 3));
        const spx_f4 all2 = spx_f4_add(spx_f4_add(SPX_F4_LANE(f2, 0), SPX_F4_LANE(f2, 1)), SPX_F4_LANE(f2, 2));
        const spx_f4 size = spx_f4_add(spx_f4_add(SPX_F4_LANE(af, 0), SPX_F4_LANE(af, 1)), SPX_F4_LANE(af, 2));
        const spx_f4 r = spx_f4_add(spx_f4_mul(hyxx, SPX_F4_SWIZZLE(af, 2, 2, 1, 3)),
                                    spx_f4_mul(hzzy, SPX_F4_SWIZZLE(af, 1, 0, 0, 3)));
        const spx_f4 q0 = spx_ts_cross4(fj, p0), q1 = spx_ts_cross4(fj, p1), q2 = spx_ts_cross4(fj, p2);
        /* an unusable lane gets scale 0, outside the screened range */
        const spx_f4 usable = spx_f4_gt(len2, spx_f4_mul(spx_f4_splat(SPX_TRI_SCREEN_USABLE), all2));
        const spx_f4 sc = spx_f4_and(usable, spx_f4_mul(scale, size));
        const spx_f4 qlo = spx_f4_min(q0, spx_f4_min(q1, q2)), qhi = spx_f4_max(q0, spx_f4_max(q1, q2));
        const spx_f4 qm = spx_ts_cross4(fj, m), nr = spx_f4_neg(r);
        if (spx_ts_apart4(nr, r, qlo, qhi, qm, sc)) return true;
        if (seen) {
            spx_ts_keep(seen, 1 + j, nr, r, qlo, qhi, qm, sc);
            spx_ts_no_axis(seen, 1 + j);
        }
    }
    return false;
}

static inline bool spx_box_tri_screen_apart(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                            float tmax)
{
    return spx_box_tri_screen(a, va, b, vb, tmax, NULL);
}

/* x + y + z of lanes 0..2, in every lane. */
static inline spx_f4 spx_ts_sum3(spx_f4 v)
{
    return spx_f4_add(spx_f4_add(SPX_F4_LANE(v, 0), SPX_F4_LANE(v, 1)), SPX_F4_LANE(v, 2));
}

static inline spx_f4 spx_ts_load(spx_vec3 v) { return spx_f4_set(v.x, v.y, v.z, 0.0f); }

/* Four triangle-triangle axes l = F x G: A's edge f against B's three edges, lane 3 F3 x G3. Lanes
   0..2 count where |l|^2 > 1e-4 |F|^2 |G|^2, lane 3 above 1e-4 normal_limit; pts: A's corners (first
   at the origin), B's, B's shift m, splat. Not apart: kept as group g of x when given, with A grown by
   the double test's margin |l|. */
static inline bool spx_ts_tri_axes(spx_f4 f, spx_f4 F3, spx_f4 ebx, spx_f4 eby, spx_f4 ebz, spx_f4 G3,
                                   float normal_limit, const spx_f4 pts[6][3], spx_f4 T, spx_f4 grow, spx_ts_axes* x,
                                   int g)
{
    /* (f, f, f, F3) and (B's edges, G3), a coordinate a vector */
    const spx_f4 fxx = SPX_F4_SHUFFLE(f, F3, 0, 0, 0, 0), fyy = SPX_F4_SHUFFLE(f, F3, 1, 1, 1, 1),
                 fzz = SPX_F4_SHUFFLE(f, F3, 2, 2, 2, 2);
    const spx_f4 fx = SPX_F4_SWIZZLE(fxx, 0, 0, 0, 2), fy = SPX_F4_SWIZZLE(fyy, 0, 0, 0, 2),
                 fz = SPX_F4_SWIZZLE(fzz, 0, 0, 0, 2);
    const spx_f4 g3x = SPX_F4_SHUFFLE(ebx, G3, 2, 2, 0, 0), g3y = SPX_F4_SHUFFLE(eby, G3, 2, 2, 1, 1),
                 g3z = SPX_F4_SHUFFLE(ebz, G3, 2, 2, 2, 2);
    const spx_f4 gx = SPX_F4_SHUFFLE(ebx, g3x, 0, 1, 0, 2), gy = SPX_F4_SHUFFLE(eby, g3y, 0, 1, 0, 2),
                 gz = SPX_F4_SHUFFLE(ebz, g3z, 0, 1, 0, 2);
    const spx_f4 lx = spx_f4_sub(spx_f4_mul(fy, gz), spx_f4_mul(fz, gy));
    const spx_f4 ly = spx_f4_sub(spx_f4_mul(fz, gx), spx_f4_mul(fx, gz));
    const spx_f4 lz = spx_f4_sub(spx_f4_mul(fx, gy), spx_f4_mul(fy, gx));
    spx_f4 on[6];
    for (int k = 0; k < 6; ++k)
        on[k] = spx_f4_add(spx_f4_add(spx_f4_mul(lx, pts[k][0]), spx_f4_mul(ly, pts[k][1])), spx_f4_mul(lz, pts[k][2]));
    const spx_f4 l2 = spx_f4_add(spx_f4_add(spx_f4_mul(lx, lx), spx_f4_mul(ly, ly)), spx_f4_mul(lz, lz));
    const spx_f4 l1 = spx_f4_add(spx_f4_add(spx_f4_abs(lx), spx_f4_abs(ly)), spx_f4_abs(lz));
    const spx_f4 f1 = spx_f4_add(spx_f4_add(spx_f4_abs(fx), spx_f4_abs(fy)), spx_f4_abs(fz));
    const spx_f4 g1 = spx_f4_add(spx_f4_add(spx_f4_abs(gx), spx_f4_abs(gy)), spx_f4_abs(gz));
    const spx_f4 f2 = spx_f4_add(spx_f4_add(spx_f4_mul(fx, fx), spx_f4_mul(fy, fy)), spx_f4_mul(fz, fz));
    const spx_f4 g2 = spx_f4_add(spx_f4_add(spx_f4_mul(gx, gx), spx_f4_mul(gy, gy)), spx_f4_mul(gz, gz));
    const spx_f4 lane3 = spx_i4_as_f4(spx_i4_set(0, 0, 0, -1));
    const spx_f4 limit = spx_f4_mul(spx_f4_splat(SPX_TRI_SCREEN_USABLE),
                                    spx_f4_pick(lane3, spx_f4_splat(normal_limit), spx_f4_mul(f2, g2)));
    /* an unusable lane gets scale 0, outside the screened range */
    const spx_f4 sc = spx_f4_and(spx_f4_gt(l2, limit), spx_f4_mul(T, spx_f4_mul(f1, g1)));
    const spx_f4 r = spx_f4_mul(grow, l1), zero = spx_f4_zero();
    const spx_f4 alo = spx_f4_min(zero, spx_f4_min(on[0], on[1])), ahi = spx_f4_max(zero, spx_f4_max(on[0], on[1]));
    const spx_f4 blo = spx_f4_min(on[2], spx_f4_min(on[3], on[4])), bhi = spx_f4_max(on[2], spx_f4_max(on[3], on[4]));
    if (spx_ts_apart4(spx_f4_sub(alo, r), spx_f4_add(ahi, r), blo, bhi, on[5], sc)) return true;
    if (x) {
        const spx_f4 grown = spx_f4_mul(grow, spx_f4_sqrt(l2));
        spx_ts_keep(x, g, spx_f4_sub(alo, grown), spx_f4_add(ahi, grown), blo, bhi, on[5], sc);
    }
    return false;
}

/* True when triangles A (grown by margin >= 0, velocity va) and B (vb) surely do not touch over
   [0, tmax] (sweep_triangle_triangle.c then misses). Lane 3 holds A's normal (i = 0: ea0 x -ea2, as
   spx_tri_shape_finish), B's (i = 1) or none. A's growth is margin |l|_1 >= the test's margin |l|.
   Otherwise, when x is given, what it saw: group i lane j A's edge i x B's edge j (index 2 + 3i + j),
   lane 3 of groups 0 and 1 the normals (indices 0 and 1). */
static inline bool spx_tri_tri_screen(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                      float tmax, float margin, spx_ts_axes* x)
{
    const spx_f4 A0 = spx_ts_load(a->v[0]), A1 = spx_ts_load(a->v[1]), A2 = spx_ts_load(a->v[2]);
    const spx_f4 B0 = spx_ts_load(b->v[0]), B1 = spx_ts_load(b->v[1]), B2 = spx_ts_load(b->v[2]);
    const spx_f4 m = spx_f4_mul(spx_f4_sub(spx_ts_load(vb), spx_ts_load(va)), spx_f4_splat(tmax));
    /* corners from A's first, edges from the corners (as spx_tri_shape_make) */
    const spx_f4 pa1 = spx_f4_sub(A1, A0), pa2 = spx_f4_sub(A2, A0);
    const spx_f4 pb0 = spx_f4_sub(B0, A0), pb1 = spx_f4_sub(B1, A0), pb2 = spx_f4_sub(B2, A0);
    const spx_f4 ea0 = pa1, ea1 = spx_f4_sub(A2, A1), ea2 = spx_f4_sub(A0, A2);
    spx_f4 ebx = spx_f4_sub(B1, B0), eby = spx_f4_sub(B2, B1), ebz = spx_f4_sub(B0, B2), ebw = spx_f4_zero();
    const spx_f4 eb0 = ebx;
    const spx_f4 nb = spx_f4_neg(ebz);
    const spx_f4 ea2n = spx_f4_neg(ea2);
    const spx_f4 corner =
        spx_f4_max(spx_f4_max(spx_ts_sum3(spx_f4_abs(pa1)), spx_ts_sum3(spx_f4_abs(pa2))),
                   spx_f4_max(spx_ts_sum3(spx_f4_abs(pb0)),
                              spx_f4_max(spx_ts_sum3(spx_f4_abs(pb1)), spx_ts_sum3(spx_f4_abs(pb2)))));
    const spx_f4 T = spx_f4_add(spx_f4_add(corner, spx_ts_sum3(spx_f4_abs(m))), spx_f4_splat(margin));
    const spx_f4 src[6] = { pa1, pa2, pb0, pb1, pb2, m };
    spx_f4 pts[6][3];
    for (int k = 0; k < 6; ++k) {
        pts[k][0] = SPX_F4_LANE(src[k], 0);
        pts[k][1] = SPX_F4_LANE(src[k], 1);
        pts[k][2] = SPX_F4_LANE(src[k], 2);
    }
    /* each triangle's longest |e|^2 */
    const float besta =
        spx_f4_first(spx_f4_max(spx_ts_sum3(spx_f4_mul(ea0, ea0)),
                                spx_f4_max(spx_ts_sum3(spx_f4_mul(ea1, ea1)), spx_ts_sum3(spx_f4_mul(ea2, ea2)))));
    const float bestb =
        spx_f4_first(spx_f4_max(spx_ts_sum3(spx_f4_mul(ebx, ebx)),
                                spx_f4_max(spx_ts_sum3(spx_f4_mul(eby, eby)), spx_ts_sum3(spx_f4_mul(ebz, ebz)))));
    spx_f4_transpose(&ebx, &eby, &ebz, &ebw); /* B's edges' x, y, z across lanes */
    const spx_f4 grow = spx_f4_splat(margin), zero = spx_f4_zero();
    const spx_f4(*p)[3] = (const spx_f4(*)[3])pts;
    if (spx_ts_tri_axes(ea0, ea0, ebx, eby, ebz, ea2n, besta * besta, p, T, grow, x, 0) ||
        spx_ts_tri_axes(ea1, eb0, ebx, eby, ebz, nb, bestb * bestb, p, T, grow, x, 1) ||
        spx_ts_tri_axes(ea2, zero, ebx, eby, ebz, zero, 0.0f, p, T, grow, x, 2))
        return true;
    if (x) spx_ts_no_axis(x, 2);
    return false;
}

static inline bool spx_tri_tri_screen_apart(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                            float tmax, float margin)
{
    return spx_tri_tri_screen(a, va, b, vb, tmax, margin, NULL);
}

#endif
