/* The box-mesh and mesh-mesh manifolds with the surface-edge rule switchable, for the tests that show
 * what the rule removes, and the mesh-mesh pair finder, for the test that checks it against all pairs. */
#ifndef SPX_MANIFOLD_MESH_H
#define SPX_MANIFOLD_MESH_H

#include <sepax/mesh_query.h>
#include <stddef.h>

/* As spx_manifold_obb_mesh on input already checked; surface_edges false treats every triangle as
   alone (every edge and corner real), as a per-triangle SAT would. */
void spx_manifold_obb_mesh_checked(const spx_obb* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                   spx_manifold* out, uint32_t capacity, uint32_t* out_count);

/* As spx_manifold_mesh_mesh on input already checked; surface_edges false as above. */
void spx_manifold_mesh_mesh_checked(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                    spx_manifold* out, uint32_t capacity, uint32_t* out_count);

/* The work of one mesh-mesh manifold. */
typedef struct spx_mesh_pair_stats {
    uint32_t pairs; /* triangle pairs the exact test ran on (at most 2 SPX_MESH_PAIR_BUDGET): those
                         the descents handed (a descent past its budget hands none), less those the
                         plane and normal tests ruled out */
    bool cut;       /* the budget ran out with pairs left untested, even without the margin */
    float margin;   /* the margin used: the one given, or 0 when the pairs within it passed the budget */
    uint32_t runs;  /* descents made, each at most SPX_MESH_PAIR_BUDGET pairs: 1 to 3 to find the
                         pairs (within the margin, without it, its spread sample), and one a manifold
                         after the first when the cache overflowed */
} spx_mesh_pair_stats;

/* As spx_manifold_mesh_mesh_checked with a buffer (16-byte aligned; NULL for none) that caches the
   triangle pairs' contacts between the passes that find each manifold; room for more pairs than the
   query's own (64) saves descending again. The answer is the same with any buffer. stats: NULL, or
   filled with the work done. */
void spx_manifold_mesh_mesh_buffered(spx_mesh_instance* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                     void* buffer, size_t buffer_bytes, spx_manifold* out, uint32_t capacity,
                                     uint32_t* out_count, spx_mesh_pair_stats* stats);

/* Bytes one cached pair takes in that buffer. */
size_t spx_manifold_mesh_mesh_pair_bytes(void);

/* Calls pair() with every pair of usable triangles (mesh order numbers) that spx_manifold_mesh_mesh
   examines within its budget: a superset of the pairs within `margin` of each other, in the order
   the manifold tests them, here with no budget. */
void spx_mesh_mesh_pairs(spx_mesh_instance* a, spx_mesh_instance* b, float margin,
                         void (*pair)(void* context, uint32_t ta, uint32_t tb), void* context);

#endif
