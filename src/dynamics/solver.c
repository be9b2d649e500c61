/* The contact solver: soft step with substeps (Catto's Solver2D, Box2D v3) in 3D, driving the step;
 * solver_wide.inc holds the per-lane-width blocks and passes. See docs/world.md, "The solver". */
#include "world.h"
#include "solver.h"
#include "core/allocator.h"
#include <math.h>
#include <stddef.h>
#include <string.h>

/* Implicit over a substep h. */
static spx_solver_soft make_soft(float hertz, float zeta, float h)
{
    spx_solver_soft s = { 0.0f, 1.0f, 0.0f };
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

/* v + 2 w (u x v) + 2 u x (u x v); sign -1: by the inverse. */
static inline vec3s rotate(versors q, vec3s v, float sign)
{
    const vec3s u = { { sign * q.x, sign * q.y, sign * q.z } };
    const vec3s t = glms_vec3_scale(glms_vec3_cross(u, v), 2.0f);
    return glms_vec3_add(glms_vec3_add(v, glms_vec3_scale(t, q.w)), glms_vec3_cross(u, t));
}

/* th in world axes; normalised. */
static versors turn(versors q, vec3s th) { return glms_quat_normalize(glms_quat_mul(spx_solver_rotation(th), q)); }

/* rad: a free body of unequal inertias turning more than this a step turns by its angular momentum
   (free_turn), not at one w. */
#define SPX_SOLVER_FREE_TURN 0.05f
#define SPX_SOLVER_FREE_PIECES 128

/* q times the turn about q's principal axis i. */
static versors turn_about(versors q, int i, float angle)
{
    const float h = 0.5f * angle, sh = sinf(h);
    versors r = { { 0.0f, 0.0f, 0.0f, cosf(h) } };
    r.raw[i] = sh;
    return glms_quat_mul(q, r);
}

/* Free-body rotation with world angular momentum l (Dullweber, Leimkuhler, McLachlan 1997): keeps
   |l| exactly and energy to second order, where one w would drain a plank's spin. */
static versors free_turn(const spx_body* b, versors q0, vec3s l, float dt, versors otherwise)
{
    const vec3s I = b->principal_inertia;
    if (!(I.x > 0.0f && I.y > 0.0f && I.z > 0.0f)) return otherwise; /* no inertia to turn with */
    versors q = glms_quat_mul(q0, b->principal);                     /* the principal frame in the world */
    vec3s m = rotate(q, l, -1.0f);                                   /* l in it */
    /* m / I before squaring: I^2 underflows for the smallest inertias the world takes. */
    const float wx = m.x / I.x, wy = m.y / I.y, wz = m.z / I.z;
    const float want = ceilf(sqrtf(wx * wx + wy * wy + wz * wz) * dt / SPX_SOLVER_FREE_TURN);
    /* NaN (quarantined later) takes one piece: no float-to-int of NaN. */
    const int pieces = !(want >= 1.0f) ? 1 : want > (float)SPX_SOLVER_FREE_PIECES ? SPX_SOLVER_FREE_PIECES : (int)want;
    const float h = dt / (float)pieces;
    static const int axis[5] = { 0, 1, 2, 1, 0 };
    static const float part[5] = { 0.5f, 0.5f, 1.0f, 0.5f, 0.5f };
    for (int piece = 0; piece < pieces; ++piece)
        for (int k = 0; k < 5; ++k) {
            const int i = axis[k], j = (i + 1) % 3, n = (i + 2) % 3;
            const float angle = part[k] * h * m.raw[i] / I.raw[i];
            q = turn_about(q, i, angle);
            const float c = cosf(angle), s = sinf(angle), mj = m.raw[j], mn = m.raw[n];
            m.raw[j] = c * mj + s * mn, m.raw[n] = -s * mj + c * mn;
        }
    return glms_quat_normalize(glms_quat_mul(q, glms_quat_inv(b->principal)));
}

/* R A R^T as spx_solver_body's 6 floats: only the products needed (3.5x cheaper than
   spx_body_inv_inertia_world). */
static void rotate_symmetric(versors q, const mat3s* a, float out[6])
{
    const float x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
    const float xx = q.x * x2, yy = q.y * y2, zz = q.z * z2, xy = q.x * y2, xz = q.x * z2, yz = q.y * z2;
    const float wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    const float r[3][3] = { { 1.0f - (yy + zz), xy - wz, xz + wy },
                            { xy + wz, 1.0f - (xx + zz), yz - wx },
                            { xz - wy, yz + wx, 1.0f - (xx + yy) } };
    float t[3][3]; /* R A */
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t[i][j] = r[i][0] * a->raw[j][0] + r[i][1] * a->raw[j][1] + r[i][2] * a->raw[j][2];
    static const int row[6] = { 0, 1, 2, 0, 0, 1 }, col[6] = { 0, 1, 2, 1, 2, 2 };
    for (int k = 0; k < 6; ++k) {
        const int i = row[k], j = col[k];
        out[k] = t[i][0] * r[j][0] + t[i][1] * r[j][1] + t[i][2] * r[j][2];
    }
}

/* Exactly a multiple of the identity, from the bits without branches (off-diagonal +-0). */
static bool isotropic(const mat3s* m)
{
    uint32_t u[9];
    memcpy(u, m->raw, sizeof u);
    return (((u[1] | u[2] | u[3] | u[5] | u[6] | u[7]) & 0x7fffffffu) | (u[0] ^ u[4]) | (u[0] ^ u[8])) == 0;
}

static inline spx_f4 row_of(const spx_solver_body* b, int r) { return spx_f4_load((const float*)b + 4 * r); }
static inline void set_row(spx_solver_body* b, int r, spx_f4 x) { spx_f4_store((float*)b + 4 * r, x); }

/* A dynamic body of it moves, and pre_solve left it on. */
static bool active(const spx_world* w, const spx_contact* c) { return spx_contact_active(w, c); }

/* As spx_solver_body_sim's add and scales. */
static void set_substep(spx_solver_body_sim* sim, const spx_body* b, vec3s g, float h)
{
    const vec3s dv = glms_vec3_scale(g, h * b->gravity_scale);
    const float ls = 1.0f / (1.0f + h * b->linear_damping), as = 1.0f / (1.0f + h * b->angular_damping);
    /* -0: x + -0 is x for every x, -0 included. */
    sim->add = spx_f4_set(dv.x, dv.y, dv.z, -0.0f);
    sim->scale0 = spx_f4_set(ls, ls, ls, as);
    sim->scale1 = spx_f4_set(as, as, 1.0f, 1.0f);
}

/* Returns how many, index 0 (immovable) included. */
static uint32_t gather_bodies(spx_world* w, float h)
{
    spx_solver_scratch* s = &w->solver;
    const vec3s g = { { w->def.gravity.x, w->def.gravity.y, w->def.gravity.z } };
    memset(&s->bodies[0], 0, sizeof s->bodies[0]);
    memset(&s->sims[0], 0, sizeof s->sims[0]);
    s->sims[0].least_inv_mass = INFINITY;
    uint32_t count = 1;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        if (!spx_body_moves(b)) {
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
        sim->isotropic = false;
        sim->touching = false;
        sim->overlaps = 0;
        sim->deep_pairs = 0;
        sim->lingering = sim->split = false;
        sim->least_inv_mass = INFINITY;
        if (sim->dynamic) {
            sb->inv_mass = b->inv_mass;
            sim->isotropic = isotropic(&b->inertia_local) && isotropic(&b->inv_inertia_local);
            if (sim->isotropic) {
                /* R (a 1) R^T is a 1: exactly, where the products would round. */
                const float a = b->inv_inertia_local.m00;
                sb->inv_inertia[0] = sb->inv_inertia[1] = sb->inv_inertia[2] = a;
            } else {
                rotate_symmetric(b->rotation, &b->inv_inertia_local, sb->inv_inertia);
            }
            set_substep(sim, b, g, h);
        } else {
            /* v + -0, times 1, is v exactly. */
            sim->add = spx_f4_splat(-0.0f);
            sim->scale0 = sim->scale1 = spx_f4_splat(1.0f);
        }
    }
    return count;
}

/* One sweep leaves a box landing flat spinning (corners solved in turn); a few agree on one rebound. */
#define SPX_RESTITUTION_SWEEPS 4

/* Deeper than the spring pushes out at max_push_speed (push_depth, dynamic and immovable)? */
static bool overlapping(const spx_world* w, const spx_contact* c, float push_depth_dynamic, float push_depth_fixed)
{
    const bool fixed_side = w->bodies[c->body_a].inv_mass == 0.0f || w->bodies[c->body_b].inv_mass == 0.0f;
    const float deep = -(fixed_side ? push_depth_fixed : push_depth_dynamic);
    bool over = false;
    for (int i = 0; i < c->point_count && c->owner == SPX_CONTACT_SOLVER; ++i) over |= c->points[i].separation < deep;
    return over;
}

/* m: deepest overlap (0: none, or the stage owns it); *out_reach: the push's reach. */
static float overlap_depth(const spx_world* w, const spx_contact* c, float push_depth_dynamic, float push_depth_fixed,
                           float* out_reach)
{
    const bool fixed_side = w->bodies[c->body_a].inv_mass == 0.0f || w->bodies[c->body_b].inv_mass == 0.0f;
    *out_reach = fixed_side ? push_depth_fixed : push_depth_dynamic;
    float deepest = 0.0f;
    for (int i = 0; i < c->point_count && c->owner == SPX_CONTACT_SOLVER; ++i)
        if (-c->points[i].separation > deepest) deepest = -c->points[i].separation; /* not fmaxf: a call */
    return deepest;
}

/* A split group stays split while a manifold overlaps deeper than this share of the reach: let go at
   the reach, a line's leftover overlaps spring apart and add up again. */
#define SPX_SPLIT_RELEASE 0.125f

/* Active manifolds in contact order. Counts each body's deep ones (sharing max_push_speed,
   prepare_lane) and deep partners (solve_split); marks bodies past SPX_SPLIT_RELEASE lingering. */
static uint32_t collect_manifolds(spx_world* w, float push_depth_dynamic, float push_depth_fixed)
{
    spx_solver_scratch* s = &w->solver;
    uint32_t count = 0;
    uint32_t deep_a = UINT32_MAX, deep_b = UINT32_MAX; /* a pair's manifolds are adjacent */
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (!active(w, c)) continue;
        spx_solver_manifold* m = &s->manifolds[count++];
        m->a = s->body_map[c->body_a];
        m->b = s->body_map[c->body_b];
        m->contact = k;
        m->point_count = (uint32_t)c->point_count;
        s->sims[m->a].touching = s->sims[m->b].touching = true;
        float reach;
        const float depth = overlap_depth(w, c, push_depth_dynamic, push_depth_fixed, &reach);
        const bool deep = depth > reach, lingering = depth > SPX_SPLIT_RELEASE * reach;
        s->sims[m->a].overlaps += deep, s->sims[m->b].overlaps += deep;
        s->sims[m->a].lingering |= lingering, s->sims[m->b].lingering |= lingering;
        const bool partner = deep && (c->body_a != deep_a || c->body_b != deep_b);
        s->sims[m->a].deep_pairs += partner, s->sims[m->b].deep_pairs += partner;
        if (deep) deep_a = c->body_a, deep_b = c->body_b;
        const float ia = s->bodies[m->a].inv_mass, ib = s->bodies[m->b].inv_mass;
        if (ia > 0.0f && ib > 0.0f) {
            if (ib < s->sims[m->a].least_inv_mass) s->sims[m->a].least_inv_mass = ib;
            if (ia < s->sims[m->b].least_inv_mass) s->sims[m->b].least_inv_mass = ia;
        }
    }
    return count;
}

/* Greedy colouring; immovable and kinematic bodies never block. Returns the coloured count. */
static uint32_t color_manifolds(spx_solver_scratch* s, uint32_t nb, uint32_t nc, uint32_t counts[SPX_SOLVER_COLORS])
{
    uint64_t* used = s->color_used;
    memset(used, 0, sizeof(uint64_t) * nb);
    uint8_t* color = (uint8_t*)(s->order + nc); /* scratch: nc bytes after the order's first half */
    memset(counts, 0, sizeof(uint32_t) * SPX_SOLVER_COLORS);
    const uint64_t all = (1ull << SPX_SOLVER_COLORS) - 1u;
    for (uint32_t k = 0; k < nc; ++k) {
        const spx_solver_manifold* c = &s->manifolds[k];
        const bool da = s->bodies[c->a].inv_mass > 0.0f, db = s->bodies[c->b].inv_mass > 0.0f;
        /* A find-first-set, not a walk over colours. */
        const uint64_t free = all & ~((da ? used[c->a] : 0u) | (db ? used[c->b] : 0u));
        uint8_t chosen = SPX_SOLVER_COLORS;
        if (free) {
            chosen = (uint8_t)__builtin_ctzll(free);
            if (da) used[c->a] |= 1ull << chosen;
            if (db) used[c->b] |= 1ull << chosen;
            ++counts[chosen];
        }
        color[k] = chosen;
    }
    /* Within a colour by point count, most first: a block costs its fullest lane. Counting sort: stable. */
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
            s->order[start[color[k] * SPX_MAX_MANIFOLD_POINTS +
                           (SPX_MAX_MANIFOLD_POINTS - s->manifolds[k].point_count)]++] = k;
        else s->order[next_overflow++] = k;
    }
    return colored;
}

static spx_result reserve(spx_world* w)
{
    spx_solver_scratch* s = &w->solver;
    const spx_allocator* al = &w->allocator;
    const uint32_t n = w->body_slots + 1;
    /* By the list's capacity: grows with it, so a warm step allocates nothing. */
    const uint32_t nc = w->contacts.capacity + 1;
    if (!spx_reserve(al, (void**)&s->body_map, &s->map_capacity, n, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->bodies, &s->body_capacity, n, sizeof(spx_solver_body), 16) ||
        !spx_reserve(al, (void**)&s->sims, &s->sim_capacity, n, sizeof(spx_solver_body_sim), 16) ||
        !spx_reserve(al, (void**)&s->manifolds, &s->manifold_capacity, nc, sizeof(spx_solver_manifold), 8) ||
        !spx_reserve(al, (void**)&s->color_used, &s->color_used_capacity, n, sizeof(uint64_t), 8) ||
        !spx_reserve(al, (void**)&s->order, &s->order_capacity, 2 * nc, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->pass_manifolds, &s->pass_manifold_capacity, nc, sizeof(spx_solver_manifold), 8) ||
        !spx_reserve(al, (void**)&s->pass_bodies, &s->pass_body_capacity, n, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->split_bodies, &s->split_body_capacity, n, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->split_rows, &s->split_row_capacity, 2 * n, sizeof(spx_f4), 16))
        return SPX_ERR_OUT_OF_MEMORY;
    return spx_stack_reserve(&s->stack, al, n, nc);
}

/* Room for any pass's blocks: a colour's are full but its last, so nc / lanes plus one a colour.
   Made before the passes so a different split allocates nothing; only overflow grows them. */
static bool reserve_blocks(spx_world* w, uint32_t nc)
{
    spx_solver_scratch* s = &w->solver;
    const uint32_t lanes = s->kernels->lanes;
    const uint32_t blocks = (nc + lanes - 1) / lanes + (nc < SPX_SOLVER_COLORS ? nc : SPX_SOLVER_COLORS);
    return spx_reserve(&w->allocator, &s->blocks, &s->block_capacity, blocks < nc ? blocks : nc, s->kernels->block_size,
                       32);
}

void spx_solver_free(spx_solver_scratch* s, const spx_allocator* al)
{
    spx_free(al, s->body_map, sizeof(uint32_t) * (size_t)s->map_capacity);
    spx_free(al, s->bodies, sizeof(spx_solver_body) * (size_t)s->body_capacity);
    spx_free(al, s->sims, sizeof(spx_solver_body_sim) * (size_t)s->sim_capacity);
    spx_free(al, s->manifolds, sizeof(spx_solver_manifold) * (size_t)s->manifold_capacity);
    spx_free(al, s->color_used, sizeof(uint64_t) * (size_t)s->color_used_capacity);
    spx_free(al, s->order, sizeof(uint32_t) * (size_t)s->order_capacity);
    spx_free(al, s->pass_manifolds, sizeof(spx_solver_manifold) * (size_t)s->pass_manifold_capacity);
    spx_free(al, s->pass_bodies, sizeof(uint32_t) * (size_t)s->pass_body_capacity);
    spx_free(al, s->split_bodies, sizeof(uint32_t) * (size_t)s->split_body_capacity);
    spx_free(al, s->split_rows, sizeof(spx_f4) * (size_t)s->split_row_capacity);
    spx_stack_free(&s->stack, al);
    if (s->kernels) spx_free(al, s->blocks, s->kernels->block_size * (size_t)s->block_capacity);
}

const spx_solver_kernels* spx_solver_pick(spx_world_simd simd)
{
#if defined(SPX_SOLVER_AVX2_DISPATCH)
    if (simd == SPX_SIMD_AUTO) {
        /* Needed only before constructors have run (a host's own constructor may create a world). */
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2")) return &spx_solver_kernels_avx2;
    }
#endif
    (void)simd;
    return &spx_solver_kernels_baseline;
}

/* Coloured, room made, prepared with these springs. */
static spx_result prepare_pass(spx_world* w, uint32_t nb, uint32_t nc, spx_solver_soft dynamic_soft,
                               spx_solver_soft static_soft, uint32_t* out_blocks, bool* out_uneven)
{
    spx_solver_scratch* s = &w->solver;
    const spx_solver_kernels* kern = s->kernels;
    const uint32_t lanes = kern->lanes;
    uint32_t counts[SPX_SOLVER_COLORS];
    const uint32_t colored = color_manifolds(s, nb, nc, counts);
    /* Counted once coloured; nothing in the world has changed yet. */
    uint32_t needed = nc - colored;
    for (int col = 0; col < SPX_SOLVER_COLORS; ++col) needed += (counts[col] + lanes - 1) / lanes;
    if (!spx_reserve(&w->allocator, &s->blocks, &s->block_capacity, needed, kern->block_size, 32))
        return SPX_ERR_OUT_OF_MEMORY;
    *out_uneven = false;
    *out_blocks = kern->prepare(w, nc, colored, counts, dynamic_soft, static_soft, out_uneven);
    return SPX_OK;
}

/* v = (v + g h) / (1 + h damping), w = w / (1 + h damping), two rows at a time. */
static inline void integrate_velocity(spx_solver_body* b, const spx_solver_body_sim* sim)
{
    set_row(b, 0, spx_f4_mul(spx_f4_add(row_of(b, 0), sim->add), sim->scale0));
    set_row(b, 1, spx_f4_mul(row_of(b, 1), sim->scale1));
}

/* Rows 2, 3 from rows 0, 1 (inv_mass and pad times 0); h2 = (h, h, 0, 0). */
static inline void integrate_position(spx_solver_body* b, spx_f4 h4, spx_f4 h2)
{
    set_row(b, 2, spx_f4_add(row_of(b, 2), spx_f4_mul(row_of(b, 0), h4)));
    set_row(b, 3, spx_f4_add(row_of(b, 3), spx_f4_mul(row_of(b, 1), h2)));
}

/* Substeps over the prepared blocks and bodies `list` (NULL: 1 .. n), then restitution and impulses
   back. `split`: see solve_split. `shock_levels` > 0: a final relax_shock pass. */
static void run_pass(spx_world* w, const uint32_t* list, uint32_t n, uint32_t nblocks, uint32_t uneven_passes,
                     uint32_t substeps, float h, bool joints, bool split, uint32_t shock_levels)
{
    spx_solver_scratch* s = &w->solver;
    const spx_solver_kernels* kern = s->kernels;
    const uint32_t solve_iterations = w->def.solve_iterations, relax_iterations = w->def.relax_iterations;
    const float inv_h = 1.0f / h;
    spx_solver_body* sb = s->bodies;
    const spx_solver_body_sim* sims = s->sims;
    void* blocks = s->blocks;
    _Static_assert(offsetof(spx_solver_body, dp) == 8 * sizeof(float) &&
                       offsetof(spx_solver_body, dtheta) == 11 * sizeof(float),
                   "rows: v w.x | w.yz inv_mass pad | dp dtheta.x | dtheta.yz inertia");
    const spx_f4 h4 = spx_f4_splat(h), h2 = spx_f4_set(h, h, 0.0f, 0.0f);
    for (uint32_t step = 0; step < substeps; ++step) {
        if (list)
            for (uint32_t j = 0; j < n; ++j) integrate_velocity(&sb[list[j]], &sims[list[j]]);
        else
            for (uint32_t k = 1; k < n; ++k) integrate_velocity(&sb[k], &sims[k]);
        if (joints) spx_joints_warm_start(w);
        kern->warm_start(sb, blocks, nblocks, step > 0 && relax_iterations == 0 && !split);
        if (split) {
            for (uint32_t j = 0; j < n; ++j)
                s->split_rows[2 * j] = row_of(&sb[list[j]], 0), s->split_rows[2 * j + 1] = row_of(&sb[list[j]], 1);
            kern->keep(blocks, nblocks, false);
        }
        for (uint32_t it = 0; it < solve_iterations; ++it) {
            if (joints) spx_joints_solve(w, h, true);
            kern->solve(sb, blocks, nblocks, inv_h);
        }
        for (uint32_t it = 0; it < uneven_passes; ++it) kern->solve_uneven(sb, blocks, nblocks, inv_h);
        /* Contacts follow dp and dtheta; world bodies move once, after the substeps. */
        if (list)
            for (uint32_t j = 0; j < n; ++j) integrate_position(&sb[list[j]], h4, h2);
        else
            for (uint32_t k = 1; k < n; ++k) integrate_position(&sb[k], h4, h2);
        if (split) {
            for (uint32_t j = 0; j < n; ++j)
                set_row(&sb[list[j]], 0, s->split_rows[2 * j]), set_row(&sb[list[j]], 1, s->split_rows[2 * j + 1]);
            kern->keep(blocks, nblocks, true);
        }
        const uint32_t relaxes = split ? relax_iterations + solve_iterations : relax_iterations;
        for (uint32_t it = 0; it < relaxes; ++it) {
            if (joints) spx_joints_solve(w, h, false);
            kern->relax(sb, blocks, nblocks, inv_h);
        }
        if (shock_levels) kern->relax_shock(sb, blocks, nblocks, inv_h, s->stack.depth, shock_levels, relaxes == 0);
    }
    if (joints) spx_joints_store(w, h);
    for (int sweep = 0; sweep < SPX_RESTITUTION_SWEEPS; ++sweep)
        kern->restitution(sb, blocks, nblocks, w->def.restitution_threshold);
    kern->store(w, blocks, nblocks);
}

/* One pass per substep count for the islands spx_stack_plan deepened; leaves the rest in
   s->manifolds (*nc) and s->pass_bodies (returned count). Kinematic bodies go with every pass. */
static spx_result solve_deep(spx_world* w, uint32_t nb, uint32_t* nc, float dt, uint32_t* out_bodies)
{
    spx_solver_scratch* s = &w->solver;
    spx_solver_body_sim* sims = s->sims;
    const uint32_t* plan = s->stack.substeps;
    uint32_t* list = s->pass_bodies;
    const vec3s g = { { w->def.gravity.x, w->def.gravity.y, w->def.gravity.z } };
    const float max_push = w->def.max_push_speed;
    for (uint32_t last = 0;;) {
        uint32_t count = UINT32_MAX; /* the least substep count above the last pass's */
        for (uint32_t k = 1; k < nb; ++k)
            if (plan[k] > last && plan[k] < count) count = plan[k];
        if (count == UINT32_MAX) break;
        last = count;
        const uint32_t substeps = count & ~SPX_STACK_LOADED;
        const float h = dt / (float)substeps, hertz = spx_stack_hertz(substeps, dt);
        const float zeta = count & SPX_STACK_LOADED ? SPX_STACK_LOAD_DAMPING_RATIO
                                                    : fminf(w->def.contact_damping_ratio, SPX_STACK_DAMPING_RATIO);
        const spx_solver_soft dynamic_soft = make_soft(hertz, zeta, h);
        const spx_solver_soft static_soft = make_soft(2.0f * hertz, zeta, h);
        uint32_t n = 0, levels = 0;
        for (uint32_t k = 1; k < nb; ++k) {
            if (plan[k] == count) {
                set_substep(&sims[k], &w->bodies[sims[k].body], g, h);
                sims[k].overlaps = 0;
                if (s->stack.depth[k] > levels) levels = s->stack.depth[k];
            }
            if (plan[k] == count || !sims[k].dynamic) list[n++] = k;
        }
        uint32_t m = 0;
        for (uint32_t j = 0; j < *nc; ++j) {
            const spx_solver_manifold* c = &s->manifolds[j];
            if (plan[sims[c->a].dynamic ? c->a : c->b] != count) continue;
            s->pass_manifolds[m++] = *c;
            const bool deep = overlapping(w, &w->contacts.list[c->contact], max_push / dynamic_soft.bias_rate,
                                          max_push / static_soft.bias_rate);
            sims[c->a].overlaps += deep && plan[c->a] == count, sims[c->b].overlaps += deep && plan[c->b] == count;
        }
        spx_solver_manifold* all = s->manifolds;
        s->manifolds = s->pass_manifolds;
        uint32_t nblocks = 0;
        bool uneven = false;
        const spx_result r = prepare_pass(w, nb, m, dynamic_soft, static_soft, &nblocks, &uneven);
        const bool loaded = count & SPX_STACK_LOADED;
        const uint32_t passes = loaded ? SPX_STACK_LOAD_PASSES : SPX_SOLVER_UNEVEN_PASSES;
        if (r == SPX_OK)
            run_pass(w, list, n, nblocks, uneven ? passes : 0u, substeps, h, false, false, loaded ? levels : 0u);
        s->manifolds = all;
        if (r != SPX_OK) return r;
        for (uint32_t j = 0; j < n; ++j)
            if (!sims[list[j]].dynamic) {
                set_row(&s->bodies[list[j]], 2, spx_f4_splat(0.0f));
                set_row(&s->bodies[list[j]], 3, spx_f4_splat(0.0f));
            }
    }
    uint32_t kept = 0;
    for (uint32_t j = 0; j < *nc; ++j) {
        const spx_solver_manifold* c = &s->manifolds[j];
        if (plan[sims[c->a].dynamic ? c->a : c->b] == 0) s->manifolds[kept++] = *c;
    }
    *nc = kept;
    uint32_t n = 0;
    for (uint32_t k = 1; k < nb; ++k)
        if (plan[k] == 0) list[n++] = k;
    *out_bodies = n;
    return SPX_OK;
}

/* Split when a body overlaps this many others deeply: pushes add up only from two sides; one deep
   overlap alone is the soft step's. */
#define SPX_SPLIT_OVERLAPS 2u

static uint32_t find_root(uint32_t* parent, uint32_t k)
{
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
}

/* The split pass (docs/world.md, "The split pass"): whole groups, never jointed or uneven ones; its
   own blocks, for path-independent results. The rest is left in s->pass_bodies and s->manifolds. */
static spx_result solve_split(spx_world* w, uint32_t nb, const uint32_t** list, uint32_t* n, uint32_t* nc,
                              uint32_t substeps, float h, spx_solver_soft dynamic_soft, spx_solver_soft static_soft,
                              float push_depth_dynamic, float push_depth_fixed)
{
    spx_solver_scratch* s = &w->solver;
    spx_solver_body_sim* sims = s->sims;
    const uint32_t* in = *list;
    const uint32_t first = in ? 0 : 1, end = *n;
    bool any = false;
    for (uint32_t j = first; j < end && !any; ++j) {
        const spx_solver_body_sim* sim = &sims[in ? in[j] : j];
        any = sim->dynamic && (sim->deep_pairs >= SPX_SPLIT_OVERLAPS || (sim->lingering && w->bodies[sim->body].split));
    }
    if (!any) return SPX_OK;
    uint32_t* parent = s->split_bodies;
    uint64_t* flags = s->color_used;       /* scratch until the colouring */
    float* pushes = (float*)s->split_rows; /* scratch until run_pass: 8 floats a body */
    enum { DEEP = 1, JOINED = 2, LINGERING = 4, SOFT = 8 };
    for (uint32_t k = 0; k < nb; ++k) parent[k] = k, flags[k] = 0, pushes[k] = 0.0f;
    for (uint32_t j = 0; j < *nc; ++j) {
        const spx_solver_manifold* m = &s->manifolds[j];
        if (sims[m->a].dynamic && sims[m->b].dynamic) parent[find_root(parent, m->a)] = find_root(parent, m->b);
    }
    const spx_joints* js = &w->joints;
    for (uint32_t i = 0; i < js->active_count; ++i) {
        const spx_joint* jt = &js->list[js->active[i]];
        const uint32_t a = jt->solver[0], b = jt->solver[1];
        if (sims[a].dynamic && sims[b].dynamic) parent[find_root(parent, a)] = find_root(parent, b);
    }
    for (uint32_t i = 0; i < js->active_count; ++i) {
        const spx_joint* jt = &js->list[js->active[i]];
        flags[find_root(parent, jt->solver[0])] |= SOFT, flags[find_root(parent, jt->solver[1])] |= SOFT;
    }
    for (uint32_t j = first; j < end; ++j) {
        const uint32_t k = in ? in[j] : j;
        const spx_solver_body_sim* sim = &sims[k];
        if (!sim->dynamic) continue;
        const bool uneven = s->bodies[k].inv_mass > SPX_SOLVER_UNEVEN_RATIO * sim->least_inv_mass;
        flags[find_root(parent, k)] |= (sim->deep_pairs >= SPX_SPLIT_OVERLAPS ? DEEP : 0u) |
                                       (sim->lingering ? LINGERING : 0u) | (w->bodies[sim->body].split ? 0u : JOINED) |
                                       (uneven ? SOFT : 0u);
    }
    /* Each deep manifold separates at most at its share: no chain exceeds the group's sum. */
    for (uint32_t j = 0; j < *nc; ++j) {
        const spx_solver_manifold* m = &s->manifolds[j];
        if (!overlapping(w, &w->contacts.list[m->contact], push_depth_dynamic, push_depth_fixed)) continue;
        uint32_t share = 1;
        if (s->bodies[m->a].inv_mass > 0.0f && sims[m->a].overlaps > share) share = sims[m->a].overlaps;
        if (s->bodies[m->b].inv_mass > 0.0f && sims[m->b].overlaps > share) share = sims[m->b].overlaps;
        pushes[find_root(parent, sims[m->a].dynamic ? m->a : m->b)] += 1.0f / (float)share;
    }
    uint32_t split = 0;
    for (uint32_t j = first; j < end; ++j) {
        const uint32_t k = in ? in[j] : j;
        const uint32_t root = find_root(parent, k);
        const uint64_t f = flags[root];
        const bool deep = (f & DEEP) && pushes[root] > 1.0f, held = (f & LINGERING) && !(f & JOINED);
        sims[k].split = sims[k].dynamic && !(f & SOFT) && (deep || held);
        split += sims[k].split;
    }
    if (split == 0) return SPX_OK;
    /* parent[] is dead: the pass's bodies overwrite it; the rest go to s->pass_bodies (in place: an
       entry is written no later than it is read). */
    uint32_t* rest = s->pass_bodies;
    uint32_t np = 0, nr = 0;
    for (uint32_t j = first; j < end; ++j) {
        const uint32_t k = in ? in[j] : j;
        if (sims[k].split || !sims[k].dynamic) parent[np++] = k;
        if (!sims[k].split) rest[nr++] = k;
    }
    uint32_t mp = 0, mr = 0;
    for (uint32_t j = 0; j < *nc; ++j) {
        const spx_solver_manifold c = s->manifolds[j];
        if (sims[c.a].split || sims[c.b].split) s->pass_manifolds[mp++] = c;
        else s->manifolds[mr++] = c;
    }
    spx_solver_manifold* all = s->manifolds;
    s->manifolds = s->pass_manifolds;
    uint32_t nblocks = 0;
    bool uneven = false;
    const spx_result r = prepare_pass(w, nb, mp, dynamic_soft, static_soft, &nblocks, &uneven);
    if (r == SPX_OK)
        run_pass(w, parent, np, nblocks, uneven ? SPX_SOLVER_UNEVEN_PASSES : 0u, substeps, h, false, true, 0u);
    s->manifolds = all;
    if (r != SPX_OK) return r;
    for (uint32_t j = 0; j < np; ++j)
        if (!sims[parent[j]].dynamic) {
            set_row(&s->bodies[parent[j]], 2, spx_f4_splat(0.0f));
            set_row(&s->bodies[parent[j]], 3, spx_f4_splat(0.0f));
        }
    *list = rest;
    *n = nr;
    *nc = mr;
    return SPX_OK;
}

spx_result spx_solve(spx_world* w, float dt)
{
    if (reserve(w) != SPX_OK || spx_joints_reserve(w) != SPX_OK) return SPX_ERR_OUT_OF_MEMORY;
    if (dt == 0.0f) return SPX_OK;
    spx_solver_scratch* s = &w->solver;
    const uint32_t substeps = w->def.substeps;
    const float h = dt / (float)substeps;
    const float inv_h = 1.0f / h;
    /* Stiffer than a quarter of the substep rate rings. */
    float hertz = w->def.contact_hertz;
    if (hertz > 0.25f * inv_h) hertz = 0.25f * inv_h;
    const spx_solver_soft dynamic_soft = make_soft(hertz, w->def.contact_damping_ratio, h);
    const spx_solver_soft static_soft = make_soft(2.0f * hertz, w->def.contact_damping_ratio, h);

    const uint32_t nb = gather_bodies(w, h);
    /* Shallower overlaps push slower than any share and are not counted. */
    const float max_push = w->def.max_push_speed;
    const float push_depth_dynamic = dynamic_soft.bias_rate > 0.0f ? max_push / dynamic_soft.bias_rate : 0.0f;
    const float push_depth_fixed = static_soft.bias_rate > 0.0f ? max_push / static_soft.bias_rate : 0.0f;
    uint32_t nc = collect_manifolds(w, push_depth_dynamic, push_depth_fixed);
    if (!reserve_blocks(w, nc)) return SPX_ERR_OUT_OF_MEMORY;
    spx_joints_prepare(w, h);
    /* Islands stacked deeper than this spring holds first, apart; then every other one. */
    uint32_t n = nb;
    const uint32_t* list = NULL;
    if (spx_stack_plan(w, nb, nc, dt, hertz) > 0) {
        const spx_result r = solve_deep(w, nb, &nc, dt, &n);
        if (r != SPX_OK) return r;
        list = s->pass_bodies;
    }
    /* Then the groups pushed apart from many sides, split; then every other one. */
    if (solve_split(w, nb, &list, &n, &nc, substeps, h, dynamic_soft, static_soft, push_depth_dynamic,
                    push_depth_fixed) != SPX_OK)
        return SPX_ERR_OUT_OF_MEMORY;
    uint32_t nblocks = 0;
    bool uneven = false;
    if (prepare_pass(w, nb, nc, dynamic_soft, static_soft, &nblocks, &uneven) != SPX_OK) return SPX_ERR_OUT_OF_MEMORY;
    run_pass(w, list, n, nblocks, uneven ? SPX_SOLVER_UNEVEN_PASSES : 0u, substeps, h, true, false, 0u);

    spx_solver_body* sb = s->bodies;
    const spx_solver_body_sim* sims = s->sims;
    /* Centre by dp, rotation by dtheta (the turn the contacts followed). The step used the start's
       inertia: carry L = R0 I (R0^T w) over as w' = R1 I^-1 (R1^T L) (isotropic: w). */
    for (uint32_t k = 1; k < nb; ++k) {
        spx_body* b = &w->bodies[sims[k].body];
        const versors q0 = b->rotation;
        b->center = glms_vec3_add(b->center, sb[k].dp);
        b->rotation = turn(q0, sb[k].dtheta);
        b->v = sb[k].v;
        b->w = sb[k].w;
        b->split = sims[k].split;
        if (sims[k].dynamic && !sims[k].isotropic) {
            const vec3s l = rotate(q0, glms_mat3_mulv(b->inertia_local, rotate(q0, b->w, -1.0f)), 1.0f);
            if (!sims[k].touching && glms_vec3_norm2(sb[k].dtheta) > SPX_SOLVER_FREE_TURN * SPX_SOLVER_FREE_TURN)
                b->rotation = free_turn(b, q0, l, dt, b->rotation);
            const vec3s w1 =
                rotate(b->rotation, glms_mat3_mulv(b->inv_inertia_local, rotate(b->rotation, l, -1.0f)), 1.0f);
            /* In contact it turned at constant w, so carried L may land on a small inertia: w1 is scaled
               back to w's energy, keeping L's direction. */
            const float e0 = glms_vec3_dot(b->w, l), e1 = glms_vec3_dot(w1, l);
            b->w = e1 > e0 && e1 > 0.0f ? glms_vec3_scale(w1, sqrtf(e0 / e1)) : w1;
        }
        /* With the centre of mass at the origin (every box) skip turning the offset. */
        const vec3s lc = b->local_center;
        if (lc.x == 0.0f && lc.y == 0.0f && lc.z == 0.0f) b->origin = b->center;
        else spx_body_sync_origin(b);
    }
    return SPX_OK;
}
