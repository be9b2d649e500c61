/* Small builders for the pieces of a test written by hand: boxes, triangles, rotations. */
#ifndef TEST_SUPPORT_PIECES_H
#define TEST_SUPPORT_PIECES_H

#include <sepax/sepax.h>

extern const spx_mat3 test_identity;

spx_obb test_box(spx_vec3 center, spx_vec3 half_extents, spx_mat3 rotation);
spx_triangle test_tri(spx_vec3 a, spx_vec3 b, spx_vec3 c);
/* a + b, in float (inline: round_cases.c, which bench/ also builds, uses it without pieces.c). */
static inline spx_vec3 test_add3(spx_vec3 a, spx_vec3 b) { return spx_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
/* Rotation by the angle with cosine c and sine s about axis 0 (x), 1 (y) or 2 (z). */
spx_mat3 test_rot(int axis, float c, float s);
/* Rotation by `angle` radians about axis 0 (x), 1 (y) or 2 (z), as a quaternion. */
spx_quat test_about(int axis, double angle);
/* spx_mesh_instance_create of a default def with this mesh and pose (malloc/free). */
spx_result test_place_mesh(const spx_mesh* mesh, spx_transform pose, spx_mesh_instance** out);
/* spx_hull_create of a default def with these points: the hull, or NULL when creation fails. */
spx_hull* test_hull_of(const spx_vec3* points, uint32_t count);
/* The hull of a box's 8 corners about the origin (corner i has +x for bit 0, +y for bit 1, +z for
   bit 2 of i), or NULL. */
spx_hull* test_hull_box(spx_vec3 half_extents);

/* The next number of a linear congruential generator whose state is *state, as a float in [lo, hi). */
float test_lcg_uniform(uint32_t* state, float lo, float hi);
/* Three of those numbers as a vector, each in [lo, hi) of its axis, drawn z first, then y, then x (as
   test_case_random_vec3). */
spx_vec3 test_lcg_vec3(uint32_t* state, spx_vec3 lo, spx_vec3 hi);
/* Four of those numbers in [-1, 1) normalised as a quaternion: a rotation (not uniform over them). */
spx_quat test_lcg_rotation(uint32_t* state);
/* A rotation matrix from four numbers of uniform(-1, 1) kept when inside the unit ball (and not near
   its centre), normalised as a quaternion: uniform over rotations. */
spx_mat3 test_random_rotation_matrix(double (*uniform)(double lo, double hi));
/* Three numbers of uniform(lo, hi) as a float vector, drawn z first, then y, then x (as
   test_case_random_vec3), from the test's own generator. */
spx_vec3 test_random_vec3(double (*uniform)(double lo, double hi), double lo, double hi);

/* A point of m within tol of (x, y, z) on every axis, at a depth within tol of `depth`. */
bool test_manifold_has_point(const spx_manifold* m, float x, float y, float z, float depth, float tol);
/* No two points of m share an id. */
bool test_manifold_ids_distinct(const spx_manifold* m);
/* A sweep worked by hand: h is a hit at `time` within time_tol, its normal within normal_tol of
   `normal` and its point within point_tol of `point` (each unless NULL); false after printing the
   first that differs. Compared in double, as TEST_ENSURE_NEAR does. */
bool test_hit_is(const spx_sweep_hit* h, double time, double time_tol, const double normal[3], double normal_tol,
                 const double point[3], double point_tol);
/* p says the pieces overlap, at a depth within tol of `depth` (compared in double); false after
   printing what differs. */
bool test_overlapping_by(const spx_penetration* p, double depth, double tol);
/* h says the sweep starts in overlap, at a depth within tol of `depth` (compared in double); false
   after printing what differs. */
bool test_starts_overlapping_by(const spx_sweep_hit* h, double depth, double tol);

#endif
