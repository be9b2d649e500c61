/* The scene of the world-query tests and of `sepax bench queries`: boxes and meshes at random poses,
   static, sleeping and awake, some bodies with two shapes; and the closed icosphere the watertight ray
   tests aim at. Public API only, deterministic: the same seed, the same scene. */
#ifndef TEST_SUPPORT_QUERY_SCENE_H
#define TEST_SUPPORT_QUERY_SCENE_H

#include "shapes.h"

#define TEST_QUERY_SCENE_MESHES 4
#define TEST_QUERY_SCENE_HALF 25.0f /* bodies' origins lie in [-HALF, HALF]^3 */

/* One body as made: its type, pose and shapes (the defs' copies, mesh pointers into the scene). */
typedef struct test_query_scene_body {
    spx_body_id id;
    spx_body_type type;
    bool awake;
    uint32_t shape_count;
    spx_shape_def shapes[2];
    uint32_t mesh_index[2]; /* which of the scene's meshes a mesh shape is */
} test_query_scene_body;

typedef struct test_query_scene {
    spx_world* world;
    test_shape shapes[TEST_QUERY_SCENE_MESHES]; /* the meshes' vertices and indices */
    spx_mesh* meshes[TEST_QUERY_SCENE_MESHES];  /* icosphere r 1, icosphere r 2.5, torus, open grid */
    test_query_scene_body* bodies;
    uint32_t body_count;
} test_query_scene;

/* An icosahedron subdivided `level` times and pushed onto the sphere: closed, wound outward, 20 4^level
   triangles, every vertex shared by 5 or 6 of them. */
bool test_shape_icosphere(test_shape* s, float radius, uint32_t level);

/* Makes the scene: `count` bodies, about 3 in 5 boxes (one in 6 of those with a second box), the rest
   meshes; 2 in 5 static, 3 in 10 asleep, the rest awake. false when anything fails. */
bool test_query_scene_build(test_query_scene* s, uint32_t count, uint64_t seed);
void test_query_scene_free(test_query_scene* s);

#endif
