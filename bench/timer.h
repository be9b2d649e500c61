/* sepax_bench: a monotonic clock, the statistics taken over repeated runs, and the runs themselves. */
#ifndef SPX_BENCH_TIMER_H
#define SPX_BENCH_TIMER_H

#include <stddef.h>
#include <stdint.h>

/// Nanoseconds on a monotonic clock (CLOCK_MONOTONIC: never steps back when NTP adjusts the time).
uint64_t bench_now_ns(void);

/// Median of `count` values (mean of the middle two for an even count); sorts `values` in place.
double bench_median(double* values, size_t count);

/// Smallest of `count` values; 0 for none.
double bench_min(const double* values, size_t count);

/// One full pass over a set of `pairs` pairs, writing an answer a pair to `out`; returns the
/// number of failed calls.
typedef size_t bench_pass_fn(void* context, uint8_t* out);

typedef struct bench_timing {
    double ns_median; /* ns a pair, median over the runs */
    double ns_min;
    size_t passes; /* passes in one timed run */
    size_t errors; /* failed calls in the last pass */
} bench_timing;

/// Times `pass`: a warm-up pass, passes enough for a run of at least `min_ms`, then `runs` timed runs.
bench_timing bench_measure(int runs, double min_ms, size_t pairs, bench_pass_fn* pass, void* context, uint8_t* out);

#endif
