/* Closed meshes and mass properties: closedness of built and generated meshes; the box against its
   formulas; meshes against the box, far from the origin, rotated, hollow, and tessellated spheres
   and tori converging to their analytic figures; every error code. */
#include <sepax/sepax.h>
#include "geometry/mesh.h"
#include "support/shapes.h"
#include "support/test.h"
#include <stdint.h>
#include <stdlib.h>
#ifdef SPX_MASS_MODELS_DIR
#include "meshio.h"
#endif

/* ---- meshes built here -------------------------------------------------------------------------- */

/* Corner k of the box [-h, h] about c: +h along axis i when bit i of k is set. */
static spx_vec3 box_corner(spx_vec3 c, spx_vec3 h, int k)
{
    return spx_v3(c.x + (k & 1 ? h.x : -h.x), c.y + (k & 2 ? h.y : -h.y), c.z + (k & 4 ? h.z : -h.z));
}

/* The six faces as corner numbers, counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z. */
static const int box_face[6][4] = { { 0, 4, 6, 2 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 },
                                    { 2, 6, 7, 3 }, { 0, 2, 3, 1 }, { 4, 5, 7, 6 } };

/* A box as 8 shared vertices and 12 triangles, two a face in the order of box_face. */
static void indexed_box(spx_vec3 c, spx_vec3 h, spx_vec3 v[8], uint32_t idx[36])
{
    for (int k = 0; k < 8; ++k) v[k] = box_corner(c, h, k);
    for (int f = 0; f < 6; ++f) {
        const int* q = box_face[f];
        uint32_t* t = idx + 6 * f;
        t[0] = (uint32_t)q[0], t[1] = (uint32_t)q[1], t[2] = (uint32_t)q[2];
        t[3] = (uint32_t)q[0], t[4] = (uint32_t)q[2], t[5] = (uint32_t)q[3];
    }
}

static spx_mesh_def def_from(const spx_vec3* v, uint32_t nv, const uint32_t* idx, uint32_t nt)
{
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = v, def.vertex_count = nv, def.indices = idx, def.triangle_count = nt;
    return def;
}

/* Builds the mesh and reports whether it is closed (-1 when the build fails). */
static int closed_of(const spx_vec3* v, uint32_t nv, const uint32_t* idx, uint32_t nt)
{
    spx_mesh_def def = def_from(v, nv, idx, nt);
    spx_mesh* mesh = NULL;
    if (spx_mesh_create(&def, &mesh) != SPX_OK) return -1;
    spx_mesh_info info;
    int closed = spx_mesh_get_info(mesh, &info) == SPX_OK ? info.closed : -1;
    spx_mesh_destroy(mesh);
    return closed;
}

static int shape_closed(const test_shape* s)
{
    return closed_of(s->vertices, s->vertex_count, s->indices, s->triangle_count);
}

static void flip_winding(uint32_t* idx, uint32_t triangles)
{
    for (uint32_t t = 0; t < triangles; ++t) {
        uint32_t k = idx[3 * t + 1];
        idx[3 * t + 1] = idx[3 * t + 2];
        idx[3 * t + 2] = k;
    }
}

/* Builds a mesh and asks for its mass properties; the mesh is destroyed again. */
static spx_result mass_of(const spx_vec3* v, uint32_t nv, const uint32_t* idx, uint32_t nt, float density,
                          spx_mass_properties* out)
{
    spx_mesh_def def = def_from(v, nv, idx, nt);
    spx_mesh* mesh = NULL;
    spx_result r = spx_mesh_create(&def, &mesh);
    if (r != SPX_OK) return r;
    r = spx_mass_mesh(mesh, density, out);
    spx_mesh_destroy(mesh);
    return r;
}

static spx_result shape_mass(const test_shape* s, float density, spx_mass_properties* out)
{
    return mass_of(s->vertices, s->vertex_count, s->indices, s->triangle_count, density, out);
}

static double entry(const spx_mat3* m, int row, int col) { return (&m->col[col].x)[row]; }

/* Every field of a against b, each within rel of b's size (the inertia within rel of b's trace). */
static int ensure_same_mass(const spx_mass_properties* a, const spx_mass_properties* b, double rel, double center_tol)
{
    TEST_ENSURE_NEAR(a->mass, b->mass, rel * b->mass);
    TEST_ENSURE_NEAR(a->volume, b->volume, rel * b->volume);
    TEST_ENSURE_NEAR3(a->center, b->center.x, b->center.y, b->center.z, center_tol);
    const double trace = entry(&b->inertia, 0, 0) + entry(&b->inertia, 1, 1) + entry(&b->inertia, 2, 2);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) TEST_ENSURE_NEAR(entry(&a->inertia, i, j), entry(&b->inertia, i, j), rel * trace);
    return 0;
}

static int ensure_symmetric(const spx_mat3* m)
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) TEST_ENSURE(entry(m, i, j) == entry(m, j, i));
    return 0;
}

/* ---- closedness ----------------------------------------------------------------------------------- */

static int closed_boxes(void)
{
    spx_vec3 v[8];
    uint32_t idx[36];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 2, 3), v, idx);
    TEST_ENSURE(closed_of(v, 8, idx, 12) == 1);
    /* STL style: every triangle its own three vertices, welded by their coordinates */
    spx_vec3 soup[36];
    uint32_t soup_idx[36];
    for (int i = 0; i < 36; ++i) soup[i] = v[idx[i]], soup_idx[i] = (uint32_t)i;
    TEST_ENSURE(closed_of(soup, 36, soup_idx, 12) == 1);
    /* -0 and +0 are the same coordinate: the box [-2, 0] x ..., every other copy of x = 0 written -0 */
    indexed_box(spx_v3(-1, 0, 0), spx_v3(1, 0.5f, 0.5f), v, idx);
    for (int i = 0; i < 36; ++i) soup[i] = v[idx[i]];
    for (int i = 0; i < 36; i += 2)
        if (soup[i].x == 0.0f) soup[i].x = -0.0f;
    TEST_ENSURE(closed_of(soup, 36, soup_idx, 12) == 1);
    /* a vertex off by one float step is another vertex: a crack */
    soup[5].y = nextafterf(soup[5].y, 10.0f);
    TEST_ENSURE(closed_of(soup, 36, soup_idx, 12) == 0);
    return 0;
}

static int open_and_non_manifold_meshes(void)
{
    spx_vec3 v[9];
    uint32_t idx[36 + 3];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    TEST_ENSURE(closed_of(v, 8, idx, 10) == 0);     /* last face (+z) missing */
    TEST_ENSURE(closed_of(v, 8, idx + 6, 10) == 0); /* first face missing */
    /* one triangle flipped: its edges now run the same way as its neighbours' */
    uint32_t flipped[36];
    memcpy(flipped, idx, sizeof flipped);
    uint32_t t = flipped[13];
    flipped[13] = flipped[14], flipped[14] = t;
    TEST_ENSURE(closed_of(v, 8, flipped, 12) == 0);
    /* every triangle flipped: still closed (wound inside out) */
    for (int i = 0; i < 12; ++i) {
        flipped[3 * i] = idx[3 * i];
        flipped[3 * i + 1] = idx[3 * i + 2];
        flipped[3 * i + 2] = idx[3 * i + 1];
    }
    TEST_ENSURE(closed_of(v, 8, flipped, 12) == 1);
    /* a third triangle on the edge 0-4 (shared by faces -x and -y): three triangles on one edge */
    v[8] = spx_v3(-2, -2, 0);
    memcpy(idx + 36, (uint32_t[3]){ 0, 4, 8 }, sizeof(uint32_t[3]));
    TEST_ENSURE(closed_of(v, 9, idx, 13) == 0);
    /* the same triangle twice on a closed box: two edges used three times */
    memcpy(idx + 36, idx, sizeof(uint32_t[3]));
    TEST_ENSURE(closed_of(v, 8, idx, 13) == 0);
    /* a flat sheet, one triangle each way: closed, but no volume (the mass tests reject it) */
    uint32_t sheet[6] = { 0, 1, 3, 0, 3, 1 };
    TEST_ENSURE(closed_of(v, 8, sheet, 2) == 1);
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 4, 3));
    TEST_ENSURE(shape_closed(&s) == 0);
    test_shape_free(&s);
    return 0;
}

static int degenerate_triangles_and_closedness(void)
{
    /* A box whose +z face is split around a tiny inner triangle (e, f, g), 1e-8 m across: the mesh
       skips it as degenerate, but the surface the def describes is still closed. */
    const float tiny = 1e-8f;
    spx_vec3 v[11];
    uint32_t idx[36 + 6 * 3 + 3];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    v[8] = spx_v3(0, -tiny, 1), v[9] = spx_v3(tiny, tiny, 1), v[10] = spx_v3(-tiny, tiny, 1);
    /* corners of +z: a = 4 (-1,-1), b = 5 (1,-1), c = 7 (1,1), d = 6 (-1,1); e = 8, f = 9, g = 10 */
    const uint32_t face[8][3] = { { 4, 5, 8 },  { 5, 9, 8 },  { 5, 7, 9 },  { 7, 10, 9 },
                                  { 7, 6, 10 }, { 6, 4, 10 }, { 4, 8, 10 }, { 8, 9, 10 } };
    memcpy(idx + 30, face, sizeof face); /* replaces the two triangles of +z, the last face */
    spx_mesh_def def = def_from(v, 11, idx, 10 + 8);
    spx_mesh* mesh = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_mesh_info info;
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    TEST_ENSURE(info.degenerate_count == 1);
    TEST_ENSURE(info.closed);
    spx_mesh_destroy(mesh);
    /* without the tiny triangle, a hole */
    TEST_ENSURE(closed_of(v, 11, idx, 17) == 0);
    /* a triangle whose corners are all one point, and one with two corners welded together: neither
       has an edge of its own, the box stays closed */
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    v[8] = v[3];
    memcpy(idx + 36, (uint32_t[6]){ 2, 2, 2, 3, 8, 5 }, sizeof(uint32_t[6]));
    TEST_ENSURE(closed_of(v, 9, idx, 14) == 1);
    return 0;
}

static int generated_shapes(void)
{
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 24, 12));
    TEST_ENSURE(shape_closed(&s) == 1);
    test_shape_free(&s);
    /* The sphere repeats its poles per sector; the north pole's copies are equal (sin 0 = 0) and
       weld, the south pole's are not (see test_shape_snap_sphere_poles): as generated it has a hole of about
       1e-16 m there. */
    TEST_ENSURE(test_shape_sphere(&s, 1.0f, 8, 16));
    printf("  sphere as generated: %s\n", shape_closed(&s) == 1 ? "closed" : "not closed (south pole copies differ)");
    test_shape_snap_sphere_poles(&s, 1.0f, 8, 16);
    TEST_ENSURE(shape_closed(&s) == 1);
    test_shape_free(&s);
    TEST_ENSURE(test_shape_random(&s, 100, 10.0f, 1.0f, 3));
    TEST_ENSURE(shape_closed(&s) == 0);
    test_shape_free(&s);
    return 0;
}

static uint64_t next_random(uint64_t* state)
{ /* xorshift64 */
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return *state;
}

static int closedness_ignores_numbering(void)
{ /* A torus of 160,000 triangles (vertex numbers over three bytes of the sort keys), rewritten the
       way exporters do: vertices renumbered and each triangle's corners given their own copies half
       of the time, triangles shuffled, corners rotated within each triangle. Still closed, the same
       mass; then any one triangle taken out opens it. */
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 400, 200));
    spx_mass_properties before, after;
    TEST_ENSURE_CODE(shape_mass(&s, 1.0f, &before), SPX_OK);
    const uint32_t nt = s.triangle_count, nv = s.vertex_count;
    spx_vec3* v = malloc(sizeof(spx_vec3) * (nv + 3 * (size_t)nt));
    uint32_t* idx = malloc(sizeof(uint32_t) * 3 * (size_t)nt);
    uint32_t* perm = malloc(sizeof(uint32_t) * nv);
    TEST_ENSURE(v && idx && perm);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (uint32_t i = 0; i < nv; ++i) perm[i] = i;
    for (uint32_t i = nv - 1; i > 0; --i) {
        uint32_t j = (uint32_t)(next_random(&state) % (i + 1)), k = perm[i];
        perm[i] = perm[j], perm[j] = k;
    }
    for (uint32_t i = 0; i < nv; ++i) v[perm[i]] = s.vertices[i];
    uint32_t count = nv;
    for (uint32_t t = 0; t < nt; ++t) {
        const uint32_t rot = (uint32_t)(next_random(&state) % 3), own = next_random(&state) & 1;
        for (uint32_t c = 0; c < 3; ++c) {
            uint32_t original = s.indices[3 * t + (c + rot) % 3];
            if (own) {
                v[count] = s.vertices[original];
                idx[3 * t + c] = count++;
            } else {
                idx[3 * t + c] = perm[original];
            }
        }
    }
    for (uint32_t t = nt - 1; t > 0; --t) {
        uint32_t u = (uint32_t)(next_random(&state) % (t + 1));
        for (int c = 0; c < 3; ++c) {
            uint32_t k = idx[3 * t + c];
            idx[3 * t + c] = idx[3 * u + c], idx[3 * u + c] = k;
        }
    }
    int failed = closed_of(v, count, idx, nt) != 1;
    failed |= mass_of(v, count, idx, nt, 1.0f, &after) != SPX_OK || ensure_same_mass(&after, &before, 1e-6, 1e-6) != 0;
    /* a triangle out: the last one, and one from the middle */
    failed |= closed_of(v, count, idx, nt - 1) != 0;
    memcpy(idx + 3 * (size_t)(nt / 2), idx + 3 * (size_t)(nt - 1), sizeof(uint32_t[3]));
    failed |= closed_of(v, count, idx, nt - 1) != 0;
    free(v), free(idx), free(perm);
    test_shape_free(&s);
    TEST_ENSURE(!failed);
    return 0;
}

/* ---- the box ------------------------------------------------------------------------------------- */

static int box_formulas(void)
{ /* half extents 0.5, 1, 1.5 at 2 kg/m^3: volume 6, mass 12;
       Ixx = 12 (1 + 2.25) / 3 = 13, Iyy = 12 (0.25 + 2.25) / 3 = 10, Izz = 12 (0.25 + 1) / 3 = 5 */
    spx_mass_properties m;
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(0.5f, 1.0f, 1.5f), 2.0f, &m), SPX_OK);
    TEST_ENSURE(m.mass == 12.0f && m.volume == 6.0f);
    TEST_ENSURE(m.center.x == 0.0f && m.center.y == 0.0f && m.center.z == 0.0f);
    const double expect[3][3] = { { 13, 0, 0 }, { 0, 10, 0 }, { 0, 0, 5 } };
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) TEST_ENSURE(entry(&m.inertia, i, j) == expect[i][j]);
    /* a unit cube of water: 1000 kg, 1000 / 6 kg m^2 about each axis */
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(0.5f, 0.5f, 0.5f), 1000.0f, &m), SPX_OK);
    TEST_ENSURE(m.mass == 1000.0f);
    TEST_ENSURE_NEAR(entry(&m.inertia, 1, 1), 1000.0 / 6.0, 1e-4);
    return 0;
}

static int box_bad_input(void)
{
    spx_mass_properties m, untouched;
    memset(&untouched, 0xAB, sizeof untouched);
    m = untouched;
    const spx_vec3 h = spx_v3(1, 1, 1);
    TEST_ENSURE_CODE(spx_mass_box(h, 1.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1, NAN, 1), 1.0f, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(INFINITY, 1, 1), 1.0f, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_box(h, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_box(h, INFINITY, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_box(h, -INFINITY, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1, 0, 1), 1.0f, &m), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1, 1, -2), 1.0f, &m), SPX_ERR_BAD_EXTENT);
    TEST_ENSURE_CODE(spx_mass_box(h, 0.0f, &m), SPX_ERR_BAD_DENSITY);
    TEST_ENSURE_CODE(spx_mass_box(h, -0.0f, &m), SPX_ERR_BAD_DENSITY);
    TEST_ENSURE_CODE(spx_mass_box(h, -1000.0f, &m), SPX_ERR_BAD_DENSITY);
    /* beyond float: a 20 km box of osmium-like 1e30 kg/m^3 (8e42 kg); a 1e-15 m box (8e-45 kg, below
       FLT_MIN); a 1e-12 m box dense enough to weigh 8e-26 kg but whose moments, 5e-50, are not floats */
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1e4f, 1e4f, 1e4f), 1e30f, &m), SPX_ERR_MASS_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1e-15f, 1e-15f, 1e-15f), 1.0f, &m), SPX_ERR_MASS_OUT_OF_RANGE);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1e-12f, 1e-12f, 1e-12f), 1e10f, &m), SPX_ERR_MASS_OUT_OF_RANGE);
    TEST_ENSURE(memcmp(&m, &untouched, sizeof m) == 0);                            /* no failed call wrote *out */
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1e-6f, 1e-6f, 1e-6f), 1.0f, &m), SPX_OK); /* a micrometre grain is fine */
    return 0;
}

/* ---- meshes --------------------------------------------------------------------------------------- */

static int mesh_box_equals_box(void)
{
    const spx_vec3 h = spx_v3(0.5f, 1.0f, 1.5f);
    spx_mass_properties box, mesh;
    TEST_ENSURE_CODE(spx_mass_box(h, 2.0f, &box), SPX_OK);
    spx_vec3 v[8];
    uint32_t idx[36];
    indexed_box(spx_v3(0, 0, 0), h, v, idx);
    TEST_ENSURE_CODE(mass_of(v, 8, idx, 12, 2.0f, &mesh), SPX_OK);
    TEST_ENSURE(ensure_same_mass(&mesh, &box, 1e-6, 1e-7) == 0);
    TEST_ENSURE(ensure_symmetric(&mesh.inertia) == 0);
    /* the same box as an STL-style soup of 36 vertices */
    spx_vec3 soup[36];
    uint32_t soup_idx[36];
    for (int i = 0; i < 36; ++i) soup[i] = v[idx[i]], soup_idx[i] = (uint32_t)i;
    TEST_ENSURE_CODE(mass_of(soup, 36, soup_idx, 12, 2.0f, &mesh), SPX_OK);
    TEST_ENSURE(ensure_same_mass(&mesh, &box, 1e-6, 1e-7) == 0);
    /* shifted off the origin: the same inertia about the centre, the centre where the box is */
    indexed_box(spx_v3(3, -2, 7), h, v, idx);
    TEST_ENSURE_CODE(mass_of(v, 8, idx, 12, 2.0f, &mesh), SPX_OK);
    box.center = spx_v3(3, -2, 7);
    TEST_ENSURE(ensure_same_mass(&mesh, &box, 1e-6, 1e-6) == 0);
    return 0;
}

static int mesh_box_far_from_the_origin(void)
{ /* Half extents 0.5, 1, 1.5 are exact float steps at these distances (the step at 1e6 is 1/16), so
       the mesh is the box exactly. Integrated about the origin, the tetrahedra would be up to 1e12
       times the box and cancel (at 1e6 m Ixx came out 341 instead of 13 when tried); about the
       mesh's own box centre nothing cancels. */
    const spx_vec3 h = spx_v3(0.5f, 1.0f, 1.5f);
    const spx_vec3 at[] = { { 1e3f, 0, 0 }, { 0, 1e4f, 0 }, { 1e4f, -1e4f, 1e3f }, { -1e6f, 1e6f, 1e6f } };
    spx_mass_properties box;
    TEST_ENSURE_CODE(spx_mass_box(h, 2.0f, &box), SPX_OK);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; ++k) {
        spx_vec3 v[8];
        uint32_t idx[36];
        indexed_box(at[k], h, v, idx);
        spx_mass_properties mesh;
        TEST_ENSURE_CODE(mass_of(v, 8, idx, 12, 2.0f, &mesh), SPX_OK);
        box.center = at[k];
        TEST_ENSURE(ensure_same_mass(&mesh, &box, 1e-6, 0.0) == 0);
    }
    return 0;
}

static int mesh_hollow_box(void)
{ /* a 4 x 4 x 4 box with a 2 x 2 x 2 cavity (the inner surface wound the other way, facing into the
       cavity): volume 64 - 8 = 56, inertia the outer box's less the inner's */
    spx_vec3 v[16];
    uint32_t idx[72];
    indexed_box(spx_v3(0, 0, 0), spx_v3(2, 2, 2), v, idx);
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v + 8, idx + 36);
    for (int i = 36; i < 72; ++i) idx[i] += 8;
    flip_winding(idx + 36, 12);
    spx_mass_properties mesh, outer, inner;
    TEST_ENSURE_CODE(mass_of(v, 16, idx, 24, 1.0f, &mesh), SPX_OK);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(2, 2, 2), 1.0f, &outer), SPX_OK);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1, 1, 1), 1.0f, &inner), SPX_OK);
    TEST_ENSURE_NEAR(mesh.volume, 56.0, 1e-5);
    TEST_ENSURE_NEAR(mesh.mass, 56.0, 1e-5);
    for (int i = 0; i < 3; ++i)
        TEST_ENSURE_NEAR(entry(&mesh.inertia, i, i), entry(&outer.inertia, i, i) - entry(&inner.inertia, i, i), 1e-4);
    return 0;
}

/* Relative errors of volume and the three moments against the analytic solid, for one tessellation. */
typedef struct errors {
    double e[4];
} errors;

/* The mass properties of a shape symmetric about the origin's axes (freed here): symmetric inertia,
   the centre at the origin, products of inertia under 1e-6 of `moment`. */
static int centred_mass(test_shape* s, double moment, spx_mass_properties* m)
{
    const spx_result r = shape_mass(s, 1.0f, m);
    test_shape_free(s);
    TEST_ENSURE_CODE(r, SPX_OK);
    TEST_ENSURE(ensure_symmetric(&m->inertia) == 0);
    TEST_ENSURE(fabs(m->center.x) < 1e-6 && fabs(m->center.y) < 1e-6 && fabs(m->center.z) < 1e-6);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (i != j) TEST_ENSURE(fabs(entry(&m->inertia, i, j)) < 1e-6 * moment);
    return 0;
}

static int sphere_errors(uint32_t n, errors* out)
{
    const double pi = 3.141592653589793, r = 1.5, volume = 4.0 / 3.0 * pi * r * r * r, moment = 0.4 * volume * r * r;
    test_shape s;
    TEST_ENSURE(test_shape_solid_sphere(&s, (float)r, n, 2 * n));
    spx_mass_properties m;
    TEST_ENSURE(centred_mass(&s, moment, &m) == 0);
    out->e[0] = (m.volume - volume) / volume;
    for (int i = 0; i < 3; ++i) out->e[1 + i] = (entry(&m.inertia, i, i) - moment) / moment;
    return 0;
}

static int torus_errors(uint32_t n, errors* out)
{ /* about the y axis: Iyy = m (R^2 + 3 r^2 / 4), Ixx = Izz = m (R^2 / 2 + 5 r^2 / 8) */
    const double pi = 3.141592653589793, R = 1.0, r = 0.3, volume = 2.0 * pi * pi * R * r * r;
    const double axial = volume * (R * R + 0.75 * r * r), diametral = volume * (0.5 * R * R + 0.625 * r * r);
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, (float)R, (float)r, 2 * n, n));
    spx_mass_properties m;
    TEST_ENSURE(centred_mass(&s, axial, &m) == 0);
    out->e[0] = (m.volume - volume) / volume;
    out->e[1] = (entry(&m.inertia, 0, 0) - diametral) / diametral;
    out->e[2] = (entry(&m.inertia, 1, 1) - axial) / axial;
    out->e[3] = (entry(&m.inertia, 2, 2) - diametral) / diametral;
    return 0;
}

/* A polyhedron with its vertices on a smooth surface misses the solid by a layer whose thickness is
   second order in the edge length h, so every figure's relative error e(n) behaves as -c / n^2 for
   n bands: once the h^2 term dominates (n >= 32 here) each doubling divides it by 4 (3.8..4.2
   accepted; measured 3.95..4.01). That alone would also hold for a sequence converging to a wrong
   limit, so two levels are extrapolated as well (Richardson, (4 e(2n) - e(n)) / 3, which removes the
   h^2 term): from n = 128 on, what is left (the h^4 term and the float rounding of the vertices, 6e-8
   relative; measured at most 6.1e-7 at n = 128 and 9e-8 at 256) must be within 1e-6 of the analytic
   figure. The errors
   themselves are negative for both shapes (the sphere's polyhedron lies inside it; the torus's is
   mostly inside: its chords cut inside the tube) and below 3e-4 at n = 256 (measured 1.1e-4 and
   1.6e-4). */
static int converges(const char* name, int (*errors_at)(uint32_t, errors*))
{
    errors prev, cur;
    TEST_ENSURE(errors_at(16, &prev) == 0);
    for (uint32_t n = 32; n <= 256; n *= 2) {
        TEST_ENSURE(errors_at(n, &cur) == 0);
        printf("  %s n = %3u: relative errors volume %.3e, inertia %.3e %.3e %.3e\n", name, n, cur.e[0], cur.e[1],
               cur.e[2], cur.e[3]);
        for (int k = 0; k < 4; ++k) {
            TEST_ENSURE(cur.e[k] < 0.0);
            const double ratio = prev.e[k] / cur.e[k], limit = (4.0 * cur.e[k] - prev.e[k]) / 3.0;
            if (!(ratio > 3.8 && ratio < 4.2)) fprintf(stderr, "  %s n = %u, figure %d: ratio %g\n", name, n, k, ratio);
            TEST_ENSURE(ratio > 3.8 && ratio < 4.2);
            if (n >= 128) TEST_ENSURE(fabs(limit) < 1e-6);
        }
        prev = cur;
    }
    for (int k = 0; k < 4; ++k) TEST_ENSURE(fabs(cur.e[k]) < 3e-4);
    return 0;
}

static int sphere_converges(void) { return converges("sphere", sphere_errors); }
static int torus_converges(void) { return converges("torus", torus_errors); }

static int rotated_mesh(void)
{ /* the torus rotated by R: centre R c, inertia R I R^T (to the float rounding of the rotated vertices) */
    test_shape s;
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 64, 32));
    for (uint32_t i = 0; i < s.vertex_count; ++i) s.vertices[i].x += 0.25f; /* off the origin: c != 0 */
    spx_mass_properties before, after;
    TEST_ENSURE_CODE(shape_mass(&s, 7.0f, &before), SPX_OK);
    spx_obb rot;
    const double qx = 0.3, qy = -0.5, qz = 0.2, qw = sqrt(1.0 - qx * qx - qy * qy - qz * qz);
    TEST_ENSURE_CODE(spx_obb_from_quat(spx_v3(0, 0, 0), spx_v3(1, 1, 1),
                                       (spx_quat){ (float)qx, (float)qy, (float)qz, (float)qw }, &rot),
                     SPX_OK);
    double R[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) R[i][j] = entry(&rot.rotation, i, j);
    for (uint32_t i = 0; i < s.vertex_count; ++i) {
        const double p[3] = { s.vertices[i].x, s.vertices[i].y, s.vertices[i].z };
        double q[3];
        for (int r = 0; r < 3; ++r) q[r] = R[r][0] * p[0] + R[r][1] * p[1] + R[r][2] * p[2];
        s.vertices[i] = spx_v3((float)q[0], (float)q[1], (float)q[2]);
    }
    TEST_ENSURE_CODE(shape_mass(&s, 7.0f, &after), SPX_OK);
    test_shape_free(&s);
    TEST_ENSURE_NEAR(after.mass, before.mass, 1e-6 * before.mass);
    const double c[3] = { before.center.x, before.center.y, before.center.z };
    for (int r = 0; r < 3; ++r)
        TEST_ENSURE_NEAR((&after.center.x)[r], R[r][0] * c[0] + R[r][1] * c[1] + R[r][2] * c[2], 1e-6);
    const double trace = entry(&before.inertia, 0, 0) + entry(&before.inertia, 1, 1) + entry(&before.inertia, 2, 2);
    double largest_off = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double expect = 0.0;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) expect += R[i][a] * entry(&before.inertia, a, b) * R[j][b];
            TEST_ENSURE_NEAR(entry(&after.inertia, i, j), expect, 1e-6 * trace);
            if (i != j) largest_off = fmax(largest_off, fabs(expect));
        }
    TEST_ENSURE(largest_off > 0.01 * trace); /* the rotation really mixed the axes */
    TEST_ENSURE(ensure_symmetric(&after.inertia) == 0);
    return 0;
}

static int degenerate_triangles_keep_the_mass(void)
{ /* the box with a 1e-8 m triangle in its +z face (see degenerate_triangles_and_closedness): the mesh
       skips that triangle for the queries, the mass is the box's */
    const float tiny = 1e-8f;
    spx_vec3 v[11];
    uint32_t idx[36 + 6 * 3 + 3 + 6];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    v[8] = spx_v3(0, -tiny, 1), v[9] = spx_v3(tiny, tiny, 1), v[10] = spx_v3(-tiny, tiny, 1);
    const uint32_t face[8][3] = { { 4, 5, 8 },  { 5, 9, 8 },  { 5, 7, 9 },  { 7, 10, 9 },
                                  { 7, 6, 10 }, { 6, 4, 10 }, { 4, 8, 10 }, { 8, 9, 10 } };
    memcpy(idx + 30, face, sizeof face);
    /* and a point triangle and a segment-like one with two equal corners: no volume of their own */
    memcpy(idx + 54, (uint32_t[6]){ 2, 2, 2, 3, 0, 3 }, sizeof(uint32_t[6]));
    spx_mass_properties mesh, box;
    TEST_ENSURE_CODE(mass_of(v, 11, idx, 20, 3.0f, &mesh), SPX_OK);
    TEST_ENSURE_CODE(spx_mass_box(spx_v3(1, 1, 1), 3.0f, &box), SPX_OK);
    TEST_ENSURE(ensure_same_mass(&mesh, &box, 1e-6, 1e-7) == 0);
    return 0;
}

static int mesh_errors(void)
{
    spx_vec3 v[16];
    uint32_t idx[72];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    spx_mass_properties m, untouched;
    memset(&untouched, 0xCD, sizeof untouched);
    m = untouched;
    spx_mesh_def def = def_from(v, 8, idx, 12);
    spx_mesh* cube = NULL;
    TEST_ENSURE_CODE(spx_mesh_create(&def, &cube), SPX_OK);
    TEST_ENSURE_CODE(spx_mass_mesh(NULL, 1.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, 1.0f, NULL), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, NAN, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, INFINITY, &m), SPX_ERR_NOT_FINITE);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, 0.0f, &m), SPX_ERR_BAD_DENSITY);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, -1.0f, &m), SPX_ERR_BAD_DENSITY);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, 1e38f, &m), SPX_ERR_MASS_OUT_OF_RANGE);  /* 8e38 kg */
    TEST_ENSURE_CODE(spx_mass_mesh(cube, 1e-45f, &m), SPX_ERR_MASS_OUT_OF_RANGE); /* a denormal density, 1e-44 kg */
    TEST_ENSURE(memcmp(&m, &untouched, sizeof m) == 0);
    TEST_ENSURE_CODE(spx_mass_mesh(cube, 1.0f, &m), SPX_OK);
    spx_mesh_destroy(cube);
    m = untouched;

    /* not closed: an open box, a flat grid, one triangle flipped, three triangles on an edge */
    TEST_ENSURE_CODE(mass_of(v, 8, idx, 10, 1.0f, &m), SPX_ERR_MESH_NOT_CLOSED);
    test_shape s;
    TEST_ENSURE(test_shape_grid(&s, 3, 3));
    TEST_ENSURE_CODE(shape_mass(&s, 1.0f, &m), SPX_ERR_MESH_NOT_CLOSED);
    test_shape_free(&s);
    uint32_t bad[72];
    memcpy(bad, idx, sizeof(uint32_t[36]));
    flip_winding(bad + 15, 1);
    TEST_ENSURE_CODE(mass_of(v, 8, bad, 12, 1.0f, &m), SPX_ERR_MESH_NOT_CLOSED);
    memcpy(bad, idx, sizeof(uint32_t[36]));
    v[8] = spx_v3(-3, -3, 0);
    memcpy(bad + 36, (uint32_t[3]){ 0, 4, 8 }, sizeof(uint32_t[3]));
    TEST_ENSURE_CODE(mass_of(v, 9, bad, 13, 1.0f, &m), SPX_ERR_MESH_NOT_CLOSED);
    /* the sphere as test_shape_sphere makes it: its south pole is open by 1e-16 m */
    TEST_ENSURE(test_shape_sphere(&s, 1.0f, 8, 16));
    TEST_ENSURE_CODE(shape_mass(&s, 1.0f, &m), SPX_ERR_MESH_NOT_CLOSED);
    test_shape_free(&s);

    /* inside out: every triangle flipped */
    memcpy(bad, idx, sizeof(uint32_t[36]));
    flip_winding(bad, 12);
    TEST_ENSURE_CODE(mass_of(v, 8, bad, 12, 1.0f, &m), SPX_ERR_MESH_INSIDE_OUT);
    TEST_ENSURE(test_shape_torus(&s, 1.0f, 0.3f, 16, 8));
    flip_winding(s.indices, s.triangle_count);
    TEST_ENSURE_CODE(shape_mass(&s, 1.0f, &m), SPX_ERR_MESH_INSIDE_OUT);
    test_shape_free(&s);

    /* zero volume: a sheet of two triangles back to back, on and off the axes; two equal boxes side
       by side, one of them inside out */
    uint32_t sheet[6] = { 0, 1, 3, 0, 3, 1 };
    TEST_ENSURE_CODE(mass_of(v, 8, sheet, 2, 1.0f, &m), SPX_ERR_ZERO_VOLUME);
    spx_vec3 tilted[3] = { { 0.1f, 0.7f, -0.3f }, { 1.3f, -0.2f, 0.9f }, { -0.4f, 0.5f, 1.7f } };
    uint32_t twice[6] = { 0, 1, 2, 0, 2, 1 };
    TEST_ENSURE_CODE(mass_of(tilted, 3, twice, 2, 1.0f, &m), SPX_ERR_ZERO_VOLUME);
    indexed_box(spx_v3(5, 0, 0), spx_v3(1, 1, 1), v + 8, bad + 36);
    memcpy(bad, idx, sizeof(uint32_t[36]));
    for (int i = 36; i < 72; ++i) bad[i] += 8;
    flip_winding(bad + 36, 12);
    TEST_ENSURE_CODE(mass_of(v, 16, bad, 24, 1.0f, &m), SPX_ERR_ZERO_VOLUME);
    TEST_ENSURE(memcmp(&m, &untouched, sizeof m) == 0);
    return 0;
}

/* ---- real models (Debian's assimp-testmodels, read through tools/meshio when assimp is there) ------ */

#ifdef SPX_MASS_MODELS_DIR
typedef struct model_figures {
    const char* file; /* under the models folder */
    double volume, center[3], inertia[3][3];
} model_figures;

/* The reference figures were computed from each file's own text without assimp or sepax, by
   tests/support/mass_reference.py: decimal coordinates as exact fractions, vertices welded by value,
   every directed edge counted (closed: each once, each with its reverse), then the signed-tetrahedron
   integrals in exact rational arithmetic. The file's six decimals rounded to float move the figures by about 1e-7
   relative; 1e-6 of each figure's scale is allowed. */
static int check_model(const model_figures* f, bool closed)
{
    char path[1024], why[512];
    snprintf(path, sizeof path, "%s/%s", SPX_MASS_MODELS_DIR, f->file);
    spx_meshio_mesh io;
    spx_meshio_result lr = spx_meshio_load(path, 1.0f, &io, why, sizeof why);
    if (lr != SPX_MESHIO_OK) fprintf(stderr, "%s\n", why);
    TEST_ENSURE_CODE(lr, SPX_MESHIO_OK);
    spx_mesh_def def = def_from(io.vertices, io.vertex_count, io.indices, io.triangle_count);
    spx_mesh* mesh = NULL;
    spx_result r = spx_mesh_create(&def, &mesh);
    spx_meshio_free(&io);
    TEST_ENSURE_CODE(r, SPX_OK);
    spx_mesh_info info;
    spx_mass_properties m;
    TEST_ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    r = spx_mass_mesh(mesh, 1.0f, &m);
    spx_mesh_destroy(mesh);
    TEST_ENSURE(info.closed == closed);
    if (!closed) {
        TEST_ENSURE_CODE(r, SPX_ERR_MESH_NOT_CLOSED);
        return 0;
    }
    TEST_ENSURE_CODE(r, SPX_OK);
    printf("  %s: %u triangles, volume %.9g (reference %.10g)\n", f->file, info.triangle_count, m.volume, f->volume);
    TEST_ENSURE_NEAR(m.volume, f->volume, 1e-6 * f->volume);
    const double size = cbrt(f->volume);
    for (int i = 0; i < 3; ++i) TEST_ENSURE_NEAR((&m.center.x)[i], f->center[i], 1e-6 * size);
    const double trace = f->inertia[0][0] + f->inertia[1][1] + f->inertia[2][2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) TEST_ENSURE_NEAR(entry(&m.inertia, i, j), f->inertia[i][j], 1e-6 * trace);
    return 0;
}

static int real_models(void)
{
    FILE* probe = fopen(SPX_MASS_MODELS_DIR "/SMD/holy_grailref.smd", "rb");
    if (!probe) {
        printf("  skipped: no assimp test models in %s (test_meshio says how to install them)\n", SPX_MASS_MODELS_DIR);
        return 0;
    }
    fclose(probe);
    /* a goblet, 896 triangles listed corner by corner (every vertex repeated, welded by coordinates) */
    const model_figures grail = { "SMD/holy_grailref.smd",
                                  789.3874981,
                                  { 4.503607737e-07, -4.791588436e-07, 10.77566321 },
                                  { { 57585.70754, -0.002975957662, -0.000617979097 },
                                    { -0.002975957662, 57585.7061, 0.01750831655 },
                                    { -0.000617979097, 0.01750831655, 16297.72404 } } };
    /* a tapered cylinder exported by Blender 2.61: 256 triangles, vertices split by their normals on
       reading (450 for 130 positions), and "-0.000000" beside "0.000000" */
    const model_figures cylinder = { "OBJ/empty_mat.obj",
                                     5.854823551,
                                     { -7.66658806e-08, 0.5691259575, 4.143669881e-07 },
                                     { { 9.00853369, 4.57689586e-07, 4.077721586e-08 },
                                       { 4.57689586e-07, 1.681293586, -1.241141923e-06 },
                                       { 4.077721586e-08, -1.241141923e-06, 9.008533847 } } };
    /* as its name says: 9 directed edges without their reverse */
    const model_figures holed = { "STL/sphereWithHole.stl", 0, { 0, 0, 0 }, { { 0 } } };
    TEST_ENSURE(check_model(&grail, true) == 0);
    TEST_ENSURE(check_model(&cylinder, true) == 0);
    TEST_ENSURE(check_model(&holed, false) == 0);
    return 0;
}
#endif

static int result_sentences(void)
{ /* the new codes have their own sentences */
    const spx_result codes[] = { SPX_ERR_BAD_DENSITY, SPX_ERR_MESH_NOT_CLOSED, SPX_ERR_MESH_INSIDE_OUT,
                                 SPX_ERR_ZERO_VOLUME, SPX_ERR_MASS_OUT_OF_RANGE };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        const char* s = spx_result_string(codes[i]);
        TEST_ENSURE(s != NULL && strcmp(s, "unknown result code") != 0);
        for (size_t j = 0; j < i; ++j) TEST_ENSURE(strcmp(s, spx_result_string(codes[j])) != 0);
    }
    return 0;
}

int main(int argc, char** argv)
{
    const bool long_run = test_long_run(argc, argv);
    int failures = 0;
    TEST_RUN(closed_boxes, failures);
    TEST_RUN(open_and_non_manifold_meshes, failures);
    TEST_RUN(degenerate_triangles_and_closedness, failures);
    TEST_RUN(generated_shapes, failures);
    if (long_run) TEST_RUN(closedness_ignores_numbering, failures); /* 160,000 triangles */
    TEST_RUN(box_formulas, failures);
    TEST_RUN(box_bad_input, failures);
    TEST_RUN(mesh_box_equals_box, failures);
    TEST_RUN(mesh_box_far_from_the_origin, failures);
    TEST_RUN(mesh_hollow_box, failures);
    TEST_RUN(sphere_converges, failures);
    TEST_RUN(torus_converges, failures);
    TEST_RUN(rotated_mesh, failures);
    TEST_RUN(degenerate_triangles_keep_the_mass, failures);
    TEST_RUN(mesh_errors, failures);
    TEST_RUN(result_sentences, failures);
#ifdef SPX_MASS_MODELS_DIR
    TEST_RUN(real_models, failures);
#else
    printf("skipped: real_models (no assimp: tools/meshio is not built)\n");
#endif
    return failures != 0;
}
