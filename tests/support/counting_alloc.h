/* A counting allocator that can be told to fail, shared by the tests that check what the library
   allocates: that a step or a query allocates nothing, that every block comes back, that each
   allocation failing in turn leaves no leak. */
#ifndef SPX_TEST_COUNTING_ALLOC_H
#define SPX_TEST_COUNTING_ALLOC_H

#include <sepax/base.h>

typedef struct counting {
    long calls;         /* alloc calls so far */
    long fail_at;       /* the call that returns NULL (1-based); 0: never */
    long live;          /* blocks not yet freed */
    size_t live_bytes;
    int bad_alignment;  /* blocks handed out off their requested alignment */
} counting;

/* spx_allocator callbacks; context is a counting. */
void* counting_alloc(size_t size, size_t alignment, void* context);
void counting_free(void* memory, size_t size, void* context);

#endif
