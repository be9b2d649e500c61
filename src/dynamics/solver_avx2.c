/* The 8-lane AVX2 solver kernels beside the baseline, for worlds spx_solver_pick sends here. Only this
 * file gets -mavx2; builds without the dispatch leave it empty. */
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
