/* The continuous stage, after the solver: which bodies are fast, and their impacts in time order.
 * See docs/continuous.md, "The stage". */
#include "continuous_stage.h"
#include "island.h"
#include "filter.h"
#include "core/allocator.h"
#include <string.h>

/* Of the thinnest half extent: slower, the centre cannot cross anything's middle in a step. */
#define SPX_CCD_FAST_FRACTION 1.0f
/* Of the thinnest half extent (the stage's tolerance), and of the speculative distance: a body an impact
   restarted that moves no more than the lesser over the rest of the step is calm, and two calm dynamic
   bodies are left to the next step's solver, together closing under a quarter of the speculative
   distance (docs/continuous.md, "Calm pairs"). */
#define SPX_CCD_QUICK_FRACTION 0.25f
#define SPX_CCD_QUICK_SPECULATIVE 0.125f
/* rad: turning more than this a step leaves all contacts to the stage (begin). */
#define SPX_CCD_SOLVER_TURN 0.5f
/* rad: the solver's turn stands for the motion when it ends within this of the end rotation
   (rounding: under 5e-7 rad for turns up to 40 rad). */
#define SPX_CCD_TURN_MATCH 1e-5f

/* ---- storage ------------------------------------------------------------------------------------ */

spx_result spx_continuous_reserve(spx_world* w)
{
    spx_continuous* c = &w->ccd;
    const spx_allocator* a = &w->allocator;
    if (!c->tree_ready) {
        if (spx_tree_init(&c->tree, a, 0) != SPX_OK) return SPX_ERR_OUT_OF_MEMORY;
        c->tree_ready = true;
    }
    uint32_t need = w->body_slots;
    if (need <= c->capacity) return SPX_OK;
    uint32_t cap = need > 2 * c->capacity ? need : 2 * c->capacity;
    if (cap < 16) cap = 16;
    /* Only the tree's leaves are live between steps (emptied each run): free first; on failure all. */
    spx_continuous_free(c, NULL);
    size_t n = cap;
    c->capacity = cap;
    c->bodies = spx_alloc(a, sizeof(spx_ccd_body) * n, 16);
    c->fast = spx_alloc(a, sizeof(uint32_t) * n, 8);
    c->touched = spx_alloc(a, sizeof(uint32_t) * n, 8);
    c->leaves = spx_alloc(a, sizeof(uint32_t) * n, 8);
    c->support_first = spx_alloc(a, sizeof(uint32_t) * n, 8);
    c->paths = spx_alloc(a, sizeof(spx_aabb) * n, 16);
    c->build = spx_alloc(a, sizeof(uint32_t) * 2 * n, 8);
    if (!c->bodies || !c->fast || !c->touched || !c->leaves || !c->support_first || !c->paths || !c->build ||
        spx_tree_reserve(&c->tree, cap) != SPX_OK || spx_index_heap_reserve(&c->events, a, cap) != SPX_OK) {
        spx_continuous_free(c, NULL);
        return SPX_ERR_OUT_OF_MEMORY;
    }
    memset(c->bodies, 0, sizeof(spx_ccd_body) * n);
    for (size_t i = 0; i < n; ++i) c->bodies[i].proxy = SPX_TREE_NULL;
    return SPX_OK;
}

void spx_continuous_free(spx_continuous* c, const spx_allocator* a)
{
    const spx_allocator* al = a ? a : &c->tree.allocator;
    size_t n = c->capacity;
    spx_free(al, c->bodies, sizeof(spx_ccd_body) * n);
    spx_free(al, c->fast, sizeof(uint32_t) * n);
    spx_free(al, c->touched, sizeof(uint32_t) * n);
    spx_free(al, c->leaves, sizeof(uint32_t) * n);
    spx_free(al, c->support_first, sizeof(uint32_t) * n);
    spx_free(al, c->paths, sizeof(spx_aabb) * n);
    spx_free(al, c->build, sizeof(uint32_t) * 2 * n);
    c->bodies = NULL, c->fast = c->touched = c->leaves = c->support_first = c->build = NULL;
    c->paths = NULL;
    c->capacity = 0;
    if (a) {
        spx_free(a, c->candidates, sizeof(uint32_t) * (size_t)c->candidate_capacity);
        c->candidates = NULL, c->candidate_capacity = 0;
        spx_free(a, c->taken, sizeof(uint64_t) * (size_t)c->taken_capacity);
        c->taken = NULL, c->taken_capacity = 0;
        spx_free(a, c->support_next, sizeof(uint32_t) * (size_t)c->support_capacity);
        c->support_next = NULL, c->support_capacity = 0;
        spx_index_heap_free(&c->events, a);
        if (c->tree_ready) spx_tree_destroy(&c->tree);
        c->tree_ready = false;
    }
}

/* ---- segments ---------------------------------------------------------------------------------- */

/* The rotation from q0 to q1 nearest the solver's turn `hint`, whole turns included (from the
   rotations alone a fast spinner would be followed backwards). */
static vec3s turn_between(versors q0, versors q1, vec3s hint)
{
    const versors r = glms_quat_mul(q1, glms_quat_conjugate(glms_quat_mul(turn(hint, 1.0f), q0)));
    const float half_sine = 0.5f * SPX_CCD_TURN_MATCH; /* sin(a / 2) of a small angle a */
    if (r.x * r.x + r.y * r.y + r.z * r.z <= half_sine * half_sine) return hint;
    versors d = glms_quat_mul(q1, glms_quat_conjugate(q0));
    if (d.w < 0.0f) d = (versors){ { -d.x, -d.y, -d.z, -d.w } };
    vec3s axis = { { d.x, d.y, d.z } };
    const float s = glms_vec3_norm(axis);
    float angle = 2.0f * atan2f(s, d.w); /* 0 .. pi */
    if (s > 0.0f) {
        axis = glms_vec3_scale(axis, 1.0f / s);
    } else {
        /* Only whole turns: about the hint's axis. */
        const float h = glms_vec3_norm(hint);
        if (!(h > 0.0f)) return glms_vec3_zero();
        axis = glms_vec3_scale(hint, 1.0f / h), angle = 0.0f;
    }
    const float two_pi = 6.28318531f;
    const float whole = roundf((glms_vec3_dot(hint, axis) - angle) / two_pi);
    return glms_vec3_scale(axis, angle + two_pi * whole);
}

/* m per radian the surface can move: the radius, or for spheres and capsules only their cores'
   reach (a rolling ball is not fast for its spin). */
static float turn_radius(const spx_body* b)
{
    float far = 0.0f;
    for (uint32_t k = 0; k < b->shape_count; ++k) {
        const spx_body_shape* s = &b->shapes[k];
        if (!spx_shape_is_round(s)) return b->radius;
        far = fmaxf(far, glms_vec3_norm(glms_vec3_sub(s->local_center, b->local_center)) + s->half_height);
    }
    return far * (1.0f + 1e-5f);
}

/* As turn_radius about w's axis: a capsule rolling about its own axis moves no surface (else it
   would be fast and its contacts the stage's, which holds nothing up). */
static float turn_reach(const spx_body* b, vec3s w)
{
    const float wn = glms_vec3_norm(w);
    const float radius = turn_radius(b);
    if (!(wn > 0.0f)) return radius;
    for (uint32_t k = 0; k < b->shape_count; ++k)
        if (!spx_shape_is_round(&b->shapes[k])) return radius;
    const vec3s u = glms_vec3_scale(w, 1.0f / wn);
    const mat3s r = spx_body_matrix(b);
    float far = 0.0f;
    for (uint32_t k = 0; k < b->shape_count; ++k) {
        const spx_body_shape* s = &b->shapes[k];
        const vec3s o = glms_mat3_mulv(r, glms_vec3_sub(s->local_center, b->local_center));
        const mat3s axes = s->axes_aligned ? r : glms_mat3_mul(r, s->local_rotation);
        far = fmaxf(far, spx_round_spin_reach(s, o, axes.col[1], u));
    }
    return fminf(radius, far * (1.0f + 1e-5f) + 1e-6f);
}

static float body_least_half(const spx_body* b)
{
    float h = INFINITY;
    for (uint32_t k = 0; k < b->shape_count; ++k) {
        /* A closed mesh on a dynamic body has thickness. */
        float s = least_half(&b->shapes[k]);
        if (s < h) h = s;
    }
    return h;
}

/* The solver's motion for a body that moved, rest for one that did not. */
spx_ccd_body* spx_ccd_segment_start(spx_ccd_stage* s, uint32_t i)
{
    spx_ccd_body* cb = &s->c->bodies[i];
    const spx_body* b = &s->w->bodies[i];
    cb->stamp = 1;
    cb->t = 0.0f;
    cb->pose_t = -1.0f;
    cb->toi = INFINITY;
    cb->impacts = 0;
    cb->frozen = 0;
    cb->last_partner = UINT32_MAX;
    if (cb->moved) {
        cb->c = cb->c0;
        cb->q = cb->q0;
        cb->v = s->dt > 0.0f ? glms_vec3_scale(glms_vec3_sub(b->center, cb->c0), 1.0f / s->dt) : glms_vec3_zero();
        /* Whole turns included. */
        const vec3s th = turn_between(cb->q0, b->rotation, spx_solver_turn(&s->w->solver, i));
        cb->w = s->dt > 0.0f ? glms_vec3_scale(th, 1.0f / s->dt) : glms_vec3_zero();
    } else {
        cb->c = b->center;
        cb->q = b->rotation;
        cb->v = cb->w = glms_vec3_zero();
    }
    return cb;
}

/* b's w moved from `from` to `to` on the solver's path keeping angular momentum direction and energy
   (a plain copy changes energy unless inertia is isotropic). */
static vec3s carry_spin(const spx_body* b, vec3s w, versors from, versors to)
{
    const mat3s* I = &b->inertia_local;
    const bool isotropic = I->m01 == 0.0f && I->m02 == 0.0f && I->m12 == 0.0f && I->m00 == I->m11 && I->m00 == I->m22;
    if (b->type != SPX_BODY_DYNAMIC || isotropic || memcmp(&from, &to, sizeof from) == 0) return w;
    const vec3s l = glms_quat_rotatev(from, glms_mat3_mulv(*I, glms_quat_rotatev(glms_quat_conjugate(from), w)));
    const vec3s w1 =
        glms_quat_rotatev(to, glms_mat3_mulv(b->inv_inertia_local, glms_quat_rotatev(glms_quat_conjugate(to), l)));
    const float e0 = glms_vec3_dot(w, l), e1 = glms_vec3_dot(w1, l);
    return e1 > 0.0f ? glms_vec3_scale(w1, sqrtf(e0 / e1)) : w;
}

bool spx_ccd_owns_pair(const spx_continuous* c, uint32_t ia, uint32_t ib)
{
    uint64_t key = (uint64_t)ia << 32 | ib;
    uint32_t lo = 0, hi = c->taken_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->taken[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->taken_count && c->taken[lo] == key;
}

/* ---- searches ------------------------------------------------------------------------------------ */

static bool collect(void* context, uint32_t body)
{
    spx_ccd_stage* s = context;
    spx_continuous* c = s->c;
    spx_ccd_body* cb = &c->bodies[body];
    if (cb->seen == c->search) return true;
    cb->seen = c->search;
    if (c->candidate_count == c->candidate_capacity) {
        uint32_t cap = c->candidate_capacity ? 2 * c->candidate_capacity : 64;
        if (!spx_reserve(&s->w->allocator, (void**)&c->candidates, &c->candidate_capacity, cap, sizeof(uint32_t), 8)) {
            s->overflow = true;
            return false;
        }
    }
    c->candidates[c->candidate_count++] = body;
    return true;
}

static int body_order(const void* a, const void* b)
{
    const uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* Ascending; the lists are short, and long ones (a body crossing a crowd) go to qsort. */
static void sort_bodies(uint32_t* v, uint32_t n)
{
    if (n > 32) {
        qsort(v, n, sizeof *v, body_order);
        return;
    }
    for (uint32_t k = 1; k < n; ++k) {
        const uint32_t x = v[k];
        uint32_t j = k;
        for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
        v[j] = x;
    }
}

static bool collect_leaf(void* context, uint32_t proxy, uint32_t body)
{
    (void)proxy;
    return collect(context, body);
}

static spx_aabb path_box(spx_ccd_stage* s, uint32_t i, float t, float grow)
{
    const spx_body* b = &s->w->bodies[i];
    const spx_ccd_body* cb = seg(s, i);
    if (stationary(cb)) {
        /* Shapes' own boxes: a wall's sphere would reach everything near it. */
        spx_aabb box = spx_ccd_shape_aabb(b, &b->shapes[0], cb);
        for (uint32_t k = 1; k < b->shape_count; ++k) {
            spx_aabb o = spx_ccd_shape_aabb(b, &b->shapes[k], cb);
            box = spx_aabb_union(&box, &o);
        }
        for (int k = 0; k < 3; ++k) box.min[k] -= grow, box.max[k] += grow;
        return box;
    }
    vec3s p0 = center_at(cb, t), p1 = center_at(cb, s->dt);
    float r = b->radius * (1.0f + 1e-5f) + grow + 1e-6f;
    spx_aabb box;
    for (int k = 0; k < 3; ++k) {
        box.min[k] = fminf(p0.raw[k], p1.raw[k]) - r;
        box.max[k] = fmaxf(p0.raw[k], p1.raw[k]) + r;
    }
    return box;
}

/* pre_solve on a found impact as a manifold (no impulses): false skips the pair in this search,
   so one-way platforms work for fast bodies too. */
static bool impact_wanted(spx_ccd_stage* s, uint32_t lo, uint32_t sa, uint32_t hi, uint32_t sb, const spx_ccd_impact* h)
{
    const spx_world* w = s->w;
    if (!w->def.pre_solve) return true;
    spx_contact_data d;
    memset(&d, 0, sizeof d);
    d.a = spx_world_body_id(w, lo), d.b = spx_world_body_id(w, hi);
    d.shape_a = spx_world_shape_id(w, lo, sa), d.shape_b = spx_world_shape_id(w, hi, sb);
    d.normal = spx_from_glm_vec3(h->normal);
    vec3s tang[2];
    spx_contact_tangents(h->normal, tang);
    d.tangent[0] = spx_from_glm_vec3(tang[0]), d.tangent[1] = spx_from_glm_vec3(tang[1]);
    d.enabled = true;
    d.point_count = h->points.count < 4 ? h->points.count : 4;
    for (uint32_t k = 0; k < d.point_count; ++k) {
        d.points[k].point = spx_from_glm_vec3(h->points.p[k]);
        d.points[k].separation = h->points.gap[k];
    }
    return w->def.pre_solve(&d, w->def.pre_solve_context);
}

/* From `now`; into its record and the queue. */
static void search(spx_ccd_stage* s, uint32_t i)
{
    spx_continuous* c = s->c;
    spx_world* w = s->w;
    spx_ccd_body* me = seg(s, i);
    me->toi = INFINITY;
    /* A frozen body searches too: nobody else's search finds what falls onto it. */
    if (w->bodies[i].type == SPX_BODY_STATIC) {
        spx_index_heap_remove(&c->events, i);
        return;
    }
    c->search++;
    c->candidate_count = 0;
    me->seen = c->search;
    spx_aabb box = path_box(s, i, s->now, c->pad);
    /* The broad phase's moving bodies only if some are slow (fast ones are in the stage's tree). */
    spx_pair_finder_query(w->pairs, &box, c->slow_movers > 0, collect, s);
    spx_aabb tight = path_box(s, i, s->now, 0.0f);
    if (c->leaf_count > 0) {
        spx_tree_query(&c->tree, 0, &tight, collect_leaf, s);
    }
    /* By body number, not in the trees' order: each pair's search ends at the best time so far, so the
       order the candidates come in would reach the answer's bits, and any change to a tree's shape with it. */
    sort_bodies(c->candidates, c->candidate_count);
    const spx_body* bi = &w->bodies[i];
    spx_ccd_impact best;
    best.t = INFINITY;
    uint32_t best_partner = UINT32_MAX;
    for (uint32_t k = 0; k < c->candidate_count; ++k) {
        uint32_t j = c->candidates[k];
        const spx_body* bj = &w->bodies[j];
        if (!bj->alive) continue;
        if (s->static_only && bj->type == SPX_BODY_DYNAMIC && bi->type == SPX_BODY_DYNAMIC) continue;
        if (bi->type != SPX_BODY_DYNAMIC && bj->type != SPX_BODY_DYNAMIC) continue; /* neither would answer */
        if (spx_joints_keep_apart(w, i, j)) continue; /* jointed, and asked not to collide */
        if (!me->quick && !c->bodies[j].quick && bi->type == SPX_BODY_DYNAMIC && bj->type == SPX_BODY_DYNAMIC &&
            !spx_ccd_owns_pair(c, i < j ? i : j, i < j ? j : i))
            continue; /* calm pair: the solver's at the next step; a pair the stage took stays its own */
        spx_aabb theirs = path_box(s, j, s->now, 0.0f);
        if (!spx_aabb_overlap(&tight, &theirs)) continue;
        uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
        const spx_body *bl = &w->bodies[lo], *bh = &w->bodies[hi];
        for (uint32_t sa = 0; sa < bl->shape_count; ++sa)
            for (uint32_t sb = 0; sb < bh->shape_count; ++sb) {
                if (spx_bodies_filtered(w, lo, hi) && !spx_shapes_collide(w, lo, sa, hi, sb)) continue;
                spx_ccd_impact h;
                float limit = best.t < s->dt ? best.t : s->dt;
                if (spx_ccd_pair_toi(s, lo, sa, hi, sb, s->now, limit, &h) &&
                    (h.t < best.t || (h.t == best.t && j < best_partner)) && impact_wanted(s, lo, sa, hi, sb, &h)) {
                    best = h;
                    best_partner = j;
                }
            }
    }
    if (best_partner != UINT32_MAX) {
        me->toi = best.t;
        me->normal = best.normal;
        me->points = best.points;
        me->shape_lo = (uint16_t)best.shape_a;
        me->shape_hi = (uint16_t)best.shape_b;
        me->partner = best_partner;
        me->partner_version = seg(s, best_partner)->version;
    }
    if (isfinite(me->toi)) spx_index_heap_set(&c->events, i, me->toi);
    else spx_index_heap_remove(&c->events, i);
}

/* ---- impacts ------------------------------------------------------------------------------------- */

static void touch(spx_ccd_stage* s, uint32_t i)
{
    spx_ccd_body* cb = seg(s, i);
    if (cb->stamp == 2) return;
    cb->stamp = 2;
    s->c->touched[s->c->touched_count++] = i;
}

/* From now on into the stage's tree, found whatever the broad phase's tree holds. */
static void track(spx_ccd_stage* s, uint32_t i)
{
    spx_continuous* cc = s->c;
    spx_ccd_body* cb = seg(s, i);
    spx_aabb box = path_box(s, i, s->now, 0.0f);
    if (cb->proxy != SPX_TREE_NULL) {
        spx_tree_reinsert(&cc->tree, cb->proxy, 0, &box);
    } else if (spx_tree_insert(&cc->tree, 0, &box, i, &cb->proxy) == SPX_OK) {
        cc->leaves[cc->leaf_count++] = i;
    } else {
        /* Never (reserved for every body): the padding must cover it. */
        vec3s a = center_at(cb, s->now), b = center_at(cb, s->dt);
        cc->pad += glms_vec3_norm(glms_vec3_sub(b, a)) + glms_vec3_norm(glms_vec3_sub(a, seg(s, i)->c0));
    }
}

/* Whether b, moving at v and w for `left` seconds, may move more than a calm body. */
static bool quick_after(const spx_body* b, vec3s v, vec3s w, float left, float spec)
{
    const float reach = (glms_vec3_norm(v) + glms_vec3_norm(w) * turn_reach(b, w)) * left;
    return reach > fminf(SPX_CCD_QUICK_FRACTION * body_least_half(b), SPX_CCD_QUICK_SPECULATIVE * spec);
}

/* Body i goes on from t with its velocities (none when frozen), into the stage's tree. */
static void restart(spx_ccd_stage* s, uint32_t i, float t, vec3s c, versors q)
{
    spx_ccd_body* cb = seg(s, i);
    const spx_body* b = &s->w->bodies[i];
    touch(s, i);
    cb->t = t;
    cb->c = c;
    cb->q = q;
    cb->pose_t = -1.0f;
    if (cb->frozen) {
        cb->v = cb->w = glms_vec3_zero();
    } else {
        cb->v = b->v;
        cb->w = b->w;
    }
    /* A frozen body stays quick: what comes onto it is found by its own search. */
    cb->quick = cb->frozen || quick_after(b, cb->v, cb->w, s->dt - t, s->w->def.speculative_distance);
    cb->version++;
    track(s, i);
}

static void impact_now(spx_ccd_stage* s, uint32_t i)
{
    spx_ccd_body* me = seg(s, i);
    uint32_t j = me->partner;
    uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
    float t = me->toi;
    vec3s n = me->normal;
    spx_ccd_points points = me->points;
    s->now = t;
    spx_body *A = &s->w->bodies[lo], *B = &s->w->bodies[hi];
    spx_ccd_body *a = seg(s, lo), *b = seg(s, hi);
    vec3s ca = center_at(a, t), cb = center_at(b, t);
    versors qa = rotation_at(a, t), qb = rotation_at(b, t);
    /* A sleeping body that is hit wakes (with its island) and answers. */
    if (A->type == SPX_BODY_DYNAMIC && !A->awake) spx_island_wake(s->w, lo);
    if (B->type == SPX_BODY_DYNAMIC && !B->awake) spx_island_wake(s->w, hi);
    if (a->stamp != 2) A->w = carry_spin(A, A->w, A->rotation, qa);
    if (b->stamp != 2) B->w = carry_spin(B, B->w, B->rotation, qb);
    /* Already from spx_ccd_impact_points: for two meshes (a costly manifold) taken as they are. */
    if (A->shapes[me->shape_lo].type != SPX_SHAPE_MESH || B->shapes[me->shape_hi].type != SPX_SHAPE_MESH)
        spx_ccd_impact_points(s->w, A, &A->shapes[me->shape_lo], ca, qa, B, &B->shapes[me->shape_hi], cb, qb,
                              points.p[0], &n, false, 0.0f, &points);
    spx_ccd_pushed pushed;
    spx_ccd_resolve(s, lo, A, qa, ca, hi, B, qb, cb, &A->shapes[me->shape_lo], &B->shapes[me->shape_hi], &points, n,
                    &pushed);
    s->impacts++;
    /* Each dynamic body's latest: a later impact acts through it too. */
    for (int k = 0; k < 2; ++k) {
        if ((k ? B : A)->type != SPX_BODY_DYNAMIC) continue;
        spx_ccd_body* x = seg(s, k ? hi : lo);
        x->repeats = x->last_partner == (k ? lo : hi) ? x->repeats + 1 : 1;
        x->last_partner = k ? lo : hi;
        x->last_t = t;
        x->last_shape[0] = k ? me->shape_hi : me->shape_lo, x->last_shape[1] = k ? me->shape_lo : me->shape_hi;
        x->last_n = k ? glms_vec3_negate(n) : n;
        x->last_points = points;
        x->last_c[0] = k ? cb : ca, x->last_c[1] = k ? ca : cb;
        x->last_q[0] = k ? qb : qa, x->last_q[1] = k ? qa : qb;
    }
    bool over = s->impacts > s->limit;
    spx_body* both[2] = { A, B };
    uint32_t ids[2] = { lo, hi };
    vec3s cs[2] = { ca, cb };
    versors qs[2] = { qa, qb };
    for (int k = 0; k < 2; ++k) {
        if (both[k]->type != SPX_BODY_DYNAMIC) continue;
        spx_ccd_body* x = seg(s, ids[k]);
        if (over || ++x->impacts > SPX_CONTINUOUS_BODY_IMPACTS) {
            x->frozen = 1;
            s->limited = true;
        }
        restart(s, ids[k], t, cs[k], qs[k]);
    }
    /* Pushed group bodies go on from here too (not counted as their impacts). */
    for (uint32_t m = 0; m < pushed.count; ++m) {
        if (!s->w->bodies[pushed.id[m]].awake) spx_island_wake(s->w, pushed.id[m]);
        restart(s, pushed.id[m], t, pushed.c[m], pushed.q[m]);
    }
    /* All search again (a kinematic one's record was this impact); others' stale records are
       searched again when they come up. */
    for (int k = 0; k < 2; ++k)
        if (both[k]->type != SPX_BODY_STATIC) search(s, ids[k]);
    for (uint32_t m = 0; m < pushed.count; ++m) search(s, pushed.id[m]);
}

/* ---- the stage ------------------------------------------------------------------------------------- */

static bool fast_pre(const spx_body* b, vec3s v_pre, float dt)
{
    float reach = (glms_vec3_norm(v_pre) + glms_vec3_norm(b->w) * turn_reach(b, b->w)) * dt;
    return reach > SPX_CCD_FAST_FRACTION * body_least_half(b);
}

void spx_continuous_prepare(spx_world* w, float dt)
{
    spx_continuous* c = &w->ccd;
    c->any_fast_pre = false;
    c->dt = dt;
    if (!w->def.enable_continuous || !c->bodies) return;
    const vec3s g = { { w->def.gravity.x, w->def.gravity.y, w->def.gravity.z } };
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        spx_ccd_body* cb = &c->bodies[i];
        cb->stamp = 0;
        cb->moved = spx_body_moves(b);
        cb->fast_pre = cb->spinning = 0;
        if (!cb->moved) continue;
        cb->c0 = b->center;
        cb->q0 = b->rotation;
        cb->v_pre = b->type == SPX_BODY_DYNAMIC ? glms_vec3_add(b->v, glms_vec3_scale(g, dt * b->gravity_scale)) : b->v;
        /* A jointed body is never fast: its reach is not measured. */
        cb->fast_pre = !spx_joints_has(&w->joints, i) && fast_pre(b, cb->v_pre, dt);
        c->any_fast_pre |= cb->fast_pre;
    }
    /* Only spx_continuous_begin reads the spin, and only when a body is fast. */
    if (!c->any_fast_pre) return;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        const spx_body* b = &w->bodies[i];
        spx_ccd_body* cb = &c->bodies[i];
        if (!cb->moved) continue;
        /* Turn as a share of the body's reach: a capsule turning about its axis is not spinning. */
        const float radius = turn_radius(b);
        cb->spinning = radius > 0.0f && glms_vec3_norm(b->w) * dt * turn_reach(b, b->w) > SPX_CCD_SOLVER_TURN * radius;
    }
}

void spx_continuous_begin(spx_world* w)
{
    spx_continuous* c = &w->ccd;
    c->taken_count = 0;
    if (!w->def.enable_continuous || !c->bodies || !c->any_fast_pre) return;
    /* Fast bodies' contacts the stage takes, whole body pairs: far, fast-approaching, dynamic pairs
       sliding past, or a fast spinner's (docs/continuous.md, "Where it sits in a step"). */
    const float near = w->def.speculative_distance, slow = w->def.restitution_threshold;
    const float dt = c->dt;
    /* Sized to the whole list, so it grows with it, not at each new high of the count. */
    if (!spx_reserve(&w->allocator, (void**)&c->taken, &c->taken_capacity, w->contacts.capacity, sizeof(uint64_t), 8)) {
        c->any_fast_pre = false; /* no room to say which: this step, the solver keeps them all */
        return;
    }
    uint32_t k = 0;
    while (k < w->contacts.count) {
        const uint32_t ia = w->contacts.list[k].body_a, ib = w->contacts.list[k].body_b;
        uint32_t end = k;
        while (end < w->contacts.count && w->contacts.list[end].body_a == ia && w->contacts.list[end].body_b == ib)
            ++end;
        const spx_ccd_body *ca = &c->bodies[ia], *cb = &c->bodies[ib];
        const spx_body *a = &w->bodies[ia], *b = &w->bodies[ib];
        bool take = ca->fast_pre || cb->fast_pre;
        /* Trading accuracy for speed, dynamic pairs stay with the solver. */
        if (take && w->def.continuous_static_only && a->type == SPX_BODY_DYNAMIC && b->type == SPX_BODY_DYNAMIC)
            take = false;
        if (take && !ca->spinning && !cb->spinning) {
            const bool both_dynamic = a->type == SPX_BODY_DYNAMIC && b->type == SPX_BODY_DYNAMIC;
            float thin = fminf(body_least_half(a), body_least_half(b));
            bool keep = true;
            for (uint32_t m = k; m < end && keep; ++m) {
                const spx_contact* ct = &w->contacts.list[m];
                for (int i = 0; i < ct->point_count && keep; ++i) {
                    const spx_contact_point* p = &ct->points[i];
                    vec3s dv = glms_vec3_sub(glms_vec3_add(b->v, glms_vec3_cross(b->w, p->anchor_b)),
                                             glms_vec3_add(a->v, glms_vec3_cross(a->w, p->anchor_a)));
                    keep = p->separation <= near && -glms_vec3_dot(dv, ct->normal) <= slow &&
                           (!both_dynamic || glms_vec3_norm(dv) * dt <= SPX_CCD_FAST_FRACTION * thin);
                }
            }
            take = !keep;
        }
        if (take) {
            for (uint32_t m = k; m < end; ++m) {
                spx_contact* ct = &w->contacts.list[m];
                ct->owner = SPX_CONTACT_CONTINUOUS;
                for (int i = 0; i < ct->point_count; ++i) {
                    spx_contact_point* p = &ct->points[i];
                    p->normal_impulse = p->tangent_impulse[0] = p->tangent_impulse[1] = 0.0f;
                }
            }
            c->taken[c->taken_count++] = (uint64_t)ia << 32 | ib; /* sorted, as the contacts are */
        }
        k = end;
    }
}

spx_result spx_continuous_run(spx_world* w, float dt, spx_step_stats* st)
{
    spx_continuous* c = &w->ccd;
    if (!w->def.enable_continuous || !c->bodies || !(dt > 0.0f)) return SPX_OK;
    spx_ccd_stage s = { w, c, dt, 0.0f, w->def.continuous_max_impacts, 0, false, w->def.continuous_static_only, false };
    /* Which bodies are fast, and how far a slow one may have left its broad-phase box. */
    c->pad = 0.0f;
    c->slow_movers = 0;
    spx_index_heap_clear(&c->events);
    c->touched_count = 0;
    uint32_t fast_count = 0;
    const float spec = w->def.speculative_distance;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        spx_ccd_body* cb = &c->bodies[i];
        cb->quick = 0;
        if (!cb->moved) continue;
        const spx_body* b = &w->bodies[i];
        vec3s d = glms_vec3_sub(b->center, cb->c0);
        /* Swept at v_pre, sphere grown by the speculative distance. */
        float off = glms_vec3_norm(glms_vec3_sub(d, glms_vec3_scale(cb->v_pre, dt))) - spec;
        /* A jointed body is never fast: its reach is not measured. */
        bool fast = cb->fast_pre;
        if (!fast && !spx_joints_has(&w->joints, i)) {
            const float reach =
                fmaxf(glms_vec3_norm(d), glms_vec3_norm(b->v) * dt) + glms_vec3_norm(b->w) * turn_reach(b, b->w) * dt;
            fast = reach > SPX_CCD_FAST_FRACTION * body_least_half(b);
        }
        if (fast) {
            c->fast[fast_count++] = i;
            cb->quick = 1;
        } else {
            c->slow_movers++;
            if (off > c->pad) c->pad = off;
        }
    }
    st->fast_body_count = fast_count;
    if (fast_count == 0) return SPX_OK;
    spx_ccd_link_supports(w);
    /* The broad phase holds only a fast body's step-start box or its pre-solver sweep. */
    for (uint32_t k = 0; k < fast_count; ++k) c->paths[k] = path_box(&s, c->fast[k], 0.0f, 0.0f);
    uint32_t* proxies = c->build + c->capacity;
    if (c->leaf_count == 0 && spx_tree_build(&c->tree, 0, c->paths, c->fast, fast_count, c->build, proxies) == SPX_OK) {
        for (uint32_t k = 0; k < fast_count; ++k) {
            c->bodies[c->fast[k]].proxy = proxies[k];
            c->leaves[c->leaf_count++] = c->fast[k];
        }
    } else {
        for (uint32_t k = 0; k < fast_count; ++k) track(&s, c->fast[k]);
    }
    for (uint32_t k = 0; k < fast_count; ++k) search(&s, c->fast[k]);
    while (c->events.count > 0) {
        uint32_t i = spx_index_heap_top(&c->events);
        spx_ccd_body* me = &c->bodies[i];
        if (seg(&s, me->partner)->version != me->partner_version) {
            search(&s, i); /* stale: the partner's motion changed since */
            continue;
        }
        impact_now(&s, i);
    }
    for (uint32_t k = 0; k < c->touched_count; ++k) {
        uint32_t i = c->touched[k];
        spx_body* b = &w->bodies[i];
        spx_ccd_body* cb = &c->bodies[i];
        b->center = center_at(cb, dt);
        b->rotation = rotation_at(cb, dt);
        spx_body_sync_origin(b);
        /* A frozen body keeps only the restitution share of its unused velocities (docs/continuous.md,
           "The impact limit"). */
        if (cb->frozen && cb->last_partner != UINT32_MAX) {
            const spx_body* o = &w->bodies[cb->last_partner];
            const float e = fmaxf(b->shapes[cb->last_shape[0]].restitution, o->shapes[cb->last_shape[1]].restitution);
            const float made = cb->t / dt, keep = made + (1.0f - made) * e;
            b->v = glms_vec3_scale(b->v, keep);
            b->w = glms_vec3_scale(b->w, keep);
        }
    }
    for (uint32_t k = 0; k < c->leaf_count; ++k) c->bodies[c->leaves[k]].proxy = SPX_TREE_NULL;
    spx_tree_clear(&c->tree, 0);
    c->leaf_count = 0;
    st->impact_count = s.impacts;
    if (s.limited) st->flags |= SPX_STEP_IMPACT_LIMIT;
    return s.overflow ? SPX_ERR_OUT_OF_MEMORY : SPX_OK;
}
