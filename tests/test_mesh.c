/* Meshes and their OBB trees: bad input, degenerate triangles, allocation failure, tree invariants,
   determinism, and the OBB fit on sets whose box is known. */
#include <sepax/sepax.h>
#include "geometry/mesh.h"
#include "geometry/obb_fit.h"
#include "support/shapes.h"
#include "support/test.h"
#include <stdint.h>
#include <stdlib.h>
#include "support/counting_alloc.h"

/* ---- bad input ---------------------------------------------------------------------------------- */

static int bad_input_codes(void)
{
    spx_vec3 v[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    uint32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    spx_mesh* const sentinel = (spx_mesh*)&v[0];
    spx_mesh* mesh = sentinel;
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 4, def.indices = idx, def.triangle_count = 2;

    spx_mesh_def zero;
    memset(&zero, 0, sizeof zero);
    zero.vertices = v, zero.vertex_count = 4, zero.indices = idx, zero.triangle_count = 2, zero.leaf_triangles = 4;
    TEST_ENSURE_CODE(spx_mesh_create(&zero, &mesh), SPX_ERR_UNINITIALIZED_DEF);
    TEST_ENSURE_CODE(spx_mesh_create(NULL, &mesh), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_create(&def, NULL), SPX_ERR_INVALID_ARGUMENT);

    spx_mesh_def d = def;
    d.vertices = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INVALID_ARGUMENT);
    d = def, d.indices = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INVALID_ARGUMENT);
    d = def, d.leaf_triangles = 0;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INVALID_ARGUMENT);
    d = def, d.leaf_triangles = 17;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INVALID_ARGUMENT);
    d = def, d.leaf_triangles = 16;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_OK);
    spx_mesh_destroy(mesh);
    mesh = sentinel;
    spx_allocator half = { test_counting_alloc, NULL, NULL };
    d = def, d.allocator = &half;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INVALID_ARGUMENT);

    spx_vec3 w[4];
    memcpy(w, v, sizeof w);
    d = def, d.vertices = w;
    w[3].y = NAN;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_NOT_FINITE);
    w[3].y = INFINITY;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_NOT_FINITE);
    w[3].y = 1;
    uint32_t bad[6] = { 0, 1, 2, 0, 2, 4 };
    d = def, d.indices = bad;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INDEX_OUT_OF_RANGE);
    bad[5] = UINT32_MAX;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INDEX_OUT_OF_RANGE);
    d = def, d.vertex_count = 0, d.vertices = NULL; /* no vertices: every index is out of range */
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_INDEX_OUT_OF_RANGE);

    d = def, d.triangle_count = 0, d.indices = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_EMPTY_MESH);
    uint32_t points[6] = { 1, 1, 1, 2, 2, 2 }; /* both triangles are single points */
    d = def, d.indices = points;
    TEST_ENSURE_CODE(spx_mesh_create(&d, &mesh), SPX_ERR_EMPTY_MESH);
    TEST_ENSURE(mesh == sentinel); /* no failed call wrote *out */

    /* the queries on a mesh */
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_mesh_info info;
    spx_triangle t;
    TEST_ENSURE_CODE(spx_mesh_get_info(NULL, &info), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_triangle(mesh, 2, &t, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_triangle(mesh, 0, NULL, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_triangle(NULL, 0, &t, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_triangle(mesh, 1, &t, NULL), SPX_OK);
    spx_mesh_destroy(mesh);
    spx_mesh_destroy(NULL);
    return 0;
}

static int degenerate_triangles_skipped_and_counted(void)
{
    spx_vec3 v[6] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1e-8f, 0, 0 }, { 2, 0, 0 } };
    uint32_t idx[] = {
        0, 1,
        2, /* good */
        1, 1,
        1, /* a point */
        0, 2,
        3, /* good */
        0, 4,
        0, /* tiny and segment-like: an edge of 1e-8 at coordinates of 1e-8 is not a point (the rule is relative): kept */
        0, 1,
        5, /* segment-like (collinear): kept */
        3, 3,
        3, /* a point */
    };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 6, def.indices = idx, def.triangle_count = 6;
    spx_mesh* mesh = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    TEST_ENSURE(info.triangle_count == 4);
    TEST_ENSURE(info.degenerate_count == 2);
    TEST_ENSURE((uintptr_t)mesh % 64 == 0); /* malloc/free by default, the block's alignment still honoured */
    /* Every kept triangle is one of the def's, named by its source, each once. */
    int seen[6] = { 0 };
    for (uint32_t i = 0; i < info.triangle_count; ++i) {
        spx_triangle t;
        uint32_t src = 99;
        TEST_ENSURE_CODE(spx_mesh_get_triangle(mesh, i, &t, &src), SPX_OK);
        TEST_ENSURE(src < 6 && src != 1 && src != 5);
        seen[src]++;
        for (int c = 0; c < 3; ++c) TEST_ENSURE(memcmp(&t.v[c], &v[idx[3 * src + c]], sizeof(spx_vec3)) == 0);
    }
    TEST_ENSURE(seen[0] == 1 && seen[2] == 1 && seen[3] == 1 && seen[4] == 1);
    spx_mesh_destroy(mesh);
    return 0;
}

static int allocation_failure_leaks_nothing(void)
{
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 24, 12));
    spx_mesh_def def = spx_default_mesh_def();
    def = test_shape_mesh_def(&s, 4);
    test_counting c = { 0 };
    spx_allocator a = { test_counting_alloc, test_counting_free, &c };
    def.allocator = &a;
    int k;
    spx_mesh* mesh = NULL;
    for (k = 1; k < 100; ++k) {
        c = (test_counting){ .fail_at = k };
        spx_result r = spx_mesh_create(&def, &mesh);
        if (r == SPX_OK) break;
        TEST_ENSURE_CODE(r, SPX_ERR_OUT_OF_MEMORY);
        TEST_ENSURE(mesh == NULL);
        TEST_ENSURE(c.live == 0 && c.live_bytes == 0);
    }
    TEST_ENSURE(k > 1 && k < 100); /* at least one allocation, then success */
    TEST_ENSURE(c.bad_alignment == 0);
    TEST_ENSURE(c.live == 1); /* the mesh is one block */
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    TEST_ENSURE(c.live_bytes == info.bytes);
    TEST_ENSURE((uintptr_t)mesh % 64 == 0);
    spx_mesh_destroy(mesh);
    TEST_ENSURE(c.live == 0 && c.live_bytes == 0);
    test_shape_free(&s);
    return 0;
}

/* ---- tree invariants ----------------------------------------------------------------------------- */

/* The range of triangles under each node, worked out from the leaves. */
static int check_node(const spx_mesh* m, uint32_t node, uint32_t depth, uint32_t* lo, uint32_t* hi, int* cover,
                      uint32_t* visited, uint32_t* max_depth)
{
    TEST_ENSURE(node < m->node_count);
    TEST_ENSURE(depth <= m->node_count);
    ++*visited;
    *max_depth = depth > *max_depth ? depth : *max_depth;
    const spx_obb_node* nd = &m->nodes[node];
    TEST_ENSURE_CODE(spx_obb_validate(&nd->box), SPX_OK);
    if (spx_obb_node_is_leaf(nd)) {
        TEST_ENSURE(nd->count <= m->leaf_triangles);
        TEST_ENSURE(nd->first < m->triangle_count && nd->count <= m->triangle_count - nd->first);
        for (uint32_t i = nd->first; i < nd->first + nd->count; ++i) cover[i]++;
        *lo = nd->first;
        *hi = nd->first + nd->count;
    } else {
        TEST_ENSURE(nd->first > node && nd->first + 1 < m->node_count); /* children after the parent: no cycles */
        uint32_t l0, h0, l1, h1;
        if (check_node(m, nd->first, depth + 1, &l0, &h0, cover, visited, max_depth)) return 1;
        if (check_node(m, nd->first + 1, depth + 1, &l1, &h1, cover, visited, max_depth)) return 1;
        TEST_ENSURE(h0 == l1); /* a subtree's triangles are one run: the children's runs meet */
        *lo = l0;
        *hi = h1;
    }
    /* Every corner of every triangle under the node inside its box (in double, relative tolerance). */
    const spx_obb* b = &nd->box;
    const float* h = &b->half_extents.x;
    double largest = fmax(h[0], fmax(h[1], h[2]));
    for (uint32_t i = *lo; i < *hi; ++i)
        for (int c = 0; c < 3; ++c) {
            const spx_vec3 p = m->triangles[i].v[c];
            double d[3] = { (double)p.x - b->center.x, (double)p.y - b->center.y, (double)p.z - b->center.z };
            for (int a = 0; a < 3; ++a) {
                const spx_vec3 ax = b->rotation.col[a];
                double s = d[0] * ax.x + d[1] * ax.y + d[2] * ax.z;
                if (!(fabs(s) <= h[a] + 1e-5 * largest)) {
                    fprintf(stderr, "node %u: triangle %u corner %d outside on axis %d by %g (half %g)\n", node, i, c,
                            a, fabs(s) - h[a], (double)h[a]);
                    return 1;
                }
            }
        }
    return 0;
}

static int check_tree(const test_shape* s, uint32_t leaf, const char* name)
{
    spx_mesh_def def = test_shape_mesh_def(s, leaf);
    spx_mesh *m = NULL, *again = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &m), SPX_OK);
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(m, &info), SPX_OK);
    uint32_t n = info.triangle_count;
    TEST_ENSURE(n + info.degenerate_count == s->triangle_count);
    TEST_ENSURE(info.node_count >= 1 && info.node_count <= 2 * n - 1);
    int* cover = calloc(n, sizeof(int));
    TEST_ENSURE(cover);
    uint32_t lo, hi, visited = 0, depth = 0;
    int failed = check_node(m, 0, 1, &lo, &hi, cover, &visited, &depth);
    for (uint32_t i = 0; !failed && i < n; ++i) failed = cover[i] != 1;
    free(cover);
    if (failed) fprintf(stderr, "%s, leaf %u: tree invariant broken\n", name, leaf);
    TEST_ENSURE(!failed);
    TEST_ENSURE(lo == 0 && hi == n);
    TEST_ENSURE(visited == info.node_count); /* every node reachable from the root, once */
    TEST_ENSURE(depth == info.depth);
    TEST_ENSURE(info.depth <= spx_obb_tree_max_depth(n));
    /* every source triangle once */
    uint8_t* src = calloc(s->triangle_count, 1);
    TEST_ENSURE(src);
    for (uint32_t i = 0; i < n; ++i) src[m->source[i]]++;
    uint32_t once = 0;
    for (uint32_t i = 0; i < s->triangle_count; ++i) once += src[i] == 1, failed |= src[i] > 1;
    free(src);
    TEST_ENSURE(!failed && once == n);
    /* Deterministic: a second build is the same byte for byte. */
    TEST_ENSURE_CODE(spx_mesh_create(&def, &again), SPX_OK);
    TEST_ENSURE(again->node_count == m->node_count);
    TEST_ENSURE(memcmp(again->nodes, m->nodes, sizeof(spx_obb_node) * m->node_count) == 0);
    TEST_ENSURE(memcmp(again->triangles, m->triangles, sizeof(spx_triangle) * n) == 0);
    TEST_ENSURE(memcmp(again->source, m->source, sizeof(uint32_t) * n) == 0);
    printf("  %-14s leaf %2u: %7u triangles (%u degenerate), %6u nodes, depth %2u, %.1f bytes a triangle\n", name, leaf,
           n, info.degenerate_count, info.node_count, info.depth, (double)info.bytes / n);
    spx_mesh_destroy(again);
    spx_mesh_destroy(m);
    return 0;
}

static int tree_invariants_on_shapes(void)
{
    test_shape s;
    const uint32_t leaves[] = { 1, 4, 16 };
    for (int l = 0; l < 3; ++l) {
        TEST_ENSURE(test_shape_sphere(&s, 2.0f, 24, 48));
        TEST_ENSURE(check_tree(&s, leaves[l], "sphere") == 0);
        test_shape_free(&s);
        TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 64, 32));
        TEST_ENSURE(check_tree(&s, leaves[l], "torus") == 0);
        test_shape_free(&s);
        TEST_ENSURE(test_shape_grid(&s, 40, 25));
        TEST_ENSURE(check_tree(&s, leaves[l], "flat grid") == 0);
        test_shape_free(&s);
        TEST_ENSURE(test_shape_strip(&s, 1000.0f, 1e-3f, 500));
        TEST_ENSURE(check_tree(&s, leaves[l], "thin strip") == 0);
        test_shape_free(&s);
        TEST_ENSURE(test_shape_random(&s, 10000, 50.0f, 2.0f, 0x5E9Au + (unsigned)l));
        TEST_ENSURE(check_tree(&s, leaves[l], "random 10k") == 0);
        test_shape_free(&s);
        TEST_ENSURE(test_shape_grid(&s, 1, 1));
        s.triangle_count = 1;
        TEST_ENSURE(check_tree(&s, leaves[l], "one triangle") == 0);
        test_shape_free(&s);
    }
    /* far from the origin: the covariance is taken about the mean, the boxes stay tight */
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 32, 16));
    for (uint32_t i = 0; i < s.vertex_count; ++i) s.vertices[i].x += 1.0e4f, s.vertices[i].z -= 3.0e3f;
    TEST_ENSURE(check_tree(&s, 4, "far torus") == 0);
    test_shape_free(&s);
    /* a cluster of 900 triangles and 12 lone ones 10^0.5, 10^1, ... 10^6 m away along x: each mean
       split peels off the farthest, so the tree goes deep on one side and stays within its bound */
    TEST_ENSURE(test_shape_random(&s, 912, 1.0f, 0.1f, 77));
    for (uint32_t k = 0; k < 12; ++k)
        for (int c = 0; c < 3; ++c) s.vertices[3 * (900 + k) + c].x *= powf(10.0f, 0.5f * (float)(k + 1));
    TEST_ENSURE(check_tree(&s, 4, "outliers") == 0);
    /* one of them past SPX_MAX_COORDINATE: refused */
    s.vertices[3 * 911].x = -1.5f * SPX_MAX_COORDINATE;
    spx_mesh_def def = test_shape_mesh_def(&s, 4);
    spx_mesh* m = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &m), SPX_ERR_OUT_OF_RANGE);
    TEST_ENSURE(m == NULL);
    test_shape_free(&s);
    /* many copies of the same triangle: every centroid equal, only the median split can cut */
    TEST_ENSURE(test_shape_grid(&s, 1, 1));
    uint32_t* copies = malloc(sizeof(uint32_t) * 3 * 100);
    TEST_ENSURE(copies);
    for (int i = 0; i < 300; ++i) copies[i] = s.indices[i % 3];
    free(s.indices);
    s.indices = copies;
    s.triangle_count = 100;
    TEST_ENSURE(check_tree(&s, 4, "100 copies") == 0);
    test_shape_free(&s);
    return 0;
}

static int leaf_triangles_bound_the_tree(void)
{ /* a sphere of 2 * 16 * 32 = 1024 triangles: larger leaves, fewer nodes */
    test_shape s;
    TEST_ENSURE(test_shape_sphere(&s, 1.0f, 16, 32));
    uint32_t previous = UINT32_MAX;
    for (uint32_t leaf = 1; leaf <= 16; leaf *= 2) {
        spx_mesh_def def = test_shape_mesh_def(&s, leaf);
        spx_mesh* m = NULL;
        TEST_ENSURE_CODE(spx_mesh_create(&def, &m), SPX_OK);
        TEST_ENSURE(m->node_count <= previous);
        previous = m->node_count;
        if (leaf == 1) TEST_ENSURE(m->node_count == 2 * m->triangle_count - 1);
        spx_mesh_destroy(m);
    }
    test_shape_free(&s);
    return 0;
}

/* ---- OBB fit ------------------------------------------------------------------------------------- */

/* The surface of a box: 12 triangles. Its covariance has the box axes as eigenvectors. */
static void box_surface(spx_vec3 c, const float h[3], const spx_mat3* r, spx_triangle out[12])
{
    spx_vec3 corner[8];
    for (int k = 0; k < 8; ++k) {
        spx_vec3 p = c;
        for (int i = 0; i < 3; ++i) {
            float s = (k >> i) & 1 ? h[i] : -h[i];
            p.x += s * r->col[i].x, p.y += s * r->col[i].y, p.z += s * r->col[i].z;
        }
        corner[k] = p;
    }
    /* faces by the axis they are normal to and the side */
    static const int face[6][4] = { { 0, 2, 6, 4 }, { 1, 5, 7, 3 }, { 0, 4, 5, 1 },
                                    { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 6, 7, 5 } };
    for (int f = 0; f < 6; ++f) {
        out[2 * f] = (spx_triangle){ { corner[face[f][0]], corner[face[f][1]], corner[face[f][2]] } };
        out[2 * f + 1] = (spx_triangle){ { corner[face[f][0]], corner[face[f][2]], corner[face[f][3]] } };
    }
}

static int fit_matches_box(spx_vec3 c, const float h[3], const spx_mat3* r)
{
    spx_triangle t[12];
    box_surface(c, h, r, t);
    spx_obb b = spx_obb_fit_triangles(t, NULL, NULL, 12);
    TEST_ENSURE_CODE(spx_obb_validate(&b), SPX_OK);
    TEST_ENSURE_NEAR3(b.center, c.x, c.y, c.z, 1e-5);
    /* each fitted axis parallel to one box axis, with that axis' extent */
    int used[3] = { 0 };
    const float* fh = &b.half_extents.x;
    for (int i = 0; i < 3; ++i) {
        int match = -1;
        for (int j = 0; j < 3; ++j) {
            const spx_vec3 a = b.rotation.col[i], e = r->col[j];
            if (fabs(fabs((double)a.x * e.x + (double)a.y * e.y + (double)a.z * e.z) - 1.0) < 1e-4) match = j;
        }
        TEST_ENSURE(match >= 0 && !used[match]);
        used[match] = 1;
        TEST_ENSURE_NEAR(fh[i], h[match], 1e-5);
    }
    return 0;
}

static int fit_box_shaped_sets(void)
{
    const float h[3] = { 3.0f, 2.0f, 0.5f };
    const spx_mat3 I3 = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
    TEST_ENSURE(fit_matches_box(spx_v3(0, 0, 0), h, &I3) == 0);
    TEST_ENSURE(fit_matches_box(spx_v3(5, -2, 7), h, &I3) == 0);
    spx_obb rotated;
    /* an arbitrary rotation: unit quaternion (0.3, -0.5, 0.2, w) */
    double qx = 0.3, qy = -0.5, qz = 0.2, qw = sqrt(1.0 - qx * qx - qy * qy - qz * qz);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1),
                                       (spx_quat){ (float)qx, (float)qy, (float)qz, (float)qw }, &rotated),
                     SPX_OK);
    TEST_ENSURE(fit_matches_box(spx_v3(1.5f, 0.25f, -4), h, &rotated.rotation) == 0);
    const float cube[3] = { 1.0f, 1.0f, 1.0f }; /* isotropic covariance: any axes, still the cube */
    spx_triangle t[12];
    box_surface(spx_v3(0, 0, 0), cube, &rotated.rotation, t);
    spx_obb b = spx_obb_fit_triangles(t, NULL, NULL, 12);
    TEST_ENSURE_CODE(spx_obb_validate(&b), SPX_OK);
    TEST_ENSURE(b.half_extents.x <= 1.7321 && b.half_extents.y <= 1.7321 && b.half_extents.z <= 1.7321);
    return 0;
}

static int fit_flat_and_collinear_sets(void)
{
    /* one triangle: flat, the thickness guard gives a small positive extent */
    spx_triangle t = { { { 0, 0, 0 }, { 2, 0, 0 }, { 0, 1, 0 } } };
    spx_obb b = spx_obb_fit_triangles(&t, NULL, NULL, 1);
    TEST_ENSURE_CODE(spx_obb_validate(&b), SPX_OK);
    TEST_ENSURE(fabsf(b.rotation.col[2].z) > 0.9999f); /* the normal is the smallest axis */
    TEST_ENSURE(b.half_extents.z > 0.0f && b.half_extents.z < 1e-5f);
    /* segment-like triangles on one line: no area at all, and two equal zero eigenvalues */
    spx_triangle seg[2] = { { { { 0, 0, 0 }, { 1, 1, 1 }, { 3, 3, 3 } } },
                            { { { 4, 4, 4 }, { 5, 5, 5 }, { 4, 4, 4 } } } };
    b = spx_obb_fit_triangles(seg, NULL, NULL, 2);
    TEST_ENSURE_CODE(spx_obb_validate(&b), SPX_OK);
    const float* h = &b.half_extents.x;
    TEST_ENSURE_NEAR(h[0], 5.0 * sqrt(3.0) / 2.0, 1e-5);
    TEST_ENSURE(h[1] > 0.0f && h[2] > 0.0f && h[1] < 1e-5f && h[2] < 1e-5f);
    return 0;
}

static int fit_weighs_area_not_vertices(void)
{ /* the rectangle [0,4] x [0,1] in the plane y = 0, fanned from an off-centre inner vertex: its
       surface is the same rectangle, so the axes are x and z exactly whatever the fan; the five
       vertices' own covariance would tilt them towards the inner vertex */
    spx_vec3 c[4] = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 1 }, { 0, 0, 1 } }, in = { 0.5f, 0, 0.9f };
    spx_triangle t[4];
    for (int i = 0; i < 4; ++i) t[i] = (spx_triangle){ { in, c[i], c[(i + 1) % 4] } };
    spx_obb b = spx_obb_fit_triangles(t, NULL, NULL, 4);
    TEST_ENSURE_CODE(spx_obb_validate(&b), SPX_OK);
    TEST_ENSURE_NEAR(fabs(b.rotation.col[0].x), 1.0, 1e-6); /* longest axis first: along x */
    TEST_ENSURE_NEAR(fabs(b.rotation.col[1].z), 1.0, 1e-6);
    TEST_ENSURE_NEAR(b.half_extents.x, 2.0, 1e-5);
    TEST_ENSURE_NEAR(b.half_extents.y, 0.5, 1e-5);
    TEST_ENSURE(b.half_extents.z > 0.0f && b.half_extents.z < 1e-5f);
    TEST_ENSURE_NEAR(b.center.x, 2.0, 1e-6);
    TEST_ENSURE_NEAR(b.center.z, 0.5, 1e-6);
    return 0;
}

static int eigen_solver(void)
{
    double v[3], e[3][3];
    const double iso[3][3] = { { 2, 0, 0 }, { 0, 2, 0 }, { 0, 0, 2 } };
    spx_sym3_eigen(iso, v, e);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) TEST_ENSURE(e[i][j] == (i == j ? 1.0 : 0.0));
    /* random symmetric matrices: A v = lambda v, V orthonormal and right-handed */
    uint64_t state = 12345;
    for (int trial = 0; trial < 1000; ++trial) {
        double a[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = i; j < 3; ++j) {
                state ^= state << 13, state ^= state >> 7, state ^= state << 17;
                a[i][j] = a[j][i] = ((double)(state >> 11) / 9007199254740992.0 - 0.5) * (trial % 2 ? 1e6 : 1.0);
            }
        if (trial % 5 == 0) a[0][1] = a[1][0] = a[0][2] = a[2][0] = 0; /* partly diagonal already */
        spx_sym3_eigen((const double(*)[3])a, v, e);
        double scale = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 3; ++i) {
                double av = a[i][0] * e[0][k] + a[i][1] * e[1][k] + a[i][2] * e[2][k];
                TEST_ENSURE_NEAR(av, v[k] * e[i][k], 1e-12 * scale);
            }
        TEST_ENSURE(v[0] >= v[1] && v[1] >= v[2]);
        for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q) {
                double d = e[0][p] * e[0][q] + e[1][p] * e[1][q] + e[2][p] * e[2][q];
                TEST_ENSURE_NEAR(d, p == q ? 1.0 : 0.0, 1e-12);
            }
        double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                     e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                     e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
        TEST_ENSURE_NEAR(det, 1.0, 1e-12);
    }
    return 0;
}

/* ---- how the triangles meet ---------------------------------------------------------------------- */

/* Edge j of mesh triangle i as its two corners, and the turn and corner bits the mesh gives it. */
typedef struct edge_view {
    spx_vec3 a, b;
    float angle;
} edge_view;

static edge_view edge_of(const spx_mesh* mesh, uint32_t i, int j, spx_triangle_edges* e)
{
    spx_triangle t;
    spx_mesh_get_triangle(mesh, i, &t, NULL);
    spx_mesh_get_triangle_edges(mesh, i, e);
    edge_view v = { t.v[j], t.v[(j + 1) % 3], e->angle[j] };
    return v;
}

static int is_grid_corner(spx_vec3 p, float nx, float nz)
{
    return (p.x == 0.0f || p.x == nx) && (p.z == 0.0f || p.z == nz);
}

static int triangle_edges_of_a_grid_and_a_roof(void)
{ /* A 4 x 4 grid: the edges on its border are open (one triangle each), every other edge flat;
       the surface's corners are the grid's four corners only (the border is straight elsewhere, the
       inside flat). Folded into a roof (each half sloping down 0.3 rad from the ridge z = 2, wound
       upwards), the ridge turns 0.6 rad, convex from above; the ridge's ends are corners (it meets
       the border there), and so are the border's bends where it crosses the ridge. */
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 4, 4));
    for (int roof = 0; roof < 2; ++roof) {
        if (roof)
            for (uint32_t v = 0; v < s.vertex_count; ++v) s.vertices[v].y = -tanf(0.3f) * fabsf(s.vertices[v].z - 2.0f);
        spx_mesh_def def = test_shape_mesh_def(&s, 4);
        spx_mesh* mesh = NULL;
        TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
        int open = 0, flat = 0, ridge = 0, corners = 0;
        for (uint32_t i = 0; i < 32; ++i) {
            spx_triangle_edges e;
            for (int j = 0; j < 3; ++j) {
                edge_view v = edge_of(mesh, i, j, &e);
                const int border = (v.a.x == v.b.x && (v.a.x == 0.0f || v.a.x == 4.0f)) ||
                                   (v.a.z == v.b.z && (v.a.z == 0.0f || v.a.z == 4.0f));
                const int on_ridge = roof && v.a.z == 2.0f && v.b.z == 2.0f;
                if (border) {
                    TEST_ENSURE(v.angle >= SPX_EDGE_OPEN);
                    ++open;
                } else if (on_ridge) {
                    TEST_ENSURE(v.angle >= 0.6f && v.angle <= 0.6f + 2e-4f);
                    ++ridge;
                } else {
                    TEST_ENSURE(v.angle == 0.0f);
                    ++flat;
                }
            }
            spx_triangle t;
            TEST_ENSURE_CODE(spx_mesh_get_triangle(mesh, i, &t, NULL), SPX_OK);
            for (int k = 0; k < 3; ++k) {
                const spx_vec3 p = t.v[k];
                const int want = is_grid_corner(p, 4, 4) || (roof && p.z == 2.0f && (p.x == 0.0f || p.x == 4.0f));
                TEST_ENSURE(((e.corners >> k) & 1u) == (unsigned)want);
                corners += want;
            }
        }
        /* 56 edges: 16 on the border (one side each), 40 inside (two sides), 4 of them on the ridge. */
        TEST_ENSURE(open == 16 && flat + ridge == 80);
        TEST_ENSURE(ridge == (roof ? 8 : 0));
        printf("  %s: %d open edge sides, %d flat, %d on the ridge; %d corner sides\n", roof ? "roof" : "grid", open,
               flat, ridge, corners);
        spx_mesh_destroy(mesh);
    }
    test_shape_free(&s);
    return 0;
}

static int triangle_edges_of_a_cube_both_ways(void)
{ /* A closed cube of 12 triangles: its 12 edges turn pi/2, convex from outside (the front); the
       face diagonals are flat; all 8 vertices are corners. Wound inside out, the same edges turn
       -pi/2 (concave from the front, which now faces in). */
    const spx_vec3 v[8] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
                            { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 } };
    uint32_t idx[36] = { 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                         2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5 };
    for (int flip = 0; flip < 2; ++flip) {
        if (flip)
            for (int t = 0; t < 12; ++t) {
                uint32_t x = idx[3 * t + 1];
                idx[3 * t + 1] = idx[3 * t + 2], idx[3 * t + 2] = x;
            }
        spx_mesh_def def = spx_default_mesh_def();
        def.vertices = v, def.vertex_count = 8, def.indices = idx, def.triangle_count = 12;
        spx_mesh* mesh = NULL;
        TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
        spx_mesh_info info;
        TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
        TEST_ENSURE(info.closed);
        int cube_edges = 0, diagonals = 0;
        for (uint32_t i = 0; i < 12; ++i) {
            spx_triangle_edges e;
            for (int j = 0; j < 3; ++j) {
                edge_view ev = edge_of(mesh, i, j, &e);
                const int same = (ev.a.x == ev.b.x) + (ev.a.y == ev.b.y) + (ev.a.z == ev.b.z);
                if (same == 2) {
                    TEST_ENSURE_NEAR(ev.angle, flip ? -1.5707963f : 1.5707963f, 2e-4f);
                    TEST_ENSURE(fabsf(ev.angle) >= 1.5707963f);
                    ++cube_edges;
                } else {
                    TEST_ENSURE(ev.angle == 0.0f);
                    ++diagonals;
                }
            }
            TEST_ENSURE(e.corners == 7u);
        }
        TEST_ENSURE(cube_edges == 24 && diagonals == 12);
        spx_mesh_destroy(mesh);
    }
    return 0;
}

static int triangle_edges_where_the_surface_is_not_a_surface(void)
{ /* Three triangles on one edge (a book of three pages): no single neighbour, open for all three.
       A triangle and its copy wound the other way (a two-sided sheet): they fold onto each other,
       open. A segment-like triangle is no neighbour: the edge it shares is open. Bad indices out. */
    const spx_vec3 v[7] = { { 0, 0, 0 },    { 1, 0, 0 }, { 0.5f, 1, 0 }, { 0.5f, -1, 0.2f },
                            { 0.5f, 0, 1 }, { 2, 0, 0 }, { 0.5f, 0, 0 } };
    const uint32_t book[9] = { 0, 1, 2, 1, 0, 3, 0, 1, 4 };
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = 6, def.indices = book, def.triangle_count = 3;
    spx_mesh* mesh = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    for (uint32_t i = 0; i < 3; ++i) {
        spx_triangle_edges e;
        for (int j = 0; j < 3; ++j) TEST_ENSURE(edge_of(mesh, i, j, &e).angle >= SPX_EDGE_OPEN);
    }
    spx_mesh_destroy(mesh);
    const uint32_t sheet[6] = { 0, 1, 2, 0, 2, 1 };
    def.indices = sheet, def.triangle_count = 2;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    for (uint32_t i = 0; i < 2; ++i) {
        spx_triangle_edges e;
        for (int j = 0; j < 3; ++j) TEST_ENSURE(edge_of(mesh, i, j, &e).angle >= SPX_EDGE_OPEN);
    }
    spx_mesh_destroy(mesh);
    /* A triangle whose one neighbour is segment-like (corners 1, 0 and 5 on the x axis): no
       neighbour to turn to, open. */
    const uint32_t mixed[6] = { 0, 1, 3, 1, 0, 5 };
    def.indices = mixed, def.triangle_count = 2;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    for (uint32_t i = 0; i < 2; ++i) {
        spx_triangle_edges e;
        TEST_ENSURE_CODE(spx_mesh_get_triangle_edges(mesh, i, &e), SPX_OK);
        for (int j = 0; j < 3; ++j) TEST_ENSURE(e.angle[j] >= SPX_EDGE_OPEN);
    }
    spx_triangle_edges e;
    TEST_ENSURE_CODE(spx_mesh_get_triangle_edges(mesh, 2, &e), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_triangle_edges(NULL, 0, &e), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mesh_get_triangle_edges(mesh, 0, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_mesh_destroy(mesh);
    return 0;
}

int main(void)
{
    int failures = 0;
    TEST_RUN(bad_input_codes, failures);
    TEST_RUN(degenerate_triangles_skipped_and_counted, failures);
    TEST_RUN(allocation_failure_leaks_nothing, failures);
    TEST_RUN(tree_invariants_on_shapes, failures);
    TEST_RUN(leaf_triangles_bound_the_tree, failures);
    TEST_RUN(fit_box_shaped_sets, failures);
    TEST_RUN(fit_flat_and_collinear_sets, failures);
    TEST_RUN(fit_weighs_area_not_vertices, failures);
    TEST_RUN(eigen_solver, failures);
    TEST_RUN(triangle_edges_of_a_grid_and_a_roof, failures);
    TEST_RUN(triangle_edges_of_a_cube_both_ways, failures);
    TEST_RUN(triangle_edges_where_the_surface_is_not_a_surface, failures);
    return failures != 0;
}
