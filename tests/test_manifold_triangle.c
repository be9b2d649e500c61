/* Box-triangle contact manifolds: face contacts both ways, edge contacts, margins, stable ids,
   agreement with spx_penetration_obb_triangle, bad input; the surface-edge rule on single
   triangles. Answers worked out by hand in the comments. */
#include <sepax/sepax.h>
#include "support/cases.h"
#include "test.h"

#define TOL 2e-5f

static const spx_mat3 identity = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

static spx_obb box(spx_vec3 center, spx_vec3 half, spx_mat3 rotation)
{
    spx_obb b = { center, half, rotation };
    return b;
}

static spx_triangle tri(spx_vec3 a, spx_vec3 b, spx_vec3 c)
{
    spx_triangle t = { { a, b, c } };
    return t;
}

/* Rotation by the angle with cosine c and sine s about axis 0 (x), 1 (y) or 2 (z). */
static spx_mat3 rot(int axis, float c, float s)
{
    spx_mat3 m = identity;
    float* col[3] = { &m.col[0].x, &m.col[1].x, &m.col[2].x };
    int u = (axis + 1) % 3, v = (axis + 2) % 3;
    col[u][u] = c; col[u][v] = s;
    col[v][u] = -s; col[v][v] = c;
    return m;
}

static spx_mat3 rot_angle(int axis, double angle) { return rot(axis, (float)cos(angle), (float)sin(angle)); }

/* The big level triangle y = 0 under every resting test, wound counter-clockwise from above. */
static spx_triangle floor_tri(void) { return tri(spx_v3(-10, 0, 10), spx_v3(10, 0, 10), spx_v3(0, 0, -10)); }

static const spx_triangle_edges all_open = { { SPX_EDGE_OPEN, SPX_EDGE_OPEN, SPX_EDGE_OPEN }, 7 };
static const spx_triangle_edges all_flat = { { 0.0f, 0.0f, 0.0f }, 0 };

static int has_point(const spx_manifold* m, float x, float y, float z, float depth)
{
    for (int i = 0; i < m->point_count; ++i) {
        const spx_manifold_point* p = &m->points[i];
        if (fabsf(p->point.x - x) <= TOL && fabsf(p->point.y - y) <= TOL && fabsf(p->point.z - z) <= TOL
            && fabsf(p->depth - depth) <= TOL)
            return 1;
    }
    return 0;
}

static int has_id(const spx_manifold* m, uint32_t id)
{
    for (int i = 0; i < m->point_count; ++i)
        if (m->points[i].id == id) return 1;
    return 0;
}

static int ids_distinct(const spx_manifold* m)
{
    for (int i = 0; i < m->point_count; ++i)
        for (int j = i + 1; j < m->point_count; ++j)
            if (m->points[i].id == m->points[j].id) return 0;
    return 1;
}

static int normal_is(const spx_manifold* m, float x, float y, float z)
{
    ENSURE_NEAR(m->normal.x, x, TOL);
    ENSURE_NEAR(m->normal.y, y, TOL);
    ENSURE_NEAR(m->normal.z, z, TOL);
    return 0;
}

/* ---- hand-worked contacts ---------------------------------------------------------------------- */

static int box_resting_flat_on_a_big_triangle(void)
{   /* Unit cube 0.01 into the level triangle: bottom at y = -0.01. The triangle's face and the box's
       bottom tie at -0.01 and the triangle's face is preferred: the bottom face is clipped by the
       triangle's sides and lies wholly inside, so its 4 corners are the points, midway at -0.005,
       named by the box corners with bit 1 (y) clear: 0, 1, 4, 5. Normal from the box down. */
    spx_obb a = box(spx_v3(0.1f, 0.49f, -0.2f), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_triangle b = floor_tri();
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 4);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, -0.4f, -0.005f, -0.7f, 0.01f));
    ENSURE(has_point(&m, 0.6f, -0.005f, -0.7f, 0.01f));
    ENSURE(has_point(&m, -0.4f, -0.005f, 0.3f, 0.01f));
    ENSURE(has_point(&m, 0.6f, -0.005f, 0.3f, 0.01f));
    ENSURE(has_id(&m, 0) && has_id(&m, 1) && has_id(&m, 4) && has_id(&m, 5));

    /* Nudged frame after frame (sideways, down, a turn about the vertical): the same corners, the
       same ids. */
    for (int frame = 1; frame <= 20; ++frame) {
        spx_obb a2 = a;
        a2.center.x += 1e-4f * frame;
        a2.center.z -= 5e-5f * frame;
        a2.center.y -= 2e-5f * (frame % 3);
        a2.rotation = rot_angle(1, 1e-3 * frame);
        spx_manifold m2;
        ENSURE_CODE(spx_manifold_obb_triangle(&a2, &b, 0.0f, &m2), SPX_OK);
        ENSURE(m2.point_count == 4);
        ENSURE(has_id(&m2, 0) && has_id(&m2, 1) && has_id(&m2, 4) && has_id(&m2, 5));
        for (int i = 0; i < 4; ++i) ENSURE_NEAR(m2.points[i].depth, 0.01f + 2e-5f * (frame % 3), TOL);
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
{   /* Corner 7 of a unit cube points down, 0.02 into the level triangle: the triangle's face is the
       reference, the incident face (+x, the first of three tied) has only that corner within a zero
       margin: one point at (cx, -0.01, cz), depth 0.02, id 7. The corner is sqrt3/2 below the
       centre. */
    spx_mat3 r = corner_down();
    ENSURE_CODE(spx_obb_validate(&(spx_obb){ { 0, 0, 0 }, { 1, 1, 1 }, r }), SPX_OK);
    const float cy = (float)(sqrt(3.0) / 2.0) - 0.02f;
    spx_obb a = box(spx_v3(0.3f, cy, 0.2f), spx_v3(0.5f, 0.5f, 0.5f), r);
    spx_triangle b = floor_tri();
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 1);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, 0.3f, -0.01f, 0.2f, 0.02f));
    ENSURE(m.points[0].id == 7u);
    /* A margin of 1 m adds the face's two corners next to the tip as speculative points, 1/sqrt3
       above it (gap 0.5774 - 0.02; ids 3 and 5); the fourth is 2/sqrt3 up, beyond the margin. */
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 1.0f, &m), SPX_OK);
    ENSURE(m.point_count == 3);
    ENSURE(has_id(&m, 7) && has_id(&m, 3) && has_id(&m, 5));
    for (int i = 0; i < 3; ++i)
        if (m.points[i].id != 7u) ENSURE_NEAR(m.points[i].depth, 0.02 - 1.0 / sqrt(3.0), TOL);
    return 0;
}

static int box_edge_across_a_triangle_edge(void)
{   /* A unit cube turned 45 degrees about x rests on its bottom edge (along x) at y = -0.01, across
       the top edge (along z, y = 0) of a triangle standing in the plane x = 0. Edge contact: normal
       x cross z = -y (box towards triangle), one point midway at (0, -0.005, 0), depth 0.01. The box
       edge: along axis 0, on the - side of box axis 1 (0, c, s) and the + side of axis 2 (0, -s, c),
       so e = 0 + 0 + 2 = 2; triangle edge 0: id 26 + 3 * 2 + 0 = 32. */
    const float h = (float)sqrt(0.5);
    spx_obb a = box(spx_v3(0, h - 0.01f, 0), spx_v3(0.5f, 0.5f, 0.5f), rot(0, h, h));
    spx_triangle b = tri(spx_v3(0, 0, -1), spx_v3(0, 0, 1), spx_v3(0, -2, 0));
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 1);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, 0, -0.005f, 0, 0.01f));
    ENSURE(m.points[0].id == 32u);
    /* The other winding is the same triangle to a two-sided query: same point, normal and depth; the
       top edge is still edge 0, run the other way, so the id is the same. */
    spx_triangle w = tri(b.v[1], b.v[0], b.v[2]);
    spx_manifold mw;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &w, 0.0f, &mw), SPX_OK);
    ENSURE(mw.point_count == 1);
    ENSURE(normal_is(&mw, 0, -1, 0) == 0);
    ENSURE(has_point(&mw, 0, -0.005f, 0, 0.01f));
    ENSURE(mw.points[0].id == 32u);
    return 0;
}

static int triangle_poking_into_a_box_face(void)
{   /* A standing triangle's top corner 0.01 into the bottom face (y = -0.5) of an axis-aligned unit
       cube: the box's -y face is the reference (f = 3), one point: the corner moved halfway to the
       face, depth 0.01, id 8 + 3 * 3 + 2 = 19. */
    spx_obb a = box(spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_triangle b = tri(spx_v3(-1.0f, -3.0f, 0.0f), spx_v3(1.0f, -3.0f, 0.3f), spx_v3(0.1f, -0.49f, 0.05f));
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 1);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, 0.1f, -0.495f, 0.05f, 0.01f));
    ENSURE(m.points[0].id == 19u);
    /* The box moved around the triangle instead (the pair seen from the other side): the cube above
       the apex turned upside down is the same problem with the +y face as reference: f = 2, id 16. */
    spx_obb flipped = box(spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), rot(2, -1, 0));
    ENSURE_CODE(spx_manifold_obb_triangle(&flipped, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 1);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, 0.1f, -0.495f, 0.05f, 0.01f));
    ENSURE(m.points[0].id == 16u);
    return 0;
}

static int small_triangle_under_a_box_face(void)
{   /* A small level triangle wholly under the bottom of a larger box, 0.02 up into it: the two faces
       tie and the triangle's is the reference; the box's bottom covers the triangle, so the points are
       the triangle's three corners (ids 8 + 3 * 3 + k, incident face -y), at depth 0.02. */
    spx_obb a = box(spx_v3(0, 1.0f - 0.02f, 0), spx_v3(1, 1, 1), identity);
    spx_triangle b = tri(spx_v3(-0.3f, 0, 0.2f), spx_v3(0.4f, 0, 0.1f), spx_v3(0, 0, -0.5f));
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 3);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, -0.3f, -0.01f, 0.2f, 0.02f));
    ENSURE(has_point(&m, 0.4f, -0.01f, 0.1f, 0.02f));
    ENSURE(has_point(&m, 0, -0.01f, -0.5f, 0.02f));
    ENSURE(has_id(&m, 17) && has_id(&m, 18) && has_id(&m, 19));
    return 0;
}

static int clipped_polygon_is_cut_to_four(void)
{   /* A triangle whose corners stick out past three sides of a box's bottom (half 1): the overlap is
       a hexagon or more; 4 points are kept, the deepest among them, all distinct. The bottom is level
       and the triangle tilted, so depths differ. */
    spx_obb a = box(spx_v3(0, 1.0f, 0), spx_v3(1, 1, 1), identity);
    spx_triangle b = tri(spx_v3(-2.0f, 0.05f, 1.2f), spx_v3(2.0f, 0.02f, 1.2f), spx_v3(0.0f, -0.04f, -2.5f));
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.1f, &m), SPX_OK);
    ENSURE(m.point_count == 4);
    ENSURE(ids_distinct(&m));
    ENSURE(m.normal.y < -0.99f);
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
    ENSURE(crossings == 2);
    ENSURE(corners == 2);
    return 0;
}

static int margins_decide_speculative_points(void)
{   /* The unit cube 0.05 above the level triangle: beyond a margin of 0.04 nothing, within 0.06 the
       four bottom corners with depth -0.05, midway at y = 0.025. */
    spx_obb a = box(spx_v3(0, 0.55f, 0), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_triangle b = floor_tri();
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.04f, &m), SPX_OK);
    ENSURE(m.point_count == 0);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 0);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.06f, &m), SPX_OK);
    ENSURE(m.point_count == 4);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(has_point(&m, 0.5f, 0.025f, 0.5f, -0.05f));
    ENSURE(has_point(&m, -0.5f, 0.025f, -0.5f, -0.05f));
    /* Beside the triangle instead (0.05 past its edge at z = 10, level with it): the box's -z face is
       the reference, and the triangle's edge crosses its sides at x = -+0.5: two points 0.05 apart. */
    spx_obb s = box(spx_v3(0, 0, 10.55f), spx_v3(0.5f, 0.5f, 0.5f), identity);
    ENSURE_CODE(spx_manifold_obb_triangle(&s, &b, 0.04f, &m), SPX_OK);
    ENSURE(m.point_count == 0);
    ENSURE_CODE(spx_manifold_obb_triangle(&s, &b, 0.06f, &m), SPX_OK);
    ENSURE(m.point_count > 0);
    ENSURE(normal_is(&m, 0, 0, -1) == 0);
    ENSURE(m.point_count == 2);
    ENSURE(has_point(&m, -0.5f, 0.0f, 10.025f, -0.05f));
    ENSURE(has_point(&m, 0.5f, 0.0f, 10.025f, -0.05f));
    return 0;
}

/* ---- surface edges on one triangle --------------------------------------------------------------- */

static int flat_edge_gives_no_sideways_normal(void)
{   /* The level triangle's edge 0 runs along x at z = 0 (the triangle lies at z <= 0). A unit cube
       0.01 into its plane overhangs that edge by only 0.004: on its own the triangle's best axis is
       +z (overlap 0.004 < 0.01), a sideways normal, which is right for a lone triangle. When edge 0
       is a flat edge of a surface, the face is the normal: the box's bottom corners over the
       triangle (z = -0.004) and the crossings of its sides with the edge, all 0.01 deep. */
    spx_triangle b = tri(spx_v3(-5, 0, 0), spx_v3(5, 0, 0), spx_v3(0, 0, -5));
    spx_obb a = box(spx_v3(0, 0.49f, 0.496f), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, 0, -1) == 0);
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &all_open, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, 0, -1) == 0);
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &all_flat, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(m.point_count == 4);
    ENSURE(has_point(&m, -0.5f, -0.005f, -0.004f, 0.01f));
    ENSURE(has_point(&m, 0.5f, -0.005f, -0.004f, 0.01f));
    ENSURE(has_point(&m, -0.5f, -0.005f, 0.0f, 0.01f));
    ENSURE(has_point(&m, 0.5f, -0.005f, 0.0f, 0.01f));
    /* A concave edge (the surface turns up beyond it, seen from above) is no edge either; seen from
       below it is convex, and the box under the triangle may take the edge's normal. */
    spx_triangle_edges concave = { { -0.5f, 0.0f, 0.0f }, 0 };
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &concave, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    spx_obb below = box(spx_v3(0, -0.49f, 0.496f), spx_v3(0.5f, 0.5f, 0.5f), identity);
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&below, &b, &concave, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, 1, 0) == 0); /* +z lies 90 degrees from the face: outside a 0.5 rad wedge */
    spx_triangle_edges concave_fold = { { -3.0f, 0.0f, 0.0f }, 0 };
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&below, &b, &concave_fold, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, 0, -1) == 0);
    return 0;
}

static int convex_edge_gives_normals_inside_its_wedge(void)
{   /* A roof ridge: the triangle slopes down from its edge 0 (along x at y = 0, z = 0) at 0.3 rad
       towards +z, and the surface turns 0.6 rad across the ridge (the other slope mirrors it). A level
       unit cube 0.01 down onto the ridge, straddling it: its bottom face's axis (vertical) is 0.3 rad
       from the slope's normal, inside the wedge: the normal is straight down (the ridge's own), the
       points on the ridge 0.01 deep. With a wedge of 0.2 rad the vertical is outside it, and the
       slope's face gives the normal instead. */
    const float c = (float)cos(0.3), s = (float)sin(0.3);
    spx_triangle b = tri(spx_v3(5, 0, 0), spx_v3(-5, 0, 0), spx_v3(0, -5 * s, 5 * c));
    spx_obb a = box(spx_v3(0.2f, 0.49f, 0.1f), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_triangle_edges ridge = { { 0.6f, 0.0f, 0.0f }, 0 };
    spx_manifold m;
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &ridge, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, -1, 0) == 0);
    ENSURE(m.point_count >= 1);
    for (int i = 0; i < m.point_count; ++i) {
        ENSURE_NEAR(m.points[i].point.z, 0.0f, TOL);
        ENSURE_NEAR(m.points[i].depth, 0.01f, TOL);
    }
    spx_triangle_edges gentle = { { 0.2f, 0.0f, 0.0f }, 0 };
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &gentle, 0.0f, &m), SPX_OK);
    ENSURE(normal_is(&m, 0, -c, -s) == 0);
    return 0;
}

static int corners_of_a_surface_give_normals(void)
{   /* Box corner 7 pointing down at a triangle's corner from beside it: the triangle (level,
       corner v0 at the origin, the rest towards -x -z) meets the box only near v0, and the least
       overlap is a box face seen edge-on. Only if v0 is a corner of the surface may it give the
       normal; otherwise the triangle's face does. */
    spx_triangle b = tri(spx_v3(0, 0, 0), spx_v3(-3, 0, -1), spx_v3(-1, 0, -3));
    spx_obb a = box(spx_v3(0.49f, 0.2f, 0.45f), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_manifold open, plain, corner;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, &plain), SPX_OK);
    ENSURE(plain.point_count >= 1);
    ENSURE(fabsf(plain.normal.y) < 0.5f); /* sideways: the corner of a lone triangle */
    spx_triangle_edges only_corner = { { 0.0f, 0.0f, 0.0f }, 1 };
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &only_corner, 0.0f, &corner), SPX_OK);
    ENSURE(corner.point_count == plain.point_count);
    ENSURE_NEAR(corner.normal.x, plain.normal.x, 0);
    ENSURE_NEAR(corner.normal.z, plain.normal.z, 0);
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &all_flat, 0.0f, &open), SPX_OK);
    ENSURE(normal_is(&open, 0, -1, 0) == 0);
    return 0;
}

/* ---- agreement with the penetration query ------------------------------------------------------ */

/* How far B must move along unit n (A towards B) to part: A's highest corner less B's lowest. */
static double overlap_along(const spx_obb* a, const spx_triangle* b, const double n[3])
{
    spx_vec3 c[8];
    spx_obb_corners(a, c);
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
{   /* Random overlapping pairs. Where the least overlap is clearly unique, the manifold's normal is the
       one of spx_penetration_obb_triangle and the overlap along it is its depth. Elsewhere the manifold
       may keep a preferred axis (the triangle's face, then the box's, then edges) that the least one
       does not beat by 2% and 1e-5 of the size. Either way no point is deeper than the overlap along
       the normal. */
    int overlapping = 0, unique = 0, same = 0, seen_as_face = 0;
    for (uint64_t seed = 0; seed < 20000; ++seed) {
        sweep_case c;
        case_make(CASE_OBB_TRIANGLE, seed, &c);
        const spx_obb* a = &c.box[0];
        const spx_triangle* b = &c.tri[1];
        spx_penetration pen;
        ENSURE_CODE(spx_penetration_obb_triangle(a, b, &pen), SPX_OK);
        spx_manifold m;
        ENSURE_CODE(spx_manifold_obb_triangle(a, b, 0.0f, &m), SPX_OK);
        if (!pen.overlapping) continue;
        ++overlapping;
        ENSURE(m.point_count > 0);
        double longest = 0.0;
        for (int k = 0; k < 3; ++k) {
            const spx_vec3 p = b->v[k], q = b->v[(k + 1) % 3];
            longest = fmax(longest, sqrt(((double)p.x - q.x) * ((double)p.x - q.x) + ((double)p.y - q.y) * ((double)p.y - q.y)
                                         + ((double)p.z - q.z) * ((double)p.z - q.z)));
        }
        const double size = (double)a->half_extents.x + a->half_extents.y + a->half_extents.z + longest;
        const double n[3] = { m.normal.x, m.normal.y, m.normal.z };
        const double along = overlap_along(a, b, n);
        const spx_vec3* v = b->v;
        const double e0[3] = { (double)v[1].x - v[0].x, (double)v[1].y - v[0].y, (double)v[1].z - v[0].z };
        const double e2[3] = { (double)v[2].x - v[0].x, (double)v[2].y - v[0].y, (double)v[2].z - v[0].z };
        const double nt[3] = { e0[1] * e2[2] - e0[2] * e2[1], e0[2] * e2[0] - e0[0] * e2[2], e0[0] * e2[1] - e0[1] * e2[0] };
        const double pn[3] = { pen.normal.x, pen.normal.y, pen.normal.z };
        const double dot = (n[0] * pn[0] + n[1] * pn[1] + n[2] * pn[2])
                         / sqrt((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) * (pn[0] * pn[0] + pn[1] * pn[1] + pn[2] * pn[2]));
        same += dot > 1.0 - 1e-10;
        /* The manifold does not take an edge axis within 8 degrees of a face normal (the box's or the
           triangle's) when the faces overlap at most 1e-2 of the size (a quarter of ours) more: such
           pairs are face contacts seen edge-on. */
        double near_face = fabs(pn[0] * nt[0] + pn[1] * nt[1] + pn[2] * nt[2]) / sqrt(nt[0] * nt[0] + nt[1] * nt[1] + nt[2] * nt[2]);
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
            case_print(stderr, &c);
            return 1;
        }
        for (int i = 0; i < m.point_count; ++i) ENSURE(m.points[i].depth <= along + 2e-5 * size);
        ENSURE(ids_distinct(&m));
    }
    printf("  %d overlapping pairs, %d with a unique least axis (all agree), %d with an edge axis seen as a face; "
           "%d on the same axis in all\n", overlapping, unique, seen_as_face, same);
    ENSURE(overlapping > 5000 && unique > overlapping / 2);
    return 0;
}

/* ---- bad input ----------------------------------------------------------------------------------- */

static int bad_input_gets_its_code(void)
{
    spx_obb a = box(spx_v3(0, 0.49f, 0), spx_v3(0.5f, 0.5f, 0.5f), identity);
    spx_triangle b = floor_tri();
    spx_manifold m, sentinel;
    memset(&sentinel, 0x5A, sizeof sentinel);
    m = sentinel;
    ENSURE_CODE(spx_manifold_obb_triangle(NULL, &b, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, NULL, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, 0.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, -1e-3f, &m), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, NAN, &m), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &b, INFINITY, &m), SPX_ERR_NOT_FINITE);
    spx_obb bad = a;
    bad.center.y = NAN;
    ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_NOT_FINITE);
    bad = a;
    bad.half_extents.z = 0.0f;
    ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_BAD_EXTENT);
    bad = a;
    bad.rotation.col[0].x = 1.1f;
    ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_NOT_ORTHONORMAL);
    bad = a;
    bad.rotation.col[2].z = -1.0f;
    ENSURE_CODE(spx_manifold_obb_triangle(&bad, &b, 0.0f, &m), SPX_ERR_NOT_RIGHT_HANDED);
    spx_triangle badt = b;
    badt.v[1].x = INFINITY;
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &badt, 0.0f, &m), SPX_ERR_NOT_FINITE);
    badt = tri(spx_v3(1, 2, 3), spx_v3(1, 2, 3), spx_v3(1, 2, 3));
    ENSURE_CODE(spx_manifold_obb_triangle(&a, &badt, 0.0f, &m), SPX_ERR_DEGENERATE_TRIANGLE);
    spx_triangle_edges nan_edge = { { 0.0f, NAN, 0.0f }, 0 };
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &nan_edge, 0.0f, &m), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_manifold_obb_triangle_ex(NULL, &b, &all_flat, 0.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    ENSURE(memcmp(&m, &sentinel, sizeof m) == 0); /* no failed call wrote the output */
    /* Infinite angles are open edges, not errors. */
    spx_triangle_edges inf_edge = { { INFINITY, -INFINITY, 0.0f }, 0 };
    ENSURE_CODE(spx_manifold_obb_triangle_ex(&a, &b, &inf_edge, 0.0f, &m), SPX_OK);
    ENSURE(m.point_count == 4);
    return 0;
}

int main(void)
{
    int failures = 0;
    RUN_TEST(box_resting_flat_on_a_big_triangle, failures);
    RUN_TEST(box_corner_into_the_face, failures);
    RUN_TEST(box_edge_across_a_triangle_edge, failures);
    RUN_TEST(triangle_poking_into_a_box_face, failures);
    RUN_TEST(small_triangle_under_a_box_face, failures);
    RUN_TEST(clipped_polygon_is_cut_to_four, failures);
    RUN_TEST(margins_decide_speculative_points, failures);
    RUN_TEST(flat_edge_gives_no_sideways_normal, failures);
    RUN_TEST(convex_edge_gives_normals_inside_its_wedge, failures);
    RUN_TEST(corners_of_a_surface_give_normals, failures);
    RUN_TEST(agrees_with_penetration, failures);
    RUN_TEST(bad_input_gets_its_code, failures);
    return failures ? 1 : 0;
}
