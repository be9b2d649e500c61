/* The swept sphere of a body over one step: the broad phase's only view of a body. */
#ifndef SPX_BROAD_SWEPT_SPHERE_H
#define SPX_BROAD_SWEPT_SPHERE_H

#include <sepax/round.h> /* spx_sphere: a centre (m) and a radius (m, >= 0) */
#include "aabb.h"

/* The sphere holding every position a body can reach during a step of dt seconds, when its centre
   of mass moves from p at constant velocity v (m/s) and it turns at constant angular velocity w
   (rad/s, world axes) about its centre of mass. `radius` is that of a sphere enclosing all the
   body's shapes, centred at p + offset (offset: world vector from the centre of mass to that
   sphere's centre at the start of the step; zero when the sphere is about the centre of mass).
   `margin` (m, the speculative contact distance) is added to the radius. The caller passes the
   velocities the step will actually move with (after forces), or bounds of them.
   Centre p + offset + v dt/2; radius radius + |v| dt/2 + |offset| min(2, |w| dt) + margin, rounded
   outwards so that the float sphere holds the exact one.
   SPX_ERR_INVALID_ARGUMENT (out NULL), SPX_ERR_NOT_FINITE (an input, or the sphere, not finite),
   SPX_ERR_BAD_EXTENT (radius or margin negative), SPX_ERR_BAD_TIME (dt negative); *out is written
   only on success. */
spx_result spx_swept_sphere(spx_vec3 p, spx_vec3 v, spx_vec3 w, spx_vec3 offset, float radius, float margin, float dt,
                            spx_sphere* out);

/* The box around a sphere, one float step outwards on every face so that rounding never cuts
   the sphere. */
spx_aabb spx_sphere_aabb(const spx_sphere* s);

#endif
