/* The box-box manifold for boxes already known to pass spx_obb_validate: the world checks each
   body's boxes once a step when it makes them (dynamics/body.c), where the public query checks both
   boxes at every call, a large part of its cost on a pile's pairs. */
#ifndef SPX_COLLIDE_MANIFOLD_BOX_H
#define SPX_COLLIDE_MANIFOLD_BOX_H

#include <sepax/collide.h>

/* spx_manifold_obb_obb without validating a and b (they must be valid); margin and out are still
   checked. */
spx_result spx_manifold_obb_obb_trusted(const spx_obb* a, const spx_obb* b, float margin, spx_manifold* out);

#endif
