/* The options every command of sepax shares (commands.h): the scene to open, --steps, --dt,
 * --lenient, and the messages for a bad one. In sepax_scene, so that sepax_bench's scene suites
 * read them as `sepax run` does. */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
