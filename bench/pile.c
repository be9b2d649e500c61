/* sepax_bench pile: how deep the boxes of a settling pile overlap, over the whole settling and on
 * several piles, not at one step of one pile.
 *
 * The falling scenes' end state is one step, the 300th, of one pile, while the pile still
 * settles: its deepest box-box overlap there is whichever collision happens to be under way, and any
 * change of rounding moves it between 0.005 and 0.08 m. This program measures the deepest overlap
 * (tests/support/scenes.c's test_scene_measure) at every step from 100 (the boxes have landed) to 600,
 * on the falling pile (box ground) and falling_mesh (mesh ground) built with several seeds of their
 * random orientations, and reports for each its mean, median, 90th and 99th percentiles, largest,
 * the steps over 2 cm, the step-300 figure, the deepest ground penetration, and the step at which
 * the whole pile sleeps (up to 3,000).
 *
 *   sepax_bench pile                 # both scenes, seeds 1 to 3 (seed 1 is the scenes' own)
 *   sepax_bench pile --seeds=5 --csv # five seeds, CSV on stdout
 *   sepax_bench pile --quick         # seed 1 alone
 */
#include "suite.h"
#include "support/scenes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_STEP 100
#define LAST_STEP 600
#define MAX_STEPS 3000
#define DEEP 0.02f

/* The seeds: the scene's own first, then fixed others. */
static const uint64_t seeds[] = { TEST_SCENE_FALLING_SEED, 0x1234567ull,          0xABCDEF01ull,
                                  0x5DEECE66Dull,          0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                                  0x27D4EB2F165667C5ull,   0x94D049BB133111EBull };
#define SEED_COUNT (sizeof seeds / sizeof seeds[0])

typedef struct pile_figures {
    double mean;
    float median, p90, p99, max, at300, ground;
    int deep, asleep;
} pile_figures;

static int by_value(const void* x, const void* y)
{
    float a = *(const float*)x, b = *(const float*)y;
    return a < b ? -1 : a > b;
}

static bool run_pile(bool mesh, uint64_t seed, pile_figures* out)
{
    test_scene_layout layout;
    test_scene_falling_layout_seeded(&layout, seed);
    layout.mesh_ground = mesh;
    test_scene scene;
    if (test_scene_from_layout(&scene, NULL, &layout) != SPX_OK) return false;
    static float overlap[LAST_STEP - FIRST_STEP + 1];
    int n = 0;
    memset(out, 0, sizeof *out);
    out->asleep = -1;
    for (int step = 1; step <= MAX_STEPS; ++step) {
        if (spx_world_step(scene.world, scene.dt) != SPX_OK) {
            test_scene_destroy(&scene);
            return false;
        }
        if (step >= FIRST_STEP && step <= LAST_STEP) {
            test_scene_quality q;
            test_scene_measure(&scene, &q);
            overlap[n++] = q.box_overlap;
            out->mean += q.box_overlap;
            out->deep += q.box_overlap > DEEP;
            if (q.ground_penetration > out->ground) out->ground = q.ground_penetration;
            if (step == 300) out->at300 = q.box_overlap;
        }
        spx_step_stats st;
        spx_world_get_stats(scene.world, &st);
        if (st.awake_body_count == 0 && out->asleep < 0) out->asleep = step;
        if (out->asleep >= 0 && step >= LAST_STEP) break;
    }
    test_scene_destroy(&scene);
    out->mean /= n;
    qsort(overlap, (size_t)n, sizeof overlap[0], by_value);
    out->median = overlap[n / 2];
    out->p90 = overlap[n * 9 / 10];
    out->p99 = overlap[n * 99 / 100];
    out->max = overlap[n - 1];
    return true;
}

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sepax_bench pile [options]\n"
            "  --seeds=<n>        piles a scene, 1..%zu (default 3; --quick 1)\n"
            "  --csv              CSV on stdout\n"
            "  (one run a pile: --runs does not apply)\n",
            SEED_COUNT);
    bench_common_usage(f);
}

typedef struct options {
    int seed_count;
    bool csv;
} options;

/* The pile suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    if ((v = bench_option_value(argv[*i], "--seeds"))) o->seed_count = atoi(v);
    else if (strcmp(argv[*i], "--csv") == 0) o->csv = true;
    else return 0;
    return 1;
}

int bench_pile(int argc, char** argv)
{
    options o = { 0, false };
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 1000, own_option, &o, usage);
    if (parsed >= 0) return parsed;
    bool csv = o.csv;
    int seed_count = o.seed_count != 0 ? o.seed_count : common.quick ? 1 : 3;
    if (seed_count < 1 || seed_count > (int)SEED_COUNT) {
        fprintf(stderr, "%s: --seeds takes 1 to %zu\n", argv[0], SEED_COUNT);
        return 2;
    }
    if (csv) printf("scene,seed,mean,median,p90,p99,max,steps_over_2cm,at_step_300,ground_max,asleep_at\n");
    else
        printf("box-box overlap (m) at every step from %d to %d; ground: deepest penetration then; asleep: the "
               "step the whole pile sleeps (-1: not by %d)\n%-12s %4s %8s %8s %8s %8s %8s %8s %8s %8s %7s\n",
               FIRST_STEP, LAST_STEP, MAX_STEPS, "scene", "seed", "mean", "median", "p90", "p99", "max", ">2cm",
               "step300", "ground", "asleep");
    for (int m = 0; m < 2; ++m)
        for (int k = 0; k < seed_count; ++k) {
            pile_figures f;
            const char* name = m ? "falling_mesh" : "falling";
            if (!run_pile(m == 1, seeds[k], &f)) {
                fprintf(stderr, "%s: %s, seed %d failed\n", argv[0], name, k + 1);
                return 1;
            }
            if (csv)
                printf("%s,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%d,%.5f,%.5f,%d\n", name, k + 1, f.mean, f.median, f.p90, f.p99,
                       f.max, f.deep, f.at300, f.ground, f.asleep);
            else
                printf("%-12s %4d %8.4f %8.4f %8.4f %8.4f %8.4f %8d %8.4f %8.4f %7d\n", name, k + 1, f.mean, f.median,
                       f.p90, f.p99, f.max, f.deep, f.at300, f.ground, f.asleep);
            fflush(stdout);
        }
    return 0;
}
