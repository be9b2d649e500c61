/* sepax (the program): the few vector and quaternion operations the program needs on the public
 * API's plain types (cglm stays inside the library). */
#ifndef SEPAX_TOOL_MATH_H
#define SEPAX_TOOL_MATH_H

#include <sepax/math_types.h>

#include <math.h>

static inline spx_vec3 tm_add(spx_vec3 a, spx_vec3 b) { return spx_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline spx_vec3 tm_sub(spx_vec3 a, spx_vec3 b) { return spx_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline spx_vec3 tm_scale(spx_vec3 a, float s) { return spx_v3(a.x * s, a.y * s, a.z * s); }
static inline float tm_dot(spx_vec3 a, spx_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline spx_vec3 tm_cross(spx_vec3 a, spx_vec3 b)
{
    return spx_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float tm_length(spx_vec3 a) { return sqrtf(tm_dot(a, a)); }
static inline spx_vec3 tm_normalize(spx_vec3 a)
{
    float l = tm_length(a);
    return l > 0.0f ? tm_scale(a, 1.0f / l) : a;
}

/* q v q*, for a unit quaternion (w last). */
static inline spx_vec3 tm_rotate(spx_quat q, spx_vec3 v)
{
    spx_vec3 u = spx_v3(q.x, q.y, q.z);
    spx_vec3 t = tm_scale(tm_cross(u, v), 2.0f);
    return tm_add(tm_add(v, tm_scale(t, q.w)), tm_cross(u, t));
}

static inline spx_quat tm_quat_mul(spx_quat a, spx_quat b)
{
    spx_quat q = { a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
    return q;
}

/* `local` placed by `body`: a shape's pose in the world. */
static inline spx_transform tm_compose(spx_transform body, spx_transform local)
{
    spx_transform t = { tm_add(body.p, tm_rotate(body.q, local.p)), tm_quat_mul(body.q, local.q) };
    float n = sqrtf(t.q.x * t.q.x + t.q.y * t.q.y + t.q.z * t.q.z + t.q.w * t.q.w);
    t.q.x /= n, t.q.y /= n, t.q.z /= n, t.q.w /= n;
    return t;
}

static inline spx_vec3 tm_apply(spx_transform t, spx_vec3 v) { return tm_add(t.p, tm_rotate(t.q, v)); }

#endif
