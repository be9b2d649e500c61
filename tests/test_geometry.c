/* Box and triangle construction and validation: every kind of bad input gets its own code. */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/pieces.h"

static int box_from_matrix_and_corners(void)
{
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(1, 2, 3), spx_v3(1, 2, 3), &test_identity, &box), SPX_OK);
    spx_vec3 c[8];
    TEST_ENSURE_CODE(spx_obb_get_corners(&box, c), SPX_OK);
    TEST_ENSURE_NEAR3(c[0], 0, 0, 0, 0);
    TEST_ENSURE_NEAR3(c[7], 2, 4, 6, 0);
    TEST_ENSURE_NEAR(c[1].x, 2, 0);
    TEST_ENSURE_NEAR(c[1].y, 0, 0); /* bit 0 -> +x */
    TEST_ENSURE_NEAR(c[4].z, 6, 0);
    TEST_ENSURE_NEAR(c[4].x, 0, 0); /* bit 2 -> +z */
    return 0;
}

static int box_from_quaternion(void)
{
    /* 90 degrees about z: axis x goes to +y, axis y to -x. */
    float s = sqrtf(0.5f);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), (spx_quat){ 0, 0, s, s }, &box), SPX_OK);
    TEST_ENSURE_NEAR(box.rotation.col[0].y, 1, 1e-6);
    TEST_ENSURE_NEAR(box.rotation.col[1].x, -1, 1e-6);
    TEST_ENSURE_NEAR(box.rotation.col[2].z, 1, 1e-6);
    TEST_ENSURE_CODE(spx_obb_validate(&box), SPX_OK);
    return 0;
}

static int bad_boxes_get_their_codes(void)
{
    spx_obb box, untouched = { { 9, 9, 9 }, { 9, 9, 9 }, test_identity };
    box = untouched;
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(NAN, 0, 0), spx_v3(1, 1, 1), &test_identity, &box), SPX_ERR_NOT_FINITE);
    TEST_ENSURE(memcmp(&box, &untouched, sizeof box) == 0);
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, INFINITY, 1), &test_identity, &box),
                     SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 0, 1), &test_identity, &box), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 1, -1), &test_identity, &box), SPX_ERR_BAD_EXTENT);
    spx_mat3 scaled = test_identity;
    scaled.col[1].y = 1.001f;
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 1, 1), &scaled, &box), SPX_ERR_NOT_ORTHONORMAL);
    spx_mat3 skew = test_identity;
    skew.col[0].y = 1e-4f;
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 1, 1), &skew, &box), SPX_ERR_NOT_ORTHONORMAL);
    spx_mat3 nearly = test_identity; /* within the documented tolerance: accepted */
    nearly.col[0].y = 2e-6f;
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 1, 1), &nearly, &box), SPX_OK);
    spx_mat3 mirror = test_identity;
    mirror.col[2].z = -1.0f;
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 1, 1), &mirror, &box), SPX_ERR_NOT_RIGHT_HANDED);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), (spx_quat){ 0, 0, 0, 1.1f }, &box),
                     SPX_ERR_NOT_ORTHONORMAL);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), (spx_quat){ 0, NAN, 0, 1 }, &box),
                     SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_obb_from_matrix(spx_v3(0, 0, 0), spx_v3(1, 1, 1), NULL, &box), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_obb_validate(NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_obb_get_corners(NULL, NULL), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* The fast acceptance every query runs first (one SIMD pass over a box, or over two) and the exact
   checks of spx_obb_from_matrix must give the same code for every box: rotations perturbed around
   the orthonormality tolerance, one entry or all nine, so each residual crosses it on its own. */
static int fast_and_exact_checks_agree(void)
{
    uint32_t rng = 0x0BB5EEDu;
    const spx_obb good = { { 0, 0, 0 }, { 1, 1, 1 }, test_identity };
    const float tol = SPX_ROTATION_TOLERANCE;
    int rejected = 0;
    for (int i = 0; i < test_cases(20000); ++i) {
        spx_obb box;
        TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1), test_lcg_rotation(&rng), &box), SPX_OK);
        float* m = &box.rotation.col[0].x;
        if (i % 2) {
            m[i % 9] += test_lcg_uniform(&rng, -4.0f * tol, 4.0f * tol);
        } else {
            for (int k = 0; k < 9; ++k) m[k] += test_lcg_uniform(&rng, -1.5f * tol, 1.5f * tol);
        }
        box.center = test_lcg_vec3(&rng, spx_v3(-5, -5, -5), spx_v3(5, 5, 5));
        spx_obb built;
        const spx_result exact = spx_obb_from_matrix(box.center, box.half_extents, &box.rotation, &built);
        rejected += exact != SPX_OK;
        TEST_ENSURE_CODE(spx_obb_validate(&box), exact);
        bool hit;
        TEST_ENSURE_CODE(spx_overlap_obb_obb(&box, &good, &hit), exact);
        TEST_ENSURE_CODE(spx_overlap_obb_obb(&good, &box, &hit), exact);
    }
    /* Both answers must occur often, or the loop proves nothing. */
    TEST_ENSURE(rejected > test_cases(20000) / 10 && rejected < test_cases(20000) * 9 / 10);
    return 0;
}

static int triangles(void)
{
    spx_triangle ok = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    TEST_ENSURE_CODE(spx_triangle_validate(&ok), SPX_OK);
    spx_triangle segment = { { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 } } }; /* handled by the queries */
    TEST_ENSURE_CODE(spx_triangle_validate(&segment), SPX_OK);
    spx_triangle point = { { { 5, 5, 5 }, { 5, 5, 5 }, { 5, 5, 5 } } };
    TEST_ENSURE_CODE(spx_triangle_validate(&point), SPX_ERR_DEGENERATE_TRIANGLE);
    spx_triangle almost_point = { { { 1e4f, 0, 0 }, { 1e4f, 0, 0 }, { 1e4f, 0, 1e-3f } } };
    TEST_ENSURE_CODE(spx_triangle_validate(&almost_point), SPX_ERR_DEGENERATE_TRIANGLE);
    /* small near the origin is still a triangle, down to an edge of 1e-19 m (docs/tolerances.md) */
    spx_triangle tiny = { { { 0, 0, 0 }, { 2e-19f, 0, 0 }, { 0, 2e-19f, 0 } } };
    TEST_ENSURE_CODE(spx_triangle_validate(&tiny), SPX_OK);
    spx_triangle below_floor = { { { 0, 0, 0 }, { 5e-20f, 0, 0 }, { 0, 5e-20f, 0 } } };
    TEST_ENSURE_CODE(spx_triangle_validate(&below_floor), SPX_ERR_DEGENERATE_TRIANGLE);
    spx_triangle nan = { { { 0, 0, 0 }, { 1, NAN, 0 }, { 0, 1, 0 } } };
    TEST_ENSURE_CODE(spx_triangle_validate(&nan), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_triangle_validate(NULL), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

static int result_strings(void)
{
    for (int r = 0; r <= SPX_RESULT_COUNT; ++r) TEST_ENSURE(spx_result_string((spx_result)r) != NULL);
    TEST_ENSURE(strstr(spx_result_string(SPX_ERR_BAD_EXTENT), "extent") != NULL);
    TEST_ENSURE(spx_version() == 100);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(box_from_matrix_and_corners, failures);
    TEST_RUN(box_from_quaternion, failures);
    TEST_RUN(bad_boxes_get_their_codes, failures);
    TEST_RUN(fast_and_exact_checks_agree, failures);
    TEST_RUN(triangles, failures);
    TEST_RUN(result_strings, failures);
    return failures ? 1 : 0;
}
