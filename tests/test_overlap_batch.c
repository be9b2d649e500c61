/* The batched static box-box test against the single-pair call, pair by pair: boxes separated by
 * each family of axes, touching, overlapping, at every lane position and every count up to two lane
 * groups and a tail; and stored values spoilt in one lane, wherever that lane sits. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/soa_store.h"
#include "collide/overlap_obb_obb.h"
#include <math.h>
#include <string.h>

enum { N = 2 * 8 + 5, LANE_MAX = 8 }; /* two groups of 8 lanes (four of 4) and a tail of 5 */

typedef struct store {
    float f[15][N];
    spx_obb_soa soa;
} store;

static uint64_t rng = 0x9e3779b97f4a7c15u;
static float unit(void) { return (float)(test_xorshift64(&rng) >> 40) / (float)(1u << 24); }
static float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
/* Three draws in a fixed order. */
static spx_vec3 range3(float lo, float hi)
{
    spx_vec3 v;
    v.x = range(lo, hi);
    v.y = range(lo, hi);
    v.z = range(lo, hi);
    return v;
}

static spx_obb random_box(spx_vec3 center)
{
    const spx_vec3 v = range3(-1, 1);
    spx_quat q = { v.x, v.y, v.z, range(-1, 1) };
    float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (n < 1e-3f) q = (spx_quat){ 0, 0, 0, 1 }, n = 1;
    q = (spx_quat){ q.x / n, q.y / n, q.z / n, q.w / n };
    spx_obb box;
    spx_obb_from_quat(center, range3(0.1f, 2), q, &box);
    return box;
}

/* Half the extent of `box` along unit u. */
static float reach(const spx_obb* box, spx_vec3 u)
{
    const float h[3] = { box->half_extents.x, box->half_extents.y, box->half_extents.z };
    float r = 0;
    for (int k = 0; k < 3; ++k) {
        const spx_vec3 c = box->rotation.col[k];
        r += h[k] * fabsf(c.x * u.x + c.y * u.y + c.z * u.z);
    }
    return r;
}

/* Pair i of round `round`: every third an axis-aligned pair touching face to face exactly, or an
   ulp-sized step apart or into each other (exact values); the others rotated, B at 0.8 to 1.2 times
   the touching distance along a random direction from A. */
static void make_pair(int round, int i, spx_obb* a, spx_obb* b)
{
    const spx_vec3 c = range3(-50, 50);
    if ((round + i) % 3 == 0) {
        const spx_quat id = { 0, 0, 0, 1 };
        spx_obb_from_quat(c, spx_v3(1.0f, 0.5f, 0.25f), id, a);
        const float gap = (float)((round + i) % 9 / 3 - 1); /* -1, 0, 1 ulp of the touching distance */
        const float d = 1.0f + 0.75f;
        spx_vec3 cb = c;
        cb.x = c.x + nextafterf(d, d + gap);
        spx_obb_from_quat(cb, spx_v3(0.75f, 2.0f, 1.0f), id, b);
        return;
    }
    *a = random_box(c);
    *b = random_box(c);
    spx_vec3 u = range3(-1, 1);
    const float n = sqrtf(u.x * u.x + u.y * u.y + u.z * u.z) + 1e-6f;
    u = spx_v3(u.x / n, u.y / n, u.z / n);
    const float s = range(0.8f, 1.2f) * (reach(a, u) + reach(b, u));
    b->center = spx_v3(c.x + s * u.x, c.y + s * u.y, c.z + s * u.z);
}

static int batch_equals_single_call(void)
{
    static store sa, sb;
    test_soa_bind(&sa.soa, &sa.f[0][0], N);
    test_soa_bind(&sb.soa, &sb.f[0][0], N);
    int families[4] = { 0 }, answers[LANE_MAX][2] = { { 0 } };
    const int rounds = test_cases(400);
    for (int round = 0; round < rounds; ++round) {
        spx_obb a[N], b[N];
        bool single[N];
        for (int i = 0; i < N; ++i) {
            make_pair(round, i, &a[i], &b[i]);
            TEST_ENSURE_CODE(spx_obb_soa_set_box(&sa.soa, (size_t)i, &a[i]), SPX_OK);
            TEST_ENSURE_CODE(spx_obb_soa_set_box(&sb.soa, (size_t)i, &b[i]), SPX_OK);
            TEST_ENSURE_CODE(spx_overlap_obb_obb(&a[i], &b[i], &single[i]), SPX_OK);
            ++families[spx_obb_obb_separating_axes(&a[i], &b[i])];
            ++answers[i % LANE_MAX][single[i]];
        }
        /* every count: whole lane groups, a tail alone, both; bytes past count untouched */
        for (size_t count = 0; count <= N; ++count) {
            uint8_t out[N + 1];
            memset(out, 0xAB, sizeof out);
            TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&sa.soa, &sb.soa, count, out), SPX_OK);
            for (size_t i = 0; i < count; ++i) TEST_ENSURE(out[i] == (uint8_t)single[i]);
            for (size_t i = count; i <= N; ++i) TEST_ENSURE(out[i] == 0xAB);
        }
    }
    printf("  %d pairs: %d apart on A's faces, %d on B's, %d on edges, %d overlapping or touching\n", rounds * N,
           families[0], families[1], families[2], families[3]);
    /* a lane that answered wrongly, or always the same, would fail above */
    for (int f = 0; f < 4; ++f) TEST_ENSURE(families[f] > 0);
    for (int l = 0; l < LANE_MAX; ++l) TEST_ENSURE(answers[l][0] > 0 && answers[l][1] > 0);
    return 0;
}

/* One stored value spoilt behind spx_obb_soa_set_box's back, in any of the 15 arrays of either side,
   in a lane group or in the tail: the batch names the fault as documented wherever it sits, and
   answers again once the value is restored. */
static int spoilt_lane_anywhere(void)
{
    static store sa, sb;
    test_soa_bind(&sa.soa, &sa.f[0][0], N);
    test_soa_bind(&sb.soa, &sb.f[0][0], N);
    for (int i = 0; i < N; ++i) {
        spx_obb a, b;
        make_pair(1, i, &a, &b);
        TEST_ENSURE_CODE(spx_obb_soa_set_box(&sa.soa, (size_t)i, &a), SPX_OK);
        TEST_ENSURE_CODE(spx_obb_soa_set_box(&sb.soa, (size_t)i, &b), SPX_OK);
    }
    const float bad[] = { NAN, INFINITY, -INFINITY, 1e20f, -1e20f };
    uint8_t out[N];
    for (int s = 0; s < 2; ++s)
        for (int f = 0; f < 15; ++f)
            for (int at = 0; at < N; ++at)
                for (size_t v = 0; v < sizeof bad / sizeof bad[0]; ++v) {
                    float* x = &(s ? &sb : &sa)->f[f][at];
                    const float keep = *x;
                    *x = bad[v];
                    const spx_result r = spx_overlap_obb_obb_batch(&sa.soa, &sb.soa, N, out);
                    if (!isfinite(bad[v])) TEST_ENSURE_CODE(r, SPX_ERR_NOT_FINITE);
                    else if (f % 5 < 2)
                        TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_RANGE); /* centre or half extent (soa_store.h) */
                    else TEST_ENSURE(r != SPX_OK);                 /* an axis component */
                    /* a pair past count does not count */
                    if (at > 0) TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&sa.soa, &sb.soa, (size_t)at, out), SPX_OK);
                    *x = keep;
                }
    /* finite, in range, but not a box (an extent of 0 or -1, an axis component of 0.5): what the batch
       says may not depend on whether the lane sits in a lane group or in the tail */
    const float odd[] = { 0.0f, -1.0f, 0.5f };
    for (int s = 0; s < 2; ++s)
        for (int f = 0; f < 15; ++f)
            for (size_t v = 0; v < sizeof odd / sizeof odd[0]; ++v) {
                if ((f % 5 == 1) != (v < 2) || f % 5 == 0) continue; /* extents get 0 and -1, axes 0.5 */
                spx_result first = SPX_OK;
                for (int at = 0; at < N; ++at) {
                    float* x = &(s ? &sb : &sa)->f[f][at];
                    const float keep = *x;
                    *x = odd[v];
                    const spx_result r = spx_overlap_obb_obb_batch(&sa.soa, &sb.soa, N, out);
                    if (at == 0) first = r;
                    TEST_ENSURE_CODE(r, first);
                    *x = keep;
                }
            }
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&sa.soa, &sb.soa, N, out), SPX_OK);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(batch_equals_single_call, failures);
    TEST_RUN(spoilt_lane_anywhere, failures);
    return failures ? 1 : 0;
}
