/* Mesh queries: box against mesh and mesh against mesh, continuous and static, checked
 * against the all-pairs brute force of tests/support/mesh_brute.c (every world triangle of A
 * against every world triangle of B with the single-pair tests of collide.h), on random problems
 * over generated shapes and on hand-built ones where many pairs tie for first; then swapped
 * arguments, the whole problem moved far away and rotated, the static queries, every error code,
 * and instances: poses, the cache after a move, allocation.
 *
 * Random problems come from one splitmix64 stream per test (tests/support/cases.h), so a failing
 * case is reproduced from the number printed with it. Built with AddressSanitizer the random case
 * counts are divided by 4 (the brute force is the cost). */
#include <sepax/sepax.h>
#include "support/cases.h"
#include "support/mesh_brute.h"
#include "support/shapes.h"
#include "support/test.h"
#include "support/pieces.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "support/counting_alloc.h"

typedef test_brute_query query;

/* The long variant runs every random case; the default one an eighth of them. */
static bool long_run;
static int cases(int n) { return test_cases(long_run ? n : (n + 7) / 8); }

static const spx_vec3 ZERO = { 0, 0, 0 };
static const spx_transform IDENTITY = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
/* The leaf sizes the meshes are built with: one triangle a leaf, the default, the largest. */
static const uint32_t LEAF_SIZES[3] = { 1, 4, 16 };

/* ---- small helpers ----------------------------------------------------------------------------- */

static spx_mesh_instance* place(const spx_mesh* m, spx_transform pose)
{
    spx_mesh_instance* inst = NULL;
    return test_place_mesh(m, pose, &inst) == SPX_OK ? inst : NULL;
}

static spx_transform pose_at(float x, float y, float z) { return (spx_transform){ { x, y, z }, { 0, 0, 0, 1 } }; }

static spx_vec3 vec_of(const double d[3]) { return spx_v3((float)d[0], (float)d[1], (float)d[2]); }

/* q * r in double, normalised, rounded to float. */
static spx_quat quat_mul(spx_quat q, spx_quat r)
{
    double x = (double)q.w * r.x + (double)q.x * r.w + (double)q.y * r.z - (double)q.z * r.y;
    double y = (double)q.w * r.y - (double)q.x * r.z + (double)q.y * r.w + (double)q.z * r.x;
    double z = (double)q.w * r.z + (double)q.x * r.y - (double)q.y * r.x + (double)q.z * r.w;
    double w = (double)q.w * r.w - (double)q.x * r.x - (double)q.y * r.y - (double)q.z * r.z;
    double n = sqrt(x * x + y * y + z * z + w * w);
    return (spx_quat){ (float)(x / n), (float)(y / n), (float)(z / n), (float)(w / n) };
}

/* The pose moved rigidly: x -> R(q) x + shift. */
static spx_transform move_pose(spx_transform pose, spx_quat q, spx_vec3 shift)
{
    double p[3] = { pose.p.x, pose.p.y, pose.p.z }, r[3];
    test_case_rotate(q, p, r);
    spx_transform out;
    out.p = spx_v3((float)(r[0] + shift.x), (float)(r[1] + shift.y), (float)(r[2] + shift.z));
    out.q = quat_mul(q, pose.q);
    return out;
}

/* ---- random problems ----------------------------------------------------------------------------- */

enum { SHAPE_TORUS, SHAPE_SPHERE, SHAPE_GRID, SHAPE_STRIP, SHAPE_SOUP, SHAPE_KINDS };
static const char* const SHAPE_NAMES[SHAPE_KINDS] = { "torus", "sphere", "grid", "strip", "soup" };

static uint32_t at_least(double x, uint32_t lo) { return x > (double)lo ? (uint32_t)x : lo; }

/* A generated shape of about `target` triangles, centred on its bounding box and scaled so that its
   farthest vertex is `radius` from the centre. */
static bool random_shape(test_case_rng* rng, int kind, uint32_t target, double radius, test_shape* s)
{
    double half = target / 2.0;
    bool ok;
    switch (kind) {
    case SHAPE_TORUS: {
        uint32_t nv = at_least(sqrt(half / 2.0), 3), nu = at_least(half / nv, 3);
        ok = test_shape_torus(s, 1.0f, (float)test_case_uniform(rng, 0.15, 0.5), nu, nv);
        break;
    }
    case SHAPE_SPHERE: {
        uint32_t nlat = at_least(sqrt(half / 2.0), 2), nlon = at_least(half / nlat, 3);
        ok = test_shape_sphere(s, 1.0f, nlat, nlon);
        break;
    }
    case SHAPE_GRID: {
        uint32_t nx = at_least(sqrt(half * test_case_log_uniform(rng, 0.25, 4.0)), 1), nz = at_least(half / nx, 1);
        ok = test_shape_grid(s, nx, nz);
        break;
    }
    case SHAPE_STRIP:
        ok = test_shape_strip(s, 3.0f, (float)test_case_log_uniform(rng, 0.01, 0.5), at_least(half, 1));
        break;
    default: {
        const uint64_t seed = test_case_rng_next(rng);
        ok = test_shape_random(s, at_least(target, 1), 2.0f, (float)test_case_uniform(rng, 0.2, 1.0), seed);
        break;
    }
    }
    if (!ok) return false;
    double lo[3] = { DBL_MAX, DBL_MAX, DBL_MAX }, hi[3] = { -DBL_MAX, -DBL_MAX, -DBL_MAX };
    for (uint32_t i = 0; i < s->vertex_count; ++i) {
        const float* p = &s->vertices[i].x;
        for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], p[k]), hi[k] = fmax(hi[k], p[k]);
    }
    double c[3] = { (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2 }, far = 0;
    for (uint32_t i = 0; i < s->vertex_count; ++i) {
        const float* p = &s->vertices[i].x;
        double d[3] = { p[0] - c[0], p[1] - c[1], p[2] - c[2] };
        far = fmax(far, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
    double k = radius / far;
    for (uint32_t i = 0; i < s->vertex_count; ++i) {
        float* p = &s->vertices[i].x;
        for (int j = 0; j < 3; ++j) p[j] = (float)((p[j] - c[j]) * k);
    }
    return true;
}

/* Mostly uniform rotations; some identities and quarter turns, which make faces and edges of
   the two sides parallel (the coplanar contacts and exact ties that random rotations never give). */
static spx_quat random_rotation(test_case_rng* rng)
{
    double u = test_case_uniform(rng, 0, 1);
    if (u < 0.15) return IDENTITY.q;
    if (u < 0.3) {
        int axis = (int)(test_case_rng_next(rng) % 3), turns = 1 + (int)(test_case_rng_next(rng) % 3);
        double a = turns * 3.141592653589793 / 4.0; /* half of a quarter turn times `turns` */
        spx_quat q = { 0, 0, 0, (float)cos(a) };
        (&q.x)[axis] = (float)sin(a);
        return q;
    }
    return test_case_random_quat(rng);
}

static uint32_t random_leaf(test_case_rng* rng) { return LEAF_SIZES[test_case_rng_next(rng) % 3]; }

/* Where B starts and how the two move: B at a random direction from A, from inside A's reach to
   nearly twice it, mostly closing on A (with a wobble), sometimes along an axis or not at all,
   sometimes fast enough to pass through and far beyond. */
static void random_motion(test_case_rng* rng, double ra, double rb, spx_vec3* pa, spx_vec3* pb, spx_vec3* va,
                          spx_vec3* vb, float* tmax)
{
    double c[3], dir[3];
    for (int k = 0; k < 3; ++k) c[k] = test_case_uniform(rng, -3, 3);
    test_case_unit_vector(rng, dir);
    double dist = (ra + rb) * test_case_uniform(rng, 0.0, 1.8);
    *pa = vec_of(c);
    *pb = spx_v3((float)(c[0] + dir[0] * dist), (float)(c[1] + dir[1] * dist), (float)(c[2] + dir[2] * dist));
    static const float tmaxes[4] = { 1.0f, 0.5f, 2.0f, 1.0f / 60.0f };
    *tmax = tmaxes[test_case_rng_next(rng) % 4];
    double rel[3] = { 0, 0, 0 }, u = test_case_uniform(rng, 0, 1);
    if (u >= 0.1) {
        double wobble[3], w = test_case_uniform(rng, 0, 0.7);
        test_case_unit_vector(rng, wobble);
        for (int k = 0; k < 3; ++k) rel[k] = -dir[k] + w * wobble[k];
        if (u < 0.25) { /* along the axis nearest the direction */
            int m = 0;
            for (int k = 1; k < 3; ++k) m = fabs(rel[k]) > fabs(rel[m]) ? k : m;
            for (int k = 0; k < 3; ++k) rel[k] = k == m ? (rel[k] > 0 ? 1 : -1) : 0;
        }
        double n = sqrt(rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2]);
        /* one in seven fast: crossing up to 100 times the pair's reach in the interval */
        double reach = test_case_uniform(rng, 0, 1) < 0.15 ? test_case_log_uniform(rng, 2.5, 100.0)
                                                           : test_case_uniform(rng, 0.2, 2.5);
        double speed = (ra + rb) * reach / *tmax;
        for (int k = 0; k < 3; ++k) rel[k] *= speed / n;
    }
    double base[3];
    test_case_unit_vector(rng, base);
    double bs = test_case_uniform(rng, 0, 1) < 0.3 ? 0.0 : test_case_uniform(rng, 0, 2);
    *va = spx_v3((float)(base[0] * bs), (float)(base[1] * bs), (float)(base[2] * bs));
    *vb = spx_v3((float)(va->x + rel[0]), (float)(va->y + rel[1]), (float)(va->z + rel[2]));
}

/* Triangle counts: mostly a few hundred, some a few thousand against a smaller other side, so the
   brute force stays under about a million pair tests a case. */
static void random_sizes(test_case_rng* rng, uint32_t* na, uint32_t* nb)
{
    uint32_t n[2];
    for (int k = 0; k < 2; ++k) {
        double u = test_case_uniform(rng, 0, 1);
        n[k] = (uint32_t)(u < 0.3    ? test_case_log_uniform(rng, 8, 120)
                          : u < 0.85 ? test_case_log_uniform(rng, 120, 700)
                                     : test_case_log_uniform(rng, 1000, 3500));
    }
    while ((double)n[0] * n[1] > 9e5) n[n[0] < n[1] ? 0 : 1] /= 2;
    *na = n[0], *nb = n[1];
}

/* One random side: a shape made into a mesh, and its description for labels. */
typedef struct side {
    int kind;
    uint32_t leaf;
    double radius;
    test_shape shape;
    spx_mesh* mesh;
    spx_mesh_instance* inst;
} side;

static bool side_make(side* s, test_case_rng* rng, uint32_t target, spx_vec3 p, spx_quat q)
{
    memset(s, 0, sizeof *s);
    s->kind = (int)(test_case_rng_next(rng) % SHAPE_KINDS);
    s->leaf = random_leaf(rng);
    /* mostly a metre or so; one in seven from a centimetre to a hundred metres */
    s->radius = test_case_uniform(rng, 0, 1) < 0.15 ? test_case_log_uniform(rng, 0.01, 100.0)
                                                    : test_case_uniform(rng, 0.4, 1.5);
    if (!random_shape(rng, s->kind, target, s->radius, &s->shape)) return false;
    s->mesh = test_shape_mesh_leaf(&s->shape, s->leaf);
    s->inst = s->mesh ? place(s->mesh, (spx_transform){ p, q }) : NULL;
    return s->inst != NULL;
}

static void side_free(side* s)
{
    spx_mesh_instance_destroy(s->inst);
    spx_mesh_destroy(s->mesh);
    test_shape_free(&s->shape);
}

static void side_label(const side* s, char* out, size_t size)
{
    snprintf(out, size, "%s of %u triangles, leaf %u", SHAPE_NAMES[s->kind], s->shape.triangle_count, s->leaf);
}

/* "<what> case <c>: A <side>, B <side>", the label of a random pair's failures. */
static void pair_label(char* out, size_t size, const char* what, int c, const side* A, const side* B)
{
    char la[96], lb[96];
    side_label(A, la, sizeof la), side_label(B, lb, sizeof lb);
    snprintf(out, size, "%s case %d: A %s, B %s", what, c, la, lb);
}

/* A grazing pass: B's start moved sideways (across the relative motion) to the edge between
   touching and missing, found by bisection with the query itself; both sides of the edge then
   go to the brute force. A bound test that drops a barely touching pair shows up here. */
static int graze(const query* q, test_case_rng* rng, double reach, const char* label, test_brute_stats* st, int* grazed)
{
    spx_vec3 rel = spx_v3(q->vb.x - q->va.x, q->vb.y - q->va.y, q->vb.z - q->va.z);
    double rl = test_brute_len3(rel);
    if (rl == 0.0) return 0;
    double d[3], r[3] = { rel.x / rl, rel.y / rl, rel.z / rl };
    test_case_unit_vector(rng, d);
    double along = d[0] * r[0] + d[1] * r[1] + d[2] * r[2];
    for (int k = 0; k < 3; ++k) d[k] -= along * r[k];
    double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (dl < 1e-3) return 0;
    for (int k = 0; k < 3; ++k) d[k] /= dl;
    spx_transform home;
    TEST_ENSURE_CODE(spx_mesh_instance_get_pose(q->b, &home), SPX_OK);
    test_brute_buffer none = { NULL, 0 };
    double lo = 0, hi = reach * 1.01 + 1e-3;
    spx_transform at[2] = { home, home };
    int failed = 0;
    for (int it = 0; it < 64; ++it) {
        double s = it == 0 ? hi : (lo + hi) / 2;
        spx_transform t = home;
        t.p = spx_v3((float)(home.p.x + d[0] * s), (float)(home.p.y + d[1] * s), (float)(home.p.z + d[2] * s));
        if (it > 0 && (memcmp(&t.p, &at[0].p, sizeof t.p) == 0 || memcmp(&t.p, &at[1].p, sizeof t.p) == 0)) break;
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(q->b, &t), SPX_OK);
        spx_mesh_hit h;
        TEST_ENSURE_CODE(test_brute_run_sweep(q, &none, &h), SPX_OK);
        bool touch = h.state != SPX_SWEEP_MISS;
        if (it == 0) {
            if (touch) { /* sideways by the whole reach still touches: no edge to find this way */
                TEST_ENSURE_CODE(spx_mesh_instance_set_pose(q->b, &home), SPX_OK);
                return 0;
            }
            at[1] = t;
            continue;
        }
        if (touch) lo = s, at[0] = t;
        else hi = s, at[1] = t;
    }
    char l2[256];
    for (int k = 0; k < 2; ++k) {
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(q->b, &at[k]), SPX_OK);
        snprintf(l2, sizeof l2, "%s, grazing (%s side)", label, k == 0 ? "touching" : "missing");
        failed |= test_brute_check_sweep(q, UINT32_MAX, l2, st, NULL);
    }
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(q->b, &home), SPX_OK);
    ++*grazed;
    return failed;
}

/* The end of the interval: tmax equal to the first time of contact (touching exactly at tmax is a
   hit) and one float step below it. */
static int tmax_edge(const query* q, float first_time, const char* label, test_brute_stats* st)
{
    query e = *q;
    char l2[256];
    int failed = 0;
    e.tmax = first_time;
    snprintf(l2, sizeof l2, "%s, tmax = first time %a", label, first_time);
    failed |= test_brute_check_sweep(&e, UINT32_MAX, l2, st, NULL);
    e.tmax = nextafterf(first_time, 0.0f);
    snprintf(l2, sizeof l2, "%s, tmax one step below the first time", label);
    failed |= test_brute_check_sweep(&e, UINT32_MAX, l2, st, NULL);
    return failed;
}

static double seconds_since(clock_t start) { return (double)(clock() - start) / CLOCKS_PER_SEC; }

/* ---- the random comparisons ------------------------------------------------------------------------ */

/* A random mesh-mesh problem: two random meshes, A's placed at pa and B's at pb, with a random motion;
   its query and the label of its failures ("<what> case <c>: ..."). */
typedef struct mesh_pair {
    side A, B;
    spx_vec3 pa, pb;
    query q;
    char label[256];
} mesh_pair;

static int random_mesh_pair(test_case_rng* rng, const char* what, int c, mesh_pair* out)
{
    side *A = &out->A, *B = &out->B;
    uint32_t na, nb;
    random_sizes(rng, &na, &nb);
    memset(A, 0, sizeof *A), memset(B, 0, sizeof *B);
    TEST_ENSURE(side_make(A, rng, na, ZERO, IDENTITY.q) && side_make(B, rng, nb, ZERO, IDENTITY.q));
    spx_vec3 va, vb;
    float tmax;
    random_motion(rng, A->radius, B->radius, &out->pa, &out->pb, &va, &vb, &tmax);
    spx_transform ta = { out->pa, random_rotation(rng) }, tb = { out->pb, random_rotation(rng) };
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(A->inst, &ta), SPX_OK);
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B->inst, &tb), SPX_OK);
    pair_label(out->label, sizeof out->label, what, c, A, B);
    out->q = (query){ NULL, A->inst, B->inst, va, vb, tmax };
    return 0;
}

static void mesh_pair_free(mesh_pair* p)
{
    side_free(&p->A);
    side_free(&p->B);
}

static int sweep_mesh_mesh_matches_brute_force(void)
{ /* Random pairs of generated meshes (torus, sphere, grid, strip, soup; 8 to 3500 triangles; leaf
       sizes 1, 4, 16), random poses and motions: the query must give what the all-pairs brute force
       gives (state, time, first pair by the tie rule, the whole contact set field by field, averaged
       normal). Every fourth case also runs swapped against the brute force, a third of the hits are
       moved to grazing passes and a fifth of the hits meet the end of the interval, and a fifth of the
       cases get a contacts array too small. */
    test_case_rng rng = { 0x5E9A3001u };
    test_brute_stats st = { 0 }, edges = { 0 };
    const int n = cases(400);
    int failures = 0, grazed = 0, swaps = 0;
    clock_t start = clock();
    for (int c = 0; c < n; ++c) {
        mesh_pair m;
        TEST_ENSURE(random_mesh_pair(&rng, "mesh-mesh", c, &m) == 0);
        const query* q = &m.q;
        uint32_t capacity = c % 5 == 4 ? (uint32_t)(c % 7) : UINT32_MAX;
        spx_mesh_hit hit;
        failures += test_brute_check_sweep(q, capacity, m.label, &st, &hit);
        if (c % 4 == 0) { /* B against A is a problem of its own for the brute force too */
            query s = { NULL, q->b, q->a, q->vb, q->va, q->tmax };
            char ls[300];
            snprintf(ls, sizeof ls, "%s, swapped", m.label);
            failures += test_brute_check_sweep(&s, UINT32_MAX, ls, &st, NULL);
            ++swaps;
        }
        if (hit.state == SPX_SWEEP_HIT && c % 3 == 0)
            failures += graze(q, &rng, m.A.radius + m.B.radius, m.label, &edges, &grazed);
        if (hit.state == SPX_SWEEP_HIT && c % 5 == 1) failures += tmax_edge(q, hit.time, m.label, &edges);
        mesh_pair_free(&m);
    }
    test_brute_print_stats("mesh-mesh", &st, seconds_since(start));
    test_brute_print_stats("mesh-mesh edges", &edges, 0.0);
    printf("  %d random cases, %d also swapped against the brute force, %d grazing passes\n", n, swaps, grazed);
    TEST_ENSURE(failures == 0);
    /* the mix must reach every state, or the comparison proves little */
    TEST_ENSURE(st.hits >= (uint64_t)n / 8 && st.misses >= (uint64_t)n / 8 && st.overlaps >= (uint64_t)n / 8);
    TEST_ENSURE(grazed >= n / 20);
    return 0;
}

static int swapped_meshes_same_answer(void)
{ /* B against A must be A against B seen from the other side: the same state and time, the same
       pairs with their triangle numbers swapped, each pair's normal flipped and features exchanged,
       a start overlap's averaged normal flipped with the same point and depth estimate. Random
       problems as in sweep_mesh_mesh_matches_brute_force (another stream). When they differ, the
       single-pair test is run on the same two triangles both ways round, to tell a fault of the
       query from one of the leaf test (test_brute_explain_swap prints those pairs). */
    test_case_rng rng = { 0x5E9A3007u };
    const int n = cases(400);
    int failures = 0;
    for (int c = 0; c < n; ++c) {
        mesh_pair m;
        TEST_ENSURE(random_mesh_pair(&rng, "swap", c, &m) == 0);
        failures += test_brute_check_swapped(&m.q, m.label,
                                             test_brute_len3(m.pa) + test_brute_len3(m.pb) + m.A.radius + m.B.radius);
        mesh_pair_free(&m);
    }
    printf("  %d random cases swapped, %d differ\n", n, failures);
    TEST_ENSURE(failures == 0);
    return 0;
}

static int swapped_flat_pass_through(void)
{ /* The first thing the swapped comparison found, reduced to one pair (from two random strips):
       two level triangles 13 mm apart in height, B moving across A's plane. Exactly (in rationals,
       from these floats) the planes meet at t = 0.0626002617, when the two triangles overlap by 4 mm
       in x-z, so both orders must be a HIT at that time with opposite normals (0, +-1, 0). Before
       the entry-after-exit slack of sat_axes.h, B against A was a MISS. */
    static const char* const corners[2][3][3] = { { { "-0x1.b20a9cp+0", "0x1.3eb744p+1", "-0x1.c169c8p-1" },
                                                    { "-0x1.b20a9cp+0", "0x1.3eb744p+1", "-0x1.bed3d8p-1" },
                                                    { "-0x1.b0cca6p+0", "0x1.3eb744p+1", "-0x1.bed3d8p-1" } },
                                                  { { "-0x1.fae72cp+0", "0x1.406098p+1", "-0x1.d9181ep-1" },
                                                    { "-0x1.fae72cp+0", "0x1.406098p+1", "-0x1.d0e4d2p-1" },
                                                    { "-0x1.eca8a6p+0", "0x1.406098p+1", "-0x1.d0e4d2p-1" } } };
    spx_vec3 v[2][3];
    for (int k = 0; k < 2; ++k)
        for (int c = 0; c < 3; ++c)
            v[k][c] =
                spx_v3(strtof(corners[k][c][0], NULL), strtof(corners[k][c][1], NULL), strtof(corners[k][c][2], NULL));
    const spx_vec3 va = { strtof("0x1.399a34p-2", NULL), strtof("0x1.c6ae88p-5", NULL),
                          strtof("-0x1.cbbe7cp-6", NULL) };
    const spx_vec3 vb = { strtof("0x1.12f574p+2", NULL), strtof("-0x1.36f9fap-3", NULL),
                          strtof("0x1.20858cp-1", NULL) };
    const uint32_t idx[3] = { 0, 1, 2 };
    spx_mesh* m[2];
    spx_mesh_instance* inst[2];
    for (int k = 0; k < 2; ++k) {
        spx_mesh_def def = spx_default_mesh_def();
        def.vertices = v[k], def.vertex_count = 3, def.indices = idx, def.triangle_count = 1;
        TEST_ENSURE_CODE(spx_mesh_create(&def, &m[k]), SPX_OK);
        inst[k] = place(m[k], IDENTITY);
        TEST_ENSURE(inst[k]);
    }
    spx_mesh_hit ab, ba;
    TEST_ENSURE_CODE(spx_sweep_mesh_mesh(inst[0], va, inst[1], vb, 1.0f, NULL, 0, &ab), SPX_OK);
    TEST_ENSURE_CODE(spx_sweep_mesh_mesh(inst[1], vb, inst[0], va, 1.0f, NULL, 0, &ba), SPX_OK);
    printf("  A against B: %s at %.9g; B against A: %s at %.9g\n", test_brute_state_name(ab.state), ab.time,
           test_brute_state_name(ba.state), ba.time);
    for (int k = 0; k < 2; ++k) spx_mesh_instance_destroy(inst[k]), spx_mesh_destroy(m[k]);
    TEST_ENSURE(ab.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(ab.time, 0.0626002617, 1e-6);
    TEST_ENSURE_NEAR(ab.normal.y, 1.0, 1e-6);
    TEST_ENSURE(ba.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(ba.time, 0.0626002617, 1e-6);
    TEST_ENSURE_NEAR(ba.normal.y, -1.0, 1e-6);
    return 0;
}

/* A random box around a side of the given radius. */
static spx_obb random_box(test_case_rng* rng, double radius)
{
    spx_vec3 h;
    double base = radius * test_case_uniform(rng, 0.05, 1.0);
    float* hp = &h.x;
    for (int k = 0; k < 3; ++k) hp[k] = (float)(base * test_case_log_uniform(rng, 0.05, 1.0));
    spx_obb b;
    spx_obb_from_quat(ZERO, h, random_rotation(rng), &b);
    return b;
}

static int sweep_obb_mesh_matches_brute_force(void)
{ /* Random boxes (flat to cubic, random and axis-aligned rotations) swept against random generated
       meshes of up to a few thousand triangles: the same comparison as for two meshes, with grazing
       passes and the end of the interval. */
    test_case_rng rng = { 0x5E9A3002u };
    test_brute_stats st = { 0 }, edges = { 0 };
    const int n = cases(500);
    int failures = 0, grazed = 0;
    clock_t start = clock();
    for (int c = 0; c < n; ++c) {
        double u = test_case_uniform(&rng, 0, 1);
        uint32_t nb = (uint32_t)(u < 0.3   ? test_case_log_uniform(&rng, 8, 120)
                                 : u < 0.8 ? test_case_log_uniform(&rng, 120, 1000)
                                           : test_case_log_uniform(&rng, 1000, 4000));
        side B;
        memset(&B, 0, sizeof B);
        TEST_ENSURE(side_make(&B, &rng, nb, ZERO, IDENTITY.q));
        spx_obb box = random_box(&rng, B.radius);
        double rbox = test_brute_len3(box.half_extents);
        spx_vec3 pa, pb, va, vb;
        float tmax;
        random_motion(&rng, rbox, B.radius, &pa, &pb, &va, &vb, &tmax);
        box.center = pa;
        spx_transform tb = { pb, random_rotation(&rng) };
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B.inst, &tb), SPX_OK);
        char lb[96], label[256];
        side_label(&B, lb, sizeof lb);
        snprintf(label, sizeof label, "box-mesh case %d: B %s", c, lb);
        query q = { &box, NULL, B.inst, va, vb, tmax };
        uint32_t capacity = c % 5 == 4 ? (uint32_t)(c % 7) : UINT32_MAX;
        spx_mesh_hit hit;
        failures += test_brute_check_sweep(&q, capacity, label, &st, &hit);
        if (hit.state == SPX_SWEEP_HIT && c % 3 == 0)
            failures += graze(&q, &rng, rbox + B.radius, label, &edges, &grazed);
        if (hit.state == SPX_SWEEP_HIT && c % 5 == 1) failures += tmax_edge(&q, hit.time, label, &edges);
        side_free(&B);
    }
    test_brute_print_stats("box-mesh", &st, seconds_since(start));
    test_brute_print_stats("box-mesh edges", &edges, 0.0);
    printf("  %d random cases, %d grazing passes\n", n, grazed);
    TEST_ENSURE(failures == 0);
    TEST_ENSURE(st.hits >= (uint64_t)n / 8 && st.misses >= (uint64_t)n / 8 && st.overlaps >= (uint64_t)n / 8);
    TEST_ENSURE(grazed >= n / 20);
    return 0;
}

/* Time of a query's first contact, or -1 for a miss and 0 for a start overlap. */
static float first_time(const query* q)
{
    test_brute_buffer none = { NULL, 0 };
    spx_mesh_hit h;
    if (test_brute_run_sweep(q, &none, &h) != SPX_OK) return -2.0f;
    return h.state == SPX_SWEEP_MISS ? -1.0f : h.time;
}

static int far_and_rotated_problem_same_answer(void)
{ /* The whole problem (both poses, the box, both velocities) moved rigidly: rotated and shifted
       1e3 or 4e3 m from the origin. The answer far away must agree with the brute force there (the
       bound tests must hold at large coordinates), and with the answer at the origin: same state,
       time within what float rounding at that distance can move it. Cases whose state changes when
       B is nudged by 2 mm are left out (their state is decided below rounding); the time tolerance is
       the largest change such a nudge makes, which is more than rounding at 4e3 m (0.25 mm) can. */
    test_case_rng rng = { 0x5E9A3003u };
    test_brute_stats st = { 0 };
    const int n = cases(80);
    int failures = 0, used = 0, skipped = 0;
    double worst = 0;
    for (int c = 0; c < n; ++c) {
        bool box_case = c % 2 == 1;
        uint32_t na, nb;
        random_sizes(&rng, &na, &nb);
        na = na > 600 ? 600 : na, nb = nb > 600 ? 600 : nb;
        side A, B;
        memset(&A, 0, sizeof A), memset(&B, 0, sizeof B);
        TEST_ENSURE(side_make(&B, &rng, nb, ZERO, IDENTITY.q));
        if (!box_case) TEST_ENSURE(side_make(&A, &rng, na, ZERO, IDENTITY.q));
        spx_obb box = random_box(&rng, B.radius);
        spx_quat box_q = random_rotation(&rng);
        TEST_ENSURE_CODE(spx_obb_from_quat(ZERO, box.half_extents, box_q, &box), SPX_OK);
        double ra = box_case ? test_brute_len3(box.half_extents) : A.radius;
        spx_vec3 pa, pb, va, vb;
        float tmax;
        random_motion(&rng, ra, B.radius, &pa, &pb, &va, &vb, &tmax);
        spx_transform ta = { pa, random_rotation(&rng) }, tb = { pb, random_rotation(&rng) };
        box.center = pa;
        if (!box_case) TEST_ENSURE_CODE(spx_mesh_instance_set_pose(A.inst, &ta), SPX_OK);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B.inst, &tb), SPX_OK);
        query q = { box_case ? &box : NULL, A.inst, B.inst, va, vb, tmax };
        test_brute_full near;
        memset(&near, 0, sizeof near);
        TEST_ENSURE(test_brute_full_run(&q, &near) == 0);
        /* robustness: nudge B by 2 mm along each axis both ways */
        float t0 = near.hit.state == SPX_SWEEP_MISS ? -1.0f : near.hit.time;
        double spread = 0;
        bool fragile = false;
        for (int k = 0; k < 6 && !fragile; ++k) {
            spx_transform t = tb;
            (&t.p.x)[k / 2] += k % 2 ? 2e-3f : -2e-3f;
            TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B.inst, &t), SPX_OK);
            float tk = first_time(&q);
            fragile = (tk < 0) != (t0 < 0) || (tk == 0) != (t0 == 0);
            if (t0 > 0 && tk > 0) spread = fmax(spread, fabs((double)tk - t0));
        }
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B.inst, &tb), SPX_OK);
        if (fragile) {
            ++skipped;
        } else {
            ++used;
            double axis[3];
            test_case_unit_vector(&rng, axis);
            double dist = c % 4 < 2 ? 1e3 : 4e3;
            spx_quat Q = test_case_random_quat(&rng);
            spx_vec3 shift = spx_v3((float)(axis[0] * dist), (float)(axis[1] * dist), (float)(axis[2] * dist));
            spx_transform fa = move_pose(ta, Q, shift), fb = move_pose(tb, Q, shift);
            spx_obb far_box = box;
            spx_transform fbox = move_pose((spx_transform){ pa, box_q }, Q, shift);
            TEST_ENSURE_CODE(spx_obb_from_quat(fbox.p, box.half_extents, fbox.q, &far_box), SPX_OK);
            if (!box_case) TEST_ENSURE_CODE(spx_mesh_instance_set_pose(A.inst, &fa), SPX_OK);
            TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B.inst, &fb), SPX_OK);
            query f = {
                box_case ? &far_box : NULL, A.inst, B.inst, test_case_turn(Q, va), test_case_turn(Q, vb), tmax
            };
            char label[256];
            snprintf(label, sizeof label, "%s case %d moved %.0f m and rotated", box_case ? "box-mesh" : "mesh-mesh", c,
                     dist);
            spx_mesh_hit h;
            failures += test_brute_check_sweep(&f, UINT32_MAX, label, &st, &h);
            double tol = 1e-5 * tmax + spread;
            double dt =
                h.state == SPX_SWEEP_HIT && near.hit.state == SPX_SWEEP_HIT ? fabs((double)h.time - near.hit.time) : 0;
            worst = fmax(worst, dt / tmax);
            if (h.state != near.hit.state || !(dt <= tol)) {
                fprintf(stderr, "%s: %s at %.9g, at the origin %s at %.9g (tolerance %.3g)\n", label,
                        test_brute_state_name(h.state), h.time, test_brute_state_name(near.hit.state), near.hit.time,
                        tol);
                test_brute_print_query(&q);
                ++failures;
            }
        }
        test_brute_buffer_free(&near.buf);
        side_free(&A);
        side_free(&B);
    }
    test_brute_print_stats("far and rotated", &st, 0.0);
    printf("  %d cases moved (%d left out as fragile); worst time change %.3g tmax\n", used, skipped, worst);
    TEST_ENSURE(failures == 0);
    TEST_ENSURE(used >= n / 2);
    return 0;
}

static int static_queries_match_brute_force(void)
{ /* spx_overlap_* against "some pair overlaps" by spx_overlap_triangle_triangle /
       spx_overlap_obb_triangle on all pairs; spx_contacts_* against exactly the overlapping pairs, each
       with its minimum translation from spx_penetration_*; and a sweep with tmax 0 (any velocities)
       gives the static state. Mesh pairs and box-mesh pairs at random poses, from well apart to deep. */
    test_case_rng rng = { 0x5E9A3004u };
    test_brute_stats st = { 0 };
    const int n = cases(300);
    int failures = 0, overlapping = 0;
    uint64_t inconsistent = 0;
    for (int c = 0; c < n; ++c) {
        bool box_case = c % 2 == 1;
        uint32_t na, nb;
        random_sizes(&rng, &na, &nb);
        side A, B;
        memset(&A, 0, sizeof A), memset(&B, 0, sizeof B);
        TEST_ENSURE(side_make(&B, &rng, nb, ZERO, IDENTITY.q));
        if (!box_case) TEST_ENSURE(side_make(&A, &rng, na, ZERO, IDENTITY.q));
        spx_obb box = random_box(&rng, B.radius);
        double ra = box_case ? test_brute_len3(box.half_extents) : A.radius;
        spx_vec3 pa, pb, va, vb;
        float tmax;
        random_motion(&rng, ra, B.radius, &pa, &pb, &va, &vb, &tmax);
        /* half as far apart as the swept problems start: a fair share overlaps */
        pb = spx_v3(pa.x + 0.5f * (pb.x - pa.x), pa.y + 0.5f * (pb.y - pa.y), pa.z + 0.5f * (pb.z - pa.z));
        box.center = pa;
        spx_transform ta = { pa, random_rotation(&rng) }, tb = { pb, random_rotation(&rng) };
        if (!box_case) TEST_ENSURE_CODE(spx_mesh_instance_set_pose(A.inst, &ta), SPX_OK);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(B.inst, &tb), SPX_OK);
        query q = { box_case ? &box : NULL, A.inst, B.inst, va, vb, 0.0f };
        char label[256];
        snprintf(label, sizeof label, "static %s case %d", box_case ? "box-mesh" : "mesh-mesh", c);

        failures += test_brute_check_static(&q, label, &st, &overlapping, &inconsistent);
        side_free(&A);
        side_free(&B);
    }
    test_brute_print_stats("static", &st, 0.0);
    printf("  %d static cases, %d overlapping; pairs where the single-pair overlap, penetration and still sweep "
           "disagree: %llu\n",
           n, overlapping, (unsigned long long)inconsistent);
    TEST_ENSURE(failures == 0);
    TEST_ENSURE(overlapping >= n / 4 && overlapping <= n - n / 4);
    return 0;
}

/* ---- hand-built problems: many pairs tie for first ------------------------------------------------ */

/* The query against the brute force, then the hand-worked facts. */
static int check_against_brute(const query* q, const char* label, spx_mesh_hit* out)
{
    test_brute_stats st = { 0 };
    return test_brute_check_sweep(q, UINT32_MAX, label, &st, out);
}

/* How far apart two triangles of the plane y = const are seen from above: the largest gap over the
   2D separating axes on x-z (unit edge normals), <= 0 when they overlap or touch. Exact (every
   product a double exactly, so touching gives 0) for the half-metre grid coordinates used here. */
static double flat_gap(const spx_triangle* a, spx_vec3 shift_a, const spx_triangle* b, spx_vec3 shift_b)
{
    double p[2][3][2], gap = -INFINITY;
    for (int c = 0; c < 3; ++c) {
        p[0][c][0] = (double)a->v[c].x + shift_a.x, p[0][c][1] = (double)a->v[c].z + shift_a.z;
        p[1][c][0] = (double)b->v[c].x + shift_b.x, p[1][c][1] = (double)b->v[c].z + shift_b.z;
    }
    for (int t = 0; t < 2; ++t)
        for (int e = 0; e < 3; ++e) {
            const double* u = p[t][e];
            const double* w = p[t][(e + 1) % 3];
            double n[2] = { -(w[1] - u[1]), w[0] - u[0] };
            double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
            for (int k = 0; k < 2; ++k)
                for (int c = 0; c < 3; ++c) {
                    double d = p[k][c][0] * n[0] + p[k][c][1] * n[1];
                    lo[k] = fmin(lo[k], d), hi[k] = fmax(hi[k], d);
                }
            double g = fmax(lo[1] - hi[0], lo[0] - hi[1]);
            if (g > 0) g /= sqrt(n[0] * n[0] + n[1] * n[1]); /* only the sign matters at 0 */
            else g = g / sqrt(n[0] * n[0] + n[1] * n[1]);
            gap = fmax(gap, g);
        }
    return gap;
}

/* The contact set of two level meshes meeting flat (B's x-z shifted by shift_b over A's) must be
   exactly the pairs whose triangles overlap or touch seen from above, worked out here without the
   library's tests. `margin` 0: the coordinates are exact and touching pairs belong to the set;
   otherwise pairs within `margin` of touching may go either way. `swapped`: q is B against A. */
static int flat_set_is_exact(const spx_mesh* ma, spx_vec3 shift_a, const spx_mesh* mb, spx_vec3 shift_b, double margin,
                             const query* q, bool swapped, const char* label)
{
    test_brute_full f;
    memset(&f, 0, sizeof f);
    TEST_ENSURE(test_brute_full_run(q, &f) == 0);
    spx_mesh_info ia, ib;
    TEST_ENSURE_CODE(spx_mesh_get_info(ma, &ia), SPX_OK);
    TEST_ENSURE_CODE(spx_mesh_get_info(mb, &ib), SPX_OK);
    uint32_t expected = 0, either = 0, missing = 0, extra = 0;
    for (uint32_t i = 0; i < ia.triangle_count; ++i)
        for (uint32_t j = 0; j < ib.triangle_count; ++j) {
            spx_triangle ta, tb;
            uint32_t sa, sb;
            TEST_ENSURE_CODE(spx_mesh_get_triangle(ma, i, &ta, &sa), SPX_OK);
            TEST_ENSURE_CODE(spx_mesh_get_triangle(mb, j, &tb, &sb), SPX_OK);
            double g = flat_gap(&ta, shift_a, &tb, shift_b);
            bool in = (swapped ? test_brute_full_find(&f, sb, sa) : test_brute_full_find(&f, sa, sb)) != NULL;
            if (margin > 0 && fabs(g) <= margin) {
                ++either;
            } else if (g <= 0) {
                ++expected;
                if (!in && ++missing <= 5)
                    fprintf(stderr,
                            "%s: pair (A %u, B %u) overlaps seen from above by %.3g m but is not in the contact set\n",
                            label, sa, sb, -g);
            } else if (in && ++extra <= 5) {
                fprintf(stderr, "%s: pair (A %u, B %u) is %.3g m apart seen from above but in the contact set\n", label,
                        sa, sb, g);
            }
        }
    const bool ok =
        missing == 0 && extra == 0 && f.hit.contact_count >= expected && f.hit.contact_count <= expected + either;
    if (!ok)
        fprintf(stderr,
                "%s: %u contacts; %u pairs overlap seen from above (%u more within %.1g of touching), %u of "
                "them missing, %u apart but in the set\n",
                label, f.hit.contact_count, expected, either, margin, missing, extra);
    test_brute_buffer_free(&f.buf);
    TEST_ENSURE(ok);
    return 0;
}

static int disk_falls_flat_onto_disk(void)
{ /* Two level disks of 12 triangles (a fan of radius 1 m), B 0.2 m and 0.1 m aside of A, falling
       onto it at 1.3 m/s from a height, both ways round. When the planes meet, every pair of
       triangles overlapping seen from above touches at that instant, as in grid_falls_flat_onto_grid;
       but here the edges have every direction, so the edge-edge axes of a pair (all vertical for two
       level triangles) have different lengths. The set is worked out from above without the
       library's tests, pairs within 1e-6 m of touching either way. Heights (A, B): (0, 1),
       (0.1234, 0.7391), (-0.3, 0.45). */
    spx_vec3 v[13];
    uint32_t idx[36];
    v[0] = ZERO;
    for (uint32_t i = 0; i < 12; ++i) {
        double ang = 2.0 * 3.141592653589793 * i / 12.0;
        v[1 + i] = spx_v3((float)cos(ang), 0.0f, (float)sin(ang));
        idx[3 * i] = 0, idx[3 * i + 1] = 1 + (i + 1) % 12, idx[3 * i + 2] = 1 + i;
    }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 13, def.indices = idx, def.triangle_count = 12;
    spx_mesh* m = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &m), SPX_OK);
    static const float heights[3][2] = { { 0.0f, 1.0f }, { 0.1234f, 0.7391f }, { -0.3f, 0.45f } };
    int failed = 0;
    for (int k = 0; k < 3; ++k) {
        spx_mesh_instance *a = place(m, pose_at(0.0f, heights[k][0], 0.0f)),
                          *b = place(m, pose_at(0.2f, heights[k][1], 0.1f));
        TEST_ENSURE(a && b);
        const spx_vec3 fall = { 0.0f, -1.3f, 0.0f };
        query q = { NULL, a, b, ZERO, fall, 1.0f }, s = { NULL, b, a, fall, ZERO, 1.0f };
        spx_mesh_hit h;
        char label[96];
        snprintf(label, sizeof label, "disk onto disk from %.4g to %.4g", (double)heights[k][1], (double)heights[k][0]);
        TEST_ENSURE(check_against_brute(&q, label, &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, ((double)heights[k][1] - heights[k][0]) / 1.3, 1e-6);
        failed |= flat_set_is_exact(m, ZERO, m, spx_v3(0.2f, 0.0f, 0.1f), 1e-6, &q, false, label);
        snprintf(label, sizeof label, "disk onto disk from %.4g to %.4g, swapped", (double)heights[k][1],
                 (double)heights[k][0]);
        failed |= flat_set_is_exact(m, ZERO, m, spx_v3(0.2f, 0.0f, 0.1f), 1e-6, &s, true, label);
        spx_mesh_instance_destroy(a);
        spx_mesh_instance_destroy(b);
    }
    spx_mesh_destroy(m);
    TEST_ENSURE(!failed);
    return 0;
}

static int grid_falls_flat_onto_grid(void)
{ /* A 6 x 6 grid at y = 0; a 3 x 3 grid 1 m above over [1.5, 4.5]^2 falling at 2 m/s. The grids are
       parallel, so every pair whose triangles overlap in x-z touches at t = 0.5 at once. By the tie rule
       the first pair is the lowest A triangle that touches B, then the lowest B triangle touching it:
       A's square [1,2]^2 holds triangles 14 (corners (1,1), (1,2), (2,2)) and 15; B's square
       [1.5,2.5]^2 holds 0 (corners (1.5,1.5), (1.5,2.5), (2.5,2.5)) and 1; triangles 14 and 0 share
       the region z > x near (1.6, 1.9): first pair (14, 0). Swapped, (0, 14). Then B moved by half a
       square so that its triangles land exactly on A's (identical triangles, shared edges and corners),
       and B sliding as it falls. Each contact set is also worked out exactly from above, without the
       library's tests (flat_set_is_exact); every leaf size. */
    for (int l = 0; l < 3; ++l) {
        spx_mesh *ma = test_shape_grid_mesh_leaf(6, 6, LEAF_SIZES[l]),
                 *mb = test_shape_grid_mesh_leaf(3, 3, LEAF_SIZES[(l + 1) % 3]);
        TEST_ENSURE(ma && mb);
        spx_mesh_instance *a = place(ma, IDENTITY), *b = place(mb, pose_at(1.5f, 1.0f, 1.5f));
        TEST_ENSURE(a && b);
        query q = { NULL, a, b, ZERO, spx_v3(0, -2, 0), 1.0f };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "grid on grid", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE_NEAR(h.normal.y, 1.0, 1e-6); /* from A (below) towards B */
        TEST_ENSURE(h.first.triangle_a == 14 && h.first.triangle_b == 0);
        TEST_ENSURE(h.contact_count >= 2 * 18); /* each of B's 18 triangles lies over at least two of A's */
        TEST_ENSURE(flat_set_is_exact(ma, ZERO, mb, spx_v3(1.5f, 0.0f, 1.5f), 0.0, &q, false, "grid on grid") == 0);
        uint32_t count = h.contact_count;
        /* swapped: B's triangle 0 is now the lowest A side; the lowest of the old A touching it is 14 */
        query s = { NULL, b, a, spx_v3(0, -2, 0), ZERO, 1.0f };
        TEST_ENSURE(check_against_brute(&s, "grid on grid, swapped", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE_NEAR(h.normal.y, -1.0, 1e-6);
        TEST_ENSURE(h.first.triangle_a == 0 && h.first.triangle_b == 14);
        TEST_ENSURE(h.contact_count == count);
        TEST_ENSURE(flat_set_is_exact(ma, ZERO, mb, spx_v3(1.5f, 0.0f, 1.5f), 0.0, &s, true, "grid on grid, swapped") ==
                    0);
        /* aligned: B's squares exactly on A's squares 1..3. Touching at a single point counts, so A's
           triangle 0 (corners (0,0), (0,1), (1,1)) touches B's triangle 0 (corners (1,1), (1,2), (2,2))
           at the corner (1,1): first pair (0, 0), both ways round */
        spx_transform aligned = pose_at(1.0f, 1.0f, 1.0f);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &aligned), SPX_OK);
        TEST_ENSURE(check_against_brute(&q, "grid on grid, aligned", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE(h.first.triangle_a == 0 && h.first.triangle_b == 0);
        TEST_ENSURE(
            flat_set_is_exact(ma, ZERO, mb, spx_v3(1.0f, 0.0f, 1.0f), 0.0, &q, false, "grid on grid, aligned") == 0);
        TEST_ENSURE(check_against_brute(&s, "grid on grid, aligned, swapped", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE(h.first.triangle_a == 0 && h.first.triangle_b == 0);
        TEST_ENSURE(flat_set_is_exact(ma, ZERO, mb, spx_v3(1.0f, 0.0f, 1.0f), 0.0, &s, true,
                                      "grid on grid, aligned, swapped") == 0);
        /* falling and sliding: B from (1.5, 1, 1.5) at (1, -2, 0.5) m/s meets A's plane at t = 0.5, at
           (2, 0, 1.75); the pairs overlapping there, exactly, both ways round */
        spx_transform start = pose_at(1.5f, 1.0f, 1.5f);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &start), SPX_OK);
        query qs = { NULL, a, b, ZERO, spx_v3(1.0f, -2.0f, 0.5f), 1.0f },
              ss = { NULL, b, a, spx_v3(1.0f, -2.0f, 0.5f), ZERO, 1.0f };
        TEST_ENSURE(check_against_brute(&qs, "grid on grid, sliding", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE(
            flat_set_is_exact(ma, ZERO, mb, spx_v3(2.0f, 0.0f, 1.75f), 0.0, &qs, false, "grid on grid, sliding") == 0);
        TEST_ENSURE(check_against_brute(&ss, "grid on grid, sliding, swapped", &h) == 0);
        TEST_ENSURE(flat_set_is_exact(ma, ZERO, mb, spx_v3(2.0f, 0.0f, 1.75f), 0.0, &ss, true,
                                      "grid on grid, sliding, swapped") == 0);
        spx_mesh_instance_destroy(a);
        spx_mesh_instance_destroy(b);
        spx_mesh_destroy(ma);
        spx_mesh_destroy(mb);
    }
    return 0;
}

static int large_tied_sets_match_brute_force(void)
{ /* Grids of 8 x 8 and 12 x 12 squares landing on grids two squares wider, shifted by half a square:
       896 and about 2,000 pairs touch at once, below and above what the first descent keeps for the
       contact set. Level (all tie), and turned about x by 1e-5, 1e-4 and 1e-3 rad so that the times
       spread across the contact window and past it and the best time falls while the set is being
       kept; far from the origin (1e3 m) and swapped. Each whole set, field by field, against the
       brute force over all triangle pairs, and with room for 16 contacts. */
    static const uint32_t sizes[2] = { 8, 12 };
    static const double turns[4] = { 0.0, 1e-5, 1e-4, 1e-3 };
    static const spx_vec3 shifts[2] = { { 0, 0, 0 }, { 1000.0f, -250.0f, 750.0f } };
    test_brute_stats st = { 0 };
    int failed = 0;
    for (int k = 0; k < 2; ++k) {
        spx_mesh *ma = test_shape_grid_mesh_leaf(sizes[k], sizes[k], 4),
                 *mb = test_shape_grid_mesh_leaf(sizes[k] + 2, sizes[k] + 2, 4);
        TEST_ENSURE(ma && mb);
        for (int t = 0; t < 4; ++t)
            for (int f = 0; f < 2; ++f) {
                const double half = 0.5 * turns[t];
                const spx_quat turn = { (float)sin(half), 0.0f, 0.0f, (float)cos(half) };
                spx_transform pa = pose_at(0.5f, 1.0f, 0.5f);
                pa.q = turn;
                pa.p = spx_v3(pa.p.x + shifts[f].x, pa.p.y + shifts[f].y, pa.p.z + shifts[f].z);
                spx_mesh_instance *a = place(ma, pa), *b = place(mb, pose_at(shifts[f].x, shifts[f].y, shifts[f].z));
                TEST_ENSURE(a && b);
                const spx_vec3 fall = { 0.0f, -2.0f, 0.0f };
                query q = { NULL, a, b, fall, ZERO, 1.0f }, s = { NULL, b, a, ZERO, fall, 1.0f };
                char label[120];
                snprintf(label, sizeof label, "%ux%u grid onto a grid, turned %g rad, %s", sizes[k], sizes[k], turns[t],
                         f ? "far away" : "at the origin");
                spx_mesh_hit h;
                failed |= test_brute_check_sweep(&q, UINT32_MAX, label, &st, &h);
                TEST_ENSURE(h.state == SPX_SWEEP_HIT);
                if (t == 0) TEST_ENSURE(h.contact_count >= (k == 0 ? 896u : 1025u));
                failed |= test_brute_check_sweep(&q, 16, label, &st, NULL);
                snprintf(label, sizeof label, "%ux%u grid onto a grid, turned %g rad, %s, swapped", sizes[k], sizes[k],
                         turns[t], f ? "far away" : "at the origin");
                failed |= test_brute_check_sweep(&s, UINT32_MAX, label, &st, NULL);
                spx_mesh_instance_destroy(a);
                spx_mesh_instance_destroy(b);
            }
        spx_mesh_destroy(ma);
        spx_mesh_destroy(mb);
    }
    test_brute_print_stats("large tied sets", &st, 0.0);
    TEST_ENSURE(!failed);
    return 0;
}

static int torus_dropped_onto_grid(void)
{ /* A torus about y (ring radius 1, tube 0.25, 24 x 8 segments) lying flat 0.5 m above a 4 x 4
       grid, falling at 1 m/s. Its lowest ring of 24 vertices (tube angle 270 degrees) is at y = -0.25
       exactly, and the ring's edges are level, so the ring touches the grid everywhere at t = 0.5:
       at least one pair per ring vertex ties. Normal from the torus (A) down towards the grid. Also
       turned about y and about a tilted axis (then the brute force alone decides), every leaf size. */
    test_shape torus, grid;
    TEST_ENSURE(test_shape_torus(&torus, 1.0f, 0.25f, 24, 8) && test_shape_grid(&grid, 4, 4));
    for (int l = 0; l < 3; ++l) {
        spx_mesh *mt = test_shape_mesh_leaf(&torus, LEAF_SIZES[l]),
                 *mg = test_shape_mesh_leaf(&grid, LEAF_SIZES[(l + 2) % 3]);
        TEST_ENSURE(mt && mg);
        spx_mesh_instance *a = place(mt, pose_at(2.0f, 0.75f, 2.0f)), *b = place(mg, IDENTITY);
        TEST_ENSURE(a && b);
        query q = { NULL, a, b, spx_v3(0, -1, 0), ZERO, 1.0f };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "torus on grid", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE(h.normal.y < 0.0f); /* down; not always straight down: ring vertices such as (3, 0, 2) land on
                                      grid corners, where an edge axis ties with the face */
        TEST_ENSURE(h.contact_count >= 24);
        /* turned 10 degrees about y: still level */
        spx_transform turned = { { 2.0f, 0.75f, 2.0f }, { 0, (float)sin(0.0872664626), 0, (float)cos(0.0872664626) } };
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(a, &turned), SPX_OK);
        TEST_ENSURE(check_against_brute(&q, "torus on grid, turned", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.contact_count >= 24);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-5);
        /* the whole problem tilted: grid and torus turned together, falling along the turned y */
        spx_quat tilt = { 0.2f, 0.1f, -0.3f, 0.0f };
        tilt.w = sqrtf(1.0f - tilt.x * tilt.x - tilt.y * tilt.y - tilt.z * tilt.z);
        spx_transform ta = move_pose(pose_at(2.0f, 0.75f, 2.0f), tilt, ZERO), tb = move_pose(IDENTITY, tilt, ZERO);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(a, &ta), SPX_OK);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &tb), SPX_OK);
        q.va = test_case_turn(tilt, spx_v3(0, -1, 0));
        TEST_ENSURE(check_against_brute(&q, "torus on grid, tilted", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-5);
        spx_mesh_instance_destroy(a);
        spx_mesh_instance_destroy(b);
        spx_mesh_destroy(mt);
        spx_mesh_destroy(mg);
    }
    test_shape_free(&torus);
    test_shape_free(&grid);
    return 0;
}

/* The 8 x 8 grid as a mesh of `leaf` triangles a leaf, placed where it was made, and a 3 x 1 x 3 box
   level over its middle, centred at height y. */
static int box_over_grid(uint32_t leaf, float y, spx_mesh** m, spx_mesh_instance** b, spx_obb* box)
{
    *m = test_shape_grid_mesh_leaf(8, 8, leaf);
    TEST_ENSURE(*m);
    *b = place(*m, IDENTITY);
    TEST_ENSURE(*b);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(4.0f, y, 4.0f), spx_v3(1.5f, 0.5f, 1.5f), IDENTITY.q, box), SPX_OK);
    return 0;
}

static int box_dropped_flat_onto_grid(void)
{ /* A 3 x 1 x 3 box, bottom face 1.5 m above an 8 x 8 grid over [2.5, 5.5]^2, falling at 3 m/s:
       touches at t = 0.5, normal straight down (box A to grid B). The face covers squares 2..5 in x
       and z, partly at the border; every triangle of those 16 squares has a leg along each axis, so it
       reaches into the face (the corner squares' triangles at least at a point): 32 triangles, all
       at the same time, first by the tie rule the lowest: square (2,2) gives 2 * (2 * 8 + 2) = 36. */
    for (int l = 0; l < 3; ++l) {
        spx_mesh* m;
        spx_mesh_instance* b;
        spx_obb box;
        TEST_ENSURE(box_over_grid(LEAF_SIZES[l], 2.0f, &m, &b, &box) == 0);
        query q = { &box, NULL, b, spx_v3(0, -3, 0), ZERO, 1.0f };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "box on grid", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE_NEAR(h.normal.y, -1.0, 1e-6);
        TEST_ENSURE(h.contact_count == 32);
        TEST_ENSURE(h.first.triangle_a == SPX_NO_TRIANGLE && h.first.triangle_b == 36);
        /* the grid moving up instead: the same contact, the same time */
        q.va = ZERO, q.vb = spx_v3(0, 3, 0);
        TEST_ENSURE(check_against_brute(&q, "grid rising to a box", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.contact_count == 32);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        spx_mesh_instance_destroy(b);
        spx_mesh_destroy(m);
    }
    return 0;
}

static int box_resting_on_grid_touches(void)
{ /* The same box with its bottom face exactly on the grid at t = 0: touching counts as contact, so
       START_OVERLAP at time 0, depth 0 (the estimate too: no pair must move to part), the normal
       straight down, and the same 32 triangles; static queries say the same. Moving up, away, it
       still starts touching. */
    test_shape grid;
    TEST_ENSURE(test_shape_grid(&grid, 8, 8));
    spx_mesh* m = test_shape_mesh_leaf(&grid, 4);
    TEST_ENSURE(m);
    spx_mesh_instance* b = place(m, IDENTITY);
    TEST_ENSURE(b);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(4.0f, 0.5f, 4.0f), spx_v3(1.5f, 0.5f, 1.5f), IDENTITY.q, &box), SPX_OK);
    const spx_vec3 motions[3] = { { 0, 0, 0 }, { 0, 2, 0 }, { 0, -2, 0 } };
    for (int k = 0; k < 3; ++k) {
        query q = { &box, NULL, b, motions[k], ZERO, 1.0f };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "box resting on grid", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
        TEST_ENSURE(h.time == 0.0f);
        TEST_ENSURE_NEAR(h.depth, 0.0, 1e-6);
        TEST_ENSURE_NEAR(h.normal.y, -1.0, 1e-6);
        TEST_ENSURE(h.contact_count == 32);
        TEST_ENSURE_NEAR(h.first.depth, 0.0, 1e-6);
    }
    bool touching = false;
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, b, &touching), SPX_OK);
    TEST_ENSURE(touching);
    test_brute_buffer buf;
    TEST_ENSURE(test_brute_buffer_make(&buf, 40));
    spx_mesh_hit h;
    TEST_ENSURE_CODE(spx_penetration_obb_mesh(&box, b, buf.c, buf.capacity, &h), SPX_OK);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && h.contact_count == 32 && h.contacts_written == 32);
    for (uint32_t i = 0; i < 32; ++i) {
        TEST_ENSURE_NEAR(buf.c[i].depth, 0.0, 1e-6);
        TEST_ENSURE_NEAR(buf.c[i].normal.y, -1.0, 1e-6);
    }
    test_brute_buffer_free(&buf);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(m);
    test_shape_free(&grid);
    return 0;
}

static int box_sliding_along_grid(void)
{ /* The box of box_dropped_flat_onto_grid sliding along x at 3 m/s. Resting on the grid: it starts
       touching (START_OVERLAP, depth 0). 1 mm above, level: it never touches (MISS), however many
       triangles it passes over. 1 mm above and sinking at 0.01 m/s: it touches at t = 0.1, when it
       has slid 0.3 m, over the triangles under [2.8, 5.8] x [2.5, 5.5] then: the same 16 squares, but
       in square (2, 5) only triangle 43 now, as 42 (z >= x + 3) ends at the corner (2.5, 5.5) that has
       left: 31. Both grid and box sliding, the
       grid rotated a quarter turn about y, every leaf size; each against the brute force. */
    for (int l = 0; l < 3; ++l) {
        spx_mesh* m;
        spx_mesh_instance* b;
        spx_obb box;
        TEST_ENSURE(box_over_grid(LEAF_SIZES[l], 0.5f, &m, &b, &box) == 0);
        query q = { &box, NULL, b, spx_v3(3, 0, 0), ZERO, 1.0f };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "box resting, sliding", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && h.contact_count == 32);
        TEST_ENSURE_NEAR(h.depth, 0.0, 1e-6);
        box.center.y = 0.501f;
        TEST_ENSURE(check_against_brute(&q, "box sliding 1 mm above", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_MISS && h.contact_count == 0);
        q.va = spx_v3(3.0f, -0.01f, 0.0f);
        TEST_ENSURE(check_against_brute(&q, "box sliding and sinking", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.1, 1e-5);
        TEST_ENSURE_NEAR(h.normal.y, -1.0, 1e-6);
        TEST_ENSURE(h.contact_count == 31);
        /* the grid slides the other way under a still box */
        q.va = ZERO, q.vb = spx_v3(-3.0f, 0.01f, 0.0f);
        TEST_ENSURE(check_against_brute(&q, "grid sliding under the box", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT && h.contact_count == 31);
        TEST_ENSURE_NEAR(h.time, 0.1, 1e-5);
        /* the grid turned a quarter about y around (4, 0, 4): the same squares under the box */
        spx_transform quarter = { { 0.0f, 0.0f, 8.0f }, { 0.0f, (float)sqrt(0.5), 0.0f, (float)sqrt(0.5) } };
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &quarter), SPX_OK);
        q.va = spx_v3(3.0f, -0.01f, 0.0f), q.vb = ZERO;
        TEST_ENSURE(check_against_brute(&q, "box sliding over a turned grid", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.1, 1e-5);
        spx_mesh_instance_destroy(b);
        spx_mesh_destroy(m);
    }
    return 0;
}

/* A mesh of level right triangles (legs 1 m along x and z), one at each (x, y, z) corner given. */
static spx_mesh* level_triangles(const spx_vec3* at, uint32_t n)
{
    spx_vec3 v[3 * 8];
    uint32_t idx[3 * 8];
    if (n > 8) return NULL;
    for (uint32_t k = 0; k < n; ++k) {
        v[3 * k] = at[k];
        v[3 * k + 1] = spx_v3(at[k].x, at[k].y, at[k].z + 1.0f);
        v[3 * k + 2] = spx_v3(at[k].x + 1.0f, at[k].y, at[k].z);
        for (int c = 0; c < 3; ++c) idx[3 * k + c] = 3 * k + (uint32_t)c;
    }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 3 * n, def.indices = idx, def.triangle_count = n;
    def.leaf_triangles = 1;
    spx_mesh* m = NULL;
    return spx_mesh_create(&def, &m) == SPX_OK ? m : NULL;
}

/* One-triangle mesh of three given corners, at the identity. */
static spx_mesh* single_triangle(spx_vec3 p, spx_vec3 q, spx_vec3 r)
{
    const spx_vec3 v[3] = { p, q, r };
    const uint32_t idx[3] = { 0, 1, 2 };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 3, def.indices = idx, def.triangle_count = 1;
    spx_mesh* m = NULL;
    return spx_mesh_create(&def, &m) == SPX_OK ? m : NULL;
}

/* Two meshes at the identity (freed here) give the same overlap and the same contact set state and
   count whichever is A, and the overlap is a contact set that starts overlapping. */
static int static_pair_agrees_swapped(spx_mesh* ma, spx_mesh* mb)
{
    TEST_ENSURE(ma && mb);
    spx_mesh_instance* a = place(ma, IDENTITY);
    spx_mesh_instance* b = place(mb, IDENTITY);
    TEST_ENSURE(a && b);
    bool ab = false, ba = false;
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(a, b, &ab), SPX_OK);
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(b, a, &ba), SPX_OK);
    TEST_ENSURE(ab == ba);
    spx_mesh_contact c[2];
    spx_mesh_hit h_ab, h_ba;
    TEST_ENSURE_CODE(spx_penetration_mesh_mesh(a, b, c, 2, &h_ab), SPX_OK);
    TEST_ENSURE_CODE(spx_penetration_mesh_mesh(b, a, c, 2, &h_ba), SPX_OK);
    TEST_ENSURE(h_ab.state == h_ba.state && h_ab.contact_count == h_ba.contact_count);
    TEST_ENSURE(ab == (h_ab.state == SPX_SWEEP_START_OVERLAP));
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(ma);
    spx_mesh_destroy(mb);
    return 0;
}

/* Two segment-like triangles, 80 km and 10 m long, meeting within 1e-22 m at the origin: the pair
   is tested on the same coordinates whichever mesh is A, and neither piece's shape is rounded at the
   scale of the other's far corner, so the overlap and the contact set agree swapped. */
static int segments_meeting_at_the_origin_swapped(void)
{
    spx_mesh* ma = single_triangle(spx_v3(-0x1.ap-1f, 0x1.38p+16f, 0x1.8p-1f),
                                   spx_v3(-0x1.ap-1f, 0x1.38p+16f, 0x1.8p-1f), spx_v3(-0x1.405d88p-75f, 0, 0));
    spx_mesh* mb = single_triangle(spx_v3(-0x1.cda418p-97f, 0, 0), spx_v3(0x1.4p+2f, 0x1.9p+2f, -0x1.44p+2f),
                                   spx_v3(0x1.4p+2f, 0x1.9p+2f, -0x1.44p+2f));
    return static_pair_agrees_swapped(ma, mb);
}

/* Two one-triangle meshes, segment-like triangles 10 m long whose ends meet within 8e-31 m: the
   overlap and the contact set agree swapped (a touch within rounding, decided once). */
static int segments_touching_within_rounding_swapped(void)
{
    spx_mesh* ma =
        single_triangle(spx_v3(0x1.8cp+2f, 0x1.fcp-6f, 0x1.cp+2f), spx_v3(0x1.ee9c86p-101f, -0x1.7p+0f, -0x1.f8p+1f),
                        spx_v3(0x1.ee9c86p-101f, -0x1.7p+0f, -0x1.f8p+1f));
    spx_mesh* mb =
        single_triangle(spx_v3(-0x1.2687e6p-107f, -0x1.7p+0f, -0x1.f8p+1f), spx_v3(0x1.fcp-6f, 0x1.98p+2f, 0x1.b8p+2f),
                        spx_v3(-0x1.2687e6p-107f, -0x1.7p+0f, -0x1.f8p+1f));
    return static_pair_agrees_swapped(ma, mb);
}

static int contact_window_edges(void)
{ /* Three level triangles side by side, the second 0.99e-4 m and the third 1.01e-4 m below the
       first; a box (and a level triangle as a mesh) falling on them at 1 m/s reaches the first at
       t = 0.5 and the others 0.99e-4 s and 1.01e-4 s later. The contact set holds the pairs within
       SPX_MESH_CONTACT_WINDOW * tmax of the first: with tmax 1 (window 1e-4 s) the first two, with
       tmax 2 all three, with tmax 0.6 (6e-5 s) the first alone. */
    const spx_vec3 at[3] = { { 0, 0, 0 }, { 2, -0.99e-4f, 0 }, { 4, -1.01e-4f, 0 } };
    spx_mesh* m = level_triangles(at, 3);
    const spx_vec3 over = { -1, 0, -1 };
    spx_mesh* big = level_triangles(&over, 1); /* scaled below: one triangle over all three */
    TEST_ENSURE(m && big);
    spx_mesh_instance* b = place(m, IDENTITY);
    TEST_ENSURE(b);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(2.5f, 1.0f, 0.3f), spx_v3(3.0f, 0.5f, 0.2f), IDENTITY.q, &box), SPX_OK);
    const float tmaxes[3] = { 1.0f, 2.0f, 0.6f };
    const uint32_t counts[3] = { 2, 3, 1 };
    for (int k = 0; k < 3; ++k) {
        query q = { &box, NULL, b, spx_v3(0, -1, 0), ZERO, tmaxes[k] };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "box over three steps", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE(h.first.triangle_b == 0);
        TEST_ENSURE(h.contact_count == counts[k]);
    }
    /* a level triangle mesh instead of the box: corners (-1, 0.5, -1), (-1, 0.5, 9), (9, 0.5, -1)
       covers the three at x, z in [0, 5] x [0, 1] */
    spx_mesh_destroy(big);
    spx_vec3 tv[3] = { { -1, 0, -1 }, { -1, 0, 9 }, { 9, 0, -1 } };
    uint32_t ti[3] = { 0, 1, 2 };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = tv, def.vertex_count = 3, def.indices = ti, def.triangle_count = 1;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &big), SPX_OK);
    spx_mesh_instance* a = place(big, pose_at(0.0f, 0.5f, 0.0f));
    TEST_ENSURE(a);
    for (int k = 0; k < 3; ++k) {
        query q = { NULL, a, b, spx_v3(0, -1, 0), ZERO, tmaxes[k] };
        spx_mesh_hit h;
        TEST_ENSURE(check_against_brute(&q, "triangle over three steps", &h) == 0);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_NEAR(h.time, 0.5, 1e-6);
        TEST_ENSURE(h.contact_count == counts[k]);
    }
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(m);
    spx_mesh_destroy(big);
    return 0;
}

static int pierced_sheet_normals_cancel(void)
{ /* Start overlaps worked by hand. A cube's surface (12 triangles, a soup to the queries) cut at
       y = 0 by a level square sheet reaching past it: the 8 side triangles cross the sheet, and each
       meets one or both of the sheet's two triangles (split along z = x): 12 pairs, counted side by
       side in the comment of each below. Then two parallel fins (squares at x = -1 and x = +1) and a
       level sheet 2.2 m wide passing 0.1 m through both: each pair parts most easily along x, the
       left fin's pairs along +x, the right's along -x, 3 each; their mean is zero, so the answer's
       normal must be the deepest pair's (all equally deep here: the answer's own `first`), and the
       depth estimate along it 2.1 m (A's far fin at x = 1 less the sheet's end at -1.1). */
    const spx_vec3 cv[8] = { { -1, -1, -1 }, { 1, -1, -1 }, { -1, 1, -1 }, { 1, 1, -1 },
                             { -1, -1, 1 },  { 1, -1, 1 },  { -1, 1, 1 },  { 1, 1, 1 } };
    /* z = -1: 2 + 1 pairs, z = 1: 2 + 1, y = -1 and y = 1: none, x = -1: 1 + 2, x = 1: 1 + 2 */
    const uint32_t ci[36] = { 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                              2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5 };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = cv, def.vertex_count = 8, def.indices = ci, def.triangle_count = 12;
    spx_mesh* cube = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &cube), SPX_OK);
    const spx_vec3 sv[4] = { { -3, 0, -3 }, { 3, 0, -3 }, { 3, 0, 3 }, { -3, 0, 3 } };
    const uint32_t si[6] = { 0, 2, 1, 0, 3, 2 };
    def.vertices = sv, def.vertex_count = 4, def.indices = si, def.triangle_count = 2;
    spx_mesh* sheet = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &sheet), SPX_OK);
    spx_mesh_instance *a = place(cube, IDENTITY), *b = place(sheet, IDENTITY);
    TEST_ENSURE(a && b);
    query q = { NULL, a, b, ZERO, ZERO, 1.0f };
    spx_mesh_hit h;
    TEST_ENSURE(check_against_brute(&q, "cube cut by a sheet", &h) == 0);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(h.contact_count == 12);
    query s = { NULL, b, a, ZERO, ZERO, 1.0f };
    TEST_ENSURE(check_against_brute(&s, "sheet cutting a cube", &h) == 0);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP && h.contact_count == 12);

    const spx_vec3 fv[8] = { { -1, -1, -1 }, { -1, 1, -1 }, { -1, 1, 1 }, { -1, -1, 1 },
                             { 1, -1, -1 },  { 1, 1, -1 },  { 1, 1, 1 },  { 1, -1, 1 } };
    const uint32_t fi[12] = { 0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6 };
    const spx_vec3 nv[4] = { { -1.1f, 0, -0.5f }, { 1.1f, 0, -0.5f }, { 1.1f, 0, 0.5f }, { -1.1f, 0, 0.5f } };
    spx_mesh *fins = NULL, *narrow = NULL;
    def.vertices = fv, def.vertex_count = 8, def.indices = fi, def.triangle_count = 4;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &fins), SPX_OK);
    def.vertices = nv, def.vertex_count = 4, def.indices = si, def.triangle_count = 2;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &narrow), SPX_OK);
    spx_mesh_instance *f = place(fins, IDENTITY), *n = place(narrow, IDENTITY);
    TEST_ENSURE(f && n);
    query qf = { NULL, f, n, ZERO, ZERO, 1.0f };
    TEST_ENSURE(check_against_brute(&qf, "fins pierced by a sheet", &h) == 0);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    TEST_ENSURE(h.contact_count == 6);
    TEST_ENSURE(memcmp(&h.normal, &h.first.normal, sizeof h.normal) == 0);
    TEST_ENSURE_NEAR(fabs(h.normal.x), 1.0, 1e-6);
    TEST_ENSURE_NEAR(h.first.depth, 0.1, 1e-6);
    TEST_ENSURE_NEAR(h.depth, 2.1, 1e-6);
    query sf = { NULL, n, f, ZERO, ZERO, 1.0f };
    TEST_ENSURE(check_against_brute(&sf, "sheet piercing fins", &h) == 0);
    TEST_ENSURE(memcmp(&h.normal, &h.first.normal, sizeof h.normal) == 0);
    TEST_ENSURE_NEAR(fabs(h.normal.x), 1.0, 1e-6);
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_instance_destroy(f);
    spx_mesh_instance_destroy(n);
    spx_mesh_destroy(cube);
    spx_mesh_destroy(sheet);
    spx_mesh_destroy(fins);
    spx_mesh_destroy(narrow);
    return 0;
}

static int tiny_triangles_far_away_skipped(void)
{ /* A mesh with, beside a grid, triangles 1e-7 m across at 0.01 m from its origin (kept by the
       mesh: not degenerate there), placed 1e4 m away, where float steps are 1e-3 m: their corners
       round together, so the queries must skip them (the leaf test would refuse them) and still
       answer for the rest, as the brute force does when it skips them too. */
    test_shape grid;
    TEST_ENSURE(test_shape_grid(&grid, 4, 4));
    const uint32_t extra = 4, nv = grid.vertex_count, nt = grid.triangle_count;
    spx_vec3* v = malloc(sizeof(spx_vec3) * (nv + 3 * extra));
    uint32_t* idx = malloc(sizeof(uint32_t) * 3 * (nt + extra));
    TEST_ENSURE(v && idx);
    memcpy(v, grid.vertices, sizeof(spx_vec3) * nv);
    memcpy(idx, grid.indices, sizeof(uint32_t) * 3 * nt);
    for (uint32_t k = 0; k < extra; ++k) {
        float x = 0.01f * (float)(k + 1);
        v[nv + 3 * k] = spx_v3(x, 0.0f, 0.01f);
        v[nv + 3 * k + 1] = spx_v3(x + 1e-7f, 0.0f, 0.01f);
        v[nv + 3 * k + 2] = spx_v3(x, 0.0f, 0.01f + 1e-7f);
        for (int c = 0; c < 3; ++c) idx[3 * (nt + k) + c] = nv + 3 * k + (uint32_t)c;
    }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = nv + 3 * extra, def.indices = idx, def.triangle_count = nt + extra;
    spx_mesh* m = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &m), SPX_OK);
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(m, &info), SPX_OK);
    TEST_ENSURE(info.triangle_count == nt + extra); /* kept at home */
    spx_mesh_instance* b = place(m, pose_at(1.0e4f, 0.0f, 0.0f));
    TEST_ENSURE(b);
    test_brute_side far_side;
    TEST_ENSURE(test_brute_side_from_instance(&far_side, b));
    TEST_ENSURE(far_side.skipped == extra); /* and collapsed out there */
    test_brute_side_free(&far_side);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(1.0e4f + 0.5f, 1.0f, 0.5f), spx_v3(0.5f, 0.5f, 0.5f), IDENTITY.q, &box),
                     SPX_OK);
    query q = { &box, NULL, b, spx_v3(0, -1, 0), ZERO, 1.0f };
    spx_mesh_hit h;
    TEST_ENSURE(check_against_brute(&q, "box onto a far grid with collapsed triangles", &h) == 0);
    TEST_ENSURE(h.state == SPX_SWEEP_HIT);
    box.center.y = 0.5f; /* resting on it, over the collapsed ones too */
    TEST_ENSURE(check_against_brute(&q, "box resting on them", &h) == 0);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    spx_mesh_instance* a = place(m, pose_at(1.0e4f, 0.0f, 0.0f));
    query qm = { NULL, a, b, ZERO, ZERO, 1.0f };
    TEST_ENSURE(check_against_brute(&qm, "the far mesh on a copy of itself", &h) == 0);
    TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
    bool flag = false;
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(a, b, &flag), SPX_OK);
    TEST_ENSURE(flag);
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(m);
    free(v);
    free(idx);
    test_shape_free(&grid);
    return 0;
}

/* Runs q with contacts arrays of several sizes below, at and above the set's size: contacts_written
   = min(capacity, contact_count), contact_count the whole set every time, the other fields the same,
   and what is written is the start of the full list (the order is the descent's, which the capacity
   does not change). */
static int capacities(const query* q, const char* label, uint32_t* out_count)
{
    test_brute_full f;
    memset(&f, 0, sizeof f);
    TEST_ENSURE(test_brute_full_run(q, &f) == 0);
    const uint32_t n = f.hit.contact_count;
    TEST_ENSURE(n > 4);
    const uint32_t caps[7] = { 0, 1, 2, n / 2, n - 1, n, n + 3 };
    for (int k = 0; k < 7; ++k) {
        test_brute_buffer buf;
        TEST_ENSURE(test_brute_buffer_make(&buf, caps[k]));
        spx_mesh_hit h;
        spx_mesh_contact* c = caps[k] ? buf.c : NULL;
        spx_result r = q->box ? spx_sweep_obb_mesh(q->box, q->va, q->b, q->vb, q->tmax, c, caps[k], &h)
                              : spx_sweep_mesh_mesh(q->a, q->va, q->b, q->vb, q->tmax, c, caps[k], &h);
        int bad = r != SPX_OK || h.contact_count != n || h.contacts_written != (caps[k] < n ? caps[k] : n) ||
                  !test_brute_buffer_intact(&buf) || h.state != f.hit.state || h.time != f.hit.time ||
                  memcmp(&h.first, &f.hit.first, sizeof h.first) != 0 ||
                  memcmp(&h.normal, &f.hit.normal, sizeof h.normal) != 0;
        if (!bad && h.contacts_written)
            bad = memcmp(buf.c, f.buf.c, sizeof(spx_mesh_contact) * h.contacts_written) != 0;
        if (bad)
            fprintf(stderr, "%s: capacity %u: result %d, %u written, %u counted (full: %u)\n", label, caps[k], (int)r,
                    h.contacts_written, h.contact_count, n);
        test_brute_buffer_free(&buf);
        TEST_ENSURE(!bad);
    }
    test_brute_buffer_free(&f.buf);
    *out_count = n;
    return 0;
}

static int contact_count_beyond_capacity(void)
{ /* The tie-heavy problems above (grid on grid, torus on grid, box on grid, a start overlap of two
       tori) with contacts arrays smaller than their sets: see capacities(). */
    test_shape ga, gb, torus;
    TEST_ENSURE(test_shape_grid(&ga, 6, 6) && test_shape_grid(&gb, 3, 3) &&
                test_shape_torus(&torus, 1.0f, 0.25f, 24, 8));
    spx_mesh *ma = test_shape_mesh_leaf(&ga, 4), *mb = test_shape_mesh_leaf(&gb, 1),
             *mt = test_shape_mesh_leaf(&torus, 16);
    TEST_ENSURE(ma && mb && mt);
    spx_mesh_instance *a = place(ma, IDENTITY), *b = place(mb, pose_at(1.5f, 1.0f, 1.5f)),
                      *t = place(mt, pose_at(2.0f, 0.75f, 2.0f));
    spx_mesh_instance* t2 = place(mt, pose_at(2.5f, 0.75f, 2.2f));
    TEST_ENSURE(a && b && t && t2);
    uint32_t n;
    query q1 = { NULL, a, b, ZERO, spx_v3(0, -2, 0), 1.0f };
    TEST_ENSURE(capacities(&q1, "grid on grid", &n) == 0);
    printf("  grid on grid: %u contacts\n", n);
    query q2 = { NULL, t, a, spx_v3(0, -1, 0), ZERO, 1.0f };
    TEST_ENSURE(capacities(&q2, "torus on grid", &n) == 0);
    printf("  torus on grid: %u contacts\n", n);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(3.0f, 2.0f, 3.0f), spx_v3(1.5f, 0.5f, 1.5f), IDENTITY.q, &box), SPX_OK);
    query q3 = { &box, NULL, a, spx_v3(0, -3, 0), ZERO, 1.0f };
    TEST_ENSURE(capacities(&q3, "box on grid", &n) == 0);
    TEST_ENSURE(n == 32);
    query q4 = { NULL, t, t2, ZERO, ZERO, 1.0f };
    TEST_ENSURE(capacities(&q4, "two tori overlapping", &n) == 0);
    printf("  two tori overlapping: %u contacts\n", n);
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_instance_destroy(t);
    spx_mesh_instance_destroy(t2);
    spx_mesh_destroy(ma);
    spx_mesh_destroy(mb);
    spx_mesh_destroy(mt);
    test_shape_free(&ga);
    test_shape_free(&gb);
    test_shape_free(&torus);
    return 0;
}

/* ---- bad input ------------------------------------------------------------------------------------ */

/* Calls `call` with a garbage-filled hit and contacts: it must return `code` and leave both as they were. */
#define ENSURE_FAILS_UNTOUCHED(call, code)                                         \
    do {                                                                           \
        memset(&hit, 0xAB, sizeof hit);                                            \
        memset(spare, 0xCD, sizeof spare);                                         \
        TEST_ENSURE_CODE(call, code);                                              \
        unsigned char hit_bytes_[sizeof hit];                                      \
        memset(hit_bytes_, 0xAB, sizeof hit_bytes_);                               \
        TEST_ENSURE(memcmp(&hit, hit_bytes_, sizeof hit) == 0);                    \
        const unsigned char* sp_ = (const unsigned char*)spare;                    \
        for (size_t i_ = 0; i_ < sizeof spare; ++i_) TEST_ENSURE(sp_[i_] == 0xCD); \
    } while (0)

static int bad_input_codes(void)
{ /* Every documented error code of every new call, each alone; a failed call leaves its outputs
       as they were (*out of create, the old pose of set_pose, and the hit and contacts of the
       queries, as a failed call changes nothing). */
    test_shape grid;
    TEST_ENSURE(test_shape_grid(&grid, 3, 3));
    spx_mesh* mesh = test_shape_mesh_leaf(&grid, 4);
    TEST_ENSURE(mesh);
    spx_mesh_instance* const sentinel = (spx_mesh_instance*)&grid;
    spx_mesh_instance* out = sentinel;
    spx_transform pose = pose_at(0.5f, 0.0f, 0.5f), bad;
    const spx_allocator no_free = { test_counting_alloc, NULL, NULL }, no_alloc = { NULL, test_counting_free, NULL };

    /* create */
    spx_mesh_instance_def def = spx_default_mesh_instance_def();
    def.mesh = mesh, def.pose = pose;
    TEST_ENSURE_CODE(spx_mesh_instance_create(NULL, &out), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_create(&def, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_mesh_instance_def zeroed = { mesh, pose, NULL, 0 }; /* not from the default function */
    TEST_ENSURE_CODE(spx_mesh_instance_create(&zeroed, &out), SPX_ERR_UNINITIALIZED_DEF);
    zeroed.mesh = NULL; /* the cookie before the values, as base.h orders faults */
    TEST_ENSURE_CODE(spx_mesh_instance_create(&zeroed, &out), SPX_ERR_UNINITIALIZED_DEF);
    TEST_ENSURE_CODE(test_place_mesh(NULL, pose, &out), SPX_ERR_INVALID_ARGUMENT);
    def.allocator = &no_free;
    TEST_ENSURE_CODE(spx_mesh_instance_create(&def, &out), SPX_ERR_INVALID_ARGUMENT);
    def.allocator = &no_alloc;
    TEST_ENSURE_CODE(spx_mesh_instance_create(&def, &out), SPX_ERR_INVALID_ARGUMENT);
    const float nonfinite[3] = { NAN, INFINITY, -INFINITY };
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 7; ++c) { /* each of p.x, p.y, p.z, q.x, q.y, q.z, q.w */
            bad = pose;
            if (c < 3) (&bad.p.x)[c] = nonfinite[k];
            else (&bad.q.x)[c - 3] = nonfinite[k];
            TEST_ENSURE_CODE(test_place_mesh(mesh, bad, &out), SPX_ERR_NOT_FINITE);
        }
    const float off_unit[4] = { 1.001f, 0.999f, 1.0f + 2e-5f, 0.0f };
    for (int k = 0; k < 4; ++k) {
        bad = pose;
        bad.q.w = off_unit[k];
        TEST_ENSURE_CODE(test_place_mesh(mesh, bad, &out), SPX_ERR_NOT_ORTHONORMAL);
    }
    bad = pose, bad.q = (spx_quat){ 0.6f, 0.0f, 0.0f, 0.81f }; /* length 1.008 */
    TEST_ENSURE_CODE(test_place_mesh(mesh, bad, &out), SPX_ERR_NOT_ORTHONORMAL);
    TEST_ENSURE(out == sentinel); /* no failed create wrote *out */

    spx_mesh_instance* inst = NULL;
    TEST_ENSURE_CODE(test_place_mesh(mesh, pose, &inst), SPX_OK);
    spx_mesh_instance* other = place(mesh, pose_at(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(other);

    /* set_pose and get_pose */
    spx_transform got;
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(NULL, &pose), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, NULL), SPX_ERR_INVALID_ARGUMENT);
    bad = pose, bad.p.y = NAN;
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &bad), SPX_ERR_NOT_FINITE);
    bad = pose, bad.q.x = INFINITY;
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &bad), SPX_ERR_NOT_FINITE);
    bad = pose, bad.q.w = 1.001f;
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &bad), SPX_ERR_NOT_ORTHONORMAL);
    TEST_ENSURE_CODE(spx_mesh_instance_get_pose(inst, &got), SPX_OK);
    TEST_ENSURE(memcmp(&got, &pose, sizeof got) == 0); /* the old pose kept */
    TEST_ENSURE_CODE(spx_mesh_instance_get_pose(NULL, &got), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_pose(inst, NULL), SPX_ERR_INVALID_ARGUMENT);
    const spx_mesh* placed = NULL;
    TEST_ENSURE_CODE(spx_mesh_instance_get_mesh(NULL, &placed), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_mesh(inst, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_mesh(inst, &placed), SPX_OK);
    TEST_ENSURE(placed == mesh);

    /* get_triangle */
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    spx_triangle tri;
    uint32_t src;
    TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(NULL, 0, &tri, &src), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, 0, NULL, &src), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, info.triangle_count, &tri, &src), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, UINT32_MAX, &tri, &src), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, info.triangle_count - 1, &tri, NULL), SPX_OK);

    /* the queries */
    spx_obb box, badbox;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(1, 1, 1), spx_v3(0.5f, 0.5f, 0.5f), IDENTITY.q, &box), SPX_OK);
    spx_mesh_hit hit;
    spx_mesh_contact spare[4];
    bool flag = true;
    const spx_vec3 v = { 0, -1, 0 }, vnan = { 0, NAN, 0 }, vinf = { INFINITY, 0, 0 };

    /* sweep_obb_mesh */
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(NULL, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, NULL, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, v, inst, ZERO, 1.0f, spare, 4, NULL), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, inst, ZERO, 1.0f, NULL, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, vnan, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, inst, vinf, 1.0f, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, inst, ZERO, NAN, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, inst, ZERO, INFINITY, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, inst, ZERO, -1.0f, spare, 4, &hit), SPX_ERR_BAD_TIME);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&box, v, inst, ZERO, -FLT_MIN, spare, 4, &hit), SPX_ERR_BAD_TIME);
    badbox = box, badbox.center.x = NAN;
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&badbox, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    badbox = box, badbox.half_extents.y = -0.5f;
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&badbox, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_BAD_EXTENT);
    badbox = box, badbox.half_extents.z = 0.0f;
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&badbox, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_BAD_EXTENT);
    badbox = box, badbox.rotation.col[0].x = 1.01f;
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&badbox, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_NOT_ORTHONORMAL);
    badbox = box, badbox.rotation.col[2].z = -1.0f; /* a reflection */
    ENSURE_FAILS_UNTOUCHED(spx_sweep_obb_mesh(&badbox, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_NOT_RIGHT_HANDED);
    TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, v, inst, ZERO, 1.0f, NULL, 0, &hit),
                     SPX_OK); /* no array, no room: fine */
    TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, v, inst, ZERO, 0.0f, NULL, 0, &hit), SPX_OK);  /* tmax 0 is allowed */
    TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, v, inst, ZERO, -0.0f, NULL, 0, &hit), SPX_OK); /* -0 is not below 0 */

    /* sweep_mesh_mesh */
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(NULL, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, v, NULL, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_sweep_mesh_mesh(other, v, inst, ZERO, 1.0f, spare, 4, NULL), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, v, inst, ZERO, 1.0f, NULL, 1, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(inst, v, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, vinf, inst, ZERO, 1.0f, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, v, inst, vnan, 1.0f, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, v, inst, ZERO, NAN, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, v, inst, ZERO, -INFINITY, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    ENSURE_FAILS_UNTOUCHED(spx_sweep_mesh_mesh(other, v, inst, ZERO, -0.5f, spare, 4, &hit), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_mesh_mesh(other, v, inst, ZERO, 1.0f, NULL, 0, &hit), SPX_OK);

    /* overlap_obb_mesh and overlap_mesh_mesh: *out_overlap untouched on failure */
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(NULL, inst, &flag), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, NULL, &flag), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, inst, NULL), SPX_ERR_INVALID_ARGUMENT);
    badbox = box, badbox.half_extents.x = INFINITY;
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&badbox, inst, &flag), SPX_ERR_NOT_FINITE);
    badbox = box, badbox.half_extents.x = -1.0f;
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&badbox, inst, &flag), SPX_ERR_BAD_EXTENT);
    badbox = box, badbox.rotation.col[1] = badbox.rotation.col[0];
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&badbox, inst, &flag), SPX_ERR_NOT_ORTHONORMAL);
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(NULL, inst, &flag), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(other, NULL, &flag), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(other, inst, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_mesh_mesh(inst, inst, &flag), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(flag == true); /* no failed call wrote it */
    flag = false;
    badbox = box, badbox.center.z = -INFINITY;
    TEST_ENSURE_CODE(spx_overlap_obb_mesh(&badbox, inst, &flag), SPX_ERR_NOT_FINITE);
    TEST_ENSURE(flag == false);

    /* contacts_obb_mesh and contacts_mesh_mesh */
    ENSURE_FAILS_UNTOUCHED(spx_penetration_obb_mesh(NULL, inst, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_penetration_obb_mesh(&box, NULL, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_obb_mesh(&box, inst, spare, 4, NULL), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_penetration_obb_mesh(&box, inst, NULL, 2, &hit), SPX_ERR_INVALID_ARGUMENT);
    badbox = box, badbox.rotation.col[0].y = NAN;
    ENSURE_FAILS_UNTOUCHED(spx_penetration_obb_mesh(&badbox, inst, spare, 4, &hit), SPX_ERR_NOT_FINITE);
    badbox = box, badbox.half_extents.y = 0.0f;
    ENSURE_FAILS_UNTOUCHED(spx_penetration_obb_mesh(&badbox, inst, spare, 4, &hit), SPX_ERR_BAD_EXTENT);
    badbox = box, badbox.rotation.col[0].x = -1.0f;
    ENSURE_FAILS_UNTOUCHED(spx_penetration_obb_mesh(&badbox, inst, spare, 4, &hit), SPX_ERR_NOT_RIGHT_HANDED);
    TEST_ENSURE_CODE(spx_penetration_obb_mesh(&box, inst, NULL, 0, &hit), SPX_OK);
    ENSURE_FAILS_UNTOUCHED(spx_penetration_mesh_mesh(NULL, inst, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_penetration_mesh_mesh(other, NULL, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_mesh_mesh(other, inst, spare, 4, NULL), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_penetration_mesh_mesh(other, inst, NULL, 3, &hit), SPX_ERR_INVALID_ARGUMENT);
    ENSURE_FAILS_UNTOUCHED(spx_penetration_mesh_mesh(other, other, spare, 4, &hit), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_penetration_mesh_mesh(other, inst, NULL, 0, &hit), SPX_OK);

    spx_mesh_instance_destroy(inst);
    spx_mesh_instance_destroy(other);
    spx_mesh_instance_destroy(NULL);
    spx_mesh_destroy(mesh);
    test_shape_free(&grid);
    return 0;
}

static int instance_allocation_failure(void)
{ /* An instance whose allocator fails at its k-th call, for every k until creation succeeds:
       SPX_ERR_OUT_OF_MEMORY, *out untouched, nothing left allocated. Then no query allocates through
       it (their error lists have no out-of-memory: the descent's stack is fixed), and destroy gives
       everything back. */
    test_shape torus;
    TEST_ENSURE(test_shape_torus(&torus, 1.0f, 0.3f, 24, 12));
    spx_mesh* mesh = test_shape_mesh_leaf(&torus, 4);
    TEST_ENSURE(mesh);
    test_counting c;
    spx_allocator alloc = { test_counting_alloc, test_counting_free, &c };
    spx_mesh_instance* const sentinel = (spx_mesh_instance*)&torus;
    spx_mesh_instance* inst = sentinel;
    spx_mesh_instance_def def = spx_default_mesh_instance_def();
    def.mesh = mesh, def.allocator = &alloc;
    int k;
    for (k = 1; k < 100; ++k) {
        c = (test_counting){ .fail_at = k };
        spx_result r = spx_mesh_instance_create(&def, &inst);
        if (r == SPX_OK) break;
        TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_MEMORY);
        TEST_ENSURE(inst == sentinel);
        TEST_ENSURE(c.live == 0 && c.live_bytes == 0);
    }
    TEST_ENSURE(k > 1 && k < 100);
    TEST_ENSURE(inst != sentinel && inst != NULL);
    c.fail_at = 0;
    const int calls = c.calls;
    spx_mesh_instance* other = place(mesh, pose_at(0.5f, 0.2f, 0.0f));
    TEST_ENSURE(other);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 1.5f, 0), spx_v3(1.2f, 0.2f, 1.2f), IDENTITY.q, &box), SPX_OK);
    test_brute_buffer buf;
    TEST_ENSURE(test_brute_buffer_make(&buf, 64));
    spx_mesh_hit h;
    bool flag;
    for (int round = 0; round < 3; ++round) {
        spx_transform t = pose_at(0.1f * (float)round, 0.0f, 0.0f);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &t), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_obb_mesh(&box, spx_v3(0, -3, 0), inst, ZERO, 1.0f, buf.c, buf.capacity, &h), SPX_OK);
        TEST_ENSURE(h.state == SPX_SWEEP_HIT);
        TEST_ENSURE_CODE(spx_sweep_mesh_mesh(inst, ZERO, other, ZERO, 1.0f, buf.c, buf.capacity, &h), SPX_OK);
        TEST_ENSURE(h.state == SPX_SWEEP_START_OVERLAP);
        TEST_ENSURE_CODE(spx_sweep_mesh_mesh(other, ZERO, inst, ZERO, 1.0f, buf.c, buf.capacity, &h), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_obb_mesh(&box, inst, buf.c, buf.capacity, &h), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_mesh_mesh(inst, other, buf.c, buf.capacity, &h), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_obb_mesh(&box, inst, &flag), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_mesh_mesh(inst, other, &flag), SPX_OK);
    }
    TEST_ENSURE(c.calls == calls);
    test_brute_buffer_free(&buf);
    spx_mesh_instance_destroy(inst);
    TEST_ENSURE(c.live == 0 && c.live_bytes == 0);
    spx_mesh_instance_destroy(other);
    spx_mesh_destroy(mesh);
    test_shape_free(&torus);
    return 0;
}

/* ---- instances ------------------------------------------------------------------------------------ */

static int instance_pose_round_trip(void)
{ /* get_pose returns the position as given and the quaternion normalised: exactly when it was unit
       already, within a float step of q / |q| when it was off by less than SPX_ROTATION_TOLERANCE
       (accepted). World triangles follow the pose: corner = R(q) local + p, to float rounding. */
    test_shape torus;
    TEST_ENSURE(test_shape_torus(&torus, 1.0f, 0.3f, 12, 6));
    spx_mesh* mesh = test_shape_mesh_leaf(&torus, 4);
    TEST_ENSURE(mesh);
    spx_mesh_instance* inst = place(mesh, IDENTITY);
    TEST_ENSURE(inst);
    test_case_rng rng = { 0x5E9A3005u };
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    for (int k = 0; k < 200; ++k) {
        const float x = (float)test_case_uniform(&rng, -1e3, 1e3), y = (float)test_case_uniform(&rng, -10, 10),
                    z = (float)test_case_uniform(&rng, -1, 1);
        spx_transform t = { { x, y, z }, test_case_random_quat(&rng) };
        /* make the quaternion unit in double, then off by up to 8e-6 (inside the tolerance) */
        double qq[4] = { t.q.x, t.q.y, t.q.z, t.q.w }, n = 0;
        for (int i = 0; i < 4; ++i) n += qq[i] * qq[i];
        double scale = k % 2 ? 1.0 + test_case_uniform(&rng, -8e-6, 8e-6) : 1.0;
        spx_quat given = { (float)(qq[0] / sqrt(n) * scale), (float)(qq[1] / sqrt(n) * scale),
                           (float)(qq[2] / sqrt(n) * scale), (float)(qq[3] / sqrt(n) * scale) };
        t.q = given;
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &t), SPX_OK);
        spx_transform got;
        TEST_ENSURE_CODE(spx_mesh_instance_get_pose(inst, &got), SPX_OK);
        TEST_ENSURE(memcmp(&got.p, &t.p, sizeof got.p) == 0);
        double gn = sqrt((double)got.q.x * got.q.x + (double)got.q.y * got.q.y + (double)got.q.z * got.q.z +
                         (double)got.q.w * got.q.w);
        TEST_ENSURE_NEAR(gn, 1.0, 2.5e-7);
        double gl = sqrt((double)given.x * given.x + (double)given.y * given.y + (double)given.z * given.z +
                         (double)given.w * given.w);
        TEST_ENSURE_NEAR3(got.q, given.x / gl, given.y / gl, given.z / gl, 1.2e-7);
        TEST_ENSURE_NEAR(got.q.w, given.w / gl, 1.2e-7);
        /* setting the pose read back changes nothing */
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &got), SPX_OK);
        spx_transform again;
        TEST_ENSURE_CODE(spx_mesh_instance_get_pose(inst, &again), SPX_OK);
        TEST_ENSURE_NEAR(again.q.x, got.q.x, 6e-8);
        TEST_ENSURE_NEAR(again.q.w, got.q.w, 6e-8);
        /* world triangles: R(q) local + p in double, to float rounding at these coordinates */
        for (uint32_t i = 0; i < info.triangle_count; i += 7) {
            spx_triangle local, world;
            uint32_t s1, s2;
            TEST_ENSURE_CODE(spx_mesh_get_triangle(mesh, i, &local, &s1), SPX_OK);
            TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(inst, i, &world, &s2), SPX_OK);
            TEST_ENSURE(s1 == s2);
            for (int cc = 0; cc < 3; ++cc) {
                spx_vec3 r = test_case_turn(got.q, local.v[cc]);
                TEST_ENSURE_NEAR(world.v[cc].x, (double)r.x + got.p.x, 2e-4);
                TEST_ENSURE_NEAR(world.v[cc].y, (double)r.y + got.p.y, 2e-6);
                TEST_ENSURE_NEAR(world.v[cc].z, (double)r.z + got.p.z, 2e-6);
            }
        }
    }
    spx_transform unit = { { 1, 2, 3 }, { 0.0f, 0.6f, 0.0f, 0.8f } };
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &unit), SPX_OK);
    spx_transform got;
    TEST_ENSURE_CODE(spx_mesh_instance_get_pose(inst, &got), SPX_OK);
    TEST_ENSURE_NEAR(got.q.y, 0.6, 6e-8);
    TEST_ENSURE_NEAR(got.q.w, 0.8, 6e-8);
    TEST_ENSURE(memcmp(&IDENTITY.q, &(spx_quat){ 0, 0, 0, 1 }, sizeof IDENTITY.q) == 0);
    TEST_ENSURE_CODE(spx_mesh_instance_set_pose(inst, &IDENTITY), SPX_OK);
    TEST_ENSURE_CODE(spx_mesh_instance_get_pose(inst, &got), SPX_OK);
    TEST_ENSURE(memcmp(&got, &IDENTITY, sizeof got) == 0);
    spx_mesh_instance_destroy(inst);
    spx_mesh_destroy(mesh);
    test_shape_free(&torus);
    return 0;
}

static int same_answer(const test_brute_full* x, const test_brute_full* y)
{
    TEST_ENSURE(x->hit.state == y->hit.state && x->hit.contact_count == y->hit.contact_count);
    TEST_ENSURE(memcmp(&x->hit, &y->hit, sizeof x->hit) == 0);
    TEST_ENSURE(memcmp(x->buf.c, y->buf.c, sizeof(spx_mesh_contact) * x->hit.contacts_written) == 0);
    return 0;
}

static int moved_instance_answers_as_fresh(void)
{ /* An instance queried at one pose (its cache filled there), then moved, must answer exactly as a
       new instance created at the new pose: the lazy cache must not serve node boxes or triangles of
       the old pose. Moved back, it answers as at first; a failed set_pose changes nothing; setting
       the same pose again changes nothing. For box and mesh queries, moving A, B or both, over a
       sequence of poses that alternate near (hit, overlap) and away (miss). */
    test_shape torus, sphere;
    TEST_ENSURE(test_shape_torus(&torus, 1.0f, 0.3f, 32, 12) && test_shape_sphere(&sphere, 0.6f, 10, 20));
    spx_mesh *mt = test_shape_mesh_leaf(&torus, 4), *ms = test_shape_mesh_leaf(&sphere, 1);
    TEST_ENSURE(mt && ms);
    test_case_rng rng = { 0x5E9A3006u };
    spx_mesh_instance *a = place(ms, IDENTITY), *b = place(mt, IDENTITY);
    TEST_ENSURE(a && b);
    spx_obb box;
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 1.2f, 0), spx_v3(0.7f, 0.2f, 0.4f), test_case_random_quat(&rng), &box),
                     SPX_OK);
    int compared = 0;
    for (int k = 0; k < 60; ++k) {
        const float ax = (float)test_case_uniform(&rng, -1.5, 1.5), ay = (float)test_case_uniform(&rng, -1, 1),
                    az = (float)test_case_uniform(&rng, -1.5, 1.5);
        spx_transform pa = { { ax, ay, az }, test_case_random_quat(&rng) };
        const float bx = (float)test_case_uniform(&rng, -0.5, 0.5), by = (float)test_case_uniform(&rng, -0.5, 0.5),
                    bz = (float)test_case_uniform(&rng, -0.5, 0.5);
        spx_transform pb = { { bx, by, bz }, test_case_random_quat(&rng) };
        if (k % 3 == 2) pa.p.x += 20.0f; /* away */
        if (k % 2 == 0) TEST_ENSURE_CODE(spx_mesh_instance_set_pose(a, &pa), SPX_OK);
        else TEST_ENSURE_CODE(spx_mesh_instance_get_pose(a, &pa), SPX_OK);
        if (k % 5 != 1) TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &pb), SPX_OK);
        else TEST_ENSURE_CODE(spx_mesh_instance_get_pose(b, &pb), SPX_OK);
        spx_mesh_instance *fa = place(ms, pa), *fb = place(mt, pb);
        TEST_ENSURE(fa && fb);
        const float vx = (float)test_case_uniform(&rng, -2, 2), vy = (float)test_case_uniform(&rng, -2, 2);
        const spx_vec3 va = { vx, vy, 0.0f };
        query used_mm = { NULL, a, b, va, ZERO, 1.0f }, fresh_mm = { NULL, fa, fb, va, ZERO, 1.0f };
        query used_bm = { &box, NULL, b, spx_v3(0, -2, 0), ZERO, 1.0f },
              fresh_bm = { &box, NULL, fb, spx_v3(0, -2, 0), ZERO, 1.0f };
        const query* pairs[2][2] = { { &used_mm, &fresh_mm }, { &used_bm, &fresh_bm } };
        for (int w = 0; w < 2; ++w) {
            test_brute_full x, y;
            memset(&x, 0, sizeof x), memset(&y, 0, sizeof y);
            TEST_ENSURE(test_brute_full_run(pairs[w][0], &x) == 0 && test_brute_full_run(pairs[w][1], &y) == 0);
            if (same_answer(&x, &y)) {
                fprintf(
                    stderr,
                    "step %d, %s: the moved instance answers %s at %.9g (%u contacts), a fresh one %s at %.9g (%u)\n",
                    k, w ? "box-mesh" : "mesh-mesh", test_brute_state_name(x.hit.state), x.hit.time,
                    x.hit.contact_count, test_brute_state_name(y.hit.state), y.hit.time, y.hit.contact_count);
                return 1;
            }
            /* static ones too */
            spx_mesh_hit hx, hy;
            test_brute_buffer none = { NULL, 0 };
            TEST_ENSURE_CODE(test_brute_run_contacts(pairs[w][0], &none, &hx), SPX_OK);
            TEST_ENSURE_CODE(test_brute_run_contacts(pairs[w][1], &none, &hy), SPX_OK);
            TEST_ENSURE(memcmp(&hx, &hy, sizeof hx) == 0);
            test_brute_buffer_free(&x.buf);
            test_brute_buffer_free(&y.buf);
            ++compared;
        }
        /* a failed move and a move to the same pose: still the same answers */
        spx_transform broken = pb;
        broken.q.w = NAN;
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(b, &broken), SPX_ERR_NOT_FINITE);
        TEST_ENSURE_CODE(spx_mesh_instance_set_pose(a, &pa), SPX_OK);
        test_brute_full x, y;
        memset(&x, 0, sizeof x), memset(&y, 0, sizeof y);
        TEST_ENSURE(test_brute_full_run(&used_mm, &x) == 0 && test_brute_full_run(&fresh_mm, &y) == 0);
        TEST_ENSURE(same_answer(&x, &y) == 0);
        test_brute_buffer_free(&x.buf);
        test_brute_buffer_free(&y.buf);
        /* world triangles of the moved instance are the fresh one's */
        spx_mesh_info info;
        TEST_ENSURE_CODE(spx_mesh_get_info(mt, &info), SPX_OK);
        for (uint32_t i = 0; i < info.triangle_count; i += 13) {
            spx_triangle t1, t2;
            TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(b, i, &t1, NULL), SPX_OK);
            TEST_ENSURE_CODE(spx_mesh_instance_get_triangle(fb, i, &t2, NULL), SPX_OK);
            TEST_ENSURE(memcmp(&t1, &t2, sizeof t1) == 0);
        }
        spx_mesh_instance_destroy(fa);
        spx_mesh_instance_destroy(fb);
    }
    printf("  %d answers of moved instances compared with fresh ones\n", compared);
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(mt);
    spx_mesh_destroy(ms);
    test_shape_free(&torus);
    test_shape_free(&sphere);
    return 0;
}

int main(int argc, char** argv)
{
    long_run = test_long_run(argc, argv);
    int failures = 0;
    clock_t start = clock();
    TEST_RUN(bad_input_codes, failures);
    TEST_RUN(instance_allocation_failure, failures);
    TEST_RUN(instance_pose_round_trip, failures);
    TEST_RUN(moved_instance_answers_as_fresh, failures);
    TEST_RUN(grid_falls_flat_onto_grid, failures);
    TEST_RUN(disk_falls_flat_onto_disk, failures);
    TEST_RUN(large_tied_sets_match_brute_force, failures);
    TEST_RUN(torus_dropped_onto_grid, failures);
    TEST_RUN(box_dropped_flat_onto_grid, failures);
    TEST_RUN(box_resting_on_grid_touches, failures);
    TEST_RUN(box_sliding_along_grid, failures);
    TEST_RUN(contact_count_beyond_capacity, failures);
    TEST_RUN(contact_window_edges, failures);
    TEST_RUN(pierced_sheet_normals_cancel, failures);
    TEST_RUN(tiny_triangles_far_away_skipped, failures);
    TEST_RUN(segments_meeting_at_the_origin_swapped, failures);
    TEST_RUN(segments_touching_within_rounding_swapped, failures);
    TEST_RUN(sweep_mesh_mesh_matches_brute_force, failures);
    TEST_RUN(swapped_meshes_same_answer, failures);
    TEST_RUN(swapped_flat_pass_through, failures);
    TEST_RUN(sweep_obb_mesh_matches_brute_force, failures);
    TEST_RUN(far_and_rotated_problem_same_answer, failures);
    TEST_RUN(static_queries_match_brute_force, failures);
    printf("%.1f s of processor time%s\n", seconds_since(start),
           TEST_SANITIZED ? " (sanitized: random cases / 4)" : "");
    return failures != 0;
}
