// sepax_bench round peer: FCL 0.7 on spheres and capsules against convex hulls (bench/round_hull.c):
// fcl::Convex<double> of the hull's corners and faces, fcl::Sphere<double> or fcl::Capsule<double> (its
// axis along local z, turned onto the capsule's segment), fcl::collide with its default request (one
// contact, no contact data; GJK by libccd).
#include "peers/hull_cache.h"
#include "round_hull.h"

#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>

#include <cmath>
#include <memory>
#include <new>
#include <vector>

namespace {

using Vec = fcl::Vector3d;

Vec v(spx_vec3 p) { return Vec(p.x, p.y, p.z); }

struct Problem {
    std::shared_ptr<fcl::CollisionGeometryd> a;
    fcl::Transform3d pose_a, pose_b;
    size_t hull;
};

struct Set {
    HullCache<std::shared_ptr<fcl::Convexd>> hulls;
    std::vector<Problem> problems;
};

std::shared_ptr<fcl::Convexd> convex(const spx_hull* h)
{
    spx_hull_info info;
    spx_hull_get_info(h, &info);
    auto corners = std::make_shared<std::vector<Vec>>();
    for (const spx_vec3& c : hull_corners(h)) corners->push_back(v(c));
    auto faces = std::make_shared<std::vector<int>>();
    for (uint32_t f = 0; f < info.face_count; ++f) {
        spx_hull_face face;
        spx_hull_get_face(h, f, &face);
        faces->push_back(int(face.corner_count));
        for (uint32_t k = 0; k < face.corner_count; ++k) faces->push_back(int(face.corners[k]));
    }
    auto shape = std::make_shared<fcl::Convexd>(corners, int(info.face_count), faces);
    shape->computeLocalAABB();
    return shape;
}

} // namespace

extern "C" void* bench_round_hull_fcl_prepare(const bench_round_hull_problem* problems, size_t count)
{
    try {
        auto* set = new Set;
        set->problems.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const bench_round_hull_problem& q = problems[i];
            Problem& p = set->problems[i];
            p.pose_a = fcl::Transform3d::Identity();
            const Vec p0 = v(q.a.p[0]), p1 = v(q.a.p[1]), d = p1 - p0;
            if (q.capsule) {
                p.a = std::make_shared<fcl::Capsuled>(q.a.radius, d.norm());
                if (d.norm() > 0)
                    p.pose_a.linear() = fcl::Quaterniond::FromTwoVectors(Vec(0, 0, 1), d).toRotationMatrix();
                p.pose_a.translation() = 0.5 * (p0 + p1);
            } else {
                p.a = std::make_shared<fcl::Sphered>(q.a.radius);
                p.pose_a.translation() = p0;
            }
            p.pose_b = fcl::Transform3d::Identity();
            for (int c = 0; c < 3; ++c) p.pose_b.linear().col(c) = v(q.b.rotation.col[c]);
            p.pose_b.translation() = v(q.b.position);
            p.hull = set->hulls.index(q.b.hull, convex);
        }
        return set;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

extern "C" void bench_round_hull_fcl_overlap(void* prepared, size_t count, uint8_t* out)
{
    auto& set = *static_cast<Set*>(prepared);
    fcl::CollisionRequestd request;
    for (size_t i = 0; i < count; ++i) {
        const Problem& p = set.problems[i];
        fcl::CollisionResultd result;
        out[i] =
            fcl::collide(p.a.get(), p.pose_a, set.hulls.shapes[p.hull].get(), p.pose_b, request, result) > 0 ? 1 : 0;
    }
}

extern "C" void bench_round_hull_fcl_free(void* prepared) { delete static_cast<Set*>(prepared); }
