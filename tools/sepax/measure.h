/* sepax (the program): what a built scene looks like now, measured from outside the world with the
 * public collision queries (the world does not hand out its contacts): deepest penetration between
 * any two bodies' shapes, contact points for pictures, bodies fallen through the ground, sleeping
 * bodies and kinetic energy. Every engine-independent figure `sepax run` and `sepax render` print. */
#ifndef SEPAX_TOOL_MEASURE_H
#define SEPAX_TOOL_MEASURE_H

#include "scene.h"

typedef struct measure measure;

/// m: a contact point whose shapes are no farther apart than this counts as touching (drawn red).
#define MEASURE_TOUCH_GAP 0.002f

/// A point where two shapes touch (or come within the margin), with its depth (m, > 0 overlapping).
typedef struct measure_point {
    spx_vec3 point;
    float depth;
} measure_point;

typedef struct measure_result {
    float deepest;            /* m: deepest overlap of any two shapes of different bodies, one of them dynamic */
    uint32_t touching_pairs;  /* shape pairs with a contact point within the margin */
    uint32_t touching_points; /* with points only: those no more than MEASURE_TOUCH_GAP apart */
    uint32_t fallen;          /* dynamic bodies whose centre of mass is below the ground (when there is one) */
    bool has_ground;
    float ground_y;             /* m: world.ground_y, else the lowest top of the static bodies */
    uint32_t sleeping, dynamic; /* dynamic bodies asleep, and all of them */
    double kinetic;             /* J */
} measure_result;

/// Sets up measuring a built scene (mesh instances, the ground height). NULL when out of memory.
measure* measure_create(const scene* s);
void measure_destroy(measure* m);

/// Measures the scene at its current state; `with_points` also collects the contact points
/// (measure_points). Returns false when a query failed (nothing sensible to report).
bool measure_now(measure* m, const scene* s, bool with_points, measure_result* out);

/// The contact points of the last measure_now with points, valid until the next call.
const measure_point* measure_points(const measure* m, uint32_t* count);

#endif
