/* Extreme and faulty input: the accepted range (SPX_MAX_COORDINATE), the one order in which errors
 * are reported (base.h), and answers that stay finite and consistent at the edges of the range.
 * The fuzz harnesses (tests/fuzz, test_fuzz_replay) check the same properties on random input;
 * these are the cases worked out by hand, and inputs on which the harnesses found faults. */
#include <sepax/sepax.h>
#include <float.h>
#include <stdlib.h>
#include "collide/manifold_reduce.h"
#include "support/test.h"
#include "support/scenes.h"
#include "support/pieces.h"

static const spx_vec3 zero = { 0, 0, 0 };

static spx_obb box_at(spx_vec3 c, spx_vec3 h)
{
    spx_obb b = { c, h, test_identity };
    return b;
}

static spx_obb box_rotated(float cx, float cy, float cz, float hx, float hy, float hz, const float r[9])
{
    spx_obb b;
    b.center = spx_v3(cx, cy, cz);
    b.half_extents = spx_v3(hx, hy, hz);
    for (int i = 0; i < 3; ++i) b.rotation.col[i] = spx_v3(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
    return b;
}

static bool finite3(spx_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* Every query refuses a box or triangle beyond the range with SPX_ERR_OUT_OF_RANGE, and answers one
   at the very edge of it finitely. A box of half extents FLT_MAX read past a 4-lane array in the
   box-box manifold and answered "no points" for boxes that overlap. */
static int range_is_refused_beyond_and_answered_within(void)
{
    const float L = SPX_MAX_COORDINATE;
    const spx_obb unit = box_at(zero, spx_v3(1, 1, 1));
    const spx_obb huge[3] = { box_at(zero, spx_v3(FLT_MAX, 1, 1)), box_at(spx_v3(0, -2.0f * L, 0), spx_v3(1, 1, 1)),
                              box_at(zero, spx_v3(1, 1, nextafterf(L, INFINITY))) };
    const spx_triangle tri = { { { -1, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    const spx_triangle far_tri = { { { -1, 0, 0 }, { 1, 0, 0 }, { 0, 1, 1.5e28f } } };
    bool o;
    spx_penetration p;
    spx_sweep_hit h;
    spx_manifold m;
    for (int k = 0; k < 3; ++k) {
        TEST_ENSURE_CODE(spx_obb_validate(&huge[k]), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_overlap_obb_obb(&unit, &huge[k], &o), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_penetration_obb_obb(&huge[k], &unit, &p), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&huge[k], zero, &unit, zero, 1.0f, &h), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_manifold_obb_obb(&huge[k], &unit, 0.1f, &m), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_manifold_obb_obb(&unit, &huge[k], 0.1f, &m), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_manifold_obb_triangle(&huge[k], &tri, 0.1f, &m), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_sweep_obb_triangle(&huge[k], zero, &tri, zero, 1.0f, &h), SPX_ERR_OUT_OF_RANGE);
    }
    TEST_ENSURE_CODE(spx_triangle_validate(&far_tri), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&tri, &far_tri, &o), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&far_tri, zero, &tri, zero, 1.0f, &h), SPX_ERR_OUT_OF_RANGE);
    /* distance travelled: 2e6 m/s for 10 s is beyond, for 1 s within */
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&unit, spx_v3(2e6f, 0, 0), &unit, zero, 10.0f, &h), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&unit, spx_v3(2e6f, 0, 0), &unit, zero, 1.0f, &h), SPX_OK);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&unit, &unit, 2.0f * L, &m), SPX_ERR_OUT_OF_RANGE);
    spx_obb made;
    TEST_ENSURE_CODE(spx_obb_from_matrix(zero, spx_v3(FLT_MAX, 1, 1), &test_identity, &made), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, -2e7f), spx_v3(1, 1, 1), (spx_quat){ 0, 0, 0, 1 }, &made),
                     SPX_ERR_OUT_OF_RANGE);

    /* At the edge: a box of half extent L overlapping a unit box far out along it; every answer finite,
       and the manifold has points. */
    const spx_obb edge = box_at(spx_v3(0, 0, 0), spx_v3(L, 1, 1));
    const spx_obb near_end = box_at(spx_v3(L, 0, 1.5f), spx_v3(1, 1, 1));
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&edge, &near_end, &o), SPX_OK);
    TEST_ENSURE(o);
    TEST_ENSURE_CODE(spx_penetration_obb_obb(&edge, &near_end, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && isfinite(p.depth) && finite3(p.normal));
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&edge, spx_v3(0, 0, L), &near_end, zero, 1.0f, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && isfinite(h.depth) && finite3(h.point) && finite3(h.normal));
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&edge, &near_end, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count >= 1);
    for (int i = 0; i < m.point_count; ++i) TEST_ENSURE(finite3(m.points[i].point) && isfinite(m.points[i].depth));
    return 0;
}

/* One order whatever the query and whichever argument holds the fault: NULL, then not finite, then
   out of range, then the shape of each piece in argument order, then the interval or margin. */
static int errors_come_in_one_order(void)
{
    const spx_obb unit = box_at(zero, spx_v3(1, 1, 1));
    spx_obb flat = unit, nan_turned = box_at(zero, spx_v3(-1, 1, 1)), far = box_at(spx_v3(3e7f, 0, 0), spx_v3(1, 1, 1));
    flat.half_extents.y = 0.0f;
    nan_turned.rotation.col[2].x = NAN; /* a bad extent and a NaN in one box: the NaN */
    const spx_triangle tri = { { { -1, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
    const spx_triangle point = { { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } } };
    const spx_triangle nan_tri = { { { -1, 0, 0 }, { 1, NAN, 0 }, { 0, 1, 0 } } };
    bool o;
    spx_penetration p;
    spx_sweep_hit h;
    spx_manifold m;
    TEST_ENSURE_CODE(spx_obb_validate(&nan_turned), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&flat, &nan_turned, &o), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_overlap_obb_obb(&flat, &far, &o), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_penetration_obb_triangle(&flat, &nan_tri, &p), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_overlap_obb_triangle(&far, &nan_tri, &o), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_overlap_triangle_triangle(&point, &nan_tri, &o), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_overlap_obb_triangle(&flat, &point, &o), SPX_ERR_BAD_EXTENT); /* shape: the first argument's */
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&flat, spx_v3(NAN, 0, 0), &unit, zero, -1.0f, &h), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&flat, spx_v3(1e8f, 0, 0), &unit, zero, -1.0f, &h), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(&flat, zero, &unit, zero, -1.0f, &h), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_sweep_obb_triangle(&unit, zero, &point, zero, -1.0f, &h), SPX_ERR_DEGENERATE_TRIANGLE);
    TEST_ENSURE_CODE(spx_sweep_triangle_triangle(&tri, zero, &tri, zero, -1.0f, &h), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&flat, &unit, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&flat, &unit, -1.0f, &m), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&flat, &tri, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&unit, &tri, -1.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&unit, &tri, 0.1f, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_obb(NULL, spx_v3(NAN, 0, 0), &unit, zero, 1.0f, &h), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* Meshes: vertices and poses beyond the range are refused where they come in, so no query meets
   them. One-triangle meshes with a corner near 1e28 gave START_OVERLAP with no contact and a NaN
   point where spx_overlap_mesh_mesh said no overlap; corners near 6.5e35 and -FLT_MAX made the
   four-point reduction of the mesh-mesh manifold read before its arrays. */
static int meshes_beyond_the_range_are_refused(void)
{
    const spx_vec3 far[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0.5f, 1e28f, 0 } };
    const spx_vec3 wild[3] = { { 6.5e35f, 0, 0 }, { -FLT_MAX, 1, 0 }, { 0, 0, 1 } };
    const spx_vec3 edge[3] = { { -SPX_MAX_COORDINATE, 0, 0 }, { SPX_MAX_COORDINATE, 0, 0 }, { 0, 1, 0 } };
    const uint32_t idx[3] = { 0, 1, 2 };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertex_count = 3;
    def.indices = idx;
    def.triangle_count = 1;
    spx_mesh* mesh = NULL;
    def.vertices = far;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_ERR_OUT_OF_RANGE);
    def.vertices = wild;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE(mesh == NULL);
    def.vertices = edge;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_transform pose = { { 0, 0, 2e7f }, { 0, 0, 0, 1 } };
    spx_mesh_instance *a = NULL, *b = NULL;
    TEST_ENSURE_CODE(test_place_mesh(mesh, pose, &a), SPX_ERR_OUT_OF_RANGE);
    pose.p.z = 0.5f;
    TEST_ENSURE_CODE(test_place_mesh(mesh, pose, &a), SPX_OK);
    /* B stands in the plane y = 0.25 (turned a quarter about x), crossing A, which lies at z = 0.5 */
    pose.p = spx_v3(0, 0.25f, 0);
    pose.q = (spx_quat){ 0.70710678f, 0, 0, 0.70710678f };
    TEST_ENSURE_CODE(test_place_mesh(mesh, pose, &b), SPX_OK);
    pose.p.z = 3e7f;
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &pose), SPX_ERR_OUT_OF_RANGE);
    /* Two 20,000 km slivers crossing: the static and swept queries agree, and every answer is finite. */
    bool overlap = false;
    spx_mesh_contact contacts[4];
    spx_mesh_hit rest, swept;
    spx_manifold m[8];
    uint32_t count = 0;
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(a, b, &overlap), SPX_OK);
    TEST_ENSURE_CODE(spx_penetration_mesh_mesh(a, b, contacts, 4, &rest), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_mesh_mesh(a, spx_v3(0, 0, 1), b, zero, 1.0f, contacts, 4, &swept), SPX_OK);
    TEST_ENSURE(overlap && rest.state == SPX_SWEEP_START_OVERLAP && swept.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(rest.contact_count >= 1 && swept.contact_count >= 1);
    TEST_ENSURE(finite3(rest.point) && finite3(rest.normal) && isfinite(rest.depth));
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(a, b, 0.1f, m, 8, &count), SPX_OK);
    for (uint32_t g = 0; g < count; ++g)
        for (int i = 0; i < m[g].point_count; ++i)
            TEST_ENSURE(finite3(m[g].points[i].point) && isfinite(m[g].points[i].depth));
    TEST_ENSURE_CODE(spx_manifold_mesh_mesh(a, b, 2e7f, m, 8, &count), SPX_ERR_OUT_OF_RANGE);
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(mesh);
    return 0;
}

/* The four-point reduction never indexes outside its points, whatever their coordinates: NaN
   fails every comparison, and a pick that started at -1 stayed there. */
static int reduction_stays_in_bounds(void)
{
    float x[6] = { 0, 1, NAN, 3, NAN, 5 }, y[6] = { NAN, 1, 2, NAN, 4, 5 }, gap[6] = { 0, -1, NAN, -2, 0, 1 };
    for (int variant = 0; variant < 3; ++variant) {
        if (variant == 1)
            for (int i = 0; i < 6; ++i) x[i] = NAN;
        if (variant == 2)
            for (int i = 0; i < 6; ++i) x[i] = y[i] = gap[i] = NAN;
        int keep[4] = { -7, -7, -7, -7 };
        spx_reduce_to_four(x, y, gap, 6, keep);
        for (int i = 0; i < 4; ++i) TEST_ENSURE(keep[i] >= 0 && keep[i] < 6);
        for (int i = 1; i < 4; ++i) TEST_ENSURE(keep[i] > keep[i - 1]);
    }
    return 0;
}

/* Overlapping pieces always have manifold points. A long box (half extent 9216 m) and a box meeting
   it edge to edge 2 m deep, and a box 4.35 m into a triangle with a corner 15 km away, gave none:
   the face won on a tolerance that grows with size, and clipped to nothing. */
static int overlapping_long_pieces_have_points(void)
{
    static const float ra[9] = { -0.481085777f, 0.0932660997f, 0.87169838f,  0.79276216f, -0.378225863f,
                                 0.477989018f,  0.374278933f,  0.921003163f, 0.10802108f };
    static const float rb[9] = { -0.144890308f, 0.827137709f, -0.543000937f, -0.353085488f, -0.555882812f,
                                 -0.752545714f, -0.92430377f, 0.0826892555f, 0.37259233f };
    const spx_obb a = box_rotated(7.875f, -4.0625f, -5.875f, 9216, 5.3125f, 1.8125f, ra);
    const spx_obb b = box_rotated(-3.9375f, -3.1875f, -7.6875f, 3.5f, 3.375f, 7.5625f, rb);
    spx_penetration p;
    spx_manifold m;
    TEST_ENSURE_CODE(spx_penetration_obb_obb(&a, &b, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && p.depth > 2.0f);
    TEST_ENSURE_CODE(spx_manifold_obb_obb(&a, &b, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count >= 1);
    TEST_ENSURE(m.normal.x * p.normal.x + m.normal.y * p.normal.y + m.normal.z * p.normal.z > 0.999f);
    TEST_ENSURE_NEAR(m.points[0].depth, p.depth, 1e-3);

    static const float rc[9] = { -0.422853112f, -0.854123771f, -0.302767098f, 0.132354259f, -0.388734698f,
                                 0.911793709f,  -0.896480739f, 0.34548223f,   0.277424574f };
    const spx_obb c = box_rotated(5.125f, -7.6875f, -5.8125f, 0.125f, 6.25f, 7.8125f, rc);
    const spx_triangle t = { { { 2.3125f, -1.625f, -4.75f },
                               { -1.375f, 4.0625f, -0.00724999979f },
                               { -0.0158691406f, -14956.6221f, 2.31250006e-08f } } };
    TEST_ENSURE_CODE(spx_penetration_obb_triangle(&c, &t, &p), SPX_OK);
    TEST_ENSURE(p.overlapping && p.depth > 4.0f);
    TEST_ENSURE_CODE(spx_manifold_obb_triangle(&c, &t, 0.0f, &m), SPX_OK);
    TEST_ENSURE(m.point_count >= 1);
    TEST_ENSURE(m.normal.x * p.normal.x + m.normal.y * p.normal.y + m.normal.z * p.normal.z > 0.999f);
    return 0;
}

/* The world refuses bodies placed beyond the range, as the queries refuse such pieces. */
static int world_refuses_bodies_beyond_the_range(void)
{
    spx_world* w = test_world_create(NULL);
    TEST_ENSURE(w);
    spx_shape_def s = spx_default_shape_def();
    spx_body_def d = test_body_def(SPX_BODY_DYNAMIC, spx_v3(0, 0, 0));
    spx_body_id id;
    d.position = spx_v3(0, 0, -2e7f);
    TEST_ENSURE_CODE(test_body_try(w, d, s, NULL), SPX_ERR_OUT_OF_RANGE);
    d.position = spx_v3(0, 0, 0);
    s.half_extents = spx_v3(1, 2e7f, 1);
    TEST_ENSURE_CODE(test_body_try(w, d, s, NULL), SPX_ERR_OUT_OF_RANGE);
    s.half_extents = spx_v3(1, 1, 1);
    s.local.p = spx_v3(3e7f, 0, 0);
    TEST_ENSURE_CODE(test_body_try(w, d, s, NULL), SPX_ERR_OUT_OF_RANGE);
    s.local.p = spx_v3(0, 0, 0);
    TEST_ENSURE_CODE(test_body_try(w, d, s, &id), SPX_OK);
    spx_transform t = { { 1e8f, 0, 0 }, { 0, 0, 0, 1 } };
    TEST_ENSURE_CODE(spx_body_set_transform(w, id, &t), SPX_ERR_OUT_OF_RANGE);
    t.p.x = SPX_MAX_COORDINATE;
    TEST_ENSURE_CODE(spx_body_set_transform(w, id, &t), SPX_OK);
    spx_world_destroy(w);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(range_is_refused_beyond_and_answered_within, failures);
    TEST_RUN(errors_come_in_one_order, failures);
    TEST_RUN(meshes_beyond_the_range_are_refused, failures);
    TEST_RUN(reduction_stays_in_bounds, failures);
    TEST_RUN(overlapping_long_pieces_have_points, failures);
    TEST_RUN(world_refuses_bodies_beyond_the_range, failures);
    return failures ? 1 : 0;
}
