/* At most SPX_MAX_BODY_CONTACTS partners a dynamic body, by bounding-sphere gap (ties in pair order:
   poses alone decide); static and kinematic bodies take any number. See docs/world.md. */
#include "contact_limit.h"
#include "world.h"
#include "core/allocator.h"
#include "core/radix_sort.h"
#include <string.h>

/* Order-preserving unsigned image of a float. */
static uint32_t float_order(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}

static bool limited_body(const spx_world* w, uint32_t body) { return w->bodies[body].type == SPX_BODY_DYNAMIC; }

/* Counts last step's pairs neither body moves now (kept as they are, unpaired by the broad phase):
   they take their share first. Returns whether a dynamic body has any. */
static bool count_resting(const spx_world* w, uint32_t* partners)
{
    const spx_contact* list = w->contacts.list;
    bool any = false;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const uint32_t a = list[k].body_a, b = list[k].body_b;
        if (k > 0 && list[k - 1].body_a == a && list[k - 1].body_b == b) continue; /* one a body pair */
        if (spx_body_moves(&w->bodies[a]) || spx_body_moves(&w->bodies[b])) continue;
        ++partners[a], ++partners[b];
        any = true;
    }
    return any;
}

spx_result spx_contact_limit_apply(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                                   uint32_t* out_count, bool* limited)
{
    spx_contact_limit* l = &w->contact_limit;
    const spx_allocator* al = &w->allocator;
    *out = pairs, *out_count = n, *limited = false;
    /* Grown every step with the pairs, so a warm step allocates nothing. */
    if (!spx_reserve(al, (void**)&l->partners, &l->partner_capacity, w->body_slots + 1, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&l->keys[0], &l->key_capacity[0], n, sizeof(uint64_t), 8) ||
        !spx_reserve(al, (void**)&l->keys[1], &l->key_capacity[1], n, sizeof(uint64_t), 8) ||
        !spx_reserve(al, (void**)&l->kept, &l->kept_capacity, n, sizeof(spx_pair), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    uint32_t* partners = l->partners;
    memset(partners, 0, sizeof(uint32_t) * w->body_slots);
    const bool resting = count_resting(w, partners);
    for (uint32_t i = 0; i < n; ++i) ++partners[pairs[i].a], ++partners[pairs[i].b];
    /* Counts only grow: over the limit at the end is over it at some pair. Once a body, not twice a pair. */
    bool over = false;
    for (uint32_t k = 0; k < w->body_slots; ++k) over |= partners[k] > SPX_MAX_BODY_CONTACTS && limited_body(w, k);
    if (!over) return SPX_OK;
    uint64_t* keys = l->keys[0];
    for (uint32_t i = 0; i < n; ++i) {
        const spx_body* a = &w->bodies[pairs[i].a];
        const spx_body* b = &w->bodies[pairs[i].b];
        const float gap = glms_vec3_norm(glms_vec3_sub(a->center, b->center)) - a->radius - b->radius;
        keys[i] = (uint64_t)float_order(gap) << 32 | i;
    }
    spx_radix_sort_u64(keys, NULL, l->keys[1], NULL, n);
    /* Greedy after the resting pairs; then back in pair order for the merge. */
    memset(partners, 0, sizeof(uint32_t) * w->body_slots);
    if (resting) count_resting(w, partners);
    uint8_t* keep = (uint8_t*)l->keys[1]; /* n bytes of the sort's scratch */
    memset(keep, 0, n);
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t i = (uint32_t)keys[k];
        const uint32_t a = pairs[i].a, b = pairs[i].b;
        if ((limited_body(w, a) && partners[a] >= SPX_MAX_BODY_CONTACTS) ||
            (limited_body(w, b) && partners[b] >= SPX_MAX_BODY_CONTACTS))
            continue;
        ++partners[a], ++partners[b];
        keep[i] = 1;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (keep[i]) l->kept[kept++] = pairs[i];
    *out = l->kept, *out_count = kept, *limited = true;
    return SPX_OK;
}

void spx_contact_limit_free(spx_contact_limit* l, const spx_allocator* al)
{
    spx_free(al, l->partners, sizeof(uint32_t) * (size_t)l->partner_capacity);
    for (int k = 0; k < 2; ++k) spx_free(al, l->keys[k], sizeof(uint64_t) * (size_t)l->key_capacity[k]);
    spx_free(al, l->kept, sizeof(spx_pair) * (size_t)l->kept_capacity);
}
