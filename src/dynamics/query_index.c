/* The world's query tree (query_index.h) and what every world query shares: shape bounds, filters. */
#include "query_index.h"
#include "core/allocator.h"
#include <math.h>
#include <string.h>

/* Moving bodies' fat margin, so slow bodies keep their leaf; static and sleeping boxes stay tight. */
#define QUERY_FAT_FRACTION 0.1f

/* Relative growth of every box (size and distance from the origin), past placement rounding. */
#define QUERY_PAD 1e-5f

/* Above this share of leaves changed in one update, rebuild top down: a loaded or teleported world
   gets a balanced tree. */
#define QUERY_REBUILD_SHARE 0.25

bool spx_query_shape_bounds(const spx_body* b, const spx_body_shape* s, spx_aabb* out)
{
    const spx_obb o = spx_body_shape_box(b, s);
    const float* c = &o.center.x;
    const float* h = &o.half_extents.x;
    for (int k = 0; k < 3; ++k) {
        const float r = h[0] * fabsf((&o.rotation.col[0].x)[k]) + h[1] * fabsf((&o.rotation.col[1].x)[k]) +
                        h[2] * fabsf((&o.rotation.col[2].x)[k]);
        out->min[k] = c[k] - r;
        out->max[k] = c[k] + r;
        if (!isfinite(out->min[k]) || !isfinite(out->max[k])) return false;
    }
    return true;
}

/* The leaf box of a body: its shapes' bounds, padded. false when a pose is not finite. */
static bool body_box(const spx_body* b, spx_aabb* out)
{
    spx_aabb box = { { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        spx_aabb s;
        if (!spx_query_shape_bounds(b, &b->shapes[i], &s)) return false;
        box = spx_aabb_union(&box, &s);
    }
    for (int k = 0; k < 3; ++k) {
        const float size = box.max[k] - box.min[k] + fabsf(box.min[k]) + fabsf(box.max[k]);
        const float pad = QUERY_PAD * size + 1e-30f;
        box.min[k] -= pad, box.max[k] += pad;
    }
    *out = box;
    return b->shape_count > 0;
}

static spx_query_key key_of(const spx_body* b)
{
    spx_query_key k;
    memcpy(k.origin, &b->origin, sizeof k.origin);
    memcpy(k.rotation, &b->rotation, sizeof k.rotation);
    k.generation = (uint32_t)b->generation + 1u;
    return k;
}

static spx_result grow(spx_world* w, struct spx_query_index* q, uint32_t slots)
{
    if (slots <= q->capacity) return spx_tree_reserve(&q->tree, slots);
    uint32_t cap = q->capacity * 2u > slots ? q->capacity * 2u : slots;
    if (cap < 64) cap = 64;
    uint32_t* proxies = spx_alloc(&w->allocator, sizeof(uint32_t) * (size_t)cap, 16);
    spx_query_key* keys = spx_alloc(&w->allocator, sizeof(spx_query_key) * (size_t)cap, 16);
    spx_aabb* boxes = spx_alloc(&w->allocator, sizeof(spx_aabb) * (size_t)cap, 16);
    uint32_t* scratch = spx_alloc(&w->allocator, 3 * sizeof(uint32_t) * (size_t)cap, 16);
    spx_result r = proxies && keys && boxes && scratch ? spx_tree_reserve(&q->tree, cap) : SPX_ERR_OUT_OF_MEMORY;
    if (r != SPX_OK) {
        spx_free(&w->allocator, proxies, sizeof(uint32_t) * (size_t)cap);
        spx_free(&w->allocator, keys, sizeof(spx_query_key) * (size_t)cap);
        spx_free(&w->allocator, boxes, sizeof(spx_aabb) * (size_t)cap);
        spx_free(&w->allocator, scratch, 3 * sizeof(uint32_t) * (size_t)cap);
        return r;
    }
    if (q->capacity) {
        memcpy(proxies, q->proxies, sizeof(uint32_t) * q->capacity);
        memcpy(keys, q->keys, sizeof(spx_query_key) * q->capacity);
    }
    for (uint32_t i = q->capacity; i < cap; ++i) proxies[i] = SPX_TREE_NULL;
    memset(keys + q->capacity, 0, sizeof(spx_query_key) * (size_t)(cap - q->capacity));
    spx_free(&w->allocator, q->proxies, sizeof(uint32_t) * (size_t)q->capacity);
    spx_free(&w->allocator, q->keys, sizeof(spx_query_key) * (size_t)q->capacity);
    spx_free(&w->allocator, q->build_boxes, sizeof(spx_aabb) * (size_t)q->capacity);
    spx_free(&w->allocator, q->build_scratch, 3 * sizeof(uint32_t) * (size_t)q->capacity);
    q->proxies = proxies, q->keys = keys, q->capacity = cap;
    q->build_boxes = boxes, q->build_scratch = scratch;
    return SPX_OK;
}

static void drop_leaf(struct spx_query_index* q, uint32_t slot)
{
    if (q->proxies[slot] != SPX_TREE_NULL) spx_tree_remove(&q->tree, q->proxies[slot]);
    q->proxies[slot] = SPX_TREE_NULL;
    memset(&q->keys[slot], 0, sizeof q->keys[slot]);
}

/* Never allocates: grow() reserved the nodes and scratch. */
static void rebuild(struct spx_query_index* q, uint32_t slots)
{
    uint32_t* users = q->build_scratch;
    uint32_t* order = users + q->capacity;
    uint32_t* made = order + q->capacity;
    uint32_t count = 0;
    for (uint32_t i = 0; i < slots; ++i) {
        if (q->proxies[i] == SPX_TREE_NULL) continue;
        q->build_boxes[count] = q->tree.nodes[q->proxies[i]].box;
        users[count++] = i;
    }
    spx_tree_clear(&q->tree, 0);
    (void)spx_tree_build(&q->tree, 0, q->build_boxes, users, count, order, made); /* cannot fail: see above */
    for (uint32_t k = 0; k < count; ++k) q->proxies[users[k]] = made[k];
}

spx_result spx_query_index_sync(spx_world* w, struct spx_query_index** out)
{
    struct spx_query_index* q = w->query_index;
    if (!q) {
        q = spx_alloc(&w->allocator, sizeof *q, 16);
        if (!q) return SPX_ERR_OUT_OF_MEMORY;
        memset(q, 0, sizeof *q);
        spx_result r = spx_tree_init(&q->tree, w->allocator.alloc ? &w->allocator : NULL, 0);
        if (r != SPX_OK) {
            spx_free(&w->allocator, q, sizeof *q);
            return r;
        }
        w->query_index = q;
    }
    *out = q;
    if (q->synced && q->revision == w->query_revision) return SPX_OK;
    /* Room for a leaf a slot first: after it nothing below allocates, so a failure changes nothing. */
    spx_result r = grow(w, q, w->body_slots);
    if (r != SPX_OK) return r;
    uint32_t leaves = 0, changed = 0;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        if (!b->alive) {
            if (q->proxies[i] != SPX_TREE_NULL) drop_leaf(q, i);
            continue;
        }
        const spx_query_key key = key_of(b);
        if (q->proxies[i] != SPX_TREE_NULL && memcmp(&key, &q->keys[i], sizeof key) == 0) {
            ++leaves;
            continue;
        }
        spx_aabb box;
        if (!body_box(b, &box)) {
            drop_leaf(q, i); /* a body gone non-finite is met by no query */
            continue;
        }
        const float fraction = spx_body_moves(b) ? QUERY_FAT_FRACTION : 0.0f;
        if (q->proxies[i] != SPX_TREE_NULL && q->keys[i].generation == key.generation) {
            changed += spx_tree_move(&q->tree, q->proxies[i], &box, fraction, NULL);
        } else {
            if (q->proxies[i] != SPX_TREE_NULL) drop_leaf(q, i); /* a new body in an old slot */
            const spx_aabb fat = spx_fat_box(&box, fraction, NULL);
            if ((r = spx_tree_insert(&q->tree, 0, &fat, i, &q->proxies[i])) != SPX_OK) return r;
            ++changed;
        }
        q->keys[i] = key;
        ++leaves;
    }
    if (changed > 1 && changed > QUERY_REBUILD_SHARE * leaves) rebuild(q, w->body_slots);
    q->revision = w->query_revision;
    q->synced = true;
    return SPX_OK;
}

void spx_query_index_destroy(spx_world* w)
{
    struct spx_query_index* q = w->query_index;
    if (!q) return;
    spx_tree_destroy(&q->tree);
    spx_free(&w->allocator, q->proxies, sizeof(uint32_t) * (size_t)q->capacity);
    spx_free(&w->allocator, q->keys, sizeof(spx_query_key) * (size_t)q->capacity);
    spx_free(&w->allocator, q->build_boxes, sizeof(spx_aabb) * (size_t)q->capacity);
    spx_free(&w->allocator, q->build_scratch, 3 * sizeof(uint32_t) * (size_t)q->capacity);
    spx_free(&w->allocator, q, sizeof *q);
    w->query_index = NULL;
}

SPX_API spx_query_filter spx_default_query_filter(void)
{
    spx_query_filter f;
    memset(&f, 0, sizeof f);
    f.category_bits = SPX_DEFAULT_CATEGORY_BITS;
    f.mask_bits = SPX_DEFAULT_MASK_BITS;
    return f;
}

bool spx_query_filter_accepts(const spx_world* w, const spx_query_filter* f, uint32_t slot, uint32_t shape)
{
    const spx_body_shape* s = &w->bodies[slot].shapes[shape];
    if (s->sensor) return false; /* sensors report overlaps through their events only */
    if (!f) return true;
    if ((s->filter.category_bits & f->mask_bits) == 0 || (s->filter.mask_bits & f->category_bits) == 0) return false;
    return !f->fn || f->fn(spx_world_shape_id(w, slot, shape), f->context);
}
