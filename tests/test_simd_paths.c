/* The solver's two SIMD paths (world.h, spx_world_simd) give the same state bit for bit, step after
   step: SPX_SIMD_AUTO (AVX2's 8 lanes on a CPU that has it) against SPX_SIMD_BASELINE (the build's
   own 4 lanes), on every standard scene of tests/support/scenes.c and on the sepax program's default
   scene (boxes that are not cubes, tori, spheres, a fast projectile: bodies of unequal inertia and
   the continuous stage), and on a jointed scene (ball joints on lanes beside hinges and cone-twists
   solved one by one). 60 steps each by default, mesh_pile (0.2 to 1 s a step) left out;
   `--long` runs every scene 1,000 steps. On a CPU without AVX2, or
   a build with one path (-DSEPAX_AVX2=ON, not x86-64), both worlds run the same code: the test says
   so and still checks that each scene repeats itself bit for bit. */
#include "support/test.h"
#include "dynamics/world.h"
#include "support/scenes.h"
#if defined(SPX_TEST_HAVE_SCENE_FILES)
#include "scene.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <time.h>

static uint32_t steps = 60;

/* Steps two worlds of the same scene side by side; the first step whose states differ, or -1. */
static int first_difference(spx_world* a, const spx_body_id* ids_a, spx_world* b, const spx_body_id* ids_b,
                            uint32_t count, float dt, uint32_t n)
{
    for (uint32_t s = 0; s < n; ++s) {
        if (spx_world_step(a, dt) != SPX_OK || spx_world_step(b, dt) != SPX_OK) return (int)s;
        if (test_scene_bodies_hash(a, ids_a, count) != test_scene_bodies_hash(b, ids_b, count)) return (int)s;
    }
    return -1;
}

static bool two_paths(const spx_world* wide, const spx_world* base)
{
    return wide->solver.kernels != base->solver.kernels;
}

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void report(const char* name, const spx_world* wide, const spx_world* base, int diff, uint32_t n, double t0)
{
    if (diff < 0)
        printf("  %s: %u lanes against %u: bit-identical for %u steps (%.1f s)\n", name,
               (unsigned)wide->solver.kernels->lanes, (unsigned)base->solver.kernels->lanes, (unsigned)n,
               seconds() - t0);
    else
        printf("  %s: %u lanes against %u: DIFFERENT at step %d\n", name, (unsigned)wide->solver.kernels->lanes,
               (unsigned)base->solver.kernels->lanes, diff + 1);
}

enum {
    SCENE_FALLING,
    SCENE_FALLING_MESH,
    SCENE_PYRAMID,
    SCENE_PYRAMID_SPACED,
    SCENE_SLOPE,
    SCENE_BOUNCE,
    SCENE_PAPER,
    SCENE_MESH_PILE,
    SCENE_KINDS
};
static const char* const scene_names[SCENE_KINDS] = {
    [SCENE_FALLING] = "falling",
    [SCENE_FALLING_MESH] = "falling_mesh",
    [SCENE_PYRAMID] = "pyramid 1.0",
    [SCENE_PYRAMID_SPACED] = "pyramid 1.1",
    [SCENE_SLOPE] = "slope",
    [SCENE_BOUNCE] = "bounce",
    [SCENE_PAPER] = "paper at 100 m/s",
    [SCENE_MESH_PILE] = "mesh_pile",
};

static spx_result make_scene(int kind, spx_world_simd simd, test_scene* out)
{
    spx_world_def wd = spx_default_world_def();
    wd.simd = simd;
    switch (kind) {
    case SCENE_FALLING:
        return test_scene_falling(out, &wd);
    case SCENE_FALLING_MESH:
        return test_scene_falling_mesh(out, &wd);
    case SCENE_PYRAMID:
        return test_scene_pyramid(out, 1.0f, &wd);
    case SCENE_PYRAMID_SPACED:
        return test_scene_pyramid(out, 1.1f, &wd);
    case SCENE_SLOPE:
        return test_scene_slope(out, 0.5f, 0.3f, &wd);
    case SCENE_BOUNCE:
        return test_scene_bounce(out, 2.0f, 0.7f, &wd);
    case SCENE_PAPER:
        return test_scene_paper(out, 100.0f, 3, &wd);
    default:
        return test_scene_mesh_pile(out, &wd);
    }
}

/* Every standard scene, both paths, `steps` steps. */
static int standard_scenes_identical(void)
{
    int failures = 0;
    for (int kind = 0; kind < SCENE_KINDS; ++kind) {
        /* mesh_pile takes 0.2 to 1 s a step: only in --long (the default scene has meshes too) */
        if (kind == SCENE_MESH_PILE && steps < 1000) continue;
        const uint32_t n = steps;
        const double t0 = seconds();
        test_scene wide, base;
        TEST_ENSURE(make_scene(kind, SPX_SIMD_AUTO, &wide) == SPX_OK);
        TEST_ENSURE(make_scene(kind, SPX_SIMD_BASELINE, &base) == SPX_OK);
        TEST_ENSURE(wide.count == base.count);
        if (!two_paths(wide.world, base.world))
            printf("  %s: one solver path here (%u lanes: no AVX2 on this CPU, or a build without the run-time "
                   "choice); checking that the scene repeats itself\n",
                   scene_names[kind], (unsigned)base.world->solver.kernels->lanes);
        const int diff = first_difference(wide.world, wide.bodies, base.world, base.bodies, wide.count, wide.dt, n);
        report(scene_names[kind], wide.world, base.world, diff, n, t0);
        failures += diff >= 0;
        test_scene_destroy(&wide);
        test_scene_destroy(&base);
    }
    TEST_ENSURE(failures == 0);
    return 0;
}

/* ---- jointed: the joints' lanes held to the same promise ---- */

static spx_body_id jointed_box(test_scene* t, spx_body_type type, spx_vec3 p, spx_vec3 half, float mass)
{
    spx_shape_def s = test_box_shape(half);
    s.density = mass / (8.0f * half.x * half.y * half.z);
    spx_body_def d = test_body_def(type, p);
    const spx_body_id id = test_body_create(t->world, d, s, NULL);
    if (type == SPX_BODY_DYNAMIC && t->count < TEST_SCENE_MAX_BODIES) t->bodies[t->count++] = id;
    return id;
}

static bool joint(spx_world* w, spx_joint_def d)
{
    spx_joint_id id;
    return spx_joint_create(w, &d, &id) == SPX_OK;
}

static spx_transform at(float x, float y, float z) { return (spx_transform){ { x, y, z }, { 0, 0, 0, 1 } }; }

/* A chain of 31 links on ball joints from the world with a 20 kg end (two colours of 15 and 16:
   whole and partial blocks at 4 and at 8 lanes), kicked sideways; a hub on 9 ball-jointed spokes
   (nine colours on one body); two ragdolls (cone-twist shoulders and hips, hinged elbows and knees
   with limits, a ball-jointed head) dropped onto the ground and the chain's end; a motor-driven
   hinge door that runs into its limit. Every kind of lane and the joints solved one by one meet on
   shared bodies. */
static spx_result make_jointed(spx_world_simd simd, test_scene* t)
{
    memset(t, 0, sizeof *t);
    spx_world_def wd = spx_default_world_def();
    wd.simd = simd;
    wd.enable_sleep = false;
    t->world = test_world_create(&wd);
    if (!t->world) return SPX_ERR_OUT_OF_MEMORY;
    t->dt = 1.0f / 60.0f;
    spx_world* w = t->world;
    bool ok = true;
    t->ground = jointed_box(t, SPX_BODY_STATIC, spx_v3(0, -1, 0), spx_v3(30, 1, 30), 1.0f);
    /* The chain, along x from (0, 12, 0), links 0.4 m long. */
    spx_body_id prev = (spx_body_id){ 0 };
    for (int i = 0; i < 31; ++i) {
        const float x = 0.4f * (float)i + 0.2f;
        const spx_body_id link =
            jointed_box(t, SPX_BODY_DYNAMIC, spx_v3(x, 12, 0), spx_v3(0.2f, 0.05f, 0.05f), i == 30 ? 20.0f : 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        d.body_a = prev;
        d.frame_a = i == 0 ? at(0, 12, 0) : at(0.2f, 0, 0);
        d.body_b = link;
        d.frame_b = at(-0.2f, 0, 0);
        ok = ok && joint(w, d);
        prev = link;
    }
    if (ok) ok = spx_body_set_velocity(w, prev, spx_v3(0, 0, 3), spx_v3(0, 0, 0)) == SPX_OK;
    /* The hub and its spokes, free in the air, spinning. */
    const spx_body_id hub = jointed_box(t, SPX_BODY_DYNAMIC, spx_v3(-6, 8, 0), spx_v3(0.3f, 0.3f, 0.3f), 5.0f);
    for (int i = 0; i < 9; ++i) {
        const float a = 0.698f * (float)i, c = cosf(a), s = sinf(a);
        const spx_body_id spoke =
            jointed_box(t, SPX_BODY_DYNAMIC, spx_v3(-6 + 0.8f * c, 8, 0.8f * s), spx_v3(0.2f, 0.1f, 0.1f), 1.0f);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        d.body_a = hub;
        d.frame_a = at(0.5f * c, 0, 0.5f * s);
        d.body_b = spoke;
        d.frame_b = at(-0.3f * c, 0, -0.3f * s);
        ok = ok && joint(w, d);
    }
    if (ok) ok = spx_body_set_velocity(w, hub, spx_v3(0, 0, 0), spx_v3(0.5f, 4, 0)) == SPX_OK;
    /* Two ragdolls: torso, head, upper and lower arms and legs. */
    for (int r = 0; r < 2; ++r) {
        const float x0 = 10.0f + 0.7f * (float)r, y0 = 4.0f + 1.5f * (float)r;
        const spx_body_id torso = jointed_box(t, SPX_BODY_DYNAMIC, spx_v3(x0, y0, 0), spx_v3(0.2f, 0.3f, 0.1f), 20);
        const spx_body_id head =
            jointed_box(t, SPX_BODY_DYNAMIC, spx_v3(x0, y0 + 0.45f, 0), spx_v3(0.1f, 0.1f, 0.1f), 4);
        spx_joint_def d = spx_default_joint_def(SPX_JOINT_BALL);
        d.body_a = torso, d.frame_a = at(0, 0.32f, 0), d.body_b = head, d.frame_b = at(0, -0.13f, 0);
        ok = ok && joint(w, d);
        for (int side = 0; side < 4; ++side) {
            /* Arms out along x (sides 0, 1), legs down along -y (sides 2, 3). */
            const bool arm = side < 2;
            const float sx = (side % 2) ? -1.0f : 1.0f;
            const spx_vec3 socket = arm ? spx_v3(0.22f * sx, 0.25f, 0) : spx_v3(0.1f * sx, -0.32f, 0);
            const spx_quat q = arm ? (sx > 0 ? (spx_quat){ 0, 0, 0, 1 } : (spx_quat){ 0, 0, 1, 0 })
                                   : (spx_quat){ 0, 0, -0.70710678f, 0.70710678f };
            const spx_vec3 dir = arm ? spx_v3(sx, 0, 0) : spx_v3(0, -1, 0);
            spx_body_def bd = test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0));
            spx_shape_def sh = test_box_shape(spx_v3(0.15f, 0.05f, 0.05f));
            sh.density = 3.0f / (8 * 0.15f * 0.05f * 0.05f);
            bd.rotation = q;
            spx_body_id upper, lower;
            bd.position = spx_v3(x0 + socket.x + 0.17f * dir.x, y0 + socket.y + 0.17f * dir.y, 0);
            upper = test_body_create(w, bd, sh, NULL);
            bd.position = spx_v3(x0 + socket.x + 0.51f * dir.x, y0 + socket.y + 0.51f * dir.y, 0);
            lower = test_body_create(w, bd, sh, NULL);
            t->bodies[t->count++] = upper, t->bodies[t->count++] = lower;
            d = spx_default_joint_def(SPX_JOINT_CONE_TWIST);
            d.body_a = torso, d.frame_a = (spx_transform){ socket, q };
            d.body_b = upper, d.frame_b = at(-0.17f, 0, 0);
            d.swing_limit = 0.9f;
            d.limit = (spx_joint_limit){ true, -0.4f, 0.4f };
            ok = ok && joint(w, d);
            d = spx_default_joint_def(SPX_JOINT_HINGE);
            /* The elbow or knee turns about the limb's z. */
            d.body_a = upper, d.frame_a = (spx_transform){ { 0.17f, 0, 0 }, { 0, -0.70710678f, 0, 0.70710678f } };
            d.body_b = lower, d.frame_b = (spx_transform){ { -0.17f, 0, 0 }, { 0, -0.70710678f, 0, 0.70710678f } };
            d.limit = (spx_joint_limit){ true, 0.0f, 2.4f };
            ok = ok && joint(w, d);
        }
        if (ok) ok = spx_body_set_velocity(w, torso, spx_v3(-1.5f, 0, 0.5f), spx_v3(0, 1, 2)) == SPX_OK;
    }
    /* A door on a hinge to the world about y, its motor driving it into its upper limit. */
    const spx_body_id door = jointed_box(t, SPX_BODY_DYNAMIC, spx_v3(-12, 1.2f, 0.5f), spx_v3(0.05f, 1, 0.5f), 15.0f);
    spx_joint_def d = spx_default_joint_def(SPX_JOINT_HINGE);
    d.frame_a = (spx_transform){ { -12, 1.2f, 0 }, { 0, 0, 0.70710678f, 0.70710678f } };
    d.body_b = door;
    d.frame_b = (spx_transform){ { 0, 0, -0.5f }, { 0, 0, 0.70710678f, 0.70710678f } };
    d.limit = (spx_joint_limit){ true, -0.5f, 1.2f };
    d.motor = (spx_joint_motor){ true, 2.0f, 40.0f };
    ok = ok && joint(w, d);
    t->steps = steps;
    if (!ok) {
        test_scene_destroy(t);
        return SPX_ERR_BAD_JOINT;
    }
    return SPX_OK;
}

/* The jointed scene, both paths: its joints' lanes (8 against 4) and its contacts. */
static int jointed_scene_identical(void)
{
    const double t0 = seconds();
    test_scene wide, base;
    TEST_ENSURE_CODE(make_jointed(SPX_SIMD_AUTO, &wide), SPX_OK);
    TEST_ENSURE_CODE(make_jointed(SPX_SIMD_BASELINE, &base), SPX_OK);
    TEST_ENSURE(wide.count == base.count);
    if (!two_paths(wide.world, base.world))
        printf("  jointed: one solver path here; checking that it repeats itself\n");
    const int diff = first_difference(wide.world, wide.bodies, base.world, base.bodies, wide.count, wide.dt, steps);
    report("jointed", wide.world, base.world, diff, steps, t0);
    /* Bit-identical NaN would pass as well: every body finite, the chain's end below its start. */
    bool finite = true;
    for (uint32_t i = 0; i < wide.count; ++i) {
        const spx_vec3 p = test_body_position(wide.world, wide.bodies[i]);
        finite = finite && isfinite(p.x) && isfinite(p.y) && isfinite(p.z);
    }
    const spx_vec3 end = test_body_position(wide.world, wide.bodies[30]);
    printf("  jointed: every body finite %s, the chain's end at (%.3f %.3f %.3f)\n", finite ? "yes" : "NO", end.x,
           end.y, end.z);
    test_scene_destroy(&wide);
    test_scene_destroy(&base);
    TEST_ENSURE(diff < 0);
    TEST_ENSURE(finite && end.y < 11.0f);
    return 0;
}

#if defined(SPX_TEST_HAVE_SCENE_FILES)
static char message[SCENE_MESSAGE_MAX];

static bool build_default(spx_world_simd simd, scene* s)
{
    size_t length = 0;
    const char* text = scene_embedded("default", &length);
    if (!text || !scene_read_text(text, length, "default.json", SCENE_UNKNOWN_KEY_ERROR, s, message, sizeof message))
        return false;
    s->world.simd = simd;
    return scene_build(s, message, sizeof message);
}

/* The sepax program's default scene (scenes/default.json), both paths. */
static int default_scene_identical(void)
{
    const double t0 = seconds();
    scene wide, base;
    memset(&wide, 0, sizeof wide);
    memset(&base, 0, sizeof base);
    const bool built = build_default(SPX_SIMD_AUTO, &wide) && build_default(SPX_SIMD_BASELINE, &base);
    if (!built) fprintf(stderr, "default scene: %s\n", message);
    TEST_ENSURE(built);
    TEST_ENSURE(wide.body_count == base.body_count);
    if (!two_paths(wide.w, base.w)) printf("  default scene: one solver path here; checking that it repeats itself\n");
    const int diff = first_difference(wide.w, wide.ids, base.w, base.ids, wide.body_count, wide.dt, steps);
    report("default scene", wide.w, base.w, diff, steps, t0);
    scene_free(&wide);
    scene_free(&base);
    TEST_ENSURE(diff < 0);
    return 0;
}
#endif

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--long") == 0) {
            steps = 1000;
        } else {
            fprintf(stderr, "usage: %s [--long]\n", argv[0]);
            return 2;
        }
    }
    int failures = 0;
#if defined(SPX_TEST_HAVE_SCENE_FILES)
    TEST_RUN(default_scene_identical, failures);
#else
    printf("default scene: not tested, this build has no scene files (the sepax program needs cJSON and cairo)\n");
#endif
    TEST_RUN(standard_scenes_identical, failures);
    TEST_RUN(jointed_scene_identical, failures);
    printf("%d failed\n", failures);
    return failures != 0;
}
