/* Broad phase: the swept sphere against hand-worked cases and sampled motion; the dynamic tree's
   invariants under random inserts, moves and removes; the pair finder against all pairs, with what
   began and ended; determinism; no allocation after warm-up; allocation failure at every call. */
#include "support/test.h"
#include "support/cases.h"
#include "broad/dynamic_tree.h"
#include "broad/pair_finder.h"
#include "broad/swept_sphere.h"

#include <stdint.h>
#include <stdlib.h>
#include "support/counting_alloc.h"

/* ---- swept sphere --------------------------------------------------------------------------------- */

static const spx_vec3 zero3 = { 0, 0, 0 };

static int swept_sphere_hand_cases(void)
{
    spx_sphere s;
    /* 2 m/s along x for 0.5 s: the centre moves 1 m, the middle is 0.5 m on; radius 0.5 + 0.5 + margin 0.1. */
    TEST_ENSURE_CODE(spx_swept_sphere(spx_v3(1, 2, 3), spx_v3(2, 0, 0), zero3, zero3, 0.5f, 0.1f, 0.5f, &s), SPX_OK);
    TEST_ENSURE_NEAR3(s.center, 1.5, 2.0, 3.0, 0);
    TEST_ENSURE((double)s.radius >= 1.1 && s.radius <= 1.1f * (1.0f + 4e-7f));

    /* |v| = 5 m/s over 0.2 s: 1 m of travel, half of it on the radius. */
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, spx_v3(3, 4, 0), zero3, zero3, 1.0f, 0.0f, 0.2f, &s), SPX_OK);
    TEST_ENSURE_NEAR(s.center.x, 0.3, 1e-7);
    TEST_ENSURE_NEAR(s.center.y, 0.4, 1e-7);
    TEST_ENSURE_NEAR(s.radius, 1.5, 4e-7);
    TEST_ENSURE((double)s.radius >= 1.5);

    /* Spinning fast about the centre of mass with the sphere centred there: rotation adds nothing. */
    TEST_ENSURE_CODE(spx_swept_sphere(spx_v3(5, 0, 0), zero3, spx_v3(0, 0, 100), zero3, 0.75f, 0.0f, 0.5f, &s), SPX_OK);
    TEST_ENSURE(s.center.x == 5.0f && s.center.y == 0.0f);
    TEST_ENSURE(s.radius >= 0.75f && s.radius <= 0.75f * (1.0f + 2.4e-7f)); /* 0.75 rounded outwards */

    /* Sphere 1 m off the centre of mass, turning at 2 rad/s for 0.25 s: 0.5 rad, the offset's end
       moves by at most 0.5 m (the arc; the chord is 2 sin(0.25) = 0.4948). */
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, spx_v3(0, 0, 2), spx_v3(1, 0, 0), 0.5f, 0.0f, 0.25f, &s), SPX_OK);
    TEST_ENSURE_NEAR(s.center.x, 1.0, 0);
    TEST_ENSURE_NEAR(s.radius, 1.0, 4e-7);
    TEST_ENSURE((double)s.radius >= 1.0);
    /* The same for 2 s: 4 rad, more than the diameter allows; the bound stops at 2 |offset|. */
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, spx_v3(0, 0, 2), spx_v3(1, 0, 0), 0.5f, 0.0f, 2.0f, &s), SPX_OK);
    TEST_ENSURE_NEAR(s.radius, 2.5, 1e-6);
    TEST_ENSURE((double)s.radius >= 2.5);

    /* dt = 0: the bounding sphere plus the margin. */
    TEST_ENSURE_CODE(spx_swept_sphere(spx_v3(-1, 0, 7), spx_v3(9, 9, 9), spx_v3(3, 0, 0), zero3, 2.0f, 0.25f, 0.0f, &s),
                     SPX_OK);
    TEST_ENSURE(s.center.x == -1.0f && s.center.z == 7.0f);
    TEST_ENSURE(s.radius >= 2.25f && s.radius <= 2.25f * (1.0f + 2.4e-7f));

    /* The box is one float step outside the sphere on every face. */
    spx_sphere unit = { { 0, 0, 0 }, 1.0f };
    spx_aabb b = spx_sphere_aabb(&unit);
    for (int k = 0; k < 3; ++k) {
        TEST_ENSURE(b.min[k] < -1.0f && b.min[k] >= -1.0f - 2.4e-7f);
        TEST_ENSURE(b.max[k] > 1.0f && b.max[k] <= 1.0f + 2.4e-7f);
    }
    spx_sphere point = { { 0, 0, 0 }, 0.0f };
    b = spx_sphere_aabb(&point);
    TEST_ENSURE(b.min[0] < 0.0f && b.max[0] > 0.0f && b.max[0] < 1e-40f);
    return 0;
}

static int swept_sphere_bad_input(void)
{
    spx_sphere s = { { 7, 7, 7 }, 7 };
    const spx_sphere before = s;
    spx_vec3 nan3 = { 0, NAN, 0 }, inf3 = { INFINITY, 0, 0 };
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, 0, 1, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_swept_sphere(nan3, zero3, zero3, zero3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, inf3, zero3, zero3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, nan3, zero3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, inf3, 1, 0, 1, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, NAN, 0, 1, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, INFINITY, 1, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, 0, NAN, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, -1, 0, 1, &s), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, -0.5f, 1, &s), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, zero3, zero3, zero3, 1, 0, -1, &s), SPX_ERR_BAD_TIME);
    /* Finite inputs whose sphere is not: 3e38 m/s for 10 s. */
    TEST_ENSURE_CODE(spx_swept_sphere(zero3, spx_v3(3e38f, 0, 0), zero3, zero3, 1, 0, 10, &s), SPX_ERR_NOT_FINITE);
    TEST_ENSURE(memcmp(&s, &before, sizeof s) == 0); /* no failed call wrote *out */
    return 0;
}

/* q rotated by the angle |w| t about w (Rodrigues), in double. */
static void rotate(const double w[3], double t, const double q[3], double out[3])
{
    double len = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (len == 0.0) {
        memcpy(out, q, 3 * sizeof *out);
        return;
    }
    double k[3] = { w[0] / len, w[1] / len, w[2] / len }, a = len * t, c = cos(a), s = sin(a);
    double kq = k[0] * q[0] + k[1] * q[1] + k[2] * q[2];
    double x[3] = { k[1] * q[2] - k[2] * q[1], k[2] * q[0] - k[0] * q[2], k[0] * q[1] - k[1] * q[0] };
    for (int i = 0; i < 3; ++i) out[i] = q[i] * c + x[i] * s + k[i] * kq * (1.0 - c);
}

/* x rounded to float, for certain: an optimizer may keep the unrounded double of a draw and use it
   where this test reads (double)p.x back, and the test would then follow a body up to half a float
   step (0.1 mm, 2 km from the origin) from the one the library was given. The volatile store makes
   the rounding a value in memory the compiler must read back. */
static float round_to_float(double x)
{
    volatile float f = (float)x;
    return f;
}

static int swept_sphere_holds_the_motion(void)
{
    /* Random bodies; points on the surface of each bounding sphere followed along the exact motion
       (constant v and w) at 33 times in [0, dt]: every one inside the swept sphere and its box. */
    test_case_rng rng = { 0xB0AD5EEDu };
    double worst = -1e30; /* largest (distance - radius) / radius seen: must stay <= 0 */
    for (int body = 0; body < 4000; ++body) {
        double scale = test_case_log_uniform(&rng, 1e-3, 1e4);
        /* One draw a statement: the order in which an initializer list is evaluated is unspecified,
           and with side effects on rng it changed the cases between optimisation levels. */
        spx_vec3 p;
        p.x = round_to_float(test_case_uniform(&rng, -scale, scale));
        p.y = round_to_float(test_case_uniform(&rng, -scale, scale));
        p.z = round_to_float(test_case_uniform(&rng, -scale, scale));
        double dir[3];
        test_case_unit_vector(&rng, dir);
        double speed = body % 4 == 0 ? 0.0 : test_case_log_uniform(&rng, 1e-3, 100.0);
        spx_vec3 v = { (float)(dir[0] * speed), (float)(dir[1] * speed), (float)(dir[2] * speed) };
        test_case_unit_vector(&rng, dir);
        double spin = body % 3 == 0 ? 0.0 : test_case_log_uniform(&rng, 1e-2, 60.0);
        spx_vec3 w = { (float)(dir[0] * spin), (float)(dir[1] * spin), (float)(dir[2] * spin) };
        test_case_unit_vector(&rng, dir);
        double off = body % 5 == 0 ? 0.0 : test_case_log_uniform(&rng, 1e-3, 3.0);
        spx_vec3 o = { (float)(dir[0] * off), (float)(dir[1] * off), (float)(dir[2] * off) };
        float r = (float)test_case_log_uniform(&rng, 1e-3, 3.0);
        float margin = body % 2 ? 0.0f : (float)test_case_uniform(&rng, 0.0, 0.05);
        float dt = body % 7 == 0 ? (float)test_case_uniform(&rng, 0.0, 2.0) : 1.0f / 60.0f;
        spx_sphere s;
        TEST_ENSURE_CODE(spx_swept_sphere(p, v, w, o, r, margin, dt, &s), SPX_OK);
        spx_aabb box = spx_sphere_aabb(&s);
        const double pd[3] = { p.x, p.y, p.z }, vd[3] = { v.x, v.y, v.z }, wd[3] = { w.x, w.y, w.z };
        const double sc[3] = { s.center.x, s.center.y, s.center.z };
        for (int k = 0; k < 8; ++k) {
            double u[3];
            test_case_unit_vector(&rng, u);
            /* A body point: on the bounding sphere about p + o, as far out as the radius allows. */
            double rel[3] = { o.x + u[0] * r, o.y + u[1] * r, o.z + u[2] * r };
            for (int step = 0; step <= 32; ++step) {
                double t = (double)dt * step / 32.0, q[3], d2 = 0.0;
                rotate(wd, t, rel, q);
                for (int i = 0; i < 3; ++i) {
                    q[i] += pd[i] + vd[i] * t;
                    double c = sc[i];
                    d2 += (q[i] - c) * (q[i] - c);
                    /* The test's own double rounding: far below a float step of the coordinates. */
                    double slack = 1e-12 * (fabs(q[i]) + s.radius);
                    TEST_ENSURE(q[i] >= box.min[i] - slack && q[i] <= box.max[i] + slack);
                }
                double excess = (sqrt(d2) - s.radius) / s.radius;
                if (excess > worst) worst = excess;
            }
        }
    }
    printf("  worst (distance - radius) / radius over the sampled motion: %.3g\n", worst);
    TEST_ENSURE(worst <= 1e-12);
    return 0;
}

/* ---- dynamic tree --------------------------------------------------------------------------------- */

typedef struct tree_model {
    uint32_t n;
    spx_aabb* tight; /* the last box given for each user */
    uint32_t* proxy; /* SPX_TREE_NULL when absent */
    uint8_t* which;  /* its tree */
} tree_model;

static bool model_init(tree_model* m, uint32_t n)
{
    m->n = n;
    m->tight = calloc(n, sizeof *m->tight), m->proxy = malloc(n * sizeof *m->proxy), m->which = calloc(n, 1);
    if (!m->tight || !m->proxy || !m->which) return false;
    for (uint32_t u = 0; u < n; ++u) m->proxy[u] = SPX_TREE_NULL;
    return true;
}

static void model_free(tree_model* m) { free(m->tight), free(m->proxy), free(m->which); }

/* The fewest leaves a tree of height h can hold with children's heights at most SPX_TREE_SLACK
   apart: L(h) = L(h - 1) + L(max(0, h - 1 - slack)), L(0) = 1. */
static double min_leaves(uint32_t h)
{
    double L[256];
    L[0] = 1.0;
    for (uint32_t k = 1; k <= h && k < 256; ++k) L[k] = L[k - 1] + L[k > SPX_TREE_SLACK ? k - 1 - SPX_TREE_SLACK : 0];
    return L[h < 256 ? h : 255];
}

/* Walks the subtree at i: links, heights, balance within the slack, exact inner boxes, fat leaf
   boxes that hold the tight ones, the tree each node is in. Counts nodes and leaves. */
static int check_node(const spx_dynamic_tree* t, const tree_model* m, int which, uint32_t i, uint32_t parent,
                      uint32_t* nodes, uint32_t* leaves)
{
    TEST_ENSURE(i < t->capacity);
    const spx_tree_node* n = &t->nodes[i];
    const spx_tree_link* l = &t->links[i];
    TEST_ENSURE(l->used == 1 && l->parent == parent && l->tree == which);
    TEST_ENSURE(++*nodes <= t->node_count); /* more nodes than in use: a cycle */
    if (n->child[0] == SPX_TREE_NULL) {
        uint32_t user = spx_tree_user(t, i);
        TEST_ENSURE(l->height == 0);
        TEST_ENSURE(user < m->n && m->proxy[user] == i && m->which[user] == which);
        TEST_ENSURE(spx_aabb_contains(&n->box, &m->tight[user]));
        ++*leaves;
        return 0;
    }
    TEST_ENSURE(n->child[1] != SPX_TREE_NULL && n->child[0] != n->child[1]);
    if (check_node(t, m, which, n->child[0], i, nodes, leaves)) return 1;
    if (check_node(t, m, which, n->child[1], i, nodes, leaves)) return 1;
    const spx_tree_node* a = &t->nodes[n->child[0]];
    const spx_tree_node* b = &t->nodes[n->child[1]];
    int ha = t->links[n->child[0]].height, hb = t->links[n->child[1]].height;
    TEST_ENSURE(l->height == 1 + (ha > hb ? ha : hb));
    TEST_ENSURE(abs(ha - hb) <= SPX_TREE_SLACK);
    spx_aabb u = spx_aabb_union(&a->box, &b->box);
    TEST_ENSURE(memcmp(&u, &n->box, sizeof u) == 0);
    return 0;
}

static int check_tree(const spx_dynamic_tree* t, const tree_model* m)
{
    uint32_t present = 0, nodes = 0, leaves = 0;
    for (uint32_t u = 0; u < m->n; ++u) present += m->proxy[u] != SPX_TREE_NULL;
    TEST_ENSURE(t->leaf_count == present);
    for (int w = 0; w < SPX_TREE_COUNT; ++w) {
        uint32_t in_tree = 0, before = nodes;
        for (uint32_t u = 0; u < m->n; ++u) in_tree += m->proxy[u] != SPX_TREE_NULL && m->which[u] == w;
        if (t->root[w] == SPX_TREE_NULL) {
            TEST_ENSURE(in_tree == 0);
            continue;
        }
        uint32_t l = 0;
        if (check_node(t, m, w, t->root[w], SPX_TREE_NULL, &nodes, &l)) return 1;
        TEST_ENSURE(l == in_tree && nodes - before == 2 * l - 1); /* no lost leaves, none extra */
        /* The height bound: no taller than the slack allows for this many leaves. */
        TEST_ENSURE(min_leaves(spx_tree_height(t, w)) <= l);
        TEST_ENSURE(spx_tree_height(t, w) <= 2.16 * log2((double)l));
        leaves += l;
    }
    TEST_ENSURE(nodes == t->node_count && leaves == present);
    uint32_t free_nodes = 0;
    for (uint32_t i = t->free_list; i != SPX_TREE_NULL; i = t->links[i].parent) {
        TEST_ENSURE(i < t->capacity && t->links[i].used == 0);
        TEST_ENSURE(++free_nodes <= t->capacity);
    }
    TEST_ENSURE(free_nodes + t->node_count == t->capacity);
    return 0;
}

static spx_aabb random_box(test_case_rng* rng, double extent, double size)
{
    spx_aabb b;
    for (int k = 0; k < 3; ++k) {
        double c = test_case_uniform(rng, -extent, extent), h = test_case_uniform(rng, 0.0, size);
        b.min[k] = (float)(c - h);
        b.max[k] = (float)(c + h);
    }
    return b;
}

static bool box_query_hit(void* context, uint32_t proxy, uint32_t user)
{
    (void)proxy;
    uint8_t* seen = context;
    seen[user]++;
    return true;
}

typedef struct pair_log {
    const tree_model* m;
    uint8_t* seen; /* n x n, [first user][second user] */
    int bad;
} pair_log;

static void pair_hit(void* context, uint32_t a, uint32_t b)
{
    pair_log* log = context;
    if (a == b || a >= log->m->n || b >= log->m->n) {
        log->bad++;
        return;
    }
    log->seen[(size_t)a * log->m->n + b]++;
}

static bool fat_overlap(const spx_dynamic_tree* t, const tree_model* m, uint32_t a, uint32_t b)
{
    return spx_aabb_overlap(&t->nodes[m->proxy[a]].box, &t->nodes[m->proxy[b]].box);
}

/* The box query, the pair descent within each tree and the one across them, against all leaves and
   all leaf pairs on the fat boxes. */
static int check_queries(const spx_dynamic_tree* t, const tree_model* m, test_case_rng* rng, pair_log* log)
{
    uint32_t n = m->n;
    uint8_t* seen = calloc(n, 1);
    TEST_ENSURE(seen);
    for (int q = 0; q < 20; ++q) {
        spx_aabb box = random_box(rng, 60.0, 15.0);
        int w = q % 2;
        memset(seen, 0, n);
        spx_tree_query(t, w, &box, box_query_hit, seen);
        for (uint32_t u = 0; u < n; ++u) {
            bool want =
                m->proxy[u] != SPX_TREE_NULL && m->which[u] == w && spx_aabb_overlap(&t->nodes[m->proxy[u]].box, &box);
            TEST_ENSURE(seen[u] == (want ? 1 : 0));
        }
    }
    free(seen);
    for (int w = 0; w < SPX_TREE_COUNT; ++w) {
        memset(log->seen, 0, (size_t)n * n);
        log->bad = 0;
        spx_tree_query_pairs(t, w, pair_hit, log);
        TEST_ENSURE(log->bad == 0);
        for (uint32_t a = 0; a < n; ++a)
            for (uint32_t b = a + 1; b < n; ++b) {
                bool in = m->proxy[a] != SPX_TREE_NULL && m->proxy[b] != SPX_TREE_NULL && m->which[a] == w &&
                          m->which[b] == w;
                bool want = in && fat_overlap(t, m, a, b);
                TEST_ENSURE(log->seen[(size_t)a * n + b] + log->seen[(size_t)b * n + a] == (want ? 1 : 0));
            }
    }
    memset(log->seen, 0, (size_t)n * n);
    spx_tree_query_across(t, 0, 1, pair_hit, log);
    TEST_ENSURE(log->bad == 0);
    for (uint32_t a = 0; a < n; ++a)
        for (uint32_t b = 0; b < n; ++b) {
            /* Reported once, the leaf of tree 0 first. */
            bool want = a != b && m->proxy[a] != SPX_TREE_NULL && m->proxy[b] != SPX_TREE_NULL && m->which[a] == 0 &&
                        m->which[b] == 1 && fat_overlap(t, m, a, b);
            TEST_ENSURE(log->seen[(size_t)a * n + b] == (want ? 1 : 0));
        }
    return 0;
}

/* What the tree tests work on: a model of the leaves, a pair log over them, and the tree on a
   counting allocator. */
typedef struct tree_fixture {
    tree_model m;
    pair_log log;
    test_counting c;
    spx_allocator a;
    spx_dynamic_tree t;
} tree_fixture;

/* `users` absent leaves and an empty tree. */
static int tree_start(tree_fixture* f, uint32_t users)
{
    TEST_ENSURE(model_init(&f->m, users));
    f->log = (pair_log){ &f->m, malloc((size_t)users * users), 0 };
    TEST_ENSURE(f->log.seen);
    f->c = (test_counting){ 0 };
    f->a = (spx_allocator){ test_counting_alloc, test_counting_free, &f->c };
    TEST_ENSURE_CODE(spx_tree_init(&f->t, &f->a, 0), SPX_OK);
    return 0;
}

static int tree_random_operations(void)
{
    enum { USERS = 1500, ROUNDS = 400 };
    tree_fixture f;
    TEST_ENSURE(tree_start(&f, USERS) == 0);
    const float fraction[2] = { 0.125f, 0.0f }; /* tree 0 fat, tree 1 exact: as the pair finder uses them */
    test_case_rng rng = { 0x7EE5u };
    uint32_t max_height = 0, reinserts = 0, stays = 0, switches = 0, kept = 0;
    /* The pool, doubled to hold a leaf and a parent each, stays below this. */
    spx_tree_link* links = malloc(4u * USERS * sizeof *links);
    TEST_ENSURE(links);
    for (int round = 0; round < ROUNDS; ++round) {
        /* Early rounds mostly insert, later ones mostly move; every tenth round removes a lot. */
        for (int op = 0; op < 40; ++op) {
            uint32_t u = (uint32_t)(test_case_rng_next(&rng) % USERS);
            double dice = test_case_uniform(&rng, 0.0, 1.0);
            double insert_p = round < 100 ? 0.9 : 0.3, remove_p = round % 10 == 9 ? 0.7 : 0.1;
            if (f.m.proxy[u] == SPX_TREE_NULL) {
                if (dice > insert_p) continue;
                spx_aabb b = random_box(&rng, 50.0, 2.0);
                int w = test_case_uniform(&rng, 0.0, 1.0) < 0.7 ? 0 : 1;
                spx_aabb fat = spx_fat_box(&b, fraction[w], NULL);
                TEST_ENSURE_CODE(spx_tree_insert(&f.t, w, &fat, u, &f.m.proxy[u]), SPX_OK);
                f.m.tight[u] = b;
                f.m.which[u] = (uint8_t)w;
            } else if (dice < remove_p) {
                spx_tree_remove(&f.t, f.m.proxy[u]);
                f.m.proxy[u] = SPX_TREE_NULL;
            } else if (dice < remove_p + 0.05) {
                /* To the other tree, without allocating: the pool was reserved for every leaf. */
                TEST_ENSURE_CODE(spx_tree_reserve(&f.t, f.t.leaf_count), SPX_OK);
                long calls = f.c.calls;
                f.m.which[u] = (uint8_t)(1 - f.m.which[u]);
                spx_aabb fat = spx_fat_box(&f.m.tight[u], fraction[f.m.which[u]], NULL);
                spx_tree_reinsert(&f.t, f.m.proxy[u], f.m.which[u], &fat);
                TEST_ENSURE(f.c.calls == calls);
                switches++;
            } else {
                /* A small step (usually within the fat box, which sometimes reaches ahead along the
                   step), a jump, or a change of size. */
                spx_aabb b = f.m.tight[u];
                float sweep[3] = { 0, 0, 0 };
                double kind = test_case_uniform(&rng, 0.0, 1.0);
                if (kind < 0.6) {
                    for (int k = 0; k < 3; ++k) {
                        float d = (float)test_case_uniform(&rng, -0.1, 0.1);
                        b.min[k] += d, b.max[k] += d;
                        if (kind < 0.3) sweep[k] = 4.0f * d;
                    }
                } else if (kind < 0.8) {
                    b = random_box(&rng, 50.0, 2.0);
                } else {
                    double grow = test_case_log_uniform(&rng, 0.1, 10.0);
                    for (int k = 0; k < 3; ++k) {
                        double mid = 0.5 * ((double)b.min[k] + b.max[k]), h = 0.5 * ((double)b.max[k] - b.min[k]);
                        b.min[k] = (float)(mid - h * grow), b.max[k] = (float)(mid + h * grow);
                    }
                }
                /* Nothing at all changes when the leaf stays: "costs nothing". */
                spx_tree_node before = f.t.nodes[f.m.proxy[u]];
                spx_tree_link before_link = f.t.links[f.m.proxy[u]];
                uint32_t root0 = f.t.root[0], root1 = f.t.root[1];
                TEST_ENSURE(f.t.capacity <= 4u * USERS);
                memcpy(links, f.t.links, (size_t)f.t.capacity * sizeof *links);
                if (!spx_tree_move(&f.t, f.m.proxy[u], &b, fraction[f.m.which[u]], sweep)) {
                    TEST_ENSURE(memcmp(&before, &f.t.nodes[f.m.proxy[u]], sizeof before) == 0);
                    TEST_ENSURE(memcmp(&before_link, &f.t.links[f.m.proxy[u]], sizeof before_link) == 0);
                    TEST_ENSURE(root0 == f.t.root[0] && root1 == f.t.root[1]);
                    stays++;
                } else {
                    reinserts++;
                    /* Within a near ancestor's box the leaf keeps its place: no link changes. */
                    kept += memcmp(links, f.t.links, (size_t)f.t.capacity * sizeof *links) == 0;
                }
                f.m.tight[u] = b;
            }
        }
        if (check_tree(&f.t, &f.m)) return fprintf(stderr, "round %d\n", round), 1;
        for (int w = 0; w < SPX_TREE_COUNT; ++w)
            if (spx_tree_height(&f.t, w) > max_height) max_height = spx_tree_height(&f.t, w);
        if (round % 25 == 0 && check_queries(&f.t, &f.m, &rng, &f.log)) return fprintf(stderr, "round %d\n", round), 1;
    }
    TEST_ENSURE(stays > 0 && reinserts > kept && kept > 0 && switches > 0);
    free(links);
    /* A tight box far smaller than its fat box: put back with a fresh fat box. */
    uint32_t u = 0;
    while (f.m.proxy[u] == SPX_TREE_NULL || f.m.which[u] != 0) ++u;
    spx_aabb shrunk = f.m.tight[u];
    for (int k = 0; k < 3; ++k) {
        float mid = 0.5f * (shrunk.min[k] + shrunk.max[k]);
        shrunk.min[k] = mid - 1e-3f, shrunk.max[k] = mid + 1e-3f;
    }
    TEST_ENSURE(spx_aabb_contains(&f.t.nodes[f.m.proxy[u]].box, &shrunk));
    TEST_ENSURE(spx_tree_move(&f.t, f.m.proxy[u], &shrunk, fraction[0], NULL));
    f.m.tight[u] = shrunk;
    TEST_ENSURE(!spx_tree_move(&f.t, f.m.proxy[u], &shrunk, fraction[0], NULL));
    TEST_ENSURE(check_tree(&f.t, &f.m) == 0);

    /* Remove everything: empty trees, every node back in the pool. */
    for (uint32_t v = 0; v < USERS; ++v)
        if (f.m.proxy[v] != SPX_TREE_NULL) spx_tree_remove(&f.t, f.m.proxy[v]), f.m.proxy[v] = SPX_TREE_NULL;
    TEST_ENSURE(check_tree(&f.t, &f.m) == 0 && f.t.root[0] == SPX_TREE_NULL && f.t.root[1] == SPX_TREE_NULL);
    printf("  %d rounds: max height %u, %u moves stayed in their fat box, %u put back (%u in place), %u changed "
           "tree\n",
           ROUNDS, max_height, stays, reinserts, kept, switches);
    spx_tree_destroy(&f.t);
    TEST_ENSURE(f.c.live == 0 && f.c.bad_alignment == 0);
    model_free(&f.m);
    free(f.log.seen);
    return 0;
}

static int tree_stays_balanced_on_sorted_input(void)
{
    /* Boxes inserted in order along a line, the classic way to unbalance a tree, then removed from
       one end: the height bound holds all the way. */
    enum { N = 4096 };
    tree_model m;
    TEST_ENSURE(model_init(&m, N));
    spx_dynamic_tree t;
    TEST_ENSURE_CODE(spx_tree_init(&t, NULL, N), SPX_OK);
    TEST_ENSURE(t.capacity >= 2 * N);
    spx_tree_node* pool = t.nodes;
    for (uint32_t u = 0; u < N; ++u) {
        spx_aabb b = { { (float)u, 0, 0 }, { (float)u + 0.5f, 1, 1 } };
        m.tight[u] = b;
        TEST_ENSURE_CODE(spx_tree_insert(&t, 0, &b, u, &m.proxy[u]), SPX_OK);
    }
    TEST_ENSURE(t.nodes == pool); /* the capacity given at init was enough: no growth */
    TEST_ENSURE(check_tree(&t, &m) == 0);
    printf("  %d boxes in a row: height %u (a list would be %d, the bound allows %.1f)\n", N, spx_tree_height(&t, 0),
           N - 1, 2.16 * log2((double)N));
    for (uint32_t u = 0; u < N / 2; ++u) {
        spx_tree_remove(&t, m.proxy[u]);
        m.proxy[u] = SPX_TREE_NULL;
        if (u % 256 == 0) TEST_ENSURE(check_tree(&t, &m) == 0);
    }
    TEST_ENSURE(check_tree(&t, &m) == 0);
    spx_tree_destroy(&t);
    model_free(&m);
    return 0;
}

static int tree_build_and_clear(void)
{
    /* Tree 1 holds leaves put in one by one; tree 0 is built at once from the rest, a third of them
       sharing their centre with another (the median split must still halve them), then lives on
       with reinsertions and is cleared, leaving tree 1 as it was. */
    enum { USERS = 1200, INSERTED = 200 };
    tree_fixture f;
    TEST_ENSURE(tree_start(&f, USERS) == 0);
    test_case_rng rng = { 0xB01Du };
    for (uint32_t u = 0; u < INSERTED; ++u) {
        f.m.tight[u] = random_box(&rng, 50.0, 2.0);
        f.m.which[u] = 1;
        TEST_ENSURE_CODE(spx_tree_insert(&f.t, 1, &f.m.tight[u], u, &f.m.proxy[u]), SPX_OK);
    }
    const uint32_t built = USERS - INSERTED;
    uint32_t* users = malloc(built * sizeof *users);
    uint32_t* order = malloc(built * sizeof *order);
    uint32_t* proxies = malloc(built * sizeof *proxies);
    spx_aabb* boxes = malloc(built * sizeof *boxes);
    TEST_ENSURE(users && order && proxies && boxes);
    for (uint32_t k = 0; k < built; ++k) {
        users[k] = INSERTED + k;
        boxes[k] = k % 3 == 2 ? boxes[k - 1] : random_box(&rng, 50.0, 2.0);
        f.m.tight[users[k]] = boxes[k];
    }
    /* Nothing to build, and a tree that is not empty, change nothing. */
    TEST_ENSURE_CODE(spx_tree_build(&f.t, 0, boxes, users, 0, order, proxies), SPX_OK);
    TEST_ENSURE_CODE(spx_tree_build(&f.t, 1, boxes, users, built, order, proxies), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_tree_build(&f.t, 2, boxes, users, built, order, proxies), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(check_tree(&f.t, &f.m) == 0);
    TEST_ENSURE_CODE(spx_tree_build(&f.t, 0, boxes, users, built, order, proxies), SPX_OK);
    for (uint32_t k = 0; k < built; ++k) f.m.proxy[users[k]] = proxies[k], f.m.which[users[k]] = 0;
    TEST_ENSURE(check_tree(&f.t, &f.m) == 0);
    /* Balanced: as low as a tree of that many leaves can be. */
    const uint32_t height = spx_tree_height(&f.t, 0);
    TEST_ENSURE(height == (uint32_t)ceil(log2((double)built)));
    TEST_ENSURE(check_queries(&f.t, &f.m, &rng, &f.log) == 0);
    for (int k = 0; k < 300; ++k) {
        uint32_t u = INSERTED + (uint32_t)(test_case_rng_next(&rng) % built);
        f.m.tight[u] = random_box(&rng, 50.0, 2.0);
        spx_tree_reinsert(&f.t, f.m.proxy[u], 0, &f.m.tight[u]);
    }
    TEST_ENSURE(check_tree(&f.t, &f.m) == 0);
    TEST_ENSURE(check_queries(&f.t, &f.m, &rng, &f.log) == 0);
    spx_tree_clear(&f.t, 0);
    for (uint32_t k = 0; k < built; ++k) f.m.proxy[users[k]] = SPX_TREE_NULL;
    TEST_ENSURE(f.t.root[0] == SPX_TREE_NULL && f.t.leaf_count == INSERTED);
    TEST_ENSURE(check_tree(&f.t, &f.m) == 0);
    TEST_ENSURE(check_queries(&f.t, &f.m, &rng, &f.log) == 0);
    printf("  %u boxes built into a tree of height %u; cleared, the other tree's %u leaves stand\n", built, height,
           (unsigned)INSERTED);
    spx_tree_destroy(&f.t);
    TEST_ENSURE(f.c.live == 0 && f.c.bad_alignment == 0);
    free(users), free(order), free(proxies), free(boxes), free(f.log.seen);
    model_free(&f.m);
    return 0;
}

/* ---- pair finder ---------------------------------------------------------------------------------- */

/* A scene of boxes on a 0.25 m lattice (exact floats, so faces often coincide and touching pairs
   are common): a static ground grid of tiles that touch their neighbours, and bodies above it that
   step by lattice units, jump now and then, change size, start and stop moving, leave and come
   back. */
typedef struct scene {
    uint32_t n;     /* body indices 0..n-1 */
    uint32_t tiles; /* the first `tiles` are the ground, static for good */
    spx_aabb* box;
    uint8_t* present;
    uint8_t* moving;
    uint8_t* readded; /* removed and added again since the last update */
    bool calm;        /* a moving body takes a small step one update in ten, else stays */
    test_case_rng rng;
} scene;

static float lattice(test_case_rng* rng, int lo, int hi)
{
    return 0.25f * (float)(lo + (int)(test_case_rng_next(rng) % (uint64_t)(hi - lo + 1)));
}

static spx_aabb scene_box(scene* s)
{
    spx_aabb b;
    for (int k = 0; k < 3; ++k) {
        float lo = lattice(&s->rng, k == 1 ? 2 : -80, 80); /* above the ground (y >= 0.5) */
        float size = lattice(&s->rng, 0, 8);               /* 0 m (a point or flat box) to 2 m */
        b.min[k] = lo, b.max[k] = lo + size;
    }
    return b;
}

static bool scene_init(scene* s, uint32_t n, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->rng.state = seed;
    s->box = malloc(n * sizeof *s->box);
    s->present = calloc(n, 1), s->moving = calloc(n, 1), s->readded = calloc(n, 1);
    if (!s->box || !s->present || !s->moving || !s->readded) return false;
    /* Ground: 2 m tiles side by side, top at y = 0.5: neighbours share faces. */
    uint32_t side = 1;
    while ((side + 1) * (side + 1) <= n / 8) ++side;
    s->tiles = side * side;
    for (uint32_t i = 0; i < s->tiles; ++i) {
        float x = -20.0f + 2.0f * (float)(i % side), z = -20.0f + 2.0f * (float)(i / side);
        s->box[i] = (spx_aabb){ { x, 0.0f, z }, { x + 2.0f, 0.5f, z + 2.0f } };
        s->present[i] = 1;
    }
    for (uint32_t i = s->tiles; i < n; ++i) {
        s->box[i] = scene_box(s);
        /* A few start on the ground, touching it. */
        if (i % 16 == 0) s->box[i].max[1] -= s->box[i].min[1] - 0.5f, s->box[i].min[1] = 0.5f;
        s->present[i] = test_case_rng_next(&s->rng) % 10 != 0;
        s->moving[i] = test_case_rng_next(&s->rng) % 4 != 0;
    }
    return true;
}

static void scene_free(scene* s) { free(s->box), free(s->present), free(s->moving), free(s->readded); }

/* One step of the scene, the calls to the finder included. Stops at the first call that fails and
   returns its code, so that a caller can retry the step after an allocation failure: the scene's
   random choices are made first, into `next`, and the finder is given them in one pass. */
typedef struct step_plan {
    spx_aabb* box;
    uint8_t* present;
    uint8_t* moving;
    uint8_t* removed_then_added;
} step_plan;

static bool plan_init(step_plan* p, uint32_t n)
{
    p->box = malloc(n * sizeof *p->box);
    p->present = malloc(n), p->moving = malloc(n), p->removed_then_added = malloc(n);
    return p->box && p->present && p->moving && p->removed_then_added;
}

static void plan_free(step_plan* p) { free(p->box), free(p->present), free(p->moving), free(p->removed_then_added); }

static void scene_plan(scene* s, step_plan* p)
{
    memcpy(p->box, s->box, s->n * sizeof *s->box);
    memcpy(p->present, s->present, s->n);
    memcpy(p->moving, s->moving, s->n);
    memset(p->removed_then_added, 0, s->n);
    for (uint32_t i = s->tiles; i < s->n; ++i) {
        uint64_t dice = test_case_rng_next(&s->rng) % 1000;
        if (!p->present[i]) {
            if (dice < 300) p->present[i] = 1, p->box[i] = scene_box(s);
            continue;
        }
        if (dice < 8) { /* leaves */
            p->present[i] = 0;
            continue;
        }
        if (dice < 14) { /* leaves and a new body takes its index before the update */
            p->removed_then_added[i] = 1;
            p->box[i] = scene_box(s);
            continue;
        }
        if (dice < 30) p->moving[i] = !p->moving[i];
        if (!p->moving[i]) continue;
        spx_aabb* b = &p->box[i];
        if (s->calm) {
            if (dice % 10 == 0) {
                int k = (int)(test_case_rng_next(&s->rng) % 3);
                float d = lattice(&s->rng, -1, 1);
                b->min[k] += d, b->max[k] += d;
            }
            continue;
        }
        if (dice < 45) {
            *b = scene_box(s);
        } else if (dice < 60) {
            float grow = lattice(&s->rng, -2, 2);
            for (int k = 0; k < 3; ++k)
                if (b->max[k] + grow >= b->min[k]) b->max[k] += grow;
        } else {
            for (int k = 0; k < 3; ++k) {
                float d = lattice(&s->rng, -2, 2);
                b->min[k] += d, b->max[k] += d;
            }
        }
    }
}

/* Gives the finder the planned step. Calls already made are skipped on a retry: `done` counts the
   bodies handled. */
static spx_result scene_apply(scene* s, const step_plan* p, spx_pair_finder* f, uint32_t* done)
{
    for (; *done < s->n; ++*done) {
        uint32_t i = *done;
        spx_result r = SPX_OK;
        if (p->removed_then_added[i]) {
            if (s->present[i]) {
                TEST_ENSURE_CODE(spx_pair_finder_remove(f, i), SPX_OK);
                s->present[i] = 0;
            }
            r = spx_pair_finder_set(f, i, &p->box[i], p->moving[i]);
            if (r == SPX_OK) s->readded[i] = 1;
        } else if (p->present[i]) {
            /* Unchanged static bodies need no call; give every other body its box. */
            if (!s->present[i] || p->moving[i] || s->moving[i] || memcmp(&p->box[i], &s->box[i], sizeof p->box[i]))
                r = spx_pair_finder_set(f, i, &p->box[i], p->moving[i]);
        } else if (s->present[i]) {
            r = spx_pair_finder_remove(f, i);
        }
        if (r != SPX_OK) return r;
        s->box[i] = p->box[i];
        s->present[i] = p->present[i];
        s->moving[i] = p->moving[i];
    }
    return SPX_OK;
}

/* All pairs, the slow way: sorted by (a, b) by construction. */
static uint32_t brute_pairs(const scene* s, spx_pair* out)
{
    uint32_t count = 0;
    for (uint32_t a = 0; a < s->n; ++a) {
        if (!s->present[a]) continue;
        for (uint32_t b = a + 1; b < s->n; ++b)
            if (s->present[b] && (s->moving[a] || s->moving[b]) && spx_aabb_overlap(&s->box[a], &s->box[b]))
                out[count++] = (spx_pair){ a, b };
    }
    return count;
}

static bool pair_in(const spx_pair* list, uint32_t count, spx_pair p)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (list[mid].a < p.a || (list[mid].a == p.a && list[mid].b < p.b)) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && list[lo].a == p.a && list[lo].b == p.b;
}

/* The update against the brute-force lists of this step and the last: the same pairs, and each
   pair's history right. */
static int check_update(const scene* s, const spx_pair_update* u, const spx_pair* want, uint32_t want_count,
                        const spx_pair* last_want, uint32_t last_want_count)
{
    TEST_ENSURE(u->count == want_count);
    TEST_ENSURE(want_count == 0 || memcmp(u->pairs, want, want_count * sizeof *want) == 0);
    TEST_ENSURE(u->last_count == last_want_count);
    TEST_ENSURE(last_want_count == 0 || memcmp(u->last_pairs, last_want, last_want_count * sizeof *want) == 0);
    uint32_t begun = 0;
    for (uint32_t i = 0; i < u->count; ++i) {
        spx_pair p = u->pairs[i];
        bool fresh = s->readded[p.a] || s->readded[p.b];
        bool was = !fresh && pair_in(last_want, last_want_count, p);
        if (u->previous[i] == SPX_PAIR_NEW) {
            TEST_ENSURE(!was);
            begun++;
        } else {
            TEST_ENSURE(was && u->previous[i] < u->last_count);
            TEST_ENSURE(u->last_pairs[u->previous[i]].a == p.a && u->last_pairs[u->previous[i]].b == p.b);
        }
    }
    TEST_ENSURE(begun == u->begun_count);
    /* Every last pair either persists (named by one previous[]) or ended (listed once, ascending). */
    TEST_ENSURE(u->count - u->begun_count + u->ended_count == u->last_count);
    for (uint32_t k = 0; k < u->ended_count; ++k) {
        TEST_ENSURE(u->ended[k] < u->last_count && (k == 0 || u->ended[k] > u->ended[k - 1]));
        spx_pair p = u->last_pairs[u->ended[k]];
        TEST_ENSURE(!pair_in(want, want_count, p) || s->readded[p.a] || s->readded[p.b]);
    }
    return 0;
}

/* One scene against all pairs, update after update. Counts the updates that found the changed
   bodies' pairs by box queries and those that descended the whole trees. */
static int match_steps = 20; /* --long: 60 */

static int match_scene(bool calm, uint64_t seed, int* by_queries, int* by_descent)
{
    enum { N = 3000 };
    const int steps = match_steps;
    scene s;
    step_plan plan;
    TEST_ENSURE(scene_init(&s, N, seed) && plan_init(&plan, N));
    s.calm = calm;
    spx_pair* want = malloc((size_t)N * 64 * sizeof *want);
    spx_pair* last_want = malloc((size_t)N * 64 * sizeof *want);
    TEST_ENSURE(want && last_want);
    uint32_t last_count = 0;
    spx_pair_finder* f = NULL;
    TEST_ENSURE_CODE(spx_pair_finder_create(NULL, 0, &f), SPX_OK);
    for (uint32_t i = 0; i < N; ++i)
        if (s.present[i]) TEST_ENSURE_CODE(spx_pair_finder_set(f, i, &s.box[i], s.moving[i]), SPX_OK);
    uint64_t pairs = 0, begun = 0, ended = 0, touching = 0, static_pairs = 0;
    for (int step = 0; step < steps; ++step) {
        if (step > 0) {
            scene_plan(&s, &plan);
            uint32_t done = 0;
            TEST_ENSURE_CODE(scene_apply(&s, &plan, f, &done), SPX_OK);
        }
        spx_pair_finder_stats st;
        spx_pair_finder_get_stats(f, &st);
        uint32_t changed = st.changed;
        spx_pair_update u;
        TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
        spx_pair_finder_get_stats(f, &st);
        *by_queries += st.queries > 0;
        *by_descent += changed > 0 && st.queries == 0;
        uint32_t count = brute_pairs(&s, want);
        TEST_ENSURE(count <= (size_t)N * 64);
        if (check_update(&s, &u, want, count, last_want, last_count)) return fprintf(stderr, "step %d\n", step), 1;
        for (uint32_t i = 0; i < count; ++i) {
            const spx_aabb *a = &s.box[want[i].a], *b = &s.box[want[i].b];
            bool touch = false;
            for (int k = 0; k < 3; ++k) touch |= a->max[k] == b->min[k] || b->max[k] == a->min[k];
            touching += touch;
            static_pairs += !s.moving[want[i].a] || !s.moving[want[i].b];
        }
        pairs += count, begun += u.begun_count, ended += u.ended_count;
        memcpy(last_want, want, count * sizeof *want);
        last_count = count;
        memset(s.readded, 0, N);
    }
    spx_pair_finder_stats st;
    spx_pair_finder_get_stats(f, &st);
    printf("  %s: %d bodies (%u ground tiles), %d steps: %llu pairs (%llu touching only at a face, %llu with a "
           "static or sleeping body), %llu began, %llu ended; tree heights %u and %u\n",
           calm ? "calm" : "busy", N, s.tiles, steps, (unsigned long long)pairs, (unsigned long long)touching,
           (unsigned long long)static_pairs, (unsigned long long)begun, (unsigned long long)ended, st.tree_height,
           st.resting_tree_height);
    TEST_ENSURE(touching > 0 && static_pairs > 0 && begun > 0 && ended > 0);
    spx_pair_finder_destroy(f);
    scene_free(&s), plan_free(&plan), free(want), free(last_want);
    return 0;
}

static int finder_matches_all_pairs(void)
{
    /* A busy scene (most bodies leave their fat boxes every step: whole-tree descents) and a calm
       one (a few do: box queries), each against all pairs at every update. */
    int by_queries = 0, by_descent = 0;
    TEST_ENSURE(match_scene(false, 0x5CE4Eu, &by_queries, &by_descent) == 0);
    TEST_ENSURE(match_scene(true, 0xCA1Fu, &by_queries, &by_descent) == 0);
    printf("  %d updates by box queries, %d by descents of the trees\n", by_queries, by_descent);
    TEST_ENSURE(by_queries >= match_steps / 2 && by_descent >= match_steps / 2);
    return 0;
}

static int finder_bad_input(void)
{
    spx_pair_finder* const sentinel = (spx_pair_finder*)&sentinel;
    spx_pair_finder* f = sentinel;
    TEST_ENSURE_CODE(spx_pair_finder_create(NULL, 0, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_create(NULL, SPX_PAIR_FINDER_MAX_BODIES + 1u, &f), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(f == sentinel);
    TEST_ENSURE_CODE(spx_pair_finder_create(NULL, 4, &f), SPX_OK);
    spx_aabb ok = { { 0, 0, 0 }, { 1, 1, 1 } }, nan_box = ok, inf_box = ok, inverted = ok;
    nan_box.max[1] = NAN, inf_box.min[2] = -INFINITY, inverted.min[0] = 2;
    TEST_ENSURE_CODE(spx_pair_finder_set(NULL, 0, &ok, true), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 0, NULL, true), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, SPX_PAIR_FINDER_MAX_BODIES, &ok, true), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 0, &nan_box, true), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 0, &inf_box, true), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 0, &inverted, true), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_remove(f, 0), SPX_ERR_INVALID_ARGUMENT); /* never added */
    TEST_ENSURE_CODE(spx_pair_finder_remove(f, 1000), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_remove(NULL, 0), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_pair_finder_update(f, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_pair_update u;
    TEST_ENSURE_CODE(spx_pair_finder_update(NULL, &u), SPX_ERR_INVALID_ARGUMENT);
    /* None of the refused calls added anything. */
    TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
    TEST_ENSURE(u.count == 0 && u.last_count == 0 && u.ended_count == 0);
    spx_pair_finder_stats st;
    spx_pair_finder_get_stats(f, &st);
    TEST_ENSURE(st.bodies == 0 && st.moving == 0);

    /* A static body added, then a moving one touching it: a pair; then both static: none. */
    spx_aabb touch = { { 1, 0, 0 }, { 2, 1, 1 } };
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 7, &ok, false), SPX_OK);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 3, &touch, true), SPX_OK);
    TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
    TEST_ENSURE(u.count == 1 && u.pairs[0].a == 3 && u.pairs[0].b == 7 && u.begun_count == 1);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 3, &touch, false), SPX_OK);
    TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
    TEST_ENSURE(u.count == 0 && u.ended_count == 1 && u.ended[0] == 0 && u.last_pairs[0].a == 3);
    /* Body 3 moves again: the pair begins again; body 7 is taken out and a new body 7 added at the
       same place before the next update: the pair ends and a new one begins. */
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 3, &touch, true), SPX_OK);
    TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
    TEST_ENSURE(u.count == 1 && u.previous[0] == SPX_PAIR_NEW);
    TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
    TEST_ENSURE(u.count == 1 && u.previous[0] == 0 && u.begun_count == 0 && u.ended_count == 0);
    TEST_ENSURE_CODE(spx_pair_finder_remove(f, 7), SPX_OK);
    TEST_ENSURE_CODE(spx_pair_finder_set(f, 7, &ok, false), SPX_OK);
    TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
    TEST_ENSURE(u.count == 1 && u.previous[0] == SPX_PAIR_NEW && u.ended_count == 1 && u.ended[0] == 0);
    spx_pair_finder_destroy(f);
    spx_pair_finder_destroy(NULL);
    return 0;
}

/* Runs a scene for `steps` updates and keeps every output, flattened: pairs, previous and ended of
   each step, with counts. Returns the number of words written, 0 on failure. */
static size_t record_run(bool calm, uint32_t n, int steps, uint32_t hint, const spx_allocator* a, uint32_t* out,
                         size_t room)
{
    scene s;
    step_plan plan;
    if (!scene_init(&s, n, 0xDE7u) || !plan_init(&plan, n)) return 0;
    s.calm = calm;
    spx_pair_finder* f = NULL;
    size_t w = 0;
    if (spx_pair_finder_create(a, hint, &f) != SPX_OK) return 0;
    for (uint32_t i = 0; i < n; ++i)
        if (s.present[i] && spx_pair_finder_set(f, i, &s.box[i], s.moving[i]) != SPX_OK) return 0;
    for (int step = 0; step < steps; ++step) {
        if (step > 0) {
            scene_plan(&s, &plan);
            uint32_t done = 0;
            if (scene_apply(&s, &plan, f, &done) != SPX_OK) return 0;
        }
        spx_pair_update u;
        if (spx_pair_finder_update(f, &u) != SPX_OK) return 0;
        size_t need = 3 + 3 * (size_t)u.count + u.ended_count;
        if (w + need > room) return 0;
        out[w++] = u.count, out[w++] = u.begun_count, out[w++] = u.ended_count;
        memcpy(out + w, u.pairs, u.count * sizeof *u.pairs), w += 2 * (size_t)u.count;
        memcpy(out + w, u.previous, u.count * sizeof *u.previous), w += u.count;
        memcpy(out + w, u.ended, u.ended_count * sizeof *u.ended), w += u.ended_count;
    }
    spx_pair_finder_destroy(f);
    scene_free(&s), plan_free(&plan);
    return w;
}

static int finder_is_deterministic(void)
{
    enum { N = 2000, STEPS = 30 };
    size_t room = (size_t)N * 400;
    uint32_t* r1 = malloc(room * sizeof *r1);
    uint32_t* r2 = malloc(room * sizeof *r2);
    TEST_ENSURE(r1 && r2);
    for (int calm = 0; calm < 2; ++calm) {
        size_t w1 = record_run(calm, N, STEPS, 0, NULL, r1, room);
        memset(r2, 0xAB, room * sizeof *r2);
        size_t w2 = record_run(calm, N, STEPS, 0, NULL, r2, room);
        TEST_ENSURE(w1 > 0 && w1 == w2 && memcmp(r1, r2, w1 * sizeof *r1) == 0);
        /* Another capacity hint: storage grows at other times, the answers are the same. */
        size_t w3 = record_run(calm, N, STEPS, N, NULL, r2, room);
        TEST_ENSURE(w3 == w1 && memcmp(r1, r2, w1 * sizeof *r1) == 0);
        printf("  %s: three runs of %d steps, %zu words of output each, identical\n", calm ? "calm" : "busy", STEPS,
               w1);
    }
    free(r1), free(r2);
    return 0;
}

static int finder_allocates_nothing_after_warm_up(void)
{
    /* The world's step: every body's new box, then an update. After a few steps of warm-up (the
       same scene, bodies coming and going, sleeping and waking), nothing is allocated. */
    enum { N = 4000, WARM = 10, STEPS = 80 };
    for (int calm = 0; calm < 2; ++calm) {
        test_counting c = { 0 };
        spx_allocator a = { test_counting_alloc, test_counting_free, &c };
        scene s;
        step_plan plan;
        TEST_ENSURE(scene_init(&s, N, 0xA110Cu) && plan_init(&plan, N));
        s.calm = calm;
        spx_pair_finder* f = NULL;
        TEST_ENSURE_CODE(spx_pair_finder_create(&a, 0, &f), SPX_OK);
        for (uint32_t i = 0; i < N; ++i)
            if (s.present[i]) TEST_ENSURE_CODE(spx_pair_finder_set(f, i, &s.box[i], s.moving[i]), SPX_OK);
        long after_warm_up = 0;
        for (int step = 0; step < WARM + STEPS; ++step) {
            if (step == WARM) after_warm_up = c.calls;
            scene_plan(&s, &plan);
            uint32_t done = 0;
            TEST_ENSURE_CODE(scene_apply(&s, &plan, f, &done), SPX_OK);
            spx_pair_update u;
            TEST_ENSURE_CODE(spx_pair_finder_update(f, &u), SPX_OK);
        }
        printf("  %s: %ld allocations in %d warm-up steps, %ld in the %d steps after\n", calm ? "calm" : "busy",
               after_warm_up, WARM, c.calls - after_warm_up, STEPS);
        TEST_ENSURE(c.calls == after_warm_up);
        spx_pair_finder_destroy(f);
        TEST_ENSURE(c.live == 0 && c.live_bytes == 0 && c.bad_alignment == 0);
        scene_free(&s), plan_free(&plan);
    }
    return 0;
}

/* A small scene from an empty finder (hint 0: everything grows several times). With the k-th
   allocation failing, for every k: the failing call says SPX_ERR_OUT_OF_MEMORY, the last update's
   output is still intact, the retry succeeds, every update equals the run without failures, and
   destroy leaves nothing behind. */
static int fail_every_allocation(bool calm)
{
    enum { N = 300, STEPS = 12 };
    size_t room = (size_t)N * 200;
    uint32_t* want = malloc(room * sizeof *want);
    TEST_ENSURE(want);
    test_counting c = { 0 };
    spx_allocator a = { test_counting_alloc, test_counting_free, &c };
    size_t want_words = record_run(calm, N, STEPS, 0, &a, want, room);
    TEST_ENSURE(want_words > 0 && c.live == 0);
    long total = c.calls;
    int failures_seen = 0;
    for (long k = 1; k <= total + 1; ++k) {
        c = (test_counting){ .fail_at = k };
        scene s;
        step_plan plan;
        TEST_ENSURE(scene_init(&s, N, 0xDE7u) && plan_init(&plan, N));
        s.calm = calm;
        spx_pair_finder* f = NULL;
        spx_result r = spx_pair_finder_create(&a, 0, &f);
        if (r == SPX_ERR_OUT_OF_MEMORY) {
            TEST_ENSURE(f == NULL && c.live == 0);
            failures_seen++;
            r = spx_pair_finder_create(&a, 0, &f);
        }
        TEST_ENSURE_CODE(r, SPX_OK);
        size_t w = 0, last_mark = 0;
        spx_pair_update last = { 0 };
        bool have_last = false;
        for (int step = -1; step < STEPS; ++step) {
            if (step > 0) scene_plan(&s, &plan);
            uint32_t done = 0;
            for (;;) {
                if (step == -1) { /* the first bodies, as record_run adds them */
                    for (; done < N; ++done) {
                        if (!s.present[done]) continue;
                        r = spx_pair_finder_set(f, done, &s.box[done], s.moving[done]);
                        if (r != SPX_OK) break;
                    }
                } else if (step > 0) {
                    r = scene_apply(&s, &plan, f, &done);
                } else {
                    r = SPX_OK;
                }
                if (r == SPX_OK) break;
                TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_MEMORY);
                failures_seen++;
            }
            if (step == -1) continue;
            spx_pair_update u;
            while ((r = spx_pair_finder_update(f, &u)) != SPX_OK) {
                TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_MEMORY);
                failures_seen++;
                /* The last update's output is untouched. */
                TEST_ENSURE(!have_last ||
                            memcmp(want + last_mark + 3, last.pairs, last.count * sizeof *last.pairs) == 0);
                TEST_ENSURE(!have_last || memcmp(want + last_mark + 3 + 2 * (size_t)last.count, last.previous,
                                                 last.count * sizeof *last.previous) == 0);
            }
            size_t mark = w;
            w += 3 + 3 * (size_t)u.count + u.ended_count;
            TEST_ENSURE(w <= want_words);
            TEST_ENSURE(want[mark] == u.count && want[mark + 1] == u.begun_count && want[mark + 2] == u.ended_count);
            TEST_ENSURE(memcmp(want + mark + 3, u.pairs, u.count * sizeof *u.pairs) == 0);
            TEST_ENSURE(memcmp(want + mark + 3 + 2 * (size_t)u.count, u.previous, u.count * sizeof *u.previous) == 0);
            TEST_ENSURE(memcmp(want + mark + 3 + 3 * (size_t)u.count, u.ended, u.ended_count * sizeof *u.ended) == 0);
            last = u, last_mark = mark, have_last = true;
        }
        TEST_ENSURE(w == want_words);
        spx_pair_finder_destroy(f);
        TEST_ENSURE(c.live == 0 && c.live_bytes == 0);
        scene_free(&s), plan_free(&plan);
    }
    printf("  %s: %ld allocations in the run; each made to fail in turn: %d failed calls, all retried\n",
           calm ? "calm" : "busy", total, failures_seen);
    TEST_ENSURE(failures_seen == total);
    free(want);
    return 0;
}

static int finder_survives_allocation_failure(void)
{
    TEST_ENSURE(fail_every_allocation(false) == 0);
    TEST_ENSURE(fail_every_allocation(true) == 0);
    return 0;
}

int main(int argc, char** argv)
{
    if (test_long_run(argc, argv)) match_steps = 60;
    int failures = 0;
    TEST_RUN(swept_sphere_hand_cases, failures);
    TEST_RUN(swept_sphere_bad_input, failures);
    TEST_RUN(swept_sphere_holds_the_motion, failures);
    TEST_RUN(tree_random_operations, failures);
    TEST_RUN(tree_stays_balanced_on_sorted_input, failures);
    TEST_RUN(tree_build_and_clear, failures);
    TEST_RUN(finder_matches_all_pairs, failures);
    TEST_RUN(finder_bad_input, failures);
    TEST_RUN(finder_is_deterministic, failures);
    TEST_RUN(finder_allocates_nothing_after_warm_up, failures);
    TEST_RUN(finder_survives_allocation_failure, failures);
    return failures ? 1 : 0;
}
