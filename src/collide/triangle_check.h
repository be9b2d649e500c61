/* spx_triangle_validate's verdict for the sweeps' and static queries' triangles in one vector pass: a triangle
 * surely valid is accepted here, every other goes to spx_triangle_validate for its documented error. */
#ifndef SPX_TRIANGLE_CHECK_H
#define SPX_TRIANGLE_CHECK_H

#include <sepax/geometry.h>
#include "geometry/validate.h"
#include "math/simd.h"
#include <string.h>

/* Accepted: every |coordinate| <= SPX_MAX_COORDINATE (NaN fails), the largest >= 1e-6 (so the edge limit
   1e-6 largest >= 1e-12 keeps float squares normal), and the longest edge squared in float, whose relative
   error is below 6 * 2^-24, above the limit squared by 1e-5. */
static inline spx_result spx_triangle_check(const spx_triangle* t)
{
    float c[12] = { 0 };
    memcpy(c, t->v, 9 * sizeof(float));
    /* (x0, y0, z0, x1), (x1, y1, z1, x2), (x2, y2, z2, 0): corner k in lanes 0..2 of v[k] */
    const spx_f4 v0 = spx_f4_load(c), v1 = spx_f4_load(c + 3), v2 = spx_f4_load(c + 6);
    const spx_f4 sign = spx_f4_splat(-0.0f), top = spx_f4_splat(SPX_MAX_COORDINATE);
    const spx_f4 a0 = spx_f4_andnot(sign, v0), a1 = spx_f4_andnot(sign, v1), a2 = spx_f4_andnot(sign, v2);
    const spx_f4 in_range = spx_f4_and(spx_f4_and(spx_f4_le(a0, top), spx_f4_le(a1, top)), spx_f4_le(a2, top));
    spx_f4 largest = spx_f4_max(spx_f4_max(a0, a1), a2);
    largest = spx_f4_max(largest, spx_f4_movehl(largest, largest));
    largest = spx_f4_max(largest, SPX_F4_LANE(largest, 1));
    const spx_f4 e0 = spx_f4_sub(v1, v0), e1 = spx_f4_sub(v2, v1), e2 = spx_f4_sub(v0, v2);
    spx_f4 s0 = spx_f4_mul(e0, e0), s1 = spx_f4_mul(e1, e1), s2 = spx_f4_mul(e2, e2), s3 = spx_f4_zero();
    spx_f4_transpose(&s0, &s1, &s2, &s3); /* lane k of s0 + s1 + s2: |edge k|^2 */
    spx_f4 longest = spx_f4_add(spx_f4_add(s0, s1), s2);
    longest = spx_f4_max(longest, spx_f4_movehl(longest, longest));
    longest = spx_f4_max(longest, SPX_F4_LANE(longest, 1));
    const double big = spx_f4_first(largest), limit = 1e-6 * big;
    if (spx_f4_mask(in_range) == 0xF && big >= 1e-6 && (double)spx_f4_first(longest) * (1.0 - 1e-5) > limit * limit)
        return SPX_OK;
    return spx_triangle_validate(t);
}

#endif
