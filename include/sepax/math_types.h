/* sepax: plain math types of the public API. Laid out like cglm's (vec3s, versors, mat3s) but
   our own, so a host that builds cglm with other alignment options still links with us. */
#ifndef SEPAX_MATH_TYPES_H
#define SEPAX_MATH_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/// A point or direction in metres (or a velocity in m/s), right-handed, y up.
typedef struct spx_vec3 {
    float x, y, z;
} spx_vec3;

/// A rotation as a unit quaternion, w last (as cglm's versor).
typedef struct spx_quat {
    float x, y, z, w;
} spx_quat;

/// A 3x3 matrix, column-major: col[i] is the image of basis vector i (for a box: its axis i).
typedef struct spx_mat3 {
    spx_vec3 col[3];
} spx_mat3;

/// A rigid placement: rotate by q, then translate by p.
typedef struct spx_transform {
    spx_vec3 p;
    spx_quat q;
} spx_transform;

static inline spx_vec3 spx_v3(float x, float y, float z)
{
    spx_vec3 v = { x, y, z };
    return v;
}

#ifdef __cplusplus
}
#endif

#endif
