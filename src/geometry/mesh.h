/* The inside of spx_mesh, for the queries and the tests. */
#ifndef SPX_GEOMETRY_MESH_H
#define SPX_GEOMETRY_MESH_H

#include <sepax/mesh.h>
#include "obb_tree.h"
#include "mass.h"

/* Set by spx_default_mesh_def(); a def without it is SPX_ERR_UNINITIALIZED_DEF. */
#define SPX_MESH_DEF_COOKIE 0x4D455348u /* "MESH" */

/* One block from the host's allocator: this header, then the nodes, the triangles and their source
   indices. Triangles are stored as their three corners in leaf order (docs/decisions.md, "Meshes"),
   so a leaf's triangles are one contiguous run that the swept tests read without an index. */
struct spx_mesh {
    const spx_obb_node* nodes;     /* node_count; nodes[0] is the root */
    const spx_triangle* triangles; /* triangle_count, leaf order */
    const uint32_t* source;        /* triangle i is triangle source[i] of the def (indices[3 * source[i]]) */
    uint32_t triangle_count;
    uint32_t degenerate_count;
    uint32_t node_count;
    uint32_t depth;
    uint32_t leaf_triangles;
    bool closed;                   /* see spx_mesh_check_closed */
    spx_unit_mass mass;            /* integrated at creation from the def's triangles, all of them */
    size_t bytes;                  /* the whole block */
    spx_allocator allocator;       /* all zero: malloc/free */
};

#endif
