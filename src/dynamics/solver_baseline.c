/* The solver's blocks and passes at the build's own SIMD width: 4 lanes on the SSE2 baseline, 8 in a
 * -DSEPAX_AVX2=ON build (math/simd.h). Every world can use this copy, on any CPU the build runs on. */
#define SPX_SOLVER_KERNELS spx_solver_kernels_baseline
#include "solver_wide.inc"
