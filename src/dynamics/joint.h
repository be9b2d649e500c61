/* Joints as the world stores and solves them. See docs/joints.md. */
#ifndef SPX_DYNAMICS_JOINT_H
#define SPX_DYNAMICS_JOINT_H

#include <sepax/joint.h>
#include "math/glm_bridge.h"
#include "broad/pair_finder.h"
#include "solver.h"

#define SPX_JOINT_DEF_COOKIE 0x4A4F4E54u /* "JONT" */
#define SPX_NO_JOINT 0xFFFFFFFFu

/* A scalar row: Cdot = n . (vB - vA) + gb . wB - ga . wA, and its effective mass. */
typedef struct spx_joint_row {
    vec3s n, ga, gb;
    float mass;
} spx_joint_row;

/* Two angular rows about u, v solved together: K = (ku kuv; kuv kv); det <= 0: not solved. */
typedef struct spx_joint_pair {
    vec3s u, v;
    float cu, cv, ku, kv, kuv, det, inv_det;
} spx_joint_pair;

/* A joint's frames and rows at the bodies' current poses, remade only when they move. */
typedef struct spx_joint_geom {
    vec3s rA, rB;   /* levers from the centres of mass */
    vec3s d;        /* B's anchor less A's */
    versors RA, RB; /* not for ball, distance, drag */
    vec3s ax, ay, az, bx;
    float point_inv[6];  /* symmetric inverse effective mass of the point rows */
    spx_f4 rA4, rB4, d4; /* (x y z 0) lanes */
    spx_f4 point_inv4[3], inertia_a4[3], inertia_b4[3];
    /* The free axis's row and coordinate (hinge angle, slider/wheel travel, distance, twist). */
    spx_joint_row axis;
    float x;
    float x0;              /* at the step's first geometry; angles then follow the bodies' turns */
    spx_joint_row turn;    /* cone-twist swing (swing_sin > 1e-6), wheel motor */
    spx_joint_row line[2]; /* slider, wheel: two rows across A's line */
    float line_error[2];
    spx_joint_pair pair;            /* hinge, wheel: B's axis held to A's */
    vec3s lock_error;               /* weld, slider: rotation vector A to B */
    vec3s swing_cross;              /* cone-twist: ax x bx */
    float swing_sin, swing, swing0; /* swing0: at the step's first geometry */
    vec3s axle;                     /* wheel: x turned by the steering about y */
} spx_joint_geom;

typedef struct spx_joint {
    spx_joint_type type;
    uint16_t generation; /* 1..65535 */
    bool alive;
    bool collide_connected;
    uint32_t body[2]; /* SPX_NO_BODY for the world */
    uint32_t next[2]; /* next joint in body[k]'s list */
    uint32_t next_free;
    vec3s local_anchor[2]; /* from the centre of mass */
    versors local_frame[2];
    spx_joint_limit limit;
    spx_joint_motor motor;
    spx_joint_spring spring;
    float length, min_length, max_length, swing_limit, steering, max_force;
    float break_force, break_torque;
    vec3s target;
    void* user_data;

    /* Substep impulses (N s), kept for the warm start; multi-row ones as world vectors so they
       survive a basis turning between substeps. */
    vec3s linear_impulse;
    vec3s angular_impulse;
    float axial_impulse;
    float motor_impulse, lower_impulse, upper_impulse, swing_impulse;
    vec3s reaction_force, reaction_torque; /* on B last step, N and N m */
    spx_solver_soft spring_soft;           /* weld: its softness */

    /* Step data, from prepare. */
    uint32_t solver[2]; /* 0: does not move */
    vec3s center0[2];   /* at the step's start */
    vec3s lever0[2];
    versors frame0[2];
    float angular_inv[6];
    uint8_t color;  /* on the lanes; SPX_SOLVER_COLORS: solved alone */
    uint8_t mobile; /* bit 0: A moves, bit 1: B */
    spx_joint_geom geom;
} spx_joint;

/* The world's joints and their per-body lists. */
typedef struct spx_joints {
    spx_joint* list;
    uint32_t capacity;
    uint32_t slots; /* ever used */
    uint32_t free_list;
    uint32_t count;
    uint32_t turning_count; /* hinges and cone-twists */
    uint32_t* body_head;    /* per body slot, or SPX_NO_JOINT */
    uint32_t body_head_capacity;
    spx_pair* pairs; /* the step's pairs less those a joint keeps apart */
    uint32_t pair_capacity;
    uint32_t* active; /* joints with an awake body, slot order */
    uint32_t active_capacity;
    uint32_t active_count;
    spx_solver_soft rigid;
    /* The joints' solver bodies once each, and their turn so far by solver index: made once per
       move for all joints. */
    uint32_t* movers;
    uint32_t mover_capacity, mover_count;
    versors* turns;
    uint32_t turn_capacity;
    bool geom_fresh;      /* no body moved since the geometry was made */
    bool angles_measured; /* this step's first geometry measured its angles */
    spx_joint_break_event* breaks;
    uint32_t break_capacity, break_count;
    /* Ball joints coloured (no shared dynamic body within a colour) into lane blocks, solved
       first; `rest` are solved one at a time in slot order. */
    const struct spx_joint_kernels* kernels;
    void* ball_blocks;
    uint32_t ball_block_capacity, ball_block_count;
    uint32_t* ball_order; /* scratch */
    uint32_t ball_order_capacity;
    uint64_t* color_used; /* scratch: colours by solver body */
    uint32_t color_used_capacity;
    /* Hinges and cone-twists without motor or spring, in lane blocks after the ball joints. */
    void* angular_blocks;
    uint32_t angular_block_capacity, angular_block_count;
    size_t angular_block_bytes;
    uint32_t* angular_order;
    uint32_t angular_order_capacity;
    uint32_t* rest;
    uint32_t rest_capacity, rest_count;
    /* Colouring, blocks and `rest` kept from the last step while prepare finds the joints, bodies,
       movers and kernels the same. */
    bool split_kept;
} spx_joints;

typedef struct spx_world spx_world;

/* Lane kernels (joint_wide.inc), one table a lane width. */
typedef struct spx_joint_kernels {
    uint32_t lanes;
    size_t block_size;
    /* Returns the block count (0: no memory). */
    uint32_t (*prepare)(spx_world* w, const uint32_t* order, const uint32_t* counts, uint32_t colors);
    void (*refresh)(spx_world* w); /* last step's blocks: this step's levers, masses, impulses */
    void (*geometry)(spx_world* w);
    void (*warm_start)(spx_world* w);
    void (*solve)(spx_world* w, spx_solver_soft rigid, bool use_bias);
    void (*store)(spx_world* w);
    /* Hinges and cone-twists; store also leaves the reaction axes in each spx_joint_geom. */
    size_t angular_block_size;
    uint32_t (*angular_prepare)(spx_world* w, const uint32_t* order, const uint32_t* counts, uint32_t colors);
    void (*angular_refresh)(spx_world* w);
    void (*angular_geometry)(spx_world* w);
    void (*angular_warm_start)(spx_world* w);
    void (*angular_solve)(spx_world* w, spx_solver_soft rigid, float inv_h, bool use_bias);
    void (*angular_store)(spx_world* w);
} spx_joint_kernels;

extern const spx_joint_kernels spx_joint_kernels_baseline;
#if defined(SPX_SOLVER_AVX2_DISPATCH)
extern const spx_joint_kernels spx_joint_kernels_avx2;
#endif

void spx_joints_free(spx_joints* j, const spx_allocator* allocator);

/* Destroys the body's joints and wakes their other bodies. */
void spx_joints_remove_body(spx_world* w, uint32_t body);

/* Wakes sleeping bodies joined to awake ones, before the broad phase. */
void spx_joints_wake_step(spx_world* w);

/* Jointed bodies stay with the solver: the continuous stage would move one end alone. */
static inline bool spx_joints_has(const spx_joints* js, uint32_t body)
{
    return body < js->body_head_capacity && js->body_head[body] != SPX_NO_JOINT;
}

bool spx_joints_keep_apart(const spx_world* w, uint32_t a, uint32_t b);

/* *out is `pairs` when no joint filters, else the world's buffer. SPX_ERR_OUT_OF_MEMORY: unfiltered. */
spx_result spx_joints_filter_pairs(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                                   uint32_t* out_count);

/* Destroys a joint that broke this step, with its event. */
void spx_joints_break(spx_world* w, uint32_t slot, vec3s force, vec3s torque);

/* Unites the islands of each joint's two awake dynamic bodies. */
void spx_joints_link_islands(const spx_world* w, uint32_t* parent,
                             void (*unite)(uint32_t* parent, uint32_t a, uint32_t b));

/* Order: reserve, prepare (bodies gathered), warm_start and solve each substep before the
   contacts, store. */
spx_result spx_joints_reserve(spx_world* w);
void spx_joints_prepare(spx_world* w, float h);
void spx_joints_warm_start(spx_world* w);
void spx_joints_solve(spx_world* w, float h, bool use_bias);
void spx_joints_store(spx_world* w, float h);

#endif
