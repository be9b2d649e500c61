/* Swept bounding-box tests for the tree descent: can they touch in [0, bound], and from when at the earliest. They
 * never miss what the leaves would find: grown boxes, |R| + SPX_BOUND_EPS on edge axes (float axes are orthonormal to
 * ~1e-7), a zero axis reads as overlapping, times are lower bounds. See docs/meshes.md#continuous-queries. */
#ifndef SPX_SWEEP_BOUND_H
#define SPX_SWEEP_BOUND_H

#include "geometry/mesh_instance.h"
#include "math/dvec3.h"
#include "sat_axes.h"

/* Added to |R| where a radius leans on orthonormal axes: node axes are orthonormal to ~1e-7; a query box may be off
   by SPX_ROTATION_TOLERANCE. */
#define SPX_BOUND_EPS 1e-6
#define SPX_BOUND_EPS_QUERY (4.0 * SPX_ROTATION_TOLERANCE)

/* Times as fractions num/den (den > 0) compared by cross-multiplying: one division at the end. */
typedef struct spx_bound {
    double enter_num, enter_den;
    double exit_num, exit_den; /* starts at the bound */
} spx_bound;

static inline void spx_bound_init(spx_bound* s, double bound)
{
    s->enter_num = 0.0, s->enter_den = 1.0;
    s->exit_num = bound, s->exit_den = 1.0;
}

/* One axis: gp = b_lo - a_hi (> 0: B ahead), gn = a_lo - b_hi (> 0: B behind), w = B's relative speed. False when it
   keeps them apart throughout. */
static inline bool spx_bound_axis(spx_bound* s, double gp, double gn, double w)
{
    double enter, exit, speed;
    if (gp > 0.0) {
        if (!(w < 0.0)) return false;
        enter = gp, exit = -gn, speed = -w;
    } else if (gn > 0.0) {
        if (!(w > 0.0)) return false;
        enter = gn, exit = -gp, speed = w;
    } else {
        if (w > 0.0) exit = -gp, speed = w;
        else if (w < 0.0) exit = -gn, speed = -w;
        else return true;
        if (exit * s->exit_den < s->exit_num * speed) s->exit_num = exit, s->exit_den = speed;
        return s->enter_num * s->exit_den <= s->exit_num * s->enter_den * SPX_SAT_TIME_SLACK;
    }
    if (enter * s->enter_den > s->enter_num * speed) s->enter_num = enter, s->enter_den = speed;
    if (exit * s->exit_den < s->exit_num * speed) s->exit_num = exit, s->exit_den = speed;
    /* As sat_axes.h: a flat contact's entry may round past its exit. */
    return s->enter_num * s->exit_den <= s->exit_num * s->enter_den * SPX_SAT_TIME_SLACK;
}

static inline double spx_bound_entry(const spx_bound* s) { return s->enter_num / s->enter_den; }

/* Two world boxes, B moving at u relative to A: can they touch in [0, bound]? *entry: the latest entry over 15 axes
   (0 if overlapping at t = 0). eps: SPX_BOUND_EPS or _QUERY. */
static inline bool spx_bound_box_box_eps(const spx_world_box* a, const spx_world_box* b, const double u[3],
                                         double bound, double eps, double* entry)
{
    double R[3][3], AR[3][3], t[3], w[3], ha[3], hb[3];
    double d[3] = { (double)b->center[0] - a->center[0], (double)b->center[1] - a->center[1],
                    (double)b->center[2] - a->center[2] };
    for (int i = 0; i < 3; ++i) {
        ha[i] = a->half[i], hb[i] = b->half[i];
        const double ai[3] = { a->axis[i][0], a->axis[i][1], a->axis[i][2] };
        t[i] = ai[0] * d[0] + ai[1] * d[1] + ai[2] * d[2];
        w[i] = ai[0] * u[0] + ai[1] * u[1] + ai[2] * u[2];
        for (int j = 0; j < 3; ++j) {
            R[i][j] = ai[0] * b->axis[j][0] + ai[1] * b->axis[j][1] + ai[2] * b->axis[j][2];
            AR[i][j] = fabs(R[i][j]) + eps;
        }
    }
    spx_bound s;
    spx_bound_init(&s, bound);
    for (int i = 0; i < 3; ++i) {
        double r = ha[i] + hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2];
        if (!spx_bound_axis(&s, t[i] - r, -t[i] - r, w[i])) return false;
    }
    /* B's faces, projected in world space: through A's frame would assume A's float axes orthonormal, an error
       growing with distance. */
    for (int j = 0; j < 3; ++j) {
        const double bj[3] = { b->axis[j][0], b->axis[j][1], b->axis[j][2] };
        double r = ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j] + hb[j];
        double tj = bj[0] * d[0] + bj[1] * d[1] + bj[2] * d[2];
        double wj = bj[0] * u[0] + bj[1] * u[1] + bj[2] * u[2];
        if (!spx_bound_axis(&s, tj - r, -tj - r, wj)) return false;
    }
    /* a_i x b_j in A's frame: components (i+1, i+2) are (-R[i+2][j], R[i+1][j]). */
    for (int i = 0; i < 3; ++i) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            double ra = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j];
            double rb = hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1];
            double tl = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            double wl = w[i2] * R[i1][j] - w[i1] * R[i2][j];
            double r = ra + rb;
            if (!spx_bound_axis(&s, tl - r, -tl - r, wl)) return false;
        }
    }
    *entry = spx_bound_entry(&s);
    return true;
}

/* Two world boxes at rest: spx_bound_box_box_eps with u = 0, the same bits, without speeds: a third of the cost where
   a descent visits every node of a sunk mesh. `edges` false tries the face axes only, erring further towards
   touching. */
static inline bool spx_overlap_box_box_axes(const spx_world_box* a, const spx_world_box* b, double eps, bool edges)
{
    double R[3][3], AR[3][3], t[3];
    const double ha[3] = { a->half[0], a->half[1], a->half[2] }, hb[3] = { b->half[0], b->half[1], b->half[2] };
    const double d[3] = { (double)b->center[0] - a->center[0], (double)b->center[1] - a->center[1],
                          (double)b->center[2] - a->center[2] };
    for (int i = 0; i < 3; ++i) {
        const double ai[3] = { a->axis[i][0], a->axis[i][1], a->axis[i][2] };
        t[i] = ai[0] * d[0] + ai[1] * d[1] + ai[2] * d[2];
        for (int j = 0; j < 3; ++j) {
            R[i][j] = ai[0] * b->axis[j][0] + ai[1] * b->axis[j][1] + ai[2] * b->axis[j][2];
            AR[i][j] = fabs(R[i][j]) + eps;
        }
        const double r = ha[i] + hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2];
        if (t[i] - r > 0.0 || -t[i] - r > 0.0) return false;
    }
    for (int j = 0; j < 3; ++j) {
        const double bj[3] = { b->axis[j][0], b->axis[j][1], b->axis[j][2] };
        const double r = ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j] + hb[j];
        const double tj = bj[0] * d[0] + bj[1] * d[1] + bj[2] * d[2];
        if (tj - r > 0.0 || -tj - r > 0.0) return false;
    }
    if (!edges) return true;
    for (int i = 0; i < 3; ++i) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const double ra = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j];
            const double rb = hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1];
            const double tl = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            const double r = ra + rb;
            if (tl - r > 0.0 || -tl - r > 0.0) return false;
        }
    }
    return true;
}

static inline bool spx_overlap_box_box_eps(const spx_world_box* a, const spx_world_box* b, double eps)
{
    return spx_overlap_box_box_axes(a, b, eps, true);
}

/* Inner nodes' pruning test, face axes only: a kept pair costs one more level, cheaper than nine edge axes over
   meshes lying on or in each other. */
static inline bool spx_overlap_box_box_faces(const spx_world_box* a, const spx_world_box* b, double eps)
{
    return spx_overlap_box_box_axes(a, b, eps, false);
}

/* A world box (A) and a triangle (B) moving at u relative to it: can they touch in [0, bound]? 13 axes in the box's
   frame; *entry as spx_bound_box_box_eps. */
static inline bool spx_bound_box_triangle(const spx_world_box* a, const spx_triangle* tri, const double u[3],
                                          double bound, double* entry)
{
    spx_dvec3 p[3], e[3];
    const spx_dvec3 ax[3] = { spx_d3(a->axis[0][0], a->axis[0][1], a->axis[0][2]),
                              spx_d3(a->axis[1][0], a->axis[1][1], a->axis[1][2]),
                              spx_d3(a->axis[2][0], a->axis[2][1], a->axis[2][2]) };
    const spx_dvec3 c = spx_d3(a->center[0], a->center[1], a->center[2]);
    for (int k = 0; k < 3; ++k) {
        spx_dvec3 q = spx_d3_sub(spx_d3_from(tri->v[k]), c);
        p[k] = spx_d3(spx_d3_dot(ax[0], q), spx_d3_dot(ax[1], q), spx_d3_dot(ax[2], q));
    }
    const spx_dvec3 uu = spx_d3(u[0], u[1], u[2]);
    const spx_dvec3 wv = spx_d3(spx_d3_dot(ax[0], uu), spx_d3_dot(ax[1], uu), spx_d3_dot(ax[2], uu));
    const double h[3] = { a->half[0], a->half[1], a->half[2] };
    spx_bound s;
    spx_bound_init(&s, bound);
    const double* pc[3] = { &p[0].x, &p[1].x, &p[2].x };
    const double* wc = &wv.x;
    for (int i = 0; i < 3; ++i) {
        double lo = spx_dmin(pc[0][i], spx_dmin(pc[1][i], pc[2][i]));
        double hi = spx_dmax(pc[0][i], spx_dmax(pc[1][i], pc[2][i]));
        if (!spx_bound_axis(&s, lo - h[i], -h[i] - hi, wc[i])) return false;
    }
    for (int j = 0; j < 3; ++j) e[j] = spx_d3_sub(p[(j + 1) % 3], p[j]);
    /* zero for a segment-like triangle, which reads as overlapping */
    spx_dvec3 n = spx_d3_cross(e[0], e[1]);
    {
        double r = h[0] * fabs(n.x) + h[1] * fabs(n.y) + h[2] * fabs(n.z);
        double d = spx_d3_dot(p[0], n);
        if (!spx_bound_axis(&s, d - r, -r - d, spx_d3_dot(wv, n))) return false;
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            spx_dvec3 f = e[j];
            spx_dvec3 l = i == 0 ? spx_d3(0, -f.z, f.y) : (i == 1 ? spx_d3(f.z, 0, -f.x) : spx_d3(-f.y, f.x, 0));
            double r = h[0] * fabs(l.x) + h[1] * fabs(l.y) + h[2] * fabs(l.z);
            double a0 = spx_d3_dot(p[0], l), a1 = spx_d3_dot(p[1], l), a2 = spx_d3_dot(p[2], l);
            double lo = spx_dmin(a0, spx_dmin(a1, a2)), hi = spx_dmax(a0, spx_dmax(a1, a2));
            if (!spx_bound_axis(&s, lo - r, -r - hi, spx_d3_dot(wv, l))) return false;
        }
    }
    *entry = spx_bound_entry(&s);
    return true;
}

/* A world box and a triangle at rest: the 13 axes with no speed, without the entry time. */
static inline bool spx_overlap_box_triangle(const spx_world_box* a, const spx_triangle* tri)
{
    spx_dvec3 p[3], e[3];
    const spx_dvec3 ax[3] = { spx_d3(a->axis[0][0], a->axis[0][1], a->axis[0][2]),
                              spx_d3(a->axis[1][0], a->axis[1][1], a->axis[1][2]),
                              spx_d3(a->axis[2][0], a->axis[2][1], a->axis[2][2]) };
    const spx_dvec3 c = spx_d3(a->center[0], a->center[1], a->center[2]);
    const double h[3] = { a->half[0], a->half[1], a->half[2] };
    for (int k = 0; k < 3; ++k) {
        const spx_dvec3 q = spx_d3_sub(spx_d3_from(tri->v[k]), c);
        p[k] = spx_d3(spx_d3_dot(ax[0], q), spx_d3_dot(ax[1], q), spx_d3_dot(ax[2], q));
    }
    const double* pc[3] = { &p[0].x, &p[1].x, &p[2].x };
    for (int i = 0; i < 3; ++i) {
        const double lo = spx_dmin(pc[0][i], spx_dmin(pc[1][i], pc[2][i]));
        const double hi = spx_dmax(pc[0][i], spx_dmax(pc[1][i], pc[2][i]));
        if (lo - h[i] > 0.0 || -h[i] - hi > 0.0) return false;
    }
    for (int j = 0; j < 3; ++j) e[j] = spx_d3_sub(p[(j + 1) % 3], p[j]);
    const spx_dvec3 n = spx_d3_cross(e[0], e[1]);
    const double rn = h[0] * fabs(n.x) + h[1] * fabs(n.y) + h[2] * fabs(n.z);
    const double dn = spx_d3_dot(p[0], n);
    if (dn - rn > 0.0 || -rn - dn > 0.0) return false;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            const spx_dvec3 f = e[j];
            const spx_dvec3 l = i == 0 ? spx_d3(0, -f.z, f.y) : (i == 1 ? spx_d3(f.z, 0, -f.x) : spx_d3(-f.y, f.x, 0));
            const double r = h[0] * fabs(l.x) + h[1] * fabs(l.y) + h[2] * fabs(l.z);
            const double a0 = spx_d3_dot(p[0], l), a1 = spx_d3_dot(p[1], l), a2 = spx_d3_dot(p[2], l);
            const double lo = spx_dmin(a0, spx_dmin(a1, a2)), hi = spx_dmax(a0, spx_dmax(a1, a2));
            if (lo - r > 0.0 || -r - hi > 0.0) return false;
        }
    }
    return true;
}

#endif
