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

/* A pair in the order of round.h: x round, taken as a sphere or a capsule, y the other; flipped
   when x is b. */
typedef struct round_pair {
    const spx_placed_shape* y;
    bool flipped, sphere;
    spx_sphere xs;
    spx_capsule xc;
} round_pair;

static round_pair order(const spx_placed_shape* a, const spx_placed_shape* b)
{
    round_pair p;
    p.flipped = !round_first(a, b);
    const spx_placed_shape* x = p.flipped ? b : a;
    p.y = p.flipped ? a : b;
    p.sphere = x->shape->type == SPX_SHAPE_SPHERE;
    p.xs = spx_placed_sphere(x);
    p.xc = spx_placed_capsule(x);
    return p;
}

uint32_t spx_round_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                  uint32_t capacity, bool* flip)
{
    *flip = false;
    if (capacity == 0) return 0;
    const round_pair p = order(a, b);
    *flip = p.flipped;
    spx_result r;
    uint32_t n = 1;
    switch (p.y->shape->type) {
    case SPX_SHAPE_BOX:
        r = p.sphere ? spx_manifold_sphere_obb(&p.xs, &p.y->box, margin, out)
                     : spx_manifold_capsule_obb(&p.xc, &p.y->box, margin, out);
        break;
    case SPX_SHAPE_MESH:
        r = p.sphere ? spx_manifold_sphere_mesh(&p.xs, p.y->shape->instance, margin, out, capacity, &n)
                     : spx_manifold_capsule_mesh(&p.xc, p.y->shape->instance, margin, out, capacity, &n);
        break;
    case SPX_SHAPE_SPHERE: {
        const spx_sphere ys = spx_placed_sphere(p.y);
        r = spx_manifold_sphere_sphere(&p.xs, &ys, margin, out); /* x is a sphere too */
        break;
    }
    default: {
        const spx_capsule yc = spx_placed_capsule(p.y);
        r = p.sphere ? spx_manifold_sphere_capsule(&p.xs, &yc, margin, out)
                     : spx_manifold_capsule_capsule(&p.xc, &yc, margin, out);
        break;
    }
    }
    return r == SPX_OK ? n : 0;
}

bool spx_round_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b)
{
    const round_pair p = order(a, b);
    bool hit = false;
    spx_result r;
    switch (p.y->shape->type) {
    case SPX_SHAPE_BOX:
        r = p.sphere ? spx_overlap_sphere_obb(&p.xs, &p.y->box, &hit) : spx_overlap_capsule_obb(&p.xc, &p.y->box, &hit);
        break;
    case SPX_SHAPE_MESH:
        r = p.sphere ? spx_overlap_sphere_mesh(&p.xs, p.y->shape->instance, &hit)
                     : spx_overlap_capsule_mesh(&p.xc, p.y->shape->instance, &hit);
        break;
    case SPX_SHAPE_SPHERE: {
        const spx_sphere ys = spx_placed_sphere(p.y);
        r = spx_overlap_sphere_sphere(&p.xs, &ys, &hit);
        break;
    }
    default: {
        const spx_capsule yc = spx_placed_capsule(p.y);
        r = p.sphere ? spx_overlap_sphere_capsule(&p.xs, &yc, &hit) : spx_overlap_capsule_capsule(&p.xc, &yc, &hit);
        break;
    }
    }
    return r == SPX_OK && hit;
}

bool spx_round_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out)
{
    const round_pair p = order(a, b);
    const spx_vec3 vx = p.flipped ? vb : va, vy = p.flipped ? va : vb;
    spx_result r;
    switch (p.y->shape->type) {
    case SPX_SHAPE_BOX: {
        /* A box takes its growth on its half extents. */
        spx_obb box = p.y->box;
        box.half_extents =
            spx_v3(box.half_extents.x + p.y->grow, box.half_extents.y + p.y->grow, box.half_extents.z + p.y->grow);
        r = p.sphere ? spx_sweep_sphere_obb(&p.xs, vx, &box, vy, tmax, out)
                     : spx_sweep_capsule_obb(&p.xc, vx, &box, vy, tmax, out);
        break;
    }
    case SPX_SHAPE_MESH:
        r = p.sphere ? spx_sweep_sphere_mesh(&p.xs, vx, p.y->shape->instance, vy, tmax, out, NULL)
                     : spx_sweep_capsule_mesh(&p.xc, vx, p.y->shape->instance, vy, tmax, out, NULL);
        break;
    case SPX_SHAPE_SPHERE: {
        const spx_sphere ys = spx_placed_sphere(p.y);
        r = spx_sweep_sphere_sphere(&p.xs, vx, &ys, vy, tmax, out);
        break;
    }
    default: {
        const spx_capsule yc = spx_placed_capsule(p.y);
        r = p.sphere ? spx_sweep_sphere_capsule(&p.xs, vx, &yc, vy, tmax, out)
                     : spx_sweep_capsule_capsule(&p.xc, vx, &yc, vy, tmax, out);
        break;
    }
    }
    if (r != SPX_OK) return false;
    if (p.flipped) out->normal = neg(out->normal);
    return true;
}

float spx_round_spin_reach(const spx_body_shape* s, vec3s offset, vec3s axis1, vec3s u)
{
    const float across = glms_vec3_norm(glms_vec3_sub(offset, glms_vec3_scale(u, glms_vec3_dot(offset, u))));
    if (s->type != SPX_SHAPE_CAPSULE) return across;
    const float c = glms_vec3_dot(axis1, u);
    return across + s->half_height * sqrtf(fmaxf(1.0f - c * c, 0.0f));
}
