/* Two meshes swept with a margin, for the world's continuous stage (dynamics/continuous_toi.c). The
 * stage bounds a body's rotation over a sub-interval by how far it can move any point beside its
 * translation; growing one mesh by that bound and sweeping the translations finds a time no later
 * than the first contact of the real, turning meshes. Boxes can be grown directly; a mesh cannot, so
 * the descent grows its node boxes and the triangle test grows A's triangle on every axis. */
#ifndef SPX_COLLIDE_SWEEP_MESH_MARGIN_H
#define SPX_COLLIDE_SWEEP_MESH_MARGIN_H

#include <sepax/mesh_query.h>

/* First time in [0, tmax] at which mesh a, grown by `margin` (m, >= 0), may touch mesh b, both
   translating at their velocities from the instances' poses: never later than the first time any
   point of a within margin of a point of b touches it (a lower bound: corners meeting end to end
   can read as touching up to about margin / sin(angle) early). margin 0 is the exact first contact
   of spx_sweep_mesh_mesh. out: state (MISS, HIT, START_OVERLAP), time, and the first pair's normal
   (A to B) and point (ties to the lower triangle numbers; for START_OVERLAP the first pair the descent
   found overlapping at t = 0, where it stops: neither the deepest nor the lowest numbered); no
   contact set (counts 0). Inputs as checked by spx_sweep_mesh_mesh
   (a != b, finite velocities, tmax >= 0); not checked here. */
void spx_sweep_mesh_mesh_margin(spx_mesh_instance* a, spx_vec3 velocity_a, spx_mesh_instance* b, spx_vec3 velocity_b,
                                float tmax, float margin, spx_mesh_hit* out);

#endif
