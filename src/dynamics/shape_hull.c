/* Shape pairs with a convex hull in them, dispatched to the queries of hull.h with the hull first, or
   of round.h with the sphere or capsule first (they have sphere-hull, not hull-sphere). */
#include "shape_hull.h"
#include "collide/hull_mesh.h"
#include "collide/sat_hull.h"
#include "geometry/validate.h"

static spx_vec3 neg(spx_vec3 v) { return spx_v3(-v.x, -v.y, -v.z); }

/* A pair as the queries take it: x the hull (a's when both are), y the other; x_is_b when x is b. */
typedef struct hull_pair {
    const spx_placed_shape *x, *y;
    bool x_is_b;
    spx_placed_hull hx;
} hull_pair;

static hull_pair order(const spx_placed_shape* a, const spx_placed_shape* b)
{
    hull_pair p;
    p.x_is_b = !spx_shape_is_hull(a->shape);
    p.x = p.x_is_b ? b : a;
    p.y = p.x_is_b ? a : b;
    p.hx = spx_placed_shape_hull(p.x);
    return p;
}

uint32_t spx_hull_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                 uint32_t capacity, bool* flip)
{
    *flip = false;
    if (capacity == 0) return 0;
    const hull_pair p = order(a, b);
    *flip = p.x_is_b; /* the hull is the queries' A */
    spx_result r;
    uint32_t n = 1;
    switch (p.y->shape->type) {
    case SPX_SHAPE_BOX:
        r = spx_manifold_hull_obb(&p.hx, &p.y->box, margin, out);
        break;
    case SPX_SHAPE_MESH:
        r = spx_manifold_hull_mesh(&p.hx, p.y->shape->instance, margin, out, capacity, &n);
        break;
    case SPX_SHAPE_HULL: {
        const spx_placed_hull hy = spx_placed_shape_hull(p.y);
        r = spx_manifold_hull_hull(&p.hx, &hy, margin, out);
        break;
    }
    case SPX_SHAPE_SPHERE: {
        const spx_sphere s = spx_placed_sphere(p.y);
        r = spx_manifold_sphere_hull(&s, &p.hx, margin, out);
        *flip = !p.x_is_b; /* the round piece is the query's A */
        break;
    }
    default: {
        const spx_capsule c = spx_placed_capsule(p.y);
        r = spx_manifold_capsule_hull(&c, &p.hx, margin, out);
        *flip = !p.x_is_b;
        break;
    }
    }
    return r == SPX_OK ? n : 0;
}

bool spx_hull_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b)
{
    const hull_pair p = order(a, b);
    bool hit = false;
    spx_result r;
    switch (p.y->shape->type) {
    case SPX_SHAPE_BOX:
        r = spx_overlap_hull_obb(&p.hx, &p.y->box, &hit);
        break;
    case SPX_SHAPE_MESH:
        r = spx_overlap_hull_mesh(&p.hx, p.y->shape->instance, &hit);
        break;
    case SPX_SHAPE_HULL: {
        const spx_placed_hull hy = spx_placed_shape_hull(p.y);
        r = spx_overlap_hull_hull(&p.hx, &hy, &hit);
        break;
    }
    case SPX_SHAPE_SPHERE: {
        const spx_sphere s = spx_placed_sphere(p.y);
        r = spx_overlap_sphere_hull(&s, &p.hx, &hit);
        break;
    }
    default: {
        const spx_capsule c = spx_placed_capsule(p.y);
        r = spx_overlap_capsule_hull(&c, &p.hx, &hit);
        break;
    }
    }
    return r == SPX_OK && hit;
}

bool spx_hull_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                         spx_sweep_hit* out)
{
    const hull_pair p = order(a, b);
    const spx_vec3 vx = p.x_is_b ? vb : va, vy = p.x_is_b ? va : vb;
    const float grow = a->grow + b->grow;
    /* Normals of the queries below run from the hull to y unless the round piece went first. */
    bool hull_first = true;
    spx_result r;
    switch (p.y->shape->type) {
    case SPX_SHAPE_BOX: {
        spx_obb box = p.y->box;
        box.half_extents = spx_v3(box.half_extents.x + grow, box.half_extents.y + grow, box.half_extents.z + grow);
        r = spx_sweep_hull_obb(&p.hx, vx, &box, vy, tmax, out);
        break;
    }
    case SPX_SHAPE_SPHERE:
    case SPX_SHAPE_CAPSULE: {
        spx_placed_shape grown = *p.y;
        grown.grow = grow;
        const spx_sphere s = spx_placed_sphere(&grown);
        const spx_capsule c = spx_placed_capsule(&grown);
        r = p.y->shape->type == SPX_SHAPE_SPHERE ? spx_sweep_sphere_hull(&s, vy, &p.hx, vx, tmax, out)
                                                 : spx_sweep_capsule_hull(&c, vy, &p.hx, vx, tmax, out);
        hull_first = false;
        break;
    }
    default: {
        /* Neither piece can grow: the margin sweep. */
        r = spx_first_error(spx_hull_check_placed(&p.hx), spx_check_motion(vx, vy, tmax));
        if (r == SPX_OK && !(grow >= 0.0f && grow <= SPX_MAX_COORDINATE)) r = SPX_ERR_INVALID_ARGUMENT;
        if (r != SPX_OK) break;
        if (p.y->shape->type == SPX_SHAPE_HULL) {
            const spx_placed_hull hy = spx_placed_shape_hull(p.y);
            if ((r = spx_hull_check_placed(&hy)) != SPX_OK) break;
            spx_hull_query q = { 0 };
            q.b = &hy.hull->view;
            q.pb = hy.position;
            q.rb = &hy.rotation;
            q.b_reference = -1;
            q.b_reference_cos = -2.0;
            spx_hull_query_sweep_margin(&p.hx, vx, &q, vy, tmax, grow, out);
        } else {
            spx_mesh_hit mh;
            spx_sweep_hull_mesh_margin(&p.hx, vx, p.y->shape->instance, vy, tmax, grow, &mh);
            *out = (spx_sweep_hit){ .state = mh.state,
                                    .time = mh.time,
                                    .point = mh.point,
                                    .normal = mh.normal,
                                    .depth = mh.depth,
                                    .axis = -1 };
        }
        break;
    }
    }
    if (r != SPX_OK) return false;
    /* The query's A is a exactly when its normal already runs from a to b. */
    const bool query_a_is_a = hull_first ? !p.x_is_b : p.x_is_b;
    if (!query_a_is_a) out->normal = neg(out->normal);
    return true;
}
