/* The static box-box test on validated boxes (the checked call and the world share it). */
#ifndef SPX_OVERLAP_OBB_OBB_H
#define SPX_OVERLAP_OBB_OBB_H

#include <sepax/collide.h>
#include <math.h>

/* Added to every |R_ij|: absorbs R's rounding (a few 1e-7) so parallel edges' axes read as overlapping. */
#define SPX_OVERLAP_R_EPSILON 1e-6f

/* The family of axes that first separates two boxes, in the order they are tested. */
typedef enum spx_obb_axes {
    SPX_OBB_AXES_A_FACES, /* a face normal of A */
    SPX_OBB_AXES_B_FACES, /* a face normal of B */
    SPX_OBB_AXES_EDGES,   /* an edge of A crossed with an edge of B */
    SPX_OBB_AXES_NONE     /* none: the boxes overlap or touch */
} spx_obb_axes;

static inline spx_obb_axes spx_obb_obb_separating_axes(const spx_obb* a, const spx_obb* b)
{
    const spx_vec3* A = a->rotation.col;
    const spx_vec3* B = b->rotation.col;
    const float ha[3] = { a->half_extents.x, a->half_extents.y, a->half_extents.z };
    const float hb[3] = { b->half_extents.x, b->half_extents.y, b->half_extents.z };
    float R[3][3], AR[3][3], t[3];
    float dx = b->center.x - a->center.x, dy = b->center.y - a->center.y, dz = b->center.z - a->center.z;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            R[i][j] = A[i].x * B[j].x + A[i].y * B[j].y + A[i].z * B[j].z;
            AR[i][j] = fabsf(R[i][j]) + SPX_OVERLAP_R_EPSILON;
        }
        t[i] = A[i].x * dx + A[i].y * dy + A[i].z * dz;
    }
    for (int i = 0; i < 3; ++i)
        if (fabsf(t[i]) > ha[i] + hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2]) return SPX_OBB_AXES_A_FACES;
    for (int j = 0; j < 3; ++j)
        if (fabsf(t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j]) >
            hb[j] + ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j])
            return SPX_OBB_AXES_B_FACES;
    /* Edge i of A x edge j of B; i1, i2 and j1, j2 are the other two indices. */
    for (int i = 0; i < 3; ++i) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            float ra = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j];
            float rb = hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1];
            if (fabsf(t[i2] * R[i1][j] - t[i1] * R[i2][j]) > ra + rb) return SPX_OBB_AXES_EDGES;
        }
    }
    return SPX_OBB_AXES_NONE;
}

static inline bool spx_overlap_obb_obb_unchecked(const spx_obb* a, const spx_obb* b)
{
    return spx_obb_obb_separating_axes(a, b) == SPX_OBB_AXES_NONE;
}

#endif
