/* Spheres and capsules against convex hulls: the round piece's core (point or segment) against the hull, exact in
 * double in the hull's frame. See docs/collision.md#spheres-and-capsules-against-hulls. */
#include "round_core.h"
#include "box_features.h"
#include "sat_axes.h"
#include "sat_hull.h"
#include "geometry/hull.h"
#include "geometry/validate.h"
#include <string.h>

#define MANIFOLD_FACE_COS 0.9999 /* about 0.8 degrees, as round_manifold.c */
#define MAX_FACES (2 * SPX_HULL_MAX_CORNERS)

/* The problem in the hull's frame: A's core, its radius, the relative motion. */
typedef struct hull_round {
    const spx_hull_view* h;
    spx_dvec3 axis[3]; /* columns */
    spx_dvec3 origin;
    round_core a;
    double ra;
    double size; /* m: the larger of the pieces' diameters */
} hull_round;

static spx_dvec3 corner(const spx_hull_view* h, uint32_t i) { return spx_d3_from(h->vertices[i]); }

static spx_dvec3 to_local(const hull_round* q, spx_vec3 p)
{
    const spx_dvec3 d = spx_d3_sub(spx_d3_from(p), q->origin);
    return spx_d3(spx_d3_dot(q->axis[0], d), spx_d3_dot(q->axis[1], d), spx_d3_dot(q->axis[2], d));
}

static spx_dvec3 local_dir(const hull_round* q, spx_vec3 v)
{
    const spx_dvec3 d = spx_d3_from(v);
    return spx_d3(spx_d3_dot(q->axis[0], d), spx_d3_dot(q->axis[1], d), spx_d3_dot(q->axis[2], d));
}

static spx_dvec3 world_dir(const hull_round* q, spx_dvec3 v)
{
    return spx_d3_mad(spx_d3_mad(spx_d3_scale(q->axis[0], v.x), q->axis[1], v.y), q->axis[2], v.z);
}

static int order3(spx_vec3 p, spx_vec3 q)
{
    if (p.x != q.x) return p.x < q.x ? -1 : 1;
    if (p.y != q.y) return p.y < q.y ? -1 : 1;
    if (p.z != q.z) return p.z < q.z ? -1 : 1;
    return 0;
}

/* A's core in the hull's frame. `canonical`: a capsule's ends in (x, y, z) order, so swapped ends are one computation
   (the manifold keeps them as given: its ids name them). */
static void make(hull_round* q, round_piece a, const spx_placed_hull* b, bool canonical)
{
    q->h = &b->hull->view;
    for (int k = 0; k < 3; ++k) q->axis[k] = spx_d3_from(b->rotation.col[k]);
    q->origin = spx_d3_from(b->position);
    round_core* c = &q->a;
    *c = (round_core){ 0 };
    if (a.kind == ROUND_POINT) {
        const spx_sphere* s = a.shape;
        c->kind = ROUND_POINT;
        c->vertex_count = 1;
        c->v[0] = c->center = to_local(q, s->center);
        q->ra = s->radius;
    } else {
        const spx_capsule* s = a.shape;
        const bool flip = canonical && order3(s->p[1], s->p[0]) < 0;
        c->kind = ROUND_SEGMENT;
        c->vertex_count = 2;
        c->v[0] = to_local(q, s->p[flip ? 1 : 0]);
        c->v[1] = to_local(q, s->p[flip ? 0 : 1]);
        c->center = spx_d3_lerp_mid(c->v[0], c->v[1]);
        c->size = spx_d3_len(spx_d3_sub(c->v[1], c->v[0]));
        q->ra = s->radius;
    }
    q->size = spx_dmax(c->size + 2.0 * q->ra, 2.0 * q->h->radius);
}

/* ---- closest points ---- */

static bool in_face(const spx_hull_view* h, uint32_t f, spx_dvec3 x)
{
    const spx_hull_plane* pl = &h->faces[f];
    const uint8_t* c = h->corners + pl->first;
    for (uint32_t k = 0; k < pl->count; ++k) {
        const spx_dvec3 c0 = corner(h, c[k]), c1 = corner(h, c[(k + 1) % pl->count]);
        if (spx_d3_dot(spx_d3_sub(x, c0), spx_d3_cross(spx_d3_sub(c1, c0), pl->normal)) > 0.0) return false;
    }
    return true;
}

/* Closest point of the hull to p and its distance; 0 (and p) when p is inside or on it. */
static double closest_to_point(const spx_hull_view* h, spx_dvec3 p, spx_dvec3* out)
{
    double best = INFINITY;
    *out = p;
    for (uint32_t f = 0; f < h->face_count; ++f) {
        const spx_hull_plane* pl = &h->faces[f];
        const double s = spx_d3_dot(pl->normal, p) - pl->offset;
        /* Unseen faces hold no closest point; a face at least `best` away cannot beat it. */
        if (!(s > 0.0) || s >= best) continue;
        const spx_dvec3 x = spx_d3_mad(p, pl->normal, -s);
        if (in_face(h, f, x)) {
            best = s;
            *out = x;
            continue;
        }
        const uint8_t* c = h->corners + pl->first;
        for (uint32_t k = 0; k < pl->count; ++k) {
            const spx_dvec3 y = round_closest_on_segment(p, corner(h, c[k]), corner(h, c[(k + 1) % pl->count]));
            const double d = spx_d3_len(spx_d3_sub(y, p));
            if (d < best) {
                best = d;
                *out = y;
            }
        }
    }
    return best == INFINITY ? 0.0 : best;
}

/* Closest points of A's core and the hull and their distance; where they meet, 0 and one common point (a segment: the
   middle of its part inside). */
static double closest(const spx_hull_view* h, const round_core* a, spx_dvec3* pa, spx_dvec3* pb)
{
    if (a->kind == ROUND_POINT) {
        *pa = a->v[0];
        return closest_to_point(h, a->v[0], pb);
    }
    const spx_dvec3 a0 = a->v[0], a1 = a->v[1], u = spx_d3_sub(a1, a0);
    double lo = 0.0, hi = 1.0;
    bool inside = true;
    bool seen[MAX_FACES];
    for (uint32_t f = 0; f < h->face_count; ++f) {
        const spx_hull_plane* pl = &h->faces[f];
        seen[f] = spx_d3_dot(pl->normal, a0) > pl->offset || spx_d3_dot(pl->normal, a1) > pl->offset;
        if (inside) inside = round_clip_slab(a0, u, pl->normal, -INFINITY, pl->offset, &lo, &hi);
    }
    if (inside) {
        *pa = *pb = spx_d3_mad(a0, u, 0.5 * (lo + hi));
        return 0.0;
    }
    double best = INFINITY;
    for (int k = 0; k < 2; ++k) {
        spx_dvec3 y;
        const double d = closest_to_point(h, a->v[k], &y);
        if (d < best) {
            best = d;
            *pa = a->v[k];
            *pb = y;
        }
    }
    for (uint32_t e = 0; e < h->edge_count; ++e) {
        const spx_hull_edge* ed = &h->edges[e];
        if (!seen[ed->face[0]] && !seen[ed->face[1]]) continue;
        spx_dvec3 c1, c2;
        const double d = round_segments_closest(a0, a1, corner(h, ed->corner[0]), corner(h, ed->corner[1]), &c1, &c2);
        if (d < best) {
            best = d;
            *pa = c1;
            *pb = c2;
        }
    }
    return best;
}

/* Does edge e's Gauss-map arc cross the great circle square to u (a silhouette edge along u)? */
static bool silhouette(const spx_hull_view* h, uint32_t e, spx_dvec3 u)
{
    const spx_hull_edge* ed = &h->edges[e];
    return spx_d3_dot(h->faces[ed->face[0]].normal, u) * spx_d3_dot(h->faces[ed->face[1]].normal, u) <= 0.0;
}

/* Least overlap of meeting cores over their Minkowski faces: direction (A to B), overlap, and 1 + axis (face f: f;
   segment x edge e: faces + e). Overlaps within 1e-12 keep the earlier axis. */
static void core_penetration(const spx_hull_view* h, const round_core* a, spx_dvec3* out_n, double* out_depth,
                             int* out_axis)
{
    double best = INFINITY;
    int axis = -1;
    spx_dvec3 n = spx_d3(1, 0, 0);
    for (uint32_t f = 0; f < h->face_count; ++f) {
        const spx_dvec3 m = h->faces[f].normal;
        double amin = spx_d3_dot(m, a->v[0]);
        if (a->vertex_count == 2) amin = spx_dmin(amin, spx_d3_dot(m, a->v[1]));
        const double d = h->faces[f].offset - amin;
        if (axis < 0 || d < best - 1e-12 * (fabs(best) + fabs(d))) {
            best = d;
            axis = (int)f;
            n = spx_d3_neg(m);
        }
    }
    const spx_dvec3 u = a->kind == ROUND_SEGMENT ? spx_d3_sub(a->v[1], a->v[0]) : spx_d3(0, 0, 0);
    const double uu = spx_d3_len2(u);
    for (uint32_t e = 0; e < h->edge_count && uu > 0.0; ++e) {
        if (!silhouette(h, e, u)) continue;
        const spx_hull_edge* ed = &h->edges[e];
        const spx_dvec3 e0 = corner(h, ed->corner[0]), de = spx_d3_sub(corner(h, ed->corner[1]), e0);
        spx_dvec3 l = spx_d3_cross(u, de);
        const double l2 = spx_d3_len2(l);
        /* Within SPX_PARALLEL_SINE of parallel the cross product is noise: the faces cover the pair. */
        if (!(l2 > SPX_PARALLEL_SINE * SPX_PARALLEL_SINE * uu * spx_d3_len2(de))) continue;
        const spx_dvec3 n1 = h->faces[ed->face[0]].normal, n2 = h->faces[ed->face[1]].normal;
        l = spx_d3_scale(l, (spx_d3_dot(l, spx_d3_add(n1, n2)) < 0.0 ? -1.0 : 1.0) / sqrt(l2));
        const double d = spx_d3_dot(l, e0) - spx_dmin(spx_d3_dot(l, a->v[0]), spx_d3_dot(l, a->v[1]));
        if (d < best - 1e-12 * (fabs(best) + fabs(d))) {
            best = d;
            axis = (int)(h->face_count + e);
            n = spx_d3_neg(l);
        }
    }
    *out_n = n;
    *out_depth = spx_dmax(best, 0.0);
    *out_axis = 1 + axis;
}

/* The contact of A's core with the hull: unit normal (A to B), separation along it (distance, or minus the least
   overlap), axis, a closest point of each. */
static void contact(const hull_round* q, const round_core* a, spx_dvec3* n, double* sep, int* axis, spx_dvec3* pa,
                    spx_dvec3* pb)
{
    const double d = closest(q->h, a, pa, pb);
    /* Cores closer than rounding of their coordinates meet: their difference has no direction. */
    if (d > 1e-12 * (q->size + spx_d3_len(a->center))) {
        *n = spx_d3_scale(spx_d3_sub(*pb, *pa), 1.0 / d);
        *sep = d;
        *axis = 0;
        return;
    }
    double depth;
    core_penetration(q->h, a, n, &depth, axis);
    *sep = -depth;
}

/* ---- a line against the grown hull ---- */

typedef struct span {
    double t0, t1; /* hull of the pieces' intervals; t0 > t1 while empty */
} span;

/* Adds a piece's clipped interval [*a, *b] when the line meets it; read through pointers after the clipping call. */
static void take(span* s, bool met, const double* a, const double* b)
{
    if (!met) return;
    s->t0 = spx_dmin(s->t0, *a);
    s->t1 = spx_dmax(s->t1, *b);
}

static bool prism(const spx_hull_view* h, uint32_t f, double r, spx_dvec3 o, spx_dvec3 d, double* lo, double* hi)
{
    const spx_hull_plane* pl = &h->faces[f];
    if (!round_clip_slab(o, d, pl->normal, pl->offset - r, pl->offset + r, lo, hi)) return false;
    const uint8_t* c = h->corners + pl->first;
    for (uint32_t k = 0; k < pl->count; ++k) {
        const spx_dvec3 c0 = corner(h, c[k]);
        const spx_dvec3 inward = spx_d3_cross(pl->normal, spx_d3_sub(corner(h, c[(k + 1) % pl->count]), c0));
        if (!round_clip_slab(o, d, inward, spx_d3_dot(c0, inward), INFINITY, lo, hi)) return false;
    }
    return true;
}

/* Times in [lo, hi] at which o + d t is within r of the hull: the hull of its intervals in the corner balls, edge
   cylinders and face prisms, which hold the grown hull's boundary. */
static bool line_interval(const spx_hull_view* h, double r, spx_dvec3 o, spx_dvec3 d, double lo, double hi, double* t0,
                          double* t1)
{
    span s = { INFINITY, -INFINITY };
    for (uint32_t i = 0; i < h->vertex_count; ++i) {
        double a = lo, b = hi;
        take(&s, round_line_ball(o, d, corner(h, i), r, &a, &b), &a, &b);
    }
    for (uint32_t e = 0; e < h->edge_count; ++e) {
        double a = lo, b = hi;
        const spx_hull_edge* ed = &h->edges[e];
        take(&s, round_line_cylinder(o, d, corner(h, ed->corner[0]), corner(h, ed->corner[1]), r, &a, &b), &a, &b);
    }
    for (uint32_t f = 0; f < h->face_count; ++f) {
        double a = lo, b = hi;
        take(&s, prism(h, f, r, o, d, &a, &b), &a, &b);
    }
    *t0 = s.t0;
    *t1 = s.t1;
    return s.t0 <= s.t1;
}

/* First time in [0, hi] at which o + d t (outside at 0) comes within r of the hull. The hull with planes pushed out
   by r holds the grown hull: its entry is a lower bound, and the answer where it lies over the face entered. */
static bool line_entry(const spx_hull_view* h, double r, spx_dvec3 o, spx_dvec3 d, double hi, double* out)
{
    double lo = 0.0;
    int enter = -1;
    for (uint32_t f = 0; f < h->face_count; ++f) {
        const spx_hull_plane* pl = &h->faces[f];
        const double p = spx_d3_dot(pl->normal, o) - pl->offset - r, dp = spx_d3_dot(pl->normal, d);
        if (dp == 0.0) {
            if (p > 0.0) return false;
            continue;
        }
        const double t = -p / dp;
        if (dp > 0.0) hi = spx_dmin(hi, t);
        else if (t > lo) lo = t, enter = (int)f;
        if (lo > hi) return false;
    }
    if (enter >= 0) {
        const spx_hull_plane* pl = &h->faces[enter];
        if (in_face(h, (uint32_t)enter, spx_d3_mad(spx_d3_mad(o, d, lo), pl->normal, -r))) {
            *out = lo;
            return true;
        }
    }
    /* The first point reached has the hull's normal opposing the motion: a face so turned, or its edge or corner. */
    bool facing[MAX_FACES], rim[SPX_HULL_MAX_CORNERS] = { false };
    for (uint32_t f = 0; f < h->face_count; ++f) {
        facing[f] = spx_d3_dot(h->faces[f].normal, d) <= 0.0;
        const uint8_t* c = h->corners + h->faces[f].first;
        for (uint32_t k = 0; k < h->faces[f].count && facing[f]; ++k) rim[c[k]] = true;
    }
    double best = INFINITY, a, b;
    for (uint32_t i = 0; i < h->vertex_count; ++i) {
        a = lo, b = spx_dmin(hi, best);
        if (rim[i] && round_line_ball(o, d, corner(h, i), r, &a, &b)) best = a;
    }
    for (uint32_t e = 0; e < h->edge_count; ++e) {
        const spx_hull_edge* ed = &h->edges[e];
        a = lo, b = spx_dmin(hi, best);
        if ((facing[ed->face[0]] || facing[ed->face[1]]) &&
            round_line_cylinder(o, d, corner(h, ed->corner[0]), corner(h, ed->corner[1]), r, &a, &b))
            best = a;
    }
    for (uint32_t f = 0; f < h->face_count; ++f) {
        a = lo, b = spx_dmin(hi, best);
        if (facing[f] && prism(h, f, r, o, d, &a, &b)) best = a;
    }
    if (!(best <= hi)) return false;
    *out = best;
    return true;
}

static bool first_time(const hull_round* q, spx_dvec3 v, double R, double tmax, double* out)
{
    const spx_hull_view* h = q->h;
    const round_core* a = &q->a;
    /* Bounding balls grown by R (and 1e-9) must meet: a bound only. */
    {
        const double reach = (h->radius + 0.5 * a->size + R) * (1.0 + 1e-9) + 1e-9 * spx_d3_len(a->center);
        double lo = 0.0, hi = tmax;
        if (!round_line_ball(a->center, spx_d3_neg(v), h->center, reach, &lo, &hi)) return false;
    }
    double best = INFINITY;
    const spx_dvec3 back = spx_d3_neg(v);
    for (int k = 0; k < a->vertex_count; ++k) {
        double t;
        if (line_entry(h, R, a->v[k], back, spx_dmin(tmax, best), &t)) best = spx_dmin(best, t);
    }
    if (a->kind == ROUND_SEGMENT) {
        const spx_dvec3 u = spx_d3_sub(a->v[1], a->v[0]);
        bool rim[SPX_HULL_MAX_CORNERS] = { false };
        for (uint32_t e = 0; e < h->edge_count; ++e) {
            const spx_hull_edge* ed = &h->edges[e];
            if (!silhouette(h, e, u) || (spx_d3_dot(h->faces[ed->face[0]].normal, back) > 0.0 &&
                                         spx_d3_dot(h->faces[ed->face[1]].normal, back) > 0.0))
                continue;
            rim[ed->corner[0]] = rim[ed->corner[1]] = true;
            const spx_dvec3 b0 = corner(h, ed->corner[0]);
            double t;
            if (round_segment_pair_time(u, spx_d3_sub(corner(h, ed->corner[1]), b0), spx_d3_sub(b0, a->v[0]), v, R,
                                        spx_dmin(tmax, best), &t))
                best = spx_dmin(best, t);
        }
        /* A corner meets the capsule's side only along a normal square to the segment: a silhouette corner. */
        for (uint32_t i = 0; i < h->vertex_count; ++i) {
            double t0, t1;
            if (rim[i] && round_line_interval(a, R, corner(h, i), v, 0.0, spx_dmin(tmax, best), &t0, &t1))
                best = spx_dmin(best, t0);
        }
    }
    if (!(best <= tmax)) return false;
    *out = best;
    return true;
}

/* ---- answers ---- */

static spx_feature_kind hull_feature(const hull_round* q, spx_dvec3 m)
{
    double top = -INFINITY;
    for (uint32_t i = 0; i < q->h->vertex_count; ++i) top = spx_dmax(top, spx_d3_dot(corner(q->h, i), m));
    int count = 0;
    for (uint32_t i = 0; i < q->h->vertex_count; ++i)
        if (spx_d3_dot(corner(q->h, i), m) >= top - SPX_FEATURE_FLAT_SINE * q->size) ++count;
    return count >= 3 ? SPX_FEATURE_FACE : (count == 2 ? SPX_FEATURE_EDGE : SPX_FEATURE_VERTEX);
}

static bool lies_along(const round_core* a, spx_dvec3 n)
{
    if (a->kind != ROUND_SEGMENT) return false;
    const spx_dvec3 u = spx_d3_sub(a->v[1], a->v[0]);
    const double l2 = spx_d3_len2(u);
    return l2 > 0.0 && fabs(spx_d3_dot(u, n)) <= SPX_FEATURE_FLAT_SINE * sqrt(l2);
}

/* Where they touch: midway between A's surface and the hull along n, or where the cores meet. A capsule lying along
   the contact: the middle of its stretch within the separation plus 1e-9 of the size. */
static spx_dvec3 contact_point(const hull_round* q, const round_core* a, spx_dvec3 n, double sep, spx_dvec3 pa,
                               spx_dvec3 pb)
{
    if (sep <= 0.0) return pa;
    double s0, s1;
    if (lies_along(a, n)) {
        const spx_dvec3 u = spx_d3_sub(a->v[1], a->v[0]);
        if (line_interval(q->h, sep + 1e-9 * q->size, a->v[0], u, 0.0, 1.0, &s0, &s1)) {
            pa = spx_d3_mad(a->v[0], u, 0.5 * (s0 + s1));
            closest_to_point(q->h, pa, &pb);
        }
    }
    return spx_d3_scale(spx_d3_add(spx_d3_mad(pa, n, q->ra), pb), 0.5);
}

static spx_result check(round_piece a, const spx_placed_hull* b)
{
    if (!a.shape || !b) return SPX_ERR_INVALID_ARGUMENT;
    return spx_first_error(round_piece_check(a), spx_hull_check_placed(b));
}

static bool far_apart(const hull_round* q, double margin)
{
    const double reach = (q->h->radius + 0.5 * q->a.size + q->ra) * (1.0 + 1e-9) + margin;
    return spx_d3_len2(spx_d3_sub(q->a.center, q->h->center)) > reach * reach;
}

static spx_result sweep(round_piece pa_, spx_vec3 velocity_a, const spx_placed_hull* b, spx_vec3 velocity_b, float tmax,
                        spx_sweep_hit* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check(pa_, b);
    if (r == SPX_ERR_INVALID_ARGUMENT) return r;
    r = spx_first_error(r, spx_check_motion(velocity_a, velocity_b, tmax));
    if (r != SPX_OK) return r;
    hull_round q;
    make(&q, pa_, b, true);
    memset(out, 0, sizeof *out);
    const spx_dvec3 v = spx_d3_sub(local_dir(&q, velocity_b), local_dir(&q, velocity_a));
    const double R = q.ra;
    spx_dvec3 n = spx_d3(0, 0, 0), pa = n, pb = n;
    double sep, t = 0.0;
    int axis = 0;
    round_core a = q.a;
    if (far_apart(&q, 0.0)) {
        sep = INFINITY;
    } else {
        contact(&q, &q.a, &n, &sep, &axis, &pa, &pb);
    }
    if (sep <= R) {
        out->state = SPX_SWEEP_START_OVERLAP;
        out->depth = (float)(R - sep);
    } else {
        if (!first_time(&q, v, R, (double)tmax, &t)) return SPX_OK;
        round_core_shift(&q.a, spx_d3_scale(v, -t), &a);
        contact(&q, &a, &n, &sep, &axis, &pa, &pb);
        out->state = SPX_SWEEP_HIT;
        out->time = (float)t;
    }
    const spx_dvec3 x = contact_point(&q, &a, n, sep, pa, pb);
    out->point = spx_d3_to_float(spx_d3_add(spx_d3_mad(q.origin, spx_d3_from(velocity_b), t), world_dir(&q, x)));
    out->normal = spx_d3_to_float(world_dir(&q, n));
    out->axis = axis;
    out->feature_a = lies_along(&a, n) ? SPX_FEATURE_EDGE : SPX_FEATURE_VERTEX;
    out->feature_b = hull_feature(&q, spx_d3_neg(n));
    return SPX_OK;
}

static spx_result at_rest(round_piece pa_, const spx_placed_hull* b, bool* out_overlap, spx_penetration* out)
{
    spx_result r = check(pa_, b);
    if (r != SPX_OK) return r;
    hull_round q;
    make(&q, pa_, b, true);
    spx_dvec3 n = spx_d3(0, 0, 0), pa, pb;
    double sep = INFINITY;
    int axis = 0;
    if (!far_apart(&q, 0.0)) contact(&q, &q.a, &n, &sep, &axis, &pa, &pb);
    const bool touches = sep <= q.ra;
    if (out_overlap) *out_overlap = touches;
    if (out) {
        memset(out, 0, sizeof *out);
        if (touches) {
            out->overlapping = true;
            out->normal = spx_d3_to_float(world_dir(&q, n));
            out->depth = (float)(q.ra - sep);
            out->axis = axis;
        }
    }
    return SPX_OK;
}

/* ---- manifolds ---- */

static void add_point(const hull_round* q, spx_manifold* m, spx_dvec3 local, double depth, uint32_t id)
{
    spx_manifold_point* p = &m->points[m->point_count++];
    p->point = spx_d3_to_float(spx_d3_add(q->origin, world_dir(q, local)));
    p->depth = (float)depth;
    p->id = id;
}

/* A capsule lying on the face n comes square to (within MANIFOLD_FACE_COS): its segment clipped to the face's loop,
   one point per end (ids 0, 1). False, for one point, when the deepest end falls short of the least overlap by over
   1e-3 of it (a segment through the hull). */
static bool capsule_on_face(const hull_round* q, spx_dvec3 n, double depth, double margin, spx_manifold* out)
{
    const spx_hull_view* h = q->h;
    const spx_dvec3 a0 = q->a.v[0], u = spx_d3_sub(q->a.v[1], a0);
    const double l2 = spx_d3_len2(u), R = q->ra;
    if (l2 == 0.0) return false;
    uint32_t f = 0;
    for (uint32_t g = 1; g < h->face_count; ++g)
        if (spx_d3_dot(h->faces[g].normal, n) < spx_d3_dot(h->faces[f].normal, n)) f = g;
    const spx_hull_plane* pl = &h->faces[f];
    if (-spx_d3_dot(pl->normal, n) < MANIFOLD_FACE_COS) return false;
    double s0 = 0.0, s1 = 1.0;
    const uint8_t* c = h->corners + pl->first;
    for (uint32_t k = 0; k < pl->count; ++k) {
        const spx_dvec3 c0 = corner(h, c[k]);
        const spx_dvec3 inward = spx_d3_cross(pl->normal, spx_d3_sub(corner(h, c[(k + 1) % pl->count]), c0));
        if (!round_clip_slab(a0, u, inward, spx_d3_dot(c0, inward), INFINITY, &s0, &s1)) return false;
    }
    if ((s1 - s0) * sqrt(l2) <= 1e-6 * q->size) return false;
    double gap[2];
    spx_dvec3 x[2];
    for (int k = 0; k < 2; ++k) {
        x[k] = spx_d3_mad(a0, u, k ? s1 : s0);
        gap[k] = spx_d3_dot(x[k], pl->normal) - pl->offset;
    }
    if (R - spx_dmin(gap[0], gap[1]) < depth - 1e-3 * fabs(depth) - 1e-9 * q->size) return false;
    const spx_dvec3 normal = spx_d3_neg(pl->normal);
    out->normal = spx_d3_to_float(world_dir(q, normal));
    for (int k = 0; k < 2; ++k) {
        if (R - gap[k] < -margin) continue;
        add_point(q, out, spx_d3_mad(x[k], normal, 0.5 * (R + gap[k])), R - gap[k], (uint32_t)k);
    }
    return out->point_count > 0;
}

static spx_result manifold(round_piece pa_, const spx_placed_hull* b, float margin, spx_manifold* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check(pa_, b);
    if (r == SPX_ERR_INVALID_ARGUMENT) return r;
    r = spx_first_error(r, spx_check_margin(margin));
    if (r != SPX_OK) return r;
    memset(out, 0, sizeof *out);
    hull_round q;
    make(&q, pa_, b, false);
    if (far_apart(&q, margin)) return SPX_OK;
    spx_dvec3 n, pa, pb;
    double sep;
    int axis;
    contact(&q, &q.a, &n, &sep, &axis, &pa, &pb);
    const double R = q.ra;
    if (sep > R + margin) return SPX_OK;
    if (q.a.kind == ROUND_SEGMENT && capsule_on_face(&q, n, R - sep, margin, out)) return SPX_OK;
    memset(out, 0, sizeof *out);
    out->normal = spx_d3_to_float(world_dir(&q, n));
    add_point(&q, out, sep > 0.0 ? spx_d3_scale(spx_d3_add(spx_d3_mad(pa, n, R), pb), 0.5) : pa, R - sep, 2u);
    if (q.a.kind != ROUND_SEGMENT) return SPX_OK;
    /* A capsule touching at one point turns about it: each end apart and within the margin is a speculative point,
       its gap a lower bound of the true one. */
    const double tiny = 1e-6 * q.size;
    for (int k = 0; k < 2; ++k) {
        const spx_dvec3 x = q.a.v[k];
        if (spx_d3_len2(spx_d3_sub(x, pa)) <= tiny * tiny) continue;
        spx_dvec3 y;
        if (!(closest_to_point(q.h, x, &y) > R)) continue;
        const double gap = spx_d3_dot(spx_d3_sub(y, x), n) - R;
        if (!(gap > 0.0) || gap > margin) continue;
        add_point(&q, out, spx_d3_scale(spx_d3_add(spx_d3_mad(x, n, R), y), 0.5), -gap, (uint32_t)k);
    }
    return SPX_OK;
}

/* ---- entry points ---- */

#define ROUND_HULL_QUERIES(name, TA, KA)                                                                          \
    SPX_API spx_result spx_overlap_##name##_hull(const TA* a, const spx_placed_hull* b, bool* out)                \
    {                                                                                                             \
        return out ? at_rest(ROUND_PIECE(KA, a), b, out, NULL) : SPX_ERR_INVALID_ARGUMENT;                        \
    }                                                                                                             \
    SPX_API spx_result spx_penetration_##name##_hull(const TA* a, const spx_placed_hull* b, spx_penetration* out) \
    {                                                                                                             \
        return out ? at_rest(ROUND_PIECE(KA, a), b, NULL, out) : SPX_ERR_INVALID_ARGUMENT;                        \
    }                                                                                                             \
    SPX_API spx_result spx_sweep_##name##_hull(const TA* a, spx_vec3 velocity_a, const spx_placed_hull* b,        \
                                               spx_vec3 velocity_b, float tmax, spx_sweep_hit* out)               \
    {                                                                                                             \
        return sweep(ROUND_PIECE(KA, a), velocity_a, b, velocity_b, tmax, out);                                   \
    }                                                                                                             \
    SPX_API spx_result spx_manifold_##name##_hull(const TA* a, const spx_placed_hull* b, float margin,            \
                                                  spx_manifold* out)                                              \
    {                                                                                                             \
        return manifold(ROUND_PIECE(KA, a), b, margin, out);                                                      \
    }

ROUND_HULL_QUERIES(sphere, spx_sphere, ROUND_POINT)
ROUND_HULL_QUERIES(capsule, spx_capsule, ROUND_SEGMENT)
