/* Ray and box casts through a dynamic tree, nearer node first, pruned by the current length. */
#ifndef SPX_BROAD_TREE_CAST_H
#define SPX_BROAD_TREE_CAST_H

#include "dynamic_tree.h"

/* Returns the new length (<= max_fraction), or negative to stop. */
typedef double spx_tree_cast_fn(void* context, uint32_t proxy, uint32_t user, double max_fraction);

/* extent NULL: a ray. Leaves come nearer first along each descent path, not overall. */
void spx_tree_cast(const spx_dynamic_tree* tree, int which, const double origin[3], const double translation[3],
                   const double extent[3], double max_fraction, spx_tree_cast_fn* fn, void* context);

#endif
