/* A line against a grown core (the hull of its convex pieces' intervals: vertex balls, edge cylinders, face plates or
 * prisms), and the first time two cores come within a distance. See docs/collision.md#spheres-and-capsules. */
#include "round_core.h"
#include "sat_axes.h"

/* Clips [*lo, *hi] to A t^2 + 2 B t + C <= 0 (A >= 0; B = 0 where A = 0), roots in the non-cancelling form. */
static bool clip_quadratic(double A, double B, double C, double* lo, double* hi)
{
    if (A == 0.0) return C <= 0.0;
    double disc = B * B - A * C;
    if (disc < 0.0) return false;
    double s = sqrt(disc), t0, t1;
    if (B > 0.0) {
        t0 = (-B - s) / A;
        t1 = C / (-B - s);
    } else if (B < 0.0) {
        t0 = C / (-B + s);
        t1 = (-B + s) / A;
    } else {
        t0 = -s / A;
        t1 = s / A;
    }
    *lo = spx_dmax(*lo, t0);
    *hi = spx_dmin(*hi, t1);
    return *lo <= *hi;
}

static bool ball(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c, double r, double* lo, double* hi)
{
    spx_dvec3 q = spx_d3_sub(o, c);
    return clip_quadratic(spx_d3_len2(d), spx_d3_dot(q, d), spx_d3_len2(q) - r * r, lo, hi);
}

/* The solid cylinder of radius r about c0-c1; its caps lie inside the end balls, tested anyway. */
static bool cylinder(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c0, spx_dvec3 c1, double r, double* lo, double* hi)
{
    spx_dvec3 e = spx_d3_sub(c1, c0), q = spx_d3_sub(o, c0);
    double ee = spx_d3_len2(e);
    if (ee == 0.0) return false;
    if (!round_clip_slab(q, d, e, 0.0, ee, lo, hi)) return false;
    spx_dvec3 Q = spx_d3_cross(q, e), D = spx_d3_cross(d, e);
    return clip_quadratic(spx_d3_len2(D), spx_d3_dot(Q, D), spx_d3_len2(Q) - r * r * ee, lo, hi);
}

static bool box_plate(const round_core* c, int grown, spx_dvec3 o, spx_dvec3 d, double r, double* lo, double* hi)
{
    spx_dvec3 q = spx_d3_sub(o, c->center);
    for (int i = 0; i < 3; ++i) {
        double w = c->h[i] + (i == grown ? r : 0.0);
        if (!round_clip_slab(q, d, c->axis[i], -w, w, lo, hi)) return false;
    }
    return true;
}

static bool triangle_prism(const round_core* c, spx_dvec3 o, spx_dvec3 d, double r, double* lo, double* hi)
{
    double h = spx_d3_dot(c->v[0], c->normal);
    if (!round_clip_slab(o, d, c->normal, h - r, h + r, lo, hi)) return false;
    for (int j = 0; j < 3; ++j) {
        spx_dvec3 inward = spx_d3_cross(c->normal, spx_d3_sub(c->v[(j + 1) % 3], c->v[j]));
        if (!round_clip_slab(o, d, inward, spx_d3_dot(c->v[j], inward), INFINITY, lo, hi)) return false;
    }
    return true;
}

typedef struct hull {
    double lo, hi;
    double t0, t1; /* hull of the pieces' intervals so far; t0 > t1 while empty */
} hull;

static void take(hull* h, bool inside, const double* lo, const double* hi)
{
    if (!inside) return;
    h->t0 = spx_dmin(h->t0, *lo);
    h->t1 = spx_dmax(h->t1, *hi);
}

bool round_line_interval(const round_core* c, double radius, spx_dvec3 o, spx_dvec3 d, double lo, double hi, double* t0,
                         double* t1)
{
    /* Every piece lies in the box grown by radius (and 1e-6 of its size for rounded axes) or within radius of the
       triangle's plane: missing that misses all. */
    if (c->kind == ROUND_BOX) {
        double a = lo, b = hi, slack = radius + 1e-6 * c->size;
        spx_dvec3 q = spx_d3_sub(o, c->center);
        for (int i = 0; i < 3; ++i)
            if (!round_clip_slab(q, d, c->axis[i], -c->h[i] - slack, c->h[i] + slack, &a, &b)) return false;
    } else if (c->kind == ROUND_TRIANGLE && spx_d3_len2(c->normal) > 0.0) {
        double a = lo, b = hi, h0 = spx_d3_dot(c->v[0], c->normal);
        if (!round_clip_slab(o, d, c->normal, h0 - radius, h0 + radius, &a, &b)) return false;
    }
    hull h = { lo, hi, INFINITY, -INFINITY };
    for (int i = 0; i < c->vertex_count; ++i) {
        double a = lo, b = hi;
        take(&h, ball(o, d, c->v[i], radius, &a, &b), &a, &b);
    }
    int edges[12][2];
    int count = round_core_edges(c, edges);
    for (int e = 0; e < count; ++e) {
        double a = lo, b = hi;
        take(&h, cylinder(o, d, c->v[edges[e][0]], c->v[edges[e][1]], radius, &a, &b), &a, &b);
    }
    if (c->kind == ROUND_BOX) {
        for (int i = 0; i < 3; ++i) {
            double a = lo, b = hi;
            take(&h, box_plate(c, i, o, d, radius, &a, &b), &a, &b);
        }
    } else if (c->kind == ROUND_TRIANGLE && spx_d3_len2(c->normal) > 0.0) {
        double a = lo, b = hi;
        take(&h, triangle_prism(c, o, d, radius, &a, &b), &a, &b);
    }
    *t0 = h.t0;
    *t1 = h.t1;
    return h.t0 <= h.t1;
}

/* Segment a0 + s ua against w + u ub (w = w0 + v t), s, u in [0, 1], within r between their insides: w in the prism
   of half height r over { s ua - u ub }, whose coordinates are linear in t. Within SPX_PARALLEL_SINE of parallel, the
   ends cover every inside pair. */
static bool segment_pair(spx_dvec3 ua, spx_dvec3 ub, spx_dvec3 w0, spx_dvec3 v, double r, double tmax, double* t)
{
    spx_dvec3 L = spx_d3_cross(ua, ub);
    double l2 = spx_d3_len2(L);
    if (!(l2 > SPX_PARALLEL_SINE * SPX_PARALLEL_SINE * spx_d3_len2(ua) * spx_d3_len2(ub))) return false;
    double l = sqrt(l2);
    spx_dvec3 n = spx_d3_scale(L, 1.0 / l);
    double lo = 0.0, hi = tmax;
    if (!round_clip_slab(w0, v, n, -r, r, &lo, &hi)) return false;
    if (!round_clip_slab(w0, v, spx_d3_scale(spx_d3_cross(ub, n), 1.0 / l), 0.0, 1.0, &lo, &hi)) return false;
    if (!round_clip_slab(w0, v, spx_d3_scale(spx_d3_cross(ua, n), 1.0 / l), 0.0, 1.0, &lo, &hi)) return false;
    *t = lo;
    return true;
}

static double core_reach(const round_core* c)
{
    double r2 = 0.0;
    for (int i = 0; i < c->vertex_count; ++i) r2 = spx_dmax(r2, spx_d3_len2(spx_d3_sub(c->v[i], c->center)));
    return sqrt(r2);
}

bool round_first_time(const round_core* a, const round_core* b, spx_dvec3 v, double radius, double tmax,
                      double* out_time)
{
    /* Bounding balls grown by radius (slightly more) must meet in [0, tmax]: a bound only. */
    const double bound = (core_reach(a) + core_reach(b) + radius) * (1.0 + 1e-9);
    double lo = 0.0, hi = tmax;
    if (!clip_quadratic(spx_d3_len2(v), spx_d3_dot(spx_d3_sub(b->center, a->center), v),
                        spx_d3_len2(spx_d3_sub(b->center, a->center)) - bound * bound, &lo, &hi))
        return false;
    double best = INFINITY, t0, t1;
    const spx_dvec3 back = spx_d3_neg(v);
    /* A's vertices against B grown, moving at -v. Each search ends at the best time so far. */
    for (int i = 0; i < a->vertex_count; ++i)
        if (round_line_interval(b, radius, a->v[i], back, 0.0, spx_dmin(tmax, best), &t0, &t1))
            best = spx_dmin(best, t0);
    if (a->kind == ROUND_SEGMENT) {
        for (int j = 0; j < b->vertex_count; ++j)
            if (round_line_interval(a, radius, b->v[j], v, 0.0, spx_dmin(tmax, best), &t0, &t1))
                best = spx_dmin(best, t0);
        int edges[12][2];
        int count = round_core_edges(b, edges);
        spx_dvec3 ua = spx_d3_sub(a->v[1], a->v[0]);
        for (int e = 0; e < count; ++e) {
            spx_dvec3 b0 = b->v[edges[e][0]], ub = spx_d3_sub(b->v[edges[e][1]], b0);
            double t;
            if (segment_pair(ua, ub, spx_d3_sub(b0, a->v[0]), v, radius, spx_dmin(tmax, best), &t))
                best = spx_dmin(best, t);
        }
    }
    if (!(best <= tmax)) return false;
    *out_time = best;
    return true;
}

bool round_line_ball(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c, double r, double* lo, double* hi)
{
    return ball(o, d, c, r, lo, hi);
}

bool round_line_cylinder(spx_dvec3 o, spx_dvec3 d, spx_dvec3 c0, spx_dvec3 c1, double r, double* lo, double* hi)
{
    return cylinder(o, d, c0, c1, r, lo, hi);
}

bool round_segment_pair_time(spx_dvec3 ua, spx_dvec3 ub, spx_dvec3 w0, spx_dvec3 v, double r, double tmax, double* t)
{
    return segment_pair(ua, ub, w0, v, r, tmax, t);
}
