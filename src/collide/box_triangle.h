/* A box and a triangle prepared for the 13 SAT axes (normal, 3 box faces, 9 edge products) in the
 * box's frame, shared by the sweeps and the manifold so they agree on every axis. A segment-like
 * triangle has no normal; the other 12 cover it (the Minkowski sum has no other facets). */
#ifndef SPX_BOX_TRIANGLE_H
#define SPX_BOX_TRIANGLE_H

#include "sat_axes.h"
#include "triangle_shape.h"

typedef struct box_tri {
    spx_dvec3 axes[3]; /* the box's axes in world space */
    double h[3];
    spx_tri_shape t; /* triangle in the box's frame, relative to its centre */
    spx_dvec3 u;     /* triangle's velocity relative to the box, in the box's frame */
} box_tri;

static inline void box_tri_make(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb, box_tri* p)
{
    for (int i = 0; i < 3; ++i) p->axes[i] = spx_d3_from(a->rotation.col[i]);
    p->h[0] = a->half_extents.x;
    p->h[1] = a->half_extents.y;
    p->h[2] = a->half_extents.z;
    spx_tri_shape_make(b, spx_d3_from(a->center), p->axes, &p->t);
    spx_dvec3 w = spx_d3_sub(spx_d3_from(vb), spx_d3_from(va));
    p->u = spx_d3(spx_d3_dot(p->axes[0], w), spx_d3_dot(p->axes[1], w), spx_d3_dot(p->axes[2], w));
}

/* Gaps on l at t = 0: *gap_pos = b_lo - a_hi (> 0: beyond along +l), *gap_neg = a_lo - b_hi. */
static inline void box_tri_gaps(const box_tri* p, spx_dvec3 l, double* gap_pos, double* gap_neg)
{
    double r = p->h[0] * fabs(l.x) + p->h[1] * fabs(l.y) + p->h[2] * fabs(l.z);
    double lo, hi;
    spx_tri_project(&p->t, l, &lo, &hi);
    *gap_pos = lo - r;
    *gap_neg = -r - hi;
}

/* Box axis i x triangle edge j, in the box's frame. */
static inline spx_dvec3 box_tri_edge_axis(const box_tri* p, int i, int j)
{
    spx_dvec3 f = p->t.e[j];
    return i == 0 ? spx_d3(0, -f.z, f.y) : (i == 1 ? spx_d3(f.z, 0, -f.x) : spx_d3(-f.y, f.x, 0));
}

/* Unnormalised direction of axis `index`, in the box's frame. */
static inline spx_dvec3 box_tri_axis_dir(const void* pair, int index)
{
    const box_tri* p = pair;
    if (index == 0) return p->t.n;
    if (index < 4) return spx_d3(index == 1, index == 2, index == 3);
    return box_tri_edge_axis(p, (index - 4) / 3, (index - 4) % 3);
}

/* Axis `index` and |axis|^2; false for a segment-like triangle's normal or a (nearly) parallel edge
   product, which the face axes cover. */
static inline bool box_tri_axis_usable(const box_tri* p, int index, spx_dvec3* l, double* len2)
{
    if (index == 0) {
        if (p->t.segment) return false;
        *l = p->t.n;
        *len2 = spx_d3_len2(*l);
        return true;
    }
    if (index < 4) {
        *l = spx_d3(index == 1, index == 2, index == 3);
        *len2 = 1.0;
        return true;
    }
    const int j = (index - 4) % 3;
    *l = box_tri_edge_axis(p, (index - 4) / 3, j);
    *len2 = spx_d3_len2(*l);
    double f2 = p->t.e2[j];
    return f2 != 0.0 && spx_edge_axis_usable(*len2, 1.0, f2);
}

#endif
