/* OBB trees over a mesh's triangles: one flat node array, built top-down. */
#ifndef SPX_OBB_TREE_H
#define SPX_OBB_TREE_H

#include "obb_fit.h"

/* 68 bytes. Children of an inner node are adjacent, so one index names both: a descent that
   visits both touches neighbouring memory. */
typedef struct spx_obb_node {
    spx_obb box;    /* in the mesh's own coordinates; holds every corner of every triangle below */
    uint32_t first; /* inner node: index of the left child (the right one is first + 1); leaf: first triangle */
    uint32_t count; /* leaf: its triangles, 1..leaf_triangles; 0 marks an inner node */
} spx_obb_node;

static inline bool spx_obb_node_is_leaf(const spx_obb_node* node) { return node->count != 0; }

/* Most nodes a tree over n >= 1 triangles can have: every split makes two non-empty sides, so at
   most n leaves and n - 1 inner nodes. */
static inline uint32_t spx_obb_tree_max_nodes(uint32_t n) { return 2u * n - 1u; }

/* Nodes at this depth (the root is 1) and deeper split at the median, not the mean. Mean splits
   follow the shape, but a cluster with far outliers loses one outlier a level, and enough such
   levels would make the build O(n^2) and the tree n deep; median splits from this depth on bound
   the depth by SPX_OBB_TREE_MEAN_DEPTH + ceil(log2 n) (at most 80), so a descent can use a fixed
   stack. Real meshes never get this deep: a 1M-triangle torus is 20 deep. */
#define SPX_OBB_TREE_MEAN_DEPTH 48u

/* Most nodes on a root-to-leaf path of a tree over n triangles. */
static inline uint32_t spx_obb_tree_max_depth(uint32_t n)
{
    uint32_t d = SPX_OBB_TREE_MEAN_DEPTH;
    while (n > 1) n = (n + 1) / 2, ++d; /* ceil(log2 n) halvings */
    return d;
}

/* Builds the tree over tris[0..n) into nodes (room for spx_obb_tree_max_nodes(n)); nodes[0] is the
   root. Reorders tris, moments (moments[i] belongs to tris[i]) and source (any per-triangle tag)
   together, so that leaf [first, first + count) is tris[first .. first + count). Allocates nothing;
   deterministic. Returns the node count; *out_depth gets the longest root-to-leaf path in nodes.
   Needs n >= 1 and 1 <= leaf_max. */
uint32_t spx_obb_tree_build(spx_triangle* tris, spx_tri_moment* moments, uint32_t* source, uint32_t n,
                            uint32_t leaf_max, spx_obb_node* nodes, uint32_t* out_depth);

#endif
