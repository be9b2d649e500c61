/* Cutting a clipped contact polygon to a manifold's 4 points: the deepest and those spanning the
 * most area, so they hold the piece up where the polygon did. */
#ifndef SPX_MANIFOLD_REDUCE_H
#define SPX_MANIFOLD_REDUCE_H

#include <float.h>
#include <math.h>

/* Twice the signed area of triangle (a, b, c). */
static inline float spx_area2(const float* x, const float* y, int a, int b, int c)
{
    return (x[b] - x[a]) * (y[c] - y[a]) - (y[b] - y[a]) * (x[c] - x[a]);
}

/* Picks 4 of n > 4 points (gap: smaller is deeper): the deepest, the farthest from it, the largest
   triangle with those, and the most area outside it; ties to the lower index; indices written in
   increasing order. Each pick starts eligible, so NaN still gives four distinct indices in range. */
static inline void spx_reduce_to_four(const float* x, const float* y, const float* gap, int n, int keep[4])
{
    int i0 = 0;
    for (int i = 1; i < n; ++i)
        if (gap[i] < gap[i0]) i0 = i;
    int i1 = i0 == 0 ? 1 : 0;
    float best = -1.0f;
    for (int i = 0; i < n; ++i) {
        float dx = x[i] - x[i0], dy = y[i] - y[i0], d2 = dx * dx + dy * dy;
        if (i != i0 && d2 > best) {
            best = d2;
            i1 = i;
        }
    }
    int i2 = 0;
    while (i2 == i0 || i2 == i1) ++i2;
    float a2 = 0.0f;
    best = -1.0f;
    for (int i = 0; i < n; ++i) {
        if (i == i0 || i == i1) continue;
        float a = spx_area2(x, y, i0, i1, i);
        if (fabsf(a) > best) {
            best = fabsf(a);
            a2 = a;
            i2 = i;
        }
    }
    /* Counter-clockwise; a point outside edge (p, q) adds -area2(p, q, x). */
    int t1 = a2 >= 0.0f ? i1 : i2, t2 = a2 >= 0.0f ? i2 : i1;
    int i3 = 0;
    while (i3 == i0 || i3 == i1 || i3 == i2) ++i3;
    best = -FLT_MAX;
    for (int i = 0; i < n; ++i) {
        if (i == i0 || i == i1 || i == i2) continue;
        float g = -spx_area2(x, y, i0, t1, i), g1 = -spx_area2(x, y, t1, t2, i), g2 = -spx_area2(x, y, t2, i0, i);
        g = g1 > g ? g1 : g;
        g = g2 > g ? g2 : g;
        if (g > best) {
            best = g;
            i3 = i;
        }
    }
    int m = 0;
    for (int i = 0; i < n; ++i)
        if (i == i0 || i == i1 || i == i2 || i == i3) keep[m++] = i;
}

#endif
