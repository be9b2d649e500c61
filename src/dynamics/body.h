/* Bodies and their shapes, as the world stores them. */
#ifndef SPX_DYNAMICS_BODY_H
#define SPX_DYNAMICS_BODY_H

#include <sepax/world.h>
#include <sepax/geometry.h>
#include <sepax/mesh_query.h>
#include <sepax/hull.h>
#include "math/glm_bridge.h"
#include <string.h>

/* A shape as the step uses it, as a box in the body's frame: a box itself; a sphere or capsule its
   bound (capsule axis 1); a hull its corners' box; a mesh its tree's root box. */
typedef struct spx_body_shape {
    spx_shape_type type;
    vec3s half_extents;
    vec3s local_center; /* body frame */
    mat3s local_rotation;
    bool axes_aligned;           /* local_rotation is the identity */
    float radius;                /* bounding sphere about the body's centre of mass */
    float round_radius;          /* sphere, capsule */
    float half_height;           /* capsule: half its segment; sphere 0 */
    const spx_mesh* mesh;        /* host's */
    const spx_hull* hull;        /* host's */
    vec3s hull_center;           /* hull's box centre in the hull's frame */
    spx_transform mesh_local;    /* mesh frame in the body's frame */
    spx_mesh_instance* instance; /* owned by the body; posed on demand */
    spx_obb world_box;           /* at boxes_origin, boxes_rotation */
    bool world_box_valid;        /* passes spx_obb_validate */
    /* The def, kept for the id and to remake the body's mass when shapes change. */
    uint32_t slot; /* in world->shape_slots: id index - 1 */
    spx_transform local;
    float density;
    float friction, restitution;
    void* user_data;
    spx_filter filter;
    bool sensor; /* no contact; reports overlaps */
} spx_body_shape;

/* Where a shape id leads while the slot is in use. */
typedef struct spx_shape_slot {
    uint32_t body; /* SPX_NO_BODY while free */
    uint32_t index;
    uint32_t next_free;
    uint16_t generation; /* 1..65535: an id matches while equal */
} spx_shape_slot;

typedef struct spx_body {
    spx_body_type type;
    uint16_t generation; /* 1..65535: an id matches while equal */
    bool alive;
    bool awake;
    bool enable_sleep;
    bool was_awake; /* after the last step: for its sleep events */
    bool split;     /* the last step solved it in the split pass */
    vec3s origin;   /* the host's placement; the solver moves center */
    versors rotation;
    vec3s center; /* centre of mass, world */
    vec3s local_center;
    vec3s v, w;              /* world; v of the centre of mass */
    float inv_mass;          /* 0 for static and kinematic */
    mat3s inertia_local;     /* kg m^2, body frame; zero for static and kinematic */
    mat3s inv_inertia_local; /* zero for static and kinematic */
    float mass;
    float linear_damping, angular_damping, gravity_scale;
    float friction, restitution; /* for shapes without their own */
    float sleep_time;            /* s resting */
    vec3s rest_center;           /* pose when it began resting */
    versors rest_rotation;
    float radius;            /* bounding sphere of every shape about the centre of mass */
    vec3s principal_inertia; /* kg m^2, about the columns of `principal` */
    versors principal;
    float lever_limit; /* m: longest lever shift its contacts take in the solver; INFINITY if not dynamic */
    void* user_data;
    spx_body_shape* shapes;
    uint32_t shape_count;
    uint32_t box_count; /* non-mesh shapes: a pair of them has one manifold at most */
    bool filtered;      /* a non-default filter or a sensor: its pairs ask spx_shapes_collide */
    uint32_t sensor_count;
    uint32_t next_free;   /* while !alive */
    uint32_t island_next; /* next body of its sleeping island, or UINT32_MAX */
    /* The pose world_box was made at; compared bit for bit so shapes are not turned for every pair. */
    vec3s boxes_origin;
    versors boxes_rotation;
    mat3s boxes_matrix;
} spx_body;

#define SPX_NO_BODY 0xFFFFFFFFu

/* Alive, awake and not static: the bodies every stage of the step advances. */
static inline bool spx_body_moves(const spx_body* b) { return b->alive && b->awake && b->type != SPX_BODY_STATIC; }

/* World-space box of shape s at the body's current placement. */
spx_obb spx_body_make_box(const spx_body* b, const spx_body_shape* s);

/* The same floats as spx_body_make_box, from the store while the pose matches. Compared as bits:
   -0 and +0 differ and a NaN equals itself, so a match means the same floats. */
static inline spx_obb spx_body_shape_box(const spx_body* b, const spx_body_shape* s)
{
    if (memcmp(&b->origin, &b->boxes_origin, sizeof(float) * 3) == 0 &&
        memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0)
        return s->world_box;
    return spx_body_make_box(b, s);
}

/* The stored box when current and valid (checked once when made, not per pair), else NULL. */
static inline const spx_obb* spx_body_trusted_box(const spx_body* b, const spx_body_shape* s)
{
    if (s->world_box_valid && memcmp(&b->origin, &b->boxes_origin, sizeof(float) * 3) == 0 &&
        memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0)
        return &s->world_box;
    return NULL;
}

/* The rotation as a matrix, from the store while it matches bit for bit. */
static inline mat3s spx_body_matrix(const spx_body* b)
{
    if (memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0) return b->boxes_matrix;
    return glms_quat_mat3(b->rotation);
}

/* Stores every shape's world box at the current placement (each step, and when placed). */
void spx_body_update_boxes(spx_body* b);

/* Places a mesh instance at the body's placement, O(1). false: not finite (keeps its last pose). */
bool spx_body_pose_mesh(const spx_body* b, const spx_body_shape* s);

typedef struct spx_world spx_world;

spx_result spx_shape_check_def(const spx_shape_def* s, spx_body_type type);
/* A negative friction or restitution takes the body's. Leaves radius, instance and slot. */
void spx_body_shape_init(spx_body_shape* bs, const spx_shape_def* s, float body_friction, float body_restitution);
/* A def that remakes the shape (for the mass when shapes change). */
spx_shape_def spx_body_shape_def(const spx_body_shape* bs);
/* A dynamic body's mass, local_center and inertia from its shapes. SPX_ERR_MASS_OUT_OF_RANGE
   leaves fields half made: call it on a copy. */
spx_result spx_body_update_mass(spx_body* b);
void spx_body_set_radii(spx_body* b);
/* A mesh shape's instance (nothing for others). SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_body_make_instance(const spx_world* w, spx_body_shape* bs);
/* box_count and filtered from the shapes; sizes the mesh pair cache at the first mesh. */
void spx_body_count_shapes(spx_world* w, spx_body* b);
/* friction >= 0, restitution 0..1: SPX_ERR_NOT_FINITE, SPX_ERR_INVALID_ARGUMENT. */
spx_result spx_material_check(float friction, float restitution);
/* A live body of this world, or SPX_NO_BODY (null, destroyed, another world's). */
uint32_t spx_body_lookup(const spx_world* w, spx_body_id id);
/* Writes up to `capacity` items of the body in `slot`; returns how many it has. */
typedef uint32_t (*spx_body_fill)(const spx_world* w, uint32_t slot, void* out, uint32_t capacity);
/* The list calls' contract (docs/api.md): SPX_ERR_INVALID_ARGUMENT, SPX_ERR_STALE_ID, else fill. */
spx_result spx_body_list(const spx_world* w, spx_body_id id, void* out, uint32_t capacity, uint32_t* out_count,
                         spx_body_fill fill);

void spx_body_free_shapes(const spx_allocator* allocator, spx_body* b);

/* Inverse scaled by a power of two to about 1 first: an inertia of 1e-13 kg m^2 has a determinant
   (1e-39) below float, where glms_mat3_inv gives NaN. Else equal to it; zero or non-finite: zero. */
mat3s spx_mat3_inverse(mat3s m);

mat3s spx_body_inv_inertia_world(const spx_body* b);
/* J, with the body turned by q: 1/2 m v^2 + 1/2 w I w in its own frame. 0 if not dynamic. */
float spx_body_kinetic_energy(const spx_body* b, versors q);

/* Origin from the centre of mass and rotation. */
void spx_body_sync_origin(spx_body* b);

#endif
