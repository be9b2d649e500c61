/* Ray casts: the query tree's leaves nearer first, each shape by spx_ray_obb or spx_ray_mesh. */
#include "query_index.h"
#include "shape_hull.h"
#include "broad/tree_cast.h"
#include "collide/ray.h"
#include "collide/sat_hull.h"
#include "geometry/validate.h"
#include <float.h>
#include <math.h>

/* Relative root box padding: past placement rounding (~1e-7) and the descent's node padding (1e-5). */
#define ROOT_PAD 4e-5

typedef struct ray_cast {
    spx_world* world;
    const spx_query_filter* filter;
    spx_vec3 origin, translation;
    spx_ray ray; /* made once for every box the ray meets, as spx_ray_obb makes it */
    spx_cast_result_fn* fn;
    void* context;
} ray_cast;

/* A mesh is cast at the pose the world's mesh queries use. */
static bool ray_shape(spx_world* w, uint32_t slot, uint32_t index, const spx_ray* ray, spx_vec3 origin,
                      spx_vec3 translation, float max_fraction, spx_cast_result* out)
{
    const spx_body* b = &w->bodies[slot];
    const spx_body_shape* s = &b->shapes[index];
    spx_ray_hit hit;
    if (spx_shape_is_round(s)) {
        const spx_placed_shape p = { s, spx_body_shape_box(b, s), 0.0f };
        const spx_capsule cap = spx_placed_capsule(&p);
        if (spx_capsule_validate(&cap) != SPX_OK) return false;
        spx_ray_round_hit(origin, translation, max_fraction, cap.p, s->type == SPX_SHAPE_SPHERE ? 1 : 2, cap.radius,
                          &hit);
    } else if (spx_shape_is_hull(s)) {
        const spx_placed_shape p = { s, spx_body_shape_box(b, s), 0.0f };
        const spx_placed_hull h = spx_placed_shape_hull(&p);
        if (spx_hull_check_placed(&h) != SPX_OK) return false;
        spx_ray_hull_hit(ray, &h, max_fraction, &hit);
    } else if (s->type == SPX_SHAPE_BOX) {
        /* What spx_ray_obb does, without checking the ray again for every box, or a box checked when
           it was stored */
        const spx_obb* trusted = spx_body_trusted_box(b, s);
        const spx_obb box = trusted ? *trusted : spx_body_shape_box(b, s);
        if (!trusted && spx_obb_validate(&box) != SPX_OK) return false;
        spx_ray_obb_hit(ray, &box, max_fraction, &hit);
    } else {
        /* Skipped before posing when the ray misses the padded root box. */
        const spx_obb* trusted = spx_body_trusted_box(b, s);
        const spx_obb root = trusted ? *trusted : spx_body_shape_box(b, s);
        double t;
        if (!spx_ray_obb_entry(ray, &root, ROOT_PAD, max_fraction, &t)) return false;
        spx_transform pose;
        if (!spx_body_pose_mesh(b, s) || spx_mesh_instance_get_pose(s->instance, &pose) != SPX_OK) return false;
        spx_ray_mesh_hit(ray->org, ray->dir, max_fraction, s->mesh, &pose, &hit); /* the pose checked when set */
    }
    if (hit.state == SPX_SWEEP_MISS) return false;
    out->body = spx_world_body_id(w, slot);
    out->shape_index = index;
    out->shape = spx_world_shape_id(w, slot, index);
    out->triangle = hit.triangle;
    out->state = hit.state;
    out->fraction = hit.fraction;
    out->point = hit.point;
    out->normal = hit.normal;
    out->depth = 0.0f;
    return true;
}

static double visit(void* context, uint32_t proxy, uint32_t slot, double max_fraction)
{
    (void)proxy;
    ray_cast* c = context;
    const spx_body* b = spx_query_body(c->world, slot);
    if (!b) return max_fraction;
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        if (!spx_query_filter_accepts(c->world, c->filter, slot, i)) continue;
        spx_cast_result r;
        if (!ray_shape(c->world, slot, i, &c->ray, c->origin, c->translation, (float)max_fraction, &r)) continue;
        if (!spx_query_clip(c->fn(&r, c->context), &max_fraction)) return -1.0;
    }
    return max_fraction;
}

SPX_API spx_result spx_world_cast_ray(spx_world* w, spx_vec3 origin, spx_vec3 translation,
                                      const spx_query_filter* filter, spx_cast_result_fn* fn, void* context)
{
    if (!w || !fn) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_ray_check(origin, translation, 1.0f);
    if (r != SPX_OK) return r;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    struct spx_query_index* q;
    if ((r = spx_query_index_sync(w, &q)) != SPX_OK) return r;
    ray_cast c = { .world = w,
                   .filter = filter,
                   .origin = origin,
                   .translation = translation,
                   .ray = spx_ray_from(origin, translation),
                   .fn = fn,
                   .context = context };
    w->locked = true; /* the callbacks may not change the world, nor query it again */
    spx_tree_cast(&q->tree, 0, c.ray.org, c.ray.dir, NULL, 1.0, visit, &c);
    w->locked = false;
    return SPX_OK;
}

static void clear_result(spx_cast_result* out)
{
    memset(out, 0, sizeof *out);
    out->state = SPX_SWEEP_MISS;
    out->triangle = SPX_NO_TRIANGLE;
}

/* Keeps the nearest; never clips to 0, which would stop the cast (starts-inside tie at 0). */
static float keep_closest(const spx_cast_result* r, void* context)
{
    spx_cast_result* best = context;
    if (best->state == SPX_SWEEP_MISS || r->fraction < best->fraction) *best = *r;
    return fmaxf(r->fraction, FLT_MIN);
}

static float keep_any(const spx_cast_result* r, void* context)
{
    *(spx_cast_result*)context = *r;
    return 0.0f;
}

/* The one hit that `keep` keeps of a cast. */
static spx_result cast_ray_one(spx_world* w, spx_vec3 origin, spx_vec3 translation, const spx_query_filter* filter,
                               spx_cast_result_fn* keep, spx_cast_result* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_cast_result kept;
    clear_result(&kept);
    spx_result r = spx_world_cast_ray(w, origin, translation, filter, keep, &kept);
    if (r == SPX_OK) *out = kept;
    return r;
}

SPX_API spx_result spx_world_cast_ray_closest(spx_world* w, spx_vec3 origin, spx_vec3 translation,
                                              const spx_query_filter* filter, spx_cast_result* out)
{
    return cast_ray_one(w, origin, translation, filter, keep_closest, out);
}

SPX_API spx_result spx_world_cast_ray_any(spx_world* w, spx_vec3 origin, spx_vec3 translation,
                                          const spx_query_filter* filter, spx_cast_result* out)
{
    return cast_ray_one(w, origin, translation, filter, keep_any, out);
}
