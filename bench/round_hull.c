/* sepax_bench round, third table: spheres and capsules against convex hulls (spx_*_sphere_hull,
   spx_*_capsule_hull), ns a query on 4,096 random problems a kind of a fixed seed: hulls of 16 random
   points in a squashed box (about 12 corners), turned at random; spheres and capsules aimed at them
   so that about a third each hit, miss and start overlapping. With -DSEPAX_BENCH_PEERS=ON beside
   Bullet (btConvexHullShape against btSphereShape or btCapsuleShape: btGjkPairDetector for the
   static question, btGjkConvexCast for the swept one) and FCL (fcl::Convex against fcl::Sphere or
   fcl::Capsule, fcl::collide through its GJK), with how often their yes/no agrees with sepax's. */
#include "round_hull.h"
#include "timer.h"
#include "support/cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PROBLEMS 4096
#define HULLS 64 /* problems share hulls, as bodies share a built hull */
#define POINTS 16

typedef struct context {
    const bench_round_hull_problem* p;
    void* peer;
} context;

static double sink;

static spx_sphere sphere_of(const bench_round_hull_problem* p) { return (spx_sphere){ p->a.p[0], p->a.radius }; }

typedef enum query_kind { QUERY_SWEEP, QUERY_PENETRATION, QUERY_OVERLAP, QUERY_MANIFOLD } query_kind;

/* Every problem through one query, sphere or capsule as the problem has it: out[i] the answer's kind
   (sweep state, overlapping, point count), a number of it into the sink; the failed calls counted. */
static size_t pass_query(const context* c, query_kind kind, uint8_t* out)
{
    size_t errors = 0;
    for (size_t i = 0; i < PROBLEMS; ++i) {
        const bench_round_hull_problem* p = &c->p[i];
        const spx_sphere s = sphere_of(p);
        spx_result r = SPX_OK;
        switch (kind) {
        case QUERY_SWEEP: {
            spx_sweep_hit h = { .state = SPX_SWEEP_MISS };
            r = p->capsule ? spx_sweep_capsule_hull(&p->a, p->va, &p->b, p->vb, p->tmax, &h)
                           : spx_sweep_sphere_hull(&s, p->va, &p->b, p->vb, p->tmax, &h);
            out[i] = (uint8_t)h.state;
            sink += h.time;
            break;
        }
        case QUERY_PENETRATION: {
            spx_penetration pen = { .overlapping = false };
            r = p->capsule ? spx_penetration_capsule_hull(&p->a, &p->b, &pen)
                           : spx_penetration_sphere_hull(&s, &p->b, &pen);
            out[i] = pen.overlapping;
            sink += pen.depth;
            break;
        }
        case QUERY_OVERLAP: {
            bool overlap = false;
            r = p->capsule ? spx_overlap_capsule_hull(&p->a, &p->b, &overlap)
                           : spx_overlap_sphere_hull(&s, &p->b, &overlap);
            out[i] = overlap;
            break;
        }
        case QUERY_MANIFOLD: {
            spx_manifold m = { .point_count = 0 };
            r = p->capsule ? spx_manifold_capsule_hull(&p->a, &p->b, 0.0f, &m)
                           : spx_manifold_sphere_hull(&s, &p->b, 0.0f, &m);
            out[i] = (uint8_t)m.point_count;
            sink += m.point_count ? m.points[0].depth : 0.0f;
            break;
        }
        }
        errors += r != SPX_OK;
    }
    return errors;
}

static size_t pass_sweep(void* v, uint8_t* out) { return pass_query(v, QUERY_SWEEP, out); }
static size_t pass_penetration(void* v, uint8_t* out) { return pass_query(v, QUERY_PENETRATION, out); }
static size_t pass_overlap(void* v, uint8_t* out) { return pass_query(v, QUERY_OVERLAP, out); }
static size_t pass_manifold(void* v, uint8_t* out) { return pass_query(v, QUERY_MANIFOLD, out); }

#if defined(SPX_BENCH_HAVE_BULLET)
static size_t pass_bullet_overlap(void* v, uint8_t* out)
{
    bench_round_hull_bullet_overlap(((context*)v)->peer, PROBLEMS, out);
    return 0;
}
static size_t pass_bullet_sweep(void* v, uint8_t* out)
{
    bench_round_hull_bullet_sweep(((context*)v)->peer, PROBLEMS, out);
    return 0;
}
#endif
#if defined(SPX_BENCH_HAVE_FCL)
static size_t pass_fcl_overlap(void* v, uint8_t* out)
{
    bench_round_hull_fcl_overlap(((context*)v)->peer, PROBLEMS, out);
    return 0;
}
#endif

static spx_vec3 add3(spx_vec3 a, spx_vec3 b) { return spx_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static spx_vec3 sc3(spx_vec3 a, float s) { return spx_v3(a.x * s, a.y * s, a.z * s); }

static bool make_hulls(spx_hull* hulls[HULLS])
{
    test_case_rng g = { 0x5EED4011ull };
    for (int k = 0; k < HULLS; ++k) {
        spx_vec3 cloud[POINTS];
        const double sx = test_case_uniform(&g, 0.3, 1.0), sy = test_case_uniform(&g, 0.3, 1.0),
                     sz = test_case_uniform(&g, 0.2, 1.0);
        for (int i = 0; i < POINTS; ++i) {
            const float z = (float)test_case_uniform(&g, -sz, sz), y = (float)test_case_uniform(&g, -sy, sy);
            cloud[i] = spx_v3((float)test_case_uniform(&g, -sx, sx), y, z);
        }
        spx_hull_def def = spx_default_hull_def();
        def.points = cloud;
        def.point_count = POINTS;
        hulls[k] = NULL;
        if (spx_hull_create(&def, &hulls[k]) != SPX_OK) return false;
    }
    return true;
}

static void make_problem(bool capsule, uint64_t seed, spx_hull* const hulls[HULLS], bench_round_hull_problem* p)
{
    test_case_rng g = { seed * 0x9E3779B97F4A7C15ull + (capsule ? 77u : 0u) };
    spx_obb pose;
    const spx_quat turn = test_case_random_quat(&g);
    spx_obb_from_quat(test_case_random_vec3(&g, -0.5, 0.5), spx_v3(1, 1, 1), turn, &pose);
    p->b = (spx_placed_hull){ hulls[seed % HULLS], pose.center, pose.rotation };
    p->capsule = capsule;
    p->a.radius = (float)test_case_uniform(&g, 0.05, 0.5);
    spx_vec3 dir = test_case_random_vec3(&g, -1.0, 1.0);
    dir = sc3(dir, 1.0f / (sqrtf(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z) + 1e-6f));
    const float away = (float)test_case_uniform(&g, 0.3, 3.0);
    p->a.p[0] = add3(add3(pose.center, test_case_random_vec3(&g, -0.3, 0.3)), sc3(dir, away));
    p->a.p[1] = capsule ? add3(p->a.p[0], test_case_random_vec3(&g, -0.6, 0.6)) : p->a.p[0];
    const spx_vec3 drift = test_case_random_vec3(&g, -0.3, 0.3);
    p->va = add3(sc3(dir, -away * (float)test_case_uniform(&g, 0.3, 1.3)), drift);
    p->vb = test_case_random_vec3(&g, -0.3, 0.3);
    p->tmax = 1.0f;
}

static int agree_percent(const uint8_t* a, const uint8_t* b, bool swept, double* out)
{
    int agree = 0, n = 0;
    for (size_t i = 0; i < PROBLEMS; ++i) {
        /* Swept: sepax's start overlaps are left out (a cast reports no time for them). */
        if (swept && a[i] == SPX_SWEEP_START_OVERLAP) continue;
        ++n;
        agree += (a[i] != 0) == (b[i] != 0);
    }
    *out = 100.0 * agree / (n ? n : 1);
    return n;
}

int bench_round_hull_table(int runs, double min_ms, bool peers)
{
    static bench_round_hull_problem problems[PROBLEMS];
    static uint8_t swept[PROBLEMS], still[PROBLEMS], out[PROBLEMS];
    spx_hull* hulls[HULLS];
    int status = 0;
    (void)peers;
    if (!make_hulls(hulls)) {
        printf("\nround-hull: a hull could not be built\n");
        return 3;
    }
    printf("\nspheres and capsules against hulls of %d random points (%d hulls, %d problems a kind)\n\n", POINTS, HULLS,
           PROBLEMS);
    printf("| pair | engine | query | ns | agrees with sepax |\n| --- | --- | --- | --- | --- |\n");
    for (int k = 0; k < 2; ++k) {
        const char* pair = k ? "capsule-hull" : "sphere-hull";
        for (size_t i = 0; i < PROBLEMS; ++i) make_problem(k == 1, i, hulls, &problems[i]);
        context c = { problems, NULL };
        const struct {
            const char* name;
            bench_pass_fn* pass;
            uint8_t* out;
        } rows[] = { { "sweep", pass_sweep, swept },
                     { "overlap", pass_overlap, still },
                     { "penetration", pass_penetration, out },
                     { "manifold", pass_manifold, out } };
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r) {
            const bench_timing t = bench_measure(runs, min_ms, PROBLEMS, rows[r].pass, &c, rows[r].out);
            if (t.errors) status = 3;
            printf("| %s | sepax | %s | %.0f | |\n", pair, rows[r].name, t.ns_median);
        }
        double pct;
#if defined(SPX_BENCH_HAVE_BULLET)
        c.peer = peers ? bench_round_hull_bullet_prepare(problems, PROBLEMS) : NULL;
        if (c.peer) {
            bench_timing t = bench_measure(runs, min_ms, PROBLEMS, pass_bullet_overlap, &c, out);
            agree_percent(still, out, false, &pct);
            printf("| %s | Bullet | overlap (btGjkPairDetector) | %.0f | %.2f%% |\n", pair, t.ns_median, pct);
            t = bench_measure(runs, min_ms, PROBLEMS, pass_bullet_sweep, &c, out);
            agree_percent(swept, out, true, &pct);
            printf("| %s | Bullet | sweep (btGjkConvexCast) | %.0f | %.2f%% |\n", pair, t.ns_median, pct);
            bench_round_hull_bullet_free(c.peer);
        }
#endif
#if defined(SPX_BENCH_HAVE_FCL)
        c.peer = peers ? bench_round_hull_fcl_prepare(problems, PROBLEMS) : NULL;
        if (c.peer) {
            const bench_timing t = bench_measure(runs, min_ms, PROBLEMS, pass_fcl_overlap, &c, out);
            agree_percent(still, out, false, &pct);
            printf("| %s | FCL | overlap (fcl::collide, GJK) | %.0f | %.2f%% |\n", pair, t.ns_median, pct);
            bench_round_hull_fcl_free(c.peer);
        }
#endif
        (void)pct;
        (void)agree_percent;
    }
    for (int k = 0; k < HULLS; ++k) spx_hull_destroy(hulls[k]);
    return status;
}
