/* Oriented boxes: construction, validation, corners. */
#include <sepax/geometry.h>
#include "validate.h"
#include "math/glm_bridge.h"
#include "math/simd.h"

static spx_result check_rotation(const spx_mat3* m)
{
    const spx_vec3* c = m->col;
    if (!spx_finite3(c[0]) || !spx_finite3(c[1]) || !spx_finite3(c[2])) return SPX_ERR_NOT_FINITE;
    vec3s a = spx_to_glm_vec3(c[0]), b = spx_to_glm_vec3(c[1]), d = spx_to_glm_vec3(c[2]);
    const float tol = SPX_ROTATION_TOLERANCE;
    if (fabsf(glms_vec3_dot(a, a) - 1.0f) > tol || fabsf(glms_vec3_dot(b, b) - 1.0f) > tol ||
        fabsf(glms_vec3_dot(d, d) - 1.0f) > tol || fabsf(glms_vec3_dot(a, b)) > tol ||
        fabsf(glms_vec3_dot(a, d)) > tol || fabsf(glms_vec3_dot(b, d)) > tol)
        return SPX_ERR_NOT_ORTHONORMAL;
    if (glms_vec3_dot(glms_vec3_cross(a, b), d) < 0.0f) return SPX_ERR_NOT_RIGHT_HANDED;
    return SPX_OK;
}

/* In the documented order: anything not finite, then out of range, then the extents, then the
   rotation. */
static spx_result check_box(spx_vec3 center, spx_vec3 half, const spx_mat3* rotation)
{
    const spx_vec3* c = rotation->col;
    if (!spx_finite3(center) || !spx_finite3(half) || !spx_finite3(c[0]) || !spx_finite3(c[1]) || !spx_finite3(c[2]))
        return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(center) || !spx_in_range3(half)) return SPX_ERR_OUT_OF_RANGE;
    if (!(half.x > 0.0f && half.y > 0.0f && half.z > 0.0f)) return SPX_ERR_BAD_EXTENT;
    return check_rotation(rotation);
}

#if SPX_HAS_SIMD

/* The common good box in one branch-free SSE2 pass; NaN fails a comparison and the slow path
 * names the problem. */
static bool box_is_valid_fast(const spx_obb* box)
{
    const float* f = &box->center.x;
    _Static_assert(sizeof(spx_obb) == 15 * sizeof(float), "spx_obb is 15 packed floats");
    const spx_f4 xyz = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0));
    spx_f4 c0 = spx_f4_and(spx_f4_load(f + 6), xyz);            /* col0 */
    spx_f4 c1 = spx_f4_and(spx_f4_load(f + 9), xyz);            /* col1 */
    spx_f4 t = spx_f4_load(f + 11);                             /* col1.z col2 (stays inside the struct) */
    spx_f4 c2 = spx_f4_and(SPX_F4_SWIZZLE(t, 1, 2, 3, 0), xyz); /* col2 */
    spx_f4 p00 = spx_f4_mul(c0, c0), p11 = spx_f4_mul(c1, c1), p22 = spx_f4_mul(c2, c2), p01 = spx_f4_mul(c0, c1);
    spx_f4 p02 = spx_f4_mul(c0, c2), p12 = spx_f4_mul(c1, c2);
    /* c1 x c2, then its dot with c0 (the determinant) joins p02 and p12 in a second transpose. */
    spx_f4 c1_yzx = SPX_F4_SWIZZLE(c1, 1, 2, 0, 3), c2_yzx = SPX_F4_SWIZZLE(c2, 1, 2, 0, 3);
    spx_f4 cr = spx_f4_sub(spx_f4_mul(c1, c2_yzx), spx_f4_mul(c1_yzx, c2)); /* (z, x, y) order */
    spx_f4 pdet = spx_f4_mul(SPX_F4_SWIZZLE(cr, 1, 2, 0, 3), c0);
    spx_f4 zero = spx_f4_zero();
    spx_f4_transpose(&p00, &p11, &p22, &p01);
    spx_f4 d0 = spx_f4_add(spx_f4_add(p00, p11), p22); /* |c0|^2 |c1|^2 |c2|^2 c0.c1 */
    spx_f4 q3 = zero;
    spx_f4_transpose(&p02, &p12, &pdet, &q3);
    spx_f4 d1 = spx_f4_add(spx_f4_add(p02, p12), pdet); /* c0.c2 c1.c2 det 0 */
    const spx_f4 tol = spx_f4_splat(SPX_ROTATION_TOLERANCE);
    const spx_f4 sign = spx_f4_splat(-0.0f);
    spx_f4 r0 = spx_f4_andnot(sign, spx_f4_sub(d0, spx_f4_set(1, 1, 1, 0)));
    spx_f4 r1 = spx_f4_andnot(sign, spx_f4_sub(d1, spx_f4_set(0, 0, 1, 0)));
    /* As check_rotation (same sums, order); det within 4x tolerance of +1 rules out reflections. */
    const spx_f4 tol1 = spx_f4_set(SPX_ROTATION_TOLERANCE, SPX_ROTATION_TOLERANCE, 4.0f * SPX_ROTATION_TOLERANCE, 0.0f);
    spx_f4 ok = spx_f4_and(spx_f4_le(r0, tol), spx_f4_le(r1, tol1));
    /* centre and extents in range (which fails for NaN and inf), extents > 0 */
    const spx_f4 range = spx_f4_splat(SPX_MAX_COORDINATE);
    spx_f4 c = spx_f4_load(f), h = spx_f4_load(f + 2); /* c.xyz h.x / c.z h.xyz */
    spx_f4 cfin = spx_f4_le(spx_f4_andnot(sign, c), range);
    spx_f4 hok = spx_f4_and(spx_f4_gt(h, zero), spx_f4_le(h, range));
    hok = spx_f4_or(hok, spx_i4_as_f4(spx_i4_set(-1, 0, 0, 0))); /* lane 0 of h is centre.z */
    ok = spx_f4_and(ok, spx_f4_and(cfin, hok));
    return spx_f4_mask(ok) == 0xF;
}
#else
static bool box_is_valid_fast(const spx_obb* box)
{
    (void)box;
    return false;
}
#endif

SPX_API spx_result spx_obb_validate(const spx_obb* box)
{
    if (!box) return SPX_ERR_INVALID_ARGUMENT;
    if (box_is_valid_fast(box)) return SPX_OK;
    return check_box(box->center, box->half_extents, &box->rotation);
}

SPX_API spx_result spx_obb_from_matrix(spx_vec3 center, spx_vec3 half_extents, const spx_mat3* rotation, spx_obb* out)
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
    if (!spx_finite3(center) || !spx_finite3(half_extents) || !isfinite(rotation.x) || !isfinite(rotation.y) ||
        !isfinite(rotation.z) || !isfinite(rotation.w))
        return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(center) || !spx_in_range3(half_extents)) return SPX_ERR_OUT_OF_RANGE;
    if (!(half_extents.x > 0.0f && half_extents.y > 0.0f && half_extents.z > 0.0f)) return SPX_ERR_BAD_EXTENT;
    /* Accumulate |q|^2 in double so the check itself adds no rounding. */
    double n2 = (double)rotation.x * rotation.x + (double)rotation.y * rotation.y + (double)rotation.z * rotation.z +
                (double)rotation.w * rotation.w;
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

SPX_API spx_result spx_obb_get_corners(const spx_obb* box, spx_vec3 out_corners[8])
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
