/* Generated triangle meshes: see shapes.h. */
#include "shapes.h"
#include <math.h>
#include <stdlib.h>

static bool shape_alloc(test_shape* s, uint32_t vertices, uint32_t triangles)
{
    s->vertices = malloc(sizeof(spx_vec3) * (size_t)vertices);
    s->indices = malloc(sizeof(uint32_t) * 3 * (size_t)triangles);
    s->vertex_count = vertices;
    s->triangle_count = triangles;
    if (s->vertices && s->indices) return true;
    test_shape_free(s);
    return false;
}

void test_shape_free(test_shape* s)
{
    free(s->vertices);
    free(s->indices);
    s->vertices = NULL;
    s->indices = NULL;
    s->vertex_count = s->triangle_count = 0;
}

/* Two triangles over the quad (a, b, c, d), counter-clockwise as given. */
static uint32_t* quad(uint32_t* t, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    t[0] = a, t[1] = b, t[2] = c;
    t[3] = a, t[4] = c, t[5] = d;
    return t + 6;
}

/* A wrapped nu x nv grid of vertices (both directions periodic when wrap_v). */
static void grid_indices(uint32_t* t, uint32_t nu, uint32_t nv, uint32_t rows, bool wrap_v)
{
    for (uint32_t i = 0; i < nu; ++i)
        for (uint32_t j = 0; j < nv; ++j) {
            uint32_t i1 = (i + 1) % nu, j1 = wrap_v ? (j + 1) % nv : j + 1;
            t = quad(t, i * rows + j, i * rows + j1, i1 * rows + j1, i1 * rows + j);
        }
}

bool test_shape_torus(test_shape* s, float R, float r, uint32_t nu, uint32_t nv)
{
    if (!shape_alloc(s, nu * nv, 2 * nu * nv)) return false;
    const double two_pi = 6.283185307179586;
    for (uint32_t i = 0; i < nu; ++i)
        for (uint32_t j = 0; j < nv; ++j) {
            double u = two_pi * i / nu, v = two_pi * j / nv;
            double ring = R + r * cos(v);
            s->vertices[i * nv + j] = spx_v3((float)(ring * cos(u)), (float)(r * sin(v)), (float)(ring * sin(u)));
        }
    grid_indices(s->indices, nu, nv, nv, true);
    return true;
}

bool test_shape_sphere(test_shape* s, float radius, uint32_t nlat, uint32_t nlon)
{
    uint32_t rows = nlat + 1;
    if (!shape_alloc(s, nlon * rows, 2 * nlat * nlon)) return false;
    const double pi = 3.141592653589793;
    for (uint32_t i = 0; i < nlon; ++i)
        for (uint32_t j = 0; j < rows; ++j) {
            double phi = 2.0 * pi * i / nlon, theta = pi * j / nlat;
            s->vertices[i * rows + j] = spx_v3((float)(radius * sin(theta) * cos(phi)), (float)(radius * cos(theta)),
                                               (float)(radius * sin(theta) * sin(phi)));
        }
    grid_indices(s->indices, nlon, nlat, rows, false);
    return true;
}

void test_shape_snap_sphere_poles(test_shape* s, float radius, uint32_t nlat, uint32_t nlon)
{
    for (uint32_t i = 0; i < nlon; ++i) {
        s->vertices[i * (nlat + 1)] = spx_v3(0.0f, radius, 0.0f);
        s->vertices[i * (nlat + 1) + nlat] = spx_v3(0.0f, -radius, 0.0f);
    }
}

/* test_shape_sphere winds clockwise seen from outside: every triangle flipped. */
bool test_shape_solid_sphere(test_shape* s, float radius, uint32_t nlat, uint32_t nlon)
{
    if (!test_shape_sphere(s, radius, nlat, nlon)) return false;
    test_shape_snap_sphere_poles(s, radius, nlat, nlon);
    for (uint32_t t = 0; t < s->triangle_count; ++t) {
        uint32_t k = s->indices[3 * t + 1];
        s->indices[3 * t + 1] = s->indices[3 * t + 2];
        s->indices[3 * t + 2] = k;
    }
    return true;
}

bool test_shape_grid(test_shape* s, uint32_t nx, uint32_t nz)
{
    if (!shape_alloc(s, (nx + 1) * (nz + 1), 2 * nx * nz)) return false;
    for (uint32_t i = 0; i <= nx; ++i)
        for (uint32_t j = 0; j <= nz; ++j) s->vertices[i * (nz + 1) + j] = spx_v3((float)i, 0.0f, (float)j);
    uint32_t* t = s->indices;
    for (uint32_t i = 0; i < nx; ++i)
        for (uint32_t j = 0; j < nz; ++j) {
            uint32_t a = i * (nz + 1) + j;
            t = quad(t, a, a + 1, a + nz + 2, a + nz + 1);
        }
    return true;
}

bool test_shape_strip(test_shape* s, float length, float width, uint32_t n)
{
    if (!shape_alloc(s, 2 * (n + 1), 2 * n)) return false;
    for (uint32_t i = 0; i <= n; ++i) {
        float x = length * (float)i / (float)n;
        s->vertices[2 * i] = spx_v3(x, 0.0f, 0.0f);
        s->vertices[2 * i + 1] = spx_v3(x, 0.0f, width);
    }
    uint32_t* t = s->indices;
    for (uint32_t i = 0; i < n; ++i) t = quad(t, 2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2);
    return true;
}

static double next_unit(uint64_t* state)
{ /* xorshift64*: good enough for scattering triangles, and the same everywhere */
    uint64_t x = *state;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *state = x;
    return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

bool test_shape_random(test_shape* s, uint32_t n, float extent, float size, uint64_t seed)
{
    if (!shape_alloc(s, 3 * n, n)) return false;
    uint64_t state = seed ? seed : 1;
    for (uint32_t t = 0; t < n; ++t) {
        double c[3];
        for (int k = 0; k < 3; ++k) c[k] = (next_unit(&state) - 0.5) * extent;
        for (int v = 0; v < 3; ++v) {
            double p[3];
            for (int k = 0; k < 3; ++k) p[k] = c[k] + (next_unit(&state) - 0.5) * size;
            s->vertices[3 * t + v] = spx_v3((float)p[0], (float)p[1], (float)p[2]);
            s->indices[3 * t + v] = 3 * t + v;
        }
    }
    return true;
}

spx_mesh_def test_shape_mesh_def(const test_shape* s, uint32_t leaf)
{
    spx_mesh_def d = spx_default_mesh_def();
    d.vertices = s->vertices;
    d.vertex_count = s->vertex_count;
    d.indices = s->indices;
    d.triangle_count = s->triangle_count;
    d.leaf_triangles = leaf;
    return d;
}

spx_mesh* test_shape_mesh_leaf(const test_shape* s, uint32_t leaf)
{
    spx_mesh_def d = test_shape_mesh_def(s, leaf);
    spx_mesh* m = NULL;
    return spx_mesh_create(&d, &m) == SPX_OK ? m : NULL;
}

spx_mesh* test_shape_mesh(const test_shape* s)
{
    return test_shape_mesh_leaf(s, spx_default_mesh_def().leaf_triangles);
}

spx_mesh* test_shape_grid_mesh(uint32_t nx, uint32_t nz)
{
    return test_shape_grid_mesh_leaf(nx, nz, spx_default_mesh_def().leaf_triangles);
}

spx_mesh* test_shape_grid_mesh_leaf(uint32_t nx, uint32_t nz, uint32_t leaf)
{
    test_shape g;
    if (!test_shape_grid(&g, nx, nz)) return NULL;
    spx_mesh* m = test_shape_mesh_leaf(&g, leaf);
    test_shape_free(&g);
    return m;
}
