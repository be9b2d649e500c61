/* A triangle prepared for the separating-axis tests: corners relative to an origin, in double. */
#ifndef SPX_TRIANGLE_SHAPE_H
#define SPX_TRIANGLE_SHAPE_H

#include "contact_point.h"
#include "geometry/validate.h"
#include <sepax/collide.h>

typedef struct spx_tri_shape {
    spx_dvec3 p[3]; /* corners */
    spx_dvec3 e[3]; /* e[j] = p[(j+1)%3] - p[j] */
    spx_dvec3 n;    /* e[0] x (p[2] - p[0]); meaningful only when !segment */
    double e2[3];   /* |e[j]|^2, computed once for the axis loops */
    double n2;      /* |n|^2 */
    double longest; /* longest edge length */
    int long_edge;  /* its index */
    bool segment;   /* corners on one line (within SPX_TRIANGLE_FLAT_RATIO) */
} spx_tri_shape;

/* Edges, normal and flatness from t->e[] (p[] already set). */
static inline void spx_tri_shape_finish(spx_tri_shape* t)
{
    double best = -1;
    for (int j = 0; j < 3; ++j) {
        double l2 = t->e2[j] = spx_d3_len2(t->e[j]);
        if (l2 > best) {
            best = l2;
            t->long_edge = j;
        }
    }
    t->longest = sqrt(best);
    t->n = spx_d3_cross(t->e[0], spx_d3_neg(t->e[2])); /* e[0] x (p[2] - p[0]) */
    /* |n| is twice the area: flat when tiny against the longest edge squared. */
    t->n2 = spx_d3_len2(t->n);
    t->segment = !(t->n2 > SPX_TRIANGLE_FLAT_RATIO * SPX_TRIANGLE_FLAT_RATIO * best * best);
}

/* Corners relative to `origin`, optionally in frame x[3]. Edges come from the corners themselves, not
 * their offsets to `origin`, so a small far triangle keeps its shape, the same whatever the other piece. */
static inline void spx_tri_shape_make(const spx_triangle* tri, spx_dvec3 origin, const spx_dvec3* frame,
                                      spx_tri_shape* t)
{
    for (int k = 0; k < 3; ++k) {
        spx_dvec3 d = spx_d3_sub(spx_d3_from(tri->v[k]), origin);
        spx_dvec3 e = spx_d3_sub(spx_d3_from(tri->v[(k + 1) % 3]), spx_d3_from(tri->v[k]));
        t->p[k] = frame ? spx_d3(spx_d3_dot(frame[0], d), spx_d3_dot(frame[1], d), spx_d3_dot(frame[2], d)) : d;
        t->e[k] = frame ? spx_d3(spx_d3_dot(frame[0], e), spx_d3_dot(frame[1], e), spx_d3_dot(frame[2], e)) : e;
    }
    spx_tri_shape_finish(t);
}

/* fmaxf without its library call: the other operand when one is NaN. */
static inline float spx_pair_fmax(float x, float y) { return x > y || y != y ? x : y; }

/* The pair's coordinate origin: A's or B's first corner, the one nearer the world origin (largest
 * |coordinate|; ties to the first in (x, y, z)). Offsets round at the origin's scale, so the choice
 * must not depend on which piece is A, or a touch within rounding reads differently swapped. */
static inline spx_dvec3 spx_pair_origin(spx_vec3 a, spx_vec3 b)
{
    const float ma = spx_pair_fmax(fabsf(a.x), spx_pair_fmax(fabsf(a.y), fabsf(a.z)));
    const float mb = spx_pair_fmax(fabsf(b.x), spx_pair_fmax(fabsf(b.y), fabsf(b.z)));
    if (ma != mb) return spx_d3_from(mb < ma ? b : a);
    const bool a_first = a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z <= b.z);
    return spx_d3_from(a_first ? a : b);
}

/* Projection interval of the triangle on l. */
static inline void spx_tri_project(const spx_tri_shape* t, spx_dvec3 l, double* lo, double* hi)
{
    double a = spx_d3_dot(t->p[0], l), b = spx_d3_dot(t->p[1], l), c = spx_d3_dot(t->p[2], l);
    *lo = spx_dmin(a, spx_dmin(b, c));
    *hi = spx_dmax(a, spx_dmax(b, c));
}

/* Corners extreme along d (bit k: corner k) within spx_tri_feature's tie tolerance; 7: the face. */
static inline unsigned spx_tri_extreme_corners(const spx_tri_shape* t, spx_dvec3 d)
{
    double pr[3], top = -INFINITY;
    for (int k = 0; k < 3; ++k) {
        pr[k] = spx_d3_dot(t->p[k], d);
        top = spx_dmax(top, pr[k]);
    }
    unsigned near = 0;
    for (int k = 0; k < 3; ++k)
        if (top - pr[k] <= 1e-6 * t->longest) near |= 1u << k;
    return near;
}

/* The feature extreme along unit s, moved by `shift`: corners within 1e-6 of the longest edge of the
 * top one (SPX_FEATURE_FLAT_SINE's angle). Depends on s and the corners only, never on the axis that
 * gave s (tied axes may name a far edge); a segment-like triangle's face is its long edge. */
static inline spx_feature_kind spx_tri_feature(const spx_tri_shape* t, spx_dvec3 s, spx_dvec3 shift, spx_feature* out)
{
    int idx[3], n = 0;
    double d[3], m = -INFINITY;
    for (int k = 0; k < 3; ++k) {
        d[k] = spx_d3_dot(t->p[k], s);
        m = spx_dmax(m, d[k]);
    }
    double tol = 1e-6 * t->longest;
    for (int k = 0; k < 3; ++k)
        if (m - d[k] <= tol) idx[n++] = k;
    if (n == 3 && t->segment) {
        idx[0] = t->long_edge;
        idx[1] = (t->long_edge + 1) % 3;
        n = 2;
    }
    for (int k = 0; k < n; ++k) out->p[k] = spx_d3_add(t->p[idx[k]], shift);
    out->count = n;
    return n == 1 ? SPX_FEATURE_VERTEX : (n == 2 ? SPX_FEATURE_EDGE : SPX_FEATURE_FACE);
}

#endif
