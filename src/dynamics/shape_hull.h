/* Convex hulls as shapes of the world: the placed hull a shape is at a pose, and the sweep of a hull
 * against a piece that cannot grow (shape_pair.c dispatches the pairs). A hull shape's box
 * (spx_body_shape's half extents and local rotation) is the box of its corners in its own frame: its
 * axes are the hull's. */
#ifndef SPX_DYNAMICS_SHAPE_HULL_H
#define SPX_DYNAMICS_SHAPE_HULL_H

#include "shape_round.h"

static inline bool spx_shape_is_hull(const spx_body_shape* s) { return s->type == SPX_SHAPE_HULL; }

/* The hull of a placed hull shape: turned as its box, its frame's origin off the box's centre by the
   box's centre in the hull's frame. */
static inline spx_placed_hull spx_placed_shape_hull(const spx_placed_shape* p)
{
    const spx_obb* b = &p->box;
    const vec3s c = p->shape->hull_center;
    spx_placed_hull h;
    h.hull = p->shape->hull;
    h.rotation = b->rotation;
    for (int k = 0; k < 3; ++k)
        (&h.position.x)[k] = (&b->center.x)[k] - (&b->rotation.col[0].x)[k] * c.x - (&b->rotation.col[1].x)[k] * c.y -
                             (&b->rotation.col[2].x)[k] * c.z;
    return h;
}

/* First contact of hull x translating at vx and y (a hull or a mesh, posed by the caller) at vy over
   [0, tmax], normal from x to y: neither can grow, so x's faces are pushed out by `grow`
   (spx_hull_query_sweep_margin). An error for a hull, a motion or a growth the queries refuse. */
spx_result spx_hull_sweep_margin(const spx_placed_hull* x, spx_vec3 vx, const spx_placed_shape* y, spx_vec3 vy,
                                 float tmax, float grow, spx_sweep_hit* out);

#endif
