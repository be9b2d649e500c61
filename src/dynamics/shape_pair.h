/* The queries of a shape pair with a sphere, a capsule or a convex hull in it, for the contacts, the
 * continuous stage and sensors: one dispatch over the pair of kinds (shape_pair.c). Box-box, box-mesh
 * and mesh-mesh pairs keep the callers' own paths (trusted boxes, the buffered mesh pairs). */
#ifndef SPX_DYNAMICS_SHAPE_PAIR_H
#define SPX_DYNAMICS_SHAPE_PAIR_H

#include "shape_hull.h"

/* Whether the pair goes through the queries below: one of them is round or a hull. */
static inline bool spx_shape_pair_placed(const spx_body_shape* a, const spx_body_shape* b)
{
    return spx_shape_is_round(a) || spx_shape_is_round(b) || spx_shape_is_hull(a) || spx_shape_is_hull(b);
}

/* Manifolds of the pair into out[0 .. capacity); returns how many. *flip: the normals point from b to
   a. A mesh in the pair must be posed by the caller. No manifold for a pose the queries refuse. */
uint32_t spx_shape_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                  uint32_t capacity, bool* flip);

/* Do they overlap or touch? false for a pose the queries refuse. */
bool spx_shape_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b);

/* First contact of the pair translating at va and vb over [0, tmax], normal from a to b, each grown by
   its `grow`. A hull or a mesh cannot grow: its partner takes its growth, and when neither can, the
   hull's faces are pushed out by both (spx_hull_query_sweep_margin). false for a pose or motion the
   queries refuse. */
bool spx_shape_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out);

#endif
