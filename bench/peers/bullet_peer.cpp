// sepax_bench collide peer: Bullet's box-box contact generator, btBoxBoxDetector::getClosestPoints (Bullet's
// copy of ODE's dBoxBox, up to 4 points), called as btBoxBoxCollisionAlgorithm calls it: a detector
// on two btBoxShape, the two transforms in a ClosestPointInput, the points into a Result. And its
// box-triangle contact: btConvexConvexAlgorithm's GJK with EPA (btGjkPairDetector on a btBoxShape and
// a btTriangleShape, one point a call; Bullet gathers a manifold over frames), margins 0 and points
// only where they overlap (maximum distance 0), as sepax's manifold at margin 0. The same with the box
// given as a btConvexHullShape of its 8 corners: Bullet's convex hull against a triangle.
#include "peers/peers.h"

#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <LinearMath/btScalar.h>
#include <LinearMath/btTransform.h>

#include <cstdio>
#include <new>
#include <vector>

namespace {

struct Pairs {
    std::vector<btBoxShape> shape_a, shape_b;
    std::vector<btTransform> pose_a, pose_b;
};

// The least a Result can be: keep the first points, count them all.
struct Collect final : btDiscreteCollisionDetectorInterface::Result {
    int count = 0;
    btVector3 normal[4];
    btVector3 point[4];
    btScalar depth[4];

    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3& normal_on_b, const btVector3& point_in_world, btScalar d) override
    {
        if (count < 4) {
            normal[count] = normal_on_b;
            point[count] = point_in_world;
            depth[count] = d;
        }
        ++count;
    }
};

btTransform to_pose(const spx_obb& box)
{
    const spx_mat3& r = box.rotation; // btMatrix3x3 takes rows; column j is the box's axis j
    btMatrix3x3 basis(r.col[0].x, r.col[1].x, r.col[2].x, r.col[0].y, r.col[1].y, r.col[2].y, r.col[0].z, r.col[1].z,
                      r.col[2].z);
    return btTransform(basis, btVector3(box.center.x, box.center.y, box.center.z));
}

btVector3 half_extents(const spx_obb& box)
{
    return btVector3(box.half_extents.x, box.half_extents.y, box.half_extents.z);
}

void* prepare(const spx_obb* a, const spx_obb* b, size_t count)
{
    try {
        auto* pairs = new Pairs;
        pairs->shape_a.reserve(count);
        pairs->shape_b.reserve(count);
        pairs->pose_a.reserve(count);
        pairs->pose_b.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            // btBoxShape keeps half extents *with* its collision margin equal to what it was given
            // (it moves the margin inside), which is what btBoxBoxDetector reads.
            pairs->shape_a.emplace_back(half_extents(a[i]));
            pairs->shape_b.emplace_back(half_extents(b[i]));
            pairs->pose_a.push_back(to_pose(a[i]));
            pairs->pose_b.push_back(to_pose(b[i]));
        }
        return pairs;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

volatile btScalar sink;

// One pair's contact points through the detector: their count (at most 255) in *out, the first one's
// depth returned (0 without points).
btScalar closest_points(btDiscreteCollisionDetectorInterface& detector,
                        const btDiscreteCollisionDetectorInterface::ClosestPointInput& input, uint8_t* out)
{
    Collect result;
    detector.getClosestPoints(input, result, nullptr);
    *out = uint8_t(result.count < 255 ? result.count : 255);
    return result.count > 0 ? result.depth[0] : btScalar(0);
}

void run(void* prepared, size_t count, uint8_t* out)
{
    const Pairs& pairs = *static_cast<const Pairs*>(prepared);
    btScalar sum = 0;
    btDiscreteCollisionDetectorInterface::ClosestPointInput input;
    for (size_t i = 0; i < count; ++i) {
        btBoxBoxDetector detector(&pairs.shape_a[i], &pairs.shape_b[i]);
        input.m_transformA = pairs.pose_a[i];
        input.m_transformB = pairs.pose_b[i];
        sum += closest_points(detector, input, &out[i]);
    }
    sink = sink + sum;
}

void release(void* prepared) { delete static_cast<Pairs*>(prepared); }

// A convex shape (a box, or the same box as a btConvexHullShape of its corners) against a triangle
// whose corners are in world space, through btGjkPairDetector.
template <class Shape> struct ShapeTrianglePairs {
    std::vector<Shape> shape;
    std::vector<btTriangleShape> triangle;
    std::vector<btTransform> pose;
};

btConvexHullShape hull_of(const spx_obb& a)
{
    const spx_vec3 h = a.half_extents;
    btScalar corners[8 * 3];
    for (int c = 0; c < 8; ++c) {
        corners[3 * c] = c & 1 ? h.x : -h.x;
        corners[3 * c + 1] = c & 2 ? h.y : -h.y;
        corners[3 * c + 2] = c & 4 ? h.z : -h.z;
    }
    return btConvexHullShape(corners, 8, int(3 * sizeof(btScalar)));
}

btBoxShape box_of(const spx_obb& a) { return btBoxShape(half_extents(a)); }

template <class Shape, Shape (*make)(const spx_obb&)>
void* prepare_shape_triangle(const spx_obb* a, const spx_triangle* b, size_t count)
{
    try {
        auto* pairs = new ShapeTrianglePairs<Shape>;
        pairs->shape.reserve(count);
        pairs->triangle.reserve(count);
        pairs->pose.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            pairs->shape.push_back(make(a[i]));
            pairs->shape.back().setMargin(0);
            const spx_vec3* v = b[i].v;
            pairs->triangle.emplace_back(btVector3(v[0].x, v[0].y, v[0].z), btVector3(v[1].x, v[1].y, v[1].z),
                                         btVector3(v[2].x, v[2].y, v[2].z));
            pairs->triangle.back().setMargin(0);
            pairs->pose.push_back(to_pose(a[i]));
        }
        return pairs;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

template <class Shape> void release_shape_triangle(void* prepared)
{
    delete static_cast<ShapeTrianglePairs<Shape>*>(prepared);
}

template <class Shape> void run_shape_triangle(void* prepared, size_t count, uint8_t* out)
{
    ShapeTrianglePairs<Shape>& pairs = *static_cast<ShapeTrianglePairs<Shape>*>(prepared);
    btScalar sum = 0;
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector::ClosestPointInput input;
    input.m_maximumDistanceSquared = 0;
    input.m_transformB.setIdentity(); // the triangle's corners are in world space
    for (size_t i = 0; i < count; ++i) {
        btGjkPairDetector detector(&pairs.shape[i], &pairs.triangle[i], &simplex, &epa);
        input.m_transformA = pairs.pose[i];
        sum += closest_points(detector, input, &out[i]);
    }
    sink = sink + sum;
}

const bench_peer peers[] = {
    { "bullet", "manifold_obb_obb", "btBoxBoxDetector::getClosestPoints", prepare, run, release, nullptr },
    { "bullet", "manifold_obb_tri", "btGjkPairDetector::getClosestPoints (GJK/EPA, box and triangle)", nullptr,
      run_shape_triangle<btBoxShape>, release_shape_triangle<btBoxShape>, prepare_shape_triangle<btBoxShape, box_of> },
    { "bullet", "manifold_hull_tri", "btGjkPairDetector::getClosestPoints (GJK/EPA, btConvexHullShape and triangle)",
      nullptr, run_shape_triangle<btConvexHullShape>, release_shape_triangle<btConvexHullShape>,
      prepare_shape_triangle<btConvexHullShape, hull_of> },
};

} // namespace

extern "C" const bench_peer* bench_peers_bullet(size_t* out_count)
{
    *out_count = sizeof peers / sizeof peers[0];
    return peers;
}

extern "C" const char* bench_version_bullet(void)
{
    static char text[64];
    if (!text[0])
        std::snprintf(text, sizeof text, "Bullet %d.%02d (%s)", btGetVersion() / 100, btGetVersion() % 100,
                      sizeof(btScalar) == sizeof(double) ? "double" : "float");
    return text;
}
