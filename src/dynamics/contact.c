/* Narrow phase: shape-pair manifolds merged with last step's (sorted, so linear and deterministic)
 * for warm starting and begin/end events. */
#include "world.h"
#include "island.h"
#include "solver.h"
#include "filter.h"
#include "shape_pair.h"
#include "core/allocator.h"
#include "collide/manifold_mesh_kept.h"
#include "collide/manifold_box.h"
#include <sepax/collide.h>
#include <sepax/mesh_query.h>
#include <math.h>

/* (a, b) as one number: the lists' order is this key's. */
static inline uint64_t body_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

static spx_contact_event* push_event(const spx_world* w, spx_contact_event* events, uint32_t* count, uint32_t capacity,
                                     const spx_contact* m)
{
    if (*count >= capacity) return NULL;
    spx_contact_event* e = &events[*count];
    memset(e, 0, sizeof *e);
    e->a = spx_world_body_id(w, m->body_a);
    e->b = spx_world_body_id(w, m->body_b);
    e->shape_a = spx_world_shape_id(w, m->body_a, m->shape_a);
    e->shape_b = spx_world_shape_id(w, m->body_b, m->shape_b);
    ++*count;
    return e;
}

/* Manifold k starts a shape pair (lists are sorted). */
static bool first_of_shape_pair(const spx_contact* list, uint32_t k)
{
    if (k == 0) return true;
    const spx_contact *x = &list[k - 1], *y = &list[k];
    return x->body_a != y->body_a || x->body_b != y->body_b || x->shape_a != y->shape_a || x->shape_b != y->shape_b;
}

static uint32_t shape_key(const spx_contact* m) { return (uint32_t)m->shape_a << 16 | m->shape_b; }

/* Begin events for now's shape pairs missing from was, end events for the reverse (one body pair). */
static void shape_pair_events(const spx_world* w, spx_contacts* c, const spx_contact* was, uint32_t was_count,
                              const spx_contact* now, uint32_t now_count)
{
    uint32_t p = 0, q = 0;
    while (p < was_count || q < now_count) {
        const uint32_t kp = p < was_count ? shape_key(&was[p]) : UINT32_MAX;
        const uint32_t kq = q < now_count ? shape_key(&now[q]) : UINT32_MAX;
        if (kp < kq) push_event(w, c->end, &c->end_count, c->end_capacity, &was[p]);
        if (kq < kp) {
            spx_contact_event* e = push_event(w, c->begin, &c->begin_count, c->begin_capacity, &now[q]);
            float fastest = -INFINITY;
            for (uint32_t m = q; m < now_count && shape_key(&now[m]) == kq; ++m)
                for (int k = 0; k < now[m].point_count; ++k)
                    fastest = fmaxf(fastest, spx_contact_approach(w, &now[m], &now[m].points[k]));
            if (e) e->approach_speed = fastest;
        }
        const uint32_t k = kp < kq ? kp : kq;
        while (p < was_count && shape_key(&was[p]) == k) ++p;
        while (q < now_count && shape_key(&now[q]) == k) ++q;
    }
}

/* Same shape pairs in both (most resting and most apart pairs): no events, no call. */
static inline bool same_shape_pairs(const spx_contact* was, uint32_t was_count, const spx_contact* now,
                                    uint32_t now_count)
{
    if (was_count != now_count) return false;
    for (uint32_t k = 0; k < now_count; ++k)
        if (shape_key(&was[k]) != shape_key(&now[k])) return false;
    return true;
}

/* Speculative distance plus what the relative motion can close this step (spin: c->spin's). */
static float pair_margin(const spx_world* w, const spx_body* a, float spin_a, const spx_body* b, float spin_b, float dt)
{
    float closing = glms_vec3_norm(glms_vec3_sub(a->v, b->v)) + spin_a + spin_b;
    return w->def.speculative_distance + closing * dt;
}

/* spx_body_matrix's and spx_body_trusted_box's pose test, made at a body's first pair of the step. */
static inline const spx_contact_pose* body_pose(const spx_world* w, uint32_t body)
{
    spx_contact_pose* p = &w->contacts.poses[body];
    if (p->stamp != w->contacts.stamp) {
        const spx_body* b = &w->bodies[body];
        p->stamp = w->contacts.stamp;
        p->turn_stored = memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0;
        p->placed_stored = p->turn_stored && memcmp(&b->origin, &b->boxes_origin, sizeof(float) * 3) == 0;
    }
    return p;
}

static inline mat3s body_matrix(const spx_world* w, uint32_t body)
{
    const spx_body* b = &w->bodies[body];
    return body_pose(w, body)->turn_stored ? b->boxes_matrix : glms_quat_mat3(b->rotation);
}

static inline const spx_obb* trusted_box(const spx_world* w, uint32_t body, const spx_body_shape* s)
{
    return s->world_box_valid && body_pose(w, body)->placed_stored ? &s->world_box : NULL;
}

/* m, at any point of B seen from A: within it last step's manifolds are moved, not remade
   (docs/world.md, "Manifolds reused while a pair rests"). */
#define SPX_CONTACT_REUSE_DISTANCE 0.001f

/* R v and R^T v (cglm's columns): body frame to world and back. */
static inline vec3s to_world(const mat3s* r, vec3s v)
{
    return (vec3s){ { r->col[0].x * v.x + r->col[1].x * v.y + r->col[2].x * v.z,
                      r->col[0].y * v.x + r->col[1].y * v.y + r->col[2].y * v.z,
                      r->col[0].z * v.x + r->col[1].z * v.y + r->col[2].z * v.z } };
}

static inline vec3s to_body(const mat3s* r, vec3s v)
{
    return (vec3s){ { glms_vec3_dot(r->col[0], v), glms_vec3_dot(r->col[1], v), glms_vec3_dot(r->col[2], v) } };
}

static inline void relative_pose(vec3s ca, versors qa, const mat3s* ra, vec3s cb, versors qb, vec3s* position,
                                 versors* rotation)
{
    *position = to_body(ra, glms_vec3_sub(cb, ca));
    *rotation = glms_quat_mul(glms_quat_conjugate(qa), qb);
}

/* Last step's manifolds of a and b stand for this step's when made at one placement, all the
   solver's, and B moved in A's frame by at most the reuse distance (docs/world.md, "Manifolds
   reused while a pair rests", has why). ra: A's rotation, made once the cheap tests pass. */
static bool can_reuse(const spx_world* w, uint32_t ia, mat3s* ra, uint32_t ib, float distance, float reach,
                      const spx_contact* old, uint32_t count)
{
    const spx_body *a = &w->bodies[ia], *b = &w->bodies[ib];
    /* Frame-free test first: most of a settling pile's pairs end here. */
    if (fabsf(distance - old[0].made_distance) > SPX_CONTACT_REUSE_DISTANCE) return false;
    for (uint32_t k = 0; k < count; ++k)
        if (old[k].owner != SPX_CONTACT_SOLVER || !old[k].reusable || old[k].made_margin != old[0].made_margin ||
            memcmp(&old[k].made_position, &old[0].made_position, sizeof(float) * 3) != 0 ||
            memcmp(&old[k].made_turn, &old[0].made_turn, sizeof(float) * 4) != 0)
            return false;
    *ra = spx_body_matrix(a);
    vec3s p_now;
    versors q_now;
    relative_pose(a->center, a->rotation, ra, b->center, b->rotation, &p_now, &q_now);
    const versors d = glms_quat_mul(glms_quat_conjugate(old[0].made_turn), q_now);
    const float half_sine = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
    const float change = glms_vec3_distance(p_now, old[0].made_position) + 2.0f * half_sine * b->radius;
    return change <= SPX_CONTACT_REUSE_DISTANCE && reach + change <= old[0].made_margin;
}

/* Last step's manifold moved with the bodies: normal turned with A, points placed from their body
   frames, separations from how far their ends moved apart along the normal. Impulses stay. */
static void reuse_contact(const spx_world* w, const spx_contact* old, const mat3s* ra, const mat3s* rb,
                          spx_contact* out)
{
    const spx_body* a = &w->bodies[old->body_a];
    const spx_body* b = &w->bodies[old->body_b];
    *out = *old;
    out->enabled = true;
    out->normal = glms_vec3_normalize(to_world(ra, old->made_normal));
    spx_contact_tangents(out->normal, out->tangent);
    const spx_body_shape *xa = &a->shapes[old->shape_a], *xb = &b->shapes[old->shape_b];
    out->friction = sqrtf(xa->friction * xb->friction);
    out->restitution = xa->restitution > xb->restitution ? xa->restitution : xb->restitution;
    for (int k = 0; k < out->point_count; ++k) {
        spx_contact_point* p = &out->points[k];
        const vec3s on_a = glms_vec3_add(a->center, to_world(ra, p->made_anchor_a));
        const vec3s on_b = glms_vec3_add(b->center, to_world(rb, p->made_anchor_b));
        const vec3s mid = glms_vec3_scale(glms_vec3_add(on_a, on_b), 0.5f);
        p->anchor_a = glms_vec3_sub(mid, a->center);
        p->anchor_b = glms_vec3_sub(mid, b->center);
        p->separation = p->made_separation + glms_vec3_dot(out->normal, glms_vec3_sub(on_b, on_a));
    }
}

/* A new id may be an old point renamed (near-parallel faces swap reference); lost impulses make
   stacks jitter, so it takes the nearest unclaimed old point's within this distance (m). */
#define SPX_WARM_MATCH_DISTANCE 0.01f

static void warm_start_from(const spx_contact* old, spx_contact* c)
{
    bool taken[SPX_MAX_MANIFOLD_POINTS] = { false };
    int source[SPX_MAX_MANIFOLD_POINTS];
    /* Ids first: exact. */
    for (int k = 0; k < c->point_count; ++k) {
        source[k] = -1;
        for (int j = 0; j < old->point_count; ++j)
            if (!taken[j] && old->points[j].id == c->points[k].id) {
                source[k] = j, taken[j] = true;
                break;
            }
    }
    /* Then proximity, if the normal stayed put. */
    if (glms_vec3_dot(old->normal, c->normal) > 0.999f) {
        for (int k = 0; k < c->point_count; ++k) {
            if (source[k] >= 0) continue;
            float best = SPX_WARM_MATCH_DISTANCE * SPX_WARM_MATCH_DISTANCE;
            for (int j = 0; j < old->point_count; ++j) {
                if (taken[j]) continue;
                float d2 = glms_vec3_norm2(glms_vec3_sub(old->points[j].anchor_a, c->points[k].anchor_a));
                if (d2 < best) best = d2, source[k] = j;
            }
            if (source[k] >= 0) taken[source[k]] = true;
        }
    }
    for (int k = 0; k < c->point_count; ++k) {
        if (source[k] < 0) continue;
        const spx_contact_point* o = &old->points[source[k]];
        c->points[k].normal_impulse = o->normal_impulse;
        c->points[k].tangent_impulse[0] = o->tangent_impulse[0];
        c->points[k].tangent_impulse[1] = o->tangent_impulse[1];
    }
}

/* Normal flipped when the query had B first. */
static void fill_contact(const spx_world* w, uint32_t ia, uint32_t ib, uint16_t sa, uint16_t sb, const spx_manifold* m,
                         bool flip, float margin, const mat3s* ra, const mat3s* rb, spx_contact* out)
{
    const spx_body* a = &w->bodies[ia];
    const spx_body* b = &w->bodies[ib];
    relative_pose(a->center, a->rotation, ra, b->center, b->rotation, &out->made_position, &out->made_turn);
    out->made_distance = glms_vec3_distance(a->center, b->center);
    out->made_margin = margin;
    out->reusable = true;
    out->enabled = true;
    out->mesh_sunk = false;
    out->owner = SPX_CONTACT_SOLVER;
    out->body_a = ia;
    out->body_b = ib;
    out->shape_a = sa;
    out->shape_b = sb;
    out->normal = (vec3s){ { m->normal.x, m->normal.y, m->normal.z } };
    if (flip) out->normal = glms_vec3_negate(out->normal);
    spx_contact_tangents(out->normal, out->tangent);
    out->made_normal = to_body(ra, out->normal);
    const spx_body_shape *xa = &a->shapes[sa], *xb = &b->shapes[sb];
    out->friction = sqrtf(xa->friction * xb->friction);
    out->restitution = xa->restitution > xb->restitution ? xa->restitution : xb->restitution;
    out->point_count = m->point_count;
    for (int k = 0; k < m->point_count; ++k) {
        spx_contact_point* p = &out->points[k];
        vec3s q = { { m->points[k].point.x, m->points[k].point.y, m->points[k].point.z } };
        p->anchor_a = glms_vec3_sub(q, a->center);
        p->anchor_b = glms_vec3_sub(q, b->center);
        p->separation = -m->points[k].depth;
        p->made_anchor_a = to_body(ra, p->anchor_a);
        p->made_anchor_b = to_body(rb, p->anchor_b);
        p->made_separation = p->separation;
        p->id = m->points[k].id;
        p->normal_impulse = p->tangent_impulse[0] = p->tangent_impulse[1] = 0.0f;
    }
}

/* m a step: box pairs sliding less keep the reference face as it is. */
#define SPX_CONTACT_SLIDE 0.001f

/* A box pair met at one point (a corner, or two edges) turns about it within the step; where it can
   close by more than this share of the smaller body's bounding radius in the step, the poses the
   step's velocities predict are asked too (docs/world.md, "Overlap at every step"). */
#define SPX_CONTACT_PREDICT 0.1f

static inline bool in_range(spx_vec3 p)
{
    return fabsf(p.x) <= SPX_MAX_COORDINATE && fabsf(p.y) <= SPX_MAX_COORDINATE && fabsf(p.z) <= SPX_MAX_COORDINATE;
}

/* A box of body b moved on by the body's velocities over dt, turned about the body's centre; the
   body's predicted centre and its turn are given back for carry_back. */
static spx_obb predicted_box(const spx_body* b, const spx_obb* box, float dt, vec3s* center, mat3s* turn)
{
    *turn = glms_quat_mat3(glms_quat_normalize(spx_solver_rotation(glms_vec3_scale(b->w, dt))));
    *center = glms_vec3_add(b->center, glms_vec3_scale(b->v, dt));
    const vec3s offset = glms_vec3_sub(spx_to_glm_vec3(box->center), b->center);
    spx_obb out = *box;
    out.center = spx_from_glm_vec3(glms_vec3_add(*center, to_world(turn, offset)));
    for (int k = 0; k < 3; ++k)
        out.rotation.col[k] = spx_from_glm_vec3(to_world(turn, spx_to_glm_vec3(box->rotation.col[k])));
    return out;
}

/* A manifold of the predicted poses carried back to the step's start: each point's two surface
   points ride their bodies back, and the gap between them along the predicted normal is the
   point's separation. Only points apart there are kept: a point that already overlaps along
   another normal than the pair's own is not a contact the pair has. */
static void carry_back(const spx_body* a, vec3s ca, const mat3s* turn_a, const spx_body* b, vec3s cb,
                       const mat3s* turn_b, spx_manifold* m)
{
    const vec3s n = spx_to_glm_vec3(m->normal);
    int kept = 0;
    for (int k = 0; k < m->point_count; ++k) {
        const spx_manifold_point* p = &m->points[k];
        const vec3s q = spx_to_glm_vec3(p->point), half_gap = glms_vec3_scale(n, -0.5f * p->depth);
        const vec3s on_a = glms_vec3_add(a->center, to_body(turn_a, glms_vec3_sub(glms_vec3_sub(q, half_gap), ca)));
        const vec3s on_b = glms_vec3_add(b->center, to_body(turn_b, glms_vec3_sub(glms_vec3_add(q, half_gap), cb)));
        const float gap = glms_vec3_dot(glms_vec3_sub(on_b, on_a), n);
        if (!(gap >= 0.0f)) continue;
        m->points[kept] = *p;
        m->points[kept].point = spx_from_glm_vec3(glms_vec3_scale(glms_vec3_add(on_a, on_b), 0.5f));
        m->points[kept++].depth = -gap;
    }
    m->point_count = kept;
}

/* Box pair a, b met at one point by `first`: the manifold of the predicted poses into *out when its
   normal differs from first's by over 14 degrees and a point of it closes within the step. */
static bool predicted_manifold(const spx_world* w, const spx_body* a, const spx_obb* ta, const spx_body* b,
                               const spx_obb* tb, float slide, float dt, const spx_manifold* first, spx_manifold* out)
{
    vec3s ca, cb;
    mat3s turn_a, turn_b;
    const spx_obb pa = predicted_box(a, ta, dt, &ca, &turn_a), pb = predicted_box(b, tb, dt, &cb, &turn_b);
    if (!in_range(pa.center) || !in_range(pb.center)) return false; /* the manifold takes valid boxes only */
    if (spx_manifold_obb_obb_trusted(&pa, &pb, w->def.speculative_distance, slide, out) != SPX_OK ||
        out->point_count == 0)
        return false;
    if (glms_vec3_dot(spx_to_glm_vec3(first->normal), spx_to_glm_vec3(out->normal)) >= 0.97f) return false;
    carry_back(a, ca, &turn_a, b, cb, &turn_b, out);
    return out->point_count > 0;
}

/* One shape pair's manifolds into out, warm-started from old (any shape pair). Returns how many; a
   non-finite or degenerate body fails validation and touches nothing. */
static uint32_t make_contacts(const spx_world* w, uint32_t ia, uint32_t ib, uint16_t sa, uint16_t sb, float margin,
                              float dt, const spx_contact* old, uint32_t old_count, spx_contact* out)
{
    const spx_body* a = &w->bodies[ia];
    const spx_body* b = &w->bodies[ib];
    const spx_body_shape* xa = &a->shapes[sa];
    const spx_body_shape* xb = &b->shapes[sb];
    spx_manifold ms[SPX_MAX_MESH_MANIFOLDS];
    uint32_t n = 0;
    bool flip = false;
    spx_result r;
    bool sunk = false;
    /* Box pairs first: the piles' pairs, and none of them placed shapes. */
    if (xa->type == SPX_SHAPE_BOX && xb->type == SPX_SHAPE_BOX) {
        const spx_obb *ta = trusted_box(w, ia, xa), *tb = trusted_box(w, ib, xb);
        if (ta && tb) {
            /* What slides over the reference face's rim within the step is clipped in (resting pairs: none). */
            float slide = glms_vec3_norm(glms_vec3_sub(a->v, b->v)) * dt;
            if (!(slide > SPX_CONTACT_SLIDE)) slide = 0.0f;
            r = spx_manifold_obb_obb_trusted(ta, tb, margin, slide, &ms[0]);
            n = r == SPX_OK && ms[0].point_count > 0;
            const float closing = margin - w->def.speculative_distance;
            const float smaller = a->radius < b->radius ? a->radius : b->radius;
            if (n == 1 && ms[0].point_count == 1 && closing > SPX_CONTACT_PREDICT * smaller &&
                predicted_manifold(w, a, ta, b, tb, slide, dt, &ms[0], &ms[1]))
                n = 2;
        } else {
            spx_obb box_a = spx_body_shape_box(a, xa), box_b = spx_body_shape_box(b, xb);
            r = spx_manifold_obb_obb(&box_a, &box_b, margin, &ms[0]);
            n = r == SPX_OK && ms[0].point_count > 0;
        }
    } else if (spx_shape_pair_placed(xa, xb)) {
        const spx_placed_shape pa = { xa, spx_body_shape_box(a, xa), 0.0f },
                               pb = { xb, spx_body_shape_box(b, xb), 0.0f };
        if ((xa->type == SPX_SHAPE_MESH && !spx_body_pose_mesh(a, xa)) ||
            (xb->type == SPX_SHAPE_MESH && !spx_body_pose_mesh(b, xb)))
            return 0;
        n = spx_shape_pair_manifolds(&pa, &pb, margin, ms, SPX_MAX_MESH_MANIFOLDS, &flip);
        r = SPX_OK;
    } else if (xa->type == SPX_SHAPE_BOX || xb->type == SPX_SHAPE_BOX) {
        /* The box is the manifold's A either way. */
        const spx_body* box_body = xa->type == SPX_SHAPE_BOX ? a : b;
        const spx_body* mesh_body = xa->type == SPX_SHAPE_BOX ? b : a;
        const spx_body_shape* box_shape = xa->type == SPX_SHAPE_BOX ? xa : xb;
        const spx_body_shape* mesh_shape = xa->type == SPX_SHAPE_BOX ? xb : xa;
        flip = xa->type != SPX_SHAPE_BOX;
        spx_obb box = spx_body_shape_box(box_body, box_shape);
        if (!spx_body_pose_mesh(mesh_body, mesh_shape)) return 0;
        r = spx_manifold_obb_mesh(&box, mesh_shape->instance, margin, ms, SPX_MAX_MESH_MANIFOLDS, &n);
    } else {
        if (!spx_body_pose_mesh(a, xa) || !spx_body_pose_mesh(b, xb) || !(margin >= 0.0f) || !isfinite(margin))
            return 0;
        for (uint32_t j = 0; j < old_count; ++j)
            if (old[j].shape_a == sa && old[j].shape_b == sb) sunk |= old[j].mesh_sunk;
        spx_manifold_mesh_mesh_kept(xa->instance, xb->instance, margin, true, w->contacts.mesh_pairs,
                                    w->contacts.mesh_pairs_bytes, ms, SPX_MAX_MESH_MANIFOLDS, &n, NULL, &sunk);
        r = SPX_OK;
    }
    if (r != SPX_OK) return 0;
    mat3s ra, rb; /* made at the first manifold with points: most pairs have none */
    uint32_t made = 0;
    for (uint32_t k = 0; k < n; ++k) {
        if (ms[k].point_count == 0) continue;
        if (made == 0) ra = body_matrix(w, ia), rb = body_matrix(w, ib);
        spx_contact* c = &out[made++];
        fill_contact(w, ia, ib, sa, sb, &ms[k], flip, margin, &ra, &rb, c);
        c->mesh_sunk = sunk;
        /* Old manifold with the closest normal (~25 degrees): a mesh pair's are told apart by normal. */
        const spx_contact* prior = NULL;
        float best = 0.9f;
        for (uint32_t j = 0; j < old_count; ++j) {
            if (old[j].shape_a != sa || old[j].shape_b != sb) continue;
            float d = glms_vec3_dot(old[j].normal, c->normal);
            if (d > best) best = d, prior = &old[j];
        }
        if (prior) warm_start_from(prior, c);
    }
    return made;
}

/* Room: every shape pair's manifolds plus last step's kept ones; events one a manifold. one_shape:
   no body has a second shape or a mesh, so a pair makes two manifolds at most (the second from the
   predicted poses). */
static bool reserve(spx_world* w, const spx_pair* pairs, uint32_t n, bool one_shape)
{
    spx_contacts* c = &w->contacts;
    uint64_t need = (uint64_t)c->count + (one_shape ? 2 * (uint64_t)n : 0);
    /* Two a box pair, SPX_MAX_MESH_MANIFOLDS with a mesh (a box in a room's corner), from counts. */
    for (uint32_t i = 0; i < n && !one_shape; ++i) {
        const spx_body* a = &w->bodies[pairs[i].a];
        const spx_body* b = &w->bodies[pairs[i].b];
        const uint64_t all = (uint64_t)a->shape_count * b->shape_count, boxes = (uint64_t)a->box_count * b->box_count;
        need += 2 * boxes + SPX_MAX_MESH_MANIFOLDS * (all - boxes);
    }
    uint64_t events = need + c->pending_end_count;
    if (need > UINT32_MAX || events > UINT32_MAX) return false;
    const spx_allocator* al = &w->allocator;
    return spx_reserve(al, (void**)&c->prev, &c->prev_capacity, (uint32_t)need, sizeof(spx_contact), 16) &&
           spx_reserve(al, (void**)&c->begin, &c->begin_capacity, (uint32_t)events, sizeof(spx_contact_event), 8) &&
           spx_reserve(al, (void**)&c->end, &c->end_capacity, (uint32_t)events, sizeof(spx_contact_event), 8) &&
           spx_reserve(al, (void**)&c->hits, &c->hit_capacity, (uint32_t)need, sizeof(spx_contact_hit_event), 8);
}

/* A new stamp: every body's pose test is made again at its first pair. */
static __attribute__((noinline)) bool begin_poses(spx_world* w)
{
    spx_contacts* c = &w->contacts;
    if (!spx_reserve(&w->allocator, (void**)&c->poses, &c->poses_capacity, w->body_slots, sizeof(spx_contact_pose), 16))
        return false;
    if (c->poses_zeroed < w->body_slots) {
        memset(&c->poses[c->poses_zeroed], 0, sizeof(spx_contact_pose) * (w->body_slots - c->poses_zeroed));
        c->poses_zeroed = w->body_slots;
    }
    if (++c->stamp == 0) { /* wrapped: made again from 1 */
        memset(c->poses, 0, sizeof(spx_contact_pose) * c->poses_zeroed);
        c->stamp = 1;
    }
    return true;
}

spx_result spx_contacts_update(spx_world* w, const spx_pair* pairs, uint32_t n, float dt)
{
    spx_contacts* c = &w->contacts;
    if (!spx_reserve(&w->allocator, (void**)&c->spin, &c->spin_capacity, w->body_slots, sizeof(float), 16))
        return SPX_ERR_OUT_OF_MEMORY;
    if (!begin_poses(w)) return SPX_ERR_OUT_OF_MEMORY;
    /* Once a body, not once each of its pairs. */
    bool one_shape = true;
    for (uint32_t k = 0; k < w->body_slots; ++k) {
        const spx_body* b = &w->bodies[k];
        c->spin[k] = glms_vec3_norm(b->w) * b->radius;
        one_shape &= b->shape_count <= 1 && b->box_count == b->shape_count;
    }
    if (!reserve(w, pairs, n, one_shape)) return SPX_ERR_OUT_OF_MEMORY;
    spx_contact* old = c->list;
    uint32_t old_count = c->count, old_capacity = c->capacity;
    c->list = c->prev, c->capacity = c->prev_capacity;
    c->prev = old, c->prev_count = old_count, c->prev_capacity = old_capacity;
    c->count = 0;
    c->begin_count = 0;
    c->end_count = 0;
    c->reduced = 0;
    c->reused = 0;

    uint32_t i = 0, j = 0;
    while (i < n || j < old_count) {
        const uint64_t kp = i < n ? body_key(pairs[i].a, pairs[i].b) : UINT64_MAX;
        const uint64_t ko = j < old_count ? body_key(old[j].body_a, old[j].body_b) : UINT64_MAX;
        uint32_t j_end = j;
        const bool old_first = j < old_count && (i == n || ko < kp);
        if (old_first || (j < old_count && ko == kp))
            while (j_end < old_count && body_key(old[j_end].body_a, old[j_end].body_b) == ko) ++j_end;
        if (old_first) {
            /* No longer paired: both still (sleeping or static) keep their manifolds; else they parted. */
            const spx_body* a = &w->bodies[old[j].body_a];
            const spx_body* b = &w->bodies[old[j].body_b];
            if (!spx_body_moves(a) && !spx_body_moves(b)) {
                for (uint32_t k = j; k < j_end; ++k) c->list[c->count++] = old[k];
            } else {
                shape_pair_events(w, c, &old[j], j_end - j, NULL, 0);
            }
            j = j_end;
            continue;
        }
        const uint32_t ia = pairs[i].a, ib = pairs[i].b;
        const spx_body* a = &w->bodies[ia];
        const spx_body* b = &w->bodies[ib];
        float margin = pair_margin(w, a, c->spin[ia], b, c->spin[ib], dt);
        uint32_t before = c->count;
        /* Bounding spheres beyond the margin: about half a pile's pairs end here. */
        float reach = a->radius + b->radius + margin;
        const float distance2 = glms_vec3_norm2(glms_vec3_sub(a->center, b->center));
        if (distance2 <= reach * reach) {
            mat3s ra;
            /* old may be NULL for a new pair. */
            const spx_contact* pair_old = j_end > j ? &old[j] : NULL;
            /* Filters are asked each step: a forbidden pair loses its manifolds, reused or not. */
            const bool ask = spx_bodies_filtered(w, ia, ib);
            if (pair_old && can_reuse(w, ia, &ra, ib, sqrtf(distance2), margin - 0.5f * w->def.speculative_distance,
                                      pair_old, j_end - j)) {
                const mat3s rb = spx_body_matrix(b);
                for (uint32_t k = j; k < j_end; ++k)
                    if (!ask || spx_shapes_collide(w, ia, old[k].shape_a, ib, old[k].shape_b))
                        reuse_contact(w, &old[k], &ra, &rb, &c->list[c->count++]);
                ++c->reused;
            } else {
                for (uint16_t sa = 0; sa < a->shape_count; ++sa)
                    for (uint16_t sb = 0; sb < b->shape_count; ++sb)
                        if (!ask || spx_shapes_collide(w, ia, sa, ib, sb))
                            c->count +=
                                make_contacts(w, ia, ib, sa, sb, margin, dt, pair_old, j_end - j, &c->list[c->count]);
            }
        }
        const spx_contact* was = j_end > j ? &old[j] : NULL;
        if (!same_shape_pairs(was, j_end - j, &c->list[before], c->count - before))
            shape_pair_events(w, c, was, j_end - j, &c->list[before], c->count - before);
        ++i;
        j = j_end;
    }
    /* Wake after the merge: woken during it, the island's later kept manifolds would be taken for
       parted pairs (a struck stack lost its upper contacts for a step). */
    for (uint32_t k = 0; k < c->count; ++k) {
        const spx_body* a = &w->bodies[c->list[k].body_a];
        const spx_body* b = &w->bodies[c->list[k].body_b];
        if (spx_body_moves(a) == spx_body_moves(b)) continue;
        const uint32_t still = spx_body_moves(a) ? c->list[k].body_b : c->list[k].body_a;
        if (w->bodies[still].type == SPX_BODY_DYNAMIC) spx_island_wake(w, still);
    }
    for (uint32_t k = 0; k < c->pending_end_count; ++k) c->end[c->end_count++] = c->pending_end[k];
    c->pending_end_count = 0;
    return SPX_OK;
}

/* Which manifolds remove_manifolds drops. */
typedef enum removal {
    REMOVE_BODY,   /* all of the body's */
    REMOVE_SHAPE,  /* later shapes move down one */
    REFILTER_SHAPE /* filter or sensor now forbids */
} removal;

static bool picked(const spx_world* w, const spx_contact* m, uint32_t body, uint32_t shape, removal how)
{
    const bool on_a = m->body_a == body && (how == REMOVE_BODY || m->shape_a == shape);
    const bool on_b = m->body_b == body && (how == REMOVE_BODY || m->shape_b == shape);
    if (!on_a && !on_b) return false;
    if (how != REFILTER_SHAPE) return true;
    const spx_body_shape *a = &w->bodies[m->body_a].shapes[m->shape_a], *b = &w->bodies[m->body_b].shapes[m->shape_b];
    return a->sensor || b->sensor || !spx_filter_should_collide(a->filter, b->filter);
}

/* With end events for the next step; the body's others are remade (but for REMOVE_BODY).
   SPX_ERR_OUT_OF_MEMORY changes nothing. */
static spx_result remove_manifolds(spx_world* w, uint32_t body, uint32_t shape, removal how)
{
    spx_contacts* c = &w->contacts;
    /* Events' room first, so failure changes nothing. */
    uint32_t ends = 0;
    for (uint32_t k = 0; k < c->count; ++k)
        ends += picked(w, &c->list[k], body, shape, how) && first_of_shape_pair(c->list, k);
    if (!spx_reserve(&w->allocator, (void**)&c->pending_end, &c->pending_end_capacity, c->pending_end_count + ends,
                     sizeof(spx_contact_event), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    uint32_t kept = 0;
    bool first = true;
    for (uint32_t k = 0; k < c->count; ++k) {
        /* A copy: compaction overwrites behind us (and first_of_shape_pair reads k - 1). */
        spx_contact m = c->list[k];
        const bool next_first = k + 1 < c->count && first_of_shape_pair(c->list, k + 1);
        if (!picked(w, &m, body, shape, how)) {
            const bool renumber = how == REMOVE_SHAPE;
            if (how != REMOVE_BODY && m.body_a == body)
                m.shape_a = (uint16_t)(m.shape_a - (renumber && m.shape_a > shape)), m.reusable = false;
            if (how != REMOVE_BODY && m.body_b == body)
                m.shape_b = (uint16_t)(m.shape_b - (renumber && m.shape_b > shape)), m.reusable = false;
            c->list[kept++] = m;
        } else if (first) {
            push_event(w, c->pending_end, &c->pending_end_count, c->pending_end_capacity, &m);
        }
        first = next_first;
    }
    c->count = kept;
    return SPX_OK;
}

spx_result spx_contacts_remove_body(spx_world* w, uint32_t body) { return remove_manifolds(w, body, 0, REMOVE_BODY); }

spx_result spx_contacts_remove_shape(spx_world* w, uint32_t body, uint32_t shape)
{
    return remove_manifolds(w, body, shape, REMOVE_SHAPE);
}

spx_result spx_contacts_refilter_shape(spx_world* w, uint32_t body, uint32_t shape)
{
    return remove_manifolds(w, body, shape, REFILTER_SHAPE);
}

void spx_contacts_forget_body(spx_world* w, uint32_t body)
{
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        spx_contact* m = &w->contacts.list[k];
        if (m->body_a == body || m->body_b == body) m->reusable = false;
    }
}

void spx_contacts_reserve_mesh_pairs(spx_contacts* c, const spx_allocator* al)
{
    if (c->mesh_pairs) return;
    const size_t bytes = 2048u * spx_manifold_mesh_mesh_pair_bytes(); /* 2,048 pairs, some 400 kB */
    c->mesh_pairs = spx_alloc(al, bytes, 16);
    c->mesh_pairs_bytes = c->mesh_pairs ? bytes : 0;
}

void spx_contacts_free(spx_contacts* c, const spx_allocator* al)
{
    spx_free(al, c->mesh_pairs, c->mesh_pairs_bytes);
    spx_free(al, c->list, sizeof(spx_contact) * (size_t)c->capacity);
    spx_free(al, c->prev, sizeof(spx_contact) * (size_t)c->prev_capacity);
    spx_free(al, c->begin, sizeof(spx_contact_event) * (size_t)c->begin_capacity);
    spx_free(al, c->end, sizeof(spx_contact_event) * (size_t)c->end_capacity);
    spx_free(al, c->pending_end, sizeof(spx_contact_event) * (size_t)c->pending_end_capacity);
    spx_free(al, c->hits, sizeof(spx_contact_hit_event) * (size_t)c->hit_capacity);
    spx_free(al, c->spin, sizeof(float) * (size_t)c->spin_capacity);
    spx_free(al, c->poses, sizeof(spx_contact_pose) * (size_t)c->poses_capacity);
}
