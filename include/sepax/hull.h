/* sepax: convex hulls, built once from a point cloud (quickhull) or from their faces, shared by any
 * number of queries, and their queries on plain data against hulls and boxes.
 *
 * A hull keeps its corners (at most SPX_HULL_MAX_CORNERS), its faces (a plane and the loop of corners
 * round it, counter-clockwise seen from outside; coplanar triangles merged into one polygon), and its
 * edges with the two faces that meet there: the arcs of its Gauss map, which let the separating-axis
 * test skip every pair of edges that cannot give a separating axis (docs/collision.md, "Hulls"). */
#ifndef SEPAX_HULL_H
#define SEPAX_HULL_H

#include "collide.h"
#include "mass.h"
#include "mesh_query.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most corners a hull may have (corner numbers fit a byte).
#define SPX_HULL_MAX_CORNERS 255

/// Points within this fraction of the cloud's size (the diagonal of its bounding box) of a face's
/// plane count as on it: such points add no corner, and neighbouring triangles within it of one plane
/// become one face. Also the flatness under which a cloud has no volume (SPX_ERR_FLAT_HULL) and the
/// slack of spx_hull_def validation (docs/tolerances.md).
#define SPX_HULL_PLANE_TOLERANCE 1e-5f

/// An immutable convex hull. Opaque; create with spx_hull_create.
typedef struct spx_hull spx_hull;

/// How to build a hull. Start from spx_default_hull_def(). With face_count 0 the hull is the convex
/// hull of the points (repeated and interior points are fine); otherwise the faces give it directly.
typedef struct spx_hull_def {
    const spx_vec3* points; /* m, in the hull's own frame; read during spx_hull_create only */
    uint32_t point_count;
    const uint32_t* face_corners; /* faces given directly: indices into points, face after face, each
                                     counter-clockwise seen from outside; NULL with face_count 0 */
    const uint32_t* face_sizes;   /* corners of each face (>= 3) */
    uint32_t face_count;          /* 0: build from the points */
    const spx_allocator*
        allocator; /* NULL: malloc/free; the struct is copied, its functions and context must outlive the hull */
    uint32_t internal_cookie; /* set by spx_default_hull_def(); do not touch */
} spx_hull_def;

/// Facts about a built hull.
typedef struct spx_hull_info {
    uint32_t corner_count; /* vertices of the hull */
    uint32_t face_count;
    uint32_t edge_count; /* corner_count - edge_count + face_count = 2 */
    size_t bytes;        /* memory the hull holds */
} spx_hull_info;

/// One face: its outward unit normal and offset (the plane normal . x = offset, every corner on or
/// below it) and its corners in order, counter-clockwise seen from outside.
typedef struct spx_hull_face {
    spx_vec3 normal;
    float offset; /* m */
    uint32_t corner_count;
    const uint8_t* corners; /* corner numbers, owned by the hull */
} spx_hull_face;

/// One edge: its two corners and the two faces that meet there (face[0] runs corner[0] to corner[1]
/// in its loop, face[1] the other way).
typedef struct spx_hull_edge {
    uint8_t corner[2];
    uint16_t face[2];
} spx_hull_edge;

/// A def with every field at its default.
SPX_API spx_hull_def spx_default_hull_def(void);

/// Builds a hull into one block from def->allocator; the host may free its arrays when this returns.
/// From points (face_count 0): quickhull in double precision; points within SPX_HULL_PLANE_TOLERANCE
/// of the hull count as inside, and corners on a straight edge or inside a merged face are dropped.
/// From faces: checked to be planar, convex and closed with consistent winding (every edge met once
/// each way), within the same tolerance. Errors: SPX_ERR_UNINITIALIZED_DEF, SPX_ERR_INVALID_ARGUMENT
/// (NULL, an allocator without alloc or free, fewer than 4 points, a face of fewer than 3 corners or
/// with a corner twice), SPX_ERR_NOT_FINITE (a point), SPX_ERR_OUT_OF_RANGE (a coordinate beyond
/// SPX_MAX_COORDINATE), SPX_ERR_INDEX_OUT_OF_RANGE (a face corner not below point_count),
/// SPX_ERR_FLAT_HULL (the points, or the faces' corners, lie on one plane, one line or one point within
/// the tolerance: no volume), SPX_ERR_TOO_MANY_CORNERS (the hull would need more than
/// SPX_HULL_MAX_CORNERS corners), SPX_ERR_ZERO_AREA (a given face whose corners lie on one line),
/// SPX_ERR_NOT_CONVEX (a given face not flat, turning the other way, or with a corner of the hull
/// outside its plane), SPX_ERR_MESH_NOT_CLOSED (given faces that leave an edge open or meet an edge
/// twice the same way: inconsistent winding), SPX_ERR_MESH_INSIDE_OUT (given faces all wound
/// clockwise), SPX_ERR_OUT_OF_MEMORY. *out is set only on success.
SPX_API spx_result spx_hull_create(const spx_hull_def* def, spx_hull** out);

/// Frees a hull (NULL is fine). The host makes sure no query still uses it.
SPX_API void spx_hull_destroy(spx_hull* hull);

/// Counts and memory. Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_hull_get_info(const spx_hull* hull, spx_hull_info* out);
/// Corner i in the hull's frame (one of the input points, unchanged). Errors: SPX_ERR_INVALID_ARGUMENT
/// (NULL, i out of range).
SPX_API spx_result spx_hull_get_corner(const spx_hull* hull, uint32_t i, spx_vec3* out);
/// Face i. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, i out of range).
SPX_API spx_result spx_hull_get_face(const spx_hull* hull, uint32_t i, spx_hull_face* out);
/// Edge i. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, i out of range).
SPX_API spx_result spx_hull_get_edge(const spx_hull* hull, uint32_t i, spx_hull_edge* out);

/// Mass properties of the solid hull at `density` kg/m^3 in the hull's frame, exact by tetrahedra
/// from a point inside to every face (in double, done when the hull was built). Errors:
/// SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_NOT_FINITE (density), SPX_ERR_BAD_DENSITY (<= 0),
/// SPX_ERR_MASS_OUT_OF_RANGE. *out written only on success.
SPX_API spx_result spx_mass_hull(const spx_hull* hull, float density, spx_mass_properties* out);

/// A hull placed in the world: point x of the hull's frame is at position + rotation x.
typedef struct spx_placed_hull {
    const spx_hull* hull;
    spx_vec3 position; /* m */
    spx_mat3 rotation; /* orthonormal, right-handed, as spx_obb's */
} spx_placed_hull;

/* ---- queries: hull against hull, hull against box ----------------------------------------------- */

/* The axes are the face normals of both pieces and the cross products of the edge pairs whose Gauss
 * map arcs cross (the faces of the Minkowski difference), so the swept answer is the exact first time
 * of contact. `axis` of spx_sweep_hit and spx_penetration: f < faces of A: face f of A; then faces of
 * B; then edge pairs, faces(A) + faces(B) + i * edges(B) + j for edge i of A and edge j of B. A box is
 * the hull of its 8 corners: faces 2k (+axis k) and 2k + 1 (-axis k), edges as spx_hull_get_edge
 * would give for it. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, a placed hull without its hull), then as
 * spx_obb_validate for a placed hull's position and rotation and for the box, and for the sweeps as
 * spx_sweep_obb_obb for the velocities and tmax. */

/// Do the pieces overlap or touch?
SPX_API spx_result spx_overlap_hull_hull(const spx_placed_hull* a, const spx_placed_hull* b, bool* out_overlap);
SPX_API spx_result spx_overlap_hull_obb(const spx_placed_hull* a, const spx_obb* b, bool* out_overlap);
/// Overlap and, when they overlap, the minimum translation (normal from A to B, depth).
SPX_API spx_result spx_penetration_hull_hull(const spx_placed_hull* a, const spx_placed_hull* b, spx_penetration* out);
SPX_API spx_result spx_penetration_hull_obb(const spx_placed_hull* a, const spx_obb* b, spx_penetration* out);
/// First contact of two translating pieces during [0, tmax]: time, normal, point; START_OVERLAP with
/// the minimum translation when they overlap or touch at t = 0.
SPX_API spx_result spx_sweep_hull_hull(const spx_placed_hull* a, spx_vec3 velocity_a, const spx_placed_hull* b,
                                       spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_hull_obb(const spx_placed_hull* a, spx_vec3 velocity_a, const spx_obb* b,
                                      spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

/// Contact manifold for resting contact: the face of the Minkowski difference that separates most (or
/// overlaps least) within `margin` (m, >= 0); a face of either piece is the reference unless an edge
/// pair separates more by 1e-3 of the pieces' size. The other piece's most opposed face is clipped by
/// the reference face's sides, points farther than the margin from its plane are dropped, and at most
/// 4 are kept (the deepest and those spanning the largest area); an edge pair gives the midpoint of
/// the edges' closest points. Points lie midway between the surfaces; depth > 0 penetration, < 0 gap.
/// Ids hash the reference and incident faces and the corner or the cut that made the point, and stay
/// while those do. point_count 0: apart by more than the margin. Errors as the other queries, and
/// SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE or SPX_ERR_INVALID_ARGUMENT for a margin that is not
/// finite, beyond SPX_MAX_COORDINATE or negative.
SPX_API spx_result spx_manifold_hull_hull(const spx_placed_hull* a, const spx_placed_hull* b, float margin,
                                          spx_manifold* out);
SPX_API spx_result spx_manifold_hull_obb(const spx_placed_hull* a, const spx_obb* b, float margin, spx_manifold* out);

/* ---- queries: hull against triangle, hull against mesh ------------------------------------------ */

/* A triangle is a flat hull to the same axis loop: its normal both ways (faces 0: (v1 - v0) x (v2 -
 * v0), and 1: the opposite), the outward side of each edge j (face 2 + j, a face of two corners whose
 * normal is a valid axis but never a manifold's reference), and each edge twice, between face 0 and
 * its side (edge 2j) and between its side and face 1 (edge 2j + 1): numbered in `axis` as a hull B
 * with 5 faces and 6 edges. It is two-sided: a hull meets it from either side, and the minimum
 * translation takes the shallower. A segment-like triangle (corners on one line) is the segment.
 * Errors: SPX_ERR_INVALID_ARGUMENT (NULL, a placed hull without its hull), then as spx_obb_validate
 * for the placed hull's pose and spx_triangle_validate for the triangle, and for the sweep as
 * spx_sweep_obb_obb for the velocities and tmax, for the manifold as spx_manifold_hull_hull for the
 * margin. */

/// Does the hull overlap or touch the triangle?
SPX_API spx_result spx_overlap_hull_triangle(const spx_placed_hull* a, const spx_triangle* b, bool* out_overlap);
/// Overlap and, when they overlap, the minimum translation (normal from the hull to the triangle).
SPX_API spx_result spx_penetration_hull_triangle(const spx_placed_hull* a, const spx_triangle* b, spx_penetration* out);
/// First contact of a translating hull and a translating triangle during [0, tmax], as spx_sweep_hull_hull.
SPX_API spx_result spx_sweep_hull_triangle(const spx_placed_hull* a, spx_vec3 velocity_a, const spx_triangle* b,
                                           spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
/// Contact manifold of a hull and a triangle, as spx_manifold_hull_hull (the triangle's face is the
/// reference, or the hull's face clips the triangle, or an edge pair gives one point).
SPX_API spx_result spx_manifold_hull_triangle(const spx_placed_hull* a, const spx_triangle* b, float margin,
                                              spx_manifold* out);

/* The mesh queries descend the mesh's OBB tree with a box holding the hull (its corners' bounds in its
 * own frame, placed with it; over a sweep, the world box of that box's motion relative to the mesh)
 * and meet every triangle the box reaches by the hull-triangle query. The mesh is a two-sided soup, as
 * for the box-mesh queries (mesh_query.h), and their answers mean the same: triangle_a is
 * SPX_NO_TRIANGLE, triangle_b the triangle's number in the mesh's def. Errors: SPX_ERR_INVALID_ARGUMENT
 * (NULL a, b or out, a placed hull without its hull, NULL contacts with capacity > 0), then as the
 * hull-triangle queries. */

/// Does the hull overlap or touch any triangle of the mesh? Stops at the first found.
SPX_API spx_result spx_overlap_hull_mesh(const spx_placed_hull* a, spx_mesh_instance* b, bool* out_overlap);
/// Every triangle overlapping or touching the hull, with its minimum translation, into `contacts`, as
/// spx_penetration_obb_mesh: out->state START_OVERLAP (normal the mean of the pairs', depth the most
/// any pair must move along it to come apart) or MISS.
SPX_API spx_result spx_penetration_hull_mesh(const spx_placed_hull* a, spx_mesh_instance* b, spx_mesh_contact* contacts,
                                             uint32_t capacity, spx_mesh_hit* out);
/// First contact of a translating hull and a translating mesh during [0, tmax] and the contact set at
/// that time (every triangle whose first contact is within SPX_MESH_CONTACT_WINDOW of tmax after it, or
/// that overlaps at t = 0), as spx_sweep_obb_mesh: ties at the first time to the lower triangle number.
SPX_API spx_result spx_sweep_hull_mesh(const spx_placed_hull* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                       spx_vec3 velocity_b, float tmax, spx_mesh_contact* contacts, uint32_t capacity,
                                       spx_mesh_hit* out);
/// Contact manifolds of a hull (A) and a mesh (B), as spx_manifold_obb_mesh: each triangle within the
/// margin gives its hull-triangle manifold, the triangle's face the reference when its normal is
/// within 5 degrees of the face's or when the contact is at an edge or corner the surface does not
/// have (spx_mesh_get_triangle_edges: no ghost bumps between coplanar triangles), merged by normal,
/// deepest first, each cut to 4 points; up to min(capacity, SPX_MAX_MESH_MANIFOLDS) into `out`, their
/// number in *out_count. A hull corner on a triangle's face keeps its id from triangle to triangle;
/// the ids of points a triangle's corners or edges make carry its number in the def. Errors as
/// spx_manifold_obb_mesh, and SPX_ERR_INVALID_ARGUMENT for a placed hull without its hull.
SPX_API spx_result spx_manifold_hull_mesh(const spx_placed_hull* a, spx_mesh_instance* b, float margin,
                                          spx_manifold* out, uint32_t capacity, uint32_t* out_count);

#ifdef __cplusplus
}
#endif

#endif
