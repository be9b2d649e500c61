/* sepax_bench: clock, order statistics and the timing of repeated passes. The median is what we report: one run disturbed by
   another process moves the mean but not the median of seven. */
#define _POSIX_C_SOURCE 199309L
#include "timer.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_double(const void* pa, const void* pb)
{
    double a = *(const double*)pa, b = *(const double*)pb;
    return (a > b) - (a < b);
}

double bench_median(double* values, size_t count)
{
    if (count == 0) return 0.0;
    qsort(values, count, sizeof values[0], compare_double);
    if (count % 2) return values[count / 2];
    return 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

double bench_min(const double* values, size_t count)
{
    double m = count ? values[0] : 0.0;
    for (size_t i = 1; i < count; ++i)
        if (values[i] < m) m = values[i];
    return m;
}

/* An untimed pass warms caches and branch predictors; untimed rounds of 1, 2, 4, ... passes, until
   one lasts an eighth of min_ms, size the run (a hot set of 256 pairs takes microseconds a pass,
   far below the clock's noise); then come `runs` timed runs of that many full passes each. */
bench_timing bench_measure(int runs, double min_ms, size_t pairs, bench_pass_fn* pass, void* context, uint8_t* out)
{
    bench_timing t = { .passes = 1 };
    t.errors = pass(context, out);
    double want = min_ms * 1e6;
    for (size_t round = 1;; round *= 2) {
        uint64_t start = bench_now_ns();
        for (size_t p = 0; p < round; ++p) t.errors = pass(context, out);
        double elapsed = (double)(bench_now_ns() - start);
        if (elapsed >= want / 8.0 || round >= ((size_t)1 << 24)) {
            double one = elapsed / (double)round;
            if (one > 0.0 && one < want) t.passes = (size_t)ceil(want / one);
            break;
        }
    }
    double* ns = malloc((size_t)(runs > 0 ? runs : 1) * sizeof *ns);
    if (!ns || runs < 1) {
        free(ns);
        return t;
    }
    for (int r = 0; r < runs; ++r) {
        uint64_t start = bench_now_ns();
        for (size_t p = 0; p < t.passes; ++p) t.errors = pass(context, out);
        ns[r] = (double)(bench_now_ns() - start) / ((double)t.passes * (double)(pairs ? pairs : 1));
    }
    t.ns_min = bench_min(ns, (size_t)runs);
    t.ns_median = bench_median(ns, (size_t)runs);
    free(ns);
    return t;
}
