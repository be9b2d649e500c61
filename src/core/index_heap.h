/* A min-heap of item indices 0 .. capacity - 1 on a float key, ties to the lower index, that finds
 * an item's place in O(1): for an event queue whose events change as it runs. */
#ifndef SPX_CORE_INDEX_HEAP_H
#define SPX_CORE_INDEX_HEAP_H

#include "core/allocator.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct spx_index_heap {
    uint32_t* items;    /* the heap */
    uint32_t* position; /* per item: its index in items, or UINT32_MAX when out */
    float* key;         /* per item: its key while in */
    uint32_t count, capacity;
} spx_index_heap;

/* Room for items 0 .. capacity - 1, the heap emptied. Nothing changes on SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_index_heap_reserve(spx_index_heap* h, const spx_allocator* allocator, uint32_t capacity);
void spx_index_heap_free(spx_index_heap* h, const spx_allocator* allocator);

/* Empties the heap (O(items in it)). */
void spx_index_heap_clear(spx_index_heap* h);

/* Puts the item in with this key, or moves it to the key when it is in. */
void spx_index_heap_set(spx_index_heap* h, uint32_t item, float key);

/* Takes the item out; nothing when it is not in. */
void spx_index_heap_remove(spx_index_heap* h, uint32_t item);

/* The item of the least key (the heap is not empty). */
static inline uint32_t spx_index_heap_top(const spx_index_heap* h) { return h->items[0]; }

#endif
