/* Convex hulls against triangles and meshes: the hull-triangle queries against a double-precision
 * brute force over every candidate axis (each hull face normal, the triangle's normal and its sides,
 * every hull edge across every triangle edge, both ways), on random problems and adversarial
 * families; the answers under reordering the hull's points, the triangle's corners (cyclic and
 * reversed) and moving the whole problem; the hull-mesh queries against every triangle of the mesh. */
#include "support/test.h"
#include "support/pieces.h"
#include <sepax/hull.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int scale_cases = 1;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

/* A float on a 1/1024 m grid: problems moved by a grid offset stay exact. */
static float grid(double lo, double hi) { return (float)(floor(uniform(lo, hi) * 1024.0) / 1024.0); }
/* Three of those, z first, then y, then x. */
static spx_vec3 grid3(double lo, double hi)
{
    const float z = grid(lo, hi), y = grid(lo, hi);
    return spx_v3(grid(lo, hi), y, z);
}

static spx_mat3 random_rotation(void) { return test_random_rotation_matrix(uniform); }

/* A random cloud of 4 to 24 points about the origin (the points kept for reordering). */
static uint32_t random_cloud(double r, spx_vec3* p)
{
    const uint32_t n = 4 + (uint32_t)uniform(0, 21);
    const double sx = uniform(0.3, 1), sy = uniform(0.3, 1), sz = uniform(0.3, 1);
    for (uint32_t i = 0; i < n; ++i) {
        const float z = (float)(r * sz * uniform(-1, 1)), y = (float)(r * sy * uniform(-1, 1)),
                    x = (float)(r * sx * uniform(-1, 1));
        p[i] = spx_v3(x, y, z);
    }
    return n;
}

/* 8 to 24 points on a sphere of radius r about the origin: the hull's bounding sphere is tight. */
static uint32_t random_gem(double r, spx_vec3* p)
{
    const uint32_t n = 8 + (uint32_t)uniform(0, 17);
    for (uint32_t i = 0; i < n; ++i) {
        const double z = uniform(-1, 1), phi = uniform(0, 6.283185307179586), ring = sqrt(1.0 - z * z);
        p[i] = spx_v3((float)(r * ring * cos(phi)), (float)(r * ring * sin(phi)), (float)(r * z));
    }
    return n;
}

static double vdot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void vcross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1], out[1] = a[2] * b[0] - a[0] * b[2], out[2] = a[0] * b[1] - a[1] * b[0];
}
static double vlen(const double a[3]) { return sqrt(vdot(a, a)); }

/* ---- the brute force ---------------------------------------------------------------------------- */

/* The pair in the world, in double: the hull's corners and face planes, the triangle's corners, and
   every candidate axis as a unit vector (each tested both ways). */
typedef struct ref_pair {
    int nv, nf, naxes;
    double hv[SPX_HULL_MAX_CORNERS][3];
    double hn[2 * SPX_HULL_MAX_CORNERS][3], hoff[2 * SPX_HULL_MAX_CORNERS];
    double tv[3][3];
    double axes[2 * SPX_HULL_MAX_CORNERS + 8 + 3 * 3 * SPX_HULL_MAX_CORNERS][3];
} ref_pair;

static void ref_add_axis(ref_pair* r, const double l[3])
{
    const double len = vlen(l);
    if (!(len > 1e-12)) return;
    for (int k = 0; k < 3; ++k) r->axes[r->naxes][k] = l[k] / len;
    ++r->naxes;
}

static void ref_make(const spx_placed_hull* h, const spx_triangle* t, ref_pair* r)
{
    spx_hull_info info;
    spx_hull_get_info(h->hull, &info);
    r->nv = (int)info.corner_count, r->nf = (int)info.face_count, r->naxes = 0;
    const spx_mat3* R = &h->rotation;
    for (int i = 0; i < r->nv; ++i) {
        spx_vec3 c;
        spx_hull_get_corner(h->hull, (uint32_t)i, &c);
        for (int k = 0; k < 3; ++k)
            r->hv[i][k] = (double)(&h->position.x)[k] + (double)(&R->col[0].x)[k] * c.x +
                          (double)(&R->col[1].x)[k] * c.y + (double)(&R->col[2].x)[k] * c.z;
    }
    for (int f = 0; f < r->nf; ++f) {
        spx_hull_face face;
        spx_hull_get_face(h->hull, (uint32_t)f, &face);
        for (int k = 0; k < 3; ++k)
            r->hn[f][k] = (double)(&R->col[0].x)[k] * face.normal.x + (double)(&R->col[1].x)[k] * face.normal.y +
                          (double)(&R->col[2].x)[k] * face.normal.z;
        const double len = vlen(r->hn[f]);
        for (int k = 0; k < 3; ++k) r->hn[f][k] /= len;
        r->hoff[f] = -DBL_MAX;
        for (int i = 0; i < r->nv; ++i) r->hoff[f] = fmax(r->hoff[f], vdot(r->hn[f], r->hv[i]));
        ref_add_axis(r, r->hn[f]);
    }
    for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k) r->tv[c][k] = (&t->v[c].x)[k];
    double e[3][3], n[3];
    for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) e[j][k] = r->tv[(j + 1) % 3][k] - r->tv[j][k];
    vcross(e[0], e[1], n);
    ref_add_axis(r, n);
    for (int j = 0; j < 3; ++j) {
        double s[3];
        vcross(e[j], n, s);
        ref_add_axis(r, s);
    }
    for (int ei = 0; ei < (int)info.edge_count; ++ei) {
        spx_hull_edge edge;
        spx_hull_get_edge(h->hull, (uint32_t)ei, &edge);
        double d[3];
        for (int k = 0; k < 3; ++k) d[k] = r->hv[edge.corner[1]][k] - r->hv[edge.corner[0]][k];
        for (int j = 0; j < 3; ++j) {
            double l[3];
            vcross(d, e[j], l);
            if (vlen(l) > 1e-9 * vlen(d) * vlen(e[j])) ref_add_axis(r, l);
            if (vlen(n) <= 1e-9 * vlen(e[j]) * vlen(e[j])) {
                /* A segment: the axes square to it across each hull edge direction too. */
                double m[3];
                vcross(l, e[j], m);
                ref_add_axis(r, m);
            }
        }
    }
}

/* Gap of B ahead of A along unit l: B's least projection less A's greatest. */
static double ref_gap(const ref_pair* r, const double l[3], double sign)
{
    double ahi = -DBL_MAX, blo = DBL_MAX;
    for (int i = 0; i < r->nv; ++i) ahi = fmax(ahi, sign * vdot(r->hv[i], l));
    for (int i = 0; i < 3; ++i) blo = fmin(blo, sign * vdot(r->tv[i], l));
    return blo - ahi;
}

typedef struct ref_answer {
    spx_sweep_state state;
    double time, depth;
    double normal[3];
    bool normal_unique; /* no other direction ties within the tolerance */
} ref_answer;

/* The swept answer over every axis: latest entry, earliest exit (u: B's velocity relative to A).
   START_OVERLAP: the least overlap and its direction. */
static void ref_sweep(const ref_pair* r, const double u[3], double tmax, ref_answer* out)
{
    double enter = 0.0, exit = DBL_MAX, best_enter = -1.0, second = -DBL_MAX, depth = DBL_MAX, second_depth = DBL_MAX;
    double bl[3] = { 0, 0, 0 }, dl[3] = { 0, 0, 0 };
    bool apart = false, never = false;
    for (int a = 0; a < r->naxes; ++a)
        for (int s = -1; s <= 1; s += 2) {
            double l[3];
            for (int k = 0; k < 3; ++k) l[k] = s * r->axes[a][k];
            const double gap = ref_gap(r, l, 1.0), speed = vdot(u, l);
            if (gap > 0.0) {
                apart = true;
                if (speed >= 0.0) never = true;
                else {
                    const double te = gap / -speed;
                    if (te > best_enter) {
                        if (bl[0] * l[0] + bl[1] * l[1] + bl[2] * l[2] < 1 - 1e-8) second = best_enter;
                        best_enter = te;
                        memcpy(bl, l, sizeof bl);
                    } else if (te > second && bl[0] * l[0] + bl[1] * l[1] + bl[2] * l[2] < 1 - 1e-8) second = te;
                    enter = fmax(enter, te);
                }
            } else if (speed > 0.0) exit = fmin(exit, -gap / speed);
            const double over = -gap;
            if (over < depth) {
                if (dl[0] * l[0] + dl[1] * l[1] + dl[2] * l[2] < 1 - 1e-8) second_depth = depth;
                depth = over;
                memcpy(dl, l, sizeof dl);
            } else if (over < second_depth && dl[0] * l[0] + dl[1] * l[1] + dl[2] * l[2] < 1 - 1e-8)
                second_depth = over;
        }
    memset(out, 0, sizeof *out);
    if (!apart) {
        out->state = SPX_SWEEP_START_OVERLAP;
        out->depth = depth;
        memcpy(out->normal, dl, sizeof dl);
        out->normal_unique = second_depth - depth > 1e-5;
        return;
    }
    out->depth = depth; /* minus the largest gap */
    if (never || enter > exit || enter > tmax) {
        out->state = SPX_SWEEP_MISS;
        return;
    }
    out->state = SPX_SWEEP_HIT;
    out->time = enter;
    memcpy(out->normal, bl, sizeof bl);
    out->normal_unique = best_enter - second > 1e-5;
}

static double normal_gap(spx_vec3 a, const double b[3])
{
    const double x = a.x - b[0], y = a.y - b[1], z = a.z - b[2];
    return sqrt(x * x + y * y + z * z);
}

/* Distance from p to the triangle (closest point by the plane and the three edges). */
static double triangle_distance(double t[3][3], const double p[3])
{
    double e0[3], e1[3], n[3], w[3];
    for (int k = 0; k < 3; ++k) e0[k] = t[1][k] - t[0][k], e1[k] = t[2][k] - t[0][k], w[k] = p[k] - t[0][k];
    vcross(e0, e1, n);
    const double nn = vdot(n, n);
    if (nn > 0) {
        /* Inside the prism: the plane's distance. */
        bool inside = true;
        for (int j = 0; j < 3; ++j) {
            double ej[3], c[3], q[3];
            for (int k = 0; k < 3; ++k) ej[k] = t[(j + 1) % 3][k] - t[j][k], q[k] = p[k] - t[j][k];
            vcross(ej, q, c);
            if (vdot(c, n) < 0) inside = false;
        }
        if (inside) return fabs(vdot(w, n)) / sqrt(nn);
    }
    double best = DBL_MAX;
    for (int j = 0; j < 3; ++j) {
        double d[3], q[3];
        for (int k = 0; k < 3; ++k) d[k] = t[(j + 1) % 3][k] - t[j][k], q[k] = p[k] - t[j][k];
        const double dd = vdot(d, d);
        double s = dd > 0 ? vdot(q, d) / dd : 0;
        s = fmin(1, fmax(0, s));
        double x[3];
        for (int k = 0; k < 3; ++k) x[k] = q[k] - s * d[k];
        best = fmin(best, vlen(x));
    }
    return best;
}

/* How far p lies outside the hull (its greatest face-plane distance; <= 0 inside). */
static double hull_outside(const ref_pair* r, const double p[3])
{
    double worst = -DBL_MAX;
    for (int f = 0; f < r->nf; ++f) worst = fmax(worst, vdot(r->hn[f], p) - r->hoff[f]);
    return worst;
}

/* ---- random problems against the brute force ---------------------------------------------------- */

typedef struct worst {
    double time, depth, normal, point;
    int hits, overlaps, misses, normals;
} worst;

/* A random triangle near the origin: sized 0.2 to 3 m, segment-like one time in ten. */
static spx_triangle random_triangle(double spread)
{
    spx_triangle t;
    const double size = uniform(0.2, 3.0);
    double c[3];
    for (int k = 0; k < 3; ++k) c[k] = uniform(-spread, spread);
    for (int k = 0; k < 3; ++k) {
        const float z = grid(c[2] - size, c[2] + size), y = grid(c[1] - size, c[1] + size),
                    x = grid(c[0] - size, c[0] + size);
        t.v[k] = spx_v3(x, y, z);
    }
    if (uniform(0, 1) < 0.1) {
        /* Corners on one line, exactly: the middle one halfway. */
        t.v[2] = spx_v3((t.v[0].x + t.v[1].x) * 0.5f, (t.v[0].y + t.v[1].y) * 0.5f, (t.v[0].z + t.v[1].z) * 0.5f);
    }
    return t;
}

/* One problem's answers checked against the brute force. */
static int check_pair(const spx_placed_hull* h, const spx_triangle* t, spx_vec3 va, spx_vec3 vb, float tmax, worst* w)
{
    static ref_pair r;
    ref_make(h, t, &r);
    ref_answer still, swept;
    const double zero[3] = { 0, 0, 0 };
    ref_sweep(&r, zero, 0.0, &still);
    bool overlap;
    spx_penetration pen;
    TEST_ENSURE_CODE(spx_overlap_hull_triangle(h, t, &overlap), SPX_OK);
    TEST_ENSURE_CODE(spx_penetration_hull_triangle(h, t, &pen), SPX_OK);
    TEST_ENSURE(overlap == pen.overlapping);
    const bool ref_overlap = still.state == SPX_SWEEP_START_OVERLAP;
    if (fabs(still.depth) > 1e-6) TEST_ENSURE(overlap == ref_overlap);
    if (pen.overlapping && ref_overlap) {
        ++w->overlaps;
        TEST_ENSURE_NEAR(pen.depth, still.depth, 1e-5);
        w->depth = fmax(w->depth, fabs(pen.depth - still.depth));
        if (still.normal_unique) {
            const double g = normal_gap(pen.normal, still.normal);
            TEST_ENSURE(g < 1e-4);
            w->normal = fmax(w->normal, g);
            ++w->normals;
        }
    }
    const double u[3] = { (double)vb.x - va.x, (double)vb.y - va.y, (double)vb.z - va.z };
    ref_sweep(&r, u, tmax, &swept);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_hull_triangle(h, va, t, vb, tmax, &hit), SPX_OK);
    const double speed = vlen(u) + 1e-9;
    if (hit.state != swept.state) {
        /* Only at a graze or at the end of the interval, within rounding. */
        TEST_ENSURE(fabs(swept.time - tmax) < 1e-5 || fabs(still.depth) < 1e-6 || swept.state == SPX_SWEEP_MISS ||
                    hit.state == SPX_SWEEP_MISS);
        return 0;
    }
    if (hit.state == SPX_SWEEP_HIT) {
        ++w->hits;
        TEST_ENSURE_NEAR(hit.time, swept.time, 1e-5 / speed + 1e-6);
        w->time = fmax(w->time, fabs(hit.time - swept.time) * speed);
        if (swept.normal_unique) {
            const double g = normal_gap(hit.normal, swept.normal);
            TEST_ENSURE(g < 1e-4);
            w->normal = fmax(w->normal, g);
        }
        /* The point lies on both pieces at that time. */
        ref_pair moved = r;
        for (int i = 0; i < r.nv; ++i)
            for (int k = 0; k < 3; ++k) moved.hv[i][k] += (double)(&va.x)[k] * hit.time;
        for (int f = 0; f < r.nf; ++f)
            moved.hoff[f] += r.hn[f][0] * va.x * hit.time + r.hn[f][1] * va.y * hit.time + r.hn[f][2] * va.z * hit.time;
        double tri[3][3];
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) tri[c][k] = r.tv[c][k] + (double)(&vb.x)[k] * hit.time;
        const double p[3] = { hit.point.x, hit.point.y, hit.point.z };
        const double off = fmax(hull_outside(&moved, p), triangle_distance(tri, p));
        if (!(off < 1e-4))
            fprintf(stderr, "  point %g %g %g off %g / %g, axis %d features %d %d time %g\n", hit.point.x, hit.point.y,
                    hit.point.z, hull_outside(&moved, p), triangle_distance(tri, p), hit.axis, hit.feature_a,
                    hit.feature_b, hit.time);
        TEST_ENSURE(off < 1e-4);
        w->point = fmax(w->point, off);
    } else if (hit.state == SPX_SWEEP_START_OVERLAP) {
        TEST_ENSURE(pen.overlapping);
        TEST_ENSURE_NEAR(hit.depth, pen.depth, 1e-6);
    } else {
        ++w->misses;
    }
    return 0;
}

static int random_against_brute_force(void)
{
    const int cases = test_cases(10000) * scale_cases;
    worst w = { 0 };
    for (int c = 0; c < cases; ++c) {
        spx_vec3 cloud[24];
        const uint32_t n = random_cloud(uniform(0.2, 1.5), cloud);
        spx_hull* hull = test_hull_of(cloud, n);
        if (!hull) continue;
        const spx_vec3 at = grid3(-0.3, 0.3);
        const spx_placed_hull h = { hull, at, random_rotation() };
        const spx_triangle t = random_triangle(uniform(0, 1) < 0.25 ? 0.4 : 2.0);
        const spx_vec3 va = test_random_vec3(uniform, -1, 1);
        /* Mostly aimed at the hull, so that half the sweeps hit. */
        const double aim = uniform(0, 1) < 0.6 ? uniform(1, 4) : 0.0;
        const float z = (float)(uniform(-2, 2) - aim * (t.v[0].z + t.v[1].z + t.v[2].z) / 3),
                    y = (float)(uniform(-2, 2) - aim * (t.v[0].y + t.v[1].y + t.v[2].y) / 3),
                    x = (float)(uniform(-2, 2) - aim * (t.v[0].x + t.v[1].x + t.v[2].x) / 3);
        const spx_vec3 vb = spx_v3(x, y, z);
        const int bad = check_pair(&h, &t, va, vb, 1.0f, &w);
        spx_hull_destroy(hull);
        if (bad) {
            fprintf(stderr, "  case %d\n", c);
            return 1;
        }
    }
    printf("  %d cases: %d overlapping, %d hits, %d misses; worst depth %.2g m, time %.2g m (times speed), normal "
           "%.2g, point off the pieces %.2g m\n",
           cases, w.overlaps, w.hits, w.misses, w.depth, w.time, w.normal, w.point);
    TEST_ENSURE(w.overlaps > cases / 20 && w.hits > cases / 20 && w.misses > cases / 20);
    return 0;
}

/* ---- the same answer however the problem is written ---------------------------------------------- */

/* The same answer to rounding. A time is as sharp as the closing speed along the normal (u: B's
   velocity relative to A) makes it: 1e-7 m of rounding in a gap closing at 1e-3 m/s is 1e-4 s. */
static int same_hit(const spx_sweep_hit* a, const spx_sweep_hit* b, spx_vec3 shift, spx_vec3 u)
{
    TEST_ENSURE(a->state == b->state);
    if (a->state == SPX_SWEEP_MISS) return 0;
    const double closing = fabs((double)u.x * a->normal.x + (double)u.y * a->normal.y + (double)u.z * a->normal.z);
    TEST_ENSURE_NEAR(a->time, b->time, 1e-6 + 1e-7 / fmax(closing, 1e-12));
    TEST_ENSURE_NEAR(a->depth, b->depth, 1e-6);
    const double n[3] = { b->normal.x, b->normal.y, b->normal.z };
    TEST_ENSURE(normal_gap(a->normal, n) < 1e-5);
    const double p[3] = { (double)b->point.x - shift.x, (double)b->point.y - shift.y, (double)b->point.z - shift.z };
    TEST_ENSURE(normal_gap(a->point, p) < 2e-3);
    return 0;
}

/* No point twice in a manifold. */
static int distinct_points(const spx_manifold* m)
{
    for (int i = 0; i < m->point_count; ++i)
        for (int j = 0; j < i; ++j) {
            const double p[3] = { m->points[j].point.x, m->points[j].point.y, m->points[j].point.z };
            TEST_ENSURE(normal_gap(m->points[i].point, p) > 1e-6);
        }
    return 0;
}

static int same_manifold(const spx_manifold* a, const spx_manifold* b, spx_vec3 shift, double tol)
{
    if (distinct_points(a) || distinct_points(b)) return 1;
    TEST_ENSURE(a->point_count == b->point_count);
    if (a->point_count == 0) return 0;
    const double n[3] = { b->normal.x, b->normal.y, b->normal.z };
    TEST_ENSURE(normal_gap(a->normal, n) < 1e-5);
    for (int i = 0; i < a->point_count; ++i) {
        bool found = false;
        for (int j = 0; j < b->point_count && !found; ++j) {
            const double p[3] = { (double)b->points[j].point.x - shift.x, (double)b->points[j].point.y - shift.y,
                                  (double)b->points[j].point.z - shift.z };
            found = normal_gap(a->points[i].point, p) < tol && fabs(a->points[i].depth - b->points[j].depth) < tol;
        }
        TEST_ENSURE(found);
    }
    return 0;
}

static int answers_invariant(void)
{
    const int cases = test_cases(2000) * scale_cases;
    int compared = 0, manifolds = 0;
    /* Exact for coordinates on the 1/2048 m grid (a segment-like triangle's middle corner) up to 8 m. */
    const spx_vec3 offsets[2] = { { 3000.0f, -1500.0f, 700.0f }, { 2048.0f, -1024.0f, 3072.0f } };
    for (int c = 0; c < cases; ++c) {
        spx_vec3 cloud[24], shuffled[24];
        const uint32_t n = random_cloud(uniform(0.3, 1.2), cloud);
        memcpy(shuffled, cloud, sizeof cloud);
        for (uint32_t i = n - 1; i > 0; --i) {
            const uint32_t j = (uint32_t)uniform(0, i + 1);
            const spx_vec3 x = shuffled[i];
            shuffled[i] = shuffled[j], shuffled[j] = x;
        }
        spx_hull *ha = test_hull_of(cloud, n), *hb = test_hull_of(shuffled, n);
        if (!ha || !hb) {
            spx_hull_destroy(ha), spx_hull_destroy(hb);
            continue;
        }
        const spx_vec3 pos = grid3(-0.3, 0.3);
        const spx_mat3 rot = uniform(0, 1) < 0.2 ? test_identity : random_rotation();
        const spx_placed_hull h = { ha, pos, rot }, hs = { hb, pos, rot };
        const spx_triangle t = random_triangle(1.5);
        const spx_vec3 va = test_random_vec3(uniform, -1, 1);
        const spx_vec3 vb = test_random_vec3(uniform, -4, 4);
        const spx_vec3 rel = spx_v3(vb.x - va.x, vb.y - va.y, vb.z - va.z);
        spx_sweep_hit base, other;
        spx_manifold mb, mo;
        const float margin = 0.05f;
        TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, va, &t, vb, 1.0f, &base), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &t, margin, &mb), SPX_OK);
        manifolds += mb.point_count > 0;
        /* The hull's points in another order. */
        TEST_ENSURE_CODE(spx_sweep_hull_triangle(&hs, va, &t, vb, 1.0f, &other), SPX_OK);
        if (same_hit(&base, &other, spx_v3(0, 0, 0), rel)) {
            fprintf(stderr, "  shuffled hull: axis %d / %d\n", base.axis, other.axis);
            return 1;
        }
        /* The triangle's corners turned round and reversed. */
        static const int orders[5][3] = { { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };
        for (int o = 0; o < 5; ++o) {
            spx_triangle u;
            for (int k = 0; k < 3; ++k) u.v[k] = t.v[orders[o][k]];
            TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, va, &u, vb, 1.0f, &other), SPX_OK);
            if (same_hit(&base, &other, spx_v3(0, 0, 0), rel)) {
                fprintf(stderr, "  corners %d: axis %d / %d, states %d\n", o, base.axis, other.axis, base.state);
                return 1;
            }
            TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &u, margin, &mo), SPX_OK);
            if (same_manifold(&mb, &mo, spx_v3(0, 0, 0), 1e-5)) {
                fprintf(stderr, "  corners %d: %d / %d points, normals %g %g %g / %g %g %g\n", o, mb.point_count,
                        mo.point_count, mb.normal.x, mb.normal.y, mb.normal.z, mo.normal.x, mo.normal.y, mo.normal.z);
                for (int i = 0; i < mb.point_count; ++i)
                    fprintf(stderr, "   a %g %g %g d %g\n", mb.points[i].point.x, mb.points[i].point.y,
                            mb.points[i].point.z, mb.points[i].depth);
                for (int i = 0; i < mo.point_count; ++i)
                    fprintf(stderr, "   b %g %g %g d %g\n", mo.points[i].point.x, mo.points[i].point.y,
                            mo.points[i].point.z, mo.points[i].depth);
                return 1;
            }
        }
        /* The whole problem moved (by offsets exact on the grid). */
        for (int o = 0; o < 2; ++o) {
            const spx_vec3 d = offsets[o];
            spx_placed_hull hf = h;
            hf.position = spx_v3(pos.x + d.x, pos.y + d.y, pos.z + d.z);
            spx_triangle tf;
            for (int k = 0; k < 3; ++k) tf.v[k] = spx_v3(t.v[k].x + d.x, t.v[k].y + d.y, t.v[k].z + d.z);
            TEST_ENSURE_CODE(spx_sweep_hull_triangle(&hf, va, &tf, vb, 1.0f, &other), SPX_OK);
            if (same_hit(&base, &other, d, rel)) {
                fprintf(stderr, "  offset %d: axis %d / %d, state %d\n", o, base.axis, other.axis, base.state);
                return 1;
            }
            TEST_ENSURE_CODE(spx_manifold_hull_triangle(&hf, &tf, margin, &mo), SPX_OK);
            /* Points come back as floats at the offset's scale: within its rounding. */
            const double ulp = 2.0 * FLT_EPSILON * (fabs(d.x) + fabs(d.y) + fabs(d.z)) + 1e-5;
            if (same_manifold(&mb, &mo, d, ulp)) return 1;
        }
        ++compared;
        spx_hull_destroy(ha);
        spx_hull_destroy(hb);
    }
    printf("  %d problems asked 9 ways each (%d with manifold points)\n", compared, manifolds);
    TEST_ENSURE(compared > cases / 2 && manifolds > cases / 20);
    return 0;
}

/* ---- adversarial families ----------------------------------------------------------------------- */

/* A hull face parallel to the triangle: a box landing flat on it from above and from below, the whole
   problem turned at random. Exact time, the face normal, face features, four points at rest. */
static int face_parallel_to_triangle(void)
{
    spx_hull* cube = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(cube);
    for (int c = 0; c < test_cases(200); ++c) {
        const spx_mat3 R = c == 0 ? test_identity : random_rotation();
        const double gap = uniform(0.1, 2.0), speed = uniform(0.5, 8.0);
        const double side = c % 2 ? 1.0 : -1.0; /* from above (+1) or below */
        /* In the turned frame: triangle in z = 0 covering the box's foot, box above/below. */
        const double local[3][3] = { { -4, -4, 0 }, { 4, -4, 0 }, { 0, 5, 0 } };
        spx_triangle t;
        for (int k = 0; k < 3; ++k) {
            const double* x = local[k];
            t.v[k] =
                spx_v3((float)(R.col[0].x * x[0] + R.col[1].x * x[1]), (float)(R.col[0].y * x[0] + R.col[1].y * x[1]),
                       (float)(R.col[0].z * x[0] + R.col[1].z * x[1]));
        }
        const double z = side * (0.5 + gap);
        const spx_placed_hull h = { cube,
                                    spx_v3((float)(R.col[2].x * z), (float)(R.col[2].y * z), (float)(R.col[2].z * z)),
                                    R };
        const spx_vec3 va = spx_v3((float)(-side * speed * R.col[2].x), (float)(-side * speed * R.col[2].y),
                                   (float)(-side * speed * R.col[2].z));
        spx_sweep_hit hit;
        TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, va, &t, spx_v3(0, 0, 0), 1.0f, &hit), SPX_OK);
        if (gap / speed > 1.0) {
            TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
            continue;
        }
        TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(hit.time, gap / speed, 1e-5);
        const double want[3] = { -side * R.col[2].x, -side * R.col[2].y, -side * R.col[2].z };
        TEST_ENSURE(normal_gap(hit.normal, want) < 1e-5);
        TEST_ENSURE(hit.feature_a == SPX_FEATURE_FACE && hit.feature_b == SPX_FEATURE_FACE);
        /* At rest on it, 1 mm in: the four corners of the foot. */
        const double zr = side * (0.5 - 0.001);
        const spx_placed_hull rest = {
            cube, spx_v3((float)(R.col[2].x * zr), (float)(R.col[2].y * zr), (float)(R.col[2].z * zr)), R
        };
        spx_manifold m;
        TEST_ENSURE_CODE(spx_manifold_hull_triangle(&rest, &t, 0.01f, &m), SPX_OK);
        TEST_ENSURE(m.point_count == 4);
        TEST_ENSURE(normal_gap(m.normal, want) < 1e-5);
        for (int i = 0; i < 4; ++i) TEST_ENSURE_NEAR(m.points[i].depth, 0.001, 1e-5);
        spx_penetration pen;
        TEST_ENSURE_CODE(spx_penetration_hull_triangle(&rest, &t, &pen), SPX_OK);
        TEST_ENSURE(test_overlapping_by(&pen, 0.001, 1e-5));
        TEST_ENSURE(normal_gap(pen.normal, want) < 1e-5);
    }
    spx_hull_destroy(cube);
    return 0;
}

/* Exactly touching at t = 0 counts as overlapping, depth 0; a triangle standing on its edge on a face
   gives the two ends of the edge, not the edge twice. */
static int touching_and_standing(void)
{
    spx_hull* cube = test_hull_box(spx_v3(1, 1, 1));
    TEST_ENSURE(cube);
    const spx_placed_hull h = { cube, spx_v3(0, 0, 0), test_identity };
    const spx_triangle flat = { { { -0.5f, -0.5f, 1 }, { 0.5f, -0.5f, 1 }, { 0, 0.5f, 1 } } };
    bool overlap;
    TEST_ENSURE_CODE(spx_overlap_hull_triangle(&h, &flat, &overlap), SPX_OK);
    TEST_ENSURE(overlap);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, spx_v3(0, 0, 0), &flat, spx_v3(0, 0, 1), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(test_starts_overlapping_by(&hit, 0, 1e-7));
    /* Standing: its edge from (-0.5, 0, 0.999) to (0.5, 0, 0.999), the third corner straight up. */
    const spx_triangle standing = { { { -0.5f, 0, 0.999f }, { 0.5f, 0, 0.999f }, { 0, 0, 2 } } };
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &standing, 0.01f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE(fabsf(m.points[0].point.x - m.points[1].point.x) > 0.99f);
    TEST_ENSURE_NEAR(m.normal.z, 1, 1e-6);
    for (int i = 0; i < 2; ++i) TEST_ENSURE_NEAR(m.points[i].depth, 0.001, 1e-6);
    /* The edge reaching past the face both ways: clipped to the face, each end once. */
    const spx_triangle wide = { { { -3, 0, 0.999f }, { 3, 0, 0.999f }, { 0, 0.002f, 2 } } };
    TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &wide, 0.01f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    for (int i = 0; i < 2; ++i) TEST_ENSURE_NEAR(fabsf(m.points[i].point.x), 1, 1e-5);
    TEST_ENSURE(m.points[0].point.x * m.points[1].point.x < 0);
    spx_hull_destroy(cube);
    return 0;
}

/* A hull edge nearly parallel to a triangle edge, crossing it as they close: against the brute force
   at angles from 1e-7 to 1e-1 rad. */
static int nearly_parallel_edges(void)
{
    spx_hull* cube = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(cube);
    worst w = { 0 };
    int cases = 0;
    for (int e = 1; e <= 7; ++e)
        for (int k = 0; k < test_cases(60); ++k) {
            const double angle = pow(10.0, -e) * uniform(0.5, 1.5) * (k % 2 ? 1 : -1);
            /* The cube turned 45 degrees about x: its lowest edge runs along x. */
            const double turn = 0.7853981633974483 + uniform(-1e-3, 1e-3), c = cos(turn), s = sin(turn);
            spx_mat3 R = test_identity;
            R.col[1] = spx_v3(0, (float)c, (float)s);
            R.col[2] = spx_v3(0, (float)-s, (float)c);
            const float hz = grid(1.0, 1.5), hy = grid(-0.2, 0.2), hx = grid(-0.2, 0.2);
            const spx_placed_hull h = { cube, spx_v3(hx, hy, hz), R };
            /* A triangle standing up with its top edge along x turned by `angle` about z. */
            const double ca = cos(angle), sa = sin(angle);
            spx_triangle t = {
                { { (float)(-2 * ca), (float)(-2 * sa), 0 }, { (float)(2 * ca), (float)(2 * sa), 0 }, { 0, 0, -2 } }
            };
            const float vz = (float)-uniform(1, 3), vy = (float)uniform(-0.1, 0.1), vx = (float)uniform(-0.1, 0.1);
            const spx_vec3 va = spx_v3(vx, vy, vz);
            if (check_pair(&h, &t, va, spx_v3(0, 0, 0), 1.0f, &w)) {
                fprintf(stderr, "  angle %g\n", angle);
                return 1;
            }
            ++cases;
        }
    printf("  %d cases: %d hits; worst time %.2g m, normal %.2g, point %.2g m\n", cases, w.hits, w.time, w.normal,
           w.point);
    TEST_ENSURE(w.hits > cases / 2);
    spx_hull_destroy(cube);
    return 0;
}

/* Far from the origin: random problems at offsets up to 1e6 m answer within the float spacing there. */
static int large_offsets(void)
{
    worst w = { 0 };
    int cases = 0;
    for (int c = 0; c < test_cases(500) * scale_cases; ++c) {
        spx_vec3 cloud[24];
        const uint32_t n = random_cloud(uniform(0.5, 1.5), cloud);
        spx_hull* hull = test_hull_of(cloud, n);
        if (!hull) continue;
        const double far = pow(10.0, uniform(3, 6));
        const float dz = (float)(far * uniform(-1, 1)), dy = (float)(far * uniform(-1, 1)),
                    dx = (float)(far * uniform(-1, 1));
        const spx_vec3 d = spx_v3(dx, dy, dz);
        const float hy = d.y + grid(-0.3, 0.3), hx = d.x + grid(-0.3, 0.3);
        const spx_placed_hull h = { hull, spx_v3(hx, hy, d.z), random_rotation() };
        spx_triangle t = random_triangle(1.5);
        for (int k = 0; k < 3; ++k) t.v[k] = spx_v3(t.v[k].x + d.x, t.v[k].y + d.y, t.v[k].z + d.z);
        if (spx_triangle_validate(&t) != SPX_OK) {
            /* Too small for its distance from the origin: refused, as every triangle query does. */
            spx_hull_destroy(hull);
            continue;
        }
        const spx_vec3 vb = test_random_vec3(uniform, -5, 5);
        /* The brute force sees the same floats; its tolerance grows with the coordinates' spacing. */
        static ref_pair r;
        ref_make(&h, &t, &r);
        ref_answer still;
        const double zero[3] = { 0, 0, 0 };
        ref_sweep(&r, zero, 0.0, &still);
        spx_penetration pen;
        TEST_ENSURE_CODE(spx_penetration_hull_triangle(&h, &t, &pen), SPX_OK);
        const double tol = 1e-5 + 8.0 * FLT_EPSILON * far;
        if (fabs(still.depth) > tol) TEST_ENSURE(pen.overlapping == (still.state == SPX_SWEEP_START_OVERLAP));
        if (pen.overlapping && still.state == SPX_SWEEP_START_OVERLAP) TEST_ENSURE_NEAR(pen.depth, still.depth, tol);
        spx_sweep_hit hit;
        TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, spx_v3(0, 0, 0), &t, vb, 1.0f, &hit), SPX_OK);
        TEST_ENSURE(isfinite(hit.time) && isfinite(hit.normal.x) && isfinite(hit.point.x) && isfinite(hit.depth));
        ref_answer swept;
        const double u[3] = { vb.x, vb.y, vb.z };
        ref_sweep(&r, u, 1.0, &swept);
        if (hit.state == SPX_SWEEP_HIT && swept.state == SPX_SWEEP_HIT) {
            const double speed = vlen(u) + 1e-9;
            TEST_ENSURE_NEAR(hit.time, swept.time, tol / speed + 1e-6);
            w.time = fmax(w.time, fabs(hit.time - swept.time) * speed / far);
            ++w.hits;
        }
        ++cases;
        spx_hull_destroy(hull);
    }
    printf("  %d cases, %d hits; worst time error times speed over the offset %.2g\n", cases, w.hits, w.time);
    TEST_ENSURE(w.hits > cases / 20);
    return 0;
}

static int bad_input(void)
{
    spx_hull* cube = test_hull_box(spx_v3(1, 1, 1));
    TEST_ENSURE(cube);
    const spx_placed_hull h = { cube, spx_v3(0, 0, 0), test_identity }, none = { NULL, spx_v3(0, 0, 0), test_identity };
    spx_placed_hull nan_pose = h;
    nan_pose.position.x = NAN;
    const spx_triangle t = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    const spx_triangle point = { { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } } };
    spx_triangle nan_tri = t;
    nan_tri.v[1].y = NAN;
    bool o;
    spx_penetration p;
    spx_sweep_hit s;
    spx_manifold m;
    const spx_vec3 z = { 0, 0, 0 }, bad_v = { INFINITY, 0, 0 };
    TEST_ENSURE_CODE(spx_overlap_hull_triangle(NULL, &t, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_hull_triangle(&h, NULL, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_hull_triangle(&h, &t, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_hull_triangle(&none, &t, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_hull_triangle(&nan_pose, &t, &p), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_penetration_hull_triangle(&h, &nan_tri, &p), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_penetration_hull_triangle(&h, &point, &p), SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, bad_v, &t, z, 1.0f, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, z, &t, z, -1.0f, &s), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_hull_triangle(&h, z, &point, z, -1.0f, &s), SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &t, -1.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &t, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &t, 0.1f, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_hull_destroy(cube);
    return 0;
}

/* ---- hull against mesh --------------------------------------------------------------------------- */

/* An n x n grid of 1 m cells in z = 0 (flat, or with random heights), two triangles a cell. */
static spx_mesh_instance* grid_mesh(int n, double bump, spx_mesh** out_mesh)
{
    const int nv = (n + 1) * (n + 1);
    spx_vec3* v = malloc(sizeof *v * (size_t)nv);
    uint32_t* idx = malloc(sizeof *idx * (size_t)(6 * n * n));
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i)
            v[j * (n + 1) + i] = spx_v3((float)(i - n / 2), (float)(j - n / 2), bump > 0 ? grid(-bump, bump) : 0.0f);
    int k = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 1, d = c + 1;
            idx[k++] = a, idx[k++] = b, idx[k++] = d;
            idx[k++] = a, idx[k++] = d, idx[k++] = c;
        }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v;
    def.vertex_count = (uint32_t)nv;
    def.indices = idx;
    def.triangle_count = (uint32_t)(2 * n * n);
    spx_mesh* mesh = NULL;
    spx_mesh_instance* inst = NULL;
    if (spx_mesh_create(&def, &mesh) == SPX_OK) {
        spx_mesh_instance_def id = spx_default_mesh_instance_def();
        id.mesh = mesh;
        if (spx_mesh_instance_create(&id, &inst) != SPX_OK) inst = NULL;
    }
    free(v);
    free(idx);
    *out_mesh = mesh;
    return inst;
}

/* The mesh queries against every triangle by the single-pair queries. */
static int mesh_against_all_triangles(spx_mesh_instance* inst, const spx_placed_hull* h, spx_vec3 va, spx_vec3 vb,
                                      float tmax, int* hits, int* overlaps)
{
    const spx_mesh* mesh;
    spx_mesh_instance_get_mesh(inst, &mesh);
    spx_mesh_info info;
    spx_mesh_get_info(mesh, &info);
    /* The first contact over all triangles, then the set within the window. */
    bool any_start = false, have = false, any_overlap = false;
    spx_sweep_hit best = { 0 };
    uint32_t best_source = 0;
    for (uint32_t i = 0; i < info.triangle_count; ++i) {
        spx_triangle t;
        uint32_t source;
        TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, i, &t, &source), SPX_OK);
        if (spx_triangle_validate(&t) != SPX_OK) continue;
        bool o;
        TEST_ENSURE_CODE(spx_overlap_hull_triangle(h, &t, &o), SPX_OK);
        any_overlap = any_overlap || o;
        spx_sweep_hit s;
        TEST_ENSURE_CODE(spx_sweep_hull_triangle(h, va, &t, vb, tmax, &s), SPX_OK);
        if (s.state == SPX_SWEEP_MISS) continue;
        const bool start = s.state == SPX_SWEEP_START_OVERLAP;
        bool better = !have || (start && !any_start);
        if (have && start == any_start)
            better = start ? (s.depth > best.depth || (s.depth == best.depth && source < best_source))
                           : (s.time < best.time || (s.time == best.time && source < best_source));
        if (better) best = s, best_source = source, have = true, any_start = any_start || start;
    }
    uint32_t set = 0;
    for (uint32_t i = 0; i < info.triangle_count && have; ++i) {
        spx_triangle t;
        uint32_t source;
        spx_mesh_instance_get_triangle(inst, i, &t, &source);
        if (spx_triangle_validate(&t) != SPX_OK) continue;
        spx_sweep_hit s;
        spx_sweep_hull_triangle(h, va, &t, vb, tmax, &s);
        if (s.state == SPX_SWEEP_MISS) continue;
        if (any_start ? s.state == SPX_SWEEP_START_OVERLAP : s.time <= best.time + SPX_MESH_CONTACT_WINDOW * tmax)
            ++set;
    }
    bool overlap;
    TEST_ENSURE_CODE(spx_overlap_hull_mesh(h, inst, &overlap), SPX_OK);
    TEST_ENSURE(overlap == any_overlap);
    spx_mesh_contact contacts[64];
    spx_mesh_hit mh;
    TEST_ENSURE_CODE(spx_sweep_hull_mesh(h, va, inst, vb, tmax, contacts, 64, &mh), SPX_OK);
    if (!have) {
        TEST_ENSURE(mh.state == SPX_SWEEP_MISS);
        return 0;
    }
    TEST_ENSURE(mh.state == best.state);
    TEST_ENSURE(mh.first.triangle_b == best_source);
    TEST_ENSURE(mh.contact_count == set);
    TEST_ENSURE(mh.contacts_written == (set < 64 ? set : 64));
    /* Each contact written is its own triangle's single-pair answer, bit for bit, once, in the mesh's order
       (the descent's: a node's triangles are a range, the left child's first). */
    uint32_t last = 0;
    for (uint32_t i = 0; i < mh.contacts_written; ++i) {
        uint32_t found = 0;
        for (uint32_t k = 0; k < info.triangle_count; ++k) {
            spx_triangle t;
            uint32_t source;
            spx_mesh_instance_get_triangle(inst, k, &t, &source);
            if (source != contacts[i].triangle_b || spx_triangle_validate(&t) != SPX_OK) continue;
            spx_sweep_hit s;
            spx_sweep_hull_triangle(h, va, &t, vb, tmax, &s);
            TEST_ENSURE(s.state != SPX_SWEEP_MISS);
            TEST_ENSURE(memcmp(&s.normal, &contacts[i].normal, sizeof s.normal) == 0);
            TEST_ENSURE(memcmp(&s.point, &contacts[i].point, sizeof s.point) == 0);
            TEST_ENSURE(s.state == SPX_SWEEP_START_OVERLAP ? contacts[i].time == 0.0f : contacts[i].time == s.time);
            TEST_ENSURE(i == 0 || k > last);
            last = k;
            ++found;
        }
        TEST_ENSURE(found == 1);
        for (uint32_t j = 0; j < i; ++j) TEST_ENSURE(contacts[j].triangle_b != contacts[i].triangle_b);
    }
    if (best.state == SPX_SWEEP_HIT) {
        ++*hits;
        TEST_ENSURE(mh.time == best.time);
        for (uint32_t i = 0; i < mh.contacts_written; ++i)
            TEST_ENSURE(contacts[i].time <= mh.time + SPX_MESH_CONTACT_WINDOW * tmax);
    } else {
        ++*overlaps;
        TEST_ENSURE(mh.first.depth == best.depth);
        TEST_ENSURE(mh.depth >= 0.0f && isfinite(mh.depth));
    }
    /* At the pose: every overlapping triangle. */
    spx_mesh_hit ph;
    TEST_ENSURE_CODE(spx_penetration_hull_mesh(h, inst, contacts, 64, &ph), SPX_OK);
    TEST_ENSURE(ph.state == (any_overlap ? SPX_SWEEP_START_OVERLAP : SPX_SWEEP_MISS));
    return 0;
}

static int hull_mesh_against_brute_force(void)
{
    spx_mesh *flat_mesh, *bumpy_mesh;
    spx_mesh_instance* flat = grid_mesh(8, 0.0, &flat_mesh);
    spx_mesh_instance* bumpy = grid_mesh(8, 0.4, &bumpy_mesh);
    TEST_ENSURE(flat && bumpy);
    int hits = 0, overlaps = 0;
    const int cases = test_cases(600) * scale_cases;
    for (int c = 0; c < cases; ++c) {
        spx_vec3 cloud[24];
        /* Every fifth (from the third) a gem: its first point of contact is on its bounding sphere. */
        const uint32_t n = c % 5 == 2 ? random_gem(uniform(0.3, 1.5), cloud) : random_cloud(uniform(0.3, 1.5), cloud);
        spx_hull* hull = c % 5 == 0 ? test_hull_box(spx_v3(0.5f, 0.5f, 0.5f)) : test_hull_of(cloud, n);
        if (!hull) continue;
        /* Every fifth a box turned only about z over the flat grid: its foot lands flat, on many
           triangles at once (ties). */
        const bool flat_case = c % 5 == 0;
        spx_mat3 R = test_identity;
        if (!flat_case) R = random_rotation();
        const float hz = flat_case ? 1.5f : grid(-1, 2), hy = grid(-3, 3), hx = grid(-3, 3);
        const spx_placed_hull h = { hull, spx_v3(hx, hy, hz), R };
        spx_vec3 va = spx_v3(0, 0, -2);
        if (!flat_case) {
            const float vz = grid(-3, 1), vy = grid(-2, 2), vx = grid(-2, 2);
            va = spx_v3(vx, vy, vz);
        }
        const spx_vec3 vb = spx_v3(0, 0, 0);
        if (mesh_against_all_triangles(c % 2 ? bumpy : flat, &h, va, vb, 1.0f, &hits, &overlaps)) {
            fprintf(stderr, "  case %d\n", c);
            return 1;
        }
        spx_hull_destroy(hull);
    }
    printf("  %d cases: %d hits, %d start overlaps\n", cases, hits, overlaps);
    TEST_ENSURE(hits > cases / 10 && overlaps > cases / 10);
    spx_mesh_instance_destroy(flat);
    spx_mesh_instance_destroy(bumpy);
    spx_mesh_destroy(flat_mesh);
    spx_mesh_destroy(bumpy_mesh);
    return 0;
}

/* A box landing flat on a flat mesh: every triangle under its foot touches at the same time; the
   normal and point are their means; at rest one manifold, its four corners, no ghost normal from the
   inner edges anywhere along a slide, and the corners keep their ids from triangle to triangle. */
static int hull_lands_flat_on_mesh(void)
{
    spx_mesh* mesh;
    spx_mesh_instance* inst = grid_mesh(8, 0.0, &mesh);
    spx_hull* cube = test_hull_box(spx_v3(0.75f, 0.75f, 0.5f));
    TEST_ENSURE(inst && cube);
    const spx_placed_hull drop = { cube, spx_v3(0.25f, 0.25f, 1.5f), test_identity };
    spx_mesh_contact contacts[32];
    spx_mesh_hit mh;
    TEST_ENSURE_CODE(spx_sweep_hull_mesh(&drop, spx_v3(0, 0, -2), inst, spx_v3(0, 0, 0), 1.0f, contacts, 32, &mh),
                     SPX_OK);
    TEST_ENSURE(mh.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(mh.time, 0.5, 1e-6);
    TEST_ENSURE_NEAR(mh.normal.z, -1, 1e-6);
    /* The foot [-0.5, 1] x [-0.5, 1] covers cells -1..0 in x and y: 4 cells, 8 triangles, plus the
       triangles touching it along edges and corners. */
    TEST_ENSURE(mh.contact_count >= 8);
    for (uint32_t i = 0; i < mh.contacts_written; ++i) TEST_ENSURE(contacts[i].time == mh.time);
    int slid = 0;
    uint32_t ids[4] = { 0 };
    for (int s = 0; s <= 200; ++s) {
        const float x = -1.5f + 3.0f * (float)s / 200.0f;
        const spx_placed_hull rest = { cube, spx_v3(x, 0.3f * x, 0.499f), test_identity };
        spx_manifold m[4];
        uint32_t count;
        TEST_ENSURE_CODE(spx_manifold_hull_mesh(&rest, inst, 0.01f, m, 4, &count), SPX_OK);
        TEST_ENSURE(count == 1);
        TEST_ENSURE_NEAR(m[0].normal.z, -1, 1e-6);
        TEST_ENSURE(m[0].point_count == 4);
        uint32_t now[4];
        for (int i = 0; i < 4; ++i) {
            TEST_ENSURE_NEAR(m[0].points[i].depth, 0.001, 1e-5);
            TEST_ENSURE_NEAR(fabs(m[0].points[i].point.x - x), 0.75, 1e-5);
            now[i] = m[0].points[i].id;
        }
        if (s > 0) TEST_ENSURE(memcmp(now, ids, sizeof ids) == 0);
        memcpy(ids, now, sizeof ids);
        ++slid;
    }
    TEST_ENSURE(slid == 201);
    /* A hull over a ridge of a bumpy mesh meets two slopes: a manifold for each, deepest first. */
    spx_hull_destroy(cube);
    spx_mesh_instance_destroy(inst);
    spx_mesh_destroy(mesh);
    return 0;
}

/* Random hulls sunk 1 mm into a flat grid at random places and turns: one manifold, its normal the
   grid's (no ghost normal from an edge between two coplanar triangles). */
static int no_ghost_normals_on_flat_mesh(void)
{
    spx_mesh* mesh;
    spx_mesh_instance* inst = grid_mesh(8, 0.0, &mesh);
    TEST_ENSURE(inst);
    int cases = 0;
    double worst_off = 0.0;
    for (int c = 0; c < test_cases(1000) * scale_cases; ++c) {
        spx_vec3 cloud[24];
        const uint32_t n = random_cloud(uniform(0.3, 1.2), cloud);
        spx_hull* hull = test_hull_of(cloud, n);
        if (!hull) continue;
        const float hy = grid(-2, 2), hx = grid(-2, 2);
        spx_placed_hull h = { hull, spx_v3(hx, hy, 0), random_rotation() };
        /* Lowered until its lowest corner is 1 mm under the grid. */
        spx_hull_info info;
        spx_hull_get_info(hull, &info);
        double low = DBL_MAX;
        for (uint32_t i = 0; i < info.corner_count; ++i) {
            spx_vec3 p;
            spx_hull_get_corner(hull, i, &p);
            low = fmin(low, (double)h.rotation.col[0].z * p.x + (double)h.rotation.col[1].z * p.y +
                                (double)h.rotation.col[2].z * p.z);
        }
        h.position.z = (float)(-low - 0.001);
        spx_manifold m[4];
        uint32_t count;
        TEST_ENSURE_CODE(spx_manifold_hull_mesh(&h, inst, 0.01f, m, 4, &count), SPX_OK);
        TEST_ENSURE(count == 1);
        TEST_ENSURE(m[0].point_count >= 1);
        worst_off = fmax(worst_off, fabs(m[0].normal.z + 1.0));
        TEST_ENSURE_NEAR(m[0].normal.z, -1, 1e-6);
        for (int i = 0; i < m[0].point_count; ++i) TEST_ENSURE(m[0].points[i].depth <= 0.001f + 1e-5f);
        ++cases;
        spx_hull_destroy(hull);
    }
    printf("  %d hulls resting on the grid; worst normal off -z %.2g\n", cases, worst_off);
    spx_mesh_instance_destroy(inst);
    spx_mesh_destroy(mesh);
    return 0;
}

/* A single-triangle mesh (every edge open) gives the hull-triangle answer. */
static int one_triangle_mesh(void)
{
    const spx_vec3 v[3] = { { -2, -2, 0 }, { 3, -1, 0.5f }, { 0, 3, -0.25f } };
    const uint32_t idx[3] = { 0, 1, 2 };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 3, def.indices = idx, def.triangle_count = 1;
    spx_mesh* mesh;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_mesh_instance_def id = spx_default_mesh_instance_def();
    id.mesh = mesh;
    spx_mesh_instance* inst;
    TEST_ENSURE_CODE(spx_mesh_instance_create(&id, &inst), SPX_OK);
    spx_triangle t;
    TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, 0, &t, NULL), SPX_OK);
    int with_points = 0;
    for (int c = 0; c < test_cases(500); ++c) {
        spx_vec3 cloud[24];
        const uint32_t n = random_cloud(uniform(0.3, 1.2), cloud);
        spx_hull* hull = test_hull_of(cloud, n);
        if (!hull) continue;
        const float hz = grid(-1, 1), hy = grid(-2, 2), hx = grid(-2, 2);
        const spx_placed_hull h = { hull, spx_v3(hx, hy, hz), random_rotation() };
        spx_manifold single, multi[4];
        uint32_t count;
        TEST_ENSURE_CODE(spx_manifold_hull_triangle(&h, &t, 0.05f, &single), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_hull_mesh(&h, inst, 0.05f, multi, 4, &count), SPX_OK);
        const spx_vec3 n_face = spx_v3(0, 0, 0);
        (void)n_face;
        if (single.point_count == 0) {
            TEST_ENSURE(count == 0);
        } else {
            TEST_ENSURE(count == 1);
            with_points++;
            /* The same contact, though the face may be made the reference when the normal is within
               5 degrees of it: the deepest point agrees within the margin's rounding. */
            float ds = -FLT_MAX, dm = -FLT_MAX;
            for (int i = 0; i < single.point_count; ++i) ds = fmaxf(ds, single.points[i].depth);
            for (int i = 0; i < multi[0].point_count; ++i) dm = fmaxf(dm, multi[0].points[i].depth);
            TEST_ENSURE(dm >= ds - 0.01f * (float)fabs(ds) - 1e-4f || dm >= ds * 0.99f);
        }
        spx_hull_destroy(hull);
    }
    printf("  %d manifolds compared\n", with_points);
    TEST_ENSURE(with_points > 20);
    spx_mesh_instance_destroy(inst);
    spx_mesh_destroy(mesh);
    return 0;
}

static int mesh_bad_input(void)
{
    spx_mesh* mesh;
    spx_mesh_instance* inst = grid_mesh(2, 0.0, &mesh);
    spx_hull* cube = test_hull_box(spx_v3(1, 1, 1));
    TEST_ENSURE(inst && cube);
    const spx_placed_hull h = { cube, spx_v3(0, 0, 0), test_identity }, none = { NULL, spx_v3(0, 0, 0), test_identity };
    bool o;
    spx_mesh_hit mh;
    spx_manifold m;
    uint32_t count;
    const spx_vec3 z = { 0, 0, 0 };
    TEST_ENSURE_CODE(spx_overlap_hull_mesh(&none, inst, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_hull_mesh(&h, NULL, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_hull_mesh(&h, z, inst, z, 1.0f, NULL, 3, &mh), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_hull_mesh(&h, z, inst, z, -1.0f, NULL, 0, &mh), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_penetration_hull_mesh(&h, inst, NULL, 0, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_hull_mesh(&h, inst, -1.0f, &m, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_hull_mesh(&h, inst, 0.1f, NULL, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_hull_mesh(&h, inst, 0.1f, &m, 1, &count), SPX_OK);
    TEST_ENSURE(count == 1);
    spx_hull_destroy(cube);
    spx_mesh_instance_destroy(inst);
    spx_mesh_destroy(mesh);
    return 0;
}

/* A segment-like triangle far smaller than its distance from the hull's origin (1e-30 to 1e-6 m long, its third
   corner off the line by 1e-15 of that, at the world origin where such floats exist) in and about a box's hull: the
   depth is the deepest corner's below the hull's faces within 1e-6 m, the overlap the same wherever that is beyond
   1e-6 m, and the manifold's points finite. */
static int tiny_segment_like_triangles(void)
{
    const int cases = test_cases(2000) * scale_cases;
    spx_hull* h = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(h);
    int overlaps = 0;
    for (int c = 0; c < cases; ++c) {
        const double len = pow(10.0, uniform(-30, -6));
        const spx_vec3 d = test_random_vec3(uniform, -1, 1), o = test_random_vec3(uniform, -1, 1);
        spx_triangle t;
        t.v[0] = spx_v3(0, 0, 0);
        t.v[1] = spx_v3((float)(len * d.x), (float)(len * d.y), (float)(len * d.z));
        t.v[2] = spx_v3((float)(len * 1e-15 * o.x), (float)(len * 1e-15 * o.y), (float)(len * 1e-15 * o.z));
        const spx_vec3 at = grid3(-0.7, 0.7);
        const spx_placed_hull ph = { h, at, random_rotation() };
        double ref = -DBL_MAX; /* the deepest corner below the box's faces */
        for (int k = 0; k < 3; ++k) {
            double below = DBL_MAX;
            for (int a = 0; a < 3; ++a) {
                const spx_vec3 n = ph.rotation.col[a];
                const double x =
                    ((double)t.v[k].x - at.x) * n.x + ((double)t.v[k].y - at.y) * n.y + ((double)t.v[k].z - at.z) * n.z;
                below = fmin(below, 0.5 - fabs(x));
            }
            ref = fmax(ref, below);
        }
        spx_penetration pen;
        spx_manifold m;
        const spx_result r = spx_penetration_hull_triangle(&ph, &t, &pen);
        if (r == SPX_ERR_DEGENERATE_TRIANGLE) continue;
        TEST_ENSURE_CODE(r, SPX_OK);
        if (fabs(ref) > 1e-6) TEST_ENSURE(pen.overlapping == (ref > 0));
        if (pen.overlapping && ref > 1e-6) TEST_ENSURE_NEAR(pen.depth, ref, 1e-6);
        TEST_ENSURE_CODE(spx_manifold_hull_triangle(&ph, &t, 0.01f, &m), SPX_OK);
        for (int k = 0; k < m.point_count; ++k)
            TEST_ENSURE(isfinite(m.points[k].point.x) && isfinite(m.points[k].point.y) &&
                        isfinite(m.points[k].point.z) && isfinite(m.points[k].depth));
        overlaps += ref > 1e-6;
    }
    spx_hull_destroy(h);
    printf("  %d of %d overlapping\n", overlaps, cases);
    TEST_ENSURE(overlaps > cases / 10);
    return 0;
}

int main(int argc, char** argv)
{
    if (test_long_run(argc, argv)) scale_cases = 10;
    int failures = 0;
    TEST_RUN(bad_input, failures);
    TEST_RUN(touching_and_standing, failures);
    TEST_RUN(face_parallel_to_triangle, failures);
    TEST_RUN(nearly_parallel_edges, failures);
    TEST_RUN(random_against_brute_force, failures);
    TEST_RUN(answers_invariant, failures);
    TEST_RUN(large_offsets, failures);
    TEST_RUN(mesh_bad_input, failures);
    TEST_RUN(one_triangle_mesh, failures);
    TEST_RUN(hull_mesh_against_brute_force, failures);
    TEST_RUN(hull_lands_flat_on_mesh, failures);
    TEST_RUN(no_ghost_normals_on_flat_mesh, failures);
    TEST_RUN(tiny_segment_like_triangles, failures);
    return failures != 0;
}
