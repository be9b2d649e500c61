// The Bullet world the stepping peers build (bullet_world_peer.cpp, bullet_joint_peer.cpp): Bullet's
// default collision configuration and dispatcher, a DBVT broad phase and the sequential-impulse
// solver, all at their defaults. A peer's own world derives from it and adds its bodies.
#ifndef SPX_BENCH_BULLET_WORLD_H
#define SPX_BENCH_BULLET_WORLD_H

#include <sepax/math_types.h>

#include <btBulletDynamicsCommon.h>

struct BenchBulletWorld {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{ &configuration };
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{ &dispatcher, &broadphase, &solver, &configuration };
};

inline btVector3 bench_to_bt(spx_vec3 v) { return btVector3(v.x, v.y, v.z); }

#endif
