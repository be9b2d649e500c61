/* The swept queries against the double-precision reference on 10,000 random problems per pair kind
 * (the long variant, --long; the default run the first 2,000),
 * plus the static queries at t = 0, symmetry (A and B swapped) and invariance under a rigid motion
 * of the whole problem.
 *
 * Scale. size = the largest of: each piece's diameter (largest distance between two of its
 * vertices), each piece's displacement |v| tmax, and the relative displacement |vb - va| tmax
 * (test_ref_problem.size). Every length tolerance below is a fraction of it.
 *
 * Acceptance rule.
 *  - Hit/miss must agree wherever the reference's signed distance keeps clear of zero by more than
 *    CLEAR = 1e-5 size: sd(0) < -CLEAR start overlap; sd(0) > CLEAR and min sd > CLEAR miss;
 *    sd(0) > CLEAR and min sd < -CLEAR hit. The rest (touching at 0, grazing) is borderline:
 *    counted, and only checked for a valid result code and no contradiction.
 *  - Time of contact within 1e-4 tmax + 1e-5 s of the reference. A contact can be ill-conditioned
 *    (a grazing approach, where sd(t) crosses zero at a shallow slope); then a time between the
 *    first t with sd <= CLEAR and the first with sd <= -CLEAR (widened by the same tolerance) is
 *    what a float computation can honestly give, and is counted as borderline, not failed.
 *  - Normal within 1e-3 rad of the reference's when it is unique. Unique means: no other candidate
 *    axis whose gap is closing has a gap within CLEAR of zero at the contact time (otherwise the
 *    contact is at or near an edge or vertex of the Minkowski difference and a whole cone of
 *    normals is right). Every hit's normal, unique or not, must be a valid contact normal: the
 *    pieces' projections on it overlap by at most 1e-4 size at the reference contact time (a
 *    separating direction just before contact), and the gap along it must not be opening.
 *  - Contact point within 1e-4 size of both pieces at the library's time.
 *  - START_OVERLAP: time exactly 0, depth within 1e-5 of the pieces' size of the exact depth, the
 *    overlap along the library's normal no more than its depth (it is a minimum translation), the
 *    normal within 1e-3 rad when the least-overlap direction is unique.
 *  - Static queries at t = 0 (overlap, penetration) agree wherever |sd(0)| > CLEAR.
 *  - Swapping A and B keeps the state and time and flips the normal; a rigid motion of the whole
 *    problem keeps state and time and rotates the normal (non-borderline cases, same tolerances). */
#include <sepax/sepax.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include "support/test.h"
#include "support/cases.h"
#include "support/reference.h"
#include "support/soa_store.h"

enum { DUMP_LIMIT = 4 };
static int cases_per_kind = 2000; /* --long: 10,000 */

#define CLEAR_FRACTION 1e-5
#define ANGLE_TOL 1e-3
#define VALID_NORMAL_FRACTION 1e-4
#define POINT_FRACTION 1e-4

typedef enum ref_class { CLASS_MISS, CLASS_HIT, CLASS_START_OVERLAP, CLASS_START_TOUCH, CLASS_GRAZE } ref_class;

typedef struct stats {
    int cases, hits, misses, overlaps, borderline, time_illconditioned, normal_ambiguous, failures, swap_checked,
        moved_checked;
    double worst_dt, worst_angle, worst_depth, worst_point;
    int dumped;
} stats;

/* When set, box-box problems go through the batched structure-of-arrays calls instead. */
static bool use_batch;

/* The batched calls on BATCH copies of one pair: every SIMD lane (4 or 8 wide) holds the problem. */
enum { BATCH = 8 };
typedef struct batch_soa {
    float f[15][BATCH];
    spx_obb_soa soa;
} batch_soa;

static void batch_fill(batch_soa* b, const spx_obb* box)
{
    test_soa_bind(&b->soa, &b->f[0][0], BATCH);
    for (int l = 0; l < BATCH; ++l) spx_obb_soa_set_box(&b->soa, (size_t)l, box);
}

static spx_result run_batch_sweep(const test_sweep_case* c, spx_sweep_hit* hit)
{
    batch_soa a, b;
    batch_fill(&a, &c->box[0]);
    batch_fill(&b, &c->box[1]);
    spx_vec3 va[BATCH], vb[BATCH];
    spx_sweep_hit out[BATCH];
    for (int l = 0; l < BATCH; ++l) {
        va[l] = c->velocity[0];
        vb[l] = c->velocity[1];
    }
    memset(out, 0xA5, sizeof out);
    spx_result r = spx_sweep_obb_obb_batch(&a.soa, va, &b.soa, vb, BATCH, c->tmax, out);
    *hit = out[0];
    for (int l = 1; l < BATCH; ++l) /* every lane computed the same problem: the same answer */
        if (r == SPX_OK && memcmp(&out[l], &out[0], sizeof out[0]) != 0) return SPX_RESULT_COUNT;
    return r;
}

static spx_result run_batch_overlap(const test_sweep_case* c, bool* overlap)
{
    batch_soa a, b;
    batch_fill(&a, &c->box[0]);
    batch_fill(&b, &c->box[1]);
    uint8_t out[BATCH];
    spx_result r = spx_overlap_obb_obb_batch(&a.soa, &b.soa, BATCH, out);
    *overlap = out[0] != 0;
    for (int l = 1; l < BATCH; ++l)
        if (out[l] != out[0]) return SPX_RESULT_COUNT;
    return r;
}

static spx_result run_library(const test_sweep_case* c, spx_sweep_hit* hit)
{
    memset(hit, 0xA5, sizeof *hit); /* garbage in: whatever the library leaves unset shows up */
    switch (c->kind) {
    case TEST_CASE_OBB_OBB:
        if (use_batch) return run_batch_sweep(c, hit);
        return spx_sweep_obb_obb(&c->box[0], c->velocity[0], &c->box[1], c->velocity[1], c->tmax, hit);
    case TEST_CASE_OBB_TRIANGLE:
        return spx_sweep_obb_triangle(&c->box[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, hit);
    default:
        return spx_sweep_triangle_triangle(&c->tri[0], c->velocity[0], &c->tri[1], c->velocity[1], c->tmax, hit);
    }
}

static spx_result run_static(const test_sweep_case* c, bool* overlap, spx_penetration* pen)
{
    spx_result r;
    switch (c->kind) {
    case TEST_CASE_OBB_OBB:
        r = use_batch ? run_batch_overlap(c, overlap) : spx_overlap_obb_obb(&c->box[0], &c->box[1], overlap);
        return r != SPX_OK ? r : spx_penetration_obb_obb(&c->box[0], &c->box[1], pen);
    case TEST_CASE_OBB_TRIANGLE:
        r = spx_overlap_obb_triangle(&c->box[0], &c->tri[1], overlap);
        return r != SPX_OK ? r : spx_penetration_obb_triangle(&c->box[0], &c->tri[1], pen);
    default:
        r = spx_overlap_triangle_triangle(&c->tri[0], &c->tri[1], overlap);
        return r != SPX_OK ? r : spx_penetration_triangle_triangle(&c->tri[0], &c->tri[1], pen);
    }
}

static ref_class classify(const test_ref_problem* p, const test_ref_sweep* r)
{
    double clear = CLEAR_FRACTION * p->size;
    if (r->sd_start < -clear) return CLASS_START_OVERLAP;
    if (r->sd_start <= clear) return CLASS_START_TOUCH;
    if (r->sd_min > clear) return CLASS_MISS;
    if (r->sd_min < -clear) return CLASS_HIT;
    return CLASS_GRAZE;
}

static const char* state_name(int s)
{
    return s == SPX_SWEEP_MISS            ? "MISS"
           : s == SPX_SWEEP_HIT           ? "HIT"
           : s == SPX_SWEEP_START_OVERLAP ? "START_OVERLAP"
                                          : "?";
}

static void v3(double out[3], spx_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

static double piece_size(const test_ref_piece* a)
{
    double best = 0;
    for (int i = 0; i < a->count; ++i)
        for (int j = i + 1; j < a->count; ++j) {
            double d[3] = { a->v[i][0] - a->v[j][0], a->v[i][1] - a->v[j][1], a->v[i][2] - a->v[j][2] };
            best = fmax(best, sqrt(test_ref_dot(d, d)));
        }
    return best;
}

/* Prints the first few failures in full; every failure is counted. */
static void fail(stats* st, const test_sweep_case* c, const test_ref_problem* p, const test_ref_sweep* r,
                 const spx_sweep_hit* h, const char* fmt, ...)
{
    ++st->failures;
    if (getenv("SPX_FAILURE_LINES")) { /* one line per failure, for sorting them out by kind */
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "LINE %s seed %llu: ", test_case_kind_name(c->kind), (unsigned long long)c->seed);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
    }
    if (st->dumped >= DUMP_LIMIT) return;
    ++st->dumped;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s seed %llu: ", test_case_kind_name(c->kind), (unsigned long long)c->seed);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fprintf(stderr,
            "  reference: %s time %.9g normal %.9g %.9g %.9g (unique %d) depth %.9g sd(0) %.9g min sd %.9g"
            " size %.9g\n",
            r->state == TEST_REF_MISS  ? "MISS"
            : r->state == TEST_REF_HIT ? "HIT"
                                       : "START_OVERLAP",
            r->time, r->normal[0], r->normal[1], r->normal[2], r->normal_unique, r->depth, r->sd_start, r->sd_min,
            p->size);
    if (h)
        fprintf(stderr, "  library:   %s time %.9g normal %.9g %.9g %.9g depth %.9g axis %d point %.9g %.9g %.9g\n",
                state_name(h->state), h->time, h->normal.x, h->normal.y, h->normal.z, h->depth, h->axis, h->point.x,
                h->point.y, h->point.z);
    test_case_print(stderr, c);
}

/* The answers of the same problem seen two ways agree (swap: normal flipped; motion: rotated). */
static void compare_same_problem(stats* st, const test_sweep_case* c, const test_ref_problem* p,
                                 const test_ref_sweep* r, ref_class cls, const spx_sweep_hit* h,
                                 const test_sweep_case* other_case, const spx_sweep_hit* o,
                                 const double expected_normal[3], const char* what)
{
    double tol_t = 1e-4 * c->tmax + 1e-5;
    if ((int)o->state != (int)h->state) {
        fail(st, c, p, r, h, "%s: state %s, original %s", what, state_name(o->state), state_name(h->state));
        test_case_print(stderr, other_case);
        return;
    }
    if (h->state == SPX_SWEEP_MISS) return;
    if (!(fabs(o->time - h->time) <= tol_t)) {
        /* The moved problem is another set of floats (rounded at the new coordinates); on a
           shallow approach that moves the contact more than the time tolerance. Judge the moved
           answer against its own reference and conditioning window before calling it a failure. */
        test_ref_problem q;
        test_case_reference_problem(other_case, &q);
        test_ref_sweep rq;
        double clear = CLEAR_FRACTION * q.size;
        test_ref_sweep_solve(&q, clear, &rq);
        bool ok = false;
        if (rq.state == TEST_REF_HIT && rq.sd_min < -clear) {
            double t_lo = test_ref_first_time_below(&q, clear, 0.0, rq.time);
            double t_hi = test_ref_first_time_below(&q, -clear, rq.time, rq.t_min);
            ok = o->time >= t_lo - tol_t && o->time <= t_hi + tol_t;
        }
        if (!ok) {
            fail(st, c, p, r, h, "%s: time %.9g, original %.9g (its own reference %.9g)", what, o->time, h->time,
                 rq.time);
            return;
        }
        ++st->time_illconditioned;
    }
    double n[3];
    v3(n, o->normal);
    if (r->normal_unique && cls != CLASS_START_TOUCH && test_ref_angle(n, expected_normal) > ANGLE_TOL)
        fail(st, c, p, r, h, "%s: normal %.9g %.9g %.9g, expected %.9g %.9g %.9g (%.3g rad)", what, n[0], n[1], n[2],
             expected_normal[0], expected_normal[1], expected_normal[2], test_ref_angle(n, expected_normal));
    if (h->state == SPX_SWEEP_START_OVERLAP && !(fabs(o->depth - h->depth) <= 1e-5 * p->size))
        fail(st, c, p, r, h, "%s: depth %.9g, original %.9g", what, o->depth, h->depth);
}

static void check_one(stats* st, const test_sweep_case* c)
{
    test_ref_problem p;
    test_case_reference_problem(c, &p);
    const double clear = CLEAR_FRACTION * p.size, tol_t = 1e-4 * c->tmax + 1e-5;
    test_ref_sweep r;
    test_ref_sweep_solve(&p, clear, &r);
    ref_class cls = classify(&p, &r);
    ++st->cases;

    spx_sweep_hit h;
    spx_result code = run_library(c, &h);
    if (code != SPX_OK) {
        fail(st, c, &p, &r, NULL, "returned %s", spx_result_string(code));
        return;
    }
    if (h.state != SPX_SWEEP_MISS && h.state != SPX_SWEEP_HIT && h.state != SPX_SWEEP_START_OVERLAP) {
        fail(st, c, &p, &r, NULL, "state %d is not a state", (int)h.state);
        return;
    }
    double hn[3], hp[3];
    v3(hn, h.normal);
    v3(hp, h.point);
    if (h.state != SPX_SWEEP_MISS && !(fabs(sqrt(test_ref_dot(hn, hn)) - 1.0) <= 1e-5)) {
        fail(st, c, &p, &r, &h, "normal is not unit (length %.9g)", sqrt(test_ref_dot(hn, hn)));
        return;
    }

    /* Static queries at t = 0 against the reference's sd(0). */
    bool overlap;
    spx_penetration pen;
    code = run_static(c, &overlap, &pen);
    if (code != SPX_OK) fail(st, c, &p, &r, &h, "static query returned %s", spx_result_string(code));
    else if (fabs(r.sd_start) > clear && overlap != (r.sd_start < 0))
        fail(st, c, &p, &r, &h, "static overlap says %d, sd(0) = %.9g", (int)overlap, r.sd_start);
    else if (cls == CLASS_START_OVERLAP && (!pen.overlapping || !(fabs(pen.depth - r.depth) <= 1e-5 * p.size)))
        fail(st, c, &p, &r, &h, "penetration query: overlapping %d depth %.9g, exact depth %.9g", (int)pen.overlapping,
             pen.depth, r.depth);

    switch (cls) {
    case CLASS_MISS:
        ++st->misses;
        if (h.state != SPX_SWEEP_MISS)
            fail(st, c, &p, &r, &h, "expected a miss (clearance %.3g size)", r.sd_min / p.size);
        break;
    case CLASS_START_TOUCH:
    case CLASS_GRAZE:
        ++st->borderline;
        /* Whichever way it goes, it must not contradict a clear fact: a start overlap needs the
           pieces within CLEAR at 0, a hit needs them within CLEAR at its time. */
        if (h.state == SPX_SWEEP_START_OVERLAP && r.sd_start > clear)
            fail(st, c, &p, &r, &h, "start overlap reported with sd(0) = %.9g", r.sd_start);
        if (h.state == SPX_SWEEP_HIT && !(h.time >= 0 && h.time <= c->tmax))
            fail(st, c, &p, &r, &h, "hit time %.9g outside [0, tmax]", h.time);
        else if (h.state == SPX_SWEEP_HIT && test_ref_signed_distance(&p, h.time, NULL) > clear)
            fail(st, c, &p, &r, &h, "borderline hit at %.9g where the pieces are %.3g size apart", h.time,
                 test_ref_signed_distance(&p, h.time, NULL) / p.size);
        break;
    case CLASS_START_OVERLAP: {
        ++st->overlaps;
        if (h.state != SPX_SWEEP_START_OVERLAP) {
            fail(st, c, &p, &r, &h, "expected a start overlap (depth %.3g size)", r.depth / p.size);
            break;
        }
        if (h.time != 0.0f) fail(st, c, &p, &r, &h, "start overlap at time %.9g, not 0", h.time);
        double scale = fmax(piece_size(&p.a), piece_size(&p.b));
        double depth_err = fabs(h.depth - r.depth);
        st->worst_depth = fmax(st->worst_depth, depth_err / scale);
        if (!(depth_err <= 1e-5 * scale)) fail(st, c, &p, &r, &h, "depth %.9g, exact %.9g", h.depth, r.depth);
        double along = -test_ref_gap_along(&p, hn, 0.0); /* overlap of the projections on the library's normal */
        if (!(along <= h.depth + 1e-5 * scale))
            fail(st, c, &p, &r, &h, "pieces overlap by %.9g along the normal, more than the depth %.9g", along,
                 h.depth);
        if (r.normal_unique) {
            double a = test_ref_angle(hn, r.normal);
            st->worst_angle = fmax(st->worst_angle, a);
            if (a > ANGLE_TOL) fail(st, c, &p, &r, &h, "start-overlap normal off by %.3g rad", a);
        } else {
            ++st->normal_ambiguous;
        }
        /* The library puts the point midway between the two surfaces along the normal, so it may
           lie outside a piece by up to half the depth (always so for two triangles, which have no
           inside); it must not be farther. */
        double da = test_ref_point_distance(&p, 0, hp, 0.0), db = test_ref_point_distance(&p, 1, hp, 0.0);
        double ptol = 0.5 * r.depth + POINT_FRACTION * p.size;
        if (!(da <= ptol && db <= ptol))
            fail(st, c, &p, &r, &h, "overlap point %.3g size from A, %.3g from B, depth %.3g size", da / p.size,
                 db / p.size, r.depth / p.size);
        break;
    }
    case CLASS_HIT: {
        ++st->hits;
        if (h.state != SPX_SWEEP_HIT) {
            fail(st, c, &p, &r, &h, "expected a hit at %.9g (penetration %.3g size)", r.time, -r.sd_min / p.size);
            break;
        }
        double dt = fabs(h.time - r.time);
        if (!(dt <= tol_t)) {
            /* Ill-conditioned contact: accept the span where the pieces are within CLEAR of touching. */
            double t_lo = test_ref_first_time_below(&p, clear, 0.0, r.time);
            double t_hi = test_ref_first_time_below(&p, -clear, r.time, r.t_min);
            if (h.time >= t_lo - tol_t && h.time <= t_hi + tol_t) {
                ++st->time_illconditioned;
                ++st->borderline;
                break;
            }
            fail(st, c, &p, &r, &h, "time %.9g, reference %.9g (window %.9g..%.9g)", h.time, r.time, t_lo, t_hi);
            break;
        }
        st->worst_dt = fmax(st->worst_dt, dt / c->tmax);
        double w[3] = { p.vb[0] - p.va[0], p.vb[1] - p.va[1], p.vb[2] - p.va[2] };
        double gap = test_ref_gap_along(&p, hn, r.time);
        if (!(gap >= -VALID_NORMAL_FRACTION * p.size) || test_ref_dot(w, hn) > 1e-3 * sqrt(test_ref_dot(w, w)))
            fail(st, c, &p, &r, &h, "normal is not a contact normal: gap %.3g size at the contact, closing speed %.9g",
                 gap / p.size, -test_ref_dot(w, hn));
        else if (r.normal_unique) {
            double a = test_ref_angle(hn, r.normal);
            st->worst_angle = fmax(st->worst_angle, a);
            if (a > ANGLE_TOL) fail(st, c, &p, &r, &h, "normal off by %.3g rad", a);
        } else {
            ++st->normal_ambiguous;
        }
        double sd_at = test_ref_signed_distance(&p, h.time, NULL);
        double da = test_ref_point_distance(&p, 0, hp, h.time), db = test_ref_point_distance(&p, 1, hp, h.time);
        double ptol = POINT_FRACTION * p.size + fmax(sd_at, 0.0);
        st->worst_point = fmax(st->worst_point, fmax(da, db) / p.size);
        if (!(da <= ptol && db <= ptol))
            fail(st, c, &p, &r, &h, "contact point %.3g size from A, %.3g from B", da / p.size, db / p.size);
        break;
    }
    }
    if (cls == CLASS_START_TOUCH || cls == CLASS_GRAZE) return;

    /* Swapped: the same contact seen from B. */
    if (c->kind != TEST_CASE_OBB_TRIANGLE) {
        test_sweep_case s;
        test_case_swap(c, &s);
        spx_sweep_hit o;
        if (run_library(&s, &o) == SPX_OK) {
            double flipped[3] = { -hn[0], -hn[1], -hn[2] };
            double expected[3] = { -r.normal[0], -r.normal[1], -r.normal[2] };
            ++st->swap_checked;
            /* Against the library's own answer flipped; when unique, also against the reference. */
            compare_same_problem(st, c, &p, &r, cls, &h, &s, &o, r.normal_unique ? expected : flipped, "swapped");
        } else {
            fail(st, c, &p, &r, &h, "swapped problem rejected");
        }
    }

    /* Moved rigidly: rotated about a random axis, shifted by up to 10 sizes. */
    test_case_rng rng = { c->seed ^ 0xD1B54A32D192ED03ull };
    spx_quat q = test_case_random_quat(&rng);
    double shift[3], dir[3];
    test_case_unit_vector(&rng, dir);
    double len = test_case_uniform(&rng, 0, 10) * p.size;
    for (int i = 0; i < 3; ++i) shift[i] = len * dir[i];
    test_sweep_case m;
    test_case_transform(c, q, shift, &m);
    spx_sweep_hit o;
    if (run_library(&m, &o) == SPX_OK) {
        double turned[3];
        test_case_rotate(q, r.normal_unique ? r.normal : hn, turned);
        ++st->moved_checked;
        compare_same_problem(st, c, &p, &r, cls, &h, &m, &o, turned, "moved");
    } else {
        fail(st, c, &p, &r, &h, "moved problem rejected");
    }
}

/* Seeds beyond the first 10,000 that a run of 150,000 per kind found failing, kept so that they
   are checked every time (the first 10,000 alone do not meet them). */
static const uint64_t extra_seeds[TEST_CASE_KIND_COUNT][4] = {
    { 0 },
    { 81789, 111091, 112691, 0 }, /* face axis taken over a nearly parallel edge-edge axis: point off B or A */
    { 99774, 126149, 0 },         /* the same at a start overlap: point farther than depth/2 from B */
};

static int sweep_kind(test_case_kind kind)
{
    stats st;
    memset(&st, 0, sizeof st);
    clock_t t0 = clock();
    for (int i = 0; i < cases_per_kind; ++i) {
        test_sweep_case c;
        test_case_make(kind, (uint64_t)i + 1, &c);
        check_one(&st, &c);
    }
    for (int i = 0; i < 4 && extra_seeds[kind][i] != 0; ++i) {
        test_sweep_case c;
        test_case_make(kind, extra_seeds[kind][i], &c);
        check_one(&st, &c);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("%-18s cases %d: hits %d, misses %d, start overlaps %d, borderline skipped %d (of which ill-conditioned"
           " times %d), ambiguous normals %d, swapped %d, moved %d, failures %d\n",
           use_batch ? "obb-obb (batched)" : test_case_kind_name(kind), st.cases, st.hits, st.misses, st.overlaps,
           st.borderline, st.time_illconditioned, st.normal_ambiguous, st.swap_checked, st.moved_checked, st.failures);
    printf("%-18s worst: time %.3g tmax, unique normal %.3g rad, depth %.3g size, hit point %.3g size; %.2f s\n", "",
           st.worst_dt, st.worst_angle, st.worst_depth, st.worst_point, secs);
    /* The generator must keep all three outcomes well represented, or the comparison proves little. */
    TEST_ENSURE(st.hits > cases_per_kind / 5 && st.misses > cases_per_kind / 5 && st.overlaps > cases_per_kind / 5);
    TEST_ENSURE(st.failures == 0);
    return 0;
}

static int sweep_obb_obb_vs_reference(void) { return sweep_kind(TEST_CASE_OBB_OBB); }
static int sweep_obb_triangle_vs_reference(void) { return sweep_kind(TEST_CASE_OBB_TRIANGLE); }
static int sweep_triangle_triangle_vs_reference(void) { return sweep_kind(TEST_CASE_TRIANGLE_TRIANGLE); }

/* The same box-box problems through spx_sweep_obb_obb_batch and spx_overlap_obb_obb_batch. */
static int sweep_obb_obb_batch_vs_reference(void)
{
    use_batch = true;
    int r = sweep_kind(TEST_CASE_OBB_OBB);
    use_batch = false;
    return r;
}

int main(int argc, char** argv)
{
    if (test_long_run(argc, argv)) cases_per_kind = 10000;
    int failures = 0;
    TEST_RUN(sweep_obb_obb_vs_reference, failures);
    TEST_RUN(sweep_obb_triangle_vs_reference, failures);
    TEST_RUN(sweep_triangle_triangle_vs_reference, failures);
    TEST_RUN(sweep_obb_obb_batch_vs_reference, failures);
    return failures ? 1 : 0;
}
