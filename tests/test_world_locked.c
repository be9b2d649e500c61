/* A world that is stepping refuses every call that would change it: the host's allocator is the one
   host code a step runs, and an allocator that calls back into the world mid-step gets
   SPX_ERR_WORLD_LOCKED from each such call, while the step carries on unharmed. */
#include "support/test.h"
#include "support/counting_alloc.h"
#include <sepax/sepax.h>
#include <stdlib.h>

typedef struct reentrant {
    spx_body_id box;
    uint32_t refused; /* calls made from the allocator that returned SPX_ERR_WORLD_LOCKED */
    uint32_t tried;
    int wrong_call;   /* the first call (1..8, in call_into's order) that answered otherwise; 0: none */
    spx_result wrong; /* its answer */
} reentrant;

static void expect_locked(reentrant* r, spx_result got)
{
    const int call = (int)(r->tried % 8u) + 1;
    ++r->tried;
    if (got == SPX_ERR_WORLD_LOCKED) ++r->refused;
    else if (!r->wrong_call) r->wrong_call = call, r->wrong = got;
}

/* Every call that changes a world, made on it from inside its own step. */
static void call_into(spx_world* w, void* context)
{
    reentrant* r = context;
    spx_shape_def s = spx_default_shape_def();
    s.half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    spx_body_def d = spx_default_body_def();
    d.type = SPX_BODY_DYNAMIC;
    d.position = spx_v3(5, 5, 5);
    d.shapes = &s;
    d.shape_count = 1;
    spx_body_id made = { 0 };
    const spx_transform t = { { 0, 9, 0 }, { 0, 0, 0, 1 } };
    expect_locked(r, spx_world_step(w, 1.0f / 60.0f));
    expect_locked(r, spx_body_create(w, &d, &made));
    expect_locked(r, spx_body_destroy(w, r->box));
    expect_locked(r, spx_body_set_transform(w, r->box, &t));
    expect_locked(r, spx_body_set_velocity(w, r->box, spx_v3(0, 50, 0), spx_v3(0, 0, 0)));
    expect_locked(r, spx_body_apply_impulse(w, r->box, spx_v3(0, 50, 0), spx_v3(0, 0, 0)));
    expect_locked(r, spx_body_set_awake(w, r->box, false));
    expect_locked(r, spx_body_set_material(w, r->box, 0.0f, 1.0f));
    /* The getters answer. */
    spx_transform now;
    if (spx_body_get_transform(w, r->box, &now) != SPX_OK && !r->wrong_call) r->wrong_call = 9;
}

static int calls_from_the_allocator_are_refused(void)
{
    static reentrant r;
    static test_reentrant alloc;
    alloc.call = call_into, alloc.context = &r;
    TEST_ENSURE(test_reentrant_scene(&alloc, &r.box) == SPX_OK);
    spx_world* w = alloc.world;
    /* The first step with a contact grows the contact and solver buffers: the allocator runs. */
    TEST_ENSURE(test_reentrant_steps(&alloc, 3) == SPX_OK);
    printf("allocations during steps: %u; calls from them: %u, refused %u\n", alloc.calls, r.tried, r.refused);
    TEST_ENSURE(alloc.calls > 0);
    if (r.wrong_call) printf("call %d of call_into answered %s\n", r.wrong_call, spx_result_string(r.wrong));
    TEST_ENSURE(r.wrong_call == 0);
    TEST_ENSURE(r.refused == r.tried && r.tried == 8 * alloc.calls);
    /* Nothing the refused calls asked for happened: one box resting on the ground, as it would. */
    spx_step_stats st;
    TEST_ENSURE(spx_world_get_stats(w, &st) == SPX_OK && st.body_count == 2 && st.manifold_count == 1);
    spx_transform t;
    spx_vec3 v, av;
    TEST_ENSURE(spx_body_get_transform(w, r.box, &t) == SPX_OK);
    printf("box at (%g, %g, %g)\n", (double)t.p.x, (double)t.p.y, (double)t.p.z);
    TEST_ENSURE(t.p.y > 0.45f && t.p.y < 0.52f && fabsf(t.p.x) < 1e-3f);
    TEST_ENSURE(spx_body_get_velocity(w, r.box, &v, &av) == SPX_OK && fabsf(v.y) < 0.5f);
    /* After the step, the same calls work. */
    alloc.world = NULL;
    TEST_ENSURE(spx_body_set_velocity(w, r.box, spx_v3(0, 1, 0), spx_v3(0, 0, 0)) == SPX_OK);
    TEST_ENSURE(spx_body_set_material(w, r.box, 0.5f, 0.0f) == SPX_OK);
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(calls_from_the_allocator_are_refused, failures);
    return failures ? 1 : 0;
}
