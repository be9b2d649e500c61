/* Continuous-stage impacts: one impact's impulse with restitution and friction, acting through the
 * contacts that support its bodies (its group). See docs/continuous.md, "Resolution". */
#include "continuous_stage.h"
#include "island.h"
#include <string.h>

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

/* Passes over the points and supports after the centre's (a box struck onto a resting one needs
   them), until they change by under SPX_CCD_RESOLVE_SETTLED. */
#define SPX_CCD_RESOLVE_PASSES 4
#define SPX_CCD_RESOLVE_POINT_PASSES 64
#define SPX_CCD_RESOLVE_SETTLED 1e-6f
/* From this restitution a non-touching point within the tolerance keeps its own later impact. */
#define SPX_CCD_DEFER_RESTITUTION 0.1f

/* Not spx_body_kinetic_energy: resolve() compares energies within 1e-6, and this form (the world
   inverse inertia the impulse used) rounds with it; the body-frame form loses elastic impacts. */
static float kinetic_energy(const spx_body* b, mat3s inv_inertia)
{
    if (b->type != SPX_BODY_DYNAMIC) return 0.0f;
    vec3s l = glms_mat3_mulv(spx_mat3_inverse(inv_inertia), b->w);
    return 0.5f * b->mass * glms_vec3_norm2(b->v) + 0.5f * glms_vec3_dot(b->w, l);
}

/* One point of an impulse: x pushed along -n, y along +n. An impact's own points join its two
   bodies; a support's one of them and a static or kinematic body. */
typedef struct impact_row {
    spx_body *x, *y;
    const mat3s *ix, *iy;
    vec3s n, tang[2];
    float mu;
    vec3s ra, rb;
    float kn, kt[2];
    float approach; /* before the impact */
    float target;   /* at least */
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

/* Accumulated, clamped passes: normals, then friction (not in the last), so normals end at target. */
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
            for (int d = 0; d < 2; ++d)
                nt[d] = r->kt[d] > 0.0f ? r->jt[d] - glms_vec3_dot(dv, r->tang[d]) / r->kt[d] : r->jt[d];
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

/* An impact's group: bodies its impulse reaches through the solver's contacts; capped (rows: four
   points of sixteen contacts), what lies beyond is met one impact at a time. */
#define SPX_CCD_GROUP_ROWS 64
#define SPX_CCD_GROUP_EDGES 64
/* rad since step start: beyond, a contact's levers and normal no longer hold; it carries nothing. */
#define SPX_CCD_SUPPORT_TURN 0.05f

static const mat3s zero_inertia;

typedef struct group_body {
    spx_body* b;
    uint32_t id;
    vec3s c; /* at the impact's time */
    versors q;
    mat3s ii;     /* world inverse inertia there */
    vec3s v0, w0; /* velocities before the impact */
} group_body;

typedef struct impact_group {
    group_body bodies[SPX_CCD_GROUP_BODIES];
    uint32_t count;
    impact_row rows[SPX_CCD_GROUP_ROWS]; /* impulses unset */
    uint32_t row_count;
    uint32_t edges[SPX_CCD_GROUP_EDGES]; /* to a dynamic body outside */
    uint32_t edge_count;
    uint32_t pair[2]; /* the impact's bodies: its points stand for their links */
    bool dynamic;     /* links to dynamic bodies count (not when elastic) */
    float energy0;    /* before the impact */
} impact_group;

static int group_find(const impact_group* g, uint32_t id)
{
    for (uint32_t k = 0; k < g->count; ++k)
        if (g->bodies[k].id == id) return (int)k;
    return -1;
}

/* Since body j's contacts were made, at the stage's current time. */
static vec3s moved_since_start(spx_ccd_stage* s, uint32_t j)
{
    const spx_body* b = &s->w->bodies[j];
    if (b->type == SPX_BODY_STATIC) return glms_vec3_zero();
    const spx_ccd_body* cb = seg(s, j);
    return glms_vec3_sub(center_at(cb, s->now), cb->moved ? cb->c0 : b->center);
}

static float turned_by(versors q, versors q0) { return 2.0f * acosf(fminf(fabsf(glms_quat_dot(q, q0)), 1.0f)); }

/* A solver contact (entry 2 k + side) or a body's latest impact (SPX_CCD_LINK_IMPACT | body). */
#define SPX_CCD_LINK_IMPACT 0x80000000u
typedef struct impact_link {
    uint32_t a, b;
    vec3s n; /* a to b */
    const vec3s* tang;
    vec3s own_tang[2];
    float mu;
    uint32_t count;
    vec3s ra[SPX_MAX_MANIFOLD_POINTS], rb[SPX_MAX_MANIFOLD_POINTS];
    float gap[SPX_MAX_MANIFOLD_POINTS];
    const spx_body_shape *sa, *sb;
} impact_link;

/* false: a body turned too far since. */
static bool link_of(spx_ccd_stage* s, uint32_t e, impact_link* out)
{
    if (!(e & SPX_CCD_LINK_IMPACT)) {
        const spx_contact* ct = &s->w->contacts.list[e >> 1];
        if (!ct->enabled) return false; /* pre_solve refused */
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
    if (turned_by(rotation_at(ci, s->now), ci->last_q[0]) > SPX_CCD_SUPPORT_TURN ||
        (bj->type != SPX_BODY_STATIC && turned_by(rotation_at(cj, s->now), ci->last_q[1]) > SPX_CCD_SUPPORT_TURN))
        return false;
    out->a = i, out->b = j, out->n = ci->last_n;
    spx_contact_tangents(out->n, out->own_tang);
    out->tang = out->own_tang;
    out->sa = &bi->shapes[ci->last_shape[0]], out->sb = &bj->shapes[ci->last_shape[1]];
    out->mu = sqrtf(out->sa->friction * out->sb->friction);
    const vec3s cj_now = bj->type == SPX_BODY_STATIC ? ci->last_c[1] : center_at(cj, s->now);
    const float closed = glms_vec3_dot(
        glms_vec3_sub(glms_vec3_sub(center_at(ci, s->now), ci->last_c[0]), glms_vec3_sub(cj_now, ci->last_c[1])),
        out->n);
    out->count = ci->last_points.count;
    for (uint32_t p = 0; p < out->count; ++p) {
        out->ra[p] = glms_vec3_sub(ci->last_points.p[p], ci->last_c[0]);
        out->rb[p] = glms_vec3_sub(ci->last_points.p[p], ci->last_c[1]);
        out->gap[p] = ci->last_points.gap[p] - closed;
    }
    return true;
}

/* Touching, or within the speculative distance (closing by the step's end: target -gap / left). */
static bool gap_acts(float gap, float left, float spec) { return gap <= 0.0f || (left > 0.0f && gap < spec); }

/* The rows of link l, whose bodies are in the group or static or kinematic. */
static void group_rows(spx_ccd_stage* s, impact_group* g, const impact_link* l)
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

/* Rows when the other body is static, kinematic or in the group (not the impact's pair); at the
   edge when dynamic and outside. */
static void group_take(spx_ccd_stage* s, impact_group* g, uint32_t m, uint32_t e)
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

/* Its kept solver contacts and its latest impact. */
static void group_gather(spx_ccd_stage* s, impact_group* g, uint32_t m)
{
    const spx_continuous* cc = s->c;
    const group_body* gm = &g->bodies[m];
    if (cc->supports_ready)
        for (uint32_t e = cc->support_first[gm->id]; e != UINT32_MAX; e = cc->support_next[e]) group_take(s, g, m, e);
    if (g->dynamic && gm->id < SPX_CCD_LINK_IMPACT && seg(s, gm->id)->last_partner != UINT32_MAX)
        group_take(s, g, m, SPX_CCD_LINK_IMPACT | gm->id);
}

/* false: the group is full. */
static bool group_add(spx_ccd_stage* s, impact_group* g, uint32_t id, vec3s c, versors q)
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

/* Edge bodies the group pushes faster than an impact's approach join it. True when any joined. */
static bool group_grow(spx_ccd_stage* s, impact_group* g)
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
        const float slow = SPX_CCD_SLOW_FRACTION * spx_ccd_pair_tolerance(l.sa, l.sb) / s->dt;
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

/* head's impulses as given, the group's from zero; the group grows while the impulse pushes its edge. */
static void solve_group(spx_ccd_stage* s, impact_group* g, const impact_row* head, uint32_t head_count, int passes,
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

/* An impact's impulse at its points (n: A to B), acting through its group's contacts too, with
   restitution, friction and the energy check of docs/continuous.md, "Resolution" and "No energy
   added". The group's bodies are in g on return. */
static void resolve(spx_ccd_stage* s, impact_group* g, uint32_t ia, spx_body* A, versors qa, vec3s ca, uint32_t ib,
                    spx_body* B, versors qb, vec3s cb, const spx_body_shape* ha, const spx_body_shape* hb,
                    const spx_ccd_points* pts, vec3s n)
{
    g->count = g->row_count = g->edge_count = 0;
    g->pair[0] = ia, g->pair[1] = ib;
    g->energy0 = 0.0f;
    const mat3s ii_a = inv_inertia_at(A, qa), ii_b = inv_inertia_at(B, qb);
    vec3s tang[2];
    spx_contact_tangents(n, tang);
    /* Mixed as contact.c mixes them. */
    const float mu = sqrtf(ha->friction * hb->friction);
    /* The touching points first, then those with a gap. */
    impact_row centre, rows[SPX_CCD_IMPACT_POINTS];
    float gaps[SPX_CCD_IMPACT_POINTS];
    uint32_t touching = 0, count = 0;
    vec3s mid = glms_vec3_zero();
    float fastest = 0.0f; /* the most negative approach of a touching point */
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t k = 0; k < pts->count; ++k) {
            if ((pts->gap[k] > 0.0f) != (pass == 1)) continue;
            row_init(&rows[count], A, &ii_a, B, &ii_b, n, tang, mu, glms_vec3_sub(pts->p[k], ca),
                     glms_vec3_sub(pts->p[k], cb));
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
    const float e0 = ha->restitution > hb->restitution ? ha->restitution : hb->restitution;
    /* Elastic too when a point within the tolerance will hit this step: stopping it now would take its
       energy (below SPX_CCD_DEFER_RESTITUTION that loss is < 1% and saves an event). */
    float closing = -fastest;
    if (e0 >= SPX_CCD_DEFER_RESTITUTION)
        for (uint32_t k = touching; k < count; ++k)
            if (left > 0.0f && rows[k].approach < -gaps[k] / left) closing = fmaxf(closing, -rows[k].approach);
    const bool elastic = e0 > 0.0f && closing >= s->w->def.restitution_threshold;
    /* Elastic: only static and kinematic supports; a dynamic body taken in would be stopped
       inelastic with it; its own impact, next, keeps its restitution. */
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
            /* Elastic at the centre alone (Newton's law at several points gains energy), or at the most
               approaching point if the centre does not approach; and the group. */
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
        for (uint32_t k = 0; k < g->count; ++k) /* it added energy: again, as above */
            g->bodies[k].b->v = g->bodies[k].v0, g->bodies[k].b->w = g->bodies[k].w0;
    }
}

static bool changed(vec3s a, vec3s b) { return a.x != b.x || a.y != b.y || a.z != b.z; }

void spx_ccd_resolve(spx_ccd_stage* s, uint32_t ia, spx_body* A, versors qa, vec3s ca, uint32_t ib, spx_body* B,
                     versors qb, vec3s cb, const spx_body_shape* ha, const spx_body_shape* hb,
                     const spx_ccd_points* pts, vec3s n, spx_ccd_pushed* pushed)
{
    impact_group g;
    resolve(s, &g, ia, A, qa, ca, ib, B, qb, cb, ha, hb, pts, n);
    /* Pushed bodies go on from the impact too. */
    pushed->count = 0;
    for (uint32_t m = 0; m < g.count; ++m) {
        const group_body* gm = &g.bodies[m];
        if (gm->id == ia || gm->id == ib || (!changed(gm->b->v, gm->v0) && !changed(gm->b->w, gm->w0))) continue;
        pushed->id[pushed->count] = gm->id, pushed->c[pushed->count] = gm->c, pushed->q[pushed->count] = gm->q;
        ++pushed->count;
    }
}

/* Entry 2 k: contact k in body_a's list, 2 k + 1 in body_b's. No room: no groups this step. */
void spx_ccd_link_supports(spx_world* w)
{
    spx_continuous* c = &w->ccd;
    const uint32_t n = w->contacts.count;
    c->supports_ready = false;
    /* Grows with the contacts' own capacity. */
    const uint64_t entries = 2u * (uint64_t)(w->contacts.capacity > n ? w->contacts.capacity : n);
    if (entries >= SPX_CCD_LINK_IMPACT || !spx_reserve(&w->allocator, (void**)&c->support_next, &c->support_capacity,
                                                       (uint32_t)entries, sizeof(uint32_t), 8))
        return;
    for (uint32_t i = 0; i < w->body_slots; ++i) c->support_first[i] = UINT32_MAX;
    for (uint32_t k = 0; k < n; ++k) {
        const spx_contact* ct = &w->contacts.list[k];
        if (ct->point_count == 0 || ct->owner != SPX_CONTACT_SOLVER) continue;
        const uint32_t ends[2] = { ct->body_a, ct->body_b };
        for (uint32_t side = 0; side < 2; ++side) {
            if (w->bodies[ends[side]].type != SPX_BODY_DYNAMIC) continue;
            c->support_next[2 * k + side] = c->support_first[ends[side]];
            c->support_first[ends[side]] = 2 * k + side;
        }
    }
    c->supports_ready = true;
}
