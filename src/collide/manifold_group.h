/* Merging many small manifolds (one a triangle or a triangle pair) into a few of at most 4 points,
 * for the box-mesh and mesh-mesh manifolds. A group keeps, by value with ties to the lower id, its
 * deepest point and its extremes along eight contact-plane directions, so the result needs no memory
 * for all points and does not depend on their order; those (at most 9) are cut to 4 by
 * manifold_reduce.h. See docs/meshes.md#contact-manifolds. */
#ifndef SPX_MANIFOLD_GROUP_H
#define SPX_MANIFOLD_GROUP_H

#include "manifold_reduce.h"
#include <sepax/collide.h>
#include <sepax/mesh_query.h>
#include <stdbool.h>
#include <float.h>
#include <string.h>

/* cos(5 degrees): normals this close to a leader share its manifold. */
#define SPX_GROUP_COS 0.99619469809174553
#define SPX_GROUP_EXTREMES 8
#define SPX_GROUP_DEPTH_WEIGHT 10.0f
/* m: the most gap a box-on-mesh group's lean counts, the default speculative distance: a fast or
   tumbling box's margin holds gaps its motion closes, and corners it swings down must keep place. */
#define SPX_GROUP_LEAN_GAP 0.04f
/* Two meshes, and hulls and round pieces on a mesh, lean by every gap: otherwise a curved mesh's
   speculative points high on its sides (a torus's tube) win the extremes from the ring it rests on. */
#define SPX_GROUP_LEAN_ALL FLT_MAX

typedef struct spx_group_slot {
    spx_manifold_point p;
    float key; /* depth, or the projection on the slot's direction */
    bool used;
} spx_group_slot;

typedef struct spx_point_group {
    spx_vec3 normal;
    spx_vec3 u, v;   /* the contact plane's directions */
    spx_vec3 origin; /* projections are taken from here (near the points, for precision) */
    spx_vec3 tilt;   /* added to the deepest slot's key along the points: a tiny one lets
                        equal depths give way to the most extreme, a corner of the outline */
    float lean_gap;  /* m: the lean counts a gap up to this; FLT_MAX: all */
    spx_group_slot deepest;
    spx_group_slot extreme[SPX_GROUP_EXTREMES];
} spx_point_group;

static inline float spx_group_dot(spx_vec3 a, spx_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static inline void spx_group_init(spx_point_group* g, spx_vec3 normal, spx_vec3 u, spx_vec3 v, spx_vec3 origin,
                                  float lean_gap)
{
    memset(g, 0, sizeof *g);
    g->normal = normal;
    g->u = u;
    g->v = v;
    g->origin = origin;
    g->lean_gap = lean_gap;
}

/* The first of `count` groups whose normal is within 5 degrees of n, or count. */
static inline uint32_t spx_group_find(const spx_point_group* groups, uint32_t count, spx_vec3 n)
{
    for (uint32_t g = 0; g < count; ++g)
        if (spx_group_dot(n, groups[g].normal) >= (float)SPX_GROUP_COS) return g;
    return count;
}

/* Keeps p when its key (plus `bonus`) is larger, or equal with a lower id: order-independent. The
   bonus lets a point whose id stays as pieces slide (a corner on a face) beat an edge crossing at
   the same place to rounding. */
static inline void spx_group_slot_offer(spx_group_slot* s, const spx_manifold_point* p, float key, float bonus)
{
    key += bonus;
    if (!s->used || key > s->key || (key == s->key && p->id < s->p.id)) {
        s->p = *p;
        s->key = key;
        s->used = true;
    }
}

/* Offering a point again changes nothing. `bonus` goes to its depth, twice to its extremes. */
static inline void spx_group_offer(spx_point_group* g, const spx_manifold_point* p, float bonus)
{
    const spx_vec3 r = { p->point.x - g->origin.x, p->point.y - g->origin.y, p->point.z - g->origin.z };
    spx_group_slot_offer(&g->deepest, p, p->depth + spx_group_dot(r, g->tilt), bonus);
    /* The extremes lean towards depth (SPX_GROUP_DEPTH_WEIGHT times deeper counts as far out): by
       projection alone a torus's tube gives its extremes to speculative points up its sides. */
    const float lean = SPX_GROUP_DEPTH_WEIGHT * (p->depth > -g->lean_gap ? p->depth : -g->lean_gap);
    const float pu = spx_group_dot(r, g->u), pv = spx_group_dot(r, g->v);
    const float key[SPX_GROUP_EXTREMES] = { pu + lean,      -pu + lean,      pv + lean,      -pv + lean,
                                            pu + pv + lean, -pu - pv + lean, pu - pv + lean, pv - pu + lean };
    for (int s = 0; s < SPX_GROUP_EXTREMES; ++s) spx_group_slot_offer(&g->extreme[s], p, key[s], 2.0f * bonus);
}

/* A group's kept points, cut to 4 and written out in id order. */
static inline void spx_group_finish(const spx_point_group* g, spx_manifold* out)
{
    spx_manifold_point pts[1 + SPX_GROUP_EXTREMES];
    int n = 0;
    const spx_group_slot* all[1 + SPX_GROUP_EXTREMES];
    all[0] = &g->deepest;
    for (int s = 0; s < SPX_GROUP_EXTREMES; ++s) all[1 + s] = &g->extreme[s];
    for (int s = 0; s < 1 + SPX_GROUP_EXTREMES; ++s) {
        if (!all[s]->used) continue;
        int j = 0;
        while (j < n && pts[j].id != all[s]->p.id) ++j;
        if (j < n) {
            if (all[s]->p.depth > pts[j].depth) pts[j] = all[s]->p; /* the same feature pair from two pieces */
            continue;
        }
        j = n++;
        while (j > 0 && pts[j - 1].id > all[s]->p.id) {
            pts[j] = pts[j - 1];
            --j;
        }
        pts[j] = all[s]->p;
    }
    out->normal = g->normal;
    if (n <= SPX_MAX_MANIFOLD_POINTS) {
        out->point_count = n;
        for (int i = 0; i < n; ++i) out->points[i] = pts[i];
        return;
    }
    float x[1 + SPX_GROUP_EXTREMES], y[1 + SPX_GROUP_EXTREMES], gap[1 + SPX_GROUP_EXTREMES];
    for (int i = 0; i < n; ++i) {
        const spx_vec3 r = { pts[i].point.x - g->origin.x, pts[i].point.y - g->origin.y, pts[i].point.z - g->origin.z };
        x[i] = spx_group_dot(r, g->u);
        y[i] = spx_group_dot(r, g->v);
        gap[i] = -pts[i].depth;
    }
    int keep[4];
    spx_reduce_to_four(x, y, gap, n, keep);
    out->point_count = SPX_MAX_MANIFOLD_POINTS;
    for (int i = 0; i < 4; ++i) out->points[i] = pts[keep[i]];
}

/* Groups led by the deepest pieces, pass by pass: each pass offers every piece to the groups so far,
   and one none takes is a candidate for the next leader while there is room. */
typedef struct spx_group_leaders {
    spx_point_group groups[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count, max;
    bool found; /* a candidate for the next leader */
    float found_depth;
    uint32_t found_source;
    spx_vec3 found_normal;
} spx_group_leaders;

/* The deepest piece, ties to the lower source number (mesh order): independent of the tree's order. */
static inline void spx_leaders_offer(spx_group_leaders* l, float deepest, uint32_t source, spx_vec3 normal)
{
    if (l->count < l->max &&
        (!l->found || deepest > l->found_depth || (deepest == l->found_depth && source < l->found_source))) {
        l->found = true;
        l->found_depth = deepest;
        l->found_source = source;
        l->found_normal = normal;
    }
}

/* Each group's points cut to 4, in the order the groups were led. */
static inline void spx_leaders_finish(const spx_group_leaders* l, spx_manifold* out, uint32_t* out_count)
{
    for (uint32_t g = 0; g < l->count; ++g) spx_group_finish(&l->groups[g], &out[g]);
    *out_count = l->count;
}

#endif
