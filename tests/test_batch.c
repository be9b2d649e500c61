/* Batched box-box queries: tails that do not fill a SIMD lane group, agreement with the single-pair
 * calls on every lane position, and their error codes. (Accuracy against the reference runs in
 * test_sweep_reference.c.) */
#include <sepax/sepax.h>
#include "support/test.h"
#include "support/cases.h"
#include "support/soa_store.h"

enum { N = 21 }; /* not a multiple of 4 or 8: the scalar tail runs too */

typedef struct soa_store {
    float f[15][N];
    spx_obb_soa soa;
} soa_store;

static void soa_init(soa_store* s) { test_soa_bind(&s->soa, &s->f[0][0], N); }

/* N box-box problems from the shared generator, one tmax for all (velocities scaled to it): each
   pair as single boxes and velocities, and in the SoA stores. */
typedef struct problems {
    soa_store a, b;
    spx_obb ba[N], bb[N];
    spx_vec3 va[N], vb[N];
} problems;

static void make_problems(problems* p)
{
    soa_init(&p->a);
    soa_init(&p->b);
    for (int i = 0; i < N; ++i) {
        test_sweep_case c;
        test_case_make(TEST_CASE_OBB_OBB, 1000u + (uint64_t)i, &c);
        p->ba[i] = c.box[0];
        p->bb[i] = c.box[1];
        p->va[i] = spx_v3(c.velocity[0].x * c.tmax, c.velocity[0].y * c.tmax, c.velocity[0].z * c.tmax);
        p->vb[i] = spx_v3(c.velocity[1].x * c.tmax, c.velocity[1].y * c.tmax, c.velocity[1].z * c.tmax);
        spx_obb_soa_set_box(&p->a.soa, (size_t)i, &p->ba[i]);
        spx_obb_soa_set_box(&p->b.soa, (size_t)i, &p->bb[i]);
    }
}

static int batch_matches_single_calls(void)
{
    static problems p;
    make_problems(&p);
    uint8_t overlap[N];
    spx_sweep_hit hits[N];
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&p.a.soa, &p.b.soa, N, overlap), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, hits), SPX_OK);
    int states[3] = { 0, 0, 0 };
    for (int i = 0; i < N; ++i) {
        bool o;
        spx_sweep_hit h;
        TEST_ENSURE_CODE(spx_overlap_obb_obb(&p.ba[i], &p.bb[i], &o), SPX_OK);
        TEST_ENSURE(o == (overlap[i] != 0));
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&p.ba[i], p.va[i], &p.bb[i], p.vb[i], 1.0f, &h), SPX_OK);
        TEST_ENSURE((int)h.state == (int)hits[i].state);
        ++states[h.state];
        if (h.state == SPX_SWEEP_MISS) continue;
        TEST_ENSURE_NEAR(hits[i].time, h.time, 1e-5);
        TEST_ENSURE_NEAR(hits[i].depth, h.depth, 1e-5);
        TEST_ENSURE(hits[i].normal.x * h.normal.x + hits[i].normal.y * h.normal.y + hits[i].normal.z * h.normal.z >
                    0.9999f);
    }
    printf("  %d pairs: %d misses, %d hits, %d start overlaps\n", N, states[0], states[1], states[2]);
    TEST_ENSURE(states[0] > 0 && states[1] > 0 && states[2] > 0);
    /* count 0 is fine and writes nothing */
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, 0, 1.0f, hits), SPX_OK);
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&p.a.soa, &p.b.soa, 0, overlap), SPX_OK);
    return 0;
}

static bool same_hit(const spx_sweep_hit* x, const spx_sweep_hit* y)
{
    return x->state == y->state && x->time == y->time && x->depth == y->depth && x->axis == y->axis &&
           x->feature_a == y->feature_a && x->feature_b == y->feature_b && x->normal.x == y->normal.x &&
           x->normal.y == y->normal.y && x->normal.z == y->normal.z && x->point.x == y->point.x &&
           x->point.y == y->point.y && x->point.z == y->point.z;
}

/* The same pairs shifted round through every position, in full lane groups and in the tail: every
   pair gets the same answer to the bit wherever it sits, and a box spoilt behind
   spx_obb_soa_set_box's back (an extent of 0 or -1, an axis component of 0.5: finite and in range)
   gets the same code wherever it sits. */
static int batch_answers_do_not_depend_on_position(void)
{
    static problems p, q;
    make_problems(&p);
    spx_sweep_hit base[N], hits[N];
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, base), SPX_OK);
    for (int shift = 1; shift < N; ++shift) {
        soa_init(&q.a);
        soa_init(&q.b);
        for (int i = 0; i < N; ++i) {
            const int to = (i + shift) % N;
            spx_obb_soa_set_box(&q.a.soa, (size_t)to, &p.ba[i]);
            spx_obb_soa_set_box(&q.b.soa, (size_t)to, &p.bb[i]);
            q.va[to] = p.va[i], q.vb[to] = p.vb[i];
        }
        TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&q.a.soa, q.va, &q.b.soa, q.vb, N, 1.0f, hits), SPX_OK);
        for (int i = 0; i < N; ++i) TEST_ENSURE(same_hit(&hits[(i + shift) % N], &base[i]));
    }
    const float odd[] = { 0.0f, -1.0f, 0.5f };
    for (int v = 0; v < 3; ++v) {
        spx_result first = SPX_OK;
        for (int at = 0; at < N; ++at) {
            float* x = v < 2 ? &p.a.soa.half_extents[1][at] : &p.b.soa.axis[2][0][at];
            const float keep = *x;
            *x = odd[v];
            const spx_result r = spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, hits);
            if (at == 0) first = r;
            TEST_ENSURE_CODE(r, first);
            *x = keep;
        }
    }
    return 0;
}

static int batch_bad_input(void)
{
    static problems p;
    make_problems(&p);
    uint8_t overlap[N];
    spx_sweep_hit hits[N];
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&p.a.soa, &p.b.soa, N + 1, overlap), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(NULL, &p.b.soa, N, overlap), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, NULL, N, 1.0f, hits), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, -1.0f, hits), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, NAN, hits), SPX_ERR_NOT_FINITE);
    /* a non-finite velocity in a full lane group, then in the tail */
    spx_vec3 keep = p.vb[2];
    p.vb[2].y = INFINITY;
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, hits), SPX_ERR_NOT_FINITE);
    p.vb[2] = keep;
    p.vb[N - 1].x = NAN;
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, hits), SPX_ERR_NOT_FINITE);
    p.vb[N - 1].x = 0.0f;
    /* several faults: the batch reports what the single call reports for the same input (base.h's
       order: not finite, then out of range, then the interval), wherever the pair sits */
    for (int at = 2; at < N; at += N - 3) {
        spx_sweep_hit h;
        keep = p.vb[at];
        p.vb[at].z = NAN;
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&p.ba[at], p.va[at], &p.bb[at], p.vb[at], -1.0f, &h), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, -1.0f, hits), SPX_ERR_NOT_FINITE);
        p.vb[at].z = 2.0f * SPX_MAX_COORDINATE;
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&p.ba[at], p.va[at], &p.bb[at], p.vb[at], -1.0f, &h), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, -1.0f, hits), SPX_ERR_OUT_OF_RANGE);
        TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 0.25f, hits), SPX_OK);
        p.vb[at] = keep;
    }
    /* stored values overwritten behind spx_obb_soa_set_box's back: far out of range, then NaN */
    p.a.soa.half_extents[0][4] = 1e20f;
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&p.a.soa, &p.b.soa, N, overlap), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, -1.0f, hits), SPX_ERR_OUT_OF_RANGE);
    p.a.soa.center[1][3] = NAN;
    TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&p.a.soa, &p.b.soa, N, overlap), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, -1.0f, hits), SPX_ERR_NOT_FINITE);
    /* the way in validates */
    spx_obb bad = p.ba[0];
    bad.half_extents.z = 0.0f;
    TEST_ENSURE_CODE(spx_obb_soa_set_box(&p.a.soa, 0, &bad), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_obb_soa_set_box(&p.a.soa, N, &p.ba[0]), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_obb_soa_set_box(NULL, 0, &p.ba[0]), SPX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* The whole problem scaled to the edges of what float handles: up to SPX_MAX_COORDINATE, and
 * boxes and speeds of 1e-20 (the batch hands lanes it cannot trust to the exact path); the batch
 * agrees with the single call. Scaled by 1e20, both refuse it. */
static int batch_extreme_scales(void)
{
    static const float scale[5] = { 1e4f, 1e-20f, 1e-14f, 1e-30f, 1e20f };
    static problems p;
    for (int sc = 0; sc < 5; ++sc) {
        make_problems(&p);
        const float k = scale[sc];
        for (int i = 0; i < N; ++i) { /* the whole problem scaled by k: the same answers, times unchanged */
            spx_obb* boxes[2] = { &p.ba[i], &p.bb[i] };
            for (int j = 0; j < 2; ++j) {
                boxes[j]->center = spx_v3(boxes[j]->center.x * k, boxes[j]->center.y * k, boxes[j]->center.z * k);
                boxes[j]->half_extents =
                    spx_v3(boxes[j]->half_extents.x * k, boxes[j]->half_extents.y * k, boxes[j]->half_extents.z * k);
            }
            p.va[i] = spx_v3(p.va[i].x * k, p.va[i].y * k, p.va[i].z * k);
            p.vb[i] = spx_v3(p.vb[i].x * k, p.vb[i].y * k, p.vb[i].z * k);
            if (k > SPX_MAX_COORDINATE) {
                spx_sweep_hit h;
                TEST_ENSURE_CODE(spx_obb_soa_set_box(&p.a.soa, (size_t)i, &p.ba[i]), SPX_ERR_OUT_OF_RANGE);
                TEST_ENSURE_CODE(spx_sweep_obb_obb(&p.ba[i], p.va[i], &p.bb[i], p.vb[i], 1.0f, &h),
                                 SPX_ERR_OUT_OF_RANGE);
                /* written behind spx_obb_soa_set_box's back */
                const float* src[2] = { &p.ba[i].center.x, &p.ba[i].half_extents.x };
                for (int m = 0; m < 3; ++m) p.a.soa.center[m][i] = src[0][m], p.a.soa.half_extents[m][i] = src[1][m];
                continue;
            }
            TEST_ENSURE_CODE(spx_obb_soa_set_box(&p.a.soa, (size_t)i, &p.ba[i]), SPX_OK);
            TEST_ENSURE_CODE(spx_obb_soa_set_box(&p.b.soa, (size_t)i, &p.bb[i]), SPX_OK);
        }
        spx_sweep_hit hits[N];
        if (k > SPX_MAX_COORDINATE) {
            uint8_t overlap[N];
            TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, hits),
                             SPX_ERR_OUT_OF_RANGE);
            TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&p.a.soa, &p.b.soa, N, overlap), SPX_ERR_OUT_OF_RANGE);
            continue;
        }
        TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&p.a.soa, p.va, &p.b.soa, p.vb, N, 1.0f, hits), SPX_OK);
        for (int i = 0; i < N; ++i) {
            spx_sweep_hit h;
            TEST_ENSURE_CODE(spx_sweep_obb_obb(&p.ba[i], p.va[i], &p.bb[i], p.vb[i], 1.0f, &h), SPX_OK);
            TEST_ENSURE((int)h.state == (int)hits[i].state);
            if (h.state == SPX_SWEEP_HIT) TEST_ENSURE_NEAR(hits[i].time, h.time, 1e-5);
        }
    }
    return 0;
}

/* Wild inputs: coordinates, sizes and distances travelled from 1e-38 to SPX_MAX_COORDINATE, zero,
 * both signs. Every call
 * answers SPX_OK with finite output (single and batched), and the batched calls agree with the
 * single ones on every state. A fixed-seed xorshift keeps it reproducible. */
static uint64_t wild_state = 88172645463325252ull;
static uint64_t wild_next(void) { return test_xorshift64(&wild_state); }
static float wild_unit(void) { return (float)(wild_next() >> 40) / (float)(1 << 24); }
static float wild_coordinate(void)
{
    float sign = (wild_next() & 1) ? -1.0f : 1.0f;
    switch (wild_next() % 8) {
    case 0:
        return sign * wild_unit() * SPX_MAX_COORDINATE;
    case 1:
        return sign * wild_unit() * 1e-30f;
    case 2:
        return 0.0f;
    case 3:
        return sign * 1e-38f;
    default:
        return sign * wild_unit() * 10.0f;
    }
}
static float wild_extent(void)
{
    switch (wild_next() % 6) {
    case 0:
        return 1e-30f + wild_unit() * 1e-30f;
    case 1:
        return (SPX_MAX_COORDINATE - 1.0f) * wild_unit() + 1.0f;
    default:
        return 0.01f + wild_unit() * 3.0f;
    }
}
static spx_quat wild_rotation(void)
{
    float u1 = wild_unit(), u2 = wild_unit() * 6.2831853f, u3 = wild_unit() * 6.2831853f;
    float a = sqrtf(1 - u1), b = sqrtf(u1);
    spx_quat q = { a * sinf(u2), a * cosf(u2), b * sinf(u3), b * cosf(u3) };
    return q;
}
static int finite_hit(const spx_sweep_hit* h)
{
    return isfinite(h->time) && isfinite(h->depth) && isfinite(h->normal.x) && isfinite(h->normal.y) &&
           isfinite(h->normal.z) && isfinite(h->point.x) && isfinite(h->point.y) && isfinite(h->point.z);
}

/* Three draws as a vector, z first, then y, then x. */
static spx_vec3 wild_vec3(float (*draw)(void))
{
    const float z = draw(), y = draw();
    return spx_v3(draw(), y, z);
}

static int wild_inputs(void)
{
    static soa_store a, b;
    soa_init(&a);
    soa_init(&b);
    int hits = 0;
    for (int round = 0; round < 2000; ++round) {
        spx_obb ba[N], bb[N];
        spx_vec3 va[N], vb[N];
        for (int i = 0; i < N; ++i) {
            for (int k = 0; k < 2; ++k) { /* rotation, extents, centre: in this order */
                const spx_quat q = wild_rotation();
                const spx_vec3 h = wild_vec3(wild_extent);
                TEST_ENSURE_CODE(spx_obb_from_quat(wild_vec3(wild_coordinate), h, q, k == 0 ? &ba[i] : &bb[i]), SPX_OK);
            }
            /* tmax is at most 10 s: a tenth of a coordinate is a speed that stays in range */
            for (int k = 0; k < 2; ++k) {
                const spx_vec3 v = wild_vec3(wild_coordinate);
                (k == 0 ? va : vb)[i] = spx_v3(v.x * 0.1f, v.y * 0.1f, v.z * 0.1f);
            }
            TEST_ENSURE_CODE(spx_obb_soa_set_box(&a.soa, (size_t)i, &ba[i]), SPX_OK);
            TEST_ENSURE_CODE(spx_obb_soa_set_box(&b.soa, (size_t)i, &bb[i]), SPX_OK);
        }
        float tmax = wild_next() % 4 == 0 ? 0.0f : wild_unit() * 10.0f;
        spx_sweep_hit hits_batch[N];
        uint8_t overlap[N];
        TEST_ENSURE_CODE(spx_sweep_obb_obb_batch(&a.soa, va, &b.soa, vb, N, tmax, hits_batch), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_obb_obb_batch(&a.soa, &b.soa, N, overlap), SPX_OK);
        for (int i = 0; i < N; ++i) {
            spx_sweep_hit h;
            bool o;
            TEST_ENSURE_CODE(spx_sweep_obb_obb(&ba[i], va[i], &bb[i], vb[i], tmax, &h), SPX_OK);
            TEST_ENSURE_CODE(spx_overlap_obb_obb(&ba[i], &bb[i], &o), SPX_OK);
            TEST_ENSURE(o == (overlap[i] != 0));
            TEST_ENSURE((int)h.state == (int)hits_batch[i].state);
            TEST_ENSURE(finite_hit(&h) && finite_hit(&hits_batch[i]));
            TEST_ENSURE(h.time >= 0.0f && h.time <= tmax);
            spx_manifold m;
            TEST_ENSURE_CODE(spx_manifold_obb_obb(&ba[i], &bb[i], 0.01f, &m), SPX_OK);
            for (int k = 0; k < m.point_count; ++k)
                TEST_ENSURE(isfinite(m.points[k].depth) && isfinite(m.points[k].point.x));
            hits += h.state != SPX_SWEEP_MISS;
        }
    }
    printf("  %d wild pairs, %d touching\n", 2000 * N, hits);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(batch_matches_single_calls, failures);
    TEST_RUN(batch_bad_input, failures);
    TEST_RUN(batch_answers_do_not_depend_on_position, failures);
    TEST_RUN(batch_extreme_scales, failures);
    TEST_RUN(wild_inputs, failures);
    return failures ? 1 : 0;
}
