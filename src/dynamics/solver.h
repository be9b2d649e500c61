/* The contact solver: soft contacts, warm-started sequential impulses, substeps. */
#ifndef SPX_DYNAMICS_SOLVER_H
#define SPX_DYNAMICS_SOLVER_H

#include <sepax/base.h>
#include <sepax/world.h>
#include "math/glm_bridge.h"
#include "math/simd.h"
#include "stack_depth.h"
#include <math.h>
#include <stdint.h>

typedef struct spx_world spx_world;

/* What the contact loops read and write of a moving body, packed together (80 bytes) and indexed
   by solver index; index 0 is a body that never moves (static, sleeping: all zero). The first 8
   floats are all that the warm start and the biased passes read and write (v, w and inv_mass):
   those passes move two rows of four floats a body instead of five. */
typedef struct spx_solver_body {
    vec3s v, w;     /* m/s, rad/s, world */
    float inv_mass; /* 0 for kinematic bodies */
    float pad_;
    vec3s dp, dtheta;     /* m, rad: the step's motion so far */
    float inv_inertia[6]; /* world axes at the step's start, symmetric: xx yy zz xy xz yz */
} spx_solver_body;

/* The rest of a moving body's step data, used once a substep or once a step. */
typedef struct spx_solver_body_sim {
    /* Each substep the body's first 8 floats (v, w, inv_mass, pad) become (row0 + add) * scale0
       and row1 * scale1: add = (g h gravity_scale, -0), scale0 = (1 / (1 + h linear damping) x3,
       1 / (1 + h angular damping)), scale1 = (that x2, 1, 1); for kinematic bodies add 0, scales 1. */
    spx_f4 add, scale0, scale1;
    uint32_t body; /* index in world->bodies */
    bool dynamic;
    bool isotropic;       /* dynamic, inertia a multiple of the identity (cubes, balls): turning changes nothing */
    bool touching;        /* in an active manifold this step (its turn is the contacts', not a free body's) */
    uint32_t overlaps;    /* its active manifolds overlapping deeper than the push's reach: they share max_push_speed */
    uint32_t deep_pairs;  /* the bodies it has such manifolds with (the split pass's trigger, solver.c) */
    bool lingering;       /* in an active manifold deeper than a split group lets go at (SPX_SPLIT_RELEASE) */
    bool split;           /* solved in the split pass: its push moves it and leaves its velocity (solver.c) */
    float least_inv_mass; /* the least inverse mass of the dynamic bodies it touches (INFINITY: none) */
} spx_solver_body_sim;

/* A contact whose dynamic body touches a dynamic body this many times heavier or more is solved with
   SPX_SOLVER_UNEVEN_PASSES more biased passes a substep than the rest: the light body carries the
   heavy one's weight, and Gauss-Seidel over such a pair converges the slower the larger the ratio
   (two passes leave a 10 kg box on a 1 kg box jittering at twice the sleep thresholds). */
#define SPX_SOLVER_UNEVEN_RATIO 4.0f
#define SPX_SOLVER_UNEVEN_PASSES 2

/* An active manifold (at least one awake dynamic body), before it goes into a block. */
typedef struct spx_solver_manifold {
    uint32_t a, b;    /* solver body indices (0: does not move) */
    uint32_t contact; /* index in world->contacts.list */
    uint32_t point_count;
} spx_solver_manifold;

#ifndef SPX_SOLVER_COLORS
/* Greedy colouring finds a colour for a manifold of two bodies of 32 manifolds each (the contact
   limit, SPX_MAX_BODY_CONTACTS) within 63. -DSPX_SOLVER_COLORS=2 sends most manifolds to the
   overflow blocks: test_world passes so. */
#define SPX_SOLVER_COLORS 63
#endif
_Static_assert(SPX_SOLVER_COLORS >= 1 && SPX_SOLVER_COLORS < 64, "a body's colours are the bits of a uint64_t");

/* A damped spring, implicit over a substep (solver.c's make_soft). */
typedef struct spx_solver_soft {
    float bias_rate, mass_scale, impulse_scale;
} spx_solver_soft;

/* The lane-width-dependent half of the solver (solver_wide.inc): blocks of `lanes` manifolds of one
   colour and the passes over them. Compiled once a width: the build's baseline (4 lanes on SSE2, 8
   in a -DSEPAX_AVX2=ON build) and, on x86-64, 8 lanes with AVX2 beside it (SPX_SOLVER_AVX2_DISPATCH).
   Lanes do not interact, so both give the same results bit for bit; a world picks one at creation. */
typedef struct spx_solver_kernels {
    uint32_t lanes;    /* manifolds a block */
    size_t block_size; /* bytes a block, 32-byte aligned */
    /* The coloured manifolds (s->order, counts as color_manifolds left them) into s->blocks, which
       has room; returns how many blocks, and sets *uneven when a block is marked uneven. */
    uint32_t (*prepare)(spx_world* w, uint32_t nc, uint32_t colored, const uint32_t counts[SPX_SOLVER_COLORS],
                        spx_solver_soft dynamic_soft, spx_solver_soft static_soft, bool* uneven);
    /* refresh: the bodies have moved since the last relax pass (there is none): make the lever
       shift and the points' separations again, as relax does. */
    void (*warm_start)(spx_solver_body* bodies, void* blocks, uint32_t count, bool refresh);
    void (*solve)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h);
    /* A biased pass over the blocks prepare marked uneven (a lane's body touches a much heavier one). */
    void (*solve_uneven)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h);
    void (*relax)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h);
    /* A loaded island's last relax, level by level from the support up, each lane's lower body held
       still (shock propagation, solver.c's solve_deep); depth: stack_depth.c's, levels: the deepest;
       refresh: no relax pass followed the move (the separations are made again first). */
    void (*relax_shock)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h, const uint32_t* depth,
                        uint32_t levels, bool refresh);
    void (*restitution)(spx_solver_body* bodies, void* blocks, uint32_t count, float threshold); /* one sweep */
    void (*store)(spx_world* w, const void* blocks, uint32_t count); /* impulses back to the manifolds */
    /* Every lane's impulses kept in its block (restore false), or put back as they were kept. */
    void (*keep)(void* blocks, uint32_t count, bool restore);
} spx_solver_kernels;

extern const spx_solver_kernels spx_solver_kernels_baseline;
#if defined(SPX_SOLVER_AVX2_DISPATCH)
extern const spx_solver_kernels spx_solver_kernels_avx2; /* only where the CPU has AVX2 */
#endif

/* The kernels for a world's `simd` setting on this CPU: AUTO takes AVX2 where the build has that
   path and the CPU and OS run it (__builtin_cpu_supports checks both), else the baseline. */
const spx_solver_kernels* spx_solver_pick(spx_world_simd simd);

/* The solver's arrays, grown as the scenes need and kept between steps (no allocation once warm). */
typedef struct spx_solver_scratch {
    uint32_t* body_map;      /* world body index -> solver index */
    spx_solver_body* bodies; /* [0] the immovable body */
    spx_solver_body_sim* sims;
    uint32_t body_capacity, map_capacity, sim_capacity;
    spx_solver_manifold* manifolds;
    uint32_t manifold_capacity;
    const spx_solver_kernels* kernels; /* picked at world creation (spx_solver_pick) */
    /* Graph colouring: manifolds of one colour share no dynamic body, so kernels->lanes of them are
       solved side by side (solver_wide.inc's blocks); the rest (overflow) one a block. */
    uint64_t* color_used; /* per solver body, a bit per colour it is in */
    uint32_t color_used_capacity;
    uint32_t* order; /* manifold indices by colour, then the overflow */
    uint32_t order_capacity;
    void* blocks; /* the kernels' blocks, kernels->block_size bytes each */
    uint32_t block_capacity;
    /* Deep stacks' islands, solved apart with more substeps (stack_depth.h): the islands' plan, and
       one substep count's manifolds and moving bodies. */
    spx_stack_scratch stack;
    spx_solver_manifold* pass_manifolds;
    uint32_t* pass_bodies;
    uint32_t pass_manifold_capacity, pass_body_capacity;
    /* The split pass (solver.c, solve_split): union-find parents, then its bodies; and their
       velocities after the warm start, two rows a body. */
    uint32_t* split_bodies;
    spx_f4* split_rows;
    uint32_t split_body_capacity, split_row_capacity;
} spx_solver_scratch;

/* Advances every awake body by dt: gravity and damping, the contacts of spx_contacts_update, and
   the positions; kinematic bodies move with their velocities. SPX_ERR_OUT_OF_MEMORY (the solver's
   arrays could not grow) leaves every body as it was. */
spx_result spx_solve(spx_world* world, float dt);

/* The turn by the rotation vector th (world axes) as a quaternion (cos(a/2), sin(a/2) th/a) with
   a = |th|, not normalised. Below a = 0.5 rad the half angle's series to its fourth power (relative
   error under 4e-7, below float's rounding after the normalisation) stands for sin and cos. */
static inline versors spx_solver_rotation(vec3s th)
{
    const float h2 = 0.25f * (th.x * th.x + th.y * th.y + th.z * th.z); /* (a/2)^2 */
    float c, k;                                                         /* cos(a/2), sin(a/2) / a */
    if (h2 < 0.0625f) {
        c = 1.0f - h2 * (0.5f - h2 * (1.0f / 24.0f));
        k = 0.5f * (1.0f - h2 * (1.0f / 6.0f - h2 * (1.0f / 120.0f)));
    } else {
        const float half = sqrtf(h2);
        c = cosf(half);
        k = sinf(half) / (2.0f * half);
    }
    return (versors){ { k * th.x, k * th.y, k * th.z, c } };
}

/* rad, world axes: the rotation vector the latest spx_solve turned body i by (the sum of its
   substeps' w h, which its contacts followed), however many turns; zero for a body it did not
   move. Its end rotation is that turn of the start's, or a free body's (solver.c, free_turn). */
static inline vec3s spx_solver_turn(const spx_solver_scratch* s, uint32_t body)
{
    return s->bodies[s->body_map[body]].dtheta;
}

void spx_solver_free(spx_solver_scratch* s, const spx_allocator* allocator);

#endif
