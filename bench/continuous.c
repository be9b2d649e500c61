/* sepax_bench continuous: the continuous-collision table (docs/continuous.md).
 *
 *   sepax_bench continuous [--quick] [--bodies=<n>] [--steps=<n>] [--runs=<reps>] [--inner=<m>]
 *
 * Rows: the closed container (tests/support/container.c: boxes of 0.1 m at 250 m/s in random
 * directions inside six static walls 0.1 m thick; plain materials with gravity, and elastic) with its
 * time a step, impacts a step, steps over the impact limit and boxes that escaped; the falling and
 * falling_mesh scenes (tests/support/scenes.c) with the continuous stage on and off, median of the
 * repetitions' mean step time; the bullet through paper (test_scene_paper: a 0.1 m cube at a static
 * 0.01 m wall at 10 to 10,000 m/s, 8 start phases) with passes, deepest penetration and rebound. Markdown on
 * stdout. One thread; wall-clock time of spx_world_step alone. */
#include "machine.h"
#include "suite.h"
#include "timer.h"
#include "support/container.h"
#include "support/scenes.h"
#include <sepax/sepax.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct options {
    uint32_t bodies, steps, reps;
    float inner;
} options;

static int container_row(const options* o, bool elastic)
{
    test_container c;
    if (test_container_create(&c, o->bodies, 250.0f, o->inner, elastic, NULL) != SPX_OK) {
        fprintf(stderr, "container: could not build the scene\n");
        return 1;
    }
    double total = 0.0, worst = 0.0;
    uint64_t impacts = 0;
    uint32_t limited = 0, escaped_max = 0, past_max = 0;
    double e0 = 0.0;
    spx_world_get_kinetic_energy(c.world, &e0);
    for (uint32_t k = 0; k < o->steps; ++k) {
        uint64_t t0 = bench_now_ns();
        spx_world_step(c.world, c.dt);
        double ms = (double)(bench_now_ns() - t0) * 1e-6;
        total += ms;
        if (ms > worst) worst = ms;
        spx_step_stats st;
        spx_world_get_stats(c.world, &st);
        impacts += st.impact_count;
        limited += (st.flags & SPX_STEP_IMPACT_LIMIT) != 0;
        uint32_t out = test_container_escaped(&c, TEST_CONTAINER_WALL), past = test_container_escaped(&c, 0.0f);
        if (out > escaped_max) escaped_max = out;
        if (past > past_max) past_max = past;
    }
    double e1 = 0.0;
    spx_world_get_kinetic_energy(c.world, &e1);
    printf("| container (%s): boxes of 0.1 m at 250 m/s, inside %.0f m wide | %u | %u | %.2f | %.2f | %.0f | "
           "%u | **%u escaped** | most centres past a wall's inner face at once: %u; kinetic energy %.4g -> %.4g J |\n",
           elastic ? "elastic: e = 1, no friction, no gravity" : "plain: e = 0.05, friction 0.6, gravity",
           2.0 * o->inner, c.count, o->steps, total / o->steps, worst, (double)impacts / o->steps, limited, escaped_max,
           past_max, e0, e1);
    test_container_destroy(&c);
    return 0;
}

static double stage_share; /* of the last run with the stage on: its own time over the steps' */

static double scene_ms(bool mesh, bool continuous, uint32_t steps, uint32_t* fast, uint32_t* impacts)
{
    double stage = 0.0, inside = 0.0;
    spx_world_def d = spx_default_world_def();
    d.enable_continuous = continuous;
    test_scene scene;
    if ((mesh ? test_scene_falling_mesh(&scene, &d) : test_scene_falling(&scene, &d)) != SPX_OK) return NAN;
    double total = 0.0;
    *fast = *impacts = 0;
    for (uint32_t k = 0; k < steps; ++k) {
        uint64_t t0 = bench_now_ns();
        spx_world_step(scene.world, scene.dt);
        total += (double)(bench_now_ns() - t0) * 1e-6;
        spx_step_stats st;
        spx_world_get_stats(scene.world, &st);
        *fast += st.fast_body_count;
        *impacts += st.impact_count;
        stage += st.continuous_ms;
        inside += st.total_ms;
    }
    if (continuous) stage_share = inside > 0.0 ? stage / inside : 0.0;
    test_scene_destroy(&scene);
    return total / steps;
}

static void cost_rows(const options* o, bool mesh)
{
    double on[16], off[16];
    uint32_t reps = o->reps < 16 ? o->reps : 16, fast = 0, impacts = 0, steps = o->steps < 300 ? o->steps : 300;
    /* Alternate on and off so that a drift of the machine's speed falls on both. */
    for (uint32_t r = 0; r < reps; ++r) {
        on[r] = scene_ms(mesh, true, steps, &fast, &impacts);
        uint32_t f2, i2;
        off[r] = scene_ms(mesh, false, steps, &f2, &i2);
    }
    double m_on = bench_median(on, reps), m_off = bench_median(off, reps);
    const char* name = mesh ? "falling_mesh" : "falling";
    printf("| %s, continuous off | 1000 | %u | %.2f | | | | | median of %u |\n", name, steps, m_off, reps);
    printf("| %s, continuous on | 1000 | %u | %.2f | | %.2f | | | **%+.1f%%** against off (machine noise included); "
           "the stage's own time %.2f%% of the step; %u fast body-steps |\n",
           name, steps, m_on, (double)impacts / steps, 100.0 * (m_on / m_off - 1.0), 100.0 * stage_share, fast);
}

/* The shot, its figures and their meaning are tests/support/scenes.h's (test_scene_paper), which
   `sepax bench ccd` runs in the peers too. */
static void bullet_rows(void)
{
    for (int si = 0; si < TEST_PAPER_SPEED_COUNT; ++si) {
        const float speed = test_paper_speeds[si];
        int passes = 0;
        float pen = 0.0f, back = 0.0f;
        double total = 0.0;
        uint32_t steps_run = 0;
        for (int phase = 0; phase < TEST_PAPER_PHASES; ++phase) {
            test_scene s;
            if (test_scene_paper(&s, speed, phase, NULL) != SPX_OK) return;
            static test_scene_layout l; /* 28 kB: off the stack */
            test_scene_paper_layout(&l, speed, phase);
            test_paper_state st = { 0.0f, false, 0.0f };
            for (uint32_t k = 0; k < s.steps; ++k) {
                uint64_t t0 = bench_now_ns();
                spx_world_step(s.world, s.dt);
                total += (double)(bench_now_ns() - t0) * 1e-6;
                ++steps_run;
                spx_transform t;
                spx_vec3 v, om;
                spx_body_get_transform(s.world, s.bodies[0], &t);
                spx_body_get_velocity(s.world, s.bodies[0], &v, &om);
                test_scene_paper_measure(&l, t, v, &st);
                pen = fmaxf(pen, st.penetration);
                back = fmaxf(back, st.rebound);
            }
            passes += st.beyond;
            test_scene_destroy(&s);
        }
        printf("| bullet through paper, %g m/s, static wall, 8 phases | 1 | | %.3f | | | | **%d passed** | "
               "deepest %.2g m, rebound %.2g of the speed |\n",
               (double)speed, total / steps_run, passes, (double)pen, (double)back);
    }
}

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench continuous [options]\n"
               "  --bodies=<n>       boxes in the container (default 5000)\n"
               "  --steps=<n>        steps a row (default 600; --quick 60)\n"
               "  --inner=<m>        the container's inner width (default 10)\n"
               "  (default 5 repetitions; --quick: 1)\n");
    bench_common_usage(f);
}

/* The continuous suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    if ((v = bench_option_value(argv[*i], "--bodies"))) o->bodies = (uint32_t)atoi(v);
    else if ((v = bench_option_value(argv[*i], "--steps"))) o->steps = (uint32_t)atoi(v);
    else if ((v = bench_option_value(argv[*i], "--inner"))) o->inner = (float)atof(v);
    else return 0;
    return 1;
}

int bench_continuous(int argc, char** argv)
{
    options o = { 5000, 0, 5, 10.0f };
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 1000, own_option, &o, usage);
    if (parsed >= 0) return parsed;
    if (o.steps == 0) o.steps = common.quick ? 60 : 600;
    o.reps = common.runs ? (uint32_t)common.runs : common.quick ? 1 : 5;
    if (o.steps < 1) o.steps = 1;
    bench_machine m;
    bench_machine_probe(&m, NULL);
    bench_print_header(argv[0], &m);
    printf(
        "| scene | bodies | steps | ms a step | worst ms | impacts a step | steps over the limit | passes | notes |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    int r = container_row(&o, false);
    r |= container_row(&o, true);
    cost_rows(&o, false);
    cost_rows(&o, true);
    bullet_rows();
    return r;
}
