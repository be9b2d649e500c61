/* sepax: run, render and benchmark scenes of rigid bodies, from JSON scene files
 * (docs/scene-format.md) or the scenes compiled in. Public API only.
 *
 *     sepax run [SCENE] [--steps N] [--dt S] [--out FILE.csv [--exact]] [--events[=KINDS]]
 *     sepax render [SCENE] --out DIR [--frames N] [--size WxH] [--contacts] [--joints]
 *     sepax bench [SUITE] [--reps N] [--steps N] [--json FILE] [--csv FILE]    (runs bench/'s sepax_bench)
 *
 * Exit status: 0 done; 1 the scene has an error (nothing ran), a step failed or a file cannot be
 * written; 2 bad options. */
#include "commands.h"

#include <string.h>

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax <command> [SCENE] [options]\n"
               "  run [SCENE]      simulate a scene and print a summary\n"
               "      --steps N    steps to take (default: the scene's)\n"
               "      --dt S       seconds a step (default: the scene's)\n"
               "      --out F.csv  every body's trajectory: time, body, position, rotation, velocities\n"
               "      --exact      in F.csv, numbers that read back to the same bits (9 significant digits,\n"
               "                   17 for the time): two runs compare exactly\n"
               "      --events     print each step's events, one a line (docs/scene-format.md, \"Events\"):\n"
               "                   contact begin/end, hits, sensor begin/end, body moves, sleep and wake;\n"
               "                   --events=KINDS picks some (contact,hit,sensor,move,sleep)\n"
               "  render [SCENE]   draw PNG frames, a contact sheet and a plot of energy and penetration\n"
               "      --out DIR    folder for the pictures (made if missing; required)\n"
               "      --frames N   frames over the run (default 6)    --size WxH  (default 960x540)\n"
               "      --contacts   the world's contact points (red touching, blue speculative) and normals\n"
               "      --joints     joint anchors, the lines to them and the joint frames' axes\n"
               "                   run and render both count contacts two ways: the solver's points and\n"
               "                   manifolds (speculative ones, not yet touching, included) and the\n"
               "                   points of shapes touching (within 2 mm), which render draws red\n"
               "  bench [SUITE]    time the standard scenes (SUITE: standard (default) = falling, falling-mesh,\n"
               "                   pyramid, pyramid-spaced; or scenes by name or file, comma-separated;\n"
               "                   ccd: the bullet through paper; toi: swept box-box against the exact time;\n"
               "                   queries: world ray and box casts, beside Bullet's; any other suite of\n"
               "                   sepax_bench (collide, world, mesh-queries, ...) with its own options;\n"
               "                   --list: every suite). Every suite runs in the program sepax_bench\n"
               "      --reps N     repetitions, medians reported (default 5)   --steps N   --quick (1 rep, 10 steps)\n"
               "      --json F  --csv F   the table as JSON or CSV as well   --no-peers  sepax alone\n"
               "  help             this message\n"
               "SCENE: a scene file (docs/scene-format.md), or the name of a scene compiled in:");
    for (const char* const* n = scene_embedded_names; *n; ++n) fprintf(f, " %s", *n);
    fprintf(f, ".\n      Without one, `run` and `render` use 'default'.\n"
               "Every command also takes --lenient: unknown keys in a scene file are warnings, not errors.\n"
               "Exit status: 0 done, 1 scene error or failed step (nothing runs on a scene error), 2 bad options.\n");
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char* c = argv[1];
    if (strcmp(c, "run") == 0) return command_run(argc - 1, argv + 1);
    if (strcmp(c, "render") == 0) return command_render(argc - 1, argv + 1);
    if (strcmp(c, "bench") == 0) return command_bench(argc - 1, argv + 1);
    if (strcmp(c, "help") == 0 || strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0) {
        usage(stdout);
        return EXIT_DONE;
    }
    fprintf(stderr, "sepax: unknown command '%s'\n", c);
    usage(stderr);
    return EXIT_USAGE;
}
