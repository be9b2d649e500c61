/* sepax: triangle meshes placed in the world, and their queries: box against mesh and mesh against
 * mesh, continuous (first time of contact and the contact set at that time) and static (at a pose).
 *
 * Conventions as in collide.h: normals point from A towards B, metres, seconds on [0, tmax], m/s.
 * Each piece translates with a constant velocity over [0, tmax]; a mesh keeps its rotation. The
 * meshes are two-sided triangle soups to the continuous and static queries (no inside, no volume): a
 * box wholly inside a closed mesh touches nothing. The manifolds give a closed mesh's faces one side,
 * its winding's front; an open mesh's faces face the other piece. */
#ifndef SEPAX_MESH_QUERY_H
#define SEPAX_MESH_QUERY_H

#include "collide.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A mesh placed in the world: the shared mesh, its pose, and a cache of its tree's node boxes in
/// world space. The queries fill the cache lazily, one node at a time, the first time they need a
/// node at the current pose; a new pose empties it in O(1) (a stamp, not a sweep over the nodes).
/// It holds 64 bytes a tree node and 37 a triangle (about 80 a triangle at the default leaf size).
/// An instance is used by one query at a time (the queries write its cache); the mesh may be
/// shared freely.
typedef struct spx_mesh_instance spx_mesh_instance;

/// How to place a mesh. Start from spx_default_mesh_instance_def().
typedef struct spx_mesh_instance_def {
    const spx_mesh* mesh;           /* the mesh placed; must outlive the instance (no default: set it) */
    spx_transform pose;             /* default: the identity */
    const spx_allocator* allocator; /* NULL: malloc/free; copied, its functions and context must outlive the instance */
    uint32_t internal_cookie;       /* set by spx_default_mesh_instance_def(); do not touch */
} spx_mesh_instance_def;

/// A def with every field at its default (no mesh, the identity pose, malloc/free).
SPX_API spx_mesh_instance_def spx_default_mesh_instance_def(void);

/// Places def->mesh at def->pose, with the instance's memory from def->allocator.
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL def or out), SPX_ERR_UNINITIALIZED_DEF,
/// SPX_ERR_INVALID_ARGUMENT (NULL mesh; an allocator without alloc or free),
/// SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (a position coordinate beyond SPX_MAX_COORDINATE; with
/// the mesh's own vertices within it, every world corner stays within 2.8 times it),
/// SPX_ERR_NOT_ORTHONORMAL (a quaternion off unit length by more than
/// SPX_ROTATION_TOLERANCE), SPX_ERR_OUT_OF_MEMORY. *out is set only on success.
SPX_API spx_result spx_mesh_instance_create(const spx_mesh_instance_def* def, spx_mesh_instance** out);

/// Frees an instance (NULL is fine). The mesh is not touched.
SPX_API void spx_mesh_instance_destroy(spx_mesh_instance* instance);

/// Moves the instance to a new pose (the quaternion is normalised again after the check). Setting
/// the pose it already has keeps its world-space cache. Errors: SPX_ERR_INVALID_ARGUMENT (NULL), and
/// those of spx_mesh_instance_create for the pose; on error the instance keeps its old pose.
SPX_API spx_result spx_mesh_instance_set_pose(spx_mesh_instance* instance, const spx_transform* pose);

/// The pose as stored (quaternion normalised). Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_mesh_instance_get_pose(const spx_mesh_instance* instance, spx_transform* out);

/// The mesh the instance places. Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_mesh_instance_get_mesh(const spx_mesh_instance* instance, const spx_mesh** out);

/// Triangle i (mesh order, as spx_mesh_get_triangle) in world space at the current pose: exactly the
/// corners the queries test, rounded the same way. out_source as in spx_mesh_get_triangle.
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL instance or out, i out of range).
SPX_API spx_result spx_mesh_instance_get_triangle(const spx_mesh_instance* instance, uint32_t i, spx_triangle* out,
                                                  uint32_t* out_source);

/// Triangle number used for the box's side of a box-mesh contact.
#define SPX_NO_TRIANGLE 0xFFFFFFFFu

/// The contact set of a continuous query collects every triangle pair whose first contact comes
/// within this fraction of tmax after the first contact of all (ties and near-ties, which a
/// solver wants together). A query that starts overlapping collects the pairs overlapping at t = 0.
#define SPX_MESH_CONTACT_WINDOW 1e-4f

/// One touching pair of pieces: a triangle of each mesh, or the box and a triangle of the mesh.
typedef struct spx_mesh_contact {
    spx_vec3 point;      /* m, world, where the pair touches at `time` (as spx_sweep_hit.point) */
    spx_vec3 normal;     /* unit, from A towards B (the pair's own normal) */
    float time;          /* s: the pair's first contact; 0 when it overlaps at t = 0 */
    float depth;         /* m: overlap along `normal` when the pair overlaps at t = 0, else 0 */
    uint32_t triangle_a; /* A's triangle as numbered in its def (indices[3 * n]); SPX_NO_TRIANGLE for a box */
    uint32_t triangle_b; /* B's triangle as numbered in its def */
    spx_feature_kind feature_a;
    spx_feature_kind feature_b;
} spx_mesh_contact;

/// The answer of a mesh query.
typedef struct spx_mesh_hit {
    spx_sweep_state state;     /* MISS, HIT (apart at t = 0) or START_OVERLAP */
    float time;                /* s: first contact over all pairs; 0 for START_OVERLAP */
    spx_vec3 normal;           /* unit, A towards B. HIT: the first pair's normal; when several pairs touch at exactly
                                  `time`, the average of their normals (the first pair's if they cancel out).
                                  START_OVERLAP: the average of the overlapping pairs' normals (their deepest pair's
                                  normal if they cancel out) */
    spx_vec3 point;            /* m, world. HIT: the first pair's point, or the mean of the points of the pairs that
                                  touch at exactly `time`. START_OVERLAP: the mean of the pairs' points */
    float depth;               /* m, START_OVERLAP only: the largest distance any overlapping pair must move along
                                  `normal` to come apart (an estimate of how far B must move); 0 otherwise */
    spx_mesh_contact first;    /* HIT: the first pair (ties broken by the lower triangle_a, then triangle_b);
                                  START_OVERLAP: the deepest pair */
    uint32_t contact_count;    /* pairs in the contact set, all of them even past the capacity given */
    uint32_t contacts_written; /* min(contact_count, capacity) */
} spx_mesh_hit;

/* ---- continuous queries: both pieces translate with constant velocity over [0, tmax] ----------- */

/// First contact of a translating box and a translating mesh during [0, tmax], and the contact set
/// at that time: up to `capacity` pairs into `contacts` (may be NULL with capacity 0), in a
/// deterministic order (the descent's), all of them counted in out->contact_count.
/// Errors: as spx_obb_validate for the box, SPX_ERR_INVALID_ARGUMENT (NULL instance or out, NULL
/// contacts with capacity > 0), SPX_ERR_NOT_FINITE (a velocity or tmax), SPX_ERR_OUT_OF_RANGE (a
/// velocity component times tmax beyond SPX_MAX_COORDINATE), SPX_ERR_BAD_TIME (tmax < 0), in the order
/// of base.h.
SPX_API spx_result spx_sweep_obb_mesh(const spx_obb* a, spx_vec3 velocity_a, spx_mesh_instance* b, spx_vec3 velocity_b,
                                      float tmax, spx_mesh_contact* contacts, uint32_t capacity, spx_mesh_hit* out);

/// First contact of two translating meshes during [0, tmax] and the contact set at that time, by
/// descending both OBB trees. Errors as spx_sweep_obb_mesh, and SPX_ERR_INVALID_ARGUMENT when a and
/// b are the same instance (self-contact is not a query here).
SPX_API spx_result spx_sweep_mesh_mesh(spx_mesh_instance* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                       spx_vec3 velocity_b, float tmax, spx_mesh_contact* contacts, uint32_t capacity,
                                       spx_mesh_hit* out);

/* ---- static queries at the instances' poses ------------------------------------------------- */

/// Does the box overlap or touch any triangle of the mesh? Stops at the first pair found.
/// Errors: as spx_obb_validate, SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_overlap_obb_mesh(const spx_obb* a, spx_mesh_instance* b, bool* out_overlap);

/// Do the two meshes overlap or touch anywhere? Stops at the first pair found. Errors as
/// spx_overlap_obb_mesh, and SPX_ERR_INVALID_ARGUMENT when a and b are the same instance.
SPX_API spx_result spx_overlap_mesh_mesh(spx_mesh_instance* a, spx_mesh_instance* b, bool* out_overlap);

/// Every pair overlapping or touching at the current poses, with its minimum translation (normal and
/// depth), into `contacts` as the continuous queries do; out->state is START_OVERLAP (with the
/// averaged normal and the depth estimate) or MISS. Errors as spx_overlap_obb_mesh, and NULL
/// contacts with capacity > 0.
SPX_API spx_result spx_penetration_obb_mesh(const spx_obb* a, spx_mesh_instance* b, spx_mesh_contact* contacts,
                                            uint32_t capacity, spx_mesh_hit* out);

/// As spx_penetration_obb_mesh for two meshes.
SPX_API spx_result spx_penetration_mesh_mesh(spx_mesh_instance* a, spx_mesh_instance* b, spx_mesh_contact* contacts,
                                             uint32_t capacity, spx_mesh_hit* out);

/* ---- contact manifolds for resting contact -------------------------------------------------- */

/// Most manifolds spx_manifold_obb_mesh writes for one box.
#define SPX_MAX_MESH_MANIFOLDS 8

/// Contact manifolds of a box (A) and a mesh (B) at the instance's pose, for a solver's resting and
/// speculative contact: each triangle within `margin` (m, >= 0) of the box gives its box-triangle
/// manifold with the mesh's edges (spx_manifold_obb_mesh_triangle with spx_mesh_get_triangle_edges: no
/// ghost bumps on the edges between coplanar triangles), and those are merged by normal: the deepest
/// triangle's normal leads a manifold that takes every triangle whose normal is within 5 degrees of
/// it, the deepest of the rest leads the next, and so on, deepest first; each is cut to 4 points (the
/// deepest and those spanning the most area). Up to min(capacity, SPX_MAX_MESH_MANIFOLDS) manifolds
/// into `out`, their number in *out_count (0: nothing within the margin); triangles whose normal fits
/// none of them are left out. Point ids: bits 0-5 as spx_manifold_obb_triangle; for a point made by a
/// triangle's corner or edge, bits 6-31 hold the triangle's number in the def (mod 2^26), while a box
/// corner on a face keeps bits 6-31 zero, so its id stays while the box slides from one coplanar
/// triangle to the next. Errors: as spx_obb_validate, SPX_ERR_INVALID_ARGUMENT (NULL a, b or
/// out_count, NULL out with capacity > 0, a negative margin), SPX_ERR_NOT_FINITE (margin),
/// SPX_ERR_OUT_OF_RANGE (a margin beyond SPX_MAX_COORDINATE).
SPX_API spx_result spx_manifold_obb_mesh(const spx_obb* a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                         uint32_t capacity, uint32_t* out_count);

/// Most triangle pairs spx_manifold_mesh_mesh tests in one descent of the trees. Meshes sunk deep
/// into each other meet in more: past the budget within the margin the pairs are found again without
/// it (only those touching), and past it even then the manifolds come from the pairs tested, spread
/// over the overlap (A's triangles taken in an order that halves the gaps, 256 at a time).
#define SPX_MESH_PAIR_BUDGET 2048u

/// Contact manifolds of two meshes at their instances' poses (A's normal convention: from A towards B),
/// for a solver's resting and speculative contact. Every pair of triangles that touch or come within
/// `margin` (m, >= 0) of each other gives its points by one-sided face clipping: A's face pushes B
/// along its front normal (a closed mesh's winding; an open mesh's triangle faces the side of its plane
/// holding the other mesh's centre, so an open surface works from either side) or B's face pushes A, whichever
/// leaves the smaller deepest point; the other triangle is clipped by the reference's prism and each
/// corner left is a point (depth > 0 overlap, < 0 gap down to -margin), kept only where the other
/// surface has that normal (spx_mesh_get_triangle_edges: no ghost bumps on the edges between coplanar
/// triangles); a pair no face gives a point may give one edge-edge point (minimum translation, or the
/// closest points when apart). Merged by normal as spx_manifold_obb_mesh: the deepest pair's normal
/// leads (ties to the lower triangle_a, then triangle_b), every pair within 5 degrees joins, each
/// manifold cut to 4 points; up to min(capacity, SPX_MAX_MESH_MANIFOLDS) into `out`, deepest first,
/// their number in *out_count. Point ids: bits 0-3 the features (0 a corner of A in B's face, 3 a
/// corner of B in A's face, 6 + 3i + j A's edge i over B's edge j, 15 an edge-edge point), bits 4-31
/// a hash of the corner's coordinates in its mesh's frame (a resting mesh keeps its corners' ids from
/// step to step) or of both triangles' numbers in their defs. Depth is seen only through pairs that
/// touch: a mesh sunk deeper than its triangles are tall reports less (docs/meshes.md). Work: at most
/// SPX_MESH_PAIR_BUDGET triangle pairs a descent (meshes sunk into each other: above).
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL a, b or out_count, NULL out with capacity > 0, a == b, a
/// negative margin), SPX_ERR_NOT_FINITE (margin), SPX_ERR_OUT_OF_RANGE (a margin beyond SPX_MAX_COORDINATE).
SPX_API spx_result spx_manifold_mesh_mesh(spx_mesh_instance* a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                          uint32_t capacity, uint32_t* out_count);

#ifdef __cplusplus
}
#endif

#endif
