/* First touch of two translating plane pieces over [0, tmax]. See docs/2d.md. */
#include "plane.h"
#include <sepax/geometry.h>
#include <float.h>
#include <math.h>
#include <string.h>

static spx_dvec2 edge_normal(const spx_plane_piece* p, uint32_t i)
{
    return spx_d2_right(spx_d2_sub(p->v[(i + 1) % p->count], p->v[i]));
}

static void project_polygon(const spx_plane_piece* p, spx_dvec2 u, double* lo, double* hi)
{
    *lo = *hi = spx_d2_dot(p->v[0], u);
    for (uint32_t i = 1; i < p->count; ++i) {
        double d = spx_d2_dot(p->v[i], u);
        *lo = fmin(*lo, d), *hi = fmax(*hi, d);
    }
}

/* The earliest candidate so far: its time and normal (A to B, not unit). */
typedef struct first_touch {
    bool have;
    double time;
    spx_dvec2 normal;
    const spx_plane_piece *from, *to; /* the normal's pieces, for ties */
} first_touch;

/* For polygons the latest entry wins, for circles the earliest touch: `later` says which. */
static void offer(first_touch* f, double time, spx_dvec2 normal, bool later)
{
    if (!f->have || (later ? time > f->time : time < f->time) ||
        (time == f->time && spx_plane_normal_first(normal, f->normal, f->from, f->to))) {
        f->have = true;
        f->time = time;
        f->normal = normal;
    }
}

/* B at `w` relative to A, apart at t = 0: when the last separating axis stops separating. */
static bool polygons(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2 w, double tmax, first_touch* f)
{
    f->from = a, f->to = b;
    double exit = DBL_MAX;
    for (int side = 0; side < 2; ++side) {
        const spx_plane_piece* owner = side == 0 ? a : b;
        for (uint32_t i = 0; i < owner->count; ++i) {
            spx_dvec2 u = edge_normal(owner, i);
            double a_lo, a_hi, b_lo, b_hi, s = spx_d2_dot(u, w);
            project_polygon(a, u, &a_lo, &a_hi);
            project_polygon(b, u, &b_lo, &b_hi);
            if (s == 0.0) {
                if (b_lo > a_hi || b_hi < a_lo) return false;
                continue;
            }
            /* B's low side meets A's high side (s < 0), or B's high side A's low side (s > 0). */
            double enter = s < 0.0 ? (a_hi - b_lo) / s : (a_lo - b_hi) / s;
            double leave = s < 0.0 ? (a_lo - b_hi) / s : (a_hi - b_lo) / s;
            offer(f, enter, s < 0.0 ? u : spx_d2_neg(u), true);
            exit = fmin(exit, leave);
        }
    }
    return f->have && f->time <= exit && f->time <= tmax && f->time >= 0.0;
}

/* Quarter discriminant of |d + w t| = radius as |w|^2 r^2 - (d x w)^2, which does not cancel: a
 * hair's-breadth pass is a miss, not a rounding-made touch. */
static double discriminant(spx_dvec2 d, spx_dvec2 w, double a2, double radius)
{
    const double cross = spx_d2_cross(d, w);
    return a2 * radius * radius - cross * cross;
}

/* Circle `c` moving at `w` relative to polygon `p`, apart at t = 0. Normal from p to c. */
static bool polygon_circle(const spx_plane_piece* p, const spx_plane_piece* c, spx_dvec2 w, double tmax, first_touch* f)
{
    const double a2 = spx_d2_dot(w, w);
    f->from = p, f->to = c;
    if (a2 == 0.0) return false;
    for (uint32_t i = 0; i < p->count; ++i) {
        spx_dvec2 a = p->v[i], e = spx_d2_sub(p->v[(i + 1) % p->count], a);
        spx_dvec2 u = spx_d2_right(e);
        double len = spx_d2_len(u);
        double above = spx_d2_dot(spx_d2_sub(c->center, a), u) / len - c->radius;
        double closing = spx_d2_dot(w, u) / len;
        if (above >= 0.0 && closing < 0.0) {
            double t = -above / closing;
            spx_dvec2 at = spx_d2_mad(c->center, w, t);
            double s = spx_d2_dot(spx_d2_sub(at, a), e);
            if (s >= 0.0 && s <= spx_d2_dot(e, e)) offer(f, t, u, false);
        }
        /* The corner: |centre + w t - a| = radius, entering. */
        spx_dvec2 d = spx_d2_sub(c->center, a);
        double half_b = spx_d2_dot(d, w), cc = spx_d2_dot(d, d) - c->radius * c->radius;
        double disc = discriminant(d, w, a2, c->radius);
        if (cc >= 0.0 && half_b < 0.0 && disc >= 0.0) {
            double t = cc / (-half_b + sqrt(disc));
            /* From the corner to the centre; for a point (a radius lost in the rounding of the
             * motion) there is none: the middle of the corner's normals. */
            spx_dvec2 n = spx_d2_mad(d, w, t);
            if (spx_d2_len(n) <= 1e-12 * (spx_d2_len(d) + sqrt(a2) * t)) {
                spx_dvec2 before = edge_normal(p, (i + p->count - 1) % p->count);
                n = spx_d2_add(spx_d2_scale(before, 1.0 / spx_d2_len(before)), spx_d2_scale(u, 1.0 / len));
            }
            offer(f, t, n, false);
        }
    }
    return f->have && f->time <= tmax;
}

static bool circles(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2 w, double tmax, first_touch* f)
{
    f->from = a, f->to = b;
    spx_dvec2 d = spx_d2_sub(b->center, a->center);
    double reach = a->radius + b->radius;
    double a2 = spx_d2_dot(w, w), half_b = spx_d2_dot(d, w), cc = spx_d2_dot(d, d) - reach * reach;
    double disc = discriminant(d, w, a2, reach);
    if (a2 == 0.0 || half_b >= 0.0 || disc < 0.0) return false;
    double t = cc / (-half_b + sqrt(disc));
    /* Two points (radii lost in the rounding of the motion) meet against the motion. */
    spx_dvec2 n = spx_d2_mad(d, w, t);
    offer(f, t, spx_d2_len(n) <= 1e-12 * (spx_d2_len(d) + sqrt(a2) * t) ? spx_d2_neg(w) : n, false);
    return t <= tmax;
}

/* A piece moved by `shift`. */
static void moved(const spx_plane_piece* p, spx_dvec2 shift, spx_plane_piece* out)
{
    *out = *p;
    if (p->round) out->center = spx_d2_add(p->center, shift);
    else
        for (uint32_t i = 0; i < p->count; ++i) out->v[i] = spx_d2_add(p->v[i], shift);
}

spx_result spx_sweep_2d(const spx_piece2d* a, spx_vec2 velocity_a, const spx_piece2d* b, spx_vec2 velocity_b,
                        float tmax, spx_sweep_hit2d* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    const spx_plane_motion motion = { velocity_a, velocity_b, tmax };
    spx_plane_piece pa, pb;
    const spx_result r = spx_plane_prepare(a, b, &motion, &pa, &pb);
    if (r != SPX_OK) return r;
    memset(out, 0, sizeof *out);

    spx_penetration2d pen;
    spx_dvec2 point, normal;
    double depth;
    spx_plane_penetration(&pa, &pb, &pen, &point, &normal, &depth);
    if (pen.overlapping) {
        out->state = SPX_SWEEP_START_OVERLAP;
        out->normal.x = (float)normal.x, out->normal.y = (float)normal.y;
        out->depth = (float)depth;
        out->point.x = (float)point.x, out->point.y = (float)point.y;
        return SPX_OK;
    }

    const spx_dvec2 va = spx_d2(velocity_a.x, velocity_a.y), vb = spx_d2(velocity_b.x, velocity_b.y);
    const spx_dvec2 w = spx_d2_sub(vb, va);
    first_touch f = { false, 0.0, { 0.0, 0.0 }, NULL, NULL };
    bool hit;
    if (!pa.round && !pb.round) hit = polygons(&pa, &pb, w, tmax, &f);
    else if (pa.round && pb.round) hit = circles(&pa, &pb, w, tmax, &f);
    else if (pb.round) hit = polygon_circle(&pa, &pb, w, tmax, &f);
    else {
        hit = polygon_circle(&pb, &pa, spx_d2_neg(w), tmax, &f);
        f.normal = spx_d2_neg(f.normal);
    }
    if (!hit) return SPX_OK;

    /* Both pieces where they touch, and the point between their facing features. */
    double t = fmin(fmax(f.time, 0.0), (double)tmax);
    spx_plane_piece at_a, at_b;
    moved(&pa, spx_d2_scale(va, t), &at_a);
    moved(&pb, spx_d2_scale(vb, t), &at_b);
    spx_dvec2 n = spx_d2_scale(f.normal, 1.0 / spx_d2_len(f.normal));
    point = spx_plane_contact_point(&at_a, &at_b, n, 1e-7 * spx_plane_scale(&pa, &pb));
    out->state = SPX_SWEEP_HIT;
    out->time = (float)t;
    out->normal.x = (float)n.x, out->normal.y = (float)n.y;
    out->point.x = (float)point.x, out->point.y = (float)point.y;
    return SPX_OK;
}
