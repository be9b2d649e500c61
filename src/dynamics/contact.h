/* Contact manifolds between two bodies' shapes, kept across steps for warm starting. */
#ifndef SPX_DYNAMICS_CONTACT_H
#define SPX_DYNAMICS_CONTACT_H

#include "body.h"
#include "broad/pair_finder.h"
#include <sepax/collide.h>
#include <math.h>

/* From n alone: a steady normal keeps its tangents, so friction impulses carry over. */
static inline void spx_contact_tangents(vec3s n, vec3s out[2])
{
    const vec3s t = fabsf(n.x) >= 0.57735f ? glms_vec3_normalize((vec3s){ { n.y, -n.x, 0.0f } })
                                           : glms_vec3_normalize((vec3s){ { 0.0f, n.z, -n.y } });
    out[0] = t;
    out[1] = glms_vec3_cross(n, t);
}

typedef struct spx_contact_point {
    vec3s anchor_a, anchor_b; /* m, from each centre of mass, world, step start */
    float separation;         /* m: < 0 overlap, > 0 gap */
    float normal_impulse;     /* N s */
    float tangent_impulse[2];
    uint32_t id; /* feature pair */
    /* As made, in each body's frame: reused while the pair barely moves. */
    vec3s made_anchor_a, made_anchor_b;
    float made_separation;
} spx_contact_point;

/* Who answers a manifold this step; the stage's are made afresh next step. */
typedef enum spx_contact_owner {
    SPX_CONTACT_SOLVER = 0,
    SPX_CONTACT_CONTINUOUS,
} spx_contact_owner;

/* Sorted by (body_a, body_b, shape_a, shape_b), body_a < body_b. */
typedef struct spx_contact {
    uint32_t body_a, body_b;
    uint16_t shape_a, shape_b;
    vec3s normal; /* unit, A to B */
    vec3s tangent[2];
    float friction, restitution;
    int point_count;
    /* B's pose, normal, margin in A's frame when made: moved, not remade, within
       SPX_CONTACT_REUSE_DISTANCE while the solver owns it. */
    vec3s made_position;
    versors made_turn;
    vec3s made_normal;
    float made_distance;
    float made_margin;
    uint8_t owner; /* spx_contact_owner */
    bool reusable; /* false: host changed it */
    bool enabled;  /* false: pre_solve refused */
    /* Mesh-mesh: the shape pair's sunk state, the next step's query starts from it. */
    bool mesh_sunk;
    spx_contact_point points[SPX_MAX_MANIFOLD_POINTS];
} spx_contact;

/* A body's stored pose as the narrow phase found it, once a step however many pairs ask. */
typedef struct spx_contact_pose {
    uint32_t stamp;     /* the update that found it; 0: never */
    bool turn_stored;   /* boxes_matrix is the rotation's (boxes_rotation matches bit for bit) */
    bool placed_stored; /* the shapes' world boxes are at the pose (boxes_origin matches too) */
} spx_contact_pose;

typedef struct spx_contacts {
    spx_contact* list;
    uint32_t count, capacity;
    spx_contact* prev; /* last step's */
    uint32_t prev_count, prev_capacity;
    spx_contact_event* begin;
    uint32_t begin_count, begin_capacity;
    spx_contact_event* end;
    uint32_t end_count, end_capacity;
    spx_contact_hit_event* hits;
    uint32_t hit_count, hit_capacity;
    spx_contact_event* pending_end; /* reported next step */
    uint32_t pending_end_count, pending_end_capacity;
    float* spin; /* m/s: each body slot's |w| radius, this step's */
    uint32_t spin_capacity;
    spx_contact_pose* poses; /* each body slot's; zeroed up to poses_zeroed */
    uint32_t poses_capacity, poses_zeroed;
    uint32_t stamp; /* this update's, from 1 */
    uint32_t reduced;
    uint32_t reused;
    /* Mesh-mesh triangle pairs; NULL: the query's own. */
    void* mesh_pairs;
    size_t mesh_pairs_bytes;
} spx_contacts;

typedef struct spx_world spx_world;

/* Rebuilds the manifolds, impulses carried by feature id. SPX_ERR_OUT_OF_MEMORY keeps last step's. */
spx_result spx_contacts_update(spx_world* world, const spx_pair* pairs, uint32_t pair_count, float dt);

/* No cache is slower, not wrong: no error. */
void spx_contacts_reserve_mesh_pairs(spx_contacts* c, const spx_allocator* allocator);

spx_result spx_contacts_remove_body(spx_world* world, uint32_t body);

/* Renumbers later shapes down one. SPX_ERR_OUT_OF_MEMORY changes nothing. */
spx_result spx_contacts_remove_shape(spx_world* world, uint32_t body, uint32_t shape);

/* SPX_ERR_OUT_OF_MEMORY changes nothing. */
spx_result spx_contacts_refilter_shape(spx_world* world, uint32_t body, uint32_t shape);

/* Remade, not moved, next step. */
void spx_contacts_forget_body(spx_world* world, uint32_t body);

void spx_contacts_free(spx_contacts* c, const spx_allocator* allocator);

/* m/s, < 0 opening */
float spx_contact_approach(const spx_world* world, const spx_contact* c, const spx_contact_point* p);

/* pre_solve per solver manifold, then hit events. */
void spx_contacts_report(spx_world* world, float dt);

#endif
