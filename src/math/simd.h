/* The library's one SIMD vocabulary; the only includer of intrinsics headers.
 * spx_f4/spx_i4: four lanes, SSE2 or a scalar struct with the same IEEE bits (SSE semantics: masks
 * all-ones/zero, min/max give the second operand on NaN). spx_vf/spx_vi: SPX_LANES lanes (4; 8 when
 * defined before including, with -mavx2; 1 without SIMD). SPX_HAS_SIMD: spx_f4 is an SSE2 register. */
#ifndef SPX_SIMD_H
#define SPX_SIMD_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(SPX_DISABLE_SIMD) && defined(__SSE2__)
#define SPX_HAS_SIMD 1
#include <immintrin.h>
#else
#define SPX_HAS_SIMD 0
#endif

/* ---- Four lanes ---- */

#if SPX_HAS_SIMD
typedef __m128 spx_f4;
typedef __m128i spx_i4;

static inline spx_f4 spx_f4_load(const float* p) { return _mm_loadu_ps(p); }
static inline spx_f4 spx_f4_load_aligned(const float* p) { return _mm_load_ps(p); } /* p: 16-byte aligned */
static inline void spx_f4_store(float* p, spx_f4 a) { _mm_storeu_ps(p, a); }
static inline void spx_f4_store_aligned(float* p, spx_f4 a) { _mm_store_ps(p, a); }
static inline spx_f4 spx_f4_set(float x, float y, float z, float w) { return _mm_setr_ps(x, y, z, w); }
static inline spx_f4 spx_f4_splat(float x) { return _mm_set1_ps(x); }
static inline spx_f4 spx_f4_zero(void) { return _mm_setzero_ps(); }
static inline float spx_f4_first(spx_f4 a) { return _mm_cvtss_f32(a); }

static inline spx_f4 spx_f4_add(spx_f4 a, spx_f4 b) { return _mm_add_ps(a, b); }
static inline spx_f4 spx_f4_sub(spx_f4 a, spx_f4 b) { return _mm_sub_ps(a, b); }
static inline spx_f4 spx_f4_mul(spx_f4 a, spx_f4 b) { return _mm_mul_ps(a, b); }
static inline spx_f4 spx_f4_div(spx_f4 a, spx_f4 b) { return _mm_div_ps(a, b); }
static inline spx_f4 spx_f4_sqrt(spx_f4 a) { return _mm_sqrt_ps(a); }
static inline spx_f4 spx_f4_min(spx_f4 a, spx_f4 b) { return _mm_min_ps(a, b); }
static inline spx_f4 spx_f4_max(spx_f4 a, spx_f4 b) { return _mm_max_ps(a, b); }

static inline spx_f4 spx_f4_and(spx_f4 a, spx_f4 b) { return _mm_and_ps(a, b); }
static inline spx_f4 spx_f4_or(spx_f4 a, spx_f4 b) { return _mm_or_ps(a, b); }
static inline spx_f4 spx_f4_xor(spx_f4 a, spx_f4 b) { return _mm_xor_ps(a, b); }
static inline spx_f4 spx_f4_andnot(spx_f4 a, spx_f4 b) { return _mm_andnot_ps(a, b); } /* ~a & b */

static inline spx_f4 spx_f4_eq(spx_f4 a, spx_f4 b) { return _mm_cmpeq_ps(a, b); }
static inline spx_f4 spx_f4_lt(spx_f4 a, spx_f4 b) { return _mm_cmplt_ps(a, b); }
static inline spx_f4 spx_f4_le(spx_f4 a, spx_f4 b) { return _mm_cmple_ps(a, b); }
static inline spx_f4 spx_f4_gt(spx_f4 a, spx_f4 b) { return _mm_cmpgt_ps(a, b); }
static inline spx_f4 spx_f4_ge(spx_f4 a, spx_f4 b) { return _mm_cmpge_ps(a, b); }
/* Bit l set when lane l's sign bit is (a comparison's lane is true). */
static inline int spx_f4_mask(spx_f4 a) { return _mm_movemask_ps(a); }

/* (a[x], a[y], b[z], b[w]); the indices must be constants. */
#define SPX_F4_SHUFFLE(a, b, x, y, z, w) _mm_shuffle_ps((a), (b), _MM_SHUFFLE((w), (z), (y), (x)))
/* One source's lanes in any order; without AVX via pshufd, which spares the copy shufps needs. */
#ifdef __AVX__
#define SPX_F4_PERMUTE(a, x, y, z, w) SPX_F4_SHUFFLE(a, a, x, y, z, w)
#else
#define SPX_F4_PERMUTE(a, x, y, z, w) \
    _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(a), _MM_SHUFFLE((w), (z), (y), (x))))
#endif
/* (a0, b0, a1, b1), (a2, b2, a3, b3), (a0, a1, b0, b1), (b2, b3, a2, a3) */
static inline spx_f4 spx_f4_unpacklo(spx_f4 a, spx_f4 b) { return _mm_unpacklo_ps(a, b); }
static inline spx_f4 spx_f4_unpackhi(spx_f4 a, spx_f4 b) { return _mm_unpackhi_ps(a, b); }
static inline spx_f4 spx_f4_movelh(spx_f4 a, spx_f4 b) { return _mm_movelh_ps(a, b); }
static inline spx_f4 spx_f4_movehl(spx_f4 a, spx_f4 b) { return _mm_movehl_ps(a, b); }
/* Rows a..d of a 4x4 matrix turned into its columns. */
static inline void spx_f4_transpose(spx_f4* a, spx_f4* b, spx_f4* c, spx_f4* d) { _MM_TRANSPOSE4_PS(*a, *b, *c, *d); }

static inline spx_f4 spx_i4_as_f4(spx_i4 a) { return _mm_castsi128_ps(a); }
static inline spx_i4 spx_f4_as_i4(spx_f4 a) { return _mm_castps_si128(a); }
static inline spx_i4 spx_i4_set(int32_t x, int32_t y, int32_t z, int32_t w) { return _mm_setr_epi32(x, y, z, w); }
static inline spx_i4 spx_i4_splat(int32_t x) { return _mm_set1_epi32(x); }
static inline spx_i4 spx_i4_add(spx_i4 a, spx_i4 b) { return _mm_add_epi32(a, b); }
static inline spx_i4 spx_i4_and(spx_i4 a, spx_i4 b) { return _mm_and_si128(a, b); }
static inline spx_i4 spx_i4_or(spx_i4 a, spx_i4 b) { return _mm_or_si128(a, b); }
static inline spx_i4 spx_i4_xor(spx_i4 a, spx_i4 b) { return _mm_xor_si128(a, b); }
static inline spx_i4 spx_i4_andnot(spx_i4 a, spx_i4 b) { return _mm_andnot_si128(a, b); } /* ~a & b */
static inline spx_i4 spx_i4_sra31(spx_i4 a) { return _mm_srai_epi32(a, 31); }             /* each lane's sign, spread */
#else
typedef struct spx_f4 {
    float f[4];
} spx_f4;
typedef struct spx_i4 {
    int32_t i[4];
} spx_i4;

#define SPX_F4_MAP(expr)                                 \
    do {                                                 \
        for (int l_ = 0; l_ < 4; ++l_) r.f[l_] = (expr); \
    } while (0)
#define SPX_I4_MAP(expr)                                 \
    do {                                                 \
        for (int l_ = 0; l_ < 4; ++l_) r.i[l_] = (expr); \
    } while (0)

static inline spx_f4 spx_i4_as_f4(spx_i4 a)
{
    spx_f4 r;
    memcpy(&r, &a, sizeof r);
    return r;
}
static inline spx_i4 spx_f4_as_i4(spx_f4 a)
{
    spx_i4 r;
    memcpy(&r, &a, sizeof r);
    return r;
}
static inline spx_f4 spx_f4_set(float x, float y, float z, float w)
{
    spx_f4 r = { { x, y, z, w } };
    return r;
}
static inline spx_f4 spx_f4_splat(float x) { return spx_f4_set(x, x, x, x); }
static inline spx_f4 spx_f4_zero(void) { return spx_f4_splat(0.0f); }
static inline spx_f4 spx_f4_load(const float* p) { return spx_f4_set(p[0], p[1], p[2], p[3]); }
static inline spx_f4 spx_f4_load_aligned(const float* p) { return spx_f4_load(p); }
static inline void spx_f4_store(float* p, spx_f4 a) { memcpy(p, a.f, sizeof a.f); }
static inline void spx_f4_store_aligned(float* p, spx_f4 a) { spx_f4_store(p, a); }
static inline float spx_f4_first(spx_f4 a) { return a.f[0]; }

static inline spx_f4 spx_f4_add(spx_f4 a, spx_f4 b)
{
    spx_f4 r;
    SPX_F4_MAP(a.f[l_] + b.f[l_]);
    return r;
}
static inline spx_f4 spx_f4_sub(spx_f4 a, spx_f4 b)
{
    spx_f4 r;
    SPX_F4_MAP(a.f[l_] - b.f[l_]);
    return r;
}
static inline spx_f4 spx_f4_mul(spx_f4 a, spx_f4 b)
{
    spx_f4 r;
    SPX_F4_MAP(a.f[l_] * b.f[l_]);
    return r;
}
static inline spx_f4 spx_f4_div(spx_f4 a, spx_f4 b)
{
    spx_f4 r;
    SPX_F4_MAP(a.f[l_] / b.f[l_]);
    return r;
}
static inline spx_f4 spx_f4_sqrt(spx_f4 a)
{
    spx_f4 r;
    SPX_F4_MAP(__builtin_sqrtf(a.f[l_]));
    return r;
}
static inline spx_f4 spx_f4_min(spx_f4 a, spx_f4 b)
{
    spx_f4 r;
    SPX_F4_MAP(a.f[l_] < b.f[l_] ? a.f[l_] : b.f[l_]);
    return r;
}
static inline spx_f4 spx_f4_max(spx_f4 a, spx_f4 b)
{
    spx_f4 r;
    SPX_F4_MAP(a.f[l_] > b.f[l_] ? a.f[l_] : b.f[l_]);
    return r;
}

static inline spx_i4 spx_i4_set(int32_t x, int32_t y, int32_t z, int32_t w)
{
    spx_i4 r = { { x, y, z, w } };
    return r;
}
static inline spx_i4 spx_i4_splat(int32_t x) { return spx_i4_set(x, x, x, x); }
/* Lane-wise integer addition wraps, as paddd does. */
static inline spx_i4 spx_i4_add(spx_i4 a, spx_i4 b)
{
    spx_i4 r;
    SPX_I4_MAP((int32_t)((uint32_t)a.i[l_] + (uint32_t)b.i[l_]));
    return r;
}
static inline spx_i4 spx_i4_and(spx_i4 a, spx_i4 b)
{
    spx_i4 r;
    SPX_I4_MAP(a.i[l_] & b.i[l_]);
    return r;
}
static inline spx_i4 spx_i4_or(spx_i4 a, spx_i4 b)
{
    spx_i4 r;
    SPX_I4_MAP(a.i[l_] | b.i[l_]);
    return r;
}
static inline spx_i4 spx_i4_xor(spx_i4 a, spx_i4 b)
{
    spx_i4 r;
    SPX_I4_MAP(a.i[l_] ^ b.i[l_]);
    return r;
}
static inline spx_i4 spx_i4_andnot(spx_i4 a, spx_i4 b)
{
    spx_i4 r;
    SPX_I4_MAP(~a.i[l_] & b.i[l_]);
    return r;
}
static inline spx_i4 spx_i4_sra31(spx_i4 a)
{
    spx_i4 r;
    SPX_I4_MAP(a.i[l_] < 0 ? -1 : 0);
    return r;
}

static inline spx_f4 spx_f4_and(spx_f4 a, spx_f4 b)
{
    return spx_i4_as_f4(spx_i4_and(spx_f4_as_i4(a), spx_f4_as_i4(b)));
}
static inline spx_f4 spx_f4_or(spx_f4 a, spx_f4 b) { return spx_i4_as_f4(spx_i4_or(spx_f4_as_i4(a), spx_f4_as_i4(b))); }
static inline spx_f4 spx_f4_xor(spx_f4 a, spx_f4 b)
{
    return spx_i4_as_f4(spx_i4_xor(spx_f4_as_i4(a), spx_f4_as_i4(b)));
}
static inline spx_f4 spx_f4_andnot(spx_f4 a, spx_f4 b)
{
    return spx_i4_as_f4(spx_i4_andnot(spx_f4_as_i4(a), spx_f4_as_i4(b)));
}

#define SPX_F4_COMPARE(name, op)                           \
    static inline spx_f4 spx_f4_##name(spx_f4 a, spx_f4 b) \
    {                                                      \
        spx_i4 r;                                          \
        SPX_I4_MAP(a.f[l_] op b.f[l_] ? -1 : 0);           \
        return spx_i4_as_f4(r);                            \
    }
SPX_F4_COMPARE(eq, ==)
SPX_F4_COMPARE(lt, <)
SPX_F4_COMPARE(le, <=)
SPX_F4_COMPARE(gt, >)
SPX_F4_COMPARE(ge, >=)
#undef SPX_F4_COMPARE
static inline int spx_f4_mask(spx_f4 a)
{
    const spx_i4 b = spx_f4_as_i4(a);
    int m = 0;
    for (int l = 0; l < 4; ++l) m |= (b.i[l] < 0) << l;
    return m;
}

static inline spx_f4 spx_f4_shuffle_(spx_f4 a, spx_f4 b, int x, int y, int z, int w)
{
    return spx_f4_set(a.f[x], a.f[y], b.f[z], b.f[w]);
}
#define SPX_F4_SHUFFLE(a, b, x, y, z, w) spx_f4_shuffle_((a), (b), (x), (y), (z), (w))
#define SPX_F4_PERMUTE(a, x, y, z, w) spx_f4_shuffle_((a), (a), (x), (y), (z), (w))
static inline spx_f4 spx_f4_unpacklo(spx_f4 a, spx_f4 b) { return spx_f4_set(a.f[0], b.f[0], a.f[1], b.f[1]); }
static inline spx_f4 spx_f4_unpackhi(spx_f4 a, spx_f4 b) { return spx_f4_set(a.f[2], b.f[2], a.f[3], b.f[3]); }
static inline spx_f4 spx_f4_movelh(spx_f4 a, spx_f4 b) { return spx_f4_set(a.f[0], a.f[1], b.f[0], b.f[1]); }
static inline spx_f4 spx_f4_movehl(spx_f4 a, spx_f4 b) { return spx_f4_set(b.f[2], b.f[3], a.f[2], a.f[3]); }
static inline void spx_f4_transpose(spx_f4* a, spx_f4* b, spx_f4* c, spx_f4* d)
{
    spx_f4* m[4] = { a, b, c, d };
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
            const float t = m[i]->f[j];
            m[i]->f[j] = m[j]->f[i];
            m[j]->f[i] = t;
        }
}
#undef SPX_F4_MAP
#undef SPX_I4_MAP
#endif

/* Built from the above, the same in both. */
#define SPX_F4_SWIZZLE(a, x, y, z, w) SPX_F4_SHUFFLE(a, a, x, y, z, w)
#define SPX_F4_LANE(a, k) SPX_F4_SHUFFLE(a, a, k, k, k, k) /* lane k in every lane */
static inline spx_f4 spx_f4_abs(spx_f4 a) { return spx_f4_andnot(spx_f4_splat(-0.0f), a); }
static inline spx_f4 spx_f4_neg(spx_f4 a) { return spx_f4_xor(spx_f4_splat(-0.0f), a); }
/* Lanes where m is set take a, the others b. */
static inline spx_f4 spx_f4_pick(spx_f4 m, spx_f4 a, spx_f4 b)
{
    return spx_f4_or(spx_f4_and(m, a), spx_f4_andnot(m, b));
}
/* (a1, a2, a0, a3) and (a2, a0, a1, a3): lane j takes lane j + 1 or j + 2 (mod 3). */
static inline spx_f4 spx_f4_rot1(spx_f4 a) { return SPX_F4_SWIZZLE(a, 1, 2, 0, 3); }
static inline spx_f4 spx_f4_rot2(spx_f4 a) { return SPX_F4_SWIZZLE(a, 2, 0, 1, 3); }

/* ---- Two double lanes ----
   spx_d2: SSE2 or a scalar struct, the same bits (min/max as SSE). */

#if SPX_HAS_SIMD
typedef __m128d spx_d2;

/* ((double)a, (double)b): the conversion is exact. */
static inline spx_d2 spx_d2_of_floats(float a, float b) { return _mm_cvtps_pd(_mm_setr_ps(a, b, 0.0f, 0.0f)); }
static inline spx_d2 spx_d2_splat(double x) { return _mm_set1_pd(x); }
static inline spx_d2 spx_d2_add(spx_d2 a, spx_d2 b) { return _mm_add_pd(a, b); }
static inline spx_d2 spx_d2_sub(spx_d2 a, spx_d2 b) { return _mm_sub_pd(a, b); }
static inline spx_d2 spx_d2_mul(spx_d2 a, spx_d2 b) { return _mm_mul_pd(a, b); }
static inline spx_d2 spx_d2_div(spx_d2 a, spx_d2 b) { return _mm_div_pd(a, b); }
static inline spx_d2 spx_d2_abs(spx_d2 a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
static inline spx_d2 spx_d2_neg(spx_d2 a) { return _mm_xor_pd(_mm_set1_pd(-0.0), a); }
/* copysign lane by lane: a's magnitude with b's sign bit. */
static inline spx_d2 spx_d2_copysign(spx_d2 a, spx_d2 b)
{
    const __m128d sign = _mm_set1_pd(-0.0);
    return _mm_or_pd(_mm_andnot_pd(sign, a), _mm_and_pd(sign, b));
}
static inline spx_d2 spx_d2_min(spx_d2 a, spx_d2 b) { return _mm_min_pd(a, b); }
static inline spx_d2 spx_d2_max(spx_d2 a, spx_d2 b) { return _mm_max_pd(a, b); }
/* Bit l set when a[l] <= b[l]. */
static inline int spx_d2_le_mask(spx_d2 a, spx_d2 b) { return _mm_movemask_pd(_mm_cmple_pd(a, b)); }
static inline void spx_d2_store(double* p, spx_d2 a) { _mm_storeu_pd(p, a); }
#else
typedef struct spx_d2 {
    double d[2];
} spx_d2;

static inline spx_d2 spx_d2_of_floats(float a, float b)
{
    spx_d2 r = { { a, b } };
    return r;
}
static inline spx_d2 spx_d2_splat(double x)
{
    spx_d2 r = { { x, x } };
    return r;
}
static inline spx_d2 spx_d2_add(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { a.d[0] + b.d[0], a.d[1] + b.d[1] } };
    return r;
}
static inline spx_d2 spx_d2_mul(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { a.d[0] * b.d[0], a.d[1] * b.d[1] } };
    return r;
}
static inline spx_d2 spx_d2_sub(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { a.d[0] - b.d[0], a.d[1] - b.d[1] } };
    return r;
}
static inline spx_d2 spx_d2_div(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { a.d[0] / b.d[0], a.d[1] / b.d[1] } };
    return r;
}
static inline spx_d2 spx_d2_abs(spx_d2 a)
{
    spx_d2 r = { { fabs(a.d[0]), fabs(a.d[1]) } };
    return r;
}
static inline spx_d2 spx_d2_neg(spx_d2 a)
{
    spx_d2 r = { { -a.d[0], -a.d[1] } };
    return r;
}
static inline spx_d2 spx_d2_copysign(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { copysign(a.d[0], b.d[0]), copysign(a.d[1], b.d[1]) } };
    return r;
}
static inline spx_d2 spx_d2_min(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { a.d[0] < b.d[0] ? a.d[0] : b.d[0], a.d[1] < b.d[1] ? a.d[1] : b.d[1] } };
    return r;
}
static inline spx_d2 spx_d2_max(spx_d2 a, spx_d2 b)
{
    spx_d2 r = { { a.d[0] > b.d[0] ? a.d[0] : b.d[0], a.d[1] > b.d[1] ? a.d[1] : b.d[1] } };
    return r;
}
static inline int spx_d2_le_mask(spx_d2 a, spx_d2 b) { return (a.d[0] <= b.d[0]) | (a.d[1] <= b.d[1]) << 1; }
static inline void spx_d2_store(double* p, spx_d2 a) { memcpy(p, a.d, sizeof a.d); }
#endif

/* ---- SPX_LANES lanes ---- */

#if defined(SPX_DISABLE_SIMD)
#if defined(SPX_LANES)
#error "SEPAX_DISABLE_SIMD builds one lane; no file may choose SPX_LANES"
#endif
#define SPX_LANES 1
#elif !defined(SPX_LANES) && defined(SPX_AVX2)
#define SPX_LANES 8
#elif !defined(SPX_LANES)
#define SPX_LANES 4
#endif

typedef float spx_vf __attribute__((vector_size(SPX_LANES * 4)));
typedef int spx_vi __attribute__((vector_size(SPX_LANES * 4)));

/* Unaligned load: the host's arrays need no particular alignment. */
static inline spx_vf spx_vf_load(const float* p)
{
    spx_vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline spx_vf spx_vf_splat(float x)
{
    spx_vf v;
    for (int i = 0; i < SPX_LANES; ++i) v[i] = x;
    return v;
}

static inline spx_vi spx_vi_splat(int x)
{
    spx_vi v;
    for (int i = 0; i < SPX_LANES; ++i) v[i] = x;
    return v;
}

static inline spx_vf spx_vf_abs(spx_vf x) { return (spx_vf)((spx_vi)x & ~(spx_vi)spx_vf_splat(-0.0f)); }

/* Lane-wise m ? a : b for a comparison mask m (all ones or all zeros per lane). */
static inline spx_vf spx_vf_pick(spx_vi m, spx_vf a, spx_vf b) { return (spx_vf)((m & (spx_vi)a) | (~m & (spx_vi)b)); }
static inline spx_vi spx_vi_pick(spx_vi m, spx_vi a, spx_vi b) { return (m & a) | (~m & b); }
/* max and min: one instruction where the target has it (NaN handling as maxps: the second operand). */
#if SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
static inline spx_vf spx_vf_max(spx_vf a, spx_vf b) { return __builtin_ia32_maxps256(a, b); }
static inline spx_vf spx_vf_min(spx_vf a, spx_vf b) { return __builtin_ia32_minps256(a, b); }
#elif SPX_HAS_SIMD && SPX_LANES == 4 && !defined(__clang__)
static inline spx_vf spx_vf_max(spx_vf a, spx_vf b) { return __builtin_ia32_maxps(a, b); }
static inline spx_vf spx_vf_min(spx_vf a, spx_vf b) { return __builtin_ia32_minps(a, b); }
#else
static inline spx_vf spx_vf_max(spx_vf a, spx_vf b) { return spx_vf_pick(a > b, a, b); }
static inline spx_vf spx_vf_min(spx_vf a, spx_vf b) { return spx_vf_pick(a < b, a, b); }
#endif

/* Square root, lane by lane (IEEE, as sqrtf). */
#if SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
static inline spx_vf spx_vf_sqrt(spx_vf x) { return __builtin_ia32_sqrtps256(x); }
#elif SPX_HAS_SIMD && SPX_LANES == 4 && !defined(__clang__)
static inline spx_vf spx_vf_sqrt(spx_vf x) { return __builtin_ia32_sqrtps(x); }
#else
static inline spx_vf spx_vf_sqrt(spx_vf x)
{
    for (int i = 0; i < SPX_LANES; ++i) x[i] = __builtin_sqrtf(x[i]);
    return x;
}
#endif

/* Bit l set when lane l of the comparison mask m is set: one instruction where the target has it. */
#if SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
static inline int spx_vi_mask(spx_vi m) { return __builtin_ia32_movmskps256((spx_vf)m); }
#elif SPX_HAS_SIMD && SPX_LANES == 4 && !defined(__clang__)
static inline int spx_vi_mask(spx_vi m) { return __builtin_ia32_movmskps((spx_vf)m); }
#else
static inline int spx_vi_mask(spx_vi m)
{
    int bits = 0;
    for (int l = 0; l < SPX_LANES; ++l) bits |= (m[l] != 0) << l;
    return bits;
}
#endif

/* Lanes where x is NaN or infinite: x * 0 is 0 only for finite x. */
static inline spx_vi spx_vf_not_finite(spx_vf x) { return x * spx_vf_splat(0.0f) != spx_vf_splat(0.0f); }

/* SPX_LANES / 4 four-lane vectors side by side as one (lanes 0..3 from part[0], 4..7 from part[1]). */
static inline spx_vf spx_vf_join(const spx_f4* part)
{
#if SPX_HAS_SIMD && SPX_LANES == 4
    return (spx_vf)part[0];
#elif SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
    return (spx_vf)_mm256_insertf128_ps(_mm256_castps128_ps256(part[0]), part[1], 1);
#else
    spx_vf v;
    for (int l = 0; l < SPX_LANES; ++l) {
        float f[4];
        spx_f4_store(f, part[l / 4]);
        v[l] = f[l % 4];
    }
    return v;
#endif
}

#if SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
/* r[k] = row k of an 8x8 matrix, transposed in place: 24 shuffles. */
static inline __attribute__((always_inline)) void spx_vf_transpose8_(__m256 r[8])
{
    __m256 t[8], u[8];
    for (int k = 0; k < 8; k += 2)
        t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]), t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44), u[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
        u[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44), u[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
    }
    for (int k = 0; k < 4; ++k)
        r[k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20), r[k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
}
#endif

/* out[k] lane l = row[l][k], k < n: rows 16-byte aligned, n a multiple of 4; by transposes. */
static inline __attribute__((always_inline)) void spx_vf_gather_rows(const float* const* row, int n, spx_vf* out)
{
#if SPX_HAS_SIMD && SPX_LANES == 4
    for (int r = 0; r < n / 4; ++r) {
        spx_f4 a = spx_f4_load_aligned(row[0] + 4 * r), b = spx_f4_load_aligned(row[1] + 4 * r);
        spx_f4 c = spx_f4_load_aligned(row[2] + 4 * r), d = spx_f4_load_aligned(row[3] + 4 * r);
        spx_f4_transpose(&a, &b, &c, &d);
        out[4 * r] = (spx_vf)a, out[4 * r + 1] = (spx_vf)b, out[4 * r + 2] = (spx_vf)c, out[4 * r + 3] = (spx_vf)d;
    }
#elif SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
    for (int g = 0; g < n / 8; ++g) {
        __m256 r[8];
        for (int l = 0; l < 8; ++l) r[l] = _mm256_loadu_ps(row[l] + 8 * g);
        spx_vf_transpose8_(r);
        for (int k = 0; k < 8; ++k) out[8 * g + k] = (spx_vf)r[k];
    }
    for (int q = 2 * (n / 8); q < n / 4; ++q) {
        spx_f4 lo[4], hi[4];
        for (int l = 0; l < 4; ++l)
            lo[l] = spx_f4_load_aligned(row[l] + 4 * q), hi[l] = spx_f4_load_aligned(row[l + 4] + 4 * q);
        spx_f4_transpose(&lo[0], &lo[1], &lo[2], &lo[3]);
        spx_f4_transpose(&hi[0], &hi[1], &hi[2], &hi[3]);
        for (int k = 0; k < 4; ++k)
            out[4 * q + k] = (spx_vf)_mm256_insertf128_ps(_mm256_castps128_ps256(lo[k]), hi[k], 1);
    }
#else
    for (int l = 0; l < SPX_LANES; ++l)
        for (int k = 0; k < n; ++k) out[k][l] = row[l][k];
#endif
}

/* row[l][k] = in[k] lane l for k < n, the inverse of spx_vf_gather_rows; rows that repeat get
   lane order's last write. */
static inline void spx_vf_scatter_rows(float* const* row, int n, const spx_vf* in)
{
#if SPX_HAS_SIMD && SPX_LANES == 4
    for (int r = 0; r < n / 4; ++r) {
        spx_f4 a = (spx_f4)in[4 * r], b = (spx_f4)in[4 * r + 1], c = (spx_f4)in[4 * r + 2], d = (spx_f4)in[4 * r + 3];
        spx_f4_transpose(&a, &b, &c, &d);
        spx_f4_store_aligned(row[0] + 4 * r, a), spx_f4_store_aligned(row[1] + 4 * r, b);
        spx_f4_store_aligned(row[2] + 4 * r, c), spx_f4_store_aligned(row[3] + 4 * r, d);
    }
#elif SPX_HAS_SIMD && SPX_LANES == 8 && defined(__AVX__)
    for (int g = 0; g < n / 8; ++g) {
        __m256 r[8];
        memcpy(r, in + 8 * g, sizeof r);
        spx_vf_transpose8_(r);
        for (int l = 0; l < 8; ++l) _mm256_storeu_ps(row[l] + 8 * g, r[l]);
    }
    for (int l = 0; l < 8; ++l)
        for (int k = 8 * (n / 8); k < n; ++k) row[l][k] = in[k][l];
#else
    for (int l = 0; l < SPX_LANES; ++l)
        for (int k = 0; k < n; ++k) row[l][k] = in[k][l];
#endif
}

#endif
