/* The dispatch of shape pairs (src/dynamics/shape_pair.c): every pair of kinds it takes (here all but
 * those with a mesh), each way round, gives the same answer with normals from a to b, and a piece that
 * cannot grow (a hull) gives its growth to its partner, or to the hull's faces when neither can. */
#include "support/pieces.h"
#include "support/test.h"
#include "dynamics/shape_pair.h"

enum { KINDS = 4 };
static const spx_shape_type kinds[KINDS] = { SPX_SHAPE_SPHERE, SPX_SHAPE_CAPSULE, SPX_SHAPE_HULL, SPX_SHAPE_BOX };

/* A shape of this kind reaching 0.5 m from its centre along y, its box at `center`. */
static spx_placed_shape shape_at(spx_body_shape* s, spx_shape_type type, const spx_hull* hull, spx_vec3 center,
                                 float grow)
{
    memset(s, 0, sizeof *s);
    s->type = type;
    s->round_radius = type == SPX_SHAPE_CAPSULE ? 0.3f : 0.5f;
    s->half_height = type == SPX_SHAPE_CAPSULE ? 0.2f : 0.0f;
    s->hull = hull;
    spx_placed_shape p;
    p.shape = s;
    p.box = test_box(center, spx_v3(0.5f, 0.5f, 0.5f), test_identity);
    if (type == SPX_SHAPE_CAPSULE) p.box.half_extents = spx_v3(0.3f, 0.5f, 0.3f);
    p.grow = grow;
    return p;
}

/* a 0.1 m into b from above: they overlap, and the manifold's normal runs from a to b (down). */
static int overlap_and_manifold(void)
{
    spx_hull* hull = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(hull);
    for (int i = 0; i < KINDS; ++i)
        for (int j = 0; j < KINDS; ++j) {
            if (kinds[i] == SPX_SHAPE_BOX && kinds[j] == SPX_SHAPE_BOX) continue; /* the callers' own path */
            spx_body_shape sa, sb;
            const spx_placed_shape a = shape_at(&sa, kinds[i], hull, spx_v3(0.0f, 0.9f, 0.0f), 0.0f);
            const spx_placed_shape b = shape_at(&sb, kinds[j], hull, spx_v3(0.0f, 0.0f, 0.0f), 0.0f);
            TEST_ENSURE(spx_shape_pair_overlap(&a, &b) && spx_shape_pair_overlap(&b, &a));
            spx_manifold mab[SPX_MAX_MESH_MANIFOLDS], mba[SPX_MAX_MESH_MANIFOLDS];
            bool fab = false, fba = false;
            const uint32_t nab = spx_shape_pair_manifolds(&a, &b, 0.01f, mab, SPX_MAX_MESH_MANIFOLDS, &fab);
            const uint32_t nba = spx_shape_pair_manifolds(&b, &a, 0.01f, mba, SPX_MAX_MESH_MANIFOLDS, &fba);
            TEST_ENSURE(nab == 1 && nba == 1 && mab[0].point_count > 0 && mba[0].point_count > 0);
            /* The normal as it runs from the first shape given to the second. */
            const float yab = fab ? -mab[0].normal.y : mab[0].normal.y;
            const float yba = fba ? -mba[0].normal.y : mba[0].normal.y;
            TEST_ENSURE_NEAR(yab, -1.0f, 1e-4f);
            TEST_ENSURE_NEAR(yba, 1.0f, 1e-4f);
            TEST_ENSURE_NEAR(mab[0].points[0].depth, mba[0].points[0].depth, 1e-6f);
            TEST_ENSURE_NEAR(mab[0].points[0].depth, 0.1f, 1e-4f);
        }
    spx_hull_destroy(hull);
    return 0;
}

/* a 0.5 m above b falling at 1 m/s, each grown by 0.05 m: first contact at 0.4 s whichever kinds and
   whichever way round, the normal from the first given to the second. */
static int sweep_takes_both_growths(void)
{
    spx_hull* hull = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(hull);
    const spx_vec3 down = spx_v3(0.0f, -1.0f, 0.0f), still = spx_v3(0.0f, 0.0f, 0.0f);
    for (int i = 0; i < KINDS; ++i)
        for (int j = 0; j < KINDS; ++j) {
            if (kinds[i] == SPX_SHAPE_BOX && kinds[j] == SPX_SHAPE_BOX) continue; /* the callers' own path */
            spx_body_shape sa, sb;
            const spx_placed_shape a = shape_at(&sa, kinds[i], hull, spx_v3(0.0f, 1.5f, 0.0f), 0.05f);
            const spx_placed_shape b = shape_at(&sb, kinds[j], hull, spx_v3(0.0f, 0.0f, 0.0f), 0.05f);
            spx_sweep_hit hab, hba;
            TEST_ENSURE(spx_shape_pair_sweep(&a, down, &b, still, 1.0f, &hab));
            TEST_ENSURE(spx_shape_pair_sweep(&b, still, &a, down, 1.0f, &hba));
            TEST_ENSURE(hab.state == SPX_SWEEP_HIT && hba.state == SPX_SWEEP_HIT);
            TEST_ENSURE_NEAR(hab.time, 0.4f, 2e-3f);
            TEST_ENSURE_NEAR(hba.time, hab.time, 1e-6f);
            TEST_ENSURE_NEAR(hab.normal.y, -1.0f, 1e-3f);
            TEST_ENSURE_NEAR(hba.normal.y, 1.0f, 1e-3f);
        }
    spx_hull_destroy(hull);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(overlap_and_manifold, failures);
    TEST_RUN(sweep_takes_both_growths, failures);
    return failures ? 1 : 0;
}
