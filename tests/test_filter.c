/* Collision filtering: the rule's truth table, the same table in a world (boxes dropped on platforms,
   both ways round), the host's callback, a filter changed at run time, filtered pairs kept out of
   the contact limit and out of the continuous stage. */
#include "support/test.h"
#include "support/scenes.h"
#include <sepax/sepax.h>

static const float dt = 1.0f / 60.0f;

static spx_filter filter(uint64_t category, uint64_t mask, int32_t group)
{
    spx_filter f = { category, mask, group };
    return f;
}

static spx_body_id add_box(spx_world* w, spx_body_type type, spx_vec3 p, spx_vec3 half, spx_filter f, void* user)
{
    spx_shape_def s = test_box_shape(half);
    s.filter = f;
    s.user_data = user;
    return test_body_create(w, test_body_def(type, p), s, NULL);
}

static spx_world* make_world(spx_custom_filter_fn* fn, void* context)
{
    spx_world_def wd = spx_default_world_def();
    wd.custom_filter = fn;
    wd.custom_filter_context = context;
    return test_world_create(&wd);
}

/* Rows: filter a, filter b, collide? Worked out by hand from the rule (a group shared and not 0
   decides alone; else each mask must hold a bit of the other's category). */
typedef struct row {
    spx_filter a, b;
    bool collide;
} row;

static const row table[] = {
    { { 1, UINT64_MAX, 0 }, { 1, UINT64_MAX, 0 }, true },                   /* defaults */
    { { 1, 2, 0 }, { 2, 1, 0 }, true },                                     /* each wants the other */
    { { 1, 2, 0 }, { 2, 2, 0 }, false },                                    /* b does not want a */
    { { 1, 4, 0 }, { 2, 1, 0 }, false },                                    /* a does not want b */
    { { 1, 0, 0 }, { 1, UINT64_MAX, 0 }, false },                           /* a wants nothing */
    { { 0, UINT64_MAX, 0 }, { 1, UINT64_MAX, 0 }, false },                  /* a is nothing */
    { { 1ull << 63, 1, 0 }, { 1, 1ull << 63, 0 }, true },                   /* the top bit counts */
    { { 1ull << 40, 1ull << 41, 0 }, { 1ull << 41, 1ull << 40, 0 }, true }, /* bits past 32 */
    { { 1ull << 40, 1ull << 41, 0 }, { 1ull << 41, 1ull << 39, 0 }, false },
    { { 1, 0, 3 }, { 1, 0, 3 }, true },                      /* one positive group: always */
    { { 1, UINT64_MAX, -3 }, { 1, UINT64_MAX, -3 }, false }, /* one negative group: never */
    { { 1, UINT64_MAX, 3 }, { 1, UINT64_MAX, -3 }, true },   /* different groups: the bits */
    { { 1, 0, 3 }, { 1, 0, 4 }, false },
    { { 1, UINT64_MAX, -3 }, { 1, UINT64_MAX, -4 }, true },
    { { 1, UINT64_MAX, -3 }, { 1, UINT64_MAX, 0 }, true }, /* 0 is no group */
    { { 1, 0, 0 }, { 1, 0, 0 }, false },                   /* group 0 shared: the bits */
};
#define ROWS (sizeof table / sizeof table[0])

static int truth_table(void)
{
    for (size_t i = 0; i < ROWS; ++i) {
        TEST_ENSURE(spx_filter_should_collide(table[i].a, table[i].b) == table[i].collide);
        TEST_ENSURE(spx_filter_should_collide(table[i].b, table[i].a) == table[i].collide); /* symmetric */
    }
    const spx_filter d = spx_default_filter();
    TEST_ENSURE(d.category_bits == 1 && d.mask_bits == UINT64_MAX && d.group_index == 0);
    return 0;
}

/* The table in a world: for each row a box (filter b) dropped on its own static platform (filter a),
   and in a second world the filters swapped; after a second the box rests on it or has fallen
   through, as the row says. Platforms 4 m apart: no box meets another row's. */
static int truth_table_in_a_world(void)
{
    for (int swap = 0; swap < 2; ++swap) {
        spx_world* w = make_world(NULL, NULL);
        TEST_ENSURE(w);
        spx_body_id boxes[ROWS];
        for (size_t i = 0; i < ROWS; ++i) {
            const spx_filter fa = swap ? table[i].b : table[i].a, fb = swap ? table[i].a : table[i].b;
            const float x = 4.0f * (float)i;
            add_box(w, SPX_BODY_STATIC, spx_v3(x, 0, 0), spx_v3(1, 0.25f, 1), fa, NULL);
            boxes[i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(x, 1, 0), spx_v3(0.5f, 0.5f, 0.5f), fb, NULL);
        }
        for (int k = 0; k < 60; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        for (size_t i = 0; i < ROWS; ++i) {
            spx_transform t;
            TEST_ENSURE_CODE(spx_body_get_transform(w, boxes[i], &t), SPX_OK);
            if (table[i].collide) TEST_ENSURE_NEAR(t.p.y, 0.75f, 0.02f);
            else TEST_ENSURE(t.p.y < -1.0f);
        }
        spx_world_destroy(w);
    }
    return 0;
}

/* The host's callback: asked for shape pairs the filters allow, with live ids of the world, lower
   body first, while the world is locked; its "no" keeps a pair apart. Boxes tagged 1 pass through
   the ground, the others land. */
typedef struct callback_log {
    spx_world* world;
    int calls, bad;
} callback_log;

static bool keep_tagged_apart(spx_shape_id a, spx_shape_id b, void* context)
{
    callback_log* log = context;
    ++log->calls;
    spx_body_id ba, bb;
    if (spx_shape_get_body(log->world, a, &ba) != SPX_OK || spx_shape_get_body(log->world, b, &bb) != SPX_OK ||
        ba.index >= bb.index)
        ++log->bad;
    spx_shape_def s = spx_default_shape_def();
    spx_shape_id out;
    if (spx_shape_create(log->world, ba, &s, &out) != SPX_ERR_WORLD_LOCKED) ++log->bad;
    void *ua = NULL, *ub = NULL;
    spx_shape_get_user_data(log->world, a, &ua);
    spx_shape_get_user_data(log->world, b, &ub);
    return !(ua && *(int*)ua == 1) && !(ub && *(int*)ub == 1);
}

static int custom_callback(void)
{
    callback_log log = { NULL, 0, 0 };
    spx_world* w = make_world(keep_tagged_apart, &log);
    TEST_ENSURE(w);
    log.world = w;
    static int tags[2] = { 0, 1 };
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20), spx_default_filter(), NULL);
    spx_body_id lands =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(-2, 1, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), &tags[0]);
    spx_body_id sinks =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(2, 1, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), &tags[1]);
    /* Filtered out by the bits: the callback is not asked for it. */
    add_box(w, SPX_BODY_DYNAMIC, spx_v3(6, 1, 0), spx_v3(0.5f, 0.5f, 0.5f), filter(1, 0, 0), &tags[0]);
    for (int k = 0; k < 60; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    spx_transform t;
    spx_body_get_transform(w, lands, &t);
    TEST_ENSURE_NEAR(t.p.y, 0.5f, 0.02f);
    spx_body_get_transform(w, sinks, &t);
    TEST_ENSURE(t.p.y < -1.0f);
    TEST_ENSURE(log.calls > 0 && log.bad == 0);
    spx_world_destroy(w);
    return 0;
}

/* A filter changed at run time: a box resting on the ground gets a mask without the ground's
   category; its contact ends at the next step and it falls through. Another, sleeping, given a
   filter that still collides keeps its contact and stays. Bad ids get their codes. */
static int filter_changed_at_run_time(void)
{
    spx_world* w = make_world(NULL, NULL);
    TEST_ENSURE(w);
    spx_body_id g = add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20), filter(2, UINT64_MAX, 0), NULL);
    spx_body_id a =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(-2, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), NULL);
    spx_body_id b =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(2, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), NULL);
    bool awake = true;
    for (int k = 0; k < 300 && awake; ++k) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        spx_body_is_awake(w, a, &awake);
    }
    TEST_ENSURE(!awake);
    spx_shape_id sa, sb, sg;
    spx_body_get_shape(w, a, 0, &sa);
    spx_body_get_shape(w, b, 0, &sb);
    spx_body_get_shape(w, g, 0, &sg);
    TEST_ENSURE_CODE(spx_shape_set_filter(w, sa, filter(1, ~2ull, 0)), SPX_OK);
    TEST_ENSURE_CODE(spx_shape_set_filter(w, sb, filter(1, 2, 0)), SPX_OK);
    spx_filter got;
    TEST_ENSURE_CODE(spx_shape_get_filter(w, sa, &got), SPX_OK);
    TEST_ENSURE(got.mask_bits == ~2ull && got.category_bits == 1 && got.group_index == 0);
    TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    const spx_contact_event* end;
    uint32_t ne;
    TEST_ENSURE_CODE(spx_world_get_contact_events(w, NULL, NULL, &end, &ne), SPX_OK);
    TEST_ENSURE(ne == 1);
    TEST_ENSURE(end[0].shape_a.index == sg.index && end[0].shape_b.index == sa.index);
    for (int k = 0; k < 60; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    spx_transform t;
    spx_body_get_transform(w, a, &t);
    TEST_ENSURE(t.p.y < -1.0f);
    spx_body_get_transform(w, b, &t);
    TEST_ENSURE_NEAR(t.p.y, 0.5f, 0.02f);
    spx_body_destroy(w, a);
    TEST_ENSURE_CODE(spx_shape_set_filter(w, sa, spx_default_filter()), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_shape_get_filter(w, sa, &got), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_shape_get_filter(w, sb, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_world_destroy(w);
    return 0;
}

/* The filter of a static ground changed under a box asleep on it: the box wakes (its support is
   gone with the manifold), ends its contact at the next step and falls through. */
static int ground_filter_changed_under_sleeper(void)
{
    spx_world* w = make_world(NULL, NULL);
    TEST_ENSURE(w);
    spx_body_id g = add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20), spx_default_filter(), NULL);
    spx_body_id a =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), NULL);
    bool awake = true;
    for (int k = 0; k < 300 && awake; ++k) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        spx_body_is_awake(w, a, &awake);
    }
    TEST_ENSURE(!awake);
    spx_shape_id sg;
    spx_body_get_shape(w, g, 0, &sg);
    TEST_ENSURE_CODE(spx_shape_set_filter(w, sg, filter(1, 2, 0)), SPX_OK);
    spx_body_is_awake(w, a, &awake);
    TEST_ENSURE(awake);
    TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    uint32_t ne = 0;
    TEST_ENSURE_CODE(spx_world_get_contact_events(w, NULL, NULL, NULL, &ne), SPX_OK);
    TEST_ENSURE(ne == 1);
    for (int k = 0; k < 60; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    spx_transform t;
    spx_body_get_transform(w, a, &t);
    TEST_ENSURE(t.p.y < -1.0f);
    spx_world_destroy(w);
    return 0;
}

/* Pairs that never collide take no place in the contact limit: a box resting on another stays on it
   with 48 small kinematic boxes that collide with nothing inside it. The limit keeps a body's
   SPX_MAX_BODY_CONTACTS nearest partners (by the gap of their bounding spheres); the small boxes,
   within 0.15 m of its centre, are nearer than its support, which it would lose if they counted. */
static int filtered_pairs_outside_the_limit(void)
{
    spx_world* w = make_world(NULL, NULL);
    TEST_ENSURE(w);
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20), spx_default_filter(), NULL);
    add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), NULL);
    spx_body_id top =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 1.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), spx_default_filter(), NULL);
    for (int i = 0; i < 48; ++i) {
        const spx_vec3 at = spx_v3(0.06f * (float)(i % 4) - 0.09f, 1.5f + 0.06f * (float)(i / 16) - 0.06f,
                                   0.06f * (float)(i / 4 % 4) - 0.09f);
        add_box(w, SPX_BODY_KINEMATIC, at, spx_v3(0.02f, 0.02f, 0.02f), filter(1, 0, 0), NULL);
    }
    for (int k = 0; k < 60; ++k) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        spx_step_stats st;
        spx_world_get_stats(w, &st);
        TEST_ENSURE(!(st.flags & SPX_STEP_CONTACT_LIMIT) &&
                    st.manifold_count == 2); /* top on the box, box on the ground */
        spx_transform t;
        spx_body_get_transform(w, top, &t);
        TEST_ENSURE_NEAR(t.p.y, 1.5f, 0.002f);
    }
    spx_world_destroy(w);
    return 0;
}

/* A fast box filtered out of a thin wall passes it in the continuous stage too; with the default
   filter it is stopped. */
static int continuous_stage_filtered(void)
{
    for (int pass = 0; pass < 2; ++pass) {
        spx_world_def wd = spx_default_world_def();
        wd.gravity = spx_v3(0, 0, 0);
        spx_world* w = NULL;
        TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
        add_box(w, SPX_BODY_STATIC, spx_v3(10, 0, 0), spx_v3(0.05f, 5, 5), filter(2, UINT64_MAX, 0), NULL);
        spx_body_id bullet = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), spx_v3(0.1f, 0.1f, 0.1f),
                                     pass ? filter(1, ~2ull, 0) : spx_default_filter(), NULL);
        TEST_ENSURE_CODE(spx_body_set_velocity(w, bullet, spx_v3(300, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
        for (int k = 0; k < 6; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        spx_transform t;
        spx_body_get_transform(w, bullet, &t);
        if (pass) TEST_ENSURE(t.p.x > 20.0f);
        else TEST_ENSURE(t.p.x < 10.0f);
        spx_world_destroy(w);
    }
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(truth_table, failures);
    TEST_RUN(truth_table_in_a_world, failures);
    TEST_RUN(custom_callback, failures);
    TEST_RUN(filter_changed_at_run_time, failures);
    TEST_RUN(ground_filter_changed_under_sleeper, failures);
    TEST_RUN(filtered_pairs_outside_the_limit, failures);
    TEST_RUN(continuous_stage_filtered, failures);
    return failures ? 1 : 0;
}
