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
 * order in the step's rotation (the manifold is rebuilt every step). */
#include "world.h"
#include "solver.h"


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

/* Velocity of body b's point at offset r. */
static inline vec3s point_velocity(const spx_body* b, vec3s r) { return glms_vec3_add(b->v, glms_vec3_cross(b->w, r)); }

static inline void apply(spx_body* b, const spx_solver_body* sb, vec3s r, vec3s p, float sign)
{
    if (b->inv_mass == 0.0f) return;
    b->v = glms_vec3_add(b->v, glms_vec3_scale(p, sign * b->inv_mass));
    b->w = glms_vec3_add(b->w, glms_mat3_mulv(sb->inv_inertia, glms_vec3_scale(glms_vec3_cross(r, p), sign)));
}

/* The lever arms of a point at this moment of the step. Both bodies' anchors were the same world
   point at the step's start; since then each centre has moved by its own dp, and an impulse applied
   at two different points would not conserve angular momentum (a sliding hit turned 7% of it into
   error). Both act at the midpoint of where the two anchors have gone. */
static inline vec3s lever_a(const spx_contact_point* p, const spx_solver_body* sa, const spx_solver_body* sb)
{
    return glms_vec3_add(p->anchor_a, glms_vec3_scale(glms_vec3_sub(sb->dp, sa->dp), 0.5f));
}
static inline vec3s lever_b(const spx_contact_point* p, const spx_solver_body* sa, const spx_solver_body* sb)
{
    return glms_vec3_sub(p->anchor_b, glms_vec3_scale(glms_vec3_sub(sb->dp, sa->dp), 0.5f));
}

/* 1 / (effective mass along d) of the two bodies at their points. */
static float inv_effective_mass(const spx_body* a, const spx_solver_body* sa, vec3s ra, const spx_body* b,
                                const spx_solver_body* sb, vec3s rb, vec3s d)
{
    vec3s ca = glms_vec3_cross(ra, d), cb = glms_vec3_cross(rb, d);
    float k = a->inv_mass + b->inv_mass + glms_vec3_dot(ca, glms_mat3_mulv(sa->inv_inertia, ca))
            + glms_vec3_dot(cb, glms_mat3_mulv(sb->inv_inertia, cb));
    return k > 0.0f ? 1.0f / k : 0.0f;
}

/* A manifold the solver works on: at least one body moves. */
static bool active(const spx_world* w, const spx_contact* c)
{
    const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
    return (a->type == SPX_BODY_DYNAMIC && a->awake) || (b->type == SPX_BODY_DYNAMIC && b->awake);
}

static void prepare(spx_world* w)
{
    spx_solver_body* sbs = w->solver_bodies;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        spx_contact* c = &w->contacts.list[k];
        if (!active(w, c)) continue;
        const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
        const spx_solver_body *sa = &sbs[c->body_a], *sb = &sbs[c->body_b];
        for (int i = 0; i < c->point_count; ++i) {
            spx_contact_point* p = &c->points[i];
            p->normal_mass = inv_effective_mass(a, sa, p->anchor_a, b, sb, p->anchor_b, c->normal);
            p->tangent_mass[0] = inv_effective_mass(a, sa, p->anchor_a, b, sb, p->anchor_b, c->tangent[0]);
            p->tangent_mass[1] = inv_effective_mass(a, sa, p->anchor_a, b, sb, p->anchor_b, c->tangent[1]);
            vec3s dv = glms_vec3_sub(point_velocity(b, p->anchor_b), point_velocity(a, p->anchor_a));
            p->relative_velocity = glms_vec3_dot(dv, c->normal);
            p->max_normal_impulse = 0.0f;
        }
    }
}

static void warm_start(spx_world* w)
{
    spx_solver_body* sbs = w->solver_bodies;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        spx_contact* c = &w->contacts.list[k];
        if (!active(w, c)) continue;
        spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
        const spx_solver_body *sa = &sbs[c->body_a], *sb = &sbs[c->body_b];
        for (int i = 0; i < c->point_count; ++i) {
            const spx_contact_point* p = &c->points[i];
            const vec3s ra = lever_a(p, sa, sb), rb = lever_b(p, sa, sb);
            vec3s impulse = glms_vec3_scale(c->normal, p->normal_impulse);
            impulse = glms_vec3_add(impulse, glms_vec3_scale(c->tangent[0], p->tangent_impulse[0]));
            impulse = glms_vec3_add(impulse, glms_vec3_scale(c->tangent[1], p->tangent_impulse[1]));
            apply(a, sa, ra, impulse, -1.0f);
            apply(b, sb, rb, impulse, 1.0f);
        }
    }
}

static void solve_contacts(spx_world* w, float inv_h, soft dynamic_soft, soft static_soft, bool use_bias)
{
    spx_solver_body* sbs = w->solver_bodies;
    const float max_push = w->def.max_push_speed;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        spx_contact* c = &w->contacts.list[k];
        if (!active(w, c)) continue;
        spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
        const spx_solver_body *sa = &sbs[c->body_a], *sb = &sbs[c->body_b];
        /* Against a body that cannot move the spring may be stiffer: nothing on the other side gives. */
        const soft sf = a->inv_mass == 0.0f || b->inv_mass == 0.0f ? static_soft : dynamic_soft;
        const vec3s n = c->normal;
        /* Each point's approach speed before this manifold's impulses of the pass: one corner's
           impulse turns the body and changes the others' speeds, which must not count as impact. */
        float approach[SPX_MAX_MANIFOLD_POINTS];
        for (int i = 0; i < c->point_count; ++i) {
            const spx_contact_point* p = &c->points[i];
            const vec3s ra = lever_a(p, sa, sb), rb = lever_b(p, sa, sb);
            approach[i] = glms_vec3_dot(glms_vec3_sub(point_velocity(b, rb), point_velocity(a, ra)), n);
        }
        for (int i = 0; i < c->point_count; ++i) {
            spx_contact_point* p = &c->points[i];
            const vec3s ra = lever_a(p, sa, sb), rb = lever_b(p, sa, sb);
            vec3s move_b = glms_vec3_add(sb->dp, glms_vec3_cross(sb->dtheta, p->anchor_b));
            vec3s move_a = glms_vec3_add(sa->dp, glms_vec3_cross(sa->dtheta, p->anchor_a));
            float s = p->separation + glms_vec3_dot(n, glms_vec3_sub(move_b, move_a));
            float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
            if (s > 0.0f) {
                bias = s * inv_h; /* speculative: close the gap, no more */
            } else if (use_bias) {
                /* No slop: every layer of a stack would sink by it (docs/world.md); the damped
                   spring alone keeps resting contacts from jittering. */
                float push = sf.bias_rate * s;
                bias = push > -max_push ? push : -max_push;
                mass_scale = sf.mass_scale;
                impulse_scale = sf.impulse_scale;
            }
            vec3s dv = glms_vec3_sub(point_velocity(b, rb), point_velocity(a, ra));
            float vn = glms_vec3_dot(dv, n);
            float impulse = -p->normal_mass * mass_scale * (vn + bias) - impulse_scale * p->normal_impulse;
            /* Restitution answers the approach speed at impact, which gravity may have raised since
               the step began: the fastest approach met by a solve that has to push (often the relax
               pass of the last substep, stopping a point that would cross its gap in the next). */
            if (impulse > 0.0f && approach[i] < p->relative_velocity) p->relative_velocity = approach[i];
            float total = p->normal_impulse + impulse;
            if (total < 0.0f) total = 0.0f;
            impulse = total - p->normal_impulse;
            p->normal_impulse = total;
            if (total > p->max_normal_impulse) p->max_normal_impulse = total;
            vec3s P = glms_vec3_scale(n, impulse);
            apply(a, sa, ra, P, -1.0f);
            apply(b, sb, rb, P, 1.0f);
        }
        /* Coulomb friction, the two tangents together, clamped to the disk mu * normal impulse. */
        for (int i = 0; i < c->point_count; ++i) {
            spx_contact_point* p = &c->points[i];
            const vec3s ra = lever_a(p, sa, sb), rb = lever_b(p, sa, sb);
            vec3s dv = glms_vec3_sub(point_velocity(b, rb), point_velocity(a, ra));
            float t0 = p->tangent_impulse[0] - p->tangent_mass[0] * glms_vec3_dot(dv, c->tangent[0]);
            float t1 = p->tangent_impulse[1] - p->tangent_mass[1] * glms_vec3_dot(dv, c->tangent[1]);
            float limit = c->friction * p->normal_impulse;
            float len2 = t0 * t0 + t1 * t1;
            if (len2 > limit * limit) {
                float scale = limit / sqrtf(len2);
                t0 *= scale, t1 *= scale;
            }
            vec3s P = glms_vec3_add(glms_vec3_scale(c->tangent[0], t0 - p->tangent_impulse[0]),
                                    glms_vec3_scale(c->tangent[1], t1 - p->tangent_impulse[1]));
            p->tangent_impulse[0] = t0, p->tangent_impulse[1] = t1;
            apply(a, sa, ra, P, -1.0f);
            apply(b, sb, rb, P, 1.0f);
        }
    }
}

/* Sweeps over the bouncing points: one sweep leaves a box that lands flat spinning, its four corners
   solved one after the other; a few sweeps settle the four on one rebound speed. */
#define SPX_RESTITUTION_SWEEPS 4

static void restitution(spx_world* w)
{
    spx_solver_body* sbs = w->solver_bodies;
    const float threshold = w->def.restitution_threshold;
    for (int sweep = 0; sweep < SPX_RESTITUTION_SWEEPS; ++sweep)
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        spx_contact* c = &w->contacts.list[k];
        if (!active(w, c) || c->restitution == 0.0f) continue;
        spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
        const spx_solver_body *sa = &sbs[c->body_a], *sb = &sbs[c->body_b];
        for (int i = 0; i < c->point_count; ++i) {
            spx_contact_point* p = &c->points[i];
            const vec3s ra = lever_a(p, sa, sb), rb = lever_b(p, sa, sb);
            /* Slow approaches do not bounce (they would never settle), nor do points that never pushed. */
            if (p->relative_velocity > -threshold || p->max_normal_impulse == 0.0f) continue;
            vec3s dv = glms_vec3_sub(point_velocity(b, rb), point_velocity(a, ra));
            float vn = glms_vec3_dot(dv, c->normal);
            float impulse = -p->normal_mass * (vn + c->restitution * p->relative_velocity);
            float total = p->normal_impulse + impulse;
            if (total < 0.0f) total = 0.0f;
            impulse = total - p->normal_impulse;
            p->normal_impulse = total;
            vec3s P = glms_vec3_scale(c->normal, impulse);
            apply(a, sa, ra, P, -1.0f);
            apply(b, sb, rb, P, 1.0f);
        }
    }
}

static bool moves(const spx_body* b) { return b->alive && b->awake && b->type != SPX_BODY_STATIC; }

void spx_solve(spx_world* w, float dt)
{
    const uint32_t n = w->body_slots;
    const uint32_t substeps = w->def.substeps;
    spx_solver_body* sbs = w->solver_bodies;
    const float h = dt / (float)substeps;
    const float inv_h = h > 0.0f ? 1.0f / h : 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        sbs[i].dp = glms_vec3_zero();
        sbs[i].dtheta = glms_vec3_zero();
        const spx_body* b = &w->bodies[i];
        if (moves(b) && b->type == SPX_BODY_DYNAMIC) {
            mat3s r = glms_quat_mat3(b->rotation);
            sbs[i].inv_inertia = spx_body_inv_inertia_world(b);
            sbs[i].inertia = glms_mat3_mul(glms_mat3_mul(r, b->inertia_local), glms_mat3_transpose(r));
        } else {
            sbs[i].inv_inertia = sbs[i].inertia = glms_mat3_zero();
        }
    }
    if (dt == 0.0f) return;
    /* The spring may not be stiffer than a quarter of the substep rate, or it rings. */
    float hertz = w->def.contact_hertz;
    if (hertz > 0.25f * inv_h) hertz = 0.25f * inv_h;
    const soft dynamic_soft = make_soft(hertz, w->def.contact_damping_ratio, h);
    const soft static_soft = make_soft(2.0f * hertz, w->def.contact_damping_ratio, h);
    const vec3s g = { { w->def.gravity.x, w->def.gravity.y, w->def.gravity.z } };

    prepare(w);
    for (uint32_t step = 0; step < substeps; ++step) {
        for (uint32_t i = 0; i < n; ++i) {
            spx_body* b = &w->bodies[i];
            if (!moves(b) || b->type != SPX_BODY_DYNAMIC) continue;
            vec3s v = glms_vec3_add(b->v, glms_vec3_scale(g, h * b->gravity_scale));
            b->v = glms_vec3_scale(v, 1.0f / (1.0f + h * b->linear_damping));
            b->w = glms_vec3_scale(b->w, 1.0f / (1.0f + h * b->angular_damping));
        }
        warm_start(w);
        solve_contacts(w, inv_h, dynamic_soft, static_soft, true);
        for (uint32_t i = 0; i < n; ++i) {
            spx_body* b = &w->bodies[i];
            if (!moves(b)) continue;
            vec3s dp = glms_vec3_scale(b->v, h), dth = glms_vec3_scale(b->w, h);
            b->center = glms_vec3_add(b->center, dp);
            sbs[i].dp = glms_vec3_add(sbs[i].dp, dp);
            sbs[i].dtheta = glms_vec3_add(sbs[i].dtheta, dth);
            /* q' = q + h/2 (w, 0) q, normalised: first order, exact for the direction of a small turn. */
            versors q = b->rotation;
            versors wq = { { 0.5f * dth.x, 0.5f * dth.y, 0.5f * dth.z, 0.0f } };
            versors dq = glms_quat_mul(wq, q);
            q.x += dq.x, q.y += dq.y, q.z += dq.z, q.w += dq.w;
            b->rotation = glms_quat_normalize(q);
        }
        solve_contacts(w, inv_h, dynamic_soft, static_soft, false);
    }
    restitution(w);
    /* The step worked with the inertia of its start; the body has turned since. Keeping w would
       change the angular momentum I w of a free asymmetric body as it turns; carrying I w over to
       the new rotation keeps it (the impulses above conserved it with the start's inertia). */
    for (uint32_t i = 0; i < n; ++i) {
        spx_body* b = &w->bodies[i];
        if (!moves(b)) continue;
        if (b->type == SPX_BODY_DYNAMIC)
            b->w = glms_mat3_mulv(spx_body_inv_inertia_world(b), glms_mat3_mulv(sbs[i].inertia, b->w));
        spx_body_sync_origin(b);
    }
}
