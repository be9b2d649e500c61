/* Rays on plain data (a box, a triangle, a placed mesh, points in them) and the world's queries (ray
 * and box casts, overlaps) over a small world of fuzzed static boxes and a mesh. Properties: every
 * code one the documentation names; every answer finite with a unit normal and its fraction within
 * the ray; a mesh's first triangle no later than any triangle of it met alone, and met whenever one
 * is; the closest cast the least of all the shapes a cast reports, the any-cast hitting exactly when
 * the closest does. */
#include "fuzz.h"

enum { MAX_BOXES = 4 };

static bool query_code(spx_result r)
{
    return fuzz_input_code(r) || r == SPX_ERR_INDEX_OUT_OF_RANGE || r == SPX_ERR_EMPTY_MESH;
}

static void check_ray(const spx_ray_hit* h, float max_fraction)
{
    FUZZ_CHECK(h->state == SPX_SWEEP_MISS || h->state == SPX_SWEEP_HIT || h->state == SPX_SWEEP_START_OVERLAP);
    if (h->state == SPX_SWEEP_MISS) return;
    FUZZ_CHECK(isfinite(h->fraction) && h->fraction >= 0.0f && h->fraction <= max_fraction);
    FUZZ_CHECK(fuzz_finite3(h->point) && fuzz_finite3(h->normal) && fuzz_unit(h->normal));
    if (h->state == SPX_SWEEP_START_OVERLAP) FUZZ_CHECK(h->fraction == 0.0f);
}

static void check_cast(const spx_cast_result* c)
{
    FUZZ_CHECK(c->state == SPX_SWEEP_HIT || c->state == SPX_SWEEP_START_OVERLAP);
    FUZZ_CHECK(isfinite(c->fraction) && c->fraction >= 0.0f && c->fraction <= 1.0f);
    FUZZ_CHECK(fuzz_finite3(c->point) && fuzz_finite3(c->normal) && fuzz_unit(c->normal));
    FUZZ_CHECK(isfinite(c->depth) && c->depth >= 0.0f);
}

typedef struct all_casts {
    uint32_t count;
    float least;
} all_casts;

static float collect(const spx_cast_result* result, void* context)
{
    all_casts* all = context;
    check_cast(result);
    ++all->count;
    if (result->fraction < all->least) all->least = result->fraction;
    return 1.0f;
}

static bool count_overlap(spx_shape_id shape, void* context)
{
    (void)shape;
    ++*(uint32_t*)context;
    return true;
}

static spx_mesh* make_mesh(fuzz_input* in, spx_vec3* vertices, uint32_t* indices, uint32_t* triangle_count)
{
    const uint32_t vertex_count = 3 + fuzz_next_byte(in) % 6;
    *triangle_count = 1 + fuzz_next_byte(in) % 6;
    for (uint32_t i = 0; i < vertex_count; ++i) vertices[i] = fuzz_vec3(in);
    for (uint32_t i = 0; i < 3 * *triangle_count; ++i) indices[i] = fuzz_next_byte(in) % vertex_count;
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = vertices;
    def.vertex_count = vertex_count;
    def.indices = indices;
    def.triangle_count = *triangle_count;
    spx_mesh* mesh = NULL;
    const spx_result r = spx_mesh_create(&def, &mesh);
    FUZZ_CHECK(r == SPX_OK || query_code(r));
    return mesh;
}

/* Rays on plain data. */
static void plain_rays(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_obb* box,
                       const spx_mesh* mesh, const spx_vec3* vertices, const uint32_t* indices, uint32_t triangles)
{
    spx_ray_hit hit;
    spx_result r = spx_ray_obb(origin, translation, max_fraction, box, &hit);
    FUZZ_CHECK(r == SPX_OK || query_code(r));
    if (r == SPX_OK) check_ray(&hit, max_fraction);
    bool inside;
    r = spx_obb_contains_point(box, origin, &inside);
    FUZZ_CHECK(r == SPX_OK || query_code(r));
    if (!mesh) return;

    /* The mesh at the identity against its triangles one by one, as numbered in the def. */
    const spx_transform identity = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
    spx_ray_hit mesh_hit;
    const spx_result rm = spx_ray_mesh(origin, translation, max_fraction, mesh, &identity, &mesh_hit);
    FUZZ_CHECK(rm == SPX_OK || query_code(rm));
    r = spx_mesh_contains_point(mesh, &identity, origin, &inside);
    FUZZ_CHECK(r == SPX_OK || query_code(r));
    if (rm != SPX_OK) return;
    check_ray(&mesh_hit, max_fraction);
    float least = INFINITY;
    for (uint32_t t = 0; t < triangles; ++t) {
        spx_triangle tri = { { vertices[indices[3 * t]], vertices[indices[3 * t + 1]], vertices[indices[3 * t + 2]] } };
        spx_ray_hit h;
        r = spx_ray_triangle(origin, translation, max_fraction, &tri, &h);
        FUZZ_CHECK(r == SPX_OK || query_code(r));
        if (r != SPX_OK) continue;
        check_ray(&h, max_fraction);
        if (h.state != SPX_SWEEP_MISS && h.fraction < least) least = h.fraction;
    }
    if (isfinite(least)) {
        FUZZ_CHECK(mesh_hit.state != SPX_SWEEP_MISS);
        FUZZ_CHECK(mesh_hit.fraction <= least);
    }
}

/* The world's queries over static boxes and the mesh. */
static void world_queries(fuzz_input* in, const spx_mesh* mesh, spx_vec3 origin, spx_vec3 translation)
{
    spx_world_def wdef = spx_default_world_def();
    spx_world* world = NULL;
    FUZZ_CHECK(spx_world_create(&wdef, &world) == SPX_OK);
    const uint32_t boxes = 1 + fuzz_next_byte(in) % MAX_BOXES;
    for (uint32_t k = 0; k <= boxes; ++k) {
        spx_shape_def shape = spx_default_shape_def();
        if (k == boxes) {
            if (!mesh) break;
            shape.type = SPX_SHAPE_MESH;
            shape.mesh = mesh;
        } else {
            shape.half_extents = fuzz_vec3(in);
        }
        spx_body_def body = spx_default_body_def();
        body.position = fuzz_vec3(in);
        body.rotation = fuzz_quat(in);
        body.shapes = &shape;
        body.shape_count = 1;
        spx_body_id id;
        const spx_result r = spx_body_create(world, &body, &id);
        FUZZ_CHECK(r == SPX_OK || query_code(r) || r == SPX_ERR_MASS_OUT_OF_RANGE);
    }

    spx_cast_result closest, any;
    const spx_result rc = spx_world_cast_ray_closest(world, origin, translation, NULL, &closest);
    FUZZ_CHECK(rc == SPX_OK || query_code(rc));
    if (rc == SPX_OK) {
        all_casts all = { 0, INFINITY };
        FUZZ_CHECK(spx_world_cast_ray(world, origin, translation, NULL, collect, &all) == SPX_OK);
        FUZZ_CHECK(spx_world_cast_ray_any(world, origin, translation, NULL, &any) == SPX_OK);
        FUZZ_CHECK((closest.state == SPX_SWEEP_MISS) == (all.count == 0));
        FUZZ_CHECK((any.state == SPX_SWEEP_MISS) == (all.count == 0));
        if (all.count) {
            check_cast(&closest);
            check_cast(&any);
            FUZZ_CHECK(closest.fraction == all.least);
        }
    }

    const spx_obb cast_box = fuzz_obb(in);
    const spx_vec3 cast_by = fuzz_vec3(in);
    const spx_result rb = spx_world_cast_box_closest(world, &cast_box, cast_by, NULL, &closest);
    FUZZ_CHECK(rb == SPX_OK || query_code(rb));
    if (rb == SPX_OK && closest.state != SPX_SWEEP_MISS) check_cast(&closest);

    uint32_t found = 0;
    spx_result ro = spx_world_overlap_box(world, &cast_box, NULL, count_overlap, &found);
    FUZZ_CHECK(ro == SPX_OK || query_code(ro));
    ro = spx_world_overlap_point(world, origin, NULL, count_overlap, &found);
    FUZZ_CHECK(ro == SPX_OK || query_code(ro));
    spx_vec3 upper =
        spx_v3(origin.x + fabsf(translation.x), origin.y + fabsf(translation.y), origin.z + fabsf(translation.z));
    ro = spx_world_overlap_aabb(world, origin, upper, NULL, count_overlap, &found);
    FUZZ_CHECK(ro == SPX_OK || query_code(ro));
    spx_world_destroy(world);
}

int fuzz_query(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    const spx_vec3 origin = fuzz_vec3(&in), translation = fuzz_vec3(&in);
    const float max_fraction = (fuzz_next_byte(&in) & 3) ? 1.0f : fuzz_float(&in);
    const spx_obb box = fuzz_obb(&in);
    spx_vec3 vertices[8];
    uint32_t indices[18], triangles = 0;
    spx_mesh* mesh = make_mesh(&in, vertices, indices, &triangles);
    plain_rays(origin, translation, max_fraction, &box, mesh, vertices, indices, triangles);
    world_queries(&in, mesh, origin, translation);
    spx_mesh_destroy(mesh);
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_query)
