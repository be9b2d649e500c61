/* Box-triangle contact manifolds: face contacts both ways, edge contacts, margins, stable ids,
   agreement with spx_penetration_obb_triangle, bad input; the surface-edge rule on single
   triangles. Answers worked out by hand in the comments. */
#include <sepax/sepax.h>
#include <math.h>
#include <stdio.h>
#include "collide/manifold_mesh.h"
#include "support/cases.h"
#include "support/shapes.h"
#include "support/test.h"
#include "support/pieces.h"

#define TOL 2e-5f

static bool long_run; /* --long: the slides over every place of their paths */

static spx_mat3 rot_angle(int axis, double angle) { return test_rot(axis, (float)cos(angle), (float)sin(angle)); }

/* The big level triangle y = 0 under every resting test, wound counter-clockwise from above. */
static spx_triangle floor_tri(void) { return test_tri(spx_v3(-10, 0, 10), spx_v3(10, 0, 10), spx_v3(0, 0, -10)); }

static const spx_triangle_edges all_open = { { SPX_EDGE_OPEN, SPX_EDGE_OPEN, SPX_EDGE_OPEN }, 7 };
static const spx_triangle_edges all_flat = { { 0.0f, 0.0f, 0.0f }, 0 };

static int has_id(const spx_manifold* m, uint32_t id)
{
    for (int i = 0; i < m->point_count; ++i)
        if (m->points[i].id == id) return 1;
    return 0;
}

static int normal_is(const spx_manifold* m, float x, float y, float z)
{
    TEST_ENSURE_NEAR3(m->normal, x, y, z, TOL);
    return 0;
}

/* The manifold of a and b at margin 0 is one point near (x, y, z) at `depth` with id `id`, along
   the normal (0, -1, 0). */
static int one_point_below(const spx_obb* a, const spx_triangle* b, float x, float y, float z, float depth, uint32_t id)
{
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(a, b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 1);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    TEST_ENSURE(test_manifold_has_point(&m, x, y, z, depth, TOL));
    TEST_ENSURE(m.points[0].id == id);
    return 0;
}

/* ---- hand-worked contacts ---------------------------------------------------------------------- */

static int box_resting_flat_on_a_big_triangle(void)
{ /* Unit cube 0.01 into the level triangle: bottom at y = -0.01. The triangle's face and the box's
       bottom tie at -0.01 and the triangle's face is preferred: the bottom face is clipped by the
       triangle's sides and lies wholly inside, so its 4 corners are the points, midway at -0.005,
       named by the box corners with bit 1 (y) clear: 0, 1, 4, 5. Normal from the box down. */
    spx_obb a = test_box(spx_v3(0.1f, 0.49f, -0.2f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_triangle b = floor_tri();
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    TEST_ENSURE(test_manifold_has_point(&m, -0.4f, -0.005f, -0.7f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.6f, -0.005f, -0.7f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, -0.4f, -0.005f, 0.3f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.6f, -0.005f, 0.3f, 0.01f, TOL));
    TEST_ENSURE(has_id(&m, 0) && has_id(&m, 1) && has_id(&m, 4) && has_id(&m, 5));

    /* Nudged frame after frame (sideways, down, a turn about the vertical): the same corners, the
       same ids. */
    for (int frame = 1; frame <= 20; ++frame) {
        spx_obb a2 = a;
        a2.center.x += 1e-4f * frame;
        a2.center.z -= 5e-5f * frame;
        a2.center.y -= 2e-5f * (frame % 3);
        a2.rotation = rot_angle(1, 1e-3 * frame);
        spx_manifold m2;
        TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a2, &b, 0.0f, &m2), SPX_OK);
        TEST_ENSURE(m2.point_count == 4);
        TEST_ENSURE(has_id(&m2, 0) && has_id(&m2, 1) && has_id(&m2, 4) && has_id(&m2, 5));
        for (int i = 0; i < 4; ++i) TEST_ENSURE_NEAR(m2.points[i].depth, 0.01f + 2e-5f * (frame % 3), TOL);
    }
    return 0;
}

/* A rotation that turns box corner 7 (+,+,+) straight down: axis i is -y/sqrt3 plus sqrt(2/3) of the
   horizontal direction at 120 i degrees (the three are orthonormal), ordered right-handed. */
static spx_mat3 corner_down(void)
{
    spx_mat3 m;
    const double r = sqrt(2.0 / 3.0), y = -1.0 / sqrt(3.0);
    for (int i = 0; i < 3; ++i) {
        double t = 2.0943951023931953 * i;
        m.col[i] = spx_v3((float)(r * cos(t)), (float)y, (float)(r * sin(t)));
    }
    return m;
}

static int box_corner_into_the_face(void)
{ /* Corner 7 of a unit cube points down, 0.02 into the level triangle: the triangle's face is the
       reference, the incident face (+x, the first of three tied) has only that corner within a zero
       margin: one point at (cx, -0.01, cz), depth 0.02, id 7. The corner is sqrt3/2 below the
       centre. */
    spx_mat3 r = corner_down();
    TEST_ENSURE_CODE(spx_obb_validate(&(spx_obb){ { 0, 0, 0 }, { 1, 1, 1 }, r }), SPX_OK);
    const float cy = (float)(sqrt(3.0) / 2.0) - 0.02f;
    spx_obb a = test_box(spx_v3(0.3f, cy, 0.2f), spx_v3(0.5f, 0.5f, 0.5f), r);
    spx_triangle b = floor_tri();
    spx_manifold m;
    TEST_ENSURE(one_point_below(&a, &b, 0.3f, -0.01f, 0.2f, 0.02f, 7u) == 0);
    /* A margin of 1 m adds the face's two corners next to the tip as speculative points, 1/sqrt3
       above it (gap 0.5774 - 0.02; ids 3 and 5); the fourth is 2/sqrt3 up, beyond the margin. */
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 1.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 3);
    TEST_ENSURE(has_id(&m, 7) && has_id(&m, 3) && has_id(&m, 5));
    for (int i = 0; i < 3; ++i)
        if (m.points[i].id != 7u) TEST_ENSURE_NEAR(m.points[i].depth, 0.02 - 1.0 / sqrt(3.0), TOL);
    return 0;
}

static int box_edge_across_a_triangle_edge(void)
{ /* A unit cube turned 45 degrees about x rests on its bottom edge (along x) at y = -0.01, across
       the top edge (along z, y = 0) of a triangle standing in the plane x = 0. Edge contact: normal
       x cross z = -y (box towards triangle), one point midway at (0, -0.005, 0), depth 0.01. The box
       edge: along axis 0, on the - side of box axis 1 (0, c, s) and the + side of axis 2 (0, -s, c),
       so e = 0 + 0 + 2 = 2; triangle edge 0: id 26 + 3 * 2 + 0 = 32. */
    const float h = (float)sqrt(0.5);
    spx_obb a = test_box(spx_v3(0, h - 0.01f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_rot(0, h, h));
    spx_triangle b = test_tri(spx_v3(0, 0, -1), spx_v3(0, 0, 1), spx_v3(0, -2, 0));
    TEST_ENSURE(one_point_below(&a, &b, 0, -0.005f, 0, 0.01f, 32u) == 0);
    /* The other winding is the same triangle to a two-sided query: same point, normal and depth; the
       top edge is still edge 0, run the other way, so the id is the same. */
    spx_triangle w = test_tri(b.v[1], b.v[0], b.v[2]);
    TEST_ENSURE(one_point_below(&a, &w, 0, -0.005f, 0, 0.01f, 32u) == 0);
    return 0;
}

static int triangle_poking_into_a_box_face(void)
{ /* A standing triangle's top corner 0.01 into the bottom face (y = -0.5) of an axis-aligned unit
       cube: the box's -y face is the reference (f = 3), one point: the corner moved halfway to the
       face, depth 0.01, id 8 + 3 * 3 + 2 = 19. */
    spx_obb a = test_box(spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_triangle b = test_tri(spx_v3(-1.0f, -3.0f, 0.0f), spx_v3(1.0f, -3.0f, 0.3f), spx_v3(0.1f, -0.49f, 0.05f));
    TEST_ENSURE(one_point_below(&a, &b, 0.1f, -0.495f, 0.05f, 0.01f, 19u) == 0);
    /* The box moved around the triangle instead (the pair seen from the other side): the cube above
       the apex turned upside down is the same problem with the +y face as reference: f = 2, id 16. */
    spx_obb flipped = test_box(spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), test_rot(2, -1, 0));
    TEST_ENSURE(one_point_below(&flipped, &b, 0.1f, -0.495f, 0.05f, 0.01f, 16u) == 0);
    return 0;
}

/* A unit box resting 1 mm deep on a unit square of two triangles (split along a diagonal), moved
   along x or along z: each triangle's manifold holds every corner of its part of the box's
   footprint (3 or 4 corners, so at least 3 points), and together they hold the footprint's four
   corners, whichever axis the offset is on and either winding. Box edges there lie exactly on the
   triangles' outer sides, and triangle corners exactly on the box's sides: a corner where such an
   edge crosses another side plane was counted by neither rule, and an offset along z left a corner
   of the footprint without a point (along x, one triangle gave two points). */
static int box_moved_along_a_side_of_a_square(void)
{
    const float offsets[] = { 1e-6f, 0.05f, 0.3f, -0.3f, 0.45f };
    const spx_vec3 c[4] = { spx_v3(-0.5f, 0, -0.5f), spx_v3(-0.5f, 0, 0.5f), spx_v3(0.5f, 0, 0.5f),
                            spx_v3(0.5f, 0, -0.5f) };
    for (int axis = 0; axis < 2; ++axis)
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o)
            for (int wind = 0; wind < 2; ++wind) {
                const float ox = axis ? 0.0f : offsets[o], oz = axis ? offsets[o] : 0.0f;
                const spx_obb box = test_box(spx_v3(ox, 0.499f, oz), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
                const spx_triangle t[2] = { wind ? test_tri(c[0], c[2], c[1]) : test_tri(c[0], c[1], c[2]),
                                            wind ? test_tri(c[0], c[3], c[2]) : test_tri(c[0], c[2], c[3]) };
                spx_manifold m[2];
                for (int i = 0; i < 2; ++i) {
                    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&box, &t[i], 0.0f, &m[i]), SPX_OK);
                    if (m[i].point_count < 3) {
                        fprintf(stderr, "offset %g along %c, winding %d: triangle %d gave %d points\n",
                                (double)offsets[o], axis ? 'z' : 'x', wind, i, m[i].point_count);
                        return 1;
                    }
                    TEST_ENSURE(normal_is(&m[i], 0, -1, 0) == 0);
                }
                const float x0 = fmaxf(-0.5f, ox - 0.5f), x1 = fminf(0.5f, ox + 0.5f);
                const float z0 = fmaxf(-0.5f, oz - 0.5f), z1 = fminf(0.5f, oz + 0.5f);
                const float corner[4][2] = { { x0, z0 }, { x0, z1 }, { x1, z1 }, { x1, z0 } };
                for (int k = 0; k < 4; ++k) {
                    bool found = false;
                    for (int i = 0; i < 2; ++i)
                        for (int j = 0; j < m[i].point_count; ++j)
                            found |= fabsf(m[i].points[j].point.x - corner[k][0]) <= TOL &&
                                     fabsf(m[i].points[j].point.z - corner[k][1]) <= TOL;
                    if (!found) {
                        fprintf(stderr, "offset %g along %c, winding %d: no point at the corner (%g, %g)\n",
                                (double)offsets[o], axis ? 'z' : 'x', wind, (double)corner[k][0], (double)corner[k][1]);
                        return 1;
                    }
                }
            }
    return 0;
}

static int small_triangle_under_a_box_face(void)
{ /* A small level triangle wholly under the bottom of a larger box, 0.02 up into it: the two faces
       tie and the triangle's is the reference; the box's bottom covers the triangle, so the points are
       the triangle's three corners (ids 8 + 3 * 3 + k, incident face -y), at depth 0.02. */
    spx_obb a = test_box(spx_v3(0, 1.0f - 0.02f, 0), spx_v3(1, 1, 1), test_identity);
    spx_triangle b = test_tri(spx_v3(-0.3f, 0, 0.2f), spx_v3(0.4f, 0, 0.1f), spx_v3(0, 0, -0.5f));
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 3);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    TEST_ENSURE(test_manifold_has_point(&m, -0.3f, -0.01f, 0.2f, 0.02f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.4f, -0.01f, 0.1f, 0.02f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0, -0.01f, -0.5f, 0.02f, TOL));
    TEST_ENSURE(has_id(&m, 17) && has_id(&m, 18) && has_id(&m, 19));
    return 0;
}

static int clipped_polygon_is_cut_to_four(void)
{ /* A triangle whose corners stick out past three sides of a box's bottom (half 1): the overlap is
       a hexagon or more; 4 points are kept, the deepest among them, all distinct. The bottom is level
       and the triangle tilted, so depths differ. */
    spx_obb a = test_box(spx_v3(0, 1.0f, 0), spx_v3(1, 1, 1), test_identity);
    spx_triangle b = test_tri(spx_v3(-2.0f, 0.05f, 1.2f), spx_v3(2.0f, 0.02f, 1.2f), spx_v3(0.0f, -0.04f, -2.5f));
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.1f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    TEST_ENSURE(test_manifold_ids_distinct(&m));
    TEST_ENSURE(m.normal.y < -0.99f);
    /* The triangle's plane is highest at its corner (-2, 0.05, 1.2) and lowest at (0, -0.04, -2.5), so
       the overlap is deepest along z = 1, where the bottom corners (-+1, 0, 1) (ids 4, 5) lie inside
       the triangle; at z = -1 its sides cut the bottom at |x| = 0.81 (4 crossings, the two under
       z = -1 on the bottom's edge along x, ids 26 + 3 * 0 + j). The deepest, the farthest from it and
       the two spanning the most area: corners 4 and 5 and the crossings on z = -1. */
    int corners = 0, crossings = 0;
    for (int i = 0; i < 4; ++i) {
        corners += m.points[i].id == 4u || m.points[i].id == 5u;
        crossings += (m.points[i].id == 27u || m.points[i].id == 28u) && fabsf(m.points[i].point.z + 1.0f) <= 1e-3f;
    }
    TEST_ENSURE(crossings == 2);
    TEST_ENSURE(corners == 2);
    return 0;
}

static int margins_decide_speculative_points(void)
{ /* The unit cube 0.05 above the level triangle: beyond a margin of 0.04 nothing, within 0.06 the
       four bottom corners with depth -0.05, midway at y = 0.025. */
    spx_obb a = test_box(spx_v3(0, 0.55f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_triangle b = floor_tri();
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.04f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.06f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    TEST_ENSURE(test_manifold_has_point(&m, 0.5f, 0.025f, 0.5f, -0.05f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, -0.5f, 0.025f, -0.5f, -0.05f, TOL));
    /* Beside the triangle instead (0.05 past its edge at z = 10, level with it): the box's -z face is
       the reference, and the triangle's edge crosses its sides at x = -+0.5: two points 0.05 apart. */
    spx_obb s = test_box(spx_v3(0, 0, 10.55f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&s, &b, 0.04f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&s, &b, 0.06f, &m), SPX_OK);
    TEST_ENSURE(m.point_count > 0);
    TEST_ENSURE(normal_is(&m, 0, 0, -1) == 0);
    TEST_ENSURE(m.point_count == 2);
    TEST_ENSURE(test_manifold_has_point(&m, -0.5f, 0.0f, 10.025f, -0.05f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.5f, 0.0f, 10.025f, -0.05f, TOL));
    return 0;
}

/* ---- surface edges on one triangle --------------------------------------------------------------- */

static int flat_edge_gives_no_sideways_normal(void)
{ /* The level triangle's edge 0 runs along x at z = 0 (the triangle lies at z <= 0). A unit cube
       0.01 into its plane overhangs that edge by only 0.004: on its own the triangle's best axis is
       +z (overlap 0.004 < 0.01), a sideways normal, which is right for a lone triangle. When edge 0
       is a flat edge of a surface, the face is the normal: the box's bottom corners over the
       triangle (z = -0.004) and the crossings of its sides with the edge, all 0.01 deep. */
    spx_triangle b = test_tri(spx_v3(-5, 0, 0), spx_v3(5, 0, 0), spx_v3(0, 0, -5));
    spx_obb a = test_box(spx_v3(0, 0.49f, 0.496f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, 0, -1) == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &all_open, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, 0, -1) == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &all_flat, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    TEST_ENSURE(m.point_count == 4);
    TEST_ENSURE(test_manifold_has_point(&m, -0.5f, -0.005f, -0.004f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.5f, -0.005f, -0.004f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, -0.5f, -0.005f, 0.0f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m, 0.5f, -0.005f, 0.0f, 0.01f, TOL));
    /* A concave edge (the surface turns up beyond it, seen from above) is no edge either; seen from
       below it is convex, and the box under the triangle may take the edge's normal. */
    spx_triangle_edges concave = { { -0.5f, 0.0f, 0.0f }, 0 };
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &concave, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    spx_obb below = test_box(spx_v3(0, -0.49f, 0.496f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&below, &b, &concave, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, 1, 0) == 0); /* +z lies 90 degrees from the face: outside a 0.5 rad wedge */
    spx_triangle_edges concave_fold = { { -3.0f, 0.0f, 0.0f }, 0 };
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&below, &b, &concave_fold, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, 0, -1) == 0);
    return 0;
}

static int convex_edge_gives_normals_inside_its_wedge(void)
{ /* A roof ridge: the triangle slopes down from its edge 0 (along x at y = 0, z = 0) at 0.3 rad
       towards +z, and the surface turns 0.6 rad across the ridge (the other slope mirrors it). A level
       unit cube 0.01 down onto the ridge, straddling it: its bottom face's axis (vertical) is 0.3 rad
       from the slope's normal, inside the wedge: the normal is straight down (the ridge's own), the
       points on the ridge 0.01 deep. With a wedge of 0.2 rad the vertical is outside it, and the
       slope's face gives the normal instead. */
    const float c = (float)cos(0.3), s = (float)sin(0.3);
    spx_triangle b = test_tri(spx_v3(5, 0, 0), spx_v3(-5, 0, 0), spx_v3(0, -5 * s, 5 * c));
    spx_obb a = test_box(spx_v3(0.2f, 0.49f, 0.1f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_triangle_edges ridge = { { 0.6f, 0.0f, 0.0f }, 0 };
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &ridge, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, -1, 0) == 0);
    TEST_ENSURE(m.point_count >= 1);
    for (int i = 0; i < m.point_count; ++i) {
        TEST_ENSURE_NEAR(m.points[i].point.z, 0.0f, TOL);
        TEST_ENSURE_NEAR(m.points[i].depth, 0.01f, TOL);
    }
    spx_triangle_edges gentle = { { 0.2f, 0.0f, 0.0f }, 0 };
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &gentle, 0.0f, &m), SPX_OK);
    TEST_ENSURE(normal_is(&m, 0, -c, -s) == 0);
    return 0;
}

static int corners_of_a_surface_give_normals(void)
{ /* Box corner 7 pointing down at a triangle's corner from beside it: the triangle (level,
       corner v0 at the origin, the rest towards -x -z) meets the box only near v0, and the least
       overlap is a box face seen edge-on. Only if v0 is a corner of the surface may it give the
       normal; otherwise the triangle's face does. */
    spx_triangle b = test_tri(spx_v3(0, 0, 0), spx_v3(-3, 0, -1), spx_v3(-1, 0, -3));
    spx_obb a = test_box(spx_v3(0.49f, 0.2f, 0.45f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_manifold open, plain, corner;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &plain), SPX_OK);
    TEST_ENSURE(plain.point_count >= 1);
    TEST_ENSURE(fabsf(plain.normal.y) < 0.5f); /* sideways: the corner of a lone triangle */
    spx_triangle_edges only_corner = { { 0.0f, 0.0f, 0.0f }, 1 };
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &only_corner, 0.0f, &corner), SPX_OK);
    TEST_ENSURE(corner.point_count == plain.point_count);
    TEST_ENSURE_NEAR(corner.normal.x, plain.normal.x, 0);
    TEST_ENSURE_NEAR(corner.normal.z, plain.normal.z, 0);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &all_flat, 0.0f, &open), SPX_OK);
    TEST_ENSURE(normal_is(&open, 0, -1, 0) == 0);
    return 0;
}

/* ---- agreement with the penetration query ------------------------------------------------------ */

/* How far B must move along unit n (A towards B) to part: A's highest corner less B's lowest. */
static double overlap_along(const spx_obb* a, const spx_triangle* b, const double n[3])
{
    spx_vec3 c[8];
    spx_obb_get_corners(a, c);
    double hi = -INFINITY, lo = INFINITY;
    for (int i = 0; i < 8; ++i) hi = fmax(hi, c[i].x * n[0] + c[i].y * n[1] + c[i].z * n[2]);
    for (int k = 0; k < 3; ++k) lo = fmin(lo, b->v[k].x * n[0] + b->v[k].y * n[1] + b->v[k].z * n[2]);
    return hi - lo;
}

/* Is the least overlap over the 13 axes (worked out here from corners) unique: does every other axis
   (but those pointing its way to 1e-7 rad, the same axis twice) overlap at least 5% (and 1e-4 of the
   size) more? */
static int least_axis_is_unique(const spx_obb* a, const spx_triangle* b, double size)
{
    double dir[13][3];
    int n = 0;
    const spx_vec3* ax = a->rotation.col;
    double e[3][3];
    for (int j = 0; j < 3; ++j) {
        const spx_vec3 p = b->v[j], q = b->v[(j + 1) % 3];
        e[j][0] = (double)q.x - p.x, e[j][1] = (double)q.y - p.y, e[j][2] = (double)q.z - p.z;
    }
    double nt[3] = { e[0][1] * -e[2][2] - e[0][2] * -e[2][1], e[0][2] * -e[2][0] - e[0][0] * -e[2][2],
                     e[0][0] * -e[2][1] - e[0][1] * -e[2][0] };
    double cand[13][3];
    int m = 0;
    memcpy(cand[m++], nt, sizeof nt);
    for (int i = 0; i < 3; ++i) {
        cand[m][0] = ax[i].x, cand[m][1] = ax[i].y, cand[m][2] = ax[i].z;
        ++m;
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const double u[3] = { ax[i].x, ax[i].y, ax[i].z };
            cand[m][0] = u[1] * e[j][2] - u[2] * e[j][1];
            cand[m][1] = u[2] * e[j][0] - u[0] * e[j][2];
            cand[m][2] = u[0] * e[j][1] - u[1] * e[j][0];
            ++m;
        }
    double depth[13];
    for (int k = 0; k < m; ++k) {
        double len = sqrt(cand[k][0] * cand[k][0] + cand[k][1] * cand[k][1] + cand[k][2] * cand[k][2]);
        if (!(len > 1e-9 * size * size)) continue;
        for (int c = 0; c < 3; ++c) dir[n][c] = cand[k][c] / len;
        double neg[3] = { -dir[n][0], -dir[n][1], -dir[n][2] };
        depth[n] = fmin(overlap_along(a, b, dir[n]), overlap_along(a, b, neg));
        ++n;
    }
    int best = 0;
    for (int k = 1; k < n; ++k)
        if (depth[k] < depth[best]) best = k;
    for (int k = 0; k < n; ++k) {
        double d = fabs(dir[k][0] * dir[best][0] + dir[k][1] * dir[best][1] + dir[k][2] * dir[best][2]);
        if (k == best || d > 1.0 - 5e-15) continue;
        if (!(depth[k] > depth[best] * 1.05 + 1e-4 * size)) return 0;
    }
    return 1;
}

static int agrees_with_penetration(void)
{ /* Random overlapping pairs. Where the least overlap is clearly unique, the manifold's normal is the
       one of spx_penetration_obb_triangle and the overlap along it is its depth. Elsewhere the manifold
       may keep a preferred axis (the triangle's face, then the box's, then edges) that the least one
       does not beat by 2% and 1e-5 of the size. Either way no point is deeper than the overlap along
       the normal. */
    int overlapping = 0, unique = 0, same = 0, seen_as_face = 0;
    for (uint64_t seed = 0; seed < 20000; ++seed) {
        test_sweep_case c;
        test_case_make(TEST_CASE_OBB_TRIANGLE, seed, &c);
        const spx_obb* a = &c.box[0];
        const spx_triangle* b = &c.tri[1];
        spx_penetration pen;
        TEST_ENSURE_CODE(spx_penetration_obb_triangle(a, b, &pen), SPX_OK);
        spx_manifold m;
        TEST_ENSURE_CODE(spx_manifold_obb_triangle(a, b, 0.0f, &m), SPX_OK);
        if (!pen.overlapping) continue;
        ++overlapping;
        TEST_ENSURE(m.point_count > 0);
        double longest = 0.0;
        for (int k = 0; k < 3; ++k) {
            const spx_vec3 p = b->v[k], q = b->v[(k + 1) % 3];
            longest = fmax(longest,
                           sqrt(((double)p.x - q.x) * ((double)p.x - q.x) + ((double)p.y - q.y) * ((double)p.y - q.y) +
                                ((double)p.z - q.z) * ((double)p.z - q.z)));
        }
        const double size = (double)a->half_extents.x + a->half_extents.y + a->half_extents.z + longest;
        const double n[3] = { m.normal.x, m.normal.y, m.normal.z };
        const double along = overlap_along(a, b, n);
        const spx_vec3* v = b->v;
        const double e0[3] = { (double)v[1].x - v[0].x, (double)v[1].y - v[0].y, (double)v[1].z - v[0].z };
        const double e2[3] = { (double)v[2].x - v[0].x, (double)v[2].y - v[0].y, (double)v[2].z - v[0].z };
        const double nt[3] = { e0[1] * e2[2] - e0[2] * e2[1], e0[2] * e2[0] - e0[0] * e2[2],
                               e0[0] * e2[1] - e0[1] * e2[0] };
        const double pn[3] = { pen.normal.x, pen.normal.y, pen.normal.z };
        const double dot =
            (n[0] * pn[0] + n[1] * pn[1] + n[2] * pn[2]) /
            sqrt((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) * (pn[0] * pn[0] + pn[1] * pn[1] + pn[2] * pn[2]));
        same += dot > 1.0 - 1e-10;
        /* The manifold does not take an edge axis within 8 degrees of a face normal (the box's or the
           triangle's) when the faces overlap at most 1e-2 of the size (a quarter of ours) more: such
           pairs are face contacts seen edge-on. */
        double near_face =
            fabs(pn[0] * nt[0] + pn[1] * nt[1] + pn[2] * nt[2]) / sqrt(nt[0] * nt[0] + nt[1] * nt[1] + nt[2] * nt[2]);
        for (int k = 0; k < 3; ++k) {
            const spx_vec3 ax = a->rotation.col[k];
            near_face = fmax(near_face, fabs(pn[0] * ax.x + pn[1] * ax.y + pn[2] * ax.z));
        }
        const bool edge_seen_as_face = pen.axis >= 4 && near_face > 0.99 - 1e-6;
        seen_as_face += edge_seen_as_face;
        if (!edge_seen_as_face && least_axis_is_unique(a, b, size)) {
            ++unique;
            /* The corners are rounded to float: 1e-7 of the coordinates. */
            const double far = fmax(fabs(a->center.x), fmax(fabs(a->center.y), fabs(a->center.z)));
            if (!(dot > 1.0 - 1e-10) || !(fabs(along - pen.depth) <= 1e-6 * (size + far))) {
                fprintf(stderr, "seed %llu: unique least axis %d, depth %.9g; manifold overlap %.9g, dot %.12g\n",
                        (unsigned long long)seed, pen.axis, (double)pen.depth, along, dot);
                return 1;
            }
        }
        /* Not chosen over the least axis: its overlap is not below 0.98 of ours less the slacks. */
        const double bound = (pen.depth + 1e-5 * size + 2.5e-4 * size) / 0.98 + 1e-6 * size;
        if (!(along <= (edge_seen_as_face ? bound + 0.0025 * size : bound))) {
            fprintf(stderr, "seed %llu: overlap %.9g along the manifold normal, least %.9g\n", (unsigned long long)seed,
                    along, (double)pen.depth);
            test_case_print(stderr, &c);
            return 1;
        }
        for (int i = 0; i < m.point_count; ++i) TEST_ENSURE(m.points[i].depth <= along + 2e-5 * size);
        TEST_ENSURE(test_manifold_ids_distinct(&m));
    }
    printf("  %d overlapping pairs, %d with a unique least axis (all agree), %d with an edge axis seen as a face; "
           "%d on the same axis in all\n",
           overlapping, unique, seen_as_face, same);
    TEST_ENSURE(overlapping > 5000 && unique > overlapping / 2);
    return 0;
}

/* ---- bad input ----------------------------------------------------------------------------------- */

static int bad_input_gets_its_code(void)
{
    spx_obb a = test_box(spx_v3(0, 0.49f, 0), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_triangle b = floor_tri();
    spx_manifold m, sentinel;
    memset(&sentinel, 0x5A, sizeof sentinel);
    m = sentinel;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(NULL, &b, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, NULL, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, -1e-3f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, INFINITY, &m), SPX_ERR_NOT_FINITE);
    spx_obb bad = a;
    bad.center.y = NAN;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_NOT_FINITE);
    bad = a;
    bad.half_extents.z = 0.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_BAD_EXTENT);
    bad = a;
    bad.rotation.col[0].x = 1.1f;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_NOT_ORTHONORMAL);
    bad = a;
    bad.rotation.col[2].z = -1.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_NOT_RIGHT_HANDED);
    spx_triangle badt = b;
    badt.v[1].x = INFINITY;
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &badt, 0.0f, &m), SPX_ERR_NOT_FINITE);
    badt = test_tri(spx_v3(1, 2, 3), spx_v3(1, 2, 3), spx_v3(1, 2, 3));
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&a, &badt, 0.0f, &m), SPX_ERR_DEGENERATE_TRIANGLE);
    spx_triangle_edges nan_edge = { { 0.0f, NAN, 0.0f }, 0 };
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &nan_edge, 0.0f, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(NULL, &b, &all_flat, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(memcmp(&m, &sentinel, sizeof m) == 0); /* no failed call wrote the output */
    /* Infinite angles are open edges, not errors. */
    spx_triangle_edges inf_edge = { { INFINITY, -INFINITY, 0.0f }, 0 };
    TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(&a, &b, &inf_edge, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count == 4);
    return 0;
}

/* ---- box against mesh: ghost bumps ---------------------------------------------------------------- */

typedef struct dq {
    double x, y, z, w;
} dq;

static dq dq_axis(double ax, double ay, double az, double angle)
{
    double n = sqrt(ax * ax + ay * ay + az * az), s = sin(0.5 * angle) / n;
    dq q = { ax * s, ay * s, az * s, cos(0.5 * angle) };
    return q;
}

static dq dq_mul(dq a, dq b)
{
    dq r = { a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
             a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
    return r;
}

static void dq_rotate(dq q, const double v[3], double out[3])
{
    /* v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z) */
    const double u[3] = { q.x, q.y, q.z };
    const double t[3] = { 2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]),
                          2 * (u[0] * v[1] - u[1] * v[0]) };
    out[0] = v[0] + q.w * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + q.w * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + q.w * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

static spx_quat dq_float(dq q)
{
    spx_quat r = { (float)q.x, (float)q.y, (float)q.z, (float)q.w };
    return r;
}

/* A placed mesh and what the tests need to judge a contact with it: the pose, and the plane a
   flat region of it lies in (world). */
typedef struct placed {
    spx_mesh* mesh;
    spx_mesh_instance* inst;
    dq q;
    double shift[3];
} placed;

static int place(const test_shape* s, uint32_t leaf, dq q, const double shift[3], placed* out)
{
    spx_mesh_def def = test_shape_mesh_def(s, leaf);
    TEST_ENSURE_CODE(spx_mesh_create(&def, &out->mesh), SPX_OK);
    spx_transform pose = { { (float)shift[0], (float)shift[1], (float)shift[2] }, dq_float(q) };
    TEST_ENSURE_CODE(test_place_mesh(out->mesh, pose, &out->inst), SPX_OK);
    out->q = q;
    for (int i = 0; i < 3; ++i) out->shift[i] = shift[i];
    return 0;
}

static void unplace(placed* p)
{
    spx_mesh_instance_destroy(p->inst);
    spx_mesh_destroy(p->mesh);
}

/* A mesh-frame point to the world, in double. */
static void to_world(const placed* p, const double m[3], double w[3])
{
    dq_rotate(p->q, m, w);
    for (int i = 0; i < 3; ++i) w[i] += p->shift[i];
}

/* A box of half extents h resting on the mesh's plane through mesh point m0 with mesh normal nm,
   `depth` into it, turned by `yaw` about that normal (a box axis 1 along it, box axis 0 along
   mesh x turned by yaw): built from a quaternion the way a body's box is. */
static int resting_box(const placed* p, const double m0[3], dq tilt, double yaw, spx_vec3 h, double depth, spx_obb* out)
{
    const dq q = dq_mul(p->q, dq_mul(tilt, dq_axis(0, 1, 0, yaw)));
    const double up_local[3] = { 0, 1, 0 };
    double n[3], c[3];
    dq_rotate(dq_mul(p->q, tilt), up_local, n);
    to_world(p, m0, c);
    for (int i = 0; i < 3; ++i) c[i] += n[i] * ((double)h.y - depth);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3((float)c[0], (float)c[1], (float)c[2]), h, dq_float(q), out), SPX_OK);
    return 0;
}

/* How far box corner `id` (bits as spx_obb_get_corners) lies beyond the plane through world point w0
   with unit normal n (towards the box): its depth. */
static double corner_depth(const spx_obb* a, uint32_t id, const double w0[3], const double n[3])
{
    const float* h = &a->half_extents.x;
    double c[3] = { a->center.x, a->center.y, a->center.z };
    for (int i = 0; i < 3; ++i) {
        const double s = (id >> i & 1u) ? h[i] : -h[i];
        c[0] += s * a->rotation.col[i].x, c[1] += s * a->rotation.col[i].y, c[2] += s * a->rotation.col[i].z;
    }
    return -((c[0] - w0[0]) * n[0] + (c[1] - w0[1]) * n[1] + (c[2] - w0[2]) * n[2]);
}

static double angle_to(spx_vec3 v, const double n[3])
{
    const double d[3] = { v.x, v.y, v.z };
    const double cr[3] = { d[1] * n[2] - d[2] * n[1], d[2] * n[0] - d[0] * n[2], d[0] * n[1] - d[1] * n[0] };
    return atan2(sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]), d[0] * n[0] + d[1] * n[1] + d[2] * n[2]);
}

/* What a slide measured: manifolds (mesh-level and per triangle) whose normal leaves the face normal
   by more than 1e-4 rad or whose depth is off by more than 1e-5 m. */
typedef struct bumps {
    long manifolds, bad;
    double worst_angle, worst_depth;
} bumps;

static void bump_note(bumps* b, double angle, double depth_error)
{
    ++b->manifolds;
    b->bad += angle > 1e-4 || depth_error > 1e-5;
    b->worst_angle = fmax(b->worst_angle, angle);
    b->worst_depth = fmax(b->worst_depth, depth_error);
}

/* One box at one place on the flat region of plane (w0, n) (n unit, from the mesh towards the box):
   the mesh manifold with or without the surface edges, and every triangle's own manifold with its
   edges or without. Also checks, with the edges, that the mesh manifold is one manifold holding the
   box's four bottom corners (ids without a triangle), so the ids stay while the box slides. */
static int judge(const placed* p, const spx_obb* a, const double w0[3], const double n[3], bool edges, float margin,
                 bumps* mesh_level, bumps* per_triangle)
{
    const double down[3] = { -n[0], -n[1], -n[2] }; /* the normal from the box to the mesh */
    /* The true depth: the bottom corners' (all four equal to rounding; box axis 1 is the normal). */
    double truth = 0.0;
    uint32_t bottom[4];
    int nb = 0;
    for (uint32_t id = 0; id < 8; ++id) {
        const spx_vec3 ax = a->rotation.col[1];
        if (!(id & 2u) && ax.x * n[0] + ax.y * n[1] + ax.z * n[2] > 0.0) bottom[nb++] = id;
        if ((id & 2u) && ax.x * n[0] + ax.y * n[1] + ax.z * n[2] < 0.0) bottom[nb++] = id;
    }
    TEST_ENSURE(nb == 4);
    for (int i = 0; i < 4; ++i) truth += corner_depth(a, bottom[i], w0, n) / 4.0;

    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    spx_manifold_obb_mesh_checked(a, p->inst, margin, edges, m, SPX_MAX_MESH_MANIFOLDS, &count);
    TEST_ENSURE(count >= 1);
    for (uint32_t g = 0; g < count; ++g) {
        double err = 0.0;
        for (int i = 0; i < m[g].point_count; ++i) err = fmax(err, fabs(m[g].points[i].depth - truth));
        bump_note(mesh_level, angle_to(m[g].normal, down), err);
    }
    if (edges) {
        TEST_ENSURE(count == 1 && m[0].point_count == 4);
        for (int i = 0; i < 4; ++i) TEST_ENSURE(has_id(&m[0], bottom[i]));
    }
    spx_mesh_info info;
    spx_mesh_get_info(p->mesh, &info);
    for (uint32_t t = 0; t < info.triangle_count; ++t) {
        spx_triangle tr;
        spx_triangle_edges e;
        TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(p->inst, t, &tr, NULL), SPX_OK);
        TEST_ENSURE_CODE(spx_mesh_get_triangle_edges(p->mesh, t, &e), SPX_OK);
        spx_manifold one;
        TEST_ENSURE_CODE(spx_manifold_obb_mesh_triangle(a, &tr, edges ? &e : NULL, margin, &one), SPX_OK);
        if (one.point_count == 0) continue;
        double err = 0.0;
        for (int i = 0; i < one.point_count; ++i) err = fmax(err, fabs(one.points[i].depth - truth));
        bump_note(per_triangle, angle_to(one.normal, down), err);
    }
    return 0;
}

static int box_slides_over_a_flat_grid_without_bumps(void)
{ /* Boxes sliding flat across a 20 x 20 grid (unit squares, two triangles each), turned about the
       vertical by various angles, along paths that cross its edges, its diagonals, run along a grid
       line and across its vertices, 0.01 and 0.002 into it: every manifold's normal is the face's
       (within 1e-4 rad), every depth the box's true depth (within 1e-5 m), one manifold of the box's
       four bottom corners. The grid placed as it is, and turned and moved far off. The same without
       the surface edges (each triangle alone, as a per-triangle SAT sees it) bumps: the test can
       fail. */
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 20, 20));
    const spx_vec3 sizes[3] = { { 0.3f, 0.25f, 0.2f }, { 1.3f, 0.4f, 0.8f }, { 0.5f, 0.5f, 0.5f } };
    const double yaws[5] = { 0.0, 0.05, 0.3, 0.78539816339744831, 1.1 };
    const double depths[2] = { 0.01, 0.002 };
    /* Paths across the plane, from (x0, z0) to (x1, z1), mesh coordinates. */
    const double paths[5][4] = { { 3.0, 5.0, 17.0, 5.0 },     /* along a grid line */
                                 { 3.0, 7.37, 17.0, 7.37 },   /* across the lines x = k */
                                 { 3.0, 3.0, 17.0, 17.0 },    /* along the diagonals, through vertices */
                                 { 3.2, 16.1, 16.7, 3.4 },    /* across the diagonals */
                                 { 10.5, 3.0, 10.5, 17.0 } }; /* along the middle of a column */
    bumps with_mesh = { 0 }, with_tri = { 0 }, without_mesh = { 0 }, without_tri = { 0 };
    for (int pose = 0; pose < 2; ++pose) {
        const dq q = pose ? dq_axis(0.3, 1.0, -0.6, 0.9) : dq_axis(0, 1, 0, 0);
        const double shift[3] = { pose ? 130.0 : 0.0, pose ? -40.0 : 0.0, pose ? 75.0 : 0.0 };
        placed p;
        TEST_ENSURE(place(&s, 4, q, shift, &p) == 0);
        const double up[3] = { 0, 1, 0 }, origin[3] = { 0, 0, 0 };
        double n[3], w0[3];
        dq_rotate(q, up, n);
        to_world(&p, origin, w0);
        for (int si = 0; si < 3; ++si)
            for (int yi = 0; yi < 5; ++yi)
                for (int di = 0; di < 2; ++di)
                    for (int pi = 0; pi < 5; ++pi)
                        for (int k = 0; k <= 60; k += long_run ? 1 : 4) { /* every 4th place by default */
                            const double f = k / 60.0;
                            const double m0[3] = { paths[pi][0] + f * (paths[pi][2] - paths[pi][0]), 0.0,
                                                   paths[pi][1] + f * (paths[pi][3] - paths[pi][1]) };
                            spx_obb a;
                            TEST_ENSURE(resting_box(&p, m0, dq_axis(0, 1, 0, 0), yaws[yi], sizes[si], depths[di], &a) ==
                                        0);
                            if (judge(&p, &a, w0, n, true, 0.02f, &with_mesh, &with_tri)) {
                                fprintf(stderr, "pose %d size %d yaw %g depth %g path %d at %d/60\n", pose, si,
                                        yaws[yi], depths[di], pi, k);
                                return 1;
                            }
                            TEST_ENSURE(judge(&p, &a, w0, n, false, 0.02f, &without_mesh, &without_tri) == 0);
                        }
        unplace(&p);
    }
    test_shape_free(&s);
    printf("  with the surface edges: %ld mesh manifolds, %ld bumps (worst %.2g rad, %.2g m); %ld triangle manifolds, "
           "%ld bumps (worst %.2g rad, %.2g m)\n",
           with_mesh.manifolds, with_mesh.bad, with_mesh.worst_angle, with_mesh.worst_depth, with_tri.manifolds,
           with_tri.bad, with_tri.worst_angle, with_tri.worst_depth);
    printf("  without:                %ld mesh manifolds, %ld bumps (worst %.2g rad, %.2g m); %ld triangle manifolds, "
           "%ld bumps (worst %.2g rad, %.2g m)\n",
           without_mesh.manifolds, without_mesh.bad, without_mesh.worst_angle, without_mesh.worst_depth,
           without_tri.manifolds, without_tri.bad, without_tri.worst_angle, without_tri.worst_depth);
    TEST_ENSURE(with_mesh.bad == 0 && with_tri.bad == 0);
    TEST_ENSURE(without_mesh.bad > 0 && without_tri.bad > 0);
    return 0;
}

static int box_slides_over_a_roof(void)
{ /* A 20 x 20 grid folded into a roof: each half slopes down 0.25 rad from the ridge z = 10 (the
       ridge turns 0.5 rad, convex). A level box straddling the ridge, 0.01 down onto it, sliding along
       it and across it: the ridge is a real edge, and its normal (straight down from the box, midway
       between the slopes' normals) must still lead, with the points on the ridge 0.01 deep. Every other
       manifold's normal lies in the ridge's wedge (a slope's). Then boxes lying on one slope, sliding
       over its inner edges as on the flat grid: no bumps there either. */
    const double alpha = 0.25;
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 20, 20));
    for (uint32_t v = 0; v < s.vertex_count; ++v) s.vertices[v].y = -(float)tan(alpha) * fabsf(s.vertices[v].z - 10.0f);
    placed p;
    const double shift[3] = { 0, 0, 0 };
    TEST_ENSURE(place(&s, 4, dq_axis(0, 1, 0, 0), shift, &p) == 0);
    const double down[3] = { 0, -1, 0 };
    int samples = 0, extra = 0, leads = 0;
    for (int yi = 0; yi < 3; ++yi)
        for (int zi = 0; zi < 4; ++zi)
            for (int k = 0; k <= 80; ++k) {
                const double yaw = yi * 0.2, x = 3.0 + 14.0 * k / 80.0, dz = -0.15 + 0.1 * zi;
                const double m0[3] = { x, 0.0, 10.0 + dz };
                spx_obb a;
                TEST_ENSURE(resting_box(&p, m0, dq_axis(0, 1, 0, 0), yaw, spx_v3(0.5f, 0.3f, 0.4f), 0.01, &a) == 0);
                spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
                uint32_t count = 0;
                TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, 0.02f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
                /* The ridge's manifold: straight down, deepest on the ridge (0.01), each point as deep as
                   the box's bottom is below the roof there (the slopes fall tan(alpha) a metre away from
                   the ridge). */
                uint32_t r = 0;
                while (r < count && !(angle_to(m[r].normal, down) <= 1e-4)) ++r;
                if (r == count) {
                    fprintf(stderr, "yaw %g x %g dz %g: no manifold along the ridge's normal\n", yaw, x, dz);
                    return 1;
                }
                TEST_ENSURE(m[r].point_count >= 2);
                double deepest = -1.0;
                for (int i = 0; i < m[r].point_count; ++i) {
                    const spx_manifold_point* q = &m[r].points[i];
                    TEST_ENSURE_NEAR(q->depth, 0.01 - tan(alpha) * fabs(q->point.z - 10.0), 1e-5);
                    deepest = fmax(deepest, q->depth);
                }
                TEST_ENSURE_NEAR(deepest, 0.01, 1e-5);
                /* The others are the slopes' own, from their triangles that meet the ridge at a corner
                   only (the ridge is no corner, so the box's face may not name the normal there): a
                   slope's normal, measured along which the ridge is up to 0.01 / cos(alpha) deep. */
                for (uint32_t g = 0; g < count; ++g) {
                    TEST_ENSURE(fabsf(m[g].normal.x) <= 1e-4f);
                    TEST_ENSURE(angle_to(m[g].normal, down) <= alpha + 1e-4);
                    for (int i = 0; i < m[g].point_count; ++i)
                        TEST_ENSURE(m[g].points[i].depth <= 0.01 / cos(alpha) + 1e-5);
                }
                ++samples;
                extra += (int)count - 1;
                leads += r == 0;
            }
    printf("  ridge: %d boxes across it, all with the ridge's normal (leading in %d); %d further manifolds on the "
           "slopes beside it\n",
           samples, leads, extra);

    /* Lying on the slope z > 10 (normal (0, cos, sin)), turned about its normal, sliding across it. */
    bumps with_mesh = { 0 }, with_tri = { 0 }, without_mesh = { 0 }, without_tri = { 0 };
    const double n[3] = { 0.0, cos(alpha), sin(alpha) }, w0[3] = { 0.0, 0.0, 10.0 };
    const double paths[3][4] = { { 3.0, 12.0, 17.0, 12.0 }, { 3.0, 11.0, 17.0, 18.0 }, { 7.37, 11.0, 7.37, 18.0 } };
    for (int yi = 0; yi < 3; ++yi)
        for (int pi = 0; pi < 3; ++pi)
            for (int k = 0; k <= 60; ++k) {
                const double f = k / 60.0, z = paths[pi][1] + f * (paths[pi][3] - paths[pi][1]);
                const double m0[3] = { paths[pi][0] + f * (paths[pi][2] - paths[pi][0]), -tan(alpha) * (z - 10.0), z };
                spx_obb a;
                TEST_ENSURE(
                    resting_box(&p, m0, dq_axis(1, 0, 0, alpha), 0.4 * yi, spx_v3(0.45f, 0.3f, 0.35f), 0.01, &a) == 0);
                if (judge(&p, &a, w0, n, true, 0.02f, &with_mesh, &with_tri)) {
                    fprintf(stderr, "yaw %g path %d at %d/60\n", 0.4 * yi, pi, k);
                    return 1;
                }
                TEST_ENSURE(judge(&p, &a, w0, n, false, 0.02f, &without_mesh, &without_tri) == 0);
            }
    printf("  slope: %ld mesh manifolds, %ld bumps with the surface edges; %ld bumps of %ld without\n",
           with_mesh.manifolds, with_mesh.bad, without_mesh.bad, without_mesh.manifolds);
    TEST_ENSURE(with_mesh.bad == 0 && with_tri.bad == 0 && without_mesh.bad > 0);
    unplace(&p);
    test_shape_free(&s);
    return 0;
}

static int box_in_a_concave_corner_gets_a_manifold_a_side(void)
{ /* A floor (y = 0) and a wall (x = 0) of 4 x 4 unit squares each, meeting at a concave edge. A unit
       cube pushed 0.01 into both: two manifolds, the floor's (normal -y from the box) and the wall's
       (-x), each of four points 0.01 deep. With room for one, the first only. */
    spx_vec3 v[50];
    uint32_t idx[2 * 96];
    int nv = 0, nt = 0;
    for (int wall = 0; wall < 2; ++wall)
        for (int i = 0; i <= 4; ++i)
            for (int j = 0; j <= 4; ++j) v[nv++] = wall ? spx_v3(0, (float)i, (float)j) : spx_v3((float)i, 0, (float)j);
    for (int wall = 0; wall < 2; ++wall)
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                /* Corners (i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j): wound towards the room. */
                uint32_t a = (uint32_t)(25 * wall + 5 * i + j), b = a + 1, c = a + 6, d = a + 5;
                if (wall) {
                    uint32_t t = b;
                    b = d;
                    d = t;
                }
                idx[3 * nt] = a, idx[3 * nt + 1] = b, idx[3 * nt + 2] = c, ++nt;
                idx[3 * nt] = a, idx[3 * nt + 1] = c, idx[3 * nt + 2] = d, ++nt;
            }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = (uint32_t)nv, def.indices = idx, def.triangle_count = (uint32_t)nt;
    spx_mesh* mesh = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_transform pose = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
    spx_mesh_instance* inst = NULL;
    TEST_ENSURE_CODE(test_place_mesh(mesh, pose, &inst), SPX_OK);
    spx_obb a = test_box(spx_v3(0.49f, 0.49f, 2.3f), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, inst, 0.005f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 2);
    int floor = m[0].normal.y < -0.5f ? 0 : 1, wall = 1 - floor;
    TEST_ENSURE(normal_is(&m[floor], 0, -1, 0) == 0);
    TEST_ENSURE(normal_is(&m[wall], -1, 0, 0) == 0);
    TEST_ENSURE(m[floor].point_count == 4 && m[wall].point_count == 4);
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < 4; ++i) TEST_ENSURE_NEAR(m[g].points[i].depth, 0.01f, TOL);
    /* The box's bottom reaches past the floor into the wall, so the floor's points on that side are
       where the bottom's edges cross the floor's border (x = 0), and the wall's likewise (y = 0). */
    TEST_ENSURE(test_manifold_has_point(&m[floor], 0.0f, -0.005f, 1.8f, 0.01f, TOL) &&
                test_manifold_has_point(&m[floor], 0.99f, -0.005f, 2.8f, 0.01f, TOL));
    TEST_ENSURE(test_manifold_has_point(&m[wall], -0.005f, 0.0f, 1.8f, 0.01f, TOL) &&
                test_manifold_has_point(&m[wall], -0.005f, 0.99f, 2.8f, 0.01f, TOL));
    TEST_ENSURE(has_id(&m[floor], 1) && has_id(&m[floor], 5) && has_id(&m[wall], 2) && has_id(&m[wall], 6));
    spx_manifold one;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, inst, 0.005f, &one, 1, &count), SPX_OK);
    TEST_ENSURE(count == 1);
    TEST_ENSURE(memcmp(&one, &m[0], sizeof one) == 0);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, inst, 0.005f, NULL, 0, &count), SPX_OK);
    TEST_ENSURE(count == 0);
    spx_mesh_instance_destroy(inst);
    spx_mesh_destroy(mesh);
    return 0;
}

static int mesh_manifold_does_not_depend_on_the_tree(void)
{ /* The same grid with leaves of 1 and of 16 triangles hands the triangles out in other orders; the
       manifolds come out the same, byte for byte: for a small test_box (its triangles kept between
       passes) and for a large one over more triangles than are kept (each pass descends again). Also
       separated beyond the margin: nothing. */
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 20, 20));
    placed p1, p16;
    const double shift[3] = { -3.0, 2.0, 1.0 };
    const dq q = dq_axis(1.0, 0.2, 0.1, 0.3);
    TEST_ENSURE(place(&s, 1, q, shift, &p1) == 0);
    TEST_ENSURE(place(&s, 16, q, shift, &p16) == 0);
    test_case_rng rng = { 7 };
    int big_ok = 0;
    for (int k = 0; k < 400; ++k) {
        const bool big = k % 2;
        const spx_vec3 h = big ? spx_v3(2.7f, 0.4f, 2.2f) : spx_v3(0.4f, 0.3f, 0.3f);
        const double mx = test_case_uniform(&rng, 6.0, 14.0), mz = test_case_uniform(&rng, 6.0, 14.0);
        const double m0[3] = { mx, 0.0, mz };
        const double depth = test_case_uniform(&rng, -0.01, 0.02), yaw = test_case_uniform(&rng, 0.0, 6.3),
                     tilt = test_case_uniform(&rng, -0.1, 0.1);
        spx_obb a;
        TEST_ENSURE(resting_box(&p1, m0, dq_axis(1, 0, 0, tilt), yaw, h, depth, &a) == 0);
        spx_manifold m1[SPX_MAX_MESH_MANIFOLDS], m16[SPX_MAX_MESH_MANIFOLDS];
        uint32_t c1 = 99, c16 = 98;
        TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p1.inst, 0.015f, m1, SPX_MAX_MESH_MANIFOLDS, &c1), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p16.inst, 0.015f, m16, SPX_MAX_MESH_MANIFOLDS, &c16), SPX_OK);
        TEST_ENSURE(c1 == c16);
        TEST_ENSURE(memcmp(m1, m16, sizeof(spx_manifold) * c1) == 0);
        for (uint32_t g = 0; g < c1; ++g) TEST_ENSURE(m1[g].point_count >= 1 && m1[g].point_count <= 4);
        big_ok += big && c1 == 1 && m1[0].point_count == 4;
    }
    printf("  400 boxes, tilted up to 0.1 rad: the same manifolds from both trees; %d large boxes with one "
           "manifold of 4\n",
           big_ok);
    TEST_ENSURE(big_ok > 150);
    spx_obb far = test_box(spx_v3(10, 50, 10), spx_v3(1, 1, 1), test_identity);
    spx_manifold m;
    uint32_t count = 5;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&far, p1.inst, 0.015f, &m, 1, &count), SPX_OK);
    TEST_ENSURE(count == 0);
    unplace(&p1);
    unplace(&p16);
    test_shape_free(&s);
    return 0;
}

static int tumbling_box_keeps_the_corners_its_margin_holds(void)
{ /* A unit box tilted 0.1 to 0.35 rad over a 20 x 20 grid, its lowest corner 0 to 2 cm above, with a
       margin that holds all four of its bottom corners (a fast, turning body's: the solver must see
       the corners its turn brings down within the step): the manifold has a point at each, at its
       gap. The grid placed as it is, and turned and moved away. */
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 20, 20));
    const double shifts[2][3] = { { 0, 0, 0 }, { -3.0, 2.0, 1.0 } };
    const dq turns[2] = { dq_axis(0, 1, 0, 0), dq_axis(1.0, 0.2, 0.1, 0.3) };
    test_case_rng rng = { 11 };
    const spx_vec3 h = spx_v3(0.5f, 0.5f, 0.5f);
    double widest = 0.0;
    for (int pl = 0; pl < 2; ++pl) {
        placed p;
        TEST_ENSURE(place(&s, 4, turns[pl], shifts[pl], &p) == 0);
        const double up[3] = { 0, 1, 0 };
        double n[3];
        dq_rotate(p.q, up, n);
        for (int k = 0; k < 300; ++k) {
            const double axis = test_case_uniform(&rng, 0.0, 6.3);
            const dq tilt = dq_axis(cos(axis), 0, sin(axis), test_case_uniform(&rng, 0.1, 0.35));
            const dq q = dq_mul(p.q, dq_mul(tilt, dq_axis(0, 1, 0, test_case_uniform(&rng, 0.0, 6.3))));
            const double m0x = test_case_uniform(&rng, 3.0, 17.0);
            const double m0z = test_case_uniform(&rng, 3.0, 17.0);
            const double m0[3] = { m0x, 1.0, m0z };
            double c[3];
            to_world(&p, m0, c);
            spx_obb a;
            spx_vec3 corners[8];
            double gap[8], lowest = INFINITY, fourth;
            for (int pass = 0; pass < 2; ++pass) {
                TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3((float)c[0], (float)c[1], (float)c[2]), h, dq_float(q), &a),
                                 SPX_OK);
                spx_obb_get_corners(&a, corners);
                for (int i = 0; i < 8; ++i) {
                    const double d[3] = { corners[i].x - p.shift[0], corners[i].y - p.shift[1],
                                          corners[i].z - p.shift[2] };
                    gap[i] = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
                    if (pass == 0) lowest = fmin(lowest, gap[i]);
                }
                const double to = test_case_uniform(&rng, 0.0, 0.02) - lowest;
                for (int i = 0; pass == 0 && i < 3; ++i) c[i] += n[i] * to;
            }
            double sorted[8];
            memcpy(sorted, gap, sizeof sorted);
            for (int i = 1; i < 8; ++i)
                for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; --j) {
                    const double t = sorted[j];
                    sorted[j] = sorted[j - 1], sorted[j - 1] = t;
                }
            fourth = sorted[3];
            const float margin = (float)(fourth + test_case_uniform(&rng, 0.01, 0.1));
            TEST_ENSURE(sorted[4] > (double)margin + 0.1); /* the top face is out of reach */
            widest = fmax(widest, fourth - sorted[0]);
            spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
            uint32_t count = 0;
            TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, margin, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
            TEST_ENSURE(count == 1);
            for (int i = 0; i < 8; ++i) {
                if (gap[i] > (double)margin) continue;
                int found = 0;
                for (int j = 0; j < m[0].point_count; ++j) {
                    const spx_manifold_point* mp = &m[0].points[j];
                    /* The point lies midway between the corner and the plane. */
                    const double half = 0.5 * gap[i];
                    const double dx = mp->point.x + n[0] * half - corners[i].x,
                                 dy = mp->point.y + n[1] * half - corners[i].y,
                                 dz = mp->point.z + n[2] * half - corners[i].z;
                    found |= sqrt(dx * dx + dy * dy + dz * dz) < 1e-3 && fabs((double)mp->depth + gap[i]) < 1e-4;
                }
                if (!found) {
                    fprintf(stderr, "placement %d case %d: corner %d at gap %.4f m (margin %.3f) has no point\n", pl, k,
                            i, gap[i], (double)margin);
                    TEST_ENSURE(found);
                }
            }
        }
        unplace(&p);
    }
    printf("  600 tilted boxes: every bottom corner within the margin has its point (gaps up to %.3f m)\n", widest);
    test_shape_free(&s);
    return 0;
}

static int mesh_manifold_bad_input(void)
{
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 2, 2));
    placed p;
    const double shift[3] = { 0, 0, 0 };
    TEST_ENSURE(place(&s, 4, dq_axis(0, 1, 0, 0), shift, &p) == 0);
    spx_obb a = test_box(spx_v3(1, 0.49f, 1), spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    spx_manifold m;
    uint32_t count = 77;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(NULL, p.inst, 0.0f, &m, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, NULL, 0.0f, &m, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, 0.0f, &m, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, 0.0f, NULL, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, -1.0f, &m, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, NAN, &m, 1, &count), SPX_ERR_NOT_FINITE);
    spx_obb bad = a;
    bad.half_extents.x = -1.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&bad, p.inst, 0.0f, &m, 1, &count), SPX_ERR_BAD_EXTENT);
    bad = a;
    bad.rotation.col[1].y = 2.0f;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&bad, p.inst, 0.0f, &m, 1, &count), SPX_ERR_NOT_ORTHONORMAL);
    TEST_ENSURE(count == 77);
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&a, p.inst, 0.0f, &m, 1, &count), SPX_OK);
    TEST_ENSURE(count == 1 && m.point_count == 4);
    unplace(&p);
    test_shape_free(&s);
    return 0;
}

int main(int argc, char** argv)
{
    long_run = test_long_run(argc, argv);
    int failures = 0;
    TEST_RUN(box_resting_flat_on_a_big_triangle, failures);
    TEST_RUN(box_corner_into_the_face, failures);
    TEST_RUN(box_edge_across_a_triangle_edge, failures);
    TEST_RUN(triangle_poking_into_a_box_face, failures);
    TEST_RUN(small_triangle_under_a_box_face, failures);
    TEST_RUN(box_moved_along_a_side_of_a_square, failures);
    TEST_RUN(clipped_polygon_is_cut_to_four, failures);
    TEST_RUN(margins_decide_speculative_points, failures);
    TEST_RUN(flat_edge_gives_no_sideways_normal, failures);
    TEST_RUN(convex_edge_gives_normals_inside_its_wedge, failures);
    TEST_RUN(corners_of_a_surface_give_normals, failures);
    TEST_RUN(agrees_with_penetration, failures);
    TEST_RUN(bad_input_gets_its_code, failures);
    TEST_RUN(box_slides_over_a_flat_grid_without_bumps, failures);
    TEST_RUN(box_slides_over_a_roof, failures);
    TEST_RUN(box_in_a_concave_corner_gets_a_manifold_a_side, failures);
    TEST_RUN(tumbling_box_keeps_the_corners_its_margin_holds, failures);
    TEST_RUN(mesh_manifold_does_not_depend_on_the_tree, failures);
    TEST_RUN(mesh_manifold_bad_input, failures);
    return failures ? 1 : 0;
}
