/* Hulls against triangle meshes: the tree descent (VISIT) of a box holding the hull hands each
 * triangle to the hull-triangle query. See docs/collision.md#hulls-against-triangles-and-meshes. */
#include "hull_mesh.h"
#include "sat_hull_triangle.h"
#include "manifold_group.h"
#include "mesh_descent.h"
#include "sweep_bound.h"
#include "geometry/mesh.h"
#include "geometry/validate.h"
#include <float.h>
#include <stddef.h>
#include <string.h>

#define HULL_MESH_PI 3.14159265358979323846
/* rad: the normal's rounding against an edge's wedge */
#define HULL_WEDGE_SLACK 1e-5
/* A mean of unit normals shorter than this has no direction (they cancel). */
#define HULL_MEAN_NORMAL_MIN 1e-3
/* Pairs a sweep's first pass keeps (~20 KB of stack); more: a second pass. */
#define HULL_GATHER 192

static spx_dvec3 rotate_f(const spx_mat3* r, spx_dvec3 v)
{
    return spx_d3_mad(spx_d3_mad(spx_d3_scale(spx_d3_from(r->col[0]), v.x), spx_d3_from(r->col[1]), v.y),
                      spx_d3_from(r->col[2]), v.z);
}

/* A box holding the placed hull, grown by `grow`, rounded outwards. */
static spx_obb bound_box(const spx_placed_hull* a, double grow)
{
    const spx_hull_view* v = &a->hull->view;
    spx_dvec3 lo = spx_d3(DBL_MAX, DBL_MAX, DBL_MAX), hi = spx_d3(-DBL_MAX, -DBL_MAX, -DBL_MAX);
    for (uint32_t i = 0; i < v->vertex_count; ++i) {
        const spx_dvec3 p = spx_d3_from(v->vertices[i]);
        lo = spx_d3(spx_dmin(lo.x, p.x), spx_dmin(lo.y, p.y), spx_dmin(lo.z, p.z));
        hi = spx_d3(spx_dmax(hi.x, p.x), spx_dmax(hi.y, p.y), spx_dmax(hi.z, p.z));
    }
    const spx_dvec3 mid = spx_d3_scale(spx_d3_add(lo, hi), 0.5), half = spx_d3_scale(spx_d3_sub(hi, lo), 0.5);
    spx_obb box;
    box.center = spx_d3_to_float(spx_d3_add(spx_d3_from(a->position), rotate_f(&a->rotation, mid)));
    box.rotation = a->rotation;
    /* Out: centre rounding and a rotation off by its tolerance must not lose a touching triangle. */
    const double far = fmax(fabs(box.center.x), fmax(fabs(box.center.y), fabs(box.center.z)));
    const double size = half.x + half.y + half.z + grow;
    const double pad = 4.0 * FLT_EPSILON * far + 1e-3 * size + 1e-30;
    const double h[3] = { half.x, half.y, half.z };
    for (int k = 0; k < 3; ++k) {
        const float e = (float)(h[k] + grow + pad);
        (&box.half_extents.x)[k] = e <= FLT_MAX ? e : FLT_MAX;
    }
    return box;
}

/* The world box of `box` moved by d over the interval. */
static spx_obb swept_box(const spx_obb* box, const double d[3])
{
    spx_obb swept;
    memset(&swept, 0, sizeof swept);
    swept.rotation.col[0] = spx_v3(1, 0, 0), swept.rotation.col[1] = spx_v3(0, 1, 0),
    swept.rotation.col[2] = spx_v3(0, 0, 1);
    for (int k = 0; k < 3; ++k) {
        const double h = fabs((&box->rotation.col[0].x)[k]) * box->half_extents.x +
                         fabs((&box->rotation.col[1].x)[k]) * box->half_extents.y +
                         fabs((&box->rotation.col[2].x)[k]) * box->half_extents.z;
        const double c = (&box->center.x)[k];
        const double lo = c - h + fmin(d[k], 0.0), hi = c + h + fmax(d[k], 0.0);
        (&swept.center.x)[k] = (float)(0.5 * (lo + hi));
        const double half = 0.5 * (hi - lo);
        (&swept.half_extents.x)[k] = (float)(half + 4.0 * FLT_EPSILON * (half + fabs(0.5 * (lo + hi))) + 1e-30);
    }
    return swept;
}

static spx_result check(const spx_placed_hull* a, const spx_mesh_instance* b, const void* out)
{
    if (!a || !b || !out || !a->hull) return SPX_ERR_INVALID_ARGUMENT;
    return spx_hull_check_placed(a);
}

/* ---- overlap ---- */

typedef struct hull_overlap {
    const spx_placed_hull* a;
    spx_mesh_instance* inst;
    bool hit;
} hull_overlap;

static bool visit_overlap(void* context, uint32_t t)
{
    hull_overlap* ho = context;
    spx_triangle_view tv;
    spx_hull_query q;
    spx_hull_query_triangle(&ho->inst->triangles[t], &tv, &q);
    ho->hit = spx_hull_query_overlap(ho->a, &q);
    return ho->hit;
}

SPX_API spx_result spx_overlap_hull_mesh(const spx_placed_hull* a, spx_mesh_instance* b, bool* out_overlap)
{
    const spx_result r = check(a, b, out_overlap);
    if (r != SPX_OK) return r;
    hull_overlap ho = { a, b, false };
    const spx_obb box = bound_box(a, 0.0);
    spx_descend_visit(&box, b, visit_overlap, &ho);
    *out_overlap = ho.hit;
    return SPX_OK;
}

/* ---- sweep and penetration ---- */

typedef struct hull_sweep {
    const spx_placed_hull* a;
    spx_mesh_instance* inst;
    spx_vec3 va, vb;
    float tmax;
    double margin; /* m: the hull taken as grown by it (spx_hull_query_sweep_margin) */
    /* First pass: the first pair and the pairs kept for the contact set. */
    bool have, any_start;
    spx_mesh_contact best;
    uint32_t gather_count;
    bool overflow;
    /* Second pass (on overflow only). */
    bool collecting;
    float limit;
    spx_mesh_contact* contacts;
    uint32_t capacity, count, tie_count;
    spx_dvec3 normal_sum, point_sum, tie_normal_sum, tie_point_sum;
    spx_dvec3 depth_normal;
    double hull_top; /* hull's highest projection on depth_normal */
    double depth;
    spx_gathered gather[HULL_GATHER]; /* last: not cleared, read only below gather_count */
} hull_sweep;

/* Earlier first; at the start deeper first; ties to the lower triangle number. */
static bool better(const spx_mesh_contact* c, bool start, const hull_sweep* hs)
{
    if (!hs->have) return true;
    if (start != hs->any_start) return start;
    if (start) return c->depth > hs->best.depth || (c->depth == hs->best.depth && c->triangle_b < hs->best.triangle_b);
    return c->time < hs->best.time || (c->time == hs->best.time && c->triangle_b < hs->best.triangle_b);
}

/* The pair's contact and whether it overlaps at t = 0; false: a miss. */
static bool pair_sweep(const hull_sweep* hs, uint32_t t, spx_mesh_contact* c, bool* start)
{
    spx_triangle_view tv;
    spx_hull_query q;
    spx_hull_query_triangle(&hs->inst->triangles[t], &tv, &q);
    spx_sweep_hit h;
    spx_hull_query_sweep_margin(hs->a, hs->va, &q, hs->vb, hs->tmax, hs->margin, &h);
    if (h.state == SPX_SWEEP_MISS) return false;
    *start = h.state == SPX_SWEEP_START_OVERLAP;
    *c = (spx_mesh_contact){ .point = h.point,
                             .normal = h.normal,
                             .time = *start ? 0.0f : h.time,
                             .depth = *start ? h.depth : 0.0f,
                             .triangle_a = SPX_NO_TRIANGLE,
                             .triangle_b = hs->inst->mesh->source[t],
                             .feature_a = h.feature_a,
                             .feature_b = h.feature_b };
    return true;
}

/* A pair of the contact set: written, counted, summed. */
static void accept(hull_sweep* hs, const spx_mesh_contact* c, uint32_t t)
{
    if (hs->count < hs->capacity) hs->contacts[hs->count] = *c;
    ++hs->count;
    hs->normal_sum = spx_d3_add(hs->normal_sum, spx_d3_from(c->normal));
    hs->point_sum = spx_d3_add(hs->point_sum, spx_d3_from(c->point));
    if (!hs->any_start && c->time == hs->best.time) {
        ++hs->tie_count;
        hs->tie_normal_sum = spx_d3_add(hs->tie_normal_sum, spx_d3_from(c->normal));
        hs->tie_point_sum = spx_d3_add(hs->tie_point_sum, spx_d3_from(c->point));
    }
    (void)t;
}

static bool in_set(const hull_sweep* hs, const spx_mesh_contact* c, bool start)
{
    return hs->any_start ? start : c->time <= hs->limit;
}

static bool visit_sweep(void* context, uint32_t t)
{
    hull_sweep* hs = context;
    spx_mesh_contact c;
    bool start;
    if (!pair_sweep(hs, t, &c, &start)) return false;
    if (hs->collecting) {
        if (in_set(hs, &c, start)) accept(hs, &c, t);
        return false;
    }
    if (better(&c, start, hs)) {
        hs->have = true;
        hs->any_start = hs->any_start || start;
        hs->best = c;
    }
    if (hs->gather_count < HULL_GATHER) hs->gather[hs->gather_count++] = (spx_gathered){ c, SPX_NO_TRIANGLE, t, start };
    else hs->overflow = true;
    return false;
}

/* How far the triangle must move along the depth normal to clear the hull. */
static double pair_depth(const hull_sweep* hs, uint32_t t)
{
    const spx_triangle* tri = &hs->inst->triangles[t];
    double lo = DBL_MAX;
    for (int k = 0; k < 3; ++k) lo = spx_dmin(lo, spx_d3_dot(spx_d3_from(tri->v[k]), hs->depth_normal));
    return hs->hull_top - lo;
}

static bool visit_depth(void* context, uint32_t t)
{
    hull_sweep* hs = context;
    spx_mesh_contact c;
    bool start;
    if (pair_sweep(hs, t, &c, &start) && start) hs->depth = spx_dmax(hs->depth, pair_depth(hs, t));
    return false;
}

/* ---- a descent pruned by a lower bound on the time ---- */

/* Steps of conservative advancement past a plane. */
#define HULL_ADVANCE_STEPS 2

/* The hull's bounding sphere moving against the mesh, grown for rounding; what it cannot reach before a
   time, the hull cannot. */
typedef struct hull_bound {
    spx_dvec3 center, velocity;
    double reach, speed, tmax;
} hull_bound;

/* From q to a tree node's box, less the box's rounding. */
static double box_distance_below(const void* piece, spx_dvec3 q)
{
    const spx_world_box* w = piece;
    double d2 = 0.0, size = 0.0;
    for (int i = 0; i < 3; ++i) {
        const double along = (q.x - w->center[0]) * w->axis[i][0] + (q.y - w->center[1]) * w->axis[i][1] +
                             (q.z - w->center[2]) * w->axis[i][2];
        const double out = fabs(along) - w->half[i];
        if (out > 0.0) d2 += out * out;
        size += fabs(along) + w->half[i];
    }
    return sqrt(d2) - 1e-6 * size;
}

typedef double (*hull_distance)(const void* piece, spx_dvec3 q);

/* Conservative advancement from `time`: distance(q) never exceeds the distance from q to the piece, so
   the sphere cannot touch it sooner. INFINITY: not within tmax. */
static inline double advance(const hull_bound* o, double time, hull_distance distance, const void* piece)
{
    for (int step = 0; step < HULL_ADVANCE_STEPS && time <= o->tmax; ++step) {
        const double d = distance(piece, spx_d3_mad(o->center, o->velocity, time));
        if (d <= o->reach) return time;
        if (!(o->speed > 0.0)) return INFINITY;
        time += (d - o->reach) / o->speed;
    }
    return time <= o->tmax ? time : INFINITY;
}

static double node_lower(const hull_bound* o, const spx_world_box* w) { return advance(o, 0.0, box_distance_below, w); }

/* A triangle's corners, unit normal and edges' outward unit normals in its plane. */
typedef struct hull_face {
    spx_dvec3 v[3], n, side[3];
} hull_face;

/* From q to the triangle: its plane's distance and, within the plane, the farthest any edge's outer side
   is (the two at right angles). */
static double triangle_distance_below(const void* piece, spx_dvec3 q)
{
    const hull_face* f = piece;
    const double h = spx_d3_dot(spx_d3_sub(q, f->v[0]), f->n);
    double out = 0.0;
    for (int k = 0; k < 3; ++k) out = spx_dmax(out, spx_d3_dot(spx_d3_sub(q, f->v[k]), f->side[k]));
    return sqrt(h * h + out * out);
}

/* The triangle's plane first (the sphere reaches it by a formula), then conservative advancement. */
static double triangle_lower(const hull_bound* o, const spx_triangle* tri)
{
    hull_face f;
    for (int k = 0; k < 3; ++k) f.v[k] = spx_d3_from(tri->v[k]);
    const spx_dvec3 n = spx_d3_cross(spx_d3_sub(f.v[1], f.v[0]), spx_d3_sub(f.v[2], f.v[0]));
    const double len = spx_d3_len(n);
    if (!(len > 0.0)) return 0.0;
    f.n = spx_d3_scale(n, 1.0 / len);
    double s = spx_d3_dot(spx_d3_sub(o->center, f.v[0]), f.n), vn = spx_d3_dot(o->velocity, f.n);
    if (s < 0.0) s = -s, vn = -vn;
    double time = 0.0;
    if (s > o->reach) {
        if (vn >= 0.0) return INFINITY;
        time = (s - o->reach) / -vn;
    }
    for (int k = 0; k < 3; ++k) {
        const spx_dvec3 side = spx_d3_cross(spx_d3_sub(f.v[(k + 1) % 3], f.v[k]), f.n); /* out, wound about n */
        const double s2 = spx_d3_len2(side);
        f.side[k] = s2 > 0.0 ? spx_d3_scale(side, 1.0 / sqrt(s2)) : spx_d3(0, 0, 0);
    }
    return advance(o, time, triangle_distance_below, &f);
}

/* Nothing can join the contact set after this time. */
static double hull_prune(const hull_sweep* hs)
{
    if (!hs->have) return hs->tmax;
    return hs->any_start ? 0.0 : spx_window_end(hs->best.time, hs->tmax) + 1e-6 * hs->tmax;
}

/* Insertion sort: a few dozen pairs. */
static void sort_by_triangle(spx_gathered* g, uint32_t n)
{
    for (uint32_t i = 1; i < n; ++i) {
        const spx_gathered x = g[i];
        uint32_t j = i;
        for (; j > 0 && g[j - 1].ib > x.ib; --j) g[j] = g[j - 1];
        g[j] = x;
    }
}

/* Nodes and triangles waiting, least bound on top (~6 KB of stack); more: the plain pass. */
#define HULL_HEAP 384
#define HULL_TRIANGLE 0x80000000u /* an item's bit for a triangle, else a node */

typedef struct hull_item {
    double lower;
    uint32_t what;
} hull_item;

typedef struct hull_heap {
    hull_item items[HULL_HEAP];
    uint32_t count;
} hull_heap;

static bool heap_push(hull_heap* h, double lower, uint32_t what)
{
    if (h->count == HULL_HEAP) return false;
    uint32_t i = h->count++;
    while (i > 0 && h->items[(i - 1) / 2].lower > lower) {
        h->items[i] = h->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->items[i] = (hull_item){ lower, what };
    return true;
}

static hull_item heap_pop(hull_heap* h)
{
    const hull_item top = h->items[0], last = h->items[--h->count];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->count) break;
        if (c + 1 < h->count && h->items[c + 1].lower < h->items[c].lower) ++c;
        if (!(h->items[c].lower < last.lower)) break;
        h->items[i] = h->items[c];
        i = c;
    }
    if (h->count > 0) h->items[i] = last;
    return top;
}

/* The first pass best first: nodes the swept box reaches (as the plain pass's) and their triangles in the
   order of the time the bounding sphere could first reach them, ending at the first bound past the contact
   window of the first time found: the same first pair and contact set from fewer sweeps, kept back in
   triangle order (the plain pass's leaf order: a node's triangles are a range, the left child's first).
   Exact hulls only: a margin pushes the axes out past the sphere. False, hs as it was: the heap filled. */
static bool bounded_pass(hull_sweep* hs, const spx_obb* swept)
{
    spx_mesh_instance* b = hs->inst;
    const spx_placed_hull* a = hs->a;
    const spx_hull_view* v = &a->hull->view;
    hull_bound o;
    o.center = spx_d3_add(spx_d3_from(a->position), rotate_f(&a->rotation, v->center));
    o.velocity = spx_d3_sub(spx_d3_from(hs->va), spx_d3_from(hs->vb));
    o.speed = spx_d3_len(o.velocity);
    o.tmax = hs->tmax;
    /* Slack for a rotation off orthonormal by its tolerance and for the rounding of positions. */
    const double far = fabs(o.center.x) + fabs(o.center.y) + fabs(o.center.z) + o.speed * o.tmax;
    o.reach = v->radius * (1.0 + 1e-4) + 1e-7 * far + 1e-30;
    const spx_world_box qa = spx_descent_query_box(swept);
    const spx_obb_node* nodes = b->mesh->nodes;
    hull_heap heap;
    heap.count = 0;
    const spx_world_box* root = spx_mesh_instance_node(b, 0);
    if (spx_overlap_box_box_eps(&qa, root, SPX_BOUND_EPS_QUERY)) heap_push(&heap, node_lower(&o, root), 0);
    bool full = false;
    while (heap.count > 0 && !full) {
        const hull_item it = heap_pop(&heap);
        if (it.lower > hull_prune(hs)) break;
        if (it.what & HULL_TRIANGLE) {
            visit_sweep(hs, it.what & ~HULL_TRIANGLE);
            continue;
        }
        const spx_obb_node* n = &nodes[it.what];
        if (spx_obb_node_is_leaf(n)) {
            for (uint32_t t = n->first; t < n->first + n->count && !full; ++t) {
                if (!b->usable[t]) continue;
                const double lower = triangle_lower(&o, &b->triangles[t]);
                if (lower <= hull_prune(hs)) full = !heap_push(&heap, lower, t | HULL_TRIANGLE);
            }
            continue;
        }
        for (uint32_t k = 0; k < 2 && !full; ++k) {
            const spx_world_box* w = spx_mesh_instance_node(b, n->first + k);
            if (!spx_overlap_box_box_faces(&qa, w, SPX_BOUND_EPS_QUERY)) continue;
            const double lower = node_lower(&o, w);
            if (lower <= hull_prune(hs)) full = !heap_push(&heap, lower, n->first + k);
        }
    }
    if (full) {
        memset(&hs->have, 0, offsetof(hull_sweep, gather) - offsetof(hull_sweep, have)); /* as first set */
        return false;
    }
    if (!hs->overflow) sort_by_triangle(hs->gather, hs->gather_count);
    return true;
}

static spx_result hull_mesh_sweep(const spx_placed_hull* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                  spx_vec3 velocity_b, float tmax, double margin, spx_mesh_contact* contacts,
                                  uint32_t capacity, spx_mesh_hit* out)
{
    /* ~25 KB of pairs on the stack, as the box-mesh query. */
    hull_sweep hs;
    memset(&hs, 0, offsetof(hull_sweep, gather));
    hs.a = a, hs.inst = b, hs.va = velocity_a, hs.vb = velocity_b, hs.tmax = tmax, hs.margin = margin;
    const double d[3] = { ((double)velocity_a.x - velocity_b.x) * tmax, ((double)velocity_a.y - velocity_b.y) * tmax,
                          ((double)velocity_a.z - velocity_b.z) * tmax };
    const spx_obb box = bound_box(a, margin);
    const spx_obb swept = swept_box(&box, d);
    if (margin > 0.0 || !bounded_pass(&hs, &swept)) spx_descend_visit(&swept, b, visit_sweep, &hs);
    spx_mesh_hit h;
    memset(&h, 0, sizeof h);
    if (!hs.have) {
        h.state = SPX_SWEEP_MISS;
        *out = h;
        return SPX_OK;
    }
    hs.limit = spx_window_end(hs.best.time, tmax);
    hs.contacts = contacts;
    hs.capacity = capacity;
    hs.collecting = true;
    if (!hs.overflow) {
        for (uint32_t i = 0; i < hs.gather_count; ++i)
            if (in_set(&hs, &hs.gather[i].c, hs.gather[i].start)) accept(&hs, &hs.gather[i].c, hs.gather[i].ib);
    } else {
        spx_descend_visit(&swept, b, visit_sweep, &hs);
    }
    h.first = hs.best;
    h.contact_count = hs.count;
    h.contacts_written = hs.count < capacity ? hs.count : capacity;
    if (hs.any_start) {
        h.state = SPX_SWEEP_START_OVERLAP;
        const double inv = 1.0 / (double)hs.count;
        const spx_dvec3 mean = spx_d3_scale(hs.normal_sum, inv);
        const double len = sqrt(spx_d3_len2(mean));
        const spx_dvec3 n = len >= HULL_MEAN_NORMAL_MIN ? spx_d3_scale(mean, 1.0 / len) : spx_d3_from(hs.best.normal);
        h.normal = spx_d3_to_float(n);
        h.point = spx_d3_to_float(spx_d3_scale(hs.point_sum, inv));
        /* Depth estimate: the most any overlapping triangle must move along the mean normal. */
        hs.depth_normal = n;
        hs.hull_top = -DBL_MAX;
        const spx_hull_view* v = &a->hull->view;
        const spx_dvec3 pa = spx_d3_from(a->position);
        for (uint32_t i = 0; i < v->vertex_count; ++i)
            hs.hull_top = spx_dmax(hs.hull_top,
                                   spx_d3_dot(spx_d3_add(pa, rotate_f(&a->rotation, spx_d3_from(v->vertices[i]))), n));
        hs.depth = 0.0;
        if (!hs.overflow) {
            for (uint32_t i = 0; i < hs.gather_count; ++i)
                if (hs.gather[i].start) hs.depth = spx_dmax(hs.depth, pair_depth(&hs, hs.gather[i].ib));
        } else {
            spx_descend_visit(&swept, b, visit_depth, &hs);
        }
        h.depth = (float)hs.depth;
    } else {
        h.state = SPX_SWEEP_HIT;
        h.time = hs.best.time;
        h.normal = hs.best.normal;
        h.point = hs.best.point;
        if (hs.tie_count > 1) {
            /* All triangles touching at exactly the first time, not the lowest-numbered. */
            const double inv = 1.0 / (double)hs.tie_count;
            const spx_dvec3 mean = spx_d3_scale(hs.tie_normal_sum, inv);
            const double len = sqrt(spx_d3_len2(mean));
            if (len >= HULL_MEAN_NORMAL_MIN) h.normal = spx_d3_to_float(spx_d3_scale(mean, 1.0 / len));
            h.point = spx_d3_to_float(spx_d3_scale(hs.tie_point_sum, inv));
        }
    }
    *out = h;
    return SPX_OK;
}

SPX_API spx_result spx_sweep_hull_mesh(const spx_placed_hull* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                       spx_vec3 velocity_b, float tmax, spx_mesh_contact* contacts, uint32_t capacity,
                                       spx_mesh_hit* out)
{
    if (!contacts && capacity > 0) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check(a, b, out);
    if (r == SPX_ERR_INVALID_ARGUMENT) return r;
    r = spx_first_error(r, spx_check_motion(velocity_a, velocity_b, tmax));
    if (r != SPX_OK) return r;
    return hull_mesh_sweep(a, velocity_a, b, velocity_b, tmax, 0.0, contacts, capacity, out);
}

void spx_sweep_hull_mesh_margin(const spx_placed_hull* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                spx_vec3 velocity_b, float tmax, float margin, spx_mesh_hit* out)
{
    hull_mesh_sweep(a, velocity_a, b, velocity_b, tmax, margin, NULL, 0, out);
}

SPX_API spx_result spx_penetration_hull_mesh(const spx_placed_hull* a, spx_mesh_instance* b, spx_mesh_contact* contacts,
                                             uint32_t capacity, spx_mesh_hit* out)
{
    if (!contacts && capacity > 0) return SPX_ERR_INVALID_ARGUMENT;
    const spx_result r = check(a, b, out);
    if (r != SPX_OK) return r;
    /* At the pose: a sweep of no length. */
    const spx_vec3 still = { 0.0f, 0.0f, 0.0f };
    return hull_mesh_sweep(a, still, b, still, 0.0f, 0.0, contacts, capacity, out);
}

/* ---- manifold ---- */

typedef struct hull_manifold {
    const spx_placed_hull* a;
    spx_mesh_instance* inst;
    double margin;
    spx_dvec3 center; /* the hull's centre in the world */
    float same;       /* hull corner's bonus over a cut: far below any depth */
    spx_group_leaders leaders;
} hull_manifold;

/* May n (hull to triangle) come from the triangle's feature nearest the hull (the surface-edge rule)? */
static bool admitted(const spx_triangle_view* tv, const spx_triangle_edges* edges, spx_dvec3 n, spx_dvec3 center)
{
    const spx_dvec3 d = spx_d3_neg(n);
    double pr[3], top = -INFINITY, size = 0.0;
    for (int k = 0; k < 3; ++k) {
        top = spx_dmax(top, pr[k] = spx_d3_dot(spx_d3_from(tv->vertices[k]), d));
        size = spx_dmax(size, sqrt(spx_d3_len2(spx_d3_sub(spx_d3_from(tv->vertices[k]), tv->view.center))));
    }
    unsigned near = 0;
    for (int k = 0; k < 3; ++k)
        if (top - pr[k] <= 1e-6 * size) near |= 1u << k;
    if (near == 7u) return true;
    if (near == 1u || near == 2u || near == 4u) return (edges->corners & near) != 0;
    const int j = near == 3u ? 0 : (near == 6u ? 1 : 2);
    const double a = edges->angle[j];
    const spx_dvec3 fn = tv->faces[0].normal;
    const double side = spx_d3_dot(spx_d3_sub(center, tv->view.center), fn) >= 0.0 ? 1.0 : -1.0;
    const double wedge = fabs(a) >= SPX_EDGE_OPEN ? HULL_MESH_PI : side * a;
    if (!(wedge > 0.0)) return false; /* flat or concave from the hull's side */
    const spx_dvec3 up = spx_d3_scale(fn, side);
    const double angle = atan2(sqrt(spx_d3_len2(spx_d3_cross(d, up))), spx_d3_dot(d, up));
    return angle <= wedge + HULL_WEDGE_SLACK;
}

/* The hull's manifold with t under that rule, and the mask of hull corners on the face. */
static unsigned triangle_manifold(const hull_manifold* hm, uint32_t t, spx_manifold* out)
{
    const spx_mesh* mesh = hm->inst->mesh;
    spx_triangle_view tv;
    spx_hull_query q;
    spx_hull_query_triangle(&hm->inst->triangles[t], &tv, &q);
    /* Points of a triangle's corners or edges carry its def number in their ids. */
    q.b_salt = (mesh->source[t] + 1u) * 2654435761u;
    const spx_dvec3 fn = tv.faces[0].normal;
    const int front = spx_d3_dot(spx_d3_sub(hm->center, tv.view.center), fn) >= 0.0 ? 0 : 1;
    const spx_dvec3 toward = front == 0 ? spx_d3_neg(fn) : fn; /* the face's normal from hull to triangle */
    q.b_reference = front;
    q.b_reference_cos = SPX_GROUP_COS;
    unsigned corners = spx_hull_query_manifold(hm->a, &q, (float)hm->margin, out);
    if (out->point_count == 0) return 0;
    const spx_dvec3 n = spx_d3_from(out->normal);
    if (spx_d3_dot(n, toward) >= SPX_GROUP_COS) return corners;
    const spx_triangle_edges edges = spx_mesh_edges_unpack(mesh->edges[t]);
    if (admitted(&tv, &edges, n, hm->center)) return corners;
    float deepest = -FLT_MAX;
    for (int i = 0; i < out->point_count; ++i) deepest = fmaxf(deepest, out->points[i].depth);
    q.b_reference_cos = -2.0;
    corners = spx_hull_query_manifold(hm->a, &q, (float)hm->margin, out);
    /* A face far deeper than the least overlap (the hull beside the triangle, not on it): none. */
    double longest = 0.0;
    for (int k = 0; k < 3; ++k)
        longest = spx_dmax(
            longest, sqrt(spx_d3_len2(spx_d3_sub(spx_d3_from(tv.vertices[k]), spx_d3_from(tv.vertices[(k + 1) % 3])))));
    for (int i = 0; i < out->point_count; ++i)
        if (out->points[i].depth > deepest + longest) out->point_count = 0;
    return corners;
}

static void group_start(hull_manifold* hm, spx_vec3 normal)
{
    const spx_dvec3 n = spx_d3_from(normal);
    spx_dvec3 u = fabs(n.x) < 0.57735 ? spx_d3(0, -n.z, n.y) : spx_d3(-n.y, n.x, 0);
    u = spx_d3_scale(u, 1.0 / sqrt(spx_d3_len2(u)));
    const spx_dvec3 v = spx_d3_cross(n, u);
    /* Every gap leans, as for two meshes: capped, deepest corners lost places to gaps. */
    spx_group_init(&hm->leaders.groups[hm->leaders.count++], normal, spx_d3_to_float(u), spx_d3_to_float(v),
                   spx_d3_to_float(hm->center), SPX_GROUP_LEAN_ALL);
}

static bool visit_manifold(void* context, uint32_t t)
{
    hull_manifold* hm = context;
    spx_manifold m;
    const unsigned corners = triangle_manifold(hm, t, &m);
    if (m.point_count == 0) return false;
    const uint32_t g = spx_group_find(hm->leaders.groups, hm->leaders.count, m.normal);
    if (g == hm->leaders.count) {
        float deepest = -FLT_MAX;
        for (int i = 0; i < m.point_count; ++i) deepest = fmaxf(deepest, m.points[i].depth);
        spx_leaders_offer(&hm->leaders, deepest, hm->inst->mesh->source[t], m.normal);
        return false;
    }
    spx_point_group* gr = &hm->leaders.groups[g];
    const float scale = spx_group_dot(m.normal, gr->normal);
    for (int i = 0; i < m.point_count; ++i) {
        spx_manifold_point p = m.points[i];
        p.depth *= scale;
        /* A hull corner on the face beats a cut of equal key: its id stays as it slides. */
        spx_group_offer(gr, &p, (corners >> i) & 1u ? hm->same : 0.0f);
    }
    return false;
}

SPX_API spx_result spx_manifold_hull_mesh(const spx_placed_hull* a, spx_mesh_instance* b, float margin,
                                          spx_manifold* out, uint32_t capacity, uint32_t* out_count)
{
    if (!a || !b || !out_count || !a->hull || (!out && capacity > 0)) return SPX_ERR_INVALID_ARGUMENT;
    const spx_result r = spx_first_error(spx_hull_check_placed(a), spx_check_margin(margin));
    if (r != SPX_OK) return r;
    /* ~3 KB of groups. */
    hull_manifold hm;
    memset(&hm, 0, sizeof hm);
    hm.a = a;
    hm.inst = b;
    hm.margin = margin;
    hm.center = spx_d3_add(spx_d3_from(a->position), rotate_f(&a->rotation, a->hull->view.center));
    hm.leaders.max = capacity < SPX_MAX_MESH_MANIFOLDS ? capacity : SPX_MAX_MESH_MANIFOLDS;
    *out_count = 0;
    if (hm.leaders.max == 0) return SPX_OK;
    const spx_obb grown = bound_box(a, margin);
    const double far = fmax(fabs(hm.center.x), fmax(fabs(hm.center.y), fabs(hm.center.z)));
    hm.same = (float)(1e-6 * (far + a->hull->view.radius));
    /* Leaders deepest first; each pass finds the next among triangles no group takes. */
    spx_descend_visit(&grown, b, visit_manifold, &hm);
    while (hm.leaders.found) {
        group_start(&hm, hm.leaders.found_normal);
        hm.leaders.found = false;
        spx_descend_visit(&grown, b, visit_manifold, &hm);
    }
    spx_leaders_finish(&hm.leaders, out, out_count);
    return SPX_OK;
}
