/* sepax_bench: a monotonic clock and the statistics taken over repeated runs. */
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

#endif
