/* The triangle sweeps' float screen (src/collide/triangle_screen.h) never turns a hit into a miss:
   on random and adversarial pairs (touching, apart by about the screen's bound on a face or normal,
   nearly parallel edges, offsets up to 1e4, tiny triangles, segment-like ones), the screened calls
   give exactly the answer of the double tests alone, field by field to the bit, and every pair the
   screen calls apart is a miss of the double test; the hits the screen decides (spx_ts_decide) are
   the double test's too. The screen must also answer some pairs, near its bound among them, and
   decide some hits, or it is checked on nothing. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/cases.h"
#include "collide/sweep_pieces.h"
#include "collide/triangle_screen.h"
#include <math.h>
#include <string.h>

typedef struct screen_counts {
    long cases, screened, near_bound, hits, decided;
} screen_counts;

static bool same_hit(const spx_sweep_hit* x, const spx_sweep_hit* y)
{
    const float fx[8] = {
        x->time, x->normal.x, x->normal.y, x->normal.z, x->point.x, x->point.y, x->point.z, x->depth
    };
    const float fy[8] = {
        y->time, y->normal.x, y->normal.y, y->normal.z, y->point.x, y->point.y, y->point.z, y->depth
    };
    return x->state == y->state && x->axis == y->axis && x->feature_a == y->feature_a && x->feature_b == y->feature_b &&
           memcmp(fx, fy, sizeof fx) == 0;
}

static spx_vec3 v3_add(spx_vec3 a, spx_vec3 b) { return spx_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static spx_vec3 v3_scale(spx_vec3 a, float s) { return spx_v3(a.x * s, a.y * s, a.z * s); }
static spx_vec3 unit_vec(test_case_rng* rng)
{
    double u[3];
    test_case_unit_vector(rng, u);
    return spx_v3((float)u[0], (float)u[1], (float)u[2]);
}

/* A triangle around `at`: size s, corners in random directions; kind 6 of the draw makes it
   segment-like (the third corner on, or 1e-7 off, the line of the first two). */
static spx_triangle random_triangle(test_case_rng* rng, spx_vec3 at, double s, bool segment)
{
    spx_triangle t;
    for (int k = 0; k < 3; ++k) t.v[k] = v3_add(at, v3_scale(unit_vec(rng), (float)s));
    if (segment) {
        const float f = (float)test_case_uniform(rng, -0.5, 1.5), off = (float)(s * 1e-7);
        const spx_vec3 d = v3_add(t.v[1], v3_scale(t.v[0], -1.0f));
        const spx_vec3 dir = unit_vec(rng);
        const bool lifted = test_case_rng_next(rng) & 1;
        t.v[2] = v3_add(v3_add(t.v[0], v3_scale(d, f)), v3_scale(dir, lifted ? off : 0));
    }
    return t;
}

/* B's first corner on `at` at a random time t of [0, tmax]: the whole triangle moved back along its
   motion relative to A. */
static void touch_at(test_case_rng* rng, spx_vec3 at, spx_vec3 va, spx_vec3 vb, float tmax, spx_triangle* b)
{
    const spx_vec3 shift = v3_add(at, v3_scale(b->v[0], -1.0f));
    const float t = (float)test_case_uniform(rng, 0.0, 1.0) * tmax;
    for (int k = 0; k < 3; ++k) b->v[k] = v3_add(v3_add(b->v[k], shift), v3_scale(v3_add(vb, v3_scale(va, -1.0f)), -t));
}

/* The bound's factor for case n: from well inside to well outside the screen's margin. */
static float bound_factor(long n)
{
    static const float f[] = { 0.0f, 0.25f, 0.5f, 0.9f, 1.0f, 1.1f, 2.0f, 8.0f, 64.0f, 1024.0f };
    return f[n % 10];
}

/* Kinds of pairs: 0 random, 1 touching at some time, 2 apart by about the screen's bound, 3 nearly
   parallel edges, 4 offsets up to 1e4, 5 tiny triangles, 6 segment-like triangles. */
static void box_case(long n, spx_obb* a, spx_vec3* va, spx_triangle* b, spx_vec3* vb, float* tmax)
{
    test_case_rng rng = { 0x7c1u + (uint64_t)n * 0x9e3779b97f4a7c15ull };
    const int kind = (int)(n % 7);
    spx_vec3 h;
    h.x = (float)test_case_log_uniform(&rng, 0.05, 2.0);
    h.y = (float)test_case_log_uniform(&rng, 0.05, 2.0);
    h.z = (float)test_case_log_uniform(&rng, 0.05, 2.0);
    const spx_vec3 c = kind == 4 ? test_case_random_vec3(&rng, -1e4, 1e4) : test_case_random_vec3(&rng, -2.0, 2.0);
    const spx_quat q = kind == 3 && (n & 8) ? (spx_quat){ 0, 0, 0, 1 } : test_case_random_quat(&rng);
    spx_obb_from_quat(c, h, q, a);
    *va = test_case_random_vec3(&rng, -3.0, 3.0);
    *vb = test_case_random_vec3(&rng, -3.0, 3.0);
    *tmax = (float)test_case_uniform(&rng, 0.0, 1.0);
    const double size = kind == 5 ? test_case_log_uniform(&rng, 1e-6, 1e-3) : test_case_log_uniform(&rng, 0.01, 3.0);
    /* a point on the box's surface: one face's coordinate at +-h */
    const int face = (int)(test_case_rng_next(&rng) % 3);
    float local[3];
    for (int i = 0; i < 3; ++i) local[i] = (float)test_case_uniform(&rng, -1, 1) * (&h.x)[i];
    const float side = test_case_rng_next(&rng) & 1 ? 1.0f : -1.0f;
    local[face] = side * (&h.x)[face];
    spx_vec3 at = c;
    for (int i = 0; i < 3; ++i) at = v3_add(at, v3_scale(a->rotation.col[i], local[i]));
    const spx_vec3 out = v3_scale(a->rotation.col[face], side);
    *b = random_triangle(&rng, v3_add(at, v3_scale(out, (float)size)), size, kind == 6);
    if (kind == 1 || kind == 5) {
        touch_at(&rng, at, *va, *vb, *tmax, b);
    } else if (kind == 2) {
        /* every corner beyond the face by factor x the screen's bound, moving along the face */
        const float T = 12.0f * (float)size + h.x + h.y + h.z + 3.0f * (fabsf(h.x) + fabsf(h.y) + fabsf(h.z));
        const float gap = bound_factor(n / 7) * T * SPX_TRI_SCREEN_BOUND;
        for (int k = 0; k < 3; ++k) {
            float p[3];
            const spx_vec3 d = v3_add(b->v[k], v3_scale(c, -1.0f));
            for (int i = 0; i < 3; ++i)
                p[i] = d.x * a->rotation.col[i].x + d.y * a->rotation.col[i].y + d.z * a->rotation.col[i].z;
            p[face] = side * ((&h.x)[face] + gap);
            spx_vec3 w = c;
            for (int i = 0; i < 3; ++i) w = v3_add(w, v3_scale(a->rotation.col[i], p[i]));
            b->v[k] = w;
        }
        *vb = *va;
    } else if (kind == 3) {
        /* an edge within 1e-8..1e-2 rad of a box axis */
        const spx_vec3 along = a->rotation.col[(face + 1) % 3];
        const float tilt = (float)test_case_log_uniform(&rng, 1e-8, 1e-2);
        b->v[1] = v3_add(b->v[0], v3_scale(v3_add(along, v3_scale(unit_vec(&rng), tilt)), (float)size));
    }
}

static int check_box(long n, screen_counts* counts)
{
    spx_obb a;
    spx_triangle b;
    spx_vec3 va, vb;
    float tmax;
    box_case(n, &a, &va, &b, &vb, &tmax);
    if (spx_obb_validate(&a) != SPX_OK || spx_triangle_validate(&b) != SPX_OK) return 0;
    spx_sweep_hit got, want;
    TEST_ENSURE(spx_sweep_obb_triangle(&a, va, &b, vb, tmax, &got) == SPX_OK);
    spx_sweep_obb_triangle_exact(&a, va, &b, vb, tmax, &want);
    spx_ts_axes seen;
    const bool apart = spx_box_tri_screen(&a, va, &b, vb, tmax, &seen);
    const bool decided = !apart && tmax > 0.0f && spx_ts_decide(&seen, 4) >= 0;
    ++counts->cases;
    counts->decided += decided && want.state == SPX_SWEEP_HIT;
    counts->screened += apart;
    counts->near_bound += apart && n % 7 == 2 && bound_factor(n / 7) <= 2.0f;
    counts->hits += want.state != SPX_SWEEP_MISS;
    if (!same_hit(&got, &want) || (apart && want.state != SPX_SWEEP_MISS) || (decided && want.state != SPX_SWEEP_HIT)) {
        fprintf(stderr, "box case %ld: screen %d, state %d axis %d time %.9g (double: state %d axis %d time %.9g)\n", n,
                apart, got.state, got.axis, got.time, want.state, want.axis, want.time);
        return 1;
    }
    return 0;
}

/* The same kinds for two triangles; every eighth case with a margin. */
static void tri_case(long n, spx_triangle* a, spx_vec3* va, spx_triangle* b, spx_vec3* vb, float* tmax, float* margin)
{
    test_case_rng rng = { 0x3a9u + (uint64_t)n * 0xbf58476d1ce4e5b9ull };
    const int kind = (int)(n % 7);
    const spx_vec3 c = kind == 4 ? test_case_random_vec3(&rng, -1e4, 1e4) : test_case_random_vec3(&rng, -2.0, 2.0);
    const double sa = test_case_log_uniform(&rng, 0.05, 3.0);
    const double sb = kind == 5 ? test_case_log_uniform(&rng, 1e-6, 1e-3) : test_case_log_uniform(&rng, 0.01, 3.0);
    *a = random_triangle(&rng, c, sa, kind == 6 && (n & 8));
    *va = test_case_random_vec3(&rng, -3.0, 3.0);
    *vb = test_case_random_vec3(&rng, -3.0, 3.0);
    *tmax = (float)test_case_uniform(&rng, 0.0, 1.0);
    *margin = n % 8 == 3 ? (float)test_case_log_uniform(&rng, 1e-4, 0.1) : 0.0f;
    /* a point of A: a random blend of its corners */
    const float u = (float)test_case_uniform(&rng, 0, 1), v = (float)test_case_uniform(&rng, 0, 1 - u);
    const spx_vec3 at = v3_add(a->v[0], v3_add(v3_scale(v3_add(a->v[1], v3_scale(a->v[0], -1)), u),
                                               v3_scale(v3_add(a->v[2], v3_scale(a->v[0], -1)), v)));
    const spx_vec3 e0 = v3_add(a->v[1], v3_scale(a->v[0], -1)), e2 = v3_add(a->v[2], v3_scale(a->v[0], -1));
    spx_vec3 nrm = spx_v3(e0.y * e2.z - e0.z * e2.y, e0.z * e2.x - e0.x * e2.z, e0.x * e2.y - e0.y * e2.x);
    const float len = sqrtf(nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z);
    nrm = len > 0 ? v3_scale(nrm, 1.0f / len) : unit_vec(&rng);
    *b = random_triangle(&rng, v3_add(at, v3_scale(nrm, (float)sb)), sb, kind == 6);
    if (kind == 1 || kind == 5) {
        touch_at(&rng, at, *va, *vb, *tmax, b);
    } else if (kind == 2) {
        /* B in a plane parallel to A's, apart by factor x the bound, moving along it */
        float T = 0;
        for (int k = 0; k < 3; ++k) {
            const spx_vec3 d = v3_add(a->v[k], v3_scale(a->v[0], -1));
            T = fmaxf(T, fabsf(d.x) + fabsf(d.y) + fabsf(d.z));
        }
        T = 2.0f * (T + 3.0f * (float)(sa + sb));
        const float gap = bound_factor(n / 7) * T * SPX_TRI_SCREEN_BOUND;
        const float base = at.x * nrm.x + at.y * nrm.y + at.z * nrm.z;
        for (int k = 0; k < 3; ++k) {
            const float off = b->v[k].x * nrm.x + b->v[k].y * nrm.y + b->v[k].z * nrm.z - base;
            b->v[k] = v3_add(b->v[k], v3_scale(nrm, gap - off));
        }
        *vb = *va;
    } else if (kind == 3) {
        /* B's first edge within 1e-8..1e-2 rad of A's */
        const float tilt = (float)test_case_log_uniform(&rng, 1e-8, 1e-2);
        const spx_vec3 dir = unit_vec(&rng);
        const float along = (float)test_case_uniform(&rng, -1.5, 1.5);
        const float tip = tilt * sqrtf(e0.x * e0.x + e0.y * e0.y + e0.z * e0.z);
        b->v[1] = v3_add(b->v[0], v3_scale(v3_add(e0, v3_scale(dir, tip)), along));
    }
}

static int check_tri(long n, screen_counts* counts)
{
    spx_triangle a, b;
    spx_vec3 va, vb;
    float tmax, margin;
    tri_case(n, &a, &va, &b, &vb, &tmax, &margin);
    if (spx_triangle_validate(&a) != SPX_OK || spx_triangle_validate(&b) != SPX_OK) return 0;
    for (int swap = 0; swap < 2; ++swap) {
        const spx_triangle *p = swap ? &b : &a, *r = swap ? &a : &b;
        const spx_vec3 vp = swap ? vb : va, vr = swap ? va : vb;
        spx_sweep_hit got, want;
        if (margin > 0.0f) spx_sweep_triangle_triangle_margin_checked(p, vp, r, vr, tmax, margin, &got);
        else TEST_ENSURE(spx_sweep_triangle_triangle(p, vp, r, vr, tmax, &got) == SPX_OK);
        spx_sweep_triangle_triangle_exact(p, vp, r, vr, tmax, margin, &want);
        spx_ts_axes seen;
        const bool apart = spx_tri_tri_screen(p, vp, r, vr, tmax, margin, &seen);
        const bool decided = !apart && tmax > 0.0f && spx_ts_decide(&seen, 3) >= 0;
        ++counts->cases;
        counts->decided += decided && want.state == SPX_SWEEP_HIT;
        counts->screened += apart;
        counts->near_bound += apart && n % 7 == 2 && bound_factor(n / 7) <= 2.0f;
        counts->hits += want.state != SPX_SWEEP_MISS;
        if (!same_hit(&got, &want) || (apart && want.state != SPX_SWEEP_MISS) ||
            (decided && want.state != SPX_SWEEP_HIT)) {
            fprintf(stderr,
                    "triangle case %ld (swap %d): screen %d, state %d axis %d time %.9g (double: state %d axis %d "
                    "time %.9g)\n",
                    n, swap, apart, got.state, got.axis, got.time, want.state, want.axis, want.time);
            return 1;
        }
    }
    return 0;
}

static long case_count;

static int report(const char* what, const screen_counts* c)
{
    printf("%s: %ld pairs, %ld hits or overlaps, %ld screened as misses (%ld apart by at most twice the bound), %ld "
           "hits decided in float\n",
           what, c->cases, c->hits, c->screened, c->near_bound, c->decided);
    /* a screen that answers nothing, or nothing near its bound, is checked on nothing */
    return c->screened > c->cases / 10 && c->near_bound > 0 && c->hits > c->cases / 10 && c->decided > c->hits / 10 ? 0
                                                                                                                    : 1;
}

static int test_box_triangle(void)
{
    screen_counts c = { 0 };
    for (long n = 0; n < case_count; ++n)
        if (check_box(n, &c)) return 1;
    return report("box-triangle", &c);
}

static int test_triangle_triangle(void)
{
    screen_counts c = { 0 };
    for (long n = 0; n < case_count; ++n)
        if (check_tri(n, &c)) return 1;
    return report("triangle-triangle", &c);
}

int main(int argc, char** argv)
{
    case_count = test_long_run(argc, argv) ? 2000000 : test_cases(60000);
    int failures = 0;
    TEST_RUN(test_box_triangle, failures);
    TEST_RUN(test_triangle_triangle, failures);
    return failures ? 1 : 0;
}
