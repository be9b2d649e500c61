/* Casts through a dynamic tree: a ray, or a box swept along a translation (the ray against nodes
   grown by the box's half extents), nearer node first, pruned by the cast's current length, which the
   caller shortens as it finds hits. */
#ifndef SPX_BROAD_TREE_CAST_H
#define SPX_BROAD_TREE_CAST_H

#include "dynamic_tree.h"

/* Called for each leaf whose box the cast reaches within its current length `max_fraction`: returns
   the new length (at most max_fraction; the same to go on unchanged), or a negative value to stop. */
typedef double spx_tree_cast_fn(void* context, uint32_t proxy, uint32_t user, double max_fraction);

/* Casts origin + f * translation, f in [0, max_fraction], through tree `which`; a box of half extents
   `extent` (world axes) when extent is not NULL. Leaves are met in order of where the cast enters
   them along each path of the descent, not overall. */
void spx_tree_cast(const spx_dynamic_tree* tree, int which, const double origin[3], const double translation[3],
                   const double extent[3], double max_fraction, spx_tree_cast_fn* fn, void* context);

#endif
