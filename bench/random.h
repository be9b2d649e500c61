/* sepax_bench's random vectors: three draws of a suite's own generator, z first, then y, then x, one
   a statement, so that a suite's problems and figures are the same whatever the compiler. */
#ifndef SPX_BENCH_RANDOM_H
#define SPX_BENCH_RANDOM_H

#include <sepax/math_types.h>
#include <stdint.h>

/* A suite's generator: the next number in [lo, hi) of the stream whose state is *state. */
typedef float bench_uniform_fn(uint64_t* state, float lo, float hi);

/* A vector whose coordinate on each axis is in [lo, hi) of that axis. */
static inline spx_vec3 bench_random_vec3(bench_uniform_fn* uniform, uint64_t* state, spx_vec3 lo, spx_vec3 hi)
{
    const float z = uniform(state, lo.z, hi.z), y = uniform(state, lo.y, hi.y);
    return spx_v3(uniform(state, lo.x, hi.x), y, z);
}

#endif
