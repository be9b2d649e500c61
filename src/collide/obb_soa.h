/* Boxes as structure of arrays: one box out, or SIMD lanes of box pairs in. */
#ifndef SPX_OBB_SOA_H
#define SPX_OBB_SOA_H

#include <sepax/collide.h>
#include "math/simd.h"
#include <math.h>

/* Box `index` out of the arrays (no validation). */
static inline void spx_obb_soa_get(const spx_obb_soa* soa, size_t index, spx_obb* box)
{
    float* c = &box->center.x;
    float* h = &box->half_extents.x;
    for (int k = 0; k < 3; ++k) {
        c[k] = soa->center[k][index];
        h[k] = soa->half_extents[k][index];
        float* axis = &box->rotation.col[k].x;
        for (int m = 0; m < 3; ++m) axis[m] = soa->axis[k][m][index];
    }
}

/* Boxes i..count-1 into one lane group (`store`, viewed as `tail`), spare lanes repeating the last box, so the last
   pairs get the same arithmetic and checks and no answer depends on where a pair sits. */
static inline void spx_obb_soa_tail(const spx_obb_soa* soa, size_t i, size_t count, float store[15][SPX_LANES],
                                    spx_obb_soa* tail)
{
    for (size_t l = 0; l < SPX_LANES; ++l) {
        const size_t at = i + l < count ? i + l : count - 1;
        for (int k = 0; k < 3; ++k) {
            store[k][l] = soa->center[k][at];
            store[3 + k][l] = soa->half_extents[k][at];
            for (int m = 0; m < 3; ++m) store[6 + 3 * k + m][l] = soa->axis[k][m][at];
        }
    }
    for (int k = 0; k < 3; ++k) {
        tail->center[k] = store[k];
        tail->half_extents[k] = store[3 + k];
        for (int m = 0; m < 3; ++m) tail->axis[k][m] = store[6 + 3 * k + m];
    }
    tail->capacity = SPX_LANES;
}

/* The single-pair checks that values written after spx_obb_soa_set_box can fail, in order: NOT_FINITE, OUT_OF_RANGE
   (centre or half extent), NOT_ORTHONORMAL (an axis component past 1 + SPX_ROTATION_TOLERANCE). Within them no lane
   product overflows, so the batched calls scan only when a lane's sums show a fault. */
static inline spx_result spx_obb_soa_check_stored(const spx_obb_soa* a, const spx_obb_soa* b, size_t count)
{
    const float limit = SPX_MAX_COORDINATE;
    bool not_finite = false, out_of_range = false, not_unit = false;
    const spx_obb_soa* soa[2] = { a, b };
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 3; ++k) {
            const float *c = soa[s]->center[k], *h = soa[s]->half_extents[k];
            for (size_t i = 0; i < count; ++i) {
                not_finite |= (c[i] - c[i]) + (h[i] - h[i]) != 0.0f;
                out_of_range |= !(fabsf(c[i]) <= limit) | !(fabsf(h[i]) <= limit);
            }
            for (int m = 0; m < 3; ++m) {
                const float* x = soa[s]->axis[k][m];
                for (size_t i = 0; i < count; ++i) {
                    not_finite |= x[i] - x[i] != 0.0f;
                    not_unit |= !(fabsf(x[i]) <= 1.0f + SPX_ROTATION_TOLERANCE);
                }
            }
        }
    return not_finite     ? SPX_ERR_NOT_FINITE
           : out_of_range ? SPX_ERR_OUT_OF_RANGE
           : not_unit     ? SPX_ERR_NOT_ORTHONORMAL
                          : SPX_OK;
}

/* A batched sweep's velocities and interval, as spx_check_motion checks one pair's. */
static inline spx_result spx_check_velocities(const spx_vec3* velocity_a, const spx_vec3* velocity_b, size_t count,
                                              float tmax)
{
    const float limit = SPX_MAX_COORDINATE, t = fabsf(tmax);
    bool not_finite = !isfinite(tmax), out_of_range = false;
    const spx_vec3* v[2] = { velocity_a, velocity_b };
    for (int s = 0; s < 2; ++s)
        for (size_t i = 0; i < count; ++i) {
            const spx_vec3 w = v[s][i];
            not_finite |= (w.x - w.x) + (w.y - w.y) + (w.z - w.z) != 0.0f;
            /* an overflowing product is infinite, and out of range as it should be */
            out_of_range |= !(fabsf(w.x) * t <= limit) | !(fabsf(w.y) * t <= limit) | !(fabsf(w.z) * t <= limit);
        }
    return not_finite     ? SPX_ERR_NOT_FINITE
           : out_of_range ? SPX_ERR_OUT_OF_RANGE
           : tmax < 0.0f  ? SPX_ERR_BAD_TIME
                          : SPX_OK;
}

/* SPX_LANES pairs (a[i + l], b[i + l]) seen from A. */
typedef struct spx_box_lanes {
    spx_vf a[3][3]; /* a[k][m]: component m of A's axis k */
    spx_vf r[3][3]; /* r[k][m] = a_k . b_m */
    spx_vf t[3];    /* in A's frame */
    spx_vf ha[3], hb[3];
    spx_vf sum; /* of everything above: NaN or infinite when a stored value is not finite or very large */
} spx_box_lanes;

static inline void spx_box_lanes_load(const spx_obb_soa* a, const spx_obb_soa* b, size_t i, spx_box_lanes* p)
{
    spx_vf B[3][3], d[3];
    for (int k = 0; k < 3; ++k) {
        for (int m = 0; m < 3; ++m) {
            p->a[k][m] = spx_vf_load(a->axis[k][m] + i);
            B[k][m] = spx_vf_load(b->axis[k][m] + i);
        }
        p->ha[k] = spx_vf_load(a->half_extents[k] + i);
        p->hb[k] = spx_vf_load(b->half_extents[k] + i);
        d[k] = spx_vf_load(b->center[k] + i) - spx_vf_load(a->center[k] + i);
    }
    p->sum = spx_vf_splat(0.0f);
    for (int k = 0; k < 3; ++k) {
        for (int m = 0; m < 3; ++m) {
            p->r[k][m] = p->a[k][0] * B[m][0] + p->a[k][1] * B[m][1] + p->a[k][2] * B[m][2];
            p->sum += p->r[k][m];
        }
        p->t[k] = p->a[k][0] * d[0] + p->a[k][1] * d[1] + p->a[k][2] * d[2];
        p->sum += p->t[k] + p->ha[k] + p->hb[k];
    }
    /* Values far beyond the range (where float products overflow) are faults too: the sum turns NaN and the caller
       scans. In-range boxes give offsets below 3.5 * SPX_MAX_COORDINATE. */
    spx_vf big = spx_vf_splat(0.0f);
    for (int k = 0; k < 3; ++k)
        big = spx_vf_max(big, spx_vf_max(spx_vf_abs(p->t[k]), spx_vf_max(spx_vf_abs(p->ha[k]), spx_vf_abs(p->hb[k]))));
    p->sum = spx_vf_pick(big > spx_vf_splat(4.0f * SPX_MAX_COORDINATE), spx_vf_splat(NAN), p->sum);
}

#endif
