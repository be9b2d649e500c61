/* sepax_bench's scene-file suites: the standard scenes (standard.c), the bullet through paper (ccd.c),
 * the swept box-box queries against their analytic time of impact (toi.c), the world casts (queries.c).
 * They read scene files through sepax_scene (tools/sepax/) and write JSON through cJSON. */
#ifndef SPX_BENCH_SCENE_SUITES_H
#define SPX_BENCH_SCENE_SUITES_H

#include "machine.h"

#include <cjson/cJSON.h>

#include <stdbool.h>

/// What every suite takes from the command line.
typedef struct bench_suite_options {
    int reps;         /* repetitions; the timings are their median */
    bool peers;       /* false: --no-peers */
    const char* json; /* NULL: none */
    const char* csv;  /* NULL: none */
    const bench_machine* machine;
} bench_suite_options;

/// `sepax bench ccd`: prints the table, writes the files; returns an exit status.
int bench_ccd(const bench_suite_options* o);
/// `sepax bench toi`: prints the table, writes the files; returns an exit status.
int bench_toi(const bench_suite_options* o);
/// `sepax bench queries`: ray and box casts on the world-query scene; returns an exit status.
int bench_queries(const bench_suite_options* o);

/// Writes o->csv and o->json (when given) with the suite's writers over its n rows and says so;
/// returns `status`, or EXIT_FAILED when a file could not be written.
int bench_write_files(const bench_suite_options* o, int status, bool (*csv)(const char* path, const void* rows, int n),
                      bool (*json)(const bench_suite_options* o, const void* rows, int n), const void* rows, int n);

/// A JSON report's root with the machine and repetitions filled in (standard.c).
cJSON* bench_json_root(const bench_machine* m, int reps);
/// A number of a JSON row: its key and value.
typedef struct bench_json_number {
    const char* key;
    double value;
} bench_json_number;
/// Adds the n numbers to object o in their order (standard.c).
void bench_json_add_numbers(cJSON* o, const bench_json_number* numbers, int n);
/// The number of elements of array a.
#define BENCH_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/// Writes and frees the root; false (errno set) when the file cannot be written.
bool bench_json_write(const char* path, cJSON* root);

#endif
