/* sepax_bench world: the world scenes (tests/support/scenes.c: falling, and the pyramid at
   pitch 1.0 and 1.1), timed step by step, their end state measured; with -DSEPAX_BENCH_PEERS=ON the
   same scenes in Bullet and ODE in the same run, measured by the same routine. See bench/README.md
   ("World scenes").

   sepax_bench world [-s=<scenes>] [-e=<engines>] [--runs=<reps>] [--steps=<n>] [--quick] [--steps-only]
                     [--no-peers] [--csv[=<file>]] [--save] [--machine=<name>] [--note=<text>]
                     [--results-dir=<dir>]

   Exit status: 0; 2 bad option; 1 a file cannot be written; 3 a scene could not be built or a step
   failed. The speed goals are printed, not judged by the exit status: benchmarks measure, the
   tests judge. */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "report.h"
#include "suite.h"
#include "timer.h"
#include "support/scenes.h"
#include "peers/world_peers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 101
#define MAX_ENGINES 3
#define SCENE_COUNT 7
#define QUICK_STEPS 10
#define GOAL_DRIFT 0.01f       /* m: pyramid, largest drift in 10 s */
#define GOAL_DEPTH 0.01f       /* m: falling, ground penetration and box overlap */
#define GOAL_FALLING_RATIO 0.5 /* sepax's time a step against Bullet's */
#define GOAL_PYRAMID_RATIO 0.35

/* ---- scenes and engines ------------------------------------------------------------------------ */

typedef enum scene_kind { FALLING, FALLING_MESH, PYRAMID, MESH_PILE, SLOPE, BOUNCE } scene_kind;

typedef struct scene_spec {
    const char* name;
    scene_kind kind;
    float pitch; /* the pyramid's; 0 for the others */
    bool peers;  /* Bullet and ODE run it too (boxes on a box or mesh ground) */
} scene_spec;

static const scene_spec scenes[SCENE_COUNT] = {
    { "falling", FALLING, 0.0f, true },      { "falling_mesh", FALLING_MESH, 0.0f, true },
    { "pyramid-1.0", PYRAMID, 1.0f, true },  { "pyramid-1.1", PYRAMID, 1.1f, true },
    { "mesh_pile", MESH_PILE, 0.0f, false }, { "slope", SLOPE, 0.0f, false },
    { "bounce", BOUNCE, 0.0f, false },
};

/* slope and bounce: their settings, and what the analytic answer is. */
#define SLOPE_ANGLE 0.6f /* rad; tan 0.6 = 0.68 > mu: the box slides */
#define SLOPE_FRICTION 0.3f
#define BOUNCE_HEIGHT 2.0f /* m */
#define BOUNCE_RESTITUTION 0.7f

/* --simd=baseline: sepax's worlds run the build's own solver path even where the CPU has AVX2. */
static spx_world_simd sepax_simd = SPX_SIMD_AUTO;

static spx_result scene_build(test_scene* out, const scene_spec* s)
{
    spx_world_def wd = spx_default_world_def();
    wd.simd = sepax_simd;
    switch (s->kind) {
    case FALLING:
        return test_scene_falling(out, &wd);
    case FALLING_MESH:
        return test_scene_falling_mesh(out, &wd);
    case PYRAMID:
        return test_scene_pyramid(out, s->pitch, &wd);
    case MESH_PILE:
        return test_scene_mesh_pile(out, &wd);
    case SLOPE:
        return test_scene_slope(out, SLOPE_ANGLE, SLOPE_FRICTION, &wd);
    case BOUNCE:
        return test_scene_bounce(out, BOUNCE_HEIGHT, BOUNCE_RESTITUTION, &wd);
    }
    return SPX_ERR_INVALID_ARGUMENT;
}

/* The layout the peers build from; for sepax-only scenes, the body count, step and step count of
   sepax's scene (built once to read them). */
static bool scene_layout(const scene_spec* s, test_scene_layout* out)
{
    switch (s->kind) {
    case FALLING:
        test_scene_falling_layout(out);
        return true;
    case FALLING_MESH:
        test_scene_falling_mesh_layout(out);
        return true;
    case PYRAMID:
        test_scene_pyramid_layout(out, s->pitch);
        return true;
    default:
        break;
    }
    memset(out, 0, sizeof *out);
    test_scene scene;
    memset(&scene, 0, sizeof scene);
    spx_result r = scene_build(&scene, s);
    out->count = scene.count, out->steps = scene.steps, out->dt = scene.dt;
    out->box_friction = s->kind == SLOPE ? SLOPE_FRICTION : 0.5f;
    out->ground_friction = s->kind == SLOPE ? SLOPE_FRICTION : s->kind == BOUNCE ? 0.5f : 0.6f;
    out->sleep = s->kind == MESH_PILE;
    out->mesh_ground = s->kind == MESH_PILE;
    test_scene_destroy(&scene);
    return r == SPX_OK;
}

typedef struct engine {
    const char* name;
    const bench_world_peer* peer; /* NULL: sepax */
} engine;

/* One engine's world of one scene. */
typedef struct run {
    const engine* e;
    test_scene scene; /* sepax */
    void* world;      /* a peer's */
    uint32_t count;
    spx_result failure; /* first failed sepax step */
} run;

static bool run_create(run* r, const engine* e, const scene_spec* s, const test_scene_layout* layout)
{
    memset(r, 0, sizeof *r);
    r->e = e;
    r->count = layout->count;
    if (e->peer) return s->peers && (r->world = e->peer->create(layout)) != NULL;
    spx_result res = scene_build(&r->scene, s);
    if (res != SPX_OK) {
        fprintf(stderr, "sepax_bench world: %s: %s\n", s->name, spx_result_string(res));
        test_scene_destroy(&r->scene);
        return false;
    }
    return r->scene.count == layout->count;
}

/* The steps and nothing else: callgrind counts instructions inside this function alone
   (--toggle-collect=bench_world_run_steps). External and never inlined, so the name stays. */
void bench_world_run_steps(run* r, uint32_t steps) __attribute__((noinline));
void bench_world_run_steps(run* r, uint32_t steps)
{
    if (r->e->peer) {
        for (uint32_t i = 0; i < steps; ++i) r->e->peer->step(r->world);
        return;
    }
    for (uint32_t i = 0; i < steps; ++i) {
        spx_result res = spx_world_step(r->scene.world, r->scene.dt);
        if (res != SPX_OK && r->failure == SPX_OK) r->failure = res;
    }
}

static void run_read(const run* r, spx_transform* poses, spx_vec3* v, spx_vec3* w)
{
    if (r->e->peer) {
        r->e->peer->read(r->world, poses, v, w);
        return;
    }
    for (uint32_t i = 0; i < r->scene.count; ++i) {
        if (poses) spx_body_get_transform(r->scene.world, r->scene.bodies[i], &poses[i]);
        if (v || w) {
            spx_vec3 lin, ang;
            spx_body_get_velocity(r->scene.world, r->scene.bodies[i], &lin, &ang);
            if (v) v[i] = lin;
            if (w) w[i] = ang;
        }
    }
}

static uint32_t run_contacts(const run* r)
{
    if (r->e->peer) return r->e->peer->contacts(r->world);
    spx_step_stats st;
    spx_world_get_stats(r->scene.world, &st);
    return st.contact_point_count;
}

static void run_destroy(run* r)
{
    if (r->e->peer) {
        if (r->world) r->e->peer->destroy(r->world);
    } else {
        test_scene_destroy(&r->scene);
    }
    r->world = NULL;
}

/* ---- measuring ---------------------------------------------------------------------------------- */

enum { STAGE_BROAD, STAGE_NARROW, STAGE_SOLVER, STAGE_ISLAND, STAGE_COUNT };

/* What one engine gave on one scene: the times of each repetition, the end state of the last. */
typedef struct row {
    const engine* e;
    int reps;
    double ms[MAX_REPS];                 /* wall time a step, each repetition */
    double cpu[MAX_REPS];                /* this thread's processor time a step */
    double stage[STAGE_COUNT][MAX_REPS]; /* sepax's own stage times a step (spx_world_get_stats) */
    double contacts;                     /* contact points a step, mean */
    test_scene_quality q;
    float drift, sideways, drift_peak; /* pyramid: largest distance of a box from its start */
    double measured, expected;         /* slope: acceleration (m/s^2); bounce: rebound height (m) */
    bool ok;
    uint64_t end_hash; /* of the first repetition's end poses */
    bool varies;       /* a later repetition ended elsewhere */
    double ms_median, ms_min, cpu_median, stage_median[STAGE_COUNT];
} row;

static uint64_t cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static float distance(spx_vec3 a, spx_vec3 b)
{
    float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static spx_transform poses[TEST_SCENE_MAX_BODIES];
static spx_vec3 lin[TEST_SCENE_MAX_BODIES], ang[TEST_SCENE_MAX_BODIES];

/* One repetition: a fresh world, `steps` steps each timed alone (reading the poses for the drift
   and the contact count between steps, untimed), the end state measured when `last`. */
static bool repeat(row* out, int rep, const engine* e, const scene_spec* s, const test_scene_layout* layout,
                   uint32_t steps, bool last)
{
    run r;
    if (!run_create(&r, e, s, layout)) {
        fprintf(stderr, "sepax_bench world: %s could not build %s\n", e->name, s->name);
        return false;
    }
    bool track = s->kind == PYRAMID;
    float peak = 0.0f;
    /* slope: the speed gained from step 30 (settled) to step 90; bounce: the top of the first rebound. */
    spx_vec3 v30 = { 0, 0, 0 };
    float rebound = 0.0f;
    bool bounced = false, rising = true;
    uint64_t wall = 0, cpu = 0, contacts = 0;
    double stage[STAGE_COUNT] = { 0 };
    for (uint32_t i = 0; i < steps; ++i) {
        uint64_t w0 = bench_now_ns(), c0 = cpu_now_ns();
        bench_world_run_steps(&r, 1);
        uint64_t c1 = cpu_now_ns(), w1 = bench_now_ns();
        wall += w1 - w0, cpu += c1 - c0;
        if (!e->peer) {
            spx_step_stats st;
            spx_world_get_stats(r.scene.world, &st);
            stage[STAGE_BROAD] += st.broad_ms, stage[STAGE_NARROW] += st.narrow_ms;
            stage[STAGE_SOLVER] += st.solver_ms, stage[STAGE_ISLAND] += st.island_ms;
        }
        contacts += run_contacts(&r);
        if (!e->peer && (s->kind == SLOPE || s->kind == BOUNCE)) {
            spx_transform t;
            spx_vec3 v;
            spx_body_get_transform(r.scene.world, r.scene.bodies[0], &t);
            spx_body_get_velocity(r.scene.world, r.scene.bodies[0], &v, NULL);
            if (s->kind == SLOPE && i + 1 == 30) v30 = v;
            if (s->kind == SLOPE && i + 1 == 90) {
                spx_vec3 d = { v.x - v30.x, v.y - v30.y, v.z - v30.z };
                out->measured = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z) / (60.0f * r.scene.dt);
            }
            if (s->kind == BOUNCE) {
                if (v.y > 0.0f) bounced = true;
                if (bounced && rising && t.p.y - 0.5f > rebound) rebound = t.p.y - 0.5f;
                if (bounced && v.y < 0.0f) rising = false;
                out->measured = rebound;
            }
        }
        if (track) {
            run_read(&r, poses, NULL, NULL);
            for (uint32_t k = 0; k < r.count; ++k) {
                float d = distance(poses[k].p, layout->start[k].p);
                if (d > peak) peak = d;
            }
        }
    }
    if (r.failure != SPX_OK) {
        fprintf(stderr, "sepax_bench world: %s: a step failed: %s\n", s->name, spx_result_string(r.failure));
        run_destroy(&r);
        return false;
    }
    /* Every repetition should end where the first did; an engine that does not is noted. */
    run_read(&r, poses, NULL, NULL);
    uint64_t hash = 1469598103934665603ull;
    const unsigned char* bytes = (const unsigned char*)poses;
    for (size_t k = 0; k < (size_t)r.count * sizeof poses[0]; ++k) hash = (hash ^ bytes[k]) * 1099511628211ull;
    if (rep == 0) out->end_hash = hash;
    else if (hash != out->end_hash) out->varies = true;
    double n = steps ? (double)steps : 1.0;
    out->ms[rep] = (double)wall * 1e-6 / n;
    out->cpu[rep] = (double)cpu * 1e-6 / n;
    for (int k = 0; k < STAGE_COUNT; ++k) out->stage[k][rep] = stage[k] / n;
    if (last) {
        out->contacts = (double)contacts / n;
        run_read(&r, poses, lin, ang);
        if (s->kind == MESH_PILE) test_scene_measure_meshes(&r.scene, &out->q);
        else if (s->kind != SLOPE) test_scene_measure_state(poses, lin, ang, r.count, &out->q);
        if (s->kind == SLOPE) out->expected = 9.81 * (sin(SLOPE_ANGLE) - SLOPE_FRICTION * cos(SLOPE_ANGLE));
        if (s->kind == BOUNCE) out->expected = (double)(BOUNCE_RESTITUTION * BOUNCE_RESTITUTION * BOUNCE_HEIGHT);
        out->drift = out->sideways = 0.0f;
        out->drift_peak = peak;
        if (track)
            for (uint32_t k = 0; k < r.count; ++k) {
                spx_vec3 a = poses[k].p, b = layout->start[k].p;
                float d = distance(a, b), side = sqrtf((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z));
                if (d > out->drift) out->drift = d;
                if (side > out->sideways) out->sideways = side;
            }
    }
    run_destroy(&r);
    return true;
}

/* ---- options ------------------------------------------------------------------------------------- */

typedef struct options {
    bool scene_on[SCENE_COUNT];
    char engine_list[128]; /* -e, empty: all */
    int reps;
    long steps; /* < 0: the scene's own */
    bool quick, steps_only, peers;
    bench_common common;
    bench_output output;
} options;

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sepax_bench world [options]\n"
            "  -s=<a,b>           scenes: falling, falling_mesh, pyramid-1.0, pyramid-1.1, pyramid (both), mesh_pile,\n"
            "                     slope, bounce, all (default)\n"
            "  -e=<a,b>           engines: sepax, bullet, ode (default: all built in)\n"
            "  --steps=<n>        steps a scene (default the scene's: falling 300, pyramid and mesh_pile 600,\n"
            "                     slope 90, bounce 240; 0 with --steps-only)\n"
            "  --steps-only       build one scene in one engine (-s, -e), run its steps and nothing else,\n"
            "                     for callgrind (see bench/world_callgrind.sh)\n"
            "  --simd=<path>      sepax's solver: auto (default: AVX2 where the CPU has it) or baseline\n"
            "  (default 5 repetitions of each scene and engine; --quick: %d steps, 1 repetition)\n",
            QUICK_STEPS);
    bench_common_usage(f);
    bench_output_usage(f, "world-");
}

static bool parse_scenes(const char* list, options* o)
{
    memset(o->scene_on, 0, sizeof o->scene_on);
    const char* p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (int i = 0; i < SCENE_COUNT; ++i) {
            const char* n = scenes[i].name;
            bool all = len == 3 && strncmp(p, "all", 3) == 0;
            bool pyramids = len == 7 && strncmp(p, "pyramid", 7) == 0 && scenes[i].pitch > 0.0f;
            if (all || pyramids || (strlen(n) == len && strncmp(p, n, len) == 0)) o->scene_on[i] = known = true;
        }
        if (!known || len == 0) return false;
        p += len + (p[len] == ',');
    }
    return true;
}

/* The world suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    char* end;
    if ((v = bench_option_value(argv[*i], "-s"))) {
        if (!parse_scenes(v, o))
            return fprintf(stderr, "%s: -s wants falling, pyramid-1.0, pyramid-1.1, pyramid or all\n", argv[0]), -1;
    } else if ((v = bench_option_value(argv[*i], "-e"))) {
        if (strlen(v) >= sizeof o->engine_list || !v[0]) return fprintf(stderr, "%s: -e wants engines\n", argv[0]), -1;
        snprintf(o->engine_list, sizeof o->engine_list, "%s", v);
    } else if ((v = bench_option_value(argv[*i], "--steps"))) {
        long n = strtol(v, &end, 10);
        if (*end || n < 0 || n > 1000000)
            return fprintf(stderr, "%s: --steps wants 0..1000000 (0: --steps-only alone)\n", argv[0]), -1;
        o->steps = n;
    } else if (strcmp(argv[*i], "--steps-only") == 0) {
        o->steps_only = true;
    } else if ((v = bench_option_value(argv[*i], "--simd"))) {
        if (strcmp(v, "auto") == 0) sepax_simd = SPX_SIMD_AUTO;
        else if (strcmp(v, "baseline") == 0) sepax_simd = SPX_SIMD_BASELINE;
        else return fprintf(stderr, "%s: --simd wants auto or baseline\n", argv[0]), -1;
    } else {
        return 0;
    }
    return 1;
}

static int parse(int argc, char** argv, options* o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < SCENE_COUNT; ++i) o->scene_on[i] = true;
    o->steps = -1;
    o->common = (bench_common)BENCH_COMMON_DEFAULTS;
    o->output = (bench_output)BENCH_OUTPUT_DEFAULTS;
    int status = bench_parse_options(argc, argv, &o->common, &o->output, MAX_REPS, own_option, o, usage);
    if (status >= 0) return status;
    o->quick = o->common.quick;
    o->peers = o->common.peers;
    o->reps = o->common.runs ? o->common.runs : o->quick ? 1 : 5;
    if (o->steps < 0 && o->quick) o->steps = QUICK_STEPS;
    if (o->steps == 0 && !o->steps_only)
        return fprintf(stderr, "%s: --steps=0 only goes with --steps-only\n", argv[0]), 2;
    return -1;
}

/* The engines built in, in the order given by -e (all of them without it). */
static int select_engines(const options* o, engine* out)
{
    engine built[MAX_ENGINES];
    int n = 0;
    built[n++] = (engine){ "sepax", NULL };
#if defined(SPX_BENCH_HAVE_BULLET)
    if (o->peers) built[n++] = (engine){ "bullet", bench_world_peer_bullet() };
#endif
#if defined(SPX_BENCH_HAVE_ODE)
    if (o->peers) built[n++] = (engine){ "ode", bench_world_peer_ode() };
#endif
    if (!o->engine_list[0]) {
        memcpy(out, built, (size_t)n * sizeof *out);
        return n;
    }
    int count = 0;
    for (const char* p = o->engine_list; *p;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < n; ++i)
            if (strlen(built[i].name) == len && strncmp(p, built[i].name, len) == 0) found = i;
        if (found < 0) {
            fprintf(stderr, "sepax_bench world: engine '%.*s' is not built in (sepax%s%s)\n", (int)len, p,
                    n > 1 ? ", " : "", n > 1 ? built[1].name : "");
            return -1;
        }
        if (count < MAX_ENGINES) out[count++] = built[found];
        p += len + (p[len] == ',');
    }
    return count;
}

/* ---- output: a table on stdout, CSV to a file or stdout ------------------------------------------ */

static void print_columns(bench_report* rep)
{
    fprintf(rep->table, "%-12s %-7s %5s %4s %8s %8s %8s %7s %7s %7s %7s %8s %10s %11s %6s %6s %7s %8s %10s %9s\n",
            "scene", "engine", "steps", "reps", "ms_step", "ms_min", "cpu_ms", "broad", "narrow", "solver", "island",
            "contacts", "ground_pen", "box_overlap", "moving", "fallen", "drift", "sideways", "drift_peak",
            "sepax/eng");
    for (int i = 0; i < rep->csv_count; ++i)
        fprintf(rep->csv[i], "scene,engine,steps,reps,ms_step_median,ms_step_min,cpu_ms_step_median,broad_ms,narrow_ms,"
                             "solver_ms,island_ms,contacts_per_step,ground_penetration_m,box_overlap_m,moving,fallen,"
                             "drift_m,sideways_m,drift_peak_m,ratio_sepax_engine\n");
}

/* A figure with `digits` decimals, or "-" where it does not apply. */
static void figure(char buf[16], bool applies, int digits, double x)
{
    if (applies) snprintf(buf, 16, "%.*f", digits, x);
    else snprintf(buf, 16, "-");
}

static void print_row(bench_report* rep, const scene_spec* s, uint32_t steps, const row* r, double sepax_ms)
{
    bool sepax = r->e->peer == NULL, pyramid = s->kind == PYRAMID;
    double ratio = r->ms_median > 0.0 ? sepax_ms / r->ms_median : NAN;
    {
        char stages[STAGE_COUNT][16], drift[3][16], x[16];
        for (int k = 0; k < STAGE_COUNT; ++k) figure(stages[k], sepax, 3, r->stage_median[k]);
        figure(drift[0], pyramid, 4, (double)r->drift);
        figure(drift[1], pyramid, 4, (double)r->sideways);
        figure(drift[2], pyramid, 4, (double)r->drift_peak);
        figure(x, ratio == ratio, 3, ratio);
        fprintf(rep->table,
                "%-12s %-7s %5u %4d %8.3f %8.3f %8.3f %7s %7s %7s %7s %8.0f %10.4f %11.4f %6u %6u %7s %8s %10s %9s\n",
                s->name, r->e->name, steps, r->reps, r->ms_median, r->ms_min, r->cpu_median, stages[0], stages[1],
                stages[2], stages[3], r->contacts, (double)r->q.ground_penetration, (double)r->q.box_overlap,
                r->q.moving, r->q.fallen, drift[0], drift[1], drift[2], x);
    }
    for (int i = 0; i < rep->csv_count; ++i) {
        FILE* f = rep->csv[i];
        fprintf(f, "%s,%s,%u,%d,%.4f,%.4f,%.4f,", s->name, r->e->name, steps, r->reps, r->ms_median, r->ms_min,
                r->cpu_median);
        for (int k = 0; k < STAGE_COUNT; ++k)
            if (sepax) fprintf(f, "%.4f,", r->stage_median[k]);
            else fprintf(f, ",");
        fprintf(f, "%.1f,%.5f,%.5f,%u,%u,", r->contacts, (double)r->q.ground_penetration, (double)r->q.box_overlap,
                r->q.moving, r->q.fallen);
        if (pyramid) fprintf(f, "%.5f,%.5f,%.5f,", (double)r->drift, (double)r->sideways, (double)r->drift_peak);
        else fprintf(f, ",,,");
        if (ratio == ratio) fprintf(f, "%.4f\n", ratio);
        else fprintf(f, "\n");
    }
}

/* "virtual machine" when the CPU says it runs under a hypervisor. */
static const char* virtual_machine(void)
{
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (!f) return "";
    char line[4096];
    const char* text = "";
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            if (strstr(line, " hypervisor")) text = ", virtual machine";
            break;
        }
    fclose(f);
    return text;
}

/* ---- the two modes ------------------------------------------------------------------------------- */

/* --steps-only: one scene, one engine, its steps and nothing else, for callgrind. */
static int steps_only(const options* o, const engine* engines, int engine_count)
{
    int scene = -1, chosen = 0;
    for (int i = 0; i < SCENE_COUNT; ++i)
        if (o->scene_on[i]) scene = i, ++chosen;
    if (chosen != 1 || engine_count != 1 || !o->engine_list[0]) {
        fprintf(stderr, "sepax_bench world: --steps-only wants one scene (-s=) and one engine (-e=)\n");
        return 2;
    }
    static test_scene_layout layout;
    if (engines[0].peer && !scenes[scene].peers) {
        fprintf(stderr, "sepax_bench world: %s does not run %s\n", engines[0].name, scenes[scene].name);
        return 4;
    }
    if (!scene_layout(&scenes[scene], &layout)) return 3;
    uint32_t steps = o->steps >= 0 ? (uint32_t)o->steps : layout.steps;
    run r;
    if (!run_create(&r, &engines[0], &scenes[scene], &layout)) return 3;
    bench_world_run_steps(&r, steps);
    spx_result failure = r.failure;
    run_destroy(&r);
    fprintf(stderr, "sepax_bench world: %s, %s: %u steps%s\n", scenes[scene].name, engines[0].name, steps,
            failure == SPX_OK ? "" : " (a step failed)");
    return failure == SPX_OK ? 0 : 3;
}

int bench_world(int argc, char** argv)
{
    options o;
    int status = parse(argc, argv, &o);
    if (status >= 0) return status;
    const char* program = argv[0];
    engine engines[MAX_ENGINES];
    int engine_count = select_engines(&o, engines);
    if (engine_count < 0) return 2;
    if (o.steps_only) return steps_only(&o, engines, engine_count);

    bench_machine m;
    bench_report rep; /* the table goes to stdout, or to stderr when the CSV takes stdout */
    char save_path[1200];
    if (bench_output_open(&o.output, program, "world-", &m, &rep, save_path, sizeof save_path) != 0) return 1;
    bench_report_header(&rep, program, &m, virtual_machine(), &o.output);
    spx_world_def wd = spx_default_world_def();
    bench_report_note(
        &rep,
        "sepax: spx_default_world_def() (%u substeps, contact %g Hz, damping ratio %g, simd %s); scenes of "
        "tests/support/scenes.c; dt 1/60 s",
        wd.substeps, (double)wd.contact_hertz, (double)wd.contact_damping_ratio,
        sepax_simd == SPX_SIMD_BASELINE ? "baseline (--simd)" : "auto");
    for (int i = 0; i < engine_count; ++i)
        if (engines[i].peer) bench_report_note(&rep, "%s: %s", engines[i].name, engines[i].peer->describe());
#if !defined(SPX_BENCH_HAVE_BULLET) && !defined(SPX_BENCH_HAVE_ODE)
    bench_report_note(&rep, "peers: none (configure with -DSEPAX_BENCH_PEERS=ON)");
#endif
    bench_report_note(&rep, "repetitions: %d (median and best of the wall time a step; each a fresh world)%s", o.reps,
                      o.quick ? "  QUICK" : "");

    static row rows[SCENE_COUNT][MAX_ENGINES];
    static test_scene_layout layouts[SCENE_COUNT];
    uint32_t steps_of[SCENE_COUNT] = { 0 };
    bool headed = false;
    int failures = 0;
    for (int s = 0; s < SCENE_COUNT; ++s) {
        if (!o.scene_on[s]) continue;
        const scene_spec* sc = &scenes[s];
        test_scene_layout* layout = &layouts[s];
        if (!scene_layout(sc, layout)) {
            fprintf(stderr, "sepax_bench world: could not build %s\n", sc->name);
            ++failures;
            continue;
        }
        uint32_t steps = o.steps > 0 ? (uint32_t)o.steps : layout->steps;
        steps_of[s] = steps;
        bench_report_note(&rep, "\n%s: %u %s, friction %.1f (ground %.1f), sleeping %s; %u steps (%.1f s)%s%s",
                          sc->name, layout->count,
                          sc->kind == MESH_PILE      ? "tori and spheres (meshes) on a mesh ground"
                          : sc->kind == FALLING_MESH ? "boxes on a mesh ground"
                                                     : "boxes",
                          (double)layout->box_friction, (double)layout->ground_friction,
                          layout->sleep ? "on (each engine's own)" : "off", steps, (double)steps * (double)layout->dt,
                          steps == layout->steps ? "" : "  (not the scene's own count)",
                          sc->peers ? "" : "  (sepax only)");
        if (!headed) print_columns(&rep), headed = true;
        /* Repetitions interleave the engines, so that a change in the machine's load falls on all of them. */
        for (int e = 0; e < engine_count; ++e)
            rows[s][e] = (row){ .e = &engines[e], .ok = sc->peers || !engines[e].peer };
        for (int k = 0; k < o.reps; ++k)
            for (int e = 0; e < engine_count; ++e) {
                row* r = &rows[s][e];
                if (!r->ok) continue;
                if (repeat(r, k, &engines[e], sc, layout, steps, k == o.reps - 1)) r->reps = k + 1;
                else r->ok = false, ++failures;
            }
        double sepax_ms = NAN;
        for (int e = 0; e < engine_count; ++e) {
            row* r = &rows[s][e];
            if (!r->ok) continue;
            r->ms_min = bench_min(r->ms, (size_t)r->reps);
            r->ms_median = bench_median(r->ms, (size_t)r->reps);
            r->cpu_median = bench_median(r->cpu, (size_t)r->reps);
            for (int k = 0; k < STAGE_COUNT; ++k) r->stage_median[k] = bench_median(r->stage[k], (size_t)r->reps);
            if (!r->e->peer) sepax_ms = r->ms_median;
        }
        for (int e = 0; e < engine_count; ++e)
            if (rows[s][e].ok) print_row(&rep, sc, steps, &rows[s][e], sepax_ms);
        for (int e = 0; e < engine_count; ++e)
            if (rows[s][e].ok && rows[s][e].varies)
                bench_report_note(
                    &rep, "note: %s's repetitions of %s did not all end in the same state (the last one is measured)",
                    engines[e].name, sc->name);
    }

    /* The speed goals, on the figures above. */
    bench_report_note(&rep, "\ngoals (measured here; instructions a step: bench/world_callgrind.sh):");
    for (int s = 0; s < SCENE_COUNT; ++s) {
        if (!o.scene_on[s]) continue;
        const row* sepax = NULL;
        const row* bullet = NULL;
        for (int e = 0; e < engine_count; ++e) {
            if (!rows[s][e].ok) continue;
            if (!engines[e].peer) sepax = &rows[s][e];
            else if (strcmp(engines[e].name, "bullet") == 0) bullet = &rows[s][e];
        }
        bool judged = steps_of[s] == layouts[s].steps;
#define VERDICT(ok) (!judged ? "not judged (not the scene's step count)" : (ok) ? "yes" : "NO")
        if (sepax && scenes[s].kind == PYRAMID)
            bench_report_note(&rep, "  %s: sepax's largest drift in %.1f s %.4f m, under %.2f m: %s", scenes[s].name,
                              (double)steps_of[s] * (double)layouts[s].dt, (double)sepax->drift, (double)GOAL_DRIFT,
                              VERDICT(sepax->drift < GOAL_DRIFT));
        if (sepax && (scenes[s].kind == SLOPE || scenes[s].kind == BOUNCE))
            bench_report_note(&rep, "  %s: sepax's %s %.4f, analytic %.4f: off by %.2f%%, within 2%%: %s",
                              scenes[s].name,
                              scenes[s].kind == SLOPE ? "acceleration down the slope (m/s^2)" : "rebound height (m)",
                              sepax->measured, sepax->expected, 100.0 * fabs(sepax->measured / sepax->expected - 1.0),
                              VERDICT(fabs(sepax->measured / sepax->expected - 1.0) < 0.02));
        if (sepax && (scenes[s].kind == FALLING || scenes[s].kind == FALLING_MESH || scenes[s].kind == MESH_PILE))
            bench_report_note(
                &rep,
                "  %s: sepax's ground penetration %.4f m and box overlap %.4f m, both under %.2f m, %u fallen "
                "through: %s",
                scenes[s].name, (double)sepax->q.ground_penetration, (double)sepax->q.box_overlap, (double)GOAL_DEPTH,
                sepax->q.fallen,
                VERDICT(sepax->q.ground_penetration < GOAL_DEPTH && sepax->q.box_overlap < GOAL_DEPTH &&
                        sepax->q.fallen == 0));
        if (sepax && bullet) {
            double goal = scenes[s].kind == PYRAMID ? GOAL_PYRAMID_RATIO : GOAL_FALLING_RATIO;
            double ratio = sepax->ms_median / bullet->ms_median;
            bench_report_note(&rep, "  %s: sepax's time a step %.2fx Bullet's, at most %.2fx: %s", scenes[s].name,
                              ratio, goal, VERDICT(ratio <= goal));
        }
#undef VERDICT
    }

    return bench_output_close(&rep, &o.output, program, save_path, failures ? 3 : 0);
}
