/* The closed-container scene (continuous collision), shared by tests/test_continuous.c
   and the benchmark (public API only): `count` boxes of half extent 0.05 m at `speed` m/s in
   random directions, random orientations, on a grid inside a closed box of six static walls 0.1 m
   thick. Two kinds: elastic (restitution 1, no friction, no gravity, sleeping off: the boxes stay
   fast for the whole run, the hardest case) and plain (restitution 0.05, friction 0.6, gravity,
   sleeping on: after a few impacts they settle on the floor, as in Jolt's HighSpeed scene of small
   fast convex pieces). Deterministic: the same arguments, the same world. */
#ifndef TEST_SUPPORT_CONTAINER_H
#define TEST_SUPPORT_CONTAINER_H

#include <sepax/sepax.h>

typedef struct test_container {
    spx_world* world;
    spx_body_id* boxes; /* count, malloc'd */
    uint32_t count;
    float inner; /* m: the inside is [-inner, inner] on every axis */
    float dt;    /* 1/60 s */
} test_container;

/* inner: half the inside's width (m). def NULL: defaults (the scene sets gravity and sleep). */
spx_result test_container_create(test_container* out, uint32_t count, float speed, float inner, bool elastic,
                                 const spx_world_def* def);

/* Boxes whose centre is more than `beyond` (m) outside the inside: 0 counts every centre past a
   wall's inner face (deep in it), TEST_CONTAINER_WALL every centre past its outer face (escaped). */
#define TEST_CONTAINER_WALL 0.1f
uint32_t test_container_escaped(const test_container* c, float beyond);

void test_container_destroy(test_container* c);

#endif
