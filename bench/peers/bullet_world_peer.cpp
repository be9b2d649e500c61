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
    std::vector<std::unique_ptr<btRigidBody>> boxes;       // every dynamic body, in creation order
    std::vector<std::unique_ptr<btCollisionShape>> shapes; // create_bodies: one a body or a hull
    std::vector<btVector3> centers;                        // create_bodies: sepax's body frame to the centre
    btScalar dt = 0;

    ~World()
    {
        for (auto& b : boxes) world.removeRigidBody(b.get());
        if (ground) world.removeRigidBody(ground.get());
    }
};

// The scene's mesh ground: 100x100 quads of 1 m, top at y = 0, wound counter-clockwise from above.
void add_mesh_ground(World& w)
{
    w.ground_mesh = std::make_unique<btTriangleMesh>();
    auto corner = [](int i, int j) { return btVector3(btScalar(i - 50), 0, btScalar(j - 50)); };
    for (int i = 0; i < 100; ++i)
        for (int j = 0; j < 100; ++j) {
            w.ground_mesh->addTriangle(corner(i, j), corner(i, j + 1), corner(i + 1, j + 1));
            w.ground_mesh->addTriangle(corner(i, j), corner(i + 1, j + 1), corner(i + 1, j));
        }
    w.ground_shape = std::make_unique<btBvhTriangleMeshShape>(w.ground_mesh.get(), true);
}

void add_ground(World& w, btVector3 origin, float friction, float restitution)
{
    btRigidBody::btRigidBodyConstructionInfo ground_info(0, nullptr, w.ground_shape.get());
    ground_info.m_startWorldTransform.setIdentity();
    ground_info.m_startWorldTransform.setOrigin(origin);
    ground_info.m_friction = std::sqrt(friction);
    ground_info.m_restitution = restitution;
    w.ground = std::make_unique<btRigidBody>(ground_info);
    w.world.addRigidBody(w.ground.get());
}

void* create(const test_scene_layout* scene)
{
    try {
        auto w = std::make_unique<World>();
        w->dt = scene->dt;
        w->world.setGravity(bench_to_bt(scene->gravity));

        btVector3 ground_origin = bench_to_bt(scene->ground_center);
        if (scene->mesh_ground) {
            add_mesh_ground(*w);
            ground_origin = btVector3(0, 0, 0);
        } else {
            w->ground_shape = std::make_unique<btBoxShape>(bench_to_bt(scene->ground_half_extents));
        }
        add_ground(*w, ground_origin, scene->ground_friction, scene->restitution);

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

// Mixed bodies: btBoxShape (its margin inside the half extents), btSphereShape, btCapsuleShape
// (axis y, its height the segment's length, as sepax's), btConvexHullShape of the sepax hull's
// corners (Bullet's default margin, 0.04 m, outside them). Bullet puts a body's centre of mass at
// its origin: the shapes are moved by sepax's centre of mass, and read back in sepax's body frame.
// Masses are sepax's, inertia Bullet's own for its shapes (calculateLocalInertia).
void* create_bodies(const bench_world_bodies* scene)
{
    try {
        auto w = std::make_unique<World>();
        w->dt = scene->dt;
        w->world.setGravity(bench_to_bt(scene->gravity));
        add_mesh_ground(*w);
        add_ground(*w, btVector3(0, 0, 0), scene->ground_friction, scene->ground_restitution);
        w->boxes.reserve(scene->count);
        w->centers.reserve(scene->count);
        std::vector<std::pair<const spx_vec3*, btCollisionShape*>> hulls; // one Bullet hull a sepax hull
        for (uint32_t i = 0; i < scene->count; ++i) {
            const bench_world_body& b = scene->bodies[i];
            const btVector3 c = bench_to_bt(b.center_of_mass);
            btCollisionShape* shape = nullptr;
            for (auto& h : hulls)
                if (b.shape == BENCH_BODY_HULL && h.first == b.points) shape = h.second;
            if (!shape) {
                std::unique_ptr<btCollisionShape> own;
                switch (b.shape) {
                case BENCH_BODY_BOX:
                    own = std::make_unique<btBoxShape>(bench_to_bt(b.half_extents));
                    break;
                case BENCH_BODY_SPHERE:
                    own = std::make_unique<btSphereShape>(b.radius);
                    break;
                case BENCH_BODY_CAPSULE:
                    own = std::make_unique<btCapsuleShape>(b.radius, 2 * b.half_height);
                    break;
                case BENCH_BODY_HULL: {
                    auto hull = std::make_unique<btConvexHullShape>();
                    for (uint32_t k = 0; k < b.point_count; ++k) hull->addPoint(bench_to_bt(b.points[k]) - c, false);
                    hull->recalcLocalAabb();
                    own = std::move(hull);
                    break;
                }
                }
                if (!own) return nullptr;
                shape = own.get();
                if (b.shape == BENCH_BODY_HULL) hulls.emplace_back(b.points, shape);
                w->shapes.push_back(std::move(own));
            }
            // Boxes, spheres and capsules are centred on their body frame (c is zero for them).
            btVector3 inertia(0, 0, 0);
            shape->calculateLocalInertia(b.mass, inertia);
            const btQuaternion q(b.start.q.x, b.start.q.y, b.start.q.z, b.start.q.w);
            btRigidBody::btRigidBodyConstructionInfo info(b.mass, nullptr, shape, inertia);
            info.m_startWorldTransform = btTransform(q, bench_to_bt(b.start.p) + quatRotate(q, c));
            info.m_friction = std::sqrt(b.friction);
            info.m_restitution = b.restitution;
            auto body = std::make_unique<btRigidBody>(info);
            if (!scene->sleep) body->setActivationState(DISABLE_DEACTIVATION);
            w->world.addRigidBody(body.get());
            w->boxes.push_back(std::move(body));
            w->centers.push_back(c);
        }
        return w.release();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

uint32_t asleep(const void* world)
{
    const World& w = *static_cast<const World*>(world);
    uint32_t n = 0;
    for (const auto& b : w.boxes) n += b->getActivationState() == ISLAND_SLEEPING;
    return n;
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
            const btVector3 c = w.centers.empty() ? btVector3(0, 0, 0) : w.centers[i];
            poses[i].p = from_bt(t.getOrigin() - quatRotate(q, c));
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

const bench_world_peer peer = { "bullet", describe, create, step, read, contacts, destroy, create_bodies, asleep };
const bench_world_peer peer_ccd = { "bullet-ccd", describe_ccd, create_ccd, step,  read,
                                    contacts,     destroy,      nullptr,    asleep };

} // namespace

extern "C" const bench_world_peer* bench_world_peer_bullet(void) { return &peer; }

extern "C" const bench_world_peer* bench_world_peer_bullet_ccd(void) { return &peer_ccd; }
