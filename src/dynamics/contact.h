/* Contact manifolds between the shapes of two bodies, kept from step to step for warm starting. */
#ifndef SPX_DYNAMICS_CONTACT_H
#define SPX_DYNAMICS_CONTACT_H

#include "body.h"
#include "broad/pair_finder.h"
#include <sepax/collide.h>
#include <math.h>

/* Two unit tangents completing the unit normal n to a right-handed frame, from n alone: a manifold
   whose normal does not change keeps its tangents, and its friction impulses stay meaningful across
   steps (the solver's and the continuous stage's points share them). */
static inline void spx_contact_tangents(vec3s n, vec3s out[2])
{
    const vec3s t = fabsf(n.x) >= 0.57735f ? glms_vec3_normalize((vec3s){ { n.y, -n.x, 0.0f } })
                                           : glms_vec3_normalize((vec3s){ { 0.0f, n.z, -n.y } });
    out[0] = t;
    out[1] = glms_vec3_cross(n, t);
}

typedef struct spx_contact_point {
    vec3s anchor_a, anchor_b; /* m: the point relative to each centre of mass, world axes, at the step's start */
    float separation;         /* m at the step's start: < 0 overlapping, > 0 a speculative gap */
    float normal_impulse;     /* N s, accumulated; carried to the next step by id */
    float tangent_impulse[2];
    uint32_t id; /* feature pair (spx_manifold_point.id) */
    /* The point as the narrow phase made it, for reusing it while the pair barely moves
       (contact.c): from each centre of mass in that body's own frame (m), and its separation. */
    vec3s made_anchor_a, made_anchor_b;
    float made_separation;
} spx_contact_point;

/* Who answers a manifold this step. The narrow phase gives each to the solver; the continuous stage
   takes those of the fast bodies whose contacts it answers itself (continuous.c, begin). The
   solver's impulses act only at its own manifolds' points, the stage's impacts act through them
   too (continuous_impact.c, supports), and a manifold the stage took is made afresh next step. */
typedef enum spx_contact_owner {
    SPX_CONTACT_SOLVER = 0,
    SPX_CONTACT_CONTINUOUS,
} spx_contact_owner;

/* One shape pair's manifold. Kept sorted by (body_a, body_b, shape_a, shape_b), body_a < body_b. */
typedef struct spx_contact {
    uint32_t body_a, body_b;
    uint16_t shape_a, shape_b;
    vec3s normal; /* unit, from A to B */
    vec3s tangent[2];
    float friction, restitution;
    int point_count; /* 1..4 (manifolds without points are not kept) */
    /* B's centre of mass and rotation in A's frame when the narrow phase made this manifold, its
       normal then in A's frame and the margin it was made with: while the pair's relative pose
       stays within SPX_CONTACT_REUSE_DISTANCE of that one, the manifold is moved with the bodies
       instead of made again (contact.c), while the solver owns it. */
    vec3s made_position;
    versors made_turn;
    vec3s made_normal;
    float made_distance; /* m between the centres of mass then */
    float made_margin;
    uint8_t owner; /* spx_contact_owner */
    bool reusable; /* false: the host changed a body or shape of it since; made afresh next step */
    bool enabled;  /* false: the host's pre_solve switched it off for this step */
    spx_contact_point points[SPX_MAX_MANIFOLD_POINTS];
} spx_contact;

typedef struct spx_contacts {
    spx_contact* list; /* this step's, sorted */
    uint32_t count, capacity;
    spx_contact* prev; /* last step's, sorted; swapped with list at each update */
    uint32_t prev_count, prev_capacity;
    spx_contact_event* begin;
    uint32_t begin_count, begin_capacity;
    spx_contact_event* end;
    uint32_t end_count, end_capacity;
    spx_contact_hit_event* hits; /* this step's (contact_report.c) */
    uint32_t hit_count, hit_capacity;
    spx_contact_event* pending_end; /* pairs ended by body or shape destruction, reported at the next step */
    uint32_t pending_end_count, pending_end_capacity;
    uint32_t reduced; /* manifolds cut to 4 points this step */
    uint32_t reused;  /* body pairs whose manifolds were moved, not made again, this step */
    /* Cache for the mesh-mesh manifold's triangle pairs (spx_manifold_mesh_mesh_buffered), made with
       the first mesh body; NULL until then or if that failed (the query then uses its own, smaller
       one). The continuous stage's mesh-mesh manifolds use it too. */
    void* mesh_pairs;
    size_t mesh_pairs_bytes;
} spx_contacts;

typedef struct spx_world spx_world;

/* Rebuilds the manifolds from this step's pairs: each shape pair through the box-box manifold,
   impulses carried over by feature id, sleeping pairs kept as they are, begin and end events.
   dt: the step, for the speculative margin. Wakes the sleeping bodies an awake body touches.
   SPX_ERR_OUT_OF_MEMORY leaves last step's manifolds in place. */
spx_result spx_contacts_update(spx_world* world, const spx_pair* pairs, uint32_t pair_count, float dt);

/* Makes the mesh-pair cache if there is none yet: called when a body with a mesh is created.
   Without it the mesh-mesh queries are slower, not wrong, so running out of memory here is no error. */
void spx_contacts_reserve_mesh_pairs(spx_contacts* c, const spx_allocator* allocator);

/* Drops every manifold of a body being destroyed, with end events for the next step. */
spx_result spx_contacts_remove_body(spx_world* world, uint32_t body);

/* Drops the manifolds of shape `shape` of `body` (being destroyed) with end events for the next
   step, and renumbers the body's later shapes down one in the rest. SPX_ERR_OUT_OF_MEMORY changes
   nothing. */
spx_result spx_contacts_remove_shape(spx_world* world, uint32_t body, uint32_t shape);

/* Drops the manifolds of shape `shape` of `body` whose pair its filter now forbids, or all of them
   when it is now a sensor, with end events for the next step. SPX_ERR_OUT_OF_MEMORY changes nothing. */
spx_result spx_contacts_refilter_shape(spx_world* world, uint32_t body, uint32_t shape);

/* The body's manifolds are made again at the next step, not moved with the bodies: its shapes,
   mass or filter changed. */
void spx_contacts_forget_body(spx_world* world, uint32_t body);

void spx_contacts_free(spx_contacts* c, const spx_allocator* allocator);

/* m/s: how fast point p of manifold c closes along its normal with the bodies' velocities now
   (< 0: opening). */
float spx_contact_approach(const spx_world* world, const spx_contact* c, const spx_contact_point* p);

/* After spx_contacts_update: the host's pre_solve for each manifold the solver will work on (a
   manifold it refuses is switched off, its impulses zeroed), then the hit events (room for one a
   manifold was made by spx_contacts_update). dt: the step. */
void spx_contacts_report(spx_world* world, float dt);

#endif
