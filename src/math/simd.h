/* Lane-parallel float arithmetic for the batched queries, one pair of pieces per lane.
 * GCC vector extensions: 4 lanes on the SSE2 baseline, 8 when built with -DSEPAX_AVX2=ON. A file
 * may define SPX_LANES itself before including this (solver_avx2.c: 8 lanes, built with -mavx2). */
#ifndef SPX_SIMD_H
#define SPX_SIMD_H

#include <string.h>

#if !defined(SPX_LANES) && defined(SPX_AVX2)
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
#if SPX_LANES == 8 && defined(__AVX__)
static inline spx_vf spx_vf_max(spx_vf a, spx_vf b) { return __builtin_ia32_maxps256(a, b); }
static inline spx_vf spx_vf_min(spx_vf a, spx_vf b) { return __builtin_ia32_minps256(a, b); }
#elif SPX_LANES == 4 && defined(__SSE__) && !defined(__clang__)
static inline spx_vf spx_vf_max(spx_vf a, spx_vf b) { return __builtin_ia32_maxps(a, b); }
static inline spx_vf spx_vf_min(spx_vf a, spx_vf b) { return __builtin_ia32_minps(a, b); }
#else
static inline spx_vf spx_vf_max(spx_vf a, spx_vf b) { return spx_vf_pick(a > b, a, b); }
static inline spx_vf spx_vf_min(spx_vf a, spx_vf b) { return spx_vf_pick(a < b, a, b); }
#endif

/* Square root, lane by lane (IEEE, as sqrtf). */
#if SPX_LANES == 8 && defined(__AVX__)
static inline spx_vf spx_vf_sqrt(spx_vf x) { return __builtin_ia32_sqrtps256(x); }
#elif SPX_LANES == 4 && defined(__SSE__) && !defined(__clang__)
static inline spx_vf spx_vf_sqrt(spx_vf x) { return __builtin_ia32_sqrtps(x); }
#else
static inline spx_vf spx_vf_sqrt(spx_vf x)
{
    for (int i = 0; i < SPX_LANES; ++i) x[i] = __builtin_sqrtf(x[i]);
    return x;
}
#endif

/* Lanes where x is NaN or infinite: x * 0 is 0 only for finite x. */
static inline spx_vi spx_vf_not_finite(spx_vf x) { return x * spx_vf_splat(0.0f) != spx_vf_splat(0.0f); }

#endif
