/* Spheres and capsules: answers worked out by hand (time, normal, point, features, depth), manifolds,
   mass properties against their integrals, and every error code in its order. The comparison with the
   brute-force reference on random and adversarial problems is test_round_reference. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/pieces.h"
#include <float.h>

static const spx_vec3 still = { 0, 0, 0 };

static spx_obb unit_box(void)
{
    spx_obb b;
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), (spx_quat){ 0, 0, 0, 1 }, &b);
    return b;
}

static int spheres_head_on(void)
{ /* radius 1 each, 5 m apart closing at 6 m/s: the 3 m gap closes at t = 0.5, touching at x = 1 */
    spx_sphere a = { { 0, 0, 0 }, 1 }, b = { { 5, 0, 0 }, 1 };
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&a, still, &b, spx_v3(-6, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.5, 1e-7, (const double[]){ 1, 0, 0 }, 1e-7, (const double[]){ 1, 0, 0 }, 1e-6));
    TEST_ENSURE(h.feature_a == SPX_FEATURE_VERTEX && h.feature_b == SPX_FEATURE_VERTEX);
    /* Swapped: the same time and point, the normal negated. */
    spx_sweep_hit g;
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&b, spx_v3(-6, 0, 0), &a, still, 1.0f, &g), SPX_OK);
    TEST_ENSURE(test_hit_is(&g, 0.5, 1e-7, (const double[]){ -1, 0, 0 }, 1e-7, (const double[]){ 1, 0, 0 }, 1e-6));
    /* Too short an interval: a miss with everything zero. */
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&a, still, &b, spx_v3(-6, 0, 0), 0.49f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS && h.time == 0.0f && h.normal.x == 0.0f);
    return 0;
}

static int spheres_graze(void)
{ /* B passes A with its centre 2 m off A's, the radii's sum: touching at one instant, t = 0.5 */
    spx_sphere a = { { 0, 0, 0 }, 1 }, b = { { -5, 2, 0 }, 1 };
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&a, still, &b, spx_v3(10, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.5, 1e-7, (const double[]){ 0, 1, 0 }, 1e-7, (const double[]){ 0, 1, 0 }, 1e-6));
    b.center.y = 2.0001f;
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&a, still, &b, spx_v3(10, 0, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    return 0;
}

static int sphere_grazes_box_edge(void)
{ /* radius 0.5 along y = 1.5 over a unit box: it first touches the top edge x = -1 when its centre
       is over it, at x = -1, t = 0.5 from x = -3 at 4 m/s, and slides along the face afterwards */
    spx_sphere a = { { -3, 1.5f, 0 }, 0.5f };
    spx_obb box = unit_box();
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&a, spx_v3(4, 0, 0), &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.5, 1e-6, (const double[]){ 0, -1, 0 }, 1e-6, (const double[]){ -1, 1, 0 }, 1e-6));
    /* The feature extreme along the normal: the top face (the edge is part of it). */
    TEST_ENSURE(h.feature_a == SPX_FEATURE_VERTEX && h.feature_b == SPX_FEATURE_FACE);
    /* A hair higher: a miss. */
    a.center.y = 1.5001f;
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&a, spx_v3(4, 0, 0), &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    return 0;
}

static int sphere_meets_box_corner(void)
{ /* along the diagonal onto the corner (1, 1, 1): the centre at distance 0.5 from it */
    const float s = 1.0f / sqrtf(3.0f);
    spx_sphere a = { { 3, 3, 3 }, 0.5f };
    spx_obb box = unit_box();
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&a, spx_v3(-1, -1, -1), &box, still, 5.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 2.0 - 0.5 / sqrt(3.0), 1e-6, (const double[]){ -s, -s, -s }, 1e-6,
                            (const double[]){ 1, 1, 1 }, 1e-6));
    TEST_ENSURE(h.feature_b == SPX_FEATURE_VERTEX);
    return 0;
}

static int capsule_lands_flat_on_box(void)
{ /* a capsule of radius 0.5 along x at height 2 falls at 2 m/s onto a unit box: 0.5 m in 0.25 s,
       touching along x in [-0.5, 0.5], the middle of which is the point */
    spx_capsule a = { { { -0.5f, 2, 0 }, { 0.5f, 2, 0 } }, 0.5f };
    spx_obb box = unit_box();
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_capsule_obb(&a, spx_v3(0, -2, 0), &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.25, 1e-7, (const double[]){ 0, -1, 0 }, 1e-7, (const double[]){ 0, 1, 0 }, 1e-6));
    TEST_ENSURE(h.feature_a == SPX_FEATURE_EDGE && h.feature_b == SPX_FEATURE_FACE);
    /* Hanging over the box's edge by 1 m: the stretch on the face is x in [0.5, 1], point at 0.75. */
    spx_capsule over = { { { 0.5f, 2, 0 }, { 2.0f, 2, 0 } }, 0.5f };
    TEST_ENSURE_CODE(spx_sweep_capsule_obb(&over, spx_v3(0, -2, 0), &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE_NEAR(h.time, 0.25, 1e-7);
    TEST_ENSURE_NEAR3(h.point, 0.75, 1, 0, 1e-4);
    /* Its ends swapped: the same answer. */
    spx_capsule flipped = { { over.p[1], over.p[0] }, 0.5f };
    spx_sweep_hit g;
    TEST_ENSURE_CODE(spx_sweep_capsule_obb(&flipped, spx_v3(0, -2, 0), &box, still, 1.0f, &g), SPX_OK);
    TEST_ENSURE(g.time == h.time);
    TEST_ENSURE_NEAR3(g.point, h.point.x, h.point.y, h.point.z, 1e-6);
    return 0;
}

static int capsules_cross(void)
{ /* A along x, B along z 2 m above, closing at 3 m/s: the insides of the segments meet, gap 1.5 m */
    spx_capsule a = { { { -1, 0, 0 }, { 1, 0, 0 } }, 0.25f }, b = { { { 0, 2, -1 }, { 0, 2, 1 } }, 0.25f };
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_capsule_capsule(&a, still, &b, spx_v3(0, -3, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.5, 1e-7, (const double[]){ 0, 1, 0 }, 1e-7, (const double[]){ 0, 0.25, 0 }, 1e-6));
    /* Each segment square to the normal: both extreme along it as a whole, edges. */
    TEST_ENSURE(h.feature_a == SPX_FEATURE_EDGE && h.feature_b == SPX_FEATURE_EDGE);
    /* B shifted 1.5 m along x: it passes A's end x = 1 at 0.5 m, the radii's sum, from the time its
       inside comes level with A's segment, t = 2/3: a graze along x. */
    b.p[0].x = b.p[1].x = 1.5f;
    TEST_ENSURE_CODE(spx_sweep_capsule_capsule(&a, still, &b, spx_v3(0, -3, 0), 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 2.0 / 3.0, 1e-6, (const double[]){ 1, 0, 0 }, 1e-5, NULL, 0));
    return 0;
}

static int capsule_end_onto_triangle(void)
{ /* a vertical capsule drops its lower end (radius 0.1) onto a triangle in y = 0 */
    spx_capsule a = { { { 0.2f, 1, 0.2f }, { 0.2f, 3, 0.2f } }, 0.1f };
    spx_triangle t = { { { 0, 0, 0 }, { 0, 0, 2 }, { 2, 0, 0 } } };
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_capsule_triangle(&a, spx_v3(0, -1.8f, 0), &t, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.5, 1e-6, (const double[]){ 0, -1, 0 }, 1e-7, (const double[]){ 0.2, 0, 0.2 }, 1e-6));
    TEST_ENSURE(h.feature_a == SPX_FEATURE_VERTEX && h.feature_b == SPX_FEATURE_FACE);
    /* Moving sideways past the triangle's plane edge-on, through the corner region: a miss. */
    spx_capsule beside = { { { -1, 0.5f, -1 }, { -1, 2, -1 } }, 0.1f };
    TEST_ENSURE_CODE(spx_sweep_capsule_triangle(&beside, spx_v3(0, -3, 0), &t, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    return 0;
}

static int degenerate_capsule_is_sphere(void)
{
    spx_capsule c = { { { 0.3f, 2, -0.1f }, { 0.3f, 2, -0.1f } }, 0.4f };
    spx_sphere s = { { 0.3f, 2, -0.1f }, 0.4f };
    spx_obb box = unit_box();
    spx_sweep_hit hc, hs;
    TEST_ENSURE_CODE(spx_sweep_capsule_obb(&c, spx_v3(0.2f, -3, 0.1f), &box, still, 1.0f, &hc), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&s, spx_v3(0.2f, -3, 0.1f), &box, still, 1.0f, &hs), SPX_OK);
    TEST_ENSURE(hc.state == SPX_SWEEP_HIT && hs.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hc.time, hs.time, 1e-7);
    TEST_ENSURE_NEAR3(hc.normal, hs.normal.x, hs.normal.y, hs.normal.z, 1e-7);
    TEST_ENSURE_NEAR3(hc.point, hs.point.x, hs.point.y, hs.point.z, 1e-6);
    return 0;
}

static int start_overlap_and_penetration(void)
{ /* centre 0.1 m inside the top face: the box moves down by 0.1 + 0.25 to free it */
    spx_sphere a = { { 0, 0.9f, 0 }, 0.25f };
    spx_obb box = unit_box();
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&a, still, &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(h.time == 0.0f);
    TEST_ENSURE_NEAR(h.depth, 0.35, 1e-6);
    TEST_ENSURE_NEAR3(h.normal, 0, -1, 0, 1e-7);
    spx_penetration p;
    TEST_ENSURE_CODE(spx_penetration_sphere_obb(&a, &box, &p), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&p, 0.35, 1e-6));
    TEST_ENSURE_NEAR3(p.normal, 0, -1, 0, 1e-7);
    /* Cores apart, surfaces overlapping by 0.05: depth and the closest points' direction. */
    a.center.y = 1.2f;
    TEST_ENSURE_CODE(spx_penetration_sphere_obb(&a, &box, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && p.axis == 0);
    TEST_ENSURE_NEAR(p.depth, 0.05, 1e-6);
    /* Exactly touching counts, with depth 0; a hair apart does not. */
    a.center.y = 1.25f;
    bool ov;
    TEST_ENSURE_CODE(spx_overlap_sphere_obb(&a, &box, &ov), SPX_OK);
    TEST_ENSURE(ov);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&a, still, &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && h.depth == 0.0f);
    a.center.y = 1.2501f;
    TEST_ENSURE_CODE(spx_overlap_sphere_obb(&a, &box, &ov), SPX_OK);
    TEST_ENSURE(!ov);
    /* No motion, apart: a miss. */
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&a, still, &box, still, 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    /* A capsule through a triangle: the cores cross; depth is the way out along the normal plus the radius. */
    spx_capsule c = { { { 0.5f, -0.3f, 0.5f }, { 0.5f, 1, 0.5f } }, 0.1f };
    spx_triangle t = { { { 0, 0, 0 }, { 0, 0, 2 }, { 2, 0, 0 } } };
    TEST_ENSURE_CODE(spx_penetration_capsule_triangle(&c, &t, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && p.axis > 0);
    TEST_ENSURE_NEAR(p.depth, 0.4, 1e-6);
    TEST_ENSURE_NEAR3(p.normal, 0, -1, 0, 1e-7);
    return 0;
}

static int common_motion_and_offset(void)
{ /* the head-on spheres moved 1000 m off and both given 3 m/s along z: the same time, the point moving with them */
    spx_sphere a = { { 1000, 1000, 1000 }, 1 }, b = { { 1005, 1000, 1000 }, 1 };
    spx_sweep_hit h;
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&a, spx_v3(0, 0, 3), &b, spx_v3(-6, 0, 3), 1.0f, &h), SPX_OK);
    TEST_ENSURE(test_hit_is(&h, 0.5, 1e-7, NULL, 0, (const double[]){ 1001, 1000, 1001.5 }, 1e-4));
    return 0;
}

/* A capsule crossing a triangle's plane 6e-16 m from its end, just outside an edge that slides over
   the crossing point at 7.98e-12 s (the radius 6e-31 m): worked on from the other end, the crossing
   rounded past the segment's end and the first contact came at 0.324 s. The same answer, bit for
   bit, with the capsule's ends swapped. */
static int capsule_ends_swapped_crossing_near_an_end(void)
{
    const spx_capsule c = {
        { { -0x1.6849b8p-51f, -0x1.7cp+2f, -0x1.05224ep-34f }, { 0x1.3p+1f, 0x1.78p+2f, 0x1.78p+2f } }, 0x1.815da4p-101f
    };
    const spx_capsule d = { { c.p[1], c.p[0] }, c.radius };
    const float x = -0x1.815da4p-101f;
    const spx_triangle t = { { { x, -0x1.7cp+2f, x }, { x, x, 0 }, { x, -0x1.7cp+2f, 0x1.04p+2f } } };
    const spx_vec3 va = { x, x, 0x1.241114p-102f }, vb = { x, -0x1.dcp+2f, -0x1.dcp+2f };
    spx_sweep_hit h, g;
    TEST_ENSURE_CODE(spx_sweep_capsule_triangle(&c, va, &t, vb, 0x1.dcp+2f, &h), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_capsule_triangle(&d, va, &t, vb, 0x1.dcp+2f, &g), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT && g.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.time, 7.98e-12, 1e-14);
    TEST_ENSURE(g.time == h.time && g.point.x == h.point.x && g.point.y == h.point.y && g.point.z == h.point.z);
    TEST_ENSURE(g.normal.x == h.normal.x && g.normal.y == h.normal.y && g.normal.z == h.normal.z);
    return 0;
}

/* Next of a fixed-seed stream: a multiple of 1/16 in [-4, 4), now and then nudged by a few float
   steps (touches within rounding). */
static float stream(unsigned* state)
{
    *state = *state * 1664525u + 1013904223u;
    float f = (float)((int)(*state >> 20) % 128 - 64) / 16.0f;
    if (((*state >> 8) & 7) == 0) f = nextafterf(f, (*state & 16) ? INFINITY : -INFINITY);
    return f;
}

/* Two spheres or two capsules asked with A and B swapped, or with the capsules' ends swapped: the
   same state, time, point, depth and features bit for bit, the normal negated. 20,000 problems of
   each kind, at rest and moving, many touching or nearly. */
static int asked_two_ways_bit_for_bit(void)
{
    unsigned st = 12345u;
    for (int n = 0; n < 40000; ++n) {
        spx_capsule a, b;
        for (int k = 0; k < 2; ++k) {
            a.p[k] = spx_v3(stream(&st), stream(&st), stream(&st));
            b.p[k] = spx_v3(stream(&st), stream(&st), stream(&st));
        }
        a.radius = fabsf(stream(&st)) * 0.25f, b.radius = fabsf(stream(&st)) * 0.25f;
        const spx_vec3 va = spx_v3(stream(&st), stream(&st), 0), vb = spx_v3(0, stream(&st), stream(&st));
        const float tmax = n % 3 ? 2.0f : 0.0f;
        spx_sweep_hit h, g[2];
        bool o;
        spx_penetration e, f;
        if (n & 1) {
            const spx_capsule c = { { a.p[1], a.p[0] }, a.radius }, d = { { b.p[1], b.p[0] }, b.radius };
            TEST_ENSURE_CODE(spx_sweep_capsule_capsule(&a, va, &b, vb, tmax, &h), SPX_OK);
            TEST_ENSURE_CODE(spx_sweep_capsule_capsule(&b, vb, &a, va, tmax, &g[0]), SPX_OK);
            TEST_ENSURE_CODE(spx_sweep_capsule_capsule(&c, va, &d, vb, tmax, &g[1]), SPX_OK);
            TEST_ENSURE_CODE(spx_overlap_capsule_capsule(&b, &a, &o), SPX_OK);
            TEST_ENSURE_CODE(spx_penetration_capsule_capsule(&a, &b, &e), SPX_OK);
            TEST_ENSURE_CODE(spx_penetration_capsule_capsule(&b, &a, &f), SPX_OK);
        } else {
            const spx_sphere s = { a.p[0], a.radius }, t = { b.p[0], b.radius };
            TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&s, va, &t, vb, tmax, &h), SPX_OK);
            TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&t, vb, &s, va, tmax, &g[0]), SPX_OK);
            g[1] = h; /* a sphere has no ends */
            TEST_ENSURE_CODE(spx_overlap_sphere_sphere(&t, &s, &o), SPX_OK);
            TEST_ENSURE_CODE(spx_penetration_sphere_sphere(&s, &t, &e), SPX_OK);
            TEST_ENSURE_CODE(spx_penetration_sphere_sphere(&t, &s, &f), SPX_OK);
        }
        TEST_ENSURE(o == e.overlapping && o == f.overlapping);
        TEST_ENSURE(!o || (e.depth == f.depth && e.normal.x == -f.normal.x && e.normal.y == -f.normal.y &&
                           e.normal.z == -f.normal.z));
        TEST_ENSURE(o == (h.state == SPX_SWEEP_START_OVERLAP));
        for (int k = 0; k < 2; ++k) {
            const spx_sweep_hit* x = &g[k];
            const bool swapped = k == 0;
            TEST_ENSURE(x->state == h.state);
            if (h.state == SPX_SWEEP_MISS) continue;
            TEST_ENSURE(x->time == h.time && x->depth == h.depth);
            TEST_ENSURE(x->point.x == h.point.x && x->point.y == h.point.y && x->point.z == h.point.z);
            const float sign = swapped ? -1.0f : 1.0f;
            TEST_ENSURE(x->normal.x == sign * h.normal.x && x->normal.y == sign * h.normal.y &&
                        x->normal.z == sign * h.normal.z);
            TEST_ENSURE(swapped ? x->feature_a == h.feature_b && x->feature_b == h.feature_a
                                : x->feature_a == h.feature_a && x->feature_b == h.feature_b);
        }
    }
    return 0;
}

static int manifolds(void)
{
    spx_obb box = unit_box();
    spx_manifold m;
    /* A capsule resting 0.01 m into the top face: two points, one at each end, 0.01 deep. */
    spx_capsule c = { { { -0.5f, 1.49f, 0 }, { 0.5f, 1.49f, 0 } }, 0.5f };
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&c, &box, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR3(m.normal, 0, -1, 0, 1e-7);
    for (int i = 0; i < 2; ++i) {
        TEST_ENSURE_NEAR(m.points[i].depth, 0.01, 1e-6);
        TEST_ENSURE_NEAR(m.points[i].point.y, 0.995, 1e-6);
        TEST_ENSURE(m.points[i].id == (uint32_t)i);
    }
    TEST_ENSURE_NEAR(m.points[0].point.x, -0.5, 1e-6);
    TEST_ENSURE_NEAR(m.points[1].point.x, 0.5, 1e-6);
    /* Over the box's edge: clipped to the face, x in [0.5, 1]. */
    spx_capsule over = { { { 0.5f, 1.49f, 0 }, { 2, 1.49f, 0 } }, 0.5f };
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&over, &box, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR(m.points[1].point.x, 1.0, 1e-6);
    /* Tilted: the high end 0.2 m clear is a speculative point only within a margin. */
    spx_capsule tilted = { { { -0.5f, 1.49f, 0 }, { 0.5f, 1.70f, 0 } }, 0.5f };
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&tilted, &box, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1 && m.points[0].id == 0);
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&tilted, &box, 0.5f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR(m.points[1].depth, -0.2, 1e-5);
    /* Standing on its end: one point. */
    spx_capsule standing = { { { 0, 1.49f, 0 }, { 0, 3, 0 } }, 0.5f };
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&standing, &box, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1);
    TEST_ENSURE_NEAR(m.points[0].depth, 0.01, 1e-6);
    /* On a triangle, and on a parallel capsule: two points. */
    spx_triangle t = { { { -2, 0, -2 }, { -2, 0, 2 }, { 2, 0, 0 } } };
    spx_capsule lying = { { { -0.5f, 0.09f, 0 }, { 0.5f, 0.09f, 0 } }, 0.1f };
    TEST_ENSURE_CODE(spx_manifold_capsule_triangle(&lying, &t, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR(m.points[0].depth, 0.01, 1e-6);
    spx_capsule other = { { { -2, -0.1f, 0 }, { 0.2f, -0.1f, 0 } }, 0.1f };
    TEST_ENSURE_CODE(spx_manifold_capsule_capsule(&lying, &other, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR3(m.normal, 0, -1, 0, 1e-6);
    TEST_ENSURE_NEAR(m.points[0].point.x, -0.5, 1e-6);
    TEST_ENSURE_NEAR(m.points[1].point.x, 0.2, 1e-6);
    TEST_ENSURE_NEAR(m.points[1].depth, 0.01, 1e-6);
    /* Crossing capsules, a sphere: one point. */
    spx_capsule across = { { { 0, -0.1f, -1 }, { 0, -0.1f, 1 } }, 0.1f };
    TEST_ENSURE_CODE(spx_manifold_capsule_capsule(&lying, &across, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1 && m.points[0].id == 2);
    spx_sphere s = { { 0, 1.4f, 0 }, 0.5f };
    TEST_ENSURE_CODE(spx_manifold_sphere_obb(&s, &box, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1);
    TEST_ENSURE_NEAR(m.points[0].depth, 0.1, 1e-6);
    TEST_ENSURE_NEAR3(m.points[0].point, 0, 0.95, 0, 1e-6);
    /* Apart beyond the margin: none. */
    s.center.y = 1.6f;
    TEST_ENSURE_CODE(spx_manifold_sphere_obb(&s, &box, 0.05f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_sphere_obb(&s, &box, 0.2f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1);
    TEST_ENSURE_NEAR(m.points[0].depth, -0.1, 1e-6);
    return 0;
}

/* A capsule landing across another near one of its ends turns about the one point where they touch,
   and its ends come down onto the other: each end within the margin is a speculative point whose gap
   is the way it travels along the normal (-y) until it meets the other capsule grown by both radii
   (here y = sqrt(0.4^2 - z^2) over A's axis), the same either way round. */
static int crossing_capsule_ends(void)
{
    const spx_capsule a = { { { -1, 0, 0 }, { 1, 0, 0 } }, 0.2f };
    /* B level at y = 0.425, crossing A's axis at x = 0: the normal is y, the gap 0.025. */
    const spx_capsule b = { { { 0.5f, 0.425f, -0.3f }, { -0.4f, 0.425f, 0.24f } }, 0.2f };
    const double end_gap[2] = { 0.425 - sqrt(0.16 - 0.09), 0.425 - sqrt(0.16 - 0.0576) };
    for (int swap = 0; swap < 2; ++swap) {
        spx_manifold m;
        TEST_ENSURE_CODE(swap ? spx_manifold_capsule_capsule(&b, &a, 0.2f, &m)
                              : spx_manifold_capsule_capsule(&a, &b, 0.2f, &m),
                         SPX_OK);
        TEST_ENSURE(m.point_count == 3);
        TEST_ENSURE_NEAR3(m.normal, 0, swap ? -1 : 1, 0, 1e-6);
        TEST_ENSURE(m.points[0].id == 2);
        TEST_ENSURE_NEAR(m.points[0].depth, -0.025, 1e-6);
        for (int k = 0; k < 2; ++k) {
            const spx_manifold_point* q = &m.points[1 + k];
            /* B's end k: ids 3 and 4 with B second, 0 and 1 with B first. */
            TEST_ENSURE(q->id == (uint32_t)(swap ? k : 3 + k));
            TEST_ENSURE_NEAR(q->depth, -end_gap[k], 1e-5);
            TEST_ENSURE_NEAR(q->point.x, b.p[k].x, 1e-6);
            TEST_ENSURE_NEAR(q->point.y, b.p[k].y - 0.2 - 0.5 * end_gap[k], 1e-5);
        }
        /* Within a smaller margin only the nearer end. */
        TEST_ENSURE_CODE(swap ? spx_manifold_capsule_capsule(&b, &a, 0.13f, &m)
                              : spx_manifold_capsule_capsule(&a, &b, 0.13f, &m),
                         SPX_OK);
        TEST_ENSURE(m.point_count == 2);
        TEST_ENSURE_NEAR(m.points[1].depth, -end_gap[1], 1e-5);
    }
    return 0;
}

static int bad_input(void)
{
    spx_sphere s = { { 0, 0, 0 }, 1 }, nan_s = { { NAN, 0, 0 }, 1 }, neg = { { 0, 0, 0 }, -1 },
               far = { { 2e7f, 0, 0 }, 1 };
    spx_capsule c = { { { 0, 0, 0 }, { 1, 0, 0 } }, 1 };
    spx_obb box = unit_box(), bad_box = box;
    bad_box.half_extents.y = -1;
    spx_sweep_hit h;
    spx_penetration p;
    spx_manifold m;
    bool ov;
    TEST_ENSURE_CODE(spx_sphere_validate(NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sphere_validate(&nan_s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sphere_validate(&neg), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_sphere_validate(&far), SPX_ERR_OUT_OF_RANGE);
    spx_sphere big = { { 0, 0, 0 }, 2e7f }, inf_r = { { 0, 0, 0 }, INFINITY }, zero = { { 0, 0, 0 }, 0 };
    TEST_ENSURE_CODE(spx_sphere_validate(&big), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sphere_validate(&inf_r), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sphere_validate(&zero), SPX_OK);
    spx_capsule nan_c = c;
    nan_c.p[1].z = NAN;
    TEST_ENSURE_CODE(spx_capsule_validate(&nan_c), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(NULL, still, &s, still, 1, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_sphere_sphere(&s, still, &s, still, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&s, still, &box, still, -1, &h), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&s, spx_v3(NAN, 0, 0), &box, still, 1, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&s, spx_v3(2e7f, 0, 0), &box, still, 1, &h), SPX_ERR_OUT_OF_RANGE);
    /* The order of base.h: non-finite before out of range before a bad shape before the interval. */
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&neg, spx_v3(NAN, 0, 0), &box, still, -1, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&neg, still, &bad_box, spx_v3(3e7f, 0, 0), -1, &h), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&neg, still, &box, still, -1, &h), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_sweep_capsule_obb(&c, still, &bad_box, still, -1, &h), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_sweep_capsule_capsule(&nan_c, still, &c, still, 1, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_sphere_capsule(&far, still, &nan_c, still, 1, &h), SPX_ERR_NOT_FINITE);
    spx_triangle degenerate = { { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } } };
    TEST_ENSURE_CODE(spx_sweep_sphere_triangle(&s, still, &degenerate, still, 1, &h), SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_penetration_capsule_triangle(&c, &degenerate, &p), SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_overlap_capsule_obb(&c, &bad_box, &ov), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_overlap_sphere_sphere(&s, &s, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&c, &box, -1.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&c, &box, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&c, &box, 2e7f, &m), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_manifold_capsule_obb(&c, &bad_box, -1.0f, &m), SPX_ERR_BAD_EXTENT);
    /* Radius 0 is a point or a segment, and works. */
    TEST_ENSURE_CODE(spx_sweep_sphere_obb(&zero, still, &box, still, 1, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    return 0;
}

/* ---- mass properties ------------------------------------------------------------------------- */

/* A capsule of radius r about the segment [-L/2, L/2] on z, integrated slice by slice (Simpson's rule):
   a slice at z is a disc of radius rho(z), mass pi rho^2 dz, moment about z pi rho^4 / 2 dz, and
   across pi rho^4 / 4 dz + pi rho^2 z^2 dz. */
static void capsule_by_slices(double r, double L, double* mass, double* along, double* across)
{
    const int n = 20000;
    const double pi = 3.14159265358979323846, z0 = -L / 2 - r, dz = (L + 2 * r) / n;
    *mass = *along = *across = 0;
    for (int i = 0; i <= n; ++i) {
        double z = z0 + i * dz, out = fabs(z) - L / 2, rho2 = out > 0 ? fmax(0.0, r * r - out * out) : r * r;
        double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        *mass += w * pi * rho2;
        *along += w * pi * rho2 * rho2 / 2;
        *across += w * (pi * rho2 * rho2 / 4 + pi * rho2 * z * z);
    }
    *mass *= dz / 3;
    *along *= dz / 3;
    *across *= dz / 3;
}

static int mass_sphere_capsule(void)
{
    const double pi = 3.14159265358979323846;
    spx_mass_properties mp;
    spx_sphere s = { { 1, 2, 3 }, 0.5f };
    TEST_ENSURE_CODE(spx_mass_sphere(&s, 2.0f, &mp), SPX_OK);
    double m = 2.0 * 4.0 / 3.0 * pi * 0.125;
    TEST_ENSURE_NEAR(mp.mass, m, 1e-6 * m);
    TEST_ENSURE_NEAR3(mp.center, 1, 2, 3, 0);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            TEST_ENSURE_NEAR((&mp.inertia.col[i].x)[j], i == j ? 0.4 * m * 0.25 : 0.0, 1e-6 * m);
    /* Capsules of several proportions, along z, against the slices. */
    const float shapes[][2] = { { 0.5f, 2.0f }, { 1.0f, 0.1f }, { 0.1f, 3.0f }, { 0.3f, 0.0f } };
    for (int k = 0; k < 4; ++k) {
        double r = shapes[k][0], L = shapes[k][1], ms, along, across;
        capsule_by_slices(r, L, &ms, &along, &across);
        spx_capsule c = { { { 0, 0, (float)(-L / 2) }, { 0, 0, (float)(L / 2) } }, (float)r };
        TEST_ENSURE_CODE(spx_mass_capsule(&c, 1.0f, &mp), SPX_OK);
        TEST_ENSURE_NEAR(mp.mass, ms, 1e-6 * ms);
        TEST_ENSURE_NEAR(mp.volume, ms, 1e-6 * ms);
        TEST_ENSURE_NEAR(mp.inertia.col[2].z, along, 1e-6 * along);
        TEST_ENSURE_NEAR(mp.inertia.col[0].x, across, 1e-6 * across);
        TEST_ENSURE_NEAR(mp.inertia.col[1].y, across, 1e-6 * across);
        TEST_ENSURE_NEAR(mp.inertia.col[0].y, 0, 1e-6 * across);
    }
    /* Turned and moved: centre the middle; I u = I_along u along the segment, I w = I_across w across it. */
    double ms, along, across;
    capsule_by_slices(0.4, 1.5, &ms, &along, &across);
    const double u[3] = { 2.0 / 3.0, -1.0 / 3.0, 2.0 / 3.0 }, w[3] = { 1.0 / sqrt(2.0), 0, -1.0 / sqrt(2.0) };
    spx_capsule c = { { { (float)(5 - 0.75 * u[0]), (float)(-1 - 0.75 * u[1]), (float)(2 - 0.75 * u[2]) },
                        { (float)(5 + 0.75 * u[0]), (float)(-1 + 0.75 * u[1]), (float)(2 + 0.75 * u[2]) } },
                      0.4f };
    TEST_ENSURE_CODE(spx_mass_capsule(&c, 1.0f, &mp), SPX_OK);
    TEST_ENSURE_NEAR3(mp.center, 5, -1, 2, 1e-6);
    for (int i = 0; i < 3; ++i) {
        double Iu = 0, Iw = 0;
        for (int j = 0; j < 3; ++j) {
            Iu += (&mp.inertia.col[j].x)[i] * u[j];
            Iw += (&mp.inertia.col[j].x)[i] * w[j];
        }
        TEST_ENSURE_NEAR(Iu, along * u[i], 1e-5 * across);
        TEST_ENSURE_NEAR(Iw, across * w[i], 1e-5 * across);
    }
    /* Errors. */
    spx_sphere zero = { { 0, 0, 0 }, 0 }, nan_s = { { 0, NAN, 0 }, 1 };
    TEST_ENSURE_CODE(spx_mass_sphere(&zero, 1.0f, &mp), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_mass_sphere(&s, 0.0f, &mp), SPX_ERR_BAD_DENSITY);
    TEST_ENSURE_CODE(spx_mass_sphere(&s, NAN, &mp), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_sphere(&nan_s, -1.0f, &mp), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_sphere(NULL, 1.0f, &mp), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mass_capsule(&c, 1.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_sphere tiny = { { 0, 0, 0 }, 1e-20f };
    TEST_ENSURE_CODE(spx_mass_sphere(&tiny, 1.0f, &mp), SPX_ERR_MASS_OUT_OF_RANGE);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(spheres_head_on, failures);
    TEST_RUN(spheres_graze, failures);
    TEST_RUN(sphere_grazes_box_edge, failures);
    TEST_RUN(sphere_meets_box_corner, failures);
    TEST_RUN(capsule_lands_flat_on_box, failures);
    TEST_RUN(capsules_cross, failures);
    TEST_RUN(capsule_end_onto_triangle, failures);
    TEST_RUN(degenerate_capsule_is_sphere, failures);
    TEST_RUN(start_overlap_and_penetration, failures);
    TEST_RUN(common_motion_and_offset, failures);
    TEST_RUN(capsule_ends_swapped_crossing_near_an_end, failures);
    TEST_RUN(asked_two_ways_bit_for_bit, failures);
    TEST_RUN(manifolds, failures);
    TEST_RUN(crossing_capsule_ends, failures);
    TEST_RUN(bad_input, failures);
    TEST_RUN(mass_sphere_capsule, failures);
    return failures ? 1 : 0;
}
