/* The joint lane kernels at 8 AVX2 lanes, paired with solver_avx2.c; empty without dispatch. */
#if defined(SPX_SOLVER_AVX2_DISPATCH)
#if !defined(__AVX2__)
#error "joint_avx2.c needs -mavx2 (src/CMakeLists.txt sets it with SPX_SOLVER_AVX2_DISPATCH)"
#endif
#define SPX_LANES 8
#define SPX_JOINT_KERNELS spx_joint_kernels_avx2
#include "joint_wide.inc"
#else
typedef int spx_joint_avx2_unused; /* ISO C wants a translation unit to declare something */
#endif
