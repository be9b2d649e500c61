/* The box-mesh manifold with the surface-edge rule switchable, for the tests that show what the rule
 * removes. */
#ifndef SPX_MANIFOLD_MESH_H
#define SPX_MANIFOLD_MESH_H

#include <sepax/mesh_query.h>

/* As spx_manifold_obb_mesh on input already checked; surface_edges false treats every triangle as
   alone (every edge and corner real), as a per-triangle SAT would. */
void spx_manifold_obb_mesh_checked(const spx_obb* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                   spx_manifold* out, uint32_t capacity, uint32_t* out_count);

#endif
