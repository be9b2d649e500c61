/* Allocation through the host's allocator, with a malloc/free default that honours alignment. */
#include "allocator.h"
#include <stdalign.h>
#include <stdlib.h>

void* spx_alloc(const spx_allocator* allocator, size_t size, size_t alignment)
{
    if (size == 0) size = 1;
    if (allocator && allocator->alloc) return allocator->alloc(size, alignment, allocator->context);
    if (alignment <= alignof(max_align_t)) return malloc(size);
    /* C11 aligned_alloc wants the size to be a multiple of the alignment. */
    size_t rounded = (size + alignment - 1) & ~(alignment - 1);
    if (rounded < size) return NULL;
    return aligned_alloc(alignment, rounded);
}

void spx_free(const spx_allocator* allocator, void* memory, size_t size)
{
    if (!memory) return;
    if (allocator && allocator->free) {
        allocator->free(memory, size == 0 ? 1 : size, allocator->context);
        return;
    }
    free(memory);
}
