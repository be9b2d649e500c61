/* Box-box contact manifold for resting contact (DESIGN.md, step 4).
 *
 * The axis of least penetration (or largest separation, down to -margin) over the 15 SAT axes
 * picks the contact type: a face axis gives reference-face / incident-face clipping, an edge axis
 * the closest points of the two edges. Float throughout: this feeds a sequential-impulse solver
 * at rest, not the exact time of impact, and it runs for every touching pair every step.
 *
 * Feature ids (spx_manifold_point.id), stable while the same features make the point:
 *   face contact (bit 16 clear)
 *     bits 0-2   reference face: 2 * axis + (1 if the face is on the axis' negative side)
 *     bit  3     reference box: 0 = A, 1 = B
 *     bits 4-6   incident face of the other box, numbered the same way
 *     bits 8-13  point code:
 *                  0..3   incident face corner c, kept as it is; the corners run
 *                         c0 = -u-v, c1 = +u-v, c2 = +u+v, c3 = -u+v over the face's two axes
 *                         u = axis (f+1)%3, v = axis (f+2)%3 (f: incident face axis),
 *                         and incident edge e runs from corner e to corner (e+1)%4
 *                  8 + 4 * g + p   where polygon edge g crossed side plane p of the
 *                         reference face; g is 0..3 for incident edge g, 4 + q for the piece
 *                         of polygon edge lying on side plane q (a corner of the reference face)
 *                  side planes p: 0 = +u', 1 = -u', 2 = +v', 3 = -v' over the reference face's
 *                  axes u' = (axis+1)%3, v' = (axis+2)%3
 *   edge contact (bit 16 set)
 *     bits 0-1   direction of A's edge (axis i)
 *     bits 2-3   which of the 4 parallel edges: bit 2 set when on the + side of axis (i+1)%3,
 *                bit 3 when on the + side of axis (i+2)%3
 *     bits 4-5   direction of B's edge (axis j), bits 6-7 which one, as for A */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include <float.h>
#include <math.h>

/* Edge pairs closer to parallel than sin(angle)^2 < 1e-6 give a cross product made of rounding:
   skip them, the face axes cover such pairs (they touch along a face or not by an edge). */
#define MANIFOLD_PARALLEL_SIN2 1e-6f
/* Hysteresis between axes whose separations are nearly equal, so the manifold does not flicker:
   another axis must beat the preferred one by 2% of its depth plus a size-relative slack (which
   also swallows the rounding of an edge axis that coincides with a face axis). */
#define MANIFOLD_REL_TOL 0.02f
#define MANIFOLD_ABS_TOL 1e-5f

#define MANIFOLD_EDGE_BIT (1u << 16)

/* Same tests in the same float arithmetic as spx_obb_validate (geometry/obb.c), combined without
   early exits: a box that passes here passes there. A box that fails goes to spx_obb_validate for
   its exact error code, so the common case pays no call and no branch per test. */
static inline bool box_ok(const spx_obb* box)
{
    const spx_vec3 c = box->center, h = box->half_extents;
    const spx_vec3 a = box->rotation.col[0], b = box->rotation.col[1], d = box->rotation.col[2];
    float z = (c.x - c.x) + (c.y - c.y) + (c.z - c.z) + (h.x - h.x) + (h.y - h.y) + (h.z - h.z)
            + (a.x - a.x) + (a.y - a.y) + (a.z - a.z) + (b.x - b.x) + (b.y - b.y) + (b.z - b.z)
            + (d.x - d.x) + (d.y - d.y) + (d.z - d.z);
    const float tol = SPX_ROTATION_TOLERANCE;
    float aa = a.x * a.x + a.y * a.y + a.z * a.z, bb = b.x * b.x + b.y * b.y + b.z * b.z;
    float dd = d.x * d.x + d.y * d.y + d.z * d.z, ab = a.x * b.x + a.y * b.y + a.z * b.z;
    float ad = a.x * d.x + a.y * d.y + a.z * d.z, bd = b.x * d.x + b.y * d.y + b.z * d.z;
    float det = (a.y * b.z - a.z * b.y) * d.x + (a.z * b.x - a.x * b.z) * d.y + (a.x * b.y - a.y * b.x) * d.z;
    return (z == 0.0f) & (h.x > 0.0f) & (h.y > 0.0f) & (h.z > 0.0f) & (fabsf(aa - 1.0f) <= tol)
         & (fabsf(bb - 1.0f) <= tol) & (fabsf(dd - 1.0f) <= tol) & (fabsf(ab) <= tol) & (fabsf(ad) <= tol)
         & (fabsf(bd) <= tol) & (det >= 0.0f);
}

/* A vertex of the incident polygon while it is clipped, in the reference box's frame. */
typedef struct clip_vertex {
    float p[3];      /* [0], [1] on the reference face's axes u', v'; [2] along its normal axis */
    uint8_t code;    /* point code of the id (see the top of the file) */
    uint8_t edge;    /* polygon edge leaving this vertex: 0..3 incident edge, 4 + q on side plane q */
} clip_vertex;

/* Sutherland-Hodgman against one side plane: keeps sign * p[coord] <= limit. A vertex exactly on
   the plane is kept and makes no intersection point, so no duplicates appear. */
static int clip_side(const clip_vertex* in, int n, clip_vertex* out, int coord, float sign, float limit,
                     int plane)
{
    int m = 0;
    const clip_vertex* prev = &in[n - 1];
    float dprev = sign * prev->p[coord] - limit;
    for (int i = 0; i < n; ++i) {
        const clip_vertex* cur = &in[i];
        float dcur = sign * cur->p[coord] - limit;
        if ((dprev < 0.0f && dcur > 0.0f) || (dprev > 0.0f && dcur < 0.0f)) {
            float s = dprev / (dprev - dcur);
            clip_vertex* x = &out[m++];
            x->p[0] = prev->p[0] + s * (cur->p[0] - prev->p[0]);
            x->p[1] = prev->p[1] + s * (cur->p[1] - prev->p[1]);
            x->p[2] = prev->p[2] + s * (cur->p[2] - prev->p[2]);
            x->p[coord] = sign * limit; /* exactly on the plane, whatever the rounding of s */
            x->code = (uint8_t)(8 + 4 * prev->edge + plane);
            /* Leaving the slab, the output polygon next runs along this plane; entering, along
               the edge that crossed. */
            x->edge = dprev < 0.0f ? (uint8_t)(4 + plane) : prev->edge;
        }
        if (dcur <= 0.0f) out[m++] = *cur;
        prev = cur;
        dprev = dcur;
    }
    return m;
}

/* Twice the signed area of triangle (a, b, c) in the reference plane. */
static inline float area2(const clip_vertex* a, const clip_vertex* b, const clip_vertex* c)
{
    return (b->p[0] - a->p[0]) * (c->p[1] - a->p[1]) - (b->p[1] - a->p[1]) * (c->p[0] - a->p[0]);
}

/* Picks 4 of n > 4 points: the deepest (smallest height), the one farthest from it, the one
   spanning the largest triangle with those two, and the one adding the most area outside that
   triangle. Writes the chosen indices in polygon order. */
static void reduce_to_four(const clip_vertex* v, const float* height, int n, int keep[4])
{
    int i0 = 0;
    for (int i = 1; i < n; ++i)
        if (height[i] < height[i0]) i0 = i;
    int i1 = i0 == 0 ? 1 : 0;
    float best = -1.0f;
    for (int i = 0; i < n; ++i) {
        float dx = v[i].p[0] - v[i0].p[0], dy = v[i].p[1] - v[i0].p[1];
        float d2 = dx * dx + dy * dy;
        if (i != i0 && d2 > best) { best = d2; i1 = i; }
    }
    int i2 = -1;
    float a2 = 0.0f;
    best = -1.0f;
    for (int i = 0; i < n; ++i) {
        if (i == i0 || i == i1) continue;
        float a = area2(&v[i0], &v[i1], &v[i]);
        if (fabsf(a) > best) { best = fabsf(a); a2 = a; i2 = i; }
    }
    /* Orient the triangle counter-clockwise; a point outside edge (p, q) adds -area2(p, q, x). */
    int t0 = i0, t1 = a2 >= 0.0f ? i1 : i2, t2 = a2 >= 0.0f ? i2 : i1;
    int i3 = -1;
    best = -FLT_MAX;
    for (int i = 0; i < n; ++i) {
        if (i == i0 || i == i1 || i == i2) continue;
        float g = -area2(&v[t0], &v[t1], &v[i]);
        float g1 = -area2(&v[t1], &v[t2], &v[i]), g2 = -area2(&v[t2], &v[t0], &v[i]);
        if (g1 > g) g = g1;
        if (g2 > g) g = g2;
        if (g > best) { best = g; i3 = i; }
    }
    int m = 0;
    for (int i = 0; i < n; ++i)
        if (i == i0 || i == i1 || i == i2 || i == i3) keep[m++] = i;
}

/* Face contact, in the reference box's frame. h: reference half extents; inc_c, inc_h: the
   incident box's centre and half extents; inc_axis[r][c]: component r of incident axis c. Writes
   up to 4 points (reference frame, on the incident surface), their gaps above the reference face
   and ids without the reference-box bit; returns their count and the side s of the face. */
static int face_points(const float h[3], const float inc_c[3], const float inc_h[3], const float inc_axis[3][3],
                       int k, float margin, float out_p[4][3], float out_gap[4], uint32_t out_id[4], float* out_s)
{
    const int k1 = k == 2 ? 0 : k + 1, k2 = k == 0 ? 2 : k - 1;
    const float s = inc_c[k] >= 0.0f ? 1.0f : -1.0f;
    *out_s = s;

    /* Incident face: the one whose normal is most anti-parallel to the reference normal s e_k. */
    int f = 0;
    float fa = fabsf(inc_axis[k][0]);
    if (fabsf(inc_axis[k][1]) > fa) { f = 1; fa = fabsf(inc_axis[k][1]); }
    if (fabsf(inc_axis[k][2]) > fa) f = 2;
    const float sigma = s * inc_axis[k][f] > 0.0f ? -1.0f : 1.0f;
    const int f1 = f == 2 ? 0 : f + 1, f2 = f == 0 ? 2 : f - 1;
    const uint32_t face_bits = (uint32_t)(2 * k + (s < 0.0f)) | (uint32_t)(2 * f + (sigma < 0.0f)) << 4;

    /* Corners c0..c3 = centre -u-v, +u-v, +u+v, -u+v, on the reference axes (k1, k2, k). */
    const int map[3] = { k1, k2, k };
    clip_vertex poly[8], tmp[8];
    for (int r = 0; r < 3; ++r) {
        int a = map[r];
        float fc = inc_c[a] + sigma * inc_h[f] * inc_axis[a][f];
        float u = inc_h[f1] * inc_axis[a][f1], v = inc_h[f2] * inc_axis[a][f2];
        poly[0].p[r] = fc - u - v;
        poly[1].p[r] = fc + u - v;
        poly[2].p[r] = fc + u + v;
        poly[3].p[r] = fc - u + v;
    }
    for (int c = 0; c < 4; ++c) { poly[c].code = (uint8_t)c; poly[c].edge = (uint8_t)c; }

    int n = clip_side(poly, 4, tmp, 0, 1.0f, h[k1], 0);
    if (n) n = clip_side(tmp, n, poly, 0, -1.0f, h[k1], 1);
    if (n) n = clip_side(poly, n, tmp, 1, 1.0f, h[k2], 2);
    if (n) n = clip_side(tmp, n, poly, 1, -1.0f, h[k2], 3);

    /* Keep the points at most `margin` above the reference face. */
    int m = 0;
    float gap[8];
    for (int i = 0; i < n; ++i) {
        float g = s * poly[i].p[2] - h[k];
        if (g <= margin) { tmp[m] = poly[i]; gap[m++] = g; }
    }
    int keep[4] = { 0, 1, 2, 3 };
    if (m > SPX_MAX_MANIFOLD_POINTS) {
        reduce_to_four(tmp, gap, m, keep);
        m = SPX_MAX_MANIFOLD_POINTS;
    }
    for (int i = 0; i < m; ++i) {
        const clip_vertex* v = &tmp[keep[i]];
        out_p[i][k1] = v->p[0];
        out_p[i][k2] = v->p[1];
        out_p[i][k] = v->p[2];
        out_gap[i] = gap[keep[i]];
        out_id[i] = face_bits | (uint32_t)v->code << 8;
    }
    return m;
}

static inline spx_vec3 to_world(spx_vec3 origin, const spx_mat3* rot, const float p[3])
{
    const spx_vec3* c = rot->col;
    spx_vec3 r = { origin.x + c[0].x * p[0] + c[1].x * p[1] + c[2].x * p[2],
                   origin.y + c[0].y * p[0] + c[1].y * p[1] + c[2].y * p[2],
                   origin.z + c[0].z * p[0] + c[1].z * p[1] + c[2].z * p[2] };
    return r;
}

static inline void set_empty(spx_manifold* out)
{
    out->normal = spx_v3(0.0f, 0.0f, 0.0f);
    out->point_count = 0;
}

SPX_API spx_result spx_manifold_obb_obb(const spx_obb* a, const spx_obb* b, float margin, spx_manifold* out)
{
    if (!a || !box_ok(a)) {
        spx_result r = spx_obb_validate(a);
        if (r != SPX_OK) return r;
    }
    if (!b || !box_ok(b)) {
        spx_result r = spx_obb_validate(b);
        if (r != SPX_OK) return r;
    }
    if (!isfinite(margin)) return SPX_ERR_NOT_FINITE;
    if (margin < 0.0f || !out) return SPX_ERR_INVALID_ARGUMENT;

    /* Everything in A's frame: R[i][j] = a_i . b_j (column j is B's axis j), t = B's centre. */
    const spx_vec3* ua = a->rotation.col;
    const spx_vec3* ub = b->rotation.col;
    const float ha[3] = { a->half_extents.x, a->half_extents.y, a->half_extents.z };
    const float hb[3] = { b->half_extents.x, b->half_extents.y, b->half_extents.z };
    const spx_vec3 d = { b->center.x - a->center.x, b->center.y - a->center.y, b->center.z - a->center.z };
    float R[3][3], AR[3][3], t[3];
    for (int i = 0; i < 3; ++i) {
        t[i] = d.x * ua[i].x + d.y * ua[i].y + d.z * ua[i].z;
        for (int j = 0; j < 3; ++j) {
            R[i][j] = ua[i].x * ub[j].x + ua[i].y * ub[j].y + ua[i].z * ub[j].z;
            AR[i][j] = fabsf(R[i][j]);
        }
    }

    /* Face axes of A, then of B (tb: A's centre as seen along B's axes, negated). */
    float sep_a = -FLT_MAX, sep_b = -FLT_MAX, tb[3];
    int face_a = 0, face_b = 0;
    for (int i = 0; i < 3; ++i) {
        float s = fabsf(t[i]) - (ha[i] + hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2]);
        if (s > sep_a) { sep_a = s; face_a = i; }
    }
    for (int j = 0; j < 3; ++j) {
        tb[j] = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
        float s = fabsf(tb[j]) - (hb[j] + ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j]);
        if (s > sep_b) { sep_b = s; face_b = j; }
    }

    /* Edge axes a_i x b_j, |a_i x b_j| = sin of the angle between the edges. */
    float sep_e = -FLT_MAX, len_e = 1.0f;
    int edge_i = -1, edge_j = 0;
    for (int i = 0; i < 3; ++i) {
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        for (int j = 0; j < 3; ++j) {
            const int j1 = j == 2 ? 0 : j + 1, j2 = j == 0 ? 2 : j - 1;
            float len2 = R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j];
            if (len2 < MANIFOLD_PARALLEL_SIN2) continue;
            float tn = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            float ra = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j];
            float rb = hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1];
            float len = sqrtf(len2);
            float s = (fabsf(tn) - (ra + rb)) / len;
            if (s > sep_e) { sep_e = s; len_e = len; edge_i = i; edge_j = j; }
        }
    }

    if (sep_a > margin || sep_b > margin || sep_e > margin) { set_empty(out); return SPX_OK; }

    const float slack = MANIFOLD_ABS_TOL * (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]);
    const bool ref_is_b = sep_b > sep_a + MANIFOLD_REL_TOL * fabsf(sep_a) + slack;
    const float sep_f = ref_is_b ? sep_b : sep_a;

    if (edge_i >= 0 && sep_e > sep_f + MANIFOLD_REL_TOL * fabsf(sep_f) + slack) {
        /* Edge contact, in A's frame: n = a_i x b_j, oriented from A to B. */
        const int i = edge_i, j = edge_j;
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        const int j1 = j == 2 ? 0 : j + 1, j2 = j == 0 ? 2 : j - 1;
        float n[3];
        n[i] = 0.0f;
        n[i1] = -R[i2][j] / len_e;
        n[i2] = R[i1][j] / len_e;
        if (n[i1] * t[i1] + n[i2] * t[i2] < 0.0f) { n[i1] = -n[i1]; n[i2] = -n[i2]; }
        /* A's edge: the one of the four along a_i that is farthest along n. */
        float pa[3];
        pa[i] = 0.0f;
        pa[i1] = n[i1] > 0.0f ? ha[i1] : -ha[i1];
        pa[i2] = n[i2] > 0.0f ? ha[i2] : -ha[i2];
        /* B's edge: the one along b_j that is farthest along -n. */
        float nb1 = n[0] * R[0][j1] + n[1] * R[1][j1] + n[2] * R[2][j1];
        float nb2 = n[0] * R[0][j2] + n[1] * R[1][j2] + n[2] * R[2][j2];
        float sb1 = nb1 < 0.0f ? hb[j1] : -hb[j1], sb2 = nb2 < 0.0f ? hb[j2] : -hb[j2];
        float pb[3], w[3];
        for (int r = 0; r < 3; ++r) {
            pb[r] = t[r] + sb1 * R[r][j1] + sb2 * R[r][j2];
            w[r] = pa[r] - pb[r];
        }
        /* Closest points pa + u a_i and pb + v b_j of the two lines (Ericson 5.1.8), clamped to
           the edges; the denominator is sin^2 of their angle, above MANIFOLD_PARALLEL_SIN2. */
        float c = R[i][j], d1 = w[i], d2 = w[0] * R[0][j] + w[1] * R[1][j] + w[2] * R[2][j];
        float den = 1.0f - c * c;
        float u = (c * d2 - d1) / den, v = (d2 - c * d1) / den;
        u = fminf(fmaxf(u, -ha[i]), ha[i]);
        v = fminf(fmaxf(v, -hb[j]), hb[j]);
        float mid[3];
        for (int r = 0; r < 3; ++r) mid[r] = 0.5f * (pa[r] + pb[r] + v * R[r][j]);
        mid[i] += 0.5f * u;
        spx_vec3 zero = { 0.0f, 0.0f, 0.0f };
        out->normal = to_world(zero, &a->rotation, n);
        out->point_count = 1;
        out->points[0].point = to_world(a->center, &a->rotation, mid);
        out->points[0].depth = -sep_e;
        out->points[0].id = MANIFOLD_EDGE_BIT | (uint32_t)i | (uint32_t)(pa[i1] > 0.0f) << 2
                          | (uint32_t)(pa[i2] > 0.0f) << 3 | (uint32_t)j << 4 | (uint32_t)(sb1 > 0.0f) << 6
                          | (uint32_t)(sb2 > 0.0f) << 7;
        return SPX_OK;
    }

    /* Face contact: describe the incident box in the reference box's frame. */
    float inc_c[3], inc_axis[3][3], p[4][3], gap[4], s;
    uint32_t id[4];
    const float* h;
    const float* inc_h;
    int k;
    const spx_obb* ref;
    if (!ref_is_b) {
        ref = a; h = ha; inc_h = hb; k = face_a;
        for (int r = 0; r < 3; ++r) {
            inc_c[r] = t[r];
            for (int c = 0; c < 3; ++c) inc_axis[r][c] = R[r][c];
        }
    } else {
        ref = b; h = hb; inc_h = ha; k = face_b;
        for (int r = 0; r < 3; ++r) {
            inc_c[r] = -tb[r];
            for (int c = 0; c < 3; ++c) inc_axis[r][c] = R[c][r];
        }
    }
    int m = face_points(h, inc_c, inc_h, (const float(*)[3])inc_axis, k, margin, p, gap, id, &s);
    /* The reference normal s * ref_k points towards the incident box; A to B flips it for B. */
    const float ns = ref_is_b ? -s : s;
    const spx_vec3 axis = ref->rotation.col[k];
    out->normal = spx_v3(ns * axis.x, ns * axis.y, ns * axis.z);
    out->point_count = m;
    for (int i = 0; i < m; ++i) {
        p[i][k] -= 0.5f * s * gap[i]; /* halfway down to the reference face */
        out->points[i].point = to_world(ref->center, &ref->rotation, p[i]);
        out->points[i].depth = -gap[i];
        out->points[i].id = id[i] | (ref_is_b ? 8u : 0u);
    }
    return SPX_OK;
}
