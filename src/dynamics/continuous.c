/* Continuous collision of fast bodies, after the solver (docs/continuous.md).
 *
 * The solver has moved every body from its start pose to its end pose. A body is fast when that
 * motion, or what its final velocity would make of it, exceeds SPX_CCD_FAST_FRACTION of its
 * thinnest half extent; slower bodies cannot pass through anything in one step (docs). Each fast
 * body's path (constant velocities from start to end pose) is swept against everything its box
 * meets with the exact linear swept query; rotation is bounded by growing both boxes by what their
 * rotation can move any of their points over a sub-interval (two meshes: one grown by both in the
 * tree descent, spx_sweep_mesh_mesh_margin), the sub-intervals shortened until that growth is
 * within a quarter of the thinner shape (a tenth for two meshes). Impacts are taken in time order
 * from a heap: both bodies are brought to the impact, an impulse with restitution and friction
 * changes their velocities, and each goes on from there with its new velocity for the rest of the
 * step, so no time is lost. Each impact makes the two bodies search again; records naming a body whose
 * motion changed since are searched again when they come up. */
#include "world.h"
#include "continuous.h"
#include "island.h"
#include "core/allocator.h"
#include "collide/manifold_mesh.h"
#include "geometry/mesh.h"
#include "collide/sweep_mesh_margin.h"
#include "collide/sweep_obb_obb.h"
#include <sepax/collide.h>
#include <math.h>
#include <string.h>

/* A body is fast when it may move more than this fraction of its thinnest half extent in a step.
   Slower, its centre cannot cross the middle of anything it did not already overlap (docs). */
#define SPX_CCD_FAST_FRACTION 1.0f
/* Rotation is bounded to this fraction of the thinner shape's least half extent per sub-interval:
   an impact found under that growth leaves the shapes at most this far apart. */
#define SPX_CCD_ROTATION_FRACTION 0.25f
/* The same for two meshes, smaller: a mesh's thickness (a ball's radius, a torus's tube) is
   larger against its size than a box's, and the stage has no position correction (0.25 let a
   rolling ball mesh sink 5 cm into a mesh ground). */
#define SPX_CCD_MESH_FRACTION 0.1f
/* rad: a fast body turning more than this in a step leaves all its contacts to the stage (begin). */
#define SPX_CCD_SOLVER_TURN 0.5f
/* rad: the solver's turn of a body stands for its motion when it ends within this of the body's
   end rotation (the two differ by rounding: under 5e-7 rad for turns up to 40 rad). */
#define SPX_CCD_TURN_MATCH 1e-5f
/* Sweeps one shape pair may take; past it the pair counts as touching where the search stands. */
#define SPX_CCD_PAIR_ITERATIONS 4096
/* Of the pair's tolerance: a touching pair that could not close more than this in a whole step at
   the speed it approaches is no impact (approaching). */
#define SPX_CCD_SLOW_FRACTION 0.01f

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
    size_t n = cap;
    spx_ccd_body* bodies = spx_alloc(a, sizeof(spx_ccd_body) * n, 16);
    uint32_t* heap = spx_alloc(a, sizeof(uint32_t) * n, 8);
    uint32_t* pos = spx_alloc(a, sizeof(uint32_t) * n, 8);
    uint32_t* fast = spx_alloc(a, sizeof(uint32_t) * n, 8);
    uint32_t* touched = spx_alloc(a, sizeof(uint32_t) * n, 8);
    uint32_t* leaves = spx_alloc(a, sizeof(uint32_t) * n, 8);
    uint32_t* first = spx_alloc(a, sizeof(uint32_t) * n, 8);
    spx_aabb* paths = spx_alloc(a, sizeof(spx_aabb) * n, 16);
    uint32_t* build = spx_alloc(a, sizeof(uint32_t) * 2 * n, 8);
    if (!bodies || !heap || !pos || !fast || !touched || !leaves || !first || !paths || !build
        || spx_tree_reserve(&c->tree, cap) != SPX_OK) {
        spx_free(a, bodies, sizeof(spx_ccd_body) * n);
        spx_free(a, heap, sizeof(uint32_t) * n);
        spx_free(a, pos, sizeof(uint32_t) * n);
        spx_free(a, fast, sizeof(uint32_t) * n);
        spx_free(a, touched, sizeof(uint32_t) * n);
        spx_free(a, leaves, sizeof(uint32_t) * n);
        spx_free(a, first, sizeof(uint32_t) * n);
        spx_free(a, paths, sizeof(spx_aabb) * n);
        spx_free(a, build, sizeof(uint32_t) * 2 * n);
        return SPX_ERR_OUT_OF_MEMORY;
    }
    memset(bodies, 0, sizeof(spx_ccd_body) * n);
    for (size_t i = 0; i < n; ++i) bodies[i].proxy = SPX_TREE_NULL, pos[i] = UINT32_MAX;
    /* Between steps nothing of the old arrays is live but the tree's leaves, which the stage
       empties at the end of every run. */
    spx_continuous_free(c, NULL);
    c->bodies = bodies;
    c->heap = heap;
    c->heap_pos = pos;
    c->fast = fast;
    c->touched = touched;
    c->leaves = leaves;
    c->support_first = first;
    c->paths = paths;
    c->build = build;
    c->capacity = cap;
    return SPX_OK;
}

void spx_continuous_free(spx_continuous* c, const spx_allocator* a)
{
    const spx_allocator* al = a ? a : &c->tree.allocator;
    size_t n = c->capacity;
    spx_free(al, c->bodies, sizeof(spx_ccd_body) * n);
    spx_free(al, c->heap, sizeof(uint32_t) * n);
    spx_free(al, c->heap_pos, sizeof(uint32_t) * n);
    spx_free(al, c->fast, sizeof(uint32_t) * n);
    spx_free(al, c->touched, sizeof(uint32_t) * n);
    spx_free(al, c->leaves, sizeof(uint32_t) * n);
    spx_free(al, c->support_first, sizeof(uint32_t) * n);
    spx_free(al, c->paths, sizeof(spx_aabb) * n);
    spx_free(al, c->build, sizeof(uint32_t) * 2 * n);
    c->bodies = NULL, c->heap = c->heap_pos = c->fast = c->touched = c->leaves = c->support_first = c->build = NULL;
    c->paths = NULL;
    c->capacity = 0;
    if (a) {
        spx_free(a, c->candidates, sizeof(uint32_t) * (size_t)c->candidate_capacity);
        c->candidates = NULL, c->candidate_capacity = 0;
        spx_free(a, c->taken, sizeof(uint64_t) * (size_t)c->taken_capacity);
        c->taken = NULL, c->taken_capacity = 0;
        spx_free(a, c->support_next, sizeof(uint32_t) * (size_t)c->support_capacity);
        c->support_next = NULL, c->support_capacity = 0;
        if (c->tree_ready) spx_tree_destroy(&c->tree);
        c->tree_ready = false;
    }
}

/* ---- small geometry ------------------------------------------------------------------------------- */

static inline spx_vec3 sv(vec3s v) { return spx_v3(v.x, v.y, v.z); }
static inline vec3s gv(spx_vec3 v) { return (vec3s){ { v.x, v.y, v.z } }; }

/* The rotation turning at w for time t: exp of the rotation vector w t. */
static versors turn(vec3s w, float t)
{
    float a = glms_vec3_norm(w) * t;
    if (!(a > 0.0f)) return glms_quat_identity();
    return glms_quatv(a, glms_vec3_normalize(w));
}

/* The rotation vector turning q0 into q1 that is nearest to `hint`, the solver's own turn: the
   solver's turn itself when it ends at q1 (within SPX_CCD_TURN_MATCH: rounding), else (a free
   body's turn, solver.c) the short way round plus the whole turns, either way, that bring it
   nearest the hint. Taken from the two rotations alone, a turn is at most half a turn: a body
   spinning faster would be followed backwards and struck on the wrong side of its blade. */
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
        /* No turn but whole ones: about the hint's axis. */
        const float h = glms_vec3_norm(hint);
        if (!(h > 0.0f)) return glms_vec3_zero();
        axis = glms_vec3_scale(hint, 1.0f / h), angle = 0.0f;
    }
    const float two_pi = 6.28318531f;
    const float whole = roundf((glms_vec3_dot(hint, axis) - angle) / two_pi);
    return glms_vec3_scale(axis, angle + two_pi * whole);
}

static float least_half(const spx_body_shape* s)
{
    float h = s->half_extents.x;
    if (s->half_extents.y < h) h = s->half_extents.y;
    if (s->half_extents.z < h) h = s->half_extents.z;
    return h;
}

static float body_least_half(const spx_body* b)
{
    float h = INFINITY;
    for (uint32_t k = 0; k < b->shape_count; ++k) {
        /* A mesh's root box stands for it (a closed mesh on a dynamic body has thickness). */
        float s = least_half(&b->shapes[k]);
        if (s < h) h = s;
    }
    return h;
}

/* The thickness a mesh lends the tolerance of a pair of meshes: its root box's least half extent,
   none (INFINITY) for a sheet (a ground, a wall of one layer of triangles): passing is ruled out by
   the growth whatever the tolerance, which sets how far short of touching an impact may be found. */
static float mesh_thickness(const spx_body_shape* s)
{
    float most = fmaxf(s->half_extents.x, fmaxf(s->half_extents.y, s->half_extents.z));
    float h = least_half(s);
    return h > 0.01f * most ? h : INFINITY;
}

/* How far apart a shape pair may be when its contact is taken as an impact under rotation, and the
   margin of the manifold that places the impact: a quarter of the thinner box; for two meshes a
   tenth of the thinner mesh that is not a sheet, and for two sheets a tenth of 1% of the larger
   half extent of the smaller one. */
static float pair_tolerance(const spx_body_shape* ha, const spx_body_shape* hb)
{
    if (ha->type == SPX_SHAPE_BOX || hb->type == SPX_SHAPE_BOX) {
        float ha_min = ha->type == SPX_SHAPE_BOX ? least_half(ha) : INFINITY;
        float hb_min = hb->type == SPX_SHAPE_BOX ? least_half(hb) : INFINITY;
        return SPX_CCD_ROTATION_FRACTION * fminf(ha_min, hb_min);
    }
    float h = fminf(mesh_thickness(ha), mesh_thickness(hb));
    if (!isfinite(h)) {
        float ma = fmaxf(ha->half_extents.x, fmaxf(ha->half_extents.y, ha->half_extents.z));
        float mb = fmaxf(hb->half_extents.x, fmaxf(hb->half_extents.y, hb->half_extents.z));
        h = 0.01f * fminf(ma, mb);
    }
    return SPX_CCD_MESH_FRACTION * h;
}

/* ---- segments ---------------------------------------------------------------------------------- */

typedef struct stage {
    spx_world* w;
    spx_continuous* c;
    float dt;             /* the step */
    float now;            /* time of the latest impact handled */
    uint32_t limit;       /* impacts resolved in full */
    uint32_t impacts;
    bool limited;
    bool static_only;
    bool overflow;
} stage;

/* The segment of body i, set on first use: the solver's motion for a body that moved, rest for one
   that did not. */
static spx_ccd_body* seg(stage* s, uint32_t i)
{
    spx_ccd_body* cb = &s->c->bodies[i];
    if (cb->stamp) return cb;
    const spx_body* b = &s->w->bodies[i];
    cb->stamp = 1;
    cb->t = 0.0f;
    cb->pose_t = -1.0f;
    cb->toi = INFINITY;
    cb->impacts = 0;
    cb->frozen = 0;
    cb->last_partner = UINT32_MAX;
    if (cb->moved && b->type != SPX_BODY_STATIC) {
        cb->c = cb->c0;
        cb->q = cb->q0;
        cb->v = s->dt > 0.0f ? glms_vec3_scale(glms_vec3_sub(b->center, cb->c0), 1.0f / s->dt) : glms_vec3_zero();
        /* Turning the way the solver turned it, whole turns included. */
        const vec3s th = turn_between(cb->q0, b->rotation, spx_solver_turn(&s->w->solver, i));
        cb->w = s->dt > 0.0f ? glms_vec3_scale(th, 1.0f / s->dt) : glms_vec3_zero();
    } else {
        cb->c = b->center;
        cb->q = b->rotation;
        cb->v = cb->w = glms_vec3_zero();
    }
    return cb;
}

static vec3s center_at(const spx_ccd_body* cb, float t) { return glms_vec3_add(cb->c, glms_vec3_scale(cb->v, t - cb->t)); }
static versors rotation_at(const spx_ccd_body* cb, float t)
{
    return glms_quat_normalize(glms_quat_mul(turn(cb->w, t - cb->t), cb->q));
}

/* Dynamic body b's angular velocity w at rotation `from` (the solver's end rotation), as it is at
   rotation `to` on the solver's path: its angular momentum's direction kept, as a free body's, and
   its energy (the solver's w moved to another rotation unchanged has another energy when the
   inertia is not a multiple of the identity: a tumbling plank's, many times its own). Along a
   segment the stage started, w is constant and so is its energy: w there is the segment's own. */
static vec3s carry_spin(const spx_body* b, vec3s w, versors from, versors to)
{
    const mat3s* I = &b->inertia_local;
    const bool isotropic = I->m01 == 0.0f && I->m02 == 0.0f && I->m12 == 0.0f && I->m00 == I->m11 && I->m00 == I->m22;
    if (b->type != SPX_BODY_DYNAMIC || isotropic || memcmp(&from, &to, sizeof from) == 0) return w;
    const vec3s l = glms_quat_rotatev(from, glms_mat3_mulv(*I, glms_quat_rotatev(glms_quat_conjugate(from), w)));
    const vec3s w1 = glms_quat_rotatev(to, glms_mat3_mulv(b->inv_inertia_local, glms_quat_rotatev(glms_quat_conjugate(to), l)));
    const float e0 = glms_vec3_dot(w, l), e1 = glms_vec3_dot(w1, l);
    return e1 > 0.0f ? glms_vec3_scale(w1, sqrtf(e0 / e1)) : w;
}

/* Whether every number of the box is finite: their sum times 0 is 0 only then (a sum that
   overflows says no, for a box no query could take anyway). */
static float sum3(spx_vec3 v) { return v.x + v.y + v.z; }
static bool finite_box(const spx_obb* o)
{
    float sum = sum3(o->center) + sum3(o->half_extents) + sum3(o->rotation.col[0]) + sum3(o->rotation.col[1])
              + sum3(o->rotation.col[2]);
    return sum * 0.0f == 0.0f;
}

/* Box of shape k of body b at centre c and rotation matrix r, half extents grown by `grow`. */
static spx_obb shape_box_m(const spx_body* b, const spx_body_shape* sh, vec3s c, mat3s r, float grow)
{
    spx_obb o;
    o.center = sv(glms_vec3_add(c, glms_mat3_mulv(r, glms_vec3_sub(sh->local_center, b->local_center))));
    o.half_extents = spx_v3(sh->half_extents.x + grow, sh->half_extents.y + grow, sh->half_extents.z + grow);
    mat3s axes = sh->axes_aligned ? r : glms_mat3_mul(r, sh->local_rotation);
    for (int k = 0; k < 3; ++k) o.rotation.col[k] = sv(axes.col[k]);
    return o;
}

static spx_obb shape_box(const spx_body* b, const spx_body_shape* sh, vec3s c, versors q, float grow)
{
    return shape_box_m(b, sh, c, glms_quat_mat3(q), grow);
}

/* The box of shape sh of body b (segment cb) at time t, its pose kept for the next call at t. */
static spx_obb box_at(const spx_body* b, const spx_body_shape* sh, spx_ccd_body* cb, float t, float grow)
{
    if (cb->pose_t != t) {
        cb->pose_c = center_at(cb, t);
        cb->pose_r = glms_quat_mat3(rotation_at(cb, t));
        cb->pose_t = t;
    }
    return shape_box_m(b, sh, cb->pose_c, cb->pose_r, grow);
}

static bool stationary(const spx_ccd_body* cb)
{
    return cb->v.x == 0.0f && cb->v.y == 0.0f && cb->v.z == 0.0f && cb->w.x == 0.0f && cb->w.y == 0.0f && cb->w.z == 0.0f;
}

/* World box of shape sh (a box, or a mesh's root box) of a stationary body, rounded outwards. */
static spx_aabb shape_aabb(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb)
{
    spx_obb o = shape_box(b, sh, cb->c, cb->q, 0.0f);
    spx_aabb box;
    const float* c = &o.center.x;
    const float* h = &o.half_extents.x;
    for (int k = 0; k < 3; ++k) {
        float r = h[0] * fabsf((&o.rotation.col[0].x)[k]) + h[1] * fabsf((&o.rotation.col[1].x)[k])
                + h[2] * fabsf((&o.rotation.col[2].x)[k]);
        r = r * (1.0f + 1e-5f) + 1e-5f * fabsf(c[k]) + 1e-6f;
        box.min[k] = c[k] - r;
        box.max[k] = c[k] + r;
    }
    return box;
}

/* ---- the time of impact of one shape pair ------------------------------------------------------- */

typedef struct impact {
    float t;
    vec3s normal;         /* from body a to body b */
    spx_ccd_points points;
    uint32_t shape_a, shape_b;
} impact;

/* Speed at which b's point p approaches a's along n (negative: approaching). */
static float normal_speed(const spx_ccd_body* a, const spx_ccd_body* b, vec3s ca, vec3s cb, vec3s p, vec3s n)
{
    vec3s va = glms_vec3_add(a->v, glms_vec3_cross(a->w, glms_vec3_sub(p, ca)));
    vec3s vb = glms_vec3_add(b->v, glms_vec3_cross(b->w, glms_vec3_sub(p, cb)));
    return glms_vec3_dot(glms_vec3_sub(vb, va), n);
}

/* Places a mesh shape's instance where body b is with its centre of mass at c and rotation q. */
static bool pose_mesh_at(const spx_body* b, const spx_body_shape* sh, vec3s c, versors q)
{
    vec3s origin = glms_vec3_sub(c, glms_quat_rotatev(q, b->local_center));
    versors lq = { { sh->mesh_local.q.x, sh->mesh_local.q.y, sh->mesh_local.q.z, sh->mesh_local.q.w } };
    versors mq = glms_quat_mul(q, lq);
    spx_transform pose;
    pose.p = sv(glms_vec3_add(origin, glms_quat_rotatev(q, gv(sh->mesh_local.p))));
    pose.q = (spx_quat){ mq.x, mq.y, mq.z, mq.w };
    return spx_mesh_instance_set_pose(sh->instance, &pose) == SPX_OK;
}

/* Places a mesh shape's instance where body b's segment has it at time t. */
static bool pose_mesh(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb, float t)
{
    return pose_mesh_at(b, sh, center_at(cb, t), rotation_at(cb, t));
}

/* The most a box need grow to hold its shape however the body turns: then it holds the sphere
   about the centre of mass that holds the shape. The box stays centred on the shape's centre, off
   that sphere's centre by the shape's offset, so it grows by the sphere's radius plus the offset
   less its least half extent (with room for rounding). A turning cube's box grows by 0.37 of its
   half extent at most, not by twice its radius: over a whole step the boxes of two fast-spinning
   cubes that pass near each other then miss instead of touching, and the sub-intervals are spent
   only where they come near. A mesh is not grown (its box is, by both growths): no cap. */
static float growth_cap(const spx_body* b, const spx_body_shape* sh)
{
    if (sh->type != SPX_SHAPE_BOX) return INFINITY;
    float off = glms_vec3_norm(glms_vec3_sub(sh->local_center, b->local_center));
    return (sh->radius + off - least_half(sh)) * (1.0f + 1e-5f) + 1e-6f;
}

/* m: how far shape sh of body b (segment cb) reaches from its segment's spin axis through the
   centre of mass, at most: a turn by angle a moves a point at distance r from that axis by
   2 sin(a / 2) r, so this, not the shape's radius, bounds the rotation's growth (a plank spinning
   about its long axis reaches 0.06 m from it, not its 1 m radius). Its box's offset and half
   extents across the axis, no more than the radius. The same over the whole segment: the turn is
   about that axis. */
static float spin_reach(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb)
{
    const float wn = glms_vec3_norm(cb->w);
    if (!(wn > 0.0f)) return sh->radius;
    const vec3s u = glms_vec3_scale(cb->w, 1.0f / wn);
    const mat3s r = glms_quat_mat3(cb->q);
    const vec3s o = glms_mat3_mulv(r, glms_vec3_sub(sh->local_center, b->local_center));
    const mat3s axes = sh->axes_aligned ? r : glms_mat3_mul(r, sh->local_rotation);
    float reach = glms_vec3_norm(glms_vec3_sub(o, glms_vec3_scale(u, glms_vec3_dot(o, u))));
    for (int k = 0; k < 3; ++k) {
        const float c = glms_vec3_dot(axes.col[k], u);
        reach += sh->half_extents.raw[k] * sqrtf(fmaxf(1.0f - c * c, 0.0f));
    }
    return fminf(sh->radius, reach * (1.0f + 1e-5f) + 1e-6f);
}

/* One shape pair of bodies A (segment a) and B (segment b) swept from time t for d seconds, each
   box grown by g (a mesh cannot grow: the box of a box-mesh pair takes both growths, which covers
   both rotations; of two meshes, A is grown by both in the descent, spx_sweep_mesh_mesh_margin).
   d = 0: whether they touch at t. Normal from A to B. fixed_a, fixed_b: the box of a body that does
   not move, made once by the caller (NULL otherwise). false: a query refused the pose. */
static bool sweep_pair(const spx_body* A, const spx_body_shape* ha, spx_ccd_body* a, const spx_body* B,
                       const spx_body_shape* hb, spx_ccd_body* b, const spx_obb* fixed_a, const spx_obb* fixed_b,
                       float t, float ga, float gb, float d, spx_sweep_hit* out)
{
    const spx_vec3 va = sv(a->v), vb = sv(b->v);
    if (ha->type == SPX_SHAPE_BOX && hb->type == SPX_SHAPE_BOX) {
        spx_obb oa = fixed_a ? *fixed_a : box_at(A, ha, a, t, ga);
        spx_obb ob = fixed_b ? *fixed_b : box_at(B, hb, b, t, gb);
        /* The boxes come from normalised rotations, so only finiteness is checked, not the whole
           validation of the public call (5% of a container of fast boxes). */
        if (!finite_box(&oa) || !finite_box(&ob) || (sum3(va) + sum3(vb) + d) * 0.0f != 0.0f || !(d >= 0.0f)) return false;
        spx_sweep_obb_obb_exact(&oa, va, &ob, vb, d, out);
        return true;
    }
    if (ha->type != SPX_SHAPE_BOX && hb->type != SPX_SHAPE_BOX) {
        if (!pose_mesh(A, ha, a, t) || !pose_mesh(B, hb, b, t)) return false;
        spx_mesh_hit mh;
        spx_sweep_mesh_mesh_margin(ha->instance, va, hb->instance, vb, d, ga + gb, &mh);
        out->state = mh.state;
        out->time = mh.time;
        out->point = mh.point;
        out->normal = mh.normal;
        out->depth = mh.depth;
        return true;
    }
    bool box_first = ha->type == SPX_SHAPE_BOX;
    const spx_body *XB = box_first ? A : B, *MB = box_first ? B : A;
    const spx_body_shape *xs = box_first ? ha : hb, *ms = box_first ? hb : ha;
    spx_ccd_body *xc = box_first ? a : b, *mc = box_first ? b : a;
    spx_obb box = box_at(XB, xs, xc, t, ga + gb);
    if (!pose_mesh(MB, ms, mc, t)) return false;
    spx_mesh_hit mh;
    if (spx_sweep_obb_mesh(&box, sv(xc->v), ms->instance, sv(mc->v), d, NULL, 0, &mh) != SPX_OK) return false;
    out->state = mh.state;
    out->time = mh.time;
    out->point = mh.point;
    out->normal = box_first ? mh.normal : spx_v3(-mh.normal.x, -mh.normal.y, -mh.normal.z);
    out->depth = mh.depth;
    return true;
}

/* Whether begin gave the contacts of bodies ia < ib to the stage. */
static bool taken(const spx_continuous* c, uint32_t ia, uint32_t ib)
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

static void impact_points(const spx_world* w, const spx_body* A, const spx_body_shape* ha, vec3s ca, versors qa,
                          const spx_body* B, const spx_body_shape* hb, vec3s cb, versors qb, vec3s point, vec3s* n,
                          float growth, spx_ccd_points* out);

/* A contact found at time t with point p and normal n (A to B) is an impact when the shapes
   approach at one of the points where the impulse will act (impact_points): checked there, so that
   once an impact has acted the same contact no longer counts (checked at the query's point, a pair
   hit again and again at one instant, each impulse a little smaller). */
static bool approaching(const spx_world* w, const spx_body* A, const spx_body_shape* ha, const spx_ccd_body* a,
                        const spx_body* B, const spx_body_shape* hb, const spx_ccd_body* b, float t, float dt, vec3s p,
                        vec3s n, float growth, impact* out)
{
    vec3s ca = center_at(a, t), cb = center_at(b, t);
    /* An approach within the float rounding of the velocities it comes from is none: an impulse
       leaves that much (a pair of spinning tori was struck again and again at one instant, each
       impulse leaving -4e-7 m/s, until the impact limit froze them). Nor is one that could not close
       SPX_CCD_SLOW_FRACTION of the pair's tolerance in a whole step: what an impulse over a struck
       box and its supports leaves unsettled, or a box turning slowly on another. The solver's
       contact takes it at the next step. (In a settling pile of fast boxes nearly three impacts in
       four were such, each with its searches: 800 a step for 40 fast boxes.) */
    const float slow = -fmaxf(1e-6f * (glms_vec3_norm(a->v) + glms_vec3_norm(b->v) + glms_vec3_norm(a->w) * ha->radius
                                       + glms_vec3_norm(b->w) * hb->radius),
                              SPX_CCD_SLOW_FRACTION * pair_tolerance(ha, hb) / dt);
    /* Two meshes: their manifold costs milliseconds where they touch over a wide patch (two sphere
       meshes: 5 to 20 ms), and a spinning pair that touches and parts is checked every few
       sub-intervals; the query's own point, in the same patch, says first whether it is worth it. */
    if (ha->type == SPX_SHAPE_MESH && hb->type == SPX_SHAPE_MESH && !(normal_speed(a, b, ca, cb, p, n) < slow))
        return false;
    impact_points(w, A, ha, ca, rotation_at(a, t), B, hb, cb, rotation_at(b, t), p, &n, growth, &out->points);
    float fastest = INFINITY;
    for (uint32_t k = 0; k < out->points.count; ++k)
        if (out->points.gap[k] == 0.0f) fastest = fminf(fastest, normal_speed(a, b, ca, cb, out->points.p[k], n));
    if (!(fastest < slow)) return false;
    out->t = t, out->normal = n;
    return true;
}

/* First time in [t0, t_end] at which shape sa of body ia (< ib) and shape sb of body ib touch,
   within the rotation tolerance, while approaching. A pair touching at t0 counts when approaching
   where it touches; at the step's start only if a body was fast before the solver (otherwise the
   solver's contacts own it). */
static bool pair_toi(stage* s, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb, float t0, float t_end, impact* out)
{
    const spx_body *A = &s->w->bodies[ia], *B = &s->w->bodies[ib];
    const spx_body_shape *ha = &A->shapes[sa], *hb = &B->shapes[sb];
    spx_ccd_body *a = seg(s, ia), *b = seg(s, ib);
    {
        /* The shapes stay within their spheres about the centres of mass, which move linearly:
           if those never meet over [t0, t_end], neither do the shapes. */
        vec3s d0 = glms_vec3_sub(center_at(b, t0), center_at(a, t0)), dv = glms_vec3_sub(b->v, a->v);
        float vv = glms_vec3_dot(dv, dv), tc = 0.0f;
        if (vv > 0.0f) tc = fminf(fmaxf(-glms_vec3_dot(d0, dv) / vv, 0.0f), t_end - t0);
        float reach = (ha->radius + hb->radius) * (1.0f + 1e-5f) + 1e-6f;
        if (glms_vec3_norm2(glms_vec3_add(d0, glms_vec3_scale(dv, tc))) > reach * reach) return false;
        /* Against a shape that does not move, its own box against the other's swept sphere. */
        const spx_ccd_body* still = stationary(a) ? a : stationary(b) ? b : NULL;
        if (still) {
            const spx_ccd_body* mover = still == a ? b : a;
            const spx_body_shape* sh = still == a ? ha : hb;
            const spx_body_shape* mh = still == a ? hb : ha;
            spx_aabb fixed = shape_aabb(still == a ? A : B, sh, still);
            vec3s p0 = center_at(mover, t0), p1 = center_at(mover, t_end);
            float r = mh->radius * (1.0f + 1e-5f) + 1e-6f;
            for (int k = 0; k < 3; ++k)
                if (fminf(p0.raw[k], p1.raw[k]) - r > fixed.max[k] || fmaxf(p0.raw[k], p1.raw[k]) + r < fixed.min[k])
                    return false;
        }
    }
    const float ra = spin_reach(A, ha, a), rb = spin_reach(B, hb, b);
    const float spin = glms_vec3_norm(a->w) * ra + glms_vec3_norm(b->w) * rb; /* m/s */
    /* The tolerance comes from the boxes, or the meshes' thickness (a mesh may be a sheet). */
    const float tol = pair_tolerance(ha, hb);
    /* Sub-intervals this short keep the rotation's growth within the tolerance (with room for
       rounding). */
    const float fine = spin > 0.0f ? 0.9f * tol / spin : INFINITY;
    const float cap_a = growth_cap(A, ha), cap_b = growth_cap(B, hb);
    spx_obb still_a, still_b;
    const spx_obb* fa = NULL;
    const spx_obb* fb = NULL;
    if (ha->type == SPX_SHAPE_BOX && stationary(a)) still_a = shape_box(A, ha, a->c, a->q, 0.0f), fa = &still_a;
    if (hb->type == SPX_SHAPE_BOX && stationary(b)) still_b = shape_box(B, hb, b->c, b->q, 0.0f), fb = &still_b;
    spx_sweep_hit hit;
    if (!sweep_pair(A, ha, a, B, hb, b, fa, fb, t0, 0.0f, 0.0f, 0.0f, &hit)) return false;
    if (hit.state == SPX_SWEEP_START_OVERLAP) {
        /* At the step's start a touching pair is the solver's unless begin gave it to the stage,
           or an impact at time 0 changed a body's motion after the solver had answered (a box
           resting on the floor, struck from above at time 0, went through the floor). Told before
           the impact's points are made: for two meshes sunk into each other they cost most. */
        if (t0 == 0.0f && !taken(s->c, ia, ib) && a->stamp != 2 && b->stamp != 2) return false;
        impact found;
        if (approaching(s->w, A, ha, a, B, hb, b, t0, s->dt, gv(hit.point), gv(hit.normal), 0.0f, &found)) {
            *out = found;
            out->shape_a = sa, out->shape_b = sb;
            return true;
        }
        /* Touching and parting where they touch: the search below steps past (with rotation
           another point may come round; without, it finds them parting). */
    }
    float t = t0, span = t_end - t0;
    bool have = false;
    vec3s last_n = glms_vec3_zero(), last_p = glms_vec3_zero();
    for (int it = 0; it < SPX_CCD_PAIR_ITERATIONS && t < t_end; ++it) {
        float te = t + span < t_end ? t + span : t_end;
        float d = te - t;
        float ga = fminf(fminf(glms_vec3_norm(a->w) * d, 2.0f) * ra, cap_a);
        float gb = fminf(fminf(glms_vec3_norm(b->w) * d, 2.0f) * rb, cap_b);
        if (!sweep_pair(A, ha, a, B, hb, b, fa, fb, t, ga, gb, d, &hit)) return false;
        if (hit.state == SPX_SWEEP_MISS) {
            t = te;
            span *= 2.0f;
            continue;
        }
        float tau = hit.state == SPX_SWEEP_HIT ? hit.time : 0.0f;
        vec3s n = gv(hit.normal), p = gv(hit.point);
        have = true, last_n = n, last_p = p;
        if (ga + gb <= tol) {
            /* Touching within the tolerance. A pair that does not approach where it touches is
               grazing or turning away: without rotation it never meets; with it, step past and
               look again. */
            float th = t + tau;
            if (approaching(s->w, A, ha, a, B, hb, b, th, s->dt, p, n, ga + gb, out)) {
                out->shape_a = sa, out->shape_b = sb;
                return true;
            }
            /* Passed by the time in which no point can come nearer the other shape than half the
               tolerance: sliding along the contact plane (translation with no part against the
               normal) cannot make them overlap, so only the closing part of the velocity and the
               rotation count (the full relative speed made a sliding pair take hundreds of tiny
               steps to the end of the step). */
            float closing = fmaxf(0.0f, -glms_vec3_dot(glms_vec3_sub(b->v, a->v), n)) + spin;
            if (!(closing > 0.0f)) return false;
            t = th + 0.5f * tol / closing;
            span = fine;
            continue;
        }
        /* Under the growth they touch at tau: the real shapes do not before. Go on from there with
           sub-intervals short enough to meet the tolerance. */
        t += tau;
        span = fine;
    }
    if (t >= t_end || !have) return false;
    /* Out of iterations: count them as touching here, as the last sweep saw them (safe: the
       impulse stops them moving into each other at that point). */
    out->t = t, out->normal = last_n, out->points.p[0] = last_p, out->points.gap[0] = 0.0f, out->points.count = 1;
    out->shape_a = sa, out->shape_b = sb;
    return true;
}

/* ---- the heap of next impacts ------------------------------------------------------------------- */

static bool before(const spx_continuous* c, uint32_t x, uint32_t y)
{
    float tx = c->bodies[x].toi, ty = c->bodies[y].toi;
    return tx < ty || (tx == ty && x < y);
}

static void heap_swap(spx_continuous* c, uint32_t i, uint32_t j)
{
    uint32_t x = c->heap[i], y = c->heap[j];
    c->heap[i] = y, c->heap[j] = x;
    c->heap_pos[y] = i, c->heap_pos[x] = j;
}

static void heap_fix(spx_continuous* c, uint32_t i)
{
    while (i > 0 && before(c, c->heap[i], c->heap[(i - 1) / 2])) {
        heap_swap(c, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < c->heap_count && before(c, c->heap[l], c->heap[m])) m = l;
        if (r < c->heap_count && before(c, c->heap[r], c->heap[m])) m = r;
        if (m == i) break;
        heap_swap(c, i, m);
        i = m;
    }
}

static void heap_remove(spx_continuous* c, uint32_t body)
{
    uint32_t i = c->heap_pos[body];
    if (i == UINT32_MAX) return;
    c->heap_pos[body] = UINT32_MAX;
    if (--c->heap_count == i) return;
    c->heap[i] = c->heap[c->heap_count];
    c->heap_pos[c->heap[i]] = i;
    heap_fix(c, i);
}

/* Body's record changed: in the heap while it has an impact ahead. */
static void heap_update(spx_continuous* c, uint32_t body)
{
    if (!isfinite(c->bodies[body].toi)) {
        heap_remove(c, body);
        return;
    }
    uint32_t i = c->heap_pos[body];
    if (i == UINT32_MAX) {
        i = c->heap_count++;
        c->heap[i] = body;
        c->heap_pos[body] = i;
    }
    heap_fix(c, i);
}

/* ---- searches ------------------------------------------------------------------------------------ */

static bool collect(void* context, uint32_t body)
{
    stage* s = context;
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

static bool collect_leaf(void* context, uint32_t proxy, uint32_t body)
{
    (void)proxy;
    return collect(context, body);
}

/* Box holding body i's path from t to the step's end. */
static spx_aabb path_box(stage* s, uint32_t i, float t, float grow)
{
    const spx_body* b = &s->w->bodies[i];
    const spx_ccd_body* cb = seg(s, i);
    if (stationary(cb)) {
        /* Its shapes' own boxes: a wall's sphere would reach everything near it. */
        spx_aabb box = shape_aabb(b, &b->shapes[0], cb);
        for (uint32_t k = 1; k < b->shape_count; ++k) {
            spx_aabb o = shape_aabb(b, &b->shapes[k], cb);
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

/* Body i's first impact from time `now` with anything its path meets; into its record and the heap. */
static void search(stage* s, uint32_t i)
{
    spx_continuous* c = s->c;
    spx_world* w = s->w;
    spx_ccd_body* me = seg(s, i);
    me->toi = INFINITY;
    if (me->frozen || w->bodies[i].type == SPX_BODY_STATIC) {
        heap_remove(c, i);
        return;
    }
    c->search++;
    c->candidate_count = 0;
    me->seen = c->search;
    spx_aabb box = path_box(s, i, s->now, c->pad);
    /* Moving bodies of the broad phase's tree only when some are not fast (the fast ones are all in
       the stage's tree, with their paths). */
    spx_pair_finder_query(w->pairs, &box, c->slow_movers > 0, collect, s);
    spx_aabb tight = path_box(s, i, s->now, 0.0f);
    if (c->leaf_count > 0) {
        spx_tree_query(&c->tree, 0, &tight, collect_leaf, s);
    }
    const spx_body* bi = &w->bodies[i];
    impact best;
    best.t = INFINITY;
    uint32_t best_partner = UINT32_MAX;
    for (uint32_t k = 0; k < c->candidate_count; ++k) {
        uint32_t j = c->candidates[k];
        const spx_body* bj = &w->bodies[j];
        if (!bj->alive) continue;
        if (s->static_only && bj->type == SPX_BODY_DYNAMIC && bi->type == SPX_BODY_DYNAMIC) continue;
        if (bi->type != SPX_BODY_DYNAMIC && bj->type != SPX_BODY_DYNAMIC) continue; /* neither would answer */
        if (spx_joints_keep_apart(w, i, j)) continue; /* jointed, and asked not to collide */
        spx_aabb theirs = path_box(s, j, s->now, 0.0f);
        if (!spx_aabb_overlap(&tight, &theirs)) continue;
        uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
        const spx_body *bl = &w->bodies[lo], *bh = &w->bodies[hi];
        for (uint32_t sa = 0; sa < bl->shape_count; ++sa)
            for (uint32_t sb = 0; sb < bh->shape_count; ++sb) {
                impact h;
                float limit = best.t < s->dt ? best.t : s->dt;
                if (pair_toi(s, lo, sa, hi, sb, s->now, limit, &h) && (h.t < best.t || (h.t == best.t && j < best_partner))) {
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
    heap_update(c, i);
}

/* ---- impacts --------------------------------------------------------------------------------------- */

static mat3s inv_inertia_at(const spx_body* b, versors q)
{
    if (b->type != SPX_BODY_DYNAMIC) return glms_mat3_zero();
    mat3s r = glms_quat_mat3(q);
    return glms_mat3_mul(glms_mat3_mul(r, b->inv_inertia_local), glms_mat3_transpose(r));
}

static float inv_mass_along(const spx_body* b, mat3s ii, vec3s r, vec3s d)
{
    vec3s x = glms_vec3_cross(r, d);
    return b->inv_mass + glms_vec3_dot(x, glms_mat3_mulv(ii, x));
}

static void push_impulse(spx_body* b, mat3s ii, vec3s r, vec3s p, float sign)
{
    if (b->type != SPX_BODY_DYNAMIC) return;
    b->v = glms_vec3_add(b->v, glms_vec3_scale(p, sign * b->inv_mass));
    b->w = glms_vec3_add(b->w, glms_mat3_mulv(ii, glms_vec3_scale(glms_vec3_cross(r, p), sign)));
}

/* Passes of the impulse at the centre of an impact's points over its normal and friction parts;
   then at most this many over the points themselves and the supports, until they change the
   impulses by under SPX_CCD_RESOLVE_SETTLED of the whole. A box struck onto another resting on the
   floor needs them: each pass takes about half of what is left of the upper box's approach, and
   after 16 both still rose at 0.4% of the impact speed and the upper one slid off sideways. */
#define SPX_CCD_RESOLVE_PASSES 4
#define SPX_CCD_RESOLVE_POINT_PASSES 64
#define SPX_CCD_RESOLVE_SETTLED 1e-6f
/* Restitution from which a point that is within the tolerance but not touching keeps its own,
   later impact instead of being stopped with the touching ones (resolve). */
#define SPX_CCD_DEFER_RESTITUTION 0.1f

/* Not spx_body_kinetic_energy: resolve() compares energies before and after an impulse within
   1e-6, and this form (the world inverse inertia the impulse used, inverted) rounds with it; in the
   body's frame the elastic container's restitution fell back to inelastic more often and kept
   99.70% of its energy over 2 s instead of 99.99%. */
static float kinetic_energy(const spx_body* b, mat3s inv_inertia)
{
    if (b->type != SPX_BODY_DYNAMIC) return 0.0f;
    vec3s l = glms_mat3_mulv(spx_mat3_inverse(inv_inertia), b->w);
    return 0.5f * b->mass * glms_vec3_norm2(b->v) + 0.5f * glms_vec3_dot(b->w, l);
}

/* One point of an impulse: its bodies (x pushed along -n, y along +n), their inverse inertias, its
   normal, tangents and friction, its levers, effective masses, target normal speed and the impulses
   accumulated on it. An impact's own points are between its two bodies; a support's between one of
   them and a static or kinematic body. */
typedef struct impact_row {
    spx_body *x, *y;
    const mat3s *ix, *iy;
    vec3s n, tang[2];
    float mu;
    vec3s ra, rb;
    float kn, kt[2];
    float approach;  /* its normal speed before the impact */
    float target;    /* the normal speed it leaves at, at least */
    float jn, jt[2];
} impact_row;

static vec3s row_relative(const impact_row* r)
{
    const spx_body *A = r->x, *B = r->y;
    return glms_vec3_sub(glms_vec3_add(B->v, glms_vec3_cross(B->w, r->rb)),
                         glms_vec3_add(A->v, glms_vec3_cross(A->w, r->ra)));
}

static void row_push(const impact_row* r, vec3s P)
{
    push_impulse(r->x, *r->ix, r->ra, P, -1.0f);
    push_impulse(r->y, *r->iy, r->rb, P, 1.0f);
}

/* A row between x and y at levers ra, rb along n with tangents tang and friction mu. */
static void row_init(impact_row* r, spx_body* x, const mat3s* ix, spx_body* y, const mat3s* iy, vec3s n,
                     const vec3s tang[2], float mu, vec3s ra, vec3s rb)
{
    r->x = x, r->y = y, r->ix = ix, r->iy = iy, r->n = n, r->tang[0] = tang[0], r->tang[1] = tang[1], r->mu = mu;
    r->ra = ra, r->rb = rb;
    r->kn = inv_mass_along(x, *ix, ra, n) + inv_mass_along(y, *iy, rb, n);
    for (int d = 0; d < 2; ++d) r->kt[d] = inv_mass_along(x, *ix, ra, tang[d]) + inv_mass_along(y, *iy, rb, tang[d]);
    r->approach = glms_vec3_dot(row_relative(r), n);
    r->jn = r->jt[0] = r->jt[1] = 0.0f;
    r->target = 0.0f;
}

/* Passes of accumulated, clamped impulses over rows: each pass the normal of every row, then (but
   in the last) Coulomb friction in the disk mu jn of every row, so the pass that ends leaves every
   row's normal speed at its target, within what the rows do to each other. Stops early once a pass
   changes the impulses by under `settled` of their sum. */
static void solve_rows(impact_row* rows, uint32_t count, int passes, float settled)
{
    for (int pass = 0; pass <= passes; ++pass) {
        float change = 0.0f, total = 0.0f;
        for (uint32_t k = 0; k < count; ++k) {
            impact_row* r = &rows[k];
            if (!(r->kn > 0.0f)) continue;
            float jn = fmaxf(r->jn - (glms_vec3_dot(row_relative(r), r->n) - r->target) / r->kn, 0.0f);
            change += fabsf(jn - r->jn), total += jn;
            row_push(r, glms_vec3_scale(r->n, jn - r->jn));
            r->jn = jn;
        }
        if (pass == passes || (pass > 0 && change <= settled * total)) break;
        for (uint32_t k = 0; k < count; ++k) {
            impact_row* r = &rows[k];
            if (r->mu <= 0.0f) continue;
            vec3s dv = row_relative(r);
            float nt[2];
            for (int d = 0; d < 2; ++d) nt[d] = r->kt[d] > 0.0f ? r->jt[d] - glms_vec3_dot(dv, r->tang[d]) / r->kt[d] : r->jt[d];
            float limit = r->mu * r->jn, len2 = nt[0] * nt[0] + nt[1] * nt[1];
            if (len2 > limit * limit) {
                float scale = limit / sqrtf(len2);
                nt[0] *= scale, nt[1] *= scale;
            }
            row_push(r, glms_vec3_add(glms_vec3_scale(r->tang[0], nt[0] - r->jt[0]),
                                      glms_vec3_scale(r->tang[1], nt[1] - r->jt[1])));
            r->jt[0] = nt[0], r->jt[1] = nt[1];
        }
    }
}

/* Two unit vectors across n. */
static void tangents(vec3s n, vec3s tang[2])
{
    vec3s t1 = fabsf(n.x) >= 0.57735f ? glms_vec3_normalize((vec3s){ { n.y, -n.x, 0.0f } })
                                      : glms_vec3_normalize((vec3s){ { 0.0f, n.z, -n.y } });
    tang[0] = t1, tang[1] = glms_vec3_cross(n, t1);
}

/* An impact's group: its dynamic bodies and the dynamic bodies resting against them that its impulse
   reaches through the solver's contacts, at most this many bodies and rows (four points each of
   sixteen contacts), with at most this many contacts waiting at its edge. What lies beyond, the
   stage meets one impact at a time. */
#define SPX_CCD_GROUP_BODIES 16
#define SPX_CCD_GROUP_ROWS 64
#define SPX_CCD_GROUP_EDGES 64
/* A body turned more than this (rad) since the step's start: its contacts' levers and normals no
   longer stand for where it touches, and they carry no impulse. */
#define SPX_CCD_SUPPORT_TURN 0.05f

static const mat3s zero_inertia;

typedef struct group_body {
    spx_body* b;
    uint32_t id;
    vec3s c;        /* centre of mass and rotation at the impact's time */
    versors q;
    mat3s ii;       /* world inverse inertia there */
    vec3s v0, w0;   /* velocities before the impact */
} group_body;

typedef struct impact_group {
    group_body bodies[SPX_CCD_GROUP_BODIES];
    uint32_t count;
    impact_row rows[SPX_CCD_GROUP_ROWS];    /* the links' points, impulses unset */
    uint32_t row_count;
    uint32_t edges[SPX_CCD_GROUP_EDGES];    /* links (below) from a body of the group to a dynamic body outside */
    uint32_t edge_count;
    uint32_t pair[2];                       /* the impact's bodies: their impact's points stand for their links */
    bool dynamic;                           /* links to dynamic bodies count (not for an elastic impact) */
    float energy0;                          /* kinetic energy of the group's bodies before the impact */
} impact_group;

static int group_find(const impact_group* g, uint32_t id)
{
    for (uint32_t k = 0; k < g->count; ++k)
        if (g->bodies[k].id == id) return (int)k;
    return -1;
}

/* How far body j's centre of mass has moved since its contacts were made (the step's start, or
   where a body asleep then still was), at the stage's current time. */
static vec3s moved_since_start(stage* s, uint32_t j)
{
    const spx_body* b = &s->w->bodies[j];
    if (b->type == SPX_BODY_STATIC) return glms_vec3_zero();
    const spx_ccd_body* cb = seg(s, j);
    return glms_vec3_sub(center_at(cb, s->now), cb->moved ? cb->c0 : b->center);
}

static float turned_by(versors q, versors q0) { return 2.0f * acosf(fminf(fabsf(glms_quat_dot(q, q0)), 1.0f)); }

/* A link through which an impact reaches on: one of the solver's contacts (entry 2 k + side of
   link_supports), or a body's latest impact (SPX_CCD_LINK_IMPACT | the body), where the two touched
   then. Its points at the stage's time: levers from each centre of mass, and the gap, which is the
   point's separation when the link was made less how far body a moved along the normal towards b
   since (their rotation since is small: SPX_CCD_SUPPORT_TURN). */
#define SPX_CCD_LINK_IMPACT 0x80000000u
typedef struct impact_link {
    uint32_t a, b;
    vec3s n;              /* from a to b */
    const vec3s* tang;
    vec3s own_tang[2];
    float mu;
    uint32_t count;
    vec3s ra[SPX_MAX_MANIFOLD_POINTS], rb[SPX_MAX_MANIFOLD_POINTS];
    float gap[SPX_MAX_MANIFOLD_POINTS];
    const spx_body_shape *sa, *sb;
} impact_link;

/* The link of entry e; false when it cannot carry an impulse (a body turned too far since). */
static bool link_of(stage* s, uint32_t e, impact_link* out)
{
    if (!(e & SPX_CCD_LINK_IMPACT)) {
        const spx_contact* ct = &s->w->contacts.list[e >> 1];
        const uint32_t ends[2] = { ct->body_a, ct->body_b };
        for (int k = 0; k < 2; ++k) {
            const spx_body* b = &s->w->bodies[ends[k]];
            if (b->type == SPX_BODY_STATIC) continue;
            const spx_ccd_body* cb = seg(s, ends[k]);
            const versors q0 = cb->moved ? cb->q0 : b->rotation;
            if (turned_by(rotation_at(cb, s->now), q0) > SPX_CCD_SUPPORT_TURN) return false;
        }
        out->a = ct->body_a, out->b = ct->body_b, out->n = ct->normal, out->tang = ct->tangent, out->mu = ct->friction;
        out->sa = &s->w->bodies[ct->body_a].shapes[ct->shape_a];
        out->sb = &s->w->bodies[ct->body_b].shapes[ct->shape_b];
        const vec3s towards = glms_vec3_sub(moved_since_start(s, ct->body_a), moved_since_start(s, ct->body_b));
        const float closed = glms_vec3_dot(towards, ct->normal);
        out->count = (uint32_t)ct->point_count;
        for (uint32_t p = 0; p < out->count; ++p) {
            out->ra[p] = ct->points[p].anchor_a, out->rb[p] = ct->points[p].anchor_b;
            out->gap[p] = ct->points[p].separation - closed;
        }
        return true;
    }
    const uint32_t i = e & ~SPX_CCD_LINK_IMPACT;
    const spx_ccd_body* ci = seg(s, i);
    const uint32_t j = ci->last_partner;
    const spx_ccd_body* cj = seg(s, j);
    const spx_body *bi = &s->w->bodies[i], *bj = &s->w->bodies[j];
    if (turned_by(rotation_at(ci, s->now), ci->last_q[0]) > SPX_CCD_SUPPORT_TURN
        || (bj->type != SPX_BODY_STATIC && turned_by(rotation_at(cj, s->now), ci->last_q[1]) > SPX_CCD_SUPPORT_TURN))
        return false;
    out->a = i, out->b = j, out->n = ci->last_n;
    tangents(out->n, out->own_tang);
    out->tang = out->own_tang;
    out->mu = sqrtf(bi->friction * bj->friction);
    /* A body's shapes: the first of each stands for the pair's tolerance (slow, group_grow). */
    out->sa = &bi->shapes[0], out->sb = &bj->shapes[0];
    const vec3s cj_now = bj->type == SPX_BODY_STATIC ? ci->last_c[1] : center_at(cj, s->now);
    const float closed = glms_vec3_dot(glms_vec3_sub(glms_vec3_sub(center_at(ci, s->now), ci->last_c[0]),
                                                     glms_vec3_sub(cj_now, ci->last_c[1])), out->n);
    out->count = ci->last_points.count;
    for (uint32_t p = 0; p < out->count; ++p) {
        out->ra[p] = glms_vec3_sub(ci->last_points.p[p], ci->last_c[0]);
        out->rb[p] = glms_vec3_sub(ci->last_points.p[p], ci->last_c[1]);
        out->gap[p] = ci->last_points.gap[p] - closed;
    }
    return true;
}

/* Whether a point with this gap acts in the impact: it touches, or it is within the speculative
   distance (then closing its gap by the step's end, not sooner: target -gap / left). */
static bool gap_acts(float gap, float left, float spec) { return gap <= 0.0f || (left > 0.0f && gap < spec); }

/* The rows of link l, whose bodies are in the group or static or kinematic. */
static void group_rows(stage* s, impact_group* g, const impact_link* l)
{
    const int ma = group_find(g, l->a), mb = group_find(g, l->b);
    spx_body *x = &s->w->bodies[l->a], *y = &s->w->bodies[l->b];
    const mat3s* ix = ma >= 0 ? &g->bodies[ma].ii : &zero_inertia;
    const mat3s* iy = mb >= 0 ? &g->bodies[mb].ii : &zero_inertia;
    const float left = s->dt - s->now, spec = s->w->def.speculative_distance;
    for (uint32_t p = 0; p < l->count && g->row_count < SPX_CCD_GROUP_ROWS; ++p) {
        if (!gap_acts(l->gap[p], left, spec)) continue;
        impact_row* r = &g->rows[g->row_count++];
        row_init(r, x, ix, y, iy, l->n, l->tang, l->mu, l->ra[p], l->rb[p]);
        r->target = l->gap[p] > 0.0f ? -l->gap[p] / left : 0.0f;
    }
}

/* One link of member m into the group: rows when its other body is static, kinematic or in the
   group (not between the impact's two bodies, whose impact's points stand for it); at the edge
   (group_grow) when that body is dynamic and outside. */
static void group_take(stage* s, impact_group* g, uint32_t m, uint32_t e)
{
    const uint32_t id = g->bodies[m].id;
    impact_link l;
    if (!link_of(s, e, &l)) return;
    const uint32_t j = l.a == id ? l.b : l.a;
    if ((id == g->pair[0] && j == g->pair[1]) || (id == g->pair[1] && j == g->pair[0])) return;
    if (s->w->bodies[j].type == SPX_BODY_DYNAMIC) {
        if (!g->dynamic) return;
        const int at = group_find(g, j);
        if (at < 0 && g->edge_count < SPX_CCD_GROUP_EDGES) g->edges[g->edge_count++] = e;
        if (at < 0) return;
    }
    group_rows(s, g, &l);
}

/* Member m's links into the group: the solver's contacts it kept, and its latest impact. */
static void group_gather(stage* s, impact_group* g, uint32_t m)
{
    const spx_continuous* cc = s->c;
    const group_body* gm = &g->bodies[m];
    if (cc->supports_ready)
        for (uint32_t e = cc->support_first[gm->id]; e != UINT32_MAX; e = cc->support_next[e]) group_take(s, g, m, e);
    if (g->dynamic && gm->id < SPX_CCD_LINK_IMPACT && seg(s, gm->id)->last_partner != UINT32_MAX)
        group_take(s, g, m, SPX_CCD_LINK_IMPACT | gm->id);
}

/* Dynamic body id (not in the group) joins it with its contacts; false when the group is full. */
static bool group_add(stage* s, impact_group* g, uint32_t id, vec3s c, versors q)
{
    if (g->count == SPX_CCD_GROUP_BODIES) return false;
    spx_body* b = &s->w->bodies[id];
    group_body* m = &g->bodies[g->count++];
    m->b = b, m->id = id, m->c = c, m->q = q;
    m->ii = inv_inertia_at(b, q);
    m->v0 = b->v, m->w0 = b->w;
    g->energy0 += kinetic_energy(b, m->ii);
    return true;
}

/* The dynamic bodies at the group's edge that its bodies now push join it: a link's point that
   touches and approaches, or would close its gap before the step ends, faster than an approach the
   stage takes for an impact (approaching): otherwise their turn would come as an impact of their
   own a moment later, one pair at a time (in a stack struck from the side, the impacts went up and
   down the stack to the per-body limit, and the boxes frozen there were driven into each other).
   True when any joined. */
static bool group_grow(stage* s, impact_group* g)
{
    bool grew = false;
    const float left = s->dt - s->now, spec = s->w->def.speculative_distance;
    for (uint32_t k = 0; k < g->edge_count && g->count < SPX_CCD_GROUP_BODIES; ++k) {
        impact_link l;
        if (!link_of(s, g->edges[k], &l)) continue;
        const bool a_in = group_find(g, l.a) >= 0, b_in = group_find(g, l.b) >= 0;
        if (a_in == b_in) continue;
        const uint32_t out = a_in ? l.b : l.a;
        const spx_body *a = &s->w->bodies[l.a], *b = &s->w->bodies[l.b];
        const float slow = SPX_CCD_SLOW_FRACTION * pair_tolerance(l.sa, l.sb) / s->dt;
        bool pushed = false;
        for (uint32_t p = 0; p < l.count && !pushed; ++p) {
            if (!gap_acts(l.gap[p], left, spec)) continue;
            vec3s dv = glms_vec3_sub(glms_vec3_add(b->v, glms_vec3_cross(b->w, l.rb[p])),
                                     glms_vec3_add(a->v, glms_vec3_cross(a->w, l.ra[p])));
            pushed = glms_vec3_dot(dv, l.n) < (l.gap[p] > 0.0f ? -l.gap[p] / left : 0.0f) - slow;
        }
        if (!pushed) continue;
        const spx_ccd_body* oc = seg(s, out);
        if (!group_add(s, g, out, center_at(oc, s->now), rotation_at(oc, s->now))) break;
        group_gather(s, g, g->count - 1);
        grew = true;
    }
    return grew;
}

/* The impact's rows `head` solved with the group's, the group growing while the impulse pushes
   bodies at its edge; the head's impulses as given, the group's from zero. */
static void solve_group(stage* s, impact_group* g, const impact_row* head, uint32_t head_count, int passes,
                        float settled)
{
    impact_row work[SPX_CCD_IMPACT_POINTS + SPX_CCD_GROUP_ROWS];
    memcpy(work, head, sizeof(impact_row) * head_count);
    uint32_t n = head_count, from = 0;
    for (;;) {
        for (; from < g->row_count; ++from, ++n) {
            work[n] = g->rows[from];
            work[n].jn = work[n].jt[0] = work[n].jt[1] = 0.0f;
        }
        if (n > head_count) passes = SPX_CCD_RESOLVE_POINT_PASSES, settled = SPX_CCD_RESOLVE_SETTLED;
        solve_rows(work, n, passes, settled);
        if (!group_grow(s, g)) break;
    }
}

static float group_energy(const impact_group* g)
{
    float e = 0.0f;
    for (uint32_t k = 0; k < g->count; ++k) e += kinetic_energy(g->bodies[k].b, g->bodies[k].ii);
    return e;
}

/* The impulse of an impact at its points (normal n, A to B) on the bodies' velocities, acting
   through the contacts of its group (above) too: the solver's contacts of the struck bodies with
   static and kinematic bodies, and with the dynamic bodies they push, and so on. Those contacts'
   points touch, or are within the speculative distance and then close that gap by the step's end,
   not sooner; each gap is the point's separation at the step's start moved by the bodies' motion
   since along the normal. A box resting on the floor, struck from above, is held by the floor in
   the same impulse (struck alone, it was driven into the floor, stopped there, struck again, up to
   the impact limit: a pile of 1,700 fast boxes landing took 8,700 impacts a step). With restitution
   e (the approach above the restitution threshold) the centre of the touching points leaves at -e
   times its approach. Inelastic, every touching point leaves not approaching, and a point with a
   gap g may still approach, but not by more than g in the rest of the step. Coulomb friction acts
   up to mu times each point's normal impulse. The impulses are accumulated and clamped over several
   passes, friction and normal together (a friction impulse turns the bodies and can bring a point
   back to approaching: applied once each, a spinning pair was hit again and again at one instant),
   the normal last.
   Inelastic, the impulse is first found at the centre of the touching points (a face landing on a
   face, struck there, stays level to the bit), then shared over them and solved on all the points
   together: struck at the centre alone, a ring landing flat after rocking on its rim kept its spin;
   struck at the touching points alone, the side a millimetre up still came down; either way a
   chain of impacts threw it up at 15 to 19% of its impact speed.
   Energy: with e = 0 and no gap every update is a projection in the bodies' mass metric, so it
   adds no kinetic energy (but a kinematic body's push); an impulse that ends with more than it
   began with is done again with e = 0, then with the touching points alone, which stands. The
   group's bodies are in g when it returns. */
static void resolve(stage* s, impact_group* g, uint32_t ia, spx_body* A, versors qa, vec3s ca, uint32_t ib, spx_body* B,
                    versors qb, vec3s cb, const spx_ccd_points* pts, vec3s n)
{
    g->count = g->row_count = g->edge_count = 0;
    g->pair[0] = ia, g->pair[1] = ib;
    g->energy0 = 0.0f;
    const mat3s ii_a = inv_inertia_at(A, qa), ii_b = inv_inertia_at(B, qb);
    vec3s tang[2];
    tangents(n, tang);
    const float mu = sqrtf(A->friction * B->friction);
    /* The touching points first, then those with a gap. */
    impact_row centre, rows[SPX_CCD_IMPACT_POINTS];
    float gaps[SPX_CCD_IMPACT_POINTS];
    uint32_t touching = 0, count = 0;
    vec3s mid = glms_vec3_zero();
    float fastest = 0.0f; /* the most negative approach of a touching point */
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t k = 0; k < pts->count; ++k) {
            if ((pts->gap[k] > 0.0f) != (pass == 1)) continue;
            row_init(&rows[count], A, &ii_a, B, &ii_b, n, tang, mu, glms_vec3_sub(pts->p[k], ca), glms_vec3_sub(pts->p[k], cb));
            gaps[count] = pts->gap[k];
            if (pass == 0) {
                fastest = fminf(fastest, rows[count].approach);
                mid = glms_vec3_add(mid, pts->p[k]);
                ++touching;
            }
            ++count;
        }
    if (!(fastest < 0.0f)) return;
    vec3s at = glms_vec3_scale(mid, 1.0f / (float)touching);
    row_init(&centre, A, &ii_a, B, &ii_b, n, tang, mu, glms_vec3_sub(at, ca), glms_vec3_sub(at, cb));
    const float left = s->dt - s->now; /* s: the rest of the step */
    const float e0 = A->restitution > B->restitution ? A->restitution : B->restitution;
    /* Elastic also when the touching points approach slowly but a point within the tolerance
       closes fast enough to reach the other shape within the step: it is the impact to come, and
       the inelastic impulse would stop it now, with its energy (in a container of elastic boxes
       one such impact took 27 kJ, most of a box's). The one point struck now leaves, and the
       closing point's own impact, later, keeps its restitution. Below SPX_CCD_DEFER_RESTITUTION
       the early stop takes under 1% of that point's energy (e^2) more than its own impact would,
       and saves the event: in a pile of boxes with e = 0.05, deferring made 25% more impacts. */
    float closing = -fastest;
    if (e0 >= SPX_CCD_DEFER_RESTITUTION)
        for (uint32_t k = touching; k < count; ++k)
            if (left > 0.0f && rows[k].approach < -gaps[k] / left) closing = fmaxf(closing, -rows[k].approach);
    const bool elastic = e0 > 0.0f && closing >= s->w->def.restitution_threshold;
    /* An elastic impact reaches only through the solver's contacts with static and kinematic
       bodies: a dynamic neighbour, or a body the struck one met earlier in the step, taken into it
       would be stopped with it, inelastic (an elastic container lost 1.1% of its energy in 2 s, then
       0.24% through earlier impacts on its walls); its own impact, found next, keeps its
       restitution. */
    g->dynamic = !elastic;
    if (A->type == SPX_BODY_DYNAMIC) group_add(s, g, ia, ca, qa);
    if (B->type == SPX_BODY_DYNAMIC) group_add(s, g, ib, cb, qb);
    for (uint32_t m = 0; m < g->count; ++m) group_gather(s, g, m);
    for (int attempt = elastic ? 0 : 1; attempt < 3; ++attempt) {
        const float e = attempt == 0 ? e0 : 0.0f;
        centre.target = 0.0f;
        centre.jn = centre.jt[0] = centre.jt[1] = 0.0f;
        for (uint32_t k = 0; k < count; ++k) rows[k].jn = rows[k].jt[0] = rows[k].jt[1] = 0.0f;
        if (attempt == 0) {
            /* With restitution, at the centre alone (Newton's law at several points at once gains
               energy, and done again inelastic it lost 0.35% of an elastic container's), or where
               the centre does not approach, at the point that approaches most; and the group. */
            impact_row* one = &centre;
            if (touching == 1 || !(centre.approach < 0.0f))
                for (uint32_t k = 0; k < touching; ++k)
                    if (rows[k].approach == fastest) one = &rows[k];
            one->target = -e * one->approach;
            solve_group(s, g, one, 1, SPX_CCD_RESOLVE_PASSES, 0.0f);
        } else {
            /* A gap a point cannot close before the step ends asks nothing of it (yet). */
            uint32_t used = touching;
            if (attempt == 1 && left > 0.0f)
                for (uint32_t k = touching; k < count; ++k) {
                    rows[used] = rows[k];
                    rows[used].target = -gaps[k] / left;
                    if (rows[used].approach < rows[used].target) ++used;
                }
            for (uint32_t k = 0; k < touching; ++k) rows[k].target = 0.0f;
            if (used == 1 && g->row_count == 0) {
                solve_group(s, g, rows, 1, SPX_CCD_RESOLVE_PASSES, 0.0f);
            } else {
                if (centre.approach < 0.0f) solve_rows(&centre, 1, SPX_CCD_RESOLVE_PASSES, 0.0f);
                /* The centre's impulse is the same impulse shared equally over the touching points. */
                const float share = 1.0f / (float)touching;
                for (uint32_t k = 0; k < touching; ++k) {
                    rows[k].jn = centre.jn * share;
                    rows[k].jt[0] = centre.jt[0] * share, rows[k].jt[1] = centre.jt[1] * share;
                }
                solve_group(s, g, rows, used, SPX_CCD_RESOLVE_POINT_PASSES, SPX_CCD_RESOLVE_SETTLED);
            }
        }
        if (attempt == 2 || group_energy(g) <= g->energy0 * (1.0f + 1e-6f)) break;
        for (uint32_t k = 0; k < g->count; ++k) /* it added energy: again, as said above */
            g->bodies[k].b->v = g->bodies[k].v0, g->bodies[k].b->w = g->bodies[k].w0;
    }
}

/* An open mesh (a ground, a terrain, a wall) has no inside, so two sides. */
static bool is_open(const spx_body_shape* s) { return s->type == SPX_SHAPE_MESH && !s->mesh->closed; }

/* An open mesh has two sides, and a shape that sank into one touches both: the normal n (A to B) at
   point p is on the wrong side when it points away from the other body's centre (a sphere mesh
   6 mm into a ground sheet was struck up and down in turn, 17 impacts at one instant, until the
   impact limit froze it, step after step). The side is the one the mesh-mesh manifold gives an open
   mesh: towards the other body. */
static bool wrong_side_of_open(const spx_body_shape* ha, vec3s ca, const spx_body_shape* hb, vec3s cb, vec3s p, vec3s n)
{
    const bool open_a = is_open(ha), open_b = is_open(hb);
    if (open_a == open_b) return false;
    return open_a ? glms_vec3_dot(n, glms_vec3_sub(cb, p)) < 0.0f : glms_vec3_dot(n, glms_vec3_sub(p, ca)) < 0.0f;
}

/* Where an impact acts: the points of the shape pair's manifold at the impact's pose, when the
   manifold's normal agrees with the impact's; otherwise the impact's own point. Those that touch
   first (within 1e-4 of the smaller box of the closest) have gap 0; the others within the
   tolerance keep their gap to the closest. A swept query names one point of a face landing on a
   face (for a mesh, one triangle's), and an impulse there turned a level box over. Normal from A to
   B into *n. */
static void impact_points(const spx_world* w, const spx_body* A, const spx_body_shape* ha, vec3s ca, versors qa,
                          const spx_body* B, const spx_body_shape* hb, vec3s cb, versors qb, vec3s point, vec3s* n,
                          float growth, spx_ccd_points* out)
{
    const float tol = pair_tolerance(ha, hb);
    spx_manifold ms[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    bool flip = false;
    if (ha->type == SPX_SHAPE_BOX && hb->type == SPX_SHAPE_BOX) {
        spx_obb oa = shape_box(A, ha, ca, qa, 0.0f), ob = shape_box(B, hb, cb, qb, 0.0f);
        if (spx_manifold_obb_obb(&oa, &ob, tol, &ms[0]) == SPX_OK) count = 1;
    } else if (ha->type == SPX_SHAPE_BOX || hb->type == SPX_SHAPE_BOX) {
        flip = ha->type != SPX_SHAPE_BOX;
        const spx_body *XB = flip ? B : A, *MB = flip ? A : B;
        const spx_body_shape *xs = flip ? hb : ha, *msh = flip ? ha : hb;
        spx_obb box = shape_box(XB, xs, flip ? cb : ca, flip ? qb : qa, 0.0f);
        spx_ccd_body pose;
        memset(&pose, 0, sizeof pose);
        pose.c = flip ? ca : cb, pose.q = flip ? qa : qb;
        if (!pose_mesh(MB, msh, &pose, 0.0f)
            || spx_manifold_obb_mesh(&box, msh->instance, tol, ms, SPX_MAX_MESH_MANIFOLDS, &count) != SPX_OK)
            count = 0;
    } else {
        /* Two meshes: only pairs about as near as the sweep's growth can be the contact, and a
           wider margin over two curved meshes costs milliseconds (two sphere meshes: 5 to 30 ms
           at the tolerance, 0.1 ms here). The world's pair cache spares a descent a manifold. */
        const float margin = fminf(tol, 2.0f * growth + 0.05f * tol);
        if (pose_mesh_at(A, ha, ca, qa) && pose_mesh_at(B, hb, cb, qb) && margin >= 0.0f && isfinite(margin))
            spx_manifold_mesh_mesh_buffered(ha->instance, hb->instance, margin, true, w->mesh_pair_buffer,
                                            w->mesh_pair_buffer_bytes, ms, SPX_MAX_MESH_MANIFOLDS, &count, NULL);
    }
    if (wrong_side_of_open(ha, ca, hb, cb, point, *n)) *n = glms_vec3_negate(*n);
    int best = -1;
    float best_dot = 0.9f;
    for (uint32_t k = 0; k < count; ++k) {
        if (ms[k].point_count == 0) continue;
        vec3s mn = gv(ms[k].normal);
        float d = glms_vec3_dot(flip ? glms_vec3_negate(mn) : mn, *n);
        if (d > best_dot) best_dot = d, best = (int)k;
    }
    out->p[0] = point, out->gap[0] = 0.0f, out->count = 1;
    if (best < 0) return;
    const spx_manifold* m = &ms[best];
    /* Two meshes' points differ in depth by their tessellation and rounding where they lie flat
       on each other (two tori rim to rim): within a twentieth of the tolerance they count as one
       face, struck at its middle (struck at the deepest few, the rings turned into each other). */
    const bool flat = ha->type == SPX_SHAPE_MESH && hb->type == SPX_SHAPE_MESH;
    float deepest = -INFINITY;
    for (int k = 0; k < m->point_count; ++k) deepest = fmaxf(deepest, m->points[k].depth);
    uint32_t used = 0;
    for (int k = 0; k < m->point_count && used < SPX_CCD_IMPACT_POINTS; ++k) {
        float gap = deepest - m->points[k].depth;
        if (gap > tol) continue;
        out->p[used] = gv(m->points[k].point);
        out->gap[used++] = gap <= (flat ? 0.05f : 4e-4f) * tol ? 0.0f : gap;
    }
    out->count = used;
    vec3s mn = gv(m->normal);
    *n = flip ? glms_vec3_negate(mn) : mn;
}

static void touch(stage* s, uint32_t i)
{
    spx_ccd_body* cb = seg(s, i);
    if (cb->stamp == 2) return;
    cb->stamp = 2;
    s->c->touched[s->c->touched_count++] = i;
}

/* Body i's path from now on into the stage's tree (where searches find it whatever the broad
   phase's tree holds). */
static void track(stage* s, uint32_t i)
{
    spx_continuous* cc = s->c;
    spx_ccd_body* cb = seg(s, i);
    spx_aabb box = path_box(s, i, s->now, 0.0f);
    if (cb->proxy != SPX_TREE_NULL) {
        spx_tree_reinsert(&cc->tree, cb->proxy, 0, &box);
    } else if (spx_tree_insert(&cc->tree, 0, &box, i, &cb->proxy) == SPX_OK) {
        cc->leaves[cc->leaf_count++] = i;
    } else {
        /* No room (never: the tree is reserved for every body): the padding must cover it. */
        vec3s a = center_at(cb, s->now), b = center_at(cb, s->dt);
        cc->pad += glms_vec3_norm(glms_vec3_sub(b, a)) + glms_vec3_norm(glms_vec3_sub(a, seg(s, i)->c0));
    }
}

/* Body i (dynamic) goes on from time t at its pose there with its velocities (none when frozen);
   its path may now leave its box in the broad phase's trees, so it goes into the stage's tree. */
static void restart(stage* s, uint32_t i, float t, vec3s c, versors q)
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
    cb->version++;
    track(s, i);
}

static bool changed(vec3s a, vec3s b) { return a.x != b.x || a.y != b.y || a.z != b.z; }

static void impact_now(stage* s, uint32_t i)
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
    /* Their spins where they are now, on the solver's path. */
    if (a->stamp != 2) A->w = carry_spin(A, A->w, A->rotation, qa);
    if (b->stamp != 2) B->w = carry_spin(B, B->w, B->rotation, qb);
    /* The record's point and normal are impact_point's already (approaching): for two meshes, whose
       manifold is dear, they are taken as they are. */
    if (A->shapes[me->shape_lo].type != SPX_SHAPE_MESH || B->shapes[me->shape_hi].type != SPX_SHAPE_MESH)
        impact_points(s->w, A, &A->shapes[me->shape_lo], ca, qa, B, &B->shapes[me->shape_hi], cb, qb, points.p[0], &n,
                      0.0f, &points);
    impact_group g;
    resolve(s, &g, lo, A, qa, ca, hi, B, qb, cb, &points, n);
    s->impacts++;
    /* The impact is each dynamic body's latest: a later impact on it acts through this one too. */
    for (int k = 0; k < 2; ++k) {
        if ((k ? B : A)->type != SPX_BODY_DYNAMIC) continue;
        spx_ccd_body* x = seg(s, k ? hi : lo);
        x->last_partner = k ? lo : hi;
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
    /* The other bodies of the group that the impulse moved go on from here too (not counted as
       impacts of theirs: they were not struck, only pushed). */
    uint32_t pushed[SPX_CCD_GROUP_BODIES], pushed_count = 0;
    for (uint32_t m = 0; m < g.count; ++m) {
        const group_body* gm = &g.bodies[m];
        if (gm->id == lo || gm->id == hi || (!changed(gm->b->v, gm->v0) && !changed(gm->b->w, gm->w0))) continue;
        if (!gm->b->awake) spx_island_wake(s->w, gm->id);
        restart(s, gm->id, t, gm->c, gm->q);
        pushed[pushed_count++] = gm->id;
    }
    /* All look ahead again from here (a kinematic body's motion did not change, but its record
       was this impact). Other records naming a body that restarted are stale: searched again when
       they come up. */
    for (int k = 0; k < 2; ++k)
        if (both[k]->type != SPX_BODY_STATIC) search(s, ids[k]);
    for (uint32_t m = 0; m < pushed_count; ++m) search(s, pushed[m]);
}

/* ---- the stage ------------------------------------------------------------------------------------- */

static bool fast_pre(const spx_body* b, vec3s v_pre, float dt)
{
    float reach = (glms_vec3_norm(v_pre) + glms_vec3_norm(b->w) * b->radius) * dt;
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
        cb->moved = b->alive && b->awake && b->type != SPX_BODY_STATIC;
        cb->fast_pre = cb->spinning = 0;
        if (!cb->moved) continue;
        cb->c0 = b->center;
        cb->q0 = b->rotation;
        cb->v_pre = b->type == SPX_BODY_DYNAMIC ? glms_vec3_add(b->v, glms_vec3_scale(g, dt * b->gravity_scale)) : b->v;
        cb->fast_pre = fast_pre(b, cb->v_pre, dt) && !spx_joints_has(&w->joints, i);
        cb->spinning = glms_vec3_norm(b->w) * dt > SPX_CCD_SOLVER_TURN;
        c->any_fast_pre |= cb->fast_pre;
    }
}

void spx_continuous_begin(spx_world* w)
{
    spx_continuous* c = &w->ccd;
    c->taken_count = 0;
    if (!w->def.enable_continuous || !c->bodies || !c->any_fast_pre) return;
    /* Which contacts of fast bodies go to the stage below, whole body pairs at a time (their points
       switched off here: a point with a gap of 1e20 m never pushes; finite, so no inf or NaN in the
       solver's arithmetic), and which stay with the solver. The stage's:
       - beyond the speculative distance: the solver would stop the body at the gap's end and drop
         the rest of its motion (time lost, a bounce from a place reached early), and a far point
         is a long lever on a small body (the solver's rotation from one ran away to 10^11 rad/s);
       - approached faster than the restitution threshold: an impact, whose time matters;
       - two dynamic bodies sliding (or turning) past each other by more than the thinner one's
         least half extent in the step: the solver's anchors stay where they were at the step's
         start, and a fast box sliding past a resting one pressed it 5 cm into the floor. Against
         a static or kinematic body the anchors travel with the moving body and sliding is fine:
         a fast box sliding on the floor stays the solver's, whose position correction holds it
         up (the stage has none: given to the stage, such a box sank through the floor over 70
         steps);
       - every contact of a body turning more than SPX_CCD_SOLVER_TURN in the step: the solver's
         contacts follow rotation to first order and fed energy into fast-spinning boxes.
       The solver keeps the rest: contacts that move together (a fast body resting on a fast one). */
    const float near = w->def.speculative_distance, slow = w->def.restitution_threshold;
    const float dt = c->dt;
    if (!spx_reserve(&w->allocator, (void**)&c->taken, &c->taken_capacity, w->contacts.count, sizeof(uint64_t), 8)) {
        c->any_fast_pre = false; /* no room to say which: this step, the solver keeps them all */
        return;
    }
    uint32_t k = 0;
    while (k < w->contacts.count) {
        const uint32_t ia = w->contacts.list[k].body_a, ib = w->contacts.list[k].body_b;
        uint32_t end = k;
        while (end < w->contacts.count && w->contacts.list[end].body_a == ia && w->contacts.list[end].body_b == ib) ++end;
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
                    keep = p->separation <= near && -glms_vec3_dot(dv, ct->normal) <= slow
                        && (!both_dynamic || glms_vec3_norm(dv) * dt <= SPX_CCD_FAST_FRACTION * thin);
                }
            }
            take = !keep;
        }
        if (take) {
            for (uint32_t m = k; m < end; ++m) {
                spx_contact* ct = &w->contacts.list[m];
                ct->reusable = false; /* next step's narrow phase makes it afresh */
                for (int i = 0; i < ct->point_count; ++i) {
                    spx_contact_point* p = &ct->points[i];
                    p->separation = 1e20f;
                    p->normal_impulse = p->tangent_impulse[0] = p->tangent_impulse[1] = 0.0f;
                }
            }
            c->taken[c->taken_count++] = (uint64_t)ia << 32 | ib; /* sorted, as the contacts are */
        }
        k = end;
    }
}

/* Each dynamic body's contacts that the solver kept (their points on), for an impact's group: entry
   2 k is contact k in body_a's list, 2 k + 1 in body_b's (a dynamic body's only). No room: no group
   this step (impacts then act on the pair alone). */
static void link_supports(spx_world* w)
{
    spx_continuous* c = &w->ccd;
    const uint32_t n = w->contacts.count;
    c->supports_ready = false;
    /* Sized by the contacts' own capacity: it grows in the same steps as they do. */
    const uint64_t entries = 2u * (uint64_t)(w->contacts.capacity > n ? w->contacts.capacity : n);
    if (entries >= SPX_CCD_LINK_IMPACT
        || !spx_reserve(&w->allocator, (void**)&c->support_next, &c->support_capacity, (uint32_t)entries,
                        sizeof(uint32_t), 8))
        return;
    for (uint32_t i = 0; i < w->body_slots; ++i) c->support_first[i] = UINT32_MAX;
    for (uint32_t k = 0; k < n; ++k) {
        const spx_contact* ct = &w->contacts.list[k];
        if (ct->point_count == 0 || !(ct->points[0].separation < 1e19f)) continue; /* the stage's own */
        const uint32_t ends[2] = { ct->body_a, ct->body_b };
        for (uint32_t side = 0; side < 2; ++side) {
            if (w->bodies[ends[side]].type != SPX_BODY_DYNAMIC) continue;
            c->support_next[2 * k + side] = c->support_first[ends[side]];
            c->support_first[ends[side]] = 2 * k + side;
        }
    }
    c->supports_ready = true;
}

spx_result spx_continuous_run(spx_world* w, float dt, spx_step_stats* st)
{
    spx_continuous* c = &w->ccd;
    if (!w->def.enable_continuous || !c->bodies || !(dt > 0.0f)) return SPX_OK;
    stage s = { w, c, dt, 0.0f, w->def.continuous_max_impacts, 0, false, w->def.continuous_static_only, false };
    /* Which bodies are fast, and how far any slow one may have left its box in the broad phase. */
    c->pad = 0.0f;
    c->slow_movers = 0;
    c->heap_count = 0;
    c->touched_count = 0;
    uint32_t fast_count = 0;
    const float spec = w->def.speculative_distance;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        c->heap_pos[i] = UINT32_MAX;
        spx_ccd_body* cb = &c->bodies[i];
        if (!cb->moved) continue;
        const spx_body* b = &w->bodies[i];
        vec3s d = glms_vec3_sub(b->center, cb->c0);
        /* The broad phase swept it at v_pre and grew the sphere by the speculative distance. */
        float off = glms_vec3_norm(glms_vec3_sub(d, glms_vec3_scale(cb->v_pre, dt))) - spec;
        float reach = fmaxf(glms_vec3_norm(d), glms_vec3_norm(b->v) * dt) + glms_vec3_norm(b->w) * b->radius * dt;
        if (cb->fast_pre || (reach > SPX_CCD_FAST_FRACTION * body_least_half(b) && !spx_joints_has(&w->joints, i))) {
            c->fast[fast_count++] = i;
        } else {
            c->slow_movers++;
            if (off > c->pad) c->pad = off;
        }
    }
    st->fast_body_count = fast_count;
    if (fast_count == 0) return SPX_OK;
    link_supports(w);
    /* Fast bodies' paths go into the stage's tree: the broad phase's holds only a fast body's box
       at the step's start (world.c), or its sweep at the velocity before the solver. */
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
    while (c->heap_count > 0) {
        uint32_t i = c->heap[0];
        spx_ccd_body* me = &c->bodies[i];
        if (seg(&s, me->partner)->version != me->partner_version) {
            search(&s, i); /* stale: the partner's motion changed since */
            continue;
        }
        impact_now(&s, i);
    }
    /* End poses of the bodies whose motion the stage changed. */
    for (uint32_t k = 0; k < c->touched_count; ++k) {
        uint32_t i = c->touched[k];
        spx_body* b = &w->bodies[i];
        spx_ccd_body* cb = &c->bodies[i];
        b->center = center_at(cb, dt);
        b->rotation = rotation_at(cb, dt);
        spx_body_sync_origin(b);
    }
    for (uint32_t k = 0; k < c->leaf_count; ++k) c->bodies[c->leaves[k]].proxy = SPX_TREE_NULL;
    spx_tree_clear(&c->tree, 0);
    c->leaf_count = 0;
    st->impact_count = s.impacts;
    if (s.limited) st->flags |= SPX_STEP_IMPACT_LIMIT;
    return s.overflow ? SPX_ERR_OUT_OF_MEMORY : SPX_OK;
}
