/* Conversions between the public spx_* math types and cglm's struct types. */
#ifndef SPX_GLM_BRIDGE_H
#define SPX_GLM_BRIDGE_H

#include <sepax/math_types.h>
#include <cglm/struct.h>
#include <string.h>

/* cglm's alignment options could change its layout; these hold for Debian's build. */
_Static_assert(sizeof(spx_vec3) == 3 * sizeof(float), "spx_vec3 is three floats");
_Static_assert(sizeof(spx_quat) == 4 * sizeof(float), "spx_quat is four floats");
_Static_assert(sizeof(spx_mat3) == 9 * sizeof(float), "spx_mat3 is nine floats");

static inline vec3s spx_to_glm_vec3(spx_vec3 v)
{
    vec3s r = { { v.x, v.y, v.z } };
    return r;
}
static inline spx_vec3 spx_from_glm_vec3(vec3s v)
{
    spx_vec3 r = { v.x, v.y, v.z };
    return r;
}
static inline versors spx_to_glm_quat(spx_quat q)
{
    versors r = { { q.x, q.y, q.z, q.w } };
    return r;
}
static inline spx_quat spx_from_glm_quat(versors q)
{
    spx_quat r = { q.x, q.y, q.z, q.w };
    return r;
}

static inline mat3s spx_to_glm_mat3(const spx_mat3* m)
{
    mat3s r;
    for (int i = 0; i < 3; ++i) r.col[i] = spx_to_glm_vec3(m->col[i]);
    return r;
}

static inline spx_mat3 spx_from_glm_mat3(mat3s m)
{
    spx_mat3 r;
    for (int i = 0; i < 3; ++i) r.col[i] = spx_from_glm_vec3(m.col[i]);
    return r;
}

#endif
