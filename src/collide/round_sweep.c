/* Spheres and capsules: overlap, minimum translation and swept first contact, as questions on the cores and the radii
 * sum R (first contact per feature pair in round_line.c). See docs/collision.md#spheres-and-capsules. */
#include "round_core.h"
#include "geometry/validate.h"
#include "box_features.h"
#include <string.h>

/* Core c's feature extreme along m: its vertices within 1e-6 of its size of the most (1 vertex, 2 edge, more
   face). */
static spx_feature_kind extreme_feature(const round_core* c, spx_dvec3 m)
{
    double top = -INFINITY;
    for (int i = 0; i < c->vertex_count; ++i) top = spx_dmax(top, spx_d3_dot(c->v[i], m));
    int count = 0;
    for (int i = 0; i < c->vertex_count; ++i)
        if (spx_d3_dot(c->v[i], m) >= top - SPX_FEATURE_FLAT_SINE * c->size) ++count;
    return count >= 3 ? SPX_FEATURE_FACE : (count == 2 ? SPX_FEATURE_EDGE : SPX_FEATURE_VERTEX);
}

/* The middle of the part of segment c (within SPX_FEATURE_FLAT_SINE of square to n) within `reach` of core o, or
   false. */
static bool stretch_middle(const round_core* c, const round_core* o, spx_dvec3 n, double reach, spx_dvec3* out)
{
    if (c->kind != ROUND_SEGMENT) return false;
    spx_dvec3 c0 = c->v[0], u = spx_d3_sub(c->v[1], c0);
    double l2 = spx_d3_len2(u), s0, s1;
    if (!(l2 > 0.0) || fabs(spx_d3_dot(u, n)) > SPX_FEATURE_FLAT_SINE * sqrt(l2)) return false;
    if (!round_line_interval(o, reach, c0, u, 0.0, 1.0, &s0, &s1)) return false;
    *out = spx_d3_mad(c0, u, 0.5 * (s0 + s1));
    return true;
}

/* Where the pieces touch, or midway between the surfaces for an overlap. A capsule along the contact: the middle of
   its stretch within the separation plus 1e-9 of the size (a few 1e-5 further past a rounded end); two such capsules:
   the mean of both, so a swap agrees. */
static spx_dvec3 contact_point(const round_pair* p, const round_core* b, spx_dvec3 n, double separation, spx_dvec3 pa,
                               spx_dvec3 pb)
{
    if (separation <= 0.0) return pa;
    const double reach = separation + 1e-9 * p->size;
    spx_dvec3 sum = spx_d3(0, 0, 0), x;
    int count = 0;
    if (stretch_middle(&p->a, b, n, reach, &x)) {
        sum = spx_d3_add(sum, spx_d3_add(spx_d3_mad(x, n, p->ra), spx_d3_mad(round_closest_to_point(b, x), n, -p->rb)));
        ++count;
    }
    if (p->a.kind == ROUND_SEGMENT && stretch_middle(b, &p->a, n, reach, &x)) {
        sum = spx_d3_add(sum,
                         spx_d3_add(spx_d3_mad(round_closest_to_point(&p->a, x), n, p->ra), spx_d3_mad(x, n, -p->rb)));
        ++count;
    }
    if (count == 0) return spx_d3_scale(spx_d3_add(spx_d3_mad(pa, n, p->ra), spx_d3_mad(pb, n, -p->rb)), 0.5);
    return spx_d3_scale(sum, 0.5 / count);
}

static int order3(spx_vec3 p, spx_vec3 q)
{
    if (p.x != q.x) return p.x < q.x ? -1 : 1;
    if (p.y != q.y) return p.y < q.y ? -1 : 1;
    if (p.z != q.z) return p.z < q.z ? -1 : 1;
    return 0;
}

/* One problem asked two ways (ends or pieces swapped) is worked in one canonical order: otherwise a touch within
 * rounding can flip and move the first contact by far more than rounding. A capsule's ends go in (x, y, z) order
 * (copied into `room`). */
static round_piece canonical_ends(round_piece p, spx_capsule* room)
{
    if (p.kind != ROUND_SEGMENT) return p;
    const spx_capsule* c = p.shape;
    if (order3(c->p[1], c->p[0]) >= 0) return p;
    room->p[0] = c->p[1];
    room->p[1] = c->p[0];
    room->radius = c->radius;
    p.shape = room;
    return p;
}

/* Same-kind pieces ordered by shape (canonical ends, radius), then velocity: true when B comes first. */
static bool b_first(round_piece a, spx_vec3 va, round_piece b, spx_vec3 vb)
{
    if (a.kind != b.kind) return false;
    int o = 0;
    float ra, rb;
    if (a.kind == ROUND_POINT) {
        const spx_sphere *x = a.shape, *y = b.shape;
        o = order3(x->center, y->center);
        ra = x->radius, rb = y->radius;
    } else {
        const spx_capsule *x = a.shape, *y = b.shape;
        o = order3(x->p[0], y->p[0]);
        if (o == 0) o = order3(x->p[1], y->p[1]);
        ra = x->radius, rb = y->radius;
    }
    if (o == 0 && ra != rb) o = ra < rb ? -1 : 1;
    if (o == 0) o = order3(va, vb);
    return o > 0;
}

static bool canonical_pair(round_piece* a, spx_vec3 va, round_piece* b, spx_vec3 vb, spx_capsule room[2])
{
    *a = canonical_ends(*a, &room[0]);
    *b = canonical_ends(*b, &room[1]);
    return b_first(*a, va, *b, vb);
}

static spx_result check_pieces(round_piece a, round_piece b)
{
    if (!a.shape || !b.shape) return SPX_ERR_INVALID_ARGUMENT;
    return spx_first_error(round_piece_check(a), round_piece_check(b));
}

static void sweep_checked(round_piece pa_, spx_vec3 velocity_a, round_piece pb_, spx_vec3 velocity_b, float tmax,
                          spx_sweep_hit* out)
{
    round_pair p;
    round_pair_make(pa_, pb_, &p);
    memset(out, 0, sizeof *out);
    const spx_dvec3 va = spx_d3_from(velocity_a), v = spx_d3_sub(spx_d3_from(velocity_b), va);
    const double R = p.ra + p.rb;
    spx_dvec3 n, pa, pb;
    double sep;
    int axis;
    double t = 0.0;
    round_core b = p.b;
    round_contact_normal(&p, &p.b, v, &n, &sep, &axis, &pa, &pb);
    if (sep <= R) {
        out->state = SPX_SWEEP_START_OVERLAP;
        out->depth = (float)(R - sep);
    } else {
        if (!round_first_time(&p.a, &p.b, v, R, (double)tmax, &t)) return;
        round_core_shift(&p.b, spx_d3_scale(v, t), &b);
        /* Touching at t: a normal from the closest points, or (zero radii) the way B came. */
        round_contact_normal(&p, &b, spx_d3_neg(v), &n, &sep, &axis, &pa, &pb);
        out->state = SPX_SWEEP_HIT;
        out->time = (float)t;
    }
    spx_dvec3 local = contact_point(&p, &b, n, sep, pa, pb);
    out->point = spx_d3_to_float(spx_d3_add(p.origin, spx_d3_mad(local, va, t)));
    out->normal = spx_d3_to_float(n);
    out->axis = axis;
    out->feature_a = extreme_feature(&p.a, n);
    out->feature_b = extreme_feature(&b, spx_d3_neg(n));
}

static spx_result sweep(round_piece a, spx_vec3 velocity_a, round_piece b, spx_vec3 velocity_b, float tmax,
                        spx_sweep_hit* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_pieces(a, b);
    if (r == SPX_ERR_INVALID_ARGUMENT) return r;
    r = spx_first_error(r, spx_check_motion(velocity_a, velocity_b, tmax));
    if (r != SPX_OK) return r;
    spx_capsule room[2];
    if (!canonical_pair(&a, velocity_a, &b, velocity_b, room)) {
        sweep_checked(a, velocity_a, b, velocity_b, tmax, out);
        return SPX_OK;
    }
    sweep_checked(b, velocity_b, a, velocity_a, tmax, out);
    out->normal = spx_v3(-out->normal.x, -out->normal.y, -out->normal.z);
    const spx_feature_kind f = out->feature_a;
    out->feature_a = out->feature_b;
    out->feature_b = f;
    return SPX_OK;
}

/* The static queries with the sweep's separation so all three agree (cores closer than rounding meet); out, if not
   NULL, gets the penetration. */
static spx_result at_rest(round_piece a, round_piece b, bool* out_overlap, spx_penetration* out)
{
    spx_result r = check_pieces(a, b);
    if (r != SPX_OK) return r;
    spx_capsule room[2];
    const spx_vec3 still = { 0, 0, 0 };
    const bool swap = canonical_pair(&a, still, &b, still, room);
    round_pair p;
    round_pair_make(swap ? b : a, swap ? a : b, &p);
    spx_dvec3 n, pa, pb;
    double sep;
    int axis;
    round_contact_normal(&p, &p.b, spx_d3(0, 0, 0), &n, &sep, &axis, &pa, &pb);
    const bool touches = sep <= p.ra + p.rb;
    if (out_overlap) *out_overlap = touches;
    if (out) {
        memset(out, 0, sizeof *out);
        if (touches) {
            out->overlapping = true;
            out->normal = spx_d3_to_float(swap ? spx_d3_neg(n) : n);
            out->depth = (float)(p.ra + p.rb - sep);
            out->axis = axis;
        }
    }
    return SPX_OK;
}

#define ROUND_PAIR_QUERIES(name, TA, KA, TB, KB)                                                            \
    SPX_API spx_result spx_overlap_##name(const TA* a, const TB* b, bool* out)                              \
    {                                                                                                       \
        return out ? at_rest(ROUND_PIECE(KA, a), ROUND_PIECE(KB, b), out, NULL) : SPX_ERR_INVALID_ARGUMENT; \
    }                                                                                                       \
    SPX_API spx_result spx_penetration_##name(const TA* a, const TB* b, spx_penetration* out)               \
    {                                                                                                       \
        return out ? at_rest(ROUND_PIECE(KA, a), ROUND_PIECE(KB, b), NULL, out) : SPX_ERR_INVALID_ARGUMENT; \
    }                                                                                                       \
    SPX_API spx_result spx_sweep_##name(const TA* a, spx_vec3 velocity_a, const TB* b, spx_vec3 velocity_b, \
                                        float tmax, spx_sweep_hit* out)                                     \
    {                                                                                                       \
        return sweep(ROUND_PIECE(KA, a), velocity_a, ROUND_PIECE(KB, b), velocity_b, tmax, out);            \
    }

ROUND_PAIRS(ROUND_PAIR_QUERIES)
