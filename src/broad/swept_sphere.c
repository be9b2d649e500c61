/* The swept sphere of a body over one step, and its box, both rounded outwards. */
#include "swept_sphere.h"
#include "geometry/validate.h"
#include "math/dvec3.h"
#include "math/simd.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* By the bits, without libm. Infinities stay; NaN never gets here. */
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

#if !SPX_HAS_SIMD
static float float_down(float x) { return -float_up(-x); }
#endif

/* The smallest float not below d >= 0 (FLT_MAX rounds to infinity beyond). */
static float round_up(double d)
{
    float f = (float)d;
    return (double)f < d ? float_up(f) : f;
}

spx_result spx_swept_sphere(spx_vec3 p, spx_vec3 v, spx_vec3 w, spx_vec3 offset, float radius, float margin, float dt,
                            spx_sphere* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(p) || !spx_finite3(v) || !spx_finite3(w) || !spx_finite3(offset) || !isfinite(radius) ||
        !isfinite(margin) || !isfinite(dt))
        return SPX_ERR_NOT_FINITE;
    if (radius < 0.0f || margin < 0.0f) return SPX_ERR_BAD_EXTENT;
    if (dt < 0.0f) return SPX_ERR_BAD_TIME;

    /* |s(t) - c| <= |v| dt/2 + |offset| min(2, |w| dt): the second term bounds the chord of the
       turn. See docs/decisions.md#broad-phase, "Swept sphere". */
    double h = 0.5 * (double)dt;
    double c[3] = { (double)p.x + (double)offset.x + (double)v.x * h, (double)p.y + (double)offset.y + (double)v.y * h,
                    (double)p.z + (double)offset.z + (double)v.z * h };
    /* offset zero (the world's case) adds exactly +0: skip two square roots. */
    const bool centred = offset.x == 0.0f && offset.y == 0.0f && offset.z == 0.0f;
    double spin = 0.0;
    if (!centred) {
        double turn = spx_d3_len(spx_d3_from(w)) * (double)dt;
        spin = spx_d3_len(spx_d3_from(offset)) * (turn < 2.0 ? turn : 2.0);
    }
    double r = (double)radius + spx_d3_len(spx_d3_from(v)) * h + spin + (double)margin;

    /* Grow the radius by the float centre's actual offset plus 2^-48 of the terms (covers the few
       2^-53 double roundings), then round up. */
    spx_vec3 cf = { (float)c[0], (float)c[1], (float)c[2] };
    if (!spx_finite3(cf)) return SPX_ERR_NOT_FINITE;
    double shift = spx_d3_len(spx_d3_sub(spx_d3_from(cf), spx_d3(c[0], c[1], c[2])));
    double terms = fabs((double)p.x) + fabs((double)p.y) + fabs((double)p.z);
    if (!centred) terms = terms + fabs((double)offset.x) + fabs((double)offset.y) + fabs((double)offset.z);
    terms = terms + (fabs((double)v.x) + fabs((double)v.y) + fabs((double)v.z)) * h + r;
    float rf = round_up(r + shift + terms * 0x1p-48);
    if (!isfinite(rf)) return SPX_ERR_NOT_FINITE;

    out->center = cf;
    out->radius = rf;
    return SPX_OK;
}

spx_aabb spx_sphere_aabb(const spx_sphere* s)
{
    /* Rounded to nearest is within half a step, so one step out is outside the exact face. */
    spx_aabb box;
#if SPX_HAS_SIMD
    /* float_down and float_up on three lanes, by the bits as they do (zero to the smallest
       denormal, outer infinity kept). spx_sphere is 16 bytes. */
    const spx_f4 c = spx_f4_load(&s->center.x), r = spx_f4_splat(s->radius), zero = spx_f4_zero();
    const spx_f4 lo = spx_f4_sub(c, r), hi = spx_f4_add(c, r);
    const spx_i4 one = spx_i4_splat(1);
    const spx_i4 lo_bits = spx_f4_as_i4(lo), hi_bits = spx_f4_as_i4(hi);
    /* Down: +1 on the bits of a negative float, -1 on a positive one. Up: the other way. */
    spx_i4 down = spx_i4_add(lo_bits, spx_i4_or(spx_i4_xor(spx_i4_sra31(lo_bits), spx_i4_splat(-1)), one));
    spx_i4 up = spx_i4_add(hi_bits, spx_i4_or(spx_i4_sra31(hi_bits), one));
    const spx_f4 lo_zero = spx_f4_eq(lo, zero), hi_zero = spx_f4_eq(hi, zero);
    const spx_f4 lo_inf = spx_f4_eq(lo, spx_f4_splat(-INFINITY)), hi_inf = spx_f4_eq(hi, spx_f4_splat(INFINITY));
    down = spx_i4_or(spx_i4_andnot(spx_f4_as_i4(lo_zero), down),
                     spx_i4_and(spx_f4_as_i4(lo_zero), spx_i4_splat((int)0x80000001u))); /* -FLT_TRUE_MIN */
    up = spx_i4_or(spx_i4_andnot(spx_f4_as_i4(hi_zero), up), spx_i4_and(spx_f4_as_i4(hi_zero), one));
    down = spx_i4_or(spx_i4_andnot(spx_f4_as_i4(lo_inf), down), spx_i4_and(spx_f4_as_i4(lo_inf), lo_bits));
    up = spx_i4_or(spx_i4_andnot(spx_f4_as_i4(hi_inf), up), spx_i4_and(spx_f4_as_i4(hi_inf), hi_bits));
    float out[8];
    spx_f4_store(out, spx_i4_as_f4(down));
    spx_f4_store(out + 4, spx_i4_as_f4(up));
    for (int i = 0; i < 3; ++i) box.min[i] = out[i], box.max[i] = out[4 + i];
#else
    const float c[3] = { s->center.x, s->center.y, s->center.z };
    for (int i = 0; i < 3; ++i) {
        box.min[i] = float_down(c[i] - s->radius);
        box.max[i] = float_up(c[i] + s->radius);
    }
#endif
    return box;
}
