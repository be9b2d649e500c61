/* Box against box: overlap, minimum translation and sweep (time, normal, point), in A's frame where B's axes are the
 * columns of R = A^T B (Eberly). See docs/collision.md#swept-queries. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "geometry/obb_pair_check.h"
#include "sat_axes.h"
#include "box_features.h"
#include "sweep_obb_obb.h"
#include "penetration_screen.h"
#include "sweep_screen.h"
#include "math/simd.h"

typedef spx_box_pair box_pair;

/* Two sums a lane, each the spx_d3_dot of the scalar form in its order (the same bits): row i of R in pairs
   (r_i0, r_i1), (r_i2, t_i), (u_i, -). Products of floats are exact in double. */
static void box_pair_make(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, box_pair* p)
{
    const float *b0 = &b->rotation.col[0].x, *b1 = &b->rotation.col[1].x, *b2 = &b->rotation.col[2].x;
    const float *ca = &a->center.x, *cb = &b->center.x, *wa = &va.x, *wb = &vb.x;
    spx_d2 x[3], y[3], z[3];
    for (int c = 0; c < 3; ++c) {
        x[c] = spx_d2_of_floats(b0[c], b1[c]);
        y[c] = spx_d2_sub(spx_d2_of_floats(b2[c], cb[c]), spx_d2_of_floats(0.0f, ca[c])); /* b2 - 0 is b2 */
        z[c] = spx_d2_sub(spx_d2_of_floats(wb[c], 0.0f), spx_d2_of_floats(wa[c], 0.0f));
    }
    for (int i = 0; i < 3; ++i) {
        const float* ai = &a->rotation.col[i].x;
        const spx_d2 a0 = spx_d2_splat(ai[0]), a1 = spx_d2_splat(ai[1]), a2 = spx_d2_splat(ai[2]);
        double r2t[2], u[2];
        spx_d2_store(p->r[i], spx_d2_add(spx_d2_add(spx_d2_mul(a0, x[0]), spx_d2_mul(a1, x[1])), spx_d2_mul(a2, x[2])));
        spx_d2_store(r2t, spx_d2_add(spx_d2_add(spx_d2_mul(a0, y[0]), spx_d2_mul(a1, y[1])), spx_d2_mul(a2, y[2])));
        spx_d2_store(u, spx_d2_add(spx_d2_add(spx_d2_mul(a0, z[0]), spx_d2_mul(a1, z[1])), spx_d2_mul(a2, z[2])));
        p->r[i][2] = r2t[0];
        p->t[i] = r2t[1];
        p->u[i] = u[0];
    }
    p->ha[0] = a->half_extents.x;
    p->ha[1] = a->half_extents.y;
    p->ha[2] = a->half_extents.z;
    p->hb[0] = b->half_extents.x;
    p->hb[1] = b->half_extents.y;
    p->hb[2] = b->half_extents.z;
}

/* Edge i of A x edge j of B (i1, i2, j1, j2 the others, cyclic). Every projection, B's radius included, uses L = e_i
 * x b_j with b_k . L the minor of R: it keeps the direction of nearly parallel edges where the one-entry identity is
 * only as good as B's orthonormality. See docs/tolerances.md#nearly-parallel-edges. */
__attribute__((always_inline)) static inline bool box_pair_edge(const box_pair* p, spx_sat* s, int i, int j)
{
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    /* L = e_i x c_j: L[i1] = -c_j[i2], L[i2] = c_j[i1], L[i] = 0. */
    const double l1 = -p->r[i2][j], l2 = p->r[i1][j];
    const double len2 = l1 * l1 + l2 * l2;
    if (!spx_edge_axis_usable(len2, 1.0, 1.0)) return true;
    const double ra = p->ha[i1] * fabs(l1) + p->ha[i2] * fabs(l2);
    const double rb = p->hb[j1] * fabs(p->r[i1][j1] * l1 + p->r[i2][j1] * l2) +
                      p->hb[j2] * fabs(p->r[i1][j2] * l1 + p->r[i2][j2] * l2);
    const double d = p->t[i1] * l1 + p->t[i2] * l2;
    const double w = p->u[i1] * l1 + p->u[i2] * l2;
    return spx_sat_axis_test(s, 6 + 3 * i + j, SPX_AXIS_EDGE, len2, d - rb - ra, -ra - d - rb, w);
}

/* Axis `index` alone with the sums of box_pair_sat and box_pair_edge (the same bits): |L|^2, gaps ahead and behind,
 * B's relative speed along L (0 unless `moving`). */
__attribute__((always_inline)) static inline void box_pair_gaps(const box_pair* p, int index, bool moving, double* len2,
                                                                double* gap_pos, double* gap_neg, double* w)
{
    *w = 0.0;
    *len2 = 1.0;
    if (index < 3) {
        const int i = index;
        const double rb = p->hb[0] * fabs(p->r[i][0]) + p->hb[1] * fabs(p->r[i][1]) + p->hb[2] * fabs(p->r[i][2]);
        *gap_pos = p->t[i] - rb - p->ha[i];
        *gap_neg = -p->ha[i] - p->t[i] - rb;
        if (moving) *w = p->u[i];
    } else if (index < 6) {
        const int j = index - 3;
        const double ra = p->ha[0] * fabs(p->r[0][j]) + p->ha[1] * fabs(p->r[1][j]) + p->ha[2] * fabs(p->r[2][j]);
        const double c = p->t[0] * p->r[0][j] + p->t[1] * p->r[1][j] + p->t[2] * p->r[2][j];
        *gap_pos = c - p->hb[j] - ra;
        *gap_neg = -ra - c - p->hb[j];
        if (moving) *w = p->u[0] * p->r[0][j] + p->u[1] * p->r[1][j] + p->u[2] * p->r[2][j];
    } else {
        const int i = (index - 6) / 3, j = (index - 6) % 3;
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        const double l1 = -p->r[i2][j], l2 = p->r[i1][j];
        *len2 = l1 * l1 + l2 * l2;
        const double ra = p->ha[i1] * fabs(l1) + p->ha[i2] * fabs(l2);
        const double rb = p->hb[j1] * fabs(p->r[i1][j1] * l1 + p->r[i2][j1] * l2) +
                          p->hb[j2] * fabs(p->r[i1][j2] * l1 + p->r[i2][j2] * l2);
        const double d = p->t[i1] * l1 + p->t[i2] * l2;
        *gap_pos = d - rb - ra;
        *gap_neg = -ra - d - rb;
        if (moving) *w = p->u[i1] * l1 + p->u[i2] * l2;
    }
}

/* Unnormalised axis `index` in A's frame (an spx_axis_dir_fn). */
static spx_dvec3 box_pair_axis(const void* pair, int index)
{
    const box_pair* p = pair;
    if (index < 3) return spx_d3(index == 0, index == 1, index == 2);
    int i = index < 6 ? -1 : (index - 6) / 3, j = index < 6 ? index - 3 : (index - 6) % 3;
    spx_dvec3 c = spx_d3(p->r[0][j], p->r[1][j], p->r[2][j]);
    if (i < 0) return c;
    return i == 0 ? spx_d3(0, -c.z, c.y) : (i == 1 ? spx_d3(c.z, 0, -c.x) : spx_d3(-c.y, c.x, 0));
}

/* All 15 axes through the interval logic; false once one separates throughout. Faces first: they separate most misses
 * and win ties. */
static bool box_pair_sat(const box_pair* p, double tmax, spx_sat* s, bool track_depth)
{
    double ar[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) ar[i][j] = fabs(p->r[i][j]);
    spx_sat_init(s, tmax, track_depth);
    for (int i = 0; i < 3; ++i) {
        double rb = p->hb[0] * ar[i][0] + p->hb[1] * ar[i][1] + p->hb[2] * ar[i][2];
        if (!spx_sat_axis_test(s, i, SPX_AXIS_FACE, 1.0, p->t[i] - rb - p->ha[i], -p->ha[i] - p->t[i] - rb, p->u[i]))
            return false;
    }
    for (int j = 0; j < 3; ++j) {
        double ra = p->ha[0] * ar[0][j] + p->ha[1] * ar[1][j] + p->ha[2] * ar[2][j];
        double c = p->t[0] * p->r[0][j] + p->t[1] * p->r[1][j] + p->t[2] * p->r[2][j];
        double w = p->u[0] * p->r[0][j] + p->u[1] * p->r[1][j] + p->u[2] * p->r[2][j];
        if (!spx_sat_axis_test(s, 3 + j, SPX_AXIS_FACE, 1.0, c - p->hb[j] - ra, -ra - c - p->hb[j], w)) return false;
    }
    if (!box_pair_edge(p, s, 0, 0) || !box_pair_edge(p, s, 0, 1) || !box_pair_edge(p, s, 0, 2) ||
        !box_pair_edge(p, s, 1, 0) || !box_pair_edge(p, s, 1, 1) || !box_pair_edge(p, s, 1, 2) ||
        !box_pair_edge(p, s, 2, 0) || !box_pair_edge(p, s, 2, 1) || !box_pair_edge(p, s, 2, 2))
        return false;
    return spx_sat_touches(s);
}

static void frame_of(const spx_obb* a, spx_dvec3 frame[3])
{
    for (int i = 0; i < 3; ++i) frame[i] = spx_d3_from(a->rotation.col[i]);
}

static spx_dvec3 to_world(const spx_dvec3 frame[3], spx_dvec3 v)
{
    return spx_d3_mad(spx_d3_mad(spx_d3_scale(frame[0], v.x), frame[1], v.y), frame[2], v.z);
}

/* Unnormalised axis `index` in A's frame, for the contact (box_pair_axis inlined). */
static inline spx_dvec3 contact_axis(const box_pair* p, int index)
{
    if (index < 3) return spx_d3(index == 0, index == 1, index == 2);
    if (index < 6) return spx_d3(p->r[0][index - 3], p->r[1][index - 3], p->r[2][index - 3]);
    const int i = (index - 6) / 3, j = (index - 6) % 3;
    const spx_dvec3 c = spx_d3(p->r[0][j], p->r[1][j], p->r[2][j]);
    return i == 0 ? spx_d3(0, -c.z, c.y) : (i == 1 ? spx_d3(c.z, 0, -c.x) : spx_d3(-c.y, c.x, 0));
}

/* Contact on face `k` of A (n = sign e_k): a lone corner of B moved halfway to the plane; false when B touches with
   an edge or face (the general path). Its sums are those of the general path, differing only by signed zeros the
   comparisons cannot see. */
static inline bool a_face_corner(const box_pair* p, int k, double sign, spx_dvec3 cb, spx_dvec3 n, spx_dvec3* q)
{
    const double* rk = p->r[k];
    if (fabs(rk[0]) < SPX_FEATURE_FLAT_SINE || fabs(rk[1]) < SPX_FEATURE_FLAT_SINE ||
        fabs(rk[2]) < SPX_FEATURE_FLAT_SINE)
        return false;
    spx_dvec3 c = cb;
    for (int m = 0; m < 3; ++m)
        c = spx_d3_mad(c, spx_d3(p->r[0][m], p->r[1][m], p->r[2][m]), -sign * rk[m] > 0 ? p->hb[m] : -p->hb[m]);
    *q = spx_d3_mad(c, n, 0.5 * (p->ha[k] - spx_d3_dot(n, c)));
    return true;
}

/* The same on face `j` of B (n unit, A to B): A's corner, whose general-path sums come to exactly (+-ha[0], +-ha[1],
   +-ha[2]). */
static inline bool b_face_corner(const box_pair* p, int j, spx_dvec3 cb, spx_dvec3 n, spx_dvec3* q)
{
    if (fabs(n.x) < SPX_FEATURE_FLAT_SINE || fabs(n.y) < SPX_FEATURE_FLAT_SINE || fabs(n.z) < SPX_FEATURE_FLAT_SINE)
        return false;
    const spx_dvec3 c =
        spx_d3(n.x > 0 ? p->ha[0] : -p->ha[0], n.y > 0 ? p->ha[1] : -p->ha[1], n.z > 0 ? p->ha[2] : -p->ha[2]);
    const spx_dvec3 bj = spx_d3(p->r[0][j], p->r[1][j], p->r[2][j]);
    const double plane = spx_d3_dot(n, cb) - p->hb[j] * fabs(spx_d3_dot(n, bj));
    *q = spx_d3_mad(c, n, 0.5 * (plane - spx_d3_dot(n, c)));
    return true;
}

/* Contact on edge axis a_i x b_j (n unit, A to B): the midpoint of two non-parallel touching edges' closest points,
   with spx_box_feature's sums (exact +-ha on A's axes). False otherwise: the general path. */
static inline bool edge_edge_point(const box_pair* p, int i, int j, spx_dvec3 cb, spx_dvec3 n, spx_dvec3* q)
{
    const double nc[3] = { n.x, n.y, n.z };
    const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
    if (fabs(nc[i1]) < SPX_FEATURE_FLAT_SINE || fabs(nc[i2]) < SPX_FEATURE_FLAT_SINE) return false;
    double pa[3];
    pa[i1] = nc[i1] > 0 ? p->ha[i1] : -p->ha[i1];
    pa[i2] = nc[i2] > 0 ? p->ha[i2] : -p->ha[i2];
    pa[i] = p->ha[i];
    const spx_dvec3 pa0 = spx_d3(pa[0], pa[1], pa[2]);
    pa[i] = -p->ha[i];
    const spx_dvec3 pa1 = spx_d3(pa[0], pa[1], pa[2]);
    const spx_dvec3 m = spx_d3_neg(n);
    spx_dvec3 base = cb;
    for (int k = 0; k < 3; ++k) {
        if (k == j) continue;
        const spx_dvec3 bk = spx_d3(p->r[0][k], p->r[1][k], p->r[2][k]);
        const double d = spx_d3_dot(bk, m);
        if (fabs(d) < SPX_FEATURE_FLAT_SINE) return false;
        base = spx_d3_mad(base, bk, d > 0 ? p->hb[k] : -p->hb[k]);
    }
    const spx_dvec3 e = spx_d3_scale(spx_d3(p->r[0][j], p->r[1][j], p->r[2][j]), p->hb[j]);
    return spx_segments_mid_3d(pa0, pa1, spx_d3_add(base, e), spx_d3_sub(base, e), q);
}

void spx_box_box_contact(const spx_dvec3 frame[3], spx_dvec3 origin, const spx_box_pair* p, int index, double sign,
                         int face_index, double face_sign, double tc, spx_sweep_hit* out)
{
    static const spx_dvec3 unit[3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    spx_dvec3 n = contact_axis(p, index);
    if (index >= 6 && face_index >= 0) {
        spx_dvec3 f = contact_axis(p, face_index);
        if (spx_d3_len2(spx_d3_cross(n, f)) <=
            SPX_SAME_AXIS_SINE * SPX_SAME_AXIS_SINE * spx_d3_len2(n) * spx_d3_len2(f)) {
            n = f;
            index = face_index;
            sign = face_sign;
        }
    }
    /* A's face normals are unit: no square root or division. */
    n = spx_d3_scale(n, index < 3 ? sign : sign / sqrt(spx_d3_len2(n)));
    out->axis = index;
    /* In A's frame at tc: A at the origin on unit axes, B at t + u tc on R's columns. */
    const spx_dvec3 cb = spx_d3(p->t[0] + p->u[0] * tc, p->t[1] + p->u[1] * tc, p->t[2] + p->u[2] * tc);
    spx_dvec3 q;
    /* A lone corner on a face axis is the point, without building the face. */
    if (index < 3 ? a_face_corner(p, index, sign, cb, n, &q) : index < 6 && b_face_corner(p, index - 3, cb, n, &q)) {
        out->feature_a = index < 3 ? SPX_FEATURE_FACE : SPX_FEATURE_VERTEX;
        out->feature_b = index < 3 ? SPX_FEATURE_VERTEX : SPX_FEATURE_FACE;
    } else if (index >= 6 && edge_edge_point(p, (index - 6) / 3, (index - 6) % 3, cb, n, &q)) {
        out->feature_a = SPX_FEATURE_EDGE;
        out->feature_b = SPX_FEATURE_EDGE;
    } else {
        unsigned flat_a = 0, flat_b = 0;
        if (index < 3) flat_a = 7u & ~(1u << index);
        else if (index < 6) flat_b = 7u & ~(1u << (index - 3));
        else {
            flat_a = 1u << ((index - 6) / 3);
            flat_b = 1u << ((index - 6) % 3);
        }
        const spx_dvec3 bx[3] = { spx_d3(p->r[0][0], p->r[1][0], p->r[2][0]),
                                  spx_d3(p->r[0][1], p->r[1][1], p->r[2][1]),
                                  spx_d3(p->r[0][2], p->r[1][2], p->r[2][2]) };
        spx_feature fa, fb;
        out->feature_a = spx_box_feature(spx_d3(0, 0, 0), unit, p->ha, n, flat_a, &fa);
        out->feature_b = spx_box_feature(cb, bx, p->hb, spx_d3_neg(n), flat_b, &fb);
        q = spx_contact_point(&fa, &fb, n);
    }
    out->point = spx_d3_to_float(spx_d3_add(origin, to_world(frame, q)));
    spx_dvec3 nw = to_world(frame, n);
    out->normal = spx_d3_to_float(spx_d3_scale(nw, 1.0 / sqrt(spx_d3_len2(nw))));
}

/* True when the bounding spheres never meet in [0, tmax]: |d + w t| > r_a + r_b throughout. Radii grow by 1e-4 (float
   axes are orthonormal within SPX_ROTATION_TOLERANCE, moving corners up to 6e-5 of |h|) and distances by 1e-9, so a
   rejected pair is one the 15 axes reject. */
static bool spheres_miss(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, double tmax)
{
    const spx_dvec3 d = spx_d3_sub(spx_d3_from(b->center), spx_d3_from(a->center));
    const spx_dvec3 w = spx_d3_scale(spx_d3_sub(spx_d3_from(vb), spx_d3_from(va)), tmax);
    const double ra = sqrt(spx_d3_len2(spx_d3_from(a->half_extents))),
                 rb = sqrt(spx_d3_len2(spx_d3_from(b->half_extents)));
    const double reach =
        (ra + rb) * (1.0 + 1e-4) + 1e-9 * (fabs(d.x) + fabs(d.y) + fabs(d.z) + fabs(w.x) + fabs(w.y) + fabs(w.z));
    const double r2 = reach * reach, dw = spx_d3_dot(d, w), ww = spx_d3_len2(w);
    if (dw >= 0.0) return spx_d3_len2(d) > r2;                /* closest at t = 0 */
    if (-dw >= ww) return spx_d3_len2(spx_d3_add(d, w)) > r2; /* closest at tmax */
    return spx_d3_len2(spx_d3_cross(d, w)) > r2 * ww;         /* closest in between */
}

static spx_result check_pair(const spx_obb* a, const spx_obb* b)
{
    if (!a || !b) return SPX_ERR_INVALID_ARGUMENT;
    if (spx_obb_pair_fast_ok(a, b)) return SPX_OK;
    return spx_first_error(spx_obb_validate(a), spx_obb_validate(b));
}

void spx_sweep_obb_obb_exact(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax,
                             spx_sweep_hit* out)
{
    spx_sweep_hit hit = { 0 };
    hit.axis = -1;
    box_pair p;
    box_pair_make(a, va, b, vb, &p);
    spx_sat s;
    if (box_pair_sat(&p, tmax, &s, false)) {
        if (!s.separated_at_start) box_pair_sat(&p, tmax, &s, true); /* overlapping at t = 0: the least-overlap axis */
        double tc;
        const spx_sat_axis* axis = spx_sat_fill_hit(&s, box_pair_axis, &p, &hit, &tc);
        spx_dvec3 frame[3];
        frame_of(a, frame);
        spx_dvec3 origin = spx_d3_mad(spx_d3_from(a->center), spx_d3_from(va), tc);
        spx_box_box_contact(frame, origin, &p, axis->index, axis->sign, -1, 1.0, tc, &hit);
    }
    *out = hit;
}

#if SPX_HAS_SIMD
/* spx_check_motion's acceptance in one pass: every |speed| times tmax, in float, at most SPX_MAX_COORDINATE less
   2^-20 of it (so the exact product is inside it; NaN and infinity fail the comparison), tmax finite and not
   negative. False: spx_check_motion names the fault, if any. *move: B's displacement relative to A over tmax. */
static inline bool motion_fast_ok(spx_vec3 va, spx_vec3 vb, float tmax, spx_f4* move)
{
    const spx_f4 a = spx_f4_set(va.x, va.y, va.z, 0.0f), b = spx_f4_set(vb.x, vb.y, vb.z, 0.0f);
    const spx_f4 t = spx_f4_splat(tmax), limit = spx_f4_splat(SPX_MAX_COORDINATE * (1.0f - 0x1p-20f));
    *move = spx_f4_mul(spx_f4_sub(b, a), t);
    const spx_f4 ok =
        spx_f4_and(spx_f4_le(spx_f4_mul(spx_f4_abs(a), t), limit), spx_f4_le(spx_f4_mul(spx_f4_abs(b), t), limit));
    return spx_f4_mask(ok) == 0xF && tmax >= 0.0f && tmax <= FLT_MAX;
}

/* A hit whose axis the float screen named beyond doubt: that axis alone in double, with the 15-axis sums, gives the
   same answer to the bit. False (nothing written) if double disagrees. */
static bool sweep_on_axis(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, int index, bool ahead,
                          spx_sweep_hit* out)
{
    box_pair p;
    box_pair_make(a, va, b, vb, &p);
    double len2, gap_pos, gap_neg, w;
    box_pair_gaps(&p, index, true, &len2, &gap_pos, &gap_neg, &w);
    const double gap = ahead ? gap_pos : gap_neg, speed = ahead ? -w : w;
    if (!(gap > 0.0 && speed > 0.0)) return false;
    spx_sweep_hit hit = { 0 };
    const double tc = gap / speed;
    hit.state = SPX_SWEEP_HIT;
    hit.time = (float)tc;
    hit.depth = 0.0f;
    spx_dvec3 frame[3];
    frame_of(a, frame);
    const spx_dvec3 origin = spx_d3_mad(spx_d3_from(a->center), spx_d3_from(va), tc);
    spx_box_box_contact(frame, origin, &p, index, ahead ? 1.0 : -1.0, -1, 1.0, tc, &hit);
    *out = hit;
    return true;
}
#endif

SPX_API spx_result spx_sweep_obb_obb(const spx_obb* a, spx_vec3 velocity_a, const spx_obb* b, spx_vec3 velocity_b,
                                     float tmax, spx_sweep_hit* out)
{
    if (!a || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
#if SPX_HAS_SIMD
    /* Misses float can prove leave without the double test. */
    spx_box_regs A, B;
    spx_f4 move;
    if (spx_obb_pair_load_checked(a, b, &A, &B)) {
        if (!motion_fast_ok(velocity_a, velocity_b, tmax, &move)) {
            const spx_result r = spx_check_motion(velocity_a, velocity_b, tmax);
            if (r != SPX_OK) return r;
        }
        bool ahead = false;
        const int axis = spx_sweep_screen(&A, &B, move, &ahead);
        if (axis >= 0 && sweep_on_axis(a, velocity_a, b, velocity_b, axis, ahead, out)) return SPX_OK;
        if (axis == SPX_SCREEN_APART || spheres_miss(a, velocity_a, b, velocity_b, tmax)) {
            *out = (spx_sweep_hit){ .state = SPX_SWEEP_MISS, .axis = -1 };
            return SPX_OK;
        }
        spx_sweep_obb_obb_exact(a, velocity_a, b, velocity_b, tmax, out);
        return SPX_OK;
    }
#endif
    spx_result r = spx_first_error(check_pair(a, b), spx_check_motion(velocity_a, velocity_b, tmax));
    if (r != SPX_OK) return r;
    if (spheres_miss(a, velocity_a, b, velocity_b, tmax)) {
        *out = (spx_sweep_hit){ .state = SPX_SWEEP_MISS, .axis = -1 };
        return SPX_OK;
    }
    spx_sweep_obb_obb_exact(a, velocity_a, b, velocity_b, tmax, out);
    return SPX_OK;
}

static void penetration_exact(const spx_obb* a, const spx_obb* b, spx_penetration* out)
{
    box_pair p;
    spx_vec3 zero = { 0, 0, 0 };
    box_pair_make(a, zero, b, zero, &p);
    spx_sat s;
    bool touches = box_pair_sat(&p, 0.0, &s, true);
    spx_dvec3 frame[3];
    frame_of(a, frame);
    spx_sat_fill_penetration(&s, touches, box_pair_axis, &p, frame, out);
}

#if SPX_HAS_SIMD
/* The minimum translation along axis `index`, the float screen's certain least overlap: that axis alone in double,
   with the 15-axis sums, so depth and normal match. */
static void penetration_on_axis(const spx_obb* a, const spx_obb* b, int index, spx_penetration* out)
{
    box_pair p;
    spx_vec3 zero = { 0, 0, 0 };
    box_pair_make(a, zero, b, zero, &p);
    double len2, gap_pos, gap_neg, w;
    box_pair_gaps(&p, index, false, &len2, &gap_pos, &gap_neg, &w);
    spx_sat s;
    spx_sat_init(&s, 0.0, true);
    /* Its own answer still decides, so no slot is read unfilled. */
    const bool touches =
        spx_sat_axis_test(&s, index, index < 6 ? SPX_AXIS_FACE : SPX_AXIS_EDGE, len2, gap_pos, gap_neg, 0.0);
    spx_dvec3 frame[3];
    frame_of(a, frame);
    spx_sat_fill_penetration(&s, touches, box_pair_axis, &p, frame, out);
}
#endif

#if defined(__GNUC__)
__attribute__((noinline)) /* the rare path: kept out of the screen's code, and countable by callgrind */
#endif
void spx_penetration_obb_obb_exact(const spx_obb* a, const spx_obb* b, spx_penetration* out)
{
    penetration_exact(a, b, out);
}

SPX_API spx_result spx_penetration_obb_obb(const spx_obb* a, const spx_obb* b, spx_penetration* out)
{
    if (!out || !a || !b) return SPX_ERR_INVALID_ARGUMENT;
#if SPX_HAS_SIMD
    spx_box_regs A, B;
    if (spx_obb_pair_load_checked(a, b, &A, &B)) {
        const int axis = spx_penetration_screen(&A, &B);
        if (axis == SPX_SCREEN_APART) *out = (spx_penetration){ .overlapping = false, .axis = -1 };
        else if (axis >= 0) penetration_on_axis(a, b, axis, out);
        else spx_penetration_obb_obb_exact(a, b, out);
        return SPX_OK;
    }
#endif
    spx_result r = check_pair(a, b);
    if (r != SPX_OK) return r;
    penetration_exact(a, b, out);
    return SPX_OK;
}
