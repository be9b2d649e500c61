/* Box-box contact manifolds: face contacts (clipping, reduction to 4), edge contacts, margins,
   swapped arguments, stable ids, bad input. Answers worked out by hand in the comments. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/pieces.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL 2e-5f

/* The slab under every resting test: top face at y = 0. */
static spx_obb floor_box(float half_x, float half_z)
{
    return test_box(spx_v3(0, -1, 0), spx_v3(half_x, 1, half_z), test_identity);
}

/* The manifold of a on b is four points along the normal (0, -1, 0) within normal_tol. */
static int four_points_down(const spx_obb* a, const spx_obb* b, float margin, double normal_tol, spx_manifold* m)
{
    TEST_ENSURE_CODE(spx_manifold_obb_obb(a, b, margin, m), SPX_OK);
    TEST_ENSURE(m->point_count == 4);
    TEST_ENSURE_NEAR(m->normal.y, -1, normal_tol);
    return 0;
}

/* Same points and depths, opposite normals. */
static int same_set_flipped(const spx_manifold* m, const spx_manifold* w)
{
    TEST_ENSURE(m->point_count == w->point_count);
    TEST_ENSURE_NEAR3(m->normal, -w->normal.x, -w->normal.y, -w->normal.z, TOL);
    for (int i = 0; i < w->point_count; ++i) {
        const spx_manifold_point* p = &w->points[i];
        TEST_ENSURE(test_manifold_has_point(m, p->point.x, p->point.y, p->point.z, p->depth, TOL));
    }
    return 0;
}

static int flat_box_resting_on_box(void)
{ /* Unit cube (half 0.5) 0.01 into the floor: bottom at y = -0.01, top of the floor at 0. The
       two y faces tie at separation -0.01; A's wins. Its 4 bottom corners at x = 0.1 -+ 0.5,
       z = -0.2 -+ 0.5 are the corners of the clip rectangle; midway height -0.005. */
    spx_obb a = test_box(spx_v3(0.1f, 0.49f, -0.2f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_obb b = floor_box(2, 2);
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    TEST_ENSURE_NEAR3(m.normal, 0, -1, 0, 0);
    TEST_ENSURE(test_manifold_has_point(&m, -0.4f, -0.005f, -0.7f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.6f, -0.005f, -0.7f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, -0.4f, -0.005f, 0.3f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.6f, -0.005f, 0.3f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_ids_distinct(&m));
    for (int i = 0; i < 4; ++i) {
        uint32_t id = m.points[i].id;
        TEST_ENSURE((id & 7u) == 2u + 1u); /* reference face: A's -y */
        TEST_ENSURE((id >> 3 & 1u) == 0u); /* reference box A */
        TEST_ENSURE((id >> 4 & 7u) == 2u); /* incident face: the floor's +y */
        TEST_ENSURE((id & (1u << 16)) == 0u);
    }

    /* Shifted by 1e-4 sideways and down: the same features, so the same ids for the same corners. */
    spx_obb a2 = a;
    a2.center.x += 1e-4f;
    a2.center.y -= 1e-4f;
    spx_manifold m2;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a2, &b, 0.0f, &m2), SPX_OK);
    TEST_ENSURE(m2.point_count == 4);
    for (int i = 0; i < 4; ++i) {
        const spx_manifold_point* p = &m.points[i];
        int found = 0;
        for (int j = 0; j < 4; ++j) {
            const spx_manifold_point* q = &m2.points[j];
            if (fabsf(q->point.x - p->point.x - 1e-4f) <= TOL && fabsf(q->point.z - p->point.z) <= TOL) {
                TEST_ENSURE(q->id == p->id);
                TEST_ENSURE_NEAR(q->depth, 0.0101f, TOL);
                found = 1;
            }
        }
        TEST_ENSURE(found);
    }
    return 0;
}

/* Two boxes of the same width resting face on face, one moved along a side of the face: the overlap
   is a rectangle two of whose sides run along both boxes' sides, and the manifold is its four
   corners, whichever face axis (x, y, z) the boxes meet along, whichever side axis the offset is on,
   whichever box comes first. Two incident edges then lie exactly on side planes of the reference
   face and cross no other plane: both corners of each such edge must stay, or the top box rests on
   a line. */
static int equal_faces_offset_along_a_side(void)
{
    const float offsets[] = { 1e-7f, 1e-5f, 0.05f, 0.3f, -0.3f, 0.45f };
    for (int k = 0; k < 3; ++k)                /* the axis the faces meet along */
        for (int side = 1; side < 3; ++side) { /* the offset's axis: k + 1 or k + 2 */
            const int j = (k + side) % 3, other = (k + 3 - side) % 3;
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o)
                for (int swap = 0; swap < 2; ++swap) {
                    float lower[3] = { 0, 0, 0 }, upper[3] = { 0, 0, 0 };
                    upper[k] = 0.999f; /* 1 mm into the lower box */
                    upper[j] = offsets[o];
                    const spx_obb lo =
                        test_box(spx_v3(lower[0], lower[1], lower[2]), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
                    const spx_obb up =
                        test_box(spx_v3(upper[0], upper[1], upper[2]), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
                    spx_manifold m;
                    TEST_ENSURE_CODE(spx_manifold_obb_obb(swap ? &up : &lo, swap ? &lo : &up, 0.0f, &m), SPX_OK);
                    if (m.point_count != 4) {
                        fprintf(stderr, "faces along %d, offset %g along %d, %s first: %d points\n", k,
                                (double)offsets[o], j, swap ? "upper" : "lower", m.point_count);
                        return 1;
                    }
                    /* The corners: the offset axis spans [offset - 0.5, 0.5] (or [-0.5, offset + 0.5]),
                       the other side axis [-0.5, 0.5]. */
                    const float lo_j = fmaxf(-0.5f, offsets[o] - 0.5f), hi_j = fminf(0.5f, offsets[o] + 0.5f);
                    float min_j = INFINITY, max_j = -INFINITY, min_o = INFINITY, max_o = -INFINITY;
                    for (int i = 0; i < 4; ++i) {
                        const float* p = &m.points[i].point.x;
                        min_j = fminf(min_j, p[j]), max_j = fmaxf(max_j, p[j]);
                        min_o = fminf(min_o, p[other]), max_o = fmaxf(max_o, p[other]);
                        TEST_ENSURE_NEAR(m.points[i].depth, 0.001f, TOL);
                    }
                    TEST_ENSURE_NEAR(min_j, lo_j, TOL);
                    TEST_ENSURE_NEAR(max_j, hi_j, TOL);
                    TEST_ENSURE_NEAR(min_o, -0.5f, TOL);
                    TEST_ENSURE_NEAR(max_o, 0.5f, TOL);
                }
        }
    return 0;
}

static int rotated_box_clips_to_octagon_reduced_to_four(void)
{ /* A (half 1) turned 45 degrees about y on a floor of half 1.2: the two squares |x|,|z| <= 1.2
       and |x| + |z| <= sqrt 2 meet in an octagon with corners (+-1.2, +-(sqrt2 - 1.2)) and
       (+-(sqrt2 - 1.2), +-1.2), all 0.01 deep. Four of them are kept: the first (deepest, tied),
       the farthest (its opposite), and one on each side of that diagonal, 1.219 from it:
       area 0.5 * 2.438 * 2 * 1.219 = 2.97 (octagon 3.82, best inscribed quad 2.97). */
    float h = sqrtf(0.5f);
    spx_obb a = test_box(spx_v3(0, 0.49f, 0), spx_v3(1, 0.5f, 1), test_rot(1, h, h));
    spx_obb b = floor_box(1.2f, 1.2f);
    spx_manifold m;
    TEST_ENSURE(four_points_down(&a, &b, 0.0f, 1e-6, &m) == 0);
    const float o = sqrtf(2.0f) - 1.2f;
    for (int i = 0; i < 4; ++i) {
        spx_vec3 p = m.points[i].point;
        TEST_ENSURE_NEAR(p.y, -0.005f, TOL);
        TEST_ENSURE_NEAR(m.points[i].depth, 0.01f, TOL);
        int on_x = fabsf(fabsf(p.x) - 1.2f) <= TOL && fabsf(fabsf(p.z) - o) <= TOL;
        int on_z = fabsf(fabsf(p.z) - 1.2f) <= TOL && fabsf(fabsf(p.x) - o) <= TOL;
        TEST_ENSURE(on_x || on_z);
    }
    TEST_ENSURE(test_manifold_ids_distinct(&m));
    /* Area they span: order them by angle about their centroid, then the shoelace formula. */
    float cx = 0.0f, cz = 0.0f, ang[4];
    for (int i = 0; i < 4; ++i) {
        cx += 0.25f * m.points[i].point.x;
        cz += 0.25f * m.points[i].point.z;
    }
    for (int i = 0; i < 4; ++i) ang[i] = atan2f(m.points[i].point.z - cz, m.points[i].point.x - cx);
    int order[4] = { 0, 1, 2, 3 };
    for (int i = 1; i < 4; ++i)
        for (int j = i; j > 0 && ang[order[j]] < ang[order[j - 1]]; --j) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    float area = 0.0f;
    for (int i = 0; i < 4; ++i) {
        spx_vec3 p = m.points[order[i]].point, q = m.points[order[(i + 1) % 4]].point;
        area += p.x * q.z - q.x * p.z;
    }
    TEST_ENSURE(fabsf(area) * 0.5f >= 2.96f);
    return 0;
}

static int crossed_edges_touch_at_one_point(void)
{ /* A long along x and turned 45 degrees about x: its lowest edge runs along x at y = -0.01,
       z = 0. B long along z and turned 45 degrees about z: its highest edge runs along z at
       y = +0.01, x = 0. Edge axis x cross z: separation |t_y| - 2 * 0.5 * sqrt2 = -0.02, far
       above every face axis. One point midway between (0, -0.01, 0) and (0, 0.01, 0). */
    float h = sqrtf(0.5f), r = 0.5f * sqrtf(2.0f);
    spx_obb a = test_box(spx_v3(0, r - 0.01f, 0), spx_v3(2, 0.5f, 0.5f), test_rot(0, h, h));
    spx_obb b = test_box(spx_v3(0, -r + 0.01f, 0), spx_v3(0.5f, 0.5f, 2), test_rot(2, h, h));
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1);
    TEST_ENSURE_NEAR3(m.normal, 0, -1, 0, 1e-6);
    TEST_ENSURE(test_manifold_has_point(&m, 0, 0, 0, 0.02f, TOL));
    TEST_ENSURE(m.points[0].id & (1u << 16));
    TEST_ENSURE((m.points[0].id & 3u) == 0u);      /* A's edge along its x axis */
    TEST_ENSURE((m.points[0].id >> 4 & 3u) == 2u); /* B's edge along its z axis */

    /* Moved 0.3 along both edges: the same features, the same id, the point moves with them. */
    spx_obb a2 = a, b2 = b;
    a2.center.z += 0.3f;
    b2.center.x += 0.3f;
    spx_manifold m2;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a2, &b2, 0.0f, &m2), SPX_OK);
    TEST_ENSURE(m2.point_count == 1);
    TEST_ENSURE(test_manifold_has_point(&m2, 0.3f, 0, 0.3f, 0.02f, TOL));
    TEST_ENSURE(m2.points[0].id == m.points[0].id);
    return 0;
}

static int box_tilted_on_an_edge_gives_two_points(void)
{ /* A (half 1, 0.5, 1) turned about z by the angle with cos 0.8, sin 0.6, centre y 0.99: its
       bottom corners (-1, -0.5, +-1) land at (-0.5, -0.01, +-1) and (1, -0.5, +-1) at
       (1.1, 1.19, +-1). The floor's face wins (-0.01 against -0.908 for A's y axis), so the
       floor is the reference and the normal (A to B) points down. */
    spx_obb a = test_box(spx_v3(0, 0.99f, 0), spx_v3(1, 0.5f, 1), test_rot(2, 0.8f, 0.6f));
    spx_obb b = floor_box(2, 2);
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, 0.05f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE_NEAR3(m.normal, 0, -1, 0, 1e-6);
    TEST_ENSURE(test_manifold_has_point(&m, -0.5f, -0.005f, 1, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, -0.5f, -0.005f, -1, 0.01f, TOL));
    TEST_ENSURE(test_manifold_ids_distinct(&m));
    for (int i = 0; i < 2; ++i) {
        TEST_ENSURE((m.points[i].id & 7u) == 2u);      /* the floor's +y face */
        TEST_ENSURE((m.points[i].id >> 3 & 1u) == 1u); /* reference box B */
        TEST_ENSURE((m.points[i].id >> 4 & 7u) == 3u); /* A's -y face */
        TEST_ENSURE((m.points[i].id >> 8) < 4u);       /* unclipped incident corners */
    }
    return 0;
}

static int margin_decides_speculative_points(void)
{ /* Cube 0.1 above the floor: nothing with margin 0.05; 0.02 above: 4 points, depth -0.02,
       midway at y = 0.01. */
    spx_obb b = floor_box(2, 2);
    spx_obb far = test_box(spx_v3(0, 0.6f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&far, &b, 0.05f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    spx_obb near = test_box(spx_v3(0, 0.52f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    TEST_ENSURE(four_points_down(&near, &b, 0.05f, 0, &m) == 0);
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sz = -1; sz <= 1; sz += 2)
            TEST_ENSURE(test_manifold_has_point(&m, 0.5f * sx, 0.01f, 0.5f * sz, -0.02f, TOL));
    /* Margin 0.01 < gap 0.02: nothing. */
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&near, &b, 0.01f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    /* The tilted box with a large margin keeps its high edge too: 1.19 above the floor. */
    spx_obb tilted = test_box(spx_v3(0, 0.99f, 0), spx_v3(1, 0.5f, 1), test_rot(2, 0.8f, 0.6f));
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&tilted, &b, 1.5f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    TEST_ENSURE(test_manifold_has_point(&m, 1.1f, 0.595f, 1, -1.19f, TOL));
    return 0;
}

static int swapped_arguments_flip_the_normal(void)
{
    float h = sqrtf(0.5f), r = 0.5f * sqrtf(2.0f);
    spx_obb cases[][2] = {
        { test_box(spx_v3(0.1f, 0.49f, -0.2f), spx_v3(0.5f, 0.5f, 0.5f), test_identity), floor_box(2, 2) },
        { test_box(spx_v3(0, 0.99f, 0), spx_v3(1, 0.5f, 1), test_rot(2, 0.8f, 0.6f)), floor_box(2, 2) },
        { test_box(spx_v3(0, r - 0.01f, 0), spx_v3(2, 0.5f, 0.5f), test_rot(0, h, h)),
          test_box(spx_v3(0, -r + 0.01f, 0), spx_v3(0.5f, 0.5f, 2), test_rot(2, h, h)) },
        { test_box(spx_v3(0, 0.52f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity), floor_box(2, 2) },
        /* a small box turned 30 degrees about y: 4 corners inside the floor's face */
        { test_box(spx_v3(0.3f, 0.29f, 0.1f), spx_v3(0.4f, 0.3f, 0.2f), test_rot(1, sqrtf(0.75f), 0.5f)),
          floor_box(2, 2) },
        /* a box standing on the floor from the side (normal along x) */
        { test_box(spx_v3(-2.49f, -1, 0.5f), spx_v3(0.5f, 0.5f, 0.5f), test_identity), floor_box(2, 2) },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        spx_manifold m, w;
        TEST_ENSURE_CODE(spx_manifold_obb_obb(&cases[i][0], &cases[i][1], 0.05f, &m), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_obb_obb(&cases[i][1], &cases[i][0], 0.05f, &w), SPX_OK);
        TEST_ENSURE(m.point_count > 0);
        if (same_set_flipped(&m, &w)) {
            fprintf(stderr, "case %zu\n", i);
            return 1;
        }
    }
    return 0;
}

static int nearly_parallel_edges_do_not_make_noise(void)
{ /* A turned 1e-4 rad about y: A's x and z edges are 1e-4 from the floor's (sin^2 = 1e-8, below
       the skip threshold). The answer is the face contact, finite and the right way up. */
    float s = 1e-4f, c = sqrtf(1.0f - s * s);
    spx_obb a = test_box(spx_v3(0, 0.49f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_rot(1, c, s));
    spx_obb b = floor_box(2, 2);
    spx_manifold m;
    TEST_ENSURE(four_points_down(&a, &b, 0.0f, 1e-6, &m) == 0);
    for (int i = 0; i < 4; ++i) {
        TEST_ENSURE(isfinite(m.points[i].point.x) && isfinite(m.points[i].point.y) && isfinite(m.points[i].point.z));
        TEST_ENSURE_NEAR(m.points[i].depth, 0.01f, TOL);
        TEST_ENSURE((m.points[i].id & (1u << 16)) == 0u);
    }
    /* Two long bars crossed at 1e-4 rad, edge on edge: no edge axis from rounding either. */
    spx_obb bar_a = test_box(spx_v3(0, 0.49f, 0), spx_v3(3, 0.5f, 0.5f), test_rot(1, c, s));
    spx_obb bar_b = test_box(spx_v3(0, -0.5f, 0), spx_v3(3, 0.5f, 0.5f), test_identity);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&bar_a, &bar_b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count >= 2);
    TEST_ENSURE_NEAR(m.normal.y, -1, 1e-6);
    for (int i = 0; i < m.point_count; ++i) TEST_ENSURE_NEAR(m.points[i].depth, 0.01f, TOL);
    return 0;
}

static int separated_pairs_leave_early_only_beyond_the_margin(void)
{ /* Separated along a face axis: the cube 0.3 above the floor. As (cube, floor) the floor's y
       axis (B's face) separates, as (floor, cube) A's; both leave with nothing for margin 0.2,
       and margin 0.35 keeps the 4 bottom corners at depth -0.3, midway at y = 0.15. */
    spx_obb b = floor_box(2, 2);
    spx_obb cube = test_box(spx_v3(0, 0.8f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&cube, &b, 0.2f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&b, &cube, 0.2f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&cube, &b, 0.35f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sz = -1; sz <= 1; sz += 2)
            TEST_ENSURE(test_manifold_has_point(&m, 0.5f * sx, 0.15f, 0.5f * sz, -0.3f, TOL));

    /* Separated along an edge axis only: the crossed bars of crossed_edges_touch_at_one_point
       moved 0.05 apart along y. A's lowest edge is at y = 0.04, B's highest at 0.01: 0.03 along
       x cross z. Every face axis still overlaps (A's y-z diagonals: 0.707 * 1.444 = 1.021 against
       0.5 + 1.914; B's likewise), so only the edge axes can tell the pair apart. */
    float h = sqrtf(0.5f), r = 0.5f * sqrtf(2.0f);
    spx_obb a = test_box(spx_v3(0, r + 0.04f, 0), spx_v3(2, 0.5f, 0.5f), test_rot(0, h, h));
    spx_obb c = test_box(spx_v3(0, -r + 0.01f, 0), spx_v3(0.5f, 0.5f, 2), test_rot(2, h, h));
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &c, 0.02f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&c, &a, 0.02f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &c, 0.05f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1);
    TEST_ENSURE(m.points[0].id & (1u << 16));
    TEST_ENSURE_NEAR(m.normal.y, -1, 1e-6);
    TEST_ENSURE(test_manifold_has_point(&m, 0, 0.025f, 0, -0.03f, TOL));
    spx_manifold w;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&c, &a, 0.05f, &w), SPX_OK);
    if (same_set_flipped(&m, &w)) return 1;

    /* A bad box far from the other still gets its code: validation comes before any exit. */
    spx_obb bad = cube;
    bad.center.y = 50.0f;
    bad.rotation.col[0].y = 1e-3f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&bad, &b, 0.0f, &m), SPX_ERR_NOT_ORTHONORMAL);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&b, &bad, 0.0f, &m), SPX_ERR_NOT_ORTHONORMAL);
    bad = cube;
    bad.center.y = 50.0f;
    bad.rotation.col[2].z = -1.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&b, &bad, 0.0f, &m), SPX_ERR_NOT_RIGHT_HANDED);
    return 0;
}

static int bad_input_gets_its_code(void)
{
    spx_obb a = test_box(spx_v3(0, 0.49f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_obb b = floor_box(2, 2);
    spx_manifold m, untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    m = untouched;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(NULL, &b, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, NULL, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, 0.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, INFINITY, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, -1e-3f, &m), SPX_ERR_INVALID_ARGUMENT);
    spx_obb bad = a;
    bad.center.y = NAN;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&bad, &b, 0.0f, &m), SPX_ERR_NOT_FINITE);
    bad = b;
    bad.rotation.col[2].x = INFINITY;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &bad, 0.0f, &m), SPX_ERR_NOT_FINITE);
    bad = a;
    bad.half_extents.z = 0.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&bad, &b, 0.0f, &m), SPX_ERR_BAD_EXTENT);
    bad = b;
    bad.half_extents.x = -1.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &bad, 0.0f, &m), SPX_ERR_BAD_EXTENT);
    bad = a;
    bad.rotation.col[0].y = 1e-3f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&bad, &b, 0.0f, &m), SPX_ERR_NOT_ORTHONORMAL);
    bad = b;
    bad.rotation.col[1].y = -1.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &bad, 0.0f, &m), SPX_ERR_NOT_RIGHT_HANDED);
    TEST_ENSURE(memcmp(&m, &untouched, sizeof m) == 0);
    /* Within the rotation tolerance is fine. */
    bad = a;
    bad.rotation.col[0].y = 2e-6f;
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&bad, &b, 0.0f, &m), SPX_OK);
    return 0;
}

/* Two boxes of a settling pile, the upper one tilted about 5 degrees onto an edge (taken from the
   falling scene): an edge axis 3 degrees from the face normals won by its slightly smaller depth and
   gave one point, on which the upper box rocked (columns of such boxes shuddered for ever). A face
   must be the reference, with the touching point and the speculative ones beside it. */
static int box_tilted_onto_a_box_gives_face_points(void)
{
    static const char* const hex[2][15] = {
        { "-0x1.c0f3ep+2", "0x1.ffea32p-2", "0x1.152442p+1", "0x1p-1", "0x1p-1", "0x1p-1", "0x1.028p-14",
          "-0x1.000002p+0", "-0x1.6cbp-13", "0x1.fb682p-1", "0x1.3d8p-15", "0x1.11b6ecp-3", "-0x1.11b6ecp-3",
          "-0x1.7abcp-13", "0x1.fb681ap-1" },
        { "-0x1.b823cep+2", "0x1.8b2a56p+0", "0x1.21ee56p+1", "0x1p-1", "0x1p-1", "0x1p-1", "-0x1.d8aae2p-1",
          "0x1.a7bb4p-7", "-0x1.895f8cp-2", "-0x1.88c0e4p-2", "-0x1.8aa73p-4", "0x1.d64324p-1", "-0x1.9bd5bp-6",
          "0x1.fd932cp-1", "0x1.80a68p-4" }
    };
    spx_obb box[2];
    for (int k = 0; k < 2; ++k) {
        float* f = &box[k].center.x;
        for (int i = 0; i < 15; ++i) f[i] = strtof(hex[k][i], NULL);
        TEST_ENSURE(spx_obb_validate(&box[k]) == SPX_OK);
    }
    spx_manifold m;
    TEST_ENSURE(spx_manifold_obb_obb(&box[0], &box[1], 0.04f, &m) == SPX_OK);
    TEST_ENSURE(m.point_count >= 2);
    TEST_ENSURE(m.normal.y > 0.99f);
    float deepest = -1.0f;
    for (int k = 0; k < m.point_count; ++k) {
        TEST_ENSURE(m.points[k].depth > -0.04f && m.points[k].depth < 0.002f);
        if (m.points[k].depth > deepest) deepest = m.points[k].depth;
    }
    TEST_ENSURE_NEAR(deepest, 0.00136f, 1e-4f);
    return 0;
}

/* A random rotation from an xorshift state (Shoemake's method), as a matrix. */
static spx_mat3 random_rotation(uint64_t* state)
{
    float u[3];
    for (int k = 0; k < 3; ++k) {
        *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
        u[k] = (float)(*state >> 40) / 16777216.0f;
    }
    const float a = sqrtf(1.0f - u[0]), b = sqrtf(u[0]), t1 = 6.2831853f * u[1], t2 = 6.2831853f * u[2];
    spx_quat q = { a * sinf(t1), a * cosf(t1), b * sinf(t2), b * cosf(t2) };
    spx_obb o;
    spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), q, &o);
    return o.rotation;
}

/* Whatever the contact, the manifold's normal is the least-overlap axis of the two boxes (that of
   spx_penetration_obb_obb), or within the 8 degrees by which an edge axis hands over to a nearby
   face, or an axis as shallow within the hysteresis between axes. Unit cubes at random
   orientations, B's centre in a random direction at the distance that makes them overlap by 1 to
   5 cm. A normal far off that axis gives points that part while the edges sink. */
static int normal_follows_the_least_overlap(void)
{
    uint64_t state = 0x2545F4914F6CDD1Dull;
    int checked = 0, off = 0;
    float worst = 1.0f;
    for (int trial = 0; trial < 20000; ++trial) {
        const spx_vec3 half = { 0.5f, 0.5f, 0.5f };
        spx_obb a = test_box(spx_v3(0, 0, 0), half, random_rotation(&state));
        spx_mat3 rb = random_rotation(&state);
        spx_vec3 dir = random_rotation(&state).col[0];
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        const float want = 0.01f + 0.04f * (float)(state >> 40) / 16777216.0f;
        /* Bisection on the distance for the overlap wanted (the depth falls as the distance grows). */
        float lo = 0.0f, hi = 2.0f;
        spx_penetration pen = { 0 };
        for (int it = 0; it < 40; ++it) {
            float mid = 0.5f * (lo + hi);
            spx_obb b = test_box(spx_v3(dir.x * mid, dir.y * mid, dir.z * mid), half, rb);
            TEST_ENSURE_CODE(spx_penetration_obb_obb(&a, &b, &pen), SPX_OK);
            if (pen.overlapping && pen.depth > want) lo = mid;
            else hi = mid;
        }
        spx_obb b = test_box(spx_v3(dir.x * lo, dir.y * lo, dir.z * lo), half, rb);
        TEST_ENSURE_CODE(spx_penetration_obb_obb(&a, &b, &pen), SPX_OK);
        if (!pen.overlapping || pen.depth < 0.005f) continue;
        spx_manifold m;
        TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, 0.0f, &m), SPX_OK);
        TEST_ENSURE(m.point_count > 0);
        float deepest = 0.0f;
        for (int k = 0; k < m.point_count; ++k)
            if (m.points[k].depth > deepest) deepest = m.points[k].depth;
        /* The penetration normal moves B out of A; the manifold's points from A to B: both A to B. */
        const float c = fabsf(m.normal.x * pen.normal.x + m.normal.y * pen.normal.y + m.normal.z * pen.normal.z);
        ++checked;
        if (c < 0.988f && deepest > pen.depth * 1.02f + 0.002f) {
            ++off;
            if (c < worst) worst = c;
        }
    }
    printf("%d overlapping pairs: %d with the normal off the least-overlap axis (worst cosine %.3f)\n", checked, off,
           worst);
    TEST_ENSURE(checked > 15000);
    TEST_ENSURE(off == 0);
    return 0;
}

static int plate_on_a_bar_at_nearly_parallel_edges(void)
{ /* A plate 4.1 m long, 4e-5 m wide, of any thickness down to subnormal, tilted 1.3e-3 rad about
       z and 2.6e-4 rad about y, sinks 4.4e-4 m into a bar crossing it. Its axis columns are
       orthonormal to 3e-7 (a product of rotations in float): projecting the plate on a near
       parallel edge axis by the orthonormal identity rather than on the axis itself misses its
       4.1 m length times that 3e-7 over the sine 1.3e-3, and the pair reads as separated. */
    const spx_mat3 turned = { { { 1.0f, -0.00128906243f, -0.000257812499f },
                                { 0.00128906243f, 1.0f, -3.90624989e-12f },
                                { 0.000257812499f, -3.90624989e-12f, 1.0f } } };
    const spx_mat3 bar_axes = { { { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 } } };
    const float c = -0.0263671875f, e = 2.06250006e-05f;
    const float thickness[] = { 1e-5f, 1e-12f, 1e-19f, 6.25000135e-40f };
    spx_obb bar = test_box(spx_v3(c, c, c), spx_v3(-c, -c, 1.8125f), bar_axes);
    for (int t = 0; t < 4; ++t) {
        spx_obb plate = test_box(spx_v3(e, e, e), spx_v3(2.0625f, e, thickness[t]), turned);
        for (int swap = 0; swap < 2; ++swap) {
            const spx_obb* a = swap ? &plate : &bar;
            const spx_obb* b = swap ? &bar : &plate;
            spx_penetration pen;
            spx_manifold m;
            TEST_ENSURE_CODE(spx_penetration_obb_obb(a, b, &pen), SPX_OK);
            TEST_ENSURE(pen.overlapping && pen.depth > 4e-4f);
            TEST_ENSURE_CODE(spx_manifold_obb_obb(a, b, 0.0f, &m), SPX_OK);
            TEST_ENSURE(m.point_count >= 1);
            /* Along the plate's normal, from A to B. */
            TEST_ENSURE_NEAR(fabsf(m.normal.z), 1.0f, 1e-6);
            TEST_ENSURE((m.normal.z > 0.0f) == (swap == 0));
            for (int i = 0; i < m.point_count; ++i) {
                TEST_ENSURE(isfinite(m.points[i].point.x) && isfinite(m.points[i].point.y) &&
                            isfinite(m.points[i].point.z));
                TEST_ENSURE(m.points[i].depth >= 0.0f && m.points[i].depth <= pen.depth * 1.01f);
            }
        }
    }
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(flat_box_resting_on_box, failures);
    TEST_RUN(equal_faces_offset_along_a_side, failures);
    TEST_RUN(rotated_box_clips_to_octagon_reduced_to_four, failures);
    TEST_RUN(crossed_edges_touch_at_one_point, failures);
    TEST_RUN(box_tilted_on_an_edge_gives_two_points, failures);
    TEST_RUN(margin_decides_speculative_points, failures);
    TEST_RUN(swapped_arguments_flip_the_normal, failures);
    TEST_RUN(nearly_parallel_edges_do_not_make_noise, failures);
    TEST_RUN(separated_pairs_leave_early_only_beyond_the_margin, failures);
    TEST_RUN(bad_input_gets_its_code, failures);
    TEST_RUN(box_tilted_onto_a_box_gives_face_points, failures);
    TEST_RUN(normal_follows_the_least_overlap, failures);
    TEST_RUN(plate_on_a_bar_at_nearly_parallel_edges, failures);
    return failures != 0;
}
