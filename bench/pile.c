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
 *   sepax_bench pile --every-step    # the per-step table below instead
 *
 * --every-step measures the deepest box-box overlap and the deepest ground penetration after every
 * step (the plain-data penetration queries) and reports for each its median, 99th percentile and
 * largest over the steps with the step of the largest, and the steps where either is over 1 cm: the
 * falling piles over steps 3 to 1,200 (their starting overlaps of up to 13 cm take the push speed
 * limit two steps to clear), 64 boxes dropped on a bumpy mesh terrain over its 600 steps and a row
 * of 20 toppling dominoes over its 300 (tests/support/overlap_scenes.h). Sleeping as each scene has it.
 */
#include "suite.h"
#include "support/overlap_scenes.h"
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

#define EVERY_MAX_STEPS 1200
#define OVER 0.01f

/* Median, 99th percentile, largest and the step of the largest of one figure over the steps. */
typedef struct step_figures {
    float median, p99, max;
    int max_step;
} step_figures;

static void figures_of(float* values, int n, int first_step, step_figures* out)
{
    out->max = -1.0f, out->max_step = first_step;
    for (int i = 0; i < n; ++i)
        if (values[i] > out->max) out->max = values[i], out->max_step = first_step + i;
    qsort(values, (size_t)n, sizeof values[0], by_value);
    out->median = values[n / 2];
    out->p99 = values[n * 99 / 100];
}

/* Steps first..last of one scene (a pile when `box` is NULL), measured after each. */
static bool run_every_step(const char* name, int seed_number, bool mesh, uint64_t seed, test_box_scene* box, int first,
                           int last, bool csv)
{
    test_scene scene;
    if (!box) {
        test_scene_layout layout;
        test_scene_falling_layout_seeded(&layout, seed);
        layout.mesh_ground = mesh;
        if (test_scene_from_layout(&scene, NULL, &layout) != SPX_OK) return false;
    }
    spx_world* world = box ? box->scene.world : scene.world;
    const float dt = box ? box->scene.dt : scene.dt;
    static float overlap[EVERY_MAX_STEPS], ground[EVERY_MAX_STEPS];
    int n = 0, over = 0, first_over = -1;
    bool ok = true;
    for (int step = 1; step <= last && ok; ++step) {
        ok = spx_world_step(world, dt) == SPX_OK;
        if (!ok || step < first) continue;
        float o, g;
        if (box) test_box_scene_measure(box, &o, &g);
        else {
            test_scene_quality q;
            test_scene_measure(&scene, &q);
            o = q.box_overlap, g = q.ground_penetration;
        }
        overlap[n] = o, ground[n] = g, ++n;
        if (o > OVER || g > OVER) {
            ++over;
            if (first_over < 0) first_over = step;
        }
    }
    if (box) test_box_scene_destroy(box);
    else test_scene_destroy(&scene);
    if (!ok) return false;
    step_figures fo, fg;
    figures_of(overlap, n, first, &fo);
    figures_of(ground, n, first, &fg);
    if (csv)
        printf("%s,%d,%d,%d,%.5f,%.5f,%.5f,%d,%.5f,%.5f,%.5f,%d,%d,%d\n", name, seed_number, first, last,
               (double)fo.median, (double)fo.p99, (double)fo.max, fo.max_step, (double)fg.median, (double)fg.p99,
               (double)fg.max, fg.max_step, over, first_over);
    else
        printf("%-12s %4d %5d-%-5d %8.4f %8.4f %8.4f %6d %8.4f %8.4f %8.4f %6d %6d %6d\n", name, seed_number, first,
               last, (double)fo.median, (double)fo.p99, (double)fo.max, fo.max_step, (double)fg.median, (double)fg.p99,
               (double)fg.max, fg.max_step, over, first_over);
    fflush(stdout);
    return true;
}

static int bench_every_step(const char* program, int seed_count, bool csv)
{
    if (csv)
        printf("scene,seed,first_step,last_step,overlap_median,overlap_p99,overlap_max,overlap_max_step,ground_median,"
               "ground_p99,ground_max,ground_max_step,steps_over_1cm,first_step_over_1cm\n");
    else
        printf("deepest box-box overlap and ground penetration (m) after every step of the range; over 1cm: steps "
               "where either is, and the first\n%-12s %4s %11s %8s %8s %8s %6s %8s %8s %8s %6s %6s %6s\n",
               "scene", "seed", "steps", "ovl_med", "ovl_p99", "ovl_max", "at", "gnd_med", "gnd_p99", "gnd_max", "at",
               ">1cm", "first");
    for (int m = 0; m < 2; ++m)
        for (int k = 0; k < seed_count; ++k) {
            const char* name = m ? "falling_mesh" : "falling";
            if (!run_every_step(name, k + 1, m == 1, seeds[k], NULL, 3, EVERY_MAX_STEPS, csv)) {
                fprintf(stderr, "%s: %s, seed %d failed\n", program, name, k + 1);
                return 1;
            }
        }
    static test_box_scene box;
    if (test_scene_terrain(&box, NULL) != SPX_OK || !run_every_step("terrain", 1, true, 0, &box, 1, 600, csv)) {
        fprintf(stderr, "%s: terrain failed\n", program);
        return 1;
    }
    if (test_scene_dominoes(&box, NULL, 0.5f, 2.0f) != SPX_OK ||
        !run_every_step("dominoes", 1, false, 0, &box, 1, 300, csv)) {
        fprintf(stderr, "%s: dominoes failed\n", program);
        return 1;
    }
    return 0;
}

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sepax_bench pile [options]\n"
            "  --seeds=<n>        piles a scene, 1..%zu (default 3; --quick 1)\n"
            "  --csv              CSV on stdout\n"
            "  --every-step       every step's deepest overlap: falling piles 3..1200, terrain, dominoes\n"
            "  (one run a pile: --runs does not apply)\n",
            SEED_COUNT);
    bench_common_usage(f);
}

typedef struct options {
    int seed_count;
    bool csv, every_step;
} options;

/* The pile suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    if ((v = bench_option_value(argv[*i], "--seeds"))) o->seed_count = atoi(v);
    else if (strcmp(argv[*i], "--csv") == 0) o->csv = true;
    else if (strcmp(argv[*i], "--every-step") == 0) o->every_step = true;
    else return 0;
    return 1;
}

int bench_pile(int argc, char** argv)
{
    options o = { 0, false, false };
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 1000, own_option, &o, usage);
    if (parsed >= 0) return parsed;
    bool csv = o.csv;
    int seed_count = o.seed_count != 0 ? o.seed_count : common.quick ? 1 : 3;
    if (seed_count < 1 || seed_count > (int)SEED_COUNT) {
        fprintf(stderr, "%s: --seeds takes 1 to %zu\n", argv[0], SEED_COUNT);
        return 2;
    }
    if (o.every_step) return bench_every_step(argv[0], seed_count, csv);
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
