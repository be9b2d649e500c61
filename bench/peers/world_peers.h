/* sepax_bench world: other engines running the world scenes, behind a C interface so the
   harness stays C. Each peer builds its own world from the scene's layout (tests/support/scenes.h:
   the same starting poses, sizes, masses, materials, ground, gravity and step as sepax's), steps it,
   and hands back the boxes' poses and velocities, which the harness measures with the same routine
   for every engine. Compiled only with -DSEPAX_BENCH_PEERS=ON and when the engine is found. */
#ifndef SPX_BENCH_WORLD_PEERS_H
#define SPX_BENCH_WORLD_PEERS_H

#include "support/scenes.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One other engine.
typedef struct bench_world_peer {
    const char* engine; /* "bullet", "ode" */
    /// Its version, precision and the settings it runs with (one line for the report).
    const char* (*describe)(void);
    /// A world holding the ground and scene->count boxes at their starting poses and velocity; NULL
    /// on failure.
    void* (*create)(const test_scene_layout* scene);
    /// One step of scene->dt.
    void (*step)(void* world);
    /// The boxes in creation order: pose (origin and rotation), velocity (m/s) and angular velocity
    /// (rad/s, world axes). Any pointer may be NULL.
    void (*read)(const void* world, spx_transform* poses, spx_vec3* v, spx_vec3* w);
    /// Contact points the last step solved (for the report: how much work the solver had).
    uint32_t (*contacts)(const void* world);
    void (*destroy)(void* world);
} bench_world_peer;

const bench_world_peer* bench_world_peer_bullet(void);
/// Bullet with its continuous collision on every box (swept sphere, motion clamped at the hit).
const bench_world_peer* bench_world_peer_bullet_ccd(void);
const bench_world_peer* bench_world_peer_ode(void);

#ifdef __cplusplus
}
#endif

#endif
