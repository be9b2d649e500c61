/* The joints' lanes (ball joints, and hinges and cone-twists without a motor or spring) at the
 * build's own SIMD width (joint_wide.inc), for every world whose contacts run on the baseline's
 * lanes (solver_baseline.c). */
#define SPX_JOINT_KERNELS spx_joint_kernels_baseline
#include "joint_wide.inc"
