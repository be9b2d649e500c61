/* Scenes whose deepest overlap is measured at every step (sepax_bench pile --every-step and
   tests/test_overlap_steps.c): boxes of any size on a flat box ground or on a triangle-mesh terrain,
   measured by the plain-data penetration queries, not by the solver's separations. */
#ifndef TEST_SUPPORT_OVERLAP_SCENES_H
#define TEST_SUPPORT_OVERLAP_SCENES_H

#include "support/scenes.h"

/* A scene of boxes that all have the same half extents, on `scene.ground`: a box whose top is y = 0,
   or the mesh `terrain` (placed at the origin) when it is not NULL. */
typedef struct test_box_scene {
    test_scene scene;
    spx_vec3 half_extents;
    const spx_mesh* terrain;
} test_box_scene;

/* terrain: 64 unit boxes (mass 1, friction 0.5, random orientations from a fixed seed) in 4 layers
   of 4x4 at pitch 2, apart at the start (centres x,z = (i-1.5) 2, y = 2 + 2 j), dropped onto a bumpy static
   mesh of 24x24 quads of 1 m centred on the origin, its height 0.3 sin(0.9 x) cos(0.7 z) +
   0.1 sin(2.1 x + 1.3 z); 1/60 s, 600 steps, sleeping as the default world has it. */
spx_result test_scene_terrain(test_box_scene* out, const spx_world_def* def);

/* dominoes: 20 boxes 0.1 x 1 x 0.5 m (mass 1, friction 0.5) standing on the box ground `spacing` m
   apart along x (the first at x = 0); the first is pushed, turning at `spin` rad/s about its bottom
   edge towards +x; 1/60 s, 300 steps, sleeping as the default world has it. The benchmark's row is
   spacing 0.5, spin 2. */
spx_result test_scene_dominoes(test_box_scene* out, const spx_world_def* def, float spacing, float spin);

/* Deepest box-box overlap (spx_penetration_obb_obb over pairs whose bounding spheres meet) and
   deepest penetration of a box into the ground (the lowest corner below y = 0 on the box ground;
   on a terrain the deepest triangle pair of spx_penetration_obb_mesh), in metres. */
void test_box_scene_measure(const test_box_scene* s, float* box_overlap, float* ground_penetration);

void test_box_scene_destroy(test_box_scene* s);

#endif
