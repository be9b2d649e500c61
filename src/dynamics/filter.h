/* Collision filtering: which shape pairs make contacts, by their filters and the host's callback. */
#ifndef SPX_DYNAMICS_FILTER_H
#define SPX_DYNAMICS_FILTER_H

#include "world.h"

static inline bool spx_filter_is_default(const spx_filter* f)
{
    return f->category_bits == 1u && f->mask_bits == UINT64_MAX && f->group_index == 0;
}

/* Do shape sa of body ia and shape sb of body ib (ia < ib) make contacts: neither a sensor, the
   filters' rule, then the host's custom_filter. */
bool spx_shapes_collide(const spx_world* world, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb);

/* Must the shape pairs of bodies ia and ib ask spx_shapes_collide? Not when neither has a filtered
   shape and the host gave no callback: then every pair collides. */
static inline bool spx_bodies_filtered(const spx_world* w, uint32_t ia, uint32_t ib)
{
    return w->bodies[ia].filtered || w->bodies[ib].filtered || w->def.custom_filter != NULL;
}

/* The body pairs of `pairs` with at least one shape pair that collides, in order, into *out (the
   world's buffer, or `pairs` itself when no pair needs asking). Runs before the contact limit, so
   that pairs that never collide keep no body from its nearest partners. SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_filter_pairs(spx_world* world, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                            uint32_t* out_count);

#endif
