/* Box-triangle and triangle-triangle queries on cases worked out by hand. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/pieces.h"
#include <stdint.h>

static const spx_mat3 I3 = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

static int box_falls_on_triangle(void)
{ /* unit box 3 m above a large floor triangle, falling at 2 m/s: bottom face lands at t = 1.25 */
    spx_obb a = { { 0.2f, 3, -0.1f }, { 0.5f, 0.5f, 0.5f }, I3 };
    spx_triangle floor = { { { -10, 0, -10 }, { 10, 0, -10 }, { 0, 0, 10 } } };
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&a, spx_v3(0, -2, 0), &floor, spx_v3(0, 0, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 1.25, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.y, -1, 1e-6); /* from the box (A) down to the floor (B) */
    TEST_ENSURE(hit.feature_a == SPX_FEATURE_FACE && hit.feature_b == SPX_FEATURE_FACE);
    TEST_ENSURE_NEAR(hit.point.x, 0.2, 1e-6); /* the whole bottom face lies on the floor: its centre */
    TEST_ENSURE_NEAR(hit.point.y, 0.0, 1e-6);
    TEST_ENSURE_NEAR(hit.point.z, -0.1, 1e-6);
    /* the floor moving up instead: same time */
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&a, spx_v3(0, 0, 0), &floor, spx_v3(0, 2, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE_NEAR(hit.time, 1.25, 1e-6);
    TEST_ENSURE_NEAR(hit.point.y, 2.5, 1e-6);
    /* beside the triangle: miss */
    a.center.x = 30;
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&a, spx_v3(0, -2, 0), &floor, spx_v3(0, 0, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    return 0;
}

static int triangle_corner_into_box_face(void)
{ /* a vertical triangle whose lowest corner points at the box top */
    spx_obb a = { { 0, 0, 0 }, { 1, 1, 1 }, I3 };
    spx_triangle t = { { { 0.3f, 2, 0.4f }, { -0.5f, 4, 0.4f }, { 1, 4, 0.4f } } };
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&a, spx_v3(0, 0, 0), &t, spx_v3(0, -1, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 1.0, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.y, 1, 1e-6);
    TEST_ENSURE(hit.feature_b == SPX_FEATURE_VERTEX);
    TEST_ENSURE_NEAR3(hit.point, 0.3, 1.0, 0.4, 1e-6);
    bool o;
    TEST_ENSURE_CODE(spx_overlap_obb_triangle(&a, &t, &o), SPX_OK);
    TEST_ENSURE(!o);
    spx_penetration pen;
    t.v[0].y = 0.9f; /* dips 0.1 into the top face */
    TEST_ENSURE_CODE(spx_penetration_obb_triangle(&a, &t, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0.1, 1e-6));
    TEST_ENSURE_NEAR(pen.normal.y, 1, 1e-6);
    return 0;
}

static int coplanar_triangles_slide_together(void)
{ /* both in the plane z = 0; B slides along -x into A: the parallel-plane in-plane axes decide */
    spx_triangle a = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    spx_triangle b = { { { 3, 0.2f, 0 }, { 4, 0.2f, 0 }, { 3, 0.6f, 0 } } };
    spx_sweep_hit hit;
    /* A's hypotenuse x + y = 1; B's corner (3, 0.2) meets it when 3 - 2t + 0.2 = 1, t = 1.1 */
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &b, spx_v3(-2, 0, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 1.1, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.x, sqrtf(0.5f), 1e-6);
    TEST_ENSURE_NEAR(hit.normal.y, sqrtf(0.5f), 1e-6);
    TEST_ENSURE_NEAR(hit.point.x, 0.8, 1e-6);
    TEST_ENSURE_NEAR(hit.point.y, 0.2, 1e-6);
    /* the same 1e-3 above the plane: parallel planes, never touch */
    for (int k = 0; k < 3; ++k) b.v[k].z = 1e-3f;
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &b, spx_v3(-2, 0, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    return 0;
}

static int crossing_triangles_overlap(void)
{
    spx_triangle a = { { { -1, 0, -1 }, { 1, 0, -1 }, { 0, 0, 1 } } };
    spx_triangle b = { { { 0, -1, 0 }, { 0, 1, 0.2f }, { 0, 1, -0.2f } } };
    bool o;
    TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&a, &b, &o), SPX_OK);
    TEST_ENSURE(o);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &b, spx_v3(0, 1, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(hit.time == 0.0f);
    /* The minimum translation: moving B by slightly more than depth along the normal separates
       them, slightly less does not; and it is no longer than the obvious 1 m push along y. */
    TEST_ENSURE(hit.depth > 0.0f && hit.depth <= 1.0f + 1e-6f);
    for (int pass = 0; pass < 2; ++pass) {
        float k = hit.depth * (pass ? 1.001f : 0.999f);
        spx_triangle moved = b;
        for (int i = 0; i < 3; ++i) {
            moved.v[i].x += hit.normal.x * k;
            moved.v[i].y += hit.normal.y * k;
            moved.v[i].z += hit.normal.z * k;
        }
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&a, &moved, &o), SPX_OK);
        TEST_ENSURE(o == (pass == 0));
    }
    return 0;
}

static int segment_like_triangles(void)
{ /* A is a segment along x (three corners on a line), dropping onto B's face */
    spx_triangle a = { { { -1, 2, 0 }, { 0, 2, 0 }, { 1, 2, 0 } } };
    spx_triangle b = { { { -5, 0, -5 }, { 5, 0, -5 }, { 0, 0, 5 } } };
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, -1, 0), &b, spx_v3(0, 0, 0), 4.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 2.0, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.y, -1, 1e-6);
    TEST_ENSURE_NEAR(hit.point.x, 0.0, 1e-6);
    TEST_ENSURE_NEAR(hit.point.y, 0.0, 1e-6);
    /* two collinear segments closing along their line: 1 m gap at 2 m/s */
    spx_triangle c = { { { 2, 2, 0 }, { 3, 2, 0 }, { 4, 2, 0 } } };
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &c, spx_v3(-2, 0, 0), 4.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 0.5, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.x, 1, 1e-6);
    TEST_ENSURE_NEAR(hit.point.x, 1.0, 1e-6);
    /* parallel segments offset sideways, sliding along: never touch */
    spx_triangle d = { { { 2, 2.5f, 0 }, { 3, 2.5f, 0 }, { 4, 2.5f, 0 } } };
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &d, spx_v3(-2, 0, 0), 4.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    /* crossed segments in parallel planes closing: 1 m apart in z, 0.5 m/s */
    spx_triangle e = { { { 0, 1, 1 }, { 0, 2, 1 }, { 0, 3, 1 } } };
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &e, spx_v3(0, 0, -0.5f), 4.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 2.0, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.z, 1, 1e-6);
    TEST_ENSURE_NEAR(hit.point.x, 0.0, 1e-6);
    TEST_ENSURE_NEAR(hit.point.y, 2.0, 1e-6);
    return 0;
}

/* Collinear segments overlapping along their line touch: the least translation is zero, across the
   line, not the overlap along it. */
static int collinear_segments_touch(void)
{
    spx_triangle a = { { { 0, 0, 0 }, { 2, 0, 0 }, { 2, 0, 0 } } };
    spx_triangle b = { { { 1, 0, 0 }, { 3, 0, 0 }, { 3, 0, 0 } } };
    spx_penetration pen;
    TEST_ENSURE_CODE(spx_penetration_triangle_triangle(&a, &b, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0.0, 1e-12));
    TEST_ENSURE_NEAR(pen.normal.x, 0.0, 1e-6);
    TEST_ENSURE_CODE(spx_penetration_triangle_triangle(&b, &a, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0.0, 1e-12));
    return 0;
}

static uint32_t rng_state = 12345u;
static float grid(int steps, float step)
{ /* a multiple of step in [-steps, steps] * step */
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)((int)(rng_state >> 8) % (2 * steps + 1) - steps) * step;
}
/* Three of those, z first, then y, then x. */
static spx_vec3 grid3(int steps, float step)
{
    const float z = grid(steps, step), y = grid(steps, step);
    return spx_v3(grid(steps, step), y, z);
}
static spx_triangle grid_triangle(int steps, float step)
{
    spx_triangle t;
    for (int k = 0; k < 3; ++k) t.v[k] = grid3(steps, step);
    return t;
}
static spx_triangle scaled(const spx_triangle* t, int e)
{
    spx_triangle s;
    for (int k = 0; k < 3; ++k) s.v[k] = spx_v3(ldexpf(t->v[k].x, e), ldexpf(t->v[k].y, e), ldexpf(t->v[k].z, e));
    return s;
}

/* A pair scaled by a power of two is the same problem in other floats: every triangle the validator
   accepts, however small, gets the same state and normal and the depth and time scaled, or is
   refused as degenerate (SPX_TRIANGLE_MIN_EDGE) when its products of lengths would underflow. */
static int triangles_scaled_by_powers_of_two(void)
{
    static const int exps[] = { -20, -40, -56, -62, -80, -100, -110, -120, -126 };
    int compared = 0;
    for (int c = 0; c < 2000; ++c) {
        const spx_triangle a = grid_triangle(16, 1.0f / 16), b = grid_triangle(16, 1.0f / 16);
        const spx_vec3 v = grid3(16, 1.0f / 16);
        spx_penetration p1;
        spx_sweep_hit h1;
        if (spx_penetration_triangle_triangle(&a, &b, &p1) != SPX_OK) continue;
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &b, v, 1.0f, &h1), SPX_OK);
        for (size_t k = 0; k < sizeof exps / sizeof exps[0]; ++k) {
            const int e = exps[k];
            const spx_triangle as = scaled(&a, e), bs = scaled(&b, e);
            const spx_vec3 vs = spx_v3(ldexpf(v.x, e), ldexpf(v.y, e), ldexpf(v.z, e));
            spx_penetration p2, p3;
            spx_sweep_hit h2;
            const spx_result r = spx_penetration_triangle_triangle(&as, &bs, &p2);
            if (r == SPX_ERR_DEGENERATE_TRIANGLE) continue;
            TEST_ENSURE_CODE(r, SPX_OK);
            ++compared;
            TEST_ENSURE_CODE(spx_penetration_triangle_triangle(&bs, &as, &p3), SPX_OK);
            TEST_ENSURE(p2.overlapping == p1.overlapping && p3.overlapping == p1.overlapping);
            if (p1.overlapping) {
                TEST_ENSURE_NEAR3(p2.normal, p1.normal.x, p1.normal.y, p1.normal.z, 1e-5);
                TEST_ENSURE_NEAR(ldexp(p2.depth, -e), p1.depth, 1e-5);
                TEST_ENSURE_NEAR(ldexp(p3.depth, -e), p1.depth, 1e-5);
            }
            TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&as, spx_v3(0, 0, 0), &bs, vs, 1.0f, &h2), SPX_OK);
            TEST_ENSURE(h2.state == h1.state);
            TEST_ENSURE_NEAR(h2.time, h1.time, 1e-5);
        }
    }
    TEST_ENSURE(compared > 2000);
    return 0;
}

/* A small triangle near the origin and a large one with corners beside it: the small one's shape
   must not be rounded at the scale of the large one's first corner, so that swapping them keeps
   the answer (the normal negated). */
static int small_triangle_beside_a_large_one(void)
{
    int overlapping = 0;
    for (int c = 0; c < 3000; ++c) {
        const spx_triangle a0 = grid_triangle(8, 1.0f / 4), n0 = grid_triangle(8, 1.0f / 4);
        const spx_triangle a = scaled(&a0, -56), near = scaled(&n0, -56);
        spx_triangle b = grid_triangle(64, 1.0f / 16);
        b.v[1] = near.v[0]; /* corners at the small one's scale */
        if (c & 1) b.v[2] = near.v[1];
        spx_penetration ab, ba;
        if (spx_penetration_triangle_triangle(&a, &b, &ab) != SPX_OK) continue;
        TEST_ENSURE_CODE(spx_penetration_triangle_triangle(&b, &a, &ba), SPX_OK);
        bool o_ab, o_ba;
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&a, &b, &o_ab), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&b, &a, &o_ba), SPX_OK);
        TEST_ENSURE(o_ab == ab.overlapping && o_ba == ba.overlapping);
        TEST_ENSURE(ab.overlapping == ba.overlapping);
        if (!ab.overlapping) continue;
        ++overlapping;
        TEST_ENSURE_NEAR(ldexp(ba.depth, 56), ldexp(ab.depth, 56), 1e-5);
    }
    TEST_ENSURE(overlapping > 100);
    return 0;
}

/* Two segments within SPX_PARALLEL_SINE of parallel count as parallel; the line they are taken to
   share must be the same whichever is A, or their tilt (up to 1e-6 of their length) decides a
   near touch one way in one order and the other way swapped; and the sweep tests the axes of the
   pair at rest too, or it may start overlapping where the static test finds a gap. Long segments,
   tilted by up to 1.5e-6 of their length, offset across by a few tenths of that, at rest and moving. */
static int nearly_parallel_segments_swapped(void)
{
    int compared = 0, overlapping = 0;
    for (int c = 0; c < 4000; ++c) {
        const float len_a = 9.0f + grid(8, 1.0f), len_b = 9.0f + grid(8, 1.0f);
        const float start = grid(8, 1.0f);
        const float tilt = 5e-7f * len_b * (float)(1 + c % 3);
        const float across = grid(8, 1.0f) * 0.25f * tilt;
        spx_triangle a = { { { 0, 0, 0 }, { len_a, 0, 0 }, { len_a, 0, 0 } } };
        spx_triangle b = { { { start, across, 0 }, { start + len_b, across + tilt, 0 }, { start, across, 0 } } };
        if (c & 1) b.v[1].z = b.v[1].y, b.v[1].y = across; /* tilted out of the plane instead */
        const float vy = grid(4, 0.5f) * tilt, vx = grid(4, 0.5f);
        const spx_vec3 va = spx_v3(vx, vy, 0), vb = spx_v3(0, 0, grid(2, 0.5f) * tilt);
        spx_sweep_hit ab, ba;
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, va, &b, vb, 1.0f, &ab), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&b, vb, &a, va, 1.0f, &ba), SPX_OK);
        TEST_ENSURE(ab.state == ba.state);
        if (ab.state == SPX_SWEEP_HIT) TEST_ENSURE_NEAR(ab.time, ba.time, 1e-6);
        bool o_ab, o_ba;
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&a, &b, &o_ab), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&b, &a, &o_ba), SPX_OK);
        TEST_ENSURE(o_ab == o_ba);
        /* apart at rest is apart at the start of the sweep, and an overlap deeper than rounding is
           a start overlap */
        spx_penetration pen;
        TEST_ENSURE_CODE(spx_penetration_triangle_triangle(&a, &b, &pen), SPX_OK);
        TEST_ENSURE(pen.overlapping == o_ab);
        if (!o_ab) TEST_ENSURE(ab.state != SPX_SWEEP_START_OVERLAP);
        else if (pen.depth > 1e-6f * len_a) TEST_ENSURE(ab.state == SPX_SWEEP_START_OVERLAP);
        ++compared;
        overlapping += o_ab;
    }
    TEST_ENSURE(compared == 4000 && overlapping > 100);
    return 0;
}

/* A 1.75e7 m sliver in a plane and a segment within 1e-6 rad of parallel to it, a few metres apart
   across: the segment's tilt over that length reaches as far as the gap. Both orders and at rest or
   moving (tmax 0: the start alone) must agree. */
static int sliver_and_nearly_parallel_segment(void)
{
    const spx_triangle a = { { { -0x1.58p+2f, 0x1.9p+1f, -0x1p-4f },
                               { -0x1.38p+2f, 0x1.c9c38p+22f, -0x1p-4f },
                               { -0x1p-4f, -0x1.312dp+23f, -0x1p-4f } } };
    const spx_triangle bs[2] = {
        { { { -0x1.74p+2f, 0x1.312dp+23f, 0x1.390f4ep-124f },
            { 0, -0x1p-4f, -0x1p-4f },
            { -0x1p-4f, -0x1.312dp+23f, 0x1.64p+2f } } },
        { { { -0x1.74p+2f, 0x1.312dp+23f, -0x1.74p+2f },
            { -0x1p-4f, -0x1p-4f, -0x1p-4f },
            { -0x1p-4f, -0x1.38p+2f, -0x1p-4f } } },
    };
    const spx_vec3 vas[2] = { { -0x1.78p+2f, -0x1.78p+2f, 0x1.312dp+22f },
                              { -0x1.74p+2f, 0x1.312dp+23f, -0x1.74p+2f } };
    const spx_vec3 vbs[2] = { { 0, 0, 0 }, { -0x1.312dp+23f, 0, 0 } };
    for (int k = 0; k < 2; ++k) {
        bool ab, ba;
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&a, &bs[k], &ab), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&bs[k], &a, &ba), SPX_OK);
        TEST_ENSURE(ab == ba);
        spx_sweep_hit h_ab, h_ba;
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, vas[k], &bs[k], vbs[k], 0.0f, &h_ab), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&bs[k], vbs[k], &a, vas[k], 0.0f, &h_ba), SPX_OK);
        TEST_ENSURE(h_ab.state == h_ba.state);
        TEST_ENSURE(ab == (h_ab.state == SPX_SWEEP_START_OVERLAP));
    }
    return 0;
}

/* Segment-like triangles of comparable size (2 to 10 m) whose ends meet within rounding of their
   coordinates (8e-31 m and 3e-23 m apart near the world origin): a touch either answer may call, but
   the same in both argument orders. Worked on relative to each order's own A, the two roundings
   decided it differently. */
static int segment_ends_touching_within_rounding_swapped(void)
{
    const spx_triangle pairs[2][2] = {
        { { { { 0x1.8cp+2f, 0x1.fcp-6f, 0x1.cp+2f },
              { 0x1.ee9c86p-101f, -0x1.7p+0f, -0x1.f8p+1f },
              { 0x1.ee9c86p-101f, -0x1.7p+0f, -0x1.f8p+1f } } },
          { { { -0x1.2687e6p-107f, -0x1.7p+0f, -0x1.f8p+1f },
              { 0x1.fcp-6f, 0x1.98p+2f, 0x1.b8p+2f },
              { -0x1.2687e6p-107f, -0x1.7p+0f, -0x1.f8p+1f } } } },
        { { { { -0x1.cb37d6p-1f, -0x1.4af5a8p-1f, 0x1.3a504p-6f },
              { -0x1.cb37d6p-1f, -0x1.4af5a8p-1f, 0x1.3a504p-6f },
              { -0x1.177a8ap-77f, -0x1.336d3p-75f, -0x1.c7725ep-78f } } },
          { { { 0, 0x1.1cp+2f, 0 }, { 0, 0x1.1cp+2f, 0 }, { -0x1.cda418p-97f, 0, 0 } } } },
    };
    for (int k = 0; k < 2; ++k) {
        const spx_triangle *a = &pairs[k][0], *b = &pairs[k][1];
        bool ab, ba;
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(a, b, &ab), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_triangle_triangle(b, a, &ba), SPX_OK);
        TEST_ENSURE(ab == ba);
        spx_penetration p_ab, p_ba;
        TEST_ENSURE_CODE(spx_penetration_triangle_triangle(a, b, &p_ab), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_triangle_triangle(b, a, &p_ba), SPX_OK);
        TEST_ENSURE(p_ab.overlapping == ab && p_ba.overlapping == ab);
        spx_sweep_hit h_ab, h_ba;
        const spx_vec3 still = { 0, 0, 0 };
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(a, still, b, still, 0.0f, &h_ab), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_triangle_triangle(b, still, a, still, 0.0f, &h_ba), SPX_OK);
        TEST_ENSURE(h_ab.state == h_ba.state && ab == (h_ab.state == SPX_SWEEP_START_OVERLAP));
    }
    return 0;
}

/* Corner meeting corner head on: two triangles whose tips lie on the x axis, 2 m apart, closing at
   2 m/s. Every axis on which both tips are extreme enters at t = 1; the normal is the one along the
   motion, (1, 0, 0), negated swapped. The first axis to enter (A's face, mostly along z) named it,
   and swapped another: an impulse along either barely slows the approach. */
static int corners_meet_head_on(void)
{
    const spx_triangle a = { { { 0, 0, 0 }, { -1, 1, 0.25f }, { -1, -1, 0.5f } } };
    const spx_triangle b = { { { 2, 0, 0 }, { 3, 1, -0.25f }, { 3, -1, 0.75f } } };
    const spx_vec3 still = { 0, 0, 0 }, left = { -2, 0, 0 };
    spx_sweep_hit ab, ba;
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, still, &b, left, 2.0f, &ab), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&b, left, &a, still, 2.0f, &ba), SPX_OK);
    TEST_ENSURE(ab.state == SPX_SWEEP_HIT && ba.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(ab.time, 1.0f, 1e-6);
    TEST_ENSURE_NEAR(ba.time, 1.0f, 1e-6);
    TEST_ENSURE_NEAR(ab.normal.x, 1.0f, 1e-6);
    TEST_ENSURE_NEAR(ba.normal.x, -1.0f, 1e-6);
    TEST_ENSURE_NEAR3(ab.point, 0.0f, 0.0f, 0.0f, 1e-6);
    return 0;
}

static int bad_input(void)
{
    spx_triangle a = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } }, pt = { { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } } };
    spx_obb box = { { 0, 0, 0 }, { 1, 1, 1 }, I3 };
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&a, spx_v3(0, 0, 0), &pt, spx_v3(0, 0, 0), 1, &hit),
                     SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&box, spx_v3(0, 0, 0), &pt, spx_v3(0, 0, 0), 1, &hit),
                     SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&box, spx_v3(0, 0, 0), &a, spx_v3(0, 0, 0), -1, &hit), SPX_ERR_BAD_TIME);
    a.v[1].z = NAN;
    bool o;
    TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&a, &a, &o), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_overlap_obb_triangle(&box, NULL, &o), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(box_falls_on_triangle, failures);
    TEST_RUN(triangle_corner_into_box_face, failures);
    TEST_RUN(coplanar_triangles_slide_together, failures);
    TEST_RUN(crossing_triangles_overlap, failures);
    TEST_RUN(segment_like_triangles, failures);
    TEST_RUN(collinear_segments_touch, failures);
    TEST_RUN(triangles_scaled_by_powers_of_two, failures);
    TEST_RUN(small_triangle_beside_a_large_one, failures);
    TEST_RUN(nearly_parallel_segments_swapped, failures);
    TEST_RUN(sliver_and_nearly_parallel_segment, failures);
    TEST_RUN(segment_ends_touching_within_rounding_swapped, failures);
    TEST_RUN(corners_meet_head_on, failures);
    TEST_RUN(bad_input, failures);
    return failures ? 1 : 0;
}
