/* Fitting an oriented box to a set of triangles (Gottschalk, Lin, Manocha, OBBTree, 1996). */
#ifndef SPX_OBB_FIT_H
#define SPX_OBB_FIT_H

#include <sepax/geometry.h>

/* What the fit and the tree split need of a triangle, computed once: area and centroid in double. */
typedef struct spx_tri_moment {
    double centroid[3];
    double area; /* m^2; 0 for a segment-like triangle */
} spx_tri_moment;

void spx_tri_moment_of(const spx_triangle* triangle, spx_tri_moment* out);

/* Eigen-decomposition of a symmetric 3x3 matrix a (row-major, only its symmetric part is read) by
   cyclic Jacobi rotations: eigenvalues in values, unit eigenvectors in the columns of vectors
   (vectors[row][col]), orthonormal and right-handed. An already diagonal a gives the identity. */
void spx_sym3_eigen(const double a[3][3], double values[3], double vectors[3][3]);

/* The box around triangles tris[index[k]], k < count (index NULL: tris[k]), count >= 1. Axes:
   eigenvectors of the area-weighted covariance of the triangles' surfaces; extents: the corners'
   shadows on them, so every corner lies inside. moments (NULL: computed here) is indexed like tris.
   Flat or segment-like sets get a small positive half extent (see SPX_OBB_FIT_MIN_RATIO). */
spx_obb spx_obb_fit_triangles(const spx_triangle* tris, const spx_tri_moment* moments, const uint32_t* index,
                              uint32_t count);

/* A half extent is at least this fraction of the box's largest: a flat set gets a slab, not a
   zero-thickness box that spx_obb_validate would reject. */
#define SPX_OBB_FIT_MIN_RATIO 1e-6

#endif
