/* LSD radix sort: up to eight stable byte passes. */
#include "radix_sort.h"
#include <string.h>

void spx_radix_sort_u64(uint64_t* keys, uint32_t* payload, uint64_t* tmp_keys, uint32_t* tmp_payload, size_t n)
{
    if (n < 2) return;
    /* All eight histograms in one read; 16 KB of stack, and mesh creation is not a hot path. */
    size_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; ++i) {
        uint64_t k = keys[i];
        for (int b = 0; b < 8; ++b) count[b][(k >> (8 * b)) & 0xFF]++;
    }
    uint64_t *src = keys, *dst = tmp_keys;
    uint32_t *psrc = payload, *pdst = tmp_payload;
    for (int b = 0; b < 8; ++b) {
        const unsigned shift = 8u * (unsigned)b;
        /* A byte equal in every key would copy unchanged: skip it. */
        if (count[b][(src[0] >> shift) & 0xFF] == n) continue;
        size_t offset[256], sum = 0;
        for (int d = 0; d < 256; ++d) offset[d] = sum, sum += count[b][d];
        for (size_t i = 0; i < n; ++i) {
            size_t at = offset[(src[i] >> shift) & 0xFF]++;
            dst[at] = src[i];
            if (payload) pdst[at] = psrc[i];
        }
        uint64_t* t = src;
        src = dst, dst = t;
        uint32_t* pt = psrc;
        psrc = pdst, pdst = pt;
    }
    if (src != keys) {
        memcpy(keys, src, sizeof(uint64_t) * n);
        if (payload) memcpy(payload, psrc, sizeof(uint32_t) * n);
    }
}
