/* sepax_bench joints: jointed scenes stepped for 10 s, sepax and (built with -DSEPAX_BENCH_PEERS=ON
   and Bullet found) Bullet on the same bodies and ball joints in the same run. Reports ms a step
   (mean over the run) and the joint error each step, the largest gap between a joint's two anchors
   over its joints (m): median, p99 and max over the steps; "exploded" when a body went non-finite or
   a gap passed 1 m.

   sepax_bench joints [-s=<name,name>] [--steps=<n>] [--quick] [--no-peers]

   Scenes: chain-20 (20 links of 1 kg laid level, let fall from a world anchor), chain-100-heavy
   (100 links of 1 kg hanging, a 100 kg end kicked sideways at 2 m/s), bridge-100 (100 planks of 2 kg
   joined at both edges, their ends to the world, 20 boxes of 5 kg dropped on them), ragdolls-100
   (100 ragdolls of 11 boxes, cone-twist waist, neck, shoulders and hips, hinged elbows and knees,
   dropped in a pile on a static ground), welds-10x10 (ten beams of ten 1 kg boxes welded end to end,
   cantilevered from a static wall). */
#define _POSIX_C_SOURCE 200112L
#include "joint_scenes.h"
#include "suite.h"
#include "timer.h"
#include <sepax/sepax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_body(bench_joint_scene* s, spx_vec3 p, spx_vec3 half, float mass)
{
    s->bodies[s->body_count] = (bench_joint_body){ p, half, mass, { 0, 0, 0 } };
    return s->body_count++;
}

static bench_joint* add_joint(bench_joint_scene* s, int a, int b, spx_vec3 anchor)
{
    s->joints[s->joint_count] = (bench_joint){ a, b, anchor, BENCH_JOINT_BALL, { 0, 0, 0, 1 }, 0, 0, 0 };
    return &s->joints[s->joint_count++];
}

/* The rotation taking x onto the unit axis d (d = -x: half a turn about z). */
static spx_quat x_onto(spx_vec3 d)
{
    float hx = 1.0f + d.x, hy = d.y, hz = d.z;
    if (hx < 1e-6f) return (spx_quat){ 0, 0, 1, 0 };
    const float n = sqrtf(hx * hx + hy * hy + hz * hz);
    return (spx_quat){ 0, -hz / n, hy / n, hx / n };
}

static void add_shaped(bench_joint_scene* s, bench_joint_kind kind, int a, int b, spx_vec3 anchor, spx_vec3 axis,
                       float lower, float upper, float swing)
{
    bench_joint* j = add_joint(s, a, b, anchor);
    j->kind = kind, j->frame = x_onto(axis), j->lower = lower, j->upper = upper, j->swing = swing;
}

/* A ragdoll of 11 boxes with its pelvis at p, standing (scenes/ragdoll.json's body). */
static void add_ragdoll(bench_joint_scene* s, spx_vec3 p)
{
    static const struct {
        float x, y, hx, hy, hz, mass;
    } part[11] = {
        { 0, 0, 0.16f, 0.1f, 0.1f, 10 },
        { 0, 0.35f, 0.18f, 0.22f, 0.11f, 18 },
        { 0, 0.75f, 0.1f, 0.12f, 0.1f, 5 },
        { -0.37f, 0.43f, 0.15f, 0.05f, 0.05f, 2 },
        { -0.67f, 0.43f, 0.14f, 0.045f, 0.045f, 1.5f },
        { 0.37f, 0.43f, 0.15f, 0.05f, 0.05f, 2 },
        { 0.67f, 0.43f, 0.14f, 0.045f, 0.045f, 1.5f },
        { -0.1f, -0.31f, 0.07f, 0.2f, 0.07f, 7 },
        { -0.1f, -0.72f, 0.06f, 0.2f, 0.06f, 4 },
        { 0.1f, -0.31f, 0.07f, 0.2f, 0.07f, 7 },
        { 0.1f, -0.72f, 0.06f, 0.2f, 0.06f, 4 },
    };
    const int base = s->body_count;
    for (int i = 0; i < 11; ++i)
        add_body(s, spx_v3(p.x + part[i].x, p.y + part[i].y, p.z), spx_v3(part[i].hx, part[i].hy, part[i].hz),
                 part[i].mass);
#define AT(dx, dy) spx_v3(p.x + (dx), p.y + (dy), p.z)
    add_shaped(s, BENCH_JOINT_CONE_TWIST, base, base + 1, AT(0, 0.1f), spx_v3(0, 1, 0), -0.4f, 0.4f, 0.5f);
    add_shaped(s, BENCH_JOINT_CONE_TWIST, base + 1, base + 2, AT(0, 0.61f), spx_v3(0, 1, 0), -0.8f, 0.8f, 0.6f);
    add_shaped(s, BENCH_JOINT_CONE_TWIST, base + 1, base + 3, AT(-0.2f, 0.43f), spx_v3(-1, 0, 0), -0.7f, 0.7f, 1.3f);
    add_shaped(s, BENCH_JOINT_HINGE, base + 3, base + 4, AT(-0.52f, 0.43f), spx_v3(0, 1, 0), 0.0f, 2.5f, 0);
    add_shaped(s, BENCH_JOINT_CONE_TWIST, base + 1, base + 5, AT(0.2f, 0.43f), spx_v3(1, 0, 0), -0.7f, 0.7f, 1.3f);
    add_shaped(s, BENCH_JOINT_HINGE, base + 5, base + 6, AT(0.52f, 0.43f), spx_v3(0, -1, 0), 0.0f, 2.5f, 0);
    add_shaped(s, BENCH_JOINT_CONE_TWIST, base, base + 7, AT(-0.1f, -0.1f), spx_v3(0, -1, 0), -0.3f, 0.3f, 0.9f);
    add_shaped(s, BENCH_JOINT_HINGE, base + 7, base + 8, AT(-0.1f, -0.515f), spx_v3(1, 0, 0), 0.0f, 2.4f, 0);
    add_shaped(s, BENCH_JOINT_CONE_TWIST, base, base + 9, AT(0.1f, -0.1f), spx_v3(0, -1, 0), -0.3f, 0.3f, 0.9f);
    add_shaped(s, BENCH_JOINT_HINGE, base + 9, base + 10, AT(0.1f, -0.515f), spx_v3(1, 0, 0), 0.0f, 2.4f, 0);
#undef AT
}

static bench_joint_scene make_scene(const char* name)
{
    bench_joint_scene s = {
        name, 0, 0, calloc(1200, sizeof(bench_joint_body)), calloc(1200, sizeof(bench_joint)), 1.0f / 60.0f, 600
    };
    if (strcmp(name, "chain-20") == 0) {
        for (int i = 0; i < 20; ++i) {
            add_body(&s, spx_v3(0.25f + 0.5f * (float)i, 10, 0), spx_v3(0.25f, 0.05f, 0.05f), 1.0f);
            add_joint(&s, i - 1, i, spx_v3(0.5f * (float)i, 10, 0));
        }
    } else if (strcmp(name, "chain-100-heavy") == 0) {
        for (int i = 0; i < 100; ++i) {
            add_body(&s, spx_v3(0, 60.0f - 0.25f - 0.5f * (float)i, 0), spx_v3(0.05f, 0.25f, 0.05f),
                     i == 99 ? 100.0f : 1.0f);
            add_joint(&s, i - 1, i, spx_v3(0, 60.0f - 0.5f * (float)i, 0));
        }
        s.bodies[99].velocity = spx_v3(2, 0, 0);
    } else if (strcmp(name, "bridge-100") == 0) {
        for (int i = 0; i < 100; ++i) {
            add_body(&s, spx_v3(0.25f + 0.5f * (float)i, 10, 0), spx_v3(0.25f, 0.05f, 1.0f), 2.0f);
            for (int side = -1; side <= 1; side += 2)
                add_joint(&s, i - 1, i, spx_v3(0.5f * (float)i, 10, 0.9f * (float)side));
        }
        for (int side = -1; side <= 1; side += 2) add_joint(&s, -1, 99, spx_v3(50.0f, 10, 0.9f * (float)side));
        for (int k = 0; k < 20; ++k)
            add_body(&s, spx_v3(2.0f + 2.4f * (float)k, 11.0f + 0.3f * (float)(k % 3), 0), spx_v3(0.25f, 0.25f, 0.25f),
                     5.0f);
    } else if (strcmp(name, "ragdolls-100") == 0) {
        add_body(&s, spx_v3(0, -0.5f, 0), spx_v3(30, 0.5f, 30), 0.0f);
        /* Five by five columns 1.6 m apart, four layers 2 m apart, each turned a little off the last:
           they fall on one another in a pile. */
        for (int k = 0; k < 100; ++k) {
            const int layer = k / 25, i = k % 5, j = (k / 5) % 5;
            add_ragdoll(&s, spx_v3(-3.2f + 1.6f * (float)i + 0.3f * (float)layer, 1.5f + 2.0f * (float)layer,
                                   -3.2f + 1.6f * (float)j + 0.2f * (float)(layer & 1)));
        }
    } else if (strcmp(name, "welds-10x10") == 0) {
        const int wall = add_body(&s, spx_v3(-0.5f, 5, 0), spx_v3(0.5f, 5, 12), 0.0f);
        for (int beam = 0; beam < 10; ++beam) {
            const float y = 1.0f + 0.9f * (float)beam, z = -9.0f + 2.0f * (float)beam;
            for (int i = 0; i < 10; ++i) {
                const int b = add_body(&s, spx_v3(0.25f + 0.5f * (float)i, y, z), spx_v3(0.25f, 0.1f, 0.1f), 1.0f);
                add_shaped(&s, BENCH_JOINT_WELD, i ? b - 1 : wall, b, spx_v3(0.5f * (float)i, y, z), spx_v3(1, 0, 0), 0,
                           0, 0);
            }
        }
    } else {
        free(s.bodies), free(s.joints);
        s.bodies = NULL, s.joints = NULL;
    }
    return s;
}

/* ---- sepax --------------------------------------------------------------------------------------- */

typedef struct sepax_world {
    spx_world* world;
    spx_body_id* ids;
    int count;
} sepax_world;

static const char* sepax_describe(void) { return "sepax: 6 substeps, 2 solve + 1 relax passes, sleep off"; }

static void* sepax_create(const bench_joint_scene* s)
{
    sepax_world* w = calloc(1, sizeof *w);
    spx_world_def wd = spx_default_world_def();
    wd.enable_sleep = false;
    if (!w || spx_world_create(&wd, &w->world) != SPX_OK) return NULL;
    w->ids = calloc((size_t)s->body_count, sizeof(spx_body_id));
    w->count = s->body_count;
    for (int i = 0; i < s->body_count; ++i) {
        const bench_joint_body* b = &s->bodies[i];
        spx_shape_def sh = spx_default_shape_def();
        sh.half_extents = b->half;
        sh.density = b->mass / (8.0f * b->half.x * b->half.y * b->half.z);
        if (b->mass <= 0.0f) sh.density = 1.0f;
        spx_body_def bd = spx_default_body_def();
        bd.type = b->mass > 0.0f ? SPX_BODY_DYNAMIC : SPX_BODY_STATIC;
        bd.position = b->position;
        bd.linear_velocity = b->velocity;
        bd.angular_damping = 0.0f;
        bd.shapes = &sh;
        bd.shape_count = 1;
        if (spx_body_create(w->world, &bd, &w->ids[i]) != SPX_OK) return NULL;
    }
    for (int k = 0; k < s->joint_count; ++k) {
        const bench_joint* j = &s->joints[k];
        const int aa = j->a, bb = j->b;
        static const spx_joint_type types[] = { SPX_JOINT_BALL, SPX_JOINT_HINGE, SPX_JOINT_CONE_TWIST, SPX_JOINT_WELD };
        spx_joint_def d = spx_default_joint_def(types[j->kind]);
        const spx_vec3 p = j->anchor;
        /* The bodies start unturned: the joint's world frame is its frame in each body. */
        d.frame_a.q = d.frame_b.q = j->frame;
        if (j->kind == BENCH_JOINT_HINGE && j->lower < j->upper)
            d.limit = (spx_joint_limit){ true, j->lower, j->upper };
        if (j->kind == BENCH_JOINT_CONE_TWIST) {
            d.limit = (spx_joint_limit){ true, j->lower, j->upper };
            d.swing_limit = j->swing;
        }
        if (aa >= 0) {
            d.body_a = w->ids[aa];
            const spx_vec3 c = s->bodies[aa].position;
            d.frame_a.p = spx_v3(p.x - c.x, p.y - c.y, p.z - c.z);
        } else {
            d.frame_a.p = p;
        }
        d.body_b = w->ids[bb];
        const spx_vec3 c = s->bodies[bb].position;
        d.frame_b.p = spx_v3(p.x - c.x, p.y - c.y, p.z - c.z);
        spx_joint_id id;
        if (spx_joint_create(w->world, &d, &id) != SPX_OK) return NULL;
    }
    return w;
}

static void sepax_step(void* world) { spx_world_step(((sepax_world*)world)->world, 1.0f / 60.0f); }

static void sepax_read(const void* world, spx_transform* poses)
{
    const sepax_world* w = world;
    for (int i = 0; i < w->count; ++i) spx_body_get_transform(w->world, w->ids[i], &poses[i]);
}

static void sepax_destroy(void* world)
{
    sepax_world* w = world;
    spx_world_destroy(w->world);
    free(w->ids);
    free(w);
}

static const bench_joint_peer sepax_engine = { "sepax",    sepax_describe, sepax_create,
                                               sepax_step, sepax_read,     sepax_destroy };

/* ---- the measure ----------------------------------------------------------------------------------- */

static spx_vec3 apply(const spx_transform* t, spx_vec3 p)
{
    const spx_quat q = t->q;
    const float cx = q.y * p.z - q.z * p.y, cy = q.z * p.x - q.x * p.z, cz = q.x * p.y - q.y * p.x;
    const float tx = 2 * cx, ty = 2 * cy, tz = 2 * cz;
    return spx_v3(t->p.x + p.x + q.w * tx + (q.y * tz - q.z * ty), t->p.y + p.y + q.w * ty + (q.z * tx - q.x * tz),
                  t->p.z + p.z + q.w * tz + (q.x * ty - q.y * tx));
}

/* The largest gap between a joint's two anchors (each carried with its body from the start). */
static float joint_error(const bench_joint_scene* s, const spx_transform* poses, bool* finite)
{
    float worst = 0.0f;
    for (int k = 0; k < s->joint_count; ++k) {
        const bench_joint* j = &s->joints[k];
        spx_vec3 end[2];
        const int ids[2] = { j->a, j->b };
        for (int e = 0; e < 2; ++e) {
            if (ids[e] < 0) {
                end[e] = j->anchor;
                continue;
            }
            const spx_vec3 c = s->bodies[ids[e]].position;
            end[e] = apply(&poses[ids[e]], spx_v3(j->anchor.x - c.x, j->anchor.y - c.y, j->anchor.z - c.z));
        }
        const float dx = end[0].x - end[1].x, dy = end[0].y - end[1].y, dz = end[0].z - end[1].z;
        const float gap = sqrtf(dx * dx + dy * dy + dz * dz);
        if (!isfinite(gap)) *finite = false;
        else if (gap > worst) worst = gap;
    }
    return worst;
}

static int compare_float(const void* a, const void* b)
{
    const float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

static int run(const bench_joint_peer* e, const bench_joint_scene* s)
{
    void* w = e->create(s);
    if (!w) {
        fprintf(stderr, "%s: %s could not be built\n", s->name, e->engine);
        return 3;
    }
    spx_transform* poses = calloc((size_t)s->body_count, sizeof(spx_transform));
    float* errors = calloc((size_t)s->steps, sizeof(float));
    bool finite = true;
    uint64_t ns = 0;
    for (int step = 0; step < s->steps; ++step) {
        const uint64_t t0 = bench_now_ns();
        e->step(w);
        ns += bench_now_ns() - t0;
        e->read(w, poses);
        errors[step] = joint_error(s, poses, &finite);
    }
    qsort(errors, (size_t)s->steps, sizeof(float), compare_float);
    const float median = errors[s->steps / 2], p99 = errors[(s->steps * 99) / 100], max = errors[s->steps - 1];
    printf("%-16s %-8s %9.4f %11.2e %11.2e %11.2e  %s\n", s->name, e->engine, (double)ns * 1e-6 / s->steps, median, p99,
           max, !finite || max > 1.0f ? "exploded" : "-");
    free(poses);
    free(errors);
    e->destroy(w);
    return 0;
}

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench joints [options]\n"
               "  -s=<a,b>           scenes: chain-20, chain-100-heavy, bridge-100, ragdolls-100, welds-10x10\n"
               "                     (default all)\n"
               "  --steps=<n>        steps a scene (default 600; --quick 60)\n"
               "  (one run a scene: --runs does not apply)\n");
    bench_common_usage(f);
}

typedef struct options {
    const char* only;
    int steps;
} options;

/* The joints suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    if ((v = bench_option_value(argv[*i], "-s"))) o->only = v;
    else if ((v = bench_option_value(argv[*i], "--steps"))) o->steps = atoi(v);
    else return 0;
    return 1;
}

int bench_joints(int argc, char** argv)
{
    options o = { NULL, 0 };
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 1000, own_option, &o, usage);
    if (parsed >= 0) return parsed;
    const char* only = o.only;
    int steps = o.steps >= 1 ? o.steps : common.quick ? 60 : 600;
    bool peers = common.peers;
    const bench_joint_peer* engines[2] = { &sepax_engine, NULL };
#if defined(SPX_BENCH_HAVE_BULLET)
    if (peers) engines[1] = bench_joint_peer_bullet();
#else
    (void)peers;
#endif
    for (int k = 0; k < 2 && engines[k]; ++k) printf("# %s\n", engines[k]->describe());
    printf("%-16s %-8s %9s %11s %11s %11s  %s\n", "scene", "engine", "ms/step", "err median", "err p99", "err max",
           "exploded");
    static const char* names[] = { "chain-20", "chain-100-heavy", "bridge-100", "ragdolls-100", "welds-10x10" };
    int status = 0;
    for (size_t n = 0; n < sizeof names / sizeof names[0]; ++n) {
        if (only && !strstr(only, names[n])) continue;
        bench_joint_scene s = make_scene(names[n]);
        s.steps = steps;
        for (int k = 0; k < 2 && engines[k]; ++k) status |= run(engines[k], &s);
        free(s.bodies);
        free(s.joints);
    }
    return status;
}
