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

static spx_result make_world(spx_scene* scene, const spx_world_def* def)
{
    memset(scene, 0, sizeof *scene);
    spx_world_def wd = def ? *def : spx_default_world_def();
    if (wd.body_capacity < 1100) wd.body_capacity = 1100;
    spx_result r = spx_world_create(&wd, &scene->world);
    if (r != SPX_OK) return r;
    spx_shape_def gs = spx_default_shape_def();
    gs.half_extents = spx_v3(50.0f, 1.0f, 50.0f);
    spx_body_def gd = spx_default_body_def();
    gd.position = spx_v3(0.0f, -1.0f, 0.0f);
    gd.shapes = &gs;
    gd.shape_count = 1;
    gd.friction = 0.6f;
    return spx_body_create(scene->world, &gd, &scene->ground);
}

static spx_result add_box(spx_scene* scene, spx_vec3 position, spx_quat rotation, float friction)
{
    spx_shape_def bs = spx_default_shape_def();
    bs.half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    bs.density = 1.0f; /* a unit cube of mass 1 */
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.position = position;
    bd.rotation = rotation;
    bd.friction = friction;
    bd.shapes = &bs;
    bd.shape_count = 1;
    return spx_body_create(scene->world, &bd, &scene->bodies[scene->count++]);
}

spx_result spx_scene_falling(spx_scene* scene, const spx_world_def* def)
{
    spx_result r = make_world(scene, def);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int j = 0; j < 10 && r == SPX_OK; ++j)
        for (int i = 0; i < 10 && r == SPX_OK; ++i)
            for (int k = 0; k < 10 && r == SPX_OK; ++k) {
                spx_vec3 p = spx_v3(((float)i - 4.5f) * 1.5f, 2.0f + 1.5f * (float)j, ((float)k - 4.5f) * 1.5f);
                r = add_box(scene, p, random_rotation(&seed), 0.5f);
            }
    scene->dt = 1.0f / 60.0f;
    scene->steps = 300;
    return r;
}

spx_result spx_scene_pyramid(spx_scene* scene, float pitch, const spx_world_def* def)
{
    spx_world_def wd = def ? *def : spx_default_world_def();
    wd.enable_sleep = false;
    spx_result r = make_world(scene, &wd);
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    for (int row = 0; row < 20 && r == SPX_OK; ++row) {
        int n = 20 - row;
        for (int i = 0; i < n && r == SPX_OK; ++i) {
            spx_vec3 p = spx_v3(((float)i - (float)(n - 1) * 0.5f) * pitch, 0.5f + (float)row, 0.0f);
            r = add_box(scene, p, identity, 0.6f);
        }
    }
    scene->dt = 1.0f / 60.0f;
    scene->steps = 600;
    return r;
}

void spx_scene_measure(const spx_scene* scene, spx_scene_quality* out)
{
    memset(out, 0, sizeof *out);
    const spx_vec3 h = spx_v3(0.5f, 0.5f, 0.5f);
    spx_obb boxes[SPX_SCENE_MAX_BODIES];
    for (uint32_t i = 0; i < scene->count; ++i) {
        spx_transform t;
        spx_body_get_transform(scene->world, scene->bodies[i], &t);
        spx_obb_from_quat(t.p, h, t.q, &boxes[i]);
        spx_vec3 corners[8];
        spx_obb_corners(&boxes[i], corners);
        for (int k = 0; k < 8; ++k)
            if (-corners[k].y > out->ground_penetration) out->ground_penetration = -corners[k].y;
        if (t.p.y < 0.0f) ++out->fallen;
        spx_vec3 v, w;
        spx_body_get_velocity(scene->world, scene->bodies[i], &v, &w);
        if (v.x * v.x + v.y * v.y + v.z * v.z > 0.0025f || w.x * w.x + w.y * w.y + w.z * w.z > 0.0025f)
            ++out->moving;
    }
    /* Pairs close enough to touch: centres within the boxes' diameters. */
    for (uint32_t i = 0; i < scene->count; ++i)
        for (uint32_t j = i + 1; j < scene->count; ++j) {
            float dx = boxes[i].center.x - boxes[j].center.x, dy = boxes[i].center.y - boxes[j].center.y,
                  dz = boxes[i].center.z - boxes[j].center.z;
            if (dx * dx + dy * dy + dz * dz > 3.0f) continue;
            spx_penetration pen;
            if (spx_penetration_obb_obb(&boxes[i], &boxes[j], &pen) == SPX_OK && pen.overlapping
                && pen.depth > out->box_overlap)
                out->box_overlap = pen.depth;
        }
}

void spx_scene_destroy(spx_scene* scene)
{
    spx_world_destroy(scene->world);
    memset(scene, 0, sizeof *scene);
}
