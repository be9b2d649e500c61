/* Box against triangle: the 13 axes of box_triangle.h, swept. */
#include <sepax/collide.h>
#include "box_triangle.h"
#include "box_features.h"
#include "sweep_pieces.h"
#include "triangle_check.h"
#include "triangle_screen.h"

__attribute__((always_inline)) static inline bool box_tri_axis(const box_tri* p, spx_sat* s, int index,
                                                               spx_axis_kind kind, spx_dvec3 l, double len2)
{
    double gap_pos, gap_neg;
    box_tri_gaps(p, l, &gap_pos, &gap_neg);
    return spx_sat_axis_test(s, index, kind, len2, gap_pos, gap_neg, spx_d3_dot(p->u, l));
}

static bool box_tri_sat(const box_tri* p, double tmax, spx_sat* s, bool track_depth)
{
    spx_sat_init(s, tmax, track_depth);
    s->tie_dir = box_tri_axis_dir;
    s->tie_pair = p;
    s->tie_frame = p->axes;
    if (!p->t.segment && !box_tri_axis(p, s, 0, SPX_AXIS_FACE, p->t.n, p->t.n2)) return false;
    for (int i = 0; i < 3; ++i)
        if (!box_tri_axis(p, s, 1 + i, SPX_AXIS_FACE, spx_d3(i == 0, i == 1, i == 2), 1.0)) return false;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            spx_dvec3 l = box_tri_edge_axis(p, i, j);
            double len2 = spx_d3_len2(l), f2 = p->t.e2[j];
            if (f2 == 0.0 || !spx_edge_axis_usable(len2, 1.0, f2)) continue;
            if (!box_tri_axis(p, s, 4 + 3 * i + j, SPX_AXIS_EDGE, l, len2)) return false;
        }
    }
    return spx_sat_touches(s);
}

static void box_tri_contact(const spx_obb* a, spx_vec3 va, const box_tri* p, const spx_sat_axis* axis, double tc,
                            spx_sweep_hit* out)
{
    static const spx_dvec3 unit[3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    spx_dvec3 n = spx_sat_unit(axis, box_tri_axis_dir(p, axis->index));
    /* The features extreme along the normal, whichever axis gave it (sweep_triangle_triangle.c). */
    spx_feature fa, fb;
    out->feature_a = spx_box_feature(spx_d3(0, 0, 0), unit, p->h, n, 0u, &fa);
    out->feature_b = spx_tri_feature(&p->t, spx_d3_neg(n), spx_d3_scale(p->u, tc), &fb);
    spx_dvec3 q = spx_contact_point(&fa, &fb, n);
    spx_dvec3 world = spx_d3_mad(spx_d3_from(a->center), spx_d3_from(va), tc), normal = spx_d3(0, 0, 0);
    for (int i = 0; i < 3; ++i) {
        world = spx_d3_mad(world, p->axes[i], (&q.x)[i]);
        normal = spx_d3_mad(normal, p->axes[i], (&n.x)[i]);
    }
    out->point = spx_d3_to_float(world);
    out->normal = spx_d3_to_float(spx_d3_scale(normal, 1.0 / sqrt(spx_d3_len2(normal))));
}

/* Settles a least-overlap axis whose two ways out are equally deep (sat_axes.h). */
static void box_tri_settle(const box_tri* p, const spx_obb* a, const spx_triangle* b, spx_sat* s)
{
    spx_sat_tie t;
    spx_dvec3 cb = spx_d3_add(spx_d3_add(p->t.p[0], p->t.p[1]), p->t.p[2]);
    t.u = p->u;
    t.offset = spx_d3_scale(cb, 1.0 / 3.0);
    t.size = sqrt(p->h[0] * p->h[0] + p->h[1] * p->h[1] + p->h[2] * p->h[2]);
    for (int k = 0; k < 3; ++k) t.size = spx_dmax(t.size, sqrt(spx_d3_len2(p->t.p[k])));
    /* Three times each centre in the world, in double: exact, so the order does not depend on rounding. */
    spx_dvec3 box3 = spx_d3_scale(spx_d3_from(a->center), 3.0);
    spx_dvec3 tri3 = spx_d3_add(spx_d3_add(spx_d3_from(b->v[0]), spx_d3_from(b->v[1])), spx_d3_from(b->v[2]));
    t.order = spx_d3_order(box3, tri3);
    t.frame = p->axes;
    spx_sat_settle(s, box_tri_axis_dir, p, &t);
}

static spx_result check_pair(const spx_obb* a, const spx_triangle* b)
{
    if (!a || !b) return SPX_ERR_INVALID_ARGUMENT;
    return spx_first_error(spx_obb_validate(a), spx_triangle_check(b));
}

void spx_sweep_obb_triangle_exact(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b, spx_vec3 velocity_b,
                                  float tmax, spx_sweep_hit* out)
{
    box_tri p;
    box_tri_make(a, velocity_a, b, velocity_b, &p);
    spx_sat s;
    spx_sweep_hit hit = { 0 };
    hit.axis = -1;
    if (box_tri_sat(&p, tmax, &s, false)) {
        if (!s.separated_at_start) { /* overlapping at t = 0: the least-overlap axis */
            box_tri_sat(&p, tmax, &s, true);
            box_tri_settle(&p, a, b, &s);
        }
        double tc;
        const spx_sat_axis* axis = spx_sat_fill_hit(&s, box_tri_axis_dir, &p, &hit, &tc);
        box_tri_contact(a, velocity_a, &p, axis, tc, &hit);
    }
    *out = hit;
}

/* Screen lane (spx_box_tri_screen) to axis number. */
static int box_tri_lane_axis(int lane)
{
    const int group = lane >> 2, i = lane & 3;
    if (group == 0) return i == 3 ? 0 : 1 + i;
    return 4 + 3 * i + (group - 1);
}

/* The hit the float screen decided on `index`: that axis's time and sign as the double test takes them, its
   contact as spx_sweep_obb_triangle_exact makes it. False (to the double test) for an edge axis along a face
   axis, whose face the double test would name. */
__attribute__((noinline)) static bool box_tri_decided(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                                      float tmax, int index, spx_sweep_hit* out)
{
    box_tri p;
    box_tri_make(a, va, b, vb, &p);
    spx_dvec3 l;
    double len2;
    if (!box_tri_axis_usable(&p, index, &l, &len2)) return false;
    const spx_axis_kind kind = index < 4 ? SPX_AXIS_FACE : SPX_AXIS_EDGE;
    spx_sat s;
    spx_sat_init(&s, tmax, false);
    if (!box_tri_axis(&p, &s, index, kind, l, index == 0 ? p.t.n2 : len2) || !s.separated_at_start) return false;
    for (int k = p.t.segment ? 1 : 0; kind == SPX_AXIS_EDGE && k < 4; ++k) {
        const spx_sat_axis face = { .index = k, .kind = SPX_AXIS_FACE };
        if (spx_sat_same_as_face(&s.first, &face, box_tri_axis_dir, &p)) return false;
    }
    spx_sweep_hit hit = { 0 };
    double tc;
    const spx_sat_axis* axis = spx_sat_fill_hit(&s, box_tri_axis_dir, &p, &hit, &tc);
    box_tri_contact(a, va, &p, axis, tc, &hit);
    *out = hit;
    return true;
}

void spx_sweep_obb_triangle_checked(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b, spx_vec3 velocity_b,
                                    float tmax, spx_sweep_hit* out)
{
    spx_ts_axes x;
    if (spx_box_tri_screen(a, velocity_a, b, velocity_b, tmax, &x)) {
        *out = (spx_sweep_hit){ .state = SPX_SWEEP_MISS, .axis = -1 };
        return;
    }
    const int lane = tmax > 0.0f ? spx_ts_decide(&x, 4) : -1;
    if (lane >= 0 && box_tri_decided(a, velocity_a, b, velocity_b, tmax, box_tri_lane_axis(lane), out)) return;
    spx_sweep_obb_triangle_exact(a, velocity_a, b, velocity_b, tmax, out);
}

SPX_SAT_PAIR_QUERIES(obb, triangle, box_tri, box_tri_make, box_tri_sat, box_tri_settle, box_tri_axis_dir, p.axes)
