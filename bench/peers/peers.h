/* sepax_bench collide: other libraries answering the same box-box questions, behind a C interface so the
   harness stays C. Each peer converts the boxes to its own types once, outside the timed loop, as
   sepax's inputs are built once. Compiled only with -DSEPAX_BENCH_PEERS=ON. */
#ifndef SPX_BENCH_PEERS_H
#define SPX_BENCH_PEERS_H

#include <sepax/geometry.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One peer way of answering one sepax query on box pairs (A[i], B[i]).
typedef struct bench_peer {
    const char* engine; /* "fcl-double", "ode", "bullet" */
    const char* query;  /* the sepax query it answers: "overlap_obb_obb", "manifold_obb_obb", "manifold_obb_tri" */
    const char* call;   /* the peer's function, for the report */
    /// The peer's own copy of the boxes; NULL when out of memory.
    void* (*prepare)(const spx_obb* a, const spx_obb* b, size_t count);
    /// One pass: out[i] = 1/0 for a yes/no test, the contact point count for a manifold.
    void (*run)(void* prepared, size_t count, uint8_t* out);
    void (*release)(void* prepared);
    /// Box-triangle pairs instead of box pairs (NULL: the peer takes box pairs, through prepare).
    void* (*prepare_triangle)(const spx_obb* a, const spx_triangle* b, size_t count);
} bench_peer;

/// One peer way of answering spx_sweep_obb_obb on pairs: a[i] moving at va[i], b[i] at vb[i], both
/// translating over [0, tmax]. Used by `sepax bench toi` (bench/toi.c).
typedef struct bench_sweep_peer {
    const char* engine; /* "fcl-ca", "fcl-naive" */
    const char* call;   /* the peer's function and settings, for the report */
    /// The peer's own copy of the pairs and motions; NULL when out of memory.
    void* (*prepare)(const spx_obb* a, const spx_vec3* va, const spx_obb* b, const spx_vec3* vb, size_t count,
                     float tmax);
    /// One pass: out_time[i] the first contact time in s, or a negative number for none.
    void (*run)(void* prepared, size_t count, double* out_time);
    void (*release)(void* prepared);
} bench_sweep_peer;

/// FCL's swept peers (fcl_peer.cpp).
const bench_sweep_peer* bench_sweep_peers_fcl(size_t* out_count);

/// All peers compiled in; *out_count 0 in the default build.
const bench_peer* bench_peer_list(size_t* out_count);

/// "FCL 0.7.0 (…); ODE …; Bullet 3.24 (float)", or "none" in the default build.
const char* bench_peer_versions(void);

/* Each peer file's part of the list. */
const bench_peer* bench_peers_fcl(size_t* out_count);
const char* bench_version_fcl(void);
const bench_peer* bench_peers_ode(size_t* out_count);
const char* bench_version_ode(void);
const bench_peer* bench_peers_bullet(size_t* out_count);
const char* bench_version_bullet(void);

#ifdef __cplusplus
}
#endif

#endif
