/* The inside of spx_mesh, for the queries and the tests. */
#ifndef SPX_GEOMETRY_MESH_H
#define SPX_GEOMETRY_MESH_H

#include <sepax/mesh.h>
#include "obb_tree.h"
#include "mass.h"

/* Set by spx_default_mesh_def(); a def without it is SPX_ERR_UNINITIALIZED_DEF. */
#define SPX_MESH_DEF_COOKIE 0x4D455348u /* "MESH" */

/* A triangle's spx_triangle_edges, packed into 8 bytes: each edge's turn in steps of pi / 32767
   rounded away from zero (so that the wedge of normals an edge admits is never narrower than the
   surface's, and by at most 1e-4 rad wider), SPX_EDGE_PACKED_OPEN for an open edge. */
typedef struct spx_mesh_edges {
    int16_t angle[3];
    uint8_t corners; /* bit k: the surface has a corner at corner k */
    uint8_t unused;
} spx_mesh_edges;

#define SPX_EDGE_PACKED_OPEN 32767
#define SPX_EDGE_ANGLE_STEP (3.14159265358979323846 / 32767.0)
/* Turns smaller than this (rad) are flat: float corners of coplanar triangles make their normals
   differ by about 1e-7 times the coordinates over the triangle's size, which this leaves room for
   (1e-4 relative on a terrain of 1 km in 1 m triangles), and a normal that jumps by less than this
   where a box slides from one triangle to the next is no bump. */
#define SPX_EDGE_FLAT_ANGLE 1e-3

static inline spx_triangle_edges spx_mesh_edges_unpack(spx_mesh_edges e)
{
    spx_triangle_edges out;
    for (int j = 0; j < 3; ++j)
        out.angle[j] = e.angle[j] == SPX_EDGE_PACKED_OPEN || e.angle[j] == -SPX_EDGE_PACKED_OPEN
                           ? SPX_EDGE_OPEN
                           : (float)(e.angle[j] * SPX_EDGE_ANGLE_STEP);
    out.corners = e.corners;
    return out;
}

/* One block from the host's allocator: this header, then the nodes, the triangles, their source
   indices and their edges. Triangles are stored as their three corners in leaf order (docs/decisions.md, "Meshes"),
   so a leaf's triangles are one contiguous run that the swept tests read without an index. */
struct spx_mesh {
    const spx_obb_node* nodes;     /* node_count; nodes[0] is the root */
    const spx_triangle* triangles; /* triangle_count, leaf order */
    const uint32_t* source;        /* triangle i is triangle source[i] of the def (indices[3 * source[i]]) */
    const spx_mesh_edges* edges;   /* triangle_count: how the surface turns across each triangle's edges */
    uint32_t triangle_count;
    uint32_t degenerate_count;
    uint32_t node_count;
    uint32_t depth;
    uint32_t leaf_triangles;
    bool closed;             /* see spx_mesh_topology */
    spx_unit_mass mass;      /* integrated at creation from the def's triangles, all of them */
    size_t bytes;            /* the whole block */
    spx_allocator allocator; /* all zero: malloc/free */
};

#endif
