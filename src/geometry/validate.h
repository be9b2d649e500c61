/* Input checks shared by the constructors and every query. */
#ifndef SPX_VALIDATE_H
#define SPX_VALIDATE_H

#include <sepax/geometry.h>
#include <math.h>

static inline bool spx_finite3(spx_vec3 v)
{
    /* x - x is 0 for finite x and NaN for NaN or inf: one test for all three. */
    float z = (v.x - v.x) + (v.y - v.y) + (v.z - v.z);
    return z == 0.0f;
}

/* Checks velocities and the interval of a swept query. */
static inline spx_result spx_check_motion(spx_vec3 velocity_a, spx_vec3 velocity_b, float tmax)
{
    if (!spx_finite3(velocity_a) || !spx_finite3(velocity_b) || !isfinite(tmax)) return SPX_ERR_NOT_FINITE;
    if (tmax < 0.0f) return SPX_ERR_BAD_TIME;
    return SPX_OK;
}

/* Segment-like when the area is below this fraction of the longest edge squared. */
#define SPX_TRIANGLE_FLAT_RATIO 1e-6

#endif
