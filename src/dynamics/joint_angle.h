/* atan2 over SPX_LANES lanes for the joint lanes' twist and swing angles (joint_wide.inc), where
 * atan2f one lane at a time cost more than the rest of a block's first geometry. */
#ifndef SPX_DYNAMICS_JOINT_ANGLE_H
#define SPX_DYNAMICS_JOINT_ANGLE_H

#include "math/simd.h"

/* The angle of (x, y), -pi..pi, for finite x and y: the octant's ratio t <= 1 (above tan(pi/8)
   moved to (t - 1) / (t + 1) and pi/4 added), then Cephes' atanf polynomial. Within 3e-7 rad of
   the exact angle, about a float step at pi (tests/test_joint_angle.c measures it); (0, 0) gives 0,
   NaN stays NaN. The same operations at every width, so the same bits. */
static inline spx_vf spx_joint_atan2(spx_vf y, spx_vf x)
{
    const spx_vf zero = spx_vf_splat(0.0f), one = spx_vf_splat(1.0f);
    const spx_vf ax = spx_vf_abs(x), ay = spx_vf_abs(y);
    const spx_vi steep = ay > ax;
    const spx_vf num = spx_vf_pick(steep, ax, ay), den = spx_vf_pick(steep, ay, ax);
    const spx_vf t = num / spx_vf_pick(den == zero, one, den);
    const spx_vi far = t > spx_vf_splat(0.414213562f);
    const spx_vf r = spx_vf_pick(far, (t - one) / (t + one), t), z = r * r;
    const spx_vf p = (((spx_vf_splat(8.05374449538e-2f) * z - spx_vf_splat(1.38776856032e-1f)) * z +
                       spx_vf_splat(1.99777106478e-1f)) *
                          z -
                      spx_vf_splat(3.33329491539e-1f)) *
                         z * r +
                     r;
    spx_vf a = spx_vf_pick(far, p + spx_vf_splat(0.785398163f), p);
    a = spx_vf_pick(steep, spx_vf_splat(1.57079633f) - a, a);
    a = spx_vf_pick(x < zero, spx_vf_splat(3.14159265f) - a, a);
    return spx_vf_pick(y < zero, zero - a, a);
}

#endif
