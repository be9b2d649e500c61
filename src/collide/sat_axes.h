/* The swept separating-axis test, one axis at a time: each axis gives an interval of times, the first contact is the
 * latest entry and the last the earliest exit. Axes need not be unit (times are ratios on one axis); nothing is
 * divided while testing; all in double, so float inputs multiply exactly. See docs/collision.md#swept-queries and
 * docs/tolerances.md#time. */
#ifndef SPX_SAT_AXES_H
#define SPX_SAT_AXES_H

#include "math/dvec3.h"
#include <sepax/collide.h>
#include <stdbool.h>
#include <float.h>

typedef enum spx_axis_kind { SPX_AXIS_FACE = 0, SPX_AXIS_EDGE = 1 } spx_axis_kind;

/* Times and depths as fractions num/den compared by cross-multiplying: only the winning axes are divided. */
typedef struct spx_sat_axis {
    int index; /* as numbered in spx_sweep_hit */
    spx_axis_kind kind;
    double sign;     /* +1 or -1: direction times sign points from A to B */
    double len2;     /* |axis|^2 */
    double num, den; /* entry: time = num / den, den the closing speed (> 0); least: depth = num / |axis| */
    bool either_way; /* least: B leaves exactly as shallowly along -axis as along +axis */
} spx_sat_axis;

/* Unnormalised direction of an axis by number; each pair kind supplies one. */
typedef spx_dvec3 spx_axis_dir_fn(const void* pair, int index);

typedef struct spx_sat {
    double last_num, last_den;   /* earliest exit, starts at tmax / 1 */
    double entry_num, entry_den; /* latest entry (the time of contact) */
    bool separated_at_start;     /* some axis has a positive gap at t = 0 */
    bool track_depth;            /* keep the least-overlap axis (wanted only when the pieces start overlapping) */
    spx_sat_axis first;          /* latest entry; of tied axes the most head-on (the contact normal) */
    spx_sat_axis first_face;     /* the same over face axes, reported when the edge axis shares its direction */
    spx_sat_axis least;          /* least overlap at t = 0 (minimum translation) */
    spx_sat_axis least_face;
    /* Optional (NULL: ties to the earlier axis): the pair's axis directions and frame (NULL: world), to part equally
       shallow axes. */
    spx_axis_dir_fn* tie_dir;
    const void* tie_pair;
    const spx_dvec3* tie_frame;
} spx_sat;

/* track_depth: a sweep runs without it first (most start apart), again with it only on overlap at t = 0. */
static inline void spx_sat_init(spx_sat* s, double tmax, bool track_depth)
{
    s->track_depth = track_depth;
    s->last_num = tmax;
    s->last_den = 1.0;
    s->entry_num = -1.0;
    s->entry_den = 1.0;
    s->separated_at_start = false;
    s->first.index = -1;
    s->first.num = -1.0;
    s->first.den = 1.0;
    s->first_face = s->first;
    s->least.index = -1;
    s->least.num = 1.0;
    s->least.len2 = 0.0; /* "infinitely deep" until an axis is seen */
    s->least_face = s->least;
    s->tie_dir = NULL;
    s->tie_pair = NULL;
    s->tie_frame = NULL;
}

static inline void spx_sat_take(spx_sat_axis* slot, int index, spx_axis_kind kind, double sign, double len2, double num,
                                double den)
{
    *slot = (spx_sat_axis){ index, kind, sign, len2, num, den, false };
}

/* Entry after exit means a miss only beyond this slack (~10^4 ulps, 1e-12 of the displacement): zero-thickness pieces
 * enter and leave at the same exact time, and rounding on different axes could lose a flat pass-through in one
 * argument order. */
#define SPX_SAT_TIME_SLACK (1.0 + 1e-12)

static inline void spx_sat_exit(spx_sat* s, double num, double den)
{
    if (num * s->last_den < s->last_num * den) {
        s->last_num = num;
        s->last_den = den;
    }
}

static inline bool spx_sat_later(double num, double den, const spx_sat_axis* slot)
{
    return num * slot->den > slot->num * den;
}

/* num >= 0; an empty slot has len2 = 0. */
static inline bool spx_sat_shallower(double num, double len2, const spx_sat_axis* slot)
{
    return num * num * slot->len2 < slot->num * slot->num * len2;
}

/* Entries within this (relative) tie: a corner meeting a corner or edge enters many axes at one exact time, and
 * rounding alone would pick one per argument order. */
#define SPX_SAT_ENTRY_TIE 1e-9

/* Should an axis entering at gap / speed name the contact instead of the slot's? If later beyond the tie; on a tie,
 * if B closes faster per unit length: the most head-on normal, independent of rounding and order, along which an
 * impulse stops the approach. */
static inline bool spx_sat_names_contact(double gap, double speed, double len2, const spx_sat_axis* slot)
{
    if (slot->index < 0) return true;
    const double x = gap * slot->den, y = slot->num * speed;
    if (!(fabs(x - y) <= SPX_SAT_ENTRY_TIE * spx_dmax(x, y))) return x > y;
    return speed * speed * slot->len2 > slot->den * slot->den * len2;
}

static inline bool spx_sat_enter(spx_sat* s, int index, spx_axis_kind kind, double sign, double len2, double gap,
                                 double speed)
{
    /* Not closed within the time left: a miss, decided without dividing. */
    if (gap * s->last_den > speed * s->last_num * SPX_SAT_TIME_SLACK) return false;
    s->separated_at_start = true;
    if (gap * s->entry_den > s->entry_num * speed) s->entry_num = gap, s->entry_den = speed;
    if (spx_sat_names_contact(gap, speed, len2, &s->first))
        spx_sat_take(&s->first, index, kind, sign, len2, gap, speed);
    if (kind == SPX_AXIS_FACE && spx_sat_names_contact(gap, speed, len2, &s->first_face))
        spx_sat_take(&s->first_face, index, kind, sign, len2, gap, speed);
    return true;
}

/* Unit world direction of axis `index`, its first coordinate off zero (beyond 1e-9) positive: the same for A's axis
 * and B's parallel one. */
static inline spx_dvec3 spx_sat_canonical_dir(const spx_sat* s, int index)
{
    spx_dvec3 l = s->tie_dir(s->tie_pair, index);
    if (s->tie_frame)
        l = spx_d3_mad(spx_d3_mad(spx_d3_scale(s->tie_frame[0], l.x), s->tie_frame[1], l.y), s->tie_frame[2], l.z);
    l = spx_d3_scale(l, 1.0 / sqrt(spx_d3_len2(l)));
    double lead = fabs(l.x) > 1e-9 ? l.x : (fabs(l.y) > 1e-9 ? l.y : l.z);
    return lead < 0.0 ? spx_d3_neg(l) : l;
}

/* Of two axes overlapping equally within 1e-12, is the new one preferred? A face over an edge, then the larger
 * direction in (x, y, z) order (1e-9 per coordinate): independent of which piece is A or of corner order. Only while
 * tracking depth. */
static inline bool spx_sat_tie_prefers(const spx_sat* s, int index, spx_axis_kind kind, double num, double len2,
                                       const spx_sat_axis* slot)
{
    if (!s->tie_dir || slot->index < 0) return false;
    const double d = num / sqrt(len2), e = slot->num / sqrt(slot->len2);
    if (!(fabs(d - e) <= 1e-12 * spx_dmax(fabs(d), fabs(e)))) return false;
    if (kind != slot->kind) return kind == SPX_AXIS_FACE;
    const spx_dvec3 x = spx_sat_canonical_dir(s, index), y = spx_sat_canonical_dir(s, slot->index);
    if (fabs(x.x - y.x) > 1e-9) return x.x > y.x;
    if (fabs(x.y - y.y) > 1e-9) return x.y > y.y;
    if (fabs(x.z - y.z) > 1e-9) return x.z > y.z;
    return false;
}

/* Tests one axis: gap_pos = b_lo - a_hi (> 0: B beyond A along +L), gap_neg = a_lo - b_hi, w = B's relative speed
 * along L, len2 = |L|^2 > 0. False when the pieces never touch in the interval. Always inlined: a call would cost as
 * much as the test. */
__attribute__((always_inline)) static inline bool
spx_sat_axis_test(spx_sat* s, int index, spx_axis_kind kind, double len2, double gap_pos, double gap_neg, double w)
{
    if (gap_pos > 0.0) {
        /* B ahead: it must come back along -L, and leaves when its far side passes A's near side. */
        if (!(w < 0.0)) return false;
        spx_sat_exit(s, -gap_neg, -w);
        return spx_sat_enter(s, index, kind, 1.0, len2, gap_pos, -w);
    }
    if (gap_neg > 0.0) {
        if (!(w > 0.0)) return false;
        spx_sat_exit(s, -gap_pos, w);
        return spx_sat_enter(s, index, kind, -1.0, len2, gap_neg, w);
    }
    if (w > 0.0) spx_sat_exit(s, -gap_pos, w);
    else if (w < 0.0) spx_sat_exit(s, -gap_neg, -w);
    if (!s->track_depth) return true;
    bool forward = -gap_pos <= -gap_neg;
    double depth = forward ? -gap_pos : -gap_neg;
    const bool either_way = gap_pos == gap_neg;
    if (spx_sat_shallower(depth, len2, &s->least) || spx_sat_tie_prefers(s, index, kind, depth, len2, &s->least)) {
        spx_sat_take(&s->least, index, kind, forward ? 1.0 : -1.0, len2, depth, 1.0);
        s->least.either_way = either_way;
    }
    if (kind == SPX_AXIS_FACE && (spx_sat_shallower(depth, len2, &s->least_face) ||
                                  spx_sat_tie_prefers(s, index, kind, depth, len2, &s->least_face))) {
        spx_sat_take(&s->least_face, index, kind, forward ? 1.0 : -1.0, len2, depth, 1.0);
        s->least_face.either_way = either_way;
    }
    return true;
}

static inline bool spx_sat_touches(const spx_sat* s)
{
    return !s->separated_at_start || s->entry_num * s->last_den <= s->last_num * s->entry_den * SPX_SAT_TIME_SLACK;
}

static inline double spx_sat_depth(const spx_sat_axis* a) { return a->num / sqrt(a->len2); }

/* What settles the way out when both are equally deep (a flat piece at the other's middle): in the pair's frame the
 * relative velocity, centre offset and size; in the world the centres' (x, y, z) order (-1, 0, +1). */
typedef struct spx_sat_tie {
    spx_dvec3 u, offset;
    double size;
    int order;
    const spx_dvec3* frame; /* NULL: world directions */
} spx_sat_tie;

/* Signs an either-way least-overlap axis by the pieces, not their order: B's relative motion, else the centre offset,
 * else the first nonzero coordinate by the centres' order. A swap flips each, corner order changes none; below 1e-12
 * of scale is zero. */
static inline void spx_sat_settle_slot(spx_sat_axis* a, spx_axis_dir_fn* dir, const void* pair, const spx_sat_tie* t)
{
    if (a->index < 0 || !a->either_way) return;
    const spx_dvec3 l = dir(pair, a->index);
    const double len = sqrt(spx_d3_len2(l));
    const double w = spx_d3_dot(t->u, l), d = spx_d3_dot(t->offset, l);
    double way = 0.0;
    if (fabs(w) > 1e-12 * len * sqrt(spx_d3_len2(t->u))) way = w;
    else if (fabs(d) > 1e-12 * len * t->size) way = d;
    else if (t->order != 0) {
        spx_dvec3 lw =
            t->frame ? spx_d3_mad(spx_d3_mad(spx_d3_scale(t->frame[0], l.x), t->frame[1], l.y), t->frame[2], l.z) : l;
        double lead = fabs(lw.x) > 1e-12 * len ? lw.x : (fabs(lw.y) > 1e-12 * len ? lw.y : lw.z);
        way = -lead * (double)t->order;
    }
    if (way != 0.0) a->sign = way > 0.0 ? 1.0 : -1.0;
}

static inline void spx_sat_settle(spx_sat* s, spx_axis_dir_fn* dir, const void* pair, const spx_sat_tie* t)
{
    spx_sat_settle_slot(&s->least, dir, pair, t);
    spx_sat_settle_slot(&s->least_face, dir, pair, t);
}

static inline int spx_d3_order(spx_dvec3 p, spx_dvec3 q)
{
    if (p.x != q.x) return p.x < q.x ? -1 : 1;
    if (p.y != q.y) return p.y < q.y ? -1 : 1;
    if (p.z != q.z) return p.z < q.z ? -1 : 1;
    return 0;
}

#define SPX_SAME_AXIS_SINE 1e-6

/* An edge axis along a face axis (an edge in the face's plane) is that face, whose features give the whole touching
 * region; an edge merely close to it is a real edge-edge contact. */
static inline bool spx_sat_same_as_face(const spx_sat_axis* edge, const spx_sat_axis* face, spx_axis_dir_fn* dir,
                                        const void* pair)
{
    if (edge->kind != SPX_AXIS_EDGE || face->index < 0) return false;
    spx_dvec3 e = dir(pair, edge->index), f = dir(pair, face->index);
    double c2 = spx_d3_len2(spx_d3_cross(e, f));
    return c2 <= SPX_SAME_AXIS_SINE * SPX_SAME_AXIS_SINE * spx_d3_len2(e) * spx_d3_len2(f);
}

static inline const spx_sat_axis* spx_sat_contact_axis(const spx_sat* s, spx_axis_dir_fn* dir, const void* pair)
{
    return spx_sat_same_as_face(&s->first, &s->first_face, dir, pair) ? &s->first_face : &s->first;
}

static inline const spx_sat_axis* spx_sat_least_axis(const spx_sat* s, spx_axis_dir_fn* dir, const void* pair)
{
    return spx_sat_same_as_face(&s->least, &s->least_face, dir, pair) ? &s->least_face : &s->least;
}

static inline spx_dvec3 spx_sat_unit(const spx_sat_axis* a, spx_dvec3 dir)
{
    return spx_d3_scale(dir, a->sign / sqrt(a->len2));
}

/* After a touching test: state, time or depth and axis into `hit`; returns the normal's axis and sets *tc (0 for a
 * start overlap). */
static inline const spx_sat_axis* spx_sat_fill_hit(const spx_sat* s, spx_axis_dir_fn* dir, const void* pair,
                                                   spx_sweep_hit* hit, double* tc)
{
    const spx_sat_axis* axis;
    if (s->separated_at_start) {
        axis = spx_sat_contact_axis(s, dir, pair);
        *tc = s->entry_num / s->entry_den;
        hit->state = SPX_SWEEP_HIT;
        hit->time = (float)*tc;
        hit->depth = 0.0f;
    } else {
        axis = spx_sat_least_axis(s, dir, pair);
        *tc = 0.0;
        hit->state = SPX_SWEEP_START_OVERLAP;
        hit->time = 0.0f;
        hit->depth = (float)spx_sat_depth(axis);
    }
    hit->axis = axis->index;
    return axis;
}

/* The static answer after a depth-tracking test at t = 0; `frame` takes the axis to the world (NULL: already
 * world). */
static inline void spx_sat_fill_penetration(const spx_sat* s, bool touches, spx_axis_dir_fn* dir, const void* pair,
                                            const spx_dvec3* frame, spx_penetration* out)
{
    spx_penetration pen = { 0 };
    pen.axis = -1;
    if (touches && !s->separated_at_start) {
        const spx_sat_axis* axis = spx_sat_least_axis(s, dir, pair);
        spx_dvec3 n = dir(pair, axis->index);
        if (frame) n = spx_d3_mad(spx_d3_mad(spx_d3_scale(frame[0], n.x), frame[1], n.y), frame[2], n.z);
        pen.overlapping = true;
        pen.normal = spx_d3_to_float(spx_d3_scale(n, axis->sign / sqrt(spx_d3_len2(n))));
        pen.depth = (float)spx_sat_depth(axis);
        pen.axis = axis->index;
    }
    *out = pen;
}

/* Edges closer to parallel than this sine give no axis: the face axes decide, within 1e-6 of the size
 * (docs/tolerances.md). */
#define SPX_PARALLEL_SINE 1e-6

static inline bool spx_edge_axis_usable(double cross_len2, double len2_a, double len2_b)
{
    return cross_len2 > SPX_PARALLEL_SINE * SPX_PARALLEL_SINE * len2_a * len2_b;
}

#endif
