/* The contact solver: soft step with substeps (Catto, "Solver2D" and Box2D v3), in 3D.
 *
 * Each substep integrates velocities, applies last substep's impulses again (warm start), solves
 * the contacts with a soft position bias, moves the bodies, then solves again without the bias
 * ("relax"). The bias pushes overlapping bodies apart as a damped spring would, no faster than
 * max_push_speed, and the relax pass takes its velocity back out, so position correction adds no
 * kinetic energy (docs/world.md). A speculative point (a gap) allows exactly the closing speed
 * that closes the gap within the substep. Restitution is one pass after the substeps, against the
 * normal speed the point had before the solve.
 *
 * Anchors stay fixed for the step; the separation of each point follows the bodies by their
 * accumulated motion: s = s0 + n . ((dp_B + dtheta_B x r_B) - (dp_A + dtheta_A x r_A)), first
 * order in the step's rotation (the manifold is rebuilt every step).
 *
 * Layout: the step copies what the contact loops need into packed arrays once: spx_solver_body for
 * the moving bodies, and the active manifolds, coloured so that no two of a colour share a dynamic
 * body, into blocks of SPX_LANES manifolds (one a lane) with r x n, r x t, I^-1 (r x d) and the
 * effective masses prepared. The passes then read no world body, test no manifold for being
 * active, make no cross or 3x3 product per point, and solve SPX_LANES manifolds at once. */
#include "world.h"
#include "solver.h"
#include "core/allocator.h"
#include "math/simd.h"
#if SPX_LANES == 4 && defined(__SSE2__)
#include <xmmintrin.h>
#elif SPX_LANES == 8 && defined(__AVX__)
#include <immintrin.h>
#endif
#include <string.h>

typedef struct soft {
    float bias_rate, mass_scale, impulse_scale;
} soft;

/* A damped spring of frequency hertz and damping ratio zeta, implicit over a substep h. */
static soft make_soft(float hertz, float zeta, float h)
{
    soft s = { 0.0f, 1.0f, 0.0f };
    if (hertz == 0.0f) return s;
    float omega = 2.0f * 3.14159265358979f * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = a3;
    return s;
}

static inline vec3s add3(vec3s a, vec3s b) { return (vec3s){ { a.x + b.x, a.y + b.y, a.z + b.z } }; }
static inline vec3s scale3(vec3s a, float s) { return (vec3s){ { a.x * s, a.y * s, a.z * s } }; }

/* A manifold the solver works on: at least one body moves. */
static bool active(const spx_world* w, const spx_contact* c)
{
    const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
    return (a->type == SPX_BODY_DYNAMIC && a->awake) || (b->type == SPX_BODY_DYNAMIC && b->awake);
}

static bool moves(const spx_body* b) { return b->alive && b->awake && b->type != SPX_BODY_STATIC; }

/* The moving bodies into the packed array; returns how many (index 0, the immovable body, included). */
static uint32_t gather_bodies(spx_world* w, float h)
{
    spx_solver_scratch* s = &w->solver;
    const vec3s g = { { w->def.gravity.x, w->def.gravity.y, w->def.gravity.z } };
    memset(&s->bodies[0], 0, sizeof s->bodies[0]);
    uint32_t count = 1;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        if (!moves(b)) {
            s->body_map[i] = 0;
            continue;
        }
        const uint32_t k = count++;
        s->body_map[i] = k;
        spx_solver_body* sb = &s->bodies[k];
        spx_solver_body_sim* sim = &s->sims[k];
        memset(sb, 0, sizeof *sb);
        sb->v = b->v;
        sb->w = b->w;
        sim->body = i;
        sim->dynamic = b->type == SPX_BODY_DYNAMIC;
        if (sim->dynamic) {
            mat3s r = glms_quat_mat3(b->rotation);
            mat3s ii = spx_body_inv_inertia_world(b);
            sb->inv_mass = b->inv_mass;
            sb->inv_inertia[0] = ii.m00, sb->inv_inertia[1] = ii.m11, sb->inv_inertia[2] = ii.m22;
            sb->inv_inertia[3] = ii.m10, sb->inv_inertia[4] = ii.m20, sb->inv_inertia[5] = ii.m21;
            sim->inertia = glms_mat3_mul(glms_mat3_mul(r, b->inertia_local), glms_mat3_transpose(r));
            sim->gravity_dv = glms_vec3_scale(g, h * b->gravity_scale);
            sim->linear_scale = 1.0f / (1.0f + h * b->linear_damping);
            sim->angular_scale = 1.0f / (1.0f + h * b->angular_damping);
        } else {
            /* Kinematic: keeps its velocities (v + 0, times 1, is v exactly). */
            sim->inertia = glms_mat3_zero();
            sim->gravity_dv = glms_vec3_zero();
            sim->linear_scale = sim->angular_scale = 1.0f;
        }
    }
    return count;
}

/* ---- Wide path: SPX_LANES manifolds of one colour at a time, one lane each. ----
 * Lane l of a block is one manifold; its point slots beyond the manifold's count and the lanes of
 * a colour's last block that hold no manifold are all zero (no mass, no impulse: they apply
 * nothing). Lanes of a block share no dynamic body, so gathering both bodies of every lane, solving,
 * and scattering the velocities back is the same as solving the manifolds one after the other
 * (the shared immovable body and kinematic bodies come back unchanged). */

#ifndef SPX_SOLVER_COLORS
#define SPX_SOLVER_COLORS 24 /* -DSPX_SOLVER_COLORS=2 sends most manifolds to the overflow blocks: test_world passes so */
#endif

typedef struct wide_point {
    spx_vf an_a[3], an_b[3], at_a[2][3], at_b[2][3];
    /* The same through each body's inverse inertia: the angular velocity a unit impulse gives
       (I^-1 (anchor x d)), so that the passes need no 3x3 product per point. */
    spx_vf kn_a[3], kn_b[3], kt_a[2][3], kt_b[2][3];
    spx_vf separation, normal_mass, tangent_mass[2];
    spx_vf normal_impulse, tangent_impulse[2], relative_velocity, max_normal_impulse;
} wide_point;

typedef struct w3 {
    spx_vf x, y, z;
} w3;

/* The lever shift's share: m x d and I^-1 (m x d) for both bodies. It changes only when the bodies
   move: made by the warm start, used by the biased passes after it, made again by relax. */
typedef struct wide_shift {
    w3 mn, mt0, mt1;
    w3 kn_a, kt0_a, kt1_a, kn_b, kt0_b, kt1_b;
} wide_shift;

typedef struct wide_block {
    uint32_t a[SPX_LANES], b[SPX_LANES];
    uint32_t contact[SPX_LANES]; /* index in world->contacts.list; UINT32_MAX for an empty lane */
    int point_count;             /* the most of any lane */
    bool bounce;                 /* a lane has restitution: track the approach speeds it needs */
    spx_vf n[3], t0[3], t1[3];
    spx_vf friction, restitution, bias_rate, mass_scale, impulse_scale;
    wide_point points[SPX_MAX_MANIFOLD_POINTS];
    wide_shift shift;            /* this substep's, until the bodies move */
} wide_block;


static inline spx_vf wdot(w3 a, w3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline w3 wadd(w3 a, w3 b) { return (w3){ a.x + b.x, a.y + b.y, a.z + b.z }; }
static inline w3 wsub(w3 a, w3 b) { return (w3){ a.x - b.x, a.y - b.y, a.z - b.z }; }
static inline w3 wscale(w3 a, spx_vf s) { return (w3){ a.x * s, a.y * s, a.z * s }; }
static inline w3 wcross(w3 a, w3 b) { return (w3){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x }; }
static inline w3 wload(const spx_vf* p) { return (w3){ p[0], p[1], p[2] }; }
static inline w3 wsym(const spx_vf* m, w3 v, spx_vf s)
{
    return (w3){ (m[0] * v.x + m[3] * v.y + m[4] * v.z) * s, (m[3] * v.x + m[1] * v.y + m[5] * v.z) * s,
                 (m[4] * v.x + m[5] * v.y + m[2] * v.z) * s };
}

/* The 20 floats of spx_solver_body, lane by lane. */
#define WIDE_BODY_FLOATS 20
typedef struct wide_body {
    w3 v, w, dp, dtheta;
    spx_vf inv_mass, ii[6], pad;
} wide_body;

#if SPX_LANES == 4 && defined(__SSE2__)
/* Four bodies' five rows of four floats, transposed four by four: 20 loads and 5 transposes
   instead of 80 scalar moves (which were a seventh of the solver's instructions). */
static inline void gather(const spx_solver_body* bodies, const uint32_t* idx, wide_body* out)
{
    _Static_assert(sizeof(spx_solver_body) == WIDE_BODY_FLOATS * sizeof(float), "spx_solver_body is 20 floats");
    const float* f0 = (const float*)&bodies[idx[0]];
    const float* f1 = (const float*)&bodies[idx[1]];
    const float* f2 = (const float*)&bodies[idx[2]];
    const float* f3 = (const float*)&bodies[idx[3]];
    __m128 o[WIDE_BODY_FLOATS];
    for (int r = 0; r < WIDE_BODY_FLOATS / 4; ++r) {
        __m128 a = _mm_load_ps(f0 + 4 * r), b = _mm_load_ps(f1 + 4 * r);
        __m128 c = _mm_load_ps(f2 + 4 * r), d = _mm_load_ps(f3 + 4 * r);
        _MM_TRANSPOSE4_PS(a, b, c, d);
        o[4 * r] = a, o[4 * r + 1] = b, o[4 * r + 2] = c, o[4 * r + 3] = d;
    }
    memcpy(out, o, sizeof *out);
}

/* v and w back: rows 0 and 1 (v, w, and dp.x, dp.y unchanged). */
static inline void scatter(spx_solver_body* bodies, const uint32_t* idx, w3 v, w3 w)
{
    float* f[4] = { (float*)&bodies[idx[0]], (float*)&bodies[idx[1]], (float*)&bodies[idx[2]],
                    (float*)&bodies[idx[3]] };
    __m128 dpx = _mm_setr_ps(f[0][6], f[1][6], f[2][6], f[3][6]);
    __m128 dpy = _mm_setr_ps(f[0][7], f[1][7], f[2][7], f[3][7]);
    __m128 a = (__m128)v.x, b = (__m128)v.y, c = (__m128)v.z, d = (__m128)w.x;
    _MM_TRANSPOSE4_PS(a, b, c, d);
    __m128 e = (__m128)w.y, g = (__m128)w.z, hx = dpx, hy = dpy;
    _MM_TRANSPOSE4_PS(e, g, hx, hy);
    /* In lane order: lanes sharing a body (only ones that do not move) write the same values. */
    _mm_store_ps(f[0], a), _mm_store_ps(f[0] + 4, e);
    _mm_store_ps(f[1], b), _mm_store_ps(f[1] + 4, g);
    _mm_store_ps(f[2], c), _mm_store_ps(f[2] + 4, hx);
    _mm_store_ps(f[3], d), _mm_store_ps(f[3] + 4, hy);
}
#elif SPX_LANES == 8 && defined(__AVX__)
/* Eight bodies as two groups of four, each row transposed 4x4 and the halves joined. */
static inline void gather(const spx_solver_body* bodies, const uint32_t* idx, wide_body* out)
{
    _Static_assert(sizeof(spx_solver_body) == WIDE_BODY_FLOATS * sizeof(float), "spx_solver_body is 20 floats");
    const float* f[8];
    for (int l = 0; l < 8; ++l) f[l] = (const float*)&bodies[idx[l]];
    __m256 o[WIDE_BODY_FLOATS];
    for (int r = 0; r < WIDE_BODY_FLOATS / 4; ++r) {
        __m128 a = _mm_load_ps(f[0] + 4 * r), b = _mm_load_ps(f[1] + 4 * r);
        __m128 c = _mm_load_ps(f[2] + 4 * r), d = _mm_load_ps(f[3] + 4 * r);
        __m128 e = _mm_load_ps(f[4] + 4 * r), g = _mm_load_ps(f[5] + 4 * r);
        __m128 h = _mm_load_ps(f[6] + 4 * r), k = _mm_load_ps(f[7] + 4 * r);
        _MM_TRANSPOSE4_PS(a, b, c, d);
        _MM_TRANSPOSE4_PS(e, g, h, k);
        o[4 * r] = _mm256_insertf128_ps(_mm256_castps128_ps256(a), e, 1);
        o[4 * r + 1] = _mm256_insertf128_ps(_mm256_castps128_ps256(b), g, 1);
        o[4 * r + 2] = _mm256_insertf128_ps(_mm256_castps128_ps256(c), h, 1);
        o[4 * r + 3] = _mm256_insertf128_ps(_mm256_castps128_ps256(d), k, 1);
    }
    memcpy(out, o, sizeof *out);
}

static inline void scatter(spx_solver_body* bodies, const uint32_t* idx, w3 v, w3 w)
{
    for (int l = 0; l < SPX_LANES; ++l) {
        spx_solver_body* b = &bodies[idx[l]];
        b->v.x = v.x[l], b->v.y = v.y[l], b->v.z = v.z[l];
        b->w.x = w.x[l], b->w.y = w.y[l], b->w.z = w.z[l];
    }
}
#else
static inline void gather(const spx_solver_body* bodies, const uint32_t* idx, wide_body* out)
{
    _Static_assert(sizeof(spx_solver_body) == WIDE_BODY_FLOATS * sizeof(float), "spx_solver_body is 20 floats");
    float t[WIDE_BODY_FLOATS][SPX_LANES] __attribute__((aligned(32)));
    for (int l = 0; l < SPX_LANES; ++l) {
        const float* f = (const float*)&bodies[idx[l]];
        for (int k = 0; k < WIDE_BODY_FLOATS; ++k) t[k][l] = f[k];
    }
    spx_vf* o = (spx_vf*)out;
    for (int k = 0; k < WIDE_BODY_FLOATS; ++k) memcpy(&o[k], t[k], sizeof(spx_vf));
}

static inline void scatter(spx_solver_body* bodies, const uint32_t* idx, w3 v, w3 w)
{
    for (int l = 0; l < SPX_LANES; ++l) {
        spx_solver_body* b = &bodies[idx[l]];
        b->v.x = v.x[l], b->v.y = v.y[l], b->v.z = v.z[l];
        b->w.x = w.x[l], b->w.y = w.y[l], b->w.z = w.z[l];
    }
}
#endif


static inline void make_wide_shift(const wide_body* A, const wide_body* B, w3 n, w3 t0, w3 t1, wide_shift* out)
{
    const spx_vf one = spx_vf_splat(1.0f);
    const w3 m = wscale(wsub(B->dp, A->dp), spx_vf_splat(0.5f));
    out->mn = wcross(m, n), out->mt0 = wcross(m, t0), out->mt1 = wcross(m, t1);
    out->kn_a = wsym(A->ii, out->mn, one), out->kt0_a = wsym(A->ii, out->mt0, one);
    out->kt1_a = wsym(A->ii, out->mt1, one);
    out->kn_b = wsym(B->ii, out->mn, one), out->kt0_b = wsym(B->ii, out->mt0, one);
    out->kt1_b = wsym(B->ii, out->mt1, one);
}

static void wide_warm_start(spx_solver_body* bodies, wide_block* c)
{
    wide_body A, B;
    gather(bodies, c->a, &A);
    gather(bodies, c->b, &B);
    const w3 n = wload(c->n), t0 = wload(c->t0), t1 = wload(c->t1);
    /* Every point's impulse at its own anchors, then the lever shift's share and the linear part
       once from the summed impulses (the directions are the manifold's). */
    w3 ka = { 0 }, kb = { 0 };
    spx_vf sum_n = spx_vf_splat(0.0f), sum_0 = sum_n, sum_1 = sum_n;
    for (int i = 0; i < c->point_count; ++i) {
        const wide_point* p = &c->points[i];
        const spx_vf ln = p->normal_impulse, l0 = p->tangent_impulse[0], l1 = p->tangent_impulse[1];
        sum_n += ln, sum_0 += l0, sum_1 += l1;
        ka = wadd(ka, wadd(wadd(wscale(wload(p->kn_a), ln), wscale(wload(p->kt_a[0]), l0)), wscale(wload(p->kt_a[1]), l1)));
        kb = wadd(kb, wadd(wadd(wscale(wload(p->kn_b), ln), wscale(wload(p->kt_b[0]), l0)), wscale(wload(p->kt_b[1]), l1)));
    }
    make_wide_shift(&A, &B, n, t0, t1, &c->shift);
    const wide_shift sh = c->shift;
    const w3 ks_a = wadd(wadd(wscale(sh.kn_a, sum_n), wscale(sh.kt0_a, sum_0)), wscale(sh.kt1_a, sum_1));
    const w3 ks_b = wadd(wadd(wscale(sh.kn_b, sum_n), wscale(sh.kt0_b, sum_0)), wscale(sh.kt1_b, sum_1));
    const w3 P = wadd(wadd(wscale(n, sum_n), wscale(t0, sum_0)), wscale(t1, sum_1));
    scatter(bodies, c->a, wsub(A.v, wscale(P, A.inv_mass)), wsub(A.w, wadd(ka, ks_a)));
    scatter(bodies, c->b, wadd(B.v, wscale(P, B.inv_mass)), wadd(B.w, wsub(kb, ks_b)));
}

static void wide_solve(spx_solver_body* bodies, wide_block* c, float inv_h_s, float max_push_s, bool use_bias)
{
    wide_body A, B;
    gather(bodies, c->a, &A);
    gather(bodies, c->b, &B);
    const spx_vf zero = spx_vf_splat(0.0f), one = spx_vf_splat(1.0f);
    const spx_vf inv_h = spx_vf_splat(inv_h_s), max_push = spx_vf_splat(-max_push_s);
    const w3 n = wload(c->n), t0 = wload(c->t0), t1 = wload(c->t1);
    const w3 ddp = wsub(B.dp, A.dp);
    /* The biased passes follow the warm start with the bodies where they were; relax follows a move. */
    if (!use_bias) make_wide_shift(&A, &B, n, t0, t1, &c->shift);
    const wide_shift sh = c->shift;
    const w3 mn = sh.mn, mt0 = sh.mt0, mt1 = sh.mt1;
    const spx_vf dpn = wdot(n, ddp);
    w3 wa = A.w, wb = B.w;
    /* The linear velocities only along n, t0 and t1: an impulse along one of these orthogonal
       directions changes the relative velocity along it by (1/m_a + 1/m_b) times the impulse and
       not along the others. The bodies' v are updated once, from the sums, at the end. */
    const w3 dv = wsub(B.v, A.v);
    const spx_vf im = A.inv_mass + B.inv_mass;
    spx_vf ln = wdot(n, dv), l0 = wdot(t0, dv), l1 = wdot(t1, dv);
    spx_vf sum_n = zero, sum_0 = zero, sum_1 = zero;
    const int count = c->point_count;
    /* The approach speeds and the largest impulse serve restitution only: most blocks skip them. */
    const bool bounce = c->bounce;
    spx_vf approach[SPX_MAX_MANIFOLD_POINTS];
    if (bounce) {
        for (int i = 0; i < count; ++i) {
            const wide_point* p = &c->points[i];
            approach[i] = ln + wdot(wb, wsub(wload(p->an_b), mn)) - wdot(wa, wadd(wload(p->an_a), mn));
        }
    }
    for (int i = 0; i < count; ++i) {
        wide_point* p = &c->points[i];
        const w3 an_a = wload(p->an_a), an_b = wload(p->an_b);
        const w3 ja = wadd(an_a, mn), jb = wsub(an_b, mn);
        const spx_vf s = p->separation + dpn + wdot(B.dtheta, an_b) - wdot(A.dtheta, an_a);
        const spx_vi gap = s > zero;
        spx_vf bias, mass_scale, impulse_scale;
        if (use_bias) {
            bias = spx_vf_pick(gap, s * inv_h, spx_vf_max(c->bias_rate * s, max_push));
            mass_scale = spx_vf_pick(gap, one, c->mass_scale);
            impulse_scale = spx_vf_pick(gap, zero, c->impulse_scale);
        } else {
            bias = spx_vf_pick(gap, s * inv_h, zero);
            mass_scale = one;
            impulse_scale = zero;
        }
        const spx_vf vn = ln + wdot(wb, jb) - wdot(wa, ja);
        spx_vf impulse = -p->normal_mass * mass_scale * (vn + bias) - impulse_scale * p->normal_impulse;
        if (bounce)
            p->relative_velocity = spx_vf_pick((impulse > zero) & (approach[i] < p->relative_velocity), approach[i],
                                               p->relative_velocity);
        spx_vf total = p->normal_impulse + impulse;
        total = spx_vf_pick(total < zero, zero, total);
        impulse = total - p->normal_impulse;
        p->normal_impulse = total;
        if (bounce) p->max_normal_impulse = spx_vf_pick(total > p->max_normal_impulse, total, p->max_normal_impulse);
        ln += im * impulse;
        sum_n += impulse;
        wa = wsub(wa, wscale(wadd(wload(p->kn_a), sh.kn_a), impulse));
        wb = wadd(wb, wscale(wsub(wload(p->kn_b), sh.kn_b), impulse));
    }
    for (int i = 0; i < count; ++i) {
        wide_point* p = &c->points[i];
        const w3 ja0 = wadd(wload(p->at_a[0]), mt0), jb0 = wsub(wload(p->at_b[0]), mt0);
        const w3 ja1 = wadd(wload(p->at_a[1]), mt1), jb1 = wsub(wload(p->at_b[1]), mt1);
        const spx_vf v0 = l0 + wdot(wb, jb0) - wdot(wa, ja0);
        const spx_vf v1 = l1 + wdot(wb, jb1) - wdot(wa, ja1);
        spx_vf f0 = p->tangent_impulse[0] - p->tangent_mass[0] * v0;
        spx_vf f1 = p->tangent_impulse[1] - p->tangent_mass[1] * v1;
        const spx_vf limit = c->friction * p->normal_impulse;
        const spx_vf len2 = f0 * f0 + f1 * f1;
        const spx_vi over = len2 > limit * limit;
        /* Lanes not over the limit keep their values (their quotient is never used). */
        const spx_vf sc = limit / spx_vf_sqrt(spx_vf_pick(over, len2, one));
        f0 = spx_vf_pick(over, f0 * sc, f0);
        f1 = spx_vf_pick(over, f1 * sc, f1);
        const spx_vf d0 = f0 - p->tangent_impulse[0], d1 = f1 - p->tangent_impulse[1];
        p->tangent_impulse[0] = f0, p->tangent_impulse[1] = f1;
        l0 += im * d0, l1 += im * d1;
        sum_0 += d0, sum_1 += d1;
        wa = wsub(wa, wadd(wscale(wadd(wload(p->kt_a[0]), sh.kt0_a), d0), wscale(wadd(wload(p->kt_a[1]), sh.kt1_a), d1)));
        wb = wadd(wb, wadd(wscale(wsub(wload(p->kt_b[0]), sh.kt0_b), d0), wscale(wsub(wload(p->kt_b[1]), sh.kt1_b), d1)));
    }
    const w3 P = wadd(wadd(wscale(n, sum_n), wscale(t0, sum_0)), wscale(t1, sum_1));
    scatter(bodies, c->a, wsub(A.v, wscale(P, A.inv_mass)), wa);
    scatter(bodies, c->b, wadd(B.v, wscale(P, B.inv_mass)), wb);
}

/* Sweeps over the bouncing points: one sweep leaves a box that lands flat spinning, its four corners
   solved one after the other; a few sweeps settle the four on one rebound speed. */
#define SPX_RESTITUTION_SWEEPS 4

static void wide_restitution(spx_solver_body* bodies, wide_block* c, float threshold)
{
    wide_body A, B;
    gather(bodies, c->a, &A);
    gather(bodies, c->b, &B);
    const spx_vf zero = spx_vf_splat(0.0f), below = spx_vf_splat(-threshold);
    const w3 n = wload(c->n), t0 = wload(c->t0), t1 = wload(c->t1);
    wide_shift sh;
    make_wide_shift(&A, &B, n, t0, t1, &sh);
    w3 va = A.v, wa = A.w, vb = B.v, wb = B.w;
    for (int i = 0; i < c->point_count; ++i) {
        wide_point* p = &c->points[i];
        /* Slow approaches do not bounce (they would never settle), nor do points that never pushed. */
        const spx_vi bounces = (c->restitution != zero) & (p->relative_velocity <= below)
                             & (p->max_normal_impulse != zero);
        const w3 ja = wadd(wload(p->an_a), sh.mn), jb = wsub(wload(p->an_b), sh.mn);
        const spx_vf vn = wdot(n, wsub(vb, va)) + wdot(wb, jb) - wdot(wa, ja);
        const spx_vf impulse = -p->normal_mass * (vn + c->restitution * p->relative_velocity);
        spx_vf total = p->normal_impulse + impulse;
        total = spx_vf_pick(total < zero, zero, total);
        total = spx_vf_pick(bounces, total, p->normal_impulse);
        const spx_vf applied = total - p->normal_impulse;
        p->normal_impulse = total;
        va = wsub(va, wscale(n, A.inv_mass * applied));
        wa = wsub(wa, wscale(wadd(wload(p->kn_a), sh.kn_a), applied));
        vb = wadd(vb, wscale(n, B.inv_mass * applied));
        wb = wadd(wb, wscale(wsub(wload(p->kn_b), sh.kn_b), applied));
    }
    scatter(bodies, c->a, va, wa);
    scatter(bodies, c->b, vb, wb);
}

/* The active manifolds, in the contacts' (sorted, deterministic) order; returns how many. */
static uint32_t collect_manifolds(spx_world* w)
{
    spx_solver_scratch* s = &w->solver;
    uint32_t count = 0;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (!active(w, c)) continue;
        spx_solver_manifold* m = &s->manifolds[count++];
        m->a = s->body_map[c->body_a];
        m->b = s->body_map[c->body_b];
        m->contact = k;
        m->point_count = (uint32_t)c->point_count;
    }
    return count;
}

/* Colours the manifolds greedily in their order: the first colour whose manifolds touch neither
   of its dynamic bodies. Bodies that do not move under impulses (the immovable body 0, kinematic
   bodies) never block a colour: every lane leaves them unchanged. Fills s->order (by colour, then
   the overflow) and returns the number of coloured manifolds; counts[c] those of colour c. */
static uint32_t color_manifolds(spx_solver_scratch* s, uint32_t nb, uint32_t nc, uint32_t counts[SPX_SOLVER_COLORS])
{
    const uint32_t words = (nb + 63) / 64;
    uint64_t* bits = s->color_bits;
    memset(bits, 0, sizeof(uint64_t) * (size_t)words * SPX_SOLVER_COLORS);
    uint8_t* color = (uint8_t*)(s->order + nc); /* scratch: nc bytes after the order's first half */
    memset(counts, 0, sizeof(uint32_t) * SPX_SOLVER_COLORS);
    for (uint32_t k = 0; k < nc; ++k) {
        const spx_solver_manifold* c = &s->manifolds[k];
        const bool da = s->bodies[c->a].inv_mass > 0.0f, db = s->bodies[c->b].inv_mass > 0.0f;
        const uint64_t ma = 1ull << (c->a & 63), mb = 1ull << (c->b & 63);
        uint8_t chosen = SPX_SOLVER_COLORS;
        for (uint32_t col = 0; col < SPX_SOLVER_COLORS; ++col) {
            uint64_t* cb = bits + (size_t)col * words;
            if ((da && (cb[c->a >> 6] & ma)) || (db && (cb[c->b >> 6] & mb))) continue;
            if (da) cb[c->a >> 6] |= ma;
            if (db) cb[c->b >> 6] |= mb;
            chosen = (uint8_t)col;
            break;
        }
        color[k] = chosen;
        if (chosen < SPX_SOLVER_COLORS) ++counts[chosen];
    }
    /* By colour, and within a colour by point count, most first: a block costs as much as its
       fullest lane, and manifolds of like counts side by side leave fewer empty point slots
       (falling: 73% of the slots held a point in manifold order). Counting sort: stable. */
    enum { KEYS = SPX_SOLVER_COLORS * SPX_MAX_MANIFOLD_POINTS };
    uint32_t start[KEYS + 1];
    memset(start, 0, sizeof start);
    for (uint32_t k = 0; k < nc; ++k)
        if (color[k] < SPX_SOLVER_COLORS)
            ++start[color[k] * SPX_MAX_MANIFOLD_POINTS + (SPX_MAX_MANIFOLD_POINTS - s->manifolds[k].point_count) + 1];
    for (int key = 0; key < KEYS; ++key) start[key + 1] += start[key];
    const uint32_t colored = start[KEYS];
    uint32_t next_overflow = colored;
    /* order[] is written below color[] (which lives at order + nc), never over it. */
    for (uint32_t k = 0; k < nc; ++k) {
        if (color[k] < SPX_SOLVER_COLORS)
            s->order[start[color[k] * SPX_MAX_MANIFOLD_POINTS + (SPX_MAX_MANIFOLD_POINTS - s->manifolds[k].point_count)]++] = k;
        else s->order[next_overflow++] = k;
    }
    return colored;
}

/* Manifold m into lane l of block wb: its axes, materials, spring, anchors, and the impulses the
   narrow phase carried over. */
static void prepare_lane(const spx_world* w, const spx_solver_manifold* m, soft dynamic_soft, soft static_soft,
                         wide_block* wb, int l)
{
    const spx_contact* c = &w->contacts.list[m->contact];
    wb->a[l] = m->a, wb->b[l] = m->b, wb->contact[l] = m->contact;
    if (c->point_count > wb->point_count) wb->point_count = c->point_count;
    const vec3s n = c->normal, t[2] = { c->tangent[0], c->tangent[1] };
    for (int d = 0; d < 3; ++d) wb->n[d][l] = n.raw[d], wb->t0[d][l] = t[0].raw[d], wb->t1[d][l] = t[1].raw[d];
    wb->friction[l] = c->friction;
    wb->restitution[l] = c->restitution;
    wb->bounce = wb->bounce || c->restitution != 0.0f;
    /* Against a body that cannot move the spring may be stiffer: nothing on the other side gives. */
    const soft sf = w->bodies[c->body_a].inv_mass == 0.0f || w->bodies[c->body_b].inv_mass == 0.0f ? static_soft
                                                                                                    : dynamic_soft;
    wb->bias_rate[l] = sf.bias_rate, wb->mass_scale[l] = sf.mass_scale, wb->impulse_scale[l] = sf.impulse_scale;
    /* The anchors wait in an_a and an_b for prepare_jacobians, which makes the rest lane-parallel. */
    for (int i = 0; i < c->point_count; ++i) {
        const spx_contact_point* cp = &c->points[i];
        wide_point* q = &wb->points[i];
        for (int d = 0; d < 3; ++d) q->an_a[d][l] = cp->anchor_a.raw[d], q->an_b[d][l] = cp->anchor_b.raw[d];
        q->separation[l] = cp->separation;
        q->normal_impulse[l] = cp->normal_impulse;
        q->tangent_impulse[0][l] = cp->tangent_impulse[0], q->tangent_impulse[1][l] = cp->tangent_impulse[1];
    }
}

/* A block's Jacobians from the anchors prepare_lane left in an_a and an_b: r x d, I^-1 (r x d), the
   effective masses (zero in the slots a lane's manifold does not fill), and the normal speed before
   the solve. */
static void prepare_jacobians(const spx_solver_body* bodies, wide_block* c, const int* lane_points)
{
    wide_body A, B;
    gather(bodies, c->a, &A);
    gather(bodies, c->b, &B);
    const spx_vf zero = spx_vf_splat(0.0f), one = spx_vf_splat(1.0f);
    const w3 n = wload(c->n), t[2] = { wload(c->t0), wload(c->t1) };
    const spx_vf im = A.inv_mass + B.inv_mass;
    const w3 dv = wsub(B.v, A.v);
    spx_vi count;
    for (int l = 0; l < SPX_LANES; ++l) count[l] = lane_points[l];
    for (int i = 0; i < c->point_count; ++i) {
        wide_point* q = &c->points[i];
        const spx_vi filled = count > spx_vi_splat(i);
        const w3 ra = wload(q->an_a), rb = wload(q->an_b);
        const w3 an_a = wcross(ra, n), an_b = wcross(rb, n);
        const w3 kn_a = wsym(A.ii, an_a, one), kn_b = wsym(B.ii, an_b, one);
        const spx_vf kn = im + wdot(an_a, kn_a) + wdot(an_b, kn_b);
        q->normal_mass = spx_vf_pick(filled & (kn > zero), one / spx_vf_pick(kn > zero, kn, one), zero);
        q->an_a[0] = an_a.x, q->an_a[1] = an_a.y, q->an_a[2] = an_a.z;
        q->an_b[0] = an_b.x, q->an_b[1] = an_b.y, q->an_b[2] = an_b.z;
        q->kn_a[0] = kn_a.x, q->kn_a[1] = kn_a.y, q->kn_a[2] = kn_a.z;
        q->kn_b[0] = kn_b.x, q->kn_b[1] = kn_b.y, q->kn_b[2] = kn_b.z;
        for (int j = 0; j < 2; ++j) {
            const w3 at_a = wcross(ra, t[j]), at_b = wcross(rb, t[j]);
            const w3 kt_a = wsym(A.ii, at_a, one), kt_b = wsym(B.ii, at_b, one);
            const spx_vf kt = im + wdot(at_a, kt_a) + wdot(at_b, kt_b);
            q->tangent_mass[j] = spx_vf_pick(filled & (kt > zero), one / spx_vf_pick(kt > zero, kt, one), zero);
            q->at_a[j][0] = at_a.x, q->at_a[j][1] = at_a.y, q->at_a[j][2] = at_a.z;
            q->at_b[j][0] = at_b.x, q->at_b[j][1] = at_b.y, q->at_b[j][2] = at_b.z;
            q->kt_a[j][0] = kt_a.x, q->kt_a[j][1] = kt_a.y, q->kt_a[j][2] = kt_a.z;
            q->kt_b[j][0] = kt_b.x, q->kt_b[j][1] = kt_b.y, q->kt_b[j][2] = kt_b.z;
        }
        q->relative_velocity = spx_vf_pick(filled, wdot(n, dv) + wdot(B.w, an_b) - wdot(A.w, an_a), zero);
        q->max_normal_impulse = zero;
    }
}

static uint32_t prepare_blocks(spx_world* w, uint32_t nc, uint32_t colored, const uint32_t counts[SPX_SOLVER_COLORS],
                               soft dynamic_soft, soft static_soft)
{
    spx_solver_scratch* s = &w->solver;
    wide_block* blocks = s->blocks;
    uint32_t nblocks = 0, at = 0;
    for (int col = 0; col <= SPX_SOLVER_COLORS; ++col) {
        const bool overflow = col == SPX_SOLVER_COLORS;
        const uint32_t count = overflow ? nc - colored : counts[col];
        const uint32_t lanes = overflow ? 1 : SPX_LANES;
        for (uint32_t first = 0; first < count; first += lanes) {
            wide_block* wb = &blocks[nblocks++];
            memset(wb, 0, sizeof *wb);
            int lane_points[SPX_LANES] = { 0 };
            for (int l = 0; l < SPX_LANES; ++l) wb->contact[l] = UINT32_MAX;
            for (uint32_t l = 0; l < lanes && first + l < count; ++l) {
                const spx_solver_manifold* m = &s->manifolds[s->order[at++]];
                lane_points[l] = (int)m->point_count;
                prepare_lane(w, m, dynamic_soft, static_soft, wb, (int)l);
            }
            prepare_jacobians(s->bodies, wb, lane_points);
        }
    }
    return nblocks;
}

/* The impulses back to the manifolds, for the next step's warm start. */
static void store_impulses(spx_world* w, uint32_t nblocks)
{
    const wide_block* blocks = w->solver.blocks;
    for (uint32_t j = 0; j < nblocks; ++j) {
        const wide_block* wb = &blocks[j];
        for (int l = 0; l < SPX_LANES; ++l) {
            if (wb->contact[l] == UINT32_MAX) continue;
            spx_contact* c = &w->contacts.list[wb->contact[l]];
            for (int i = 0; i < c->point_count; ++i) {
                const wide_point* q = &wb->points[i];
                spx_contact_point* p = &c->points[i];
                p->normal_impulse = q->normal_impulse[l];
                p->tangent_impulse[0] = q->tangent_impulse[0][l], p->tangent_impulse[1] = q->tangent_impulse[1][l];
                p->normal_mass = q->normal_mass[l];
                p->tangent_mass[0] = q->tangent_mass[0][l], p->tangent_mass[1] = q->tangent_mass[1][l];
                p->relative_velocity = q->relative_velocity[l];
                p->max_normal_impulse = q->max_normal_impulse[l];
            }
        }
    }
}

static spx_result reserve(spx_world* w)
{
    spx_solver_scratch* s = &w->solver;
    const spx_allocator* al = &w->allocator;
    const uint32_t n = w->body_slots + 1;
    const uint32_t nc = w->contacts.count + 1;
    const uint32_t words = (n + 63) / 64;
    if (!spx_reserve(al, (void**)&s->body_map, &s->map_capacity, n, sizeof(uint32_t), 8)
        || !spx_reserve(al, (void**)&s->bodies, &s->body_capacity, n, sizeof(spx_solver_body), 16)
        || !spx_reserve(al, (void**)&s->sims, &s->sim_capacity, n, sizeof(spx_solver_body_sim), 16)
        || !spx_reserve(al, (void**)&s->manifolds, &s->manifold_capacity, nc, sizeof(spx_solver_manifold), 8)
        || !spx_reserve(al, (void**)&s->color_bits, &s->color_bits_capacity, words * SPX_SOLVER_COLORS,
                        sizeof(uint64_t), 8)
        || !spx_reserve(al, (void**)&s->order, &s->order_capacity, 2 * nc, sizeof(uint32_t), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    return SPX_OK;
}

void spx_solver_free(spx_solver_scratch* s, const spx_allocator* al)
{
    spx_free(al, s->body_map, sizeof(uint32_t) * (size_t)s->map_capacity);
    spx_free(al, s->bodies, sizeof(spx_solver_body) * (size_t)s->body_capacity);
    spx_free(al, s->sims, sizeof(spx_solver_body_sim) * (size_t)s->sim_capacity);
    spx_free(al, s->manifolds, sizeof(spx_solver_manifold) * (size_t)s->manifold_capacity);
    spx_free(al, s->color_bits, sizeof(uint64_t) * (size_t)s->color_bits_capacity);
    spx_free(al, s->order, sizeof(uint32_t) * (size_t)s->order_capacity);
    spx_free(al, s->blocks, sizeof(wide_block) * (size_t)s->block_capacity);
}

spx_result spx_solve(spx_world* w, float dt)
{
    if (reserve(w) != SPX_OK) return SPX_ERR_OUT_OF_MEMORY;
    if (dt == 0.0f) return SPX_OK;
    spx_solver_scratch* s = &w->solver;
    const uint32_t substeps = w->def.substeps;
    const uint32_t solve_iterations = w->def.solve_iterations, relax_iterations = w->def.relax_iterations;
    const float h = dt / (float)substeps;
    const float inv_h = 1.0f / h;
    /* The spring may not be stiffer than a quarter of the substep rate, or it rings. */
    float hertz = w->def.contact_hertz;
    if (hertz > 0.25f * inv_h) hertz = 0.25f * inv_h;
    const soft dynamic_soft = make_soft(hertz, w->def.contact_damping_ratio, h);
    const soft static_soft = make_soft(2.0f * hertz, w->def.contact_damping_ratio, h);

    const uint32_t nb = gather_bodies(w, h);
    const uint32_t nc = collect_manifolds(w);
    uint32_t counts[SPX_SOLVER_COLORS];
    const uint32_t colored = color_manifolds(s, nb, nc, counts);
    /* The blocks (a few kB each) are counted once coloured: every colour's manifolds SPX_LANES to a
       block, and one a block in the overflow. Nothing in the world has changed yet. */
    uint32_t needed = nc - colored;
    for (int col = 0; col < SPX_SOLVER_COLORS; ++col) needed += (counts[col] + SPX_LANES - 1) / SPX_LANES;
    if (!spx_reserve(&w->allocator, &s->blocks, &s->block_capacity, needed, sizeof(wide_block), 32))
        return SPX_ERR_OUT_OF_MEMORY;
    const uint32_t nblocks = prepare_blocks(w, nc, colored, counts, dynamic_soft, static_soft);
    spx_solver_body* sb = s->bodies;
    const spx_solver_body_sim* sims = s->sims;
    const float max_push = w->def.max_push_speed;
    wide_block* blocks = s->blocks;
    for (uint32_t step = 0; step < substeps; ++step) {
        for (uint32_t k = 1; k < nb; ++k) {
            sb[k].v = scale3(add3(sb[k].v, sims[k].gravity_dv), sims[k].linear_scale);
            sb[k].w = scale3(sb[k].w, sims[k].angular_scale);
        }
        for (uint32_t j = 0; j < nblocks; ++j) wide_warm_start(sb, &blocks[j]);
        for (uint32_t it = 0; it < solve_iterations; ++it)
            for (uint32_t j = 0; j < nblocks; ++j) wide_solve(sb, &blocks[j], inv_h, max_push, true);
        for (uint32_t k = 1; k < nb; ++k) {
            spx_body* b = &w->bodies[sims[k].body];
            vec3s dp = scale3(sb[k].v, h), dth = scale3(sb[k].w, h);
            b->center = add3(b->center, dp);
            sb[k].dp = add3(sb[k].dp, dp);
            sb[k].dtheta = add3(sb[k].dtheta, dth);
            /* q' = q + h/2 (w, 0) q, normalised: first order, exact for the direction of a small turn. */
            versors q = b->rotation;
            versors wq = { { 0.5f * dth.x, 0.5f * dth.y, 0.5f * dth.z, 0.0f } };
            versors dq = glms_quat_mul(wq, q);
            q.x += dq.x, q.y += dq.y, q.z += dq.z, q.w += dq.w;
            b->rotation = glms_quat_normalize(q);
        }
        for (uint32_t it = 0; it < relax_iterations; ++it)
            for (uint32_t j = 0; j < nblocks; ++j) wide_solve(sb, &blocks[j], inv_h, max_push, false);
    }
    for (int sweep = 0; sweep < SPX_RESTITUTION_SWEEPS; ++sweep)
        for (uint32_t j = 0; j < nblocks; ++j)
            if (blocks[j].bounce) wide_restitution(sb, &blocks[j], w->def.restitution_threshold);
    store_impulses(w, nblocks);

    /* The step worked with the inertia of its start; the body has turned since. Keeping w would
       change the angular momentum I w of a free asymmetric body as it turns; carrying I w over to
       the new rotation keeps it (the impulses above conserved it with the start's inertia). */
    for (uint32_t k = 1; k < nb; ++k) {
        spx_body* b = &w->bodies[sims[k].body];
        b->v = sb[k].v;
        b->w = sb[k].w;
        if (sims[k].dynamic) b->w = glms_mat3_mulv(spx_body_inv_inertia_world(b), glms_mat3_mulv(sims[k].inertia, b->w));
        spx_body_sync_origin(b);
    }
    return SPX_OK;
}
