/* World queries (include/sepax/query.h) against brute force, and the plain-data rays beneath them.
 *
 * The brute force asks every shape of every body with the plain-data queries (spx_ray_obb,
 * spx_ray_mesh, spx_sweep_obb_obb, spx_sweep_obb_mesh, ...) at the poses the world holds; the world's
 * queries reach the same shapes through their trees and must give the same answers. `--long` runs the
 * full sizes (1,000,000 rays at the icosphere); the default run a subset of each. */
#include "support/test.h"
#include "support/counting_alloc.h"
#include "support/scenes.h"
#include "support/pieces.h"
#include "support/cases.h"
#include "support/query_scene.h"
#include "dynamics/world.h"
#include "geometry/mesh.h"
#include <float.h>
#include <stdlib.h>

static bool long_run;

/* ---- plain data --------------------------------------------------------------------------------- */

static spx_obb axis_box(spx_vec3 c, spx_vec3 h)
{
    spx_obb b = { c, h, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
    return b;
}

/* A body def of one box shape with half extents h (sd holds the shape, so it must outlive bd). */
/* A vector whose coordinates are uniform in [lo, hi], drawn x, y, z. */
static spx_vec3 random_vec3(test_case_rng* rng, double lo, double hi)
{
    const float x = (float)test_case_uniform(rng, lo, hi), y = (float)test_case_uniform(rng, lo, hi);
    return spx_v3(x, y, (float)test_case_uniform(rng, lo, hi));
}

static void one_box_def(spx_shape_def* sd, spx_body_def* bd, spx_vec3 h)
{
    *sd = spx_default_shape_def();
    sd->half_extents = h;
    *bd = spx_default_body_def();
    bd->shapes = sd;
    bd->shape_count = 1;
}

/* A default world (NULL if it cannot be made), and sd, bd set by one_box_def. */
static spx_world* world_and_box_def(spx_shape_def* sd, spx_body_def* bd, spx_vec3 h)
{
    one_box_def(sd, bd, h);
    return test_world_create(NULL);
}

static int ray_obb_by_hand(void)
{ /* a unit box at x = 5: a ray from the origin 10 m along x enters at x = 4, fraction 0.4 */
    spx_obb box = axis_box(spx_v3(5, 0, 0), spx_v3(1, 1, 1));
    spx_ray_hit h;
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, 0, 0), spx_v3(10, 0, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.fraction, 0.4f, 1e-7f);
    TEST_ENSURE(h.normal.x == -1.0f && h.normal.y == 0.0f && h.normal.z == 0.0f);
    TEST_ENSURE_NEAR(h.point.x, 4.0f, 1e-6f);
    TEST_ENSURE(h.triangle == SPX_NO_TRIANGLE);
    /* from the other side: the +x face, normal +x */
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(10, 0.5f, 0), spx_v3(-10, 0, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.normal.x == 1.0f);
    TEST_ENSURE_NEAR(h.fraction, 0.4f, 1e-7f);
    /* too short, or clipped by max_fraction */
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, 0, 0), spx_v3(3.9f, 0, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, 0, 0), spx_v3(10, 0, 0), 0.39f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    /* grazing the top face (touching counts), and just above it */
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, 1, 0), spx_v3(10, 0, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, 1.0001f, 0), spx_v3(10, 0, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    /* from inside: START_OVERLAP at 0, normal against the ray */
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(5, 0, 0), spx_v3(0, 2, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && h.fraction == 0.0f && h.normal.y == -1.0f);
    /* pointing away */
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, 0, 0), spx_v3(-10, 0, 0), 1.0f, &box, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    /* the point test: on a face counts */
    bool in = false;
    TEST_ENSURE_CODE(spx_obb_contains_point(&box, spx_v3(6, 1, -1), &in), SPX_OK);
    TEST_ENSURE(in);
    TEST_ENSURE_CODE(spx_obb_contains_point(&box, spx_v3(6.001f, 0, 0), &in), SPX_OK);
    TEST_ENSURE(!in);
    TEST_ENSURE_CODE(spx_obb_contains_point(&box, spx_v3(NAN, 0, 0), &in), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_obb_contains_point(NULL, spx_v3(0, 0, 0), &in), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

static int ray_triangle_by_hand(void)
{
    spx_triangle t = { { { 0, 0, 0 }, { 2, 0, 0 }, { 0, 2, 0 } } };
    spx_ray_hit h;
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(0.5f, 0.5f, 4), spx_v3(0, 0, -8), 1.0f, &t, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(h.fraction, 0.5f, 1e-7f);
    TEST_ENSURE(h.normal.z == 1.0f); /* facing the ray's origin */
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(0.5f, 0.5f, -4), spx_v3(0, 0, 8), 1.0f, &t, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.normal.z == -1.0f); /* two-sided: the back answers too */
    /* the winding reversed: the same hit, the normal still faces the ray */
    spx_triangle r = { { t.v[0], t.v[2], t.v[1] } };
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(0.5f, 0.5f, 4), spx_v3(0, 0, -8), 1.0f, &r, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.normal.z == 1.0f);
    TEST_ENSURE_NEAR(h.fraction, 0.5f, 1e-7f);
    /* exactly through an edge and a corner: hits */
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(1, 1, 4), spx_v3(0, 0, -8), 1.0f, &t, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(2, 0, 4), spx_v3(0, 0, -8), 1.0f, &t, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    /* outside, and in the triangle's plane */
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(1.01f, 1.01f, 4), spx_v3(0, 0, -8), 1.0f, &t, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    TEST_ENSURE_CODE(spx_ray_triangle(spx_v3(-1, 0.5f, 0), spx_v3(4, 0, 0), 1.0f, &t, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_MISS);
    return 0;
}

/* A ray lying in a triangle's plane, or along a segment-like triangle's line, does not meet it,
   whatever the shear's rounding makes of the edge functions. Every coordinate is a small dyadic
   number, so each problem is exactly as described: corners and origin on one plane (or line), the
   ray's direction in it. */
static int rays_in_a_triangles_plane_miss(void)
{
    uint32_t rng = 0x5E6A7u;
    int lines = 0, planes = 0;
    for (int i = 0; i < test_cases(20000); ++i) {
        const float pz = floorf(test_lcg_uniform(&rng, -128, 128)) / 16.0f,
                    py = floorf(test_lcg_uniform(&rng, -128, 128)) / 16.0f,
                    px = floorf(test_lcg_uniform(&rng, -128, 128)) / 16.0f;
        const spx_vec3 p = spx_v3(px, py, pz);
        spx_vec3 e[2];
        for (int k = 0; k < 2; ++k) {
            const float ez = floorf(test_lcg_uniform(&rng, -4, 5)), ey = floorf(test_lcg_uniform(&rng, -4, 5)),
                        ex = floorf(test_lcg_uniform(&rng, -4, 5));
            e[k] = spx_v3(ex, ey, ez);
        }
        const bool line = i % 2 == 0;
        /* corners p + a e0 + b e1, the origin at p (outside the corners' span on a line), the
           direction a combination of e0 and e1 (on a line: any direction, the ray leaves the line) */
        spx_triangle t;
        for (int c = 0; c < 3; ++c) {
            const float a = floorf(test_lcg_uniform(&rng, 1, 9)),
                        b = line ? 0.0f : floorf(test_lcg_uniform(&rng, -8, 9));
            t.v[c] =
                spx_v3(p.x + a * e[0].x + b * e[1].x, p.y + a * e[0].y + b * e[1].y, p.z + a * e[0].z + b * e[1].z);
        }
        const float s0 = floorf(test_lcg_uniform(&rng, -4, 5)), s1 = floorf(test_lcg_uniform(&rng, -4, 5));
        spx_vec3 d = spx_v3(s0 * e[0].x + s1 * e[1].x, s0 * e[0].y + s1 * e[1].y, s0 * e[0].z + s1 * e[1].z);
        if (line) d = test_lcg_vec3(&rng, spx_v3(-8, -8, -8), spx_v3(8, 8, 8));
        if (spx_triangle_validate(&t) != SPX_OK || (d.x == 0.0f && d.y == 0.0f && d.z == 0.0f)) continue;
        spx_ray_hit h;
        TEST_ENSURE_CODE(spx_ray_triangle(p, d, 1.0f, &t, &h), SPX_OK);
        if (h.state != SPX_SWEEP_MISS)
            printf("  %s: ray from (%g, %g, %g) along (%g, %g, %g) meets it at %g\n", line ? "line" : "plane", p.x, p.y,
                   p.z, d.x, d.y, d.z, h.fraction);
        TEST_ENSURE(h.state == SPX_SWEEP_MISS);
        lines += line, planes += !line;
    }
    printf("  %d rays along segment-like triangles' lines, %d in triangles' planes: every one misses\n", lines, planes);
    TEST_ENSURE(lines > test_cases(20000) / 4 && planes > test_cases(20000) / 4);
    return 0;
}

static int ray_bad_input(void)
{
    spx_obb box = axis_box(spx_v3(5, 0, 0), spx_v3(1, 1, 1));
    spx_triangle t = { { { 0, 0, 0 }, { 2, 0, 0 }, { 0, 2, 0 } } };
    spx_ray_hit h;
    const spx_vec3 o = { 0, 0, 0 }, d = { 1, 0, 0 };
    TEST_ENSURE_CODE(spx_ray_obb(o, d, 1.0f, NULL, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_ray_obb(o, d, 1.0f, &box, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_ray_obb(o, spx_v3(0, 0, 0), 1.0f, &box, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_ray_obb(o, d, 1.5f, &box, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_ray_obb(o, d, -0.5f, &box, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(NAN, 0, 0), d, 1.0f, &box, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_ray_obb(o, spx_v3(INFINITY, 0, 0), 1.0f, &box, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_ray_obb(o, d, NAN, &box, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(2e7f, 0, 0), d, 1.0f, &box, &h), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_ray_obb(o, spx_v3(0, -2e7f, 0), 1.0f, &box, &h), SPX_ERR_OUT_OF_RANGE);
    box.half_extents.y = 0.0f;
    TEST_ENSURE_CODE(spx_ray_obb(o, d, 1.0f, &box, &h), SPX_ERR_BAD_EXTENT);
    /* a bad box before a zero translation (the order of base.h), a NaN before both */
    TEST_ENSURE_CODE(spx_ray_obb(o, spx_v3(0, 0, 0), 1.0f, &box, &h), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_ray_obb(spx_v3(0, NAN, 0), spx_v3(0, 0, 0), 1.0f, &box, &h), SPX_ERR_NOT_FINITE);
    spx_triangle dg = { { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } } };
    TEST_ENSURE_CODE(spx_ray_triangle(o, d, 1.0f, &dg, &h), SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_ray_triangle(o, d, 1.0f, NULL, &h), SPX_ERR_INVALID_ARGUMENT);
    t.v[1].x = NAN;
    TEST_ENSURE_CODE(spx_ray_triangle(o, d, 1.0f, &t, &h), SPX_ERR_NOT_FINITE);
    test_shape sh;
    TEST_ENSURE(test_shape_icosphere(&sh, 1.0f, 1));
    spx_mesh* m = test_shape_mesh(&sh);
    test_shape_free(&sh);
    TEST_ENSURE(m);
    spx_transform pose = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
    TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, NULL, &pose, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, m, NULL, &h), SPX_ERR_INVALID_ARGUMENT);
    pose.q.w = 2.0f;
    TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, m, &pose, &h), SPX_ERR_NOT_ORTHONORMAL);
    pose.q.w = 1.0f, pose.p.x = 3e7f;
    TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, m, &pose, &h), SPX_ERR_OUT_OF_RANGE);
    bool inside;
    TEST_ENSURE_CODE(spx_mesh_contains_point(m, &pose, spx_v3(NAN, 0, 0), &inside), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mesh_contains_point(m, &pose, o, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_mesh_destroy(m);
    return 0;
}

/* Moving the whole problem, or turning it, moves the answer with it. */
static int ray_moves_with_the_problem(void)
{
    test_case_rng rng = { 77 };
    for (int n = 0; n < 2000; ++n) {
        spx_obb box;
        spx_vec3 h = random_vec3(&rng, 0.2, 2);
        TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), h, test_case_random_quat(&rng), &box), SPX_OK);
        double u[3];
        test_case_unit_vector(&rng, u);
        /* on a grid of 1/1024 m, so that the shifted coordinates below are exact */
        spx_vec3 o = { (float)(round(u[0] * 6 * 1024) / 1024), (float)(round(u[1] * 6 * 1024) / 1024),
                       (float)(round(u[2] * 6 * 1024) / 1024) };
        const float dx = (float)(-u[0] * 12 + test_case_uniform(&rng, -2, 2)),
                    dy = (float)(-u[1] * 12 + test_case_uniform(&rng, -2, 2)),
                    dz = (float)(-u[2] * 12 + test_case_uniform(&rng, -2, 2));
        spx_vec3 d = { dx, dy, dz };
        spx_ray_hit a, b;
        TEST_ENSURE_CODE(spx_ray_obb(o, d, 1.0f, &box, &a), SPX_OK);
        const spx_vec3 shift = { 1024.0f, -512.0f, 256.0f };
        spx_obb moved = box;
        moved.center = shift;
        TEST_ENSURE_CODE(spx_ray_obb(spx_v3(o.x + shift.x, o.y + shift.y, o.z + shift.z), d, 1.0f, &moved, &b), SPX_OK);
        TEST_ENSURE(a.state == b.state);
        if (a.state == SPX_SWEEP_MISS) continue;
        TEST_ENSURE(a.fraction == b.fraction); /* the box's frame sees the same ray */
        TEST_ENSURE(a.normal.x == b.normal.x && a.normal.y == b.normal.y && a.normal.z == b.normal.z);
    }
    return 0;
}

/* ---- watertight: rays through the icosphere's corners and edges ---------------------------------- */

/* Rays from outside aimed at a vertex or at a point on an edge of the closed icosphere and going on
   inside it: every one must hit, alone (spx_ray_mesh) and in a world (the mesh on a static body at
   `pose`, spx_world_cast_ray_closest: through the query tree and the root box's test). `count` rays. */
static int icosphere_rays(uint32_t count, const spx_transform* pose, uint64_t seed)
{
    test_shape sh;
    TEST_ENSURE(test_shape_icosphere(&sh, 1.0f, 3));
    spx_mesh* m = test_shape_mesh(&sh);
    TEST_ENSURE(m);
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(m, &info), SPX_OK);
    TEST_ENSURE(info.closed && info.triangle_count == 1280);
    spx_world* world = test_world_create(NULL);
    TEST_ENSURE(world);
    spx_shape_def sd = test_mesh_shape(m);
    spx_body_def bd = spx_default_body_def();
    bd.position = pose->p, bd.rotation = pose->q;
    bd.shapes = &sd, bd.shape_count = 1;
    spx_body_id body;
    TEST_ENSURE_CODE(spx_body_create(world, &bd, &body), SPX_OK);
    uint32_t world_misses = 0;
    double r[3][3];
    {
        double x = pose->q.x, y = pose->q.y, z = pose->q.z, w = pose->q.w;
        r[0][0] = 1 - 2 * (y * y + z * z), r[0][1] = 2 * (x * y + w * z), r[0][2] = 2 * (x * z - w * y);
        r[1][0] = 2 * (x * y - w * z), r[1][1] = 1 - 2 * (x * x + z * z), r[1][2] = 2 * (y * z + w * x);
        r[2][0] = 2 * (x * z + w * y), r[2][1] = 2 * (y * z - w * x), r[2][2] = 1 - 2 * (x * x + y * y);
    }
    test_case_rng rng = { seed };
    uint32_t misses = 0;
    for (uint32_t n = 0; n < count; ++n) {
        double target[3];
        const uint32_t tri = (uint32_t)(test_case_rng_next(&rng) % sh.triangle_count);
        const uint32_t j = (uint32_t)(test_case_rng_next(&rng) % 3);
        const spx_vec3 a = sh.vertices[sh.indices[3 * tri + j]], b = sh.vertices[sh.indices[3 * tri + (j + 1) % 3]];
        const double s = (n & 1) ? 0.0 : (n & 2) ? 0.5 : test_case_uniform(&rng, 0, 1); /* a corner, or on an edge */
        const double local[3] = { a.x + s * ((double)b.x - a.x), a.y + s * ((double)b.y - a.y),
                                  a.z + s * ((double)b.z - a.z) };
        for (int k = 0; k < 3; ++k)
            target[k] = r[0][k] * local[0] + r[1][k] * local[1] + r[2][k] * local[2] + (&pose->p.x)[k];
        /* from outside, within 60 degrees of the outward normal there, 0.1 to 5 m away */
        double out[3], tilt[3];
        const double len = sqrt(local[0] * local[0] + local[1] * local[1] + local[2] * local[2]);
        for (int k = 0; k < 3; ++k) out[k] = (r[0][k] * local[0] + r[1][k] * local[1] + r[2][k] * local[2]) / len;
        test_case_unit_vector(&rng, tilt);
        double dir[3], dl = 0.0;
        for (int k = 0; k < 3; ++k) dir[k] = out[k] + 0.8 * tilt[k], dl += dir[k] * dir[k];
        dl = sqrt(dl);
        if ((dir[0] * out[0] + dir[1] * out[1] + dir[2] * out[2]) / dl < 0.5) --n; /* steeper than 60 degrees: again */
        if ((dir[0] * out[0] + dir[1] * out[1] + dir[2] * out[2]) / dl < 0.5) continue;
        const double dist = test_case_uniform(&rng, 0.1, 5.0);
        spx_vec3 o, d;
        for (int k = 0; k < 3; ++k) {
            (&o.x)[k] = (float)(target[k] + dist * dir[k] / dl);
            (&d.x)[k] = (float)(1.3 * (target[k] - (&o.x)[k])); /* through the target and on inside */
        }
        spx_ray_hit h;
        TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, m, pose, &h), SPX_OK);
        spx_cast_result wh;
        TEST_ENSURE_CODE(spx_world_cast_ray_closest(world, o, d, NULL, &wh), SPX_OK);
        if (wh.state != SPX_SWEEP_HIT || wh.body.index != body.index) ++world_misses;
        if (h.state != SPX_SWEEP_HIT) {
            if (misses++ < 5)
                fprintf(stderr, "missed: origin (%.9g %.9g %.9g) translation (%.9g %.9g %.9g)\n", o.x, o.y, o.z, d.x,
                        d.y, d.z);
            continue;
        }
        TEST_ENSURE(h.fraction <= 1.0f / 1.3f + 1e-3f);
    }
    spx_world_destroy(world);
    spx_mesh_destroy(m);
    test_shape_free(&sh);
    printf("  %u rays at the icosphere's corners and edges: %u missed alone, %u in a world\n", count, misses,
           world_misses);
    TEST_ENSURE(misses == 0 && world_misses == 0);
    return 0;
}

static int icosphere_watertight(void)
{
    const uint32_t n = long_run ? 1000000u : 20000u;
    const spx_transform identity = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
    const spx_transform turned = { { 3.25f, -1.5f, 7.0f }, { 0.1825742f, 0.3651484f, 0.5477226f, 0.7302967f } };
    if (icosphere_rays(n / 2, &identity, 1) != 0) return 1;
    return icosphere_rays(n / 2, &turned, 2);
}

static spx_vec3 random_displacement(test_case_rng* rng, double lo, double hi);

/* Rays through the outer edges and corners of an open grid on a turned body, where the world's test
   of the mesh's root box is tightest: the world answers what spx_ray_mesh answers at the pose the
   world gives the mesh, hit or miss, to the bit. */
static int world_mesh_boundary(void)
{
    test_shape sh;
    TEST_ENSURE(test_shape_grid(&sh, 4, 4)); /* x and z in [0, 4], y = 0 */
    spx_mesh* m = test_shape_mesh(&sh);
    test_shape_free(&sh);
    TEST_ENSURE(m);
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_shape_def sd = test_mesh_shape(m);
    spx_body_def bd = spx_default_body_def();
    bd.shapes = &sd, bd.shape_count = 1;
    test_case_rng rng = { 31 };
    uint32_t hits = 0, rays = 0;
    for (int placed = 0; placed < 20; ++placed) {
        bd.position = test_case_random_vec3(&rng, -900, 900);
        bd.rotation = test_case_random_quat(&rng);
        spx_body_id id;
        TEST_ENSURE_CODE(spx_body_create(w, &bd, &id), SPX_OK);
        const spx_body* b = &w->bodies[id.index - 1];
        spx_transform pose;
        TEST_ENSURE(spx_body_pose_mesh(b, &b->shapes[0]));
        TEST_ENSURE_CODE(spx_mesh_instance_get_pose(b->shapes[0].instance, &pose), SPX_OK);
        for (int n = 0; n < 400; ++n, ++rays) {
            /* a corner, or a point of one of the four outer edges, in the grid's frame */
            const double s = (n & 1) ? 0.0 : test_case_uniform(&rng, 0, 4);
            const int edge = (int)(test_case_rng_next(&rng) % 4);
            const double local[3] = { edge == 0   ? s
                                      : edge == 1 ? 4.0
                                      : edge == 2 ? 4.0 - s
                                                  : 0.0,
                                      0.0,
                                      edge == 0   ? 0.0
                                      : edge == 1 ? s
                                      : edge == 2 ? 4.0
                                                  : 4.0 - s };
            const double x = pose.q.x, y = pose.q.y, z = pose.q.z, qw = pose.q.w;
            const double R[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y - qw * z), 2 * (x * z + qw * y) },
                                     { 2 * (x * y + qw * z), 1 - 2 * (x * x + z * z), 2 * (y * z - qw * x) },
                                     { 2 * (x * z - qw * y), 2 * (y * z + qw * x), 1 - 2 * (x * x + y * y) } };
            double target[3];
            for (int k = 0; k < 3; ++k)
                target[k] = R[k][0] * local[0] + R[k][1] * local[1] + R[k][2] * local[2] + (&pose.p.x)[k];
            const spx_vec3 off = random_displacement(&rng, 0.5, 5);
            const spx_vec3 o = { (float)(target[0] + off.x), (float)(target[1] + off.y), (float)(target[2] + off.z) };
            const spx_vec3 d = { (float)(2.0 * (target[0] - o.x)), (float)(2.0 * (target[1] - o.y)),
                                 (float)(2.0 * (target[2] - o.z)) };
            spx_ray_hit alone;
            spx_cast_result got;
            TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, m, &pose, &alone), SPX_OK);
            TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, &got), SPX_OK);
            TEST_ENSURE(got.state == alone.state);
            if (alone.state == SPX_SWEEP_MISS) continue;
            ++hits;
            TEST_ENSURE(got.body.index == id.index && got.fraction == alone.fraction && got.triangle == alone.triangle);
        }
        TEST_ENSURE_CODE(spx_body_destroy(w, id), SPX_OK);
    }
    printf("  %u rays at a turned grid's outer edges and corners: %u hit it, the world as spx_ray_mesh\n", rays, hits);
    TEST_ENSURE(hits > rays / 4);
    spx_world_destroy(w);
    spx_mesh_destroy(m);
    return 0;
}

/* spx_ray_mesh against every triangle of the mesh by spx_ray_triangle, the mesh's triangles moved to
   the world by the instance (rounded once): the OBB-tree descent drops no triangle. */
static int ray_mesh_against_triangles(void)
{
    test_shape sh;
    TEST_ENSURE(test_shape_torus(&sh, 1.5f, 0.4f, 24, 12));
    spx_mesh* m = test_shape_mesh(&sh);
    test_shape_free(&sh);
    TEST_ENSURE(m);
    spx_mesh_info info;
    spx_mesh_get_info(m, &info);
    test_case_rng rng = { 21 };
    uint32_t hits = 0;
    for (int n = 0; n < 4000; ++n) {
        const spx_vec3 at = random_vec3(&rng, -3, 3);
        spx_transform pose = { at, test_case_random_quat(&rng) };
        spx_mesh_instance* inst;
        TEST_ENSURE_CODE(test_place_mesh(m, pose, &inst), SPX_OK);
        spx_vec3 o = random_vec3(&rng, -6, 6);
        /* aimed within 2 m of the torus's centre, and on past it */
        const float dx = 1.5f * (pose.p.x + (float)test_case_uniform(&rng, -2, 2) - o.x),
                    dy = 1.5f * (pose.p.y + (float)test_case_uniform(&rng, -2, 2) - o.y),
                    dz = 1.5f * (pose.p.z + (float)test_case_uniform(&rng, -2, 2) - o.z);
        spx_vec3 d = { dx, dy, dz };
        spx_ray_hit h;
        TEST_ENSURE_CODE(spx_ray_mesh(o, d, 1.0f, m, &pose, &h), SPX_OK);
        float best = INFINITY;
        for (uint32_t i = 0; i < info.triangle_count; ++i) {
            spx_triangle t;
            spx_ray_hit th;
            TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, i, &t, NULL), SPX_OK);
            if (spx_ray_triangle(o, d, 1.0f, &t, &th) == SPX_OK && th.state == SPX_SWEEP_HIT)
                best = fminf(best, th.fraction);
        }
        spx_mesh_instance_destroy(inst);
        if (h.state == SPX_SWEEP_HIT) ++hits;
        if (isinf(best)) {
            TEST_ENSURE(h.state == SPX_SWEEP_MISS);
            continue;
        }
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.fraction, best, 1e-5f);
    }
    printf("  4000 rays at a turned torus: %u hits, as its triangles one by one\n", hits);
    TEST_ENSURE(hits > 1000);
    spx_mesh_destroy(m);
    return 0;
}

static int contains_point(void)
{
    test_shape sh;
    TEST_ENSURE(test_shape_icosphere(&sh, 2.0f, 3));
    spx_mesh* m = test_shape_mesh(&sh);
    test_shape_free(&sh);
    TEST_ENSURE(m);
    const spx_transform pose = { { 1, 2, 3 }, { 0.1825742f, 0.3651484f, 0.5477226f, 0.7302967f } };
    test_case_rng rng = { 5 };
    for (int n = 0; n < 20000; ++n) {
        double u[3];
        test_case_unit_vector(&rng, u);
        const double rad = test_case_uniform(&rng, 0.0, 4.0);
        const spx_vec3 p = { (float)(1 + u[0] * rad), (float)(2 + u[1] * rad), (float)(3 + u[2] * rad) };
        bool inside;
        TEST_ENSURE_CODE(spx_mesh_contains_point(m, &pose, p, &inside), SPX_OK);
        /* the icosphere's faces lie within 2 (1 - cos 10 degrees) of the sphere: answer sure away from it */
        if (rad < 1.95) TEST_ENSURE(inside);
        if (rad > 2.0 + 1e-5) TEST_ENSURE(!inside);
    }
    spx_mesh_destroy(m);
    return 0;
}

/* ---- the world against brute force -------------------------------------------------------------- */

static test_query_scene scene;

/* Every live shape of the world, by the plain-data queries. */
typedef struct hit_list {
    spx_cast_result* items;
    uint32_t count, capacity;
} hit_list;

static void push(hit_list* l, const spx_cast_result* r)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 64;
        l->items = realloc(l->items, sizeof *l->items * l->capacity);
    }
    l->items[l->count++] = *r;
}

static spx_vec3 neg(spx_vec3 v) { return spx_v3(-v.x, -v.y, -v.z); }

/* Shape i of body slot: a ray by the plain-data queries. */
static bool brute_ray_shape(uint32_t slot, uint32_t i, spx_vec3 o, spx_vec3 d, spx_cast_result* out)
{
    spx_world* w = scene.world;
    const spx_body* b = &w->bodies[slot];
    const spx_body_shape* s = &b->shapes[i];
    spx_ray_hit h;
    if (s->type == SPX_SHAPE_BOX) {
        const spx_obb box = spx_body_shape_box(b, s);
        if (spx_ray_obb(o, d, 1.0f, &box, &h) != SPX_OK) return false;
    } else {
        spx_transform pose;
        spx_body_pose_mesh(b, s);
        spx_mesh_instance_get_pose(s->instance, &pose);
        if (spx_ray_mesh(o, d, 1.0f, s->mesh, &pose, &h) != SPX_OK) return false;
    }
    if (h.state == SPX_SWEEP_MISS) return false;
    out->body = spx_world_body_id(w, slot), out->shape_index = i, out->triangle = h.triangle;
    out->state = h.state, out->fraction = h.fraction, out->point = h.point, out->normal = h.normal, out->depth = 0;
    return true;
}

static bool brute_cast_shape(uint32_t slot, uint32_t i, const spx_obb* box, spx_vec3 d, spx_cast_result* out)
{
    spx_world* w = scene.world;
    const spx_body* b = &w->bodies[slot];
    const spx_body_shape* s = &b->shapes[i];
    const spx_vec3 still = { 0, 0, 0 };
    out->body = spx_world_body_id(w, slot), out->shape_index = i;
    if (s->type == SPX_SHAPE_BOX) {
        const spx_obb other = spx_body_shape_box(b, s);
        spx_sweep_hit h;
        if (spx_sweep_obb_obb(box, d, &other, still, 1.0f, &h) != SPX_OK || h.state == SPX_SWEEP_MISS) return false;
        out->triangle = SPX_NO_TRIANGLE, out->state = h.state, out->fraction = h.time, out->point = h.point;
        out->normal = neg(h.normal), out->depth = h.depth;
        return true;
    }
    spx_body_pose_mesh(b, s);
    spx_mesh_hit h;
    if (spx_sweep_obb_mesh(box, d, s->instance, still, 1.0f, NULL, 0, &h) != SPX_OK || h.state == SPX_SWEEP_MISS)
        return false;
    out->triangle = h.first.triangle_b, out->state = h.state, out->fraction = h.time, out->point = h.point;
    out->normal = neg(h.normal), out->depth = h.depth;
    return true;
}

static bool skip_odd(spx_shape_id shape, void* context)
{
    (void)context;
    spx_body_id body = { 0 };
    spx_shape_get_body(scene.world, shape, &body); /* a getter: it answers while the query runs */
    return (body.index & 1u) == 0;
}

/* Every shape a ray (box NULL) or a box cast meets, by brute force; `filter_odd` leaves out odd slots'. */
static void brute_all(const spx_obb* box, spx_vec3 o, spx_vec3 d, bool filter_odd, hit_list* out)
{
    out->count = 0;
    const spx_world* w = scene.world;
    for (uint32_t slot = 0; slot < w->body_slots; ++slot) {
        if (!w->bodies[slot].alive || (filter_odd && ((slot + 1) & 1u))) continue;
        for (uint32_t i = 0; i < w->bodies[slot].shape_count; ++i) {
            spx_cast_result r;
            if (box ? brute_cast_shape(slot, i, box, d, &r) : brute_ray_shape(slot, i, o, d, &r)) push(out, &r);
        }
    }
}

/* The brute-force answer of a closest query: start overlaps first (deepest), then the least fraction. */
static const spx_cast_result* brute_first(const hit_list* l)
{
    const spx_cast_result* best = NULL;
    for (uint32_t k = 0; k < l->count; ++k) {
        const spx_cast_result* r = &l->items[k];
        bool better;
        if (!best) better = true;
        else if (r->state == SPX_SWEEP_START_OVERLAP)
            better = best->state != SPX_SWEEP_START_OVERLAP || r->depth > best->depth;
        else better = best->state != SPX_SWEEP_START_OVERLAP && r->fraction < best->fraction;
        if (better) best = r;
    }
    return best;
}

static float collect(const spx_cast_result* r, void* context)
{
    push(context, r);
    return 1.0f;
}

static int same_set(const hit_list* a, const hit_list* b)
{
    TEST_ENSURE(a->count == b->count);
    for (uint32_t k = 0; k < a->count; ++k) {
        bool found = false;
        for (uint32_t j = 0; j < b->count && !found; ++j) {
            const spx_cast_result* x = &a->items[k];
            const spx_cast_result* y = &b->items[j];
            if (x->body.index != y->body.index || x->shape_index != y->shape_index) continue;
            TEST_ENSURE(x->body.generation == y->body.generation && x->state == y->state);
            TEST_ENSURE(x->fraction == y->fraction && x->triangle == y->triangle);
            TEST_ENSURE(x->normal.x == y->normal.x && x->normal.y == y->normal.y && x->normal.z == y->normal.z);
            found = true;
        }
        TEST_ENSURE(found);
    }
    return 0;
}

/* A clip callback: records each hit, checks it is within the last clip, clips to its own fraction. */
typedef struct clipper {
    float clip;
    uint32_t calls;
    bool broken;
    spx_cast_result best;
    uint32_t ignore_slot; /* hits of this slot are ignored (-1) */
} clipper;

static float clip_to_hit(const spx_cast_result* r, void* context)
{
    clipper* c = context;
    ++c->calls;
    if (r->fraction > c->clip) c->broken = true;
    if (r->body.index - 1 == c->ignore_slot) return -1.0f;
    if (c->best.state == SPX_SWEEP_MISS || r->fraction < c->best.fraction) c->best = *r;
    c->clip = fminf(c->clip, r->fraction);
    return fmaxf(r->fraction, FLT_MIN);
}

static float stop_at_first(const spx_cast_result* r, void* context)
{
    (void)r;
    ++((clipper*)context)->calls;
    return 0.0f;
}

/* A uniform random direction times a length uniform in [lo, hi]. */
static spx_vec3 random_displacement(test_case_rng* rng, double lo, double hi)
{
    double u[3];
    test_case_unit_vector(rng, u);
    const double len = test_case_uniform(rng, lo, hi);
    return (spx_vec3){ (float)(u[0] * len), (float)(u[1] * len), (float)(u[2] * len) };
}

/* A comparison of random casts with the brute force: how many, the seeded stream they are drawn
   from, and the hits the brute force and the world report for each. */
typedef struct compared {
    uint32_t casts;
    test_case_rng rng;
    hit_list brute, world;
} compared;

static compared compared_casts(uint64_t seed) { return (compared){ long_run ? 10000 : 2000, { seed }, { 0 }, { 0 } }; }

static void compared_free(compared* c) { free(c->brute.items), free(c->world.items); }

static int rays_against_brute_force(void)
{
    compared cmp = compared_casts(11);
    uint32_t hits = 0, total_hits = 0;
    for (uint32_t n = 0; n < cmp.casts; ++n) {
        spx_vec3 o = random_vec3(&cmp.rng, -30, 30);
        const spx_vec3 d = random_displacement(&cmp.rng, 1, 60);
        brute_all(NULL, o, d, false, &cmp.brute);
        const spx_cast_result* expect = brute_first(&cmp.brute);
        spx_cast_result got;
        TEST_ENSURE_CODE(spx_world_cast_ray_closest(scene.world, o, d, NULL, &got), SPX_OK);
        TEST_ENSURE((got.state == SPX_SWEEP_MISS) == (expect == NULL));
        if (expect) {
            ++hits;
            TEST_ENSURE(got.fraction ==
                        expect->fraction); /* the same plain-data query on the same shape: the same float */
        }
        /* any: some hit of the brute force */
        spx_cast_result any;
        TEST_ENSURE_CODE(spx_world_cast_ray_any(scene.world, o, d, NULL, &any), SPX_OK);
        TEST_ENSURE((any.state == SPX_SWEEP_MISS) == (expect == NULL));
        /* all hits */
        cmp.world.count = 0;
        TEST_ENSURE_CODE(spx_world_cast_ray(scene.world, o, d, NULL, collect, &cmp.world), SPX_OK);
        if (same_set(&cmp.world, &cmp.brute) != 0) return 1;
        total_hits += cmp.brute.count;
        /* clipping honoured: no hit reported beyond the last clip, and the least is the closest */
        clipper c = { 1.0f, 0, false, { .state = SPX_SWEEP_MISS }, UINT32_MAX };
        TEST_ENSURE_CODE(spx_world_cast_ray(scene.world, o, d, NULL, clip_to_hit, &c), SPX_OK);
        TEST_ENSURE(!c.broken && c.calls <= cmp.brute.count);
        if (expect) TEST_ENSURE(c.best.fraction == expect->fraction);
        /* ignoring the closest body: the closest of the others */
        if (expect) {
            clipper ig = { 1.0f, 0, false, { .state = SPX_SWEEP_MISS }, expect->body.index - 1 };
            TEST_ENSURE_CODE(spx_world_cast_ray(scene.world, o, d, NULL, clip_to_hit, &ig), SPX_OK);
            float next = INFINITY;
            for (uint32_t k = 0; k < cmp.brute.count; ++k)
                if (cmp.brute.items[k].body.index != expect->body.index)
                    next = fminf(next, cmp.brute.items[k].fraction);
            if (isinf(next)) TEST_ENSURE(ig.best.state == SPX_SWEEP_MISS);
            else TEST_ENSURE(ig.best.fraction == next);
            /* stopping: one call */
            clipper st = { 1.0f, 0, false, { .state = SPX_SWEEP_MISS }, UINT32_MAX };
            TEST_ENSURE_CODE(spx_world_cast_ray(scene.world, o, d, NULL, stop_at_first, &st), SPX_OK);
            TEST_ENSURE(st.calls == 1);
        }
        /* a filter: the callback skipping odd slots, and bits that see nothing */
        if (n % 4 == 0) {
            spx_query_filter f = spx_default_query_filter();
            f.fn = skip_odd;
            brute_all(NULL, o, d, true, &cmp.brute);
            cmp.world.count = 0;
            TEST_ENSURE_CODE(spx_world_cast_ray(scene.world, o, d, &f, collect, &cmp.world), SPX_OK);
            if (same_set(&cmp.world, &cmp.brute) != 0) return 1;
            f = spx_default_query_filter();
            f.mask_bits = 0;
            TEST_ENSURE_CODE(spx_world_cast_ray_closest(scene.world, o, d, &f, &got), SPX_OK);
            TEST_ENSURE(got.state == SPX_SWEEP_MISS);
            f = spx_default_query_filter();
            f.category_bits = 0;
            TEST_ENSURE_CODE(spx_world_cast_ray_closest(scene.world, o, d, &f, &got), SPX_OK);
            TEST_ENSURE(got.state == SPX_SWEEP_MISS);
        }
    }
    printf("  %u rays: %u hit something, %u shape hits in all\n", cmp.casts, hits, total_hits);
    TEST_ENSURE(hits > cmp.casts / 3);
    compared_free(&cmp);
    return 0;
}

static int box_casts_against_brute_force(void)
{
    compared cmp = compared_casts(12);
    uint32_t hits = 0, overlaps = 0;
    for (uint32_t n = 0; n < cmp.casts; ++n) {
        spx_obb box;
        const float hx = (float)test_case_log_uniform(&cmp.rng, 0.05, 1.0),
                    hy = (float)test_case_log_uniform(&cmp.rng, 0.05, 1.0),
                    hz = (float)test_case_log_uniform(&cmp.rng, 0.05, 1.0);
        spx_vec3 h = { hx, hy, hz };
        spx_vec3 c = random_vec3(&cmp.rng, -28, 28);
        TEST_ENSURE_CODE(spx_obb_from_quat(c, h, test_case_random_quat(&cmp.rng), &box), SPX_OK);
        const spx_vec3 d = random_displacement(&cmp.rng, 0.5, 30);
        brute_all(&box, c, d, false, &cmp.brute);
        const spx_cast_result* expect = brute_first(&cmp.brute);
        spx_cast_result got;
        TEST_ENSURE_CODE(spx_world_cast_box_closest(scene.world, &box, d, NULL, &got), SPX_OK);
        TEST_ENSURE((got.state == SPX_SWEEP_MISS) == (expect == NULL));
        if (expect) {
            ++hits;
            overlaps += expect->state == SPX_SWEEP_START_OVERLAP;
            TEST_ENSURE(got.state == expect->state);
            TEST_ENSURE(got.fraction == expect->fraction);
            if (got.state == SPX_SWEEP_START_OVERLAP) TEST_ENSURE(got.depth == expect->depth); /* the deepest */
        }
        cmp.world.count = 0;
        TEST_ENSURE_CODE(spx_world_cast_box(scene.world, &box, d, NULL, collect, &cmp.world), SPX_OK);
        if (same_set(&cmp.world, &cmp.brute) != 0) return 1;
        clipper cl = { 1.0f, 0, false, { .state = SPX_SWEEP_MISS }, UINT32_MAX };
        TEST_ENSURE_CODE(spx_world_cast_box(scene.world, &box, d, NULL, clip_to_hit, &cl), SPX_OK);
        TEST_ENSURE(!cl.broken);
        if (expect) TEST_ENSURE(cl.best.fraction <= expect->fraction || expect->state == SPX_SWEEP_START_OVERLAP);
    }
    printf("  %u box casts: %u met something (%u starting in overlap)\n", cmp.casts, hits, overlaps);
    TEST_ENSURE(hits > cmp.casts / 3 && overlaps > cmp.casts / 50);
    compared_free(&cmp);
    return 0;
}

typedef struct id_list {
    uint64_t keys[4096];
    uint32_t count;
} id_list;

static bool collect_id(spx_shape_id shape, void* context)
{
    id_list* l = context;
    if (l->count < 4096) l->keys[l->count++] = (uint64_t)shape.index << 16 | shape.generation;
    return true;
}

static int cmp_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

static int same_ids(id_list* a, id_list* b)
{
    qsort(a->keys, a->count, sizeof a->keys[0], cmp_u64);
    qsort(b->keys, b->count, sizeof b->keys[0], cmp_u64);
    TEST_ENSURE(a->count == b->count);
    for (uint32_t k = 0; k < a->count; ++k) TEST_ENSURE(a->keys[k] == b->keys[k]);
    return 0;
}

static bool point_in_obb(const spx_obb* o, spx_vec3 p)
{
    const double d[3] = { (double)p.x - o->center.x, (double)p.y - o->center.y, (double)p.z - o->center.z };
    for (int i = 0; i < 3; ++i) {
        const spx_vec3 a = o->rotation.col[i];
        if (fabs(d[0] * a.x + d[1] * a.y + d[2] * a.z) > (&o->half_extents.x)[i]) return false;
    }
    return true;
}

static int overlaps_against_brute_force(void)
{
    test_case_rng rng = { 13 };
    static id_list got, want;
    spx_world* w = scene.world;
    uint32_t found = 0;
    for (int n = 0; n < 3000; ++n) {
        const int kind = n % 3;
        spx_vec3 c = random_vec3(&rng, -28, 28);
        const float hx = (float)test_case_log_uniform(&rng, 0.1, 6), hy = (float)test_case_log_uniform(&rng, 0.1, 6),
                    hz = (float)test_case_log_uniform(&rng, 0.1, 6);
        spx_vec3 h = { hx, hy, hz };
        spx_obb box;
        TEST_ENSURE_CODE(spx_obb_from_quat(c, h, test_case_random_quat(&rng), &box), SPX_OK);
        const spx_vec3 lo = { c.x - h.x, c.y - h.y, c.z - h.z }, hi = { c.x + h.x, c.y + h.y, c.z + h.z };
        got.count = want.count = 0;
        if (kind == 0) TEST_ENSURE_CODE(spx_world_overlap_aabb(w, lo, hi, NULL, collect_id, &got), SPX_OK);
        if (kind == 1) TEST_ENSURE_CODE(spx_world_overlap_box(w, &box, NULL, collect_id, &got), SPX_OK);
        if (kind == 2) TEST_ENSURE_CODE(spx_world_overlap_point(w, c, NULL, collect_id, &got), SPX_OK);
        for (uint32_t slot = 0; slot < w->body_slots; ++slot) {
            const spx_body* b = &w->bodies[slot];
            if (!b->alive) continue;
            for (uint32_t i = 0; i < b->shape_count; ++i) {
                const spx_body_shape* s = &b->shapes[i];
                const spx_obb o = spx_body_shape_box(b, s);
                bool in = false;
                if (kind == 0) {
                    spx_vec3 e = { 0, 0, 0 };
                    for (int k = 0; k < 3; ++k)
                        for (int j = 0; j < 3; ++j)
                            (&e.x)[k] += (&o.half_extents.x)[j] * fabsf((&o.rotation.col[j].x)[k]);
                    in = o.center.x - e.x <= hi.x && lo.x <= o.center.x + e.x && o.center.y - e.y <= hi.y &&
                         lo.y <= o.center.y + e.y && o.center.z - e.z <= hi.z && lo.z <= o.center.z + e.z;
                } else if (s->type == SPX_SHAPE_BOX) {
                    if (kind == 1) TEST_ENSURE_CODE(spx_overlap_obb_obb(&box, &o, &in), SPX_OK);
                    else TEST_ENSURE_CODE(spx_obb_contains_point(&o, c, &in), SPX_OK);
                    if (kind == 2) TEST_ENSURE(in == point_in_obb(&o, c));
                } else {
                    spx_transform pose;
                    spx_body_pose_mesh(b, s);
                    spx_mesh_instance_get_pose(s->instance, &pose);
                    if (kind == 1) TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, s->instance, &in), SPX_OK);
                    if (!in) TEST_ENSURE_CODE(spx_mesh_contains_point(s->mesh, &pose, c, &in), SPX_OK);
                }
                if (in) collect_id(spx_world_shape_id(w, slot, i), &want);
            }
        }
        found += want.count;
        if (same_ids(&got, &want) != 0) {
            fprintf(stderr, "overlap query %d (kind %d): %u found, %u by brute force\n", n, kind, got.count,
                    want.count);
            return 1;
        }
    }
    printf("  3000 overlap queries: %u shapes found\n", found);
    TEST_ENSURE(found > 1000);
    return 0;
}

static int world_bad_input(void)
{
    spx_world* w = scene.world;
    spx_cast_result r;
    const spx_vec3 o = { 0, 0, 0 }, d = { 1, 0, 0 };
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(NULL, o, d, NULL, &r), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_cast_ray(w, o, d, NULL, NULL, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, spx_v3(0, 0, 0), NULL, &r), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_cast_ray_any(w, spx_v3(NAN, 0, 0), d, NULL, &r), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_world_cast_ray_any(w, o, spx_v3(0, 1e8f, 0), NULL, &r), SPX_ERR_OUT_OF_RANGE);
    spx_obb box = axis_box(o, spx_v3(1, 1, 1));
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, NULL, d, NULL, &r), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &box, spx_v3(INFINITY, 0, 0), NULL, &r), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &box, spx_v3(3e7f, 0, 0), NULL, &r), SPX_ERR_OUT_OF_RANGE);
    box.half_extents.z = -1.0f;
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &box, d, NULL, &r), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_world_overlap_box(w, &box, NULL, collect_id, NULL), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_world_overlap_aabb(w, spx_v3(1, 0, 0), spx_v3(0, 1, 1), NULL, collect_id, NULL),
                     SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_overlap_aabb(w, o, spx_v3(NAN, 1, 1), NULL, collect_id, NULL), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_world_overlap_point(w, spx_v3(0, 2e7f, 0), NULL, collect_id, NULL), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_world_overlap_point(w, o, NULL, NULL, NULL), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* The query tree follows the bodies: after steps, a body placed elsewhere, a body destroyed, a body
   made in its slot. */
/* Half the bodies teleported at once: the query tree is made again top down (more than a quarter of
   its leaves moved), then one body moved in the rebuilt tree; rays and overlaps still answer as brute
   force. */
static int rebuilt_tree_against_brute_force(void)
{
    spx_world* w = scene.world;
    test_case_rng rng = { 41 };
    for (uint32_t i = 0; i < scene.body_count; i += 2) {
        const spx_vec3 at = random_vec3(&rng, -25, 25);
        spx_transform t = { at, test_case_random_quat(&rng) };
        if (spx_body_set_transform(w, scene.bodies[i].id, &t) == SPX_ERR_STALE_ID) continue; /* destroyed */
    }
    hit_list brute = { 0 }, world = { 0 };
    uint32_t hits = 0;
    for (int n = 0; n < 600; ++n) {
        if (n == 300) {
            spx_transform t = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
            TEST_ENSURE_CODE(spx_body_set_transform(w, scene.bodies[1].id, &t), SPX_OK);
        }
        spx_vec3 o = random_vec3(&rng, -30, 30);
        const spx_vec3 d = random_displacement(&rng, 1, 60);
        brute_all(NULL, o, d, false, &brute);
        const spx_cast_result* expect = brute_first(&brute);
        spx_cast_result got;
        TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, &got), SPX_OK);
        TEST_ENSURE((got.state == SPX_SWEEP_MISS) == (expect == NULL));
        if (expect) {
            TEST_ENSURE(got.fraction == expect->fraction);
            ++hits;
        }
        world.count = 0;
        TEST_ENSURE_CODE(spx_world_cast_ray(w, o, d, NULL, collect, &world), SPX_OK);
        if (same_set(&world, &brute) != 0) return 1;
    }
    printf("  600 rays after half the bodies were moved: %u hit something\n", hits);
    TEST_ENSURE(hits > 100);
    free(brute.items), free(world.items);
    return 0;
}

static int world_changes_are_seen(void)
{
    spx_world* w = scene.world;
    test_query_scene_body* qb = &scene.bodies[0];
    spx_cast_result r;
    /* place body 0 in the way of a ray far outside the scene */
    const spx_vec3 o = { 200, 200, 200 }, d = { 0, -100, 0 };
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_MISS);
    spx_transform t = { { 200, 150, 200 }, { 0, 0, 0, 1 } };
    TEST_ENSURE_CODE(spx_body_set_transform(w, qb->id, &t), SPX_OK);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, &r), SPX_OK);
    TEST_ENSURE(r.state != SPX_SWEEP_MISS && r.body.index == qb->id.index && r.body.generation == qb->id.generation);
    TEST_ENSURE_CODE(spx_body_destroy(w, qb->id), SPX_OK);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_MISS);
    /* a new body, made there: found, with its own id */
    spx_shape_def sd;
    spx_body_def bd;
    one_box_def(&sd, &bd, spx_v3(1, 1, 1));
    bd.position = spx_v3(200, 120, 200);
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &qb->id), SPX_OK);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, o, d, NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == qb->id.index && r.body.generation == qb->id.generation);
    TEST_ENSURE_NEAR(r.fraction, (200.0f - 121.0f) / 100.0f, 1e-6f);
    /* a falling body: after the steps the ray meets it where it is */
    bd.type = SPX_BODY_DYNAMIC;
    bd.position = spx_v3(300, 100, 300);
    spx_body_id fall;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &fall), SPX_OK);
    for (int k = 0; k < 30; ++k) TEST_ENSURE_CODE(spx_world_step(w, 1.0f / 60.0f), SPX_OK);
    spx_transform now;
    TEST_ENSURE_CODE(spx_body_get_transform(w, fall, &now), SPX_OK);
    TEST_ENSURE(now.p.y < 99.0f);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(300, 200, 300), spx_v3(0, -200, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == fall.index);
    TEST_ENSURE_NEAR(r.point.y, now.p.y + 1.0f, 1e-4f);
    TEST_ENSURE_CODE(spx_body_destroy(w, fall), SPX_OK);
    return 0;
}

static bool count_shape(spx_shape_id shape, void* context)
{
    (void)shape;
    ++*(uint32_t*)context;
    return true;
}

/* The shapes' own filters decide what a query sees, sensors are never seen, and a hit names its shape
   by id as spx_body_get_shape does. */
static int shape_filters_and_sensors(void)
{
    spx_shape_def sd;
    spx_body_def bd;
    spx_world* w = world_and_box_def(&sd, &bd, spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(w);
    spx_body_id sensor, near, far;
    bd.position = spx_v3(3, 0, 0), sd.is_sensor = true;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &sensor), SPX_OK);
    bd.position = spx_v3(6, 0, 0), sd.is_sensor = false, sd.filter.category_bits = 2;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &near), SPX_OK);
    bd.position = spx_v3(9, 0, 0), sd.filter.category_bits = 1;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &far), SPX_OK);
    spx_shape_id near_shape, far_shape;
    TEST_ENSURE_CODE(spx_body_get_shape(w, near, 0, &near_shape), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_shape(w, far, 0, &far_shape), SPX_OK);

    spx_cast_result r;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 0, 0), spx_v3(20, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == near.index);
    TEST_ENSURE(r.shape.index == near_shape.index && r.shape.world == near_shape.world &&
                r.shape.generation == near_shape.generation);
    spx_query_filter f = spx_default_query_filter();
    f.mask_bits = 1; /* sees category 1 only: the near box is 2 */
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 0, 0), spx_v3(20, 0, 0), &f, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == far.index && r.shape.index == far_shape.index);
    spx_filter blind = spx_default_filter();
    blind.mask_bits = ~(uint64_t)1; /* the far box no longer sees a query of category 1 */
    TEST_ENSURE_CODE(spx_shape_set_filter(w, far_shape, blind), SPX_OK);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 0, 0), spx_v3(20, 0, 0), &f, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_MISS);
    uint32_t n = 0;
    TEST_ENSURE_CODE(spx_world_overlap_point(w, spx_v3(3, 0, 0), NULL, count_shape, &n), SPX_OK);
    TEST_ENSURE(n == 0); /* inside the sensor only */
    spx_obb box = axis_box(spx_v3(0, 0, 0), spx_v3(0.25f, 0.25f, 0.25f));
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &box, spx_v3(20, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == near.index && r.shape.index == near_shape.index);
    spx_world_destroy(w);
    return 0;
}

/* The example of docs/queries.md, and a mesh's triangle numbers and inside, in a world of their own. */
static int worked_example(void)
{
    spx_shape_def sd;
    spx_body_def bd;
    spx_world* w = world_and_box_def(&sd, &bd, spx_v3(1, 1, 1));
    TEST_ENSURE(w);
    bd.position = spx_v3(5, 0, 0);
    spx_body_id box_id, ball_id, grid_id;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &box_id), SPX_OK);
    spx_cast_result r;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 0, 0), spx_v3(10, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == box_id.index && r.shape_index == 0);
    TEST_ENSURE(r.triangle == SPX_NO_TRIANGLE && r.normal.x == -1.0f && r.normal.y == 0.0f && r.normal.z == 0.0f);
    TEST_ENSURE_NEAR(r.fraction, 0.4f, 1e-7f);
    TEST_ENSURE_NEAR(r.point.x, 4.0f, 1e-6f);
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(5, 0, 0), spx_v3(10, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_START_OVERLAP && r.fraction == 0.0f && r.normal.x == -1.0f);
    spx_obb crate = axis_box(spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &crate, spx_v3(10, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == box_id.index);
    TEST_ENSURE_NEAR(r.fraction, 0.35f, 1e-6f);
    TEST_ENSURE_NEAR(r.normal.x, -1.0f, 1e-6f);
    TEST_ENSURE_NEAR(r.point.x, 4.0f, 1e-5f);
    /* started overlapping by 0.25 m: the minimum translation pushes it back along -x */
    crate.center.x = 3.75f;
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &crate, spx_v3(1, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_START_OVERLAP && r.fraction == 0.0f);
    TEST_ENSURE_NEAR(r.depth, 0.25f, 1e-6f);
    TEST_ENSURE_NEAR(r.normal.x, -1.0f, 1e-6f);
    /* a closed icosphere: a box at its centre overlaps it (held whole), its centre holds the point, a
       short cast from there meets nothing (the surface is 2.5 m away) */
    test_shape sh;
    TEST_ENSURE(test_shape_icosphere(&sh, 2.5f, 2));
    spx_mesh* ball = test_shape_mesh(&sh);
    test_shape_free(&sh);
    TEST_ENSURE(ball);
    spx_shape_def md = spx_default_shape_def();
    md.type = SPX_SHAPE_MESH;
    md.mesh = ball;
    bd.position = spx_v3(20, 0, 0);
    bd.shapes = &md;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &ball_id), SPX_OK);
    uint32_t n = 0;
    spx_obb inner = axis_box(spx_v3(20, 0, 0), spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE_CODE(spx_world_overlap_box(w, &inner, NULL, count_shape, &n), SPX_OK);
    TEST_ENSURE(n == 1);
    n = 0;
    TEST_ENSURE_CODE(spx_world_overlap_point(w, spx_v3(20, 0.1f, 0), NULL, count_shape, &n), SPX_OK);
    TEST_ENSURE(n == 1);
    n = 0;
    TEST_ENSURE_CODE(spx_world_overlap_point(w, spx_v3(20, 2.6f, 0), NULL, count_shape, &n), SPX_OK);
    TEST_ENSURE(n == 0);
    TEST_ENSURE_CODE(spx_world_cast_box_closest(w, &inner, spx_v3(1, 0, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_MISS);
    /* from its centre a ray meets the inner side */
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(20, 0, 0), spx_v3(0, 10, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == ball_id.index && r.normal.y < -0.9f);
    TEST_ENSURE_NEAR(r.fraction, 0.25f, 0.01f);
    /* a grid: the triangle named is the def's, found by its corners */
    TEST_ENSURE(test_shape_grid(&sh, 4, 4));
    spx_mesh* grid = test_shape_mesh(&sh);
    TEST_ENSURE(grid);
    md.mesh = grid;
    bd.position = spx_v3(-20, 0, 0);
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &grid_id), SPX_OK);
    test_case_rng rng = { 9 };
    for (int k = 0; k < 200; ++k) {
        const float x = (float)test_case_uniform(&rng, 0.01, 3.99), z = (float)test_case_uniform(&rng, 0.01, 3.99);
        TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(-20 + x, 5, z), spx_v3(0, -10, 0), NULL, &r), SPX_OK);
        TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == grid_id.index && r.triangle < sh.triangle_count);
        TEST_ENSURE_NEAR(r.fraction, 0.5f, 1e-6f);
        TEST_ENSURE(r.normal.y == 1.0f);
        /* the point lies in the def's triangle r.triangle (its corners' x and z bound it) */
        float lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
        for (int c = 0; c < 3; ++c) {
            const spx_vec3 v = sh.vertices[sh.indices[3 * r.triangle + c]];
            lo[0] = fminf(lo[0], v.x), hi[0] = fmaxf(hi[0], v.x), lo[1] = fminf(lo[1], v.z), hi[1] = fmaxf(hi[1], v.z);
        }
        TEST_ENSURE(x >= lo[0] && x <= hi[0] && z >= lo[1] && z <= hi[1]);
    }
    test_shape_free(&sh);
    spx_world_destroy(w);
    spx_mesh_destroy(ball);
    spx_mesh_destroy(grid);
    return 0;
}

/* A query made from inside a step (from the host's allocator, the one host code a step runs) is
   refused: the step is moving the bodies the query tree follows. */
typedef struct locked_probe {
    uint32_t tried, refused;
} locked_probe;

static bool never(spx_shape_id shape, void* context)
{
    (void)shape, (void)context;
    return false;
}

/* Every query, made on the world from inside its own step. */
static void query_into(spx_world* w, void* context)
{
    locked_probe* p = context;
    spx_cast_result r;
    const spx_obb box = axis_box(spx_v3(0, 2, 0), spx_v3(0.5f, 0.5f, 0.5f));
    const spx_result got[6] = {
        spx_world_cast_ray_closest(w, spx_v3(0, 5, 0), spx_v3(0, -10, 0), NULL, &r),
        spx_world_cast_ray_any(w, spx_v3(0, 5, 0), spx_v3(0, -10, 0), NULL, &r),
        spx_world_cast_box_closest(w, &box, spx_v3(0, -3, 0), NULL, &r),
        spx_world_overlap_aabb(w, spx_v3(-1, -1, -1), spx_v3(1, 1, 1), NULL, never, NULL),
        spx_world_overlap_box(w, &box, NULL, never, NULL),
        spx_world_overlap_point(w, spx_v3(0, 0, 0), NULL, never, NULL),
    };
    for (int k = 0; k < 6; ++k) p->tried++, p->refused += got[k] == SPX_ERR_WORLD_LOCKED;
}

static int queries_refused_during_a_step(void)
{
    static locked_probe p;
    static test_reentrant alloc;
    alloc.call = query_into, alloc.context = &p;
    spx_body_id id;
    TEST_ENSURE_CODE(test_reentrant_scene(&alloc, &id), SPX_OK);
    spx_world* w = alloc.world;
    TEST_ENSURE_CODE(test_reentrant_steps(&alloc, 3), SPX_OK);
    TEST_ENSURE(p.tried > 0 && p.refused == p.tried);
    /* after the step they answer, the tree made through the host's allocator */
    spx_cast_result r;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 5, 0), spx_v3(0, -10, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == id.index);
    alloc.world = NULL;
    spx_world_destroy(w);
    return 0;
}

/* From inside a query's callbacks the world is locked: no body destroyed under the search's feet. */
typedef struct meddler {
    spx_world* world;
    spx_body_id victim;
    uint32_t calls, refused;
} meddler;

static void meddle(meddler* m)
{
    spx_cast_result r;
    const spx_transform t = { { 0, 50, 0 }, { 0, 0, 0, 1 } };
    const spx_result got[4] = { spx_body_destroy(m->world, m->victim), spx_body_set_transform(m->world, m->victim, &t),
                                spx_world_step(m->world, 0.01f),
                                spx_world_cast_ray_closest(m->world, spx_v3(0, 0, 0), spx_v3(1, 0, 0), NULL, &r) };
    for (int k = 0; k < 4; ++k) m->calls++, m->refused += got[k] == SPX_ERR_WORLD_LOCKED;
}

static float meddle_cast(const spx_cast_result* r, void* context)
{
    (void)r;
    meddle(context);
    return 1.0f;
}

static bool meddle_overlap(spx_shape_id shape, void* context)
{
    (void)shape;
    meddle(context);
    return true;
}

static bool meddle_filter(spx_shape_id shape, void* context)
{
    (void)shape;
    meddle(context);
    return true;
}

static int world_locked_in_callbacks(void)
{
    spx_world* w = scene.world;
    meddler m = { w, scene.bodies[1].id, 0, 0 };
    TEST_ENSURE(spx_body_is_valid(w, m.victim));
    spx_transform at;
    TEST_ENSURE_CODE(spx_body_get_transform(w, m.victim, &at), SPX_OK);
    const spx_vec3 above = { at.p.x, at.p.y + 20.0f, at.p.z };
    TEST_ENSURE_CODE(spx_world_cast_ray(w, above, spx_v3(0, -40, 0), NULL, meddle_cast, &m), SPX_OK);
    spx_obb box = axis_box(above, spx_v3(0.1f, 0.1f, 0.1f));
    TEST_ENSURE_CODE(spx_world_cast_box(w, &box, spx_v3(0, -40, 0), NULL, meddle_cast, &m), SPX_OK);
    TEST_ENSURE_CODE(spx_world_overlap_point(w, at.p, NULL, meddle_overlap, &m), SPX_OK);
    spx_query_filter f = spx_default_query_filter();
    f.fn = meddle_filter;
    f.context = &m;
    spx_cast_result r;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, above, spx_v3(0, -40, 0), &f, &r), SPX_OK);
    TEST_ENSURE(m.calls >= 16 && m.refused == m.calls);
    TEST_ENSURE(spx_body_is_valid(w, m.victim));
    spx_transform still;
    TEST_ENSURE_CODE(spx_body_get_transform(w, m.victim, &still), SPX_OK);
    TEST_ENSURE(memcmp(&still, &at, sizeof at) == 0);
    /* and after the queries, the world is open again */
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, above, spx_v3(0, -40, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state != SPX_SWEEP_MISS);
    return 0;
}

/* An allocator that fails on demand: a query whose tree cannot grow answers SPX_ERR_OUT_OF_MEMORY,
   reports nothing, and the next one succeeds. */
static bool fail_alloc;

static void* flaky_alloc(size_t size, size_t alignment, void* context)
{
    (void)context;
    if (fail_alloc) return NULL;
    return test_plain_alloc(size, alignment);
}

static int query_out_of_memory(void)
{
    const spx_allocator a = { flaky_alloc, test_plain_free, NULL };
    spx_world_def wd = spx_default_world_def();
    wd.allocator = &a;
    spx_world* w = NULL;
    fail_alloc = false;
    TEST_ENSURE_CODE(spx_world_create(&wd, &w), SPX_OK);
    spx_shape_def sd;
    spx_body_def bd;
    one_box_def(&sd, &bd, spx_v3(1, 1, 1));
    spx_body_id id;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &id), SPX_OK);
    fail_alloc = true;
    spx_cast_result r;
    uint32_t n = 0;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 5, 0), spx_v3(0, -10, 0), NULL, &r),
                     SPX_ERR_OUT_OF_MEMORY);
    TEST_ENSURE_CODE(spx_world_overlap_point(w, spx_v3(0, 0, 0), NULL, count_shape, &n), SPX_ERR_OUT_OF_MEMORY);
    TEST_ENSURE(n == 0);
    fail_alloc = false;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(w, spx_v3(0, 5, 0), spx_v3(0, -10, 0), NULL, &r), SPX_OK);
    TEST_ENSURE(r.state == SPX_SWEEP_HIT && r.body.index == id.index);
    TEST_ENSURE_NEAR(r.fraction, 0.4f, 1e-7f);
    /* a second body after the tree exists: the tree grows, or says it cannot */
    bd.position = spx_v3(10, 0, 0);
    spx_body_id second;
    TEST_ENSURE_CODE(spx_body_create(w, &bd, &second), SPX_OK);
    TEST_ENSURE_CODE(spx_world_overlap_point(w, spx_v3(10, 0, 0), NULL, count_shape, &n), SPX_OK);
    TEST_ENSURE(n == 1);
    spx_world_destroy(w);
    return 0;
}

static int world_build(void)
{
    TEST_ENSURE(test_query_scene_build(&scene, 1000, 0x5E9A));
    /* a first query makes the tree; the steps then move the awake bodies */
    spx_cast_result r;
    TEST_ENSURE_CODE(spx_world_cast_ray_closest(scene.world, spx_v3(0, 0, 0), spx_v3(1, 1, 1), NULL, &r), SPX_OK);
    for (int k = 0; k < 3; ++k) TEST_ENSURE_CODE(spx_world_step(scene.world, 1.0f / 60.0f), SPX_OK);
    return 0;
}

int main(int argc, char** argv)
{
    long_run = test_long_run(argc, argv);
    int failures = 0;
    TEST_RUN(ray_obb_by_hand, failures);
    TEST_RUN(ray_triangle_by_hand, failures);
    TEST_RUN(rays_in_a_triangles_plane_miss, failures);
    TEST_RUN(ray_bad_input, failures);
    TEST_RUN(ray_moves_with_the_problem, failures);
    TEST_RUN(icosphere_watertight, failures);
    TEST_RUN(ray_mesh_against_triangles, failures);
    TEST_RUN(world_mesh_boundary, failures);
    TEST_RUN(contains_point, failures);
    TEST_RUN(worked_example, failures);
    TEST_RUN(shape_filters_and_sensors, failures);
    TEST_RUN(queries_refused_during_a_step, failures);
    TEST_RUN(query_out_of_memory, failures);
    TEST_RUN(world_build, failures);
    if (scene.world) {
        TEST_RUN(world_bad_input, failures);
        TEST_RUN(rays_against_brute_force, failures);
        TEST_RUN(box_casts_against_brute_force, failures);
        TEST_RUN(overlaps_against_brute_force, failures);
        TEST_RUN(world_locked_in_callbacks, failures);
        TEST_RUN(world_changes_are_seen, failures);
        TEST_RUN(rebuilt_tree_against_brute_force, failures);
    }
    test_query_scene_free(&scene);
    return failures ? 1 : 0;
}
