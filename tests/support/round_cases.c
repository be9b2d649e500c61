/* Sphere and capsule problems, and their brute-force reference (round_cases.h). */
#include "round_cases.h"
#include "pieces.h"
#include <math.h>
#include <string.h>

static const char* const kind_names[TEST_RP_KIND_COUNT] = { "sphere-sphere",   "sphere-capsule", "capsule-capsule",
                                                            "sphere-box",      "capsule-box",    "sphere-triangle",
                                                            "capsule-triangle" };
static const char* const family_names[TEST_RF_COUNT] = { "random", "grid", "parallel", "degenerate" };

const char* test_round_kind_name(test_round_pair_kind kind) { return kind_names[kind]; }
const char* test_round_family_name(test_round_family family) { return family_names[family]; }
bool test_round_kind_a_is_capsule(test_round_pair_kind k)
{
    return k == TEST_RP_CAPSULE_CAPSULE || k == TEST_RP_CAPSULE_OBB || k == TEST_RP_CAPSULE_TRIANGLE;
}
int test_round_kind_b(test_round_pair_kind k)
{
    switch (k) {
    case TEST_RP_SPHERE_SPHERE:
        return 0;
    case TEST_RP_SPHERE_CAPSULE:
    case TEST_RP_CAPSULE_CAPSULE:
        return 1;
    case TEST_RP_SPHERE_OBB:
    case TEST_RP_CAPSULE_OBB:
        return 2;
    default:
        return 3;
    }
}

static spx_vec3 v3(const double p[3]) { return spx_v3((float)p[0], (float)p[1], (float)p[2]); }
static void rand_point(test_case_rng* g, double s, double out[3])
{
    for (int k = 0; k < 3; ++k) out[k] = test_case_uniform(g, -s, s);
}
static double grid(double x, double step) { return step * floor(x / step + 0.5); }
static spx_vec3 grid3(spx_vec3 v, double step)
{
    return spx_v3((float)grid(v.x, step), (float)grid(v.y, step), (float)grid(v.z, step));
}
static spx_vec3 sub3(spx_vec3 a, spx_vec3 b) { return spx_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static spx_vec3 scale3(spx_vec3 a, double s) { return spx_v3((float)(a.x * s), (float)(a.y * s), (float)(a.z * s)); }

/* Piece i of the case (0 = A, 1 = B) built around centre c. */
static void make_piece(test_round_case* o, int i, int shape, test_case_rng* g, const double c[3])
{
    double dir[3];
    test_case_unit_vector(g, dir);
    if (shape == 0) {
        o->sphere[i].center = v3(c);
        o->sphere[i].radius = (float)test_case_log_uniform(g, 0.02, 1.0);
    } else if (shape == 1) {
        double h = test_case_uniform(g, 0, 1) < 0.1 ? 0.0 : test_case_uniform(g, 0.0, 1.0);
        double p0[3], p1[3];
        for (int k = 0; k < 3; ++k) {
            p0[k] = c[k] - h * dir[k];
            p1[k] = c[k] + h * dir[k];
        }
        o->capsule[i].p[0] = v3(p0);
        o->capsule[i].p[1] = v3(p1);
        o->capsule[i].radius = (float)test_case_log_uniform(g, 0.02, 1.0);
    } else if (shape == 2) {
        const float z = (float)test_case_log_uniform(g, 0.05, 1), y = (float)test_case_log_uniform(g, 0.05, 1),
                    x = (float)test_case_log_uniform(g, 0.05, 1);
        const spx_vec3 he = spx_v3(x, y, z);
        spx_obb_from_quat(v3(c), he, test_case_random_quat(g), &o->box);
    } else {
        bool segment_like = test_case_uniform(g, 0, 1) < 0.05;
        for (int j = 0; j < 3; ++j) {
            double q[3];
            rand_point(g, 1.0, q);
            for (int k = 0; k < 3; ++k) q[k] += c[k];
            o->tri.v[j] = v3(q);
        }
        if (segment_like) o->tri.v[2] = test_add3(o->tri.v[0], scale3(sub3(o->tri.v[1], o->tri.v[0]), 0.3));
        if (spx_triangle_validate(&o->tri) != SPX_OK) o->tri.v[2] = test_add3(o->tri.v[2], spx_v3(0.5f, 0.25f, 0.125f));
    }
}

static int shape_a(test_round_pair_kind k) { return test_round_kind_a_is_capsule(k) ? 1 : 0; }

/* A direction along a feature of B: a box axis or edge, a triangle edge or a line in its plane, the
   other capsule's segment. */
static spx_vec3 feature_direction(const test_round_case* o, test_case_rng* g)
{
    int b = test_round_kind_b(o->kind);
    if (b == 2) return o->box.rotation.col[test_case_rng_next(g) % 3];
    if (b == 3) {
        spx_vec3 e0 = sub3(o->tri.v[1], o->tri.v[0]), e1 = sub3(o->tri.v[2], o->tri.v[0]);
        if (test_case_uniform(g, 0, 1) < 0.5)
            return test_case_uniform(g, 0, 1) < 0.5 ? e0 : sub3(o->tri.v[2], o->tri.v[1]);
        double s = test_case_uniform(g, -1, 1);
        return test_add3(e0, scale3(e1, s));
    }
    if (b == 1) return sub3(o->capsule[1].p[1], o->capsule[1].p[0]);
    double d[3];
    test_case_unit_vector(g, d);
    return v3(d);
}

static void make_random(test_round_pair_kind kind, uint64_t seed, test_round_case* o, test_case_rng* g)
{
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->seed = seed;
    double a[3], dir[3], b[3];
    rand_point(g, 1.0, a);
    test_case_unit_vector(g, dir);
    double dist = test_case_uniform(g, 0.0, 4.0);
    for (int k = 0; k < 3; ++k) b[k] = a[k] + dist * dir[k];
    make_piece(o, 0, shape_a(kind), g, a);
    make_piece(o, 1, test_round_kind_b(kind), g, b);
    o->tmax = (float)test_case_uniform(g, 0.1, 1.0);
    double speed = test_case_uniform(g, 0.5, 6.0), jitter[3], va[3];
    test_case_unit_vector(g, jitter);
    rand_point(g, 0.3 * speed, va);
    double spread = test_case_uniform(g, 0, 0.6);
    double vb[3];
    for (int k = 0; k < 3; ++k) vb[k] = speed * (-dir[k] + spread * jitter[k]);
    o->velocity[0] = v3(va);
    o->velocity[1] = v3(vb);
}

void test_round_case_make(test_round_pair_kind kind, test_round_family family, uint64_t seed, test_round_case* o)
{
    test_case_rng g = { seed * 0x9E3779B97F4A7C15ull + (uint64_t)kind * 7919u + (uint64_t)family * 104729u + 1u };
    make_random(kind, seed, o, &g);
    o->family = family;
    int sa = shape_a(kind), sb = test_round_kind_b(kind);
    if (family == TEST_RF_GRID) {
        const double q = 0.25;
        for (int i = 0; i < 2; ++i) {
            o->sphere[i].center = grid3(o->sphere[i].center, q);
            o->sphere[i].radius = (float)fmax(q, grid(o->sphere[i].radius, q));
            for (int j = 0; j < 2; ++j) o->capsule[i].p[j] = grid3(o->capsule[i].p[j], q);
            o->capsule[i].radius = (float)fmax(q, grid(o->capsule[i].radius, q));
            o->velocity[i] = grid3(o->velocity[i], q);
        }
        spx_vec3 he = grid3(o->box.half_extents, q);
        he = spx_v3(fmaxf(he.x, 0.25f), fmaxf(he.y, 0.25f), fmaxf(he.z, 0.25f));
        spx_obb_from_quat(grid3(o->box.center, q), he, (spx_quat){ 0, 0, 0, 1 }, &o->box);
        for (int j = 0; j < 3; ++j) o->tri.v[j] = grid3(o->tri.v[j], q);
        if (spx_triangle_validate(&o->tri) != SPX_OK) o->tri.v[2] = test_add3(o->tri.v[2], spx_v3(0.25f, 0.5f, 0.0f));
        o->tmax = 1.0f;
    } else if (family == TEST_RF_PARALLEL) {
        if (sa == 1) {
            /* A's segment along a feature of B, moving square to it towards B. */
            spx_vec3 d = feature_direction(o, &g);
            double l = sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
            spx_capsule* c = &o->capsule[0];
            spx_vec3 mid = scale3(test_add3(c->p[0], c->p[1]), 0.5);
            if (!(l > 0.0)) {
                d = spx_v3(1, 0, 0);
                l = 1.0;
            }
            double h = test_case_uniform(&g, 0.1, 1.0) / l;
            c->p[0] = sub3(mid, scale3(d, h));
            c->p[1] = test_add3(mid, scale3(d, h));
        } else {
            /* B's vertex or an edge's middle heading straight for the sphere's centre. */
            spx_vec3 target = o->sphere[0].center, from;
            if (sb == 2) {
                spx_vec3 corners[8];
                spx_obb_get_corners(&o->box, corners);
                int k = (int)(test_case_rng_next(&g) % 8), m = (int)(test_case_rng_next(&g) % 8);
                from = test_case_uniform(&g, 0, 1) < 0.5
                           ? corners[k]
                           : scale3(test_add3(corners[k], corners[k ^ (1 << (m % 3))]), 0.5);
            } else if (sb == 3) {
                int k = (int)(test_case_rng_next(&g) % 3);
                from = test_case_uniform(&g, 0, 1) < 0.5 ? o->tri.v[k]
                                                         : scale3(test_add3(o->tri.v[k], o->tri.v[(k + 1) % 3]), 0.5);
            } else if (sb == 1) {
                from = o->capsule[1].p[test_case_rng_next(&g) % 2];
            } else {
                from = o->sphere[1].center;
            }
            double k = test_case_uniform(&g, 0.5, 1.5) / o->tmax;
            o->velocity[0] = spx_v3(0, 0, 0);
            o->velocity[1] = scale3(sub3(target, from), k);
        }
    } else if (family == TEST_RF_DEGENERATE) {
        switch (seed % 4) {
        case 0:
            o->velocity[0] = o->velocity[1] = spx_v3(0, 0, 0);
            break;
        case 1:
            o->velocity[1] = o->velocity[0];
            break;
        case 2:
            for (int i = 0; i < 2; ++i) o->capsule[i].p[1] = o->capsule[i].p[0];
            break;
        default:
            o->sphere[0].radius = o->capsule[0].radius = 0.0f;
            break;
        }
    }
}

spx_result test_round_case_sweep(const test_round_case* c, spx_sweep_hit* out)
{
    const spx_vec3 va = c->velocity[0], vb = c->velocity[1];
    switch (c->kind) {
    case TEST_RP_SPHERE_SPHERE:
        return spx_sweep_sphere_sphere(&c->sphere[0], va, &c->sphere[1], vb, c->tmax, out);
    case TEST_RP_SPHERE_CAPSULE:
        return spx_sweep_sphere_capsule(&c->sphere[0], va, &c->capsule[1], vb, c->tmax, out);
    case TEST_RP_CAPSULE_CAPSULE:
        return spx_sweep_capsule_capsule(&c->capsule[0], va, &c->capsule[1], vb, c->tmax, out);
    case TEST_RP_SPHERE_OBB:
        return spx_sweep_sphere_obb(&c->sphere[0], va, &c->box, vb, c->tmax, out);
    case TEST_RP_CAPSULE_OBB:
        return spx_sweep_capsule_obb(&c->capsule[0], va, &c->box, vb, c->tmax, out);
    case TEST_RP_SPHERE_TRIANGLE:
        return spx_sweep_sphere_triangle(&c->sphere[0], va, &c->tri, vb, c->tmax, out);
    default:
        return spx_sweep_capsule_triangle(&c->capsule[0], va, &c->tri, vb, c->tmax, out);
    }
}

spx_result test_round_case_penetration(const test_round_case* c, spx_penetration* out)
{
    switch (c->kind) {
    case TEST_RP_SPHERE_SPHERE:
        return spx_penetration_sphere_sphere(&c->sphere[0], &c->sphere[1], out);
    case TEST_RP_SPHERE_CAPSULE:
        return spx_penetration_sphere_capsule(&c->sphere[0], &c->capsule[1], out);
    case TEST_RP_CAPSULE_CAPSULE:
        return spx_penetration_capsule_capsule(&c->capsule[0], &c->capsule[1], out);
    case TEST_RP_SPHERE_OBB:
        return spx_penetration_sphere_obb(&c->sphere[0], &c->box, out);
    case TEST_RP_CAPSULE_OBB:
        return spx_penetration_capsule_obb(&c->capsule[0], &c->box, out);
    case TEST_RP_SPHERE_TRIANGLE:
        return spx_penetration_sphere_triangle(&c->sphere[0], &c->tri, out);
    default:
        return spx_penetration_capsule_triangle(&c->capsule[0], &c->tri, out);
    }
}

spx_result test_round_case_overlap(const test_round_case* c, bool* out)
{
    switch (c->kind) {
    case TEST_RP_SPHERE_SPHERE:
        return spx_overlap_sphere_sphere(&c->sphere[0], &c->sphere[1], out);
    case TEST_RP_SPHERE_CAPSULE:
        return spx_overlap_sphere_capsule(&c->sphere[0], &c->capsule[1], out);
    case TEST_RP_CAPSULE_CAPSULE:
        return spx_overlap_capsule_capsule(&c->capsule[0], &c->capsule[1], out);
    case TEST_RP_SPHERE_OBB:
        return spx_overlap_sphere_obb(&c->sphere[0], &c->box, out);
    case TEST_RP_CAPSULE_OBB:
        return spx_overlap_capsule_obb(&c->capsule[0], &c->box, out);
    case TEST_RP_SPHERE_TRIANGLE:
        return spx_overlap_sphere_triangle(&c->sphere[0], &c->tri, out);
    default:
        return spx_overlap_capsule_triangle(&c->capsule[0], &c->tri, out);
    }
}

spx_result test_round_case_manifold(const test_round_case* c, float margin, spx_manifold* out)
{
    switch (c->kind) {
    case TEST_RP_SPHERE_SPHERE:
        return spx_manifold_sphere_sphere(&c->sphere[0], &c->sphere[1], margin, out);
    case TEST_RP_SPHERE_CAPSULE:
        return spx_manifold_sphere_capsule(&c->sphere[0], &c->capsule[1], margin, out);
    case TEST_RP_CAPSULE_CAPSULE:
        return spx_manifold_capsule_capsule(&c->capsule[0], &c->capsule[1], margin, out);
    case TEST_RP_SPHERE_OBB:
        return spx_manifold_sphere_obb(&c->sphere[0], &c->box, margin, out);
    case TEST_RP_CAPSULE_OBB:
        return spx_manifold_capsule_obb(&c->capsule[0], &c->box, margin, out);
    case TEST_RP_SPHERE_TRIANGLE:
        return spx_manifold_sphere_triangle(&c->sphere[0], &c->tri, margin, out);
    default:
        return spx_manifold_capsule_triangle(&c->capsule[0], &c->tri, margin, out);
    }
}

void test_round_case_swap(const test_round_case* in, test_round_case* out)
{
    *out = *in;
    out->sphere[0] = in->sphere[1];
    out->sphere[1] = in->sphere[0];
    out->capsule[0] = in->capsule[1];
    out->capsule[1] = in->capsule[0];
    out->velocity[0] = in->velocity[1];
    out->velocity[1] = in->velocity[0];
}

void test_round_case_move(const test_round_case* in, spx_vec3 offset, spx_vec3 velocity, test_round_case* out)
{
    *out = *in;
    for (int i = 0; i < 2; ++i) {
        out->sphere[i].center = test_add3(in->sphere[i].center, offset);
        for (int j = 0; j < 2; ++j) out->capsule[i].p[j] = test_add3(in->capsule[i].p[j], offset);
        out->velocity[i] = test_add3(in->velocity[i], velocity);
    }
    out->box.center = test_add3(in->box.center, offset);
    for (int j = 0; j < 3; ++j) out->tri.v[j] = test_add3(in->tri.v[j], offset);
}

void test_round_case_flip_capsules(const test_round_case* in, test_round_case* out)
{
    *out = *in;
    for (int i = 0; i < 2; ++i) {
        out->capsule[i].p[0] = in->capsule[i].p[1];
        out->capsule[i].p[1] = in->capsule[i].p[0];
    }
}

void test_round_case_snap(const test_round_case* in, test_round_case* out)
{
    const double q = 1.0 / 1024.0, qv = 1.0 / 64.0;
    *out = *in;
    for (int i = 0; i < 2; ++i) {
        out->sphere[i].center = grid3(in->sphere[i].center, q);
        for (int j = 0; j < 2; ++j) out->capsule[i].p[j] = grid3(in->capsule[i].p[j], q);
        out->velocity[i] = grid3(in->velocity[i], qv);
    }
    out->box.center = grid3(in->box.center, q);
    for (int j = 0; j < 3; ++j) out->tri.v[j] = grid3(in->tri.v[j], q);
    if (spx_triangle_validate(&out->tri) != SPX_OK) out->tri = in->tri;
    out->tmax = (float)fmax(qv, grid(in->tmax, qv));
}

/* ---- the reference -------------------------------------------------------------------------------- */

static void piece_segment(spx_vec3 p0, spx_vec3 p1, test_ref_piece* out)
{
    double a[3] = { p0.x, p0.y, p0.z }, b[3] = { p1.x, p1.y, p1.z };
    test_ref_piece_from_point(a, out);
    if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2]) return;
    out->count = 2;
    out->edge_count = 1;
    for (int k = 0; k < 3; ++k) {
        out->v[1][k] = b[k];
        out->edge[0][k] = b[k] - a[k];
    }
}

static double piece_diameter(const test_ref_piece* p)
{
    double d = 0.0;
    for (int i = 0; i < p->count; ++i)
        for (int j = i + 1; j < p->count; ++j) {
            double s = 0.0;
            for (int k = 0; k < 3; ++k) s += (p->v[i][k] - p->v[j][k]) * (p->v[i][k] - p->v[j][k]);
            d = fmax(d, sqrt(s));
        }
    return d;
}

void test_round_ref_make(const test_round_case* c, test_round_ref* out)
{
    memset(out, 0, sizeof *out);
    test_ref_problem* p = &out->p;
    if (test_round_kind_a_is_capsule(c->kind)) {
        piece_segment(c->capsule[0].p[0], c->capsule[0].p[1], &p->a);
        out->ra = c->capsule[0].radius;
    } else {
        piece_segment(c->sphere[0].center, c->sphere[0].center, &p->a);
        out->ra = c->sphere[0].radius;
    }
    switch (test_round_kind_b(c->kind)) {
    case 0:
        piece_segment(c->sphere[1].center, c->sphere[1].center, &p->b);
        out->rb = c->sphere[1].radius;
        break;
    case 1:
        piece_segment(c->capsule[1].p[0], c->capsule[1].p[1], &p->b);
        out->rb = c->capsule[1].radius;
        break;
    case 2:
        test_ref_piece_from_obb(&c->box, &p->b);
        break;
    default:
        test_ref_piece_from_triangle(&c->tri, &p->b);
        break;
    }
    const spx_vec3 va = c->velocity[0], vb = c->velocity[1];
    p->va[0] = va.x;
    p->va[1] = va.y;
    p->va[2] = va.z;
    p->vb[0] = vb.x;
    p->vb[1] = vb.y;
    p->vb[2] = vb.z;
    p->tmax = c->tmax;
    test_ref_candidate_axes(&p->a, &p->b, &p->axes);
    double w[3] = { p->vb[0] - p->va[0], p->vb[1] - p->va[1], p->vb[2] - p->va[2] };
    double s = fmax(piece_diameter(&p->a) + 2.0 * out->ra, piece_diameter(&p->b) + 2.0 * out->rb);
    s = fmax(s, sqrt(test_ref_dot(p->va, p->va)) * p->tmax);
    s = fmax(s, sqrt(test_ref_dot(p->vb, p->vb)) * p->tmax);
    s = fmax(s, sqrt(test_ref_dot(w, w)) * p->tmax);
    p->size = s;
}

double test_round_ref_sd(const test_round_ref* r, double t, test_ref_distance* d)
{
    return test_ref_signed_distance(&r->p, t, d) - (r->ra + r->rb);
}

double test_round_ref_point_distance(const test_round_ref* r, int which, const double point[3], double t)
{
    return fmax(0.0, test_ref_point_distance(&r->p, which, point, t) - (which == 0 ? r->ra : r->rb));
}

/* First t in [t0, t1] with sd <= 0, given sd(t0) > 0 >= sd(t1): sd is convex, so it is an interval's end. */
static double bisect(const test_round_ref* r, double t0, double t1)
{
    for (int i = 0; i < 200 && t1 - t0 > 1e-17 * r->p.tmax; ++i) {
        double m = 0.5 * (t0 + t1);
        if (test_round_ref_sd(r, m, NULL) <= 0.0) t1 = m;
        else t0 = m;
    }
    return t1;
}

#define REF_STEPS 96

static double round_sd(const void* r, double t) { return test_round_ref_sd(r, t, NULL); }

void test_round_ref_solve(const test_round_ref* r, test_round_ref_sweep* out)
{
    memset(out, 0, sizeof *out);
    const double T = r->p.tmax, R = r->ra + r->rb;
    test_ref_distance d;
    out->sd0 = test_round_ref_sd(r, 0.0, &d);
    if (out->sd0 <= 0.0) {
        out->state = TEST_REF_START_OVERLAP;
        out->depth = -out->sd0;
        if (d.distance > 0.0) {
            for (int k = 0; k < 3; ++k) out->normal[k] = d.direction[k];
        } else {
            test_ref_penetration pen;
            test_ref_penetration_at(&r->p, 0.0, &pen);
            /* Cores that meet: the least-overlap axis, when no other (nor its opposite) comes close. */
            if (r->p.axes.count > 0 && pen.second - pen.depth > 1e-6 * r->p.size)
                for (int k = 0; k < 3; ++k) out->normal[k] = pen.normal[k];
        }
        out->sd_min = out->sd0;
        return;
    }
    /* Fine steps, then the smallest value between the best steps (golden section: sd is convex). */
    double best = out->sd0, tb = 0.0, prev = 0.0, hit_at = -1.0;
    for (int i = 1; i <= REF_STEPS && T > 0.0; ++i) {
        double t = T * i / REF_STEPS, s = test_round_ref_sd(r, t, NULL);
        if (s < best) {
            best = s;
            tb = t;
        }
        if (s <= 0.0) {
            hit_at = bisect(r, prev, t);
            break;
        }
        prev = t;
    }
    if (hit_at < 0.0 && T > 0.0) {
        double lo = fmax(0.0, tb - T / REF_STEPS), hi = fmin(T, tb + T / REF_STEPS);
        const test_ref_golden s = test_ref_golden_search(round_sd, r, lo, hi, 90, -1.0, false, NULL);
        double tm = s.f1 < s.f2 ? s.x1 : s.x2, fm = fmin(s.f1, s.f2);
        if (fm < best) {
            best = fm;
            tb = tm;
        }
        if (best <= 0.0) hit_at = bisect(r, fmax(0.0, tb - T / REF_STEPS), tb);
    }
    out->sd_min = best;
    if (hit_at < 0.0) {
        out->state = TEST_REF_MISS;
        return;
    }
    out->state = TEST_REF_HIT;
    out->time = hit_at;
    test_round_ref_sd(r, hit_at, &d);
    if (d.distance > 1e-9 * r->p.size && R > 0.0)
        for (int k = 0; k < 3; ++k) {
            out->normal[k] = d.direction[k];
            out->point[k] = d.point_a[k] + r->ra * d.direction[k];
        }
}
