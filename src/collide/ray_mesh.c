/* A ray against a placed mesh, taken into the mesh's frame once and down the OBB tree nearer child first; triangles
   are tested as stored, so watertight at any pose. Also point-in-closed-mesh by crossing parity. */
#include "ray.h"
#include "geometry/mesh.h"
#include "geometry/validate.h"
#include "math/simd.h"
#include <math.h>

/* A node box grown by this much of its size and distance from the origin surely holds its triangles as the double
   test sees them: pruning never drops a hit. */
#define NODE_PAD 1e-5

/* One per level of the deepest tree (obb_tree.h), plus one. */
#define RAY_STACK 96

static inline bool node_entry(const spx_ray* ray, const spx_obb* box, double tmax, double* out_t)
{
    return spx_ray_obb_entry(ray, box, NODE_PAD, tmax, out_t);
}

typedef struct ray_lanes {
    spx_d2 org[3], dir[3];
} ray_lanes;

/* node_entry on two boxes, lane l for box l, in spx_ray_obb_entry's order (the same bits). Bit l: the ray enters box
   l, at out_t[l]. */
static inline int node_entry2(const ray_lanes* r, const spx_obb* b0, const spx_obb* b1, double tmax, double out_t[2])
{
    const spx_d2 c[3] = { spx_d2_of_floats(b0->center.x, b1->center.x), spx_d2_of_floats(b0->center.y, b1->center.y),
                          spx_d2_of_floats(b0->center.z, b1->center.z) };
    const spx_d2 h[3] = { spx_d2_of_floats(b0->half_extents.x, b1->half_extents.x),
                          spx_d2_of_floats(b0->half_extents.y, b1->half_extents.y),
                          spx_d2_of_floats(b0->half_extents.z, b1->half_extents.z) };
    const spx_d2 rel[3] = { spx_d2_sub(r->org[0], c[0]), spx_d2_sub(r->org[1], c[1]), spx_d2_sub(r->org[2], c[2]) };
    spx_d2 reach = spx_d2_add(spx_d2_add(h[0], h[1]), h[2]);
    for (int k = 0; k < 3; ++k) reach = spx_d2_add(reach, spx_d2_abs(c[k]));
    const spx_d2 pad = spx_d2_mul(spx_d2_splat(NODE_PAD), reach);
    spx_d2 enter = spx_d2_splat(0.0), leave = spx_d2_splat(tmax);
    for (int i = 0; i < 3; ++i) {
        const spx_vec3 a0 = b0->rotation.col[i], a1 = b1->rotation.col[i];
        const spx_d2 u[3] = { spx_d2_of_floats(a0.x, a1.x), spx_d2_of_floats(a0.y, a1.y),
                              spx_d2_of_floats(a0.z, a1.z) };
        const spx_d2 o =
            spx_d2_add(spx_d2_add(spx_d2_mul(rel[0], u[0]), spx_d2_mul(rel[1], u[1])), spx_d2_mul(rel[2], u[2]));
        const spx_d2 d = spx_d2_add(spx_d2_add(spx_d2_mul(r->dir[0], u[0]), spx_d2_mul(r->dir[1], u[1])),
                                    spx_d2_mul(r->dir[2], u[2]));
        const spx_d2 hh = spx_d2_copysign(spx_d2_add(h[i], pad), d);
        const spx_d2 inv = spx_d2_div(spx_d2_splat(1.0), d);
        const spx_d2 t1 = spx_d2_mul(spx_d2_sub(spx_d2_neg(hh), o), inv);
        const spx_d2 t2 = spx_d2_mul(spx_d2_sub(hh, o), inv);
        enter = spx_d2_max(t1, enter);
        leave = spx_d2_min(t2, leave);
    }
    spx_d2_store(out_t, enter);
    return spx_d2_le_mask(enter, leave);
}

bool spx_ray_mesh_local(const spx_mesh* mesh, const spx_ray* ray, double tmax, double* out_t, uint32_t* out_triangle)
{
    typedef struct item {
        uint32_t node;
        double t;
    } item;
    item stack[RAY_STACK];
    int top = 0;
    double best = tmax, t;
    uint32_t found = UINT32_MAX;
    if (!node_entry(ray, &mesh->nodes[0].box, best, &t)) return false;
    ray_lanes lanes;
    for (int k = 0; k < 3; ++k) lanes.org[k] = spx_d2_splat(ray->org[k]), lanes.dir[k] = spx_d2_splat(ray->dir[k]);
    stack[top++] = (item){ 0, t };
    while (top > 0) {
        const item it = stack[--top];
        if (it.t > best) continue;
        const spx_obb_node* n = &mesh->nodes[it.node];
        if (spx_obb_node_is_leaf(n)) {
            for (uint32_t i = n->first; i < n->first + n->count; ++i) {
                const spx_triangle* tri = &mesh->triangles[i];
                if (!spx_ray_triangle_t(ray, &tri->v[0], &tri->v[1], &tri->v[2], best, &t, NULL)) continue;
                if (t < best || found == UINT32_MAX || mesh->source[i] < mesh->source[found]) best = t, found = i;
            }
            continue;
        }
        double tc[2];
        const int hit = node_entry2(&lanes, &mesh->nodes[n->first].box, &mesh->nodes[n->first + 1].box, best, tc);
        const bool h0 = hit & 1, h1 = hit >> 1;
        const double t0 = tc[0], t1 = tc[1];
        if (top + 2 > RAY_STACK) return false; /* deeper than any tree obb_tree.c builds */
        /* Farther first, so the nearer is taken next and tightens `best` sooner. */
        if (h0 && h1 && t0 < t1) stack[top++] = (item){ n->first + 1, t1 }, stack[top++] = (item){ n->first, t0 };
        else {
            if (h0) stack[top++] = (item){ n->first, t0 };
            if (h1) stack[top++] = (item){ n->first + 1, t1 };
        }
    }
    if (found == UINT32_MAX) return false;
    *out_t = best;
    *out_triangle = found;
    return true;
}

static spx_result check_pose(const spx_transform* pose)
{
    const spx_quat q = pose->q;
    if (!spx_finite3(pose->p) || !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w))
        return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(pose->p)) return SPX_ERR_OUT_OF_RANGE;
    const double n2 = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
    if (fabs(n2 - 1.0) > 2.0 * SPX_ROTATION_TOLERANCE) return SPX_ERR_NOT_ORTHONORMAL;
    return SPX_OK;
}

static void to_local(const double r[3][3], const double p[3], const double x[3], bool point, double out[3])
{
    const double v[3] = { x[0] - (point ? p[0] : 0.0), x[1] - (point ? p[1] : 0.0), x[2] - (point ? p[2] : 0.0) };
    for (int i = 0; i < 3; ++i) out[i] = r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2];
}

void spx_ray_mesh_hit(const double o[3], const double d[3], float max_fraction, const spx_mesh* mesh,
                      const spx_transform* pose, spx_ray_hit* out)
{
    double rot[3][3], pos[3];
    spx_pose_matrix(pose, rot, pos);
    double lo[3], ld[3];
    to_local((const double(*)[3])rot, pos, o, true, lo);
    to_local((const double(*)[3])rot, pos, d, false, ld);
    spx_ray ray;
    spx_ray_init(&ray, lo, ld);
    *out = spx_ray_miss();
    double t;
    uint32_t i;
    if (!spx_ray_mesh_local(mesh, &ray, max_fraction, &t, &i)) return;
    const spx_triangle* tri = &mesh->triangles[i];
    double e1[3] = { (double)tri->v[1].x - tri->v[0].x, (double)tri->v[1].y - tri->v[0].y,
                     (double)tri->v[1].z - tri->v[0].z };
    double e2[3] = { (double)tri->v[2].x - tri->v[0].x, (double)tri->v[2].y - tri->v[0].y,
                     (double)tri->v[2].z - tri->v[0].z };
    double nl[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
    double n[3];
    for (int k = 0; k < 3; ++k) n[k] = rot[0][k] * nl[0] + rot[1][k] * nl[1] + rot[2][k] * nl[2];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (n[0] * d[0] + n[1] * d[1] + n[2] * d[2] > 0.0) len = -len;
    out->state = SPX_SWEEP_HIT;
    out->fraction = (float)t;
    out->point = spx_v3((float)(o[0] + t * d[0]), (float)(o[1] + t * d[1]), (float)(o[2] + t * d[2]));
    /* A triangle with corners on one line has no plane: the normal faces the ray. */
    const double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    out->normal = len != 0.0 ? spx_v3((float)(n[0] / len), (float)(n[1] / len), (float)(n[2] / len))
                             : spx_v3((float)(-d[0] / dl), (float)(-d[1] / dl), (float)(-d[2] / dl));
    out->triangle = mesh->source[i];
}

SPX_API spx_result spx_ray_mesh(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_mesh* mesh,
                                const spx_transform* pose, spx_ray_hit* out)
{
    if (!mesh || !pose || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_ray_check(origin, translation, max_fraction), check_pose(pose));
    if (r != SPX_OK) return r;
    const double o[3] = { origin.x, origin.y, origin.z }, d[3] = { translation.x, translation.y, translation.z };
    spx_ray_mesh_hit(o, d, max_fraction, mesh, pose, out);
    return SPX_OK;
}

/* Crossings over [0, 1]; false when the ray passes exactly through an edge or corner or starts on a triangle, where a
   crossing may count twice or not at all. */
static bool count_crossings(const spx_mesh* mesh, const spx_ray* ray, uint32_t* out_count)
{
    uint32_t stack[RAY_STACK];
    int top = 0;
    uint32_t count = 0;
    double t;
    stack[top++] = 0;
    while (top > 0) {
        const spx_obb_node* n = &mesh->nodes[stack[--top]];
        if (!node_entry(ray, &n->box, 1.0, &t)) continue;
        if (spx_obb_node_is_leaf(n)) {
            for (uint32_t i = n->first; i < n->first + n->count; ++i) {
                const spx_triangle* tri = &mesh->triangles[i];
                bool grazes = false;
                const bool crosses = spx_ray_triangle_t(ray, &tri->v[0], &tri->v[1], &tri->v[2], 1.0, &t, &grazes);
                if (grazes) return false; /* through an edge, a corner or in the plane: ask another ray */
                if (!crosses) continue;
                if (t == 0.0) return false;
                ++count;
            }
            continue;
        }
        if (top + 2 > RAY_STACK) return false;
        stack[top++] = n->first;
        stack[top++] = n->first + 1;
    }
    *out_count = count;
    return true;
}

SPX_API spx_result spx_mesh_contains_point(const spx_mesh* mesh, const spx_transform* pose, spx_vec3 point,
                                           bool* out_inside)
{
    if (!mesh || !pose || !out_inside) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = SPX_OK;
    if (!spx_finite3(point)) r = SPX_ERR_NOT_FINITE;
    else if (!spx_in_range3(point)) r = SPX_ERR_OUT_OF_RANGE;
    r = spx_first_error(r, check_pose(pose));
    if (r != SPX_OK) return r;
    *out_inside = false;
    if (!mesh->closed) return SPX_OK;
    double rot[3][3], pos[3], lo[3];
    spx_pose_matrix(pose, rot, pos);
    const double o[3] = { point.x, point.y, point.z };
    to_local((const double(*)[3])rot, pos, o, true, lo);
    /* Outside the root box is outside. Else long rays along directions no round-number mesh lines up with; a grazing
       one gives way to the next. */
    const spx_obb* root = &mesh->nodes[0].box;
    double t;
    spx_ray probe;
    const double none[3] = { 1.0, 0.0, 0.0 };
    spx_ray_init(&probe, lo, none);
    if (!node_entry(&probe, root, 0.0, &t)) return SPX_OK;
    const double reach =
        2.0 * ((double)root->half_extents.x + root->half_extents.y + root->half_extents.z +
               fabs(lo[0] - root->center.x) + fabs(lo[1] - root->center.y) + fabs(lo[2] - root->center.z));
    static const double dirs[8][3] = { { 0.5773, 0.6211, 0.5301 },  { -0.6817, 0.4133, 0.6036 },
                                       { 0.3119, -0.8147, 0.4889 }, { -0.2897, -0.5113, -0.8091 },
                                       { 0.8713, 0.1351, -0.4717 }, { -0.7411, -0.6287, 0.2351 },
                                       { 0.1229, 0.9517, -0.2813 }, { 0.4483, -0.2231, -0.8657 } };
    uint32_t count = 0;
    for (int k = 0; k < 8; ++k) {
        const double d[3] = { dirs[k][0] * reach, dirs[k][1] * reach, dirs[k][2] * reach };
        spx_ray ray;
        spx_ray_init(&ray, lo, d);
        if (count_crossings(mesh, &ray, &count)) break;
        count = 0; /* every direction grazed: on the surface, either answer will do */
    }
    *out_inside = (count & 1u) != 0;
    return SPX_OK;
}
