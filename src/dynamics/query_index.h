/* The world's query tree: a leaf a body at its current pose (the broad phase's trees hold the
   predicted motion, not the end pose). See docs/queries.md#how-a-world-answers. */
#ifndef SPX_DYNAMICS_QUERY_INDEX_H
#define SPX_DYNAMICS_QUERY_INDEX_H

#include "world.h"
#include "broad/dynamic_tree.h"
#include <sepax/query.h>

/* The pose a leaf was made for: while the bits match, its box holds the body. */
typedef struct spx_query_key {
    float origin[3];
    float rotation[4];
    uint32_t generation; /* slot generation + 1; 0: no leaf */
} spx_query_key;

struct spx_query_index {
    spx_dynamic_tree tree; /* tree 0: bodies with finite bounds */
    uint32_t* proxies;     /* per body slot, or SPX_TREE_NULL */
    spx_query_key* keys;
    spx_aabb* build_boxes; /* rebuild scratch: capacity boxes, 3 capacity values */
    uint32_t* build_scratch;
    uint32_t capacity;
    uint64_t revision; /* matched world->query_revision */
    bool synced;
};

/* Made on first use, synced to every pose. SPX_ERR_OUT_OF_MEMORY leaves it usable; call again. */
spx_result spx_query_index_sync(spx_world* world, struct spx_query_index** out);

void spx_query_index_destroy(spx_world* world);

/* The shape's box (mesh: root box) as a world AABB; false when the pose is not finite. */
bool spx_query_shape_bounds(const spx_body* b, const spx_body_shape* s, spx_aabb* out);

/* NULL filter: every shape. */
bool spx_query_filter_accepts(const spx_world* world, const spx_query_filter* filter, uint32_t slot, uint32_t shape);

/* NULL when destroyed since the tree last saw it. */
static inline const spx_body* spx_query_body(const spx_world* w, uint32_t slot)
{
    return slot < w->body_slots && w->bodies[slot].alive ? &w->bodies[slot] : NULL;
}

/* A cast callback's answer: 0 stops (false), a smaller fraction clips, negative or NaN ignores. */
static inline bool spx_query_clip(float next, double* max_fraction)
{
    if (!(next >= 0.0f)) return true;
    if (next == 0.0f) return false;
    if (next < *max_fraction) *max_fraction = next;
    return true;
}

#endif
