/* Bodies and their shapes, as the world stores them. */
#ifndef SPX_DYNAMICS_BODY_H
#define SPX_DYNAMICS_BODY_H

#include <sepax/world.h>
#include <sepax/geometry.h>
#include <cglm/struct.h>

/* A shape as the step uses it: its box in the body's frame. */
typedef struct spx_body_shape {
    vec3s half_extents;
    vec3s local_center;   /* the box's centre in the body's frame */
    mat3s local_rotation; /* the box's axes in the body's frame */
    float radius;         /* of the sphere about the body's centre of mass holding the shape */
} spx_body_shape;

typedef struct spx_body {
    spx_body_type type;
    uint32_t generation;   /* the slot's: an id matches while equal */
    bool alive;
    bool awake;
    bool enable_sleep;
    /* Placement: the origin and rotation the host sees, and the centre of mass the solver moves. */
    vec3s origin;
    versors rotation;
    vec3s center;          /* centre of mass, world */
    vec3s local_center;    /* centre of mass in the body's frame */
    vec3s v, w;            /* linear (of the centre of mass) and angular velocity, world */
    float inv_mass;        /* 0 for static and kinematic */
    mat3s inertia_local;   /* kg m^2 about the centre of mass, body frame; zero for static and kinematic */
    mat3s inv_inertia_local;/* its inverse; zero for static and kinematic */
    float mass;
    float linear_damping, angular_damping, gravity_scale;
    float friction, restitution;
    float sleep_time;      /* s the body has been resting (island.c) */
    vec3s rest_center;     /* where its centre was when it began resting */
    versors rest_rotation; /* and its rotation */
    float radius;          /* sphere about the centre of mass holding every shape */
    void* user_data;
    spx_body_shape* shapes;
    uint32_t shape_count;
    uint32_t next_free;    /* free list link while !alive */
    uint32_t island_next;  /* sleeping island: the next body of the island, or UINT32_MAX */
} spx_body;

#define SPX_NO_BODY 0xFFFFFFFFu

/* World-space box of shape s of body b at the body's current placement. */
spx_obb spx_body_shape_box(const spx_body* b, const spx_body_shape* s);

/* The inverse inertia in world axes at the body's current rotation. */
mat3s spx_body_inv_inertia_world(const spx_body* b);

/* Origin from the centre of mass and rotation (after the solver moved the centre). */
void spx_body_sync_origin(spx_body* b);

#endif
