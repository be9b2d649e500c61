/* Convex hulls built from fuzzed points, against hulls, boxes, triangles, spheres and capsules through
 * every query of hull.h and round.h: overlap, penetration, sweep, manifold. Properties: building gives
 * a hull or a documented code, and a built hull has finite facts and mass; one error code for the
 * same faulty input whichever query gets it (in the order of base.h); every answer finite; pieces
 * overlapping by more than rounding say so in every query; a box asked as a box and as the hull of
 * its corners overlaps as deep; swapping two hulls keeps the sweep's state and time, but for a
 * touch or a graze within rounding. */
#include "fuzz.h"
#include <sepax/hull.h>

static const spx_obb unit_box = { { 0, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
static const spx_obb far_box = { { 100, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };

enum { KIND_HULL, KIND_BOX, KIND_TRIANGLE, KIND_SPHERE, KIND_CAPSULE, KINDS, MAX_POINTS = 40 };

typedef struct hull_problem {
    int kind;
    spx_placed_hull a; /* the hull: A, or B against a sphere or capsule */
    spx_placed_hull b; /* the other hull (KIND_HULL) */
    spx_obb box;
    spx_triangle tri;
    spx_sphere sphere;
    spx_capsule capsule;
} hull_problem;

/* A cloud: mostly a box's 8 corners and up to 32 more points (a hull with volume), sometimes any points. */
static spx_result fuzz_hull_cloud(fuzz_input* in, spx_hull** out)
{
    spx_vec3 p[MAX_POINTS];
    uint32_t n = 0;
    const uint8_t mode = fuzz_next_byte(in);
    if (mode & 3) { /* half extents of 1/16 to 8 m, or (one in three) any floats */
        /* x, y, z read in turn: arguments of one call would be read in the order each compiler chooses */
        const float hx = (float)(fuzz_next_byte(in) % 128 + 1) / 16.0f;
        const float hy = (float)(fuzz_next_byte(in) % 128 + 1) / 16.0f;
        const float hz = (float)(fuzz_next_byte(in) % 128 + 1) / 16.0f;
        spx_vec3 h = spx_v3(hx, hy, hz);
        if ((mode & 3) == 3) h = fuzz_vec3(in);
        for (int k = 0; k < 8; ++k) p[n++] = spx_v3((k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z);
    }
    const uint32_t extra = (uint32_t)(fuzz_next_byte(in) % (MAX_POINTS - 8 + 1));
    for (uint32_t k = 0; k < extra && n < MAX_POINTS; ++k) p[n++] = fuzz_vec3(in);
    spx_hull_def def = spx_default_hull_def();
    def.points = p;
    def.point_count = n;
    return spx_hull_create(&def, out);
}

static spx_placed_hull fuzz_place(fuzz_input* in, const spx_hull* h)
{
    const spx_obb pose = fuzz_obb(in); /* its centre and rotation; a faulty one must be refused */
    return (spx_placed_hull){ h, pose.center, pose.rotation };
}

/* The code a query must return for a placed hull: its pose checked as a box's. */
static spx_result pose_code(const spx_placed_hull* h)
{
    const spx_obb pose = { h->position, { 1, 1, 1 }, h->rotation };
    return spx_obb_validate(&pose);
}

static spx_result q_overlap(const hull_problem* p, bool* o)
{
    switch (p->kind) {
    case KIND_HULL:
        return spx_overlap_hull_hull(&p->a, &p->b, o);
    case KIND_BOX:
        return spx_overlap_hull_obb(&p->a, &p->box, o);
    case KIND_TRIANGLE:
        return spx_overlap_hull_triangle(&p->a, &p->tri, o);
    case KIND_SPHERE:
        return spx_overlap_sphere_hull(&p->sphere, &p->a, o);
    default:
        return spx_overlap_capsule_hull(&p->capsule, &p->a, o);
    }
}

static spx_result q_penetration(const hull_problem* p, spx_penetration* o)
{
    switch (p->kind) {
    case KIND_HULL:
        return spx_penetration_hull_hull(&p->a, &p->b, o);
    case KIND_BOX:
        return spx_penetration_hull_obb(&p->a, &p->box, o);
    case KIND_TRIANGLE:
        return spx_penetration_hull_triangle(&p->a, &p->tri, o);
    case KIND_SPHERE:
        return spx_penetration_sphere_hull(&p->sphere, &p->a, o);
    default:
        return spx_penetration_capsule_hull(&p->capsule, &p->a, o);
    }
}

/* va moves the first argument of the call, vb the second. */
static spx_result q_sweep(const hull_problem* p, spx_vec3 va, spx_vec3 vb, float tmax, spx_sweep_hit* o)
{
    switch (p->kind) {
    case KIND_HULL:
        return spx_sweep_hull_hull(&p->a, va, &p->b, vb, tmax, o);
    case KIND_BOX:
        return spx_sweep_hull_obb(&p->a, va, &p->box, vb, tmax, o);
    case KIND_TRIANGLE:
        return spx_sweep_hull_triangle(&p->a, va, &p->tri, vb, tmax, o);
    case KIND_SPHERE:
        return spx_sweep_sphere_hull(&p->sphere, va, &p->a, vb, tmax, o);
    default:
        return spx_sweep_capsule_hull(&p->capsule, va, &p->a, vb, tmax, o);
    }
}

static spx_result q_manifold(const hull_problem* p, float margin, spx_manifold* o)
{
    switch (p->kind) {
    case KIND_HULL:
        return spx_manifold_hull_hull(&p->a, &p->b, margin, o);
    case KIND_BOX:
        return spx_manifold_hull_obb(&p->a, &p->box, margin, o);
    case KIND_TRIANGLE:
        return spx_manifold_hull_triangle(&p->a, &p->tri, margin, o);
    case KIND_SPHERE:
        return spx_manifold_sphere_hull(&p->sphere, &p->a, margin, o);
    default:
        return spx_manifold_capsule_hull(&p->capsule, &p->a, margin, o);
    }
}

static float abs_max3(spx_vec3 v) { return fmaxf(fabsf(v.x), fmaxf(fabsf(v.y), fabsf(v.z))); }

/* Largest |coordinate| of a placed hull: its position plus its corners' farthest reach. */
static float hull_reach(const spx_placed_hull* h)
{
    spx_hull_info info;
    if (!h->hull || spx_hull_get_info(h->hull, &info) != SPX_OK) return 0.0f;
    float r = 0.0f;
    for (uint32_t i = 0; i < info.corner_count; ++i) {
        spx_vec3 c;
        spx_hull_get_corner(h->hull, i, &c);
        r = fmaxf(r, abs_max3(c));
    }
    return abs_max3(h->position) + 2.0f * r;
}

static float reach_of(const hull_problem* p)
{
    float r = hull_reach(&p->a);
    switch (p->kind) {
    case KIND_HULL:
        return fmaxf(r, hull_reach(&p->b));
    case KIND_BOX:
        return fmaxf(r, fuzz_box_reach(&p->box));
    case KIND_TRIANGLE:
        return fmaxf(r, fuzz_triangle_reach(&p->tri));
    case KIND_SPHERE:
        return fmaxf(r, abs_max3(p->sphere.center) + 2.0f * p->sphere.radius);
    default:
        return fmaxf(r, fmaxf(abs_max3(p->capsule.p[0]), abs_max3(p->capsule.p[1])) + 2.0f * p->capsule.radius);
    }
}

/* The problem at time t: the call's first piece moved by va, its second by vb. */
static hull_problem moved(const hull_problem* p, spx_vec3 va, spx_vec3 vb, float t)
{
    hull_problem q = *p;
    const bool round = p->kind == KIND_SPHERE || p->kind == KIND_CAPSULE;
    const spx_vec3 vh = round ? vb : va, vo = round ? va : vb;
    q.a.position = fuzz_moved(p->a.position, vh, t);
    q.b.position = fuzz_moved(p->b.position, vo, t);
    q.box.center = fuzz_moved(p->box.center, vo, t);
    for (int j = 0; j < 3; ++j) q.tri.v[j] = fuzz_moved(p->tri.v[j], vo, t);
    q.sphere.center = fuzz_moved(p->sphere.center, vo, t);
    for (int j = 0; j < 2; ++j) q.capsule.p[j] = fuzz_moved(p->capsule.p[j], vo, t);
    return q;
}

/* The depth of a hull problem (m->a) moving at constant velocities, as fuzz_grazes samples it. */
static float problem_depth(const fuzz_moving* m, float t)
{
    const hull_problem q = moved(m->a, m->va, m->vb, t);
    spx_penetration pen;
    return fuzz_depth(q_penetration(&q, &pen), &pen);
}

int fuzz_hull(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    hull_problem p;
    memset(&p, 0, sizeof p);
    p.kind = fuzz_next_byte(&in) % KINDS;
    spx_hull *ha = NULL, *hb = NULL, *box_hull = NULL;
    const spx_result built = fuzz_hull_cloud(&in, &ha);
    FUZZ_CHECK(built == SPX_OK || fuzz_input_code(built) || built == SPX_ERR_FLAT_HULL ||
               built == SPX_ERR_TOO_MANY_CORNERS);
    FUZZ_CHECK((built == SPX_OK) == (ha != NULL));
    p.a = fuzz_place(&in, ha);
    if (p.kind == KIND_HULL) {
        if (fuzz_hull_cloud(&in, &hb) != SPX_OK) hb = NULL;
        p.b = fuzz_place(&in, hb);
    }
    if (p.kind == KIND_BOX) p.box = fuzz_obb(&in);
    if (p.kind == KIND_TRIANGLE) p.tri = fuzz_triangle(&in);
    if (p.kind == KIND_SPHERE) { /* one statement a read: an initializer's elements have no order */
        p.sphere.center = fuzz_vec3(&in);
        p.sphere.radius = fuzz_mostly_positive(&in);
    }
    if (p.kind == KIND_CAPSULE) {
        p.capsule.p[0] = fuzz_vec3(&in);
        p.capsule.p[1] = fuzz_vec3(&in);
        p.capsule.radius = fuzz_mostly_positive(&in);
    }
    const fuzz_motion mo = fuzz_read_motion(&in);
    const float margin = fuzz_mostly_positive(&in);

    if (ha) { /* a built hull's facts: Euler's formula, finite corners in range, a mass or its code */
        spx_hull_info info;
        FUZZ_CHECK(spx_hull_get_info(ha, &info) == SPX_OK);
        FUZZ_CHECK(info.corner_count >= 4 && info.corner_count <= SPX_HULL_MAX_CORNERS && info.face_count >= 4);
        FUZZ_CHECK(info.corner_count - info.edge_count + info.face_count == 2);
        for (uint32_t i = 0; i < info.face_count; ++i) {
            spx_hull_face f;
            FUZZ_CHECK(spx_hull_get_face(ha, i, &f) == SPX_OK);
            FUZZ_CHECK(fuzz_unit(f.normal) && isfinite(f.offset) && f.corner_count >= 3);
        }
        spx_mass_properties mass;
        const spx_result rm = spx_mass_hull(ha, 1000.0f, &mass);
        FUZZ_CHECK(rm == SPX_OK || rm == SPX_ERR_MASS_OUT_OF_RANGE);
        if (rm == SPX_OK) FUZZ_CHECK(isfinite(mass.mass) && mass.mass > 0.0f);
    }

    /* The pieces' code: a hull that was not built is a NULL hull, refused as an argument. */
    const spx_result code_a = ha ? pose_code(&p.a) : SPX_ERR_INVALID_ARGUMENT;
    spx_result code_other = SPX_OK;
    switch (p.kind) {
    case KIND_HULL:
        code_other = hb ? pose_code(&p.b) : SPX_ERR_INVALID_ARGUMENT;
        break;
    case KIND_BOX:
        code_other = spx_obb_validate(&p.box);
        break;
    case KIND_TRIANGLE:
        code_other = spx_triangle_validate(&p.tri);
        break;
    case KIND_SPHERE:
        code_other = spx_sphere_validate(&p.sphere);
        break;
    default:
        code_other = spx_capsule_validate(&p.capsule);
        break;
    }
    const bool round = p.kind == KIND_SPHERE || p.kind == KIND_CAPSULE;
    bool overlap = false;
    spx_penetration pen;
    const spx_result r_pieces = q_overlap(&p, &overlap);
    FUZZ_CHECK(r_pieces == SPX_OK || fuzz_input_code(r_pieces));
    FUZZ_CHECK(q_penetration(&p, &pen) == r_pieces);
    if (code_a != SPX_ERR_INVALID_ARGUMENT && code_other != SPX_ERR_INVALID_ARGUMENT)
        FUZZ_CHECK(r_pieces == (round ? fuzz_first(code_other, code_a) : fuzz_first(code_a, code_other)));
    else FUZZ_CHECK(r_pieces != SPX_OK);

    spx_sweep_hit hit;
    const spx_result r_motion = spx_sweep_obb_obb(&unit_box, mo.va, &far_box, mo.vb, mo.tmax, &hit);
    const spx_result r_sweep = q_sweep(&p, mo.va, mo.vb, mo.tmax, &hit);
    spx_manifold m;
    const spx_result r_margin = spx_manifold_obb_obb(&unit_box, &far_box, margin, &m);
    const spx_result r_manifold = q_manifold(&p, margin, &m);
    if (r_pieces != SPX_ERR_INVALID_ARGUMENT) {
        FUZZ_CHECK(r_sweep == fuzz_first(r_pieces, r_motion));
        FUZZ_CHECK(r_manifold == fuzz_first(r_pieces, r_margin));
    } else {
        FUZZ_CHECK(r_sweep != SPX_OK && r_manifold != SPX_OK);
    }

    const float reach = fmaxf(reach_of(&p), FLT_MIN);
    const float rounding = 1e-4f * reach;
    if (r_pieces == SPX_OK) {
        fuzz_check_penetration(&pen);
        if (pen.overlapping && pen.depth > rounding) FUZZ_CHECK(overlap);
    }
    if (r_sweep == SPX_OK) {
        fuzz_check_hit(&hit, mo.tmax);
        if (pen.overlapping && pen.depth > rounding) FUZZ_CHECK(hit.state == SPX_SWEEP_START_OVERLAP);
    }
    if (r_manifold == SPX_OK) {
        fuzz_check_manifold(&m, margin, rounding);
        if (pen.overlapping && pen.depth > rounding) FUZZ_CHECK(m.point_count >= 1);
    }

    /* A box as a box and as the hull of its corners: as deep, where either is deep. */
    if (p.kind == KIND_BOX && r_pieces == SPX_OK) {
        spx_vec3 c[8];
        spx_obb local = p.box;
        local.center = spx_v3(0, 0, 0);
        local.rotation = unit_box.rotation;
        spx_obb_get_corners(&local, c);
        spx_hull_def def = spx_default_hull_def();
        def.points = c;
        def.point_count = 8;
        if (spx_hull_create(&def, &box_hull) == SPX_OK) {
            const spx_placed_hull as_hull = { box_hull, p.box.center, p.box.rotation };
            spx_penetration other;
            FUZZ_CHECK(spx_penetration_hull_hull(&p.a, &as_hull, &other) == SPX_OK);
            fuzz_check_penetration(&other);
            if (pen.overlapping && pen.depth > rounding) FUZZ_CHECK(other.overlapping);
            if (other.overlapping && other.depth > rounding) FUZZ_CHECK(pen.overlapping);
            if (pen.overlapping && other.overlapping) FUZZ_CHECK(fabsf(pen.depth - other.depth) <= rounding);
        }
    }

    /* Two hulls swapped: the same state and time, but for a touch or a graze within rounding. */
    if (p.kind == KIND_HULL && r_sweep == SPX_OK) {
        hull_problem q = p;
        q.a = p.b, q.b = p.a;
        spx_sweep_hit other;
        FUZZ_CHECK(q_sweep(&q, mo.vb, mo.va, mo.tmax, &other) == SPX_OK);
        fuzz_check_hit(&other, mo.tmax);
        const float slack = fuzz_time_slack(mo.tmax, reach, mo.va, mo.vb, hit.normal, other.normal);
        const fuzz_moving pair = { &p, NULL, mo.va, mo.vb };
        const bool touching =
            pen.overlapping ? pen.depth <= rounding : fuzz_grazes(problem_depth, &pair, 0.0f, slack, rounding);
        const spx_sweep_hit* h = hit.state == SPX_SWEEP_HIT ? &hit : &other;
        const bool graze = h->state == SPX_SWEEP_HIT && fuzz_grazes(problem_depth, &pair, h->time, mo.tmax, rounding);
        if (!graze) {
            FUZZ_CHECK(fuzz_states_may_differ(&hit, &other, touching, slack, mo.tmax));
            if (hit.state == SPX_SWEEP_HIT && other.state == SPX_SWEEP_HIT)
                FUZZ_CHECK(fabsf(hit.time - other.time) <= slack);
        }
    }
    spx_hull_destroy(box_hull);
    spx_hull_destroy(hb);
    spx_hull_destroy(ha);
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_hull)
