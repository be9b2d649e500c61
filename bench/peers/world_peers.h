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

/// A scene of mixed convex bodies on the mesh ground (the grid of test_scene_layout.mesh_ground),
/// for the scenes that are not ground-and-unit-boxes (`sepax bench mixed`).
typedef enum bench_body_shape {
    BENCH_BODY_BOX,
    BENCH_BODY_SPHERE,
    BENCH_BODY_CAPSULE,
    BENCH_BODY_HULL
} bench_body_shape;

typedef struct bench_world_body {
    bench_body_shape shape;
    spx_vec3 half_extents;       /* BOX, m */
    float radius;                /* SPHERE, CAPSULE, m */
    float half_height;           /* CAPSULE: half the segment along the body's y axis, radius excluded */
    const spx_vec3* points;      /* HULL: the hull's corners in the body frame (shared by bodies alike) */
    uint32_t point_count;        /* HULL */
    spx_vec3 center_of_mass;     /* body frame, m: where sepax puts it (an engine centring its bodies) */
    float mass;                  /* kg, sepax's */
    float friction, restitution; /* sepax's coefficients: friction mixed as sqrt(a b), restitution max */
    spx_transform start;         /* the body frame's starting pose, at rest */
} bench_world_body;

typedef struct bench_world_bodies {
    const bench_world_body* bodies;
    uint32_t count;
    float ground_friction, ground_restitution;
    spx_vec3 gravity; /* m/s^2 */
    float dt;         /* s a step */
    bool sleep;       /* false: sleeping off */
} bench_world_bodies;

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
    /// A world of mixed bodies (read, step, contacts and destroy as above; poses of the body frames);
    /// NULL in a peer that cannot build them, and its world NULL on failure.
    void* (*create_bodies)(const bench_world_bodies* scene);
    /// Bodies asleep now (the engine's own sleeping).
    uint32_t (*asleep)(const void* world);
} bench_world_peer;

const bench_world_peer* bench_world_peer_bullet(void);
/// Bullet with its continuous collision on every box (swept sphere, motion clamped at the hit).
const bench_world_peer* bench_world_peer_bullet_ccd(void);
const bench_world_peer* bench_world_peer_ode(void);

#ifdef __cplusplus
}
#endif

#endif
