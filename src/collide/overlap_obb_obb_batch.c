/* Many box pairs at once: the 15-axis static test on structure-of-arrays data, one pair per SIMD lane (4 on SSE2, 8
 * with SEPAX_AVX2), no early exit: branches would cost more than the arithmetic. See
 * docs/collision.md#batched-box-box-queries. */
#include <sepax/collide.h>
#include "overlap_obb_obb.h"
#include "obb_soa.h"
#include <string.h>

#if SPX_LANES % 4 == 0
/* Four lanes' result bytes from the apart mask: byte l is 1 when bit l is 0. */
static const uint8_t overlap_bytes[16][4] = {
    { 1, 1, 1, 1 }, { 0, 1, 1, 1 }, { 1, 0, 1, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 }, { 0, 1, 0, 1 },
    { 1, 0, 0, 1 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 }, { 0, 1, 1, 0 }, { 1, 0, 1, 0 }, { 0, 0, 1, 0 },
    { 1, 1, 0, 0 }, { 0, 1, 0, 0 }, { 1, 0, 0, 0 }, { 0, 0, 0, 0 },
};
#endif

/* Above this, the magnitude sum of test_lanes shows a non-finite or out-of-range stored value: checked boxes stay
   below about 24 * SPX_MAX_COORDINATE + 27. */
#define LANES_SIZE_LIMIT (32.0f * SPX_MAX_COORDINATE)

/* Writes 1 or 0 for SPX_LANES pairs from i; returns the lanes with non-finite or far out-of-range stored values. R
   and t are spx_box_lanes_load's sums; B's axes load one at a time. */
static inline __attribute__((always_inline)) spx_vi test_lanes(const spx_obb_soa* a, const spx_obb_soa* b, size_t i,
                                                               uint8_t* out)
{
    spx_vf A[3][3], R[3][3], AR[3][3], t[3], d[3], ha[3], hb[3];
    for (int k = 0; k < 3; ++k) {
        for (int m = 0; m < 3; ++m) A[k][m] = spx_vf_load(a->axis[k][m] + i);
        d[k] = spx_vf_load(b->center[k] + i) - spx_vf_load(a->center[k] + i);
    }
    for (int k = 0; k < 3; ++k) t[k] = A[k][0] * d[0] + A[k][1] * d[1] + A[k][2] * d[2];
    for (int m = 0; m < 3; ++m) {
        const spx_vf b0 = spx_vf_load(b->axis[m][0] + i), b1 = spx_vf_load(b->axis[m][1] + i),
                     b2 = spx_vf_load(b->axis[m][2] + i);
        for (int k = 0; k < 3; ++k) R[k][m] = A[k][0] * b0 + A[k][1] * b1 + A[k][2] * b2;
    }
    const spx_vf eps = spx_vf_splat(SPX_OVERLAP_R_EPSILON);
    for (int k = 0; k < 3; ++k) {
        ha[k] = spx_vf_load(a->half_extents[k] + i);
        hb[k] = spx_vf_load(b->half_extents[k] + i);
        for (int m = 0; m < 3; ++m) AR[k][m] = spx_vf_abs(R[k][m]) + eps;
    }
    spx_vi apart = (spx_vi)spx_vf_splat(0.0f);
    for (int k = 0; k < 3; ++k) {
        apart |= spx_vf_abs(t[k]) > ha[k] + hb[0] * AR[k][0] + hb[1] * AR[k][1] + hb[2] * AR[k][2];
        apart |= spx_vf_abs(t[0] * R[0][k] + t[1] * R[1][k] + t[2] * R[2][k]) >
                 hb[k] + ha[0] * AR[0][k] + ha[1] * AR[1][k] + ha[2] * AR[2][k];
    }
    for (int k = 0; k < 3; ++k) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (int m = 0; m < 3; ++m) {
            int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
            spx_vf ra = ha[k1] * AR[k2][m] + ha[k2] * AR[k1][m];
            spx_vf rb = hb[m1] * AR[k][m2] + hb[m2] * AR[k][m1];
            apart |= spx_vf_abs(t[k2] * R[k1][m] - t[k1] * R[k2][m]) > ra + rb;
        }
    }
    const int bits = spx_vi_mask(apart);
#if SPX_LANES % 4 == 0
    for (int q = 0; q < SPX_LANES / 4; ++q) memcpy(out + 4 * q, overlap_bytes[bits >> 4 * q & 15], 4);
#else
    for (int l = 0; l < SPX_LANES; ++l) out[l] = (uint8_t)(~bits >> l & 1);
#endif
    /* Every stored value reaches this sum of non-negative magnitudes: NaN or infinity makes it non-finite, and
       nothing cancels a value far out of range. */
    spx_vf size = spx_vf_abs(t[0]) + spx_vf_abs(t[1]) + spx_vf_abs(t[2]);
    for (int k = 0; k < 3; ++k) size += spx_vf_abs(ha[k]) + spx_vf_abs(hb[k]) + AR[k][0] + AR[k][1] + AR[k][2];
    return ~(size <= spx_vf_splat(LANES_SIZE_LIMIT));
}

SPX_API spx_result spx_overlap_obb_obb_batch(const spx_obb_soa* a, const spx_obb_soa* b, size_t count,
                                             uint8_t* out_overlap)
{
    if (!a || !b || !out_overlap || count > a->capacity || count > b->capacity) return SPX_ERR_INVALID_ARGUMENT;
    spx_vi bad = (spx_vi)spx_vf_splat(0.0f);
    size_t i = 0;
    for (; i + SPX_LANES <= count; i += SPX_LANES) bad |= test_lanes(a, b, i, out_overlap + i);
    if (i < count) {
        /* The last pairs as one more group, spare lanes repeating the last pair: same arithmetic and checks. */
        float store[2][15][SPX_LANES];
        spx_obb_soa tail[2];
        spx_obb_soa_tail(a, i, count, store[0], &tail[0]);
        spx_obb_soa_tail(b, i, count, store[1], &tail[1]);
        uint8_t out[SPX_LANES];
        bad |= test_lanes(&tail[0], &tail[1], 0, out);
        memcpy(out_overlap + i, out, count - i);
    }
    if (!spx_vi_mask(bad)) return SPX_OK;
    const spx_result stored = spx_obb_soa_check_stored(a, b, count);
    return stored != SPX_OK ? stored : SPX_ERR_NOT_FINITE;
}
