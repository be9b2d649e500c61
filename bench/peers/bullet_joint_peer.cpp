// sepax_bench joints peer: Bullet on the jointed scenes. A btDiscreteDynamicsWorld (btDbvtBroadphase,
// btSequentialImpulseConstraintSolver at its defaults: 10 iterations, warm starting, split impulse),
// each box a btBoxShape with the inertia Bullet computes (mass 0: static), no damping, deactivation
// off; each joint at its defaults with collisions between its two bodies off: a ball joint a
// btPoint2PointConstraint (tau 0.3, damping 1), a hinge a btHingeConstraint (its axis, Bullet's frame
// z, on the scene's x; limit -upper..-lower, Bullet's angle being measured the other way round), a cone-twist a btConeTwistConstraint (swing spans both the
// cone, twist span the larger of |lower| and |upper|), a weld a btFixedConstraint. A joint to the
// world joins btTypedConstraint::getFixedBody(). stepSimulation(dt, 0): one internal step of dt a call.
#include "joint_scenes.h"

#include "peers/bullet_world.h"

#include <cstdio>
#include <memory>
#include <new>
#include <vector>

namespace {

struct World : BenchBulletWorld {
    std::vector<std::unique_ptr<btBoxShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btTypedConstraint>> joints;
    btScalar dt = 0;

    ~World()
    {
        for (auto& j : joints) world.removeConstraint(j.get());
        for (auto& b : bodies) world.removeRigidBody(b.get());
    }
};

const char* describe()
{
    static char text[160];
    std::snprintf(text, sizeof text,
                  "bullet %d.%02d (%s): btSequentialImpulseConstraintSolver defaults; btPoint2Point, btHinge, "
                  "btConeTwist, btFixed constraints",
                  btGetVersion() / 100, btGetVersion() % 100, sizeof(btScalar) == sizeof(double) ? "double" : "float");
    return text;
}

void* create(const bench_joint_scene* scene)
{
    try {
        auto w = std::make_unique<World>();
        w->dt = scene->dt;
        w->world.setGravity(btVector3(0, btScalar(-9.81), 0));
        for (int i = 0; i < scene->body_count; ++i) {
            const bench_joint_body& b = scene->bodies[i];
            w->shapes.push_back(std::make_unique<btBoxShape>(bench_to_bt(b.half)));
            btVector3 inertia(0, 0, 0);
            w->shapes.back()->calculateLocalInertia(b.mass, inertia);
            btRigidBody::btRigidBodyConstructionInfo info(b.mass, nullptr, w->shapes.back().get(), inertia);
            info.m_startWorldTransform.setIdentity();
            info.m_startWorldTransform.setOrigin(bench_to_bt(b.position));
            w->bodies.push_back(std::make_unique<btRigidBody>(info));
            w->bodies.back()->setLinearVelocity(bench_to_bt(b.velocity));
            if (b.mass > 0) w->bodies.back()->setActivationState(DISABLE_DEACTIVATION);
            w->world.addRigidBody(w->bodies.back().get());
        }
        for (int k = 0; k < scene->joint_count; ++k) {
            const bench_joint& j = scene->joints[k];
            const btVector3 p = bench_to_bt(j.anchor);
            btRigidBody* rb = w->bodies[size_t(j.b)].get();
            const btVector3 in_b = p - bench_to_bt(scene->bodies[j.b].position);
            if (j.kind != BENCH_JOINT_BALL) {
                // Bodies start unturned: the joint's world axes are its axes in each body.
                btMatrix3x3 basis(btQuaternion(j.frame.x, j.frame.y, j.frame.z, j.frame.w));
                if (j.kind == BENCH_JOINT_HINGE)
                    basis = basis * btMatrix3x3(btQuaternion(btVector3(0, 1, 0), SIMD_HALF_PI));
                btRigidBody& ra = j.a < 0 ? btTypedConstraint::getFixedBody() : *w->bodies[size_t(j.a)];
                const btVector3 in_a = j.a < 0 ? p : p - bench_to_bt(scene->bodies[j.a].position);
                const btTransform fa(basis, in_a), fb(basis, in_b);
                if (j.kind == BENCH_JOINT_HINGE) {
                    auto h = std::make_unique<btHingeConstraint>(ra, *rb, fa, fb);
                    // Bullet's hinge angle turns the other way (B's right-handed turn about the axis reads
                    // negative), so the range is mirrored.
                    if (j.lower < j.upper) h->setLimit(-j.upper, -j.lower);
                    w->joints.push_back(std::move(h));
                } else if (j.kind == BENCH_JOINT_CONE_TWIST) {
                    auto c = std::make_unique<btConeTwistConstraint>(ra, *rb, fa, fb);
                    c->setLimit(j.swing, j.swing, btMax(btFabs(j.lower), btFabs(j.upper)));
                    w->joints.push_back(std::move(c));
                } else {
                    w->joints.push_back(std::make_unique<btFixedConstraint>(ra, *rb, fa, fb));
                }
            } else if (j.a < 0) {
                w->joints.push_back(std::make_unique<btPoint2PointConstraint>(*rb, in_b));
            } else {
                btRigidBody* ra = w->bodies[size_t(j.a)].get();
                const btVector3 in_a = p - bench_to_bt(scene->bodies[j.a].position);
                w->joints.push_back(std::make_unique<btPoint2PointConstraint>(*ra, *rb, in_a, in_b));
            }
            w->world.addConstraint(w->joints.back().get(), true);
        }
        return w.release();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void step(void* world)
{
    World* w = static_cast<World*>(world);
    w->world.stepSimulation(w->dt, 0);
}

void read(const void* world, spx_transform* poses)
{
    const World* w = static_cast<const World*>(world);
    for (size_t i = 0; i < w->bodies.size(); ++i) {
        const btTransform& t = w->bodies[i]->getWorldTransform();
        const btQuaternion q = t.getRotation();
        poses[i].p = spx_vec3{ float(t.getOrigin().x()), float(t.getOrigin().y()), float(t.getOrigin().z()) };
        poses[i].q = spx_quat{ float(q.x()), float(q.y()), float(q.z()), float(q.w()) };
    }
}

void destroy(void* world) { delete static_cast<World*>(world); }

const bench_joint_peer peer = { "bullet", describe, create, step, read, destroy };

} // namespace

extern "C" const bench_joint_peer* bench_joint_peer_bullet(void) { return &peer; }
