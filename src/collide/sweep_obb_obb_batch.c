/* Many box pairs swept at once: the 15-axis interval test in float, one pair per SIMD lane; lanes float cannot settle
 * (near-parallel edges, overlap at t = 0, entry ties) take the exact double path. See
 * docs/collision.md#batched-box-box-queries. */
#include <sepax/collide.h>
#include "math/simd.h"
#include "obb_soa.h"
#include "sweep_obb_obb.h"
#include "geometry/validate.h"
#include <float.h>
#include <math.h>
#include <string.h>

/* Float's error on an offset, radius or displacement relative to the pair's scale: the single-pair screens' bound
   (penetration_screen.h), whose arithmetic the lanes repeat. */
#define LANES_BOUND 3e-5f

/* Per axis and lane, what choosing the normal needs, kept in memory so the axis loop keeps few vectors live (SSE2 has
 * 16 registers). */
typedef struct lanes_state {
    spx_vi miss, sep, exact;
    spx_vf first, last;
    spx_vf tol;       /* error bound on an offset, radius or displacement */
    spx_vf slack;     /* largest error bound of an entry time */
    spx_vf enter[15]; /* -FLT_MAX where the axis overlaps at t = 0 */
    spx_vf late[15];  /* entry plus its error bound */
    spx_vi ahead[15]; /* B lies along +axis from A */
} lanes_state;

/* One axis, all lanes: B's centre at d from A's, half-widths summing to r, relative speed w. Entry -(r + s d) / |w|,
 * exit (r - s d) / |w| with s = sign(w); scaled by |w| it is one branch-free formula, entries <= 0 for overlapping
 * lanes. */
static inline void axis_test(lanes_state* s, int axis, spx_vf d, spx_vf r, spx_vf w)
{
    const spx_vf aw = spx_vf_abs(w), dw = d * w, raw = r * aw;
    /* Speeds under 1e-18 stand still (w^2 stays a normal float): apart is a miss, overlapping never leaves. */
    const spx_vi still = aw <= spx_vf_splat(1e-18f);
    /* Too slow for float to time the gap: the double path decides. */
    s->exact |= still & (aw != spx_vf_splat(0.0f));
    const spx_vf inv = spx_vf_splat(1.0f) / spx_vf_max(w * w, spx_vf_splat(1e-36f));
    const spx_vf enter = -(raw + dw) * inv;
    const spx_vf exit = spx_vf_pick(still, spx_vf_splat(FLT_MAX), (raw - dw) * inv);
    const spx_vi apart = spx_vf_abs(d) > r;
    /* apart and still or moving away: never touches */
    s->miss |= apart & (still | (enter < spx_vf_splat(0.0f)));
    s->sep |= apart;
    s->last = spx_vf_min(s->last, exit);
    s->first = spx_vf_max(s->first, enter);
    s->enter[axis] = spx_vf_pick(apart, enter, spx_vf_splat(-FLT_MAX));
    /* The entry's error: tol on offset and radius, twice tol on displacement, over the speed. */
    const spx_vf slack = spx_vf_splat(3.0f) * s->tol * aw * inv;
    s->late[axis] = s->enter[axis] + slack;
    s->slack = spx_vf_pick(apart, spx_vf_max(s->slack, slack), s->slack);
    s->ahead[axis] = d > r;
}

/* B's velocity relative to A's for SPX_LANES pairs as x, y, z lanes, transposed from whole vectors: built lane by
   lane, halves pass through the stack (a store-forwarding stall per group). */
static inline void velocities_load(const spx_vec3* va, const spx_vec3* vb, spx_vf w[3])
{
    _Static_assert(sizeof(spx_vec3) == 12, "spx_vec3 is three packed floats");
#if SPX_HAS_SIMD
    spx_f4 x[SPX_LANES / 4], y[SPX_LANES / 4], z[SPX_LANES / 4];
    for (int h = 0; h < SPX_LANES / 4; ++h) {
        const float *pa = &va[4 * h].x, *pb = &vb[4 * h].x;
        const spx_f4 v0 = spx_f4_sub(spx_f4_load(pb), spx_f4_load(pa));
        const spx_f4 v1 = spx_f4_sub(spx_f4_load(pb + 4), spx_f4_load(pa + 4));
        const spx_f4 v2 = spx_f4_sub(spx_f4_load(pb + 8), spx_f4_load(pa + 8));
        const spx_f4 x12 = SPX_F4_SHUFFLE(v1, v2, 2, 2, 1, 1); /* x2 x2 x3 x3 */
        const spx_f4 y01 = SPX_F4_SHUFFLE(v0, v1, 1, 1, 0, 0); /* y0 y0 y1 y1 */
        const spx_f4 y23 = SPX_F4_SHUFFLE(v1, v2, 3, 3, 2, 2); /* y2 y2 y3 y3 */
        const spx_f4 z01 = SPX_F4_SHUFFLE(v0, v1, 2, 2, 1, 1); /* z0 z0 z1 z1 */
        x[h] = SPX_F4_SHUFFLE(v0, x12, 0, 3, 0, 2);            /* x0 x1 x2 x3 */
        y[h] = SPX_F4_SHUFFLE(y01, y23, 0, 2, 0, 2);           /* y0 y1 y2 y3 */
        z[h] = SPX_F4_SHUFFLE(z01, v2, 0, 2, 0, 3);            /* z0 z1 z2 z3 */
    }
    w[0] = spx_vf_join(x), w[1] = spx_vf_join(y), w[2] = spx_vf_join(z);
#else
    for (int l = 0; l < SPX_LANES; ++l) {
        w[0][l] = vb[l].x - va[l].x;
        w[1][l] = vb[l].y - va[l].y;
        w[2][l] = vb[l].z - va[l].z;
    }
#endif
}

/* Corner-on-face contacts of a lane group in float: a hit on a face axis where the other box touches with one corner,
   the point that corner moved halfway to the face (as spx_box_box_contact). axis: face 0..5 per lane, sign: +1 when B
   lies along +axis. Other lanes get unread values. */
typedef struct corner_lanes {
    spx_vf point[3];  /* relative to A's centre at `time`, world axes */
    spx_vf normal[3]; /* unit, world, A to B */
    spx_vi flat;      /* edge or face contact: spx_box_box_contact decides */
} corner_lanes;

static void corner_contacts(const spx_box_lanes* p, const spx_vf u[3], spx_vf time, spx_vi axis, spx_vf sign,
                            bool any_a, bool any_b, corner_lanes* out)
{
    const spx_vf(*R)[3] = p->r;
    const spx_vf *t = p->t, *ha = p->ha, *hb = p->hb;
    const spx_vf zero = spx_vf_splat(0.0f), half = spx_vf_splat(0.5f);
    /* |R| < 1e-6 (SPX_FEATURE_FLAT_SINE, in double) for a float R is |R| <= 1e-6f. */
    const spx_vf flat_sine = spx_vf_splat(1e-6f);
    spx_vf cb[3], n[3] = { zero, zero, zero }, q[3] = { zero, zero, zero };
    for (int c = 0; c < 3; ++c) cb[c] = t[c] + u[c] * time;
    const spx_vi on_a = axis < spx_vi_splat(3);
    spx_vi flat = on_a;
    if (any_a) {
        /* A face k: n = sign e_k; B's corner extreme along -n, d_m = -sign R[k][m]. */
        spx_vf row[3], h[3], corner[3];
        for (int m = 0; m < 3; ++m) n[m] = (spx_vf)((spx_vi)sign & (axis == spx_vi_splat(m)));
        for (int m = 0; m < 3; ++m) row[m] = n[0] * R[0][m] + n[1] * R[1][m] + n[2] * R[2][m];
        flat =
            (spx_vf_abs(row[0]) <= flat_sine) | (spx_vf_abs(row[1]) <= flat_sine) | (spx_vf_abs(row[2]) <= flat_sine);
        for (int m = 0; m < 3; ++m) h[m] = spx_vf_pick(row[m] < zero, hb[m], -hb[m]);
        for (int c = 0; c < 3; ++c) corner[c] = cb[c] + R[c][0] * h[0] + R[c][1] * h[1] + R[c][2] * h[2];
        const spx_vf ha_k =
            spx_vf_pick(axis == spx_vi_splat(0), ha[0], spx_vf_pick(axis == spx_vi_splat(1), ha[1], ha[2]));
        const spx_vf lift = half * (ha_k - (n[0] * corner[0] + n[1] * corner[1] + n[2] * corner[2]));
        for (int c = 0; c < 3; ++c) q[c] = corner[c] + n[c] * lift;
    }
    if (any_b) {
        /* B face j: n = sign b_j; A's corner extreme along n. */
        const spx_vi j0 = axis == spx_vi_splat(3), j1 = axis == spx_vi_splat(4), j2 = axis == spx_vi_splat(5);
        spx_vf col[3], nb[3], corner[3], qb[3];
        for (int m = 0; m < 3; ++m)
            col[m] = (spx_vf)(((spx_vi)R[m][0] & j0) | ((spx_vi)R[m][1] & j1) | ((spx_vi)R[m][2] & j2));
        const spx_vf len2 = spx_vf_pick(on_a, spx_vf_splat(1.0f), col[0] * col[0] + col[1] * col[1] + col[2] * col[2]);
        const spx_vf scale = sign / spx_vf_sqrt(len2);
        for (int m = 0; m < 3; ++m) nb[m] = col[m] * scale;
        const spx_vi flat_b =
            (spx_vf_abs(nb[0]) < flat_sine) | (spx_vf_abs(nb[1]) < flat_sine) | (spx_vf_abs(nb[2]) < flat_sine);
        for (int m = 0; m < 3; ++m) corner[m] = spx_vf_pick(nb[m] > zero, ha[m], -ha[m]);
        const spx_vf hb_j = spx_vf_pick(j0, hb[0], spx_vf_pick(j1, hb[1], hb[2]));
        const spx_vf plane = (nb[0] * cb[0] + nb[1] * cb[1] + nb[2] * cb[2]) -
                             hb_j * spx_vf_abs(nb[0] * col[0] + nb[1] * col[1] + nb[2] * col[2]);
        const spx_vf lift = half * (plane - (nb[0] * corner[0] + nb[1] * corner[1] + nb[2] * corner[2]));
        for (int c = 0; c < 3; ++c) qb[c] = corner[c] + nb[c] * lift;
        for (int c = 0; c < 3; ++c) {
            n[c] = any_a ? spx_vf_pick(on_a, n[c], nb[c]) : nb[c];
            q[c] = any_a ? spx_vf_pick(on_a, q[c], qb[c]) : qb[c];
        }
        flat = spx_vi_pick(on_a, flat, flat_b);
    }
    spx_vf nw[3];
    for (int c = 0; c < 3; ++c) {
        out->point[c] = p->a[0][c] * q[0] + p->a[1][c] * q[1] + p->a[2][c] * q[2];
        nw[c] = p->a[0][c] * n[0] + p->a[1][c] * n[1] + p->a[2][c] * n[2];
    }
    const spx_vf inv = spx_vf_splat(1.0f) / spx_vf_sqrt(nw[0] * nw[0] + nw[1] * nw[1] + nw[2] * nw[2]);
    for (int c = 0; c < 3; ++c) out->normal[c] = nw[c] * inv;
    out->flat = flat;
}

/* One hit lane's contact through spx_box_box_contact (double), from its float values. */
static void lane_contact(const spx_obb_soa* a, const spx_vec3* va, size_t i, int l, const spx_box_lanes* p,
                         const spx_vf u[3], float first, int axis, double sign, int face, double face_sign,
                         spx_sweep_hit* hit)
{
    spx_box_pair pair;
    for (int k = 0; k < 3; ++k) {
        for (int m = 0; m < 3; ++m) pair.r[k][m] = p->r[k][m][l];
        pair.t[k] = p->t[k][l];
        pair.u[k] = u[k][l];
        pair.ha[k] = p->ha[k][l];
        pair.hb[k] = p->hb[k][l];
    }
    spx_dvec3 frame[3];
    for (int k = 0; k < 3; ++k) frame[k] = spx_d3(a->axis[k][0][i + l], a->axis[k][1][i + l], a->axis[k][2][i + l]);
    const spx_dvec3 origin = spx_d3_mad(spx_d3(a->center[0][i + l], a->center[1][i + l], a->center[2][i + l]),
                                        spx_d3_from(va[i + l]), first);
    *hit = (spx_sweep_hit){ 0 };
    hit->state = SPX_SWEEP_HIT;
    hit->time = first;
    spx_box_box_contact(frame, origin, &pair, axis, sign, face, face_sign, first, hit);
}

/* The marks for the double path that the nine edge axes' tests set (nearly parallel edges, a closing speed too slow
   for float), without the tests. */
static inline spx_vi edge_marks(spx_vf (*R)[3], const spx_vf u[3])
{
    spx_vi exact = spx_vi_splat(0);
#pragma GCC unroll 3
    for (int k = 0; k < 3; ++k)
#pragma GCC unroll 3
        for (int m = 0; m < 3; ++m) {
            const spx_vf l1 = -R[(k + 2) % 3][m], l2 = R[(k + 1) % 3][m];
            const spx_vf len2 = l1 * l1 + l2 * l2, aw = spx_vf_abs(u[(k + 1) % 3] * l1 + u[(k + 2) % 3] * l2);
            exact |= (len2 > spx_vf_splat(1e-12f)) & (len2 < spx_vf_splat(1e-4f));
            exact |= (aw <= spx_vf_splat(1e-18f)) & (aw != spx_vf_splat(0.0f));
        }
    return exact;
}

/* The nine edge axes: edge k of A against B's three, one pass a k. Out of line, so that its
   registers are allocated apart from the face axes' pass. */
__attribute__((noinline)) static void edge_axes(lanes_state* s, const spx_box_lanes* p, const spx_vf u[3])
{
    const spx_vf(*R)[3] = p->r;
    const spx_vf *t = p->t, *ha = p->ha, *hb = p->hb;
    /* Unrolled: every index constant. */
#pragma GCC unroll 3
    for (int k = 0; k < 3; ++k) { /* edge k of A x edge m of B: L[k1] = -R[k2][m], L[k2] = R[k1][m] */
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
#pragma GCC unroll 3
        for (int m = 0; m < 3; ++m) {
            const int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
            const spx_vf l1 = -R[k2][m], l2 = R[k1][m];
            const spx_vf len2 = l1 * l1 + l2 * l2;
            const spx_vi usable = len2 > spx_vf_splat(1e-12f);
            s->exact |= usable & (len2 < spx_vf_splat(1e-4f));
            /* |minors of rows k1, k2|: exact for the parallelepiped the floats describe, unlike a rotation's
               cofactor identity. */
            const spx_vf minor1 = spx_vf_abs(R[k1][m2] * R[k2][m] - R[k1][m] * R[k2][m2]);
            const spx_vf minor2 = spx_vf_abs(R[k1][m] * R[k2][m1] - R[k1][m1] * R[k2][m]);
            const spx_vf ra = ha[k1] * spx_vf_abs(R[k2][m]) + ha[k2] * spx_vf_abs(R[k1][m]);
            const spx_vf rb = hb[m1] * minor2 + hb[m2] * minor1;
            const spx_vf dl = t[k1] * l1 + t[k2] * l2, wl = u[k1] * l1 + u[k2] * l2;
            /* An unusable lane (L is rounding noise) gets radius 1e30: overlapping throughout, never the latest
               entry. */
            const spx_vf huge = (spx_vf)(~usable & (spx_vi)spx_vf_splat(1e30f));
            axis_test(s, 6 + 3 * k + m, dl, ra + rb + huge, wl);
        }
    }
}

static void sweep_lanes(const spx_obb_soa* a, const spx_vec3* va, const spx_obb_soa* b, const spx_vec3* vb, size_t i,
                        float tmax, spx_sweep_hit* out, spx_vi* bad)
{
    spx_box_lanes p;
    spx_box_lanes_load(a, b, i, &p);
    spx_vf(*R)[3] = p.r;
    const spx_vf *t = p.t, *ha = p.ha, *hb = p.hb;
    spx_vf w[3], u[3];
    velocities_load(va + i, vb + i, w);
    /* A lane with non-finite (or overflowing) stored values fails the call: the exact path indexes by the axis found
       and must never see it. */
    const spx_vi lane_bad = spx_vf_not_finite(p.sum);
    *bad |= lane_bad;
    spx_vf speeds = spx_vf_splat(0.0f);
    for (int k = 0; k < 3; ++k) {
        u[k] = p.a[k][0] * w[0] + p.a[k][1] * w[1] + p.a[k][2] * w[2];
        speeds += u[k];
    }

    /* Float is trusted where every product below stays a normal float (about 1e-30 to 1e36); else the double path. */
    spx_vf big = spx_vf_splat(0.0f), size = spx_vf_splat(0.0f);
    for (int k = 0; k < 3; ++k) {
        big = spx_vf_max(big, spx_vf_max(spx_vf_abs(t[k]), spx_vf_abs(u[k])));
        size = spx_vf_max(size, spx_vf_max(ha[k], hb[k]));
    }
    big = spx_vf_max(big, size);
    lanes_state s;
    s.miss = s.sep = (spx_vi){ 0 };
    spx_vf scale = spx_vf_splat(0.0f);
    for (int k = 0; k < 3; ++k) scale += spx_vf_abs(t[k]) + ha[k] + hb[k] + spx_vf_abs(u[k]) * spx_vf_splat(tmax);
    s.tol = scale * spx_vf_splat(LANES_BOUND);
    s.slack = spx_vf_splat(0.0f);
    /* A speed near FLT_MAX can overflow a product here even with tmax in range: double path. */
    s.exact = (big > spx_vf_splat(1e17f)) | (size < spx_vf_splat(1e-15f)) | spx_vf_not_finite(speeds);
    s.last = spx_vf_splat(tmax);
    s.first = spx_vf_splat(-FLT_MAX);
    /* Passes of three axes, each reading what it needs from p: A's faces, B's faces, then A's edge k against B's
       three. */
    for (int k = 0; k < 3; ++k) {
        const spx_vf rb = hb[0] * spx_vf_abs(R[k][0]) + hb[1] * spx_vf_abs(R[k][1]) + hb[2] * spx_vf_abs(R[k][2]);
        axis_test(&s, k, t[k], rb + ha[k], u[k]);
    }
    for (int k = 0; k < 3; ++k) {
        const spx_vf ra = ha[0] * spx_vf_abs(R[0][k]) + ha[1] * spx_vf_abs(R[1][k]) + ha[2] * spx_vf_abs(R[2][k]);
        const spx_vf c = t[0] * R[0][k] + t[1] * R[1][k] + t[2] * R[2][k];
        const spx_vf wk = u[0] * R[0][k] + u[1] * R[1][k] + u[2] * R[2][k];
        axis_test(&s, 3 + k, c, ra + hb[k], wk);
    }
    /* A lane is settled once it has a fault, takes the double path, misses, or is apart with its entry past its exit
       (first only grows, last only falls): the edge axes change nothing read for it but their marks for the double
       path. A group whose every lane the faces settle takes those marks alone. */
    spx_vi tied = spx_vi_splat(0);
    if (__builtin_expect(!spx_vi_mask(~(lane_bad | s.exact | s.miss | (s.sep & (s.first > s.last)))), 0)) {
        s.exact |= edge_marks(R, u);
    } else {
        edge_axes(&s, &p, u);
        /* Another axis entering within float's error of the latest: the exact tie rule (spx_sat_names_contact)
           decides. */
        spx_vi entries = spx_vi_splat(0);
        const spx_vf near = s.first - s.slack;
        for (int k = 0; k < 15; ++k) entries -= s.late[k] >= near;
        tied = entries > spx_vi_splat(1);
    }

    /* Edge-axis hits take the double contact at once; face-axis hits wait for the group's float corner contact. */
    spx_vi corner = spx_vi_splat(0), corner_axis = spx_vi_splat(0);
    spx_vf corner_sign = spx_vf_splat(1.0f);
    bool any_a = false, any_b = false;
    for (int l = 0; l < SPX_LANES; ++l) {
        spx_sweep_hit* hit = &out[l];
        if (lane_bad[l]) {
            *hit = (spx_sweep_hit){ 0 };
            hit->axis = -1;
            continue;
        }
        if (s.exact[l] || (!s.sep[l] && !s.miss[l])) {
            spx_obb x, y;
            spx_obb_soa_get(a, i + l, &x);
            spx_obb_soa_get(b, i + l, &y);
            spx_sweep_obb_obb_exact(&x, va[i + l], &y, vb[i + l], tmax, hit);
            continue;
        }
        const float first = s.first[l];
        if (s.miss[l] || !(first <= s.last[l])) {
            *hit = (spx_sweep_hit){ 0 };
            hit->axis = -1;
            continue;
        }
        if (tied[l]) {
            spx_obb x, y;
            spx_obb_soa_get(a, i + l, &x);
            spx_obb_soa_get(b, i + l, &y);
            spx_sweep_obb_obb_exact(&x, va[i + l], &y, vb[i + l], tmax, hit);
            continue;
        }
        /* The first axis (faces before edges) with the latest entry names the normal; an edge axis along the latest
           face is that face (sat_axes.h). */
        int axis = 0;
        while (axis < 14 && s.enter[axis][l] != first) ++axis;
        if (axis < 6) {
            corner[l] = -1;
            corner_axis[l] = axis;
            corner_sign[l] = s.ahead[axis][l] ? 1.0f : -1.0f;
            any_a |= axis < 3;
            any_b |= axis >= 3;
            continue;
        }
        int face = -1;
        float face_enter = -FLT_MAX;
        for (int k = 0; k < 6; ++k)
            if (s.enter[k][l] > face_enter) {
                face_enter = s.enter[k][l];
                face = k;
            }
        if (face_enter == -FLT_MAX) face = -1;
        lane_contact(a, va, i, l, &p, u, first, axis, s.ahead[axis][l] ? 1.0 : -1.0, face,
                     face >= 0 && s.ahead[face][l] ? 1.0 : -1.0, hit);
    }
    if (!(any_a | any_b)) return;
    corner_lanes cl;
    corner_contacts(&p, u, s.first, corner_axis, corner_sign, any_a, any_b, &cl);
    for (int l = 0; l < SPX_LANES; ++l) {
        if (!corner[l]) continue;
        spx_sweep_hit* hit = &out[l];
        const float first = s.first[l];
        const int axis = corner_axis[l];
        if (cl.flat[l]) {
            lane_contact(a, va, i, l, &p, u, first, axis, corner_sign[l], -1, 1.0, hit);
            continue;
        }
        /* A's centre plus the offset summed in double, as the single call, to keep float precision far from the
           origin. */
        const spx_vec3 c = { a->center[0][i + l], a->center[1][i + l], a->center[2][i + l] };
        const spx_dvec3 origin = spx_d3_mad(spx_d3_from(c), spx_d3_from(va[i + l]), first);
        *hit = (spx_sweep_hit){ 0 };
        hit->state = SPX_SWEEP_HIT;
        hit->time = first;
        hit->normal = spx_v3(cl.normal[0][l], cl.normal[1][l], cl.normal[2][l]);
        hit->point = spx_d3_to_float(spx_d3_add(origin, spx_d3(cl.point[0][l], cl.point[1][l], cl.point[2][l])));
        hit->axis = axis;
        hit->feature_a = axis < 3 ? SPX_FEATURE_FACE : SPX_FEATURE_VERTEX;
        hit->feature_b = axis < 3 ? SPX_FEATURE_VERTEX : SPX_FEATURE_FACE;
    }
}

/* spx_check_velocities' acceptance as one vector scan of the components: every |v| tmax at most SPX_MAX_COORDINATE
   (NaN and infinity fail the comparison, also at tmax 0), tmax finite and not negative. False:
   spx_check_velocities names the fault, if any. */
static bool velocities_fast_ok(const spx_vec3* va, const spx_vec3* vb, size_t count, float tmax)
{
    if (!(tmax >= 0.0f && tmax <= FLT_MAX)) return false;
    const float* v[2] = { &va->x, &vb->x };
    const size_t n = 3 * count;
    const spx_vf t = spx_vf_splat(tmax), limit = spx_vf_splat(SPX_MAX_COORDINATE);
    spx_vi fault = spx_vi_splat(0);
    for (int s = 0; s < 2; ++s) {
        size_t k = 0;
        for (; k + SPX_LANES <= n; k += SPX_LANES) fault |= ~(spx_vf_abs(spx_vf_load(v[s] + k)) * t <= limit);
        for (; k < n; ++k)
            if (!(fabsf(v[s][k]) * tmax <= SPX_MAX_COORDINATE)) return false;
    }
    return !spx_vi_mask(fault);
}

SPX_API spx_result spx_sweep_obb_obb_batch(const spx_obb_soa* a, const spx_vec3* velocity_a, const spx_obb_soa* b,
                                           const spx_vec3* velocity_b, size_t count, float tmax, spx_sweep_hit* out)
{
    if (!a || !b || !velocity_a || !velocity_b || !out || count > a->capacity || count > b->capacity)
        return SPX_ERR_INVALID_ARGUMENT;
    /* The order of base.h: a velocity or interval fault yields to one of the stored values, which are scanned only
       then (or when a lane's sum shows one). */
    if (!velocities_fast_ok(velocity_a, velocity_b, count, tmax)) {
        const spx_result r = spx_check_velocities(velocity_a, velocity_b, count, tmax);
        if (r != SPX_OK) return spx_first_error(spx_obb_soa_check_stored(a, b, count), r);
    }
    spx_vi bad = { 0 };
    size_t i = 0;
    for (; i + SPX_LANES <= count; i += SPX_LANES) sweep_lanes(a, velocity_a, b, velocity_b, i, tmax, out + i, &bad);
    if (i < count) {
        /* The last pairs as one more group, spare lanes repeating the last pair: same arithmetic and checks. */
        float store[2][15][SPX_LANES];
        spx_obb_soa tail[2];
        spx_vec3 va[SPX_LANES], vb[SPX_LANES];
        spx_sweep_hit hits[SPX_LANES];
        spx_obb_soa_tail(a, i, count, store[0], &tail[0]);
        spx_obb_soa_tail(b, i, count, store[1], &tail[1]);
        for (size_t l = 0; l < SPX_LANES; ++l) {
            va[l] = velocity_a[i + l < count ? i + l : count - 1];
            vb[l] = velocity_b[i + l < count ? i + l : count - 1];
        }
        sweep_lanes(&tail[0], va, &tail[1], vb, 0, tmax, hits, &bad);
        memcpy(out + i, hits, (count - i) * sizeof hits[0]);
    }
    if (!spx_vi_mask(bad)) return SPX_OK;
    const spx_result stored = spx_obb_soa_check_stored(a, b, count);
    return stored != SPX_OK ? stored : SPX_ERR_NOT_FINITE;
}
