/* The swept separating-axis test, one axis at a time.
 *
 * On an axis L the two pieces project to intervals [a_lo, a_hi] and [b_lo, b_hi] at t = 0, and B
 * slides along L at w = (v_B - v_A) . L relative to A. They overlap on L at time t exactly when
 * b_lo + w t <= a_hi and b_hi + w t >= a_lo (touching counts). Every axis thus gives an interval
 * of times; the pieces touch when all intervals meet, so the first contact is the latest entry and
 * the last contact the earliest exit. L need not be unit length: times are ratios of projections on
 * the same L, so its length cancels. Only depths are divided by |L|.
 *
 * No division happens unless its result is known to lie in [0, t_last], so tiny |w| never
 * overflows: a gap that the motion cannot close within the interval is a miss without dividing.
 * Everything is double: inputs are floats, so products are exact and cancellation stays honest. */
#ifndef SPX_SAT_AXES_H
#define SPX_SAT_AXES_H

#include "math/dvec3.h"
#include <sepax/collide.h>
#include <stdbool.h>
#include <float.h>

typedef enum spx_axis_kind { SPX_AXIS_FACE = 0, SPX_AXIS_EDGE = 1 } spx_axis_kind;

typedef struct spx_sat_axis {
    int index;          /* axis number as documented in spx_sweep_hit */
    spx_axis_kind kind;
    spx_dvec3 dir;      /* unnormalised direction, signed so that it points from A to B */
    double len;         /* |dir| */
    double value;       /* entry time, or depth for the overlap axis */
    double speed;       /* closing speed along the unit axis (m/s), for the face-preference tolerance */
} spx_sat_axis;

typedef struct spx_sat {
    double t_last;          /* earliest exit so far; starts at tmax */
    double tol_distance;    /* distances below this are rounding: prefer a face axis over an edge axis */
    bool separated_at_start;/* some axis has a positive gap at t = 0 */
    spx_sat_axis first;     /* axis of the latest entry (the contact normal) */
    spx_sat_axis first_face;/* latest-entering face axis, preferred when an edge axis beats it by rounding only */
    spx_sat_axis least;     /* axis of least overlap at t = 0 (minimum translation) */
    spx_sat_axis least_face;
} spx_sat;

static inline void spx_sat_init(spx_sat* s, double tmax, double size)
{
    s->t_last = tmax;
    s->tol_distance = 1e-6 * size;
    s->separated_at_start = false;
    s->first.index = -1;
    s->first.value = -1.0;
    s->first_face.index = -1;
    s->first_face.value = -1.0;
    s->least.index = -1;
    s->least.value = DBL_MAX;
    s->least_face.index = -1;
    s->least_face.value = DBL_MAX;
}

static inline void spx_sat_take(spx_sat_axis* slot, int index, spx_axis_kind kind, spx_dvec3 dir, double len,
                                double value, double speed)
{
    slot->index = index;
    slot->kind = kind;
    slot->dir = dir;
    slot->len = len;
    slot->value = value;
    slot->speed = speed;
}

/* Lowers t_last to num/den when that is smaller; den > 0, num >= 0. */
static inline void spx_sat_exit(spx_sat* s, double num, double den)
{
    if (num < s->t_last * den) s->t_last = num / den;
}

/* Tests one axis. gap_pos = b_lo - a_hi (> 0: B lies beyond A along +L), gap_neg = a_lo - b_hi
 * (> 0: B lies behind A), w = relative velocity of B along L. Returns false when the axis proves
 * that the pieces never touch during [0, t_last]. `len` may be 0 only for axes that never become
 * the normal (it is only used to normalise). */
static inline bool spx_sat_axis_test(spx_sat* s, int index, spx_axis_kind kind, spx_dvec3 dir, double len,
                                     double gap_pos, double gap_neg, double w)
{
    if (gap_pos > 0.0) {
        /* B ahead: it must come back along -L, far enough within the time left. */
        if (!(w < 0.0) || gap_pos > -w * s->t_last) return false;
        double enter = gap_pos / -w;
        spx_sat_exit(s, -gap_neg, -w);
        s->separated_at_start = true;
        double speed = -w / len;
        if (enter > s->first.value) spx_sat_take(&s->first, index, kind, dir, len, enter, speed);
        if (kind == SPX_AXIS_FACE && enter > s->first_face.value)
            spx_sat_take(&s->first_face, index, kind, dir, len, enter, speed);
        return true;
    }
    if (gap_neg > 0.0) {
        if (!(w > 0.0) || gap_neg > w * s->t_last) return false;
        double enter = gap_neg / w;
        spx_sat_exit(s, -gap_pos, w);
        s->separated_at_start = true;
        spx_dvec3 flipped = spx_d3_neg(dir);
        double speed = w / len;
        if (enter > s->first.value) spx_sat_take(&s->first, index, kind, flipped, len, enter, speed);
        if (kind == SPX_AXIS_FACE && enter > s->first_face.value)
            spx_sat_take(&s->first_face, index, kind, flipped, len, enter, speed);
        return true;
    }
    /* Overlapping on this axis at t = 0: when does it leave, and how deep is it now? */
    if (w > 0.0) spx_sat_exit(s, -gap_pos, w);
    else if (w < 0.0) spx_sat_exit(s, -gap_neg, -w);
    if (len > 0.0) {
        /* Pushing B along +L by -gap_pos separates it, or along -L by -gap_neg. */
        bool forward = -gap_pos <= -gap_neg;
        double depth = (forward ? -gap_pos : -gap_neg) / len;
        spx_dvec3 d = forward ? dir : spx_d3_neg(dir);
        if (depth < s->least.value) spx_sat_take(&s->least, index, kind, d, len, depth, 0.0);
        if (kind == SPX_AXIS_FACE && depth < s->least_face.value)
            spx_sat_take(&s->least_face, index, kind, d, len, depth, 0.0);
    }
    return true;
}

/* After all axes: the pieces touch during [0, tmax] when the latest entry is not after the
 * earliest exit. */
static inline bool spx_sat_touches(const spx_sat* s)
{
    return !s->separated_at_start || s->first.value <= s->t_last;
}

/* The axis that names the contact: an edge axis wins over the best face axis only when it enters
 * later by more than rounding, measured as the distance still open along it. */
static inline const spx_sat_axis* spx_sat_contact_axis(const spx_sat* s)
{
    if (s->first.kind == SPX_AXIS_EDGE && s->first_face.index >= 0
        && (s->first.value - s->first_face.value) * s->first.speed <= s->tol_distance)
        return &s->first_face;
    return &s->first;
}

/* The axis of minimum translation at t = 0, with the same preference for faces. */
static inline const spx_sat_axis* spx_sat_least_axis(const spx_sat* s)
{
    if (s->least.kind == SPX_AXIS_EDGE && s->least_face.index >= 0
        && s->least_face.value - s->least.value <= s->tol_distance)
        return &s->least_face;
    return &s->least;
}

/* After a test that touches: state, time or depth and axis number into `hit`; returns the axis
 * that names the normal and sets *tc to the time of contact (0 for a start overlap). */
static inline const spx_sat_axis* spx_sat_fill_hit(const spx_sat* s, spx_sweep_hit* hit, double* tc)
{
    const spx_sat_axis* axis;
    if (s->separated_at_start) {
        axis = spx_sat_contact_axis(s);
        *tc = s->first.value; /* the latest entry, whichever axis names the normal */
        hit->state = SPX_SWEEP_HIT;
        hit->time = (float)*tc;
        hit->depth = 0.0f;
    } else {
        axis = spx_sat_least_axis(s);
        *tc = 0.0;
        hit->state = SPX_SWEEP_START_OVERLAP;
        hit->time = 0.0f;
        hit->depth = (float)axis->value;
    }
    hit->axis = axis->index;
    return axis;
}

/* Cross products of edges closer to parallel than this (sine of the angle) are skipped: the face
 * axes then decide, with an error below 1e-6 of the pieces' size (docs/tolerances.md). */
#define SPX_PARALLEL_SINE 1e-6

static inline bool spx_edge_axis_usable(double cross_len2, double len2_a, double len2_b)
{
    return cross_len2 > SPX_PARALLEL_SINE * SPX_PARALLEL_SINE * len2_a * len2_b;
}

#endif
