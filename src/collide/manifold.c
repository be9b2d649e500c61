/* Box-box contact manifold: the least-penetration SAT axis picks face clipping or an edge-edge point,
 * in float lanes. Rules and ids: docs/collision.md#box-box-contact-manifold, docs/collision.md#feature-ids. */
#include <sepax/collide.h>
#include "geometry/validate.h"
#include "manifold_reduce.h"
#include "manifold_box.h"
#include "math/simd.h"
#include <float.h>
#include <math.h>
#include <stddef.h>

/* Edge pairs with sin^2 < 1e-6 have a cross product of rounding; the face axes cover them. */
#define MANIFOLD_PARALLEL_SIN2 1e-6f
/* Hysteresis against flicker: another axis must beat the preferred one by 2% of its depth plus a
   size-relative slack (which also absorbs an edge axis equal to a face axis). */
#define MANIFOLD_REL_TOL 0.02f
#define MANIFOLD_ABS_TOL 1e-5f
/* An edge axis must beat the faces by 1e-3 of the size more, or a tilted resting box rocks on one point. */
#define MANIFOLD_EDGE_ABS_TOL 1e-3f
/* An edge axis within ~8 degrees of a face normal is that face's contact seen edge-on: the face answers. */
#define MANIFOLD_EDGE_FACE_COS 0.99f

#define MANIFOLD_EDGE_BIT (1u << 16)

/* Kept out of line: inlined, their registers and frame weigh on the separated pairs. */
#if defined(__GNUC__)
#define MANIFOLD_NOINLINE __attribute__((noinline))
#else
#define MANIFOLD_NOINLINE
#endif

/* SAT rows of R = A^T B in float lanes: lane j of row i is a_i . b_j; lane 3 is padding. */
/* the next corner of a quad */
static inline spx_f4 lanes_next(spx_f4 a) { return SPX_F4_SWIZZLE(a, 1, 2, 3, 0); }
/* Lanes 0..2 of a, lane 3 replaced by w. */
static inline spx_f4 lanes_pad(spx_f4 a, float w)
{
    return spx_f4_pick(spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0)), a, spx_f4_splat(w));
}
/* A rotation's 9 floats as x = (c0.x, c1.x, c2.x, 0), y, z. */
static inline void lanes_columns_t(const float* m, spx_f4* x, spx_f4* y, spx_f4* z)
{
    const spx_f4 lo = spx_i4_as_f4(spx_i4_set(-1, -1, -1, 0));
    const spx_f4 c0 = spx_f4_load(m), c1 = spx_f4_load(m + 3), c2 = spx_f4_load(m + 5); /* c2: (c1.z, c2.xyz) */
    const spx_f4 xy = spx_f4_unpacklo(c0, c1), zz = spx_f4_unpackhi(c0, c1);            /* (x0 x1 y0 y1), (z0 z1 . .) */
    *x = spx_f4_and(lo, SPX_F4_SHUFFLE(xy, c2, 0, 1, 1, 1));
    *y = spx_f4_and(lo, SPX_F4_SHUFFLE(xy, c2, 2, 3, 2, 2));
    *z = spx_f4_and(lo, SPX_F4_SHUFFLE(zz, c2, 0, 1, 3, 3));
}
static inline spx_f4 lanes_hmax(spx_f4 a) /* every lane: the largest */
{
    a = spx_f4_max(a, SPX_F4_SWIZZLE(a, 1, 0, 3, 2));
    return spx_f4_max(a, SPX_F4_SWIZZLE(a, 2, 3, 0, 1));
}

/* Lowest set bit of a 4-bit mask (0 for empty: NaN only). Masks naming an axis are cut to lanes
   0..2 first: index 3 would read past every 3-element array. */
static const int8_t first_lane[16] = { 0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0 };

/* One point per lane set, in lane order, id bits | code[l] << 8; returns how many. Position and
   depth go out in one 16-byte store. */
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

/* spx_obb_validate's tests in float, branch-free, same sums and order: lanes 0..2 all set, it passes
   there too; a failure goes there for its code. Handedness lane i: a_{i+2} . (a_i x a_{i+1}). */
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

typedef struct candidates {
    float x[6][4], y[6][4], z[6][4];
    int mask[6];
} candidates;

/* Incident edges (lane e: c_e to c_e+1) crossing side plane sign * coordinate = limit, the other
   coordinate inside (strictly when `strict`, so a face-corner crossing counts once). */
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
    /* Strict, unless the edge runs along the other side itself (it crosses no other plane). */
    int inside = strict ? spx_f4_mask(spx_f4_lt(spx_f4_abs(oi), ot)) |
                              (spx_f4_mask(spx_f4_le(spx_f4_abs(oi), ot)) & spx_f4_mask(spx_f4_eq(o, on)))
                        : spx_f4_mask(spx_f4_le(spx_f4_abs(oi), ot));
    spx_f4_store(out_c, spx_f4_splat(sign * limit));
    spx_f4_store(out_o, oi);
    spx_f4_store(out_z, zi);
    return cross & inside;
}

/* Face contact in the reference frame (k: its axis): up to 4 points halfway between the surfaces,
   world frame, ids with ref_bit; the caller sets the normal from the side *out_s. The face is
   clipped with its sides moved out by `grow` (m; 0 but for the world's sliding pairs). */
MANIFOLD_NOINLINE static void face_points(const spx_obb* ref, const spx_obb* inc, spx_f4 inc_cv, int k, float margin,
                                          float grow, uint32_t ref_bit, spx_manifold* out, float* out_s)
{
    const int k1 = k == 2 ? 0 : k + 1, k2 = k == 0 ? 2 : k - 1;
    const float h[3] = { ref->half_extents.x, ref->half_extents.y, ref->half_extents.z };
    const float inc_h[3] = { inc->half_extents.x, inc->half_extents.y, inc->half_extents.z };
    float inc_c[4];
    spx_f4_store(inc_c, inc_cv);
    const float s = inc_c[k] >= 0.0f ? 1.0f : -1.0f;
    *out_s = s;

    /* Summed x + y + z as R is: the very entries of R (or R^T). */
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

    /* Incident face: the most anti-parallel to s e_k. */
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

    /* Corners fc + (+-u +- v), with -u - v as (-u) - v and -u + v as v - u: rounded and signed exactly
       as products by +-1. Transposed: lane = corner. */
    const spx_f4 fcv = spx_f4_add(inc_cv, spx_f4_mul(spx_f4_splat(sigma * inc_h[f]), I[f]));
    const spx_f4 uv = spx_f4_mul(spx_f4_splat(inc_h[f1]), I[f1]), vv = spx_f4_mul(spx_f4_splat(inc_h[f2]), I[f2]);
    spx_f4 T[4] = { spx_f4_add(fcv, spx_f4_sub(spx_f4_neg(uv), vv)), spx_f4_add(fcv, spx_f4_sub(uv, vv)),
                    spx_f4_add(fcv, spx_f4_add(uv, vv)), spx_f4_add(fcv, spx_f4_sub(vv, uv)) };
    spx_f4_transpose(&T[0], &T[1], &T[2], &T[3]);
    const spx_f4 X = T[k1], Y = T[k2], Z = T[k];
    /* At most doubled: a travel of kilometres a step must not put points kilometres away. */
    const float hx = h[k1] + fminf(grow, h[k1]), hy = h[k2] + fminf(grow, h[k2]);
    const spx_f4 hxv = spx_f4_splat(hx), hyv = spx_f4_splat(hy);

    const int inside = spx_f4_mask(spx_f4_le(spx_f4_abs(X), hxv)) & spx_f4_mask(spx_f4_le(spx_f4_abs(Y), hyv));
    const spx_f4 sv4 = spx_f4_splat(s), hk = spx_f4_splat(h[k]), mg = spx_f4_splat(margin), zero = spx_f4_splat(0.0f);
    const spx_f4 zgap = spx_f4_sub(spx_f4_mul(sv4, Z), hk);
    spx_f4 PX, PY, PZ, G;
    uint8_t code[28];
    int lanes; /* which slots are points */
    if (inside == 15) {
        /* All four inside: the overlap is the incident face (the common resting case). */
        PX = X;
        PY = Y;
        PZ = Z;
        G = zgap;
        for (int i = 0; i < 4; ++i) code[i] = (uint8_t)i;
        lanes = spx_f4_mask(spx_f4_le(zgap, mg));
    } else {
        candidates cd;
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
            /* Group 1: reference corners strictly inside the incident quad, lifted onto its plane. */
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
            /* Groups 2..5: edges crossing +u', -u' (strictly: a face-corner crossing comes from v'), +v', -v'. */
            cd.mask[2] = crossings(X, Xn, Y, Yn, Z, Zn, 1.0f, hx, hy, 1, cd.x[2], cd.y[2], cd.z[2]);
            cd.mask[3] = crossings(X, Xn, Y, Yn, Z, Zn, -1.0f, hx, hy, 1, cd.x[3], cd.y[3], cd.z[3]);
            cd.mask[4] = crossings(Y, Yn, X, Xn, Z, Zn, 1.0f, hy, hx, 0, cd.y[4], cd.x[4], cd.z[4]);
            cd.mask[5] = crossings(Y, Yn, X, Xn, Z, Zn, -1.0f, hy, hx, 0, cd.y[5], cd.x[5], cd.z[5]);
        }

        /* Points at most `margin` above; slots 0..3 start defined (the output runs on four lanes). */
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
            /* keep[] increases: moving slot keep[i] down to i never overwrites one still to be read. */
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

    /* Halfway down to the face, then to world with the same sums, same order, as per point. */
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

/* `check`: validate first (constant per caller, so the trusted entry has no checks). */
static inline __attribute__((always_inline)) spx_result
manifold_obb_obb(const spx_obb* a, const spx_obb* b, float margin, float grow, spx_manifold* out, bool check)
{
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

    /* R kept as diagonals D_m (lane j: R[(j+m)%3][j]) so every SAT term lines up lane by lane with a
       rotation of another vector. */
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
    /* Padding lane FLT_MAX: the face separations' padding never wins. */
    const spx_f4 hav = lanes_pad(spx_f4_load(&a->half_extents.x), FLT_MAX),
                 hbv = lanes_pad(spx_f4_load(&b->half_extents.x), FLT_MAX);
    const spx_f4 HA[3] = { hav, spx_f4_rot1(hav), spx_f4_rot2(hav) };
    const spx_f4 hb1 = spx_f4_rot1(hbv), hb2 = spx_f4_rot2(hbv);

    /* Face axes first: most separated pairs leave with no division or root; same answer as all 15. */
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

    /* Edge axes L = a_i x b_j. B's axes projected on L by minors, as the exact query: |L . b_k| =
       |R[i][k']| holds only to B's orthonormality (1e-5), which / |L| (down to 1e-3) makes 1e-3 of B's
       size, enough to part a long plate from a box. */
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
    int near_face = -1;
    bool near_face_of_b = false;
    bool edge_fallback = false; /* the face clipped to nothing: the edge pair answers */
edge_contact:
    if (edge_fallback || sep_e > sep_f + MANIFOLD_REL_TOL * fabsf(sep_f) + slack + edge_slack) {
        float Dm[3][4], t[4];
        spx_f4_store(Dm[0], D[0]);
        spx_f4_store(Dm[1], D[1]);
        spx_f4_store(Dm[2], D[2]);
        spx_f4_store(t, tv);
        /* R's columns as arrays: runtime indexing of the diagonals costs a modulo a read. */
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
        /* A's edge along a_i farthest along n; B's along b_j farthest along -n. */
        float pa[3];
        pa[i] = 0.0f;
        pa[i1] = n[i1] > 0.0f ? ha[i1] : -ha[i1];
        pa[i2] = n[i2] > 0.0f ? ha[i2] : -ha[i2];
        float sb1 = nbj1 < 0.0f ? hb[j1] : -hb[j1], sb2 = nbj2 < 0.0f ? hb[j2] : -hb[j2];
        float pb[3], w[3], bj[3];
        for (int r = 0; r < 3; ++r) {
            pb[r] = t[r] + sb1 * RIJ(r, j1) + sb2 * RIJ(r, j2);
            w[r] = pa[r] - pb[r];
            bj[r] = RIJ(r, j);
        }
        /* Closest points of the lines (Ericson 5.1.8), clamped. Denominator |a_i x b_j|^2 as the axis test:
           1 - c^2 rounds to 0 for a b_j a rounding long within 1e-3 rad of a_i. */
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
    const bool use_b = near_face >= 0 ? near_face_of_b : ref_is_b;
    const spx_obb* ref = use_b ? b : a;
    const int k = near_face >= 0 ? near_face
                  : ref_is_b     ? first_lane[spx_f4_mask(spx_f4_eq(sep_bv, max_b)) & 7]
                                 : first_lane[spx_f4_mask(spx_f4_eq(sep_av, max_a)) & 7];
    float s;
    face_points(ref, use_b ? a : b, use_b ? spx_f4_neg(tbv) : tv, k, margin, grow, use_b ? 8u : 0u, out, &s);
    /* No point over the face but an edge axis within the margin: the boxes meet edge to edge beside it
       (the edge tolerance grows with size); the edges' closest points answer. */
    if (out->point_count == 0 && !edge_fallback && sep_e > -FLT_MAX && sep_e <= margin) {
        edge_fallback = true;
        goto edge_contact;
    }
    /* A to B flips the reference normal for B. */
    const float ns = use_b ? -s : s;
    const spx_vec3 axis = ref->rotation.col[k];
    out->normal = spx_v3(ns * axis.x, ns * axis.y, ns * axis.z);
    return SPX_OK;
}

SPX_API spx_result spx_manifold_obb_obb(const spx_obb* a, const spx_obb* b, float margin, spx_manifold* out)
{
    if (!a || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
    return manifold_obb_obb(a, b, margin, 0.0f, out, true);
}

spx_result spx_manifold_obb_obb_trusted(const spx_obb* a, const spx_obb* b, float margin, float slide,
                                        spx_manifold* out)
{
    return manifold_obb_obb(a, b, margin, slide, out, false);
}
