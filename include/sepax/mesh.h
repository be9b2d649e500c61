/* sepax: immutable triangle meshes with an OBB tree, built once and shared by any number of bodies
 * and queries. */
#ifndef SEPAX_MESH_H
#define SEPAX_MESH_H

#include "base.h"
#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An immutable triangle mesh with its OBB tree. Opaque; create with spx_mesh_create.
typedef struct spx_mesh spx_mesh;

/// How to build a mesh. Start from spx_default_mesh_def().
typedef struct spx_mesh_def {
    const spx_vec3* vertices; /* m; read during spx_mesh_create only (the mesh keeps its own copy) */
    uint32_t vertex_count;
    const uint32_t* indices; /* 3 per triangle, counter-clockwise seen from outside; read during create only */
    uint32_t triangle_count;
    uint32_t leaf_triangles; /* most triangles in a tree leaf (1..16; default 4) */
    const spx_allocator*
        allocator; /* NULL: malloc/free; the struct is copied, its functions and context must outlive the mesh */
    uint32_t internal_cookie; /* set by spx_default_mesh_def(); do not touch */
} spx_mesh_def;

/// Facts about a built mesh.
typedef struct spx_mesh_info {
    uint32_t triangle_count;   /* triangles kept */
    uint32_t degenerate_count; /* triangles skipped because their corners coincide */
    uint32_t node_count;       /* OBB tree nodes */
    uint32_t depth;            /* longest root-to-leaf path, in nodes */
    size_t bytes;              /* memory the mesh holds (vertices, triangles, tree) */
    bool closed;               /* every edge shared by exactly two triangles in opposite directions, after
                                      welding vertices with equal coordinates: a solid, which has mass properties */
} spx_mesh_info;

/// A def with every field at its default.
SPX_API spx_mesh_def spx_default_mesh_def(void);

/// Builds a mesh and its OBB tree (top-down, O(n log n)). Degenerate triangles (corners that
/// coincide, as SPX_ERR_DEGENERATE_TRIANGLE) are skipped and counted; segment-like ones are kept.
/// The mesh copies what it needs into one block from def->allocator (spx_mesh_info.bytes), so the
/// host may free its arrays as soon as this returns; the mesh owns the block until spx_mesh_destroy.
/// It also finds how the triangles meet: whether the surface is closed (spx_mesh_info.closed) and how
/// it turns across each edge (spx_mesh_get_triangle_edges), by O(n) radix sorts in a scratch block
/// freed before it returns.
/// Errors: SPX_ERR_UNINITIALIZED_DEF, SPX_ERR_INVALID_ARGUMENT (NULL, leaf_triangles out of range,
/// an allocator without alloc or free, more than 2^31 - 1 triangles),
/// SPX_ERR_NOT_FINITE (a vertex), SPX_ERR_OUT_OF_RANGE (a vertex coordinate beyond
/// SPX_MAX_COORDINATE), SPX_ERR_INDEX_OUT_OF_RANGE, SPX_ERR_EMPTY_MESH,
/// SPX_ERR_OUT_OF_MEMORY. *out is set only on success.
SPX_API spx_result spx_mesh_create(const spx_mesh_def* def, spx_mesh** out);

/// Frees a mesh (NULL is fine). The host makes sure no body or query still uses it.
SPX_API void spx_mesh_destroy(spx_mesh* mesh);

/// Fills *out with the mesh's counts and memory. Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_mesh_get_info(const spx_mesh* mesh, spx_mesh_info* out);

/// Triangle i of the mesh in its own coordinates, i < triangle_count, in the mesh's order (the tree's
/// leaf order, not the def's); out_source (may be NULL) gets its number in the def (indices[3 * n]).
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL mesh or out, i out of range).
SPX_API spx_result spx_mesh_get_triangle(const spx_mesh* mesh, uint32_t i, spx_triangle* out, uint32_t* out_source);

/// How the surface turns across triangle i's edges (mesh order, as spx_mesh_get_triangle), found when
/// the mesh was built from the triangles that share each edge (vertices welded by equal coordinates,
/// as for spx_mesh_info.closed): for spx_manifold_obb_mesh_triangle, so that a box sliding across the
/// mesh does not catch on the edges between its coplanar triangles. Turns below 1e-3 rad count as flat;
/// stored to 1e-4 rad, rounded away from zero. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, i out of range).
SPX_API spx_result spx_mesh_get_triangle_edges(const spx_mesh* mesh, uint32_t i, spx_triangle_edges* out);

#ifdef __cplusplus
}
#endif

#endif
