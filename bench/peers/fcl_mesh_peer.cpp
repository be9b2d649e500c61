// sepax_bench mesh-queries peer: FCL 0.7 on the same meshes. Continuous: fcl::continuousCollide with
// conservative advancement on BVHModel<RSS> (the bounding volume FCL's mesh-mesh advancement is
// written for: it needs distances between nodes). Discrete: fcl::collide on BVHModel<OBBRSS>.
//
// FCL's traps, found the hard way and documented in bench/README.md:
// - the moving mesh must start at the identity transform: its start pose is baked into the
//   vertices here (the harness hands over world-space corners). With a start transform other than
//   the identity, FCL 0.7's mesh-mesh advancement answers "no collision" for pairs that collide;
// - its box-against-mesh advancement (fcl::Box against BVHModel<RSS> or <OBBRSS>) crashes in
//   RSS::distance with the box first, and answers "no collision" with the mesh first, so the
//   harness hands a box over as a mesh of 12 triangles at its start pose;
// - FCL's motion runs over [0, 1]: the harness scales the time of contact by tmax itself.
#include "peers/fcl_mesh_peer.h"

#include <fcl/config.h>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/bv/RSS.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/continuous_collision.h>

#include <cmath>
#include <memory>
#include <new>
#include <vector>

struct bench_fcl_mesh {
    fcl::BVHModel<fcl::RSSd> rss;
    fcl::BVHModel<fcl::OBBRSSd> obbrss;
};

namespace {

template <typename BV>
bool build(fcl::BVHModel<BV>& model, const std::vector<fcl::Vector3d>& points,
           const std::vector<fcl::Triangle>& triangles)
{
    return model.beginModel(int(triangles.size()), int(points.size())) == fcl::BVH_OK &&
           model.addSubModel(points, triangles) == fcl::BVH_OK && model.endModel() == fcl::BVH_OK;
}

fcl::Vector3d to_fcl(spx_vec3 v) { return fcl::Vector3d(double(v.x), double(v.y), double(v.z)); }

fcl::Transform3d translation(spx_vec3 v)
{
    fcl::Transform3d t = fcl::Transform3d::Identity();
    t.translation() = to_fcl(v);
    return t;
}

fcl::ContinuousCollisionRequestd ca_request()
{
    fcl::ContinuousCollisionRequestd request;
    request.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
    request.ccd_motion_type = fcl::CCDM_TRANS; // pure translation, as the sepax query
    request.gjk_solver_type = fcl::GST_LIBCCD;
    return request;
}

int ca_answer(double returned, const fcl::ContinuousCollisionResultd& result, double* out_time)
{
    if (!(returned >= 0.0) || !std::isfinite(result.time_of_contact)) return -1;
    *out_time = result.time_of_contact;
    return result.is_collide ? 1 : 0;
}

} // namespace

extern "C" bench_fcl_mesh* bench_fcl_mesh_create(const spx_triangle* triangles, uint32_t count)
{
    try {
        std::vector<fcl::Vector3d> points;
        std::vector<fcl::Triangle> indices;
        points.reserve(size_t(count) * 3);
        indices.reserve(count);
        for (uint32_t i = 0; i < count; ++i) {
            for (int k = 0; k < 3; ++k) points.push_back(to_fcl(triangles[i].v[k]));
            indices.emplace_back(size_t(3) * i, size_t(3) * i + 1, size_t(3) * i + 2);
        }
        auto mesh = std::make_unique<bench_fcl_mesh>();
        if (!build(mesh->rss, points, indices) || !build(mesh->obbrss, points, indices)) return nullptr;
        return mesh.release();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

extern "C" void bench_fcl_mesh_destroy(bench_fcl_mesh* mesh) { delete mesh; }

extern "C" int bench_fcl_mesh_ca(const bench_fcl_mesh* a, spx_vec3 displacement, const bench_fcl_mesh* b,
                                 double* out_time)
{
    const fcl::Transform3d identity = fcl::Transform3d::Identity();
    fcl::ContinuousCollisionResultd result;
    double t = fcl::continuousCollide<double>(&a->rss, identity, translation(displacement), &b->rss, identity, identity,
                                              ca_request(), result);
    return ca_answer(t, result, out_time);
}

extern "C" size_t bench_fcl_mesh_collide(const bench_fcl_mesh* a, spx_vec3 offset, const bench_fcl_mesh* b,
                                         size_t max_contacts)
{
    fcl::CollisionRequestd request(max_contacts, true);
    fcl::CollisionResultd result;
    fcl::collide(&a->obbrss, translation(offset), &b->obbrss, fcl::Transform3d::Identity(), request, result);
    return result.numContacts();
}

extern "C" const char* bench_fcl_mesh_version(void) { return "FCL " FCL_VERSION; }
