/* Boxes as structure of arrays: one box out, or SIMD lanes of box pairs in. */
#ifndef SPX_OBB_SOA_H
#define SPX_OBB_SOA_H

#include <sepax/collide.h>
#include "math/simd.h"

/* Copies box `index` out of a structure of arrays (no validation). */
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

/* SPX_LANES pairs (a[i + l], b[i + l]) seen from A: R = A^T B, B's offset in A's frame. */
typedef struct spx_box_lanes {
    spx_vf a[3][3];    /* a[k][m]: component m of A's axis k */
    spx_vf r[3][3];    /* r[k][m] = a_k . b_m */
    spx_vf t[3];       /* B's centre minus A's, in A's frame */
    spx_vf ha[3], hb[3];
    spx_vf sum;        /* of everything above: NaN or infinite when any input is not finite */
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
}

#endif
