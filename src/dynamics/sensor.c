/* Sensor overlaps by exact queries at the step's start, sorted by slots so the events' order
   depends on the input alone. See docs/world.md#sensors. */
#include "sensor.h"
#include "shape.h"
#include "filter.h"
#include "island.h"
#include "shape_pair.h"
#include "core/allocator.h"
#include <sepax/collide.h>
#include <sepax/mesh_query.h>
#include <stdlib.h>
#include <string.h>

/* Not a sensor, filters both ways, then the callback with the lower body first. */
static bool sees(const spx_world* w, uint32_t is, uint32_t ss, uint32_t iv, uint32_t vs)
{
    const spx_body_shape* s = &w->bodies[is].shapes[ss];
    const spx_body_shape* v = &w->bodies[iv].shapes[vs];
    if (v->sensor || !spx_filter_should_collide(s->filter, v->filter)) return false;
    if (!w->def.custom_filter) return true;
    const spx_shape_id a = spx_world_shape_id(w, is, ss), b = spx_world_shape_id(w, iv, vs);
    return is < iv ? w->def.custom_filter(a, b, w->def.custom_filter_context)
                   : w->def.custom_filter(b, a, w->def.custom_filter_context);
}

/* Do the two shapes overlap where their bodies are? A pose that is not finite overlaps nothing. */
static bool overlap(const spx_body* a, const spx_body_shape* sa, const spx_body* b, const spx_body_shape* sb)
{
    bool hit = false;
    spx_result r;
    if (spx_shape_pair_placed(sa, sb)) {
        const spx_placed_shape pa = { sa, spx_body_shape_box(a, sa), 0.0f },
                               pb = { sb, spx_body_shape_box(b, sb), 0.0f };
        if ((sa->type == SPX_SHAPE_MESH && !spx_body_pose_mesh(a, sa)) ||
            (sb->type == SPX_SHAPE_MESH && !spx_body_pose_mesh(b, sb)))
            return false;
        return spx_shape_pair_overlap(&pa, &pb);
    }
    if (sa->type == SPX_SHAPE_BOX && sb->type == SPX_SHAPE_BOX) {
        const spx_obb ba = spx_body_shape_box(a, sa), bb = spx_body_shape_box(b, sb);
        r = spx_overlap_obb_obb(&ba, &bb, &hit);
    } else if (sa->type == SPX_SHAPE_BOX || sb->type == SPX_SHAPE_BOX) {
        const bool a_box = sa->type == SPX_SHAPE_BOX;
        const spx_obb box = a_box ? spx_body_shape_box(a, sa) : spx_body_shape_box(b, sb);
        const spx_body_shape* mesh = a_box ? sb : sa;
        if (!spx_body_pose_mesh(a_box ? b : a, mesh)) return false;
        r = spx_overlap_obb_mesh(&box, mesh->instance, &hit);
    } else {
        if (!spx_body_pose_mesh(a, sa) || !spx_body_pose_mesh(b, sb)) return false;
        r = spx_overlap_mesh_mesh(sa->instance, sb->instance, &hit);
    }
    return r == SPX_OK && hit;
}

static spx_sensor_overlap make_overlap(const spx_world* w, uint32_t is, uint32_t ss, uint32_t iv, uint32_t vs)
{
    spx_sensor_overlap o;
    o.ids.sensor = spx_world_shape_id(w, is, ss);
    o.ids.visitor = spx_world_shape_id(w, iv, vs);
    o.ids.sensor_body = spx_world_body_id(w, is);
    o.ids.visitor_body = spx_world_body_id(w, iv);
    o.key = (uint64_t)(o.ids.sensor.index - 1) << 32 | (o.ids.visitor.index - 1);
    return o;
}

static int by_key(const void* x, const void* y)
{
    const uint64_t a = ((const spx_sensor_overlap*)x)->key, b = ((const spx_sensor_overlap*)y)->key;
    return a < b ? -1 : a > b;
}

/* The sensor shapes of body `is` against the other shapes of body `iv`, overlaps into found. */
static uint32_t test_bodies(spx_world* w, uint32_t is, uint32_t iv, spx_sensor_overlap* found)
{
    const spx_body *bs = &w->bodies[is], *bv = &w->bodies[iv];
    uint32_t n = 0;
    if (bs->sensor_count == 0) return 0;
    for (uint32_t ss = 0; ss < bs->shape_count; ++ss) {
        if (!bs->shapes[ss].sensor) continue;
        for (uint32_t vs = 0; vs < bv->shape_count; ++vs)
            if (sees(w, is, ss, iv, vs) && overlap(bs, &bs->shapes[ss], bv, &bv->shapes[vs]))
                found[n++] = make_overlap(w, is, ss, iv, vs);
    }
    return n;
}

static bool same_shape(spx_shape_id a, spx_shape_id b) { return a.index == b.index && a.generation == b.generation; }

/* Kept untested: both live, neither moving, still seen (flags and filters may have changed). */
static bool holds(const spx_world* w, const spx_sensor_overlap* o)
{
    const uint32_t s = spx_shape_lookup(w, o->ids.sensor), v = spx_shape_lookup(w, o->ids.visitor);
    if (s == SPX_NO_BODY || v == SPX_NO_BODY) return false;
    const spx_shape_slot *ss = &w->shape_slots[s], *vs = &w->shape_slots[v];
    return !spx_body_moves(&w->bodies[ss->body]) && !spx_body_moves(&w->bodies[vs->body]) &&
           w->bodies[ss->body].shapes[ss->index].sensor && sees(w, ss->body, ss->index, vs->body, vs->index);
}

spx_result spx_sensors_update(spx_world* w, const spx_pair* pairs, uint32_t n)
{
    spx_sensors* s = &w->sensors;
    s->begin_count = s->end_count = 0;
    if (w->sensor_shape_count == 0 && s->count == 0) return SPX_OK;
    /* Room first: every sensor-visitor shape pair of the pairs, and last step's overlaps. */
    uint64_t tests = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const spx_body *a = &w->bodies[pairs[i].a], *b = &w->bodies[pairs[i].b];
        tests += (uint64_t)a->sensor_count * b->shape_count + (uint64_t)b->sensor_count * a->shape_count;
    }
    const uint64_t most = tests + s->count;
    if (most > UINT32_MAX) return SPX_ERR_OUT_OF_MEMORY;
    const spx_allocator* al = &w->allocator;
    if (!spx_reserve(al, (void**)&s->found, &s->found_capacity, (uint32_t)tests, sizeof(spx_sensor_overlap), 8) ||
        !spx_reserve(al, (void**)&s->next, &s->next_capacity, (uint32_t)most, sizeof(spx_sensor_overlap), 8) ||
        !spx_reserve(al, (void**)&s->begin, &s->begin_capacity, (uint32_t)most, sizeof(spx_sensor_event), 8) ||
        !spx_reserve(al, (void**)&s->end, &s->end_capacity, (uint32_t)most, sizeof(spx_sensor_event), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    uint32_t found = 0;
    for (uint32_t i = 0; i < n && tests > 0; ++i) {
        found += test_bodies(w, pairs[i].a, pairs[i].b, s->found + found);
        found += test_bodies(w, pairs[i].b, pairs[i].a, s->found + found);
    }
    /* Keys are unique (one slot pair each): the sort's order is the input's alone. */
    if (found > 1) qsort(s->found, found, sizeof(spx_sensor_overlap), by_key);
    uint32_t i = 0, j = 0, count = 0;
    while (i < s->count || j < found) {
        const uint64_t ko = i < s->count ? s->list[i].key : UINT64_MAX, kf = j < found ? s->found[j].key : UINT64_MAX;
        if (ko < kf) { /* not found this step: it holds while neither body moves, else it ended */
            if (holds(w, &s->list[i])) s->next[count++] = s->list[i];
            else s->end[s->end_count++] = s->list[i].ids;
            ++i;
        } else if (kf < ko) {
            s->begin[s->begin_count++] = s->found[j].ids;
            s->next[count++] = s->found[j++];
        } else { /* the same slots: the same shapes, unless a slot was reused since */
            const spx_sensor_overlap *o = &s->list[i++], *f = &s->found[j++];
            if (!same_shape(o->ids.sensor, f->ids.sensor) || !same_shape(o->ids.visitor, f->ids.visitor)) {
                s->end[s->end_count++] = o->ids;
                s->begin[s->begin_count++] = f->ids;
            }
            s->next[count++] = *f;
        }
    }
    s->next_count = count;
    return SPX_OK;
}

void spx_sensors_commit(spx_world* w)
{
    spx_sensors* s = &w->sensors;
    if (w->sensor_shape_count == 0 && s->count == 0) return;
    spx_sensor_overlap* t = s->list;
    const uint32_t tc = s->capacity;
    s->list = s->next, s->capacity = s->next_capacity, s->count = s->next_count;
    s->next = t, s->next_capacity = tc;
}

void spx_sensors_wake_visitors(spx_world* w, uint32_t sensor_slot)
{
    const spx_sensors* s = &w->sensors;
    for (uint32_t k = 0; k < s->count; ++k) {
        if (s->list[k].key >> 32 != sensor_slot) continue;
        const uint32_t v = spx_shape_lookup(w, s->list[k].ids.visitor);
        if (v == SPX_NO_BODY) continue;
        const uint32_t body = w->shape_slots[v].body;
        if (w->bodies[body].type == SPX_BODY_DYNAMIC) spx_island_wake(w, body);
    }
}

void spx_sensors_free(spx_sensors* s, const spx_allocator* al)
{
    spx_free(al, s->list, sizeof(spx_sensor_overlap) * (size_t)s->capacity);
    spx_free(al, s->next, sizeof(spx_sensor_overlap) * (size_t)s->next_capacity);
    spx_free(al, s->found, sizeof(spx_sensor_overlap) * (size_t)s->found_capacity);
    spx_free(al, s->begin, sizeof(spx_sensor_event) * (size_t)s->begin_capacity);
    spx_free(al, s->end, sizeof(spx_sensor_event) * (size_t)s->end_capacity);
}
