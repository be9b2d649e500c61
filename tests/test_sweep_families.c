/* Named adversarial families for the swept queries, each its own function. Expected answers are
 * worked by hand where that is possible and come from the double-precision reference otherwise,
 * under the acceptance rule of test_sweep_reference.c (CLEAR = 1e-5 size for hit/miss, time within
 * 1e-4 tmax + 1e-5, unique normals within 1e-3 rad, any normal a valid contact normal). */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/cases.h"
#include "support/reference.h"
#include "support/pieces.h"

static const double PI = 3.14159265358979323846;
static const spx_vec3 still = { 0, 0, 0 };

static bool long_run; /* --long: every problem of the random families; the default run a third */
static int family_cases(int n) { return long_run ? n : n / 3; }
static int reported; /* failures printed in full so far, across the families */

static spx_obb box_q(spx_vec3 c, spx_vec3 h, spx_quat q)
{
    spx_obb b;
    spx_result r = spx_obb_from_quat(c, h, q, &b);
    (void)r;
    return b;
}

static spx_obb box_i(spx_vec3 c, spx_vec3 h) { return box_q(c, h, (spx_quat){ 0, 0, 0, 1 }); }

/* A case of `kind` with its motion set and its pieces zero. */
static test_sweep_case moving(test_case_kind kind, spx_vec3 va, spx_vec3 vb, float tmax)
{
    test_sweep_case c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.velocity[0] = va;
    c.velocity[1] = vb;
    c.tmax = tmax;
    return c;
}

static test_sweep_case boxes(spx_obb a, spx_vec3 va, spx_obb b, spx_vec3 vb, float tmax)
{
    test_sweep_case c = moving(TEST_CASE_OBB_OBB, va, vb, tmax);
    c.box[0] = a, c.box[1] = b;
    return c;
}

static test_sweep_case box_tri(spx_obb a, spx_vec3 va, spx_triangle b, spx_vec3 vb, float tmax)
{
    test_sweep_case c = moving(TEST_CASE_OBB_TRIANGLE, va, vb, tmax);
    c.box[0] = a, c.tri[1] = b;
    return c;
}

static test_sweep_case tris(spx_triangle a, spx_vec3 va, spx_triangle b, spx_vec3 vb, float tmax)
{
    test_sweep_case c = moving(TEST_CASE_TRIANGLE_TRIANGLE, va, vb, tmax);
    c.tri[0] = a, c.tri[1] = b;
    return c;
}

static spx_result sweep(const test_sweep_case* c, spx_sweep_hit* hit)
{
    switch (c->kind) {
    case TEST_CASE_OBB_OBB:
        return spx_sweep_obb_obb(&c->box[0], c->velocity[0], &c->box[1], c->velocity[1], c->tmax, hit);
    case TEST_CASE_OBB_TRIANGLE:
        return spx_sweep_obb_triangle(&c->box[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, hit);
    default:
        return spx_sweep_triangle_triangle(&c->tri[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, hit);
    }
}

static void dump(const char* family, const test_sweep_case* c, const spx_sweep_hit* h, const test_ref_sweep* r,
                 const char* why)
{
    if (reported++ >= 12) return;
    fprintf(stderr, "FAIL [%s] %s\n", family, why);
    if (r)
        fprintf(stderr,
                "  reference: state %d time %.9g normal %.9g %.9g %.9g (unique %d) depth %.9g sd(0) %.9g min sd %.9g\n",
                (int)r->state, r->time, r->normal[0], r->normal[1], r->normal[2], r->normal_unique, r->depth,
                r->sd_start, r->sd_min);
    if (h)
        fprintf(stderr, "  library:   state %d time %.9g normal %.9g %.9g %.9g depth %.9g axis %d\n", (int)h->state,
                h->time, h->normal.x, h->normal.y, h->normal.z, h->depth, h->axis);
    test_case_print(stderr, c);
}

/* Compares the library with the reference on one problem; `clear_fraction` of the size is the
   clearance below which hit/miss is not judged. Returns 1 on disagreement, 0 otherwise (also for a
   borderline case, which only has to return SPX_OK). */
static int agrees(const char* family, const test_sweep_case* c, double clear_fraction, int* borderline)
{
    test_ref_problem p;
    test_case_reference_problem(c, &p);
    double clear = clear_fraction * p.size, tol_t = 1e-4 * c->tmax + 1e-5;
    test_ref_sweep r;
    test_ref_sweep_solve(&p, clear, &r);
    spx_sweep_hit h;
    spx_result code = sweep(c, &h);
    char why[200];
    if (code != SPX_OK) {
        snprintf(why, sizeof why, "returned %s", spx_result_string(code));
        dump(family, c, NULL, &r, why);
        return 1;
    }
    double n[3] = { h.normal.x, h.normal.y, h.normal.z };
    if (r.sd_start < -clear) {
        if (h.state != SPX_SWEEP_START_OVERLAP || h.time != 0.0f) {
            dump(family, c, &h, &r, "expected a start overlap at time 0");
            return 1;
        }
        if (!(fabs(h.depth - r.depth) <= clear)) {
            snprintf(why, sizeof why, "depth %.9g, exact %.9g", h.depth, r.depth);
            dump(family, c, &h, &r, why);
            return 1;
        }
        if (r.normal_unique && test_ref_angle(n, r.normal) > 1e-3) {
            dump(family, c, &h, &r, "start-overlap normal is not the unique minimum-translation direction");
            return 1;
        }
        return 0;
    }
    if (r.sd_start <= clear || fabs(r.sd_min) <= clear) {
        ++*borderline;
        return 0;
    }
    if (r.sd_min > clear) {
        if (h.state != SPX_SWEEP_MISS) {
            snprintf(why, sizeof why, "expected a miss (clearance %.3g of the size)", r.sd_min / p.size);
            dump(family, c, &h, &r, why);
            return 1;
        }
        return 0;
    }
    if (h.state != SPX_SWEEP_HIT) {
        snprintf(why, sizeof why, "expected a hit (penetration %.3g of the size)", -r.sd_min / p.size);
        dump(family, c, &h, &r, why);
        return 1;
    }
    if (!(fabs(h.time - r.time) <= tol_t)) {
        double t_lo = test_ref_first_time_below(&p, clear, 0.0, r.time);
        double t_hi = test_ref_first_time_below(&p, -clear, r.time, r.t_min);
        if (h.time >= t_lo - tol_t && h.time <= t_hi + tol_t) {
            ++*borderline;
            return 0;
        }
        snprintf(why, sizeof why, "time %.9g, reference %.9g", h.time, r.time);
        dump(family, c, &h, &r, why);
        return 1;
    }
    double w[3] = { p.vb[0] - p.va[0], p.vb[1] - p.va[1], p.vb[2] - p.va[2] };
    if (!(test_ref_gap_along(&p, n, r.time) >= -1e-4 * p.size) ||
        test_ref_dot(w, n) > 1e-3 * sqrt(test_ref_dot(w, w))) {
        dump(family, c, &h, &r, "normal is not a valid contact normal");
        return 1;
    }
    if (r.normal_unique && test_ref_angle(n, r.normal) > 1e-3) {
        snprintf(why, sizeof why, "normal off the unique one by %.3g rad", test_ref_angle(n, r.normal));
        dump(family, c, &h, &r, why);
        return 1;
    }
    return 0;
}

static void set_clearance(test_sweep_case* c, double target);

/* ---- families -------------------------------------------------------------------------------- */

/* Edges meeting parallel, anti-parallel and nearly parallel (1e-7 .. 1e-2 rad): the cross product
   of the two edges is (nearly) zero and must neither become noise nor hide the contact. */
static int parallel_and_antiparallel_edges(void)
{
    int bad = 0, borderline = 0;
    /* Hand-worked: both boxes turned 45 degrees about z meet edge on edge, gap 4 - 2 sqrt 2. */
    spx_obb a = box_q(still, spx_v3(1, 1, 1), test_about(2, PI / 4));
    spx_obb b = box_q(spx_v3(0, 4, 0), spx_v3(1, 1, 1), test_about(2, PI / 4 + PI)); /* anti-parallel */
    test_sweep_case c = boxes(a, still, b, spx_v3(0, -1, 0), 3);
    spx_sweep_hit h;
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 4.0 - 2.0 * sqrt(2.0), 1e-5);
    bad += agrees("parallel edges", &c, 1e-5, &borderline);
    const double tilts[] = { 0, 1e-7, 1e-5, 1e-4, 1e-3, 1e-2 };
    for (int k = 0; k < 6; ++k)
        for (int axis = 0; axis < 3; ++axis)
            for (int offset = 0; offset < 4; ++offset) {
                /* B's edge tilted about each axis, sliding sideways by a quarter box at a time. */
                spx_quat q = test_about(2, PI / 4);
                spx_quat t = test_about(axis, tilts[k]);
                spx_quat qb = { t.w * q.x + t.x * q.w + t.y * q.z - t.z * q.y,
                                t.w * q.y - t.x * q.z + t.y * q.w + t.z * q.x,
                                t.w * q.z + t.x * q.y - t.y * q.x + t.z * q.w,
                                t.w * q.w - t.x * q.x - t.y * q.y - t.z * q.z };
                b = box_q(spx_v3(0.25f * offset, 4, 0.3f * offset), spx_v3(1, 1, 1 + 0.5f * offset), qb);
                c = boxes(a, spx_v3(0, 0.5f, 0), b, spx_v3(0.1f, -1, 0), 3);
                bad += agrees("parallel edges", &c, 1e-5, &borderline);
                /* The same with triangles whose edges run along the boxes' edges. */
                spx_triangle ta = { { { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0.5f } } };
                spx_triangle tb = { { { -1, 2, (float)(tilts[k] * offset) }, { 1, 2, 0 }, { 0, 3, 0.5f } } };
                c = tris(ta, still, tb, spx_v3(0.05f * offset, -1, 0), 3);
                bad += agrees("parallel triangle edges", &c, 1e-5, &borderline);
                c = box_tri(a, still, tb, spx_v3(0.05f * offset, -1, 0), 3);
                bad += agrees("box edge parallel to triangle edge", &c, 1e-5, &borderline);
            }
    printf("parallel edges: %d borderline\n", borderline);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Random problems in which B has exactly A's orientation (faces parallel pairwise, every edge
   cross product of parallel edges zero) or a triangle is a translated copy of the other. */
static int identical_orientations(void)
{
    int bad = 0, borderline = 0;
    for (int i = 0; i < 600; ++i) {
        test_sweep_case c;
        test_case_make(i % 2 ? TEST_CASE_OBB_OBB : TEST_CASE_TRIANGLE_TRIANGLE, 70000 + (uint64_t)i, &c);
        if (c.kind == TEST_CASE_OBB_OBB) {
            spx_vec3 centre = c.box[1].center;
            c.box[1] = c.box[0];
            c.box[1].center = centre;
        } else {
            spx_vec3 d = { c.tri[1].v[0].x - c.tri[0].v[0].x, c.tri[1].v[0].y - c.tri[0].v[0].y,
                           c.tri[1].v[0].z - c.tri[0].v[0].z };
            for (int k = 0; k < 3; ++k)
                c.tri[1].v[k] = spx_v3(c.tri[0].v[k].x + d.x, c.tri[0].v[k].y + d.y, c.tri[0].v[k].z + d.z);
        }
        bad += agrees("identical orientations", &c, 1e-5, &borderline);
    }
    printf("identical orientations: %d borderline\n", borderline);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Orientations a hair apart (1e-7 .. 1e-2 rad): every edge of B nearly parallel to one of A, so
   the edge-edge cross products are tiny and their directions noise-prone; random motion, and the
   same problems moved to graze at +-1e-4 of the size. */
static int nearly_identical_orientations(void)
{
    int bad = 0, borderline = 0, judged = 0;
    test_case_rng rng = { 31337 };
    const double angles[] = { 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2 };
    const int n = family_cases(600);
    for (int i = 0; i < n; ++i) {
        test_sweep_case c;
        test_case_make(i % 2 ? TEST_CASE_OBB_OBB : TEST_CASE_OBB_TRIANGLE, 80000 + (uint64_t)i, &c);
        double axis[3];
        test_case_unit_vector(&rng, axis);
        double ang = angles[i % 6], s = sin(ang / 2);
        spx_quat t = { (float)(axis[0] * s), (float)(axis[1] * s), (float)(axis[2] * s), (float)cos(ang / 2) };
        if (c.kind == TEST_CASE_OBB_OBB) {
            spx_quat q = c.quat[0];
            spx_quat qb = { t.w * q.x + t.x * q.w + t.y * q.z - t.z * q.y,
                            t.w * q.y - t.x * q.z + t.y * q.w + t.z * q.x,
                            t.w * q.z + t.x * q.y - t.y * q.x + t.z * q.w,
                            t.w * q.w - t.x * q.x - t.y * q.y - t.z * q.z };
            c.box[1] = box_q(c.box[1].center, c.box[1].half_extents, qb);
        } else {
            /* The triangle's edge 0 and its normal along box axes 0 and 1, turned by the angle. */
            double e0[3] = { c.box[0].rotation.col[0].x, c.box[0].rotation.col[0].y, c.box[0].rotation.col[0].z };
            double e1[3] = { c.box[0].rotation.col[1].x, c.box[0].rotation.col[1].y, c.box[0].rotation.col[1].z };
            double r0[3], r1[3];
            spx_quat tt = t;
            test_case_rotate(tt, e0, r0);
            test_case_rotate(tt, e1, r1);
            spx_vec3 p0 = c.tri[1].v[0];
            double len = 2.0 * fmax(c.box[0].half_extents.x, c.box[0].half_extents.y);
            c.tri[1].v[1] =
                spx_v3((float)(p0.x + len * r0[0]), (float)(p0.y + len * r0[1]), (float)(p0.z + len * r0[2]));
            c.tri[1].v[2] =
                spx_v3((float)(p0.x + 0.5 * len * (r0[0] + r1[0])), (float)(p0.y + 0.5 * len * (r0[1] + r1[1])),
                       (float)(p0.z + 0.5 * len * (r0[2] + r1[2])));
        }
        bad += agrees("nearly identical orientations", &c, 1e-5, &borderline);
        test_ref_problem p;
        test_case_reference_problem(&c, &p);
        test_ref_sweep r;
        test_ref_sweep_solve(&p, 0, &r);
        if (r.sd_start <= 0.05 * p.size || r.t_min <= 0 || r.t_min >= c.tmax) continue;
        for (int k = 0; k < 2; ++k) {
            test_sweep_case g = c;
            double target = (k ? -1e-4 : 1e-4) * p.size;
            set_clearance(&g, target);
            test_ref_problem pg;
            test_case_reference_problem(&g, &pg);
            test_ref_sweep rg;
            test_ref_sweep_solve(&pg, 0, &rg);
            if (!(fabs(rg.sd_min - target) <= 2e-6 * pg.size)) continue;
            ++judged;
            bad += agrees(k ? "nearly parallel, grazing hit" : "nearly parallel, grazing miss", &g, 1e-5, &borderline);
        }
    }
    printf("nearly identical orientations: %d grazing judged, %d borderline\n", judged, borderline);
    TEST_ENSURE(judged > n / 3);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Touching exactly (in floats) at t = 0 and at t = tmax. Touching counts as contact. */
static int touching_at_zero_and_tmax(void)
{
    spx_sweep_hit h;
    spx_obb a = box_i(still, spx_v3(1, 1, 1)), b = box_i(spx_v3(2, 0.5f, 0.25f), spx_v3(1, 1, 1));
    /* At 0, face on face, moving apart and moving together: a contact at time 0, no depth. */
    for (int dir = -1; dir <= 1; dir += 2) {
        test_sweep_case c = boxes(a, still, b, spx_v3((float)dir, 0, 0), 1);
        TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
        TEST_ENSURE(h.state != SPX_SWEEP_MISS);
        TEST_ENSURE(h.time == 0.0f);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT || h.depth <= 1e-6f);
        TEST_ENSURE_NEAR(h.normal.x, 1.0, 1e-6);
    }
    /* At tmax: gap 2 closed at 1 m/s, tmax 2: a hit at exactly 2 (the interval is closed). */
    b = box_i(spx_v3(4, 0.5f, 0.25f), spx_v3(1, 1, 1));
    test_sweep_case c = boxes(a, still, b, spx_v3(-1, 0, 0), 2);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 2.0, 1e-6);
    TEST_ENSURE_NEAR(h.normal.x, 1.0, 1e-6);
    /* A hair short of tmax: a miss. */
    c.tmax = 1.99f;
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);

    /* Triangles: a vertex touching a face at 0, and a face reaching a face at tmax. */
    spx_triangle t1 = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    spx_triangle t2 = { { { 0.25f, 0.25f, 0 }, { 0.25f, 0.25f, 1 }, { 0.5f, 0.25f, 1 } } };
    c = tris(t1, still, t2, spx_v3(0, 0, 1), 1);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state != SPX_SWEEP_MISS && h.time == 0.0f);
    spx_triangle t3 = { { { 0, 0, 2 }, { 1, 0, 2 }, { 0, 1, 2 } } };
    c = tris(t1, spx_v3(0, 0, 0.5f), t3, spx_v3(0, 0, -0.5f), 2);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 2.0, 1e-6);
    TEST_ENSURE_NEAR(h.normal.z, 1.0, 1e-6);
    /* Box and triangle: a triangle resting on the top face at 0; dropping onto it by tmax. */
    spx_triangle lid = { { { -0.5f, 1, -0.5f }, { 0.5f, 1, -0.5f }, { 0, 1, 0.5f } } };
    test_sweep_case bt = box_tri(a, still, lid, spx_v3(0, 1, 0), 1);
    TEST_ENSURE_CODE(sweep(&bt, &h), SPX_OK);
    TEST_ENSURE(h.state != SPX_SWEEP_MISS && h.time == 0.0f);
    spx_triangle above = { { { -0.5f, 3, -0.5f }, { 0.5f, 3, -0.5f }, { 0, 3, 0.5f } } };
    bt = box_tri(a, still, above, spx_v3(0, -0.5f, 0), 4);
    TEST_ENSURE_CODE(sweep(&bt, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 4.0, 1e-6);
    TEST_ENSURE_NEAR(h.normal.y, 1.0, 1e-6);
    return 0;
}

/* Moves piece B sideways so that the reference's clearance over the sweep becomes `target` (m):
   along the closest-approach direction at the time of the minimum. The clearance is linear in the
   shift while the closest features stay the same, so a few corrections usually land; the caller
   checks. */
static void set_clearance(test_sweep_case* c, double target)
{
    for (int it = 0; it < 8; ++it) {
        test_ref_problem p;
        test_case_reference_problem(c, &p);
        test_ref_sweep r;
        test_ref_sweep_solve(&p, 0, &r);
        test_ref_distance d;
        double sd = test_ref_signed_distance(&p, r.t_min, &d);
        double dir[3];
        if (sd > 0) {
            for (int k = 0; k < 3; ++k) dir[k] = d.direction[k];
        } else {
            test_ref_penetration pen;
            test_ref_penetration_at(&p, r.t_min, &pen);
            for (int k = 0; k < 3; ++k) dir[k] = pen.normal[k];
        }
        double move = target - sd;
        for (int i = 0; i < 3; ++i) {
            float* pt = test_case_piece_is_box(c->kind, 1) ? &c->box[1].center.x : &c->tri[1].v[i].x;
            for (int k = 0; k < 3; ++k) pt[k] = (float)(pt[k] + move * dir[k]);
            if (test_case_piece_is_box(c->kind, 1)) break;
        }
    }
}

/* Passes that graze: clearance 1e-4 of the size must miss, a penetration of 1e-4 of the size must
   hit, exactly flush must hit; 1e-6 of the size is inside the documented touching tolerance and
   only has to return a sensible answer. */
static int grazing_passes(void)
{
    spx_sweep_hit h;
    /* Hand-worked: B slides over A's top face. size = 20 (the displacement). */
    spx_obb a = box_i(still, spx_v3(1, 1, 1));
    const double gaps[] = { 0.0, 1e-6 * 20, 1e-4 * 20 };
    for (int k = 0; k < 3; ++k) {
        spx_obb b = box_i(spx_v3(-10, (float)(2 + gaps[k]), 0.5f), spx_v3(1, 1, 1));
        test_sweep_case c = boxes(a, still, b, spx_v3(20, 0, 0), 1);
        TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
        if (k == 0) {
            TEST_ENSURE(h.state == SPX_SWEEP_HIT);
            TEST_ENSURE_NEAR(h.time, 0.4, 1e-5); /* x faces meet after 8 m */
        }
        if (k == 2) TEST_ENSURE(h.state == SPX_SWEEP_MISS);
        if (k == 1) printf("grazing at 1e-6 of the size: %s\n", h.state == SPX_SWEEP_MISS ? "miss" : "hit");
    }
    /* Random passes of every kind with the clearance set by the reference. */
    int bad = 0, borderline = 0, tried = 0, judged = 0, missed = 0;
    const int n = family_cases(900);
    for (int i = 0; i < n; ++i) {
        test_sweep_case c;
        test_case_make((test_case_kind)(i % 3), 90000 + (uint64_t)i, &c);
        test_ref_problem p;
        test_case_reference_problem(&c, &p);
        test_ref_sweep r;
        test_ref_sweep_solve(&p, 0, &r);
        if (r.sd_start <= 0.05 * p.size || r.t_min <= 0 || r.t_min >= c.tmax) continue; /* need a pass in the middle */
        ++tried;
        const double targets[] = { 1e-4, -1e-4, 0.0, 1e-6 };
        for (int k = 0; k < 4; ++k) {
            test_sweep_case g = c;
            set_clearance(&g, targets[k] * p.size);
            test_ref_problem pg;
            test_case_reference_problem(&g, &pg);
            test_ref_sweep rg;
            test_ref_sweep_solve(&pg, 0, &rg);
            if (k < 2) {
                /* Only a problem that really has the clearance wanted (to float rounding) is
                   judged; the closest features can jump while B moves, then the few corrections of
                   set_clearance do not land, and the case is left out. */
                if (!(fabs(rg.sd_min / pg.size - targets[k]) <= 2e-6)) {
                    ++missed;
                    continue;
                }
                ++judged;
                /* 1e-4 of the size is ten times the borderline band: judged strictly. */
                bad += agrees(k == 0 ? "grazing miss" : "grazing hit", &g, 1e-5, &borderline);
            } else {
                TEST_ENSURE_CODE(sweep(&g, &h), SPX_OK);
                if (k == 2 && h.state == SPX_SWEEP_START_OVERLAP) {
                    dump("flush pass", &g, &h, &rg, "a pass touching at t_min > 0 reported as a start overlap");
                    ++bad;
                }
            }
        }
    }
    printf("grazing passes: %d problems, %d judged at +-1e-4 of the size (%d could not be placed), %d borderline\n",
           tried, judged, missed, borderline);
    TEST_ENSURE(judged > 4 * n / 9);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Boxes 1e-4 thin (plates) against boxes and triangles, random otherwise. */
static int thin_boxes(void)
{
    int bad = 0, borderline = 0;
    for (int i = 0; i < 900; ++i) {
        test_sweep_case c;
        test_case_make(i % 2 ? TEST_CASE_OBB_OBB : TEST_CASE_OBB_TRIANGLE, 110000 + (uint64_t)i, &c);
        for (int j = 0; j < 2; ++j) {
            if (!test_case_piece_is_box(c.kind, j) || (j == 1 && i % 4 == 1)) continue;
            spx_vec3 h = c.box[j].half_extents;
            float big = fmaxf(h.x, fmaxf(h.y, h.z));
            float* e = &c.box[j].half_extents.x;
            e[(int)(c.seed % 3)] = 1e-4f * big;
        }
        bad += agrees("thin boxes", &c, 1e-5, &borderline);
    }
    printf("thin boxes: %d borderline\n", borderline);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Displacements 1000 times the pieces' size: B comes from 500 sizes away, through or past A. */
static int long_displacements(void)
{
    int bad = 0, borderline = 0;
    for (int i = 0; i < 900; ++i) {
        test_sweep_case c;
        test_case_make((test_case_kind)(i % 3), 130000 + (uint64_t)i, &c);
        test_case_rng rng = { c.seed };
        test_ref_problem p;
        test_case_reference_problem(&c, &p);
        double piece = 0;
        for (int j = 0; j < 2; ++j) {
            test_ref_piece* q = j ? &p.b : &p.a;
            for (int m = 0; m < q->count; ++m)
                for (int n = 0; n < q->count; ++n) {
                    double d[3] = { q->v[m][0] - q->v[n][0], q->v[m][1] - q->v[n][1], q->v[m][2] - q->v[n][2] };
                    piece = fmax(piece, sqrt(test_ref_dot(d, d)));
                }
        }
        double dir[3], off[3];
        test_case_unit_vector(&rng, dir);
        test_case_unit_vector(&rng, off);
        double side = test_case_uniform(&rng, 0, 1.5) * piece; /* a third or so pass beside */
        double shift[3];
        for (int k = 0; k < 3; ++k) shift[k] = -500 * piece * dir[k] + side * off[k];
        test_sweep_case m = c;
        float tmax = c.tmax;
        for (int k = 0; k < 3; ++k) {
            /* B placed back along -dir, moving 1000 sizes along dir relative to A. */
            float* pt = test_case_piece_is_box(c.kind, 1) ? &m.box[1].center.x : NULL;
            if (pt)
                pt[k] = (float)(c.box[0].center.x * (k == 0) + c.box[0].center.y * (k == 1) +
                                c.box[0].center.z * (k == 2) + shift[k]);
        }
        if (!test_case_piece_is_box(c.kind, 1)) {
            double cen[3] = { 0, 0, 0 }, ca[3];
            for (int v = 0; v < 3; ++v) {
                cen[0] += c.tri[1].v[v].x / 3;
                cen[1] += c.tri[1].v[v].y / 3;
                cen[2] += c.tri[1].v[v].z / 3;
            }
            if (test_case_piece_is_box(c.kind, 0)) {
                ca[0] = c.box[0].center.x;
                ca[1] = c.box[0].center.y;
                ca[2] = c.box[0].center.z;
            } else {
                ca[0] = ca[1] = ca[2] = 0;
                for (int v = 0; v < 3; ++v) {
                    ca[0] += c.tri[0].v[v].x / 3;
                    ca[1] += c.tri[0].v[v].y / 3;
                    ca[2] += c.tri[0].v[v].z / 3;
                }
            }
            for (int v = 0; v < 3; ++v) {
                float* pt = &m.tri[1].v[v].x;
                for (int k = 0; k < 3; ++k) pt[k] = (float)(pt[k] - cen[k] + ca[k] + shift[k]);
            }
        }
        double speed = 1000 * piece / tmax;
        m.velocity[1] = spx_v3((float)(m.velocity[0].x + speed * dir[0]), (float)(m.velocity[0].y + speed * dir[1]),
                               (float)(m.velocity[0].z + speed * dir[2]));
        bad += agrees("long displacement", &m, 1e-5, &borderline);
    }
    printf("long displacements: %d borderline\n", borderline);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* The random problems again, all coordinates offset by 1e4. The floats given are exact input, so
   the reference is exact on them; what float arithmetic may lose is the spacing of floats near 1e4
   (2^-10 ~ 1e-3 m), so the hit/miss band is widened to a few of those, and the time tolerance
   grows by that distance over the closing speed (absorbed by the conditioning window). */
static int far_from_origin(void)
{
    int bad = 0, borderline = 0, refused = 0;
    for (int i = 0; i < 900; ++i) {
        test_sweep_case c, m;
        test_case_make((test_case_kind)(i % 3), 150000 + (uint64_t)i, &c);
        const double shift[3] = { 1e4, -1e4, 1e4 };
        test_case_transform(&c, (spx_quat){ 0, 0, 0, 1 }, shift, &m);
        /* A triangle smaller than 1e-6 of its distance from the origin is degenerate by the
           documented rule (spx_triangle_validate): expect the refusal, not an answer. */
        spx_result valid = SPX_OK;
        for (int j = 0; j < 2; ++j)
            if (!test_case_piece_is_box(m.kind, j) && spx_triangle_validate(&m.tri[j]) != SPX_OK)
                valid = SPX_ERR_DEGENERATE_TRIANGLE;
        if (valid != SPX_OK) {
            spx_sweep_hit h;
            TEST_ENSURE_CODE(sweep(&m, &h), SPX_ERR_DEGENERATE_TRIANGLE);
            ++refused;
            continue;
        }
        test_ref_problem p;
        test_case_reference_problem(&m, &p);
        double band = fmax(1e-5, 4.0 * 9.765625e-4 / p.size);
        bad += agrees("offset by 1e4", &m, band, &borderline);
    }
    printf("offset by 1e4: %d borderline, %d refused as degenerate at that distance\n", borderline, refused);
    TEST_ENSURE(refused < 300);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Segment-like triangles (exactly collinear corners) are answered; coincident corners are refused. */
static int degenerate_triangles(void)
{
    int bad = 0, borderline = 0;
    test_case_rng rng = { 4242 };
    for (int i = 0; i < 600; ++i) {
        test_sweep_case c;
        test_case_make(i % 2 ? TEST_CASE_OBB_TRIANGLE : TEST_CASE_TRIANGLE_TRIANGLE, 170000 + (uint64_t)i, &c);
        /* Corners on one line, exactly: small integers times a power of two along an integer
           direction, so every coordinate is a float with no rounding. */
        int d[3], s[3] = { 0, 0, 0 };
        d[0] = (int)(test_case_rng_next(&rng) % 7) - 3;
        d[1] = (int)(test_case_rng_next(&rng) % 7) - 3;
        d[2] = 1 + (int)(test_case_rng_next(&rng) % 3);
        s[1] = 1 + (int)(test_case_rng_next(&rng) % 4);
        s[2] = -1 - (int)(test_case_rng_next(&rng) % 4);
        float unit = ldexpf(1.0f, -(int)(test_case_rng_next(&rng) % 3));
        spx_vec3 base = c.tri[1].v[0];
        base = spx_v3(roundf(base.x), roundf(base.y), roundf(base.z));
        for (int k = 0; k < 3; ++k)
            c.tri[1].v[k] =
                spx_v3(base.x + unit * s[k] * d[0], base.y + unit * s[k] * d[1], base.z + unit * s[k] * d[2]);
        if (c.kind == TEST_CASE_TRIANGLE_TRIANGLE && i % 4 == 0) c.tri[0] = c.tri[1]; /* segment against segment */
        if (c.kind == TEST_CASE_TRIANGLE_TRIANGLE && i % 4 == 0)
            for (int k = 0; k < 3; ++k) c.tri[0].v[k].x -= 3.0f;
        bad += agrees("segment-like triangle", &c, 1e-5, &borderline);
    }
    printf("segment-like triangles: %d borderline\n", borderline);
    TEST_ENSURE(bad == 0);

    spx_sweep_hit h, untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    spx_triangle ok = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    spx_triangle point = { { { 5, 5, 5 }, { 5, 5, 5 }, { 5, 5, 5 } } };
    spx_triangle two_same = { { { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3.0000001f } } };
    spx_obb box = box_i(still, spx_v3(1, 1, 1));
    const spx_triangle* bad_tris[] = { &point, &two_same };
    for (int k = 0; k < 2; ++k) {
        bool o;
        spx_penetration pen;
        h = untouched;
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(bad_tris[k], still, &ok, still, 1, &h),
                         SPX_ERR_DEGENERATE_TRIANGLE);
        TEST_ENSURE(memcmp(&h, &untouched, sizeof h) == 0);
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&ok, still, bad_tris[k], still, 1, &h),
                         SPX_ERR_DEGENERATE_TRIANGLE);
        TEST_ENSURE_CODE(spx_sweep_obb_triangle(&box, still, bad_tris[k], still, 1, &h), SPX_ERR_DEGENERATE_TRIANGLE);
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&ok, bad_tris[k], &o), SPX_ERR_DEGENERATE_TRIANGLE);
        TEST_ENSURE_CODE(spx_overlap_obb_triangle(&box, bad_tris[k], &o), SPX_ERR_DEGENERATE_TRIANGLE);
        TEST_ENSURE_CODE(spx_penetration_triangle_triangle(bad_tris[k], &ok, &pen), SPX_ERR_DEGENERATE_TRIANGLE);
        TEST_ENSURE_CODE(spx_penetration_obb_triangle(&box, bad_tris[k], &pen), SPX_ERR_DEGENERATE_TRIANGLE);
    }
    return 0;
}

/* Coincident boxes and boxes nested inside others: start overlap, and the depth is the least way
   out (hand-worked for axis-aligned ones: along axis i, h_a,i + h_b,i minus the centre offset). */
static int coincident_and_nested_boxes(void)
{
    spx_sweep_hit h;
    spx_obb a = box_q(spx_v3(1, 2, 3), spx_v3(1, 2, 3), test_about(1, 0.3));
    test_sweep_case c = boxes(a, spx_v3(1, 0, 0), a, spx_v3(0, 1, 0), 1);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(h.time == 0.0f);
    TEST_ENSURE_NEAR(h.depth, 2.0, 1e-5); /* the thinnest way out: 1 + 1 along A's first axis */
    TEST_ENSURE_NEAR(
        fabs(h.normal.x * a.rotation.col[0].x + h.normal.y * a.rotation.col[0].y + h.normal.z * a.rotation.col[0].z),
        1.0, 1e-5);
    /* Nested, off centre: small box (half 0.5) inside a big one (half 4, 3, 2), centre at (1, 0, 0.5):
       ways out along +x 4-1+0.5 = 3.5, along -x 5.5, y 3.5 either way, +z 2 - 0.5 + 0.5 = 2, -z 3. */
    spx_obb big = box_i(still, spx_v3(4, 3, 2)), small = box_i(spx_v3(1, 0, 0.5f), spx_v3(0.5f, 0.5f, 0.5f));
    c = boxes(big, still, small, spx_v3(0, 0, 0), 1);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(test_starts_overlapping_by(&h, 2.0, 1e-5));
    TEST_ENSURE_NEAR(h.normal.z, 1.0, 1e-5);
    c = boxes(small, still, big, spx_v3(0, 0, 0), 1); /* swapped: the normal flips */
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(test_starts_overlapping_by(&h, 2.0, 1e-5));
    TEST_ENSURE_NEAR(h.normal.z, -1.0, 1e-5);
    /* Random nested and coincident boxes against the exact depth. */
    int bad = 0, borderline = 0;
    test_case_rng rng = { 777 };
    for (int i = 0; i < 300; ++i) {
        test_sweep_case r;
        test_case_make(TEST_CASE_OBB_OBB, 190000 + (uint64_t)i, &r);
        if (i % 3 == 0) {
            r.box[1] = r.box[0]; /* coincident */
        } else {
            /* B shrunk and turned to fit inside A: half extents a quarter of A's smallest. */
            spx_vec3 he = r.box[0].half_extents;
            float m = 0.25f * fminf(he.x, fminf(he.y, he.z));
            r.box[1] = box_q(r.box[0].center, spx_v3(m, m * 0.5f, m * 0.8f), test_case_random_quat(&rng));
        }
        bad += agrees("nested boxes", &r, 1e-5, &borderline);
        spx_sweep_hit hr;
        TEST_ENSURE_CODE(sweep(&r, &hr), SPX_OK);
        TEST_ENSURE(hr.state == SPX_SWEEP_START_OVERLAP);
    }
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Coplanar triangles (overlapping, touching, approaching within the plane) and triangles in
   parallel planes (approaching across, sliding past). */
static int coplanar_and_parallel_triangles(void)
{
    spx_sweep_hit h;
    spx_triangle t1 = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    /* In-plane approach: B's left edge (x = 2) reaches A's corner (1, 0, 0) after 1 s; normal +x. */
    spx_triangle t2 = { { { 2, -0.5f, 0 }, { 3, 0, 0 }, { 2, 1, 0 } } };
    test_sweep_case c = tris(t1, still, t2, spx_v3(-1, 0, 0), 2);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 1.0, 1e-5);
    TEST_ENSURE_NEAR(h.normal.x, 1.0, 1e-3);
    /* Sliding in-plane but passing beside (B above y = 1.5 the whole way): a miss. */
    spx_triangle t3 = { { { 2, 1.5f, 0 }, { 3, 1.5f, 0 }, { 2, 2.5f, 0 } } };
    c = tris(t1, still, t3, spx_v3(-1, 0, 0), 4);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    /* Coplanar and overlapping at 0: contact at time 0 (depth 0 across the common plane). */
    spx_triangle t4 = { { { 0.2f, 0.2f, 0 }, { 2, 0.2f, 0 }, { 0.2f, 2, 0 } } };
    c = tris(t1, still, t4, spx_v3(0, 0, 1), 1);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state != SPX_SWEEP_MISS && h.time == 0.0f);
    /* Parallel planes 1 apart, approaching across: face on face at 0.5 s, normal +z. */
    spx_triangle up = { { { 0.3f, 0.3f, 1 }, { 0.6f, 0.3f, 1 }, { 0.3f, 0.6f, 1 } } };
    c = tris(t1, spx_v3(0, 0, 1), up, spx_v3(0, 0, -1), 1);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
    TEST_ENSURE_NEAR(h.normal.z, 1.0, 1e-6);
    /* Parallel planes sliding past each other: never touching. */
    c = tris(t1, still, up, spx_v3(-3, 0, 0), 1);
    TEST_ENSURE_CODE(sweep(&c, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    /* Random coplanar and parallel-plane pairs, including in-plane motion, against the reference. */
    int bad = 0, borderline = 0;
    test_case_rng rng = { 999 };
    for (int i = 0; i < 900; ++i) {
        test_sweep_case r;
        test_case_make(TEST_CASE_TRIANGLE_TRIANGLE, 210000 + (uint64_t)i, &r);
        /* Flatten both onto the plane z = offset (exact floats), A at z = 0. */
        float offset = i % 3 == 0 ? 0.0f : ldexpf((float)(1 + test_case_rng_next(&rng) % 8), -3);
        for (int k = 0; k < 3; ++k) {
            r.tri[0].v[k].z = 0;
            r.tri[1].v[k].z = offset;
        }
        if (i % 2 == 0) {
            r.velocity[0].z = 0;
            r.velocity[1].z = 0;
        } /* motion in the plane */
        if (spx_triangle_validate(&r.tri[0]) != SPX_OK || spx_triangle_validate(&r.tri[1]) != SPX_OK) continue;
        bad += agrees(offset == 0 ? "coplanar triangles" : "parallel-plane triangles", &r, 1e-5, &borderline);
    }
    printf("coplanar and parallel triangles: %d borderline\n", borderline);
    TEST_ENSURE(bad == 0);
    return 0;
}

/* Bad input for every query: NULL, NaN, infinity, bad extents, non-orthonormal and mirrored
   rotations, negative and non-finite tmax. Each gives its documented code and leaves `out` alone. */
static int bad_input(void)
{
    spx_obb ok = box_i(still, spx_v3(1, 1, 1)), bad;
    spx_triangle tri = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } }, badt;
    spx_sweep_hit h, sentinel;
    memset(&sentinel, 0x5A, sizeof sentinel);
    spx_penetration pen;
    bool o;
    const spx_vec3 v = { 1, 0, 0 };

    struct {
        spx_obb box;
        spx_result code;
    } boxes_bad[8];
    int nb = 0;
    bad = ok;
    bad.center.x = NAN;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_NOT_FINITE;
    bad = ok;
    bad.half_extents.y = INFINITY;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_NOT_FINITE;
    bad = ok;
    bad.rotation.col[1].z = NAN;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_NOT_FINITE;
    bad = ok;
    bad.half_extents.z = -1;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_BAD_EXTENT;
    bad = ok;
    bad.half_extents.x = 0;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_BAD_EXTENT;
    bad = ok;
    bad.rotation.col[0].x = 1.01f;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_NOT_ORTHONORMAL;
    bad = ok;
    bad.rotation.col[0].y = 0.1f;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_NOT_ORTHONORMAL;
    bad = ok;
    bad.rotation.col[2].z = -1;
    boxes_bad[nb].box = bad;
    boxes_bad[nb++].code = SPX_ERR_NOT_RIGHT_HANDED;
    for (int k = 0; k < nb; ++k) {
        const spx_obb* b = &boxes_bad[k].box;
        spx_result want = boxes_bad[k].code;
        h = sentinel;
        TEST_ENSURE_CODE(spx_sweep_obb_obb(b, v, &ok, v, 1, &h), want);
        TEST_ENSURE(memcmp(&h, &sentinel, sizeof h) == 0);
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&ok, v, b, v, 1, &h), want);
        TEST_ENSURE_CODE(spx_sweep_obb_triangle(b, v, &tri, v, 1, &h), want);
        TEST_ENSURE(memcmp(&h, &sentinel, sizeof h) == 0);
        TEST_ENSURE_CODE(spx_overlap_obb_obb(b, &ok, &o), want);
        TEST_ENSURE_CODE(spx_overlap_obb_triangle(b, &tri, &o), want);
        TEST_ENSURE_CODE(spx_penetration_obb_obb(&ok, b, &pen), want);
        TEST_ENSURE_CODE(spx_penetration_obb_triangle(b, &tri, &pen), want);
    }
    /* Triangles: non-finite corners. */
    const float nonfinite[2] = { NAN, INFINITY };
    for (int k = 0; k < 2; ++k) {
        badt = tri;
        badt.v[2].y = nonfinite[k];
        h = sentinel;
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&badt, v, &tri, v, 1, &h), SPX_ERR_NOT_FINITE);
        TEST_ENSURE(memcmp(&h, &sentinel, sizeof h) == 0);
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&tri, v, &badt, v, 1, &h), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_sweep_obb_triangle(&ok, v, &badt, v, 1, &h), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&badt, &tri, &o), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_overlap_obb_triangle(&ok, &badt, &o), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_penetration_triangle_triangle(&tri, &badt, &pen), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_penetration_obb_triangle(&ok, &badt, &pen), SPX_ERR_NOT_FINITE);
    }
    /* Motion: non-finite velocities and tmax, negative tmax; tmax = 0 is a valid (instant) sweep. */
    const spx_vec3 vnan = { 0, NAN, 0 }, vinf = { -INFINITY, 0, 0 };
    const struct {
        spx_vec3 va, vb;
        float tmax;
        spx_result code;
    } motion[] = {
        { vnan, v, 1, SPX_ERR_NOT_FINITE },
        { v, vinf, 1, SPX_ERR_NOT_FINITE },
        { v, v, NAN, SPX_ERR_NOT_FINITE },
        { v, v, INFINITY, SPX_ERR_NOT_FINITE },
        { v, v, -1e-6f, SPX_ERR_BAD_TIME },
        { v, v, -INFINITY, SPX_ERR_NOT_FINITE },
        { v, v, 0, SPX_OK },
    };
    spx_obb far = box_i(spx_v3(5, 0, 0), spx_v3(1, 1, 1));
    spx_triangle far_tri = { { { 5, 0, 0 }, { 6, 0, 0 }, { 5, 1, 0 } } };
    for (size_t k = 0; k < sizeof motion / sizeof motion[0]; ++k) {
        h = sentinel;
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&ok, motion[k].va, &far, motion[k].vb, motion[k].tmax, &h), motion[k].code);
        if (motion[k].code != SPX_OK) TEST_ENSURE(memcmp(&h, &sentinel, sizeof h) == 0);
        else TEST_ENSURE(h.state == SPX_SWEEP_MISS);
        TEST_ENSURE_CODE(spx_sweep_obb_triangle(&ok, motion[k].va, &far_tri, motion[k].vb, motion[k].tmax, &h),
                         motion[k].code);
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&tri, motion[k].va, &far_tri, motion[k].vb, motion[k].tmax, &h),
                         motion[k].code);
    }
    /* NULL anywhere. */
    TEST_ENSURE_CODE(spx_sweep_obb_obb(NULL, v, &ok, v, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&ok, v, NULL, v, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&ok, v, &ok, v, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(NULL, v, &tri, v, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&ok, v, NULL, v, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&ok, v, &tri, v, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(NULL, v, &tri, v, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&tri, v, NULL, v, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&tri, v, &tri, v, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_obb(NULL, &ok, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&ok, &ok, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_triangle(&ok, NULL, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&tri, &tri, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_obb_obb(&ok, NULL, &pen), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_obb_triangle(&ok, &tri, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_triangle_triangle(NULL, &tri, &pen), SPX_ERR_INVALID_ARGUMENT);
    /* Every code has a sentence. */
    for (int k = 0; k < SPX_RESULT_COUNT; ++k) TEST_ENSURE(spx_result_string((spx_result)k) != NULL);
    (void)test_identity;
    return 0;
}

int main(int argc, char** argv)
{
    long_run = test_long_run(argc, argv);
    int failures = 0;
    TEST_RUN(parallel_and_antiparallel_edges, failures);
    TEST_RUN(identical_orientations, failures);
    TEST_RUN(nearly_identical_orientations, failures);
    TEST_RUN(touching_at_zero_and_tmax, failures);
    TEST_RUN(grazing_passes, failures);
    TEST_RUN(thin_boxes, failures);
    TEST_RUN(long_displacements, failures);
    TEST_RUN(far_from_origin, failures);
    TEST_RUN(degenerate_triangles, failures);
    TEST_RUN(coincident_and_nested_boxes, failures);
    TEST_RUN(coplanar_and_parallel_triangles, failures);
    TEST_RUN(bad_input, failures);
    return failures ? 1 : 0;
}
