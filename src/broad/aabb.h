/* Axis-aligned boxes of the broad phase. */
#ifndef SPX_BROAD_AABB_H
#define SPX_BROAD_AABB_H

#include <stdbool.h>

/* min <= max on every axis. */
typedef struct spx_aabb {
    float min[3];
    float max[3];
} spx_aabb;

/* Touching counts: contact has zero thickness, so face-sharing boxes may still meet. */
static inline bool spx_aabb_overlap(const spx_aabb* a, const spx_aabb* b)
{
    return a->min[0] <= b->max[0] && b->min[0] <= a->max[0] && a->min[1] <= b->max[1] && b->min[1] <= a->max[1] &&
           a->min[2] <= b->max[2] && b->min[2] <= a->max[2];
}

static inline bool spx_aabb_contains(const spx_aabb* outer, const spx_aabb* inner)
{
    return outer->min[0] <= inner->min[0] && outer->min[1] <= inner->min[1] && outer->min[2] <= inner->min[2] &&
           inner->max[0] <= outer->max[0] && inner->max[1] <= outer->max[1] && inner->max[2] <= outer->max[2];
}

static inline spx_aabb spx_aabb_union(const spx_aabb* a, const spx_aabb* b)
{
    spx_aabb u;
    for (int i = 0; i < 3; ++i) {
        u.min[i] = a->min[i] < b->min[i] ? a->min[i] : b->min[i];
        u.max[i] = a->max[i] > b->max[i] ? a->max[i] : b->max[i];
    }
    return u;
}

/* Halved before subtracting: near FLT_MAX infinity at worst, never NaN. */
static inline float spx_aabb_largest_half(const spx_aabb* b)
{
    float e = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float ek = 0.5f * b->max[k] - 0.5f * b->min[k];
        e = ek > e ? ek : e;
    }
    return e;
}

/* The tree's insertion cost; float is enough as it only orders choices. */
static inline float spx_aabb_half_area(const spx_aabb* a)
{
    float dx = a->max[0] - a->min[0], dy = a->max[1] - a->min[1], dz = a->max[2] - a->min[2];
    return dx * dy + dy * dz + dz * dx;
}

#endif
