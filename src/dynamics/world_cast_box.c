/* Box casts: the box's bounds swept through the query tree, each shape by the exact sweeps with the
   shape at rest and tmax 1, so time is the fraction. */
#include "query_index.h"
#include "shape_hull.h"
#include "broad/tree_cast.h"
#include "geometry/validate.h"
#include "math/glm_bridge.h"
#include <float.h>
#include <math.h>

typedef struct box_cast {
    spx_world* world;
    const spx_query_filter* filter;
    const spx_obb* box;
    spx_vec3 translation;
    spx_cast_result_fn* fn;
    void* context;
} box_cast;

static bool cast_shape(spx_world* w, uint32_t slot, uint32_t index, const spx_obb* box, spx_vec3 translation,
                       float max_fraction, spx_cast_result* out)
{
    const spx_body* b = &w->bodies[slot];
    const spx_body_shape* s = &b->shapes[index];
    const spx_vec3 still = { 0.0f, 0.0f, 0.0f };
    out->body = spx_world_body_id(w, slot);
    out->shape_index = index;
    out->shape = spx_world_shape_id(w, slot, index);
    if (spx_shape_is_round(s)) {
        /* The round shape is A, still, the box B: the normal from the round surface to the box is the
           cast's, back at the caster. */
        const spx_placed_shape p = { s, spx_body_shape_box(b, s), 0.0f };
        const spx_sphere ball = spx_placed_sphere(&p);
        const spx_capsule cap = spx_placed_capsule(&p);
        spx_sweep_hit hit;
        const spx_result r = s->type == SPX_SHAPE_SPHERE
                                 ? spx_sweep_sphere_obb(&ball, still, box, translation, 1.0f, &hit)
                                 : spx_sweep_capsule_obb(&cap, still, box, translation, 1.0f, &hit);
        if (r != SPX_OK || hit.state == SPX_SWEEP_MISS || hit.time > max_fraction) return false;
        out->triangle = SPX_NO_TRIANGLE;
        out->state = hit.state, out->fraction = hit.time, out->point = hit.point;
        out->normal = hit.normal, out->depth = hit.depth;
        return true;
    }
    if (spx_shape_is_hull(s)) {
        /* The hull is A, still, the box B: the normal runs from the hull to the box, back at the caster. */
        const spx_placed_shape p = { s, spx_body_shape_box(b, s), 0.0f };
        const spx_placed_hull h = spx_placed_shape_hull(&p);
        spx_sweep_hit hit;
        if (spx_sweep_hull_obb(&h, still, box, translation, 1.0f, &hit) != SPX_OK) return false;
        if (hit.state == SPX_SWEEP_MISS || hit.time > max_fraction) return false;
        out->triangle = SPX_NO_TRIANGLE;
        out->state = hit.state, out->fraction = hit.time, out->point = hit.point;
        out->normal = hit.normal, out->depth = hit.depth;
        return true;
    }
    if (s->type == SPX_SHAPE_BOX) {
        const spx_obb other = spx_body_shape_box(b, s);
        spx_sweep_hit hit;
        if (spx_sweep_obb_obb(box, translation, &other, still, 1.0f, &hit) != SPX_OK) return false;
        if (hit.state == SPX_SWEEP_MISS || hit.time > max_fraction) return false;
        out->triangle = SPX_NO_TRIANGLE;
        out->state = hit.state, out->fraction = hit.time, out->point = hit.point;
        out->normal = spx_from_glm_vec3(glms_vec3_negate(spx_to_glm_vec3(hit.normal))), out->depth = hit.depth;
        return true;
    }
    if (!spx_body_pose_mesh(b, s)) return false;
    spx_mesh_hit hit;
    if (spx_sweep_obb_mesh(box, translation, s->instance, still, 1.0f, NULL, 0, &hit) != SPX_OK) return false;
    if (hit.state == SPX_SWEEP_MISS || hit.time > max_fraction) return false;
    out->triangle = hit.first.triangle_b;
    out->state = hit.state, out->fraction = hit.time, out->point = hit.point;
    out->normal = spx_from_glm_vec3(glms_vec3_negate(spx_to_glm_vec3(hit.normal))), out->depth = hit.depth;
    return true;
}

static double visit(void* context, uint32_t proxy, uint32_t slot, double max_fraction)
{
    (void)proxy;
    box_cast* c = context;
    const spx_body* b = spx_query_body(c->world, slot);
    if (!b) return max_fraction;
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        if (!spx_query_filter_accepts(c->world, c->filter, slot, i)) continue;
        spx_cast_result r;
        if (!cast_shape(c->world, slot, i, c->box, c->translation, (float)max_fraction, &r)) continue;
        if (!spx_query_clip(c->fn(&r, c->context), &max_fraction)) return -1.0;
    }
    return max_fraction;
}

SPX_API spx_result spx_world_cast_box(spx_world* w, const spx_obb* box, spx_vec3 translation,
                                      const spx_query_filter* filter, spx_cast_result_fn* fn, void* context)
{
    if (!w || !box || !fn) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = SPX_OK;
    if (!spx_finite3(translation)) r = SPX_ERR_NOT_FINITE;
    else if (!spx_in_range3(translation)) r = SPX_ERR_OUT_OF_RANGE;
    if ((r = spx_first_error(r, spx_obb_validate(box))) != SPX_OK) return r;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    struct spx_query_index* q;
    if ((r = spx_query_index_sync(w, &q)) != SPX_OK) return r;
    /* The box's half widths along the world axes, grown past rounding. */
    double e[3];
    const float* h = &box->half_extents.x;
    for (int k = 0; k < 3; ++k) {
        e[k] = 0.0;
        for (int i = 0; i < 3; ++i) e[k] += (double)h[i] * fabs((double)(&box->rotation.col[i].x)[k]);
        e[k] = e[k] * (1.0 + 1e-5) + 1e-5 * fabs((double)(&box->center.x)[k]);
    }
    const double o[3] = { box->center.x, box->center.y, box->center.z };
    const double d[3] = { translation.x, translation.y, translation.z };
    box_cast c = { w, filter, box, translation, fn, context };
    w->locked = true; /* the callbacks may not change the world, nor query it again */
    spx_tree_cast(&q->tree, 0, o, d, e, 1.0, visit, &c);
    w->locked = false;
    return SPX_OK;
}

/* Deepest start overlap first, else the earliest hit; never clips to 0 (the deepest is unknown yet). */
static float keep_first(const spx_cast_result* r, void* context)
{
    spx_cast_result* best = context;
    bool better;
    if (best->state == SPX_SWEEP_MISS) better = true;
    else if (r->state == SPX_SWEEP_START_OVERLAP)
        better = best->state != SPX_SWEEP_START_OVERLAP || r->depth > best->depth;
    else better = best->state != SPX_SWEEP_START_OVERLAP && r->fraction < best->fraction;
    if (better) *best = *r;
    return fmaxf(best->fraction, FLT_MIN);
}

SPX_API spx_result spx_world_cast_box_closest(spx_world* w, const spx_obb* box, spx_vec3 translation,
                                              const spx_query_filter* filter, spx_cast_result* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    spx_cast_result best;
    memset(&best, 0, sizeof best);
    best.state = SPX_SWEEP_MISS;
    best.triangle = SPX_NO_TRIANGLE;
    spx_result r = spx_world_cast_box(w, box, translation, filter, keep_first, &best);
    if (r == SPX_OK) *out = best;
    return r;
}
