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
    uint16_t number; /* in every id it gives */
    spx_body* bodies;
    uint32_t body_capacity;
    uint32_t body_slots; /* ever used */
    uint32_t free_list;  /* or SPX_NO_BODY */
    uint32_t body_count;
    spx_shape_slot* shape_slots;
    uint32_t shape_slot_capacity;
    uint32_t shape_slots_used; /* ever used */
    uint32_t shape_free_list;  /* or SPX_NO_BODY */
    spx_contacts contacts;
    spx_pair_finder* pairs;
    spx_step_stats stats;
    bool locked;
    /* Scratch, grown between steps only (spx_world_reserve_bodies). */
    uint32_t* island_parent;
    float* island_min_sleep; /* per island root */
    uint32_t* island_head;   /* per island root: a rested island's chain */
    spx_body_id* quarantined;
    uint32_t quarantined_count;
    spx_solver_scratch solver;
    spx_continuous ccd;
    spx_contact_limit contact_limit;
    spx_body_move_event* moves; /* the last step's */
    uint32_t move_count, move_capacity;
    spx_body_sleep_event* sleeps;
    uint32_t sleep_count, sleep_capacity;
    spx_sensors sensors;
    uint32_t sensor_shape_count;
    spx_pair* filtered_pairs; /* broad phase pairs that pass the filters */
    uint32_t filtered_pair_capacity;
    spx_joints joints;

    uint32_t scratch_capacity;
    /* The query tree, made by the first query; query_revision is bumped by every step and every
       spx_world_track_body, and the tree resyncs when it differs. */
    struct spx_query_index* query_index;
    uint64_t query_revision;
};

static inline spx_body_id spx_world_body_id(const spx_world* world, uint32_t slot)
{
    spx_body_id id = { slot + 1, world->number, world->bodies[slot].generation };
    return id;
}

static inline spx_shape_id spx_world_shape_id(const spx_world* world, uint32_t body, uint32_t index)
{
    const uint32_t slot = world->bodies[body].shapes[index].slot;
    spx_shape_id id = { slot + 1, world->number, world->shape_slots[slot].generation };
    return id;
}

/* Enabled (pre_solve) and with a moving dynamic body. */
static inline bool spx_contact_active(const spx_world* w, const spx_contact* c)
{
    const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
    return c->enabled &&
           ((a->type == SPX_BODY_DYNAMIC && spx_body_moves(a)) || (b->type == SPX_BODY_DYNAMIC && spx_body_moves(b)));
}

/* Grows every per-body array; new slots zeroed. On SPX_ERR_OUT_OF_MEMORY nothing changes. */
spx_result spx_world_reserve_bodies(spx_world* world, uint32_t count);

/* Gives the broad phase b's resting box (static: its shapes'; else its bounding sphere's). */
spx_result spx_world_track_body(spx_world* world, uint32_t slot, const spx_body* b);

#endif
