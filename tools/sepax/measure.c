/* sepax (the program): measuring a scene with the public queries (see measure.h). Every shape of
 * every body becomes a piece in world space; pieces whose bounding spheres meet (a sweep along x)
 * are asked for their penetration and contact points: box-box by spx_penetration_obb_obb and
 * spx_manifold_obb_obb, box-mesh by spx_manifold_obb_mesh, mesh-mesh by spx_penetration_mesh_mesh; a sphere
 * or capsule (as a capsule: a sphere's two ends meet) by the capsule queries of round.h; a convex hull
 * by the hull queries of hull.h (or round.h's capsule-hull). */
#include "measure.h"
#include "tool_math.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 0.01f     /* m: points this far apart still count as touching, for pictures */
#define MESH_CONTACTS 64 /* triangle pairs read a mesh-mesh pair (the deepest of them counts) */

typedef struct piece {
    uint32_t body;
    const scene_shape* shape;
    spx_obb box;                 /* BOX */
    spx_mesh_instance* instance; /* MESH */
    bool round;                  /* SPHERE, CAPSULE: */
    spx_capsule capsule;         /* its core and radius (a sphere's ends at its centre) */
    spx_placed_hull hull;        /* HULL when hull.hull is set */
    spx_vec3 center;             /* bounding sphere */
    float radius;
    bool dynamic;
} piece;

typedef struct sweep_entry {
    float low_x;
    uint32_t piece;
} sweep_entry;

struct measure {
    piece* pieces;
    uint32_t count;
    sweep_entry* order; /* pieces sorted by the low x of their sphere */
    measure_point* points;
    uint32_t point_count, point_capacity;
    bool has_ground;
    float ground_y;
};

void measure_destroy(measure* m)
{
    if (!m) return;
    for (uint32_t i = 0; i < m->count; ++i) spx_mesh_instance_destroy(m->pieces[i].instance);
    free(m->pieces);
    free(m->order);
    free(m->points);
    free(m);
}

/* Highest y of a piece at its current pose (the top of a static ground). */
static float piece_top(const piece* p)
{
    float top = -FLT_MAX;
    if (p->round) return fmaxf(p->capsule.p[0].y, p->capsule.p[1].y) + p->capsule.radius;
    if (p->hull.hull) {
        spx_hull_info info;
        spx_hull_get_info(p->hull.hull, &info);
        for (uint32_t i = 0; i < info.corner_count; ++i) {
            spx_vec3 c;
            spx_hull_get_corner(p->hull.hull, i, &c);
            const spx_mat3* r = &p->hull.rotation;
            top = fmaxf(top, p->hull.position.y + r->col[0].y * c.x + r->col[1].y * c.y + r->col[2].y * c.z);
        }
        return top;
    }
    if (!p->instance) {
        spx_vec3 c[8];
        spx_obb_get_corners(&p->box, c);
        for (int k = 0; k < 8; ++k)
            if (c[k].y > top) top = c[k].y;
        return top;
    }
    spx_mesh_info info;
    const spx_mesh* mesh_of_info = NULL;
    spx_mesh_instance_get_mesh(p->instance, &mesh_of_info);
    spx_mesh_get_info(mesh_of_info, &info);
    for (uint32_t t = 0; t < info.triangle_count; ++t) {
        spx_triangle tri;
        if (spx_mesh_instance_get_triangle(p->instance, t, &tri, NULL) != SPX_OK) continue;
        for (int k = 0; k < 3; ++k)
            if (tri.v[k].y > top) top = tri.v[k].y;
    }
    return top;
}

/* Moves every piece to its body's current pose. */
static bool place(measure* m, const scene* s)
{
    for (uint32_t i = 0; i < m->count; ++i) {
        piece* p = &m->pieces[i];
        spx_transform body;
        if (spx_body_get_transform(s->w, s->ids[p->body], &body) != SPX_OK) return false;
        spx_transform t = tm_compose(body, p->shape->local);
        p->center = t.p;
        if (p->round) {
            const float h = p->shape->type == SPX_SHAPE_CAPSULE ? p->shape->half_height : 0.0f;
            p->capsule.p[0] = tm_apply(t, spx_v3(0.0f, -h, 0.0f));
            p->capsule.p[1] = tm_apply(t, spx_v3(0.0f, h, 0.0f));
            p->capsule.radius = p->shape->radius;
        } else if (p->hull.hull) {
            spx_obb frame; /* the pose as a box's axes */
            if (spx_obb_from_quat(t.p, spx_v3(1, 1, 1), t.q, &frame) != SPX_OK) return false;
            p->hull.position = t.p, p->hull.rotation = frame.rotation;
        } else if (p->instance) {
            if (spx_mesh_instance_set_pose(p->instance, &t) != SPX_OK) return false;
        } else if (spx_obb_from_quat(t.p, p->shape->half_extents, t.q, &p->box) != SPX_OK) {
            return false;
        }
    }
    return true;
}

measure* measure_create(const scene* s)
{
    measure* m = calloc(1, sizeof *m);
    if (!m) return NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->body_count; ++i) n += s->bodies[i].shape_count;
    m->pieces = calloc(n ? n : 1, sizeof *m->pieces);
    m->order = calloc(n ? n : 1, sizeof *m->order);
    if (!m->pieces || !m->order) return measure_destroy(m), NULL;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        const scene_body* b = &s->bodies[i];
        for (uint32_t k = 0; k < b->shape_count; ++k) {
            piece* p = &m->pieces[m->count++];
            p->body = i;
            p->shape = &s->shapes[b->first_shape + k];
            p->dynamic = b->def.type == SPX_BODY_DYNAMIC;
            if (p->shape->type == SPX_SHAPE_BOX) {
                p->radius = tm_length(p->shape->half_extents);
                continue;
            }
            if (p->shape->type == SPX_SHAPE_SPHERE || p->shape->type == SPX_SHAPE_CAPSULE) {
                p->round = true;
                p->radius = p->shape->radius + (p->shape->type == SPX_SHAPE_CAPSULE ? p->shape->half_height : 0.0f);
                continue;
            }
            if (p->shape->type == SPX_SHAPE_HULL) {
                p->hull.hull = s->hulls[p->shape->hull].hull;
                spx_hull_info info;
                if (spx_hull_get_info(p->hull.hull, &info) != SPX_OK) return measure_destroy(m), NULL;
                for (uint32_t c = 0; c < info.corner_count; ++c) {
                    spx_vec3 v;
                    spx_hull_get_corner(p->hull.hull, c, &v);
                    p->radius = fmaxf(p->radius, tm_length(v));
                }
                continue;
            }
            const scene_mesh* mesh = &s->meshes[p->shape->mesh];
            p->radius = mesh->radius_bound;
            spx_mesh_instance_def def = spx_default_mesh_instance_def(); /* posed before each measure */
            def.mesh = mesh->mesh;
            if (spx_mesh_instance_create(&def, &p->instance) != SPX_OK) return measure_destroy(m), NULL;
        }
    }
    if (!place(m, s)) return measure_destroy(m), NULL;
    m->has_ground = s->ground_given;
    m->ground_y = s->ground_y;
    if (!m->has_ground) {
        /* The lowest top among the static bodies: a ledge above the floor does not count as ground. */
        float lowest = FLT_MAX;
        uint32_t i = 0;
        while (i < m->count) {
            uint32_t body = m->pieces[i].body;
            float top = -FLT_MAX;
            for (; i < m->count && m->pieces[i].body == body; ++i)
                if (s->bodies[body].def.type == SPX_BODY_STATIC && !m->pieces[i].shape->sensor) {
                    float t = piece_top(&m->pieces[i]);
                    if (t > top) top = t;
                }
            if (top > -FLT_MAX && top < lowest) lowest = top;
        }
        if (lowest < FLT_MAX) m->has_ground = true, m->ground_y = lowest;
    }
    return m;
}

static bool add_point(measure* m, spx_vec3 point, float depth)
{
    if (m->point_count == m->point_capacity) {
        uint32_t next = m->point_capacity ? 2 * m->point_capacity : 256;
        measure_point* p = realloc(m->points, next * sizeof *p);
        if (!p) return false;
        m->points = p, m->point_capacity = next;
    }
    m->points[m->point_count++] = (measure_point){ point, depth };
    return true;
}

/* The deepest point of `count` manifolds into *depth, whether any has a point into *touching, and
   their points into m when with_points. */
static void take_manifolds(measure* m, const spx_manifold* man, uint32_t count, bool with_points, float* depth,
                           bool* touching)
{
    for (uint32_t i = 0; i < count; ++i)
        for (int k = 0; k < man[i].point_count; ++k) {
            *touching = true;
            if (man[i].points[k].depth > *depth) *depth = man[i].points[k].depth;
            if (with_points) add_point(m, man[i].points[k].point, man[i].points[k].depth);
        }
}

/* Depth and points of one pair; false when a query failed. */
static bool measure_pair(measure* m, const piece* a, const piece* b, bool with_points, float* depth, bool* touching)
{
    *depth = 0.0f;
    *touching = false;
    if (a->hull.hull || b->hull.hull) {
        /* The hull first, or the capsule before it. */
        const piece* h = a->hull.hull ? a : b;
        const piece* o = h == a ? b : a;
        spx_manifold man[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 1;
        spx_result r;
        if (o->round) r = spx_manifold_capsule_hull(&o->capsule, &h->hull, MARGIN, &man[0]);
        else if (o->hull.hull) r = spx_manifold_hull_hull(&h->hull, &o->hull, MARGIN, &man[0]);
        else if (o->instance)
            r = spx_manifold_hull_mesh(&h->hull, o->instance, MARGIN, man, SPX_MAX_MESH_MANIFOLDS, &count);
        else r = spx_manifold_hull_obb(&h->hull, &o->box, MARGIN, &man[0]);
        if (r != SPX_OK) return false;
        take_manifolds(m, man, count, with_points, depth, touching);
        return true;
    }
    if (b->round && !a->round) {
        const piece* t = a;
        a = b, b = t;
    }
    if (a->round) {
        spx_manifold man[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 1;
        spx_result r;
        if (b->round) r = spx_manifold_capsule_capsule(&a->capsule, &b->capsule, MARGIN, &man[0]);
        else if (b->instance)
            r = spx_manifold_capsule_mesh(&a->capsule, b->instance, MARGIN, man, SPX_MAX_MESH_MANIFOLDS, &count);
        else r = spx_manifold_capsule_obb(&a->capsule, &b->box, MARGIN, &man[0]);
        if (r != SPX_OK) return false;
        take_manifolds(m, man, count, with_points, depth, touching);
        return true;
    }
    if (!a->instance && b->instance) {
        const piece* t = a;
        a = b, b = t;
    }
    if (!a->instance && !b->instance) {
        spx_penetration pen;
        if (spx_penetration_obb_obb(&a->box, &b->box, &pen) != SPX_OK) return false;
        if (pen.overlapping) *depth = pen.depth;
        spx_manifold man;
        if (spx_manifold_obb_obb(&a->box, &b->box, MARGIN, &man) != SPX_OK) return false;
        *touching = man.point_count > 0;
        for (int k = 0; with_points && k < man.point_count; ++k) add_point(m, man.points[k].point, man.points[k].depth);
        return true;
    }
    if (a->instance && !b->instance) {
        spx_manifold man[SPX_MAX_MESH_MANIFOLDS];
        uint32_t count = 0;
        if (spx_manifold_obb_mesh(&b->box, a->instance, MARGIN, man, SPX_MAX_MESH_MANIFOLDS, &count) != SPX_OK)
            return false;
        *touching = count > 0;
        for (uint32_t i = 0; i < count; ++i)
            for (int k = 0; k < man[i].point_count; ++k) {
                if (man[i].points[k].depth > *depth) *depth = man[i].points[k].depth;
                if (with_points) add_point(m, man[i].points[k].point, man[i].points[k].depth);
            }
        return true;
    }
    spx_mesh_contact contacts[MESH_CONTACTS];
    spx_mesh_hit hit;
    if (spx_penetration_mesh_mesh(a->instance, b->instance, contacts, MESH_CONTACTS, &hit) != SPX_OK) return false;
    if (hit.state != SPX_SWEEP_START_OVERLAP) return true;
    *touching = true;
    /* The deepest triangle pair, not hit.depth: that estimate of how far one mesh must move along the
       averaged normal grows large for shallow crossings of a mesh resting on another. */
    for (uint32_t k = 0; k < hit.contacts_written; ++k) {
        if (contacts[k].depth > *depth) *depth = contacts[k].depth;
        if (with_points) add_point(m, contacts[k].point, contacts[k].depth);
    }
    return true;
}

static int compare_low_x(const void* a, const void* b)
{
    const sweep_entry *x = a, *y = b;
    if (x->low_x != y->low_x) return x->low_x < y->low_x ? -1 : 1;
    return x->piece < y->piece ? -1 : x->piece > y->piece; /* a total order: the same sweep every run */
}

bool measure_now(measure* m, const scene* s, bool with_points, measure_result* out)
{
    memset(out, 0, sizeof *out);
    m->point_count = 0;
    if (!place(m, s)) return false;
    for (uint32_t i = 0; i < m->count; ++i)
        m->order[i] = (sweep_entry){ m->pieces[i].center.x - m->pieces[i].radius, i };
    qsort(m->order, m->count, sizeof *m->order, compare_low_x);
    for (uint32_t oi = 0; oi < m->count; ++oi) {
        const piece* a = &m->pieces[m->order[oi].piece];
        float high_x = a->center.x + a->radius + MARGIN;
        for (uint32_t oj = oi + 1; oj < m->count && m->order[oj].low_x <= high_x; ++oj) {
            const piece* b = &m->pieces[m->order[oj].piece];
            /* Shapes the world keeps apart (sensors, filters) may overlap: not a penetration. */
            if (a->body == b->body || (!a->dynamic && !b->dynamic) || a->shape->sensor || b->shape->sensor ||
                !spx_filter_should_collide(a->shape->filter, b->shape->filter))
                continue;
            spx_vec3 d = tm_sub(a->center, b->center);
            float reach = a->radius + b->radius + MARGIN;
            if (tm_dot(d, d) > reach * reach) continue;
            float depth;
            bool touching;
            if (!measure_pair(m, a, b, with_points, &depth, &touching)) return false;
            if (depth > out->deepest) out->deepest = depth;
            out->touching_pairs += touching;
        }
    }
    for (uint32_t k = 0; with_points && k < m->point_count; ++k)
        out->touching_points += m->points[k].depth >= -MEASURE_TOUCH_GAP;
    out->has_ground = m->has_ground;
    out->ground_y = m->ground_y;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        if (s->bodies[i].def.type != SPX_BODY_DYNAMIC) continue;
        ++out->dynamic;
        bool awake = true;
        spx_vec3 com;
        if (spx_body_is_awake(s->w, s->ids[i], &awake) != SPX_OK ||
            spx_body_get_center_of_mass(s->w, s->ids[i], &com) != SPX_OK)
            return false;
        out->sleeping += !awake;
        if (m->has_ground && com.y < m->ground_y) ++out->fallen;
    }
    spx_world_get_kinetic_energy(s->w, &out->kinetic);
    return true;
}

const measure_point* measure_points(const measure* m, uint32_t* count)
{
    *count = m->point_count;
    return m->points;
}
