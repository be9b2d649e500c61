/* Triangle against triangle: two normals, 9 edge products, in-plane edge normals when the Minkowski sum is (nearly)
 * flat, and motion-following axes 17..21 for parallel segments; world directions relative to spx_pair_origin. See
 * docs/collision.md#swept-queries. */
#include <sepax/collide.h>
#include "sat_axes.h"
#include "triangle_shape.h"
#include "sweep_pieces.h"
#include "triangle_check.h"
#include "triangle_screen.h"

/* Sine below which planes count as parallel and in-plane axes join: generous, as extra axes are valid and only cost
 * time. */
#define SPX_NEAR_PARALLEL_SINE 1e-3

typedef struct tri_pair {
    spx_dvec3 origin;
    spx_tri_shape a, b;
    spx_dvec3 u;                    /* B's velocity relative to A */
    spx_dvec3 plane;                /* normal of a flat Minkowski sum (axes 11..16) */
    spx_dvec3 line, across, moving; /* parallel segments: the line, across it at rest, across it and motion (17..21) */
    double margin;                  /* A grown by this (m) on every axis */
} tri_pair;

static void tri_pair_make(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb, tri_pair* p)
{
    p->origin = spx_pair_origin(a->v[0], b->v[0]);
    spx_tri_shape_make(a, p->origin, NULL, &p->a);
    spx_tri_shape_make(b, p->origin, NULL, &p->b);
    p->u = spx_d3_sub(spx_d3_from(vb), spx_d3_from(va));
    p->margin = 0.0;
}

/* len2 = |l|^2, as the caller has it. */
__attribute__((always_inline)) static inline bool tri_axis(const tri_pair* p, spx_sat* s, int index, spx_axis_kind kind,
                                                           spx_dvec3 l, double len2)
{
    if (len2 == 0.0) return true;
    double alo, ahi, blo, bhi;
    spx_tri_project(&p->a, l, &alo, &ahi);
    spx_tri_project(&p->b, l, &blo, &bhi);
    if (p->margin > 0.0) {
        double r = p->margin * sqrt(len2);
        alo -= r, ahi += r;
    }
    return spx_sat_axis_test(s, index, kind, len2, blo - ahi, alo - bhi, spx_d3_dot(p->u, l));
}

/* A face-kind axis the caller has no |l|^2 of. */
static bool tri_face_axis(const tri_pair* p, spx_sat* s, int index, spx_dvec3 l)
{
    return tri_axis(p, s, index, SPX_AXIS_FACE, l, spx_d3_len2(l));
}

static spx_dvec3 tri_pair_axis(const void* pair, int index)
{
    const tri_pair* p = pair;
    if (index == 0) return p->a.n;
    if (index == 1) return p->b.n;
    if (index < 11) return spx_d3_cross(p->a.e[(index - 2) / 3], p->b.e[(index - 2) % 3]);
    if (index < 14) return spx_d3_cross(p->plane, p->a.e[index - 11]);
    if (index < 17) return spx_d3_cross(p->plane, p->b.e[index - 14]);
    if (index == 17) return p->line;
    if (index == 18) return p->across;
    if (index == 19) return spx_d3_cross(p->across, p->line);
    if (index == 20) return p->moving;
    return spx_d3_cross(p->moving, p->line);
}

static bool nearly_parallel(spx_dvec3 x, spx_dvec3 y)
{
    double c2 = spx_d3_len2(spx_d3_cross(x, y));
    return c2 <= SPX_NEAR_PARALLEL_SINE * SPX_NEAR_PARALLEL_SINE * spx_d3_len2(x) * spx_d3_len2(y);
}

/* The line of two parallel segments: the longer long edge (ties: first end first in (x, y, z)), the same whichever
   piece is A; parallel only within SPX_PARALLEL_SINE, A's and B's edges may differ. */
static spx_dvec3 parallel_line(const spx_tri_shape* a, const spx_tri_shape* b)
{
    const double la = spx_d3_len2(a->e[a->long_edge]), lb = spx_d3_len2(b->e[b->long_edge]);
    if (la != lb) return la > lb ? a->e[a->long_edge] : b->e[b->long_edge];
    return spx_d3_order(a->p[a->long_edge], b->p[b->long_edge]) <= 0 ? a->e[a->long_edge] : b->e[b->long_edge];
}

static bool tri_pair_sat(tri_pair* p, double tmax, spx_sat* s, bool track_depth)
{
    const spx_tri_shape *a = &p->a, *b = &p->b;
    spx_sat_init(s, tmax, track_depth);
    s->tie_dir = tri_pair_axis;
    s->tie_pair = p;
    if (!a->segment && !tri_axis(p, s, 0, SPX_AXIS_FACE, a->n, a->n2)) return false;
    if (!b->segment && !tri_axis(p, s, 1, SPX_AXIS_FACE, b->n, b->n2)) return false;
    bool any_cross = false;
    for (int i = 0; i < 3; ++i) {
        const double ea2 = a->e2[i];
        if (ea2 == 0.0) continue;
        for (int j = 0; j < 3; ++j) {
            const spx_dvec3 l = spx_d3_cross(a->e[i], b->e[j]);
            const double eb2 = b->e2[j], l2 = spx_d3_len2(l);
            if (eb2 == 0.0 || !spx_edge_axis_usable(l2, ea2, eb2)) continue;
            any_cross = true;
            if (!tri_axis(p, s, 2 + 3 * i + j, SPX_AXIS_EDGE, l, l2)) return false;
        }
    }

    spx_dvec3 da = a->e[a->long_edge], db = b->e[b->long_edge];
    bool flat = false;
    spx_dvec3 m = { 0, 0, 0 };
    if (!a->segment && !b->segment) {
        flat = nearly_parallel(a->n, b->n);
        m = a->n;
    } else if (!b->segment) { /* A is segment-like */
        flat = fabs(spx_d3_dot(da, b->n)) <= SPX_NEAR_PARALLEL_SINE * sqrt(spx_d3_len2(da) * spx_d3_len2(b->n));
        m = b->n;
    } else if (!a->segment) {
        flat = fabs(spx_d3_dot(db, a->n)) <= SPX_NEAR_PARALLEL_SINE * sqrt(spx_d3_len2(db) * spx_d3_len2(a->n));
        m = a->n;
    } else if (any_cross) { /* two segments, not parallel: they span a plane */
        flat = true;
        m = spx_d3_cross(da, db);
    } else {
        /* Two parallel segments: the sum is a segment along d; the axis across d and B's offset line keeps its
         * projection, the one along it gives the times (20, 21). */
        spx_dvec3 d = parallel_line(a, b);
        /* The at-rest axes (the static queries' only ones): the moving axes alone could miss a gap the static test
           finds, as the segments are parallel only within SPX_PARALLEL_SINE. */
        spx_dvec3 offset = spx_d3_sub(b->p[0], a->p[0]);
        spx_dvec3 still = spx_d3_cross(d, offset);
        if (!(spx_d3_len2(still) > 1e-24 * spx_d3_len2(d) * spx_d3_len2(offset))) {
            /* On one line: an axis fixed by d alone, so the (zero) depth across is measured. */
            const double x = fabs(d.x), y = fabs(d.y), z = fabs(d.z);
            still = spx_d3_cross(d, x <= y && x <= z ? spx_d3(1, 0, 0) : (y <= z ? spx_d3(0, 1, 0) : spx_d3(0, 0, 1)));
        }
        p->line = d;
        p->across = still;
        p->moving = spx_d3_cross(d, p->u);
        if (!tri_face_axis(p, s, 17, d)) return false;
        if (!tri_face_axis(p, s, 18, still)) return false;
        if (!tri_face_axis(p, s, 19, spx_d3_cross(still, d))) return false;
        if (spx_d3_len2(p->moving) > 1e-24 * spx_d3_len2(d) * spx_d3_len2(p->u)) {
            if (!tri_face_axis(p, s, 20, p->moving)) return false;
            if (!tri_face_axis(p, s, 21, spx_d3_cross(p->moving, d))) return false;
        }
        return spx_sat_touches(s);
    }
    if (flat) {
        p->plane = m;
        for (int i = 0; i < 3; ++i)
            if (!tri_face_axis(p, s, 11 + i, spx_d3_cross(m, a->e[i]))) return false;
        for (int j = 0; j < 3; ++j)
            if (!tri_face_axis(p, s, 14 + j, spx_d3_cross(m, b->e[j]))) return false;
    }
    return spx_sat_touches(s);
}

/* The point comes from the features extreme along the normal, not the winning axis: every valid normal meets both
 * pieces in the same region. */
static void tri_pair_contact(const tri_pair* p, const spx_sat_axis* axis, double tc, spx_sweep_hit* out)
{
    spx_dvec3 n = spx_sat_unit(axis, tri_pair_axis(p, axis->index));
    spx_feature fa, fb;
    out->feature_a = spx_tri_feature(&p->a, n, spx_d3(0, 0, 0), &fa);
    out->feature_b = spx_tri_feature(&p->b, spx_d3_neg(n), spx_d3_scale(p->u, tc), &fb);
    spx_dvec3 q = spx_contact_point(&fa, &fb, n);
    out->point = spx_d3_to_float(spx_d3_add(p->origin, q));
    out->normal = spx_d3_to_float(n);
}

/* A triangle's corner sum in double: exact for floats of nearby magnitude, so independent of corner and piece
   order. */
static spx_dvec3 corner_sum(const spx_triangle* t)
{
    return spx_d3_add(spx_d3_add(spx_d3_from(t->v[0]), spx_d3_from(t->v[1])), spx_d3_from(t->v[2]));
}

static void tri_pair_settle(const tri_pair* p, const spx_triangle* a, const spx_triangle* b, spx_sat* s)
{
    spx_sat_tie t;
    spx_dvec3 ca = spx_d3_add(spx_d3_add(p->a.p[0], p->a.p[1]), p->a.p[2]);
    spx_dvec3 cb = spx_d3_add(spx_d3_add(p->b.p[0], p->b.p[1]), p->b.p[2]);
    t.u = p->u;
    t.offset = spx_d3_scale(spx_d3_sub(cb, ca), 1.0 / 3.0);
    t.size = 0.0;
    for (int k = 0; k < 3; ++k)
        t.size = spx_dmax(t.size, spx_dmax(sqrt(spx_d3_len2(p->a.p[k])), sqrt(spx_d3_len2(p->b.p[k]))));
    t.order = spx_d3_order(corner_sum(a), corner_sum(b));
    t.frame = NULL;
    spx_sat_settle(s, tri_pair_axis, p, &t);
}

static spx_result check_pair(const spx_triangle* a, const spx_triangle* b)
{
    if (!a || !b) return SPX_ERR_INVALID_ARGUMENT;
    return spx_first_error(spx_triangle_check(a), spx_triangle_check(b));
}

void spx_sweep_triangle_triangle_exact(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                       spx_vec3 velocity_b, float tmax, float margin, spx_sweep_hit* out)
{
    tri_pair p;
    tri_pair_make(a, velocity_a, b, velocity_b, &p);
    p.margin = margin > 0.0f ? margin : 0.0;
    spx_sat s;
    spx_sweep_hit hit = { 0 };
    hit.axis = -1;
    if (tri_pair_sat(&p, tmax, &s, false)) {
        if (!s.separated_at_start) { /* overlapping at t = 0: the least-overlap axis */
            tri_pair_sat(&p, tmax, &s, true);
            tri_pair_settle(&p, a, b, &s);
        }
        double tc;
        const spx_sat_axis* axis = spx_sat_fill_hit(&s, tri_pair_axis, &p, &hit, &tc);
        /* A's corners stay put in this frame; B's move by u * tc; A moves in the world. */
        p.origin = spx_d3_mad(p.origin, spx_d3_from(velocity_a), tc);
        tri_pair_contact(&p, axis, tc, &hit);
    }
    *out = hit;
}

/* The hit the float screen decided on `index` (0..10): that axis's time and sign as the double test takes them,
   its contact as spx_sweep_triangle_triangle_exact makes it. False (to the double test) when the double test
   adds axes (a segment-like triangle, planes nearly parallel) or an edge axis lies along a normal. */
__attribute__((noinline)) static bool tri_pair_decided(const spx_triangle* a, spx_vec3 va, const spx_triangle* b,
                                                       spx_vec3 vb, float tmax, float margin, int index,
                                                       spx_sweep_hit* out)
{
    tri_pair p;
    tri_pair_make(a, va, b, vb, &p);
    p.margin = margin > 0.0f ? margin : 0.0;
    if (p.a.segment || p.b.segment || nearly_parallel(p.a.n, p.b.n)) return false;
    spx_sat s;
    spx_sat_init(&s, tmax, false);
    bool touches;
    if (index < 2) {
        touches = tri_axis(&p, &s, index, SPX_AXIS_FACE, index == 0 ? p.a.n : p.b.n, index == 0 ? p.a.n2 : p.b.n2);
    } else {
        const int i = (index - 2) / 3, j = (index - 2) % 3;
        const spx_dvec3 l = spx_d3_cross(p.a.e[i], p.b.e[j]);
        const double l2 = spx_d3_len2(l);
        if (p.a.e2[i] == 0.0 || p.b.e2[j] == 0.0 || !spx_edge_axis_usable(l2, p.a.e2[i], p.b.e2[j])) return false;
        touches = tri_axis(&p, &s, index, SPX_AXIS_EDGE, l, l2);
    }
    if (!touches || !s.separated_at_start) return false;
    for (int k = 0; s.first.kind == SPX_AXIS_EDGE && k < 2; ++k) {
        const spx_sat_axis face = { .index = k, .kind = SPX_AXIS_FACE };
        if (spx_sat_same_as_face(&s.first, &face, tri_pair_axis, &p)) return false;
    }
    spx_sweep_hit hit = { 0 };
    double tc;
    const spx_sat_axis* axis = spx_sat_fill_hit(&s, tri_pair_axis, &p, &hit, &tc);
    p.origin = spx_d3_mad(p.origin, spx_d3_from(va), tc);
    tri_pair_contact(&p, axis, tc, &hit);
    *out = hit;
    return true;
}

static void sweep_pair(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b, spx_vec3 velocity_b,
                       float tmax, float margin, spx_sweep_hit* out)
{
    spx_ts_axes x;
    if (spx_tri_tri_screen(a, velocity_a, b, velocity_b, tmax, margin > 0.0f ? margin : 0.0f, &x)) {
        *out = (spx_sweep_hit){ .state = SPX_SWEEP_MISS, .axis = -1 };
        return;
    }
    const int lane = tmax > 0.0f ? spx_ts_decide(&x, 3) : -1;
    /* lane 4g + j: A's edge g x B's edge j, lane 3 of groups 0 and 1 the normals */
    const int index = lane < 0 ? -1 : ((lane & 3) == 3 ? lane >> 2 : 2 + 3 * (lane >> 2) + (lane & 3));
    if (index >= 0 && tri_pair_decided(a, velocity_a, b, velocity_b, tmax, margin, index, out)) return;
    spx_sweep_triangle_triangle_exact(a, velocity_a, b, velocity_b, tmax, margin, out);
}

void spx_sweep_triangle_triangle_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out)
{
    sweep_pair(a, velocity_a, b, velocity_b, tmax, 0.0f, out);
}

void spx_sweep_triangle_triangle_margin_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                                spx_vec3 velocity_b, float tmax, float margin, spx_sweep_hit* out)
{
    sweep_pair(a, velocity_a, b, velocity_b, tmax, margin, out);
}

SPX_SAT_PAIR_QUERIES(triangle, triangle, tri_pair, tri_pair_make, tri_pair_sat, tri_pair_settle, tri_pair_axis, NULL)
