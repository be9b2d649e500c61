/* Double 2-vectors: products of floats are exact, so edge turns keep their sign. */
#ifndef SPX_DVEC2_H
#define SPX_DVEC2_H

#include <math.h>

typedef struct spx_dvec2 {
    double x, y;
} spx_dvec2;

static inline spx_dvec2 spx_d2(double x, double y)
{
    spx_dvec2 r = { x, y };
    return r;
}
static inline spx_dvec2 spx_d2_add(spx_dvec2 a, spx_dvec2 b) { return spx_d2(a.x + b.x, a.y + b.y); }
static inline spx_dvec2 spx_d2_sub(spx_dvec2 a, spx_dvec2 b) { return spx_d2(a.x - b.x, a.y - b.y); }
static inline spx_dvec2 spx_d2_scale(spx_dvec2 a, double s) { return spx_d2(a.x * s, a.y * s); }
static inline spx_dvec2 spx_d2_mad(spx_dvec2 a, spx_dvec2 b, double s) { return spx_d2(a.x + b.x * s, a.y + b.y * s); }
static inline spx_dvec2 spx_d2_neg(spx_dvec2 a) { return spx_d2(-a.x, -a.y); }
static inline double spx_d2_dot(spx_dvec2 a, spx_dvec2 b) { return a.x * b.x + a.y * b.y; }
/* z of the 3D cross product: > 0 when b turns left of a. */
static inline double spx_d2_cross(spx_dvec2 a, spx_dvec2 b) { return a.x * b.y - a.y * b.x; }
static inline double spx_d2_len(spx_dvec2 a) { return sqrt(spx_d2_dot(a, a)); }
/* The outward normal of an edge of a counter-clockwise boundary (not unit). */
static inline spx_dvec2 spx_d2_right(spx_dvec2 e) { return spx_d2(e.y, -e.x); }

#endif
