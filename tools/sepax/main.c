/* sepax: run, render and benchmark scenes of rigid bodies, from JSON scene files
 * (docs/scene-format.md) or the scenes compiled in. Public API only.
 *
 *     sepax run [SCENE] [--steps N] [--dt S] [--out FILE.csv [--exact]] [--events[=KINDS]]
 *     sepax render [SCENE] --out DIR [--frames N] [--size WxH] [--contacts] [--joints]
 *     sepax bench [SUITE] [--reps N] [--steps N] [--json FILE] [--csv FILE]
 *     sepax bench <suite of sepax_bench> [its options]      (runs bench/'s sepax_bench)
 *
 * Exit status: 0 done; 1 the scene has an error (nothing ran), a step failed or a file cannot be
 * written; 2 bad options. */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
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
               "                   queries: world ray and box casts, beside Bullet's; a suite of sepax_bench\n"
               "                   (collide, world, mesh-queries, ...): runs that program with the options;\n"
               "                   --list: every suite)\n"
               "      --reps N     repetitions, medians reported (default 5)   --steps N\n"
               "      --json F  --csv F   the table as JSON or CSV as well   --no-peers  sepax alone\n"
               "  help             this message\n"
               "SCENE: a scene file (docs/scene-format.md), or the name of a scene compiled in:");
    for (const char* const* n = scene_embedded_names; *n; ++n) fprintf(f, " %s", *n);
    fprintf(f, ".\n      Without one, `run` and `render` use 'default'.\n"
               "Every command also takes --lenient: unknown keys in a scene file are warnings, not errors.\n"
               "Exit status: 0 done, 1 scene error or failed step (nothing runs on a scene error), 2 bad options.\n");
}

double parse_positive(const char* text, const char* option, const char* command, bool whole)
{
    char* end;
    errno = 0;
    double x = text ? strtod(text, &end) : 0.0;
    if (!text || errno || end == text || *end || !isfinite(x) || x <= 0.0 || (whole && x != floor(x))) {
        fprintf(stderr, "sepax %s: %s wants a positive %s (got '%s')\n", command, option,
                whole ? "whole number" : "number", text ? text : "nothing");
        return -1.0;
    }
    return x;
}

int option_error(const char* command, const char* option, const char* const* with_value)
{
    for (const char* const* o = with_value; *o; ++o)
        if (strcmp(*o, option) == 0) {
            fprintf(stderr, "sepax %s: %s wants a value (sepax help)\n", command, option);
            return EXIT_USAGE;
        }
    fprintf(stderr, "sepax %s: unknown option '%s' (sepax help)\n", command, option);
    return EXIT_USAGE;
}

int scene_option(int argc, char** argv, int* i, scene_options* o, const char* command)
{
    const char* a = argv[*i];
    if (strcmp(a, "--steps") == 0 || strcmp(a, "--dt") == 0) {
        const char* v = *i + 1 < argc ? argv[++*i] : NULL;
        bool steps = a[2] == 's';
        double x = v && steps && strcmp(v, "0") == 0 ? 0.0 : parse_positive(v, a, command, steps);
        if (x < 0.0 || (steps && x > 1e8) || (!steps && x > 1.0)) {
            if (x >= 0.0)
                fprintf(stderr, "sepax %s: %s is out of range (at most %s)\n", command, a, steps ? "1e8" : "1 s");
            return -1;
        }
        if (steps) o->steps = (long)x;
        else o->dt = x;
        return 1;
    }
    if (strcmp(a, "--lenient") == 0) {
        o->unknown = SCENE_UNKNOWN_KEY_WARN;
        return 1;
    }
    if (a[0] != '-') {
        if (o->scene) {
            fprintf(stderr, "sepax %s: one scene at a time ('%s' and '%s')\n", command, o->scene, a);
            return -1;
        }
        o->scene = a;
        return 1;
    }
    return 0;
}

bool scene_open(const scene_options* o, scene* out)
{
    char message[SCENE_MESSAGE_MAX];
    const char* name = o->scene ? o->scene : "default";
    size_t length = 0;
    FILE* f = o->scene ? fopen(o->scene, "rb") : NULL;
    const char* text = f ? NULL : scene_embedded(name, &length);
    if (f) fclose(f);
    bool ok;
    if (text) {
        char label[128];
        snprintf(label, sizeof label, "<%s, compiled in>", name);
        ok = scene_read_text(text, length, label, o->unknown, out, message, sizeof message);
    } else {
        ok = scene_read_file(name, o->unknown, out, message, sizeof message);
    }
    if (ok && o->dt > 0.0) out->dt = (float)o->dt;
    ok = ok && scene_build(out, message, sizeof message);
    if (!ok) {
        fprintf(stderr, "sepax: %s\n", message);
        scene_free(out);
    }
    return ok;
}

uint32_t scene_steps(const scene_options* o, const scene* s) { return o->steps >= 0 ? (uint32_t)o->steps : s->steps; }

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
