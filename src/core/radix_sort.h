/* Sorting 64-bit keys without the C library: qsort may call malloc behind the host's allocator,
   and a comparison sort is O(n log n) calls through a function pointer. */
#ifndef SPX_RADIX_SORT_H
#define SPX_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Sorts keys[0..n) ascending, stable, moving payload[i] with keys[i] when payload is not NULL.
   tmp_keys (and tmp_payload when payload is given) are scratch of n entries each; the result is
   in keys and payload. Allocates nothing; O(n) per byte of the keys that is not the same in every
   key (at most 8 passes). */
void spx_radix_sort_u64(uint64_t* keys, uint32_t* payload, uint64_t* tmp_keys, uint32_t* tmp_payload, size_t n);

#endif
