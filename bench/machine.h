/* sepax_bench: what the figures were measured on, printed at the head of every report. */
#ifndef SPX_BENCH_MACHINE_H
#define SPX_BENCH_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct bench_machine {
    char name[64];     /* --machine=, else the host name; safe as a directory name */
    char cpu[128];     /* "model name" of /proc/cpuinfo */
    char compiler[96]; /* the C compiler that built the harness */
    char os[256];      /* uname: system, release, architecture */
    char date[32];     /* UTC, ISO 8601 */
    char stamp[32];    /* UTC, YYYYMMDD-HHMMSS: file names */
    char load[64];     /* /proc/loadavg at start: a busy machine gives noisy figures */
    int cpus;          /* online */
    size_t llc_bytes;  /* largest cache level of cpu0, 0 when unknown */
} bench_machine;

/// Fills `m`; `name` overrides the host name when not NULL.
void bench_machine_probe(bench_machine* m, const char* name);

/// The SIMD path this build runs ("sse2 baseline" or "avx2 (SEPAX_AVX2=ON)").
const char* bench_simd_name(void);

/// "" in an optimised build, a warning to append to the build line otherwise.
const char* bench_optimised_note(void);

/// mkdir -p: every folder of `path` made where missing (0777 less the umask). False if one cannot be.
bool bench_make_directories(const char* path);

#endif
