/* sepax run: simulate a scene, with a progress bar on a terminal, and print its summary; optionally
 * write every moving body's trajectory as CSV. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "report.h"
#include "timer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A bar on stderr, redrawn only when its text changes (at most ~200 times a run). */
static void progress(uint32_t done, uint32_t total, double ms_mean)
{
    int width = 40, filled = total ? (int)((uint64_t)done * (uint64_t)width / total) : width;
    fprintf(stderr, "\r[%.*s%*s] %3u%%  step %u/%u  %.2f ms a step ", filled, "########################################",
            width - filled, "", total ? (unsigned)((uint64_t)done * 100 / total) : 100u, done, total, ms_mean);
    fflush(stderr);
}

int command_run(int argc, char** argv)
{
    scene_options o = { NULL, -1, 0.0, SCENE_UNKNOWN_KEY_ERROR };
    const char* out_path = NULL;
    bool exact = false;
    for (int i = 1; i < argc; ++i) {
        int used = scene_option(argc, argv, &i, &o, "run");
        if (used < 0) return EXIT_USAGE;
        if (used) continue;
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(argv[i], "--exact") == 0) {
            exact = true;
        } else {
            return option_error("run", argv[i], (const char* const[]){ "--out", NULL });
        }
    }
    if (exact && !out_path) {
        fprintf(stderr, "sepax run: --exact is for the trajectories: give --out FILE.csv too\n");
        return EXIT_USAGE;
    }
    scene s;
    if (!scene_open(&o, &s)) return EXIT_FAILED;
    FILE* csv = NULL;
    if (out_path && (!(csv = fopen(out_path, "w")) || !report_csv_header(csv) || !report_csv_rows(csv, &s, 0.0, exact))) {
        fprintf(stderr, "sepax run: cannot write %s: %s\n", out_path, strerror(errno));
        if (csv) fclose(csv);
        scene_free(&s);
        return EXIT_FAILED;
    }
    measure* m = measure_create(&s);
    uint32_t steps = scene_steps(&o, &s);
    double* ms = malloc((steps ? steps : 1) * sizeof *ms);
    if (!m || !ms) {
        fprintf(stderr, "sepax run: out of memory\n");
        free(ms), measure_destroy(m), scene_free(&s);
        if (csv) fclose(csv);
        return EXIT_FAILED;
    }
    bool bar = isatty(STDERR_FILENO);
    run_figures r = { .steps = steps, .dt = s.dt };
    double sum = 0.0, points = 0.0;
    int status = EXIT_DONE;
    uint32_t shown = UINT32_MAX;
    for (uint32_t i = 0; i < steps; ++i) {
        uint64_t t0 = bench_now_ns();
        spx_result res = spx_world_step(s.w, s.dt);
        ms[i] = (double)(bench_now_ns() - t0) * 1e-6;
        if (res != SPX_OK) {
            if (bar) fprintf(stderr, "\n");
            fprintf(stderr, "sepax run: step %u failed: %s\n", i + 1, spx_result_string(res));
            status = EXIT_FAILED;
            r.steps = i;
            break;
        }
        sum += ms[i];
        spx_step_stats st;
        spx_world_get_stats(s.w, &st);
        points += st.contact_point_count;
        if (st.contact_point_count > r.peak_points) r.peak_points = st.contact_point_count;
        r.points = st.contact_point_count, r.manifolds = st.manifold_count;
        r.broad_ms += st.broad_ms, r.narrow_ms += st.narrow_ms, r.solver_ms += st.solver_ms, r.island_ms += st.island_ms;
        if (csv && !report_csv_rows(csv, &s, (double)(i + 1) * (double)s.dt, exact)) {
            fprintf(stderr, "sepax run: cannot write %s: %s\n", out_path, strerror(errno));
            status = EXIT_FAILED;
            r.steps = i + 1;
            break;
        }
        uint32_t tick = (uint32_t)((uint64_t)(i + 1) * 200 / steps);
        if (bar && tick != shown) progress(i + 1, steps, sum / (i + 1)), shown = tick;
    }
    if (bar) fprintf(stderr, "\r%*s\r", 90, "");
    if (csv && fclose(csv) != 0) {
        fprintf(stderr, "sepax run: cannot write %s: %s\n", out_path, strerror(errno));
        status = EXIT_FAILED;
    }
    double n = r.steps ? (double)r.steps : 1.0;
    r.total_s = sum * 1e-3;
    r.ms_mean = sum / n;
    r.mean_points = points / n;
    r.broad_ms /= n, r.narrow_ms /= n, r.solver_ms /= n, r.island_ms /= n;
    r.ms_median = r.steps ? bench_median(ms, r.steps) : 0.0;
    if (!measure_now(m, &s, true, &r.end)) {
        fprintf(stderr, "sepax run: measuring the end state failed\n");
        status = EXIT_FAILED;
    }
    report_summary(stdout, &s, &r);
    if (out_path && status == EXIT_DONE) printf("trajectories  %s\n", out_path);
    free(ms);
    measure_destroy(m);
    scene_free(&s);
    return status;
}
