/* Bodies made overlapping (a crowd in one spot, a line): every step succeeds, no dynamic body keeps
   contacts with more than SPX_MAX_BODY_CONTACTS others, the step's manifolds stay within bodies x that
   limit, the broad phase meets at most a few times bodies x SPX_PAIR_FINDER_BODY_PAIRS leaf pairs in
   any update (the first included: 20,000 boxes in one spot overlap in 200 million pairs), no body is
   faster than max_push_speed sideways at any step (the push-out speed is shared among a body's
   overlapping manifolds, and a group pushed from many sides is solved split, its push leaving no
   speed; vertically gravity adds what boxes pushed up onto others gain falling back), the kinetic
   energy stays within what that allows, and the bodies spread. By default: 500 unit boxes in one
   spot for 60 and 400 steps, 50 in a line and 20 x 20 in a grid, each overlapping its neighbours,
   and the pair finder alone on 5,000 boxes in one spot; `--long` adds 2,000 in one spot for 60 steps
   and 20,000 for 10. */
#include "support/test.h"
#include "support/scenes.h"
#include "broad/pair_finder.h"
#include "dynamics/world.h"

#include <stdlib.h>
#include <time.h>

/* s of processor time used so far (what a step costs, whatever else the machine runs). */
static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Leaf pairs an update may meet for n moving bodies in one spot: its descents skip the parts of the
   tree whose bodies all have their SPX_PAIR_FINDER_BODY_PAIRS, and each box query of a moving body
   stops at them. */
static uint64_t pairs_met_bound(uint32_t n) { return 4u * (uint64_t)n * SPX_PAIR_FINDER_BODY_PAIRS; }

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The most other bodies any dynamic body has manifolds with, over the whole contact list (sorted by
   body pair, so a pair's manifolds are next to each other); `scratch` has room for every body slot. */
static uint32_t most_partners(const spx_world* w, uint32_t* scratch)
{
    memset(scratch, 0, sizeof *scratch * w->body_slots);
    uint32_t most = 0;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (k > 0 && w->contacts.list[k - 1].body_a == c->body_a && w->contacts.list[k - 1].body_b == c->body_b)
            continue;
        const uint32_t ends[2] = { c->body_a, c->body_b };
        for (int e = 0; e < 2; ++e)
            if (w->bodies[ends[e]].type == SPX_BODY_DYNAMIC && ++scratch[ends[e]] > most) most = scratch[ends[e]];
    }
    return most;
}

/* A default world with a static ground box 200 x 2 x 200 m, its top at y = 0; NULL if it fails. */
static spx_world* world_on_ground(void)
{
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    if (spx_world_create(&wd, &w) != SPX_OK) return NULL;
    spx_body_id ground_id;
    if (test_ground_box(w, spx_v3(100.0f, 1.0f, 100.0f), spx_default_body_def().friction, &ground_id) == SPX_OK)
        return w;
    spx_world_destroy(w);
    return NULL;
}

/* A unit box of density 1: 1 kg. */
static spx_shape_def unit_box_shape(void)
{
    spx_shape_def box = spx_default_shape_def();
    box.half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    box.density = 1.0f;
    return box;
}

/* n unit boxes (1 kg) resting on a ground box, made `spacing` m apart in rows of `row` along x, the
   rows `spacing` apart along z (0: all at one spot), `steps` steps of 1/60 s; `spread`: m the boxes
   must have spread along x by the end. */
static int crowd(uint32_t n, uint32_t row, uint32_t steps, float spacing, float spread, bool speed_checked)
{
    const spx_world_def wd = spx_default_world_def();
    spx_world* w = world_on_ground();
    TEST_ENSURE(w != NULL);
    const spx_shape_def box = unit_box_shape();
    spx_body_id* ids = malloc(sizeof *ids * n);
    TEST_ENSURE(ids != NULL);
    for (uint32_t i = 0; i < n; ++i) {
        spx_body_def bd = spx_default_body_def();
        bd.type = SPX_BODY_DYNAMIC;
        bd.position = spx_v3(spacing * (float)(i % row), 0.5f, spacing * (float)(i / row));
        bd.shapes = &box;
        bd.shape_count = 1;
        TEST_ENSURE(spx_body_create(w, &bd, &ids[i]) == SPX_OK);
    }
    uint32_t* partners = malloc(sizeof *partners * w->body_slots);
    TEST_ENSURE(partners != NULL);
    const float dt = 1.0f / 60.0f, g = 9.81f;
    /* Sideways, the push alone moves them: at most max_push_speed. Boxes pushed up onto others fall
       back: vertically gravity adds what a fall from the highest centre seen gives, and g dt. */
    float fastest = 0.0f, fastest_sideways = 0.0f, slowest_step = 0.0f, top = 0.5f, fastest_moved = 0.0f;
    /* The push may leave each box at most max_push_speed: the kinetic energy never exceeds
       n m max_push_speed^2 / 2 (1 kg each) and what the boxes lost falling from the highest
       potential energy seen so far (docs/world.md). */
    const float push_energy = 0.5f * (float)n * wd.max_push_speed * wd.max_push_speed;
    double highest_potential = 0.0;
    float most_energy = 0.0f, energy_bound = push_energy;
    uint32_t most_energy_step = 0, too_fast = 0, over_energy = 0; /* judged after the figures are printed */
    float* last_x = malloc(sizeof *last_x * n);
    TEST_ENSURE(last_x != NULL);
    for (uint32_t i = 0; i < n; ++i) last_x[i] = spacing * (float)(i % row);
    uint32_t fastest_step = 0, most_partnered = 0, most_manifolds = 0, limited_steps = 0;
    uint64_t most_met = 0;
    double first_cpu[3] = { 0, 0, 0 };
    for (uint32_t s = 0; s < steps; ++s) {
        const double t0 = seconds(), c0 = cpu_seconds();
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        const float took = (float)(seconds() - t0);
        if (s < 3) first_cpu[s] = cpu_seconds() - c0;
        if (took > slowest_step) slowest_step = took;
        spx_pair_finder_stats pf;
        spx_pair_finder_get_stats(w->pairs, &pf);
        if (pf.pairs_met > most_met) most_met = pf.pairs_met;
        TEST_ENSURE(pf.pairs_met <= pairs_met_bound(n));
        spx_step_stats st;
        TEST_ENSURE(spx_world_get_stats(w, &st) == SPX_OK);
        limited_steps += (st.flags & SPX_STEP_CONTACT_LIMIT) != 0;
        if (st.manifold_count > most_manifolds) most_manifolds = st.manifold_count;
        TEST_ENSURE(st.manifold_count <= n * SPX_MAX_BODY_CONTACTS);
        const uint32_t p = most_partners(w, partners);
        if (p > most_partnered) most_partnered = p;
        TEST_ENSURE(p <= SPX_MAX_BODY_CONTACTS);
        double potential = 0.0;
        for (uint32_t i = 0; i < n; ++i) {
            spx_vec3 v, av;
            TEST_ENSURE(spx_body_get_velocity(w, ids[i], &v, &av) == SPX_OK);
            spx_transform t;
            TEST_ENSURE(spx_body_get_transform(w, ids[i], &t) == SPX_OK);
            top = fmaxf(top, t.p.y);
            /* The push moves positions: how fast, along the line (printed, not judged). */
            fastest_moved = fmaxf(fastest_moved, fabsf(t.p.x - last_x[i]) / dt);
            last_x[i] = t.p.x;
            const float speed = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z), sideways = sqrtf(v.x * v.x + v.z * v.z);
            potential += (double)g * (double)(t.p.y - 0.5f);
            fastest = fmaxf(fastest, speed);
            if (sideways > fastest_sideways) fastest_sideways = sideways, fastest_step = s + 1;
            too_fast += sideways > wd.max_push_speed;
            too_fast += speed > wd.max_push_speed + sqrtf(2.0f * g * (top - 0.5f)) + g * dt;
        }
        double kinetic = 0.0;
        TEST_ENSURE(spx_world_get_kinetic_energy(w, &kinetic) == SPX_OK);
        const float energy = (float)kinetic;
        if (potential > highest_potential) highest_potential = potential;
        const float bound = push_energy + (float)(highest_potential - potential);
        if (energy > most_energy) most_energy = energy, most_energy_step = s + 1, energy_bound = bound;
        over_energy += energy > bound;
    }
    float x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
        spx_transform t;
        spx_body_get_transform(w, ids[i], &t);
        x0 = fminf(x0, t.p.x), x1 = fmaxf(x1, t.p.x), z0 = fminf(z0, t.p.z), z1 = fmaxf(z1, t.p.z);
    }
    printf("  %u boxes %.2f m apart, %u steps: fastest %.2f m/s, sideways %.2f m/s at step %u (max_push_speed %.1f), "
           "moved along "
           "x at %.2f m/s at most, highest centre %.2f m, at most %u partners a body (limit %u), %u manifolds at most, "
           "limit applied in %u steps, "
           "broad phase met %llu leaf pairs at most in a step, processor time of the first steps %.3f %.3f %.3f s, "
           "slowest step %.3f s, spread %.2f x %.2f m, kinetic energy %.1f J at most (step %u, bound there %.1f J)\n",
           (unsigned)n, spacing, (unsigned)steps, fastest, fastest_sideways, (unsigned)fastest_step, wd.max_push_speed,
           fastest_moved, top, (unsigned)most_partnered, (unsigned)SPX_MAX_BODY_CONTACTS, (unsigned)most_manifolds,
           (unsigned)limited_steps, (unsigned long long)most_met, first_cpu[0], first_cpu[1], first_cpu[2],
           slowest_step, x1 - x0, z1 - z0, most_energy, (unsigned)most_energy_step, energy_bound);
    TEST_ENSURE(!speed_checked || too_fast == 0);
    TEST_ENSURE(!speed_checked || over_energy == 0);
    TEST_ENSURE(limited_steps > 0 || n <= SPX_MAX_BODY_CONTACTS || spacing > 0.0f);
    TEST_ENSURE(x1 - x0 > spread);
    free(ids);
    free(partners);
    free(last_x);
    spx_world_destroy(w);
    return 0;
}

/* A tower of 50 unit boxes, sleeping off (deeper than the contact spring holds: its island is solved
   apart with more substeps), beside 30 boxes made 0.2 m apart in a line (solved split): in one world,
   the line's boxes stay under max_push_speed sideways at every step and the tower's top within 1 cm. */
static int line_beside_tower(void)
{
    const spx_world_def wd = spx_default_world_def();
    spx_world* w = world_on_ground();
    TEST_ENSURE(w != NULL);
    const spx_shape_def box = unit_box_shape();
    enum { TOWER = 50, LINE = 30 };
    spx_body_id ids[TOWER + LINE];
    for (int i = 0; i < TOWER + LINE; ++i) {
        spx_body_def bd = spx_default_body_def();
        bd.type = SPX_BODY_DYNAMIC;
        bd.enable_sleep = false;
        bd.position = i < TOWER ? spx_v3(-20.0f, 0.5f + (float)i, 0.0f) : spx_v3(0.2f * (float)(i - TOWER), 0.5f, 0.0f);
        bd.shapes = &box;
        bd.shape_count = 1;
        TEST_ENSURE(spx_body_create(w, &bd, &ids[i]) == SPX_OK);
    }
    float fastest = 0.0f, drift = 0.0f;
    for (int s = 0; s < 300; ++s) {
        TEST_ENSURE_CODE(spx_world_step(w, 1.0f / 60.0f), SPX_OK);
        for (int i = TOWER; i < TOWER + LINE; ++i) {
            spx_vec3 v, av;
            TEST_ENSURE(spx_body_get_velocity(w, ids[i], &v, &av) == SPX_OK);
            fastest = fmaxf(fastest, sqrtf(v.x * v.x + v.z * v.z));
        }
        spx_transform t;
        TEST_ENSURE(spx_body_get_transform(w, ids[TOWER - 1], &t) == SPX_OK);
        drift = fmaxf(drift, sqrtf((t.p.x + 20.0f) * (t.p.x + 20.0f) + t.p.z * t.p.z));
    }
    printf(
        "  line of %d beside a tower of %d: the line's fastest box %.2f m/s sideways, the tower's top off by %.4f m\n",
        LINE, TOWER, fastest, drift);
    TEST_ENSURE(fastest <= wd.max_push_speed);
    TEST_ENSURE(drift < 0.01f);
    spx_world_destroy(w);
    return 0;
}

/* The pair finder alone, n boxes in one spot, moving. Its first update (descents) and a later one
   in which a fifth of the boxes left their fat boxes (box queries), after one in which nothing
   changed, each meet at most pairs_met_bound(n) leaf pairs, where the n (n - 1) / 2 overlapping
   pairs are 5 times as many at n = 5,000; every box keeps pairs with others. */
static int finder_crowd(void)
{
    const uint32_t n = 5000;
    spx_pair_finder* f = NULL;
    TEST_ENSURE(spx_pair_finder_create(NULL, n, &f) == SPX_OK);
    for (int update = 0; update < 3; ++update) {
        for (uint32_t i = 0; i < n; ++i) {
            const float x = update == 2 && i % 5 == 0 ? 0.5f : 0.0f;
            const spx_aabb box = { { x - 0.5f, 0.0f, -0.5f }, { x + 0.5f, 1.0f, 0.5f } };
            TEST_ENSURE(spx_pair_finder_set(f, i, &box, true) == SPX_OK);
        }
        spx_pair_update u;
        TEST_ENSURE(spx_pair_finder_update(f, &u) == SPX_OK);
        spx_pair_finder_stats st;
        spx_pair_finder_get_stats(f, &st);
        printf("  %u boxes in one spot, update %d: %u pairs, %u box queries, %llu leaf pairs met (bound %llu)\n",
               (unsigned)n, update, (unsigned)u.count, (unsigned)st.queries, (unsigned long long)st.pairs_met,
               (unsigned long long)pairs_met_bound(n));
        TEST_ENSURE(st.pairs_met <= pairs_met_bound(n));
        TEST_ENSURE(u.count >= n / 2 && u.count <= (uint64_t)n * SPX_PAIR_FINDER_BODY_PAIRS);
        uint8_t* paired = calloc(n, 1);
        TEST_ENSURE(paired != NULL);
        for (uint32_t k = 0; k < u.count; ++k) paired[u.pairs[k].a] = paired[u.pairs[k].b] = 1;
        uint32_t alone = 0;
        for (uint32_t i = 0; i < n; ++i) alone += !paired[i];
        free(paired);
        TEST_ENSURE(alone == 0);
    }
    spx_pair_finder_destroy(f);
    return 0;
}

/* Each of a body's 32 deep manifolds pushes at a 32nd of max_push_speed: a crowd spreads slowly. */
static int crowd_of_500(void) { return crowd(500, 1, 60, 0.0f, 0.5f, true); }
/* 400 steps: the crowd spreads until boxes fall asleep against each other, and a sleeping body's
   manifolds at rest count in its partners. */
static int crowd_of_500_resting(void) { return crowd(500, 1, 400, 0.0f, 2.0f, true); }
/* Each box overlaps the four on either side by 0.2 to 0.8 m: every one pushes its neighbours, and the
   ends of the line are pushed through all of them. Made 9.8 m long. */
static int line_of_50(void) { return crowd(50, 50, 300, 0.2f, 12.0f, true); }
/* 20 x 20 boxes 0.25 m apart: each overlaps up to 48 others, the corners are pushed through them all. */
static int grid_of_400(void) { return crowd(400, 20, 300, 0.25f, 6.0f, true); }
static int crowd_of_2000(void) { return crowd(2000, 1, 60, 0.0f, 0.5f, true); }
static int crowd_of_20000(void) { return crowd(20000, 1, 10, 0.0f, 0.1f, true); }

int main(int argc, char** argv)
{
    const bool long_run = test_long_run(argc, argv); /* the crowds of 2,000 and 20,000 */
    int failures = 0;
    TEST_RUN(finder_crowd, failures);
    TEST_RUN(crowd_of_500, failures);
    TEST_RUN(crowd_of_500_resting, failures);
    TEST_RUN(line_of_50, failures);
    TEST_RUN(grid_of_400, failures);
    TEST_RUN(line_beside_tower, failures);
    if (long_run) {
        TEST_RUN(crowd_of_2000, failures);
        TEST_RUN(crowd_of_20000, failures);
    }
    printf("%d failed\n", failures);
    return failures != 0;
}
