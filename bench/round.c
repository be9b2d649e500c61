/* sepax_bench round: ns a query of the sphere and capsule queries (include/sepax/round.h), each pair
   kind on the same 4,096 random problems (tests/support/round_cases.c, family "random": a third each
   of hits, misses and start overlaps), and with -DSEPAX_BENCH_PEERS=ON Bullet's translational convex
   cast (btGjkConvexCast) on the same problems, with how often its contact / no contact agrees with
   sepax's hit / miss on the problems that do not start overlapping.

   sepax_bench round [--runs=<n>] [--min-ms=<ms>] [--quick] [--no-peers]

   Prints a Markdown table: ns a query, the median over the runs of the process's CPU time (not the wall
   clock: on a shared machine another process's time slices do not count). Exit status 0; 2 bad
   option; 3 a sepax call failed. */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "suite.h"
#include "timer.h"
#include "support/round_cases.h"
#if defined(SPX_BENCH_HAVE_BULLET)
#include "peers/round_peer.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT 4096

typedef struct context {
    const round_case* cases;
    size_t errors;
    void* peer;
} context;

typedef size_t pass_fn(void* context, uint8_t* out);

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

/* ns a problem: a warm-up pass, then `runs` runs of passes adding up to at least min_ms of CPU time. */
static double measure(int runs, double min_ms, pass_fn* pass, void* ctx, uint8_t* out, size_t* errors)
{
    double per[64];
    *errors = pass(ctx, out);
    if (runs > 64) runs = 64;
    for (int r = 0; r < runs; ++r) {
        double t0 = cpu_ns(), t;
        size_t passes = 0;
        do {
            pass(ctx, out);
            ++passes;
            t = cpu_ns() - t0;
        } while (t < min_ms * 1e6);
        per[r] = t / ((double)passes * COUNT);
    }
    return bench_median(per, (size_t)runs);
}

static size_t pass_sweep(void* p, uint8_t* out)
{
    context* c = p;
    size_t errors = 0;
    for (size_t i = 0; i < COUNT; ++i) {
        spx_sweep_hit h;
        if (round_case_sweep(&c->cases[i], &h) != SPX_OK) ++errors;
        out[i] = (uint8_t)h.state;
    }
    return errors;
}

static size_t pass_penetration(void* p, uint8_t* out)
{
    context* c = p;
    size_t errors = 0;
    for (size_t i = 0; i < COUNT; ++i) {
        spx_penetration pen;
        if (round_case_penetration(&c->cases[i], &pen) != SPX_OK) ++errors;
        out[i] = pen.overlapping;
    }
    return errors;
}

static size_t pass_manifold(void* p, uint8_t* out)
{
    context* c = p;
    size_t errors = 0;
    for (size_t i = 0; i < COUNT; ++i) {
        spx_manifold m;
        if (round_case_manifold(&c->cases[i], 0.01f, &m) != SPX_OK) ++errors;
        out[i] = (uint8_t)m.point_count;
    }
    return errors;
}

#if defined(SPX_BENCH_HAVE_BULLET)
static size_t pass_bullet(void* p, uint8_t* out)
{
    context* c = p;
    bench_round_bullet_run(c->peer, COUNT, out);
    return 0;
}
#endif

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench round [options]\n"
               "  --min-ms=<ms>      a timed run repeats passes until it lasts this long (default 20; --quick 2)\n"
               "  (default 7 runs; --quick: 3)\n");
    bench_common_usage(f);
}

/* The round suite's own option (bench_option_fn): --min-ms. */
static int own_option(int argc, char** argv, int* i, void* min_ms)
{
    (void)argc;
    const char* v = bench_option_value(argv[*i], "--min-ms");
    if (!v) return 0;
    *(double*)min_ms = atof(v);
    return 1;
}

int bench_round(int argc, char** argv)
{
    double min_ms = -1.0;
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 64, own_option, &min_ms, usage);
    if (parsed >= 0) return parsed;
    int runs = common.runs ? common.runs : common.quick ? 3 : 7;
    if (min_ms < 0.0) min_ms = common.quick ? 2.0 : 20.0;
    bench_machine m;
    bench_machine_probe(&m, NULL);
    bench_print_header(argv[0], &m);
    printf("%d runs of >= %.0f ms, %d problems a kind\n\n", runs, min_ms, COUNT);
    static round_case cases[COUNT];
    static uint8_t out[COUNT], swept[COUNT];
    int status = 0;
#if defined(SPX_BENCH_HAVE_BULLET)
    printf("| pair kind | sweep ns | penetration ns | manifold ns | %s ns | agrees on hit or miss |\n| --- | --- | --- | --- | --- | --- |\n",
           bench_round_bullet_name());
#else
    printf("| pair kind | sweep ns | penetration ns | manifold ns |\n| --- | --- | --- | --- |\n");
#endif
    for (int k = 0; k < RP_KIND_COUNT; ++k) {
        for (size_t i = 0; i < COUNT; ++i) round_case_make((round_pair_kind)k, RF_RANDOM, (uint64_t)i, &cases[i]);
        context c = { cases, 0, NULL };
        size_t e1, e2, e3;
        double ts = measure(runs, min_ms, pass_sweep, &c, swept, &e1);
        double tp = measure(runs, min_ms, pass_penetration, &c, out, &e2);
        double tm = measure(runs, min_ms, pass_manifold, &c, out, &e3);
        if (e1 || e2 || e3) status = 3;
        printf("| %s | %.0f | %.0f | %.0f |", round_kind_name((round_pair_kind)k), ts, tp, tm);
#if defined(SPX_BENCH_HAVE_BULLET)
        c.peer = common.peers ? bench_round_bullet_prepare(cases, COUNT) : NULL;
        if (c.peer) {
            size_t e4;
            double tb = measure(runs, min_ms, pass_bullet, &c, out, &e4);
            int agree = 0, apart = 0;
            for (size_t i = 0; i < COUNT; ++i) {
                if (swept[i] == SPX_SWEEP_START_OVERLAP) continue;
                ++apart;
                agree += (out[i] != 0) == (swept[i] == SPX_SWEEP_HIT);
            }
            printf(" %.0f | %.1f%% |", tb, 100.0 * agree / (apart ? apart : 1));
            bench_round_bullet_free(c.peer);
        } else {
            printf(" - | - |");
        }
#endif
        printf("\n");
    }
    return status;
}
