/* Generated triangle meshes for the mesh tests and the tree-build benchmark (public API only, so the
   benchmark program can compile this file too). Deterministic: the same arguments, the same arrays. */
#ifndef TEST_SUPPORT_SHAPES_H
#define TEST_SUPPORT_SHAPES_H

#include <sepax/sepax.h>

typedef struct test_shape {
    spx_vec3* vertices;
    uint32_t vertex_count;
    uint32_t* indices; /* 3 a triangle */
    uint32_t triangle_count;
} test_shape;

/* Torus about the y axis: ring radius R, tube radius r, nu segments round the ring, nv round the
   tube; 2 nu nv triangles, outward winding. */
bool test_shape_torus(test_shape* s, float R, float r, uint32_t nu, uint32_t nv);
/* Latitude-longitude sphere: nlat bands, nlon sectors, poles repeated per sector (so the triangles
   at the poles are segment-like in one corner pair, as real exported meshes often are). */
bool test_shape_sphere(test_shape* s, float radius, uint32_t nlat, uint32_t nlon);
/* The south pole of test_shape_sphere is computed with sin(pi) = 1.2e-16, not 0: its copies differ in
   x and z by about 1e-16 m and do not weld. This puts them on the axis, as the north pole's are. */
void test_shape_snap_sphere_poles(test_shape* s, float radius, uint32_t nlat, uint32_t nlon);
/* test_shape_sphere made solid: the poles' copies on the axis (they weld), wound outward. Closed, so
   it has mass properties; its pole triangles are degenerate and skipped by spx_mesh_create. */
bool test_shape_solid_sphere(test_shape* s, float radius, uint32_t nlat, uint32_t nlon);
/* Flat nx by nz grid of unit squares in the plane y = 0, two triangles a square. */
bool test_shape_grid(test_shape* s, uint32_t nx, uint32_t nz);
/* A strip `length` long and `width` wide along x, made of n squares (2n triangles). */
bool test_shape_strip(test_shape* s, float length, float width, uint32_t n);
/* n unrelated triangles of size up to `size` with corners in a cube of side `extent`. */
bool test_shape_random(test_shape* s, uint32_t n, float extent, float size, uint64_t seed);
void test_shape_free(test_shape* s);
/* The default mesh def on the shape's arrays, with `leaf` triangles a leaf. */
spx_mesh_def test_shape_mesh_def(const test_shape* s, uint32_t leaf);
/* The shape as a mesh with the default mesh def (the arrays are copied: the shape may be freed),
   or NULL when spx_mesh_create refuses it; test_shape_mesh_leaf with `leaf` triangles a leaf. */
spx_mesh* test_shape_mesh(const test_shape* s);
spx_mesh* test_shape_mesh_leaf(const test_shape* s, uint32_t leaf);
/* The mesh of test_shape_grid(nx, nz), or NULL when either fails; _leaf with `leaf` triangles a leaf. */
spx_mesh* test_shape_grid_mesh(uint32_t nx, uint32_t nz);
spx_mesh* test_shape_grid_mesh_leaf(uint32_t nx, uint32_t nz, uint32_t leaf);

#endif
