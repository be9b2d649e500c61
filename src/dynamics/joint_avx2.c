/* The joints' lanes (ball joints, and hinges and cone-twists without a motor or spring) at 8 with
 * AVX2 (joint_wide.inc), for the worlds whose contacts run on solver_avx2.c's lanes. Built with
 * -mavx2 as solver_avx2.c is (src/CMakeLists.txt); empty without the run-time choice. */
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
