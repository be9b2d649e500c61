/* Convex hulls as shapes of the world: a hull cube weighs, turns and rests as the box of its size; a
   tetrahedron and a 32-corner rounded hull settle on a box ground and a mesh ground without sinking
   and fall asleep; hulls stack on hulls and carry balls and capsules; a hull at 100 m/s stops at a
   thin wall and at a mesh sheet; the world's queries and sensors see hulls; bad defs give their codes. */
#include "support/test.h"
#include "support/pieces.h"
#include "support/scenes.h"
#include "support/shapes.h"
#include <sepax/sepax.h>
#include <stdlib.h>
#include <string.h>

static spx_quat identity(void) { return (spx_quat){ 0.0f, 0.0f, 0.0f, 1.0f }; }
static spx_quat about(spx_vec3 axis, float angle)
{
    const float s = sinf(0.5f * angle) / sqrtf(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    return (spx_quat){ axis.x * s, axis.y * s, axis.z * s, cosf(0.5f * angle) };
}

/* A tetrahedron of edge about 0.6 m, its frame's origin off its centre (the shape's box is too). */
static spx_hull* tetra_hull(void)
{
    const spx_vec3 p[4] = {
        { 0.3f, 0.5f, 0.3f }, { 0.3f, -0.1f, -0.3f }, { -0.3f, 0.5f, -0.3f }, { -0.3f, -0.1f, 0.3f }
    };
    return test_hull_of(p, 4);
}

/* 32 corners on a rounded box: points of a Fibonacci sphere pushed towards a cube's corners. */
static spx_hull* rounded_hull(float size)
{
    spx_vec3 p[32];
    for (int i = 0; i < 32; ++i) {
        const float y = 1.0f - 2.0f * ((float)i + 0.5f) / 32.0f, r = sqrtf(1.0f - y * y);
        const float a = 2.39996323f * (float)i;
        spx_vec3 u = spx_v3(r * cosf(a), y, r * sinf(a));
        const float m = fmaxf(fabsf(u.x), fmaxf(fabsf(u.y), fabsf(u.z)));
        const float k = 0.5f / sqrtf(u.x * u.x + u.y * u.y + u.z * u.z) + 0.5f / m; /* between sphere and cube */
        p[i] = spx_v3(size * k * u.x, size * k * u.y, size * k * u.z);
    }
    return test_hull_of(p, 32);
}

static spx_body_id add_body(spx_world* w, spx_body_type type, spx_vec3 p, spx_quat q, spx_shape_def s)
{
    spx_body_def d = test_body_def(type, p);
    d.rotation = q;
    return test_body_create(w, d, s, NULL);
}

/* A hull of a box's 8 corners has the box's mass and inertia (the same spin from the same impulse)
   and, dropped turned beside the box, rests at the same height within a millimetre. */
static int hull_cube_is_a_box(void)
{
    const spx_vec3 half = { 0.4f, 0.25f, 0.3f };
    spx_hull* cube = test_hull_box(half);
    TEST_ENSURE(cube);
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(10, 0.5f, 10));
    const spx_quat tilt = about(spx_v3(1, 0, 1), 0.3f);
    spx_body_id box = add_body(w, SPX_BODY_DYNAMIC, spx_v3(-2, 1.0f, 0), tilt, test_box_shape(half));
    spx_body_id hull = add_body(w, SPX_BODY_DYNAMIC, spx_v3(2, 1.0f, 0), tilt, test_hull_shape(cube));
    TEST_ENSURE(box.index && hull.index);
    float mb, mh;
    TEST_ENSURE(spx_body_get_mass(w, box, &mb) == SPX_OK && spx_body_get_mass(w, hull, &mh) == SPX_OK);
    TEST_ENSURE_NEAR(mh, mb, 1e-5f * mb);
    TEST_ENSURE_NEAR(mb, 1000.0f * 8.0f * half.x * half.y * half.z, 1e-3f);
    /* The same impulse off the centre of each: the same spin. */
    const spx_vec3 j = { 3.0f, -1.0f, 2.0f }, off = { 0.1f, 0.2f, -0.15f };
    TEST_ENSURE(spx_body_apply_impulse(w, box, j, spx_v3(-2 + off.x, 1.0f + off.y, off.z)) == SPX_OK);
    TEST_ENSURE(spx_body_apply_impulse(w, hull, j, spx_v3(2 + off.x, 1.0f + off.y, off.z)) == SPX_OK);
    spx_vec3 vb, wb, vh, wh;
    TEST_ENSURE(spx_body_get_velocity(w, box, &vb, &wb) == SPX_OK &&
                spx_body_get_velocity(w, hull, &vh, &wh) == SPX_OK);
    TEST_ENSURE_NEAR3(wh, wb.x, wb.y, wb.z, 1e-4f * (fabsf(wb.x) + fabsf(wb.y) + fabsf(wb.z)));
    TEST_ENSURE_NEAR3(vh, vb.x, vb.y, vb.z, 1e-6f);
    bool asleep = false;
    for (int s = 0; s < 360 && !asleep; ++s) {
        TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
        bool awake_b = true, awake_h = true;
        TEST_ENSURE(spx_body_is_awake(w, box, &awake_b) == SPX_OK && spx_body_is_awake(w, hull, &awake_h) == SPX_OK);
        asleep = !awake_b && !awake_h;
    }
    TEST_ENSURE(asleep);
    spx_transform tb, th;
    TEST_ENSURE(spx_body_get_transform(w, box, &tb) == SPX_OK && spx_body_get_transform(w, hull, &th) == SPX_OK);
    printf("box rests at y %.4f, hull cube at %.4f\n", (double)tb.p.y, (double)th.p.y);
    TEST_ENSURE_NEAR(th.p.y, tb.p.y, 1e-3f);
    spx_world_destroy(w);
    spx_hull_destroy(cube);
    return 0;
}

/* A tetrahedron, a 32-corner rounded hull and a hull cube, several of each dropped turned onto a box
   ground and onto a mesh ground: no contact overlaps over 1 cm at any step, nothing falls through, and
   they fall asleep. */
static int hulls_settle_on_grounds(void)
{
    spx_hull* tetra = tetra_hull();
    spx_hull* round = rounded_hull(0.25f);
    spx_hull* cube = test_hull_box(spx_v3(0.2f, 0.2f, 0.2f));
    spx_mesh* grid = test_shape_grid_mesh(12, 12);
    TEST_ENSURE(tetra && round && cube && grid);
    spx_hull_info info;
    TEST_ENSURE(spx_hull_get_info(round, &info) == SPX_OK && info.corner_count == 32);
    const spx_hull* kinds[3] = { tetra, round, cube };
    for (int ground = 0; ground < 2; ++ground) {
        spx_world* w = test_world_create(NULL);
        TEST_ENSURE(w);
        if (ground == 0) test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(6, 0.5f, 6));
        else
            TEST_ENSURE(
                test_body_create(w, test_body_def(SPX_BODY_STATIC, spx_v3(-6, 0, -6)), test_mesh_shape(grid), NULL)
                    .index);
        spx_body_id bodies[12];
        int count = 0;
        for (int i = 0; i < 4; ++i)
            for (int k = 0; k < 3; ++k) {
                const spx_vec3 p = spx_v3(-3.0f + 2.0f * (float)i, 0.8f + 0.5f * (float)k, -2.0f + 2.0f * (float)k);
                bodies[count] =
                    add_body(w, SPX_BODY_DYNAMIC, p, about(spx_v3(1.0f, (float)i, (float)k), 0.4f + 0.7f * (float)i),
                             test_hull_shape(kinds[k]));
                TEST_ENSURE(bodies[count].index);
                ++count;
            }
        float worst = 0.0f;
        int awake_at = -1;
        for (int s = 0; s < 480; ++s) {
            TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
            worst = fmaxf(worst, test_deepest_overlap(w, bodies, count));
            bool any = false;
            for (int i = 0; i < count; ++i) {
                bool awake = true;
                TEST_ENSURE(spx_body_is_awake(w, bodies[i], &awake) == SPX_OK);
                any |= awake;
            }
            if (any) awake_at = s;
        }
        for (int i = 0; i < count; ++i) TEST_ENSURE(test_body_position(w, bodies[i]).y > 0.0f);
        printf("%s ground: deepest overlap %.2f mm, all asleep after %.2f s\n", ground ? "mesh" : "box",
               1e3 * (double)worst, (double)(awake_at + 1) / 60.0);
        TEST_ENSURE(worst < 0.01f);
        TEST_ENSURE(awake_at < 479);
        spx_world_destroy(w);
    }
    spx_mesh_destroy(grid);
    spx_hull_destroy(tetra);
    spx_hull_destroy(round);
    spx_hull_destroy(cube);
    return 0;
}

/* A hull cube on a hull cube, a ball and a capsule on top, a rounded hull beside: they settle without
   sinking. */
static int hulls_carry_other_shapes(void)
{
    spx_hull* round = rounded_hull(0.3f);
    spx_hull* cube = test_hull_box(spx_v3(0.3f, 0.3f, 0.3f));
    TEST_ENSURE(round && cube);
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(6, 0.5f, 6));
    spx_body_id bodies[8];
    int count = 0;
    bodies[count++] = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.35f, 0), identity(), test_hull_shape(cube));
    bodies[count++] =
        add_body(w, SPX_BODY_DYNAMIC, spx_v3(0.05f, 1.0f, 0), about(spx_v3(0, 1, 0), 0.5f), test_hull_shape(cube));
    bodies[count++] = add_body(w, SPX_BODY_DYNAMIC, spx_v3(2, 0.4f, 0), identity(), test_hull_shape(round));
    spx_shape_def ball = spx_default_shape_def();
    ball.type = SPX_SHAPE_SPHERE;
    ball.radius = 0.15f;
    bodies[count++] = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0.05f, 1.5f, 0.15f), identity(), ball);
    spx_shape_def cap = spx_default_shape_def();
    cap.type = SPX_SHAPE_CAPSULE;
    cap.radius = 0.1f;
    cap.half_height = 0.3f;
    bodies[count++] = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 1.5f, -0.15f), about(spx_v3(0, 0, 1), 1.5707963f), cap);
    for (int i = 0; i < count; ++i) TEST_ENSURE(bodies[i].index);
    float worst = 0.0f;
    for (int s = 0; s < 300; ++s) {
        TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
        worst = fmaxf(worst, test_deepest_overlap(w, bodies, count));
    }
    /* The top cube on the bottom one, the ball and the capsule lying on the top cube (its top at 1.2 m). */
    TEST_ENSURE_NEAR(test_body_position(w, bodies[1]).y, 0.9f, 0.005f);
    TEST_ENSURE_NEAR(test_body_position(w, bodies[3]).y, 1.35f, 0.005f);
    TEST_ENSURE_NEAR(test_body_position(w, bodies[4]).y, 1.3f, 0.005f);
    printf("pile: deepest overlap %.2f mm\n", 1e3 * (double)worst);
    TEST_ENSURE(worst < 0.01f);
    spx_world_destroy(w);
    spx_hull_destroy(round);
    spx_hull_destroy(cube);
    return 0;
}

/* A hull shot at 100 m/s (1.7 m a step) does not pass a 0.1 m box wall, a mesh sheet, or a 0.1 m
   static hull slab, and the continuous stage is what stops it (its impacts). */
static int fast_hull_stops_at_walls(void)
{
    spx_hull* tetra = tetra_hull();
    spx_hull* round = rounded_hull(0.1f);
    spx_hull* slab = test_hull_box(spx_v3(2, 0.05f, 2));
    spx_mesh* sheet = test_shape_grid_mesh(4, 4);
    TEST_ENSURE(tetra && round && slab && sheet);
    for (int wall = 0; wall < 3; ++wall)
        for (int kind = 0; kind < 2; ++kind) {
            spx_world_def wd = spx_default_world_def();
            wd.gravity = spx_v3(0, 0, 0);
            spx_world* w = test_world_create(&wd);
            TEST_ENSURE(w);
            if (wall == 0) test_add_box(w, SPX_BODY_STATIC, spx_v3(0, 0, 0), spx_v3(2, 0.05f, 2));
            else if (wall == 1)
                TEST_ENSURE(
                    test_body_create(w, test_body_def(SPX_BODY_STATIC, spx_v3(-2, 0, -2)), test_mesh_shape(sheet), NULL)
                        .index);
            else TEST_ENSURE(add_body(w, SPX_BODY_STATIC, spx_v3(0, 0, 0), identity(), test_hull_shape(slab)).index);
            spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0.3f, 3.0f, 0.1f), about(spx_v3(1, 2, 3), 0.7f),
                                     test_hull_shape(kind ? round : tetra));
            TEST_ENSURE(b.index);
            TEST_ENSURE(spx_body_set_velocity(w, b, spx_v3(0, -100.0f, 0), spx_v3(3, 0, 5)) == SPX_OK);
            uint32_t impacts = 0;
            for (int s = 0; s < 30; ++s) {
                TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
                spx_step_stats st;
                TEST_ENSURE(spx_world_get_stats(w, &st) == SPX_OK);
                impacts += st.impact_count;
                const spx_vec3 p = test_body_position(w, b);
                if (!(p.y > 0.0f)) printf("wall %d kind %d: through at step %d (y %.3f)\n", wall, kind, s, (double)p.y);
                TEST_ENSURE(p.y > 0.0f);
            }
            TEST_ENSURE(impacts > 0); /* the continuous stage met the hull, not only the speculative contacts */
            spx_world_destroy(w);
        }
    spx_mesh_destroy(sheet);
    spx_hull_destroy(tetra);
    spx_hull_destroy(round);
    spx_hull_destroy(slab);
    return 0;
}

static bool count_fn(spx_shape_id shape, void* context)
{
    (void)shape;
    ++*(int*)context;
    return true;
}

/* Rays, box casts, overlaps and sensors meet a hull's faces, not its box: a tetrahedron with corners
   at (1,1,1), (1,-1,-1), (-1,1,-1), (-1,-1,1), placed at x = 10 and turned about y by a quarter. */
static int world_queries_see_hulls(void)
{
    const spx_vec3 p[4] = { { 1, 1, 1 }, { 1, -1, -1 }, { -1, 1, -1 }, { -1, -1, 1 } };
    spx_hull* tetra = test_hull_of(p, 4);
    TEST_ENSURE(tetra);
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_shape_def s = test_hull_shape(tetra);
    s.local.p = spx_v3(0, 1, 0); /* the hull 1 m above the body's origin */
    const spx_body_id body = add_body(w, SPX_BODY_STATIC, spx_v3(10, -1, 0), identity(), s);
    TEST_ENSURE(body.index);
    const spx_query_filter f = spx_default_query_filter();
    /* Straight down at (10, 5, 0): the top edge, from (1, 1, 1) to (-1, 1, -1), passes over x = z = 0
       at y = 1, where its two faces (normals (1, 1, -1) and (-1, 1, 1) over sqrt 3) meet. */
    spx_cast_result hit;
    TEST_ENSURE(spx_world_cast_ray_closest(w, spx_v3(10, 5, 0), spx_v3(0, -10, 0), &f, &hit) == SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT && hit.body.index == body.index);
    TEST_ENSURE_NEAR(hit.fraction, 0.4f, 1e-5f);
    TEST_ENSURE_NEAR(hit.normal.y, 1.0f / sqrtf(3.0f), 1e-5f);
    /* Along (1, 1, 1) through the box's empty corner (0.9, -0.9, 0.9) off the hull's centre: the
       tetrahedron's shadow that way is a triangle, the box's a hexagon; a miss. */
    TEST_ENSURE(spx_world_cast_ray_closest(w, spx_v3(5.9f, -5.9f, -4.1f), spx_v3(10, 10, 10), &f, &hit) == SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    /* From inside. */
    TEST_ENSURE(spx_world_cast_ray_closest(w, spx_v3(10, 0, 0), spx_v3(0, -10, 0), &f, &hit) == SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_START_OVERLAP && hit.fraction == 0.0f);
    /* Points: the centre is inside, the box's empty corner is not. */
    int count = 0;
    TEST_ENSURE(spx_world_overlap_point(w, spx_v3(10, 0, 0), &f, count_fn, &count) == SPX_OK && count == 1);
    count = 0;
    TEST_ENSURE(spx_world_overlap_point(w, spx_v3(10.9f, -0.9f, 0.9f), &f, count_fn, &count) == SPX_OK && count == 0);
    /* A small box in that corner does not overlap; one at the centre does. */
    spx_obb box;
    TEST_ENSURE(spx_obb_from_quat(spx_v3(10.9f, -0.9f, 0.9f), spx_v3(0.05f, 0.05f, 0.05f), identity(), &box) == SPX_OK);
    count = 0;
    TEST_ENSURE(spx_world_overlap_box(w, &box, &f, count_fn, &count) == SPX_OK && count == 0);
    TEST_ENSURE(spx_obb_from_quat(spx_v3(10, 0, 0), spx_v3(0.05f, 0.05f, 0.05f), identity(), &box) == SPX_OK);
    count = 0;
    TEST_ENSURE(spx_world_overlap_box(w, &box, &f, count_fn, &count) == SPX_OK && count == 1);
    /* A box cast down onto the top edge: stops with its bottom face at y = 1 (fraction (4.9 - 1) / 10). */
    TEST_ENSURE(spx_obb_from_quat(spx_v3(10, 5, 0), spx_v3(0.1f, 0.1f, 0.1f), about(spx_v3(0, 1, 0), 0.785398163f),
                                  &box) == SPX_OK);
    TEST_ENSURE(spx_world_cast_box_closest(w, &box, spx_v3(0, -10, 0), &f, &hit) == SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT && hit.body.index == body.index);
    TEST_ENSURE_NEAR(hit.fraction, 0.39f, 1e-4f);
    TEST_ENSURE(hit.normal.y > 0.5f); /* back at the caster */
    spx_world_destroy(w);
    spx_hull_destroy(tetra);
    return 0;
}

/* A hull sensor reports a ball that enters its faces, not one inside its box alone. */
static int hull_sensor(void)
{
    const spx_vec3 p[4] = { { 1, 1, 1 }, { 1, -1, -1 }, { -1, 1, -1 }, { -1, -1, 1 } };
    spx_hull* tetra = test_hull_of(p, 4);
    TEST_ENSURE(tetra);
    spx_world_def wd = spx_default_world_def();
    wd.gravity = spx_v3(0, 0, 0);
    spx_world* w = test_world_create(&wd);
    TEST_ENSURE(w);
    spx_shape_def s = test_hull_shape(tetra);
    s.is_sensor = true;
    TEST_ENSURE(add_body(w, SPX_BODY_STATIC, spx_v3(0, 0, 0), identity(), s).index);
    spx_shape_def ball = spx_default_shape_def();
    ball.type = SPX_SHAPE_SPHERE;
    ball.radius = 0.05f;
    TEST_ENSURE(add_body(w, SPX_BODY_DYNAMIC, spx_v3(0.9f, -0.9f, 0.9f), identity(), ball).index);
    const spx_body_id inside = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0.1f, 0, 0), identity(), ball);
    TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
    const spx_sensor_event* begin = NULL;
    uint32_t n = 0;
    TEST_ENSURE(spx_world_get_sensor_events(w, &begin, &n, NULL, NULL) == SPX_OK);
    TEST_ENSURE(n == 1);
    TEST_ENSURE(begin[0].visitor_body.index == inside.index);
    spx_world_destroy(w);
    spx_hull_destroy(tetra);
    return 0;
}

typedef struct draw_count {
    int segments, hulls;
    const spx_hull* hull;
    spx_transform pose;
} draw_count;

static void on_segment(spx_vec3 a, spx_vec3 b, uint32_t color, void* context)
{
    (void)a, (void)b, (void)color;
    ++((draw_count*)context)->segments;
}

static void on_hull(const spx_hull* hull, const spx_transform* pose, const spx_debug_shape* shape, void* context)
{
    (void)shape;
    draw_count* c = context;
    ++c->hulls, c->hull = hull, c->pose = *pose;
}

/* Debug draw: a hull shape is given whole to draw_hull at its frame's pose, or, without it, as its
   edges to draw_segment (a tetrahedron's 6). */
static int hull_debug_draw(void)
{
    spx_hull* tetra = tetra_hull();
    TEST_ENSURE(tetra);
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_shape_def s = test_hull_shape(tetra);
    s.local.p = spx_v3(0, 1, 0);
    TEST_ENSURE(add_body(w, SPX_BODY_STATIC, spx_v3(2, 0, 0), identity(), s).index);
    spx_debug_draw d = spx_default_debug_draw();
    draw_count count = { 0 };
    d.context = &count;
    d.draw_segment = on_segment;
    TEST_ENSURE(spx_world_draw(w, &d) == SPX_OK);
    TEST_ENSURE(count.segments == 6 && count.hulls == 0);
    d.draw_hull = on_hull;
    memset(&count, 0, sizeof count);
    TEST_ENSURE(spx_world_draw(w, &d) == SPX_OK);
    TEST_ENSURE(count.segments == 0 && count.hulls == 1 && count.hull == tetra);
    TEST_ENSURE_NEAR3(count.pose.p, 2.0f, 1.0f, 0.0f, 1e-6f);
    spx_world_destroy(w);
    spx_hull_destroy(tetra);
    return 0;
}

/* Bad hull shapes give their codes and make no body. */
static int bad_hull_shapes(void)
{
    spx_hull* cube = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(cube);
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_result r;
    spx_shape_def s = test_hull_shape(NULL);
    TEST_ENSURE(test_body_create(w, test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0)), s, &r).index == 0);
    TEST_ENSURE_CODE(r, SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(test_body_create(w, test_body_def(SPX_BODY_STATIC, spx_v3(0, 0, 0)), s, &r).index == 0);
    TEST_ENSURE_CODE(r, SPX_ERR_INVALID_ARGUMENT);
    s = test_hull_shape(cube);
    s.density = 0.0f;
    TEST_ENSURE(test_body_create(w, test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0)), s, &r).index == 0);
    TEST_ENSURE_CODE(r, SPX_ERR_BAD_DENSITY);
    s = test_hull_shape(cube);
    s.density = 1e30f; /* a 1 m^3 hull of 1e30 kg */
    TEST_ENSURE(test_body_create(w, test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0)), s, &r).index == 0);
    TEST_ENSURE_CODE(r, SPX_ERR_MASS_OUT_OF_RANGE);
    s = test_hull_shape(cube);
    s.local.p = spx_v3(SPX_MAX_COORDINATE, 0, 0); /* in range itself, its corners beyond */
    TEST_ENSURE(test_body_create(w, test_body_def(SPX_BODY_STATIC, spx_v3(0, 0, 0)), s, &r).index == 0);
    TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_RANGE);
    s = test_hull_shape(cube);
    s.local.q = (spx_quat){ 0, 0, 0, 2 };
    TEST_ENSURE(test_body_create(w, test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0)), s, &r).index == 0);
    TEST_ENSURE_CODE(r, SPX_ERR_NOT_ORTHONORMAL);
    /* A good one after them all; its mass is the cube's. */
    s = test_hull_shape(cube);
    const spx_body_id b = test_body_create(w, test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0)), s, &r);
    TEST_ENSURE_CODE(r, SPX_OK);
    float m = 0.0f;
    TEST_ENSURE(spx_body_get_mass(w, b, &m) == SPX_OK);
    TEST_ENSURE_NEAR(m, 1000.0f, 1e-2f);
    spx_world_destroy(w);
    spx_hull_destroy(cube);
    return 0;
}

/* The rotation matrix of a unit quaternion (columns: the turned axes). */
static spx_mat3 matrix_of(spx_quat q)
{
    const float x = q.x, y = q.y, z = q.z, w = q.w;
    spx_mat3 m;
    m.col[0] = spx_v3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w));
    m.col[1] = spx_v3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w));
    m.col[2] = spx_v3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y));
    return m;
}

/* The 16-point stone of scenes/hulls.json. */
static spx_hull* stone_hull(void)
{
    const spx_vec3 p[16] = {
        { 0.35f, 0.0f, 0.0f },     { -0.32f, 0.02f, 0.05f },  { 0.02f, 0.2f, 0.0f },   { 0.0f, -0.18f, 0.03f },
        { 0.05f, 0.0f, 0.28f },    { 0.0f, 0.03f, -0.26f },   { 0.22f, 0.12f, 0.15f }, { -0.2f, 0.11f, 0.14f },
        { 0.21f, -0.1f, 0.16f },   { -0.22f, -0.1f, 0.13f },  { 0.2f, 0.12f, -0.15f }, { -0.21f, 0.1f, -0.16f },
        { 0.22f, -0.11f, -0.14f }, { -0.2f, -0.12f, -0.15f }, { 0.0f, 0.0f, 0.0f },    { 0.1f, 0.05f, 0.05f },
    };
    return test_hull_of(p, 16);
}

/* Two layers of stones turned at random (16 draws), the upper dropped onto the lower: at every step
   the deepest stone-on-stone overlap by spx_penetration_hull_hull stays under 1.5 cm. A stone landing
   edge across edge turns about that one point onto a face, which must be in the manifold before it
   lands. */
static int stone_layers_land_shallow(void)
{
    spx_hull* stone = stone_hull();
    TEST_ENSURE(stone);
    float worst = 0.0f;
    int worst_step = -1;
    for (uint64_t seed = 1; seed <= 16; ++seed) {
        spx_world* w = test_world_create(NULL);
        TEST_ENSURE(w);
        test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(8, 0.5f, 8));
        enum { COUNT = 18 };
        spx_body_id bodies[COUNT];
        uint64_t state = 0x9E3779B97F4A7C15ull * seed;
        for (int i = 0; i < COUNT; ++i) {
            const int layer = i / 9, x = i % 3, z = (i / 3) % 3;
            const float off = layer ? 0.25f : 0.0f; /* the upper layer lands across the lower's gaps and tops */
            const spx_vec3 p = spx_v3(0.7f * (float)x + off, 0.3f + 0.9f * (float)layer, 0.7f * (float)z + off);
            bodies[i] = add_body(w, SPX_BODY_DYNAMIC, p, test_scene_random_rotation(&state), test_hull_shape(stone));
            TEST_ENSURE(bodies[i].index);
        }
        for (int s = 0; s < 150; ++s) {
            TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
            spx_placed_hull placed[COUNT];
            for (int i = 0; i < COUNT; ++i) {
                spx_transform t;
                TEST_ENSURE(spx_body_get_transform(w, bodies[i], &t) == SPX_OK);
                placed[i] = (spx_placed_hull){ stone, t.p, matrix_of(t.q) };
            }
            for (int i = 0; i < COUNT; ++i)
                for (int j = i + 1; j < COUNT; ++j) {
                    spx_penetration pen;
                    if (spx_penetration_hull_hull(&placed[i], &placed[j], &pen) != SPX_OK || !pen.overlapping) continue;
                    if (pen.depth > worst) worst = pen.depth, worst_step = s;
                }
        }
        spx_world_destroy(w);
    }
    printf("stone on stone: deepest overlap %.2f mm (step %d)\n", 1e3 * (double)worst, worst_step);
    TEST_ENSURE(worst < 0.015f);
    spx_hull_destroy(stone);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(bad_hull_shapes, failures);
    TEST_RUN(world_queries_see_hulls, failures);
    TEST_RUN(hull_sensor, failures);
    TEST_RUN(hull_debug_draw, failures);
    TEST_RUN(hull_cube_is_a_box, failures);
    TEST_RUN(hulls_settle_on_grounds, failures);
    TEST_RUN(hulls_carry_other_shapes, failures);
    TEST_RUN(fast_hull_stops_at_walls, failures);
    TEST_RUN(stone_layers_land_shallow, failures);
    return failures ? 1 : 0;
}
