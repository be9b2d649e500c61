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

/* All 15 axes through the interval logic; false as soon as one separates for the whole interval. */
static bool box_pair_sat(const box_pair* p, double tmax, spx_sat* s)
{
    double size = 0;
    for (int i = 0; i < 3; ++i) size = fmax(size, fmax(p->ha[i], p->hb[i]));
    spx_sat_init(s, tmax, size);
    spx_dvec3 tv = spx_d3(p->t[0], p->t[1], p->t[2]), uv = spx_d3(p->u[0], p->u[1], p->u[2]);

    for (int i = 0; i < 3; ++i) { /* faces of A */
        double rb = p->hb[0] * fabs(p->r[i][0]) + p->hb[1] * fabs(p->r[i][1]) + p->hb[2] * fabs(p->r[i][2]);
        spx_dvec3 dir = spx_d3(i == 0, i == 1, i == 2);
        if (!spx_sat_axis_test(s, i, SPX_AXIS_FACE, dir, 1.0, p->t[i] - rb - p->ha[i], -p->ha[i] - p->t[i] - rb,
                               p->u[i]))
            return false;
    }
    for (int j = 0; j < 3; ++j) { /* faces of B */
        spx_dvec3 dir = column(p, j);
        double ra = p->ha[0] * fabs(p->r[0][j]) + p->ha[1] * fabs(p->r[1][j]) + p->ha[2] * fabs(p->r[2][j]);
        double c = spx_d3_dot(tv, dir);
        if (!spx_sat_axis_test(s, 3 + j, SPX_AXIS_FACE, dir, 1.0, c - p->hb[j] - ra, -ra - c - p->hb[j],
                               spx_d3_dot(uv, dir)))
            return false;
    }
    for (int i = 0; i < 3; ++i) { /* edge of A x edge of B */
        for (int j = 0; j < 3; ++j) {
            spx_dvec3 c = column(p, j);
            spx_dvec3 l = i == 0 ? spx_d3(0, -c.z, c.y) : (i == 1 ? spx_d3(c.z, 0, -c.x) : spx_d3(-c.y, c.x, 0));
            double len2 = spx_d3_len2(l);
            if (!spx_edge_axis_usable(len2, 1.0, 1.0)) continue;
            double ra = p->ha[0] * fabs(l.x) + p->ha[1] * fabs(l.y) + p->ha[2] * fabs(l.z);
            double rb = 0;
            for (int k = 0; k < 3; ++k)
                if (k != j) rb += p->hb[k] * fabs(spx_d3_dot(column(p, k), l));
            double d = spx_d3_dot(tv, l);
            if (!spx_sat_axis_test(s, 6 + 3 * i + j, SPX_AXIS_EDGE, l, len2, d - rb - ra, -ra - d - rb,
                                   spx_d3_dot(uv, l)))
                return false;
        }
    }
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
    if (!box_pair_sat(&p, tmax, &s)) {
        *out = hit;
        return SPX_OK;
    }
    double tc;
    const spx_sat_axis* axis = spx_sat_fill_hit(&s, &hit, &tc);
    box_pair_contact(a, velocity_a, &p, axis, tc, spx_sat_unit(axis), &hit);
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
    if (box_pair_sat(&p, 0.0, &s) && !s.separated_at_start) {
        const spx_sat_axis* axis = spx_sat_least_axis(&s);
        spx_dvec3 n = spx_sat_unit(axis), w = spx_d3(0, 0, 0);
        for (int i = 0; i < 3; ++i) w = spx_d3_mad(w, spx_d3_from(a->rotation.col[i]), (&n.x)[i]);
        pen.overlapping = true;
        pen.normal = spx_d3_to_float(spx_d3_scale(w, 1.0 / sqrt(spx_d3_len2(w))));
        pen.depth = (float)spx_sat_depth(axis);
        pen.axis = axis->index;
    }
    *out = pen;
    return SPX_OK;
}
