/* Spheres and capsules as world shapes; the capsule's segment lies along its box's axis 1.
 * See docs/shapes.md. */
#ifndef SPX_DYNAMICS_SHAPE_ROUND_H
#define SPX_DYNAMICS_SHAPE_ROUND_H

#include "body.h"
#include <sepax/round.h>

static inline bool spx_shape_is_round(const spx_body_shape* s)
{
    return s->type == SPX_SHAPE_SPHERE || s->type == SPX_SHAPE_CAPSULE;
}

/* A shape's box at its pose (a mesh's instance posed too); `grow` (m) for boxes and round shapes. */
typedef struct spx_placed_shape {
    const spx_body_shape* shape;
    spx_obb box;
    float grow;
} spx_placed_shape;

/* A sphere gives both ends at its centre. */
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

/* Most a radian about unit u through the centre of mass moves the surface: the core's reach across
   u (`offset`: the shape's centre from it; the radius turns into itself). */
float spx_round_spin_reach(const spx_body_shape* s, vec3s offset, vec3s axis1, vec3s u);

#endif
