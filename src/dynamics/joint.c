/* Joints' API and bookkeeping: generational slots, and per body a singly linked list through
 * joint.next[k] (a body has few joints, so unlinking walks it). See docs/joints.md. */
#include "world.h"
#include "math/glm_bridge.h"
#include "joint.h"
#include "id_getter.h"
#include "island.h"
#include "core/allocator.h"
#include "geometry/validate.h"
#include <float.h>
#include <math.h>
#include <string.h>

SPX_API spx_joint_def spx_default_joint_def(spx_joint_type type)
{
    spx_joint_def d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.frame_a.q.w = d.frame_b.q.w = 1.0f;
    d.length = 1.0f;
    d.max_length = 1.0f;
    d.spring.damping_ratio = 0.7f;
    d.break_force = d.break_torque = FLT_MAX;
    switch (type) {
    case SPX_JOINT_CONE_TWIST:
        d.swing_limit = 0.25f * 3.14159265f;
        d.limit = (spx_joint_limit){ true, -0.25f * 3.14159265f, 0.25f * 3.14159265f };
        break;
    case SPX_JOINT_WHEEL:
        d.spring = (spx_joint_spring){ true, 4.0f, 0.7f };
        break;
    case SPX_JOINT_DRAG:
        d.spring = (spx_joint_spring){ true, 5.0f, 0.7f };
        d.max_force = 1000.0f;
        break;
    default:
        break;
    }
    d.internal_cookie = SPX_JOINT_DEF_COOKIE;
    return d;
}

/* Index of a live body of this world, SPX_NO_BODY for the null id; false for a stale one. */
static bool body_slot(const spx_world* w, spx_body_id id, uint32_t* out)
{
    if (id.index == 0 && id.world == 0 && id.generation == 0) {
        *out = SPX_NO_BODY;
        return true;
    }
    if (id.world != w->number || id.index == 0 || id.index > w->body_slots) return false;
    const spx_body* b = &w->bodies[id.index - 1];
    if (!b->alive || b->generation != id.generation) return false;
    *out = id.index - 1;
    return true;
}

static uint32_t joint_slot(const spx_world* w, spx_joint_id id)
{
    if (!w || id.world != w->number || id.index == 0 || id.index > w->joints.slots) return SPX_NO_JOINT;
    const spx_joint* j = &w->joints.list[id.index - 1];
    return j->alive && j->generation == id.generation ? id.index - 1 : SPX_NO_JOINT;
}

static bool finite_transform(spx_transform t)
{
    return spx_finite3(t.p) && isfinite(t.q.x) && isfinite(t.q.y) && isfinite(t.q.z) && isfinite(t.q.w);
}

static bool unit_quat(spx_quat q)
{
    const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return fabsf(n - 1.0f) <= 2.0f * SPX_ROTATION_TOLERANCE;
}

/* Checks of the parameters the setters share: NOT_FINITE, then BAD_JOINT. */
static spx_result check_limit(spx_joint_limit l)
{
    if (!isfinite(l.lower) || !isfinite(l.upper)) return SPX_ERR_NOT_FINITE;
    return l.enable && !(l.lower <= l.upper) ? SPX_ERR_BAD_JOINT : SPX_OK;
}

static spx_result check_motor(spx_joint_motor m)
{
    if (!isfinite(m.speed) || !isfinite(m.max_force)) return SPX_ERR_NOT_FINITE;
    return m.max_force < 0.0f ? SPX_ERR_BAD_JOINT : SPX_OK;
}

static spx_result check_spring(spx_joint_spring s)
{
    if (!isfinite(s.hertz) || !isfinite(s.damping_ratio)) return SPX_ERR_NOT_FINITE;
    return s.hertz < 0.0f || s.damping_ratio < 0.0f ? SPX_ERR_BAD_JOINT : SPX_OK;
}

/* The first fault of d in the documented order, after the ids. */
static spx_result check_def(const spx_joint_def* d)
{
    const float f[] = { d->length,   d->min_length, d->max_length,  d->swing_limit,
                        d->steering, d->max_force,  d->break_force, d->break_torque };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
        if (!isfinite(f[i])) return SPX_ERR_NOT_FINITE;
    if (!finite_transform(d->frame_a) || !finite_transform(d->frame_b) || !spx_finite3(d->target))
        return SPX_ERR_NOT_FINITE;
    spx_result r;
    if ((r = check_limit(d->limit)) == SPX_ERR_NOT_FINITE || (r = check_motor(d->motor)) == SPX_ERR_NOT_FINITE ||
        (r = check_spring(d->spring)) == SPX_ERR_NOT_FINITE)
        return r;
    if (!spx_in_range3(d->frame_a.p) || !spx_in_range3(d->frame_b.p) || !spx_in_range3(d->target))
        return SPX_ERR_OUT_OF_RANGE;
    if (!unit_quat(d->frame_a.q) || !unit_quat(d->frame_b.q)) return SPX_ERR_NOT_ORTHONORMAL;
    if ((r = check_limit(d->limit)) != SPX_OK || (r = check_motor(d->motor)) != SPX_OK ||
        (r = check_spring(d->spring)) != SPX_OK)
        return r;
    if (d->break_force < 0.0f || d->break_torque < 0.0f) return SPX_ERR_BAD_JOINT;
    switch (d->type) {
    case SPX_JOINT_DISTANCE:
        if (!(d->length > 0.0f) || d->min_length < 0.0f || (d->limit.enable && !(d->min_length <= d->max_length)))
            return SPX_ERR_BAD_JOINT;
        break;
    case SPX_JOINT_CONE_TWIST:
        if (!(d->swing_limit >= 0.0f && d->swing_limit <= 3.14159265f)) return SPX_ERR_BAD_JOINT;
        break;
    case SPX_JOINT_DRAG:
        if (!(d->max_force > 0.0f)) return SPX_ERR_BAD_JOINT;
        break;
    default:
        break;
    }
    return SPX_OK;
}

static void wake(spx_world* w, uint32_t body)
{
    if (body != SPX_NO_BODY) spx_island_wake(w, body);
}

/* Room for one more joint and a list head for every body slot. */
static spx_result reserve(spx_world* w)
{
    spx_joints* js = &w->joints;
    const spx_allocator* a = &w->allocator;
    const uint32_t heads_before = js->body_head_capacity;
    if (!spx_reserve(a, (void**)&js->list, &js->capacity, js->slots + 1, sizeof(spx_joint), 16) ||
        !spx_reserve(a, (void**)&js->body_head, &js->body_head_capacity, w->body_capacity, sizeof(uint32_t), 8) ||
        !spx_reserve(a, (void**)&js->breaks, &js->break_capacity, js->capacity, sizeof(spx_joint_break_event), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    for (uint32_t i = heads_before; i < js->body_head_capacity; ++i) js->body_head[i] = SPX_NO_JOINT;
    return SPX_OK;
}

SPX_API spx_result spx_joint_create(spx_world* w, const spx_joint_def* d, spx_joint_id* out)
{
    if (!w || !d || !out || (unsigned)d->type >= SPX_JOINT_TYPE_COUNT) return SPX_ERR_INVALID_ARGUMENT;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    if (d->internal_cookie != SPX_JOINT_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    uint32_t a, b;
    if (!body_slot(w, d->body_a, &a) || !body_slot(w, d->body_b, &b) || b == SPX_NO_BODY) return SPX_ERR_STALE_ID;
    spx_result r = check_def(d);
    if (r != SPX_OK) return r;
    if (a == b || (d->type == SPX_JOINT_DRAG && a != SPX_NO_BODY)) return SPX_ERR_BAD_JOINT;
    const bool dyn_a = a != SPX_NO_BODY && w->bodies[a].type == SPX_BODY_DYNAMIC;
    if (!dyn_a && w->bodies[b].type != SPX_BODY_DYNAMIC) return SPX_ERR_BAD_JOINT;
    if ((r = reserve(w)) != SPX_OK) return r;

    spx_joints* js = &w->joints;
    const uint32_t slot = js->free_list != SPX_NO_JOINT ? js->free_list : js->slots;
    spx_joint* j = &js->list[slot];
    if (slot == js->free_list) js->free_list = j->next_free;
    else ++js->slots;
    const uint16_t generation = (uint16_t)(j->generation % 0xFFFFu + 1u);
    *j = (spx_joint){ .generation = generation,
                      .alive = true,
                      .type = d->type,
                      .collide_connected = d->collide_connected,
                      .body = { a, b },
                      .limit = d->limit,
                      .motor = d->motor,
                      .spring = d->spring,
                      .length = d->length,
                      .min_length = d->min_length,
                      .max_length = d->max_length,
                      .swing_limit = d->swing_limit,
                      .steering = d->steering,
                      .max_force = d->max_force,
                      .break_force = d->break_force,
                      .break_torque = d->break_torque,
                      .target = spx_to_glm_vec3(d->target),
                      .user_data = d->user_data };
    const spx_transform frames[2] = { d->frame_a, d->frame_b };
    for (int k = 0; k < 2; ++k) {
        /* Anchors are kept from the centre of mass, as the solver moves bodies about it. */
        const vec3s centre = j->body[k] == SPX_NO_BODY ? glms_vec3_zero() : w->bodies[j->body[k]].local_center;
        j->local_anchor[k] = glms_vec3_sub(spx_to_glm_vec3(frames[k].p), centre);
        j->local_frame[k] = glms_quat_normalize(spx_to_glm_quat(frames[k].q));
        if (j->body[k] == SPX_NO_BODY) {
            j->next[k] = SPX_NO_JOINT;
        } else {
            j->next[k] = js->body_head[j->body[k]];
            js->body_head[j->body[k]] = slot;
        }
    }
    ++js->count;
    js->turning_count += j->type == SPX_JOINT_HINGE || j->type == SPX_JOINT_CONE_TWIST;
    wake(w, a);
    wake(w, b);
    *out = (spx_joint_id){ slot + 1, w->number, generation };
    return SPX_OK;
}

/* Takes joint `slot` out of body `body`'s list. */
static void unlink_joint(spx_joints* js, uint32_t body, uint32_t slot)
{
    uint32_t* link = &js->body_head[body];
    while (*link != SPX_NO_JOINT) {
        spx_joint* j = &js->list[*link];
        const int end = j->body[0] == body ? 0 : 1;
        if (*link == slot) {
            *link = j->next[end];
            return;
        }
        link = &j->next[end];
    }
}

static void destroy_joint(spx_world* w, uint32_t slot)
{
    spx_joints* js = &w->joints;
    spx_joint* j = &js->list[slot];
    for (int k = 0; k < 2; ++k) {
        if (j->body[k] == SPX_NO_BODY) continue;
        unlink_joint(js, j->body[k], slot);
        wake(w, j->body[k]);
    }
    js->turning_count -= j->type == SPX_JOINT_HINGE || j->type == SPX_JOINT_CONE_TWIST;
    const uint16_t generation = j->generation;
    memset(j, 0, sizeof *j);
    j->generation = generation;
    j->next_free = js->free_list;
    js->free_list = slot;
    --js->count;
}

SPX_API spx_result spx_joint_destroy(spx_world* w, spx_joint_id id)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    const uint32_t slot = joint_slot(w, id);
    if (slot == SPX_NO_JOINT) return SPX_ERR_STALE_ID;
    destroy_joint(w, slot);
    return SPX_OK;
}

void spx_joints_remove_body(spx_world* w, uint32_t body)
{
    spx_joints* js = &w->joints;
    if (body >= js->body_head_capacity) return;
    while (js->body_head[body] != SPX_NO_JOINT) destroy_joint(w, js->body_head[body]);
}

static spx_body_id body_id(const spx_world* w, uint32_t slot)
{
    spx_body_id none = { 0, 0, 0 };
    return slot == SPX_NO_BODY ? none : spx_world_body_id(w, slot);
}

void spx_joints_break(spx_world* w, uint32_t slot, vec3s force, vec3s torque)
{
    spx_joints* js = &w->joints;
    const spx_joint* j = &js->list[slot];
    /* Room for every joint there is (reserve), so one event per broken joint always fits. */
    spx_joint_break_event* e = &js->breaks[js->break_count++];
    e->joint = (spx_joint_id){ slot + 1, w->number, j->generation };
    e->a = body_id(w, j->body[0]);
    e->b = body_id(w, j->body[1]);
    e->force = (spx_vec3){ force.x, force.y, force.z };
    e->torque = (spx_vec3){ torque.x, torque.y, torque.z };
    e->user_data = j->user_data;
    destroy_joint(w, slot);
}

SPX_API spx_result spx_world_get_joint_break_events(const spx_world* w, const spx_joint_break_event** out,
                                                    uint32_t* out_count)
{
    if (!w || !out || !out_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = w->joints.breaks;
    *out_count = w->joints.break_count;
    return SPX_OK;
}

SPX_API bool spx_joint_is_valid(const spx_world* w, spx_joint_id id) { return joint_slot(w, id) != SPX_NO_JOINT; }

#define LOOKUP(w, id, j)                                   \
    if (!(w)) return SPX_ERR_INVALID_ARGUMENT;             \
    const uint32_t j##_slot = joint_slot((w), (id));       \
    if (j##_slot == SPX_NO_JOINT) return SPX_ERR_STALE_ID; \
    spx_joint* j = &(w)->joints.list[j##_slot]

SPX_API spx_result spx_joint_get_bodies(const spx_world* w, spx_joint_id id, spx_joint_type* out_type,
                                        spx_body_id* out_a, spx_body_id* out_b)
{
    if (!out_type || !out_a || !out_b) return SPX_ERR_INVALID_ARGUMENT;
    LOOKUP(w, id, j);
    *out_type = j->type;
    *out_a = body_id(w, j->body[0]);
    *out_b = body_id(w, j->body[1]);
    return SPX_OK;
}

SPX_API spx_result spx_joint_get_reaction(const spx_world* w, spx_joint_id id, spx_vec3* out_force,
                                          spx_vec3* out_torque)
{
    if (!out_force || !out_torque) return SPX_ERR_INVALID_ARGUMENT;
    LOOKUP(w, id, j);
    *out_force = (spx_vec3){ j->reaction_force.x, j->reaction_force.y, j->reaction_force.z };
    *out_torque = (spx_vec3){ j->reaction_torque.x, j->reaction_torque.y, j->reaction_torque.z };
    return SPX_OK;
}

static void wake_joint(spx_world* w, const spx_joint* j)
{
    wake(w, j->body[0]);
    wake(w, j->body[1]);
}

#define CHANGE(w, id, j)                          \
    if (!(w)) return SPX_ERR_INVALID_ARGUMENT;    \
    if ((w)->locked) return SPX_ERR_WORLD_LOCKED; \
    LOOKUP(w, id, j)

/* A common part's setter: checked as at create, stored, bodies woken. */
#define PART_SETTER(function, part_type, part, check)                          \
    SPX_API spx_result function(spx_world* w, spx_joint_id id, part_type part) \
    {                                                                          \
        CHANGE(w, id, j);                                                      \
        const spx_result r = check(part);                                      \
        if (r != SPX_OK) return r;                                             \
        j->part = part;                                                        \
        wake_joint(w, j);                                                      \
        return SPX_OK;                                                         \
    }

PART_SETTER(spx_joint_set_motor, spx_joint_motor, motor, check_motor)
PART_SETTER(spx_joint_set_spring, spx_joint_spring, spring, check_spring)

SPX_API spx_result spx_joint_set_limit(spx_world* w, spx_joint_id id, spx_joint_limit limit)
{
    CHANGE(w, id, j);
    spx_result r = check_limit(limit);
    if (r != SPX_OK) return r;
    if (j->type == SPX_JOINT_DISTANCE && limit.enable && !(j->min_length <= j->max_length)) return SPX_ERR_BAD_JOINT;
    j->limit = limit;
    j->lower_impulse = j->upper_impulse = 0.0f;
    wake_joint(w, j);
    return SPX_OK;
}

SPX_API spx_result spx_joint_set_target(spx_world* w, spx_joint_id id, spx_vec3 target)
{
    CHANGE(w, id, j);
    if (!spx_finite3(target)) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(target)) return SPX_ERR_OUT_OF_RANGE;
    if (j->type != SPX_JOINT_DRAG) return SPX_ERR_BAD_JOINT;
    j->target = spx_to_glm_vec3(target);
    wake_joint(w, j);
    return SPX_OK;
}

SPX_API spx_result spx_joint_set_steering(spx_world* w, spx_joint_id id, float angle)
{
    CHANGE(w, id, j);
    if (!isfinite(angle)) return SPX_ERR_NOT_FINITE;
    if (j->type != SPX_JOINT_WHEEL) return SPX_ERR_BAD_JOINT;
    j->steering = angle;
    wake_joint(w, j);
    return SPX_OK;
}

SPX_ID_GETTER(spx_joint_get_user_data, spx_joint_id, joint_slot, SPX_NO_JOINT, void*, w->joints.list[slot].user_data)

SPX_API spx_result spx_joint_set_user_data(spx_world* w, spx_joint_id id, void* user_data)
{
    LOOKUP(w, id, j);
    j->user_data = user_data;
    return SPX_OK;
}

void spx_joints_free(spx_joints* js, const spx_allocator* a)
{
    spx_free(a, js->list, sizeof(spx_joint) * (size_t)js->capacity);
    spx_free(a, js->body_head, sizeof(uint32_t) * (size_t)js->body_head_capacity);
    spx_free(a, js->pairs, sizeof(spx_pair) * (size_t)js->pair_capacity);
    spx_free(a, js->active, sizeof(uint32_t) * (size_t)js->active_capacity);
    spx_free(a, js->breaks, sizeof(spx_joint_break_event) * (size_t)js->break_capacity);
    spx_free(a, js->movers, sizeof(uint32_t) * (size_t)js->mover_capacity);
    spx_free(a, js->turns, sizeof(versors) * (size_t)js->turn_capacity);
    if (js->kernels) spx_free(a, js->ball_blocks, js->kernels->block_size * (size_t)js->ball_block_capacity);
    spx_free(a, js->ball_order, sizeof(uint32_t) * (size_t)js->ball_order_capacity);
    spx_free(a, js->angular_blocks, js->angular_block_bytes * (size_t)js->angular_block_capacity);
    spx_free(a, js->angular_order, sizeof(uint32_t) * (size_t)js->angular_order_capacity);
    spx_free(a, js->color_used, sizeof(uint64_t) * (size_t)js->color_used_capacity);
    spx_free(a, js->rest, sizeof(uint32_t) * (size_t)js->rest_capacity);
}

static bool awake_dynamic(const spx_world* w, uint32_t body)
{
    if (body == SPX_NO_BODY) return false;
    const spx_body* b = &w->bodies[body];
    return b->type == SPX_BODY_DYNAMIC && spx_body_moves(b);
}

/* Awake and dynamic, or a kinematic body in motion: a still kinematic body lets its partner sleep. */
static bool moving(const spx_world* w, uint32_t body)
{
    if (body == SPX_NO_BODY) return false;
    const spx_body* b = &w->bodies[body];
    if (b->type == SPX_BODY_KINEMATIC) return glms_vec3_norm2(b->v) > 0.0f || glms_vec3_norm2(b->w) > 0.0f;
    return b->type == SPX_BODY_DYNAMIC && spx_body_moves(b);
}

/* A dynamic body asleep: the only kind spx_island_wake changes. */
static bool asleep(const spx_world* w, uint32_t body)
{
    return body != SPX_NO_BODY && w->bodies[body].type == SPX_BODY_DYNAMIC && !w->bodies[body].awake;
}

void spx_joints_wake_step(spx_world* w)
{
    spx_joints* js = &w->joints;
    js->break_count = 0;
    for (uint32_t k = 0; k < js->slots; ++k) {
        const spx_joint* j = &js->list[k];
        if (!j->alive) continue;
        /* Nothing to wake where neither body sleeps (every joint of an awake island). */
        const bool sleep0 = asleep(w, j->body[0]), sleep1 = asleep(w, j->body[1]);
        if (sleep1 && moving(w, j->body[0])) wake(w, j->body[1]);
        if (sleep0 && moving(w, j->body[1])) wake(w, j->body[0]);
    }
}

bool spx_joints_keep_apart(const spx_world* w, uint32_t a, uint32_t b)
{
    const spx_joints* js = &w->joints;
    if (a >= js->body_head_capacity) return false; /* made after the last joint: it has none */
    for (uint32_t k = js->body_head[a]; k != SPX_NO_JOINT;) {
        const spx_joint* j = &js->list[k];
        const int end = j->body[0] == a ? 0 : 1;
        if (j->body[1 - end] == b && !j->collide_connected) return true;
        k = j->next[end];
    }
    return false;
}

spx_result spx_joints_filter_pairs(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                                   uint32_t* out_count)
{
    spx_joints* js = &w->joints;
    *out = pairs, *out_count = n;
    if (js->count == 0) return SPX_OK;
    uint32_t first = n;
    for (uint32_t i = 0; i < n && first == n; ++i)
        if (spx_joints_keep_apart(w, pairs[i].a, pairs[i].b)) first = i;
    if (first == n) return SPX_OK;
    if (!spx_reserve(&w->allocator, (void**)&js->pairs, &js->pair_capacity, n, sizeof(spx_pair), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    uint32_t kept = first;
    memcpy(js->pairs, pairs, sizeof(spx_pair) * first);
    for (uint32_t i = first + 1; i < n; ++i)
        if (!spx_joints_keep_apart(w, pairs[i].a, pairs[i].b)) js->pairs[kept++] = pairs[i];
    *out = js->pairs, *out_count = kept;
    return SPX_OK;
}

void spx_joints_link_islands(const spx_world* w, uint32_t* parent,
                             void (*unite)(uint32_t* parent, uint32_t a, uint32_t b))
{
    const spx_joints* js = &w->joints;
    for (uint32_t k = 0; k < js->slots; ++k) {
        const spx_joint* j = &js->list[k];
        if (j->alive && awake_dynamic(w, j->body[0]) && awake_dynamic(w, j->body[1]))
            unite(parent, j->body[0], j->body[1]);
    }
}
