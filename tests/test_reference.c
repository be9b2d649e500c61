/* The reference checked on its own: hand-worked distances and times of contact, and certificates
   on random pieces (a distance is proved by its witness points and a separating direction; a depth
   by the translation that just separates). Needs nothing from src/collide. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/cases.h"
#include "support/reference.h"
#include "support/pieces.h"

static const double REF_PI = 3.14159265358979323846;

static spx_obb box_at(float x, float y, float z, float h)
{
    spx_obb b;
    spx_obb_from_matrix(spx_v3(x, y, z), spx_v3(h, h, h), &test_identity, &b);
    return b;
}

static double distance_of(const test_ref_piece* a, const test_ref_piece* b, test_ref_distance* d)
{
    return test_ref_gjk_distance(a, NULL, b, NULL, d);
}

static int static_distances_by_hand(void)
{
    test_ref_piece a, b;
    test_ref_distance d;
    /* Face to face: unit half extents, centres 3 apart on x: gap 1 along +x. */
    spx_obb ba = box_at(0, 0, 0, 1), bb = box_at(3, 0, 0, 1);
    test_ref_piece_from_obb(&ba, &a);
    test_ref_piece_from_obb(&bb, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 1.0, 1e-12);
    TEST_ENSURE_NEAR(d.direction[0], 1.0, 1e-12);
    TEST_ENSURE(d.converged);

    /* B turned 45 degrees about z: its corner edge reaches sqrt(2) towards A: gap 2 - sqrt(2). */
    spx_obb_from_quat(spx_v3(3, 0, 0), spx_v3(1, 1, 1), test_about(2, REF_PI / 4), &bb);
    test_ref_piece_from_obb(&bb, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 2.0 - sqrt(2.0), 1e-6); /* float rotation: 1e-7 level */
    TEST_ENSURE_NEAR(d.direction[0], 1.0, 1e-6);

    /* Edge on edge, crossed: A turned 45 about x has a top edge along x at y = sqrt 2; B turned 45
       about z has a bottom edge along z at y = 4 - sqrt 2. */
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), test_about(0, REF_PI / 4), &ba);
    spx_obb_from_quat(spx_v3(0, 4, 0), spx_v3(1, 1, 1), test_about(2, REF_PI / 4), &bb);
    test_ref_piece_from_obb(&ba, &a);
    test_ref_piece_from_obb(&bb, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 4.0 - 2.0 * sqrt(2.0), 1e-6);
    TEST_ENSURE_NEAR(d.direction[1], 1.0, 1e-6);
    TEST_ENSURE_NEAR(d.point_a[0], 0.0, 1e-6);
    TEST_ENSURE_NEAR(d.point_a[2], 0.0, 1e-6);

    /* Triangles: parallel planes 2 apart; a vertex 0.5 above the interior; a segment-like
       triangle on the x axis 1 beyond the corner (1, 0, 0). */
    spx_triangle t1 = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    spx_triangle t2 = { { { 0, 0, 2 }, { 1, 0, 2 }, { 0, 1, 2 } } };
    spx_triangle t3 = { { { 0.2f, 0.2f, 0.5f }, { 0.2f, 0.2f, 3 }, { 1, 1, 3 } } };
    spx_triangle seg = { { { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 } } };
    test_ref_piece_from_triangle(&t1, &a);
    test_ref_piece_from_triangle(&t2, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 2.0, 1e-12);
    test_ref_piece_from_triangle(&t3, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 0.5, 1e-7);
    TEST_ENSURE_NEAR(d.direction[2], 1.0, 1e-12);
    test_ref_piece_from_triangle(&seg, &b);
    TEST_ENSURE(b.normal_count == 0 && !b.flat);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 1.0, 1e-12);

    /* Box against a triangle standing in the plane x = 2.5 across the box's +x face. */
    spx_triangle wall = { { { 2.5f, -5, -5 }, { 2.5f, 5, -5 }, { 2.5f, 0, 5 } } };
    ba = box_at(0, 0, 0, 1);
    test_ref_piece_from_obb(&ba, &a);
    test_ref_piece_from_triangle(&wall, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 1.5, 1e-12);

    /* Overlap reports 0. */
    bb = box_at(1.5f, 0.5f, 0, 1);
    test_ref_piece_from_obb(&bb, &b);
    TEST_ENSURE_NEAR(distance_of(&a, &b, &d), 0.0, 0);
    return 0;
}

static int penetration_by_hand(void)
{
    test_ref_problem p;
    test_ref_penetration pen;
    spx_vec3 still = spx_v3(0, 0, 0);
    /* Overlap 0.5 on x, 1.5 on y: the minimum translation is 0.5 along +x. */
    spx_obb a = box_at(0, 0, 0, 1), b = box_at(1.5f, 0.5f, 0, 1);
    test_ref_problem_obb_obb(&a, still, &b, still, 1, &p);
    test_ref_penetration_at(&p, 0, &pen);
    TEST_ENSURE_NEAR(pen.depth, 0.5, 1e-12);
    TEST_ENSURE_NEAR(pen.normal[0], 1.0, 1e-12);
    TEST_ENSURE(pen.second > 1.4);
    TEST_ENSURE_NEAR(test_ref_signed_distance(&p, 0, NULL), -0.5, 1e-12);

    /* Nested: a unit box inside a box of half extent 3: B must move 4 to clear A (or A 4). */
    spx_obb big = box_at(0, 0, 0, 3);
    test_ref_problem_obb_obb(&a, still, &big, still, 1, &p);
    test_ref_penetration_at(&p, 0, &pen);
    TEST_ENSURE_NEAR(pen.depth, 4.0, 1e-12);
    TEST_ENSURE(pen.second <= pen.depth); /* six equal ways out: the normal is not unique */

    /* Coplanar triangles overlapping: the Minkowski difference is flat, depth 0 along the normal. */
    spx_triangle t1 = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    spx_triangle t2 = { { { 0.2f, 0.2f, 0 }, { 2, 0.2f, 0 }, { 0.2f, 2, 0 } } };
    test_ref_problem_triangle_triangle(&t1, still, &t2, still, 1, &p);
    test_ref_penetration_at(&p, 0, &pen);
    TEST_ENSURE_NEAR(pen.depth, 0.0, 1e-15);
    TEST_ENSURE_NEAR(fabs(pen.normal[2]), 1.0, 1e-12);

    /* A triangle piercing a box's top face by 0.25: depth 0.25, up. */
    spx_triangle spike = { { { -0.1f, 0.75f, 0 }, { 0.1f, 0.75f, 0 }, { 0, 3, 0 } } };
    test_ref_problem_obb_triangle(&a, still, &spike, still, 1, &p);
    test_ref_penetration_at(&p, 0, &pen);
    TEST_ENSURE_NEAR(pen.depth, 0.25, 1e-7);
    TEST_ENSURE_NEAR(pen.normal[1], 1.0, 1e-7);
    return 0;
}

/* The reference sweep of two boxes, solved to 1e-5 of the problem's size; p keeps the problem. */
static void sweep_boxes(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax, test_ref_problem* p,
                        test_ref_sweep* s)
{
    test_ref_problem_obb_obb(a, va, b, vb, tmax, p);
    test_ref_sweep_solve(p, 1e-5 * p->size, s);
}

static int sweeps_by_hand(void)
{
    test_ref_problem p;
    test_ref_sweep s;
    /* Head on: gap 4 closing at 4 m/s meets at t = 1, normal +x. */
    spx_obb a = box_at(0, 0, 0, 1), b = box_at(6, 0, 0, 1);
    sweep_boxes(&a, spx_v3(0, 0, 0), &b, spx_v3(-4, 0, 0), 2, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_HIT);
    TEST_ENSURE_NEAR(s.time, 1.0, 1e-12);
    TEST_ENSURE_NEAR(s.normal[0], 1.0, 1e-9);
    TEST_ENSURE(s.normal_unique);
    TEST_ENSURE_NEAR(s.point[0], 1.0, 1e-6);
    /* Size: the larger of the diameters (2 sqrt 3) and the displacement 8. */
    TEST_ENSURE_NEAR(p.size, 8.0, 1e-12);

    /* Both moving: A at +1, B at -3, the same gap closes at t = 1. */
    sweep_boxes(&a, spx_v3(1, 0, 0), &b, spx_v3(-3, 0, 0), 2, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_HIT);
    TEST_ENSURE_NEAR(s.time, 1.0, 1e-12);
    TEST_ENSURE_NEAR(s.point[0], 2.0, 1e-6);

    /* Too short an interval: miss, and the clearance is the gap left at tmax (4 - 4 * 0.75). */
    sweep_boxes(&a, spx_v3(0, 0, 0), &b, spx_v3(-4, 0, 0), 0.75f, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_MISS);
    TEST_ENSURE_NEAR(s.sd_min, 1.0, 1e-9);
    TEST_ENSURE_NEAR(s.t_min, 0.75, 1e-9);

    /* Passing beside: 3 above on y, boxes 2 tall: clearance 1, reached over the whole overlap in x. */
    b = box_at(6, 3, 0, 1);
    sweep_boxes(&a, spx_v3(0, 0, 0), &b, spx_v3(-4, 0, 0), 4, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_MISS);
    TEST_ENSURE_NEAR(s.sd_min, 1.0, 1e-9);

    /* Crossed edges falling onto each other: gap 4 - 2 sqrt 2 at 1 m/s, normal +y, unique. */
    spx_obb ea, eb;
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), test_about(0, REF_PI / 4), &ea);
    spx_obb_from_quat(spx_v3(0, 4, 0), spx_v3(1, 1, 1), test_about(2, REF_PI / 4), &eb);
    sweep_boxes(&ea, spx_v3(0, 0, 0), &eb, spx_v3(0, -1, 0), 3, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_HIT);
    TEST_ENSURE_NEAR(s.time, 4.0 - 2.0 * sqrt(2.0), 1e-6);
    TEST_ENSURE_NEAR(s.normal[1], 1.0, 1e-6);
    TEST_ENSURE(s.normal_unique);

    /* Parallel edges meeting (both turned 45 about z): a whole fan of normals is valid. */
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), test_about(2, REF_PI / 4), &ea);
    sweep_boxes(&ea, spx_v3(0, 0, 0), &eb, spx_v3(0, -1, 0), 3, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_HIT);
    TEST_ENSURE_NEAR(s.time, 4.0 - 2.0 * sqrt(2.0), 1e-6);
    TEST_ENSURE(!s.normal_unique);

    /* Triangle dropping flat onto a triangle 2 below at 4 m/s: t = 0.5, normal -z (A to B). */
    spx_triangle t1 = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    spx_triangle t2 = { { { 0.1f, 0.1f, -2 }, { 0.5f, 0.1f, -2 }, { 0.1f, 0.5f, -2 } } };
    test_ref_problem_triangle_triangle(&t1, spx_v3(0, 0, -4), &t2, spx_v3(0, 0, 0), 1, &p);
    test_ref_sweep_solve(&p, 1e-5 * p.size, &s);
    TEST_ENSURE(s.state == TEST_REF_HIT);
    TEST_ENSURE_NEAR(s.time, 0.5, 1e-12);
    TEST_ENSURE_NEAR(s.normal[2], -1.0, 1e-9);
    TEST_ENSURE(s.normal_unique);

    /* Start overlap and exact touching at 0. */
    b = box_at(1.5f, 0.5f, 0, 1);
    sweep_boxes(&a, spx_v3(0, 0, 0), &b, spx_v3(1, 0, 0), 1, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_START_OVERLAP);
    TEST_ENSURE_NEAR(s.depth, 0.5, 1e-12);
    TEST_ENSURE_NEAR(s.normal[0], 1.0, 1e-12);
    TEST_ENSURE(s.normal_unique);
    b = box_at(2, 0.5f, 0, 1);
    sweep_boxes(&a, spx_v3(0, 0, 0), &b, spx_v3(-1, 0, 0), 1, &p, &s);
    TEST_ENSURE(s.state != TEST_REF_MISS);
    TEST_ENSURE_NEAR(s.time, 0.0, 1e-12);

    /* Touching exactly at tmax: gap 2 closed at 1 m/s with tmax 2. */
    b = box_at(4, 0, 0, 1);
    sweep_boxes(&a, spx_v3(0, 0, 0), &b, spx_v3(-1, 0, 0), 2, &p, &s);
    TEST_ENSURE(s.state == TEST_REF_HIT);
    TEST_ENSURE_NEAR(s.time, 2.0, 1e-12);
    return 0;
}

/* Random pieces: every distance carries its certificate. The witnesses lie in the pieces (convex
   weights, by construction) and are `distance` apart, so the distance is at most that; the gap
   along the witness direction is at least the distance up to rounding, so no pair of points is
   closer (projection onto a line never lengthens). Overlaps: the exact depth is checked by moving
   B just past it (then apart) and just short of it (still overlapping), and no candidate axis or
   random direction shows less overlap. */
static int random_certificates(void)
{
    int distances = 0, overlaps = 0;
    test_case_rng rng = { 12345 };
    for (int i = 0; i < 6000; ++i) {
        test_sweep_case c;
        test_case_make((test_case_kind)(i % 3), 1000 + (uint64_t)i, &c);
        test_ref_problem p;
        test_case_reference_problem(&c, &p);
        test_ref_distance d;
        double sd = test_ref_signed_distance(&p, 0.0, &d);
        TEST_ENSURE(d.converged);
        double tol = 1e-12 * p.size + 1e-13 * 40.0 * p.size;
        if (sd > 0) {
            ++distances;
            double w[3] = { d.point_b[0] - d.point_a[0], d.point_b[1] - d.point_a[1], d.point_b[2] - d.point_a[2] };
            TEST_ENSURE_NEAR(sqrt(test_ref_dot(w, w)), sd, 1e-12 * p.size);
            double gap = test_ref_gap_along(&p, d.direction, 0.0);
            if (!(gap >= sd - 1e-9 * sd - tol)) {
                fprintf(stderr, "case %d: distance %.17g but gap along its direction only %.17g\n", i, sd, gap);
                return 1;
            }
            /* No candidate axis may separate by more than the distance either. */
            for (int k = 0; k < p.axes.count; ++k) {
                double n[3] = { -p.axes.n[k][0], -p.axes.n[k][1], -p.axes.n[k][2] };
                TEST_ENSURE(test_ref_gap_along(&p, p.axes.n[k], 0.0) <= sd + tol);
                TEST_ENSURE(test_ref_gap_along(&p, n, 0.0) <= sd + tol);
            }
        } else {
            ++overlaps;
            test_ref_penetration pen;
            test_ref_penetration_at(&p, 0.0, &pen);
            TEST_ENSURE_NEAR(-pen.depth, sd, 0);
            /* No candidate axis separates: GJK and the axes agree that they overlap. */
            for (int k = 0; k < p.axes.count; ++k) {
                double n[3] = { -p.axes.n[k][0], -p.axes.n[k][1], -p.axes.n[k][2] };
                TEST_ENSURE(test_ref_gap_along(&p, p.axes.n[k], 0.0) <= tol);
                TEST_ENSURE(test_ref_gap_along(&p, n, 0.0) <= tol);
            }
            double eps = 1e-7 * p.size;
            test_ref_problem moved = p;
            for (int k = 0; k < 3; ++k)
                for (int v = 0; v < moved.b.count; ++v) moved.b.v[v][k] += (pen.depth + eps) * pen.normal[k];
            double after = test_ref_signed_distance(&moved, 0.0, NULL);
            if (!(after > 0.5 * eps && after <= 1.0001 * eps + tol)) {
                fprintf(stderr, "case %d: depth %.17g, moved past it distance %.17g (eps %g)\n", i, pen.depth, after,
                        eps);
                return 1;
            }
            if (pen.depth > 2 * eps) {
                moved = p;
                for (int k = 0; k < 3; ++k)
                    for (int v = 0; v < moved.b.count; ++v) moved.b.v[v][k] += (pen.depth - eps) * pen.normal[k];
                TEST_ENSURE(test_ref_signed_distance(&moved, 0.0, NULL) <= 0.0);
            }
            for (int k = 0; k < 50; ++k) {
                double n[3];
                test_case_unit_vector(&rng, n);
                TEST_ENSURE(-test_ref_gap_along(&p, n, 0.0) >= pen.depth - tol);
            }
        }
    }
    printf("certificates: %d distances, %d overlaps\n", distances, overlaps);
    TEST_ENSURE(distances > 1000 && overlaps > 1000);
    return 0;
}

/* The swept answer on random problems: sd is positive just before the reported time and not above
   zero at it, a dense scan finds no earlier contact and no lower minimum, and the hits, misses and
   start overlaps of the generator each make a good share. */
static int random_sweeps(void)
{
    int count[3] = { 0, 0, 0 };
    for (int i = 0; i < 900; ++i) {
        test_sweep_case c;
        test_case_make((test_case_kind)(i % 3), 5000 + (uint64_t)i, &c);
        test_ref_problem p;
        test_case_reference_problem(&c, &p);
        test_ref_sweep s;
        test_ref_sweep_solve(&p, 1e-5 * p.size, &s);
        ++count[s.state];
        const int scan = 1000;
        double lowest = s.sd_start;
        for (int k = 0; k <= scan; ++k) {
            double t = p.tmax * k / scan, sd = test_ref_signed_distance(&p, t, NULL);
            if (sd < lowest) lowest = sd;
            if (s.state == TEST_REF_MISS) TEST_ENSURE(sd > 0.0);
            if (s.state == TEST_REF_HIT && t < s.time * (1 - 1e-12)) TEST_ENSURE(sd > 0.0);
        }
        if (s.state != TEST_REF_START_OVERLAP) TEST_ENSURE(s.sd_min <= lowest + 1e-12 * p.size);
        if (s.state == TEST_REF_HIT && s.time > 0) {
            TEST_ENSURE(test_ref_signed_distance(&p, s.time, NULL) <= 0.0);
            TEST_ENSURE(test_ref_signed_distance(&p, s.time * (1 - 1e-9), NULL) > 0.0);
            /* The normal separates just before contact and holds the pieces touching at it. */
            TEST_ENSURE(test_ref_gap_along(&p, s.normal, s.time) >= -1e-9 * p.size);
            TEST_ENSURE(test_ref_gap_along(&p, s.normal, s.time) <= 1e-9 * p.size);
        }
    }
    printf("sweeps: %d misses, %d hits, %d start overlaps\n", count[0], count[1], count[2]);
    for (int k = 0; k < 3; ++k) TEST_ENSURE(count[k] > 150);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(static_distances_by_hand, failures);
    TEST_RUN(penetration_by_hand, failures);
    TEST_RUN(sweeps_by_hand, failures);
    TEST_RUN(random_certificates, failures);
    TEST_RUN(random_sweeps, failures);
    return failures ? 1 : 0;
}
