/* 64-bit key sort without qsort, which may malloc behind the host's allocator. */
#ifndef SPX_RADIX_SORT_H
#define SPX_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Ascending, stable; payload may be NULL; tmp_* scratch of n. A pass per varying key byte. */
void spx_radix_sort_u64(uint64_t* keys, uint32_t* payload, uint64_t* tmp_keys, uint32_t* tmp_payload, size_t n);

#endif
