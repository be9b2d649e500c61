/* The mesh descents (src/collide/mesh_descent.c): the contact set kept by the first descent must be
 * the collecting descent's, bit for bit (the pairs, their order, every field, the sums, the deepest
 * pair and the depth along a normal), whatever room it has: room for every pair, room that fills up
 * and is cleared of pairs the falling best time leaves behind, room that overflows (then the
 * collecting descent must run). Random poses and motions of tori, spheres and grids, grids landing
 * flat and nearly flat on grids, swapped, far from the origin, and at rest (tmax 0, as the static
 * contacts query descends). */
#include <sepax/sepax.h>
#include "collide/mesh_descent.h"
#include "support/cases.h"
#include "support/pieces.h"
#include "support/shapes.h"
#include "support/test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROOM 4096

typedef struct stats {
    int queries, hits, starts, kept, overflowed;
} stats;

static spx_mesh_instance* place(const spx_mesh* m, spx_transform pose)
{
    spx_mesh_instance* inst = NULL;
    return test_place_mesh(m, pose, &inst) == SPX_OK ? inst : NULL;
}

static bool same_bits(const void* x, const void* y, size_t n) { return memcmp(x, y, n) == 0; }

/* The set of descent `d` (its FIRST done) by the gathered pairs and by descending again, compared. */
static int compare_sets(const spx_descent* first, spx_mesh_contact* c1, spx_mesh_contact* c2, stats* st)
{
    spx_descent g = *first, r = *first;
    const bool start = first->any_start;
    for (int k = 0; k < 2; ++k) {
        spx_descent* d = k ? &r : &g;
        d->mode = SPX_DESCENT_COLLECT;
        d->start_only = start;
        d->limit = start ? 0.0f : spx_window_end(first->best.time, first->tmax);
        d->tie_time = first->best.time;
        d->tie_count = 0;
        d->tie_normal_sum = d->tie_point_sum = spx_d3(0, 0, 0);
        d->contacts = k ? c2 : c1;
        d->capacity = ROOM;
    }
    r.gather = NULL;
    const bool kept = spx_descend_gathered(&g);
    TEST_ENSURE(kept == !first->gather_overflow);
    if (!kept) {
        ++st->overflowed;
        return 0;
    }
    ++st->kept;
    spx_descend(&r);
    TEST_ENSURE(g.found == r.found && g.count == r.count && g.tie_count == r.tie_count);
    TEST_ENSURE(same_bits(&g.best, &r.best, sizeof g.best));
    TEST_ENSURE(same_bits(&g.normal_sum, &r.normal_sum, sizeof g.normal_sum));
    TEST_ENSURE(same_bits(&g.point_sum, &r.point_sum, sizeof g.point_sum));
    TEST_ENSURE(same_bits(&g.tie_normal_sum, &r.tie_normal_sum, sizeof g.tie_normal_sum));
    TEST_ENSURE(same_bits(&g.tie_point_sum, &r.tie_point_sum, sizeof g.tie_point_sum));
    const uint32_t n = g.count < ROOM ? g.count : ROOM;
    TEST_ENSURE(same_bits(c1, c2, n * sizeof *c1));
    if (start && g.count > 0) { /* the depth along the mean normal */
        g.measure_depth = r.measure_depth = true;
        spx_dvec3 sum = g.normal_sum;
        const double len = sqrt(spx_d3_len2(sum));
        g.depth_normal = r.depth_normal = len > 0.0 ? spx_d3_scale(sum, 1.0 / len) : spx_d3(0, 1, 0);
        TEST_ENSURE(spx_descend_gathered(&g));
        spx_descend(&r);
        TEST_ENSURE(g.depth == r.depth);
    }
    return 0;
}

/* A against B (box NULL: mesh against mesh) with room for `room` gathered pairs. */
static int check_problem(const spx_obb* box, spx_mesh_instance* a, spx_mesh_instance* b, spx_vec3 va, spx_vec3 vb,
                         float tmax, uint32_t room, spx_gathered* gather, spx_mesh_contact* c1, spx_mesh_contact* c2,
                         stats* st)
{
    spx_descent d = { .box = box, .a = box ? NULL : a, .b = b, .velocity_a = va, .velocity_b = vb, .tmax = tmax };
    d.mode = SPX_DESCENT_FIRST;
    d.gather = gather;
    d.gather_capacity = room;
    spx_descend(&d);
    /* The first pair is the one a descent without a gather finds. */
    spx_descent plain = d;
    plain.gather = NULL;
    spx_descend(&plain);
    TEST_ENSURE(plain.found == d.found && plain.any_start == d.any_start);
    ++st->queries;
    if (!d.found) return 0;
    TEST_ENSURE(same_bits(&plain.best, &d.best, sizeof d.best));
    st->hits += !d.any_start;
    st->starts += d.any_start;
    return compare_sets(&d, c1, c2, st);
}

static spx_mesh* mesh_of(test_shape* s)
{
    spx_mesh* m = test_shape_mesh_leaf(s, 4);
    test_shape_free(s);
    return m;
}

static int gathered_set_is_the_collected_set(void)
{
    test_shape s;
    spx_mesh* meshes[4];
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 24, 12) && (meshes[0] = mesh_of(&s)));
    TEST_ENSURE(test_shape_solid_sphere(&s, 0.8f, 10, 20) && (meshes[1] = mesh_of(&s)));
    TEST_ENSURE(test_shape_grid(&s, 6, 6) && (meshes[2] = mesh_of(&s)));
    TEST_ENSURE(test_shape_grid(&s, 12, 12) && (meshes[3] = mesh_of(&s)));
    spx_gathered* gather = malloc(sizeof(spx_gathered) * ROOM);
    spx_mesh_contact* c1 = malloc(sizeof(spx_mesh_contact) * ROOM);
    spx_mesh_contact* c2 = malloc(sizeof(spx_mesh_contact) * ROOM);
    TEST_ENSURE(gather && c1 && c2);
    static const uint32_t rooms[5] = { 1, 3, 16, 200, ROOM };
    stats st = { 0 };
    test_case_rng rng = { 0x6A7E };
    const int n = test_cases(240);
    for (int c = 0; c < n; ++c) {
        const int ka = (int)(test_case_rng_next(&rng) % 4), kb = (int)(test_case_rng_next(&rng) % 4);
        const bool far = c % 3 == 2;
        const float off = far ? 1500.0f : 0.0f;
        const float ax = off + (float)test_case_uniform(&rng, -1, 1), ay = (float)test_case_uniform(&rng, -1, 1),
                    az = off + (float)test_case_uniform(&rng, -1, 1);
        spx_transform pa = { { ax, ay, az }, test_case_random_quat(&rng) },
                      pb = { { off, 0.0f, off }, test_case_random_quat(&rng) };
        if (c % 4 == 0) { /* level grids, one landing flat or nearly flat on the other */
            const double tilt = c % 8 == 0 ? 0.0 : test_case_log_uniform(&rng, 1e-6, 1e-2);
            pa.q = (spx_quat){ (float)sin(0.5 * tilt), 0.0f, 0.0f, (float)cos(0.5 * tilt) };
            pb.q = (spx_quat){ 0.0f, 0.0f, 0.0f, 1.0f };
            pa.p = spx_v3(off + 0.5f, 1.0f, off + 0.5f);
        }
        const bool flat = c % 4 == 0;
        spx_mesh* ma = flat ? meshes[3] : meshes[ka];
        spx_mesh* mb = flat ? meshes[2 + (c / 4) % 2] : meshes[kb];
        spx_mesh_instance *a = place(ma, pa), *b = place(mb, pb);
        TEST_ENSURE(a && b);
        spx_vec3 va = flat ? spx_v3(0.0f, -2.0f, 0.0f) : test_case_random_vec3(&rng, -2, 2);
        const spx_vec3 still = { 0.0f, 0.0f, 0.0f };
        spx_obb box;
        TEST_ENSURE_CODE(spx_obb_from_quat(pa.p, spx_v3(0.9f, 0.2f, 0.6f), pa.q, &box), SPX_OK);
        for (int r = 0; r < 5; ++r)
            for (int k = 0; k < 2; ++k) { /* swept, and at rest (tmax 0: the static contacts query) */
                const float tmax = k ? 0.0f : 1.0f;
                TEST_ENSURE(check_problem(NULL, a, b, va, still, tmax, rooms[r], gather, c1, c2, &st) == 0);
                TEST_ENSURE(check_problem(NULL, b, a, still, va, tmax, rooms[r], gather, c1, c2, &st) == 0);
                TEST_ENSURE(check_problem(&box, NULL, b, va, still, tmax, rooms[r], gather, c1, c2, &st) == 0);
            }
        spx_mesh_instance_destroy(a);
        spx_mesh_instance_destroy(b);
    }
    printf("  %d descents: %d hits, %d start overlaps; sets kept %d, overflowed %d\n", st.queries, st.hits, st.starts,
           st.kept, st.overflowed);
    TEST_ENSURE(st.kept > 0 && st.overflowed > 0 && st.hits > 0 && st.starts > 0);
    for (int k = 0; k < 4; ++k) spx_mesh_destroy(meshes[k]);
    free(gather);
    free(c1);
    free(c2);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(gathered_set_is_the_collected_set, failures);
    return failures != 0;
}
