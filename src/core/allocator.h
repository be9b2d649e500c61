/* The host's allocator, or malloc/free when it gave none. */
#ifndef SPX_ALLOCATOR_H
#define SPX_ALLOCATOR_H

#include <sepax/base.h>

/* size bytes aligned to `alignment` (a power of two); NULL when the allocator has none to give. */
void* spx_alloc(const spx_allocator* allocator, size_t size, size_t alignment);

/* Gives back a block from spx_alloc with the same size (NULL is fine). */
void spx_free(const spx_allocator* allocator, void* memory, size_t size);

#endif
