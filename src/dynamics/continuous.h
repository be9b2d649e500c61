/* The continuous stage of a step: fast bodies' first contacts along their motion, handled in time
 * order (docs/continuous.md). */
#ifndef SPX_DYNAMICS_CONTINUOUS_H
#define SPX_DYNAMICS_CONTINUOUS_H

#include "body.h"
#include "broad/dynamic_tree.h"
#include "core/index_heap.h"

/* Where an impact's impulse acts: its manifold's points, each with its gap (0 for the ones that
   touch, which the impulse stops; the others may not close their gap before the step ends). */
#define SPX_CCD_IMPACT_POINTS 4
typedef struct spx_ccd_points {
    vec3s p[SPX_CCD_IMPACT_POINTS];
    float gap[SPX_CCD_IMPACT_POINTS];
    float separation; /* m, >= 0: how far apart the touching points still are (the search stops within
                         the rotation tolerance); 0 where not known */
    uint32_t count;
} spx_ccd_points;

/* What the stage keeps of a body during a step. A body's motion is a chain of segments: the first
   is the solver's (start pose to end pose at constant velocities), each impact starts another at
   the impact's time with the body's new velocities. */
typedef struct spx_ccd_body {
    vec3s c0;                    /* centre of mass at the step's start */
    versors q0;                  /* rotation at the step's start */
    vec3s v_pre;                 /* the velocity the broad phase swept it with */
    float t;                     /* s: the current segment starts here ... */
    vec3s c;                     /* ... at this centre of mass */
    versors q;                   /* ... and rotation */
    vec3s v, w;                  /* and moves at these */
    float toi;                   /* s: its first impact from the current time, INFINITY when none */
    vec3s normal;                /* of that impact: from the lower body index to the higher */
    spx_ccd_points points;       /* where its impulse acts */
    uint32_t partner;            /* the other body of that impact */
    uint16_t shape_lo, shape_hi; /* its shapes: of the lower body index, of the higher */
    uint32_t partner_version;
    uint32_t version; /* bumped when its segment changes: records naming it go stale */
    uint32_t impacts; /* this step */
    uint32_t proxy;   /* leaf in the stage's own tree, or SPX_TREE_NULL */
    uint32_t seen;    /* the search that last met it (each candidate once) */
    uint8_t stamp;    /* 1 once the segment is set this step, 2 once an impact changed it */
    uint8_t fast_pre; /* fast by its velocity before the solver: the stage takes its far and fast contacts */
    uint8_t spinning; /* turns more than SPX_CCD_SOLVER_TURN this step: the stage takes all a fast body's contacts */
    uint8_t moved;    /* awake and not static at the step's start: c0, q0 hold */
    uint8_t frozen;   /* past the impact limit: stays where it is for the rest of the step */
    /* Its latest impact this step, which a later impact on it acts through too (continuous_impact.c, an
       impact's group): the other body (UINT32_MAX: none yet), the normal from this body
       to the other, the points and their gaps, and both centres of mass and rotations then (this
       body's first), its time, and how many impacts in a row it had with that body. */
    uint32_t last_partner;
    float last_t;
    uint32_t repeats;
    uint16_t last_shape[2]; /* its shape in that impact, and the other body's */
    vec3s last_n;
    spx_ccd_points last_points;
    vec3s last_c[2];
    versors last_q[2];
    float pose_t; /* s: the segment's pose at this time, kept (a search sweeps one body at
                             its current time against every candidate); negative: none */
    vec3s pose_c;
    mat3s pose_r;
} spx_ccd_body;

typedef struct spx_continuous {
    spx_ccd_body* bodies;
    spx_index_heap events; /* bodies with an impact ahead, by its time (toi), then index */
    uint32_t* fast;        /* the fast bodies of this step */
    uint32_t* touched;     /* bodies whose segment changed: their end pose is the stage's */
    uint32_t* leaves;      /* bodies in the tree below */
    spx_aabb* paths;       /* the fast bodies' paths, to build the tree from */
    uint32_t* build;       /* scratch of the build: twice capacity */
    uint32_t capacity, touched_count, leaf_count;
    uint32_t* candidates; /* of one search */
    uint32_t candidate_count, candidate_capacity;
    spx_dynamic_tree tree; /* bodies whose path may leave their box in the broad phase's trees */
    bool tree_ready;
    uint32_t search;      /* counter for spx_ccd_body.seen */
    float pad;            /* m: how far a slow body's solver motion left its sweep in the broad phase, at most */
    uint32_t slow_movers; /* moving bodies that are not fast this step */
    bool any_fast_pre;
    float dt;        /* s: the step being taken */
    uint64_t* taken; /* body pairs (a << 32 | b) whose contacts begin gave to the stage, sorted */
    uint32_t taken_count, taken_capacity;
    /* The solver's contacts of each dynamic body, which an impact on it also acts through
       (continuous_impact.c, an impact's group): per body slot the first entry, per entry (2 k + 0 for
       contact k in its body_a's list, 2 k + 1 in its body_b's) the next of the same body,
       UINT32_MAX ending both. */
    uint32_t* support_first;
    uint32_t* support_next;
    uint32_t support_capacity;
    bool supports_ready; /* the lists hold this step's contacts */
} spx_continuous;

typedef struct spx_world spx_world;

/* Room for the world's body slots (allocates only when they grew). SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_continuous_reserve(spx_world* world);

/* Before the broad phase: keeps each moving body's start pose and marks the bodies fast by their
   velocity (spx_continuous_is_fast): the stage, not the solver, answers their contacts. */
void spx_continuous_prepare(spx_world* world, float dt);

/* Fast by its velocity this step (after spx_continuous_prepare): the broad phase gives it only its
   box at the step's start (for the contacts it touches now, which the stage meets at time 0). */
static inline bool spx_continuous_is_fast(const spx_continuous* c, uint32_t body)
{
    return c->any_fast_pre && c->bodies[body].fast_pre;
}

/* After the narrow phase, before the solver: takes from the solver the contacts of fast bodies that
   the stage answers instead (far, fast-approaching, or of a fast-spinning body: continuous.c), their
   owner set to SPX_CONTACT_CONTINUOUS. */
void spx_continuous_begin(spx_world* world);

/* After the solver: the impacts of fast bodies along their motion, in time order. Adds its counts
   and flags to `stats`. SPX_ERR_OUT_OF_MEMORY only when a search met more bodies than ever before
   and could not grow (the step is then complete but may have missed impacts: a failed growth
   retries next step). */
spx_result spx_continuous_run(spx_world* world, float dt, spx_step_stats* stats);

void spx_continuous_free(spx_continuous* c, const spx_allocator* allocator);

#endif
