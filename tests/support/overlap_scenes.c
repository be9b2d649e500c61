#include "support/overlap_scenes.h"
#include "support/shapes.h"
#include <math.h>
#include <string.h>

#define TERRAIN_CELLS 24

static float terrain_height(float x, float z)
{
    return 0.3f * sinf(0.9f * x) * cosf(0.7f * z) + 0.1f * sinf(2.1f * x + 1.3f * z);
}

static spx_result make_world(test_box_scene* out, const spx_world_def* def, float dt, uint32_t steps)
{
    memset(out, 0, sizeof *out);
    spx_world_def wd = def ? *def : spx_default_world_def();
    spx_result r = spx_world_create(&wd, &out->scene.world);
    out->scene.dt = dt;
    out->scene.steps = steps;
    return r;
}

static spx_result add_boxes_ground(test_box_scene* out)
{
    return test_ground_box(out->scene.world, spx_v3(50.0f, 1.0f, 50.0f), 0.5f, &out->scene.ground);
}

static spx_result add_box(test_box_scene* out, spx_vec3 p, spx_quat q, spx_vec3 v, spx_vec3 w)
{
    if (out->scene.count >= TEST_SCENE_MAX_BODIES) return SPX_ERR_INVALID_ARGUMENT;
    spx_shape_def bs = spx_default_shape_def();
    bs.half_extents = out->half_extents;
    bs.density = 1.0f / (8.0f * bs.half_extents.x * bs.half_extents.y * bs.half_extents.z);
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.friction = 0.5f;
    bd.position = p;
    bd.rotation = q;
    bd.linear_velocity = v;
    bd.angular_velocity = w;
    bd.shapes = &bs;
    bd.shape_count = 1;
    return spx_body_create(out->scene.world, &bd, &out->scene.bodies[out->scene.count++]);
}

spx_result test_scene_terrain(test_box_scene* out, const spx_world_def* def)
{
    spx_result r = make_world(out, def, 1.0f / 60.0f, 600);
    if (r != SPX_OK) return r;
    out->half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    test_shape grid;
    if (!test_shape_grid(&grid, TERRAIN_CELLS, TERRAIN_CELLS)) return SPX_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < grid.vertex_count; ++i) {
        spx_vec3* v = &grid.vertices[i];
        v->x -= 0.5f * TERRAIN_CELLS, v->z -= 0.5f * TERRAIN_CELLS;
        v->y = terrain_height(v->x, v->z);
    }
    spx_mesh* mesh = test_shape_mesh(&grid);
    test_shape_free(&grid);
    if (!mesh) return SPX_ERR_OUT_OF_MEMORY;
    out->scene.meshes[out->scene.mesh_count++] = mesh;
    out->terrain = mesh;
    spx_shape_def gs = spx_default_shape_def();
    gs.type = SPX_SHAPE_MESH;
    gs.mesh = mesh;
    spx_body_def gd = spx_default_body_def();
    gd.shapes = &gs;
    gd.shape_count = 1;
    gd.friction = 0.5f;
    r = spx_body_create(out->scene.world, &gd, &out->scene.ground);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    const spx_vec3 zero = spx_v3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < 4 && r == SPX_OK; ++j)
        for (int i = 0; i < 4 && r == SPX_OK; ++i)
            for (int k = 0; k < 4 && r == SPX_OK; ++k) {
                spx_vec3 p = spx_v3(((float)i - 1.5f) * 2.0f, 2.0f + 2.0f * (float)j, ((float)k - 1.5f) * 2.0f);
                spx_quat q = test_scene_random_rotation(&seed);
                r = add_box(out, p, q, zero, zero);
            }
    return r;
}

spx_result test_scene_dominoes(test_box_scene* out, const spx_world_def* def, float spacing, float spin)
{
    spx_result r = make_world(out, def, 1.0f / 60.0f, 300);
    if (r == SPX_OK) r = add_boxes_ground(out);
    out->half_extents = spx_v3(0.05f, 0.5f, 0.25f);
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    for (int i = 0; i < 20 && r == SPX_OK; ++i) {
        /* Turning about the bottom edge: the centre, 0.5 m above it, moves at spin x 0.5. */
        spx_vec3 v = spx_v3(i == 0 ? 0.5f * spin : 0.0f, 0.0f, 0.0f);
        spx_vec3 w = spx_v3(0.0f, 0.0f, i == 0 ? -spin : 0.0f);
        r = add_box(out, spx_v3(spacing * (float)i, 0.5f, 0.0f), identity, v, w);
    }
    return r;
}

void test_box_scene_measure(const test_box_scene* s, float* box_overlap, float* ground_penetration)
{
    *box_overlap = 0.0f, *ground_penetration = 0.0f;
    static spx_obb boxes[TEST_SCENE_MAX_BODIES];
    const uint32_t n = s->scene.count;
    const spx_vec3 h = s->half_extents;
    const float reach2 = 4.0f * (h.x * h.x + h.y * h.y + h.z * h.z);
    spx_mesh_instance* terrain = NULL;
    if (s->terrain) {
        spx_mesh_instance_def def = spx_default_mesh_instance_def();
        def.mesh = s->terrain;
        if (spx_mesh_instance_create(&def, &terrain) != SPX_OK) terrain = NULL;
    }
    for (uint32_t i = 0; i < n; ++i) {
        spx_transform t;
        spx_body_get_transform(s->scene.world, s->scene.bodies[i], &t);
        spx_obb_from_quat(t.p, h, t.q, &boxes[i]);
        if (terrain) {
            spx_mesh_hit hit;
            if (spx_penetration_obb_mesh(&boxes[i], terrain, NULL, 0, &hit) == SPX_OK &&
                hit.state == SPX_SWEEP_START_OVERLAP && hit.first.depth > *ground_penetration)
                *ground_penetration = hit.first.depth;
        } else {
            spx_vec3 corners[8];
            spx_obb_get_corners(&boxes[i], corners);
            for (int k = 0; k < 8; ++k)
                if (-corners[k].y > *ground_penetration) *ground_penetration = -corners[k].y;
        }
    }
    spx_mesh_instance_destroy(terrain);
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = i + 1; j < n; ++j) {
            float dx = boxes[i].center.x - boxes[j].center.x, dy = boxes[i].center.y - boxes[j].center.y,
                  dz = boxes[i].center.z - boxes[j].center.z;
            if (dx * dx + dy * dy + dz * dz > reach2) continue;
            spx_penetration pen;
            if (spx_penetration_obb_obb(&boxes[i], &boxes[j], &pen) == SPX_OK && pen.overlapping &&
                pen.depth > *box_overlap)
                *box_overlap = pen.depth;
        }
}

void test_box_scene_destroy(test_box_scene* s) { test_scene_destroy(&s->scene); }
