/* The public getters of one value of an object named by an id (body, shape, joint), defined once. */
#ifndef SPX_DYNAMICS_ID_GETTER_H
#define SPX_DYNAMICS_ID_GETTER_H

#include "world.h"

/* Defines `function(world, id, out)`: a NULL world or output is SPX_ERR_INVALID_ARGUMENT, an id
   that `lookup` does not find live (`none`) SPX_ERR_STALE_ID, in base.h's order of faults; else
   `value`, an expression of the world `w` and the object's `slot`, goes to *out. */
#define SPX_ID_GETTER(function, id_type, lookup, none, out_type, value)        \
    SPX_API spx_result function(const spx_world* w, id_type id, out_type* out) \
    {                                                                          \
        if (!w || !out) return SPX_ERR_INVALID_ARGUMENT;                       \
        const uint32_t slot = lookup(w, id);                                   \
        if (slot == (none)) return SPX_ERR_STALE_ID;                           \
        *out = (value);                                                        \
        return SPX_OK;                                                         \
    }

#endif
