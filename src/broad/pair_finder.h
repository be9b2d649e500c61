/* The broad phase's pair finder: bodies as boxes (their swept spheres' boxes), every overlapping
   pair with at least one moving body, in sorted order, with what began and ended since the last
   update. Moving bodies live in one dynamic tree, static and sleeping ones in another, so pairs
   among the latter are never looked at; the pairs of fat boxes are kept from one update to the
   next and found anew only for bodies that left their fat boxes (docs/decisions.md, "Broad
   phase"). */
#ifndef SPX_BROAD_PAIR_FINDER_H
#define SPX_BROAD_PAIR_FINDER_H

#include <sepax/base.h>
#include "aabb.h"

/* Two bodies whose boxes overlap (touching counts), a < b. */
typedef struct spx_pair {
    uint32_t a, b;
} spx_pair;

/* previous[] of a pair that was not there at the last update. */
#define SPX_PAIR_NEW UINT32_MAX

/* Body indices run from 0 to SPX_PAIR_FINDER_MAX_BODIES - 1. */
#define SPX_PAIR_FINDER_MAX_BODIES 0x7FFFFFFFu

/* A moving body's fat box grows by this fraction of its box's largest extent on every side, and
   reaches ahead along its last displacement (bench/README.md, "Broad phase", has the figures
   these were chosen from). */
#define SPX_PAIR_FINDER_FAT_FRACTION 0.125f

/* Pairs of two moving bodies an update finds for one body before it stops pairing it with others
   that have as many (the first the trees give, in tree order): bounds an update's pairs by bodies
   times this when many moving bodies overlap in one spot. The world keeps the nearest
   SPX_MAX_BODY_CONTACTS of them (contact_limit.c); pairs with static or sleeping bodies are all
   kept. A pair left out is looked for again when either body leaves its fat box. */
#define SPX_PAIR_FINDER_BODY_PAIRS 128u

/* What one update found. Every pointer stays valid until the next call of
   spx_pair_finder_update that succeeds (set and remove do not touch them). */
typedef struct spx_pair_update {
    const spx_pair* pairs;    /* every overlapping pair with a moving body, sorted by (a, b) */
    const uint32_t* previous; /* previous[i]: index of pairs[i] in last_pairs, or SPX_PAIR_NEW */
    uint32_t count;
    uint32_t begun_count;       /* pairs with previous[i] == SPX_PAIR_NEW */
    const spx_pair* last_pairs; /* the previous update's pairs (none before the first update) */
    uint32_t last_count;
    const uint32_t* ended; /* ascending indices into last_pairs of the pairs that ended */
    uint32_t ended_count;
} spx_pair_update;

typedef struct spx_pair_finder_stats {
    uint32_t bodies;              /* present */
    uint32_t moving;              /* present with the moving flag */
    uint32_t tree_height;         /* of the moving bodies' tree (0 for one body or none) */
    uint32_t resting_tree_height; /* of the static and sleeping bodies' tree */
    uint32_t reinserts;           /* bodies that left their fat box since the last update */
    uint32_t changed;             /* bodies whose fat pairs the next update finds anew */
    uint32_t fat_pairs;           /* pairs of overlapping fat boxes (with a moving body) after the last update */
    uint32_t queries;             /* bodies the last update queried the trees for (0: it descended them whole) */
    uint64_t pairs_met;           /* leaf pairs the last update's descents and queries met: its cost */
    uint32_t pair_capacity;       /* pairs an update can hold before it has to grow */
    size_t bytes;                 /* everything the finder holds */
} spx_pair_finder_stats;

typedef struct spx_pair_finder spx_pair_finder;

/* An empty finder with room for `capacity_hint` bodies (and as many pairs), from `allocator`
   (NULL: malloc/free; copied, its functions and context must outlive the finder).
   SPX_ERR_INVALID_ARGUMENT (out NULL, hint above SPX_PAIR_FINDER_MAX_BODIES),
   SPX_ERR_OUT_OF_MEMORY; *out is written only on success. */
spx_result spx_pair_finder_create(const spx_allocator* allocator, uint32_t capacity_hint, spx_pair_finder** out);

/* Frees everything (NULL is fine). */
void spx_pair_finder_destroy(spx_pair_finder* finder);

/* Room for bodies 0..body_count-1 and for `pair_count` pairs, so that updates up to these sizes
   allocate nothing. SPX_ERR_INVALID_ARGUMENT, SPX_ERR_OUT_OF_MEMORY (nothing changed). */
spx_result spx_pair_finder_reserve(spx_pair_finder* finder, uint32_t body_count, uint32_t pair_count);

/* Adds body `body` or gives it a new box and flag; the world calls it every step for every moving
   body. `moving` false: static or sleeping (it pairs only with moving bodies, and its box is kept
   exact). A box that still fits its fat box costs a few comparisons; one that left it is noted,
   and the trees change at the next update. A body added again after a remove is a new body: its
   pairs all begin at the next update even if they were there at the last. Allocates only to add a
   body beyond the room reserved. SPX_ERR_INVALID_ARGUMENT (NULL, body out of range, min above
   max), SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_MEMORY (nothing changed). */
spx_result spx_pair_finder_set(spx_pair_finder* finder, uint32_t body, const spx_aabb* box, bool moving);

/* Takes a body out; its pairs end at the next update. SPX_ERR_INVALID_ARGUMENT when it is not in. */
spx_result spx_pair_finder_remove(spx_pair_finder* finder, uint32_t body);

/* Moves the leaves that left their fat boxes, finds the pairs of the current boxes and compares
   them with the last update's. Grows its pair storage when more pairs are found than it holds (by
   half again, so that the count may wander without another allocation), and a flag a tree node
   for the descents when the trees have grown since the last ones; allocates nothing otherwise. SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_OUT_OF_MEMORY: the last update's output is
   still valid and retrying is safe (it gives what a first success would have). */
spx_result spx_pair_finder_update(spx_pair_finder* finder, spx_pair_update* out);

/* Sets the fat fraction of moving bodies for fat boxes made from now on (>= 0; default
   SPX_PAIR_FINDER_FAT_FRACTION). For measurements: the pairs found do not depend on it. */
void spx_pair_finder_set_fat_fraction(spx_pair_finder* finder, float fraction);

/* Called with each body a query meets; return false to stop. */
typedef bool spx_pair_finder_query_fn(void* context, uint32_t body);

/* Every body whose box, as the trees hold it since the last update (a moving body's fat box, which
   holds its exact box), overlaps `box`: moving ones first (only when `moving`), then static and
   sleeping ones, each once, in tree order. For the continuous stage, which looks for what a fast
   body's path meets after the solver moved it. */
void spx_pair_finder_query(const spx_pair_finder* finder, const spx_aabb* box, bool moving,
                           spx_pair_finder_query_fn* fn, void* context);

/* The body's box as the finder holds it (a moving body's fat box, a resting one's exact box), for
   debug drawing; false when the body is not in. */
bool spx_pair_finder_get_box(const spx_pair_finder* finder, uint32_t body, spx_aabb* out);

/* Counts and sizes, for tests and benchmarks. */
void spx_pair_finder_get_stats(const spx_pair_finder* finder, spx_pair_finder_stats* out);

#endif
