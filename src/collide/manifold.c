/* Box-box contact manifold for resting contact (DESIGN.md, step 4).
 *
 * The axis of least penetration (or largest separation, down to -margin) over the 15 SAT axes
 * picks the contact type: a face axis gives reference-face / incident-face clipping, an edge axis
 * the closest points of the two edges. Float throughout: this feeds a sequential-impulse solver
 * at rest, not the exact time of impact, and it runs for every touching pair every step, so the
 * axes are tested four at a time and the clipping has no data-dependent loops.
 *
 * Clipping the incident quad against the reference rectangle: the vertices of the overlap are
 * the incident corners inside the rectangle, the rectangle's corners inside the quad, and the
 * crossings of incident edges with the rectangle's sides (Sutherland-Hodgman gives the same
 * polygon; listing the three kinds directly names every point by the features that made it).
 *
 * Feature ids (spx_manifold_point.id), the same while the same features make the point:
 *   face contact (bit 16 clear)
 *     bits 0-2   reference face: 2 * axis + (1 if the face is on the axis' negative side)
 *     bit  3     reference box: 0 = A, 1 = B
 *     bits 4-6   incident face of the other box, numbered the same way
 *     bits 8-13  point code:
 *                  0..3       incident corner c. With f the incident face's axis, u = axis (f+1)%3,
 *                             v = axis (f+2)%3: c0 = -u-v, c1 = +u-v, c2 = +u+v, c3 = -u+v;
 *                             incident edge e runs from corner e to corner (e+1)%4
 *                  4..7       reference face corner 4 + bu + 2 bv, where bu, bv are 1 on the +
 *                             side of the reference face's axes u' = (k+1)%3, v' = (k+2)%3 (k:
 *                             reference axis)
 *                  8 + 4e + p incident edge e crossing side plane p of the reference face:
 *                             p = 0 at +u', 1 at -u', 2 at +v', 3 at -v'
 *   edge contact (bit 16 set)
 *     bits 0-1   direction of A's edge (axis i)
 *     bits 2-3   which of the 4 parallel edges: bit 2 set when on the + side of axis (i+1)%3,
 *                bit 3 when on the + side of axis (i+2)%3
 *     bits 4-5   direction of B's edge (axis j), bits 6-7 which one, as for A
 * The box-triangle and box-mesh ids: manifold_obb_triangle.c. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "manifold_reduce.h"
#include "manifold_box.h"
#include "math/simd.h"
#include <float.h>
#include <math.h>
#include <stddef.h>

/* Edge pairs closer to parallel than sin(angle)^2 < 1e-6 give a cross product made of rounding:
   skip them, the face axes cover such pairs (they touch along a face or not by an edge). */
#define MANIFOLD_PARALLEL_SIN2 1e-6f
/* Hysteresis between axes whose separations are nearly equal, so the manifold does not flicker:
   another axis must beat the preferred one by 2% of its depth plus a size-relative slack (which
   also swallows the rounding of an edge axis that coincides with a face axis). */
#define MANIFOLD_REL_TOL 0.02f
#define MANIFOLD_ABS_TOL 1e-5f
/* An edge axis must beat the faces by more: a face manifold clips up to four points, an edge one
   gives one, and two boxes resting face on face with a small tilt have edge axes within a few
   degrees of the face normal whose separations differ from the face's by that tilt times the size.
   With the face tolerance alone such a pair flipped to a one-point edge manifold and a stack of
   boxes standing on it shuddered. 1e-3 of the boxes' size (0.5 mm for two unit cubes) is far below
   what a real edge-on-edge contact gains over the faces. */
#define MANIFOLD_EDGE_ABS_TOL 1e-3f
/* An edge axis within about 8 degrees of a face normal of either box is a face contact seen edge-on
   (a box resting tilted on another): its one point lets the box rock, where the face clipping gives
   the points along the touching edge. Such pairs take the face axis, whose depth exceeds the edge
   axis's by at most (1 - cos 8 deg) of the size. */
#define MANIFOLD_EDGE_FACE_COS 0.99f
/* Such a pair takes that face: the face of either box whose normal the edge axis is within 8
   degrees of. Not the best face of either box: for a box struck edge-first that can point far
   from the contact, and the points part along it while the edges sink into each other with no
   impulse (docs/collision.md). */

#define MANIFOLD_EDGE_BIT (1u << 16)

/* The face and edge cases kept out of line: inlined, their registers and stack frame weigh on
   the separated pairs, which leave after the face axes and need none of it. */
#if defined(__GNUC__)
#define MANIFOLD_NOINLINE __attribute__((noinline))
#else
#define MANIFOLD_NOINLINE
#endif

/* The SAT runs on rows of R = A^T B in four float lanes (math/simd.h): lane j of row i is a_i . b_j;
   lane 3 is padding that the code keeps out of every answer. */
/* (a1, a2, a3, a0): lane e takes lane e+1 (mod 4), the next corner of a quad. */
static inline spx_f4 lanes_next(spx_f4 a) { return SPX_F4_SWIZZLE(a, 1, 2, 3, 0); }
/* Lanes 0..2 of a, lane 3 replaced by w. */
static inline spx_f4 lanes_pad(spx_f4 a, float w)
{
    return spx_f4_pick(spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0)), a, spx_f4_splat(w));
}
/* The 9 floats of a rotation (columns c0, c1, c2) as x = (c0.x, c1.x, c2.x, 0), y, z. */
static inline void lanes_columns_t(const float* m, spx_f4* x, spx_f4* y, spx_f4* z)
{
    const spx_f4 lo = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0));
    const spx_f4 c0 = spx_f4_load(m), c1 = spx_f4_load(m + 3), c2 = spx_f4_load(m + 5); /* c2: (c1.z, c2.xyz) */
    const spx_f4 xy = spx_f4_unpacklo(c0, c1), zz = spx_f4_unpackhi(c0, c1);            /* (x0 x1 y0 y1), (z0 z1 . .) */
    *x = spx_f4_and(lo, SPX_F4_SHUFFLE(xy, c2, 0, 1, 1, 1));
    *y = spx_f4_and(lo, SPX_F4_SHUFFLE(xy, c2, 2, 3, 2, 2));
    *z = spx_f4_and(lo, SPX_F4_SHUFFLE(zz, c2, 0, 1, 3, 3));
}
static inline spx_f4 lanes_hmax(spx_f4 a) /* every lane: the largest lane */
{
    a = spx_f4_max(a, SPX_F4_SWIZZLE(a, 1, 0, 3, 2));
    return spx_f4_max(a, SPX_F4_SWIZZLE(a, 2, 3, 0, 1));
}

/* Lowest set bit of a 4-bit lane mask (0 for an empty mask, which only NaN could make). A mask
   that names an axis is cut to lanes 0..2 first: lane 3 is padding, and an index 3 would read
   past every 3-element array. */
static const int8_t first_lane[16] = { 0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0 };

/* Writes one point per lane set in `lanes`, in lane order: lane l is (x_l, y_l, z_l), depth d_l,
   id bits | code[l] << 8. Returns how many. With SSE2 the lanes are transposed so that each
   point's position and depth, the first 16 bytes of spx_manifold_point, go out in one store. */
_Static_assert(offsetof(spx_manifold_point, point) == 0 && offsetof(spx_manifold_point, depth) == 12,
               "spx_manifold_point starts with point then depth");
static inline int lanes_store_points(spx_manifold_point* pts, int lanes, spx_f4 x, spx_f4 y, spx_f4 z, spx_f4 d,
                                     uint32_t bits, const uint8_t* code)
{
    int n = 0;
    spx_f4_transpose(&x, &y, &z, &d);
    const spx_f4 row[4] = { x, y, z, d };
    for (; lanes; lanes &= lanes - 1, ++n) {
        const int l = first_lane[lanes];
        spx_f4_store((float*)&pts[n], row[l]);
        pts[n].id = bits | (uint32_t)code[l] << 8;
    }
    return n;
}

/* The tests of spx_obb_validate (geometry/obb.c) in float, without early exits, on the box's axes
   already laid out as lanes (x, y, z: lane i is the component of axis i; x1 = rot1(x), x2 =
   rot2(x)). Returns a lane mask: lanes 0..2 all set when the box passes, and then it passes
   spx_obb_validate too; one that fails goes there for its exact error code. The lengths and dot
   products are summed x + y + z as glms_vec3_dot does, so the tolerance test is the same test.
   A non-finite axis component makes its squared length and its dot products non-finite, so the
   orthonormality test catches it too. Handedness: lane i is a_{i+2} . (a_i x a_{i+1}), within
   3e-5 of +1 or -1 once the axes are orthonormal, so every lane has the sign of the determinant;
   lanes instead of three scalar cross products keep the whole check in registers. */
static inline int box_ok(const spx_obb* box, spx_f4 x, spx_f4 y, spx_f4 z, spx_f4 x1, spx_f4 y1, spx_f4 z1, spx_f4 x2,
                         spx_f4 y2, spx_f4 z2)
{
    spx_f4 len2 = spx_f4_add(spx_f4_add(spx_f4_mul(x, x), spx_f4_mul(y, y)), spx_f4_mul(z, z));
    spx_f4 dots = spx_f4_add(spx_f4_add(spx_f4_mul(x, x1), spx_f4_mul(y, y1)), spx_f4_mul(z, z1));
    spx_f4 dev = spx_f4_max(spx_f4_abs(spx_f4_sub(len2, spx_f4_splat(1.0f))), spx_f4_abs(dots));
    spx_f4 cx = spx_f4_sub(spx_f4_mul(y, z1), spx_f4_mul(z, y1));
    spx_f4 cy = spx_f4_sub(spx_f4_mul(z, x1), spx_f4_mul(x, z1));
    spx_f4 cz = spx_f4_sub(spx_f4_mul(x, y1), spx_f4_mul(y, x1));
    spx_f4 det = spx_f4_add(spx_f4_add(spx_f4_mul(cx, x2), spx_f4_mul(cy, y2)), spx_f4_mul(cz, z2));
    spx_f4 big = spx_f4_splat(SPX_MAX_COORDINATE), zero = spx_f4_splat(0.0f);
    spx_f4 c = spx_f4_load(&box->center.x), h = spx_f4_load(&box->half_extents.x); /* lane 3: neighbours */
    return spx_f4_mask(spx_f4_le(dev, spx_f4_splat(SPX_ROTATION_TOLERANCE))) & spx_f4_mask(spx_f4_gt(det, zero)) &
           spx_f4_mask(spx_f4_le(spx_f4_abs(c), big)) & spx_f4_mask(spx_f4_le(h, big)) &
           spx_f4_mask(spx_f4_gt(h, zero));
}

/* Candidate points of the overlap, 4 per group (one lane each), and which lanes are real. */
typedef struct candidates {
    float x[6][4], y[6][4], z[6][4];
    int mask[6];
} candidates;

/* Incident edges (c_e to c_e+1, lanes e) crossing the side plane sign * coordinate = limit:
   crossing strictly, the other coordinate inside the face (strictly when `strict`, so a crossing
   at a corner of the face is counted once). */
static inline int crossings(spx_f4 c, spx_f4 cn, spx_f4 o, spx_f4 on, spx_f4 z, spx_f4 zn, float sign, float limit,
                            float other, int strict, float* out_c, float* out_o, float* out_z)
{
    spx_f4 sg = spx_f4_splat(sign), lim = spx_f4_splat(limit), zero = spx_f4_splat(0.0f);
    spx_f4 d0 = spx_f4_sub(spx_f4_mul(sg, c), lim), d1 = spx_f4_sub(spx_f4_mul(sg, cn), lim);
    int cross = (spx_f4_mask(spx_f4_lt(d0, zero)) & spx_f4_mask(spx_f4_gt(d1, zero))) |
                (spx_f4_mask(spx_f4_gt(d0, zero)) & spx_f4_mask(spx_f4_lt(d1, zero)));
    if (!cross) return 0;
    spx_f4 s = spx_f4_div(d0, spx_f4_sub(d0, d1));
    spx_f4 oi = spx_f4_add(o, spx_f4_mul(s, spx_f4_sub(on, o)));
    spx_f4 zi = spx_f4_add(z, spx_f4_mul(s, spx_f4_sub(zn, z)));
    spx_f4 ot = spx_f4_splat(other);
    /* Strictly: a crossing at a corner of the face comes from the other planes, unless the edge runs
       along the other side itself (both ends on it), which crosses no other plane. */
    int inside = strict ? spx_f4_mask(spx_f4_lt(spx_f4_abs(oi), ot)) |
                              (spx_f4_mask(spx_f4_le(spx_f4_abs(oi), ot)) & spx_f4_mask(spx_f4_eq(o, on)))
                        : spx_f4_mask(spx_f4_le(spx_f4_abs(oi), ot));
    spx_f4_store(out_c, spx_f4_splat(sign * limit));
    spx_f4_store(out_o, oi);
    spx_f4_store(out_z, zi);
    return cross & inside;
}

/* Face contact, in the reference box's frame. ref, inc: the reference and incident boxes; inc_cv:
   the incident centre in the reference frame (lanes 0..2); k: the reference axis. Writes the
   manifold: up to 4 points halfway between the incident surface and the reference face, world
   frame, ids with ref_bit; the normal is left to the caller, which gets the side s of the face. */
MANIFOLD_NOINLINE static void face_points(const spx_obb* ref, const spx_obb* inc, spx_f4 inc_cv, int k, float margin,
                                          uint32_t ref_bit, spx_manifold* out, float* out_s)
{
    const int k1 = k == 2 ? 0 : k + 1, k2 = k == 0 ? 2 : k - 1;
    const float h[3] = { ref->half_extents.x, ref->half_extents.y, ref->half_extents.z };
    const float inc_h[3] = { inc->half_extents.x, inc->half_extents.y, inc->half_extents.z };
    float inc_c[4];
    spx_f4_store(inc_c, inc_cv);
    const float s = inc_c[k] >= 0.0f ? 1.0f : -1.0f;
    *out_s = s;

    /* The incident axes on the reference axes, one vector each (lane r: ref_r . inc_c), summed
       x + y + z as R = A^T B is, so these are the very entries of R (or of R^T for ref = B). */
    spx_f4 refx, refy, refz, ix, iy, iz;
    lanes_columns_t(&ref->rotation.col[0].x, &refx, &refy, &refz);
    lanes_columns_t(&inc->rotation.col[0].x, &ix, &iy, &iz);
    const spx_f4 I[3] = {
        spx_f4_add(spx_f4_add(spx_f4_mul(refx, SPX_F4_LANE(ix, 0)), spx_f4_mul(refy, SPX_F4_LANE(iy, 0))),
                   spx_f4_mul(refz, SPX_F4_LANE(iz, 0))),
        spx_f4_add(spx_f4_add(spx_f4_mul(refx, SPX_F4_LANE(ix, 1)), spx_f4_mul(refy, SPX_F4_LANE(iy, 1))),
                   spx_f4_mul(refz, SPX_F4_LANE(iz, 1))),
        spx_f4_add(spx_f4_add(spx_f4_mul(refx, SPX_F4_LANE(ix, 2)), spx_f4_mul(refy, SPX_F4_LANE(iy, 2))),
                   spx_f4_mul(refz, SPX_F4_LANE(iz, 2)))
    };
    float Ik[3][4];
    spx_f4_store(Ik[0], I[0]);
    spx_f4_store(Ik[1], I[1]);
    spx_f4_store(Ik[2], I[2]);

    /* Incident face: the one whose normal is most anti-parallel to the reference normal s e_k. */
    int f = 0;
    float fa = fabsf(Ik[0][k]);
    if (fabsf(Ik[1][k]) > fa) {
        f = 1;
        fa = fabsf(Ik[1][k]);
    }
    if (fabsf(Ik[2][k]) > fa) f = 2;
    const float sigma = s * Ik[f][k] > 0.0f ? -1.0f : 1.0f;
    const int f1 = f == 2 ? 0 : f + 1, f2 = f == 0 ? 2 : f - 1;
    const uint32_t face_bits = (uint32_t)(2 * k + (s < 0.0f)) | (uint32_t)(2 * f + (sigma < 0.0f)) << 4 | ref_bit;

    /* Face centre and half-edge vectors u, v on the reference axes; the corners c0..c3 are
       fc - u - v, fc + u - v, fc + u + v, fc - u + v, each sum grouped as fc + (+-u +- v) and
       with -u - v taken as (-u) - v, -u + v as v - u, which round (and sign zeros) exactly as
       the products by +-1 would. Transposed, lanes become corners: row r is coordinate r. */
    const spx_f4 fcv = spx_f4_add(inc_cv, spx_f4_mul(spx_f4_splat(sigma * inc_h[f]), I[f]));
    const spx_f4 uv = spx_f4_mul(spx_f4_splat(inc_h[f1]), I[f1]), vv = spx_f4_mul(spx_f4_splat(inc_h[f2]), I[f2]);
    spx_f4 T[4] = { spx_f4_add(fcv, spx_f4_sub(spx_f4_neg(uv), vv)), spx_f4_add(fcv, spx_f4_sub(uv, vv)),
                    spx_f4_add(fcv, spx_f4_add(uv, vv)), spx_f4_add(fcv, spx_f4_sub(vv, uv)) };
    spx_f4_transpose(&T[0], &T[1], &T[2], &T[3]);
    const spx_f4 X = T[k1], Y = T[k2], Z = T[k];
    const float hx = h[k1], hy = h[k2];
    const spx_f4 hxv = spx_f4_splat(hx), hyv = spx_f4_splat(hy);

    /* Incident corners inside the reference face (boundary included), and their gaps above it. */
    const int inside = spx_f4_mask(spx_f4_le(spx_f4_abs(X), hxv)) & spx_f4_mask(spx_f4_le(spx_f4_abs(Y), hyv));
    const spx_f4 sv4 = spx_f4_splat(s), hk = spx_f4_splat(h[k]), mg = spx_f4_splat(margin), zero = spx_f4_splat(0.0f);
    const spx_f4 zgap = spx_f4_sub(spx_f4_mul(sv4, Z), hk);
    spx_f4 PX, PY, PZ, G;
    uint8_t code[28];
    int lanes; /* which of the four slots are points */
    if (inside == 15) {
        /* All four corners inside: no reference corner is strictly inside the quad and no edge
           between two inside corners crosses a side plane strictly, so the overlap is the
           incident face itself, and the points are the corners within the margin, in lane order
           (the common resting case). They stay in their lanes: no gathering. */
        PX = X;
        PY = Y;
        PZ = Z;
        G = zgap;
        for (int i = 0; i < 4; ++i) code[i] = (uint8_t)i;
        lanes = spx_f4_mask(spx_f4_le(zgap, mg));
    } else {
        candidates cd;
        /* Group 0: the inside corners. */
        cd.mask[0] = inside;
        spx_f4_store(cd.x[0], X);
        spx_f4_store(cd.y[0], Y);
        spx_f4_store(cd.z[0], Z);
        {
            const spx_f4 Xn = lanes_next(X), Yn = lanes_next(Y), Zn = lanes_next(Z);
            float fcs[4], us[4], vs[4];
            spx_f4_store(fcs, fcv);
            spx_f4_store(us, uv);
            spx_f4_store(vs, vv);
            const float fc[3] = { fcs[k1], fcs[k2], fcs[k] }, nf[3] = { Ik[f][k1], Ik[f][k2], Ik[f][k] };
            const float u[2] = { us[k1], us[k2] }, v[2] = { vs[k1], vs[k2] };
            /* Group 1: reference corners strictly inside the incident quad, lifted onto its
               plane. The quad c0..c3 turns counter-clockwise when u x v > 0. */
            cd.mask[1] = 0;
            const float turn = u[0] * v[1] - u[1] * v[0] >= 0.0f ? 1.0f : -1.0f;
            const spx_f4 ex = spx_f4_mul(spx_f4_splat(turn), spx_f4_sub(Xn, X)),
                         ey = spx_f4_mul(spx_f4_splat(turn), spx_f4_sub(Yn, Y));
            const float rx[4] = { -hx, hx, -hx, hx }, ry[4] = { -hy, -hy, hy, hy };
            int m = 0;
            for (int c = 0; c < 4; ++c) {
                spx_f4 side = spx_f4_sub(spx_f4_mul(ex, spx_f4_sub(spx_f4_splat(ry[c]), Y)),
                                         spx_f4_mul(ey, spx_f4_sub(spx_f4_splat(rx[c]), X)));
                m |= (spx_f4_mask(spx_f4_gt(side, zero)) == 15) << c;
            }
            if (m) {
                const spx_f4 RX = spx_f4_load(rx), RY = spx_f4_load(ry);
                const spx_f4 RZ = spx_f4_sub(
                    spx_f4_splat(fc[2]),
                    spx_f4_div(spx_f4_add(spx_f4_mul(spx_f4_splat(nf[0]), spx_f4_sub(RX, spx_f4_splat(fc[0]))),
                                          spx_f4_mul(spx_f4_splat(nf[1]), spx_f4_sub(RY, spx_f4_splat(fc[1])))),
                               spx_f4_splat(nf[2])));
                spx_f4_store(cd.x[1], RX);
                spx_f4_store(cd.y[1], RY);
                spx_f4_store(cd.z[1], RZ);
                cd.mask[1] = m;
            }
            /* Groups 2..5: incident edges crossing side planes +u', -u' (other coordinate
               strictly inside, so a crossing exactly at a face corner comes from the v' planes
               only), +v', -v'. */
            cd.mask[2] = crossings(X, Xn, Y, Yn, Z, Zn, 1.0f, hx, hy, 1, cd.x[2], cd.y[2], cd.z[2]);
            cd.mask[3] = crossings(X, Xn, Y, Yn, Z, Zn, -1.0f, hx, hy, 1, cd.x[3], cd.y[3], cd.z[3]);
            cd.mask[4] = crossings(Y, Yn, X, Xn, Z, Zn, 1.0f, hy, hx, 0, cd.y[4], cd.x[4], cd.z[4]);
            cd.mask[5] = crossings(Y, Yn, X, Xn, Z, Zn, -1.0f, hy, hx, 0, cd.y[5], cd.x[5], cd.z[5]);
        }

        /* Keep points at most `margin` above the reference face, visiting only the lanes kept.
           The first four slots start defined because the output below runs on four lanes
           whatever n. */
        float px[28], py[28], pz[28], gap[28];
        static const uint8_t base[6] = { 0, 4, 8, 9, 10, 11 };
        static const uint8_t step[6] = { 1, 1, 4, 4, 4, 4 };
        spx_f4_store(px, zero);
        spx_f4_store(py, zero);
        spx_f4_store(pz, zero);
        spx_f4_store(gap, zero);
        int n = 0;
        for (int g = 0; g < 6; ++g) {
            if (!cd.mask[g]) continue;
            spx_f4 gv = g == 0 ? zgap : spx_f4_sub(spx_f4_mul(sv4, spx_f4_load(cd.z[g])), hk);
            int m = cd.mask[g] & spx_f4_mask(spx_f4_le(gv, mg));
            if (!m) continue;
            float gs[4];
            spx_f4_store(gs, gv);
            do {
                const int l = first_lane[m];
                px[n] = cd.x[g][l];
                py[n] = cd.y[g][l];
                pz[n] = cd.z[g][l];
                gap[n] = gs[l];
                code[n] = (uint8_t)(base[g] + step[g] * l);
                ++n;
                m &= m - 1;
            } while (m);
        }
        if (n > SPX_MAX_MANIFOLD_POINTS) {
            int keep[4];
            spx_reduce_to_four(px, py, gap, n, keep);
            /* keep[] is increasing, so moving slot keep[i] down to slot i never overwrites a
               slot still to be read. */
            for (int i = 0; i < 4; ++i) {
                const int q = keep[i];
                px[i] = px[q];
                py[i] = py[q];
                pz[i] = pz[q];
                gap[i] = gap[q];
                code[i] = code[q];
            }
            n = SPX_MAX_MANIFOLD_POINTS;
        }
        lanes = (1 << n) - 1;
        PX = spx_f4_load(px);
        PY = spx_f4_load(py);
        PZ = spx_f4_load(pz);
        G = spx_f4_load(gap);
    }

    /* The four slots as lanes: halfway down to the reference face, then to the world frame with
       the same sums in the same order as a point at a time, origin + c0 p0 + c1 p1 + c2 p2. */
    spx_f4 P[3];
    P[k1] = PX;
    P[k2] = PY;
    P[k] = spx_f4_sub(PZ, spx_f4_mul(spx_f4_splat(0.5f * s), G));
    const spx_f4 cv = spx_f4_load(&ref->center.x);
    const spx_f4 W[3] = { spx_f4_add(spx_f4_add(spx_f4_add(SPX_F4_LANE(cv, 0), spx_f4_mul(SPX_F4_LANE(refx, 0), P[0])),
                                                spx_f4_mul(SPX_F4_LANE(refx, 1), P[1])),
                                     spx_f4_mul(SPX_F4_LANE(refx, 2), P[2])),
                          spx_f4_add(spx_f4_add(spx_f4_add(SPX_F4_LANE(cv, 1), spx_f4_mul(SPX_F4_LANE(refy, 0), P[0])),
                                                spx_f4_mul(SPX_F4_LANE(refy, 1), P[1])),
                                     spx_f4_mul(SPX_F4_LANE(refy, 2), P[2])),
                          spx_f4_add(spx_f4_add(spx_f4_add(SPX_F4_LANE(cv, 2), spx_f4_mul(SPX_F4_LANE(refz, 0), P[0])),
                                                spx_f4_mul(SPX_F4_LANE(refz, 1), P[1])),
                                     spx_f4_mul(SPX_F4_LANE(refz, 2), P[2])) };
    out->point_count = lanes_store_points(out->points, lanes, W[0], W[1], W[2], spx_f4_neg(G), face_bits, code);
}

static inline spx_vec3 to_world(spx_vec3 origin, const spx_mat3* rot, const float p[3])
{
    const spx_vec3* c = rot->col;
    spx_vec3 r = { origin.x + c[0].x * p[0] + c[1].x * p[1] + c[2].x * p[2],
                   origin.y + c[0].y * p[0] + c[1].y * p[1] + c[2].y * p[2],
                   origin.z + c[0].z * p[0] + c[1].z * p[1] + c[2].z * p[2] };
    return r;
}

/* The manifold; `check`: validate the boxes first (a constant in each caller, so the trusted entry
   carries no validation code). */
static inline __attribute__((always_inline)) spx_result manifold_obb_obb(const spx_obb* a, const spx_obb* b,
                                                                         float margin, spx_manifold* out, bool check)
{
    /* Axes as lanes: ax = (a0.x, a1.x, a2.x, 0), ...; ax1 = rot1(ax) = (a1.x, a2.x, a0.x, 0). */
    spx_f4 ax, ay, az, bx, by, bz;
    lanes_columns_t(&a->rotation.col[0].x, &ax, &ay, &az);
    lanes_columns_t(&b->rotation.col[0].x, &bx, &by, &bz);
    const spx_f4 ax1 = spx_f4_rot1(ax), ay1 = spx_f4_rot1(ay), az1 = spx_f4_rot1(az);
    const spx_f4 ax2 = spx_f4_rot2(ax), ay2 = spx_f4_rot2(ay), az2 = spx_f4_rot2(az);
    if (check) {
        spx_result r = spx_check_margin(margin);
        if ((box_ok(a, ax, ay, az, ax1, ay1, az1, ax2, ay2, az2) &
             box_ok(b, bx, by, bz, spx_f4_rot1(bx), spx_f4_rot1(by), spx_f4_rot1(bz), spx_f4_rot2(bx), spx_f4_rot2(by),
                    spx_f4_rot2(bz)) &
             7) != 7)
            r = spx_first_error(spx_first_error(spx_obb_validate(a), spx_obb_validate(b)), r);
        if (r != SPX_OK) return r;
    }

    /* Everything in A's frame: R = A^T B, R[i][j] = a_i . b_j (column j is B's axis j), kept as
       three diagonals D_m (lane j: R[(j+m)%3][j]) because every SAT term then lines up lane by
       lane with a rotation of some other vector. t = B's centre, tb = t along B's axes. */
    const spx_f4 D[3] = { spx_f4_add(spx_f4_add(spx_f4_mul(ax, bx), spx_f4_mul(ay, by)), spx_f4_mul(az, bz)),
                          spx_f4_add(spx_f4_add(spx_f4_mul(ax1, bx), spx_f4_mul(ay1, by)), spx_f4_mul(az1, bz)),
                          spx_f4_add(spx_f4_add(spx_f4_mul(ax2, bx), spx_f4_mul(ay2, by)), spx_f4_mul(az2, bz)) };
    const spx_f4 Q[3] = { spx_f4_abs(D[0]), spx_f4_abs(D[1]), spx_f4_abs(D[2]) };
    const spx_f4 Q1[3] = { spx_f4_rot1(Q[0]), spx_f4_rot1(Q[1]), spx_f4_rot1(Q[2]) };
    const spx_f4 Q2[3] = { spx_f4_rot2(Q[0]), spx_f4_rot2(Q[1]), spx_f4_rot2(Q[2]) };
    const spx_f4 dv = spx_f4_sub(spx_f4_load(&b->center.x), spx_f4_load(&a->center.x));
    const spx_f4 tv = spx_f4_add(spx_f4_add(spx_f4_mul(SPX_F4_LANE(dv, 0), ax), spx_f4_mul(SPX_F4_LANE(dv, 1), ay)),
                                 spx_f4_mul(SPX_F4_LANE(dv, 2), az));
    const spx_f4 T[3] = { tv, spx_f4_rot1(tv), spx_f4_rot2(tv) };
    /* Lane 3 of the half extents is FLT_MAX so that padding lanes of the face separations read
       -FLT_MAX and never win; every other padding lane is 0. */
    const spx_f4 hav = lanes_pad(spx_f4_load(&a->half_extents.x), FLT_MAX),
                 hbv = lanes_pad(spx_f4_load(&b->half_extents.x), FLT_MAX);
    const spx_f4 HA[3] = { hav, spx_f4_rot1(hav), spx_f4_rot2(hav) };
    const spx_f4 hb1 = spx_f4_rot1(hbv), hb2 = spx_f4_rot2(hbv);

    /* Face axes of A (lane i: sum over j of hb_j |R[i][j]|) and of B (lane j). */
    /* Most separated pairs are separated along a face axis (these 6 cost no division or square
       root): leave before the 9 edge axes, and before B's faces when A's separate. The answer is
       the same as after all 15, as the margin test below is only reached when no axis separates. */
    const spx_f4 mv = spx_f4_splat(margin);
    const spx_f4 sep_av = spx_f4_sub(
        spx_f4_abs(tv),
        spx_f4_add(hav, spx_f4_add(spx_f4_add(spx_f4_mul(hbv, Q[0]), spx_f4_mul(hb2, Q2[1])), spx_f4_mul(hb1, Q1[2]))));
    if (spx_f4_mask(spx_f4_gt(sep_av, mv))) {
        out->normal = spx_v3(0.0f, 0.0f, 0.0f);
        out->point_count = 0;
        return SPX_OK;
    }
    const spx_f4 tbv = spx_f4_add(spx_f4_add(spx_f4_mul(T[0], D[0]), spx_f4_mul(T[1], D[1])), spx_f4_mul(T[2], D[2]));
    const spx_f4 sep_bv = spx_f4_sub(
        spx_f4_abs(tbv), spx_f4_add(hbv, spx_f4_add(spx_f4_add(spx_f4_mul(HA[0], Q[0]), spx_f4_mul(HA[1], Q[1])),
                                                    spx_f4_mul(HA[2], Q[2]))));
    if (spx_f4_mask(spx_f4_gt(sep_bv, mv))) {
        out->normal = spx_v3(0.0f, 0.0f, 0.0f);
        out->point_count = 0;
        return SPX_OK;
    }

    /* Edge axes L = a_i x b_j on diagonal m (i = j + m): |L|^2 = sin^2 of their angle. B's axes
       are projected on L itself, by the minors R[i2][k] R[i1][j] - R[i1][k] R[i2][j] (as the exact
       query does): the identity |L . b_k| = |R[i][k']| holds only as far as B is orthonormal
       (1e-5), an error that the division by |L| (down to 1e-3) makes up to 1e-3 of B's size, enough
       to part a long plate from a box it overlaps. */
    const spx_f4 par = spx_f4_splat(MANIFOLD_PARALLEL_SIN2), skip = spx_f4_splat(-FLT_MAX);
    spx_f4 sep_ev[3];
    for (int m = 0; m < 3; ++m) {
        const int m1 = m == 2 ? 0 : m + 1, m2 = m == 0 ? 2 : m - 1;
        spx_f4 len2 = spx_f4_add(spx_f4_mul(D[m1], D[m1]), spx_f4_mul(D[m2], D[m2]));
        spx_f4 tn = spx_f4_sub(spx_f4_mul(T[m2], D[m1]), spx_f4_mul(T[m1], D[m2]));
        spx_f4 lb1 = spx_f4_sub(spx_f4_mul(spx_f4_rot1(D[m1]), D[m1]), spx_f4_mul(spx_f4_rot1(D[m]), D[m2]));
        spx_f4 lb2 = spx_f4_sub(spx_f4_mul(spx_f4_rot2(D[m]), D[m1]), spx_f4_mul(spx_f4_rot2(D[m2]), D[m2]));
        spx_f4 rad = spx_f4_add(spx_f4_add(spx_f4_mul(HA[m1], Q[m2]), spx_f4_mul(HA[m2], Q[m1])),
                                spx_f4_add(spx_f4_mul(hb1, spx_f4_abs(lb1)), spx_f4_mul(hb2, spx_f4_abs(lb2))));
        spx_f4 sep = spx_f4_div(spx_f4_sub(spx_f4_abs(tn), rad), spx_f4_sqrt(len2));
        sep_ev[m] = spx_f4_pick(spx_f4_ge(len2, par), sep, skip);
    }

    if (spx_f4_mask(spx_f4_gt(sep_ev[0], mv)) | spx_f4_mask(spx_f4_gt(sep_ev[1], mv)) |
        spx_f4_mask(spx_f4_gt(sep_ev[2], mv))) {
        out->normal = spx_v3(0.0f, 0.0f, 0.0f);
        out->point_count = 0;
        return SPX_OK;
    }
    const spx_f4 max_a = lanes_hmax(sep_av), max_b = lanes_hmax(sep_bv);
    const float sep_a = spx_f4_first(max_a), sep_b = spx_f4_first(max_b);
    const spx_f4 max_e = lanes_hmax(spx_f4_max(spx_f4_max(sep_ev[0], sep_ev[1]), sep_ev[2]));
    const float sep_e = spx_f4_first(max_e);

    const float ha[3] = { a->half_extents.x, a->half_extents.y, a->half_extents.z };
    const float hb[3] = { b->half_extents.x, b->half_extents.y, b->half_extents.z };
    const float slack = MANIFOLD_ABS_TOL * (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]);
    const bool ref_is_b = sep_b > sep_a + MANIFOLD_REL_TOL * fabsf(sep_a) + slack;
    const float sep_f = ref_is_b ? sep_b : sep_a;

    const float edge_slack = MANIFOLD_EDGE_ABS_TOL / 6.0f * (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]);
    /* An edge axis near a face normal hands over to that face (below), not to the best face of
       either box: that one can lie far from the contact's direction. */
    int near_face = -1;
    bool near_face_of_b = false;
    bool edge_fallback = false; /* the face clipped to nothing: the edge pair answers (below) */
edge_contact:
    if (edge_fallback || sep_e > sep_f + MANIFOLD_REL_TOL * fabsf(sep_f) + slack + edge_slack) {
        /* Edge contact, in A's frame: n = a_i x b_j, oriented from A to B. */
        float Dm[3][4], t[4];
        spx_f4_store(Dm[0], D[0]);
        spx_f4_store(Dm[1], D[1]);
        spx_f4_store(Dm[2], D[2]);
        spx_f4_store(t, tv);
        /* R's columns (B's axes in A's frame) as plain arrays: indexing the diagonals with the
           runtime i and j cost a modulo a read. */
        float col[3][3];
        for (int c = 0; c < 3; ++c)
            for (int m = 0; m < 3; ++m) col[c][(c + m) % 3] = Dm[m][c];
#define RIJ(i, j) col[(j)][(i)]
        int i = 0, j = 0;
        for (int m = 2; m >= 0; --m) {
            int mask = spx_f4_mask(spx_f4_eq(sep_ev[m], max_e)) & 7;
            if (mask) {
                j = first_lane[mask];
                i = (j + m) % 3;
            }
        }
        const int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        const int j1 = j == 2 ? 0 : j + 1, j2 = j == 0 ? 2 : j - 1;
        const float len_e = sqrtf(RIJ(i1, j) * RIJ(i1, j) + RIJ(i2, j) * RIJ(i2, j));
        float n[3];
        n[i] = 0.0f;
        n[i1] = -RIJ(i2, j) / len_e;
        n[i2] = RIJ(i1, j) / len_e;
        if (n[i1] * t[i1] + n[i2] * t[i2] < 0.0f) {
            n[i1] = -n[i1];
            n[i2] = -n[i2];
        }
        const float nbj1 = n[0] * RIJ(0, j1) + n[1] * RIJ(1, j1) + n[2] * RIJ(2, j1);
        const float nbj2 = n[0] * RIJ(0, j2) + n[1] * RIJ(1, j2) + n[2] * RIJ(2, j2);
        if (fabsf(n[i1]) > MANIFOLD_EDGE_FACE_COS) near_face = i1;
        else if (fabsf(n[i2]) > MANIFOLD_EDGE_FACE_COS) near_face = i2;
        else if (fabsf(nbj1) > MANIFOLD_EDGE_FACE_COS) near_face = j1, near_face_of_b = true;
        else if (fabsf(nbj2) > MANIFOLD_EDGE_FACE_COS) near_face = j2, near_face_of_b = true;
        if (near_face >= 0 && !edge_fallback) goto face_contact;
        /* A's edge: the one of the four along a_i that is farthest along n. */
        float pa[3];
        pa[i] = 0.0f;
        pa[i1] = n[i1] > 0.0f ? ha[i1] : -ha[i1];
        pa[i2] = n[i2] > 0.0f ? ha[i2] : -ha[i2];
        /* B's edge: the one along b_j that is farthest along -n. */
        float sb1 = nbj1 < 0.0f ? hb[j1] : -hb[j1], sb2 = nbj2 < 0.0f ? hb[j2] : -hb[j2];
        float pb[3], w[3], bj[3];
        for (int r = 0; r < 3; ++r) {
            pb[r] = t[r] + sb1 * RIJ(r, j1) + sb2 * RIJ(r, j2);
            w[r] = pa[r] - pb[r];
            bj[r] = RIJ(r, j);
        }
        /* Closest points pa + u a_i and pb + v b_j of the two lines (Ericson 5.1.8), clamped to
           the edges; the denominator is sin^2 of their angle, taken as |a_i x b_j|^2 as the axis
           test took it (above MANIFOLD_PARALLEL_SIN2): 1 - c^2 rounds to 0 for a b_j a rounding
           longer than 1 lying within 1e-3 rad of a_i. */
        float c = bj[i], d1 = w[i], d2 = w[0] * bj[0] + w[1] * bj[1] + w[2] * bj[2];
        float den = len_e * len_e;
        float u = (c * d2 - d1) / den, v = (d2 - c * d1) / den;
        u = u < -ha[i] ? -ha[i] : u > ha[i] ? ha[i] : u;
        v = v < -hb[j] ? -hb[j] : v > hb[j] ? hb[j] : v;
        float mid[3];
        for (int r = 0; r < 3; ++r) mid[r] = 0.5f * (pa[r] + pb[r] + v * bj[r]);
        mid[i] += 0.5f * u;
        out->normal = to_world(spx_v3(0.0f, 0.0f, 0.0f), &a->rotation, n);
        out->point_count = 1;
        out->points[0].point = to_world(a->center, &a->rotation, mid);
        out->points[0].depth = -sep_e;
        out->points[0].id = MANIFOLD_EDGE_BIT | (uint32_t)i | (uint32_t)(pa[i1] > 0.0f) << 2 |
                            (uint32_t)(pa[i2] > 0.0f) << 3 | (uint32_t)j << 4 | (uint32_t)(sb1 > 0.0f) << 6 |
                            (uint32_t)(sb2 > 0.0f) << 7;
        return SPX_OK;
#undef RIJ
    }

face_contact:;
    /* Face contact: the incident box's centre in the reference box's frame. */
    const bool use_b = near_face >= 0 ? near_face_of_b : ref_is_b;
    const spx_obb* ref = use_b ? b : a;
    const int k = near_face >= 0 ? near_face
                  : ref_is_b     ? first_lane[spx_f4_mask(spx_f4_eq(sep_bv, max_b)) & 7]
                                 : first_lane[spx_f4_mask(spx_f4_eq(sep_av, max_a)) & 7];
    float s;
    face_points(ref, use_b ? a : b, use_b ? spx_f4_neg(tbv) : tv, k, margin, use_b ? 8u : 0u, out, &s);
    /* No incident point over the face although an edge axis shows contact within the margin: the
       boxes meet edge to edge beside the face (the edge tolerance grows with the boxes' size, so a
       long box can prefer its face), and the edges' closest points are the contact. */
    if (out->point_count == 0 && !edge_fallback && sep_e > -FLT_MAX && sep_e <= margin) {
        edge_fallback = true;
        goto edge_contact;
    }
    /* The reference normal s * ref_k points towards the incident box; A to B flips it for B. */
    const float ns = use_b ? -s : s;
    const spx_vec3 axis = ref->rotation.col[k];
    out->normal = spx_v3(ns * axis.x, ns * axis.y, ns * axis.z);
    return SPX_OK;
}

SPX_API spx_result spx_manifold_obb_obb(const spx_obb* a, const spx_obb* b, float margin, spx_manifold* out)
{
    if (!a || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
    return manifold_obb_obb(a, b, margin, out, true);
}

spx_result spx_manifold_obb_obb_trusted(const spx_obb* a, const spx_obb* b, float margin, spx_manifold* out)
{
    return manifold_obb_obb(a, b, margin, out, false);
}
