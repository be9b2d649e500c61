/* sepax_bench broad: the broad phase alone, as a world step would drive it. See bench/README.md
   ("Broad phase").

   sepax_bench broad [-n=<bodies,...>] [--runs=<steps>] [--awake=<fraction>] [--fat=<fraction>] [--seed=<n>]

   The broad phase is internal (src/broad/): the one suite that reaches src/.
   Exit status: 0; 2 for a bad option; 3 when a sepax call fails. */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "random.h"
#include "suite.h"
#include "timer.h"
#include "broad/pair_finder.h"
#include "broad/swept_sphere.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 16
#define MAX_STEPS 1000
#define WARM_STEPS 10
#define DT (1.0f / 60.0f)
#define SPECULATIVE 0.04f /* m: the world's default speculative distance, the swept sphere's margin */

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sepax_bench broad [options]\n"
            "  -n=<n1,n2,...>     body counts (default 1000,10000,100000)\n"
            "  --awake=<f>        fraction of the boxes (not the ground) that move, 0..1 (default 0.8)\n"
            "  --fat=<f>          fat margin as a fraction of a box's largest extent (default %g)\n"
            "  --seed=<n>         scene seed (default 1)\n"
            "  (runs: timed steps a size after %d untimed ones, default 30; --quick: 1000 and 10000\n"
            "  bodies, 3 steps)\n",
            (double)SPX_PAIR_FINDER_FAT_FRACTION, WARM_STEPS);
    bench_common_usage(f);
}

/* CPU time of this thread: on a machine shared with other jobs a step can wait for the processor,
   and that wait is not the broad phase's. Wall-clock time is reported beside it. */
static uint64_t cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: the scene depends on the seed alone. */
static uint64_t next(uint64_t* s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float uniform(uint64_t* s, float lo, float hi)
{
    return lo + (hi - lo) * (float)((double)(next(s) >> 11) * 0x1p-53);
}

/* The scene: a ground of static tiles (10% of the bodies) under a layer of boxes. Of the boxes,
   one in five sleeps by default (--awake; the finder sees it as not moving), the rest drift at
   constant velocity and bounce off the ground, the ceiling and the walls: half slowly (up to
   0.5 m/s on each axis, as settling bodies do), two in five at up to 5 m/s, one in ten at up to
   20 m/s. No gravity: under it every box would soon be falling or bouncing at 10 to 20 m/s, which
   is no game's steady state. Box half extents 0.2 to 0.8 m; about 27 m^3 of space a body in a
   layer 30 m high (a busy level, not a packed pile), so the floor's side grows as the square root
   of the count. */
typedef struct scene {
    uint32_t n, tiles;
    float side, height;
    spx_vec3* p;
    spx_vec3* v;
    spx_vec3* w;
    float* radius;
    uint8_t* awake;
} scene;

static bool scene_make(scene* s, uint32_t n, uint64_t seed, float awake)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->p = malloc(n * sizeof *s->p), s->v = malloc(n * sizeof *s->v), s->w = malloc(n * sizeof *s->w);
    s->radius = malloc(n * sizeof *s->radius), s->awake = malloc(n);
    if (!s->p || !s->v || !s->w || !s->radius || !s->awake) return false;
    s->height = 30.0f;
    s->side = sqrtf((float)n * 27.0f / s->height);
    uint32_t per_side = (uint32_t)ceilf(sqrtf((float)n * 0.1f));
    s->tiles = per_side * per_side;
    if (s->tiles > n) s->tiles = n;
    float tile = s->side / (float)per_side;
    for (uint32_t i = 0; i < s->tiles; ++i) {
        /* A tile: a box tile/2 by 0.25 by tile/2 (half extents) with its top at y = 0. */
        s->p[i] = spx_v3(((float)(i % per_side) + 0.5f) * tile, -0.25f, ((float)(i / per_side) + 0.5f) * tile);
        s->v[i] = s->w[i] = spx_v3(0, 0, 0);
        s->radius[i] = sqrtf(2.0f * 0.25f * tile * tile + 0.0625f);
        s->awake[i] = 0;
    }
    for (uint32_t i = s->tiles; i < n; ++i) {
        float hx = uniform(&seed, 0.2f, 0.8f), hy = uniform(&seed, 0.2f, 0.8f), hz = uniform(&seed, 0.2f, 0.8f);
        s->radius[i] = sqrtf(hx * hx + hy * hy + hz * hz);
        s->p[i] = bench_random_vec3(uniform, &seed, spx_v3(0, s->radius[i], 0), spx_v3(s->side, s->height, s->side));
        float kind = uniform(&seed, 0, 1);
        float speed = kind < 0.5f ? 0.5f : kind < 0.9f ? 5.0f : 20.0f;
        s->v[i] = bench_random_vec3(uniform, &seed, spx_v3(-speed, -speed, -speed), spx_v3(speed, speed, speed));
        s->w[i] = bench_random_vec3(uniform, &seed, spx_v3(-3, -3, -3), spx_v3(3, 3, 3));
        s->awake[i] = uniform(&seed, 0, 1) < awake;
        if (!s->awake[i]) s->v[i] = s->w[i] = spx_v3(0, 0, 0);
    }
    return true;
}

static void scene_free(scene* s) { free(s->p), free(s->v), free(s->w), free(s->radius), free(s->awake); }

/* Moves the awake bodies by one step, reflected at the walls. */
static void scene_advance(scene* s)
{
    for (uint32_t i = s->tiles; i < s->n; ++i) {
        if (!s->awake[i]) continue;
        spx_vec3* p = &s->p[i];
        spx_vec3* v = &s->v[i];
        p->x += v->x * DT, p->y += v->y * DT, p->z += v->z * DT;
        float r = s->radius[i];
        if (p->y < r) p->y = r, v->y = fabsf(v->y);
        if (p->y > s->height) p->y = s->height, v->y = -fabsf(v->y);
        if (p->x < 0) p->x = 0, v->x = fabsf(v->x);
        if (p->x > s->side) p->x = s->side, v->x = -fabsf(v->x);
        if (p->z < 0) p->z = 0, v->z = fabsf(v->z);
        if (p->z > s->side) p->z = s->side, v->z = -fabsf(v->z);
    }
}

/* What the world does each step: the swept sphere of every awake body into the finder (static and
   sleeping bodies keep their boxes and are not touched after the first step), then the update.
   *reinserts: tree leaves put back by this step's moves (read between the two, untimed). */
static spx_result broad_step(scene* s, spx_pair_finder* f, bool first, spx_pair_update* u, double* set_ms,
                             double* update_ms, double* wall_ms, uint32_t* reinserts)
{
    uint64_t w0 = bench_now_ns(), t0 = cpu_now_ns();
    for (uint32_t i = 0; i < s->n; ++i) {
        if (!s->awake[i] && !first) continue;
        spx_sphere sphere;
        spx_result r =
            spx_swept_sphere(s->p[i], s->v[i], s->w[i], spx_v3(0, 0, 0), s->radius[i], SPECULATIVE, DT, &sphere);
        if (r != SPX_OK) return r;
        spx_aabb box = spx_sphere_aabb(&sphere);
        r = spx_pair_finder_set(f, i, &box, s->awake[i] != 0);
        if (r != SPX_OK) return r;
    }
    uint64_t t1 = cpu_now_ns(), w1 = bench_now_ns();
    spx_pair_finder_stats st;
    spx_pair_finder_get_stats(f, &st);
    *reinserts = st.reinserts;
    uint64_t w2 = bench_now_ns(), t2 = cpu_now_ns();
    spx_result r = spx_pair_finder_update(f, u);
    uint64_t t3 = cpu_now_ns(), w3 = bench_now_ns();
    *set_ms = (double)(t1 - t0) * 1e-6;
    *update_ms = (double)(t3 - t2) * 1e-6;
    *wall_ms = (double)(w1 - w0 + w3 - w2) * 1e-6;
    return r;
}

typedef struct options {
    uint32_t sizes[MAX_SIZES];
    int size_count;
    bool sized;
    float fat, awake;
    uint64_t seed;
} options;

/* The broad suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    char* end;
    if ((v = bench_option_value(argv[*i], "-n"))) {
        o->size_count = bench_parse_counts(v, o->sizes, MAX_SIZES, 2, 10000000ull);
        if (o->size_count < 0) return fprintf(stderr, "%s: -n wants body counts, 2..10000000\n", argv[0]), -1;
        o->sized = true;
    } else if ((v = bench_option_value(argv[*i], "--fat"))) {
        o->fat = strtof(v, &end);
        if (end == v || *end || !(o->fat >= 0.0f && o->fat <= 10.0f))
            return fprintf(stderr, "%s: --fat wants 0..10\n", argv[0]), -1;
    } else if ((v = bench_option_value(argv[*i], "--awake"))) {
        o->awake = strtof(v, &end);
        if (end == v || *end || !(o->awake >= 0.0f && o->awake <= 1.0f))
            return fprintf(stderr, "%s: --awake wants 0..1\n", argv[0]), -1;
    } else if ((v = bench_option_value(argv[*i], "--seed"))) {
        o->seed = strtoull(v, NULL, 0);
    } else {
        return 0;
    }
    return 1;
}

int bench_broad(int argc, char** argv)
{
    options o = { { 1000, 10000, 100000 }, 3, false, SPX_PAIR_FINDER_FAT_FRACTION, 0.8f, 1 };
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, MAX_STEPS, own_option, &o, usage);
    if (parsed >= 0) return parsed;
    const char* program = argv[0];
    uint32_t* sizes = o.sizes;
    int size_count = o.size_count;
    bool sized = o.sized;
    float fat = o.fat, awake = o.awake;
    uint64_t seed = o.seed;
    if (common.quick && !sized) size_count = 2;
    int steps = common.runs ? common.runs : common.quick ? 3 : 30;

    bench_machine m;
    bench_machine_probe(&m, NULL);
    printf("%s: swept spheres of a scene into the pair finder, then an update; dt 1/60 s, "
           "%g of the boxes awake, fat %g\n",
           program, (double)awake, (double)fat);
    bench_print_header(program, &m);
    printf("%8s %6s %8s %8s %8s %9s %8s %8s %8s %8s %7s %7s %9s %8s %9s %6s %7s\n", "bodies", "steps", "moving",
           "first_ms", "set_ms", "update_ms", "step_ms", "step_min", "wall_ms", "pairs", "began", "ended", "reinserts",
           "queries", "fat_pairs", "height", "MiB");

    int status = 0;
    for (int k = 0; k < size_count; ++k) {
        scene s;
        spx_pair_finder* f = NULL;
        if (!scene_make(&s, sizes[k], seed, awake) || spx_pair_finder_create(NULL, sizes[k], &f) != SPX_OK) {
            fprintf(stderr, "%s: out of memory for %u bodies\n", program, sizes[k]);
            scene_free(&s);
            status = 3;
            continue;
        }
        spx_pair_finder_set_fat_fraction(f, fat);
        double set_ms[MAX_STEPS], update_ms[MAX_STEPS], step_ms[MAX_STEPS], wall_ms[MAX_STEPS];
        double pairs = 0, began = 0, ended = 0, reinserts = 0, fat_pairs = 0, queries = 0, first_ms = 0;
        spx_pair_finder_stats st = { 0 };
        spx_result r = SPX_OK;
        for (int step = -WARM_STEPS; step < steps && r == SPX_OK; ++step) {
            spx_pair_update u;
            double a = 0, b = 0, w = 0;
            uint32_t put_back;
            if (step > -WARM_STEPS) scene_advance(&s);
            r = broad_step(&s, f, step == -WARM_STEPS, &u, &a, &b, &w, &put_back);
            if (step == -WARM_STEPS) first_ms = a + b;
            if (r != SPX_OK || step < 0) continue;
            set_ms[step] = a, update_ms[step] = b, step_ms[step] = a + b, wall_ms[step] = w;
            spx_pair_finder_get_stats(f, &st);
            pairs += u.count, began += u.begun_count, ended += u.ended_count;
            fat_pairs += st.fat_pairs, queries += st.queries;
            reinserts += put_back;
        }
        if (r != SPX_OK) {
            fprintf(stderr, "%s: %u bodies: %s\n", program, sizes[k], spx_result_string(r));
            status = 3;
        } else {
            spx_pair_finder_get_stats(f, &st);
            double min = bench_min(step_ms, (size_t)steps);
            double set_med = bench_median(set_ms, (size_t)steps), upd_med = bench_median(update_ms, (size_t)steps);
            double step_med = bench_median(step_ms, (size_t)steps), wall_med = bench_median(wall_ms, (size_t)steps);
            printf("%8u %6d %8u %8.2f %8.3f %9.3f %8.3f %8.3f %8.3f %8.0f %7.0f %7.0f %9.0f %8.0f %9.0f %6u %7.1f\n",
                   s.n, steps, st.moving, first_ms, set_med, upd_med, step_med, min, wall_med, pairs / steps,
                   began / steps, ended / steps, reinserts / steps, queries / steps, fat_pairs / steps, st.tree_height,
                   (double)st.bytes / (1024.0 * 1024.0));
        }
        spx_pair_finder_destroy(f);
        scene_free(&s);
    }
    return status;
}
