/* sepax_bench: every benchmark of sepax, a suite each, beside FCL, ODE and Bullet when they are built
   in (-DSEPAX_BENCH_PEERS=ON). See bench/README.md.

   sepax_bench [suite...] [options]      the suites named (all without one), each given the options
   sepax_bench standard [scene,...] [options]   scene files or compiled-in scenes instead of the standard
   sepax_bench --list                    the suites
   sepax_bench <suite> --help            a suite's own options

   Exit status: the first suite's that did not return 0; 2 for an unknown suite or a bad option. */
#include "suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 256

/* The scene-file suites read scenes through sepax_scene (tools/sepax/), which needs cJSON and cairo;
   without it they are listed with what to install. */
#if defined(SPX_BENCH_HAVE_SCENE)
#define SCENE_SUITE(name, description)             \
    {                                              \
        name, description, bench_scene_suite, NULL \
    }
#else
#ifndef SPX_BENCH_SCENE_MISSING
#define SPX_BENCH_SCENE_MISSING "needs the sepax program's scene library (-DSEPAX_BUILD_TOOLS=ON)"
#endif
#define SCENE_SUITE(name, description)                                    \
    {                                                                     \
        name, description, NULL, "not built in: " SPX_BENCH_SCENE_MISSING \
    }
#endif

/* Quick suites first: a run of everything shows the short tables before the long ones. */
static const bench_suite suites[] = {
    { "collide", "each query of collide.h alone, ns a query on random pair sets (hot and streamed)", bench_collide,
      NULL },
    { "round", "sphere and capsule queries (round.h), ns a query on the tests' random problems", bench_round, NULL },
    { "mesh-build", "spx_mesh_create on a generated torus: build time and memory kept", bench_mesh_build, NULL },
    { "mesh-queries", "mesh_query.h on the standard mesh scenes, beside a brute force and FCL", bench_mesh_queries,
      NULL },
    { "broad", "the broad phase as a step drives it, at 1k, 10k and 100k bodies (internal API)", bench_broad, NULL },
    { "world", "the world scenes step by step with their end state, beside Bullet and ODE", bench_world, NULL },
    { "joints", "chains and a bridge of ball joints: time a step and the joints' gap, beside Bullet", bench_joints,
      NULL },
    { "continuous", "fast bodies: the closed container, the falling scenes with the stage on and off", bench_continuous,
      NULL },
    { "pile", "the falling piles' box-box overlap over their whole settling, on several seeds", bench_pile, NULL },
    SCENE_SUITE("standard", "the standard scenes stage by stage, or the scene files named after it (`sepax bench`)"),
    SCENE_SUITE("ccd", "the bullet through paper at 10 to 10,000 m/s, beside Bullet (with and without its CCD) "
                       "and ODE"),
    SCENE_SUITE("toi", "swept box-box queries against their closed-form time of impact, beside FCL"),
    SCENE_SUITE("queries", "world ray and box casts on the world-query scene, beside Bullet's"),
};
#define SUITE_COUNT (sizeof suites / sizeof suites[0])

const bench_suite* bench_suites(size_t* out_count)
{
    *out_count = SUITE_COUNT;
    return suites;
}

static const bench_suite* find(const char* name, size_t len)
{
    for (size_t i = 0; i < SUITE_COUNT; ++i)
        if (strlen(suites[i].name) == len && strncmp(suites[i].name, name, len) == 0) return &suites[i];
    return NULL;
}

static void list(FILE* f)
{
    for (size_t i = 0; i < SUITE_COUNT; ++i) {
        fprintf(f, "  %-14s %s\n", suites[i].name, suites[i].description);
        if (!suites[i].run) fprintf(f, "  %-14s (%s)\n", "", suites[i].unavailable);
    }
}

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench [suite...] [options]\n"
               "Runs the suites named (comma- or space-separated; all of them without one) in the table's order,\n"
               "each with the options given. `sepax_bench <suite> --help` gives a suite's own options. Suites:\n");
    list(f);
    fprintf(f, "Options every suite takes:\n");
    bench_common_usage(f);
    fprintf(f, "  --list             the suites, then exit\n");
}

int main(int argc, char** argv)
{
    bool chosen[SUITE_COUNT] = { false };
    bool any = false;
    int first_option = 1;
    for (; first_option < argc && argv[first_option][0] != '-'; ++first_option) {
        /* After the suites, a word that names none is the suite's own (standard's scenes). */
        if (any && !find(argv[first_option], strcspn(argv[first_option], ","))) break;
        for (const char* p = argv[first_option]; *p;) {
            size_t len = strcspn(p, ",");
            const bench_suite* s = find(p, len);
            if (!s) {
                fprintf(stderr, "sepax_bench: no suite '%.*s'; the suites:\n", (int)len, p);
                list(stderr);
                return 2;
            }
            chosen[s - suites] = any = true;
            p += len + (p[len] == ',');
        }
    }
    if (!any && first_option < argc) {
        if (strcmp(argv[first_option], "--list") == 0 || strcmp(argv[first_option], "-l") == 0) return list(stdout), 0;
        if (strcmp(argv[first_option], "--help") == 0 || strcmp(argv[first_option], "-h") == 0) return usage(stdout), 0;
    }
    int option_count = argc - first_option;
    if (option_count + 1 > MAX_ARGS) return fprintf(stderr, "sepax_bench: too many options\n"), 2;

    size_t selected = 0;
    for (size_t i = 0; i < SUITE_COUNT; ++i) selected += !any || chosen[i];
    int status = 0, ran = 0;
    for (size_t i = 0; i < SUITE_COUNT; ++i) {
        if (any && !chosen[i]) continue;
        char program[64];
        snprintf(program, sizeof program, "sepax_bench %s", suites[i].name);
        char* args[MAX_ARGS + 1];
        args[0] = program;
        memcpy(args + 1, argv + first_option, (size_t)option_count * sizeof *args);
        args[option_count + 1] = NULL;
        /* Several suites: a heading each, on stderr, out of the way of a CSV on stdout. */
        fflush(stdout);
        if (selected > 1) fprintf(stderr, "%s== %s: %s\n", ran++ ? "\n" : "", program, suites[i].description);
        if (!suites[i].run) {
            /* Named, it fails; in a run of every suite, it is skipped. */
            fprintf(stderr, "%s: %s\n", program, suites[i].unavailable);
            if (any && status == 0) status = 1;
            continue;
        }
        int s = suites[i].run(option_count + 1, args);
        if (s != 0 && status == 0) status = s;
        if (s == 2) break; /* a bad option is bad for the suites after it too */
    }
    return status;
}
