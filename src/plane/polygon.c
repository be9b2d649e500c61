/* Convex polygons and circles: making, checking, and the working form the plane queries share. */
#include "plane.h"
#include <sepax/geometry.h>
#include <float.h>
#include <math.h>
#include <string.h>

static bool finite2(spx_vec2 p) { return isfinite(p.x) && isfinite(p.y); }
static bool in_range2(spx_vec2 p) { return fabsf(p.x) <= SPX_MAX_COORDINATE && fabsf(p.y) <= SPX_MAX_COORDINATE; }
static spx_dvec2 d2_of(spx_vec2 p) { return spx_d2(p.x, p.y); }

/* Which half of the turn a direction points into: 0 for angles in [0, pi), 1 for [pi, 2 pi). */
static int half_turn(spx_dvec2 d) { return (d.y > 0.0 || (d.y == 0.0 && d.x > 0.0)) ? 0 : 1; }

/* Every turn strictly left, and the edge direction passes angle pi once: left turns alone cannot
 * tell a convex boundary from one that winds round twice. */
static bool convex_once_round(const spx_vec2* c, uint32_t n)
{
    uint32_t passes = 0;
    for (uint32_t i = 0; i < n; ++i) {
        spx_dvec2 p = d2_of(c[i]), q = d2_of(c[(i + 1) % n]), r = d2_of(c[(i + 2) % n]);
        spx_dvec2 e = spx_d2_sub(q, p), f = spx_d2_sub(r, q);
        if (!(spx_d2_cross(e, f) > 0.0)) return false;
        if (half_turn(e) == 0 && half_turn(f) == 1) ++passes;
    }
    return passes == 1;
}

spx_result spx_polygon_validate(const spx_polygon* polygon)
{
    spx_piece2d piece = spx_piece2d_from_polygon(polygon);
    return spx_piece2d_validate(&piece);
}

spx_result spx_piece2d_check(const spx_piece2d* piece, int stage)
{
    if (stage == 0) {
        if (!piece) return SPX_ERR_INVALID_ARGUMENT;
        if (piece->kind == SPX_PIECE2D_CIRCLE) return SPX_OK;
        if (piece->kind != SPX_PIECE2D_POLYGON || !piece->polygon) return SPX_ERR_INVALID_ARGUMENT;
        uint32_t n = piece->polygon->count;
        return n >= 3 && n <= SPX_POLYGON_MAX_CORNERS ? SPX_OK : SPX_ERR_INVALID_ARGUMENT;
    }
    if (piece->kind == SPX_PIECE2D_CIRCLE) {
        const spx_circle* c = &piece->circle;
        if (stage == 1) return finite2(c->center) && isfinite(c->radius) ? SPX_OK : SPX_ERR_NOT_FINITE;
        if (stage == 2)
            return in_range2(c->center) && fabsf(c->radius) <= SPX_MAX_COORDINATE ? SPX_OK : SPX_ERR_OUT_OF_RANGE;
        return c->radius >= 0.0f ? SPX_OK : SPX_ERR_BAD_EXTENT;
    }
    const spx_polygon* p = piece->polygon;
    for (uint32_t i = 0; i < p->count; ++i) {
        if (stage == 1 && !finite2(p->corners[i])) return SPX_ERR_NOT_FINITE;
        if (stage == 2 && !in_range2(p->corners[i])) return SPX_ERR_OUT_OF_RANGE;
    }
    if (stage == 3 && !convex_once_round(p->corners, p->count)) return SPX_ERR_NOT_CONVEX;
    return SPX_OK;
}

spx_result spx_piece2d_validate(const spx_piece2d* piece)
{
    for (int stage = 0; stage < 4; ++stage) {
        spx_result r = spx_piece2d_check(piece, stage);
        if (r != SPX_OK) return r;
    }
    return SPX_OK;
}

spx_piece2d spx_piece2d_from_polygon(const spx_polygon* polygon)
{
    spx_piece2d piece;
    memset(&piece, 0, sizeof piece);
    piece.kind = SPX_PIECE2D_POLYGON;
    piece.polygon = polygon;
    return piece;
}

spx_piece2d spx_piece2d_from_circle(spx_vec2 center, float radius)
{
    spx_piece2d piece;
    memset(&piece, 0, sizeof piece);
    piece.kind = SPX_PIECE2D_CIRCLE;
    piece.circle.center = center;
    piece.circle.radius = radius;
    return piece;
}

/* Drops corner k of n (shifting the rest down). */
static void drop_corner(spx_vec2* c, uint32_t* n, uint32_t k)
{
    memmove(c + k, c + k + 1, (size_t)(*n - k - 1) * sizeof *c);
    --*n;
}

spx_result spx_polygon_from_corners(const spx_vec2* corners, uint32_t count, spx_polygon* out)
{
    if (!corners || !out || count == 0 || count > SPX_POLYGON_MAX_CORNERS) return SPX_ERR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < count; ++i)
        if (!finite2(corners[i])) return SPX_ERR_NOT_FINITE;
    for (uint32_t i = 0; i < count; ++i)
        if (!in_range2(corners[i])) return SPX_ERR_OUT_OF_RANGE;

    spx_vec2 c[SPX_POLYGON_MAX_CORNERS];
    uint32_t n = count;
    memcpy(c, corners, count * sizeof *c);
    double lo_x = c[0].x, hi_x = c[0].x, lo_y = c[0].y, hi_y = c[0].y;
    for (uint32_t i = 1; i < n; ++i) {
        lo_x = fmin(lo_x, c[i].x), hi_x = fmax(hi_x, c[i].x);
        lo_y = fmin(lo_y, c[i].y), hi_y = fmax(hi_y, c[i].y);
    }
    const double size = fmax(hi_x - lo_x, hi_y - lo_y);
    const double merge = 1e-6 * size;

    /* Repeated corners, the last against the first too. */
    for (uint32_t i = 0; i < n && n > 1;) {
        spx_dvec2 e = spx_d2_sub(d2_of(c[(i + 1) % n]), d2_of(c[i]));
        if (spx_d2_len(e) <= merge) drop_corner(c, &n, (i + 1) % n == 0 ? 0 : i + 1);
        else ++i;
    }
    if (n < 3) return SPX_ERR_ZERO_AREA;

    /* Winding from the signed area; none means all on a line. */
    double twice_area = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        spx_dvec2 p = d2_of(c[i]), q = d2_of(c[(i + 1) % n]);
        twice_area += spx_d2_cross(spx_d2_sub(p, d2_of(c[0])), spx_d2_sub(q, d2_of(c[0])));
    }
    if (!(fabs(twice_area) > 1e-12 * size * size)) return SPX_ERR_ZERO_AREA;
    if (twice_area < 0.0) {
        for (uint32_t i = 1, j = n - 1; i < j; ++i, --j) {
            spx_vec2 t = c[i];
            c[i] = c[j];
            c[j] = t;
        }
    }

    /* Straight corners go; a corner turning right, or doubling back on itself, is not convex. */
    for (uint32_t guard = 0; n >= 3 && guard < 2 * SPX_POLYGON_MAX_CORNERS; ++guard) {
        bool dropped = false;
        for (uint32_t i = 0; i < n; ++i) {
            spx_dvec2 p = d2_of(c[(i + n - 1) % n]), q = d2_of(c[i]), r = d2_of(c[(i + 1) % n]);
            spx_dvec2 e = spx_d2_sub(q, p), f = spx_d2_sub(r, q);
            double turn = spx_d2_cross(e, f), lengths = spx_d2_len(e) * spx_d2_len(f);
            if (turn > 1e-9 * lengths) continue;
            if (turn < -1e-9 * lengths || spx_d2_dot(e, f) < 0.0) return SPX_ERR_NOT_CONVEX;
            drop_corner(c, &n, i);
            dropped = true;
            break;
        }
        if (!dropped) break;
    }
    if (n < 3) return SPX_ERR_ZERO_AREA;
    if (!convex_once_round(c, n)) return SPX_ERR_NOT_CONVEX;

    memset(out, 0, sizeof *out);
    out->count = n;
    for (uint32_t i = 0; i < n; ++i) {
        out->corners[i] = c[i];
        spx_dvec2 m = spx_d2_right(spx_d2_sub(d2_of(c[(i + 1) % n]), d2_of(c[i])));
        double len = spx_d2_len(m);
        out->normals[i].x = (float)(m.x / len);
        out->normals[i].y = (float)(m.y / len);
    }
    return SPX_OK;
}

/* The centre of a piece's bounds, in double (exact: sums of two floats). */
static spx_dvec2 bounds_center(const spx_piece2d* p)
{
    if (p->kind == SPX_PIECE2D_CIRCLE) return d2_of(p->circle.center);
    const spx_polygon* q = p->polygon;
    float lo_x = q->corners[0].x, hi_x = lo_x, lo_y = q->corners[0].y, hi_y = lo_y;
    for (uint32_t i = 1; i < q->count; ++i) {
        lo_x = fminf(lo_x, q->corners[i].x), hi_x = fmaxf(hi_x, q->corners[i].x);
        lo_y = fminf(lo_y, q->corners[i].y), hi_y = fmaxf(hi_y, q->corners[i].y);
    }
    return spx_d2(0.5 * ((double)lo_x + hi_x), 0.5 * ((double)lo_y + hi_y));
}

/* On the coordinates as given: a shift of origin could round a small piece to a point. */
static void working_form(const spx_piece2d* p, spx_plane_piece* out)
{
    out->round = p->kind == SPX_PIECE2D_CIRCLE;
    out->middle = bounds_center(p);
    if (out->round) {
        out->count = 0;
        out->center = d2_of(p->circle.center);
        out->radius = p->circle.radius;
        return;
    }
    out->count = p->polygon->count;
    for (uint32_t i = 0; i < out->count; ++i) out->v[i] = d2_of(p->polygon->corners[i]);
    out->center = spx_d2(0.0, 0.0);
    out->radius = 0.0;
}

static bool travel_in_range(spx_vec2 v, float tmax)
{
    return fabs((double)v.x * tmax) <= SPX_MAX_COORDINATE && fabs((double)v.y * tmax) <= SPX_MAX_COORDINATE;
}

static spx_result check_motion(const spx_plane_motion* m, int stage)
{
    if (stage == 1 && !(finite2(m->velocity_a) && finite2(m->velocity_b) && isfinite(m->tmax)))
        return SPX_ERR_NOT_FINITE;
    if (stage == 2 && !(travel_in_range(m->velocity_a, m->tmax) && travel_in_range(m->velocity_b, m->tmax)))
        return SPX_ERR_OUT_OF_RANGE;
    return SPX_OK;
}

spx_result spx_plane_prepare(const spx_piece2d* a, const spx_piece2d* b, const spx_plane_motion* motion,
                             spx_plane_piece* pa, spx_plane_piece* pb)
{
    for (int stage = 0; stage < 4; ++stage) {
        spx_result r = spx_piece2d_check(a, stage);
        if (r == SPX_OK) r = spx_piece2d_check(b, stage);
        if (r == SPX_OK && motion) r = check_motion(motion, stage);
        if (r != SPX_OK) return r;
    }
    if (motion && motion->tmax < 0.0f) return SPX_ERR_BAD_TIME;
    working_form(a, pa);
    working_form(b, pb);
    return SPX_OK;
}

static double piece_extent(const spx_plane_piece* p)
{
    if (p->round) return 2.0 * p->radius;
    double lo_x = p->v[0].x, hi_x = lo_x, lo_y = p->v[0].y, hi_y = lo_y;
    for (uint32_t i = 1; i < p->count; ++i) {
        lo_x = fmin(lo_x, p->v[i].x), hi_x = fmax(hi_x, p->v[i].x);
        lo_y = fmin(lo_y, p->v[i].y), hi_y = fmax(hi_y, p->v[i].y);
    }
    return fmax(hi_x - lo_x, hi_y - lo_y);
}

double spx_plane_scale(const spx_plane_piece* a, const spx_plane_piece* b)
{
    return fmax(piece_extent(a), piece_extent(b));
}

static int compare(double p, double q) { return p < q ? -1 : p > q; }

/* Independent of a polygon's starting corner: polygons first, fewer corners, then from the least. */
static int piece_order(const spx_plane_piece* a, const spx_plane_piece* b)
{
    if (a->round != b->round) return a->round ? 1 : -1;
    if (a->round) {
        int c = compare(a->center.x, b->center.x);
        if (!c) c = compare(a->center.y, b->center.y);
        return c ? c : compare(a->radius, b->radius);
    }
    if (a->count != b->count) return a->count < b->count ? -1 : 1;
    uint32_t sa = 0, sb = 0;
    for (uint32_t i = 1; i < a->count; ++i) {
        if (a->v[i].x < a->v[sa].x || (a->v[i].x == a->v[sa].x && a->v[i].y < a->v[sa].y)) sa = i;
        if (b->v[i].x < b->v[sb].x || (b->v[i].x == b->v[sb].x && b->v[i].y < b->v[sb].y)) sb = i;
    }
    for (uint32_t i = 0; i < a->count; ++i) {
        spx_dvec2 p = a->v[(sa + i) % a->count], q = b->v[(sb + i) % b->count];
        int c = compare(p.x, q.x);
        if (!c) c = compare(p.y, q.y);
        if (c) return c;
    }
    return 0;
}

bool spx_plane_normal_first(spx_dvec2 n, spx_dvec2 m, const spx_plane_piece* a, const spx_plane_piece* b)
{
    const spx_dvec2 toward = spx_d2_sub(b->middle, a->middle);
    double ln = spx_d2_len(n), lm = spx_d2_len(m);
    spx_dvec2 kn = spx_d2_scale(n, 1.0 / ln), km = spx_d2_scale(m, 1.0 / lm);
    double along_n = spx_d2_dot(kn, toward), along_m = spx_d2_dot(km, toward);
    if (along_n != along_m) return along_n > along_m;
    bool n_turned = kn.x < 0.0 || (kn.x == 0.0 && kn.y < 0.0);
    if (n_turned) kn = spx_d2_neg(kn);
    if (km.x < 0.0 || (km.x == 0.0 && km.y < 0.0)) km = spx_d2_neg(km);
    if (kn.x != km.x || kn.y != km.y) return kn.x < km.x || (kn.x == km.x && kn.y < km.y);
    int order = piece_order(a, b);
    return order == 0 ? !n_turned : n_turned == (order > 0);
}
