/* A one-way platform as a host writes it with the pre-solve callback: contacts of the platform's
   shape whose normal says the other body is not above it are switched off. */
#ifndef TEST_SUPPORT_ONE_WAY_H
#define TEST_SUPPORT_ONE_WAY_H

#include <sepax/sepax.h>

typedef struct test_one_way {
    spx_shape_id platform;
    float min_up;   /* the least upward normal component (platform towards the other body) kept */
    uint32_t asked; /* calls for the platform's contacts */
    uint32_t refused;
} test_one_way;

/* spx_world_def.pre_solve; context is a test_one_way. */
bool test_one_way_pre_solve(const spx_contact_data* c, void* context);

#endif
