/* The continuous stage's calm pairs (docs/continuous.md, "Calm pairs"): after an impact, two dynamic
   bodies neither of which can move more than a calm body over the rest of the step are left to the
   next step's solver; a body that is still quick is searched against every neighbour. */
#include "support/test.h"
#include "support/scenes.h"
#include <sepax/sepax.h>
#include <math.h>

static const float dt = 1.0f / 60.0f;
static const spx_quat identity = { 0, 0, 0, 1 };

static spx_world* still_world(void)
{
    spx_world_def wd = spx_default_world_def();
    wd.gravity = spx_v3(0.0f, 0.0f, 0.0f);
    wd.enable_sleep = false;
    return test_world_create(&wd);
}

static spx_body_id box(spx_world* w, spx_vec3 p, spx_vec3 half, float density, spx_vec3 v)
{
    spx_body_def d = test_undamped_body_def(SPX_BODY_DYNAMIC, p, identity, 0.6f, 0.0f);
    d.linear_velocity = v;
    spx_shape_def s = test_box_shape(half);
    s.density = density;
    return test_body_create(w, d, s, NULL);
}

static double kinetic(const spx_world* w)
{
    double e = 0.0;
    spx_world_get_kinetic_energy(w, &e);
    return e;
}

/* A 0.1 m cube shot down at a pile of two still plates 2 cm thick, the upper one light, 0.25 m above
   the lower: the cube takes the upper plate with it at nearly its own speed and meets the lower one
   within the same step. The cube and the upper plate are quick after that impact, the lower plate is
   calm: were a quick body searched against calm neighbours no more, both would pass through it. 100 to
   2,000 m/s, arriving in the third step at 8 phases over it, 8 steps, aimed at the middle (off it, the plates tumble and their centres cross);
   every step: the cube's centre and the upper plate's above the lower plate's, everything finite, the kinetic energy never above its start. */
static int quick_body_meets_calm_plate(void)
{
    static const float speeds[3] = { 100.0f, 500.0f, 2000.0f };
    const spx_vec3 plate = { 0.5f, 0.01f, 0.5f }, cube = { 0.05f, 0.05f, 0.05f };
    float worst = -INFINITY;
    for (int si = 0; si < 3; ++si)
        for (int phase = 0; phase < 8; ++phase) {
            spx_world* w = still_world();
            TEST_ENSURE(w);
            const float v0 = speeds[si];
            spx_body_id ids[3];
            ids[0] = box(w, spx_v3(0, 0, 0), plate, 1000.0f, spx_v3(0, 0, 0));
            ids[1] = box(w, spx_v3(0, 0.26f, 0), plate, 10.0f, spx_v3(0, 0, 0));
            const float y0 = 0.27f + 0.05f + v0 * dt * (2.0f + (float)phase / 8.0f);
            ids[2] = box(w, spx_v3(0, y0, 0), cube, 1000.0f, spx_v3(0, -v0, 0));
            const double e0 = kinetic(w);
            double rise = 0.0;
            for (int k = 0; k < 8; ++k) {
                TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
                /* Through: the cube's or the upper plate's centre below the lower plate's. */
                const float y = test_body_position(w, ids[0]).y;
                const float below = fmaxf(y - test_body_position(w, ids[2]).y, y - test_body_position(w, ids[1]).y);
                TEST_ENSURE(!isnan(below) && below < INFINITY);
                if (below > worst) worst = below;
                if (below > 0.0f)
                    fprintf(stderr, "through: v %g phase %d step %d: %g m\n", (double)v0, phase, k, (double)below);
                TEST_ENSURE(below <= 0.0f);
                rise = fmax(rise, kinetic(w) - e0);
            }
            TEST_ENSURE(rise <= 1e-6 * e0);
            spx_world_destroy(w);
        }
    printf("  24 shots: the cube or the upper plate at least %.4f m above the lower plate\n", (double)-worst);
    return 0;
}

/* A row of 24 still 1 m boxes (1,000 kg) 1 mm apart, struck at one end by a 0.1 m cube (1 kg) at
   2,000 m/s. The impact's group takes the first 16 boxes, which then close on the rest at 12.5 cm/s, 2 mm
   over the rest of the step: calm bodies, each pair of which the stage leaves to the next step's
   solver (searched, they are struck one pair at a time: 8 impacts in that step). So the step has the
   strike alone; every step no two neighbours overlap by a quarter of the speculative distance, the
   energy never rises and the momentum is kept. */
static int calm_pairs_left_to_solver(void)
{
    enum { ROW = 24 };
    spx_world* w = still_world();
    TEST_ENSURE(w);
    const spx_vec3 half = { 0.5f, 0.5f, 0.5f }, cube = { 0.05f, 0.05f, 0.05f };
    const float v0 = 2000.0f, gap = 0.001f;
    spx_body_id ids[ROW + 1];
    for (int k = 0; k < ROW; ++k)
        ids[k] = box(w, spx_v3((float)k * (1.0f + gap), 0, 0), half, 1000.0f, spx_v3(0, 0, 0));
    ids[ROW] = box(w, spx_v3(-0.5f - 0.05f - 3.0f, 0, 0), cube, 1000.0f, spx_v3(v0, 0, 0));
    const double e0 = kinetic(w);
    uint32_t impacts = 0;
    float deepest = 0.0f;
    for (int k = 0; k < 8; ++k) {
        TEST_ENSURE_CODE(spx_world_step(w, dt), SPX_OK);
        spx_step_stats st;
        spx_world_get_stats(w, &st);
        if (k == 0) impacts = st.impact_count;
        for (int i = 0; i + 1 < ROW; ++i)
            deepest = fmaxf(deepest, 1.0f - (test_body_position(w, ids[i + 1]).x - test_body_position(w, ids[i]).x));
        TEST_ENSURE(kinetic(w) <= e0 * (1.0 + 1e-6));
    }
    spx_vec3 p = { 0, 0, 0 };
    for (int k = 0; k <= ROW; ++k) {
        spx_vec3 v, om;
        float m = 0.0f;
        TEST_ENSURE_CODE(spx_body_get_velocity(w, ids[k], &v, &om), SPX_OK);
        TEST_ENSURE_CODE(spx_body_get_mass(w, ids[k], &m), SPX_OK);
        p.x += m * v.x, p.y += m * v.y, p.z += m * v.z;
    }
    printf("  impacts in the first step %u; deepest overlap of two neighbours %.5f m; momentum %.6g of %g kg m/s\n",
           impacts, (double)deepest, (double)p.x, (double)v0);
    TEST_ENSURE(impacts == 1);
    TEST_ENSURE(deepest < 0.25f * 0.04f);
    TEST_ENSURE(fabsf(p.x - v0) < 1e-3f * v0 && fabsf(p.y) + fabsf(p.z) < 1e-3f * v0);
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(quick_body_meets_calm_plate, failures);
    TEST_RUN(calm_pairs_left_to_solver, failures);
    printf("%d failed\n", failures);
    return failures != 0;
}
