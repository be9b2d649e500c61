/* The inside of spx_world. */
#ifndef SPX_DYNAMICS_WORLD_H
#define SPX_DYNAMICS_WORLD_H

#include "body.h"
#include "contact.h"
#include "contact_limit.h"
#include "solver.h"
#include "continuous.h"
#include "sensor.h"
#include "joint.h"
#include "broad/pair_finder.h"

#define SPX_WORLD_DEF_COOKIE 0x574F524Cu /* "WORL" */
#define SPX_BODY_DEF_COOKIE 0x424F4459u  /* "BODY" */
#define SPX_SHAPE_DEF_COOKIE 0x53485045u /* "SHPE" */

struct spx_world {
    spx_world_def def;
    spx_allocator allocator;
    uint16_t number; /* this world's number, in every id it gives (core/world_number.h) */
    spx_body* bodies;
    uint32_t body_capacity;
    uint32_t body_slots; /* slots ever used: bodies[0 .. body_slots) */
    uint32_t free_list;  /* first free slot, or SPX_NO_BODY */
    uint32_t body_count;
    spx_shape_slot* shape_slots; /* shape ids to (body, index) */
    uint32_t shape_slot_capacity;
    uint32_t shape_slots_used; /* slots ever used: shape_slots[0 .. shape_slots_used) */
    uint32_t shape_free_list;  /* first free slot, or SPX_NO_BODY */
    spx_contacts contacts;
    spx_pair_finder* pairs;
    spx_step_stats stats;
    bool locked;
    /* Scratch sized between steps (grown only when a step needs more; see spx_world_reserve_bodies). */
    uint32_t* island_parent;  /* union-find over bodies */
    float* island_min_sleep;  /* per island root: the least sleep time of its bodies */
    uint32_t* island_head;    /* per island root: first member of a rested island's chain */
    spx_body_id* quarantined; /* the bodies the last step quarantined (spx_world_get_quarantined) */
    uint32_t quarantined_count;
    spx_solver_scratch solver;       /* the solver's packed bodies and contacts (solver.h) */
    spx_continuous ccd;              /* the continuous stage's (continuous.c) */
    spx_contact_limit contact_limit; /* the pairs a step keeps (contact_limit.c) */
    spx_body_move_event* moves;      /* the last step's body events (spx_world_get_body_events) */
    uint32_t move_count, move_capacity;
    spx_body_sleep_event* sleeps;
    uint32_t sleep_count, sleep_capacity;
    spx_sensors sensors;         /* sensor overlaps and events (sensor.c) */
    uint32_t sensor_shape_count; /* sensor shapes in the world */
    spx_pair* filtered_pairs;    /* the broad phase's pairs that pass the filters (filter.c) */
    uint32_t filtered_pair_capacity;
    spx_joints joints; /* joint.c */

    uint32_t scratch_capacity;
    /* The queries' tree of the bodies' bounds (query_index.h), made by the first query, and the count
       of changes to bodies' poses it is checked against: every step, and every spx_world_track_body
       (a body made, placed, put to sleep), bumps it. */
    struct spx_query_index* query_index;
    uint64_t query_revision;
};

/* The id of the body in `slot`: its slot, this world's number, the slot's generation. */
static inline spx_body_id spx_world_body_id(const spx_world* world, uint32_t slot)
{
    spx_body_id id = { slot + 1, world->number, world->bodies[slot].generation };
    return id;
}

/* The id of shape `index` of body `body`. */
static inline spx_shape_id spx_world_shape_id(const spx_world* world, uint32_t body, uint32_t index)
{
    const uint32_t slot = world->bodies[body].shapes[index].slot;
    spx_shape_id id = { slot + 1, world->number, world->shape_slots[slot].generation };
    return id;
}

/* Does the solver work on manifold c: a dynamic body of it moves this step, and the host's
   pre_solve did not switch it off. */
static inline bool spx_contact_active(const spx_world* w, const spx_contact* c)
{
    const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
    return c->enabled &&
           ((a->type == SPX_BODY_DYNAMIC && spx_body_moves(a)) || (b->type == SPX_BODY_DYNAMIC && spx_body_moves(b)));
}

/* Room for bodies[0 .. count): the body array and every per-body array of the step. New slots are
   zeroed. Nothing changes on SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_world_reserve_bodies(spx_world* world, uint32_t count);

/* Gives the broad phase the resting box of body data `b` about to live in `slot` (static: its
   shapes' box; others: the sphere about the centre of mass). */
spx_result spx_world_track_body(spx_world* world, uint32_t slot, const spx_body* b);

#endif
