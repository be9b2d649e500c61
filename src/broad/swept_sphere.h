/* The swept sphere of a body over one step: the broad phase's only view of a body. */
#ifndef SPX_BROAD_SWEPT_SPHERE_H
#define SPX_BROAD_SWEPT_SPHERE_H

#include <sepax/round.h>
#include "aabb.h"

/* Holds every position over dt of a body moving at v and turning at w (world) about its centre of
   mass p, bound by a sphere of `radius` at p + offset, grown by `margin`; rounded outwards.
   See docs/decisions.md#broad-phase. Errors: INVALID_ARGUMENT, NOT_FINITE, BAD_EXTENT, BAD_TIME;
   *out written only on success. */
spx_result spx_swept_sphere(spx_vec3 p, spx_vec3 v, spx_vec3 w, spx_vec3 offset, float radius, float margin, float dt,
                            spx_sphere* out);

/* One float step outwards on every face, so rounding never cuts the sphere. */
spx_aabb spx_sphere_aabb(const spx_sphere* s);

#endif
