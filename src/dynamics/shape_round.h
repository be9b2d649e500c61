/* Spheres and capsules as shapes of the world: the piece of round.h a shape is at a pose, and how far
 * one sweeps as its body turns (shape_pair.c dispatches the pairs). A round shape's box
 * (spx_body_shape's half extents and local rotation) bounds it: half extents (radius, half height +
 * radius, radius), the capsule's segment along the box's axis 1. */
#ifndef SPX_DYNAMICS_SHAPE_ROUND_H
#define SPX_DYNAMICS_SHAPE_ROUND_H

#include "body.h"
#include <sepax/round.h>

static inline bool spx_shape_is_round(const spx_body_shape* s)
{
    return s->type == SPX_SHAPE_SPHERE || s->type == SPX_SHAPE_CAPSULE;
}

/* A shape placed for a pair query: its box at the pose (a box's own, a round shape's bound, a mesh's
   root box) and, for a mesh, its instance already posed there. `grow` (m): a box grows its half
   extents by it, a round shape its radius; a mesh cannot (its partner takes it). */
typedef struct spx_placed_shape {
    const spx_body_shape* shape;
    spx_obb box;
    float grow;
} spx_placed_shape;

/* The capsule of a placed round shape (a sphere's two ends at its centre), its radius grown. */
static inline spx_capsule spx_placed_capsule(const spx_placed_shape* p)
{
    const spx_obb* b = &p->box;
    const float h = p->shape->half_height;
    const spx_vec3 u = b->rotation.col[1];
    spx_capsule c;
    c.p[0] = spx_v3(b->center.x - h * u.x, b->center.y - h * u.y, b->center.z - h * u.z);
    c.p[1] = spx_v3(b->center.x + h * u.x, b->center.y + h * u.y, b->center.z + h * u.z);
    c.radius = p->shape->round_radius + p->grow;
    return c;
}

static inline spx_sphere spx_placed_sphere(const spx_placed_shape* p)
{
    spx_sphere s;
    s.center = p->box.center;
    s.radius = p->shape->round_radius + p->grow;
    return s;
}

/* How far rotation about a unit axis u through the body's centre of mass (at `offset` from it, world,
   the shape's centre) moves a round shape's surface a radian at most: its core's reach across u (the
   radius turns into itself). */
float spx_round_spin_reach(const spx_body_shape* s, vec3s offset, vec3s axis1, vec3s u);

#endif
