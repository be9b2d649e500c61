/* Mesh instances: a pose and world-space nodes filled lazily, stamped per node so each reached node
 * moves once a pose. See docs/meshes.md#placing-a-mesh-instances. */
#include "mesh_instance.h"
#include "core/allocator.h"
#include "validate.h"
#include "math/dvec3.h"
#include <math.h>
#include <string.h>

static spx_result check_pose(const spx_transform* pose)
{
    const spx_quat q = pose->q;
    if (!spx_finite3(pose->p) || !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w))
        return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(pose->p)) return SPX_ERR_OUT_OF_RANGE;
    double n2 = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
    if (fabs(n2 - 1.0) > 2.0 * SPX_ROTATION_TOLERANCE) return SPX_ERR_NOT_ORTHONORMAL;
    return SPX_OK;
}

/* Stores a checked pose: the quaternion normalised, and its rotation matrix in double. */
static void store_pose(spx_mesh_instance* inst, const spx_transform* pose)
{
    double x = pose->q.x, y = pose->q.y, z = pose->q.z, w = pose->q.w;
    double inv = 1.0 / sqrt(x * x + y * y + z * z + w * w);
    x *= inv, y *= inv, z *= inv, w *= inv;
    /* The same pose again (a static body's, posed before every query) keeps the filled cache. */
    if (inst->stamp != 0 && inst->pose.p.x == pose->p.x && inst->pose.p.y == pose->p.y && inst->pose.p.z == pose->p.z &&
        inst->pose.q.x == (float)x && inst->pose.q.y == (float)y && inst->pose.q.z == (float)z &&
        inst->pose.q.w == (float)w)
        return;
    inst->pose.p = pose->p;
    inst->pose.q.x = (float)x, inst->pose.q.y = (float)y, inst->pose.q.z = (float)z, inst->pose.q.w = (float)w;
    double(*r)[3] = inst->rotation; /* r[i]: column i */
    r[0][0] = 1 - 2 * (y * y + z * z), r[0][1] = 2 * (x * y + w * z), r[0][2] = 2 * (x * z - w * y);
    r[1][0] = 2 * (x * y - w * z), r[1][1] = 1 - 2 * (x * x + z * z), r[1][2] = 2 * (y * z + w * x);
    r[2][0] = 2 * (x * z + w * y), r[2][1] = 2 * (y * z - w * x), r[2][2] = 1 - 2 * (x * x + y * y);
    inst->position[0] = pose->p.x, inst->position[1] = pose->p.y, inst->position[2] = pose->p.z;
    /* Every entry goes stale; on wrap-around, entries from 2^32 poses ago would look current. */
    if (++inst->stamp == 0) {
        for (uint32_t i = 0; i < inst->mesh->node_count; ++i) inst->boxes[i].stamp = 0;
        inst->stamp = 1;
    }
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

SPX_API spx_mesh_instance_def spx_default_mesh_instance_def(void)
{
    spx_mesh_instance_def def;
    memset(&def, 0, sizeof def);
    def.pose.q.w = 1.0f;
    def.internal_cookie = SPX_MESH_INSTANCE_DEF_COOKIE;
    return def;
}

SPX_API spx_result spx_mesh_instance_create(const spx_mesh_instance_def* def, spx_mesh_instance** out)
{
    if (!def || !out) return SPX_ERR_INVALID_ARGUMENT;
    if (def->internal_cookie != SPX_MESH_INSTANCE_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    const spx_mesh* mesh = def->mesh;
    const spx_allocator* allocator = def->allocator;
    if (!mesh || (allocator && (!allocator->alloc || !allocator->free))) return SPX_ERR_INVALID_ARGUMENT;
    const spx_transform* pose = &def->pose;
    spx_result r = check_pose(pose);
    if (r != SPX_OK) return r;
    spx_allocator a;
    memset(&a, 0, sizeof a);
    if (allocator) a = *allocator;

    size_t off_boxes = align_up(sizeof(spx_mesh_instance), 64);
    size_t off_tris = off_boxes + sizeof(spx_world_box) * (size_t)mesh->node_count;
    size_t off_usable = off_tris + sizeof(spx_triangle) * (size_t)mesh->triangle_count;
    size_t bytes = off_usable + (size_t)mesh->triangle_count;
    char* block = spx_alloc(&a, bytes, 64);
    if (!block) return SPX_ERR_OUT_OF_MEMORY;
    spx_mesh_instance* inst = (spx_mesh_instance*)(void*)block;
    memset(inst, 0, sizeof *inst);
    inst->mesh = mesh;
    inst->boxes = (spx_world_box*)(void*)(block + off_boxes);
    inst->triangles = (spx_triangle*)(void*)(block + off_tris);
    inst->usable = (uint8_t*)(block + off_usable);
    inst->bytes = bytes;
    inst->allocator = a;
    for (uint32_t i = 0; i < mesh->node_count; ++i) inst->boxes[i].stamp = 0;
    store_pose(inst, pose);
    *out = inst;
    return SPX_OK;
}

SPX_API void spx_mesh_instance_destroy(spx_mesh_instance* instance)
{
    if (!instance) return;
    spx_free_self(&instance->allocator, instance, instance->bytes);
}

SPX_API spx_result spx_mesh_instance_set_pose(spx_mesh_instance* instance, const spx_transform* pose)
{
    if (!instance || !pose) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_pose(pose);
    if (r != SPX_OK) return r;
    store_pose(instance, pose);
    return SPX_OK;
}

SPX_API spx_result spx_mesh_instance_get_pose(const spx_mesh_instance* instance, spx_transform* out)
{
    if (!instance || !out) return SPX_ERR_INVALID_ARGUMENT;
    *out = instance->pose;
    return SPX_OK;
}

SPX_API spx_result spx_mesh_instance_get_mesh(const spx_mesh_instance* instance, const spx_mesh** out)
{
    if (!instance || !out) return SPX_ERR_INVALID_ARGUMENT;
    *out = instance->mesh;
    return SPX_OK;
}

/* A mesh point into world space: in double, rounded once. */
static spx_vec3 to_world(const spx_mesh_instance* inst, spx_vec3 v)
{
    const double(*r)[3] = (const double(*)[3])inst->rotation;
    double x = v.x, y = v.y, z = v.z;
    spx_vec3 w = { (float)(r[0][0] * x + r[1][0] * y + r[2][0] * z + inst->position[0]),
                   (float)(r[0][1] * x + r[1][1] * y + r[2][1] * z + inst->position[1]),
                   (float)(r[0][2] * x + r[1][2] * y + r[2][2] * z + inst->position[2]) };
    return w;
}

spx_triangle spx_mesh_instance_world_triangle(const spx_mesh_instance* inst, uint32_t i)
{
    const spx_triangle* t = &inst->mesh->triangles[i];
    spx_triangle w = { { to_world(inst, t->v[0]), to_world(inst, t->v[1]), to_world(inst, t->v[2]) } };
    return w;
}

SPX_API spx_result spx_mesh_instance_get_triangle(const spx_mesh_instance* instance, uint32_t i, spx_triangle* out,
                                                  uint32_t* out_source)
{
    if (!instance || !out || i >= instance->mesh->triangle_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = spx_mesh_instance_world_triangle(instance, i);
    if (out_source) *out_source = instance->mesh->source[i];
    return SPX_OK;
}

static double max3(double a, double b, double c) { return spx_dmax(a, spx_dmax(b, c)); }

const spx_world_box* spx_mesh_instance_node_fill(spx_mesh_instance* inst, uint32_t i)
{
    spx_world_box* w = &inst->boxes[i];
    const spx_obb_node* node = &inst->mesh->nodes[i];
    const spx_obb* b = &node->box;
    const double(*r)[3] = (const double(*)[3])inst->rotation;
    double c[3];
    for (int k = 0; k < 3; ++k)
        c[k] = r[0][k] * b->center.x + r[1][k] * b->center.y + r[2][k] * b->center.z + inst->position[k];
    for (int a = 0; a < 3; ++a) {
        spx_vec3 l = b->rotation.col[a];
        for (int k = 0; k < 3; ++k) w->axis[a][k] = (float)(r[0][k] * l.x + r[1][k] * l.y + r[2][k] * l.z);
        w->center[a] = (float)c[a];
    }
    /* 2^-20 of the coordinates' and box's size covers the float rounding of the triangles and of
           the box's centre and axes (2^-24 of its size). */
    double size = (double)b->half_extents.x + b->half_extents.y + b->half_extents.z;
    double reach =
        max3(fabs(c[0]), fabs(c[1]), fabs(c[2])) + size + max3(fabs(b->center.x), fabs(b->center.y), fabs(b->center.z));
    double grow = 0x1p-20 * reach;
    w->half[0] = (float)(b->half_extents.x + grow);
    w->half[1] = (float)(b->half_extents.y + grow);
    w->half[2] = (float)(b->half_extents.z + grow);
    if (spx_obb_node_is_leaf(node)) {
        for (uint32_t t = node->first; t < node->first + node->count; ++t) {
            inst->triangles[t] = spx_mesh_instance_world_triangle(inst, t);
            inst->usable[t] = spx_triangle_validate(&inst->triangles[t]) == SPX_OK;
        }
    }
    w->stamp = inst->stamp;
    return w;
}
