/* The swept sphere of a body over one step: the broad phase's only view of a body. */
#ifndef SPX_BROAD_SWEPT_SPHERE_H
#define SPX_BROAD_SWEPT_SPHERE_H

#include <sepax/round.h>
#include "aabb.h"

/* Every position over dt of a body at v, w about centre of mass p, bound by `radius` at p + offset,
   plus `margin`, rounded outwards (docs/decisions.md#broad-phase). *out written only on success. */
spx_result spx_swept_sphere(spx_vec3 p, spx_vec3 v, spx_vec3 w, spx_vec3 offset, float radius, float margin, float dt,
                            spx_sphere* out);

/* One float step outwards on every face, so rounding never cuts the sphere. */
spx_aabb spx_sphere_aabb(const spx_sphere* s);

#endif
