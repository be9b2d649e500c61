/* Two boxes through every box-box query: overlap, penetration, sweep (both orders), manifold, and
 * the batched overlap and sweep. Properties: one error code for the same faulty input whichever
 * query gets it (in the order of base.h, the batch too); every answer finite; the queries agree
 * (a sweep starts overlapping exactly when the penetration says so, the float overlap test says
 * yes wherever they overlap by more than its tolerance, overlapping boxes have manifold points,
 * swapping A and B keeps the state and the time, but for a touch within rounding). */
#include "fuzz.h"

static const spx_obb unit_box = { { 0, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
static const spx_obb far_box = { { 100, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };

enum { LANES = 8 }; /* a full lane group with AVX2, two with SSE2, and no tail */

static void soa_put(float store[15][LANES], spx_obb_soa* soa, const spx_obb* box)
{
    for (int k = 0; k < 3; ++k) {
        soa->center[k] = store[k];
        soa->half_extents[k] = store[3 + k];
        for (int m = 0; m < 3; ++m) soa->axis[k][m] = store[6 + 3 * k + m];
    }
    soa->capacity = LANES;
    /* behind spx_obb_soa_set_box's back, so that the batch sees the faulty boxes too */
    for (size_t i = 0; i < LANES; ++i) {
        const float* c = &box->center.x;
        const float* h = &box->half_extents.x;
        for (int k = 0; k < 3; ++k) {
            soa->center[k][i] = c[k];
            soa->half_extents[k][i] = h[k];
            for (int m = 0; m < 3; ++m) soa->axis[k][m][i] = (&box->rotation.col[k].x)[m];
        }
    }
}

/* The depth of the two boxes with their centres moved to time t. */
static float boxes_depth(const fuzz_moving* m, float t)
{
    spx_obb x = *(const spx_obb*)m->a, y = *(const spx_obb*)m->b;
    x.center = fuzz_moved(x.center, m->va, t);
    y.center = fuzz_moved(y.center, m->vb, t);
    spx_penetration p;
    return fuzz_depth(spx_penetration_obb_obb(&x, &y, &p), &p);
}

int fuzz_box_box(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    const spx_obb a = fuzz_obb(&in), b = fuzz_obb(&in);
    const fuzz_motion mo = fuzz_read_motion(&in);
    const float margin = fuzz_mostly_positive(&in);

    bool overlap = false;
    spx_penetration pen;
    const spx_result r_pieces = spx_overlap_obb_obb(&a, &b, &overlap);
    FUZZ_CHECK(r_pieces == SPX_OK || fuzz_input_code(r_pieces));
    FUZZ_CHECK(spx_penetration_obb_obb(&a, &b, &pen) == r_pieces);
    FUZZ_CHECK(spx_obb_validate(&a) == SPX_OK || r_pieces != SPX_OK);

    /* The motion's own code, seen through two good boxes; then the sweep must give the first of both. */
    spx_sweep_hit hit, swapped;
    const spx_result r_motion = spx_sweep_obb_obb(&unit_box, mo.va, &far_box, mo.vb, mo.tmax, &hit);
    const spx_result r_sweep = spx_sweep_obb_obb(&a, mo.va, &b, mo.vb, mo.tmax, &hit);
    FUZZ_CHECK(r_sweep == fuzz_first(r_pieces, r_motion));
    spx_manifold m;
    const spx_result r_margin = spx_manifold_obb_obb(&unit_box, &far_box, margin, &m);
    const spx_result r_manifold = spx_manifold_obb_obb(&a, &b, margin, &m);
    FUZZ_CHECK(r_manifold == fuzz_first(r_pieces, r_margin));

    /* The batch: the same codes as the single call for the velocities, the interval and stored values
       that are not finite; it trusts the stored boxes as spx_obb_soa_set_box left them beyond that (the
       harness writes the arrays itself). The same states on success. */
    static float store_a[15][LANES], store_b[15][LANES];
    spx_obb_soa sa, sb;
    soa_put(store_a, &sa, &a);
    soa_put(store_b, &sb, &b);
    spx_vec3 vas[LANES], vbs[LANES];
    for (int i = 0; i < LANES; ++i) vas[i] = mo.va, vbs[i] = mo.vb;
    spx_sweep_hit hits[LANES];
    uint8_t overlaps[LANES];
    const spx_result r_batch = spx_sweep_obb_obb_batch(&sa, vas, &sb, vbs, LANES, mo.tmax, hits);
    const spx_result r_obatch = spx_overlap_obb_obb_batch(&sa, &sb, LANES, overlaps);
    if (r_pieces == SPX_OK || r_pieces == SPX_ERR_NOT_FINITE) {
        FUZZ_CHECK(r_batch == r_sweep);
        FUZZ_CHECK(r_obatch == r_pieces);
    }

    if (r_sweep == SPX_OK) {
        fuzz_check_hit(&hit, mo.tmax);
        fuzz_check_penetration(&pen);
        FUZZ_CHECK(pen.overlapping == (hit.state == SPX_SWEEP_START_OVERLAP));
        FUZZ_CHECK(spx_sweep_obb_obb(&b, mo.vb, &a, mo.va, mo.tmax, &swapped) == SPX_OK);
        fuzz_check_hit(&swapped, mo.tmax);
        const float reach = fmaxf(fuzz_box_reach(&a), fuzz_box_reach(&b));
        /* A touch within rounding (1e-6 of the size, plus three times the rotations' distance from
           orthonormal: a projection sums three extents, each that much off; docs/tolerances.md) may
           read either way. */
        spx_penetration pen_ba;
        FUZZ_CHECK(spx_penetration_obb_obb(&b, &a, &pen_ba) == SPX_OK);
        const float skew = fmaxf(fuzz_rotation_error(&a.rotation), fuzz_rotation_error(&b.rotation));
        const float rounding = (1e-6f + 3.0f * skew) * reach;
        const bool touching = fuzz_touching(&pen, &pen_ba, rounding);
        const float slack = fuzz_time_slack(mo.tmax, reach, mo.va, mo.vb, hit.normal, swapped.normal);
        const fuzz_moving pair = { &a, &b, mo.va, mo.vb };
        fuzz_check_swapped(&hit, &swapped, touching, slack, mo.tmax, rounding, boxes_depth, &pair);
        for (int i = 0; i < LANES; ++i) {
            const spx_sweep_hit* lane_first = hit.state == SPX_SWEEP_HIT ? &hit : &hits[i];
            FUZZ_CHECK(fuzz_states_may_differ(&hit, &hits[i], touching, slack, mo.tmax) ||
                       (lane_first->state == SPX_SWEEP_HIT &&
                        fuzz_grazes(boxes_depth, &pair, lane_first->time, mo.tmax, rounding)));
            FUZZ_CHECK(overlaps[i] == overlap);
            fuzz_check_hit(&hits[i], mo.tmax);
        }
        /* The float overlap test answers "touching" up to ~1e-6 of the size; beyond it, it agrees. */
        const float tol = 1e-5f * reach;
        if (pen.overlapping && pen.depth > tol) FUZZ_CHECK(overlap);
        (void)r_obatch;
    }
    if (r_pieces == SPX_OK && r_margin == SPX_OK) {
        fuzz_check_manifold(&m, margin, 1e-4f * fmaxf(fuzz_box_reach(&a), fuzz_box_reach(&b)));
        if (pen.overlapping && pen.depth > 1e-4f * fmaxf(fuzz_box_reach(&a), fuzz_box_reach(&b)))
            FUZZ_CHECK(m.point_count >= 1);
    }
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_box_box)
