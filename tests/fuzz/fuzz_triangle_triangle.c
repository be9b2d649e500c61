/* Two triangles through every triangle-triangle query: overlap, penetration, sweep in both orders.
 * Properties: one error code for the same faulty input whichever query gets it (in the order of
 * base.h); every answer finite; the sweep starts overlapping exactly when the penetration says so,
 * and the overlap test agrees with it; swapping A and B keeps the state and the time, except where
 * the pieces touch to within rounding (docs/tolerances.md: clearances below about 1e-7 of the size
 * are decided by rounding, and may be decided differently in the two orders). */
#include "fuzz.h"

static const spx_triangle near_triangle = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } };
static const spx_triangle far_triangle = { { { 100, 0, 0 }, { 101, 0, 0 }, { 100, 1, 0 } } };

/* The depth of the two triangles with their corners moved to time t. */
static float triangles_depth(const fuzz_moving* m, float t)
{
    spx_triangle x = *(const spx_triangle*)m->a, y = *(const spx_triangle*)m->b;
    for (int i = 0; i < 3; ++i) {
        x.v[i] = fuzz_moved(x.v[i], m->va, t);
        y.v[i] = fuzz_moved(y.v[i], m->vb, t);
    }
    spx_penetration p;
    return fuzz_depth(spx_penetration_triangle_triangle(&x, &y, &p), &p);
}

int fuzz_triangle_triangle(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    const spx_triangle a = fuzz_triangle(&in), b = fuzz_triangle(&in);
    const fuzz_motion mo = fuzz_read_motion(&in);

    bool overlap = false, overlap_ba = false;
    spx_penetration pen;
    const spx_result r_pieces = spx_overlap_triangle_triangle(&a, &b, &overlap);
    FUZZ_CHECK(r_pieces == SPX_OK || fuzz_input_code(r_pieces));
    FUZZ_CHECK(spx_penetration_triangle_triangle(&a, &b, &pen) == r_pieces);
    FUZZ_CHECK(fuzz_first(spx_triangle_validate(&a), spx_triangle_validate(&b)) == r_pieces);

    spx_sweep_hit hit, swapped;
    const spx_result r_motion = spx_sweep_triangle_triangle(&near_triangle, mo.va, &far_triangle, mo.vb, mo.tmax, &hit);
    const spx_result r_sweep = spx_sweep_triangle_triangle(&a, mo.va, &b, mo.vb, mo.tmax, &hit);
    FUZZ_CHECK(r_sweep == fuzz_first(r_pieces, r_motion));
    if (r_sweep != SPX_OK) return 0;
    fuzz_check_hit(&hit, mo.tmax);
    fuzz_check_penetration(&pen);
    FUZZ_CHECK(pen.overlapping == overlap);
    FUZZ_CHECK(spx_overlap_triangle_triangle(&b, &a, &overlap_ba) == SPX_OK);
    spx_penetration pen_ba;
    FUZZ_CHECK(spx_penetration_triangle_triangle(&b, &a, &pen_ba) == SPX_OK);
    const float rounding = 1e-6f * fmaxf(fuzz_triangle_reach(&a), fuzz_triangle_reach(&b));
    const bool touching = fuzz_touching(&pen, &pen_ba, rounding);
    /* Segment-like pairs add axes that depend on the motion, so a touch within rounding may read
       differently at rest and swept. */
    if (!touching) FUZZ_CHECK(pen.overlapping == (hit.state == SPX_SWEEP_START_OVERLAP));
    if (!touching) FUZZ_CHECK(overlap_ba == overlap);
    FUZZ_CHECK(spx_sweep_triangle_triangle(&b, mo.vb, &a, mo.va, mo.tmax, &swapped) == SPX_OK);
    fuzz_check_hit(&swapped, mo.tmax);
    const float reach = fmaxf(fuzz_triangle_reach(&a), fuzz_triangle_reach(&b));
    const float slack = fuzz_time_slack(mo.tmax, reach, mo.va, mo.vb, hit.normal, swapped.normal);
    const fuzz_moving pair = { &a, &b, mo.va, mo.vb };
    fuzz_check_swapped(&hit, &swapped, touching, slack, mo.tmax, rounding, triangles_depth, &pair);
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_triangle_triangle)
