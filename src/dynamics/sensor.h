/* Sensor overlaps and their begin and end events. See docs/world.md#sensors. */
#ifndef SPX_DYNAMICS_SENSOR_H
#define SPX_DYNAMICS_SENSOR_H

#include <sepax/world.h>
#include "broad/pair_finder.h"

typedef struct spx_sensor_overlap {
    uint64_t key; /* sensor slot << 32 | visitor slot */
    spx_sensor_event ids;
} spx_sensor_overlap;

typedef struct spx_sensors {
    spx_sensor_overlap* list; /* sorted by key */
    uint32_t count, capacity;
    spx_sensor_overlap* next; /* swapped with list by commit */
    uint32_t next_count, next_capacity;
    spx_sensor_overlap* found; /* before the merge */
    uint32_t found_capacity;
    spx_sensor_event* begin;
    uint32_t begin_count, begin_capacity;
    spx_sensor_event* end;
    uint32_t end_count, end_capacity;
} spx_sensors;

typedef struct spx_world spx_world;

/* From all broad phase pairs (filters are for contacts), before the narrow phase wakes anyone;
   overlaps of two unmoving bodies stay. Takes effect at commit, when the step cannot fail. */
spx_result spx_sensors_update(spx_world* world, const spx_pair* pairs, uint32_t pair_count);
void spx_sensors_commit(spx_world* world);

/* A shape stops being a sensor: wakes what it overlapped, to meet it as contacts. */
void spx_sensors_wake_visitors(spx_world* world, uint32_t sensor_slot);

void spx_sensors_free(spx_sensors* s, const spx_allocator* allocator);

#endif
