/* The world: creation, the step's stages in order, statistics and events. */
#include "world.h"
#include "island.h"
#include "filter.h"
#include "query_index.h"
#include "solver.h"
#include "broad/swept_sphere.h"
#include "core/allocator.h"
#include "core/world_number.h"
#include "geometry/validate.h"
#include "math/glm_bridge.h"
#include <math.h>
#include <string.h>
#include <time.h>

SPX_API spx_world_def spx_default_world_def(void)
{
    spx_world_def def;
    memset(&def, 0, sizeof def);
    def.gravity = spx_v3(0.0f, -9.81f, 0.0f);
    def.substeps = 6;
    def.solve_iterations = 2;
    def.relax_iterations = 1;
    def.contact_hertz = 60.0f;
    def.contact_damping_ratio = 5.0f;
    def.max_stack_substeps = 48;
    def.max_push_speed = 3.0f;
    def.restitution_threshold = 1.0f;
    def.speculative_distance = 0.04f;
    def.enable_sleep = true;
    def.sleep_linear_speed = 0.05f;
    def.sleep_angular_speed = 0.05f;
    def.time_to_sleep = 0.5f;
    def.enable_continuous = true;
    def.continuous_max_impacts = 65536;
    def.simd = SPX_SIMD_AUTO;
    def.hit_event_threshold = 1.0f;
    def.internal_cookie = SPX_WORLD_DEF_COOKIE;
    return def;
}

static spx_result check_def(const spx_world_def* d)
{
    if (d->internal_cookie != SPX_WORLD_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    if (d->allocator && (!d->allocator->alloc || !d->allocator->free)) return SPX_ERR_INVALID_ARGUMENT;
    const float f[] = { d->contact_hertz,         d->contact_damping_ratio, d->max_push_speed,
                        d->restitution_threshold, d->speculative_distance,  d->sleep_linear_speed,
                        d->sleep_angular_speed,   d->time_to_sleep,         d->hit_event_threshold };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i) {
        if (!isfinite(f[i])) return SPX_ERR_NOT_FINITE;
        if (f[i] < 0.0f) return SPX_ERR_INVALID_ARGUMENT;
    }
    if (!spx_finite3(d->gravity)) return SPX_ERR_NOT_FINITE;
    if (d->substeps < 1 || d->substeps > 64 || d->max_stack_substeps > 64) return SPX_ERR_INVALID_ARGUMENT;
    if (d->solve_iterations < 1 || d->solve_iterations > 16 || d->relax_iterations > 16)
        return SPX_ERR_INVALID_ARGUMENT;
    if (d->body_capacity >= SPX_PAIR_FINDER_MAX_BODIES) return SPX_ERR_INVALID_ARGUMENT;
    if (d->simd != SPX_SIMD_AUTO && d->simd != SPX_SIMD_BASELINE) return SPX_ERR_INVALID_ARGUMENT;
    return SPX_OK;
}

SPX_API spx_result spx_world_create(const spx_world_def* def, spx_world** out)
{
    if (!def || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_def(def);
    if (r != SPX_OK) return r;
    spx_allocator a;
    memset(&a, 0, sizeof a);
    if (def->allocator) a = *def->allocator;
    spx_world* w = spx_alloc(&a, sizeof *w, 16);
    if (!w) return SPX_ERR_OUT_OF_MEMORY;
    memset(w, 0, sizeof *w);
    if (!spx_world_number_acquire(&w->number)) {
        spx_free(&a, w, sizeof *w);
        return SPX_ERR_TOO_MANY_WORLDS;
    }
    w->def = *def;
    w->def.allocator = NULL; /* the copy below is what the world uses */
    w->allocator = a;
    w->free_list = SPX_NO_BODY;
    w->shape_free_list = SPX_NO_BODY;
    w->joints.free_list = SPX_NO_JOINT;
    w->solver.kernels = spx_solver_pick(def->simd);
    r = spx_pair_finder_create(def->allocator ? &w->allocator : NULL, def->body_capacity, &w->pairs);
    if (r == SPX_OK && def->body_capacity > 0) r = spx_world_reserve_bodies(w, def->body_capacity);
    if (r == SPX_OK && def->contact_capacity > 0) {
        spx_contacts* c = &w->contacts;
        if (!spx_reserve(&a, (void**)&c->list, &c->capacity, def->contact_capacity, sizeof(spx_contact), 16) ||
            !spx_reserve(&a, (void**)&c->prev, &c->prev_capacity, def->contact_capacity, sizeof(spx_contact), 16))
            r = SPX_ERR_OUT_OF_MEMORY;
    }
    if (r != SPX_OK) {
        spx_world_destroy(w);
        return r;
    }
    *out = w;
    return SPX_OK;
}

SPX_API void spx_world_destroy(spx_world* w)
{
    if (!w) return;
    spx_allocator a = w->allocator;
    for (uint32_t i = 0; i < w->body_slots; ++i)
        if (w->bodies[i].alive) spx_body_free_shapes(&a, &w->bodies[i]);
    spx_free(&a, w->bodies, sizeof(spx_body) * (size_t)w->body_capacity);
    spx_free(&a, w->shape_slots, sizeof(spx_shape_slot) * (size_t)w->shape_slot_capacity);
    spx_free(&a, w->filtered_pairs, sizeof(spx_pair) * (size_t)w->filtered_pair_capacity);
    spx_sensors_free(&w->sensors, &a);
    spx_free(&a, w->moves, sizeof(spx_body_move_event) * (size_t)w->move_capacity);
    spx_free(&a, w->sleeps, sizeof(spx_body_sleep_event) * (size_t)w->sleep_capacity);
    spx_free(&a, w->island_parent, sizeof(uint32_t) * (size_t)w->scratch_capacity);
    spx_free(&a, w->island_min_sleep, sizeof(float) * (size_t)w->scratch_capacity);
    spx_free(&a, w->island_head, sizeof(uint32_t) * (size_t)w->scratch_capacity);
    spx_free(&a, w->quarantined, sizeof(spx_body_id) * (size_t)w->scratch_capacity);
    spx_solver_free(&w->solver, &a);
    spx_contacts_free(&w->contacts, &a);
    spx_continuous_free(&w->ccd, &a);
    spx_contact_limit_free(&w->contact_limit, &a);
    spx_joints_free(&w->joints, &a);
    spx_pair_finder_destroy(w->pairs);
    spx_query_index_destroy(w);
    spx_world_number_release(w->number);
    spx_free(&a, w, sizeof *w);
}

spx_result spx_world_reserve_bodies(spx_world* w, uint32_t count)
{
    if (count <= w->body_capacity && count <= w->scratch_capacity) return SPX_OK;
    uint64_t cap = (uint64_t)w->body_capacity * 2u;
    if (cap < count) cap = count;
    if (cap < 16) cap = 16;
    if (cap >= SPX_PAIR_FINDER_MAX_BODIES) cap = SPX_PAIR_FINDER_MAX_BODIES - 1;
    if (cap < count) return SPX_ERR_OUT_OF_MEMORY;
    const spx_allocator* a = &w->allocator;
    size_t n = (size_t)cap;
    /* Everything first, then commit: a failure changes nothing. */
    spx_body* bodies = spx_alloc(a, sizeof(spx_body) * n, 16);
    uint32_t* parent = spx_alloc(a, sizeof(uint32_t) * n, 8);
    float* least = spx_alloc(a, sizeof(float) * n, 8);
    uint32_t* head = spx_alloc(a, sizeof(uint32_t) * n, 8);
    spx_body_id* quarantined = spx_alloc(a, sizeof(spx_body_id) * n, 8);
    spx_result r = bodies && parent && least && head && quarantined
                       ? spx_pair_finder_reserve(w->pairs, (uint32_t)cap, 0)
                       : SPX_ERR_OUT_OF_MEMORY;
    if (r != SPX_OK) {
        spx_free(a, bodies, sizeof(spx_body) * n);
        spx_free(a, parent, sizeof(uint32_t) * n);
        spx_free(a, least, sizeof(float) * n);
        spx_free(a, head, sizeof(uint32_t) * n);
        spx_free(a, quarantined, sizeof(spx_body_id) * n);
        return r;
    }
    if (w->quarantined) memcpy(quarantined, w->quarantined, sizeof(spx_body_id) * (size_t)w->quarantined_count);
    memset(bodies, 0, sizeof(spx_body) * n);
    if (w->bodies) memcpy(bodies, w->bodies, sizeof(spx_body) * (size_t)w->body_slots);
    spx_free(a, w->bodies, sizeof(spx_body) * (size_t)w->body_capacity);
    spx_free(a, w->island_parent, sizeof(uint32_t) * (size_t)w->scratch_capacity);
    spx_free(a, w->island_min_sleep, sizeof(float) * (size_t)w->scratch_capacity);
    spx_free(a, w->island_head, sizeof(uint32_t) * (size_t)w->scratch_capacity);
    spx_free(a, w->quarantined, sizeof(spx_body_id) * (size_t)w->scratch_capacity);
    w->bodies = bodies;
    w->quarantined = quarantined;
    w->island_parent = parent;
    w->island_min_sleep = least;
    w->island_head = head;
    w->body_capacity = w->scratch_capacity = (uint32_t)cap;
    return SPX_OK;
}

/* World box of a static body's shapes (their corners' extremes). */
static spx_aabb shapes_box(const spx_body* b)
{
    spx_aabb box = { { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        spx_obb o = spx_body_shape_box(b, &b->shapes[i]);
        const float* c = &o.center.x;
        const float* h = &o.half_extents.x;
        for (int k = 0; k < 3; ++k) {
            /* Half width along world axis k: sum over the box's axes of h |axis component|. */
            float r = h[0] * fabsf((&o.rotation.col[0].x)[k]) + h[1] * fabsf((&o.rotation.col[1].x)[k]) +
                      h[2] * fabsf((&o.rotation.col[2].x)[k]);
            r = r * (1.0f + 4.0f * FLT_EPSILON) + 4.0f * FLT_EPSILON * fabsf(c[k]); /* outwards past rounding */
            if (c[k] - r < box.min[k]) box.min[k] = c[k] - r;
            if (c[k] + r > box.max[k]) box.max[k] = c[k] + r;
        }
    }
    return box;
}

static spx_aabb rest_box(const spx_world* w, const spx_body* b)
{
    if (b->type == SPX_BODY_STATIC) return shapes_box(b);
    spx_sphere s;
    spx_vec3 zero = { 0, 0, 0 }, c = { b->center.x, b->center.y, b->center.z };
    if (spx_swept_sphere(c, zero, zero, zero, b->radius, w->def.speculative_distance, 0.0f, &s) != SPX_OK) {
        s.center = c; /* a body gone non-finite: keep it out of everyone's way */
        s.radius = 0.0f;
    }
    return spx_sphere_aabb(&s);
}

spx_result spx_world_track_body(spx_world* w, uint32_t slot, const spx_body* b)
{
    spx_aabb box = rest_box(w, b);
    ++w->query_revision;
    return spx_pair_finder_set(w->pairs, slot, &box, b->type != SPX_BODY_STATIC && b->awake);
}

static double now_ms(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Every moving body's swept sphere into the broad phase. The sphere is swept with the velocity
   after gravity, and grown by the gravity's bend of the path (|g| dt^2 / 8 off the chord). */
static spx_result broad_phase(spx_world* w, float dt, spx_pair_update* out)
{
    const vec3s g = { { w->def.gravity.x, w->def.gravity.y, w->def.gravity.z } };
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        spx_body* b = &w->bodies[i];
        if (!spx_body_moves(b)) continue;
        spx_body_update_boxes(b); /* the narrow phase reads them once a pair, and a body has several */
        vec3s v = b->type == SPX_BODY_DYNAMIC ? glms_vec3_add(b->v, glms_vec3_scale(g, dt * b->gravity_scale)) : b->v;
        float bend =
            b->type == SPX_BODY_DYNAMIC ? glms_vec3_norm(g) * fabsf(b->gravity_scale) * dt * dt * 0.125f : 0.0f;
        spx_vec3 c = { b->center.x, b->center.y, b->center.z }, sv = { v.x, v.y, v.z }, zero = { 0, 0, 0 };
        spx_vec3 wv = { b->w.x, b->w.y, b->w.z };
        spx_sphere s;
        spx_aabb box;
        if (spx_continuous_is_fast(&w->ccd, i)) {
            box = rest_box(w, b); /* its motion is the continuous stage's (continuous.c) */
        } else if (spx_swept_sphere(c, sv, wv, zero, b->radius, w->def.speculative_distance + bend, dt, &s) == SPX_OK) {
            box = spx_sphere_aabb(&s);
        } else {
            box = rest_box(w, b); /* non-finite motion: the body stays where the broad phase last saw it */
        }
        spx_result r = spx_pair_finder_set(w->pairs, i, &box, true);
        if (r != SPX_OK) return r;
    }
    return spx_pair_finder_update(w->pairs, out);
}

static bool finite_vec(vec3s v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* Back to its step-start pose (boxes_origin, boxes_rotation), stopped, asleep alone, and without
   contacts, whose NaN impulses would warm-start its partners. */
static void quarantine(spx_world* w, uint32_t i)
{
    spx_body* b = &w->bodies[i];
    b->origin = b->boxes_origin;
    b->rotation = b->boxes_rotation;
    b->center = glms_vec3_add(b->origin, glms_quat_rotatev(b->rotation, b->local_center));
    b->v = b->w = glms_vec3_zero();
    b->sleep_time = 0.0f;
    b->awake = false;
    if (b->type == SPX_BODY_DYNAMIC) b->island_next = i; /* an island of one, as a body created asleep */
    if (spx_contacts_remove_body(w, i) != SPX_OK) {
        /* No room for the end events: the manifolds stay, without the NaN impulses, to be made
           again next step. */
        for (uint32_t k = 0; k < w->contacts.count; ++k) {
            spx_contact* c = &w->contacts.list[k];
            if (c->body_a != i && c->body_b != i) continue;
            for (int p = 0; p < c->point_count; ++p)
                c->points[p].normal_impulse = c->points[p].tangent_impulse[0] = c->points[p].tangent_impulse[1] = 0.0f;
        }
    }
    spx_world_track_body(w, i, b); /* cannot fail: the finder has room for every body */
    w->quarantined[w->quarantined_count++] = spx_world_body_id(w, i);
}

/* Last defence: non-finite bodies are quarantined, too-fast ones slowed, so nothing non-finite
   leaves the step. See docs/world.md#limits. */
static void guard_bodies(spx_world* w, spx_step_stats* st)
{
    w->quarantined_count = 0;
    const float vmax2 = SPX_MAX_LINEAR_SPEED * SPX_MAX_LINEAR_SPEED,
                wmax2 = SPX_MAX_ANGULAR_SPEED * SPX_MAX_ANGULAR_SPEED;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        spx_body* b = &w->bodies[i];
        if (!spx_body_moves(b)) continue;
        const bool finite = finite_vec(b->center) && finite_vec(b->origin) && finite_vec(b->v) && finite_vec(b->w) &&
                            isfinite(b->rotation.x) && isfinite(b->rotation.y) && isfinite(b->rotation.z) &&
                            isfinite(b->rotation.w);
        /* A speed's square can overflow a float from a finite speed: measured in double. */
        const double v2 = (double)b->v.x * b->v.x + (double)b->v.y * b->v.y + (double)b->v.z * b->v.z;
        const double w2 = (double)b->w.x * b->w.x + (double)b->w.y * b->w.y + (double)b->w.z * b->w.z;
        if (!finite) {
            quarantine(w, i);
            st->flags |= SPX_STEP_QUARANTINE;
        } else if (v2 > vmax2 || w2 > wmax2) {
            if (v2 > vmax2) b->v = glms_vec3_scale(b->v, (float)(SPX_MAX_LINEAR_SPEED / sqrt(v2)));
            if (w2 > wmax2) b->w = glms_vec3_scale(b->w, (float)(SPX_MAX_ANGULAR_SPEED / sqrt(w2)));
            st->flags |= SPX_STEP_SPEED_LIMIT;
        }
    }
    st->quarantined_body_count = w->quarantined_count;
}

/* The bodies the step moved, and those whose sleep changed since the last step, in body order. */
static void body_events(spx_world* w)
{
    w->move_count = w->sleep_count = 0;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        spx_body* b = &w->bodies[i];
        if (!b->alive || b->type == SPX_BODY_STATIC) continue;
        const spx_body_id id = spx_world_body_id(w, i);
        if (b->awake || b->was_awake) {
            spx_body_move_event* m = &w->moves[w->move_count++];
            m->body = id;
            m->transform.p = spx_v3(b->origin.x, b->origin.y, b->origin.z);
            m->transform.q = spx_from_glm_quat(b->rotation);
            m->user_data = b->user_data;
            m->fell_asleep = !b->awake;
        }
        if (b->awake != b->was_awake) {
            w->sleeps[w->sleep_count].body = id;
            w->sleeps[w->sleep_count++].awake = b->awake;
        }
        b->was_awake = b->awake;
    }
}

SPX_API spx_result spx_world_step(spx_world* w, float elapsed)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    if (!isfinite(elapsed)) return SPX_ERR_NOT_FINITE;
    if (elapsed < 0.0f) return SPX_ERR_BAD_TIME;
    w->locked = true;
    ++w->query_revision;
    spx_step_stats st;
    memset(&st, 0, sizeof st);
    double t0 = now_ms();
    spx_pair_update pairs;
    spx_joints_wake_step(w);
    spx_result r = w->def.enable_continuous ? spx_continuous_reserve(w) : SPX_OK;
    if (r == SPX_OK && (!spx_reserve(&w->allocator, (void**)&w->moves, &w->move_capacity, w->body_slots,
                                     sizeof(spx_body_move_event), 8) ||
                        !spx_reserve(&w->allocator, (void**)&w->sleeps, &w->sleep_capacity, w->body_slots,
                                     sizeof(spx_body_sleep_event), 8)))
        r = SPX_ERR_OUT_OF_MEMORY;
    if (r == SPX_OK) spx_continuous_prepare(w, elapsed); /* start poses, fast bodies */
    double tp = now_ms();
    if (r == SPX_OK) r = broad_phase(w, elapsed, &pairs);
    double t1 = now_ms();
    const spx_pair *colliding = NULL, *kept = NULL;
    uint32_t colliding_count = 0, kept_count = 0;
    bool limited = false;
    if (r == SPX_OK) r = spx_sensors_update(w, pairs.pairs, pairs.count);
    if (r == SPX_OK) r = spx_filter_pairs(w, pairs.pairs, pairs.count, &colliding, &colliding_count);
    if (r == SPX_OK) r = spx_joints_filter_pairs(w, colliding, colliding_count, &colliding, &colliding_count);
    if (r == SPX_OK) r = spx_contact_limit_apply(w, colliding, colliding_count, &kept, &kept_count, &limited);
    if (r == SPX_OK) r = spx_contacts_update(w, kept, kept_count, elapsed);
    double t2 = now_ms();
    if (r != SPX_OK) {
        w->locked = false;
        return r;
    }
    spx_contacts_report(w, elapsed); /* the host's pre_solve, hit events */
    spx_continuous_begin(w);         /* fast bodies' contact points off: the continuous stage has them */
    r = spx_solve(w, elapsed);
    if (r != SPX_OK) {
        w->locked = false;
        return r;
    }
    spx_sensors_commit(w);
    double t3a = now_ms();
    /* A search short of buffer is no step error: it retries next step (docs/continuous.md). */
    (void)spx_continuous_run(w, elapsed, &st);
    double t3 = now_ms();
    st.continuous_ms = (t3 - t3a) + (tp - t0);
    guard_bodies(w, &st);
    /* Bodies that fall asleep leave the broad phase's moving set there (island.c). */
    st.island_count = spx_islands_update(w, elapsed);
    body_events(w);
    double t4 = now_ms();
    st.body_count = w->body_count;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        st.awake_body_count += spx_body_moves(b);
    }
    st.pair_count = pairs.count;
    if (limited) st.flags |= SPX_STEP_CONTACT_LIMIT;
    st.manifold_count = w->contacts.count;
    st.reused_pair_count = w->contacts.reused;
    for (uint32_t k = 0; k < w->contacts.count; ++k)
        st.contact_point_count += (uint32_t)w->contacts.list[k].point_count;
    st.broad_ms = t1 - t0;
    st.narrow_ms = t2 - t1;
    st.solver_ms = t3a - t2;
    st.island_ms = t4 - t3;
    st.total_ms = t4 - t0;
    w->stats = st;
    w->locked = false;
    return SPX_OK;
}

SPX_API spx_result spx_world_get_stats(const spx_world* w, spx_step_stats* out)
{
    if (!w || !out) return SPX_ERR_INVALID_ARGUMENT;
    *out = w->stats;
    return SPX_OK;
}

SPX_API spx_result spx_world_get_body_events(const spx_world* w, const spx_body_move_event** out_moves,
                                             uint32_t* out_move_count, const spx_body_sleep_event** out_sleeps,
                                             uint32_t* out_sleep_count)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    if (out_moves) *out_moves = w->moves;
    if (out_move_count) *out_move_count = w->move_count;
    if (out_sleeps) *out_sleeps = w->sleeps;
    if (out_sleep_count) *out_sleep_count = w->sleep_count;
    return SPX_OK;
}

SPX_API spx_result spx_world_get_sensor_events(const spx_world* w, const spx_sensor_event** out_begin,
                                               uint32_t* out_begin_count, const spx_sensor_event** out_end,
                                               uint32_t* out_end_count)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    if (out_begin) *out_begin = w->sensors.begin;
    if (out_begin_count) *out_begin_count = w->sensors.begin_count;
    if (out_end) *out_end = w->sensors.end;
    if (out_end_count) *out_end_count = w->sensors.end_count;
    return SPX_OK;
}

SPX_API spx_result spx_world_get_quarantined(const spx_world* w, const spx_body_id** out, uint32_t* out_count)
{
    if (!w || !out || !out_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = w->quarantined;
    *out_count = w->quarantined_count;
    return SPX_OK;
}

SPX_API spx_result spx_world_get_contact_events(const spx_world* w, const spx_contact_event** out_begin,
                                                uint32_t* out_begin_count, const spx_contact_event** out_end,
                                                uint32_t* out_end_count)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    if (out_begin) *out_begin = w->contacts.begin;
    if (out_begin_count) *out_begin_count = w->contacts.begin_count;
    if (out_end) *out_end = w->contacts.end;
    if (out_end_count) *out_end_count = w->contacts.end_count;
    return SPX_OK;
}

SPX_API spx_result spx_world_get_kinetic_energy(const spx_world* w, double* out)
{
    if (!w || !out) return SPX_ERR_INVALID_ARGUMENT;
    double e = 0.0;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        if (!b->alive || b->type != SPX_BODY_DYNAMIC) continue;
        e += spx_body_kinetic_energy(b, b->rotation);
    }
    *out = e;
    return SPX_OK;
}
