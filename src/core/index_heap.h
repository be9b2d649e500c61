/* Min-heap of item indices on a float key (ties to the lower index) with O(1) item lookup, for an
 * event queue whose events change. */
#ifndef SPX_CORE_INDEX_HEAP_H
#define SPX_CORE_INDEX_HEAP_H

#include "core/allocator.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct spx_index_heap {
    uint32_t* items;
    uint32_t* position; /* per item; UINT32_MAX when out */
    float* key;
    uint32_t count, capacity;
} spx_index_heap;

/* Empties it. On SPX_ERR_OUT_OF_MEMORY nothing changes. */
spx_result spx_index_heap_reserve(spx_index_heap* h, const spx_allocator* allocator, uint32_t capacity);
void spx_index_heap_free(spx_index_heap* h, const spx_allocator* allocator);

void spx_index_heap_clear(spx_index_heap* h);

/* Inserts or rekeys. */
void spx_index_heap_set(spx_index_heap* h, uint32_t item, float key);

/* Nothing when absent. */
void spx_index_heap_remove(spx_index_heap* h, uint32_t item);

/* Not empty. */
static inline uint32_t spx_index_heap_top(const spx_index_heap* h) { return h->items[0]; }

#endif
