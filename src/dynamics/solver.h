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

/* By solver index; 0 never moves. The warm start and biased passes touch the first 8 floats only. */
typedef struct spx_solver_body {
    vec3s v, w;     /* m/s, rad/s */
    float inv_mass; /* 0: kinematic */
    float pad_;
    vec3s dp, dtheta;     /* this step so far */
    float inv_inertia[6]; /* xx yy zz xy xz yz */
} spx_solver_body;

typedef struct spx_solver_body_sim {
    /* Per substep row0 = (row0 + add) * scale0, row1 *= scale1: gravity and damping. */
    spx_f4 add, scale0, scale1;
    uint32_t body;
    bool dynamic;
    bool isotropic; /* inertia a multiple of identity */
    bool touching;
    uint32_t overlaps;    /* share max_push_speed */
    uint32_t deep_pairs;  /* split pass trigger */
    bool lingering;       /* > SPX_SPLIT_RELEASE */
    bool split;           /* push moves it, keeps velocity */
    float least_inv_mass; /* of bodies touched; INFINITY: none */
} spx_solver_body_sim;

/* Extra passes against a much heavier body (docs/world.md, "Tall stacks and mass ratios"). */
#define SPX_SOLVER_UNEVEN_RATIO 4.0f
#define SPX_SOLVER_UNEVEN_PASSES 2

typedef struct spx_solver_manifold {
    uint32_t a, b; /* 0: does not move */
    uint32_t contact;
    uint32_t point_count;
} spx_solver_manifold;

#ifndef SPX_SOLVER_COLORS
/* Fits two full bodies (2 x SPX_MAX_BODY_CONTACTS - 1). */
#define SPX_SOLVER_COLORS 63
#endif
_Static_assert(SPX_SOLVER_COLORS >= 1 && SPX_SOLVER_COLORS < 64, "a body's colours are the bits of a uint64_t");

/* solver.c, make_soft */
typedef struct spx_solver_soft {
    float bias_rate, mass_scale, impulse_scale;
} spx_solver_soft;

/* Per lane width (solver_wide.inc); lanes independent, so widths agree bit for bit. */
typedef struct spx_solver_kernels {
    uint32_t lanes;
    size_t block_size; /* 32-byte aligned */
    /* Returns the block count; *uneven if any block is. */
    uint32_t (*prepare)(spx_world* w, uint32_t nc, uint32_t colored, const uint32_t counts[SPX_SOLVER_COLORS],
                        spx_solver_soft dynamic_soft, spx_solver_soft static_soft, bool* uneven);
    /* refresh: remake lever shifts and separations. */
    void (*warm_start)(spx_solver_body* bodies, void* blocks, uint32_t count, bool refresh);
    void (*solve)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h);
    void (*solve_uneven)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h);
    void (*relax)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h);
    /* Shock propagation, support up. */
    void (*relax_shock)(spx_solver_body* bodies, void* blocks, uint32_t count, float inv_h, const uint32_t* depth,
                        uint32_t levels, bool refresh);
    void (*restitution)(spx_solver_body* bodies, void* blocks, uint32_t count, float threshold);
    void (*store)(spx_world* w, const void* blocks, uint32_t count);
    void (*keep)(void* blocks, uint32_t count, bool restore);
} spx_solver_kernels;

extern const spx_solver_kernels spx_solver_kernels_baseline;
#if defined(SPX_SOLVER_AVX2_DISPATCH)
extern const spx_solver_kernels spx_solver_kernels_avx2;
#endif

/* AUTO: AVX2 when built and supported. */
const spx_solver_kernels* spx_solver_pick(spx_world_simd simd);

/* Kept between steps: no allocation once warm. */
typedef struct spx_solver_scratch {
    uint32_t* body_map;
    spx_solver_body* bodies; /* [0] immovable */
    spx_solver_body_sim* sims;
    uint32_t body_capacity, map_capacity, sim_capacity;
    spx_solver_manifold* manifolds;
    uint32_t manifold_capacity;
    const spx_solver_kernels* kernels;
    /* Colours share no dynamic body; overflow one a block. */
    uint64_t* color_used;
    uint32_t color_used_capacity;
    uint32_t* order; /* by colour, then overflow */
    uint32_t order_capacity;
    void* blocks;
    uint32_t block_capacity;
    /* Deep islands (stack_depth.h). */
    spx_stack_scratch stack;
    spx_solver_manifold* pass_manifolds;
    uint32_t* pass_bodies;
    uint32_t pass_manifold_capacity, pass_body_capacity;
    /* Split pass (solver.c, solve_split). */
    uint32_t* split_bodies;
    spx_f4* split_rows;
    uint32_t split_body_capacity, split_row_capacity;
} spx_solver_scratch;

/* SPX_ERR_OUT_OF_MEMORY leaves every body as it was. */
spx_result spx_solve(spx_world* world, float dt);

/* exp(th), unnormalised; under 0.5 rad a 4th-order series (error < 4e-7). */
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

/* rad: the rotation vector the latest spx_solve turned body i by; zero if not moved. */
static inline vec3s spx_solver_turn(const spx_solver_scratch* s, uint32_t body)
{
    return s->bodies[s->body_map[body]].dtheta;
}

void spx_solver_free(spx_solver_scratch* s, const spx_allocator* allocator);

#endif
