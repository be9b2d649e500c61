/* `sepax bench queries`: other engines answering the same ray casts and box casts on the same scene
   (tests/support/query_scene.h), behind a C interface so the harness stays C. Each peer builds its own
   collision world from the scene's bodies as they stand (spx_body_get_transform, the shape defs, the
   meshes' vertices and indices). Compiled only with -DSEPAX_BENCH_PEERS=ON when the engine is found. */
#ifndef SPX_BENCH_QUERY_PEERS_H
#define SPX_BENCH_QUERY_PEERS_H

#include "support/query_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_query_peer {
    const char* engine;
    /// Its version, precision and the calls it answers with (one line for the report).
    const char* (*describe)(void);
    /// The scene's bodies in the engine's collision world; NULL on failure.
    void* (*create)(const test_query_scene* scene);
    /// The closest hit's fraction of the translation along the ray, or -1 for none.
    float (*ray)(void* world, spx_vec3 origin, spx_vec3 translation);
    /// The closest hit's fraction of the translation moving the box, or -1 for none.
    float (*cast_box)(void* world, const spx_obb* box, spx_vec3 translation);
    void (*destroy)(void* world);
} bench_query_peer;

/// Bullet: btCollisionWorld::rayTest and convexSweepTest with the closest-hit callbacks.
const bench_query_peer* bench_query_peer_bullet(void);

#ifdef __cplusplus
}
#endif

#endif
