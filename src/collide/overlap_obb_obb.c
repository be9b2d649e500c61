/* Static box-box overlap: the 15-axis test of Gottschalk, Lin and Manocha (OBBTree, 1996) in float,
 * with |R| + epsilon so that nearly parallel edges, whose cross products are rounding noise, can
 * never make touching boxes look apart. The price is a touch tolerance of about 1e-6 of the boxes'
 * size (docs/tolerances.md). This is the hot yes/no call; the exact answers live in sweep_obb_obb.c. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "overlap_obb_obb.h"

SPX_API spx_result spx_overlap_obb_obb(const spx_obb* a, const spx_obb* b, bool* out_overlap)
{
    if (!a || !b || !out_overlap) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_obb_validate(a), spx_obb_validate(b));
    if (r != SPX_OK) return r;
    *out_overlap = spx_overlap_obb_obb_unchecked(a, b);
    return SPX_OK;
}
