/* The box-box manifold for boxes known valid: the world checks each body's boxes once a step
   (dynamics/body.c) instead of at every call, a large part of a pile's cost. */
#ifndef SPX_COLLIDE_MANIFOLD_BOX_H
#define SPX_COLLIDE_MANIFOLD_BOX_H

#include <sepax/collide.h>

/* spx_manifold_obb_obb without validating a and b (they must be valid); margin still checked. The
   reference face is clipped grown by `slide` (m, >= 0): what slides over its rim within the step. */
spx_result spx_manifold_obb_obb_trusted(const spx_obb* a, const spx_obb* b, float margin, float slide,
                                        spx_manifold* out);

#endif
