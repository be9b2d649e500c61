/* The world-query scene and the icosphere (query_scene.h). */
#include "query_scene.h"
#include "cases.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The vertex halfway along edge (a, b), made once and found again for the neighbouring triangle. */
typedef struct edge_mid {
    uint32_t a, b, mid;
} edge_mid;

static uint32_t midpoint(test_shape* s, edge_mid* mids, uint32_t* mid_count, uint32_t a, uint32_t b, float radius)
{
    if (a > b) {
        uint32_t t = a;
        a = b, b = t;
    }
    for (uint32_t i = 0; i < *mid_count; ++i)
        if (mids[i].a == a && mids[i].b == b) return mids[i].mid;
    const spx_vec3 p = s->vertices[a], q = s->vertices[b];
    double m[3] = { 0.5 * ((double)p.x + q.x), 0.5 * ((double)p.y + q.y), 0.5 * ((double)p.z + q.z) };
    double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    uint32_t v = s->vertex_count++;
    s->vertices[v] = spx_v3((float)(m[0] / len * radius), (float)(m[1] / len * radius), (float)(m[2] / len * radius));
    mids[(*mid_count)++] = (edge_mid){ a, b, v };
    return v;
}

bool test_shape_icosphere(test_shape* s, float radius, uint32_t level)
{
    memset(s, 0, sizeof *s);
    uint32_t tris = 20, verts = 12;
    for (uint32_t l = 0; l < level; ++l) verts += tris * 3 / 2, tris *= 4;
    s->vertices = malloc(sizeof(spx_vec3) * verts);
    s->indices = malloc(sizeof(uint32_t) * 3 * tris);
    uint32_t* next = malloc(sizeof(uint32_t) * 3 * tris);
    edge_mid* mids = malloc(sizeof(edge_mid) * tris * 3 / 2 + sizeof(edge_mid));
    if (!s->vertices || !s->indices || !next || !mids) {
        free(next), free(mids), test_shape_free(s);
        return false;
    }
    const double t = (1.0 + sqrt(5.0)) / 2.0;
    const double base[12][3] = {
        { -1, t, 0 },  { 1, t, 0 },  { -1, -t, 0 }, { 1, -t, 0 }, { 0, -1, t },  { 0, 1, t },
        { 0, -1, -t }, { 0, 1, -t }, { t, 0, -1 },  { t, 0, 1 },  { -t, 0, -1 }, { -t, 0, 1 }
    };
    static const uint32_t faces[20][3] = { { 0, 11, 5 }, { 0, 5, 1 },  { 0, 1, 7 },   { 0, 7, 10 }, { 0, 10, 11 },
                                           { 1, 5, 9 },  { 5, 11, 4 }, { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },
                                           { 3, 9, 4 },  { 3, 4, 2 },  { 3, 2, 6 },   { 3, 6, 8 },  { 3, 8, 9 },
                                           { 4, 9, 5 },  { 2, 4, 11 }, { 6, 2, 10 },  { 8, 6, 7 },  { 9, 8, 1 } };
    const double len = sqrt(1.0 + t * t);
    for (int i = 0; i < 12; ++i)
        s->vertices[i] = spx_v3((float)(base[i][0] / len * radius), (float)(base[i][1] / len * radius),
                                (float)(base[i][2] / len * radius));
    s->vertex_count = 12;
    memcpy(s->indices, faces, sizeof faces);
    s->triangle_count = 20;
    for (uint32_t l = 0; l < level; ++l) {
        uint32_t mid_count = 0, n = 0;
        for (uint32_t f = 0; f < s->triangle_count; ++f) {
            const uint32_t a = s->indices[3 * f], b = s->indices[3 * f + 1], c = s->indices[3 * f + 2];
            const uint32_t ab = midpoint(s, mids, &mid_count, a, b, radius);
            const uint32_t bc = midpoint(s, mids, &mid_count, b, c, radius);
            const uint32_t ca = midpoint(s, mids, &mid_count, c, a, radius);
            const uint32_t out[12] = { a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca };
            memcpy(next + n, out, sizeof out);
            n += 12;
        }
        memcpy(s->indices, next, sizeof(uint32_t) * n);
        s->triangle_count = n / 3;
    }
    free(next);
    free(mids);
    return true;
}

bool test_query_scene_build(test_query_scene* s, uint32_t count, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    bool ok = test_shape_icosphere(&s->shapes[0], 1.0f, 2) && test_shape_icosphere(&s->shapes[1], 2.5f, 3) &&
              test_shape_torus(&s->shapes[2], 1.5f, 0.4f, 24, 12) && test_shape_grid(&s->shapes[3], 6, 6);
    for (int m = 0; ok && m < TEST_QUERY_SCENE_MESHES; ++m)
        ok = (s->meshes[m] = test_shape_mesh(&s->shapes[m])) != NULL;
    s->bodies = calloc(count ? count : 1, sizeof *s->bodies);
    spx_world_def wd = spx_default_world_def();
    wd.body_capacity = count;
    if (!ok || !s->bodies || spx_world_create(&wd, &s->world) != SPX_OK) {
        test_query_scene_free(s);
        return false;
    }
    test_case_rng rng = { seed };
    const float half = TEST_QUERY_SCENE_HALF;
    for (uint32_t i = 0; i < count; ++i) {
        test_query_scene_body* qb = &s->bodies[i];
        const double kind = test_case_uniform(&rng, 0, 1), motion = test_case_uniform(&rng, 0, 1);
        qb->type = motion < 0.4 ? SPX_BODY_STATIC : SPX_BODY_DYNAMIC;
        qb->awake = qb->type == SPX_BODY_DYNAMIC && motion >= 0.7;
        spx_shape_def* sd = qb->shapes;
        sd[0] = sd[1] = spx_default_shape_def();
        qb->mesh_index[0] = qb->mesh_index[1] = UINT32_MAX;
        qb->shape_count = 1;
        if (kind < 0.6) {
            for (int k = 0; k < 2; ++k) {
                const float z = (float)test_case_log_uniform(&rng, 0.1, 2.0),
                            y = (float)test_case_log_uniform(&rng, 0.1, 2.0),
                            x = (float)test_case_log_uniform(&rng, 0.1, 2.0);
                sd[k].half_extents = spx_v3(x, y, z);
            }
            if (kind < 0.1) { /* a second box beside the first, turned */
                qb->shape_count = 2;
                sd[1].local.p = spx_v3(sd[0].half_extents.x + sd[1].half_extents.x, 0.0f, 0.0f);
                sd[1].local.q = test_case_random_quat(&rng);
            }
        } else {
            uint32_t m = kind < 0.75 ? 0u : kind < 0.85 ? 1u : kind < 0.95 ? 2u : 3u;
            if (m == 3) qb->type = SPX_BODY_STATIC, qb->awake = false; /* an open surface has no mass */
            sd[0].type = SPX_SHAPE_MESH;
            sd[0].mesh = s->meshes[m];
            qb->mesh_index[0] = m;
        }
        spx_body_def bd = spx_default_body_def();
        bd.type = qb->type;
        bd.awake = qb->awake;
        bd.position = test_case_random_vec3(&rng, -half, half);
        bd.rotation = test_case_random_quat(&rng);
        bd.shapes = sd;
        bd.shape_count = qb->shape_count;
        if (spx_body_create(s->world, &bd, &qb->id) != SPX_OK) {
            test_query_scene_free(s);
            return false;
        }
        s->body_count = i + 1;
    }
    return true;
}

void test_query_scene_free(test_query_scene* s)
{
    spx_world_destroy(s->world);
    for (int m = 0; m < TEST_QUERY_SCENE_MESHES; ++m) {
        spx_mesh_destroy(s->meshes[m]);
        test_shape_free(&s->shapes[m]);
    }
    free(s->bodies);
    memset(s, 0, sizeof *s);
}
