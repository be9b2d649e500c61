/* Dynamic AABB trees over proxies with enlarged ("fat") boxes: a proxy whose new box still fits its
   fat box costs nothing, one that leaves it is taken out and put back in. Two trees share one node
   pool (the pair finder keeps moving bodies in one and static or sleeping ones in the other), so a
   leaf can pass from one to the other without allocating. Insertion by surface area, rotations by
   area within a height bound. After Box2D's b2DynamicTree and Bullet's btDbvt in idea; written
   for sepax. */
#ifndef SPX_BROAD_DYNAMIC_TREE_H
#define SPX_BROAD_DYNAMIC_TREE_H

#include <sepax/base.h>
#include "aabb.h"

#define SPX_TREE_NULL UINT32_MAX
#define SPX_TREE_COUNT 2

/* The two children of a node differ in height by at most this. 1 would be an AVL tree; 3 leaves
   room for rotations that shrink boxes, so a query opens fewer nodes (bench/README.md), and still
   bounds the height: a subtree of height h holds at least L(h) = L(h - 1) + L(max(0, h - 4)) leaves,
   L(0) = 1, so h <= 2.16 log2(leaves), at most 65 for the most leaves a pool can hold. */
#define SPX_TREE_SLACK 3
#define SPX_TREE_MAX_HEIGHT 72
#define SPX_TREE_MAX_LEAVES 0x7FFFFFFFu

/* What the queries read, 32 bytes (two to a cache line, none across two): queries are bound by
   the memory latency of visiting nodes. */
typedef struct spx_tree_node {
    spx_aabb box;      /* leaf: its fat box; inner node: the union of its children's boxes */
    uint32_t child[2]; /* inner: the children; leaf: child[0] is SPX_TREE_NULL, child[1] the user value */
} spx_tree_node;

/* What only structural changes read, in an array of its own. */
typedef struct spx_tree_link {
    uint32_t parent; /* SPX_TREE_NULL at a root; on the free list: the next free node */
    uint16_t height; /* 0 for a leaf */
    uint8_t tree;    /* which of the trees the node belongs to */
    uint8_t used;    /* 0 while on the free list */
} spx_tree_link;

typedef struct spx_dynamic_tree {
    spx_tree_node* nodes; /* capacity nodes, 64-byte aligned; proxies are indices into them */
    spx_tree_link* links; /* capacity entries, beside the nodes in one block */
    uint32_t capacity;
    uint32_t node_count;           /* in use, both trees */
    uint32_t leaf_count;           /* both trees */
    uint32_t root[SPX_TREE_COUNT]; /* SPX_TREE_NULL for an empty tree */
    uint32_t free_list;
    spx_allocator allocator;
} spx_dynamic_tree;

/* ---- fat boxes: the policy, kept apart from the structure -------------------------------------- */

/* The fat box of a tight box: every side pushed out by `fraction` of the box's largest extent
   (relative rather than in metres, so the rule holds at any scale), and then the side that
   `sweep` (m, per axis) points to pushed out by it: a box that keeps sliding that way stays inside
   for a few steps. */
static inline spx_aabb spx_fat_box(const spx_aabb* box, float fraction, const float sweep[3])
{
    float m = 2.0f * fraction * spx_aabb_largest_half(box);
    spx_aabb f = *box;
    for (int k = 0; k < 3; ++k) {
        if (m > 0.0f) f.min[k] -= m, f.max[k] += m;
        if (sweep && sweep[k] > 0.0f) f.max[k] += sweep[k];
        if (sweep && sweep[k] < 0.0f) f.min[k] += sweep[k];
    }
    return f;
}

/* Whether a leaf whose fat box is `fat` may keep it for the tight box `box`: the box fits, and the
   fat box is not more than twice the size a fresh one would have (else it would keep meeting
   neighbours that a body that slowed down no longer comes near). */
static inline bool spx_fat_box_fits(const spx_aabb* fat, const spx_aabb* box, float fraction, const float sweep[3])
{
    if (!spx_aabb_contains(fat, box)) return false;
    float s = 0.0f;
    for (int k = 0; sweep && k < 3; ++k) {
        float a = sweep[k] < 0.0f ? -sweep[k] : sweep[k];
        s = a > s ? a : s;
    }
    return spx_aabb_largest_half(fat) <= 2.0f * (spx_aabb_largest_half(box) * (1.0f + 2.0f * fraction) + 0.5f * s);
}

/* ---- the trees ---------------------------------------------------------------------------------- */

/* Two empty trees with room for `leaf_capacity` leaves (0: none yet). NULL allocator:
   malloc/free. SPX_ERR_OUT_OF_MEMORY, SPX_ERR_INVALID_ARGUMENT (capacity above
   SPX_TREE_MAX_LEAVES): the trees are then empty and may be destroyed or used. */
spx_result spx_tree_init(spx_dynamic_tree* tree, const spx_allocator* allocator, uint32_t leaf_capacity);

/* Gives back the node pool. The trees are then empty and may be initialised again. */
void spx_tree_destroy(spx_dynamic_tree* tree);

/* Room for `leaf_count` leaves in all: inserting up to that many, and passing leaves between the
   trees, allocates nothing. SPX_ERR_OUT_OF_MEMORY (nothing changed), SPX_ERR_INVALID_ARGUMENT
   (above SPX_TREE_MAX_LEAVES). */
spx_result spx_tree_reserve(spx_dynamic_tree* tree, uint32_t leaf_count);

/* A new leaf in tree `which` (below SPX_TREE_COUNT) with the fat box `fat`, carrying `user`.
   *out_proxy: its node, stable until it is removed. The only call that grows the pool:
   SPX_ERR_OUT_OF_MEMORY and SPX_ERR_INVALID_ARGUMENT (pool full) change nothing. */
spx_result spx_tree_insert(spx_dynamic_tree* tree, int which, const spx_aabb* fat, uint32_t user, uint32_t* out_proxy);

/* Takes a leaf out; its node goes back to the pool. */
void spx_tree_remove(spx_dynamic_tree* tree, uint32_t proxy);

/* Fills the empty tree `which` with `count` leaves at once, fat boxes `boxes` and user values
   `users`, their proxies into `out_proxies`: split top down at the median of the boxes' centres
   along the widest spread, so the tree is balanced. `order` is scratch for count values. Costs a
   few sorts' worth instead of count insertions, for the continuous stage's thousands of paths.
   SPX_ERR_INVALID_ARGUMENT when the tree is not empty, SPX_ERR_OUT_OF_MEMORY when the pool cannot
   grow; both change nothing. */
spx_result spx_tree_build(spx_dynamic_tree* tree, int which, const spx_aabb* boxes, const uint32_t* users,
                          uint32_t count, uint32_t* order, uint32_t* out_proxies);

/* Empties tree `which`: every node back to the pool, the other tree untouched. */
void spx_tree_clear(spx_dynamic_tree* tree, int which);

/* Takes a leaf out and puts it back with the fat box `fat` into tree `which` (its own or the
   other). Never allocates once spx_tree_reserve made room for every leaf. */
void spx_tree_reinsert(spx_dynamic_tree* tree, uint32_t proxy, int which, const spx_aabb* fat);

/* The leaf's tight box is now `box`: nothing happens while its fat box still fits
   (spx_fat_box_fits); otherwise it is put back with spx_fat_box(box, fraction, sweep). Never
   allocates. Returns whether it was put back. */
bool spx_tree_move(spx_dynamic_tree* tree, uint32_t proxy, const spx_aabb* box, float fraction, const float sweep[3]);

/* Called for each leaf met; return false to stop the query. */
typedef bool spx_tree_query_fn(void* context, uint32_t proxy, uint32_t user);

/* Every leaf of tree `which` whose fat box overlaps `box` (touching counts), in tree order. */
void spx_tree_query(const spx_dynamic_tree* tree, int which, const spx_aabb* box, spx_tree_query_fn* fn, void* context);

/* Called for each pair of leaves met. */
typedef void spx_tree_pair_fn(void* context, uint32_t user_a, uint32_t user_b);

/* Every pair of distinct leaves of tree `which` whose fat boxes overlap (touching counts), each
   once, by one simultaneous descent of the tree against itself; the order is fixed by the tree's
   shape, which the sequence of calls fixes. */
void spx_tree_query_pairs(const spx_dynamic_tree* tree, int which, spx_tree_pair_fn* fn, void* context);

/* spx_tree_query_pairs without the parts whose pairs are all of spent leaves: `spent` holds a flag
   a node (tree capacity), set with spx_tree_spend, which fn may call as it goes. An item of the
   descent under spent nodes only is left out whole, so a descent over n leaves of which the caller
   wants at most k pairs each meets about n k pairs, not every overlapping one (a crowd in one
   spot). Returns whether it left out an item whose boxes overlap. */
bool spx_tree_query_pairs_spent(const spx_dynamic_tree* tree, int which, const uint8_t* spent, spx_tree_pair_fn* fn,
                                void* context);

/* Marks leaf `leaf` spent, and each ancestor whose two children now are. */
void spx_tree_spend(const spx_dynamic_tree* tree, uint32_t leaf, uint8_t* spent);

/* Every pair of a leaf of tree `a` and a leaf of tree `b` (a != b) whose fat boxes overlap, each
   once; fn gets the user of the leaf in `a` first. */
void spx_tree_query_across(const spx_dynamic_tree* tree, int a, int b, spx_tree_pair_fn* fn, void* context);

/* The user value of a leaf. */
static inline uint32_t spx_tree_user(const spx_dynamic_tree* tree, uint32_t proxy)
{
    return tree->nodes[proxy].child[1];
}

/* Height of tree `which` (0 for one leaf or none). */
static inline uint32_t spx_tree_height(const spx_dynamic_tree* tree, int which)
{
    return tree->root[which] == SPX_TREE_NULL ? 0u : tree->links[tree->root[which]].height;
}

#endif
