/* Hulls as world shapes; a hull shape's box has the hull's axes. See docs/shapes.md#in-the-world. */
#ifndef SPX_DYNAMICS_SHAPE_HULL_H
#define SPX_DYNAMICS_SHAPE_HULL_H

#include "shape_round.h"

static inline bool spx_shape_is_hull(const spx_body_shape* s) { return s->type == SPX_SHAPE_HULL; }

/* Turned as its box; origin off the box centre by hull_center. */
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

/* y a hull or posed mesh; neither grows, so x's faces are pushed out by `grow`. Normal x to y. */
spx_result spx_hull_sweep_margin(const spx_placed_hull* x, spx_vec3 vx, const spx_placed_shape* y, spx_vec3 vy,
                                 float tmax, float grow, spx_sweep_hit* out);

#endif
