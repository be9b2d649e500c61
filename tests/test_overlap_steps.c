/* The deepest overlap after every step, by the plain-data penetration queries rather than the
   solver's separations, in the scenes of tests/support/overlap_scenes.h: a row of 20 dominoes
   0.1 x 1 x 0.5 m, the first pushed, topples to the last with no two dominoes and no domino and the
   ground overlapping by 1 cm at any step, for spacings 0.3 to 0.7 m and pushes of 2 and 6 rad/s.
   (The falling piles and the terrain do not hold 1 cm at every step yet:
   bench/results/vm/overlap-steps-20261128.md.) */
#include "support/overlap_scenes.h"
#include "support/test.h"

#define MOST_OVERLAP 0.01f

static int dominoes(float spacing, float spin)
{
    test_box_scene s;
    TEST_ENSURE(test_scene_dominoes(&s, NULL, spacing, spin) == SPX_OK);
    float most = 0.0f, most_ground = 0.0f;
    int at = 0;
    for (uint32_t step = 1; step <= s.scene.steps; ++step) {
        TEST_ENSURE(spx_world_step(s.scene.world, s.scene.dt) == SPX_OK);
        float o, g;
        test_box_scene_measure(&s, &o, &g);
        TEST_ENSURE(isfinite(o) && isfinite(g));
        if (o > most) most = o, at = (int)step;
        if (g > most_ground) most_ground = g;
    }
    /* Every domino fell: its long axis (local y) lies closer to the ground than to upright. */
    uint32_t fallen = 0;
    for (uint32_t i = 0; i < s.scene.count; ++i) {
        spx_transform t;
        TEST_ENSURE(spx_body_get_transform(s.scene.world, s.scene.bodies[i], &t) == SPX_OK);
        const spx_quat q = t.q;
        const float up = 1.0f - 2.0f * (q.x * q.x + q.z * q.z); /* the world y of the local y axis */
        fallen += up < 0.7071f;
    }
    printf("dominoes %.1f m apart, pushed at %.0f rad/s: deepest overlap %.4f m (step %d), ground %.4f m, %u of %u "
           "fallen\n",
           (double)spacing, (double)spin, (double)most, at, (double)most_ground, fallen, s.scene.count);
    test_box_scene_destroy(&s);
    TEST_ENSURE(fallen == 20);
    TEST_ENSURE(most < MOST_OVERLAP && most_ground < MOST_OVERLAP);
    return 0;
}

static int dominoes_topple_without_overlap(void)
{
    const float spacings[] = { 0.3f, 0.5f, 0.7f }, spins[] = { 2.0f, 6.0f };
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 2; ++k)
            if (dominoes(spacings[i], spins[k]) != 0) return 1;
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(dominoes_topple_without_overlap, failures);
    printf("%d failed\n", failures);
    return failures != 0;
}
