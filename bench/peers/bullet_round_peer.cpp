// sepax_bench round peer: Bullet's translational convex cast, btGjkConvexCast::calcTimeOfImpact, on
// btSphereShape, btCapsuleShape (its axis along local y, turned onto the capsule's segment), btBoxShape
// and btTriangleShape, each pose swept from t = 0 to tmax. Margins are Bullet's defaults except the
// triangle's, set to 0 (a box's margin lies inside its half extents).
#include "peers/hull_cache.h"
#include "peers/round_peer.h"
#include "round_hull.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

namespace {

struct Problem {
    std::unique_ptr<btConvexShape> a, b;
    btTransform from_a, to_a, from_b, to_b;
};

btVector3 v(spx_vec3 p) { return btVector3(p.x, p.y, p.z); }

// A capsule of Bullet's (axis y) placed on the segment p0-p1.
std::unique_ptr<btConvexShape> capsule(const spx_capsule& c, btTransform* pose)
{
    btVector3 p0 = v(c.p[0]), p1 = v(c.p[1]), d = p1 - p0;
    btScalar len = d.length();
    btQuaternion q = btQuaternion::getIdentity();
    if (len > 0) {
        btVector3 y(0, 1, 0), u = d / len, axis = y.cross(u);
        btScalar s = axis.length(), cosine = y.dot(u);
        if (s > 1e-7f) q = btQuaternion(axis / s, std::atan2(s, cosine));
        else if (cosine < 0) q = btQuaternion(btVector3(1, 0, 0), SIMD_PI);
    }
    pose->setIdentity();
    pose->setRotation(q);
    pose->setOrigin((p0 + p1) * 0.5f);
    return std::unique_ptr<btConvexShape>(new btCapsuleShape(c.radius, len));
}

std::unique_ptr<btConvexShape> piece(const test_round_case& c, int which, btTransform* pose)
{
    pose->setIdentity();
    const bool round = which == 0 || test_round_kind_b(c.kind) <= 1;
    const bool is_capsule = which == 0 ? test_round_kind_a_is_capsule(c.kind) : test_round_kind_b(c.kind) == 1;
    if (round && is_capsule) return capsule(c.capsule[which], pose);
    if (round) {
        pose->setOrigin(v(c.sphere[which].center));
        return std::unique_ptr<btConvexShape>(new btSphereShape(c.sphere[which].radius));
    }
    if (test_round_kind_b(c.kind) == 2) {
        const spx_mat3& r = c.box.rotation;
        pose->setBasis(btMatrix3x3(r.col[0].x, r.col[1].x, r.col[2].x, r.col[0].y, r.col[1].y, r.col[2].y, r.col[0].z,
                                   r.col[1].z, r.col[2].z));
        pose->setOrigin(v(c.box.center));
        return std::unique_ptr<btConvexShape>(new btBoxShape(v(c.box.half_extents)));
    }
    auto* t = new btTriangleShape(v(c.tri.v[0]), v(c.tri.v[1]), v(c.tri.v[2]));
    t->setMargin(0);
    return std::unique_ptr<btConvexShape>(t);
}

} // namespace

extern "C" void* bench_round_bullet_prepare(const test_round_case* cases, size_t count)
{
    try {
        auto* problems = new std::vector<Problem>(count);
        for (size_t i = 0; i < count; ++i) {
            Problem& p = (*problems)[i];
            p.a = piece(cases[i], 0, &p.from_a);
            p.b = piece(cases[i], 1, &p.from_b);
            p.to_a = p.from_a;
            p.to_b = p.from_b;
            p.to_a.setOrigin(p.from_a.getOrigin() + v(cases[i].velocity[0]) * cases[i].tmax);
            p.to_b.setOrigin(p.from_b.getOrigin() + v(cases[i].velocity[1]) * cases[i].tmax);
        }
        return problems;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

extern "C" void bench_round_bullet_run(void* prepared, size_t count, uint8_t* out)
{
    auto& problems = *static_cast<std::vector<Problem>*>(prepared);
    btVoronoiSimplexSolver simplex;
    for (size_t i = 0; i < count; ++i) {
        Problem& p = problems[i];
        btGjkConvexCast cast(p.a.get(), p.b.get(), &simplex);
        btConvexCast::CastResult result;
        out[i] = cast.calcTimeOfImpact(p.from_a, p.to_a, p.from_b, p.to_b, result) ? 1 : 0;
    }
}

extern "C" void bench_round_bullet_free(void* prepared) { delete static_cast<std::vector<Problem>*>(prepared); }

extern "C" const char* bench_round_bullet_name(void)
{
    static char name[64];
    std::snprintf(name, sizeof name, "Bullet %d.%02d btGjkConvexCast", btGetVersion() / 100, btGetVersion() % 100);
    return name;
}

// Spheres and capsules against convex hulls (bench/round_hull.c): a btConvexHullShape of the hull's
// corners (margin 0, so that its surface is the hull's) placed at the hull's pose; the static question
// through btGjkPairDetector with Bullet's GJK/EPA penetration solver (touching or overlapping where
// the distance it reports is <= 0), the swept one through btGjkConvexCast.
namespace {

struct HullProblem {
    std::unique_ptr<btConvexShape> a;
    btTransform from_a, to_a, from_b, to_b;
    size_t hull; // into HullSet::hulls.shapes
};

struct HullSet {
    HullCache<std::unique_ptr<btConvexHullShape>> hulls;
    std::vector<HullProblem> problems;
};

std::unique_ptr<btConvexHullShape> hull_shape(const spx_hull* h)
{
    std::unique_ptr<btConvexHullShape> shape(new btConvexHullShape());
    for (const spx_vec3& c : hull_corners(h)) shape->addPoint(v(c), false);
    shape->recalcLocalAabb();
    shape->setMargin(0);
    return shape;
}

} // namespace

extern "C" void* bench_round_hull_bullet_prepare(const bench_round_hull_problem* problems, size_t count)
{
    try {
        auto* set = new HullSet;
        set->problems.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const bench_round_hull_problem& q = problems[i];
            HullProblem& p = set->problems[i];
            if (q.capsule) {
                p.a = capsule(q.a, &p.from_a);
            } else {
                p.from_a.setIdentity();
                p.from_a.setOrigin(v(q.a.p[0]));
                p.a.reset(new btSphereShape(q.a.radius));
            }
            const spx_mat3& r = q.b.rotation;
            p.from_b.setIdentity();
            p.from_b.setBasis(btMatrix3x3(r.col[0].x, r.col[1].x, r.col[2].x, r.col[0].y, r.col[1].y, r.col[2].y,
                                          r.col[0].z, r.col[1].z, r.col[2].z));
            p.from_b.setOrigin(v(q.b.position));
            p.hull = set->hulls.index(q.b.hull, hull_shape);
            p.to_a = p.from_a;
            p.to_b = p.from_b;
            p.to_a.setOrigin(p.from_a.getOrigin() + v(q.va) * q.tmax);
            p.to_b.setOrigin(p.from_b.getOrigin() + v(q.vb) * q.tmax);
        }
        return set;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

extern "C" void bench_round_hull_bullet_overlap(void* prepared, size_t count, uint8_t* out)
{
    auto& set = *static_cast<HullSet*>(prepared);
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    for (size_t i = 0; i < count; ++i) {
        HullProblem& p = set.problems[i];
        btGjkPairDetector gjk(p.a.get(), set.hulls.shapes[p.hull].get(), &simplex, &epa);
        btGjkPairDetector::ClosestPointInput input;
        input.m_transformA = p.from_a;
        input.m_transformB = p.from_b;
        btPointCollector result;
        gjk.getClosestPoints(input, result, nullptr);
        out[i] = result.m_hasResult && result.m_distance <= 0 ? 1 : 0;
    }
}

extern "C" void bench_round_hull_bullet_sweep(void* prepared, size_t count, uint8_t* out)
{
    auto& set = *static_cast<HullSet*>(prepared);
    btVoronoiSimplexSolver simplex;
    for (size_t i = 0; i < count; ++i) {
        HullProblem& p = set.problems[i];
        btGjkConvexCast cast(p.a.get(), set.hulls.shapes[p.hull].get(), &simplex);
        btConvexCast::CastResult result;
        out[i] = cast.calcTimeOfImpact(p.from_a, p.to_a, p.from_b, p.to_b, result) ? 1 : 0;
    }
}

extern "C" void bench_round_hull_bullet_free(void* prepared) { delete static_cast<HullSet*>(prepared); }
