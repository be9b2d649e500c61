/* Stack depth and the substeps a deep stack needs.
 *
 * A column of boxes on soft contacts is an elastic column on its contact springs: tilted by theta,
 * a box's springs restore k_r theta (k_r = 0.125 m omega^2 for unit cubes), while the weight above
 * leans it further, and the column buckles above (7.84 k_r / (m g))^(1/3) boxes: 24 at 60 Hz. The
 * limit grows as omega^(2/3), and the spring may be no stiffer than a quarter of the substep rate,
 * so a deeper stack needs more substeps. Islands are independent: each deep one is solved apart
 * with what it needs, and every other island keeps the world's settings. */
#include "world.h"
#include "stack_depth.h"
#include "core/allocator.h"
#include <math.h>
#include <string.h>

/* m: a deep island's spring keeps the sag of its column (g n^2 / omega^2 for n boxes) under this. */
#define SPX_STACK_SAG 0.005f
/* A deep island's spring would hold a column this many times deeper (the buckling depth). */
#define SPX_STACK_MARGIN 1.25f
/* 7.84 k_r / (m g omega^2) for unit cubes: the standing depth is (this omega^2 / g)^(1/3). */
#define SPX_STACK_BEND 0.98f

float spx_stack_standing_depth(float hertz, float gravity)
{
    const float omega = 2.0f * 3.14159265358979f * hertz;
    return gravity > 0.0f ? cbrtf(SPX_STACK_BEND * omega * omega / gravity) : INFINITY;
}

/* The fewest substeps of dt whose quarter rate holds a column of `depth` bodies, in [least, most]. */
static uint32_t substeps_for(float depth, float gravity, float dt, uint32_t least, uint32_t most)
{
    const float margin = SPX_STACK_MARGIN * depth;
    const float bend = gravity * margin * margin * margin / SPX_STACK_BEND,
                sag = gravity * depth * depth / SPX_STACK_SAG;
    const float hertz = sqrtf(bend > sag ? bend : sag) / (2.0f * 3.14159265358979f);
    const float want = ceilf(4.0f * hertz * dt);
    return want <= (float)least ? least : want >= (float)most ? most : (uint32_t)want;
}

uint32_t spx_stack_plan(spx_world* w, uint32_t nb, uint32_t nc, float dt, float hertz)
{
    spx_stack_scratch* st = &w->solver.stack;
    const spx_solver_scratch* s = &w->solver;
    const spx_vec3 gv = w->def.gravity;
    const float gravity = sqrtf(gv.x * gv.x + gv.y * gv.y + gv.z * gv.z);
    const float standing = spx_stack_standing_depth(hertz, gravity);
    const uint32_t least = w->def.substeps, most = w->def.max_stack_substeps;
    /* No island can be deeper than the moving bodies are many. */
    if (most <= least || !((float)(nb - 1) > standing)) return 0;
    const spx_solver_manifold* ms = s->manifolds;
    const spx_solver_body_sim* sims = s->sims;
    uint32_t* start = st->start;
    uint32_t* depth = st->depth;
    uint32_t* queue = st->queue;
    /* One sweep over the manifolds: how many dynamic bodies each touches, and the bodies resting on
       one that does not move (depth 1, the breadth-first search's start). */
    memset(start, 0, sizeof(uint32_t) * (nb + 1));
    memset(depth, 0, sizeof(uint32_t) * nb);
    uint32_t head = 0, tail = 0, deepest = 0;
    for (uint32_t k = 0; k < nc; ++k) {
        const uint32_t a = ms[k].a, b = ms[k].b;
        const bool da = sims[a].dynamic, db = sims[b].dynamic;
        if (da && db) {
            ++start[a], ++start[b];
        } else if (da || db) {
            const uint32_t on = da ? a : b;
            if (depth[on] == 0) depth[on] = 1, queue[tail++] = on;
        }
    }
    /* Each body's list ends where the running sum says; filled from the end, start[i] is then its
       first entry and start[i + 1] one past its last. */
    for (uint32_t i = 0, sum = 0; i <= nb; ++i) sum += start[i], start[i] = sum;
    for (uint32_t k = 0; k < nc; ++k)
        if (sims[ms[k].a].dynamic && sims[ms[k].b].dynamic)
            st->adjacent[--start[ms[k].a]] = ms[k].b, st->adjacent[--start[ms[k].b]] = ms[k].a;
    while (head < tail) {
        const uint32_t i = queue[head++];
        deepest = depth[i];
        for (uint32_t e = start[i]; e < start[i + 1]; ++e)
            if (depth[st->adjacent[e]] == 0) depth[st->adjacent[e]] = depth[i] + 1, queue[tail++] = st->adjacent[e];
    }
    if (!((float)deepest > standing)) return 0;
    /* Each island (reached from a support or not) walked whole: its deepest body decides. */
    uint32_t* plan = st->substeps;
    for (uint32_t i = 0; i < nb; ++i) plan[i] = UINT32_MAX; /* not yet walked */
    uint32_t largest = 0;
    for (uint32_t root = 1; root < nb; ++root) {
        if (plan[root] != UINT32_MAX) continue;
        if (!sims[root].dynamic) {
            plan[root] = 0;
            continue;
        }
        uint32_t n = 0, island_depth = 0;
        bool jointed = false;
        queue[n++] = root, plan[root] = 0;
        for (uint32_t q = 0; q < n; ++q) {
            const uint32_t i = queue[q];
            if (depth[i] > island_depth) island_depth = depth[i];
            jointed |= spx_joints_has(&w->joints, sims[i].body);
            for (uint32_t e = start[i]; e < start[i + 1]; ++e)
                if (plan[st->adjacent[e]] == UINT32_MAX) plan[st->adjacent[e]] = 0, queue[n++] = st->adjacent[e];
        }
        /* Joints are solved with the world's substeps: a jointed island stays there. */
        if (jointed || !((float)island_depth > standing)) continue;
        const uint32_t count = substeps_for((float)island_depth, gravity, dt, least, most);
        for (uint32_t q = 0; q < n; ++q) plan[queue[q]] = count;
        if (count > largest) largest = count;
    }
    return largest;
}

spx_result spx_stack_reserve(spx_stack_scratch* s, const spx_allocator* al, uint32_t bodies, uint32_t manifolds)
{
    if (!spx_reserve(al, (void**)&s->start, &s->start_capacity, bodies + 1, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->adjacent, &s->adjacent_capacity, 2 * manifolds, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->depth, &s->depth_capacity, bodies, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->queue, &s->queue_capacity, bodies, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->substeps, &s->substeps_capacity, bodies, sizeof(uint32_t), 8))
        return SPX_ERR_OUT_OF_MEMORY;
    return SPX_OK;
}

void spx_stack_free(spx_stack_scratch* s, const spx_allocator* al)
{
    spx_free(al, s->start, sizeof(uint32_t) * (size_t)s->start_capacity);
    spx_free(al, s->adjacent, sizeof(uint32_t) * (size_t)s->adjacent_capacity);
    spx_free(al, s->depth, sizeof(uint32_t) * (size_t)s->depth_capacity);
    spx_free(al, s->queue, sizeof(uint32_t) * (size_t)s->queue_capacity);
    spx_free(al, s->substeps, sizeof(uint32_t) * (size_t)s->substeps_capacity);
}
