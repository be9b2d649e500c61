/* Convex hulls as shapes of the world: the placed hull a shape is at a pose, and the queries of a
 * shape pair with a hull in it (hull.h, and round.h for a sphere or a capsule against a hull) for the
 * contacts, the continuous stage, sensors and the world's queries. A hull shape's box (spx_body_shape's
 * half extents and local rotation) is the box of its corners in its own frame: its axes are the hull's. */
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

/* Manifolds of a shape pair at least one of which is a hull, into out[0 .. capacity); returns how
   many. *flip: the normals point from b to a. A mesh in the pair must be posed by the caller. No
   manifold for a pose the queries refuse. */
uint32_t spx_hull_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                 uint32_t capacity, bool* flip);

/* Do they overlap or touch? false for a pose the queries refuse. */
bool spx_hull_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b);

/* First contact of the pair translating at va and vb over [0, tmax], normal from a to b, each grown
   by its `grow`: a box or a round partner takes both growths, else the hull's faces are pushed out by
   them (spx_hull_query_sweep_margin). false for a pose or motion the queries refuse. */
bool spx_hull_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                         spx_sweep_hit* out);

#endif
