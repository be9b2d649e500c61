/* sepax bench ccd: the bullet through paper (tests/support/scenes.h: test_scene_paper_layout)
 * in every engine: a 0.1 m cube shot at a static 0.01 m wall 5 m away at 10 to 10,000 m/s, from 8
 * start phases spread over one step's travel. Per speed and engine: shots that went through, the
 * deepest overlap with the wall after any step, the fastest rebound over the shot's speed
 * (restitution 0: a level cube should have none), and the time a step. The same with the cube turned
 * (SPX_PAPER_TURNS fixed random rotations): it strikes with a corner or an edge, turns, and strikes
 * again; with restitution 0 each contact stops, but the spin the first one gave can carry the cube
 * off the wall, and the peers show how far. sepax runs with its continuous stage on and,
 * as a control, off; the comparison build adds Bullet (CCD off, its default, and on) and ODE, which
 * build the same shot from the same layout (bench/peers/world_peers.h).
 * Then the struck stack (tests/support/scenes.h: test_scene_struck_stack), sepax only: a 5 cm cube
 * fired at 100, 500 and 2,000 m/s into a settled stack of five unit boxes, at the middle of each box
 * and each seam between two, from 8 phases. Per speed: the deepest overlap of any two bodies (the
 * ground included) after any step, the most the energy (kinetic and potential) rose above its value
 * before the shot, over that value, and the steps that reached the impact limit.
 * Then bodies spinning beside thin targets (tests/support/spin.h), sepax alone: planks and cubes at
 * 150 to 2,000 rad/s about each principal axis, level and tilted, beside a 0.01 m wall and a sheet
 * of two triangles, 8 phases; per body, target, speed and engine: runs that went through, the most
 * the kinetic energy rose over its start, the deepest any corner got past the target's near face,
 * and the time a step. */
#define _POSIX_C_SOURCE 200809L
#include "scene_suites.h"
#include "commands.h"
#include "timer.h"
#include "support/scenes.h"
#include "support/spin.h"
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
    const bench_world_peer* peer; /* NULL: sepax */
    bool continuous;              /* sepax: spx_world_def.enable_continuous */
} ccd_engine;

/* One engine at one speed, over the 8 phases. */
typedef struct ccd_row {
    const ccd_engine* e;
    float speed; /* m/s */
    bool turned; /* the cube turned (SPX_PAPER_TURNS rotations), or level */
    bool stack;  /* the struck stack, not the paper shot */
    int shots;
    int passes;    /* shots whose cube ended past the wall's far face */
    float deepest; /* m: cube-wall overlap along x after any step */
    float rebound; /* fastest motion back over the shot's speed */
    double ms[MAX_REPS], ms_median;
    uint32_t impacts; /* sepax: impacts its continuous stage resolved (all phases) */
    double growth;    /* stack: the most the energy rose over its value before the shot */
    uint32_t limited; /* stack: steps that reached the impact limit (all shots) */
    bool ok;
} ccd_row;

/* The shot's figures after one step, folded into the row. */
static void observe(ccd_row* r, const test_scene_layout* l, spx_transform t, spx_vec3 v, bool* beyond)
{
    test_paper_state st;
    test_scene_paper_measure(l, t, v, &st);
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
        const int phase = shot % TEST_PAPER_PHASES;
        test_scene_layout l;
        test_scene_paper_layout(&l, r->speed, phase);
        if (r->turned) {
            if (phase == 0) turn = test_scene_random_rotation(&seed);
            l.start[0].q = turn;
        }
        bool beyond = false;
        spx_transform t;
        spx_vec3 v, w;
        if (!r->e->peer) {
            spx_world_def d = spx_default_world_def();
            d.enable_continuous = r->e->continuous;
            d.gravity = l.gravity;
            test_scene s;
            if (test_scene_from_layout(&s, &d, &l) != SPX_OK) return NAN;
            for (uint32_t k = 0; k < l.steps; ++k) {
                uint64_t t0 = bench_now_ns();
                spx_result res = spx_world_step(s.world, l.dt);
                wall += (double)(bench_now_ns() - t0) * 1e-6;
                if (res != SPX_OK) return test_scene_destroy(&s), NAN;
                spx_step_stats st;
                spx_world_get_stats(s.world, &st);
                tally.impacts += st.impact_count;
                spx_body_get_transform(s.world, s.bodies[0], &t);
                spx_body_get_velocity(s.world, s.bodies[0], &v, &w);
                observe(&tally, &l, t, v, &beyond);
            }
            test_scene_destroy(&s);
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
    if (last)
        r->passes = tally.passes, r->deepest = tally.deepest, r->rebound = tally.rebound, r->impacts = tally.impacts;
    return wall / (double)steps_run;
}

/* Every struck-stack shot once; returns the mean ms a step, or NAN on failure. Figures kept when `last`. */
static double strike(ccd_row* r, bool last)
{
    double wall = 0.0, growth = 0.0;
    uint32_t steps_run = 0, limited = 0, impacts = 0;
    float deepest = 0.0f;
    spx_world_def d = spx_default_world_def();
    d.enable_continuous = r->e->continuous;
    for (int shot = 0; shot < r->shots; ++shot) {
        test_scene sc;
        if (test_scene_struck_stack(&sc, &d) != SPX_OK) return NAN;
        if (test_scene_struck_stack_fire(&sc, r->speed, shot / TEST_PAPER_PHASES, shot % TEST_PAPER_PHASES) != SPX_OK)
            return test_scene_destroy(&sc), NAN;
        test_struck_state st;
        test_scene_struck_stack_measure(&sc, &st);
        const double energy0 = st.energy;
        for (uint32_t k = 0; k < sc.steps; ++k) {
            uint64_t t0 = bench_now_ns();
            spx_result res = spx_world_step(sc.world, sc.dt);
            wall += (double)(bench_now_ns() - t0) * 1e-6;
            if (res != SPX_OK) return test_scene_destroy(&sc), NAN;
            spx_step_stats stats;
            spx_world_get_stats(sc.world, &stats);
            impacts += stats.impact_count;
            limited += (stats.flags & SPX_STEP_IMPACT_LIMIT) != 0;
            test_scene_struck_stack_measure(&sc, &st);
            deepest = fmaxf(deepest, st.overlap);
            growth = fmax(growth, (st.energy - energy0) / energy0);
        }
        steps_run += sc.steps;
        test_scene_destroy(&sc);
    }
    if (last) r->deepest = deepest, r->growth = growth, r->limited = limited, r->impacts = impacts;
    return wall / (double)steps_run;
}

/* Steps of each spinning run. */
#define SPIN_STEPS 120

/* One engine (sepax, stage on or off) for one body, target and speed, over the 3 axes and 8 phases. */
typedef struct spin_row {
    const ccd_engine* e;
    test_spin_body body;
    test_spin_target target;
    float speed; /* rad/s */
    int runs;
    int through;   /* runs with a corner past the target or the centre past its face */
    double growth; /* the most the kinetic energy rose over its start, relative */
    float deepest; /* m: the deepest corner past the target's near face after any step */
    double ms[MAX_REPS], ms_median;
    uint32_t impacts;
    bool ok;
} spin_row;

/* Every axis and phase once; returns the mean ms a step, or NAN on failure. Figures kept when `last`. */
static double spin(spin_row* r, bool last)
{
    spx_world_def d = spx_default_world_def();
    d.enable_continuous = r->e->continuous;
    spin_row tally = *r;
    tally.runs = tally.through = 0, tally.growth = 0.0, tally.deepest = 0.0f, tally.impacts = 0;
    double wall = 0.0;
    for (int axis = 0; axis < 3; ++axis)
        for (int phase = 0; phase < TEST_SPIN_PHASES; ++phase) {
            const test_spin_case c = { r->body, r->target, axis, r->speed, phase };
            test_spin_result res;
            uint64_t t0 = bench_now_ns();
            if (test_spin_run(&c, &d, SPIN_STEPS, &res) != SPX_OK) return NAN;
            wall += (double)(bench_now_ns() - t0) * 1e-6;
            ++tally.runs;
            tally.through += res.through || !res.finite;
            tally.growth = fmax(tally.growth, res.energy_growth);
            tally.deepest = fmaxf(tally.deepest, res.deepest);
            tally.impacts += res.impacts;
        }
    if (last) *r = tally;
    return wall / (double)(tally.runs * SPIN_STEPS);
}

static const char* spin_body_name(test_spin_body b) { return b == TEST_SPIN_PLANK ? "plank" : "cube"; }
static const char* spin_target_name(test_spin_target t) { return t == TEST_SPIN_WALL ? "wall" : "sheet"; }

/* Both tables, for the writers. */
typedef struct ccd_tables {
    const ccd_row* rows;
    int n;
    const spin_row* spins;
    int spin_n;
} ccd_tables;

/* One CSV: the shots' and the stack's rows (suite ccd), then the spinning rows (suite ccd-spin,
   speed in rad/s in spin_rad_s, through in passes), each leaving the others' columns empty. */
static bool write_csv(const char* path, const void* all, int n)
{
    (void)n;
    const ccd_tables* t = all;
    const ccd_row* rows = t->rows;
    n = t->n;
    FILE* f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "suite,speed_m_s,cube,engine,shots,passes,deepest_penetration_m,rebound_ratio,ms_step_median,impacts,"
               "energy_growth,limit_steps,spin_rad_s,body,target\n");
    for (int i = 0; i < n; ++i) {
        const ccd_row* r = &rows[i];
        if (!r->ok) continue;
        if (r->stack)
            fprintf(f, "ccd,%g,stack,%s,%d,,%.6g,,%.5f,%u,%.4g,%u,,,\n", (double)r->speed, r->e->name, r->shots,
                    (double)r->deepest, r->ms_median, r->impacts, r->growth, r->limited);
        else
            fprintf(f, "ccd,%g,%s,%s,%d,%d,%.6g,%.4g,%.5f,%u,,,,,\n", (double)r->speed, r->turned ? "turned" : "level",
                    r->e->name, r->shots, r->passes, (double)r->deepest, (double)r->rebound, r->ms_median, r->impacts);
    }
    for (int i = 0; i < t->spin_n; ++i) {
        const spin_row* r = &t->spins[i];
        if (r->ok)
            fprintf(f, "ccd-spin,,,%s,%d,%d,%.6g,,%.5f,%u,%.4g,,%g,%s,%s\n", r->e->name, r->runs, r->through,
                    (double)r->deepest, r->ms_median, r->impacts, r->growth, (double)r->speed, spin_body_name(r->body),
                    spin_target_name(r->target));
    }
    return fclose(f) == 0;
}

static bool write_json(const bench_suite_options* o, const void* all, int n)
{
    (void)n;
    const ccd_tables* t = all;
    const ccd_row* rows = t->rows;
    n = t->n;
    cJSON* root = bench_json_root(o->machine, o->reps);
    cJSON_AddStringToObject(root, "suite", "ccd");
    cJSON* results = cJSON_AddArrayToObject(root, "results");
    for (int i = 0; i < n; ++i) {
        const ccd_row* r = &rows[i];
        if (!r->ok) continue;
        cJSON* j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "speed_m_s", r->speed);
        cJSON_AddStringToObject(j, "cube", r->stack ? "stack" : r->turned ? "turned" : "level");
        cJSON_AddStringToObject(j, "engine", r->e->name);
        cJSON_AddNumberToObject(j, "shots", r->shots);
        if (!r->stack) cJSON_AddNumberToObject(j, "passes", r->passes);
        cJSON_AddNumberToObject(j, "deepest_penetration_m", r->deepest);
        if (!r->stack) cJSON_AddNumberToObject(j, "rebound_ratio", r->rebound);
        if (r->stack) cJSON_AddNumberToObject(j, "energy_growth", r->growth);
        if (r->stack) cJSON_AddNumberToObject(j, "limit_steps", r->limited);
        cJSON_AddNumberToObject(j, "ms_step_median", r->ms_median);
        if (!r->e->peer) cJSON_AddNumberToObject(j, "impacts", r->impacts);
        cJSON_AddItemToArray(results, j);
    }
    cJSON* spinning = cJSON_AddArrayToObject(root, "spinning");
    for (int i = 0; i < t->spin_n; ++i) {
        const spin_row* r = &t->spins[i];
        if (!r->ok) continue;
        cJSON* j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "speed_rad_s", r->speed);
        cJSON_AddStringToObject(j, "body", spin_body_name(r->body));
        cJSON_AddStringToObject(j, "target", spin_target_name(r->target));
        cJSON_AddStringToObject(j, "engine", r->e->name);
        const bench_json_number numbers[] = {
            { "runs", r->runs },
            { "through", r->through },
            { "energy_growth", r->growth },
            { "deepest_overlap_m", r->deepest },
            { "ms_step_median", r->ms_median },
            { "impacts", r->impacts },
        };
        bench_json_add_numbers(j, numbers, BENCH_COUNT(numbers));
        cJSON_AddItemToArray(spinning, j);
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
    printf(
        "suite ccd: the bullet through paper: a 0.1 m cube (1 kg, restitution 0) shot along +x at a static wall 0.01 m "
        "thick, 5 m away, from %d start phases over one 1/60 s step; no gravity; level, and turned by %d fixed random "
        "rotations\n"
        "passes: shots whose cube ended past the wall's far face; deepest_m: the deepest cube-wall overlap after any "
        "step; rebound: the fastest motion back over the shot's speed; ms_step: median of %d repetitions\n"
        "sepax-discrete: sepax with its continuous stage off (a control); impacts: sepax's continuous stage, all "
        "phases\n\n",
        TEST_PAPER_PHASES, SPX_PAPER_TURNS, o->reps);
    printf("%-9s %-6s %-15s %6s %6s %10s %8s %8s %7s\n", "speed_m_s", "cube", "engine", "shots", "passes", "deepest_m",
           "rebound", "ms_step", "impacts");
    static ccd_row rows[(2 * TEST_PAPER_SPEED_COUNT + TEST_STRUCK_SPEED_COUNT) * MAX_ENGINES];
    int n = 0, failures = 0;
    for (int kind = 0; kind < 2 * TEST_PAPER_SPEED_COUNT; ++kind) {
        const int si = kind % TEST_PAPER_SPEED_COUNT;
        const bool turned = kind >= TEST_PAPER_SPEED_COUNT;
        ccd_row* first = &rows[n];
        for (int e = 0; e < engine_count; ++e)
            rows[n++] = (ccd_row){ .e = &engines[e],
                                   .speed = test_paper_speeds[si],
                                   .turned = turned,
                                   .shots = turned ? SPX_PAPER_TURNS * TEST_PAPER_PHASES : TEST_PAPER_PHASES,
                                   .ok = true };
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
                   r->e->name, r->shots, r->passes, (double)r->deepest, (double)r->rebound, r->ms_median, impacts);
        }
        fflush(stdout);
    }
    printf(
        "\nthe struck stack: a cube of 5 cm (0.125 kg, restitution 0) fired along +x into five unit boxes (1 kg, "
        "friction 0.6) settled on a static ground for %d steps, at the middle of each box and each seam between two "
        "(%d targets), from %d phases; %d steps after the shot; default gravity, sleeping on\n"
        "deepest_m: the deepest overlap of any two bodies (the ground included) after any step; growth: the most the "
        "energy (kinetic and potential) rose above its value before the shot, over that value; limit: steps that "
        "reached the impact limit, all shots\n\n",
        TEST_STRUCK_SETTLE_STEPS, TEST_STRUCK_TARGETS, TEST_PAPER_PHASES, TEST_STRUCK_STEPS);
    printf("%-9s %-15s %6s %10s %9s %6s %8s %7s\n", "speed_m_s", "engine", "shots", "deepest_m", "growth", "limit",
           "ms_step", "impacts");
    for (int si = 0; si < TEST_STRUCK_SPEED_COUNT; ++si) {
        ccd_row* first = &rows[n];
        int count = 0;
        for (int e = 0; e < engine_count; ++e) {
            if (engines[e].peer) continue; /* the peers have no such layout */
            rows[n++] = (ccd_row){ .e = &engines[e],
                                   .speed = test_struck_speeds[si],
                                   .stack = true,
                                   .shots = TEST_STRUCK_TARGETS * TEST_PAPER_PHASES,
                                   .ok = true };
            ++count;
        }
        for (int k = 0; k < o->reps; ++k)
            for (int e = 0; e < count; ++e)
                if (first[e].ok) {
                    first[e].ms[k] = strike(&first[e], k == o->reps - 1);
                    if (isnan(first[e].ms[k])) {
                        fprintf(stderr, "sepax bench: ccd: %s could not strike the stack at %g m/s\n", first[e].e->name,
                                (double)first[e].speed);
                        first[e].ok = false, ++failures;
                    }
                }
        for (int e = 0; e < count; ++e) {
            ccd_row* r = &first[e];
            if (!r->ok) continue;
            r->ms_median = bench_median(r->ms, (size_t)o->reps);
            printf("%-9g %-15s %6d %10.4g %9.3g %6u %8.4f %7u\n", (double)r->speed, r->e->name, r->shots,
                   (double)r->deepest, r->growth, r->limited, r->ms_median, r->impacts);
        }
        fflush(stdout);
    }

    printf(
        "\nspinning: a plank (1 x 0.05 x 0.01 m half extents) or a cube (0.05 m), density 1,000, restitution 0, "
        "spinning about each principal axis beside a static wall 0.01 m thick or a sheet (a static mesh of two "
        "triangles), its near face halfway between the body's half width and its reach; %d phases (start angles, odd "
        "ones tilted 0.5 rad off the principal axes), %d steps of 1/60 s, no gravity\n"
        "through: runs whose body got a corner 0.01 m past the face or its centre past it; energy_up: the most the "
        "kinetic energy rose over its start (relative); deepest_m: the deepest corner past the face after any step\n\n",
        TEST_SPIN_PHASES, SPIN_STEPS);
    printf("%-9s %-6s %-6s %-15s %5s %7s %10s %10s %8s %7s\n", "rad_s", "body", "target", "engine", "runs", "through",
           "energy_up", "deepest_m", "ms_step", "impacts");
    static spin_row spins[2 * 2 * TEST_SPIN_SPEED_COUNT * 2];
    int spin_n = 0;
    for (int body = 0; body < 2; ++body)
        for (int target = 0; target < 2; ++target)
            for (int si = 0; si < TEST_SPIN_SPEED_COUNT; ++si) {
                spin_row* first = &spins[spin_n];
                for (int e = 0; e < 2; ++e) /* sepax, stage on and off */
                    spins[spin_n++] = (spin_row){ .e = &engines[e],
                                                  .body = (test_spin_body)body,
                                                  .target = (test_spin_target)target,
                                                  .speed = test_spin_speeds[si],
                                                  .ok = true };
                for (int k = 0; k < o->reps; ++k)
                    for (int e = 0; e < 2; ++e)
                        if (first[e].ok) {
                            first[e].ms[k] = spin(&first[e], k == o->reps - 1);
                            if (isnan(first[e].ms[k])) {
                                fprintf(stderr, "sepax bench: ccd: %s could not spin a %s at %g rad/s\n",
                                        first[e].e->name, spin_body_name(first[e].body), (double)first[e].speed);
                                first[e].ok = false, ++failures;
                            }
                        }
                for (int e = 0; e < 2; ++e) {
                    spin_row* r = &first[e];
                    if (!r->ok) continue;
                    r->ms_median = bench_median(r->ms, (size_t)o->reps);
                    printf("%-9g %-6s %-6s %-15s %5d %7d %10.3g %10.4g %8.4f %7u\n", (double)r->speed,
                           spin_body_name(r->body), spin_target_name(r->target), r->e->name, r->runs, r->through,
                           r->growth, (double)r->deepest, r->ms_median, r->impacts);
                }
                fflush(stdout);
            }
    const ccd_tables tables = { rows, n, spins, spin_n };
    return bench_write_files(o, failures ? EXIT_FAILED : EXIT_DONE, write_csv, write_json, &tables, n + spin_n);
}
