/* Pair finder: fat pairs kept between updates and redone for changed bodies only, filtered by the
   exact boxes, merged with the last update. See docs/decisions.md#broad-phase. */
#include "pair_finder.h"
#include "dynamic_tree.h"
#include "core/allocator.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "math/simd.h"

#define MOVING 0  /* the tree of moving bodies */
#define RESTING 1 /* the tree of static and sleeping bodies: never paired among themselves */

/* flags[] */
#define FRESH 1u    /* added since the last update: its old pairs belonged to another body */
#define CHANGED 2u  /* in the changed list: its fat pairs are found anew at the next update */
#define REINSERT 4u /* its leaf takes fat_boxes[] (and the tree its flag says) at the next update */
#define IS_MOVING 8u

/* Look-ahead of a fat box: steps of its last displacement, capped at half extents. */
#define PREDICT_STEPS 16.0f
#define PREDICT_CAP 4.0f

/* Above this fraction of bodies changed, tree descents replace per-body queries: same list, quicker. */
#define REBUILD_FRACTION 0.25

/* Changed bodies go in Morton order of their fat centre: neighbours reuse cached tree nodes. */
#define MORTON_BITS 10

/* Shorter lists sort by insertion: cheaper than a counting sort's buckets. */
#define SMALL_SORT 48

/* min and max padded to four floats (fourth 0), so one SSE2 comparison covers three axes. */
typedef struct exact_box {
    float min[4];
    float max[4];
} exact_box;

struct spx_pair_finder {
    spx_allocator allocator;
    spx_dynamic_tree tree;
    float fat_fraction; /* of moving bodies; resting ones keep exact boxes */

    /* Per body: one block, body_capacity entries (counts: one more). */
    void* body_block;
    size_t body_bytes;
    uint32_t body_capacity;
    uint32_t body_end;   /* one past the highest body ever set: the range of the counting sort */
    exact_box* boxes;    /* the exact box of each body */
    spx_aabb* fat_boxes; /* its leaf's fat box, or the one it takes at the next update */
    uint32_t* proxies;   /* tree leaf of each body, SPX_TREE_NULL when absent */
    uint8_t* flags;
    uint32_t* counts;   /* counting-sort buckets */
    uint32_t* changed;  /* the bodies flagged CHANGED */
    uint64_t* order[2]; /* Morton code << 32 | body, and the radix sort's other buffer */
    uint32_t body_count, moving_count, changed_count, reinserts;

    /* One block; the pair arrays' roles rotate. */
    void* pair_block;
    size_t pair_bytes;
    uint32_t pair_capacity;
    spx_pair* fat; /* every pair of fat boxes that overlap, with a moving body, sorted */
    uint32_t fat_count;
    spx_pair* fat_next; /* the next fat list is merged here */
    spx_pair* found;    /* fat pairs found by this update */
    spx_pair* sort_tmp;
    spx_pair* last; /* the last update's output */
    uint32_t last_count;
    spx_pair* out; /* this update's output */
    uint32_t* previous;
    uint32_t* ended;

    uint32_t queries; /* of the last update */
    uint64_t met;     /* leaf pairs the last update met */
    uint8_t* spent;   /* the descents' flag a tree node: every moving leaf below has its pairs */
    uint32_t spent_capacity;
    bool crowded; /* the last update that found pairs left pairs of moving bodies out (SPX_PAIR_FINDER_BODY_PAIRS) */
    uint32_t morton_counts[(1u << MORTON_BITS) + 1];
};

/* ---- storage ----------------------------------------------------------------------------------- */

static size_t align_up(size_t n) { return (n + 63u) & ~(size_t)63u; }

#define BODY_ARRAYS 8

/* Offsets for `cap` bodies; returns the block size, 0 when it overflows size_t. */
static size_t body_layout(uint64_t cap, size_t off[BODY_ARRAYS])
{
    if (cap > SIZE_MAX / 256u) return 0;
    size_t n = (size_t)cap, at = 0;
    off[0] = at, at = align_up(at + n * sizeof(exact_box));
    off[1] = at, at = align_up(at + n * sizeof(spx_aabb));
    off[2] = at, at = align_up(at + n * sizeof(uint32_t));
    off[3] = at, at = align_up(at + n);
    off[4] = at, at = align_up(at + (n + 1) * sizeof(uint32_t));
    off[5] = at, at = align_up(at + n * sizeof(uint32_t));
    off[6] = at, at = align_up(at + n * sizeof(uint64_t));
    off[7] = at, at = align_up(at + n * sizeof(uint64_t));
    return at;
}

static spx_result grow_bodies(spx_pair_finder* f, uint32_t need)
{
    if (need <= f->body_capacity) return SPX_OK;
    uint64_t cap = (uint64_t)f->body_capacity * 2u;
    if (cap < need) cap = need;
    if (cap < 64) cap = 64;
    if (cap > SPX_PAIR_FINDER_MAX_BODIES) cap = SPX_PAIR_FINDER_MAX_BODIES;
    size_t off[BODY_ARRAYS];
    size_t bytes = body_layout(cap, off);
    if (!bytes) return SPX_ERR_OUT_OF_MEMORY;
    unsigned char* block = spx_alloc(&f->allocator, bytes, 64);
    if (!block) return SPX_ERR_OUT_OF_MEMORY;
    exact_box* boxes = (exact_box*)(block + off[0]);
    spx_aabb* fat_boxes = (spx_aabb*)(block + off[1]);
    uint32_t* proxies = (uint32_t*)(block + off[2]);
    uint8_t* flags = block + off[3];
    uint32_t old = f->body_capacity;
    if (old) {
        memcpy(boxes, f->boxes, old * sizeof *boxes);
        memcpy(fat_boxes, f->fat_boxes, old * sizeof *fat_boxes);
        memcpy(proxies, f->proxies, old * sizeof *proxies);
        memcpy(flags, f->flags, old);
        memcpy(block + off[5], f->changed, f->changed_count * sizeof *f->changed);
    }
    /* Boxes of absent bodies are never read, but keep the block free of uninitialised bytes. */
    memset(boxes + old, 0, (size_t)(cap - old) * sizeof *boxes);
    memset(fat_boxes + old, 0, (size_t)(cap - old) * sizeof *fat_boxes);
    for (uint64_t i = old; i < cap; ++i) proxies[i] = SPX_TREE_NULL;
    memset(flags + old, 0, (size_t)(cap - old));
    spx_free(&f->allocator, f->body_block, f->body_bytes);
    f->body_block = block;
    f->body_bytes = bytes;
    f->body_capacity = (uint32_t)cap;
    f->boxes = boxes, f->fat_boxes = fat_boxes, f->proxies = proxies, f->flags = flags;
    f->counts = (uint32_t*)(block + off[4]);
    f->changed = (uint32_t*)(block + off[5]);
    f->order[0] = (uint64_t*)(block + off[6]);
    f->order[1] = (uint64_t*)(block + off[7]);
    return SPX_OK;
}

#define PAIR_ARRAYS 6

static size_t pair_layout(uint64_t cap, size_t off[PAIR_ARRAYS + 2])
{
    if (cap > SIZE_MAX / 64u) return 0;
    size_t n = (size_t)cap, at = 0;
    for (int k = 0; k < PAIR_ARRAYS; ++k) off[k] = at, at = align_up(at + n * sizeof(spx_pair));
    off[PAIR_ARRAYS] = at, at = align_up(at + n * sizeof(uint32_t));
    off[PAIR_ARRAYS + 1] = at, at = align_up(at + n * sizeof(uint32_t));
    return at;
}

/* Copies the fat list and the last output across; the rest is scratch. */
static spx_result grow_pairs(spx_pair_finder* f, uint64_t need, uint64_t cap)
{
    if (need <= f->pair_capacity) return SPX_OK;
    if (need > UINT32_MAX - 1u) return SPX_ERR_OUT_OF_MEMORY; /* counts are 32-bit */
    if (cap < need) cap = need;
    if (cap > UINT32_MAX - 1u) cap = UINT32_MAX - 1u;
    size_t off[PAIR_ARRAYS + 2];
    size_t bytes = pair_layout(cap, off);
    if (!bytes) return SPX_ERR_OUT_OF_MEMORY;
    unsigned char* block = spx_alloc(&f->allocator, bytes, 64);
    if (!block) return SPX_ERR_OUT_OF_MEMORY;
    spx_pair* p[PAIR_ARRAYS];
    for (int k = 0; k < PAIR_ARRAYS; ++k) p[k] = (spx_pair*)(block + off[k]);
    if (f->fat_count) memcpy(p[0], f->fat, f->fat_count * sizeof *p[0]);
    if (f->last_count) memcpy(p[1], f->last, f->last_count * sizeof *p[1]);
    spx_free(&f->allocator, f->pair_block, f->pair_bytes);
    f->pair_block = block;
    f->pair_bytes = bytes;
    f->pair_capacity = (uint32_t)cap;
    f->fat = p[0], f->last = p[1], f->fat_next = p[2], f->found = p[3], f->sort_tmp = p[4], f->out = p[5];
    f->previous = (uint32_t*)(block + off[PAIR_ARRAYS]);
    f->ended = (uint32_t*)(block + off[PAIR_ARRAYS + 1]);
    return SPX_OK;
}

spx_result spx_pair_finder_create(const spx_allocator* allocator, uint32_t capacity_hint, spx_pair_finder** out)
{
    if (!out || capacity_hint > SPX_PAIR_FINDER_MAX_BODIES) return SPX_ERR_INVALID_ARGUMENT;
    spx_pair_finder* f = spx_alloc(allocator, sizeof *f, 64);
    if (!f) return SPX_ERR_OUT_OF_MEMORY;
    memset(f, 0, sizeof *f);
    if (allocator) f->allocator = *allocator;
    f->fat_fraction = SPX_PAIR_FINDER_FAT_FRACTION;
    spx_result r = spx_tree_init(&f->tree, allocator, 0);
    if (r == SPX_OK) r = spx_pair_finder_reserve(f, capacity_hint, capacity_hint);
    if (r != SPX_OK) {
        spx_pair_finder_destroy(f);
        return r;
    }
    *out = f;
    return SPX_OK;
}

void spx_pair_finder_destroy(spx_pair_finder* finder)
{
    if (!finder) return;
    spx_tree_destroy(&finder->tree);
    spx_free(&finder->allocator, finder->body_block, finder->body_bytes);
    spx_free(&finder->allocator, finder->pair_block, finder->pair_bytes);
    spx_free(&finder->allocator, finder->spent, finder->spent_capacity);
    spx_allocator a = finder->allocator;
    spx_free(&a, finder, sizeof *finder);
}

spx_result spx_pair_finder_reserve(spx_pair_finder* finder, uint32_t body_count, uint32_t pair_count)
{
    if (!finder || body_count > SPX_PAIR_FINDER_MAX_BODIES || pair_count > UINT32_MAX - 1u)
        return SPX_ERR_INVALID_ARGUMENT;
    /* Each step succeeds whole or leaves only unused room: nothing observable changes on failure. */
    spx_result r = grow_bodies(finder, body_count);
    if (r == SPX_OK) r = spx_tree_reserve(&finder->tree, body_count);
    if (r == SPX_OK) r = grow_pairs(finder, pair_count, pair_count);
    return r;
}

void spx_pair_finder_set_fat_fraction(spx_pair_finder* finder, float fraction)
{
    if (finder && fraction >= 0.0f && fraction < 1e30f) finder->fat_fraction = fraction;
}

/* ---- bodies ------------------------------------------------------------------------------------ */

static void store_box(exact_box* to, const spx_aabb* box)
{
    for (int k = 0; k < 3; ++k) to->min[k] = box->min[k], to->max[k] = box->max[k];
    to->min[3] = to->max[3] = 0.0f;
}

/* The body's fat pairs are found anew at the next update (the list has room: a body is in it once). */
static void mark_changed(spx_pair_finder* f, uint32_t body)
{
    if (f->flags[body] & CHANGED) return;
    f->flags[body] |= CHANGED;
    f->changed[f->changed_count++] = body;
}

#if SPX_HAS_SIMD
/* Lanes 0..2 (lane 3 <= 0), as spx_aabb_largest_half on values never below +0. */
static inline float max3(spx_f4 v)
{
    v = spx_f4_max(v, SPX_F4_SWIZZLE(v, 1, 0, 3, 2));
    return spx_f4_first(spx_f4_max(v, SPX_F4_SWIZZLE(v, 2, 3, 0, 1)));
}

/* SSE2 path of a moving body's set: the same floats as the general path (same order of clamps and
   maxima). false: bad box, nothing changed; the general path reports it. */
static bool set_moving(spx_pair_finder* f, uint32_t body, const spx_aabb* box)
{
    const spx_f4 keep3 = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0)), zero = spx_f4_zero();
    const spx_f4 t = spx_f4_load(&box->min[2]);                         /* min2 max0 max1 max2 */
    const spx_f4 lo = spx_f4_and(spx_f4_load(box->min), keep3);         /* min, 0 */
    const spx_f4 hi = spx_f4_and(SPX_F4_SWIZZLE(t, 1, 2, 3, 0), keep3); /* max, 0 */
    /* x - x is 0 exactly for finite x. */
    const spx_f4 ok = spx_f4_and(spx_f4_and(spx_f4_eq(spx_f4_sub(lo, lo), zero), spx_f4_eq(spx_f4_sub(hi, hi), zero)),
                                 spx_f4_le(lo, hi));
    if (spx_f4_mask(ok) != 15) return false;
    exact_box* old = &f->boxes[body];
    const spx_f4 half = spx_f4_splat(0.5f);
    /* Reach ahead: PREDICT_STEPS times the box's move, within +-cap. */
    const float largest = max3(spx_f4_sub(spx_f4_mul(half, hi), spx_f4_mul(half, lo)));
    const float cap = PREDICT_CAP * largest;
    const spx_f4 d = spx_f4_add(spx_f4_mul(half, spx_f4_sub(lo, spx_f4_load_aligned(old->min))),
                                spx_f4_mul(half, spx_f4_sub(hi, spx_f4_load_aligned(old->max))));
    const spx_f4 s = spx_f4_mul(spx_f4_splat(PREDICT_STEPS), d);
    /* s > cap ? cap : s < -cap ? -cap : s, as minps and maxps order their operands. */
    const spx_f4 sweep = spx_f4_max(spx_f4_splat(-cap), spx_f4_min(spx_f4_splat(cap), s));
    spx_f4_store_aligned(old->min, lo);
    spx_f4_store_aligned(old->max, hi);
    /* spx_fat_box_fits: the box inside the fat box, and the fat box not too big. */
    const spx_aabb* fat = &f->fat_boxes[body];
    const spx_f4 u = spx_f4_load(&fat->min[2]);
    const spx_f4 fat_lo = spx_f4_load(fat->min), fat_hi = SPX_F4_SWIZZLE(u, 1, 2, 3, 0);
    const int inside = spx_f4_mask(spx_f4_and(spx_f4_le(fat_lo, lo), spx_f4_le(hi, fat_hi)));
    const float fraction = f->fat_fraction;
    if ((inside & 7) == 7) {
        const float reach = max3(spx_f4_andnot(spx_f4_splat(-0.0f), sweep));
        const float fat_half = max3(spx_f4_and(spx_f4_sub(spx_f4_mul(half, fat_hi), spx_f4_mul(half, fat_lo)), keep3));
        if (fat_half <= 2.0f * (largest * (1.0f + 2.0f * fraction) + 0.5f * reach)) return true;
    }
    float sw[4];
    spx_f4_store(sw, sweep);
    f->fat_boxes[body] = spx_fat_box(box, fraction, sw);
    if (!(f->flags[body] & REINSERT)) f->reinserts++;
    f->flags[body] |= REINSERT;
    mark_changed(f, body);
    return true;
}
#endif

spx_result spx_pair_finder_set(spx_pair_finder* finder, uint32_t body, const spx_aabb* box, bool moving)
{
    if (!finder || !box || body >= SPX_PAIR_FINDER_MAX_BODIES) return SPX_ERR_INVALID_ARGUMENT;
#if SPX_HAS_SIMD
    if (moving && body < finder->body_capacity && finder->proxies[body] != SPX_TREE_NULL &&
        (finder->flags[body] & IS_MOVING) && set_moving(finder, body, box))
        return SPX_OK;
#endif
    for (int k = 0; k < 3; ++k)
        if (!isfinite(box->min[k]) || !isfinite(box->max[k])) return SPX_ERR_NOT_FINITE;
    for (int k = 0; k < 3; ++k)
        if (box->min[k] > box->max[k]) return SPX_ERR_INVALID_ARGUMENT;
    float fraction = moving ? finder->fat_fraction : 0.0f;

    if (body < finder->body_capacity && finder->proxies[body] != SPX_TREE_NULL) {
        /* A new fat box only when it left the old one or the body slept or woke. */
        uint8_t* flags = &finder->flags[body];
        float sweep[3] = { 0, 0, 0 };
        if (moving) {
            const exact_box* old = &finder->boxes[body];
            float cap = PREDICT_CAP * spx_aabb_largest_half(box);
            for (int k = 0; k < 3; ++k) {
                float d = 0.5f * (box->min[k] - old->min[k]) + 0.5f * (box->max[k] - old->max[k]);
                float s = PREDICT_STEPS * d;
                sweep[k] = s > cap ? cap : s < -cap ? -cap : s;
            }
        }
        store_box(&finder->boxes[body], box);
        bool was_moving = (*flags & IS_MOVING) != 0;
        if (was_moving == moving && spx_fat_box_fits(&finder->fat_boxes[body], box, fraction, sweep)) return SPX_OK;
        if (was_moving != moving) {
            *flags ^= IS_MOVING;
            finder->moving_count += moving ? 1u : (uint32_t)-1;
        }
        finder->fat_boxes[body] = spx_fat_box(box, fraction, sweep);
        if (!(*flags & REINSERT)) finder->reinserts++;
        *flags |= REINSERT;
        mark_changed(finder, body);
        return SPX_OK;
    }

    /* Room first, so the insert cannot fail. */
    spx_result r = grow_bodies(finder, body + 1u);
    if (r == SPX_OK) r = spx_tree_reserve(&finder->tree, finder->body_count + 1u);
    if (r != SPX_OK) return r;
    spx_aabb fat = spx_fat_box(box, fraction, NULL);
    uint32_t proxy;
    r = spx_tree_insert(&finder->tree, moving ? MOVING : RESTING, &fat, body, &proxy);
    if (r != SPX_OK) return r;
    finder->proxies[body] = proxy;
    store_box(&finder->boxes[body], box);
    finder->fat_boxes[body] = fat;
    finder->flags[body] = (uint8_t)((finder->flags[body] & CHANGED) | FRESH | (moving ? IS_MOVING : 0u));
    mark_changed(finder, body);
    finder->body_count++;
    finder->moving_count += moving ? 1u : 0u;
    if (body >= finder->body_end) finder->body_end = body + 1u;
    return SPX_OK;
}

spx_result spx_pair_finder_remove(spx_pair_finder* finder, uint32_t body)
{
    if (!finder || body >= finder->body_capacity || finder->proxies[body] == SPX_TREE_NULL)
        return SPX_ERR_INVALID_ARGUMENT;
    uint8_t* flags = &finder->flags[body];
    if (*flags & IS_MOVING) finder->moving_count--;
    if (*flags & REINSERT) finder->reinserts--;
    *flags &= (uint8_t) ~(IS_MOVING | REINSERT);
    spx_tree_remove(&finder->tree, finder->proxies[body]);
    finder->proxies[body] = SPX_TREE_NULL;
    finder->body_count--;
    mark_changed(finder, body);
    return SPX_OK;
}

/* ---- update ------------------------------------------------------------------------------------ */

/* Spreads the low 10 bits of x to every third bit. */
static uint32_t spread3(uint32_t x)
{
    x &= 0x3FFu;
    x = (x | x << 16) & 0x030000FFu;
    x = (x | x << 8) & 0x0300F00Fu;
    x = (x | x << 4) & 0x030C30C3u;
    x = (x | x << 2) & 0x09249249u;
    return x;
}

/* Stable LSD radix sort, 10 bits a pass: the order depends on the boxes and the list alone. */
static void order_changed(spx_pair_finder* f)
{
    uint32_t n = f->changed_count;
    if (n < 2) return;
    float lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (uint32_t k = 0; k < n; ++k) {
        const spx_aabb* b = &f->fat_boxes[f->changed[k]];
        for (int a = 0; a < 3; ++a) {
            float c = 0.5f * b->min[a] + 0.5f * b->max[a];
            lo[a] = c < lo[a] ? c : lo[a];
            hi[a] = c > hi[a] ? c : hi[a];
        }
    }
    const uint32_t top = (1u << MORTON_BITS) - 1u;
    float scale[3];
    for (int a = 0; a < 3; ++a) {
        /* Guarded against a flat set and against spans that overflow. */
        float span = hi[a] - lo[a];
        scale[a] = span > 0.0f && span < INFINITY ? (float)top / span : 0.0f;
    }
    uint64_t* src = f->order[0];
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t body = f->changed[k];
        const spx_aabb* b = &f->fat_boxes[body];
        uint32_t code = 0;
        for (int a = 0; a < 3; ++a) {
            float q = ((0.5f * b->min[a] + 0.5f * b->max[a]) - lo[a]) * scale[a];
            uint32_t qi = q > 0.0f ? (q < (float)top ? (uint32_t)q : top) : 0u;
            code |= spread3(qi) << a;
        }
        src[k] = (uint64_t)code << 32 | body;
    }
    if (n <= SMALL_SORT) {
        /* Few bodies (the common step): stable insertion, without 3 x 1024 buckets. */
        for (uint32_t k = 1; k < n; ++k) {
            const uint64_t x = src[k];
            uint32_t at = k;
            for (; at > 0 && (src[at - 1] >> 32) > (x >> 32); --at) src[at] = src[at - 1];
            src[at] = x;
        }
        for (uint32_t k = 0; k < n; ++k) f->changed[k] = (uint32_t)src[k];
        return;
    }
    uint64_t* dst = f->order[1];
    uint32_t* counts = f->morton_counts;
    for (int pass = 0; pass < 3; ++pass) {
        int shift = 32 + MORTON_BITS * pass;
        memset(counts, 0, sizeof f->morton_counts);
        for (uint32_t k = 0; k < n; ++k) counts[((src[k] >> shift) & top) + 1]++;
        for (uint32_t d = 1; d <= top + 1; ++d) counts[d] += counts[d - 1];
        for (uint32_t k = 0; k < n; ++k) dst[counts[(src[k] >> shift) & top]++] = src[k];
        uint64_t* t = src;
        src = dst, dst = t;
    }
    for (uint32_t k = 0; k < n; ++k) f->changed[k] = (uint32_t)src[k];
}

/* Counted past the room, so a second pass after growing writes them all. */
typedef struct collect {
    const uint8_t* flags;
    spx_pair* out;
    uint32_t capacity;
    uint64_t count;
    uint64_t met;    /* leaf pairs met: the update's cost */
    uint32_t self;   /* box queries: the changed body queried */
    uint32_t* found; /* per body: pairs of two moving bodies found so far */
    const spx_dynamic_tree* tree;
    const uint32_t* proxies;
    uint8_t* spent; /* descents: a moving body's leaf is spent once it has its count */
    bool stop_full; /* after pairs were left out, moving-tree queries stop at each body's count */
    bool crowded;   /* pairs were left out */
} collect;

static inline void put(collect* c, uint32_t a, uint32_t b)
{
    /* Two moving bodies both at SPX_PAIR_FINDER_BODY_PAIRS are not paired: each kept pair is
       charged to a body below its count. Resting pairs always count. */
    if ((c->flags[a] & IS_MOVING) && (c->flags[b] & IS_MOVING)) {
        if (c->found[a] >= SPX_PAIR_FINDER_BODY_PAIRS && c->found[b] >= SPX_PAIR_FINDER_BODY_PAIRS) {
            c->crowded = true;
            return;
        }
        if (++c->found[a] == SPX_PAIR_FINDER_BODY_PAIRS && c->spent) spx_tree_spend(c->tree, c->proxies[a], c->spent);
        if (++c->found[b] == SPX_PAIR_FINDER_BODY_PAIRS && c->spent) spx_tree_spend(c->tree, c->proxies[b], c->spent);
    }
    if (c->count < c->capacity) {
        spx_pair* p = &c->out[c->count];
        p->a = a < b ? a : b;
        p->b = a < b ? b : a;
    }
    c->count++;
}

/* Descents: every leaf pair of overlapping fat boxes, once. */
static void collect_pair(void* context, uint32_t a, uint32_t b)
{
    collect* c = context;
    c->met++;
    put(c, a, b);
}

/* Two changed bodies meet from both queries: kept from the lower index's. */
static bool collect_near(void* context, uint32_t proxy, uint32_t other)
{
    (void)proxy;
    collect* c = context;
    c->met++;
    if (other == c->self || ((c->flags[other] & CHANGED) && other < c->self)) return true;
    put(c, c->self, other);
    if (c->stop_full && c->found[c->self] >= SPX_PAIR_FINDER_BODY_PAIRS) {
        c->crowded = true; /* the rest of this query is left out */
        return false;
    }
    return true;
}

static void find_fat_pairs(spx_pair_finder* f, collect* c, bool rebuild)
{
    /* The sort's buckets, free until the pairs are sorted, count each body's pairs. */
    memset(f->counts, 0, ((size_t)f->body_end + 1) * sizeof *f->counts);
    *c = (collect){ .flags = f->flags,
                    .out = f->found,
                    .capacity = f->pair_capacity,
                    .found = f->counts,
                    .tree = &f->tree,
                    .proxies = f->proxies };
    if (rebuild) {
        /* Subtrees whose leaves all have their count are skipped: a crowd would meet every pair. */
        memset(f->spent, 0, f->tree.capacity);
        c->spent = f->spent;
        if (spx_tree_query_pairs_spent(&f->tree, MOVING, f->spent, collect_pair, c)) c->crowded = true;
        c->spent = NULL;
        spx_tree_query_across(&f->tree, MOVING, RESTING, collect_pair, c);
        return;
    }
    for (uint32_t k = 0; k < f->changed_count; ++k) {
        uint32_t body = f->changed[k], proxy = f->proxies[body];
        if (proxy == SPX_TREE_NULL) continue; /* removed: its pairs are only dropped */
        const spx_aabb* fat = &f->fat_boxes[body];
        c->self = body;
        /* A moving body pairs with everything, a resting one with moving bodies only (all kept). */
        c->stop_full = (f->crowded || c->crowded) && (f->flags[body] & IS_MOVING);
        spx_tree_query(&f->tree, MOVING, fat, collect_near, c);
        c->stop_full = false;
        if (f->flags[body] & IS_MOVING) spx_tree_query(&f->tree, RESTING, fat, collect_near, c);
    }
}

/* Stable counting sort by one member; by b then by a sorts by (a, b) with no worst case. */
static void counting_pass(const spx_pair* src, spx_pair* dst, uint32_t n, uint32_t* counts, uint32_t range, bool by_b)
{
    memset(counts, 0, ((size_t)range + 1) * sizeof *counts);
    for (uint32_t i = 0; i < n; ++i) counts[(by_b ? src[i].b : src[i].a) + 1]++;
    for (uint32_t k = 1; k <= range; ++k) counts[k] += counts[k - 1];
    for (uint32_t i = 0; i < n; ++i) dst[counts[by_b ? src[i].b : src[i].a]++] = src[i];
}

/* spx_aabb_overlap's comparisons, as two SSE2 compares. */
static inline bool exact_overlap(const exact_box* a, const exact_box* b)
{
#if SPX_HAS_SIMD
    const spx_f4 le = spx_f4_and(spx_f4_le(spx_f4_load_aligned(a->min), spx_f4_load_aligned(b->max)),
                                 spx_f4_le(spx_f4_load_aligned(b->min), spx_f4_load_aligned(a->max)));
    return spx_f4_mask(le) == 15;
#else
    return a->min[0] <= b->max[0] && b->min[0] <= a->max[0] && a->min[1] <= b->max[1] && b->min[1] <= a->max[1] &&
           a->min[2] <= b->max[2] && b->min[2] <= a->max[2];
#endif
}

/* The pairs of p[0 .. n) whose exact boxes overlap, in order, into out; returns how many. */
static uint32_t keep_overlapping(const spx_pair* p, uint32_t n, const exact_box* boxes, spx_pair* out)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (exact_overlap(&boxes[p[i].a], &boxes[p[i].b])) out[kept++] = p[i];
    return kept;
}

/* Both members as one integer, for equality. */
static inline uint64_t pair_bits(spx_pair p)
{
    uint64_t u;
    memcpy(&u, &p, sizeof u);
    return u;
}

static inline bool pair_less(spx_pair x, spx_pair y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }

static inline void swap_pairs(spx_pair** x, spx_pair** y)
{
    spx_pair* t = *x;
    *x = *y;
    *y = t;
}

spx_result spx_pair_finder_update(spx_pair_finder* finder, spx_pair_update* out)
{
    if (!finder || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_pair_finder* f = finder;

    /* 1. Reinsert the changed leaves. The changed list stays until success, so a retry finds the
          same pairs. */
    order_changed(f);
    for (uint32_t k = 0; k < f->changed_count; ++k) {
        uint32_t body = f->changed[k];
        if (!(f->flags[body] & REINSERT)) continue;
        spx_tree_reinsert(&f->tree, f->proxies[body], (f->flags[body] & IS_MOVING) ? MOVING : RESTING,
                          &f->fat_boxes[body]);
        f->flags[body] &= (uint8_t)~REINSERT;
    }
    f->reinserts = 0;

    /* 2. Fat pairs of the changed bodies into `found`; nothing lasting is touched before the
          allocations are done. */
    /* Not after a crowded update: descents meet every pair, queries stop at the count. */
    bool rebuild =
        f->changed_count > 0 && (double)f->changed_count > REBUILD_FRACTION * (double)f->body_count && !f->crowded;
    collect c = { 0 };
    if (rebuild && !spx_reserve(&f->allocator, (void**)&f->spent, &f->spent_capacity, f->tree.capacity, 1, 64))
        return SPX_ERR_OUT_OF_MEMORY;
    if (f->changed_count) {
        find_fat_pairs(f, &c, rebuild);
        /* Half again the worst need, so later steps need not grow. */
        uint64_t need = c.count + (rebuild ? 0u : f->fat_count);
        if (need > f->pair_capacity) {
            spx_result r = grow_pairs(f, need, need + need / 2u + 64u);
            if (r != SPX_OK) return r;
            find_fat_pairs(f, &c, rebuild);
        }
    }
    uint32_t n_found = (uint32_t)c.count;

    /* 3. Sort them. */
    if (n_found > SMALL_SORT) {
        counting_pass(f->found, f->sort_tmp, n_found, f->counts, f->body_end, true);
        counting_pass(f->sort_tmp, f->found, n_found, f->counts, f->body_end, false);
    } else {
        /* Pairs are distinct, so insertion gives the same list. */
        spx_pair* p = f->found;
        for (uint32_t k = 1; k < n_found; ++k) {
            const spx_pair x = p[k];
            uint32_t at = k;
            for (; at > 0 && pair_less(x, p[at - 1]); --at) p[at] = p[at - 1];
            p[at] = x;
        }
    }

    /* 4. One pass: merge the new fat pairs in, drop the changed bodies' old ones, filter by the
          exact boxes. */
    const exact_box* boxes = f->boxes;
    spx_pair* pairs = f->out;
    uint32_t n = 0;
    if (rebuild) {
        swap_pairs(&f->fat, &f->found);
        f->fat_count = n_found;
        n = keep_overlapping(f->fat, f->fat_count, boxes, pairs);
    } else if (!f->changed_count) {
        n = keep_overlapping(f->fat, f->fat_count, boxes, pairs);
    } else {
        const spx_pair* old = f->fat;
        const spx_pair* add = f->found;
        const uint8_t* flags = f->flags;
        spx_pair* next = f->fat_next;
        uint32_t i = 0, k = 0, n_old = f->fat_count;
        for (uint32_t j = 0; j <= n_found; ++j) {
            /* The old pairs before add[j] (after the last one, the rest), then add[j]. */
            const spx_pair stop = j < n_found ? add[j] : (spx_pair){ UINT32_MAX, UINT32_MAX };
            for (; i < n_old && pair_less(old[i], stop); ++i) {
                const spx_pair p = old[i];
                if ((flags[p.a] | flags[p.b]) & CHANGED) continue;
                next[k++] = p;
                if (exact_overlap(&boxes[p.a], &boxes[p.b])) pairs[n++] = p;
            }
            if (j == n_found) break;
            next[k++] = stop;
            if (exact_overlap(&boxes[stop.a], &boxes[stop.b])) pairs[n++] = stop;
        }
        swap_pairs(&f->fat, &f->fat_next);
        f->fat_count = k;
    }

    /* 5. One merge of the sorted outputs: new, kept, ended. A re-added body's pairs are new. */
    const spx_pair* last = f->last;
    uint32_t m = f->last_count, i = 0, j = 0, ended = 0, begun = 0;
    const uint8_t* flags = f->flags;
    bool any_fresh = false;
    for (uint32_t k = 0; k < f->changed_count; ++k) any_fresh |= (flags[f->changed[k]] & FRESH) != 0;
    while (i < n && j < m) {
        if (pair_bits(pairs[i]) == pair_bits(last[j]) &&
            !(any_fresh && ((flags[pairs[i].a] | flags[pairs[i].b]) & FRESH))) {
            f->previous[i++] = j++;
        } else if (pair_less(pairs[i], last[j])) {
            f->previous[i++] = SPX_PAIR_NEW;
            begun++;
        } else if (pair_less(last[j], pairs[i])) {
            f->ended[ended++] = j++;
        } else {
            f->previous[i++] = SPX_PAIR_NEW;
            begun++;
            f->ended[ended++] = j++;
        }
    }
    for (; i < n; ++i, ++begun) f->previous[i] = SPX_PAIR_NEW;
    for (; j < m; ++j) f->ended[ended++] = j;

    /* 6. The old output stays readable as last_pairs. */
    for (uint32_t k = 0; k < f->changed_count; ++k) f->flags[f->changed[k]] &= IS_MOVING;
    f->queries = rebuild ? 0u : f->changed_count;
    f->met = c.met;
    /* An update without changes finds nothing and leaves the fat list's crowd as it was. */
    if (f->changed_count) f->crowded = c.crowded;
    f->changed_count = 0;
    f->out = f->last;
    f->last = pairs;
    f->last_count = n;

    *out = (spx_pair_update){ .pairs = pairs,
                              .previous = f->previous,
                              .count = n,
                              .begun_count = begun,
                              .last_pairs = last,
                              .last_count = m,
                              .ended = f->ended,
                              .ended_count = ended };
    return SPX_OK;
}

typedef struct query_relay {
    spx_pair_finder_query_fn* fn;
    void* context;
} query_relay;

static bool relay(void* context, uint32_t proxy, uint32_t body)
{
    (void)proxy;
    const query_relay* r = context;
    return r->fn(r->context, body);
}

void spx_pair_finder_query(const spx_pair_finder* f, const spx_aabb* box, bool moving, spx_pair_finder_query_fn* fn,
                           void* context)
{
    query_relay r = { fn, context };
    if (moving) spx_tree_query(&f->tree, MOVING, box, relay, &r);
    spx_tree_query(&f->tree, RESTING, box, relay, &r);
}

bool spx_pair_finder_get_box(const spx_pair_finder* finder, uint32_t body, spx_aabb* out)
{
    if (!finder || body >= finder->body_capacity || finder->proxies[body] == SPX_TREE_NULL) return false;
    *out = finder->fat_boxes[body];
    return true;
}

void spx_pair_finder_get_stats(const spx_pair_finder* finder, spx_pair_finder_stats* out)
{
    if (!finder) {
        *out = (spx_pair_finder_stats){ 0 };
        return;
    }
    *out = (spx_pair_finder_stats){ .bodies = finder->body_count,
                                    .moving = finder->moving_count,
                                    .tree_height = spx_tree_height(&finder->tree, MOVING),
                                    .resting_tree_height = spx_tree_height(&finder->tree, RESTING),
                                    .reinserts = finder->reinserts,
                                    .changed = finder->changed_count,
                                    .fat_pairs = finder->fat_count,
                                    .queries = finder->queries,
                                    .pairs_met = finder->met,
                                    .pair_capacity = finder->pair_capacity,
                                    .bytes = sizeof *finder + finder->body_bytes + finder->pair_bytes +
                                             finder->spent_capacity +
                                             (size_t)finder->tree.capacity * sizeof(spx_tree_node) };
}
