/* sepax_bench round: the sphere and capsule queries against convex hulls, and the peers' answers to
   the same problems. */
#ifndef SPX_BENCH_ROUND_HULL_H
#define SPX_BENCH_ROUND_HULL_H

#include <sepax/hull.h>
#include <sepax/round.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One problem: a sphere (p[0] == p[1]) or a capsule A moving at va, a placed hull B moving at vb.
typedef struct bench_round_hull_problem {
    bool capsule;
    spx_capsule a;
    spx_placed_hull b;
    spx_vec3 va, vb;
    float tmax;
} bench_round_hull_problem;

/// Prints the table (ns a query, sepax and the peers, and how often the peers' yes/no agrees with
/// sepax's); returns 3 when a sepax call failed, else 0.
int bench_round_hull_table(int runs, double min_ms, bool peers);

/* The peers (bench/peers/bullet_round_peer.cpp, fcl_round_peer.cpp), each NULL-prepared when out of
   memory. Static: out[i] 1 where the peer finds the pieces touching or overlapping. Swept: out[i] 1
   where it finds contact within [0, tmax]. */
void* bench_round_hull_bullet_prepare(const bench_round_hull_problem* problems, size_t count);
void bench_round_hull_bullet_overlap(void* prepared, size_t count, uint8_t* out);
void bench_round_hull_bullet_sweep(void* prepared, size_t count, uint8_t* out);
void bench_round_hull_bullet_free(void* prepared);
void* bench_round_hull_fcl_prepare(const bench_round_hull_problem* problems, size_t count);
void bench_round_hull_fcl_overlap(void* prepared, size_t count, uint8_t* out);
void bench_round_hull_fcl_free(void* prepared);

#ifdef __cplusplus
}
#endif

#endif
