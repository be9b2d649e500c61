/* The 2D queries' working form, in double so corner differences and their products are exact.
 * A and B, and every corner, are treated alike: swaps and reorders give the same numbers. */
#ifndef SPX_PLANE_H
#define SPX_PLANE_H

#include <sepax/sat2d.h>
#include "math/dvec2.h"

typedef struct spx_plane_piece {
    bool round;     /* a circle: `center`, `radius` */
    uint32_t count; /* polygon corners, counter-clockwise */
    spx_dvec2 v[SPX_POLYGON_MAX_CORNERS];
    spx_dvec2 center;
    double radius;
    spx_dvec2 middle; /* centre of the bounds */
} spx_plane_piece;

/* Validation in the order of base.h; `stage` 0: arguments, 1: finite, 2: range, 3: shape. */
spx_result spx_piece2d_check(const spx_piece2d* piece, int stage);

typedef struct spx_plane_motion {
    spx_vec2 velocity_a, velocity_b;
    float tmax;
} spx_plane_motion;

/* The first fault in base.h's order (stage by stage: A, B, motion; negative tmax last), else both
 * pieces in working form. motion NULL at rest. */
spx_result spx_plane_prepare(const spx_piece2d* a, const spx_piece2d* b, const spx_plane_motion* motion,
                             spx_plane_piece* pa, spx_plane_piece* pb);

/* Largest extent of either piece, for relative tolerances. */
double spx_plane_scale(const spx_plane_piece* a, const spx_plane_piece* b);

/* Tie-break of two normals (a to b, not unit) that swaps and corner reorders cannot change.
 * See docs/2d.md#rounding-and-the-same-problem-asked-another-way. */
bool spx_plane_normal_first(spx_dvec2 n, spx_dvec2 m, const spx_plane_piece* a, const spx_plane_piece* b);

/* Normal unit, from A to B. */
void spx_plane_penetration(const spx_plane_piece* a, const spx_plane_piece* b, spx_penetration2d* out, spx_dvec2* point,
                           spx_dvec2* normal, double* depth);

/* Midway between A's feature extreme along +normal and B's along -normal, where they face. */
spx_dvec2 spx_plane_contact_point(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2 normal, double tol);

#endif
