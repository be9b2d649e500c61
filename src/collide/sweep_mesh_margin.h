/* Two meshes swept with a margin for the continuous stage (dynamics/continuous_toi.c): growing one mesh by a bound on
 * rotation and sweeping the translations gives a time no later than the turning meshes' first contact. See
 * docs/continuous.md#the-stage. */
#ifndef SPX_COLLIDE_SWEEP_MESH_MARGIN_H
#define SPX_COLLIDE_SWEEP_MESH_MARGIN_H

#include <sepax/mesh_query.h>

/* First time in [0, tmax] at which mesh a grown by `margin` (m, >= 0) may touch mesh b, both translating: a lower
   bound (corners meeting end to end may read as touching up to margin / sin(angle) early); margin 0 is
   spx_sweep_mesh_mesh's exact time. out: state, time, the first pair's normal (A to B) and point (ties to lower
   triangle numbers; START_OVERLAP: the first overlapping pair found, neither deepest nor lowest); no contact set.
   Inputs as spx_sweep_mesh_mesh checks them (a != b, finite velocities, tmax >= 0); not checked here. */
void spx_sweep_mesh_mesh_margin(spx_mesh_instance* a, spx_vec3 velocity_a, spx_mesh_instance* b, spx_vec3 velocity_b,
                                float tmax, float margin, spx_mesh_hit* out);

#endif
