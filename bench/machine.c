/* sepax_bench: machine description from /proc, /sys and uname (Linux; elsewhere fields say "?"). */
#define _POSIX_C_SOURCE 200112L
#include "machine.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void copy_text(char* dst, size_t size, const char* src) { snprintf(dst, size, "%s", src); }

/* Keeps a name usable as a directory: letters, digits, '.', '-', '_'. */
static void sanitize(char* s)
{
    for (; *s; ++s)
        if (!isalnum((unsigned char)*s) && *s != '.' && *s != '-' && *s != '_') *s = '_';
}

static void read_cpu_model(char* dst, size_t size)
{
    copy_text(dst, size, "?");
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char* colon = strchr(line, ':');
        if (colon) {
            colon += 1 + (colon[1] == ' ');
            copy_text(dst, size, colon);
            dst[strcspn(dst, "\n")] = '\0';
        }
        break;
    }
    fclose(f);
}

static size_t read_llc_bytes(void)
{
    size_t best = 0;
    int best_level = 0;
    for (int index = 0; index < 8; ++index) {
        char path[96], text[32];
        int level = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
        FILE* f = fopen(path, "r");
        if (!f) break;
        if (fscanf(f, "%d", &level) != 1) level = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
        f = fopen(path, "r");
        if (!f) continue;
        unsigned long value = 0;
        char unit = 0;
        if (fgets(text, sizeof text, f) && sscanf(text, "%lu%c", &value, &unit) >= 1) {
            size_t bytes = value * (unit == 'K' ? 1024ul : unit == 'M' ? 1024ul * 1024ul : 1ul);
            if (level > best_level || (level == best_level && bytes > best)) {
                best_level = level;
                best = bytes;
            }
        }
        fclose(f);
    }
    return best;
}

static void read_load(char* dst, size_t size)
{
    copy_text(dst, size, "?");
    FILE* f = fopen("/proc/loadavg", "r");
    if (!f) return;
    double l1, l5, l15;
    if (fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3) snprintf(dst, size, "%.2f %.2f %.2f", l1, l5, l15);
    fclose(f);
}

void bench_machine_probe(bench_machine* m, const char* name)
{
    memset(m, 0, sizeof *m);
    if (name && name[0]) copy_text(m->name, sizeof m->name, name);
    else if (gethostname(m->name, sizeof m->name - 1) != 0 || !m->name[0])
        copy_text(m->name, sizeof m->name, "unknown");
    sanitize(m->name);

    read_cpu_model(m->cpu, sizeof m->cpu);
#if defined(__clang__)
    snprintf(m->compiler, sizeof m->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(m->compiler, sizeof m->compiler, "gcc %s", __VERSION__);
#else
    copy_text(m->compiler, sizeof m->compiler, "unknown C compiler");
#endif
    struct utsname u;
    if (uname(&u) == 0) snprintf(m->os, sizeof m->os, "%s %s %s", u.sysname, u.release, u.machine);
    else copy_text(m->os, sizeof m->os, "?");

    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    strftime(m->stamp, sizeof m->stamp, "%Y%m%d-%H%M%S", &utc);

    read_load(m->load, sizeof m->load);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    m->cpus = cpus > 0 ? (int)cpus : 0;
    m->llc_bytes = read_llc_bytes();
}

/* Every bench program is built with the same options (sepax_options), so this file sees the same
   SIMD and optimisation settings as the harness that prints them. */
const char* bench_simd_name(void)
{
#if defined(SPX_AVX2)
    return "avx2 (SEPAX_AVX2=ON)";
#elif defined(__x86_64__) && defined(__GNUC__)
    /* The library's world solver takes its AVX2 copy where the CPU has it (spx_world_def.simd). */
    return __builtin_cpu_supports("avx2") ? "sse2 baseline; world solver avx2 on this cpu"
                                          : "sse2 baseline; no avx2 on this cpu";
#else
    return "sse2 baseline";
#endif
}

const char* bench_optimised_note(void)
{
#if defined(__OPTIMIZE__)
    return "";
#else
    return "  ** NOT OPTIMISED: figures meaningless **";
#endif
}

bool bench_make_directories(const char* path)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return false;
    for (char* p = buf + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
            *p = '/';
        }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}
