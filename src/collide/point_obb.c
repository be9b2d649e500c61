/* Whether a box holds a point: its offset from the centre along each axis, in double. */
#include <sepax/query.h>
#include "geometry/validate.h"
#include <math.h>

SPX_API spx_result spx_obb_contains_point(const spx_obb* box, spx_vec3 point, bool* out_inside)
{
    if (!box || !out_inside) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = SPX_OK;
    if (!spx_finite3(point)) r = SPX_ERR_NOT_FINITE;
    else if (!spx_in_range3(point)) r = SPX_ERR_OUT_OF_RANGE;
    if ((r = spx_first_error(r, spx_obb_validate(box))) != SPX_OK) return r;
    const double d[3] = { (double)point.x - box->center.x, (double)point.y - box->center.y,
                          (double)point.z - box->center.z };
    const float* h = &box->half_extents.x;
    bool inside = true;
    for (int i = 0; i < 3 && inside; ++i) {
        const spx_vec3 a = box->rotation.col[i];
        inside = fabs(d[0] * a.x + d[1] * a.y + d[2] * a.z) <= h[i];
    }
    *out_inside = inside;
    return SPX_OK;
}
