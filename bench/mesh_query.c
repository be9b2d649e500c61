/* sepax_bench mesh-queries: the mesh queries of include/sepax/mesh_query.h on the standard mesh scenes, beside
   an all-pairs brute force over the exact triangle tests and (with -DSEPAX_BENCH_PEERS=ON) FCL.
   See bench/README.md ("Mesh queries").

   sepax_bench mesh-queries [--runs=<n>] [--min-ms=<ms>] [--quick] [--axis=z|y] [--no-brute] [--no-peers]
                            [--csv[=<file>]] [--save] [--machine=<name>] [--results-dir=<dir>]

   Exit status: 0; 2 bad option; 1 a file cannot be written; 3 a scene could not be built or a sepax
   call failed; 4 sepax's time of contact differs from the brute force's by more than 1e-5 of tmax
   (or one hits and the other does not). */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "report.h"
#include "suite.h"
#include "timer.h"
#include "support/shapes.h"
#include <sepax/hull.h>
#if defined(SPX_BENCH_HAVE_FCL)
#include "peers/fcl_mesh_peer.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAPACITY 256u /* contact array of the "with contacts" rows */
#define AGREE 1e-5    /* |sepax - brute| / tmax allowed */
#define SLOW_NS 20e6  /* a query slower than this runs once a run, at most SLOW_RUNS runs */
#define SLOW_RUNS 3
#define ONCE_NS 1e9 /* slower than this: the first call is the only one (the brute force) */
#define MAX_RUNS 1000
#define PI 3.14159265358979323846
#define MAX_SCENES 8
#define BRUTE_GOAL 10.0 /* every sweep at least this many times faster than the brute force */

typedef struct options {
    int runs;
    double min_ms;
    bool quick, brute, peers;
    char axis;          /* the torus axis: 'z' (the standard case) or 'y' (the generator's) */
    const char* scenes; /* comma-separated scene names to run, or NULL: all */
    bench_common common;
    bench_output output;
} options;

/* ---- output: a table on stdout, CSV to a file or stdout -------------------------------------- */

typedef struct report {
    bench_report out; /* the table (stdout, or stderr with the CSV on stdout) and the CSVs */
    bool csv_columns; /* the CSV's column line is out (once; the table repeats its own) */
} report;

/* A time a query in the unit that keeps 3 or 4 digits. */
static const char* human(double ns, char buf[32])
{
    if (!(ns == ns)) snprintf(buf, 32, "-");
    else if (ns < 1e3) snprintf(buf, 32, "%.1f ns", ns);
    else if (ns < 1e6) snprintf(buf, 32, "%.1f us", ns * 1e-3);
    else if (ns < 1e9) snprintf(buf, 32, "%.1f ms", ns * 1e-6);
    else snprintf(buf, 32, "%.2f s", ns * 1e-9);
    return buf;
}

typedef struct row {
    const char* scene;
    const char* query;
    const char* engine;
    int runs;
    size_t calls;             /* queries a timed run */
    double ns_median, ns_min; /* a query */
    double toc;               /* time of contact (s); NAN when none or not a sweep */
    long contacts;            /* contact count; -1 when the engine gives none */
    double ratio;             /* ns_median / the reference sepax row's; NAN for none */
    char note[160];
} row;

static void columns(report* r)
{
    fprintf(r->out.table, "\n%-11s %-16s %-20s %11s %11s %11s %9s %11s %8s  %s\n", "scene", "query", "engine",
            "runs x n", "median", "min", "x sepax", "toc", "contacts", "note");
    if (r->csv_columns) return;
    r->csv_columns = true;
    for (int i = 0; i < r->out.csv_count; ++i)
        fprintf(r->out.csv[i], "scene,query,engine,runs,queries_per_run,ns_median,ns_min,x_sepax,time_of_contact,"
                               "contacts,note\n");
}

static void emit(const report* r, const row* w)
{
    {
        char med[32], lo[32], rn[32], ratio[16], toc[24], count[24];
        snprintf(rn, sizeof rn, "%d x %zu", w->runs, w->calls);
        if (w->ratio == w->ratio) snprintf(ratio, sizeof ratio, "%.3g", w->ratio);
        else snprintf(ratio, sizeof ratio, "-");
        if (w->toc == w->toc) snprintf(toc, sizeof toc, "%.7f", w->toc);
        else snprintf(toc, sizeof toc, "-");
        if (w->contacts >= 0) snprintf(count, sizeof count, "%ld", w->contacts);
        else snprintf(count, sizeof count, "-");
        fprintf(r->out.table, "%-11s %-16s %-20s %11s %11s %11s %9s %11s %8s  %s\n", w->scene, w->query, w->engine, rn,
                human(w->ns_median, med), human(w->ns_min, lo), ratio, toc, count, w->note);
        fflush(r->out.table);
    }
    for (int i = 0; i < r->out.csv_count; ++i) {
        FILE* f = r->out.csv[i];
        fprintf(f, "%s,%s,%s,%d,%zu,%.1f,%.1f,", w->scene, w->query, w->engine, w->runs, w->calls, w->ns_median,
                w->ns_min);
        if (w->ratio == w->ratio) fprintf(f, "%.4f", w->ratio);
        fprintf(f, ",");
        if (w->toc == w->toc) fprintf(f, "%.9g", w->toc);
        fprintf(f, ",");
        if (w->contacts >= 0) fprintf(f, "%ld", w->contacts);
        fprintf(f, ",\"%s\"\n", w->note);
        fflush(f);
    }
}

/* ---- timing ----------------------------------------------------------------------------------- */

/* One query; false when the call failed. */
typedef bool query_fn(void* context);

/* Times `fn`: one untimed call, then `runs` runs of enough calls to last min_ms each; the median
   and the best of the runs, per query. A query slower than SLOW_NS runs once a run, in at most
   SLOW_RUNS runs; one slower than ONCE_NS only once, untimed call included (the brute force). */
static bool time_query(query_fn* fn, void* context, const options* o, row* w)
{
    uint64_t t0 = bench_now_ns();
    if (!fn(context)) return false;
    double first = (double)(bench_now_ns() - t0);
    if (first >= ONCE_NS) {
        w->runs = 1, w->calls = 1, w->ns_median = w->ns_min = first;
        return true;
    }
    int runs = o->runs;
    size_t calls = 1;
    if (first >= SLOW_NS) {
        runs = runs < SLOW_RUNS ? runs : SLOW_RUNS;
    } else {
        /* Calibrate on a warm pass: the first call paid for cold caches. */
        double target = o->min_ms * 1e6;
        calls = (size_t)(target / (first > 1.0 ? first : 1.0)) / 4 + 1;
        for (;;) {
            uint64_t a = bench_now_ns();
            for (size_t i = 0; i < calls; ++i)
                if (!fn(context)) return false;
            double ns = (double)(bench_now_ns() - a);
            if (ns >= target) break;
            double grow = ns > 0.0 ? 1.2 * target / ns : 10.0;
            calls = (size_t)((double)calls * (grow < 10.0 ? grow : 10.0)) + 1;
        }
    }
    double per[MAX_RUNS];
    for (int run = 0; run < runs; ++run) {
        uint64_t a = bench_now_ns();
        for (size_t i = 0; i < calls; ++i)
            if (!fn(context)) return false;
        per[run] = (double)(bench_now_ns() - a) / (double)calls;
    }
    w->runs = runs, w->calls = calls;
    w->ns_min = bench_min(per, (size_t)runs);
    w->ns_median = bench_median(per, (size_t)runs);
    return true;
}

/* ---- scenes ----------------------------------------------------------------------------------- */

static spx_quat quat_axis_angle(double x, double y, double z, double degrees)
{
    double h = degrees * PI / 360.0, s = sin(h);
    spx_quat q = { (float)(x * s), (float)(y * s), (float)(z * s), (float)cos(h) };
    return q;
}

/* a * b (w last): b is applied first. */
static spx_quat quat_mul(spx_quat a, spx_quat b)
{
    double ax = a.x, ay = a.y, az = a.z, aw = a.w, bx = b.x, by = b.y, bz = b.z, bw = b.w;
    spx_quat q = { (float)(aw * bx + ax * bw + ay * bz - az * by), (float)(aw * by - ax * bz + ay * bw + az * bx),
                   (float)(aw * bz + ax * by - ay * bx + az * bw), (float)(aw * bw - ax * bx - ay * by - az * bz) };
    return q;
}

static const spx_quat identity_q = { 0.0f, 0.0f, 0.0f, 1.0f };

typedef struct placed {
    spx_mesh* mesh;
    spx_mesh_instance* instance;
    spx_transform pose;
    spx_triangle* world; /* the instance's triangles at `pose`, in mesh order */
    uint32_t* source;    /* their numbers in the def */
    uint32_t count;
} placed;

static void placed_free(placed* p)
{
    spx_mesh_instance_destroy(p->instance);
    spx_mesh_destroy(p->mesh);
    free(p->world);
    free(p->source);
    memset(p, 0, sizeof *p);
}

/* A torus about the y axis (the generator's) or about z (turned +90 degrees about x: y -> z). */
static bool torus(test_shape* s, float R, float r, uint32_t nu, uint32_t nv, char axis)
{
    if (!test_shape_torus(s, R, r, nu, nv)) return false;
    if (axis == 'z')
        for (uint32_t i = 0; i < s->vertex_count; ++i) {
            spx_vec3 v = s->vertices[i];
            s->vertices[i] = spx_v3(v.x, -v.z, v.y);
        }
    return true;
}

/* Builds the mesh of `s` (freed here), places it at `pose`, and reads back its world triangles. */
static spx_result place(test_shape* s, spx_transform pose, placed* out)
{
    memset(out, 0, sizeof *out);
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = s->vertices;
    def.vertex_count = s->vertex_count;
    def.indices = s->indices;
    def.triangle_count = s->triangle_count;
    spx_result r = spx_mesh_create(&def, &out->mesh);
    test_shape_free(s);
    spx_mesh_instance_def place = spx_default_mesh_instance_def();
    place.mesh = out->mesh, place.pose = pose;
    if (r == SPX_OK) r = spx_mesh_instance_create(&place, &out->instance);
    spx_mesh_info info;
    if (r == SPX_OK) r = spx_mesh_get_info(out->mesh, &info);
    if (r == SPX_OK) {
        out->pose = pose;
        out->count = info.triangle_count;
        out->world = malloc(sizeof(spx_triangle) * info.triangle_count);
        out->source = malloc(sizeof(uint32_t) * info.triangle_count);
        if (!out->world || !out->source) r = SPX_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; r == SPX_OK && i < out->count; ++i)
        r = spx_mesh_instance_get_triangle(out->instance, i, &out->world[i], &out->source[i]);
    if (r != SPX_OK) placed_free(out);
    return r;
}

/* One continuous question: a box or mesh A against mesh B. */
typedef struct scene {
    const char* name;
    bool box; /* A is `obb` (or the hull `ph` when `hull` is set), else the mesh `a` */
    spx_obb obb;
    spx_hull* hull;     /* A as a hull (owned), or NULL */
    spx_placed_hull ph; /* its placement */
    bool hull_is_box;   /* the hull is `obb`'s 8 corners: the box peers answer the same question */
    placed a, b;
    spx_vec3 va, vb;
    float tmax;
    char what[200]; /* for the header */
} scene;

static const spx_vec3 zero_v = { 0.0f, 0.0f, 0.0f };

static bool shape_failed(const char* what)
{
    fprintf(stderr, "sepax_bench mesh-queries: out of memory generating %s\n", what);
    return false;
}

static bool scene_failed(const char* what, spx_result r)
{
    fprintf(stderr, "sepax_bench mesh-queries: %s: %s\n", what, spx_result_string(r));
    return false;
}

/* Both shapes placed as the scene's A and B (place frees each): false after a message when either fails. */
static bool place_both(scene* s, test_shape* sa, spx_transform pa, const char* name_a, test_shape* sb, spx_transform pb,
                       const char* name_b)
{
    spx_result r = place(sa, pa, &s->a);
    if (r != SPX_OK) return test_shape_free(sb), scene_failed(name_a, r);
    if ((r = place(sb, pb, &s->b)) != SPX_OK) return placed_free(&s->a), scene_failed(name_b, r);
    return true;
}

/* B as a grid of n x n unit squares in y = 0, its corner at `corner`, at rest. */
static bool place_grid(scene* s, uint32_t n, spx_vec3 corner)
{
    test_shape sb;
    if (!test_shape_grid(&sb, n, n)) return shape_failed("grid");
    const spx_result r = place(&sb, (spx_transform){ corner, identity_q }, &s->b);
    return r == SPX_OK || scene_failed("grid", r);
}

/* A as the box of this centre, half extents and rotation (B is placed already). */
static bool set_box(scene* s, spx_vec3 center, spx_vec3 half_extents, spx_quat q)
{
    const spx_result r = spx_obb_from_quat(center, half_extents, q, &s->obb);
    return r == SPX_OK || (placed_free(&s->b), scene_failed("box", r));
}

/* A's hull of these points (B is placed already). */
static bool set_hull(scene* s, const spx_vec3* points, uint32_t count)
{
    spx_hull_def def = spx_default_hull_def();
    def.points = points;
    def.point_count = count;
    const spx_result r = spx_hull_create(&def, &s->hull);
    return r == SPX_OK || (placed_free(&s->b), scene_failed("hull", r));
}

/* The standard case: A (torus R 0.6, r 0.2) turned 70 degrees about x then 20 about y,
   sliding from (-3, 0.15, 0.1) to (-1, 0.15, 0.1) over tmax = 1 s into B (torus R 1, r 0.3) at the
   origin. --quick: the same tori, coarser. */
static bool scene_tori(scene* s, const options* o)
{
    memset(s, 0, sizeof *s);
    s->name = "torus-torus";
    uint32_t na = o->quick ? 12 : 32, nb = o->quick ? 40 : 100;
    test_shape sa, sb;
    if (!torus(&sa, 0.6f, 0.2f, na, na, o->axis)) return shape_failed("torus A");
    if (!torus(&sb, 1.0f, 0.3f, nb, nb, o->axis)) return test_shape_free(&sa), shape_failed("torus B");
    spx_transform pa = { spx_v3(-3.0f, 0.15f, 0.1f),
                         quat_mul(quat_axis_angle(0, 1, 0, 20.0), quat_axis_angle(1, 0, 0, 70.0)) };
    spx_transform pb = { zero_v, identity_q };
    if (!place_both(s, &sa, pa, "torus A", &sb, pb, "torus B")) return false;
    s->va = spx_v3(2.0f, 0.0f, 0.0f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "A torus R 0.6 r 0.2 %ux%u (%u triangles), 70 deg about x then 20 about y, from (-3, 0.15, 0.1) at "
             "(2, 0, 0) m/s; B torus R 1 r 0.3 %ux%u (%u triangles) at rest at the origin; axis %c; tmax 1 s",
             na, na, s->a.count, nb, nb, s->b.count, o->axis);
    return true;
}

/* A box (half 0.15, 0.1, 0.2; 45 degrees about x then 30 about y) on A's path into the big torus. */
static bool scene_box_torus(scene* s, const options* o)
{
    memset(s, 0, sizeof *s);
    s->name = "box-torus";
    s->box = true;
    uint32_t nb = o->quick ? 40 : 100;
    test_shape sb;
    if (!torus(&sb, 1.0f, 0.3f, nb, nb, o->axis)) return shape_failed("torus B");
    spx_transform pb = { zero_v, identity_q };
    spx_result r = place(&sb, pb, &s->b);
    if (r != SPX_OK) return scene_failed("torus B", r);
    spx_quat q = quat_mul(quat_axis_angle(0, 1, 0, 30.0), quat_axis_angle(1, 0, 0, 45.0));
    if (!set_box(s, spx_v3(-3.0f, 0.15f, 0.1f), spx_v3(0.15f, 0.1f, 0.2f), q)) return false;
    s->va = spx_v3(2.0f, 0.0f, 0.0f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "box half (0.15, 0.1, 0.2), 45 deg about x then 30 about y, from (-3, 0.15, 0.1) at (2, 0, 0) m/s; "
             "B torus R 1 r 0.3 %ux%u (%u triangles); tmax 1 s",
             nb, nb, s->b.count);
    return true;
}

/* The same box, 35 degrees about x then 15 about z, falling corner first onto a flat grid of unit
   squares (100 x 100, 20,000 triangles) centred on the origin. */
static bool scene_box_grid(scene* s, const options* o)
{
    memset(s, 0, sizeof *s);
    s->name = "box-grid";
    s->box = true;
    uint32_t n = o->quick ? 20 : 100;
    if (!place_grid(s, n, spx_v3(-0.5f * (float)n, 0.0f, -0.5f * (float)n))) return false;
    spx_quat q = quat_mul(quat_axis_angle(0, 0, 1, 15.0), quat_axis_angle(1, 0, 0, 35.0));
    if (!set_box(s, spx_v3(0.3f, 1.0f, 0.7f), spx_v3(0.15f, 0.1f, 0.2f), q)) return false;
    s->va = spx_v3(0.0f, -2.0f, 0.0f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "box half (0.15, 0.1, 0.2), 35 deg about x then 15 about z, from (0.3, 1, 0.7) at (0, -2, 0) m/s; "
             "B grid %ux%u unit squares (%u triangles) in y = 0; tmax 1 s",
             n, n, s->b.count);
    return true;
}

/* Ties: many pairs touch at the first time at once. A grid of 8 x 8 unit squares falling flat at
   2 m/s from 1 m above a 10 x 10 grid, shifted by half a square: every pair overlapping seen from
   above touches at t = 0.5. --quick: 4 x 4 onto 6 x 6. */
static bool scene_grid_grid(scene* s, const options* o)
{
    memset(s, 0, sizeof *s);
    s->name = "grid-grid";
    uint32_t na = o->quick ? 4 : 8, nb = na + 2;
    test_shape sa, sb;
    if (!test_shape_grid(&sa, na, na)) return shape_failed("grid A");
    if (!test_shape_grid(&sb, nb, nb)) return test_shape_free(&sa), shape_failed("grid B");
    spx_transform pa = { spx_v3(0.5f, 1.0f, 0.5f), identity_q }, pb = { zero_v, identity_q };
    if (!place_both(s, &sa, pa, "grid A", &sb, pb, "grid B")) return false;
    s->va = spx_v3(0.0f, -2.0f, 0.0f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "A grid %ux%u unit squares (%u triangles) level at (0.5, 1, 0.5) falling at (0, -2, 0) m/s; B grid %ux%u "
             "(%u triangles) in y = 0; every pair overlapping seen from above touches at t = 0.5; tmax 1 s",
             na, na, s->a.count, nb, nb, s->b.count);
    return true;
}

/* A box of half extents (1.5, 0.5, 1.5) level over an 8 x 8 grid, bottom 1.5 m above it, falling at
   3 m/s: its face lands flat on 32 triangles at t = 0.5 (tests/test_mesh_query.c's own case). */
static bool scene_cube_grid(scene* s, const options* o)
{
    (void)o;
    memset(s, 0, sizeof *s);
    s->name = "cube-grid";
    s->box = true;
    if (!place_grid(s, 8, zero_v) || !set_box(s, spx_v3(4.0f, 2.0f, 4.0f), spx_v3(1.5f, 0.5f, 1.5f), identity_q))
        return false;
    s->va = spx_v3(0.0f, -3.0f, 0.0f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "box half (1.5, 0.5, 1.5) level at (4, 2, 4) falling at (0, -3, 0) m/s; B grid 8x8 unit squares (%u "
             "triangles) in y = 0; its face lands flat at t = 0.5; tmax 1 s",
             s->b.count);
    return true;
}

/* A closed sphere (radius 0.5, 12 x 24) resting with its pole on a corner of a 20 x 20 grid, moving
   down at 1 m/s: the triangles at its pole touch those around the corner at t = 0 (a start overlap,
   288 pairs). */
static bool scene_sphere_grid(scene* s, const options* o)
{
    memset(s, 0, sizeof *s);
    s->name = "sphere-grid";
    uint32_t n = o->quick ? 8 : 20;
    test_shape sa, sb;
    if (!test_shape_solid_sphere(&sa, 0.5f, 12, 24)) return shape_failed("sphere");
    if (!test_shape_grid(&sb, n, n)) return test_shape_free(&sa), shape_failed("grid");
    const float c = (float)(n / 2);
    spx_transform pa = { spx_v3(c, 0.5f, c), identity_q }, pb = { zero_v, identity_q };
    if (!place_both(s, &sa, pa, "sphere", &sb, pb, "grid")) return false;
    s->va = spx_v3(0.0f, -1.0f, 0.0f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "A sphere r 0.5 12x24 (%u triangles) resting with its pole on the grid corner (%g, 0, %g), moving at "
             "(0, -1, 0) m/s; B grid %ux%u (%u triangles) in y = 0; tmax 1 s",
             s->a.count, (double)c, (double)c, n, n, s->b.count);
    return true;
}

/* The cube-grid box given as the hull of its 8 corners: the same question through the hull queries. */
static bool scene_hull_grid(scene* s, const options* o)
{
    if (!scene_cube_grid(s, o)) return false;
    s->name = "hull-grid";
    spx_vec3 corners[8];
    spx_obb_get_corners(&(spx_obb){ spx_v3(0, 0, 0), s->obb.half_extents, s->obb.rotation }, corners);
    if (!set_hull(s, corners, 8)) return false;
    s->ph = (spx_placed_hull){ s->hull, s->obb.center, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
    s->hull_is_box = true;
    snprintf(s->what, sizeof s->what,
             "the cube-grid box as a hull of its 8 corners, level at (4, 2, 4) falling at (0, -3, 0) m/s; B grid 8x8 "
             "(%u triangles) in y = 0; its face lands flat at t = 0.5; tmax 1 s",
             s->b.count);
    return true;
}

/* A hull of 32 points spread over a sphere of radius 0.8 (golden spiral), turned, falling obliquely at
   the 8 x 8 grid: a gem tumbling onto the ground. */
static bool scene_gem_grid(scene* s, const options* o)
{
    (void)o;
    memset(s, 0, sizeof *s);
    s->name = "gem-grid";
    if (!place_grid(s, 8, zero_v)) return false;
    spx_vec3 p[32];
    for (int i = 0; i < 32; ++i) {
        const double y = 1.0 - (i + 0.5) * (2.0 / 32.0), ring = sqrt(1.0 - y * y), phi = i * 2.399963229728653;
        p[i] = spx_v3((float)(0.8 * ring * cos(phi)), (float)(0.8 * y), (float)(0.8 * ring * sin(phi)));
    }
    if (!set_hull(s, p, 32)) return false;
    const spx_quat q = quat_axis_angle(1.0 / 2.29128784747792, 2.0 / 2.29128784747792, 0.5 / 2.29128784747792, 37.0);
    spx_obb pose; /* the rotation as a matrix, through the box builder */
    spx_result r;
    if ((r = spx_obb_from_quat(spx_v3(3.3f, 2.0f, 4.1f), spx_v3(1, 1, 1), q, &pose)) != SPX_OK)
        return placed_free(&s->b), scene_failed("pose", r);
    s->box = true;
    s->ph = (spx_placed_hull){ s->hull, pose.center, pose.rotation };
    s->va = spx_v3(1.0f, -3.0f, 0.5f);
    s->tmax = 1.0f;
    snprintf(s->what, sizeof s->what,
             "A hull of 32 points on a sphere r 0.8, turned 37 degrees, at (3.3, 2, 4.1) falling at (1, -3, 0.5) m/s; "
             "B grid 8x8 (%u triangles) in y = 0; tmax 1 s",
             s->b.count);
    return true;
}

/* Is scene `name` among those asked for (--scenes)? */
static bool wanted(const options* o, const char* name)
{
    if (!o->scenes) return true;
    const size_t n = strlen(name);
    for (const char* p = o->scenes; *p;) {
        const char* end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        if (!end) break;
        p = end + 1;
    }
    return false;
}

static void scene_free(scene* s)
{
    spx_hull_destroy(s->hull);
    placed_free(&s->a);
    placed_free(&s->b);
}

/* How far A moves against B over time t (m). */
static spx_vec3 a_moved_by(const scene* s, float t)
{
    return spx_v3((s->va.x - s->vb.x) * t, (s->va.y - s->vb.y) * t, (s->va.z - s->vb.z) * t);
}

/* ---- the queries timed ------------------------------------------------------------------------ */

/* The scene's poses set again (the same values): the instances' caches start empty. */
static void set_poses_again(const scene* s)
{
    if (!s->box) spx_mesh_instance_set_pose(s->a.instance, &s->a.pose);
    spx_mesh_instance_set_pose(s->b.instance, &s->b.pose);
}

/* One sepax call on a scene, as time_query runs it: the sweep of its pieces, or on a scene at rest the
   penetration (overlap_only: the overlap test). contacts, capacity: the contact array (NULL, 0: none). */
typedef struct sepax_call {
    scene* s;
    bool at_rest, overlap_only;
    bool cold; /* a new pose (the same values) before each query: an empty cache */
    spx_mesh_contact* contacts;
    uint32_t capacity;
    spx_result result;
    spx_mesh_hit hit;
    bool overlap;
} sepax_call;

static bool sepax_query(void* context)
{
    sepax_call* c = context;
    scene* s = c->s;
    if (c->cold) set_poses_again(s);
    if (c->overlap_only) c->result = spx_overlap_mesh_mesh(s->a.instance, s->b.instance, &c->overlap);
    else if (c->at_rest)
        c->result = spx_penetration_mesh_mesh(s->a.instance, s->b.instance, c->contacts, c->capacity, &c->hit);
    else
        c->result =
            s->hull
                ? spx_sweep_hull_mesh(&s->ph, s->va, s->b.instance, s->vb, s->tmax, c->contacts, c->capacity, &c->hit)
            : s->box
                ? spx_sweep_obb_mesh(&s->obb, s->va, s->b.instance, s->vb, s->tmax, c->contacts, c->capacity, &c->hit)
                : spx_sweep_mesh_mesh(s->a.instance, s->va, s->b.instance, s->vb, s->tmax, c->contacts, c->capacity,
                                      &c->hit);
    return c->result == SPX_OK;
}

typedef struct brute_hit {
    float time;
    uint32_t a, b;
} brute_hit;

/* Every triangle of A (or the box) against every triangle of B through the exact swept tests,
   keeping the earliest with sepax's tie rule (lower triangle_a, then triangle_b, in def numbers)
   and the pairs that may fall in the contact window. */
typedef struct brute_call {
    scene* s;
    spx_sweep_state state;
    float time;
    uint32_t a, b;   /* the first pair, def numbers */
    uint32_t window; /* pairs in the contact window (or overlapping at t = 0) */
    size_t errors;
    spx_result first_error;
    brute_hit* hits;
    size_t hit_count, hit_room;
} brute_call;

static bool brute_keep(brute_call* c, float t, uint32_t a, uint32_t b)
{
    if (c->hit_count == c->hit_room) {
        size_t room = c->hit_room ? 2 * c->hit_room : 1024;
        brute_hit* h = realloc(c->hits, room * sizeof *h);
        if (!h) return false;
        c->hits = h, c->hit_room = room;
    }
    c->hits[c->hit_count++] = (brute_hit){ t, a, b };
    return true;
}

static bool brute_force(void* context)
{
    brute_call* c = context;
    const scene* s = c->s;
    const float window = SPX_MESH_CONTACT_WINDOW * s->tmax;
    bool found = false, start = false;
    float best = 0.0f;
    uint32_t best_a = 0, best_b = 0;
    c->errors = 0, c->hit_count = 0;
    uint32_t na = s->box ? 1 : s->a.count;
    for (uint32_t i = 0; i < na; ++i)
        for (uint32_t j = 0; j < s->b.count; ++j) {
            spx_sweep_hit h;
            spx_result r = s->hull ? spx_sweep_hull_triangle(&s->ph, s->va, &s->b.world[j], s->vb, s->tmax, &h)
                           : s->box
                               ? spx_sweep_obb_triangle(&s->obb, s->va, &s->b.world[j], s->vb, s->tmax, &h)
                               : spx_sweep_triangle_triangle(&s->a.world[i], s->va, &s->b.world[j], s->vb, s->tmax, &h);
            if (r != SPX_OK) {
                if (!c->errors++) c->first_error = r;
                continue;
            }
            if (h.state == SPX_SWEEP_MISS) continue;
            float t = h.state == SPX_SWEEP_START_OVERLAP ? 0.0f : h.time;
            uint32_t a = s->box ? SPX_NO_TRIANGLE : s->a.source[i], b = s->b.source[j];
            if (!found || t < best || (t == best && (a < best_a || (a == best_a && b < best_b)))) {
                found = true, best = t, best_a = a, best_b = b;
            }
            start = start || h.state == SPX_SWEEP_START_OVERLAP;
            /* Only pairs within the window of the best so far can be in the final window. */
            if (t <= best + window && !brute_keep(c, h.state == SPX_SWEEP_START_OVERLAP ? -1.0f : t, a, b))
                return false;
        }
    c->state = !found ? SPX_SWEEP_MISS : start ? SPX_SWEEP_START_OVERLAP : SPX_SWEEP_HIT;
    c->time = best, c->a = best_a, c->b = best_b, c->window = 0;
    float limit = best + window; /* as the query computes its window, in float */
    for (size_t k = 0; k < c->hit_count; ++k) c->window += start ? c->hits[k].time < 0.0f : c->hits[k].time <= limit;
    return true;
}

#if defined(SPX_BENCH_HAVE_FCL)
typedef struct fcl_call {
    const bench_fcl_mesh* a; /* a box as its 12 triangles */
    const bench_fcl_mesh* b;
    spx_vec3 offset;     /* displacement over the interval, or A's offset for collide */
    size_t max_contacts; /* 0: continuous */
    int answer;
    double time;
    size_t contacts;
} fcl_call;

static bool fcl_query(void* context)
{
    fcl_call* c = context;
    if (c->max_contacts) {
        c->contacts = bench_fcl_mesh_collide(c->a, c->offset, c->b, c->max_contacts);
        return true;
    }
    c->answer = bench_fcl_mesh_ca(c->a, c->offset, c->b, &c->time);
    return c->answer >= 0;
}

/* A box as a mesh of 12 triangles: FCL 0.7's box-against-mesh advancement crashes or misses (see
   peers/fcl_mesh_peer.cpp). Corner k has bit i set for +half along axis i (spx_obb_get_corners). */
static bench_fcl_mesh* fcl_box(const spx_obb* box)
{
    spx_vec3 corner[8];
    spx_triangle t[12];
    if (spx_obb_get_corners(box, corner) != SPX_OK) return NULL;
    for (int i = 0, n = 0; i < 3; ++i) {
        int j = 1 << ((i + 1) % 3), k = 1 << ((i + 2) % 3);
        for (int side = 0; side < 2; ++side) {
            int base = side << i; /* the face's corners in cyclic order: base, +j, +j+k, +k */
            spx_vec3 q[4] = { corner[base], corner[base | j], corner[base | j | k], corner[base | k] };
            t[n++] = (spx_triangle){ { q[0], q[1], q[2] } };
            t[n++] = (spx_triangle){ { q[0], q[2], q[3] } };
        }
    }
    return bench_fcl_mesh_create(t, 12);
}
#endif

/* ---- running a scene --------------------------------------------------------------------------- */

typedef struct totals {
    int failures;                              /* scenes not built, sepax calls failed */
    int disagreements;                         /* sepax against the brute force */
    double sepax_ns, sepax_cold_ns, fcl_ca_ns; /* the standard case, for the two goals printed at the end */
    int brute_count;                           /* sweeps timed beside the brute force: brute over sepax */
    const char* brute_scene[MAX_SCENES];
    double brute_ratio[MAX_SCENES];
} totals;

static row new_row(const scene* s, const char* query, const char* engine)
{
    row w;
    memset(&w, 0, sizeof w);
    w.scene = s->name, w.query = query, w.engine = engine;
    w.toc = NAN, w.ratio = NAN, w.contacts = -1;
    return w;
}

static void sweep_row(const report* rep, row* w, const sepax_call* c, const row* ref)
{
    if (c->hit.state != SPX_SWEEP_MISS) w->toc = c->hit.time;
    w->contacts = (long)c->hit.contact_count;
    if (ref) w->ratio = w->ns_median / ref->ns_median;
    const char* state = c->hit.state == SPX_SWEEP_MISS  ? "miss"
                        : c->hit.state == SPX_SWEEP_HIT ? "hit"
                                                        : "start overlap";
    if (c->hit.state == SPX_SWEEP_MISS || c->hit.first.triangle_a == SPX_NO_TRIANGLE)
        snprintf(w->note, sizeof w->note, "%s, first pair (box, %u)", state, c->hit.first.triangle_b);
    else
        snprintf(w->note, sizeof w->note, "%s, first pair (%u, %u)", state, c->hit.first.triangle_a,
                 c->hit.first.triangle_b);
    if (c->hit.state == SPX_SWEEP_MISS) snprintf(w->note, sizeof w->note, "miss");
    emit(rep, w);
}

static void run_sweeps(const options* o, report* rep, scene* s, totals* sum, bool standard)
{
    const char* query = s->hull ? "sweep_hull_mesh" : s->box ? "sweep_obb_mesh" : "sweep_mesh_mesh";
    spx_mesh_contact* contacts = malloc(sizeof(spx_mesh_contact) * CAPACITY);
    if (!contacts) {
        fprintf(stderr, "sepax_bench mesh-queries: out of memory\n");
        sum->failures++;
        return;
    }
    bench_report_note(&rep->out, "\n%s: %s", s->name, s->what);
    columns(rep);

    /* sepax: contact array, the cache warm (the same pose every query) and cold (a new one). */
    sepax_call warm = { .s = s, .contacts = contacts, .capacity = CAPACITY, .result = SPX_OK };
    row ref = new_row(s, query, "sepax");
    if (!time_query(sepax_query, &warm, o, &ref)) {
        fprintf(stderr, "sepax_bench mesh-queries: %s %s: %s\n", s->name, query, spx_result_string(warm.result));
        sum->failures++;
        free(contacts);
        return;
    }
    sweep_row(rep, &ref, &warm, &ref);
    sepax_call cold = { .s = s, .cold = true, .contacts = contacts, .capacity = CAPACITY, .result = SPX_OK };
    row wc = new_row(s, query, "sepax-newpose");
    if (time_query(sepax_query, &cold, o, &wc)) sweep_row(rep, &wc, &cold, &ref);
    else sum->failures++;
    sepax_call bare = { .s = s, .result = SPX_OK };
    row wb = new_row(s, query, "sepax-nocontacts");
    if (time_query(sepax_query, &bare, o, &wb)) sweep_row(rep, &wb, &bare, &ref);
    else sum->failures++;
    if (standard) sum->sepax_ns = ref.ns_median, sum->sepax_cold_ns = wc.ns_median;
    const spx_mesh_hit hit = warm.hit;
    const double tmax = s->tmax;

    if (o->brute) {
        brute_call bc;
        memset(&bc, 0, sizeof bc);
        bc.s = s;
        row w = new_row(s, query, "brute-force");
        if (!time_query(brute_force, &bc, o, &w)) {
            fprintf(stderr, "sepax_bench mesh-queries: %s brute force: out of memory\n", s->name);
            sum->failures++;
        } else {
            uint64_t pairs = (uint64_t)(s->box ? 1 : s->a.count) * s->b.count;
            if (bc.state != SPX_SWEEP_MISS) w.toc = bc.time;
            w.contacts = (long)bc.window;
            w.ratio = w.ns_median / ref.ns_median;
            if (sum->brute_count < MAX_SCENES) {
                sum->brute_scene[sum->brute_count] = s->name;
                sum->brute_ratio[sum->brute_count++] = w.ratio;
            }
            bool both = (bc.state == SPX_SWEEP_MISS) == (hit.state == SPX_SWEEP_MISS);
            double diff =
                bc.state != SPX_SWEEP_MISS && hit.state != SPX_SWEEP_MISS ? fabs(hit.time - bc.time) / tmax : 0.0;
            bool same_pair = bc.a == hit.first.triangle_a && bc.b == hit.first.triangle_b;
            bool agree = both && diff <= AGREE &&
                         (bc.state == SPX_SWEEP_START_OVERLAP) == (hit.state == SPX_SWEEP_START_OVERLAP);
            char pair[48];
            if (bc.a == SPX_NO_TRIANGLE) snprintf(pair, sizeof pair, "(box, %u)", bc.b);
            else snprintf(pair, sizeof pair, "(%u, %u)", bc.a, bc.b);
            snprintf(w.note, sizeof w.note, "%.3g pairs; |sepax-brute|/tmax %.2g: %s; first pair %s%s%s", (double)pairs,
                     diff, agree ? "agree" : "DISAGREE", pair,
                     bc.state == SPX_SWEEP_MISS ? ""
                     : same_pair                ? " (the same)"
                                                : " (NOT sepax's)",
                     bc.errors ? "; calls failed" : "");
            if (bc.state == SPX_SWEEP_MISS)
                snprintf(w.note, sizeof w.note, "%.3g pairs; miss: %s", (double)pairs, agree ? "agree" : "DISAGREE");
            emit(rep, &w);
            if (!agree) {
                sum->disagreements++;
                fprintf(stderr,
                        "sepax_bench mesh-queries: %s: sepax %s at %.9g (pair %u, %u), brute force %s at %.9g (pair "
                        "%u, %u)\n",
                        s->name, hit.state == SPX_SWEEP_MISS ? "miss" : "hit", (double)hit.time, hit.first.triangle_a,
                        hit.first.triangle_b, bc.state == SPX_SWEEP_MISS ? "miss" : "hit", (double)bc.time, bc.a, bc.b);
            }
            if (bc.errors) {
                fprintf(stderr, "sepax_bench mesh-queries: %s brute force: %zu calls failed, first: %s\n", s->name,
                        bc.errors, spx_result_string(bc.first_error));
                sum->failures++;
            }
        }
        free(bc.hits);
    }

#if defined(SPX_BENCH_HAVE_FCL)
    if (o->peers && (!s->hull || s->hull_is_box)) {
        bench_fcl_mesh* fa = s->box ? fcl_box(&s->obb) : bench_fcl_mesh_create(s->a.world, s->a.count);
        bench_fcl_mesh* fb = bench_fcl_mesh_create(s->b.world, s->b.count);
        if (!fa || !fb) {
            fprintf(stderr, "sepax_bench mesh-queries: %s: FCL could not build the models\n", s->name);
        } else {
            spx_vec3 d = a_moved_by(s, s->tmax);
            fcl_call fc = { fa, fb, d, 0, 0, 0.0, 0 };
            row w = new_row(s, query, s->box ? "fcl-ca-rss-boxmesh" : "fcl-ca-rss");
            if (!time_query(fcl_query, &fc, o, &w)) {
                snprintf(w.note, sizeof w.note, "FCL failed");
                emit(rep, &w);
            } else {
                if (fc.answer == 1) w.toc = fc.time * tmax;
                w.ratio = w.ns_median / ref.ns_median;
                double diff = fc.answer == 1 && hit.state != SPX_SWEEP_MISS ? fabs(w.toc - hit.time) / tmax : NAN;
                snprintf(w.note, sizeof w.note, "%s; |fcl-sepax|/tmax %.2g; x newpose %.3g",
                         fc.answer == 1 ? "collides" : "no collision", diff, w.ns_median / wc.ns_median);
                emit(rep, &w);
                if (standard) sum->fcl_ca_ns = w.ns_median;
            }
        }
        bench_fcl_mesh_destroy(fa);
        bench_fcl_mesh_destroy(fb);
    }
#endif
    free(contacts);
}

/* The static queries with A moved along its path to time t (B at rest, as in every scene here). */
static void run_static(const options* o, report* rep, scene* s, totals* sum, float t, const char* label)
{
    spx_transform moved = s->a.pose;
    spx_vec3 d = a_moved_by(s, t);
    moved.p = spx_v3(moved.p.x + d.x, moved.p.y + d.y, moved.p.z + d.z);
    spx_transform start = s->a.pose;
    scene at = *s;
    at.a.pose = moved;
    at.name = label;
    spx_mesh_contact* contacts = malloc(sizeof(spx_mesh_contact) * CAPACITY);
    spx_result r = contacts ? spx_mesh_instance_set_pose(s->a.instance, &moved) : SPX_ERR_OUT_OF_MEMORY;
    if (r != SPX_OK) {
        fprintf(stderr, "sepax_bench mesh-queries: %s: %s\n", label, spx_result_string(r));
        sum->failures++;
        free(contacts);
        return;
    }
    bench_report_note(&rep->out,
                      "\n%s: A moved by (%.6g, %.6g, %.6g) m (t = %.7g s along its path), B as above; contact array %u",
                      label, (double)d.x, (double)d.y, (double)d.z, (double)t, CAPACITY);
    columns(rep);

    static const struct {
        const char* query;
        const char* engine;
        bool overlap, cold;
    } cases[] = {
        { "contacts_mesh", "sepax", false, false },
        { "contacts_mesh", "sepax-newpose", false, true },
        { "overlap_mesh", "sepax", true, false },
        { "overlap_mesh", "sepax-newpose", true, true },
    };
    row refs[2];
    for (int k = 0; k < 4; ++k) {
        sepax_call c = { .s = &at,
                         .at_rest = true,
                         .overlap_only = cases[k].overlap,
                         .cold = cases[k].cold,
                         .contacts = contacts,
                         .capacity = CAPACITY,
                         .result = SPX_OK };
        row w = new_row(&at, cases[k].query, cases[k].engine);
        if (!time_query(sepax_query, &c, o, &w)) {
            fprintf(stderr, "sepax_bench mesh-queries: %s %s: %s\n", label, cases[k].query,
                    spx_result_string(c.result));
            sum->failures++;
            refs[k / 2] = w;
            refs[k / 2].ns_median = NAN;
            continue;
        }
        if (!cases[k].cold) refs[k / 2] = w;
        w.ratio = w.ns_median / refs[k / 2].ns_median;
        if (cases[k].overlap) {
            w.contacts = c.overlap;
            snprintf(w.note, sizeof w.note, "%s", c.overlap ? "overlap" : "apart");
        } else {
            w.contacts = (long)c.hit.contact_count;
            if (c.hit.state == SPX_SWEEP_START_OVERLAP)
                snprintf(w.note, sizeof w.note, "depth estimate %.3g m, normal (%.3f, %.3f, %.3f)", (double)c.hit.depth,
                         (double)c.hit.normal.x, (double)c.hit.normal.y, (double)c.hit.normal.z);
            else snprintf(w.note, sizeof w.note, "apart");
        }
        emit(rep, &w);
    }
#if defined(SPX_BENCH_HAVE_FCL)
    if (o->peers) {
        /* FCL's A starts at the identity, its corners at A's start pose: moved by d. */
        bench_fcl_mesh* fa = bench_fcl_mesh_create(s->a.world, s->a.count);
        bench_fcl_mesh* fb = bench_fcl_mesh_create(s->b.world, s->b.count);
        if (fa && fb) {
            static const struct {
                const char* query;
                const char* engine;
                size_t max;
            } peer[] = {
                { "contacts_mesh", "fcl-collide-obbrss", 1000000 },
                { "overlap_mesh", "fcl-collide-obbrss", 1 },
            };
            for (int k = 0; k < 2; ++k) {
                fcl_call fc = { fa, fb, d, peer[k].max, 0, 0.0, 0 };
                row w = new_row(&at, peer[k].query, peer[k].engine);
                if (!time_query(fcl_query, &fc, o, &w)) continue;
                w.contacts = (long)fc.contacts;
                w.ratio = w.ns_median / refs[k].ns_median;
                snprintf(w.note, sizeof w.note, "num_max_contacts %zu, enable_contact", peer[k].max);
                emit(rep, &w);
            }
        } else {
            fprintf(stderr, "sepax_bench mesh-queries: %s: FCL could not build the models\n", label);
        }
        bench_fcl_mesh_destroy(fa);
        bench_fcl_mesh_destroy(fb);
    }
#endif
    spx_mesh_instance_set_pose(s->a.instance, &start);
    free(contacts);
}

/* ---- options ----------------------------------------------------------------------------------- */

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench mesh-queries [options]\n"
               "  --min-ms=<ms>      a timed run repeats the query until it lasts this long (default 200; --quick 10)\n"
               "  --axis=z|y         the tori's axis (default z, the standard case; y is the generator's own)\n"
               "  --no-brute         skip the all-pairs brute force (2 s on the standard case)\n"
               "  --scenes=<a,b>     only these scenes (torus-torus, box-torus, box-grid, grid-grid, cube-grid,\n"
               "                     sphere-grid; torus-torus brings at-contact and 1cm-deeper)\n"
               "  (default 7 runs; --quick: coarse tori and grid, 3 runs of 10 ms, brute force included)\n");
    bench_common_usage(f);
    bench_output_usage(f, "mesh_query-");
}

/* The mesh-queries suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    char* end;
    if ((v = bench_option_value(argv[*i], "--min-ms"))) {
        double ms = strtod(v, &end);
        if (*end || !(ms >= 0.0 && ms <= 1e5)) return fprintf(stderr, "%s: --min-ms wants 0..100000\n", argv[0]), -1;
        o->min_ms = ms;
    } else if ((v = bench_option_value(argv[*i], "--axis"))) {
        if (strcmp(v, "z") != 0 && strcmp(v, "y") != 0)
            return fprintf(stderr, "%s: --axis wants z or y\n", argv[0]), -1;
        o->axis = v[0];
    } else if ((v = bench_option_value(argv[*i], "--scenes"))) {
        o->scenes = v;
    } else if (strcmp(argv[*i], "--no-brute") == 0) {
        o->brute = false;
    } else {
        return 0;
    }
    return 1;
}

static int parse(int argc, char** argv, options* o)
{
    memset(o, 0, sizeof *o);
    o->common = (bench_common)BENCH_COMMON_DEFAULTS;
    o->output = (bench_output)BENCH_OUTPUT_DEFAULTS;
    o->min_ms = -1.0;
    o->brute = true;
    o->axis = 'z';
    int status = bench_parse_options(argc, argv, &o->common, &o->output, MAX_RUNS, own_option, o, usage);
    if (status >= 0) return status;
    o->quick = o->common.quick;
    o->peers = o->common.peers;
    o->runs = o->common.runs ? o->common.runs : o->quick ? 3 : 7;
    if (o->min_ms < 0.0) o->min_ms = o->quick ? 10.0 : 200.0;
    return -1;
}

int bench_mesh_queries(int argc, char** argv)
{
    options o;
    int status = parse(argc, argv, &o);
    if (status >= 0) return status;
    const char* program = argv[0];

    bench_machine m;
    char save_path[1200];
    report rep = { .csv_columns = false };
    if (bench_output_open(&o.output, program, "mesh_query-", &m, &rep.out, save_path, sizeof save_path) != 0) return 1;
    bench_report_header(&rep.out, program, &m, "", &o.output);
#if defined(SPX_BENCH_HAVE_FCL)
    bench_report_note(&rep.out, "peers: %s%s", bench_fcl_mesh_version(), o.peers ? "" : " (skipped: --no-peers)");
#else
    bench_report_note(&rep.out, "peers: none (configure with -DSEPAX_BENCH_PEERS=ON)");
#endif
    bench_report_note(&rep.out,
                      "runs: %d (median and min of the time a query)  min run: %.1f ms  contact array: %u%s%s", o.runs,
                      o.min_ms, CAPACITY, o.quick ? "  QUICK: coarse meshes" : "", o.brute ? "" : "  (no brute force)");

    totals sum = { 0, 0, NAN, NAN, NAN, 0, { NULL }, { 0 } };
    scene s;
    if (!wanted(&o, "torus-torus")) {
    } else if (scene_tori(&s, &o)) {
        run_sweeps(&o, &rep, &s, &sum, true);
        /* The static queries where the sweep says A first touches B, and 1 cm further in. At the
           time of contact itself, A's position rounded to float lands either side of touching (on
           the standard case 4e-8 m short: apart); 1e-6 of tmax later (2 um) it touches for sure. */
        sepax_call c = { .s = &s, .result = SPX_OK };
        if (sepax_query(&c) && c.hit.state == SPX_SWEEP_HIT) {
            run_static(&o, &rep, &s, &sum, c.hit.time + 1e-6f * s.tmax, "at-contact");
            float speed = sqrtf(s.va.x * s.va.x + s.va.y * s.va.y + s.va.z * s.va.z);
            run_static(&o, &rep, &s, &sum, c.hit.time + 0.01f / speed, "1cm-deeper");
        }
        scene_free(&s);
    } else {
        sum.failures++;
    }
    if (!wanted(&o, "box-torus")) {
    } else if (scene_box_torus(&s, &o)) {
        run_sweeps(&o, &rep, &s, &sum, false);
        scene_free(&s);
    } else {
        sum.failures++;
    }
    static const char* const more_name[] = { "box-grid",  "grid-grid", "cube-grid",
                                             "hull-grid", "gem-grid",  "sphere-grid" };
    bool (*const more[])(scene*, const options*) = { scene_box_grid,  scene_grid_grid, scene_cube_grid,
                                                     scene_hull_grid, scene_gem_grid,  scene_sphere_grid };
    for (size_t k = 0; k < sizeof more / sizeof more[0]; ++k) {
        if (!wanted(&o, more_name[k])) continue;
        if (more[k](&s, &o)) {
            run_sweeps(&o, &rep, &s, &sum, false);
            scene_free(&s);
        } else {
            sum.failures++;
        }
    }

    char a[32], b[32];
    bench_report_note(&rep.out, "\ngoal (standard case%s): sepax %s a query (%s with a new pose), under 1 ms: %s",
                      o.quick ? ", QUICK meshes" : "", human(sum.sepax_ns, a), human(sum.sepax_cold_ns, b),
                      sum.sepax_ns < 1e6 && sum.sepax_cold_ns < 1e6 ? "yes" : "NO");
    if (sum.fcl_ca_ns == sum.fcl_ca_ns)
        bench_report_note(
            &rep.out,
            "FCL conservative advancement / sepax: %.0fx (%.0fx against the new-pose figure), at least 100x: %s",
            sum.fcl_ca_ns / sum.sepax_ns, sum.fcl_ca_ns / sum.sepax_cold_ns,
            sum.fcl_ca_ns >= 100.0 * sum.sepax_cold_ns ? "yes" : "NO");
    if (sum.brute_count > 0) {
        char list[400];
        size_t used = 0;
        bool met = true;
        for (int k = 0; k < sum.brute_count; ++k) {
            met = met && sum.brute_ratio[k] >= BRUTE_GOAL;
            int n = snprintf(list + used, sizeof list - used, "%s%s %.3gx", k ? ", " : "", sum.brute_scene[k],
                             sum.brute_ratio[k]);
            if (n > 0 && (size_t)n < sizeof list - used) used += (size_t)n;
        }
        bench_report_note(&rep.out, "brute force / sepax: %s; every sweep at least %.0fx: %s", list, BRUTE_GOAL,
                          met ? "yes" : "NO");
    }
    bench_report_note(&rep.out, "sepax calls failed or scenes not built: %d; disagreements with the brute force: %d%s",
                      sum.failures, sum.disagreements, o.brute ? "" : " (not run)");
    return bench_output_close(&rep.out, &o.output, program, save_path, sum.failures ? 3 : sum.disagreements ? 4 : 0);
}
