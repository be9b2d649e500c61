/* Broad phase: the swept sphere against hand-worked cases and sampled motion. */
#include "test.h"
#include "support/cases.h"
#include "broad/swept_sphere.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- swept sphere --------------------------------------------------------------------------------- */

static const spx_vec3 zero3 = { 0, 0, 0 };

static int swept_sphere_hand_cases(void)
{
    spx_sphere s;
    /* 2 m/s along x for 0.5 s: the centre moves 1 m, the middle is 0.5 m on; radius 0.5 + 0.5 + margin 0.1. */
    ENSURE_CODE(spx_swept_sphere(spx_v3(1, 2, 3), spx_v3(2, 0, 0), zero3, zero3, 0.5f, 0.1f, 0.5f, &s), SPX_OK);
    ENSURE_NEAR(s.center.x, 1.5, 0);
    ENSURE_NEAR(s.center.y, 2.0, 0);
    ENSURE_NEAR(s.center.z, 3.0, 0);
    ENSURE((double)s.radius >= 1.1 && s.radius <= 1.1f * (1.0f + 4e-7f));

    /* |v| = 5 m/s over 0.2 s: 1 m of travel, half of it on the radius. */
    ENSURE_CODE(spx_swept_sphere(zero3, spx_v3(3, 4, 0), zero3, zero3, 1.0f, 0.0f, 0.2f, &s), SPX_OK);
    ENSURE_NEAR(s.center.x, 0.3, 1e-7);
    ENSURE_NEAR(s.center.y, 0.4, 1e-7);
    ENSURE_NEAR(s.radius, 1.5, 4e-7);
    ENSURE((double)s.radius >= 1.5);

    /* Spinning fast about the centre of mass with the sphere centred there: rotation adds nothing. */
    ENSURE_CODE(spx_swept_sphere(spx_v3(5, 0, 0), zero3, spx_v3(0, 0, 100), zero3, 0.75f, 0.0f, 0.5f, &s), SPX_OK);
    ENSURE(s.center.x == 5.0f && s.center.y == 0.0f);
    ENSURE(s.radius >= 0.75f && s.radius <= 0.75f * (1.0f + 2.4e-7f)); /* 0.75 rounded outwards */

    /* Sphere 1 m off the centre of mass, turning at 2 rad/s for 0.25 s: 0.5 rad, the offset's end
       moves by at most 0.5 m (the arc; the chord is 2 sin(0.25) = 0.4948). */
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, spx_v3(0, 0, 2), spx_v3(1, 0, 0), 0.5f, 0.0f, 0.25f, &s), SPX_OK);
    ENSURE_NEAR(s.center.x, 1.0, 0);
    ENSURE_NEAR(s.radius, 1.0, 4e-7);
    ENSURE((double)s.radius >= 1.0);
    /* The same for 2 s: 4 rad, more than the diameter allows; the bound stops at 2 |offset|. */
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, spx_v3(0, 0, 2), spx_v3(1, 0, 0), 0.5f, 0.0f, 2.0f, &s), SPX_OK);
    ENSURE_NEAR(s.radius, 2.5, 1e-6);
    ENSURE((double)s.radius >= 2.5);

    /* dt = 0: the bounding sphere plus the margin. */
    ENSURE_CODE(spx_swept_sphere(spx_v3(-1, 0, 7), spx_v3(9, 9, 9), spx_v3(3, 0, 0), zero3, 2.0f, 0.25f, 0.0f, &s),
                SPX_OK);
    ENSURE(s.center.x == -1.0f && s.center.z == 7.0f);
    ENSURE(s.radius >= 2.25f && s.radius <= 2.25f * (1.0f + 2.4e-7f));

    /* The box is one float step outside the sphere on every face. */
    spx_sphere unit = { { 0, 0, 0 }, 1.0f };
    spx_aabb b = spx_sphere_aabb(&unit);
    for (int k = 0; k < 3; ++k) {
        ENSURE(b.min[k] < -1.0f && b.min[k] >= -1.0f - 2.4e-7f);
        ENSURE(b.max[k] > 1.0f && b.max[k] <= 1.0f + 2.4e-7f);
    }
    spx_sphere point = { { 0, 0, 0 }, 0.0f };
    b = spx_sphere_aabb(&point);
    ENSURE(b.min[0] < 0.0f && b.max[0] > 0.0f && b.max[0] < 1e-40f);
    return 0;
}

static int swept_sphere_bad_input(void)
{
    spx_sphere s = { { 7, 7, 7 }, 7 };
    const spx_sphere before = s;
    spx_vec3 nan3 = { 0, NAN, 0 }, inf3 = { INFINITY, 0, 0 };
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, 0, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_CODE(spx_swept_sphere(nan3, zero3, zero3, zero3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, inf3, zero3, zero3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, nan3, zero3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, inf3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, NAN, 0, 1, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, INFINITY, 1, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, 0, NAN, &s), SPX_ERR_NOT_FINITE);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, -1, 0, 1, &s), SPX_ERR_BAD_EXTENT);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, -0.5f, 1, &s), SPX_ERR_BAD_EXTENT);
    ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, 0, -1, &s), SPX_ERR_BAD_TIME);
    /* Finite inputs whose sphere is not: 3e38 m/s for 10 s. */
    ENSURE_CODE(spx_swept_sphere(zero3, spx_v3(3e38f, 0, 0), zero3, zero3, 1, 0, 10, &s), SPX_ERR_NOT_FINITE);
    ENSURE(memcmp(&s, &before, sizeof s) == 0); /* no failed call wrote *out */
    return 0;
}

/* q rotated by the angle |w| t about w (Rodrigues), in double. */
static void rotate(const double w[3], double t, const double q[3], double out[3])
{
    double len = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (len == 0.0) {
        memcpy(out, q, 3 * sizeof *out);
        return;
    }
    double k[3] = { w[0] / len, w[1] / len, w[2] / len }, a = len * t, c = cos(a), s = sin(a);
    double kq = k[0] * q[0] + k[1] * q[1] + k[2] * q[2];
    double x[3] = { k[1] * q[2] - k[2] * q[1], k[2] * q[0] - k[0] * q[2], k[0] * q[1] - k[1] * q[0] };
    for (int i = 0; i < 3; ++i) out[i] = q[i] * c + x[i] * s + k[i] * kq * (1.0 - c);
}

static int swept_sphere_holds_the_motion(void)
{
    /* Random bodies; points on the surface of each bounding sphere followed along the exact motion
       (constant v and w) at 33 times in [0, dt]: every one inside the swept sphere and its box. */
    case_rng rng = { 0xB0AD5EEDu };
    double worst = -1e30; /* largest (distance - radius) / radius seen: must stay <= 0 */
    for (int body = 0; body < 4000; ++body) {
        double scale = case_log_uniform(&rng, 1e-3, 1e4);
        spx_vec3 p = { (float)case_uniform(&rng, -scale, scale), (float)case_uniform(&rng, -scale, scale),
                       (float)case_uniform(&rng, -scale, scale) };
        double dir[3];
        case_unit_vector(&rng, dir);
        double speed = body % 4 == 0 ? 0.0 : case_log_uniform(&rng, 1e-3, 100.0);
        spx_vec3 v = { (float)(dir[0] * speed), (float)(dir[1] * speed), (float)(dir[2] * speed) };
        case_unit_vector(&rng, dir);
        double spin = body % 3 == 0 ? 0.0 : case_log_uniform(&rng, 1e-2, 60.0);
        spx_vec3 w = { (float)(dir[0] * spin), (float)(dir[1] * spin), (float)(dir[2] * spin) };
        case_unit_vector(&rng, dir);
        double off = body % 5 == 0 ? 0.0 : case_log_uniform(&rng, 1e-3, 3.0);
        spx_vec3 o = { (float)(dir[0] * off), (float)(dir[1] * off), (float)(dir[2] * off) };
        float r = (float)case_log_uniform(&rng, 1e-3, 3.0);
        float margin = body % 2 ? 0.0f : (float)case_uniform(&rng, 0.0, 0.05);
        float dt = body % 7 == 0 ? (float)case_uniform(&rng, 0.0, 2.0) : 1.0f / 60.0f;
        spx_sphere s;
        ENSURE_CODE(spx_swept_sphere(p, v, w, o, r, margin, dt, &s), SPX_OK);
        spx_aabb box = spx_sphere_aabb(&s);
        const double pd[3] = { p.x, p.y, p.z }, vd[3] = { v.x, v.y, v.z }, wd[3] = { w.x, w.y, w.z };
        for (int k = 0; k < 8; ++k) {
            double u[3];
            case_unit_vector(&rng, u);
            /* A body point: on the bounding sphere about p + o, as far out as the radius allows. */
            double rel[3] = { o.x + u[0] * r, o.y + u[1] * r, o.z + u[2] * r };
            for (int step = 0; step <= 32; ++step) {
                double t = (double)dt * step / 32.0, q[3], d2 = 0.0;
                rotate(wd, t, rel, q);
                for (int i = 0; i < 3; ++i) {
                    q[i] += pd[i] + vd[i] * t;
                    double c = i == 0 ? s.center.x : i == 1 ? s.center.y : s.center.z;
                    d2 += (q[i] - c) * (q[i] - c);
                    /* The test's own double rounding: far below a float step of the coordinates. */
                    double slack = 1e-12 * (fabs(q[i]) + s.radius);
                    ENSURE(q[i] >= box.min[i] - slack && q[i] <= box.max[i] + slack);
                }
                double excess = (sqrt(d2) - s.radius) / s.radius;
                if (excess > worst) worst = excess;
            }
        }
    }
    printf("  worst (distance - radius) / radius over the sampled motion: %.3g\n", worst);
    ENSURE(worst <= 1e-12);
    return 0;
}

int main(void)
{
    int failures = 0;
    RUN_TEST(swept_sphere_hand_cases, failures);
    RUN_TEST(swept_sphere_bad_input, failures);
    RUN_TEST(swept_sphere_holds_the_motion, failures);
    return failures ? 1 : 0;
}
