/* The host's allocator, or malloc/free when it gave none. */
#ifndef SPX_ALLOCATOR_H
#define SPX_ALLOCATOR_H

#include <sepax/base.h>

/* size bytes aligned to `alignment` (a power of two); NULL when the allocator has none to give. */
void* spx_alloc(const spx_allocator* allocator, size_t size, size_t alignment);

/* Gives back a block from spx_alloc with the same size (NULL is fine). */
void spx_free(const spx_allocator* allocator, void* memory, size_t size);

/* spx_free for a block that holds its own allocator at `inside`: the allocator is copied out first. */
void spx_free_self(const spx_allocator* inside, void* block, size_t size);

/* Grows an array to hold at least `needed` elements of `element` bytes (doubling, at least 16),
   keeping its contents; *array may be NULL with *capacity 0. false when memory runs out: the
   array and its capacity are then unchanged. */
bool spx_reserve(const spx_allocator* allocator, void** array, uint32_t* capacity, uint32_t needed, size_t element,
                 size_t alignment);

#endif
