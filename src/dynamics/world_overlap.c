/* Overlap queries: tree leaves first, then each shape by bounds (aabb) or exactly (box, point). */
#include "query_index.h"
#include "shape_hull.h"
#include "collide/sat_hull.h"
#include "collide/ray.h"
#include "geometry/validate.h"
#include <math.h>

typedef enum overlap_kind { BY_BOUNDS, BY_BOX, BY_POINT } overlap_kind;

typedef struct overlap {
    spx_world* world;
    const spx_query_filter* filter;
    overlap_kind kind;
    spx_aabb bounds;
    const spx_obb* box;
    spx_vec3 point;
    spx_overlap_result_fn* fn;
    void* context;
} overlap;

static bool aabb_touch(const spx_aabb* a, const spx_aabb* b) { return spx_aabb_overlap(a, b); }

static bool mesh_holds(const spx_body_shape* s, spx_vec3 p)
{
    spx_transform pose;
    bool inside = false;
    if (spx_mesh_instance_get_pose(s->instance, &pose) != SPX_OK) return false;
    return spx_mesh_contains_point(s->mesh, &pose, p, &inside) == SPX_OK && inside;
}

static bool shape_overlaps(const overlap* q, const spx_body* b, const spx_body_shape* s)
{
    spx_aabb bounds;
    if (!spx_query_shape_bounds(b, s, &bounds)) return false;
    if (q->kind == BY_BOUNDS) return aabb_touch(&bounds, &q->bounds);
    for (int k = 0; k < 3; ++k) { /* only a first cut before the exact tests: grown past rounding */
        const float pad = 1e-5f * (bounds.max[k] - bounds.min[k] + fabsf(bounds.min[k]) + fabsf(bounds.max[k]));
        bounds.min[k] -= pad, bounds.max[k] += pad;
    }
    if (!aabb_touch(&bounds, &q->bounds)) return false;
    if (spx_shape_is_round(s)) {
        /* A point is a sphere of radius 0. */
        const spx_placed_shape p = { s, spx_body_shape_box(b, s), 0.0f };
        const spx_sphere ball = spx_placed_sphere(&p), dot = { q->point, 0.0f };
        const spx_capsule cap = spx_placed_capsule(&p);
        const bool sphere = s->type == SPX_SHAPE_SPHERE;
        bool in = false;
        spx_result r;
        if (q->kind == BY_POINT)
            r = sphere ? spx_overlap_sphere_sphere(&dot, &ball, &in) : spx_overlap_sphere_capsule(&dot, &cap, &in);
        else r = sphere ? spx_overlap_sphere_obb(&ball, q->box, &in) : spx_overlap_capsule_obb(&cap, q->box, &in);
        return r == SPX_OK && in;
    }
    if (spx_shape_is_hull(s)) {
        /* A point is a sphere of radius 0. */
        const spx_placed_shape p = { s, spx_body_shape_box(b, s), 0.0f };
        const spx_placed_hull h = spx_placed_shape_hull(&p);
        const spx_sphere dot = { q->point, 0.0f };
        bool in = false;
        const spx_result r =
            q->kind == BY_POINT ? spx_overlap_sphere_hull(&dot, &h, &in) : spx_overlap_hull_obb(&h, q->box, &in);
        return r == SPX_OK && in;
    }
    if (s->type == SPX_SHAPE_BOX) {
        const spx_obb other = spx_body_shape_box(b, s);
        bool in = false;
        if (q->kind == BY_POINT) return spx_obb_contains_point(&other, q->point, &in) == SPX_OK && in;
        return spx_overlap_obb_obb(q->box, &other, &in) == SPX_OK && in;
    }
    if (!spx_body_pose_mesh(b, s)) return false;
    if (q->kind == BY_POINT) return mesh_holds(s, q->point);
    bool hit = false;
    if (spx_overlap_obb_mesh(q->box, s->instance, &hit) != SPX_OK) return false;
    return hit || mesh_holds(s, q->box->center);
}

static bool visit(void* context, uint32_t proxy, uint32_t slot)
{
    (void)proxy;
    overlap* q = context;
    const spx_body* b = spx_query_body(q->world, slot);
    if (!b) return true;
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        if (!spx_query_filter_accepts(q->world, q->filter, slot, i)) continue;
        if (shape_overlaps(q, b, &b->shapes[i]) && !q->fn(spx_world_shape_id(q->world, slot, i), q->context))
            return false;
    }
    return true;
}

static spx_result run(overlap* q)
{
    if (q->world->locked) return SPX_ERR_WORLD_LOCKED;
    struct spx_query_index* index;
    spx_result r = spx_query_index_sync(q->world, &index);
    if (r != SPX_OK) return r;
    q->world->locked = true; /* the callbacks may not change the world, nor query it again */
    spx_tree_query(&index->tree, 0, &q->bounds, visit, q);
    q->world->locked = false;
    return SPX_OK;
}

SPX_API spx_result spx_world_overlap_aabb(spx_world* w, spx_vec3 lower, spx_vec3 upper, const spx_query_filter* filter,
                                          spx_overlap_result_fn* fn, void* context)
{
    if (!w || !fn) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(lower) || !spx_finite3(upper)) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(lower) || !spx_in_range3(upper)) return SPX_ERR_OUT_OF_RANGE;
    if (lower.x > upper.x || lower.y > upper.y || lower.z > upper.z) return SPX_ERR_INVALID_ARGUMENT;
    overlap q = { w,    filter, BY_BOUNDS, { { lower.x, lower.y, lower.z }, { upper.x, upper.y, upper.z } },
                  NULL, lower,  fn,        context };
    return run(&q);
}

SPX_API spx_result spx_world_overlap_box(spx_world* w, const spx_obb* box, const spx_query_filter* filter,
                                         spx_overlap_result_fn* fn, void* context)
{
    if (!w || !box || !fn) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_obb_validate(box);
    if (r != SPX_OK) return r;
    overlap q = { w, filter, BY_BOX, { { 0, 0, 0 }, { 0, 0, 0 } }, box, box->center, fn, context };
    const float* h = &box->half_extents.x;
    for (int k = 0; k < 3; ++k) {
        float e = 0.0f;
        for (int i = 0; i < 3; ++i) e += h[i] * fabsf((&box->rotation.col[i].x)[k]);
        const float c = (&box->center.x)[k];
        e = e * (1.0f + 1e-5f) + 1e-5f * fabsf(c); /* past rounding: the exact tests decide */
        q.bounds.min[k] = c - e, q.bounds.max[k] = c + e;
    }
    return run(&q);
}

SPX_API spx_result spx_world_overlap_point(spx_world* w, spx_vec3 point, const spx_query_filter* filter,
                                           spx_overlap_result_fn* fn, void* context)
{
    if (!w || !fn) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(point)) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(point)) return SPX_ERR_OUT_OF_RANGE;
    overlap q = { w,    filter, BY_POINT, { { point.x, point.y, point.z }, { point.x, point.y, point.z } },
                  NULL, point,  fn,       context };
    return run(&q);
}
