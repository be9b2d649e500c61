/* Where two touching pieces touch, from the features extreme on the contact normal. */
#ifndef SPX_CONTACT_POINT_H
#define SPX_CONTACT_POINT_H

#include "math/dvec3.h"

/* A feature: 1 vertex, 2 (edge) or up to 4 corners of a convex face, in order around it. */
typedef struct spx_feature {
    spx_dvec3 p[4];
    int count;
} spx_feature;

/* Contact point of feature a (extreme on +n in A) and feature b (extreme on -n in B); n unit.
 * Vertex against anything: the vertex. Edge against edge: the closest points of the two edges
 * (the middle of their overlap when parallel). Otherwise the centroid of the overlap of the two
 * features seen along n. Along n the point sits midway between the two features, so for
 * overlapping pieces it lies inside the overlap. */
spx_dvec3 spx_contact_point(const spx_feature* a, const spx_feature* b, spx_dvec3 n);

#endif
