/* Joint rows in the soft step (after Solver2D and Box2D v3, in 3D): warm start, biased passes,
 * relax passes; ball joints and simple hinges on lanes. See docs/joints.md#how-they-are-solved. */
#include "world.h"
#include "joint.h"
#include "core/allocator.h"
#include <math.h>
#include <string.h>

/* Implicit over substep h, as the contacts' soft constraint. */
static spx_solver_soft soft(float hertz, float zeta, float h)
{
    spx_solver_soft s = { 0.0f, 1.0f, 0.0f };
    if (hertz == 0.0f) return s;
    const float omega = 2.0f * 3.14159265358979f * hertz;
    const float a1 = 2.0f * zeta + h * omega, a2 = h * omega * a1, a3 = 1.0f / (1.0f + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = a3;
    return s;
}

static const spx_solver_soft hard = { 0.0f, 1.0f, 0.0f };

/* Rigid rows: a third of the substep rate, damping 2; stiffer gains energy under heavy loads. */
#define SPX_JOINT_RIGID_RATE (1.0f / 3.0f)
#define SPX_JOINT_DAMPING_RATIO 2.0f

/* The symmetric inverse inertia (xx yy zz xy xz yz) times v. */
static inline vec3s inertia_mul(const float I[6], vec3s v)
{
    return (vec3s){ { I[0] * v.x + I[3] * v.y + I[4] * v.z, I[3] * v.x + I[1] * v.y + I[5] * v.z,
                      I[4] * v.x + I[5] * v.y + I[2] * v.z } };
}

/* As solver.c turns a body, so joints see the rotation it ends with. */
static versors turn_of(vec3s th) { return glms_quat_normalize(spx_solver_rotation(th)); }

/* The first column of the rotation of unit q: the frame's x axis (y and z below). */
static inline vec3s axis_x(versors q)
{
    return (vec3s){ { 1.0f - 2.0f * (q.y * q.y + q.z * q.z), 2.0f * (q.x * q.y + q.w * q.z),
                      2.0f * (q.x * q.z - q.w * q.y) } };
}
static inline vec3s axis_y(versors q)
{
    return (vec3s){ { 2.0f * (q.x * q.y - q.w * q.z), 1.0f - 2.0f * (q.x * q.x + q.z * q.z),
                      2.0f * (q.y * q.z + q.w * q.x) } };
}
static inline vec3s axis_z(versors q)
{
    return (vec3s){ { 2.0f * (q.x * q.z + q.w * q.y), 2.0f * (q.y * q.z - q.w * q.x),
                      1.0f - 2.0f * (q.x * q.x + q.y * q.y) } };
}

/* Of symmetric K (xx yy zz xy xz yz), zero if singular; scaled by its trace so the determinant
   stays in range for any mass the world takes. */
static void sym_inverse(const float K[6], float out[6])
{
    const float t = K[0] + K[1] + K[2];
    memset(out, 0, 6 * sizeof(float));
    if (!(t > 0.0f && t < INFINITY)) return;
    const float s = 1.0f / t;
    const float a = K[0] * s, b = K[1] * s, c = K[2] * s, d = K[3] * s, e = K[4] * s, f = K[5] * s;
    const float i00 = b * c - f * f, i01 = e * f - d * c, i02 = d * f - b * e;
    const float det = a * i00 + d * i01 + e * i02;
    if (!(det > 0.0f)) return;
    const float k = s / det;
    out[0] = k * i00, out[1] = k * (a * c - e * e), out[2] = k * (a * b - d * d);
    out[3] = k * i01, out[4] = k * i02, out[5] = k * (d * e - a * f);
}

/* A body during a pass; velocities are written back. */
typedef struct jbody {
    vec3s v, w;
    float m;
    const float* I;
    spx_solver_body* target; /* NULL: does not move (static, the world) */
} jbody;

static const float no_inertia[6] = { 0 };

static jbody load(spx_solver_body* bodies, uint32_t k)
{
    jbody b;
    if (k == 0) {
        b.v = b.w = glms_vec3_zero();
        b.m = 0.0f;
        b.I = no_inertia;
        b.target = NULL;
        return b;
    }
    spx_solver_body* s = &bodies[k];
    b.v = s->v, b.w = s->w, b.m = s->inv_mass, b.I = s->inv_inertia;
    b.target = s;
    return b;
}

static void save(const jbody* b)
{
    if (!b->target) return;
    b->target->v = b->v;
    b->target->w = b->w;
}

typedef spx_joint_row row;

static row make_row(const jbody* A, const jbody* B, vec3s n, vec3s ga, vec3s gb)
{
    row r = { n, ga, gb, 0.0f };
    const float k = (A->m + B->m) * glms_vec3_dot(n, n) + glms_vec3_dot(ga, inertia_mul(A->I, ga)) +
                    glms_vec3_dot(gb, inertia_mul(B->I, gb));
    r.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return r;
}

static row angular_row(const jbody* A, const jbody* B, vec3s axis)
{
    return make_row(A, B, glms_vec3_zero(), axis, axis);
}

static inline float row_cdot(const jbody* A, const jbody* B, const row* r)
{
    return glms_vec3_dot(r->n, glms_vec3_sub(B->v, A->v)) + glms_vec3_dot(r->gb, B->w) - glms_vec3_dot(r->ga, A->w);
}

static inline void row_apply(jbody* A, jbody* B, const row* r, float lambda)
{
    A->v = glms_vec3_sub(A->v, glms_vec3_scale(r->n, A->m * lambda));
    A->w = glms_vec3_sub(A->w, inertia_mul(A->I, glms_vec3_scale(r->ga, lambda)));
    B->v = glms_vec3_add(B->v, glms_vec3_scale(r->n, B->m * lambda));
    B->w = glms_vec3_add(B->w, inertia_mul(B->I, glms_vec3_scale(r->gb, lambda)));
}

/* lambda = -mass_scale m (Cdot + bias) - impulse_scale acc on sign * r, clamped into [lo, hi].
   Returns whether it changed: an idle row moves no body. */
static bool row_solve_at(jbody* A, jbody* B, const row* r, float sign, float cdot, float bias, spx_solver_soft s,
                         float* acc, float lo, float hi)
{
    const float lambda = -s.mass_scale * r->mass * (cdot + bias) - s.impulse_scale * *acc;
    const float old = *acc;
    float next = old + lambda;
    next = next < lo ? lo : next > hi ? hi : next;
    *acc = next;
    if (next == old) return false;
    row_apply(A, B, r, sign * (next - old));
    return true;
}

static void row_solve(jbody* A, jbody* B, const row* r, float bias, spx_solver_soft s, float* acc, float lo, float hi)
{
    row_solve_at(A, B, r, 1.0f, row_cdot(A, B, r), bias, s, acc, lo, hi);
}

/* C >= 0 on sign * r: speculative while C > 0; violated, the full mass (not a spring, so a heavy
   body cannot push through) with the rigid bias. Returns whether it moved the bodies. */
static bool limit_solve_at(jbody* A, jbody* B, const row* r, float sign, float cdot, float C, float inv_h,
                           spx_solver_soft rigid, bool use_bias, float* acc)
{
    float bias = 0.0f;
    if (C > 0.0f) bias = C * inv_h;
    else if (use_bias) bias = rigid.bias_rate * C;
    return row_solve_at(A, B, r, sign, cdot, bias, hard, acc, 0.0f, INFINITY);
}

static void limit_solve(jbody* A, jbody* B, const row* r, float C, float inv_h, spx_solver_soft rigid, bool use_bias,
                        float* acc)
{
    limit_solve_at(A, B, r, 1.0f, row_cdot(A, B, r), C, inv_h, rigid, use_bias, acc);
}

/* The upper end on -r reuses the lower's Cdot unless the lower moved the bodies. */
static void range_solve(jbody* A, jbody* B, const row* r, float x, float lower, float upper, float inv_h,
                        spx_solver_soft rigid, bool use_bias, float* lower_acc, float* upper_acc)
{
    float cdot = row_cdot(A, B, r);
    if (limit_solve_at(A, B, r, 1.0f, cdot, x - lower, inv_h, rigid, use_bias, lower_acc)) cdot = row_cdot(A, B, r);
    limit_solve_at(A, B, r, -1.0f, -cdot, upper - x, inv_h, rigid, use_bias, upper_acc);
}

/* An equality C = 0 on row r, rigid (joint softness when biased) or a spring (always). */
static void equality_solve(jbody* A, jbody* B, const row* r, float C, spx_solver_soft s, bool spring, bool use_bias,
                           float* acc)
{
    if (!spring && !use_bias) s = hard, C = 0.0f;
    row_solve(A, B, r, s.bias_rate * C, s, acc, -INFINITY, INFINITY);
}

static void motor_solve(jbody* A, jbody* B, const row* r, const spx_joint_motor* m, float h, float* acc)
{
    const float most = m->max_force * h;
    row_solve(A, B, r, -m->speed, hard, acc, -most, most);
}

/* K += [r]^T I [r]: entry ij is c_i . I c_j over the columns of [r]. */
static inline void add_lever_mass(float K[6], const float I[6], vec3s r)
{
    const float a = I[0], b = I[1], c = I[2], d = I[3], e = I[4], f = I[5], x = r.x, y = r.y, z = r.z;
    /* I c_k for c_0 = (0, z, -y), c_1 = (-z, 0, x), c_2 = (y, -x, 0), written without the zeros. */
    const float t0y = b * z - f * y, t0z = f * z - c * y;
    const float t1x = e * x - a * z, t1y = f * x - d * z, t1z = c * x - e * z;
    const float t2x = a * y - d * x, t2y = d * y - b * x, t2z = e * y - f * x;
    K[0] += z * t0y - y * t0z, K[1] += x * t1z - z * t1x, K[2] += y * t2x - x * t2y;
    K[3] += z * t1y - y * t1z, K[4] += z * t2y - y * t2z, K[5] += x * t2z - z * t2x;
}

/* Inverse of the point constraint's K: (mA + mB) 1 + [rA]^T IA [rA] + [rB]^T IB [rB]. */
static void point_mass_inverse(const jbody* A, const jbody* B, vec3s rA, vec3s rB, float out[6])
{
    const float m = A->m + B->m;
    float K[6] = { m, m, m, 0.0f, 0.0f, 0.0f };
    add_lever_mass(K, A->I, rA);
    add_lever_mass(K, B->I, rB);
    sym_inverse(K, out);
}

/* Inverse of three angular rows' K: IA + IB. */
static void angular_mass_inverse(const jbody* A, const jbody* B, float out[6])
{
    float K[6];
    for (int k = 0; k < 6; ++k) K[k] = A->I[k] + B->I[k];
    sym_inverse(K, out);
}

static void apply_point(jbody* A, jbody* B, vec3s rA, vec3s rB, vec3s P)
{
    A->v = glms_vec3_sub(A->v, glms_vec3_scale(P, A->m));
    A->w = glms_vec3_sub(A->w, inertia_mul(A->I, glms_vec3_cross(rA, P)));
    B->v = glms_vec3_add(B->v, glms_vec3_scale(P, B->m));
    B->w = glms_vec3_add(B->w, inertia_mul(B->I, glms_vec3_cross(rB, P)));
}

static void apply_angular(jbody* A, jbody* B, vec3s L)
{
    A->w = glms_vec3_sub(A->w, inertia_mul(A->I, L));
    B->w = glms_vec3_add(B->w, inertia_mul(B->I, L));
}

/* Point rows on (x y z 0) spx_f4 lanes; lane-wise, so the scalar fallback gives the same bits. */
static inline spx_f4 f4_of(vec3s v) { return spx_f4_set(v.x, v.y, v.z, 0.0f); }

static inline vec3s vec3_of(spx_f4 a)
{
    float f[4];
    spx_f4_store(f, a);
    return (vec3s){ { f[0], f[1], f[2] } };
}

static inline spx_f4 f4_cross(spx_f4 a, spx_f4 b)
{
    const spx_f4 t =
        spx_f4_sub(spx_f4_mul(a, SPX_F4_SHUFFLE(b, b, 1, 2, 0, 3)), spx_f4_mul(SPX_F4_SHUFFLE(a, a, 1, 2, 0, 3), b));
    return SPX_F4_SHUFFLE(t, t, 1, 2, 0, 3);
}

/* v + 2 w (u x v) + 2 u x (u x v): cglm's rotatev renormalises an already unit q. */
static inline spx_f4 f4_rotate(versors q, spx_f4 v)
{
    const spx_f4 u = spx_f4_set(q.x, q.y, q.z, 0.0f);
    const spx_f4 t = spx_f4_mul(f4_cross(u, v), spx_f4_splat(2.0f));
    return spx_f4_add(spx_f4_add(v, spx_f4_mul(t, spx_f4_splat(q.w))), f4_cross(u, t));
}

/* The symmetric matrix of columns c times v. */
static inline spx_f4 f4_sym_mul(const spx_f4 c[3], spx_f4 v)
{
    return spx_f4_add(spx_f4_add(spx_f4_mul(c[0], SPX_F4_SHUFFLE(v, v, 0, 0, 0, 0)),
                                 spx_f4_mul(c[1], SPX_F4_SHUFFLE(v, v, 1, 1, 1, 1))),
                      spx_f4_mul(c[2], SPX_F4_SHUFFLE(v, v, 2, 2, 2, 2)));
}

/* The columns of the symmetric S (xx yy zz xy xz yz). */
static inline void f4_sym_columns(const float S[6], spx_f4 c[3])
{
    c[0] = spx_f4_set(S[0], S[3], S[4], 0.0f);
    c[1] = spx_f4_set(S[3], S[1], S[5], 0.0f);
    c[2] = spx_f4_set(S[4], S[5], S[2], 0.0f);
}

/* Anchors together: three rows at once on lanes. */
static inline void point_solve4(spx_f4* vA, spx_f4* wA, float mA, spx_f4* vB, spx_f4* wB, float mB,
                                const spx_joint_geom* g, spx_solver_soft s, bool use_bias, vec3s* acc)
{
    spx_f4 want = spx_f4_sub(spx_f4_add(*vB, f4_cross(*wB, g->rB4)), spx_f4_add(*vA, f4_cross(*wA, g->rA4)));
    if (use_bias) want = spx_f4_add(want, spx_f4_mul(g->d4, spx_f4_splat(s.bias_rate)));
    else s = hard;
    const spx_f4 old = f4_of(*acc);
    const spx_f4 P = spx_f4_sub(spx_f4_mul(f4_sym_mul(g->point_inv4, want), spx_f4_splat(-s.mass_scale)),
                                spx_f4_mul(old, spx_f4_splat(s.impulse_scale)));
    *acc = vec3_of(spx_f4_add(old, P));
    *vA = spx_f4_sub(*vA, spx_f4_mul(P, spx_f4_splat(mA)));
    *wA = spx_f4_sub(*wA, f4_sym_mul(g->inertia_a4, f4_cross(g->rA4, P)));
    *vB = spx_f4_add(*vB, spx_f4_mul(P, spx_f4_splat(mB)));
    *wB = spx_f4_add(*wB, f4_sym_mul(g->inertia_b4, f4_cross(g->rB4, P)));
}

static void point_solve(jbody* A, jbody* B, const spx_joint_geom* g, spx_solver_soft s, bool use_bias, vec3s* acc)
{
    spx_f4 vA = f4_of(A->v), wA = f4_of(A->w), vB = f4_of(B->v), wB = f4_of(B->w);
    point_solve4(&vA, &wA, A->m, &vB, &wB, B->m, g, s, use_bias, acc);
    A->v = vec3_of(vA), A->w = vec3_of(wA), B->v = vec3_of(vB), B->w = vec3_of(wB);
}

/* On the solver's bodies; body 0 (does not move) is zero and not written. */
static void ball_solve(spx_solver_body* bodies, spx_joint* j, spx_solver_soft s, bool use_bias)
{
    spx_solver_body* a = &bodies[j->solver[0]];
    spx_solver_body* b = &bodies[j->solver[1]];
    spx_f4 vA = f4_of(a->v), wA = f4_of(a->w), vB = f4_of(b->v), wB = f4_of(b->w);
    point_solve4(&vA, &wA, a->inv_mass, &vB, &wB, b->inv_mass, &j->geom, s, use_bias, &j->linear_impulse);
    if (j->solver[0] != 0) a->v = vec3_of(vA), a->w = vec3_of(wA);
    if (j->solver[1] != 0) b->v = vec3_of(vB), b->w = vec3_of(wB);
}

/* Rotations locked: error the rotation vector taking A's frame to B's (world axes). */
static void angular_lock_solve(jbody* A, jbody* B, const float Kinv[6], vec3s error, spx_solver_soft s, bool spring,
                               bool use_bias, vec3s* acc)
{
    if (!spring && !use_bias) s = hard, error = glms_vec3_zero();
    const vec3s cdot = glms_vec3_sub(B->w, A->w);
    const vec3s L = glms_vec3_sub(
        glms_vec3_scale(inertia_mul(Kinv, glms_vec3_add(cdot, glms_vec3_scale(error, s.bias_rate))), -s.mass_scale),
        glms_vec3_scale(*acc, s.impulse_scale));
    *acc = glms_vec3_add(*acc, L);
    apply_angular(A, B, L);
}

/* u, v across the free axis; K at the step's inertias. */
static spx_joint_pair make_pair(const jbody* A, const jbody* B, vec3s u, vec3s v, float cu, float cv)
{
    spx_joint_pair p = { u, v, cu, cv, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    p.ku = glms_vec3_dot(u, glms_vec3_add(inertia_mul(A->I, u), inertia_mul(B->I, u)));
    p.kv = glms_vec3_dot(v, glms_vec3_add(inertia_mul(A->I, v), inertia_mul(B->I, v)));
    p.kuv = glms_vec3_dot(u, glms_vec3_add(inertia_mul(A->I, v), inertia_mul(B->I, v)));
    p.det = p.ku * p.kv - p.kuv * p.kuv;
    if (p.det > 0.0f) p.inv_det = 1.0f / p.det;
    return p;
}

/* The pair solved together, accumulated as a world vector. */
static void pair_solve(jbody* A, jbody* B, const spx_joint_pair* p, spx_solver_soft s, bool use_bias, vec3s* acc)
{
    if (!(p->det > 0.0f)) return;
    float cu = p->cu, cv = p->cv;
    if (!use_bias) s = hard, cu = cv = 0.0f;
    const vec3s dw = glms_vec3_sub(B->w, A->w);
    const float ru = glms_vec3_dot(p->u, dw) + s.bias_rate * cu, rv = glms_vec3_dot(p->v, dw) + s.bias_rate * cv;
    const float lu =
        -s.mass_scale * p->inv_det * (p->kv * ru - p->kuv * rv) - s.impulse_scale * glms_vec3_dot(p->u, *acc);
    const float lv =
        -s.mass_scale * p->inv_det * (p->ku * rv - p->kuv * ru) - s.impulse_scale * glms_vec3_dot(p->v, *acc);
    const vec3s L = glms_vec3_add(glms_vec3_scale(p->u, lu), glms_vec3_scale(p->v, lv));
    *acc = glms_vec3_add(*acc, L);
    apply_angular(A, B, L);
}

/* The angle of the turn q about the frame's x axis, -pi..pi: twice atan2 of its x and w parts. */
static float angle_about_x(versors q)
{
    if (q.w < 0.0f) q.x = -q.x, q.w = -q.w;
    return 2.0f * atan2f(q.x, q.w);
}

typedef spx_joint_geom geom;

/* Rotation vector from A's frame to B's (world axes), for an angular lock. */
static vec3s frame_error(const geom* g)
{
    versors q = glms_quat_mul(g->RB, glms_quat_conjugate(g->RA));
    if (q.w < 0.0f) q = (versors){ { -q.x, -q.y, -q.z, -q.w } };
    return (vec3s){ { 2.0f * q.x, 2.0f * q.y, 2.0f * q.z } };
}

/* A turns about its centre, so its lever is d + rA. */
static row line_row(const jbody* A, const jbody* B, const geom* g, vec3s n)
{
    return make_row(A, B, n, glms_vec3_cross(glms_vec3_add(g->d, g->rA), n), glms_vec3_cross(g->rB, n));
}

/* The rows holding the anchors on the joint's line, across it along u and v, and their errors. */
static void make_lines(geom* g, const jbody* A, const jbody* B, vec3s u, vec3s v)
{
    g->line[0] = line_row(A, B, g, u);
    g->line[1] = line_row(A, B, g, v);
    g->line_error[0] = glms_vec3_dot(g->d, u);
    g->line_error[1] = glms_vec3_dot(g->d, v);
}

/* Twist of B's frame about A's x axis (swing-twist split of the relative turn), -pi..pi. */
static float relative_angle(const geom* g) { return angle_about_x(glms_quat_mul(glms_quat_conjugate(g->RA), g->RB)); }

/* Exact at the step's first geometry, later moved to first order by the relative turn dth: no
   atan2f in the passes. */
static float step_angle(float* at_start, bool exact, float angle, vec3s axis, vec3s dth)
{
    if (exact) return *at_start = angle;
    return *at_start + glms_vec3_dot(axis, dth);
}

/* An angular row about axis: with its mass when made (remade), else the axis alone, the mass kept. */
static void set_angular_row(row* r, const jbody* A, const jbody* B, vec3s axis, bool remade)
{
    if (remade) *r = angular_row(A, B, axis);
    else r->ga = r->gb = axis;
}

/* The kind's rows, read by the passes until the bodies move. exact: the step's first geometry,
   whose angles are measured. */
static void make_rows(const spx_joint* j, geom* g, const jbody* A, const jbody* B, bool exact, vec3s dth)
{
    switch (j->type) {
    case SPX_JOINT_HINGE: {
        /* Masses once a step: the inertias are the step's and the axes turn little. */
        set_angular_row(&g->axis, A, B, g->ax, exact);
        g->x = step_angle(&g->x0, exact, exact ? relative_angle(g) : 0.0f, g->ax, dth);
        const vec3s e = glms_vec3_cross(g->ax, g->bx);
        const float cu = glms_vec3_dot(g->ay, e), cv = glms_vec3_dot(g->az, e);
        if (exact) g->pair = make_pair(A, B, g->ay, g->az, cu, cv);
        else g->pair.u = g->ay, g->pair.v = g->az, g->pair.cu = cu, g->pair.cv = cv;
        break;
    }
    case SPX_JOINT_SLIDER:
        g->axis = line_row(A, B, g, g->ax);
        g->x = glms_vec3_dot(g->d, g->ax);
        g->lock_error = frame_error(g);
        make_lines(g, A, B, g->ay, g->az);
        break;
    case SPX_JOINT_WELD:
        g->lock_error = frame_error(g);
        break;
    case SPX_JOINT_DISTANCE: {
        const float length = glms_vec3_norm(g->d);
        /* Anchors together have no direction: hold them along A's x axis until they part. */
        const vec3s n = length > 1e-6f ? glms_vec3_scale(g->d, 1.0f / length) : g->ax;
        g->axis = make_row(A, B, n, glms_vec3_cross(g->rA, n), glms_vec3_cross(g->rB, n));
        g->x = length;
        break;
    }
    case SPX_JOINT_CONE_TWIST: {
        /* Twist about the mean of the two x axes: the axis the twist angle turns about. */
        set_angular_row(&g->axis, A, B, glms_vec3_normalize(glms_vec3_add(g->ax, g->bx)), exact);
        if (j->limit.enable) g->x = step_angle(&g->x0, exact, exact ? relative_angle(g) : 0.0f, g->axis.ga, dth);
        g->swing_cross = glms_vec3_cross(g->ax, g->bx);
        g->swing_sin = glms_vec3_norm(g->swing_cross);
        const float swing = exact ? atan2f(g->swing_sin, glms_vec3_dot(g->ax, g->bx)) : 0.0f;
        if (g->swing_sin > 1e-6f) {
            /* The swing grows as B turns about ax x bx: the row holds limit - swing >= 0. */
            const vec3s n = glms_vec3_scale(g->swing_cross, 1.0f / g->swing_sin);
            g->swing = step_angle(&g->swing0, exact, swing, n, dth);
            /* Its mass made once a step, when the swing first has a direction. */
            set_angular_row(&g->turn, A, B, glms_vec3_scale(n, -1.0f), exact || !(g->turn.mass > 0.0f));
        } else if (exact) {
            g->swing0 = swing;
            g->turn.mass = 0.0f;
        }
        break;
    }
    case SPX_JOINT_WHEEL: {
        g->axis = line_row(A, B, g, g->ay);
        g->x = glms_vec3_dot(g->d, g->ay);
        /* The axle as A wants it: A's x axis turned by the steering angle about A's y. */
        const float c = cosf(j->steering), s = sinf(j->steering);
        g->axle = glms_vec3_sub(glms_vec3_scale(g->ax, c), glms_vec3_scale(g->az, s));
        if (j->motor.enable) g->turn = angular_row(A, B, g->axle);
        /* B's axle held along the steered axle: rows about the suspension axis and the third axis. */
        const vec3s third = glms_vec3_cross(g->axle, g->ay);
        const vec3s e = glms_vec3_cross(g->axle, g->bx);
        g->pair = make_pair(A, B, g->ay, third, glms_vec3_dot(g->ay, e), glms_vec3_dot(third, e));
        make_lines(g, A, B, g->axle, third);
        break;
    }
    default:
        break;
    }
}

/* j->geom where the bodies are now. Remade for the relax pass: the warm start's mass is not exact
   there, and an undamped pendulum would gain energy. */
static void update_geom(spx_joint* j, const versors* turns, const jbody* A, const jbody* B,
                        const spx_solver_body* bodies, bool exact)
{
    const vec3s dpA = bodies[j->solver[0]].dp, dpB = bodies[j->solver[1]].dp;
    const vec3s dth = glms_vec3_sub(bodies[j->solver[1]].dtheta, bodies[j->solver[0]].dtheta);
    geom* g = &j->geom;
    const versors qa = turns[j->solver[0]], qb = turns[j->solver[1]];
    g->rA4 = f4_rotate(qa, f4_of(j->lever0[0]));
    g->rB4 = f4_rotate(qb, f4_of(j->lever0[1]));
    g->d4 = spx_f4_add(
        spx_f4_add(spx_f4_sub(f4_of(j->center0[1]), f4_of(j->center0[0])), spx_f4_sub(f4_of(dpB), f4_of(dpA))),
        spx_f4_sub(g->rB4, g->rA4));
    g->rA = vec3_of(g->rA4), g->rB = vec3_of(g->rB4), g->d = vec3_of(g->d4);
    const bool frames = j->type != SPX_JOINT_BALL && j->type != SPX_JOINT_DRAG && j->type != SPX_JOINT_DISTANCE;
    if (frames) {
        g->RA = glms_quat_mul(qa, j->frame0[0]);
        g->RB = glms_quat_mul(qb, j->frame0[1]);
        g->ax = axis_x(g->RA);
        g->bx = axis_x(g->RB);
        /* A's y and z axes only for the kinds whose rows run along them. */
        if (j->type == SPX_JOINT_HINGE || j->type == SPX_JOINT_SLIDER || j->type == SPX_JOINT_WHEEL) {
            g->ay = axis_y(g->RA);
            g->az = axis_z(g->RA);
        }
    } else if (j->type == SPX_JOINT_DISTANCE) {
        g->ax = axis_x(glms_quat_mul(qa, j->frame0[0]));
    }
    const bool point = j->type != SPX_JOINT_SLIDER && j->type != SPX_JOINT_WHEEL && j->type != SPX_JOINT_DISTANCE;
    if (point) {
        point_mass_inverse(A, B, g->rA, g->rB, g->point_inv);
        f4_sym_columns(g->point_inv, g->point_inv4);
        f4_sym_columns(A->I, g->inertia_a4);
        f4_sym_columns(B->I, g->inertia_b4);
    }
    make_rows(j, g, A, B, exact, dth);
}

/* Each row keeps its share of the world-vector impulse acc. */
static void lines_solve(jbody* A, jbody* B, const geom* g, spx_solver_soft rigid, bool use_bias, vec3s* acc)
{
    for (int k = 0; k < 2; ++k) {
        const row* p = &g->line[k];
        float part = glms_vec3_dot(*acc, p->n);
        const float before = part;
        equality_solve(A, B, p, g->line_error[k], rigid, false, use_bias, &part);
        *acc = glms_vec3_add(*acc, glms_vec3_scale(p->n, part - before));
    }
}

typedef struct ctx {
    float h, inv_h;
    spx_solver_soft rigid;
} ctx;

/* Spring, motor (unless `motor` is false: a wheel drives its axle), then the limit. */
static void axis_solve(spx_joint* j, jbody* A, jbody* B, const ctx* c, bool spring, bool motor, bool use_bias)
{
    const row* r = &j->geom.axis;
    const float x = j->geom.x;
    if (spring) equality_solve(A, B, r, x, j->spring_soft, true, use_bias, &j->axial_impulse);
    if (motor && j->motor.enable) motor_solve(A, B, r, &j->motor, c->h, &j->motor_impulse);
    if (j->limit.enable) {
        range_solve(A, B, r, x, j->limit.lower, j->limit.upper, c->inv_h, c->rigid, use_bias, &j->lower_impulse,
                    &j->upper_impulse);
    }
}

static void solve_joint(spx_joint* j, jbody* A, jbody* B, const ctx* c, bool use_bias)
{
    const geom* g = &j->geom;
    const spx_solver_soft rigid = c->rigid;
    const bool spring = j->spring.enable && j->spring.hertz > 0.0f;
    switch (j->type) {
    case SPX_JOINT_BALL:
        point_solve(A, B, g, rigid, use_bias, &j->linear_impulse);
        break;
    case SPX_JOINT_HINGE:
        axis_solve(j, A, B, c, spring, true, use_bias);
        pair_solve(A, B, &g->pair, rigid, use_bias, &j->angular_impulse);
        point_solve(A, B, g, rigid, use_bias, &j->linear_impulse);
        break;
    case SPX_JOINT_SLIDER:
        axis_solve(j, A, B, c, spring, true, use_bias);
        angular_lock_solve(A, B, j->angular_inv, g->lock_error, rigid, false, use_bias, &j->angular_impulse);
        lines_solve(A, B, g, rigid, use_bias, &j->linear_impulse);
        break;
    case SPX_JOINT_WELD: {
        const spx_solver_soft s = spring ? j->spring_soft : rigid;
        angular_lock_solve(A, B, j->angular_inv, g->lock_error, s, spring, use_bias, &j->angular_impulse);
        if (spring) {
            /* A soft weld: the point is a spring too, stiff as the angular one. */
            const vec3s cdot = glms_vec3_sub(glms_vec3_add(B->v, glms_vec3_cross(B->w, g->rB)),
                                             glms_vec3_add(A->v, glms_vec3_cross(A->w, g->rA)));
            const vec3s P = glms_vec3_sub(
                glms_vec3_scale(inertia_mul(g->point_inv, glms_vec3_add(cdot, glms_vec3_scale(g->d, s.bias_rate))),
                                -s.mass_scale),
                glms_vec3_scale(j->linear_impulse, s.impulse_scale));
            j->linear_impulse = glms_vec3_add(j->linear_impulse, P);
            apply_point(A, B, g->rA, g->rB, P);
        } else {
            point_solve(A, B, g, rigid, use_bias, &j->linear_impulse);
        }
        break;
    }
    case SPX_JOINT_DISTANCE: {
        const row* r = &g->axis;
        const float length = g->x;
        if (!j->spring.enable) equality_solve(A, B, r, length - j->length, rigid, false, use_bias, &j->axial_impulse);
        else if (spring) equality_solve(A, B, r, length - j->length, j->spring_soft, true, use_bias, &j->axial_impulse);
        if (j->limit.enable) {
            range_solve(A, B, r, length, j->min_length, j->max_length, c->inv_h, rigid, use_bias, &j->lower_impulse,
                        &j->upper_impulse);
        }
        break;
    }
    case SPX_JOINT_CONE_TWIST:
        if (j->limit.enable) {
            range_solve(A, B, &g->axis, g->x, j->limit.lower, j->limit.upper, c->inv_h, rigid, use_bias,
                        &j->lower_impulse, &j->upper_impulse);
        }
        if (g->swing_sin > 1e-6f)
            limit_solve(A, B, &g->turn, j->swing_limit - g->swing, c->inv_h, rigid, use_bias, &j->swing_impulse);
        point_solve(A, B, g, rigid, use_bias, &j->linear_impulse);
        break;
    case SPX_JOINT_WHEEL:
        axis_solve(j, A, B, c, spring, false, use_bias);
        if (j->motor.enable) motor_solve(A, B, &g->turn, &j->motor, c->h, &j->motor_impulse);
        pair_solve(A, B, &g->pair, rigid, use_bias, &j->angular_impulse);
        lines_solve(A, B, g, rigid, use_bias, &j->linear_impulse);
        break;
    case SPX_JOINT_DRAG: {
        /* Spring to the target within max_force, then the turn damped so it does not swing forever. */
        const float most = j->max_force * c->h;
        const spx_solver_soft s = j->spring_soft;
        const vec3s cdot = glms_vec3_add(B->v, glms_vec3_cross(B->w, g->rB));
        const vec3s dp = B->target ? B->target->dp : glms_vec3_zero();
        const vec3s sep = glms_vec3_sub(glms_vec3_add(glms_vec3_add(j->center0[1], dp), g->rB), j->target);
        vec3s P = glms_vec3_sub(
            glms_vec3_scale(inertia_mul(g->point_inv, glms_vec3_add(cdot, glms_vec3_scale(sep, s.bias_rate))),
                            -s.mass_scale),
            glms_vec3_scale(j->linear_impulse, s.impulse_scale));
        const vec3s old = j->linear_impulse;
        vec3s next = glms_vec3_add(old, P);
        const float len = glms_vec3_norm(next);
        if (len > most) next = glms_vec3_scale(next, most / len);
        j->linear_impulse = next;
        apply_point(A, B, g->rA, g->rB, glms_vec3_sub(next, old));
        /* The turn, damped as the spring is (no bias), within the torque the grip's force has about the centre. */
        const float most_turn = most * glms_vec3_norm(g->rB);
        const vec3s L =
            glms_vec3_sub(glms_vec3_scale(inertia_mul(j->angular_inv, glms_vec3_sub(B->w, A->w)), -s.mass_scale),
                          glms_vec3_scale(j->angular_impulse, s.impulse_scale));
        const vec3s old_turn = j->angular_impulse;
        vec3s turn = glms_vec3_add(old_turn, L);
        const float turn_len = glms_vec3_norm(turn);
        if (turn_len > most_turn) turn = glms_vec3_scale(turn, turn_len > 0.0f ? most_turn / turn_len : 0.0f);
        j->angular_impulse = turn;
        apply_angular(A, B, glms_vec3_sub(turn, old_turn));
        break;
    }
    default:
        break;
    }
}

/* A ball joint's warm start, its point impulse alone, on the solver's bodies as ball_solve. */
static void ball_warm_start(spx_solver_body* bodies, const spx_joint* j)
{
    const spx_joint_geom* g = &j->geom;
    spx_solver_body* a = &bodies[j->solver[0]];
    spx_solver_body* b = &bodies[j->solver[1]];
    const spx_f4 p = f4_of(j->linear_impulse);
    if (j->solver[0] != 0) {
        a->v = vec3_of(spx_f4_sub(f4_of(a->v), spx_f4_mul(p, spx_f4_splat(a->inv_mass))));
        a->w = vec3_of(spx_f4_sub(f4_of(a->w), f4_sym_mul(g->inertia_a4, f4_cross(g->rA4, p))));
    }
    if (j->solver[1] != 0) {
        b->v = vec3_of(spx_f4_add(f4_of(b->v), spx_f4_mul(p, spx_f4_splat(b->inv_mass))));
        b->w = vec3_of(spx_f4_add(f4_of(b->w), f4_sym_mul(g->inertia_b4, f4_cross(g->rB4, p))));
    }
}

/* Drops L's part along the free axis: kept as the axis turns, it would drive the free turn. */
static inline vec3s across(vec3s L, vec3s axis)
{
    return glms_vec3_sub(L, glms_vec3_scale(axis, glms_vec3_dot(axis, L)));
}

/* Applies the impulses (warm start), or gives their force and torque on B about its anchor (store). */
static void warm_joint(spx_joint* j, jbody* A, jbody* B, vec3s* out_force, vec3s* out_torque)
{
    const geom* g = &j->geom;
    vec3s P = glms_vec3_zero(), L = glms_vec3_zero(); /* linear impulse at the anchors, pure torque */
    vec3s Q = glms_vec3_zero();                       /* linear impulse along A's line (slider, wheel) */
    const float axial = j->axial_impulse + j->lower_impulse - j->upper_impulse;
    switch (j->type) {
    case SPX_JOINT_BALL:
    case SPX_JOINT_WELD:
    case SPX_JOINT_DRAG:
        P = j->linear_impulse, L = j->angular_impulse;
        break;
    case SPX_JOINT_HINGE:
        P = j->linear_impulse;
        if (!out_force) j->angular_impulse = across(j->angular_impulse, g->ax);
        L = glms_vec3_add(j->angular_impulse, glms_vec3_scale(g->ax, axial + j->motor_impulse));
        break;
    case SPX_JOINT_SLIDER:
        Q = glms_vec3_add(j->linear_impulse, glms_vec3_scale(g->ax, axial + j->motor_impulse));
        L = j->angular_impulse;
        break;
    case SPX_JOINT_DISTANCE:
        P = glms_vec3_scale(g->axis.n, axial);
        break;
    case SPX_JOINT_CONE_TWIST:
        P = j->linear_impulse;
        L = glms_vec3_scale(g->axis.ga, j->lower_impulse - j->upper_impulse);
        if (g->swing_sin > 1e-6f)
            L = glms_vec3_sub(L, glms_vec3_scale(g->swing_cross, j->swing_impulse / g->swing_sin));
        break;
    case SPX_JOINT_WHEEL:
        Q = glms_vec3_add(j->linear_impulse, glms_vec3_scale(g->ay, axial));
        if (!out_force) j->angular_impulse = across(j->angular_impulse, g->axle);
        L = glms_vec3_add(j->angular_impulse, glms_vec3_scale(g->axle, j->motor_impulse));
        break;
    default:
        break;
    }
    if (out_force) {
        /* About B's anchor, where the force acts: the torque is the rows' couple alone. */
        *out_force = glms_vec3_add(P, Q);
        *out_torque = L;
        return;
    }
    /* Each part only for the joints that have it: a ball joint's warm start is its point alone. */
    const bool angular = j->type != SPX_JOINT_BALL && j->type != SPX_JOINT_DISTANCE;
    if (j->type == SPX_JOINT_DISTANCE) apply_point(A, B, g->rA, g->rB, P);
    else if (j->type != SPX_JOINT_SLIDER && j->type != SPX_JOINT_WHEEL) {
        /* The point kinds, on the geometry's lanes as point_solve. */
        const spx_f4 p = f4_of(P);
        spx_f4 wA = spx_f4_sub(f4_of(A->w), f4_sym_mul(g->inertia_a4, f4_cross(g->rA4, p)));
        spx_f4 wB = spx_f4_add(f4_of(B->w), f4_sym_mul(g->inertia_b4, f4_cross(g->rB4, p)));
        if (angular) {
            const spx_f4 l = f4_of(L);
            wA = spx_f4_sub(wA, f4_sym_mul(g->inertia_a4, l));
            wB = spx_f4_add(wB, f4_sym_mul(g->inertia_b4, l));
        }
        A->v = vec3_of(spx_f4_sub(f4_of(A->v), spx_f4_mul(p, spx_f4_splat(A->m))));
        A->w = vec3_of(wA);
        B->v = vec3_of(spx_f4_add(f4_of(B->v), spx_f4_mul(p, spx_f4_splat(B->m))));
        B->w = vec3_of(wB);
        return;
    } else {
        /* Along A's line A turns about its centre: its lever is d + rA. */
        A->v = glms_vec3_sub(A->v, glms_vec3_scale(Q, A->m));
        A->w = glms_vec3_sub(A->w, inertia_mul(A->I, glms_vec3_cross(glms_vec3_add(g->d, g->rA), Q)));
        B->v = glms_vec3_add(B->v, glms_vec3_scale(Q, B->m));
        B->w = glms_vec3_add(B->w, inertia_mul(B->I, glms_vec3_cross(g->rB, Q)));
    }
    if (angular) apply_angular(A, B, L);
}

static const spx_joint_kernels* pick_kernels(const spx_world* w);

spx_result spx_joints_reserve(spx_world* w)
{
    spx_joints* js = &w->joints;
    const uint32_t n = w->body_slots + 1; /* the solver's bodies at most (solver.c) */
    const uint32_t turns_before = js->turn_capacity;
    if (!spx_reserve(&w->allocator, (void**)&js->active, &js->active_capacity, js->capacity + 1, sizeof(uint32_t), 8) ||
        !spx_reserve(&w->allocator, (void**)&js->rest, &js->rest_capacity, js->capacity + 1, sizeof(uint32_t), 8) ||
        !spx_reserve(&w->allocator, (void**)&js->ball_order, &js->ball_order_capacity, js->capacity + 1,
                     sizeof(uint32_t), 8) ||
        !spx_reserve(&w->allocator, (void**)&js->angular_order, &js->angular_order_capacity, js->capacity + 1,
                     sizeof(uint32_t), 8) ||
        !spx_reserve(&w->allocator, (void**)&js->color_used, &js->color_used_capacity, n, sizeof(uint64_t), 8) ||
        !spx_reserve(&w->allocator, (void**)&js->movers, &js->mover_capacity, n, sizeof(uint32_t), 8) ||
        !spx_reserve(&w->allocator, (void**)&js->turns, &js->turn_capacity, n, sizeof(versors), 16))
        return SPX_ERR_OUT_OF_MEMORY;
    /* Reserved so a step never lacks them: that would change the solve order. */
    const uint32_t angular = js->turning_count;
    const spx_joint_kernels* kernels = pick_kernels(w);
    const uint32_t blocks = angular / kernels->lanes + (angular < SPX_SOLVER_COLORS ? angular : SPX_SOLVER_COLORS);
    if (blocks > js->angular_block_capacity) {
        if (js->angular_block_capacity)
            spx_free(&w->allocator, js->angular_blocks, js->angular_block_bytes * (size_t)js->angular_block_capacity);
        js->angular_blocks = NULL, js->angular_block_capacity = 0;
        if (!spx_reserve(&w->allocator, &js->angular_blocks, &js->angular_block_capacity, blocks,
                         kernels->angular_block_size, 32))
            return SPX_ERR_OUT_OF_MEMORY;
        js->angular_block_bytes = kernels->angular_block_size;
        js->split_kept = false;
    }
    /* Unmarked (prepare's marks are a w of 2). */
    for (uint32_t k = turns_before; k < js->turn_capacity; ++k) js->turns[k] = (versors){ { 0.0f, 0.0f, 0.0f, 1.0f } };
    return SPX_OK;
}

static bool moves(const spx_world* w, uint32_t body) { return body != SPX_NO_BODY && spx_body_moves(&w->bodies[body]); }

/* The contact solver's width, so joints and contacts use one instruction set. */
static const spx_joint_kernels* pick_kernels(const spx_world* w)
{
#if defined(SPX_SOLVER_AVX2_DISPATCH)
    if (w->solver.kernels == &spx_solver_kernels_avx2) return &spx_joint_kernels_avx2;
#endif
    (void)w;
    return &spx_joint_kernels_baseline;
}

/* Hinges and cone-twists fit a lane unless they have a motor or a spring (solved one by one). */
static bool fits_angular_lane(const spx_joint* j)
{
    if (j->type == SPX_JOINT_CONE_TWIST) return true;
    return j->type == SPX_JOINT_HINGE && !j->motor.enable && !(j->spring.enable && j->spring.hertz > 0.0f);
}

/* Greedy colouring in slot order (unmoving bodies block none). Returns how many got a colour. */
static uint32_t color_joints(spx_world* w, bool angular, uint32_t* order, uint32_t counts[SPX_SOLVER_COLORS])
{
    spx_joints* js = &w->joints;
    const spx_solver_body* bodies = w->solver.bodies;
    for (uint32_t i = 0; i < js->active_count; ++i) {
        const spx_joint* j = &js->list[js->active[i]];
        js->color_used[j->solver[0]] = js->color_used[j->solver[1]] = 0;
    }
    const uint64_t all = (1ull << SPX_SOLVER_COLORS) - 1u;
    uint32_t colored = 0;
    for (uint32_t i = 0; i < js->active_count; ++i) {
        spx_joint* j = &js->list[js->active[i]];
        if (angular ? !fits_angular_lane(j) : j->type != SPX_JOINT_BALL) continue;
        const uint32_t a = j->solver[0], b = j->solver[1];
        const bool da = bodies[a].inv_mass > 0.0f, db = bodies[b].inv_mass > 0.0f;
        const uint64_t free = all & ~((da ? js->color_used[a] : 0u) | (db ? js->color_used[b] : 0u));
        if (!free) continue;
        j->color = (uint8_t)__builtin_ctzll(free);
        if (da) js->color_used[a] |= 1ull << j->color;
        if (db) js->color_used[b] |= 1ull << j->color;
        ++counts[j->color];
        ++colored;
    }
    uint32_t start[SPX_SOLVER_COLORS], at = 0;
    for (uint32_t c = 0; c < SPX_SOLVER_COLORS; ++c) start[c] = at, at += counts[c];
    for (uint32_t i = 0; i < js->active_count; ++i) {
        const spx_joint* j = &js->list[js->active[i]];
        const bool kind = angular ? fits_angular_lane(j) : j->type == SPX_JOINT_BALL;
        if (kind && j->color < SPX_SOLVER_COLORS) order[start[j->color]++] = js->active[i];
    }
    return colored;
}

/* Lane joints into blocks by colour, the rest into js->rest in slot order. false: no memory. */
static bool split_joints(spx_world* w)
{
    spx_joints* js = &w->joints;
    for (uint32_t i = 0; i < js->active_count; ++i) js->list[js->active[i]].color = SPX_SOLVER_COLORS;
    uint32_t counts[SPX_SOLVER_COLORS] = { 0 }, angular_counts[SPX_SOLVER_COLORS] = { 0 };
    const uint32_t colored = color_joints(w, false, js->ball_order, counts);
    js->ball_block_count = colored ? js->kernels->prepare(w, js->ball_order, counts, SPX_SOLVER_COLORS) : 0;
    const uint32_t angular_colored = color_joints(w, true, js->angular_order, angular_counts);
    js->angular_block_count =
        angular_colored ? js->kernels->angular_prepare(w, js->angular_order, angular_counts, SPX_SOLVER_COLORS) : 0;
    const bool lanes = js->ball_block_count > 0, angular_lanes = js->angular_block_count > 0;
    js->rest_count = 0;
    for (uint32_t i = 0; i < js->active_count; ++i) {
        const spx_joint* j = &js->list[js->active[i]];
        const bool on_lanes = j->color < SPX_SOLVER_COLORS && (j->type == SPX_JOINT_BALL ? lanes : angular_lanes);
        if (!on_lanes) js->rest[js->rest_count++] = js->active[i];
    }
    return (lanes || colored == 0) && (angular_lanes || angular_colored == 0);
}

void spx_joints_prepare(spx_world* w, float h)
{
    spx_joints* js = &w->joints;
    spx_solver_scratch* s = &w->solver;
    /* Same joints, bodies and movers: the colouring would come out the same. */
    const uint32_t active_before = js->active_count;
    bool same = js->split_kept;
    js->active_count = 0;
    js->mover_count = 0;
    js->geom_fresh = false;
    js->angles_measured = false;
    js->rigid = soft(SPX_JOINT_RIGID_RATE / h, SPX_JOINT_DAMPING_RATIO, h);
    /* A solver body is listed once: its turn's w is marked (2, no unit quaternion's) when it is. */
    static const versors unturned = { { 0.0f, 0.0f, 0.0f, 1.0f } };
    if (js->turn_capacity > 0) js->turns[0] = unturned;
    for (uint32_t k = 0; k < js->slots; ++k) {
        spx_joint* j = &js->list[k];
        if (!j->alive || !(moves(w, j->body[0]) || moves(w, j->body[1]))) continue;
        if (js->active_count >= active_before || js->active[js->active_count] != k) same = false;
        js->active[js->active_count++] = k;
        const uint32_t solver_before[2] = { j->solver[0], j->solver[1] };
        for (int e = 0; e < 2; ++e) {
            const uint32_t b = j->body[e];
            if (b == SPX_NO_BODY) {
                j->solver[e] = 0;
                j->center0[e] = glms_vec3_zero();
                j->lever0[e] = j->local_anchor[e];
                j->frame0[e] = j->local_frame[e];
                continue;
            }
            const spx_body* body = &w->bodies[b];
            j->solver[e] = s->body_map[b];
            j->center0[e] = body->center;
            j->lever0[e] = glms_quat_rotatev(body->rotation, j->local_anchor[e]);
            /* A ball joint has no frames. */
            if (j->type != SPX_JOINT_BALL) j->frame0[e] = glms_quat_mul(body->rotation, j->local_frame[e]);
            /* Its turn is the joint's, not a free body's (solver.c, free_turn). */
            s->sims[j->solver[e]].touching = true;
            if (j->solver[e] != 0 && js->turns[j->solver[e]].w != 2.0f) {
                js->movers[js->mover_count++] = j->solver[e];
                js->turns[j->solver[e]].w = 2.0f;
            }
        }
        const uint8_t mobile = (uint8_t)((s->bodies[j->solver[0]].inv_mass > 0.0f ? 1u : 0u) |
                                         (s->bodies[j->solver[1]].inv_mass > 0.0f ? 2u : 0u));
        if (j->solver[0] != solver_before[0] || j->solver[1] != solver_before[1] || j->mobile != mobile) same = false;
        /* A hinge on a lane given a motor or a spring since leaves it. */
        if (j->type == SPX_JOINT_HINGE && j->color < SPX_SOLVER_COLORS && !fits_angular_lane(j)) same = false;
        j->mobile = mobile;
        if (j->type == SPX_JOINT_WELD || j->type == SPX_JOINT_SLIDER || j->type == SPX_JOINT_DRAG) {
            const jbody A = load(s->bodies, j->solver[0]), B = load(s->bodies, j->solver[1]);
            angular_mass_inverse(&A, &B, j->angular_inv);
        }
        j->spring_soft = soft(j->spring.hertz, j->spring.damping_ratio, h);
        /* A body quarantined last step (world.c) may have left NaN here: warm-started, it would
           reach the joint's other body. */
        const float sum = j->linear_impulse.x + j->linear_impulse.y + j->linear_impulse.z + j->angular_impulse.x +
                          j->angular_impulse.y + j->angular_impulse.z + j->axial_impulse + j->motor_impulse +
                          j->lower_impulse + j->upper_impulse + j->swing_impulse;
        if (!(sum - sum == 0.0f)) {
            j->linear_impulse = j->angular_impulse = glms_vec3_zero();
            j->axial_impulse = j->motor_impulse = j->lower_impulse = j->upper_impulse = j->swing_impulse = 0.0f;
        }
        if (!j->motor.enable) j->motor_impulse = 0.0f;
        if (!j->limit.enable) j->lower_impulse = j->upper_impulse = 0.0f;
        if (!(j->spring.enable && j->spring.hertz > 0.0f) && j->type != SPX_JOINT_DISTANCE) j->axial_impulse = 0.0f;
    }
    const spx_joint_kernels* kernels = pick_kernels(w);
    if (js->active_count != active_before || kernels != js->kernels) same = false;
    js->kernels = kernels;
    if (!same) {
        js->split_kept = split_joints(w);
    } else {
        if (js->ball_block_count) js->kernels->refresh(w);
        if (js->angular_block_count) js->kernels->angular_refresh(w);
    }
}

/* Four bodies a time with turn_of's operations in its order, so the same bits; turns past the
   series (a/2 >= 0.25 rad), the tail and non-SIMD builds use turn_of. */
static void make_turns(spx_joints* js, const spx_solver_body* bodies)
{
    const uint32_t n = js->mover_count;
    uint32_t i = 0;
#if SPX_HAS_SIMD
    for (; i + 4 <= n; i += 4) {
        const uint32_t* m = &js->movers[i];
        spx_f4 x = spx_f4_load(&bodies[m[0]].dtheta.x), y = spx_f4_load(&bodies[m[1]].dtheta.x);
        spx_f4 z = spx_f4_load(&bodies[m[2]].dtheta.x), t = spx_f4_load(&bodies[m[3]].dtheta.x);
        spx_f4_transpose(&x, &y, &z, &t);
        const spx_f4 h2 = spx_f4_mul(spx_f4_splat(0.25f),
                                     spx_f4_add(spx_f4_add(spx_f4_mul(x, x), spx_f4_mul(y, y)), spx_f4_mul(z, z)));
        const spx_f4 one = spx_f4_splat(1.0f);
        const spx_f4 c =
            spx_f4_sub(one, spx_f4_mul(h2, spx_f4_sub(spx_f4_splat(0.5f), spx_f4_mul(h2, spx_f4_splat(1.0f / 24.0f)))));
        const spx_f4 k =
            spx_f4_mul(spx_f4_splat(0.5f),
                       spx_f4_sub(one, spx_f4_mul(h2, spx_f4_sub(spx_f4_splat(1.0f / 6.0f),
                                                                 spx_f4_mul(h2, spx_f4_splat(1.0f / 120.0f))))));
        spx_f4 q[4] = { spx_f4_mul(k, x), spx_f4_mul(k, y), spx_f4_mul(k, z), c };
        const spx_f4 dot = spx_f4_add(spx_f4_add(spx_f4_mul(q[0], q[0]), spx_f4_mul(q[2], q[2])),
                                      spx_f4_add(spx_f4_mul(q[1], q[1]), spx_f4_mul(q[3], q[3])));
        const int series =
            spx_f4_mask(spx_f4_lt(h2, spx_f4_splat(0.0625f))) & ~spx_f4_mask(spx_f4_le(dot, spx_f4_splat(0.0f)));
        const spx_f4 root = spx_f4_sqrt(dot);
        for (int e = 0; e < 4; ++e) q[e] = spx_f4_div(q[e], root);
        spx_f4_transpose(&q[0], &q[1], &q[2], &q[3]);
        for (int l = 0; l < 4; ++l) {
            if (series >> l & 1) spx_f4_store(js->turns[m[l]].raw, q[l]);
            else js->turns[m[l]] = turn_of(bodies[m[l]].dtheta);
        }
    }
#endif
    for (; i < n; ++i) js->turns[js->movers[i]] = turn_of(bodies[js->movers[i]].dtheta);
}

/* The joints' bodies' turns so far, then every joint's geometry there (the bodies have moved). */
static void update_all(spx_world* w)
{
    spx_joints* js = &w->joints;
    spx_solver_body* bodies = w->solver.bodies;
    make_turns(js, bodies);
    if (js->ball_block_count) js->kernels->geometry(w);
    for (uint32_t i = 0; i < js->rest_count; ++i) {
        spx_joint* j = &js->list[js->rest[i]];
        const jbody A = load(bodies, j->solver[0]), B = load(bodies, j->solver[1]);
        /* Solver body 0 (does not move) has no motion. */
        update_geom(j, js->turns, &A, &B, bodies, !js->angles_measured);
    }
    if (js->angular_block_count) js->kernels->angular_geometry(w);
    js->geom_fresh = true;
    js->angles_measured = true;
}

/* Geometry is remade after the bodies move: the first warm start and each first relax pass (shared
   with the next warm start); without relax passes, every warm start. */
void spx_joints_warm_start(spx_world* w)
{
    spx_joints* js = &w->joints;
    if (!js->geom_fresh) update_all(w);
    spx_solver_body* bodies = w->solver.bodies;
    if (js->ball_block_count) js->kernels->warm_start(w);
    for (uint32_t i = 0; i < js->rest_count; ++i) {
        spx_joint* j = &js->list[js->rest[i]];
        if (j->type == SPX_JOINT_BALL) {
            ball_warm_start(bodies, j);
            continue;
        }
        jbody A = load(bodies, j->solver[0]), B = load(bodies, j->solver[1]);
        warm_joint(j, &A, &B, NULL, NULL);
        save(&A), save(&B);
    }
    if (js->angular_block_count) js->kernels->angular_warm_start(w);
}

void spx_joints_solve(spx_world* w, float h, bool use_bias)
{
    spx_joints* js = &w->joints;
    spx_solver_body* bodies = w->solver.bodies;
    const ctx c = { h, 1.0f / h, js->rigid };
    /* The biased passes come before the bodies move in the substep, the relax passes after. */
    if (use_bias) js->geom_fresh = false;
    else if (!js->geom_fresh) update_all(w);
    if (js->ball_block_count) js->kernels->solve(w, c.rigid, use_bias);
    for (uint32_t i = 0; i < js->rest_count; ++i) {
        spx_joint* j = &js->list[js->rest[i]];
        if (j->type == SPX_JOINT_BALL) {
            ball_solve(bodies, j, c.rigid, use_bias);
            continue;
        }
        jbody A = load(bodies, j->solver[0]), B = load(bodies, j->solver[1]);
        solve_joint(j, &A, &B, &c, use_bias);
        save(&A), save(&B);
    }
    /* After the joints one at a time, the motors' and springs' among them, as in slot order a
       limited hinge after the motor that holds it. */
    if (js->angular_block_count) js->kernels->angular_solve(w, c.rigid, c.inv_h, use_bias);
}

void spx_joints_store(spx_world* w, float h)
{
    spx_joints* js = &w->joints;
    if (!js->geom_fresh) update_all(w);
    if (js->ball_block_count) js->kernels->store(w);
    if (js->angular_block_count) js->kernels->angular_store(w);
    spx_solver_body* bodies = w->solver.bodies;
    for (uint32_t i = 0; i < js->active_count; ++i) {
        spx_joint* j = &js->list[js->active[i]];
        jbody A = load(bodies, j->solver[0]), B = load(bodies, j->solver[1]);
        vec3s f, t;
        warm_joint(j, &A, &B, &f, &t);
        j->reaction_force = glms_vec3_scale(f, 1.0f / h);
        j->reaction_torque = glms_vec3_scale(t, 1.0f / h);
        /* Compared squared in double: a threshold near FLT_MAX squared is no float. */
        const vec3s rf = j->reaction_force, rt = j->reaction_torque;
        const double f2 = (double)rf.x * rf.x + (double)rf.y * rf.y + (double)rf.z * rf.z;
        const double t2 = (double)rt.x * rt.x + (double)rt.y * rt.y + (double)rt.z * rt.z;
        if (f2 > (double)j->break_force * j->break_force || t2 > (double)j->break_torque * j->break_torque)
            spx_joints_break(w, js->active[i], j->reaction_force, j->reaction_torque);
    }
}
