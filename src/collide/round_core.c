/* Cores of round pieces: construction, closest points, and the least overlap of cores that meet. */
#include "round_core.h"
#include "sat_axes.h"
#include "geometry/validate.h"

static spx_dvec3 rel(spx_vec3 p, spx_dvec3 origin) { return spx_d3_sub(spx_d3_from(p), origin); }
static double clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

void round_core_point(spx_vec3 p, spx_dvec3 origin, round_core* out)
{
    *out = (round_core){ 0 };
    out->kind = ROUND_POINT;
    out->vertex_count = 1;
    out->v[0] = out->center = rel(p, origin);
}

void round_core_segment(spx_vec3 p0, spx_vec3 p1, spx_dvec3 origin, round_core* out)
{
    *out = (round_core){ 0 };
    out->kind = ROUND_SEGMENT;
    out->vertex_count = 2;
    out->v[0] = rel(p0, origin);
    out->v[1] = rel(p1, origin);
    out->center = spx_d3_lerp_mid(out->v[0], out->v[1]);
    out->size = spx_d3_len(spx_d3_sub(out->v[1], out->v[0]));
}

void round_core_box(const spx_obb* box, spx_dvec3 origin, round_core* out)
{
    *out = (round_core){ 0 };
    out->kind = ROUND_BOX;
    out->vertex_count = 8;
    out->center = rel(box->center, origin);
    const float* h = &box->half_extents.x;
    for (int i = 0; i < 3; ++i) {
        out->axis[i] = spx_d3_from(box->rotation.col[i]);
        out->h[i] = h[i];
    }
    for (int k = 0; k < 8; ++k) {
        spx_dvec3 c = out->center;
        for (int i = 0; i < 3; ++i) c = spx_d3_mad(c, out->axis[i], ((k >> i) & 1) ? out->h[i] : -out->h[i]);
        out->v[k] = c;
    }
    out->size = 2.0 * sqrt(out->h[0] * out->h[0] + out->h[1] * out->h[1] + out->h[2] * out->h[2]);
}

void round_core_triangle(const spx_triangle* tri, spx_dvec3 origin, round_core* out)
{
    *out = (round_core){ 0 };
    out->kind = ROUND_TRIANGLE;
    out->vertex_count = 3;
    double longest2 = 0.0;
    for (int i = 0; i < 3; ++i) out->v[i] = rel(tri->v[i], origin);
    for (int i = 0; i < 3; ++i) longest2 = spx_dmax(longest2, spx_d3_len2(spx_d3_sub(out->v[(i + 1) % 3], out->v[i])));
    out->center = spx_d3_scale(spx_d3_add(spx_d3_add(out->v[0], out->v[1]), out->v[2]), 1.0 / 3.0);
    out->size = sqrt(longest2);
    spx_dvec3 n = spx_d3_cross(spx_d3_sub(out->v[1], out->v[0]), spx_d3_sub(out->v[2], out->v[0]));
    double nl = spx_d3_len(n);
    /* Segment-like (area below SPX_TRIANGLE_FLAT_RATIO of the longest edge squared): no reliable plane; its edges
       make it up. */
    if (nl > 2.0 * SPX_TRIANGLE_FLAT_RATIO * longest2) out->normal = spx_d3_scale(n, 1.0 / nl);
}

void round_core_shift(const round_core* in, spx_dvec3 shift, round_core* out)
{
    *out = *in;
    for (int i = 0; i < in->vertex_count; ++i) out->v[i] = spx_d3_add(in->v[i], shift);
    out->center = spx_d3_add(in->center, shift);
}

int round_core_edges(const round_core* c, int out[12][2])
{
    switch (c->kind) {
    case ROUND_POINT:
        return 0;
    case ROUND_SEGMENT:
        out[0][0] = 0;
        out[0][1] = 1;
        return 1;
    case ROUND_TRIANGLE:
        for (int j = 0; j < 3; ++j) {
            out[j][0] = j;
            out[j][1] = (j + 1) % 3;
        }
        return 3;
    case ROUND_BOX: {
        int n = 0;
        for (int k = 0; k < 8; ++k)
            for (int i = 0; i < 3; ++i)
                if (!((k >> i) & 1)) {
                    out[n][0] = k;
                    out[n][1] = k | (1 << i);
                    ++n;
                }
        return n;
    }
    }
    return 0;
}

/* ---- closest points ---- */

static spx_dvec3 closest_on_segment(spx_dvec3 p, spx_dvec3 s0, spx_dvec3 s1)
{
    spx_dvec3 e = spx_d3_sub(s1, s0);
    double ee = spx_d3_len2(e);
    if (ee == 0.0) return s0;
    return spx_d3_mad(s0, e, clamp01(spx_d3_dot(spx_d3_sub(p, s0), e) / ee));
}

/* Closest points of two segments (Ericson 5.1.9), denominator |d1 x d2|^2, not a e - b^2, which cancels for nearly
   parallel segments. */
static double closest_segments(spx_dvec3 p1, spx_dvec3 q1, spx_dvec3 p2, spx_dvec3 q2, spx_dvec3* c1, spx_dvec3* c2)
{
    spx_dvec3 d1 = spx_d3_sub(q1, p1), d2 = spx_d3_sub(q2, p2), r = spx_d3_sub(p1, p2);
    double a = spx_d3_len2(d1), e = spx_d3_len2(d2), f = spx_d3_dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a == 0.0 && e == 0.0) {
    } else if (a == 0.0) {
        t = clamp01(f / e);
    } else {
        double c = spx_d3_dot(d1, r);
        if (e == 0.0) {
            s = clamp01(-c / a);
        } else {
            double b = spx_d3_dot(d1, d2), denom = spx_d3_len2(spx_d3_cross(d1, d2));
            s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    *c1 = spx_d3_mad(p1, d1, s);
    *c2 = spx_d3_mad(p2, d2, t);
    return spx_d3_len(spx_d3_sub(*c2, *c1));
}

/* A point inside stays exactly itself, whatever rounding the nearly orthonormal axes carry. */
static spx_dvec3 closest_on_box(const round_core* b, spx_dvec3 p)
{
    spx_dvec3 d = spx_d3_sub(p, b->center), q = p;
    for (int i = 0; i < 3; ++i) {
        double x = spx_d3_dot(d, b->axis[i]);
        double excess = x < -b->h[i] ? x + b->h[i] : (x > b->h[i] ? x - b->h[i] : 0.0);
        q = spx_d3_mad(q, b->axis[i], -excess);
    }
    return q;
}

static bool in_prism(const round_core* t, spx_dvec3 p)
{
    for (int j = 0; j < 3; ++j) {
        spx_dvec3 e = spx_d3_sub(t->v[(j + 1) % 3], t->v[j]);
        if (spx_d3_dot(spx_d3_sub(p, t->v[j]), spx_d3_cross(t->normal, e)) < 0.0) return false;
    }
    return true;
}

static bool has_plane(const round_core* t) { return spx_d3_len2(t->normal) > 0.0; }

static spx_dvec3 closest_to_point(const round_core* b, spx_dvec3 p)
{
    switch (b->kind) {
    case ROUND_POINT:
        return b->v[0];
    case ROUND_SEGMENT:
        return closest_on_segment(p, b->v[0], b->v[1]);
    case ROUND_BOX:
        return closest_on_box(b, p);
    case ROUND_TRIANGLE:
        if (has_plane(b) && in_prism(b, p))
            return spx_d3_mad(p, b->normal, -spx_d3_dot(spx_d3_sub(p, b->v[0]), b->normal));
        {
            spx_dvec3 best = b->v[0];
            double best2 = INFINITY;
            for (int j = 0; j < 3; ++j) {
                spx_dvec3 q = closest_on_segment(p, b->v[j], b->v[(j + 1) % 3]);
                double d2 = spx_d3_len2(spx_d3_sub(q, p));
                if (d2 < best2) {
                    best2 = d2;
                    best = q;
                }
            }
            return best;
        }
    }
    return p;
}

/* Where a segment meets a box or triangle: the middle of its part inside the box, or its crossing inside the
   triangle. Coplanar crossings are left to the edges' closest points (distance 0). */
static bool segment_meets(const round_core* b, spx_dvec3 a0, spx_dvec3 a1, spx_dvec3* out)
{
    spx_dvec3 u = spx_d3_sub(a1, a0);
    if (b->kind == ROUND_BOX) {
        double lo = 0.0, hi = 1.0;
        spx_dvec3 o = spx_d3_sub(a0, b->center);
        for (int i = 0; i < 3; ++i) {
            double p = spx_d3_dot(o, b->axis[i]), dp = spx_d3_dot(u, b->axis[i]);
            if (dp == 0.0) {
                if (fabs(p) > b->h[i]) return false;
                continue;
            }
            double t0 = (-b->h[i] - p) / dp, t1 = (b->h[i] - p) / dp;
            if (t0 > t1) {
                double s = t0;
                t0 = t1;
                t1 = s;
            }
            lo = spx_dmax(lo, t0);
            hi = spx_dmin(hi, t1);
            if (lo > hi) return false;
        }
        *out = spx_d3_mad(a0, u, 0.5 * (lo + hi));
        return true;
    }
    if (b->kind == ROUND_TRIANGLE && has_plane(b)) {
        double da = spx_d3_dot(spx_d3_sub(a0, b->v[0]), b->normal), db = spx_d3_dot(spx_d3_sub(a1, b->v[0]), b->normal);
        if ((da > 0.0 && db > 0.0) || (da < 0.0 && db < 0.0)) return false;
        if (da == 0.0 && db == 0.0) {
            /* In the plane: the middle of its part inside the three edges. */
            double lo = 0.0, hi = 1.0;
            for (int j = 0; j < 3; ++j) {
                spx_dvec3 m = spx_d3_cross(b->normal, spx_d3_sub(b->v[(j + 1) % 3], b->v[j]));
                double p = spx_d3_dot(spx_d3_sub(a0, b->v[j]), m), dp = spx_d3_dot(u, m);
                if (dp == 0.0) {
                    if (p < 0.0) return false;
                    continue;
                }
                double t = -p / dp;
                if (dp > 0.0) lo = spx_dmax(lo, t);
                else hi = spx_dmin(hi, t);
                if (lo > hi) return false;
            }
            *out = spx_d3_mad(a0, u, 0.5 * (lo + hi));
            return true;
        }
        spx_dvec3 x = spx_d3_mad(a0, u, da / (da - db));
        if (!in_prism(b, x)) return false;
        *out = x;
        return true;
    }
    return false;
}

double round_closest(const round_core* a, const round_core* b, spx_dvec3* out_pa, spx_dvec3* out_pb)
{
    if (a->kind == ROUND_POINT) {
        *out_pa = a->v[0];
        *out_pb = closest_to_point(b, a->v[0]);
        return spx_d3_len(spx_d3_sub(*out_pb, *out_pa));
    }
    const spx_dvec3 a0 = a->v[0], a1 = a->v[1];
    spx_dvec3 x;
    if (segment_meets(b, a0, a1, &x)) {
        *out_pa = *out_pb = x;
        return 0.0;
    }
    if (b->kind == ROUND_POINT) {
        *out_pb = b->v[0];
        *out_pa = closest_on_segment(b->v[0], a0, a1);
        return spx_d3_len(spx_d3_sub(*out_pb, *out_pa));
    }
    double best = INFINITY;
    /* Apart: a segment end, or the segment against an edge of b, is closest. */
    for (int k = 0; k < 2; ++k) {
        spx_dvec3 q = closest_to_point(b, a->v[k]);
        double d = spx_d3_len(spx_d3_sub(q, a->v[k]));
        if (d < best) {
            best = d;
            *out_pa = a->v[k];
            *out_pb = q;
        }
    }
    int edges[12][2];
    int count = round_core_edges(b, edges);
    for (int e = 0; e < count; ++e) {
        spx_dvec3 c1, c2;
        double d = closest_segments(a0, a1, b->v[edges[e][0]], b->v[edges[e][1]], &c1, &c2);
        if (d < best) {
            best = d;
            *out_pa = c1;
            *out_pb = c2;
        }
    }
    if (best == 0.0 && b->kind == ROUND_SEGMENT) {
        /* Segments on one line: the middle of their common part. */
        spx_dvec3 ua = spx_d3_sub(a1, a0), ub = spx_d3_sub(b->v[1], b->v[0]);
        double uu = spx_d3_len2(ua);
        if (uu > 0.0 && spx_d3_len2(spx_d3_cross(ua, ub)) == 0.0) {
            double s0 = spx_d3_dot(spx_d3_sub(b->v[0], a0), ua) / uu, s1 = spx_d3_dot(spx_d3_sub(b->v[1], a0), ua) / uu;
            double lo = spx_dmax(0.0, spx_dmin(s0, s1)), hi = spx_dmin(1.0, spx_dmax(s0, s1));
            if (lo <= hi) *out_pa = *out_pb = spx_d3_mad(a0, ua, 0.5 * (lo + hi));
        }
    }
    return best;
}

/* ---- least overlap of cores that meet ---- */

static void project(const round_core* c, spx_dvec3 m, double* lo, double* hi)
{
    if (c->kind == ROUND_BOX) {
        double mid = spx_d3_dot(c->center, m), r = 0.0;
        for (int i = 0; i < 3; ++i) r += c->h[i] * fabs(spx_d3_dot(c->axis[i], m));
        *lo = mid - r;
        *hi = mid + r;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < c->vertex_count; ++i) {
        double x = spx_d3_dot(c->v[i], m);
        *lo = spx_dmin(*lo, x);
        *hi = spx_dmax(*hi, x);
    }
}

/* A unit vector perpendicular to u (nonzero), the same for u and -u up to sign. */
static spx_dvec3 any_perpendicular(spx_dvec3 u)
{
    double ax = fabs(u.x), ay = fabs(u.y), az = fabs(u.z);
    spx_dvec3 k = ax <= ay && ax <= az ? spx_d3(1, 0, 0) : (ay <= az ? spx_d3(0, 1, 0) : spx_d3(0, 0, 1));
    spx_dvec3 p = spx_d3_cross(u, k);
    return spx_d3_scale(p, 1.0 / spx_d3_len(p));
}

/* First nonzero coordinate positive: a choice independent of order. */
static spx_dvec3 canonical_sign(spx_dvec3 n)
{
    double s = n.x != 0.0 ? n.x : (n.y != 0.0 ? n.y : n.z);
    return s < 0.0 ? spx_d3_neg(n) : n;
}

static spx_dvec3 fallback_direction(const round_core* a, const round_core* b, spx_dvec3 hint)
{
    spx_dvec3 u = spx_d3(0, 0, 0);
    if (a->kind == ROUND_SEGMENT) u = spx_d3_sub(a->v[1], a->v[0]);
    if (spx_d3_len2(u) == 0.0 && b->kind == ROUND_SEGMENT) u = spx_d3_sub(b->v[1], b->v[0]);
    const double uu = spx_d3_len2(u);
    const spx_dvec3 tries[2] = { hint, spx_d3_sub(b->center, a->center) };
    for (int k = 0; k < 2; ++k) {
        spx_dvec3 w = tries[k];
        if (uu > 0.0) w = spx_d3_mad(w, u, -spx_d3_dot(w, u) / uu);
        double l = spx_d3_len(w);
        /* Only a direction well above the coordinates' rounding counts. */
        if (l > 1e-12 * (spx_d3_len(tries[k]) + 1e-300)) return spx_d3_scale(w, 1.0 / l);
    }
    return uu > 0.0 ? canonical_sign(any_perpendicular(u)) : spx_d3(1, 0, 0);
}

void round_core_penetration(const round_core* a, const round_core* b, spx_dvec3 hint, spx_dvec3* out_normal,
                            double* out_depth, int* out_axis)
{
    spx_dvec3 axes[8];
    double edge2[8]; /* for a cross product, |edge a|^2 |edge b|^2; 0 for a face normal */
    int count = 0;
    const spx_dvec3 ua = a->kind == ROUND_SEGMENT ? spx_d3_sub(a->v[1], a->v[0]) : spx_d3(0, 0, 0);
    const double uaa = spx_d3_len2(ua);
    if (b->kind == ROUND_BOX) {
        for (int i = 0; i < 3; ++i) {
            edge2[count] = 0.0;
            axes[count++] = b->axis[i];
        }
        for (int i = 0; i < 3 && uaa > 0.0; ++i) {
            edge2[count] = uaa;
            axes[count++] = spx_d3_cross(ua, b->axis[i]);
        }
    } else if (b->kind == ROUND_TRIANGLE) {
        if (has_plane(b)) {
            edge2[count] = 0.0;
            axes[count++] = b->normal;
        }
        for (int j = 0; j < 3 && uaa > 0.0; ++j) {
            spx_dvec3 e = spx_d3_sub(b->v[(j + 1) % 3], b->v[j]);
            edge2[count] = uaa * spx_d3_len2(e);
            axes[count++] = spx_d3_cross(ua, e);
        }
    } else if (b->kind == ROUND_SEGMENT && uaa > 0.0) {
        spx_dvec3 e = spx_d3_sub(b->v[1], b->v[0]);
        edge2[count] = uaa * spx_d3_len2(e);
        axes[count++] = spx_d3_cross(ua, e);
    }
    double best = INFINITY;
    int best_axis = -1;
    spx_dvec3 best_n = spx_d3(0, 0, 0);
    for (int k = 0; k < count; ++k) {
        double l2 = spx_d3_len2(axes[k]);
        /* Edges within SPX_PARALLEL_SINE of parallel give no axis: their cross product is noise. */
        if (!(l2 > 0.0) || (edge2[k] > 0.0 && !(l2 > SPX_PARALLEL_SINE * SPX_PARALLEL_SINE * edge2[k]))) continue;
        spx_dvec3 m = spx_d3_scale(axes[k], 1.0 / sqrt(l2));
        double alo, ahi, blo, bhi;
        project(a, m, &alo, &ahi);
        project(b, m, &blo, &bhi);
        double pos = ahi - blo, neg = bhi - alo, d = spx_dmin(pos, neg);
        /* Overlaps within 1e-12 tie; the earlier axis keeps it. */
        if (d < best - 1e-12 * (fabs(best) + fabs(d) + 1e-300) || best_axis < 0) {
            spx_dvec3 n = m;
            if (neg < pos) n = spx_d3_neg(m);
            else if (neg == pos) {
                /* Both ways out equally deep: the way B moves, then the way from A's centre to B's. */
                double s = spx_d3_dot(hint, m);
                if (s == 0.0) s = spx_d3_dot(spx_d3_sub(b->center, a->center), m);
                if (s < 0.0 || (s == 0.0 && canonical_sign(m).x != m.x)) n = spx_d3_neg(m);
            }
            best = d;
            best_axis = k;
            best_n = n;
        }
    }
    if (best_axis < 0) {
        *out_normal = fallback_direction(a, b, hint);
        *out_depth = 0.0;
        *out_axis = 0;
        return;
    }
    *out_normal = best_n;
    *out_depth = spx_dmax(best, 0.0);
    *out_axis = 1 + best_axis;
}

/* ---- a pair of pieces ---- */

spx_result round_piece_check(round_piece p)
{
    switch (p.kind) {
    case ROUND_POINT:
        return spx_sphere_validate((const spx_sphere*)p.shape);
    case ROUND_SEGMENT:
        return spx_capsule_validate((const spx_capsule*)p.shape);
    case ROUND_BOX:
        return spx_obb_validate((const spx_obb*)p.shape);
    case ROUND_TRIANGLE:
        return spx_triangle_validate((const spx_triangle*)p.shape);
    }
    return SPX_ERR_INVALID_ARGUMENT;
}

static void make_core(round_piece p, spx_dvec3 origin, round_core* out, double* radius)
{
    *radius = 0.0;
    switch (p.kind) {
    case ROUND_POINT: {
        const spx_sphere* s = p.shape;
        round_core_point(s->center, origin, out);
        *radius = s->radius;
        break;
    }
    case ROUND_SEGMENT: {
        const spx_capsule* c = p.shape;
        round_core_segment(c->p[0], c->p[1], origin, out);
        *radius = c->radius;
        break;
    }
    case ROUND_BOX:
        round_core_box((const spx_obb*)p.shape, origin, out);
        break;
    case ROUND_TRIANGLE:
        round_core_triangle((const spx_triangle*)p.shape, origin, out);
        break;
    }
}

void round_pair_make(round_piece a, round_piece b, round_pair* out)
{
    const spx_vec3 first =
        a.kind == ROUND_POINT ? ((const spx_sphere*)a.shape)->center : ((const spx_capsule*)a.shape)->p[0];
    out->origin = spx_d3_from(first);
    make_core(a, out->origin, &out->a, &out->ra);
    make_core(b, out->origin, &out->b, &out->rb);
    out->size = spx_dmax(out->a.size + 2.0 * out->ra, out->b.size + 2.0 * out->rb);
}

spx_dvec3 round_closest_to_point(const round_core* c, spx_dvec3 p) { return closest_to_point(c, p); }

void round_contact_normal(const round_pair* p, const round_core* b, spx_dvec3 hint, spx_dvec3* out_normal,
                          double* out_separation, int* out_axis, spx_dvec3* out_pa, spx_dvec3* out_pb)
{
    double d = round_closest(&p->a, b, out_pa, out_pb);
    /* Cores closer than their coordinates' rounding (magnitude taken in the world, independent of the origin) meet:
       no direction. */
    double scale =
        p->size + spx_d3_len(spx_d3_add(p->origin, p->a.center)) + spx_d3_len(spx_d3_add(p->origin, b->center));
    if (d > 1e-12 * scale) {
        *out_normal = spx_d3_scale(spx_d3_sub(*out_pb, *out_pa), 1.0 / d);
        *out_separation = d;
        *out_axis = 0;
        return;
    }
    double depth;
    round_core_penetration(&p->a, b, hint, out_normal, &depth, out_axis);
    *out_separation = -depth;
}

spx_dvec3 round_closest_on_segment(spx_dvec3 p, spx_dvec3 s0, spx_dvec3 s1) { return closest_on_segment(p, s0, s1); }

double round_segments_closest(spx_dvec3 p1, spx_dvec3 q1, spx_dvec3 p2, spx_dvec3 q2, spx_dvec3* c1, spx_dvec3* c2)
{
    return closest_segments(p1, q1, p2, q2, c1, c2);
}
