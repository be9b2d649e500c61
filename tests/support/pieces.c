/* Small builders for hand-written test pieces (pieces.h). */
#include "pieces.h"

#include <math.h>
#include <stdio.h>

const spx_mat3 test_identity = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

spx_obb test_box(spx_vec3 center, spx_vec3 half_extents, spx_mat3 rotation)
{
    spx_obb b = { center, half_extents, rotation };
    return b;
}

spx_triangle test_tri(spx_vec3 a, spx_vec3 b, spx_vec3 c)
{
    spx_triangle t = { { a, b, c } };
    return t;
}

spx_mat3 test_rot(int axis, float c, float s)
{
    spx_mat3 m = test_identity;
    float* col[3] = { &m.col[0].x, &m.col[1].x, &m.col[2].x };
    int u = (axis + 1) % 3, v = (axis + 2) % 3;
    col[u][u] = c;
    col[u][v] = s;
    col[v][u] = -s;
    col[v][v] = c;
    return m;
}

spx_quat test_about(int axis, double angle)
{
    spx_quat q = { 0, 0, 0, (float)cos(angle / 2) };
    float s = (float)sin(angle / 2);
    if (axis == 0) q.x = s;
    else if (axis == 1) q.y = s;
    else q.z = s;
    return q;
}

spx_result test_place_mesh(const spx_mesh* mesh, spx_transform pose, spx_mesh_instance** out)
{
    spx_mesh_instance_def def = spx_default_mesh_instance_def();
    def.mesh = mesh;
    def.pose = pose;
    return spx_mesh_instance_create(&def, out);
}

spx_hull* test_hull_of(const spx_vec3* points, uint32_t count)
{
    spx_hull_def def = spx_default_hull_def();
    def.points = points;
    def.point_count = count;
    spx_hull* h = NULL;
    return spx_hull_create(&def, &h) == SPX_OK ? h : NULL;
}

spx_hull* test_hull_box(spx_vec3 h)
{
    spx_vec3 p[8];
    for (int i = 0; i < 8; ++i) p[i] = spx_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    return test_hull_of(p, 8);
}

float test_lcg_uniform(uint32_t* state, float lo, float hi)
{
    *state = *state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(*state >> 8) / 16777216.0f;
}

spx_vec3 test_lcg_vec3(uint32_t* state, spx_vec3 lo, spx_vec3 hi)
{
    const float z = test_lcg_uniform(state, lo.z, hi.z), y = test_lcg_uniform(state, lo.y, hi.y);
    return spx_v3(test_lcg_uniform(state, lo.x, hi.x), y, z);
}

spx_quat test_lcg_rotation(uint32_t* state)
{
    const float ax = test_lcg_uniform(state, -1, 1), ay = test_lcg_uniform(state, -1, 1),
                az = test_lcg_uniform(state, -1, 1), aw = test_lcg_uniform(state, -1, 1);
    const float n = sqrtf(ax * ax + ay * ay + az * az + aw * aw);
    return (spx_quat){ ax / n, ay / n, az / n, aw / n };
}

bool test_manifold_has_point(const spx_manifold* m, float x, float y, float z, float depth, float tol)
{
    for (int i = 0; i < m->point_count; ++i) {
        const spx_manifold_point* p = &m->points[i];
        if (fabsf(p->point.x - x) <= tol && fabsf(p->point.y - y) <= tol && fabsf(p->point.z - z) <= tol &&
            fabsf(p->depth - depth) <= tol)
            return true;
    }
    return false;
}

bool test_manifold_ids_distinct(const spx_manifold* m)
{
    for (int i = 0; i < m->point_count; ++i)
        for (int j = i + 1; j < m->point_count; ++j)
            if (m->points[i].id == m->points[j].id) return false;
    return true;
}

spx_vec3 test_random_vec3(double (*uniform)(double lo, double hi), double lo, double hi)
{
    const float z = (float)uniform(lo, hi), y = (float)uniform(lo, hi);
    return spx_v3((float)uniform(lo, hi), y, z);
}

spx_mat3 test_random_rotation_matrix(double (*uniform)(double lo, double hi))
{
    double q[4], n = 0;
    do {
        n = 0;
        for (int k = 0; k < 4; ++k) q[k] = uniform(-1, 1), n += q[k] * q[k];
    } while (n < 0.1 || n > 1.0);
    n = sqrt(n);
    const double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    spx_mat3 m;
    m.col[0] = spx_v3((float)(1 - 2 * (y * y + z * z)), (float)(2 * (x * y + w * z)), (float)(2 * (x * z - w * y)));
    m.col[1] = spx_v3((float)(2 * (x * y - w * z)), (float)(1 - 2 * (x * x + z * z)), (float)(2 * (y * z + w * x)));
    m.col[2] = spx_v3((float)(2 * (x * z + w * y)), (float)(2 * (y * z - w * x)), (float)(1 - 2 * (x * x + y * y)));
    return m;
}

/* v within tol of e on every axis; otherwise prints what differs. */
static bool near3(const char* what, spx_vec3 v, const double e[3], double tol)
{
    const double got[3] = { v.x, v.y, v.z };
    for (int k = 0; k < 3; ++k)
        if (!(fabs(got[k] - e[k]) <= tol)) {
            fprintf(stderr, "  hit %s[%d] %.9g, expected %.9g (tol %g)\n", what, k, got[k], e[k], tol);
            return false;
        }
    return true;
}

bool test_hit_is(const spx_sweep_hit* h, double time, double time_tol, const double normal[3], double normal_tol,
                 const double point[3], double point_tol)
{
    if (h->state != SPX_SWEEP_HIT) {
        fprintf(stderr, "  sweep state %d, expected a hit\n", (int)h->state);
        return false;
    }
    if (!(fabs((double)h->time - time) <= time_tol)) {
        fprintf(stderr, "  hit time %.9g, expected %.9g (tol %g)\n", (double)h->time, time, time_tol);
        return false;
    }
    return (!normal || near3("normal", h->normal, normal, normal_tol)) &&
           (!point || near3("point", h->point, point, point_tol));
}

bool test_overlapping_by(const spx_penetration* p, double depth, double tol)
{
    if (!p->overlapping) {
        fprintf(stderr, "  not overlapping, expected a depth of %.9g\n", depth);
        return false;
    }
    if (fabs((double)p->depth - depth) <= tol) return true;
    fprintf(stderr, "  depth %.9g, expected %.9g (tol %g)\n", (double)p->depth, depth, tol);
    return false;
}

bool test_starts_overlapping_by(const spx_sweep_hit* h, double depth, double tol)
{
    if (h->state != SPX_SWEEP_START_OVERLAP) {
        fprintf(stderr, "  sweep state %d, expected a start in overlap\n", (int)h->state);
        return false;
    }
    if (fabs((double)h->depth - depth) <= tol) return true;
    fprintf(stderr, "  start depth %.9g, expected %.9g (tol %g)\n", (double)h->depth, depth, tol);
    return false;
}
