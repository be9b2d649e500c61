/* The swept sphere of a body over one step, and its box, both rounded outwards. */
#include "swept_sphere.h"
#include "geometry/validate.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The next float above (below) x, by its bits: no libm call (the library calls none). Infinities
   stay; NaN never gets here (inputs are checked). */
static float float_up(float x)
{
    if (x == 0.0f) return FLT_TRUE_MIN;
    if (x == INFINITY) return x;
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    b = x > 0.0f ? b + 1u : b - 1u;
    memcpy(&x, &b, sizeof x);
    return x;
}

static float float_down(float x)
{
    return -float_up(-x);
}

/* The smallest float not below d >= 0 (FLT_MAX rounds to infinity beyond). */
static float round_up(double d)
{
    float f = (float)d;
    return (double)f < d ? float_up(f) : f;
}

static double dlen(double x, double y, double z)
{
    return sqrt(x * x + y * y + z * z);
}

spx_result spx_swept_sphere(spx_vec3 p, spx_vec3 v, spx_vec3 w, spx_vec3 offset, float radius, float margin, float dt,
                            spx_sphere* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(p) || !spx_finite3(v) || !spx_finite3(w) || !spx_finite3(offset) || !isfinite(radius)
        || !isfinite(margin) || !isfinite(dt))
        return SPX_ERR_NOT_FINITE;
    if (radius < 0.0f || margin < 0.0f) return SPX_ERR_BAD_EXTENT;
    if (dt < 0.0f) return SPX_ERR_BAD_TIME;

    /* Over [0, dt] a point q of the body is at x(t) + R(t)(q0 - p), with x(t) = p + v t and R(t)
       the turn by w t. Every point of the body is within `radius` of the sphere centre
       s(t) = x(t) + R(t) offset, since a rotation keeps distances. From the middle of the motion,
       c = p + offset + v dt/2:
           |s(t) - c| <= |v| |t - dt/2| + |R(t) offset - offset| <= |v| dt/2 + |offset| min(2, |w| dt),
       the second term being the chord of a turn of angle |w| t <= |w| dt (2 |offset| sin(angle/2),
       at most the arc and at most the diameter). With the bounding sphere centred at the centre of
       mass (offset 0) rotation costs nothing: a body turning about its centre of mass keeps every
       point within `radius` of it, whatever the angle. */
    double h = 0.5 * (double)dt;
    double c[3] = { (double)p.x + (double)offset.x + (double)v.x * h, (double)p.y + (double)offset.y + (double)v.y * h,
                    (double)p.z + (double)offset.z + (double)v.z * h };
    double turn = dlen(w.x, w.y, w.z) * (double)dt;
    double r = (double)radius + dlen(v.x, v.y, v.z) * h + dlen(offset.x, offset.y, offset.z) * (turn < 2.0 ? turn : 2.0)
             + (double)margin;

    /* The float centre is off the double one by up to half a float step: grow the radius by the
       distance actually made, plus the double roundings above (a few, each at most 2^-53 of the
       terms' magnitudes; 2^-48 of their sum covers them all), then round up to a float. The
       radius is therefore a float step or so larger than the exact one. */
    spx_vec3 cf = { (float)c[0], (float)c[1], (float)c[2] };
    if (!spx_finite3(cf)) return SPX_ERR_NOT_FINITE;
    double shift = dlen((double)cf.x - c[0], (double)cf.y - c[1], (double)cf.z - c[2]);
    double terms = fabs((double)p.x) + fabs((double)p.y) + fabs((double)p.z) + fabs((double)offset.x)
                 + fabs((double)offset.y) + fabs((double)offset.z)
                 + (fabs((double)v.x) + fabs((double)v.y) + fabs((double)v.z)) * h + r;
    float rf = round_up(r + shift + terms * 0x1p-48);
    if (!isfinite(rf)) return SPX_ERR_NOT_FINITE;

    out->center = cf;
    out->radius = rf;
    return SPX_OK;
}

spx_aabb spx_sphere_aabb(const spx_sphere* s)
{
    /* c + r rounded to nearest is off by at most half a step at the result, so one step further
       out is always outside the exact face. */
    const float c[3] = { s->center.x, s->center.y, s->center.z };
    spx_aabb box;
    for (int i = 0; i < 3; ++i) {
        box.min[i] = float_down(c[i] - s->radius);
        box.max[i] = float_up(c[i] + s->radius);
    }
    return box;
}
