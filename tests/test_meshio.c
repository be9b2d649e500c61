/* sepax_meshio on real files: models from Debian's assimp-testmodels (OBJ, STL ascii and binary,
 * PLY ascii and binary, glTF 2 text and binary), checked against triangle counts and bounding
 * boxes worked out without assimp; then bad input: every file of the package's invalid/ folder,
 * other broken files it ships, and files cut short or filled with noise here. Bad input must give
 * an error code and a message naming the file, never a crash or a hang.
 *
 * Reference values, computed from the files alone:
 *   ASCII STL, OBJ, ASCII PLY: awk over the text (count "facet" lines or "f" lines, NF - 3
 *     triangles per OBJ face; bounding box over the "vertex"/"v" lines the faces use);
 *   binary STL, binary PLY: the records unpacked with Python's struct;
 *   glTF 2 .glb: its JSON and buffer read with Python (json, struct): the node tree walked with
 *     each node's column-major matrix, index counts / 3 summed over the mesh instances, the
 *     bounding box over the indexed positions moved to the world. */
#define _POSIX_C_SOURCE 200809L /* opendir/readdir, to list invalid/ */

#include "meshio.h"
#include "support/test.h"
#include "support/models.h"

#include <dirent.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef SPX_ASSIMP_MODELS_DIR
#error "SPX_ASSIMP_MODELS_DIR must name assimp-testmodels' models folder (set by tests/CMakeLists.txt)"
#endif
#ifndef SPX_MESHIO_WORK_DIR
#error "SPX_MESHIO_WORK_DIR must name a writable folder for generated bad files (set by tests/CMakeLists.txt)"
#endif

#define MODELS SPX_ASSIMP_MODELS_DIR
#define WORK SPX_MESHIO_WORK_DIR

typedef struct box3 {
    float min[3], max[3];
} box3;

static box3 bounds(const spx_meshio_mesh* m)
{
    box3 b = { { FLT_MAX, FLT_MAX, FLT_MAX }, { -FLT_MAX, -FLT_MAX, -FLT_MAX } };
    for (uint32_t i = 0; i < m->vertex_count; ++i) {
        const float p[3] = { m->vertices[i].x, m->vertices[i].y, m->vertices[i].z };
        for (int k = 0; k < 3; ++k) {
            b.min[k] = p[k] < b.min[k] ? p[k] : b.min[k];
            b.max[k] = p[k] > b.max[k] ? p[k] : b.max[k];
        }
    }
    return b;
}

/* What every successful load promises: indices in range, and every vertex used by a triangle
 * (the reader keeps no vertex of a line, a point or an unused slot). */
static int check_well_formed(const spx_meshio_mesh* m)
{
    TEST_ENSURE(m->triangle_count > 0 && m->vertex_count > 0);
    TEST_ENSURE(m->vertices != NULL && m->indices != NULL);
    unsigned char* used = calloc(m->vertex_count, 1);
    TEST_ENSURE(used != NULL);
    int bad = 0;
    for (uint64_t i = 0; i < 3 * (uint64_t)m->triangle_count; ++i) {
        if (m->indices[i] >= m->vertex_count) {
            bad = 1;
            break;
        }
        used[m->indices[i]] = 1;
    }
    for (uint32_t v = 0; v < m->vertex_count && !bad; ++v) {
        bad = !used[v];
    }
    free(used);
    TEST_ENSURE(!bad);
    return 0;
}

/* Loads `path`, checks the count and the box (to `tol`) and the promises above. */
static int load_and_check(const char* path, uint32_t triangles, box3 expect, double tol)
{
    spx_meshio_mesh m;
    char why[512];
    spx_meshio_result r = spx_meshio_load(path, 1.0f, &m, why, sizeof why);
    if (r != SPX_MESHIO_OK) {
        fprintf(stderr, "%s\n", why);
    }
    TEST_ENSURE_CODE(r, SPX_MESHIO_OK);
    int failed = check_well_formed(&m);
    box3 b = bounds(&m);
    uint32_t got = m.triangle_count;
    spx_meshio_free(&m);
    TEST_ENSURE(failed == 0);
    TEST_ENSURE(m.vertices == NULL && m.indices == NULL && m.vertex_count == 0 && m.triangle_count == 0);
    TEST_ENSURE(got == triangles);
    for (int k = 0; k < 3; ++k) {
        TEST_ENSURE_NEAR(b.min[k], expect.min[k], tol);
        TEST_ENSURE_NEAR(b.max[k], expect.max[k], tol);
    }
    return 0;
}

static int stl_ascii_spider(void)
{ /* 1368 "facet" lines; box from the "vertex" lines, printed with 7 digits */
    box3 e = { { -3.114895f, -4.0f, -1.649329f }, { 3.114895f, 4.0f, 1.649329f } };
    return load_and_check(MODELS "/STL/Spider_ascii.stl", 1368, e, 1e-6);
}

static int stl_binary_spider(void)
{ /* the same spider as binary STL: count 1368 in the header, 84 + 50 * 1368 bytes; box from
       the float records, which are the ASCII values rounded to float */
    box3 e = { { -3.1148948669433594f, -4.0f, -1.649328589439392f },
               { 3.1148948669433594f, 4.0f, 1.649328589439392f } };
    return load_and_check(MODELS "/STL/Spider_binary.stl", 1368, e, 0.0);
}

static int obj_spider(void)
{ /* 1368 "f" lines, all triangles, using all 762 "v" lines (the OBJ spider has other units) */
    box3 e = { { -92.655235f, -42.233826f, -106.6912f }, { 57.936218f, 37.503952f, 86.6912f } };
    return load_and_check(MODELS "/OBJ/spider.obj", 1368, e, 1e-6 * 107);
}

static int wuson_in_three_formats(void)
{ /* one model shipped as ASCII PLY (3732 faces of 3), OBJ (3732 "f" lines of 3 corners, 2117
       vertices all used) and binary STL (3732 records): same count, same box, to float rounding */
    box3 e = { { -0.459976f, -0.000566f, -1.622242f }, { 0.459976f, 1.515251f, 1.622242f } };
    TEST_ENSURE(load_and_check(MODELS "/PLY/Wuson.ply", 3732, e, 1e-6) == 0);
    TEST_ENSURE(load_and_check(MODELS "/OBJ/WusonOBJ.obj", 3732, e, 1e-6) == 0);
    TEST_ENSURE(load_and_check(MODELS "/STL/Wuson.stl", 3732, e, 1e-6) == 0);
    return 0;
}

static int ply_binary_cube_exact(void)
{ /* binary PLY: 8 corners of the unit cube, 12 triangles listed by corner index; the loaded
       triangles must be these, in this order and winding, corner for corner */
    static const float corner[8][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 1 }, { 0, 1, 0 },
                                        { 1, 0, 0 }, { 1, 0, 1 }, { 1, 1, 1 }, { 1, 1, 0 } };
    static const int face[12][3] = { { 0, 1, 2 }, { 0, 2, 3 }, { 7, 6, 5 }, { 7, 5, 4 }, { 0, 4, 5 }, { 0, 5, 1 },
                                     { 1, 5, 6 }, { 1, 6, 2 }, { 2, 6, 7 }, { 2, 7, 3 }, { 3, 7, 4 }, { 3, 4, 0 } };
    spx_meshio_mesh m;
    char why[512];
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/PLY/cube_binary.ply", 1.0f, &m, why, sizeof why), SPX_MESHIO_OK);
    int same = m.triangle_count == 12 && m.vertex_count == 8;
    for (int t = 0; t < 12 && same; ++t) {
        for (int c = 0; c < 3; ++c) {
            spx_vec3 p = m.vertices[m.indices[3 * t + c]];
            const float* q = corner[face[t][c]];
            same = same && p.x == q[0] && p.y == q[1] && p.z == q[2];
        }
    }
    spx_meshio_free(&m);
    TEST_ENSURE(same);
    return 0;
}

static int scale_multiplies_every_coordinate(void)
{ /* the cube again at scale 2.5: each coordinate 2.5 times the unscaled one, exactly (x * 2.5
       is exact in double, so one rounding to float, as 2.5f * x) */
    spx_meshio_mesh one, big;
    char why[512];
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/PLY/cube_binary.ply", 1.0f, &one, why, sizeof why), SPX_MESHIO_OK);
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/PLY/cube_binary.ply", 2.5f, &big, why, sizeof why), SPX_MESHIO_OK);
    int same = one.vertex_count == big.vertex_count && one.triangle_count == big.triangle_count &&
               memcmp(one.indices, big.indices, 3 * sizeof(uint32_t) * one.triangle_count) == 0;
    for (uint32_t v = 0; v < one.vertex_count && same; ++v) {
        same = big.vertices[v].x == 2.5f * one.vertices[v].x && big.vertices[v].y == 2.5f * one.vertices[v].y &&
               big.vertices[v].z == 2.5f * one.vertices[v].z;
    }
    box3 b = bounds(&big);
    spx_meshio_free(&one);
    spx_meshio_free(&big);
    TEST_ENSURE(same);
    TEST_ENSURE(b.min[0] == 0.0f && b.min[1] == 0.0f && b.min[2] == 0.0f);
    TEST_ENSURE(b.max[0] == 2.5f && b.max[1] == 2.5f && b.max[2] == 2.5f);
    return 0;
}

static int gltf_text_and_binary_agree(void)
{ /* BoxTextured: one node whose matrix turns -90 degrees about x, a +-0.5 box of 24 vertices
       (4 per face, for the texture) and 36 indices. The .gltf (JSON + .bin) and the .glb hold the
       same data, so the arrays must match bit for bit. */
    box3 e = { { -0.5f, -0.5f, -0.5f }, { 0.5f, 0.5f, 0.5f } };
    TEST_ENSURE(load_and_check(MODELS "/glTF2/BoxTextured-glTF/BoxTextured.gltf", 12, e, 0.0) == 0);
    spx_meshio_mesh a, b;
    char why[512];
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/glTF2/BoxTextured-glTF/BoxTextured.gltf", 1.0f, &a, why, sizeof why),
                     SPX_MESHIO_OK);
    TEST_ENSURE_CODE(
        spx_meshio_load(MODELS "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", 1.0f, &b, why, sizeof why),
        SPX_MESHIO_OK);
    int same = a.vertex_count == b.vertex_count && a.triangle_count == b.triangle_count &&
               memcmp(a.vertices, b.vertices, sizeof(spx_vec3) * a.vertex_count) == 0 &&
               memcmp(a.indices, b.indices, 3 * sizeof(uint32_t) * a.triangle_count) == 0;
    uint32_t vertices = a.vertex_count;
    spx_meshio_free(&a);
    spx_meshio_free(&b);
    TEST_ENSURE(same);
    TEST_ENSURE(vertices == 24);
    return 0;
}

static int gltf_node_transforms_applied(void)
{ /* 2CylinderEngine.glb: 82 nodes with matrices, 29 meshes, 121496 triangles. Without the node
       transforms the box would be another one entirely (y runs -181..92: not symmetric). The
       reference is in double, ours in float after float node matrices: 1e-6 relative. */
    box3 e = { { -371.692263f, -180.971558f, -139.999993f }, { 371.692169f, 92.041562f, 127.999996f } };
    return load_and_check(MODELS "/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb", 121496, e, 4e-4);
}

static int same_file_same_arrays(void)
{ /* deterministic: two loads of a multi-mesh file give the same bytes */
    spx_meshio_mesh a, b;
    char why[512];
    const char* path = MODELS "/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb";
    TEST_ENSURE_CODE(spx_meshio_load(path, 1.0f, &a, why, sizeof why), SPX_MESHIO_OK);
    TEST_ENSURE_CODE(spx_meshio_load(path, 1.0f, &b, why, sizeof why), SPX_MESHIO_OK);
    int same = a.vertex_count == b.vertex_count && a.triangle_count == b.triangle_count &&
               memcmp(a.vertices, b.vertices, sizeof(spx_vec3) * a.vertex_count) == 0 &&
               memcmp(a.indices, b.indices, 3 * sizeof(uint32_t) * a.triangle_count) == 0;
    spx_meshio_free(&a);
    spx_meshio_free(&b);
    TEST_ENSURE(same);
    return 0;
}

/* A failed load: the expected code (or, with expect < 0, any code that says the file is bad),
 * a message that names the file, and a zeroed mesh. */
static int expect_failure(const char* path, int expect)
{
    spx_meshio_mesh m;
    memset(&m, 0xab, sizeof m); /* garbage in: a failed load must still zero it */
    char why[512];
    spx_meshio_result r = spx_meshio_load(path, 1.0f, &m, why, sizeof why);
    if (expect >= 0 ? r != (spx_meshio_result)expect
                    : r != SPX_MESHIO_ERR_MALFORMED && r != SPX_MESHIO_ERR_NO_TRIANGLES) {
        fprintf(stderr, "%s: got %d (%s), expected %d\n", path, (int)r, why, expect);
        if (r == SPX_MESHIO_OK) {
            spx_meshio_free(&m);
        }
        return 1;
    }
    TEST_ENSURE(m.vertices == NULL && m.indices == NULL && m.vertex_count == 0 && m.triangle_count == 0);
    if (strstr(why, path) == NULL) {
        fprintf(stderr, "message does not name the file %s: %s\n", path, why);
        return 1;
    }
    printf("  %s\n", why);
    return 0;
}

static int package_invalid_folder(void)
{ /* every file of invalid/: empty files in ten formats, an OFF header whose vertex count
       would take assimp over 16 GB, out-of-range OBJ indices, an IrrMesh with no mesh, the readme.
       One exception: malformed2.obj's fault is a material it names but does not define, which
       does not touch the geometry: a unit box with one empty face and five quads = 10 triangles. */
    DIR* dir = opendir(MODELS "/invalid");
    TEST_ENSURE(dir != NULL);
    int files = 0, failed = 0;
    struct dirent* entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/invalid/%s", MODELS, entry->d_name);
        ++files;
        if (strcmp(entry->d_name, "malformed2.obj") == 0) {
            box3 e = { { -0.5f, -0.5f, -0.5f }, { 0.5f, 0.5f, 0.5f } };
            failed += load_and_check(path, 10, e, 0.0);
        } else {
            failed += expect_failure(path, -1);
        }
    }
    closedir(dir);
    printf("  %d files in invalid/\n", files);
    TEST_ENSURE(files >= 15); /* Debian's 5.2.5 ships 15: an empty folder must not pass */
    TEST_ENSURE(failed == 0);
    return 0;
}

static int package_other_bad_files(void)
{
    TEST_ENSURE(expect_failure(MODELS "/glTF2/MissingBin/BoxTextured.gltf", SPX_MESHIO_ERR_MALFORMED) == 0);
    TEST_ENSURE(expect_failure(MODELS "/glTF2/IndexOutOfRange/AllIndicesOutOfRange.gltf", SPX_MESHIO_ERR_MALFORMED) ==
                0);
    TEST_ENSURE(expect_failure(MODELS "/glTF2/RecursiveNodes/RecursiveNodes.gltf", SPX_MESHIO_ERR_MALFORMED) == 0);
    /* infinite coordinates: assimp reads them; we refuse them, as the core mesh would */
    TEST_ENSURE(expect_failure(MODELS "/glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb",
                               SPX_MESHIO_ERR_MALFORMED) == 0);
    /* only lines, only points: read fine, nothing to collide with */
    TEST_ENSURE(expect_failure(MODELS "/OBJ/testline.obj", SPX_MESHIO_ERR_NO_TRIANGLES) == 0);
    TEST_ENSURE(expect_failure(MODELS "/OBJ/testpoints.obj", SPX_MESHIO_ERR_NO_TRIANGLES) == 0);
    return 0;
}

/* Writes the first `keep` bytes of `source` to `path`. */
static int write_prefix(const char* source, const char* path, long keep)
{
    FILE* in = fopen(source, "rb");
    TEST_ENSURE(in != NULL);
    FILE* out = fopen(path, "wb");
    if (out == NULL) {
        fclose(in);
        TEST_ENSURE(out != NULL);
    }
    for (long i = 0; i < keep; ++i) {
        int c = fgetc(in);
        if (c == EOF) {
            break;
        }
        fputc(c, out);
    }
    fclose(in);
    TEST_ENSURE(fclose(out) == 0);
    return 0;
}

static int write_text(const char* path, const char* text)
{
    FILE* out = fopen(path, "wb");
    TEST_ENSURE(out != NULL);
    fputs(text, out);
    TEST_ENSURE(fclose(out) == 0);
    return 0;
}

/* Noise from a fixed generator (a 64-bit LCG), so every run writes the same bytes. */
static int write_noise(const char* path, size_t bytes, uint64_t seed)
{
    FILE* out = fopen(path, "wb");
    TEST_ENSURE(out != NULL);
    for (size_t i = 0; i < bytes; ++i) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        fputc((int)(seed >> 56), out);
    }
    TEST_ENSURE(fclose(out) == 0);
    return 0;
}

static int truncated_files(void)
{ /* real files cut short. Without meshio's guards, the PLY header cut before end_header
       hangs assimp 5.2 for good, and the PLY cut inside its lists aborts it in Triangulate. */
    static const struct {
        const char* source;
        const char* cut;
        long keep; /* bytes kept */
    } cuts[] = {
        { MODELS "/STL/Spider_binary.stl", WORK "/meshio_cut.stl", 300 },
        { MODELS "/STL/Spider_ascii.stl", WORK "/meshio_cut_ascii.stl", 71 },
        { MODELS "/PLY/cube.ply", WORK "/meshio_cut_header.ply", 100 },
        { MODELS "/PLY/Wuson.ply", WORK "/meshio_cut_body.ply", 100000 },
        { MODELS "/PLY/Wuson.ply", WORK "/meshio_cut_early.ply", 3000 },
        { MODELS "/PLY/cube_binary.ply", WORK "/meshio_cut_binary.ply", 250 },
        { MODELS "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", WORK "/meshio_cut.glb", 2000 },
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; ++i) {
        TEST_ENSURE(write_prefix(cuts[i].source, cuts[i].cut, cuts[i].keep) == 0);
        TEST_ENSURE(expect_failure(cuts[i].cut, SPX_MESHIO_ERR_MALFORMED) == 0);
    }
    return 0;
}

static int garbage_and_hand_made_files(void)
{
    static const char* const names[] = { "meshio_noise.obj", "meshio_noise.stl",  "meshio_noise.ply",
                                         "meshio_noise.glb", "meshio_noise.gltf", "meshio_noise.bin" };
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", WORK, names[i]);
        TEST_ENSURE(write_noise(path, 4096, 0x5e9a0000u + (uint64_t)i) == 0);
        TEST_ENSURE(expect_failure(path, -1) == 0);
    }
    /* headers declaring more elements than the file has bytes: assimp would allocate them
       first (invalid/OutOfMemory.off is the package's case, over 16 GB) */
    TEST_ENSURE(write_text(WORK "/meshio_huge.ply", "ply\nformat ascii 1.0\nelement vertex 1500000000\n"
                                                    "property float x\nproperty float y\nproperty float z\n"
                                                    "element face 1\nproperty list uchar int vertex_indices\n"
                                                    "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n") == 0);
    TEST_ENSURE(expect_failure(WORK "/meshio_huge.ply", SPX_MESHIO_ERR_MALFORMED) == 0);
    TEST_ENSURE(
        write_text(WORK "/meshio_huge.off", "OFF\n# a comment\n3 99999999999 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n") == 0);
    TEST_ENSURE(expect_failure(WORK "/meshio_huge.off", SPX_MESHIO_ERR_MALFORMED) == 0);
    TEST_ENSURE(write_text(WORK "/meshio_empty.stl", "") == 0);
    TEST_ENSURE(expect_failure(WORK "/meshio_empty.stl", SPX_MESHIO_ERR_MALFORMED) == 0);
    TEST_ENSURE(write_text(WORK "/meshio_bad_index.obj", "v 0 0 0\nv 1 0 0\nf 1 2 7\n") == 0);
    TEST_ENSURE(expect_failure(WORK "/meshio_bad_index.obj", SPX_MESHIO_ERR_MALFORMED) == 0);
    TEST_ENSURE(write_text(WORK "/meshio_line.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n") == 0);
    TEST_ENSURE(expect_failure(WORK "/meshio_line.obj", SPX_MESHIO_ERR_NO_TRIANGLES) == 0);
    /* 1e39 does not fit a float: assimp stores inf */
    TEST_ENSURE(write_text(WORK "/meshio_inf.obj", "v 0 0 0\nv 1 0 1e39\nv 0 1 0\nf 1 2 3\n") == 0);
    TEST_ENSURE(expect_failure(WORK "/meshio_inf.obj", SPX_MESHIO_ERR_MALFORMED) == 0);
    return 0;
}

static int hand_made_small_off_and_ply(void)
{ /* the header guards pass honest files: one triangle each */
    box3 e = { { 0, 0, 0 }, { 1, 1, 0 } };
    TEST_ENSURE(write_text(WORK "/meshio_one.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n") == 0);
    TEST_ENSURE(load_and_check(WORK "/meshio_one.off", 1, e, 0.0) == 0);
    TEST_ENSURE(write_text(WORK "/meshio_one.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                                   "property float y\nproperty float z\nelement face 1\n"
                                                   "property list uchar int vertex_indices\nend_header\n"
                                                   "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n") == 0);
    TEST_ENSURE(load_and_check(WORK "/meshio_one.ply", 1, e, 0.0) == 0);
    return 0;
}

static int hand_made_quad_is_triangulated(void)
{ /* one quad, two triangles; a line beside it is dropped with its vertex (5 -> 4 vertices) */
    TEST_ENSURE(
        write_text(WORK "/meshio_quad.obj", "v 0 0 0\nv 2 0 0\nv 2 3 0\nv 0 3 0\nv 9 9 9\nf 1 2 3 4\nl 4 5\n") == 0);
    box3 e = { { 0, 0, 0 }, { 2, 3, 0 } };
    TEST_ENSURE(load_and_check(WORK "/meshio_quad.obj", 2, e, 0.0) == 0);
    spx_meshio_mesh m;
    char why[256];
    TEST_ENSURE_CODE(spx_meshio_load(WORK "/meshio_quad.obj", 1.0f, &m, why, sizeof why), SPX_MESHIO_OK);
    uint32_t vertices = m.vertex_count;
    spx_meshio_free(&m);
    TEST_ENSURE(vertices == 4);
    return 0;
}

static int missing_and_unreadable(void)
{
    TEST_ENSURE(expect_failure(MODELS "/OBJ/no_such_model.obj", SPX_MESHIO_ERR_NOT_FOUND) == 0);
    TEST_ENSURE(expect_failure(WORK "/no/such/folder/model.stl", SPX_MESHIO_ERR_NOT_FOUND) == 0);
    /* a folder opens but cannot be read */
    TEST_ENSURE(expect_failure(MODELS "/OBJ", SPX_MESHIO_ERR_NOT_FOUND) == 0);
    return 0;
}

static int bad_arguments(void)
{
    spx_meshio_mesh m;
    char why[256];
    const char* cube = MODELS "/PLY/cube_binary.ply";
    TEST_ENSURE_CODE(spx_meshio_load(NULL, 1.0f, &m, why, sizeof why), SPX_MESHIO_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_meshio_load(cube, 1.0f, NULL, why, sizeof why), SPX_MESHIO_ERR_INVALID_ARGUMENT);
    TEST_ENSURE(strstr(why, cube) != NULL);
    const float scales[] = { 0.0f, -1.0f, NAN, INFINITY, -INFINITY };
    for (int i = 0; i < 5; ++i) {
        TEST_ENSURE_CODE(spx_meshio_load(cube, scales[i], &m, why, sizeof why), SPX_MESHIO_ERR_INVALID_ARGUMENT);
        TEST_ENSURE(m.vertices == NULL && m.triangle_count == 0);
    }
    /* no message buffer is fine; a short one is cut and terminated */
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/OBJ/no_such_model.obj", 1.0f, &m, NULL, 0), SPX_MESHIO_ERR_NOT_FOUND);
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/OBJ/no_such_model.obj", 1.0f, &m, tiny, sizeof tiny),
                     SPX_MESHIO_ERR_NOT_FOUND);
    TEST_ENSURE(tiny[7] == '\0' && strlen(tiny) == 7);
    /* a huge scale overflows float: refused as not finite, like a NaN in the file */
    TEST_ENSURE_CODE(spx_meshio_load(MODELS "/STL/Spider_ascii.stl", 1e38f, &m, why, sizeof why),
                     SPX_MESHIO_ERR_MALFORMED);
    TEST_ENSURE(strstr(why, "not finite once moved by its node and scaled") != NULL);
    spx_meshio_free(NULL);
    spx_meshio_free(&m); /* already zeroed by the failed load */
    for (int r = SPX_MESHIO_OK; r <= SPX_MESHIO_ERR_OUT_OF_MEMORY; ++r) {
        const char* s = spx_meshio_result_string((spx_meshio_result)r);
        TEST_ENSURE(s != NULL && s[0] != '\0');
    }
    TEST_ENSURE(spx_meshio_result_string((spx_meshio_result)99) != NULL);
    return 0;
}

int main(void)
{
    if (!test_models_found("test_meshio", MODELS)) return 1;

    int failures = 0;
    TEST_RUN(stl_ascii_spider, failures);
    TEST_RUN(stl_binary_spider, failures);
    TEST_RUN(obj_spider, failures);
    TEST_RUN(wuson_in_three_formats, failures);
    TEST_RUN(ply_binary_cube_exact, failures);
    TEST_RUN(scale_multiplies_every_coordinate, failures);
    TEST_RUN(gltf_text_and_binary_agree, failures);
    TEST_RUN(gltf_node_transforms_applied, failures);
    TEST_RUN(same_file_same_arrays, failures);
    TEST_RUN(hand_made_quad_is_triangulated, failures);
    TEST_RUN(hand_made_small_off_and_ply, failures);
    TEST_RUN(package_invalid_folder, failures);
    TEST_RUN(package_other_bad_files, failures);
    TEST_RUN(truncated_files, failures);
    TEST_RUN(garbage_and_hand_made_files, failures);
    TEST_RUN(missing_and_unreadable, failures);
    TEST_RUN(bad_arguments, failures);
    return failures == 0 ? 0 : 1;
}
