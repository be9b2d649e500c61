/* sepax bench ccd: the bullet through paper (tests/support/scenes.h: spx_scene_paper_layout)
 * in every engine: a 0.1 m cube shot at a static 0.01 m wall 5 m away at 10 to 10,000 m/s, from 8
 * start phases spread over one step's travel. Per speed and engine: shots that went through, the
 * deepest overlap with the wall after any step, the fastest rebound over the shot's speed
 * (restitution 0: a level cube should have none), and the time a step. The same with the cube turned
 * (SPX_PAPER_TURNS fixed random rotations): it strikes with a corner or an edge, turns, and strikes
 * again; with restitution 0 each contact stops, but the spin the first one gave can carry the cube
 * off the wall, and the peers show how far. sepax runs with its continuous stage on and,
 * as a control, off; the comparison build adds Bullet (CCD off, its default, and on) and ODE, which
 * build the same shot from the same layout (bench/peers/world_peers.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_suites.h"
#include "commands.h"
#include "timer.h"
#include "support/scenes.h"
#include "peers/world_peers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_REPS 101
#define MAX_ENGINES 5
/* Turned shots: this many rotations (uniformly random, from a fixed seed) times the phases. */
#define SPX_PAPER_TURNS 4

typedef struct ccd_engine {
    const char* name;
    const bench_world_peer* peer;  /* NULL: sepax */
    bool continuous;               /* sepax: spx_world_def.enable_continuous */
} ccd_engine;

/* One engine at one speed, over the 8 phases. */
typedef struct ccd_row {
    const ccd_engine* e;
    float speed;                   /* m/s */
    bool turned;                   /* the cube turned (SPX_PAPER_TURNS rotations), or level */
    int shots;
    int passes;                    /* shots whose cube ended past the wall's far face */
    float deepest;                 /* m: cube-wall overlap along x after any step */
    float rebound;                 /* fastest motion back over the shot's speed */
    double ms[MAX_REPS], ms_median;
    uint32_t impacts;              /* sepax: impacts its continuous stage resolved (all phases) */
    bool ok;
} ccd_row;

/* The shot's figures after one step, folded into the row. */
static void observe(ccd_row* r, const spx_scene_layout* l, spx_transform t, spx_vec3 v, bool* beyond)
{
    spx_paper_state st;
    spx_scene_paper_measure(l, t, v, &st);
    r->deepest = fmaxf(r->deepest, st.penetration);
    r->rebound = fmaxf(r->rebound, st.rebound);
    *beyond = st.beyond;
}

/* Every phase once; returns the mean ms a step, or NAN on failure. Figures are kept when `last`. */
static double shoot(ccd_row* r, bool last)
{
    double wall = 0.0;
    uint32_t steps_run = 0;
    ccd_row tally = *r;
    tally.passes = 0, tally.deepest = 0.0f, tally.rebound = 0.0f, tally.impacts = 0;
    uint64_t seed = 0x5EEDC0DEull;
    spx_quat turn = { 0.0f, 0.0f, 0.0f, 1.0f };
    for (int shot = 0; shot < r->shots; ++shot) {
        const int phase = shot % SPX_PAPER_PHASES;
        spx_scene_layout l;
        spx_scene_paper_layout(&l, r->speed, phase);
        if (r->turned) {
            if (phase == 0) turn = spx_scene_random_rotation(&seed);
            l.start[0].q = turn;
        }
        bool beyond = false;
        spx_transform t;
        spx_vec3 v, w;
        if (!r->e->peer) {
            spx_world_def d = spx_default_world_def();
            d.enable_continuous = r->e->continuous;
            d.gravity = l.gravity;
            spx_scene s;
            if (spx_scene_from_layout(&s, &d, &l) != SPX_OK) return NAN;
            for (uint32_t k = 0; k < l.steps; ++k) {
                uint64_t t0 = bench_now_ns();
                spx_result res = spx_world_step(s.world, l.dt);
                wall += (double)(bench_now_ns() - t0) * 1e-6;
                if (res != SPX_OK) return spx_scene_destroy(&s), NAN;
                spx_step_stats st;
                spx_world_get_stats(s.world, &st);
                tally.impacts += st.impact_count;
                spx_body_get_transform(s.world, s.bodies[0], &t);
                spx_body_get_velocity(s.world, s.bodies[0], &v, &w);
                observe(&tally, &l, t, v, &beyond);
            }
            spx_scene_destroy(&s);
        } else {
            const bench_world_peer* p = r->e->peer;
            void* world = p->create(&l);
            if (!world) return NAN;
            for (uint32_t k = 0; k < l.steps; ++k) {
                uint64_t t0 = bench_now_ns();
                p->step(world);
                wall += (double)(bench_now_ns() - t0) * 1e-6;
                p->read(world, &t, &v, &w);
                observe(&tally, &l, t, v, &beyond);
            }
            p->destroy(world);
        }
        steps_run += l.steps;
        tally.passes += beyond;
    }
    if (last) r->passes = tally.passes, r->deepest = tally.deepest, r->rebound = tally.rebound, r->impacts = tally.impacts;
    return wall / (double)steps_run;
}

static bool write_csv(const char* path, const void* all, int n)
{
    const ccd_row* rows = all;
    FILE* f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "suite,speed_m_s,cube,engine,shots,passes,deepest_penetration_m,rebound_ratio,ms_step_median,impacts\n");
    for (int i = 0; i < n; ++i)
        if (rows[i].ok)
            fprintf(f, "ccd,%g,%s,%s,%d,%d,%.6g,%.4g,%.5f,%u\n", (double)rows[i].speed, rows[i].turned ? "turned" : "level",
                    rows[i].e->name, rows[i].shots,
                    rows[i].passes, (double)rows[i].deepest, (double)rows[i].rebound, rows[i].ms_median, rows[i].impacts);
    return fclose(f) == 0;
}

static bool write_json(const bench_suite_options* o, const void* all, int n)
{
    const ccd_row* rows = all;
    cJSON* root = bench_json_root(o->machine, o->reps);
    cJSON_AddStringToObject(root, "suite", "ccd");
    cJSON* results = cJSON_AddArrayToObject(root, "results");
    for (int i = 0; i < n; ++i) {
        const ccd_row* r = &rows[i];
        if (!r->ok) continue;
        cJSON* j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "speed_m_s", r->speed);
        cJSON_AddStringToObject(j, "cube", r->turned ? "turned" : "level");
        cJSON_AddStringToObject(j, "engine", r->e->name);
        cJSON_AddNumberToObject(j, "shots", r->shots);
        cJSON_AddNumberToObject(j, "passes", r->passes);
        cJSON_AddNumberToObject(j, "deepest_penetration_m", r->deepest);
        cJSON_AddNumberToObject(j, "rebound_ratio", r->rebound);
        cJSON_AddNumberToObject(j, "ms_step_median", r->ms_median);
        if (!r->e->peer) cJSON_AddNumberToObject(j, "impacts", r->impacts);
        cJSON_AddItemToArray(results, j);
    }
    return bench_json_write(o->json, root);
}

int bench_ccd(const bench_suite_options* o)
{
    ccd_engine engines[MAX_ENGINES];
    int engine_count = 0;
    engines[engine_count++] = (ccd_engine){ "sepax", NULL, true };
    engines[engine_count++] = (ccd_engine){ "sepax-discrete", NULL, false };
#if defined(SPX_BENCH_HAVE_BULLET)
    if (o->peers) engines[engine_count++] = (ccd_engine){ "bullet", bench_world_peer_bullet(), false };
    if (o->peers) engines[engine_count++] = (ccd_engine){ "bullet-ccd", bench_world_peer_bullet_ccd(), true };
#endif
#if defined(SPX_BENCH_HAVE_ODE)
    if (o->peers) engines[engine_count++] = (ccd_engine){ "ode", bench_world_peer_ode(), false };
#endif
    for (int e = 0; e < engine_count; ++e)
        if (engines[e].peer) printf("%s: %s\n", engines[e].name, engines[e].peer->describe());
    printf("suite ccd: the bullet through paper: a 0.1 m cube (1 kg, restitution 0) shot along +x at a static wall 0.01 m "
           "thick, 5 m away, from %d start phases over one 1/60 s step; no gravity; level, and turned by %d fixed random "
           "rotations\n"
           "passes: shots whose cube ended past the wall's far face; deepest_m: the deepest cube-wall overlap after any "
           "step; rebound: the fastest motion back over the shot's speed; ms_step: median of %d repetitions\n"
           "sepax-discrete: sepax with its continuous stage off (a control); impacts: sepax's continuous stage, all phases\n\n",
           SPX_PAPER_PHASES, SPX_PAPER_TURNS, o->reps);
    printf("%-9s %-6s %-15s %6s %6s %10s %8s %8s %7s\n", "speed_m_s", "cube", "engine", "shots", "passes", "deepest_m", "rebound",
           "ms_step", "impacts");
    static ccd_row rows[2 * SPX_PAPER_SPEED_COUNT * MAX_ENGINES];
    int n = 0, failures = 0;
    for (int kind = 0; kind < 2 * SPX_PAPER_SPEED_COUNT; ++kind) {
        const int si = kind % SPX_PAPER_SPEED_COUNT;
        const bool turned = kind >= SPX_PAPER_SPEED_COUNT;
        ccd_row* first = &rows[n];
        for (int e = 0; e < engine_count; ++e)
            rows[n++] = (ccd_row){ .e = &engines[e], .speed = spx_paper_speeds[si], .turned = turned,
                                   .shots = turned ? SPX_PAPER_TURNS * SPX_PAPER_PHASES : SPX_PAPER_PHASES, .ok = true };
        /* Repetitions interleave the engines, so that a change in the machine's load falls on all. */
        for (int k = 0; k < o->reps; ++k)
            for (int e = 0; e < engine_count; ++e)
                if (first[e].ok) {
                    first[e].ms[k] = shoot(&first[e], k == o->reps - 1);
                    if (isnan(first[e].ms[k])) {
                        fprintf(stderr, "sepax bench: ccd: %s could not shoot at %g m/s\n", first[e].e->name,
                                (double)first[e].speed);
                        first[e].ok = false, ++failures;
                    }
                }
        for (int e = 0; e < engine_count; ++e) {
            ccd_row* r = &first[e];
            if (!r->ok) continue;
            r->ms_median = bench_median(r->ms, (size_t)o->reps);
            char impacts[16] = "-";
            if (!r->e->peer) snprintf(impacts, sizeof impacts, "%u", r->impacts);
            printf("%-9g %-6s %-15s %6d %6d %10.4g %8.3g %8.4f %7s\n", (double)r->speed, r->turned ? "turned" : "level",
                   r->e->name, r->shots, r->passes,
                   (double)r->deepest, (double)r->rebound, r->ms_median, impacts);
        }
        fflush(stdout);
    }
    return bench_write_files(o, failures ? EXIT_FAILED : EXIT_DONE, write_csv, write_json, rows, n);
}
