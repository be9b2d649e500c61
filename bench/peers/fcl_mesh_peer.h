/* sepax_bench mesh-queries: FCL answering the mesh questions, behind a C interface so the harness
   stays C. The meshes are handed over as world-space triangle soups, exactly the corners sepax
   tests (spx_mesh_instance_get_triangle), and built into FCL's BVH models once, outside the timed
   calls. Compiled only with -DSEPAX_BENCH_PEERS=ON when CMake finds FCL (SPX_BENCH_HAVE_FCL). */
#ifndef SPX_BENCH_FCL_MESH_PEER_H
#define SPX_BENCH_FCL_MESH_PEER_H

#include <sepax/geometry.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A mesh in FCL: a BVHModel<RSS> (for conservative advancement) and a BVHModel<OBBRSS> (for
/// the discrete test) of the same triangles.
typedef struct bench_fcl_mesh bench_fcl_mesh;

/// Builds both models from `count` triangles (corners in metres, in the frame the mesh is placed
/// in at t = 0: FCL's transforms stay the identity at the start). NULL when out of memory or when
/// FCL rejects the model.
bench_fcl_mesh* bench_fcl_mesh_create(const spx_triangle* triangles, uint32_t count);
void bench_fcl_mesh_destroy(bench_fcl_mesh* mesh);

/// fcl::continuousCollide, conservative advancement (CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_TRANS,
/// GST_LIBCCD) on the RSS models: A translates by `displacement` over FCL's [0, 1], B stays.
/// Returns 1 for a collision (*out_time: time of contact on [0, 1]), 0 for none, -1 when FCL
/// failed (its answer negative or not finite).
int bench_fcl_mesh_ca(const bench_fcl_mesh* a, spx_vec3 displacement, const bench_fcl_mesh* b, double* out_time);

/// fcl::collide on the OBBRSS models with A moved by `offset`: enable_contact, at most
/// `max_contacts` contacts (1: stop at the first). Returns the contact count FCL reports.
size_t bench_fcl_mesh_collide(const bench_fcl_mesh* a, spx_vec3 offset, const bench_fcl_mesh* b, size_t max_contacts);

/// "FCL 0.7.0".
const char* bench_fcl_mesh_version(void);

#ifdef __cplusplus
}
#endif

#endif
