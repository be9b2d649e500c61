/* Box against box: static overlap, minimum translation, and the swept test with time, normal and
 * point. Work happens in A's frame, where A's axes are the unit vectors and B's are the columns of
 * R = A^T B (Eberly, "Dynamic Collision Detection using Oriented Bounding Boxes"). */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "sat_axes.h"
#include "box_features.h"

typedef struct box_pair {
    double r[3][3];     /* r[i][j] = a_i . b_j; column j is B's axis j in A's frame */
    double t[3];        /* B's centre relative to A's, in A's frame */
    double u[3];        /* B's velocity relative to A's, in A's frame */
    double ha[3], hb[3];
} box_pair;

static void box_pair_make(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, box_pair* p)
{
    spx_dvec3 ax[3], bx[3];
    for (int i = 0; i < 3; ++i) {
        ax[i] = spx_d3_from(a->rotation.col[i]);
        bx[i] = spx_d3_from(b->rotation.col[i]);
    }
    spx_dvec3 d = spx_d3_sub(spx_d3_from(b->center), spx_d3_from(a->center));
    spx_dvec3 w = spx_d3_sub(spx_d3_from(vb), spx_d3_from(va));
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) p->r[i][j] = spx_d3_dot(ax[i], bx[j]);
        p->t[i] = spx_d3_dot(ax[i], d);
        p->u[i] = spx_d3_dot(ax[i], w);
    }
    p->ha[0] = a->half_extents.x; p->ha[1] = a->half_extents.y; p->ha[2] = a->half_extents.z;
    p->hb[0] = b->half_extents.x; p->hb[1] = b->half_extents.y; p->hb[2] = b->half_extents.z;
}

static spx_dvec3 column(const box_pair* p, int j) { return spx_d3(p->r[0][j], p->r[1][j], p->r[2][j]); }

/* e_i x column j of R, in A's frame. */
static spx_dvec3 edge_axis(const box_pair* p, int i, int j)
{
    double x = p->r[0][j], y = p->r[1][j], z = p->r[2][j];
    return i == 0 ? spx_d3(0, -z, y) : (i == 1 ? spx_d3(z, 0, -x) : spx_d3(-y, x, 0));
}

/* Unnormalised direction of axis `index`, in A's frame. */
static spx_dvec3 box_pair_axis(const box_pair* p, int index)
{
    if (index < 3) return spx_d3(index == 0, index == 1, index == 2);
    if (index < 6) return column(p, index - 3);
    return edge_axis(p, (index - 6) / 3, (index - 6) % 3);
}

/* Edge i of A x edge j of B, with i1, i2 and j1, j2 the other two indices in cyclic order. Every
 * projection is taken on the same L = e_i x b_j, including B's radius: b_k . L is the minor of R
 * (r[i1][j] r[i2][k] - r[i2][j] r[i1][k]), exact enough in double to keep the direction of nearly
 * parallel edges, where the usual identity with a single entry of R would only be as good as B's
 * orthonormality. */
static inline bool box_pair_edge(const box_pair* p, spx_sat* s, int i, int j)
{
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    /* L = e_i x c_j has components L[i1] = -c_j[i2], L[i2] = c_j[i1] (and L[i] = 0). */
    const double l1 = -p->r[i2][j], l2 = p->r[i1][j];
    const double len2 = l1 * l1 + l2 * l2;
    if (!spx_edge_axis_usable(len2, 1.0, 1.0)) return true;
    const double ra = p->ha[i1] * fabs(l1) + p->ha[i2] * fabs(l2);
    const double rb = p->hb[j1] * fabs(p->r[i1][j1] * l1 + p->r[i2][j1] * l2)
                    + p->hb[j2] * fabs(p->r[i1][j2] * l1 + p->r[i2][j2] * l2);
    const double d = p->t[i1] * l1 + p->t[i2] * l2;
    const double w = p->u[i1] * l1 + p->u[i2] * l2;
    return spx_sat_axis_test(s, 6 + 3 * i + j, SPX_AXIS_EDGE, len2, d - rb - ra, -ra - d - rb, w);
}

/* All 15 axes through the interval logic; false as soon as one separates for the whole interval.
 * Faces first: they separate most pairs that miss, and win ties for the normal. */
static bool box_pair_sat(const box_pair* p, double tmax, spx_sat* s, bool track_depth)
{
    double ar[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) ar[i][j] = fabs(p->r[i][j]);
    double size = 0;
    for (int i = 0; i < 3; ++i) size = size > p->ha[i] ? size : p->ha[i], size = size > p->hb[i] ? size : p->hb[i];
    spx_sat_init(s, tmax, size, track_depth);
    for (int i = 0; i < 3; ++i) { /* faces of A */
        double rb = p->hb[0] * ar[i][0] + p->hb[1] * ar[i][1] + p->hb[2] * ar[i][2];
        if (!spx_sat_axis_test(s, i, SPX_AXIS_FACE, 1.0, p->t[i] - rb - p->ha[i], -p->ha[i] - p->t[i] - rb, p->u[i]))
            return false;
    }
    for (int j = 0; j < 3; ++j) { /* faces of B */
        double ra = p->ha[0] * ar[0][j] + p->ha[1] * ar[1][j] + p->ha[2] * ar[2][j];
        double c = p->t[0] * p->r[0][j] + p->t[1] * p->r[1][j] + p->t[2] * p->r[2][j];
        double w = p->u[0] * p->r[0][j] + p->u[1] * p->r[1][j] + p->u[2] * p->r[2][j];
        if (!spx_sat_axis_test(s, 3 + j, SPX_AXIS_FACE, 1.0, c - p->hb[j] - ra, -ra - c - p->hb[j], w)) return false;
    }
    if (!box_pair_edge(p, s, 0, 0) || !box_pair_edge(p, s, 0, 1) || !box_pair_edge(p, s, 0, 2)
        || !box_pair_edge(p, s, 1, 0) || !box_pair_edge(p, s, 1, 1) || !box_pair_edge(p, s, 1, 2)
        || !box_pair_edge(p, s, 2, 0) || !box_pair_edge(p, s, 2, 1) || !box_pair_edge(p, s, 2, 2))
        return false;
    return spx_sat_touches(s);
}

/* Contact point and features at time tc along unit normal n (A's frame), written in world space. */
static void box_pair_contact(const spx_obb* a, spx_vec3 va, const box_pair* p, const spx_sat_axis* axis, double tc,
                             spx_dvec3 n, spx_sweep_hit* out)
{
    static const spx_dvec3 unit[3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    spx_dvec3 bx[3] = { column(p, 0), column(p, 1), column(p, 2) };
    unsigned flat_a = 0, flat_b = 0;
    if (axis->index < 3) flat_a = 7u & ~(1u << axis->index);
    else if (axis->index < 6) flat_b = 7u & ~(1u << (axis->index - 3));
    else {
        flat_a = 1u << ((axis->index - 6) / 3);
        flat_b = 1u << ((axis->index - 6) % 3);
    }
    spx_feature fa, fb;
    spx_dvec3 cb = spx_d3(p->t[0] + p->u[0] * tc, p->t[1] + p->u[1] * tc, p->t[2] + p->u[2] * tc);
    out->feature_a = spx_box_feature(spx_d3(0, 0, 0), unit, p->ha, n, flat_a, &fa);
    out->feature_b = spx_box_feature(cb, bx, p->hb, spx_d3_neg(n), flat_b, &fb);
    spx_dvec3 q = spx_contact_point(&fa, &fb, n);

    /* Back to world: A's centre at tc plus A's axes times the local point. */
    spx_dvec3 origin = spx_d3_mad(spx_d3_from(a->center), spx_d3_from(va), tc);
    spx_dvec3 world = origin, normal = spx_d3(0, 0, 0);
    for (int i = 0; i < 3; ++i) {
        spx_dvec3 ai = spx_d3_from(a->rotation.col[i]);
        world = spx_d3_mad(world, ai, (&q.x)[i]);
        normal = spx_d3_mad(normal, ai, (&n.x)[i]);
    }
    normal = spx_d3_scale(normal, 1.0 / sqrt(spx_d3_len2(normal)));
    out->point = spx_d3_to_float(world);
    out->normal = spx_d3_to_float(normal);
}

static spx_result check_pair(const spx_obb* a, const spx_obb* b)
{
    spx_result r = spx_obb_validate(a);
    return r != SPX_OK ? r : spx_obb_validate(b);
}

SPX_API spx_result spx_sweep_obb_obb(const spx_obb* a, spx_vec3 velocity_a, const spx_obb* b, spx_vec3 velocity_b,
                                     float tmax, spx_sweep_hit* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_pair(a, b);
    if (r == SPX_OK) r = spx_check_motion(velocity_a, velocity_b, tmax);
    if (r != SPX_OK) return r;

    box_pair p;
    box_pair_make(a, velocity_a, b, velocity_b, &p);
    spx_sat s;
    spx_sweep_hit hit = { 0 };
    hit.axis = -1;
    if (!box_pair_sat(&p, tmax, &s, false)) {
        *out = hit;
        return SPX_OK;
    }
    if (!s.separated_at_start) box_pair_sat(&p, tmax, &s, true); /* overlapping at t = 0: find the least-overlap axis */
    double tc;
    const spx_sat_axis* axis = spx_sat_fill_hit(&s, &hit, &tc);
    box_pair_contact(a, velocity_a, &p, axis, tc, spx_sat_unit(axis, box_pair_axis(&p, axis->index)), &hit);
    *out = hit;
    return SPX_OK;
}

SPX_API spx_result spx_penetration_obb_obb(const spx_obb* a, const spx_obb* b, spx_penetration* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_pair(a, b);
    if (r != SPX_OK) return r;
    box_pair p;
    spx_vec3 zero = { 0, 0, 0 };
    box_pair_make(a, zero, b, zero, &p);
    spx_sat s;
    spx_penetration pen = { 0 };
    pen.axis = -1;
    if (box_pair_sat(&p, 0.0, &s, true) && !s.separated_at_start) {
        const spx_sat_axis* axis = spx_sat_least_axis(&s);
        spx_dvec3 n = spx_sat_unit(axis, box_pair_axis(&p, axis->index)), w = spx_d3(0, 0, 0);
        for (int i = 0; i < 3; ++i) w = spx_d3_mad(w, spx_d3_from(a->rotation.col[i]), (&n.x)[i]);
        pen.overlapping = true;
        pen.normal = spx_d3_to_float(spx_d3_scale(w, 1.0 / sqrt(spx_d3_len2(w))));
        pen.depth = (float)spx_sat_depth(axis);
        pen.axis = axis->index;
    }
    *out = pen;
    return SPX_OK;
}
