/* Plane pieces at rest: overlap and the minimum translation, containment included. */
#include "plane.h"
#include <float.h>
#include <math.h>
#include <string.h>

static void project(const spx_plane_piece* p, spx_dvec2 u, double* lo, double* hi)
{
    if (p->round) {
        double c = spx_d2_dot(p->center, u), r = p->radius * spx_d2_len(u);
        *lo = c - r, *hi = c + r;
        return;
    }
    *lo = *hi = spx_d2_dot(p->v[0], u);
    for (uint32_t i = 1; i < p->count; ++i) {
        double d = spx_d2_dot(p->v[i], u);
        *lo = fmin(*lo, d), *hi = fmax(*hi, d);
    }
}

static spx_dvec2 edge_normal(const spx_plane_piece* p, uint32_t i)
{
    return spx_d2_right(spx_d2_sub(p->v[(i + 1) % p->count], p->v[i]));
}

/* Every corner of `inner` on or inside every edge of polygon `outer`. */
static bool polygon_holds(const spx_plane_piece* outer, const spx_plane_piece* inner)
{
    for (uint32_t i = 0; i < outer->count; ++i) {
        spx_dvec2 n = edge_normal(outer, i);
        double limit = spx_d2_dot(outer->v[i], n);
        for (uint32_t k = 0; k < inner->count; ++k)
            if (spx_d2_dot(inner->v[k], n) > limit) return false;
    }
    return true;
}

/* The tangent stretch and depth of the feature extreme along d (A's along +d if `upper`, else B's). */
static void feature(const spx_plane_piece* p, spx_dvec2 d, spx_dvec2 t, bool upper, double tol, double* level,
                    double* lo, double* hi)
{
    if (p->round) {
        spx_dvec2 q = spx_d2_mad(p->center, d, upper ? p->radius : -p->radius);
        *level = spx_d2_dot(q, d);
        *lo = *hi = spx_d2_dot(q, t);
        return;
    }
    double best = upper ? -DBL_MAX : DBL_MAX;
    for (uint32_t i = 0; i < p->count; ++i) {
        double h = spx_d2_dot(p->v[i], d);
        best = upper ? fmax(best, h) : fmin(best, h);
    }
    *level = best;
    *lo = DBL_MAX, *hi = -DBL_MAX;
    for (uint32_t i = 0; i < p->count; ++i) {
        double h = spx_d2_dot(p->v[i], d);
        if (upper ? h < best - tol : h > best + tol) continue;
        double s = spx_d2_dot(p->v[i], t);
        *lo = fmin(*lo, s), *hi = fmax(*hi, s);
    }
}

spx_dvec2 spx_plane_contact_point(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2 normal, double tol)
{
    spx_dvec2 t = spx_d2(-normal.y, normal.x);
    double level_a, lo_a, hi_a, level_b, lo_b, hi_b;
    feature(a, normal, t, true, tol, &level_a, &lo_a, &hi_a);
    feature(b, normal, t, false, tol, &level_b, &lo_b, &hi_b);
    /* Where the stretches overlap, their middle; where they do not, the middle of the gap. */
    double lo = fmax(lo_a, lo_b), hi = fmin(hi_a, hi_b);
    double s = lo <= hi ? 0.5 * (lo + hi) : 0.5 * (fmin(hi_a, hi_b) + fmax(lo_a, lo_b));
    double h = 0.5 * (level_a + level_b);
    return spx_d2_add(spx_d2_scale(t, s), spx_d2_scale(normal, h));
}

/* A candidate normal beats the best so far: less depth, or the same depth and first by the key
 * both orders of the pieces share. */
static bool better(double depth, spx_dvec2 n, double best_depth, spx_dvec2 best_n, bool have, const spx_plane_piece* a,
                   const spx_plane_piece* b)
{
    if (!have || depth < best_depth) return true;
    return depth == best_depth && spx_plane_normal_first(n, best_n, a, b);
}

/* Two polygons: the least push over both polygons' edge normals, each way. */
static bool polygons(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2* normal, double* depth)
{
    bool have = false;
    for (int side = 0; side < 2; ++side) {
        const spx_plane_piece* owner = side == 0 ? a : b;
        for (uint32_t i = 0; i < owner->count; ++i) {
            spx_dvec2 u = edge_normal(owner, i);
            double len = spx_d2_len(u), a_lo, a_hi, b_lo, b_hi;
            project(a, u, &a_lo, &a_hi);
            project(b, u, &b_lo, &b_hi);
            double plus = (a_hi - b_lo) / len, minus = (b_hi - a_lo) / len;
            if (plus < 0.0 || minus < 0.0) return false;
            if (better(plus, u, *depth, *normal, have, a, b)) *depth = plus, *normal = u, have = true;
            spx_dvec2 v = spx_d2_neg(u);
            if (better(minus, v, *depth, *normal, have, a, b)) *depth = minus, *normal = v;
        }
    }
    double len = spx_d2_len(*normal);
    *normal = spx_d2_scale(*normal, 1.0 / len);
    return true;
}

/* A polygon and a circle: exact distance of the centre to the polygon. `normal` from the polygon
 * to the circle. */
static bool polygon_circle(const spx_plane_piece* p, const spx_plane_piece* c, spx_dvec2* normal, double* depth)
{
    bool have = false;
    double best_distance = DBL_MAX, most_above = -DBL_MAX;
    spx_dvec2 best_point = spx_d2(0.0, 0.0), most_above_normal = spx_d2(0.0, 0.0);
    double inner_depth = 0.0;
    spx_dvec2 inner_normal = spx_d2(0.0, 0.0);
    for (uint32_t i = 0; i < p->count; ++i) {
        spx_dvec2 a = p->v[i], e = spx_d2_sub(p->v[(i + 1) % p->count], a);
        spx_dvec2 u = spx_d2_right(e);
        double len = spx_d2_len(u), above = spx_d2_dot(spx_d2_sub(c->center, a), u) / len;
        /* Ties (to rounding) go as the normals' ties do, the same whatever corner the list starts at. */
        if (above > most_above || (above == most_above && spx_plane_normal_first(u, most_above_normal, p, c)))
            most_above = above, most_above_normal = u;
        double push = c->radius - above;
        if (better(push, u, inner_depth, inner_normal, have, p, c)) inner_depth = push, inner_normal = u, have = true;
        /* At an end the corner itself, so both its edges name the same point. */
        double s = spx_d2_dot(spx_d2_sub(c->center, a), e) / spx_d2_dot(e, e);
        spx_dvec2 q = s <= 0.0 ? a : s >= 1.0 ? p->v[(i + 1) % p->count] : spx_d2_mad(a, e, s);
        double dist = spx_d2_len(spx_d2_sub(c->center, q));
        if (dist < best_distance ||
            (dist == best_distance && (q.x < best_point.x || (q.x == best_point.x && q.y < best_point.y))))
            best_distance = dist, best_point = q;
    }
    if (most_above <= 0.0) { /* the centre inside or on the boundary: out through the nearest edge */
        *depth = inner_depth;
        *normal = spx_d2_scale(inner_normal, 1.0 / spx_d2_len(inner_normal));
        return true;
    }
    /* Outside: no nearer than the edge line it is furthest above (the closest point may round nearer). */
    const bool on_edge = best_distance <= most_above;
    const double distance = on_edge ? most_above : best_distance;
    if (distance > c->radius) return false;
    *depth = c->radius - distance;
    *normal = on_edge ? spx_d2_scale(most_above_normal, 1.0 / spx_d2_len(most_above_normal))
                      : spx_d2_scale(spx_d2_sub(c->center, best_point), 1.0 / best_distance);
    return true;
}

static bool circles(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2* normal, double* depth)
{
    spx_dvec2 d = spx_d2_sub(b->center, a->center);
    double len = spx_d2_len(d), reach = a->radius + b->radius;
    if (len > reach) return false;
    *depth = reach - len;
    /* One centre: along x, the way round that swapping the circles turns round. */
    const spx_dvec2 right = spx_d2(1.0, 0.0), left = spx_d2(-1.0, 0.0);
    *normal = len > 0.0 ? spx_d2_scale(d, 1.0 / len) : spx_plane_normal_first(left, right, a, b) ? left : right;
    return true;
}

static bool contained(const spx_plane_piece* a, const spx_plane_piece* b)
{
    if (!a->round && !b->round) return polygon_holds(a, b) || polygon_holds(b, a);
    if (a->round && b->round) {
        double len = spx_d2_len(spx_d2_sub(b->center, a->center));
        return len + fmin(a->radius, b->radius) <= fmax(a->radius, b->radius);
    }
    const spx_plane_piece* p = a->round ? b : a;
    const spx_plane_piece* c = a->round ? a : b;
    bool circle_in = true, polygon_in = true;
    for (uint32_t i = 0; i < p->count; ++i) {
        spx_dvec2 u = edge_normal(p, i);
        if (spx_d2_dot(spx_d2_sub(c->center, p->v[i]), u) / spx_d2_len(u) > -c->radius) circle_in = false;
        if (spx_d2_len(spx_d2_sub(p->v[i], c->center)) > c->radius) polygon_in = false;
    }
    return circle_in || polygon_in;
}

void spx_plane_penetration(const spx_plane_piece* a, const spx_plane_piece* b, spx_penetration2d* out, spx_dvec2* point,
                           spx_dvec2* normal, double* depth)
{
    memset(out, 0, sizeof *out);
    *normal = spx_d2(0.0, 0.0);
    *depth = 0.0;
    *point = spx_d2(0.0, 0.0);
    bool hit;
    if (!a->round && !b->round) hit = polygons(a, b, normal, depth);
    else if (a->round && b->round) hit = circles(a, b, normal, depth);
    else if (b->round) hit = polygon_circle(a, b, normal, depth);
    else {
        hit = polygon_circle(b, a, normal, depth);
        *normal = spx_d2_neg(*normal);
    }
    if (!hit) return;
    out->overlapping = true;
    out->contained = contained(a, b);
    *point = spx_plane_contact_point(a, b, *normal, 1e-7 * spx_plane_scale(a, b));
}

/* Stops at the first axis that separates the pieces. */
static bool overlap(const spx_plane_piece* a, const spx_plane_piece* b)
{
    if (a->round || b->round) {
        spx_penetration2d pen;
        spx_dvec2 point, normal;
        double depth;
        spx_plane_penetration(a, b, &pen, &point, &normal, &depth);
        return pen.overlapping;
    }
    for (int side = 0; side < 2; ++side) {
        const spx_plane_piece* owner = side == 0 ? a : b;
        for (uint32_t i = 0; i < owner->count; ++i) {
            spx_dvec2 u = edge_normal(owner, i);
            double a_lo, a_hi, b_lo, b_hi;
            project(a, u, &a_lo, &a_hi);
            project(b, u, &b_lo, &b_hi);
            if (a_hi < b_lo || b_hi < a_lo) return false;
        }
    }
    return true;
}

spx_result spx_overlap_2d(const spx_piece2d* a, const spx_piece2d* b, bool* out_overlap)
{
    if (!out_overlap) return SPX_ERR_INVALID_ARGUMENT;
    spx_plane_piece pa, pb;
    const spx_result r = spx_plane_prepare(a, b, NULL, &pa, &pb);
    if (r == SPX_OK) *out_overlap = overlap(&pa, &pb);
    return r;
}

spx_result spx_penetration_2d(const spx_piece2d* a, const spx_piece2d* b, spx_penetration2d* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_plane_piece pa, pb;
    const spx_result r = spx_plane_prepare(a, b, NULL, &pa, &pb);
    if (r != SPX_OK) return r;
    spx_dvec2 point, normal;
    double depth;
    spx_plane_penetration(&pa, &pb, out, &point, &normal, &depth);
    if (out->overlapping) {
        out->normal.x = (float)normal.x, out->normal.y = (float)normal.y;
        out->depth = (float)depth;
        out->point.x = (float)point.x, out->point.y = (float)point.y;
    }
    return SPX_OK;
}
