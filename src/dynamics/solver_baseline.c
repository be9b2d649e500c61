/* The solver kernels at the build's SIMD width (4 on SSE2, 8 with -DSEPAX_AVX2=ON): any CPU. */
#define SPX_SOLVER_KERNELS spx_solver_kernels_baseline
#include "solver_wide.inc"
