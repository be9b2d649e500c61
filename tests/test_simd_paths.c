/* The solver's two SIMD paths (world.h, spx_world_simd) give the same state bit for bit, step after
   step: SPX_SIMD_AUTO (AVX2's 8 lanes on a CPU that has it) against SPX_SIMD_BASELINE (the build's
   own 4 lanes), on every standard scene of tests/support/scenes.c and on the sepax program's default
   scene (boxes that are not cubes, tori, spheres, a fast projectile: bodies of unequal inertia and
   the continuous stage). 60 steps each by default, mesh_pile (0.2 to 1 s a step) left out;
   `--long` runs every scene 1,000 steps. On a CPU without AVX2, or
   a build with one path (-DSEPAX_AVX2=ON, not x86-64), both worlds run the same code: the test says
   so and still checks that each scene repeats itself bit for bit. */
#include "support/test.h"
#include "dynamics/world.h"
#include "support/scenes.h"
#if defined(SPX_TEST_HAVE_SCENE_FILES)
#include "scene.h"
#endif

#include <stdlib.h>
#include <time.h>

static uint32_t steps = 60;

/* Steps two worlds of the same scene side by side; the first step whose states differ, or -1. */
static int first_difference(spx_world* a, const spx_body_id* ids_a, spx_world* b, const spx_body_id* ids_b,
                            uint32_t count, float dt, uint32_t n)
{
    for (uint32_t s = 0; s < n; ++s) {
        if (spx_world_step(a, dt) != SPX_OK || spx_world_step(b, dt) != SPX_OK) return (int)s;
        if (test_scene_bodies_hash(a, ids_a, count) != test_scene_bodies_hash(b, ids_b, count)) return (int)s;
    }
    return -1;
}

static bool two_paths(const spx_world* wide, const spx_world* base)
{
    return wide->solver.kernels != base->solver.kernels;
}

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void report(const char* name, const spx_world* wide, const spx_world* base, int diff, uint32_t n, double t0)
{
    if (diff < 0)
        printf("  %s: %u lanes against %u: bit-identical for %u steps (%.1f s)\n", name,
               (unsigned)wide->solver.kernels->lanes, (unsigned)base->solver.kernels->lanes, (unsigned)n,
               seconds() - t0);
    else
        printf("  %s: %u lanes against %u: DIFFERENT at step %d\n", name, (unsigned)wide->solver.kernels->lanes,
               (unsigned)base->solver.kernels->lanes, diff + 1);
}

enum {
    SCENE_FALLING,
    SCENE_FALLING_MESH,
    SCENE_PYRAMID,
    SCENE_PYRAMID_SPACED,
    SCENE_SLOPE,
    SCENE_BOUNCE,
    SCENE_PAPER,
    SCENE_MESH_PILE,
    SCENE_KINDS
};
static const char* const scene_names[SCENE_KINDS] = { "falling", "falling_mesh", "pyramid 1.0",      "pyramid 1.1",
                                                      "slope",   "bounce",       "paper at 100 m/s", "mesh_pile" };

static spx_result make_scene(int kind, spx_world_simd simd, test_scene* out)
{
    spx_world_def wd = spx_default_world_def();
    wd.simd = simd;
    switch (kind) {
    case SCENE_FALLING:
        return test_scene_falling(out, &wd);
    case SCENE_FALLING_MESH:
        return test_scene_falling_mesh(out, &wd);
    case SCENE_PYRAMID:
        return test_scene_pyramid(out, 1.0f, &wd);
    case SCENE_PYRAMID_SPACED:
        return test_scene_pyramid(out, 1.1f, &wd);
    case SCENE_SLOPE:
        return test_scene_slope(out, 0.5f, 0.3f, &wd);
    case SCENE_BOUNCE:
        return test_scene_bounce(out, 2.0f, 0.7f, &wd);
    case SCENE_PAPER:
        return test_scene_paper(out, 100.0f, 3, &wd);
    default:
        return test_scene_mesh_pile(out, &wd);
    }
}

/* Every standard scene, both paths, `steps` steps. */
static int standard_scenes_identical(void)
{
    int failures = 0;
    for (int kind = 0; kind < SCENE_KINDS; ++kind) {
        /* mesh_pile takes 0.2 to 1 s a step: only in --long (the default scene has meshes too) */
        if (kind == SCENE_MESH_PILE && steps < 1000) continue;
        const uint32_t n = steps;
        const double t0 = seconds();
        test_scene wide, base;
        TEST_ENSURE(make_scene(kind, SPX_SIMD_AUTO, &wide) == SPX_OK);
        TEST_ENSURE(make_scene(kind, SPX_SIMD_BASELINE, &base) == SPX_OK);
        TEST_ENSURE(wide.count == base.count);
        if (!two_paths(wide.world, base.world))
            printf("  %s: one solver path here (%u lanes: no AVX2 on this CPU, or a build without the run-time "
                   "choice); checking that the scene repeats itself\n",
                   scene_names[kind], (unsigned)base.world->solver.kernels->lanes);
        const int diff = first_difference(wide.world, wide.bodies, base.world, base.bodies, wide.count, wide.dt, n);
        report(scene_names[kind], wide.world, base.world, diff, n, t0);
        failures += diff >= 0;
        test_scene_destroy(&wide);
        test_scene_destroy(&base);
    }
    TEST_ENSURE(failures == 0);
    return 0;
}

#if defined(SPX_TEST_HAVE_SCENE_FILES)
static char message[SCENE_MESSAGE_MAX];

static bool build_default(spx_world_simd simd, scene* s)
{
    size_t length = 0;
    const char* text = scene_embedded("default", &length);
    if (!text || !scene_read_text(text, length, "default.json", SCENE_UNKNOWN_KEY_ERROR, s, message, sizeof message))
        return false;
    s->world.simd = simd;
    return scene_build(s, message, sizeof message);
}

/* The sepax program's default scene (scenes/default.json), both paths. */
static int default_scene_identical(void)
{
    const double t0 = seconds();
    scene wide, base;
    memset(&wide, 0, sizeof wide);
    memset(&base, 0, sizeof base);
    const bool built = build_default(SPX_SIMD_AUTO, &wide) && build_default(SPX_SIMD_BASELINE, &base);
    if (!built) fprintf(stderr, "default scene: %s\n", message);
    TEST_ENSURE(built);
    TEST_ENSURE(wide.body_count == base.body_count);
    if (!two_paths(wide.w, base.w)) printf("  default scene: one solver path here; checking that it repeats itself\n");
    const int diff = first_difference(wide.w, wide.ids, base.w, base.ids, wide.body_count, wide.dt, steps);
    report("default scene", wide.w, base.w, diff, steps, t0);
    scene_free(&wide);
    scene_free(&base);
    TEST_ENSURE(diff < 0);
    return 0;
}
#endif

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--long") == 0) {
            steps = 1000;
        } else {
            fprintf(stderr, "usage: %s [--long]\n", argv[0]);
            return 2;
        }
    }
    int failures = 0;
#if defined(SPX_TEST_HAVE_SCENE_FILES)
    TEST_RUN(default_scene_identical, failures);
#else
    printf("default scene: not tested, this build has no scene files (the sepax program needs cJSON and cairo)\n");
#endif
    TEST_RUN(standard_scenes_identical, failures);
    printf("%d failed\n", failures);
    return failures != 0;
}
