/* Mesh queries on real meshes: models from Debian's assimp-testmodels read through tools/meshio (a
 * spider as binary STL and as OBJ, Wuson as PLY, an STL sphere with a hole, a CAD part as OBJ, a flat
 * concave polygon, a unit box whose one face is a 936-corner polygon of repeated corners, a PLY
 * cube), scaled to a metre or two, swept against each other and against boxes, and placed for the
 * static queries. Every answer is checked against the all-pairs brute force of
 * tests/support/mesh_brute.c, and every model pair also swapped. Built only with assimp (like
 * test_meshio); under AddressSanitizer the case counts are divided by 4. */
#include <sepax/sepax.h>
#include "meshio.h"
#include "support/cases.h"
#include "support/mesh_brute.h"
#include "support/test.h"
#include "support/models.h"
#include "support/pieces.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#ifndef SPX_ASSIMP_MODELS_DIR
#error "SPX_ASSIMP_MODELS_DIR must name assimp-testmodels' models folder (set by tests/CMakeLists.txt)"
#endif
#define MODELS SPX_ASSIMP_MODELS_DIR

/* The long variant runs every random case and the static queries; the default one an eighth of the
   swept cases. */
static bool long_run;
static int cases(int n) { return test_cases(long_run ? n : (n + 7) / 8); }

static const spx_vec3 ZERO = { 0, 0, 0 };
static const spx_transform IDENTITY = { { 0, 0, 0 }, { 0, 0, 0, 1 } };

/* ---- the models -------------------------------------------------------------------------------- */

typedef struct model {
    const char* file;   /* under MODELS */
    float scale;        /* to about a metre or two */
    uint32_t triangles; /* as tools/meshio reads them (test_meshio checks the counts it shares) */
    spx_mesh* mesh[3];  /* leaf sizes 1, 4, 16 */
    double radius;      /* farthest vertex from the bounding box's centre, m */
    spx_vec3 centre;    /* of the bounding box, m */
} model;

enum { SPIDER_STL, SPIDER_OBJ, WUSON, SPHERE_HOLE, CAD_PART, CONCAVE, LONG_BOX, CUBE, MODEL_COUNT };
static model MODELS_USED[MODEL_COUNT] = {
    { .file = "STL/Spider_binary.stl", .scale = 0.25f, .triangles = 1368 },
    { .file = "OBJ/spider.obj", .scale = 0.0125f, .triangles = 1368 },
    { .file = "PLY/Wuson.ply", .scale = 0.6f, .triangles = 3732 },
    { .file = "STL/sphereWithHole.stl", .scale = 0.5f, .triangles = 285 },
    { .file = "OBJ/regr01.obj", .scale = 1.0f / 600.0f, .triangles = 2710 },
    { .file = "OBJ/concave_polygon.obj", .scale = 1.0f, .triangles = 64 },
    { .file = "OBJ/box_longline.obj", .scale = 1.0f, .triangles = 944 },
    { .file = "PLY/cube_binary.ply", .scale = 1.0f, .triangles = 12 },
};
static const uint32_t LEAVES[3] = { 1, 4, 16 };

static int load_models(void)
{
    for (int k = 0; k < MODEL_COUNT; ++k) {
        model* md = &MODELS_USED[k];
        char path[512], why[512];
        snprintf(path, sizeof path, "%s/%s", MODELS, md->file);
        spx_meshio_mesh m;
        spx_meshio_result r = spx_meshio_load(path, md->scale, &m, why, sizeof why);
        if (r != SPX_MESHIO_OK) fprintf(stderr, "%s\n", why);
        TEST_ENSURE_CODE(r, SPX_MESHIO_OK);
        int bad = m.triangle_count != md->triangles;
        double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
        for (uint32_t i = 0; i < m.vertex_count; ++i) {
            const float* p = &m.vertices[i].x;
            for (int c = 0; c < 3; ++c) lo[c] = fmin(lo[c], p[c]), hi[c] = fmax(hi[c], p[c]);
        }
        md->centre = spx_v3((float)((lo[0] + hi[0]) / 2), (float)((lo[1] + hi[1]) / 2), (float)((lo[2] + hi[2]) / 2));
        md->radius = 0;
        for (uint32_t i = 0; i < m.vertex_count; ++i) {
            const float* p = &m.vertices[i].x;
            double d[3] = { p[0] - (double)md->centre.x, p[1] - (double)md->centre.y, p[2] - (double)md->centre.z };
            md->radius = fmax(md->radius, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
        }
        for (int l = 0; l < 3 && !bad; ++l) {
            spx_mesh_def def = spx_default_mesh_def();
            def.vertices = m.vertices, def.vertex_count = m.vertex_count;
            def.indices = m.indices, def.triangle_count = m.triangle_count;
            def.leaf_triangles = LEAVES[l];
            bad = spx_mesh_create(&def, &md->mesh[l]) != SPX_OK;
        }
        spx_meshio_free(&m);
        if (bad)
            fprintf(stderr, "%s: %u triangles (expected %u), or no mesh made\n", md->file, m.triangle_count,
                    md->triangles);
        TEST_ENSURE(!bad);
        spx_mesh_info info;
        TEST_ENSURE_CODE(spx_mesh_get_info(md->mesh[1], &info), SPX_OK);
        printf("  %-26s %5u triangles (%u degenerate), radius %.2f m\n", md->file, info.triangle_count,
               info.degenerate_count, md->radius);
    }
    return 0;
}

static void free_models(void)
{
    for (int k = 0; k < MODEL_COUNT; ++k)
        for (int l = 0; l < 3; ++l) spx_mesh_destroy(MODELS_USED[k].mesh[l]), MODELS_USED[k].mesh[l] = NULL;
}

/* ---- random placement and motion ---------------------------------------------------------------- */

static spx_quat random_rotation(test_case_rng* rng)
{ /* uniform mostly; identities and quarter turns for parallel faces */
    double u = test_case_uniform(rng, 0, 1);
    if (u < 0.15) return IDENTITY.q;
    if (u < 0.3) {
        int axis = (int)(test_case_rng_next(rng) % 3);
        double a = (1 + (int)(test_case_rng_next(rng) % 3)) * 3.141592653589793 / 4.0;
        spx_quat q = { 0, 0, 0, (float)cos(a) };
        (&q.x)[axis] = (float)sin(a);
        return q;
    }
    return test_case_random_quat(rng);
}

/* The pose that puts a model's box centre at `at` with rotation q. */
static spx_transform centred(const model* md, spx_vec3 at, spx_quat q)
{
    double c[3] = { md->centre.x, md->centre.y, md->centre.z }, r[3];
    test_case_rotate(q, c, r);
    return (spx_transform){ { (float)(at.x - r[0]), (float)(at.y - r[1]), (float)(at.z - r[2]) }, q };
}

/* B's centre at a random direction from A's, from inside reach to nearly twice it; B mostly closing
   on A with a wobble; speeds that cover the gap in about the interval. */
static void random_motion(test_case_rng* rng, double ra, double rb, spx_vec3* ca, spx_vec3* cb, spx_vec3* va,
                          spx_vec3* vb, float* tmax)
{
    double c[3], dir[3], wobble[3], base[3];
    for (int k = 0; k < 3; ++k) c[k] = test_case_uniform(rng, -2, 2);
    test_case_unit_vector(rng, dir);
    double dist = (ra + rb) * test_case_uniform(rng, 0.0, 1.6);
    *ca = spx_v3((float)c[0], (float)c[1], (float)c[2]);
    *cb = spx_v3((float)(c[0] + dir[0] * dist), (float)(c[1] + dir[1] * dist), (float)(c[2] + dir[2] * dist));
    static const float tmaxes[3] = { 1.0f, 0.5f, 1.0f / 60.0f };
    *tmax = tmaxes[test_case_rng_next(rng) % 3];
    test_case_unit_vector(rng, wobble);
    double w = test_case_uniform(rng, 0, 0.6), rel[3], n = 0;
    for (int k = 0; k < 3; ++k) rel[k] = -dir[k] + w * wobble[k], n += rel[k] * rel[k];
    double speed = (ra + rb) * test_case_uniform(rng, 0.2, 2.0) / *tmax / sqrt(n);
    test_case_unit_vector(rng, base);
    double bs = test_case_uniform(rng, 0, 1.5);
    *va = spx_v3((float)(base[0] * bs), (float)(base[1] * bs), (float)(base[2] * bs));
    *vb = spx_v3((float)(va->x + rel[0] * speed), (float)(va->y + rel[1] * speed), (float)(va->z + rel[2] * speed));
}

static double seconds_since(clock_t start) { return (double)(clock() - start) / CLOCKS_PER_SEC; }

/* ---- tests --------------------------------------------------------------------------------------- */

/* Prints a swept comparison's figures (`count` `what`s); it passed with no failure and met every state. */
static int swept_comparison_passed(const char* name, const test_brute_stats* st, clock_t start, int failures, int count,
                                   const char* what)
{
    test_brute_print_stats(name, st, seconds_since(start));
    printf("  %d %s\n", count, what);
    TEST_ENSURE(failures == 0);
    TEST_ENSURE(st->hits > 0 && st->misses > 0 && st->overlaps > 0);
    return 0;
}

static int models_swept_against_each_other(void)
{ /* Pairs of models (the largest brute forces: 1368 x 3732 triangles), random rotations (some
       quarter turns: parallel faces), random approaches, leaf sizes 1, 4, 16: the query against the
       brute force, and swapped against the unswapped answer. */
    static const struct {
        int a, b, n;
    } pairs[] = {
        { SPIDER_STL, WUSON, 4 },      { WUSON, SPHERE_HOLE, 8 }, { CAD_PART, SPIDER_OBJ, 3 },
        { SPIDER_STL, SPIDER_STL, 5 }, { CONCAVE, CONCAVE, 16 },  { LONG_BOX, CUBE, 16 },
        { SPHERE_HOLE, CONCAVE, 12 },  { CUBE, SPIDER_OBJ, 10 },
    };
    test_case_rng rng = { 0x5E9A4001u };
    test_brute_stats st = { 0 };
    int failures = 0, total = 0;
    clock_t start = clock();
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
        const model *ma = &MODELS_USED[pairs[p].a], *mb = &MODELS_USED[pairs[p].b];
        for (int c = 0; c < cases(pairs[p].n); ++c, ++total) {
            spx_vec3 ca, cb, va, vb;
            float tmax;
            random_motion(&rng, ma->radius, mb->radius, &ca, &cb, &va, &vb, &tmax);
            uint32_t la = (uint32_t)(test_case_rng_next(&rng) % 3), lb = (uint32_t)(test_case_rng_next(&rng) % 3);
            spx_mesh_instance *a = NULL, *b = NULL;
            spx_transform ta = centred(ma, ca, random_rotation(&rng)), tb = centred(mb, cb, random_rotation(&rng));
            TEST_ENSURE_CODE(test_place_mesh(ma->mesh[la], ta, &a), SPX_OK);
            TEST_ENSURE_CODE(test_place_mesh(mb->mesh[lb], tb, &b), SPX_OK);
            char label[256];
            snprintf(label, sizeof label, "%s (leaf %u) against %s (leaf %u), case %d", ma->file, LEAVES[la], mb->file,
                     LEAVES[lb], c);
            test_brute_query q = { NULL, a, b, va, vb, tmax };
            failures += test_brute_check_sweep(&q, c % 4 == 3 ? 3u : UINT32_MAX, label, &st, NULL);
            failures += test_brute_check_swapped(&q, label,
                                                 test_brute_len3(ca) + test_brute_len3(cb) + ma->radius + mb->radius);
            spx_mesh_instance_destroy(a);
            spx_mesh_instance_destroy(b);
        }
    }
    return swept_comparison_passed("models", &st, start, failures, total, "model pairs");
}

static int boxes_swept_against_models(void)
{ /* Random boxes (flat to cubic, random and axis-aligned rotations) swept against every model. */
    test_case_rng rng = { 0x5E9A4002u };
    test_brute_stats st = { 0 };
    int failures = 0, total = 0;
    clock_t start = clock();
    for (int k = 0; k < MODEL_COUNT; ++k) {
        const model* mb = &MODELS_USED[k];
        for (int c = 0; c < cases(40); ++c, ++total) {
            double base = mb->radius * test_case_uniform(&rng, 0.05, 0.8);
            const float hx = (float)(base * test_case_log_uniform(&rng, 0.05, 1)),
                        hy = (float)(base * test_case_log_uniform(&rng, 0.05, 1)),
                        hz = (float)(base * test_case_log_uniform(&rng, 0.05, 1));
            spx_vec3 h = { hx, hy, hz };
            spx_vec3 ca, cb, va, vb;
            float tmax;
            random_motion(&rng, test_brute_len3(h), mb->radius, &ca, &cb, &va, &vb, &tmax);
            spx_obb box;
            TEST_ENSURE_CODE(spx_obb_from_quat(ca, h, random_rotation(&rng), &box), SPX_OK);
            uint32_t lb = (uint32_t)(test_case_rng_next(&rng) % 3);
            spx_mesh_instance* b = NULL;
            spx_transform tb = centred(mb, cb, random_rotation(&rng));
            TEST_ENSURE_CODE(test_place_mesh(mb->mesh[lb], tb, &b), SPX_OK);
            char label[256];
            snprintf(label, sizeof label, "box against %s (leaf %u), case %d", mb->file, LEAVES[lb], c);
            test_brute_query q = { &box, NULL, b, va, vb, tmax };
            failures += test_brute_check_sweep(&q, c % 4 == 3 ? 2u : UINT32_MAX, label, &st, NULL);
            spx_mesh_instance_destroy(b);
        }
    }
    return swept_comparison_passed("boxes on models", &st, start, failures, total, "boxes");
}

static int models_static(void)
{ /* The static queries at random poses, model against model and box against model: spx_overlap_*
       and spx_contacts_* against the brute force's overlapping pairs. */
    static const struct {
        int a, b;
    } pairs[] = {
        { SPIDER_STL, WUSON }, { WUSON, SPHERE_HOLE }, { CAD_PART, SPIDER_OBJ },
        { CONCAVE, CONCAVE },  { LONG_BOX, CUBE },
    };
    test_case_rng rng = { 0x5E9A4003u };
    test_brute_stats st = { 0 };
    int failures = 0, overlapping = 0, total = 0;
    uint64_t inconsistent = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
        const model *ma = &MODELS_USED[pairs[p].a], *mb = &MODELS_USED[pairs[p].b];
        for (int c = 0; c < cases(4); ++c, ++total) {
            spx_vec3 ca, cb, va, vb;
            float tmax;
            random_motion(&rng, 0.6 * ma->radius, 0.6 * mb->radius, &ca, &cb, &va, &vb, &tmax);
            spx_mesh_instance *a = NULL, *b = NULL;
            spx_transform ta = centred(ma, ca, random_rotation(&rng)), tb = centred(mb, cb, random_rotation(&rng));
            TEST_ENSURE_CODE(test_place_mesh(ma->mesh[c % 3], ta, &a), SPX_OK);
            TEST_ENSURE_CODE(test_place_mesh(mb->mesh[(c + 1) % 3], tb, &b), SPX_OK);
            char label[256];
            snprintf(label, sizeof label, "static %s against %s, case %d", ma->file, mb->file, c);
            test_brute_query q = { NULL, a, b, ZERO, ZERO, 0.0f };
            failures += test_brute_check_static(&q, label, &st, &overlapping, &inconsistent);
            /* a box about A's centre, half its size */
            spx_obb box;
            float hb = (float)(0.5 * ma->radius);
            TEST_ENSURE_CODE(spx_obb_from_quat(ca, spx_v3(hb, 0.3f * hb, 0.7f * hb), random_rotation(&rng), &box),
                             SPX_OK);
            test_brute_query qb = { &box, NULL, b, ZERO, ZERO, 0.0f };
            snprintf(label, sizeof label, "static box against %s, case %d", mb->file, c);
            failures += test_brute_check_static(&qb, label, &st, &overlapping, &inconsistent);
            total++;
            spx_mesh_instance_destroy(a);
            spx_mesh_instance_destroy(b);
        }
    }
    test_brute_print_stats("static on models", &st, 0.0);
    printf("  %d static queries, %d overlapping; single-pair tests disagreeing with each other: %llu\n", total,
           overlapping, (unsigned long long)inconsistent);
    TEST_ENSURE(failures == 0);
    TEST_ENSURE(overlapping > 0 && overlapping < total);
    return 0;
}

/* Does the closed triangle (or segment, or point, when corners are equal) t of the plane x = const
   meet the square |y - cy|, |z - cz| <= h? Separating axes in y-z: the square's two and the
   triangle's edge normals. */
static bool meets_square(const spx_triangle* t, double cy, double cz, double h)
{
    double axes[5][2] = { { 1, 0 }, { 0, 1 } };
    int n = 2;
    for (int e = 0; e < 3; ++e) {
        const spx_vec3 p = t->v[e], q = t->v[(e + 1) % 3];
        if (p.y == q.y && p.z == q.z) continue;
        axes[n][0] = -((double)q.z - p.z), axes[n][1] = (double)q.y - p.y;
        if (++n == 5) break;
    }
    for (int a = 0; a < n; ++a) {
        double lo = INFINITY, hi = -INFINITY;
        for (int c = 0; c < 3; ++c) {
            double d = (t->v[c].y - cy) * axes[a][0] + (t->v[c].z - cz) * axes[a][1];
            lo = fmin(lo, d), hi = fmax(hi, d);
        }
        double r = h * (fabs(axes[a][0]) + fabs(axes[a][1]));
        if (lo > r || hi < -r) return false;
    }
    return true;
}

static int box_dropped_on_repeated_face(void)
{ /* box_longline.obj is a unit box whose x = -0.5 face is one polygon of 936 corners going round
       the same four again and again: assimp cuts it into 934 triangles, copies of the same few lying
       on each other, half of them segments (two equal corners) along the face's sides and diagonals.
       A box 2 m from the face moving at 4 m/s along x lands flat on it at t = 0.5, touching at once
       every piece that meets its face in that plane (a square about the face's centre of half side
       0.3 or 0.8, or off centre about (0.3, 0.3) of half side 0.15): the pieces of the face whose
       region meets the square, and, once the square reaches past the face, the side faces' triangles
       by their edges and corners. That set is worked out here from the mesh's own triangles, and the
       first by the tie rule is the lowest of their numbers; also onto the x = +0.5 face (two
       triangles). Leaf sizes 1, 4 and 16. */
    static const struct {
        float side, cy, cz, half;
    } drops[5] = { { -1, 0.0f, 0.0f, 0.3f },
                   { -1, 0.0f, 0.0f, 0.8f },
                   { -1, 0.3f, 0.3f, 0.15f },
                   { -1, -0.3f, 0.3f, 0.15f },
                   { 1, 0.0f, 0.0f, 0.8f } };
    const model* md = &MODELS_USED[LONG_BOX];
    int failures = 0;
    for (int l = 0; l < 3; ++l) {
        spx_mesh_info info;
        TEST_ENSURE_CODE(spx_mesh_get_info(md->mesh[l], &info), SPX_OK);
        for (int d = 0; d < 5; ++d) {
            const float plane = 0.5f * drops[d].side;
            uint32_t on_face = 0, touching = 0, lowest = UINT32_MAX;
            for (uint32_t i = 0; i < info.triangle_count; ++i) {
                spx_triangle t;
                uint32_t src;
                TEST_ENSURE_CODE(spx_mesh_get_triangle(md->mesh[l], i, &t, &src), SPX_OK);
                /* what lies in the plane: the whole piece, an edge or a corner of it */
                spx_triangle in_plane;
                int k = 0;
                for (int c = 0; c < 3; ++c)
                    if (t.v[c].x == plane) in_plane.v[k++] = t.v[c];
                if (k == 0) continue;
                on_face += k == 3;
                for (int c = k; c < 3; ++c) in_plane.v[c] = in_plane.v[0];
                if (!meets_square(&in_plane, drops[d].cy, drops[d].cz, drops[d].half)) continue;
                ++touching;
                lowest = src < lowest ? src : lowest;
            }
            TEST_ENSURE(on_face == (drops[d].side < 0 ? 934u : 2u) && touching > 0);
            spx_mesh_instance* b = NULL;
            TEST_ENSURE_CODE(test_place_mesh(md->mesh[l], IDENTITY, &b), SPX_OK);
            spx_obb box;
            TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(3.0f * drops[d].side, drops[d].cy, drops[d].cz),
                                               spx_v3(0.5f, drops[d].half, drops[d].half), IDENTITY.q, &box),
                             SPX_OK);
            test_brute_query q = { &box, NULL, b, spx_v3(-4.0f * drops[d].side, 0.0f, 0.0f), ZERO, 1.0f };
            test_brute_stats st = { 0 };
            spx_mesh_hit h;
            char label[128];
            snprintf(label, sizeof label, "box onto the box's x = %+.1f face, leaf %u, drop %d", (double)plane,
                     LEAVES[l], d);
            failures += test_brute_check_sweep(&q, UINT32_MAX, label, &st, &h);
            TEST_ENSURE(h.state == SPX_SWEEP_HIT);
            TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
            TEST_ENSURE_NEAR(h.normal.x, -drops[d].side, 1e-6);
            if (l == 1)
                printf("  x = %+.1f, square of half side %.2f about (%.1f, %.1f): %u contacts (%u pieces meet it), "
                       "first %u\n",
                       (double)plane, (double)drops[d].half, (double)drops[d].cy, (double)drops[d].cz, h.contact_count,
                       touching, h.first.triangle_b);
            TEST_ENSURE(h.contact_count == touching);
            TEST_ENSURE(h.first.triangle_b == lowest);
            spx_mesh_instance_destroy(b);
        }
    }
    TEST_ENSURE(failures == 0);
    return 0;
}

int main(int argc, char** argv)
{
    long_run = test_long_run(argc, argv);
    if (!test_models_found("test_mesh_query_models", MODELS)) return 1;
    int failures = 0;
    clock_t start = clock();
    TEST_RUN(load_models, failures);
    if (failures == 0) {
        TEST_RUN(box_dropped_on_repeated_face, failures);
        TEST_RUN(models_swept_against_each_other, failures);
        TEST_RUN(boxes_swept_against_models, failures);
        if (long_run) TEST_RUN(models_static, failures); /* the brute force of big pairs at rest */
    }
    free_models();
    printf("%.1f s of processor time%s\n", seconds_since(start), TEST_SANITIZED ? " (sanitized: cases / 4)" : "");
    return failures != 0;
}
