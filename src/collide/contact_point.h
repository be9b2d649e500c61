/* Where two touching pieces touch, from the features extreme on the contact normal. */
#ifndef SPX_CONTACT_POINT_H
#define SPX_CONTACT_POINT_H

#include "math/dvec3.h"
#include <stdbool.h>

/* 1 vertex, 2 (edge) or up to 4 corners of a convex face, in order. */
typedef struct spx_feature {
    spx_dvec3 p[4];
    int count;
} spx_feature;

/* Contact point of feature a (extreme on +n in A) and b (on -n in B), n unit: a vertex; two edges'
 * closest points (overlap middle when parallel); else the centroid of their overlap along n. Midway
 * between them along n, so inside overlapping pieces. */
spx_dvec3 spx_contact_point(const spx_feature* a, const spx_feature* b, spx_dvec3 n);

/* Closest points of 3D segments (Ericson 5.1.9); false when (nearly) parallel: then one pair of many
 * (from p0's end), and spx_contact_point takes the overlap's middle instead. A segment of zero length
 * is taken as its point (false too). */
static inline bool spx_segments_closest_3d(spx_dvec3 p0, spx_dvec3 p1, spx_dvec3 q0, spx_dvec3 q1, spx_dvec3* cp,
                                           spx_dvec3* cq)
{
    spx_dvec3 d1 = spx_d3_sub(p1, p0), d2 = spx_d3_sub(q1, q0), r = spx_d3_sub(p0, q0);
    double a = spx_d3_dot(d1, d1), e = spx_d3_dot(d2, d2), b = spx_d3_dot(d1, d2);
    double c = spx_d3_dot(d1, r), f = spx_d3_dot(d2, r);
    if (a <= 0.0 || e <= 0.0) { /* a segment of zero length is a point: its closest point on the other */
        double s = a > 0.0 ? -c / a : 0.0, t = a > 0.0 ? 0.0 : (e > 0.0 ? f / e : 0.0);
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        *cp = spx_d3_mad(p0, d1, s);
        *cq = spx_d3_mad(q0, d2, t);
        return false;
    }
    double denom = a * e - b * b;
    bool crossing = denom > 1e-12 * a * e;
    double s = crossing ? (b * f - c * e) / denom : 0.0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    double t = (b * s + f) / e;
    if (t < 0 || t > 1) {
        t = t < 0 ? 0 : 1;
        s = (b * t - c) / a;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
    }
    *cp = spx_d3_mad(p0, d1, s);
    *cq = spx_d3_mad(q0, d2, t);
    return crossing;
}

/* The midpoint of the closest points of two segments that are not parallel; false when they are. */
static inline bool spx_segments_mid_3d(spx_dvec3 p0, spx_dvec3 p1, spx_dvec3 q0, spx_dvec3 q1, spx_dvec3* out)
{
    spx_dvec3 cp, cq;
    if (!spx_segments_closest_3d(p0, p1, q0, q1, &cp, &cq)) return false;
    *out = spx_d3_lerp_mid(cp, cq);
    return true;
}

#endif
