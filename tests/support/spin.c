/* Bodies spinning beside thin targets (spin.h). */
#include "spin.h"

#include <math.h>
#include <string.h>

const float test_spin_speeds[TEST_SPIN_SPEED_COUNT] = { 150.0f, 189.0f, 400.0f, 1000.0f, 2000.0f };

#define SPIN_THICKNESS 0.01f /* m: the wall's */
#define SPIN_REACH 2.5f      /* m: the target's half size along its face */
#define SPIN_TILT 0.5f       /* rad: odd phases' tilt off the principal axes */

/* Axis n of the world's x, y, z, scaled. */
static spx_vec3 axis_vec(int n, float s)
{
    spx_vec3 v = { 0.0f, 0.0f, 0.0f };
    (&v.x)[n] = s;
    return v;
}

spx_result test_spin_run(const test_spin_case* c, const spx_world_def* def, uint32_t steps, test_spin_result* out)
{
    if (!c || !out || c->axis < 0 || c->axis > 2 || c->phase < 0 || c->phase >= TEST_SPIN_PHASES || !isfinite(c->speed))
        return SPX_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->finite = true;
    const spx_vec3 half = c->body == TEST_SPIN_PLANK ? spx_v3(1.0f, 0.05f, 0.01f) : spx_v3(0.05f, 0.05f, 0.05f);
    const float* h = &half.x;
    const int k = c->axis, i = (k + 1) % 3, j = (k + 2) % 3;
    const int n = h[j] < h[i] ? j : i; /* the target's normal: across the thinner of the other two */
    const int l = n == i ? j : i;      /* the body's longer arm in the plane of the turn */
    /* The near face halfway between the body's half width across it and its reach as it turns:
       level it is clear, and its outer part crosses the face every turn. It starts turned back by
       a phase of the angles at which it is clear (-0.9 to 0.675 of the widest), so that the
       steps fall at other moments of its turns. */
    const float reach = sqrtf(h[n] * h[n] + h[l] * h[l]);
    const float near = 0.5f * (h[n] + reach);
    const float clear = asinf(near / reach) - atan2f(h[n], h[l]);
    const float angle = 0.9f * clear * (2.0f * (float)c->phase / (float)TEST_SPIN_PHASES - 1.0f);

    spx_world_def wd = def ? *def : spx_default_world_def();
    wd.gravity = spx_v3(0.0f, 0.0f, 0.0f);
    spx_world* w = NULL;
    spx_result r = spx_world_create(&wd, &w);
    if (r != SPX_OK) return r;
    spx_mesh* mesh = NULL;
    spx_shape_def ts = spx_default_shape_def();
    if (c->target == TEST_SPIN_WALL) {
        spx_vec3 th = { SPIN_REACH, SPIN_REACH, SPIN_REACH };
        (&th.x)[n] = 0.5f * SPIN_THICKNESS;
        ts.half_extents = th;
    } else {
        /* A square in the plane through the origin across axis n, two triangles. */
        const int a = (n + 1) % 3, b = (n + 2) % 3;
        spx_vec3 v[4];
        for (int q = 0; q < 4; ++q) {
            v[q] = spx_v3(0.0f, 0.0f, 0.0f);
            (&v[q].x)[a] = (q == 1 || q == 2) ? SPIN_REACH : -SPIN_REACH;
            (&v[q].x)[b] = q >= 2 ? SPIN_REACH : -SPIN_REACH;
        }
        const uint32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
        spx_mesh_def md = spx_default_mesh_def();
        md.vertices = v;
        md.vertex_count = 4;
        md.indices = idx;
        md.triangle_count = 2;
        r = spx_mesh_create(&md, &mesh);
        if (r != SPX_OK) return spx_world_destroy(w), r;
        ts.type = SPX_SHAPE_MESH;
        ts.mesh = mesh;
    }
    spx_body_def td = spx_default_body_def();
    td.position = axis_vec(n, c->target == TEST_SPIN_WALL ? near + 0.5f * SPIN_THICKNESS : near);
    td.shapes = &ts;
    td.shape_count = 1;
    spx_body_id target;
    r = spx_body_create(w, &td, &target);

    spx_shape_def bs = spx_default_shape_def();
    bs.half_extents = half;
    bs.density = 1000.0f;
    spx_body_def bd = spx_default_body_def();
    bd.type = SPX_BODY_DYNAMIC;
    bd.linear_damping = bd.angular_damping = 0.0f;
    bd.restitution = 0.0f;
    bd.angular_velocity = axis_vec(k, c->speed);
    /* Turned by angle about axis k, towards the face (the way it spins) when negative. */
    const spx_vec3 sa = axis_vec(k, sinf(0.5f * angle));
    spx_quat start = { sa.x, sa.y, sa.z, cosf(0.5f * angle) };
    if (c->phase & 1) {
        /* Odd phases tilted by SPIN_TILT about n, which leaves every point's distance from the face
           as it was: the spin is then off the body's principal axes and it tumbles. */
        const spx_vec3 ta = axis_vec(n, sinf(0.5f * SPIN_TILT));
        const float tw = cosf(0.5f * SPIN_TILT);
        const spx_quat q = start;
        start = (spx_quat){ tw * q.x + ta.x * q.w + ta.y * q.z - ta.z * q.y,
                            tw * q.y - ta.x * q.z + ta.y * q.w + ta.z * q.x,
                            tw * q.z + ta.x * q.y - ta.y * q.x + ta.z * q.w,
                            tw * q.w - ta.x * q.x - ta.y * q.y - ta.z * q.z };
    }
    bd.rotation = start;
    bd.shapes = &bs;
    bd.shape_count = 1;
    spx_body_id body;
    if (r == SPX_OK) r = spx_body_create(w, &bd, &body);

    double e0 = 0.0;

    spx_world_get_kinetic_energy(w, &e0);
    const float dt = 1.0f / 60.0f;
    for (uint32_t s = 0; s < steps && r == SPX_OK; ++s) {
        r = spx_world_step(w, dt);
        if (r != SPX_OK) break;
        spx_step_stats st;
        spx_world_get_stats(w, &st);
        out->impacts += st.impact_count;
        spx_transform t;
        spx_vec3 v, o;
        spx_body_get_transform(w, body, &t);
        spx_body_get_velocity(w, body, &v, &o);
        if (!isfinite(t.p.x + t.p.y + t.p.z + t.q.x + t.q.y + t.q.z + t.q.w + v.x + v.y + v.z + o.x + o.y + o.z)) {
            out->finite = false;
            break;
        }
        double e = 0.0;
        spx_world_get_kinetic_energy(w, &e);
        if (e0 > 0.0 && e / e0 - 1.0 > out->energy_growth) out->energy_growth = e / e0 - 1.0;
        spx_obb box;
        spx_obb_from_quat(t.p, half, t.q, &box);
        spx_vec3 corners[8];
        spx_obb_get_corners(&box, corners);
        if ((&t.p.x)[n] > near) out->through = true;
        for (int q = 0; q < 8; ++q) {
            const float* p = &corners[q].x;
            if (fabsf(p[(n + 1) % 3]) > SPIN_REACH || fabsf(p[(n + 2) % 3]) > SPIN_REACH) continue;
            const float past = p[n] - near;
            if (past > out->deepest) out->deepest = past;
            if (past > SPIN_THICKNESS) out->through = true;
        }
    }
    spx_world_destroy(w);
    if (mesh) spx_mesh_destroy(mesh);
    return r;
}
