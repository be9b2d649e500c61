/* sepax_bench round's peers: another engine's translational sweep on the same sphere and capsule
   problems (tests/support/round_cases.h), behind a C interface. */
#ifndef SPX_BENCH_ROUND_PEER_H
#define SPX_BENCH_ROUND_PEER_H

#ifdef __cplusplus
extern "C" {
#endif

#include "support/round_cases.h"

/// Prepares the peer's shapes and poses for `count` problems; NULL when it cannot (out of memory).
void* bench_round_bullet_prepare(const round_case* cases, size_t count);
/// One pass: out[i] = 1 where the peer finds contact within [0, tmax], else 0.
void bench_round_bullet_run(void* prepared, size_t count, uint8_t* out);
void bench_round_bullet_free(void* prepared);
/// "Bullet 3.24 btGjkConvexCast".
const char* bench_round_bullet_name(void);

#ifdef __cplusplus
}
#endif

#endif
