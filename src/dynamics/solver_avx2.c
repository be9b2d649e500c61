/* The solver's blocks and passes at 8 lanes with AVX2, beside the baseline copy (solver_baseline.c)
 * in a baseline build, for the worlds that spx_solver_pick sends here when the CPU has AVX2. This
 * file alone is built with -mavx2 (src/CMakeLists.txt): only the table's functions run its code.
 * Builds without the dispatch (non-x86, or -DSEPAX_AVX2=ON, already 8 lanes throughout) leave it
 * empty. */
#if defined(SPX_SOLVER_AVX2_DISPATCH)
#if !defined(__AVX2__)
#error "solver_avx2.c needs -mavx2 (src/CMakeLists.txt sets it with SPX_SOLVER_AVX2_DISPATCH)"
#endif
#define SPX_LANES 8
#define SPX_SOLVER_KERNELS spx_solver_kernels_avx2
#include "solver_wide.inc"
#else
typedef int spx_solver_avx2_unused; /* ISO C wants a translation unit to declare something */
#endif
