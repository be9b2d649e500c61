/* Which shape pairs make contacts. See docs/world.md#filtering. */
#ifndef SPX_DYNAMICS_FILTER_H
#define SPX_DYNAMICS_FILTER_H

#include "world.h"

static inline bool spx_filter_is_default(const spx_filter* f)
{
    return f->category_bits == 1u && f->mask_bits == UINT64_MAX && f->group_index == 0;
}

/* ia < ib: neither a sensor, the filters' rule, then custom_filter. */
bool spx_shapes_collide(const spx_world* world, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb);

/* false: every shape pair collides without asking. */
static inline bool spx_bodies_filtered(const spx_world* w, uint32_t ia, uint32_t ib)
{
    return w->bodies[ia].filtered || w->bodies[ib].filtered || w->def.custom_filter != NULL;
}

/* Body pairs with a colliding shape pair, in order (*out may be `pairs`). Runs before the contact
   limit, so non-colliding pairs take no partner slot. */
spx_result spx_filter_pairs(spx_world* world, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                            uint32_t* out_count);

#endif
