/* sepax: the convex pieces every query works on, as plain data. */
#ifndef SEPAX_GEOMETRY_H
#define SEPAX_GEOMETRY_H

#include "base.h"
#include "math_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest |col_i . col_j - delta_ij| a rotation matrix may show and still count as orthonormal
/// (a unit quaternion may be off unit length by as much). float rounding of a rotation built from
/// a quaternion is about 3e-7, so this admits every honest rotation and rejects scaled ones.
#define SPX_ROTATION_TOLERANCE 1e-5f

/// Largest magnitude (m) any query accepts in a box centre coordinate, a half extent, a triangle
/// corner or mesh vertex coordinate, a mesh pose's position coordinate, a margin, and in each
/// velocity component times tmax (the distance travelled); beyond it a call returns
/// SPX_ERR_OUT_OF_RANGE. At 1e7 m a float is already 1 m coarse, and below it every product the
/// float paths form (up to the fourth power of a length) stays far from overflow
/// (docs/tolerances.md).
#define SPX_MAX_COORDINATE 1e7f

/// An oriented box: centre (m), half extents along its own axes (m, > 0), and a rotation whose
/// column i is the box's axis i in world coordinates.
typedef struct spx_obb {
    spx_vec3 center;
    spx_vec3 half_extents;
    spx_mat3 rotation;
} spx_obb;

/// A triangle by its three corners (m). Winding gives the face normal (v1-v0) x (v2-v0); the
/// queries treat a triangle as two-sided. Corners on one line make a segment-like triangle, which
/// every query handles; corners that coincide make it degenerate (SPX_ERR_DEGENERATE_TRIANGLE).
typedef struct spx_triangle {
    spx_vec3 v[3];
} spx_triangle;

/// An edge whose |angle| (spx_triangle_edges) is at least this, pi rounded up to a float, is open:
/// it has no single neighbour (a boundary, or three or more triangles share it), or the surface
/// folds back onto itself there. An open edge may give any normal, from either side.
#define SPX_EDGE_OPEN 3.14159274f

/// How a triangle meets its neighbours in a surface, so that a contact normal can leave out the
/// edges and corners the surface does not really have there: a box sliding across a flat mesh must
/// not catch on the edges its triangles share (ghost bumps). spx_mesh_get_triangle_edges gives it for
/// a mesh's triangles; { { SPX_EDGE_OPEN, SPX_EDGE_OPEN, SPX_EDGE_OPEN }, 7 } makes every feature real.
typedef struct spx_triangle_edges {
    float angle[3];  /* rad, edge j (v[j] to v[(j+1)%3]): how far the surface turns away across it seen
                                  from the front (the side (v1-v0) x (v2-v0) points to): > 0 convex, < 0 concave,
                                  0 flat; |angle| >= SPX_EDGE_OPEN: open */
    uint8_t corners; /* bit k: v[k] is a corner of the surface (edges that are not flat meet there at an
                                  angle), so normals may come from it */
} spx_triangle_edges;

/// Builds a box from a rotation matrix. Errors, the first that applies: SPX_ERR_INVALID_ARGUMENT
/// (NULL), SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (|centre coordinate| or half extent above
/// SPX_MAX_COORDINATE), SPX_ERR_BAD_EXTENT, SPX_ERR_NOT_ORTHONORMAL, SPX_ERR_NOT_RIGHT_HANDED.
/// `out` untouched on error.
SPX_API spx_result spx_obb_from_matrix(spx_vec3 center, spx_vec3 half_extents, const spx_mat3* rotation, spx_obb* out);

/// Builds a box from a unit quaternion (w last), normalised again after the check. Errors as
/// spx_obb_from_matrix; a quaternion off unit length by more than SPX_ROTATION_TOLERANCE is
/// SPX_ERR_NOT_ORTHONORMAL.
SPX_API spx_result spx_obb_from_quat(spx_vec3 center, spx_vec3 half_extents, spx_quat rotation, spx_obb* out);

/// Checks a box filled in by hand. Errors as spx_obb_from_matrix.
SPX_API spx_result spx_obb_validate(const spx_obb* box);

/// The eight corners: corner k takes +half along axis i when bit i of k is set, -half otherwise.
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_obb_get_corners(const spx_obb* box, spx_vec3 out_corners[8]);

/// Checks a triangle. Errors: SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE (a |coordinate| above SPX_MAX_COORDINATE), SPX_ERR_DEGENERATE_TRIANGLE (corners coincide to within 1e-6 of their distance from the origin, or
/// within FLT_MIN).
SPX_API spx_result spx_triangle_validate(const spx_triangle* triangle);

#ifdef __cplusplus
}
#endif

#endif
