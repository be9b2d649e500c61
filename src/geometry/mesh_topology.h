/* Whether a mesh is closed (for its mass) and its edge turns (no ghost bumps), from one weld and
   one edge sort. See docs/decisions.md#contact-manifolds-for-meshes. */
#ifndef SPX_MESH_TOPOLOGY_H
#define SPX_MESH_TOPOLOGY_H

#include "mesh.h"

/* Closed: every edge used twice, once each way (all def triangles count; one with welded corners
   is left out; no edges is not closed). out_edges[i] for mesh triangle i < kept: the turn to the
   single kept non-flat neighbour, else open; segment-like ones all open. The def must be valid.
   SPX_ERR_OUT_OF_MEMORY writes nothing. */
spx_result spx_mesh_topology(const spx_mesh_def* def, const uint32_t* source, uint32_t kept,
                             const spx_allocator* allocator, bool* out_closed, spx_mesh_edges* out_edges);

#endif
