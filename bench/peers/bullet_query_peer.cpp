// `sepax bench queries` peer: Bullet's btCollisionWorld (btDbvtBroadphase, btCollisionDispatcher on
// btDefaultCollisionConfiguration) holding the scene's bodies: a btBoxShape for a one-box body, a
// btCompoundShape of btBoxShape children for a body with a turned or second box, a
// btBvhTriangleMeshShape over the scene mesh's own vertices and indices for a mesh (shared by the
// bodies that use it). Rays: rayTest with ClosestRayResultCallback. Box casts: convexSweepTest of a
// btBoxShape (Bullet's default margin of 0.04 m, taken inside the half extents) from the box's pose to
// the same rotation moved by the translation, with ClosestConvexResultCallback and no allowed
// penetration.
#include "peers/query_peers.h"

#include <btBulletCollisionCommon.h>

#include <cstdio>
#include <memory>
#include <new>
#include <vector>

namespace {

btVector3 to_bt(spx_vec3 v) { return btVector3(v.x, v.y, v.z); }

btTransform to_bt(const spx_transform& t) { return btTransform(btQuaternion(t.q.x, t.q.y, t.q.z, t.q.w), to_bt(t.p)); }

struct World {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{ &configuration };
    btDbvtBroadphase broadphase;
    btCollisionWorld world{ &dispatcher, &broadphase, &configuration };
    std::vector<std::unique_ptr<btTriangleMesh>> meshes;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;

    ~World()
    {
        for (auto& o : objects) world.removeCollisionObject(o.get());
    }
};

const char* describe()
{
    static char line[160];
    std::snprintf(line, sizeof line, "Bullet %d.%02d (%s), btCollisionWorld::rayTest and convexSweepTest",
                  BT_BULLET_VERSION / 100, BT_BULLET_VERSION % 100, sizeof(btScalar) == 8 ? "double" : "float");
    return line;
}

void* create(const test_query_scene* scene)
{
    try {
        auto w = std::make_unique<World>();
        btCollisionShape* mesh_shapes[TEST_QUERY_SCENE_MESHES] = {};
        for (int m = 0; m < TEST_QUERY_SCENE_MESHES; ++m) {
            const test_shape& s = scene->shapes[m];
            auto tm = std::make_unique<btTriangleMesh>();
            for (uint32_t t = 0; t < s.triangle_count; ++t)
                tm->addTriangle(to_bt(s.vertices[s.indices[3 * t]]), to_bt(s.vertices[s.indices[3 * t + 1]]),
                                to_bt(s.vertices[s.indices[3 * t + 2]]));
            auto shape = std::make_unique<btBvhTriangleMeshShape>(tm.get(), true);
            mesh_shapes[m] = shape.get();
            w->meshes.push_back(std::move(tm));
            w->shapes.push_back(std::move(shape));
        }
        for (uint32_t i = 0; i < scene->body_count; ++i) {
            const test_query_scene_body& b = scene->bodies[i];
            spx_transform pose;
            if (!spx_body_is_valid(scene->world, b.id) || spx_body_get_transform(scene->world, b.id, &pose) != SPX_OK)
                continue;
            btCollisionShape* shape;
            const spx_shape_def& s0 = b.shapes[0];
            const bool plain =
                b.shape_count == 1 && s0.local.p.x == 0 && s0.local.p.y == 0 && s0.local.p.z == 0 && s0.local.q.w == 1;
            if (s0.type == SPX_SHAPE_MESH && plain) {
                shape = mesh_shapes[b.mesh_index[0]];
            } else if (plain) {
                w->shapes.push_back(std::make_unique<btBoxShape>(to_bt(s0.half_extents)));
                shape = w->shapes.back().get();
            } else {
                auto compound = std::make_unique<btCompoundShape>();
                for (uint32_t k = 0; k < b.shape_count; ++k) {
                    btCollisionShape* child = mesh_shapes[0];
                    if (b.shapes[k].type == SPX_SHAPE_BOX) {
                        w->shapes.push_back(std::make_unique<btBoxShape>(to_bt(b.shapes[k].half_extents)));
                        child = w->shapes.back().get();
                    } else {
                        child = mesh_shapes[b.mesh_index[k]];
                    }
                    compound->addChildShape(to_bt(b.shapes[k].local), child);
                }
                shape = compound.get();
                w->shapes.push_back(std::move(compound));
            }
            auto o = std::make_unique<btCollisionObject>();
            o->setCollisionShape(shape);
            o->setWorldTransform(to_bt(pose));
            w->world.addCollisionObject(o.get());
            w->objects.push_back(std::move(o));
        }
        w->world.updateAabbs();
        return w.release();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

float ray(void* world, spx_vec3 origin, spx_vec3 translation)
{
    World* w = static_cast<World*>(world);
    const btVector3 from = to_bt(origin), to = from + to_bt(translation);
    btCollisionWorld::ClosestRayResultCallback cb(from, to);
    w->world.rayTest(from, to, cb);
    return cb.hasHit() ? float(cb.m_closestHitFraction) : -1.0f;
}

float cast_box(void* world, const spx_obb* box, spx_vec3 translation)
{
    World* w = static_cast<World*>(world);
    btBoxShape shape(to_bt(box->half_extents));
    const spx_mat3& r = box->rotation;
    const btMatrix3x3 m(r.col[0].x, r.col[1].x, r.col[2].x, r.col[0].y, r.col[1].y, r.col[2].y, r.col[0].z, r.col[1].z,
                        r.col[2].z);
    const btTransform from(m, to_bt(box->center)), to(m, to_bt(box->center) + to_bt(translation));
    btCollisionWorld::ClosestConvexResultCallback cb(from.getOrigin(), to.getOrigin());
    w->world.convexSweepTest(&shape, from, to, cb, 0.0f);
    return cb.hasHit() ? float(cb.m_closestHitFraction) : -1.0f;
}

void destroy(void* world) { delete static_cast<World*>(world); }

const bench_query_peer peer = { "bullet", describe, create, ray, cast_box, destroy };

} // namespace

extern "C" const bench_query_peer* bench_query_peer_bullet(void) { return &peer; }
