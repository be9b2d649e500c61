/* sepax: round pieces, a point or a segment grown by a radius, and their queries on plain data.
 *
 * A sphere is a point grown by its radius, a capsule a segment grown by its radius. Every query is
 * exact in closed form (docs/collision.md, "Spheres and capsules"): the swept ones solve, per pair
 * of features, for the first time the pieces' cores come within the sum of the radii. The answers
 * are those of collide.h: spx_sweep_hit, spx_penetration, spx_manifold, with normals from A to B.
 * The round piece is always the first argument (A). */
#ifndef SEPAX_ROUND_H
#define SEPAX_ROUND_H

#include "collide.h"
#include "mesh_query.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A solid ball: centre (m) and radius (m, >= 0; 0 is a point).
typedef struct spx_sphere {
    spx_vec3 center;
    float radius;
} spx_sphere;

/// A solid capsule: the points within `radius` (m, >= 0) of the segment p[0]-p[1] (m). Equal end
/// points make it a sphere; radius 0 makes it a segment.
typedef struct spx_capsule {
    spx_vec3 p[2];
    float radius;
} spx_capsule;

/// Checks a sphere. Errors, the first that applies: SPX_ERR_INVALID_ARGUMENT (NULL),
/// SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (|centre coordinate| or radius above SPX_MAX_COORDINATE),
/// SPX_ERR_BAD_EXTENT (radius < 0).
SPX_API spx_result spx_sphere_validate(const spx_sphere* sphere);
/// Checks a capsule. Errors as spx_sphere_validate, for both end points and the radius.
SPX_API spx_result spx_capsule_validate(const spx_capsule* capsule);

/* ---- static: overlap (touching counts) ---------------------------------------------------------- */

/// Do the pieces overlap or touch? Errors: SPX_ERR_INVALID_ARGUMENT (NULL), then the validators of
/// both pieces in the order of base.h.
SPX_API spx_result spx_overlap_sphere_sphere(const spx_sphere* a, const spx_sphere* b, bool* out_overlap);
SPX_API spx_result spx_overlap_sphere_capsule(const spx_sphere* a, const spx_capsule* b, bool* out_overlap);
SPX_API spx_result spx_overlap_capsule_capsule(const spx_capsule* a, const spx_capsule* b, bool* out_overlap);
SPX_API spx_result spx_overlap_sphere_obb(const spx_sphere* a, const spx_obb* b, bool* out_overlap);
SPX_API spx_result spx_overlap_capsule_obb(const spx_capsule* a, const spx_obb* b, bool* out_overlap);
SPX_API spx_result spx_overlap_sphere_triangle(const spx_sphere* a, const spx_triangle* b, bool* out_overlap);
SPX_API spx_result spx_overlap_capsule_triangle(const spx_capsule* a, const spx_triangle* b, bool* out_overlap);

/* ---- static: minimum translation -------------------------------------------------------------- */

/// Overlap and, when they overlap, the minimum translation (normal A to B, depth): the sum of the
/// radii less the distance of the cores, or, where the cores themselves meet, plus the cores' own
/// least overlap. `axis`: 0 the cores' closest points; where the cores meet, 1 + k for the k-th axis
/// of their own test: a box's faces (k = 0..2) then the capsule's segment crossed with the box's axes
/// (3..5); the triangle's normal (0) then the segment crossed with the triangle's edges (1..3; 0..2
/// for a segment-like triangle); two segments' cross product (0); 0 where there is no axis (a point
/// on a point or a segment, parallel segments). Errors as the overlap queries.
SPX_API spx_result spx_penetration_sphere_sphere(const spx_sphere* a, const spx_sphere* b, spx_penetration* out);
SPX_API spx_result spx_penetration_sphere_capsule(const spx_sphere* a, const spx_capsule* b, spx_penetration* out);
SPX_API spx_result spx_penetration_capsule_capsule(const spx_capsule* a, const spx_capsule* b, spx_penetration* out);
SPX_API spx_result spx_penetration_sphere_obb(const spx_sphere* a, const spx_obb* b, spx_penetration* out);
SPX_API spx_result spx_penetration_capsule_obb(const spx_capsule* a, const spx_obb* b, spx_penetration* out);
SPX_API spx_result spx_penetration_sphere_triangle(const spx_sphere* a, const spx_triangle* b, spx_penetration* out);
SPX_API spx_result spx_penetration_capsule_triangle(const spx_capsule* a, const spx_triangle* b, spx_penetration* out);

/* ---- swept: both pieces translate with constant velocity over [0, tmax] ------------------------- */

/// First contact during [0, tmax] (spx_sweep_hit of collide.h): time, normal, point; START_OVERLAP
/// with the minimum translation when they overlap or touch at t = 0. `axis` is as for the
/// penetration queries; features: a sphere touches with a VERTEX, a capsule with a VERTEX or, lying
/// along the contact, an EDGE. Errors: SPX_ERR_INVALID_ARGUMENT (NULL), then in the order of base.h
/// the validators of both pieces, SPX_ERR_NOT_FINITE for a velocity or tmax, SPX_ERR_OUT_OF_RANGE
/// for a velocity component times tmax beyond SPX_MAX_COORDINATE, SPX_ERR_BAD_TIME for tmax < 0.
SPX_API spx_result spx_sweep_sphere_sphere(const spx_sphere* a, spx_vec3 velocity_a, const spx_sphere* b,
                                           spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_sphere_capsule(const spx_sphere* a, spx_vec3 velocity_a, const spx_capsule* b,
                                            spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_capsule_capsule(const spx_capsule* a, spx_vec3 velocity_a, const spx_capsule* b,
                                             spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_sphere_obb(const spx_sphere* a, spx_vec3 velocity_a, const spx_obb* b, spx_vec3 velocity_b,
                                        float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_capsule_obb(const spx_capsule* a, spx_vec3 velocity_a, const spx_obb* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_sphere_triangle(const spx_sphere* a, spx_vec3 velocity_a, const spx_triangle* b,
                                             spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_capsule_triangle(const spx_capsule* a, spx_vec3 velocity_a, const spx_triangle* b,
                                              spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

/* ---- contact manifolds for resting contact ---------------------------------------------------- */

/// Contact points of a resting pair, kept while their gap is at most `margin` (m, >= 0; speculative
/// points have negative depth). A sphere gives one point; a capsule lying along a box face, a
/// triangle's face or another capsule gives two (its segment clipped to the face or to the other
/// segment's extent, each end with its own depth), otherwise one, with each capsule end still apart
/// and within the margin as a speculative point (its gap along the normal to the other's nearest
/// point). Ids: 0 and 1 name the clipped ends or A's ends (from p[0] towards p[1]), 3 and 4 B's ends
/// (B a capsule), 2 a single point. Errors: as the overlap queries, then
/// SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE or SPX_ERR_INVALID_ARGUMENT for a margin that is not
/// finite, beyond SPX_MAX_COORDINATE or negative.
SPX_API spx_result spx_manifold_sphere_sphere(const spx_sphere* a, const spx_sphere* b, float margin,
                                              spx_manifold* out);
SPX_API spx_result spx_manifold_sphere_capsule(const spx_sphere* a, const spx_capsule* b, float margin,
                                               spx_manifold* out);
SPX_API spx_result spx_manifold_capsule_capsule(const spx_capsule* a, const spx_capsule* b, float margin,
                                                spx_manifold* out);
SPX_API spx_result spx_manifold_sphere_obb(const spx_sphere* a, const spx_obb* b, float margin, spx_manifold* out);
SPX_API spx_result spx_manifold_capsule_obb(const spx_capsule* a, const spx_obb* b, float margin, spx_manifold* out);
SPX_API spx_result spx_manifold_sphere_triangle(const spx_sphere* a, const spx_triangle* b, float margin,
                                                spx_manifold* out);
SPX_API spx_result spx_manifold_capsule_triangle(const spx_capsule* a, const spx_triangle* b, float margin,
                                                 spx_manifold* out);

/* ---- against a triangle mesh at its instance's pose, through its OBB tree ----------------------- */

/// Does the piece overlap or touch any triangle of the mesh (two-sided: a piece wholly inside a closed
/// mesh touches nothing)? Stops at the first found. Errors: SPX_ERR_INVALID_ARGUMENT (NULL), then the
/// piece's validator.
SPX_API spx_result spx_overlap_sphere_mesh(const spx_sphere* a, spx_mesh_instance* b, bool* out_overlap);
SPX_API spx_result spx_overlap_capsule_mesh(const spx_capsule* a, spx_mesh_instance* b, bool* out_overlap);

/// First contact of the translating piece with the translating mesh during [0, tmax]: the earliest of
/// its triangles' (spx_sweep_sphere_triangle's answer), or at the start the deepest; ties to the lower
/// triangle number in the def, which goes to *out_triangle (may be NULL; SPX_NO_TRIANGLE on a miss).
/// Errors as spx_sweep_sphere_triangle, for the piece and the motion.
SPX_API spx_result spx_sweep_sphere_mesh(const spx_sphere* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out, uint32_t* out_triangle);
SPX_API spx_result spx_sweep_capsule_mesh(const spx_capsule* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                          spx_vec3 velocity_b, float tmax, spx_sweep_hit* out, uint32_t* out_triangle);

/// Resting contact with a mesh: the triangles' manifolds (spx_manifold_sphere_triangle's) within
/// `margin`, with the mesh's surface edges (spx_mesh_get_triangle_edges: a normal comes from an edge
/// or corner only where the surface has one, so nothing bumps at the edges between coplanar
/// triangles), merged by normal as spx_manifold_obb_mesh merges: up to min(capacity,
/// SPX_MAX_MESH_MANIFOLDS) manifolds, deepest first. Point ids: 2 a sphere's or a capsule's single
/// point, k (0, 1) a capsule's own end on a face, both the same on every triangle; an end of a
/// capsule cut by a triangle's side is 3 + k with the triangle's number in the def in bits 6-31
/// (mod 2^26). Errors: SPX_ERR_INVALID_ARGUMENT (NULL a, b or out_count, NULL out with capacity > 0),
/// the piece's validator, the margin's as spx_manifold_sphere_obb.
SPX_API spx_result spx_manifold_sphere_mesh(const spx_sphere* a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                            uint32_t capacity, uint32_t* out_count);
SPX_API spx_result spx_manifold_capsule_mesh(const spx_capsule* a, spx_mesh_instance* b, float margin,
                                             spx_manifold* out, uint32_t capacity, uint32_t* out_count);

/* ---- against a convex hull (hull.h) ------------------------------------------------------------ */

/* The sphere's or capsule's core (a point, a segment) against the placed hull, exact in double in the
 * hull's frame (docs/collision.md, "Spheres and capsules against hulls"): the answers mean what they
 * mean above. `axis`: 0 the closest points; where the cores meet, 1 + f for the hull's face f, or
 * 1 + faces + e for the capsule's segment crossed with the hull's edge e (numbered as
 * spx_hull_get_face and spx_hull_get_edge give them). Manifold: a capsule lying on a hull face (the
 * normal within 0.8 degrees of the face's) gives its segment clipped to the face's loop, ids 0 and 1
 * from p[0]; otherwise one point, id 2, and each capsule end still apart and within the margin as a
 * speculative point, ids 0 and 1. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, a placed hull without its
 * hull), then in the order of base.h the piece's validator and spx_obb_validate's checks of the placed
 * hull's position and rotation; for the sweep then the velocities and tmax as spx_sweep_sphere_obb,
 * for the manifold the margin as spx_manifold_sphere_obb. */

/// A hull with its pose (hull.h, which defines it).
typedef struct spx_placed_hull spx_placed_hull;

/// Does the piece overlap or touch the hull?
SPX_API spx_result spx_overlap_sphere_hull(const spx_sphere* a, const spx_placed_hull* b, bool* out_overlap);
SPX_API spx_result spx_overlap_capsule_hull(const spx_capsule* a, const spx_placed_hull* b, bool* out_overlap);
/// Overlap and, when they overlap, the minimum translation (normal from the piece to the hull, depth).
SPX_API spx_result spx_penetration_sphere_hull(const spx_sphere* a, const spx_placed_hull* b, spx_penetration* out);
SPX_API spx_result spx_penetration_capsule_hull(const spx_capsule* a, const spx_placed_hull* b, spx_penetration* out);
/// First contact of the translating piece and the translating hull during [0, tmax], as the sweeps above.
SPX_API spx_result spx_sweep_sphere_hull(const spx_sphere* a, spx_vec3 velocity_a, const spx_placed_hull* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
SPX_API spx_result spx_sweep_capsule_hull(const spx_capsule* a, spx_vec3 velocity_a, const spx_placed_hull* b,
                                          spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
/// Contact points of the resting pair within `margin` (m, >= 0), as described above.
SPX_API spx_result spx_manifold_sphere_hull(const spx_sphere* a, const spx_placed_hull* b, float margin,
                                            spx_manifold* out);
SPX_API spx_result spx_manifold_capsule_hull(const spx_capsule* a, const spx_placed_hull* b, float margin,
                                             spx_manifold* out);

#ifdef __cplusplus
}
#endif

#endif
