/* How deep each awake island stacks, and the substeps it needs to stand (docs/world.md, "Tall
   stacks and mass ratios"). */
#ifndef SPX_DYNAMICS_STACK_DEPTH_H
#define SPX_DYNAMICS_STACK_DEPTH_H

#include <sepax/base.h>
#include <stdint.h>

typedef struct spx_world spx_world;

/* By solver body. */
typedef struct spx_stack_scratch {
    uint32_t* start;
    uint32_t* adjacent;
    uint32_t* depth; /* from the support; 0: none */
    uint32_t* queue;
    uint32_t* substeps; /* 0: the world's */
    float* load;        /* kg held up */
    uint32_t start_capacity, adjacent_capacity, depth_capacity, queue_capacity, substeps_capacity, load_capacity;
} spx_stack_scratch;

/* Unit cubes a column holds: (7.84 k_r / (m g))^(1/3), k_r = 0.125 m w^2. */
float spx_stack_standing_depth(float hertz, float gravity);

/* Substeps per deep or loaded island, else 0. Returns the largest. */
uint32_t spx_stack_plan(spx_world* w, uint32_t nb, uint32_t nc, float dt, float hertz);

#define SPX_STACK_DAMPING_RATIO 1.0f

/* loaded, not deep */
#define SPX_STACK_LOADED 0x80000000u

/* Heavy on light sees sqrt(ratio) less damping. */
#define SPX_STACK_LOAD_DAMPING_RATIO 10.0f

#define SPX_STACK_LOAD_PASSES 8

/* One sweep over four points leaves the heavy body short. */
#define SPX_STACK_SHOCK_SWEEPS 8
/* Fewer leave an edge to turn about. */
#define SPX_STACK_SHOCK_POINTS 3

static inline float spx_stack_hertz(uint32_t substeps, float dt) { return 0.25f * (float)substeps / dt; }

spx_result spx_stack_reserve(spx_stack_scratch* s, const spx_allocator* allocator, uint32_t bodies, uint32_t manifolds);
void spx_stack_free(spx_stack_scratch* s, const spx_allocator* allocator);

#endif
