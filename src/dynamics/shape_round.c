/* Shape pairs with a sphere or a capsule in them, dispatched to the queries of round.h with the
   round piece first (a box or a mesh is only ever B there). */
#include "shape_round.h"
#include <math.h>

static spx_vec3 neg(spx_vec3 v) { return spx_v3(-v.x, -v.y, -v.z); }

/* Whether a goes first in the queries of round.h: it is round, and b is not, or is a capsule while a
   is a sphere or a capsule too (they have sphere-capsule, not capsule-sphere). */
static bool round_first(const spx_placed_shape* a, const spx_placed_shape* b)
{
    return spx_shape_is_round(a->shape) &&
           (!spx_shape_is_round(b->shape) || a->shape->type == SPX_SHAPE_SPHERE || b->shape->type == SPX_SHAPE_CAPSULE);
}

uint32_t spx_round_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                  uint32_t capacity, bool* flip)
{
    *flip = false;
    if (capacity == 0) return 0;
    const bool a_first = round_first(a, b);
    const spx_placed_shape* x = a_first ? a : b;
    const spx_placed_shape* y = a_first ? b : a;
    *flip = !a_first;
    const bool sphere = x->shape->type == SPX_SHAPE_SPHERE;
    const spx_sphere xs = spx_placed_sphere(x);
    const spx_capsule xc = spx_placed_capsule(x);
    spx_result r;
    uint32_t n = 1;
    switch (y->shape->type) {
    case SPX_SHAPE_BOX:
        r = sphere ? spx_manifold_sphere_obb(&xs, &y->box, margin, out)
                   : spx_manifold_capsule_obb(&xc, &y->box, margin, out);
        break;
    case SPX_SHAPE_MESH:
        r = sphere ? spx_manifold_sphere_mesh(&xs, y->shape->instance, margin, out, capacity, &n)
                   : spx_manifold_capsule_mesh(&xc, y->shape->instance, margin, out, capacity, &n);
        break;
    case SPX_SHAPE_SPHERE: {
        const spx_sphere ys = spx_placed_sphere(y);
        r = spx_manifold_sphere_sphere(&xs, &ys, margin, out); /* x is a sphere too */
        break;
    }
    default: {
        const spx_capsule yc = spx_placed_capsule(y);
        r = sphere ? spx_manifold_sphere_capsule(&xs, &yc, margin, out)
                   : spx_manifold_capsule_capsule(&xc, &yc, margin, out);
        break;
    }
    }
    return r == SPX_OK ? n : 0;
}

bool spx_round_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b)
{
    const bool a_first = round_first(a, b);
    const spx_placed_shape* x = a_first ? a : b;
    const spx_placed_shape* y = a_first ? b : a;
    const bool sphere = x->shape->type == SPX_SHAPE_SPHERE;
    const spx_sphere xs = spx_placed_sphere(x);
    const spx_capsule xc = spx_placed_capsule(x);
    bool hit = false;
    spx_result r;
    switch (y->shape->type) {
    case SPX_SHAPE_BOX:
        r = sphere ? spx_overlap_sphere_obb(&xs, &y->box, &hit) : spx_overlap_capsule_obb(&xc, &y->box, &hit);
        break;
    case SPX_SHAPE_MESH:
        r = sphere ? spx_overlap_sphere_mesh(&xs, y->shape->instance, &hit)
                   : spx_overlap_capsule_mesh(&xc, y->shape->instance, &hit);
        break;
    case SPX_SHAPE_SPHERE: {
        const spx_sphere ys = spx_placed_sphere(y);
        r = spx_overlap_sphere_sphere(&xs, &ys, &hit);
        break;
    }
    default: {
        const spx_capsule yc = spx_placed_capsule(y);
        r = sphere ? spx_overlap_sphere_capsule(&xs, &yc, &hit) : spx_overlap_capsule_capsule(&xc, &yc, &hit);
        break;
    }
    }
    return r == SPX_OK && hit;
}

bool spx_round_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out)
{
    const bool a_first = round_first(a, b);
    const spx_placed_shape* x = a_first ? a : b;
    const spx_placed_shape* y = a_first ? b : a;
    const spx_vec3 vx = a_first ? va : vb, vy = a_first ? vb : va;
    const bool sphere = x->shape->type == SPX_SHAPE_SPHERE;
    const spx_sphere xs = spx_placed_sphere(x);
    const spx_capsule xc = spx_placed_capsule(x);
    spx_result r;
    switch (y->shape->type) {
    case SPX_SHAPE_BOX: {
        /* A box takes its growth on its half extents. */
        spx_obb box = y->box;
        box.half_extents =
            spx_v3(box.half_extents.x + y->grow, box.half_extents.y + y->grow, box.half_extents.z + y->grow);
        r = sphere ? spx_sweep_sphere_obb(&xs, vx, &box, vy, tmax, out)
                   : spx_sweep_capsule_obb(&xc, vx, &box, vy, tmax, out);
        break;
    }
    case SPX_SHAPE_MESH:
        r = sphere ? spx_sweep_sphere_mesh(&xs, vx, y->shape->instance, vy, tmax, out, NULL)
                   : spx_sweep_capsule_mesh(&xc, vx, y->shape->instance, vy, tmax, out, NULL);
        break;
    case SPX_SHAPE_SPHERE: {
        const spx_sphere ys = spx_placed_sphere(y);
        r = spx_sweep_sphere_sphere(&xs, vx, &ys, vy, tmax, out);
        break;
    }
    default: {
        const spx_capsule yc = spx_placed_capsule(y);
        r = sphere ? spx_sweep_sphere_capsule(&xs, vx, &yc, vy, tmax, out)
                   : spx_sweep_capsule_capsule(&xc, vx, &yc, vy, tmax, out);
        break;
    }
    }
    if (r != SPX_OK) return false;
    if (!a_first) out->normal = neg(out->normal);
    return true;
}

float spx_round_spin_reach(const spx_body_shape* s, vec3s offset, vec3s axis1, vec3s u)
{
    const float across = glms_vec3_norm(glms_vec3_sub(offset, glms_vec3_scale(u, glms_vec3_dot(offset, u))));
    if (s->type != SPX_SHAPE_CAPSULE) return across;
    const float c = glms_vec3_dot(axis1, u);
    return across + s->half_height * sqrtf(fmaxf(1.0f - c * c, 0.0f));
}
