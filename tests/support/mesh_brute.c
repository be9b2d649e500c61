/* The all-pairs brute force for the mesh queries: see mesh_brute.h. */
#include "mesh_brute.h"
#include "support/test.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_LIMIT 12 /* failures printed in full per statistics block; all are counted */

const char* test_brute_state_name(int state)
{
    return state == SPX_SWEEP_MISS            ? "MISS"
           : state == SPX_SWEEP_HIT           ? "HIT"
           : state == SPX_SWEEP_START_OVERLAP ? "START_OVERLAP"
                                              : "?";
}

bool test_brute_side_from_instance(test_brute_side* out, const spx_mesh_instance* instance)
{
    memset(out, 0, sizeof *out);
    spx_mesh_info info;
    const spx_mesh* mesh_of = NULL;
    if (spx_mesh_instance_get_mesh(instance, &mesh_of) != SPX_OK || spx_mesh_get_info(mesh_of, &info) != SPX_OK)
        return false;
    out->tri = malloc(sizeof(spx_triangle) * info.triangle_count);
    out->source = malloc(sizeof(uint32_t) * info.triangle_count);
    if (!out->tri || !out->source) {
        test_brute_side_free(out);
        return false;
    }
    for (uint32_t i = 0; i < info.triangle_count; ++i) {
        spx_triangle t;
        uint32_t src = 0;
        if (spx_mesh_instance_get_triangle(instance, i, &t, &src) != SPX_OK) {
            test_brute_side_free(out);
            return false;
        }
        /* The queries skip a triangle that the pose's rounding made degenerate (the leaf test would
           refuse it); the brute force does the same, and counts them. */
        if (spx_triangle_validate(&t) != SPX_OK) {
            out->skipped++;
            continue;
        }
        out->tri[out->count] = t;
        out->source[out->count] = src;
        out->count++;
    }
    return true;
}

void test_brute_side_from_box(test_brute_side* out, const spx_obb* box)
{
    memset(out, 0, sizeof *out);
    out->is_box = true;
    out->box = *box;
    out->count = 1;
}

void test_brute_side_free(test_brute_side* s)
{
    free(s->tri);
    free(s->source);
    memset(s, 0, sizeof *s);
}

void test_brute_answer_free(test_brute_answer* r)
{
    free(r->pairs);
    free(r->in_set);
    free(r->optional);
    memset(r, 0, sizeof *r);
}

static int pair_order(const void* x, const void* y)
{
    const test_brute_pair *p = x, *q = y;
    if (p->ta != q->ta) return p->ta < q->ta ? -1 : 1;
    if (p->tb != q->tb) return p->tb < q->tb ? -1 : 1;
    return 0;
}

static bool push_pair(test_brute_answer* r, uint32_t* cap, uint32_t ia, uint32_t ib, uint32_t ta, uint32_t tb,
                      const spx_sweep_hit* h)
{
    if (r->pair_count == *cap) {
        uint32_t grown = *cap ? 2 * *cap : 256;
        test_brute_pair* p = realloc(r->pairs, sizeof(test_brute_pair) * grown);
        if (!p) return false;
        r->pairs = p;
        *cap = grown;
    }
    r->pairs[r->pair_count++] = (test_brute_pair){ ia, ib, ta, tb, *h };
    return true;
}

/* Corners of piece i of a side: 8 for the box, 3 for a triangle. */
static int corners(const test_brute_side* s, uint32_t i, spx_vec3 out[8])
{
    if (s->is_box) {
        spx_obb_get_corners(&s->box, out);
        return 8;
    }
    for (int k = 0; k < 3; ++k) out[k] = s->tri[i].v[k];
    return 3;
}

static double dot3(spx_vec3 a, const double n[3]) { return a.x * n[0] + a.y * n[1] + a.z * n[2]; }

/* The depth estimate along n: for each pair of the set, how far B must move along n for the two
   pieces' projections to part (A's highest corner less B's lowest); the largest over the pairs. */
static float depth_along(const test_brute_side* a, const test_brute_side* b, const test_brute_answer* r,
                         const double n[3])
{
    double depth = -INFINITY;
    for (uint32_t k = 0; k < r->pair_count; ++k) {
        if (!r->in_set[k]) continue;
        spx_vec3 ca[8], cb[8];
        int na = corners(a, r->pairs[k].ia, ca), nb = corners(b, r->pairs[k].ib, cb);
        double hi = -INFINITY, lo = INFINITY;
        for (int i = 0; i < na; ++i) hi = fmax(hi, dot3(ca[i], n));
        for (int i = 0; i < nb; ++i) lo = fmin(lo, dot3(cb[i], n));
        depth = fmax(depth, hi - lo);
    }
    return (float)depth;
}

/* State, first pair, contact set, averaged normal, point and depth from the pairs found. */
static bool finish(const test_brute_side* a, const test_brute_side* b, test_brute_answer* r)
{
    if (r->pair_count) qsort(r->pairs, r->pair_count, sizeof(test_brute_pair), pair_order);
    r->in_set = calloc(r->pair_count + 1, sizeof(bool));
    r->optional = calloc(r->pair_count + 1, sizeof(bool));
    if (!r->in_set || !r->optional) return false;
    r->state = SPX_SWEEP_MISS;
    for (uint32_t k = 0; k < r->pair_count; ++k) {
        spx_sweep_state s = r->pairs[k].hit.state;
        if (s == SPX_SWEEP_START_OVERLAP) r->state = SPX_SWEEP_START_OVERLAP;
        else if (s == SPX_SWEEP_HIT && r->state == SPX_SWEEP_MISS) r->state = SPX_SWEEP_HIT;
    }
    if (r->state == SPX_SWEEP_MISS) return true;
    if (r->state == SPX_SWEEP_HIT) {
        /* First by (time, ta, tb): the pairs are sorted by (ta, tb), so the first of the least time wins. */
        uint32_t first = UINT32_MAX;
        for (uint32_t k = 0; k < r->pair_count; ++k)
            if (first == UINT32_MAX || r->pairs[k].hit.time < r->pairs[first].hit.time) first = k;
        r->first = first;
        r->time = r->pairs[first].hit.time;
        const float end = r->time + SPX_MESH_CONTACT_WINDOW * r->tmax;
        const float slack = 2e-6f * r->tmax;
        for (uint32_t k = 0; k < r->pair_count; ++k) {
            float t = r->pairs[k].hit.time;
            if (fabsf(t - end) <= slack) r->optional[k] = true, r->set_optional++;
            else if (t <= end) r->in_set[k] = true, r->set_count++;
        }
        return true;
    }
    /* START_OVERLAP: the set is every pair overlapping at t = 0. */
    double sum_n[3] = { 0, 0, 0 }, sum_p[3] = { 0, 0, 0 };
    uint32_t deepest = UINT32_MAX;
    for (uint32_t k = 0; k < r->pair_count; ++k) {
        const spx_sweep_hit* h = &r->pairs[k].hit;
        if (h->state != SPX_SWEEP_START_OVERLAP) continue;
        r->in_set[k] = true;
        r->set_count++;
        sum_n[0] += h->normal.x, sum_n[1] += h->normal.y, sum_n[2] += h->normal.z;
        sum_p[0] += h->point.x, sum_p[1] += h->point.y, sum_p[2] += h->point.z;
        if (deepest == UINT32_MAX || h->depth > r->pairs[deepest].hit.depth) deepest = k;
    }
    r->first = deepest;
    r->time = 0.0f;
    double n[3] = { sum_n[0] / r->set_count, sum_n[1] / r->set_count, sum_n[2] / r->set_count };
    r->mean_length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (r->mean_length >= 1e-3) {
        for (int i = 0; i < 3; ++i) n[i] /= r->mean_length;
    } else {
        spx_vec3 d = r->pairs[deepest].hit.normal;
        n[0] = d.x, n[1] = d.y, n[2] = d.z;
    }
    r->normal = spx_v3((float)n[0], (float)n[1], (float)n[2]);
    r->point =
        spx_v3((float)(sum_p[0] / r->set_count), (float)(sum_p[1] / r->set_count), (float)(sum_p[2] / r->set_count));
    r->depth = depth_along(a, b, r, n);
    return true;
}

bool test_brute_sweep(const test_brute_side* a, spx_vec3 va, const test_brute_side* b, spx_vec3 vb, float tmax,
                      test_brute_answer* out)
{
    memset(out, 0, sizeof *out);
    out->tmax = tmax;
    if (b->is_box) return false; /* the box is always A */
    uint32_t cap = 0;
    for (uint32_t i = 0; i < a->count; ++i)
        for (uint32_t j = 0; j < b->count; ++j) {
            spx_sweep_hit h;
            spx_result res = a->is_box ? spx_sweep_obb_triangle(&a->box, va, &b->tri[j], vb, tmax, &h)
                                       : spx_sweep_triangle_triangle(&a->tri[i], va, &b->tri[j], vb, tmax, &h);
            out->tests++;
            if (res != SPX_OK) {
                fprintf(stderr, "brute force: single-pair sweep %u, %u failed: %s\n", i, j, spx_result_string(res));
                return false;
            }
            if (h.state == SPX_SWEEP_MISS) continue;
            if (!push_pair(out, &cap, i, j, a->is_box ? SPX_NO_TRIANGLE : a->source[i], b->source[j], &h)) return false;
        }
    return finish(a, b, out);
}

bool test_brute_static(const test_brute_side* a, const test_brute_side* b, test_brute_answer* out)
{
    memset(out, 0, sizeof *out);
    if (b->is_box) return false;
    uint32_t cap = 0;
    const spx_vec3 still = { 0, 0, 0 };
    for (uint32_t i = 0; i < a->count; ++i)
        for (uint32_t j = 0; j < b->count; ++j) {
            bool overlap = false;
            spx_penetration pen;
            spx_sweep_hit h;
            spx_result r1, r2, r3;
            if (a->is_box) {
                r1 = spx_overlap_obb_triangle(&a->box, &b->tri[j], &overlap);
                r2 = spx_penetration_obb_triangle(&a->box, &b->tri[j], &pen);
                r3 = spx_sweep_obb_triangle(&a->box, still, &b->tri[j], still, 0.0f, &h);
            } else {
                r1 = spx_overlap_triangle_triangle(&a->tri[i], &b->tri[j], &overlap);
                r2 = spx_penetration_triangle_triangle(&a->tri[i], &b->tri[j], &pen);
                r3 = spx_sweep_triangle_triangle(&a->tri[i], still, &b->tri[j], still, 0.0f, &h);
            }
            out->tests++;
            if (r1 != SPX_OK || r2 != SPX_OK || r3 != SPX_OK) {
                fprintf(stderr, "brute force: single-pair static test %u, %u failed\n", i, j);
                return false;
            }
            if (overlap != pen.overlapping || overlap != (h.state == SPX_SWEEP_START_OVERLAP)) out->inconsistent++;
            if (!overlap) continue;
            /* The contract: each pair with its minimum translation (spx_penetration_*), its point as a sweep's. */
            h.state = SPX_SWEEP_START_OVERLAP;
            h.time = 0.0f;
            h.normal = pen.normal;
            h.depth = pen.depth;
            h.axis = pen.axis;
            if (!push_pair(out, &cap, i, j, a->is_box ? SPX_NO_TRIANGLE : a->source[i], b->source[j], &h)) return false;
        }
    return finish(a, b, out);
}

const test_brute_pair* test_brute_find(const test_brute_answer* e, uint32_t ta, uint32_t tb)
{
    test_brute_pair key;
    memset(&key, 0, sizeof key);
    key.ta = ta, key.tb = tb;
    if (!e->pair_count) return NULL;
    return bsearch(&key, e->pairs, e->pair_count, sizeof(test_brute_pair), pair_order);
}

/* ---- comparison ------------------------------------------------------------------------------ */

typedef struct report {
    const char* label;
    test_brute_stats* st;
    int failed;
} report;

static void say(report* rp, const char* fmt, ...)
{
    if (!rp->failed) {
        ++rp->st->dumped;
        fprintf(stderr, "MISMATCH %s\n", rp->label);
    }
    rp->failed = 1;
    if (rp->st->dumped > DUMP_LIMIT) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static void print_pair(report* rp, const char* what, const test_brute_pair* p)
{
    const spx_sweep_hit* h = &p->hit;
    say(rp,
        "%s: pair (%u, %u) %s time %.9g (%a) normal %.9g %.9g %.9g point %.9g %.9g %.9g depth %.9g axis %d features "
        "%d/%d",
        what, p->ta, p->tb, test_brute_state_name(h->state), h->time, h->time, h->normal.x, h->normal.y, h->normal.z,
        h->point.x, h->point.y, h->point.z, h->depth, h->axis, (int)h->feature_a, (int)h->feature_b);
}

static void print_contact(report* rp, const char* what, const spx_mesh_contact* c)
{
    say(rp, "%s: pair (%u, %u) time %.9g (%a) normal %.9g %.9g %.9g point %.9g %.9g %.9g depth %.9g features %d/%d",
        what, c->triangle_a, c->triangle_b, c->time, c->time, c->normal.x, c->normal.y, c->normal.z, c->point.x,
        c->point.y, c->point.z, c->depth, (int)c->feature_a, (int)c->feature_b);
}

/* One contact against the brute force's answer for its pair. */
static void compare_contact(report* rp, const test_brute_answer* e, const spx_mesh_contact* c, const test_brute_pair* p,
                            double scale, const char* what)
{
    const spx_sweep_hit* h = &p->hit;
    const double tol_t = 1e-5 * e->tmax, tol_p = 1e-5 * scale;
    int bad = 0;
    if (e->state == SPX_SWEEP_START_OVERLAP) {
        bad |= c->time != 0.0f;
        bad |= !(fabs((double)c->depth - h->depth) <= 1e-6 * scale);
    } else {
        bad |= !(fabs((double)c->time - h->time) <= tol_t);
        bad |= c->depth != 0.0f;
    }
    bad |= !(test_brute_vdiff(c->normal, h->normal) <= 1e-5);
    bad |= !(test_brute_vdiff(c->point, h->point) <= tol_p);
    bad |= c->feature_a != h->feature_a || c->feature_b != h->feature_b;
    if (bad) {
        say(rp, "%s differs from its pair's single test:", what);
        print_contact(rp, "  query", c);
        print_pair(rp, "  brute", p);
    }
}

int test_brute_compare(const test_brute_answer* e, const test_brute_side* a, const test_brute_side* b,
                       const spx_mesh_hit* got, const spx_mesh_contact* contacts, uint32_t capacity, double scale,
                       const char* label, test_brute_stats* st)
{
    report rp = { label, st, 0 };
    st->compared++;
    st->tests += e->tests;
    st->optional_seen += e->set_optional;
    if (e->state == SPX_SWEEP_MISS) st->misses++;
    else if (e->state == SPX_SWEEP_HIT) st->hits++;
    else st->overlaps++;
    if ((int)got->state != (int)e->state) {
        say(&rp, "state %s, brute force %s (%u pairs not missing, %u in the set)", test_brute_state_name(got->state),
            test_brute_state_name(e->state), e->pair_count, e->set_count);
        if (e->state != SPX_SWEEP_MISS) print_pair(&rp, "brute first", &e->pairs[e->first]);
        if (got->state != SPX_SWEEP_MISS) print_contact(&rp, "query first", &got->first);
        return 1;
    }
    const uint32_t want_written = got->contact_count < capacity ? got->contact_count : capacity;
    if (got->contacts_written != want_written)
        say(&rp, "contacts_written %u, expected min(contact_count %u, capacity %u)", got->contacts_written,
            got->contact_count, capacity);
    if (e->state == SPX_SWEEP_MISS) {
        if (got->contact_count != 0) say(&rp, "MISS with contact_count %u", got->contact_count);
        return rp.failed;
    }
    if (got->contact_count < e->set_count || got->contact_count > e->set_count + e->set_optional)
        say(&rp, "contact_count %u, brute force %u (and %u at the window's edge)", got->contact_count, e->set_count,
            e->set_optional);

    /* every written contact is a pair of the set, once, with its pair's own answer */
    bool* seen = calloc(e->pair_count + 1, sizeof(bool));
    if (!seen) {
        say(&rp, "out of memory");
        return 1;
    }
    uint32_t written = got->contacts_written < capacity ? got->contacts_written : capacity;
    for (uint32_t k = 0; k < written; ++k) {
        const spx_mesh_contact* c = &contacts[k];
        const test_brute_pair* p = test_brute_find(e, c->triangle_a, c->triangle_b);
        if (!p) {
            say(&rp, "contact %u: pair (%u, %u) misses in the brute force", k, c->triangle_a, c->triangle_b);
            continue;
        }
        uint32_t idx = (uint32_t)(p - e->pairs);
        if (seen[idx]) say(&rp, "contact %u: pair (%u, %u) written twice", k, c->triangle_a, c->triangle_b);
        seen[idx] = true;
        if (!e->in_set[idx] && !e->optional[idx]) {
            say(&rp, "contact %u: pair (%u, %u) is not in the brute force's contact set (first time %.9g)", k,
                c->triangle_a, c->triangle_b, e->time);
            print_pair(&rp, "  brute", p);
        }
        compare_contact(&rp, e, c, p, scale, "contact");
        st->contacts++;
    }
    if (written == got->contact_count) {
        uint32_t missing = 0;
        for (uint32_t k = 0; k < e->pair_count; ++k)
            if (e->in_set[k] && !seen[k]) {
                if (++missing <= 4) print_pair(&rp, "missing from the contact set", &e->pairs[k]);
            }
        if (missing) say(&rp, "%u pairs of the brute force's contact set missing", missing);
    }
    free(seen);

    const test_brute_pair* fp = &e->pairs[e->first];
    if (e->state == SPX_SWEEP_HIT) {
        double dt = fabs((double)got->time - e->time);
        if (got->time == e->time) st->time_exact++;
        if (dt / e->tmax > st->worst_time) st->worst_time = dt / e->tmax;
        if (!(dt <= 1e-5 * e->tmax))
            say(&rp, "time %.9g (%a), brute force %.9g (%a)", got->time, got->time, e->time, e->time);
        uint32_t tied = 0;
        for (uint32_t k = 0; k < e->pair_count; ++k) tied += e->pairs[k].hit.time == e->time;
        if (tied > 1) st->ties++;
        if (got->first.triangle_a != fp->ta || got->first.triangle_b != fp->tb) {
            const test_brute_pair* gp = test_brute_find(e, got->first.triangle_a, got->first.triangle_b);
            say(&rp,
                "first pair (%u, %u), brute force (%u, %u) by (time, triangle_a, triangle_b); %u pairs share the first "
                "time",
                got->first.triangle_a, got->first.triangle_b, fp->ta, fp->tb, tied);
            print_pair(&rp, "brute first", fp);
            if (gp) print_pair(&rp, "brute's answer for the query's first", gp);
            print_contact(&rp, "query first", &got->first);
        } else {
            compare_contact(&rp, e, &got->first, fp, scale, "first");
        }
        /* The normal and point: the first pair's, or, when several pairs touch at exactly the first
           time, their mean normal (the first pair's if they cancel out) and mean point. */
        double tn[3] = { 0, 0, 0 }, tp[3] = { 0, 0, 0 };
        for (uint32_t k = 0; k < e->pair_count; ++k) {
            const spx_sweep_hit* h = &e->pairs[k].hit;
            if (h->state != SPX_SWEEP_HIT || h->time != e->time) continue;
            tn[0] += h->normal.x, tn[1] += h->normal.y, tn[2] += h->normal.z;
            tp[0] += h->point.x, tp[1] += h->point.y, tp[2] += h->point.z;
        }
        spx_vec3 want_n = fp->hit.normal, want_p = fp->hit.point;
        if (tied > 1) {
            double len = sqrt(tn[0] * tn[0] + tn[1] * tn[1] + tn[2] * tn[2]) / tied;
            if (len >= 1e-3)
                want_n =
                    spx_v3((float)(tn[0] / (tied * len)), (float)(tn[1] / (tied * len)), (float)(tn[2] / (tied * len)));
            want_p = spx_v3((float)(tp[0] / tied), (float)(tp[1] / tied), (float)(tp[2] / tied));
        }
        if (got->time != got->first.time || !(test_brute_vdiff(got->normal, want_n) <= 1e-6) ||
            !(test_brute_vdiff(got->point, want_p) <= 1e-6 * scale) || got->depth != 0.0f)
            say(&rp,
                "HIT: time %.9g (first pair's %.9g), normal %.9g %.9g %.9g, point %.9g %.9g %.9g: not those of the %u "
                "pair(s) at the first time (%.9g %.9g %.9g, %.9g %.9g %.9g), or depth %.9g != 0",
                got->time, got->first.time, got->normal.x, got->normal.y, got->normal.z, got->point.x, got->point.y,
                got->point.z, tied, want_n.x, want_n.y, want_n.z, want_p.x, want_p.y, want_p.z, got->depth);
        return rp.failed;
    }

    /* START_OVERLAP */
    if (got->time != 0.0f) say(&rp, "START_OVERLAP at time %.9g", got->time);
    /* the deepest pair (any of equal depth) */
    const test_brute_pair* gp = test_brute_find(e, got->first.triangle_a, got->first.triangle_b);
    const bool deepest = gp && e->in_set[gp - e->pairs] && gp->hit.depth >= fp->hit.depth - 1e-6 * scale;
    if (!deepest) {
        say(&rp, "first pair (%u, %u) is not a deepest pair", got->first.triangle_a, got->first.triangle_b);
        print_pair(&rp, "brute deepest", fp);
        if (gp) print_pair(&rp, "brute's answer for the query's first", gp);
    } else {
        compare_contact(&rp, e, &got->first, gp, scale, "first");
    }
    /* The averaged normal, or, when the normals cancel (mean under 1e-3), the deepest pair's: the
       query's own first pair's when several are equally deep. Near 1e-3 either is right. */
    const bool ambiguous = e->mean_length > 0.5e-3 && e->mean_length < 2e-3;
    spx_vec3 want = e->normal;
    float want_depth = e->depth;
    if (e->mean_length < 1e-3 && deepest) {
        want = gp->hit.normal;
        const double n[3] = { want.x, want.y, want.z };
        want_depth = depth_along(a, b, e, n);
    }
    double nd = test_brute_vdiff(got->normal, want);
    if (!ambiguous && nd > st->worst_normal) st->worst_normal = nd;
    if (!ambiguous && !(nd <= 1e-4))
        say(&rp, "averaged normal %.9g %.9g %.9g, brute force %.9g %.9g %.9g (mean length %.3g over %u pairs)",
            got->normal.x, got->normal.y, got->normal.z, want.x, want.y, want.z, e->mean_length, e->set_count);
    if (!(test_brute_vdiff(got->point, e->point) <= 1e-4 * scale))
        say(&rp, "mean point %.9g %.9g %.9g, brute force %.9g %.9g %.9g", got->point.x, got->point.y, got->point.z,
            e->point.x, e->point.y, e->point.z);
    if (!ambiguous && !(fabs((double)got->depth - want_depth) <= 1e-4 * scale))
        say(&rp, "depth estimate %.9g, brute force %.9g", got->depth, want_depth);
    return rp.failed;
}

/* ---- running queries against the brute force ---------------------------------------------------- */

double test_brute_len3(spx_vec3 v) { return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z); }

double test_brute_vdiff(spx_vec3 a, spx_vec3 b)
{
    return fmax(fabs((double)a.x - b.x), fmax(fabs((double)a.y - b.y), fabs((double)a.z - b.z)));
}

static void brute_print_pose(const char* name, spx_transform t)
{
    fprintf(stderr, "    %s p (%a, %a, %a) = (%.9g, %.9g, %.9g) q (%a, %a, %a, %a)\n", name, t.p.x, t.p.y, t.p.z, t.p.x,
            t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w);
}

static void brute_print_vec(const char* name, spx_vec3 v)
{
    fprintf(stderr, "    %s (%a, %a, %a) = (%.9g, %.9g, %.9g)\n", name, v.x, v.y, v.z, v.x, v.y, v.z);
}

static void brute_print_box(const spx_obb* b)
{
    brute_print_vec("box centre", b->center);
    brute_print_vec("box half extents", b->half_extents);
    for (int i = 0; i < 3; ++i) brute_print_vec("box axis", b->rotation.col[i]);
}

/* A contacts array of `capacity` entries and one guard entry past its end that no call may write. */

bool test_brute_buffer_make(test_brute_buffer* b, uint32_t capacity)
{
    b->capacity = capacity;
    b->c = malloc(sizeof(spx_mesh_contact) * (capacity + 1));
    if (!b->c) return false;
    memset(b->c, 0xA5, sizeof(spx_mesh_contact) * (capacity + 1));
    return true;
}

bool test_brute_buffer_intact(const test_brute_buffer* b)
{
    const unsigned char* g = (const unsigned char*)&b->c[b->capacity];
    for (size_t i = 0; i < sizeof(spx_mesh_contact); ++i)
        if (g[i] != 0xA5) return false;
    return true;
}

void test_brute_buffer_free(test_brute_buffer* b)
{
    free(b->c);
    b->c = NULL;
}

/* One query of either kind, so the comparisons below serve both. */

/* Prints a query so that it can be rebuilt: poses, box, velocities and tmax in %a. */
void test_brute_print_query(const test_brute_query* q)
{
    spx_transform t;
    if (q->box) brute_print_box(q->box);
    else if (spx_mesh_instance_get_pose(q->a, &t) == SPX_OK) brute_print_pose("pose A", t);
    if (spx_mesh_instance_get_pose(q->b, &t) == SPX_OK) brute_print_pose("pose B", t);
    brute_print_vec("velocity A", q->va);
    brute_print_vec("velocity B", q->vb);
    fprintf(stderr, "    tmax %a = %.9g\n", q->tmax, q->tmax);
}

spx_result test_brute_run_sweep(const test_brute_query* q, test_brute_buffer* buf, spx_mesh_hit* out)
{
    return q->box ? spx_sweep_obb_mesh(q->box, q->va, q->b, q->vb, q->tmax, buf->c, buf->capacity, out)
                  : spx_sweep_mesh_mesh(q->a, q->va, q->b, q->vb, q->tmax, buf->c, buf->capacity, out);
}

spx_result test_brute_run_contacts(const test_brute_query* q, test_brute_buffer* buf, spx_mesh_hit* out)
{
    return q->box ? spx_penetration_obb_mesh(q->box, q->b, buf->c, buf->capacity, out)
                  : spx_penetration_mesh_mesh(q->a, q->b, buf->c, buf->capacity, out);
}

bool test_brute_sides_of(const test_brute_query* q, test_brute_side* a, test_brute_side* b)
{
    if (q->box) test_brute_side_from_box(a, q->box);
    else if (!test_brute_side_from_instance(a, q->a)) return false;
    if (!test_brute_side_from_instance(b, q->b)) {
        test_brute_side_free(a);
        return false;
    }
    return true;
}

/* The size of a problem, for point tolerances: the farthest any corner gets from the origin. */
double test_brute_problem_scale(const test_brute_side* a, const test_brute_side* b, const test_brute_query* q)
{
    double s = 1e-3;
    const test_brute_side* sides[2] = { a, b };
    for (int k = 0; k < 2; ++k) {
        const test_brute_side* sd = sides[k];
        if (sd->is_box) {
            s = fmax(s, test_brute_len3(sd->box.center) + test_brute_len3(sd->box.half_extents));
            continue;
        }
        for (uint32_t i = 0; i < sd->count; ++i)
            for (int c = 0; c < 3; ++c) s = fmax(s, test_brute_len3(sd->tri[i].v[c]));
    }
    return s + (test_brute_len3(q->va) + test_brute_len3(q->vb)) * q->tmax;
}

/* The swept query against the brute force. `capacity` UINT32_MAX: room for the whole set. The
   answer is copied to *out (may be NULL) for further checks. */
int test_brute_check_sweep(const test_brute_query* q, uint32_t capacity, const char* label, test_brute_stats* st,
                           spx_mesh_hit* out)
{
    test_brute_side sa, sb;
    TEST_ENSURE(test_brute_sides_of(q, &sa, &sb));
    test_brute_answer e;
    int failed = !test_brute_sweep(&sa, q->va, &sb, q->vb, q->tmax, &e);
    if (failed) fprintf(stderr, "%s: brute force failed\n", label);
    test_brute_buffer buf = { 0 };
    if (!failed) {
        uint32_t cap = capacity == UINT32_MAX ? e.set_count + e.set_optional + 4 : capacity;
        failed = !test_brute_buffer_make(&buf, cap);
    }
    spx_mesh_hit hit;
    memset(&hit, 0, sizeof hit);
    if (!failed) {
        spx_result r = test_brute_run_sweep(q, &buf, &hit);
        if (r != SPX_OK) {
            fprintf(stderr, "%s: query returned %s\n", label, spx_result_string(r));
            failed = 1;
        } else {
            failed = test_brute_compare(&e, &sa, &sb, &hit, buf.c, buf.capacity, test_brute_problem_scale(&sa, &sb, q),
                                        label, st);
            if (!test_brute_buffer_intact(&buf)) {
                fprintf(stderr, "%s: wrote past the capacity of %u contacts\n", label, buf.capacity);
                failed = 1;
            }
        }
    }
    if (failed && st->dumped <= 12) test_brute_print_query(q);
    if (out) *out = hit;
    test_brute_buffer_free(&buf);
    test_brute_answer_free(&e);
    test_brute_side_free(&sa);
    test_brute_side_free(&sb);
    return failed;
}

/* The full answer and contact list of a query, for comparing two queries with each other. */

int test_brute_full_run(const test_brute_query* q, test_brute_full* out)
{
    test_brute_buffer none = { NULL, 0 };
    TEST_ENSURE_CODE(test_brute_run_sweep(q, &none, &out->hit), SPX_OK);
    TEST_ENSURE(test_brute_buffer_make(&out->buf, out->hit.contact_count + 1));
    TEST_ENSURE_CODE(test_brute_run_sweep(q, &out->buf, &out->hit), SPX_OK);
    TEST_ENSURE(out->hit.contacts_written == out->hit.contact_count);
    return 0;
}

const spx_mesh_contact* test_brute_full_find(const test_brute_full* f, uint32_t ta, uint32_t tb)
{
    for (uint32_t k = 0; k < f->hit.contacts_written; ++k)
        if (f->buf.c[k].triangle_a == ta && f->buf.c[k].triangle_b == tb) return &f->buf.c[k];
    return NULL;
}

static double flip_diff(spx_vec3 a, spx_vec3 b) /* how far a is from -b */
{
    return fmax(fabs((double)a.x + b.x), fmax(fabs((double)a.y + b.y), fabs((double)a.z + b.z)));
}

/* Why a swapped answer differs: the single-pair test on the same two triangles in both orders,
   for the pairs whose answers differ (state, or time by more than 1e-5 tmax). */
void test_brute_explain_swap(const test_brute_query* q)
{
    test_brute_side sa, sb;
    if (!test_brute_sides_of(q, &sa, &sb)) return;
    int shown = 0, differ = 0;
    for (uint32_t i = 0; i < sa.count; ++i)
        for (uint32_t j = 0; j < sb.count; ++j) {
            spx_sweep_hit h1, h2;
            spx_sweep_triangle_triangle(&sa.tri[i], q->va, &sb.tri[j], q->vb, q->tmax, &h1);
            spx_sweep_triangle_triangle(&sb.tri[j], q->vb, &sa.tri[i], q->va, q->tmax, &h2);
            if (h1.state == h2.state && !(fabs((double)h1.time - h2.time) > 1e-5 * q->tmax)) continue;
            ++differ;
            if (shown++ >= 3) continue;
            fprintf(stderr,
                    "    pair (%u, %u): (A, B) %s at %.9g axis %d normal %.9g %.9g %.9g; (B, A) %s at %.9g axis %d "
                    "normal %.9g %.9g %.9g\n",
                    sa.source[i], sb.source[j], test_brute_state_name(h1.state), h1.time, h1.axis, h1.normal.x,
                    h1.normal.y, h1.normal.z, test_brute_state_name(h2.state), h2.time, h2.axis, h2.normal.x,
                    h2.normal.y, h2.normal.z);
            const spx_triangle* t[2] = { &sa.tri[i], &sb.tri[j] };
            for (int k = 0; k < 2; ++k)
                fprintf(stderr, "      %c: (%a, %a, %a) (%a, %a, %a) (%a, %a, %a)\n", k ? 'B' : 'A', t[k]->v[0].x,
                        t[k]->v[0].y, t[k]->v[0].z, t[k]->v[1].x, t[k]->v[1].y, t[k]->v[1].z, t[k]->v[2].x,
                        t[k]->v[2].y, t[k]->v[2].z);
        }
    fprintf(stderr, "    %d triangle pairs answer differently in the two orders\n", differ);
    test_brute_side_free(&sa);
    test_brute_side_free(&sb);
}

/* A and B exchanged: the same state and time, the same pairs with their triangle numbers swapped,
   each pair's normal flipped and its features exchanged; a start overlap's averaged normal flipped,
   its point and depth estimate the same. */
int test_brute_check_swapped(const test_brute_query* q, const char* label, double scale)
{
    test_brute_query s = { NULL, q->b, q->a, q->vb, q->va, q->tmax };
    test_brute_full f, g;
    memset(&f, 0, sizeof f), memset(&g, 0, sizeof g);
    int failed = test_brute_full_run(q, &f) || test_brute_full_run(&s, &g);
    const double tol_t = 1e-5 * q->tmax;
    if (!failed && (f.hit.state != g.hit.state || !(fabs((double)f.hit.time - g.hit.time) <= tol_t) ||
                    f.hit.contact_count != g.hit.contact_count)) {
        fprintf(stderr, "%s, swapped: %s at %.9g with %u contacts, unswapped %s at %.9g with %u\n", label,
                test_brute_state_name(g.hit.state), g.hit.time, g.hit.contact_count, test_brute_state_name(f.hit.state),
                f.hit.time, f.hit.contact_count);
        failed = 1;
    }
    for (uint32_t k = 0; !failed && k < f.hit.contacts_written; ++k) {
        const spx_mesh_contact *c = &f.buf.c[k], *d = test_brute_full_find(&g, c->triangle_b, c->triangle_a);
        if (!d) {
            fprintf(stderr, "%s, swapped: pair (%u, %u) missing\n", label, c->triangle_b, c->triangle_a);
            failed = 1;
        } else if (!(fabs((double)c->time - d->time) <= tol_t) || !(flip_diff(c->normal, d->normal) <= 1e-5) ||
                   !(fabs((double)c->depth - d->depth) <= 1e-6 * scale) || c->feature_a != d->feature_b ||
                   c->feature_b != d->feature_a) {
            fprintf(stderr,
                    "%s, swapped: pair (%u, %u) time %.9g normal %.9g %.9g %.9g depth %.9g features %d/%d; unswapped "
                    "time %.9g normal %.9g %.9g %.9g depth %.9g features %d/%d\n",
                    label, d->triangle_a, d->triangle_b, d->time, d->normal.x, d->normal.y, d->normal.z, d->depth,
                    (int)d->feature_a, (int)d->feature_b, c->time, c->normal.x, c->normal.y, c->normal.z, c->depth,
                    (int)c->feature_a, (int)c->feature_b);
            failed = 1;
        }
    }
    if (!failed && f.hit.state == SPX_SWEEP_START_OVERLAP &&
        (!(flip_diff(f.hit.normal, g.hit.normal) <= 1e-4) ||
         !(fabs((double)f.hit.depth - g.hit.depth) <= 1e-4 * scale) ||
         !(test_brute_vdiff(f.hit.point, g.hit.point) <= 1e-5 * scale))) {
        fprintf(stderr, "%s, swapped: averaged normal %.9g %.9g %.9g depth %.9g; unswapped %.9g %.9g %.9g depth %.9g\n",
                label, g.hit.normal.x, g.hit.normal.y, g.hit.normal.z, g.hit.depth, f.hit.normal.x, f.hit.normal.y,
                f.hit.normal.z, f.hit.depth);
        failed = 1;
    }
    if (failed) {
        test_brute_print_query(q);
        if (!q->box) test_brute_explain_swap(q);
    }
    test_brute_buffer_free(&f.buf);
    test_brute_buffer_free(&g.buf);
    return failed;
}

void test_brute_print_stats(const char* name, const test_brute_stats* st, double seconds)
{
    printf("  %s: %llu compared (%llu hits, %llu misses, %llu start overlaps), %llu contacts field by field, "
           "%llu hits with tied first pairs, %llu pair tests in the brute force, %.1f s\n",
           name, (unsigned long long)st->compared, (unsigned long long)st->hits, (unsigned long long)st->misses,
           (unsigned long long)st->overlaps, (unsigned long long)st->contacts, (unsigned long long)st->ties,
           (unsigned long long)st->tests, seconds);
    printf("  %s: hit times equal to the brute force bit for bit: %llu of %llu (worst %.3g tmax); worst averaged "
           "normal %.3g; %llu pairs at the window's edge\n",
           name, (unsigned long long)st->time_exact, (unsigned long long)st->hits, st->worst_time, st->worst_normal,
           (unsigned long long)st->optional_seen);
}

/* The static queries against the brute force: overlap, contacts, and a sweep over no time. */
int test_brute_check_static(const test_brute_query* q, const char* label, test_brute_stats* st, int* overlapping,
                            uint64_t* inconsistent)
{
    int failures = 0;
    test_brute_side sa, sb;
    TEST_ENSURE(test_brute_sides_of(q, &sa, &sb));
    test_brute_answer e;
    TEST_ENSURE(test_brute_static(&sa, &sb, &e));
    *inconsistent += e.inconsistent;
    bool any = e.pair_count > 0, got = !any;
    TEST_ENSURE_CODE(q->box ? spx_overlap_obb_mesh(q->box, q->b, &got) : spx_overlap_mesh_mesh(q->a, q->b, &got),
                     SPX_OK);
    if (got != any) {
        fprintf(stderr, "%s: overlap says %d, brute force %u overlapping pairs\n", label, (int)got, e.pair_count);
        ++failures;
    }
    *overlapping += any;
    test_brute_buffer buf, zb;
    TEST_ENSURE(test_brute_buffer_make(&buf, e.pair_count + 2));
    spx_mesh_hit h;
    TEST_ENSURE_CODE(test_brute_run_contacts(q, &buf, &h), SPX_OK);
    failures |=
        test_brute_compare(&e, &sa, &sb, &h, buf.c, buf.capacity, test_brute_problem_scale(&sa, &sb, q), label, st);
    if (!test_brute_buffer_intact(&buf)) {
        fprintf(stderr, "%s: wrote past the capacity of %u contacts\n", label, buf.capacity);
        failures = 1;
    }
    /* a sweep over no time at all is the static query */
    spx_mesh_hit z;
    TEST_ENSURE(test_brute_buffer_make(&zb, e.pair_count + 2));
    test_brute_query zq = *q;
    zq.tmax = 0.0f;
    TEST_ENSURE_CODE(test_brute_run_sweep(&zq, &zb, &z), SPX_OK);
    if (z.state != h.state || z.contact_count != h.contact_count) {
        fprintf(stderr, "%s: sweep with tmax 0 gives %s with %u contacts, the static query %s with %u\n", label,
                test_brute_state_name(z.state), z.contact_count, test_brute_state_name(h.state), h.contact_count);
        failures = 1;
    }
    if (failures) test_brute_print_query(q);
    test_brute_buffer_free(&buf);
    test_brute_buffer_free(&zb);
    test_brute_answer_free(&e);
    test_brute_side_free(&sa);
    test_brute_side_free(&sb);
    return failures != 0;
}
