/* The shape API: ids, create and destroy (the body's mass remade), material, user data. */
#include "shape.h"
#include "id_getter.h"
#include "island.h"
#include "core/allocator.h"
#include <math.h>
#include <string.h>

spx_result spx_shape_slots_reserve(spx_world* w, uint32_t count)
{
    uint32_t free_count = 0;
    for (uint32_t s = w->shape_free_list; s != SPX_NO_BODY && free_count < count; s = w->shape_slots[s].next_free)
        ++free_count;
    const uint64_t need = (uint64_t)w->shape_slots_used + (count - free_count);
    if (need >= SPX_NO_BODY) return SPX_ERR_OUT_OF_MEMORY;
    return spx_reserve(&w->allocator, (void**)&w->shape_slots, &w->shape_slot_capacity, (uint32_t)need,
                       sizeof(spx_shape_slot), 8)
               ? SPX_OK
               : SPX_ERR_OUT_OF_MEMORY;
}

uint32_t spx_shape_slot_take(spx_world* w, uint32_t body, uint32_t index)
{
    uint32_t s = w->shape_free_list;
    if (s != SPX_NO_BODY) w->shape_free_list = w->shape_slots[s].next_free;
    else {
        s = w->shape_slots_used++;
        w->shape_slots[s].generation = 0;
    }
    spx_shape_slot* slot = &w->shape_slots[s];
    slot->body = body;
    slot->index = index;
    slot->next_free = SPX_NO_BODY;
    /* 1..65535 and round again, as body generations. */
    slot->generation = (uint16_t)(slot->generation % 0xFFFFu + 1u);
    return s;
}

void spx_shape_slot_release(spx_world* w, uint32_t s)
{
    w->shape_slots[s].body = SPX_NO_BODY;
    w->shape_slots[s].next_free = w->shape_free_list;
    w->shape_free_list = s;
}

uint32_t spx_shape_lookup(const spx_world* w, spx_shape_id id)
{
    if (!w || id.world != w->number || id.index == 0 || id.index > w->shape_slots_used) return SPX_NO_BODY;
    const spx_shape_slot* s = &w->shape_slots[id.index - 1];
    return s->body != SPX_NO_BODY && s->generation == id.generation ? id.index - 1 : SPX_NO_BODY;
}

/* Wakes what touches body i (a support may have come or gone) and the body itself. */
static void wake_around(spx_world* w, uint32_t i)
{
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (c->body_a == i && w->bodies[c->body_b].type == SPX_BODY_DYNAMIC) spx_island_wake(w, c->body_b);
        if (c->body_b == i && w->bodies[c->body_a].type == SPX_BODY_DYNAMIC) spx_island_wake(w, c->body_a);
    }
    if (w->bodies[i].type == SPX_BODY_DYNAMIC) spx_island_wake(w, i);
}

/* Replaces body i's shapes, remade on a copy then committed; the old array is freed, not what its
   shapes own (moved into `shapes`). On error nothing changes and the caller frees `shapes`. */
static spx_result replace_shapes(spx_world* w, uint32_t i, spx_body_shape* shapes, uint32_t count)
{
    spx_body copy = w->bodies[i];
    copy.shapes = shapes;
    copy.shape_count = count;
    spx_result r = spx_body_update_mass(&copy);
    if (r != SPX_OK) return r;
    spx_body_set_radii(&copy);
    /* The origin stays; the centre of mass moves with the mass. */
    copy.center = glms_vec3_add(copy.origin, glms_quat_rotatev(copy.rotation, copy.local_center));
    spx_body_update_boxes(&copy);
    if ((r = spx_world_track_body(w, i, &copy)) != SPX_OK) return r;
    spx_body* b = &w->bodies[i];
    spx_free(&w->allocator, b->shapes, sizeof(spx_body_shape) * (size_t)b->shape_count);
    *b = copy;
    spx_body_count_shapes(w, b);
    spx_contacts_forget_body(w, i);
    return SPX_OK;
}

SPX_API spx_result spx_shape_create(spx_world* w, spx_body_id body, const spx_shape_def* def, spx_shape_id* out)
{
    if (!w || !def || !out) return SPX_ERR_INVALID_ARGUMENT;
    const uint32_t i = spx_body_lookup(w, body);
    if (i == SPX_NO_BODY) return SPX_ERR_STALE_ID;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    spx_body* b = &w->bodies[i];
    if (b->shape_count >= SPX_MAX_BODY_SHAPES) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_shape_check_def(def, b->type);
    if (r != SPX_OK) return r;
    if ((r = spx_shape_slots_reserve(w, 1)) != SPX_OK) return r;
    const uint32_t count = b->shape_count + 1;
    spx_body_shape* shapes = spx_alloc(&w->allocator, sizeof(spx_body_shape) * count, 16);
    if (!shapes) return SPX_ERR_OUT_OF_MEMORY;
    memcpy(shapes, b->shapes, sizeof(spx_body_shape) * b->shape_count);
    spx_body_shape* s = &shapes[count - 1];
    spx_body_shape_init(s, def, b->friction, b->restitution);
    if ((r = spx_body_make_instance(w, s)) != SPX_OK || (r = replace_shapes(w, i, shapes, count)) != SPX_OK) {
        if (s->instance) spx_mesh_instance_destroy(s->instance);
        spx_free(&w->allocator, shapes, sizeof(spx_body_shape) * count);
        return r;
    }
    b = &w->bodies[i];
    b->shapes[count - 1].slot = spx_shape_slot_take(w, i, count - 1);
    wake_around(w, i);
    *out = spx_world_shape_id(w, i, count - 1);
    return SPX_OK;
}

SPX_API spx_result spx_shape_destroy(spx_world* w, spx_shape_id id)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    const uint32_t slot = spx_shape_lookup(w, id);
    if (slot == SPX_NO_BODY) return SPX_ERR_STALE_ID;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    const uint32_t i = w->shape_slots[slot].body, k = w->shape_slots[slot].index;
    spx_body* b = &w->bodies[i];
    if (b->shape_count == 1) return SPX_ERR_INVALID_ARGUMENT;
    const uint32_t count = b->shape_count - 1;
    spx_body_shape* shapes = spx_alloc(&w->allocator, sizeof(spx_body_shape) * count, 16);
    if (!shapes) return SPX_ERR_OUT_OF_MEMORY;
    memcpy(shapes, b->shapes, sizeof(spx_body_shape) * k);
    memcpy(shapes + k, b->shapes + k + 1, sizeof(spx_body_shape) * (count - k));
    spx_body_shape gone = b->shapes[k];
    /* Failing steps first (mass, then contacts, which need the old indices); the new box cannot fail. */
    spx_body copy = *b;
    copy.shapes = shapes, copy.shape_count = count;
    spx_result r = spx_body_update_mass(&copy);
    if (r == SPX_OK) {
        wake_around(w, i);
        r = spx_contacts_remove_shape(w, i, k);
    }
    if (r == SPX_OK) r = replace_shapes(w, i, shapes, count);
    if (r != SPX_OK) {
        spx_free(&w->allocator, shapes, sizeof(spx_body_shape) * count);
        return r;
    }
    if (gone.instance) spx_mesh_instance_destroy(gone.instance);
    spx_shape_slot_release(w, slot);
    for (uint32_t j = k; j < count; ++j) w->shape_slots[w->bodies[i].shapes[j].slot].index = j;
    return SPX_OK;
}

#define SHAPE(w, id, slot)                             \
    if (!(w)) return SPX_ERR_INVALID_ARGUMENT;         \
    const uint32_t slot = spx_shape_lookup((w), (id)); \
    if (slot == SPX_NO_BODY) return SPX_ERR_STALE_ID

/* SHAPE for a call that changes the shape: refused inside a step's callbacks. */
#define CHANGE(w, id, slot) \
    SHAPE(w, id, slot);     \
    if ((w)->locked) return SPX_ERR_WORLD_LOCKED

static spx_body_shape* shape_of(const spx_world* w, uint32_t slot)
{
    const spx_shape_slot* s = &w->shape_slots[slot];
    return &w->bodies[s->body].shapes[s->index];
}

#define SHAPE_GETTER(function, out_type, value) \
    SPX_ID_GETTER(function, spx_shape_id, spx_shape_lookup, SPX_NO_BODY, out_type, value)

SPX_API bool spx_shape_is_valid(const spx_world* w, spx_shape_id id) { return spx_shape_lookup(w, id) != SPX_NO_BODY; }

SHAPE_GETTER(spx_shape_get_body, spx_body_id, spx_world_body_id(w, w->shape_slots[slot].body))
SHAPE_GETTER(spx_shape_get_index, uint32_t, w->shape_slots[slot].index)
SHAPE_GETTER(spx_shape_get_type, spx_shape_type, shape_of(w, slot)->type)
SHAPE_GETTER(spx_shape_is_sensor, bool, shape_of(w, slot)->sensor)
SHAPE_GETTER(spx_shape_get_user_data, void*, shape_of(w, slot)->user_data)

SPX_API spx_result spx_shape_set_user_data(spx_world* w, spx_shape_id id, void* user_data)
{
    SHAPE(w, id, slot);
    shape_of(w, slot)->user_data = user_data;
    return SPX_OK;
}

SPX_API spx_result spx_shape_get_material(const spx_world* w, spx_shape_id id, float* out_friction,
                                          float* out_restitution)
{
    SHAPE(w, id, slot);
    const spx_body_shape* s = shape_of(w, slot);
    if (out_friction) *out_friction = s->friction;
    if (out_restitution) *out_restitution = s->restitution;
    return SPX_OK;
}

SPX_API spx_result spx_shape_set_material(spx_world* w, spx_shape_id id, float friction, float restitution)
{
    CHANGE(w, id, slot);
    const spx_result r = spx_material_check(friction, restitution);
    if (r != SPX_OK) return r;
    spx_body_shape* s = shape_of(w, slot);
    s->friction = friction;
    s->restitution = restitution;
    return SPX_OK;
}

SHAPE_GETTER(spx_shape_get_filter, spx_filter, shape_of(w, slot)->filter)

SPX_API spx_result spx_shape_set_filter(spx_world* w, spx_shape_id id, spx_filter filter)
{
    CHANGE(w, id, slot);
    const uint32_t i = w->shape_slots[slot].body, k = w->shape_slots[slot].index;
    spx_body_shape* s = shape_of(w, slot);
    const spx_filter before = s->filter;
    /* Woken before the forbidden manifolds go: waking follows manifolds, and they are support. */
    wake_around(w, i);
    s->filter = filter;
    spx_result r = spx_contacts_refilter_shape(w, i, k);
    if (r != SPX_OK) {
        s->filter = before;
        return r;
    }
    spx_body_count_shapes(w, &w->bodies[i]);
    return SPX_OK;
}

SPX_API spx_result spx_shape_set_sensor(spx_world* w, spx_shape_id id, bool sensor)
{
    CHANGE(w, id, slot);
    const uint32_t i = w->shape_slots[slot].body, k = w->shape_slots[slot].index;
    spx_body_shape* s = shape_of(w, slot);
    if (s->sensor == sensor) return SPX_OK;
    /* Woken before its manifolds go, so what touches it meets it anew next step. */
    wake_around(w, i);
    spx_sensors_wake_visitors(w, slot);
    s->sensor = sensor;
    /* A sensor makes no contact: its manifolds go now, as a filter's that forbids them. */
    spx_result r = spx_contacts_refilter_shape(w, i, k);
    if (r != SPX_OK) {
        s->sensor = !sensor;
        return r;
    }
    spx_body_count_shapes(w, &w->bodies[i]);
    return SPX_OK;
}

/* The shapes of the body in slot i, in the body's order. */
static uint32_t fill_shapes(const spx_world* w, uint32_t i, void* out, uint32_t capacity)
{
    spx_shape_id* ids = out;
    const uint32_t n = w->bodies[i].shape_count;
    for (uint32_t k = 0; k < n && k < capacity; ++k) ids[k] = spx_world_shape_id(w, i, k);
    return n;
}

SPX_API spx_result spx_body_get_shapes(const spx_world* w, spx_body_id body, spx_shape_id* out, uint32_t capacity,
                                       uint32_t* out_count)
{
    return spx_body_list(w, body, out, capacity, out_count, fill_shapes);
}

SPX_API spx_result spx_body_get_shape(const spx_world* w, spx_body_id body, uint32_t index, spx_shape_id* out)
{
    if (!w || !out) return SPX_ERR_INVALID_ARGUMENT;
    const uint32_t i = spx_body_lookup(w, body);
    if (i == SPX_NO_BODY) return SPX_ERR_STALE_ID;
    if (index >= w->bodies[i].shape_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = spx_world_shape_id(w, i, index);
    return SPX_OK;
}
