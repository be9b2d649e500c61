/* The closed-container scene (see container.h). */
#include "container.h"
#include "scenes.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOX_HALF 0.05f
#define WALL_HALF (0.5f * TEST_CONTAINER_WALL)

static uint32_t next(uint32_t* s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}
static float uniform(uint32_t* s) { return (float)next(s) / 16777216.0f; } /* [0, 1) */

static spx_result add_static(spx_world* w, spx_vec3 p, spx_vec3 half, float friction, float restitution)
{
    spx_body_def d = test_body_def(SPX_BODY_STATIC, p);
    d.friction = friction;
    d.restitution = restitution;
    spx_result r;
    test_body_create(w, d, test_box_shape(half), &r);
    return r;
}

spx_result test_container_create(test_container* c, uint32_t count, float speed, float inner, bool elastic,
                                 const spx_world_def* def)
{
    memset(c, 0, sizeof *c);
    spx_world_def wd = def ? *def : spx_default_world_def();
    wd.gravity = spx_v3(0.0f, elastic ? 0.0f : -9.81f, 0.0f);
    wd.enable_sleep = !elastic;
    const float friction = elastic ? 0.0f : 0.6f, restitution = elastic ? 1.0f : 0.05f;
    spx_result r = spx_world_create(&wd, &c->world);
    if (r != SPX_OK) return r;
    c->inner = inner;
    c->dt = 1.0f / 60.0f;
    c->boxes = malloc(sizeof(spx_body_id) * (count ? count : 1));
    if (!c->boxes) return SPX_ERR_OUT_OF_MEMORY;
    const float o = inner + WALL_HALF, e = inner + 2.0f * WALL_HALF;
    for (int axis = 0; axis < 3 && r == SPX_OK; ++axis)
        for (int side = -1; side <= 1 && r == SPX_OK; side += 2) {
            float p[3] = { 0, 0, 0 }, h[3] = { e, e, e };
            p[axis] = (float)side * o;
            h[axis] = WALL_HALF;
            r = add_static(c->world, spx_v3(p[0], p[1], p[2]), spx_v3(h[0], h[1], h[2]), friction, restitution);
        }
    uint32_t n = 1;
    while (n * n * n < count) ++n;
    const float pitch = 2.0f * inner / (float)n;
    uint32_t seed = 12345u;
    spx_shape_def s = spx_default_shape_def();
    s.half_extents = spx_v3(BOX_HALF, BOX_HALF, BOX_HALF);
    for (uint32_t k = 0; k < count && r == SPX_OK; ++k) {
        uint32_t i = k % n, j = (k / n) % n, l = k / (n * n);
        spx_body_def d = spx_default_body_def();
        d.type = SPX_BODY_DYNAMIC;
        d.position = spx_v3(((float)i + 0.5f) * pitch - inner, ((float)j + 0.5f) * pitch - inner,
                            ((float)l + 0.5f) * pitch - inner);
        /* A random direction (uniform on the sphere) and a random rotation (normalised 4-vector). */
        float z = 2.0f * uniform(&seed) - 1.0f, phi = 6.2831853f * uniform(&seed), rr = sqrtf(1.0f - z * z);
        d.linear_velocity = spx_v3(speed * rr * cosf(phi), speed * rr * sinf(phi), speed * z);
        float q[4], qn = 0.0f;
        do {
            qn = 0.0f;
            for (int m = 0; m < 4; ++m) q[m] = 2.0f * uniform(&seed) - 1.0f, qn += q[m] * q[m];
        } while (qn < 0.01f || qn > 1.0f);
        qn = sqrtf(qn);
        d.rotation = (spx_quat){ q[0] / qn, q[1] / qn, q[2] / qn, q[3] / qn };
        d.friction = friction;
        d.restitution = restitution;
        d.angular_damping = elastic ? 0.0f : d.angular_damping;
        d.shapes = &s;
        d.shape_count = 1;
        r = spx_body_create(c->world, &d, &c->boxes[k]);
        if (r == SPX_OK) c->count++;
    }
    return r;
}

uint32_t test_container_escaped(const test_container* c, float beyond)
{
    const float lim = c->inner + beyond;
    uint32_t out = 0;
    for (uint32_t k = 0; k < c->count; ++k) {
        spx_transform t;
        if (spx_body_get_transform(c->world, c->boxes[k], &t) != SPX_OK) continue;
        if (!(fabsf(t.p.x) <= lim && fabsf(t.p.y) <= lim && fabsf(t.p.z) <= lim)) ++out;
    }
    return out;
}

void test_container_destroy(test_container* c)
{
    spx_world_destroy(c->world);
    free(c->boxes);
    memset(c, 0, sizeof *c);
}
