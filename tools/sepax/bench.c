/* sepax bench: every suite runs in sepax_bench (bench/), one program of named suites; this command
 * executes it. Without a suite it runs `standard` (the standard scenes); scene files or compiled-in
 * scenes run in `standard` too (`sepax bench falling` is `sepax_bench standard falling`). */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Scene names or files rather than a suite of sepax_bench: a compiled-in scene, a path or a file
   that exists. The scene-file suites come first, so that a file named like one does not hide it. */
static bool names_scenes(const char* list)
{
    static const char* const scene_suites[] = { "standard", "ccd", "toi", "queries" };
    size_t len = strcspn(list, ",");
    char name[256];
    if (len >= sizeof name) return true; /* a long path: scene_open says what is wrong with it */
    memcpy(name, list, len);
    name[len] = '\0';
    for (size_t i = 0; i < sizeof scene_suites / sizeof scene_suites[0]; ++i)
        if (strcmp(name, scene_suites[i]) == 0) return false;
    size_t size;
    return scene_embedded(name, &size) != NULL || strchr(name, '/') != NULL || strstr(name, ".json") != NULL ||
           access(name, F_OK) == 0;
}

/* Replaces this process with sepax_bench, `suite` (NULL: none) and argv[1..]: beside this program
   (build/bench/ in a build tree, the same folder once installed), where CMake built it, then on
   PATH. Returns only when none could be executed. */
static int exec_bench_program(int argc, char** argv, const char* suite)
{
    static char program[] = "sepax_bench";
    char* args[256];
    int n = 0;
    if (argc > 254) return fprintf(stderr, "sepax bench: too many arguments\n"), EXIT_USAGE;
    args[n++] = program;
    if (suite) args[n++] = (char*)suite;
    for (int i = 1; i < argc; ++i) args[n++] = argv[i];
    args[n] = NULL;
    char self[4096], path[4200];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        char* slash = strrchr(self, '/');
        if (slash) *slash = '\0';
        snprintf(path, sizeof path, "%s/bench/sepax_bench", self);
        execv(path, args);
        snprintf(path, sizeof path, "%s/sepax_bench", self);
        execv(path, args);
    }
#if defined(SEPAX_BENCH_PROGRAM)
    execv(SEPAX_BENCH_PROGRAM, args);
#endif
    execvp("sepax_bench", args);
    fprintf(stderr,
            "sepax bench: cannot run sepax_bench (%s), which runs every suite of `sepax bench`: build it "
            "(cmake --build build --target sepax_bench) or put it on PATH\n",
            strerror(errno));
    return EXIT_FAILED;
}

int command_bench(int argc, char** argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0) return exec_bench_program(argc, argv, NULL);
    /* No suite, or scenes: the standard suite. */
    if (argc < 2 || argv[1][0] == '-' || names_scenes(argv[1])) return exec_bench_program(argc, argv, "standard");
    return exec_bench_program(argc, argv, NULL);
}
