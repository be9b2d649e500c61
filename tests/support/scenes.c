/* Standard world scenes (see scenes.h). */
#include "scenes.h"
#include <math.h>
#include <string.h>

/* A fixed xorshift generator: the same orientations on every machine. */
static uint64_t next_random(uint64_t* s)
{
    uint64_t x = *s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *s = x;
}

static float uniform(uint64_t* s) { return (float)((next_random(s) >> 40) * (1.0 / 16777216.0)); }

/* A uniformly random rotation (Shoemake's method). */
static spx_quat random_rotation(uint64_t* s)
{
    float u1 = uniform(s), u2 = uniform(s) * 6.2831853f, u3 = uniform(s) * 6.2831853f;
    float a = sqrtf(1.0f - u1), b = sqrtf(u1);
    spx_quat q = { a * sinf(u2), a * cosf(u2), b * sinf(u3), b * cosf(u3) };
    return q;
}

/* What both scenes share. */
static void common_layout(spx_scene_layout* l)
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

void spx_scene_falling_layout(spx_scene_layout* out)
{
    memset(out, 0, sizeof *out);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 10; ++i)
            for (int k = 0; k < 10; ++k) {
                spx_transform* t = &out->start[out->count++];
                t->p = spx_v3(((float)i - 4.5f) * 1.5f, 2.0f + 1.5f * (float)j, ((float)k - 4.5f) * 1.5f);
                t->q = random_rotation(&seed);
            }
    out->box_friction = 0.5f;
    out->sleep = true;
    out->steps = 300;
    common_layout(out);
}

void spx_scene_pyramid_layout(spx_scene_layout* out, float pitch)
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

static spx_result build(spx_scene* scene, const spx_world_def* def, const spx_scene_layout* l)
{
    memset(scene, 0, sizeof *scene);
    spx_world_def wd = def ? *def : spx_default_world_def();
    if (!l->sleep) wd.enable_sleep = false;
    if (wd.body_capacity < 1100) wd.body_capacity = 1100;
    spx_result r = spx_world_create(&wd, &scene->world);
    if (r != SPX_OK) return r;
    spx_shape_def gs = spx_default_shape_def();
    gs.half_extents = l->ground_half_extents;
    spx_body_def gd = spx_default_body_def();
    gd.position = l->ground_center;
    gd.shapes = &gs;
    gd.shape_count = 1;
    gd.friction = l->ground_friction;
    gd.restitution = l->restitution;
    r = spx_body_create(scene->world, &gd, &scene->ground);

    spx_shape_def bs = spx_default_shape_def();
    bs.half_extents = l->box_half_extents;
    bs.density = l->box_mass / (8.0f * bs.half_extents.x * bs.half_extents.y * bs.half_extents.z);
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.friction = l->box_friction;
    bd.restitution = l->restitution;
    bd.shapes = &bs;
    bd.shape_count = 1;
    for (uint32_t i = 0; i < l->count && r == SPX_OK; ++i) {
        bd.position = l->start[i].p;
        bd.rotation = l->start[i].q;
        r = spx_body_create(scene->world, &bd, &scene->bodies[scene->count++]);
    }
    scene->dt = l->dt;
    scene->steps = l->steps;
    return r;
}

spx_result spx_scene_falling(spx_scene* scene, const spx_world_def* def)
{
    spx_scene_layout l;
    spx_scene_falling_layout(&l);
    return build(scene, def, &l);
}

spx_result spx_scene_pyramid(spx_scene* scene, float pitch, const spx_world_def* def)
{
    spx_scene_layout l;
    spx_scene_pyramid_layout(&l, pitch);
    return build(scene, def, &l);
}

void spx_scene_measure_state(const spx_transform* poses, const spx_vec3* v, const spx_vec3* w, uint32_t count,
                             spx_scene_quality* out)
{
    memset(out, 0, sizeof *out);
    const spx_vec3 h = spx_v3(0.5f, 0.5f, 0.5f);
    spx_obb boxes[SPX_SCENE_MAX_BODIES];
    if (count > SPX_SCENE_MAX_BODIES) count = SPX_SCENE_MAX_BODIES;
    for (uint32_t i = 0; i < count; ++i) {
        const spx_transform* t = &poses[i];
        spx_obb_from_quat(t->p, h, t->q, &boxes[i]);
        spx_vec3 corners[8];
        spx_obb_corners(&boxes[i], corners);
        for (int k = 0; k < 8; ++k)
            if (-corners[k].y > out->ground_penetration) out->ground_penetration = -corners[k].y;
        if (t->p.y < 0.0f) ++out->fallen;
        if (v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z > 0.0025f
            || w[i].x * w[i].x + w[i].y * w[i].y + w[i].z * w[i].z > 0.0025f)
            ++out->moving;
    }
    /* Pairs close enough to touch: centres within the boxes' diameters. */
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t j = i + 1; j < count; ++j) {
            float dx = boxes[i].center.x - boxes[j].center.x, dy = boxes[i].center.y - boxes[j].center.y,
                  dz = boxes[i].center.z - boxes[j].center.z;
            if (dx * dx + dy * dy + dz * dz > 3.0f) continue;
            spx_penetration pen;
            if (spx_penetration_obb_obb(&boxes[i], &boxes[j], &pen) == SPX_OK && pen.overlapping
                && pen.depth > out->box_overlap)
                out->box_overlap = pen.depth;
        }
}

void spx_scene_measure(const spx_scene* scene, spx_scene_quality* out)
{
    spx_transform poses[SPX_SCENE_MAX_BODIES];
    spx_vec3 v[SPX_SCENE_MAX_BODIES], w[SPX_SCENE_MAX_BODIES];
    for (uint32_t i = 0; i < scene->count; ++i) {
        spx_body_get_transform(scene->world, scene->bodies[i], &poses[i]);
        spx_body_get_velocity(scene->world, scene->bodies[i], &v[i], &w[i]);
    }
    spx_scene_measure_state(poses, v, w, scene->count, out);
}

void spx_scene_destroy(spx_scene* scene)
{
    spx_world_destroy(scene->world);
    memset(scene, 0, sizeof *scene);
}
