/* sepax_bench: one full pass of one sepax query over a pair set. */
#ifndef SPX_BENCH_KERNELS_H
#define SPX_BENCH_KERNELS_H

#include "pairs.h"

/// Runs the query on every pair of `set`, writing one answer a pair to out[i]: overlap 0/1,
/// sweep 0 miss / 1 hit / 2 start overlap, manifold the point count. Returns the number of calls
/// that did not return SPX_OK (their answer is 0).
typedef size_t bench_kernel_fn(const bench_pairs* set, uint8_t* out);

/// One sepax way of answering a query.
typedef struct bench_kernel {
    const char* query;  /* "overlap_obb_obb" */
    const char* engine; /* "sepax" or "sepax-batch" */
    bench_pair_kind kind;
    bool swept;            /* runs on the swept set of `kind` */
    const char* reference; /* the query whose sepax answers this one's must match (yes/no), or NULL */
    bench_kernel_fn* run;
} bench_kernel;

/// Every sepax kernel, in the order the report lists them.
const bench_kernel* bench_kernels(size_t* out_count);

/// Fed by every pass, so no compiler can drop a result as unused.
extern volatile double bench_sink;

#endif
