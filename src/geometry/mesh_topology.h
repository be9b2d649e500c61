/* How a mesh's triangles meet: whether the surface is closed (the precondition of its mass
   properties), and how it turns across each triangle's edges (spx_triangle_edges, for contact
   normals without ghost bumps). Both come from one weld of the vertices and one sort of the edges. */
#ifndef SPX_MESH_TOPOLOGY_H
#define SPX_MESH_TOPOLOGY_H

#include "mesh.h"

/* Welds the def's vertices whose coordinates are equal (-0 equals +0) and sorts every edge of every
   triangle of the def by its two welded ends.
   *out_closed: every edge is used by exactly two triangles, once in each direction (an oriented
   2-manifold without boundary along its edges). All triangles of the def count, also those the mesh
   skips as degenerate; a triangle with two corners welded together has no edge of its own (its two
   long edges cancel) and is left out. No edge at all is not closed.
   out_edges[i], for the mesh's triangle i = def triangle source[i] (i < kept): each edge's turn to
   the one other triangle of the mesh that shares it (among the kept triangles that are not
   segment-like), open when there is no such single one; bit k of corners when the surface has a
   corner at corner k (mesh.h). A segment-like triangle gets open edges and all its corners.
   The def must have passed the mesh's checks (indices in range). O((V + T) log) by radix sort, in
   one scratch block from `allocator`, freed before returning. Errors: SPX_ERR_OUT_OF_MEMORY
   (nothing written). */
spx_result spx_mesh_topology(const spx_mesh_def* def, const uint32_t* source, uint32_t kept,
                             const spx_allocator* allocator, bool* out_closed, spx_mesh_edges* out_edges);

#endif
