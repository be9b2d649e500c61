/* The same problem asked another way gets the same answer: every static and swept query of two
 * pieces under (a) every order of each triangle's corners, (b) A and B swapped (the normal
 * negated), (c) the whole problem moved by a common offset of up to 1e3 m and given a common
 * velocity (the point moves with it); the mesh queries under another triangle order of the def
 * and A and B swapped.
 *
 * Problems come from the random generator of support/cases.c and from adversarial families built
 * here (exact ties: grid coordinates, segment-like and coincident-corner triangles, coplanar
 * pieces, parallel copies). Each problem is first rounded to a grid on which the offset and the
 * common velocity add exactly, so that (c) asks the very same question of other floats, not a
 * neighbouring one.
 *
 * Acceptance (docs/tolerances.md): time within 1e-4 tmax + 1e-5; depth within 1e-5 of the size;
 * point within 1e-4 of the size plus four float steps of its coordinates; normal within 1e-3 rad.
 * A state may differ only where the reference puts the pieces within 1e-5 of the size of touching
 * (a graze, a touch at 0 or tmax), and then each answer must be one the reference allows.
 *
 * `test_sweep_invariance` runs 300 problems of each kind and family; `--long` runs 10,000. */
#include <sepax/sepax.h>
#include <float.h>
#include <stdlib.h>
#include "support/test.h"
#include "support/pieces.h"
#include "support/cases.h"
#include "support/reference.h"
#include "support/shapes.h"

#define CLEAR_FRACTION 1e-5
#define ANGLE_TOL 1e-3
#define POINT_FRACTION 1e-4
#define DEPTH_FRACTION 1e-5

static int cases_per_family = 300;
static int mesh_cases = 200;

enum { DUMP_LIMIT = 6 };

static const int orders[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };

/* ---- the queries on a case ---------------------------------------------------------------------- */

typedef struct answers {
    spx_result code;
    spx_sweep_hit hit;
    spx_penetration pen;
    bool overlap;
} answers;

static void ask(const test_sweep_case* c, answers* out)
{
    memset(out, 0, sizeof *out);
    spx_result r1, r2, r3;
    switch (c->kind) {
    case TEST_CASE_OBB_OBB:
        r1 = spx_sweep_obb_obb(&c->box[0], c->velocity[0], &c->box[1], c->velocity[1], c->tmax, &out->hit);
        r2 = spx_penetration_obb_obb(&c->box[0], &c->box[1], &out->pen);
        r3 = spx_overlap_obb_obb(&c->box[0], &c->box[1], &out->overlap);
        break;
    case TEST_CASE_OBB_TRIANGLE:
        r1 = spx_sweep_obb_triangle(&c->box[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, &out->hit);
        r2 = spx_penetration_obb_triangle(&c->box[0], &c->tri[1], &out->pen);
        r3 = spx_overlap_obb_triangle(&c->box[0], &c->tri[1], &out->overlap);
        break;
    default:
        r1 = spx_sweep_triangle_triangle(&c->tri[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, &out->hit);
        r2 = spx_penetration_triangle_triangle(&c->tri[0], &c->tri[1], &out->pen);
        r3 = spx_overlap_triangle_triangle(&c->tri[0], &c->tri[1], &out->overlap);
        break;
    }
    out->code = r1 != SPX_OK ? r1 : (r2 != SPX_OK ? r2 : r3);
}

/* ---- hand-worked problems ------------------------------------------------------------------------ */

/* Sweeps triangles a and b in all 36 orders of their corners and both argument orders; each
   answer must hit at `time` at `point`, with normal +-`normal` (from the first argument). */
static int every_order_hits(spx_triangle a, spx_vec3 va, spx_triangle b, spx_vec3 vb, float tmax, double time,
                            spx_vec3 point, spx_vec3 normal)
{
    for (int oa = 0; oa < 6; ++oa)
        for (int ob = 0; ob < 6; ++ob)
            for (int swap = 0; swap < 2; ++swap) {
                spx_triangle pa, pb;
                for (int k = 0; k < 3; ++k) {
                    pa.v[k] = a.v[orders[oa][k]];
                    pb.v[k] = b.v[orders[ob][k]];
                }
                spx_sweep_hit h;
                if (swap) TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&pb, vb, &pa, va, tmax, &h), SPX_OK);
                else TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&pa, va, &pb, vb, tmax, &h), SPX_OK);
                TEST_ENSURE(h.state == SPX_SWEEP_HIT);
                TEST_ENSURE_NEAR(h.time, time, 1e-6);
                TEST_ENSURE_NEAR3(h.point, point.x, point.y, point.z, 1e-6);
                const double s = swap ? -1.0 : 1.0;
                TEST_ENSURE_NEAR3(h.normal, s * normal.x, s * normal.y, s * normal.z, 1e-6);
            }
    return 0;
}

/* A segment-like triangle (two corners coincide) at rest, struck by a triangle whose edge crosses
   it: the point is where the edge meets the segment, whatever the order of the corners. Along the
   normal n = A's edge x B's first edge, B's edge (-0.5, 0.5, 0.75) + s (0, -0.875, 0.25) moves by
   (0.5, 0.125, -1.875) t; it meets the segment's line y = 2x / 3, z = 0 at t = 0.5107692,
   x = -0.2446154. */
static int segment_like_triangle_point(void)
{
    spx_triangle a = { { { 0.375f, 0.25f, 0 }, { -0.375f, -0.25f, 0 }, { -0.375f, -0.25f, 0 } } };
    spx_triangle b = { { { -0.5f, 0.5f, 0.75f }, { -0.5f, -0.375f, 1 }, { -0.5f, 1.375f, 0.5f } } };
    const spx_vec3 vb = { 0.5f, 0.125f, -1.875f };
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &b, vb, 1, &h), SPX_OK);
    return every_order_hits(a, spx_v3(0, 0, 0), b, vb, 1, 0.51076923, spx_v3(-0.24461538f, -0.16307692f, 0), h.normal);
}

/* Coplanar triangles: A's edge (2.875, 0.75)-(3.625, 2) is parallel to B's edge (-0.125, 0.625)-
   (-0.75, -0.125), so their in-plane normals tie; but it is A's corner (4.5, 0.25) that meets B's
   edge (-0.125, 0.625)-(0.5, -0.625), at t = 0.6447368 at (0.1953125, -0.015625). */
static int coplanar_parallel_edges_point(void)
{
    spx_triangle a = { { { 2.875f, 0.75f, 0 }, { 3.625f, 2, 0 }, { 4.5f, 0.25f, 0 } } };
    spx_triangle b = { { { -0.125f, 0.625f, 0 }, { -0.75f, -0.125f, 0 }, { 0.5f, -0.625f, 0 } } };
    const spx_vec3 va = { -4.15625f, -1.1875f, 0 };
    /* The normal is B's edge's in-plane normal, (-2, -1) / sqrt 5 from A to B. */
    return every_order_hits(a, va, b, spx_v3(0, 0, 0), 1, 0.64473684, spx_v3(0.1953125f, -0.015625f, 0),
                            spx_v3(-0.89442719f, -0.44721360f, 0));
}

/* A box resting on another's top face edge to edge: A (turned a quarter about z, as a float
   quaternion gives it, its axes off by 1.2e-7) spans x 2.5..3.5, y -2.75..0.25 above z = 0.75; B spans
   x 2..2.5, y -4..-0.5 below it. They touch along the line x = 2.5, y -2.75..-0.5, whose middle is
   (2.5, -1.625, 0.75), in both argument orders: rounding leaves the faces overlapping in a sliver
   whose extent it decides, and the point must not follow it. */
static int faces_meeting_along_a_line(void)
{
    spx_obb a, b;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(3, -1.25f, 2.75f), spx_v3(1.5f, 0.5f, 2),
                                       (spx_quat){ 0, 0, 0.70710678f, 0.70710678f }, &a),
                     SPX_OK);
    TEST_ENSURE_CODE(
        spx_obb_from_quat(spx_v3(2.25f, -2.25f, 0.5f), spx_v3(0.25f, 1.75f, 0.25f), (spx_quat){ 0, 0, 0, 1 }, &b),
        SPX_OK);
    const spx_vec3 va = { -1.5f, 4, -2 }, vb = { 1.5f, 2.75f, -0.5f };
    for (int swap = 0; swap < 2; ++swap) {
        spx_sweep_hit h;
        if (swap) TEST_ENSURE_CODE(spx_sweep_obb_obb(&b, vb, &a, va, 1, &h), SPX_OK);
        else TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, va, &b, vb, 1, &h), SPX_OK);
        TEST_ENSURE(test_starts_overlapping_by(&h, 0.0, 1e-6));
        TEST_ENSURE_NEAR(h.normal.z, swap ? 1.0 : -1.0, 1e-6);
        TEST_ENSURE_NEAR(h.point.x, 2.5, 1e-5);
        TEST_ENSURE_NEAR(h.point.y, -1.625, 1e-5);
        TEST_ENSURE_NEAR(h.point.z, 0.75, 1e-6);
    }
    return 0;
}

/* ---- exact rounding, so that a moved problem is the same problem ----------------------------- */

/* A step on which every multiple up to `limit` in magnitude is a float (twice the float step at
   `limit`, so that a sum may reach the next power of two). */
static double float_step_up_to(double limit) { return ldexp(1.0, ilogb(limit) + 2 - FLT_MANT_DIG); }

static float snap(double x, double step) { return (float)(step * nearbyint(x / step)); }

static spx_vec3 snap3(spx_vec3 v, double step) { return spx_v3(snap(v.x, step), snap(v.y, step), snap(v.z, step)); }

static double max_abs3(spx_vec3 v) { return fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z))); }

static double position_extent(const test_sweep_case* c)
{
    double m = 0;
    for (int i = 0; i < 2; ++i) {
        if (test_case_piece_is_box(c->kind, i)) {
            m = fmax(m, max_abs3(c->box[i].center));
        } else {
            for (int k = 0; k < 3; ++k) m = fmax(m, max_abs3(c->tri[i].v[k]));
        }
    }
    return m;
}

/* Rounds positions and velocities, and the offset and common velocity, to steps on which they add
   exactly. */
static void snap_case(test_sweep_case* c, spx_vec3* offset, spx_vec3* common)
{
    double ps = float_step_up_to(position_extent(c) + max_abs3(*offset) + 1e-30);
    double vs = float_step_up_to(fmax(max_abs3(c->velocity[0]), max_abs3(c->velocity[1])) + max_abs3(*common) + 1e-30);
    *offset = snap3(*offset, ps);
    *common = snap3(*common, vs);
    for (int i = 0; i < 2; ++i) {
        if (test_case_piece_is_box(c->kind, i)) c->box[i].center = snap3(c->box[i].center, ps);
        else
            for (int k = 0; k < 3; ++k) c->tri[i].v[k] = snap3(c->tri[i].v[k], ps);
        c->velocity[i] = snap3(c->velocity[i], vs);
    }
}

static void move_case(const test_sweep_case* in, spx_vec3 offset, spx_vec3 common, test_sweep_case* out)
{
    *out = *in;
    for (int i = 0; i < 2; ++i) {
        if (test_case_piece_is_box(in->kind, i)) out->box[i].center = test_add3(in->box[i].center, offset);
        else
            for (int k = 0; k < 3; ++k) out->tri[i].v[k] = test_add3(in->tri[i].v[k], offset);
        out->velocity[i] = test_add3(in->velocity[i], common);
    }
}

static void reorder_case(const test_sweep_case* in, int order_a, int order_b, test_sweep_case* out)
{
    *out = *in;
    for (int k = 0; k < 3; ++k) {
        out->tri[0].v[k] = in->tri[0].v[orders[order_a][k]];
        out->tri[1].v[k] = in->tri[1].v[orders[order_b][k]];
    }
}

/* ---- adversarial families ------------------------------------------------------------------------ */

typedef enum family {
    FAMILY_RANDOM = 0,
    FAMILY_GRID,
    FAMILY_SEGMENT,
    FAMILY_COPLANAR,
    FAMILY_TILTED,
    FAMILY_PARALLEL,
    FAMILY_COUNT
} family;

static const char* family_name(family f)
{
    static const char* names[] = { "random", "grid", "segment-like", "coplanar", "tilted coplanar", "parallel copies" };
    return names[f];
}

static double grid_value(test_case_rng* rng, int lo, int hi)
{
    return 0.25 * (double)(lo * 4 + (int)(test_case_rng_next(rng) % (uint64_t)((hi - lo) * 4 + 1)));
}

static spx_vec3 grid_vec(test_case_rng* rng, int lo, int hi)
{
    const float z = (float)grid_value(rng, lo, hi), y = (float)grid_value(rng, lo, hi);
    return spx_v3((float)grid_value(rng, lo, hi), y, z);
}

/* A box whose axes are a quarter turn apart from the world's (or 45 degrees about one axis). */
static spx_obb grid_box(test_case_rng* rng, spx_vec3 centre)
{
    const float hz = 0.25f * (float)(1 + test_case_rng_next(rng) % 8),
                hy = 0.25f * (float)(1 + test_case_rng_next(rng) % 8),
                hx = 0.25f * (float)(1 + test_case_rng_next(rng) % 8);
    spx_vec3 h = spx_v3(hx, hy, hz);
    spx_quat q = { 0, 0, 0, 1 };
    uint64_t turn = test_case_rng_next(rng) % 4;
    if (turn == 1) q = (spx_quat){ 0, 0, 0.70710678f, 0.70710678f };
    else if (turn == 2) q = (spx_quat){ 0, 0.38268343f, 0, 0.92387953f };
    spx_obb b;
    spx_obb_from_quat(centre, h, q, &b);
    return b;
}

/* Corner 2 on the line of corners 0 and 1 at a grid parameter (inside, at an end, or beyond). */
static void make_segment_like(test_case_rng* rng, spx_triangle* t)
{
    const double s = 0.25 * (double)((int)(test_case_rng_next(rng) % 9) - 2);
    for (int i = 0; i < 3; ++i) {
        float p0 = (&t->v[0].x)[i], p1 = (&t->v[1].x)[i];
        (&t->v[2].x)[i] = (float)(p0 + s * ((double)p1 - p0));
    }
}

static void make_family_case(test_case_kind kind, family f, uint64_t seed, test_sweep_case* c)
{
    test_case_make(kind, seed, c);
    if (f == FAMILY_RANDOM) return;
    test_case_rng rng = { seed * 0x9E3779B97F4A7C15ull + (uint64_t)f * 7919u + (uint64_t)kind };
    switch (f) {
    case FAMILY_GRID:
        /* Small quarter-metre coordinates and velocities: many axes enter at exactly one time. */
        for (int i = 0; i < 2; ++i) {
            spx_vec3 centre = grid_vec(&rng, -3, 3);
            if (test_case_piece_is_box(kind, i)) c->box[i] = grid_box(&rng, centre);
            else
                for (int k = 0; k < 3; ++k) c->tri[i].v[k] = test_add3(centre, grid_vec(&rng, -2, 2));
            c->velocity[i] = grid_vec(&rng, -4, 4);
        }
        c->tmax = (float)(0.5 * (double)(1 + test_case_rng_next(&rng) % 4));
        break;
    case FAMILY_SEGMENT:
        /* Every triangle segment-like: a corner on the line of the other two, or on one of them. */
        for (int i = 0; i < 2; ++i)
            if (!test_case_piece_is_box(kind, i)) make_segment_like(&rng, &c->tri[i]);
        break;
    case FAMILY_TILTED:
    case FAMILY_COPLANAR:
        /* Everything in the plane z = 0 (a box's face on it), moving in the plane; tilted: all turned
           about a random axis, so that rounding leaves the pieces coplanar only within a few ulps. */
        for (int i = 0; i < 2; ++i) {
            if (test_case_piece_is_box(kind, i)) {
                spx_obb_from_quat(spx_v3(c->box[i].center.x, c->box[i].center.y, -c->box[i].half_extents.z),
                                  c->box[i].half_extents, (spx_quat){ 0, 0, 0.38268343f, 0.92387953f }, &c->box[i]);
            } else {
                for (int k = 0; k < 3; ++k) c->tri[i].v[k].z = 0.0f;
                if (spx_triangle_validate(&c->tri[i]) != SPX_OK)
                    c->tri[i].v[2].y += 0.5f * (c->tri[i].v[0].x - c->tri[i].v[1].x);
            }
            c->velocity[i].z = 0.0f;
        }
        if (seed % 2) {
            /* B's first edge parallel or anti-parallel to an edge of A: in-plane axes of both tie. */
            const double k = 0.5 * (double)((int)(test_case_rng_next(&rng) % 7) - 3);
            spx_vec3 d;
            if (kind == TEST_CASE_TRIANGLE_TRIANGLE) {
                const int j = (int)(test_case_rng_next(&rng) % 3);
                d = spx_v3(c->tri[0].v[(j + 1) % 3].x - c->tri[0].v[j].x, c->tri[0].v[(j + 1) % 3].y - c->tri[0].v[j].y,
                           0);
            } else {
                d = spx_v3(2.0f * c->box[0].half_extents.x * c->box[0].rotation.col[0].x,
                           2.0f * c->box[0].half_extents.x * c->box[0].rotation.col[0].y, 0);
            }
            if (k != 0.0 && !test_case_piece_is_box(kind, 1))
                c->tri[1].v[1] = spx_v3((float)(c->tri[1].v[0].x + k * d.x), (float)(c->tri[1].v[0].y + k * d.y), 0);
        }
        if (f == FAMILY_TILTED) {
            const double none[3] = { 0, 0, 0 };
            test_sweep_case turned;
            test_case_transform(c, test_case_random_quat(&rng), none, &turned);
            *c = turned;
        }
        break;
    default:
        /* B a translated copy of A (triangles), or with A's rotation (boxes): all edges parallel. */
        if (kind == TEST_CASE_OBB_TRIANGLE) {
            /* The triangle's first edge along a box axis, its plane along a box face. */
            const spx_obb* b = &c->box[0];
            float l = 0.5f * b->half_extents.x + 0.5f;
            spx_vec3 p = c->tri[1].v[0];
            for (int k = 1; k < 3; ++k) {
                spx_vec3 d = k == 1 ? b->rotation.col[0] : test_add3(b->rotation.col[0], b->rotation.col[1]);
                c->tri[1].v[k] = spx_v3(p.x + l * d.x * (float)k, p.y + l * d.y * (float)k, p.z + l * d.z * (float)k);
            }
        } else if (kind == TEST_CASE_OBB_OBB) {
            spx_vec3 centre = c->box[1].center;
            c->box[1] = c->box[0];
            c->box[1].center = centre;
        } else {
            spx_vec3 d = spx_v3(c->tri[1].v[0].x - c->tri[0].v[0].x, c->tri[1].v[0].y - c->tri[0].v[0].y,
                                c->tri[1].v[0].z - c->tri[0].v[0].z);
            for (int k = 0; k < 3; ++k) c->tri[1].v[k] = test_add3(c->tri[0].v[k], d);
        }
        break;
    }
}

/* ---- comparison ---------------------------------------------------------------------------------- */

typedef struct tally {
    int cases, skipped, compared, borderline, failures, dumped;
    double worst_dt, worst_dp, worst_angle, worst_depth;
} tally;

static void v3d(double out[3], spx_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

static double angle_between(spx_vec3 a, spx_vec3 b)
{
    double x[3], y[3];
    v3d(x, a);
    v3d(y, b);
    return test_ref_angle(x, y);
}

static const char* state_name(spx_sweep_state s)
{
    return s == SPX_SWEEP_MISS ? "miss" : s == SPX_SWEEP_HIT ? "hit" : "start overlap";
}

static void report(tally* t, const char* what, const test_sweep_case* c, const answers* a, const test_sweep_case* o,
                   const answers* b, const char* why)
{
    ++t->failures;
    if (t->dumped++ >= DUMP_LIMIT) return;
    fprintf(stderr, "FAIL %s %s seed %llu: %s\n", test_case_kind_name(c->kind), what, (unsigned long long)c->seed, why);
    const answers* both[2] = { a, b };
    for (int i = 0; i < 2; ++i) {
        const spx_sweep_hit* h = &both[i]->hit;
        fprintf(stderr,
                "  %s: %s t %.9g point %.9g %.9g %.9g normal %.9g %.9g %.9g depth %.9g axis %d;"
                " penetration %d depth %.9g normal %.9g %.9g %.9g axis %d; overlap %d\n",
                i ? "other   " : "original", state_name(h->state), h->time, h->point.x, h->point.y, h->point.z,
                h->normal.x, h->normal.y, h->normal.z, h->depth, h->axis, (int)both[i]->pen.overlapping,
                both[i]->pen.depth, both[i]->pen.normal.x, both[i]->pen.normal.y, both[i]->pen.normal.z,
                both[i]->pen.axis, (int)both[i]->overlap);
    }
    test_case_print(stderr, c);
    fprintf(stderr, "  asked as:\n");
    test_case_print(stderr, o);
}

/* Everything about a problem the reference decides, computed only when two answers differ. */
typedef struct judge {
    bool solved;
    test_ref_problem p;
    test_ref_sweep r;
    double clear;
} judge;

static void judge_solve(judge* j, const test_sweep_case* c)
{
    if (j->solved) return;
    test_case_reference_problem(c, &j->p);
    j->clear = CLEAR_FRACTION * j->p.size;
    test_ref_sweep_solve(&j->p, j->clear, &j->r);
    j->solved = true;
}

/* Is `h` an answer the reference allows on a problem that is borderline (within CLEAR of touching)? */
static bool borderline_allows(judge* j, const test_sweep_case* c, const spx_sweep_hit* h)
{
    judge_solve(j, c);
    const test_ref_sweep* r = &j->r;
    bool near_start = fabs(r->sd_start) <= j->clear, graze = fabs(r->sd_min) <= j->clear;
    if (!near_start && !graze) return false;
    if (h->state == SPX_SWEEP_START_OVERLAP) return r->sd_start <= j->clear;
    if (h->state == SPX_SWEEP_HIT) return test_ref_signed_distance(&j->p, h->time, NULL) <= j->clear;
    return r->sd_min >= -j->clear;
}

/* The normal of another asking may differ only where the contact normal is not unique (a corner or
   an edge of the Minkowski difference, or two ways out equally deep), and must then still be a
   valid one: a separating direction at the contact, or a way out no deeper than the depth. */
static bool normal_allowed(judge* j, const test_sweep_case* c, const spx_sweep_hit* h, spx_vec3 n)
{
    judge_solve(j, c);
    if (j->r.normal_unique) return false;
    double nd[3];
    v3d(nd, n);
    if (h->state == SPX_SWEEP_START_OVERLAP)
        return -test_ref_gap_along(&j->p, nd, 0.0) <= h->depth + DEPTH_FRACTION * j->p.size;
    return test_ref_gap_along(&j->p, nd, h->time) >= -POINT_FRACTION * j->p.size;
}

/* Compares `b` (the problem asked as `o`) with `a`; `sign` -1 for a swap (normals flip); `shift` and
   `drift` are the offset and common velocity of a move (the point follows them). */
static void compare(tally* t, const char* what, const test_sweep_case* c, const answers* a, const test_sweep_case* o,
                    const answers* b, double sign, spx_vec3 shift, spx_vec3 drift, judge* j, double size)
{
    char why[256];
    ++t->compared;
    if (b->code != a->code) {
        snprintf(why, sizeof why, "result %s, originally %s", spx_result_string(b->code), spx_result_string(a->code));
        report(t, what, c, a, o, b, why);
        return;
    }
    const double tol_t = 1e-4 * c->tmax + 1e-5, tol_d = DEPTH_FRACTION * size;
    const spx_sweep_hit *ha = &a->hit, *hb = &b->hit;
    if (ha->state != hb->state) {
        if (borderline_allows(j, c, ha) && borderline_allows(j, c, hb)) {
            ++t->borderline;
        } else {
            snprintf(why, sizeof why, "sweep state %s, originally %s", state_name(hb->state), state_name(ha->state));
            report(t, what, c, a, o, b, why);
            return;
        }
    } else if (ha->state != SPX_SWEEP_MISS) {
        double dt = fabs((double)hb->time - ha->time), dd = fabs((double)hb->depth - ha->depth);
        t->worst_dt = fmax(t->worst_dt, dt / c->tmax);
        t->worst_depth = fmax(t->worst_depth, dd / size);
        if (!(dt <= tol_t)) {
            snprintf(why, sizeof why, "time %.9g, originally %.9g", hb->time, ha->time);
            report(t, what, c, a, o, b, why);
            return;
        }
        if (!(dd <= tol_d)) {
            snprintf(why, sizeof why, "depth %.9g, originally %.9g", hb->depth, ha->depth);
            report(t, what, c, a, o, b, why);
            return;
        }
        spx_vec3 na = ha->normal,
                 nb = spx_v3((float)sign * hb->normal.x, (float)sign * hb->normal.y, (float)sign * hb->normal.z);
        double ang = angle_between(na, nb);
        bool normal_same = ang <= ANGLE_TOL;
        if (normal_same) t->worst_angle = fmax(t->worst_angle, ang);
        else if (!normal_allowed(j, c, hb, nb)) {
            snprintf(why, sizeof why, "normal %.3g rad off the original", ang);
            report(t, what, c, a, o, b, why);
            return;
        } else {
            ++t->borderline;
        }
        /* The point moves with the offset and with the common velocity until the contact. */
        double expect[3] = { ha->point.x + (double)shift.x + (double)drift.x * hb->time,
                             ha->point.y + (double)shift.y + (double)drift.y * hb->time,
                             ha->point.z + (double)shift.z + (double)drift.z * hb->time };
        double got[3];
        v3d(got, hb->point);
        double dp = sqrt((got[0] - expect[0]) * (got[0] - expect[0]) + (got[1] - expect[1]) * (got[1] - expect[1]) +
                         (got[2] - expect[2]) * (got[2] - expect[2]));
        double steps = 4.0 * FLT_EPSILON * fmax(max_abs3(hb->point), max_abs3(ha->point));
        /* A start overlap's point depends on its normal; where the normal may differ, so may it. */
        const bool judged = normal_same || ha->state == SPX_SWEEP_HIT;
        if (judged) t->worst_dp = fmax(t->worst_dp, fmax(dp - steps, 0.0) / size);
        if (judged && !(dp <= POINT_FRACTION * size + steps)) {
            snprintf(why, sizeof why, "point %.3g of the size from the original's", dp / size);
            report(t, what, c, a, o, b, why);
            return;
        }
    }
    /* The static queries at the poses. */
    if (a->overlap != b->overlap || a->pen.overlapping != b->pen.overlapping) {
        judge_solve(j, c);
        if (!(fabs(j->r.sd_start) <= j->clear)) {
            report(t, what, c, a, o, b, "static overlap differs");
            return;
        }
        ++t->borderline;
    } else if (a->pen.overlapping) {
        if (!(fabs((double)a->pen.depth - b->pen.depth) <= tol_d)) {
            snprintf(why, sizeof why, "penetration depth %.9g, originally %.9g", b->pen.depth, a->pen.depth);
            report(t, what, c, a, o, b, why);
            return;
        }
        spx_vec3 nb =
            spx_v3((float)sign * b->pen.normal.x, (float)sign * b->pen.normal.y, (float)sign * b->pen.normal.z);
        double ang = angle_between(a->pen.normal, nb);
        if (ang > ANGLE_TOL) {
            judge_solve(j, c);
            double nd[3];
            v3d(nd, nb);
            bool ambiguous = !j->r.normal_unique || fabs(j->r.sd_start) <= j->clear;
            if (!ambiguous || !(-test_ref_gap_along(&j->p, nd, 0.0) <= b->pen.depth + tol_d)) {
                snprintf(why, sizeof why, "penetration normal %.3g rad off the original", ang);
                report(t, what, c, a, o, b, why);
                return;
            }
            ++t->borderline;
        }
    }
}

static spx_vec3 random_offset(test_case_rng* rng, double lo, double hi)
{
    double d[3];
    test_case_unit_vector(rng, d);
    double m = test_case_log_uniform(rng, lo, hi);
    return spx_v3((float)(m * d[0]), (float)(m * d[1]), (float)(m * d[2]));
}

/* One problem of `kind` from `f`, asked every way. */
static void check_case(tally* t, test_case_kind kind, family f, uint64_t seed)
{
    test_sweep_case c;
    make_family_case(kind, f, seed, &c);
    test_case_rng rng = { seed ^ 0xA0761D6478BD642Full ^ ((uint64_t)f << 40) };
    /* The offset (up to 1e3 m) and common velocity (up to 10 times the pieces' own) of (c). */
    spx_vec3 shift = random_offset(&rng, 1.0, 1e3);
    double speed = fmax(max_abs3(c.velocity[0]), max_abs3(c.velocity[1])) + 1e-3;
    spx_vec3 drift = random_offset(&rng, 1e-2 * speed, 10.0 * speed);
    snap_case(&c, &shift, &drift);
    ++t->cases;
    answers a;
    ask(&c, &a);
    if (a.code != SPX_OK) { /* the rounding made a triangle's corners coincide */
        ++t->skipped;
        return;
    }
    test_ref_problem p;
    test_case_reference_problem(&c, &p);
    judge j = { 0 };
    const spx_vec3 none = { 0, 0, 0 };
    char what[64];

    /* (a) every order of the corners. */
    int na = test_case_piece_is_box(kind, 0) ? 1 : 6, nb = test_case_piece_is_box(kind, 1) ? 1 : 6;
    for (int oa = 0; oa < na; ++oa)
        for (int ob = 0; ob < nb; ++ob) {
            if (oa == 0 && ob == 0) continue;
            test_sweep_case o;
            reorder_case(&c, oa, ob, &o);
            answers b;
            ask(&o, &b);
            snprintf(what, sizeof what, "[%s] corners %d%d%d/%d%d%d", family_name(f), orders[oa][0], orders[oa][1],
                     orders[oa][2], orders[ob][0], orders[ob][1], orders[ob][2]);
            compare(t, what, &c, &a, &o, &b, 1.0, none, none, &j, p.size);
        }
    /* (b) A and B swapped, in a random order of corners. */
    if (kind != TEST_CASE_OBB_TRIANGLE) {
        test_sweep_case s, o;
        test_case_swap(&c, &s);
        const int order_b = (int)(test_case_rng_next(&rng) % 6), order_a = (int)(test_case_rng_next(&rng) % 6);
        reorder_case(&s, order_a, order_b, &o);
        if (kind == TEST_CASE_OBB_OBB) o = s;
        answers b;
        ask(&o, &b);
        snprintf(what, sizeof what, "[%s] swapped", family_name(f));
        compare(t, what, &c, &a, &o, &b, -1.0, none, none, &j, p.size);
    }
    /* (c) moved by the offset, given the common velocity. */
    test_sweep_case m;
    move_case(&c, shift, drift, &m);
    answers b;
    ask(&m, &b);
    snprintf(what, sizeof what, "[%s] moved by %.4g m", family_name(f), max_abs3(shift));
    compare(t, what, &c, &a, &m, &b, 1.0, shift, drift, &j, p.size);
}

static int invariance_of(test_case_kind kind)
{
    int bad = 0;
    for (int f = 0; f < FAMILY_COUNT; ++f) {
        tally t;
        memset(&t, 0, sizeof t);
        for (int i = 0; i < cases_per_family; ++i) check_case(&t, kind, (family)f, 500000u + (uint64_t)i);
        printf("%-18s %-16s %5d problems (%d skipped), %6d askings compared, %4d borderline, %d failures;"
               " worst time %.2g tmax, point %.2g size (beyond float steps), normal %.2g rad, depth %.2g size\n",
               test_case_kind_name(kind), family_name((family)f), t.cases, t.skipped, t.compared, t.borderline,
               t.failures, t.worst_dt, t.worst_dp, t.worst_angle, t.worst_depth);
        bad += t.failures;
    }
    TEST_ENSURE(bad == 0);
    return 0;
}

static int obb_obb_invariance(void) { return invariance_of(TEST_CASE_OBB_OBB); }
static int obb_triangle_invariance(void) { return invariance_of(TEST_CASE_OBB_TRIANGLE); }
static int triangle_triangle_invariance(void) { return invariance_of(TEST_CASE_TRIANGLE_TRIANGLE); }

/* ---- mesh queries: the order of the def's triangles, A and B swapped ----------------------------- */

enum { MESH_CAPACITY = 256 };

/* The shape as a mesh; with `rng`, its triangles in a shuffled order, each starting at another
   corner (the winding kept). */
static spx_mesh* mesh_of(const test_shape* s, test_case_rng* rng)
{
    uint32_t* idx = malloc(sizeof(uint32_t) * 3 * (size_t)s->triangle_count);
    if (!idx) return NULL;
    memcpy(idx, s->indices, sizeof(uint32_t) * 3 * (size_t)s->triangle_count);
    if (rng) {
        for (uint32_t t = s->triangle_count; t > 1; --t) {
            uint32_t u = (uint32_t)(test_case_rng_next(rng) % t), tmp[3];
            memcpy(tmp, idx + 3 * (t - 1), sizeof tmp);
            memcpy(idx + 3 * (t - 1), idx + 3 * u, sizeof tmp);
            memcpy(idx + 3 * u, tmp, sizeof tmp);
        }
        for (uint32_t t = 0; t < s->triangle_count; ++t) {
            uint32_t r = (uint32_t)(test_case_rng_next(rng) % 3), tmp[3];
            for (int k = 0; k < 3; ++k) tmp[k] = idx[3 * t + (k + r) % 3];
            memcpy(idx + 3 * t, tmp, sizeof tmp);
        }
    }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = s->vertices;
    def.vertex_count = s->vertex_count;
    def.indices = idx;
    def.triangle_count = s->triangle_count;
    def.leaf_triangles = rng ? 1 + (uint32_t)(test_case_rng_next(rng) % 8) : 4;
    spx_mesh* m = NULL;
    spx_result r = spx_mesh_create(&def, &m);
    free(idx);
    return r == SPX_OK ? m : NULL;
}

/* A grid of quarter-metre squares (coplanar triangles: many pairs touch at once) or a soup. */
static bool mesh_shape(test_case_rng* rng, test_shape* s)
{
    if (test_case_rng_next(rng) % 2) {
        const uint32_t nz = 1 + (uint32_t)(test_case_rng_next(rng) % 5),
                       nx = 1 + (uint32_t)(test_case_rng_next(rng) % 5);
        if (!test_shape_grid(s, nx, nz)) return false;
        for (uint32_t i = 0; i < s->vertex_count; ++i)
            s->vertices[i] = spx_v3(0.25f * s->vertices[i].x, 0.25f * s->vertices[i].y, 0.25f * s->vertices[i].z);
        return true;
    }
    const uint64_t seed = test_case_rng_next(rng);
    return test_shape_random(s, 4 + (uint32_t)(test_case_rng_next(rng) % 30), 1.0f, 0.5f, seed);
}

static spx_quat mesh_turn(test_case_rng* rng)
{
    static const spx_quat turns[4] = {
        { 0, 0, 0, 1 }, { 0.70710678f, 0, 0, 0.70710678f }, { 0, 0, 1, 0 }, { 0, 0.38268343f, 0, 0.92387953f }
    };
    return turns[test_case_rng_next(rng) % 4];
}

static void hit_print(const char* who, const spx_mesh_hit* h)
{
    fprintf(stderr, "  %s: %s t %.9g normal %.9g %.9g %.9g point %.9g %.9g %.9g depth %.9g, %u pairs\n", who,
            state_name(h->state), h->time, h->normal.x, h->normal.y, h->normal.z, h->point.x, h->point.y, h->point.z,
            h->depth, h->contact_count);
}

/* Two answers of one mesh query asked two ways; sign -1 when A and B were swapped. */
/* What a swapped mesh-mesh answer may be explained by: the original problem and its contact set. */
typedef struct swap_source {
    spx_mesh_instance *a, *b;
    spx_vec3 va, vb;
    float tmax;
    const spx_mesh_contact* contacts;
} swap_source;

static bool swap_explained(spx_mesh_instance* a, spx_vec3 va, spx_mesh_instance* b, spx_vec3 vb, float tmax,
                           const spx_mesh_contact* contacts, uint32_t written);

/* Two answers of one mesh query asked two ways; sign -1 when A and B were swapped, and then
   `explain` may excuse a difference that a borderline pair of the contact set accounts for. */
static int mesh_same(tally* t, const char* what, uint64_t seed, const spx_mesh_hit* a, const spx_mesh_hit* b,
                     double sign, float tmax, double size, const swap_source* explain)
{
    char why[160] = "";
    const double tol_t = 1e-4 * tmax + 1e-5;
    const spx_vec3 nb = spx_v3((float)sign * b->normal.x, (float)sign * b->normal.y, (float)sign * b->normal.z);
    ++t->compared;
    if (a->state != b->state)
        snprintf(why, sizeof why, "state %s, originally %s", state_name(b->state), state_name(a->state));
    else if (a->contact_count != b->contact_count)
        snprintf(why, sizeof why, "%u pairs, originally %u", b->contact_count, a->contact_count);
    else if (a->state != SPX_SWEEP_MISS) {
        double dp = sqrt(((double)a->point.x - b->point.x) * ((double)a->point.x - b->point.x) +
                         ((double)a->point.y - b->point.y) * ((double)a->point.y - b->point.y) +
                         ((double)a->point.z - b->point.z) * ((double)a->point.z - b->point.z));
        double ang = angle_between(a->normal, nb);
        if (!(fabs((double)a->time - b->time) <= tol_t))
            snprintf(why, sizeof why, "time %.9g, originally %.9g", b->time, a->time);
        else if (!(ang <= ANGLE_TOL)) snprintf(why, sizeof why, "normal %.3g rad off", ang);
        else if (!(dp <= POINT_FRACTION * size)) snprintf(why, sizeof why, "point %.3g of the size off", dp / size);
        else if (!(fabs((double)a->depth - b->depth) <= DEPTH_FRACTION * size))
            snprintf(why, sizeof why, "depth %.9g, originally %.9g", b->depth, a->depth);
        if (!why[0]) {
            t->worst_dt = fmax(t->worst_dt, fabs((double)a->time - b->time) / tmax);
            t->worst_dp = fmax(t->worst_dp, dp / size);
            t->worst_angle = fmax(t->worst_angle, ang);
            t->worst_depth = fmax(t->worst_depth, fabs((double)a->depth - b->depth) / size);
        }
    }
    if (!why[0]) return 0;
    if (explain && explain->a &&
        swap_explained(explain->a, explain->va, explain->b, explain->vb, explain->tmax, explain->contacts,
                       a->contacts_written)) {
        ++t->borderline;
        return 0;
    }
    ++t->failures;
    if (t->dumped++ < DUMP_LIMIT) {
        fprintf(stderr, "FAIL %s seed %llu: %s\n", what, (unsigned long long)seed, why);
        hit_print("original", a);
        hit_print("other   ", b);
    }
    return 1;
}

typedef struct mesh_side {
    test_shape shape;
    spx_mesh *plain, *shuffled;
    spx_mesh_instance *plain_at, *shuffled_at;
} mesh_side;

static bool mesh_side_make(mesh_side* m, test_case_rng* rng, spx_transform pose)
{
    memset(m, 0, sizeof *m);
    if (!mesh_shape(rng, &m->shape)) return false;
    m->plain = mesh_of(&m->shape, NULL);
    m->shuffled = mesh_of(&m->shape, rng);
    return m->plain && m->shuffled && test_place_mesh(m->plain, pose, &m->plain_at) == SPX_OK &&
           test_place_mesh(m->shuffled, pose, &m->shuffled_at) == SPX_OK;
}

static void mesh_side_free(mesh_side* m)
{
    spx_mesh_instance_destroy(m->plain_at);
    spx_mesh_instance_destroy(m->shuffled_at);
    spx_mesh_destroy(m->plain);
    spx_mesh_destroy(m->shuffled);
    test_shape_free(&m->shape);
}

/* World triangle of `inst` numbered `source` in its def. */
static bool triangle_by_source(spx_mesh_instance* inst, uint32_t source, spx_triangle* out)
{
    spx_mesh_info info;
    const spx_mesh* mesh_of = NULL;
    if (spx_mesh_instance_get_mesh(inst, &mesh_of) != SPX_OK || spx_mesh_get_info(mesh_of, &info) != SPX_OK)
        return false;
    for (uint32_t i = 0; i < info.triangle_count; ++i) {
        uint32_t src;
        if (spx_mesh_instance_get_triangle(inst, i, out, &src) == SPX_OK && src == source) return true;
    }
    return false;
}

/* Two mesh-mesh answers with A and B swapped differ: is it because some pair of the contact set is
   borderline itself (a graze, a touch, a normal that is not unique), by the single-pair comparison
   against the reference? Then the mesh answer, built from the pairs, may differ too. */
static bool swap_explained(spx_mesh_instance* a, spx_vec3 va, spx_mesh_instance* b, spx_vec3 vb, float tmax,
                           const spx_mesh_contact* contacts, uint32_t written)
{
    bool explained = false;
    for (uint32_t k = 0; k < written && !explained; ++k) {
        test_sweep_case c, o;
        memset(&c, 0, sizeof c);
        c.kind = TEST_CASE_TRIANGLE_TRIANGLE;
        c.velocity[0] = va, c.velocity[1] = vb, c.tmax = tmax;
        if (!triangle_by_source(a, contacts[k].triangle_a, &c.tri[0]) ||
            !triangle_by_source(b, contacts[k].triangle_b, &c.tri[1]))
            continue;
        test_case_swap(&c, &o);
        answers x, y;
        ask(&c, &x);
        ask(&o, &y);
        test_ref_problem p;
        test_case_reference_problem(&c, &p);
        judge j = { 0 };
        tally t;
        memset(&t, 0, sizeof t);
        t.dumped = DUMP_LIMIT; /* quiet */
        compare(&t, "pair", &c, &x, &o, &y, -1.0, spx_v3(0, 0, 0), spx_v3(0, 0, 0), &j, p.size);
        explained = t.borderline > 0 && t.failures == 0;
    }
    return explained;
}

/* A box or a second mesh near a mesh, moving at it on quarter-metre steps (ties galore). */
static int mesh_invariance(void)
{
    static spx_mesh_contact contacts[MESH_CAPACITY];
    const spx_vec3 zero_v = { 0, 0, 0 };
    tally box_t, mesh_t;
    memset(&box_t, 0, sizeof box_t);
    memset(&mesh_t, 0, sizeof mesh_t);
    for (int i = 0; i < mesh_cases; ++i) {
        const uint64_t seed = 900000u + (uint64_t)i;
        test_case_rng rng = { seed * 0x9E3779B97F4A7C15ull };
        mesh_side b;
        const spx_vec3 at_b = grid_vec(&rng, -1, 1);
        spx_transform pose_b = { at_b, mesh_turn(&rng) };
        TEST_ENSURE(mesh_side_make(&b, &rng, pose_b));
        const spx_vec3 va = grid_vec(&rng, -2, 2), vb = grid_vec(&rng, -2, 2);
        const float tmax = 0.5f * (float)(1 + test_case_rng_next(&rng) % 4);
        const double size = 4.0 + 2.0 * tmax * (max_abs3(va) + max_abs3(vb));
        spx_mesh_hit h0, h1;
        char what[64];

        /* Box against mesh: the mesh's triangles in another order. */
        spx_obb box = grid_box(&rng, grid_vec(&rng, -2, 2));
        ++box_t.cases;
        TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, va, b.plain_at, vb, tmax, contacts, MESH_CAPACITY, &h0), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, va, b.shuffled_at, vb, tmax, contacts, MESH_CAPACITY, &h1), SPX_OK);
        mesh_same(&box_t, "box-mesh sweep, triangles reordered", seed, &h0, &h1, 1.0, tmax, size, NULL);
        TEST_ENSURE_CODE(spx_penetration_obb_mesh(&box, b.plain_at, contacts, MESH_CAPACITY, &h0), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_obb_mesh(&box, b.shuffled_at, contacts, MESH_CAPACITY, &h1), SPX_OK);
        mesh_same(&box_t, "box-mesh contacts, triangles reordered", seed, &h0, &h1, 1.0, tmax, size, NULL);
        bool o0, o1;
        TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, b.plain_at, &o0), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, b.shuffled_at, &o1), SPX_OK);
        if (o0 != o1) ++box_t.failures, fprintf(stderr, "FAIL box-mesh overlap seed %llu\n", (unsigned long long)seed);

        /* Mesh against mesh: both reordered, and A and B swapped as well. */
        mesh_side a;
        const spx_vec3 at_a = grid_vec(&rng, -1, 1);
        spx_transform pose_a = { at_a, mesh_turn(&rng) };
        TEST_ENSURE(mesh_side_make(&a, &rng, pose_a));
        ++mesh_t.cases;
        TEST_ENSURE_CODE(spx_sweep_mesh_mesh(a.plain_at, va, b.plain_at, vb, tmax, contacts, MESH_CAPACITY, &h0),
                         SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_mesh_mesh(a.shuffled_at, va, b.shuffled_at, vb, tmax, contacts, MESH_CAPACITY, &h1),
                         SPX_OK);
        snprintf(what, sizeof what, "mesh-mesh sweep, triangles reordered");
        mesh_same(&mesh_t, what, seed, &h0, &h1, 1.0, tmax, size, NULL);
        swap_source src = { a.plain_at, b.plain_at, va, vb, tmax, contacts };
        TEST_ENSURE_CODE(spx_sweep_mesh_mesh(a.plain_at, va, b.plain_at, vb, tmax, contacts, MESH_CAPACITY, &h0),
                         SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_mesh_mesh(b.plain_at, vb, a.plain_at, va, tmax, NULL, 0, &h1), SPX_OK);
        mesh_same(&mesh_t, "mesh-mesh sweep, swapped", seed, &h0, &h1, -1.0, tmax, size, &src);
        src.va = src.vb = zero_v, src.tmax = 0.0f;
        TEST_ENSURE_CODE(spx_penetration_mesh_mesh(a.plain_at, b.plain_at, contacts, MESH_CAPACITY, &h0), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_mesh_mesh(b.plain_at, a.plain_at, NULL, 0, &h1), SPX_OK);
        mesh_same(&mesh_t, "mesh-mesh contacts, swapped", seed, &h0, &h1, -1.0, tmax, size, &src);
        TEST_ENSURE_CODE(spx_penetration_mesh_mesh(a.shuffled_at, b.shuffled_at, NULL, 0, &h1), SPX_OK);
        mesh_same(&mesh_t, "mesh-mesh contacts, triangles reordered", seed, &h0, &h1, 1.0, tmax, size, NULL);
        TEST_ENSURE_CODE(spx_overlap_mesh_mesh(a.plain_at, b.plain_at, &o0), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_mesh_mesh(b.shuffled_at, a.plain_at, &o1), SPX_OK);
        if (o0 != o1)
            ++mesh_t.failures, fprintf(stderr, "FAIL mesh-mesh overlap seed %llu\n", (unsigned long long)seed);
        mesh_side_free(&a);
        mesh_side_free(&b);
    }
    const tally* both[2] = { &box_t, &mesh_t };
    for (int k = 0; k < 2; ++k)
        printf("%-18s %5d problems, %6d askings compared, %4d explained by a borderline pair, %d failures; worst time"
               " %.2g tmax, point %.2g size, normal %.2g rad, depth %.2g size\n",
               k ? "mesh-mesh" : "obb-mesh", both[k]->cases, both[k]->compared, both[k]->borderline, both[k]->failures,
               both[k]->worst_dt, both[k]->worst_dp, both[k]->worst_angle, both[k]->worst_depth);
    TEST_ENSURE(box_t.failures == 0 && mesh_t.failures == 0);
    return 0;
}

int main(int argc, char** argv)
{
    if (test_long_run(argc, argv)) cases_per_family = mesh_cases = 10000;
    int failures = 0;
    TEST_RUN(segment_like_triangle_point, failures);
    TEST_RUN(coplanar_parallel_edges_point, failures);
    TEST_RUN(faces_meeting_along_a_line, failures);
    TEST_RUN(obb_obb_invariance, failures);
    TEST_RUN(obb_triangle_invariance, failures);
    TEST_RUN(triangle_triangle_invariance, failures);
    TEST_RUN(mesh_invariance, failures);
    return failures ? 1 : 0;
}
