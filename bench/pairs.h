/* sepax_bench: fixed random pair sets, the same for every engine and every run of one seed. */
#ifndef SPX_BENCH_PAIRS_H
#define SPX_BENCH_PAIRS_H

#include <sepax/sepax.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum bench_pair_kind {
    BENCH_OBB_OBB = 0,
    BENCH_OBB_TRI,
    BENCH_TRI_TRI,
    BENCH_OBB_OBB_RESTING, /* B stacked on A, as a solver sees resting boxes; static only */
    BENCH_PAIR_KIND_COUNT
} bench_pair_kind;

/// Time step of the swept sets (s): velocities are chosen against it.
#define BENCH_TMAX (1.0f / 60.0f)

/// n pairs (A[i], B[i]) of one kind. Static sets: B sits at f times the touching distance from A
/// along a random direction, f uniform in [0.5, 1.5], so half the pairs overlap by construction.
/// Swept sets: B starts apart (f in [1.02, 2]) and closes on A so that contact comes at g * tmax,
/// g uniform in [0.05, 1.95]: half the pairs hit within tmax. Rounding to float moves a pair by a
/// few µm, so `exact` holds the answer taken again on the stored floats (double, complete axes).
/// Resting sets: B lies on A's top face, A and B lying flat (y the short axis) with random yaw and
/// a small tilt (up to 0.06 degree, one pair in four up to about 10), and B placed along A's up
/// axis (with a sideways offset) at f times the touching distance, f uniform in [0.99, 1.005]:
/// penetrations up to 1% of the stack height, gaps up to 0.5%, two pairs in three touching.
typedef struct bench_pairs {
    bench_pair_kind kind;
    bool swept;
    size_t count;
    uint64_t seed;       /* this set's own seed, derived from the run's seed */
    spx_obb* box_a;      /* OBB_OBB, OBB_TRI */
    spx_obb* box_b;      /* OBB_OBB */
    spx_triangle* tri_a; /* TRI_TRI */
    spx_triangle* tri_b; /* OBB_TRI, TRI_TRI */
    spx_vec3* vel_a;     /* swept sets: m/s */
    spx_vec3* vel_b;
    float tmax;               /* s, swept sets */
    float* built;             /* a pair: f - 1 (static) or g - 1 (swept) it was built with; < 0 overlaps or hits */
    uint8_t* exact;           /* a pair: 1 when it overlaps (hits) in exact arithmetic on the stored floats */
    size_t built_hits;        /* pairs built to overlap (static) or to hit within tmax (swept) */
    size_t exact_hits;        /* pairs that do, on the stored floats */
    spx_obb_soa soa_a, soa_b; /* OBB_OBB: structure-of-arrays copies, after bench_pairs_make_soa */
    float* soa_storage;
    spx_obb_checked* checked_a; /* OBB_OBB: the boxes through spx_obb_check, after bench_pairs_make_soa */
    spx_obb_checked* checked_b;
} bench_pairs;

/// Builds a set. The content depends only on (seed, kind, swept, count). Returns false when out of
/// memory or when the library rejects a generated piece (then the set is empty).
bool bench_pairs_make(bench_pairs* out, bench_pair_kind kind, bool swept, size_t count, uint64_t seed);

/// Fills soa_a/soa_b through spx_obb_soa_set_box and checked_a/checked_b through spx_obb_check. False
/// when out of memory or a box is rejected.
bool bench_pairs_make_soa(bench_pairs* set);

/// Bytes the set's pieces and velocities occupy (not counting the structure-of-arrays copies).
size_t bench_pairs_bytes(const bench_pairs* set);

void bench_pairs_free(bench_pairs* set);

/// "obb_obb", "obb_tri", "tri_tri".
const char* bench_pair_kind_name(bench_pair_kind kind);

#endif
