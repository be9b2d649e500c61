/* Box-box queries on cases worked out by hand. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/pieces.h"
#include "support/cases.h"
#include "support/soa_store.h"
#include "geometry/validate.h"
#include <float.h>
#include <string.h>

static const spx_mat3 I3 = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

static spx_obb box(float x, float y, float z, float hx, float hy, float hz)
{
    spx_obb b = { { x, y, z }, { hx, hy, hz }, I3 };
    return b;
}

static spx_obb box_q(float x, float y, float z, float h, spx_quat q)
{
    spx_obb b;
    spx_obb_from_quat(spx_v3(x, y, z), spx_v3(h, h, h), q, &b);
    return b;
}

static int head_on(void)
{ /* unit boxes (half 0.5) 4 m apart closing at 4 m/s: the 3 m gap closes at t = 0.75 s */
    spx_obb a = box(0, 0, 0, 0.5f, 0.5f, 0.5f), b = box(4, 0, 0, 0.5f, 0.5f, 0.5f);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(2, 0, 0), &b, spx_v3(-2, 0, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 0.75, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.x, 1, 1e-6);
    TEST_ENSURE(hit.axis == 0);
    TEST_ENSURE(hit.feature_a == SPX_FEATURE_FACE && hit.feature_b == SPX_FEATURE_FACE);
    TEST_ENSURE_NEAR(hit.point.x, 2.0, 1e-6); /* A's face at 1.5 + 0.5 */
    TEST_ENSURE_NEAR(hit.point.y, 0.0, 1e-6);
    TEST_ENSURE_NEAR(hit.point.z, 0.0, 1e-6);
    /* swapped: same time, normal flips */
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&b, spx_v3(-2, 0, 0), &a, spx_v3(2, 0, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE_NEAR(hit.time, 0.75, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.x, -1, 1e-6);
    TEST_ENSURE(hit.axis == 0); /* ties between faces go to A's */
    /* too short an interval: miss */
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(2, 0, 0), &b, spx_v3(-2, 0, 0), 0.7f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    return 0;
}

static int offset_face_overlap_point(void)
{ /* B offset in y by 0.6: the faces overlap on y in [0.1, 0.5]; the point is the middle of it */
    spx_obb a = box(0, 0, 0, 0.5f, 0.5f, 0.5f), b = box(3, 0.6f, 0, 0.5f, 0.5f, 0.5f);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(-4, 0, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(test_hit_is(&hit, 0.5, 1e-6, NULL, 0, (const double[]){ 0.5, 0.3, 0.0 }, 1e-6));
    return 0;
}

static int vertex_on_face(void)
{ /* B turned so a corner points down at A's top face (about x by 45 deg, then z by atan(1/sqrt2)) */
    float s = sinf(0.5f * 0.7853982f), c = cosf(0.5f * 0.7853982f);
    float th = atanf(1.0f / sqrtf(2.0f)), s2 = sinf(0.5f * th), c2 = cosf(0.5f * th);
    /* q = qz * qx */
    spx_quat q = { c2 * s, s2 * s, s2 * c, c2 * c };
    spx_obb a = box(0, 0, 0, 1, 1, 1), b = box_q(0.2f, 5, 0.1f, 0.5f, q);
    spx_vec3 corner[8];
    spx_obb_get_corners(&b, corner);
    float lowest = 1e9f;
    int k = 0;
    for (int i = 0; i < 8; ++i)
        if (corner[i].y < lowest) {
            lowest = corner[i].y;
            k = i;
        }
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(0, -2, 0), 5.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, (lowest - 1.0f) / 2.0f, 1e-5);
    TEST_ENSURE_NEAR(hit.normal.y, 1, 1e-6);
    TEST_ENSURE(hit.feature_b == SPX_FEATURE_VERTEX);
    TEST_ENSURE_NEAR(hit.point.x, corner[k].x, 1e-5);
    TEST_ENSURE_NEAR(hit.point.z, corner[k].z, 1e-5);
    TEST_ENSURE_NEAR(hit.point.y, 1.0, 1e-5);
    return 0;
}

static int edge_on_edge(void)
{ /* A's top edge along z (A turned 45 deg about z) meets B's bottom edge along x (B turned 45 about x) */
    float s = sinf(0.3926991f), c = cosf(0.3926991f);
    spx_obb a = box_q(0, 0, 0, 0.5f, (spx_quat){ 0, 0, s, c });
    spx_obb b = box_q(0.1f, 4, 0.2f, 0.5f, (spx_quat){ s, 0, 0, c });
    float ridge = 0.5f * sqrtf(2.0f); /* both boxes reach this far along y from their centres */
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 1, 0), &b, spx_v3(0, -1, 0), 3.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, (4.0f - 2.0f * ridge) / 2.0f, 1e-5);
    TEST_ENSURE_NEAR(fabsf(hit.normal.y), 1, 1e-5);
    TEST_ENSURE(hit.normal.y > 0);
    TEST_ENSURE(hit.feature_a == SPX_FEATURE_EDGE && hit.feature_b == SPX_FEATURE_EDGE);
    TEST_ENSURE_NEAR(hit.point.x, 0.0, 1e-5); /* on A's ridge x = 0 ... */
    TEST_ENSURE_NEAR(hit.point.z, 0.2, 1e-5); /* ... and B's ridge z = 0.2 */
    TEST_ENSURE_NEAR(hit.point.y, hit.time + ridge, 1e-5);
    return 0;
}

static int start_overlap_depth(void)
{
    spx_obb a = box(0, 0, 0, 1, 1, 1), b = box(1.8f, 0.5f, 0, 1, 1, 1);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(5, 0, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(hit.time == 0.0f);
    TEST_ENSURE_NEAR(hit.depth, 0.2, 1e-6);
    TEST_ENSURE_NEAR(hit.normal.x, 1, 1e-6);
    spx_penetration pen;
    TEST_ENSURE_CODE(spx_penetration_obb_obb(&a, &b, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0.2, 1e-6));
    TEST_ENSURE_NEAR(pen.normal.x, 1, 1e-6);
    TEST_ENSURE_CODE(spx_penetration_obb_obb(&b, &a, &pen), SPX_OK);
    TEST_ENSURE_NEAR(pen.normal.x, -1, 1e-6);
    bool o;
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&a, &b, &o), SPX_OK);
    TEST_ENSURE(o);
    return 0;
}

static int touching_counts(void)
{
    spx_obb a = box(0, 0, 0, 1, 1, 1), b = box(2, 0.3f, 0, 1, 1, 1);
    bool o = false;
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&a, &b, &o), SPX_OK);
    TEST_ENSURE(o);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(0, 0, 0), 0.0f, &hit), SPX_OK);
    TEST_ENSURE(test_starts_overlapping_by(&hit, 0, 0));
    TEST_ENSURE_NEAR(hit.normal.x, 1, 0);
    /* touching exactly at tmax */
    spx_obb c = box(4, 0, 0, 1, 1, 1);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &c, spx_v3(-1, 0, 0), 2.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 2.0, 0);
    b.center.x = 2.0001f;
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&a, &b, &o), SPX_OK);
    TEST_ENSURE(!o);
    return 0;
}

static int passes_by(void)
{ /* B overtakes along x while offset in y by more than the sizes: never touches */
    spx_obb a = box(0, 0, 0, 1, 1, 1), b = box(-5, 2.5f, 0, 1, 1, 1);
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(10, 0, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    /* diagonal pass: enters x before leaving y? no: enters y at 0.5, leaves x at 0.4 */
    spx_obb c = box(-3, 3, 0, 0.5f, 0.5f, 0.5f);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &c, spx_v3(10, -3, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_MISS);
    return 0;
}

static int bad_input(void)
{
    spx_obb a = box(0, 0, 0, 1, 1, 1), b = box(3, 0, 0, 1, 1, 1), bad = b;
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(0, 0, 0), -1.0f, &hit), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(0, 0, 0), NAN, &hit), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(INFINITY, 0, 0), &b, spx_v3(0, 0, 0), 1, &hit), SPX_ERR_NOT_FINITE);
    bad.half_extents.y = -1;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &bad, spx_v3(0, 0, 0), 1, &hit), SPX_ERR_BAD_EXTENT);
    bad = b;
    bad.rotation.col[0].x = 2;
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &bad, spx_v3(0, 0, 0), 1, &hit), SPX_ERR_NOT_ORTHONORMAL);
    bool o;
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&bad, &a, &o), SPX_ERR_NOT_ORTHONORMAL);
    spx_penetration pen;
    TEST_ENSURE_CODE(spx_penetration_obb_obb(&a, NULL, &pen), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, spx_v3(0, 0, 0), &b, spx_v3(0, 0, 0), 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* The sweep's code for a motion at the limits is spx_check_motion's: speeds whose |v| tmax lies within a few float
   steps of SPX_MAX_COORDINATE, in every component of either box, either sign; non-finite speeds; tmax zero, signed,
   tiny, huge, infinite or NaN. */
static int motion_codes_at_limits(void)
{
    const spx_obb a = box(0, 0, 0, 1, 1, 1), b = box(3, 0, 0, 1, 1, 1);
    const float times[] = { 1.0f,    0.5f,    1.0f / 60.0f, 0.0f,    -0.0f,    -1.0f,     1e-30f,
                            -1e-30f, FLT_MIN, 1e-40f,       FLT_MAX, INFINITY, -INFINITY, NAN };
    long cases = 0, refused = 0;
    for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
        const float tmax = times[k];
        const float base = isfinite(tmax) && tmax > 0.0f ? SPX_MAX_COORDINATE / tmax : SPX_MAX_COORDINATE;
        float speeds[24];
        int n = 0;
        for (int step = -8; step <= 8; ++step) speeds[n++] = base * (1.0f + (float)step * 0x1p-23f);
        speeds[n++] = 0.0f, speeds[n++] = 1.0f, speeds[n++] = FLT_MAX, speeds[n++] = INFINITY, speeds[n++] = NAN;
        for (int m = 0; m < n; ++m)
            for (int slot = 0; slot < 12; ++slot) {
                float v[6] = { 0.5f, -0.25f, 0.0f, -1.0f, 0.0f, 2.0f };
                v[slot % 6] = slot < 6 ? speeds[m] : -speeds[m];
                const spx_vec3 va = spx_v3(v[0], v[1], v[2]), vb = spx_v3(v[3], v[4], v[5]);
                const spx_result want = spx_check_motion(va, vb, tmax);
                spx_sweep_hit hit;
                const spx_result got = spx_sweep_obb_obb(&a, va, &b, vb, tmax, &hit);
                if (got != want) {
                    fprintf(stderr, "tmax %a, speed %a in slot %d: code %d, spx_check_motion %d\n", (double)tmax,
                            (double)speeds[m], slot, (int)got, (int)want);
                    return 1;
                }
                ++cases;
                refused += want != SPX_OK;
            }
    }
    /* both sides of the range occur */
    TEST_ENSURE(refused > 0 && refused < cases);
    return 0;
}

/* The same speeds in a batch of 1 to 9 pairs, at every pair and component (the vector body and the tail of any lane
   width): the batch's code is spx_check_motion's over its pairs, the first in base.h's order. */
static int batch_motion_codes_at_limits(void)
{
    enum { N = 9 };
    const spx_obb a = box(0, 0, 0, 1, 1, 1), b = box(3, 0, 0, 1, 1, 1);
    float store[2][15 * N];
    spx_obb_soa sa, sb;
    test_soa_bind(&sa, store[0], N);
    test_soa_bind(&sb, store[1], N);
    for (size_t i = 0; i < N; ++i) {
        TEST_ENSURE_CODE(spx_obb_soa_set_box(&sa, i, &a), SPX_OK);
        TEST_ENSURE_CODE(spx_obb_soa_set_box(&sb, i, &b), SPX_OK);
    }
    const float times[] = { 1.0f, 1.0f / 60.0f, 0.0f, -1.0f, FLT_MIN, FLT_MAX, INFINITY, NAN };
    long cases = 0, refused = 0;
    for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
        const float tmax = times[k];
        const float base = isfinite(tmax) && tmax > 0.0f ? SPX_MAX_COORDINATE / tmax : SPX_MAX_COORDINATE;
        const float speeds[] = {
            base * (1.0f - 0x1p-23f), base, base * (1.0f + 0x1p-23f), 1.0f, FLT_MAX, INFINITY, NAN
        };
        for (size_t m = 0; m < sizeof speeds / sizeof speeds[0]; ++m)
            for (size_t count = 1; count <= N; ++count)
                for (size_t at = 0; at < 6 * count; ++at) {
                    spx_vec3 va[N], vb[N];
                    for (size_t i = 0; i < N; ++i)
                        va[i] = spx_v3(0.5f, -0.25f, 0.0f), vb[i] = spx_v3(-1.0f, 0.0f, 2.0f);
                    float* slot = at % 6 < 3 ? &va[at / 6].x + at % 3 : &vb[at / 6].x + at % 3;
                    *slot = at % 2 ? -speeds[m] : speeds[m];
                    spx_result want = SPX_OK;
                    for (size_t i = 0; i < count; ++i)
                        want = spx_first_error(want, spx_check_motion(va[i], vb[i], tmax));
                    spx_sweep_hit hits[N];
                    const spx_result got = spx_sweep_obb_obb_batch(&sa, va, &sb, vb, count, tmax, hits);
                    if (got != want) {
                        fprintf(stderr, "tmax %a, speed %a at component %zu of %zu pairs: code %d, want %d\n",
                                (double)tmax, (double)speeds[m], at, count, (int)got, (int)want);
                        return 1;
                    }
                    ++cases;
                    refused += want != SPX_OK;
                }
    }
    TEST_ENSURE(refused > 0 && refused < cases);
    return 0;
}

/* 100,000 random pairs, B's centre within the sum of the two boxes' half diagonals of A's so that
   about half overlap: the pre-checked call answers as the checked one, in both argument orders. */
static int prechecked_same_answers(void)
{
    test_case_rng rng = { 0xC4EC7u };
    const int n = test_cases(100000);
    int overlaps = 0;
    for (int k = 0; k < n; ++k) {
        spx_obb box[2];
        spx_obb_checked checked[2];
        for (int s = 0; s < 2; ++s) {
            const float hx = (float)test_case_log_uniform(&rng, 0.01, 3.0);
            const float hy = (float)test_case_log_uniform(&rng, 0.01, 3.0);
            const float hz = (float)test_case_log_uniform(&rng, 0.01, 3.0);
            const spx_vec3 h = { hx, hy, hz };
            const float reach = s == 0 ? 0.0f
                                       : 1.2f * (sqrtf(h.x * h.x + h.y * h.y + h.z * h.z) +
                                                 sqrtf(box[0].half_extents.x * box[0].half_extents.x +
                                                       box[0].half_extents.y * box[0].half_extents.y +
                                                       box[0].half_extents.z * box[0].half_extents.z));
            double dir[3];
            test_case_unit_vector(&rng, dir);
            const float f = reach * (float)test_case_uniform(&rng, 0.0, 1.0);
            const spx_vec3 c = { (float)dir[0] * f + 1.5f, (float)dir[1] * f - 2.0f, (float)dir[2] * f + 0.5f };
            TEST_ENSURE_CODE(spx_obb_from_quat(c, h, test_case_random_quat(&rng), &box[s]), SPX_OK);
            TEST_ENSURE_CODE(spx_obb_check(&box[s], &checked[s]), SPX_OK);
            TEST_ENSURE(memcmp(&checked[s].box, &box[s], sizeof box[s]) == 0);
        }
        for (int s = 0; s < 2; ++s) {
            bool want = false, got = true;
            TEST_ENSURE_CODE(spx_overlap_obb_obb(&box[s], &box[1 - s], &want), SPX_OK);
            TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(&checked[s], &checked[1 - s], &got), SPX_OK);
            if (got != want) {
                fprintf(stderr, "pair %d (order %d): pre-checked %d, checked %d\n", k, s, got, want);
                return 1;
            }
            overlaps += want;
        }
    }
    TEST_ENSURE(overlaps > n / 2 && overlaps < 3 * n / 2); /* both answers are common */
    return 0;
}

/* A box the check refuses keeps the output untouched and gives the validator's code; the pre-checked
   call refuses NULL and any box spx_obb_check did not write (a zeroed or hand-filled struct). */
static int prechecked_refuses(void)
{
    spx_obb a = box(0, 0, 0, 1, 1, 1), bad = a;
    spx_obb_checked ca, cb, blank;
    memset(&blank, 0, sizeof blank);
    TEST_ENSURE_CODE(spx_obb_check(&a, &ca), SPX_OK);
    cb = ca; /* a copy keeps its check */
    bool o = false;
    TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(&ca, &cb, &o), SPX_OK);
    TEST_ENSURE(o);
    const spx_obb_checked before = blank;
    bad.half_extents.z = 0.0f;
    TEST_ENSURE_CODE(spx_obb_check(&bad, &blank), SPX_ERR_BAD_EXTENT);
    bad = a, bad.center.y = NAN;
    TEST_ENSURE_CODE(spx_obb_check(&bad, &blank), SPX_ERR_NOT_FINITE);
    bad = a, bad.rotation.col[1].y = 1.001f;
    TEST_ENSURE_CODE(spx_obb_check(&bad, &blank), SPX_ERR_NOT_ORTHONORMAL);
    bad = a, bad.rotation.col[2].z = -1.0f;
    TEST_ENSURE_CODE(spx_obb_check(&bad, &blank), SPX_ERR_NOT_RIGHT_HANDED);
    TEST_ENSURE(memcmp(&before, &blank, sizeof blank) == 0);
    TEST_ENSURE_CODE(spx_obb_check(NULL, &blank), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_obb_check(&a, NULL), SPX_ERR_INVALID_ARGUMENT);

    blank.box = a; /* the box is fine, but no check wrote it */
    o = true;
    TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(&blank, &cb, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(&ca, &blank, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(o); /* untouched */
    TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(NULL, &cb, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(&ca, NULL, &o), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_obb_checked(&ca, &cb, NULL), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(head_on, failures);
    TEST_RUN(offset_face_overlap_point, failures);
    TEST_RUN(vertex_on_face, failures);
    TEST_RUN(edge_on_edge, failures);
    TEST_RUN(start_overlap_depth, failures);
    TEST_RUN(touching_counts, failures);
    TEST_RUN(passes_by, failures);
    TEST_RUN(bad_input, failures);
    TEST_RUN(motion_codes_at_limits, failures);
    TEST_RUN(batch_motion_codes_at_limits, failures);
    TEST_RUN(prechecked_same_answers, failures);
    TEST_RUN(prechecked_refuses, failures);
    return failures ? 1 : 0;
}
