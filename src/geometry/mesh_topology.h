/* Whether a mesh def describes a closed surface, the precondition of its mass properties. */
#ifndef SPX_MESH_CLOSED_H
#define SPX_MESH_CLOSED_H

#include <sepax/mesh.h>

/* Sets *out_closed: after welding the vertices whose coordinates are equal (-0 equals +0), every
   edge of every triangle of the def is used by exactly two triangles, once in each direction (an
   oriented 2-manifold without boundary along its edges). All triangles of the def count, also those
   the mesh skips as degenerate; a triangle with two corners welded together has no edge of its own
   (its two long edges cancel) and is left out. No edge at all is not closed. The def must have passed
   the mesh's checks (indices in range). O((V + T) log) by radix sort, in one scratch block from
   `allocator`, freed before returning. Errors: SPX_ERR_OUT_OF_MEMORY (*out_closed untouched). */
spx_result spx_mesh_check_closed(const spx_mesh_def* def, const spx_allocator* allocator, bool* out_closed);

#endif
