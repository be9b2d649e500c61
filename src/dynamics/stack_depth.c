/* Stack depth and the substeps a deep or loaded island needs; other islands keep the world's
 * settings. See docs/world.md, "Tall stacks and mass ratios". */
#include "world.h"
#include "stack_depth.h"
#include "core/allocator.h"
#include <math.h>
#include <string.h>

/* m: most sag of a deep island's column (g n^2 / omega^2 for n boxes). */
#define SPX_STACK_SAG 0.005f
/* A deep island's spring holds a column this many times deeper. */
#define SPX_STACK_MARGIN 1.25f
/* Standing depth = (this omega^2 / g)^(1/3) for unit cubes. */
#define SPX_STACK_BEND 0.98f
/* Loaded above this load-to-mass ratio; up to 100:1 the world's passes hold and a loaded pass
   jitters. */
#define SPX_STACK_LOAD_RATIO 500.0f
/* m: most sag of a loaded island's most loaded body. */
#define SPX_STACK_LOAD_SAG 0.001f

float spx_stack_standing_depth(float hertz, float gravity)
{
    const float omega = 2.0f * 3.14159265358979f * hertz;
    return gravity > 0.0f ? cbrtf(SPX_STACK_BEND * omega * omega / gravity) : INFINITY;
}

/* Fewest substeps of dt whose quarter rate gives omega^2 >= `stiffness` (1/s^2), in [least, most]. */
static uint32_t substeps_for(float stiffness, float dt, uint32_t least, uint32_t most)
{
    const float hertz = sqrtf(stiffness) / (2.0f * 3.14159265358979f);
    const float want = ceilf(4.0f * hertz * dt);
    return want <= (float)least ? least : want >= (float)most ? most : (uint32_t)want;
}

/* Holds a column SPX_STACK_MARGIN times deeper, sagging under SPX_STACK_SAG. */
static float depth_stiffness(float depth, float gravity)
{
    const float margin = SPX_STACK_MARGIN * depth;
    const float bend = gravity * margin * margin * margin / SPX_STACK_BEND,
                sag = gravity * depth * depth / SPX_STACK_SAG;
    return bend > sag ? bend : sag;
}

/* The load's contact spring has the light body's effective mass and carries ratio m g. */
static float load_stiffness(float ratio, float gravity) { return gravity * ratio / SPX_STACK_LOAD_SAG; }

/* Loads handed deepest first, in equal shares, to the bodies one contact nearer the support.
   Returns the largest load over own mass, less own. */
static float spread_load(spx_stack_scratch* st, const spx_solver_body* bodies, uint32_t reached)
{
    float* load = st->load;
    const uint32_t* depth = st->depth;
    for (uint32_t q = 0; q < reached; ++q) load[st->queue[q]] = 1.0f / bodies[st->queue[q]].inv_mass;
    float largest = 0.0f;
    for (uint32_t q = reached; q-- > 0;) {
        const uint32_t i = st->queue[q];
        const float ratio = load[i] * bodies[i].inv_mass - 1.0f;
        if (ratio > largest) largest = ratio;
        uint32_t below = 0;
        for (uint32_t e = st->start[i]; e < st->start[i + 1]; ++e) below += depth[st->adjacent[e]] < depth[i];
        if (below == 0) continue; /* on a support alone */
        const float share = load[i] / (float)below;
        for (uint32_t e = st->start[i]; e < st->start[i + 1]; ++e)
            if (depth[st->adjacent[e]] < depth[i]) load[st->adjacent[e]] += share;
    }
    return largest;
}

uint32_t spx_stack_plan(spx_world* w, uint32_t nb, uint32_t nc, float dt, float hertz)
{
    spx_stack_scratch* st = &w->solver.stack;
    const spx_solver_scratch* s = &w->solver;
    const spx_vec3 gv = w->def.gravity;
    const float gravity = sqrtf(gv.x * gv.x + gv.y * gv.y + gv.z * gv.z);
    const float standing = spx_stack_standing_depth(hertz, gravity);
    const uint32_t least = w->def.substeps, most = w->def.max_stack_substeps;
    const spx_solver_body_sim* sims = s->sims;
    /* Only mass ratios make loads; like masses need only the depth. */
    bool uneven = false;
    for (uint32_t k = 1; k < nb && !uneven; ++k)
        uneven = s->bodies[k].inv_mass > SPX_SOLVER_UNEVEN_RATIO * sims[k].least_inv_mass;
    /* No island can be deeper than the moving bodies are many. */
    if (most <= least || (!uneven && !((float)(nb - 1) > standing))) return 0;
    const spx_solver_manifold* ms = s->manifolds;
    uint32_t* start = st->start;
    uint32_t* depth = st->depth;
    uint32_t* queue = st->queue;
    /* Degrees, and the bodies on an immovable one (depth 1, the BFS start). */
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
    /* Filled from the end: start[i] then is the first entry, start[i + 1] one past the last. */
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
    const float heaviest = uneven ? spread_load(st, s->bodies, tail) : 0.0f;
    if (!((float)deepest > standing) && !(heaviest > SPX_STACK_LOAD_RATIO)) return 0;
    /* Each island walked whole: its deepest and most loaded bodies decide. */
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
        float island_load = 0.0f;
        bool jointed = false;
        queue[n++] = root, plan[root] = 0;
        for (uint32_t q = 0; q < n; ++q) {
            const uint32_t i = queue[q];
            if (depth[i] > island_depth) island_depth = depth[i];
            const float held = uneven && depth[i] > 0 ? st->load[i] * s->bodies[i].inv_mass - 1.0f : 0.0f;
            if (held > island_load) island_load = held;
            jointed |= spx_joints_has(&w->joints, sims[i].body);
            for (uint32_t e = start[i]; e < start[i + 1]; ++e)
                if (plan[st->adjacent[e]] == UINT32_MAX) plan[st->adjacent[e]] = 0, queue[n++] = st->adjacent[e];
        }
        /* Joints are solved with the world's substeps. */
        const bool deep = (float)island_depth > standing, loaded = island_load > SPX_STACK_LOAD_RATIO;
        if (jointed || !(deep || loaded)) continue;
        const float by_depth = deep ? depth_stiffness((float)island_depth, gravity) : 0.0f,
                    by_load = loaded ? load_stiffness(island_load, gravity) : 0.0f;
        const uint32_t count = substeps_for(by_depth > by_load ? by_depth : by_load, dt, least, most) |
                               (loaded && !deep ? SPX_STACK_LOADED : 0u);
        for (uint32_t q = 0; q < n; ++q) plan[queue[q]] = count;
        if ((count & ~SPX_STACK_LOADED) > largest) largest = count & ~SPX_STACK_LOADED;
    }
    return largest;
}

spx_result spx_stack_reserve(spx_stack_scratch* s, const spx_allocator* al, uint32_t bodies, uint32_t manifolds)
{
    if (!spx_reserve(al, (void**)&s->start, &s->start_capacity, bodies + 1, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->adjacent, &s->adjacent_capacity, 2 * manifolds, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->depth, &s->depth_capacity, bodies, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->queue, &s->queue_capacity, bodies, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->substeps, &s->substeps_capacity, bodies, sizeof(uint32_t), 8) ||
        !spx_reserve(al, (void**)&s->load, &s->load_capacity, bodies, sizeof(float), 8))
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
    spx_free(al, s->load, sizeof(float) * (size_t)s->load_capacity);
}
