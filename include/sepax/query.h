/* sepax: what a host asks a world: ray casts, box casts and overlap queries (docs/queries.md).
 *
 * Every query rests on a plain-data query usable without a world: a ray against a box, a triangle
 * or a placed mesh (below), and the exact swept and static queries of collide.h and mesh_query.h.
 * The world's queries find their candidates through a tree of the bodies' bounds and the meshes'
 * OBB trees, never by visiting every body.
 *
 * A ray is an origin and a translation: it covers origin + f * translation for the fraction f in
 * [0, 1]. A box cast moves a box by a translation the same way. Normals of casts are the surface's
 * at the hit, pointing back at the caster (for a box cast: the opposite of the sweep queries' A to B
 * normal), so that moving the caster along the normal takes it away from the surface. */
#ifndef SEPAX_QUERY_H
#define SEPAX_QUERY_H

#include "collide.h"
#include "mesh.h"
#include "mesh_query.h"
#include "round.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- rays on plain data --------------------------------------------------------------------- */

/// Where a ray meets one piece.
typedef struct spx_ray_hit {
    spx_sweep_state state; /* MISS; HIT; START_OVERLAP: the origin is inside a box (fraction 0) */
    float fraction;        /* of the translation, 0..max_fraction: the first point of the piece on the ray */
    spx_vec3 point;        /* m, world: origin + fraction * translation */
    spx_vec3 normal;       /* unit: the surface's normal there, facing the ray's origin (a box's face, a
                                  triangle's plane turned towards the ray; a triangle with its corners on one
                                  line: minus the ray's direction); START_OVERLAP: minus the ray's direction */
    uint32_t triangle;     /* a mesh's triangle as numbered in its def (indices[3 * n]); else SPX_NO_TRIANGLE */
} spx_ray_hit;

/// A ray against a solid box: the fraction where it enters; touching a face, edge or corner counts.
/// A ray starting inside or on the box answers START_OVERLAP at fraction 0. Looks no further than
/// `max_fraction` (0..1; 1 for the whole ray). Errors, the first that applies: SPX_ERR_INVALID_ARGUMENT
/// (NULL, a zero translation, max_fraction outside 0..1), SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (an
/// origin or translation component beyond SPX_MAX_COORDINATE), then as spx_obb_validate.
SPX_API spx_result spx_ray_obb(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_obb* box,
                               spx_ray_hit* out);

/// A ray against a two-sided triangle, by the watertight test of Woop, Benthin and Wald (JCGT 2013)
/// in double: a ray through an edge or corner shared by two triangles meets at least one of them,
/// so no ray slips through a closed mesh between its triangles. A ray lying in the triangle's plane
/// does not meet it (on a closed mesh, the faces across its edges do). Errors as spx_ray_obb, then as
/// spx_triangle_validate.
SPX_API spx_result spx_ray_triangle(spx_vec3 origin, spx_vec3 translation, float max_fraction,
                                    const spx_triangle* triangle, spx_ray_hit* out);

/// A ray against a mesh placed at `pose`: its first triangle along the ray (ties to the lower number
/// in the def), through the mesh's OBB tree, with the test of spx_ray_triangle in the mesh's frame (so
/// it is watertight on the mesh as stored). The mesh is a two-sided surface: a ray starting inside a
/// closed mesh meets its inner side. Reads the mesh only: any number of calls may share one mesh.
/// Errors as spx_ray_obb, and SPX_ERR_NOT_ORTHONORMAL (pose quaternion off unit length by more than
/// SPX_ROTATION_TOLERANCE), SPX_ERR_OUT_OF_RANGE (a pose position beyond SPX_MAX_COORDINATE).
SPX_API spx_result spx_ray_mesh(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_mesh* mesh,
                                const spx_transform* pose, spx_ray_hit* out);

/// A ray against a solid sphere or capsule: the fraction where it enters, exact (the line's interval
/// within the radius of the centre or the segment); the normal is the surface's there. A ray starting
/// inside answers START_OVERLAP at fraction 0. Errors as spx_ray_obb, then as spx_sphere_validate or
/// spx_capsule_validate.
SPX_API spx_result spx_ray_sphere(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_sphere* sphere,
                                  spx_ray_hit* out);
SPX_API spx_result spx_ray_capsule(spx_vec3 origin, spx_vec3 translation, float max_fraction,
                                   const spx_capsule* capsule, spx_ray_hit* out);

/// Is the point in the box or on it? Errors: SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE (a point coordinate beyond SPX_MAX_COORDINATE), then as spx_obb_validate.
SPX_API spx_result spx_obb_contains_point(const spx_obb* box, spx_vec3 point, bool* out_inside);

/// Is the point inside a closed mesh placed at `pose`? By the parity of the triangles a ray from the
/// point crosses (watertight, so exact on the mesh as stored; a ray that grazes an edge is cast again
/// in another direction). A point on the surface may answer either way. An open mesh (not
/// spx_mesh_info.closed) encloses nothing: false. Errors as spx_ray_mesh.
SPX_API spx_result spx_mesh_contains_point(const spx_mesh* mesh, const spx_transform* pose, spx_vec3 point,
                                           bool* out_inside);

/* ---- world queries -------------------------------------------------------------------------- */

/// Shapes seen by a query: a shape is seen when its category bits (spx_shape_def.filter) meet the
/// query's mask bits and its mask bits meet the query's category bits, and then the callback (when
/// given) says yes. Group indices play no part. Sensor shapes are never seen by a query: they report
/// overlaps through their events (spx_world_get_sensor_events). Start from spx_default_query_filter().
typedef struct spx_query_filter {
    uint64_t category_bits; /* what the query is; default SPX_DEFAULT_CATEGORY_BITS */
    uint64_t mask_bits;     /* the categories it sees; default SPX_DEFAULT_MASK_BITS (all) */
    /* NULL: every shape the bits let through. Else called for each such shape before its exact test:
       return false to skip it. Called during the query, with the world locked (spx_cast_result_fn):
       the shape's getters (spx_shape_get_body, spx_shape_get_user_data, ...) answer. */
    bool (*fn)(spx_shape_id shape, void* context);
    void* context;
} spx_query_filter;

#define SPX_DEFAULT_CATEGORY_BITS 1ull
#define SPX_DEFAULT_MASK_BITS UINT64_MAX

/// A filter that sees every shape.
SPX_API spx_query_filter spx_default_query_filter(void);

/// One shape met by a cast. For a ray: the first point of the shape along it; for a box cast: the
/// first contact of the moving box with the shape (collide.h's swept queries).
typedef struct spx_cast_result {
    spx_shape_id shape;
    spx_body_id body;      /* the shape's body */
    uint32_t shape_index;  /* the shape's place in its body (spx_shape_get_index) */
    uint32_t triangle;     /* a mesh's triangle as numbered in its def; SPX_NO_TRIANGLE for a box */
    spx_sweep_state state; /* HIT; START_OVERLAP: the ray starts inside a box, the cast box overlaps at the start */
    float fraction;        /* of the translation, 0..1; 0 for START_OVERLAP */
    spx_vec3 point;        /* m, world: where they meet (box cast: as spx_sweep_hit.point) */
    spx_vec3 normal;       /* unit, the surface's, pointing back at the caster. START_OVERLAP of a box cast: the
                                  minimum translation's direction: moving the box by depth * normal separates them */
    float depth;           /* m, START_OVERLAP of a box cast: the overlap along normal; else 0 */
} spx_cast_result;

/// Called for each shape a cast meets, in no promised order. The return value steers the cast:
///   < 0       ignore this shape and go on as before;
///   0         stop the cast now;
///   in (0, 1] clip the cast: from now on only shapes met at a fraction up to this one are reported
///             (return result->fraction to find the closest, 1 to see every shape).
/// A shape is reported once, with its first point within the cast's current length. The world is
/// locked while a query runs: from a callback, every call that changes the world, and every world
/// query, returns SPX_ERR_WORLD_LOCKED (the getters answer).
typedef float spx_cast_result_fn(const spx_cast_result* result, void* context);

/// Casts a ray through the world, calling fn for each shape it meets (see spx_cast_result_fn).
/// filter NULL: every shape. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world or fn, a zero translation),
/// SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (an origin or translation component beyond
/// SPX_MAX_COORDINATE), SPX_ERR_WORLD_LOCKED (called from inside a step or a query's callback),
/// SPX_ERR_OUT_OF_MEMORY (the world's query tree could not grow; nothing reported, retrying is safe).
/// World queries bring the world's query tree up to date with the bodies' poses on first use after a
/// step or a change of bodies, and pose the meshes' caches: one query at a time in a world, as for
/// every call that takes a non-const world.
SPX_API spx_result spx_world_cast_ray(spx_world* world, spx_vec3 origin, spx_vec3 translation,
                                      const spx_query_filter* filter, spx_cast_result_fn* fn, void* context);

/// The closest shape along the ray (ties: the first found). out->state is SPX_SWEEP_MISS when the ray
/// meets nothing. Errors as spx_world_cast_ray (NULL out is SPX_ERR_INVALID_ARGUMENT).
SPX_API spx_result spx_world_cast_ray_closest(spx_world* world, spx_vec3 origin, spx_vec3 translation,
                                              const spx_query_filter* filter, spx_cast_result* out);

/// Any shape along the ray, the first the search meets (not the closest): for line of sight. Errors as
/// spx_world_cast_ray_closest.
SPX_API spx_result spx_world_cast_ray_any(spx_world* world, spx_vec3 origin, spx_vec3 translation,
                                          const spx_query_filter* filter, spx_cast_result* out);

/// Moves `box` by `translation` through the world, calling fn for each shape it meets, with the first
/// contact of each (spx_sweep_obb_obb against boxes, spx_sweep_obb_mesh against meshes: exact time,
/// normal and point); a shape the box overlaps at the start is reported as START_OVERLAP with its
/// minimum translation. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world, box or fn), SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE (a translation component beyond SPX_MAX_COORDINATE), then as spx_obb_validate;
/// SPX_ERR_WORLD_LOCKED, SPX_ERR_OUT_OF_MEMORY.
SPX_API spx_result spx_world_cast_box(spx_world* world, const spx_obb* box, spx_vec3 translation,
                                      const spx_query_filter* filter, spx_cast_result_fn* fn, void* context);

/// The first shape the moving box meets (START_OVERLAP, at fraction 0, comes first; among several the
/// deepest). out->state is SPX_SWEEP_MISS when it meets nothing. Errors as spx_world_cast_box.
SPX_API spx_result spx_world_cast_box_closest(spx_world* world, const spx_obb* box, spx_vec3 translation,
                                              const spx_query_filter* filter, spx_cast_result* out);

/// Called for each shape an overlap query finds; return false to stop the query. Locked as the casts'
/// (the shape's getters answer: spx_shape_get_body for its body).
typedef bool spx_overlap_result_fn(spx_shape_id shape, void* context);

/// Every shape whose bounds overlap the box from `lower` to `upper` (touching counts). A shape's bounds
/// are the world axis-aligned box of its box, or for a mesh of its OBB tree's root box. Errors:
/// SPX_ERR_INVALID_ARGUMENT (NULL world or fn, lower above upper on an axis), SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE, SPX_ERR_WORLD_LOCKED, SPX_ERR_OUT_OF_MEMORY.
SPX_API spx_result spx_world_overlap_aabb(spx_world* world, spx_vec3 lower, spx_vec3 upper,
                                          const spx_query_filter* filter, spx_overlap_result_fn* fn, void* context);

/// Every shape the box overlaps or touches, exactly (spx_overlap_obb_obb, spx_overlap_obb_mesh), and
/// every closed mesh that holds the box whole (spx_mesh_contains_point of its centre). Errors:
/// SPX_ERR_INVALID_ARGUMENT (NULL world, box or fn), then as spx_obb_validate; SPX_ERR_WORLD_LOCKED,
/// SPX_ERR_OUT_OF_MEMORY.
SPX_API spx_result spx_world_overlap_box(spx_world* world, const spx_obb* box, const spx_query_filter* filter,
                                         spx_overlap_result_fn* fn, void* context);

/// Every shape holding the point: a box it is in or on, a closed mesh it is inside
/// (spx_mesh_contains_point). Errors: SPX_ERR_INVALID_ARGUMENT (NULL world or fn), SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE, SPX_ERR_WORLD_LOCKED, SPX_ERR_OUT_OF_MEMORY.
SPX_API spx_result spx_world_overlap_point(spx_world* world, spx_vec3 point, const spx_query_filter* filter,
                                           spx_overlap_result_fn* fn, void* context);

#ifdef __cplusplus
}
#endif

#endif
