/* Stack depth: how many resting contacts an awake island stacks above what holds it up, and the
   substeps and contact spring an island that deep needs to stand (docs/world.md, "Tall stacks"). */
#ifndef SPX_DYNAMICS_STACK_DEPTH_H
#define SPX_DYNAMICS_STACK_DEPTH_H

#include <sepax/base.h>
#include <stdint.h>

typedef struct spx_world spx_world;

/* The arrays, grown with the world and kept between steps. Indexed by solver body unless said. */
typedef struct spx_stack_scratch {
    uint32_t* start;    /* [nb + 1]: each body's first entry in `adjacent` */
    uint32_t* adjacent; /* [2 nc]: the dynamic bodies each body touches */
    uint32_t* depth;    /* contacts from the nearest support (1: touches one); 0: none reached */
    uint32_t* queue;    /* breadth-first order, then an island's members */
    uint32_t* substeps; /* the island's substeps; 0: the world's own */
    float* load;        /* kg: the mass a body holds up, its own and a share of what rests on it */
    uint32_t start_capacity, adjacent_capacity, depth_capacity, queue_capacity, substeps_capacity, load_capacity;
} spx_stack_scratch;

/* The fewest bodies a column of unit cubes must stack to fall over on springs of `hertz` (twice that
   against the ground) under `gravity` m/s^2: (7.84 k_r / (m g))^(1/3), k_r = 0.125 m omega^2. */
float spx_stack_standing_depth(float hertz, float gravity);

/* After the solver gathered its bodies (nb, index 0 the immovable one) and manifolds (nc): each awake
   island's depth, the longest of its bodies' shortest chains of contacts down to a body that does
   not move (static, kinematic, asleep), and, where a body touches a much heavier one, its load: the
   mass each body holds up, handed down the same chains in equal shares. An island with no joint that
   is deeper than spx_stack_standing_depth of the world's spring, or loaded (a body holds up more than
   SPX_STACK_LOAD_RATIO times its own mass), gets in scratch->substeps the fewest substeps (up to
   max_stack_substeps) whose quarter rate gives a spring that holds it (spx_stack_hertz), with
   SPX_STACK_LOADED set when only its load asks for them; every other island 0. Returns the largest
   count given, 0 when every island keeps the world's own. */
uint32_t spx_stack_plan(spx_world* w, uint32_t nb, uint32_t nc, float dt, float hertz);

/* A deep island's spring is damped at this ratio at most: at the world's default of 5 the top of the
   pyramid of base 50 creeps 2 cm in 10 s, at 1 under 0.3 mm. */
#define SPX_STACK_DAMPING_RATIO 1.0f

/* In a substep plan: the island is loaded, not deep, and its spring is damped at
   SPX_STACK_LOAD_DAMPING_RATIO. */
#define SPX_STACK_LOADED 0x80000000u

/* A loaded island's damping ratio. Its spring has the light body's effective mass, and a heavy body
   rocking on it sees that damping shrunk by the square root of their ratio: damped at the world's 5
   a 1,000 kg box on a 1 kg box jitters at 5.7 times the sleep thresholds, at 10 it rests. */
#define SPX_STACK_LOAD_DAMPING_RATIO 10.0f

/* Biased passes a substep a loaded island's uneven contacts get beyond the rest (the world's:
   SPX_SOLVER_UNEVEN_PASSES). A pass corrects the heavy body's velocity through the light one by
   about their mass ratio, along the normal and the friction directions alike: with 2, five boxes
   with 1 kg at the bottom and two 1,000 kg boxes slide sideways at 8.8 times the sleep thresholds. */
#define SPX_STACK_LOAD_PASSES 8

/* A loaded island's last relax is solved from the support up along the normals, each contact's lower
   body held still (shock propagation, solver.c): this many sweeps a level, since a sweep over a
   face's four points one after the other leaves the heavy body part of what they need. */
#define SPX_STACK_SHOCK_SWEEPS 8
/* The fewest points a contact needs for the shock relax: three fix the upper body's motion along the
   normal to the lower one's, fewer leave it a turn about an edge or a corner (solver_wide.inc). */
#define SPX_STACK_SHOCK_POINTS 3

/* Hz: the contact spring of an island solved in `substeps` substeps of dt: a quarter of that rate. */
static inline float spx_stack_hertz(uint32_t substeps, float dt) { return 0.25f * (float)substeps / dt; }

spx_result spx_stack_reserve(spx_stack_scratch* s, const spx_allocator* allocator, uint32_t bodies, uint32_t manifolds);
void spx_stack_free(spx_stack_scratch* s, const spx_allocator* allocator);

#endif
