/* Closed meshes and mass properties. */
#include <sepax/sepax.h>
#include "geometry/mesh.h"
#include "support/shapes.h"
#include "test.h"
#include <stdint.h>
#include <stdlib.h>

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

static int shape_closed(const spx_shape* s) { return closed_of(s->vertices, s->vertex_count, s->indices, s->triangle_count); }

/* The south pole of spx_shape_sphere is computed with sin(pi) = 1.2e-16, not 0: its copies differ in
   x and z by about 1e-16 m and do not weld. Put them on the axis, as the north pole's already are. */
static void snap_sphere_poles(spx_shape* s, float radius, uint32_t nlat, uint32_t nlon)
{
    for (uint32_t i = 0; i < nlon; ++i) {
        s->vertices[i * (nlat + 1)] = spx_v3(0.0f, radius, 0.0f);
        s->vertices[i * (nlat + 1) + nlat] = spx_v3(0.0f, -radius, 0.0f);
    }
}

/* ---- closedness ----------------------------------------------------------------------------------- */

static int closed_boxes(void)
{
    spx_vec3 v[8];
    uint32_t idx[36];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 2, 3), v, idx);
    ENSURE(closed_of(v, 8, idx, 12) == 1);
    /* STL style: every triangle its own three vertices, welded by their coordinates */
    spx_vec3 soup[36];
    uint32_t soup_idx[36];
    for (int i = 0; i < 36; ++i) soup[i] = v[idx[i]], soup_idx[i] = (uint32_t)i;
    ENSURE(closed_of(soup, 36, soup_idx, 12) == 1);
    /* -0 and +0 are the same coordinate: the box [-2, 0] x ..., every other copy of x = 0 written -0 */
    indexed_box(spx_v3(-1, 0, 0), spx_v3(1, 0.5f, 0.5f), v, idx);
    for (int i = 0; i < 36; ++i) soup[i] = v[idx[i]];
    for (int i = 0; i < 36; i += 2)
        if (soup[i].x == 0.0f) soup[i].x = -0.0f;
    ENSURE(closed_of(soup, 36, soup_idx, 12) == 1);
    /* a vertex off by one float step is another vertex: a crack */
    soup[5].y = nextafterf(soup[5].y, 10.0f);
    ENSURE(closed_of(soup, 36, soup_idx, 12) == 0);
    return 0;
}

static int open_and_non_manifold_meshes(void)
{
    spx_vec3 v[9];
    uint32_t idx[36 + 3];
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    ENSURE(closed_of(v, 8, idx, 10) == 0); /* last face (+z) missing */
    ENSURE(closed_of(v, 8, idx + 6, 10) == 0); /* first face missing */
    /* one triangle flipped: its edges now run the same way as its neighbours' */
    uint32_t flipped[36];
    memcpy(flipped, idx, sizeof flipped);
    uint32_t t = flipped[13];
    flipped[13] = flipped[14], flipped[14] = t;
    ENSURE(closed_of(v, 8, flipped, 12) == 0);
    /* every triangle flipped: still closed (wound inside out) */
    for (int i = 0; i < 12; ++i) {
        flipped[3 * i] = idx[3 * i];
        flipped[3 * i + 1] = idx[3 * i + 2];
        flipped[3 * i + 2] = idx[3 * i + 1];
    }
    ENSURE(closed_of(v, 8, flipped, 12) == 1);
    /* a third triangle on the edge 0-4 (shared by faces -x and -y): three triangles on one edge */
    v[8] = spx_v3(-2, -2, 0);
    memcpy(idx + 36, (uint32_t[3]){ 0, 4, 8 }, sizeof(uint32_t[3]));
    ENSURE(closed_of(v, 9, idx, 13) == 0);
    /* the same triangle twice on a closed box: two edges used three times */
    memcpy(idx + 36, idx, sizeof(uint32_t[3]));
    ENSURE(closed_of(v, 8, idx, 13) == 0);
    /* a flat sheet, one triangle each way: closed, but no volume (the mass tests reject it) */
    uint32_t sheet[6] = { 0, 1, 3, 0, 3, 1 };
    ENSURE(closed_of(v, 8, sheet, 2) == 1);
    spx_shape s;
    ENSURE(spx_shape_grid(&s, 4, 3));
    ENSURE(shape_closed(&s) == 0);
    spx_shape_free(&s);
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
    const uint32_t face[8][3] = { { 4, 5, 8 }, { 5, 9, 8 }, { 5, 7, 9 }, { 7, 10, 9 },
                                  { 7, 6, 10 }, { 6, 4, 10 }, { 4, 8, 10 }, { 8, 9, 10 } };
    memcpy(idx + 30, face, sizeof face); /* replaces the two triangles of +z, the last face */
    spx_mesh_def def = def_from(v, 11, idx, 10 + 8);
    spx_mesh* mesh = NULL;
    ENSURE_CODE(spx_mesh_create(&def, &mesh), SPX_OK);
    spx_mesh_info info;
    ENSURE_CODE(spx_mesh_get_info(mesh, &info), SPX_OK);
    ENSURE(info.degenerate_count == 1);
    ENSURE(info.closed);
    spx_mesh_destroy(mesh);
    /* without the tiny triangle, a hole */
    ENSURE(closed_of(v, 11, idx, 17) == 0);
    /* a triangle whose corners are all one point, and one with two corners welded together: neither
       has an edge of its own, the box stays closed */
    indexed_box(spx_v3(0, 0, 0), spx_v3(1, 1, 1), v, idx);
    v[8] = v[3];
    memcpy(idx + 36, (uint32_t[6]){ 2, 2, 2, 3, 8, 5 }, sizeof(uint32_t[6]));
    ENSURE(closed_of(v, 9, idx, 14) == 1);
    return 0;
}

static int generated_shapes(void)
{
    spx_shape s;
    ENSURE(spx_shape_torus(&s, 1.0f, 0.3f, 24, 12));
    ENSURE(shape_closed(&s) == 1);
    spx_shape_free(&s);
    /* The sphere repeats its poles per sector; the north pole's copies are equal (sin 0 = 0) and
       weld, the south pole's are not (see snap_sphere_poles): as generated it has a hole of about
       1e-16 m there. */
    ENSURE(spx_shape_sphere(&s, 1.0f, 8, 16));
    printf("  sphere as generated: %s\n", shape_closed(&s) == 1 ? "closed" : "not closed (south pole copies differ)");
    snap_sphere_poles(&s, 1.0f, 8, 16);
    ENSURE(shape_closed(&s) == 1);
    spx_shape_free(&s);
    ENSURE(spx_shape_random(&s, 100, 10.0f, 1.0f, 3));
    ENSURE(shape_closed(&s) == 0);
    spx_shape_free(&s);
    return 0;
}

int main(void)
{
    int failures = 0;
    RUN_TEST(closed_boxes, failures);
    RUN_TEST(open_and_non_manifold_meshes, failures);
    RUN_TEST(degenerate_triangles_and_closedness, failures);
    RUN_TEST(generated_shapes, failures);
    return failures != 0;
}
