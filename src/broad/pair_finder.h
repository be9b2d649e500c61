/* The broad phase's pair finder: every overlapping box pair with a moving body, sorted, with what
   began and ended since the last update. See docs/decisions.md#broad-phase. */
#ifndef SPX_BROAD_PAIR_FINDER_H
#define SPX_BROAD_PAIR_FINDER_H

#include <sepax/base.h>
#include "aabb.h"

/* Two bodies whose boxes overlap (touching counts), a < b. */
typedef struct spx_pair {
    uint32_t a, b;
} spx_pair;

/* previous[] of a pair that began at this update. */
#define SPX_PAIR_NEW UINT32_MAX

#define SPX_PAIR_FINDER_MAX_BODIES 0x7FFFFFFFu

/* Fat box growth as a fraction of the largest extent (docs/decisions.md#broad-phase). */
#define SPX_PAIR_FINDER_FAT_FRACTION 0.125f

/* Moving-moving pairs found per body before it stops, bounding a crowd's pairs; resting pairs are
   all kept, and one left out is sought again when a body leaves its fat box. */
#define SPX_PAIR_FINDER_BODY_PAIRS 128u

/* Valid until the next successful spx_pair_finder_update (set and remove leave it). */
typedef struct spx_pair_update {
    const spx_pair* pairs;    /* sorted by (a, b) */
    const uint32_t* previous; /* index of pairs[i] in last_pairs, or SPX_PAIR_NEW */
    uint32_t count;
    uint32_t begun_count;
    const spx_pair* last_pairs;
    uint32_t last_count;
    const uint32_t* ended; /* ascending indices into last_pairs */
    uint32_t ended_count;
} spx_pair_update;

typedef struct spx_pair_finder_stats {
    uint32_t bodies;
    uint32_t moving;
    uint32_t tree_height; /* moving tree */
    uint32_t resting_tree_height;
    uint32_t reinserts; /* left their fat box since the last update */
    uint32_t changed;   /* whose fat pairs the next update finds anew */
    uint32_t fat_pairs;
    uint32_t queries;   /* 0: the last update descended the trees whole */
    uint64_t pairs_met; /* leaf pairs the last update met: its cost */
    uint32_t pair_capacity;
    size_t bytes;
} spx_pair_finder_stats;

typedef struct spx_pair_finder spx_pair_finder;

/* NULL allocator: malloc/free; copied, so its context must outlive the finder. *out is written
   only on success. SPX_ERR_INVALID_ARGUMENT, SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_pair_finder_create(const spx_allocator* allocator, uint32_t capacity_hint, spx_pair_finder** out);

void spx_pair_finder_destroy(spx_pair_finder* finder);

/* Room so updates up to these sizes allocate nothing. On error nothing changes. */
spx_result spx_pair_finder_reserve(spx_pair_finder* finder, uint32_t body_count, uint32_t pair_count);

/* Adds or updates. Not `moving`: exact box, pairs with moving bodies only. A body re-added after a
   remove is new. Allocates only beyond the reserved room; on error nothing changes. */
spx_result spx_pair_finder_set(spx_pair_finder* finder, uint32_t body, const spx_aabb* box, bool moving);

/* Its pairs end at the next update. SPX_ERR_INVALID_ARGUMENT when it is not in. */
spx_result spx_pair_finder_remove(spx_pair_finder* finder, uint32_t body);

/* Reinserts the leaves that left their fat boxes and finds the pairs and their history. Allocates
   only to grow. SPX_ERR_OUT_OF_MEMORY keeps the last output valid; a retry is safe. */
spx_result spx_pair_finder_update(spx_pair_finder* finder, spx_pair_update* out);

/* For fat boxes made from now on (>= 0). For measurements: the pairs do not depend on it. */
void spx_pair_finder_set_fat_fraction(spx_pair_finder* finder, float fraction);

/* Return false to stop. */
typedef bool spx_pair_finder_query_fn(void* context, uint32_t body);

/* Every body whose tree box (moving: fat) overlaps `box`, each once in tree order: moving ones
   first (only when `moving`), then resting ones. For the continuous stage. */
void spx_pair_finder_query(const spx_pair_finder* finder, const spx_aabb* box, bool moving,
                           spx_pair_finder_query_fn* fn, void* context);

/* The box as held (moving: fat), for debug drawing; false when the body is not in. */
bool spx_pair_finder_get_box(const spx_pair_finder* finder, uint32_t body, spx_aabb* out);

void spx_pair_finder_get_stats(const spx_pair_finder* finder, spx_pair_finder_stats* out);

#endif
