/* Joints as the world stores and solves them (joint.c: the API and bookkeeping; joint_solver.c: the
   soft-step rows). */
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

/* Two angular rows about u and v, solved together: their 2x2 K (ku kuv; kuv kv), 1 / its
   determinant (det <= 0: not solved) and their errors. */
typedef struct spx_joint_pair {
    vec3s u, v;
    float cu, cv, ku, kv, kuv, det, inv_det;
} spx_joint_pair;

/* Where a joint's frames are at the current point of the substep (joint_solver.c): made when the
   bodies have moved (the warm start, the first relax pass), read by every pass until they move,
   with the rows the joint's kind solves there (their masses: the step's inertias). */
typedef struct spx_joint_geom {
    vec3s rA, rB;         /* levers from the centres of mass */
    vec3s d;              /* B's anchor less A's */
    versors RA, RB;       /* frames in the world (not for ball, distance, drag) */
    vec3s ax, ay, az, bx; /* A's frame axes, B's x axis (as RA, RB) */
    float point_inv[6];   /* inverse effective mass of the anchors' point rows (if it has them), symmetric */
    /* The levers and the gap as four lanes (x y z 0), and for the point rows the columns of their
       inverse effective mass and of each body's inverse inertia. */
    spx_f4 rA4, rB4, d4;
    spx_f4 point_inv4[3], inertia_a4[3], inertia_b4[3];
    /* The free axis's row and coordinate: a hinge's turn about ax and its angle, a slider's travel
       along ax, a wheel's along ay, a distance joint's along the anchors' line and its length, a
       cone-twist's twist about the mean x axis and its angle. */
    spx_joint_row axis;
    float x;
    float x0;              /* x at the step's first geometry: later ones move it by the bodies' turns (angles) */
    spx_joint_row turn;    /* a cone-twist's swing row (when swing_sin > 1e-6), a wheel's motor about its axle */
    spx_joint_row line[2]; /* slider, wheel: the anchors held on A's line by two rows across it */
    float line_error[2];
    spx_joint_pair pair;            /* hinge, wheel: the two angular rows holding B's axis to A's */
    vec3s lock_error;               /* weld, slider: the rotation vector from A's frame to B's */
    vec3s swing_cross;              /* cone-twist: ax x bx, its norm and the swing angle */
    float swing_sin, swing, swing0; /* swing0: the swing at the step's first geometry */
    vec3s axle;                     /* wheel: A's x axis turned by the steering about A's y */
} spx_joint_geom;

typedef struct spx_joint {
    spx_joint_type type;
    uint16_t generation; /* the slot's, 1..65535 */
    bool alive;
    bool collide_connected;
    uint32_t body[2]; /* slots of A and B; SPX_NO_BODY for the world */
    uint32_t next[2]; /* next joint in body[k]'s list (the list of the body this end names) */
    uint32_t next_free;
    vec3s local_anchor[2];  /* anchors in each body's frame, from its centre of mass */
    versors local_frame[2]; /* frame rotations in each body's frame */
    spx_joint_limit limit;
    spx_joint_motor motor;
    spx_joint_spring spring;
    float length, min_length, max_length, swing_limit, steering, max_force;
    float break_force, break_torque;
    vec3s target;
    void* user_data;

    /* Accumulated impulses of a substep (N s), kept between steps for the warm start. Rows of two
       or three are held as world vectors so that a basis turning between substeps keeps them. */
    vec3s linear_impulse;  /* the point (or its perpendicular rows) */
    vec3s angular_impulse; /* the angular lock rows */
    float axial_impulse;   /* spring or rigid row along the axis / distance */
    float motor_impulse, lower_impulse, upper_impulse, swing_impulse;
    vec3s reaction_force, reaction_torque; /* on B last step, N and N m */
    spx_solver_soft spring_soft;           /* the joint's own spring over a substep (weld: its softness) */

    /* Step data (joint_solver.c's prepare). */
    uint32_t solver[2];   /* solver body indices (0: does not move) */
    vec3s center0[2];     /* centres of mass at the step's start */
    vec3s lever0[2];      /* anchors from the centres, world axes at the step's start */
    versors frame0[2];    /* frame rotations in the world at the step's start */
    float angular_inv[6]; /* inverse effective mass of three angular rows: the inertias are the step's */
    uint8_t color;        /* its colour on the lanes (ball, hinge, cone-twist); SPX_SOLVER_COLORS: solved alone */
    uint8_t mobile;       /* which ends move (bit 0: A, bit 1: B), as the colouring saw them */
    spx_joint_geom geom;
} spx_joint;

/* The world's joints and their per-body lists. */
typedef struct spx_joints {
    spx_joint* list;
    uint32_t capacity;
    uint32_t slots; /* slots ever used */
    uint32_t free_list;
    uint32_t count;
    uint32_t turning_count; /* of them hinges and cone-twists */
    uint32_t* body_head;    /* per body slot: first joint naming it, or SPX_NO_JOINT */
    uint32_t body_head_capacity;
    spx_pair* pairs; /* the step's body pairs without those whose joint keeps them apart */
    uint32_t pair_capacity;
    uint32_t* active; /* the step's joints with an awake body, in slot order */
    uint32_t active_capacity;
    uint32_t active_count;
    spx_solver_soft rigid; /* the step's softness of rigid rows (joint_solver.c) */
    /* The joints' bodies (solver indices, each once) and, by solver index, their turn so far as a
       unit quaternion: made once each time the bodies move, for all their joints. */
    uint32_t* movers;
    uint32_t mover_capacity, mover_count;
    versors* turns;
    uint32_t turn_capacity;
    bool geom_fresh;               /* every joint's geometry is where the bodies are (no move since it was made) */
    bool angles_measured;          /* this step's first geometry made: its angles measured (atan2f) */
    spx_joint_break_event* breaks; /* the last step's (capacity: the joint capacity) */
    uint32_t break_capacity, break_count;
    /* The step's ball joints coloured (no two of a colour share a dynamic body) in blocks of the
       lanes' width (joint_wide.inc), solved before the rest; `rest` the other active joints, in
       slot order, one at a time. */
    const struct spx_joint_kernels* kernels;
    void* ball_blocks;
    uint32_t ball_block_capacity, ball_block_count;
    uint32_t* ball_order; /* scratch: the ball joints by colour */
    uint32_t ball_order_capacity;
    uint64_t* color_used; /* scratch: by solver body, the colours its ball joints have */
    uint32_t color_used_capacity;
    /* The step's hinges and cone-twists that fit a lane (no motor, no spring), coloured apart from
       the ball joints and solved in blocks after them, their geometry made on the lanes. */
    void* angular_blocks; /* reserved for every hinge and cone-twist (spx_joints_reserve) */
    uint32_t angular_block_capacity, angular_block_count;
    size_t angular_block_bytes;
    uint32_t* angular_order; /* the joints of the blocks, by colour */
    uint32_t angular_order_capacity;
    uint32_t* rest;
    uint32_t rest_capacity, rest_count;
    /* The colouring, the blocks' layout and `rest` are kept from the last step while the active
       joints, their solver bodies, which of those move and the kernels are the same (prepare checks
       them); false until made, or when the blocks found no memory. */
    bool split_kept;
} spx_joints;

typedef struct spx_world spx_world;

/* Ball joints on lanes (joint_wide.inc): one table a lane width, picked with the contacts'. */
typedef struct spx_joint_kernels {
    uint32_t lanes;
    size_t block_size; /* bytes a block */
    /* The ball joints `order`, counts[c] of colour c, into blocks; their number (0: no memory). */
    uint32_t (*prepare)(spx_world* w, const uint32_t* order, const uint32_t* counts, uint32_t colors);
    void (*refresh)(spx_world* w);  /* the blocks laid out last step: this step's levers, masses, impulses */
    void (*geometry)(spx_world* w); /* the blocks' geometry where the bodies are now */
    void (*warm_start)(spx_world* w);
    void (*solve)(spx_world* w, spx_solver_soft rigid, bool use_bias);
    void (*store)(spx_world* w); /* the impulses back to the joints */
    /* The same for the hinges and cone-twists on lanes; `store` also leaves in each joint's
       spx_joint_geom the axes its reaction is measured along. */
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

/* Destroys every joint of body slot `body` and wakes their other bodies (spx_body_destroy). */
void spx_joints_remove_body(spx_world* w, uint32_t body);

/* Wakes the sleeping bodies joined to awake ones (a body woken or moved by the host), before the
   broad phase sees who moves. */
void spx_joints_wake_step(spx_world* w);

/* Has body slot `body` a joint? Jointed bodies stay with the solver (continuous.c): an impact the
   continuous stage resolves alone moves one body of a joint and leaves the other (a ragdoll's leg
   stopped by the floor 8 cm from its hip). */
static inline bool spx_joints_has(const spx_joints* js, uint32_t body)
{
    return body < js->body_head_capacity && js->body_head[body] != SPX_NO_JOINT;
}

/* Does a joint between body slots a and b, without collide_connected, keep them from colliding? */
bool spx_joints_keep_apart(const spx_world* w, uint32_t a, uint32_t b);

/* pairs[0 .. n) without the body pairs that a joint without collide_connected holds: *out points
   at `pairs` when no joint asks for it, else at the world's buffer. SPX_ERR_OUT_OF_MEMORY: nothing
   filtered. */
spx_result spx_joints_filter_pairs(spx_world* w, const spx_pair* pairs, uint32_t n, const spx_pair** out,
                                   uint32_t* out_count);

/* Destroys joint `slot`, which broke in this step, with its event (joint_solver.c's store). */
void spx_joints_break(spx_world* w, uint32_t slot, vec3s force, vec3s torque);

/* Joins the islands of every joint's two awake dynamic bodies (island.c's union-find). */
void spx_joints_link_islands(const spx_world* w, uint32_t* parent,
                             void (*unite)(uint32_t* parent, uint32_t a, uint32_t b));

/* The solver's side (joint_solver.c). reserve before anything changes; prepare after the bodies are
   gathered; warm_start and solve inside each substep before the contacts'; store after the substeps. */
spx_result spx_joints_reserve(spx_world* w);
void spx_joints_prepare(spx_world* w, float h);
void spx_joints_warm_start(spx_world* w);
void spx_joints_solve(spx_world* w, float h, bool use_bias);
void spx_joints_store(spx_world* w, float h);

#endif
