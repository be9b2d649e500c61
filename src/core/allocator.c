/* Allocation through the host's allocator, with a malloc/free default that honours alignment. */
#include "allocator.h"
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

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

void spx_free_self(const spx_allocator* inside, void* block, size_t size)
{
    const spx_allocator allocator = *inside;
    spx_free(&allocator, block, size);
}

bool spx_reserve(const spx_allocator* allocator, void** array, uint32_t* capacity, uint32_t needed, size_t element,
                 size_t alignment)
{
    if (needed <= *capacity) return true;
    uint64_t grown = (uint64_t)*capacity * 2u;
    if (grown < needed) grown = needed;
    if (grown < 16) grown = 16;
    if (grown > UINT32_MAX || grown > SIZE_MAX / element) return false;
    void* fresh = spx_alloc(allocator, (size_t)grown * element, alignment);
    if (!fresh) return false;
    if (*array) {
        memcpy(fresh, *array, (size_t)*capacity * element);
        spx_free(allocator, *array, (size_t)*capacity * element);
    }
    *array = fresh;
    *capacity = (uint32_t)grown;
    return true;
}
