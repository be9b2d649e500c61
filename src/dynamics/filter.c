/* Category, mask and group per shape, then the host's callback; applied wherever body pairs become
   shape pairs. See docs/world.md#filtering. */
#include "filter.h"
#include "core/allocator.h"

SPX_API spx_filter spx_default_filter(void)
{
    spx_filter f = { 1u, UINT64_MAX, 0 };
    return f;
}

SPX_API bool spx_filter_should_collide(spx_filter a, spx_filter b)
{
    if (a.group_index == b.group_index && a.group_index != 0) return a.group_index > 0;
    return (a.mask_bits & b.category_bits) != 0 && (b.mask_bits & a.category_bits) != 0;
}

bool spx_shapes_collide(const spx_world* w, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb)
{
    const spx_body_shape* a = &w->bodies[ia].shapes[sa];
    const spx_body_shape* b = &w->bodies[ib].shapes[sb];
    if (a->sensor || b->sensor || !spx_filter_should_collide(a->filter, b->filter)) return false;
    return !w->def.custom_filter || w->def.custom_filter(spx_world_shape_id(w, ia, sa), spx_world_shape_id(w, ib, sb),
                                                         w->def.custom_filter_context);
}

static bool any_collide(const spx_world* w, uint32_t ia, uint32_t ib)
{
    const spx_body *a = &w->bodies[ia], *b = &w->bodies[ib];
    for (uint32_t sa = 0; sa < a->shape_count; ++sa)
        for (uint32_t sb = 0; sb < b->shape_count; ++sb)
            if (spx_shapes_collide(w, ia, sa, ib, sb)) return true;
    return false;
}

spx_result spx_filter_pairs(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out, uint32_t* out_count)
{
    bool any = w->def.custom_filter != NULL;
    for (uint32_t i = 0; i < n && !any; ++i) any = w->bodies[pairs[i].a].filtered || w->bodies[pairs[i].b].filtered;
    if (!any) {
        *out = pairs, *out_count = n;
        return SPX_OK;
    }
    if (!spx_reserve(&w->allocator, (void**)&w->filtered_pairs, &w->filtered_pair_capacity, n, sizeof(spx_pair), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (!spx_bodies_filtered(w, pairs[i].a, pairs[i].b) || any_collide(w, pairs[i].a, pairs[i].b))
            w->filtered_pairs[kept++] = pairs[i];
    *out = w->filtered_pairs, *out_count = kept;
    return SPX_OK;
}
