/* Continuous-stage times of impact. See docs/continuous.md, "Time of impact of a shape pair". */
#include "continuous_stage.h"
#include "collide/manifold_mesh.h"
#include "geometry/mesh.h"
#include "collide/sweep_mesh_margin.h"
#include "collide/sweep_obb_obb.h"
#include <sepax/collide.h>
#include <string.h>

/* Past it the pair counts as touching where the search stands. */
#define SPX_CCD_PAIR_ITERATIONS 4096

/* A mesh's thickness for a mesh pair's tolerance: root box's least half extent, INFINITY for a
   sheet (the growth rules out passing; the tolerance only sets how early an impact is found). */
static float mesh_thickness(const spx_body_shape* s)
{
    float most = fmaxf(s->half_extents.x, fmaxf(s->half_extents.y, s->half_extents.z));
    float h = least_half(s);
    return h > 0.01f * most ? h : INFINITY;
}

/* A quarter of the thinner box (a round shape's radius); two meshes: a tenth of the thinner
   non-sheet, two sheets a tenth of 1% of the smaller one's larger half extent. */
float spx_ccd_pair_tolerance(const spx_body_shape* ha, const spx_body_shape* hb)
{
    if (ha->type != SPX_SHAPE_MESH || hb->type != SPX_SHAPE_MESH) {
        float ha_min = ha->type != SPX_SHAPE_MESH ? least_half(ha) : INFINITY;
        float hb_min = hb->type != SPX_SHAPE_MESH ? least_half(hb) : INFINITY;
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

/* Sum times 0 is 0 only when all are finite (overflow says no: no query could take it). */
static float sum3(spx_vec3 v) { return v.x + v.y + v.z; }
static bool finite_box(const spx_obb* o)
{
    float sum = sum3(o->center) + sum3(o->half_extents) + sum3(o->rotation.col[0]) + sum3(o->rotation.col[1]) +
                sum3(o->rotation.col[2]);
    return sum * 0.0f == 0.0f;
}

/* Half extents grown by `grow`. */
static spx_obb shape_box_m(const spx_body* b, const spx_body_shape* sh, vec3s c, mat3s r, float grow)
{
    spx_obb o;
    o.center = spx_from_glm_vec3(glms_vec3_add(c, glms_mat3_mulv(r, glms_vec3_sub(sh->local_center, b->local_center))));
    o.half_extents = spx_v3(sh->half_extents.x + grow, sh->half_extents.y + grow, sh->half_extents.z + grow);
    mat3s axes = sh->axes_aligned ? r : glms_mat3_mul(r, sh->local_rotation);
    for (int k = 0; k < 3; ++k) o.rotation.col[k] = spx_from_glm_vec3(axes.col[k]);
    return o;
}

static spx_obb shape_box(const spx_body* b, const spx_body_shape* sh, vec3s c, versors q, float grow)
{
    return shape_box_m(b, sh, c, glms_quat_mat3(q), grow);
}

/* Pose kept for the next call at t. */
static spx_obb box_at(const spx_body* b, const spx_body_shape* sh, spx_ccd_body* cb, float t, float grow)
{
    if (cb->pose_t != t) {
        cb->pose_c = center_at(cb, t);
        cb->pose_r = glms_quat_mat3(rotation_at(cb, t));
        cb->pose_t = t;
    }
    return shape_box_m(b, sh, cb->pose_c, cb->pose_r, grow);
}

spx_aabb spx_ccd_shape_aabb(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb)
{
    spx_obb o = shape_box(b, sh, cb->c, cb->q, 0.0f);
    spx_aabb box;
    const float* c = &o.center.x;
    const float* h = &o.half_extents.x;
    for (int k = 0; k < 3; ++k) {
        float r = h[0] * fabsf((&o.rotation.col[0].x)[k]) + h[1] * fabsf((&o.rotation.col[1].x)[k]) +
                  h[2] * fabsf((&o.rotation.col[2].x)[k]);
        r = r * (1.0f + 1e-5f) + 1e-5f * fabsf(c[k]) + 1e-6f;
        box.min[k] = c[k] - r;
        box.max[k] = c[k] + r;
    }
    return box;
}

/* negative: approaching */
static float normal_speed(const spx_ccd_body* a, const spx_ccd_body* b, vec3s ca, vec3s cb, vec3s p, vec3s n)
{
    vec3s va = glms_vec3_add(a->v, glms_vec3_cross(a->w, glms_vec3_sub(p, ca)));
    vec3s vb = glms_vec3_add(b->v, glms_vec3_cross(b->w, glms_vec3_sub(p, cb)));
    return glms_vec3_dot(glms_vec3_sub(vb, va), n);
}

/* How far from its centre of mass shape sh of body b reaches, at most. */
static float shape_reach(const spx_body* b, const spx_body_shape* sh)
{
    return (glms_vec3_norm(glms_vec3_sub(sh->local_center, b->local_center)) + sh->radius) * (1.0f + 1e-5f) + 1e-6f;
}

/* Time from t in which a pair touching at t with normal n can come no nearer than h (hf when a
   body's frame bounds it), in the world's frame or a convex body's, whichever bounds it better
   (docs/continuous.md, "Time of impact of a shape pair"). */
static float pass_time(const spx_body* A, const spx_body_shape* ha, const spx_ccd_body* a, const spx_body* B,
                       const spx_body_shape* hb, const spx_ccd_body* b, float t, float t_end, vec3s n, float spin,
                       float h, float hf)
{
    const vec3s dv = glms_vec3_sub(b->v, a->v);
    const float closing = fmaxf(0.0f, -glms_vec3_dot(dv, n)) + spin;
    float best = closing > 0.0f ? h / closing : INFINITY;
    if (ha->type == SPX_SHAPE_MESH || hb->type == SPX_SHAPE_MESH || !(hf > 0.0f)) return best;
    const vec3s d = glms_vec3_sub(center_at(b, t), center_at(a, t));
    const float far = glms_vec3_norm(d) + glms_vec3_norm(dv) * (t_end - t), speed = glms_vec3_norm(dv);
    const float turn = glms_vec3_norm(glms_vec3_sub(b->w, a->w));
    for (int k = 0; k < 2; ++k) {
        const vec3s w = k ? b->w : a->w;
        const float wn = glms_vec3_norm(w);
        const float c1 = fmaxf(0.0f, -glms_vec3_dot(glms_vec3_sub(dv, glms_vec3_cross(w, d)), n)) +
                         turn * (k ? shape_reach(A, ha) : shape_reach(B, hb));
        const float c2 = 2.0f * wn * speed + wn * wn * far;
        /* c1 tau + c2 tau^2 / 2 = h */
        const float root = c1 + sqrtf(c1 * c1 + 2.0f * c2 * hf);
        if (root > 0.0f) best = fmaxf(best, 2.0f * hf / root);
        else return INFINITY;
    }
    return best;
}

static bool pose_mesh_at(const spx_body* b, const spx_body_shape* sh, vec3s c, versors q)
{
    vec3s origin = glms_vec3_sub(c, glms_quat_rotatev(q, b->local_center));
    versors lq = { { sh->mesh_local.q.x, sh->mesh_local.q.y, sh->mesh_local.q.z, sh->mesh_local.q.w } };
    versors mq = glms_quat_mul(q, lq);
    spx_transform pose;
    pose.p = spx_from_glm_vec3(glms_vec3_add(origin, glms_quat_rotatev(q, spx_to_glm_vec3(sh->mesh_local.p))));
    pose.q = spx_from_glm_quat(mq);
    return spx_mesh_instance_set_pose(sh->instance, &pose) == SPX_OK;
}

static bool pose_mesh(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb, float t)
{
    return pose_mesh_at(b, sh, center_at(cb, t), rotation_at(cb, t));
}

/* Growth that holds the shape however the body turns (a cube: 0.37 half extent, not twice its
   radius). A mesh is not grown (its partner takes both): no cap. */
static float growth_cap(const spx_body* b, const spx_body_shape* sh)
{
    if (sh->type != SPX_SHAPE_BOX) return INFINITY;
    float off = glms_vec3_norm(glms_vec3_sub(sh->local_center, b->local_center));
    return (sh->radius + off - least_half(sh)) * (1.0f + 1e-5f) + 1e-6f;
}

/* m: the reach from the segment's spin axis through the centre of mass, which bounds the turn's
   growth (2 sin(a / 2) r): a plank spinning about its long axis reaches 0.06 m, not 1 m. */
static float spin_reach(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb)
{
    const float wn = glms_vec3_norm(cb->w);
    if (!(wn > 0.0f)) return sh->radius;
    const vec3s u = glms_vec3_scale(cb->w, 1.0f / wn);
    const mat3s r = glms_quat_mat3(cb->q);
    const vec3s o = glms_mat3_mulv(r, glms_vec3_sub(sh->local_center, b->local_center));
    const mat3s axes = sh->axes_aligned ? r : glms_mat3_mul(r, sh->local_rotation);
    if (spx_shape_is_round(sh))
        return fminf(sh->radius, spx_round_spin_reach(sh, o, axes.col[1], u) * (1.0f + 1e-5f) + 1e-6f);
    float reach = glms_vec3_norm(glms_vec3_sub(o, glms_vec3_scale(u, glms_vec3_dot(o, u))));
    for (int k = 0; k < 3; ++k) {
        const float c = glms_vec3_dot(axes.col[k], u);
        reach += sh->half_extents.raw[k] * sqrtf(fmaxf(1.0f - c * c, 0.0f));
    }
    return fminf(sh->radius, reach * (1.0f + 1e-5f) + 1e-6f);
}

/* One shape pair swept from t for d s, boxes grown by g. d = 0: touching at t. fixed_a/b: a still
   body's box or NULL. false: a query refused the pose. */
static bool sweep_pair(const spx_body* A, const spx_body_shape* ha, spx_ccd_body* a, const spx_body* B,
                       const spx_body_shape* hb, spx_ccd_body* b, const spx_obb* fixed_a, const spx_obb* fixed_b,
                       float t, float ga, float gb, float d, spx_sweep_hit* out)
{
    const spx_vec3 va = spx_from_glm_vec3(a->v), vb = spx_from_glm_vec3(b->v);
    if (spx_shape_pair_placed(ha, hb)) {
        /* Hulls and meshes give their growth to the other (spx_shape_pair_sweep). */
        const spx_placed_shape pa = { ha, box_at(A, ha, a, t, 0.0f), ga }, pb = { hb, box_at(B, hb, b, t, 0.0f), gb };
        if ((ha->type == SPX_SHAPE_MESH && !pose_mesh(A, ha, a, t)) ||
            (hb->type == SPX_SHAPE_MESH && !pose_mesh(B, hb, b, t)))
            return false;
        return spx_shape_pair_sweep(&pa, va, &pb, vb, d, out);
    }
    if (ha->type == SPX_SHAPE_BOX && hb->type == SPX_SHAPE_BOX) {
        spx_obb oa = fixed_a ? *fixed_a : box_at(A, ha, a, t, ga);
        spx_obb ob = fixed_b ? *fixed_b : box_at(B, hb, b, t, gb);
        /* From normalised rotations: only finiteness is checked. */
        if (!finite_box(&oa) || !finite_box(&ob) || (sum3(va) + sum3(vb) + d) * 0.0f != 0.0f || !(d >= 0.0f))
            return false;
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
    if (spx_sweep_obb_mesh(&box, spx_from_glm_vec3(xc->v), ms->instance, spx_from_glm_vec3(mc->v), d, NULL, 0, &mh) !=
        SPX_OK)
        return false;
    out->state = mh.state;
    out->time = mh.time;
    out->point = mh.point;
    out->normal = box_first ? mh.normal : spx_v3(-mh.normal.x, -mh.normal.y, -mh.normal.z);
    out->depth = mh.depth;
    return true;
}

/* An impact when the shapes approach at a point the impulse will act on: once it has acted the
   contact no longer counts. */
static bool approaching(const spx_world* w, const spx_body* A, const spx_body_shape* ha, const spx_ccd_body* a,
                        const spx_body* B, const spx_body_shape* hb, const spx_ccd_body* b, float t, float dt, vec3s p,
                        vec3s n, bool overlap, float growth, float struck_at, uint32_t repeats, spx_ccd_impact* out,
                        float* closes_in, bool* lasting)
{
    *closes_in = INFINITY;
    *lasting = false;
    const bool again = struck_at >= 0.0f;
    vec3s ca = center_at(a, t), cb = center_at(b, t);
    /* No impact: an approach within the velocities' rounding, or too slow to close
       SPX_CCD_SLOW_FRACTION of the tolerance this step; the solver takes it next step. */
    const float slow = -fmaxf(1e-6f * (glms_vec3_norm(a->v) + glms_vec3_norm(b->v) + glms_vec3_norm(a->w) * ha->radius +
                                       glms_vec3_norm(b->w) * hb->radius),
                              SPX_CCD_SLOW_FRACTION * spx_ccd_pair_tolerance(ha, hb) / dt);
    /* Two meshes: the query's own point first, since their manifold can cost milliseconds. */
    if (ha->type == SPX_SHAPE_MESH && hb->type == SPX_SHAPE_MESH && !(normal_speed(a, b, ca, cb, p, n) < slow))
        return false;
    spx_ccd_impact_points(w, A, ha, ca, rotation_at(a, t), B, hb, cb, rotation_at(b, t), p, &n, overlap, growth,
                          &out->points);
    /* Within tolerance but apart: no point can touch before the separation closes at the fastest
       relative point speed, so step on to then (else a spinner is struck each corner). */
    const float sep = out->points.separation;
    if (again && sep > SPX_CCD_SLOW_FRACTION * spx_ccd_pair_tolerance(ha, hb)) {
        const float reach = glms_vec3_norm(glms_vec3_sub(a->v, b->v)) + glms_vec3_norm(a->w) * ha->radius +
                            glms_vec3_norm(b->w) * hb->radius;
        *closes_in = reach > 0.0f ? sep / reach : INFINITY;
        return false;
    }
    float fastest = INFINITY, speeds[SPX_CCD_IMPACT_POINTS];
    for (uint32_t k = 0; k < out->points.count; ++k) {
        const float speed = normal_speed(a, b, ca, cb, out->points.p[k], n), gap = out->points.gap[k];
        speeds[k] = speed;
        if (gap == 0.0f) fastest = fminf(fastest, speed);
        else if (speed < slow) *closes_in = fminf(*closes_in, gap / -speed);
    }
    if (!(fastest < slow)) return false;
    /* Struck again: if no point can overlap more than SPX_CCD_LASTING_FRACTION by the step's end at
       the gathering rate, the contact lasts: the solver's next step. */
    if (again && repeats >= SPX_CCD_LASTING_REPEATS && t > struck_at) {
        const float left = dt - t, grow = left * (1.0f + 0.5f * left / (t - struck_at));
        const float allowed =
            fminf(SPX_CCD_LASTING_FRACTION * w->def.speculative_distance, 0.5f * spx_ccd_pair_tolerance(ha, hb));
        float deepest = -INFINITY;
        for (uint32_t k = 0; k < out->points.count; ++k)
            deepest = fmaxf(deepest, -speeds[k] * grow - out->points.gap[k]);
        if (deepest <= allowed) {
            *lasting = true;
            return false;
        }
    }
    out->t = t, out->normal = n;
    return true;
}

/* Meshes sunk deeper than the tolerance at the step's start (from the sorted narrow-phase list):
   the solver's to push apart, since the stage never leaves them so deep. */
static bool sunk_meshes(const spx_world* w, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb, float tol)
{
    const spx_contact* list = w->contacts.list;
    uint32_t lo = 0, hi = w->contacts.count;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        const spx_contact* c = &list[mid];
        const bool before = c->body_a != ia    ? c->body_a < ia
                            : c->body_b != ib  ? c->body_b < ib
                            : c->shape_a != sa ? c->shape_a < sa
                                               : c->shape_b < sb;
        if (before) lo = mid + 1;
        else hi = mid;
    }
    for (uint32_t k = lo; k < w->contacts.count; ++k) {
        const spx_contact* c = &list[k];
        if (c->body_a != ia || c->body_b != ib || c->shape_a != sa || c->shape_b != sb) break;
        for (int i = 0; i < c->point_count; ++i)
            if (c->points[i].separation < -tol) return true;
    }
    return false;
}

/* A pair touching at t0 counts when approaching there; at the step's start only if a body was fast
   before the solver (else the solver's contacts own it). */
bool spx_ccd_pair_toi(spx_ccd_stage* s, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb, float t0, float t_end,
                      spx_ccd_impact* out)
{
    const spx_body *A = &s->w->bodies[ia], *B = &s->w->bodies[ib];
    const spx_body_shape *ha = &A->shapes[sa], *hb = &B->shapes[sb];
    spx_ccd_body *a = seg(s, ia), *b = seg(s, ib);
    {
        /* Spheres about the centres move linearly: if they never meet, neither do the shapes. */
        vec3s d0 = glms_vec3_sub(center_at(b, t0), center_at(a, t0)), dv = glms_vec3_sub(b->v, a->v);
        float vv = glms_vec3_dot(dv, dv), tc = 0.0f;
        if (vv > 0.0f) tc = fminf(fmaxf(-glms_vec3_dot(d0, dv) / vv, 0.0f), t_end - t0);
        float reach = (ha->radius + hb->radius) * (1.0f + 1e-5f) + 1e-6f;
        if (glms_vec3_norm2(glms_vec3_add(d0, glms_vec3_scale(dv, tc))) > reach * reach) return false;
        /* Against a still shape: its own box against the other's swept sphere. */
        const spx_ccd_body* still = stationary(a) ? a : stationary(b) ? b : NULL;
        if (still) {
            const spx_ccd_body* mover = still == a ? b : a;
            const spx_body_shape* sh = still == a ? ha : hb;
            const spx_body_shape* mh = still == a ? hb : ha;
            spx_aabb fixed = spx_ccd_shape_aabb(still == a ? A : B, sh, still);
            vec3s p0 = center_at(mover, t0), p1 = center_at(mover, t_end);
            float r = mh->radius * (1.0f + 1e-5f) + 1e-6f;
            for (int k = 0; k < 3; ++k)
                if (fminf(p0.raw[k], p1.raw[k]) - r > fixed.max[k] || fmaxf(p0.raw[k], p1.raw[k]) + r < fixed.min[k])
                    return false;
        }
    }
    /* When either's latest impact was this pair, else -1. */
    float struck_at = -1.0f;
    uint32_t repeats = 0;
    if (A->type == SPX_BODY_DYNAMIC && a->last_partner == ib) struck_at = a->last_t, repeats = a->repeats;
    if (B->type == SPX_BODY_DYNAMIC && b->last_partner == ia)
        struck_at = fmaxf(struck_at, b->last_t), repeats = repeats > b->repeats ? repeats : b->repeats;
    bool lasting;
    /* Boxes, or the meshes' thickness (a mesh may be a sheet). */
    const float tol = spx_ccd_pair_tolerance(ha, hb);
    if (ha->type == SPX_SHAPE_MESH && hb->type == SPX_SHAPE_MESH && !spx_ccd_owns_pair(s->c, ia, ib) &&
        sunk_meshes(s->w, ia, sa, ib, sb, tol))
        return false;
    const float ra = spin_reach(A, ha, a), rb = spin_reach(B, hb, b);
    const float spin = glms_vec3_norm(a->w) * ra + glms_vec3_norm(b->w) * rb; /* m/s */
    /* Keeps the rotation's growth within the tolerance (room for rounding). */
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
        /* At t = 0 a touching pair is the solver's unless the stage took it or a t = 0 impact changed a
           body after the solver. Told first: for sunk meshes the points cost most. */
        if (t0 == 0.0f && !spx_ccd_owns_pair(s->c, ia, ib) && a->stamp != 2 && b->stamp != 2) return false;
        spx_ccd_impact found;
        float closes_in;
        if (approaching(s->w, A, ha, a, B, hb, b, t0, s->dt, spx_to_glm_vec3(hit.point), spx_to_glm_vec3(hit.normal),
                        true, 0.0f, struck_at, repeats, &found, &closes_in, &lasting)) {
            *out = found;
            out->shape_a = sa, out->shape_b = sb;
            return true;
        }
        if (lasting) return false;
        /* Touching and parting: step past (rotation may bring another point round). */
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
        vec3s n = spx_to_glm_vec3(hit.normal), p = spx_to_glm_vec3(hit.point);
        have = true, last_n = n, last_p = p;
        if (ga + gb <= tol) {
            /* Not approaching where it touches: grazing or turning away; with rotation step past. */
            float th = t + tau, closes_in;
            if (approaching(s->w, A, ha, a, B, hb, b, th, s->dt, p, n, hit.state == SPX_SWEEP_START_OVERLAP, ga + gb,
                            struck_at, repeats, out, &closes_in, &lasting)) {
                out->shape_a = sa, out->shape_b = sb;
                return true;
            }
            if (lasting) return false;
            /* Pass the time in which no point comes nearer than half the tolerance; sliding along the
               plane cannot overlap, so only the closing velocity and rotation count. */
            const float pass = pass_time(A, ha, a, B, hb, b, th, t_end, n, spin, 0.5f * tol,
                                         fminf(0.5f * tol, SPX_CCD_FRAME_FRACTION * s->w->def.speculative_distance));
            if (!(pass < INFINITY)) return false;
            /* No further than when a not-yet-touching manifold point would touch at its own approach
               (a rocking box's next corner would else be 4 mm through). */
            t = th + fminf(pass, closes_in);
            span = fine;
            continue;
        }
        /* Under the growth they touch at tau, the real shapes not before: go on in short sub-intervals. */
        t += tau;
        span = fine;
    }
    if (t >= t_end || !have) return false;
    /* Out of iterations: touching here (safe, the impulse stops the approach there). */
    out->t = t, out->normal = last_n, out->points.p[0] = last_p, out->points.gap[0] = 0.0f, out->points.count = 1;
    out->points.separation = 0.0f;
    out->shape_a = sa, out->shape_b = sb;
    return true;
}

/* An open mesh (a ground, a terrain, a wall) has no inside, so two sides. */
static bool is_open(const spx_body_shape* s) { return s->type == SPX_SHAPE_MESH && !s->mesh->closed; }

/* A shape sunk into an open mesh touches both sides: n (A to B) at p is wrong when it points away
   from the other body's centre (else struck up and down to the impact limit). */
static bool wrong_side_of_open(const spx_body_shape* ha, vec3s ca, const spx_body_shape* hb, vec3s cb, vec3s p, vec3s n)
{
    const bool open_a = is_open(ha), open_b = is_open(hb);
    if (open_a == open_b) return false;
    return open_a ? glms_vec3_dot(n, glms_vec3_sub(cb, p)) < 0.0f : glms_vec3_dot(n, glms_vec3_sub(p, ca)) < 0.0f;
}

/* The pair's manifold points at the impact pose when its normal agrees, else the impact's point
   (docs/continuous.md, "Resolution"). */
void spx_ccd_impact_points(const spx_world* w, const spx_body* A, const spx_body_shape* ha, vec3s ca, versors qa,
                           const spx_body* B, const spx_body_shape* hb, vec3s cb, versors qb, vec3s point, vec3s* n,
                           bool overlap, float growth, spx_ccd_points* out)
{
    const float tol = spx_ccd_pair_tolerance(ha, hb);
    spx_manifold ms[SPX_MAX_MESH_MANIFOLDS];
    uint32_t count = 0;
    bool flip = false;
    if (spx_shape_pair_placed(ha, hb)) {
        const spx_placed_shape pa = { ha, shape_box(A, ha, ca, qa, 0.0f), 0.0f },
                               pb = { hb, shape_box(B, hb, cb, qb, 0.0f), 0.0f };
        spx_ccd_body pose;
        memset(&pose, 0, sizeof pose);
        pose.c = ha->type == SPX_SHAPE_MESH ? ca : cb, pose.q = ha->type == SPX_SHAPE_MESH ? qa : qb;
        const spx_body* mb = ha->type == SPX_SHAPE_MESH ? A : B;
        const spx_body_shape* mesh = ha->type == SPX_SHAPE_MESH ? ha : (hb->type == SPX_SHAPE_MESH ? hb : NULL);
        if (!mesh || pose_mesh(mb, mesh, &pose, 0.0f))
            count = spx_shape_pair_manifolds(&pa, &pb, tol, ms, SPX_MAX_MESH_MANIFOLDS, &flip);
    } else if (ha->type == SPX_SHAPE_BOX && hb->type == SPX_SHAPE_BOX) {
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
        if (!pose_mesh(MB, msh, &pose, 0.0f) ||
            spx_manifold_obb_mesh(&box, msh->instance, tol, ms, SPX_MAX_MESH_MANIFOLDS, &count) != SPX_OK)
            count = 0;
    } else {
        /* Only pairs about as near as the growth can be the contact; a wider margin costs milliseconds. */
        const float margin = fminf(tol, 2.0f * growth + 0.05f * tol);
        if (pose_mesh_at(A, ha, ca, qa) && pose_mesh_at(B, hb, cb, qb) && margin >= 0.0f && isfinite(margin))
            spx_manifold_mesh_mesh_buffered(ha->instance, hb->instance, margin, true, w->contacts.mesh_pairs,
                                            w->contacts.mesh_pairs_bytes, ms, SPX_MAX_MESH_MANIFOLDS, &count, NULL);
    }
    if (wrong_side_of_open(ha, ca, hb, cb, point, *n)) *n = glms_vec3_negate(*n);
    /* An overlapping box-mesh sweep's normal is an estimate, blind to coplanar triangles' edges; the
       manifold's is taken when it faces the same way. */
    int best = -1;
    const bool box_mesh = (ha->type == SPX_SHAPE_BOX && hb->type == SPX_SHAPE_MESH) ||
                          (ha->type == SPX_SHAPE_MESH && hb->type == SPX_SHAPE_BOX);
    float best_dot = overlap && box_mesh ? 0.0f : 0.9f;
    for (uint32_t k = 0; k < count; ++k) {
        if (ms[k].point_count == 0) continue;
        vec3s mn = spx_to_glm_vec3(ms[k].normal);
        float d = glms_vec3_dot(flip ? glms_vec3_negate(mn) : mn, *n);
        if (d > best_dot) best_dot = d, best = (int)k;
    }
    out->p[0] = point, out->gap[0] = 0.0f, out->count = 1, out->separation = 0.0f;
    if (best < 0) return;
    const spx_manifold* m = &ms[best];
    /* Depths within a twentieth of the tolerance count as one face, struck at its middle (tessellation
       and rounding; at the deepest few, rings turned into each other). */
    const bool flat = ha->type == SPX_SHAPE_MESH && hb->type == SPX_SHAPE_MESH;
    float deepest = -INFINITY;
    for (int k = 0; k < m->point_count; ++k) deepest = fmaxf(deepest, m->points[k].depth);
    uint32_t used = 0;
    for (int k = 0; k < m->point_count && used < SPX_CCD_IMPACT_POINTS; ++k) {
        float gap = deepest - m->points[k].depth;
        if (gap > tol) continue;
        out->p[used] = spx_to_glm_vec3(m->points[k].point);
        out->gap[used++] = gap <= (flat ? 0.05f : 4e-4f) * tol ? 0.0f : gap;
    }
    out->count = used;
    vec3s mn = spx_to_glm_vec3(m->normal);
    *n = flip ? glms_vec3_negate(mn) : mn;
    /* Two boxes are at least their gap apart: centre distance along n less both reaches (a clipped
       point's depth is no bound). */
    if (ha->type == SPX_SHAPE_BOX && hb->type == SPX_SHAPE_BOX) {
        const spx_obb oa = shape_box(A, ha, ca, qa, 0.0f), ob = shape_box(B, hb, cb, qb, 0.0f);
        float gap = glms_vec3_dot(glms_vec3_sub(spx_to_glm_vec3(ob.center), spx_to_glm_vec3(oa.center)), *n);
        const float* ea = &oa.half_extents.x;
        const float* eb = &ob.half_extents.x;
        for (int k = 0; k < 3; ++k)
            gap -= ea[k] * fabsf(glms_vec3_dot(spx_to_glm_vec3(oa.rotation.col[k]), *n)) +
                   eb[k] * fabsf(glms_vec3_dot(spx_to_glm_vec3(ob.rotation.col[k]), *n));
        out->separation = fmaxf(gap, 0.0f);
    }
}
