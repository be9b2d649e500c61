/* A box tumbling at 5 to 10 rad/s lands on the ground, or on a box resting there, without the two
   overlapping by 1 cm at any step, for spins about several axes, for the boxes made in either order
   and for the whole problem moved far from the origin; nothing non-finite at any step. (Two boxes
   both tumbling into each other, and the falling piles, do not hold 1 cm at every step yet:
   bench/results/vm/pile-20261129-tumbling.md.) */
#include "support/scenes.h"
#include "support/test.h"
#include <sepax/collide.h>
#include <sepax/world.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MOST_OVERLAP 0.01f
#define STEPS 120
#define DT (1.0f / 60.0f)

typedef struct tumble_case {
    float spin;    /* rad/s */
    spx_vec3 axis; /* unit */
    bool on_box;   /* onto a resting box, else onto the ground */
    bool resting_first;
    spx_vec3 shift; /* the whole problem moved by this (x, z) */
} tumble_case;

static spx_body_id add_box(spx_world* w, spx_body_type type, spx_vec3 p, spx_quat q, spx_vec3 half, spx_vec3 v,
                           spx_vec3 spin)
{
    spx_shape_def s = test_box_shape(half);
    s.density = 1.0f;
    spx_body_def b = test_body_def(type, p);
    b.rotation = q;
    b.linear_velocity = v;
    b.angular_velocity = spin;
    return test_body_create(w, b, s, NULL);
}

static spx_obb box_of(spx_world* w, spx_body_id id, spx_vec3 half)
{
    spx_transform t;
    spx_body_get_transform(w, id, &t);
    spx_obb o;
    memset(&o, 0, sizeof o);
    if (spx_obb_from_quat(t.p, half, t.q, &o) != SPX_OK) o.center.x = NAN;
    return o;
}

/* Deepest overlap of the tumbling box with the ground or the resting box over the steps, in *out. */
static int run_case(const tumble_case* c, float* out)
{
    spx_world_def wd = spx_default_world_def();
    spx_world* w = NULL;
    TEST_ENSURE(spx_world_create(&wd, &w) == SPX_OK);
    const spx_vec3 unit = spx_v3(0.5f, 0.5f, 0.5f), ground_half = spx_v3(30.0f, 0.5f, 30.0f);
    const spx_quat still = { 0.0f, 0.0f, 0.0f, 1.0f };
    const float x = c->shift.x, z = c->shift.z;
    /* Tilted a little, dropped from 1.2 m above where it lands, thrown down and sideways. */
    const float half_angle = 0.2f;
    const spx_quat tilt = { 0.6f * sinf(half_angle), 0.0f, 0.8f * sinf(half_angle), cosf(half_angle) };
    const float land = c->on_box ? 1.5f : 0.5f;
    const spx_vec3 start = spx_v3(x - 0.3f, land + 1.2f, z + 0.1f);
    const spx_vec3 spin = spx_v3(c->spin * c->axis.x, c->spin * c->axis.y, c->spin * c->axis.z);
    const spx_vec3 throw = spx_v3(0.6f, -1.0f, 0.2f);
    const spx_body_id ground =
        add_box(w, SPX_BODY_STATIC, spx_v3(x, -0.5f, z), still, ground_half, spx_v3(0, 0, 0), spx_v3(0, 0, 0));
    spx_body_id resting = { 0 }, tumbling;
    const spx_vec3 rest_at = spx_v3(x, 0.5f, z);
    if (c->on_box && c->resting_first)
        resting = add_box(w, SPX_BODY_DYNAMIC, rest_at, still, unit, spx_v3(0, 0, 0), spx_v3(0, 0, 0));
    tumbling = add_box(w, SPX_BODY_DYNAMIC, start, tilt, unit, throw, spin);
    if (c->on_box && !c->resting_first)
        resting = add_box(w, SPX_BODY_DYNAMIC, rest_at, still, unit, spx_v3(0, 0, 0), spx_v3(0, 0, 0));
    TEST_ENSURE(ground.index != 0 && tumbling.index != 0 && (!c->on_box || resting.index != 0));
    float most = 0.0f;
    for (int step = 1; step <= STEPS; ++step) {
        TEST_ENSURE(spx_world_step(w, DT) == SPX_OK);
        const spx_obb t = box_of(w, tumbling, unit);
        TEST_ENSURE(isfinite(t.center.x) && isfinite(t.center.y) && isfinite(t.center.z));
        spx_vec3 corners[8];
        spx_obb_get_corners(&t, corners);
        for (int k = 0; k < 8; ++k) most = fmaxf(most, -corners[k].y);
        if (c->on_box) {
            const spx_obb r = box_of(w, resting, unit);
            TEST_ENSURE(isfinite(r.center.x) && isfinite(r.center.y) && isfinite(r.center.z));
            spx_penetration pen;
            TEST_ENSURE(spx_penetration_obb_obb(&t, &r, &pen) == SPX_OK);
            if (pen.overlapping) most = fmaxf(most, pen.depth);
            spx_obb_get_corners(&r, corners);
            for (int k = 0; k < 8; ++k) most = fmaxf(most, -corners[k].y);
        }
    }
    spx_world_destroy(w);
    *out = most;
    return 0;
}

static int tumbling_box_never_overlaps_a_centimetre(void)
{
    const float spins[] = { 5.0f, 7.5f, 10.0f };
    const float r = 0.70710678f;
    const spx_vec3 axes[] = { { 0.0f, 0.0f, -1.0f }, { 1.0f, 0.0f, 0.0f }, { r, 0.0f, -r }, { 0.0f, r, -r } };
    const spx_vec3 shifts[] = { { 0.0f, 0.0f, 0.0f }, { 517.25f, 0.0f, -311.5f } };
    float worst = 0.0f;
    int failed = 0;
    for (int on_box = 0; on_box < 2; ++on_box)
        for (int order = 0; order < 1 + on_box; ++order)
            for (int s = 0; s < 3; ++s)
                for (int a = 0; a < 4; ++a)
                    for (int m = 0; m < 2; ++m) {
                        const tumble_case c = { spins[s], axes[a], on_box == 1, order == 1, shifts[m] };
                        float most = 0.0f;
                        TEST_ENSURE(run_case(&c, &most) == 0);
                        worst = fmaxf(worst, most);
                        if (!(most < MOST_OVERLAP)) {
                            printf("  %s, %s first, %.1f rad/s about (%.2f %.2f %.2f), moved %d: %.4f m\n",
                                   c.on_box ? "onto a box" : "onto the ground",
                                   c.resting_first ? "resting" : "tumbling", (double)c.spin, (double)c.axis.x,
                                   (double)c.axis.y, (double)c.axis.z, m, (double)most);
                            ++failed;
                        }
                    }
    printf("tumbling boxes: deepest overlap %.4f m over every case; %d over %.2f m\n", (double)worst, failed,
           (double)MOST_OVERLAP);
    TEST_ENSURE(failed == 0);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(tumbling_box_never_overlaps_a_centimetre, failures);
    printf("%d failed\n", failures);
    return failures != 0;
}
