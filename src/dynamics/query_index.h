/* The world's query tree: one leaf a body, over the bounds of its shapes at its current pose, for the
   ray casts, box casts and overlap queries (query.h). The broad phase's own trees hold the boxes of
   the motion a step predicted before its solver ran (and a fast body's box where it started), so they
   do not bound where the bodies are after the step; this tree does, and is brought up to date on the
   first query after anything moved (world->query_revision), visiting each body once and changing only
   the leaves of bodies that left their fat boxes. */
#ifndef SPX_DYNAMICS_QUERY_INDEX_H
#define SPX_DYNAMICS_QUERY_INDEX_H

#include "world.h"
#include "broad/dynamic_tree.h"
#include <sepax/query.h>

/* What a body's leaf was made for: while these are the same bits, its box still holds the body. */
typedef struct spx_query_key {
    float origin[3];
    float rotation[4];
    uint32_t generation; /* the slot's generation, + 1 while the key is set (0: no leaf) */
} spx_query_key;

struct spx_query_index {
    spx_dynamic_tree tree; /* tree 0: every body with finite bounds */
    uint32_t* proxies;     /* per body slot: its leaf, or SPX_TREE_NULL */
    spx_query_key* keys;   /* per body slot */
    spx_aabb* build_boxes; /* scratch of a rebuild: capacity boxes, and 3 capacity values */
    uint32_t* build_scratch;
    uint32_t capacity;
    uint64_t revision; /* the world->query_revision it matches */
    bool synced;       /* false until the first sync */
};

/* The query tree, made on first use and brought up to date with every body's pose. Allocates only
   to grow; SPX_ERR_OUT_OF_MEMORY leaves it usable and the next call tries again. */
spx_result spx_query_index_sync(spx_world* world, struct spx_query_index** out);

/* Frees the tree (NULL index is fine). */
void spx_query_index_destroy(spx_world* world);

/* The world axis-aligned box of a shape's box (a mesh: its tree's root box) at the body's pose, as
   spx_world_overlap_aabb compares it. false when the pose is not finite. */
bool spx_query_shape_bounds(const spx_body* b, const spx_body_shape* s, spx_aabb* out);

/* Does the filter see shape `shape` of body `slot`? NULL filter: every shape. */
bool spx_query_filter_accepts(const spx_world* world, const spx_query_filter* filter, uint32_t slot, uint32_t shape);

/* The live body in a leaf's slot, or NULL when it was destroyed since the tree last saw it. */
static inline const spx_body* spx_query_body(const spx_world* w, uint32_t slot)
{
    return slot < w->body_slots && w->bodies[slot].alive ? &w->bodies[slot] : NULL;
}

/* Takes a cast callback's answer: 0 stops the cast (returns false), a fraction below the clip
   becomes the clip, a negative or NaN answer leaves it as it was. */
static inline bool spx_query_clip(float next, double* max_fraction)
{
    if (!(next >= 0.0f)) return true;
    if (next == 0.0f) return false;
    if (next < *max_fraction) *max_fraction = next;
    return true;
}

#endif
