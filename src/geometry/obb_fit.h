/* Fitting an oriented box to a set of triangles (Gottschalk, Lin, Manocha, OBBTree, 1996). */
#ifndef SPX_OBB_FIT_H
#define SPX_OBB_FIT_H

#include <sepax/geometry.h>

typedef struct spx_tri_moment {
    double centroid[3];
    double area; /* 0 for a segment-like triangle */
} spx_tri_moment;

void spx_tri_moment_of(const spx_triangle* triangle, spx_tri_moment* out);

/* Jacobi: eigenvectors in the columns, right-handed; a diagonal `a` gives the identity. */
void spx_sym3_eigen(const double a[3][3], double values[3], double vectors[3][3]);

/* Axes from the area-weighted covariance; every corner inside. index NULL: all; moments NULL:
   computed. count >= 1. */
spx_obb spx_obb_fit_triangles(const spx_triangle* tris, const spx_tri_moment* moments, const uint32_t* index,
                              uint32_t count);

/* Least half extent relative to the largest: a flat set gets a slab spx_obb_validate accepts. */
#define SPX_OBB_FIT_MIN_RATIO 1e-6

#endif
