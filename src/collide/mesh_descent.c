/* Tree descent for the mesh queries: depth first on a fixed stack, pruned by the current bound when
 * a pair is tested and when popped. See docs/meshes.md#continuous-queries. */
#include "mesh_descent.h"
#include "sweep_bound.h"
#include "sweep_pieces.h"
#include <string.h>

/* One sibling a level of either tree plus the pair split; depth <= 79 (obb_tree.h): 2 * 79 + 2 fits. */
#define STACK_SIZE 192

typedef struct pending {
    uint32_t a, b;
    double entry;
} pending;

/* The next float above x (x >= 0, finite): a leaf test bounded by it finds every pair whose float
   time is x, whatever their double times' rounding. */
static float next_up(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    ++bits;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static double prune_bound(const spx_descent* d)
{
    if (d->mode == SPX_DESCENT_FIRST && d->gather && d->found) return spx_window_end(d->best.time, d->tmax);
    if (d->mode == SPX_DESCENT_FIRST) return d->found ? d->best.time : d->tmax;
    if (d->mode == SPX_DESCENT_COLLECT) return d->limit;
    return d->tmax;
}

/* Leaf tests' tmax: nothing after the bound is wanted. */
static float leaf_tmax(const spx_descent* d)
{
    float t = d->tmax;
    if (d->mode == SPX_DESCENT_FIRST && d->found)
        t = next_up(d->gather ? spx_window_end(d->best.time, d->tmax) : d->best.time);
    else if (d->mode == SPX_DESCENT_COLLECT) t = d->start_only ? 0.0f : next_up(d->limit);
    return t < d->tmax ? t : d->tmax;
}

/* (time, triangle_a, triangle_b) in lexicographic order: the first pair whatever the tree's order. */
static bool earlier(const spx_mesh_contact* x, const spx_mesh_contact* y)
{
    if (x->time != y->time) return x->time < y->time;
    if (x->triangle_a != y->triangle_a) return x->triangle_a < y->triangle_a;
    return x->triangle_b < y->triangle_b;
}

/* A pair normal's lean from A to B: along the pieces' offset, else by its first coordinate's sign (+
   when A is first in (x, y, z)). Swapping negates it. */
static double lean(const spx_descent* d, spx_vec3 normal)
{
    const spx_dvec3 n = spx_d3_from(normal);
    const double along = spx_d3_dot(n, d->side);
    if (along != 0.0) return along;
    const double lead = n.x != 0.0 ? n.x : (n.y != 0.0 ? n.y : n.z);
    return -lead * (double)d->side_order;
}

/* (depth, point in (x, y, z), lean, triangle_a, triangle_b): the deepest pair (a start overlap's
   fallback normal) depends on neither the def's order nor which piece is A. */
static bool deeper(const spx_descent* d, const spx_mesh_contact* x, const spx_mesh_contact* y)
{
    if (x->depth != y->depth) return x->depth > y->depth;
    if (x->point.x != y->point.x) return x->point.x < y->point.x;
    if (x->point.y != y->point.y) return x->point.y < y->point.y;
    if (x->point.z != y->point.z) return x->point.z < y->point.z;
    const double lx = lean(d, x->normal), ly = lean(d, y->normal);
    if (lx != ly) return lx > ly;
    if (x->triangle_a != y->triangle_a) return x->triangle_a < y->triangle_a;
    return x->triangle_b < y->triangle_b;
}

/* How far B must move along n to leave A: A's highest point on n less B's lowest. */
static double overlap_along(const spx_descent* d, const spx_triangle* ta, const spx_triangle* tb)
{
    const spx_dvec3 n = d->depth_normal;
    double hi;
    if (ta) {
        hi = -INFINITY;
        for (int k = 0; k < 3; ++k) hi = spx_dmax(hi, spx_d3_dot(spx_d3_from(ta->v[k]), n));
    } else {
        const spx_obb* box = d->box;
        const float* h = &box->half_extents.x;
        hi = spx_d3_dot(spx_d3_from(box->center), n);
        for (int i = 0; i < 3; ++i) hi += h[i] * fabs(spx_d3_dot(spx_d3_from(box->rotation.col[i]), n));
    }
    double lo = INFINITY;
    for (int k = 0; k < 3; ++k) lo = spx_dmin(lo, spx_d3_dot(spx_d3_from(tb->v[k]), n));
    return hi - lo;
}

/* COLLECT: in the set when it starts overlapping (start_only) or comes by the limit. */
static void collect_pair(spx_descent* d, const spx_mesh_contact* pc, bool start, const spx_triangle* ta,
                         const spx_triangle* tb)
{
    const spx_mesh_contact c = *pc;
    if (d->start_only ? !start : c.time > d->limit) return;
    if (d->measure_depth) {
        d->depth = spx_dmax(d->depth, overlap_along(d, ta, tb));
        return;
    }
    if (d->count < d->capacity) d->contacts[d->count] = c;
    ++d->count;
    d->normal_sum = spx_d3_add(d->normal_sum, spx_d3_from(c.normal));
    d->point_sum = spx_d3_add(d->point_sum, spx_d3_from(c.point));
    if (!start && c.time == d->tie_time) {
        ++d->tie_count;
        d->tie_normal_sum = spx_d3_add(d->tie_normal_sum, spx_d3_from(c.normal));
        d->tie_point_sum = spx_d3_add(d->tie_point_sum, spx_d3_from(c.point));
    }
    if (!d->found || (start ? deeper(d, &c, &d->best) : earlier(&c, &d->best))) d->best = c;
    d->found = true;
}

static bool may_belong(const spx_descent* d, const spx_gathered* g)
{
    return d->any_start ? g->start : g->c.time <= spx_window_end(d->best.time, d->tmax);
}

/* FIRST with a gather: keeps a pair that may join the set; when full, drops those the best time has
   since passed. */
static void gather_pair(spx_descent* d, const spx_mesh_contact* c, bool start, uint32_t ia, uint32_t ib)
{
    if (d->gather_overflow) return;
    spx_gathered g = { *c, ia, ib, start };
    if (!may_belong(d, &g)) return;
    if (d->gather_count == d->gather_capacity) {
        uint32_t kept = 0;
        for (uint32_t i = 0; i < d->gather_count; ++i)
            if (may_belong(d, &d->gather[i])) d->gather[kept++] = d->gather[i];
        d->gather_count = kept;
        if (kept == d->gather_capacity) {
            d->gather_overflow = true;
            return;
        }
    }
    d->gather[d->gather_count++] = g;
}

/* A leaf pair's answer; true: stop. ia, ib in mesh order (ia unused for a box). */
static bool take_pair(spx_descent* d, const spx_sweep_hit* hit, uint32_t source_a, uint32_t source_b,
                      const spx_triangle* ta, const spx_triangle* tb, uint32_t ia, uint32_t ib)
{
    if (hit->state == SPX_SWEEP_MISS) return false;
    spx_mesh_contact c;
    c.point = hit->point;
    c.normal = hit->normal;
    c.time = hit->time;
    c.depth = hit->depth;
    c.triangle_a = source_a;
    c.triangle_b = source_b;
    c.feature_a = hit->feature_a;
    c.feature_b = hit->feature_b;
    switch (d->mode) {
    case SPX_DESCENT_ANY:
        d->found = true;
        d->best = c;
        return true;
    case SPX_DESCENT_FIRST:
        if (hit->state == SPX_SWEEP_START_OVERLAP) d->any_start = true;
        if (!d->found || earlier(&c, &d->best)) d->best = c;
        d->found = true;
        if (d->gather) gather_pair(d, &c, hit->state == SPX_SWEEP_START_OVERLAP, ia, ib);
        return d->any_start && d->stop_at_start;
    case SPX_DESCENT_COLLECT:
    case SPX_DESCENT_VISIT: /* never here: VISIT hands triangles to visit() before any leaf test */
        break;
    }
    collect_pair(d, &c, hit->state == SPX_SWEEP_START_OVERLAP, ta, tb);
    return false;
}

/* Never full: each pop pushes at most two. */
static void push(pending* stack, int* sp, uint32_t a, uint32_t b, double entry)
{
    stack[*sp].a = a, stack[*sp].b = b, stack[*sp].entry = entry;
    ++*sp;
}

/* The earlier child pushed last, so it pops first. */
static void push_ordered(pending* stack, int* sp, const uint32_t pa[2], const uint32_t pb[2], const bool hit[2],
                         const double entry[2])
{
    int first = hit[1] && (!hit[0] || entry[1] < entry[0]) ? 1 : 0;
    int second = 1 - first;
    if (hit[second]) push(stack, sp, pa[second], pb[second], entry[second]);
    if (hit[first]) push(stack, sp, pa[first], pb[first], entry[first]);
}

/* Grown for the leaf tests' reading: a rotation off by SPX_ROTATION_TOLERANCE moves a corner by that
   much of the box. */
spx_world_box spx_descent_query_box(const spx_obb* box)
{
    spx_world_box w;
    const float* c = &box->center.x;
    const float* h = &box->half_extents.x;
    double grow = 4.0 * SPX_ROTATION_TOLERANCE * ((double)h[0] + h[1] + h[2]);
    for (int i = 0; i < 3; ++i) {
        w.center[i] = c[i];
        w.half[i] = (float)(h[i] + grow);
        const float* col = &box->rotation.col[i].x;
        for (int k = 0; k < 3; ++k) w.axis[i][k] = col[k];
    }
    w.stamp = 0;
    return w;
}

static void descend_box(spx_descent* d)
{
    spx_mesh_instance* b = d->b;
    const spx_obb_node* nodes = b->mesh->nodes;
    const spx_world_box qa = spx_descent_query_box(d->box);
    const double u[3] = { (double)d->velocity_b.x - d->velocity_a.x, (double)d->velocity_b.y - d->velocity_a.y,
                          (double)d->velocity_b.z - d->velocity_a.z };
    pending stack[STACK_SIZE];
    int sp = 0;
    double entry = 0.0;
    /* A visit is at rest: the static test answers as the swept one with u = 0, entry 0. */
    const bool still = d->mode == SPX_DESCENT_VISIT;
    ++d->node_tests;
    if (still
            ? !spx_overlap_box_box_eps(&qa, spx_mesh_instance_node(b, 0), SPX_BOUND_EPS_QUERY)
            : !spx_bound_box_box_eps(&qa, spx_mesh_instance_node(b, 0), u, prune_bound(d), SPX_BOUND_EPS_QUERY, &entry))
        return;
    push(stack, &sp, 0, 0, entry);
    while (sp > 0) {
        const pending p = stack[--sp];
        if (p.entry > prune_bound(d)) continue;
        const spx_obb_node* n = &nodes[p.b];
        if (spx_obb_node_is_leaf(n)) {
            for (uint32_t t = n->first; t < n->first + n->count; ++t) {
                if (!b->usable[t]) continue;
                if (d->mode == SPX_DESCENT_VISIT) {
                    if (d->visit(d->visit_context, t)) return;
                    continue;
                }
                spx_sweep_hit hit;
                ++d->leaf_tests;
                spx_sweep_obb_triangle_checked(d->box, d->velocity_a, &b->triangles[t], d->velocity_b, leaf_tmax(d),
                                               &hit);
                if (take_pair(d, &hit, SPX_NO_TRIANGLE, b->mesh->source[t], NULL, &b->triangles[t], 0, t)) return;
            }
            continue;
        }
        const uint32_t pa[2] = { 0, 0 }, pb[2] = { n->first, n->first + 1 };
        bool hit[2];
        double e[2];
        const double bound = prune_bound(d);
        for (int k = 0; k < 2; ++k) {
            ++d->node_tests;
            e[k] = 0.0;
            hit[k] = still ? spx_overlap_box_box_faces(&qa, spx_mesh_instance_node(b, pb[k]), SPX_BOUND_EPS_QUERY)
                           : spx_bound_box_box_eps(&qa, spx_mesh_instance_node(b, pb[k]), u, bound, SPX_BOUND_EPS_QUERY,
                                                   &e[k]);
        }
        push_ordered(stack, &sp, pa, pb, hit, e);
    }
}

static double node_size2(const spx_obb_node* n)
{
    const spx_vec3 h = n->box.half_extents;
    return (double)h.x * h.x + (double)h.y * h.y + (double)h.z * h.z;
}

/* A's node box grown by the margin (rounded up), or the box itself. */
static const spx_world_box* grown(const spx_descent* d, const spx_world_box* box, spx_world_box* room)
{
    if (!(d->margin > 0.0f)) return box;
    *room = *box;
    const float g = d->margin * (1.0f + 1e-5f);
    for (int i = 0; i < 3; ++i) room->half[i] = box->half[i] + g;
    return room;
}

static bool leaf_pair(spx_descent* d, const spx_obb_node* na, uint32_t ia, const spx_obb_node* nb, uint32_t ib,
                      const double u[3])
{
    spx_mesh_instance *a = d->a, *b = d->b;
    /* A's triangle grown by the margin meets B's box iff it meets B's box grown by it. */
    spx_world_box room_a, room_b;
    const spx_world_box* la = grown(d, &a->boxes[ia], &room_a);
    const spx_world_box* lb = grown(d, &b->boxes[ib], &room_b);
    const double neg_u[3] = { -u[0], -u[1], -u[2] };
    uint32_t sa[16], sb[16];
    int ca = 0, cb = 0;
    double bound = prune_bound(d), entry;
    for (uint32_t t = na->first; t < na->first + na->count; ++t) {
        ++d->node_tests;
        if (a->usable[t] && spx_bound_box_triangle(lb, &a->triangles[t], neg_u, bound, &entry)) sa[ca++] = t;
    }
    if (ca == 0) return false;
    for (uint32_t t = nb->first; t < nb->first + nb->count; ++t) {
        ++d->node_tests;
        if (b->usable[t] && spx_bound_box_triangle(la, &b->triangles[t], u, bound, &entry)) sb[cb++] = t;
    }
    for (int i = 0; i < ca; ++i) {
        for (int j = 0; j < cb; ++j) {
            const spx_triangle* ta = &a->triangles[sa[i]];
            const spx_triangle* tb = &b->triangles[sb[j]];
            spx_sweep_hit hit;
            ++d->leaf_tests;
            if (d->margin > 0.0f)
                spx_sweep_triangle_triangle_margin_checked(ta, d->velocity_a, tb, d->velocity_b, leaf_tmax(d),
                                                           d->margin, &hit);
            else spx_sweep_triangle_triangle_checked(ta, d->velocity_a, tb, d->velocity_b, leaf_tmax(d), &hit);
            if (take_pair(d, &hit, a->mesh->source[sa[i]], b->mesh->source[sb[j]], ta, tb, sa[i], sb[j])) return true;
        }
    }
    return false;
}

static void descend_trees(spx_descent* d)
{
    spx_mesh_instance *a = d->a, *b = d->b;
    const spx_obb_node* nodes_a = a->mesh->nodes;
    const spx_obb_node* nodes_b = b->mesh->nodes;
    const double u[3] = { (double)d->velocity_b.x - d->velocity_a.x, (double)d->velocity_b.y - d->velocity_a.y,
                          (double)d->velocity_b.z - d->velocity_a.z };
    pending stack[STACK_SIZE];
    int sp = 0;
    double entry;
    spx_world_box room;
    ++d->node_tests;
    if (!spx_bound_box_box_eps(grown(d, spx_mesh_instance_node(a, 0), &room), spx_mesh_instance_node(b, 0), u,
                               prune_bound(d), SPX_BOUND_EPS, &entry))
        return;
    push(stack, &sp, 0, 0, entry);
    while (sp > 0) {
        const pending p = stack[--sp];
        if (p.entry > prune_bound(d)) continue;
        const spx_obb_node* na = &nodes_a[p.a];
        const spx_obb_node* nb = &nodes_b[p.b];
        bool leaf_a = spx_obb_node_is_leaf(na), leaf_b = spx_obb_node_is_leaf(nb);
        if (leaf_a && leaf_b) {
            if (leaf_pair(d, na, p.a, nb, p.b, u)) return;
            continue;
        }
        bool split_a = !leaf_a && (leaf_b || node_size2(na) >= node_size2(nb));
        uint32_t pa[2], pb[2];
        if (split_a) pa[0] = na->first, pa[1] = na->first + 1, pb[0] = pb[1] = p.b;
        else pa[0] = pa[1] = p.a, pb[0] = nb->first, pb[1] = nb->first + 1;
        bool hit[2];
        double e[2];
        const double bound = prune_bound(d);
        for (int k = 0; k < 2; ++k) {
            ++d->node_tests;
            hit[k] = spx_bound_box_box_eps(grown(d, spx_mesh_instance_node(a, pa[k]), &room),
                                           spx_mesh_instance_node(b, pb[k]), u, bound, SPX_BOUND_EPS, &e[k]);
        }
        push_ordered(stack, &sp, pa, pb, hit, e);
    }
}

void spx_descend(spx_descent* d)
{
    d->found = false;
    d->any_start = false;
    d->count = 0;
    d->normal_sum = d->point_sum = spx_d3(0, 0, 0);
    d->depth = 0.0;
    if (d->mode == SPX_DESCENT_FIRST) d->gather_count = 0, d->gather_overflow = false;
    if (d->box) descend_box(d);
    else descend_trees(d);
}

bool spx_descend_gathered(spx_descent* d)
{
    if (!d->gather || d->gather_overflow) return false;
    d->found = false;
    d->count = 0;
    d->normal_sum = d->point_sum = spx_d3(0, 0, 0);
    d->depth = 0.0;
    for (uint32_t i = 0; i < d->gather_count; ++i) {
        const spx_gathered* g = &d->gather[i];
        collect_pair(d, &g->c, g->start, d->box ? NULL : &d->a->triangles[g->ia], &d->b->triangles[g->ib]);
    }
    return true;
}
