/* Box-box sweep internals shared by the single-pair call and the batched one. */
#ifndef SPX_SWEEP_OBB_OBB_H
#define SPX_SWEEP_OBB_OBB_H

#include <sepax/collide.h>
#include "math/dvec3.h"

/* Two boxes seen from A: A's axes are the unit vectors, B's the columns of R = A^T B. */
typedef struct spx_box_pair {
    double r[3][3]; /* r[i][j] = a_i . b_j; column j is B's axis j in A's frame */
    double t[3];    /* B's centre relative to A's, in A's frame */
    double u[3];    /* B's velocity relative to A's, in A's frame */
    double ha[3], hb[3];
} spx_box_pair;

/* The exact sweep in double of two boxes already validated (tmax >= 0, velocities finite). */
void spx_sweep_obb_obb_exact(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax,
                             spx_sweep_hit* out);

/* The minimum translation by all 15 axes in double, of two boxes already validated (what
 * spx_penetration_obb_obb answers; it runs this only where its float screen cannot decide). */
void spx_penetration_obb_obb_exact(const spx_obb* a, const spx_obb* b, spx_penetration* out);

/* Normal, features, axis and point of contact at time tc in world space, for the axis (numbered as
 * in spx_sweep_hit) that named the contact, pointing from A to B when multiplied by sign. frame:
 * A's axes; origin: A's centre at tc. When the axis is an edge axis pointing the same way as face
 * axis face_index (>= 0), the face is reported. */
void spx_box_box_contact(const spx_dvec3 frame[3], spx_dvec3 origin, const spx_box_pair* p, int index, double sign,
                         int face_index, double face_sign, double tc, spx_sweep_hit* out);

#endif
