/* Bodies made overlapping in one spot (a crowd): every step succeeds, no dynamic body keeps contacts
   with more than SPX_MAX_BODY_CONTACTS others, the step's manifolds stay within bodies x that limit,
   the bodies come apart no faster than max_push_speed sideways (the push-out speed is shared among a
   body's overlapping manifolds, not summed over them; vertically gravity adds what boxes pushed up
   onto others gain falling back), and the crowd spreads. 500 unit boxes for 60 steps by default;
   `--long` adds 2,000 for 60 steps and 20,000 for 10 (the broad phase keeps
   SPX_PAIR_FINDER_BODY_PAIRS pairs a body, where it held all 200 million and every step ran out of
   memory). */
#include "support/test.h"
#include "dynamics/world.h"

#include <stdlib.h>
#include <time.h>

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Other bodies that dynamic body `body` has manifolds with (the list is sorted by body pair). */
static uint32_t partners_of(const spx_world* w, uint32_t body)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (c->body_a != body && c->body_b != body) continue;
        if (k > 0 && w->contacts.list[k - 1].body_a == c->body_a && w->contacts.list[k - 1].body_b == c->body_b)
            continue;
        ++n;
    }
    return n;
}

/* n unit boxes (1 kg) made at one spot resting on a ground box, `steps` steps of 1/60 s; `spread`: m
   the crowd must have spread along x by the end. */
static int crowd(uint32_t n, uint32_t steps, float spread)
{
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    spx_shape_def ground = spx_default_shape_def();
    ground.half_extents = spx_v3(100.0f, 1.0f, 100.0f);
    spx_body_def gd = spx_default_body_def();
    gd.position = spx_v3(0.0f, -1.0f, 0.0f);
    gd.shapes = &ground;
    gd.shape_count = 1;
    spx_body_id ground_id;
    TEST_ENSURE(spx_body_create(w, &gd, &ground_id) == SPX_OK);
    spx_shape_def box = spx_default_shape_def();
    box.half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    box.density = 1.0f;
    spx_body_id* ids = malloc(sizeof *ids * n);
    TEST_ENSURE(ids != NULL);
    for (uint32_t i = 0; i < n; ++i) {
        spx_body_def bd = spx_default_body_def();
        bd.type = SPX_BODY_DYNAMIC;
        bd.position = spx_v3(0.0f, 0.5f, 0.0f);
        bd.shapes = &box;
        bd.shape_count = 1;
        TEST_ENSURE(spx_body_create(w, &bd, &ids[i]) == SPX_OK);
    }
    const float dt = 1.0f / 60.0f, g = 9.81f;
    /* Sideways, the push alone moves them: at most max_push_speed. Boxes pushed up onto others fall
       back: vertically gravity adds what a fall from the highest centre seen gives, and g dt. */
    float fastest = 0.0f, fastest_sideways = 0.0f, slowest_step = 0.0f, top = 0.5f;
    uint32_t most_partners = 0, most_manifolds = 0, limited_steps = 0;
    for (uint32_t s = 0; s < steps; ++s) {
        const double t0 = seconds();
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const float took = (float)(seconds() - t0);
        if (took > slowest_step) slowest_step = took;
        spx_step_stats st;
        TEST_ENSURE(spx_world_get_stats(w, &st) == SPX_OK);
        limited_steps += (st.flags & SPX_STEP_CONTACT_LIMIT) != 0;
        if (st.manifold_count > most_manifolds) most_manifolds = st.manifold_count;
        TEST_ENSURE(st.manifold_count <= n * SPX_MAX_BODY_CONTACTS);
        for (uint32_t i = 0; i < n; ++i) {
            spx_vec3 v, av;
            TEST_ENSURE(spx_body_get_velocity(w, ids[i], &v, &av) == SPX_OK);
            spx_transform t;
            TEST_ENSURE(spx_body_get_transform(w, ids[i], &t) == SPX_OK);
            top = fmaxf(top, t.p.y);
            const float speed = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z), sideways = sqrtf(v.x * v.x + v.z * v.z);
            fastest = fmaxf(fastest, speed), fastest_sideways = fmaxf(fastest_sideways, sideways);
            TEST_ENSURE(sideways <= wd.max_push_speed);
            TEST_ENSURE(speed <= wd.max_push_speed + sqrtf(2.0f * g * (top - 0.5f)) + g * dt);
            /* 20 bodies, every 10th step: the count walks the whole contact list */
            if (s % 10 == 0 && i % (n / 20) == 0) {
                const uint32_t p = partners_of(w, ids[i].index - 1);
                if (p > most_partners) most_partners = p;
            }
        }
    }
    float x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
        spx_transform t;
        spx_body_get_transform(w, ids[i], &t);
        x0 = fminf(x0, t.p.x), x1 = fmaxf(x1, t.p.x), z0 = fminf(z0, t.p.z), z1 = fmaxf(z1, t.p.z);
    }
    printf("  %u boxes in one spot, %u steps: fastest %.2f m/s, sideways %.2f m/s (max_push_speed %.1f), highest "
           "centre %.2f m, at most %u partners a body (limit %u), "
           "%u manifolds at most, limit applied in %u steps, slowest step %.3f s, spread %.2f x %.2f m\n",
           (unsigned)n, (unsigned)steps, fastest, fastest_sideways, wd.max_push_speed, top, (unsigned)most_partners,
           (unsigned)SPX_MAX_BODY_CONTACTS, (unsigned)most_manifolds, (unsigned)limited_steps, slowest_step, x1 - x0,
           z1 - z0);
    TEST_ENSURE(most_partners <= SPX_MAX_BODY_CONTACTS);
    TEST_ENSURE(limited_steps > 0);
    TEST_ENSURE(x1 - x0 > spread);
    free(ids);
    spx_world_destroy(w);
    return 0;
}

static int crowd_of_500(void) { return crowd(500, 60, 1.0f); }
static int crowd_of_2000(void) { return crowd(2000, 60, 1.0f); }
static int crowd_of_20000(void) { return crowd(20000, 10, 0.1f); }

int main(int argc, char** argv)
{
    bool long_run = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--long") == 0) {
            long_run = true;
        } else {
            fprintf(stderr, "usage: %s [--long]\n", argv[0]);
            return 2;
        }
    }
    int failures = 0;
    TEST_RUN(crowd_of_500, failures);
    if (long_run) {
        TEST_RUN(crowd_of_2000, failures);
        TEST_RUN(crowd_of_20000, failures);
    }
    printf("%d failed\n", failures);
    return failures != 0;
}
