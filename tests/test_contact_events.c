/* Contact data and events: begin and end events equal to the manifolds spx_body_get_contacts
   reports and to brute-force box overlaps, step by step; hit events on the pairs that touch, with the speed of the fall; a resting
   box's impulses carry its weight; a pre-solve callback makes a one-way platform, deterministically;
   body move and sleep events. */
#include "support/test.h"
#include "support/one_way.h"
#include "support/scenes.h"
#include "support/pieces.h"
#include <sepax/sepax.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static const float dt = 1.0f / 60.0f;

#define MAX_PAIRS 4096

/* A touching shape pair, by the shapes' id indices. */
typedef struct pair_set {
    uint64_t key[MAX_PAIRS];
    int count;
} pair_set;

static uint64_t key_of(spx_shape_id a, spx_shape_id b) { return (uint64_t)a.index << 32 | b.index; }

static int find(const pair_set* s, uint64_t k)
{
    for (int i = 0; i < s->count; ++i)
        if (s->key[i] == k) return i;
    return -1;
}

static void insert(pair_set* s, uint64_t k)
{
    if (find(s, k) < 0 && s->count < MAX_PAIRS) s->key[s->count++] = k;
}

/* The shape pairs of every body's manifolds after the step (a manifold is listed for both of its
   bodies: each must name its body). */
static int touching_now(spx_world* w, const spx_body_id* bodies, int n, pair_set* out)
{
    static spx_contact_data data[256];
    out->count = 0;
    for (int i = 0; i < n; ++i) {
        uint32_t count = 0;
        TEST_ENSURE_CODE(spx_body_get_contacts(w, bodies[i], data, 256, &count), SPX_OK);
        TEST_ENSURE(count <= 256);
        for (uint32_t k = 0; k < count; ++k) {
            TEST_ENSURE(data[k].a.index == bodies[i].index || data[k].b.index == bodies[i].index);
            TEST_ENSURE(data[k].point_count >= 1 && data[k].point_count <= 4);
            TEST_ENSURE_NEAR(data[k].normal.x * data[k].normal.x + data[k].normal.y * data[k].normal.y +
                                 data[k].normal.z * data[k].normal.z,
                             1.0f, 1e-4f);
            insert(out, key_of(data[k].shape_a, data[k].shape_b));
        }
    }
    return 0;
}

/* One step, its events applied to the touching set (an end names a touching pair, approach speed 0;
   a begin one not touching, approach speed finite), which then holds the manifolds' shape pairs. */
static int step_following(spx_world* w, const spx_body_id* bodies, int n, pair_set* touching, pair_set* now,
                          const spx_contact_event** b, uint32_t* nb, const spx_contact_event** e, uint32_t* ne)
{
    TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    TEST_ENSURE_CODE(spx_world_get_contact_events(w, b, nb, e, ne), SPX_OK);
    for (uint32_t i = 0; i < *ne; ++i) {
        const int at = find(touching, key_of((*e)[i].shape_a, (*e)[i].shape_b));
        TEST_ENSURE(at >= 0);
        TEST_ENSURE((*e)[i].approach_speed == 0.0f);
        touching->key[at] = touching->key[--touching->count];
    }
    for (uint32_t i = 0; i < *nb; ++i) {
        TEST_ENSURE(find(touching, key_of((*b)[i].shape_a, (*b)[i].shape_b)) < 0);
        TEST_ENSURE(isfinite((*b)[i].approach_speed));
        insert(touching, key_of((*b)[i].shape_a, (*b)[i].shape_b));
    }
    TEST_ENSURE(touching_now(w, bodies, n, now) == 0);
    TEST_ENSURE(now->count == touching->count);
    for (int i = 0; i < now->count; ++i) TEST_ENSURE(find(touching, now->key[i]) >= 0);
    return 0;
}

/* FNV-1a over bytes: the events, their order and their numbers, but not the worlds' numbers in the
   ids (two worlds never share one). */
static uint64_t hash_bytes(uint64_t h, const void* p, size_t n)
{
    const unsigned char* b = p;
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t hash_pair(uint64_t h, spx_body_id a, spx_body_id b, spx_shape_id sa, spx_shape_id sb)
{
    const uint32_t v[8] = { a.index,  a.generation,  b.index,  b.generation,
                            sa.index, sa.generation, sb.index, sb.generation };
    return hash_bytes(h, v, sizeof v);
}

static uint64_t hash_events(uint64_t h, const spx_contact_event* e, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        h = hash_bytes(hash_pair(h, e[i].a, e[i].b, e[i].shape_a, e[i].shape_b), &e[i].approach_speed, sizeof(float));
    return h;
}

static uint64_t hash_hits(uint64_t h, const spx_contact_hit_event* e, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        const float f[7] = { e[i].point.x,  e[i].point.y,  e[i].point.z, e[i].normal.x,
                             e[i].normal.y, e[i].normal.z, e[i].speed };
        h = hash_bytes(hash_pair(h, e[i].a, e[i].b, e[i].shape_a, e[i].shape_b), f, sizeof f);
    }
    return h;
}

/* Counts of the geometric check: pairs that had to touch, pairs that could not, pairs in between. */
typedef struct brute_counts {
    long must, must_not, between;
} brute_counts;

/* The state of `n` one-box bodies at the start of a step: their boxes, and how far each box's points
   can move in the step (m: its speed after gravity times the step, plus its spin times its bounding
   radius). */
typedef struct boxes_now {
    spx_obb box[41];
    float reach[41];
} boxes_now;

static int take_boxes(spx_world* w, const spx_body_id* bodies, const spx_vec3* half, int n, float gravity,
                      boxes_now* out)
{
    for (int i = 0; i < n; ++i) {
        spx_transform t;
        spx_vec3 v, av;
        TEST_ENSURE_CODE(spx_body_get_transform(w, bodies[i], &t), SPX_OK);
        TEST_ENSURE_CODE(spx_body_get_velocity(w, bodies[i], &v, &av), SPX_OK);
        TEST_ENSURE_CODE(spx_obb_from_quat(t.p, half[i], t.q, &out->box[i]), SPX_OK);
        const float radius = sqrtf(half[i].x * half[i].x + half[i].y * half[i].y + half[i].z * half[i].z);
        out->reach[i] = (sqrtf(v.x * v.x + v.y * v.y + v.z * v.z) + gravity * dt +
                         sqrtf(av.x * av.x + av.y * av.y + av.z * av.z) * radius) *
                        dt;
    }
    return 0;
}

static spx_obb grown(const spx_obb* b, float by)
{
    spx_obb g = *b;
    g.half_extents = spx_v3(b->half_extents.x + by, b->half_extents.y + by, b->half_extents.z + by);
    return g;
}

/* The touching set the events left, judged by brute force over every pair of boxes at the poses the
   step's narrow phase saw. Boxes overlapping (deeper than 0.01 mm, past rounding) touch. Boxes
   farther apart than the contact margin (the speculative distance plus what their motion can close
   in the step, docs/world.md) and the 1 mm a resting pair's reused manifold may drift do not: grown
   by half of that, they are apart. Pairs in between may go either way. */
static int events_match_geometry(const boxes_now* at, float speculative, const spx_shape_id* shapes, int n,
                                 const pair_set* touching, brute_counts* counts)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            const bool listed =
                find(touching, key_of(shapes[i], shapes[j])) >= 0 || find(touching, key_of(shapes[j], shapes[i])) >= 0;
            const float by = 0.5f * (speculative + at->reach[i] + at->reach[j] + 1e-3f) + 1e-4f;
            const spx_obb gi = grown(&at->box[i], by), gj = grown(&at->box[j], by);
            bool near = false;
            TEST_ENSURE_CODE(spx_overlap_obb_obb(&gi, &gj, &near), SPX_OK);
            if (!near) {
                TEST_ENSURE(!listed);
                ++counts->must_not;
                continue;
            }
            spx_penetration pen;
            TEST_ENSURE_CODE(spx_penetration_obb_obb(&at->box[i], &at->box[j], &pen), SPX_OK);
            if (pen.overlapping && pen.depth > 1e-5f) {
                TEST_ENSURE(listed);
                ++counts->must;
            } else {
                ++counts->between;
            }
        }
    }
    return 0;
}

/* 40 boxes dropped with random poses and velocities on a ground: after every step the pairs the
   begin and end events leave touching are the pairs with manifolds and agree with the brute-force
   geometry of events_match_geometry; each hit is on such a pair, at least the threshold fast.
   *out_hash: the events in their order (hash_events). */
static int contact_scene(uint64_t* out_hash)
{
    uint64_t hash = 14695981039346656037ull;
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    spx_body_id bodies[41];
    spx_vec3 half[41];
    half[0] = spx_v3(20, 1, 20);
    bodies[0] = test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), half[0]);
    uint32_t seed = 777;
    for (int i = 1; i <= 40; ++i) {
        spx_shape_def s = spx_default_shape_def();
        s.half_extents = test_lcg_vec3(&seed, spx_v3(0.2f, 0.2f, 0.2f), spx_v3(0.6f, 0.6f, 0.6f));
        spx_body_def d = spx_default_body_def();
        d.type = SPX_BODY_DYNAMIC;
        d.position = test_lcg_vec3(&seed, spx_v3(-3, 1, -3), spx_v3(3, 10, 3));
        d.rotation = test_lcg_rotation(&seed);
        d.linear_velocity = test_lcg_vec3(&seed, spx_v3(-2, -2, -2), spx_v3(2, 2, 2));
        d.restitution = 0.3f;
        d.shapes = &s;
        d.shape_count = 1;
        half[i] = s.half_extents;
        TEST_ENSURE(spx_body_create(w, &d, &bodies[i]) == SPX_OK);
    }
    spx_shape_id shapes[41];
    for (int i = 0; i < 41; ++i) TEST_ENSURE_CODE(spx_body_get_shape(w, bodies[i], 0, &shapes[i]), SPX_OK);
    static pair_set events, now;
    events.count = 0;
    int begins = 0, ends = 0, hits = 0;
    brute_counts counts = { 0, 0, 0 };
    static boxes_now start;
    const float gravity =
        sqrtf(wd.gravity.x * wd.gravity.x + wd.gravity.y * wd.gravity.y + wd.gravity.z * wd.gravity.z);
    for (int step = 0; step < 300; ++step) {
        TEST_ENSURE(take_boxes(w, bodies, half, 41, gravity, &start) == 0);
        const spx_contact_event *b, *e;
        uint32_t nb, ne;
        TEST_ENSURE(step_following(w, bodies, 41, &events, &now, &b, &nb, &e, &ne) == 0);
        begins += (int)nb, ends += (int)ne;
        hash = hash_events(hash_events(hash, b, nb), e, ne);
        TEST_ENSURE(events_match_geometry(&start, wd.speculative_distance, shapes, 41, &events, &counts) == 0);
        const spx_contact_hit_event* h;
        uint32_t nh;
        TEST_ENSURE_CODE(spx_world_get_hit_events(w, &h, &nh), SPX_OK);
        for (uint32_t i = 0; i < nh; ++i) {
            TEST_ENSURE(find(&now, key_of(h[i].shape_a, h[i].shape_b)) >= 0);
            TEST_ENSURE(h[i].speed >= wd.hit_event_threshold);
            if (i > 0) TEST_ENSURE(key_of(h[i - 1].shape_a, h[i - 1].shape_b) != key_of(h[i].shape_a, h[i].shape_b));
        }
        hits += (int)nh;
        hash = hash_hits(hash, h, nh);
    }
    printf("300 steps of 40 boxes: %d begin, %d end, %d hit events; %d pairs touching at the end\n", begins, ends, hits,
           events.count);
    printf("brute force over every pair and step: %ld had to touch, %ld could not, %ld in between\n", counts.must,
           counts.must_not, counts.between);
    TEST_ENSURE(begins > 40 && ends > 0 && hits > 40);
    TEST_ENSURE(counts.must > 1000 && counts.must_not > 100000);
    spx_world_destroy(w);
    *out_hash = hash;
    return 0;
}

/* The same scene twice: the same events, in the same order, with the same numbers. */
static int events_equal_contacts(void)
{
    uint64_t one = 0, two = 0;
    if (contact_scene(&one) != 0 || contact_scene(&two) != 0) return 1;
    printf("event hashes %016llx %016llx\n", (unsigned long long)one, (unsigned long long)two);
    TEST_ENSURE(one == two);
    return 0;
}

/* Bodies of two boxes (and a sphere) falling on a floor: each step's begin and end events turn the
   last step's touching shape pairs into this step's, though a body pair keeps touching while one of
   its shape pairs parts and another begins. */
static int compound_events_follow_contacts(void)
{
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    spx_body_id bodies[21];
    bodies[0] = test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20));
    uint32_t seed = 4242;
    for (int i = 1; i <= 20; ++i) {
        spx_shape_def s[3] = { spx_default_shape_def(), spx_default_shape_def(), spx_default_shape_def() };
        s[0].half_extents = spx_v3(0.5f, 0.15f, 0.2f);
        s[1].half_extents = spx_v3(0.15f, 0.4f, 0.2f);
        s[1].local.p = spx_v3(0.35f, 0.55f, 0.0f);
        s[2].type = SPX_SHAPE_SPHERE;
        s[2].radius = 0.2f;
        s[2].local.p = spx_v3(-0.4f, 0.3f, 0.0f);
        spx_body_def d = spx_default_body_def();
        d.type = SPX_BODY_DYNAMIC;
        d.position = test_lcg_vec3(&seed, spx_v3(-2, 1, -2), spx_v3(2, 8, 2));
        d.rotation = test_lcg_rotation(&seed);
        d.angular_velocity = test_lcg_vec3(&seed, spx_v3(-3, -3, -3), spx_v3(3, 3, 3));
        d.shapes = s;
        d.shape_count = 3;
        TEST_ENSURE(spx_body_create(w, &d, &bodies[i]) == SPX_OK);
    }
    static pair_set events, now;
    events.count = 0;
    int begins = 0, ends = 0;
    for (int step = 0; step < 240; ++step) {
        const spx_contact_event *b, *e;
        uint32_t nb, ne;
        TEST_ENSURE(step_following(w, bodies, 21, &events, &now, &b, &nb, &e, &ne) == 0);
        begins += (int)nb, ends += (int)ne;
    }
    printf("240 steps of 20 three-shape bodies: %d begin, %d end events; %d shape pairs touching at the end\n", begins,
           ends, events.count);
    TEST_ENSURE(begins > 40 && ends > 0);
    spx_world_destroy(w);
    return 0;
}

/* A box dropped flat from 5 m: one hit, on the ground pair, at the speed of the fall (the drop of
   its bottom, 4.5 m, less the speculative distance it is found at: sqrt(2 g 4.5) = 9.4 m/s within a
   step's gravity), normal up; its begin event's approach speed likewise. Resting, the normal
   impulses of its four points times the substeps carry its weight for a step. */
static int hit_speed_and_resting_impulse(void)
{
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    spx_body_id g = test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20));
    spx_body_id b = test_add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 5, 0), spx_v3(0.5f, 0.5f, 0.5f));
    const float expected = sqrtf(2.0f * 9.81f * 4.5f);
    int hits = 0, begins = 0;
    for (int step = 0; step < 120; ++step) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        const spx_contact_hit_event* h;
        uint32_t nh;
        spx_world_get_hit_events(w, &h, &nh);
        for (uint32_t i = 0; i < nh; ++i) {
            TEST_ENSURE(h[i].a.index == g.index && h[i].b.index == b.index);
            TEST_ENSURE_NEAR(h[i].speed, expected, 9.81f * dt + 0.05f);
            TEST_ENSURE_NEAR(h[i].normal.y, 1.0f, 1e-5f);
            TEST_ENSURE(fabsf(h[i].point.y) < 0.05f && fabsf(h[i].point.x) <= 0.51f);
            ++hits;
        }
        const spx_contact_event* e;
        uint32_t nb;
        spx_world_get_contact_events(w, &e, &nb, NULL, NULL);
        for (uint32_t i = 0; i < nb; ++i) {
            TEST_ENSURE_NEAR(e[i].approach_speed, expected, 9.81f * dt + 0.05f);
            ++begins;
        }
    }
    TEST_ENSURE(hits == 1 && begins == 1);
    spx_contact_data c[2];
    uint32_t n = 0;
    TEST_ENSURE_CODE(spx_body_get_contacts(w, b, c, 2, &n), SPX_OK);
    TEST_ENSURE(n == 1 && c[0].point_count == 4 && c[0].enabled);
    float impulse = 0.0f, mass = 0.0f, friction[2] = { 0, 0 };
    for (uint32_t k = 0; k < 4; ++k) {
        impulse += c[0].points[k].normal_impulse;
        friction[0] += c[0].points[k].friction_impulse[0], friction[1] += c[0].points[k].friction_impulse[1];
        TEST_ENSURE(fabsf(c[0].points[k].point.y) < 0.01f);
    }
    /* No net sideways push on a box at rest (its points may twist against each other). */
    TEST_ENSURE(fabsf(friction[0]) < 1e-3f * impulse && fabsf(friction[1]) < 1e-3f * impulse);
    spx_body_get_mass(w, b, &mass);
    TEST_ENSURE_NEAR(impulse * (float)wd.substeps, mass * 9.81f * dt, 0.02f * mass * 9.81f * dt);
    /* The ground lists the same manifold; bad input gets its codes. */
    TEST_ENSURE_CODE(spx_body_get_contacts(w, g, NULL, 0, &n), SPX_OK);
    TEST_ENSURE(n == 1);
    TEST_ENSURE_CODE(spx_body_get_contacts(w, g, NULL, 1, &n), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_body_get_contacts(w, g, c, 2, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_world_get_hit_events(w, NULL, &n), SPX_ERR_INVALID_ARGUMENT);
    spx_body_destroy(w, b);
    TEST_ENSURE_CODE(spx_body_get_contacts(w, b, c, 2, &n), SPX_ERR_STALE_ID);
    spx_world_destroy(w);
    return 0;
}

/* One-way platform: the pre-solve callback switches off a platform manifold whose normal points
   down (the box below it). A box thrown up from under a thin platform passes through it, then lands
   and rests on it; without the callback it stays under it. Two runs give the same floats. */
static int run_platform(bool with_callback, spx_transform* out, int* disabled)
{
    test_one_way o = { .min_up = 0.5f };
    spx_world_def wd = spx_default_world_def();
    if (with_callback) wd.pre_solve = test_one_way_pre_solve, wd.pre_solve_context = &o;
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20));
    const spx_body_id platform = test_add_box(w, SPX_BODY_STATIC, spx_v3(0, 2.5f, 0), spx_v3(3, 0.1f, 3));
    TEST_ENSURE_CODE(spx_body_get_shape(w, platform, 0, &o.platform), SPX_OK);
    spx_body_id b = test_add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE_CODE(spx_body_set_velocity(w, b, spx_v3(0, 9, 0), spx_v3(0, 0, 0)), SPX_OK);
    for (int step = 0; step < 180; ++step) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        /* A disabled manifold is listed, marked off, for the step it was off. */
        spx_contact_data c[4];
        uint32_t n;
        spx_body_get_contacts(w, b, c, 4, &n);
        for (uint32_t k = 0; k < n; ++k)
            if (c[k].a.index == platform.index) TEST_ENSURE(c[k].enabled == (c[k].normal.y > 0.5f) || !with_callback);
    }
    spx_body_get_transform(w, b, out);
    *disabled = (int)o.refused;
    if (with_callback) TEST_ENSURE(o.asked > 0);
    spx_world_destroy(w);
    return 0;
}

static int one_way_platform(void)
{
    spx_transform t[3];
    int disabled[3];
    TEST_ENSURE(run_platform(true, &t[0], &disabled[0]) == 0);
    TEST_ENSURE(run_platform(true, &t[1], &disabled[1]) == 0);
    TEST_ENSURE(run_platform(false, &t[2], &disabled[2]) == 0);
    printf("one-way platform: box at y %.4f (%d manifolds switched off); without the callback at y %.4f\n",
           (double)t[0].p.y, disabled[0], (double)t[2].p.y);
    TEST_ENSURE(disabled[0] > 0);
    TEST_ENSURE_NEAR(t[0].p.y, 2.6f + 0.5f, 0.01f); /* on the platform */
    TEST_ENSURE(t[2].p.y < 2.0f);                   /* under it */
    TEST_ENSURE(memcmp(&t[0], &t[1], sizeof t[0]) == 0);
    return 0;
}

/* Body events: every awake body moves each step and is listed with its pose; a box that falls
   asleep is listed once with fell_asleep and a sleep event; woken by the host it gets a wake event
   at the next step; a static body never appears. */
static int body_move_and_sleep_events(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    static int tag;
    test_add_box(w, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(20, 1, 20));
    spx_body_id b = test_add_box(w, SPX_BODY_DYNAMIC, spx_v3(0, 0.5f, 0), spx_v3(0.5f, 0.5f, 0.5f));
    spx_body_set_user_data(w, b, &tag);
    int asleep_at = -1, fell = 0, sleeps = 0;
    for (int step = 0; step < 200; ++step) {
        TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
        const spx_body_move_event* m;
        const spx_body_sleep_event* s;
        uint32_t nm, ns;
        TEST_ENSURE_CODE(spx_world_get_body_events(w, &m, &nm, &s, &ns), SPX_OK);
        bool awake;
        spx_body_is_awake(w, b, &awake);
        if (asleep_at < 0 || step == asleep_at) {
            TEST_ENSURE(nm == 1 && m[0].body.index == b.index && m[0].user_data == &tag);
            spx_transform t;
            spx_body_get_transform(w, b, &t);
            TEST_ENSURE(memcmp(&t, &m[0].transform, sizeof t) == 0);
            TEST_ENSURE(m[0].fell_asleep == !awake);
            fell += m[0].fell_asleep;
        } else {
            TEST_ENSURE(nm == 0);
        }
        for (uint32_t i = 0; i < ns; ++i) {
            TEST_ENSURE(s[i].body.index == b.index && !s[i].awake);
            ++sleeps;
        }
        if (!awake && asleep_at < 0) asleep_at = step;
    }
    TEST_ENSURE(asleep_at > 0 && fell == 1 && sleeps == 1);
    TEST_ENSURE_CODE(spx_body_set_awake(w, b, true), SPX_OK);
    TEST_ENSURE(spx_world_step(w, dt) == SPX_OK);
    const spx_body_sleep_event* s;
    uint32_t nm, ns;
    TEST_ENSURE_CODE(spx_world_get_body_events(w, NULL, &nm, &s, &ns), SPX_OK);
    TEST_ENSURE(nm == 1 && ns == 1 && s[0].awake);
    TEST_ENSURE_CODE(spx_world_get_body_events(NULL, NULL, &nm, &s, &ns), SPX_ERR_INVALID_ARGUMENT);
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(events_equal_contacts, failures);
    TEST_RUN(compound_events_follow_contacts, failures);
    TEST_RUN(hit_speed_and_resting_impulse, failures);
    TEST_RUN(one_way_platform, failures);
    TEST_RUN(body_move_and_sleep_events, failures);
    return failures ? 1 : 0;
}
