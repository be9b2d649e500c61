/* How much stack a world step and the largest queries take: each runs on a thread whose stack was
   painted beforehand, and the depth it wrote to is read back. Hosts step worlds on job-system fibers
   with small stacks; docs/decisions.md gives the budget this checks (optimised builds without a
   sanitizer, whose frames are larger: there the figures are printed only). */
#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstack */
#include "support/test.h"
#include "support/pieces.h"
#include "support/scenes.h"
#include "support/shapes.h"

#include <dirent.h>
#include <pthread.h>
#include <sepax/sepax.h>
#include <stdlib.h>
#ifdef SPX_TEST_HAVE_SCENE_FILES
#include "scene.h"
#endif

/* The budget of docs/decisions.md, in bytes. */
#define STACK_BUDGET (112 * 1024)
#define STACK_SIZE (1024 * 1024)
#define PAINT 0xA5u

#if defined(__OPTIMIZE__) && !TEST_SANITIZED
#define STACK_CHECKED 1
#else
#define STACK_CHECKED 0
#endif

typedef struct job {
    int (*run)(void* context);
    void* context;
    int status;
} job;

static void* job_main(void* arg)
{
    job* j = arg;
    j->status = j->run(j->context);
    return NULL;
}

/* Bytes of the painted stack `run` wrote to, thread start-up included; -1 when no thread could run. */
static long stack_used(int (*run)(void*), void* context, int* status)
{
    unsigned char* stack = malloc(STACK_SIZE);
    if (!stack) return -1;
    memset(stack, PAINT, STACK_SIZE);
    pthread_attr_t attr;
    pthread_t thread;
    job j = { run, context, 1 };
    long used = -1;
    if (pthread_attr_init(&attr) == 0) {
        if (pthread_attr_setstack(&attr, stack, STACK_SIZE) == 0 && pthread_create(&thread, &attr, job_main, &j) == 0) {
            pthread_join(thread, NULL);
            size_t untouched = 0; /* the stack grows down on every target this runs on */
            while (untouched < STACK_SIZE && stack[untouched] == PAINT) ++untouched;
            used = (long)(STACK_SIZE - untouched);
        }
        pthread_attr_destroy(&attr);
    }
    free(stack);
    *status = j.status;
    return used;
}

static int nothing(void* context)
{
    (void)context;
    return 0;
}

/* What `run` itself takes: its measure less the thread's own start-up. */
static long stack_of(const char* name, int (*run)(void*), void* context, int* failures)
{
    int status = 0;
    const long base = stack_used(nothing, NULL, &status);
    const long used = stack_used(run, context, &status);
    const long own = used - base;
    printf("  %-36s %6ld bytes%s\n", name, own, status ? "  (the job failed)" : "");
    if (used < 0 || base < 0 || status != 0 || (STACK_CHECKED && own > STACK_BUDGET)) ++*failures;
    return own;
}

/* ---- hulls of the most corners --------------------------------------------------------------- */

typedef struct hulls {
    spx_hull* ball;  /* SPX_HULL_MAX_CORNERS corners spread over a sphere */
    spx_hull* prism; /* two caps of SPX_HULL_MAX_CORNERS / 2 corners: the largest faces to clip */
    spx_mesh* grid;
    spx_mesh_instance* ground;
} hulls;

static int hulls_make(hulls* h)
{
    memset(h, 0, sizeof *h);
    static spx_vec3 points[SPX_HULL_MAX_CORNERS];
    const uint32_t n = SPX_HULL_MAX_CORNERS;
    for (uint32_t i = 0; i < n; ++i) { /* a Fibonacci sphere of radius 1 */
        const float z = 1.0f - 2.0f * ((float)i + 0.5f) / (float)n;
        const float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
        const float t = 2.399963f * (float)i;
        points[i] = (spx_vec3){ r * cosf(t), r * sinf(t), z };
    }
    spx_hull_def def = spx_default_hull_def();
    def.points = points;
    def.point_count = n;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h->ball), SPX_OK);
    const uint32_t cap = SPX_HULL_MAX_CORNERS / 2;
    for (uint32_t i = 0; i < cap; ++i) {
        const float t = 6.2831853f * (float)i / (float)cap;
        points[2 * i] = (spx_vec3){ cosf(t), 0.25f, sinf(t) };
        points[2 * i + 1] = (spx_vec3){ cosf(t), -0.25f, sinf(t) };
    }
    def.point_count = 2 * cap;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h->prism), SPX_OK);
    test_shape grid;
    TEST_ENSURE(test_shape_grid(&grid, 16, 16));
    spx_mesh_def md = test_shape_mesh_def(&grid, 4);
    const spx_result made = spx_mesh_create(&md, &h->grid);
    test_shape_free(&grid);
    TEST_ENSURE_CODE(made, SPX_OK);
    spx_transform pose = { { -8.0f, 0.0f, -8.0f }, { 0.0f, 0.0f, 0.0f, 1.0f } };
    TEST_ENSURE_CODE(test_place_mesh(h->grid, pose, &h->ground), SPX_OK);
    return 0;
}

static void hulls_free(hulls* h)
{
    spx_mesh_instance_destroy(h->ground);
    spx_mesh_destroy(h->grid);
    spx_hull_destroy(h->ball);
    spx_hull_destroy(h->prism);
}

static spx_placed_hull placed(const spx_hull* hull, spx_vec3 at)
{
    spx_placed_hull p = { hull, at, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
    return p;
}

/* Two copies of one hull, the second at `offset`, touching: at least `points` manifold points. */
typedef struct hull_touch {
    const spx_hull* hull;
    spx_vec3 offset;
    int points;
} hull_touch;

static int hull_manifold(void* c)
{
    const hull_touch* t = c;
    const spx_placed_hull a = placed(t->hull, (spx_vec3){ 0, 0, 0 }), b = placed(t->hull, t->offset);
    spx_manifold m;
    TEST_ENSURE_CODE(spx_manifold_hull_hull(&a, &b, 0.05f, &m), SPX_OK);
    TEST_ENSURE(m.point_count >= t->points);
    return 0;
}

static int ball_sweep(void* c)
{
    const hulls* h = c;
    const spx_placed_hull a = placed(h->ball, (spx_vec3){ 0, 0, 0 }), b = placed(h->prism, (spx_vec3){ 0, 4, 0 });
    spx_sweep_hit hit;
    TEST_ENSURE_CODE(spx_sweep_hull_hull(&a, (spx_vec3){ 0, 10, 0 }, &b, (spx_vec3){ 0, 0, 0 }, 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    return 0;
}

static int ball_penetration(void* c)
{
    const hulls* h = c;
    const spx_placed_hull a = placed(h->ball, (spx_vec3){ 0, 0, 0 }), b = placed(h->prism, (spx_vec3){ 0.2f, 1.0f, 0 });
    spx_penetration p;
    TEST_ENSURE_CODE(spx_penetration_hull_hull(&a, &b, &p), SPX_OK);
    TEST_ENSURE(p.overlapping);
    return 0;
}

static int prism_on_grid(void* c)
{
    const hulls* h = c;
    const spx_placed_hull a = placed(h->prism, (spx_vec3){ 0.1f, 0.24f, 0.1f });
    spx_manifold m[8];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_hull_mesh(&a, h->ground, 0.05f, m, 8, &count), SPX_OK);
    TEST_ENSURE(count >= 1);
    spx_mesh_contact contacts[64];
    spx_mesh_hit hit;
    const spx_placed_hull high = placed(h->prism, (spx_vec3){ 0.1f, 3.0f, 0.1f });
    TEST_ENSURE_CODE(
        spx_sweep_hull_mesh(&high, (spx_vec3){ 0, -10, 0 }, h->ground, (spx_vec3){ 0, 0, 0 }, 1.0f, contacts, 64, &hit),
        SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    return 0;
}

static int largest_hull_queries(void)
{
    hulls h;
    if (hulls_make(&h) != 0) return 1;
    int failures = 0;
    printf("queries on hulls of %d corners (budget %d bytes%s):\n", SPX_HULL_MAX_CORNERS, STACK_BUDGET,
           STACK_CHECKED ? "" : ", not checked in this build");
    hull_touch balls = { h.ball, { 0.3f, 1.9f, 0 }, 1 }, caps = { h.prism, { 0.5f, 0.49f, 0.2f }, 3 };
    stack_of("spx_manifold_hull_hull, balls", hull_manifold, &balls, &failures);
    stack_of("spx_manifold_hull_hull, prisms' caps", hull_manifold, &caps, &failures);
    stack_of("spx_sweep_hull_hull", ball_sweep, &h, &failures);
    stack_of("spx_penetration_hull_hull", ball_penetration, &h, &failures);
    stack_of("hull on a mesh: manifold, sweep", prism_on_grid, &h, &failures);
    hulls_free(&h);
    TEST_ENSURE(failures == 0);
    return 0;
}

/* ---- meshes against meshes ------------------------------------------------------------------- */

typedef struct balls {
    spx_mesh* mesh;
    spx_mesh_instance* a;
    spx_mesh_instance* b;
} balls;

static int mesh_pairs(void* c)
{
    const balls* m = c;
    spx_manifold out[16];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(m->a, m->b, 0.05f, out, 16, &count), SPX_OK);
    TEST_ENSURE(count >= 1);
    bool overlap = false;
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(m->a, m->b, &overlap), SPX_OK);
    TEST_ENSURE(overlap);
    return 0;
}

static int sunk_meshes(void)
{
    test_shape s;
    TEST_ENSURE(test_shape_solid_sphere(&s, 1.0f, 24, 48));
    balls m = { 0 };
    spx_mesh_def def = test_shape_mesh_def(&s, 4);
    const spx_result made = spx_mesh_create(&def, &m.mesh);
    test_shape_free(&s);
    TEST_ENSURE_CODE(made, SPX_OK);
    spx_mass_properties mass; /* a solid, wound outward, as the world's moving meshes */
    TEST_ENSURE_CODE(spx_mass_mesh(m.mesh, 1000.0f, &mass), SPX_OK);
    TEST_ENSURE_CODE(test_place_mesh(m.mesh, (spx_transform){ { 0, 0, 0 }, { 0, 0, 0, 1 } }, &m.a), SPX_OK);
    TEST_ENSURE_CODE(test_place_mesh(m.mesh, (spx_transform){ { 1.97f, 0.02f, 0 }, { 0, 0, 0, 1 } }, &m.b), SPX_OK);
    int failures = 0;
    printf("meshes sunk into each other:\n");
    stack_of("spx_manifold_mesh_mesh, overlap", mesh_pairs, &m, &failures);
    spx_mesh_instance_destroy(m.a);
    spx_mesh_instance_destroy(m.b);
    spx_mesh_destroy(m.mesh);
    TEST_ENSURE(failures == 0);
    return 0;
}

/* ---- the world's step on every scene of scenes/ ---------------------------------------------- */

#ifdef SPX_TEST_HAVE_SCENE_FILES
/* Steps each scene takes: its bodies meet within them (the sanitizers' builds, whose figures are not checked, fewer). */
#define STEPS (TEST_SANITIZED ? 8 : 90)

static int scene_steps(void* c)
{
    scene* s = c;
    for (int i = 0; i < STEPS; ++i) TEST_ENSURE_CODE(spx_world_step(s->w, s->dt), SPX_OK);
    return 0;
}

static int world_steps(void)
{
    DIR* d = opendir(SPX_SCENES_DIR);
    TEST_ENSURE(d != NULL);
    int failures = 0, scenes = 0;
    printf("a world step, the scenes of scenes/:\n");
    struct dirent* e;
    while ((e = readdir(d))) {
        const size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[1024], message[512];
        snprintf(path, sizeof path, "%s/%s", SPX_SCENES_DIR, e->d_name);
        scene s;
        if (scene_read_file(path, SCENE_UNKNOWN_KEY_ERROR, &s, message, sizeof message) &&
            scene_build(&s, message, sizeof message)) {
            stack_of(e->d_name, scene_steps, &s, &failures);
            ++scenes;
        } else if (!strstr(message, "built without assimp")) {
            fprintf(stderr, "%s: %s\n", e->d_name, message), ++failures;
        }
        scene_free(&s);
    }
    closedir(d);
    TEST_ENSURE(scenes >= 5);
    TEST_ENSURE(failures == 0);
    return 0;
}
#endif

int main(void)
{
    int failed = 0;
    failed |= largest_hull_queries();
    failed |= sunk_meshes();
#ifdef SPX_TEST_HAVE_SCENE_FILES
    failed |= world_steps();
#endif
    return failed;
}
