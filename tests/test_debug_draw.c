/* Debug drawing: a recording table counts every call on a known scene (a ground, a box resting on
   it, a box hanging from a joint, a sensor, a mesh terrain): the counts of each kind, the switches
   honoured, nothing drawn through a NULL function, a mesh's triangles within the drawing bounds
   equal to brute force, bad input refused. */
#include "support/test.h"
#include "support/scenes.h"
#include "support/shapes.h"
#include <sepax/sepax.h>
#include <stdlib.h>

#define CELLS 32 /* the terrain: CELLS x CELLS squares of 1 m, two triangles each */
#define TRIANGLES (2 * CELLS * CELLS)

typedef struct record {
    int boxes, meshes, triangles, segments, points, bounds;
    int sleeping_boxes, sensor_boxes;
    bool seen[TRIANGLES];  /* triangles drawn, by their number in the def */
    uint32_t colors_seen;  /* OR of the point colours */
    spx_vec3 point_at[16]; /* the first points drawn */
} record;

static void on_box(const spx_transform* pose, spx_vec3 h, const spx_debug_shape* s, void* context)
{
    (void)pose, (void)h;
    record* r = context;
    ++r->boxes;
    r->sleeping_boxes += s->color == SPX_COLOR_SLEEPING;
    r->sensor_boxes += s->sensor && s->color == SPX_COLOR_SENSOR;
}

static void on_mesh(const struct spx_mesh* m, const spx_transform* pose, const spx_debug_shape* s, void* context)
{
    (void)m, (void)pose, (void)s;
    ++((record*)context)->meshes;
}

static void on_triangle(const spx_vec3 v[3], uint32_t t, const spx_debug_shape* s, void* context)
{
    (void)v, (void)s;
    record* r = context;
    ++r->triangles;
    if (t < TRIANGLES) r->seen[t] = true;
}

static void on_segment(spx_vec3 a, spx_vec3 b, uint32_t color, void* context)
{
    (void)a, (void)b, (void)color;
    ++((record*)context)->segments;
}

static void on_point(spx_vec3 p, float size, uint32_t color, void* context)
{
    (void)p, (void)size;
    record* r = context;
    if (r->points < 16) r->point_at[r->points] = p;
    ++r->points;
    r->colors_seen |= color;
}

static void on_bounds(spx_vec3 lo, spx_vec3 hi, uint32_t color, void* context)
{
    (void)lo, (void)hi, (void)color;
    ++((record*)context)->bounds;
}

static spx_debug_draw recorder(record* r)
{
    memset(r, 0, sizeof *r);
    spx_debug_draw d = spx_default_debug_draw();
    d.draw_box = on_box, d.draw_mesh = on_mesh, d.draw_triangle = on_triangle;
    d.draw_segment = on_segment, d.draw_point = on_point, d.draw_bounds = on_bounds;
    d.context = r;
    return d;
}

typedef struct scene {
    spx_world* w;
    spx_mesh* terrain;
    spx_body_id ground, resting, hanging, sensor, land, sleeper;
    spx_vec3 terrain_at;
} scene;

static spx_body_id add_box(spx_world* w, spx_body_type type, spx_vec3 at, spx_vec3 half, bool sensor)
{
    spx_shape_def sd = test_box_shape(half);
    sd.is_sensor = sensor;
    return test_body_create(w, test_body_def(type, at), sd, NULL);
}

/* The scene after one step: 6 bodies, 6 shapes (5 boxes and the terrain), one manifold of 4 points
   (the resting box on the ground), one ball joint to the world, one sleeping box. */
static int make_scene(scene* s)
{
    memset(s, 0, sizeof *s);
    spx_world_def wd = spx_default_world_def();
    TEST_ENSURE(spx_world_create(&wd, &s->w) == SPX_OK);
    s->ground = add_box(s->w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(5, 0.5f, 5), false);
    s->resting = add_box(s->w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), false);
    s->hanging = add_box(s->w, SPX_BODY_DYNAMIC, spx_v3(-20, 5, 0), spx_v3(0.25f, 0.25f, 0.25f), false);
    s->sensor = add_box(s->w, SPX_BODY_STATIC, spx_v3(0, 3, -20), spx_v3(1, 1, 1), true);
    s->sleeper = add_box(s->w, SPX_BODY_DYNAMIC, spx_v3(20, 30, 0), spx_v3(0.5f, 0.5f, 0.5f), false);
    TEST_ENSURE(spx_body_set_awake(s->w, s->sleeper, false) == SPX_OK);
    /* A flat terrain of CELLS x CELLS squares, its corner at terrain_at. */
    TEST_ENSURE((s->terrain = test_shape_grid_mesh(CELLS, CELLS)) != NULL);
    s->terrain_at = spx_v3(100, -2, 100);
    spx_result r;
    s->land = test_body_create(s->w, test_body_def(SPX_BODY_STATIC, s->terrain_at), test_mesh_shape(s->terrain), &r);
    TEST_ENSURE(r == SPX_OK);
    spx_joint_def jd = spx_default_joint_def(SPX_JOINT_BALL);
    jd.body_b = s->hanging;
    jd.frame_a.p = spx_v3(-20, 5.25f, 0);
    jd.frame_b.p = spx_v3(0, 0.25f, 0);
    spx_joint_id j;
    TEST_ENSURE(spx_joint_create(s->w, &jd, &j) == SPX_OK);
    TEST_ENSURE(spx_world_step(s->w, 1.0f / 60.0f) == SPX_OK);
    return 0;
}

static void free_scene(scene* s)
{
    spx_world_destroy(s->w);
    spx_mesh_destroy(s->terrain);
}

/* Every kind switched on: the counts worked out from the scene. */
static int counts_of_each_kind(void)
{
    scene s;
    TEST_ENSURE(make_scene(&s) == 0);
    spx_contact_data c[4];
    uint32_t manifolds = 0;
    TEST_ENSURE(spx_body_get_contacts(s.w, s.resting, c, 4, &manifolds) == SPX_OK);
    TEST_ENSURE(manifolds == 1 && c[0].point_count == 4);
    record r;
    spx_debug_draw d = recorder(&r);
    /* Shapes only (the default): 5 boxes and the terrain whole; the sleeper in its colour. */
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes == 5 && r.meshes == 1 && r.triangles == 0);
    TEST_ENSURE(r.segments == 0 && r.points == 0 && r.bounds == 0);
    TEST_ENSURE(r.sleeping_boxes == 1 && r.sensor_boxes == 1);
    /* Without draw_mesh the terrain comes by triangles, every one once. */
    d = recorder(&r);
    d.draw_mesh = NULL;
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes == 5 && r.meshes == 0 && r.triangles == TRIANGLES);
    for (int t = 0; t < TRIANGLES; ++t) TEST_ENSURE(r.seen[t]);
    /* Everything: 6 shape bounds and 6 broad-phase boxes; 4 contact points and their normals; the
       joint: its two anchors, 3 axes at each, the line from B's centre to its anchor and the line
       between the anchors (8 segments); 3 axes a body (18). */
    d = recorder(&r);
    d.draw_shape_bounds = d.draw_broad_phase = d.draw_contacts = d.draw_contact_normals = true;
    d.draw_joints = d.draw_body_frames = true;
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes == 5 && r.meshes == 1);
    TEST_ENSURE(r.bounds == 6 + 6);
    TEST_ENSURE(r.points == 4 + 2);
    TEST_ENSURE(r.segments == 4 + 8 + 18);
    TEST_ENSURE(r.colors_seen & SPX_COLOR_CONTACT_TOUCHING);
    /* Each switch alone. */
    d = recorder(&r);
    d.draw_shapes = false;
    d.draw_contacts = true;
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes == 0 && r.meshes == 0 && r.points == 4 && r.segments == 0 && r.bounds == 0);
    for (int k = 0; k < 4; ++k) /* where spx_body_get_contacts puts them */
        TEST_ENSURE(memcmp(&r.point_at[k], &c[0].points[k].point, sizeof(spx_vec3)) == 0);
    d = recorder(&r);
    d.draw_shapes = false;
    d.draw_joints = true;
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes == 0 && r.points == 2 && r.segments == 8 && r.bounds == 0);
    d = recorder(&r);
    d.draw_shapes = false;
    d.draw_broad_phase = true;
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.bounds == 6 && r.points == 0 && r.segments == 0 && r.boxes == 0);
    free_scene(&s);
    return 0;
}

/* A NULL function draws nothing of its kind, the rest as before; all NULL is no call at all. */
static int null_functions_draw_nothing(void)
{
    scene s;
    TEST_ENSURE(make_scene(&s) == 0);
    record r;
    spx_debug_draw d = recorder(&r);
    d.draw_shape_bounds = d.draw_broad_phase = d.draw_contacts = d.draw_contact_normals = true;
    d.draw_joints = d.draw_body_frames = true;
    d.draw_box = NULL, d.draw_segment = NULL, d.draw_bounds = NULL;
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes == 0 && r.segments == 0 && r.bounds == 0);
    TEST_ENSURE(r.meshes == 1 && r.points == 6);
    d.draw_mesh = NULL, d.draw_triangle = NULL, d.draw_point = NULL;
    memset(&r, 0, sizeof r);
    TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
    TEST_ENSURE(r.boxes + r.meshes + r.triangles + r.segments + r.points + r.bounds == 0);
    free_scene(&s);
    return 0;
}

/* Within drawing bounds, the terrain's triangles drawn are exactly those whose bounds meet them
   (brute force over every triangle), and the shapes and points outside are left out. */
static int bounded_mesh_drawing(void)
{
    scene s;
    TEST_ENSURE(make_scene(&s) == 0);
    const spx_vec3 boxes[3][2] = { { { 103.5f, -3, 104.5f }, { 107.2f, -1, 106.1f } },
                                   { { 131.5f, -2, 131.5f }, { 140, -2, 140 } }, /* the far corner square, flat */
                                   { { 50, -10, 50 }, { 60, 10, 60 } } };        /* nothing */
    for (int k = 0; k < 3; ++k) {
        record r;
        spx_debug_draw d = recorder(&r);
        d.draw_mesh = NULL;
        d.draw_contacts = true;
        d.use_drawing_bounds = true;
        d.drawing_lower = boxes[k][0], d.drawing_upper = boxes[k][1];
        TEST_ENSURE(spx_world_draw(s.w, &d) == SPX_OK);
        int expected = 0;
        for (uint32_t t = 0; t < TRIANGLES; ++t) {
            spx_triangle tri;
            uint32_t source;
            TEST_ENSURE(spx_mesh_get_triangle(s.terrain, t, &tri, &source) == SPX_OK);
            bool meets = true;
            for (int i = 0; i < 3; ++i) {
                float lo = INFINITY, hi = -INFINITY;
                for (int c = 0; c < 3; ++c) {
                    const float x = (&tri.v[c].x)[i] + (&s.terrain_at.x)[i];
                    lo = fminf(lo, x), hi = fmaxf(hi, x);
                }
                meets = meets && lo <= (&boxes[k][1].x)[i] && (&boxes[k][0].x)[i] <= hi;
            }
            expected += meets;
            TEST_ENSURE(r.seen[source] == meets);
        }
        TEST_ENSURE(r.triangles == expected);
        TEST_ENSURE(r.boxes == 0 && r.points == 0);
        if (k == 0) TEST_ENSURE(expected > 0 && expected < TRIANGLES / 20);
        if (k == 1) TEST_ENSURE(expected == 2);
        if (k == 2) TEST_ENSURE(expected == 0);
    }
    free_scene(&s);
    return 0;
}

static bool in_pre_solve;
static spx_result from_pre_solve;
static spx_world* pre_solve_world;

static bool draw_from_pre_solve(const spx_contact_data* c, void* context)
{
    (void)c;
    record* r = context;
    spx_debug_draw d = recorder(r);
    from_pre_solve = spx_world_draw(pre_solve_world, &d);
    in_pre_solve = true;
    return true;
}

static int bad_input(void)
{
    scene s;
    TEST_ENSURE(make_scene(&s) == 0);
    record r;
    spx_debug_draw d = recorder(&r);
    TEST_ENSURE_CODE(spx_world_draw(NULL, &d), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_draw(s.w, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_debug_draw zero;
    memset(&zero, 0, sizeof zero);
    TEST_ENSURE_CODE(spx_world_draw(s.w, &zero), SPX_ERR_UNINITIALIZED_DEF);
    d.use_drawing_bounds = true;
    d.drawing_lower = spx_v3(1, 0, 0), d.drawing_upper = spx_v3(0, 1, 1);
    TEST_ENSURE_CODE(spx_world_draw(s.w, &d), SPX_ERR_INVALID_ARGUMENT);
    d.drawing_lower = spx_v3(NAN, 0, 0);
    TEST_ENSURE_CODE(spx_world_draw(s.w, &d), SPX_ERR_NOT_FINITE);
    d = recorder(&r);
    d.axis_length = -1.0f;
    TEST_ENSURE_CODE(spx_world_draw(s.w, &d), SPX_ERR_INVALID_ARGUMENT);
    d.axis_length = INFINITY;
    TEST_ENSURE_CODE(spx_world_draw(s.w, &d), SPX_ERR_NOT_FINITE);
    TEST_ENSURE(r.boxes + r.meshes + r.triangles + r.segments + r.points + r.bounds == 0);
    free_scene(&s);
    /* From inside a step: locked, nothing drawn. */
    spx_world_def wd = spx_default_world_def();
    wd.pre_solve = draw_from_pre_solve;
    wd.pre_solve_context = &r;
    spx_world* w;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    pre_solve_world = w;
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(5, 0.5f, 5), false);
    add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), false);
    TEST_ENSURE(spx_world_step(w, 1.0f / 60.0f) == SPX_OK);
    TEST_ENSURE(in_pre_solve);
    TEST_ENSURE_CODE(from_pre_solve, SPX_ERR_WORLD_LOCKED);
    TEST_ENSURE(r.boxes == 0);
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(counts_of_each_kind, failures);
    TEST_RUN(null_functions_draw_nothing, failures);
    TEST_RUN(bounded_mesh_drawing, failures);
    TEST_RUN(bad_input, failures);
    return failures ? 1 : 0;
}
