// sepax_bench world peer: Bullet's rigid-body world on the world scenes. A btDiscreteDynamicsWorld
// with btDbvtBroadphase, btCollisionDispatcher on btDefaultCollisionConfiguration and
// btSequentialImpulseConstraintSolver at Bullet's default solver settings (10 iterations, warm
// starting, split impulse). The ground is a static btBoxShape of the scene's half extents
// (50, 1, 50), or for falling_mesh a btBvhTriangleMeshShape of the same 100x100-quad grid as sepax's
// (Bullet's default contact processing: no btAdjustInternalEdgeContacts), every box a
// btBoxShape(0.5) of mass 1 with the inertia Bullet computes for it.
//
// Friction: Bullet multiplies the two bodies' coefficients, sepax takes sqrt(a b); each body here
// gets sqrt of its sepax coefficient, so every pair's product is sepax's mixed value. Restitution 0.
// stepSimulation(dt, 0): with maxSubSteps 0 Bullet takes exactly one internal step of dt a call (no
// fixed-step accumulator, no interpolation). Sleeping: Bullet's defaults (0.8 m/s, 1 rad/s, 2 s)
// where the scene sleeps, DISABLE_DEACTIVATION on every box where the scene forces sleeping off.
// The boxes start at the layout's start_velocity. bench_world_peer_bullet_ccd: the same with
// Bullet's CCD on every box (the paper shot of `sepax bench ccd`).
#include "peers/world_peers.h"

#include "peers/bullet_world.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

namespace {

spx_vec3 from_bt(const btVector3& v) { return spx_vec3{ float(v.x()), float(v.y()), float(v.z()) }; }

struct World : BenchBulletWorld {
    std::unique_ptr<btCollisionShape> ground_shape;
    std::unique_ptr<btBoxShape> box_shape;
    std::unique_ptr<btTriangleMesh> ground_mesh;
    std::unique_ptr<btRigidBody> ground;
    std::vector<std::unique_ptr<btRigidBody>> boxes;
    btScalar dt = 0;

    ~World()
    {
        for (auto& b : boxes) world.removeRigidBody(b.get());
        if (ground) world.removeRigidBody(ground.get());
    }
};

void* create(const test_scene_layout* scene)
{
    try {
        auto w = std::make_unique<World>();
        w->dt = scene->dt;
        w->world.setGravity(bench_to_bt(scene->gravity));

        btVector3 ground_origin = bench_to_bt(scene->ground_center);
        if (scene->mesh_ground) {
            // The scene's grid: 100x100 quads of 1 m, top at y = 0, wound counter-clockwise from above.
            w->ground_mesh = std::make_unique<btTriangleMesh>();
            auto corner = [](int i, int j) { return btVector3(btScalar(i - 50), 0, btScalar(j - 50)); };
            for (int i = 0; i < 100; ++i)
                for (int j = 0; j < 100; ++j) {
                    w->ground_mesh->addTriangle(corner(i, j), corner(i, j + 1), corner(i + 1, j + 1));
                    w->ground_mesh->addTriangle(corner(i, j), corner(i + 1, j + 1), corner(i + 1, j));
                }
            w->ground_shape = std::make_unique<btBvhTriangleMeshShape>(w->ground_mesh.get(), true);
            ground_origin = btVector3(0, 0, 0);
        } else {
            w->ground_shape = std::make_unique<btBoxShape>(bench_to_bt(scene->ground_half_extents));
        }
        btRigidBody::btRigidBodyConstructionInfo ground_info(0, nullptr, w->ground_shape.get());
        ground_info.m_startWorldTransform.setIdentity();
        ground_info.m_startWorldTransform.setOrigin(ground_origin);
        ground_info.m_friction = std::sqrt(scene->ground_friction);
        ground_info.m_restitution = scene->restitution;
        w->ground = std::make_unique<btRigidBody>(ground_info);
        w->world.addRigidBody(w->ground.get());

        // btBoxShape keeps its margin (0.04) inside the given half extents: the box is 1 m wide.
        w->box_shape = std::make_unique<btBoxShape>(bench_to_bt(scene->box_half_extents));
        btVector3 inertia(0, 0, 0);
        w->box_shape->calculateLocalInertia(scene->box_mass, inertia);
        w->boxes.reserve(scene->count);
        for (uint32_t i = 0; i < scene->count; ++i) {
            const spx_transform& t = scene->start[i];
            btRigidBody::btRigidBodyConstructionInfo info(scene->box_mass, nullptr, w->box_shape.get(), inertia);
            info.m_startWorldTransform = btTransform(btQuaternion(t.q.x, t.q.y, t.q.z, t.q.w), bench_to_bt(t.p));
            info.m_friction = std::sqrt(scene->box_friction);
            info.m_restitution = scene->restitution;
            auto body = std::make_unique<btRigidBody>(info);
            body->setLinearVelocity(bench_to_bt(scene->start_velocity));
            if (!scene->sleep) body->setActivationState(DISABLE_DEACTIVATION);
            w->world.addRigidBody(body.get());
            w->boxes.push_back(std::move(body));
        }
        return w.release();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void step(void* world)
{
    World& w = *static_cast<World*>(world);
    w.world.stepSimulation(w.dt, 0);
}

void read(const void* world, spx_transform* poses, spx_vec3* v, spx_vec3* av)
{
    const World& w = *static_cast<const World*>(world);
    for (size_t i = 0; i < w.boxes.size(); ++i) {
        const btRigidBody& b = *w.boxes[i];
        if (poses) {
            const btTransform& t = b.getWorldTransform();
            btQuaternion q = t.getRotation();
            poses[i].p = from_bt(t.getOrigin());
            poses[i].q = spx_quat{ float(q.x()), float(q.y()), float(q.z()), float(q.w()) };
        }
        if (v) v[i] = from_bt(b.getLinearVelocity());
        if (av) av[i] = from_bt(b.getAngularVelocity());
    }
}

uint32_t contacts(const void* world)
{
    const World& w = *static_cast<const World*>(world);
    const btCollisionDispatcher& d = w.dispatcher;
    uint32_t n = 0;
    for (int i = 0; i < d.getNumManifolds(); ++i) n += uint32_t(d.getManifoldByIndexInternal(i)->getNumContacts());
    return n;
}

void destroy(void* world) { delete static_cast<World*>(world); }

const char* describe(void)
{
    static char text[256];
    if (!text[0]) {
        btContactSolverInfo defaults;
        std::snprintf(
            text, sizeof text,
            "Bullet %d.%02d (%s): btDiscreteDynamicsWorld, btDbvtBroadphase, btSequentialImpulseConstraintSolver "
            "(%d iterations, split impulse %s), stepSimulation(dt, 0), friction sqrt(mu) a body",
            btGetVersion() / 100, btGetVersion() % 100, sizeof(btScalar) == sizeof(double) ? "double" : "float",
            defaults.m_numIterations, defaults.m_splitImpulse ? "on" : "off");
    }
    return text;
}

// Bullet's own continuous collision, as its CcdPhysicsDemo sets it: a body moving more than its
// half width in a step is swept as a sphere of 0.9 half width, and its motion is clamped at the
// first hit (btDiscreteDynamicsWorld::integrateTransforms) with predictive contacts beside.
constexpr float ccd_threshold = 1.0f, ccd_sphere = 0.9f; // of the smallest half extent

void* create_ccd(const test_scene_layout* scene)
{
    World* w = static_cast<World*>(create(scene));
    const spx_vec3 h = scene->box_half_extents;
    const float half = std::fmin(h.x, std::fmin(h.y, h.z));
    if (w)
        for (auto& b : w->boxes) {
            b->setCcdMotionThreshold(ccd_threshold * half);
            b->setCcdSweptSphereRadius(ccd_sphere * half);
        }
    return w;
}

const char* describe_ccd(void)
{
    static char text[384];
    if (!text[0])
        std::snprintf(text, sizeof text,
                      "%s; CCD on: setCcdMotionThreshold(%g half width), setCcdSweptSphereRadius(%g half width)",
                      describe(), double(ccd_threshold), double(ccd_sphere));
    return text;
}

const bench_world_peer peer = { "bullet", describe, create, step, read, contacts, destroy };
const bench_world_peer peer_ccd = { "bullet-ccd", describe_ccd, create_ccd, step, read, contacts, destroy };

} // namespace

extern "C" const bench_world_peer* bench_world_peer_bullet(void) { return &peer; }

extern "C" const bench_world_peer* bench_world_peer_bullet_ccd(void) { return &peer_ccd; }
