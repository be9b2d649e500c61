/* The tests' counting allocator (counting_alloc.h). */
#include "counting_alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void* test_counting_alloc(size_t size, size_t alignment, void* context)
{
    test_counting* c = context;
    if (++c->calls == c->fail_at) return NULL;
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    void* p = aligned_alloc(alignment, rounded);
    if (!p) return NULL;
    if ((uintptr_t)p % alignment) c->bad_alignment++;
    if (c->fill) memset(p, c->fill_byte, rounded);
    c->live++;
    c->live_bytes += size;
    return p;
}

void* test_plain_alloc(size_t size, size_t alignment)
{
    if (alignment < sizeof(void*)) alignment = sizeof(void*);
    return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

void test_plain_free(void* memory, size_t size, void* context)
{
    (void)size, (void)context;
    free(memory);
}

long test_step_allocations(spx_world* world, float dt, const test_counting* c, int warm_up, int steps)
{
    for (int k = 0; k < warm_up; ++k)
        if (spx_world_step(world, dt) != SPX_OK) return -1;
    const long before = c->calls;
    for (int k = 0; k < steps; ++k)
        if (spx_world_step(world, dt) != SPX_OK) return -1;
    return c->calls - before;
}

void test_counting_free(void* memory, size_t size, void* context)
{
    test_counting* c = context;
    c->live--;
    c->live_bytes -= size;
    free(memory);
}

spx_world_def test_counting_world_def(test_counting* c, spx_allocator* a)
{
    *a = (spx_allocator){ test_counting_alloc, test_counting_free, c };
    spx_world_def def = spx_default_world_def();
    def.allocator = a;
    return def;
}

int test_runs_repeat(test_counted_run* run, void* out0, void* out1, size_t size)
{
    void* out[2] = { out0, out1 };
    for (int k = 0; k < 2; ++k) {
        test_counting c = { 0 };
        spx_allocator a;
        const spx_world_def wd = test_counting_world_def(&c, &a);
        if (run(&wd, &c, out[k]) != 0) return 1;
        if (c.live != 0) {
            fprintf(stderr, "  run %d left %ld blocks\n", k, c.live);
            return 1;
        }
    }
    if (memcmp(out0, out1, size) == 0) return 0;
    fprintf(stderr, "  the two runs ended in different states\n");
    return 1;
}

static void* reentrant_alloc(size_t size, size_t alignment, void* context)
{
    test_reentrant* r = context;
    if (r->stepping && r->world) {
        ++r->calls;
        r->stepping = false;
        r->call(r->world, r->context);
        r->stepping = true;
    }
    return test_plain_alloc(size, alignment);
}

spx_result test_reentrant_scene(test_reentrant* r, spx_body_id* box)
{
    r->allocator = (spx_allocator){ reentrant_alloc, test_plain_free, r };
    r->world = NULL, r->stepping = false, r->calls = 0;
    spx_world_def wd = spx_default_world_def();
    wd.allocator = &r->allocator;
    spx_world* w = NULL;
    spx_result res = spx_world_create(&wd, &w);
    if (res != SPX_OK) return res;
    spx_shape_def s = spx_default_shape_def();
    s.half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    spx_body_def d = spx_default_body_def();
    d.shapes = &s;
    d.shape_count = 1;
    d.position = spx_v3(0, -0.5f, 0);
    spx_body_id ground;
    res = spx_body_create(w, &d, &ground);
    d.type = SPX_BODY_DYNAMIC;
    d.position = spx_v3(0, 0.51f, 0);
    if (res == SPX_OK) res = spx_body_create(w, &d, box);
    if (res != SPX_OK) {
        spx_world_destroy(w);
        return res;
    }
    r->world = w;
    return SPX_OK;
}

spx_result test_reentrant_steps(test_reentrant* r, int steps)
{
    for (int k = 0; k < steps; ++k) {
        r->stepping = true;
        const spx_result res = spx_world_step(r->world, 1.0f / 60.0f);
        r->stepping = false;
        if (res != SPX_OK) return res;
    }
    return SPX_OK;
}
