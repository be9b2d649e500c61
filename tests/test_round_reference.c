/* Spheres and capsules against the brute-force reference (tests/support/round_cases.c), and the
 * same problems asked other ways: A and B swapped, the whole problem moved by up to 1e3 m with a
 * common velocity, each capsule's ends swapped.
 *
 * Scale: size = the largest of the pieces' diameters (radii included) and the distances travelled
 * in tmax. CLEAR = 1e-6 size: where the reference puts the pieces within CLEAR of touching (at 0, or
 * at their closest), either state is right and the case counts as borderline.
 * Accepted (docs/tolerances.md): time 1e-4 tmax + 1e-5 (or the pieces within CLEAR at the library's
 * time: a shallow approach), normal 1e-3 rad where the reference's is unique (cores apart), depth
 * 1e-5 size, contact point within 1e-4 size of both pieces. Every worst value is printed. */
#include "support/test.h"
#include "support/round_cases.h"
#include <float.h>
#include <stdlib.h>
#include <time.h>

typedef struct stats {
    int cases, failures, borderline, states[3];
    double worst_time, worst_normal, worst_depth, worst_point, worst_unique_point;
    double worst_swap_time, worst_swap_normal, worst_swap_point;
    double worst_move_point, worst_flip_time, worst_flip_point;
    int move_differs, swap_state_differs;
} stats;

#define CLEAR_FRACTION 1e-6
#define MAX_REPORTS 12

static int reports = 0;

static void fail(stats* st, const test_round_case* c, const char* what, double a, double b)
{
    ++st->failures;
    if (reports++ < MAX_REPORTS)
        fprintf(stderr, "%s %s seed %llu: %s (%.9g vs %.9g)\n", test_round_kind_name(c->kind),
                test_round_family_name(c->family), (unsigned long long)c->seed, what, a, b);
}

static double angle(spx_vec3 a, const double b[3])
{
    double x[3] = { a.x, a.y, a.z };
    return test_ref_angle(x, b);
}

static double dist3(spx_vec3 a, spx_vec3 b)
{
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static bool same_direction(spx_vec3 a, spx_vec3 b, double tol)
{
    double x[3] = { a.x, a.y, a.z };
    return test_ref_angle(x, (double[3]){ b.x, b.y, b.z }) <= tol;
}

static void check_reference(const test_round_case* c, stats* st)
{
    test_round_ref r;
    test_round_ref_make(c, &r);
    test_round_ref_sweep ref;
    test_round_ref_solve(&r, &ref);
    const double size = r.p.size, clear = CLEAR_FRACTION * size, tol_t = 1e-4 * c->tmax + 1e-5;
    spx_sweep_hit h;
    if (test_round_case_sweep(c, &h) != SPX_OK) {
        fail(st, c, "sweep refused a valid problem", 0, 0);
        return;
    }
    ++st->cases;
    ++st->states[h.state];
    bool borderline = fabs(ref.sd0) <= clear || (ref.state != TEST_REF_START_OVERLAP && fabs(ref.sd_min) <= clear);
    if (borderline) ++st->borderline;
    if (!borderline && (int)h.state != (int)ref.state) {
        fail(st, c, "state differs from the reference (library, reference)", h.state, ref.state);
        return;
    }
    const double* pt;
    if (h.state == SPX_SWEEP_START_OVERLAP && ref.state == TEST_REF_START_OVERLAP) {
        st->worst_depth = fmax(st->worst_depth, fabs(h.depth - ref.depth) / size);
        if (!(fabs(h.depth - ref.depth) <= 1e-5 * size)) fail(st, c, "depth", h.depth, ref.depth);
        if (ref.normal[0] != 0 || ref.normal[1] != 0 || ref.normal[2] != 0) {
            double a = angle(h.normal, ref.normal);
            if (ref.depth > clear) st->worst_normal = fmax(st->worst_normal, a);
            if (ref.depth > clear && !(a <= 1e-3)) fail(st, c, "start-overlap normal (rad)", a, 0);
        }
        pt = (const double[3]){ h.point.x, h.point.y, h.point.z };
        double da = test_round_ref_point_distance(&r, 0, pt, 0.0), db = test_round_ref_point_distance(&r, 1, pt, 0.0);
        double tol = 0.5 * ref.depth + 1e-4 * size;
        if (!(da <= tol && db <= tol)) fail(st, c, "overlap point off the pieces (from A, from B)", da, db);
    } else if (h.state == SPX_SWEEP_HIT && ref.state == TEST_REF_HIT) {
        double dt = fabs(h.time - ref.time);
        double sd_at = test_round_ref_sd(&r, h.time, NULL);
        if (!(dt <= tol_t) && !(fabs(sd_at) <= clear)) fail(st, c, "time", h.time, ref.time);
        if (!borderline) st->worst_time = fmax(st->worst_time, dt / c->tmax);
        if (!borderline && (ref.normal[0] != 0 || ref.normal[1] != 0 || ref.normal[2] != 0) && dt <= tol_t) {
            double a = angle(h.normal, ref.normal);
            st->worst_normal = fmax(st->worst_normal, a);
            if (!(a <= 1e-3)) fail(st, c, "hit normal (rad)", a, 0);
        }
        pt = (const double[3]){ h.point.x, h.point.y, h.point.z };
        double da = test_round_ref_point_distance(&r, 0, pt, h.time),
               db = test_round_ref_point_distance(&r, 1, pt, h.time);
        double tol = 1e-4 * size + fmax(sd_at, 0.0);
        st->worst_point = fmax(st->worst_point, fmax(da, db) / size);
        if (!(da <= tol && db <= tol)) fail(st, c, "contact point off the pieces (from A, from B)", da, db);
        /* A sphere touches at one point: the reference's own. */
        if (!test_round_kind_a_is_capsule(c->kind) && !borderline && r.ra + r.rb > 0.0 && dt <= 1e-9 * c->tmax) {
            double e = 0.0;
            for (int k = 0; k < 3; ++k) e += ((&h.point.x)[k] - ref.point[k]) * ((&h.point.x)[k] - ref.point[k]);
            e = sqrt(e) / size;
            st->worst_unique_point = fmax(st->worst_unique_point, e);
            if (!(e <= 1e-4)) fail(st, c, "sphere contact point away from the reference's (size)", e, 0);
        }
    }
    /* The static queries agree with the sweep's start. */
    spx_penetration pen;
    bool ov;
    if (test_round_case_penetration(c, &pen) != SPX_OK || test_round_case_overlap(c, &ov) != SPX_OK) {
        fail(st, c, "static query refused", 0, 0);
        return;
    }
    if (pen.overlapping != (h.state == SPX_SWEEP_START_OVERLAP) || ov != pen.overlapping)
        fail(st, c, "penetration, overlap and sweep disagree on overlap", pen.overlapping, ov);
    if (pen.overlapping && !(fabs(pen.depth - h.depth) <= 1e-6 * size))
        fail(st, c, "penetration depth vs sweep", pen.depth, h.depth);
    /* The manifold: a point wherever they overlap, each inside both pieces to half its depth. */
    spx_manifold m;
    if (test_round_case_manifold(c, 0.0f, &m) != SPX_OK) {
        fail(st, c, "manifold refused", 0, 0);
        return;
    }
    if (pen.overlapping && ref.sd0 < -clear) {
        if (m.point_count < 1) fail(st, c, "overlapping but no manifold point", pen.depth, 0);
        double deepest = -INFINITY;
        for (int i = 0; i < m.point_count; ++i) {
            pt = (const double[3]){ m.points[i].point.x, m.points[i].point.y, m.points[i].point.z };
            double da = test_round_ref_point_distance(&r, 0, pt, 0.0),
                   db = test_round_ref_point_distance(&r, 1, pt, 0.0);
            double tol = 0.5 * fabs(m.points[i].depth) + 1e-4 * size;
            if (!(da <= tol && db <= tol)) fail(st, c, "manifold point off the pieces (from A, from B)", da, db);
            deepest = fmax(deepest, m.points[i].depth);
        }
        if (m.point_count > 0 && !(fabs(deepest - pen.depth) <= 0.02 * pen.depth + 1e-5 * size))
            fail(st, c, "deepest manifold point vs penetration depth", deepest, pen.depth);
    }
}

/* The same problem asked with A and B swapped (the normal negated), with the capsules' ends swapped,
   and moved by a common offset with a common velocity. */
static void check_properties(const test_round_case* in, uint64_t seed, stats* st)
{
    test_round_case c, other;
    test_round_case_snap(in, &c);
    test_round_ref r;
    test_round_ref_make(&c, &r);
    const double size = r.p.size, tol_t = 1e-4 * c.tmax + 1e-5;
    spx_sweep_hit h, g;
    if (test_round_case_sweep(&c, &h) != SPX_OK) return;
    /* Borderline: within CLEAR of touching at 0 or at the closest. */
    test_round_ref_sweep ref;
    test_round_ref_solve(&r, &ref);
    const bool borderline = fabs(ref.sd0) <= CLEAR_FRACTION * size || fabs(ref.sd_min) <= CLEAR_FRACTION * size;

    test_case_rng rng = { seed ^ 0xD1B54A32D192ED03ull };
    spx_vec3 offset, vel;
    test_case_random_shift(&rng, &offset, &vel);
    test_round_case_move(&c, offset, vel, &other);
    if (test_round_case_sweep(&other, &g) != SPX_OK) {
        fail(st, &c, "moved problem refused", 0, 0);
        return;
    }
    if (g.state != h.state || g.time != h.time || g.depth != h.depth || !same_direction(g.normal, h.normal, 1e-7)) {
        ++st->move_differs;
        fail(st, &c, "moved problem: state or time differs", g.state * 10.0 + g.time, h.state * 10.0 + h.time);
    } else if (h.state != SPX_SWEEP_MISS) {
        /* The point moves with the problem: offset plus the common velocity times the time. */
        spx_vec3 back = spx_v3((float)((double)g.point.x - offset.x - (double)vel.x * g.time),
                               (float)((double)g.point.y - offset.y - (double)vel.y * g.time),
                               (float)((double)g.point.z - offset.z - (double)vel.z * g.time));
        double e = dist3(back, h.point), steps = 4.0 * FLT_EPSILON * (1500.0 + 10.0 * size);
        st->worst_move_point = fmax(st->worst_move_point, fmax(0.0, e - steps) / size);
        if (!(e <= steps + 1e-6 * size)) fail(st, &c, "moved problem: point", e, steps);
    }

    if (c.kind == TEST_RP_SPHERE_SPHERE || c.kind == TEST_RP_CAPSULE_CAPSULE) {
        test_round_case_swap(&c, &other);
        if (test_round_case_sweep(&other, &g) != SPX_OK) return;
        if (g.state != h.state) {
            if (!borderline) {
                ++st->swap_state_differs;
                fail(st, &c, "swapped: state", g.state, h.state);
            }
        } else if (h.state != SPX_SWEEP_MISS && !borderline) {
            double dt = fabs(g.time - h.time);
            st->worst_swap_time = fmax(st->worst_swap_time, dt / c.tmax);
            if (!(dt <= tol_t)) fail(st, &c, "swapped: time", g.time, h.time);
            spx_vec3 neg = spx_v3(-g.normal.x, -g.normal.y, -g.normal.z);
            double a = angle(neg, (double[3]){ h.normal.x, h.normal.y, h.normal.z });
            bool unique = ref.normal[0] != 0 || ref.normal[1] != 0 || ref.normal[2] != 0;
            if (unique && dt <= 1e-9 * c.tmax) {
                st->worst_swap_normal = fmax(st->worst_swap_normal, a);
                if (!(a <= 1e-3)) fail(st, &c, "swapped: normal not negated (rad)", a, 0);
                double e = dist3(g.point, h.point) / size;
                st->worst_swap_point = fmax(st->worst_swap_point, e);
                if (!(e <= 1e-4)) fail(st, &c, "swapped: point (size)", e, 0);
            }
            if (h.state == SPX_SWEEP_START_OVERLAP && !(fabs(g.depth - h.depth) <= 1e-6 * size))
                fail(st, &c, "swapped: depth", g.depth, h.depth);
        }
    }

    if (test_round_kind_a_is_capsule(c.kind) || test_round_kind_b(c.kind) == 1) {
        test_round_case_flip_capsules(&c, &other);
        if (test_round_case_sweep(&other, &g) != SPX_OK) return;
        if (g.state != h.state) {
            if (!borderline) fail(st, &c, "capsule ends swapped: state", g.state, h.state);
        } else if (h.state != SPX_SWEEP_MISS && !borderline) {
            double dt = fabs(g.time - h.time);
            st->worst_flip_time = fmax(st->worst_flip_time, dt / c.tmax);
            if (!(dt <= tol_t)) fail(st, &c, "capsule ends swapped: time", g.time, h.time);
            bool unique = ref.normal[0] != 0 || ref.normal[1] != 0 || ref.normal[2] != 0;
            if (unique && dt <= 1e-9 * c.tmax) {
                if (!same_direction(g.normal, h.normal, 1e-3)) fail(st, &c, "capsule ends swapped: normal", 0, 0);
                double e = dist3(g.point, h.point) / size;
                st->worst_flip_point = fmax(st->worst_flip_point, e);
                if (!(e <= 1e-4)) fail(st, &c, "capsule ends swapped: point (size)", e, 0);
            }
        }
    }
}

int main(int argc, char** argv)
{
    const bool long_run = test_long_run(argc, argv);
    /* Per kind: default 500 a family (2,000 a kind); --long 25,000 a family. */
    const int per_family = long_run ? 25000 : 500;
    int failures = 0;
    printf("%-17s %6s %6s %6s %6s %5s | %-9s %-9s %-9s %-9s %-9s | %-9s %-9s %-9s %-9s %-9s %-9s\n", "kind", "cases",
           "miss", "hit", "start", "bord", "time/T", "normal", "depth/s", "point/s", "sphpt/s", "swap t/T", "swap n",
           "swap p/s", "move p/s", "flip t/T", "flip p/s");
    for (int k = 0; k < TEST_RP_KIND_COUNT; ++k) {
        stats st;
        memset(&st, 0, sizeof st);
        reports = 0;
        clock_t t0 = clock();
        for (int f = 0; f < TEST_RF_COUNT; ++f)
            for (int s = 0; s < per_family; ++s) {
                test_round_case c;
                test_round_case_make((test_round_pair_kind)k, (test_round_family)f, (uint64_t)s, &c);
                check_reference(&c, &st);
                check_properties(&c, (uint64_t)s * 31u + (uint64_t)k, &st);
            }
        printf("%-17s %6d %6d %6d %6d %5d | %-9.2g %-9.2g %-9.2g %-9.2g %-9.2g | %-9.2g %-9.2g %-9.2g %-9.2g %-9.2g "
               "%-9.2g  %.1f s\n",
               test_round_kind_name((test_round_pair_kind)k), st.cases, st.states[0], st.states[1], st.states[2],
               st.borderline, st.worst_time, st.worst_normal, st.worst_depth, st.worst_point, st.worst_unique_point,
               st.worst_swap_time, st.worst_swap_normal, st.worst_swap_point, st.worst_move_point, st.worst_flip_time,
               st.worst_flip_point, (double)(clock() - t0) / CLOCKS_PER_SEC);
        if (st.failures) {
            fprintf(stderr, "FAILED: %s: %d failures\n", test_round_kind_name((test_round_pair_kind)k), st.failures);
            ++failures;
        }
    }
    return failures ? 1 : 0;
}
