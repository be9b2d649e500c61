/* Bodies spinning beside thin targets: the continuous stage's cases for rotation (docs/continuous.md),
   one definition shared by test_continuous and `sepax bench ccd` (public API only). Deterministic. */
#ifndef TEST_SUPPORT_SPIN_H
#define TEST_SUPPORT_SPIN_H

#include <sepax/sepax.h>

typedef enum test_spin_body {
    TEST_SPIN_PLANK, /* a box of half extents 1 x 0.05 x 0.01 m */
    TEST_SPIN_CUBE,  /* a cube of half extent 0.05 m */
} test_spin_body;

typedef enum test_spin_target {
    TEST_SPIN_WALL,  /* a static box 0.01 m thick */
    TEST_SPIN_SHEET, /* a static mesh of two triangles */
} test_spin_target;

#define TEST_SPIN_SPEED_COUNT 5
#define TEST_SPIN_PHASES 8
extern const float test_spin_speeds[TEST_SPIN_SPEED_COUNT]; /* rad/s: 150, 189, 400, 1,000, 2,000 */

/* One case: body `body` (density 1,000, restitution 0, friction 0.6, no damping) at the origin,
   spinning at `speed` rad/s about its principal axis `axis` (0, 1, 2: x, y, z, the world's); the
   target across the body's thinner other axis n, its near face halfway between the body's half
   width along n and its reach as it turns, 2.5 m each way along it, so that the body's outer part
   crosses the face every turn. The body starts turned about `axis` by `phase` of TEST_SPIN_PHASES
   spread over the angles at which it is clear of the face (the crossings then fall at other moments
   of the steps); odd phases also tilted by 0.5 rad about n, which keeps it clear but puts the spin
   off its principal axes (it tumbles). No gravity, 1/60 s steps. */
typedef struct test_spin_case {
    test_spin_body body;
    test_spin_target target;
    int axis;
    float speed;
    int phase;
} test_spin_case;

/* What a run showed after every step: through, a corner more than 0.01 m (the wall's thickness)
   past the target's near face, or the centre past it; deepest, the most any corner within the
   target's extent was past its near face (m); energy_growth, the most the kinetic energy rose over
   its start, relative; finite, every pose and velocity finite; impacts, the continuous stage's. */
typedef struct test_spin_result {
    bool through;
    bool finite;
    float deepest;
    double energy_growth;
    uint32_t impacts;
} test_spin_result;

/* Runs a case for `steps` steps in a world of `def` (NULL: defaults; gravity is set to 0 either
   way). SPX_OK; SPX_ERR_INVALID_ARGUMENT for an axis outside 0..2, a phase outside
   0..TEST_SPIN_PHASES - 1 or a speed not finite; or the first error of world, mesh or body
   creation or of a step. */
spx_result test_spin_run(const test_spin_case* c, const spx_world_def* def, uint32_t steps, test_spin_result* out);

#endif
