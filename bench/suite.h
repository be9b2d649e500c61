/* sepax_bench: the suites, one table of them, and the options every suite reads the same way. */
#ifndef SPX_BENCH_SUITE_H
#define SPX_BENCH_SUITE_H

#include "machine.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef SPX_BENCH_RESULTS_DIR
#define SPX_BENCH_RESULTS_DIR "bench/results"
#endif
#ifndef SPX_BENCH_BUILD_TYPE
#define SPX_BENCH_BUILD_TYPE "?"
#endif

/// A suite's entry: argv[0] is "sepax_bench <name>", the rest its options. Returns the exit status.
typedef int bench_suite_fn(int argc, char** argv);

typedef struct bench_suite {
    const char* name;
    const char* description; /* one line for --list */
    bench_suite_fn* run;     /* NULL when the suite is not built in: */
    const char* unavailable; /* why, and the packages that bring it in */
} bench_suite;

/// The suites' entries (bench/<file>.c; bench/main.c holds the table).
bench_suite_fn bench_collide;      /* collide.c */
bench_suite_fn bench_round;        /* round.c */
bench_suite_fn bench_mesh_build;   /* mesh_build.c */
bench_suite_fn bench_mesh_queries; /* mesh_query.c */
bench_suite_fn bench_broad;        /* broad_phase.c */
bench_suite_fn bench_world;        /* world_scenes.c */
bench_suite_fn bench_pile;         /* pile.c */
bench_suite_fn bench_continuous;   /* continuous.c */
bench_suite_fn bench_joints;       /* joints.c */
/* standard, ccd, toi and queries (standard.c): the suite named by argv[0]; with sepax_scene only. */
bench_suite_fn bench_scene_suite;

/// The suites in the order `sepax_bench` runs them; *out_count gets their number.
const bench_suite* bench_suites(size_t* out_count);

/// The options every suite takes: --runs, --quick, --no-peers.
typedef struct bench_common {
    int runs;   /* --runs N, --runs=N, -r=N; 0: the suite's default */
    bool quick; /* a smoke run of seconds, what CI runs */
    bool peers; /* false: --no-peers */
} bench_common;

/// What suites that write a report (CSV and a table) also take.
typedef struct bench_output {
    bool csv_stdout;         /* --csv or --csv=-: CSV on stdout, the table on stderr */
    const char* csv_path;    /* --csv=<file> */
    bool save;               /* --save: CSV to <results_dir>/<machine>/<prefix><stamp>.csv */
    const char* machine;     /* --machine=<name> */
    const char* results_dir; /* --results-dir=<dir> */
    const char* note;        /* --note=<text>: a line of the user's own in the header */
} bench_output;

#define BENCH_COMMON_DEFAULTS \
    {                         \
        0, false, true        \
    }
#define BENCH_OUTPUT_DEFAULTS                                 \
    {                                                         \
        false, NULL, false, NULL, SPX_BENCH_RESULTS_DIR, NULL \
    }

/// The text after "name=" in `arg`, or NULL when `arg` is not that option.
const char* bench_option_value(const char* arg, const char* name);

/// A suite's own options: reads argv[*i] (and the next ones it takes, moving *i). Returns 1 when
/// used, 0 when not one of the suite's, BENCH_OPTION_DONE when the suite has nothing more to do
/// (it listed something), -1 when malformed (after a message).
typedef int bench_option_fn(int argc, char** argv, int* i, void* context);
#define BENCH_OPTION_DONE 2

/// Reads every option of a suite: the common ones into `c`, the report's into `o` (NULL for a suite
/// that writes no report), its own through `own` (NULL: none); -h and --help print `usage`. Returns
/// -1 to go on, or the exit status to return: 0 after --help or a listing, 2 after a bad option.
int bench_parse_options(int argc, char** argv, bench_common* c, bench_output* o, int max_runs, bench_option_fn* own,
                        void* context, void (*usage)(FILE* f));

/// Reads argv[*i] (and for "--runs N" the next) when it is a common option: 1 used, 0 not one of
/// them, -1 malformed (message printed, prefixed with `program`). `max_runs` bounds --runs.
int bench_common_option(int argc, char** argv, int* i, bench_common* c, int max_runs, const char* program);

/// A comma-separated list of whole numbers in lo..hi, at most `max` of them, into out[]; the count,
/// or -1 when the list is malformed.
int bench_parse_counts(const char* list, uint32_t* out, int max, unsigned long long lo, unsigned long long hi);

/// Reads argv[i] when it is an output option: true when used.
bool bench_output_option(const char* arg, bench_output* o);

/// The usage lines of the common and output options.
void bench_common_usage(FILE* f);
void bench_output_usage(FILE* f, const char* prefix);

/// Probes the machine and opens the report's sinks (stdout or stderr for the table, the CSV file,
/// --save's file `<results_dir>/<machine>/<prefix><stamp>.csv`, its name to `save_path`). Returns
/// 0, or 1 after a message when a folder or file cannot be made.
int bench_output_open(const bench_output* o, const char* program, const char* prefix, bench_machine* m, bench_report* r,
                      char* save_path, size_t save_size);

/// The header every report starts with: versions, date, machine, compiler, build and SIMD path, the
/// user's note. `machine_extra` goes after the online count (may be "").
void bench_report_header(bench_report* r, const char* program, const bench_machine* m, const char* machine_extra,
                         const bench_output* o);

/// The header of the suites that print a plain table: what ran, date, machine, compiler, build.
void bench_print_header(const char* program, const bench_machine* m);

/// Closes the report, says where --save wrote; returns `status`, or 1 when a file could not be written.
int bench_output_close(bench_report* r, const bench_output* o, const char* program, const char* save_path, int status);

#endif
