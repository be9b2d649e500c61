/* At most SPX_MAX_BODY_CONTACTS nearest partners a dynamic body: linear, not quadratic. */
#ifndef SPX_DYNAMICS_CONTACT_LIMIT_H
#define SPX_DYNAMICS_CONTACT_LIMIT_H

#include "broad/pair_finder.h"
#include <sepax/world.h>

typedef struct spx_world spx_world;

typedef struct spx_contact_limit {
    uint32_t* partners;
    uint32_t partner_capacity;
    uint64_t* keys[2]; /* gap << 32 | pair */
    uint32_t key_capacity[2];
    spx_pair* kept;
    uint32_t kept_capacity;
} spx_contact_limit;

/* Sorted; *out may be `pairs`. SPX_ERR_OUT_OF_MEMORY: nothing kept. */
spx_result spx_contact_limit_apply(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                                   uint32_t* out_count, bool* limited);

void spx_contact_limit_free(spx_contact_limit* l, const spx_allocator* allocator);

#endif
