/* sepax run: simulate a scene, with a progress bar on a terminal, and print its summary; optionally
 * write every moving body's trajectory as CSV, and print each step's events (--events). */
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
    fprintf(stderr, "\r[%.*s%*s] %3u%%  step %u/%u  %.2f ms a step ", filled,
            "########################################", width - filled, "",
            total ? (unsigned)((uint64_t)done * 100 / total) : 100u, done, total, ms_mean);
    fflush(stderr);
}

/* ---- --events: the step's events as text, one a line ------------------------------------------------ */

enum { EVENT_CONTACT = 1, EVENT_HIT = 2, EVENT_SENSOR = 4, EVENT_MOVE = 8, EVENT_SLEEP = 16, EVENT_ALL = 31 };

/* The kinds in a comma-separated list (contact, hit, sensor, move, sleep, all); 0 when a name is unknown. */
static unsigned event_kinds(const char* list)
{
    static const struct {
        const char* name;
        unsigned bit;
    } kinds[] = { { "contact", EVENT_CONTACT }, { "hit", EVENT_HIT },     { "sensor", EVENT_SENSOR },
                  { "move", EVENT_MOVE },       { "sleep", EVENT_SLEEP }, { "all", EVENT_ALL } };
    unsigned bits = 0;
    while (*list) {
        size_t n = strcspn(list, ",");
        unsigned bit = 0;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
            if (strlen(kinds[k].name) == n && strncmp(kinds[k].name, list, n) == 0) bit = kinds[k].bit;
        if (!bit) return 0;
        bits |= bit;
        list += n + (list[n] == ',');
    }
    return bits;
}

/* Scene body numbers (file order) by body id slot, to name bodies as the scene file does. */
typedef struct namer {
    uint32_t* body_of_slot;
    uint32_t slots;
} namer;

static bool namer_make(namer* n, const scene* s)
{
    n->slots = 0;
    for (uint32_t i = 0; i < s->body_count; ++i)
        if (s->ids[i].index > n->slots) n->slots = s->ids[i].index;
    n->body_of_slot = malloc((n->slots ? n->slots : 1) * sizeof *n->body_of_slot);
    if (!n->body_of_slot) return false;
    for (uint32_t i = 0; i < n->slots; ++i) n->body_of_slot[i] = UINT32_MAX;
    for (uint32_t i = 0; i < s->body_count; ++i) n->body_of_slot[s->ids[i].index - 1] = i;
    return true;
}

static void print_body(FILE* f, const namer* n, spx_body_id id)
{
    if (id.index == 0 || id.index > n->slots || n->body_of_slot[id.index - 1] == UINT32_MAX) fputc('?', f);
    else fprintf(f, "%u", n->body_of_slot[id.index - 1]);
}

/* BODY:SHAPE, the shape's index in its body; '?' for what is gone (a destroyed shape's end event). */
static void print_shape(FILE* f, const scene* s, const namer* n, spx_body_id body, spx_shape_id shape)
{
    uint32_t index;
    print_body(f, n, body);
    if (spx_shape_get_index(s->w, shape, &index) == SPX_OK) fprintf(f, ":%u", index);
    else fputs(":?", f);
}

static void print_vec(FILE* f, const char* key, spx_vec3 v)
{
    fprintf(f, " %s=%.6g,%.6g,%.6g", key, (double)v.x, (double)v.y, (double)v.z);
}

/* The last step's events, each list in the world's order: contact begins and ends, hits, sensor
   begins and ends, moves, sleep changes. */
static void print_events(FILE* f, const scene* s, const namer* n, uint32_t step, unsigned kinds)
{
    const spx_contact_event *begin, *end;
    uint32_t begin_count = 0, end_count = 0;
    if (kinds & EVENT_CONTACT) {
        spx_world_get_contact_events(s->w, &begin, &begin_count, &end, &end_count);
        for (uint32_t k = 0; k < begin_count; ++k) {
            fprintf(f, "%u contact_begin a=", step);
            print_shape(f, s, n, begin[k].a, begin[k].shape_a);
            fputs(" b=", f);
            print_shape(f, s, n, begin[k].b, begin[k].shape_b);
            fprintf(f, " approach=%.6g\n", (double)(begin[k].approach_speed + 0.0f)); /* no -0 */
        }
        for (uint32_t k = 0; k < end_count; ++k) {
            fprintf(f, "%u contact_end a=", step);
            print_shape(f, s, n, end[k].a, end[k].shape_a);
            fputs(" b=", f);
            print_shape(f, s, n, end[k].b, end[k].shape_b);
            fputc('\n', f);
        }
    }
    if (kinds & EVENT_HIT) {
        const spx_contact_hit_event* hits;
        uint32_t count = 0;
        spx_world_get_hit_events(s->w, &hits, &count);
        for (uint32_t k = 0; k < count; ++k) {
            fprintf(f, "%u hit a=", step);
            print_shape(f, s, n, hits[k].a, hits[k].shape_a);
            fputs(" b=", f);
            print_shape(f, s, n, hits[k].b, hits[k].shape_b);
            fprintf(f, " speed=%.6g", (double)hits[k].speed);
            print_vec(f, "point", hits[k].point);
            print_vec(f, "normal", hits[k].normal);
            fputc('\n', f);
        }
    }
    if (kinds & EVENT_SENSOR) {
        const spx_sensor_event *sb, *se;
        uint32_t sb_count = 0, se_count = 0;
        spx_world_get_sensor_events(s->w, &sb, &sb_count, &se, &se_count);
        for (int pass = 0; pass < 2; ++pass)
            for (uint32_t k = 0; k < (pass ? se_count : sb_count); ++k) {
                const spx_sensor_event* e = pass ? &se[k] : &sb[k];
                fprintf(f, "%u %s sensor=", step, pass ? "sensor_end" : "sensor_begin");
                print_shape(f, s, n, e->sensor_body, e->sensor);
                fputs(" visitor=", f);
                print_shape(f, s, n, e->visitor_body, e->visitor);
                fputc('\n', f);
            }
    }
    if (kinds & (EVENT_MOVE | EVENT_SLEEP)) {
        const spx_body_move_event* moves;
        const spx_body_sleep_event* sleeps;
        uint32_t move_count = 0, sleep_count = 0;
        spx_world_get_body_events(s->w, &moves, &move_count, &sleeps, &sleep_count);
        for (uint32_t k = 0; (kinds & EVENT_MOVE) && k < move_count; ++k) {
            fprintf(f, "%u move body=", step);
            print_body(f, n, moves[k].body);
            print_vec(f, "p", moves[k].transform.p);
            fprintf(f, " q=%.6g,%.6g,%.6g,%.6g%s\n", (double)moves[k].transform.q.x, (double)moves[k].transform.q.y,
                    (double)moves[k].transform.q.z, (double)moves[k].transform.q.w,
                    moves[k].fell_asleep ? " fell_asleep" : "");
        }
        for (uint32_t k = 0; (kinds & EVENT_SLEEP) && k < sleep_count; ++k) {
            fprintf(f, "%u %s body=", step, sleeps[k].awake ? "wake" : "sleep");
            print_body(f, n, sleeps[k].body);
            fputc('\n', f);
        }
    }
}

int command_run(int argc, char** argv)
{
    scene_options o = { NULL, -1, 0.0, SCENE_UNKNOWN_KEY_ERROR };
    const char* out_path = NULL;
    bool exact = false;
    unsigned events = 0;
    for (int i = 1; i < argc; ++i) {
        int used = scene_option(argc, argv, &i, &o, "run");
        if (used < 0) return EXIT_USAGE;
        if (used) continue;
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(argv[i], "--exact") == 0) {
            exact = true;
        } else if (strcmp(argv[i], "--events") == 0) {
            events = EVENT_ALL;
        } else if (strncmp(argv[i], "--events=", 9) == 0) {
            if (!(events = event_kinds(argv[i] + 9))) {
                fprintf(stderr, "sepax run: --events= wants kinds among contact,hit,sensor,move,sleep,all (got '%s')\n",
                        argv[i] + 9);
                return EXIT_USAGE;
            }
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
    if (out_path &&
        (!(csv = fopen(out_path, "w")) || !report_csv_header(csv) || !report_csv_rows(csv, &s, 0.0, exact))) {
        fprintf(stderr, "sepax run: cannot write %s: %s\n", out_path, strerror(errno));
        if (csv) fclose(csv);
        scene_free(&s);
        return EXIT_FAILED;
    }
    measure* m = measure_create(&s);
    uint32_t steps = scene_steps(&o, &s);
    double* ms = malloc((steps ? steps : 1) * sizeof *ms);
    namer names = { NULL, 0 };
    if (!m || !ms || (events && !namer_make(&names, &s))) {
        fprintf(stderr, "sepax run: out of memory\n");
        free(ms), free(names.body_of_slot), measure_destroy(m), scene_free(&s);
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
        if (events) print_events(stdout, &s, &names, i + 1, events);
        spx_step_stats st;
        spx_world_get_stats(s.w, &st);
        points += st.contact_point_count;
        if (st.contact_point_count > r.peak_points) r.peak_points = st.contact_point_count;
        r.points = st.contact_point_count, r.manifolds = st.manifold_count;
        r.broad_ms += st.broad_ms, r.narrow_ms += st.narrow_ms, r.solver_ms += st.solver_ms,
            r.island_ms += st.island_ms;
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
    free(names.body_of_slot);
    measure_destroy(m);
    scene_free(&s);
    return status;
}
