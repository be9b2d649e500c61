/* Structure-of-arrays boxes for the batched-query tests. */
#include "soa_store.h"

void test_soa_bind(spx_obb_soa* soa, float* storage, size_t capacity)
{
    size_t k = 0;
    for (int i = 0; i < 3; ++i) {
        soa->center[i] = storage + capacity * k++;
        soa->half_extents[i] = storage + capacity * k++;
        for (int m = 0; m < 3; ++m) soa->axis[i][m] = storage + capacity * k++;
    }
    soa->capacity = capacity;
}
