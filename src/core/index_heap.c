/* A binary min-heap of indices with each index's place kept, so an item's key can change in place. */
#include "core/index_heap.h"
#include <string.h>

spx_result spx_index_heap_reserve(spx_index_heap* h, const spx_allocator* a, uint32_t capacity)
{
    if (capacity <= h->capacity) {
        spx_index_heap_clear(h);
        return SPX_OK;
    }
    const size_t n = capacity;
    uint32_t* items = spx_alloc(a, sizeof(uint32_t) * n, 8);
    uint32_t* position = spx_alloc(a, sizeof(uint32_t) * n, 8);
    float* key = spx_alloc(a, sizeof(float) * n, 8);
    if (!items || !position || !key) {
        spx_free(a, items, sizeof(uint32_t) * n);
        spx_free(a, position, sizeof(uint32_t) * n);
        spx_free(a, key, sizeof(float) * n);
        return SPX_ERR_OUT_OF_MEMORY;
    }
    spx_index_heap_free(h, a);
    memset(position, 0xff, sizeof(uint32_t) * n);
    h->items = items, h->position = position, h->key = key;
    h->capacity = capacity;
    h->count = 0;
    return SPX_OK;
}

void spx_index_heap_free(spx_index_heap* h, const spx_allocator* a)
{
    const size_t n = h->capacity;
    spx_free(a, h->items, sizeof(uint32_t) * n);
    spx_free(a, h->position, sizeof(uint32_t) * n);
    spx_free(a, h->key, sizeof(float) * n);
    h->items = h->position = NULL;
    h->key = NULL;
    h->count = h->capacity = 0;
}

void spx_index_heap_clear(spx_index_heap* h)
{
    for (uint32_t k = 0; k < h->count; ++k) h->position[h->items[k]] = UINT32_MAX;
    h->count = 0;
}

static bool before(const spx_index_heap* h, uint32_t x, uint32_t y)
{
    const float kx = h->key[x], ky = h->key[y];
    return kx < ky || (kx == ky && x < y);
}

static void swap(spx_index_heap* h, uint32_t i, uint32_t j)
{
    const uint32_t x = h->items[i], y = h->items[j];
    h->items[i] = y, h->items[j] = x;
    h->position[y] = i, h->position[x] = j;
}

/* Moves the entry at i up or down to its place. */
static void fix(spx_index_heap* h, uint32_t i)
{
    while (i > 0 && before(h, h->items[i], h->items[(i - 1) / 2])) {
        swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        const uint32_t l = 2 * i + 1, r = l + 1;
        uint32_t m = i;
        if (l < h->count && before(h, h->items[l], h->items[m])) m = l;
        if (r < h->count && before(h, h->items[r], h->items[m])) m = r;
        if (m == i) break;
        swap(h, i, m);
        i = m;
    }
}

void spx_index_heap_set(spx_index_heap* h, uint32_t item, float key)
{
    h->key[item] = key;
    uint32_t i = h->position[item];
    if (i == UINT32_MAX) {
        i = h->count++;
        h->items[i] = item;
        h->position[item] = i;
    }
    fix(h, i);
}

void spx_index_heap_remove(spx_index_heap* h, uint32_t item)
{
    const uint32_t i = h->position[item];
    if (i == UINT32_MAX) return;
    h->position[item] = UINT32_MAX;
    if (--h->count == i) return;
    h->items[i] = h->items[h->count];
    h->position[h->items[i]] = i;
    fix(h, i);
}
