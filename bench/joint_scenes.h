/* sepax_bench joints: the jointed scenes, as plain data every engine builds its own world from:
   boxes at their starting poses (unturned; mass 0 is a static box) and joints given by a world
   anchor and a world frame at the start (the frame's x axis is the joint's axis). */
#ifndef SPX_BENCH_JOINT_SCENES_H
#define SPX_BENCH_JOINT_SCENES_H

#include <sepax/math_types.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_joint_body {
    spx_vec3 position; /* m, centre; unturned */
    spx_vec3 half;     /* m */
    float mass;        /* kg; 0: static */
    spx_vec3 velocity; /* m/s at the start */
} bench_joint_body;

typedef enum bench_joint_kind {
    BENCH_JOINT_BALL = 0,   /* btPoint2PointConstraint */
    BENCH_JOINT_HINGE,      /* about the frame's x axis, lower..upper (rad); btHingeConstraint */
    BENCH_JOINT_CONE_TWIST, /* swing within `swing` of the x axis, twist lower..upper; btConeTwistConstraint */
    BENCH_JOINT_WELD        /* btFixedConstraint */
} bench_joint_kind;

typedef struct bench_joint {
    int a, b;        /* body indices; a = -1: the world (b is always a body) */
    spx_vec3 anchor; /* m, world, at the start */
    bench_joint_kind kind;
    spx_quat frame;     /* world, at the start: the joint's axes (x: hinge and twist axis) */
    float lower, upper; /* rad: hinge angle, cone-twist twist; lower == upper == 0: no limit on a hinge */
    float swing;        /* rad: cone-twist's cone */
} bench_joint;

typedef struct bench_joint_scene {
    const char* name;
    int body_count, joint_count;
    bench_joint_body* bodies;
    bench_joint* joints;
    float dt; /* s a step */
    int steps;
} bench_joint_scene;

/// Every engine reads the bodies' poses after each step to measure the joints.
typedef struct bench_joint_peer {
    const char* engine;
    const char* (*describe)(void);
    void* (*create)(const bench_joint_scene* scene);
    void (*step)(void* world);
    void (*read)(const void* world, spx_transform* poses); /* origin (centre) and rotation per body */
    void (*destroy)(void* world);
} bench_joint_peer;

const bench_joint_peer* bench_joint_peer_bullet(void);

#ifdef __cplusplus
}
#endif

#endif
