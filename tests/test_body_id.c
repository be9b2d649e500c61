/* Body ids name their world: an id of another world, live or destroyed, is stale in every call that
   takes one, and a world's number is unique among live worlds and not soon reused. */
#include "support/test.h"
#include "support/scenes.h"
#include "core/world_number.h"
#include <sepax/sepax.h>

/* Every call that takes a body id, given `id`, which w must not know: each answers
   SPX_ERR_STALE_ID (is_valid: false) and writes nothing. */
static int every_call_refuses(spx_world* w, spx_body_id id)
{
    TEST_ENSURE(!spx_body_is_valid(w, id));
    spx_transform t = { { 7, 7, 7 }, { 0, 0, 0, 1 } };
    const spx_transform keep = t;
    TEST_ENSURE_CODE(spx_body_get_transform(w, id, &t), SPX_ERR_STALE_ID);
    TEST_ENSURE(memcmp(&t, &keep, sizeof t) == 0);
    const spx_transform moved = { { 0, 9, 0 }, { 0, 0, 0, 1 } };
    TEST_ENSURE_CODE(spx_body_set_transform(w, id, &moved), SPX_ERR_STALE_ID);
    spx_vec3 v = { 7, 7, 7 }, av = { 7, 7, 7 };
    TEST_ENSURE_CODE(spx_body_get_velocity(w, id, &v, &av), SPX_ERR_STALE_ID);
    TEST_ENSURE(v.x == 7 && av.x == 7);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, id, spx_v3(1, 0, 0), spx_v3(0, 1, 0)), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_body_apply_impulse(w, id, spx_v3(0, 100, 0), spx_v3(0, 0, 0)), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_body_get_center_of_mass(w, id, &v), SPX_ERR_STALE_ID);
    float m = 7;
    TEST_ENSURE_CODE(spx_body_get_mass(w, id, &m), SPX_ERR_STALE_ID);
    TEST_ENSURE(m == 7);
    spx_body_type type = SPX_BODY_KINEMATIC;
    TEST_ENSURE_CODE(spx_body_get_type(w, id, &type), SPX_ERR_STALE_ID);
    TEST_ENSURE(type == SPX_BODY_KINEMATIC);
    bool awake = false;
    TEST_ENSURE_CODE(spx_body_is_awake(w, id, &awake), SPX_ERR_STALE_ID);
    TEST_ENSURE(!awake);
    TEST_ENSURE_CODE(spx_body_set_awake(w, id, false), SPX_ERR_STALE_ID);
    void* data = &m;
    TEST_ENSURE_CODE(spx_body_get_user_data(w, id, &data), SPX_ERR_STALE_ID);
    TEST_ENSURE(data == &m);
    TEST_ENSURE_CODE(spx_body_set_user_data(w, id, &type), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_body_set_material(w, id, 0.1f, 0.9f), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_body_destroy(w, id), SPX_ERR_STALE_ID);
    return 0;
}

/* The body w2 made as `own` is as it was: a foreign id touched nothing of it. */
static int untouched(spx_world* w, spx_body_id own, spx_vec3 position, void* user_data)
{
    TEST_ENSURE(spx_body_is_valid(w, own));
    spx_transform t;
    spx_vec3 v, av;
    void* data = NULL;
    bool awake = false;
    TEST_ENSURE(spx_body_get_transform(w, own, &t) == SPX_OK);
    TEST_ENSURE(t.p.x == position.x && t.p.y == position.y && t.p.z == position.z);
    TEST_ENSURE(spx_body_get_velocity(w, own, &v, &av) == SPX_OK);
    TEST_ENSURE(v.x == 0 && v.y == 0 && v.z == 0 && av.x == 0 && av.y == 0 && av.z == 0);
    TEST_ENSURE(spx_body_get_user_data(w, own, &data) == SPX_OK && data == user_data);
    TEST_ENSURE(spx_body_is_awake(w, own, &awake) == SPX_OK && awake);
    spx_step_stats st;
    TEST_ENSURE(spx_world_get_stats(w, &st) == SPX_OK);
    return 0;
}

/* Two worlds made alike give their first bodies the same slot and generation: only the world tells
   them apart. Each call with world 1's id on world 2 is refused, while world 1 lives and after it
   is destroyed, and world 2's own body is untouched throughout. */
static int foreign_id_refused_everywhere(void)
{
    spx_world* w1 = test_world_create(NULL);
    spx_world* w2 = test_world_create(NULL);
    TEST_ENSURE(w1 && w2);
    const spx_vec3 p = spx_v3(0, 2, 0);
    spx_body_id a = test_add_box(w1, SPX_BODY_DYNAMIC, p, spx_v3(0.5f, 0.5f, 0.5f));
    spx_body_id b = test_add_box(w2, SPX_BODY_DYNAMIC, p, spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(spx_body_is_valid(w1, a) && spx_body_is_valid(w2, b));
    TEST_ENSURE(a.index == b.index && a.generation == b.generation);
    TEST_ENSURE(a.world != 0 && b.world != 0 && a.world != b.world);
    static int mark;
    TEST_ENSURE(spx_body_set_user_data(w2, b, &mark) == SPX_OK);
    TEST_ENSURE(every_call_refuses(w2, a) == 0);
    TEST_ENSURE(untouched(w2, b, p, &mark) == 0);
    TEST_ENSURE(every_call_refuses(w1, b) == 0);
    TEST_ENSURE(spx_body_is_valid(w1, a));
    spx_world_destroy(w1);
    TEST_ENSURE(every_call_refuses(w2, a) == 0);
    TEST_ENSURE(untouched(w2, b, p, &mark) == 0);
    /* A world made after w1 is gone does not take its number: w1's id stays foreign there too. */
    spx_world* w3 = test_world_create(NULL);
    TEST_ENSURE(w3);
    spx_body_id c = test_add_box(w3, SPX_BODY_DYNAMIC, p, spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(c.index == a.index && c.generation == a.generation && c.world != a.world && c.world != b.world);
    TEST_ENSURE(every_call_refuses(w3, a) == 0);
    TEST_ENSURE(every_call_refuses(w3, b) == 0);
    /* An id with a forged world number, or none, is no id of any world. */
    spx_body_id forged = b;
    forged.world = 0;
    TEST_ENSURE(every_call_refuses(w2, forged) == 0);
    forged.world = (uint16_t)(b.world + 1u);
    TEST_ENSURE(every_call_refuses(w2, forged) == 0);
    const spx_body_id null_id = { 0 };
    TEST_ENSURE(every_call_refuses(w2, null_id) == 0);
    TEST_ENSURE(untouched(w2, b, p, &mark) == 0);
    spx_world_destroy(w3);
    spx_world_destroy(w2);
    return 0;
}

/* Contact events carry ids of their own world: each names a live body of it, none of the other's. */
static int events_name_their_world(void)
{
    spx_world* w1 = test_world_create(NULL);
    spx_world* w2 = test_world_create(NULL);
    TEST_ENSURE(w1 && w2);
    spx_world* worlds[2] = { w1, w2 };
    for (int k = 0; k < 2; ++k) {
        test_add_box(worlds[k], SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f));
        test_add_box(worlds[k], SPX_BODY_DYNAMIC, spx_v3(0, 0.52f, 0), spx_v3(0.5f, 0.5f, 0.5f));
        TEST_ENSURE(spx_world_step(worlds[k], 1.0f / 60.0f) == SPX_OK);
    }
    for (int k = 0; k < 2; ++k) {
        const spx_contact_event* begin = NULL;
        uint32_t n = 0;
        TEST_ENSURE(spx_world_get_contact_events(worlds[k], &begin, &n, NULL, NULL) == SPX_OK);
        TEST_ENSURE(n == 1);
        TEST_ENSURE(spx_body_is_valid(worlds[k], begin[0].a) && spx_body_is_valid(worlds[k], begin[0].b));
        TEST_ENSURE(!spx_body_is_valid(worlds[1 - k], begin[0].a) && !spx_body_is_valid(worlds[1 - k], begin[0].b));
    }
    spx_world_destroy(w1);
    spx_world_destroy(w2);
    return 0;
}

/* Numbers are unique among live worlds and handed out in turn: a destroyed world's number comes
   back only after every other one has been given. */
static int world_numbers_turn(void)
{
    spx_world* keep = test_world_create(NULL);
    TEST_ENSURE(keep);
    const uint16_t kept = test_add_box(keep, SPX_BODY_STATIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f)).world;
    uint16_t last = kept;
    for (int i = 0; i < 1000; ++i) {
        spx_world* w = test_world_create(NULL);
        TEST_ENSURE(w);
        const uint16_t n = test_add_box(w, SPX_BODY_STATIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f)).world;
        TEST_ENSURE(n != 0 && n != kept && n != last);
        TEST_ENSURE(n == (uint16_t)(last % SPX_WORLD_NUMBER_MAX + 1u));
        last = n;
        spx_world_destroy(w);
    }
    spx_world_destroy(keep);
    return 0;
}

/* With every number held, a world cannot be made (SPX_ERR_TOO_MANY_WORLDS, nothing leaked); one
   number given back makes room for one world. The numbers are taken through the registry itself:
   65,535 worlds would cost far more than this test should. */
static int too_many_worlds(void)
{
    static uint16_t held[SPX_WORLD_NUMBER_MAX];
    uint32_t count = 0;
    while (count < SPX_WORLD_NUMBER_MAX && spx_world_number_acquire(&held[count])) ++count;
    TEST_ENSURE(count == SPX_WORLD_NUMBER_MAX); /* no world of this test is alive */
    uint16_t extra;
    TEST_ENSURE(!spx_world_number_acquire(&extra));
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    TEST_ENSURE_CODE(spx_world_create(&wd, &w), SPX_ERR_TOO_MANY_WORLDS);
    TEST_ENSURE(w == NULL);
    spx_world_number_release(held[100]);
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK && w);
    TEST_ENSURE(test_add_box(w, SPX_BODY_STATIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f)).world == held[100]);
    TEST_ENSURE_CODE(spx_world_create(&wd, &(spx_world*){ NULL }), SPX_ERR_TOO_MANY_WORLDS);
    spx_world_destroy(w);
    for (uint32_t i = 0; i < count; ++i)
        if (i != 100) spx_world_number_release(held[i]);
    spx_world* again = test_world_create(NULL);
    TEST_ENSURE(again);
    spx_world_destroy(again);
    return 0;
}

/* A NULL output is SPX_ERR_INVALID_ARGUMENT before a stale id is looked at (base.h's order of
   faults), in every getter of a body, shape or joint. */
static int null_output_before_stale_id(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w != NULL);
    const spx_body_id a = test_add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f));
    const spx_body_id b = test_add_box(w, SPX_BODY_DYNAMIC, spx_v3(2, 0, 0), spx_v3(0.5f, 0.5f, 0.5f));
    spx_shape_id shape = { 0 };
    TEST_ENSURE_CODE(spx_body_get_shape(w, a, 0, &shape), SPX_OK);
    spx_joint_def jd = spx_default_joint_def(SPX_JOINT_HINGE);
    jd.body_a = a, jd.body_b = b;
    spx_joint_id joint = { 0 };
    TEST_ENSURE_CODE(spx_joint_create(w, &jd, &joint), SPX_OK);
    TEST_ENSURE_CODE(spx_joint_destroy(w, joint), SPX_OK);
    TEST_ENSURE_CODE(spx_body_destroy(w, a), SPX_OK);
    const spx_result codes[] = {
        spx_body_get_transform(w, a, NULL),      spx_body_get_center_of_mass(w, a, NULL),
        spx_body_get_mass(w, a, NULL),           spx_body_get_type(w, a, NULL),
        spx_body_is_awake(w, a, NULL),           spx_body_get_user_data(w, a, NULL),
        spx_shape_get_body(w, shape, NULL),      spx_shape_get_index(w, shape, NULL),
        spx_shape_get_type(w, shape, NULL),      spx_shape_is_sensor(w, shape, NULL),
        spx_shape_get_user_data(w, shape, NULL), spx_shape_get_filter(w, shape, NULL),
        spx_joint_get_user_data(w, joint, NULL),
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        if (codes[i] != SPX_ERR_INVALID_ARGUMENT)
            fprintf(stderr, "getter %zu of the list: %s\n", i, spx_result_string(codes[i]));
        TEST_ENSURE(codes[i] == SPX_ERR_INVALID_ARGUMENT);
    }
    void* data = NULL;
    TEST_ENSURE_CODE(spx_joint_get_user_data(w, joint, &data), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_shape_get_user_data(w, shape, &data), SPX_ERR_STALE_ID);
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(foreign_id_refused_everywhere, failures);
    TEST_RUN(events_name_their_world, failures);
    TEST_RUN(world_numbers_turn, failures);
    TEST_RUN(too_many_worlds, failures);
    TEST_RUN(null_output_before_stale_id, failures);
    return failures ? 1 : 0;
}
