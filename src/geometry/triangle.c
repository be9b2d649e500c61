/* Triangles: validation. */
#include <sepax/geometry.h>
#include "validate.h"
#include "math/dvec3.h"

SPX_API spx_result spx_triangle_validate(const spx_triangle* t)
{
    if (!t) return SPX_ERR_INVALID_ARGUMENT;
    /* Branch-free pass (NaN fails); only a failing triangle looks again for the fault order. */
    const spx_vec3* v = t->v;
    bool in_range = true;
    float largest = 0.0f;
    for (int i = 0; i < 3; ++i) {
        const float x = fabsf(v[i].x), y = fabsf(v[i].y), z = fabsf(v[i].z);
        in_range &= (x <= SPX_MAX_COORDINATE) & (y <= SPX_MAX_COORDINATE) & (z <= SPX_MAX_COORDINATE);
        largest = x > largest ? x : largest;
        largest = y > largest ? y : largest;
        largest = z > largest ? z : largest;
    }
    if (!in_range) {
        if (!spx_finite3(v[0]) || !spx_finite3(v[1]) || !spx_finite3(v[2])) return SPX_ERR_NOT_FINITE;
        return SPX_ERR_OUT_OF_RANGE;
    }
    /* Coincident: every edge under 1e-6 of the largest coordinate or under SPX_TRIANGLE_MIN_EDGE
       (docs/tolerances.md#the-smallest-triangle). */
    double longest2 = 0.0;
    for (int i = 0; i < 3; ++i) {
        const spx_vec3 p = v[i], q = v[i == 2 ? 0 : i + 1];
        const double dx = (double)q.x - p.x, dy = (double)q.y - p.y, dz = (double)q.z - p.z;
        longest2 = spx_dmax(longest2, dx * dx + dy * dy + dz * dz);
    }
    const double limit = spx_dmax(1e-6 * (double)largest, SPX_TRIANGLE_MIN_EDGE);
    if (longest2 == 0.0 || longest2 <= limit * limit) return SPX_ERR_DEGENERATE_TRIANGLE;
    return SPX_OK;
}
