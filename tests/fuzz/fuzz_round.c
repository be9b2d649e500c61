/* Spheres and capsules against spheres, capsules, boxes and triangles through every query of round.h:
 * overlap, penetration, sweep, manifold. Properties: one error code for the same faulty input whichever
 * query gets it (in the order of base.h); every answer finite; overlap, penetration and the sweep's
 * start agree; pieces overlapping by more than rounding have manifold points; the same answer with A
 * and B swapped (two spheres, two capsules) and with a capsule's ends swapped, up to rounding. */
#include "fuzz.h"

static const spx_sphere far_sphere = { { 100, 0, 0 }, 1 };
static const spx_sphere home_sphere = { { 0, 0, 0 }, 1 };

typedef struct round_problem {
    int kind; /* 0 sphere-sphere, 1 sphere-capsule, 2 capsule-capsule, 3 sphere-box,
                                  4 capsule-box, 5 sphere-triangle, 6 capsule-triangle */
    spx_sphere s[2];
    spx_capsule c[2];
    spx_obb box;
    spx_triangle tri;
} round_problem;

static float fuzz_radius(fuzz_input* in) { return (fuzz_next_byte(in) & 7) ? fabsf(fuzz_float(in)) : fuzz_float(in); }

/* Centre, then radius (one statement each: an initializer's elements have no order). */
static spx_sphere fuzz_sphere(fuzz_input* in)
{
    spx_sphere s;
    s.center = fuzz_vec3(in);
    s.radius = fuzz_radius(in);
    return s;
}

static spx_capsule fuzz_capsule(fuzz_input* in)
{
    spx_capsule c;
    c.p[0] = fuzz_vec3(in);
    c.p[1] = (fuzz_next_byte(in) & 7) ? fuzz_vec3(in) : c.p[0];
    c.radius = fuzz_radius(in);
    return c;
}

static bool a_is_capsule(int k) { return k == 2 || k == 4 || k == 6; }

static spx_result q_overlap(const round_problem* p, bool* o)
{
    switch (p->kind) {
    case 0:
        return spx_overlap_sphere_sphere(&p->s[0], &p->s[1], o);
    case 1:
        return spx_overlap_sphere_capsule(&p->s[0], &p->c[1], o);
    case 2:
        return spx_overlap_capsule_capsule(&p->c[0], &p->c[1], o);
    case 3:
        return spx_overlap_sphere_obb(&p->s[0], &p->box, o);
    case 4:
        return spx_overlap_capsule_obb(&p->c[0], &p->box, o);
    case 5:
        return spx_overlap_sphere_triangle(&p->s[0], &p->tri, o);
    default:
        return spx_overlap_capsule_triangle(&p->c[0], &p->tri, o);
    }
}

static spx_result q_penetration(const round_problem* p, spx_penetration* o)
{
    switch (p->kind) {
    case 0:
        return spx_penetration_sphere_sphere(&p->s[0], &p->s[1], o);
    case 1:
        return spx_penetration_sphere_capsule(&p->s[0], &p->c[1], o);
    case 2:
        return spx_penetration_capsule_capsule(&p->c[0], &p->c[1], o);
    case 3:
        return spx_penetration_sphere_obb(&p->s[0], &p->box, o);
    case 4:
        return spx_penetration_capsule_obb(&p->c[0], &p->box, o);
    case 5:
        return spx_penetration_sphere_triangle(&p->s[0], &p->tri, o);
    default:
        return spx_penetration_capsule_triangle(&p->c[0], &p->tri, o);
    }
}

static spx_result q_sweep(const round_problem* p, spx_vec3 va, spx_vec3 vb, float tmax, spx_sweep_hit* o)
{
    switch (p->kind) {
    case 0:
        return spx_sweep_sphere_sphere(&p->s[0], va, &p->s[1], vb, tmax, o);
    case 1:
        return spx_sweep_sphere_capsule(&p->s[0], va, &p->c[1], vb, tmax, o);
    case 2:
        return spx_sweep_capsule_capsule(&p->c[0], va, &p->c[1], vb, tmax, o);
    case 3:
        return spx_sweep_sphere_obb(&p->s[0], va, &p->box, vb, tmax, o);
    case 4:
        return spx_sweep_capsule_obb(&p->c[0], va, &p->box, vb, tmax, o);
    case 5:
        return spx_sweep_sphere_triangle(&p->s[0], va, &p->tri, vb, tmax, o);
    default:
        return spx_sweep_capsule_triangle(&p->c[0], va, &p->tri, vb, tmax, o);
    }
}

static spx_result q_manifold(const round_problem* p, float margin, spx_manifold* o)
{
    switch (p->kind) {
    case 0:
        return spx_manifold_sphere_sphere(&p->s[0], &p->s[1], margin, o);
    case 1:
        return spx_manifold_sphere_capsule(&p->s[0], &p->c[1], margin, o);
    case 2:
        return spx_manifold_capsule_capsule(&p->c[0], &p->c[1], margin, o);
    case 3:
        return spx_manifold_sphere_obb(&p->s[0], &p->box, margin, o);
    case 4:
        return spx_manifold_capsule_obb(&p->c[0], &p->box, margin, o);
    case 5:
        return spx_manifold_sphere_triangle(&p->s[0], &p->tri, margin, o);
    default:
        return spx_manifold_capsule_triangle(&p->c[0], &p->tri, margin, o);
    }
}

static float reach_of(const round_problem* p)
{
    float r = 0.0f;
    const spx_vec3 pts[5] = { p->s[0].center, p->s[1].center, p->c[0].p[0], p->c[0].p[1], p->c[1].p[0] };
    for (int i = 0; i < 5; ++i) r = fmaxf(r, fmaxf(fabsf(pts[i].x), fmaxf(fabsf(pts[i].y), fabsf(pts[i].z))));
    r = fmaxf(r, fmaxf(fabsf(p->c[1].p[1].x), fmaxf(fabsf(p->c[1].p[1].y), fabsf(p->c[1].p[1].z))));
    r += 2.0f * fmaxf(fmaxf(p->s[0].radius, p->s[1].radius), fmaxf(p->c[0].radius, p->c[1].radius));
    if (p->kind == 3 || p->kind == 4) r = fmaxf(r, fuzz_box_reach(&p->box));
    if (p->kind >= 5) r = fmaxf(r, fuzz_triangle_reach(&p->tri));
    return r;
}

static spx_vec3 moved(spx_vec3 p, spx_vec3 v, float t) { return spx_v3(p.x + v.x * t, p.y + v.y * t, p.z + v.z * t); }

/* At time t (each piece moved by its velocity), are the pieces within `gap` of touching? A grown by gap. */
static bool within_at(const round_problem* p, spx_vec3 va, spx_vec3 vb, float t, float gap)
{
    round_problem q = *p;
    q.s[0].center = moved(p->s[0].center, va, t);
    q.s[0].radius += gap;
    for (int j = 0; j < 2; ++j) q.c[0].p[j] = moved(p->c[0].p[j], va, t);
    q.c[0].radius += gap;
    q.s[1].center = moved(p->s[1].center, vb, t);
    for (int j = 0; j < 2; ++j) q.c[1].p[j] = moved(p->c[1].p[j], vb, t);
    q.box.center = moved(p->box.center, vb, t);
    for (int j = 0; j < 3; ++j) q.tri.v[j] = moved(p->tri.v[j], vb, t);
    bool o = false;
    return q_overlap(&q, &o) == SPX_OK && o;
}

/* Two answers to one problem asked two ways: the same state and time, up to rounding. A hit that the
   other answer misses may be a graze within rounding (the pieces within 1e-6 of the reach at its time:
   docs/tolerances.md, a graze that never gets deeper). */
static void check_same(const round_problem* p, spx_vec3 va, spx_vec3 vb, const spx_sweep_hit* x, const spx_sweep_hit* y,
                       float tmax, float reach, bool touching)
{
    const float slack = fuzz_time_slack(tmax, reach, va, vb, x->normal, y->normal);
    const spx_sweep_hit* hit = x->state == SPX_SWEEP_HIT ? x : y;
    const spx_sweep_hit* other = hit == x ? y : x;
    if (hit->state == SPX_SWEEP_HIT && other->state == SPX_SWEEP_MISS && within_at(p, va, vb, hit->time, 1e-6f * reach))
        return;
    FUZZ_CHECK(fuzz_states_may_differ(x, y, touching, slack, tmax));
    if (x->state != y->state || x->state == SPX_SWEEP_MISS) return;
    FUZZ_CHECK(fabsf(x->time - y->time) <= slack);
}

int fuzz_round(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    round_problem p;
    memset(&p, 0, sizeof p);
    p.kind = fuzz_next_byte(&in) % 7;
    if (a_is_capsule(p.kind)) p.c[0] = fuzz_capsule(&in);
    else p.s[0] = fuzz_sphere(&in);
    if (p.kind == 0) p.s[1] = fuzz_sphere(&in);
    else if (p.kind <= 2) p.c[1] = fuzz_capsule(&in);
    else if (p.kind <= 4) p.box = fuzz_obb(&in);
    else p.tri = fuzz_triangle(&in);
    const fuzz_motion mo = fuzz_read_motion(&in);
    const float margin = fuzz_mostly_positive(&in);

    bool overlap = false;
    spx_penetration pen;
    const spx_result r_pieces = q_overlap(&p, &overlap);
    FUZZ_CHECK(r_pieces == SPX_OK || fuzz_input_code(r_pieces));
    FUZZ_CHECK(q_penetration(&p, &pen) == r_pieces);
    spx_result r_a = a_is_capsule(p.kind) ? spx_capsule_validate(&p.c[0]) : spx_sphere_validate(&p.s[0]);
    spx_result r_b = p.kind == 0   ? spx_sphere_validate(&p.s[1])
                     : p.kind <= 2 ? spx_capsule_validate(&p.c[1])
                     : p.kind <= 4 ? spx_obb_validate(&p.box)
                                   : spx_triangle_validate(&p.tri);
    FUZZ_CHECK(fuzz_first(r_a, r_b) == r_pieces);

    spx_sweep_hit hit;
    const spx_result r_motion = spx_sweep_sphere_sphere(&home_sphere, mo.va, &far_sphere, mo.vb, mo.tmax, &hit);
    const spx_result r_sweep = q_sweep(&p, mo.va, mo.vb, mo.tmax, &hit);
    FUZZ_CHECK(r_sweep == fuzz_first(r_pieces, r_motion));
    spx_manifold m;
    const spx_result r_margin = spx_manifold_sphere_sphere(&home_sphere, &far_sphere, margin, &m);
    FUZZ_CHECK(q_manifold(&p, margin, &m) == fuzz_first(r_pieces, r_margin));

    const float reach = fmaxf(reach_of(&p), FLT_MIN); /* at least something, for the time slack of zero-size pieces */
    if (r_pieces == SPX_OK) {
        fuzz_check_penetration(&pen);
        FUZZ_CHECK(overlap == pen.overlapping);
    }
    if (r_sweep == SPX_OK) {
        fuzz_check_hit(&hit, mo.tmax);
        FUZZ_CHECK(pen.overlapping == (hit.state == SPX_SWEEP_START_OVERLAP));
        /* Touching within rounding at t = 0, overlapping or apart: either state may come out. */
        const bool touching =
            pen.overlapping ? pen.depth <= 1e-6f * reach : within_at(&p, mo.va, mo.vb, 0.0f, 1e-6f * reach);
        spx_sweep_hit other;
        round_problem q = p;
        if (p.kind == 0 || p.kind == 2) {
            q.s[0] = p.s[1], q.s[1] = p.s[0], q.c[0] = p.c[1], q.c[1] = p.c[0];
            FUZZ_CHECK(q_sweep(&q, mo.vb, mo.va, mo.tmax, &other) == SPX_OK);
            fuzz_check_hit(&other, mo.tmax);
            check_same(&p, mo.va, mo.vb, &hit, &other, mo.tmax, reach, touching);
        }
        if (p.kind == 1 || p.kind == 2 || p.kind == 4 || p.kind == 6) {
            q = p;
            for (int i = 0; i < 2; ++i) q.c[i].p[0] = p.c[i].p[1], q.c[i].p[1] = p.c[i].p[0];
            FUZZ_CHECK(q_sweep(&q, mo.va, mo.vb, mo.tmax, &other) == SPX_OK);
            fuzz_check_hit(&other, mo.tmax);
            check_same(&p, mo.va, mo.vb, &hit, &other, mo.tmax, reach, touching);
        }
    }
    if (r_pieces == SPX_OK && r_margin == SPX_OK) {
        fuzz_check_manifold(&m, margin, 1e-4f * reach);
        if (pen.overlapping && pen.depth > 1e-4f * reach) FUZZ_CHECK(m.point_count >= 1);
    }
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_round)
