/* The host's allocator, or malloc/free when it gave none. */
#ifndef SPX_ALLOCATOR_H
#define SPX_ALLOCATOR_H

#include <sepax/base.h>

/* alignment: a power of two. NULL when out of memory. */
void* spx_alloc(const spx_allocator* allocator, size_t size, size_t alignment);

/* Same size as allocated; NULL is fine. */
void spx_free(const spx_allocator* allocator, void* memory, size_t size);

/* For a block holding its own allocator at `inside`: copied out before freeing. */
void spx_free_self(const spx_allocator* inside, void* block, size_t size);

/* Doubling, at least 16, keeping contents. false: out of memory, nothing changed. */
bool spx_reserve(const spx_allocator* allocator, void** array, uint32_t* capacity, uint32_t needed, size_t element,
                 size_t alignment);

#endif
