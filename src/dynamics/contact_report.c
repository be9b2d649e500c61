/* Pre-solve, hit events and a body's contacts for the host (docs/world.md, "Events"), on the
   calling thread in manifold order. */
#include "world.h"
#include "math/glm_bridge.h"
#include <math.h>
#include <string.h>

float spx_contact_approach(const spx_world* w, const spx_contact* c, const spx_contact_point* p)
{
    const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
    const vec3s va = glms_vec3_add(a->v, glms_vec3_cross(a->w, p->anchor_a));
    const vec3s vb = glms_vec3_add(b->v, glms_vec3_cross(b->w, p->anchor_b));
    return -glms_vec3_dot(glms_vec3_sub(vb, va), c->normal);
}

/* `now`: points moved with the bodies to where they are (after a step). */
static void contact_data(const spx_world* w, const spx_contact* c, bool now, spx_contact_data* out)
{
    const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
    memset(out, 0, sizeof *out);
    out->a = spx_world_body_id(w, c->body_a);
    out->b = spx_world_body_id(w, c->body_b);
    out->shape_a = spx_world_shape_id(w, c->body_a, c->shape_a);
    out->shape_b = spx_world_shape_id(w, c->body_b, c->shape_b);
    out->normal = spx_from_glm_vec3(c->normal);
    out->tangent[0] = spx_from_glm_vec3(c->tangent[0]), out->tangent[1] = spx_from_glm_vec3(c->tangent[1]);
    out->enabled = c->enabled;
    out->point_count = (uint32_t)c->point_count;
    const mat3s ra = spx_body_matrix(a), rb = spx_body_matrix(b);
    for (int k = 0; k < c->point_count; ++k) {
        const spx_contact_point* p = &c->points[k];
        spx_contact_point_data* o = &out->points[k];
        vec3s at;
        if (now) { /* mid of its ends, each carried by its body */
            const vec3s on_a = glms_vec3_add(a->center, glms_mat3_mulv(ra, p->made_anchor_a));
            const vec3s on_b = glms_vec3_add(b->center, glms_mat3_mulv(rb, p->made_anchor_b));
            at = glms_vec3_scale(glms_vec3_add(on_a, on_b), 0.5f);
        } else {
            at = glms_vec3_add(a->center, p->anchor_a);
        }
        o->point = spx_from_glm_vec3(at);
        o->separation = p->separation;
        o->normal_impulse = p->normal_impulse;
        o->friction_impulse[0] = p->tangent_impulse[0], o->friction_impulse[1] = p->tangent_impulse[1];
    }
}

static bool same_shape_pair(const spx_contact* x, const spx_contact* y)
{
    return x->body_a == y->body_a && x->body_b == y->body_b && x->shape_a == y->shape_a && x->shape_b == y->shape_b;
}

void spx_contacts_report(spx_world* w, float dt)
{
    spx_contacts* cs = &w->contacts;
    if (w->def.pre_solve)
        for (uint32_t k = 0; k < cs->count; ++k) {
            spx_contact* c = &cs->list[k];
            if (!spx_contact_active(w, c)) continue;
            spx_contact_data data;
            contact_data(w, c, false, &data);
            c->enabled = w->def.pre_solve(&data, w->def.pre_solve_context);
            if (!c->enabled) /* no impulse now, none to warm-start with later */
                for (int p = 0; p < c->point_count; ++p)
                    c->points[p].normal_impulse = c->points[p].tangent_impulse[0] = c->points[p].tangent_impulse[1] =
                        0.0f;
        }
    /* Hits: per shape pair, its fastest closing point that this step brings into touch. */
    cs->hit_count = 0;
    const float threshold = w->def.hit_event_threshold;
    spx_contact_hit_event best;
    best.speed = -INFINITY;
    for (uint32_t k = 0; k < cs->count; ++k) {
        const spx_contact* c = &cs->list[k];
        if (spx_contact_active(w, c))
            for (int i = 0; i < c->point_count; ++i) {
                const spx_contact_point* p = &c->points[i];
                const float speed = spx_contact_approach(w, c, p);
                if (!(speed >= threshold && speed > best.speed && p->separation <= speed * dt)) continue;
                best.speed = speed;
                best.point = spx_from_glm_vec3(glms_vec3_add(w->bodies[c->body_a].center, p->anchor_a));
                best.normal = spx_from_glm_vec3(c->normal);
                best.a = spx_world_body_id(w, c->body_a), best.b = spx_world_body_id(w, c->body_b);
                best.shape_a = spx_world_shape_id(w, c->body_a, c->shape_a);
                best.shape_b = spx_world_shape_id(w, c->body_b, c->shape_b);
            }
        const bool last = k + 1 == cs->count || !same_shape_pair(c, &cs->list[k + 1]);
        if (last && best.speed > -INFINITY) {
            cs->hits[cs->hit_count++] = best;
            best.speed = -INFINITY;
        }
    }
}

SPX_API spx_result spx_world_get_hit_events(const spx_world* w, const spx_contact_hit_event** out, uint32_t* out_count)
{
    if (!w || !out || !out_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = w->contacts.hits;
    *out_count = w->contacts.hit_count;
    return SPX_OK;
}

static uint32_t fill_contacts(const spx_world* w, uint32_t i, void* out, uint32_t capacity)
{
    spx_contact_data* data = out;
    uint32_t n = 0;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (c->body_a != i && c->body_b != i) continue;
        if (n < capacity) contact_data(w, c, true, &data[n]);
        ++n;
    }
    return n;
}

SPX_API spx_result spx_body_get_contacts(const spx_world* w, spx_body_id body, spx_contact_data* out, uint32_t capacity,
                                         uint32_t* out_count)
{
    return spx_body_list(w, body, out, capacity, out_count, fill_contacts);
}
