/* sepax_bench mesh-build: time to build a mesh and its OBB tree, and the memory it keeps. See
   bench/README.md ("Mesh build").

   sepax_bench mesh-build [-n=<triangles,...>] [--large] [--runs=<n>] [--leaf=<1..16>] [--shape=torus|sphere]

   Exit status: 0; 2 for a bad option; 3 when a mesh could not be generated or built. */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "suite.h"
#include "timer.h"
#include "support/shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 16
/* Builds of a million triangles and more take about a second each: fewer runs, same median. */
#define LARGE_TRIANGLES 1000000u
#define LARGE_RUNS 3

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sepax_bench mesh-build [options]\n"
            "  -n=<t1,t2,...>     triangle counts (default 10000,100000; rounded to a torus grid)\n"
            "  --large            add 1000000 to the default sizes\n"
            "  --leaf=<k>         spx_mesh_def.leaf_triangles, 1..16 (default 4)\n"
            "  --shape=<s>        torus (default) or sphere\n"
            "  (default 7 timed builds a size, at most %d from 1M up; --quick: 10000 triangles, 3 builds)\n",
            LARGE_RUNS);
    bench_common_usage(f);
}

/* A grid of nu x nv quads with 2 nu nv close to `triangles`, about twice as many segments round
   the ring as round the tube (as a torus is usually tessellated). */
static bool make_shape(test_shape* s, const char* shape, uint32_t triangles)
{
    uint32_t quads = triangles / 2 > 0 ? triangles / 2 : 1;
    uint32_t nv = (uint32_t)floor(sqrt(quads / 2.0));
    nv = nv < 3 ? 3 : nv;
    for (uint32_t d = nv; d >= 3 && 2 * d >= nv; --d) /* an exact count when a near divisor exists */
        if (quads % d == 0) {
            nv = d;
            break;
        }
    uint32_t nu = (quads + nv - 1) / nv;
    if (strcmp(shape, "sphere") == 0) return test_shape_sphere(s, 1.0f, nv, nu);
    return test_shape_torus(s, 1.0f, 0.3f, nu, nv);
}

typedef struct options {
    uint32_t sizes[MAX_SIZES];
    int size_count;
    unsigned leaf;
    bool large;
    const char* shape;
} options;

/* The mesh-build suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    (void)argc;
    options* o = context;
    const char* v;
    if ((v = bench_option_value(argv[*i], "-n"))) {
        o->size_count = bench_parse_counts(v, o->sizes, MAX_SIZES, 1, 0x7FFFFFFFull);
        if (o->size_count < 0) return fprintf(stderr, "%s: -n wants triangle counts\n", argv[0]), -1;
    } else if (strcmp(argv[*i], "--large") == 0) {
        o->large = true;
    } else if ((v = bench_option_value(argv[*i], "--leaf"))) {
        o->leaf = (unsigned)atoi(v);
        if (o->leaf < 1 || o->leaf > 16) return fprintf(stderr, "%s: --leaf wants 1..16\n", argv[0]), -1;
    } else if ((v = bench_option_value(argv[*i], "--shape"))) {
        if (strcmp(v, "torus") != 0 && strcmp(v, "sphere") != 0)
            return fprintf(stderr, "%s: --shape wants torus or sphere\n", argv[0]), -1;
        o->shape = v;
    } else {
        return 0;
    }
    return 1;
}

int bench_mesh_build(int argc, char** argv)
{
    options o = { { 10000, 100000 }, 2, 4, false, "torus" };
    bench_common common = BENCH_COMMON_DEFAULTS;
    int parsed = bench_parse_options(argc, argv, &common, NULL, 1000, own_option, &o, usage);
    if (parsed >= 0) return parsed;
    const char* program = argv[0];
    uint32_t* sizes = o.sizes;
    int size_count = o.size_count;
    unsigned leaf = o.leaf;
    bool large = o.large;
    const char* shape = o.shape;
    if (common.quick) size_count = 1; /* 10000 triangles, or the first of -n */
    int runs = common.runs ? common.runs : common.quick ? 3 : 7;
    if (large && size_count < MAX_SIZES) sizes[size_count++] = LARGE_TRIANGLES;

    bench_machine m;
    bench_machine_probe(&m, NULL);
    printf("%s: spx_mesh_create on a generated %s, leaf_triangles %u\n", program, shape, leaf);
    bench_print_header(program, &m);
    printf("%10s %5s %10s %10s %9s %6s %12s %9s\n", "triangles", "runs", "ms_median", "ms_min", "nodes", "depth",
           "bytes", "bytes/tri");

    int status = 0;
    for (int k = 0; k < size_count; ++k) {
        test_shape s;
        if (!make_shape(&s, shape, sizes[k])) {
            fprintf(stderr, "%s: out of memory generating %u triangles\n", program, sizes[k]);
            status = 3;
            continue;
        }
        spx_mesh_def def = spx_default_mesh_def();
        def.vertices = s.vertices;
        def.vertex_count = s.vertex_count;
        def.indices = s.indices;
        def.triangle_count = s.triangle_count;
        def.leaf_triangles = leaf;
        int n_runs = s.triangle_count >= LARGE_TRIANGLES && runs > LARGE_RUNS ? LARGE_RUNS : runs;
        double ms[1000];
        spx_mesh_info info = { 0 };
        spx_result r = SPX_OK;
        /* One untimed build first: page faults of first use are not the build's. */
        for (int run = -1; run < n_runs && r == SPX_OK; ++run) {
            spx_mesh* mesh = NULL;
            uint64_t t0 = bench_now_ns();
            r = spx_mesh_create(&def, &mesh);
            uint64_t t1 = bench_now_ns();
            if (r != SPX_OK) break;
            if (run >= 0) ms[run] = (double)(t1 - t0) * 1e-6;
            spx_mesh_get_info(mesh, &info);
            spx_mesh_destroy(mesh);
        }
        if (r != SPX_OK) {
            fprintf(stderr, "%s: spx_mesh_create on %u triangles: %s\n", program, s.triangle_count,
                    spx_result_string(r));
            status = 3;
        } else {
            double lo = bench_min(ms, (size_t)n_runs), med = bench_median(ms, (size_t)n_runs);
            printf("%10u %5d %10.2f %10.2f %9u %6u %12zu %9.1f\n", info.triangle_count, n_runs, med, lo,
                   info.node_count, info.depth, info.bytes, (double)info.bytes / info.triangle_count);
        }
        test_shape_free(&s);
    }
    return status;
}
