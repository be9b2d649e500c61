/* Input checks shared by the constructors and every query, and the one order in which their
 * errors are reported (base.h): pointers, then non-finite values, then values out of range, then
 * the shape of each piece, then the interval or margin. Each check below returns the first of
 * its own faults in that order; spx_first_error combines the checks of several inputs. */
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

/* Rank of a fault in the documented order, lower first. Pointer faults never reach here (each
   entry returns them before anything else), so an SPX_ERR_INVALID_ARGUMENT seen here is a bad
   scalar (a negative margin) and ranks with the interval. */
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

/* The fault to report of two inputs' checks: the earlier in the order, ties to the first. */
static inline spx_result spx_first_error(spx_result first, spx_result second)
{
    return spx_error_rank(second) < spx_error_rank(first) ? second : first;
}

/* Velocities and the interval of a swept query: each velocity component times |tmax| is a
   distance travelled and must be in range (in double: the product of two floats is exact). */
static inline spx_result spx_check_motion(spx_vec3 velocity_a, spx_vec3 velocity_b, float tmax)
{
    if (!spx_finite3(velocity_a) || !spx_finite3(velocity_b) || !isfinite(tmax)) return SPX_ERR_NOT_FINITE;
    const float v[6] = { velocity_a.x, velocity_a.y, velocity_a.z, velocity_b.x, velocity_b.y, velocity_b.z };
    float fastest = 0.0f; /* the largest |component|, exact in float (all finite here) */
    for (int i = 0; i < 6; ++i) fastest = fabsf(v[i]) > fastest ? fabsf(v[i]) : fastest;
    if ((double)fastest * fabs((double)tmax) > (double)SPX_MAX_COORDINATE) return SPX_ERR_OUT_OF_RANGE;
    if (tmax < 0.0f) return SPX_ERR_BAD_TIME;
    return SPX_OK;
}

/* A contact margin: finite, in range, not negative. */
static inline spx_result spx_check_margin(float margin)
{
    if (!isfinite(margin)) return SPX_ERR_NOT_FINITE;
    if (margin > SPX_MAX_COORDINATE) return SPX_ERR_OUT_OF_RANGE;
    if (margin < 0.0f) return SPX_ERR_INVALID_ARGUMENT;
    return SPX_OK;
}

/* The shortest longest edge of a triangle (m), about the square root of FLT_MIN. The triangle
   queries compare depths across axes by products of up to ten lengths (a depth squared times two
   squared face normals); at 1e-19 m these stay near 1e-190, far inside double's normal range even
   for thin triangles and shallow depths, where below about 1e-30 m they underflow and the
   comparisons, hence normals and depths, become arbitrary. */
#define SPX_TRIANGLE_MIN_EDGE 1e-19

/* Segment-like when the area is below this fraction of the longest edge squared. */
#define SPX_TRIANGLE_FLAT_RATIO 1e-6

#endif
