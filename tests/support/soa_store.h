/* Structure-of-arrays boxes for the batched-query tests: binds an spx_obb_soa to host storage. */
#ifndef TEST_SUPPORT_SOA_STORE_H
#define TEST_SUPPORT_SOA_STORE_H

#include <sepax/collide.h>

/* Points the 15 arrays of `soa` into `storage`, which holds 15 * capacity floats. */
void test_soa_bind(spx_obb_soa* soa, float* storage, size_t capacity);

#endif
