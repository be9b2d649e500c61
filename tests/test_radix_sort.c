/* The radix sort behind the mesh's closedness check: sorted, stable, every key kept with its payload,
   on key sets that exercise the skipped passes (bytes equal in every key) and the ones that run. */
#include "core/radix_sort.h"
#include "support/test.h"
#include <stdint.h>
#include <stdlib.h>

static uint64_t next_random(uint64_t* state)
{ /* xorshift64 */
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return *state;
}

/* Sorts a copy of keys with payload = original position and checks: keys in order, each output the
   original key at its payload (so the output is a permutation of the input), payloads rising among
   equal keys (stable). Also sorts without a payload and expects the same keys. */
static int check_sort(const uint64_t* keys, size_t n)
{
    uint64_t* k = malloc(sizeof(uint64_t) * (n + 1));
    uint64_t* plain = malloc(sizeof(uint64_t) * (n + 1));
    uint64_t* tmp = malloc(sizeof(uint64_t) * (n + 1));
    uint32_t* p = malloc(sizeof(uint32_t) * (n + 1));
    uint32_t* tmp_p = malloc(sizeof(uint32_t) * (n + 1));
    TEST_ENSURE(k && plain && tmp && p && tmp_p);
    for (size_t i = 0; i < n; ++i) k[i] = plain[i] = keys[i], p[i] = (uint32_t)i;
    spx_radix_sort_u64(k, p, tmp, tmp_p, n);
    spx_radix_sort_u64(plain, NULL, tmp, NULL, n);
    int bad = 0;
    uint8_t* seen = calloc(n + 1, 1);
    TEST_ENSURE(seen);
    for (size_t i = 0; i < n; ++i) {
        bad |= p[i] >= n || seen[p[i]]++ || k[i] != keys[p[i]] || plain[i] != k[i];
        if (i > 0) bad |= k[i] < k[i - 1] || (k[i] == k[i - 1] && p[i] < p[i - 1]);
    }
    free(seen), free(k), free(plain), free(tmp), free(p), free(tmp_p);
    TEST_ENSURE(!bad);
    return 0;
}

static int radix_sort_key_sets(void)
{
    const size_t n = 50000;
    uint64_t* keys = malloc(sizeof(uint64_t) * n);
    TEST_ENSURE(keys);
    uint64_t state = 0x2545F4914F6CDD1Dull;
    /* full 64-bit keys; small keys (high bytes all zero: skipped passes); edge-like keys (a << 32 | b
       with a, b < 1000, many repeats); one byte varying in the middle; all equal; every byte 0..3, so
       that each pass decides among keys tied on every higher byte (random 64-bit keys are almost
       never tied above their low bytes, so a pass lost there would go unseen) */
    for (int set = 0; set < 6; ++set) {
        for (size_t i = 0; i < n; ++i) {
            uint64_t r = next_random(&state);
            switch (set) {
            case 0:
                keys[i] = r;
                break;
            case 1:
                keys[i] = r % 5000;
                break;
            case 2:
                keys[i] = (r % 1000) << 32 | (r >> 40) % 1000;
                break;
            case 3:
                keys[i] = 0x1111000000001111ull | (r & 0xFF) << 24;
                break;
            case 4:
                keys[i] = 42;
                break;
            default:
                keys[i] = r & 0x0303030303030303ull;
                break;
            }
        }
        if (check_sort(keys, n) != 0) {
            fprintf(stderr, "key set %d\n", set);
            free(keys);
            return 1;
        }
    }
    /* tiny inputs */
    for (size_t m = 0; m <= 3; ++m) TEST_ENSURE(check_sort(keys, m) == 0);
    const uint64_t two[2] = { UINT64_MAX, 0 };
    TEST_ENSURE(check_sort(two, 2) == 0);
    free(keys);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(radix_sort_key_sets, failures);
    return failures != 0;
}
