/* The standard world scenes, one definition shared by the tests and the benchmarks
   (public API only, so that bench/ can compile this file too). Deterministic: the same arguments,
   the same world. */
#ifndef TEST_SUPPORT_SCENES_H
#define TEST_SUPPORT_SCENES_H

#include <sepax/sepax.h>

#define TEST_SCENE_MAX_BODIES 1024

#define TEST_SCENE_MAX_MESHES 4

typedef struct test_scene {
    spx_world* world;
    spx_body_id ground;
    spx_body_id bodies[TEST_SCENE_MAX_BODIES];        /* the dynamic bodies, in creation order */
    const spx_mesh* body_mesh[TEST_SCENE_MAX_BODIES]; /* body i's mesh, or NULL for a box of half extent 0.5 */
    uint32_t count;
    spx_mesh* meshes[TEST_SCENE_MAX_MESHES]; /* owned by the scene: the ground's and the bodies' */
    uint32_t mesh_count;
    float dt;       /* s a step */
    uint32_t steps; /* steps the scene is meant to run */
} test_scene;

/* What a scene is made of, for other engines to build the same one (bench/world_scenes.c): every
   box's starting pose in creation order, the boxes' size, mass and materials, the ground, gravity,
   the step and the step count. test_scene_falling and test_scene_pyramid build their worlds from it. */
typedef struct test_scene_layout {
    spx_transform start[TEST_SCENE_MAX_BODIES]; /* the dynamic boxes, in creation order */
    uint32_t count;
    spx_vec3 box_half_extents;                   /* m */
    float box_mass;                              /* kg */
    float box_friction, ground_friction;         /* sepax mixes them as sqrt(a b) */
    float restitution;                           /* of every body */
    spx_vec3 ground_center, ground_half_extents; /* the static ground box, axis-aligned */
    spx_vec3 gravity;                            /* m/s^2: the default world's */
    float dt;                                    /* s a step */
    uint32_t steps;                              /* steps the scene is meant to run */
    bool sleep;                                  /* false: the scene forces sleeping off */
    bool mesh_ground;                            /* the ground is a 100x100-quad triangle mesh, top y = 0 */
    spx_vec3 start_velocity;                     /* m/s, every box's at the start (zero but in the paper shot) */
} test_scene_layout;

/* A uniformly random rotation (Shoemake's method) from a fixed xorshift generator whose state is
   *state: the falling scenes' orientations, and those of the scene files' generators. */
spx_quat test_scene_random_rotation(uint64_t* state);

void test_scene_falling_layout(test_scene_layout* out);
/* The same grid with the orientations of another generator state (the scene's own is
   TEST_SCENE_FALLING_SEED): the pile's settling is chaotic, so figures taken from one pile are
   checked on others (bench/pile.c). */
#define TEST_SCENE_FALLING_SEED 0x9E3779B97F4A7C15ull
void test_scene_falling_layout_seeded(test_scene_layout* out, uint64_t seed);
void test_scene_pyramid_layout(test_scene_layout* out, float pitch);
void test_scene_falling_mesh_layout(test_scene_layout* out);

/* The bullet through paper, as a layout so that other engines shoot the same shot: a cube
   of 0.1 m (1 kg, friction 0.6, restitution 0) moving along +x at `speed` m/s at a static wall
   0.01 x 2 x 2 m (the layout's ground box) whose near face is at x = 0, the cube's front face 5 m
   plus phase/8 of one step's travel away; no gravity, no sleeping, 1/60 s, enough steps to reach
   the wall and 30 more. */
#define TEST_PAPER_SPEED_COUNT 4
#define TEST_PAPER_PHASES 8
extern const float test_paper_speeds[TEST_PAPER_SPEED_COUNT]; /* 10, 100, 1,000, 10,000 m/s */
void test_scene_paper_layout(test_scene_layout* out, float speed, int phase);

/* Where a paper shot stands after a step, from the cube's pose and velocity (any engine's):
   penetration, the cube's overlap with the wall along x (m, 0 when apart); beyond, its centre past
   the wall's far face (it went through); rebound, its speed back along -x over the shot's speed. */
typedef struct test_paper_state {
    float penetration;
    bool beyond;
    float rebound;
} test_paper_state;
void test_scene_paper_measure(const test_scene_layout* l, spx_transform cube, spx_vec3 velocity, test_paper_state* out);

/* The struck stack: five unit boxes (mass 1, friction 0.6, restitution 0) stacked at x = z = 0,
   centres y = 0.5 + i, on a static ground box of half extents (1000, 0.5, 1000) whose top is y = 0,
   default gravity, 1/60 s, sleeping on; settled for TEST_STRUCK_SETTLE_STEPS; then a cube of half
   extent 0.025 (density 1,000: 0.125 kg, same materials) is fired along +x at `speed` m/s, its
   centre at height 0.5 (target + 1) (target 0 to 8: the middle of the lowest box, the seam above it,
   and so on to the middle of the top one) and at x = -12.504 less phase/8 of one step's travel. The
   cube is bodies[5]; TEST_STRUCK_STEPS steps follow the shot. */
#define TEST_STRUCK_TARGETS 9
#define TEST_STRUCK_SPEED_COUNT 3
#define TEST_STRUCK_SETTLE_STEPS 90
#define TEST_STRUCK_STEPS 90
extern const float test_struck_speeds[TEST_STRUCK_SPEED_COUNT]; /* 100, 500, 2,000 m/s */
/* The settled stack alone (bodies[0..4]), before the shot: settles it. */
spx_result test_scene_struck_stack(test_scene* scene, const spx_world_def* def);
/* Fires the cube into a scene from test_scene_struck_stack. */
spx_result test_scene_struck_stack_fire(test_scene* scene, float speed, int target, int phase);

/* Where a struck stack stands after a step: the deepest overlap of any two of its bodies, the ground
   included (m, by the static box-box penetration query), and the energy (kinetic and potential above
   y = 0 of every dynamic body, J). */
typedef struct test_struck_state {
    float overlap;
    uint32_t pair[2]; /* the two bodies of the deepest overlap (count: the ground) */
    double energy;
} test_struck_state;
void test_scene_struck_stack_measure(const test_scene* scene, test_struck_state* out);

/* A static box of these half extents and friction, centred on the y axis with its top face at y = 0. */
spx_result test_ground_box(spx_world* world, spx_vec3 half_extents, float friction, spx_body_id* out);

/* falling: 1,000 boxes of half extent 0.5, mass 1, friction 0.5, no restitution, in a 10x10x10 grid
   of pitch 1.5 (centres x,z = (i-4.5) 1.5, y = 2 + 1.5 j), orientations random from a fixed seed,
   on a static 100x2x100 box whose top is y = 0; gravity -9.81; 1/60 s; 300 steps. `def` may be NULL
   (defaults) or carry settings to try (sleeping, substeps...). */
spx_result test_scene_falling(test_scene* scene, const spx_world_def* def);

/* pyramid: base 20, 210 unit boxes (mass 1, friction 0.6) in the plane z = 0, row r holding 20 - r
   boxes at x = (i - (n-1)/2) pitch, y = 0.5 + r; the same ground; 1/60 s; 600 steps. Sleeping is
   forced off: the scene measures drift, which sleeping would hide. */
spx_result test_scene_pyramid(test_scene* scene, float pitch, const spx_world_def* def);

/* falling_mesh: the falling boxes onto a static triangle-mesh ground of 100x100 quads of 1 m (20,000
   triangles), its top at y = 0. */
spx_result test_scene_falling_mesh(test_scene* scene, const spx_world_def* def);

/* A scene built from a layout (one of the above, changed or not), as the named scenes are. */
spx_result test_scene_from_layout(test_scene* scene, const spx_world_def* def, const test_scene_layout* layout);

/* paper: the shot of test_scene_paper_layout in sepax; the cube is bodies[0], the wall ground. */
spx_result test_scene_paper(test_scene* scene, float speed, int phase, const spx_world_def* def);

/* slope: a unit box of mass 1 resting on a static incline (a 100x2x10 box turned by theta radians
   about z, so that it falls towards -x, its top face through the origin), friction mu on both;
   1/60 s, 90 steps; sleeping off. The box is bodies[0]. */
spx_result test_scene_slope(test_scene* scene, float theta, float mu, const spx_world_def* def);

/* bounce: a unit box of mass 1 whose bottom starts `height` m above the ground's top, restitution e
   on both, friction 0.5; 1/60 s, 240 steps; sleeping off. The box is bodies[0]. */
spx_result test_scene_bounce(test_scene* scene, float height, float e, const spx_world_def* def);

/* mesh_pile: 64 dynamic closed meshes, tori (R 0.45, r 0.15, 576 triangles) and solid spheres
   (radius 0.45, 400 triangles) in turn, density 500, friction 0.5, random orientations from a fixed
   seed, in 4 layers of 4x4 at pitch 1.3 (centres x,z = (i-1.5) 1.3, y = 1 + 1.3 j), falling onto
   the mesh ground of falling_mesh; 1/60 s, 600 steps. */
spx_result test_scene_mesh_pile(test_scene* scene, const spx_world_def* def);

/* Deepest overlap of the scene's boxes into the ground (top at y = 0) and between any two boxes
   (by the static box-box penetration query), in metres; fallen counts boxes whose centre is
   below the ground's top; moving counts boxes faster than 0.05 m/s or 0.05 rad/s. */
typedef struct test_scene_quality {
    float ground_penetration;
    float box_overlap;
    uint32_t fallen;
    uint32_t moving;
} test_scene_quality;
void test_scene_measure(const test_scene* scene, test_scene_quality* out);

/* As test_scene_measure for a scene whose bodies are meshes (body_mesh): ground penetration from the
   lowest triangle corner, overlap from the deepest overlapping triangle pair of spx_penetration_mesh_mesh
   (pairs whose bounding spheres meet); fallen and moving as there. */
void test_scene_measure_meshes(const test_scene* scene, test_scene_quality* out);

/* The same figures from poses and velocities alone, whichever engine produced them (the scene
   benchmark measures Bullet and ODE with it): poses[i] places box i (half extents 0.5), v[i] and
   w[i] are its velocities in m/s and rad/s. */
void test_scene_measure_state(const spx_transform* poses, const spx_vec3* v, const spx_vec3* w, uint32_t count,
                              test_scene_quality* out);

void test_scene_destroy(test_scene* scene);

/* A hash of the poses and velocities of `count` bodies, bit for bit (FNV-1a over their floats). */
uint64_t test_scene_bodies_hash(const spx_world* world, const spx_body_id* ids, uint32_t count);

/* ---- building blocks of the scenes and of the tests' own worlds ---- */

/* A world of `def` (NULL: the default def), or NULL when creation fails. */
spx_world* test_world_create(const spx_world_def* def);
/* The default body def with this type and position. */
spx_body_def test_body_def(spx_body_type type, spx_vec3 position);
/* test_body_def turned by `rotation`, with this friction and restitution and no angular damping
   (the tests' free tumbling and rolling). */
spx_body_def test_undamped_body_def(spx_body_type type, spx_vec3 position, spx_quat rotation, float friction,
                                    float restitution);
/* The default shape def as a box of these half extents, as this mesh, or as this hull. */
spx_shape_def test_box_shape(spx_vec3 half_extents);
spx_shape_def test_mesh_shape(const spx_mesh* mesh);
spx_shape_def test_hull_shape(const spx_hull* hull);
/* A body of def `d` with the one shape `s`, or with `count` shapes (d's own shape list is not used):
   its id, or the null id when creation fails; the result in *out_result when given. */
spx_body_id test_body_create(spx_world* w, spx_body_def d, spx_shape_def s, spx_result* out_result);
spx_body_id test_body_create_shapes(spx_world* w, spx_body_def d, const spx_shape_def* shapes, uint32_t count,
                                    spx_result* out_result);
/* test_body_create's result, for the tests of refused defs; the id in *out_id when given. */
spx_result test_body_try(spx_world* w, spx_body_def d, spx_shape_def s, spx_body_id* out_id);
/* The body's position (the origin when the id is stale). */
spx_vec3 test_body_position(const spx_world* w, spx_body_id id);
/* A box body of the default defs with this type, position and half extents. */
spx_body_id test_add_box(spx_world* w, spx_body_type type, spx_vec3 position, spx_vec3 half_extents);
/* The deepest overlap of any contact point of these bodies (m, >= 0); INFINITY when an id is stale. */
float test_deepest_overlap(const spx_world* w, const spx_body_id* bodies, int count);

#endif
