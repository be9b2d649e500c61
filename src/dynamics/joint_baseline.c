/* The joint lane kernels at the build's SIMD width, paired with solver_baseline.c. */
#define SPX_JOINT_KERNELS spx_joint_kernels_baseline
#include "joint_wide.inc"
