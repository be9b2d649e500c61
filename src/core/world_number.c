/* A process-wide bit table of live world numbers and a turning cursor: sepax's only shared
 * state, hence atomic. */
#include "world_number.h"
#include <stdatomic.h>

static _Atomic uint32_t held[(SPX_WORLD_NUMBER_MAX + 1) / 32];
static _Atomic uint32_t cursor;

bool spx_world_number_acquire(uint16_t* out)
{
    for (uint32_t tries = 0; tries < SPX_WORLD_NUMBER_MAX; ++tries) {
        const uint32_t n = atomic_fetch_add(&cursor, 1u) % SPX_WORLD_NUMBER_MAX + 1u;
        const uint32_t bit = 1u << (n % 32u);
        if (!(atomic_fetch_or(&held[n / 32u], bit) & bit)) {
            *out = (uint16_t)n;
            return true;
        }
    }
    return false;
}

void spx_world_number_release(uint16_t number)
{
    if (number == 0) return;
    atomic_fetch_and(&held[number / 32u], ~(1u << (number % 32u)));
}
