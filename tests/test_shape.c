/* Shapes as objects: ids for the shapes a body is made with and for those added later, a dynamic
   body's mass made again as shapes come and go, per-shape materials, contact events that name the
   shapes, and every bad id or input answered with its code. */
#include "support/test.h"
#include "support/scenes.h"
#include <sepax/sepax.h>

static const float dt = 1.0f / 60.0f;

static spx_shape_def box_def(spx_vec3 half, spx_vec3 at)
{
    spx_shape_def s = spx_default_shape_def();
    s.half_extents = half;
    s.local.p = at;
    return s;
}

static spx_body_id add_body(spx_world* w, spx_body_type type, spx_vec3 p, const spx_shape_def* shapes, uint32_t count)
{
    spx_body_def d = test_body_def(type, p);
    d.shapes = shapes;
    d.shape_count = count;
    spx_body_id id = { 0 };
    spx_body_create(w, &d, &id);
    return id;
}

static spx_body_id add_ground(spx_world* w)
{
    spx_shape_def g = box_def(spx_v3(20, 1, 20), spx_v3(0, 0, 0));
    return add_body(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), &g, 1);
}

static bool same_shape(spx_shape_id a, spx_shape_id b)
{
    return a.index == b.index && a.world == b.world && a.generation == b.generation;
}

/* A body's shapes get ids in def order; each leads back to its body and index. */
static int shapes_of_a_body_have_ids(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_shape_def s[3] = { box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(-1, 0, 0)),
                           box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0)),
                           box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(1, 0, 0)) };
    int tags[3];
    for (int k = 0; k < 3; ++k) s[k].user_data = &tags[k];
    spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), s, 3);
    spx_shape_id ids[4];
    uint32_t n = 0;
    TEST_ENSURE_CODE(spx_body_get_shapes(w, b, NULL, 0, &n), SPX_OK);
    TEST_ENSURE(n == 3);
    TEST_ENSURE_CODE(spx_body_get_shapes(w, b, ids, 2, &n), SPX_OK); /* room for two: two written, three counted */
    TEST_ENSURE(n == 3);
    TEST_ENSURE_CODE(spx_body_get_shapes(w, b, ids, 4, &n), SPX_OK);
    for (uint32_t k = 0; k < 3; ++k) {
        spx_shape_id by_index;
        TEST_ENSURE_CODE(spx_body_get_shape(w, b, k, &by_index), SPX_OK);
        TEST_ENSURE(same_shape(by_index, ids[k]) && spx_shape_is_valid(w, ids[k]));
        spx_body_id owner;
        uint32_t index;
        void* data;
        TEST_ENSURE_CODE(spx_shape_get_body(w, ids[k], &owner), SPX_OK);
        TEST_ENSURE(owner.index == b.index && owner.generation == b.generation);
        TEST_ENSURE_CODE(spx_shape_get_index(w, ids[k], &index), SPX_OK);
        TEST_ENSURE(index == k);
        TEST_ENSURE_CODE(spx_shape_get_user_data(w, ids[k], &data), SPX_OK);
        TEST_ENSURE(data == &tags[k]);
        for (uint32_t j = 0; j < k; ++j) TEST_ENSURE(!same_shape(ids[j], ids[k]));
    }
    /* Destroying the middle one moves the last down to index 1; its id stays. */
    TEST_ENSURE_CODE(spx_shape_destroy(w, ids[1]), SPX_OK);
    uint32_t index = 9;
    TEST_ENSURE_CODE(spx_shape_get_index(w, ids[2], &index), SPX_OK);
    TEST_ENSURE(index == 1);
    spx_shape_id second;
    TEST_ENSURE_CODE(spx_body_get_shape(w, b, 1, &second), SPX_OK);
    TEST_ENSURE(same_shape(second, ids[2]));
    TEST_ENSURE_CODE(spx_body_get_shape(w, b, 2, &second), SPX_ERR_INVALID_ARGUMENT);
    spx_world_destroy(w);
    return 0;
}

/* Mass, centre of mass: a 1 m cube of 1000 kg/m^3 is 1000 kg at its centre; a second one 2 m along x
   makes 2000 kg centred 1 m along; destroying it gives back the first body's numbers exactly. */
static int shape_create_destroy_updates_mass(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_shape_def one = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0));
    spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 10, 0), &one, 1);
    float m0 = 0, m1 = 0, m2 = 0;
    spx_vec3 c0, c1, c2;
    TEST_ENSURE_CODE(spx_body_get_mass(w, b, &m0), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_center_of_mass(w, b, &c0), SPX_OK);
    TEST_ENSURE_NEAR(m0, 1000.0f, 1e-3f);
    spx_shape_def two = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(2, 0, 0));
    spx_shape_id added;
    TEST_ENSURE_CODE(spx_shape_create(w, b, &two, &added), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_mass(w, b, &m1), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_center_of_mass(w, b, &c1), SPX_OK);
    TEST_ENSURE_NEAR(m1, 2000.0f, 1e-2f);
    TEST_ENSURE_NEAR(c1.x, c0.x + 1.0f, 1e-5f);
    TEST_ENSURE_NEAR(c1.y, 10.0f, 1e-5f);
    spx_transform t;
    TEST_ENSURE_CODE(spx_body_get_transform(w, b, &t), SPX_OK);
    TEST_ENSURE(t.p.x == 0.0f && t.p.y == 10.0f); /* the origin stays */
    TEST_ENSURE_CODE(spx_shape_destroy(w, added), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_mass(w, b, &m2), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_center_of_mass(w, b, &c2), SPX_OK);
    TEST_ENSURE(m2 == m0 && c2.x == c0.x && c2.y == c0.y && c2.z == c0.z);
    TEST_ENSURE(!spx_shape_is_valid(w, added));
    /* A static body's shapes change without mass. */
    spx_body_id g = add_ground(w);
    TEST_ENSURE_CODE(spx_shape_create(w, g, &two, &added), SPX_OK);
    float mg = 1;
    TEST_ENSURE_CODE(spx_body_get_mass(w, g, &mg), SPX_OK);
    TEST_ENSURE(mg == 0.0f);
    spx_world_destroy(w);
    return 0;
}

/* The inertia follows the shapes: a dumbbell of two cubes 4 m apart turns more slowly under the same
   angular impulse about a cross axis than the lone cube, and exactly as before once the second cube
   is gone. */
static int shape_changes_inertia(void)
{
    spx_world_def wd = spx_default_world_def();
    wd.gravity = spx_v3(0, 0, 0);
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    spx_shape_def one = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0));
    spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), &one, 1);
    spx_shape_def two = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(4, 0, 0));
    float spin[3];
    spx_shape_id added = { 0 };
    for (int k = 0; k < 3; ++k) {
        if (k == 1) TEST_ENSURE_CODE(spx_shape_create(w, b, &two, &added), SPX_OK);
        if (k == 2) TEST_ENSURE_CODE(spx_shape_destroy(w, added), SPX_OK);
        spx_vec3 c;
        TEST_ENSURE_CODE(spx_body_set_velocity(w, b, spx_v3(0, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
        TEST_ENSURE_CODE(spx_body_get_center_of_mass(w, b, &c), SPX_OK);
        /* A couple about z: +y at c + x, -y at c - x. */
        TEST_ENSURE_CODE(spx_body_apply_impulse(w, b, spx_v3(0, 100, 0), spx_v3(c.x + 1, c.y, c.z)), SPX_OK);
        TEST_ENSURE_CODE(spx_body_apply_impulse(w, b, spx_v3(0, -100, 0), spx_v3(c.x - 1, c.y, c.z)), SPX_OK);
        spx_vec3 v, o;
        TEST_ENSURE_CODE(spx_body_get_velocity(w, b, &v, &o), SPX_OK);
        spin[k] = o.z;
    }
    TEST_ENSURE(spin[0] > 0.0f && spin[1] > 0.0f && spin[1] < 0.2f * spin[0]);
    TEST_ENSURE(spin[2] == spin[0]);
    spx_world_destroy(w);
    return 0;
}

/* Stale and foreign ids, and bad input, get their codes and change nothing. */
static int bad_ids_and_input(void)
{
    spx_world* w = test_world_create(NULL);
    spx_world* other = test_world_create(NULL);
    TEST_ENSURE(w && other);
    spx_shape_def s = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0));
    spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), &s, 1);
    spx_body_id ob = add_body(other, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), &s, 1);
    spx_shape_id first, foreign, added, out;
    TEST_ENSURE_CODE(spx_body_get_shape(w, b, 0, &first), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_shape(other, ob, 0, &foreign), SPX_OK);
    TEST_ENSURE(foreign.index == first.index && foreign.generation == first.generation); /* only the world differs */
    spx_body_id owner;
    float f;
    void* data;
    uint32_t index;
    spx_shape_type type;
    const spx_shape_id null_id = { 0 };
    const spx_shape_id bad[2] = { foreign, null_id };
    for (int k = 0; k < 2; ++k) {
        TEST_ENSURE(!spx_shape_is_valid(w, bad[k]));
        TEST_ENSURE_CODE(spx_shape_get_body(w, bad[k], &owner), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_get_index(w, bad[k], &index), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_get_type(w, bad[k], &type), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_get_user_data(w, bad[k], &data), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_set_user_data(w, bad[k], NULL), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_get_material(w, bad[k], &f, &f), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_set_material(w, bad[k], 0.5f, 0.0f), SPX_ERR_STALE_ID);
        TEST_ENSURE_CODE(spx_shape_destroy(w, bad[k]), SPX_ERR_STALE_ID);
    }
    TEST_ENSURE_CODE(spx_shape_create(w, ob, &s, &out), SPX_ERR_STALE_ID); /* another world's body */
    TEST_ENSURE_CODE(spx_shape_create(NULL, b, &s, &out), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_shape_create(w, b, NULL, &out), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_shape_create(w, b, &s, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_shape_def raw;
    memset(&raw, 0, sizeof raw);
    TEST_ENSURE_CODE(spx_shape_create(w, b, &raw, &out), SPX_ERR_UNINITIALIZED_DEF);
    spx_shape_def bad_def = s;
    bad_def.half_extents.y = 0.0f;
    TEST_ENSURE_CODE(spx_shape_create(w, b, &bad_def, &out), SPX_ERR_BAD_EXTENT);
    bad_def = s;
    bad_def.restitution = 1.5f;
    TEST_ENSURE_CODE(spx_shape_create(w, b, &bad_def, &out), SPX_ERR_INVALID_ARGUMENT);
    bad_def = s;
    bad_def.friction = NAN;
    TEST_ENSURE_CODE(spx_shape_create(w, b, &bad_def, &out), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_shape_set_material(w, first, -1.0f, 0.0f), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_shape_set_material(w, first, INFINITY, 0.0f), SPX_ERR_NOT_FINITE);
    uint32_t n = 0;
    TEST_ENSURE_CODE(spx_body_get_shapes(w, b, NULL, 1, &n), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_body_get_shapes(w, b, NULL, 0, &n), SPX_OK);
    TEST_ENSURE(n == 1);
    /* The last shape stays: a body without shapes is not one. */
    TEST_ENSURE_CODE(spx_shape_destroy(w, first), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(spx_shape_is_valid(w, first));
    /* Up to SPX_MAX_BODY_SHAPES. */
    for (uint32_t k = 1; k < SPX_MAX_BODY_SHAPES; ++k) TEST_ENSURE_CODE(spx_shape_create(w, b, &s, &added), SPX_OK);
    TEST_ENSURE_CODE(spx_shape_create(w, b, &s, &out), SPX_ERR_INVALID_ARGUMENT);
    /* A destroyed shape's id goes stale, and stays so when its slot is used again. */
    TEST_ENSURE_CODE(spx_shape_destroy(w, added), SPX_OK);
    TEST_ENSURE_CODE(spx_shape_destroy(w, added), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_shape_create(w, b, &s, &out), SPX_OK);
    TEST_ENSURE(out.index == added.index && out.generation != added.generation);
    TEST_ENSURE(!spx_shape_is_valid(w, added) && spx_shape_is_valid(w, out));
    /* Destroying the body makes all its shapes' ids stale. */
    TEST_ENSURE_CODE(spx_body_destroy(w, b), SPX_OK);
    TEST_ENSURE(!spx_shape_is_valid(w, first) && !spx_shape_is_valid(w, out));
    TEST_ENSURE_CODE(spx_shape_create(w, b, &s, &out), SPX_ERR_STALE_ID);
    spx_world_destroy(w);
    spx_world_destroy(other);
    return 0;
}

/* Each shape has its own material: of two boxes sliding side by side on the ground, the one whose
   shape has no friction keeps its speed while the other stops; a shape without its own takes the
   body's. */
static int per_shape_material(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    add_ground(w);
    spx_shape_def s = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0));
    spx_body_id rough = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, -2), &s, 1);
    s.friction = 0.0f;
    spx_body_id slick = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 2), &s, 1);
    spx_shape_id rough_shape;
    TEST_ENSURE_CODE(spx_body_get_shape(w, rough, 0, &rough_shape), SPX_OK);
    float f = -1, e = -1;
    TEST_ENSURE_CODE(spx_shape_get_material(w, rough_shape, &f, &e), SPX_OK);
    TEST_ENSURE(f == 0.6f && e == 0.0f); /* the body def's defaults */
    TEST_ENSURE_CODE(spx_body_set_velocity(w, rough, spx_v3(3, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, slick, spx_v3(3, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
    for (int k = 0; k < 90; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    spx_vec3 vr, vs, o;
    spx_body_get_velocity(w, rough, &vr, &o);
    spx_body_get_velocity(w, slick, &vs, &o);
    TEST_ENSURE(fabsf(vr.x) < 0.01f);
    TEST_ENSURE_NEAR(vs.x, 3.0f, 0.01f);
    spx_world_destroy(w);
    return 0;
}

/* Contact events name shape pairs: a two-box body landing flat begins one event a box, with the ids
   spx_body_get_shapes gives; destroying one box ends its pair at the next step (its id now stale)
   while the other keeps touching and the body keeps resting. */
static int events_name_shapes(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_body_id g = add_ground(w);
    spx_shape_def s[2] = { box_def(spx_v3(0.5f, 0.25f, 0.5f), spx_v3(-1, 0, 0)),
                           box_def(spx_v3(0.5f, 0.25f, 0.5f), spx_v3(1, 0, 0)) };
    spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), s, 2);
    spx_shape_id ids[2], ground;
    uint32_t n;
    TEST_ENSURE_CODE(spx_body_get_shapes(w, b, ids, 2, &n), SPX_OK);
    TEST_ENSURE_CODE(spx_body_get_shape(w, g, 0, &ground), SPX_OK);
    int begun[2] = { 0, 0 };
    for (int k = 0; k < 60; ++k) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        const spx_contact_event* ev;
        uint32_t count, ended;
        TEST_ENSURE_CODE(spx_world_get_contact_events(w, &ev, &count, NULL, &ended), SPX_OK);
        TEST_ENSURE(ended == 0);
        for (uint32_t i = 0; i < count; ++i) {
            TEST_ENSURE(ev[i].a.index == g.index && ev[i].b.index == b.index); /* body order: the ground first */
            TEST_ENSURE(same_shape(ev[i].shape_a, ground));
            TEST_ENSURE(same_shape(ev[i].shape_b, ids[0]) || same_shape(ev[i].shape_b, ids[1]));
            ++begun[same_shape(ev[i].shape_b, ids[1])];
            if (i > 0) TEST_ENSURE(ev[i - 1].shape_b.index < ev[i].shape_b.index);
        }
    }
    TEST_ENSURE(begun[0] == 1 && begun[1] == 1);
    TEST_ENSURE_CODE(spx_shape_destroy(w, ids[0]), SPX_OK);
    TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    const spx_contact_event *begin, *end;
    uint32_t nb, ne;
    TEST_ENSURE_CODE(spx_world_get_contact_events(w, &begin, &nb, &end, &ne), SPX_OK);
    TEST_ENSURE(nb == 0 && ne == 1);
    TEST_ENSURE(same_shape(end[0].shape_b, ids[0]) && same_shape(end[0].shape_a, ground));
    TEST_ENSURE(!spx_shape_is_valid(w, end[0].shape_b));
    for (int k = 0; k < 30; ++k) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        TEST_ENSURE_CODE(spx_world_get_contact_events(w, &begin, &nb, &end, &ne), SPX_OK);
        TEST_ENSURE(ne == 0);
    }
    spx_transform t;
    spx_body_get_transform(w, b, &t);
    TEST_ENSURE(t.p.y > 0.2f); /* held up by the other box */
    spx_world_destroy(w);
    return 0;
}

/* A shape added under a sleeping body wakes it: a box resting asleep on the ground gets a box placed
   beside it, against the ground's top, and the body tips or rises rather than stay asleep in
   overlap. */
static int shape_create_wakes(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    add_ground(w);
    spx_shape_def s = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0));
    spx_body_id b = add_body(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), &s, 1);
    bool awake = true;
    for (int k = 0; k < 300 && awake; ++k) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        spx_body_is_awake(w, b, &awake);
    }
    TEST_ENSURE(!awake);
    spx_shape_def below = box_def(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(1, -0.3f, 0));
    spx_shape_id added;
    TEST_ENSURE_CODE(spx_shape_create(w, b, &below, &added), SPX_OK);
    TEST_ENSURE_CODE(spx_body_is_awake(w, b, &awake), SPX_OK);
    TEST_ENSURE(awake);
    for (int k = 0; k < 60; ++k) TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    spx_vec3 c;
    spx_body_get_center_of_mass(w, b, &c);
    spx_transform t;
    spx_body_get_transform(w, b, &t);
    TEST_ENSURE(t.p.y > 0.55f || fabsf(t.q.z) > 0.01f); /* pushed out of the ground */
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(shapes_of_a_body_have_ids, failures);
    TEST_RUN(shape_create_destroy_updates_mass, failures);
    TEST_RUN(shape_changes_inertia, failures);
    TEST_RUN(bad_ids_and_input, failures);
    TEST_RUN(per_shape_material, failures);
    TEST_RUN(events_name_shapes, failures);
    TEST_RUN(shape_create_wakes, failures);
    return failures ? 1 : 0;
}
