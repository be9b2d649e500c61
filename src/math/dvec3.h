/* Double 3-vectors: products of floats are exact, so near-parallel edge crosses keep their
 * direction. See docs/tolerances.md#where-the-arithmetic-happens. */
#ifndef SPX_DVEC3_H
#define SPX_DVEC3_H

#include <sepax/math_types.h>
#include <math.h>

typedef struct spx_dvec3 {
    double x, y, z;
} spx_dvec3;

static inline spx_dvec3 spx_d3(double x, double y, double z)
{
    spx_dvec3 r = { x, y, z };
    return r;
}
static inline spx_dvec3 spx_d3_from(spx_vec3 v) { return spx_d3(v.x, v.y, v.z); }
static inline spx_vec3 spx_d3_to_float(spx_dvec3 v)
{
    spx_vec3 r = { (float)v.x, (float)v.y, (float)v.z };
    return r;
}
static inline spx_dvec3 spx_d3_add(spx_dvec3 a, spx_dvec3 b) { return spx_d3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline spx_dvec3 spx_d3_sub(spx_dvec3 a, spx_dvec3 b) { return spx_d3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline spx_dvec3 spx_d3_scale(spx_dvec3 a, double s) { return spx_d3(a.x * s, a.y * s, a.z * s); }
static inline spx_dvec3 spx_d3_neg(spx_dvec3 a) { return spx_d3(-a.x, -a.y, -a.z); }
/* For non-NaN values: inline, where fmax and fmin are library calls. */
static inline double spx_dmax(double a, double b) { return a > b ? a : b; }
static inline double spx_dmin(double a, double b) { return a < b ? a : b; }

static inline double spx_d3_dot(spx_dvec3 a, spx_dvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline spx_dvec3 spx_d3_cross(spx_dvec3 a, spx_dvec3 b)
{
    return spx_d3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double spx_d3_len2(spx_dvec3 a) { return spx_d3_dot(a, a); }
static inline double spx_d3_len(spx_dvec3 a) { return sqrt(spx_d3_len2(a)); }
static inline spx_dvec3 spx_d3_mad(spx_dvec3 a, spx_dvec3 b, double s)
{
    return spx_d3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
static inline spx_dvec3 spx_d3_lerp_mid(spx_dvec3 a, spx_dvec3 b) { return spx_d3_scale(spx_d3_add(a, b), 0.5); }

#endif
