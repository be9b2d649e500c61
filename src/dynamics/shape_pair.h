/* One dispatch for shape pairs with a sphere, capsule or hull; box and mesh pairs keep their own
 * paths. */
#ifndef SPX_DYNAMICS_SHAPE_PAIR_H
#define SPX_DYNAMICS_SHAPE_PAIR_H

#include "shape_hull.h"

static inline bool spx_shape_pair_placed(const spx_body_shape* a, const spx_body_shape* b)
{
    return spx_shape_is_round(a) || spx_shape_is_round(b) || spx_shape_is_hull(a) || spx_shape_is_hull(b);
}

/* Returns the count. *flip: normals from b to a. A mesh must be posed. Refused poses: none. */
uint32_t spx_shape_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                  uint32_t capacity, bool* flip);

/* Touching counts; false for a refused pose. */
bool spx_shape_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b);

/* Normal a to b, each grown by `grow`; a hull or mesh's growth goes to its partner, or with
   neither round to the hull's faces. false when refused. */
bool spx_shape_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out);

#endif
