/* The inside of spx_mesh, for the queries and the tests. */
#ifndef SPX_GEOMETRY_MESH_H
#define SPX_GEOMETRY_MESH_H

#include <sepax/mesh.h>
#include "obb_tree.h"
#include "mass.h"

#define SPX_MESH_DEF_COOKIE 0x4D455348u /* "MESH" */

/* spx_triangle_edges in 8 bytes: turns in steps of pi/32767 rounded away from zero, so an edge's
   wedge of normals is never narrower than the surface's. */
typedef struct spx_mesh_edges {
    int16_t angle[3];
    uint8_t corners; /* bit k: a corner at corner k */
    uint8_t unused;
} spx_mesh_edges;

#define SPX_EDGE_PACKED_OPEN 32767
#define SPX_EDGE_ANGLE_STEP (3.14159265358979323846 / 32767.0)
/* Smaller turns (rad) are flat: above float noise of coplanar normals, below a felt bump.
   See docs/decisions.md#contact-manifolds-for-meshes. */
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

/* One block: header, nodes, triangles (corners, in leaf order, so a leaf is one run), source,
   edges. See docs/decisions.md#meshes. */
struct spx_mesh {
    const spx_obb_node* nodes;
    const spx_triangle* triangles;
    const uint32_t* source; /* triangle i is def triangle source[i] */
    const spx_mesh_edges* edges;
    uint32_t triangle_count;
    uint32_t degenerate_count;
    uint32_t node_count;
    uint32_t depth;
    uint32_t leaf_triangles;
    bool closed;
    spx_unit_mass mass; /* of all the def's triangles */
    size_t bytes;
    spx_allocator allocator; /* all zero: malloc/free */
};

#endif
