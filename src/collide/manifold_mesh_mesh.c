/* Mesh-mesh contact manifolds: one-sided face clipping (or an edge-edge point) of every triangle pair
 * within the margin, merged by normal. Ids and rules: docs/meshes.md#mesh-against-mesh. */
#include "manifold_mesh.h"
#include "manifold_group.h"
#include "manifold_mesh_kept.h"
#include "manifold_triangle.h"
#include "mesh_descent.h"
#include "sweep_bound.h"
#include "sweep_pieces.h"
#include "triangle_shape.h"
#include <float.h>

#define PAIR_POINTS 8
#define CACHE_PAIRS 64
#define CLIP_MAX 12
/* rad: rounding slack of directions against a feature's wedge. */
#define ADMIT_SLACK 1e-5
#define MM_PI 3.14159265358979323846
/* sin(5 degrees): how far a normal across an edge may lean along it. */
#define ACROSS_SINE 0.087155742747658166

#define CODE_A_CORNER 0u
#define CODE_B_CORNER 3u
#define CODE_EDGES 6u
#define CODE_SINGLE 15u

typedef struct pair_entry {
    spx_vec3 normal; /* unit, A towards B */
    int point_count;
    spx_manifold_point points[PAIR_POINTS];
    uint32_t source_a, source_b;
    float deepest;
} pair_entry;

/* A's triangles go in spread batches, so a spent budget leaves pairs from all over a batch. */
#define BATCH_TRIANGLES 256

typedef struct mesh_pairs {
    spx_mesh_instance *a, *b;
    float margin;
    bool surface_edges;
    void (*pair)(void* context, uint32_t ta, uint32_t tb);
    void* context;
    uint32_t ta;          /* A's triangle the inner descent pairs */
    spx_world_box near_a; /* B's root box grown by the margin */
    spx_world_box near_b; /* ta's box grown by the margin */
    uint32_t budget;      /* pairs handed out at most; UINT32_MAX: all */
    uint32_t handed;
    bool cut; /* the budget ran out with pairs left */
    uint32_t batch[BATCH_TRIANGLES];
    uint32_t batch_count;
    /* Room for `budget` pairs gathered before any is handed (a descent past the budget costs no pair
       test); NULL: hand as found. */
    uint32_t (*gathered)[2];
    /* Gathered within a margin: asked after the pairs crossing each other's planes are handed; true:
       sunk, the others are left out. NULL: all handed in the descent's order. */
    bool (*sunk)(void* context);
    uint8_t* crossing; /* room for `budget` flags */
} mesh_pairs;
/* Which way a mesh's triangles face: by winding if closed, else towards the other mesh's centre. */
typedef struct mesh_side {
    bool open;
    spx_dvec3 toward; /* world: the other mesh's centre (open only) */
} mesh_side;

typedef struct mm_state {
    mesh_pairs pairs;
    mesh_side side_a, side_b;
    bool cut;        /* the pair budget ran out */
    uint32_t runs;   /* descents for pairs */
    uint32_t handed; /* pairs handed, over all descents */
    uint32_t tested; /* of those, pairs that reached the exact test */
    pair_entry local[CACHE_PAIRS];
    uint32_t gathered[SPX_MESH_PAIR_BUDGET][2];
    uint8_t crossing[SPX_MESH_PAIR_BUDGET];
    float deepest;     /* of the points handed this descent */
    bool sunk_deep;    /* the descent within the margin left the pairs not crossing out */
    bool remember;     /* the caller keeps the sunk state: the crossing rule applies */
    pair_entry* cache; /* local, or the caller's larger buffer */
    uint32_t cache_capacity;
    uint32_t cached;
    bool overflow;
    spx_point_group groups[SPX_MAX_MESH_MANIFOLDS];
    uint32_t group_count, group_max;
    spx_vec3 origin;
    float bonus; /* corners win over crossings this close */
    bool found;
    float found_depth;
    uint32_t found_a, found_b;
    spx_vec3 found_normal;
} mm_state;

/* ---- pairs: two descents, one inside the other ---- */

static spx_obb grown_box(const spx_world_box* w, float grow)
{
    spx_obb o;
    o.center = spx_v3(w->center[0], w->center[1], w->center[2]);
    float* h = &o.half_extents.x;
    for (int i = 0; i < 3; ++i) {
        o.rotation.col[i] = spx_v3(w->axis[i][0], w->axis[i][1], w->axis[i][2]);
        h[i] = w->half[i] + grow;
        if (!(h[i] <= FLT_MAX)) h[i] = FLT_MAX;
    }
    return o;
}

/* A box around t (axes: longest edge, normal) grown by `margin`, on the float axes the descent
   reads, grown by the centre's rounding. */
static spx_obb triangle_box(const spx_triangle* t, float margin)
{
    spx_tri_shape s;
    const spx_dvec3 o = spx_d3_from(t->v[0]);
    spx_tri_shape_make(t, o, NULL, &s);
    spx_dvec3 u = spx_d3_scale(s.e[s.long_edge], 1.0 / s.longest);
    spx_dvec3 n = s.n;
    if (s.segment || !(spx_d3_len2(n) > 0.0)) {
        const spx_dvec3 t0 =
            fabs(u.x) < 0.57735 ? spx_d3(1, 0, 0) : (fabs(u.y) < 0.57735 ? spx_d3(0, 1, 0) : spx_d3(0, 0, 1));
        n = spx_d3_cross(u, t0);
    }
    n = spx_d3_scale(n, 1.0 / sqrt(spx_d3_len2(n)));
    const spx_dvec3 w = spx_d3_cross(n, u);
    spx_obb b;
    b.rotation.col[0] = spx_d3_to_float(u);
    b.rotation.col[1] = spx_d3_to_float(w);
    b.rotation.col[2] = spx_d3_to_float(n);
    double lo[3], hi[3], mid[3];
    for (int i = 0; i < 3; ++i) {
        const spx_dvec3 ax = spx_d3_from(b.rotation.col[i]);
        spx_tri_project(&s, ax, &lo[i], &hi[i]);
        mid[i] = 0.5 * (lo[i] + hi[i]);
    }
    spx_dvec3 c = o;
    for (int i = 0; i < 3; ++i) c = spx_d3_mad(c, spx_d3_from(b.rotation.col[i]), mid[i]);
    b.center = spx_d3_to_float(c);
    const double far = spx_dmax(fabs(c.x), spx_dmax(fabs(c.y), fabs(c.z)));
    const double round = 4.0 * FLT_EPSILON * (far + s.longest);
    float* h = &b.half_extents.x;
    for (int i = 0; i < 3; ++i) {
        h[i] = (float)(0.5 * (hi[i] - lo[i]) + round + margin);
        if (!(h[i] <= FLT_MAX)) h[i] = FLT_MAX;
    }
    return b;
}

/* Only leaf triangles meeting the query box can be within the margin; the test costs a tenth of a pair's. */
static bool visit_b(void* context, uint32_t tb)
{
    mesh_pairs* mp = context;
    if (!spx_overlap_box_triangle(&mp->near_b, &mp->b->triangles[tb])) return false;
    if (mp->handed == mp->budget) {
        mp->cut = true;
        return true;
    }
    ++mp->handed;
    mp->pair(mp->context, mp->ta, tb);
    return false;
}

/* i's bits reversed over `bits`: an order that halves the gaps (the caller skips those past n). */
static uint32_t spread_index(uint32_t i, uint32_t bits)
{
    uint32_t r = 0;
    for (uint32_t k = 0; k < bits; ++k) r |= ((i >> k) & 1u) << (bits - 1 - k);
    return r;
}

static void run_batch(mesh_pairs* mp)
{
    uint32_t bits = 0;
    while ((1u << bits) < mp->batch_count) ++bits;
    for (uint32_t i = 0; i < (1u << bits) && !mp->cut; ++i) {
        const uint32_t k = spread_index(i, bits);
        if (k >= mp->batch_count) continue;
        const uint32_t ta = mp->batch[k];
        const spx_obb box = triangle_box(&mp->a->triangles[ta], mp->margin);
        mp->ta = ta;
        mp->near_b = spx_descent_query_box(&box);
        spx_descend_visit(&box, mp->b, visit_b, mp);
    }
    mp->batch_count = 0;
}

static bool visit_a(void* context, uint32_t ta)
{
    mesh_pairs* mp = context;
    if (!spx_overlap_box_triangle(&mp->near_a, &mp->a->triangles[ta])) return false;
    mp->batch[mp->batch_count++] = ta;
    if (mp->batch_count == BATCH_TRIANGLES) run_batch(mp);
    return mp->cut;
}

/* One waiting sibling a level of either tree, plus one (depth at most 79, obb_tree.h). */
#define JOINT_STACK 192

/* Rounded up: the float sum may round down. */
static spx_world_box grown_node(spx_mesh_instance* m, uint32_t i, float margin)
{
    spx_world_box w = *spx_mesh_instance_node(m, i);
    const float g = margin * (1.0f + 1e-5f);
    for (int k = 0; k < 3; ++k) w.half[k] += g;
    return w;
}

static double world_size2(const spx_world_box* w)
{
    return (double)w->half[0] * w->half[0] + (double)w->half[1] * w->half[1] + (double)w->half[2] * w->half[2];
}

/* A's triangle boxes, direct-mapped by triangle number: a leaf of A met again finds its boxes made. */
#define JOINT_BOXES 256

typedef struct joint_walk {
    mesh_pairs* mp;
    uint32_t count;              /* pairs found */
    uint32_t owner[JOINT_BOXES]; /* A's triangle whose box is in boxes[], UINT32_MAX: none */
    spx_world_box boxes[JOINT_BOXES];
} joint_walk;

/* Is t beyond w on axis i? spx_overlap_box_triangle's face axis, same arithmetic (true here implies
   its false); asked first on the thin side, where most misses show. */
static bool beyond_axis(const spx_world_box* w, int i, const spx_triangle* t)
{
    const spx_dvec3 ax = spx_d3(w->axis[i][0], w->axis[i][1], w->axis[i][2]);
    const spx_dvec3 c = spx_d3(w->center[0], w->center[1], w->center[2]);
    const double h = w->half[i];
    double p[3];
    for (int k = 0; k < 3; ++k) p[k] = spx_d3_dot(ax, spx_d3_sub(spx_d3_from(t->v[k]), c));
    const double lo = spx_dmin(p[0], spx_dmin(p[1], p[2])), hi = spx_dmax(p[0], spx_dmax(p[1], p[2]));
    return lo - h > 0.0 || -h - hi > 0.0;
}

/* A leaf pair: a triangle within the margin of another lies in its grown leaf box, so every pair
   within the margin is here. false: over budget. */
static bool joint_leaves(joint_walk* j, uint32_t la, uint32_t lb)
{
    mesh_pairs* mp = j->mp;
    spx_mesh_instance *a = mp->a, *b = mp->b;
    const spx_obb_node* na = &a->mesh->nodes[la];
    const spx_obb_node* nb = &b->mesh->nodes[lb];
    const spx_world_box leaf_b = grown_node(b, lb, mp->margin);
    for (uint32_t k = 0; k < na->count; ++k) {
        const uint32_t ta = na->first + k;
        if (!a->usable[ta] || !spx_overlap_box_triangle(&leaf_b, &a->triangles[ta])) continue;
        const uint32_t slot = ta & (JOINT_BOXES - 1);
        if (j->owner[slot] != ta) {
            const spx_obb box = triangle_box(&a->triangles[ta], mp->margin);
            j->boxes[slot] = spx_descent_query_box(&box);
            j->owner[slot] = ta;
        }
        for (uint32_t tb = nb->first; tb < nb->first + nb->count; ++tb) {
            if (!b->usable[tb] || beyond_axis(&j->boxes[slot], 2, &b->triangles[tb]) ||
                !spx_overlap_box_triangle(&j->boxes[slot], &b->triangles[tb]))
                continue;
            if (++j->count > mp->budget) return false;
            if (mp->gathered) {
                mp->gathered[j->count - 1][0] = ta, mp->gathered[j->count - 1][1] = tb;
            } else {
                ++mp->handed;
                mp->pair(mp->context, ta, tb);
            }
        }
    }
    return true;
}

/* Both trees together, the larger box split: B's upper levels once per subtree of A. false: over
   budget. */
static bool joint_pairs(mesh_pairs* mp, uint32_t* found)
{
    spx_mesh_instance *a = mp->a, *b = mp->b;
    joint_walk j;
    j.mp = mp, j.count = 0;
    memset(j.owner, 0xff, sizeof j.owner);
    *found = 0;
    uint32_t stack[JOINT_STACK][2];
    int sp = 0;
    {
        const spx_world_box ra = grown_node(a, 0, mp->margin);
        if (!spx_overlap_box_box_eps(&ra, spx_mesh_instance_node(b, 0), SPX_BOUND_EPS)) return true;
    }
    stack[sp][0] = 0, stack[sp][1] = 0, ++sp;
    while (sp > 0) {
        --sp;
        const uint32_t ia = stack[sp][0], ib = stack[sp][1];
        const spx_obb_node* na = &a->mesh->nodes[ia];
        const spx_obb_node* nb = &b->mesh->nodes[ib];
        const bool leaf_a = spx_obb_node_is_leaf(na), leaf_b = spx_obb_node_is_leaf(nb);
        if (leaf_a && leaf_b) {
            if (!joint_leaves(&j, ia, ib)) return false;
            continue;
        }
        const bool split_a = !leaf_a && (leaf_b || world_size2(spx_mesh_instance_node(a, ia)) >=
                                                       world_size2(spx_mesh_instance_node(b, ib)));
        if (split_a) {
            const spx_world_box* wb = spx_mesh_instance_node(b, ib);
            for (int k = 1; k >= 0; --k) {
                const spx_world_box ga = grown_node(a, na->first + (uint32_t)k, mp->margin);
                if (!spx_overlap_box_box_faces(&ga, wb, SPX_BOUND_EPS)) continue;
                stack[sp][0] = na->first + (uint32_t)k, stack[sp][1] = ib, ++sp;
            }
        } else {
            const spx_world_box ga = grown_node(a, ia, mp->margin);
            for (int k = 1; k >= 0; --k) {
                if (!spx_overlap_box_box_faces(&ga, spx_mesh_instance_node(b, nb->first + (uint32_t)k), SPX_BOUND_EPS))
                    continue;
                stack[sp][0] = ia, stack[sp][1] = nb->first + (uint32_t)k, ++sp;
            }
        }
    }
    *found = j.count;
    return true;
}

/* Does each triangle have corners on both sides of the other's plane (or on it)? Two triangles that
   cross do; the same answer whichever is A. */
static bool planes_crossed(const spx_triangle* ta, const spx_triangle* tb)
{
    const spx_dvec3 o = spx_pair_origin(ta->v[0], tb->v[0]);
    const spx_triangle* t[2] = { ta, tb };
    spx_dvec3 p[2][3];
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 3; ++k) p[i][k] = spx_d3_sub(spx_d3_from(t[i]->v[k]), o);
    for (int i = 0; i < 2; ++i) {
        const spx_dvec3* s = p[i];
        const spx_dvec3* q = p[1 - i];
        const spx_dvec3 n = spx_d3_cross(spx_d3_sub(s[1], s[0]), spx_d3_sub(s[2], s[0]));
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < 3; ++k) {
            const double h = spx_d3_dot(n, spx_d3_sub(q[k], s[0]));
            lo = spx_dmin(lo, h);
            hi = spx_dmax(hi, h);
        }
        if (lo > 0.0 || hi < 0.0) return false;
    }
    return true;
}

/* The near pairs, at most `budget`: gathered then handed, or handed as found. false: over budget.
   Below it the answer does not depend on the pairs' order; with mp->sunk the pairs crossing each
   other's planes go first, and the others only if mp->sunk says no. */
static bool mesh_pairs_joint(mesh_pairs* mp)
{
    mp->handed = 0;
    mp->cut = false;
    mp->batch_count = 0;
    if (mp->gathered) {
        uint32_t found;
        if (!joint_pairs(mp, &found)) return false;
        const bool split = mp->sunk != NULL;
        for (uint32_t k = 0; k < found; ++k) {
            if (split) {
                const spx_triangle* ta = &mp->a->triangles[mp->gathered[k][0]];
                mp->crossing[k] = planes_crossed(ta, &mp->b->triangles[mp->gathered[k][1]]);
                if (!mp->crossing[k]) continue;
            }
            ++mp->handed;
            mp->pair(mp->context, mp->gathered[k][0], mp->gathered[k][1]);
        }
        if (!split || mp->sunk(mp->context)) return true;
        for (uint32_t k = 0; k < found; ++k) {
            if (mp->crossing[k]) continue;
            ++mp->handed;
            mp->pair(mp->context, mp->gathered[k][0], mp->gathered[k][1]);
        }
        return true;
    }
    uint32_t found;
    return joint_pairs(mp, &found);
}

/* Past the budget: spread batches of A's triangles, each descending B; true: some left out. */
static bool mesh_pairs_sample(mesh_pairs* mp)
{
    mp->handed = 0;
    mp->cut = false;
    mp->batch_count = 0;
    const spx_obb root = grown_box(spx_mesh_instance_node(mp->b, 0), mp->margin);
    mp->near_a = spx_descent_query_box(&root);
    spx_descend_visit(&root, mp->a, visit_a, mp);
    if (!mp->cut && mp->batch_count > 0) run_batch(mp);
    return mp->cut;
}

void spx_mesh_mesh_pairs(spx_mesh_instance* a, spx_mesh_instance* b, float margin,
                         void (*pair)(void* context, uint32_t ta, uint32_t tb), void* context)
{
    mesh_pairs mp;
    mp.a = a;
    mp.b = b;
    mp.margin = margin;
    mp.surface_edges = true;
    mp.pair = pair;
    mp.context = context;
    mp.budget = UINT32_MAX;
    mp.gathered = NULL;
    mp.sunk = NULL;
    mesh_pairs_joint(&mp);
}

/* ---- one pair ---- */

/* May unit d (outward, across edge j) be a surface normal there? Convex: the wedge between front
   normal m and the neighbour's; open: any; flat or concave: only m. */
static bool edge_admits(spx_dvec3 m, const spx_triangle_edges* e, int j, spx_dvec3 d)
{
    const double a = e->angle[j];
    const double wedge = fabs(a) >= SPX_EDGE_OPEN ? MM_PI : spx_dmax(a, 0.0);
    const double angle = atan2(sqrt(spx_d3_len2(spx_d3_cross(d, m))), spx_d3_dot(d, m));
    return angle <= wedge + ADMIT_SLACK;
}

/* Edge j: d may lean along it up to 5 degrees (crossing edges take the edge-edge normal) and across
   it must lie in the wedge. */
static bool across_admits(const spx_tri_shape* t, spx_dvec3 m, const spx_triangle_edges* e, int j, spx_dvec3 d)
{
    const spx_dvec3 along = spx_d3_scale(t->e[j], 1.0 / sqrt(spx_d3_len2(t->e[j])));
    const double c = spx_d3_dot(d, along);
    if (fabs(c) > ACROSS_SINE) return false;
    const spx_dvec3 across = spx_d3_mad(d, along, -c);
    return edge_admits(m, e, j, spx_d3_scale(across, 1.0 / sqrt(spx_d3_len2(across))));
}

/* Corner k: a surface corner admits what its triangle does not turn its back on; else what an edge does. */
static bool corner_admits(const spx_tri_shape* t, spx_dvec3 m, const spx_triangle_edges* e, int k, spx_dvec3 d)
{
    if (e->corners & (1u << k)) return spx_d3_dot(d, m) >= -ADMIT_SLACK;
    return across_admits(t, m, e, k, d) || across_admits(t, m, e, (k + 2) % 3, d);
}

/* Inside the face only its own normal, to rounding. */
static bool face_admits(spx_dvec3 m, spx_dvec3 d)
{
    return atan2(sqrt(spx_d3_len2(spx_d3_cross(d, m))), spx_d3_dot(d, m)) <= ADMIT_SLACK;
}

/* May unit d be the outward normal at the triangle's feature extreme along d? */
static bool admits(const spx_tri_shape* t, spx_dvec3 m, const spx_triangle_edges* e, spx_dvec3 d)
{
    const unsigned near = spx_tri_extreme_corners(t, d);
    if (near == 7u) return face_admits(m, d);
    if (near == 1u || near == 2u || near == 4u) return corner_admits(t, m, e, near == 1u ? 0 : (near == 2u ? 1 : 2), d);
    return edge_admits(m, e, near == 3u ? 0 : (near == 6u ? 1 : 2), d);
}

/* Codes: 0..2 incident corner, 3..5 reference corner, 6 + 3i + j incident edge i over reference j. */
typedef struct clip_poly {
    spx_dvec3 p[CLIP_MAX];
    int code[CLIP_MAX];
    int src[CLIP_MAX]; /* edge leaving p[i]: 0..2 incident's, 3..5 reference's side */
    int n;
} clip_poly;

/* Edge j runs from corner j to j + 1. */
static int shared_corner(int x, int y) { return (x + 1) % 3 == y ? y : x; }

/* Side planes moved out by `same`: a corner on the edge between coplanar references (planes parting
   by rounding) is inside both. */
static void clip_by_prism(const spx_tri_shape* ref, const spx_tri_shape* inc, double same, clip_poly* out)
{
    clip_poly cur, next;
    cur.n = 3;
    for (int k = 0; k < 3; ++k) cur.p[k] = inc->p[k], cur.code[k] = k, cur.src[k] = k;
    for (int j = 0; j < 3 && cur.n > 0; ++j) {
        const spx_dvec3 c = spx_d3_cross(ref->n, ref->e[j]); /* inward */
        const double shift = same * sqrt(spx_d3_len2(c));
        double f[CLIP_MAX];
        for (int i = 0; i < cur.n; ++i) f[i] = spx_d3_dot(c, spx_d3_sub(cur.p[i], ref->p[j])) + shift;
        next.n = 0;
        for (int i = 0; i < cur.n && next.n + 2 <= CLIP_MAX; ++i) {
            const int q = (i + 1) % cur.n;
            const bool in_p = f[i] >= 0.0, in_q = f[q] >= 0.0;
            if (in_p) {
                next.p[next.n] = cur.p[i], next.code[next.n] = cur.code[i], next.src[next.n] = cur.src[i];
                ++next.n;
            }
            if (in_p != in_q) {
                const int s = cur.src[i];
                next.p[next.n] = spx_d3_mad(cur.p[i], spx_d3_sub(cur.p[q], cur.p[i]), f[i] / (f[i] - f[q]));
                next.code[next.n] = s < 3 ? 6 + 3 * s + j : 3 + shared_corner(s - 3, j);
                next.src[next.n] = in_p ? 3 + j : s;
                ++next.n;
            }
        }
        cur = next;
    }
    *out = cur;
}

typedef struct face_contact {
    bool any;
    spx_dvec3 normal; /* A towards B */
    double deepest;
    int n;
    spx_dvec3 point[CLIP_MAX];
    double depth[CLIP_MAX];
    uint32_t code[CLIP_MAX];
} face_contact;

/* `ref`'s face as reference (ref_is_b: B's) where the incident admits the normal: points deeper
   than -margin, one per place (lower code within `same`). */
static void face_contact_of(const spx_tri_shape* ref, spx_dvec3 m_ref, const spx_tri_shape* inc, spx_dvec3 m_inc,
                            const spx_triangle_edges* e_inc, bool ref_is_b, double margin, double same,
                            face_contact* out)
{
    out->any = false;
    out->n = 0;
    const spx_dvec3 d = spx_d3_neg(m_ref);
    clip_poly cp;
    clip_by_prism(ref, inc, same, &cp);
    const double cos_ri = spx_d3_dot(m_ref, m_inc);
    const double same2 = same * same;
    for (int i = 0; i < cp.n; ++i) {
        spx_dvec3 x = cp.p[i];
        const int code = cp.code[i];
        const bool admitted = code < 3   ? corner_admits(inc, m_inc, e_inc, code, d)
                              : code < 6 ? face_admits(m_inc, d)
                                         : across_admits(inc, m_inc, e_inc, (code - 6) / 3, d);
        if (!admitted) continue;
        if (code >= 3 && code < 6 && fabs(cos_ri) > 1e-6) {
            /* Projected from the reference corner itself: the same whichever face is the reference. */
            const spx_dvec3 r = ref->p[code - 3];
            x = spx_d3_mad(r, m_ref, spx_d3_dot(spx_d3_sub(inc->p[0], r), m_inc) / cos_ri);
        }
        const double depth = -spx_d3_dot(spx_d3_sub(x, ref->p[0]), m_ref);
        if (!(depth >= -margin)) continue;
        uint32_t c;
        if (code < 3) c = (ref_is_b ? CODE_A_CORNER : CODE_B_CORNER) + (uint32_t)code;
        else if (code < 6) c = (ref_is_b ? CODE_B_CORNER : CODE_A_CORNER) + (uint32_t)(code - 3);
        else {
            const int ie = (code - 6) / 3, je = (code - 6) % 3;
            c = CODE_EDGES + (uint32_t)(ref_is_b ? 3 * ie + je : 3 * je + ie);
        }
        const spx_dvec3 mid = spx_d3_mad(x, m_ref, 0.5 * depth);
        int k = 0;
        while (k < out->n && spx_d3_len2(spx_d3_sub(out->point[k], mid)) > same2) ++k;
        if (k < out->n) {
            if (c < out->code[k]) out->point[k] = mid, out->depth[k] = depth, out->code[k] = c;
            continue;
        }
        out->point[out->n] = mid;
        out->depth[out->n] = depth;
        out->code[out->n] = c;
        ++out->n;
    }
    if (out->n == 0) return;
    out->any = true;
    out->normal = ref_is_b ? d : m_ref;
    out->deepest = -INFINITY;
    for (int i = 0; i < out->n; ++i) out->deepest = spx_dmax(out->deepest, out->depth[i]);
}

static uint32_t mix(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

static uint32_t pair_key(uint32_t sa, uint32_t sb)
{
    return mix(sa * 0x9E3779B1u ^ mix(sb + 0x7F4A7C15u)) & 0x0FFFFFFFu;
}

/* From the corner's coordinates in its mesh's frame: alike from every triangle sharing it. */
static uint32_t vertex_key(spx_vec3 v)
{
    uint32_t x, y, z;
    memcpy(&x, &v.x, sizeof x);
    memcpy(&y, &v.y, sizeof y);
    memcpy(&z, &v.z, sizeof z);
    return mix(x ^ mix(y ^ mix(z))) & 0x0FFFFFFFu;
}

/* Closest point of triangle t to p (Ericson, Real-Time Collision Detection 5.1.5). */
static spx_dvec3 point_triangle_closest(spx_dvec3 p, const spx_tri_shape* t)
{
    const spx_dvec3 a = t->p[0], b = t->p[1], c = t->p[2];
    const spx_dvec3 ab = spx_d3_sub(b, a), ac = spx_d3_sub(c, a), ap = spx_d3_sub(p, a);
    const double d1 = spx_d3_dot(ab, ap), d2 = spx_d3_dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;
    const spx_dvec3 bp = spx_d3_sub(p, b);
    const double d3 = spx_d3_dot(ab, bp), d4 = spx_d3_dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return spx_d3_mad(a, ab, d1 / (d1 - d3));
    const spx_dvec3 cp = spx_d3_sub(p, c);
    const double d5 = spx_d3_dot(ab, cp), d6 = spx_d3_dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return spx_d3_mad(a, ac, d2 / (d2 - d6));
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
        return spx_d3_mad(b, spx_d3_sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    const double denom = 1.0 / (va + vb + vc);
    return spx_d3_add(a, spx_d3_add(spx_d3_scale(ab, vb * denom), spx_d3_scale(ac, vc * denom)));
}

/* Squared distance of disjoint triangles and its closest points. */
static double triangle_closest(const spx_tri_shape* a, const spx_tri_shape* b, spx_dvec3* pa, spx_dvec3* pb)
{
    double best = INFINITY;
    for (int k = 0; k < 3; ++k) {
        const spx_dvec3 q = point_triangle_closest(a->p[k], b), r = point_triangle_closest(b->p[k], a);
        const double dq = spx_d3_len2(spx_d3_sub(q, a->p[k])), dr = spx_d3_len2(spx_d3_sub(r, b->p[k]));
        if (dq < best) best = dq, *pa = a->p[k], *pb = q;
        if (dr < best) best = dr, *pa = r, *pb = b->p[k];
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            spx_dvec3 cp, cq;
            spx_segments_closest_3d(a->p[i], a->p[(i + 1) % 3], b->p[j], b->p[(j + 1) % 3], &cp, &cq);
            const double d2 = spx_d3_len2(spx_d3_sub(cq, cp));
            if (d2 < best) best = d2, *pa = cp, *pb = cq;
        }
    return best;
}

/* A pair no face admits: one point from the minimum translation or closest points, if admitted. */
static bool edge_contact(const spx_sweep_hit* hit, spx_dvec3 ca, spx_dvec3 cb, double dist, const spx_tri_shape* sa,
                         spx_dvec3 ma, const spx_triangle_edges* ea, const spx_tri_shape* sb, spx_dvec3 mb,
                         const spx_triangle_edges* eb, spx_dvec3 origin, spx_dvec3* normal, spx_dvec3* point,
                         double* depth)
{
    spx_dvec3 n, p;
    double dep;
    if (hit->state != SPX_SWEEP_MISS) {
        n = spx_d3_from(hit->normal);
        p = spx_d3_sub(spx_d3_from(hit->point), origin);
        dep = hit->depth;
    } else {
        if (!(dist > 0.0)) return false;
        n = spx_d3_scale(spx_d3_sub(cb, ca), 1.0 / dist);
        p = spx_d3_lerp_mid(ca, cb);
        dep = -dist;
    }
    const double len = spx_d3_len(n);
    if (!(len > 0.5)) return false;
    n = spx_d3_scale(n, 1.0 / len);
    if (!admits(sa, ma, ea, n) || !admits(sb, mb, eb, spx_d3_neg(n))) return false;
    *normal = n;
    *point = p;
    *depth = dep;
    return true;
}

/* An open mesh's triangle turned to face side->toward (m and edge turns negated when behind). */
static void face_other_side(const mesh_side* side, spx_dvec3 origin, const spx_tri_shape* t, spx_dvec3* m,
                            spx_triangle_edges* e)
{
    if (!side->open) return;
    if (!(spx_d3_dot(spx_d3_sub(spx_d3_sub(side->toward, origin), t->p[0]), *m) < 0.0)) return;
    *m = spx_d3_neg(*m);
    for (int j = 0; j < 3; ++j)
        if (fabsf(e->angle[j]) < SPX_EDGE_OPEN) e->angle[j] = -e->angle[j];
}

/* Do t's corners all lie beyond `gap` of p's plane, on one side? */
static bool beyond_plane(const spx_tri_shape* p, spx_dvec3 m, const spx_tri_shape* t, double gap)
{
    const double o = spx_d3_dot(p->p[0], m);
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < 3; ++k) {
        const double h = spx_d3_dot(t->p[k], m) - o;
        lo = spx_dmin(lo, h);
        hi = spx_dmax(hi, h);
    }
    return lo > gap || hi < -gap;
}

static const spx_triangle_edges all_open = { { SPX_EDGE_OPEN, SPX_EDGE_OPEN, SPX_EDGE_OPEN }, 7 };

/* Least d . m over directions the triangle admits, less rounding: a normal farther is refused. */
static double admit_floor(const spx_triangle_edges* e)
{
    double least = e->corners ? -ADMIT_SLACK : cos(ADMIT_SLACK);
    const double lean = sqrt(1.0 - ACROSS_SINE * ACROSS_SINE);
    for (int j = 0; j < 3; ++j) {
        const double a = e->angle[j];
        const double reach = (fabs(a) >= SPX_EDGE_OPEN ? MM_PI : spx_dmax(a, 0.0)) + ADMIT_SLACK;
        if (reach <= 0.5 * MM_PI && least <= 0.0) continue; /* no lower than a corner's */
        /* Up to square, 1 - x^2 / 2 (never above cos x) spares the cosine. */
        const double f =
            reach >= MM_PI ? -1.0 : (reach <= 0.5 * MM_PI ? lean * (1.0 - 0.5 * reach * reach) : cos(reach));
        least = spx_dmin(least, f);
    }
    return least - 1e-9;
}

/* A's ia against B's ib (mesh order); point_count 0: none. Returns whether the exact test ran. */
static bool pair_contact(spx_mesh_instance* a, spx_mesh_instance* b, uint32_t ia, uint32_t ib, float margin,
                         bool surface_edges, const mesh_side* side_a, const mesh_side* side_b, pair_entry* out)
{
    out->point_count = 0;
    const spx_triangle* ta = &a->triangles[ia];
    const spx_triangle* tb = &b->triangles[ib];
    const spx_dvec3 origin = spx_pair_origin(ta->v[0], tb->v[0]);
    spx_tri_shape sa, sb;
    spx_tri_shape_make(ta, origin, NULL, &sa);
    spx_tri_shape_make(tb, origin, NULL, &sb);
    /* A segment-like triangle has no face; its neighbours carry the surface. */
    if (sa.segment || sb.segment) return false;
    spx_triangle_edges ea = all_open, eb = all_open;
    if (surface_edges) {
        ea = spx_mesh_edges_unpack(a->mesh->edges[ia]);
        eb = spx_mesh_edges_unpack(b->mesh->edges[ib]);
    }
    spx_dvec3 ma = spx_d3_scale(sa.n, 1.0 / spx_d3_len(sa.n)), mb = spx_d3_scale(sb.n, 1.0 / spx_d3_len(sb.n));
    face_other_side(side_a, origin, &sa, &ma, &ea);
    face_other_side(side_b, origin, &sb, &mb, &eb);
    double far = 0.0;
    for (int k = 0; k < 3; ++k) {
        const spx_vec3 va = ta->v[k], vb = tb->v[k];
        far = spx_dmax(far, spx_dmax(fabs(va.x), spx_dmax(fabs(va.y), fabs(va.z))));
        far = spx_dmax(far, spx_dmax(fabs(vb.x), spx_dmax(fabs(vb.y), fabs(vb.z))));
    }
    const double same = SPX_TRI_SAME_POINT * (far + sa.longest + sb.longest);
    /* Most pairs are apart, and a plane side costs six products against hundreds. */
    if (beyond_plane(&sa, ma, &sb, margin + same) || beyond_plane(&sb, mb, &sa, margin + same)) return false;
    /* Normals lie within acos(floor_a) of m_A and acos(floor_b) of -m_B: pairs whose front normals
       cannot meet so (crossing deep inside, facing alike) give none. */
    const double floor_a = admit_floor(&ea), floor_b = admit_floor(&eb);
    const double facing = -spx_d3_dot(ma, mb); /* cos(m_A, -m_B) */
    const bool face_b = facing >= floor_a, face_a = facing >= floor_b;
    if (!face_a && !face_b &&
        acos(spx_dmax(-1.0, spx_dmin(1.0, facing))) >
            acos(spx_dmax(-1.0, floor_a)) + acos(spx_dmax(-1.0, floor_b)) + 1e-9)
        return false;
    /* Depth behind a plane says nothing of a triangle not near it. */
    const spx_vec3 still = { 0.0f, 0.0f, 0.0f };
    spx_sweep_hit hit;
    spx_sweep_triangle_triangle_checked(ta, still, tb, still, 0.0f, &hit);
    spx_dvec3 ca = { 0, 0, 0 }, cb = { 0, 0, 0 };
    double dist = 0.0;
    if (hit.state == SPX_SWEEP_MISS) {
        dist = sqrt(triangle_closest(&sa, &sb, &ca, &cb));
        if (!(dist <= margin)) return true;
    }

    face_contact fb, fa;
    fb.any = fa.any = false;
    if (face_b) face_contact_of(&sb, mb, &sa, ma, &ea, true, margin, same, &fb);
    if (face_a) face_contact_of(&sa, ma, &sb, mb, &eb, false, margin, same, &fa);
    const face_contact* f = NULL;
    if (fa.any && fb.any) {
        if (fabs(fa.deepest - fb.deepest) > same) f = fa.deepest < fb.deepest ? &fa : &fb;
        else {
            /* Equal to rounding: the larger triangle, then the lower first corner: independent of which is A. */
            const double area_a = spx_d3_len2(sa.n), area_b = spx_d3_len2(sb.n);
            if (area_a != area_b) f = area_a > area_b ? &fa : &fb;
            else {
                const spx_dvec3 pa = sa.p[0], pb = sb.p[0];
                const bool a_low = pa.x != pb.x ? pa.x < pb.x : (pa.y != pb.y ? pa.y < pb.y : pa.z <= pb.z);
                f = a_low ? &fa : &fb;
            }
        }
    } else if (fa.any) f = &fa;
    else if (fb.any) f = &fb;

    const uint32_t src_a = a->mesh->source[ia], src_b = b->mesh->source[ib];
    out->source_a = src_a;
    out->source_b = src_b;
    if (f) {
        out->normal = spx_d3_to_float(f->normal);
        const int n = f->n < PAIR_POINTS ? f->n : PAIR_POINTS; /* at most 6 */
        for (int i = 0; i < n; ++i) {
            const uint32_t c = f->code[i];
            out->points[i].point = spx_d3_to_float(spx_d3_add(origin, f->point[i]));
            out->points[i].depth = (float)f->depth[i];
            if (c < CODE_B_CORNER) out->points[i].id = CODE_A_CORNER | vertex_key(a->mesh->triangles[ia].v[c]) << 4;
            else if (c < CODE_EDGES)
                out->points[i].id = CODE_B_CORNER | vertex_key(b->mesh->triangles[ib].v[c - 3]) << 4;
            else out->points[i].id = c | pair_key(src_a, src_b) << 4;
        }
        out->point_count = n;
    } else {
        spx_dvec3 n, p;
        double depth;
        if (!edge_contact(&hit, ca, cb, dist, &sa, ma, &ea, &sb, mb, &eb, origin, &n, &p, &depth)) return true;
        out->normal = spx_d3_to_float(n);
        out->points[0].point = spx_d3_to_float(spx_d3_add(origin, p));
        out->points[0].depth = (float)depth;
        out->points[0].id = CODE_SINGLE | pair_key(src_a, src_b) << 4;
        out->point_count = 1;
    }
    out->deepest = -FLT_MAX;
    for (int i = 0; i < out->point_count; ++i)
        out->deepest = out->points[i].depth > out->deepest ? out->points[i].depth : out->deepest;
    return true;
}

/* ---- grouping ---- */

/* Leader order: deeper, then the lower (triangle_a, triangle_b). */
static bool leads(float dx, uint32_t ax, uint32_t bx, float dy, uint32_t ay, uint32_t by)
{
    if (dx != dy) return dx > dy;
    return ax != ay ? ax < ay : bx < by;
}

static void take(mm_state* mm, const pair_entry* e)
{
    const uint32_t g = spx_group_find(mm->groups, mm->group_count, e->normal);
    if (g == mm->group_count) {
        if (mm->group_count < mm->group_max &&
            (!mm->found || leads(e->deepest, e->source_a, e->source_b, mm->found_depth, mm->found_a, mm->found_b))) {
            mm->found = true;
            mm->found_depth = e->deepest;
            mm->found_a = e->source_a;
            mm->found_b = e->source_b;
            mm->found_normal = e->normal;
        }
        return;
    }
    spx_point_group* gr = &mm->groups[g];
    const float scale = spx_group_dot(e->normal, gr->normal);
    for (int i = 0; i < e->point_count; ++i) {
        spx_manifold_point p = e->points[i];
        p.depth *= scale;
        spx_group_offer(gr, &p, (p.id & 15u) < CODE_EDGES ? mm->bonus : 0.0f);
    }
}

static void visit_pair(void* context, uint32_t ta, uint32_t tb)
{
    mm_state* mm = context;
    pair_entry e;
    mm->tested += pair_contact(mm->pairs.a, mm->pairs.b, ta, tb, mm->pairs.margin, mm->pairs.surface_edges, &mm->side_a,
                               &mm->side_b, &e);
    if (e.point_count == 0) return;
    if (e.deepest > mm->deepest) mm->deepest = e.deepest;
    if (mm->cached < mm->cache_capacity) mm->cache[mm->cached++] = e;
    else mm->overflow = true;
    take(mm, &e);
}

/* Sunk within the margin: a pair crossing the other's plane gave a point deeper than the margin. */
static bool sunk_deep(void* context)
{
    mm_state* mm = context;
    mm->sunk_deep = mm->deepest > mm->pairs.margin;
    return mm->sunk_deep;
}

/* Over budget within a margin: sunk, retried without it; without one: the spread sample. */
static void run_pairs(mm_state* mm)
{
    mesh_pairs* mp = &mm->pairs;
    ++mm->runs;
    const bool counted = !(mp->margin > 0.0f);
    mp->sunk = counted || !mm->remember ? NULL : sunk_deep;
    mm->deepest = -FLT_MAX;
    mm->cut = !mesh_pairs_joint(mp);
    mm->handed += mp->handed;
    if (!mm->cut || !counted) return;
    ++mm->runs;
    mm->cut = mesh_pairs_sample(mp);
    mm->handed += mp->handed;
}

/* Directions a function of the normal's line (-n and swapped meshes agree), 0.3 rad off the world
   axes so a mesh square to them has corners, not ties, at the extremes; the 1e-6 tilt likewise. */
static void group_start(mm_state* mm, spx_vec3 n)
{
    spx_dvec3 nd = spx_d3_from(n);
    const double big =
        fabs(nd.x) >= fabs(nd.y) && fabs(nd.x) >= fabs(nd.z) ? nd.x : (fabs(nd.y) >= fabs(nd.z) ? nd.y : nd.z);
    if (big < 0.0) nd = spx_d3_neg(nd);
    const double ax = fabs(nd.x), ay = fabs(nd.y), az = fabs(nd.z);
    const spx_dvec3 e = ax <= ay && ax <= az ? spx_d3(1, 0, 0) : (ay <= az ? spx_d3(0, 1, 0) : spx_d3(0, 0, 1));
    spx_dvec3 u0 = spx_d3_cross(e, nd);
    u0 = spx_d3_scale(u0, 1.0 / spx_d3_len(u0));
    const spx_dvec3 v0 = spx_d3_cross(nd, u0);
    const double c = cos(0.3), s = sin(0.3);
    const spx_dvec3 u = spx_d3_add(spx_d3_scale(u0, c), spx_d3_scale(v0, s));
    const spx_dvec3 v = spx_d3_sub(spx_d3_scale(v0, c), spx_d3_scale(u0, s));
    spx_point_group* g = &mm->groups[mm->group_count++];
    spx_group_init(g, n, spx_d3_to_float(u), spx_d3_to_float(v), mm->origin, SPX_GROUP_LEAN_ALL);
    g->tilt = spx_d3_to_float(spx_d3_scale(spx_d3_mad(u, v, 0.5), 1e-6));
}

/* A closed mesh's solid centre in world space, else its root box centre. */
static spx_dvec3 mesh_centre(spx_mesh_instance* m)
{
    if (m->mesh->mass.status == SPX_OK) {
        const double* c = m->mesh->mass.center;
        spx_dvec3 w = spx_d3(m->position[0], m->position[1], m->position[2]);
        for (int i = 0; i < 3; ++i)
            w = spx_d3_mad(w, spx_d3(m->rotation[i][0], m->rotation[i][1], m->rotation[i][2]), c[i]);
        return w;
    }
    const spx_world_box* root = spx_mesh_instance_node(m, 0);
    return spx_d3(root->center[0], root->center[1], root->center[2]);
}

size_t spx_manifold_mesh_mesh_pair_bytes(void) { return sizeof(pair_entry); }

void spx_manifold_mesh_mesh_checked(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                    spx_manifold* out, uint32_t capacity, uint32_t* out_count)
{
    spx_manifold_mesh_mesh_buffered(a, b, margin, surface_edges, NULL, 0, out, capacity, out_count, NULL);
}

void spx_manifold_mesh_mesh_buffered(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                     void* buffer, size_t buffer_bytes, spx_manifold* out, uint32_t capacity,
                                     uint32_t* out_count, spx_mesh_pair_stats* stats)
{
    spx_manifold_mesh_mesh_kept(a, b, margin, surface_edges, buffer, buffer_bytes, out, capacity, out_count, stats,
                                NULL);
}

void spx_manifold_mesh_mesh_kept(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                 void* buffer, size_t buffer_bytes, spx_manifold* out, uint32_t capacity,
                                 uint32_t* out_count, spx_mesh_pair_stats* stats, bool* sunk)
{
    mm_state state; /* the cache is written before it is read */
    mm_state* mm = &state;
    /* Past the cache each later manifold descends both trees again; a larger buffer avoids it. */
    mm->cache = mm->local;
    mm->cache_capacity = CACHE_PAIRS;
    if (buffer && buffer_bytes / sizeof(pair_entry) > CACHE_PAIRS) {
        mm->cache = buffer;
        mm->cache_capacity =
            (uint32_t)(buffer_bytes / sizeof(pair_entry) < UINT32_MAX ? buffer_bytes / sizeof(pair_entry) : UINT32_MAX);
    }
    mm->pairs.a = a;
    mm->pairs.b = b;
    mm->pairs.margin = margin;
    mm->pairs.surface_edges = surface_edges;
    mm->pairs.pair = visit_pair;
    mm->pairs.context = mm;
    mm->pairs.budget = SPX_MESH_PAIR_BUDGET;
    mm->pairs.gathered = mm->gathered;
    mm->pairs.crossing = mm->crossing;
    mm->remember = sunk != NULL;
    mm->sunk_deep = false;
    mm->cut = false;
    mm->runs = 0;
    mm->handed = 0;
    mm->tested = 0;
    if (stats) memset(stats, 0, sizeof *stats);
    mm->cached = 0;
    mm->overflow = false;
    mm->group_count = 0;
    mm->found = false;
    mm->origin =
        spx_v3((float)(0.5 * (a->position[0] + b->position[0])), (float)(0.5 * (a->position[1] + b->position[1])),
               (float)(0.5 * (a->position[2] + b->position[2])));
    /* One bonus for the query (the points lie in both root boxes): of two corners at one place the
       lower id wins. */
    double reach[2];
    for (int i = 0; i < 2; ++i) {
        const spx_world_box* w = spx_mesh_instance_node(i == 0 ? a : b, 0);
        reach[i] = fmax(fabs(w->center[0]), fmax(fabs(w->center[1]), fabs(w->center[2]))) + w->half[0] + w->half[1] +
                   w->half[2];
    }
    mm->bonus = (float)(SPX_TRI_SAME_POINT * fmin(reach[0], reach[1]));
    mm->side_a.open = !a->mesh->closed;
    mm->side_a.toward = mesh_centre(b);
    mm->side_b.open = !b->mesh->closed;
    mm->side_b.toward = mesh_centre(a);
    mm->group_max = capacity < SPX_MAX_MESH_MANIFOLDS ? capacity : SPX_MAX_MESH_MANIFOLDS;
    *out_count = 0;
    if (mm->group_max == 0) return;

    /* Leaders deepest first; each pass finds the next among the pairs no group takes. */
    /* Sunk last step: the touching pairs only, as past the budget, for as long as any overlaps (a
       state flipping step to step shakes threaded rings); once none does, those within the margin. */
    bool held = sunk && *sunk && margin > 0.0f;
    if (held) {
        mm->pairs.margin = 0.0f;
        run_pairs(mm);
        held = mm->deepest > 0.0f;
        if (!held) {
            mm->pairs.margin = margin;
            mm->cached = 0;
            mm->overflow = false;
            mm->found = false;
        }
    }
    if (!held) {
        run_pairs(mm);
        if (sunk) *sunk = mm->sunk_deep || (mm->cut && mm->pairs.margin > 0.0f);
    }
    if (!held && mm->cut && mm->pairs.margin > 0.0f) {
        /* Sunk: overlap matters, not gaps, and far fewer pairs touch than come within the margin. */
        mm->pairs.margin = 0.0f;
        mm->cached = 0;
        mm->overflow = false;
        mm->found = false;
        run_pairs(mm);
    }
    if (stats) {
        stats->pairs = mm->tested;
        stats->cut = mm->cut;
        stats->margin = mm->pairs.margin;
    }
    while (mm->found) {
        group_start(mm, mm->found_normal);
        mm->found = false;
        if (!mm->overflow) {
            for (uint32_t i = 0; i < mm->cached; ++i) take(mm, &mm->cache[i]);
        } else {
            mm->cached = mm->cache_capacity; /* full: visit_pair() only offers */
            run_pairs(mm);
        }
    }
    for (uint32_t g = 0; g < mm->group_count; ++g) spx_group_finish(&mm->groups[g], &out[g]);
    *out_count = mm->group_count;
    if (stats) stats->runs = mm->runs;
}

SPX_API spx_result spx_manifold_mesh_mesh(spx_mesh_instance* a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                          uint32_t capacity, uint32_t* out_count)
{
    if (!a || !b || !out_count || (!out && capacity > 0) || a == b) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_check_margin(margin);
    if (r != SPX_OK) return r;
    spx_manifold_mesh_mesh_checked(a, b, margin, true, out, capacity, out_count);
    return SPX_OK;
}
