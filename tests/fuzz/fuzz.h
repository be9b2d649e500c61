/* Shared by the fuzz harnesses: turning bytes into the pieces of a query, and the property checks.
 *
 * Each harness is one function `int fuzz_<name>(const uint8_t* data, size_t size)`. Built with
 * -DSEPAX_FUZZ=ON (clang) it is a libFuzzer target; in every build tests/test_fuzz_replay.c runs it
 * on the seed corpus and a fixed-seed stream of random inputs. A property that fails prints what and
 * where, then aborts, which libFuzzer reports as a crash with the input that caused it.
 *
 * Bytes become numbers so that both kinds of input are common: plausible geometry (small multiples
 * of 1/16, where contacts happen) and anything a float can hold (raw bits: NaN, infinities,
 * denormals, FLT_MAX, values at SPX_MAX_COORDINATE and just past it). */
#ifndef SPX_FUZZ_H
#define SPX_FUZZ_H

#include <sepax/sepax.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            fflush(stderr);                                                             \
            abort();                                                                    \
        }                                                                               \
    } while (0)

typedef struct fuzz_input {
    const uint8_t* p;
    size_t n;
} fuzz_input;

/* The next byte, 0 once the input is used up (so every input decodes to something). */
static inline uint8_t fuzz_next_byte(fuzz_input* in)
{
    if (!in->n) return 0;
    --in->n;
    return *in->p++;
}

static inline float fuzz_float(fuzz_input* in)
{
    const uint8_t kind = fuzz_next_byte(in);
    const int8_t b = (int8_t)fuzz_next_byte(in);
    switch (kind & 15) {
    case 0: { /* raw bits */
        /* low byte first, one statement each: the operands of | have no order */
        uint32_t u = (uint32_t)(uint8_t)b;
        u |= (uint32_t)fuzz_next_byte(in) << 8;
        u |= (uint32_t)fuzz_next_byte(in) << 16;
        u |= (uint32_t)fuzz_next_byte(in) << 24;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    case 1: /* a power of ten from 1e-38 to 1e38 */
        return (float)((double)b / 16.0 * pow(10.0, (double)(fuzz_next_byte(in) % 77) - 38.0));
    case 2: /* the edge of the accepted range, on either side */
        return (b < 0 ? -1.0f : 1.0f) * SPX_MAX_COORDINATE * (1.0f + (float)(b & 7) * 0.25f - 0.5f);
    case 3:
        return (float)b * 1024.0f; /* large but in range */
    case 4:
        return (float)b / 4096.0f; /* small */
    default:
        return (float)b / 16.0f; /* plausible: -8 .. 8 m in steps of 1/16 */
    }
}

static inline spx_vec3 fuzz_vec3(fuzz_input* in)
{
    spx_vec3 v;
    v.x = fuzz_float(in);
    v.y = fuzz_float(in);
    v.z = fuzz_float(in);
    return v;
}

/* Mostly a non-negative float, as a time or a margin is; one in eight any float at all. */
static inline float fuzz_mostly_positive(fuzz_input* in)
{
    return (fuzz_next_byte(in) & 7) ? fabsf(fuzz_float(in)) : fuzz_float(in);
}

/* A swept pair's motion: A's velocity, B's, and the interval, read in that order. */
typedef struct fuzz_motion {
    spx_vec3 va, vb;
    float tmax;
} fuzz_motion;

static inline fuzz_motion fuzz_read_motion(fuzz_input* in)
{
    const spx_vec3 va = fuzz_vec3(in), vb = fuzz_vec3(in); /* the end of each declarator is a sequence point */
    return (fuzz_motion){ va, vb, fuzz_mostly_positive(in) };
}

/* p moved by v for time t: where a sweep's piece is at t. */
static inline spx_vec3 fuzz_moved(spx_vec3 p, spx_vec3 v, float t)
{
    return spx_v3(p.x + v.x * t, p.y + v.y * t, p.z + v.z * t);
}

/* Mostly a unit quaternion; sometimes raw floats (not unit, NaN, ...). */
static inline spx_quat fuzz_quat(fuzz_input* in)
{
    spx_quat q;
    if ((fuzz_next_byte(in) & 15) == 0) {
        q.x = fuzz_float(in), q.y = fuzz_float(in), q.z = fuzz_float(in), q.w = fuzz_float(in);
        return q;
    }
    double c[4], n2 = 0.0;
    for (int i = 0; i < 4; ++i) {
        c[i] = (double)(int8_t)fuzz_next_byte(in);
        n2 += c[i] * c[i];
    }
    if (n2 == 0.0) c[3] = 1.0, n2 = 1.0;
    const double inv = 1.0 / sqrt(n2);
    q.x = (float)(c[0] * inv), q.y = (float)(c[1] * inv), q.z = (float)(c[2] * inv), q.w = (float)(c[3] * inv);
    return q;
}

/* A box through spx_obb_from_quat when that accepts it, else filled in by hand (the queries must
   refuse it with the same code). */
static inline spx_obb fuzz_obb(fuzz_input* in)
{
    const spx_vec3 c = fuzz_vec3(in);
    spx_vec3 h = fuzz_vec3(in);
    if ((fuzz_next_byte(in) & 7) != 0) h = spx_v3(fabsf(h.x), fabsf(h.y), fabsf(h.z)); /* mostly positive */
    const spx_quat q = fuzz_quat(in);
    spx_obb box;
    if (spx_obb_from_quat(c, h, q, &box) == SPX_OK) return box;
    box.center = c;
    box.half_extents = h;
    const float x = q.x, y = q.y, z = q.z, w = q.w;
    box.rotation.col[0] = spx_v3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    box.rotation.col[1] = spx_v3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    box.rotation.col[2] = spx_v3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
    return box;
}

static inline spx_triangle fuzz_triangle(fuzz_input* in)
{
    spx_triangle t;
    for (int i = 0; i < 3; ++i) t.v[i] = fuzz_vec3(in);
    return t;
}

/* ---- properties --------------------------------------------------------------------------- */

static inline bool fuzz_finite3(spx_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static inline bool fuzz_unit(spx_vec3 v)
{
    const double n2 = (double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z;
    return fabs(n2 - 1.0) < 1e-4;
}

/* A code the documentation names for bad input of a query (never SPX_OK's neighbours in the
   enum that only the world returns). */
static inline bool fuzz_input_code(spx_result r)
{
    switch (r) {
    case SPX_ERR_INVALID_ARGUMENT:
    case SPX_ERR_NOT_FINITE:
    case SPX_ERR_OUT_OF_RANGE:
    case SPX_ERR_BAD_EXTENT:
    case SPX_ERR_NOT_ORTHONORMAL:
    case SPX_ERR_NOT_RIGHT_HANDED:
    case SPX_ERR_DEGENERATE_TRIANGLE:
    case SPX_ERR_BAD_TIME:
        return true;
    default:
        return false;
    }
}

/* A swept answer: finite, its state consistent with its fields. */
static inline void fuzz_check_hit(const spx_sweep_hit* h, float tmax)
{
    FUZZ_CHECK(h->state == SPX_SWEEP_MISS || h->state == SPX_SWEEP_HIT || h->state == SPX_SWEEP_START_OVERLAP);
    if (h->state == SPX_SWEEP_MISS) return;
    FUZZ_CHECK(isfinite(h->time) && isfinite(h->depth) && fuzz_finite3(h->point) && fuzz_finite3(h->normal));
    FUZZ_CHECK(fuzz_unit(h->normal));
    FUZZ_CHECK(h->time >= 0.0f && h->time <= tmax);
    FUZZ_CHECK(h->depth >= 0.0f);
    if (h->state == SPX_SWEEP_START_OVERLAP) FUZZ_CHECK(h->time == 0.0f);
    else FUZZ_CHECK(h->depth == 0.0f);
}

static inline void fuzz_check_penetration(const spx_penetration* p)
{
    if (!p->overlapping) return;
    FUZZ_CHECK(isfinite(p->depth) && p->depth >= 0.0f && fuzz_finite3(p->normal) && fuzz_unit(p->normal));
}

/* slack: what rounding may add to a gap (m), for the pieces' size and distance from the origin. */
static inline void fuzz_check_manifold(const spx_manifold* m, float margin, float slack)
{
    FUZZ_CHECK(m->point_count >= 0 && m->point_count <= SPX_MAX_MANIFOLD_POINTS);
    if (!m->point_count) return;
    FUZZ_CHECK(fuzz_finite3(m->normal) && fuzz_unit(m->normal));
    for (int i = 0; i < m->point_count; ++i) {
        FUZZ_CHECK(fuzz_finite3(m->points[i].point) && isfinite(m->points[i].depth));
        /* a kept point's gap is within the margin, up to rounding of the pieces' coordinates */
        FUZZ_CHECK(m->points[i].depth >= -margin - slack);
    }
}

/* The order of base.h: the code a call with two faulty inputs returns. The harnesses pass no NULL
   pointers, so an SPX_ERR_INVALID_ARGUMENT they see is a negative margin, which comes last. */
static inline int fuzz_rank(spx_result r)
{
    switch (r) {
    case SPX_OK:
        return 5;
    case SPX_ERR_NOT_FINITE:
        return 1;
    case SPX_ERR_OUT_OF_RANGE:
        return 2;
    case SPX_ERR_BAD_TIME:
    case SPX_ERR_INVALID_ARGUMENT:
        return 4;
    default:
        return 3;
    }
}
static inline spx_result fuzz_first(spx_result a, spx_result b) { return fuzz_rank(b) < fuzz_rank(a) ? b : a; }

/* How far apart two answers' times may be: the documented 1e-4 of tmax, plus the time the closing
   speed needs to cover 1e-5 of the problem's size (docs/tolerances.md: answers are exact where the
   clearance exceeds that; size here is twice the reach, at least a diameter). The slower of the two
   normals' closing speeds: either may be the contact's, and a motion nearly along the contact plane
   makes its time ill-conditioned. */
static inline float fuzz_time_slack(float tmax, float reach, spx_vec3 va, spx_vec3 vb, spx_vec3 n1, spx_vec3 n2)
{
    const spx_vec3 v_rel = spx_v3(vb.x - va.x, vb.y - va.y, vb.z - va.z); /* B's motion seen from A */
    /* a miss has no normal (zero): only the other answer's counts */
    const bool has1 = n1.x != 0.0f || n1.y != 0.0f || n1.z != 0.0f, has2 = n2.x != 0.0f || n2.y != 0.0f || n2.z != 0.0f;
    const float c1 = has1 ? fabsf(v_rel.x * n1.x + v_rel.y * n1.y + v_rel.z * n1.z) : INFINITY;
    const float c2 = has2 ? fabsf(v_rel.x * n2.x + v_rel.y * n2.y + v_rel.z * n2.z) : INFINITY;
    const float closing = fminf(c1, c2);
    return 1e-4f * tmax + 1e-5f + 1e-5f * 2.0f * reach / closing;
}

/* A and B touching within rounding at t = 0, as the penetration reads in either order: overlapping
   no deeper than `rounding`. */
static inline bool fuzz_touching(const spx_penetration* ab, const spx_penetration* ba, float rounding)
{
    return (ab->overlapping && ab->depth <= rounding) || (ba->overlapping && ba->depth <= rounding);
}

/* How far a rotation is from orthonormal: the largest |c_i . c_j - delta_ij| of its columns. The
   queries accept up to SPX_ROTATION_TOLERANCE; a box is then a slightly different solid seen from
   its own frame (R^T as the inverse) and from the other piece's (R), by about that much of its
   extents along each axis. */
static inline float fuzz_rotation_error(const spx_mat3* r)
{
    float worst = 0.0f;
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) {
            const spx_vec3 a = r->col[i], b = r->col[j];
            const float d = a.x * b.x + a.y * b.y + a.z * b.z - (i == j ? 1.0f : 0.0f);
            worst = fmaxf(worst, fabsf(d));
        }
    return worst;
}

/* Two answers to the same problem (A and B swapped, or batched and single) whose states differ:
   only where rounding can decide. A touch within `rounding` may read as overlapping or not; a hit
   within `slack` of t = 0 may read as a start overlap, or as a graze that is over before it starts
   (a miss); a hit within `slack` of tmax may fall after it in the other answer. */
static inline bool fuzz_states_may_differ(const spx_sweep_hit* x, const spx_sweep_hit* y, bool touching, float slack,
                                          float tmax)
{
    if (x->state == y->state || touching) return true;
    const spx_sweep_hit* hit = x->state == SPX_SWEEP_HIT ? x : y;
    const spx_sweep_hit* other = hit == x ? y : x;
    if (hit->state != SPX_SWEEP_HIT) return false;
    if (other->state == SPX_SWEEP_MISS) return hit->time <= slack || hit->time >= tmax - slack;
    return hit->time <= slack;
}

/* Two pieces moving at constant velocities, as fuzz_grazes samples them: a and b point at the
   harness's pieces (b NULL where a holds both). */
typedef struct fuzz_moving {
    const void *a, *b;
    spx_vec3 va, vb;
} fuzz_moving;

/* The pair's depth of overlap with both pieces moved to time t (0 when apart). */
typedef float fuzz_depth_fn(const fuzz_moving* pair, float t);

/* The depth of a penetration query's answer r, p: 0 when it failed or found them apart. */
static inline float fuzz_depth(spx_result r, const spx_penetration* p)
{
    return r == SPX_OK && p->overlapping ? p->depth : 0.0f;
}

/* A graze: a contact that never gets deeper than rounding after `t0` (two faces sliding flush with
   no speed along their normal), sampled at 8 times up to tmax. Whether it counts is decided by
   rounding, so two answers may differ on it; a contact that does get deeper may not be missed. */
static inline bool fuzz_grazes(fuzz_depth_fn* depth_at, const fuzz_moving* pair, float t0, float tmax, float rounding)
{
    for (int k = 1; k <= 8; ++k)
        if (depth_at(pair, t0 + (tmax - t0) * (float)k / 8.0f) > rounding) return false;
    return true;
}

/* A sweep and the same sweep with A and B swapped: states that differ only where rounding decides
   (fuzz_states_may_differ) or the first contact grazes, and times within the slack unless the
   earlier contact grazes. */
static inline void fuzz_check_swapped(const spx_sweep_hit* hit, const spx_sweep_hit* swapped, bool touching,
                                      float slack, float tmax, float rounding, fuzz_depth_fn* depth_at,
                                      const fuzz_moving* pair)
{
    const spx_sweep_hit* first = hit->state == SPX_SWEEP_HIT ? hit : swapped;
    FUZZ_CHECK(fuzz_states_may_differ(hit, swapped, touching, slack, tmax) ||
               (first->state == SPX_SWEEP_HIT && fuzz_grazes(depth_at, pair, first->time, tmax, rounding)));
    if (hit->state == SPX_SWEEP_HIT && swapped->state == SPX_SWEEP_HIT &&
        !fuzz_grazes(depth_at, pair, fminf(hit->time, swapped->time), tmax, rounding))
        FUZZ_CHECK(fabsf(swapped->time - hit->time) <= slack);
}

/* Largest |coordinate| of a box (centre plus extents) and of a triangle. */
static inline float fuzz_box_reach(const spx_obb* b)
{
    const float h = fmaxf(b->half_extents.x, fmaxf(b->half_extents.y, b->half_extents.z));
    return fmaxf(fabsf(b->center.x), fmaxf(fabsf(b->center.y), fabsf(b->center.z))) + 2.0f * h;
}
static inline float fuzz_triangle_reach(const spx_triangle* t)
{
    float r = 0.0f;
    for (int i = 0; i < 3; ++i) r = fmaxf(r, fmaxf(fabsf(t->v[i].x), fmaxf(fabsf(t->v[i].y), fabsf(t->v[i].z))));
    return r;
}

/* The harnesses. */
int fuzz_box_box(const uint8_t* data, size_t size);
int fuzz_box_triangle(const uint8_t* data, size_t size);
int fuzz_triangle_triangle(const uint8_t* data, size_t size);
int fuzz_mesh(const uint8_t* data, size_t size);
int fuzz_round(const uint8_t* data, size_t size);
int fuzz_hull(const uint8_t* data, size_t size);
int fuzz_sat2d(const uint8_t* data, size_t size);
int fuzz_query(const uint8_t* data, size_t size);
int fuzz_scene(const uint8_t* data, size_t size);

/* libFuzzer's entry, in the target built for one harness. */
#if defined(SPX_FUZZ_TARGET)
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
#define SPX_FUZZ_ENTRY(fn) \
    int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return fn(data, size); }
#else
#define SPX_FUZZ_ENTRY(fn)
#endif

#endif
