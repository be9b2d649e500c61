/* The SIMD wrapper (math/simd.h): every four-lane operation gives, lane by lane and bit for bit, what
   plain C with SSE's rules gives (comparisons all ones or zero, min and max the second operand when
   one is NaN), on NaN, infinities, zeros of both signs, denormals and ordinary values; so the SSE2
   build and the scalar one (-DSEPAX_DISABLE_SIMD=ON) agree. The lane vectors' transposes (the
   solver's gather and scatter) and joins put every float where it belongs, and the build has the
   lanes its options ask for. */
#include "support/test.h"
#include "math/simd.h"
#include <float.h>
#include <stdbool.h>
#include <stdint.h>

static uint32_t bits_of(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* Values whose handling differs between careless implementations. */
static float special(int i)
{
    static const uint32_t nan_bits = 0x7fc00000u, neg_nan_bits = 0xffc00001u;
    const float v[] = { 0.0f,
                        -0.0f,
                        1.0f,
                        -1.0f,
                        0.5f,
                        -2.5f,
                        3.0f,
                        FLT_MAX,
                        -FLT_MAX,
                        FLT_MIN,
                        FLT_TRUE_MIN,
                        -FLT_TRUE_MIN,
                        INFINITY,
                        -INFINITY,
                        float_of(nan_bits),
                        float_of(neg_nan_bits),
                        1e-30f,
                        7.25e12f,
                        -1.5e-7f,
                        0.1f };
    const int n = (int)(sizeof v / sizeof v[0]);
    return v[((i % n) + n) % n];
}
#define SPECIALS 20

static void lanes_of(spx_f4 v, float out[4]) { spx_f4_store(out, v); }

/* Every lane of r equals want(a[l], b[l]) bit for bit (NaN results: any NaN). */
static int same_lanes(spx_f4 r, const float want[4])
{
    float got[4];
    lanes_of(r, got);
    for (int l = 0; l < 4; ++l) {
        const bool both_nan = got[l] != got[l] && want[l] != want[l];
        if (!both_nan && bits_of(got[l]) != bits_of(want[l])) {
            fprintf(stderr, "lane %d: got %.9g (0x%08x), want %.9g (0x%08x)\n", l, (double)got[l], bits_of(got[l]),
                    (double)want[l], bits_of(want[l]));
            return 1;
        }
    }
    return 0;
}

static float mask_float(bool m) { return float_of(m ? 0xffffffffu : 0u); }

static int four_lane_arithmetic(void)
{
    for (int i = 0; i < SPECIALS; ++i)
        for (int j = 0; j < SPECIALS; j += 1) {
            float a[4], b[4];
            for (int l = 0; l < 4; ++l) a[l] = special(i + l * 7), b[l] = special(j + l * 3);
            const spx_f4 va = spx_f4_load(a), vb = spx_f4_load(b);
            float w[4];
#define CHECK(expr, lane_expr)                          \
    do {                                                \
        for (int l = 0; l < 4; ++l) w[l] = (lane_expr); \
        TEST_ENSURE(same_lanes((expr), w) == 0);        \
    } while (0)
            CHECK(spx_f4_add(va, vb), a[l] + b[l]);
            CHECK(spx_f4_sub(va, vb), a[l] - b[l]);
            CHECK(spx_f4_mul(va, vb), a[l] * b[l]);
            CHECK(spx_f4_div(va, vb), a[l] / b[l]);
            CHECK(spx_f4_sqrt(va), sqrtf(a[l]));
            CHECK(spx_f4_min(va, vb), a[l] < b[l] ? a[l] : b[l]);
            CHECK(spx_f4_max(va, vb), a[l] > b[l] ? a[l] : b[l]);
            CHECK(spx_f4_abs(va), float_of(bits_of(a[l]) & 0x7fffffffu));
            CHECK(spx_f4_neg(va), float_of(bits_of(a[l]) ^ 0x80000000u));
            CHECK(spx_f4_and(va, vb), float_of(bits_of(a[l]) & bits_of(b[l])));
            CHECK(spx_f4_or(va, vb), float_of(bits_of(a[l]) | bits_of(b[l])));
            CHECK(spx_f4_xor(va, vb), float_of(bits_of(a[l]) ^ bits_of(b[l])));
            CHECK(spx_f4_andnot(va, vb), float_of(~bits_of(a[l]) & bits_of(b[l])));
            CHECK(spx_f4_eq(va, vb), mask_float(a[l] == b[l]));
            CHECK(spx_f4_lt(va, vb), mask_float(a[l] < b[l]));
            CHECK(spx_f4_le(va, vb), mask_float(a[l] <= b[l]));
            CHECK(spx_f4_gt(va, vb), mask_float(a[l] > b[l]));
            CHECK(spx_f4_ge(va, vb), mask_float(a[l] >= b[l]));
            CHECK(spx_f4_pick(spx_f4_lt(va, vb), va, vb), a[l] < b[l] ? a[l] : b[l]);
            int m = 0;
            for (int l = 0; l < 4; ++l) m |= (a[l] < b[l]) << l;
            TEST_ENSURE(spx_f4_mask(spx_f4_lt(va, vb)) == m);
            TEST_ENSURE(bits_of(spx_f4_first(va)) == bits_of(a[0]));
            /* Integer lanes on the floats' bits: wrapping add, sign spread. */
            int32_t ia[4], ib[4], ws[4];
            memcpy(ia, a, sizeof ia), memcpy(ib, b, sizeof ib);
            for (int l = 0; l < 4; ++l) ws[l] = (int32_t)((uint32_t)ia[l] + (uint32_t)ib[l]);
            memcpy(w, ws, sizeof w);
            TEST_ENSURE(same_lanes(spx_i4_as_f4(spx_i4_add(spx_f4_as_i4(va), spx_f4_as_i4(vb))), w) == 0);
            for (int l = 0; l < 4; ++l) ws[l] = ia[l] < 0 ? -1 : 0;
            memcpy(w, ws, sizeof w);
            TEST_ENSURE(same_lanes(spx_i4_as_f4(spx_i4_sra31(spx_f4_as_i4(va))), w) == 0);
            for (int l = 0; l < 4; ++l) ws[l] = (ia[l] ^ ib[l]) | (~ia[l] & ib[l]);
            memcpy(w, ws, sizeof w);
            TEST_ENSURE(same_lanes(spx_i4_as_f4(spx_i4_or(spx_i4_xor(spx_f4_as_i4(va), spx_f4_as_i4(vb)),
                                                          spx_i4_andnot(spx_f4_as_i4(va), spx_f4_as_i4(vb)))),
                                   w) == 0);
#undef CHECK
        }
    return 0;
}

static int four_lane_moves(void)
{
    const spx_f4 a = spx_f4_set(1.0f, 2.0f, 3.0f, 4.0f), b = spx_f4_set(5.0f, 6.0f, 7.0f, 8.0f);
    TEST_ENSURE(same_lanes(SPX_F4_SHUFFLE(a, b, 3, 0, 2, 1), (const float[4]){ 4, 1, 7, 6 }) == 0);
    TEST_ENSURE(same_lanes(SPX_F4_SWIZZLE(a, 2, 2, 0, 3), (const float[4]){ 3, 3, 1, 4 }) == 0);
    TEST_ENSURE(same_lanes(SPX_F4_LANE(b, 2), (const float[4]){ 7, 7, 7, 7 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_rot1(a), (const float[4]){ 2, 3, 1, 4 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_rot2(a), (const float[4]){ 3, 1, 2, 4 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_unpacklo(a, b), (const float[4]){ 1, 5, 2, 6 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_unpackhi(a, b), (const float[4]){ 3, 7, 4, 8 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_movelh(a, b), (const float[4]){ 1, 2, 5, 6 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_movehl(a, b), (const float[4]){ 7, 8, 3, 4 }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_splat(-0.0f), (const float[4]){ -0.0f, -0.0f, -0.0f, -0.0f }) == 0);
    TEST_ENSURE(same_lanes(spx_f4_zero(), (const float[4]){ 0, 0, 0, 0 }) == 0);
    TEST_ENSURE(same_lanes(spx_i4_as_f4(spx_i4_splat(0x3f800000)), (const float[4]){ 1, 1, 1, 1 }) == 0);
    TEST_ENSURE(same_lanes(spx_i4_as_f4(spx_i4_set(0x3f800000, 0x40000000, 0, (int32_t)0x80000000u)),
                           (const float[4]){ 1, 2, 0, -0.0f }) == 0);
    spx_f4 r[4];
    for (int i = 0; i < 4; ++i)
        r[i] = spx_f4_set((float)(4 * i), (float)(4 * i + 1), (float)(4 * i + 2), (float)(4 * i + 3));
    spx_f4_transpose(&r[0], &r[1], &r[2], &r[3]);
    for (int i = 0; i < 4; ++i)
        TEST_ENSURE(same_lanes(r[i], (const float[4]){ (float)i, (float)(4 + i), (float)(8 + i), (float)(12 + i) }) ==
                    0);
    /* Aligned stores and loads, and a store that leaves its neighbours alone. */
    float buf[12] __attribute__((aligned(16))) = { 0 };
    spx_f4_store_aligned(buf + 4, a);
    TEST_ENSURE(same_lanes(spx_f4_load_aligned(buf + 4), (const float[4]){ 1, 2, 3, 4 }) == 0);
    spx_f4_store(buf + 1, b);
    TEST_ENSURE(buf[0] == 0.0f && buf[1] == 5.0f && buf[4] == 8.0f && buf[5] == 2.0f);
    return 0;
}

/* SPX_LANES rows of 20 floats (as the solver's bodies) into 20 lane vectors and back. */
static int lane_rows(void)
{
    float store[SPX_LANES][20] __attribute__((aligned(32)));
    const float* in[SPX_LANES];
    for (int l = 0; l < SPX_LANES; ++l) {
        for (int k = 0; k < 20; ++k) store[l][k] = (float)(100 * l + k);
        in[SPX_LANES - 1 - l] = store[l]; /* rows in any order */
    }
    for (int n = 4; n <= 20; n += 4) {
        spx_vf v[20];
        memset(v, 0, sizeof v);
        spx_vf_gather_rows(in, n, v);
        for (int k = 0; k < n; ++k)
            for (int l = 0; l < SPX_LANES; ++l) TEST_ENSURE(v[k][l] == (float)(100 * (SPX_LANES - 1 - l) + k));
        for (int k = 0; k < n; ++k) v[k] = -v[k];
        float* out[SPX_LANES];
        for (int l = 0; l < SPX_LANES; ++l) out[l] = store[l];
        spx_vf_scatter_rows(out, n, v);
        for (int l = 0; l < SPX_LANES; ++l)
            for (int k = 0; k < 20; ++k) {
                const float was = (float)(100 * l + k);
                /* out[l] is store[l]: it took lane l, which was gathered from row SPX_LANES - 1 - l */
                const float want = k < n ? -(float)(100 * (SPX_LANES - 1 - l) + k) : was;
                TEST_ENSURE(store[l][k] == want);
            }
        for (int l = 0; l < SPX_LANES; ++l)
            for (int k = 0; k < 20; ++k) store[l][k] = (float)(100 * l + k);
    }
    spx_f4 parts[(SPX_LANES + 3) / 4];
    for (int p = 0; p < (SPX_LANES + 3) / 4; ++p)
        parts[p] = spx_f4_set((float)(4 * p), (float)(4 * p + 1), (float)(4 * p + 2), (float)(4 * p + 3));
    const spx_vf joined = spx_vf_join(parts);
    for (int l = 0; l < SPX_LANES; ++l) TEST_ENSURE(joined[l] == (float)l);
    return 0;
}

static uint64_t bits_of_double(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* Both lanes of r equal want[l] bit for bit (NaN results: any NaN). */
static int same_doubles(spx_d2 r, const double want[2])
{
    double got[2];
    spx_d2_store(got, r);
    for (int l = 0; l < 2; ++l) {
        const bool both_nan = got[l] != got[l] && want[l] != want[l];
        if (!both_nan && bits_of_double(got[l]) != bits_of_double(want[l])) {
            fprintf(stderr, "lane %d: got %.17g, want %.17g\n", l, got[l], want[l]);
            return 1;
        }
    }
    return 0;
}

/* The two double lanes: conversions from float, arithmetic, SSE's min and max, the comparison mask,
   on the specials and on doubles beyond float's precision and range made from them. */
static int two_double_lanes(void)
{
    for (int i = 0; i < SPECIALS; ++i)
        for (int j = 0; j < SPECIALS; ++j) {
            const float fa[2] = { special(i), special(i + 7) }, fb[2] = { special(j), special(j + 3) };
            TEST_ENSURE(same_doubles(spx_d2_of_floats(fa[0], fa[1]), (const double[2]){ fa[0], fa[1] }) == 0);
            const spx_d2 x = spx_d2_mul(spx_d2_of_floats(fa[0], fa[1]), spx_d2_splat(1.0000001));
            const spx_d2 y = spx_d2_mul(spx_d2_of_floats(fb[0], fb[1]), spx_d2_splat(3.0e40));
            const double xl[2] = { (double)fa[0] * 1.0000001, (double)fa[1] * 1.0000001 };
            const double yl[2] = { (double)fb[0] * 3.0e40, (double)fb[1] * 3.0e40 };
            TEST_ENSURE(same_doubles(x, xl) == 0 && same_doubles(y, yl) == 0);
            double w[2];
            for (int l = 0; l < 2; ++l) w[l] = xl[l] + yl[l];
            TEST_ENSURE(same_doubles(spx_d2_add(x, y), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = xl[l] * yl[l];
            TEST_ENSURE(same_doubles(spx_d2_mul(x, y), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = xl[l] - yl[l];
            TEST_ENSURE(same_doubles(spx_d2_sub(x, y), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = xl[l] / yl[l];
            TEST_ENSURE(same_doubles(spx_d2_div(x, y), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = yl[l] / xl[l];
            TEST_ENSURE(same_doubles(spx_d2_div(y, x), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = fabs(xl[l]);
            TEST_ENSURE(same_doubles(spx_d2_abs(x), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = -xl[l];
            TEST_ENSURE(same_doubles(spx_d2_neg(x), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = copysign(xl[l], yl[l]);
            TEST_ENSURE(same_doubles(spx_d2_copysign(x, y), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = xl[l] < yl[l] ? xl[l] : yl[l];
            TEST_ENSURE(same_doubles(spx_d2_min(x, y), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = xl[l] > yl[l] ? xl[l] : yl[l];
            TEST_ENSURE(same_doubles(spx_d2_max(x, y), w) == 0);
            /* and with the operands the other way, so both NaN orders and both zero orders are met */
            for (int l = 0; l < 2; ++l) w[l] = yl[l] < xl[l] ? yl[l] : xl[l];
            TEST_ENSURE(same_doubles(spx_d2_min(y, x), w) == 0);
            for (int l = 0; l < 2; ++l) w[l] = yl[l] > xl[l] ? yl[l] : xl[l];
            TEST_ENSURE(same_doubles(spx_d2_max(y, x), w) == 0);
            TEST_ENSURE(spx_d2_le_mask(x, y) == ((xl[0] <= yl[0]) | (xl[1] <= yl[1]) << 1));
            TEST_ENSURE(same_doubles(spx_d2_splat(xl[1]), (const double[2]){ xl[1], xl[1] }) == 0);
        }
    /* min and max keep the second operand on NaN and on zeros of either sign */
    const spx_d2 nan_zero = spx_d2_of_floats(NAN, -0.0f), one_zero = spx_d2_of_floats(1.0f, 0.0f);
    double got[2];
    spx_d2_store(got, spx_d2_max(nan_zero, one_zero));
    TEST_ENSURE(got[0] == 1.0 && !signbit(got[1]));
    spx_d2_store(got, spx_d2_min(one_zero, nan_zero));
    TEST_ENSURE(got[0] != got[0] && signbit(got[1]));
    return 0;
}

/* The build has the lanes its options ask for. */
static int build_lanes(void)
{
#if defined(SPX_DISABLE_SIMD)
    TEST_ENSURE(!SPX_HAS_SIMD);
    TEST_ENSURE(SPX_LANES == 1);
#else
#if defined(__SSE2__)
    TEST_ENSURE(SPX_HAS_SIMD);
#endif
#if defined(SPX_AVX2)
    TEST_ENSURE(SPX_LANES == 8);
#else
    TEST_ENSURE(SPX_LANES == 4);
#endif
#endif
    printf("  %s, %d lanes\n", SPX_HAS_SIMD ? "SSE2" : "scalar", SPX_LANES);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(build_lanes, failures);
    TEST_RUN(four_lane_arithmetic, failures);
    TEST_RUN(four_lane_moves, failures);
    TEST_RUN(lane_rows, failures);
    TEST_RUN(two_double_lanes, failures);
    return failures ? 1 : 0;
}
