/* Debug drawing: read only, in slot and manifold order, so one state always draws the same calls. */
#include "math/glm_bridge.h"
#include "world.h"
#include "query_index.h"
#include "geometry/hull.h"
#include "geometry/mesh.h"
#include "geometry/obb_tree.h"
#include <sepax/debug_draw.h>
#include <math.h>

#define SPX_DEBUG_DRAW_COOKIE 0x44524157u /* "DRAW" */

SPX_API spx_debug_draw spx_default_debug_draw(void)
{
    spx_debug_draw d;
    memset(&d, 0, sizeof d);
    d.draw_shapes = true;
    d.axis_length = 0.3f;
    d.normal_length = 0.3f;
    d.point_size = 5.0f;
    d.internal_cookie = SPX_DEBUG_DRAW_COOKIE;
    return d;
}

/* What one draw call needs besides the table: the drawing bounds as a box, when used. */
typedef struct drawing {
    const spx_world* w;
    const spx_debug_draw* d;
    bool bounded;
    spx_aabb view;
} drawing;

static bool in_view(const drawing* g, const spx_aabb* box) { return !g->bounded || spx_aabb_overlap(&g->view, box); }

static bool point_in_view(const drawing* g, vec3s p)
{
    const spx_aabb box = { { p.x, p.y, p.z }, { p.x, p.y, p.z } };
    return in_view(g, &box);
}

static bool segment_in_view(const drawing* g, vec3s a, vec3s b)
{
    const spx_aabb box = { { fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z) },
                           { fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z) } };
    return in_view(g, &box);
}

static void segment(const drawing* g, vec3s a, vec3s b, uint32_t color)
{
    if (g->d->draw_segment && segment_in_view(g, a, b))
        g->d->draw_segment(spx_from_glm_vec3(a), spx_from_glm_vec3(b), color, g->d->context);
}

static void point(const drawing* g, vec3s p, uint32_t color)
{
    if (g->d->draw_point && point_in_view(g, p))
        g->d->draw_point(spx_from_glm_vec3(p), g->d->point_size, color, g->d->context);
}

static void bounds(const drawing* g, const spx_aabb* box, uint32_t color)
{
    if (g->d->draw_bounds && in_view(g, box))
        g->d->draw_bounds(spx_v3(box->min[0], box->min[1], box->min[2]), spx_v3(box->max[0], box->max[1], box->max[2]),
                          color, g->d->context);
}

/* Three axes of the frame at p turned by q, `length` long. */
static void axes(const drawing* g, vec3s p, versors q, float length)
{
    static const uint32_t colors[3] = { SPX_COLOR_AXIS_X, SPX_COLOR_AXIS_Y, SPX_COLOR_AXIS_Z };
    for (int k = 0; k < 3; ++k) {
        vec3s e = glms_vec3_zero();
        e.raw[k] = length;
        segment(g, p, glms_vec3_add(p, glms_quat_rotatev(q, e)), colors[k]);
    }
}

static spx_transform compose(const spx_body* b, const spx_transform* local)
{
    spx_transform t;
    const versors lq = { { local->q.x, local->q.y, local->q.z, local->q.w } };
    t.p = spx_from_glm_vec3(glms_vec3_add(b->origin, glms_quat_rotatev(b->rotation, spx_to_glm_vec3(local->p))));
    const versors q = glms_quat_mul(b->rotation, lq);
    t.q = (spx_quat){ q.x, q.y, q.z, q.w };
    return t;
}

/* Through the OBB tree: a node outside the view is skipped whole. */
static void mesh_triangles(const drawing* g, const spx_mesh* m, const spx_transform* pose, const spx_debug_shape* info)
{
    const versors q = { { pose->q.x, pose->q.y, pose->q.z, pose->q.w } };
    const mat3s r = glms_quat_mat3(q);
    const vec3s p = spx_to_glm_vec3(pose->p);
    uint32_t stack[2 * 160]; /* a descent holds at most one node a level and its sibling */
    uint32_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const spx_obb_node* node = &m->nodes[stack[--top]];
        if (g->bounded) {
            /* The node's box turned into the world, and the axis-aligned box around it. */
            const vec3s c = glms_vec3_add(p, glms_mat3_mulv(r, spx_to_glm_vec3(node->box.center)));
            spx_aabb box;
            for (int i = 0; i < 3; ++i) {
                float e = 0.0f;
                for (int k = 0; k < 3; ++k) {
                    /* World axis i's part of the node's axis k, times its half extent. */
                    const vec3s axis = glms_mat3_mulv(r, spx_to_glm_vec3(node->box.rotation.col[k]));
                    e += fabsf(axis.raw[i]) * (&node->box.half_extents.x)[k];
                }
                box.min[i] = c.raw[i] - e, box.max[i] = c.raw[i] + e;
            }
            if (!spx_aabb_overlap(&g->view, &box)) continue;
        }
        if (!spx_obb_node_is_leaf(node)) {
            if (top + 2 > sizeof stack / sizeof stack[0]) continue; /* deeper than any tree is built */
            stack[top++] = node->first + 1;
            stack[top++] = node->first;
            continue;
        }
        for (uint32_t t = node->first; t < node->first + node->count; ++t) {
            spx_vec3 v[3];
            spx_aabb box = { { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
            for (int k = 0; k < 3; ++k) {
                const vec3s w = glms_vec3_add(p, glms_mat3_mulv(r, spx_to_glm_vec3(m->triangles[t].v[k])));
                v[k] = spx_from_glm_vec3(w);
                for (int i = 0; i < 3; ++i)
                    box.min[i] = fminf(box.min[i], w.raw[i]), box.max[i] = fmaxf(box.max[i], w.raw[i]);
            }
            if (in_view(g, &box)) g->d->draw_triangle(v, m->source[t], info, g->d->context);
        }
    }
}

/* A hull's edges as segments, at the pose of its frame. */
static void hull_edges(const drawing* g, const spx_hull* h, const spx_transform* pose, uint32_t color)
{
    const versors q = spx_to_glm_quat(pose->q);
    const vec3s p = spx_to_glm_vec3(pose->p);
    const spx_hull_view* v = &h->view;
    for (uint32_t e = 0; e < v->edge_count; ++e) {
        const spx_hull_edge* edge = &v->edges[e];
        const vec3s a = glms_vec3_add(p, glms_quat_rotatev(q, spx_to_glm_vec3(v->vertices[edge->corner[0]])));
        const vec3s c = glms_vec3_add(p, glms_quat_rotatev(q, spx_to_glm_vec3(v->vertices[edge->corner[1]])));
        segment(g, a, c, color);
    }
}

static uint32_t shape_color(const spx_body* b, const spx_body_shape* s)
{
    if (s->sensor) return SPX_COLOR_SENSOR;
    if (b->type == SPX_BODY_STATIC) return SPX_COLOR_STATIC;
    if (b->type == SPX_BODY_KINEMATIC) return SPX_COLOR_KINEMATIC;
    return b->awake ? SPX_COLOR_DYNAMIC : SPX_COLOR_SLEEPING;
}

static void draw_shape(const drawing* g, uint32_t i, uint32_t k)
{
    const spx_body* b = &g->w->bodies[i];
    const spx_body_shape* s = &b->shapes[k];
    const spx_debug_draw* d = g->d;
    spx_aabb box;
    const bool finite = spx_query_shape_bounds(b, s, &box);
    if (!finite || !in_view(g, &box)) return; /* a quarantined pose has no place to draw */
    if (d->draw_shape_bounds) bounds(g, &box, SPX_COLOR_SHAPE_BOUNDS);
    if (!d->draw_shapes) return;
    spx_debug_shape info;
    info.shape = spx_world_shape_id(g->w, i, k);
    info.body = spx_world_body_id(g->w, i);
    info.body_type = b->type;
    info.awake = b->awake && b->type != SPX_BODY_STATIC;
    info.sensor = s->sensor;
    info.user_data = s->user_data;
    info.color = shape_color(b, s);
    if (s->type == SPX_SHAPE_BOX) {
        if (!d->draw_box) return;
        const spx_transform pose = compose(b, &s->local);
        d->draw_box(&pose, spx_from_glm_vec3(s->half_extents), &info, d->context);
    } else if (s->type == SPX_SHAPE_MESH) {
        const spx_transform pose = compose(b, &s->mesh_local);
        if (d->draw_mesh) d->draw_mesh(s->mesh, &pose, &info, d->context);
        else if (d->draw_triangle) mesh_triangles(g, s->mesh, &pose, &info);
    } else if (s->type == SPX_SHAPE_SPHERE || s->type == SPX_SHAPE_CAPSULE) {
        if (!d->draw_round) return;
        const spx_transform pose = compose(b, &s->local);
        d->draw_round(&pose, s->round_radius, s->type == SPX_SHAPE_CAPSULE ? s->half_height : 0.0f, &info, d->context);
    } else if (s->type == SPX_SHAPE_HULL) {
        const spx_transform pose = compose(b, &s->local);
        if (d->draw_hull) d->draw_hull(s->hull, &pose, &info, d->context);
        else hull_edges(g, s->hull, &pose, info.color);
    }
}

static void draw_contacts(const drawing* g)
{
    const spx_world* w = g->w;
    const spx_debug_draw* d = g->d;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
        const mat3s ra = spx_body_matrix(a), rb = spx_body_matrix(b);
        for (int p = 0; p < c->point_count; ++p) {
            /* As spx_body_get_contacts: the middle of the point's two ends, each carried by its body. */
            const vec3s on_a = glms_vec3_add(a->center, glms_mat3_mulv(ra, c->points[p].made_anchor_a));
            const vec3s on_b = glms_vec3_add(b->center, glms_mat3_mulv(rb, c->points[p].made_anchor_b));
            const vec3s at = glms_vec3_scale(glms_vec3_add(on_a, on_b), 0.5f);
            const float gap = c->points[p].separation;
            if (d->draw_contacts)
                point(g, at,
                      !c->enabled   ? SPX_COLOR_CONTACT_DISABLED
                      : gap <= 0.0f ? SPX_COLOR_CONTACT_TOUCHING
                                    : SPX_COLOR_CONTACT_SPECULATIVE);
            if (d->draw_contact_normals)
                segment(g, at, glms_vec3_add(at, glms_vec3_scale(c->normal, d->normal_length)),
                        SPX_COLOR_CONTACT_NORMAL);
        }
    }
}

static void draw_joints(const drawing* g)
{
    const spx_world* w = g->w;
    const spx_joints* js = &w->joints;
    for (uint32_t slot = 0; slot < js->slots; ++slot) {
        const spx_joint* j = &js->list[slot];
        if (!j->alive) continue;
        vec3s anchor[2];
        for (int k = 0; k < 2; ++k) {
            const bool world = j->body[k] == SPX_NO_BODY;
            const spx_body* b = world ? NULL : &w->bodies[j->body[k]];
            const vec3s centre = world ? glms_vec3_zero() : b->center;
            const versors q = world ? glms_quat_identity() : b->rotation;
            anchor[k] = glms_vec3_add(centre, glms_quat_rotatev(q, j->local_anchor[k]));
            if (!world) segment(g, centre, anchor[k], SPX_COLOR_JOINT);
            axes(g, anchor[k], glms_quat_mul(q, j->local_frame[k]), g->d->axis_length);
        }
        /* A distance joint's rope, a slider's travel: the line between the two anchors. */
        segment(g, anchor[0], anchor[1], SPX_COLOR_JOINT);
        if (j->type == SPX_JOINT_DRAG) segment(g, anchor[1], j->target, SPX_COLOR_JOINT);
        point(g, anchor[0], SPX_COLOR_JOINT);
        point(g, anchor[1], SPX_COLOR_JOINT);
    }
}

static bool finite3(spx_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

SPX_API spx_result spx_world_draw(const spx_world* w, const spx_debug_draw* d)
{
    if (!w || !d) return SPX_ERR_INVALID_ARGUMENT;
    if (d->internal_cookie != SPX_DEBUG_DRAW_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    if (!isfinite(d->axis_length) || !isfinite(d->normal_length) || !isfinite(d->point_size)) return SPX_ERR_NOT_FINITE;
    if (d->axis_length < 0.0f || d->normal_length < 0.0f || !(d->point_size > 0.0f)) return SPX_ERR_INVALID_ARGUMENT;
    drawing g = { w, d, d->use_drawing_bounds, { { 0, 0, 0 }, { 0, 0, 0 } } };
    if (g.bounded) {
        if (!finite3(d->drawing_lower) || !finite3(d->drawing_upper)) return SPX_ERR_NOT_FINITE;
        if (d->drawing_lower.x > d->drawing_upper.x || d->drawing_lower.y > d->drawing_upper.y ||
            d->drawing_lower.z > d->drawing_upper.z)
            return SPX_ERR_INVALID_ARGUMENT;
        g.view = (spx_aabb){ { d->drawing_lower.x, d->drawing_lower.y, d->drawing_lower.z },
                             { d->drawing_upper.x, d->drawing_upper.y, d->drawing_upper.z } };
    }
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        if (!b->alive) continue;
        if (d->draw_shapes || d->draw_shape_bounds)
            for (uint32_t k = 0; k < b->shape_count; ++k) draw_shape(&g, i, k);
        if (d->draw_broad_phase) {
            spx_aabb box;
            if (spx_pair_finder_get_box(w->pairs, i, &box)) bounds(&g, &box, SPX_COLOR_BROAD_PHASE);
        }
        if (d->draw_body_frames) axes(&g, b->origin, b->rotation, d->axis_length);
    }
    if (d->draw_contacts || d->draw_contact_normals) draw_contacts(&g);
    if (d->draw_joints) draw_joints(&g);
    return SPX_OK;
}
