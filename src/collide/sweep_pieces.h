/* Box or triangle against triangle sweeps on checked input: the mesh descent validates the pieces once, not once a
 * leaf pair. */
#ifndef SPX_SWEEP_PIECES_H
#define SPX_SWEEP_PIECES_H

#include <sepax/collide.h>

/* spx_sweep_triangle_triangle for validated triangles, finite velocities and finite tmax >= 0. */
void spx_sweep_triangle_triangle_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                         spx_vec3 velocity_b, float tmax, spx_sweep_hit* out);

/* The same with A grown by `margin` (m, >= 0) on every axis: never later than the first time within margin (each axis
   is a necessary condition; corners meeting end to end may read as touching up to margin / sin(angle) early). For the
   continuous stage, where the margin bounds rotation. */
void spx_sweep_triangle_triangle_margin_checked(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                                spx_vec3 velocity_b, float tmax, float margin, spx_sweep_hit* out);

/* spx_sweep_obb_triangle for a validated box and triangle, finite velocities and finite tmax >= 0. */
void spx_sweep_obb_triangle_checked(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b, spx_vec3 velocity_b,
                                    float tmax, spx_sweep_hit* out);

/* The double tests without the float screen in front (triangle_screen.h): the same answers, for the tests that check
   the screen. A margin <= 0 is none. */
void spx_sweep_obb_triangle_exact(const spx_obb* a, spx_vec3 velocity_a, const spx_triangle* b, spx_vec3 velocity_b,
                                  float tmax, spx_sweep_hit* out);
void spx_sweep_triangle_triangle_exact(const spx_triangle* a, spx_vec3 velocity_a, const spx_triangle* b,
                                       spx_vec3 velocity_b, float tmax, float margin, spx_sweep_hit* out);

/* The public sweep, penetration and overlap of spx_<A> against spx_<B> for both SAT pair kinds. The includer provides
   check_pair(a, b) and the steps make, sat, settle and axis_dir with `frame` (NULL: world). The static queries run
   the sweep's axes at rest at t = 0. */
#define SPX_SAT_PAIR_QUERIES(A, B, pair, make, sat, settle, axis_dir, frame)                               \
    SPX_API spx_result spx_sweep_##A##_##B(const spx_##A* a, spx_vec3 velocity_a, const spx_##B* b,        \
                                           spx_vec3 velocity_b, float tmax, spx_sweep_hit* out)            \
    {                                                                                                      \
        if (!a || !b || !out) return SPX_ERR_INVALID_ARGUMENT;                                             \
        spx_result r = spx_first_error(check_pair(a, b), spx_check_motion(velocity_a, velocity_b, tmax));  \
        if (r != SPX_OK) return r;                                                                         \
        spx_sweep_##A##_##B##_checked(a, velocity_a, b, velocity_b, tmax, out);                            \
        return SPX_OK;                                                                                     \
    }                                                                                                      \
                                                                                                           \
    static bool at_rest(const spx_##A* a, const spx_##B* b, bool track_depth, pair* p, spx_sat* s)         \
    {                                                                                                      \
        const spx_vec3 zero = { 0, 0, 0 };                                                                 \
        make(a, zero, b, zero, p);                                                                         \
        return sat(p, 0.0, s, track_depth);                                                                \
    }                                                                                                      \
                                                                                                           \
    SPX_API spx_result spx_penetration_##A##_##B(const spx_##A* a, const spx_##B* b, spx_penetration* out) \
    {                                                                                                      \
        if (!out) return SPX_ERR_INVALID_ARGUMENT;                                                         \
        spx_result r = check_pair(a, b);                                                                   \
        if (r != SPX_OK) return r;                                                                         \
        pair p;                                                                                            \
        spx_sat s;                                                                                         \
        const bool touches = at_rest(a, b, true, &p, &s);                                                  \
        settle(&p, a, b, &s);                                                                              \
        spx_sat_fill_penetration(&s, touches, axis_dir, &p, frame, out);                                   \
        return SPX_OK;                                                                                     \
    }                                                                                                      \
                                                                                                           \
    SPX_API spx_result spx_overlap_##A##_##B(const spx_##A* a, const spx_##B* b, bool* out_overlap)        \
    {                                                                                                      \
        if (!out_overlap) return SPX_ERR_INVALID_ARGUMENT;                                                 \
        spx_result r = check_pair(a, b);                                                                   \
        if (r != SPX_OK) return r;                                                                         \
        pair p;                                                                                            \
        spx_sat s;                                                                                         \
        *out_overlap = at_rest(a, b, false, &p, &s);                                                       \
        return SPX_OK;                                                                                     \
    }

#endif
