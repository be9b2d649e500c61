/* World numbers: every live world holds one, and every id it hands out (bodies now, shapes and
 * joints later) carries it, so a call can tell an id of another world from its own. */
#ifndef SPX_WORLD_NUMBER_H
#define SPX_WORLD_NUMBER_H

#include <sepax/base.h>

/* Numbers run 1..SPX_WORLD_NUMBER_MAX; 0 is in no world (the null id's). */
#define SPX_WORLD_NUMBER_MAX 0xFFFFu

/* Takes a number no live world holds, the next in turn after the last one given: a number freed is
   handed out again only after every other has been, so an id of a destroyed world stays foreign
   for the next 65,534 worlds made. Thread-safe and lock-free. false when every number is taken. */
bool spx_world_number_acquire(uint16_t* out);

/* Gives the number back (0 is ignored). */
void spx_world_number_release(uint16_t number);

#endif
