/* sepax_bench: pair sets built so that the share of overlapping (or hitting) pairs is known.

   For each pair both pieces are first centred on the origin, where they overlap. Moving B along a
   random unit direction u, the pieces stop overlapping at the touching distance d*: the smallest,
   over a complete set of separating axes L, of the distance at which B's projection on L slides off
   A's. Placing B at f * d* * u then overlaps exactly when f < 1. The extra axes (in-plane triangle
   edge normals) are harmless: any axis that separates proves the pieces apart.

   Only +, *, / and sqrt go into a set (no sin, cos, exp from libm), all in double with
   -ffp-contract=off, so one seed gives the same bits on every IEEE machine. */
#include "pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers: splitmix64 seeds xoshiro256** ------------------------------------------- */

typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t* x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void rng_seed(rng* r, uint64_t seed)
{
    for (int i = 0; i < 4; ++i) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng* r)
{
    uint64_t* s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* [0, 1) with 53 random bits. */
static double rng_unit(rng* r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

static double rng_range(rng* r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

/* Uniform in the unit ball, by rejection from the cube (52% accepted). */
static void rng_ball(rng* r, double out[3])
{
    double x, y, z;
    do {
        x = rng_range(r, -1.0, 1.0);
        y = rng_range(r, -1.0, 1.0);
        z = rng_range(r, -1.0, 1.0);
    } while (x * x + y * y + z * z > 1.0);
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* ---- small double vector helpers ------------------------------------------------------------- */

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double normalize(double v[3])
{
    double len = sqrt(dot(v, v));
    if (len > 0.0)
        for (int k = 0; k < 3; ++k) v[k] /= len;
    return len;
}

/* Uniform on the unit sphere: a point of the ball pushed out (rejecting the centre's neighbourhood,
   where the direction would be noise). */
static void rng_direction(rng* r, double out[3])
{
    do rng_ball(r, out);
    while (dot(out, out) < 1e-4);
    normalize(out);
}

/* ---- pieces centred on the origin, with the float values the set will hold -------------------- */

typedef struct piece {
    bool box;
    double center[3];  /* box; zero while a pair is being built */
    double half[3];    /* box */
    double axis[3][3]; /* box: axis[i] is axis i */
    double v[3][3];    /* triangle corners (around its centroid while a pair is being built) */
} piece;

/* Mixed sizes over almost two decades without exp(): 0.05 m times 2^k, k in 0..5, times [1, 2). */
static double piece_size(rng* r)
{
    const double octave = (double)(1u << (rng_next(r) % 6u));
    return 0.05 * octave * rng_range(r, 1.0, 2.0);
}

static double round_float(double x) { return (double)(float)x; }

/* Box axes from a unit quaternion (x, y, z, w), rounded to the floats the set will hold. */
static void set_axes(piece* p, double qx, double qy, double qz, double qw)
{
    double m[3][3] = {
        /* row i, column j; column j is axis j */
        { 1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw) },
        { 2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw) },
        { 2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy) },
    };
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p->axis[j][i] = round_float(m[i][j]);
}

/* A box with per-axis half extents in [0.1, 1] of its size (aspect up to 10:1) and a uniformly
   random rotation: Marsaglia's (1972) uniform unit quaternion, from two points of the unit disc. */
static void make_box(rng* r, piece* p)
{
    double size = piece_size(r);
    double x1, y1, s1, x2, y2, s2;
    do {
        x1 = rng_range(r, -1.0, 1.0);
        y1 = rng_range(r, -1.0, 1.0);
        s1 = x1 * x1 + y1 * y1;
    } while (s1 >= 1.0);
    do {
        x2 = rng_range(r, -1.0, 1.0);
        y2 = rng_range(r, -1.0, 1.0);
        s2 = x2 * x2 + y2 * y2;
    } while (s2 >= 1.0 || s2 < 1e-12);
    double k = sqrt((1.0 - s1) / s2);
    p->box = true;
    for (int i = 0; i < 3; ++i) {
        p->center[i] = 0.0;
        p->half[i] = round_float(size * rng_range(r, 0.1, 1.0));
    }
    set_axes(p, x1, y1, x2 * k, y2 * k);
}

/* A point of the unit circle, uniform in angle: a point of the disc pushed out. */
static void rng_circle(rng* r, double* c, double* s)
{
    double x, y, n;
    do {
        x = rng_range(r, -1.0, 1.0);
        y = rng_range(r, -1.0, 1.0);
        n = x * x + y * y;
    } while (n > 1.0 || n < 1e-4);
    n = sqrt(n);
    *c = x / n;
    *s = y / n;
}

/* A box lying flat (y its short axis: half extents x, z in [0.5, 1] of size, y in [0.15, 0.6])
   turned by a uniform yaw about the world y axis, then tilted about a random horizontal axis by
   up to 2 asin(max_half_sin): the pose of a box settled on a floor or on another box. */
static void make_resting_box(rng* r, piece* p, double size, double max_half_sin)
{
    p->box = true;
    for (int i = 0; i < 3; ++i) p->center[i] = 0.0;
    p->half[0] = round_float(size * rng_range(r, 0.5, 1.0));
    p->half[1] = round_float(size * rng_range(r, 0.15, 0.6));
    p->half[2] = round_float(size * rng_range(r, 0.5, 1.0));
    double yc, ys, tx, tz;
    rng_circle(r, &yc, &ys); /* yaw quaternion (0, ys, 0, yc): half-angle uniform */
    rng_circle(r, &tx, &tz); /* tilt axis (tx, 0, tz) */
    double st = rng_range(r, 0.0, max_half_sin), ct = sqrt(1.0 - st * st);
    /* tilt * yaw, with tilt = (st tx, 0, st tz, ct) */
    double ax = st * tx, az = st * tz;
    set_axes(p, ax * yc - az * ys, ct * ys, az * yc + ax * ys, ct * yc);
}

/* Resting pair: A settled (tilt up to 0.06 degree), B on A's top face with its own yaw and a tilt
   up to 0.06 degree too, as a solver leaves a stack, or up to 10 degrees for one pair in four (a
   box resting on an edge or a corner). A settled tilt must stay below the penetration: 0.1 degree
   over a 2 m face is 3.5 mm. Sizes within a factor 1.5 of each other. Writes the direction u from
   A's centre along which B is placed: A's up axis leaned sideways by up to 0.3, so B overhangs
   now and then. */
static void make_resting_pair(rng* r, piece* a, piece* b, double u[3])
{
    double size = piece_size(r);
    make_resting_box(r, a, size, 0.0005);
    const double tilt = rng_next(r) % 4u == 0 ? 0.09 : 0.0005;
    make_resting_box(r, b, size * rng_range(r, 0.67, 1.5), tilt);
    double lean[3];
    rng_ball(r, lean);
    for (int c = 0; c < 3; ++c) u[c] = a->axis[1][c] + 0.3 * (lean[0] * a->axis[0][c] + lean[2] * a->axis[2][c]);
    normalize(u);
}

/* A triangle of corners drawn in a ball of the piece size, kept when its area is at least 1% of
   size^2 (no slivers so thin that they are a segment). */
static void make_triangle(rng* r, piece* p)
{
    double size = piece_size(r);
    for (;;) {
        double mean[3] = { 0, 0, 0 };
        for (int k = 0; k < 3; ++k) {
            rng_ball(r, p->v[k]);
            for (int c = 0; c < 3; ++c) {
                p->v[k][c] *= size;
                mean[c] += p->v[k][c] / 3.0;
            }
        }
        for (int k = 0; k < 3; ++k)
            for (int c = 0; c < 3; ++c) p->v[k][c] = round_float(p->v[k][c] - mean[c]);
        double e1[3], e2[3], n[3];
        for (int c = 0; c < 3; ++c) {
            e1[c] = p->v[1][c] - p->v[0][c];
            e2[c] = p->v[2][c] - p->v[0][c];
        }
        cross(e1, e2, n);
        if (0.5 * sqrt(dot(n, n)) >= 0.01 * size * size) break;
    }
    p->box = false;
}

/* ---- touching distance ----------------------------------------------------------------------- */

#define MAX_AXES 32

typedef struct axis_set {
    double l[MAX_AXES][3];
    int count;
} axis_set;

static void add_axis(axis_set* s, const double l[3])
{
    double v[3] = { l[0], l[1], l[2] };
    /* Cross products of nearly parallel edges are noise; the face axes cover those pairs. */
    if (normalize(v) < 1e-6 || s->count == MAX_AXES) return;
    memcpy(s->l[s->count++], v, sizeof v);
}

/* Face normals (plus a triangle's in-plane edge normals) go to `faces`, edge directions to `edges`. */
static void piece_features(const piece* p, axis_set* faces, double edges[3][3])
{
    if (p->box) {
        for (int i = 0; i < 3; ++i) {
            add_axis(faces, p->axis[i]);
            memcpy(edges[i], p->axis[i], sizeof edges[i]);
        }
        return;
    }
    double n[3], e[3][3];
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c) e[k][c] = p->v[(k + 1) % 3][c] - p->v[k][c];
    cross(e[0], e[1], n);
    add_axis(faces, n);
    for (int k = 0; k < 3; ++k) {
        double in_plane[3];
        cross(n, e[k], in_plane);
        add_axis(faces, in_plane);
        memcpy(edges[k], e[k], sizeof edges[k]);
    }
}

static void project(const piece* p, const double l[3], double* lo, double* hi)
{
    if (p->box) {
        double r = 0.0, c = dot(p->center, l);
        for (int i = 0; i < 3; ++i) r += p->half[i] * fabs(dot(p->axis[i], l));
        *lo = c - r;
        *hi = c + r;
        return;
    }
    *lo = *hi = dot(p->v[0], l);
    for (int k = 1; k < 3; ++k) {
        double d = dot(p->v[k], l);
        *lo = d < *lo ? d : *lo;
        *hi = d > *hi ? d : *hi;
    }
}

/* Face normals of both, in-plane edge normals of triangles, and the edge-edge cross products:
   complete for two convex polyhedra, also when a triangle is flat against the other piece. */
static void pair_axes(const piece* a, const piece* b, axis_set* axes)
{
    double edges_a[3][3], edges_b[3][3];
    axes->count = 0;
    piece_features(a, axes, edges_a);
    piece_features(b, axes, edges_b);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double l[3];
            cross(edges_a[i], edges_b[j], l);
            add_axis(axes, l);
        }
}

/* Distance along unit u at which B, starting centred on A, stops overlapping it. */
static double touching_distance(const piece* a, const piece* b, const double u[3])
{
    axis_set axes;
    pair_axes(a, b, &axes);
    double best = HUGE_VAL;
    for (int k = 0; k < axes.count; ++k) {
        double a0, a1, b0, b1, s = dot(u, axes.l[k]);
        if (fabs(s) < 1e-12) continue;
        project(a, axes.l[k], &a0, &a1);
        project(b, axes.l[k], &b0, &b1);
        double d = s > 0.0 ? (a1 - b0) / s : (b1 - a0) / -s;
        best = d < best ? d : best;
    }
    return best;
}

/* ---- the exact answer on the stored floats --------------------------------------------------- */

/* Rounding the built pair to float moves it by up to a few µm, so a pair built within that of
   touching may land on the other side. The reference answer is therefore taken again on the stored
   floats, in double, over the complete axis set: static overlap (touching counts), or for a sweep
   the separating-axis time intervals of B's motion relative to A (first contact in [0, tmax]). */

static void v3(spx_vec3 v, double out[3])
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

static void piece_from_box(const spx_obb* box, piece* p)
{
    p->box = true;
    v3(box->center, p->center);
    v3(box->half_extents, p->half);
    for (int i = 0; i < 3; ++i) v3(box->rotation.col[i], p->axis[i]);
}

static void piece_from_triangle(const spx_triangle* t, piece* p)
{
    p->box = false;
    for (int k = 0; k < 3; ++k) v3(t->v[k], p->v[k]);
}

/* relative: velocity of B relative to A (m/s), NULL for the static question. */
static bool exact_answer(const piece* a, const piece* b, const double* relative, double tmax)
{
    axis_set axes;
    pair_axes(a, b, &axes);
    double first = 0.0, last = tmax;
    for (int k = 0; k < axes.count; ++k) {
        double a0, a1, b0, b1;
        project(a, axes.l[k], &a0, &a1);
        project(b, axes.l[k], &b0, &b1);
        double s = relative ? dot(relative, axes.l[k]) : 0.0;
        if (s == 0.0) {
            if (b0 > a1 || b1 < a0) return false;
            continue;
        }
        /* On this axis they overlap while b0 + s t <= a1 and b1 + s t >= a0. */
        double enter = s > 0.0 ? (a0 - b1) / s : (a1 - b0) / s;
        double exit = s > 0.0 ? (a1 - b0) / s : (a0 - b1) / s;
        first = enter > first ? enter : first;
        last = exit < last ? exit : last;
        if (first > last) return false;
    }
    return true;
}

/* ---- placing pieces -------------------------------------------------------------------------- */

static spx_vec3 to_vec3(const double v[3]) { return spx_v3((float)v[0], (float)v[1], (float)v[2]); }

static bool store_box(const piece* p, const double center[3], spx_obb* out)
{
    spx_mat3 rotation;
    for (int i = 0; i < 3; ++i) rotation.col[i] = to_vec3(p->axis[i]);
    return spx_obb_from_matrix(to_vec3(center), to_vec3(p->half), &rotation, out) == SPX_OK;
}

static bool store_triangle(const piece* p, const double center[3], spx_triangle* out)
{
    for (int k = 0; k < 3; ++k) {
        double v[3] = { center[0] + p->v[k][0], center[1] + p->v[k][1], center[2] + p->v[k][2] };
        out->v[k] = to_vec3(v);
    }
    return spx_triangle_validate(out) == SPX_OK;
}

static void* alloc_array(size_t count, size_t size, bool wanted)
{
    return wanted ? calloc(count ? count : 1, size) : NULL;
}

bool bench_pairs_make(bench_pairs* out, bench_pair_kind kind, bool swept, size_t count, uint64_t seed)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->swept = swept;
    out->tmax = BENCH_TMAX;
    /* Each set its own stream: a set does not change when others are added or filtered out. */
    uint64_t mix = seed ^ ((uint64_t)kind << 56) ^ ((uint64_t)swept << 48) ^ (uint64_t)count;
    out->seed = splitmix64(&mix);
    rng r;
    rng_seed(&r, out->seed);

    bool resting = kind == BENCH_OBB_OBB_RESTING;
    bool a_box = kind != BENCH_TRI_TRI, b_box = kind == BENCH_OBB_OBB || resting;
    if (resting && swept) return false;
    out->box_a = alloc_array(count, sizeof(spx_obb), a_box);
    out->tri_a = alloc_array(count, sizeof(spx_triangle), !a_box);
    out->box_b = alloc_array(count, sizeof(spx_obb), b_box);
    out->tri_b = alloc_array(count, sizeof(spx_triangle), !b_box);
    out->vel_a = alloc_array(count, sizeof(spx_vec3), swept);
    out->vel_b = alloc_array(count, sizeof(spx_vec3), swept);
    out->built = alloc_array(count, sizeof(float), true);
    out->exact = alloc_array(count, sizeof(uint8_t), true);
    if (!out->built || !out->exact || (a_box ? !out->box_a : !out->tri_a) || (b_box ? !out->box_b : !out->tri_b) ||
        (swept && (!out->vel_a || !out->vel_b))) {
        bench_pairs_free(out);
        return false;
    }

    for (size_t i = 0; i < count; ++i) {
        piece a = { .box = false }, b = { .box = false };
        double ca[3], cb[3], u[3];
        if (resting) make_resting_pair(&r, &a, &b, u);
        else {
            if (a_box) make_box(&r, &a);
            else make_triangle(&r, &a);
            if (b_box) make_box(&r, &b);
            else make_triangle(&r, &b);
        }
        for (int c = 0; c < 3; ++c) ca[c] = round_float(rng_range(&r, -20.0, 20.0));
        if (!resting) rng_direction(&r, u);
        double touch = touching_distance(&a, &b, u);
        double f = swept ? rng_range(&r, 1.02, 2.0) : resting ? rng_range(&r, 0.99, 1.005) : rng_range(&r, 0.5, 1.5);
        for (int c = 0; c < 3; ++c) cb[c] = ca[c] + f * touch * u[c];
        if (swept) {
            /* B closes on A along -u and touches at g * tmax; a common drift keeps both moving. */
            double g = rng_range(&r, 0.05, 1.95);
            double speed = (f - 1.0) * touch / (g * (double)out->tmax), drift[3];
            rng_ball(&r, drift);
            double va[3], vb[3];
            for (int c = 0; c < 3; ++c) {
                va[c] = 0.5 * speed * drift[c];
                vb[c] = va[c] - speed * u[c];
            }
            out->vel_a[i] = to_vec3(va);
            out->vel_b[i] = to_vec3(vb);
            out->built[i] = (float)(g - 1.0);
        } else {
            out->built[i] = (float)(f - 1.0);
        }
        bool ok = a_box ? store_box(&a, ca, &out->box_a[i]) : store_triangle(&a, ca, &out->tri_a[i]);
        ok = ok && (b_box ? store_box(&b, cb, &out->box_b[i]) : store_triangle(&b, cb, &out->tri_b[i]));
        if (!ok) {
            bench_pairs_free(out);
            return false;
        }
        if (a_box) piece_from_box(&out->box_a[i], &a);
        else piece_from_triangle(&out->tri_a[i], &a);
        if (b_box) piece_from_box(&out->box_b[i], &b);
        else piece_from_triangle(&out->tri_b[i], &b);
        double relative[3];
        if (swept) {
            double va[3], vb[3];
            v3(out->vel_a[i], va);
            v3(out->vel_b[i], vb);
            for (int c = 0; c < 3; ++c) relative[c] = vb[c] - va[c];
        }
        out->exact[i] = exact_answer(&a, &b, swept ? relative : NULL, (double)out->tmax);
        out->built_hits += (out->built[i] < 0.0f);
        out->exact_hits += out->exact[i];
    }
    out->count = count;
    return true;
}

bool bench_pairs_make_soa(bench_pairs* set)
{
    if (set->kind != BENCH_OBB_OBB) return false;
    if (set->soa_storage) return true;
    /* 15 arrays a side, each padded to 64 bytes so every array starts on a cache line. */
    size_t stride = (set->count + 15) / 16 * 16;
    if (stride == 0) stride = 16;
    set->soa_storage = aligned_alloc(64, 2 * 15 * stride * sizeof(float));
    if (!set->soa_storage) return false;
    float* next = set->soa_storage;
    spx_obb_soa* sides[2] = { &set->soa_a, &set->soa_b };
    for (int s = 0; s < 2; ++s) {
        spx_obb_soa* soa = sides[s];
        for (int k = 0; k < 3; ++k, next += 2 * stride) {
            soa->center[k] = next;
            soa->half_extents[k] = next + stride;
        }
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k, next += stride) soa->axis[i][k] = next;
        soa->capacity = set->count;
    }
    set->checked_a = malloc((set->count + 1) * sizeof(spx_obb_checked));
    set->checked_b = malloc((set->count + 1) * sizeof(spx_obb_checked));
    bool ok = set->checked_a && set->checked_b;
    for (size_t i = 0; ok && i < set->count; ++i)
        ok = spx_obb_soa_set_box(&set->soa_a, i, &set->box_a[i]) == SPX_OK &&
             spx_obb_soa_set_box(&set->soa_b, i, &set->box_b[i]) == SPX_OK &&
             spx_obb_check(&set->box_a[i], &set->checked_a[i]) == SPX_OK &&
             spx_obb_check(&set->box_b[i], &set->checked_b[i]) == SPX_OK;
    if (!ok) {
        free(set->soa_storage);
        free(set->checked_a);
        free(set->checked_b);
        set->soa_storage = NULL;
        set->checked_a = set->checked_b = NULL;
    }
    return ok;
}

size_t bench_pairs_bytes(const bench_pairs* set)
{
    size_t per_pair = 0;
    per_pair += set->box_a ? sizeof(spx_obb) : 0;
    per_pair += set->tri_a ? sizeof(spx_triangle) : 0;
    per_pair += set->box_b ? sizeof(spx_obb) : 0;
    per_pair += set->tri_b ? sizeof(spx_triangle) : 0;
    per_pair += set->swept ? 2 * sizeof(spx_vec3) : 0;
    return per_pair * set->count;
}

void bench_pairs_free(bench_pairs* set)
{
    free(set->box_a);
    free(set->box_b);
    free(set->tri_a);
    free(set->tri_b);
    free(set->vel_a);
    free(set->vel_b);
    free(set->built);
    free(set->exact);
    free(set->soa_storage);
    free(set->checked_a);
    free(set->checked_b);
    memset(set, 0, sizeof *set);
}

const char* bench_pair_kind_name(bench_pair_kind kind)
{
    static const char* const names[BENCH_PAIR_KIND_COUNT] = { "obb_obb", "obb_tri", "tri_tri", "obb_obb_resting" };
    return kind < BENCH_PAIR_KIND_COUNT ? names[kind] : "?";
}
