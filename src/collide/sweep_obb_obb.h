/* Box-box sweep internals shared by the single-pair call and the batched one. */
#ifndef SPX_SWEEP_OBB_OBB_H
#define SPX_SWEEP_OBB_OBB_H

#include <sepax/collide.h>

/* The exact sweep in double of two boxes already validated (tmax >= 0, velocities finite). */
void spx_sweep_obb_obb_exact(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax,
                             spx_sweep_hit* out);

/* Normal, features, axis and point of contact at time tc, for the axis (numbered as in
 * spx_sweep_hit) that named the contact, pointing from A to B when multiplied by sign. When that
 * is an edge axis pointing the same way as face axis face_index (>= 0), the face is reported. */
void spx_box_box_contact(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, int index, double sign,
                         int face_index, double face_sign, double tc, spx_sweep_hit* out);

#endif
