/* Mesh-mesh contact manifolds (spx_manifold_mesh_mesh): closed meshes (a tessellated box, a torus, a
   sphere) resting on, above and sliding across a flat grid; interpenetrating pairs; swapped
   arguments; every pair within the margin reached (against all pairs by GJK); stable ids; the same
   answer from any tree; bad input. Answers worked out by hand in the comments. */
#include <sepax/sepax.h>
#include "collide/manifold_mesh_kept.h"
#include "collide/sweep_bound.h"
#include "support/reference.h"
#include "support/shapes.h"
#include "support/test.h"
#include "support/pieces.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOL 2e-5f
#define NORMAL_TOL 1e-4 /* rad */

/* A mesh and an instance of it. */
typedef struct placed {
    spx_mesh* mesh;
    spx_mesh_instance* inst;
} placed;

static spx_quat quat_mul(spx_quat a, spx_quat b)
{
    spx_quat r = { a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
    return r;
}

static const spx_quat no_turn = { 0.0f, 0.0f, 0.0f, 1.0f };

/* A closed box of half extents h, each face an n x n grid of squares (2 n^2 triangles), wound
   counter-clockwise from outside; the faces' shared corners have equal coordinates, so they weld. */
static bool shape_box(test_shape* s, spx_vec3 h, uint32_t n)
{
    const uint32_t per_face = (n + 1) * (n + 1);
    s->vertex_count = 6 * per_face;
    s->triangle_count = 12 * n * n;
    s->vertices = malloc(sizeof *s->vertices * s->vertex_count);
    s->indices = malloc(sizeof *s->indices * 3 * s->triangle_count);
    if (!s->vertices || !s->indices) return false;
    const float hh[3] = { h.x, h.y, h.z };
    uint32_t* t = s->indices;
    for (int f = 0; f < 6; ++f) {
        const int k = f / 2, u = (k + 1) % 3, v = (k + 2) % 3;
        const float sign = f % 2 == 0 ? 1.0f : -1.0f;
        const uint32_t base = (uint32_t)f * per_face;
        for (uint32_t i = 0; i <= n; ++i)
            for (uint32_t j = 0; j <= n; ++j) {
                float c[3];
                c[k] = sign * hh[k];
                c[u] = -hh[u] + 2.0f * hh[u] * (float)i / (float)n;
                c[v] = -hh[v] + 2.0f * hh[v] * (float)j / (float)n;
                s->vertices[base + i * (n + 1) + j] = spx_v3(c[0], c[1], c[2]);
            }
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t j = 0; j < n; ++j) {
                /* e_u x e_v = e_k: (i,j) (i+1,j) (i+1,j+1) (i,j+1) turns about +k. */
                uint32_t q[4] = { base + i * (n + 1) + j, base + (i + 1) * (n + 1) + j,
                                  base + (i + 1) * (n + 1) + j + 1, base + i * (n + 1) + j + 1 };
                if (sign < 0.0f) {
                    uint32_t x = q[1];
                    q[1] = q[3];
                    q[3] = x;
                }
                *t++ = q[0], *t++ = q[1], *t++ = q[2];
                *t++ = q[0], *t++ = q[2], *t++ = q[3];
            }
    }
    return true;
}

/* Reverses every triangle's winding (the sphere generator's is inside out). */
static void shape_flip(test_shape* s)
{
    for (uint32_t i = 0; i < s->triangle_count; ++i) {
        uint32_t x = s->indices[3 * i + 1];
        s->indices[3 * i + 1] = s->indices[3 * i + 2];
        s->indices[3 * i + 2] = x;
    }
}

static void count_pair(void* context, uint32_t ta, uint32_t tb)
{
    (void)ta, (void)tb;
    ++*(uint32_t*)context;
}

static int make_placed(const test_shape* s, uint32_t leaf, bool closed, spx_vec3 at, spx_quat q, placed* out)
{
    spx_mesh_def def = test_shape_mesh_def(s, leaf);
    TEST_ENSURE_CODE(spx_mesh_create(&def, &out->mesh), SPX_OK);
    if (closed) { /* a solid, wound outward: what the world's dynamic meshes are */
        spx_mass_properties mp;
        TEST_ENSURE_CODE(spx_mass_mesh(out->mesh, 1000.0f, &mp), SPX_OK);
    }
    spx_transform pose = { at, q };
    TEST_ENSURE_CODE(test_place_mesh(out->mesh, pose, &out->inst), SPX_OK);
    return 0;
}

static void free_placed(placed* p)
{
    spx_mesh_instance_destroy(p->inst);
    spx_mesh_destroy(p->mesh);
    p->inst = NULL;
    p->mesh = NULL;
}

static int move(placed* p, spx_vec3 at, spx_quat q)
{
    spx_transform pose = { at, q };
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(p->inst, &pose), SPX_OK);
    return 0;
}

/* The grid: 8 x 8 unit squares on y = 0 over [0, 8] x [0, 8], 128 triangles, its front up. */
static int make_grid(uint32_t leaf, placed* out)
{
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 8, 8));
    int r = make_placed(&s, leaf, false, spx_v3(0, 0, 0), no_turn, out);
    test_shape_free(&s);
    return r;
}

static int make_box(uint32_t leaf, spx_vec3 h, uint32_t n, spx_vec3 at, spx_quat q, placed* out)
{
    test_shape s;
    TEST_ENSURE(shape_box(&s, h, n));
    int r = make_placed(&s, leaf, true, at, q, out);
    test_shape_free(&s);
    return r;
}

/* The 8 x 8 grid and a box made as make_box makes it, both with leaves of 4 triangles. */
static int grid_and_box(spx_vec3 h, uint32_t n, spx_vec3 at, spx_quat q, placed* grid, placed* cube)
{
    TEST_ENSURE(make_grid(4, grid) == 0);
    return make_box(4, h, n, at, q, cube);
}

/* The test torus (ring radius 1, tube 0.3, 32 x 16 segments, closed, leaves of 4) at this pose. */
static int make_torus(spx_vec3 at, spx_quat q, placed* out)
{
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 32, 16));
    int r = make_placed(&s, 4, true, at, q, out);
    test_shape_free(&s);
    return r;
}

static double angle_to(spx_vec3 n, double x, double y, double z)
{
    const double c = (n.x * x + n.y * y + n.z * z) / sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
    return acos(c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c));
}

static float deepest(const spx_manifold* m)
{
    float d = -INFINITY;
    for (int i = 0; i < m->point_count; ++i) d = m->points[i].depth > d ? m->points[i].depth : d;
    return d;
}

/* Area of the quadrilateral (or triangle) the points span in the xz plane, by the shoelace formula
   over their convex order around the centroid. */
static double span_xz(const spx_manifold* m)
{
    int n = m->point_count;
    double cx = 0, cz = 0, ang[4];
    int idx[4];
    for (int i = 0; i < n; ++i) cx += m->points[i].point.x / n, cz += m->points[i].point.z / n;
    for (int i = 0; i < n; ++i) {
        idx[i] = i;
        ang[i] = atan2(m->points[i].point.z - cz, m->points[i].point.x - cx);
    }
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (ang[idx[j]] < ang[idx[i]]) {
                int x = idx[i];
                idx[i] = idx[j];
                idx[j] = x;
            }
    double a = 0;
    for (int i = 0; i < n; ++i) {
        const spx_vec3 p = m->points[idx[i]].point, q = m->points[idx[(i + 1) % n]].point;
        a += (double)p.x * q.z - (double)q.x * p.z;
    }
    return 0.5 * fabs(a);
}

static int same_swapped(placed* a, placed* b, float margin, const char* label);

/* The manifolds of a and b, or of b and a when `swap`. */
static spx_result manifolds_swapped(const placed* a, const placed* b, int swap, float margin, spx_manifold* m,
                                    uint32_t* count)
{
    return spx_manifold_mesh_mesh(swap ? b->inst : a->inst, swap ? a->inst : b->inst, margin, m, SPX_MAX_MESH_MANIFOLDS,
                                  count);
}

/* ---- a box on the grid --------------------------------------------------------------------------- */

/* A 1 m box (3 x 3 squares a face) sunk 0.01 m into the grid at (3.3, 4.2), clear of the grid's
   vertices: one manifold, normal +y (grid towards box), the four bottom corners (3.3 +- 0.5,
   -0.005, 4.2 +- 0.5: midway between the surfaces), each 0.01 deep. Swapped: normal -y, same points. */
static int box_rests_on_grid(void)
{
    placed grid, cube;
    TEST_ENSURE(grid_and_box(spx_v3(0.5f, 0.5f, 0.5f), 3, spx_v3(3.3f, 0.49f, 4.2f), no_turn, &grid, &cube) == 0);
    for (int swap = 0; swap < 2; ++swap) {
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 99;
        TEST_ENSURE_CODE(manifolds_swapped(&grid, &cube, swap, 0.0f, m, &count), SPX_OK);
        TEST_ENSURE(count == 1);
        TEST_ENSURE_NEAR3(m[0].normal, 0.0f, swap ? -1.0f : 1.0f, 0.0f, TOL);
        TEST_ENSURE(m[0].point_count == 4);
        int corners = 0;
        for (int i = 0; i < 4; ++i) {
            const spx_manifold_point* p = &m[0].points[i];
            TEST_ENSURE_NEAR(p->depth, 0.01f, TOL);
            TEST_ENSURE_NEAR(p->point.y, -0.005f, TOL);
            for (int c = 0; c < 4; ++c) {
                const float x = 3.3f + (c & 1 ? 0.5f : -0.5f), z = 4.2f + (c & 2 ? 0.5f : -0.5f);
                if (fabsf(p->point.x - x) <= TOL && fabsf(p->point.z - z) <= TOL) corners |= 1 << c;
            }
            for (int j = 0; j < i; ++j) TEST_ENSURE(m[0].points[j].id != p->id);
        }
        TEST_ENSURE(corners == 15);
    }
    free_placed(&cube);
    free_placed(&grid);
    return 0;
}

/* The box 0.003 m above the grid: within a margin of 0.01 the four bottom corners come as speculative
   points, depth -0.003, normal +y; with a margin of 0.002 nothing. */
static int box_above_grid_is_speculative(void)
{
    placed grid, cube;
    TEST_ENSURE(grid_and_box(spx_v3(0.5f, 0.5f, 0.5f), 2, spx_v3(5.5f, 0.503f, 2.5f), no_turn, &grid, &cube) == 0);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.01f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 1);
    TEST_ENSURE(angle_to(m[0].normal, 0, 1, 0) <= NORMAL_TOL);
    TEST_ENSURE(m[0].point_count == 4);
    for (int i = 0; i < 4; ++i) {
        TEST_ENSURE_NEAR(m[0].points[i].depth, -0.003f, TOL);
        TEST_ENSURE_NEAR(m[0].points[i].point.y, 0.0015f, TOL);
        TEST_ENSURE_NEAR(fabsf(m[0].points[i].point.x - 5.5f), 0.5f, TOL);
        TEST_ENSURE_NEAR(fabsf(m[0].points[i].point.z - 2.5f), 0.5f, TOL);
    }
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.002f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 0);
    free_placed(&cube);
    free_placed(&grid);
    return 0;
}

/* Boxes of three sizes, turned about y by 5 angles, sunk 0.004 m, sliding across the grid along paths
   over its edges, diagonals and vertices: every manifold's normal within 1e-4 rad of +y, one
   manifold, its deepest point 0.004 deep. The same without the surface edges must bump somewhere
   (the test would not notice a rule that does nothing). */
static int box_slides_across_grid_edges(void)
{
    placed grid;
    TEST_ENSURE(make_grid(4, &grid) == 0);
    const float sizes[3] = { 0.3f, 0.5f, 1.2f };
    int checked = 0, bumps_without_rule = 0;
    for (int si = 0; si < 3; ++si) {
        const float h = sizes[si];
        placed cube;
        TEST_ENSURE(make_box(4, spx_v3(h, 0.5f * h, h), 2, spx_v3(4, 1, 4), no_turn, &cube) == 0);
        for (int turn = 0; turn < 5; ++turn) {
            const spx_quat q = test_about(1, 0.31 * turn);
            for (int path = 0; path < 4; ++path)
                for (int step = 0; step <= 40; ++step) {
                    const float s = (float)step / 40.0f;
                    spx_vec3 at;
                    if (path == 0) at = spx_v3(2.0f + 3.0f * s, 0.5f * h - 0.004f, 3.0f);      /* over vertices */
                    else if (path == 1) at = spx_v3(3.0f, 0.5f * h - 0.004f, 2.0f + 3.0f * s); /* along an edge */
                    else if (path == 2) at = spx_v3(2.0f + 3.0f * s, 0.5f * h - 0.004f, 2.0f + 3.0f * s); /* diagonal */
                    else at = spx_v3(2.1f + 3.0f * s, 0.5f * h - 0.004f, 5.7f - 2.7f * s);
                    TEST_ENSURE(move(&cube, at, q) == 0);
                    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
                    uint32_t count = 0;
                    TEST_ENSURE_CODE(
                        spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.001f, m, SPX_MAX_MESH_MANIFOLDS, &count),
                        SPX_OK);
                    if (count != 1 || angle_to(m[0].normal, 0, 1, 0) > NORMAL_TOL ||
                        fabsf(deepest(&m[0]) - 0.004f) > TOL || m[0].point_count != 4) {
                        fprintf(
                            stderr,
                            "size %g turn %d path %d step %d: %u manifolds, normal (%g %g %g), deepest %g, %d points\n",
                            h, turn, path, step, count, count ? m[0].normal.x : 0, count ? m[0].normal.y : 0,
                            count ? m[0].normal.z : 0, count ? deepest(&m[0]) : 0, count ? m[0].point_count : 0);
                        return 1;
                    }
                    ++checked;
                    spx_manifold_mesh_mesh_checked(grid.inst, cube.inst, 0.001f, false, m, SPX_MAX_MESH_MANIFOLDS,
                                                   &count);
                    for (uint32_t g = 0; g < count; ++g)
                        if (angle_to(m[g].normal, 0, 1, 0) > NORMAL_TOL) {
                            ++bumps_without_rule;
                            break;
                        }
                }
        }
        free_placed(&cube);
    }
    printf("  %d sliding poses, all level; without the surface edges %d of them bump\n", checked, bumps_without_rule);
    TEST_ENSURE(bumps_without_rule > 0);
    free_placed(&grid);
    return 0;
}

/* Sliding by 1 cm steps over grid edges, a resting box keeps its four point ids: the box's corners
   inside the grid's faces, named by the vertex alone (whichever of the box's triangles and the
   grid's gives them). */
static int resting_box_keeps_its_ids(void)
{
    placed grid, cube;
    TEST_ENSURE(grid_and_box(spx_v3(0.4f, 0.4f, 0.4f), 2, spx_v3(2, 1, 2), test_about(1, 0.2), &grid, &cube) == 0);
    uint32_t ids[4] = { 0 };
    for (int step = 0; step <= 60; ++step) {
        TEST_ENSURE(move(&cube, spx_v3(2.7f + 0.01f * step, 0.395f, 3.6f), test_about(1, 0.2)) == 0);
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 0;
        TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.0f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
        TEST_ENSURE(count == 1 && m[0].point_count == 4);
        for (int i = 0; i < 4; ++i) {
            TEST_ENSURE((m[0].points[i].id & 15u) == 3); /* B's corners (the box's), named by the vertex */
            if (step == 0) ids[i] = m[0].points[i].id;
            else TEST_ENSURE(m[0].points[i].id == ids[i]);
        }
    }
    free_placed(&cube);
    free_placed(&grid);
    return 0;
}

/* ---- curved closed meshes ------------------------------------------------------------------------ */

/* A torus (ring 1 m, tube 0.3 m, 32 x 16: a ring of vertices at the very bottom, y = -0.3) lying flat
   on the grid, sunk 0.006 m: one manifold, normal +y, deepest 0.006, four points near the ring's
   circle of radius 1 spanning a good part of it (a square inscribed in the circle spans 2 m^2). */
static int torus_lies_on_grid(void)
{
    placed grid, torus;
    TEST_ENSURE(make_grid(4, &grid) == 0);
    TEST_ENSURE(make_torus(spx_v3(4.1f, 0.294f, 3.9f), no_turn, &torus) == 0);
    for (int swap = 0; swap < 2; ++swap) {
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 0;
        TEST_ENSURE_CODE(manifolds_swapped(&grid, &torus, swap, 0.001f, m, &count), SPX_OK);
        TEST_ENSURE(count == 1);
        TEST_ENSURE(angle_to(m[0].normal, 0, swap ? -1 : 1, 0) <= NORMAL_TOL);
        TEST_ENSURE(m[0].point_count == 4);
        TEST_ENSURE_NEAR(deepest(&m[0]), 0.006f, 1e-5f);
        for (int i = 0; i < 4; ++i) {
            const spx_manifold_point* p = &m[0].points[i];
            const double r = hypot(p->point.x - 4.1, p->point.z - 3.9);
            TEST_ENSURE(r > 0.9 && r < 1.1);
            TEST_ENSURE(p->depth > -0.001f - 1e-6f && p->depth <= 0.006f + 1e-5f);
        }
        const double area = span_xz(&m[0]);
        printf("  torus on the grid (%s): 4 points spanning %.3f m^2 of the ring\n", swap ? "swapped" : "grid first",
               area);
        TEST_ENSURE(area > 1.5);
    }
    free_placed(&torus);
    free_placed(&grid);
    return 0;
}

/* A sphere of radius 0.5 (24 bands, 32 sectors) with its south pole 0.004 m into the grid: one
   manifold, normal +y, deepest 0.004, however either is wound. The generator's sphere is open (its
   south pole's corners differ by rounding) and so is the grid: an open mesh has no inside, and each
   of its triangles faces the other mesh. A closed sphere wound inside out is a cavity: its faces
   turn away from the grid and none gives a contact. */
static int sphere_rests_on_grid(void)
{
    for (int variant = 0; variant < 4; ++variant) {
        const bool flip_ball = variant & 1, flip_grid = variant & 2;
        test_shape g, s;
        TEST_ENSURE(test_shape_grid(&g, 8, 8) && test_shape_sphere(&s, 0.5f, 24, 32));
        if (flip_grid) shape_flip(&g);
        if (flip_ball) shape_flip(&s);
        placed grid, ball;
        TEST_ENSURE(make_placed(&g, 4, false, spx_v3(0, 0, 0), no_turn, &grid) == 0);
        TEST_ENSURE(make_placed(&s, 4, false, spx_v3(3.37f, 0.496f, 4.61f), no_turn, &ball) == 0);
        spx_mesh_info info;
        TEST_ENSURE_CODE(spx_mesh_get_info(ball.mesh, &info), SPX_OK);
        TEST_ENSURE(!info.closed);
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 0;
        TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, ball.inst, 0.002f, m, SPX_MAX_MESH_MANIFOLDS, &count),
                         SPX_OK);
        TEST_ENSURE(count == 1);
        TEST_ENSURE(angle_to(m[0].normal, 0, 1, 0) <= NORMAL_TOL);
        TEST_ENSURE_NEAR(deepest(&m[0]), 0.004f, 1e-5f);
        TEST_ENSURE(m[0].point_count >= 1);
        free_placed(&ball);
        /* Closed: the winding is its outside. */
        test_shape_snap_sphere_poles(&s, 0.5f, 24, 32);
        TEST_ENSURE(make_placed(&s, 4, false, spx_v3(3.37f, 0.496f, 4.61f), no_turn, &ball) == 0);
        TEST_ENSURE_CODE(spx_mesh_get_info(ball.mesh, &info), SPX_OK);
        TEST_ENSURE(info.closed);
        TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, ball.inst, 0.002f, m, SPX_MAX_MESH_MANIFOLDS, &count),
                         SPX_OK);
        if (flip_ball) {
            TEST_ENSURE(count == 1);
            TEST_ENSURE(angle_to(m[0].normal, 0, 1, 0) <= NORMAL_TOL);
            TEST_ENSURE_NEAR(deepest(&m[0]), 0.004f, 1e-5f);
        } else {
            for (uint32_t k = 0; k < count; ++k) TEST_ENSURE(m[k].normal.y <= 0.5f); /* never the grid pushing it up */
        }
        test_shape_free(&s);
        test_shape_free(&g);
        free_placed(&ball);
        free_placed(&grid);
    }
    return 0;
}

/* A box (0.6 x 0.3 x 0.6 half, turned 0.15 rad about y) set into the torus's hole, its bottom at
   y = 0.236: its four bottom corners (at radius 0.85) dig into the tube's inner slope, whose facets
   there lean 37.6 degrees (normal y 0.79) towards the axis. Four manifolds, one a corner, each with
   the slope's own normal pointing up and in (the torus's quarter-turn symmetry makes them equally
   deep), and the same seen from the box. */
static int box_corners_on_torus_slope(void)
{
    placed torus, cube;
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 48, 24));
    TEST_ENSURE(make_placed(&s, 4, true, spx_v3(0, 0, 0), no_turn, &torus) == 0);
    test_shape_free(&s);
    TEST_ENSURE(make_box(4, spx_v3(0.6f, 0.3f, 0.6f), 2, spx_v3(0.0f, 0.536f, 0.0f), test_about(1, 0.15), &cube) == 0);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(torus.inst, cube.inst, 0.002f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 4);
    for (uint32_t g = 0; g < 4; ++g) {
        TEST_ENSURE_NEAR(m[g].normal.y, 0.7933533f,
                         1e-3f); /* about cos 37.5 degrees: the facets between v = 105 and 120 */
        const spx_vec3 p = m[g].points[0].point;
        TEST_ENSURE(m[g].normal.x * p.x + m[g].normal.z * p.z < 0.0f); /* towards the axis */
        TEST_ENSURE_NEAR(hypot(p.x, p.z), 0.85, 0.01);
        TEST_ENSURE_NEAR(deepest(&m[g]), deepest(&m[0]), 1e-5f);
        TEST_ENSURE(deepest(&m[g]) > 0.01f);
    }
    TEST_ENSURE(same_swapped(&torus, &cube, 0.002f, "box corners on the torus") == 0);
    free_placed(&cube);
    free_placed(&torus);
    return 0;
}

/* ---- interpenetration ------------------------------------------------------------------------------ */

/* Moving B along the deepest manifold's normal by its depth (and 1 mm) must part the meshes. */
static int separates(placed* a, placed* b, spx_vec3 at, spx_quat q, const char* label)
{
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    TEST_ENSURE(move(b, at, q) == 0);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(a->inst, b->inst, 0.0f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count >= 1);
    const float d = deepest(&m[0]) + 0.001f;
    TEST_ENSURE(d > 0.001f);
    bool overlap = true;
    TEST_ENSURE(move(b, spx_v3(at.x + m[0].normal.x * d, at.y + m[0].normal.y * d, at.z + m[0].normal.z * d), q) == 0);
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(a->inst, b->inst, &overlap), SPX_OK);
    if (overlap) {
        fprintf(stderr, "%s: normal (%g %g %g) depth %g does not separate\n", label, m[0].normal.x, m[0].normal.y,
                m[0].normal.z, d);
        return 1;
    }
    printf("  %s: normal (%.4f %.4f %.4f), depth %.4f\n", label, m[0].normal.x, m[0].normal.y, m[0].normal.z,
           d - 0.001f);
    return 0;
}

/* A box on a box sunk 0.05 m (normal +y, depth 0.05), then tilted 20 degrees so that one edge digs
   in, then two boxes turned 45 degrees about crossing axes so that only their edges meet (edge on
   edge, the fallback: normal +y); a torus pushed 0.015 m into the grid. Each normal separates. */
static int interpenetrating_pairs_separate(void)
{
    placed lower, upper, grid, torus;
    TEST_ENSURE(make_box(4, spx_v3(0.5f, 0.5f, 0.5f), 2, spx_v3(0, 0, 0), no_turn, &lower) == 0);
    TEST_ENSURE(make_box(4, spx_v3(0.3f, 0.3f, 0.3f), 3, spx_v3(0, 2, 0), no_turn, &upper) == 0);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    TEST_ENSURE(move(&upper, spx_v3(0.1f, 0.75f, -0.05f), no_turn) == 0);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(lower.inst, upper.inst, 0.0f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 1 && angle_to(m[0].normal, 0, 1, 0) <= NORMAL_TOL);
    TEST_ENSURE_NEAR(deepest(&m[0]), 0.05f, TOL);
    TEST_ENSURE(m[0].point_count == 4);
    TEST_ENSURE(separates(&lower, &upper, spx_v3(0.1f, 0.75f, -0.05f), no_turn, "box sunk into a box") == 0);
    TEST_ENSURE(
        separates(&lower, &upper, spx_v3(0.05f, 0.85f, 0.0f), test_about(0, 0.349), "tilted box, one edge in") == 0);
    TEST_ENSURE(move(&lower, spx_v3(0, 0, 0), test_about(0, 0.785398)) == 0);
    const double ridge = 0.5 * sqrt(2.0), edge = 0.3 * sqrt(2.0);
    TEST_ENSURE(separates(&lower, &upper, spx_v3(0.02f, (float)(ridge + edge - 0.03), 0.01f), test_about(2, 0.785398),
                          "crossed edges") == 0);
    TEST_ENSURE(move(&upper, spx_v3(0.02f, (float)(ridge + edge - 0.03), 0.01f), test_about(2, 0.785398)) == 0);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(lower.inst, upper.inst, 0.0f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 1 && m[0].point_count == 1 && (m[0].points[0].id & 15u) == 15u);
    TEST_ENSURE(angle_to(m[0].normal, 0, 1, 0) <= 1e-3);
    TEST_ENSURE_NEAR(m[0].points[0].depth, 0.03f, 1e-4f);
    TEST_ENSURE(make_grid(4, &grid) == 0);
    TEST_ENSURE(make_torus(spx_v3(4, 3, 4), no_turn, &torus) == 0);
    TEST_ENSURE(separates(&grid, &torus, spx_v3(4.0f, 0.285f, 4.0f), no_turn, "torus 0.015 m into the grid") == 0);
    /* Sunk 0.08 m, deeper than its lowest triangles are tall (0.023 m): those lie wholly under the
       grid and touch none of its triangles, so the depth is what the triangles still crossing the
       grid see, 0.3 sin(3 pi / 8)... = 0.0572 m (documented: an underestimate, never a wrong normal). */
    TEST_ENSURE(move(&torus, spx_v3(4.0f, 0.22f, 4.0f), no_turn) == 0);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, torus.inst, 0.0f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 1 && angle_to(m[0].normal, 0, 1, 0) <= NORMAL_TOL);
    TEST_ENSURE_NEAR(deepest(&m[0]), 0.0571639f, 1e-5f);
    free_placed(&torus);
    free_placed(&grid);
    free_placed(&upper);
    free_placed(&lower);
    return 0;
}

/* ---- swapped arguments, all pairs, trees --------------------------------------------------------- */

/* Same manifolds with A and B exchanged: normals negated, points and depths the same (as sets). */
static int same_swapped(placed* a, placed* b, float margin, const char* label)
{
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS], w[SPX_MAX_MESH_MANIFOLDS];
    uint32_t cm = 0, cw = 0;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(a->inst, b->inst, margin, m, SPX_MAX_MESH_MANIFOLDS, &cm), SPX_OK);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(b->inst, a->inst, margin, w, SPX_MAX_MESH_MANIFOLDS, &cw), SPX_OK);
    if (cm != cw) {
        fprintf(stderr, "%s: %u manifolds, %u swapped\n", label, cm, cw);
        return 1;
    }
    for (uint32_t g = 0; g < cm; ++g) {
        /* Manifolds equally deep (to rounding) may come in either order: match them by normal. */
        uint32_t h = 0;
        while (h < cw && !(fabsf(m[g].normal.x + w[h].normal.x) <= TOL && fabsf(m[g].normal.y + w[h].normal.y) <= TOL &&
                           fabsf(m[g].normal.z + w[h].normal.z) <= TOL))
            ++h;
        if (h == cw) {
            fprintf(stderr, "%s: manifold %u (normal %g %g %g) has no negated twin swapped\n", label, g, m[g].normal.x,
                    m[g].normal.y, m[g].normal.z);
            return 1;
        }
        TEST_ENSURE_NEAR(deepest(&m[g]), deepest(&w[g]), TOL); /* deepest first either way */
        TEST_ENSURE_NEAR(deepest(&m[g]), deepest(&w[h]), TOL);
        TEST_ENSURE(m[g].point_count == w[h].point_count);
        for (int i = 0; i < m[g].point_count; ++i) {
            int found = 0;
            for (int j = 0; j < w[h].point_count && !found; ++j) {
                const spx_manifold_point *p = &m[g].points[i], *q = &w[h].points[j];
                found = fabsf(p->point.x - q->point.x) <= TOL && fabsf(p->point.y - q->point.y) <= TOL &&
                        fabsf(p->point.z - q->point.z) <= TOL && fabsf(p->depth - q->depth) <= TOL;
            }
            if (!found) {
                fprintf(stderr, "%s: manifold %u point %d (%g %g %g, %g) not found swapped\n", label, g, i,
                        m[g].points[i].point.x, m[g].points[i].point.y, m[g].points[i].point.z, m[g].points[i].depth);
                return 1;
            }
        }
    }
    return 0;
}

static int swapped_arguments_negate_normals(void)
{
    placed grid, cube, torus;
    TEST_ENSURE(
        grid_and_box(spx_v3(0.5f, 0.25f, 0.4f), 3, spx_v3(3.3f, 0.245f, 4.2f), test_about(1, 0.4), &grid, &cube) == 0);
    TEST_ENSURE(make_torus(spx_v3(4.1f, 0.295f, 3.9f), no_turn, &torus) == 0);
    TEST_ENSURE(same_swapped(&grid, &cube, 0.01f, "box on grid") == 0);
    TEST_ENSURE(same_swapped(&grid, &torus, 0.01f, "torus on grid") == 0);
    TEST_ENSURE(move(&cube, spx_v3(4.0f, 0.55f, 4.8f), quat_mul(test_about(0, 0.3), test_about(2, 0.2))) == 0);
    TEST_ENSURE(same_swapped(&torus, &cube, 0.01f, "box on torus") == 0);
    TEST_ENSURE(move(&cube, spx_v3(3.0f, 0.3f, 3.0f), test_about(2, 0.6)) == 0);
    TEST_ENSURE(same_swapped(&grid, &cube, 0.01f, "tilted box in grid") == 0);
    free_placed(&torus);
    free_placed(&cube);
    free_placed(&grid);
    return 0;
}

typedef struct seen_pairs {
    uint8_t* hit; /* ta * nb + tb */
    uint32_t nb;
} seen_pairs;

static void note_pair(void* context, uint32_t ta, uint32_t tb)
{
    seen_pairs* s = context;
    s->hit[(size_t)ta * s->nb + tb] = 1;
}

/* Every pair of triangles whose GJK distance is within the margin is reached by the descents (the
   pairs the manifold examines), and a scene with such a pair has a manifold. */
static int every_pair_within_margin_is_reached(void)
{
    placed grid, torus, cube;
    TEST_ENSURE(make_grid(2, &grid) == 0);
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 24, 12));
    TEST_ENSURE(make_placed(&s, 3, true, spx_v3(4, 0.3f, 4), no_turn, &torus) == 0);
    test_shape_free(&s);
    TEST_ENSURE(make_box(1, spx_v3(0.4f, 0.3f, 0.5f), 2, spx_v3(4, 1, 4), no_turn, &cube) == 0);
    uint64_t within = 0, examined = 0, all = 0;
    for (int scene = 0; scene < 12; ++scene) {
        placed *a = scene % 3 == 2 ? &torus : &grid, *b = scene % 3 == 0 ? &torus : &cube;
        const double t = 0.7 * scene;
        const spx_quat q = quat_mul(test_about(1, t), test_about(0, 0.25 * sin(3 * t)));
        const spx_vec3 at =
            scene % 3 == 2 ? spx_v3(4.3f + 0.3f * (float)sin(t), 0.5f, 4.0f + 0.8f * (float)cos(t))
                           : spx_v3(4.0f + 0.5f * (float)cos(t), 0.28f + 0.01f * scene, 3.5f + 0.4f * (float)sin(t));
        TEST_ENSURE(move(b, at, q) == 0);
        const float margin = 0.02f;
        const spx_mesh* ma = NULL;
        spx_mesh_instance_get_mesh(a->inst, &ma);
        const spx_mesh* mb = NULL;
        spx_mesh_instance_get_mesh(b->inst, &mb);
        spx_mesh_info ia, ib;
        TEST_ENSURE_CODE(spx_mesh_get_info(ma, &ia), SPX_OK);
        TEST_ENSURE_CODE(spx_mesh_get_info(mb, &ib), SPX_OK);
        seen_pairs seen = { calloc((size_t)ia.triangle_count * ib.triangle_count, 1), ib.triangle_count };
        TEST_ENSURE(seen.hit);
        spx_mesh_mesh_pairs(a->inst, b->inst, margin, note_pair, &seen);
        uint64_t close = 0;
        for (uint32_t i = 0; i < ia.triangle_count; ++i) {
            spx_triangle x;
            TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(a->inst, i, &x, NULL), SPX_OK);
            if (spx_triangle_validate(&x) != SPX_OK) continue;
            test_ref_piece px;
            test_ref_piece_from_triangle(&x, &px);
            for (uint32_t j = 0; j < ib.triangle_count; ++j) {
                spx_triangle y;
                TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(b->inst, j, &y, NULL), SPX_OK);
                if (spx_triangle_validate(&y) != SPX_OK) continue;
                test_ref_piece py;
                test_ref_piece_from_triangle(&y, &py);
                const double zero[3] = { 0, 0, 0 };
                test_ref_distance rd;
                ++all;
                examined += seen.hit[(size_t)i * ib.triangle_count + j];
                if (test_ref_gjk_distance(&px, zero, &py, zero, &rd) > margin) continue;
                ++close;
                if (!seen.hit[(size_t)i * ib.triangle_count + j]) {
                    fprintf(stderr, "scene %d: triangles %u and %u are %g apart (margin %g) but were not reached\n",
                            scene, i, j, rd.distance, margin);
                    free(seen.hit);
                    return 1;
                }
            }
        }
        free(seen.hit);
        within += close;
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 0;
        TEST_ENSURE_CODE(spx_manifold_mesh_mesh(a->inst, b->inst, margin, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
        if (close > 0) TEST_ENSURE(count > 0);
        else TEST_ENSURE(count == 0);
    }
    printf("  %llu pairs within the margin of %llu, all reached; %llu examined\n", (unsigned long long)within,
           (unsigned long long)all, (unsigned long long)examined);
    TEST_ENSURE(within > 50);
    free_placed(&cube);
    free_placed(&torus);
    free_placed(&grid);
    return 0;
}

/* The same manifolds, bit for bit, from trees of 1, 4 and 16 triangles a leaf, and from a second call. */
static int same_answer_from_any_tree(void)
{
    spx_manifold ref[SPX_MAX_MESH_MANIFOLDS];
    uint32_t ref_count = 0;
    const uint32_t leaves[3] = { 1, 4, 16 };
    int compared = 0;
    for (int pose = 0; pose < 6; ++pose) {
        for (int l = 0; l < 3; ++l) {
            placed grid, torus;
            TEST_ENSURE(make_grid(leaves[l], &grid) == 0);
            test_shape s;
            TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 32, 16));
            const spx_quat q = quat_mul(test_about(1, 0.5 * pose), test_about(2, 0.05 * pose));
            TEST_ENSURE(
                make_placed(&s, leaves[(l + 1) % 3], true, spx_v3(4.0f + 0.13f * pose, 0.29f, 4.0f), q, &torus) == 0);
            test_shape_free(&s);
            for (int again = 0; again < 2; ++again) {
                spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
                memset(m, 0, sizeof m);
                uint32_t count = 0;
                TEST_ENSURE_CODE(
                    spx_manifold_mesh_mesh(grid.inst, torus.inst, 0.005f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
                TEST_ENSURE(count >= 1);
                if (l == 0 && again == 0) {
                    memcpy(ref, m, sizeof m);
                    ref_count = count;
                } else {
                    TEST_ENSURE(count == ref_count);
                    TEST_ENSURE(memcmp(ref, m, sizeof m) == 0);
                    ++compared;
                }
            }
            free_placed(&torus);
            free_placed(&grid);
        }
    }
    TEST_ENSURE(compared == 30);
    return 0;
}

/* A 0.4 m box astride the top front edge of a 1 m box (B spans y 0.48..0.88, z 0.47..0.87; A's top is
   y = 0.5, its front z = 0.5): B's bottom is 0.02 into A's top and its back 0.03 into A's front.
   Two manifolds, deepest first: normal +z (depth 0.03), then +y (0.02); capacity 1 writes the first
   unchanged; capacity 0 none. */
/* The world's larger pair cache (spx_manifold_mesh_mesh_buffered) gives the same manifolds bit for
   bit as the query's own 64 pairs, which a torus sunk into the grid and turned overflows. */
static int buffered_same_answer(void)
{
    placed grid, torus;
    TEST_ENSURE(make_grid(4, &grid) == 0);
    const spx_quat tilt = { 0.0f, 0.0f, sinf(0.05f), cosf(0.05f) };
    TEST_ENSURE(make_torus(spx_v3(4.1f, 0.25f, 3.9f), tilt, &torus) == 0);
    const size_t bytes = 4096 * spx_manifold_mesh_mesh_pair_bytes();
    void* buffer = aligned_alloc(16, (bytes + 15) / 16 * 16);
    TEST_ENSURE(buffer);
    spx_manifold own[SPX_MAX_MESH_MANIFOLDS], big[SPX_MAX_MESH_MANIFOLDS];
    memset(own, 0, sizeof own);
    memset(big, 0, sizeof big);
    uint32_t n_own = 0, n_big = 0, pairs = 0;
    spx_mesh_mesh_pairs(grid.inst, torus.inst, 0.05f, count_pair, &pairs);
    spx_manifold_mesh_mesh_checked(grid.inst, torus.inst, 0.05f, true, own, SPX_MAX_MESH_MANIFOLDS, &n_own);
    spx_manifold_mesh_mesh_buffered(grid.inst, torus.inst, 0.05f, true, buffer, bytes, big, SPX_MAX_MESH_MANIFOLDS,
                                    &n_big, NULL);
    printf("  %u candidate pairs; %u manifolds either way\n", pairs, n_own);
    TEST_ENSURE(pairs > 64);
    TEST_ENSURE(n_own > 0 && n_own == n_big);
    TEST_ENSURE(memcmp(own, big, sizeof own) == 0);
    free(buffer);
    free_placed(&torus);
    free_placed(&grid);
    return 0;
}

/* Two rings (tori R 0.45, r 0.16) sunk through each other, centres 0.46 m apart and turned across
   each other, with a margin of 0.24 m (a fast pair's). Cut 24 x 12 they meet in some 47,000 triangle
   pairs within the margin, 800 touching; cut 96 x 48, in about 13,000 touching. The manifold tests at
   most twice SPX_MESH_PAIR_BUDGET pairs (those within the margin, then, past the budget, those
   touching: a sunk pair's overlap matters, not its gaps), and gives finite manifolds with deep points
   that push, from its own cache or the world's. */
static int sunk_meshes_bounded_work(void)
{
    for (int fine = 0; fine < 2; ++fine) {
        test_shape s;
        TEST_ENSURE(test_shape_torus(&s, 0.45f, 0.16f, fine ? 96 : 24, fine ? 48 : 12));
        placed a, b;
        const spx_quat tilt = { sinf(0.2f), 0.0f, 0.0f, cosf(0.2f) };
        TEST_ENSURE(make_placed(&s, 4, true, spx_v3(-3.0f, 4.0f, 3.5f), tilt, &a) == 0);
        const spx_quat turn = { 0.0f, 0.0f, sinf(0.5f), cosf(0.5f) };
        TEST_ENSURE(make_placed(&s, 4, true, spx_v3(-2.54f, 4.0f, 3.5f), turn, &b) == 0);
        test_shape_free(&s);
        uint32_t reached = 0, touching = 0;
        spx_mesh_mesh_pairs(a.inst, b.inst, 0.24f, count_pair, &reached);
        spx_mesh_mesh_pairs(a.inst, b.inst, 0.0f, count_pair, &touching);
        const size_t bytes = 2048 * spx_manifold_mesh_mesh_pair_bytes();
        void* buffer = aligned_alloc(16, bytes);
        TEST_ENSURE(buffer);
        for (int buffered = 0; buffered < 2; ++buffered) {
            spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
            uint32_t count = 0;
            spx_mesh_pair_stats st;
            spx_manifold_mesh_mesh_buffered(a.inst, b.inst, 0.24f, true, buffered ? buffer : NULL, buffered ? bytes : 0,
                                            m, SPX_MAX_MESH_MANIFOLDS, &count, &st);
            double push[3] = { 0, 0, 0 }, deepest_all = 0.0;
            for (uint32_t g = 0; g < count; ++g) {
                TEST_ENSURE(m[g].point_count > 0);
                TEST_ENSURE(isfinite(m[g].normal.x) && isfinite(m[g].normal.y) && isfinite(m[g].normal.z));
                TEST_ENSURE(fabsf(m[g].normal.x * m[g].normal.x + m[g].normal.y * m[g].normal.y +
                                  m[g].normal.z * m[g].normal.z - 1.0f) < 1e-4f);
                for (int k = 0; k < m[g].point_count; ++k) {
                    const spx_manifold_point* p = &m[g].points[k];
                    TEST_ENSURE(isfinite(p->depth) && isfinite(p->point.x) && isfinite(p->point.y) &&
                                isfinite(p->point.z));
                    const double d = p->depth > 0.0f ? p->depth : 0.0; /* overlap only */
                    push[0] += m[g].normal.x * d, push[1] += m[g].normal.y * d, push[2] += m[g].normal.z * d;
                    deepest_all = fmax(deepest_all, p->depth);
                }
            }
            printf(
                "  sunk rings %s (%s cache): %u pairs within the margin, %u touching; %u tested, margin %.2f, cut %d, "
                "%u descents; %u manifolds, deepest %.3f m, push (%.3f, %.3f, %.3f)\n",
                fine ? "96 x 48" : "24 x 12", buffered ? "world's" : "own", reached, touching, st.pairs,
                (double)st.margin, (int)st.cut, st.runs, count, deepest_all, push[0], push[1], push[2]);
            TEST_ENSURE(reached > 4 * SPX_MESH_PAIR_BUDGET);
            TEST_ENSURE(st.pairs <= 2 * SPX_MESH_PAIR_BUDGET && st.margin == 0.0f);
            TEST_ENSURE(st.cut == (touching > SPX_MESH_PAIR_BUDGET));
            TEST_ENSURE(count >= 1);
            TEST_ENSURE(deepest_all > 0.02);
            TEST_ENSURE(sqrt(push[0] * push[0] + push[1] * push[1] + push[2] * push[2]) > 0.05);
            if (buffered) TEST_ENSURE(st.runs == 2);
        }
        free(buffer);
        free_placed(&a);
        free_placed(&b);
    }
    /* A resting torus: within the budget. */
    placed grid, torus;
    TEST_ENSURE(make_grid(4, &grid) == 0);
    TEST_ENSURE(make_torus(spx_v3(4.1f, 0.298f, 3.9f), no_turn, &torus) == 0);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    spx_mesh_pair_stats st;
    spx_manifold_mesh_mesh_buffered(grid.inst, torus.inst, 0.05f, true, NULL, 0, m, SPX_MAX_MESH_MANIFOLDS, &count,
                                    &st);
    printf("  resting torus: %u pairs tested, cut %d, %u manifolds\n", st.pairs, (int)st.cut, count);
    TEST_ENSURE(!st.cut && count == 1);
    free_placed(&torus);
    free_placed(&grid);
    return 0;
}

/* One kept-state query: its manifolds' deepest point, the pairs tested, the state out. */
static float kept_query(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool* sunk, spx_mesh_pair_stats* st)
{
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    spx_manifold_mesh_mesh_kept(a, b, margin, true, NULL, 0, m, SPX_MAX_MESH_MANIFOLDS, &count, st, sunk);
    float d = -INFINITY;
    for (uint32_t k = 0; k < count; ++k) d = deepest(&m[k]) > d ? deepest(&m[k]) : d;
    return d;
}

/* The sunk rule kept between steps. Threaded rings, a point of crossing triangles deeper than the
   margin: sunk, under half the pairs within the margin tested, either mesh A. Barely threaded, the
   deepest point overlapping but shallower than the margin: the state held, in or out, over
   repeated queries (no flip at the threshold). Apart, it leaves. A torus resting shallower than the
   margin: not sunk, and the answer is the query's without state. */
static int sunk_state_kept(void)
{
    test_shape ring;
    TEST_ENSURE(test_shape_torus(&ring, 0.45f, 0.16f, 24, 12));
    placed rings[2];
    const spx_quat tilt = { sinf(0.2f), 0.0f, 0.0f, cosf(0.2f) }, turn = { 0.0f, 0.0f, sinf(0.5f), cosf(0.5f) };
    TEST_ENSURE(make_placed(&ring, 4, true, spx_v3(-3.0f, 4.0f, 3.5f), tilt, &rings[0]) == 0);
    TEST_ENSURE(make_placed(&ring, 4, true, spx_v3(-2.5f, 4.0f, 3.5f), turn, &rings[1]) == 0);
    test_shape_free(&ring);
    for (int swap = 0; swap < 2; ++swap) {
        spx_mesh_instance *a = rings[swap].inst, *b = rings[1 - swap].inst;
        spx_mesh_pair_stats st, all;
        uint32_t near = 0;
        bool sunk = false;
        const float d = kept_query(a, b, 0.04f, &sunk, &st);
        spx_mesh_mesh_pairs(a, b, 0.04f, count_pair, &near);
        (void)kept_query(a, b, 0.04f, NULL, &all);
        printf("  rings%s: deepest %.4f m, sunk %d, %u of %u pairs tested (%u without state)\n",
               swap ? " (swapped)" : "", (double)d, (int)sunk, st.pairs, near, all.pairs);
        TEST_ENSURE(sunk && !st.cut && st.margin == 0.04f && near <= SPX_MESH_PAIR_BUDGET);
        TEST_ENSURE(2 * st.pairs < near && st.pairs < all.pairs);
    }
    /* Barely threaded: the deepest crossing point between the leaving and the entering depth. */
    TEST_ENSURE(move(&rings[1], spx_v3(-2.24f, 4.0f, 3.5f), turn) == 0);
    for (int swap = 0; swap < 2; ++swap)
        for (int in = 0; in < 2; ++in) {
            bool state = in == 1;
            for (int step = 0; step < 4; ++step) {
                spx_mesh_pair_stats st;
                const float d = kept_query(rings[swap].inst, rings[1 - swap].inst, 0.04f, &state, &st);
                TEST_ENSURE(d > 0.01f && d < 0.04f && !st.cut);
                TEST_ENSURE(state == (in == 1));
            }
        }
    /* Apart within the margin: it leaves at once, with the answer of the query without state. */
    TEST_ENSURE(move(&rings[1], spx_v3(-2.16f, 4.0f, 3.5f), turn) == 0);
    {
        spx_manifold left[SPX_MAX_MESH_MANIFOLDS], own[SPX_MAX_MESH_MANIFOLDS];
        memset(left, 0, sizeof left);
        memset(own, 0, sizeof own);
        uint32_t n_left = 0, n_own = 0;
        bool state = true;
        spx_manifold_mesh_mesh_kept(rings[0].inst, rings[1].inst, 0.04f, true, NULL, 0, left, SPX_MAX_MESH_MANIFOLDS,
                                    &n_left, NULL, &state);
        spx_manifold_mesh_mesh_checked(rings[0].inst, rings[1].inst, 0.04f, true, own, SPX_MAX_MESH_MANIFOLDS, &n_own);
        TEST_ENSURE(!state && n_left > 0 && n_left == n_own && memcmp(left, own, sizeof own) == 0);
    }
    free_placed(&rings[0]);
    free_placed(&rings[1]);

    placed grid, torus;
    TEST_ENSURE(make_grid(4, &grid) == 0);
    TEST_ENSURE(make_torus(spx_v3(4.1f, 0.298f, 3.9f), no_turn, &torus) == 0);
    spx_manifold kept[SPX_MAX_MESH_MANIFOLDS], own[SPX_MAX_MESH_MANIFOLDS];
    memset(kept, 0, sizeof kept);
    memset(own, 0, sizeof own);
    uint32_t n_kept = 0, n_own = 0;
    bool sunk = false;
    spx_mesh_pair_stats st;
    spx_manifold_mesh_mesh_kept(grid.inst, torus.inst, 0.05f, true, NULL, 0, kept, SPX_MAX_MESH_MANIFOLDS, &n_kept, &st,
                                &sunk);
    spx_manifold_mesh_mesh_checked(grid.inst, torus.inst, 0.05f, true, own, SPX_MAX_MESH_MANIFOLDS, &n_own);
    TEST_ENSURE(!sunk && st.pairs == 569 && n_kept == 1 && n_own == 1);
    TEST_ENSURE(memcmp(kept, own, sizeof own) == 0);
    free_placed(&torus);
    free_placed(&grid);
    return 0;
}

/* The descents' static box test answers as the swept one at rest (u = 0), bit for bit: 200,000 pairs
   of random boxes, flat ones and ones on the edge of touching among them, both tolerances. */
static double box_uniform(uint64_t* s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * 0x1p-53;
}

/* Column i of the rotation matrix of unit quaternion q (x, y, z, w). */
static spx_vec3 quat_column(const float q[4], int i)
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    if (i == 0) return spx_v3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w));
    if (i == 1) return spx_v3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w));
    return spx_v3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y));
}

/* The mesh pairs of scenes/sunk-meshes.json at the world's margin (0.04 m) and with its cache: three
   balls (spheres of radius 5.35 cut 10 x 20) 2.5 m apart, sunk metres into each other; two rings
   (tori R 0.45, r 0.16, cut 24 x 12) 0.5 m apart, threaded; a ring across a ball's surface. The
   triangle pairs tested exactly are the narrow phase's work there: the descents hand only pairs
   whose triangles meet each other's boxes grown by the margin (2,037; a descent that handed every
   triangle of each leaf it reaches would hand 7,089), and of those the exact test runs only on the
   pairs within the margin of each other's planes whose front normals some admitted contact normal
   can join (1,839: where the balls cross, deep inside each other, their surfaces face alike). */
static int sunk_scene_pairs_tested(void)
{
    test_shape ball, ring;
    TEST_ENSURE(test_shape_solid_sphere(&ball, 5.35f, 10, 20));
    TEST_ENSURE(test_shape_torus(&ring, 0.45f, 0.16f, 24, 12));
    placed balls[3], rings[2];
    for (int i = 0; i < 3; ++i)
        TEST_ENSURE(make_placed(&ball, 4, true, spx_v3(-4.0f + 2.5f * (float)i, 3.0f, 9.0f), no_turn, &balls[i]) == 0);
    const spx_quat tilt = { sinf(0.2f), 0.0f, 0.0f, cosf(0.2f) }, turn = { 0.0f, 0.0f, sinf(0.5f), cosf(0.5f) };
    TEST_ENSURE(make_placed(&ring, 4, true, spx_v3(-3.0f, 4.0f, 3.5f), tilt, &rings[0]) == 0);
    TEST_ENSURE(make_placed(&ring, 4, true, spx_v3(-2.5f, 4.0f, 3.5f), turn, &rings[1]) == 0);
    test_shape_free(&ball);
    test_shape_free(&ring);
    const struct {
        spx_mesh_instance *a, *b;
    } pairs[] = { { balls[0].inst, balls[1].inst },
                  { balls[1].inst, balls[2].inst },
                  { balls[0].inst, balls[2].inst },
                  { rings[0].inst, rings[1].inst },
                  { rings[0].inst, balls[0].inst } };
    const size_t bytes = 2048 * spx_manifold_mesh_mesh_pair_bytes();
    void* buffer = aligned_alloc(16, bytes);
    TEST_ENSURE(buffer);
    uint32_t tested = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 0;
        spx_mesh_pair_stats st;
        spx_manifold_mesh_mesh_buffered(pairs[i].a, pairs[i].b, 0.04f, true, buffer, bytes, m, SPX_MAX_MESH_MANIFOLDS,
                                        &count, &st);
        for (uint32_t g = 0; g < count; ++g) TEST_ENSURE(m[g].point_count > 0 && isfinite(m[g].normal.x));
        tested += st.pairs;
    }
    printf("  sunk scene: %u triangle pairs tested\n", tested);
    TEST_ENSURE(tested <= 1900);
    free(buffer);
    for (int i = 0; i < 3; ++i) free_placed(&balls[i]);
    for (int i = 0; i < 2; ++i) free_placed(&rings[i]);
    return 0;
}

static int static_box_test_as_swept(void)
{
    uint64_t seed = 0x0B0Bull;
    const double still[3] = { 0.0, 0.0, 0.0 };
    int touching = 0, apart = 0;
    for (int n = 0; n < 200000; ++n) {
        spx_world_box w[2];
        for (int k = 0; k < 2; ++k) {
            float q[4], len = 0.0f;
            for (int i = 0; i < 4; ++i) q[i] = (float)(box_uniform(&seed) * 2.0 - 1.0), len += q[i] * q[i];
            len = sqrtf(len);
            for (int i = 0; i < 4; ++i) q[i] /= len;
            for (int i = 0; i < 3; ++i) {
                const spx_vec3 col = quat_column(q, i);
                w[k].axis[i][0] = col.x, w[k].axis[i][1] = col.y, w[k].axis[i][2] = col.z;
                w[k].half[i] = (float)(n % 7 == i ? 1e-4 : 0.01 + 2.0 * box_uniform(&seed));
                w[k].center[i] = (float)(k == 0 ? 0.0 : 6.0 * box_uniform(&seed) - 3.0);
            }
            w[k].stamp = 0;
        }
        for (int e = 0; e < 2; ++e) {
            const double eps = e ? SPX_BOUND_EPS_QUERY : SPX_BOUND_EPS;
            double entry = 1.0;
            const bool swept = spx_bound_box_box_eps(&w[0], &w[1], still, 0.0, eps, &entry);
            TEST_ENSURE(spx_overlap_box_box_eps(&w[0], &w[1], eps) == swept);
            if (swept) TEST_ENSURE(entry == 0.0);
            touching += swept, apart += !swept;
        }
    }
    printf("  static box test: %d touching, %d apart, all as the swept test at rest\n", touching, apart);
    TEST_ENSURE(touching > 20000 && apart > 20000);
    return 0;
}

/* A floor much larger than a torus (a 100 m box) under the torus, through spx_manifold_obb_mesh with
   the torus's surface edges: one manifold, the floor's normal, the ring's depth, not the torus's
   curved sides' own normals read through the floor's whole depth (eight manifolds, 19 to 28 m
   deep, when the rule rejects the floor's normal there). */
static int large_box_under_torus(void)
{
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 0.45f, 0.15f, 24, 12));
    placed torus;
    TEST_ENSURE(make_placed(&s, 4, true, spx_v3(0.3f, 0.149f, 0.1f), no_turn, &torus) == 0);
    test_shape_free(&s);
    spx_obb floor;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, -1, 0), spx_v3(50, 1, 50), no_turn, &floor), SPX_OK);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_obb_mesh(&floor, torus.inst, 0.04f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 1);
    TEST_ENSURE(angle_to(m[0].normal, 0, 1, 0) <= NORMAL_TOL);
    TEST_ENSURE(m[0].point_count == 4);
    for (int i = 0; i < 4; ++i) TEST_ENSURE_NEAR(m[0].points[i].depth, 0.001f, 1e-4f);
    free_placed(&torus);
    return 0;
}

static int capacity_limits_the_manifolds(void)
{
    placed lower, upper;
    TEST_ENSURE(make_box(4, spx_v3(0.5f, 0.5f, 0.5f), 2, spx_v3(0, 0, 0), no_turn, &lower) == 0);
    TEST_ENSURE(make_box(4, spx_v3(0.2f, 0.2f, 0.2f), 2, spx_v3(0.05f, 0.68f, 0.67f), no_turn, &upper) == 0);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS], few[1];
    memset(m, 0, sizeof m); /* points past point_count are not written */
    memset(few, 0, sizeof few);
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(lower.inst, upper.inst, 0.0f, m, SPX_MAX_MESH_MANIFOLDS, &count), SPX_OK);
    TEST_ENSURE(count == 2);
    TEST_ENSURE(angle_to(m[0].normal, 0, 0, 1) <= NORMAL_TOL);
    TEST_ENSURE_NEAR(deepest(&m[0]), 0.03f, TOL);
    TEST_ENSURE(angle_to(m[1].normal, 0, 1, 0) <= NORMAL_TOL);
    TEST_ENSURE_NEAR(deepest(&m[1]), 0.02f, TOL);
    uint32_t one = 0;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(lower.inst, upper.inst, 0.0f, few, 1, &one), SPX_OK);
    TEST_ENSURE(one == 1);
    TEST_ENSURE(memcmp(few, m, sizeof few) == 0);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(lower.inst, upper.inst, 0.0f, NULL, 0, &count), SPX_OK);
    TEST_ENSURE(count == 0);
    free_placed(&upper);
    free_placed(&lower);
    return 0;
}

static int bad_input(void)
{
    placed grid, cube;
    TEST_ENSURE(grid_and_box(spx_v3(0.5f, 0.5f, 0.5f), 1, spx_v3(3, 0.49f, 3), no_turn, &grid, &cube) == 0);
    spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 7;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(NULL, cube.inst, 0.0f, m, 8, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, NULL, 0.0f, m, 8, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.0f, m, 8, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.0f, NULL, 1, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, grid.inst, 0.0f, m, 8, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, -0.001f, m, 8, &count), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, NAN, m, 8, &count), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, INFINITY, m, 8, &count), SPX_ERR_NOT_FINITE);
    TEST_ENSURE(count == 7); /* a failed call changes nothing */
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.0f, NULL, 0, &count), SPX_OK);
    TEST_ENSURE(count == 0);
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(grid.inst, cube.inst, 0.0f, m, 8, &count), SPX_OK);
    TEST_ENSURE(count == 1);
    free_placed(&cube);
    free_placed(&grid);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(box_rests_on_grid, failures);
    TEST_RUN(box_above_grid_is_speculative, failures);
    TEST_RUN(box_slides_across_grid_edges, failures);
    TEST_RUN(resting_box_keeps_its_ids, failures);
    TEST_RUN(torus_lies_on_grid, failures);
    TEST_RUN(sphere_rests_on_grid, failures);
    TEST_RUN(box_corners_on_torus_slope, failures);
    TEST_RUN(interpenetrating_pairs_separate, failures);
    TEST_RUN(swapped_arguments_negate_normals, failures);
    TEST_RUN(every_pair_within_margin_is_reached, failures);
    TEST_RUN(same_answer_from_any_tree, failures);
    TEST_RUN(buffered_same_answer, failures);
    TEST_RUN(sunk_meshes_bounded_work, failures);
    TEST_RUN(sunk_scene_pairs_tested, failures);
    TEST_RUN(sunk_state_kept, failures);
    TEST_RUN(static_box_test_as_swept, failures);
    TEST_RUN(large_box_under_torus, failures);
    TEST_RUN(capacity_limits_the_manifolds, failures);
    TEST_RUN(bad_input, failures);
    return failures == 0 ? 0 : 1;
}
