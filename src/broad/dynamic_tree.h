/* Two dynamic AABB trees of fat boxes sharing one node pool, so a leaf passes between them without
   allocating. See docs/decisions.md#broad-phase. */
#ifndef SPX_BROAD_DYNAMIC_TREE_H
#define SPX_BROAD_DYNAMIC_TREE_H

#include <sepax/base.h>
#include "aabb.h"

#define SPX_TREE_NULL UINT32_MAX
#define SPX_TREE_COUNT 2

/* Children's height difference bound. A subtree of height h holds L(h) >= L(h-1) + L(max(0,h-4))
   leaves, so h <= 2.16 log2(leaves) <= 65: the fixed query stacks never overflow. */
#define SPX_TREE_SLACK 3
#define SPX_TREE_MAX_HEIGHT 72
#define SPX_TREE_MAX_LEAVES 0x7FFFFFFFu

/* What queries read: 32 bytes, one cache line a node (queries are latency bound). */
typedef struct spx_tree_node {
    spx_aabb box;      /* leaf: fat box; inner: union of the children */
    uint32_t child[2]; /* leaf: child[0] SPX_TREE_NULL, child[1] the user value */
} spx_tree_node;

/* What only structural changes read. */
typedef struct spx_tree_link {
    uint32_t parent; /* SPX_TREE_NULL at a root; free list: next free node */
    uint16_t height; /* 0 for a leaf */
    uint8_t tree;
    uint8_t used; /* 0 while free */
} spx_tree_link;

typedef struct spx_dynamic_tree {
    spx_tree_node* nodes; /* 64-byte aligned; proxies index them */
    spx_tree_link* links; /* same block as nodes */
    uint32_t capacity;
    uint32_t node_count; /* both trees */
    uint32_t leaf_count;
    uint32_t root[SPX_TREE_COUNT]; /* SPX_TREE_NULL when empty */
    uint32_t free_list;
    spx_allocator allocator;
} spx_dynamic_tree;

/* ---- fat boxes: the policy, kept apart from the structure -------------------------------------- */

/* Every side out by `fraction` of the largest extent (relative: any scale), then out along
   `sweep` (m per axis) so a body sliding on stays inside for a few steps. */
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

/* `box` fits in `fat`, and `fat` is at most twice a fresh one (a slowed body sheds far neighbours). */
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

/* NULL allocator: malloc/free. On error the trees are empty and usable. */
spx_result spx_tree_init(spx_dynamic_tree* tree, const spx_allocator* allocator, uint32_t leaf_capacity);

/* The trees are then empty and may be initialised again. */
void spx_tree_destroy(spx_dynamic_tree* tree);

/* Room for `leaf_count` leaves in all, so inserts and passes between trees never allocate.
   On error nothing changes. */
spx_result spx_tree_reserve(spx_dynamic_tree* tree, uint32_t leaf_count);

/* *out_proxy is stable until removed. The only call that grows the pool; on error (out of memory,
   pool full) nothing changes. */
spx_result spx_tree_insert(spx_dynamic_tree* tree, int which, const spx_aabb* fat, uint32_t user, uint32_t* out_proxy);

void spx_tree_remove(spx_dynamic_tree* tree, uint32_t proxy);

/* Fills an empty tree top down at median splits. `order`: scratch of count. On error nothing changes. */
spx_result spx_tree_build(spx_dynamic_tree* tree, int which, const spx_aabb* boxes, const uint32_t* users,
                          uint32_t count, uint32_t* order, uint32_t* out_proxies);

/* Empties tree `which`; the other is untouched. */
void spx_tree_clear(spx_dynamic_tree* tree, int which);

/* Puts a leaf back into tree `which` (either): in place while it stays in that tree and a near
   ancestor's box holds `fat`, else removed and inserted again. Never allocates after spx_tree_reserve. */
void spx_tree_reinsert(spx_dynamic_tree* tree, uint32_t proxy, int which, const spx_aabb* fat);

/* Reinserts with spx_fat_box only when the fat box no longer fits; returns whether it did. */
bool spx_tree_move(spx_dynamic_tree* tree, uint32_t proxy, const spx_aabb* box, float fraction, const float sweep[3]);

/* Return false to stop the query. */
typedef bool spx_tree_query_fn(void* context, uint32_t proxy, uint32_t user);

/* Leaves whose fat box overlaps `box` (touching counts), in tree order. */
void spx_tree_query(const spx_dynamic_tree* tree, int which, const spx_aabb* box, spx_tree_query_fn* fn, void* context);

typedef void spx_tree_pair_fn(void* context, uint32_t user_a, uint32_t user_b);

/* Each overlapping leaf pair once, by descending the tree against itself; the order depends only
   on the sequence of calls. */
void spx_tree_query_pairs(const spx_dynamic_tree* tree, int which, spx_tree_pair_fn* fn, void* context);

/* Skips subtrees whose leaves are all spent (spx_tree_spend, also from fn): a crowd costs about
   n k pairs. Returns whether it skipped an overlapping item. */
bool spx_tree_query_pairs_spent(const spx_dynamic_tree* tree, int which, const uint8_t* spent, spx_tree_pair_fn* fn,
                                void* context);

/* Marks the leaf spent, and each ancestor whose children both are. */
void spx_tree_spend(const spx_dynamic_tree* tree, uint32_t leaf, uint8_t* spent);

/* Each overlapping pair across trees a != b once; fn gets the leaf of `a` first. */
void spx_tree_query_across(const spx_dynamic_tree* tree, int a, int b, spx_tree_pair_fn* fn, void* context);

static inline uint32_t spx_tree_user(const spx_dynamic_tree* tree, uint32_t proxy)
{
    return tree->nodes[proxy].child[1];
}

/* 0 for one leaf or none. */
static inline uint32_t spx_tree_height(const spx_dynamic_tree* tree, int which)
{
    return tree->root[which] == SPX_TREE_NULL ? 0u : tree->links[tree->root[which]].height;
}

#endif
