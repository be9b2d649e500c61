/* Oriented boxes: construction, validation, corners. */
#include <sepax/geometry.h>
#include "validate.h"
#include "math/glm_bridge.h"

static spx_result check_rotation(const spx_mat3* m)
{
    const spx_vec3* c = m->col;
    if (!spx_finite3(c[0]) || !spx_finite3(c[1]) || !spx_finite3(c[2])) return SPX_ERR_NOT_FINITE;
    vec3s a = spx_to_glm_vec3(c[0]), b = spx_to_glm_vec3(c[1]), d = spx_to_glm_vec3(c[2]);
    const float tol = SPX_ROTATION_TOLERANCE;
    if (fabsf(glms_vec3_dot(a, a) - 1.0f) > tol || fabsf(glms_vec3_dot(b, b) - 1.0f) > tol
        || fabsf(glms_vec3_dot(d, d) - 1.0f) > tol || fabsf(glms_vec3_dot(a, b)) > tol
        || fabsf(glms_vec3_dot(a, d)) > tol || fabsf(glms_vec3_dot(b, d)) > tol)
        return SPX_ERR_NOT_ORTHONORMAL;
    if (glms_vec3_dot(glms_vec3_cross(a, b), d) < 0.0f) return SPX_ERR_NOT_RIGHT_HANDED;
    return SPX_OK;
}

static spx_result check_box(spx_vec3 center, spx_vec3 half, const spx_mat3* rotation)
{
    if (!spx_finite3(center) || !spx_finite3(half)) return SPX_ERR_NOT_FINITE;
    if (!(half.x > 0.0f && half.y > 0.0f && half.z > 0.0f)) return SPX_ERR_BAD_EXTENT;
    return check_rotation(rotation);
}

SPX_API spx_result spx_obb_validate(const spx_obb* box)
{
    if (!box) return SPX_ERR_INVALID_ARGUMENT;
    return check_box(box->center, box->half_extents, &box->rotation);
}

SPX_API spx_result spx_obb_from_matrix(spx_vec3 center, spx_vec3 half_extents, const spx_mat3* rotation,
                                       spx_obb* out)
{
    if (!rotation || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_box(center, half_extents, rotation);
    if (r != SPX_OK) return r;
    out->center = center;
    out->half_extents = half_extents;
    out->rotation = *rotation;
    return SPX_OK;
}

SPX_API spx_result spx_obb_from_quat(spx_vec3 center, spx_vec3 half_extents, spx_quat rotation, spx_obb* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(center) || !spx_finite3(half_extents) || !isfinite(rotation.x) || !isfinite(rotation.y)
        || !isfinite(rotation.z) || !isfinite(rotation.w))
        return SPX_ERR_NOT_FINITE;
    if (!(half_extents.x > 0.0f && half_extents.y > 0.0f && half_extents.z > 0.0f)) return SPX_ERR_BAD_EXTENT;
    /* Accumulate |q|^2 in double so the check itself adds no rounding. */
    double n2 = (double)rotation.x * rotation.x + (double)rotation.y * rotation.y
              + (double)rotation.z * rotation.z + (double)rotation.w * rotation.w;
    if (fabs(n2 - 1.0) > 2.0 * SPX_ROTATION_TOLERANCE) return SPX_ERR_NOT_ORTHONORMAL;
    versors q = glms_quat_normalize(spx_to_glm_quat(rotation));
    spx_mat3 m = spx_from_glm_mat3(glms_quat_mat3(q));
    spx_result r = check_rotation(&m);
    if (r != SPX_OK) return r;
    out->center = center;
    out->half_extents = half_extents;
    out->rotation = m;
    return SPX_OK;
}

SPX_API spx_result spx_obb_corners(const spx_obb* box, spx_vec3 out_corners[8])
{
    if (!box || !out_corners) return SPX_ERR_INVALID_ARGUMENT;
    vec3s c = spx_to_glm_vec3(box->center);
    vec3s e[3];
    const float* h = &box->half_extents.x;
    for (int i = 0; i < 3; ++i) e[i] = glms_vec3_scale(spx_to_glm_vec3(box->rotation.col[i]), h[i]);
    for (int k = 0; k < 8; ++k) {
        vec3s p = c;
        for (int i = 0; i < 3; ++i) p = (k >> i) & 1 ? glms_vec3_add(p, e[i]) : glms_vec3_sub(p, e[i]);
        out_corners[k] = spx_from_glm_vec3(p);
    }
    return SPX_OK;
}
