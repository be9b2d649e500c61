/* The plane queries against a double-precision reference of their own kind: the Minkowski
 * difference B - A of the cores (a convex hull of all corner differences), grown by the radii, with
 * the overlap, the minimum translation and the first time of contact read off it (a ray against a
 * polygon; for circles, bisection on the distance, which is convex in time). Then the properties:
 * the same answers with A and B swapped, a polygon's corners given from another start or the other
 * way round, and the whole problem moved and given a common velocity. --long: ten times the cases. */
#include "support/test.h"
#include <sepax/sat2d.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/* ---- random numbers ------------------------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}
/* Two numbers of uniform(lo, hi) as a vector, x first. */
static spx_vec2 uniform2(double lo, double hi)
{
    const float x = (float)uniform(lo, hi);
    return (spx_vec2){ x, (float)uniform(lo, hi) };
}

/* ---- the reference --------------------------------------------------------------------------------- */

typedef struct dv {
    double x, y;
} dv;

static dv dv_sub(dv a, dv b) { return (dv){ a.x - b.x, a.y - b.y }; }
static dv dv_add(dv a, dv b) { return (dv){ a.x + b.x, a.y + b.y }; }
static dv dv_scale(dv a, double s) { return (dv){ a.x * s, a.y * s }; }
static double dv_dot(dv a, dv b) { return a.x * b.x + a.y * b.y; }
static double dv_cross(dv a, dv b) { return a.x * b.y - a.y * b.x; }
static double dv_len(dv a) { return sqrt(dv_dot(a, a)); }

/* A piece as the reference sees it: core corners (1 for a circle) and a radius. */
typedef struct test_ref_piece {
    int n;
    dv v[SPX_POLYGON_MAX_CORNERS];
    double r;
} test_ref_piece;

static test_ref_piece ref_of(const spx_piece2d* p)
{
    test_ref_piece q;
    if (p->kind == SPX_PIECE2D_CIRCLE) {
        q.n = 1, q.v[0] = (dv){ p->circle.center.x, p->circle.center.y }, q.r = p->circle.radius;
    } else {
        q.n = (int)p->polygon->count, q.r = 0.0;
        for (int i = 0; i < q.n; ++i) q.v[i] = (dv){ p->polygon->corners[i].x, p->polygon->corners[i].y };
    }
    return q;
}

static int compare_dv(const void* a, const void* b)
{
    const dv *p = a, *q = b;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    return p->y < q->y ? -1 : p->y > q->y;
}

/* Convex hull, counter-clockwise (monotone chain); returns the count. */
static int hull(dv* pts, int n, dv* out)
{
    qsort(pts, (size_t)n, sizeof *pts, compare_dv);
    int k = 0;
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && dv_cross(dv_sub(out[k - 1], out[k - 2]), dv_sub(pts[i], out[k - 2])) <= 0) --k;
        out[k++] = pts[i];
    }
    for (int i = n - 2, low = k + 1; i >= 0; --i) {
        while (k >= low && dv_cross(dv_sub(out[k - 1], out[k - 2]), dv_sub(pts[i], out[k - 2])) <= 0) --k;
        out[k++] = pts[i];
    }
    return k > 1 ? k - 1 : k;
}

/* B - A of the cores; its count (1 or 2 for degenerate cores: a point, a segment). */
typedef struct ref_diff {
    int n;
    dv v[4096];
    double r;
} ref_diff;

static void difference(const test_ref_piece* a, const test_ref_piece* b, ref_diff* d)
{
    static dv pts[SPX_POLYGON_MAX_CORNERS * SPX_POLYGON_MAX_CORNERS];
    int m = 0;
    for (int i = 0; i < a->n; ++i)
        for (int j = 0; j < b->n; ++j) pts[m++] = dv_sub(b->v[j], a->v[i]);
    d->n = m == 1 ? 1 : hull(pts, m, d->v);
    if (m == 1) d->v[0] = pts[0];
    d->r = a->r + b->r;
}

/* Closest point of the core to x, and whether x is inside the core (a polygon of 3 or more). */
static dv closest(const ref_diff* d, dv x, bool* inside)
{
    *inside = d->n >= 3;
    if (d->n == 1) return d->v[0];
    double best = DBL_MAX;
    dv q = d->v[0];
    for (int i = 0; i < d->n; ++i) {
        dv a = d->v[i], e = dv_sub(d->v[(i + 1) % d->n], a);
        if (dv_cross(e, dv_sub(x, a)) < 0) *inside = false;
        double s = dv_dot(dv_sub(x, a), e) / dv_dot(e, e);
        s = s < 0 ? 0 : s > 1 ? 1 : s;
        dv p = dv_add(a, dv_scale(e, s));
        double l = dv_len(dv_sub(x, p));
        if (l < best) best = l, q = p;
    }
    return q;
}

/* Signed distance of x from the grown difference: > 0 apart, < 0 inside. */
static double gap(const ref_diff* d, dv x)
{
    bool inside;
    dv q = closest(d, x, &inside);
    double l = dv_len(dv_sub(x, q));
    return (inside ? -l : l) - d->r;
}

/* Minimum translation of B: depth, normal from A to B. Moving B by t n moves the difference by t n,
 * so the origin leaves it through the boundary point nearest the origin. `unique` is false where a
 * second boundary direction is nearly as near (the normal is then not one). */
static double test_ref_penetration(const ref_diff* d, dv* normal, bool* unique)
{
    bool inside;
    dv o = { 0, 0 };
    dv q = closest(d, o, &inside);
    double l = dv_len(q);
    *unique = true;
    if (!inside) {
        *normal = l > 0 ? dv_scale(q, 1.0 / l) : (dv){ 1, 0 };
        if (l == 0) *unique = false;
        return d->r - l;
    }
    /* Inside the core: the nearest edge line; a second one nearly as near makes it a tie. */
    double best = DBL_MAX, second = DBL_MAX;
    dv n = { 0, 0 };
    for (int i = 0; i < d->n; ++i) {
        dv a = d->v[i], e = dv_sub(d->v[(i + 1) % d->n], a);
        dv out = { e.y / dv_len(e), -e.x / dv_len(e) };
        double h = -dv_dot(dv_sub(o, a), out);
        if (h < best) second = best, best = h, n = out;
        else if (h < second) second = h;
    }
    *unique = second - best > 1e-6 * (1 + best);
    *normal = dv_scale(n, -1.0);
    return d->r + best;
}

/* First time the origin, moving at -w, comes within the radius of the core, by bisection on the
 * gap (convex in time). Returns -1 for no contact in [0, tmax]. */
static double ref_time(const ref_diff* d, dv w, double tmax, double* min_gap)
{
    dv mw = dv_scale(w, -1.0);
    double lo = 0, hi = tmax;
    for (int it = 0; it < 200; ++it) { /* ternary search for the least gap */
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (gap(d, dv_scale(mw, m1)) < gap(d, dv_scale(mw, m2))) hi = m2;
        else lo = m1;
    }
    double tmin = 0.5 * (lo + hi);
    *min_gap = gap(d, dv_scale(mw, tmin));
    if (gap(d, dv_scale(mw, 0)) <= 0) return 0;
    if (*min_gap > 0) return -1;
    lo = 0, hi = tmin;
    for (int it = 0; it < 200; ++it) {
        double m = 0.5 * (lo + hi);
        if (gap(d, dv_scale(mw, m)) > 0) lo = m;
        else hi = m;
    }
    return hi;
}

/* ---- random pieces ------------------------------------------------------------------------------- */

typedef struct piece_store {
    spx_polygon polygon;
    spx_vec2 corners[SPX_POLYGON_MAX_CORNERS];
    uint32_t corner_count;
    spx_piece2d piece;
} piece_store;

static int compare_double(const void* a, const void* b)
{
    double p = *(const double*)a, q = *(const double*)b;
    return p < q ? -1 : p > q;
}

/* Random convex polygon: corners on an ellipse at sorted random angles, or a box, about `at`. */
static void random_polygon(piece_store* s, dv at, double size, int family)
{
    double angles[SPX_POLYGON_MAX_CORNERS];
    int n = family == 1 ? 4 : 3 + (int)uniform(0, 10);
    double rx = size * uniform(0.2, 1), ry = family == 2 ? rx * uniform(0.01, 0.05) : size * uniform(0.2, 1);
    double turn = uniform(0, 2 * PI);
    for (int i = 0; i < n; ++i) angles[i] = family == 1 ? PI / 4 + i * PI / 2 : uniform(0, 2 * PI);
    qsort(angles, (size_t)n, sizeof angles[0], compare_double);
    if (family == 1) turn = uniform(0, 1) < 0.5 ? 0 : turn; /* boxes: half of them square to the axes */
    for (int i = 0; i < n; ++i) {
        double x = rx * cos(angles[i]), y = ry * sin(angles[i]);
        s->corners[i].x = (float)(at.x + x * cos(turn) - y * sin(turn));
        s->corners[i].y = (float)(at.y + x * sin(turn) + y * cos(turn));
    }
    s->corner_count = (uint32_t)n;
    s->piece.kind = SPX_PIECE2D_POLYGON;
}

static bool make_piece(piece_store* s)
{
    if (s->piece.kind == SPX_PIECE2D_CIRCLE) return true;
    if (spx_polygon_from_corners(s->corners, s->corner_count, &s->polygon) != SPX_OK) return false;
    s->piece = spx_piece2d_from_polygon(&s->polygon);
    return true;
}

static void random_circle(piece_store* s, dv at, double size)
{
    s->piece = spx_piece2d_from_circle((spx_vec2){ (float)at.x, (float)at.y }, (float)(size * uniform(0.05, 1)));
}

/* Pair kinds: 0 polygon-polygon, 1 polygon-circle, 2 circle-polygon, 3 circle-circle. */
static bool random_pair(int kind, piece_store* a, piece_store* b, double spread)
{
    dv ca, cb;
    ca.x = uniform(-spread, spread), ca.y = uniform(-spread, spread);
    cb.x = uniform(-spread, spread), cb.y = uniform(-spread, spread);
    int family = (int)uniform(0, 3);
    if (kind == 0 || kind == 1) random_polygon(a, ca, uniform(0.1, 2), family);
    else random_circle(a, ca, uniform(0.1, 2));
    if (kind == 0 || kind == 2) {
        const int family_b = (int)uniform(0, 3);
        random_polygon(b, cb, uniform(0.1, 2), family_b);
    } else {
        random_circle(b, cb, uniform(0.1, 2));
    }
    return make_piece(a) && make_piece(b);
}

/* ---- checks ------------------------------------------------------------------------------------- */

static double piece_size(const spx_piece2d* p)
{
    if (p->kind == SPX_PIECE2D_CIRCLE) return 2.0 * p->circle.radius;
    double lo_x = DBL_MAX, hi_x = -DBL_MAX, lo_y = DBL_MAX, hi_y = -DBL_MAX;
    for (uint32_t i = 0; i < p->polygon->count; ++i) {
        lo_x = fmin(lo_x, p->polygon->corners[i].x), hi_x = fmax(hi_x, p->polygon->corners[i].x);
        lo_y = fmin(lo_y, p->polygon->corners[i].y), hi_y = fmax(hi_y, p->polygon->corners[i].y);
    }
    return fmax(hi_x - lo_x, hi_y - lo_y);
}

static double far_corner(const spx_piece2d* p)
{
    if (p->kind == SPX_PIECE2D_CIRCLE)
        return fmax(fabs(p->circle.center.x), fabs(p->circle.center.y)) + p->circle.radius;
    double m = 0;
    for (uint32_t i = 0; i < p->polygon->count; ++i)
        m = fmax(m, fmax(fabs(p->polygon->corners[i].x), fabs(p->polygon->corners[i].y)));
    return m;
}

/* Length tolerance: float rounding of the inputs' coordinates and of the answer. */
static double length_tol(const spx_piece2d* a, const spx_piece2d* b)
{
    return 2e-6 * (fmax(piece_size(a), piece_size(b)) + fmax(far_corner(a), far_corner(b)));
}

static int check_static(const spx_piece2d* a, const spx_piece2d* b)
{
    test_ref_piece ra = ref_of(a), rb = ref_of(b);
    static ref_diff d;
    difference(&ra, &rb, &d);
    dv ref_normal;
    bool unique;
    double ref_depth = test_ref_penetration(&d, &ref_normal, &unique);
    double tol = length_tol(a, b);

    bool overlap;
    spx_penetration2d pen;
    TEST_ENSURE_CODE(spx_overlap_2d(a, b, &overlap), SPX_OK);
    TEST_ENSURE_CODE(spx_penetration_2d(a, b, &pen), SPX_OK);
    TEST_ENSURE(overlap == pen.overlapping);
    if (fabs(ref_depth) > tol) TEST_ENSURE(pen.overlapping == (ref_depth > 0));
    if (!pen.overlapping) return 0;
    TEST_ENSURE_NEAR(pen.depth, fmax(ref_depth, 0), tol);
    TEST_ENSURE_NEAR(hypot(pen.normal.x, pen.normal.y), 1, 1e-5);
    if (unique && ref_depth > 100 * tol) {
        TEST_ENSURE_NEAR(pen.normal.x, ref_normal.x, 1e-4);
        TEST_ENSURE_NEAR(pen.normal.y, ref_normal.y, 1e-4);
    }
    /* Whatever the normal, moving B by the depth along it leaves the pieces touching. */
    test_ref_piece moved = rb;
    for (int i = 0; i < moved.n; ++i)
        moved.v[i] = dv_add(moved.v[i], dv_scale((dv){ pen.normal.x, pen.normal.y }, pen.depth));
    difference(&ra, &moved, &d);
    TEST_ENSURE(fabs(gap(&d, (dv){ 0, 0 })) <= 4 * tol);
    return 0;
}

static bool same_vec(spx_vec2 p, spx_vec2 q, double tol) { return fabs(p.x - q.x) <= tol && fabs(p.y - q.y) <= tol; }

static int check_sweep(const spx_piece2d* a, spx_vec2 va, const spx_piece2d* b, spx_vec2 vb, float tmax, uint32_t* hits)
{
    test_ref_piece ra = ref_of(a), rb = ref_of(b);
    static ref_diff d;
    difference(&ra, &rb, &d);
    dv w = { (double)vb.x - va.x, (double)vb.y - va.y };
    double min_gap, t_ref = ref_time(&d, w, tmax, &min_gap);
    double tol = length_tol(a, b), speed = dv_len(w);

    spx_sweep_hit2d hit;
    TEST_ENSURE_CODE(spx_sweep_2d(a, va, b, vb, tmax, &hit), SPX_OK);
    if (t_ref == 0) {
        if (hit.state != SPX_SWEEP_START_OVERLAP) TEST_ENSURE(gap(&d, (dv){ 0, 0 }) >= -tol);
        return 0;
    }
    if (hit.state == SPX_SWEEP_START_OVERLAP) {
        TEST_ENSURE(gap(&d, (dv){ 0, 0 }) <= tol);
        return 0;
    }
    if (t_ref < 0) {
        if (hit.state == SPX_SWEEP_HIT) TEST_ENSURE(min_gap <= tol);
        return 0;
    }
    if (hit.state == SPX_SWEEP_MISS) {
        TEST_ENSURE(min_gap >= -tol || t_ref >= tmax - tol / fmax(speed, 1e-30));
        return 0;
    }
    ++*hits;
    /* The time: the reference's gap at the answer's time is nil, and no earlier touch. */
    double gap_at = gap(&d, dv_scale(w, -(double)hit.time));
    TEST_ENSURE(fabs(gap_at) <= 4 * tol);
    TEST_ENSURE(hit.time <= t_ref + 4 * tol / speed);
    TEST_ENSURE_NEAR(hypot(hit.normal.x, hit.normal.y), 1, 1e-5);
    /* The normal, where the reference has one: B - A's outward normal m at the contact gives -m;
     * at a corner of the difference of two polygons any normal of its cone would do. */
    dv x = dv_scale(w, -t_ref);
    bool inside;
    dv q = closest(&d, x, &inside);
    dv m = { 0, 0 };
    bool unique = false;
    if (d.r > 0) {
        m = dv_scale(dv_sub(x, q), 1.0 / dv_len(dv_sub(x, q)));
        unique = true;
    } else if (d.n >= 3) {
        double corner = DBL_MAX;
        for (int i = 0; i < d.n; ++i) corner = fmin(corner, dv_len(dv_sub(d.v[i], q)));
        for (int i = 0; i < d.n && corner > 1e-4 * (1 + tol); ++i) {
            dv from = d.v[i], e = dv_sub(d.v[(i + 1) % d.n], from);
            if (fabs(dv_cross(e, dv_sub(q, from))) <= 1e-9 * dv_dot(e, e) + 1e-12) {
                m = (dv){ e.y / dv_len(e), -e.x / dv_len(e) };
                unique = true;
            }
        }
    }
    if (unique) {
        TEST_ENSURE_NEAR(hit.normal.x, -m.x, 1e-4);
        TEST_ENSURE_NEAR(hit.normal.y, -m.y, 1e-4);
    }
    /* The pieces approach along the normal. */
    TEST_ENSURE(hit.normal.x * w.x + hit.normal.y * w.y <= 1e-4 * speed);
    /* The point: on both pieces at that time (within the tolerance). */
    test_ref_piece at_a = ra, at_b = rb;
    for (int i = 0; i < at_a.n; ++i) at_a.v[i] = dv_add(at_a.v[i], dv_scale((dv){ va.x, va.y }, hit.time));
    for (int i = 0; i < at_b.n; ++i) at_b.v[i] = dv_add(at_b.v[i], dv_scale((dv){ vb.x, vb.y }, hit.time));
    test_ref_piece point = { 1, { { hit.point.x, hit.point.y } }, 0 };
    difference(&at_a, &point, &d);
    TEST_ENSURE(gap(&d, (dv){ 0, 0 }) <= 8 * tol);
    difference(&at_b, &point, &d);
    TEST_ENSURE(gap(&d, (dv){ 0, 0 }) <= 8 * tol);
    return 0;
}

/* One polygon, its list perhaps starting at another corner. */
static bool same_corners(const spx_polygon* p, const spx_polygon* q)
{
    if (p->count != q->count) return false;
    for (uint32_t k = 0; k < p->count; ++k) {
        uint32_t i = 0;
        while (i < p->count && p->corners[i].x == q->corners[(i + k) % p->count].x &&
               p->corners[i].y == q->corners[(i + k) % p->count].y)
            ++i;
        if (i == p->count) return true;
    }
    return false;
}

/* The same problem asked with A and B swapped, a polygon's corners from another start or the other
 * way round, and moved by a common offset with a common velocity added. */
static int check_invariance(piece_store* a, spx_vec2 va, piece_store* b, spx_vec2 vb, float tmax)
{
    spx_penetration2d p0, p1;
    spx_sweep_hit2d h0, h1;
    TEST_ENSURE_CODE(spx_penetration_2d(&a->piece, &b->piece, &p0), SPX_OK);
    TEST_ENSURE_CODE(spx_penetration_2d(&b->piece, &a->piece, &p1), SPX_OK);
    TEST_ENSURE(p0.overlapping == p1.overlapping && p0.contained == p1.contained);
    TEST_ENSURE(p0.depth == p1.depth);
    /* Two equal pieces are the same problem swapped: no way round to turn (sat2d.h). */
    bool equal =
        a->piece.kind == b->piece.kind &&
        (a->piece.kind == SPX_PIECE2D_CIRCLE ? memcmp(&a->piece.circle, &b->piece.circle, sizeof a->piece.circle) == 0
                                             : memcmp(&a->polygon, &b->polygon, sizeof a->polygon) == 0);
    if (!equal) TEST_ENSURE(p0.normal.x == -p1.normal.x && p0.normal.y == -p1.normal.y);
    TEST_ENSURE(same_vec(p0.point, p1.point, 1e-6 * (1 + fabs(p0.point.x) + fabs(p0.point.y))));
    TEST_ENSURE_CODE(spx_sweep_2d(&a->piece, va, &b->piece, vb, tmax, &h0), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_2d(&b->piece, vb, &a->piece, va, tmax, &h1), SPX_OK);
    TEST_ENSURE(h0.state == h1.state && h0.time == h1.time && h0.depth == h1.depth);
    if (!equal || h0.state == SPX_SWEEP_HIT) TEST_ENSURE(h0.normal.x == -h1.normal.x && h0.normal.y == -h1.normal.y);
    TEST_ENSURE(same_vec(h0.point, h1.point, 1e-6 * (1 + fabs(h0.point.x) + fabs(h0.point.y))));

    /* Corners from another start, and given clockwise. */
    for (int way = 0; way < 2 && a->piece.kind == SPX_PIECE2D_POLYGON; ++way) {
        piece_store turned = *a;
        uint32_t n = a->corner_count, k = (uint32_t)uniform(1, n);
        for (uint32_t i = 0; i < n; ++i) turned.corners[i] = way == 0 ? a->corners[(i + k) % n] : a->corners[n - 1 - i];
        TEST_ENSURE(make_piece(&turned));
        /* Corners within 1e-6 of the size of each other, or nearly on a line, may be merged or
         * dropped differently from another start: then it is another polygon. */
        if (!same_corners(&turned.polygon, &a->polygon)) continue;
        spx_penetration2d p2;
        spx_sweep_hit2d h2;
        TEST_ENSURE_CODE(spx_penetration_2d(&turned.piece, &b->piece, &p2), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_2d(&turned.piece, va, &b->piece, vb, tmax, &h2), SPX_OK);
        TEST_ENSURE(p2.overlapping == p0.overlapping && p2.depth == p0.depth);
        TEST_ENSURE(p2.normal.x == p0.normal.x && p2.normal.y == p0.normal.y);
        TEST_ENSURE(same_vec(p2.point, p0.point, 1e-6 * (1 + fabs(p0.point.x) + fabs(p0.point.y))));
        TEST_ENSURE(h2.state == h0.state && h2.time == h0.time);
        TEST_ENSURE(h2.normal.x == h0.normal.x && h2.normal.y == h0.normal.y);
        TEST_ENSURE(same_vec(h2.point, h0.point, 1e-6 * (1 + fabs(h0.point.x) + fabs(h0.point.y))));
    }

    /* Moved by an offset of up to 1e3 m, with a common velocity: the same answers, within the
     * rounding of the moved corners; the time within it over the speed along the normal. */
    spx_vec2 offset = uniform2(-1e3, 1e3);
    spx_vec2 common = uniform2(-10, 10);
    piece_store ma = *a, mb = *b;
    piece_store* both[2] = { &ma, &mb };
    for (int k = 0; k < 2; ++k) {
        piece_store* s = both[k];
        if (s->piece.kind == SPX_PIECE2D_CIRCLE) {
            s->piece.circle.center.x += offset.x, s->piece.circle.center.y += offset.y;
        } else {
            for (uint32_t i = 0; i < s->corner_count; ++i) s->corners[i].x += offset.x, s->corners[i].y += offset.y;
            if (!make_piece(s)) return 0; /* rounded onto a line: not the same problem */
        }
    }
    spx_vec2 va2 = { va.x + common.x, va.y + common.y }, vb2 = { vb.x + common.x, vb.y + common.y };
    spx_sweep_hit2d h3;
    spx_penetration2d p3;
    TEST_ENSURE_CODE(spx_penetration_2d(&ma.piece, &mb.piece, &p3), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_2d(&ma.piece, va2, &mb.piece, vb2, tmax, &h3), SPX_OK);
    double tol = length_tol(&ma.piece, &mb.piece);
    if (p3.overlapping && p0.overlapping) TEST_ENSURE_NEAR(p3.depth, p0.depth, 4 * tol);
    if (h0.state == SPX_SWEEP_HIT && h3.state == SPX_SWEEP_HIT) {
        double wx = (double)vb.x - va.x, wy = (double)vb.y - va.y;
        double closing = fabs(h0.normal.x * wx + h0.normal.y * wy);
        if (closing > 0.1 * hypot(wx, wy)) TEST_ENSURE_NEAR(h3.time * closing, h0.time * closing, 8 * tol);
    }
    uint32_t hits = 0;
    return check_sweep(&ma.piece, va2, &mb.piece, vb2, tmax, &hits);
}

/* ---- the tests ---------------------------------------------------------------------------------- */

static int cases_per_kind = 10000;

static int random_against_reference(void)
{
    for (int kind = 0; kind < 4; ++kind) {
        uint32_t hits = 0, run = 0;
        for (int c = 0; run < (uint32_t)cases_per_kind; ++c) {
            piece_store a, b;
            if (!random_pair(kind, &a, &b, 3)) continue;
            ++run;
            spx_vec2 va = uniform2(-5, 5);
            /* Aim B roughly at A half the time, so that many sweeps hit. */
            spx_vec2 vb = uniform2(-5, 5);
            if (c % 2 == 0) {
                double ax = 0, ay = 0, bx = 0, by = 0;
                const spx_piece2d* pa = &a.piece;
                const spx_piece2d* pb = &b.piece;
                if (pa->kind == SPX_PIECE2D_CIRCLE) ax = pa->circle.center.x, ay = pa->circle.center.y;
                else ax = pa->polygon->corners[0].x, ay = pa->polygon->corners[0].y;
                if (pb->kind == SPX_PIECE2D_CIRCLE) bx = pb->circle.center.x, by = pb->circle.center.y;
                else bx = pb->polygon->corners[0].x, by = pb->polygon->corners[0].y;
                vb.x = va.x + (float)((ax - bx) * uniform(0.5, 2)), vb.y = va.y + (float)((ay - by) * uniform(0.5, 2));
            }
            if (check_static(&a.piece, &b.piece)) {
                fprintf(stderr, "static, kind %d case %d\n", kind, c);
                return 1;
            }
            if (check_sweep(&a.piece, va, &b.piece, vb, 1.0f, &hits)) {
                fprintf(stderr, "sweep, kind %d case %d\n", kind, c);
                return 1;
            }
            if (check_invariance(&a, va, &b, vb, 1.0f)) {
                fprintf(stderr, "invariance, kind %d case %d\n", kind, c);
                return 1;
            }
        }
        printf("  kind %d: %u cases, %u hits\n", kind, run, hits);
        TEST_ENSURE(hits > run / 10);
    }
    return 0;
}

static spx_polygon box(float lo_x, float lo_y, float hi_x, float hi_y)
{
    spx_vec2 c[4] = { { lo_x, lo_y }, { hi_x, lo_y }, { hi_x, hi_y }, { lo_x, hi_y } };
    spx_polygon p;
    spx_polygon_from_corners(c, 4, &p);
    return p;
}

static int known_answers(void)
{
    /* Two unit squares, B 3 m to the right closing at 2 m/s: faces meet at t = 0.5 along x = 1 (A
     * at rest), over the whole face, whose middle is the point. */
    spx_polygon pa = box(-1, -1, 1, 1), pb = box(2, -1, 4, 1);
    spx_piece2d a = spx_piece2d_from_polygon(&pa), b = spx_piece2d_from_polygon(&pb);
    spx_sweep_hit2d h;
    TEST_ENSURE_CODE(spx_sweep_2d(&a, (spx_vec2){ 0, 0 }, &b, (spx_vec2){ -2, 0 }, 1, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 0.5, 1e-7);
    TEST_ENSURE(h.normal.x == 1 && h.normal.y == 0);
    TEST_ENSURE_NEAR(h.point.x, 1, 1e-6);
    TEST_ENSURE_NEAR(h.point.y, 0, 1e-6);
    /* B shifted up by 1.5: the faces overlap over y in [0.5, 1], the point in its middle. */
    pb = box(2, 0.5f, 4, 2.5f);
    TEST_ENSURE_CODE(spx_sweep_2d(&a, (spx_vec2){ 0, 0 }, &b, (spx_vec2){ -2, 0 }, 1, &h), SPX_OK);
    TEST_ENSURE_NEAR(h.point.y, 0.75, 1e-6);
    /* Too slow to arrive by tmax. */
    TEST_ENSURE_CODE(spx_sweep_2d(&a, (spx_vec2){ 0, 0 }, &b, (spx_vec2){ -0.5f, 0 }, 1, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);

    /* A circle falling onto a corner: centre (3, 3) towards (1, 1) along the diagonal, radius 1:
     * it touches when the centre is 1 from the corner, at distance 2 sqrt 2 - 1 along the way. */
    b = spx_piece2d_from_circle((spx_vec2){ 3, 3 }, 1);
    TEST_ENSURE_CODE(spx_sweep_2d(&a, (spx_vec2){ 0, 0 }, &b, (spx_vec2){ -1, -1 }, 10, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time * sqrt(2.0), 2 * sqrt(2.0) - 1, 1e-6);
    TEST_ENSURE_NEAR(h.normal.x, sqrt(0.5), 1e-6);
    TEST_ENSURE_NEAR(h.normal.y, sqrt(0.5), 1e-6);
    TEST_ENSURE_NEAR(h.point.x, 1, 1e-6);
    TEST_ENSURE_NEAR(h.point.y, 1, 1e-6);

    /* The example of docs/2d.md. */
    spx_polygon unit = box(0, 0, 1, 1);
    spx_piece2d u = spx_piece2d_from_polygon(&unit), ball = spx_piece2d_from_circle((spx_vec2){ 3, 0.5f }, 0.5f);
    TEST_ENSURE_CODE(spx_sweep_2d(&u, (spx_vec2){ 0, 0 }, &ball, (spx_vec2){ -2, 0 }, 1, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.time == 0.75f && h.normal.x == 1 && h.normal.y == 0);
    TEST_ENSURE(h.point.x == 1 && h.point.y == 0.5f);

    /* Two circles head on: gap 2 at 4 m/s. */
    spx_piece2d c1 = spx_piece2d_from_circle((spx_vec2){ 0, 0 }, 1),
                c2 = spx_piece2d_from_circle((spx_vec2){ 5, 0 }, 2);
    TEST_ENSURE_CODE(spx_sweep_2d(&c1, (spx_vec2){ 1, 0 }, &c2, (spx_vec2){ -3, 0 }, 1, &h), SPX_OK);
    TEST_ENSURE_NEAR(h.time, 0.5, 1e-7);
    TEST_ENSURE_NEAR(h.point.x, 1.5, 1e-6);

    /* Touching at t = 0 is a start overlap of depth 0. */
    pb = box(1, -1, 3, 1);
    b = spx_piece2d_from_polygon(&pb);
    TEST_ENSURE_CODE(spx_sweep_2d(&a, (spx_vec2){ 0, 0 }, &b, (spx_vec2){ 0, 1 }, 1, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && h.depth == 0);
    TEST_ENSURE(h.normal.x == 1 && h.normal.y == 0);
    return 0;
}

/* One piece wholly inside the other: the push takes it fully out, not to the nearest edge. */
static int containment(void)
{
    spx_polygon big = box(-2, -2, 2, 2), small = box(0.5f, -0.5f, 1.5f, 0.5f);
    spx_piece2d a = spx_piece2d_from_polygon(&big), b = spx_piece2d_from_polygon(&small);
    spx_penetration2d p;
    TEST_ENSURE_CODE(spx_penetration_2d(&a, &b, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && p.contained);
    TEST_ENSURE_NEAR(p.depth, 1.5, 1e-6); /* past x = 2 from x = 0.5; the nearest edge is only 0.5 away */
    TEST_ENSURE(p.normal.x == 1 && p.normal.y == 0);
    TEST_ENSURE_CODE(spx_penetration_2d(&b, &a, &p), SPX_OK);
    TEST_ENSURE(p.contained && p.normal.x == -1);
    TEST_ENSURE_NEAR(p.depth, 1.5, 1e-6);

    /* A circle inside a polygon, near its right side: out through it, by the whole diameter less
     * the distance to that side. */
    spx_piece2d c = spx_piece2d_from_circle((spx_vec2){ 1.25f, 0 }, 0.5f);
    TEST_ENSURE_CODE(spx_penetration_2d(&a, &c, &p), SPX_OK);
    TEST_ENSURE(p.contained);
    TEST_ENSURE_NEAR(p.depth, 0.75 + 0.5, 1e-6);
    TEST_ENSURE(p.normal.x == 1 && p.normal.y == 0);
    /* A polygon inside a circle. */
    c = spx_piece2d_from_circle((spx_vec2){ 0, 0 }, 10);
    TEST_ENSURE_CODE(spx_penetration_2d(&c, &b, &p), SPX_OK);
    TEST_ENSURE(p.contained);
    /* The far corner (1.5, 0.5) must leave the circle: 10 - |(0.5, 0.5)| pushed along... check the
     * push leaves them touching, as the reference does for every case. */
    TEST_ENSURE(check_static(&c, &b) == 0);
    /* Not contained: overlapping across an edge. */
    small = box(1.5f, -0.5f, 2.5f, 0.5f);
    TEST_ENSURE_CODE(spx_penetration_2d(&a, &b, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && !p.contained);
    TEST_ENSURE_NEAR(p.depth, 0.5, 1e-6);
    return 0;
}

static int polygon_making(void)
{
    spx_polygon p;
    /* Clockwise, a repeated corner, a corner on an edge's line: three corners of a triangle left,
     * counter-clockwise from the first. */
    spx_vec2 cw[6] = { { 0, 0 }, { 0, 2 }, { 0, 2 }, { 1, 1 }, { 2, 0 }, { 1, 0 } };
    TEST_ENSURE_CODE(spx_polygon_from_corners(cw, 6, &p), SPX_OK);
    TEST_ENSURE(p.count == 3);
    TEST_ENSURE(p.corners[0].x == 0 && p.corners[0].y == 0);
    TEST_ENSURE(p.corners[1].x == 2 && p.corners[1].y == 0);
    TEST_ENSURE(p.corners[2].x == 0 && p.corners[2].y == 2);
    TEST_ENSURE_NEAR(p.normals[0].x, 0, 1e-7);
    TEST_ENSURE_NEAR(p.normals[0].y, -1, 1e-7);
    TEST_ENSURE_CODE(spx_polygon_validate(&p), SPX_OK);

    spx_polygon untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    spx_vec2 dent[5] = { { 0, 0 }, { 2, 0 }, { 1, 0.5f }, { 2, 2 }, { 0, 2 } };
    TEST_ENSURE_CODE(spx_polygon_from_corners(dent, 5, &untouched), SPX_ERR_NOT_CONVEX);
    TEST_ENSURE(((unsigned char*)&untouched)[7] == 0x5a);
    spx_vec2 line[3] = { { 0, 0 }, { 1, 1 }, { 3, 3 } };
    TEST_ENSURE_CODE(spx_polygon_from_corners(line, 3, &p), SPX_ERR_ZERO_AREA);
    spx_vec2 back[4] = { { 0, 0 }, { 2, 0 }, { 1, 0 }, { 1, 1 } };
    TEST_ENSURE_CODE(spx_polygon_from_corners(back, 4, &p), SPX_ERR_NOT_CONVEX);
    spx_vec2 two[3] = { { 0, 0 }, { 1, 1 }, { 0, 0 } };
    TEST_ENSURE_CODE(spx_polygon_from_corners(two, 3, &p), SPX_ERR_ZERO_AREA);
    /* A pentagram: every turn to the left, twice round. */
    spx_vec2 star[5];
    for (int i = 0; i < 5; ++i) star[i] = (spx_vec2){ (float)cos(i * 4 * PI / 5), (float)sin(i * 4 * PI / 5) };
    TEST_ENSURE_CODE(spx_polygon_from_corners(star, 5, &p), SPX_ERR_NOT_CONVEX);
    spx_vec2 many[SPX_POLYGON_MAX_CORNERS + 1];
    for (int i = 0; i <= SPX_POLYGON_MAX_CORNERS; ++i)
        many[i] = (spx_vec2){ (float)cos(i * 2 * PI / 65), (float)sin(i * 2 * PI / 65) };
    TEST_ENSURE_CODE(spx_polygon_from_corners(many, SPX_POLYGON_MAX_CORNERS + 1, &p), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_polygon_from_corners(many, SPX_POLYGON_MAX_CORNERS, &p), SPX_OK);
    TEST_ENSURE(p.count == SPX_POLYGON_MAX_CORNERS);
    TEST_ENSURE_CODE(spx_polygon_from_corners(NULL, 3, &p), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_polygon_from_corners(cw, 0, &p), SPX_ERR_INVALID_ARGUMENT);
    spx_vec2 bad[3] = { { 0, 0 }, { 1, NAN }, { 1e8f, 0 } };
    TEST_ENSURE_CODE(spx_polygon_from_corners(bad, 3, &p), SPX_ERR_NOT_FINITE);
    bad[1].y = 1;
    TEST_ENSURE_CODE(spx_polygon_from_corners(bad, 3, &p), SPX_ERR_OUT_OF_RANGE);
    return 0;
}

/* Polygons filled by hand are checked by every query; several faults give the first of base.h. */
static int bad_input(void)
{
    spx_polygon good = box(0, 0, 1, 1), cw = good;
    for (int i = 0; i < 4; ++i) cw.corners[i] = good.corners[3 - i];
    spx_piece2d g = spx_piece2d_from_polygon(&good), c = spx_piece2d_from_polygon(&cw);
    bool o;
    spx_penetration2d p;
    spx_sweep_hit2d h;
    spx_vec2 zero = { 0, 0 };
    TEST_ENSURE_CODE(spx_polygon_validate(&cw), SPX_ERR_NOT_CONVEX);
    TEST_ENSURE_CODE(spx_overlap_2d(&g, &c, &o), SPX_ERR_NOT_CONVEX);
    TEST_ENSURE_CODE(spx_penetration_2d(&c, &g, &p), SPX_ERR_NOT_CONVEX);
    TEST_ENSURE_CODE(spx_overlap_2d(&g, NULL, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_2d(&g, &g, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_polygon few = good;
    few.count = 2;
    spx_piece2d f = spx_piece2d_from_polygon(&few);
    TEST_ENSURE_CODE(spx_overlap_2d(&g, &f, &o), SPX_ERR_INVALID_ARGUMENT);
    spx_piece2d none = spx_piece2d_from_polygon(NULL);
    TEST_ENSURE_CODE(spx_overlap_2d(&none, &g, &o), SPX_ERR_INVALID_ARGUMENT);
    spx_piece2d neg = spx_piece2d_from_circle(zero, -1);
    TEST_ENSURE_CODE(spx_overlap_2d(&g, &neg, &o), SPX_ERR_BAD_EXTENT);
    spx_piece2d nan_circle = spx_piece2d_from_circle((spx_vec2){ NAN, 0 }, 1);
    /* NOT_FINITE in B before NOT_CONVEX in A, and before BAD_EXTENT. */
    TEST_ENSURE_CODE(spx_overlap_2d(&c, &nan_circle, &o), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_2d(&neg, (spx_vec2){ INFINITY, 0 }, &g, zero, 1, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_2d(&g, (spx_vec2){ 1e8f, 0 }, &g, zero, 1, &h), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sweep_2d(&g, zero, &neg, zero, -1, &h), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_sweep_2d(&g, zero, &g, zero, -1, &h), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_2d(&g, zero, &g, zero, NAN, &h), SPX_ERR_NOT_FINITE);
    /* A point circle is valid. */
    spx_piece2d point = spx_piece2d_from_circle((spx_vec2){ 0.5f, 0.5f }, 0);
    TEST_ENSURE_CODE(spx_penetration_2d(&g, &point, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && p.contained);
    TEST_ENSURE_NEAR(p.depth, 0.5, 1e-7);
    return 0;
}

/* Grid-snapped boxes and polygons, at rest and moving: faces exactly parallel, corners meeting
 * corners, exact touches and ties between axes, for the reference and the properties. */
static int adversarial_families(void)
{
    uint32_t hits = 0;
    for (int c = 0; c < cases_per_kind; ++c) {
        piece_store a, b;
        int kind = c % 4;
        for (int k = 0; k < 2; ++k) {
            piece_store* s = k == 0 ? &a : &b;
            float x = 0.25f * (float)(int)uniform(-8, 8), y = 0.25f * (float)(int)uniform(-8, 8);
            bool round = (kind == 1 && k == 1) || (kind == 2 && k == 0) || kind == 3;
            if (round) {
                s->piece = spx_piece2d_from_circle((spx_vec2){ x, y }, 0.25f * (float)(int)uniform(0, 6));
                continue;
            }
            float w = 0.25f * (float)(int)uniform(1, 8), hgt = 0.25f * (float)(int)uniform(1, 8);
            s->corners[0] = (spx_vec2){ x, y }, s->corners[1] = (spx_vec2){ x + w, y };
            s->corners[2] = (spx_vec2){ x + w, y + hgt }, s->corners[3] = (spx_vec2){ x, y + hgt };
            s->corner_count = 4;
            if (c % 3 == 0) { /* a diamond or a chamfered box: 45 degree faces meet the square ones */
                s->corners[0] = (spx_vec2){ x, y }, s->corners[1] = (spx_vec2){ x + w, y + w };
                s->corners[2] = (spx_vec2){ x, y + 2 * w }, s->corners[3] = (spx_vec2){ x - w, y + w };
            }
            s->piece.kind = SPX_PIECE2D_POLYGON;
            if (!make_piece(s)) return 1;
        }
        spx_vec2 va, vb;
        va.x = 0.5f * (float)(int)uniform(-6, 6), va.y = 0.5f * (float)(int)uniform(-6, 6);
        vb.x = 0.5f * (float)(int)uniform(-6, 6), vb.y = 0.5f * (float)(int)uniform(-6, 6);
        if (c % 5 == 0) vb.y = va.y; /* sliding along a face */
        if (check_static(&a.piece, &b.piece) || check_sweep(&a.piece, va, &b.piece, vb, 1.0f, &hits) ||
            check_invariance(&a, va, &b, vb, 1.0f)) {
            fprintf(stderr, "adversarial case %d\n", c);
            return 1;
        }
    }
    printf("  %d cases, %u hits\n", cases_per_kind, hits);
    return 0;
}

/* Far from the origin: the same problems 1e3 to 1e5 m away stay within the tolerances. */
static int large_offsets(void)
{
    uint32_t hits = 0;
    for (int c = 0, run = 0; run < cases_per_kind / 4; ++c) {
        piece_store a, b;
        double far = c % 2 ? 1e3 : 1e5;
        if (!random_pair(c % 4, &a, &b, 3)) continue;
        ++run;
        piece_store* both[2] = { &a, &b };
        for (int k = 0; k < 2; ++k) {
            piece_store* s = both[k];
            if (s->piece.kind == SPX_PIECE2D_CIRCLE) s->piece.circle.center.x += (float)far;
            else
                for (uint32_t i = 0; i < s->corner_count; ++i) s->corners[i].x += (float)far;
        }
        if (!make_piece(&a) || !make_piece(&b)) continue;
        const spx_vec2 va = uniform2(-5, 5);
        const spx_vec2 vb = { (float)uniform(-5, 5), 0 };
        if (check_static(&a.piece, &b.piece) || check_sweep(&a.piece, va, &b.piece, vb, 1.0f, &hits)) {
            fprintf(stderr, "large offset case %d\n", c);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char** argv)
{
    if (test_long_run(argc, argv)) cases_per_kind = 100000;
    int failures = 0;
    TEST_RUN(known_answers, failures);
    TEST_RUN(containment, failures);
    TEST_RUN(polygon_making, failures);
    TEST_RUN(bad_input, failures);
    TEST_RUN(random_against_reference, failures);
    TEST_RUN(adversarial_families, failures);
    TEST_RUN(large_offsets, failures);
    return failures ? 1 : 0;
}
