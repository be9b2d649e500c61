/* OBB trees over a mesh's triangles: one flat node array, built top-down. */
#ifndef SPX_OBB_TREE_H
#define SPX_OBB_TREE_H

#include "obb_fit.h"

/* 68 bytes; siblings adjacent, so one index names both. */
typedef struct spx_obb_node {
    spx_obb box;    /* mesh coordinates; holds every corner below */
    uint32_t first; /* inner: left child (right = first + 1); leaf: first triangle */
    uint32_t count; /* leaf: 1..leaf_triangles; 0: inner */
} spx_obb_node;

static inline bool spx_obb_node_is_leaf(const spx_obb_node* node) { return node->count != 0; }

/* Splits are never empty: n leaves, n - 1 inner nodes at most. */
static inline uint32_t spx_obb_tree_max_nodes(uint32_t n) { return 2u * n - 1u; }

/* From this depth (root 1) splits are at the median, bounding the depth by this + ceil(log2 n)
   (<= 80) for fixed descent stacks. See docs/decisions.md#meshes. */
#define SPX_OBB_TREE_MEAN_DEPTH 48u

/* Most nodes on a root-to-leaf path. */
static inline uint32_t spx_obb_tree_max_depth(uint32_t n)
{
    uint32_t d = SPX_OBB_TREE_MEAN_DEPTH;
    while (n > 1) n = (n + 1) / 2, ++d;
    return d;
}

/* Builds into nodes (spx_obb_tree_max_nodes(n) room; root 0), reordering tris, moments and source
   together into leaf order. No allocation; deterministic. Returns the node count. n, leaf_max >= 1. */
uint32_t spx_obb_tree_build(spx_triangle* tris, spx_tri_moment* moments, uint32_t* source, uint32_t n,
                            uint32_t leaf_max, spx_obb_node* nodes, uint32_t* out_depth);

#endif
