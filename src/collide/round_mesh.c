/* Spheres and capsules against a triangle mesh through its OBB tree: overlap, sweep and manifolds, with the
 * surface-edge rule (no ghost bumps) and ids stable across triangles. See docs/shapes.md#contacts and
 * docs/meshes.md#contact-manifolds. */
#include "round_core.h"
#include "manifold_group.h"
#include "manifold_triangle.h"
#include "mesh_descent.h"
#include "geometry/mesh.h"
#include "geometry/validate.h"
#include <sepax/round.h>
#include <float.h>
#include <string.h>

#define ROUND_MESH_PI 3.14159265358979323846
/* rad: slack outside an edge's wedge for the normal's rounding */
#define ROUND_WEDGE_SLACK 1e-5

/* A box holding the piece (a capsule's segment along axis 0), half extents grown by `grow`. */
static spx_obb bound_box(round_piece a, double grow)
{
    spx_obb box;
    memset(&box, 0, sizeof box);
    double r;
    spx_dvec3 p0, p1;
    if (a.kind == ROUND_POINT) {
        const spx_sphere* s = a.shape;
        p0 = p1 = spx_d3_from(s->center);
        r = s->radius;
    } else {
        const spx_capsule* c = a.shape;
        p0 = spx_d3_from(c->p[0]);
        p1 = spx_d3_from(c->p[1]);
        r = c->radius;
    }
    spx_dvec3 u = spx_d3_sub(p1, p0);
    const double len = sqrt(spx_d3_len2(u));
    u = len > 0.0 ? spx_d3_scale(u, 1.0 / len) : spx_d3(1, 0, 0);
    spx_dvec3 v = fabs(u.x) < 0.57735 ? spx_d3(0, -u.z, u.y) : spx_d3(-u.y, u.x, 0);
    v = spx_d3_scale(v, 1.0 / sqrt(spx_d3_len2(v)));
    const spx_dvec3 w = spx_d3_cross(u, v);
    box.center = spx_d3_to_float(spx_d3_scale(spx_d3_add(p0, p1), 0.5));
    /* Rounded outwards: float rounding must not lose a touching triangle. */
    const double far = fmax(fabs(box.center.x), fmax(fabs(box.center.y), fabs(box.center.z)));
    const double pad = 4.0 * FLT_EPSILON * (far + 0.5 * len + r + grow) + 1e-30;
    box.half_extents = spx_v3((float)(0.5 * len + r + grow + pad), (float)(r + grow + pad), (float)(r + grow + pad));
    box.rotation.col[0] = spx_d3_to_float(u);
    box.rotation.col[1] = spx_d3_to_float(v);
    box.rotation.col[2] = spx_d3_to_float(w);
    for (int k = 0; k < 3; ++k)
        if (!((&box.half_extents.x)[k] <= FLT_MAX)) (&box.half_extents.x)[k] = FLT_MAX;
    return box;
}

/* May normal n (piece to triangle) come from the triangle's feature nearest the piece? The face always; an edge where
   the surface turns away (convex, open) and -n is in its wedge; a corner the surface has. */
static bool admitted(const round_core* t, const spx_triangle_edges* edges, spx_dvec3 n, spx_dvec3 core_point)
{
    const spx_dvec3 d = spx_d3_neg(n);
    double pr[3], top = -INFINITY;
    for (int k = 0; k < 3; ++k) top = spx_dmax(top, pr[k] = spx_d3_dot(t->v[k], d));
    unsigned near = 0;
    for (int k = 0; k < 3; ++k)
        if (top - pr[k] <= 1e-6 * t->size) near |= 1u << k;
    if (near == 7u) return true;
    if (near == 1u || near == 2u || near == 4u) return (edges->corners & near) != 0;
    const int j = near == 3u ? 0 : (near == 6u ? 1 : 2);
    const double a = edges->angle[j];
    const double side = spx_d3_dot(spx_d3_sub(core_point, t->v[0]), t->normal) >= 0.0 ? 1.0 : -1.0;
    const double wedge = fabs(a) >= SPX_EDGE_OPEN ? ROUND_MESH_PI : side * a;
    if (!(wedge > 0.0)) return false; /* flat or concave from the piece's side */
    const double angle = atan2(sqrt(spx_d3_len2(spx_d3_cross(d, spx_d3_scale(t->normal, side)))),
                               spx_d3_dot(d, spx_d3_scale(t->normal, side)));
    return angle <= wedge + ROUND_WEDGE_SLACK;
}

/* The piece's manifold with one triangle under the surface-edge rule; the mask of round_pair_manifold. */
static unsigned triangle_manifold(round_piece a, const spx_triangle* tri, const spx_triangle_edges* edges,
                                  double margin, spx_manifold* out)
{
    round_pair p;
    round_pair_make(a, (round_piece){ ROUND_TRIANGLE, tri }, &p);
    spx_dvec3 n, pa, pb;
    double sep;
    int axis;
    round_contact_normal(&p, &p.b, spx_d3(0, 0, 0), &n, &sep, &axis, &pa, &pb);
    out->point_count = 0;
    if (sep > p.ra + p.rb + margin) return 0;
    if (!edges || spx_d3_len2(p.b.normal) == 0.0 || admitted(&p.b, edges, n, pa))
        return round_pair_manifold(&p, margin, n, sep, pa, pb, out);
    return round_pair_face_manifold(&p, margin, out);
}

/* ---- manifold ---- */

typedef struct round_mesh {
    round_piece a;
    spx_mesh_instance* inst;
    double margin;
    float same;            /* points closer than this are one */
    spx_vec3 center, axis; /* a capsule's direction is zero for a sphere */
    bool capsule;
    spx_group_leaders leaders;
    /* Each group's nearest point at the capsule's own ends (ids 0, 1), which the extremes may pass over. */
    spx_group_slot ends[SPX_MAX_MESH_MANIFOLDS][2];
} round_mesh;

static void group_start(round_mesh* rm, spx_vec3 normal)
{
    spx_dvec3 n = spx_d3_from(normal), u = spx_d3_from(rm->axis);
    u = spx_d3_sub(u, spx_d3_scale(n, spx_d3_dot(u, n)));
    if (spx_d3_len2(u) < 1e-6) u = fabs(n.x) < 0.57735 ? spx_d3(0, -n.z, n.y) : spx_d3(-n.y, n.x, 0);
    u = spx_d3_scale(u, 1.0 / sqrt(spx_d3_len2(u)));
    const spx_dvec3 v = spx_d3_cross(n, u);
    spx_group_init(&rm->leaders.groups[rm->leaders.count++], normal, spx_d3_to_float(u), spx_d3_to_float(v), rm->center,
                   SPX_GROUP_LEAN_ALL);
}

static bool visit_manifold(void* context, uint32_t t)
{
    round_mesh* rm = context;
    const spx_mesh* mesh = rm->inst->mesh;
    const spx_triangle_edges edges = spx_mesh_edges_unpack(mesh->edges[t]);
    spx_manifold m;
    const unsigned clipped = triangle_manifold(rm->a, &rm->inst->triangles[t], &edges, rm->margin, &m);
    if (m.point_count == 0) return false;
    const uint32_t source = mesh->source[t];
    const uint32_t g = spx_group_find(rm->leaders.groups, rm->leaders.count, m.normal);
    if (g == rm->leaders.count) {
        float deepest = -FLT_MAX;
        for (int i = 0; i < m.point_count; ++i) deepest = fmaxf(deepest, m.points[i].depth);
        spx_leaders_offer(&rm->leaders, deepest, source, m.normal);
        return false;
    }
    spx_point_group* gr = &rm->leaders.groups[g];
    const float scale = spx_group_dot(m.normal, gr->normal);
    for (int i = 0; i < m.point_count; ++i) {
        spx_manifold_point q = m.points[i];
        q.depth *= scale;
        const bool cut = (clipped >> i) & 1u;
        if (cut) q.id = (3u + q.id) | source << 6;
        else if (rm->capsule && q.id < 2u) spx_group_slot_offer(&rm->ends[g][q.id], &q, q.depth, 0.0f);
        /* The piece's own end wins over a cut end at the same place: its id stays as it slides. */
        spx_group_offer(gr, &q, cut ? 0.0f : rm->same);
    }
    return false;
}

/* A capsule's own ends within the margin stay, room allowing: kept to one end by depth, a capsule landing on it would
   let the other swing down into the mesh with no point. */
static void keep_ends(spx_manifold* m, const spx_group_slot ends[2])
{
    for (int k = 0; k < 2; ++k) {
        if (!ends[k].used || m->point_count == SPX_MAX_MANIFOLD_POINTS) continue;
        int j = 0;
        while (j < m->point_count && m->points[j].id != ends[k].p.id) ++j;
        if (j < m->point_count) continue;
        j = m->point_count++;
        while (j > 0 && m->points[j - 1].id > ends[k].p.id) {
            m->points[j] = m->points[j - 1];
            --j;
        }
        m->points[j] = ends[k].p;
    }
}

static spx_result round_mesh_manifold(round_piece a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                      uint32_t capacity, uint32_t* out_count)
{
    if (!a.shape || !b || !out_count || (!out && capacity > 0)) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(round_piece_check(a), spx_check_margin(margin));
    if (r != SPX_OK) return r;
    round_mesh rm;
    memset(&rm, 0, sizeof rm);
    rm.a = a;
    rm.inst = b;
    rm.margin = margin;
    const spx_obb grown = bound_box(a, margin);
    rm.center = grown.center;
    if (a.kind == ROUND_SEGMENT) {
        const spx_capsule* c = a.shape;
        rm.axis = spx_v3(c->p[1].x - c->p[0].x, c->p[1].y - c->p[0].y, c->p[1].z - c->p[0].z);
        rm.capsule = true;
    }
    const float far = fmaxf(fabsf(grown.center.x), fmaxf(fabsf(grown.center.y), fabsf(grown.center.z)));
    rm.same = (float)SPX_TRI_SAME_POINT * (far + grown.half_extents.x + grown.half_extents.y + grown.half_extents.z);
    rm.leaders.max = capacity < SPX_MAX_MESH_MANIFOLDS ? capacity : SPX_MAX_MESH_MANIFOLDS;
    *out_count = 0;
    if (rm.leaders.max == 0) return SPX_OK;
    /* Leaders deepest first, each pass grouping into the groups so far, so the tree's order does not matter. */
    spx_descend_visit(&grown, b, visit_manifold, &rm);
    while (rm.leaders.found) {
        group_start(&rm, rm.leaders.found_normal);
        rm.leaders.found = false;
        spx_descend_visit(&grown, b, visit_manifold, &rm);
    }
    spx_leaders_finish(&rm.leaders, out, out_count);
    for (uint32_t g = 0; g < rm.leaders.count; ++g) keep_ends(&out[g], rm.ends[g]);
    return SPX_OK;
}

/* ---- overlap ---- */

typedef struct round_overlap {
    round_piece a;
    spx_mesh_instance* inst;
    bool hit;
} round_overlap;

static bool visit_overlap(void* context, uint32_t t)
{
    round_overlap* ro = context;
    round_pair p;
    round_pair_make(ro->a, (round_piece){ ROUND_TRIANGLE, &ro->inst->triangles[t] }, &p);
    spx_dvec3 n, pa, pb;
    double sep;
    int axis;
    round_contact_normal(&p, &p.b, spx_d3(0, 0, 0), &n, &sep, &axis, &pa, &pb);
    ro->hit = sep <= p.ra + p.rb;
    return ro->hit;
}

static spx_result round_mesh_overlap(round_piece a, spx_mesh_instance* b, bool* out)
{
    if (!a.shape || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = round_piece_check(a);
    if (r != SPX_OK) return r;
    round_overlap ro = { a, b, false };
    const spx_obb box = bound_box(a, 0.0);
    spx_descend_visit(&box, b, visit_overlap, &ro);
    *out = ro.hit;
    return SPX_OK;
}

/* ---- sweep ---- */

typedef struct round_sweep {
    round_piece a;
    spx_mesh_instance* inst;
    spx_vec3 va, vb;
    float tmax;
    bool have;
    spx_sweep_hit best;
    uint32_t best_source, best_triangle;
} round_sweep;

/* Earlier first; at the start, deeper first; ties to the lower triangle number in the def. */
static bool better(const spx_sweep_hit* h, uint32_t source, const round_sweep* rs)
{
    if (!rs->have) return true;
    const spx_sweep_hit* b = &rs->best;
    const bool h0 = h->state == SPX_SWEEP_START_OVERLAP, b0 = b->state == SPX_SWEEP_START_OVERLAP;
    if (h0 != b0) return h0;
    if (h0) return h->depth > b->depth || (h->depth == b->depth && source < rs->best_source);
    return h->time < b->time || (h->time == b->time && source < rs->best_source);
}

static bool visit_sweep(void* context, uint32_t t)
{
    round_sweep* rs = context;
    const spx_triangle* tri = &rs->inst->triangles[t];
    spx_sweep_hit h;
    const spx_result r = rs->a.kind == ROUND_POINT
                             ? spx_sweep_sphere_triangle(rs->a.shape, rs->va, tri, rs->vb, rs->tmax, &h)
                             : spx_sweep_capsule_triangle(rs->a.shape, rs->va, tri, rs->vb, rs->tmax, &h);
    if (r != SPX_OK || h.state == SPX_SWEEP_MISS) return false;
    const uint32_t source = rs->inst->mesh->source[t];
    if (better(&h, source, rs)) {
        rs->have = true;
        rs->best = h;
        rs->best_source = source;
        rs->best_triangle = t;
    }
    return false;
}

static spx_result round_mesh_sweep(round_piece a, spx_vec3 velocity_a, spx_mesh_instance* b, spx_vec3 velocity_b,
                                   float tmax, spx_sweep_hit* out, uint32_t* out_triangle)
{
    if (!a.shape || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(round_piece_check(a), spx_check_motion(velocity_a, velocity_b, tmax));
    if (r != SPX_OK) return r;
    round_sweep rs;
    memset(&rs, 0, sizeof rs);
    rs.a = a, rs.inst = b, rs.va = velocity_a, rs.vb = velocity_b, rs.tmax = tmax;
    const double dx = ((double)velocity_a.x - velocity_b.x) * tmax, dy = ((double)velocity_a.y - velocity_b.y) * tmax,
                 dz = ((double)velocity_a.z - velocity_b.z) * tmax;
    spx_obb box = bound_box(a, 0.0);
    spx_obb swept;
    memset(&swept, 0, sizeof swept);
    swept.rotation.col[0] = spx_v3(1, 0, 0), swept.rotation.col[1] = spx_v3(0, 1, 0),
    swept.rotation.col[2] = spx_v3(0, 0, 1);
    const double d[3] = { dx, dy, dz };
    for (int k = 0; k < 3; ++k) {
        const double h = fabs((&box.rotation.col[0].x)[k]) * box.half_extents.x +
                         fabs((&box.rotation.col[1].x)[k]) * box.half_extents.y +
                         fabs((&box.rotation.col[2].x)[k]) * box.half_extents.z;
        const double c = (&box.center.x)[k];
        const double lo = c - h + fmin(d[k], 0.0), hi = c + h + fmax(d[k], 0.0);
        (&swept.center.x)[k] = (float)(0.5 * (lo + hi));
        const double half = 0.5 * (hi - lo);
        (&swept.half_extents.x)[k] = (float)(half + 4.0 * FLT_EPSILON * (half + fabs(0.5 * (lo + hi))) + 1e-30);
    }
    spx_descend_visit(&swept, b, visit_sweep, &rs);
    if (!rs.have) {
        memset(out, 0, sizeof *out);
        if (out_triangle) *out_triangle = SPX_NO_TRIANGLE;
        return SPX_OK;
    }
    *out = rs.best;
    if (out_triangle) *out_triangle = rs.best_source;
    return SPX_OK;
}

#define PIECE(k, s) ((round_piece){ (k), (s) })

SPX_API spx_result spx_overlap_sphere_mesh(const spx_sphere* a, spx_mesh_instance* b, bool* out_overlap)
{
    return round_mesh_overlap(PIECE(ROUND_POINT, a), b, out_overlap);
}
SPX_API spx_result spx_overlap_capsule_mesh(const spx_capsule* a, spx_mesh_instance* b, bool* out_overlap)
{
    return round_mesh_overlap(PIECE(ROUND_SEGMENT, a), b, out_overlap);
}
SPX_API spx_result spx_sweep_sphere_mesh(const spx_sphere* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out, uint32_t* out_triangle)
{
    return round_mesh_sweep(PIECE(ROUND_POINT, a), velocity_a, b, velocity_b, tmax, out, out_triangle);
}
SPX_API spx_result spx_sweep_capsule_mesh(const spx_capsule* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                          spx_vec3 velocity_b, float tmax, spx_sweep_hit* out, uint32_t* out_triangle)
{
    return round_mesh_sweep(PIECE(ROUND_SEGMENT, a), velocity_a, b, velocity_b, tmax, out, out_triangle);
}
SPX_API spx_result spx_manifold_sphere_mesh(const spx_sphere* a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                            uint32_t capacity, uint32_t* out_count)
{
    return round_mesh_manifold(PIECE(ROUND_POINT, a), b, margin, out, capacity, out_count);
}
SPX_API spx_result spx_manifold_capsule_mesh(const spx_capsule* a, spx_mesh_instance* b, float margin,
                                             spx_manifold* out, uint32_t capacity, uint32_t* out_count)
{
    return round_mesh_manifold(PIECE(ROUND_SEGMENT, a), b, margin, out, capacity, out_count);
}
