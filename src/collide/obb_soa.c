/* Boxes as structure of arrays, for the batched queries. */
#include <sepax/collide.h>
#include "obb_soa.h"

SPX_API spx_result spx_obb_soa_set_box(spx_obb_soa* soa, size_t index, const spx_obb* box)
{
    if (!soa || index >= soa->capacity) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_obb_validate(box);
    if (r != SPX_OK) return r;
    const float* c = &box->center.x;
    const float* h = &box->half_extents.x;
    for (int k = 0; k < 3; ++k) {
        soa->center[k][index] = c[k];
        soa->half_extents[k][index] = h[k];
        const float* axis = &box->rotation.col[k].x;
        for (int m = 0; m < 3; ++m) soa->axis[k][m][index] = axis[m];
    }
    return SPX_OK;
}
