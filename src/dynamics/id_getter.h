/* One definition of the public getters by id. */
#ifndef SPX_DYNAMICS_ID_GETTER_H
#define SPX_DYNAMICS_ID_GETTER_H

#include "world.h"

/* NULL: INVALID_ARGUMENT; lookup gives `none`: STALE_ID; else *out = value (of `w`, `slot`). */
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
