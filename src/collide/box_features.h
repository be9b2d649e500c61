/* The feature of a box that is extreme along a direction, for the contact point finder. */
#ifndef SPX_BOX_FEATURES_H
#define SPX_BOX_FEATURES_H

#include "contact_point.h"
#include <sepax/collide.h>

/* A box axis within this sine of perpendicular to the normal lies in the contact plane: an edge or
 * face touches along it. */
#define SPX_FEATURE_FLAT_SINE 1e-6

/* The feature of a box (centre c, unit axes x, half extents h) extreme along unit s; axes set in
 * `force_flat` count as flat (the axis that gave the normal says so). Face corners in order. */
static inline spx_feature_kind spx_box_feature(spx_dvec3 c, const spx_dvec3 x[3], const double h[3], spx_dvec3 s,
                                               unsigned force_flat, spx_feature* out)
{
    int flat[2], nflat = 0;
    double d[3];
    unsigned is_flat = 0;
    for (int k = 0; k < 3; ++k) {
        d[k] = spx_d3_dot(x[k], s);
        if (((force_flat >> k) & 1u) && nflat < 2) {
            flat[nflat++] = k;
            is_flat |= 1u << k;
        }
    }
    for (int k = 0; k < 3 && nflat < 2; ++k)
        if (!((is_flat >> k) & 1u) && fabs(d[k]) < SPX_FEATURE_FLAT_SINE) {
            flat[nflat++] = k;
            is_flat |= 1u << k;
        }
    spx_dvec3 base = c;
    for (int k = 0; k < 3; ++k)
        if (!((is_flat >> k) & 1u)) base = spx_d3_mad(base, x[k], d[k] > 0 ? h[k] : -h[k]);
    if (nflat == 0) {
        out->p[0] = base;
        out->count = 1;
        return SPX_FEATURE_VERTEX;
    }
    spx_dvec3 e0 = spx_d3_scale(x[flat[0]], h[flat[0]]);
    if (nflat == 1) {
        out->p[0] = spx_d3_add(base, e0);
        out->p[1] = spx_d3_sub(base, e0);
        out->count = 2;
        return SPX_FEATURE_EDGE;
    }
    spx_dvec3 e1 = spx_d3_scale(x[flat[1]], h[flat[1]]);
    out->p[0] = spx_d3_add(spx_d3_add(base, e0), e1);
    out->p[1] = spx_d3_add(spx_d3_sub(base, e0), e1);
    out->p[2] = spx_d3_sub(spx_d3_sub(base, e0), e1);
    out->p[3] = spx_d3_sub(spx_d3_add(base, e0), e1);
    out->count = 4;
    return SPX_FEATURE_FACE;
}

#endif
