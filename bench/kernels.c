/* sepax_bench: the sepax side, public API only. Each pass calls the query once a pair exactly as a
   host would, stores the yes/no (or count, or state) the report compares across engines, and folds
   one float of each answer into bench_sink. */
#include "kernels.h"
#include <sepax/hull.h>
#include <stdlib.h>

volatile double bench_sink;

/* Each kernel calls its query directly in the loop (no function pointer in the timed path) with the
   arguments given (they may name the pair index i); the overlap flag goes to out[i]. A kernel whose
   `ready` is false answers every pair as an error. */
#define OVERLAP_KERNEL(name, ready, call, ...)               \
    static size_t name(const bench_pairs* set, uint8_t* out) \
    {                                                        \
        if (!(ready)) return set->count;                     \
        size_t errors = 0;                                   \
        for (size_t i = 0; i < set->count; ++i) {            \
            bool overlap = false;                            \
            errors += call(__VA_ARGS__, &overlap) != SPX_OK; \
            out[i] = overlap;                                \
        }                                                    \
        return errors;                                       \
    }

OVERLAP_KERNEL(overlap_obb_obb, true, spx_overlap_obb_obb, &set->box_a[i], &set->box_b[i])
OVERLAP_KERNEL(overlap_obb_obb_checked, true, spx_overlap_obb_obb_checked, &set->checked_a[i], &set->checked_b[i])
OVERLAP_KERNEL(overlap_obb_tri, true, spx_overlap_obb_triangle, &set->box_a[i], &set->tri_b[i])
OVERLAP_KERNEL(overlap_tri_tri, true, spx_overlap_triangle_triangle, &set->tri_a[i], &set->tri_b[i])

static size_t overlap_obb_obb_batch(const bench_pairs* set, uint8_t* out)
{
    if (spx_overlap_obb_obb_batch(&set->soa_a, &set->soa_b, set->count, out) == SPX_OK) return 0;
    for (size_t i = 0; i < set->count; ++i) out[i] = 0;
    return set->count;
}

/* Penetration, sweep and manifold share their bookkeeping: the query `call` is called directly in
   the loop (no function pointer in the timed path) with the arguments given and its answer `r`;
   FLAG of r goes to out[i], VALUE of r to the sink; `ready` as for OVERLAP_KERNEL. */
#define ANSWER_KERNEL(name, ready, type, init, flag, value, call, ...) \
    static size_t name(const bench_pairs* set, uint8_t* out)           \
    {                                                                  \
        if (!(ready)) return set->count;                               \
        size_t errors = 0;                                             \
        double sum = 0.0;                                              \
        for (size_t i = 0; i < set->count; ++i) {                      \
            type r = init;                                             \
            errors += call(__VA_ARGS__, &r) != SPX_OK;                 \
            out[i] = (uint8_t)(flag);                                  \
            sum += (value);                                            \
        }                                                              \
        bench_sink += sum;                                             \
        return errors;                                                 \
    }

/* a and b: the pair's two shapes, as pointer arguments (they may name i). */
#define PENETRATION_KERNEL(name, ready, call, a, b) \
    ANSWER_KERNEL(name, ready, spx_penetration, { .overlapping = false }, r.overlapping, r.depth, call, a, b)
#define SWEEP_KERNEL(name, ready, call, a, b)                                                                          \
    ANSWER_KERNEL(name, ready, spx_sweep_hit, { .state = SPX_SWEEP_MISS }, r.state, r.time, call, a, set->vel_a[i], b, \
                  set->vel_b[i], set->tmax)
/* Margin 0: points only where the shapes touch or overlap, as ODE's and Bullet's box-box (and
   beside Bullet's GJK/EPA on a box and a triangle shape); the point count goes to out[i]. */
#define MANIFOLD_KERNEL(name, ready, call, a, b)                                  \
    ANSWER_KERNEL(name, ready, spx_manifold, { .point_count = 0 }, r.point_count, \
                  r.point_count > 0 ? r.points[0].depth : 0.0f, call, a, b, 0.0f)

PENETRATION_KERNEL(penetration_obb_obb, true, spx_penetration_obb_obb, &set->box_a[i], &set->box_b[i])
PENETRATION_KERNEL(penetration_obb_tri, true, spx_penetration_obb_triangle, &set->box_a[i], &set->tri_b[i])
PENETRATION_KERNEL(penetration_tri_tri, true, spx_penetration_triangle_triangle, &set->tri_a[i], &set->tri_b[i])

SWEEP_KERNEL(sweep_obb_obb, true, spx_sweep_obb_obb, &set->box_a[i], &set->box_b[i])
SWEEP_KERNEL(sweep_obb_tri, true, spx_sweep_obb_triangle, &set->box_a[i], &set->tri_b[i])
SWEEP_KERNEL(sweep_tri_tri, true, spx_sweep_triangle_triangle, &set->tri_a[i], &set->tri_b[i])

/* The batched sweep writes full hits; the state goes to out[i] like the single call's. */
static size_t sweep_obb_obb_batch(const bench_pairs* set, uint8_t* out)
{
    static spx_sweep_hit* hits;
    static size_t capacity;
    if (capacity < set->count) { /* grown outside the timed passes after the first one */
        free(hits);
        hits = malloc(set->count * sizeof *hits);
        capacity = hits ? set->count : 0;
        if (!hits) return set->count;
    }
    if (spx_sweep_obb_obb_batch(&set->soa_a, set->vel_a, &set->soa_b, set->vel_b, set->count, set->tmax, hits) !=
        SPX_OK) {
        for (size_t i = 0; i < set->count; ++i) out[i] = 0;
        return set->count;
    }
    double sum = 0.0;
    for (size_t i = 0; i < set->count; ++i) {
        out[i] = (uint8_t)hits[i].state;
        sum += hits[i].time;
    }
    bench_sink += sum;
    return 0;
}

MANIFOLD_KERNEL(manifold_obb_obb, true, spx_manifold_obb_obb, &set->box_a[i], &set->box_b[i])
MANIFOLD_KERNEL(manifold_obb_tri, true, spx_manifold_obb_triangle, &set->box_a[i], &set->tri_b[i])

/* The box sets again with each box given as the hull of its 8 corners: the hull queries' cost on the
   same problems, their answers checked against the box queries'. The hulls are built at the first
   pass over a set and kept for the next passes, which time the queries alone. */
typedef struct hull_cache {
    bench_pair_kind kind;
    uint64_t seed;
    size_t count;
    bool swept;
    spx_hull** hulls; /* a[i] at 2i, b[i] at 2i + 1 */
} hull_cache;

static hull_cache hulls_built;

static spx_hull* box_hull(spx_vec3 h)
{
    spx_vec3 p[8];
    for (int c = 0; c < 8; ++c) p[c] = spx_v3(c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z);
    spx_hull_def def = spx_default_hull_def();
    def.points = p;
    def.point_count = 8;
    spx_hull* out = NULL;
    return spx_hull_create(&def, &out) == SPX_OK ? out : NULL;
}

/* Box-triangle sets have no B boxes: only A's hulls are built (at 2i). */
static bool hulls_for(const bench_pairs* set)
{
    const bool with_b = set->kind != BENCH_OBB_TRI;
    hull_cache* c = &hulls_built;
    if (c->hulls && c->kind == set->kind && c->seed == set->seed && c->count == set->count && c->swept == set->swept)
        return true;
    if (c->hulls) {
        for (size_t i = 0; i < 2 * c->count; ++i) spx_hull_destroy(c->hulls[i]);
        free(c->hulls);
    }
    c->hulls = calloc(2 * set->count + 1, sizeof *c->hulls);
    if (!c->hulls) return false;
    c->kind = set->kind, c->seed = set->seed, c->count = set->count, c->swept = set->swept;
    bool ok = true;
    for (size_t i = 0; i < set->count; ++i) {
        c->hulls[2 * i] = box_hull(set->box_a[i].half_extents);
        c->hulls[2 * i + 1] = with_b ? box_hull(set->box_b[i].half_extents) : NULL;
        ok = ok && c->hulls[2 * i] && (!with_b || c->hulls[2 * i + 1]);
    }
    return ok;
}

/* Pair i's hull of side k (0: a, 1: b) placed at its box's pose, as a pointer argument. */
#define PLACED_HULL(k, box) \
    (&(spx_placed_hull){ hulls_built.hulls[2 * i + (k)], set->box[i].center, set->box[i].rotation })

OVERLAP_KERNEL(overlap_hull_hull, hulls_for(set), spx_overlap_hull_hull, PLACED_HULL(0, box_a), PLACED_HULL(1, box_b))
PENETRATION_KERNEL(penetration_hull_hull, hulls_for(set), spx_penetration_hull_hull, PLACED_HULL(0, box_a),
                   PLACED_HULL(1, box_b))
MANIFOLD_KERNEL(manifold_hull_hull, hulls_for(set), spx_manifold_hull_hull, PLACED_HULL(0, box_a),
                PLACED_HULL(1, box_b))
SWEEP_KERNEL(sweep_hull_hull, hulls_for(set), spx_sweep_hull_hull, PLACED_HULL(0, box_a), PLACED_HULL(1, box_b))

/* The box-triangle sets with each box as the hull of its corners: hull against triangle. */
#define HULL_TRI_KERNEL(name, type, init, flag, value, call, ...) \
    static size_t name(const bench_pairs* set, uint8_t* out)      \
    {                                                             \
        if (!hulls_for(set)) return set->count;                   \
        size_t errors = 0;                                        \
        double sum = 0.0;                                         \
        for (size_t i = 0; i < set->count; ++i) {                 \
            const spx_placed_hull a = *PLACED_HULL(0, box_a);     \
            type r = init;                                        \
            errors += call(&a, __VA_ARGS__, &r) != SPX_OK;        \
            out[i] = (uint8_t)(flag);                             \
            sum += (value);                                       \
        }                                                         \
        bench_sink += sum;                                        \
        return errors;                                            \
    }

HULL_TRI_KERNEL(overlap_hull_tri, bool, false, r, r ? 1.0 : 0.0, spx_overlap_hull_triangle, &set->tri_b[i])
HULL_TRI_KERNEL(penetration_hull_tri, spx_penetration, { .overlapping = false }, r.overlapping, r.depth,
                spx_penetration_hull_triangle, &set->tri_b[i])
HULL_TRI_KERNEL(manifold_hull_tri, spx_manifold, { .point_count = 0 }, r.point_count,
                r.point_count > 0 ? r.points[0].depth : 0.0f, spx_manifold_hull_triangle, &set->tri_b[i], 0.0f)
/* The hull's velocity comes before the triangle: the call's own order. */
static size_t sweep_hull_tri(const bench_pairs* set, uint8_t* out)
{
    if (!hulls_for(set)) return set->count;
    size_t errors = 0;
    double sum = 0.0;
    for (size_t i = 0; i < set->count; ++i) {
        const spx_placed_hull a = *PLACED_HULL(0, box_a);
        spx_sweep_hit hit = { .state = SPX_SWEEP_MISS };
        errors += spx_sweep_hull_triangle(&a, set->vel_a[i], &set->tri_b[i], set->vel_b[i], set->tmax, &hit) != SPX_OK;
        out[i] = (uint8_t)hit.state;
        sum += hit.time;
    }
    bench_sink += sum;
    return errors;
}

static const bench_kernel kernels[] = {
    { "overlap_obb_obb", "sepax", BENCH_OBB_OBB, false, NULL, overlap_obb_obb },
    { "overlap_obb_obb", "sepax-checked", BENCH_OBB_OBB, false, "overlap_obb_obb", overlap_obb_obb_checked },
    { "overlap_obb_obb", "sepax-batch", BENCH_OBB_OBB, false, "overlap_obb_obb", overlap_obb_obb_batch },
    { "penetration_obb_obb", "sepax", BENCH_OBB_OBB, false, "overlap_obb_obb", penetration_obb_obb },
    { "manifold_obb_obb", "sepax", BENCH_OBB_OBB, false, "overlap_obb_obb", manifold_obb_obb },
    { "manifold_obb_obb_resting", "sepax", BENCH_OBB_OBB_RESTING, false, NULL, manifold_obb_obb },
    { "overlap_hull_hull", "sepax", BENCH_OBB_OBB, false, "overlap_obb_obb", overlap_hull_hull },
    { "penetration_hull_hull", "sepax", BENCH_OBB_OBB, false, "overlap_obb_obb", penetration_hull_hull },
    { "manifold_hull_hull", "sepax", BENCH_OBB_OBB, false, "overlap_obb_obb", manifold_hull_hull },
    { "overlap_obb_tri", "sepax", BENCH_OBB_TRI, false, NULL, overlap_obb_tri },
    { "penetration_obb_tri", "sepax", BENCH_OBB_TRI, false, "overlap_obb_tri", penetration_obb_tri },
    { "manifold_obb_tri", "sepax", BENCH_OBB_TRI, false, "overlap_obb_tri", manifold_obb_tri },
    { "overlap_hull_tri", "sepax", BENCH_OBB_TRI, false, "overlap_obb_tri", overlap_hull_tri },
    { "penetration_hull_tri", "sepax", BENCH_OBB_TRI, false, "overlap_obb_tri", penetration_hull_tri },
    { "manifold_hull_tri", "sepax", BENCH_OBB_TRI, false, "overlap_obb_tri", manifold_hull_tri },
    { "overlap_tri_tri", "sepax", BENCH_TRI_TRI, false, NULL, overlap_tri_tri },
    { "penetration_tri_tri", "sepax", BENCH_TRI_TRI, false, "overlap_tri_tri", penetration_tri_tri },
    { "sweep_obb_obb", "sepax", BENCH_OBB_OBB, true, NULL, sweep_obb_obb },
    { "sweep_obb_obb", "sepax-batch", BENCH_OBB_OBB, true, "sweep_obb_obb", sweep_obb_obb_batch },
    { "sweep_hull_hull", "sepax", BENCH_OBB_OBB, true, "sweep_obb_obb", sweep_hull_hull },
    { "sweep_obb_tri", "sepax", BENCH_OBB_TRI, true, NULL, sweep_obb_tri },
    { "sweep_hull_tri", "sepax", BENCH_OBB_TRI, true, "sweep_obb_tri", sweep_hull_tri },
    { "sweep_tri_tri", "sepax", BENCH_TRI_TRI, true, NULL, sweep_tri_tri },
};

const bench_kernel* bench_kernels(size_t* out_count)
{
    *out_count = sizeof kernels / sizeof kernels[0];
    return kernels;
}
