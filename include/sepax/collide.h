/* sepax: collision queries on plain data, no world needed.
 *
 * Conventions: a normal points from the first piece (A) towards the second (B); distances in
 * metres, times in seconds on [0, tmax], velocities in m/s. Touching counts as contact. Every
 * query validates its input and returns an spx_result; "no contact" is SPX_OK with a miss. */
#ifndef SEPAX_COLLIDE_H
#define SEPAX_COLLIDE_H

#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a swept query found.
typedef enum spx_sweep_state {
    SPX_SWEEP_MISS = 0, /* no contact during [0, tmax] */
    SPX_SWEEP_HIT,      /* apart at t = 0, first contact at `time` in (0, tmax] */
    SPX_SWEEP_START_OVERLAP /* overlapping or touching at t = 0: time 0, minimum-translation normal, depth (0 if touching) */
} spx_sweep_state;

/// Which feature of a piece is extreme along the contact normal at the time of contact.
typedef enum spx_feature_kind { SPX_FEATURE_VERTEX = 0, SPX_FEATURE_EDGE, SPX_FEATURE_FACE } spx_feature_kind;

/// The answer of a swept query. `axis` names the separating axis that gave the normal:
/// OBB-OBB: 0..2 faces of A, 3..5 faces of B, 6 + 3i + j edge i of A x edge j of B.
/// OBB-triangle: 0 triangle normal, 1..3 faces of the box, 4 + 3i + j box axis i x triangle edge j.
/// triangle-triangle: 0 normal of A, 1 normal of B, 2 + 3i + j edge i of A x edge j of B,
/// 11..13 in-plane normals of A's edges, 14..16 of B's edges, 17.. axes of segment-like pairs.
/// Triangle edge j runs from v[j] to v[(j+1)%3].
typedef struct spx_sweep_hit {
    spx_sweep_state state;
    float time;      /* s: first contact, 0 for START_OVERLAP */
    spx_vec3 normal; /* unit, from A towards B */
    spx_vec3 point;  /* m, world: where the pieces touch at `time`; START_OVERLAP: over the overlap,
                                  midway along the normal between the two pieces' deepest features */
    float depth;     /* m: START_OVERLAP, overlap along normal; otherwise 0 */
    int axis;        /* separating axis that gave the normal (see above) */
    spx_feature_kind feature_a;
    spx_feature_kind feature_b;
} spx_sweep_hit;

/// The static answer at one pose: whether the pieces overlap (touching counts), and if they do the
/// minimum translation that separates them: move B by depth * normal (or A by the opposite).
typedef struct spx_penetration {
    bool overlapping;
    spx_vec3 normal; /* unit, from A towards B; zero vector when not overlapping */
    float depth;     /* m, >= 0 when overlapping */
    int axis;        /* axis of least overlap, numbered as in spx_sweep_hit */
} spx_penetration;

/* ---- static tests: yes or no ----------------------------------------------------------------- */

/// Do two boxes overlap or touch? 15 axes; answers "touching" up to a clearance of about 1e-6 of
/// the boxes' size on nearly parallel edges. Errors: as spx_obb_validate for either box.
SPX_API spx_result spx_overlap_obb_obb(const spx_obb* a, const spx_obb* b, bool* out_overlap);
/// A box checked once by spx_obb_check, for the calls that then skip the checks: a host that tests
/// each of its boxes against many others checks each box once, not once a pair. Read `box` freely;
/// change it only through spx_obb_check again (a box changed after its check still gets an answer,
/// never a crash, but not a meaningful one).
typedef struct spx_obb_checked {
    spx_obb box;
    uint32_t mark; /* written by spx_obb_check: a zeroed or hand-filled struct lacks it */
} spx_obb_checked;

/// Checks a box as spx_obb_validate does and copies it, with the mark of the check, to `out`.
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL), then as spx_obb_validate; `out` untouched on error.
SPX_API spx_result spx_obb_check(const spx_obb* box, spx_obb_checked* out);
/// spx_overlap_obb_obb on boxes made by spx_obb_check: the same answer, the boxes not checked again
/// (one test of both marks). Errors: SPX_ERR_INVALID_ARGUMENT (NULL, or a box without the mark of
/// spx_obb_check).
SPX_API spx_result spx_overlap_obb_obb_checked(const spx_obb_checked* a, const spx_obb_checked* b, bool* out_overlap);
/// Does a box overlap or touch a triangle? 13 axes. Errors: as the validators of both pieces.
SPX_API spx_result spx_overlap_obb_triangle(const spx_obb* a, const spx_triangle* b, bool* out_overlap);
/// Do two triangles overlap or touch? 11 axes, plus in-plane axes for parallel planes and
/// segment-like triangles. Errors: as spx_triangle_validate for either.
SPX_API spx_result spx_overlap_triangle_triangle(const spx_triangle* a, const spx_triangle* b, bool* out_overlap);

/* ---- static tests: minimum translation ------------------------------------------------------- */

/// Overlap and, when they overlap, the axis of least overlap (A to B) and its depth.
SPX_API spx_result spx_penetration_obb_obb(const spx_obb* a, const spx_obb* b, spx_penetration* out);
SPX_API spx_result spx_penetration_obb_triangle(const spx_obb* a, const spx_triangle* b, spx_penetration* out);
SPX_API spx_result spx_penetration_triangle_triangle(const spx_triangle* a, const spx_triangle* b,
                                                     spx_penetration* out);

/* ---- swept tests: both pieces translate with constant velocity over [0, tmax] ---------------- */

/// First contact of two translating boxes during [0, tmax]: time, normal, point; START_OVERLAP
/// with the minimum translation when they overlap at t = 0. Errors: as spx_obb_validate,
/// SPX_ERR_NOT_FINITE for a non-finite velocity or tmax, SPX_ERR_OUT_OF_RANGE for a velocity component
/// times tmax beyond SPX_MAX_COORDINATE, SPX_ERR_BAD_TIME for tmax < 0; several faults give the first
/// in the order of base.h.
SPX_API spx_result spx_sweep_obb_obb(const spx_obb* a, spx_vec3 velocity_a, const spx_obb* b, spx_vec3 velocity_b,
                                     float tmax, spx_sweep_hit* out);
/// First contact of a translating box and a translating triangle. Errors as spx_sweep_obb_obb.
SPX_API spx_result spx_sweep_obb_triangle(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b,
                                          spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);
/// First contact of two translating triangles. Errors as spx_sweep_obb_obb.
SPX_API spx_result spx_sweep_triangle_triangle(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                               spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

/* ---- contact manifold for resting contact ---------------------------------------------------- */

#define SPX_MAX_MANIFOLD_POINTS 4

/// One contact point. `id` names the pair of features that made it and stays the same from frame
/// to frame while they do, so a solver can warm-start from last frame's impulse.
typedef struct spx_manifold_point {
    spx_vec3 point; /* m, world: midway between the two surfaces */
    float depth;    /* m: > 0 penetration, < 0 gap (speculative point) */
    uint32_t id;    /* feature pair key */
} spx_manifold_point;

/// Up to four points sharing one normal (A towards B). point_count 0: farther apart than the margin.
typedef struct spx_manifold {
    spx_vec3 normal;
    int point_count;
    spx_manifold_point points[SPX_MAX_MANIFOLD_POINTS];
} spx_manifold;

/// Contact manifold of two boxes, by reference-face / incident-face clipping or, for an edge
/// contact, the closest points of the two edges. Points are kept while their gap is at most
/// `margin` (m, >= 0; speculative contacts). Errors: as spx_obb_validate, SPX_ERR_NOT_FINITE,
/// SPX_ERR_OUT_OF_RANGE or SPX_ERR_INVALID_ARGUMENT for a margin that is not finite, beyond
/// SPX_MAX_COORDINATE or negative.
SPX_API spx_result spx_manifold_obb_obb(const spx_obb* a, const spx_obb* b, float margin, spx_manifold* out);

/// Contact manifold of a box (A) and a triangle (B): the axis of least overlap (or smallest gap, up to
/// `margin`) over the 13 axes picks reference-face clipping (the triangle's face against the box's
/// incident face, or a box face against the triangle) or, for an edge contact, the closest points of
/// the two edges. Up to 4 points, kept while their gap is at most `margin` (m, >= 0; speculative points
/// have negative depth); ids name the feature pair (bits 0-5, see src/collide/manifold_obb_triangle.c)
/// and are 0 above. Every feature of the triangle counts as real (see spx_manifold_obb_mesh_triangle).
/// Errors: as spx_obb_validate and spx_triangle_validate, SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE or
/// SPX_ERR_INVALID_ARGUMENT for a margin that is not finite, beyond SPX_MAX_COORDINATE or negative,
/// SPX_ERR_INVALID_ARGUMENT for NULL.
SPX_API spx_result spx_manifold_obb_triangle(const spx_obb* a, const spx_triangle* b, float margin, spx_manifold* out);

/// As spx_manifold_obb_triangle for a triangle of a surface: the normal comes from the triangle's face,
/// a box face or an edge pair as before, but only where the surface has that feature: an edge that
/// `edges` calls flat or concave (seen from the box's side), or a normal outside the wedge between the
/// edge's two faces, or a triangle corner that is not a corner of the surface, never gives it, and the
/// next best axis does (in the end the triangle's face); if even that is deeper than the least overlap
/// over all axes by more than the triangle's longest edge, the triangle gives no points (the touch is
/// by features the surface does not have). `edges` NULL: every feature is real. Errors as
/// spx_manifold_obb_triangle, and SPX_ERR_NOT_FINITE for a NaN angle.
SPX_API spx_result spx_manifold_obb_mesh_triangle(const spx_obb* a, const spx_triangle* b,
                                                  const spx_triangle_edges* edges, float margin, spx_manifold* out);

/* ---- batched static test: structure of arrays ------------------------------------------------ */

/// Boxes as structure of arrays, for testing many pairs at once. Each pointer addresses `capacity`
/// floats the host owns. Fill it with spx_obb_soa_set_box, which validates each box on the way in.
typedef struct spx_obb_soa {
    float* center[3]; /* x, y, z arrays */
    float* half_extents[3];
    float* axis[3][3]; /* axis[i][k]: component k of box axis i */
    size_t capacity;
} spx_obb_soa;

/// Stores one validated box at `index`. Errors: as spx_obb_validate; SPX_ERR_INVALID_ARGUMENT
/// for a NULL soa or an index past capacity.
SPX_API spx_result spx_obb_soa_set_box(spx_obb_soa* soa, size_t index, const spx_obb* box);

/// Tests pairs (a[i], b[i]) for i < count, writing 1 (overlap or touch) or 0 to out_overlap[i].
/// Same answers as spx_overlap_obb_obb, wherever a pair sits in the arrays. Errors:
/// SPX_ERR_INVALID_ARGUMENT (NULL, count past a capacity), SPX_ERR_NOT_FINITE when a stored value is
/// not finite, SPX_ERR_OUT_OF_RANGE when a centre coordinate or half extent written since
/// spx_obb_soa_set_box is far enough beyond SPX_MAX_COORDINATE to overflow the float lanes,
/// SPX_ERR_NOT_ORTHONORMAL when an axis component so written is far beyond 1 (then out_overlap is
/// undefined). Other values written behind spx_obb_soa_set_box's back are trusted.
SPX_API spx_result spx_overlap_obb_obb_batch(const spx_obb_soa* a, const spx_obb_soa* b, size_t count,
                                             uint8_t* out_overlap);

/// Sweeps pairs (a[i] moving at velocity_a[i], b[i] at velocity_b[i]) over [0, tmax] for i < count,
/// writing what spx_sweep_obb_obb would to out[i], within the tolerances of docs/tolerances.md:
/// lanes are computed in float, and a pair with nearly parallel edges or overlapping at t = 0 takes
/// the exact double path of the single-pair call. Errors, in the order of base.h over all pairs (out
/// is then unspecified): SPX_ERR_INVALID_ARGUMENT (NULL, count past a capacity), SPX_ERR_NOT_FINITE
/// (tmax, or a stored value or velocity), SPX_ERR_OUT_OF_RANGE (a velocity component times tmax beyond
/// SPX_MAX_COORDINATE, or a stored value as for spx_overlap_obb_obb_batch), SPX_ERR_NOT_ORTHONORMAL (as
/// for spx_overlap_obb_obb_batch), SPX_ERR_BAD_TIME (tmax < 0). Each pair's answer is the same wherever
/// it sits in the arrays.
SPX_API spx_result spx_sweep_obb_obb_batch(const spx_obb_soa* a, const spx_vec3* velocity_a, const spx_obb_soa* b,
                                           const spx_vec3* velocity_b, size_t count, float tmax, spx_sweep_hit* out);

#ifdef __cplusplus
}
#endif

#endif
