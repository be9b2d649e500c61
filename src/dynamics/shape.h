/* Shape ids: a table of slots from id to (body, index in its shapes), with generations as bodies have. */
#ifndef SPX_DYNAMICS_SHAPE_H
#define SPX_DYNAMICS_SHAPE_H

#include "world.h"

/* Room to take `count` more slots without allocating. SPX_ERR_OUT_OF_MEMORY changes nothing. */
spx_result spx_shape_slots_reserve(spx_world* world, uint32_t count);

/* A slot for shape `index` of body `body` (room reserved), with its next generation. */
uint32_t spx_shape_slot_take(spx_world* world, uint32_t body, uint32_t index);

/* Frees a slot: ids of it go stale. */
void spx_shape_slot_release(spx_world* world, uint32_t slot);

/* The slot of a live shape of this world named by id, or SPX_NO_BODY. */
uint32_t spx_shape_lookup(const spx_world* world, spx_shape_id id);

#endif
