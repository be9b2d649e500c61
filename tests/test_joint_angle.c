/* The joint lanes' atan2 (dynamics/joint_angle.h): within its documented 3e-7 rad of the exact
   angle all round the circle and at every scale, odd in y, mirrored in x, each lane's answer its
   own whatever its neighbours hold, and (0, 0), the axes and NaN as documented. */
#include "support/test.h"
#include "dynamics/joint_angle.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

#define ANGLE_BOUND 3e-7

/* Lane 0's answer with the other lanes holding other points. */
static float lane_atan2(float y, float x, int lane)
{
    spx_vf vy = spx_vf_splat(0.25f), vx = spx_vf_splat(-3.0f);
    vy[lane] = y, vx[lane] = x;
    return spx_joint_atan2(vy, vx)[lane];
}

static double error_of(float y, float x) { return fabs((double)lane_atan2(y, x, 0) - atan2((double)y, (double)x)); }

/* Points all round the circle at radii from 1e-6 to 1e6, and random ones. */
static int within_bound(void)
{
    double worst = 0.0;
    const float radii[] = { 1.0f, 0.70710678f, 1e-6f, 3.5e-3f, 12.0f, 1e6f };
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; ++r)
        for (int i = 0; i <= 400000; ++i) {
            const double t = -3.14159265358979 + 6.28318530717959 * (double)i / 400000.0;
            const float y = (float)((double)radii[r] * sin(t)), x = (float)((double)radii[r] * cos(t));
            const double e = error_of(y, x);
            if (e > worst) worst = e;
        }
    uint32_t seed = 12345u;
    for (int i = 0; i < 400000; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const float y = (float)((int32_t)seed) / 2147483648.0f;
        seed = seed * 1664525u + 1013904223u;
        const float x = (float)((int32_t)seed) / 2147483648.0f;
        const double e = error_of(y, x);
        if (e > worst) worst = e;
    }
    printf("  worst error %.3e rad (bound %.1e)\n", worst, ANGLE_BOUND);
    TEST_ENSURE(worst <= ANGLE_BOUND);
    return 0;
}

/* atan2(-y, x) = -atan2(y, x) bit for bit; atan2(y, -x) = pi - atan2(y, x) within the bound. */
static int odd_and_mirrored(void)
{
    for (int i = 1; i < 2000; ++i) {
        const float y = 0.37f * (float)i / 2000.0f, x = 1.0f - (float)i / 1500.0f;
        const float a = lane_atan2(y, x, 1 % SPX_LANES), b = lane_atan2(-y, x, 2 % SPX_LANES);
        TEST_ENSURE(memcmp(&b, &(float){ -a }, sizeof a) == 0);
        const double mirrored = 3.14159265358979 - (double)lane_atan2(y, -x, 0);
        TEST_ENSURE(fabs(mirrored - (double)a) <= 2.0 * ANGLE_BOUND);
    }
    return 0;
}

/* Each lane gives the same bits as any other lane would for its point. */
static int lanes_apart(void)
{
    for (int i = 0; i < 1000; ++i) {
        const float y = sinf(0.013f * (float)i) * (1.0f + (float)i), x = cosf(0.013f * (float)i);
        const float first = lane_atan2(y, x, 0);
        for (int l = 1; l < SPX_LANES; ++l) {
            const float other = lane_atan2(y, x, l);
            TEST_ENSURE(memcmp(&first, &other, sizeof first) == 0);
        }
    }
    return 0;
}

static int corners(void)
{
    TEST_ENSURE(lane_atan2(0.0f, 0.0f, 0) == 0.0f);
    TEST_ENSURE(lane_atan2(0.0f, 2.0f, 0) == 0.0f);
    TEST_ENSURE(fabs((double)lane_atan2(0.0f, -2.0f, 0) - 3.14159265358979) <= ANGLE_BOUND);
    TEST_ENSURE(fabs((double)lane_atan2(5.0f, 0.0f, 0) - 1.5707963267949) <= ANGLE_BOUND);
    TEST_ENSURE(fabs((double)lane_atan2(-5.0f, 0.0f, 0) + 1.5707963267949) <= ANGLE_BOUND);
    TEST_ENSURE(fabs((double)lane_atan2(1.0f, 1.0f, 0) - 0.785398163397448) <= ANGLE_BOUND);
    TEST_ENSURE(isnan(lane_atan2(NAN, 1.0f, 0)));
    TEST_ENSURE(isnan(lane_atan2(1.0f, NAN, 0)));
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(within_bound, failures);
    TEST_RUN(odd_and_mirrored, failures);
    TEST_RUN(lanes_apart, failures);
    TEST_RUN(corners, failures);
    return failures ? 1 : 0;
}
