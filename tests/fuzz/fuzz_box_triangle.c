/* A box and a triangle through every box-triangle query: overlap, penetration, sweep, manifold
 * (plain and with surface edges). Properties: one error code for the same faulty input whichever
 * query gets it (in the order of base.h); every answer finite; the sweep starts overlapping exactly
 * when the penetration says so, and a box overlapping a triangle by more than rounding has points. */
#include "fuzz.h"

static const spx_obb unit_box = { { 0, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
static const spx_triangle far_triangle = { { { 100, 0, 0 }, { 101, 0, 0 }, { 100, 1, 0 } } };

int fuzz_box_triangle(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    const spx_obb a = fuzz_obb(&in);
    const spx_triangle b = fuzz_triangle(&in);
    const fuzz_motion mo = fuzz_read_motion(&in);
    const float margin = fuzz_mostly_positive(&in);
    spx_triangle_edges edges;
    for (int j = 0; j < 3; ++j)
        edges.angle[j] = (fuzz_next_byte(&in) & 3) ? (float)(int8_t)fuzz_next_byte(&in) / 40.0f : SPX_EDGE_OPEN;
    edges.corners = fuzz_next_byte(&in) & 7;

    bool overlap = false;
    spx_penetration pen;
    const spx_result r_pieces = spx_overlap_obb_triangle(&a, &b, &overlap);
    FUZZ_CHECK(r_pieces == SPX_OK || fuzz_input_code(r_pieces));
    FUZZ_CHECK(spx_penetration_obb_triangle(&a, &b, &pen) == r_pieces);
    FUZZ_CHECK(fuzz_first(spx_obb_validate(&a), spx_triangle_validate(&b)) == r_pieces);

    spx_sweep_hit hit;
    const spx_result r_motion = spx_sweep_obb_triangle(&unit_box, mo.va, &far_triangle, mo.vb, mo.tmax, &hit);
    const spx_result r_sweep = spx_sweep_obb_triangle(&a, mo.va, &b, mo.vb, mo.tmax, &hit);
    FUZZ_CHECK(r_sweep == fuzz_first(r_pieces, r_motion));
    spx_manifold m, mx;
    const spx_result r_margin = spx_manifold_obb_triangle(&unit_box, &far_triangle, margin, &m);
    FUZZ_CHECK(spx_manifold_obb_triangle(&a, &b, margin, &m) == fuzz_first(r_pieces, r_margin));
    FUZZ_CHECK(spx_manifold_obb_mesh_triangle(&a, &b, &edges, margin, &mx) == fuzz_first(r_pieces, r_margin));

    const float reach = fmaxf(fuzz_box_reach(&a), fuzz_triangle_reach(&b));
    if (r_sweep == SPX_OK) {
        fuzz_check_hit(&hit, mo.tmax);
        fuzz_check_penetration(&pen);
        FUZZ_CHECK(pen.overlapping == (hit.state == SPX_SWEEP_START_OVERLAP));
        if (pen.overlapping && pen.depth > 1e-5f * reach) FUZZ_CHECK(overlap);
    }
    if (r_pieces == SPX_OK && r_margin == SPX_OK) {
        fuzz_check_manifold(&m, margin, 1e-4f * reach);
        fuzz_check_manifold(&mx, margin, 1e-4f * reach);
        if (pen.overlapping && pen.depth > 1e-4f * reach) FUZZ_CHECK(m.point_count >= 1);
    }
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_box_triangle)
