/* Box-mesh and mesh-mesh manifolds with the surface-edge rule switchable, and the mesh-mesh pair
 * finder, for the tests. */
#ifndef SPX_MANIFOLD_MESH_H
#define SPX_MANIFOLD_MESH_H

#include <sepax/mesh_query.h>
#include <stddef.h>

/* spx_manifold_obb_mesh on checked input; surface_edges false: every edge and corner real. */
void spx_manifold_obb_mesh_checked(const spx_obb* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                   spx_manifold* out, uint32_t capacity, uint32_t* out_count);

/* As spx_manifold_mesh_mesh on input already checked; surface_edges false as above. */
void spx_manifold_mesh_mesh_checked(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                    spx_manifold* out, uint32_t capacity, uint32_t* out_count);

/* The work of one mesh-mesh manifold. */
typedef struct spx_mesh_pair_stats {
    uint32_t pairs; /* pairs the exact test ran on (at most 2 SPX_MESH_PAIR_BUDGET): handed by
                       the descents less those the plane and normal tests ruled out */
    bool cut;       /* the budget ran out with pairs left untested, even without the margin */
    float margin;   /* the margin given, or 0 when the pairs within it passed the budget */
    uint32_t runs;  /* descents: 1 to 3 to find the pairs (within the margin, without, sampled),
                       plus one a later manifold when the cache overflowed */
} spx_mesh_pair_stats;

/* With a buffer (16-byte aligned; NULL: none) caching pair contacts between the passes for each
   manifold; more room than the query's own 64 pairs saves descending again, same answer. stats:
   NULL or filled. */
void spx_manifold_mesh_mesh_buffered(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                     void* buffer, size_t buffer_bytes, spx_manifold* out, uint32_t capacity,
                                     uint32_t* out_count, spx_mesh_pair_stats* stats);

/* Bytes one cached pair takes in that buffer. */
size_t spx_manifold_mesh_mesh_pair_bytes(void);

/* Calls pair() with every pair of usable triangles (mesh order) spx_manifold_mesh_mesh examines, a
   superset of those within `margin`, in its order, here with no budget. */
void spx_mesh_mesh_pairs(spx_mesh_instance* a, spx_mesh_instance* b, float margin,
                         void (*pair)(void* context, uint32_t ta, uint32_t tb), void* context);

#endif
