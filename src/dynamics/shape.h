/* Shape id slots: id to (body, index), with generations. */
#ifndef SPX_DYNAMICS_SHAPE_H
#define SPX_DYNAMICS_SHAPE_H

#include "world.h"

/* SPX_ERR_OUT_OF_MEMORY changes nothing. */
spx_result spx_shape_slots_reserve(spx_world* world, uint32_t count);

/* Room must be reserved. */
uint32_t spx_shape_slot_take(spx_world* world, uint32_t body, uint32_t index);

void spx_shape_slot_release(spx_world* world, uint32_t slot);

/* Or SPX_NO_BODY. */
uint32_t spx_shape_lookup(const spx_world* world, spx_shape_id id);

#endif
