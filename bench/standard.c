/* sepax_bench standard (`sepax bench`): the standard scenes (or any scene files) timed step by step, stage by stage
 * (spx_world_get_stats: broad, narrow, solver, island, continuous), medians over repetitions, with each
 * engine's end state measured the same way: deepest penetration, bodies fallen through, bodies
 * still moving. In the comparison build (-DSEPAX_BENCH_PEERS=ON) Bullet and ODE run the same scenes
 * in the same run through bench/'s peers (bench/peers/world_peers.h), which build their worlds from
 * a scene's layout (tests/support/scenes.h): a scene of one static ground box and equal dynamic
 * boxes, as the standard scenes are; or, for Bullet, from its bodies (bench_world_bodies): boxes,
 * spheres, capsules and hulls on the 100 x 100 mesh ground, as `mixed` is, each engine's deepest
 * overlap then measured after every step by the same public queries on its poses. Other scenes run
 * in sepax alone. The scene-file suites (this one, ccd, toi, queries) share its options and header:
 * bench_scene_suite is their entry in sepax_bench's table; they need sepax_scene (tools/sepax/). */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "scene_suites.h"
#include "suite.h"
#include "measure.h"
#include "tool_math.h"
#include "machine.h"
#include "timer.h"
#include "support/scenes.h"
#include "peers/world_peers.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef SPX_BENCH_BUILD_TYPE
#define SPX_BENCH_BUILD_TYPE "?"
#endif

#define MAX_REPS 101
#define MAX_SCENES 16
#define MAX_ENGINES 3
#define MOVING_SPEED 0.05f /* m/s and rad/s: faster than this counts as still moving (as scenes.c) */

enum { STAGE_BROAD, STAGE_NARROW, STAGE_SOLVER, STAGE_ISLAND, STAGE_CONTINUOUS, STAGE_COUNT };
static const char* const stage_names[STAGE_COUNT] = { "broad", "narrow", "solver", "island", "continuous" };

typedef struct engine {
    const char* name;
    const bench_world_peer* peer; /* NULL: sepax */
} engine;

/* One engine on one scene. */
typedef struct row {
    const char* scene;
    const engine* e;
    uint32_t steps;
    int reps;
    double ms[MAX_REPS], stage[STAGE_COUNT][MAX_REPS];
    double ms_step[MAX_REPS];                 /* each repetition's median over its steps */
    double cpu[MAX_REPS], cpu_step[MAX_REPS]; /* this thread's processor time: mean and median over the steps */
    double ms_median, ms_min, stage_median[STAGE_COUNT], ms_step_median, cpu_median, cpu_step_median;
    bool every_step; /* deepest measured after every step of the last repetition: */
    float deepest_median, deepest_p99, deepest_max;
    uint32_t asleep;
    double contacts;     /* contact points a step, mean over the last repetition */
    float deepest;       /* m */
    bool layout_measure; /* deepest, fallen, moving by test_scene_measure_state (every engine alike) */
    float ground_penetration, box_overlap;
    uint32_t fallen, moving, bodies;
    bool ok;
} row;

/* ---- the scene as other engines see it ------------------------------------------------------- */

static float box_mass(const scene* s, const scene_body* b, const scene_shape* sh)
{
    double volume = 8.0 * sh->half_extents.x * sh->half_extents.y * sh->half_extents.z;
    if (b->mass > 0.0f) return b->mass;
    return (float)(volume * (sh->density > 0.0f ? sh->density : s->materials[b->material].density));
}

/* The peers' mesh ground (test_scene_layout.mesh_ground): a flat grid of 100 x 100 squares of 1 m
   centred on the origin, the body unmoved. */
static bool is_layout_mesh_ground(const scene* s, const scene_body* b, const scene_shape* sh)
{
    const scene_mesh* m = &s->meshes[sh->mesh];
    const spx_vec3 p = b->def.position;
    return m->kind == SCENE_MESH_GRID && m->cells[0] == 100 && m->cells[1] == 100 && m->cell_size == 1.0f &&
           m->amplitude == 0.0f && p.x == 0.0f && p.y == 0.0f && p.z == 0.0f;
}

/* The layout bench/'s peers and the shared end-state measure take, when the scene is one: a static
   axis-aligned ground box whose top is y = 0 (or the peers' mesh ground), and dynamic unit boxes
   (half extent 0.5) of one mass and material, starting at rest. */
static bool scene_layout(const scene* s, test_scene_layout* out)
{
    memset(out, 0, sizeof *out);
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    bool ground = false;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        const scene_body* b = &s->bodies[i];
        const scene_shape* sh = &s->shapes[b->first_shape];
        if (b->shape_count != 1 || memcmp(&sh->local.q, &identity, sizeof identity) != 0 || sh->local.p.x != 0.0f ||
            sh->local.p.y != 0.0f || sh->local.p.z != 0.0f)
            return false;
        if (sh->type == SPX_SHAPE_MESH) {
            if (b->def.type != SPX_BODY_STATIC || ground || memcmp(&b->def.rotation, &identity, sizeof identity) != 0 ||
                !is_layout_mesh_ground(s, b, sh))
                return false;
            ground = out->mesh_ground = true;
            out->ground_center = spx_v3(0.0f, -1.0f, 0.0f), out->ground_half_extents = spx_v3(50.0f, 1.0f, 50.0f);
            out->ground_friction = b->def.friction;
            continue;
        }
        if (b->def.type == SPX_BODY_STATIC) {
            if (ground || memcmp(&b->def.rotation, &identity, sizeof identity) != 0 ||
                b->def.position.y + sh->half_extents.y != 0.0f)
                return false;
            ground = true;
            out->ground_center = b->def.position, out->ground_half_extents = sh->half_extents;
            out->ground_friction = b->def.friction;
            continue;
        }
        if (b->def.type != SPX_BODY_DYNAMIC || out->count >= TEST_SCENE_MAX_BODIES) return false;
        float mass = box_mass(s, b, sh);
        const spx_vec3 zero = { 0.0f, 0.0f, 0.0f };
        if (sh->half_extents.x != 0.5f || sh->half_extents.y != 0.5f || sh->half_extents.z != 0.5f ||
            memcmp(&b->def.linear_velocity, &zero, sizeof zero) != 0 ||
            memcmp(&b->def.angular_velocity, &zero, sizeof zero) != 0 || b->def.gravity_scale != 1.0f)
            return false;
        if (out->count == 0) {
            out->box_mass = mass, out->box_friction = b->def.friction, out->restitution = b->def.restitution;
        } else if (mass != out->box_mass || b->def.friction != out->box_friction ||
                   b->def.restitution != out->restitution) {
            return false;
        }
        out->start[out->count++] = (spx_transform){ b->def.position, b->def.rotation };
    }
    out->box_half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    out->gravity = s->world.gravity;
    out->dt = s->dt;
    out->steps = s->steps;
    out->sleep = s->world.enable_sleep;
    return ground && out->count > 0;
}

/* The scene as bench/'s peers build mixed bodies (bench_world_bodies), when it is one: the peers'
   mesh ground, and dynamic bodies of one box, sphere, capsule or hull each, unmoved in the body and
   starting at rest. Masses, centres of mass and materials are read from the built world. The hulls'
   corners are copied, so the description outlives the scene. */
#define BODIES_MAX_POINTS 65536
static bench_world_body bodies_of[TEST_SCENE_MAX_BODIES];
static spx_vec3 hull_points[BODIES_MAX_POINTS];

static bool scene_bodies(const scene* s, bench_world_bodies* out)
{
    memset(out, 0, sizeof *out);
    const spx_quat identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    const spx_vec3 zero = { 0.0f, 0.0f, 0.0f };
    bool ground = false;
    uint32_t used = 0;
    const spx_vec3* hull_start[64] = { NULL };
    for (uint32_t i = 0; i < s->body_count; ++i) {
        const scene_body* b = &s->bodies[i];
        const scene_shape* sh = &s->shapes[b->first_shape];
        spx_shape_id shape;
        float friction, restitution;
        if (b->shape_count != 1 || memcmp(&sh->local.q, &identity, sizeof identity) != 0 ||
            memcmp(&sh->local.p, &zero, sizeof zero) != 0 || sh->sensor ||
            spx_body_get_shape(s->w, s->ids[i], 0, &shape) != SPX_OK ||
            spx_shape_get_material(s->w, shape, &friction, &restitution) != SPX_OK)
            return false;
        if (b->def.type == SPX_BODY_STATIC) {
            if (ground || sh->type != SPX_SHAPE_MESH || memcmp(&b->def.rotation, &identity, sizeof identity) != 0 ||
                !is_layout_mesh_ground(s, b, sh))
                return false;
            ground = true;
            out->ground_friction = friction, out->ground_restitution = restitution;
            continue;
        }
        if (b->def.type != SPX_BODY_DYNAMIC || out->count >= TEST_SCENE_MAX_BODIES ||
            memcmp(&b->def.linear_velocity, &zero, sizeof zero) != 0 ||
            memcmp(&b->def.angular_velocity, &zero, sizeof zero) != 0 || b->def.gravity_scale != 1.0f)
            return false;
        bench_world_body* d = &bodies_of[out->count];
        memset(d, 0, sizeof *d);
        spx_vec3 com;
        if (spx_body_get_mass(s->w, s->ids[i], &d->mass) != SPX_OK ||
            spx_body_get_center_of_mass(s->w, s->ids[i], &com) != SPX_OK)
            return false;
        const spx_quat q = b->def.rotation, inverse = { -q.x, -q.y, -q.z, q.w };
        d->center_of_mass = tm_rotate(inverse, tm_sub(com, b->def.position));
        d->friction = friction, d->restitution = restitution;
        d->start = (spx_transform){ b->def.position, b->def.rotation };
        switch (sh->type) {
        case SPX_SHAPE_BOX:
            d->shape = BENCH_BODY_BOX, d->half_extents = sh->half_extents;
            break;
        case SPX_SHAPE_SPHERE:
            d->shape = BENCH_BODY_SPHERE, d->radius = sh->radius;
            break;
        case SPX_SHAPE_CAPSULE:
            d->shape = BENCH_BODY_CAPSULE, d->radius = sh->radius, d->half_height = sh->half_height;
            break;
        case SPX_SHAPE_HULL: {
            const spx_hull* h = s->hulls[sh->hull].hull;
            spx_hull_info info;
            if (sh->hull >= 64 || !h || spx_hull_get_info(h, &info) != SPX_OK) return false;
            if (!hull_start[sh->hull]) {
                if (used + info.corner_count > BODIES_MAX_POINTS) return false;
                for (uint32_t k = 0; k < info.corner_count; ++k) spx_hull_get_corner(h, k, &hull_points[used + k]);
                hull_start[sh->hull] = &hull_points[used];
                used += info.corner_count;
            }
            d->shape = BENCH_BODY_HULL, d->points = hull_start[sh->hull], d->point_count = info.corner_count;
            break;
        }
        default:
            return false;
        }
        ++out->count;
    }
    out->bodies = bodies_of;
    out->gravity = s->world.gravity;
    out->dt = s->dt;
    out->sleep = s->world.enable_sleep;
    return ground && out->count > 0;
}

/* ---- running ---------------------------------------------------------------------------------- */

/* This thread's processor time (ns): on a shared machine a step's wall time also holds the time the
   process waited for a core. */
static uint64_t cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* The median over a repetition's steps (sorts `ms`). */
static double median_of_steps(double* ms, uint32_t n)
{
    if (n == 0) return 0.0;
    qsort(ms, n, sizeof *ms, compare_double);
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

/* A repetition's processor time a step, mean and median over the steps (sorts `cpu`). */
static void cpu_figures(row* out, int rep, double* cpu, uint32_t n)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; ++i) sum += cpu[i];
    out->cpu[rep] = sum / (n ? (double)n : 1.0);
    out->cpu_step[rep] = median_of_steps(cpu, n);
}

/* The deepest overlap of every step of the last repetition: its median, 99th percentile and largest. */
static void depth_figures(row* out, double* deepest, uint32_t n)
{
    if (n == 0) return;
    qsort(deepest, n, sizeof *deepest, compare_double);
    out->deepest_median = (float)(n % 2 ? deepest[n / 2] : 0.5 * (deepest[n / 2 - 1] + deepest[n / 2]));
    uint32_t k = (uint32_t)ceil(0.99 * n);
    out->deepest_p99 = (float)deepest[k > 0 ? k - 1 : 0];
    out->deepest_max = (float)deepest[n - 1];
}

static spx_transform poses[TEST_SCENE_MAX_BODIES];
static spx_vec3 lin[TEST_SCENE_MAX_BODIES], ang[TEST_SCENE_MAX_BODIES];

static uint32_t count_moving(const spx_vec3* v, const spx_vec3* w, uint32_t n)
{
    uint32_t moving = 0;
    for (uint32_t i = 0; i < n; ++i)
        moving += tm_dot(v[i], v[i]) > MOVING_SPEED * MOVING_SPEED || tm_dot(w[i], w[i]) > MOVING_SPEED * MOVING_SPEED;
    return moving;
}

/* One repetition of sepax on a fresh world built from the scene file; the end state measured when
   `last`. */
static bool repeat_sepax(row* out, int rep, const scene_options* o, uint32_t steps, bool last, bool layout,
                         double* step_ms, double* deepest)
{
    scene s;
    if (!scene_open(o, &s)) return false;
    double wall = 0.0, stage[STAGE_COUNT] = { 0 }, contacts = 0.0;
    measure* every = last && out->every_step ? measure_create(&s) : NULL;
    if (last && out->every_step && !every) return scene_free(&s), false;
    for (uint32_t i = 0; i < steps; ++i) {
        uint64_t t0 = bench_now_ns(), c0 = cpu_now_ns();
        spx_result r = spx_world_step(s.w, s.dt);
        step_ms[steps + i] = (double)(cpu_now_ns() - c0) * 1e-6;
        step_ms[i] = (double)(bench_now_ns() - t0) * 1e-6;
        wall += step_ms[i];
        measure_result now;
        if (r == SPX_OK && every) {
            if (!measure_now(every, &s, false, &now)) r = SPX_ERR_INVALID_ARGUMENT;
            deepest[i] = now.deepest;
        }
        if (r != SPX_OK) {
            fprintf(stderr, "sepax bench: %s: step %u failed: %s\n", out->scene, i + 1, spx_result_string(r));
            measure_destroy(every);
            scene_free(&s);
            return false;
        }
        spx_step_stats st;
        spx_world_get_stats(s.w, &st);
        stage[STAGE_BROAD] += st.broad_ms, stage[STAGE_NARROW] += st.narrow_ms;
        stage[STAGE_SOLVER] += st.solver_ms, stage[STAGE_ISLAND] += st.island_ms;
        stage[STAGE_CONTINUOUS] += st.continuous_ms;
        contacts += st.contact_point_count;
    }
    measure_destroy(every);
    if (last && out->every_step) depth_figures(out, deepest, steps);
    double n = steps ? (double)steps : 1.0;
    out->ms[rep] = wall / n;
    cpu_figures(out, rep, step_ms + steps, steps);
    out->ms_step[rep] = median_of_steps(step_ms, steps);
    for (int k = 0; k < STAGE_COUNT; ++k) out->stage[k][rep] = stage[k] / n;
    bool ok = true;
    if (last) {
        out->contacts = contacts / n;
        /* The dynamic bodies' end state, for the same measure every engine gets. */
        uint32_t count = 0;
        for (uint32_t i = 0; i < s.body_count && count < TEST_SCENE_MAX_BODIES; ++i) {
            if (s.bodies[i].def.type != SPX_BODY_DYNAMIC) continue;
            spx_body_get_transform(s.w, s.ids[i], &poses[count]);
            spx_body_get_velocity(s.w, s.ids[i], &lin[count], &ang[count]);
            ++count;
        }
        for (uint32_t i = 0; i < s.body_count; ++i) {
            bool awake = true;
            if (s.bodies[i].def.type == SPX_BODY_DYNAMIC && spx_body_is_awake(s.w, s.ids[i], &awake) == SPX_OK)
                out->asleep += !awake;
        }
        if (layout) {
            test_scene_quality q;
            test_scene_measure_state(poses, lin, ang, count, &q);
            out->ground_penetration = q.ground_penetration, out->box_overlap = q.box_overlap;
            out->deepest = fmaxf(q.ground_penetration, q.box_overlap);
            out->fallen = q.fallen, out->moving = q.moving, out->bodies = count;
        } else {
            measure* m = measure_create(&s);
            measure_result q;
            ok = m && measure_now(m, &s, false, &q);
            if (ok) out->deepest = q.deepest, out->fallen = q.fallen, out->bodies = q.dynamic, out->asleep = q.sleeping;
            measure_destroy(m);
            out->moving = 0; /* every dynamic body, not only the first TEST_SCENE_MAX_BODIES read above */
            for (uint32_t i = 0; i < s.body_count; ++i) {
                spx_vec3 v, w;
                if (s.bodies[i].def.type == SPX_BODY_DYNAMIC && spx_body_get_velocity(s.w, s.ids[i], &v, &w) == SPX_OK)
                    out->moving += count_moving(&v, &w, 1);
            }
        }
    }
    scene_free(&s);
    return ok;
}

/* Puts the dynamic bodies of a sepax scene at a peer's poses, for measuring them (measure_now). */
static bool pose_scene(scene* s, const spx_transform* at)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->body_count; ++i)
        if (s->bodies[i].def.type == SPX_BODY_DYNAMIC && spx_body_set_transform(s->w, s->ids[i], &at[k++]) != SPX_OK)
            return false;
    return true;
}

/* One repetition of a peer: from the layout, or from `bodies` (then measured as sepax is, by the
   public queries on the scene `o` put at the peer's poses, after every step of the last repetition). */
static bool repeat_peer(row* out, int rep, const test_scene_layout* layout, const bench_world_bodies* bodies,
                        const scene_options* o, uint32_t steps, bool last, double* step_ms, double* deepest)
{
    const bench_world_peer* p = out->e->peer;
    void* world = bodies ? p->create_bodies(bodies) : p->create(layout);
    if (!world) {
        fprintf(stderr, "sepax bench: %s could not build %s\n", p->engine, out->scene);
        return false;
    }
    scene s;
    measure* every = NULL;
    if (bodies && last) {
        if (!scene_open(o, &s)) return p->destroy(world), false;
        if (!(every = measure_create(&s))) return scene_free(&s), p->destroy(world), false;
    }
    double wall = 0.0, contacts = 0.0;
    bool ok = true;
    for (uint32_t i = 0; i < steps; ++i) {
        uint64_t t0 = bench_now_ns(), c0 = cpu_now_ns();
        p->step(world);
        step_ms[steps + i] = (double)(cpu_now_ns() - c0) * 1e-6;
        step_ms[i] = (double)(bench_now_ns() - t0) * 1e-6;
        wall += step_ms[i];
        contacts += p->contacts(world);
        if (every && ok) {
            measure_result now;
            p->read(world, poses, NULL, NULL);
            ok = pose_scene(&s, poses) && measure_now(every, &s, false, &now);
            deepest[i] = now.deepest;
        }
    }
    out->ms[rep] = wall / (steps ? (double)steps : 1.0);
    cpu_figures(out, rep, step_ms + steps, steps);
    out->ms_step[rep] = median_of_steps(step_ms, steps);
    if (every) {
        measure_result q;
        ok = ok && measure_now(every, &s, false, &q);
        if (ok) {
            depth_figures(out, deepest, steps);
            out->contacts = contacts / (steps ? (double)steps : 1.0);
            out->deepest = q.deepest, out->fallen = q.fallen, out->bodies = q.dynamic;
            out->asleep = p->asleep(world);
            p->read(world, NULL, lin, ang);
            out->moving = count_moving(lin, ang, bodies->count);
        }
        measure_destroy(every);
        scene_free(&s);
        p->destroy(world);
        if (!ok) fprintf(stderr, "sepax bench: %s: measuring %s's poses failed\n", out->scene, p->engine);
        return ok;
    }
    if (last && !bodies) {
        out->contacts = contacts / (steps ? (double)steps : 1.0);
        p->read(world, poses, lin, ang);
        test_scene_quality q;
        test_scene_measure_state(poses, lin, ang, layout->count, &q);
        out->ground_penetration = q.ground_penetration, out->box_overlap = q.box_overlap;
        out->deepest = fmaxf(q.ground_penetration, q.box_overlap);
        out->fallen = q.fallen, out->moving = q.moving, out->bodies = layout->count;
        out->asleep = p->asleep(world);
    }
    p->destroy(world);
    return true;
}

/* ---- output ------------------------------------------------------------------------------------ */

static void print_table_head(FILE* f)
{
    fprintf(f, "%-15s %-7s %5s %4s %8s %8s %8s %8s %8s %7s %7s %7s %7s %7s %8s %9s %8s %8s %8s %6s %6s %6s %9s\n",
            "scene", "engine", "steps", "reps", "ms_step", "ms_min", "ms_med", "cpu_ms", "cpu_med", "broad", "narrow",
            "solver", "island", "contin", "contacts", "deepest_m", "deep_med", "deep_p99", "deep_max", "asleep",
            "fallen", "moving", "sepax/eng");
}

static void print_table_row(FILE* f, const row* r, double sepax_ms)
{
    char stages[STAGE_COUNT][16], ratio[16];
    for (int k = 0; k < STAGE_COUNT; ++k)
        if (r->e->peer) snprintf(stages[k], sizeof stages[k], "-");
        else snprintf(stages[k], sizeof stages[k], "%.3f", r->stage_median[k]);
    if (r->ms_median > 0.0 && sepax_ms == sepax_ms) snprintf(ratio, sizeof ratio, "%.2f", sepax_ms / r->ms_median);
    else snprintf(ratio, sizeof ratio, "-");
    char deep[3][16];
    const float deep_of[3] = { r->deepest_median, r->deepest_p99, r->deepest_max };
    for (int k = 0; k < 3; ++k)
        if (r->every_step) snprintf(deep[k], sizeof deep[k], "%.4f", (double)deep_of[k]);
        else snprintf(deep[k], sizeof deep[k], "-");
    fprintf(f,
            "%-15s %-7s %5u %4d %8.3f %8.3f %8.3f %8.3f %8.3f %7s %7s %7s %7s %7s %8.0f %9.4f %8s %8s %8s %6u %6u %6u "
            "%9s\n",
            r->scene, r->e->name, r->steps, r->reps, r->ms_median, r->ms_min, r->ms_step_median, r->cpu_median,
            r->cpu_step_median, stages[0], stages[1], stages[2], stages[3], stages[4], r->contacts, (double)r->deepest,
            deep[0], deep[1], deep[2], r->asleep, r->fallen, r->moving, ratio);
}

static bool write_csv(const char* path, const row* rows, int n)
{
    FILE* f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "scene,engine,steps,reps,ms_step_median,ms_step_min,ms_step_median_of_steps,cpu_ms_step_median,cpu_ms_"
               "step_median_of_steps,broad_ms,narrow_ms,solver_"
               "ms,island_ms,continuous_ms,"
               "contacts_per_step,"
               "deepest_penetration_m,ground_penetration_m,box_overlap_m,deepest_step_median_m,deepest_step_p99_m,"
               "deepest_step_max_m,asleep,fallen,moving,bodies\n");
    for (int i = 0; i < n; ++i) {
        const row* r = &rows[i];
        if (!r->ok) continue;
        fprintf(f, "%s,%s,%u,%d,%.4f,%.4f,%.4f,%.4f,%.4f,", r->scene, r->e->name, r->steps, r->reps, r->ms_median,
                r->ms_min, r->ms_step_median, r->cpu_median, r->cpu_step_median);
        for (int k = 0; k < STAGE_COUNT; ++k)
            if (r->e->peer) fprintf(f, ",");
            else fprintf(f, "%.4f,", r->stage_median[k]);
        fprintf(f, "%.1f,%.5f,", r->contacts, (double)r->deepest);
        if (r->layout_measure) fprintf(f, "%.5f,%.5f,", (double)r->ground_penetration, (double)r->box_overlap);
        else fprintf(f, ",,");
        if (r->every_step)
            fprintf(f, "%.5f,%.5f,%.5f,", (double)r->deepest_median, (double)r->deepest_p99, (double)r->deepest_max);
        else fprintf(f, ",,,");
        fprintf(f, "%u,%u,%u,%u\n", r->asleep, r->fallen, r->moving, r->bodies);
    }
    return fclose(f) == 0;
}

void bench_json_add_numbers(cJSON* o, const bench_json_number* numbers, int n)
{
    for (int k = 0; k < n; ++k) cJSON_AddNumberToObject(o, numbers[k].key, numbers[k].value);
}

cJSON* bench_json_root(const bench_machine* m, int reps)
{
    cJSON* root = cJSON_CreateObject();
    cJSON* machine = cJSON_AddObjectToObject(root, "machine");
    cJSON_AddStringToObject(machine, "date", m->date);
    cJSON_AddStringToObject(machine, "name", m->name);
    cJSON_AddStringToObject(machine, "cpu", m->cpu);
    cJSON_AddNumberToObject(machine, "cpus", m->cpus);
    cJSON_AddStringToObject(machine, "os", m->os);
    cJSON_AddStringToObject(machine, "compiler", m->compiler);
    cJSON_AddStringToObject(machine, "build", SPX_BENCH_BUILD_TYPE);
    cJSON_AddStringToObject(machine, "simd", bench_simd_name());
    cJSON_AddNumberToObject(root, "repetitions", reps);
    return root;
}

bool bench_json_write(const char* path, cJSON* root)
{
    char* text = cJSON_Print(root);
    cJSON_Delete(root);
    FILE* f = text ? fopen(path, "w") : NULL;
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) ok = false;
    cJSON_free(text);
    return ok;
}

static bool write_json(const char* path, const bench_machine* m, int reps, const row* rows, int n)
{
    cJSON* root = bench_json_root(m, reps);
    cJSON* results = cJSON_AddArrayToObject(root, "results");
    for (int i = 0; i < n; ++i) {
        const row* r = &rows[i];
        if (!r->ok) continue;
        cJSON* o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "scene", r->scene);
        cJSON_AddStringToObject(o, "engine", r->e->name);
        const bench_json_number times[] = {
            { "steps", r->steps },
            { "reps", r->reps },
            { "ms_step_median", r->ms_median },
            { "ms_step_min", r->ms_min },
            { "ms_step_median_of_steps", r->ms_step_median },
            { "cpu_ms_step_median", r->cpu_median },
            { "cpu_ms_step_median_of_steps", r->cpu_step_median },
        };
        bench_json_add_numbers(o, times, BENCH_COUNT(times));
        if (!r->e->peer) {
            cJSON* st = cJSON_AddObjectToObject(o, "stage_ms_median");
            for (int k = 0; k < STAGE_COUNT; ++k) cJSON_AddNumberToObject(st, stage_names[k], r->stage_median[k]);
        }
        cJSON_AddNumberToObject(o, "contacts_per_step", r->contacts);
        cJSON_AddNumberToObject(o, "deepest_penetration_m", r->deepest);
        if (r->layout_measure) {
            cJSON_AddNumberToObject(o, "ground_penetration_m", r->ground_penetration);
            cJSON_AddNumberToObject(o, "box_overlap_m", r->box_overlap);
        }
        if (r->every_step) {
            const bench_json_number deepest[] = {
                { "deepest_step_median_m", r->deepest_median },
                { "deepest_step_p99_m", r->deepest_p99 },
                { "deepest_step_max_m", r->deepest_max },
            };
            bench_json_add_numbers(o, deepest, BENCH_COUNT(deepest));
        }
        const bench_json_number bodies[] = {
            { "asleep", r->asleep },
            { "fallen", r->fallen },
            { "moving", r->moving },
            { "bodies", r->bodies },
        };
        bench_json_add_numbers(o, bodies, BENCH_COUNT(bodies));
        cJSON_AddItemToArray(results, o);
    }
    return bench_json_write(path, root);
}

int bench_write_files(const bench_suite_options* o, int status, bool (*csv)(const char* path, const void* rows, int n),
                      bool (*json)(const bench_suite_options* o, const void* rows, int n), const void* rows, int n)
{
    if (o->csv) {
        if (csv(o->csv, rows, n)) printf("\nwrote %s\n", o->csv);
        else fprintf(stderr, "sepax bench: cannot write %s: %s\n", o->csv, strerror(errno)), status = EXIT_FAILED;
    }
    if (o->json) {
        if (json(o, rows, n)) printf("%swrote %s\n", o->csv ? "" : "\n", o->json);
        else fprintf(stderr, "sepax bench: cannot write %s: %s\n", o->json, strerror(errno)), status = EXIT_FAILED;
    }
    return status;
}

/* ---- the suite ------------------------------------------------------------------------------- */

static void usage(FILE* f, const char* program)
{
    fprintf(f,
            "usage: %s%s [--reps N] [--steps N] [--dt S] [--json FILE] [--csv FILE] [--no-peers] [--quick] "
            "[--lenient]\n"
            "  --reps N     repetitions, medians reported (default 5)   --steps N  --dt S  (the scenes')\n"
            "  --json F  --csv F   the table as JSON or CSV as well     --no-peers  sepax alone\n"
            "  --quick      a smoke run: --reps 1, and --steps 10 unless given   --runs N  the same as --reps N\n",
            program, strcmp(program, "sepax_bench standard") == 0 ? " [SCENE,...]" : "");
}

/* The suite is argv[0]'s last word ("sepax_bench ccd"); `standard` also takes scene names. */
int bench_scene_suite(int argc, char** argv)
{
    const char* name = strrchr(argv[0], ' ');
    name = name ? name + 1 : argv[0];
    scene_options base = { NULL, -1, 0.0, SCENE_UNKNOWN_KEY_ERROR };
    const char *json = NULL, *csv = NULL;
    long reps = 5;
    bool reps_given = false;
    bench_common common = BENCH_COMMON_DEFAULTS; /* --runs N (as --reps), --quick, --no-peers */
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout, argv[0]), EXIT_DONE;
        int common_used = bench_common_option(argc, argv, &i, &common, MAX_REPS, "sepax bench");
        if (common_used < 0) return EXIT_USAGE;
        if (common_used) continue;
        int used = scene_option(argc, argv, &i, &base, "bench");
        if (used < 0) return EXIT_USAGE;
        if (used) continue;
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--reps") == 0) {
            double x = parse_positive(v, a, "bench", true);
            if (x < 0.0 || x > MAX_REPS)
                return x < 0.0 ? EXIT_USAGE
                               : (fprintf(stderr, "sepax bench: --reps wants 1..%d\n", MAX_REPS), EXIT_USAGE);
            reps = (long)x, ++i, reps_given = true;
        } else if (strcmp(a, "--json") == 0 && v) {
            json = v, ++i;
        } else if (strcmp(a, "--csv") == 0 && v) {
            csv = v, ++i;
        } else {
            return option_error("bench", a, (const char* const[]){ "--json", "--csv", NULL });
        }
    }
    /* The suite: "standard" (the default), "ccd", "toi", "queries", or scenes (embedded names or files),
       comma-separated. */
    if (strcmp(name, "standard") != 0 && base.scene) {
        fprintf(stderr, "sepax bench %s: takes no scene ('%s')\n", name, base.scene);
        return EXIT_USAGE;
    }
    if (common.runs > 0 && !reps_given) reps = common.runs;
    if (common.quick && !reps_given && common.runs == 0) reps = 1;
    if (common.quick && base.steps < 0) base.steps = 10;
    const bool peers = common.peers;
    char list[1024];
    const char* suite = base.scene ? base.scene : name;
    bench_machine m;
    bench_machine_probe(&m, NULL);
    printf("sepax bench: sepax %d.%d.%d, %s build, simd %s%s\n", SPX_VERSION_MAJOR, SPX_VERSION_MINOR,
           SPX_VERSION_PATCH, SPX_BENCH_BUILD_TYPE, bench_simd_name(), bench_optimised_note());
    printf("date: %s  machine: %s  cpu: %s (%d online)  load: %s\n", m.date, m.name, m.cpu, m.cpus, m.load);
    if (strcmp(suite, "ccd") == 0 || strcmp(suite, "toi") == 0 || strcmp(suite, "queries") == 0) {
        const bench_suite_options so = { (int)reps, peers, json, csv, &m };
        return suite[0] == 'c' ? bench_ccd(&so) : suite[0] == 't' ? bench_toi(&so) : bench_queries(&so);
    }
    if (strcmp(suite, "standard") == 0) suite = "falling,falling-mesh,pyramid,pyramid-spaced";
    if (strlen(suite) >= sizeof list) return fprintf(stderr, "sepax bench: the suite is too long\n"), EXIT_USAGE;
    memcpy(list, suite, strlen(suite) + 1);
    const char* names[MAX_SCENES];
    int scene_count = 0;
    for (char* tok = strtok(list, ","); tok; tok = strtok(NULL, ","))
        if (scene_count < MAX_SCENES) names[scene_count++] = tok;

    engine engines[MAX_ENGINES];
    int engine_count = 0;
    engines[engine_count++] = (engine){ "sepax", NULL };
#if defined(SPX_BENCH_HAVE_BULLET)
    if (peers) engines[engine_count++] = (engine){ "bullet", bench_world_peer_bullet() };
#endif
#if defined(SPX_BENCH_HAVE_ODE)
    if (peers) engines[engine_count++] = (engine){ "ode", bench_world_peer_ode() };
#endif

    for (int e = 1; e < engine_count; ++e) printf("%s: %s\n", engines[e].name, engines[e].peer->describe());
    if (engine_count == 1)
        printf("peers: %s\n", peers ? "none built in (configure with -DSEPAX_BENCH_PEERS=ON and the peer packages)"
                                    : "off (--no-peers)");
    printf("times: wall-clock ms a step (ms_step the mean over the steps, ms_med their median; cpu_ms and cpu_med the "
           "same in this thread's processor time), median and best of %ld repetitions, each a fresh world; stages: "
           "sepax's own (spx_world_get_stats)\ncorrectness at the end: "
           "deepest penetration (ground or between bodies, m), bodies asleep, "
           "fallen through the ground, still moving (> %.2f m/s or rad/s); deep_med, deep_p99, deep_max: the "
           "deepest overlap after every step (mixed bodies)\n\n",
           reps, (double)MOVING_SPEED);

    static row rows[MAX_SCENES * MAX_ENGINES];
    int row_count = 0, failures = 0;
    bool bar = isatty(STDERR_FILENO);
    print_table_head(stdout);
    for (int sc = 0; sc < scene_count; ++sc) {
        scene_options o = base;
        o.scene = names[sc];
        scene s;
        if (!scene_open(&o, &s)) {
            ++failures;
            continue;
        }
        static test_scene_layout layout;
        static bench_world_bodies bodies;
        bool as_layout = scene_layout(&s, &layout);
        bool as_bodies = !as_layout && scene_bodies(&s, &bodies);
        uint32_t steps = scene_steps(&o, &s);
        double* step_ms = malloc((steps ? 2 * (size_t)steps : 1) * sizeof *step_ms); /* wall, then processor */
        double* deepest = malloc((steps ? steps : 1) * sizeof *deepest);
        if (!step_ms || !deepest) {
            free(step_ms), free(deepest), scene_free(&s);
            fprintf(stderr, "sepax bench: out of memory\n");
            ++failures;
            continue;
        }
        static char scene_names[MAX_SCENES][SCENE_NAME_MAX];
        memcpy(scene_names[sc], s.name, sizeof s.name); /* the file's "name", shorter than its path */
        scene_free(&s);
        row* first = &rows[row_count];
        int here = 0;
        for (int e = 0; e < engine_count; ++e) {
            /* The peers build ground-and-boxes scenes, and mixed bodies on the mesh ground where they can. */
            if (engines[e].peer && !as_layout && !(as_bodies && engines[e].peer->create_bodies)) continue;
            row* r = &rows[row_count + here++];
            memset(r, 0, sizeof *r);
            r->e = &engines[e], r->steps = steps, r->ok = true, r->layout_measure = as_layout;
            r->every_step = as_bodies;
            r->scene = scene_names[sc];
        }
        /* Repetitions interleave the engines, so that a change in the machine's load falls on all. */
        for (int k = 0; k < reps; ++k)
            for (int e = 0; e < here; ++e) {
                row* r = &first[e];
                if (!r->ok) continue;
                if (bar)
                    fprintf(stderr, "\r%s: %s, repetition %d of %ld ", names[sc], r->e->name, k + 1, reps),
                        fflush(stderr);
                bool last = k == reps - 1;
                bool ok = r->e->peer ? repeat_peer(r, k, &layout, as_bodies ? &bodies : NULL, &o, steps, last, step_ms,
                                                   deepest)
                                     : repeat_sepax(r, k, &o, steps, last, as_layout, step_ms, deepest);
                if (ok) r->reps = k + 1;
                else r->ok = false, ++failures;
            }
        if (bar) fprintf(stderr, "\r%*s\r", 70, "");
        double sepax_ms = NAN;
        for (int e = 0; e < here; ++e) {
            row* r = &first[e];
            if (!r->ok) continue;
            r->ms_median = bench_median(r->ms, (size_t)r->reps);
            r->ms_min = bench_min(r->ms, (size_t)r->reps);
            r->ms_step_median = bench_median(r->ms_step, (size_t)r->reps);
            r->cpu_median = bench_median(r->cpu, (size_t)r->reps);
            r->cpu_step_median = bench_median(r->cpu_step, (size_t)r->reps);
            for (int k = 0; k < STAGE_COUNT; ++k) r->stage_median[k] = bench_median(r->stage[k], (size_t)r->reps);
            if (!r->e->peer) sepax_ms = r->ms_median;
        }
        for (int e = 0; e < here; ++e)
            if (first[e].ok) print_table_row(stdout, &first[e], sepax_ms);
        row_count += here;
        free(step_ms), free(deepest);
        if (as_bodies)
            printf("  (%s: mixed bodies on the mesh ground; every engine's deepest overlap by sepax's public queries "
                   "on its poses after every step of the last repetition)\n",
                   names[sc]);
        else if (!as_layout && engine_count > 1)
            printf("  (%s: not a ground box with unit boxes on it, so sepax alone; deepest and fallen by the public "
                   "queries)\n",
                   names[sc]);
        fflush(stdout);
    }
    int status = failures ? EXIT_FAILED : EXIT_DONE;
    if (csv) {
        if (write_csv(csv, rows, row_count)) printf("\nwrote %s\n", csv);
        else fprintf(stderr, "sepax bench: cannot write %s: %s\n", csv, strerror(errno)), status = EXIT_FAILED;
    }
    if (json) {
        if (write_json(json, &m, (int)reps, rows, row_count)) printf("%swrote %s\n", csv ? "" : "\n", json);
        else fprintf(stderr, "sepax bench: cannot write %s: %s\n", json, strerror(errno)), status = EXIT_FAILED;
    }
    return status;
}
