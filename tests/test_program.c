/* The sepax program as its users run it: `sepax run --out F.csv --exact` writes trajectories that
   read back to the bits the world gave (checked against the same scene stepped here), `sepax run`
   and `sepax render` print a scene's contacts in the same words with the same counts, and
   `sepax run --events` prints every event the world gives, step by step. */
#define _POSIX_C_SOURCE 200809L
#include "support/test.h"
#include "scene.h"

#include <stdlib.h>
#include <unistd.h>

static char message[SCENE_MESSAGE_MAX];
static char folder[] = "/tmp/sepax-test-program.XXXXXX";
static const char* const scene_path = SPX_SCENES_DIR "/projectile.json";

/* Runs `command`, its stdout into out[0 .. size) (NUL-terminated); the exit status, -1 if it could not run. */
static int run(const char* command, char* out, size_t size)
{
    FILE* p = popen(command, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One CSV row: time, body, "name" (quotes doubled inside), 13 numbers. false when it does not parse. */
static bool read_row(FILE* f, double* time, unsigned* body, float x[13])
{
    char line[4096];
    if (!fgets(line, sizeof line, f)) return false;
    char* p = line;
    char* end;
    *time = strtod(p, &end);
    if (end == p || *end != ',') return false;
    p = end + 1;
    *body = (unsigned)strtoul(p, &end, 10);
    if (end == p || end[0] != ',' || end[1] != '"') return false;
    for (p = end + 2; *p && !(p[0] == '"' && p[1] != '"'); p += p[0] == '"' ? 2 : 1) {}
    if (*p++ != '"') return false;
    for (int k = 0; k < 13; ++k) {
        if (*p++ != ',') return false;
        x[k] = strtof(p, &end);
        if (end == p) return false;
        p = end;
    }
    return *p == '\n';
}

/* Compares the CSV written by `sepax run` with the scene stepped here: the number of values whose
   bits differ, -1 when the file does not match in shape. */
static long compare(const char* csv, uint32_t steps, long* values)
{
    scene s;
    if (!scene_read_file(scene_path, SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message) ||
        !scene_build(&s, message, sizeof message)) {
        fprintf(stderr, "%s\n", message);
        scene_free(&s);
        return -1;
    }
    FILE* f = fopen(csv, "r");
    char header[256];
    long differ = -1;
    *values = 0;
    if (!f || !fgets(header, sizeof header, f)) goto done;
    differ = 0;
    for (uint32_t step = 0; step <= steps && differ >= 0; ++step) {
        if (step > 0 && spx_world_step(s.w, s.dt) != SPX_OK) differ = -1;
        const double time = (double)step * (double)s.dt;
        for (uint32_t i = 0; i < s.body_count && differ >= 0; ++i) {
            if (s.bodies[i].def.type == SPX_BODY_STATIC) continue;
            spx_transform t;
            spx_vec3 v, w;
            double row_time;
            unsigned body;
            float x[13];
            if (spx_body_get_transform(s.w, s.ids[i], &t) != SPX_OK ||
                spx_body_get_velocity(s.w, s.ids[i], &v, &w) != SPX_OK || !read_row(f, &row_time, &body, x) ||
                body != i) {
                differ = -1;
                break;
            }
            const float want[13] = { t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w, v.x, v.y, v.z, w.x, w.y, w.z };
            differ += memcmp(&row_time, &time, sizeof time) != 0;
            for (int k = 0; k < 13; ++k) differ += memcmp(&x[k], &want[k], sizeof x[k]) != 0;
            *values += 14;
        }
    }
    if (differ >= 0 && fgets(header, sizeof header, f)) differ = -1; /* rows left over */
done:
    if (f) fclose(f);
    scene_free(&s);
    return differ;
}

/* --exact: every number of 60 steps of the projectile scene reads back to its bits; without it, many
   do not (which is why the mode exists). */
static int csv_exact_round_trips(void)
{
    char command[1024], out[8192], csv[128];
    const uint32_t steps = 60;
    long values = 0;
    snprintf(csv, sizeof csv, "%s/exact.csv", folder);
    snprintf(command, sizeof command, "'%s' run '%s' --steps %u --out '%s' --exact", SPX_SEPAX_PROGRAM, scene_path,
             steps, csv);
    TEST_ENSURE(run(command, out, sizeof out) == 0);
    const long exact = compare(csv, steps, &values);
    snprintf(csv, sizeof csv, "%s/plain.csv", folder);
    snprintf(command, sizeof command, "'%s' run '%s' --steps %u --out '%s'", SPX_SEPAX_PROGRAM, scene_path, steps, csv);
    TEST_ENSURE(run(command, out, sizeof out) == 0);
    long plain_values = 0;
    const long plain = compare(csv, steps, &plain_values);
    printf("csv: %ld values; with --exact %ld differ in their bits, without %ld\n", values, exact, plain);
    TEST_ENSURE(values > 1000 && plain_values == values);
    TEST_ENSURE(exact == 0);
    TEST_ENSURE(plain > values / 4);
    /* --exact alone is a usage error: it has nothing to write. */
    snprintf(command, sizeof command, "'%s' run '%s' --steps 1 --exact 2>/dev/null", SPX_SEPAX_PROGRAM, scene_path);
    TEST_ENSURE(run(command, out, sizeof out) == 2);
    return 0;
}

/* The text after `key` up to the first of `stops` (or the end of the line), copied into out. */
static bool after(const char* text, const char* key, const char* stops, char* out, size_t size)
{
    const char* p = strstr(text, key);
    if (!p) return false;
    p += strlen(key);
    size_t n = strcspn(p, stops);
    if (n >= size) return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

/* After the same steps, run's summary and render's last frame give the same contact counts in the
   same words: the solver's points and manifolds, and the touching points. */
static int run_and_render_count_alike(void)
{
    static char run_out[16384], render_out[16384];
    char command[1024], from_run[256], from_render[256];
    const uint32_t steps = 40;
    snprintf(command, sizeof command, "'%s' run '%s' --steps %u", SPX_SEPAX_PROGRAM, scene_path, steps);
    TEST_ENSURE(run(command, run_out, sizeof run_out) == 0);
    snprintf(command, sizeof command, "'%s' render '%s' --steps %u --frames 2 --size 320x180 --out '%s/pictures'",
             SPX_SEPAX_PROGRAM, scene_path, steps, folder);
    TEST_ENSURE(run(command, render_out, sizeof render_out) == 0);
    TEST_ENSURE(after(run_out, "contacts      last step: ", ";\n", from_run, sizeof from_run));
    char frame[512];
    TEST_ENSURE(after(render_out, "frame-001.png", "\n", frame, sizeof frame));
    TEST_ENSURE(after(frame, "contacts: ", "\n", from_render, sizeof from_render));
    printf("run:    %s\nrender: %s\n", from_run, from_render);
    TEST_ENSURE(strstr(from_run, "solver points") && strstr(from_run, "touching"));
    TEST_ENSURE(strcmp(from_run, from_render) == 0);
    return 0;
}

/* `sepax run --events`: one line an event, "STEP KIND ...", each step's lines in the world's order;
   per step and kind as many lines as the world stepped here gives events, the same text on a second
   run, bodies named by their number in the file (the trigger zone is body 1, the ice block that
   enters it first body 2). */
enum {
    KIND_CONTACT_BEGIN,
    KIND_CONTACT_END,
    KIND_HIT,
    KIND_SENSOR_BEGIN,
    KIND_SENSOR_END,
    KIND_MOVE,
    KIND_SLEEP,
    KIND_WAKE,
    KIND_COUNT
};
static const char* const kind_names[KIND_COUNT] = {
    [KIND_CONTACT_BEGIN] = "contact_begin",
    [KIND_CONTACT_END] = "contact_end",
    [KIND_HIT] = "hit",
    [KIND_SENSOR_BEGIN] = "sensor_begin",
    [KIND_SENSOR_END] = "sensor_end",
    [KIND_MOVE] = "move",
    [KIND_SLEEP] = "sleep",
    [KIND_WAKE] = "wake",
};
#define EVENT_STEPS 240

static int run_prints_events(void)
{
    static char out[1 << 20], again[1 << 20];
    static unsigned printed[EVENT_STEPS + 1][KIND_COUNT], stepped[EVENT_STEPS + 1][KIND_COUNT];
    memset(printed, 0, sizeof printed), memset(stepped, 0, sizeof stepped);
    const char* const path = SPX_SCENES_DIR "/filters-sensors.json";
    char command[1024];
    snprintf(command, sizeof command, "'%s' run '%s' --steps %d --events", SPX_SEPAX_PROGRAM, path, EVENT_STEPS);
    TEST_ENSURE(run(command, out, sizeof out) == 0);
    TEST_ENSURE(strlen(out) < sizeof out - 1);
    TEST_ENSURE(run(command, again, sizeof again) == 0);
    /* Event lines come before the summary, whose lines start with a word (and which holds times). */
    const char* summary = strstr(out, "\nscene ");
    TEST_ENSURE(summary && strncmp(out, again, (size_t)(summary - out) + 1) == 0);
    unsigned lines = 0;
    const char* first_sensor = NULL;
    for (const char* p = out; *p && *p >= '0' && *p <= '9'; p = strchr(p, '\n') + 1) {
        unsigned step;
        char kind[32];
        TEST_ENSURE(sscanf(p, "%u %31s", &step, kind) == 2 && step >= 1 && step <= EVENT_STEPS);
        int k = 0;
        while (k < KIND_COUNT && strcmp(kind, kind_names[k]) != 0) ++k;
        TEST_ENSURE(k < KIND_COUNT);
        ++printed[step][k];
        ++lines;
        if (k == KIND_SENSOR_BEGIN && !first_sensor) first_sensor = p;
        TEST_ENSURE(strchr(p, '\n'));
    }
    TEST_ENSURE(first_sensor && strncmp(strchr(first_sensor, ' '), " sensor_begin sensor=1:0 visitor=2:0\n", 37) == 0);
    /* The same scene stepped here. */
    scene s;
    TEST_ENSURE(scene_read_file(path, SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message));
    TEST_ENSURE(scene_build(&s, message, sizeof message));
    for (int step = 1; step <= EVENT_STEPS; ++step) {
        TEST_ENSURE(spx_world_step(s.w, s.dt) == SPX_OK);
        uint32_t n[KIND_COUNT] = { 0 };
        const spx_contact_event *cb, *ce;
        const spx_contact_hit_event* hits;
        const spx_sensor_event *sb, *se;
        const spx_body_move_event* moves;
        const spx_body_sleep_event* sleeps;
        spx_world_get_contact_events(s.w, &cb, &n[KIND_CONTACT_BEGIN], &ce, &n[KIND_CONTACT_END]);
        spx_world_get_hit_events(s.w, &hits, &n[KIND_HIT]);
        spx_world_get_sensor_events(s.w, &sb, &n[KIND_SENSOR_BEGIN], &se, &n[KIND_SENSOR_END]);
        uint32_t sleep_count = 0;
        spx_world_get_body_events(s.w, &moves, &n[KIND_MOVE], &sleeps, &sleep_count);
        for (uint32_t k = 0; k < sleep_count; ++k) ++n[sleeps[k].awake ? KIND_WAKE : KIND_SLEEP];
        for (int k = 0; k < KIND_COUNT; ++k) stepped[step][k] = n[k];
    }
    scene_free(&s);
    unsigned total[KIND_COUNT] = { 0 };
    for (int step = 1; step <= EVENT_STEPS; ++step)
        for (int k = 0; k < KIND_COUNT; ++k) {
            if (printed[step][k] != stepped[step][k])
                fprintf(stderr, "step %d %s: printed %u, the world gives %u\n", step, kind_names[k], printed[step][k],
                        stepped[step][k]);
            TEST_ENSURE(printed[step][k] == stepped[step][k]);
            total[k] += printed[step][k];
        }
    printf("events: %u lines;", lines);
    for (int k = 0; k < KIND_COUNT; ++k) printf(" %s %u", kind_names[k], total[k]);
    printf("\n");
    /* The scene has most kinds: boxes landing with hits, sensors entered and left, bodies falling asleep
       (no contact ends nor wakes: nothing parts once it lands). */
    for (int k = 0; k < KIND_COUNT; ++k) TEST_ENSURE(k == KIND_WAKE || k == KIND_CONTACT_END || total[k] > 0);
    /* Some kinds only, and a kind that does not exist. */
    snprintf(command, sizeof command, "'%s' run '%s' --steps %d --events=sensor", SPX_SEPAX_PROGRAM, path, EVENT_STEPS);
    TEST_ENSURE(run(command, again, sizeof again) == 0);
    unsigned sensor_lines = 0;
    for (const char* p = again; *p && *p >= '0' && *p <= '9'; p = strchr(p, '\n') + 1) {
        TEST_ENSURE(strstr(p, " sensor_") && strstr(p, " sensor_") < strchr(p, '\n'));
        ++sensor_lines;
    }
    TEST_ENSURE(sensor_lines == total[KIND_SENSOR_BEGIN] + total[KIND_SENSOR_END]);
    snprintf(command, sizeof command, "'%s' run '%s' --steps 1 --events=sound 2>/dev/null", SPX_SEPAX_PROGRAM, path);
    TEST_ENSURE(run(command, again, sizeof again) == 2);
    return 0;
}

/* `sepax render --contacts --joints` draws through the world's debug drawing and still writes its frames. */
static int render_draws_contacts(void)
{
    static char out[16384];
    char command[1024];
    snprintf(command, sizeof command,
             "'%s' render '%s' --steps 20 --frames 2 --size 160x90 --contacts --joints --out '%s/marks'",
             SPX_SEPAX_PROGRAM, scene_path, folder);
    TEST_ENSURE(run(command, out, sizeof out) == 0);
    TEST_ENSURE(strstr(out, "frame-001.png"));
    return 0;
}

int main(void)
{
    if (!mkdtemp(folder)) {
        perror("mkdtemp");
        return 1;
    }
    int failures = 0;
    TEST_RUN(csv_exact_round_trips, failures);
    TEST_RUN(run_and_render_count_alike, failures);
    TEST_RUN(run_prints_events, failures);
    TEST_RUN(render_draws_contacts, failures);
    char command[256];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
    return failures ? 1 : 0;
}
