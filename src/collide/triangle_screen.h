/* Box-triangle and triangle-triangle sweeps: misses proved in float before the double test.
 *
 * Each screened axis is one the double test surely uses (a box face; a triangle's normal when the
 * triangle is surely not segment-like; an edge product surely above the parallel threshold), worked
 * out in float from the float inputs: A's interval, B's at t = 0 and B's shift over [0, tmax]. The
 * pair is apart when B lies beyond A by more than the bound on one side at both ends of the interval:
 * the double test's gaps then surely say the same, so it stops on that axis (or an earlier one) with
 * a miss. Every other pair goes to the double test, so the answers are its own.
 *
 * The bound: every float value here is a short chain (at most about 25 roundings) of sums of
 * products of the float inputs, so its error is below 25 * 2^-24 * 3 times the sum of the
 * magnitudes it is made of: T (the largest 1-norm of a corner's offset, plus the shift's, the
 * box's half extents and the margin) times the axis's size A (1 for a box face, |e|_1 for an edge
 * axis, |e|_1 |f|_1 for a cross product). SPX_TRI_SCREEN_BOUND (2^-14) is above twenty times that.
 * Axes whose T * A leaves [1e-25, 1e30] are not screened: below, float's subnormals lose the
 * relative error; above, a product may overflow. NaN never reads as apart. */
#ifndef SPX_TRIANGLE_SCREEN_H
#define SPX_TRIANGLE_SCREEN_H

#include <sepax/collide.h>
#include <math.h>
#include <stdbool.h>

#define SPX_TRI_SCREEN_BOUND (1.0f / 16384.0f)
/* Edge products count where |l|^2 > this times |e|^2 |f|^2 (the double test's threshold is 1e-12);
   normals where |n|^2 > this times the longest edge's |e|^4 (its threshold is 1e-12 too). */
#define SPX_TRI_SCREEN_USABLE 1e-4f

typedef struct spx_tri_screen_vec {
    float x, y, z;
} spx_tri_screen_vec;

static inline spx_tri_screen_vec spx_ts_sub(spx_vec3 a, spx_vec3 b)
{
    spx_tri_screen_vec r = { a.x - b.x, a.y - b.y, a.z - b.z };
    return r;
}

static inline float spx_ts_dot(spx_tri_screen_vec a, spx_tri_screen_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static inline float spx_ts_norm1(spx_tri_screen_vec a) { return fabsf(a.x) + fabsf(a.y) + fabsf(a.z); }

static inline spx_tri_screen_vec spx_ts_cross(spx_tri_screen_vec a, spx_tri_screen_vec b)
{
    spx_tri_screen_vec r = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
    return r;
}

/* Is B, over [lo, hi] at t = 0 and shifted by w at tmax, beyond A's [alo, ahi] by more than e on
   one side at both ends? sc = T * A must lie where float's relative error holds. */
static inline bool spx_ts_apart(float alo, float ahi, float lo, float hi, float w, float sc)
{
    if (!(sc > 1e-25f && sc < 1e30f)) return false;
    const float e = sc * SPX_TRI_SCREEN_BOUND;
    return (lo - ahi > e && lo + w - ahi > e) || (alo - hi > e && alo - hi - w > e);
}

/* Triangle corners p[] projected on l: lo and hi. */
static inline void spx_ts_project(const spx_tri_screen_vec p[3], spx_tri_screen_vec l, float* lo, float* hi)
{
    const float a = spx_ts_dot(p[0], l), b = spx_ts_dot(p[1], l), c = spx_ts_dot(p[2], l);
    *lo = fminf(a, fminf(b, c));
    *hi = fmaxf(a, fmaxf(b, c));
}

/* The triangle's normal e[0] x (p[2] - p[0]) as the double test takes it, and whether the triangle is
   surely not segment-like there (spx_tri_shape_finish). */
static inline bool spx_ts_normal(const spx_tri_screen_vec e[3], spx_tri_screen_vec* n)
{
    const spx_tri_screen_vec back = { -e[2].x, -e[2].y, -e[2].z };
    *n = spx_ts_cross(e[0], back);
    const float l0 = spx_ts_dot(e[0], e[0]), l1 = spx_ts_dot(e[1], e[1]), l2 = spx_ts_dot(e[2], e[2]);
    const float best = fmaxf(l0, fmaxf(l1, l2));
    return spx_ts_dot(*n, *n) > SPX_TRI_SCREEN_USABLE * best * best;
}

/* True when box A moving at va and triangle B at vb surely do not touch over [0, tmax]: the double
   test (sweep_obb_triangle.c) then answers a miss. The axes in its order of cost: the box's faces,
   the triangle's normal, the nine edge products. */
static inline bool spx_box_tri_screen_apart(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                            float tmax)
{
    spx_tri_screen_vec ax[3], p[3], e[3];
    for (int i = 0; i < 3; ++i)
        ax[i] = (spx_tri_screen_vec){ a->rotation.col[i].x, a->rotation.col[i].y, a->rotation.col[i].z };
    const spx_tri_screen_vec mw = { (vb.x - va.x) * tmax, (vb.y - va.y) * tmax, (vb.z - va.z) * tmax };
    float T = spx_ts_norm1(mw) + a->half_extents.x + a->half_extents.y + a->half_extents.z;
    for (int k = 0; k < 3; ++k) {
        /* corners from the box's centre and edges from the corners, then in the box's frame */
        const spx_tri_screen_vec d = spx_ts_sub(b->v[k], a->center), f = spx_ts_sub(b->v[k == 2 ? 0 : k + 1], b->v[k]);
        T = fmaxf(T, spx_ts_norm1(d) + spx_ts_norm1(mw) + a->half_extents.x + a->half_extents.y + a->half_extents.z);
        p[k] = (spx_tri_screen_vec){ spx_ts_dot(ax[0], d), spx_ts_dot(ax[1], d), spx_ts_dot(ax[2], d) };
        e[k] = (spx_tri_screen_vec){ spx_ts_dot(ax[0], f), spx_ts_dot(ax[1], f), spx_ts_dot(ax[2], f) };
    }
    const spx_tri_screen_vec m = { spx_ts_dot(ax[0], mw), spx_ts_dot(ax[1], mw), spx_ts_dot(ax[2], mw) };
    const float h[3] = { a->half_extents.x, a->half_extents.y, a->half_extents.z };
    for (int i = 0; i < 3; ++i) {
        const float c0 = (&p[0].x)[i], c1 = (&p[1].x)[i], c2 = (&p[2].x)[i];
        const float lo = fminf(c0, fminf(c1, c2)), hi = fmaxf(c0, fmaxf(c1, c2));
        if (spx_ts_apart(-h[i], h[i], lo, hi, (&m.x)[i], T)) return true;
    }
    spx_tri_screen_vec n;
    if (spx_ts_normal(e, &n)) {
        const float r = h[0] * fabsf(n.x) + h[1] * fabsf(n.y) + h[2] * fabsf(n.z);
        float lo, hi;
        spx_ts_project(p, n, &lo, &hi);
        if (spx_ts_apart(-r, r, lo, hi, spx_ts_dot(m, n), T * spx_ts_norm1(e[0]) * spx_ts_norm1(e[2]))) return true;
    }
    for (int j = 0; j < 3; ++j) {
        const spx_tri_screen_vec f = e[j];
        const float f2 = spx_ts_dot(f, f), size = spx_ts_norm1(f);
        for (int i = 0; i < 3; ++i) { /* box axis i x edge j (box_tri_edge_axis) */
            const spx_tri_screen_vec l = i == 0   ? (spx_tri_screen_vec){ 0, -f.z, f.y }
                                         : i == 1 ? (spx_tri_screen_vec){ f.z, 0, -f.x }
                                                  : (spx_tri_screen_vec){ -f.y, f.x, 0 };
            if (!(spx_ts_dot(l, l) > SPX_TRI_SCREEN_USABLE * f2)) continue;
            const float r = h[0] * fabsf(l.x) + h[1] * fabsf(l.y) + h[2] * fabsf(l.z);
            float lo, hi;
            spx_ts_project(p, l, &lo, &hi);
            if (spx_ts_apart(-r, r, lo, hi, spx_ts_dot(m, l), T * size)) return true;
        }
    }
    return false;
}

/* True when triangles A (grown by margin >= 0) moving at va and B at vb surely do not touch over
   [0, tmax]: the double test (sweep_triangle_triangle.c) then answers a miss. The normals first,
   then the nine edge products. A's growth is taken as margin |l|_1, at least the test's margin |l|. */
static inline bool spx_tri_tri_screen_apart(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                            float tmax, float margin)
{
    spx_tri_screen_vec pa[3], pb[3], ea[3], eb[3];
    const spx_vec3 o = a->v[0];
    const spx_tri_screen_vec m = { (vb.x - va.x) * tmax, (vb.y - va.y) * tmax, (vb.z - va.z) * tmax };
    float T = 0.0f;
    for (int k = 0; k < 3; ++k) {
        const int next = k == 2 ? 0 : k + 1;
        pa[k] = spx_ts_sub(a->v[k], o);
        pb[k] = spx_ts_sub(b->v[k], o);
        ea[k] = spx_ts_sub(a->v[next], a->v[k]);
        eb[k] = spx_ts_sub(b->v[next], b->v[k]);
        T = fmaxf(T, fmaxf(spx_ts_norm1(pa[k]), spx_ts_norm1(pb[k])));
    }
    T += spx_ts_norm1(m) + margin;
    spx_tri_screen_vec n;
    for (int side = 0; side < 2; ++side) {
        const spx_tri_screen_vec* e = side ? eb : ea;
        if (!spx_ts_normal(e, &n)) continue;
        float alo, ahi, lo, hi;
        spx_ts_project(pa, n, &alo, &ahi);
        spx_ts_project(pb, n, &lo, &hi);
        const float r = margin * spx_ts_norm1(n);
        if (spx_ts_apart(alo - r, ahi + r, lo, hi, spx_ts_dot(m, n), T * spx_ts_norm1(e[0]) * spx_ts_norm1(e[2])))
            return true;
    }
    for (int i = 0; i < 3; ++i) {
        const float a2 = spx_ts_dot(ea[i], ea[i]), sa = spx_ts_norm1(ea[i]);
        for (int j = 0; j < 3; ++j) {
            const spx_tri_screen_vec l = spx_ts_cross(ea[i], eb[j]);
            if (!(spx_ts_dot(l, l) > SPX_TRI_SCREEN_USABLE * a2 * spx_ts_dot(eb[j], eb[j]))) continue;
            float alo, ahi, lo, hi;
            spx_ts_project(pa, l, &alo, &ahi);
            spx_ts_project(pb, l, &lo, &hi);
            const float r = margin * spx_ts_norm1(l);
            if (spx_ts_apart(alo - r, ahi + r, lo, hi, spx_ts_dot(m, l), T * sa * spx_ts_norm1(eb[j]))) return true;
        }
    }
    return false;
}

#endif
