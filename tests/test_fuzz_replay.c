/* The fuzz harnesses of tests/fuzz/ as an ordinary test, in every build (gcc too): each runs on its
 * seed corpus (tests/fuzz/corpus/<name>/, which keeps every input found to break a property) and on
 * a fixed-seed stream of random inputs, so a run is the same every time. A property that fails
 * aborts with its line and writes the input to fuzz-failure-<name>.bin. `--long` runs a hundred
 * times as many random inputs; `test_fuzz_replay <name> <file>` runs one harness on one input. */
#include "fuzz/fuzz.h"
#include "support/test.h"
#include <dirent.h>
#include <signal.h>

/* The input being run, written out when a property aborts, so that it can join the corpus. */
static const char* current_name = "";
static const uint8_t* current_data;
static size_t current_size;

static void save_failing_input(int sig)
{
    char path[256];
    snprintf(path, sizeof path, "fuzz-failure-%s.bin", current_name);
    FILE* f = fopen(path, "wb");
    if (f) {
        fwrite(current_data, 1, current_size, f);
        fclose(f);
        fprintf(stderr, "the failing input (%zu bytes) is in %s\n", current_size, path);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void run(const char* name, int (*fn)(const uint8_t*, size_t), const uint8_t* data, size_t size)
{
    current_name = name;
    current_data = data;
    current_size = size;
    fn(data, size);
}

typedef struct harness {
    const char* name;
    int (*fn)(const uint8_t*, size_t);
} harness;

static const harness harnesses[] = {
    { "box_box", fuzz_box_box },
    { "box_triangle", fuzz_box_triangle },
    { "triangle_triangle", fuzz_triangle_triangle },
    { "mesh", fuzz_mesh },
    { "round", fuzz_round },
    { "hull", fuzz_hull },
    { "sat2d", fuzz_sat2d },
    { "query", fuzz_query },
#if defined(SPX_FUZZ_HAVE_SCENE)
    { "scene", fuzz_scene },
#endif
};

/* Every file of the harness's corpus folder; returns how many. */
static int replay_corpus(const harness* h)
{
    char dir_path[1024];
    snprintf(dir_path, sizeof dir_path, "%s/%s", SPX_FUZZ_CORPUS_DIR, h->name);
    DIR* dir = opendir(dir_path);
    if (!dir) {
        fprintf(stderr, "no corpus folder %s\n", dir_path);
        return -1;
    }
    int count = 0;
    struct dirent* e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        FILE* f = fopen(path, "rb");
        if (!f) continue;
        static uint8_t data[1 << 16];
        const size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        /* an exact-size copy, so that a read past the end shows under AddressSanitizer */
        uint8_t* copy = malloc(n ? n : 1);
        if (!copy) continue;
        memcpy(copy, data, n);
        run(h->name, h->fn, copy, n);
        free(copy);
        ++count;
    }
    closedir(dir);
    return count;
}

static uint64_t stream = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { return test_xorshift64(&stream); }

static void replay_random(const harness* h, long inputs)
{
    for (long k = 0; k < inputs; ++k) {
        const size_t n = (size_t)(next() % 200);
        uint8_t* data = malloc(n ? n : 1);
        if (!data) return;
        for (size_t i = 0; i < n; ++i) data[i] = (uint8_t)(next() >> 32);
        run(h->name, h->fn, data, n);
        free(data);
    }
}

int main(int argc, char** argv)
{
    signal(SIGABRT, save_failing_input);
    if (argc == 3) { /* one harness on one file: test_fuzz_replay box_box fuzz-failure-box_box.bin */
        for (size_t i = 0; i < sizeof harnesses / sizeof harnesses[0]; ++i) {
            if (strcmp(harnesses[i].name, argv[1]) != 0) continue;
            FILE* f = fopen(argv[2], "rb");
            if (!f) return 1;
            static uint8_t data[1 << 16];
            const size_t n = fread(data, 1, sizeof data, f);
            fclose(f);
            run(harnesses[i].name, harnesses[i].fn, data, n);
            printf("ok: %s on %s\n", argv[1], argv[2]);
            return 0;
        }
        return 1;
    }
    const bool long_run = test_long_run(argc, argv);
    int failures = 0;
    for (size_t i = 0; i < sizeof harnesses / sizeof harnesses[0]; ++i) {
        const harness* h = &harnesses[i];
        /* The scene reader builds and steps a world for what it reads: fewer of those. */
        const long inputs = (strcmp(h->name, "scene") == 0 ? 500 : 4000) * (long_run ? 100 : 1);
        const int seeds = replay_corpus(h);
        if (seeds < 0) {
            ++failures;
            continue;
        }
        replay_random(h, inputs);
        printf("ok: %-18s %3d corpus inputs, %ld random\n", h->name, seeds, inputs);
    }
    return failures ? 1 : 0;
}
