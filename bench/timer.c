/* sepax_bench: clock and order statistics. The median is what we report: one run disturbed by
   another process moves the mean but not the median of seven. */
#define _POSIX_C_SOURCE 199309L
#include "timer.h"

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
    if (count == 0)
        return 0.0;
    qsort(values, count, sizeof values[0], compare_double);
    if (count % 2)
        return values[count / 2];
    return 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

double bench_min(const double* values, size_t count)
{
    double m = count ? values[0] : 0.0;
    for (size_t i = 1; i < count; ++i)
        if (values[i] < m)
            m = values[i];
    return m;
}
