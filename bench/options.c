/* sepax_bench: the options every suite reads the same way, and the head and sinks of a report. */
#define _POSIX_C_SOURCE 200112L
#include "suite.h"

#include <sepax/sepax.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char* bench_option_value(const char* arg, const char* name)
{
    size_t len = strlen(name);
    return strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : NULL;
}

int bench_common_option(int argc, char** argv, int* i, bench_common* c, int max_runs, const char* program)
{
    const char* a = argv[*i];
    const char* v = bench_option_value(a, "-r");
    if (!v) v = bench_option_value(a, "--runs");
    if (!v && strcmp(a, "--runs") == 0) {
        if (*i + 1 >= argc) return fprintf(stderr, "%s: --runs wants a number\n", program), -1;
        v = argv[++*i];
    }
    if (v) {
        char* end;
        long n = strtol(v, &end, 10);
        if (end == v || *end || n < 1 || n > max_runs)
            return fprintf(stderr, "%s: --runs wants 1..%d\n", program, max_runs), -1;
        c->runs = (int)n;
        return 1;
    }
    if (strcmp(a, "--quick") == 0) return c->quick = true, 1;
    if (strcmp(a, "--no-peers") == 0) return c->peers = false, 1;
    return 0;
}

int bench_parse_counts(const char* list, uint32_t* out, int max, unsigned long long lo, unsigned long long hi)
{
    int count = 0;
    for (char* end = (char*)list; *list && count < max; list = end + (*end == ',')) {
        errno = 0;
        unsigned long long n = strtoull(list, &end, 0);
        if (errno || end == list || n < lo || n > hi || (*end && *end != ',')) return -1;
        out[count++] = (uint32_t)n;
    }
    return count > 0 ? count : -1;
}

int bench_parse_options(int argc, char** argv, bench_common* c, bench_output* o, int max_runs, bench_option_fn* own,
                        void* context, void (*usage)(FILE* f))
{
    const char* program = argv[0];
    for (int i = 1; i < argc; ++i) {
        int used = bench_common_option(argc, argv, &i, c, max_runs, program);
        if (used == 0 && o && bench_output_option(argv[i], o)) used = 1;
        if (used == 0 && own) used = own(argc, argv, &i, context);
        if (used < 0) return 2;
        if (used == BENCH_OPTION_DONE) return 0;
        if (used) continue;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        fprintf(stderr, "%s: unknown option '%s'\n", program, argv[i]);
        usage(stderr);
        return 2;
    }
    return -1;
}

bool bench_output_option(const char* arg, bench_output* o)
{
    const char* v;
    if (strcmp(arg, "--csv") == 0) o->csv_stdout = true;
    else if ((v = bench_option_value(arg, "--csv"))) {
        if (strcmp(v, "-") == 0) o->csv_stdout = true;
        else o->csv_path = v;
    } else if (strcmp(arg, "--save") == 0) o->save = true;
    else if ((v = bench_option_value(arg, "--machine"))) o->machine = v;
    else if ((v = bench_option_value(arg, "--results-dir"))) o->results_dir = v;
    else if ((v = bench_option_value(arg, "--note"))) o->note = v;
    else return false;
    return true;
}

void bench_common_usage(FILE* f)
{
    fprintf(f, "  --runs=<n>, -r=<n> timed runs (repetitions), the median is reported\n"
               "  --quick            a smoke run of seconds (what CI runs)\n"
               "  --no-peers         sepax alone even when FCL, ODE or Bullet are built in\n");
}

void bench_output_usage(FILE* f, const char* prefix)
{
    fprintf(f,
            "  --csv              CSV on stdout, the table on stderr; --csv=<file>: CSV to a file as well\n"
            "  --save             also write CSV to <results-dir>/<machine>/%s<UTC stamp>.csv\n"
            "  --machine=<name>   machine name (default: the host name)\n"
            "  --note=<text>      a line of your own in the header (what the machine is, what else ran)\n"
            "  --results-dir=<d>  default %s\n",
            prefix, SPX_BENCH_RESULTS_DIR);
}

int bench_output_open(const bench_output* o, const char* program, const char* prefix, bench_machine* m, bench_report* r,
                      char* save_path, size_t save_size)
{
    bench_machine_probe(m, o->machine);
    save_path[0] = '\0';
    if (o->save) {
        char dir[1100];
        snprintf(dir, sizeof dir, "%s/%s", o->results_dir, m->name);
        snprintf(save_path, save_size, "%s/%s%s.csv", dir, prefix, m->stamp);
        if (!bench_make_directories(dir)) {
            fprintf(stderr, "%s: cannot make %s: %s\n", program, dir, strerror(errno));
            return 1;
        }
    }
    if (!bench_report_open(r, o->csv_stdout ? "-" : o->csv_path, o->save ? save_path : NULL)) {
        fprintf(stderr, "%s: cannot write %s: %s\n", program, o->save ? save_path : o->csv_path, strerror(errno));
        return 1;
    }
    return 0;
}

void bench_report_header(bench_report* r, const char* program, const bench_machine* m, const char* machine_extra,
                         const bench_output* o)
{
    int lib = spx_version();
    bench_report_note(r, "%s: sepax %d.%d.%d (headers), library %d.%d.%d", program, SPX_VERSION_MAJOR,
                      SPX_VERSION_MINOR, SPX_VERSION_PATCH, lib / 10000, lib / 100 % 100, lib % 100);
    bench_report_note(r, "date: %s  machine: %s  cpu: %s  (%d online%s)", m->date, m->name, m->cpu, m->cpus,
                      machine_extra);
    bench_report_note(r, "os: %s  load average at start: %s", m->os, m->load);
    if (o->note) bench_report_note(r, "note: %s", o->note);
    bench_report_note(r, "compiler: %s  build: %s  simd: %s%s", m->compiler, SPX_BENCH_BUILD_TYPE, bench_simd_name(),
                      bench_optimised_note());
}

void bench_print_header(const char* program, const bench_machine* m)
{
    printf("%s: date: %s  machine: %s  cpu: %s  load average at start: %s\n", program, m->date, m->name, m->cpu,
           m->load);
    printf("compiler: %s  build: %s  simd: %s%s\n\n", m->compiler, SPX_BENCH_BUILD_TYPE, bench_simd_name(),
           bench_optimised_note());
}

int bench_output_close(bench_report* r, const bench_output* o, const char* program, const char* save_path, int status)
{
    if (!bench_report_close(r)) status = 1;
    if (o->save) fprintf(stderr, "%s: wrote %s\n", program, save_path);
    return status;
}
