/* Sensors: events equal to brute-force overlaps step by step (the overlaps at each step's start; a
   pair neither of whose bodies moves keeps its state), in sorted order, the same in two runs; no
   contact with a sensor; sensors see no sensors; destroyed shapes and bodies end their overlaps. */
#include "support/test.h"
#include "support/pieces.h"
#include <sepax/sepax.h>
#include <stdint.h>
#include <stdlib.h>

static const float dt = 1.0f / 60.0f;

#define MAX_SHAPES 64

/* The scene as the test knows it: every shape's body, def placement, sensor flag and filter. */
typedef struct scene {
    spx_world* w;
    int shape_count;
    spx_shape_id shape[MAX_SHAPES];
    spx_body_id body[MAX_SHAPES];
    spx_shape_def def[MAX_SHAPES];
    bool expected[MAX_SHAPES][MAX_SHAPES]; /* [sensor][visitor]: the brute force's */
    bool reported[MAX_SHAPES][MAX_SHAPES]; /* what the events say */
    uint64_t hash;
} scene;

static spx_body_id add(scene* s, spx_body_type type, spx_vec3 p, const spx_shape_def* shapes, int count)
{
    spx_body_def d = spx_default_body_def();
    d.type = type;
    d.position = p;
    d.shapes = shapes;
    d.shape_count = (uint32_t)count;
    spx_body_id id = { 0 };
    if (spx_body_create(s->w, &d, &id) != SPX_OK) return id;
    for (int k = 0; k < count; ++k) {
        spx_body_get_shape(s->w, id, (uint32_t)k, &s->shape[s->shape_count]);
        s->body[s->shape_count] = id;
        s->def[s->shape_count++] = shapes[k];
    }
    return id;
}

static spx_shape_def box(spx_vec3 half, spx_vec3 at, bool sensor)
{
    spx_shape_def d = spx_default_shape_def();
    d.half_extents = half;
    d.local.p = at;
    d.is_sensor = sensor;
    return d;
}

static int find(const scene* s, spx_shape_id id)
{
    for (int k = 0; k < s->shape_count; ++k)
        if (s->shape[k].index == id.index && s->shape[k].generation == id.generation) return k;
    return -1;
}

/* Shape k's box in the world, from its body's placement (defs here have no local rotation). */
static spx_obb world_box(const scene* s, int k)
{
    spx_transform t;
    spx_body_get_transform(s->w, s->body[k], &t);
    const double x = t.q.x, y = t.q.y, z = t.q.z, w = t.q.w;
    const double r[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
                             { 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
                             { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) } };
    const spx_vec3 l = s->def[k].local.p;
    spx_obb o;
    o.center = spx_v3((float)(t.p.x + r[0][0] * l.x + r[0][1] * l.y + r[0][2] * l.z),
                      (float)(t.p.y + r[1][0] * l.x + r[1][1] * l.y + r[1][2] * l.z),
                      (float)(t.p.z + r[2][0] * l.x + r[2][1] * l.y + r[2][2] * l.z));
    o.half_extents = s->def[k].half_extents;
    for (int c = 0; c < 3; ++c) o.rotation.col[c] = spx_v3((float)r[0][c], (float)r[1][c], (float)r[2][c]);
    return o;
}

static bool moving(const scene* s, int k)
{
    spx_body_type type;
    bool awake;
    spx_body_get_type(s->w, s->body[k], &type);
    spx_body_is_awake(s->w, s->body[k], &awake);
    return type != SPX_BODY_STATIC && awake;
}

/* The brute force before a step: every sensor against every other body's non-sensor shape the
   filters allow, tested where they are when one of the bodies moves, kept as it was otherwise. */
static void brute_force(scene* s)
{
    for (int a = 0; a < s->shape_count; ++a) {
        if (!s->def[a].is_sensor || !spx_shape_is_valid(s->w, s->shape[a])) continue;
        for (int b = 0; b < s->shape_count; ++b) {
            if (s->def[b].is_sensor || s->body[a].index == s->body[b].index || !spx_shape_is_valid(s->w, s->shape[b]) ||
                !spx_filter_should_collide(s->def[a].filter, s->def[b].filter))
                continue;
            if (!moving(s, a) && !moving(s, b)) continue;
            const spx_obb oa = world_box(s, a), ob = world_box(s, b);
            bool hit = false;
            spx_overlap_obb_obb(&oa, &ob, &hit);
            s->expected[a][b] = hit;
        }
    }
}

static void mix(uint64_t* h, uint64_t v) { *h = (*h ^ v) * 0x100000001B3ull; }

/* Applies the step's events to `reported`; checks their order, ids and that a begin is new and an
   end was there. */
static int apply_events(scene* s)
{
    const spx_sensor_event *begin, *end;
    uint32_t nb, ne;
    TEST_ENSURE_CODE(spx_world_get_sensor_events(s->w, &begin, &nb, &end, &ne), SPX_OK);
    for (int pass = 0; pass < 2; ++pass) {
        const spx_sensor_event* ev = pass ? begin : end;
        const uint32_t n = pass ? nb : ne;
        for (uint32_t i = 0; i < n; ++i) {
            if (i > 0) {
                const uint64_t k0 = (uint64_t)ev[i - 1].sensor.index << 32 | ev[i - 1].visitor.index;
                const uint64_t k1 = (uint64_t)ev[i].sensor.index << 32 | ev[i].visitor.index;
                TEST_ENSURE(k0 < k1);
            }
            const int a = find(s, ev[i].sensor), b = find(s, ev[i].visitor);
            TEST_ENSURE(a >= 0 && b >= 0);
            TEST_ENSURE(ev[i].sensor_body.index == s->body[a].index && ev[i].visitor_body.index == s->body[b].index);
            TEST_ENSURE(s->reported[a][b] != (bool)pass);
            s->reported[a][b] = pass;
            mix(&s->hash, (uint64_t)pass << 62 | (uint64_t)a << 32 | (uint64_t)b);
        }
    }
    return 0;
}

static int compare(const scene* s, int step)
{
    for (int a = 0; a < s->shape_count; ++a)
        for (int b = 0; b < s->shape_count; ++b)
            if (s->expected[a][b] != s->reported[a][b]) {
                fprintf(stderr, "step %d: sensor %d visitor %d: brute force %d, events %d\n", step, a, b,
                        s->expected[a][b], s->reported[a][b]);
                return 1;
            }
    return 0;
}

/* A ground; a static sensor zone reaching below the ground's top; a kinematic sensor sweeping to and
   fro; a dynamic body with a solid box and a sensor box above it; 30 boxes dropped with random
   poses and velocities, a third of them of a category the zone's mask leaves out. Over 240 steps
   boxes enter and leave the sensors, land, sleep inside the zone and are woken. */
static int run_scene(scene* s, int* total_events)
{
    memset(s, 0, sizeof *s);
    s->hash = 0xcbf29ce484222325ull;
    spx_world_def wd = spx_default_world_def();
    TEST_ENSURE(spx_world_create(&wd, &s->w) == SPX_OK);
    spx_shape_def g = box(spx_v3(20, 1, 20), spx_v3(0, 0, 0), false);
    add(s, SPX_BODY_STATIC, spx_v3(0, -1, 0), &g, 1);
    spx_shape_def zone = box(spx_v3(3, 1.5f, 3), spx_v3(0, 0, 0), true);
    zone.filter.mask_bits = ~2ull;
    add(s, SPX_BODY_STATIC, spx_v3(-2, 1, 0), &zone, 1);
    spx_shape_def sweep = box(spx_v3(0.5f, 2, 4), spx_v3(0, 0, 0), true);
    spx_body_id sweeper = add(s, SPX_BODY_KINEMATIC, spx_v3(-6, 2, 0), &sweep, 1);
    spx_shape_def carrier[2] = { box(spx_v3(0.5f, 0.25f, 0.5f), spx_v3(0, 0, 0), false),
                                 box(spx_v3(0.4f, 0.6f, 0.4f), spx_v3(0, 1, 0), true) };
    spx_body_id c = add(s, SPX_BODY_DYNAMIC, spx_v3(3, 3, 1), carrier, 2);
    spx_body_set_velocity(s->w, c, spx_v3(-2, 0, 0), spx_v3(0, 0, 0));
    uint32_t seed = 12345;
    for (int i = 0; i < 30; ++i) {
        spx_shape_def b =
            box(test_lcg_vec3(&seed, spx_v3(0.15f, 0.15f, 0.15f), spx_v3(0.5f, 0.5f, 0.5f)), spx_v3(0, 0, 0), false);
        if (i % 3 == 0) b.filter.category_bits = 2;
        spx_body_def d = spx_default_body_def();
        d.type = SPX_BODY_DYNAMIC;
        d.position = test_lcg_vec3(&seed, spx_v3(-6, 1, -4), spx_v3(4, 8, 4));
        d.rotation = test_lcg_rotation(&seed);
        d.linear_velocity = test_lcg_vec3(&seed, spx_v3(-3, -2, -3), spx_v3(3, 2, 3));
        d.angular_velocity = test_lcg_vec3(&seed, spx_v3(-2, -2, -2), spx_v3(2, 2, 2));
        d.shapes = &b;
        d.shape_count = 1;
        spx_body_id id;
        TEST_ENSURE(spx_body_create(s->w, &d, &id) == SPX_OK);
        spx_body_get_shape(s->w, id, 0, &s->shape[s->shape_count]);
        s->body[s->shape_count] = id;
        s->def[s->shape_count++] = b;
    }
    *total_events = 0;
    for (int step = 0; step < 240; ++step) {
        const float vx = (step / 60) % 2 == 0 ? 6.0f : -6.0f;
        TEST_ENSURE_CODE(spx_body_set_velocity(s->w, sweeper, spx_v3(vx, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
        brute_force(s);
        TEST_ENSURE(spx_world_step(s->w, dt) == SPX_OK);
        if (apply_events(s) != 0 || compare(s, step) != 0) return 1;
        const spx_sensor_event* e;
        uint32_t nb, ne;
        spx_world_get_sensor_events(s->w, &e, &nb, NULL, &ne);
        *total_events += (int)(nb + ne);
    }
    return 0;
}

static int events_equal_brute_force(void)
{
    static scene one, two;
    int events_one = 0, events_two = 0;
    TEST_ENSURE(run_scene(&one, &events_one) == 0);
    TEST_ENSURE(run_scene(&two, &events_two) == 0);
    printf("sensor events over 240 steps: %d, hashes %016llx %016llx\n", events_one, (unsigned long long)one.hash,
           (unsigned long long)two.hash);
    TEST_ENSURE(events_one > 40);
    TEST_ENSURE(one.hash == two.hash);
    /* Some boxes rest asleep inside the zone, still reported. */
    int resting = 0;
    for (int b = 0; b < one.shape_count; ++b) resting += one.reported[1][b] && !moving(&one, b);
    TEST_ENSURE(resting > 0);
    spx_world_destroy(one.w);
    spx_world_destroy(two.w);
    return 0;
}

/* A sensor makes no contact: a box falls through a static sensor slab, and a body with a sensor
   shape weighs it. A sensor sees no sensor, and a static sensor no static shape. */
static int sensors_make_no_contact(void)
{
    static scene s;
    memset(&s, 0, sizeof s);
    spx_world_def wd = spx_default_world_def();
    TEST_ENSURE(spx_world_create(&wd, &s.w) == SPX_OK);
    spx_shape_def slab = box(spx_v3(5, 0.25f, 5), spx_v3(0, 0, 0), true);
    add(&s, SPX_BODY_STATIC, spx_v3(0, 0, 0), &slab, 1);
    spx_shape_def rock = box(spx_v3(1, 1, 1), spx_v3(0, 0, 0), false);
    add(&s, SPX_BODY_STATIC, spx_v3(4, 0, 0), &rock, 1); /* static in a static sensor: never seen */
    spx_shape_def b = box(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0), false);
    spx_body_id falling = add(&s, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), &b, 1);
    spx_shape_def ghost = box(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0), true);
    spx_body_id g = add(&s, SPX_BODY_DYNAMIC, spx_v3(-2, 2, 0), &ghost, 1);
    float mass = 0;
    TEST_ENSURE_CODE(spx_body_get_mass(s.w, g, &mass), SPX_OK);
    TEST_ENSURE_NEAR(mass, 1000.0f, 0.01f);
    bool is_sensor = false;
    TEST_ENSURE_CODE(spx_shape_is_sensor(s.w, s.shape[3], &is_sensor), SPX_OK);
    TEST_ENSURE(is_sensor);
    int begun = 0, ended = 0;
    for (int k = 0; k < 90; ++k) {
        TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
        const spx_sensor_event *be, *en;
        uint32_t nb, ne;
        spx_world_get_sensor_events(s.w, &be, &nb, &en, &ne);
        for (uint32_t i = 0; i < nb; ++i) {
            TEST_ENSURE(be[i].sensor.index == s.shape[0].index && be[i].visitor.index == s.shape[2].index);
            ++begun;
        }
        for (uint32_t i = 0; i < ne; ++i) {
            TEST_ENSURE(en[i].visitor.index == s.shape[2].index);
            ++ended;
        }
    }
    TEST_ENSURE(begun == 1 && ended == 1); /* the falling box passed through; the ghost sensor and the rock never */
    spx_transform t;
    spx_body_get_transform(s.w, falling, &t);
    TEST_ENSURE(t.p.y < -5.0f);
    spx_world_destroy(s.w);
    return 0;
}

/* Destroying the visitor's shape, or the sensor's body, ends the overlap at the next step with the
   now stale ids. */
static int destruction_ends_overlaps(void)
{
    static scene s;
    memset(&s, 0, sizeof s);
    spx_world_def wd = spx_default_world_def();
    wd.gravity = spx_v3(0, 0, 0);
    TEST_ENSURE(spx_world_create(&wd, &s.w) == SPX_OK);
    spx_shape_def zone = box(spx_v3(3, 3, 3), spx_v3(0, 0, 0), true);
    spx_body_id z = add(&s, SPX_BODY_KINEMATIC, spx_v3(0, 0, 0), &zone, 1);
    spx_shape_def two[2] = { box(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0), false),
                             box(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(1.5f, 0, 0), false) };
    add(&s, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), two, 2);
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    const spx_sensor_event *be, *en;
    uint32_t nb, ne;
    spx_world_get_sensor_events(s.w, &be, &nb, &en, &ne);
    TEST_ENSURE(nb == 2 && ne == 0);
    TEST_ENSURE_CODE(spx_shape_destroy(s.w, s.shape[1]), SPX_OK);
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    spx_world_get_sensor_events(s.w, &be, &nb, &en, &ne);
    TEST_ENSURE(nb == 0 && ne == 1);
    TEST_ENSURE(en[0].visitor.index == s.shape[1].index && !spx_shape_is_valid(s.w, en[0].visitor));
    TEST_ENSURE_CODE(spx_body_destroy(s.w, z), SPX_OK);
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    spx_world_get_sensor_events(s.w, &be, &nb, &en, &ne);
    TEST_ENSURE(nb == 0 && ne == 1);
    TEST_ENSURE(en[0].visitor.index == s.shape[2].index && !spx_shape_is_valid(s.w, en[0].sensor));
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    spx_world_get_sensor_events(s.w, &be, &nb, &en, &ne);
    TEST_ENSURE(nb == 0 && ne == 0);
    TEST_ENSURE_CODE(spx_world_get_sensor_events(NULL, &be, &nb, &en, &ne), SPX_ERR_INVALID_ARGUMENT);
    spx_world_destroy(s.w);
    return 0;
}

/* Counts of the last step's contact and sensor events of the shape pair (a, b). */
static void pair_events(spx_world* w, spx_shape_id a, spx_shape_id b, int* contact_begin, int* contact_end,
                        int* sensor_begin, int* sensor_end)
{
    const spx_contact_event *cb, *ce;
    const spx_sensor_event *sb, *se;
    uint32_t ncb = 0, nce = 0, nsb = 0, nse = 0;
    spx_world_get_contact_events(w, &cb, &ncb, &ce, &nce);
    spx_world_get_sensor_events(w, &sb, &nsb, &se, &nse);
    *contact_begin = *contact_end = *sensor_begin = *sensor_end = 0;
    for (uint32_t k = 0; k < ncb; ++k)
        *contact_begin += cb[k].shape_a.index == a.index && cb[k].shape_b.index == b.index;
    for (uint32_t k = 0; k < nce; ++k) *contact_end += ce[k].shape_a.index == a.index && ce[k].shape_b.index == b.index;
    for (uint32_t k = 0; k < nsb; ++k) *sensor_begin += sb[k].sensor.index == a.index && sb[k].visitor.index == b.index;
    for (uint32_t k = 0; k < nse; ++k) *sensor_end += se[k].sensor.index == a.index && se[k].visitor.index == b.index;
}

/* spx_shape_set_sensor from inside a step (the pre-solve callback) is refused. */
static spx_world* locked_world;
static spx_shape_id locked_shape;
static spx_result locked_answer = SPX_OK;

static bool set_sensor_in_step(const spx_contact_data* c, void* context)
{
    (void)c, (void)context;
    locked_answer = spx_shape_set_sensor(locked_world, locked_shape, true);
    return true;
}

/* The sensor flag changed at run time, under a box asleep on the ground: its contact ends and its
   visit begins at the next step, and the box, woken, falls into the ground; made solid again, the
   visit ends and a contact begins at the next step, the box woken the same way. A visitor made a
   sensor stops visiting; a sensor whose filter no longer sees its sleeping visitor ends the visit. */
static int sensor_flag_changes_at_run_time(void)
{
    static scene s;
    memset(&s, 0, sizeof s);
    spx_world_def wd = spx_default_world_def();
    TEST_ENSURE(spx_world_create(&wd, &s.w) == SPX_OK);
    spx_shape_def ground = box(spx_v3(5, 0.5f, 5), spx_v3(0, 0, 0), false);
    add(&s, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), &ground, 1);
    spx_shape_def b = box(spx_v3(0.5f, 0.5f, 0.5f), spx_v3(0, 0, 0), false);
    spx_body_id crate = add(&s, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), &b, 1);
    const spx_shape_id g = s.shape[0], c = s.shape[1];
    bool awake = true;
    for (int k = 0; k < 240 && awake; ++k) {
        TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
        TEST_ENSURE_CODE(spx_body_is_awake(s.w, crate, &awake), SPX_OK);
    }
    TEST_ENSURE(!awake);
    TEST_ENSURE_CODE(spx_shape_set_sensor(s.w, g, true), SPX_OK);
    bool flag = false;
    TEST_ENSURE_CODE(spx_shape_is_sensor(s.w, g, &flag), SPX_OK);
    TEST_ENSURE(flag);
    TEST_ENSURE_CODE(spx_body_is_awake(s.w, crate, &awake), SPX_OK);
    TEST_ENSURE(awake);
    int cb, ce, sb, se;
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    pair_events(s.w, g, c, &cb, &ce, &sb, &se);
    TEST_ENSURE(cb == 0 && ce == 1 && sb == 1 && se == 0);
    uint32_t n = 1;
    TEST_ENSURE_CODE(spx_body_get_contacts(s.w, crate, NULL, 0, &n), SPX_OK);
    TEST_ENSURE(n == 0);
    for (int k = 0; k < 10; ++k) TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    spx_transform t;
    spx_body_get_transform(s.w, crate, &t);
    TEST_ENSURE(t.p.y < 0.4f); /* it sank into the ground, now a sensor */
    /* Solid again; the same answer twice changes nothing. */
    TEST_ENSURE_CODE(spx_shape_set_sensor(s.w, g, false), SPX_OK);
    TEST_ENSURE_CODE(spx_shape_set_sensor(s.w, g, false), SPX_OK);
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    pair_events(s.w, g, c, &cb, &ce, &sb, &se);
    TEST_ENSURE(cb == 1 && ce == 0 && sb == 0 && se == 1);
    /* A sensor shape of a resting body, asleep inside a static sensor, made solid: it was a visitor of
       the sensor and now is not. */
    spx_shape_def zone = box(spx_v3(3, 3, 3), spx_v3(0, 0, 0), true);
    add(&s, SPX_BODY_STATIC, spx_v3(20, 0, 0), &zone, 1);
    spx_shape_def floor = box(spx_v3(3, 0.5f, 3), spx_v3(0, 0, 0), false);
    add(&s, SPX_BODY_STATIC, spx_v3(20, -0.5f, 0), &floor, 1);
    spx_body_id inside = add(&s, SPX_BODY_DYNAMIC, spx_v3(20, 0.5f, 0), &b, 1);
    const spx_shape_id z = s.shape[2], v = s.shape[4];
    awake = true;
    int visits = 0;
    for (int k = 0; k < 240 && awake; ++k) {
        TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
        pair_events(s.w, z, v, &cb, &ce, &sb, &se);
        visits += sb - se;
        TEST_ENSURE_CODE(spx_body_is_awake(s.w, inside, &awake), SPX_OK);
    }
    TEST_ENSURE(!awake && visits == 1);
    TEST_ENSURE_CODE(spx_shape_set_sensor(s.w, v, true), SPX_OK); /* a sensor: no visitor of another */
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    pair_events(s.w, z, v, &cb, &ce, &sb, &se);
    TEST_ENSURE(sb == 0 && se == 1);
    TEST_ENSURE_CODE(spx_shape_set_sensor(s.w, v, false), SPX_OK);
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    pair_events(s.w, z, v, &cb, &ce, &sb, &se);
    TEST_ENSURE(sb == 1 && se == 0);
    /* Asleep again, the static sensor's filter changed to see nothing: its visitor is woken by nothing
       (it touches the sensor, not through a contact), and the visit still ends at the next step. */
    awake = true;
    for (int k = 0; k < 240 && awake; ++k) {
        TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
        TEST_ENSURE_CODE(spx_body_is_awake(s.w, inside, &awake), SPX_OK);
    }
    TEST_ENSURE(!awake);
    spx_filter none = spx_default_filter();
    none.mask_bits = 0;
    TEST_ENSURE_CODE(spx_shape_set_filter(s.w, z, none), SPX_OK);
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    pair_events(s.w, z, v, &cb, &ce, &sb, &se);
    TEST_ENSURE(sb == 0 && se == 1);
    /* Bad input. */
    spx_shape_id stale = g;
    stale.generation++;
    TEST_ENSURE_CODE(spx_shape_set_sensor(s.w, stale, true), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_shape_set_sensor(NULL, g, true), SPX_ERR_INVALID_ARGUMENT);
    spx_world_destroy(s.w);
    memset(&s, 0, sizeof s);
    wd.pre_solve = set_sensor_in_step;
    TEST_ENSURE(spx_world_create(&wd, &s.w) == SPX_OK);
    add(&s, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), &ground, 1);
    add(&s, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), &b, 1);
    locked_world = s.w, locked_shape = s.shape[0];
    TEST_ENSURE(spx_world_step(s.w, dt) == SPX_OK);
    TEST_ENSURE_CODE(locked_answer, SPX_ERR_WORLD_LOCKED);
    TEST_ENSURE_CODE(spx_shape_is_sensor(s.w, s.shape[0], &flag), SPX_OK);
    TEST_ENSURE(!flag);
    spx_world_destroy(s.w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(events_equal_brute_force, failures);
    TEST_RUN(sensors_make_no_contact, failures);
    TEST_RUN(destruction_ends_overlaps, failures);
    TEST_RUN(sensor_flag_changes_at_run_time, failures);
    return failures ? 1 : 0;
}
