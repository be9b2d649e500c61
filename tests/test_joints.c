/* Joints: ids and bad input, islands and sleep, and each kind against an analytic answer
   (pendulum period and energy, chain length, limits, motors, springs, welds, sliders). */
#include "support/test.h"
#include "support/counting_alloc.h"
#include "support/scenes.h"
#include "dynamics/world.h" /* to break a body's state as a solver fault would */
#include <sepax/sepax.h>
#include <stdint.h>
#include <stdlib.h>

static const float dt = 1.0f / 60.0f;
static const float pi = 3.14159265f;
static const spx_quat identity = { 0, 0, 0, 1 };
static int long_run = 0;

static spx_world* make_world(bool sleep)
{
    spx_world_def wd = spx_default_world_def();
    wd.enable_sleep = sleep;
    return test_world_create(&wd);
}

/* A box of mass `mass` (kg) and half extents `half`, without damping. */
static spx_body_id add_box(spx_world* w, spx_body_type type, spx_vec3 p, spx_vec3 half, float mass)
{
    spx_shape_def s = test_box_shape(half);
    s.density = mass / (8.0f * half.x * half.y * half.z);
    spx_body_def d = test_body_def(type, p);
    d.angular_damping = 0.0f;
    return test_body_create(w, d, s, NULL);
}

/* Downward crossings of zero by a quantity sampled after each step, timed by linear interpolation
   within the step. */
typedef struct crossings {
    double first, last, t;
    int count;
    float prev;
} crossings;

static void crossings_add(crossings* c, float x)
{
    c->t += dt;
    if (c->prev > 0.0f && x <= 0.0f) {
        const double tc = c->t - dt * (double)x / (double)(x - c->prev);
        if (c->count == 0) c->first = tc;
        c->last = tc;
        ++c->count;
    }
    c->prev = x;
}

/* What an oscillation test watches of its body: a turning speed, or an offset from rest. */
typedef enum watched { SPIN_Y, SPIN_Z, X_PAST_1 } watched;

static float watch(spx_world* w, spx_body_id body, watched what)
{
    spx_vec3 v, av;
    spx_body_get_velocity(w, body, &v, &av);
    return what == SPIN_Y ? av.y : what == SPIN_Z ? av.z : test_body_position(w, body).x - 1.0f;
}

/* Steps w up to `steps` times, or until `enough` downward zero crossings of what the body shows
   (0: all the steps), recording them in c. */
static int oscillate(spx_world* w, spx_body_id body, watched what, int steps, int enough, crossings* c)
{
    *c = (crossings){ -1, -1, 0, 0, watch(w, body, what) };
    for (int s = 0; s < steps && (enough == 0 || c->count < enough); ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        crossings_add(c, watch(w, body, what));
    }
    return 0;
}

/* A world without gravity or sleeping. */
static spx_world* make_weightless_world(void)
{
    spx_world_def wd = spx_default_world_def();
    wd.gravity = spx_v3(0, 0, 0);
    wd.enable_sleep = false;
    return test_world_create(&wd);
}

/* A joint of `type` from the world to `body` with an undamped spring of `hertz`, the rest default. */
static spx_joint_def spring_to_world(spx_joint_type type, spx_body_id body, float hertz)
{
    spx_joint_def d = spx_default_joint_def(type);
    d.body_b = body;
    d.spring = (spx_joint_spring){ true, hertz, 0.0f };
    return d;
}

static float dist3(spx_vec3 a, spx_vec3 b)
{
    const float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
    return sqrtf(x * x + y * y + z * z);
}

static spx_transform at(float x, float y, float z)
{
    spx_transform t = { { x, y, z }, { 0, 0, 0, 1 } };
    return t;
}

/* The point p of a body's frame in the world. */
static spx_vec3 world_point(spx_world* w, spx_body_id id, spx_vec3 p)
{
    spx_transform t;
    spx_body_get_transform(w, id, &t);
    const float qx = t.q.x, qy = t.q.y, qz = t.q.z, qw = t.q.w;
    /* p + 2 w (u x p) + 2 u x (u x p) */
    const float cx = qy * p.z - qz * p.y, cy = qz * p.x - qx * p.z, cz = qx * p.y - qy * p.x;
    const float tx = 2 * cx, ty = 2 * cy, tz = 2 * cz;
    return spx_v3(t.p.x + p.x + qw * tx + (qy * tz - qz * ty), t.p.y + p.y + qw * ty + (qz * tx - qx * tz),
                  t.p.z + p.z + qw * tz + (qx * ty - qy * tx));
}

static float speed_of(spx_world* w, spx_body_id id)
{
    spx_vec3 v, av;
    spx_body_get_velocity(w, id, &v, &av);
    return sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
}

/* Potential plus kinetic energy of dynamic bodies (J), gravity -9.81 y. */
static double energy(spx_world* w, const spx_body_id* ids, int n)
{
    double e = 0.0;
    spx_world_get_kinetic_energy(w, &e);
    for (int i = 0; i < n; ++i) {
        float m;
        spx_vec3 c;
        spx_body_get_mass(w, ids[i], &m);
        spx_body_get_center_of_mass(w, ids[i], &c);
        e += 9.81 * m * c.y;
    }
    return e;
}

/* ---- the framework ---- */

static int bad_input_is_rejected(void)
{
    spx_world* w = make_world(true);
    spx_world* other = make_world(true);
    TEST_ENSURE(w && other);
    const spx_body_id ground = add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(5, 1, 5), 1.0f);
    const spx_body_id a = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
    const spx_body_id b = add_box(w, SPX_BODY_DYNAMIC, spx_v3(1, 2, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
    const spx_body_id foreign = add_box(other, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
    spx_joint_id id = { 0, 0, 0 };
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
    d.body_a = a, d.body_b = b;
    TEST_ENSURE_CODE(spx_joint_create(NULL, &d, &id), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_joint_create(w, NULL, &id), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_joint_create(w, &d, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_joint_def t = d;
    t.type = SPX_JOINT_TYPE_COUNT;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_INVALID_ARGUMENT);
    t = d, t.internal_cookie = 0;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_UNINITIALIZED_DEF);
    t = d, t.body_b = foreign;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_STALE_ID);
    t = d, t.body_b = (spx_body_id){ 0, 0, 0 };
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_STALE_ID);
    t = d, t.body_a = b;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT); /* a body to itself */
    t = d, t.body_a = (spx_body_id){ 0, 0, 0 }, t.body_b = ground;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT); /* nothing dynamic */
    t = d, t.frame_a.p.y = NAN;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_NOT_FINITE);
    t = d, t.frame_b.q.w = INFINITY;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_NOT_FINITE);
    t = d, t.motor.speed = NAN;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_NOT_FINITE);
    t = d, t.frame_a.p.x = 1e9f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_OUT_OF_RANGE);
    t = d, t.frame_b.q.w = 0.5f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_NOT_ORTHONORMAL);
    t = d, t.limit = (spx_joint_limit){ true, 1.0f, -1.0f };
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT); /* limits the wrong way round */
    t = d, t.motor.max_force = -1.0f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT);
    t = d, t.spring.hertz = -1.0f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT);
    t = d, t.break_force = -1.0f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT);
    t = d, t.break_torque = NAN;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_NOT_FINITE);
    t = spx_default_joint_def(SPX_JOINT_DISTANCE), t.body_a = a, t.body_b = b, t.length = 0.0f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT);
    t.length = 1.0f, t.limit.enable = true, t.min_length = 2.0f, t.max_length = 1.0f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT);
    t = spx_default_joint_def(SPX_JOINT_CONE_TWIST), t.body_a = a, t.body_b = b, t.swing_limit = 4.0f;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT);
    t = spx_default_joint_def(SPX_JOINT_DRAG), t.body_a = a, t.body_b = b;
    TEST_ENSURE_CODE(spx_joint_create(w, &t, &id), SPX_ERR_BAD_JOINT); /* a drag joint pulls toward the world */

    /* A good one; then stale ids: destroyed, foreign, null. */
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &id), SPX_OK);
    TEST_ENSURE(spx_joint_is_valid(w, id));
    TEST_ENSURE(!spx_joint_is_valid(other, id));
    spx_joint_type type;
    spx_body_id ga, gb;
    TEST_ENSURE_CODE(spx_joint_get_bodies(w, id, &type, &ga, &gb), SPX_OK);
    TEST_ENSURE(type == SPX_JOINT_HINGE && ga.index == a.index && gb.index == b.index);
    TEST_ENSURE_CODE(spx_joint_set_motor(w, id, (spx_joint_motor){ true, 1.0f, -2.0f }), SPX_ERR_BAD_JOINT);
    TEST_ENSURE_CODE(spx_joint_set_limit(w, id, (spx_joint_limit){ true, 0.5f, 0.1f }), SPX_ERR_BAD_JOINT);
    TEST_ENSURE_CODE(spx_joint_set_spring(w, id, (spx_joint_spring){ true, NAN, 1.0f }), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_joint_set_target(w, id, spx_v3(0, 0, 0)), SPX_ERR_BAD_JOINT); /* not a drag joint */
    TEST_ENSURE_CODE(spx_joint_destroy(other, id), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_joint_destroy(w, id), SPX_OK);
    TEST_ENSURE_CODE(spx_joint_destroy(w, id), SPX_ERR_STALE_ID);
    TEST_ENSURE_CODE(spx_joint_set_motor(w, id, (spx_joint_motor){ true, 1.0f, 2.0f }), SPX_ERR_STALE_ID);
    TEST_ENSURE(!spx_joint_is_valid(w, (spx_joint_id){ 0, 0, 0 }));
    /* The slot is reused under a new generation: the old id stays stale. */
    spx_joint_id again;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &again), SPX_OK);
    TEST_ENSURE(again.index == id.index && again.generation != id.generation);
    TEST_ENSURE(!spx_joint_is_valid(w, id) && spx_joint_is_valid(w, again));
    /* Destroying a body destroys its joints. */
    TEST_ENSURE_CODE(spx_body_destroy(w, b), SPX_OK);
    TEST_ENSURE(!spx_joint_is_valid(w, again));
    for (int i = 0; i < 10; ++i) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    spx_world_destroy(other);
    spx_world_destroy(w);
    return 0;
}

/* Two jointed boxes overlap: without collide_connected they pass through each other (no contact
   between them); with it they push apart. */
static int collide_connected_flag(void)
{
    for (int connected = 0; connected < 2; ++connected) {
        spx_world_def wd = spx_default_world_def();
        wd.gravity = spx_v3(0, 0, 0);
        spx_world* w = NULL;
        TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
        const spx_body_id a = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
        const spx_body_id b = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.8f, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_DISTANCE);
        d.body_a = a, d.body_b = b;
        d.length = 0.8f;
        d.spring = (spx_joint_spring){ true, 0.0f, 0.0f }; /* no force: a rope */
        d.limit.enable = true, d.min_length = 0.0f, d.max_length = 5.0f;
        d.collide_connected = connected;
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        for (int i = 0; i < 30; ++i) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const float gap = dist3(test_body_position(w, a), test_body_position(w, b));
        if (connected) TEST_ENSURE(gap > 0.99f);
        else TEST_ENSURE_NEAR(gap, 0.8f, 1e-4f);
        spx_world_destroy(w);
    }
    return 0;
}

/* A chain hanging from the world falls asleep as one island, and a touch to its bottom link wakes
   every link; a joint made between two sleeping bodies wakes them. */
static int jointed_bodies_sleep_and_wake_together(void)
{
    spx_world* w = make_world(true);
    TEST_ENSURE(w);
    enum { N = 5 };
    spx_body_id link[N];
    for (int i = 0; i < N; ++i)
        link[i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, -0.5f - (float)i, 0), spx_v3(0.1f, 0.5f, 0.1f), 1.0f);
    for (int i = 0; i < N; ++i) {
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        if (i > 0) d.body_a = link[i - 1], d.frame_a = at(0, -0.5f, 0);
        d.body_b = link[i];
        d.frame_b = at(0, 0.5f, 0);
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    }
    bool awake = true;
    for (int s = 0; s < 300 && awake; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_body_is_awake(w, link[0], &awake);
    }
    TEST_ENSURE(!awake);
    for (int i = 0; i < N; ++i) {
        spx_body_is_awake(w, link[i], &awake);
        TEST_ENSURE(!awake);
    }
    spx_step_stats st;
    spx_world_get_stats(w, &st);
    TEST_ENSURE(st.island_count == 1); /* the last step saw one island of five links */
    TEST_ENSURE_CODE(spx_body_apply_impulse(w, link[N - 1], spx_v3(1, 0, 0), test_body_position(w, link[N - 1])),
                     SPX_OK);
    for (int i = 0; i < N; ++i) {
        spx_body_is_awake(w, link[i], &awake);
        TEST_ENSURE(awake);
    }
    /* Two loose boxes asleep, then joined: both wake. */
    const spx_body_id p = add_box(w, SPX_BODY_DYNAMIC, spx_v3(10, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
    const spx_body_id q = add_box(w, SPX_BODY_DYNAMIC, spx_v3(12, 0, 0), spx_v3(0.5f, 0.5f, 0.5f), 1.0f);
    TEST_ENSURE_CODE(spx_body_set_awake(w, p, false), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_awake(w, q, false), SPX_OK);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_WELD);
    d.body_a = p, d.body_b = q, d.frame_a = at(1, 0, 0), d.frame_b = at(-1, 0, 0);
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    spx_body_is_awake(w, p, &awake);
    TEST_ENSURE(awake);
    spx_body_is_awake(w, q, &awake);
    TEST_ENSURE(awake);
    spx_world_destroy(w);
    return 0;
}

/* ---- ball: the pendulum ---- */

/* A 0.1 m cube on a ball joint 1 m below a world anchor, let go at 5 degrees: the period of a
   physical pendulum, 2 pi sqrt(I_pivot / (m g L)), within 1%, counted over 10 periods. */
static int pendulum_period(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const float L = 1.0f, half = 0.05f, angle = 5.0f * pi / 180.0f;
    const spx_body_id bob = add_box(w, SPX_BODY_DYNAMIC, spx_v3(L * sinf(angle), 2.0f - L * cosf(angle), 0),
                                    spx_v3(half, half, half), 1.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
    d.frame_a = at(0, 2, 0);
    d.body_b = bob;
    /* The anchor in the bob's frame: 1 m up the string (the bob starts unturned). */
    d.frame_b = at(-L * sinf(angle), L * cosf(angle), 0);
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    const double I_pivot = (2.0 * half * half) / 3.0 + (double)L * L; /* per kg */
    const double period = 2.0 * 3.14159265358979 * sqrt(I_pivot / (9.81 * L));
    crossings c = { -1.0, -1.0, 0.0, 0, test_body_position(w, bob).x }; /* of x = 0 */
    for (int s = 0; s < 60 * 25 && c.count < 11; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        crossings_add(&c, test_body_position(w, bob).x);
    }
    TEST_ENSURE(c.count == 11);
    const double measured = (c.last - c.first) / 10.0;
    printf("  pendulum: period %.5f s, theory %.5f s (%.3f%%)\n", measured, period, 100.0 * (measured / period - 1.0));
    TEST_ENSURE_NEAR(measured / period, 1.0, 0.01);
    spx_world_destroy(w);
    return 0;
}

/* The same pendulum at 60 degrees, undamped, for 60 s: the soft step's integrator lets the energy
   wobble within a swing (about 1% of the swing's 4.9 J, of the order of h w E for substep h) but it never grows: the highest energy of
   the last 10 s is no higher than that of the first 10 s. The string keeps its length within 1 mm. */
/* A ball joint's pendulum (on the lanes), or a hinge's about the world z axis (its free x axis
   turned onto z: one joint at a time, its rows' masses the step's). */
static int pendulum_energy_kept(spx_joint_type type)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const float angle = 60.0f * pi / 180.0f;
    const spx_body_id bob =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(sinf(angle), 2.0f - cosf(angle), 0), spx_v3(0.05f, 0.05f, 0.05f), 1.0f);
    spx_joint_def d = spx_default_joint_def(type);
    d.frame_a = at(0, 2, 0);
    d.body_b = bob;
    d.frame_b = at(-sinf(angle), cosf(angle), 0);
    if (type == SPX_JOINT_HINGE) d.frame_a.q = d.frame_b.q = (spx_quat){ 0, -0.70710678f, 0, 0.70710678f };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    const double e0 = energy(w, &bob, 1), swing = 9.81 * (1.0 - cos(angle));
    double e_min = e0, e_max = e0, first_max = e0, last_max = -1e30;
    float worst_gap = 0.0f;
    const int steps = 60 * 60;
    for (int s = 0; s < steps; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const double e = energy(w, &bob, 1);
        if (e > e_max) e_max = e;
        if (e < e_min) e_min = e;
        if (s < 600 && e > first_max) first_max = e;
        if (s >= steps - 600 && e > last_max) last_max = e;
        const float gap = dist3(world_point(w, bob, d.frame_b.p), spx_v3(0, 2, 0));
        if (gap > worst_gap) worst_gap = gap;
    }
    printf("  %s pendulum 60 s: energy %.5f J, within %.5f .. %.5f (%.3f%% of the swing's); highest in the first 10 s "
           "%.5f, in the last %.5f; anchor gap at most %.2e m\n",
           type == SPX_JOINT_HINGE ? "hinge" : "ball", e0, e_min, e_max, 100.0 * (e_max - e_min) / swing, first_max,
           last_max, worst_gap);
    TEST_ENSURE(e_max - e_min < 0.02 * swing);
    TEST_ENSURE(last_max <= first_max + 1e-5 * swing);
    TEST_ENSURE(worst_gap < 1e-3f);
    spx_world_destroy(w);
    return 0;
}

static int pendulum_energy_never_grows(void)
{
    return pendulum_energy_kept(SPX_JOINT_BALL) || pendulum_energy_kept(SPX_JOINT_HINGE);
}

/* Two unequal boxes joined by a hinge, a cone-twist or a wheel, tumbling without gravity for 20 s:
   the joint's axes turn within every step (the angular rows' masses are the step's first
   geometry's, the hinge's and wheel's pair impulse is a world vector), and the kinetic energy never
   grows: the highest of the last 5 s at most that of the first 5 s. */
static int tumbling_pair_keeps_energy(spx_joint_type type)
{
    spx_world_def wd = spx_default_world_def();
    wd.enable_sleep = false;
    wd.gravity = spx_v3(0, 0, 0);
    spx_world* w = test_world_create(&wd);
    TEST_ENSURE(w);
    const spx_body_id a = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.1f, 0.2f), 3.0f);
    const spx_body_id b = add_box(w, SPX_BODY_DYNAMIC, spx_v3(1.0f, 0, 0), spx_v3(0.4f, 0.3f, 0.05f), 1.0f);
    spx_joint_def d = spx_default_joint_def(type);
    d.body_a = a;
    d.frame_a = at(0.5f, 0, 0);
    d.body_b = b;
    d.frame_b = at(-0.5f, 0, 0);
    if (type == SPX_JOINT_HINGE) d.frame_a.q = d.frame_b.q = (spx_quat){ 0, -0.70710678f, 0, 0.70710678f };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, a, spx_v3(0, 0, 0), spx_v3(1.5f, 2.0f, -1.0f)), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, b, spx_v3(0, 0, 0.5f), spx_v3(-2.0f, 0.5f, 3.0f)), SPX_OK);
    double first_max = -1e30, last_max = -1e30, e_end = 0.0;
    const int steps = 60 * 20;
    for (int s = 0; s < steps; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        double e = 0.0;
        spx_world_get_kinetic_energy(w, &e);
        TEST_ENSURE(e - e == 0.0);
        if (s < 300 && e > first_max) first_max = e;
        if (s >= steps - 300 && e > last_max) last_max = e;
        e_end = e;
    }
    printf("  tumbling %s pair 20 s: kinetic energy highest in the first 5 s %.5f J, in the last %.5f, at the end "
           "%.5f\n",
           type == SPX_JOINT_HINGE   ? "hinge"
           : type == SPX_JOINT_WHEEL ? "wheel"
                                     : "cone-twist",
           first_max, last_max, e_end);
    TEST_ENSURE(last_max <= first_max * (1.0 + 1e-5));
    spx_world_destroy(w);
    return 0;
}

static int tumbling_pairs_keep_their_energy(void)
{
    return tumbling_pair_keeps_energy(SPX_JOINT_HINGE) || tumbling_pair_keeps_energy(SPX_JOINT_CONE_TWIST) ||
           tumbling_pair_keeps_energy(SPX_JOINT_WHEEL);
}

/* ---- chains ---- */

/* A chain of n links of 1 kg (the last of last_mass kg) hanging from the world, its bottom link
   kicked sideways at `kick` m/s: over `seconds` (after the first `from`) the distance from the anchor
   to the last link's end never passes the chain's length by more than `tolerance` of it, nor any
   joint's gap `gap` of a
   link's length, and the chain's energy never grows (undamped: the highest of the last 10 s at most
   the start's plus 0.1% of the kick's). */
static int hanging_chain(int n, float last_mass, float kick, float tolerance, float gap, int from, int seconds)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    spx_body_id* link = malloc(sizeof(spx_body_id) * (size_t)n);
    TEST_ENSURE(link);
    const float half = 0.25f; /* links 0.5 m long, 0.1 m thick, along their x axes */
    const float top = 12.0f;
    const spx_quat down = { 0, 0, -0.70710678f, 0.70710678f }; /* x turned onto -y */
    for (int i = 0; i < n; ++i) {
        const float mass = i == n - 1 ? last_mass : 1.0f;
        spx_shape_def sh = spx_default_shape_def();
        sh.half_extents = spx_v3(half, 0.05f, 0.05f);
        sh.density = mass / (8.0f * half * 0.05f * 0.05f);
        spx_body_def bd = spx_default_body_def();
        bd.type = SPX_BODY_DYNAMIC;
        bd.position = spx_v3(0, top - half - 2.0f * half * (float)i, 0);
        bd.rotation = down;
        bd.angular_damping = 0.0f;
        bd.shapes = &sh;
        bd.shape_count = 1;
        TEST_ENSURE_CODE(spx_body_create(w, &bd, &link[i]), SPX_OK);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        if (i > 0) d.body_a = link[i - 1], d.frame_a = at(half, 0, 0);
        else d.frame_a = at(0, top, 0);
        d.body_b = link[i];
        d.frame_b = at(-half, 0, 0);
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    }
    TEST_ENSURE_CODE(spx_body_set_velocity(w, link[n - 1], spx_v3(kick, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
    const double e0 = energy(w, link, n), kick_energy = 0.5 * last_mass * kick * kick;
    const float length = 2.0f * half * (float)n;
    float worst_gap = 0.0f, worst_reach = 0.0f;
    double last_max = -1e30;
    for (int s = 0; s < seconds * 60; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        for (int i = 1; i < n; ++i) {
            const float g =
                dist3(world_point(w, link[i - 1], spx_v3(half, 0, 0)), world_point(w, link[i], spx_v3(-half, 0, 0)));
            if (g > worst_gap) worst_gap = g;
        }
        const float reach = dist3(world_point(w, link[n - 1], spx_v3(half, 0, 0)), spx_v3(0, top, 0));
        if (reach > worst_reach && s >= from * 60) worst_reach = reach;
        for (int i = 0; i < n; ++i) {
            const spx_vec3 p = test_body_position(w, link[i]);
            TEST_ENSURE(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
        }
        if (s >= (seconds - 10) * 60) {
            const double e = energy(w, link, n);
            if (e > last_max) last_max = e;
        }
    }
    printf("  chain of %d (end %.0f kg, kicked at %.0f m/s), %d s: longest reach %.4f m of %.4f (stretch %.3f%%), "
           "worst joint gap %.2e m; energy %.2f J, the last 10 s at most %.2f\n",
           n, (double)last_mass, (double)kick, seconds, worst_reach, length, 100.0 * (worst_reach / length - 1.0),
           worst_gap, e0, last_max);
    TEST_ENSURE(worst_reach <= length * (1.0f + tolerance));
    TEST_ENSURE(worst_gap <= 2.0f * half * gap);
    TEST_ENSURE(last_max <= e0 + 1e-3 * kick_energy);
    free(link);
    spx_world_destroy(w);
    return 0;
}

static int chain_of_20_holds_its_length(void)
{
    return hanging_chain(20, 1.0f, 2.0f, 0.01f, 0.01f, 0, long_run ? 60 : 10);
}

/* A 100 kg weight on 1 kg links. The soft joints give under its 1,000 N, each by about
   F / (m_eff (2 pi 120 Hz)^2) (3.5 mm): let go at the chain's length, the weight drops and bounces
   on the chain (1.4% at the first stretch: the joints start without impulses), the bounce dies
   within 5 s, and from then on it hangs stretched 0.7%, under 1%; kicked at 2 m/s (the links also
   pull the swing's centripetal load), under 1.5% throughout. */
static int chain_with_mass_ratio_100(void)
{
    const int seconds = long_run ? 60 : 10;
    if (hanging_chain(20, 100.0f, 0.0f, 0.01f, 0.02f, 5, seconds)) return 1;
    if (hanging_chain(20, 100.0f, 2.0f, 0.015f, 0.02f, 0, seconds)) return 1;
    /* A rope of 50 links: its longer bounce is judged from 30 s on. */
    return long_run ? hanging_chain(50, 100.0f, 0.0f, 0.01f, 0.02f, 30, 60) : 0;
}

/* A chain of 20 links of 1 kg laid level from a world anchor and let fall, undamped, for 10 s (60 s
   long): it swings through hanging straight again and again. Its energy never grows, and what the
   soft step takes from it over the run is measured against the energy the fall frees (the drop of
   its centre of mass times its weight): the figure docs/joints.md gives. */
static int chain_of_20_swinging_keeps_its_energy(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    enum { n = 20 };
    spx_body_id link[n];
    const float half = 0.25f, top = 12.0f;
    for (int i = 0; i < n; ++i) {
        link[i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(half + 2.0f * half * (float)i, top, 0),
                          spx_v3(half, 0.05f, 0.05f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        if (i > 0) d.body_a = link[i - 1], d.frame_a = at(half, 0, 0);
        else d.frame_a = at(0, top, 0);
        d.body_b = link[i], d.frame_b = at(-half, 0, 0);
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    }
    const double e0 = energy(w, link, n);
    const double freed = 9.81 * n * (2.0 * half * n) * 0.5; /* centre of mass from level to hanging */
    const int seconds = long_run ? 60 : 10;
    double e_max = -1e30, e_end = 0.0;
    for (int s = 0; s < seconds * 60; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const double e = energy(w, link, n);
        if (e > e_max) e_max = e;
        if (s == 60 * 1 - 1 || s == 60 * 5 - 1 || s == seconds * 60 - 1)
            printf("  chain of 20 swinging: energy lost after %d s: %.2f%% of the %.1f J the fall frees\n",
                   (s + 1) / 60, 100.0 * (e0 - e) / freed, freed);
        e_end = e;
    }
    TEST_ENSURE(e_max <= e0 + 1e-3 * freed);
    const double lost = (e0 - e_end) / freed;
    TEST_ENSURE(lost < (long_run ? 0.60 : 0.40));
    spx_world_destroy(w);
    return 0;
}

/* ---- hinge ---- */

/* A 1 m arm on a hinge about z at the world, limited to -30..+30 degrees, let go level beyond the
   upper limit's reach: gravity pulls it down onto the lower limit (-30 degrees) and it stays there
   within a degree. */
static int hinge_limit_holds(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const spx_body_id arm = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.5f, 5, 0), spx_v3(0.5f, 0.05f, 0.05f), 100.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
    /* Frame x along world z: turn the frames -90 degrees about y. */
    const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
    d.frame_a = (spx_transform){ { 0, 5, 0 }, x_to_z };
    d.body_b = arm;
    d.frame_b = (spx_transform){ { -0.5f, 0, 0 }, x_to_z };
    d.limit = (spx_joint_limit){ true, -pi / 6.0f, pi / 6.0f };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    float worst = 0.0f;
    for (int s = 0; s < 180; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const spx_vec3 tip = world_point(w, arm, spx_v3(0.5f, 0, 0));
        const float angle = atan2f(tip.y - 5.0f, tip.x);
        const float beyond = -pi / 6.0f - angle;
        if (beyond > worst) worst = beyond;
    }
    const spx_vec3 tip = world_point(w, arm, spx_v3(0.5f, 0, 0));
    const float angle = atan2f(tip.y - 5.0f, tip.x);
    printf("  hinge limit: rests at %.3f deg (limit -30), worst %.3f deg beyond\n", angle * 180.0f / pi,
           worst * 180.0f / pi);
    TEST_ENSURE(worst < pi / 180.0f);
    TEST_ENSURE_NEAR(angle, -pi / 6.0f, pi / 180.0f);
    spx_world_destroy(w);
    return 0;
}

/* The same limit between a 100 kg arm and a 1 kg link that a motor (speed 0, up to 2,000 N m) holds
   on a hinge at the world: the arm's 490 N m goes through the light link. A soft row's stiffness is
   its effective mass (here the link's, 8,000 times below the arm's inertia) times (2 pi hertz)^2, so
   a violated limit is solved with the full effective mass (not as a spring); at 32 substeps and
   4 passes the arm rests on its -30 degree limit within 0.1 degree. */
static int hinge_limit_holds_heavy_arm_on_light_link(void)
{
    spx_world_def wd = spx_default_world_def();
    wd.enable_sleep = false;
    wd.substeps = 32;
    wd.solve_iterations = 4;
    spx_world* w = NULL;
    spx_world_create(&wd, &w);
    TEST_ENSURE(w);
    const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
    const spx_body_id link = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.1f, 5, 0), spx_v3(0.1f, 0.05f, 0.05f), 1.0f);
    const spx_body_id arm = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.7f, 5, 0), spx_v3(0.5f, 0.05f, 0.05f), 100.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
    d.frame_a = (spx_transform){ { 0, 5, 0 }, x_to_z };
    d.body_b = link, d.frame_b = (spx_transform){ { -0.1f, 0, 0 }, x_to_z };
    d.motor = (spx_joint_motor){ true, 0.0f, 2000.0f };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    spx_joint_def e = spx_default_joint_def(SPX_JOINT_HINGE);
    e.body_a = link, e.frame_a = (spx_transform){ { 0.1f, 0, 0 }, x_to_z };
    e.body_b = arm, e.frame_b = (spx_transform){ { -0.5f, 0, 0 }, x_to_z };
    e.limit = (spx_joint_limit){ true, -pi / 6.0f, pi / 6.0f };
    TEST_ENSURE_CODE(spx_joint_create(w, &e, &j), SPX_OK);
    float worst = 0.0f, angle = 0.0f;
    for (int s = 0; s < 300; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        /* The arm's direction against the link's. */
        const spx_vec3 l0 = world_point(w, link, spx_v3(-0.1f, 0, 0)), l1 = world_point(w, link, spx_v3(0.1f, 0, 0));
        const spx_vec3 a0 = world_point(w, arm, spx_v3(-0.5f, 0, 0)), a1 = world_point(w, arm, spx_v3(0.5f, 0, 0));
        angle = atan2f(a1.y - a0.y, a1.x - a0.x) - atan2f(l1.y - l0.y, l1.x - l0.x);
        const float beyond = -pi / 6.0f - angle;
        if (s > 60 && beyond > worst) worst = beyond;
    }
    printf("  hinge limit, 100 kg arm on a 1 kg link: rests at %.3f deg (limit -30), worst %.3f deg beyond after 1 s\n",
           angle * 180.0f / pi, worst * 180.0f / pi);
    TEST_ENSURE(worst < 0.1f * pi / 180.0f);
    TEST_ENSURE_NEAR(angle, -pi / 6.0f, 0.1f * pi / 180.0f);
    spx_world_destroy(w);
    return 0;
}

/* A plate (1 kg m^2 about its axle) on a hinge with a motor of 10 rad/s: with max torque 5 N m and a
   0.2 kg load hung on its edge (at most 0.98 N m at 0.5 m) it reaches 10 rad/s within 1%; with
   0.5 N m it stalls with the load hanging part way up. */
static int hinge_motor_reaches_speed_or_stalls(void)
{
    for (int weak = 0; weak < 2; ++weak) {
        spx_world_def wd = spx_default_world_def();
        wd.enable_sleep = false;
        spx_world* w = NULL;
        TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
        /* A flat square plate in the x-y plane, turning about z: I_z = m (a^2 + a^2) / 3 for half side a. */
        const float a = 0.5f, m = 6.0f; /* I_z = 1 kg m^2 */
        const spx_body_id wheel = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 5, 0), spx_v3(a, a, 0.05f), m);
        const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
        d.frame_a = (spx_transform){ { 0, 5, 0 }, x_to_z };
        d.body_b = wheel;
        d.frame_b = (spx_transform){ { 0, 0, 0 }, x_to_z };
        d.motor = (spx_joint_motor){ true, 10.0f, weak ? 0.5f : 5.0f };
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        /* The load: 0.2 kg on a ball joint at the plate's edge (+x), so it pulls the plate's +x side
           down: a torque of -0.98 N m about z, against the motor's +z. */
        const spx_body_id load = add_box(w, SPX_BODY_DYNAMIC, spx_v3(a, 5, 0.2f), spx_v3(0.02f, 0.02f, 0.02f), 0.2f);
        spx_joint_def l = spx_default_joint_def(SPX_JOINT_BALL);
        l.body_a = wheel, l.frame_a = at(a, 0, 0.2f);
        l.body_b = load;
        TEST_ENSURE_CODE(spx_joint_create(w, &l, &j), SPX_OK);
        spx_vec3 v, av;
        for (int s = 0; s < 240; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_body_get_velocity(w, wheel, &v, &av);
        printf("  hinge motor (max %.1f N m): %.4f rad/s after 4 s\n", weak ? 0.5 : 5.0, av.z);
        if (weak) TEST_ENSURE(av.z < 1.0f);       /* stalled: the load is heavier than the motor */
        else TEST_ENSURE_NEAR(av.z, 10.0f, 0.1f); /* the load swings at the rim: within 1% */
        spx_world_destroy(w);
    }
    return 0;
}

/* A hinge with a spring of 2 Hz and no damping, turned 0.2 rad and let go without gravity: it swings
   back at the spring's frequency. The plate's own frequency is the spring's, as the spring's
   stiffness is set from the effective inertia. */
static int hinge_spring_oscillates(void)
{
    spx_world* w = make_weightless_world();
    TEST_ENSURE(w);
    const spx_body_id plate = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), spx_v3(0.5f, 0.5f, 0.05f), 6.0f);
    const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
    spx_joint_def d = spring_to_world(SPX_JOINT_HINGE, plate, 2.0f);
    d.frame_a = (spx_transform){ { 0, 0, 0 }, x_to_z };
    d.frame_b = (spx_transform){ { 0, 0, 0 }, x_to_z };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, plate, spx_v3(0, 0, 0), spx_v3(0, 0, 2.0f)), SPX_OK);
    crossings c; /* of the turning speed: once a period */
    TEST_ENSURE(oscillate(w, plate, SPIN_Z, 60 * 5, 7, &c) == 0);
    TEST_ENSURE(c.count >= 5);
    const double period = (c.last - c.first) / (c.count - 1);
    printf("  hinge spring: period %.4f s, 2 Hz spring %.4f s\n", period, 0.5);
    TEST_ENSURE_NEAR(period, 0.5, 0.5 * 0.03);
    spx_world_destroy(w);
    return 0;
}

/* ---- weld ---- */

/* Two boxes welded side by side, the first hinged to the world at its far end: they swing as one
   body, their relative pose within 1 mm and 0.5 degree throughout. */
static int weld_keeps_relative_pose(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const spx_body_id a = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.5f, 5, 0), spx_v3(0.5f, 0.1f, 0.1f), 1.0f);
    const spx_body_id b = add_box(w, SPX_BODY_DYNAMIC, spx_v3(1.5f, 5, 0), spx_v3(0.5f, 0.1f, 0.1f), 5.0f);
    spx_joint_def h = spx_default_joint_def(SPX_JOINT_BALL);
    h.frame_a = at(0, 5, 0);
    h.body_b = a, h.frame_b = at(-0.5f, 0, 0);
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &h, &j), SPX_OK);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_WELD);
    d.body_a = a, d.frame_a = at(0.5f, 0, 0);
    d.body_b = b, d.frame_b = at(-0.5f, 0, 0);
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, b, spx_v3(0, 0, 2), spx_v3(0, 0, 0)), SPX_OK);
    float worst_gap = 0.0f, worst_turn = 0.0f;
    for (int s = 0; s < 300; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        /* B's far end and its side point, seen from A: (1.5, 0, 0) and (1, 0.1, 0) in A's frame. */
        spx_transform ta, tb;
        spx_body_get_transform(w, a, &ta);
        spx_body_get_transform(w, b, &tb);
        const float gap = dist3(world_point(w, a, spx_v3(1.5f, 0, 0)), world_point(w, b, spx_v3(0.5f, 0, 0)));
        const float dq = fabsf(ta.q.x * tb.q.x + ta.q.y * tb.q.y + ta.q.z * tb.q.z + ta.q.w * tb.q.w);
        const float turn = 2.0f * acosf(dq > 1.0f ? 1.0f : dq);
        if (gap > worst_gap) worst_gap = gap;
        if (turn > worst_turn) worst_turn = turn;
    }
    printf("  weld: worst gap %.2e m, worst turn %.3f deg\n", worst_gap, worst_turn * 180.0f / pi);
    TEST_ENSURE(worst_gap < 1e-3f);
    TEST_ENSURE(worst_turn < 0.5f * pi / 180.0f);
    spx_world_destroy(w);
    return 0;
}

/* ---- slider ---- */

/* A 10 kg box on a slider along a tilted axis, driven by a motor at 0.5 m/s with 500 N: it moves at
   the set speed within 1%, stays on the axis within 1 mm and does not turn; a limit at 1 m stops it. */
static int slider_stays_on_axis_and_its_motor_drives(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const spx_body_id box = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 3, 0), spx_v3(0.2f, 0.2f, 0.2f), 10.0f);
    /* Axis: frame x turned 30 degrees about z (up the slope). */
    const float half = pi / 12.0f;
    const spx_quat tilt = { 0, 0, sinf(half), cosf(half) };
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_SLIDER);
    d.frame_a = (spx_transform){ { 0, 3, 0 }, tilt };
    d.body_b = box;
    d.frame_b = (spx_transform){ { 0, 0, 0 }, tilt };
    d.motor = (spx_joint_motor){ true, 0.5f, 500.0f };
    d.limit = (spx_joint_limit){ true, -1.0f, 1.0f };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    const spx_vec3 axis = { cosf(2 * half), sinf(2 * half), 0 };
    float worst_off = 0.0f, speed_at_1s = 0.0f;
    for (int s = 0; s < 240; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const spx_vec3 p = test_body_position(w, box);
        const spx_vec3 r = { p.x, p.y - 3.0f, p.z };
        const float along = r.x * axis.x + r.y * axis.y;
        const float off = dist3(r, spx_v3(along * axis.x, along * axis.y, 0));
        if (off > worst_off) worst_off = off;
        if (s == 59) speed_at_1s = speed_of(w, box);
    }
    const spx_vec3 p = test_body_position(w, box);
    const float along = p.x * axis.x + (p.y - 3.0f) * axis.y;
    spx_transform t;
    spx_body_get_transform(w, box, &t);
    printf("  slider: speed %.4f m/s (set 0.5), off axis at most %.2e m, stops at %.4f m (limit 1)\n", speed_at_1s,
           worst_off, along);
    TEST_ENSURE_NEAR(speed_at_1s, 0.5f, 0.005f);
    TEST_ENSURE(worst_off < 1e-3f);
    TEST_ENSURE_NEAR(along, 1.0f, 0.01f);
    TEST_ENSURE(fabsf(t.q.w) > 0.99999f); /* turned less than half a degree */
    spx_world_destroy(w);
    return 0;
}

/* ---- distance ---- */

/* A 1 kg box on a distance spring of 1.5 Hz from the world, without gravity, pulled 0.2 m past its
   length: it oscillates at 1.5 Hz (within 3%). */
static int distance_spring_oscillates_at_its_frequency(void)
{
    spx_world* w = make_weightless_world();
    TEST_ENSURE(w);
    const spx_body_id box = add_box(w, SPX_BODY_DYNAMIC, spx_v3(1.2f, 0, 0), spx_v3(0.1f, 0.1f, 0.1f), 1.0f);
    spx_joint_def d = spring_to_world(SPX_JOINT_DISTANCE, box, 1.5f);
    d.length = 1.0f;
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    crossings c;
    TEST_ENSURE(oscillate(w, box, X_PAST_1, 60 * 6, 0, &c) == 0);
    TEST_ENSURE(c.count >= 6);
    const double frequency = (c.count - 1) / (c.last - c.first);
    printf("  distance spring: %.4f Hz (set 1.5)\n", frequency);
    TEST_ENSURE_NEAR(frequency, 1.5, 1.5 * 0.03);
    spx_world_destroy(w);
    return 0;
}

/* ---- ragdoll-like: cone-twist ---- */

static uint32_t rng_state = 12345u;
static float rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

/* Five limbs on cone-twist joints about a torso, on a ground, kicked by random impulses for 10 s
   (60 s long): every body stays finite, every joint's anchors within 5 cm, and every swing within
   its limit plus 5 degrees once the kicks have settled. */
static int ragdoll_stays_finite_under_kicks(void)
{
    spx_world* w = make_world(true);
    TEST_ENSURE(w);
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20), 1.0f);
    const spx_body_id torso = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 2, 0), spx_v3(0.2f, 0.3f, 0.1f), 20.0f);
    enum { LIMBS = 5 };
    /* Head up, arms out, legs down: each limb hangs from a point on the torso along its own x. */
    const spx_vec3 socket[LIMBS] = {
        { 0, 0.3f, 0 }, { 0.2f, 0.25f, 0 }, { -0.2f, 0.25f, 0 }, { 0.1f, -0.3f, 0 }, { -0.1f, -0.3f, 0 }
    };
    const spx_vec3 dir[LIMBS] = { { 0, 1, 0 }, { 1, 0, 0 }, { -1, 0, 0 }, { 0, -1, 0 }, { 0, -1, 0 } };
    const float len[LIMBS] = { 0.12f, 0.3f, 0.3f, 0.4f, 0.4f };
    const float mass[LIMBS] = { 5, 3, 3, 8, 8 };
    spx_body_id limb[LIMBS];
    spx_joint_id joint[LIMBS];
    for (int i = 0; i < LIMBS; ++i) {
        const spx_vec3 c = { socket[i].x + dir[i].x * len[i], 2.0f + socket[i].y + dir[i].y * len[i], socket[i].z };
        /* Limbs are boxes long along x, turned so that x runs along dir. */
        spx_quat q = identity;
        if (dir[i].y > 0.5f) q = (spx_quat){ 0, 0, 0.70710678f, 0.70710678f };
        else if (dir[i].y < -0.5f) q = (spx_quat){ 0, 0, -0.70710678f, 0.70710678f };
        else if (dir[i].x < 0) q = (spx_quat){ 0, 0, 1, 0 };
        spx_shape_def s = spx_default_shape_def();
        s.half_extents = spx_v3(len[i], 0.06f, 0.06f);
        s.density = mass[i] / (8 * len[i] * 0.06f * 0.06f);
        spx_body_def bd = spx_default_body_def();
        bd.type = SPX_BODY_DYNAMIC;
        bd.position = c;
        bd.rotation = q;
        bd.shapes = &s;
        bd.shape_count = 1;
        TEST_ENSURE_CODE(spx_body_create(w, &bd, &limb[i]), SPX_OK);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_CONE_TWIST);
        d.body_a = torso;
        d.frame_a = (spx_transform){ socket[i], q }; /* the cone about the limb's rest direction */
        d.body_b = limb[i];
        d.frame_b = at(-len[i], 0, 0);
        d.swing_limit = pi / 4.0f;
        d.limit = (spx_joint_limit){ true, -pi / 8.0f, pi / 8.0f };
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &joint[i]), SPX_OK);
    }
    const int steps = (long_run ? 60 : 10) * 60;
    float worst_gap = 0.0f;
    for (int s = 0; s < steps; ++s) {
        if (s % 20 == 0 && s < steps - 120) {
            const int k = (int)((rnd() * 0.5f + 0.5f) * LIMBS) % LIMBS;
            const spx_vec3 p = test_body_position(w, limb[k]);
            const float iz = rnd() * 20.0f, iy = rnd() * 20.0f, ix = rnd() * 20.0f;
            TEST_ENSURE_CODE(spx_body_apply_impulse(w, limb[k], spx_v3(ix, iy, iz), p), SPX_OK);
        }
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_step_stats st;
        spx_world_get_stats(w, &st);
        TEST_ENSURE(!(st.flags & SPX_STEP_QUARANTINE));
        for (int i = 0; i < LIMBS; ++i) {
            const spx_vec3 p = test_body_position(w, limb[i]);
            TEST_ENSURE(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
            const float gap = dist3(world_point(w, torso, socket[i]), world_point(w, limb[i], spx_v3(-len[i], 0, 0)));
            if (gap > worst_gap) worst_gap = gap;
        }
    }
    /* The swing at rest: the angle between the limb's x and the cone's axis. */
    float worst_swing = 0.0f;
    for (int i = 0; i < LIMBS; ++i) {
        const spx_vec3 base = world_point(w, limb[i], spx_v3(-len[i], 0, 0)),
                       tip = world_point(w, limb[i], spx_v3(len[i], 0, 0));
        spx_transform tt;
        spx_body_get_transform(w, torso, &tt);
        const spx_vec3 o = world_point(w, torso, spx_v3(0, 0, 0));
        const spx_vec3 e = world_point(w, torso, dir[i]);
        const spx_vec3 axis = { e.x - o.x, e.y - o.y, e.z - o.z };
        const spx_vec3 limb_dir = { tip.x - base.x, tip.y - base.y, tip.z - base.z };
        const float c = (axis.x * limb_dir.x + axis.y * limb_dir.y + axis.z * limb_dir.z) / (2.0f * len[i]);
        const float swing = acosf(c > 1.0f ? 1.0f : c < -1.0f ? -1.0f : c);
        if (swing > worst_swing) worst_swing = swing;
    }
    printf("  ragdoll: worst anchor gap %.4f m, swing at rest at most %.2f deg (limit 45)\n", worst_gap,
           worst_swing * 180.0f / pi);
    TEST_ENSURE(worst_gap < 0.05f);
    TEST_ENSURE(worst_swing < (45.0f + 5.0f) * pi / 180.0f);
    spx_world_destroy(w);
    return 0;
}

/* ---- wheel ---- */

/* A 10 kg wheel on a wheel joint under a static chassis (the frames' x, the axle, along world z; y,
   the suspension, up): it sags on its 2 Hz spring by g / (2 pi 2)^2 = 6.2 cm (within 2%), its motor
   spins it at 8 rad/s within 1%, and steered 0.3 rad its spin axis turns 0.3 rad about y. */
static int wheel_suspension_motor_and_steering(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const spx_body_id chassis = add_box(w, SPX_BODY_STATIC, spx_v3(0, 2, 0), spx_v3(1, 0.2f, 1), 1.0f);
    const spx_body_id wheel = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 1, 0), spx_v3(0.3f, 0.3f, 0.1f), 10.0f);
    const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_WHEEL);
    d.body_a = chassis, d.frame_a = (spx_transform){ { 0, -1, 0 }, x_to_z };
    d.body_b = wheel, d.frame_b = (spx_transform){ { 0, 0, 0 }, x_to_z };
    d.spring = (spx_joint_spring){ true, 2.0f, 1.0f };
    d.motor = (spx_joint_motor){ true, 8.0f, 50.0f };
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    for (int s = 0; s < 180; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    const float sag = 1.0f - test_body_position(w, wheel).y;
    const float expected = 9.81f / ((2.0f * pi * 2.0f) * (2.0f * pi * 2.0f));
    spx_vec3 v, av;
    spx_body_get_velocity(w, wheel, &v, &av);
    printf("  wheel: sag %.4f m (theory %.4f), spin (%.4f, %.4f, %.4f) rad/s (set 8 about z)\n", sag, expected, av.x,
           av.y, av.z);
    TEST_ENSURE_NEAR(sag, expected, 0.02f * expected);
    TEST_ENSURE_NEAR(av.z, 8.0f, 0.08f);
    TEST_ENSURE(fabsf(av.x) < 1e-3f && fabsf(av.y) < 1e-3f);
    TEST_ENSURE_CODE(spx_joint_set_steering(w, j, 0.3f), SPX_OK);
    for (int s = 0; s < 60; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    spx_body_get_velocity(w, wheel, &v, &av);
    /* The axle, A's x (world z) turned 0.3 rad about y: (sin 0.3, 0, cos 0.3) spun at 8 rad/s. */
    const float spin = sqrtf(av.x * av.x + av.y * av.y + av.z * av.z);
    const float turned = atan2f(av.x, av.z);
    printf("  wheel steered: spin %.4f rad/s about an axis turned %.4f rad (set 0.3)\n", spin, turned);
    TEST_ENSURE_NEAR(turned, 0.3f, 0.01f);
    TEST_ENSURE_NEAR(spin, 8.0f, 0.08f);
    TEST_ENSURE(fabsf(av.y) < 0.01f);
    spx_world_destroy(w);
    return 0;
}

/* ---- drag ---- */

/* A 2 kg box dragged by its corner to a target 3 m up with at most 200 N on a 5 Hz spring: it comes
   to hang by that corner below the target by the spring's sag, and the force never passes 200 N;
   the target moved, it follows. */
static int drag_joint_moves_point_to_target(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20), 1.0f);
    const spx_body_id box = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f), 2.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_DRAG);
    d.body_b = box;
    d.frame_b = at(0.5f, 0.5f, 0.5f);
    d.target = spx_v3(0.5f, 3.5f, 0.5f);
    d.max_force = 200.0f;
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    float most = 0.0f;
    for (int s = 0; s < 300; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_vec3 f, t;
        TEST_ENSURE_CODE(spx_joint_get_reaction(w, j, &f, &t), SPX_OK);
        const float m = sqrtf(f.x * f.x + f.y * f.y + f.z * f.z);
        if (m > most) most = m;
    }
    const float off = dist3(world_point(w, box, d.frame_b.p), d.target);
    /* Hanging still by its corner, the box sags below the target by m g / k with k = m (2 pi 5 Hz)^2. */
    const float sag = 9.81f / ((2.0f * pi * 5.0f) * (2.0f * pi * 5.0f));
    printf("  drag: corner %.4f m from target (sag %.4f), largest force %.1f N (max 200)\n", off, sag, most);
    TEST_ENSURE_NEAR(off, sag, 0.1f * sag);
    TEST_ENSURE(most <= 200.0f * 1.001f);
    /* Moved: it follows. */
    TEST_ENSURE_CODE(spx_joint_set_target(w, j, spx_v3(2.5f, 3.5f, 0.5f)), SPX_OK);
    for (int s = 0; s < 300; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    TEST_ENSURE_NEAR(dist3(world_point(w, box, d.frame_b.p), spx_v3(2.5f, 3.5f, 0.5f)), sag, 0.1f * sag);
    spx_world_destroy(w);
    return 0;
}

/* ---- properties ---- */

/* The pendulum again with a box that hangs from a static body instead of the world, once as A and
   once as B (the joint's frames swapped), and once with everything moved 1 km away: the bob's path
   relative to the pivot is the same within 1 mm over 5 s. */
static int pendulum_swap_and_move(void)
{
    spx_vec3 end[4];
    for (int k = 0; k < 4; ++k) {
        spx_world* w = make_world(false);
        TEST_ENSURE(w);
        const spx_vec3 o = k == 3 ? spx_v3(1000.0f, 0, -1000.0f) : spx_v3(0, 0, 0);
        const spx_body_id post =
            add_box(w, SPX_BODY_STATIC, spx_v3(o.x, o.y + 2.5f, o.z), spx_v3(0.1f, 0.5f, 0.1f), 1.0f);
        const spx_body_id bob =
            add_box(w, SPX_BODY_DYNAMIC, spx_v3(o.x + 0.8f, o.y + 1.4f, o.z + 0.3f), spx_v3(0.05f, 0.1f, 0.05f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        const spx_transform on_post = at(0, -0.5f, 0), on_bob = at(-0.8f, 0.6f, -0.3f);
        if (k == 0)
            d.frame_a = (spx_transform){ { o.x, o.y + 2.0f, o.z }, identity }, d.body_b = bob, d.frame_b = on_bob;
        else if (k == 2) d.body_a = bob, d.frame_a = on_bob, d.body_b = post, d.frame_b = on_post;
        else d.body_a = post, d.frame_a = on_post, d.body_b = bob, d.frame_b = on_bob;
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        for (int s = 0; s < 300; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const spx_vec3 p = test_body_position(w, bob);
        end[k] = spx_v3(p.x - o.x, p.y - o.y, p.z - o.z);
        spx_world_destroy(w);
    }
    printf("  pendulum: world (%.4f %.4f %.4f), post as A (%.4f %.4f %.4f), as B (%.4f %.4f %.4f), 1 km away (%.4f "
           "%.4f %.4f)\n",
           end[0].x, end[0].y, end[0].z, end[1].x, end[1].y, end[1].z, end[2].x, end[2].y, end[2].z, end[3].x, end[3].y,
           end[3].z);
    for (int k = 1; k < 4; ++k) TEST_ENSURE(dist3(end[k], end[0]) < 1e-3f);
    return 0;
}

/* A 3 kg box hanging still from a ball joint: the joint holds it up with m g (the reaction on B). */
static int reaction_holds_the_weight(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const spx_body_id box = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 1, 0), spx_v3(0.1f, 0.1f, 0.1f), 3.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
    d.frame_a = at(0, 2, 0);
    d.body_b = box, d.frame_b = at(0, 1, 0);
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    for (int s = 0; s < 120; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    spx_vec3 f, t;
    TEST_ENSURE_CODE(spx_joint_get_reaction(w, j, &f, &t), SPX_OK);
    printf("  reaction: (%.4f, %.4f, %.4f) N, torque (%.4f, %.4f, %.4f) N m\n", f.x, f.y, f.z, t.x, t.y, t.z);
    TEST_ENSURE_NEAR(f.y, 3.0f * 9.81f, 0.01f * 3.0f * 9.81f);
    TEST_ENSURE(fabsf(f.x) < 1e-3f && fabsf(f.z) < 1e-3f);
    spx_world_destroy(w);
    return 0;
}

/* A rope (distance joint, no spring, 0..2 m) lets a box fall freely until taut, then holds it at
   2 m; a rigid distance joint of 1.5 m holds it at 1.5 m whatever it does. */
static int distance_rope_and_rigid(void)
{
    for (int rigid = 0; rigid < 2; ++rigid) {
        spx_world* w = make_world(false);
        TEST_ENSURE(w);
        const spx_body_id box = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 4.5f, 0), spx_v3(0.1f, 0.1f, 0.1f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_DISTANCE);
        d.frame_a = at(0, 5, 0);
        d.body_b = box;
        d.length = rigid ? 1.5f : 2.0f;
        if (!rigid) {
            d.spring = (spx_joint_spring){ true, 0.0f, 0.0f };
            d.limit.enable = true, d.min_length = 0.0f, d.max_length = 2.0f;
        }
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        /* Free fall from 0.5 m below the anchor to 2 m takes sqrt(2 * 1.5 / g) = 0.553 s. */
        float at_half_second = 0.0f, worst = 0.0f;
        for (int s = 0; s < 180; ++s) {
            TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
            const float y = test_body_position(w, box).y;
            if (s == 29) at_half_second = y;
            if (s > 60 && fabsf(5.0f - y - d.length) > worst) worst = fabsf(5.0f - y - d.length);
        }
        printf("  distance %s: y at 0.5 s %.4f, then within %.2e m of its length\n", rigid ? "rigid" : "rope",
               at_half_second, worst);
        if (!rigid) TEST_ENSURE_NEAR(at_half_second, 4.5f - 0.5f * 9.81f * 0.25f, 0.01f); /* still falling freely */
        else TEST_ENSURE_NEAR(at_half_second, 3.5f, 0.01f);
        TEST_ENSURE(worst < 0.01f * d.length);
        spx_world_destroy(w);
    }
    return 0;
}

/* A soft weld of 2 Hz, damping 0, holds a box sideways with no gravity and lets it swing back at
   about 2 Hz when turned; a rigid one barely gives. */
static int soft_weld_springs(void)
{
    spx_world* w = make_weightless_world();
    TEST_ENSURE(w);
    const spx_body_id box = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0, 0), spx_v3(0.2f, 0.2f, 0.2f), 1.0f);
    const spx_joint_def d = spring_to_world(SPX_JOINT_WELD, box, 2.0f);
    spx_joint_id j;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    TEST_ENSURE_CODE(spx_body_set_velocity(w, box, spx_v3(0, 0, 0), spx_v3(0, 1, 0)), SPX_OK);
    crossings c;
    TEST_ENSURE(oscillate(w, box, SPIN_Y, 60 * 4, 0, &c) == 0);
    TEST_ENSURE(c.count >= 5);
    const double period = (c.last - c.first) / (c.count - 1);
    printf("  soft weld: period %.4f s (2 Hz: 0.5)\n", period);
    TEST_ENSURE_NEAR(period, 0.5, 0.5 * 0.03);
    spx_world_destroy(w);
    return 0;
}

/* Once a jointed scene has grown the world's arrays, a step allocates nothing: a chain of hinges
   and balls hanging, its bottom link kicked (its body pairs, filtered each step, and its joints
   stay within the buffers the first steps made). */
static int steps_allocate_nothing_once_warm(void)
{
    test_counting c = { 0 };
    spx_allocator a;
    spx_world_def wd = test_counting_world_def(&c, &a);
    wd.enable_sleep = false;
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(10, 1, 10), 1.0f);
    spx_body_id prev = { 0, 0, 0 };
    for (int i = 0; i < 8; ++i) {
        const spx_body_id b =
            add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 19.5f - (float)i, 0), spx_v3(0.1f, 0.5f, 0.1f), 1.0f);
        spx_joint_def d = spx_default_joint_def(i % 2 ? SPX_JOINT_HINGE : SPX_JOINT_BALL);
        if (i > 0) d.body_a = prev, d.frame_a = at(0, -0.5f, 0);
        else d.frame_a = at(0, 20, 0);
        d.body_b = b, d.frame_b = at(0, 0.5f, 0);
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        prev = b;
    }
    TEST_ENSURE_CODE(spx_body_set_velocity(w, prev, spx_v3(0.5f, 0, 0.5f), spx_v3(0, 0, 0)), SPX_OK);
    for (int s = 0; s < 60; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    const long before = c.calls;
    for (int s = 0; s < 300; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    TEST_ENSURE(c.calls == before);
    spx_world_destroy(w);
    TEST_ENSURE(c.live == 0);
    return 0;
}

/* Each allocation of a jointed scene's making and first steps failing in turn: every call that
   fails says SPX_ERR_OUT_OF_MEMORY and changes nothing (retried with memory, the scene comes out as
   it does without failures), and nothing leaks. */
static int out_of_memory_changes_nothing(void)
{
    float reference = 0.0f;
    for (long fail = 0; fail < 200; ++fail) {
        test_counting c = { 0 };
        c.fail_at = fail;
        spx_allocator a;
        spx_world_def wd = test_counting_world_def(&c, &a);
        spx_world* w = NULL;
        if (spx_world_create(&wd, &w) != SPX_OK) {
            TEST_ENSURE(c.live == 0);
            continue;
        }
        spx_body_id link[4];
        int made = 0;
        for (int i = 0; i < 4; ++i) {
            spx_shape_def sh = spx_default_shape_def();
            sh.half_extents = spx_v3(0.1f, 0.5f, 0.1f);
            spx_body_def bd = spx_default_body_def();
            bd.type = SPX_BODY_DYNAMIC;
            bd.position = spx_v3(0, 9.5f - (float)i, 0);
            bd.shapes = &sh;
            bd.shape_count = 1;
            while (spx_body_create(w, &bd, &link[i]) != SPX_OK) c.fail_at = 0; /* retry with memory */
            spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
            if (i > 0) d.body_a = link[i - 1], d.frame_a = at(0, -0.5f, 0);
            else d.frame_a = at(0, 10, 0);
            d.body_b = link[i], d.frame_b = at(0, 0.5f, 0);
            spx_joint_id j;
            spx_result r;
            while ((r = spx_joint_create(w, &d, &j)) != SPX_OK) {
                TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_MEMORY);
                c.fail_at = 0;
            }
            ++made;
        }
        TEST_ENSURE(made == 4);
        TEST_ENSURE_CODE(spx_body_set_velocity(w, link[3], spx_v3(1, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
        for (int s = 0; s < 30; ++s) {
            spx_result r;
            while ((r = spx_world_step(w, dt)) != SPX_OK) {
                TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_MEMORY);
                c.fail_at = 0;
            }
        }
        const float x = test_body_position(w, link[3]).x;
        if (fail == 0) reference = x;
        else TEST_ENSURE(x == reference);
        spx_world_destroy(w);
        TEST_ENSURE(c.live == 0);
    }
    return 0;
}

/* ---- breaking ---- */

/* A 10 kg beam 1 m long welded to a wall: the weld bears m g L / 2 = 49.05 N m and 98.1 N and holds
   under a threshold of 150 N m (the beam, let go level, first sags with up to twice that). A 20 kg
   weight hung from its tip adds 196 N m, and the weld breaks: an event names it with its bodies,
   user data and a torque over 150 N m, its id goes stale, and the beam falls. */
static int weld_holds_then_breaks(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    const spx_body_id wall = add_box(w, SPX_BODY_STATIC, spx_v3(-0.5f, 5, 0), spx_v3(0.5f, 2, 2), 1.0f);
    const spx_body_id beam = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.5f, 5, 0), spx_v3(0.5f, 0.1f, 0.1f), 10.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_WELD);
    d.body_a = wall, d.frame_a = at(0.5f, 0, 0);
    d.body_b = beam, d.frame_b = at(-0.5f, 0, 0);
    d.break_torque = 150.0f;
    int tag = 7;
    d.user_data = &tag;
    spx_joint_id weld;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &weld), SPX_OK);
    for (int s = 0; s < 120; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    const spx_joint_break_event* events;
    uint32_t count;
    TEST_ENSURE_CODE(spx_world_get_joint_break_events(w, &events, &count), SPX_OK);
    TEST_ENSURE(count == 0);
    spx_vec3 f, t;
    TEST_ENSURE_CODE(spx_joint_get_reaction(w, weld, &f, &t), SPX_OK);
    const float sag = 5.0f - world_point(w, beam, spx_v3(0.5f, 0, 0)).y;
    printf("  weld: force (%.3f, %.3f, %.3f) N, torque about the wall (%.3f, %.3f, %.3f) N m, tip sag %.2e m\n", f.x,
           f.y, f.z, t.x, t.y, t.z, sag);
    TEST_ENSURE_NEAR(f.y, 98.1f, 0.01f * 98.1f);
    TEST_ENSURE_NEAR(t.z, 49.05f, 0.01f * 49.05f); /* holding the beam up: +z turns +x up */
    TEST_ENSURE(sag < 1e-3f);
    const spx_body_id weight = add_box(w, SPX_BODY_DYNAMIC, spx_v3(1, 4.5f, 0), spx_v3(0.1f, 0.1f, 0.1f), 20.0f);
    spx_joint_def hang = spx_default_joint_def(SPX_JOINT_BALL);
    hang.body_a = beam, hang.frame_a = at(0.5f, 0, 0);
    hang.body_b = weight, hang.frame_b = at(0, 0.5f, 0);
    spx_joint_id rope;
    TEST_ENSURE_CODE(spx_joint_create(w, &hang, &rope), SPX_OK);
    bool broke = false;
    for (int s = 0; s < 60 && !broke; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        TEST_ENSURE_CODE(spx_world_get_joint_break_events(w, &events, &count), SPX_OK);
        for (uint32_t k = 0; k < count; ++k) {
            const spx_joint_break_event* e = &events[k];
            TEST_ENSURE(e->joint.index == weld.index && e->joint.generation == weld.generation);
            TEST_ENSURE(e->a.index == wall.index && e->b.index == beam.index && e->user_data == &tag);
            const float torque =
                sqrtf(e->torque.x * e->torque.x + e->torque.y * e->torque.y + e->torque.z * e->torque.z);
            printf("  weld broke in step %d after the weight at %.1f N m (threshold 150)\n", s, torque);
            TEST_ENSURE(torque > 150.0f);
            broke = true;
        }
    }
    TEST_ENSURE(broke);
    TEST_ENSURE(!spx_joint_is_valid(w, weld));
    TEST_ENSURE(spx_joint_is_valid(w, rope));
    const float y0 = test_body_position(w, beam).y;
    for (int s = 0; s < 30; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    TEST_ENSURE(test_body_position(w, beam).y < y0 - 0.5f); /* it falls */
    spx_world_destroy(w);
    return 0;
}

/* A beam of ten 1 kg boxes 0.5 m long welded end to end, cantilevered from a wall, every weld
   breaking at 600 N m (the beam let go level first sags with up to twice its static moment). The wall's weld bears the beam's moment, sum m g x = 9.81 * 25 = 245.25 N m
   (within 2%), and the tip sags under 0.5 m, a tenth of its length (the welds' stiffness is made
   from the light boxes' inertias: docs/joints.md, "Limits"). A 10 kg weight hung from the tip adds 490.5 N m at the wall
   (735.75 N m in all): the wall's weld breaks, with a torque over its threshold, and the others,
   which bear less, hold. */
static int weld_beam_of_ten_sags_then_breaks(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    enum { n = 10 };
    const float half = 0.25f, y = 5.0f;
    const spx_body_id wall = add_box(w, SPX_BODY_STATIC, spx_v3(-0.5f, y, 0), spx_v3(0.5f, 2, 2), 1.0f);
    spx_body_id box[n];
    spx_joint_id weld[n];
    for (int i = 0; i < n; ++i) {
        box[i] =
            add_box(w, SPX_BODY_DYNAMIC, spx_v3(half + 2.0f * half * (float)i, y, 0), spx_v3(half, 0.1f, 0.1f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_WELD);
        d.body_a = i ? box[i - 1] : wall, d.frame_a = i ? at(half, 0, 0) : at(0.5f, 0, 0);
        d.body_b = box[i], d.frame_b = at(-half, 0, 0);
        d.break_torque = 600.0f;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &weld[i]), SPX_OK);
    }
    /* The beam settles (its sway of some 10 s dies away slowly: judged on the last second's mean). */
    double sag_sum = 0.0, torque_sum = 0.0;
    const int settle = long_run ? 1800 : 600;
    for (int s = 0; s < settle; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const spx_joint_break_event* events;
        uint32_t count;
        TEST_ENSURE_CODE(spx_world_get_joint_break_events(w, &events, &count), SPX_OK);
        if (count) printf("  weld %u broke while settling, step %d\n", events[0].joint.index, s);
        TEST_ENSURE(count == 0);
        if (s >= settle - 60) {
            spx_vec3 f, t;
            TEST_ENSURE_CODE(spx_joint_get_reaction(w, weld[0], &f, &t), SPX_OK);
            sag_sum += y - world_point(w, box[n - 1], spx_v3(half, 0, 0)).y;
            torque_sum += t.z;
        }
    }
    const double sag = sag_sum / 60.0, torque = torque_sum / 60.0;
    printf("  beam of 10 welded boxes: tip sag %.4f m, torque at the wall %.2f N m (theory 245.25)\n", sag, torque);
    TEST_ENSURE(sag > 0.0 && sag < 0.5);
    TEST_ENSURE_NEAR(torque, 245.25, 0.02 * 245.25);
    const spx_vec3 tip = world_point(w, box[n - 1], spx_v3(half, 0, 0));
    const spx_body_id weight =
        add_box(w, SPX_BODY_DYNAMIC, spx_v3(tip.x, tip.y - 0.6f, 0), spx_v3(0.1f, 0.1f, 0.1f), 10.0f);
    spx_joint_def hang = spx_default_joint_def(SPX_JOINT_BALL);
    hang.body_a = box[n - 1], hang.frame_a = at(half, 0, 0);
    hang.body_b = weight, hang.frame_b = at(0, 0.5f, 0);
    spx_joint_id rope;
    TEST_ENSURE_CODE(spx_joint_create(w, &hang, &rope), SPX_OK);
    int broke = -1;
    for (int s = 0; s < 120 && broke < 0; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const spx_joint_break_event* events;
        uint32_t count;
        TEST_ENSURE_CODE(spx_world_get_joint_break_events(w, &events, &count), SPX_OK);
        for (uint32_t k = 0; k < count; ++k) {
            const spx_joint_break_event* e = &events[k];
            const float t = sqrtf(e->torque.x * e->torque.x + e->torque.y * e->torque.y + e->torque.z * e->torque.z);
            printf("  weld %u broke in step %d at %.1f N m (threshold 600)\n", e->joint.index, s, t);
            TEST_ENSURE(t > 600.0f);
            TEST_ENSURE(e->joint.index == weld[0].index && e->a.index == wall.index && e->b.index == box[0].index);
            broke = s;
        }
    }
    TEST_ENSURE(broke >= 0);
    TEST_ENSURE(!spx_joint_is_valid(w, weld[0]));
    for (int i = 1; i < n; ++i) TEST_ENSURE(spx_joint_is_valid(w, weld[i]));
    spx_world_destroy(w);
    return 0;
}

/* ---- the car ---- */

/* A car: a 200 kg chassis on four 10 kg sphere wheels of radius 0.3 m, each on a wheel joint (axle
   along z, a 4 Hz suspension), on a flat ground of friction 1. With the rear motors at -10 rad/s
   (200 N m each) it drives along +x at 10 * 0.3 = 3 m/s (within 1% after 4 s), straight: it strays
   under 1 cm sideways and turns under 0.5 degree. On a 10 degree slope (gravity tilted, the same
   thing for the car) with the motors of all four wheels held at 0 rad/s (brakes of 500 N m), it
   comes to rest: under 1 mm/s in its fifth second, and it slides under 1 mm in it. */
static spx_world* make_car(spx_vec3 gravity, float motor_speed, float max_torque, bool front_driven,
                           spx_body_id* out_chassis)
{
    spx_world_def wd = spx_default_world_def();
    wd.enable_sleep = false;
    wd.gravity = gravity;
    spx_world* w = test_world_create(&wd);
    if (!w) return NULL;
    add_box(w, SPX_BODY_STATIC, spx_v3(0, -0.5f, 0), spx_v3(200, 0.5f, 20), 1.0f);
    const spx_body_id chassis = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.75f, 0), spx_v3(1.2f, 0.2f, 0.6f), 200.0f);
    const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
    for (int k = 0; k < 4; ++k) {
        const float x = k < 2 ? 0.9f : -0.9f, z = k & 1 ? -0.8f : 0.8f, r = 0.3f;
        spx_shape_def sh = spx_default_shape_def();
        sh.type = SPX_SHAPE_SPHERE;
        sh.radius = r;
        sh.density = 10.0f / (4.0f / 3.0f * pi * r * r * r);
        sh.friction = 1.0f;
        spx_body_def bd = test_body_def(SPX_BODY_DYNAMIC, spx_v3(x, r, z));
        bd.angular_damping = 0.0f;
        const spx_body_id wheel = test_body_create(w, bd, sh, NULL);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_WHEEL);
        d.body_a = chassis, d.frame_a = (spx_transform){ { x, r - 0.75f, z }, x_to_z };
        d.body_b = wheel, d.frame_b = (spx_transform){ { 0, 0, 0 }, x_to_z };
        d.spring = (spx_joint_spring){ true, 4.0f, 0.7f };
        d.limit = (spx_joint_limit){ true, -0.15f, 0.15f };
        if (k >= 2 || front_driven) d.motor = (spx_joint_motor){ true, motor_speed, max_torque };
        spx_joint_id j;
        if (spx_joint_create(w, &d, &j) != SPX_OK) return spx_world_destroy(w), NULL;
    }
    *out_chassis = chassis;
    return w;
}

static int car_drives_straight_and_brakes_on_a_slope(void)
{
    spx_body_id chassis;
    spx_world* w = make_car(spx_v3(0, -9.81f, 0), -10.0f, 200.0f, false, &chassis);
    TEST_ENSURE(w);
    for (int s = 0; s < 240; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    const spx_vec3 p0 = test_body_position(w, chassis);
    float slowest = 1e9f, fastest = 0.0f;
    for (int s = 0; s < 120; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_vec3 v, av;
        spx_body_get_velocity(w, chassis, &v, &av);
        slowest = fminf(slowest, v.x), fastest = fmaxf(fastest, v.x);
    }
    spx_transform t;
    spx_body_get_transform(w, chassis, &t);
    const float heading = 2.0f * asinf(fabsf(t.q.y)) * 180.0f / pi;
    printf("  car on flat ground: %.4f..%.4f m/s along x (set 3), %.2e m sideways, turned %.3f degrees; "
           "%.2f m in 2 s\n",
           slowest, fastest, t.p.z, heading, t.p.x - p0.x);
    TEST_ENSURE(fabsf(slowest - 3.0f) < 0.03f && fabsf(fastest - 3.0f) < 0.03f);
    TEST_ENSURE(fabsf(t.p.z) < 0.01f);
    TEST_ENSURE(heading < 0.5f);
    spx_world_destroy(w);

    const float slope = 10.0f * pi / 180.0f;
    w = make_car(spx_v3(-9.81f * sinf(slope), -9.81f * cosf(slope), 0), 0.0f, 500.0f, true, &chassis);
    TEST_ENSURE(w);
    for (int s = 0; s < 240; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    const float x0 = test_body_position(w, chassis).x;
    float fastest_late = 0.0f;
    for (int s = 0; s < 60; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        fastest_late = fmaxf(fastest_late, speed_of(w, chassis));
    }
    const float slid = fabsf(test_body_position(w, chassis).x - x0);
    printf("  car braked on a 10 degree slope: at most %.2e m/s in its fifth second, slid %.2e m in it\n", fastest_late,
           slid);
    TEST_ENSURE(fastest_late < 1e-3f);
    TEST_ENSURE(slid < 1e-3f);
    spx_world_destroy(w);
    return 0;
}

/* A chain's middle link gone NaN (as a solver fault would leave it): that step quarantines what the
   fault reached (through the joints, the whole chain), and once a push wakes the chain no later step
   finds anything non-finite: the joints' impulses that held the NaN are not warm-started. */
/* Nine chains of two links hung from the world, the first link of the eighth gone NaN: the world's
   side of every joint (the solver's immovable body) stays zero, so the other chains step on while
   the NaN chain is quarantined. Eight of the nine world joints fill a block of 8 lanes or two
   of 4, the eighth chain's last in it; the ninth's comes in the next. */
static int nan_at_the_world_reaches_no_other_chain(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    enum { CHAINS = 9, BAD = 7 };
    spx_body_id link[CHAINS][2];
    for (int c = 0; c < CHAINS; ++c) {
        for (int i = 0; i < 2; ++i) {
            const float x = 2.0f * (float)c;
            link[c][i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(x, 9.5f - (float)i, 0), spx_v3(0.1f, 0.5f, 0.1f), 1.0f);
            spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
            if (i > 0) d.body_a = link[c][0], d.frame_a = at(0, -0.5f, 0);
            else d.frame_a = at(x, 10, 0);
            d.body_b = link[c][i], d.frame_b = at(0, 0.5f, 0);
            spx_joint_id j;
            TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        }
        TEST_ENSURE_CODE(spx_body_set_velocity(w, link[c][1], spx_v3(1, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
    }
    for (int s = 0; s < 10; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    w->bodies[link[BAD][0].index - 1].v = (vec3s){ { NAN, 0.0f, 0.0f } };
    TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    /* A chain the NaN reached would be quarantined too: stopped where the step began. */
    spx_step_stats st;
    spx_world_get_stats(w, &st);
    int moving = 0;
    for (int c = 0; c < CHAINS; ++c) {
        spx_vec3 v, av;
        spx_body_get_velocity(w, link[c][1], &v, &av);
        if (c != BAD) moving += v.x != 0.0f;
    }
    printf("  NaN link at the world: %u bodies quarantined, %d of the %d other chains moving after the step\n",
           (unsigned)st.quarantined_body_count, moving, CHAINS - 1);
    TEST_ENSURE(st.quarantined_body_count <= 2);
    TEST_ENSURE(moving == CHAINS - 1);
    spx_world_destroy(w);
    return 0;
}

/* A joint made in the slot of one just destroyed, between steps, on other bodies: the step's split
   of the joints (colours, blocks) must follow it, not be kept from the step before. Two links hang
   from the world; the joint between them goes, and a new one (the freed slot) hangs the lower link
   from the world where its top is: the lower link must hang there, the upper still from its own. */
static int joint_remade_in_a_freed_slot_holds_its_own_bodies(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    spx_body_id link[2];
    spx_joint_id joint[2];
    for (int i = 0; i < 2; ++i) {
        link[i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 9.5f - (float)i, 0), spx_v3(0.1f, 0.5f, 0.1f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        if (i > 0) d.body_a = link[0], d.frame_a = at(0, -0.5f, 0);
        else d.frame_a = at(0, 10, 0);
        d.body_b = link[i], d.frame_b = at(0, 0.5f, 0);
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &joint[i]), SPX_OK);
    }
    TEST_ENSURE_CODE(spx_body_set_velocity(w, link[1], spx_v3(1, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
    for (int s = 0; s < 30; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    const spx_vec3 top = world_point(w, link[1], spx_v3(0, 0.5f, 0));
    TEST_ENSURE_CODE(spx_joint_destroy(w, joint[1]), SPX_OK);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
    d.frame_a = at(top.x, top.y, top.z);
    d.body_b = link[1], d.frame_b = at(0, 0.5f, 0);
    spx_joint_id remade;
    TEST_ENSURE_CODE(spx_joint_create(w, &d, &remade), SPX_OK);
    TEST_ENSURE(remade.index == joint[1].index);
    float worst_new = 0.0f, worst_old = 0.0f;
    for (int s = 0; s < 120; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const float g_new = dist3(world_point(w, link[1], spx_v3(0, 0.5f, 0)), top);
        const float g_old = dist3(world_point(w, link[0], spx_v3(0, 0.5f, 0)), spx_v3(0, 10, 0));
        if (g_new > worst_new) worst_new = g_new;
        if (g_old > worst_old) worst_old = g_old;
    }
    printf("  joint remade in a freed slot: worst gap %.2e m (new joint), %.2e m (the other)\n", worst_new, worst_old);
    TEST_ENSURE(worst_new < 0.01f);
    TEST_ENSURE(worst_old < 0.01f);
    spx_world_destroy(w);
    return 0;
}

static int nan_in_a_chain_does_not_spread(void)
{
    spx_world* w = make_world(false);
    TEST_ENSURE(w);
    spx_body_id link[4];
    for (int i = 0; i < 4; ++i) {
        link[i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 9.5f - (float)i, 0), spx_v3(0.1f, 0.5f, 0.1f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        if (i > 0) d.body_a = link[i - 1], d.frame_a = at(0, -0.5f, 0);
        else d.frame_a = at(0, 10, 0);
        d.body_b = link[i], d.frame_b = at(0, 0.5f, 0);
        spx_joint_id j;
        TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
    }
    TEST_ENSURE_CODE(spx_body_set_velocity(w, link[3], spx_v3(2, 0, 0), spx_v3(0, 0, 0)), SPX_OK);
    for (int s = 0; s < 30; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    w->bodies[link[1].index - 1].w = (vec3s){ { NAN, 0.0f, 0.0f } };
    TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
    spx_step_stats st;
    spx_world_get_stats(w, &st);
    TEST_ENSURE(st.flags & SPX_STEP_QUARANTINE);
    TEST_ENSURE_CODE(spx_body_apply_impulse(w, link[3], spx_v3(1, 0, 0), test_body_position(w, link[3])), SPX_OK);
    for (int s = 0; s < 60; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_world_get_stats(w, &st);
        TEST_ENSURE(!(st.flags & SPX_STEP_QUARANTINE));
    }
    for (int i = 0; i < 4; ++i) {
        const spx_vec3 p = test_body_position(w, link[i]);
        TEST_ENSURE(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
    }
    /* The chain holds together again: the links' anchors within 1 cm. */
    for (int i = 1; i < 4; ++i)
        TEST_ENSURE(dist3(world_point(w, link[i - 1], spx_v3(0, -0.5f, 0)),
                          world_point(w, link[i], spx_v3(0, 0.5f, 0))) < 0.01f);
    spx_world_destroy(w);
    return 0;
}

/* A hanging chain of eight limited hinges, kicked sideways: run on the lanes (no motor) and one
   joint at a time (each hinge given a motor of no force, which moves nothing but keeps it off the
   lanes). The order differs, so the paths part; the joint error may not: each run's worst anchor gap
   and worst angle between a hinge's two axes, over 2 s, within 1.5 times the other's plus 1 mm and
   0.2 degree. */
static int hinge_lanes_match_one_at_a_time(void)
{
    float gap[2] = { 0.0f, 0.0f }, tilt[2] = { 0.0f, 0.0f };
    for (int scalar = 0; scalar < 2; ++scalar) {
        spx_world* w = make_world(false);
        TEST_ENSURE(w);
        enum { links = 8 };
        const spx_quat x_to_z = { 0, -0.70710678f, 0, 0.70710678f };
        spx_body_id link[links];
        for (int i = 0; i < links; ++i) {
            link[i] = add_box(w, SPX_BODY_DYNAMIC, spx_v3(0.25f + 0.5f * (float)i, 5, 0), spx_v3(0.25f, 0.05f, 0.05f),
                              1.0f + (float)i);
            spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
            if (i > 0) d.body_a = link[i - 1];
            d.frame_a = (spx_transform){ { i > 0 ? 0.25f : 0.0f, i > 0 ? 0.0f : 5.0f, 0 }, x_to_z };
            d.body_b = link[i];
            d.frame_b = (spx_transform){ { -0.25f, 0, 0 }, x_to_z };
            d.limit = (spx_joint_limit){ true, -pi / 3.0f, pi / 3.0f };
            if (scalar) d.motor = (spx_joint_motor){ true, 0.0f, 0.0f };
            spx_joint_id j;
            TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        }
        TEST_ENSURE_CODE(spx_body_set_velocity(w, link[links - 1], spx_v3(0, 0, 3.0f), spx_v3(0, 0, 0)), SPX_OK);
        for (int s = 0; s < 120; ++s) {
            TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
            for (int i = 0; i < links; ++i) {
                const spx_vec3 b = world_point(w, link[i], spx_v3(-0.25f, 0, 0));
                const spx_vec3 a = i > 0 ? world_point(w, link[i - 1], spx_v3(0.25f, 0, 0)) : spx_v3(0, 5, 0);
                const spx_vec3 cb = world_point(w, link[i], spx_v3(0, 0, 0));
                const spx_vec3 zb = world_point(w, link[i], spx_v3(0, 0, 1));
                spx_vec3 za = spx_v3(0, 0, 1);
                if (i > 0) {
                    const spx_vec3 ca = world_point(w, link[i - 1], spx_v3(0, 0, 0));
                    const spx_vec3 ta = world_point(w, link[i - 1], spx_v3(0, 0, 1));
                    za = spx_v3(ta.x - ca.x, ta.y - ca.y, ta.z - ca.z);
                }
                const float dot = za.x * (zb.x - cb.x) + za.y * (zb.y - cb.y) + za.z * (zb.z - cb.z);
                const float angle = acosf(dot > 1.0f ? 1.0f : dot < -1.0f ? -1.0f : dot);
                TEST_ENSURE(isfinite(dist3(a, b)) && isfinite(angle));
                if (dist3(a, b) > gap[scalar]) gap[scalar] = dist3(a, b);
                if (angle > tilt[scalar]) tilt[scalar] = angle;
            }
        }
        spx_world_destroy(w);
    }
    printf("  hinge chain: worst gap %.5f m on lanes, %.5f m one at a time; worst axis tilt %.4f, %.4f deg\n", gap[0],
           gap[1], tilt[0] * 180.0f / pi, tilt[1] * 180.0f / pi);
    for (int k = 0; k < 2; ++k) {
        TEST_ENSURE(gap[k] <= 1.5f * gap[1 - k] + 1e-3f);
        TEST_ENSURE(tilt[k] <= 1.5f * tilt[1 - k] + 0.2f * pi / 180.0f);
    }
    return 0;
}

/* Chains hanging apart, cone-twists and limited hinges in turn (half start with either), kicked:
   their joints listed chain by chain, then link by link across the chains. Each joint keeps its
   colour, only which joints share a block of lanes changes, and that must move no bit. */
static int chains_solve_the_same_in_any_joint_order(void)
{
    enum { chains = 22, links = 3 };
    spx_transform pose[2][chains * links];
    spx_vec3 vel[2][chains * links][2];
    const spx_quat x_down = { 0, 0, -0.70710678f, 0.70710678f };
    for (int across = 0; across < 2; ++across) {
        spx_world* w = make_world(false);
        TEST_ENSURE(w);
        spx_body_id body[chains][links];
        for (int c = 0; c < chains; ++c)
            for (int i = 0; i < links; ++i) {
                spx_shape_def s = test_box_shape(spx_v3(0.25f, 0.05f, 0.05f));
                s.density = (1.0f + (float)i + 0.1f * (float)c) / (8.0f * 0.25f * 0.05f * 0.05f);
                spx_body_def d = test_body_def(SPX_BODY_DYNAMIC, spx_v3(4.0f * (float)c, 9.75f - 0.5f * (float)i, 0));
                d.rotation = x_down;
                d.angular_damping = 0.0f;
                body[c][i] = test_body_create(w, d, s, NULL);
            }
        for (int k = 0; k < chains * links; ++k) {
            const int c = across ? k % chains : k / links, i = across ? k / chains : k % links;
            const bool hinge = (c + i) % 2 == 1;
            spx_joint_def d = spx_default_joint_def(hinge ? SPX_JOINT_HINGE : SPX_JOINT_CONE_TWIST);
            if (i > 0) d.body_a = body[c][i - 1];
            d.frame_a = (spx_transform){ i > 0 ? spx_v3(0.25f, 0, 0) : spx_v3(4.0f * (float)c, 10.0f, 0), x_down };
            if (i > 0) d.frame_a.q = identity;
            d.body_b = body[c][i];
            d.frame_b = (spx_transform){ { -0.25f, 0, 0 }, identity };
            d.limit = (spx_joint_limit){ true, -pi / 6.0f, pi / 6.0f };
            d.swing_limit = pi / 5.0f;
            spx_joint_id j;
            TEST_ENSURE_CODE(spx_joint_create(w, &d, &j), SPX_OK);
        }
        for (int c = 0; c < chains; ++c)
            TEST_ENSURE_CODE(spx_body_set_velocity(w, body[c][links - 1], spx_v3(0.5f * (float)(c % 5), 0, 3.0f),
                                                   spx_v3(0, 2.0f * (float)(c % 3), 0)),
                             SPX_OK);
        for (int s = 0; s < 90; ++s) TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        for (int c = 0; c < chains; ++c)
            for (int i = 0; i < links; ++i) {
                TEST_ENSURE_CODE(spx_body_get_transform(w, body[c][i], &pose[across][c * links + i]), SPX_OK);
                TEST_ENSURE_CODE(spx_body_get_velocity(w, body[c][i], &vel[across][c * links + i][0],
                                                       &vel[across][c * links + i][1]),
                                 SPX_OK);
                TEST_ENSURE(isfinite(pose[across][c * links + i].p.y));
            }
        spx_world_destroy(w);
    }
    TEST_ENSURE(memcmp(pose[0], pose[1], sizeof pose[0]) == 0);
    TEST_ENSURE(memcmp(vel[0], vel[1], sizeof vel[0]) == 0);
    return 0;
}

int main(int argc, char** argv)
{
    long_run = test_long_run(argc, argv);
    int failures = 0;
    TEST_RUN(bad_input_is_rejected, failures);
    TEST_RUN(collide_connected_flag, failures);
    TEST_RUN(jointed_bodies_sleep_and_wake_together, failures);
    TEST_RUN(pendulum_period, failures);
    TEST_RUN(pendulum_energy_never_grows, failures);
    TEST_RUN(chain_of_20_holds_its_length, failures);
    TEST_RUN(chain_with_mass_ratio_100, failures);
    TEST_RUN(hinge_limit_holds, failures);
    TEST_RUN(hinge_limit_holds_heavy_arm_on_light_link, failures);
    TEST_RUN(hinge_motor_reaches_speed_or_stalls, failures);
    TEST_RUN(hinge_spring_oscillates, failures);
    TEST_RUN(weld_keeps_relative_pose, failures);
    TEST_RUN(slider_stays_on_axis_and_its_motor_drives, failures);
    TEST_RUN(distance_spring_oscillates_at_its_frequency, failures);
    TEST_RUN(ragdoll_stays_finite_under_kicks, failures);
    TEST_RUN(wheel_suspension_motor_and_steering, failures);
    TEST_RUN(drag_joint_moves_point_to_target, failures);
    TEST_RUN(pendulum_swap_and_move, failures);
    TEST_RUN(reaction_holds_the_weight, failures);
    TEST_RUN(distance_rope_and_rigid, failures);
    TEST_RUN(soft_weld_springs, failures);
    TEST_RUN(steps_allocate_nothing_once_warm, failures);
    TEST_RUN(out_of_memory_changes_nothing, failures);
    TEST_RUN(weld_holds_then_breaks, failures);
    TEST_RUN(joint_remade_in_a_freed_slot_holds_its_own_bodies, failures);
    TEST_RUN(nan_in_a_chain_does_not_spread, failures);
    TEST_RUN(nan_at_the_world_reaches_no_other_chain, failures);
    TEST_RUN(chain_of_20_swinging_keeps_its_energy, failures);
    TEST_RUN(hinge_lanes_match_one_at_a_time, failures);
    TEST_RUN(chains_solve_the_same_in_any_joint_order, failures);
    TEST_RUN(tumbling_pairs_keep_their_energy, failures);
    TEST_RUN(weld_beam_of_ten_sags_then_breaks, failures);
    TEST_RUN(car_drives_straight_and_brakes_on_a_slope, failures);
    return failures ? 1 : 0;
}
