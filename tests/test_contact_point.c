/* Closest points of two 3D segments (src/collide/contact_point.h): on random pairs, nearly parallel
   ones and segments of zero length, the points lie on their segments, their distance is the least
   found by a dense search of both parameters, swapping the segments swaps the points, and nothing
   non-finite comes out. */
#include "support/test.h"
#include "support/cases.h"
#include "collide/contact_point.h"

static spx_dvec3 random_point(test_case_rng* rng, double half)
{
    const double x = test_case_uniform(rng, -half, half), y = test_case_uniform(rng, -half, half);
    return spx_d3(x, y, test_case_uniform(rng, -half, half));
}

static double dist2(spx_dvec3 a, spx_dvec3 b) { return spx_d3_len2(spx_d3_sub(a, b)); }

static bool finite3(spx_dvec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* Distance from x to segment p0 p1 (a point when p0 == p1), by projection. */
static double point_segment_dist2(spx_dvec3 x, spx_dvec3 p0, spx_dvec3 p1)
{
    const spx_dvec3 d = spx_d3_sub(p1, p0);
    const double l2 = spx_d3_len2(d);
    double s = l2 > 0 ? spx_d3_dot(spx_d3_sub(x, p0), d) / l2 : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    return dist2(x, spx_d3_mad(p0, d, s));
}

/* The least distance between the segments: every point of a fine grid on one, projected on the other. */
static double search_dist2(spx_dvec3 p0, spx_dvec3 p1, spx_dvec3 q0, spx_dvec3 q1)
{
    double best = INFINITY;
    const spx_dvec3 d = spx_d3_sub(p1, p0);
    for (int i = 0; i <= 4000; ++i) {
        const double v = point_segment_dist2(spx_d3_mad(p0, d, i / 4000.0), q0, q1);
        if (v < best) best = v;
    }
    return best;
}

/* cp on segment p, cq on segment q: each within rounding of its segment. */
static bool on_segment(spx_dvec3 x, spx_dvec3 p0, spx_dvec3 p1)
{
    const double scale = 1.0 + sqrt(spx_d3_len2(p0)) + sqrt(spx_d3_len2(p1));
    return point_segment_dist2(x, p0, p1) <= 1e-20 * scale * scale;
}

static int check_pair(spx_dvec3 p0, spx_dvec3 p1, spx_dvec3 q0, spx_dvec3 q1)
{
    spx_dvec3 cp, cq, sp, sq;
    const bool crossing = spx_segments_closest_3d(p0, p1, q0, q1, &cp, &cq);
    spx_segments_closest_3d(q0, q1, p0, p1, &sq, &sp);
    TEST_ENSURE(finite3(cp) && finite3(cq) && finite3(sp) && finite3(sq));
    TEST_ENSURE(on_segment(cp, p0, p1) && on_segment(cq, q0, q1));
    TEST_ENSURE(on_segment(sp, p0, p1) && on_segment(sq, q0, q1));
    const double d = sqrt(dist2(cp, cq)), ds = sqrt(dist2(sp, sq));
    /* The grid's spacing bounds how far above the least distance the search can stay. Segments within
       1e-6 rad of parallel give a pair from p0's end: over a length L it is within L 1e-6 of the least. */
    const double len = sqrt(dist2(p0, p1)), ref = sqrt(search_dist2(p0, p1, q0, q1));
    const double slack = 1e-12 + (crossing ? 0.0 : 1e-6 * (len + sqrt(dist2(q0, q1))));
    TEST_ENSURE(d <= ref + slack);
    TEST_ENSURE(d >= ref - len / 4000.0 - 1e-12);
    TEST_ENSURE(ds <= ref + slack);
    if (crossing) TEST_ENSURE_NEAR(d, ds, 1e-12 * (1.0 + ref));
    return 0;
}

static int random_pairs(void)
{
    test_case_rng rng = { 11 };
    for (int n = 0; n < test_cases(2000); ++n) {
        const spx_dvec3 p0 = random_point(&rng, 2), p1 = random_point(&rng, 2);
        const spx_dvec3 q0 = random_point(&rng, 2), q1 = random_point(&rng, 2);
        if (check_pair(p0, p1, q0, q1)) return 1;
    }
    return 0;
}

static int nearly_parallel_pairs(void)
{
    test_case_rng rng = { 12 };
    for (int n = 0; n < test_cases(1000); ++n) {
        const spx_dvec3 p0 = random_point(&rng, 2), p1 = random_point(&rng, 2);
        const spx_dvec3 shift = random_point(&rng, 0.5), tilt = random_point(&rng, 1);
        const double eps = test_case_log_uniform(&rng, 1e-12, 1e-3);
        const spx_dvec3 q0 = spx_d3_add(p0, shift), q1 = spx_d3_add(spx_d3_add(p1, shift), spx_d3_scale(tilt, eps));
        if (check_pair(p0, p1, q0, q1)) return 1;
    }
    return 0;
}

/* A segment of zero length is its point: the other's closest point to it, and the reverse. */
static int zero_length_segments(void)
{
    test_case_rng rng = { 13 };
    for (int n = 0; n < test_cases(1000); ++n) {
        const spx_dvec3 x = random_point(&rng, 2), q0 = random_point(&rng, 2), q1 = random_point(&rng, 2);
        if (check_pair(x, x, q0, q1) || check_pair(q0, q1, x, x)) return 1;
        spx_dvec3 cp, cq;
        spx_segments_closest_3d(x, x, q0, q1, &cp, &cq);
        TEST_ENSURE(cp.x == x.x && cp.y == x.y && cp.z == x.z);
        TEST_ENSURE_NEAR(dist2(cp, cq), point_segment_dist2(x, q0, q1), 1e-12);
        const spx_dvec3 y = random_point(&rng, 2);
        spx_segments_closest_3d(x, x, y, y, &cp, &cq);
        TEST_ENSURE(dist2(cp, x) == 0 && dist2(cq, y) == 0);
    }
    /* Two edge features of zero length give a finite contact point between them. */
    const spx_feature a = { { spx_d3(0, 0, 0), spx_d3(0, 0, 0) }, 2 };
    const spx_feature b = { { spx_d3(0, -0.1, 0), spx_d3(0, -0.1, 0) }, 2 };
    const spx_dvec3 c = spx_contact_point(&a, &b, spx_d3(0, 1, 0));
    TEST_ENSURE(finite3(c));
    TEST_ENSURE_NEAR(c.y, -0.05, 1e-12);
    return 0;
}

int main(void)
{
    int failed = 0;
    failed |= random_pairs();
    failed |= nearly_parallel_pairs();
    failed |= zero_length_segments();
    printf("test_contact_point: %s\n", failed ? "FAILED" : "ok");
    return failed;
}
