/* A dynamic AABB tree over proxies with enlarged ("fat") boxes: a proxy whose new box still fits
   its fat box costs nothing, one that leaves it is taken out and put back in. Kept balanced by AVL
   rotations, so its height stays below 1.45 log2(leaves + 2). After Box2D's b2DynamicTree and
   Bullet's btDbvt in idea; written for sepax. */
#ifndef SPX_BROAD_DYNAMIC_TREE_H
#define SPX_BROAD_DYNAMIC_TREE_H

#include <sepax/base.h>
#include "aabb.h"

#define SPX_TREE_NULL UINT32_MAX

/* An AVL tree of n leaves is at most 1.4405 log2(n + 2) high, under 46 for the most leaves a tree
   can hold (SPX_TREE_MAX_LEAVES): the traversals' fixed stacks are sized for this height. */
#define SPX_TREE_MAX_HEIGHT 64
#define SPX_TREE_MAX_LEAVES 0x7FFFFFFFu

typedef struct spx_tree_node {
    spx_aabb box;      /* leaf: its fat box; inner node: the union of its children's boxes */
    uint32_t parent;   /* SPX_TREE_NULL at the root; on the free list: the next free node */
    uint32_t child[2]; /* SPX_TREE_NULL for a leaf */
    uint32_t user;     /* leaf: the caller's value (the body); inner: unused */
    uint16_t height;   /* 0 for a leaf */
    uint8_t active;    /* leaf: the caller's flag; inner: some leaf below has it */
    uint8_t used;      /* 0 while on the free list */
} spx_tree_node;

typedef struct spx_dynamic_tree {
    spx_tree_node* nodes; /* capacity nodes, 64-byte aligned; proxies are indices into it */
    uint32_t capacity;
    uint32_t node_count;  /* in use */
    uint32_t leaf_count;
    uint32_t root;        /* SPX_TREE_NULL when empty */
    uint32_t free_list;
    float fat_fraction;   /* an active leaf's box grows by this times its largest extent on every side */
    spx_allocator allocator;
} spx_dynamic_tree;

/* An empty tree with room for `leaf_capacity` leaves (0: none yet). `fat_fraction` >= 0 (a finite
   float) sets the margin of active leaves. NULL allocator: malloc/free. SPX_ERR_OUT_OF_MEMORY
   (the tree is then empty and may be destroyed or used). */
spx_result spx_tree_init(spx_dynamic_tree* tree, const spx_allocator* allocator, uint32_t leaf_capacity,
                         float fat_fraction);

/* Gives back the node pool. The tree is then empty and may be initialised again. */
void spx_tree_destroy(spx_dynamic_tree* tree);

/* Room for `leaf_count` leaves in all, so that inserting up to that many allocates nothing.
   SPX_ERR_OUT_OF_MEMORY (nothing changed), SPX_ERR_INVALID_ARGUMENT (above SPX_TREE_MAX_LEAVES). */
spx_result spx_tree_reserve(spx_dynamic_tree* tree, uint32_t leaf_count);

/* A new leaf for `box` (tight; an active leaf gets the fat box around it, an inactive one the box
   itself), carrying `user`. *out_proxy: its node, stable until it is removed. The only call that
   grows the pool: SPX_ERR_OUT_OF_MEMORY and SPX_ERR_INVALID_ARGUMENT (tree full) change nothing. */
spx_result spx_tree_insert(spx_dynamic_tree* tree, const spx_aabb* box, uint32_t user, bool active,
                           uint32_t* out_proxy);

/* Takes a leaf out; its node goes back to the pool. */
void spx_tree_remove(spx_dynamic_tree* tree, uint32_t proxy);

/* The leaf's tight box is now `box`. Nothing happens while the box fits the leaf's fat box and the
   fat box is not more than twice too big (a fast body that slowed down); otherwise the leaf is
   taken out and put back with a new fat box. Never allocates. Returns whether it was put back. */
bool spx_tree_move(spx_dynamic_tree* tree, uint32_t proxy, const spx_aabb* box);

/* Sets a leaf's active flag (the pair query reports only pairs with an active leaf). */
void spx_tree_set_active(spx_dynamic_tree* tree, uint32_t proxy, bool active);

/* Called for each leaf met; return false to stop the query. */
typedef bool spx_tree_query_fn(void* context, uint32_t proxy, uint32_t user);

/* Every leaf whose fat box overlaps `box` (touching counts), in tree order. */
void spx_tree_query(const spx_dynamic_tree* tree, const spx_aabb* box, spx_tree_query_fn* fn, void* context);

/* Called for each pair of leaves met. */
typedef void spx_tree_pair_fn(void* context, uint32_t user_a, uint32_t user_b);

/* Every pair of distinct leaves whose fat boxes overlap (touching counts) and of which at least
   one is active, each once, in an order fixed by the tree's shape (which the sequence of calls
   fixes). One simultaneous descent of the tree against itself: subtrees with no active leaf are
   never opened against each other. */
void spx_tree_query_pairs(const spx_dynamic_tree* tree, spx_tree_pair_fn* fn, void* context);

/* Height of the tree (0 for one leaf or none). */
static inline uint32_t spx_tree_height(const spx_dynamic_tree* tree)
{
    return tree->root == SPX_TREE_NULL ? 0u : tree->nodes[tree->root].height;
}

#endif
