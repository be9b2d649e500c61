/* Contact manifolds of spheres and capsules: one point, or a capsule's segment clipped to a face or a parallel
 * capsule (two points with their own depths) so it cannot rock. See docs/shapes.md#contacts. */
#include "round_core.h"
#include "geometry/validate.h"
#include <string.h>

#define MANIFOLD_FACE_COS 0.9999      /* about 0.8 degrees */
#define MANIFOLD_PARALLEL_SINE 0.0175 /* about 1 degree */

typedef struct clip_face {
    spx_dvec3 normal; /* unit, B's face towards A (opposite the manifold normal) */
    double height;    /* x . normal = height */
    int side_count;
    spx_dvec3 side[3]; /* x . side[k] in [side_lo[k], side_hi[k]] */
    double side_lo[3], side_hi[3];
} clip_face;

static bool face_of(const round_core* b, spx_dvec3 n, clip_face* f)
{
    if (b->kind == ROUND_BOX) {
        int best = 0;
        for (int i = 1; i < 3; ++i)
            if (fabs(spx_d3_dot(b->axis[i], n)) > fabs(spx_d3_dot(b->axis[best], n))) best = i;
        double c = spx_d3_dot(b->axis[best], n);
        if (fabs(c) < MANIFOLD_FACE_COS) return false;
        f->normal = c > 0.0 ? spx_d3_neg(b->axis[best]) : b->axis[best];
        f->height = spx_d3_dot(b->center, f->normal) + b->h[best];
        f->side_count = 0;
        for (int i = 0; i < 3; ++i) {
            if (i == best) continue;
            double mid = spx_d3_dot(b->center, b->axis[i]);
            f->side[f->side_count] = b->axis[i];
            f->side_lo[f->side_count] = mid - b->h[i];
            f->side_hi[f->side_count++] = mid + b->h[i];
        }
        return true;
    }
    if (b->kind == ROUND_TRIANGLE && spx_d3_len2(b->normal) > 0.0) {
        double c = spx_d3_dot(b->normal, n);
        if (fabs(c) < MANIFOLD_FACE_COS) return false;
        f->normal = c > 0.0 ? spx_d3_neg(b->normal) : b->normal;
        f->height = spx_d3_dot(b->v[0], f->normal);
        f->side_count = 3;
        for (int j = 0; j < 3; ++j) {
            f->side[j] = spx_d3_cross(b->normal, spx_d3_sub(b->v[(j + 1) % 3], b->v[j]));
            f->side_lo[j] = spx_d3_dot(b->v[j], f->side[j]);
            f->side_hi[j] = INFINITY;
        }
        return true;
    }
    return false;
}

static void add_point(spx_manifold* m, spx_dvec3 origin, spx_dvec3 local, double depth, uint32_t id)
{
    spx_manifold_point* q = &m->points[m->point_count++];
    q->point = spx_d3_to_float(spx_d3_add(origin, local));
    q->depth = (float)depth;
    q->id = id;
}

/* Two points along capsule A lying on B's face or segment; false for one point. A stretch whose deepest end falls
   short of the least overlap `depth` by over 1e-3 of it (a segment through the box) is not the contact. Bit k of
   *clipped: end k was cut by B. */
static bool capsule_stretch(const round_pair* p, spx_dvec3 n, double depth, double margin, spx_manifold* out,
                            unsigned* clipped)
{
    const spx_dvec3 a0 = p->a.v[0], ua = spx_d3_sub(p->a.v[1], a0);
    const double l2 = spx_d3_len2(ua), R = p->ra + p->rb;
    if (l2 == 0.0) return false;
    double s0 = 0.0, s1 = 1.0, gap[2];
    spx_dvec3 x[2], normal;
    clip_face f;
    if (face_of(&p->b, n, &f)) {
        for (int k = 0; k < f.side_count; ++k)
            if (!round_clip_slab(a0, ua, f.side[k], f.side_lo[k], f.side_hi[k], &s0, &s1)) return false;
        normal = spx_d3_neg(f.normal);
        for (int k = 0; k < 2; ++k) {
            x[k] = spx_d3_mad(a0, ua, k ? s1 : s0);
            gap[k] = spx_d3_dot(x[k], f.normal) - f.height;
        }
    } else if (p->b.kind == ROUND_SEGMENT) {
        const spx_dvec3 b0 = p->b.v[0], ub = spx_d3_sub(p->b.v[1], b0);
        const double m2 = spx_d3_len2(ub);
        if (m2 == 0.0) return false;
        double sine2 = spx_d3_len2(spx_d3_cross(ua, ub)) / (l2 * m2);
        if (sine2 > MANIFOLD_PARALLEL_SINE * MANIFOLD_PARALLEL_SINE) return false;
        if (!round_clip_slab(spx_d3_sub(a0, b0), ua, ub, 0.0, m2, &s0, &s1)) return false;
        normal = n;
        for (int k = 0; k < 2; ++k) {
            x[k] = spx_d3_mad(a0, ua, k ? s1 : s0);
            spx_dvec3 q = round_closest_to_point(&p->b, x[k]);
            gap[k] = spx_d3_dot(spx_d3_sub(q, x[k]), n);
        }
    } else {
        return false;
    }
    /* A clipped stretch shorter than 1e-6 of the size is one point. */
    if ((s1 - s0) * sqrt(l2) <= 1e-6 * p->size) return false;
    if (R - spx_dmin(gap[0], gap[1]) < depth - 1e-3 * fabs(depth) - 1e-9 * p->size) return false;
    out->normal = spx_d3_to_float(normal);
    *clipped = 0;
    for (int k = 0; k < 2; ++k) {
        if (R - gap[k] < -margin) continue;
        if ((k ? s1 : s0) != (double)k) *clipped |= 1u << out->point_count;
        add_point(out, p->origin, spx_d3_mad(x[k], normal, 0.5 * (p->ra + gap[k] - p->rb)), R - gap[k], (uint32_t)k);
    }
    return true;
}

/* A capsule touching at one point turns about it: each far end apart and within the margin is a speculative point,
   its gap the travel along the normal before it meets B (the solver's constraint direction); ends passing B's side
   give none. Ids 0, 1: A's ends; 3, 4: B's when a capsule, so either order gives the same points. */
static void capsule_ends(const round_pair* p, spx_dvec3 n, double margin, spx_dvec3 pa, spx_dvec3 pb, spx_manifold* out)
{
    const double R = p->ra + p->rb, tiny = 1e-6 * p->size;
    for (int side = 0; side < 2; ++side) {
        if (side == 1 && p->b.kind != ROUND_SEGMENT) break;
        const round_core* mine = side ? &p->b : &p->a;
        const round_core* other = side ? &p->a : &p->b;
        const spx_dvec3 touch = side ? pb : pa;
        for (int k = 0; k < 2; ++k) {
            const spx_dvec3 x = mine->v[k];
            if (spx_d3_len2(spx_d3_sub(x, touch)) <= tiny * tiny) continue;
            if (!(spx_d3_len2(spx_d3_sub(round_closest_to_point(other, x), x)) > R * R)) continue;
            /* Each end moves along the normal until within R of the other core. */
            const spx_dvec3 dir = side ? spx_d3_neg(n) : n;
            double gap, t1;
            if (!round_line_interval(other, R, x, dir, 0.0, margin, &gap, &t1) || !(gap > 0.0)) continue;
            const spx_dvec3 mid = spx_d3_mad(x, dir, (side ? p->rb : p->ra) + 0.5 * gap);
            if (out->point_count == SPX_MAX_MANIFOLD_POINTS) {
                /* Full (two crossing capsules): the nearer ends are kept. */
                int far = 1;
                for (int i = 2; i < out->point_count; ++i)
                    if (out->points[i].depth < out->points[far].depth) far = i;
                if (!(-gap > out->points[far].depth)) continue;
                out->points[far] = out->points[--out->point_count];
            }
            add_point(out, p->origin, mid, -gap, (uint32_t)(side ? 3 + k : k));
        }
    }
}

unsigned round_pair_manifold(const round_pair* p, double margin, spx_dvec3 n, double sep, spx_dvec3 pa, spx_dvec3 pb,
                             spx_manifold* out)
{
    memset(out, 0, sizeof *out);
    const double R = p->ra + p->rb;
    if (sep > R + margin) return 0;
    unsigned clipped = 0;
    if (p->a.kind == ROUND_SEGMENT && capsule_stretch(p, n, R - sep, margin, out, &clipped) && out->point_count > 0)
        return clipped;
    out->point_count = 0;
    out->normal = spx_d3_to_float(n);
    spx_dvec3 local =
        sep > 0.0 ? spx_d3_scale(spx_d3_add(spx_d3_mad(pa, n, p->ra), spx_d3_mad(pb, n, -p->rb)), 0.5) : pa;
    add_point(out, p->origin, local, R - sep, 2u);
    if (p->a.kind == ROUND_SEGMENT) capsule_ends(p, n, margin, pa, pb, out);
    return 0;
}

unsigned round_pair_face_manifold(const round_pair* p, double margin, spx_manifold* out)
{
    memset(out, 0, sizeof *out);
    clip_face f;
    if (p->b.kind != ROUND_TRIANGLE || spx_d3_len2(p->b.normal) == 0.0) return 0;
    /* The face turned towards A's core (its first point's side). */
    const double above = spx_d3_dot(spx_d3_sub(p->a.v[0], p->b.v[0]), p->b.normal);
    if (!face_of(&p->b, above >= 0.0 ? spx_d3_neg(p->b.normal) : p->b.normal, &f)) return 0;
    const spx_dvec3 a0 = p->a.v[0];
    const spx_dvec3 ua = p->a.kind == ROUND_SEGMENT ? spx_d3_sub(p->a.v[1], a0) : spx_d3(0, 0, 0);
    double s0 = 0.0, s1 = p->a.kind == ROUND_SEGMENT ? 1.0 : 0.0;
    for (int k = 0; k < f.side_count; ++k)
        if (!round_clip_slab(a0, ua, f.side[k], f.side_lo[k], f.side_hi[k], &s0, &s1)) return 0;
    const spx_dvec3 normal = spx_d3_neg(f.normal);
    const double R = p->ra + p->rb;
    const int ends = s1 - s0 > 1e-6 * (p->size > 0.0 ? p->size : 1.0) ? 2 : 1;
    unsigned clipped = 0;
    out->normal = spx_d3_to_float(normal);
    for (int k = 0; k < ends; ++k) {
        const double s = k ? s1 : s0;
        const spx_dvec3 x = spx_d3_mad(a0, ua, s);
        const double gap = spx_d3_dot(x, f.normal) - f.height;
        if (R - gap < -margin) continue;
        if (ends == 2 && s != (double)k) clipped |= 1u << out->point_count;
        add_point(out, p->origin, spx_d3_mad(x, normal, 0.5 * (p->ra + gap - p->rb)), R - gap,
                  ends == 2 ? (uint32_t)k : 2u);
    }
    return clipped;
}

static spx_result manifold(round_piece a, round_piece b, float margin, spx_manifold* out)
{
    if (!out || !a.shape || !b.shape) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r =
        spx_first_error(spx_first_error(round_piece_check(a), round_piece_check(b)), spx_check_margin(margin));
    if (r != SPX_OK) return r;
    round_pair p;
    round_pair_make(a, b, &p);
    spx_dvec3 n, pa, pb;
    double sep;
    int axis;
    round_contact_normal(&p, &p.b, spx_d3(0, 0, 0), &n, &sep, &axis, &pa, &pb);
    (void)round_pair_manifold(&p, margin, n, sep, pa, pb, out);
    return SPX_OK;
}

#define ROUND_MANIFOLD(name, TA, KA, TB, KB)                                                          \
    SPX_API spx_result spx_manifold_##name(const TA* a, const TB* b, float margin, spx_manifold* out) \
    {                                                                                                 \
        return manifold(ROUND_PIECE(KA, a), ROUND_PIECE(KB, b), margin, out);                         \
    }

ROUND_PAIRS(ROUND_MANIFOLD)
