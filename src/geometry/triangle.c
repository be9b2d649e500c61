/* Triangles: validation. */
#include <sepax/geometry.h>
#include "validate.h"
#include "math/dvec3.h"

SPX_API spx_result spx_triangle_validate(const spx_triangle* t)
{
    if (!t) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(t->v[0]) || !spx_finite3(t->v[1]) || !spx_finite3(t->v[2])) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(t->v[0]) || !spx_in_range3(t->v[1]) || !spx_in_range3(t->v[2])) return SPX_ERR_OUT_OF_RANGE;
    /* Coincident corners: every edge shorter than 1e-6 of the largest coordinate (a relative test,
       so a small triangle near the origin is still a triangle), or than SPX_TRIANGLE_MIN_EDGE, below
       which the queries' products of lengths leave double's normal range (docs/tolerances.md). */
    double scale = 0.0, longest2 = 0.0;
    for (int i = 0; i < 3; ++i) {
        const spx_vec3 p = t->v[i], q = t->v[(i + 1) % 3];
        double m = spx_dmax(fabs(p.x), spx_dmax(fabs(p.y), fabs(p.z)));
        scale = spx_dmax(scale, m);
        double dx = (double)q.x - p.x, dy = (double)q.y - p.y, dz = (double)q.z - p.z;
        longest2 = spx_dmax(longest2, dx * dx + dy * dy + dz * dz);
    }
    double limit = spx_dmax(1e-6 * scale, SPX_TRIANGLE_MIN_EDGE);
    if (longest2 == 0.0 || longest2 <= limit * limit) return SPX_ERR_DEGENERATE_TRIANGLE;
    return SPX_OK;
}
