/* The all-pairs brute force for the mesh queries: see mesh_brute.h. */
#include "mesh_brute.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_LIMIT 12 /* failures printed in full per statistics block; all are counted */

const char* brute_state_name(int state)
{
    return state == SPX_SWEEP_MISS ? "MISS" : state == SPX_SWEEP_HIT ? "HIT" : state == SPX_SWEEP_START_OVERLAP ? "START_OVERLAP" : "?";
}

bool brute_side_from_instance(brute_side* out, const spx_mesh_instance* instance)
{
    memset(out, 0, sizeof *out);
    spx_mesh_info info;
    if (spx_mesh_get_info(spx_mesh_instance_get_mesh(instance), &info) != SPX_OK) return false;
    out->tri = malloc(sizeof(spx_triangle) * info.triangle_count);
    out->source = malloc(sizeof(uint32_t) * info.triangle_count);
    if (!out->tri || !out->source) {
        brute_side_free(out);
        return false;
    }
    for (uint32_t i = 0; i < info.triangle_count; ++i) {
        spx_triangle t;
        uint32_t src = 0;
        if (spx_mesh_instance_get_triangle(instance, i, &t, &src) != SPX_OK) {
            brute_side_free(out);
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

void brute_side_from_box(brute_side* out, const spx_obb* box)
{
    memset(out, 0, sizeof *out);
    out->is_box = true;
    out->box = *box;
    out->count = 1;
}

void brute_side_free(brute_side* s)
{
    free(s->tri);
    free(s->source);
    memset(s, 0, sizeof *s);
}

void brute_answer_free(brute_answer* r)
{
    free(r->pairs);
    free(r->in_set);
    free(r->optional);
    memset(r, 0, sizeof *r);
}

static int pair_order(const void* x, const void* y)
{
    const brute_pair *p = x, *q = y;
    if (p->ta != q->ta) return p->ta < q->ta ? -1 : 1;
    if (p->tb != q->tb) return p->tb < q->tb ? -1 : 1;
    return 0;
}

static bool push_pair(brute_answer* r, uint32_t* cap, uint32_t ia, uint32_t ib, uint32_t ta, uint32_t tb,
                      const spx_sweep_hit* h)
{
    if (r->pair_count == *cap) {
        uint32_t grown = *cap ? 2 * *cap : 256;
        brute_pair* p = realloc(r->pairs, sizeof(brute_pair) * grown);
        if (!p) return false;
        r->pairs = p;
        *cap = grown;
    }
    r->pairs[r->pair_count++] = (brute_pair){ ia, ib, ta, tb, *h };
    return true;
}

/* Corners of piece i of a side: 8 for the box, 3 for a triangle. */
static int corners(const brute_side* s, uint32_t i, spx_vec3 out[8])
{
    if (s->is_box) {
        spx_obb_corners(&s->box, out);
        return 8;
    }
    for (int k = 0; k < 3; ++k) out[k] = s->tri[i].v[k];
    return 3;
}

static double dot3(spx_vec3 a, const double n[3]) { return a.x * n[0] + a.y * n[1] + a.z * n[2]; }

/* State, first pair, contact set, averaged normal, point and depth from the pairs found. */
static bool finish(const brute_side* a, const brute_side* b, brute_answer* r)
{
    if (r->pair_count) qsort(r->pairs, r->pair_count, sizeof(brute_pair), pair_order);
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
    r->point = spx_v3((float)(sum_p[0] / r->set_count), (float)(sum_p[1] / r->set_count),
                      (float)(sum_p[2] / r->set_count));
    /* The depth estimate: for each pair, how far B must move along the normal for the two pieces'
       projections to part (A's highest corner less B's lowest); the largest over the pairs. */
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
    r->depth = (float)depth;
    return true;
}

bool brute_sweep(const brute_side* a, spx_vec3 va, const brute_side* b, spx_vec3 vb, float tmax, brute_answer* out)
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

bool brute_static(const brute_side* a, const brute_side* b, brute_answer* out)
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

const brute_pair* brute_find(const brute_answer* e, uint32_t ta, uint32_t tb)
{
    brute_pair key;
    memset(&key, 0, sizeof key);
    key.ta = ta, key.tb = tb;
    if (!e->pair_count) return NULL;
    return bsearch(&key, e->pairs, e->pair_count, sizeof(brute_pair), pair_order);
}

/* ---- comparison ------------------------------------------------------------------------------ */

typedef struct report {
    const char* label;
    brute_stats* st;
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

static void print_pair(report* rp, const char* what, const brute_pair* p)
{
    const spx_sweep_hit* h = &p->hit;
    say(rp, "%s: pair (%u, %u) %s time %.9g (%a) normal %.9g %.9g %.9g point %.9g %.9g %.9g depth %.9g axis %d features %d/%d",
        what, p->ta, p->tb, brute_state_name(h->state), h->time, h->time, h->normal.x, h->normal.y, h->normal.z,
        h->point.x, h->point.y, h->point.z, h->depth, h->axis, (int)h->feature_a, (int)h->feature_b);
}

static void print_contact(report* rp, const char* what, const spx_mesh_contact* c)
{
    say(rp, "%s: pair (%u, %u) time %.9g (%a) normal %.9g %.9g %.9g point %.9g %.9g %.9g depth %.9g features %d/%d", what,
        c->triangle_a, c->triangle_b, c->time, c->time, c->normal.x, c->normal.y, c->normal.z, c->point.x, c->point.y,
        c->point.z, c->depth, (int)c->feature_a, (int)c->feature_b);
}

static double vdiff(spx_vec3 a, spx_vec3 b)
{
    return fmax(fabs((double)a.x - b.x), fmax(fabs((double)a.y - b.y), fabs((double)a.z - b.z)));
}

/* One contact against the brute force's answer for its pair. */
static void compare_contact(report* rp, const brute_answer* e, const spx_mesh_contact* c, const brute_pair* p,
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
    bad |= !(vdiff(c->normal, h->normal) <= 1e-5);
    bad |= !(vdiff(c->point, h->point) <= tol_p);
    bad |= c->feature_a != h->feature_a || c->feature_b != h->feature_b;
    if (bad) {
        say(rp, "%s differs from its pair's single test:", what);
        print_contact(rp, "  query", c);
        print_pair(rp, "  brute", p);
    }
}

int brute_compare(const brute_answer* e, const brute_side* a, const brute_side* b, const spx_mesh_hit* got,
                  const spx_mesh_contact* contacts, uint32_t capacity, double scale, const char* label,
                  brute_stats* st)
{
    (void)a, (void)b;
    report rp = { label, st, 0 };
    st->compared++;
    st->tests += e->tests;
    st->optional_seen += e->set_optional;
    if (e->state == SPX_SWEEP_MISS) st->misses++;
    else if (e->state == SPX_SWEEP_HIT) st->hits++;
    else st->overlaps++;
    if ((int)got->state != (int)e->state) {
        say(&rp, "state %s, brute force %s (%u pairs not missing, %u in the set)", brute_state_name(got->state),
            brute_state_name(e->state), e->pair_count, e->set_count);
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
        const brute_pair* p = brute_find(e, c->triangle_a, c->triangle_b);
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

    const brute_pair* fp = &e->pairs[e->first];
    if (e->state == SPX_SWEEP_HIT) {
        double dt = fabs((double)got->time - e->time);
        if (got->time == e->time) st->time_exact++;
        if (dt / e->tmax > st->worst_time) st->worst_time = dt / e->tmax;
        if (!(dt <= 1e-5 * e->tmax)) say(&rp, "time %.9g (%a), brute force %.9g (%a)", got->time, got->time, e->time, e->time);
        uint32_t tied = 0;
        for (uint32_t k = 0; k < e->pair_count; ++k) tied += e->pairs[k].hit.time == e->time;
        if (tied > 1) st->ties++;
        if (got->first.triangle_a != fp->ta || got->first.triangle_b != fp->tb) {
            const brute_pair* gp = brute_find(e, got->first.triangle_a, got->first.triangle_b);
            say(&rp, "first pair (%u, %u), brute force (%u, %u) by (time, triangle_a, triangle_b); %u pairs share the first time",
                got->first.triangle_a, got->first.triangle_b, fp->ta, fp->tb, tied);
            print_pair(&rp, "brute first", fp);
            if (gp) print_pair(&rp, "brute's answer for the query's first", gp);
            print_contact(&rp, "query first", &got->first);
        } else {
            compare_contact(&rp, e, &got->first, fp, scale, "first");
        }
        if (got->time != got->first.time || vdiff(got->normal, got->first.normal) != 0.0 ||
            vdiff(got->point, got->first.point) != 0.0 || got->depth != 0.0f)
            say(&rp, "HIT: time/normal/point of the answer are not the first pair's (time %.9g vs %.9g), or depth %.9g != 0",
                got->time, got->first.time, got->depth);
        return rp.failed;
    }

    /* START_OVERLAP */
    if (got->time != 0.0f) say(&rp, "START_OVERLAP at time %.9g", got->time);
    double nd = vdiff(got->normal, e->normal);
    bool ambiguous = e->mean_length > 0.5e-3 && e->mean_length < 2e-3; /* near the switch to the deepest normal */
    if (!ambiguous && nd > st->worst_normal) st->worst_normal = nd;
    if (!ambiguous && !(nd <= 1e-4))
        say(&rp, "averaged normal %.9g %.9g %.9g, brute force %.9g %.9g %.9g (mean length %.3g over %u pairs)",
            got->normal.x, got->normal.y, got->normal.z, e->normal.x, e->normal.y, e->normal.z, e->mean_length,
            e->set_count);
    if (!(vdiff(got->point, e->point) <= 1e-4 * scale))
        say(&rp, "mean point %.9g %.9g %.9g, brute force %.9g %.9g %.9g", got->point.x, got->point.y, got->point.z,
            e->point.x, e->point.y, e->point.z);
    if (!ambiguous && !(fabs((double)got->depth - e->depth) <= 1e-4 * scale))
        say(&rp, "depth estimate %.9g, brute force %.9g", got->depth, e->depth);
    /* the deepest pair (any of equal depth) */
    const brute_pair* gp = brute_find(e, got->first.triangle_a, got->first.triangle_b);
    if (!gp || !e->in_set[gp - e->pairs] || !(gp->hit.depth >= fp->hit.depth - 1e-6 * scale)) {
        say(&rp, "first pair (%u, %u) is not a deepest pair", got->first.triangle_a, got->first.triangle_b);
        print_pair(&rp, "brute deepest", fp);
        if (gp) print_pair(&rp, "brute's answer for the query's first", gp);
    } else {
        compare_contact(&rp, e, &got->first, gp, scale, "first");
    }
    return rp.failed;
}
