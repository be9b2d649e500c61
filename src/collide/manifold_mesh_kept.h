/* The mesh-mesh manifold with a pair's sunk state kept by the caller between steps. */
#ifndef SPX_MANIFOLD_MESH_KEPT_H
#define SPX_MANIFOLD_MESH_KEPT_H

#include "manifold_mesh.h"
#include <stdbool.h>

/* As spx_manifold_mesh_mesh_buffered, with the sunk rule of docs/meshes.md#mesh-against-mesh: within
   the margin the pairs crossing each other's planes are tested first, and one deeper than the margin
   makes the meshes sunk (the others are left out); sunk last step, only the touching pairs are
   tested while any overlaps. sunk: in, last step's state (false for a new pair); out, this step's.
   NULL: every pair within the margin tested, as spx_manifold_mesh_mesh_buffered. */
void spx_manifold_mesh_mesh_kept(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                 void* buffer, size_t buffer_bytes, spx_manifold* out, uint32_t capacity,
                                 uint32_t* out_count, spx_mesh_pair_stats* stats, bool* sunk);

#endif
