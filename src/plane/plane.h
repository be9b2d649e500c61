/* The plane queries' working form: both pieces in double, so that a corner difference is exact and
 * a product of two is too. Every step treats A and B and a polygon's corners alike, so swapping the
 * pieces or turning a polygon's list round gives the same numbers. */
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

/* A sweep's motion: each piece's velocity over [0, tmax]. */
typedef struct spx_plane_motion {
    spx_vec2 velocity_a, velocity_b;
    float tmax;
} spx_plane_motion;

/* The first fault of a query's pieces and, for a sweep, its motion (NULL at rest), in the order of
 * base.h: stage by stage, A, then B, then the motion (finite, then travel in range), and a negative
 * tmax last; with none, both pieces in working form. */
spx_result spx_plane_prepare(const spx_piece2d* a, const spx_piece2d* b, const spx_plane_motion* motion,
                             spx_plane_piece* pa, spx_plane_piece* pb);

/* The size of the problem, for relative tolerances: the largest extent of either piece. */
double spx_plane_scale(const spx_plane_piece* a, const spx_plane_piece* b);

/* Of two candidate normals (from a to b, not unit) that tie, whether `n` comes before `m`: the one
 * that points more from a's bounds to b's; then by a key that a normal and its opposite share; a
 * normal and its opposite by which piece comes first in an order of the pieces themselves. So the
 * choice is the same, negated, with the pieces swapped, and the same whatever corner a polygon's
 * list starts from. Two equal pieces, a problem that swapping leaves as it is, take the key's way. */
bool spx_plane_normal_first(spx_dvec2 n, spx_dvec2 m, const spx_plane_piece* a, const spx_plane_piece* b);

/* Penetration of two pieces in working form (normal unit, from A to B). */
void spx_plane_penetration(const spx_plane_piece* a, const spx_plane_piece* b, spx_penetration2d* out, spx_dvec2* point,
                           spx_dvec2* normal, double* depth);

/* The point midway along unit `normal` between A's and B's features extreme along it (A's along
 * +normal, B's along -normal), over the stretch where the features face each other. */
spx_dvec2 spx_plane_contact_point(const spx_plane_piece* a, const spx_plane_piece* b, spx_dvec2 normal, double tol);

#endif
