/* Box-box sweep internals shared by the single-pair call and the batched one. */
#ifndef SPX_SWEEP_OBB_OBB_H
#define SPX_SWEEP_OBB_OBB_H

#include <sepax/collide.h>
#include "math/dvec3.h"

typedef struct spx_box_pair {
    double r[3][3]; /* r[i][j] = a_i . b_j: column j is B's axis j in A's frame */
    double t[3];    /* B's centre relative to A's, in A's frame */
    double u[3];    /* B's velocity relative to A's, in A's frame */
    double ha[3], hb[3];
} spx_box_pair;

/* The exact double sweep of validated boxes (tmax >= 0, finite velocities). */
void spx_sweep_obb_obb_exact(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax,
                             spx_sweep_hit* out);

/* The 15-axis minimum translation in double of validated boxes, where spx_penetration_obb_obb's float screen cannot
 * decide. */
void spx_penetration_obb_obb_exact(const spx_obb* a, const spx_obb* b, spx_penetration* out);

/* World normal, features, axis and point at time tc for the axis (spx_sweep_hit numbering) naming the contact, A to B
 * times sign; frame: A's axes, origin: A's centre at tc. An edge axis along face axis face_index (>= 0) reports the
 * face. */
void spx_box_box_contact(const spx_dvec3 frame[3], spx_dvec3 origin, const spx_box_pair* p, int index, double sign,
                         int face_index, double face_sign, double tc, spx_sweep_hit* out);

#endif
