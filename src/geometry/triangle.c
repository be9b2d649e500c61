/* Triangles: validation. */
#include <sepax/geometry.h>
#include "validate.h"
#include "math/dvec3.h"

SPX_API spx_result spx_triangle_validate(const spx_triangle* t)
{
    if (!t) return SPX_ERR_INVALID_ARGUMENT;
    /* One pass over the nine coordinates, without branches: each |c| <= SPX_MAX_COORDINATE (false
       for NaN), and the largest. Only a triangle that fails looks again, for the documented order
       of its faults. */
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
    /* Coincident corners: every edge shorter than 1e-6 of the largest coordinate (a relative test,
       so a small triangle near the origin is still a triangle), or than SPX_TRIANGLE_MIN_EDGE, below
       which the queries' products of lengths leave double's normal range (docs/tolerances.md). */
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
