/* sepax_bench round: ns a query of the sphere and capsule queries (include/sepax/round.h), each pair
   kind on the same 4,096 random problems (tests/support/round_cases.c, family "random": a third each
   of hits, misses and start overlaps), and with -DSEPAX_BENCH_PEERS=ON Bullet's translational convex
   cast (btGjkConvexCast) on the same problems, with how often its contact / no contact agrees with
   sepax's hit / miss on the problems that do not start overlapping.

   A second table: rays against a sphere and a capsule (spx_ray_sphere, spx_ray_capsule), and a ball
   and a capsule resting on, or swept at, a 32 x 32 grid mesh of 1 m quads through its OBB tree
   (spx_manifold_*_mesh, spx_sweep_*_mesh), each on 4,096 random problems of a fixed seed.

   sepax_bench round [--runs=<n>] [--min-ms=<ms>] [--quick] [--no-peers]

   Prints a Markdown table: ns a query, the median over the runs of the process's CPU time (not the wall
   clock: on a shared machine another process's time slices do not count). Exit status 0; 2 bad
   option; 3 a sepax call failed. */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "random.h"
#include "suite.h"
#include "timer.h"
#include "support/round_cases.h"
#include "round_hull.h"
#include <sepax/query.h>
#include <math.h>
#if defined(SPX_BENCH_HAVE_BULLET)
#include "peers/round_peer.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT 4096

typedef struct context {
    const test_round_case* cases;
    size_t errors;
    void* peer;
} context;

typedef size_t pass_fn(void* context, uint8_t* out);

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

/* ns a problem: a warm-up pass, then `runs` runs of passes adding up to at least min_ms of CPU time. */
static double measure(int runs, double min_ms, pass_fn* pass, void* ctx, uint8_t* out, size_t* errors)
{
    double per[64];
    *errors = pass(ctx, out);
    if (runs > 64) runs = 64;
    for (int r = 0; r < runs; ++r) {
        double t0 = cpu_ns(), t;
        size_t passes = 0;
        do {
            pass(ctx, out);
            ++passes;
            t = cpu_ns() - t0;
        } while (t < min_ms * 1e6);
        per[r] = t / ((double)passes * COUNT);
    }
    return bench_median(per, (size_t)runs);
}

/* A pass calls its query directly in the loop (no function pointer in the timed path): `call`
   names case i and the answer r, and FLAG of r goes to out[i]. */
#define ROUND_PASS(name, type, flag, call)    \
    static size_t name(void* p, uint8_t* out) \
    {                                         \
        context* c = p;                       \
        size_t errors = 0;                    \
        for (size_t i = 0; i < COUNT; ++i) {  \
            type r;                           \
            if ((call) != SPX_OK) ++errors;   \
            out[i] = (uint8_t)(flag);         \
        }                                     \
        return errors;                        \
    }

ROUND_PASS(pass_sweep, spx_sweep_hit, r.state, test_round_case_sweep(&c->cases[i], &r))
ROUND_PASS(pass_penetration, spx_penetration, r.overlapping, test_round_case_penetration(&c->cases[i], &r))
ROUND_PASS(pass_manifold, spx_manifold, r.point_count, test_round_case_manifold(&c->cases[i], 0.01f, &r))

/* ---- rays and meshes ---- */

#define GRID 32

typedef struct world_case {
    spx_vec3 origin, translation; /* rays */
    spx_sphere ball;              /* a ball and a capsule over the grid, or at the piece for rays */
    spx_capsule capsule;
    spx_vec3 velocity; /* sweeps: towards the grid */
} world_case;

typedef struct world_context {
    const world_case* cases;
    spx_mesh_instance* grid;
} world_context;

static uint64_t next_random(uint64_t* s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}
static float uniform(uint64_t* s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(next_random(s) >> 40) / 16777216.0f;
}

static void make_world_cases(world_case* c)
{
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < COUNT; ++i) {
        world_case* w = &c[i];
        /* Rays from a box of 6 m towards a point within 1 m of the pieces' centre (the origin): most hit. */
        w->origin = bench_random_vec3(uniform, &s, spx_v3(-3, -3, -3), spx_v3(3, 3, 3));
        const spx_vec3 aim = bench_random_vec3(uniform, &s, spx_v3(-1, -1, -1), spx_v3(1, 1, 1));
        w->translation =
            spx_v3(2.0f * (aim.x - w->origin.x), 2.0f * (aim.y - w->origin.y), 2.0f * (aim.z - w->origin.z));
        /* Over the grid (top y = 0, x and z in 0..32), 0.02 m into it up to 0.02 m above, tilted a little. */
        const float r = uniform(&s, 0.1f, 0.5f), x = uniform(&s, 2, GRID - 2), z = uniform(&s, 2, GRID - 2);
        const float h = uniform(&s, 0.0f, 0.6f), a = uniform(&s, 0.0f, 6.2831853f), tilt = uniform(&s, -0.05f, 0.05f);
        const float y = r + uniform(&s, -0.02f, 0.02f);
        w->ball = (spx_sphere){ { x, y, z }, r };
        w->capsule.p[0] = spx_v3(x - h * cosf(a), y - h * tilt, z - h * sinf(a));
        w->capsule.p[1] = spx_v3(x + h * cosf(a), y + h * tilt, z + h * sinf(a));
        w->capsule.radius = r;
        w->velocity = bench_random_vec3(uniform, &s, spx_v3(-5, -20, -5), spx_v3(5, -1, 5));
    }
}

static size_t pass_ray_sphere(void* p, uint8_t* out)
{
    const world_context* c = p;
    size_t errors = 0;
    const spx_sphere ball = { { 0, 0, 0 }, 0.5f };
    for (size_t i = 0; i < COUNT; ++i) {
        spx_ray_hit h;
        if (spx_ray_sphere(c->cases[i].origin, c->cases[i].translation, 1.0f, &ball, &h) != SPX_OK) ++errors;
        out[i] = (uint8_t)h.state;
    }
    return errors;
}

static size_t pass_ray_capsule(void* p, uint8_t* out)
{
    const world_context* c = p;
    size_t errors = 0;
    const spx_capsule cap = { { { -0.5f, -0.2f, 0.1f }, { 0.4f, 0.3f, -0.2f } }, 0.4f };
    for (size_t i = 0; i < COUNT; ++i) {
        spx_ray_hit h;
        if (spx_ray_capsule(c->cases[i].origin, c->cases[i].translation, 1.0f, &cap, &h) != SPX_OK) ++errors;
        out[i] = (uint8_t)h.state;
    }
    return errors;
}

static size_t pass_manifold_mesh(void* p, uint8_t* out, bool capsule)
{
    const world_context* c = p;
    size_t errors = 0;
    for (size_t i = 0; i < COUNT; ++i) {
        spx_manifold m[SPX_MAX_MESH_MANIFOLDS];
        uint32_t n = 0;
        const spx_result r =
            capsule ? spx_manifold_capsule_mesh(&c->cases[i].capsule, c->grid, 0.04f, m, SPX_MAX_MESH_MANIFOLDS, &n)
                    : spx_manifold_sphere_mesh(&c->cases[i].ball, c->grid, 0.04f, m, SPX_MAX_MESH_MANIFOLDS, &n);
        if (r != SPX_OK) ++errors;
        out[i] = (uint8_t)(n ? m[0].point_count : 0);
    }
    return errors;
}
static size_t pass_manifold_sphere_mesh(void* p, uint8_t* out) { return pass_manifold_mesh(p, out, false); }
static size_t pass_manifold_capsule_mesh(void* p, uint8_t* out) { return pass_manifold_mesh(p, out, true); }

static size_t pass_sweep_mesh(void* p, uint8_t* out, bool capsule)
{
    const world_context* c = p;
    size_t errors = 0;
    const spx_vec3 still = { 0, 0, 0 };
    for (size_t i = 0; i < COUNT; ++i) {
        /* From 2 m above where it rests, falling for 1/60 s at up to 20 m/s. */
        const world_case* w = &c->cases[i];
        spx_sweep_hit h;
        spx_sphere ball = w->ball;
        spx_capsule cap = w->capsule;
        ball.center.y += 0.2f, cap.p[0].y += 0.2f, cap.p[1].y += 0.2f;
        const spx_result r = capsule
                                 ? spx_sweep_capsule_mesh(&cap, w->velocity, c->grid, still, 1.0f / 60.0f, &h, NULL)
                                 : spx_sweep_sphere_mesh(&ball, w->velocity, c->grid, still, 1.0f / 60.0f, &h, NULL);
        if (r != SPX_OK) ++errors;
        out[i] = (uint8_t)h.state;
    }
    return errors;
}
static size_t pass_sweep_sphere_mesh(void* p, uint8_t* out) { return pass_sweep_mesh(p, out, false); }
static size_t pass_sweep_capsule_mesh(void* p, uint8_t* out) { return pass_sweep_mesh(p, out, true); }

/* The grid mesh of GRID x GRID quads, two triangles each, top at y = 0. */
static spx_mesh* make_grid(void)
{
    static spx_vec3 v[(GRID + 1) * (GRID + 1)];
    static uint32_t idx[6 * GRID * GRID];
    for (uint32_t z = 0; z <= GRID; ++z)
        for (uint32_t x = 0; x <= GRID; ++x) v[z * (GRID + 1) + x] = spx_v3((float)x, 0.0f, (float)z);
    uint32_t n = 0;
    for (uint32_t z = 0; z < GRID; ++z)
        for (uint32_t x = 0; x < GRID; ++x) {
            const uint32_t a = z * (GRID + 1) + x, b = a + 1, c = a + GRID + 1, d = c + 1;
            idx[n++] = a, idx[n++] = c, idx[n++] = b; /* counter-clockwise seen from above */
            idx[n++] = b, idx[n++] = c, idx[n++] = d;
        }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = (GRID + 1) * (GRID + 1);
    def.indices = idx, def.triangle_count = 2 * GRID * GRID;
    spx_mesh* mesh = NULL;
    return spx_mesh_create(&def, &mesh) == SPX_OK ? mesh : NULL;
}

static int world_table(int runs, double min_ms)
{
    static world_case cases[COUNT];
    static uint8_t out[COUNT];
    make_world_cases(cases);
    spx_mesh* mesh = make_grid();
    world_context c = { cases, NULL };
    spx_mesh_instance_def def = spx_default_mesh_instance_def();
    def.mesh = mesh;
    if (!mesh || spx_mesh_instance_create(&def, &c.grid) != SPX_OK) return 3;
    static const struct {
        const char* name;
        pass_fn* pass;
    } rows[] = { { "ray, sphere", pass_ray_sphere },
                 { "ray, capsule", pass_ray_capsule },
                 { "manifold, sphere on a grid mesh", pass_manifold_sphere_mesh },
                 { "manifold, capsule on a grid mesh", pass_manifold_capsule_mesh },
                 { "sweep, sphere at a grid mesh", pass_sweep_sphere_mesh },
                 { "sweep, capsule at a grid mesh", pass_sweep_capsule_mesh } };
    int status = 0;
    printf("\n| query | ns |\n| --- | --- |\n");
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k) {
        size_t errors;
        const double t = measure(runs, min_ms, rows[k].pass, &c, out, &errors);
        if (errors) status = 3;
        printf("| %s | %.0f |\n", rows[k].name, t);
    }
    spx_mesh_instance_destroy(c.grid);
    spx_mesh_destroy(mesh);
    return status;
}

#if defined(SPX_BENCH_HAVE_BULLET)
static size_t pass_bullet(void* p, uint8_t* out)
{
    context* c = p;
    bench_round_bullet_run(c->peer, COUNT, out);
    return 0;
}
#endif

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench round [options]\n"
               "  --min-ms=<ms>      a timed run repeats passes until it lasts this long (default 20; --quick 2)\n"
               "  (default 7 runs; --quick: 3)\n");
    bench_common_usage(f);
}

/* The round suite's own option (bench_option_fn): --min-ms. */
static int own_option(int argc, char** argv, int* i, void* min_ms)
{
    (void)argc;
    const char* v = bench_option_value(argv[*i], "--min-ms");
    if (!v) return 0;
    *(double*)min_ms = atof(v);
    return 1;
}

int bench_round(int argc, char** argv)
{
    double min_ms = -1.0;
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 64, own_option, &min_ms, usage);
    if (parsed >= 0) return parsed;
    int runs = common.runs ? common.runs : common.quick ? 3 : 7;
    if (min_ms < 0.0) min_ms = common.quick ? 2.0 : 20.0;
    bench_machine m;
    bench_machine_probe(&m, NULL);
    bench_print_header(argv[0], &m);
    printf("%d runs of >= %.0f ms, %d problems a kind\n\n", runs, min_ms, COUNT);
    static test_round_case cases[COUNT];
    static uint8_t out[COUNT], swept[COUNT];
    int status = 0;
#if defined(SPX_BENCH_HAVE_BULLET)
    printf("| pair kind | sweep ns | penetration ns | manifold ns | %s ns | agrees on hit or miss |\n| --- | --- | --- "
           "| --- | --- | --- |\n",
           bench_round_bullet_name());
#else
    printf("| pair kind | sweep ns | penetration ns | manifold ns |\n| --- | --- | --- | --- |\n");
#endif
    for (int k = 0; k < TEST_RP_KIND_COUNT; ++k) {
        for (size_t i = 0; i < COUNT; ++i)
            test_round_case_make((test_round_pair_kind)k, TEST_RF_RANDOM, (uint64_t)i, &cases[i]);
        context c = { cases, 0, NULL };
        size_t e1, e2, e3;
        double ts = measure(runs, min_ms, pass_sweep, &c, swept, &e1);
        double tp = measure(runs, min_ms, pass_penetration, &c, out, &e2);
        double tm = measure(runs, min_ms, pass_manifold, &c, out, &e3);
        if (e1 || e2 || e3) status = 3;
        printf("| %s | %.0f | %.0f | %.0f |", test_round_kind_name((test_round_pair_kind)k), ts, tp, tm);
#if defined(SPX_BENCH_HAVE_BULLET)
        c.peer = common.peers ? bench_round_bullet_prepare(cases, COUNT) : NULL;
        if (c.peer) {
            size_t e4;
            double tb = measure(runs, min_ms, pass_bullet, &c, out, &e4);
            int agree = 0, apart = 0;
            for (size_t i = 0; i < COUNT; ++i) {
                if (swept[i] == SPX_SWEEP_START_OVERLAP) continue;
                ++apart;
                agree += (out[i] != 0) == (swept[i] == SPX_SWEEP_HIT);
            }
            printf(" %.0f | %.1f%% |", tb, 100.0 * agree / (apart ? apart : 1));
            bench_round_bullet_free(c.peer);
        } else {
            printf(" - | - |");
        }
#endif
        printf("\n");
    }
    const int world_status = world_table(runs, min_ms);
    const int hull_status = bench_round_hull_table(runs, min_ms, common.peers);
    return status ? status : (world_status ? world_status : hull_status);
}
