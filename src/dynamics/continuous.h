/* The continuous stage: fast bodies' first contacts, in time order. See docs/continuous.md. */
#ifndef SPX_DYNAMICS_CONTINUOUS_H
#define SPX_DYNAMICS_CONTINUOUS_H

#include "body.h"
#include "broad/dynamic_tree.h"
#include "core/index_heap.h"

/* gap 0: touching, stopped by the impulse */
#define SPX_CCD_IMPACT_POINTS 4
typedef struct spx_ccd_points {
    vec3s p[SPX_CCD_IMPACT_POINTS];
    float gap[SPX_CCD_IMPACT_POINTS];
    float separation; /* m: touching points' distance; 0 unknown */
    uint32_t count;
} spx_ccd_points;

/* A body's motion is a chain of segments: the solver's, then one from each impact. */
typedef struct spx_ccd_body {
    vec3s c0; /* pose at the step's start */
    versors q0;
    vec3s v_pre;
    float t; /* s: the segment starts at t, pose c, q, moving at v, w */
    vec3s c;
    versors q;
    vec3s v, w;
    float toi; /* s: next impact (INFINITY: none); normal from lower body index to higher */
    vec3s normal;
    spx_ccd_points points;
    uint32_t partner;
    uint16_t shape_lo, shape_hi;
    uint32_t partner_version;
    uint32_t version; /* stales records */
    uint32_t impacts;
    uint32_t proxy;
    uint32_t seen;
    uint8_t stamp;    /* 1 segment set, 2 changed by an impact */
    uint8_t fast_pre; /* fast by its pre-solver velocity */
    uint8_t spinning; /* turns > SPX_CCD_SOLVER_TURN: the stage takes all */
    uint8_t moved;
    uint8_t frozen; /* impact limit: stays put */
    uint8_t quick;  /* fast, or moving more than a calm body since its latest restart: searched against calm ones */
    /* Latest impact, which later ones act through too. */
    uint32_t last_partner;
    float last_t;
    uint32_t repeats;
    uint16_t last_shape[2];
    vec3s last_n;
    spx_ccd_points last_points;
    vec3s last_c[2];
    versors last_q[2];
    float pose_t; /* < 0: none */
    vec3s pose_c;
    mat3s pose_r;
} spx_ccd_body;

typedef struct spx_continuous {
    spx_ccd_body* bodies;
    spx_index_heap events; /* by (toi, index) */
    uint32_t* fast;
    uint32_t* touched; /* end pose is the stage's */
    uint32_t* leaves;
    spx_aabb* paths;
    uint32_t* build;
    uint32_t capacity, touched_count, leaf_count;
    uint32_t* candidates;
    uint32_t candidate_count, candidate_capacity;
    spx_dynamic_tree tree;
    bool tree_ready;
    uint32_t search;
    float pad; /* m: slow bodies' drift past their sweep */
    uint32_t slow_movers;
    bool any_fast_pre;
    float dt;
    uint64_t* taken; /* a << 32 | b, sorted */
    uint32_t taken_count, taken_capacity;
    /* Per body its solver contacts: first per body, next per entry (2 k: body_a, 2 k + 1: body_b). */
    uint32_t* support_first;
    uint32_t* support_next;
    uint32_t support_capacity;
    bool supports_ready;
} spx_continuous;

typedef struct spx_world spx_world;

spx_result spx_continuous_reserve(spx_world* world);

/* Before the broad phase: start poses, fast bodies. */
void spx_continuous_prepare(spx_world* world, float dt);

/* The broad phase gives it only its step-start box. */
static inline bool spx_continuous_is_fast(const spx_continuous* c, uint32_t body)
{
    return c->any_fast_pre && c->bodies[body].fast_pre;
}

/* Before the solver: takes fast bodies' far, fast-approaching or spinning contacts. */
void spx_continuous_begin(spx_world* world);

/* SPX_ERR_OUT_OF_MEMORY: step done, impacts may be missed. */
spx_result spx_continuous_run(spx_world* world, float dt, spx_step_stats* stats);

void spx_continuous_free(spx_continuous* c, const spx_allocator* allocator);

#endif
