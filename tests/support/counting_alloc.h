/* A counting allocator that can be told to fail, shared by the tests that check what the library
   allocates: that a step or a query allocates nothing, that every block comes back, that each
   allocation failing in turn leaves no leak. */
#ifndef TEST_SUPPORT_COUNTING_ALLOC_H
#define TEST_SUPPORT_COUNTING_ALLOC_H

#include <sepax/world.h>
#include <stdbool.h>

typedef struct test_counting {
    long calls;   /* alloc calls so far */
    long fail_at; /* the call that returns NULL (1-based); 0: never */
    long live;    /* blocks not yet freed */
    size_t live_bytes;
    int bad_alignment; /* blocks handed out off their requested alignment */
    bool fill;         /* every block handed out is filled with fill_byte: answers must not depend on it */
    unsigned char fill_byte;
} test_counting;

/* spx_allocator callbacks; context is a test_counting. */
void* test_counting_alloc(size_t size, size_t alignment, void* context);
void test_counting_free(void* memory, size_t size, void* context);

/* An allocator's plain part for tests that wrap one: aligned_alloc with the alignment at least a
   pointer's and the size rounded up to it, and its free (an spx_allocator free callback). */
void* test_plain_alloc(size_t size, size_t alignment);
void test_plain_free(void* memory, size_t size, void* context);

/* An allocator that calls into its own world: each allocation made while `stepping` is set calls
   call(world, context) (with stepping cleared meanwhile, so the world's own allocations there do not
   recurse), then allocates plainly. How host code reached from inside a step meets the world. */
typedef struct test_reentrant {
    void (*call)(spx_world* world, void* context);
    void* context;
    spx_allocator allocator; /* the world's: kept here as long as the world lives */
    spx_world* world;        /* set once the scene is made; NULL: no calls */
    bool stepping;
    uint32_t calls; /* allocations made while stepping */
} test_reentrant;

/* A world allocating through r (r->call, r->context set by the caller, the rest cleared): a static
   1 m box whose top is y = 0 and a dynamic one resting on it, centre y = 0.51, whose id goes to
   *box. The world is r->world; SPX_OK or the first failure. */
spx_result test_reentrant_scene(test_reentrant* r, spx_body_id* box);
/* `steps` steps of 1/60 s with r->stepping set: SPX_OK or the first failure. */
spx_result test_reentrant_steps(test_reentrant* r, int steps);

/* The default world def with *a set to an allocator counting into c; a must stay alive until the
   world is created. */
spx_world_def test_counting_world_def(test_counting* c, spx_allocator* a);

/* Steps `world`, whose allocator counts into c, `warm_up` steps of dt, then `steps` more: the
   allocations of those (0 when a step after warm-up allocates nothing), or -1 when a step fails. */
long test_step_allocations(spx_world* world, float dt, const test_counting* c, int warm_up, int steps);

/* One run of a scene for test_runs_repeat: made with `def` (whose allocator counts into c), stepped,
   its end state written to `out`, and everything it made destroyed; 0 on success. */
typedef int test_counted_run(const spx_world_def* def, const test_counting* c, void* out);

/* The same run twice, each with a fresh counting allocator: 0 when both succeed, each gives back
   every block it took, and their end states (`size` bytes at out0 and out1) are the same bits. */
int test_runs_repeat(test_counted_run* run, void* out0, void* out1, size_t size);

#endif
