/* Input checks and the one order of their errors. See docs/tolerances.md#the-accepted-range-and-the-order-of-errors. */
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

/* Every |component| at most SPX_MAX_COORDINATE (false for NaN too). */
static inline bool spx_in_range3(spx_vec3 v)
{
    return fabsf(v.x) <= SPX_MAX_COORDINATE && fabsf(v.y) <= SPX_MAX_COORDINATE && fabsf(v.z) <= SPX_MAX_COORDINATE;
}

/* Pointer faults are returned before this, so SPX_ERR_INVALID_ARGUMENT here is a bad scalar. */
static inline int spx_error_rank(spx_result r)
{
    switch (r) {
    case SPX_OK:
        return 4;
    case SPX_ERR_NOT_FINITE:
        return 0;
    case SPX_ERR_OUT_OF_RANGE:
        return 1;
    case SPX_ERR_BAD_TIME:
    case SPX_ERR_INVALID_ARGUMENT:
        return 3;
    default:
        return 2; /* the shape of a piece */
    }
}

/* The earlier in the order; ties to the first. */
static inline spx_result spx_first_error(spx_result first, spx_result second)
{
    return spx_error_rank(second) < spx_error_rank(first) ? second : first;
}

/* Each |v| |tmax| must be in range (in double: the product of two floats is exact). */
static inline spx_result spx_check_motion(spx_vec3 velocity_a, spx_vec3 velocity_b, float tmax)
{
    if (!spx_finite3(velocity_a) || !spx_finite3(velocity_b) || !isfinite(tmax)) return SPX_ERR_NOT_FINITE;
    const float v[6] = { velocity_a.x, velocity_a.y, velocity_a.z, velocity_b.x, velocity_b.y, velocity_b.z };
    float fastest = 0.0f;
    for (int i = 0; i < 6; ++i) fastest = fabsf(v[i]) > fastest ? fabsf(v[i]) : fastest;
    if ((double)fastest * fabs((double)tmax) > (double)SPX_MAX_COORDINATE) return SPX_ERR_OUT_OF_RANGE;
    if (tmax < 0.0f) return SPX_ERR_BAD_TIME;
    return SPX_OK;
}

static inline spx_result spx_check_margin(float margin)
{
    if (!isfinite(margin)) return SPX_ERR_NOT_FINITE;
    if (margin > SPX_MAX_COORDINATE) return SPX_ERR_OUT_OF_RANGE;
    if (margin < 0.0f) return SPX_ERR_INVALID_ARGUMENT;
    return SPX_OK;
}

/* Smallest longest edge (m): products of ten lengths stay in double's normal range. See
   docs/tolerances.md#the-smallest-triangle. */
#define SPX_TRIANGLE_MIN_EDGE 1e-19

/* Segment-like when the area is below this fraction of the longest edge squared. */
#define SPX_TRIANGLE_FLAT_RATIO 1e-6

#endif
