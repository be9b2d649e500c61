/* The body pairs a step keeps: at most SPX_MAX_BODY_CONTACTS partners a dynamic body, the nearest,
   so that bodies made in one spot cost a step in proportion to their number, not its square. */
#ifndef SPX_DYNAMICS_CONTACT_LIMIT_H
#define SPX_DYNAMICS_CONTACT_LIMIT_H

#include "broad/pair_finder.h"
#include <sepax/world.h>

typedef struct spx_world spx_world;

/* Scratch of the choice, grown between steps only as the pairs grow. */
typedef struct spx_contact_limit {
    uint32_t* partners; /* per body slot: pairs kept so far */
    uint32_t partner_capacity;
    uint64_t* keys[2]; /* gap key << 32 | pair index, and the radix sort's other buffer */
    uint32_t key_capacity[2];
    spx_pair* kept; /* the pairs kept, in their sorted order */
    uint32_t kept_capacity;
} spx_contact_limit;

/* The pairs of `pairs[0 .. n)` (sorted) the step keeps, in *out and *out_count, sorted: all of them
   when no dynamic body has more than SPX_MAX_BODY_CONTACTS (then *out is `pairs`), else the
   nearest first (the gap between the bodies' bounding spheres, then the pair's order), each kept
   while neither of its dynamic bodies has its limit; *limited tells which. SPX_ERR_OUT_OF_MEMORY:
   nothing kept (the caller's to handle). */
spx_result spx_contact_limit_apply(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                                   uint32_t* out_count, bool* limited);

void spx_contact_limit_free(spx_contact_limit* l, const spx_allocator* allocator);

#endif
