/* The box-box queries' fast paths give exactly the answers of the paths they stand in for.
   The single-pair static call checks both boxes and tests the 15 axes in one SIMD pass: exactly the
   answer of the scalar test (spx_overlap_obb_obb_unchecked) and the error of the validator (the
   pre-checked call on boxes through spx_obb_check: the same answer, and the check the same error), on
   touching pairs, nearly parallel edges, rotations at the edge of the tolerance and bad values in
   every field (and the sweep's and penetration's codes, which check the pair the same way). The
   single-pair sweep answers pairs whose bounding spheres never meet without the 15
   axes: exactly the exact path's answer, on pairs whose corners pass at the spheres' distance; and
   hits whose axis its float screen names, with that axis alone in double: exactly that answer. The
   minimum translation takes its axis from a float screen where float can tell: exactly the answer
   of the 15 axes in double. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/cases.h"
#include "support/soa_store.h"
#include "collide/overlap_obb_obb.h"
#include "geometry/validate.h"
#include "collide/sweep_obb_obb.h"
#include "collide/sweep_screen.h"
#include "math/simd.h"
#include <float.h>

static spx_obb random_box(test_case_rng* rng, double spread)
{
    spx_obb box;
    const float cx = (float)test_case_uniform(rng, -spread, spread),
                cy = (float)test_case_uniform(rng, -spread, spread),
                cz = (float)test_case_uniform(rng, -spread, spread);
    const float hx = (float)test_case_log_uniform(rng, 0.01, 3.0), hy = (float)test_case_log_uniform(rng, 0.01, 3.0),
                hz = (float)test_case_log_uniform(rng, 0.01, 3.0);
    spx_obb_from_quat(spx_v3(cx, cy, cz), spx_v3(hx, hy, hz), test_case_random_quat(rng), &box);
    return box;
}

/* The answer the call must give: the validator's first fault, else the scalar test. */
static int expect(const spx_obb* a, const spx_obb* b, bool* overlap)
{
    spx_result r = spx_first_error(spx_obb_validate(a), spx_obb_validate(b));
    if (r == SPX_OK) *overlap = spx_overlap_obb_obb_unchecked(a, b);
    return (int)r;
}

static int same_as_scalar(const spx_obb* a, const spx_obb* b, long n)
{
    bool want = false, got = !want;
    const int r = expect(a, b, &want);
    const int s = (int)spx_overlap_obb_obb(a, b, &got);
    if (s != r || (r == SPX_OK && got != want)) {
        fprintf(stderr, "case %ld: code %d (want %d), overlap %d (want %d)\n", n, s, r, got, want);
        return 1;
    }
    /* each box's own check gives the validator's code, and the pre-checked call the same answer */
    spx_obb_checked ca, cb;
    const int ka = (int)spx_obb_check(a, &ca), kb = (int)spx_obb_check(b, &cb);
    bool pre = !want;
    const int p = r == SPX_OK ? (int)spx_overlap_obb_obb_checked(&ca, &cb, &pre) : SPX_OK;
    if (ka != (int)spx_obb_validate(a) || kb != (int)spx_obb_validate(b) || p != SPX_OK ||
        (r == SPX_OK && pre != want)) {
        fprintf(stderr, "case %ld: checks %d %d, pre-checked code %d, overlap %d (want %d)\n", n, ka, kb, p, pre, want);
        return 1;
    }
    /* the swept and penetration calls check the pair the same way */
    spx_sweep_hit hit;
    spx_penetration pen;
    const spx_vec3 v = { 1.0f, 0.0f, 0.0f };
    const int sw = (int)spx_sweep_obb_obb(a, v, b, v, 0.5f, &hit), pe = (int)spx_penetration_obb_obb(a, b, &pen);
    if (sw != r || pe != r) {
        fprintf(stderr, "case %ld: sweep code %d, penetration code %d (want %d)\n", n, sw, pe, r);
        return 1;
    }
    return 0;
}

/* Random pairs placed at 0.9999 to 1.0001 of their touching distance along a random direction,
   measured by bisection on the scalar test itself, so both answers occur at the boundary. */
/* r times q's rotation: the turn q taken into r's frame. */
static spx_mat3 turned(const spx_mat3* r, spx_quat q)
{
    spx_obb turn;
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), q, &turn);
    const spx_mat3* t = &turn.rotation;
    spx_mat3 m;
    for (int j = 0; j < 3; ++j) {
        const spx_vec3 c = t->col[j];
        m.col[j].x = r->col[0].x * c.x + r->col[1].x * c.y + r->col[2].x * c.z;
        m.col[j].y = r->col[0].y * c.x + r->col[1].y * c.y + r->col[2].y * c.z;
        m.col[j].z = r->col[0].z * c.x + r->col[1].z * c.y + r->col[2].z * c.z;
    }
    return m;
}

/* a's centre moved by d along the unit direction dir. */
static spx_vec3 along(const spx_obb* a, const double dir[3], double d)
{
    return (spx_vec3){ a->center.x + (float)(d * dir[0]), a->center.y + (float)(d * dir[1]),
                       a->center.z + (float)(d * dir[2]) };
}

/* How far along dir from a's centre b's centre can go and b still overlap a: bisected to 40 halvings
   of 40 m. */
static double touching_distance(const spx_obb* a, const spx_obb* b, const double dir[3])
{
    double lo = 0.0, hi = 40.0;
    for (int k = 0; k < 40; ++k) {
        const double mid = 0.5 * (lo + hi);
        spx_obb t = *b;
        t.center = along(a, dir, mid);
        if (spx_overlap_obb_obb_unchecked(a, &t)) lo = mid;
        else hi = mid;
    }
    return lo;
}

static int touching_pairs(void)
{
    test_case_rng rng = { 0x70C4u };
    int overlaps = 0, families[SPX_OBB_AXES_NONE + 1] = { 0 };
    for (long n = 0; n < 20000; ++n) {
        spx_obb a = random_box(&rng, 5.0), b = random_box(&rng, 5.0);
        if (n % 4 == 1) b.rotation = a.rotation; /* parallel edges everywhere */
        if (n % 4 == 2) {                        /* nearly parallel: one column tilted by ~1e-6 */
            spx_quat q = { 1e-6f * (float)test_case_uniform(&rng, -1, 1), 0.0f, 0.0f, 1.0f };
            b.rotation = turned(&a.rotation, q);
        }
        double dir[3];
        test_case_unit_vector(&rng, dir);
        const double lo = touching_distance(&a, &b, dir);
        const double f = test_case_uniform(&rng, 0.9999, 1.0001) * lo;
        b.center = along(&a, dir, f);
        if (same_as_scalar(&a, &b, n)) return 1;
        if (same_as_scalar(&b, &a, n)) return 1;
        ++families[spx_obb_obb_separating_axes(&a, &b)];
        bool o = false;
        spx_overlap_obb_obb(&a, &b, &o);
        overlaps += o;
    }
    TEST_ENSURE(overlaps > 5000 && overlaps < 15000); /* the boundary was met from both sides */
    printf("  apart by A's faces %d, by B's faces %d, by an edge axis %d; overlapping %d\n",
           families[SPX_OBB_AXES_A_FACES], families[SPX_OBB_AXES_B_FACES], families[SPX_OBB_AXES_EDGES],
           families[SPX_OBB_AXES_NONE]);
    /* every exit of the single call was taken: apart by A's faces, by B's faces, by an edge axis */
    TEST_ENSURE(families[SPX_OBB_AXES_A_FACES] > 500 && families[SPX_OBB_AXES_B_FACES] > 500 &&
                families[SPX_OBB_AXES_EDGES] > 500);
    return 0;
}

/* Every float of either box set to values at and past each check's limit: the code is the
   validator's, and the answer the scalar test's whenever both boxes pass. */
static int every_field(void)
{
    test_case_rng rng = { 0xF1E1Du };
    const float tol = SPX_ROTATION_TOLERANCE;
    const float values[] = { NAN,
                             INFINITY,
                             -INFINITY,
                             0.0f,
                             -0.0f,
                             -1e-30f,
                             1e-30f,
                             SPX_MAX_COORDINATE,
                             -SPX_MAX_COORDINATE,
                             nextafterf(SPX_MAX_COORDINATE, INFINITY),
                             1e30f,
                             -1.0f,
                             2.0f };
    const float scales[] = { 1.0f + 0.5f * tol,  1.0f + 0.99f * tol, 1.0f + 1.01f * tol,
                             1.0f + 2.0f * tol,  1.0f + 3.9f * tol,  1.0f + 4.1f * tol,
                             1.0f - 0.99f * tol, 1.0f - 1.01f * tol, -1.0f };
    long n = 0;
    for (int round = 0; round < 40; ++round) {
        spx_obb pair[2];
        for (int k = 0; k < 2; ++k) pair[k] = random_box(&rng, 1.0);
        for (int which = 0; which < 2; ++which)
            for (int field = 0; field < 15; ++field) {
                for (size_t v = 0; v < sizeof values / sizeof values[0]; ++v) {
                    spx_obb p[2] = { pair[0], pair[1] };
                    (&p[which].center.x)[field] = values[v];
                    if (same_as_scalar(&p[0], &p[1], n++)) return 1;
                }
                for (size_t v = 0; v < sizeof scales / sizeof scales[0]; ++v) {
                    spx_obb p[2] = { pair[0], pair[1] };
                    (&p[which].center.x)[field] *= scales[v];
                    if (same_as_scalar(&p[0], &p[1], n++)) return 1;
                    /* a column tilted towards another: dot products near the tolerance */
                    if (field >= 6) {
                        const int col = (field - 6) / 3, other = (col + 1) % 3;
                        spx_obb q[2] = { pair[0], pair[1] };
                        const float e = (scales[v] - 1.0f) * (field % 2 ? 1.0f : 2.0f);
                        spx_vec3* c = &q[which].rotation.col[col];
                        const spx_vec3 o = q[which].rotation.col[other];
                        c->x += e * o.x, c->y += e * o.y, c->z += e * o.z;
                        if (same_as_scalar(&q[0], &q[1], n++)) return 1;
                    }
                }
            }
        /* a reflection: every dot product fine, the determinant -1 */
        spx_obb p[2] = { pair[0], pair[1] };
        p[round % 2].rotation.col[2].x *= -1.0f, p[round % 2].rotation.col[2].y *= -1.0f;
        p[round % 2].rotation.col[2].z *= -1.0f;
        if (same_as_scalar(&p[0], &p[1], n++)) return 1;
    }
    return 0;
}

/* Turns the box so that its corner sum h_k col_k points along sign * dir (unit): Rodrigues' turn
   of the corner's direction onto it, applied to every column. */
static void turn_corner(spx_obb* box, const double dir[3], double sign)
{
    const float* h = &box->half_extents.x;
    double u[3] = { 0, 0, 0 }, t[3] = { sign * dir[0], sign * dir[1], sign * dir[2] };
    for (int k = 0; k < 3; ++k) {
        u[0] += h[k] * box->rotation.col[k].x;
        u[1] += h[k] * box->rotation.col[k].y;
        u[2] += h[k] * box->rotation.col[k].z;
    }
    const double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; ++k) u[k] /= ul;
    const double v[3] = { u[1] * t[2] - u[2] * t[1], u[2] * t[0] - u[0] * t[2], u[0] * t[1] - u[1] * t[0] };
    const double c = u[0] * t[0] + u[1] * t[1] + u[2] * t[2];
    if (c < -0.999) return; /* nearly opposite already: rare, and such a case is just another pair */
    for (int k = 0; k < 3; ++k) {
        spx_vec3* col = &box->rotation.col[k];
        const double x[3] = { col->x, col->y, col->z };
        const double vx[3] = { v[1] * x[2] - v[2] * x[1], v[2] * x[0] - v[0] * x[2], v[0] * x[1] - v[1] * x[0] };
        const double vvx[3] = { v[1] * vx[2] - v[2] * vx[1], v[2] * vx[0] - v[0] * vx[2], v[0] * vx[1] - v[1] * vx[0] };
        col->x = (float)(x[0] + vx[0] + vvx[0] / (1.0 + c));
        col->y = (float)(x[1] + vx[1] + vvx[1] / (1.0 + c));
        col->z = (float)(x[2] + vx[2] + vvx[2] / (1.0 + c));
    }
}

/* The sweep of case n against the exact one, A against B and B against A: the same answer to the bit;
   hits and misses counted. A pair the validator refuses is passed over when may_refuse, else fails. */
static int same_sweep_both_ways(const spx_obb box[2], const spx_vec3 v[2], float tmax, long n, bool may_refuse,
                                int* hits, int* misses)
{
    for (int swap = 0; swap < 2; ++swap) {
        const spx_obb *a = &box[swap], *b = &box[1 - swap];
        spx_sweep_hit got, want;
        memset(&got, 0xAB, sizeof got);
        memset(&want, 0xAB, sizeof want);
        const spx_result r = spx_sweep_obb_obb(a, v[swap], b, v[1 - swap], tmax, &got);
        if (r != SPX_OK && may_refuse) continue;
        TEST_ENSURE_CODE(r, SPX_OK);
        spx_sweep_obb_obb_exact(a, v[swap], b, v[1 - swap], tmax, &want);
        if (memcmp(&got, &want, sizeof got) != 0) {
            fprintf(stderr, "case %ld swap %d: state %d (want %d) time %.9g (want %.9g)\n", n, swap, got.state,
                    want.state, got.time, want.time);
            return 1;
        }
        *hits += want.state != SPX_SWEEP_MISS;
        *misses += want.state == SPX_SWEEP_MISS;
    }
    return 0;
}

/* Swept pairs that end their interval within 1e-4 of touching (B closing along a random direction
   from 1.01 to 2 times its touching distance, with parallel and nearly parallel edges as in
   touching_pairs), or start within it and leave: the single call, whose float screen answers
   misses it can prove, gives exactly the exact path's answer, in both argument orders. */
static int sweeps_ending_at_touch(void)
{
    test_case_rng rng = { 0x5EE9u };
    int hits = 0, misses = 0;
    for (long n = 0; n < 20000; ++n) {
        spx_obb box[2];
        for (int k = 0; k < 2; ++k) box[k] = random_box(&rng, 5.0);
        if (n % 4 == 1) box[1].rotation = box[0].rotation;
        if (n % 4 == 2) {
            spx_quat q = { 1e-6f * (float)test_case_uniform(&rng, -1, 1), 0.0f, 0.0f, 1.0f };
            box[1].rotation = turned(&box[0].rotation, q);
        }
        double dir[3], drift[3];
        test_case_unit_vector(&rng, dir);
        test_case_unit_vector(&rng, drift);
        const double touch = touching_distance(&box[0], &box[1], dir);
        double f0 = test_case_uniform(&rng, 1.01, 2.0), f1 = test_case_uniform(&rng, 0.9999, 1.0001);
        if (n % 8 == 7) { /* leaving instead of closing */
            const double f = f0;
            f0 = f1, f1 = f;
        }
        const float tmax = (float)test_case_uniform(&rng, 0.01, 1.0);
        box[1].center = along(&box[0], dir, f0 * touch);
        const double speed = (f1 - f0) * touch / tmax, side = 0.01 * touch / tmax;
        spx_vec3 v[2] = { { 0, 0, 0 },
                          { (float)(speed * dir[0] + side * drift[0]), (float)(speed * dir[1] + side * drift[1]),
                            (float)(speed * dir[2] + side * drift[2]) } };
        if (n % 3 == 0) { /* both moving */
            const float cx = (float)test_case_uniform(&rng, -3, 3), cy = (float)test_case_uniform(&rng, -3, 3),
                        cz = (float)test_case_uniform(&rng, -3, 3);
            const spx_vec3 c = { cx, cy, cz };
            v[0] = c;
            v[1] = (spx_vec3){ v[1].x + c.x, v[1].y + c.y, v[1].z + c.z };
        }
        if (same_sweep_both_ways(box, v, tmax, n, false, &hits, &misses)) return 1;
    }
    printf("  %d hits, %d misses\n", hits, misses);
    TEST_ENSURE(hits > 5000 && misses > 5000);
    return 0;
}

/* B's corner passes A's corner, each box's diagonal on the line between the centres at closest
   approach, at 0.9999 to 1.0001 of the distance where the corners (and the bounding spheres) meet;
   the columns of each rotation are stretched as far as the validator accepts, which puts the
   corners outside the sphere of the half extents. */
static int corners_at_sphere_distance(void)
{
    test_case_rng rng = { 0x5FE1Eu };
    int hits = 0, misses = 0;
    for (long n = 0; n < 20000; ++n) {
        spx_obb box[2];
        spx_vec3 v[2];
        double axis[3], side[3];
        test_case_unit_vector(&rng, axis);
        test_case_unit_vector(&rng, side);
        /* side made perpendicular to axis: the direction of motion */
        const double s = side[0] * axis[0] + side[1] * axis[1] + side[2] * axis[2];
        for (int k = 0; k < 3; ++k) side[k] -= s * axis[k];
        const double sl = sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
        for (int k = 0; k < 3; ++k) side[k] /= sl;
        double reach = 0.0;
        for (int i = 0; i < 2; ++i) {
            box[i] = random_box(&rng, 0.0);
            turn_corner(&box[i], axis, i ? -1.0 : 1.0);
            const float stretch = 1.0f + (float)test_case_uniform(&rng, 0.0, 0.499) * SPX_ROTATION_TOLERANCE;
            for (int k = 0; k < 3; ++k) {
                spx_vec3* c = &box[i].rotation.col[k];
                c->x *= stretch, c->y *= stretch, c->z *= stretch;
            }
            /* the corner diagonal sum h_k col_k, turned onto +axis for A and -axis for B */
            const spx_obb* b = &box[i];
            const float* h = &b->half_extents.x;
            double diag[3] = { 0, 0, 0 };
            for (int k = 0; k < 3; ++k) {
                diag[0] += h[k] * b->rotation.col[k].x;
                diag[1] += h[k] * b->rotation.col[k].y;
                diag[2] += h[k] * b->rotation.col[k].z;
            }
            reach += sqrt(diag[0] * diag[0] + diag[1] * diag[1] + diag[2] * diag[2]);
        }
        /* Place B's centre so that at closest approach the centres are `reach` apart along axis
           (a corner of each box near that line), moving across it along side. */
        const double f = test_case_uniform(&rng, 0.9999, 1.0001) * reach, travel = test_case_uniform(&rng, 0.5, 3.0);
        const float tmax = 1.0f;
        for (int i = 0; i < 2; ++i) v[i] = (spx_vec3){ 0, 0, 0 };
        const float cx = (float)test_case_uniform(&rng, -100, 100), cy = (float)test_case_uniform(&rng, -100, 100),
                    cz = (float)test_case_uniform(&rng, -100, 100);
        box[0].center = spx_v3(cx, cy, cz);
        const double t0 = test_case_uniform(&rng, 0.1, 0.9);
        box[1].center.x = box[0].center.x + (float)(f * axis[0] - t0 * travel * side[0]);
        box[1].center.y = box[0].center.y + (float)(f * axis[1] - t0 * travel * side[1]);
        box[1].center.z = box[0].center.z + (float)(f * axis[2] - t0 * travel * side[2]);
        v[1] = (spx_vec3){ (float)(travel * side[0]), (float)(travel * side[1]), (float)(travel * side[2]) };
        /* a stretched rotation the validator refuses is passed over */
        if (same_sweep_both_ways(box, v, tmax, n, true, &hits, &misses)) return 1;
    }
    printf("  %d hits, %d misses\n", hits, misses);
    TEST_ENSURE(hits > 1000 && misses > 1000);
    return 0;
}

/* Hits at any time of the interval, as a broad phase's swept pairs give them: B closing along a
   random direction from 1.02 to 2 times its touching distance, touching at 0.05 to 1.95 of tmax,
   with ties the screen must leave to double (the same rotation, the same box, nearly parallel edges
   from 1e-8 to 1e-1 rad, B moving straight along a face normal of A), far from the origin, in both
   argument orders: exactly the exact path's answer. The float screen must name the axis of most of
   the hits among the random pairs, and never of a pair the exact path does not hit. */
/* Sweep n of a random set that hits anywhere in the interval: B closing on A along a random direction
   (along A's first axis for kind 4) from 1.02 to 2 times its touching distance, with a sideways
   drift; kinds 1 to 3 share A's rotation or turn B from it by 1e-8 to 1e-1 rad; one pair in five
   lies 1e5 m from the origin. Returns the kind (n % 8). */
static int hitting_case(test_case_rng* rng, long n, spx_obb box[2], spx_vec3 v[2], float* tmax)
{
    const double spread = n % 5 == 4 ? 1e5 : 5.0;
    for (int k = 0; k < 2; ++k) box[k] = random_box(rng, spread);
    const int kind = (int)(n % 8);
    if (kind == 1) box[1].rotation = box[0].rotation;
    if (kind == 2) box[1].half_extents = box[0].half_extents, box[1].rotation = box[0].rotation;
    if (kind == 3) { /* B's rotation: A's turned by an angle from 1e-8 to 1e-1 */
        const float angle = (float)test_case_log_uniform(rng, 1e-8, 1e-1);
        double axis[3];
        test_case_unit_vector(rng, axis);
        spx_quat q = { (float)axis[0] * sinf(angle / 2), (float)axis[1] * sinf(angle / 2),
                       (float)axis[2] * sinf(angle / 2), cosf(angle / 2) };
        box[1].rotation = turned(&box[0].rotation, q);
    }
    double dir[3], drift[3];
    test_case_unit_vector(rng, dir);
    test_case_unit_vector(rng, drift);
    if (kind == 4) { /* along A's first axis, no drift */
        const spx_vec3 c = box[0].rotation.col[0];
        dir[0] = c.x, dir[1] = c.y, dir[2] = c.z;
        drift[0] = drift[1] = drift[2] = 0.0;
    }
    const double touch = touching_distance(&box[0], &box[1], dir);
    const double f = test_case_uniform(rng, 1.02, 2.0), g = test_case_uniform(rng, 0.05, 1.95);
    *tmax = (float)test_case_uniform(rng, 0.01, 1.0);
    box[1].center = along(&box[0], dir, f * touch);
    const double speed = (f - 1.0) * touch / (g * *tmax), side = 0.5 * speed;
    v[0] = (spx_vec3){ (float)(side * drift[0]), (float)(side * drift[1]), (float)(side * drift[2]) };
    v[1] = (spx_vec3){ (float)(v[0].x - speed * dir[0]), (float)(v[0].y - speed * dir[1]),
                       (float)(v[0].z - speed * dir[2]) };
    return kind;
}

static int sweeps_hitting_anywhere(void)
{
    test_case_rng rng = { 0x5A1Du };
    int hits = 0, misses = 0, named = 0, random_hits = 0;
    for (long n = 0; n < 40000; ++n) {
        spx_obb box[2];
        spx_vec3 v[2];
        float tmax;
        const int kind = hitting_case(&rng, n, box, v, &tmax);
        if (same_sweep_both_ways(box, v, tmax, n, false, &hits, &misses)) return 1;
#if SPX_HAS_SIMD
        for (int swap = 0; swap < 2; ++swap) {
            const spx_obb *a = &box[swap], *b = &box[1 - swap];
            const spx_vec3 va = v[swap], vb = v[1 - swap];
            spx_box_regs A, B;
            TEST_ENSURE(spx_obb_pair_load_checked(a, b, &A, &B));
            const spx_f4 move = spx_f4_mul(spx_f4_set(vb.x - va.x, vb.y - va.y, vb.z - va.z, 0.0f), spx_f4_splat(tmax));
            bool ahead = false;
            const int axis = spx_sweep_screen(&A, &B, move, &ahead);
            spx_sweep_hit want;
            spx_sweep_obb_obb_exact(a, va, b, vb, tmax, &want);
            if (axis >= 0 && (want.state != SPX_SWEEP_HIT || want.axis != axis)) {
                fprintf(stderr, "case %ld swap %d: screen named axis %d, exact state %d axis %d\n", n, swap, axis,
                        want.state, want.axis);
                return 1;
            }
            if (kind == 0 || kind >= 5) named += axis >= 0, random_hits += want.state == SPX_SWEEP_HIT;
        }
#endif
    }
    printf("  %d hits, %d misses; the screen named %d of %d hits of random pairs\n", hits, misses, named, random_hits);
    TEST_ENSURE(hits > 20000 && misses > 20000);
#if SPX_HAS_SIMD
    TEST_ENSURE(named > 0.9 * random_hits);
#endif
    return 0;
}

/* The batched sweep against the exact path, pair for pair: the random sweeps of hitting_case in
   calls of GROUP pairs (no multiple of 4 or 8: every pair position meets every lane, and the scalar
   tail runs), both argument orders, each sweep over [0, 1] with its velocities scaled to it. Misses
   and start overlaps agree; a hit names the exact path's axis and features, with the time, normal
   and point within float's rounding of the lanes. A lane that answers with another lane's values,
   or with a wrong sign or axis, fails here. */
enum { GROUP = 13 };

static int batch_case(const spx_sweep_hit* got, const spx_sweep_hit* want, const spx_obb* a, long n, int swap,
                      float* worst_time, float* worst_point)
{
    if (got->state != want->state || (want->state != SPX_SWEEP_MISS && got->axis != want->axis)) {
        fprintf(stderr, "case %ld swap %d: batch state %d axis %d, exact state %d axis %d\n", n, swap, got->state,
                got->axis, want->state, want->axis);
        return 1;
    }
    if (want->state != SPX_SWEEP_HIT) return 0;
    const float scale = fabsf(a->center.x) + fabsf(a->center.y) + fabsf(a->center.z) + 10.0f;
    const float dt = fabsf(got->time - want->time);
    const float dp =
        fabsf(got->point.x - want->point.x) + fabsf(got->point.y - want->point.y) + fabsf(got->point.z - want->point.z);
    const float dn = got->normal.x * want->normal.x + got->normal.y * want->normal.y + got->normal.z * want->normal.z;
    *worst_time = fmaxf(*worst_time, dt);
    *worst_point = fmaxf(*worst_point, dp / scale);
    if (got->feature_a != want->feature_a || got->feature_b != want->feature_b || dt > 1e-5f || dp > 1e-5f * scale ||
        !(dn > 1.0f - 1e-5f)) {
        fprintf(stderr, "case %ld swap %d: batch time %.9g features %d %d, exact time %.9g features %d %d\n", n, swap,
                got->time, got->feature_a, got->feature_b, want->time, want->feature_a, want->feature_b);
        return 1;
    }
    return 0;
}

static int batch_lanes_match_exact(void)
{
    static float store[2][15 * GROUP];
    spx_obb_soa soa[2];
    for (int k = 0; k < 2; ++k) test_soa_bind(&soa[k], store[k], GROUP);
    test_case_rng rng = { 0xBA7C4u };
    int states[3] = { 0, 0, 0 };
    float worst_time = 0.0f, worst_point = 0.0f;
    for (long n0 = 0; n0 < 13000; n0 += GROUP) {
        spx_obb box[GROUP][2];
        spx_vec3 v[GROUP][2];
        for (int i = 0; i < GROUP; ++i) {
            float tmax;
            hitting_case(&rng, n0 + i, box[i], v[i], &tmax);
            for (int k = 0; k < 2; ++k) v[i][k] = spx_v3(v[i][k].x * tmax, v[i][k].y * tmax, v[i][k].z * tmax);
        }
        for (int swap = 0; swap < 2; ++swap) {
            spx_vec3 va[GROUP], vb[GROUP];
            for (int i = 0; i < GROUP; ++i) {
                TEST_ENSURE_CODE(spx_obb_soa_set_box(&soa[0], (size_t)i, &box[i][swap]), SPX_OK);
                TEST_ENSURE_CODE(spx_obb_soa_set_box(&soa[1], (size_t)i, &box[i][1 - swap]), SPX_OK);
                va[i] = v[i][swap], vb[i] = v[i][1 - swap];
            }
            spx_sweep_hit got[GROUP];
            TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&soa[0], va, &soa[1], vb, GROUP, 1.0f, got), SPX_OK);
            for (int i = 0; i < GROUP; ++i) {
                spx_sweep_hit want;
                spx_sweep_obb_obb_exact(&box[i][swap], va[i], &box[i][1 - swap], vb[i], 1.0f, &want);
                if (batch_case(&got[i], &want, &box[i][swap], n0 + i, swap, &worst_time, &worst_point)) return 1;
                ++states[want.state];
            }
        }
    }
    printf("  batched: %d misses, %d hits, %d start overlaps; worst time %.3g, worst point %.3g of the scale\n",
           states[SPX_SWEEP_MISS], states[SPX_SWEEP_HIT], states[SPX_SWEEP_START_OVERLAP], worst_time, worst_point);
    TEST_ENSURE(states[SPX_SWEEP_MISS] > 5000 && states[SPX_SWEEP_HIT] > 5000);
    return 0;
}

static int same_penetration(const spx_obb* a, const spx_obb* b, long n, int* decided_apart, int* overlapping)
{
    spx_penetration got, want;
    memset(&got, 0xAB, sizeof got);
    memset(&want, 0xAB, sizeof want);
    if (spx_penetration_obb_obb(a, b, &got) != SPX_OK) return 0; /* a box the validator refuses */
    spx_penetration_obb_obb_exact(a, b, &want);
    /* field by field (the struct has padding), floats bit for bit */
    if (got.overlapping != want.overlapping || got.axis != want.axis ||
        memcmp(&got.normal, &want.normal, sizeof got.normal) != 0 ||
        memcmp(&got.depth, &want.depth, sizeof got.depth) != 0) {
        fprintf(stderr, "case %ld: overlapping %d (want %d) axis %d (want %d) depth %.9g (want %.9g)\n", n,
                got.overlapping, want.overlapping, got.axis, want.axis, got.depth, want.depth);
        return 1;
    }
    *decided_apart += !want.overlapping;
    *overlapping += want.overlapping;
    return 0;
}

/* The float screen of spx_penetration_obb_obb against the 15 axes in double, field for field: random
   pairs at 0.5 to 1.5 of touching, pairs within 1e-5 of touching, equal depths on several axes
   (aligned boxes of equal size, a box centred on another), nearly parallel edges at every angle from
   1e-8 to 1e-1, and pairs far from the origin. */
static int penetration_screen(void)
{
    test_case_rng rng = { 0x9E7u };
    int apart = 0, overlapping = 0;
    for (long n = 0; n < 40000; ++n) {
        const double spread = n % 5 == 4 ? 1e6 : 5.0;
        spx_obb a = random_box(&rng, spread), b = random_box(&rng, spread);
        const int kind = (int)(n % 8);
        if (kind == 1) b.rotation = a.rotation;
        if (kind == 2) b.half_extents = a.half_extents, b.rotation = a.rotation;
        if (kind == 3 || kind == 4) { /* B's rotation: A's turned by an angle from 1e-8 to 1e-1 */
            const float angle = (float)test_case_log_uniform(&rng, 1e-8, 1e-1);
            double axis[3];
            test_case_unit_vector(&rng, axis);
            spx_quat q = { (float)axis[0] * sinf(angle / 2), (float)axis[1] * sinf(angle / 2),
                           (float)axis[2] * sinf(angle / 2), cosf(angle / 2) };
            b.rotation = turned(&a.rotation, q);
        }
        double dir[3];
        test_case_unit_vector(&rng, dir);
        if (kind == 5) dir[0] = dir[1] = dir[2] = 0.0; /* centred */
        const double lo = touching_distance(&a, &b, dir);
        const double f =
            (kind == 6 ? test_case_uniform(&rng, 1.0 - 1e-5, 1.0 + 1e-5) : test_case_uniform(&rng, 0.5, 1.5)) * lo;
        b.center = along(&a, dir, f);
        if (same_penetration(&a, &b, n, &apart, &overlapping) || same_penetration(&b, &a, n, &apart, &overlapping))
            return 1;
    }
    printf("  %d apart, %d overlapping\n", apart, overlapping);
    TEST_ENSURE(apart > 10000 && overlapping > 10000);
    return 0;
}

int main(void)
{
    int failures = 0;
#if !SPX_HAS_SIMD
    /* The one-pass check and the penetration screen are SIMD paths: without them the calls take the
       paths they are compared with, and only the sphere bound of the sweep stands in for another. */
    printf("  scalar build (SEPAX_DISABLE_SIMD): no SIMD fast paths to compare\n");
#endif
    TEST_RUN(touching_pairs, failures);
    TEST_RUN(every_field, failures);
    TEST_RUN(corners_at_sphere_distance, failures);
    TEST_RUN(sweeps_ending_at_touch, failures);
    TEST_RUN(sweeps_hitting_anywhere, failures);
    TEST_RUN(batch_lanes_match_exact, failures);
    TEST_RUN(penetration_screen, failures);
    return failures ? 1 : 0;
}
