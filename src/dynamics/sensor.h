/* Sensors: which shapes overlap each sensor shape, step by step, as begin and end events. */
#ifndef SPX_DYNAMICS_SENSOR_H
#define SPX_DYNAMICS_SENSOR_H

#include <sepax/world.h>
#include "broad/pair_finder.h"

/* One overlap: a sensor shape and a visitor, with their bodies' ids, keyed by the two slots. */
typedef struct spx_sensor_overlap {
    uint64_t key; /* sensor slot << 32 | visitor slot */
    spx_sensor_event ids;
} spx_sensor_overlap;

typedef struct spx_sensors {
    spx_sensor_overlap* list; /* the overlaps after the last step, sorted by key */
    uint32_t count, capacity;
    spx_sensor_overlap* next; /* the step's, built by update and swapped with list by commit */
    uint32_t next_count, next_capacity;
    spx_sensor_overlap* found; /* the step's tested overlaps, before the merge */
    uint32_t found_capacity;
    spx_sensor_event* begin;
    uint32_t begin_count, begin_capacity;
    spx_sensor_event* end;
    uint32_t end_count, end_capacity;
} spx_sensors;

typedef struct spx_world spx_world;

/* The overlaps at the step's start from the broad phase's pairs (all of them: the filters and the
   contact limit are for contacts), merged with the last step's: begin and end events. An overlap
   of two bodies neither of which moves (static or sleeping) stays as it was. Runs before the narrow
   phase, which wakes bodies: which bodies move is the broad phase's. The new overlaps become the
   world's at spx_sensors_commit, once the step can no longer fail. SPX_ERR_OUT_OF_MEMORY. */
spx_result spx_sensors_update(spx_world* world, const spx_pair* pairs, uint32_t pair_count);
void spx_sensors_commit(spx_world* world);

/* Wakes the dynamic bodies of the shapes the sensor shape in slot `sensor_slot` overlapped at the last
   step (it stops being a sensor: they are to meet it as contacts). */
void spx_sensors_wake_visitors(spx_world* world, uint32_t sensor_slot);

void spx_sensors_free(spx_sensors* s, const spx_allocator* allocator);

#endif
