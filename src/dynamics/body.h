/* Bodies and their shapes, as the world stores them. */
#ifndef SPX_DYNAMICS_BODY_H
#define SPX_DYNAMICS_BODY_H

#include <sepax/world.h>
#include <sepax/geometry.h>
#include <sepax/mesh_query.h>
#include <sepax/hull.h>
#include "math/glm_bridge.h"
#include <string.h>

/* A shape as the step uses it. A box is its box in the body's frame; a sphere or capsule its
   bounding box (the capsule's segment along axis 1, shape_round.h); a hull the box of its corners in
   its own frame, turned with it (shape_hull.h); a mesh is the mesh's frame in
   the body's frame, with the box of its tree's root standing for it where a bound is enough. */
typedef struct spx_body_shape {
    spx_shape_type type;
    vec3s half_extents;          /* box: its half extents; mesh: the root box's */
    vec3s local_center;          /* box: its centre in the body's frame; mesh: the root box's centre */
    mat3s local_rotation;        /* box: its axes in the body's frame; mesh: the root box's axes */
    bool axes_aligned;           /* local_rotation is the identity: the box's axes are the body's */
    float radius;                /* of the sphere about the body's centre of mass holding the shape */
    float round_radius;          /* sphere, capsule: its radius (half_extents: radius, half height + radius, radius) */
    float half_height;           /* capsule: half its segment's length; sphere 0 */
    const spx_mesh* mesh;        /* mesh: the host's */
    const spx_hull* hull;        /* hull: the host's */
    vec3s hull_center;           /* hull: its box's centre in the hull's frame (the box's axes are the frame's) */
    spx_transform mesh_local;    /* mesh: its frame in the body's frame */
    spx_mesh_instance* instance; /* mesh: the world-space cache, owned by the body; posed on demand */
    spx_obb world_box;           /* its box at the body's pose boxes_origin, boxes_rotation (spx_body_update_boxes) */
    bool world_box_valid;        /* world_box passes spx_obb_validate */
    /* What the host gave, for its id and for making the body's mass again when shapes come and go. */
    uint32_t slot;       /* in world->shape_slots: its id's index - 1 */
    spx_transform local; /* the def's placement in the body's frame */
    float density;
    float friction, restitution;
    void* user_data;
    spx_filter filter;
    bool sensor; /* makes no contact; reports overlaps (sensor.c) */
} spx_body_shape;

/* Where a shape id leads: body index and the shape's index in it, while the slot is in use. */
typedef struct spx_shape_slot {
    uint32_t body;       /* SPX_NO_BODY while free */
    uint32_t index;      /* in the body's shapes */
    uint32_t next_free;  /* free list link while free */
    uint16_t generation; /* the slot's use, 1..65535: an id matches while equal */
} spx_shape_slot;

typedef struct spx_body {
    spx_body_type type;
    uint16_t generation; /* the slot's, 1..65535: an id matches while equal */
    bool alive;
    bool awake;
    bool enable_sleep;
    bool was_awake; /* awake after the last step (or when made): its sleep events (world.c) */
    bool split;     /* the last step solved it in the split pass (solver.c, solve_split) */
    /* Placement: the origin and rotation the host sees, and the centre of mass the solver moves. */
    vec3s origin;
    versors rotation;
    vec3s center;            /* centre of mass, world */
    vec3s local_center;      /* centre of mass in the body's frame */
    vec3s v, w;              /* linear (of the centre of mass) and angular velocity, world */
    float inv_mass;          /* 0 for static and kinematic */
    mat3s inertia_local;     /* kg m^2 about the centre of mass, body frame; zero for static and kinematic */
    mat3s inv_inertia_local; /* its inverse; zero for static and kinematic */
    float mass;
    float linear_damping, angular_damping, gravity_scale;
    float friction, restitution; /* for shapes without their own (spx_shape_def) */
    float sleep_time;            /* s the body has been resting (island.c) */
    vec3s rest_center;           /* where its centre was when it began resting */
    versors rest_rotation;       /* and its rotation */
    float radius;                /* sphere about the centre of mass holding every shape */
    vec3s principal_inertia;     /* kg m^2: inertia_local's eigenvalues, about the axes of ... */
    versors principal;           /* ... this rotation of the body frame (its columns the eigenvectors) */
    float lever_limit;           /* m: longest lever shift its contacts take in the solver (solver_wide.inc);
                              INFINITY for static and kinematic bodies */
    void* user_data;
    spx_body_shape* shapes;
    uint32_t shape_count;
    uint32_t box_count;    /* of its shapes, those that are not meshes (boxes, spheres, capsules: a pair of
                              them has one manifold at most) */
    bool filtered;         /* a shape has a filter other than the default or is a sensor: its pairs ask
                              spx_shapes_collide */
    uint32_t sensor_count; /* of its shapes, sensors */
    uint32_t next_free;    /* free list link while !alive */
    uint32_t island_next;  /* sleeping island: the next body of the island, or UINT32_MAX */
    /* The pose the shapes' world_box were made at: while origin and rotation are these bit for bit,
       spx_body_shape_box returns them instead of turning every shape again for every pair. */
    vec3s boxes_origin;
    versors boxes_rotation;
    mat3s boxes_matrix; /* boxes_rotation as a matrix: the body's axes, for the contacts' reuse */
} spx_body;

#define SPX_NO_BODY 0xFFFFFFFFu

/* Whether the body moves this step: alive, awake and not static (dynamic or kinematic). The broad
   phase sweeps these, the solver advances them, the contacts and islands follow them, and the
   continuous stage takes its fast bodies among them. */
static inline bool spx_body_moves(const spx_body* b) { return b->alive && b->awake && b->type != SPX_BODY_STATIC; }

/* World-space box of shape s of body b at the body's current placement, made from its rotation. */
spx_obb spx_body_make_box(const spx_body* b, const spx_body_shape* s);

/* The same box: the stored one when the body has not moved since spx_body_update_boxes, else made
   anew (the same floats either way). Called for both sides of every shape pair of every step (a
   body meets several), so inline: a compare and a copy. The pose is compared as bits: -0 and +0
   differ and a NaN equals itself, so a match means the same floats. */
static inline spx_obb spx_body_shape_box(const spx_body* b, const spx_body_shape* s)
{
    if (memcmp(&b->origin, &b->boxes_origin, sizeof(float) * 3) == 0 &&
        memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0)
        return s->world_box;
    return spx_body_make_box(b, s);
}

/* The stored box of shape s when it is current and valid (checked once when made, so that the
   narrow phase need not check it again for every pair), else NULL. */
static inline const spx_obb* spx_body_trusted_box(const spx_body* b, const spx_body_shape* s)
{
    if (s->world_box_valid && memcmp(&b->origin, &b->boxes_origin, sizeof(float) * 3) == 0 &&
        memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0)
        return &s->world_box;
    return NULL;
}

/* The body's rotation as a matrix: the stored one while the rotation is boxes_rotation bit for bit,
   else made anew. */
static inline mat3s spx_body_matrix(const spx_body* b)
{
    if (memcmp(&b->rotation, &b->boxes_rotation, sizeof(float) * 4) == 0) return b->boxes_matrix;
    return glms_quat_mat3(b->rotation);
}

/* Stores every shape's world box at the body's current placement. The world calls it where poses
   change: once a step for each moving body (the broad phase), and when a body is placed. */
void spx_body_update_boxes(spx_body* b);

/* Places a mesh shape's instance at the body's current placement (O(1): the cache is stamped).
   false: the placement is not finite (the instance keeps its last pose). */
bool spx_body_pose_mesh(const spx_body* b, const spx_body_shape* s);

typedef struct spx_world spx_world;

/* A shape def's errors on a body of type `type` (spx_body_create's). */
spx_result spx_shape_check_def(const spx_shape_def* s, spx_body_type type);
/* Shape `bs` from its def: placement, geometry, material (a negative friction or restitution takes
   the body's), user data. Not its radius (spx_body_set_radii), instance or slot. */
void spx_body_shape_init(spx_body_shape* bs, const spx_shape_def* s, float body_friction, float body_restitution);
/* A def that makes the shape again (for the mass of a body whose shapes changed). */
spx_shape_def spx_body_shape_def(const spx_body_shape* bs);
/* A dynamic body's mass, centre of mass (local_center) and inertia from its shapes; others keep
   theirs. SPX_ERR_MASS_OUT_OF_RANGE leaves fields half made: call it on a copy. */
spx_result spx_body_update_mass(spx_body* b);
/* Each shape's bounding radius about the centre of mass, and the body's. */
void spx_body_set_radii(spx_body* b);
/* A mesh shape's instance (nothing for a box). SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_body_make_instance(const spx_world* w, spx_body_shape* bs);
/* box_count and the filtered flag from the shapes, and the world's mesh pair cache with the first mesh. */
void spx_body_count_shapes(spx_world* w, spx_body* b);
/* A material's friction (>= 0) and restitution (0..1): SPX_ERR_NOT_FINITE, SPX_ERR_INVALID_ARGUMENT. */
spx_result spx_material_check(float friction, float restitution);
/* Index of a live body of this world named by id, or SPX_NO_BODY (null, destroyed, or another world's). */
uint32_t spx_body_lookup(const spx_world* w, spx_body_id id);
/* Writes up to `capacity` of the things of the body in `slot` to `out` and returns how many it has. */
typedef uint32_t (*spx_body_fill)(const spx_world* w, uint32_t slot, void* out, uint32_t capacity);
/* A call that lists a body's things into the caller's array (docs/api.md): a NULL world or count, or
   a NULL array given room, SPX_ERR_INVALID_ARGUMENT; a stale id SPX_ERR_STALE_ID; else `fill` writes
   up to capacity of them and *out_count is how many there are. */
spx_result spx_body_list(const spx_world* w, spx_body_id id, void* out, uint32_t capacity, uint32_t* out_count,
                         spx_body_fill fill);

/* Frees what a body's shapes own (mesh instances) and the shape array. */
void spx_body_free_shapes(const spx_allocator* allocator, spx_body* b);

/* The inverse of a 3x3 matrix, scaled by a power of two to about 1 while it is inverted: the
   determinant of an inertia of 1e-13 kg m^2 (1e-39) is no float, and glms_mat3_inv then gives NaN.
   In float range the same floats as glms_mat3_inv. The zero matrix, or a non-finite one, gives zero. */
mat3s spx_mat3_inverse(mat3s m);

/* The inverse inertia in world axes at the body's current rotation. */
mat3s spx_body_inv_inertia_world(const spx_body* b);
/* Its kinetic energy (J) with its velocities, turned by q: 1/2 m v^2 + 1/2 w I w in its own frame
   (no inverse of the world inverse inertia). 0 for a static or kinematic body. */
float spx_body_kinetic_energy(const spx_body* b, versors q);

/* Origin from the centre of mass and rotation (after the solver moved the centre). */
void spx_body_sync_origin(spx_body* b);

#endif
