/* The sweeps' one-pass triangle check (src/collide/triangle_check.h) gives spx_triangle_validate's
   verdict on every triangle: edges at the degenerate limit to within float rounding, tiny and huge
   coordinates, coordinates at SPX_MAX_COORDINATE and beyond, NaN and infinities, with the corners in
   every order. Both verdicts must occur near the limit, or the boundary is checked on nothing. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/cases.h"
#include "collide/triangle_check.h"
#include <math.h>

static float pick_scale(test_case_rng* rng)
{
    switch (test_case_rng_next(rng) % 5) {
    case 0:
        return (float)test_case_log_uniform(rng, 1e-30, 1e-5);
    case 1:
        return SPX_MAX_COORDINATE * (float)test_case_uniform(rng, 0.999, 1.001);
    default:
        return (float)test_case_log_uniform(rng, 1e-5, 1e7);
    }
}

/* A triangle at `scale` with edges about `rel` of it (rel near 1e-6: at the degenerate limit). */
static spx_triangle draw(test_case_rng* rng, long n)
{
    const float scale = pick_scale(rng);
    const double rel = n % 3 == 0 ? test_case_log_uniform(rng, 2e-7, 5e-6) : test_case_log_uniform(rng, 1e-9, 1.0);
    spx_triangle t;
    spx_vec3 at = test_case_random_vec3(rng, -1.0, 1.0);
    for (int k = 0; k < 3; ++k) {
        double u[3];
        test_case_unit_vector(rng, u);
        t.v[k] = spx_v3(scale * (at.x + (float)(rel * u[0])), scale * (at.y + (float)(rel * u[1])),
                        scale * (at.z + (float)(rel * u[2])));
    }
    if (n % 7 == 0) t.v[2] = t.v[1]; /* two corners coincide */
    if (n % 11 == 0) {
        static const float bad[4] = { NAN, INFINITY, -INFINITY, 2e7f };
        const int k = (int)(test_case_rng_next(rng) % 3);
        const uint64_t axis = test_case_rng_next(rng) % 3;
        (&t.v[k].x)[axis] = bad[test_case_rng_next(rng) % 4];
    }
    return t;
}

static int test_same_verdict(int cases)
{
    test_case_rng rng = { 0x7E1A7C4Eu };
    long ok = 0, degenerate = 0, near_ok = 0, near_degenerate = 0, bad = 0;
    for (long n = 0; n < cases; ++n) {
        const spx_triangle t = draw(&rng, n);
        static const int order[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };
        for (int o = 0; o < 6; ++o) {
            spx_triangle r;
            for (int k = 0; k < 3; ++k) r.v[k] = t.v[order[o][k]];
            const spx_result want = spx_triangle_validate(&r), got = spx_triangle_check(&r);
            if (got != want) {
                fprintf(stderr, "case %ld order %d: check %d, validate %d\n", n, o, (int)got, (int)want);
                return 1;
            }
        }
        const spx_result v = spx_triangle_validate(&t);
        ok += v == SPX_OK;
        degenerate += v == SPX_ERR_DEGENERATE_TRIANGLE;
        bad += v == SPX_ERR_NOT_FINITE || v == SPX_ERR_OUT_OF_RANGE;
        if (n % 3 == 0 && n % 7 != 0) {
            near_ok += v == SPX_OK;
            near_degenerate += v == SPX_ERR_DEGENERATE_TRIANGLE;
        }
    }
    printf("%d triangles: %ld valid, %ld degenerate, %ld bad coordinates; near the limit %ld valid, %ld degenerate\n",
           cases, ok, degenerate, bad, near_ok, near_degenerate);
    return ok > 0 && degenerate > 0 && bad > 0 && near_ok > cases / 100 && near_degenerate > cases / 100 ? 0 : 1;
}

static int test_quick(void) { return test_same_verdict(test_cases(100000)); }

int main(void)
{
    int failures = 0;
    TEST_RUN(test_quick, failures);
    return failures ? 1 : 0;
}
