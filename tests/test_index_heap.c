/* The indexed heap behind the continuous stage's queue of impacts: against a brute-force minimum
   over random inserts, key changes (up and down) and removals; ties go to the lower index; a
   growth that fails changes nothing. */
#include "core/index_heap.h"
#include "support/test.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t next_random(uint64_t* state)
{ /* xorshift64 */
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return *state;
}

/* The least (key, index) of the items marked in, or UINT32_MAX. */
static uint32_t brute_top(const float* key, const uint8_t* in, uint32_t n)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i)
        if (in[i] && (best == UINT32_MAX || key[i] < key[best])) best = i;
    return best;
}

static int index_heap_matches_brute_force(void)
{
    enum { N = 97 };
    spx_index_heap h = { 0 };
    TEST_ENSURE(spx_index_heap_reserve(&h, NULL, N) == SPX_OK);
    float key[N];
    uint8_t in[N] = { 0 };
    uint32_t count = 0;
    uint64_t state = 0x2545F4914F6CDD1Dull;
    for (int op = 0; op < 20000; ++op) {
        const uint32_t item = (uint32_t)(next_random(&state) % N);
        const uint64_t r = next_random(&state);
        if (r % 4 == 0) {
            spx_index_heap_remove(&h, item);
            count -= in[item], in[item] = 0;
        } else {
            /* Few distinct keys, so that ties are common. */
            const float k = (float)(r % 13) * 0.25f;
            spx_index_heap_set(&h, item, k);
            count += !in[item], in[item] = 1, key[item] = k;
        }
        TEST_ENSURE(h.count == count);
        if (count > 0) TEST_ENSURE(spx_index_heap_top(&h) == brute_top(key, in, N));
    }
    /* Taken out one at a time, the items come in (key, index) order. */
    float last_key = -INFINITY;
    uint32_t last_item = 0;
    while (h.count > 0) {
        const uint32_t top = spx_index_heap_top(&h);
        TEST_ENSURE(top == brute_top(key, in, N));
        TEST_ENSURE(key[top] > last_key || (key[top] == last_key && top > last_item));
        last_key = key[top], last_item = top;
        spx_index_heap_remove(&h, top);
        in[top] = 0;
    }
    /* Cleared, every item is out: setting one puts it back alone. */
    spx_index_heap_set(&h, 5, 1.0f);
    spx_index_heap_set(&h, 7, 0.5f);
    spx_index_heap_clear(&h);
    TEST_ENSURE(h.count == 0);
    spx_index_heap_set(&h, 7, 2.0f);
    TEST_ENSURE(h.count == 1 && spx_index_heap_top(&h) == 7);
    spx_index_heap_free(&h, NULL);
    return 0;
}

static void* refuse(size_t size, size_t alignment, void* context)
{
    (void)size, (void)alignment, (void)context;
    return NULL;
}
static void release(void* memory, size_t size, void* context) { (void)memory, (void)size, (void)context; }

static int index_heap_growth_failure_changes_nothing(void)
{
    spx_index_heap h = { 0 };
    TEST_ENSURE(spx_index_heap_reserve(&h, NULL, 4) == SPX_OK);
    spx_index_heap_set(&h, 3, 1.0f);
    const spx_allocator none = { refuse, release, NULL };
    TEST_ENSURE_CODE(spx_index_heap_reserve(&h, &none, 64), SPX_ERR_OUT_OF_MEMORY);
    TEST_ENSURE(h.capacity == 4 && h.count == 1 && spx_index_heap_top(&h) == 3);
    spx_index_heap_free(&h, NULL);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(index_heap_matches_brute_force, failures);
    TEST_RUN(index_heap_growth_failure_changes_nothing, failures);
    return failures != 0;
}
