/* Spheres and capsules against convex hulls (round.h) against a brute force of this file's own, and
 * the same problems asked other ways.
 *
 * The brute force knows the hull only as its corners (spx_hull_get_corner) in the world, in double: its
 * facets are every triangle of corners with all corners on one side of its plane, the distance of a
 * point or a segment from the hull is the least over those triangles (zero where the segment, clipped
 * by every facet's plane, is left with a part inside), and where the cores meet the depth is the least
 * two-sided overlap over the facet normals and the segment crossed with every pair of corners (a
 * superset of the Minkowski difference's faces, so the least is exact). The signed distance less the
 * radius is convex in time: the first contact comes from fine steps, golden-section search and
 * bisection, as tests/support/round_cases.c does for the other round pieces.
 *
 * Families: random hulls of 4 to 16 points with spheres and capsules aimed at them; box hulls on a
 * quarter-metre grid (exact touches, faces parallel to the capsule) also checked against
 * spx_*_sphere_obb and spx_*_capsule_obb; capsules parallel to a hull face or edge and spheres aimed
 * at a corner or an edge; degenerate input (no motion, equal motion, radius 0, equal capsule ends);
 * the random problem 1,000 to 5,000 m from the origin. Properties: the problem moved by a common
 * offset and velocity, the capsule's ends swapped, the hull's points shuffled, the problem mirrored.
 * Accepted as docs/tolerances.md, "Spheres and capsules"; every worst value is printed. */
#include "support/test.h"
#include "support/cases.h"
#include "support/pieces.h"
#include "support/reference.h"
#include <sepax/hull.h>
#include <sepax/round.h>
#include <float.h>
#include <stdlib.h>

#define MAX_POINTS 16
#define MAX_FACETS 600
#define CLEAR_FRACTION 1e-6
#define MAX_REPORTS 12

enum { FAM_RANDOM, FAM_GRID, FAM_PARALLEL, FAM_DEGENERATE, FAM_FAR, FAM_COUNT };
static const char* family_names[FAM_COUNT] = { "random", "grid", "parallel", "degenerate", "far" };

typedef struct problem {
    bool capsule;
    int family;
    uint64_t seed;
    spx_vec3 cloud[MAX_POINTS];
    int count;
    bool is_box; /* the cloud is a box's 8 corners: `box` is the same piece */
    spx_obb box;
    spx_vec3 position;
    spx_mat3 rotation;
    spx_capsule a; /* a sphere: p[0] == p[1] */
    spx_vec3 va, vb;
    float tmax;
} problem;

typedef struct built {
    spx_hull* hull;
    spx_placed_hull placed;
} built;

static int build(const problem* p, built* out)
{
    spx_hull_def def = spx_default_hull_def();
    def.points = p->cloud;
    def.point_count = (uint32_t)p->count;
    out->hull = NULL;
    if (spx_hull_create(&def, &out->hull) != SPX_OK) return 1;
    out->placed = (spx_placed_hull){ out->hull, p->position, p->rotation };
    return 0;
}

static spx_sphere sphere_of(const problem* p) { return (spx_sphere){ p->a.p[0], p->a.radius }; }

static spx_result ask_sweep(const problem* p, const built* b, spx_sweep_hit* h)
{
    if (p->capsule) return spx_sweep_capsule_hull(&p->a, p->va, &b->placed, p->vb, p->tmax, h);
    const spx_sphere s = sphere_of(p);
    return spx_sweep_sphere_hull(&s, p->va, &b->placed, p->vb, p->tmax, h);
}

static spx_result ask_penetration(const problem* p, const built* b, spx_penetration* out, bool* overlap)
{
    if (p->capsule) {
        spx_result r = spx_penetration_capsule_hull(&p->a, &b->placed, out);
        return r != SPX_OK ? r : spx_overlap_capsule_hull(&p->a, &b->placed, overlap);
    }
    const spx_sphere s = sphere_of(p);
    spx_result r = spx_penetration_sphere_hull(&s, &b->placed, out);
    return r != SPX_OK ? r : spx_overlap_sphere_hull(&s, &b->placed, overlap);
}

static spx_result ask_manifold(const problem* p, const built* b, float margin, spx_manifold* m)
{
    if (p->capsule) return spx_manifold_capsule_hull(&p->a, &b->placed, margin, m);
    const spx_sphere s = sphere_of(p);
    return spx_manifold_sphere_hull(&s, &b->placed, margin, m);
}

/* ---- the brute force ---------------------------------------------------------------------------- */

typedef struct vec {
    double x[3];
} vec;

static vec V(double x, double y, double z) { return (vec){ { x, y, z } }; }
static vec vf(spx_vec3 a) { return V(a.x, a.y, a.z); }
static vec add(vec a, vec b) { return V(a.x[0] + b.x[0], a.x[1] + b.x[1], a.x[2] + b.x[2]); }
static vec sub(vec a, vec b) { return V(a.x[0] - b.x[0], a.x[1] - b.x[1], a.x[2] - b.x[2]); }
static vec scl(vec a, double s) { return V(a.x[0] * s, a.x[1] * s, a.x[2] * s); }
static double dot(vec a, vec b) { return a.x[0] * b.x[0] + a.x[1] * b.x[1] + a.x[2] * b.x[2]; }
static double len(vec a) { return sqrt(dot(a, a)); }
static vec cross(vec a, vec b)
{
    return V(a.x[1] * b.x[2] - a.x[2] * b.x[1], a.x[2] * b.x[0] - a.x[0] * b.x[2], a.x[0] * b.x[1] - a.x[1] * b.x[0]);
}
static double clamp01(double t) { return t < 0 ? 0 : (t > 1 ? 1 : t); }

typedef struct hull_ref {
    int n;
    vec c[SPX_HULL_MAX_CORNERS]; /* corners, world */
    int facets;
    int tri[MAX_FACETS][3];
    vec normal[MAX_FACETS]; /* unit, outward */
    double offset[MAX_FACETS];
    vec a0, a1; /* A's core at t = 0 */
    double r;
    vec va, vb;
    double tmax, size;
} hull_ref;

static void ref_make(const problem* p, const built* b, hull_ref* r)
{
    spx_hull_info info;
    spx_hull_get_info(b->hull, &info);
    r->n = (int)info.corner_count;
    vec axes[3];
    for (int k = 0; k < 3; ++k) axes[k] = vf(p->rotation.col[k]);
    double diam = 0.0;
    for (int i = 0; i < r->n; ++i) {
        spx_vec3 c;
        spx_hull_get_corner(b->hull, (uint32_t)i, &c);
        r->c[i] = add(vf(p->position), add(add(scl(axes[0], c.x), scl(axes[1], c.y)), scl(axes[2], c.z)));
        for (int j = 0; j < i; ++j) diam = fmax(diam, len(sub(r->c[i], r->c[j])));
    }
    r->facets = 0;
    const double eps = 1e-9 * diam;
    for (int i = 0; i < r->n; ++i)
        for (int j = i + 1; j < r->n; ++j)
            for (int k = j + 1; k < r->n; ++k) {
                vec nn = cross(sub(r->c[j], r->c[i]), sub(r->c[k], r->c[i]));
                double l = len(nn);
                if (!(l > 1e-12 * diam * diam)) continue;
                nn = scl(nn, 1.0 / l);
                double hi = -INFINITY, lo = INFINITY;
                for (int m = 0; m < r->n; ++m) {
                    double s = dot(nn, sub(r->c[m], r->c[i]));
                    hi = fmax(hi, s);
                    lo = fmin(lo, s);
                }
                if (hi > eps && lo < -eps) continue;
                if (hi > eps) nn = scl(nn, -1.0);
                if (r->facets == MAX_FACETS) continue;
                r->tri[r->facets][0] = i, r->tri[r->facets][1] = j, r->tri[r->facets][2] = k;
                r->normal[r->facets] = nn;
                r->offset[r->facets++] = dot(nn, r->c[i]);
            }
    r->a0 = vf(p->a.p[0]);
    r->a1 = vf(p->a.p[1]);
    r->r = p->a.radius;
    r->va = vf(p->va);
    r->vb = vf(p->vb);
    r->tmax = p->tmax;
    const double core = len(sub(r->a1, r->a0));
    r->size = fmax(fmax(diam, core + 2.0 * r->r), fmax(len(r->va), fmax(len(r->vb), len(sub(r->vb, r->va)))) * r->tmax);
}

/* Closest point of triangle abc to p (Ericson 5.1.5). */
static vec closest_triangle(vec p, vec a, vec b, vec c)
{
    vec ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
    double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    vec bp = sub(p, b);
    double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, scl(ab, d1 / (d1 - d3)));
    vec cp = sub(p, c);
    double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, scl(ac, d2 / (d2 - d6)));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return add(b, scl(sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
    double den = 1.0 / (va + vb + vc);
    return add(a, add(scl(ab, vb * den), scl(ac, vc * den)));
}

/* Closest points of segments p1q1 and p2q2 (Ericson 5.1.9). */
static double closest_segs(vec p1, vec q1, vec p2, vec q2, vec* c1, vec* c2)
{
    vec d1 = sub(q1, p1), d2 = sub(q2, p2), r = sub(p1, p2);
    double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r), s = 0, t = 0;
    if (a <= 1e-300 && e <= 1e-300) {
    } else if (a <= 1e-300) {
        t = clamp01(f / e);
    } else {
        double c = dot(d1, r);
        if (e <= 1e-300) {
            s = clamp01(-c / a);
        } else {
            double b = dot(d1, d2), den = a * e - b * b;
            s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
            t = (b * s + f) / e;
            if (t < 0) t = 0, s = clamp01(-c / a);
            else if (t > 1) t = 1, s = clamp01((b - c) / a);
        }
    }
    *c1 = add(p1, scl(d1, s));
    *c2 = add(p2, scl(d2, t));
    return len(sub(*c2, *c1));
}

/* Signed distance of the core a0-a1 from the hull moved by `shift`: the distance, or minus the least
   overlap where they meet; witnesses (on the core, on the hull) when apart. */
static double core_sd(const hull_ref* r, vec a0, vec a1, vec* wa, vec* wb)
{
    vec u = sub(a1, a0);
    double lo = 0, hi = 1;
    for (int f = 0; f < r->facets && lo <= hi; ++f) {
        double p = dot(r->normal[f], a0) - r->offset[f], dp = dot(r->normal[f], u);
        if (dp == 0) {
            if (p > 0) lo = 2;
        } else if (dp > 0) hi = fmin(hi, -p / dp);
        else lo = fmax(lo, -p / dp);
    }
    if (lo > hi) {
        double best = INFINITY;
        for (int f = 0; f < r->facets; ++f) {
            vec a = r->c[r->tri[f][0]], b = r->c[r->tri[f][1]], c = r->c[r->tri[f][2]];
            for (int k = 0; k < 2; ++k) {
                vec x = k ? a1 : a0, y = closest_triangle(x, a, b, c);
                double d = len(sub(y, x));
                if (d < best) best = d, *wa = x, *wb = y;
            }
            const vec tv[3] = { a, b, c };
            for (int k = 0; k < 3; ++k) {
                vec x, y;
                double d = closest_segs(a0, a1, tv[k], tv[(k + 1) % 3], &x, &y);
                if (d < best) best = d, *wa = x, *wb = y;
            }
        }
        if (best > 0) return best;
    }
    /* They meet: the least two-sided overlap over the facet normals and u x (ci - cj). */
    double depth = INFINITY;
    for (int f = 0; f < r->facets + r->n * r->n; ++f) {
        vec m;
        if (f < r->facets) m = r->normal[f];
        else {
            int i = (f - r->facets) / r->n, j = (f - r->facets) % r->n;
            if (j <= i) continue;
            m = cross(u, sub(r->c[i], r->c[j]));
            double l = len(m);
            if (!(l > 1e-9 * len(u) * len(sub(r->c[i], r->c[j])))) continue;
            m = scl(m, 1.0 / l);
        }
        double amin = fmin(dot(m, a0), dot(m, a1)), amax = fmax(dot(m, a0), dot(m, a1)), bmin = INFINITY,
               bmax = -INFINITY;
        for (int i = 0; i < r->n; ++i) bmin = fmin(bmin, dot(m, r->c[i])), bmax = fmax(bmax, dot(m, r->c[i]));
        depth = fmin(depth, fmin(amax - bmin, bmax - amin));
    }
    return -fmax(depth, 0.0);
}

/* Signed distance of the round piece from the hull at t, less the radius. */
static double ref_sd(const hull_ref* r, double t, vec* wa, vec* wb)
{
    vec w = scl(sub(r->va, r->vb), t), xa, xb;
    return core_sd(r, add(r->a0, w), add(r->a1, w), wa ? wa : &xa, wb ? wb : &xb) - r->r;
}

static double sd_at(const void* r, double t) { return ref_sd(r, t, NULL, NULL); }

/* Distance of a world point from A (which 0) or the hull (1) at t, 0 inside. */
static double point_distance(const hull_ref* r, int which, vec x, double t)
{
    if (which == 0) {
        vec a0 = add(r->a0, scl(r->va, t)), a1 = add(r->a1, scl(r->va, t)), c1, c2;
        return fmax(0.0, closest_segs(a0, a1, x, x, &c1, &c2) - r->r);
    }
    hull_ref q = *r;
    q.a0 = q.a1 = sub(x, scl(r->vb, t));
    q.va = q.vb = V(0, 0, 0);
    q.r = 0;
    vec wa, wb;
    return fmax(0.0, core_sd(&q, q.a0, q.a1, &wa, &wb));
}

typedef struct answer {
    int state; /* 0 miss, 1 hit, 2 start overlap */
    double time, depth, sd0, sd_min;
    vec normal, point; /* normal zero where not unique */
} answer;

static double bisect(const hull_ref* r, double t0, double t1)
{
    for (int i = 0; i < 200 && t1 - t0 > 1e-17 * r->tmax; ++i) {
        double m = 0.5 * (t0 + t1);
        if (ref_sd(r, m, NULL, NULL) <= 0) t1 = m;
        else t0 = m;
    }
    return t1;
}

#define REF_STEPS 64

static void ref_solve(const hull_ref* r, answer* out)
{
    memset(out, 0, sizeof *out);
    vec wa, wb;
    out->sd0 = ref_sd(r, 0, &wa, &wb);
    if (out->sd0 <= 0) {
        out->state = 2;
        out->depth = -out->sd0;
        out->sd_min = out->sd0;
        if (out->sd0 > -r->r) out->normal = scl(sub(wb, wa), 1.0 / len(sub(wb, wa)));
        return;
    }
    const double T = r->tmax;
    double best = out->sd0, tb = 0, prev = 0, hit = -1;
    for (int i = 1; i <= REF_STEPS && T > 0; ++i) {
        double t = T * i / REF_STEPS, s = ref_sd(r, t, NULL, NULL);
        if (s < best) best = s, tb = t;
        if (s <= 0) {
            hit = bisect(r, prev, t);
            break;
        }
        prev = t;
    }
    if (hit < 0 && T > 0) {
        const test_ref_golden g = test_ref_golden_search(sd_at, r, fmax(0, tb - T / REF_STEPS),
                                                         fmin(T, tb + T / REF_STEPS), 90, -1, false, NULL);
        double tm = g.f1 < g.f2 ? g.x1 : g.x2, fm = fmin(g.f1, g.f2);
        if (fm < best) best = fm, tb = tm;
        if (best <= 0) hit = bisect(r, fmax(0, tb - T / REF_STEPS), tb);
    }
    out->sd_min = best;
    if (hit < 0) return;
    out->state = 1;
    out->time = hit;
    double sd = ref_sd(r, hit, &wa, &wb);
    double d = sd + r->r;
    if (d > 1e-9 * r->size && r->r > 0) {
        out->normal = scl(sub(wb, wa), 1.0 / d);
        out->point = add(add(wa, scl(out->normal, r->r)), scl(r->vb, hit));
    }
}

/* ---- problems ----------------------------------------------------------------------------------- */

static double uni(test_case_rng* g, double lo, double hi) { return test_case_uniform(g, lo, hi); }
static spx_vec3 rv3(test_case_rng* g, double s) { return test_case_random_vec3(g, -s, s); }
static double grid(double x) { return 0.25 * floor(x / 0.25 + 0.5); }
/* Three numbers of uni(g, -s, s) on the grid, z first, then y, then x. */
static spx_vec3 grid_rv3(test_case_rng* g, double s)
{
    const float z = (float)grid(uni(g, -s, s)), y = (float)grid(uni(g, -s, s));
    return spx_v3((float)grid(uni(g, -s, s)), y, z);
}

static spx_mat3 rotation_of(test_case_rng* g)
{
    spx_obb b;
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), test_case_random_quat(g), &b);
    return b.rotation;
}

static spx_vec3 rotate(const spx_mat3* m, spx_vec3 v)
{
    return spx_v3(m->col[0].x * v.x + m->col[1].x * v.y + m->col[2].x * v.z,
                  m->col[0].y * v.x + m->col[1].y * v.y + m->col[2].y * v.z,
                  m->col[0].z * v.x + m->col[1].z * v.y + m->col[2].z * v.z);
}

static spx_vec3 sc3(spx_vec3 a, float s) { return spx_v3(a.x * s, a.y * s, a.z * s); }

static void make_problem(bool capsule, int family, uint64_t seed, problem* p)
{
    memset(p, 0, sizeof *p);
    test_case_rng g = { seed * 0x9E3779B97F4A7C15ull + (uint64_t)family * 7919u + (capsule ? 1u : 0u) };
    p->capsule = capsule;
    p->family = family;
    p->seed = seed;
    p->tmax = 1.0f;
    const spx_mat3 identity = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
    if (family == FAM_GRID) {
        const float hz = (float)(0.25 * (1 + (int)uni(&g, 0, 4))), hy = (float)(0.25 * (1 + (int)uni(&g, 0, 4))),
                    hx = (float)(0.25 * (1 + (int)uni(&g, 0, 4)));
        spx_vec3 h = spx_v3(hx, hy, hz);
        p->count = 8;
        for (int c = 0; c < 8; ++c) p->cloud[c] = spx_v3(c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z);
        p->is_box = true;
        p->position = grid_rv3(&g, 1);
        p->rotation = identity;
        p->box = (spx_obb){ p->position, h, identity };
        p->a.radius = (float)(0.25 * (int)uni(&g, 0, 3));
        p->a.p[0] = grid_rv3(&g, 2.5);
        p->a.p[1] = p->a.p[0];
        if (capsule) {
            int axis = (int)uni(&g, 0, 3);
            (&p->a.p[1].x)[axis] += (float)(0.25 * (1 + (int)uni(&g, 0, 6)));
        }
        p->va = grid_rv3(&g, 2);
        return;
    }
    /* A random cloud in a squashed, turned box. */
    const double sx = uni(&g, 0.2, 1.2), sy = uni(&g, 0.2, 1.2), sz = uni(&g, 0.05, 1.2);
    p->count = 4 + (int)uni(&g, 0, MAX_POINTS - 4 + 1);
    if (p->count > MAX_POINTS) p->count = MAX_POINTS;
    for (int i = 0; i < p->count; ++i) {
        const float z = (float)uni(&g, -sz, sz), y = (float)uni(&g, -sy, sy), x = (float)uni(&g, -sx, sx);
        p->cloud[i] = spx_v3(x, y, z);
    }
    p->rotation = rotation_of(&g);
    p->position = rv3(&g, 0.5);
    const double reach = sqrt(sx * sx + sy * sy + sz * sz);
    p->a.radius = (float)uni(&g, 0.02, 0.6);
    const spx_vec3 target = test_add3(p->position, rv3(&g, 0.5 * reach));
    spx_vec3 dir = rv3(&g, 1.0);
    float dl = sqrtf(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z) + 1e-6f;
    dir = sc3(dir, 1.0f / dl);
    const float away = (float)uni(&g, 0.0, 2.0 * reach + 1.0);
    p->a.p[0] = test_add3(target, sc3(dir, away));
    p->a.p[1] = p->a.p[0];
    if (capsule) p->a.p[1] = test_add3(p->a.p[0], rv3(&g, 0.8));
    /* Aimed: B still, A moving at the target over about tmax, a third overshooting or falling short. */
    p->va = sc3(dir, -away * (float)uni(&g, 0.5, 1.5));
    p->va = test_add3(p->va, rv3(&g, 0.3));
    p->vb = rv3(&g, 0.3);
    if (family == FAM_PARALLEL) {
        spx_hull_def def = spx_default_hull_def();
        def.points = p->cloud;
        def.point_count = (uint32_t)p->count;
        spx_hull* h = NULL;
        if (spx_hull_create(&def, &h) != SPX_OK) return;
        spx_hull_info info;
        spx_hull_get_info(h, &info);
        spx_hull_face f;
        spx_hull_get_face(h, (uint32_t)uni(&g, 0, info.face_count - 0.5), &f);
        spx_vec3 c0, c1;
        spx_hull_get_corner(h, f.corners[0], &c0);
        spx_hull_get_corner(h, f.corners[1], &c1);
        const spx_vec3 n = rotate(&p->rotation, f.normal), e = rotate(&p->rotation, test_add3(c1, sc3(c0, -1)));
        const spx_vec3 on = test_add3(p->position, rotate(&p->rotation, test_add3(sc3(c0, 0.5f), sc3(c1, 0.5f))));
        const float gap = (float)uni(&g, 0.0, 0.5);
        p->a.p[0] = test_add3(on, sc3(n, p->a.radius + gap));
        if (capsule) {
            /* Along the edge (lying on the face's rim) or along the face across the edge. */
            const spx_vec3 along =
                uni(&g, 0, 1) < 0.5 ? e : spx_v3(n.y * e.z - n.z * e.y, n.z * e.x - n.x * e.z, n.x * e.y - n.y * e.x);
            const float s = (float)uni(&g, -0.8, 0.2);
            p->a.p[1] = test_add3(p->a.p[0], sc3(along, 1.0f - s));
            p->a.p[0] = test_add3(p->a.p[0], sc3(along, s));
        } else {
            p->a.p[0] = test_add3(p->a.p[0], sc3(e, (float)uni(&g, -0.6, 0.6)));
            p->a.p[1] = p->a.p[0];
        }
        p->va = sc3(n, -(float)uni(&g, 0.0, 2.0 * gap + 0.05));
        p->vb = spx_v3(0, 0, 0);
        spx_hull_destroy(h);
    } else if (family == FAM_DEGENERATE) {
        const int k = (int)uni(&g, 0, 4);
        if (k == 0) p->va = p->vb = spx_v3(0, 0, 0);
        if (k == 1) p->vb = p->va;
        if (k == 2) p->a.radius = 0.0f;
        if (k == 3) p->a.p[1] = p->a.p[0];
    } else if (family == FAM_FAR) {
        const float z = (float)uni(&g, 1000, 5000), y = (float)uni(&g, -5000, -1000), x = (float)uni(&g, 1000, 5000);
        const spx_vec3 off = spx_v3(x, y, z);
        p->position = test_add3(p->position, off);
        p->a.p[0] = test_add3(p->a.p[0], off);
        p->a.p[1] = test_add3(p->a.p[1], off);
    }
}

/* ---- checks -------------------------------------------------------------------------------------- */

typedef struct stats {
    int cases, failures, borderline, states[3];
    double time, normal, depth, mtd, point, sphere_point, box_time, box_normal, box_depth;
    double move_point, shuffle_time, shuffle_depth, shuffle_normal, mirror_time, mirror_depth, mirror_normal;
} stats;

static int reports = 0;

static void fail(stats* st, const problem* p, const char* what, double a, double b)
{
    ++st->failures;
    if (reports++ < MAX_REPORTS)
        fprintf(stderr, "%s %s seed %llu: %s (%.9g vs %.9g)\n", p->capsule ? "capsule-hull" : "sphere-hull",
                family_names[p->family], (unsigned long long)p->seed, what, a, b);
}

static double angle_to(spx_vec3 a, vec b)
{
    double x[3] = { a.x, a.y, a.z };
    return test_ref_angle(x, b.x);
}

static bool nonzero(vec v) { return v.x[0] != 0 || v.x[1] != 0 || v.x[2] != 0; }

static void check_reference(const problem* p, const built* b, stats* st)
{
    hull_ref r;
    ref_make(p, b, &r);
    answer want;
    ref_solve(&r, &want);
    const double size = r.size, clear = CLEAR_FRACTION * size, tol_t = 1e-4 * p->tmax + 1e-5;
    spx_sweep_hit h;
    if (ask_sweep(p, b, &h) != SPX_OK) {
        fail(st, p, "sweep refused a valid problem", 0, 0);
        return;
    }
    ++st->cases;
    ++st->states[h.state];
    const bool borderline = fabs(want.sd0) <= clear || (want.state != 2 && fabs(want.sd_min) <= clear);
    if (borderline) ++st->borderline;
    if (!borderline && (int)h.state != want.state) {
        fail(st, p, "state differs from the brute force (library, brute force)", h.state, want.state);
        return;
    }
    const vec hp = vf(h.point);
    if (h.state == SPX_SWEEP_START_OVERLAP && want.state == 2) {
        st->depth = fmax(st->depth, fabs(h.depth - want.depth) / size);
        if (!(fabs(h.depth - want.depth) <= 1e-5 * size)) fail(st, p, "depth", h.depth, want.depth);
        if (nonzero(want.normal) && want.depth > clear) {
            double a = angle_to(h.normal, want.normal);
            st->normal = fmax(st->normal, a);
            if (!(a <= 1e-3)) fail(st, p, "start-overlap normal (rad)", a, 0);
        }
        /* The minimum translation: the hull moved by depth along the normal touches, no more. */
        hull_ref moved = r;
        for (int i = 0; i < r.n; ++i) moved.c[i] = add(r.c[i], scl(vf(h.normal), h.depth));
        for (int f = 0; f < r.facets; ++f) moved.offset[f] = dot(moved.normal[f], moved.c[r.tri[f][0]]);
        const double after = ref_sd(&moved, 0, NULL, NULL);
        st->mtd = fmax(st->mtd, fabs(after) / size);
        if (!(fabs(after) <= 1e-5 * size)) fail(st, p, "moved by the minimum translation: signed distance", after, 0);
        const double steps = 4.0 * FLT_EPSILON * fmax(fabs(h.point.x), fmax(fabs(h.point.y), fabs(h.point.z)));
        double da = point_distance(&r, 0, hp, 0), db = point_distance(&r, 1, hp, 0),
               tol = 0.5 * want.depth + 1e-4 * size + steps;
        if (!(da <= tol && db <= tol)) fail(st, p, "overlap point off the pieces (from A, from B)", da, db);
    } else if (h.state == SPX_SWEEP_HIT && want.state == 1) {
        const double dt = fabs(h.time - want.time), sd = ref_sd(&r, h.time, NULL, NULL);
        if (!(dt <= tol_t) && !(fabs(sd) <= clear)) fail(st, p, "time", h.time, want.time);
        if (!borderline) st->time = fmax(st->time, dt / p->tmax);
        if (!borderline && nonzero(want.normal) && dt <= tol_t) {
            double a = angle_to(h.normal, want.normal);
            st->normal = fmax(st->normal, a);
            if (!(a <= 1e-3)) fail(st, p, "hit normal (rad)", a, 0);
        }
        double da = point_distance(&r, 0, hp, h.time), db = point_distance(&r, 1, hp, h.time);
        /* Plus four float steps of the point's coordinates (the far family). */
        const double steps = 4.0 * FLT_EPSILON * fmax(fabs(h.point.x), fmax(fabs(h.point.y), fabs(h.point.z)));
        double tol = 1e-4 * size + fmax(sd, 0.0) + steps;
        st->point = fmax(st->point, fmax(0.0, fmax(da, db) - steps) / size);
        if (!(da <= tol && db <= tol)) fail(st, p, "contact point off the pieces (from A, from B)", da, db);
        if (!p->capsule && !borderline && nonzero(want.normal) && dt <= 1e-9 * p->tmax) {
            double e = fmax(0.0, len(sub(hp, want.point)) - steps) / size;
            st->sphere_point = fmax(st->sphere_point, e);
            if (!(e <= 1e-4)) fail(st, p, "sphere contact point away from the brute force's (size)", e, 0);
        }
    }
    spx_penetration pen;
    bool ov;
    if (ask_penetration(p, b, &pen, &ov) != SPX_OK) {
        fail(st, p, "static query refused", 0, 0);
        return;
    }
    if (pen.overlapping != (h.state == SPX_SWEEP_START_OVERLAP) || ov != pen.overlapping)
        fail(st, p, "penetration, overlap and sweep disagree on overlap", pen.overlapping, ov);
    if (pen.overlapping && !(fabs(pen.depth - h.depth) <= 1e-6 * size))
        fail(st, p, "penetration depth vs sweep", pen.depth, h.depth);
    spx_manifold m;
    if (ask_manifold(p, b, 0.0f, &m) != SPX_OK) {
        fail(st, p, "manifold refused", 0, 0);
        return;
    }
    if (pen.overlapping && want.sd0 < -clear) {
        if (m.point_count < 1) fail(st, p, "overlapping but no manifold point", pen.depth, 0);
        double deepest = -INFINITY;
        for (int i = 0; i < m.point_count; ++i) {
            const vec x = vf(m.points[i].point);
            double da = point_distance(&r, 0, x, 0), db = point_distance(&r, 1, x, 0);
            double tol = 0.5 * fabs(m.points[i].depth) + 1e-4 * size +
                         4.0 * FLT_EPSILON * fmax(fabs(x.x[0]), fmax(fabs(x.x[1]), fabs(x.x[2])));
            if (!(da <= tol && db <= tol)) fail(st, p, "manifold point off the pieces (from A, from B)", da, db);
            deepest = fmax(deepest, m.points[i].depth);
        }
        if (m.point_count > 0 && !(fabs(deepest - pen.depth) <= 0.02 * pen.depth + 1e-5 * size))
            fail(st, p, "deepest manifold point vs penetration depth", deepest, pen.depth);
    }
    /* A box's hull: the answers of the box queries. */
    if (p->is_box) {
        spx_sweep_hit g;
        spx_penetration q;
        spx_result rr;
        if (p->capsule) {
            rr = spx_sweep_capsule_obb(&p->a, p->va, &p->box, p->vb, p->tmax, &g);
            spx_penetration_capsule_obb(&p->a, &p->box, &q);
        } else {
            const spx_sphere s = sphere_of(p);
            rr = spx_sweep_sphere_obb(&s, p->va, &p->box, p->vb, p->tmax, &g);
            spx_penetration_sphere_obb(&s, &p->box, &q);
        }
        if (rr != SPX_OK) return;
        if (g.state != h.state) {
            if (!borderline) fail(st, p, "box query: state", g.state, h.state);
            return;
        }
        st->box_time = fmax(st->box_time, fabs(g.time - h.time));
        if (!(fabs(g.time - h.time) <= tol_t)) fail(st, p, "box query: time", g.time, h.time);
        if (q.overlapping != pen.overlapping) fail(st, p, "box query: overlap", q.overlapping, pen.overlapping);
        else if (q.overlapping) {
            st->box_depth = fmax(st->box_depth, fabs(q.depth - pen.depth) / size);
            if (!(fabs(q.depth - pen.depth) <= 1e-5 * size)) fail(st, p, "box query: depth", q.depth, pen.depth);
        }
        if (!borderline && nonzero(want.normal) && h.state != SPX_SWEEP_MISS) {
            double a = angle_to(g.normal, vf(h.normal));
            st->box_normal = fmax(st->box_normal, a);
            if (!(a <= 1e-3)) fail(st, p, "box query: normal (rad)", a, 0);
        }
    }
}

static float snapf(float x, double step) { return (float)(step * floor(x / step + 0.5)); }
static spx_vec3 snap3(spx_vec3 v, double step) { return spx_v3(snapf(v.x, step), snapf(v.y, step), snapf(v.z, step)); }

/* Moved by a common offset and velocity (on a grid where they add exactly), the capsule's ends swapped,
   the hull's points shuffled, the problem mirrored in x. */
static void check_properties(const problem* in, stats* st)
{
    problem p = *in;
    p.position = snap3(p.position, 1.0 / 1024);
    p.a.p[0] = snap3(p.a.p[0], 1.0 / 1024);
    p.a.p[1] = snap3(p.a.p[1], 1.0 / 1024);
    p.va = snap3(p.va, 1.0 / 64);
    p.vb = snap3(p.vb, 1.0 / 64);
    if (p.family == FAM_FAR) return; /* already far: the grid would not hold it */
    built b;
    if (build(&p, &b)) return;
    hull_ref r;
    ref_make(&p, &b, &r);
    answer want;
    ref_solve(&r, &want);
    const double size = r.size, tol_t = 1e-4 * p.tmax + 1e-5;
    const bool borderline = fabs(want.sd0) <= CLEAR_FRACTION * size || fabs(want.sd_min) <= CLEAR_FRACTION * size;
    spx_sweep_hit h, g;
    if (ask_sweep(&p, &b, &h) != SPX_OK) goto done;
    test_case_rng rng = { p.seed ^ 0xD1B54A32D192ED03ull };
    {
        problem o = p;
        spx_vec3 off, w;
        test_case_random_shift(&rng, &off, &w);
        o.position = test_add3(o.position, off);
        o.a.p[0] = test_add3(o.a.p[0], off);
        o.a.p[1] = test_add3(o.a.p[1], off);
        o.va = test_add3(o.va, w);
        o.vb = test_add3(o.vb, w);
        built ob = b;
        ob.placed.position = o.position;
        if (ask_sweep(&o, &ob, &g) != SPX_OK) fail(st, &p, "moved problem refused", 0, 0);
        else if (g.state != h.state || g.time != h.time || g.depth != h.depth ||
                 angle_to(g.normal, vf(h.normal)) > 1e-7)
            fail(st, &p, "moved problem: state, time, depth or normal differs", (double)g.state * 10.0 + g.time,
                 (double)h.state * 10.0 + h.time);
        else if (h.state != SPX_SWEEP_MISS) {
            vec back = sub(sub(vf(g.point), vf(off)), scl(vf(w), g.time));
            double e = len(sub(back, vf(h.point))), steps = 4.0 * FLT_EPSILON * (1500.0 + 10.0 * size);
            st->move_point = fmax(st->move_point, fmax(0.0, e - steps) / size);
            if (!(e <= steps + 1e-6 * size)) fail(st, &p, "moved problem: point", e, steps);
        }
    }
    if (p.capsule) {
        problem o = p;
        o.a.p[0] = p.a.p[1];
        o.a.p[1] = p.a.p[0];
        if (ask_sweep(&o, &b, &g) != SPX_OK || g.state != h.state || g.time != h.time || g.depth != h.depth ||
            g.point.x != h.point.x || g.point.y != h.point.y || g.point.z != h.point.z)
            fail(st, &p, "capsule ends swapped: answer differs", g.time, h.time);
    }
    for (int pass = 0; pass < 2; ++pass) {
        /* pass 0: the points shuffled; pass 1: everything mirrored in x. */
        problem o = p;
        if (pass == 0) {
            for (int i = o.count - 1; i > 0; --i) {
                int j = (int)(test_case_rng_next(&rng) % (uint64_t)(i + 1));
                spx_vec3 t = o.cloud[i];
                o.cloud[i] = o.cloud[j];
                o.cloud[j] = t;
            }
        } else {
            /* Mirror in x: the hull's points in its frame mirrored in x, its rotation conjugated. */
            for (int i = 0; i < o.count; ++i) o.cloud[i].x = -o.cloud[i].x;
            for (int k = 0; k < 3; ++k) {
                (&o.rotation.col[k].x)[0] = (k == 0 ? 1 : -1) * p.rotation.col[k].x;
                (&o.rotation.col[k].y)[0] = (k == 0 ? -1 : 1) * p.rotation.col[k].y;
                (&o.rotation.col[k].z)[0] = (k == 0 ? -1 : 1) * p.rotation.col[k].z;
            }
            o.position.x = -o.position.x;
            o.a.p[0].x = -o.a.p[0].x;
            o.a.p[1].x = -o.a.p[1].x;
            o.va.x = -o.va.x;
            o.vb.x = -o.vb.x;
        }
        built ob;
        if (build(&o, &ob)) {
            fail(st, &p, "shuffled or mirrored hull refused", pass, 0);
            continue;
        }
        if (ask_sweep(&o, &ob, &g) == SPX_OK) {
            if (pass == 1) g.normal.x = -g.normal.x;
            if (g.state != h.state) {
                if (!borderline) fail(st, &p, pass ? "mirrored: state" : "shuffled: state", g.state, h.state);
            } else if (h.state != SPX_SWEEP_MISS && !borderline) {
                const double dt = fabs(g.time - h.time), dd = fabs(g.depth - h.depth) / size;
                double* wt = pass ? &st->mirror_time : &st->shuffle_time;
                double* wd = pass ? &st->mirror_depth : &st->shuffle_depth;
                double* wn = pass ? &st->mirror_normal : &st->shuffle_normal;
                *wt = fmax(*wt, dt);
                *wd = fmax(*wd, dd);
                if (!(dt <= tol_t)) fail(st, &p, pass ? "mirrored: time" : "shuffled: time", g.time, h.time);
                if (!(dd <= 1e-6)) fail(st, &p, pass ? "mirrored: depth" : "shuffled: depth", g.depth, h.depth);
                if (nonzero(want.normal) && dt <= 1e-9) {
                    double a = angle_to(g.normal, vf(h.normal));
                    *wn = fmax(*wn, a);
                    if (!(a <= 1e-3)) fail(st, &p, pass ? "mirrored: normal" : "shuffled: normal", a, 0);
                }
            }
        }
        spx_hull_destroy(ob.hull);
    }
done:
    spx_hull_destroy(b.hull);
}

/* ---- hand-made cases ---------------------------------------------------------------------------- */

static int exact_cases(void)
{
    spx_hull* cube = test_hull_box(spx_v3(1, 1, 1));
    TEST_ENSURE(cube);
    const spx_placed_hull b = { cube, spx_v3(0, 0, 0), test_identity };
    spx_sweep_hit h;
    /* A ball of radius 0.5 at (3, 0, 0) moving at -2 m/s along x meets the face x = 1 at t = 0.75. */
    spx_sphere s = { spx_v3(3, 0, 0), 0.5f };
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, spx_v3(-2, 0, 0), &b, spx_v3(0, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 0.75, 1e-6);
    TEST_ENSURE_NEAR(h.normal.x, -1, 1e-6);
    TEST_ENSURE_NEAR(h.point.x, 1, 1e-6);
    TEST_ENSURE(h.feature_b == SPX_FEATURE_FACE);
    /* Across the edge x = y = 1 at y = 1.3: it meets the edge where (x - 1)^2 + 0.3^2 = 0.5^2, x = 1.4. */
    s = (spx_sphere){ spx_v3(3, 1.3f, 0), 0.5f };
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, spx_v3(-2, 0, 0), &b, spx_v3(0, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 0.8, 1e-5);
    TEST_ENSURE_NEAR(h.normal.x, -0.8, 1e-5);
    TEST_ENSURE_NEAR(h.normal.y, -0.6, 1e-5);
    TEST_ENSURE(h.feature_b == SPX_FEATURE_EDGE);
    /* Grazing: 1e-3 clear of the edge misses, 1e-3 into it hits. */
    s.center.y = 1.501f;
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, spx_v3(-2, 0, 0), &b, spx_v3(0, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    s.center.y = 1.499f;
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, spx_v3(-2, 0, 0), &b, spx_v3(0, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    /* Aimed at the corner (1, 1, 1) along the diagonal: touches at distance 0.5 from it. */
    s = (spx_sphere){ spx_v3(3, 3, 3), 0.5f };
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, spx_v3(-2, -2, -2), &b, spx_v3(0, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 1.0 - 0.5 / (2.0 * sqrt(3.0)), 1e-6);
    TEST_ENSURE(h.feature_b == SPX_FEATURE_VERTEX);
    /* A capsule lying on the top face, 0.1 deep: two manifold points, the minimum translation up. */
    spx_capsule c = { { spx_v3(-0.5f, 1.2f, 0.3f), spx_v3(0.5f, 1.2f, 0.3f) }, 0.3f };
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_capsule_hull(&c, &b, 0.01f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR(m.normal.y, -1, 1e-6);
    TEST_ENSURE_NEAR(m.points[0].depth, 0.1, 1e-6);
    TEST_ENSURE_NEAR(m.points[1].depth, 0.1, 1e-6);
    TEST_ENSURE(m.points[0].id == 0 && m.points[1].id == 1);
    spx_penetration pen;
    TEST_ENSURE_CODE(spx_penetration_capsule_hull(&c, &b, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0.1, 1e-6));
    /* Hanging past the face's side: clipped to the face, the clipped end at x = 1. */
    c.p[1].x = 2.0f;
    TEST_ENSURE_CODE(spx_manifold_capsule_hull(&c, &b, 0.01f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR(fmax(m.points[0].point.x, m.points[1].point.x), 1.0, 1e-6);
    /* Through the cube along x: the cores meet, the least way out is up or down by 1 + radius less 0. */
    c = (spx_capsule){ { spx_v3(-3, 0.4f, 0), spx_v3(3, 0.4f, 0) }, 0.25f };
    TEST_ENSURE_CODE(spx_penetration_capsule_hull(&c, &b, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0.6 + 0.25, 1e-6));
    TEST_ENSURE_NEAR(pen.normal.y, -1, 1e-6);
    /* A capsule swept parallel to an edge at it: it touches along the edge, the point in the middle of
       their common part. */
    c = (spx_capsule){ { spx_v3(2, 2, -0.5f), spx_v3(2, 2, 3) }, 0.5f };
    TEST_ENSURE_CODE(spx_sweep_capsule_hull(&c, spx_v3(-1, -1, 0), &b, spx_v3(0, 0, 0), 2.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 1.0 - 0.5 / sqrt(2.0), 1e-6);
    TEST_ENSURE_NEAR(h.point.z, 0.25, 1e-4); /* the stretch reaches past the corner by ~sqrt(2 R 1e-9 size) */
    TEST_ENSURE(h.feature_a == SPX_FEATURE_EDGE && h.feature_b == SPX_FEATURE_EDGE);
    /* Touching counts; 1e-4 apart does not. */
    s = (spx_sphere){ spx_v3(0, 1.5f, 0), 0.5f };
    bool ov = false;
    TEST_ENSURE_CODE(spx_overlap_sphere_hull(&s, &b, &ov), SPX_OK);
    TEST_ENSURE(ov);
    s.center.y = 1.5001f;
    TEST_ENSURE_CODE(spx_overlap_sphere_hull(&s, &b, &ov), SPX_OK);
    TEST_ENSURE(!ov);
    /* A ball wholly inside: out through the nearest face. */
    s = (spx_sphere){ spx_v3(0.7f, 0, 0.1f), 0.1f };
    TEST_ENSURE_CODE(spx_penetration_sphere_hull(&s, &b, &pen), SPX_OK);
    TEST_ENSURE_NEAR(pen.depth, 0.4, 1e-6);
    TEST_ENSURE_NEAR(pen.normal.x, -1, 1e-6);
    TEST_ENSURE(pen.axis >= 1);
    spx_hull_destroy(cube);
    return 0;
}

static int bad_input(void)
{
    spx_hull* cube = test_hull_box(spx_v3(1, 1, 1));
    TEST_ENSURE(cube);
    spx_placed_hull b = { cube, spx_v3(0, 0, 0), test_identity };
    const spx_placed_hull none = { NULL, spx_v3(0, 0, 0), test_identity };
    spx_sphere s = { spx_v3(3, 0, 0), 0.5f };
    spx_capsule c = { { spx_v3(3, 0, 0), spx_v3(4, 0, 0) }, 0.5f };
    spx_sweep_hit h;
    spx_penetration pen;
    spx_manifold m;
    bool ov;
    const spx_vec3 z = spx_v3(0, 0, 0);
    TEST_ENSURE_CODE(spx_overlap_sphere_hull(NULL, &b, &ov), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_sphere_hull(&s, NULL, &ov), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_sphere_hull(&s, &b, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_capsule_hull(&c, &none, &ov), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_capsule_hull(&c, &b, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_capsule_hull(&c, z, &b, z, 1.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_sphere_hull(&s, &none, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, z, &b, z, -1.0f, &h), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_sphere_hull(&s, spx_v3(NAN, 0, 0), &b, z, 1.0f, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_capsule_hull(&c, &b, -1.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_capsule_hull(&c, &b, INFINITY, &m), SPX_ERR_NOT_FINITE);
    s.radius = -1.0f;
    TEST_ENSURE_CODE(spx_penetration_sphere_hull(&s, &b, &pen), SPX_ERR_BAD_EXTENT);
    s.radius = 0.5f;
    c.p[1].y = NAN;
    TEST_ENSURE_CODE(spx_sweep_capsule_hull(&c, z, &b, z, 1.0f, &h), SPX_ERR_NOT_FINITE);
    c.p[1].y = 0;
    b.position.x = INFINITY;
    TEST_ENSURE_CODE(spx_overlap_capsule_hull(&c, &b, &ov), SPX_ERR_NOT_FINITE);
    b.position.x = 0;
    b.rotation.col[0].x = 2;
    TEST_ENSURE(spx_sweep_sphere_hull(&s, z, &b, z, 1.0f, &h) != SPX_OK);
    spx_hull_destroy(cube);
    return 0;
}

int main(int argc, char** argv)
{
    const bool long_run = test_long_run(argc, argv);
    /* Per pair kind: 400 a family (2,000 a kind) by default; --long 10,000 a family (50,000 a kind). */
    const int per_family = test_cases(long_run ? 10000 : 400);
    int failures = exact_cases() + bad_input();
    printf("%-12s %6s %5s %5s %5s %4s | %-8s %-8s %-8s %-8s %-8s %-8s | %-8s %-8s %-8s | %-8s %-8s %-8s %-8s %-8s "
           "%-8s %-8s\n",
           "kind", "cases", "miss", "hit", "start", "bord", "time/T", "normal", "depth/s", "mtd/s", "point/s",
           "sphpt/s", "box t", "box n", "box d/s", "move p/s", "shuf t", "shuf d/s", "shuf n", "mirr t", "mirr d/s",
           "mirr n");
    for (int kind = 0; kind < 2; ++kind) {
        stats st;
        memset(&st, 0, sizeof st);
        reports = 0;
        for (int f = 0; f < FAM_COUNT; ++f)
            for (int s = 0; s < per_family; ++s) {
                problem p;
                make_problem(kind == 1, f, (uint64_t)s, &p);
                built b;
                if (build(&p, &b)) continue; /* a flat cloud: no hull */
                check_reference(&p, &b, &st);
                spx_hull_destroy(b.hull);
                check_properties(&p, &st);
            }
        printf("%-12s %6d %5d %5d %5d %4d | %-8.2g %-8.2g %-8.2g %-8.2g %-8.2g %-8.2g | %-8.2g %-8.2g %-8.2g | %-8.2g "
               "%-8.2g %-8.2g %-8.2g %-8.2g %-8.2g %-8.2g\n",
               kind ? "capsule-hull" : "sphere-hull", st.cases, st.states[0], st.states[1], st.states[2], st.borderline,
               st.time, st.normal, st.depth, st.mtd, st.point, st.sphere_point, st.box_time, st.box_normal,
               st.box_depth, st.move_point, st.shuffle_time, st.shuffle_depth, st.shuffle_normal, st.mirror_time,
               st.mirror_depth, st.mirror_normal);
        if (st.failures) {
            fprintf(stderr, "FAILED: %s: %d failures\n", kind ? "capsule-hull" : "sphere-hull", st.failures);
            ++failures;
        }
    }
    return failures ? 1 : 0;
}
