/* sepax bench queries: ray casts and box casts on the scene of the world-query tests
 * (tests/support/query_scene.h: 1,000 boxes and meshes at random poses, static, asleep and awake),
 * timed as closest-hit queries: spx_world_cast_ray_closest and spx_world_cast_box_closest, and in the
 * comparison build Bullet's rayTest and convexSweepTest on the same bodies (bench/peers/query_peers.h).
 *
 * Each engine's error is measured against an exact answer worked out apart from every engine, for the
 * shape sepax reports first (its box, or the mesh's triangle in world space from the def): for a ray,
 * the slabs of the box or the triangle's plane in long double; for a box cast, the double-precision
 * reference of tests/support/reference.c (the signed distance of the translating pieces, bisected to
 * its first root). A miss where the reference hits, or a hit where sepax found nothing, counts as a
 * disagreement. */
#define _POSIX_C_SOURCE 200809L
#include "scene_suites.h"
#include "commands.h"
#include "timer.h"
#include "support/cases.h"
#include "support/query_scene.h"
#include "support/reference.h"
#if defined(SPX_BENCH_HAVE_BULLET)
#include "peers/query_peers.h"
#endif

#include <sepax/sepax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BODIES 1000
#define CASTS 10000
#define SEED 0x5E9A
#define MAX_REPS 101
#define MAX_ENGINES 2

typedef struct cast_case {
    spx_vec3 origin; /* ray origin, or the box's centre */
    spx_vec3 translation;
    spx_obb box;
    spx_cast_result sepax; /* sepax's closest */
    double exact;          /* the reference's fraction for the shape sepax reported; NAN: none */
} cast_case;

typedef struct query_row {
    const char* query; /* "ray", "box" */
    const char* engine;
    double ns[MAX_REPS];
    double ns_median;
    int hits;
    int disagreements;          /* hit where the reference misses, or miss where it hits */
    double err_median, err_max; /* |fraction - exact| over the cases both hit, as a length (m) */
    bool ok;
} query_row;

/* The same generators as tests/test_query.c. */
static void make_cases(cast_case* rays, cast_case* boxes)
{
    test_case_rng rng = { 11 };
    for (int n = 0; n < CASTS; ++n) {
        cast_case* c = &rays[n];
        c->origin = test_case_random_vec3(&rng, -30, 30);
        double u[3];
        test_case_unit_vector(&rng, u);
        const double len = test_case_uniform(&rng, 1, 60);
        c->translation = spx_v3((float)(u[0] * len), (float)(u[1] * len), (float)(u[2] * len));
    }
    rng.state = 12;
    for (int n = 0; n < CASTS; ++n) {
        cast_case* c = &boxes[n];
        const float hx = (float)test_case_log_uniform(&rng, 0.05, 1.0),
                    hy = (float)test_case_log_uniform(&rng, 0.05, 1.0),
                    hz = (float)test_case_log_uniform(&rng, 0.05, 1.0);
        const spx_vec3 h = { hx, hy, hz };
        c->origin = test_case_random_vec3(&rng, -28, 28);
        spx_obb_from_quat(c->origin, h, test_case_random_quat(&rng), &c->box);
        double u[3];
        test_case_unit_vector(&rng, u);
        const double len = test_case_uniform(&rng, 0.5, 30);
        c->translation = spx_v3((float)(u[0] * len), (float)(u[1] * len), (float)(u[2] * len));
    }
}

/* The shape sepax reported, in world space: its box, or the mesh triangle (in double, from the def). */
static bool shape_piece(const test_query_scene* s, const spx_cast_result* r, test_ref_piece* out)
{
    const test_query_scene_body* qb = NULL;
    for (uint32_t i = 0; i < s->body_count && !qb; ++i)
        if (s->bodies[i].id.index == r->body.index && s->bodies[i].id.generation == r->body.generation)
            qb = &s->bodies[i];
    spx_transform pose;
    if (!qb || spx_body_get_transform(s->world, r->body, &pose) != SPX_OK) return false;
    const spx_shape_def* sd = &qb->shapes[r->shape_index];
    /* body pose, then the shape's local placement */
    double x = pose.q.x, y = pose.q.y, z = pose.q.z, w = pose.q.w;
    const double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    const double R[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y) },
                             { 2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x) },
                             { 2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y) } };
    if (sd->type == SPX_SHAPE_MESH) {
        const test_shape* m = &s->shapes[qb->mesh_index[r->shape_index]];
        if (r->triangle >= m->triangle_count) return false;
        spx_triangle t;
        for (int k = 0; k < 3; ++k) {
            const spx_vec3 v = m->vertices[m->indices[3 * r->triangle + k]];
            for (int j = 0; j < 3; ++j)
                (&t.v[k].x)[j] = (float)(R[0][j] * v.x + R[1][j] * v.y + R[2][j] * v.z + (&pose.p.x)[j]);
        }
        test_ref_piece_from_triangle(&t, out);
        return true;
    }
    /* the box: centre and axes through the local placement */
    spx_obb local;
    if (spx_obb_from_quat(sd->local.p, sd->half_extents, sd->local.q, &local) != SPX_OK) return false;
    spx_obb world = local;
    for (int j = 0; j < 3; ++j) {
        const spx_vec3 c = local.center;
        (&world.center.x)[j] = (float)(R[0][j] * c.x + R[1][j] * c.y + R[2][j] * c.z + (&pose.p.x)[j]);
        for (int i = 0; i < 3; ++i) {
            const spx_vec3 a = local.rotation.col[i];
            (&world.rotation.col[i].x)[j] = (float)(R[0][j] * a.x + R[1][j] * a.y + R[2][j] * a.z);
        }
    }
    test_ref_piece_from_obb(&world, out);
    return true;
}

/* The exact first contact of the moving box with the piece: the reference's signed distance. */
static double reference_time(const cast_case* c, const test_ref_piece* shape)
{
    test_ref_problem p;
    const spx_vec3 still = { 0, 0, 0 };
    test_ref_problem_obb_obb(&c->box, c->translation, &c->box, still, 1.0f, &p); /* sets a, va, tmax */
    p.b = *shape;
    test_ref_candidate_axes(&p.a, &p.b, &p.axes);
    for (int i = 0; i < p.b.count; ++i) /* the scale of the problem takes in the shape's size */
        for (int j = 0; j < p.b.count; ++j) {
            double d2 = 0;
            for (int k = 0; k < 3; ++k) d2 += (p.b.v[i][k] - p.b.v[j][k]) * (p.b.v[i][k] - p.b.v[j][k]);
            p.size = fmax(p.size, sqrt(d2));
        }
    test_ref_sweep s;
    test_ref_sweep_solve(&p, 1e-5 * p.size, &s);
    return s.state == TEST_REF_MISS ? NAN : s.time;
}

/* The exact fraction where the ray meets the piece, in long double: a triangle's plane (the
   triangle sepax reported; a ray is a line and meets a flat piece only in its plane), or a box's
   slabs. NAN when it misses the box. */
static double reference_ray(const cast_case* c, const test_ref_piece* shape)
{
    const long double o[3] = { c->origin.x, c->origin.y, c->origin.z };
    const long double d[3] = { c->translation.x, c->translation.y, c->translation.z };
    if (shape->count == 3) {
        long double e1[3], e2[3], n[3], nd = 0, nw = 0;
        for (int k = 0; k < 3; ++k)
            e1[k] = (long double)shape->v[1][k] - shape->v[0][k], e2[k] = (long double)shape->v[2][k] - shape->v[0][k];
        n[0] = e1[1] * e2[2] - e1[2] * e2[1], n[1] = e1[2] * e2[0] - e1[0] * e2[2],
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int k = 0; k < 3; ++k) nd += n[k] * d[k], nw += n[k] * ((long double)shape->v[0][k] - o[k]);
        return nd != 0 ? (double)(nw / nd) : NAN;
    }
    /* a box: corners 0 and 7 are opposite; its edges along the three axes from corner 0 */
    long double enter = 0, leave = 1;
    for (int i = 0; i < 3; ++i) {
        const int far = 1 << i;
        long double u[3], len2 = 0, lo = 0, hi = 0, od = 0, dd = 0;
        for (int k = 0; k < 3; ++k) u[k] = (long double)shape->v[far][k] - shape->v[0][k], len2 += u[k] * u[k];
        for (int k = 0; k < 3; ++k) lo += u[k] * shape->v[0][k], od += u[k] * o[k], dd += u[k] * d[k];
        hi = lo + len2;
        if (dd == 0) {
            if (od < lo || od > hi) return NAN;
            continue;
        }
        long double t1 = (lo - od) / dd, t2 = (hi - od) / dd;
        if (t1 > t2) {
            long double t = t1;
            t1 = t2, t2 = t;
        }
        if (t1 > enter) enter = t1;
        if (t2 < leave) leave = t2;
    }
    return enter <= leave ? (double)enter : NAN;
}

/* CPU time of this thread (ns): the machine may be shared, and a cast's cost is its CPU time. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Errors of one engine's fractions against the exact ones (as lengths along the translation). */
static void score(query_row* r, const cast_case* cases, const float* fractions)
{
    static double err[CASTS];
    int n = 0;
    r->hits = r->disagreements = 0;
    for (int k = 0; k < CASTS; ++k) {
        const bool hit = fractions[k] >= 0.0f, exact = !isnan(cases[k].exact);
        r->hits += hit;
        if (hit != exact) ++r->disagreements;
        if (!hit || !exact || cases[k].sepax.state == SPX_SWEEP_START_OVERLAP) continue;
        const spx_vec3 d = cases[k].translation;
        err[n++] =
            fabs(fractions[k] - cases[k].exact) * sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
    }
    qsort(err, (size_t)n, sizeof err[0], compare_double);
    r->err_median = n ? err[n / 2] : 0.0;
    r->err_max = n ? err[n - 1] : 0.0;
}

static void print_row(const query_row* r)
{
    printf("%-5s %-8s %7d %6d %6d %12.0f %14.3g %14.3g\n", r->query, r->engine, CASTS, r->hits, r->disagreements,
           r->ns_median > 0 ? 1e9 / r->ns_median : 0.0, r->err_median, r->err_max);
}

static bool write_csv(const char* path, const void* all, int n)
{
    const query_row* rows = all;
    FILE* f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "suite,query,engine,casts,hits,disagreements,casts_per_s,ns_cast_median,median_error_m,max_error_m\n");
    for (int i = 0; i < n; ++i)
        if (rows[i].ok)
            fprintf(f, "queries,%s,%s,%d,%d,%d,%.0f,%.1f,%.6g,%.6g\n", rows[i].query, rows[i].engine, CASTS,
                    rows[i].hits, rows[i].disagreements, 1e9 / rows[i].ns_median, rows[i].ns_median, rows[i].err_median,
                    rows[i].err_max);
    return fclose(f) == 0;
}

static bool write_json(const bench_suite_options* o, const void* all, int n)
{
    const query_row* rows = all;
    cJSON* root = bench_json_root(o->machine, o->reps);
    cJSON_AddStringToObject(root, "suite", "queries");
    cJSON* results = cJSON_AddArrayToObject(root, "results");
    for (int i = 0; i < n; ++i) {
        const query_row* r = &rows[i];
        if (!r->ok) continue;
        cJSON* j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "query", r->query);
        cJSON_AddStringToObject(j, "engine", r->engine);
        const bench_json_number numbers[] = {
            { "casts", CASTS },
            { "hits", r->hits },
            { "disagreements", r->disagreements },
            { "casts_per_s", 1e9 / r->ns_median },
            { "median_error_m", r->err_median },
            { "max_error_m", r->err_max },
        };
        bench_json_add_numbers(j, numbers, BENCH_COUNT(numbers));
        cJSON_AddItemToArray(results, j);
    }
    return bench_json_write(o->json, root);
}

/* Times `reps` passes over the cases; the median ns a cast. */
static double median_ns(double* ns, int reps)
{
    qsort(ns, (size_t)reps, sizeof ns[0], compare_double);
    return ns[reps / 2];
}

int bench_queries(const bench_suite_options* o)
{
    static test_query_scene qscene;
    static cast_case rays[CASTS], boxes[CASTS];
    static float fractions[CASTS];
    static query_row rows[2 * MAX_ENGINES];
    const int reps = o->reps < MAX_REPS ? o->reps : MAX_REPS;
    int n = 0, failures = 0;
    if (!test_query_scene_build(&qscene, BODIES, SEED)) {
        fprintf(stderr, "sepax bench: queries: the scene could not be built\n");
        return EXIT_FAILED;
    }
    make_cases(rays, boxes);
    printf("scene: %d bodies (tests/support/query_scene.h, seed %#x); %d random rays and %d random box casts, "
           "closest hit; %d repetitions\n",
           BODIES, SEED, CASTS, CASTS, reps);
#if defined(SPX_BENCH_HAVE_BULLET)
    const bench_query_peer* peer = o->peers ? bench_query_peer_bullet() : NULL;
    if (peer) printf("%s: %s\n", peer->engine, peer->describe());
#else
    const void* peer = NULL;
    printf("peers: %s\n",
           o->peers ? "none built in (configure with -DSEPAX_BENCH_PEERS=ON and libbullet-dev)" : "off (--no-peers)");
#endif
    /* sepax, and the exact answers for the shapes it reports */
    for (int q = 0; q < 2; ++q) {
        cast_case* cases = q == 0 ? rays : boxes;
        query_row* r = &rows[n++];
        r->query = q == 0 ? "ray" : "box";
        r->engine = "sepax";
        for (int rep = 0; rep < reps; ++rep) {
            uint64_t t0 = cpu_ns();
            for (int k = 0; k < CASTS; ++k) {
                spx_result e = q == 0 ? spx_world_cast_ray_closest(qscene.world, cases[k].origin, cases[k].translation,
                                                                   NULL, &cases[k].sepax)
                                      : spx_world_cast_box_closest(qscene.world, &cases[k].box, cases[k].translation,
                                                                   NULL, &cases[k].sepax);
                if (e != SPX_OK) ++failures;
            }
            r->ns[rep] = (double)(cpu_ns() - t0) / CASTS;
        }
        r->ns_median = median_ns(r->ns, reps);
        for (int k = 0; k < CASTS; ++k) {
            cast_case* c = &cases[k];
            test_ref_piece shape;
            c->exact = NAN;
            if (c->sepax.state == SPX_SWEEP_MISS) continue;
            if (c->sepax.state == SPX_SWEEP_START_OVERLAP) c->exact = 0.0;
            else if (shape_piece(&qscene, &c->sepax, &shape))
                c->exact = q == 0 ? reference_ray(c, &shape) : reference_time(c, &shape);
        }
        for (int k = 0; k < CASTS; ++k)
            fractions[k] = cases[k].sepax.state == SPX_SWEEP_MISS ? -1.0f : cases[k].sepax.fraction;
        score(r, cases, fractions);
        r->ok = true;
    }
#if defined(SPX_BENCH_HAVE_BULLET)
    void* pw = peer ? peer->create(&qscene) : NULL;
    if (peer && !pw)
        fprintf(stderr, "sepax bench: queries: %s: the world could not be built\n", peer->engine), ++failures;
    for (int q = 0; pw && q < 2; ++q) {
        cast_case* cases = q == 0 ? rays : boxes;
        query_row* r = &rows[n++];
        r->query = q == 0 ? "ray" : "box";
        r->engine = peer->engine;
        for (int rep = 0; rep < reps; ++rep) {
            uint64_t t0 = cpu_ns();
            for (int k = 0; k < CASTS; ++k)
                fractions[k] = q == 0 ? peer->ray(pw, cases[k].origin, cases[k].translation)
                                      : peer->cast_box(pw, &cases[k].box, cases[k].translation);
            r->ns[rep] = (double)(cpu_ns() - t0) / CASTS;
        }
        r->ns_median = median_ns(r->ns, reps);
        score(r, cases, fractions);
        r->ok = true;
    }
    if (pw) peer->destroy(pw);
#else
    (void)peer;
#endif
    printf("\ncasts/s: closest-hit queries a second of CPU time (median over the repetitions); hits; disagreements "
           "with the\n"
           "reference (hit where it misses or miss where it hits); error: |fraction - exact| times the cast's length\n"
           "(m), median and largest over the casts both hit from apart\n\n");
    printf("%-5s %-8s %7s %6s %6s %12s %14s %14s\n", "query", "engine", "casts", "hits", "disagr", "casts/s",
           "median err m", "max err m");
    for (int i = 0; i < n; ++i) print_row(&rows[i]);
    test_query_scene_free(&qscene);
    if (failures) fprintf(stderr, "sepax bench: queries: %d calls failed\n", failures);
    return bench_write_files(o, failures ? EXIT_FAILED : EXIT_DONE, write_csv, write_json, rows, n);
}
