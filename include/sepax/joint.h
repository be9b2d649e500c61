/* sepax: joints between bodies, solved in the world's soft step with the contacts (docs/joints.md).
 *
 * A joint ties a frame on body A to a frame on body B. Each frame is a transform in its body's
 * own frame (the one spx_body_get_transform gives), so an anchor 1 m along a body's x axis is
 * p = (1, 0, 0) whatever the body's pose. The frame's x axis is the joint's axis: the hinge's
 * turning axis, the slider's travel, the cone-twist's twist axis, the wheel's axle; the wheel's
 * suspension and steering run along A's frame's y axis. body_a may be the null id: the joint then
 * holds B to the world, and frame_a is in world coordinates. */
#ifndef SEPAX_JOINT_H
#define SEPAX_JOINT_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A joint handle, 8 bytes, named like spx_body_id: slot + 1, world number, slot generation. Every
/// call taking one returns SPX_ERR_STALE_ID for a joint destroyed (itself or with one of its bodies)
/// or of another world. All zero is the null id.
typedef struct spx_joint_id {
    uint32_t index;
    uint16_t world;
    uint16_t generation;
} spx_joint_id;

/// What a joint holds.
typedef enum spx_joint_type {
    SPX_JOINT_BALL = 0,   /* anchors together; free to turn (spherical) */
    SPX_JOINT_HINGE,      /* anchors together, turning about the frames' x axes only (revolute) */
    SPX_JOINT_SLIDER,     /* no turning; B's anchor travels along A's x axis only (prismatic) */
    SPX_JOINT_WELD,       /* frames held together (fixed), rigid or soft */
    SPX_JOINT_DISTANCE,   /* anchors a length apart: rigid, a spring, or a rope between min and max */
    SPX_JOINT_CONE_TWIST, /* ball with B's x axis inside a cone about A's and a twist range about it */
    SPX_JOINT_WHEEL,      /* suspension along A's y axis, B spins about its x axis, steered about A's y */
    SPX_JOINT_DRAG,       /* B's anchor pulled to a world target by a spring of bounded force (picking) */
    SPX_JOINT_TYPE_COUNT
} spx_joint_type;

/// A limit on the joint's coordinate (rad for hinge and twist, m for slider and wheel).
typedef struct spx_joint_limit {
    bool enable;
    float lower, upper; /* lower <= upper */
} spx_joint_limit;

/// A motor drives the joint's coordinate at a speed, with at most max_force (N, or N m for turning).
typedef struct spx_joint_motor {
    bool enable;
    float speed;     /* rad/s or m/s */
    float max_force; /* >= 0 */
} spx_joint_motor;

/// A damped spring on the joint's coordinate toward its rest (0: the frames aligned; distance: length).
typedef struct spx_joint_spring {
    bool enable;
    float hertz;         /* >= 0: stiffness as an undamped frequency; 0 is no spring force */
    float damping_ratio; /* >= 0: 1 is critical */
} spx_joint_spring;

/// How to make a joint. Start from spx_default_joint_def(type): it fills the fields that type reads.
typedef struct spx_joint_def {
    spx_joint_type type;
    spx_body_id body_a;           /* may be null: the world */
    spx_body_id body_b;           /* a live body, not body_a; one of the two must be dynamic */
    spx_transform frame_a;        /* joint frame in A's body frame (world frame if A is null); unit q */
    spx_transform frame_b;        /* joint frame in B's body frame; unit q */
    bool collide_connected;       /* default false: the two bodies pass through each other */
    spx_joint_limit limit;        /* hinge (rad), slider (m), wheel suspension travel (m), cone-twist twist (rad) */
    spx_joint_motor motor;        /* hinge, slider, wheel (drive about the axle) */
    spx_joint_spring spring;      /* hinge, slider, weld (softness), distance, wheel suspension, drag */
    float length;                 /* distance: m, > 0; rest length of its spring or rigid length */
    float min_length, max_length; /* distance, with limit.enable: the rope's range, 0 <= min <= max */
    float swing_limit;            /* cone-twist: rad, 0..pi: largest angle between A's and B's x axes */
    float steering;               /* wheel: rad, the axle turned about A's y axis */
    spx_vec3 target;              /* drag: world point B's anchor is pulled to */
    float max_force;              /* drag: N, > 0 */
    float break_force;  /* N, >= 0: the joint breaks when its force on B passes this; default FLT_MAX (never) */
    float break_torque; /* N m, >= 0: likewise its torque; default FLT_MAX */
    void* user_data;
    uint32_t internal_cookie; /* set by spx_default_joint_def(); do not touch */
} spx_joint_def;

/// A joint that broke in the last step (its force or torque passed its threshold): it is destroyed
/// (its id is stale), and this is what it was and what it bore.
typedef struct spx_joint_break_event {
    spx_joint_id joint;
    spx_body_id a, b;       /* a null for a joint to the world */
    spx_vec3 force, torque; /* on B in the step it broke, N and N m, world axes */
    void* user_data;
} spx_joint_break_event;

/// A def with the defaults of `type`: identity frames, limits and motors off, no collision between
/// the bodies; distance length 1; cone-twist swing_limit pi/4 and twist limits -pi/4..pi/4 (on);
/// wheel suspension spring 4 Hz, damping 0.7; drag spring 5 Hz, damping 0.7, max_force 1000 N;
/// break_force and break_torque FLT_MAX (unbreakable).
/// An unknown type gives a def that spx_joint_create rejects (SPX_ERR_INVALID_ARGUMENT).
SPX_API spx_joint_def spx_default_joint_def(spx_joint_type type);

/// Creates a joint and wakes its bodies. Errors, in this order: SPX_ERR_INVALID_ARGUMENT (NULL, an
/// unknown type), SPX_ERR_WORLD_LOCKED, SPX_ERR_UNINITIALIZED_DEF, SPX_ERR_STALE_ID (a body id
/// that names no live body of this world; body_b null), SPX_ERR_NOT_FINITE (a NaN or infinity in a
/// frame or parameter), SPX_ERR_OUT_OF_RANGE (an anchor beyond SPX_MAX_COORDINATE),
/// SPX_ERR_NOT_ORTHONORMAL (a frame rotation not unit), SPX_ERR_BAD_JOINT (the same body twice, no
/// dynamic body, limits the wrong way round, a negative speed limit, stiffness, force or break
/// threshold, a length out of range), SPX_ERR_OUT_OF_MEMORY. *out set only on success.
SPX_API spx_result spx_joint_create(spx_world* world, const spx_joint_def* def, spx_joint_id* out);

/// Destroys a joint and wakes its bodies. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world),
/// SPX_ERR_STALE_ID, SPX_ERR_WORLD_LOCKED. A body's destruction destroys its joints.
SPX_API spx_result spx_joint_destroy(spx_world* world, spx_joint_id id);

/// Is the id a live joint of this world?
SPX_API bool spx_joint_is_valid(const spx_world* world, spx_joint_id id);

/// The joint's type and bodies (body_a null for a joint to the world). Errors: SPX_ERR_INVALID_ARGUMENT
/// (NULL), SPX_ERR_STALE_ID.
SPX_API spx_result spx_joint_get_bodies(const spx_world* world, spx_joint_id id, spx_joint_type* out_type,
                                        spx_body_id* out_a, spx_body_id* out_b);

/// The force (N) and torque (N m) the joint applied to body B in the last step, world axes, about
/// B's anchor (A felt the opposite). Errors as get_bodies.
SPX_API spx_result spx_joint_get_reaction(const spx_world* world, spx_joint_id id, spx_vec3* out_force,
                                          spx_vec3* out_torque);

/// Changes a joint's motor, spring or limit between steps and wakes its bodies. Errors as
/// spx_joint_create's for those fields (SPX_ERR_NOT_FINITE, SPX_ERR_BAD_JOINT), SPX_ERR_STALE_ID,
/// SPX_ERR_WORLD_LOCKED, SPX_ERR_INVALID_ARGUMENT (NULL world).
SPX_API spx_result spx_joint_set_motor(spx_world* world, spx_joint_id id, spx_joint_motor motor);
SPX_API spx_result spx_joint_set_spring(spx_world* world, spx_joint_id id, spx_joint_spring spring);
SPX_API spx_result spx_joint_set_limit(spx_world* world, spx_joint_id id, spx_joint_limit limit);
/// The drag joint's target (world, m). Errors as set_motor; SPX_ERR_OUT_OF_RANGE for a target
/// beyond SPX_MAX_COORDINATE; SPX_ERR_BAD_JOINT for a joint of another type.
SPX_API spx_result spx_joint_set_target(spx_world* world, spx_joint_id id, spx_vec3 target);
/// The wheel's steering angle (rad). Errors as set_target.
SPX_API spx_result spx_joint_set_steering(spx_world* world, spx_joint_id id, float angle);

/// The joints the last step broke, in slot order, valid until the next step. Errors:
/// SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_world_get_joint_break_events(const spx_world* world, const spx_joint_break_event** out,
                                                    uint32_t* out_count);

SPX_API spx_result spx_joint_get_user_data(const spx_world* world, spx_joint_id id, void** out);
SPX_API spx_result spx_joint_set_user_data(spx_world* world, spx_joint_id id, void* user_data);

#ifdef __cplusplus
}
#endif

#endif
