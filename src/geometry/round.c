/* Spheres and capsules: validation. */
#include <sepax/round.h>
#include "validate.h"

static spx_result check_round(const spx_vec3* points, int count, float radius)
{
    for (int i = 0; i < count; ++i)
        if (!spx_finite3(points[i])) return SPX_ERR_NOT_FINITE;
    if (!isfinite(radius)) return SPX_ERR_NOT_FINITE;
    for (int i = 0; i < count; ++i)
        if (!spx_in_range3(points[i])) return SPX_ERR_OUT_OF_RANGE;
    if (radius > SPX_MAX_COORDINATE) return SPX_ERR_OUT_OF_RANGE;
    if (radius < 0.0f) return SPX_ERR_BAD_EXTENT;
    return SPX_OK;
}

SPX_API spx_result spx_sphere_validate(const spx_sphere* s)
{
    if (!s) return SPX_ERR_INVALID_ARGUMENT;
    return check_round(&s->center, 1, s->radius);
}

SPX_API spx_result spx_capsule_validate(const spx_capsule* c)
{
    if (!c) return SPX_ERR_INVALID_ARGUMENT;
    return check_round(c->p, 2, c->radius);
}
