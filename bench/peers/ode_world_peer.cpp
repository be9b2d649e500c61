// sepax_bench world peer: ODE's world on the world scenes, stepped by dWorldQuickStep with 20
// iterations. Collision: a sweep-and-prune space (dSweepAndPruneSpaceCreate, axes x, z, y: y is
// up, so the first two sort across the floor) of box geoms; the ground a static box geom of the
// scene's size without a body (for falling_mesh a trimesh geom of the same 100x100-quad grid); dCollide gives up to 4 contacts a pair (dBoxBox, as sepax's manifolds
// keep 4), each a contact joint for one step. Contacts: dContactApprox1 (friction is Coulomb's,
// mu times the normal force), mu = sqrt(a b) as sepax mixes, no bounce. World: ERP 0.2, CFM 1e-5
// (ODE's documented defaults; the double-precision build starts from CFM 1e-10), contact surface
// layer 1 mm (the depth left unresolved, as sepax's linear slop), maximum correcting velocity left
// at ODE's default (unbounded); the random order of the constraints seeded the same for every
// world. Sleeping: ODE's auto-disable at its default thresholds where the
// scene sleeps, off where the scene forces sleeping off.
#include "peers/world_peers.h"

#include <ode/ode.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

#if !defined(SPX_BENCH_ODE_VERSION)
#define SPX_BENCH_ODE_VERSION "?"
#endif

namespace {

constexpr int max_contacts = 4; // a pair's contacts from dCollide
constexpr int iterations = 20;  // dWorldQuickStep
constexpr dReal erp = 0.2, cfm = 1e-5, surface_layer = 0.001;

struct World {
    dWorldID world = nullptr;
    dSpaceID space = nullptr;
    dJointGroupID joints = nullptr;
    dGeomID ground = nullptr;
    dTriMeshDataID ground_data = nullptr;
    std::vector<float> ground_vertices; // kept alive: ODE reads them in place
    std::vector<dTriIndex> ground_indices;
    std::vector<dBodyID> bodies;
    std::vector<dGeomID> geoms;
    dReal friction_box = 0, friction_ground = 0;
    dReal dt = 0;
    uint32_t contact_count = 0;

    ~World()
    {
        for (dGeomID g : geoms) dGeomDestroy(g);
        if (ground) dGeomDestroy(ground);
        if (ground_data) dGeomTriMeshDataDestroy(ground_data);
        if (joints) dJointGroupDestroy(joints);
        if (space) dSpaceDestroy(space);
        if (world) dWorldDestroy(world); // destroys the bodies too
    }
};

dReal friction_of(const World& w, dGeomID g) { return g == w.ground ? w.friction_ground : w.friction_box; }

void near_pair(void* data, dGeomID a, dGeomID b)
{
    World& w = *static_cast<World*>(data);
    dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    // Nothing to solve between two resting bodies, or a resting body and the ground.
    if ((!ba || !dBodyIsEnabled(ba)) && (!bb || !dBodyIsEnabled(bb))) return;
    dContact c[max_contacts] = {};
    int n = dCollide(a, b, max_contacts, &c[0].geom, int(sizeof(dContact)));
    dReal mu = std::sqrt(friction_of(w, a) * friction_of(w, b));
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = mu;
        dJointID j = dJointCreateContact(w.world, w.joints, &c[i]);
        dJointAttach(j, ba, bb);
    }
    w.contact_count += uint32_t(n);
}

void* create(const test_scene_layout* scene)
{
    static const int initialised = dInitODE2(0);
    (void)initialised;
    try {
        auto w = std::make_unique<World>();
        w->dt = scene->dt;
        w->friction_box = scene->box_friction;
        w->friction_ground = scene->ground_friction;
        // dWorldQuickStep reorders its constraints at random from ODE's one global generator: seeded
        // here, every world of a scene runs the same way (repetitions, and each engine's end state).
        dRandSetSeed(0);
        w->world = dWorldCreate();
        dWorldSetGravity(w->world, scene->gravity.x, scene->gravity.y, scene->gravity.z);
        dWorldSetERP(w->world, erp);
        dWorldSetCFM(w->world, cfm);
        dWorldSetContactSurfaceLayer(w->world, surface_layer);
        dWorldSetQuickStepNumIterations(w->world, iterations);
        dWorldSetAutoDisableFlag(w->world, scene->sleep ? 1 : 0);
        w->space = dSweepAndPruneSpaceCreate(nullptr, dSAP_AXES_XZY);
        w->joints = dJointGroupCreate(0);

        if (scene->mesh_ground) {
            // The scene's grid: 100x100 quads of 1 m, top at y = 0, wound counter-clockwise from above.
            for (int i = 0; i <= 100; ++i)
                for (int j = 0; j <= 100; ++j)
                    w->ground_vertices.insert(w->ground_vertices.end(), { float(i - 50), 0.0f, float(j - 50) });
            for (int i = 0; i < 100; ++i)
                for (int j = 0; j < 100; ++j) {
                    dTriIndex a = dTriIndex(i * 101 + j), b = a + 1, c = a + 102, d = a + 101;
                    w->ground_indices.insert(w->ground_indices.end(), { a, b, c, a, c, d });
                }
            w->ground_data = dGeomTriMeshDataCreate();
            dGeomTriMeshDataBuildSingle(w->ground_data, w->ground_vertices.data(), 3 * sizeof(float),
                                        int(w->ground_vertices.size() / 3), w->ground_indices.data(),
                                        int(w->ground_indices.size()), 3 * sizeof(dTriIndex));
            w->ground = dCreateTriMesh(w->space, w->ground_data, nullptr, nullptr, nullptr);
        } else {
            const spx_vec3 g = scene->ground_half_extents;
            w->ground = dCreateBox(w->space, 2 * dReal(g.x), 2 * dReal(g.y), 2 * dReal(g.z));
            dGeomSetPosition(w->ground, scene->ground_center.x, scene->ground_center.y, scene->ground_center.z);
        }

        const spx_vec3 h = scene->box_half_extents;
        dMass mass;
        dMassSetBoxTotal(&mass, scene->box_mass, 2 * dReal(h.x), 2 * dReal(h.y), 2 * dReal(h.z));
        w->bodies.reserve(scene->count);
        w->geoms.reserve(scene->count);
        for (uint32_t i = 0; i < scene->count; ++i) {
            const spx_transform& t = scene->start[i];
            dBodyID body = dBodyCreate(w->world);
            dBodySetMass(body, &mass);
            dBodySetPosition(body, t.p.x, t.p.y, t.p.z);
            const dQuaternion q = { t.q.w, t.q.x, t.q.y, t.q.z }; // ODE puts w first
            dBodySetQuaternion(body, q);
            dBodySetLinearVel(body, scene->start_velocity.x, scene->start_velocity.y, scene->start_velocity.z);
            dGeomID geom = dCreateBox(w->space, 2 * dReal(h.x), 2 * dReal(h.y), 2 * dReal(h.z));
            dGeomSetBody(geom, body);
            w->bodies.push_back(body);
            w->geoms.push_back(geom);
        }
        return w.release();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void step(void* world)
{
    World& w = *static_cast<World*>(world);
    w.contact_count = 0;
    dSpaceCollide(w.space, &w, near_pair);
    dWorldQuickStep(w.world, w.dt);
    dJointGroupEmpty(w.joints);
}

spx_vec3 to_vec(const dReal* v) { return spx_vec3{ float(v[0]), float(v[1]), float(v[2]) }; }

void read(const void* world, spx_transform* poses, spx_vec3* v, spx_vec3* av)
{
    const World& w = *static_cast<const World*>(world);
    for (size_t i = 0; i < w.bodies.size(); ++i) {
        dBodyID b = w.bodies[i];
        if (poses) {
            const dReal* q = dBodyGetQuaternion(b);
            poses[i].p = to_vec(dBodyGetPosition(b));
            poses[i].q = spx_quat{ float(q[1]), float(q[2]), float(q[3]), float(q[0]) };
        }
        if (v) v[i] = to_vec(dBodyGetLinearVel(b));
        if (av) av[i] = to_vec(dBodyGetAngularVel(b));
    }
}

uint32_t contacts(const void* world) { return static_cast<const World*>(world)->contact_count; }

void destroy(void* world) { delete static_cast<World*>(world); }

const char* describe(void)
{
    static char text[256];
    if (!text[0])
        std::snprintf(text, sizeof text,
                      "ODE " SPX_BENCH_ODE_VERSION " (%s): dWorldQuickStep %d iterations, sweep-and-prune space, "
                      "up to %d contacts a pair, dContactApprox1, ERP %g, CFM %g, surface layer %g m",
                      sizeof(dReal) == sizeof(double) ? "double" : "float", iterations, max_contacts, double(erp),
                      double(cfm), double(surface_layer));
    return text;
}

uint32_t asleep(const void* world)
{
    const World& w = *static_cast<const World*>(world);
    uint32_t n = 0;
    for (dBodyID b : w.bodies) n += !dBodyIsEnabled(b);
    return n;
}

const bench_world_peer peer = { "ode", describe, create, step, read, contacts, destroy, nullptr, asleep };

} // namespace

extern "C" const bench_world_peer* bench_world_peer_ode(void) { return &peer; }
