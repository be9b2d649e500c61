/* World numbers, carried by every id so a world can tell another world's ids. */
#ifndef SPX_WORLD_NUMBER_H
#define SPX_WORLD_NUMBER_H

#include <sepax/base.h>

/* 1..max; 0 is the null id's. */
#define SPX_WORLD_NUMBER_MAX 0xFFFFu

/* Round robin, so a dead world's ids stay foreign for 65,534 worlds. Lock-free. false: all taken. */
bool spx_world_number_acquire(uint16_t* out);

/* 0 is ignored. */
void spx_world_number_release(uint16_t number);

#endif
