/* sepax meshio: triangle meshes from OBJ, STL, PLY, glTF (and whatever else assimp reads) as the
 * plain vertex and index arrays the core library takes. It lives outside the library on purpose:
 * libsepax parses no files and never links assimp; tests, benchmarks and tools link this instead.
 *
 *     spx_meshio_mesh m;
 *     char why[512];
 *     if (spx_meshio_load("crate.obj", 1.0f, &m, why, sizeof why) != SPX_MESHIO_OK) {
 *         fprintf(stderr, "%s\n", why);            // e.g. "crate.obj: cannot open: No such file ..."
 *         return;
 *     }
 *     ... hand m.vertices, m.vertex_count, m.indices, m.triangle_count to the mesh API ...
 *     spx_meshio_free(&m);
 */
#ifndef SEPAX_MESHIO_H
#define SEPAX_MESHIO_H

#include <sepax/math_types.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What spx_meshio_load found; the message buffer says the same in words, with the file name.
typedef enum spx_meshio_result {
    SPX_MESHIO_OK = 0,
    SPX_MESHIO_ERR_INVALID_ARGUMENT, /* NULL path or out_mesh, scale not finite or <= 0 */
    SPX_MESHIO_ERR_NOT_FOUND,        /* no such file, or it cannot be opened and read (a folder, no permission) */
    SPX_MESHIO_ERR_MALFORMED,        /* assimp rejected it (its reason is quoted), a coordinate is NaN/inf, or a
                                        header assimp cannot survive (see meshio.c) */
    SPX_MESHIO_ERR_NO_TRIANGLES,     /* read fine but holds no triangle (only points or lines); a mesh with no
                                        faces at all is MALFORMED (assimp validation) */
    SPX_MESHIO_ERR_TOO_LARGE,        /* 3 * triangles (the index count) above UINT32_MAX */
    SPX_MESHIO_ERR_OUT_OF_MEMORY,    /* our copy of the arrays could not be allocated */
} spx_meshio_result;

/// One triangle soup: every mesh of the file merged, node transforms applied, only the vertices
/// that some triangle uses. Triangle t is vertices[indices[3t]], [3t+1], [3t+2], wound as in the
/// file. Arrays are malloc'd, owned by the caller, released by spx_meshio_free.
typedef struct spx_meshio_mesh {
    spx_vec3* vertices; /* vertex_count points, in file units times the scale */
    uint32_t* indices;  /* 3 * triangle_count entries, each < vertex_count */
    uint32_t vertex_count;
    uint32_t triangle_count; /* >= 1 after a successful load */
} spx_meshio_mesh;

/// Reads `path` through assimp (triangulated, identical vertices joined, points and lines
/// dropped) and multiplies every coordinate by `scale` (1 keeps file units). Same file, same
/// arrays, bit for bit. On failure *out_mesh is zeroed and, when message_size > 0, `message`
/// gets one line naming the file and what is wrong (cut to fit, always terminated).
/// Errors: every spx_meshio_result code above. Uses assimp's global error string: not
/// thread-safe against other assimp imports running at the same time.
spx_meshio_result spx_meshio_load(const char* path, float scale, spx_meshio_mesh* out_mesh, char* message,
                                  size_t message_size);

/// Frees the arrays of a loaded mesh and zeroes it; NULL or an already freed mesh is a no-op.
void spx_meshio_free(spx_meshio_mesh* mesh);

/// A short English name for a result code ("file not found or unreadable", ...); never NULL.
const char* spx_meshio_result_string(spx_meshio_result result);

#ifdef __cplusplus
}
#endif

#endif
