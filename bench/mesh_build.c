/* sepax_bench_mesh: time to build a mesh and its OBB tree, and the memory it keeps. See
   bench/README.md ("Mesh build").

   sepax_bench_mesh [-n=<triangles,...>] [--large] [-r=<runs>] [--leaf=<1..16>] [--shape=torus|sphere]

   Exit status: 0; 2 for a bad option; 3 when a mesh could not be generated or built. */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"
#include "timer.h"
#include "support/shapes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SPX_BENCH_BUILD_TYPE
#define SPX_BENCH_BUILD_TYPE "?"
#endif

#define MAX_SIZES 16
/* Builds of a million triangles and more take about a second each: fewer runs, same median. */
#define LARGE_TRIANGLES 1000000u
#define LARGE_RUNS 3

static void usage(FILE* f)
{
    fprintf(f, "usage: sepax_bench_mesh [options]\n"
               "  -n=<t1,t2,...>   triangle counts (default 10000,100000; rounded to a torus grid)\n"
               "  --large          add 1000000 to the default sizes\n"
               "  -r=<runs>        timed builds a size, median reported (default 7; at most %d from 1M up)\n"
               "  --leaf=<k>       spx_mesh_def.leaf_triangles, 1..16 (default 4)\n"
               "  --shape=<s>      torus (default) or sphere\n",
            LARGE_RUNS);
}

static const char* value(const char* arg, const char* name)
{
    size_t len = strlen(name);
    return strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : NULL;
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

int main(int argc, char** argv)
{
    uint32_t sizes[MAX_SIZES] = { 10000, 100000 };
    int size_count = 2, runs = 7;
    unsigned leaf = 4;
    bool large = false;
    const char* shape = "torus";
    for (int i = 1; i < argc; ++i) {
        const char* v;
        if ((v = value(argv[i], "-n"))) {
            size_count = 0;
            for (char* end = (char*)v; *v && size_count < MAX_SIZES; v = end + (*end == ',')) {
                errno = 0;
                unsigned long long n = strtoull(v, &end, 0);
                if (errno || end == v || n < 1 || n > 0x7FFFFFFFull || (*end && *end != ','))
                    return fprintf(stderr, "sepax_bench_mesh: -n wants triangle counts\n"), 2;
                sizes[size_count++] = (uint32_t)n;
            }
        } else if (strcmp(argv[i], "--large") == 0) {
            large = true;
        } else if ((v = value(argv[i], "-r"))) {
            runs = atoi(v);
            if (runs < 1 || runs > 1000) return fprintf(stderr, "sepax_bench_mesh: -r wants 1..1000\n"), 2;
        } else if ((v = value(argv[i], "--leaf"))) {
            leaf = (unsigned)atoi(v);
            if (leaf < 1 || leaf > 16) return fprintf(stderr, "sepax_bench_mesh: --leaf wants 1..16\n"), 2;
        } else if ((v = value(argv[i], "--shape"))) {
            if (strcmp(v, "torus") != 0 && strcmp(v, "sphere") != 0)
                return fprintf(stderr, "sepax_bench_mesh: --shape wants torus or sphere\n"), 2;
            shape = v;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "sepax_bench_mesh: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (large && size_count < MAX_SIZES) sizes[size_count++] = LARGE_TRIANGLES;

    bench_machine m;
    bench_machine_probe(&m, NULL);
    printf("sepax_bench_mesh: spx_mesh_create on a generated %s, leaf_triangles %u\n", shape, leaf);
    printf("date: %s  machine: %s  cpu: %s  load average at start: %s\n", m.date, m.name, m.cpu, m.load);
    const char* optimised = bench_optimised_note();
    printf("compiler: %s  build: %s%s\n\n", m.compiler, SPX_BENCH_BUILD_TYPE, optimised);
    printf("%10s %5s %10s %10s %9s %6s %12s %9s\n", "triangles", "runs", "ms_median", "ms_min", "nodes", "depth",
           "bytes", "bytes/tri");

    int status = 0;
    for (int k = 0; k < size_count; ++k) {
        test_shape s;
        if (!make_shape(&s, shape, sizes[k])) {
            fprintf(stderr, "sepax_bench_mesh: out of memory generating %u triangles\n", sizes[k]);
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
            fprintf(stderr, "sepax_bench_mesh: spx_mesh_create on %u triangles: %s\n", s.triangle_count,
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
