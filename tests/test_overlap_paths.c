/* The single-pair static box-box call checks both boxes and tests the 15 axes in one SIMD pass: it
   must give exactly the answer of the scalar test (spx_overlap_obb_obb_unchecked) and exactly the
   error of the validator, on touching pairs, nearly parallel edges, rotations at the edge of the
   tolerance and bad values in every field. */
#include <sepax/sepax.h>
#include "test.h"
#include "support/cases.h"
#include "collide/overlap_obb_obb.h"
#include "geometry/validate.h"
#include <float.h>

static spx_obb random_box(case_rng* rng, double spread)
{
    spx_obb box;
    spx_vec3 c = { (float)case_uniform(rng, -spread, spread), (float)case_uniform(rng, -spread, spread),
                   (float)case_uniform(rng, -spread, spread) };
    spx_vec3 h = { (float)case_log_uniform(rng, 0.01, 3.0), (float)case_log_uniform(rng, 0.01, 3.0),
                   (float)case_log_uniform(rng, 0.01, 3.0) };
    spx_obb_from_quat(c, h, case_random_quat(rng), &box);
    return box;
}

/* The answer the call must give: the validator's first fault, else the scalar test. */
static int expect(const spx_obb* a, const spx_obb* b, bool* overlap)
{
    spx_result r = spx_first_error(spx_obb_validate(a), spx_obb_validate(b));
    if (r == SPX_OK) *overlap = spx_overlap_obb_obb_unchecked(a, b);
    return (int)r;
}

static int same_as_scalar(const spx_obb* a, const spx_obb* b, long n)
{
    bool want = false, got = !want;
    const int r = expect(a, b, &want);
    const int s = (int)spx_overlap_obb_obb(a, b, &got);
    if (s != r || (r == SPX_OK && got != want)) {
        fprintf(stderr, "case %ld: code %d (want %d), overlap %d (want %d)\n", n, s, r, got, want);
        return 1;
    }
    return 0;
}

/* Random pairs placed at 0.9999 to 1.0001 of their touching distance along a random direction,
   measured by bisection on the scalar test itself, so both answers occur at the boundary. */
static int touching_pairs(void)
{
    case_rng rng = { 0x70C4u };
    int overlaps = 0;
    for (long n = 0; n < 20000; ++n) {
        spx_obb a = random_box(&rng, 5.0), b = random_box(&rng, 5.0);
        if (n % 4 == 1) b.rotation = a.rotation; /* parallel edges everywhere */
        if (n % 4 == 2) {                       /* nearly parallel: one column tilted by ~1e-6 */
            spx_quat q = { 1e-6f * (float)case_uniform(&rng, -1, 1), 0.0f, 0.0f, 1.0f };
            spx_obb t;
            spx_obb_from_quat(a.center, b.half_extents, q, &t);
            spx_mat3 m;
            for (int j = 0; j < 3; ++j) {
                const spx_vec3 c = t.rotation.col[j];
                m.col[j].x = a.rotation.col[0].x * c.x + a.rotation.col[1].x * c.y + a.rotation.col[2].x * c.z;
                m.col[j].y = a.rotation.col[0].y * c.x + a.rotation.col[1].y * c.y + a.rotation.col[2].y * c.z;
                m.col[j].z = a.rotation.col[0].z * c.x + a.rotation.col[1].z * c.y + a.rotation.col[2].z * c.z;
            }
            b.rotation = m;
        }
        double dir[3];
        case_unit_vector(&rng, dir);
        double lo = 0.0, hi = 40.0;
        for (int k = 0; k < 40; ++k) {
            const double mid = 0.5 * (lo + hi);
            spx_obb t = b;
            t.center.x = a.center.x + (float)(mid * dir[0]);
            t.center.y = a.center.y + (float)(mid * dir[1]);
            t.center.z = a.center.z + (float)(mid * dir[2]);
            if (spx_overlap_obb_obb_unchecked(&a, &t)) lo = mid;
            else hi = mid;
        }
        const double f = case_uniform(&rng, 0.9999, 1.0001) * lo;
        b.center.x = a.center.x + (float)(f * dir[0]);
        b.center.y = a.center.y + (float)(f * dir[1]);
        b.center.z = a.center.z + (float)(f * dir[2]);
        if (same_as_scalar(&a, &b, n)) return 1;
        if (same_as_scalar(&b, &a, n)) return 1;
        bool o = false;
        spx_overlap_obb_obb(&a, &b, &o);
        overlaps += o;
    }
    ENSURE(overlaps > 5000 && overlaps < 15000); /* the boundary was met from both sides */
    return 0;
}

/* Every float of either box set to values at and past each check's limit: the code is the
   validator's, and the answer the scalar test's whenever both boxes pass. */
static int every_field(void)
{
    case_rng rng = { 0xF1E1Du };
    const float tol = SPX_ROTATION_TOLERANCE;
    const float values[] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, -1e-30f, 1e-30f, SPX_MAX_COORDINATE,
                             -SPX_MAX_COORDINATE, nextafterf(SPX_MAX_COORDINATE, INFINITY), 1e30f, -1.0f, 2.0f };
    const float scales[] = { 1.0f + 0.5f * tol, 1.0f + 0.99f * tol, 1.0f + 1.01f * tol, 1.0f + 2.0f * tol,
                             1.0f + 3.9f * tol, 1.0f + 4.1f * tol, 1.0f - 0.99f * tol, 1.0f - 1.01f * tol, -1.0f };
    long n = 0;
    for (int round = 0; round < 40; ++round) {
        spx_obb pair[2] = { random_box(&rng, 1.0), random_box(&rng, 1.0) };
        for (int which = 0; which < 2; ++which)
            for (int field = 0; field < 15; ++field) {
                for (size_t v = 0; v < sizeof values / sizeof values[0]; ++v) {
                    spx_obb p[2] = { pair[0], pair[1] };
                    (&p[which].center.x)[field] = values[v];
                    if (same_as_scalar(&p[0], &p[1], n++)) return 1;
                }
                for (size_t v = 0; v < sizeof scales / sizeof scales[0]; ++v) {
                    spx_obb p[2] = { pair[0], pair[1] };
                    (&p[which].center.x)[field] *= scales[v];
                    if (same_as_scalar(&p[0], &p[1], n++)) return 1;
                    /* a column tilted towards another: dot products near the tolerance */
                    if (field >= 6) {
                        const int col = (field - 6) / 3, other = (col + 1) % 3;
                        spx_obb q[2] = { pair[0], pair[1] };
                        const float e = (scales[v] - 1.0f) * (field % 2 ? 1.0f : 2.0f);
                        spx_vec3* c = &q[which].rotation.col[col];
                        const spx_vec3 o = q[which].rotation.col[other];
                        c->x += e * o.x, c->y += e * o.y, c->z += e * o.z;
                        if (same_as_scalar(&q[0], &q[1], n++)) return 1;
                    }
                }
            }
        /* a reflection: every dot product fine, the determinant -1 */
        spx_obb p[2] = { pair[0], pair[1] };
        p[round % 2].rotation.col[2].x *= -1.0f, p[round % 2].rotation.col[2].y *= -1.0f;
        p[round % 2].rotation.col[2].z *= -1.0f;
        if (same_as_scalar(&p[0], &p[1], n++)) return 1;
    }
    return 0;
}

int main(void)
{
    int failures = 0;
    RUN_TEST(touching_pairs, failures);
    RUN_TEST(every_field, failures);
    return failures ? 1 : 0;
}
