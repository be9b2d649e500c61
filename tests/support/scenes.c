/* Standard world scenes (see scenes.h). */
#include "scenes.h"
#include "shapes.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A fixed xorshift generator: the same orientations on every machine. */
static uint64_t next_random(uint64_t* s)
{
    uint64_t x = *s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *s = x;
}

static float uniform(uint64_t* s) { return (float)((next_random(s) >> 40) * (1.0 / 16777216.0)); }

spx_quat test_scene_random_rotation(uint64_t* s)
{
    float u1 = uniform(s), u2 = uniform(s) * 6.2831853f, u3 = uniform(s) * 6.2831853f;
    float a = sqrtf(1.0f - u1), b = sqrtf(u1);
    spx_quat q = { a * sinf(u2), a * cosf(u2), b * sinf(u3), b * cosf(u3) };
    return q;
}

/* What both scenes share. */
static void common_layout(test_scene_layout* l)
{
    l->box_half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    l->box_mass = 1.0f;
    l->ground_friction = 0.6f;
    l->restitution = 0.0f;
    l->ground_center = spx_v3(0.0f, -1.0f, 0.0f);
    l->ground_half_extents = spx_v3(50.0f, 1.0f, 50.0f);
    l->gravity = spx_default_world_def().gravity;
    l->dt = 1.0f / 60.0f;
}

/* A layout with no boxes yet: the common ground, box and world, run for `steps` steps. */
static void blank_layout(test_scene_layout* l, uint32_t steps)
{
    memset(l, 0, sizeof *l);
    common_layout(l);
    l->steps = steps;
}

void test_scene_falling_layout(test_scene_layout* out)
{
    test_scene_falling_layout_seeded(out, TEST_SCENE_FALLING_SEED);
}

void test_scene_falling_layout_seeded(test_scene_layout* out, uint64_t seed)
{
    memset(out, 0, sizeof *out);
    if (seed == 0) seed = TEST_SCENE_FALLING_SEED; /* xorshift's one stuck state */
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 10; ++i)
            for (int k = 0; k < 10; ++k) {
                spx_transform* t = &out->start[out->count++];
                t->p = spx_v3(((float)i - 4.5f) * 1.5f, 2.0f + 1.5f * (float)j, ((float)k - 4.5f) * 1.5f);
                t->q = test_scene_random_rotation(&seed);
            }
    out->box_friction = 0.5f;
    out->sleep = true;
    out->steps = 300;
    common_layout(out);
}

void test_scene_pyramid_layout(test_scene_layout* out, float pitch)
{
    memset(out, 0, sizeof *out);
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    for (int row = 0; row < 20; ++row) {
        int n = 20 - row;
        for (int i = 0; i < n; ++i) {
            spx_transform* t = &out->start[out->count++];
            t->p = spx_v3(((float)i - (float)(n - 1) * 0.5f) * pitch, 0.5f + (float)row, 0.0f);
            t->q = identity;
        }
    }
    out->box_friction = 0.6f;
    out->sleep = false;
    out->steps = 600;
    common_layout(out);
}

void test_scene_falling_mesh_layout(test_scene_layout* out)
{
    test_scene_falling_layout(out);
    out->mesh_ground = true;
}

const float test_paper_speeds[TEST_PAPER_SPEED_COUNT] = { 10.0f, 100.0f, 1000.0f, 10000.0f };

void test_scene_paper_layout(test_scene_layout* out, float speed, int phase)
{
    memset(out, 0, sizeof *out);
    out->dt = 1.0f / 60.0f;
    out->count = 1;
    out->box_half_extents = spx_v3(0.05f, 0.05f, 0.05f);
    out->start[0].p = spx_v3(-5.0f - 0.05f - speed * out->dt * (float)phase / (float)TEST_PAPER_PHASES, 0.0f, 0.0f);
    out->start[0].q = (spx_quat){ 0.0f, 0.0f, 0.0f, 1.0f };
    out->start_velocity = spx_v3(speed, 0.0f, 0.0f);
    out->box_mass = 1.0f; /* density 1,000 */
    out->box_friction = out->ground_friction = 0.6f;
    out->ground_center = spx_v3(0.005f, 0.0f, 0.0f);
    out->ground_half_extents = spx_v3(0.005f, 1.0f, 1.0f);
    out->steps = (uint32_t)(5.2f / (speed * out->dt)) + 30;
}

void test_scene_paper_measure(const test_scene_layout* l, spx_transform cube, spx_vec3 velocity, test_paper_state* out)
{
    spx_obb o;
    (void)spx_obb_from_quat(cube.p, l->box_half_extents, cube.q, &o);
    /* The turned cube's half width along x: its shadow on the wall's normal. */
    float r = 0.0f, h[3] = { o.half_extents.x, o.half_extents.y, o.half_extents.z };
    for (int i = 0; i < 3; ++i) r += h[i] * fabsf(o.rotation.col[i].x);
    const float near = l->ground_center.x - l->ground_half_extents.x,
                far = l->ground_center.x + l->ground_half_extents.x;
    const float into = fminf(cube.p.x + r - near, far - (cube.p.x - r));
    out->penetration = into > 0.0f ? into : 0.0f;
    out->beyond = cube.p.x > far;
    out->rebound = velocity.x < 0.0f ? -velocity.x / l->start_velocity.x : 0.0f;
}

/* A generated shape into a mesh the scene owns. */
static spx_result own_mesh(test_scene* scene, test_shape* shape, spx_mesh** out)
{
    spx_result r = SPX_ERR_OUT_OF_MEMORY;
    if (shape->vertices && scene->mesh_count < TEST_SCENE_MAX_MESHES) {
        spx_mesh_def md = test_shape_mesh_def(shape, spx_default_mesh_def().leaf_triangles);
        r = spx_mesh_create(&md, out);
        if (r == SPX_OK) scene->meshes[scene->mesh_count++] = *out;
    }
    test_shape_free(shape);
    return r;
}

/* The static ground: the layout's box, or a 100x100-quad grid of 1 m quads with its top at y = 0. */
static spx_result make_ground(test_scene* scene, const test_scene_layout* l)
{
    spx_shape_def gs = spx_default_shape_def();
    gs.half_extents = l->ground_half_extents;
    spx_body_def gd = spx_default_body_def();
    gd.position = l->ground_center;
    if (l->mesh_ground) {
        test_shape grid;
        memset(&grid, 0, sizeof grid);
        test_shape_grid(&grid, 100, 100);
        spx_mesh* mesh = NULL;
        spx_result r = own_mesh(scene, &grid, &mesh);
        if (r != SPX_OK) return r;
        gs.type = SPX_SHAPE_MESH;
        gs.mesh = mesh;
        gd.position = spx_v3(-50.0f, 0.0f, -50.0f);
    }
    gd.shapes = &gs;
    gd.shape_count = 1;
    gd.friction = l->ground_friction;
    gd.restitution = l->restitution;
    return spx_body_create(scene->world, &gd, &scene->ground);
}

static spx_result make_world(test_scene* scene, const spx_world_def* def, const test_scene_layout* l)
{
    memset(scene, 0, sizeof *scene);
    spx_world_def wd = def ? *def : spx_default_world_def();
    if (!l->sleep) wd.enable_sleep = false;
    if (wd.body_capacity < 1100) wd.body_capacity = 1100;
    spx_result r = spx_world_create(&wd, &scene->world);
    if (r != SPX_OK) return r;
    scene->dt = l->dt;
    scene->steps = l->steps;
    return make_ground(scene, l);
}

static spx_result build(test_scene* scene, const spx_world_def* def, const test_scene_layout* l)
{
    spx_result r = make_world(scene, def, l);
    if (r != SPX_OK) return r;
    spx_shape_def bs = spx_default_shape_def();
    bs.half_extents = l->box_half_extents;
    bs.density = l->box_mass / (8.0f * bs.half_extents.x * bs.half_extents.y * bs.half_extents.z);
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.friction = l->box_friction;
    bd.restitution = l->restitution;
    bd.linear_velocity = l->start_velocity;
    bd.shapes = &bs;
    bd.shape_count = 1;
    for (uint32_t i = 0; i < l->count && r == SPX_OK; ++i) {
        bd.position = l->start[i].p;
        bd.rotation = l->start[i].q;
        r = spx_body_create(scene->world, &bd, &scene->bodies[scene->count++]);
    }
    return r;
}

spx_result test_scene_falling(test_scene* scene, const spx_world_def* def)
{
    test_scene_layout l;
    test_scene_falling_layout(&l);
    return build(scene, def, &l);
}

spx_result test_scene_pyramid(test_scene* scene, float pitch, const spx_world_def* def)
{
    test_scene_layout l;
    test_scene_pyramid_layout(&l, pitch);
    return build(scene, def, &l);
}

spx_result test_scene_paper(test_scene* scene, float speed, int phase, const spx_world_def* def)
{
    test_scene_layout l;
    test_scene_paper_layout(&l, speed, phase);
    spx_world_def wd = def ? *def : spx_default_world_def();
    wd.gravity = l.gravity;
    return build(scene, &wd, &l);
}

spx_result test_scene_from_layout(test_scene* scene, const spx_world_def* def, const test_scene_layout* layout)
{
    return build(scene, def, layout);
}

spx_result test_scene_falling_mesh(test_scene* scene, const spx_world_def* def)
{
    test_scene_layout l;
    test_scene_falling_mesh_layout(&l);
    return build(scene, def, &l);
}

const float test_struck_speeds[TEST_STRUCK_SPEED_COUNT] = { 100.0f, 500.0f, 2000.0f };

spx_result test_scene_struck_stack(test_scene* scene, const spx_world_def* def)
{
    test_scene_layout l;
    blank_layout(&l, TEST_STRUCK_STEPS);
    l.box_friction = 0.6f;
    l.ground_center = spx_v3(0.0f, -0.5f, 0.0f);
    l.ground_half_extents = spx_v3(1000.0f, 0.5f, 1000.0f);
    l.sleep = true;
    l.count = 5;
    for (uint32_t i = 0; i < l.count; ++i)
        l.start[i] = (spx_transform){ { 0.0f, 0.5f + (float)i, 0.0f }, { 0, 0, 0, 1 } };
    spx_result r = build(scene, def, &l);
    for (int k = 0; k < TEST_STRUCK_SETTLE_STEPS && r == SPX_OK; ++k) r = spx_world_step(scene->world, scene->dt);
    return r;
}

spx_result test_scene_struck_stack_fire(test_scene* scene, float speed, int target, int phase)
{
    if (scene->count >= TEST_SCENE_MAX_BODIES) return SPX_ERR_INVALID_ARGUMENT;
    spx_shape_def bs = spx_default_shape_def();
    bs.half_extents = spx_v3(0.025f, 0.025f, 0.025f);
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.position = spx_v3(-12.504f - speed * scene->dt * (float)phase / (float)TEST_PAPER_PHASES,
                         0.5f * (float)(target + 1), 0.0f);
    bd.linear_velocity = spx_v3(speed, 0.0f, 0.0f);
    bd.friction = 0.6f;
    bd.shapes = &bs;
    bd.shape_count = 1;
    return spx_body_create(scene->world, &bd, &scene->bodies[scene->count++]);
}

void test_scene_struck_stack_measure(const test_scene* scene, test_struck_state* out)
{
    spx_obb boxes[TEST_SCENE_MAX_BODIES + 1];
    const uint32_t n = scene->count < TEST_SCENE_MAX_BODIES ? scene->count : TEST_SCENE_MAX_BODIES;
    const float g = -spx_default_world_def().gravity.y;
    out->overlap = 0.0f;
    out->pair[0] = out->pair[1] = 0;
    spx_world_get_kinetic_energy(scene->world, &out->energy);
    for (uint32_t i = 0; i < n; ++i) {
        spx_transform t;
        float m = 0.0f;
        spx_body_get_transform(scene->world, scene->bodies[i], &t);
        spx_body_get_mass(scene->world, scene->bodies[i], &m);
        out->energy += (double)m * g * t.p.y;
        spx_obb_from_quat(t.p, i < 5 ? spx_v3(0.5f, 0.5f, 0.5f) : spx_v3(0.025f, 0.025f, 0.025f), t.q, &boxes[i]);
    }
    spx_obb_from_quat(spx_v3(0.0f, -0.5f, 0.0f), spx_v3(1000.0f, 0.5f, 1000.0f), (spx_quat){ 0, 0, 0, 1 }, &boxes[n]);
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = i + 1; j <= n; ++j) {
            spx_penetration pen;
            if (spx_penetration_obb_obb(&boxes[i], &boxes[j], &pen) == SPX_OK && pen.overlapping &&
                pen.depth > out->overlap)
                out->overlap = pen.depth, out->pair[0] = i, out->pair[1] = j;
        }
}

/* One unit box of mass 1 at a pose, bodies[0]. */
static spx_result add_unit_box(test_scene* scene, spx_vec3 p, spx_quat q, float friction, float restitution)
{
    spx_shape_def bs = spx_default_shape_def();
    bs.density = 1.0f;
    spx_body_def bd = test_body_def(SPX_BODY_DYNAMIC, p);
    bd.rotation = q;
    bd.friction = friction;
    bd.restitution = restitution;
    spx_result r;
    scene->bodies[scene->count++] = test_body_create(scene->world, bd, bs, &r);
    return r;
}

spx_result test_scene_slope(test_scene* scene, float theta, float mu, const spx_world_def* def)
{
    test_scene_layout l;
    blank_layout(&l, 90);
    l.ground_friction = mu;
    /* The incline is the ground turned about z; the box sits on its top face, turned with it. */
    spx_quat q = { 0.0f, 0.0f, sinf(theta * 0.5f), cosf(theta * 0.5f) };
    l.ground_center = spx_v3(0.0f, 0.0f, 0.0f);
    l.ground_half_extents = spx_v3(50.0f, 1.0f, 5.0f);
    spx_result r = make_world(scene, def, &l);
    if (r != SPX_OK) return r;
    spx_transform t = { { 0, 0, 0 }, q };
    r = spx_body_set_transform(scene->world, scene->ground, &t);
    spx_vec3 n = spx_v3(-sinf(theta), cosf(theta), 0.0f);
    if (r == SPX_OK) r = add_unit_box(scene, spx_v3(1.5f * n.x, 1.5f * n.y, 0.0f), q, mu, 0.0f);
    return r;
}

spx_result test_scene_bounce(test_scene* scene, float height, float e, const spx_world_def* def)
{
    test_scene_layout l;
    blank_layout(&l, 240);
    l.ground_friction = 0.5f;
    l.restitution = e;
    spx_result r = make_world(scene, def, &l);
    if (r != SPX_OK) return r;
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    return add_unit_box(scene, spx_v3(0.0f, 0.5f + height, 0.0f), identity, 0.5f, e);
}

spx_result test_scene_mesh_pile(test_scene* scene, const spx_world_def* def)
{
    test_scene_layout l;
    test_scene_falling_mesh_layout(&l);
    l.steps = 600;
    spx_result r = make_world(scene, def, &l);
    if (r != SPX_OK) return r;
    test_shape torus, ball;
    memset(&torus, 0, sizeof torus);
    memset(&ball, 0, sizeof ball);
    test_shape_torus(&torus, 0.45f, 0.15f, 24, 12);
    test_shape_solid_sphere(&ball, 0.45f, 10, 20);
    spx_mesh *torus_mesh = NULL, *ball_mesh = NULL;
    r = own_mesh(scene, &torus, &torus_mesh);
    spx_result r2 = own_mesh(scene, &ball, &ball_mesh);
    if (r != SPX_OK) return r;
    if (r2 != SPX_OK) return r2;
    spx_shape_def shape = spx_default_shape_def();
    shape.type = SPX_SHAPE_MESH;
    shape.density = 500.0f;
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.friction = 0.5f;
    bd.shapes = &shape;
    bd.shape_count = 1;
    uint64_t seed = 0xD1B54A32D192ED03ull;
    for (int j = 0; j < 4 && r == SPX_OK; ++j)
        for (int i = 0; i < 4 && r == SPX_OK; ++i)
            for (int k = 0; k < 4 && r == SPX_OK; ++k) {
                const spx_mesh* mesh = (i + j + k) % 2 ? ball_mesh : torus_mesh;
                shape.mesh = mesh;
                bd.position = spx_v3(((float)i - 1.5f) * 1.3f, 1.0f + 1.3f * (float)j, ((float)k - 1.5f) * 1.3f);
                bd.rotation = test_scene_random_rotation(&seed);
                scene->body_mesh[scene->count] = mesh;
                r = spx_body_create(scene->world, &bd, &scene->bodies[scene->count++]);
            }
    return r;
}

void test_scene_measure_state(const spx_transform* poses, const spx_vec3* v, const spx_vec3* w, uint32_t count,
                              test_scene_quality* out)
{
    memset(out, 0, sizeof *out);
    const spx_vec3 h = spx_v3(0.5f, 0.5f, 0.5f);
    spx_obb boxes[TEST_SCENE_MAX_BODIES];
    if (count > TEST_SCENE_MAX_BODIES) count = TEST_SCENE_MAX_BODIES;
    for (uint32_t i = 0; i < count; ++i) {
        const spx_transform* t = &poses[i];
        spx_obb_from_quat(t->p, h, t->q, &boxes[i]);
        spx_vec3 corners[8];
        spx_obb_get_corners(&boxes[i], corners);
        for (int k = 0; k < 8; ++k)
            if (-corners[k].y > out->ground_penetration) out->ground_penetration = -corners[k].y;
        if (t->p.y < 0.0f) ++out->fallen;
        if (v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z > 0.0025f ||
            w[i].x * w[i].x + w[i].y * w[i].y + w[i].z * w[i].z > 0.0025f)
            ++out->moving;
    }
    /* Pairs close enough to touch: centres within the boxes' diameters. */
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t j = i + 1; j < count; ++j) {
            float dx = boxes[i].center.x - boxes[j].center.x, dy = boxes[i].center.y - boxes[j].center.y,
                  dz = boxes[i].center.z - boxes[j].center.z;
            if (dx * dx + dy * dy + dz * dz > 3.0f) continue;
            spx_penetration pen;
            if (spx_penetration_obb_obb(&boxes[i], &boxes[j], &pen) == SPX_OK && pen.overlapping &&
                pen.depth > out->box_overlap)
                out->box_overlap = pen.depth;
        }
}

void test_scene_measure(const test_scene* scene, test_scene_quality* out)
{
    spx_transform poses[TEST_SCENE_MAX_BODIES];
    spx_vec3 v[TEST_SCENE_MAX_BODIES], w[TEST_SCENE_MAX_BODIES];
    for (uint32_t i = 0; i < scene->count; ++i) {
        spx_body_get_transform(scene->world, scene->bodies[i], &poses[i]);
        spx_body_get_velocity(scene->world, scene->bodies[i], &v[i], &w[i]);
    }
    test_scene_measure_state(poses, v, w, scene->count, out);
}

/* Radius of the sphere about the mesh's origin holding it (the scenes' meshes are centred). */
static float mesh_radius(const spx_mesh* mesh)
{
    spx_mesh_info info;
    spx_mesh_get_info(mesh, &info);
    float r2 = 0.0f;
    for (uint32_t t = 0; t < info.triangle_count; ++t) {
        spx_triangle tri;
        spx_mesh_get_triangle(mesh, t, &tri, NULL);
        for (int k = 0; k < 3; ++k) {
            float d2 = tri.v[k].x * tri.v[k].x + tri.v[k].y * tri.v[k].y + tri.v[k].z * tri.v[k].z;
            if (d2 > r2) r2 = d2;
        }
    }
    return sqrtf(r2);
}

void test_scene_measure_meshes(const test_scene* scene, test_scene_quality* out)
{
    memset(out, 0, sizeof *out);
    uint32_t n = scene->count;
    spx_mesh_instance** inst = calloc(n ? n : 1, sizeof *inst);
    spx_transform* pose = calloc(n ? n : 1, sizeof *pose);
    float* radius = calloc(n ? n : 1, sizeof *radius);
    if (!inst || !pose || !radius) goto done;
    for (uint32_t i = 0; i < n; ++i) {
        spx_vec3 v, w;
        spx_body_get_transform(scene->world, scene->bodies[i], &pose[i]);
        spx_body_get_velocity(scene->world, scene->bodies[i], &v, &w);
        if (pose[i].p.y < 0.0f) ++out->fallen;
        if (v.x * v.x + v.y * v.y + v.z * v.z > 0.0025f || w.x * w.x + w.y * w.y + w.z * w.z > 0.0025f) ++out->moving;
        if (!scene->body_mesh[i]) continue;
        spx_mesh_instance_def def = spx_default_mesh_instance_def();
        def.mesh = scene->body_mesh[i], def.pose = pose[i];
        if (spx_mesh_instance_create(&def, &inst[i]) != SPX_OK) continue;
        radius[i] = mesh_radius(scene->body_mesh[i]);
        spx_mesh_info info;
        spx_mesh_get_info(scene->body_mesh[i], &info);
        for (uint32_t t = 0; t < info.triangle_count; ++t) {
            spx_triangle tri;
            spx_mesh_instance_get_triangle(inst[i], t, &tri, NULL);
            for (int k = 0; k < 3; ++k)
                if (-tri.v[k].y > out->ground_penetration) out->ground_penetration = -tri.v[k].y;
        }
    }
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = i + 1; j < n; ++j) {
            if (!inst[i] || !inst[j]) continue;
            float dx = pose[i].p.x - pose[j].p.x, dy = pose[i].p.y - pose[j].p.y, dz = pose[i].p.z - pose[j].p.z;
            float reach = radius[i] + radius[j];
            if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
            spx_mesh_hit hit;
            /* The deepest triangle pair's own depth: hit.depth is how far B must move along the pairs'
               averaged normal, which for two tori touching in two places is no overlap of either. */
            if (spx_penetration_mesh_mesh(inst[i], inst[j], NULL, 0, &hit) == SPX_OK &&
                hit.state == SPX_SWEEP_START_OVERLAP && hit.first.depth > out->box_overlap)
                out->box_overlap = hit.first.depth;
        }
done:
    for (uint32_t i = 0; inst && i < n; ++i) spx_mesh_instance_destroy(inst[i]);
    free(inst);
    free(pose);
    free(radius);
}

void test_scene_destroy(test_scene* scene)
{
    spx_world_destroy(scene->world);
    for (uint32_t i = 0; i < scene->mesh_count; ++i) spx_mesh_destroy(scene->meshes[i]);
    memset(scene, 0, sizeof *scene);
}

uint64_t test_scene_bodies_hash(const spx_world* world, const spx_body_id* ids, uint32_t count)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < count; ++i) {
        spx_transform t;
        spx_vec3 v, w;
        spx_body_get_transform(world, ids[i], &t);
        spx_body_get_velocity(world, ids[i], &v, &w);
        const float f[13] = { t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w, v.x, v.y, v.z, w.x, w.y, w.z };
        const unsigned char* bytes = (const unsigned char*)f;
        for (size_t k = 0; k < sizeof f; ++k) h = (h ^ bytes[k]) * 1099511628211ull;
    }
    return h;
}

spx_world* test_world_create(const spx_world_def* def)
{
    spx_world_def d = def ? *def : spx_default_world_def();
    spx_world* w = NULL;
    return spx_world_create(&d, &w) == SPX_OK ? w : NULL;
}

spx_body_def test_body_def(spx_body_type type, spx_vec3 position)
{
    spx_body_def d = spx_default_body_def();
    d.type = type;
    d.position = position;
    return d;
}

spx_body_def test_undamped_body_def(spx_body_type type, spx_vec3 position, spx_quat rotation, float friction,
                                    float restitution)
{
    spx_body_def d = test_body_def(type, position);
    d.rotation = rotation;
    d.friction = friction;
    d.restitution = restitution;
    d.angular_damping = 0.0f;
    return d;
}

spx_shape_def test_box_shape(spx_vec3 half_extents)
{
    spx_shape_def s = spx_default_shape_def();
    s.half_extents = half_extents;
    return s;
}

spx_shape_def test_mesh_shape(const spx_mesh* mesh)
{
    spx_shape_def s = spx_default_shape_def();
    s.type = SPX_SHAPE_MESH;
    s.mesh = mesh;
    return s;
}

spx_shape_def test_hull_shape(const spx_hull* hull)
{
    spx_shape_def s = spx_default_shape_def();
    s.type = SPX_SHAPE_HULL;
    s.hull = hull;
    return s;
}

spx_body_id test_body_create(spx_world* w, spx_body_def d, spx_shape_def s, spx_result* out_result)
{
    return test_body_create_shapes(w, d, &s, 1, out_result);
}

spx_result test_body_try(spx_world* w, spx_body_def d, spx_shape_def s, spx_body_id* out_id)
{
    spx_result r;
    const spx_body_id id = test_body_create(w, d, s, &r);
    if (out_id) *out_id = id;
    return r;
}

spx_body_id test_body_create_shapes(spx_world* w, spx_body_def d, const spx_shape_def* shapes, uint32_t count,
                                    spx_result* out_result)
{
    d.shapes = shapes;
    d.shape_count = count;
    spx_body_id id = { 0 };
    const spx_result r = spx_body_create(w, &d, &id);
    if (out_result) *out_result = r;
    return id;
}

spx_body_id test_add_box(spx_world* w, spx_body_type type, spx_vec3 position, spx_vec3 half_extents)
{
    return test_body_create(w, test_body_def(type, position), test_box_shape(half_extents), NULL);
}

spx_vec3 test_body_position(const spx_world* w, spx_body_id id)
{
    spx_transform t;
    return spx_body_get_transform(w, id, &t) == SPX_OK ? t.p : spx_v3(0.0f, 0.0f, 0.0f);
}

float test_deepest_overlap(const spx_world* w, const spx_body_id* bodies, int count)
{
    float deepest = 0.0f;
    spx_contact_data cs[64];
    for (int i = 0; i < count; ++i) {
        uint32_t n = 0;
        if (spx_body_get_contacts(w, bodies[i], cs, 64, &n) != SPX_OK) return INFINITY;
        for (uint32_t k = 0; k < n && k < 64; ++k)
            for (uint32_t p = 0; p < cs[k].point_count; ++p) deepest = fmaxf(deepest, -cs[k].points[p].separation);
    }
    return deepest;
}

spx_result test_ground_box(spx_world* world, spx_vec3 half_extents, float friction, spx_body_id* out)
{
    spx_shape_def gs = spx_default_shape_def();
    gs.half_extents = half_extents;
    spx_body_def gd = spx_default_body_def();
    gd.position = spx_v3(0.0f, -half_extents.y, 0.0f);
    gd.shapes = &gs;
    gd.shape_count = 1;
    gd.friction = friction;
    return spx_body_create(world, &gd, out);
}
