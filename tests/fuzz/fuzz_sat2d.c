/* Convex polygons and circles through every query of sat2d.h: polygon making, overlap, penetration,
 * sweep. Properties: the same code from overlap and penetration, the sweep's no later in the order
 * of base.h; every answer finite with a unit normal; overlap, penetration and the sweep's start
 * agree; the same answer, bit for bit, with A and B swapped (the normal negated) and with a
 * polygon's corners given from another start. */
#include "fuzz.h"

typedef struct plane_piece {
    spx_polygon polygon;
    spx_piece2d piece;
    spx_result made;
} plane_piece;

static spx_vec2 fuzz_vec2(fuzz_input* in)
{
    spx_vec2 v;
    v.x = fuzz_float(in);
    v.y = fuzz_float(in);
    return v;
}

/* A polygon made from up to 12 corners, one filled by hand (unchecked), or a circle. */
static void fuzz_piece(fuzz_input* in, plane_piece* p)
{
    const uint8_t kind = fuzz_next_byte(in);
    memset(p, 0, sizeof *p);
    p->made = SPX_OK;
    if (kind & 1) {
        const float radius = (fuzz_next_byte(in) & 7) ? fabsf(fuzz_float(in)) : fuzz_float(in);
        p->piece = spx_piece2d_from_circle(fuzz_vec2(in), radius);
        return;
    }
    spx_vec2 corners[12];
    const uint32_t n = 1 + fuzz_next_byte(in) % 12;
    for (uint32_t i = 0; i < n; ++i) corners[i] = fuzz_vec2(in);
    if (kind & 2) { /* by hand: the queries check it */
        p->polygon.count = n < 3 ? 3 : n;
        for (uint32_t i = 0; i < n; ++i) p->polygon.corners[i] = corners[i];
    } else {
        p->made = spx_polygon_from_corners(corners, n, &p->polygon);
        FUZZ_CHECK(p->made == SPX_OK || p->made == SPX_ERR_NOT_FINITE || p->made == SPX_ERR_OUT_OF_RANGE ||
                   p->made == SPX_ERR_ZERO_AREA || p->made == SPX_ERR_NOT_CONVEX);
        if (p->made == SPX_OK) FUZZ_CHECK(spx_polygon_validate(&p->polygon) == SPX_OK);
    }
    p->piece = spx_piece2d_from_polygon(&p->polygon);
}

static bool finite2(spx_vec2 v) { return isfinite(v.x) && isfinite(v.y); }
static bool unit2(spx_vec2 v) { return fabsf(sqrtf(v.x * v.x + v.y * v.y) - 1.0f) <= 1e-5f; }
static bool near2(spx_vec2 a, spx_vec2 b)
{
    const float s = 1e-6f * (1.0f + fmaxf(fmaxf(fabsf(a.x), fabsf(a.y)), fmaxf(fabsf(b.x), fabsf(b.y))));
    return fabsf(a.x - b.x) <= s && fabsf(a.y - b.y) <= s;
}

static void check_hit(const spx_sweep_hit2d* h, float tmax)
{
    if (h->state == SPX_SWEEP_MISS) return;
    FUZZ_CHECK(isfinite(h->time) && isfinite(h->depth) && finite2(h->point) && finite2(h->normal));
    FUZZ_CHECK(unit2(h->normal));
    FUZZ_CHECK(h->time >= 0.0f && h->time <= tmax && h->depth >= 0.0f);
    if (h->state == SPX_SWEEP_START_OVERLAP) FUZZ_CHECK(h->time == 0.0f);
    else FUZZ_CHECK(h->depth == 0.0f);
}

/* Equal pieces (a polygon's list may start at another corner): swapping them leaves the problem as
 * it is, so the normal cannot turn round (sat2d.h). */
static bool same_piece(const spx_piece2d* a, const spx_piece2d* b)
{
    if (a->kind != b->kind) return false;
    if (a->kind == SPX_PIECE2D_CIRCLE)
        return a->circle.center.x == b->circle.center.x && a->circle.center.y == b->circle.center.y &&
               a->circle.radius == b->circle.radius;
    const uint32_t n = a->polygon->count;
    if (b->polygon->count != n) return false;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t i = 0;
        while (i < n && a->polygon->corners[i].x == b->polygon->corners[(i + k) % n].x &&
               a->polygon->corners[i].y == b->polygon->corners[(i + k) % n].y)
            ++i;
        if (i == n) return true;
    }
    return false;
}

int fuzz_sat2d(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    plane_piece a, b;
    fuzz_piece(&in, &a);
    fuzz_piece(&in, &b);
    const spx_vec2 va = fuzz_vec2(&in), vb = fuzz_vec2(&in);
    const float tmax = (fuzz_next_byte(&in) & 7) ? fabsf(fuzz_float(&in)) : fuzz_float(&in);

    bool overlap = false;
    spx_penetration2d pen, pen_swapped;
    spx_sweep_hit2d hit, hit_swapped;
    const spx_result r_overlap = spx_overlap_2d(&a.piece, &b.piece, &overlap);
    const spx_result r_pen = spx_penetration_2d(&a.piece, &b.piece, &pen);
    const spx_result r_sweep = spx_sweep_2d(&a.piece, va, &b.piece, vb, tmax, &hit);
    FUZZ_CHECK(r_overlap == r_pen);
    FUZZ_CHECK(r_overlap == SPX_OK || r_overlap == SPX_ERR_INVALID_ARGUMENT || fuzz_input_code(r_overlap) ||
               r_overlap == SPX_ERR_NOT_CONVEX);
    if (r_overlap != SPX_OK) {
        FUZZ_CHECK(r_sweep != SPX_OK && fuzz_rank(r_sweep) <= fuzz_rank(r_overlap));
        return 0;
    }
    FUZZ_CHECK(overlap == pen.overlapping);
    if (pen.overlapping)
        FUZZ_CHECK(isfinite(pen.depth) && pen.depth >= 0.0f && unit2(pen.normal) && finite2(pen.point));
    FUZZ_CHECK(spx_penetration_2d(&b.piece, &a.piece, &pen_swapped) == SPX_OK);
    const bool equal = same_piece(&a.piece, &b.piece);
    FUZZ_CHECK(pen_swapped.overlapping == pen.overlapping && pen_swapped.depth == pen.depth);
    if (!equal) FUZZ_CHECK(pen_swapped.normal.x == -pen.normal.x && pen_swapped.normal.y == -pen.normal.y);
    FUZZ_CHECK(near2(pen_swapped.point, pen.point));

    if (r_sweep != SPX_OK) {
        FUZZ_CHECK(r_sweep == SPX_ERR_NOT_FINITE || r_sweep == SPX_ERR_OUT_OF_RANGE || r_sweep == SPX_ERR_BAD_TIME);
        return 0;
    }
    check_hit(&hit, tmax);
    FUZZ_CHECK(pen.overlapping == (hit.state == SPX_SWEEP_START_OVERLAP));
    FUZZ_CHECK(spx_sweep_2d(&b.piece, vb, &a.piece, va, tmax, &hit_swapped) == SPX_OK);
    FUZZ_CHECK(hit_swapped.state == hit.state && hit_swapped.time == hit.time && hit_swapped.depth == hit.depth);
    if (!equal || hit.state == SPX_SWEEP_HIT)
        FUZZ_CHECK(hit_swapped.normal.x == -hit.normal.x && hit_swapped.normal.y == -hit.normal.y);
    FUZZ_CHECK(near2(hit_swapped.point, hit.point));

    /* A's corners from its second one on. */
    if (a.piece.kind == SPX_PIECE2D_POLYGON) {
        plane_piece turned = a;
        const uint32_t n = a.polygon.count;
        for (uint32_t i = 0; i < n; ++i) turned.polygon.corners[i] = a.polygon.corners[(i + 1) % n];
        turned.piece = spx_piece2d_from_polygon(&turned.polygon);
        spx_sweep_hit2d hit_turned;
        FUZZ_CHECK(spx_sweep_2d(&turned.piece, va, &b.piece, vb, tmax, &hit_turned) == SPX_OK);
        FUZZ_CHECK(hit_turned.state == hit.state && hit_turned.time == hit.time && hit_turned.depth == hit.depth);
        if (!same_piece(&turned.piece, &b.piece))
            FUZZ_CHECK(hit_turned.normal.x == hit.normal.x && hit_turned.normal.y == hit.normal.y);
        FUZZ_CHECK(near2(hit_turned.point, hit.point));
    }
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_sat2d)
