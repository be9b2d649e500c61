/* meshio: one triangle soup from a mesh file, through assimp's C API. assimp does the parsing
 * (and its post-processing triangulates and joins identical vertices); this file walks the node
 * tree twice, once to count and once to copy, so every array is allocated once at its final size
 * and the failure paths have nothing half-built to undo. */
#include "meshio.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* assimp's node tree comes from the file: a hostile file could nest nodes deep enough to
 * overflow our recursion, so deeper trees are refused. Real files stay far below this. */
#define MESHIO_MAX_NODE_DEPTH 1024

/* Import in two steps, because assimp 5.2's post-processing trusts what it gets: on malformed
 * input its asserts abort the whole process (Debian builds them in). ValidateDataStructure runs on
 * the import alone and turns broken index lists into an error message; without it assimp's
 * invalid/OutOfMemory.off reaches Triangulate and aborts. Validation also rejects a mesh with no
 * faces at all, so a pure point cloud reads as MALFORMED rather than NO_TRIANGLES. */
static const unsigned meshio_import_flags = aiProcess_ValidateDataStructure;

/* Then, after our own check (check_faces): Triangulate turns polygons into triangles;
 * JoinIdenticalVertices lets triangles share the corners that formats like STL store per face;
 * SortByPType splits meshes that mix triangles with lines or points, which we then skip. */
static const unsigned meshio_process_flags =
    aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType;

/* An affine transform, rows of [3x3 | t], in double so chains of node matrices round once. */
typedef struct affine {
    double m[3][4];
} affine;

typedef struct walk {
    const struct aiScene* scene;
    const char* path;
    char* message;
    size_t message_size;
    double scale;
    int copying; /* 0: count pass, 1: copy pass */
    /* count pass */
    uint64_t triangles;    /* triangles over all mesh instances */
    uint64_t vertex_bound; /* vertices of instanced meshes that hold a triangle */
    unsigned max_mesh_vertices;
    /* copy pass */
    uint32_t* remap; /* per mesh instance: file vertex -> output vertex, UINT32_MAX unset */
    spx_meshio_mesh* out;
    uint64_t vertex_capacity;
} walk;

static void say(char* message, size_t message_size, const char* format, ...)
{
    if (message == NULL || message_size == 0) {
        return;
    }
    va_list args;
    va_start(args, format);
    vsnprintf(message, message_size, format, args);
    va_end(args);
}

static affine affine_from_ai(const struct aiMatrix4x4* a)
{
    affine r = { { { a->a1, a->a2, a->a3, a->a4 }, { a->b1, a->b2, a->b3, a->b4 }, { a->c1, a->c2, a->c3, a->c4 } } };
    return r;
}

/* p * c: the child's frame placed in the parent's. The bottom row of an assimp node matrix is
 * (0 0 0 1) for every format we read; assimp itself ignores it when moving points. */
static affine affine_mul(const affine* p, const affine* c)
{
    affine r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j) {
            r.m[i][j] = p->m[i][0] * c->m[0][j] + p->m[i][1] * c->m[1][j] + p->m[i][2] * c->m[2][j];
        }
        r.m[i][3] += p->m[i][3];
    }
    return r;
}

static int mesh_is_usable(const struct aiMesh* mesh)
{
    return mesh != NULL && mesh->mVertices != NULL && mesh->mFaces != NULL && mesh->mNumVertices > 0;
}

/* Copies one instance of a mesh: only the vertices its triangles use, numbered in the order the
 * triangles first use them, so the output depends on nothing but the file. */
static spx_meshio_result copy_mesh(walk* w, const struct aiMesh* mesh, unsigned mesh_index, const affine* to_world)
{
    spx_meshio_mesh* out = w->out;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        w->remap[v] = UINT32_MAX;
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const struct aiFace* face = &mesh->mFaces[f];
        if (face->mNumIndices != 3 || face->mIndices == NULL) {
            continue; /* a point or a line */
        }
        for (int k = 0; k < 3; ++k) {
            unsigned v = face->mIndices[k];
            if (v >= mesh->mNumVertices) {
                say(w->message, w->message_size, "%s: malformed: mesh %u, face %u uses vertex %u of %u", w->path,
                    mesh_index, f, v, mesh->mNumVertices);
                return SPX_MESHIO_ERR_MALFORMED;
            }
            if (w->remap[v] == UINT32_MAX) {
                if (out->vertex_count >= w->vertex_capacity) {
                    /* cannot happen: capacity covers every vertex of every instanced mesh */
                    say(w->message, w->message_size, "%s: internal error: vertex count changed between passes",
                        w->path);
                    return SPX_MESHIO_ERR_MALFORMED;
                }
                const struct aiVector3D* p = &mesh->mVertices[v];
                double x = p->x, y = p->y, z = p->z;
                /* The core mesh rejects these too; saying so here names the file and the vertex. */
                if (!isfinite(x) || !isfinite(y) || !isfinite(z)) {
                    say(w->message, w->message_size, "%s: malformed: mesh %u, vertex %u is not finite (%g, %g, %g)",
                        w->path, mesh_index, v, x, y, z);
                    return SPX_MESHIO_ERR_MALFORMED;
                }
                const double(*m)[4] = to_world->m;
                spx_vec3 q = { (float)((m[0][0] * x + m[0][1] * y + m[0][2] * z + m[0][3]) * w->scale),
                               (float)((m[1][0] * x + m[1][1] * y + m[1][2] * z + m[1][3]) * w->scale),
                               (float)((m[2][0] * x + m[2][1] * y + m[2][2] * z + m[2][3]) * w->scale) };
                if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z)) {
                    say(w->message, w->message_size,
                        "%s: malformed: mesh %u, vertex %u is not finite once moved by its node and scaled "
                        "(%g, %g, %g)",
                        w->path, mesh_index, v, (double)q.x, (double)q.y, (double)q.z);
                    return SPX_MESHIO_ERR_MALFORMED;
                }
                w->remap[v] = out->vertex_count;
                out->vertices[out->vertex_count++] = q;
            }
            out->indices[3 * (size_t)out->triangle_count + (size_t)k] = w->remap[v];
        }
        ++out->triangle_count;
    }
    return SPX_MESHIO_OK;
}

static spx_meshio_result visit(walk* w, const struct aiNode* node, const affine* parent, int depth)
{
    if (depth > MESHIO_MAX_NODE_DEPTH) {
        say(w->message, w->message_size, "%s: unsupported: node tree deeper than %d levels", w->path,
            MESHIO_MAX_NODE_DEPTH);
        return SPX_MESHIO_ERR_MALFORMED;
    }
    affine local = affine_from_ai(&node->mTransformation);
    affine to_world = affine_mul(parent, &local);
    const struct aiScene* scene = w->scene;
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        unsigned mesh_index = node->mMeshes[i];
        if (mesh_index >= scene->mNumMeshes) {
            say(w->message, w->message_size, "%s: malformed: a node uses mesh %u of %u", w->path, mesh_index,
                scene->mNumMeshes);
            return SPX_MESHIO_ERR_MALFORMED;
        }
        const struct aiMesh* mesh = scene->mMeshes[mesh_index];
        if (!mesh_is_usable(mesh) || !(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
            continue;
        }
        if (w->copying) {
            spx_meshio_result r = copy_mesh(w, mesh, mesh_index, &to_world);
            if (r != SPX_MESHIO_OK) {
                return r;
            }
            continue;
        }
        uint64_t triangles = 0;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            triangles += mesh->mFaces[f].mNumIndices == 3;
        }
        if (triangles > 0) {
            w->triangles += triangles;
            w->vertex_bound += mesh->mNumVertices;
            if (mesh->mNumVertices > w->max_mesh_vertices) {
                w->max_mesh_vertices = mesh->mNumVertices;
            }
        }
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i) {
        if (node->mChildren == NULL || node->mChildren[i] == NULL) {
            continue;
        }
        spx_meshio_result r = visit(w, node->mChildren[i], &to_world, depth + 1);
        if (r != SPX_MESHIO_OK) {
            return r;
        }
    }
    return SPX_MESHIO_OK;
}

/* Looks for `needle` in the rest of `file`, reading in blocks; a match may straddle two blocks. */
static int file_contains(FILE* file, const char* needle)
{
    size_t n = strlen(needle);
    char block[4096];
    size_t kept = 0; /* bytes carried over from the previous block */
    for (;;) {
        size_t got = fread(block + kept, 1, sizeof block - kept, file);
        size_t have = kept + got;
        for (size_t i = 0; i + n <= have; ++i) {
            if (memcmp(block + i, needle, n) == 0) {
                return 1;
            }
        }
        if (got == 0) {
            return 0;
        }
        kept = have < n - 1 ? have : n - 1;
        memmove(block, block + have - kept, kept);
    }
}

/* Skips blanks and '#' comment lines in a NUL-terminated text. */
static const char* skip_blanks(const char* c)
{
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') {
            ++c;
        }
        if (*c != '#') {
            return c;
        }
        while (*c != '\0' && *c != '\n') {
            ++c;
        }
    }
}

/* A count a header declares, read as a non-negative decimal; anything else gives 0 (not
 * suspicious: assimp then judges the header itself). An overflow saturates, so it is caught. */
static unsigned long long header_count(const char* c, const char** end)
{
    if (*c < '0' || *c > '9') {
        *end = c;
        return 0;
    }
    char* after = NULL;
    unsigned long long n = strtoull(c, &after, 10);
    *end = after;
    return n;
}

/* The first bytes of a file: enough for any real OFF or PLY header. */
#define MESHIO_HEAD_BYTES 16384

/* Guards for what assimp 5.2 cannot survive, checked on the file's first bytes. It picks readers
 * by content as well as by name, so these go by the magic, whatever the extension.
 * - A PLY header cut short (no end_header, e.g. a download stopped after 100 bytes) makes its
 *   PLY reader loop forever.
 * - OFF and PLY readers allocate what the header declares before reading a single element: the
 *   package's invalid/OutOfMemory.off asks for 16 GB (and gets it, on a big machine), a PLY
 *   declaring 1.5e9 vertices never returns. Every element takes at least one byte, so a count
 *   above the file's size is a lie we can refuse without parsing the format. */
static spx_meshio_result check_header(FILE* file, const char* head, long long file_size, const char* path,
                                      char* message, size_t message_size)
{
    unsigned long long limit = file_size > 0 ? (unsigned long long)file_size : 0;
    const char* c = head;
    if ((strncmp(c, "ply", 3) == 0 || strncmp(c, "PLY", 3) == 0) && (c[3] == '\n' || c[3] == '\r')) {
        if (strstr(head, "end_header") == NULL && !file_contains(file, "end_header")) {
            say(message, message_size, "%s: malformed: PLY header has no end_header line (is the file cut short?)",
                path);
            return SPX_MESHIO_ERR_MALFORMED;
        }
        for (const char* line = head; line != NULL && *line != '\0'; line = strchr(line, '\n')) {
            line += *line == '\n';
            if (strncmp(line, "end_header", 10) == 0) {
                break;
            }
            if (strncmp(line, "element", 7) != 0 || (line[7] != ' ' && line[7] != '\t')) {
                continue;
            }
            const char* name = line + 7;
            while (*name == ' ' || *name == '\t') {
                ++name;
            }
            const char* number = name;
            while (*number != '\0' && *number != ' ' && *number != '\t' && *number != '\n') {
                ++number;
            }
            while (*number == ' ' || *number == '\t') {
                ++number;
            }
            const char* end;
            unsigned long long n = header_count(number, &end);
            if (n > limit) {
                int name_length = (int)(number - name);
                say(message, message_size,
                    "%s: malformed: PLY header declares %llu of element '%.*s' in a file of %lld bytes", path, n,
                    name_length > 0 ? name_length - 1 : 0, name, file_size);
                return SPX_MESHIO_ERR_MALFORMED;
            }
        }
        return SPX_MESHIO_OK;
    }
    /* OFF and its variants (COFF, NOFF, STOFF, 4OFF, ...): a keyword ending in OFF, then the
     * vertex and face counts. */
    const char* keyword_end = c;
    while (*keyword_end != '\0' && *keyword_end != ' ' && *keyword_end != '\t' && *keyword_end != '\r' &&
           *keyword_end != '\n' && keyword_end - c < 8) {
        ++keyword_end;
    }
    if (keyword_end - c >= 3 && strncmp(keyword_end - 3, "OFF", 3) == 0) {
        const char* end;
        unsigned long long vertices = header_count(skip_blanks(keyword_end), &end);
        unsigned long long faces = header_count(skip_blanks(end), &end);
        if (vertices > limit || faces > limit) {
            say(message, message_size,
                "%s: malformed: OFF header declares %llu vertices and %llu faces in a file of %lld bytes", path,
                vertices, faces, file_size);
            return SPX_MESHIO_ERR_MALFORMED;
        }
    }
    return SPX_MESHIO_OK;
}

/* Checked before assimp sees the path, so a missing or unreadable file gets the system's reason
 * and its own code rather than whatever wording the importer uses. Reading also catches a folder,
 * which fopen opens happily on POSIX systems. Then the header guards above. */
static spx_meshio_result check_readable(const char* path, char* message, size_t message_size)
{
    errno = 0;
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        say(message, message_size, "%s: cannot open: %s", path, errno != 0 ? strerror(errno) : "unknown reason");
        return SPX_MESHIO_ERR_NOT_FOUND;
    }
    char* head = malloc(MESHIO_HEAD_BYTES + 1);
    if (head == NULL) {
        fclose(file);
        say(message, message_size, "%s: out of memory", path);
        return SPX_MESHIO_ERR_OUT_OF_MEMORY;
    }
    errno = 0;
    size_t got = fread(head, 1, MESHIO_HEAD_BYTES, file);
    int error = errno;
    spx_meshio_result r = SPX_MESHIO_OK;
    if (got < MESHIO_HEAD_BYTES && ferror(file)) {
        say(message, message_size, "%s: cannot read: %s", path, error != 0 ? strerror(error) : "unknown reason");
        r = SPX_MESHIO_ERR_NOT_FOUND;
    } else {
        head[got] = '\0';
        long long size = (long long)got;
        if (got == MESHIO_HEAD_BYTES && fseek(file, 0, SEEK_END) == 0) {
            long end = ftell(file);
            size = end >= 0 ? (long long)end : size;
            fseek(file, (long)got, SEEK_SET);
        }
        r = check_header(file, head, size, path, message, message_size);
    }
    free(head);
    fclose(file);
    return r;
}

/* What the validator lets through and post-processing cannot take. A truncated ASCII PLY comes
 * back with every face empty and the mesh marked as polygons; Triangulate then finds no polygon,
 * and its consistency assert (TriangulateProcess.cpp, "numOut != pMesh->mNumFaces") aborts. So an
 * empty face is refused here, and each mesh's primitive types are set from its faces: the loader's
 * claim is only a hint, and the post-processing steps after this read it as the truth. */
static spx_meshio_result check_faces(const struct aiScene* scene, const char* path, char* message, size_t message_size)
{
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        struct aiMesh* mesh = scene->mMeshes[m];
        if (mesh == NULL) {
            say(message, message_size, "%s: malformed: mesh %u is missing", path, m);
            return SPX_MESHIO_ERR_MALFORMED;
        }
        unsigned types = 0;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const struct aiFace* face = &mesh->mFaces[f];
            if (face->mNumIndices == 0 || face->mIndices == NULL) {
                say(message, message_size, "%s: malformed: mesh %u, face %u has no vertex (is the file cut short?)",
                    path, m, f);
                return SPX_MESHIO_ERR_MALFORMED;
            }
            types |= face->mNumIndices == 1   ? (unsigned)aiPrimitiveType_POINT
                     : face->mNumIndices == 2 ? (unsigned)aiPrimitiveType_LINE
                     : face->mNumIndices == 3 ? (unsigned)aiPrimitiveType_TRIANGLE
                                              : (unsigned)aiPrimitiveType_POLYGON;
        }
        /* Keep flags that say nothing about face sizes (NGONEncodingFlag). */
        unsigned sizes =
            aiPrimitiveType_POINT | aiPrimitiveType_LINE | aiPrimitiveType_TRIANGLE | aiPrimitiveType_POLYGON;
        mesh->mPrimitiveTypes = (mesh->mPrimitiveTypes & ~sizes) | types;
    }
    return SPX_MESHIO_OK;
}

static spx_meshio_result load_scene(walk* w, spx_meshio_mesh* out)
{
    const struct aiScene* scene = w->scene;
    affine identity = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } } };
    if (scene->mRootNode == NULL || scene->mMeshes == NULL) {
        say(w->message, w->message_size, "%s: no triangles: the file holds no mesh", w->path);
        return SPX_MESHIO_ERR_NO_TRIANGLES;
    }
    spx_meshio_result r = visit(w, scene->mRootNode, &identity, 0);
    if (r != SPX_MESHIO_OK) {
        return r;
    }
    if (w->triangles == 0) {
        say(w->message, w->message_size, "%s: no triangles: the file holds only points, lines or empty meshes",
            w->path);
        return SPX_MESHIO_ERR_NO_TRIANGLES;
    }
    /* Every output vertex is used by a triangle, so it is bounded by the index count as well. */
    uint64_t index_count = 3 * w->triangles;
    if (index_count > UINT32_MAX || index_count > SIZE_MAX / sizeof(uint32_t)) {
        say(w->message, w->message_size, "%s: too large: %llu triangles, more than 32-bit indices can hold", w->path,
            (unsigned long long)w->triangles);
        return SPX_MESHIO_ERR_TOO_LARGE;
    }
    w->vertex_capacity = w->vertex_bound < index_count ? w->vertex_bound : index_count;
    out->indices = malloc((size_t)index_count * sizeof(uint32_t));
    out->vertices = malloc((size_t)w->vertex_capacity * sizeof(spx_vec3));
    w->remap = malloc((size_t)w->max_mesh_vertices * sizeof(uint32_t));
    if (out->indices == NULL || out->vertices == NULL || w->remap == NULL) {
        say(w->message, w->message_size, "%s: out of memory for %llu triangles and %llu vertices", w->path,
            (unsigned long long)w->triangles, (unsigned long long)w->vertex_capacity);
        return SPX_MESHIO_ERR_OUT_OF_MEMORY;
    }
    w->out = out;
    w->copying = 1;
    return visit(w, scene->mRootNode, &identity, 0);
}

spx_meshio_result spx_meshio_load(const char* path, float scale, spx_meshio_mesh* out_mesh, char* message,
                                  size_t message_size)
{
    if (message != NULL && message_size > 0) {
        message[0] = '\0';
    }
    if (out_mesh != NULL) {
        memset(out_mesh, 0, sizeof *out_mesh);
    }
    if (path == NULL || out_mesh == NULL) {
        say(message, message_size, "%s: invalid argument: %s is NULL", path != NULL ? path : "(no file)",
            path == NULL ? "the path" : "out_mesh");
        return SPX_MESHIO_ERR_INVALID_ARGUMENT;
    }
    if (!isfinite(scale) || !(scale > 0.0f)) {
        say(message, message_size, "%s: invalid argument: scale %g must be finite and > 0", path, (double)scale);
        return SPX_MESHIO_ERR_INVALID_ARGUMENT;
    }
    spx_meshio_result r = check_readable(path, message, message_size);
    if (r != SPX_MESHIO_OK) {
        return r;
    }
    const struct aiScene* scene = aiImportFile(path, meshio_import_flags);
    if (scene != NULL) {
        r = check_faces(scene, path, message, message_size);
        if (r != SPX_MESHIO_OK) {
            aiReleaseImport(scene);
            return r;
        }
        /* On failure assimp releases the scene itself and returns NULL. */
        scene = aiApplyPostProcessing(scene, meshio_process_flags);
    }
    if (scene == NULL) {
        const char* why = aiGetErrorString();
        say(message, message_size, "%s: malformed or unsupported: assimp says: %s", path,
            why != NULL && why[0] != '\0' ? why : "(no reason given)");
        return SPX_MESHIO_ERR_MALFORMED;
    }
    walk w = { .scene = scene, .path = path, .message = message, .message_size = message_size, .scale = scale };
    spx_meshio_mesh out = { 0 };
    r = load_scene(&w, &out);
    free(w.remap);
    aiReleaseImport(scene);
    if (r != SPX_MESHIO_OK) {
        spx_meshio_free(&out);
        return r;
    }
    *out_mesh = out;
    return SPX_MESHIO_OK;
}

void spx_meshio_free(spx_meshio_mesh* mesh)
{
    if (mesh == NULL) {
        return;
    }
    free(mesh->vertices);
    free(mesh->indices);
    memset(mesh, 0, sizeof *mesh);
}

const char* spx_meshio_result_string(spx_meshio_result result)
{
    switch (result) {
    case SPX_MESHIO_OK:
        return "ok";
    case SPX_MESHIO_ERR_INVALID_ARGUMENT:
        return "invalid argument: a NULL pointer, or a scale that is not a finite positive number";
    case SPX_MESHIO_ERR_NOT_FOUND:
        return "file not found or unreadable";
    case SPX_MESHIO_ERR_MALFORMED:
        return "malformed or unsupported mesh file";
    case SPX_MESHIO_ERR_NO_TRIANGLES:
        return "the file holds no triangles";
    case SPX_MESHIO_ERR_TOO_LARGE:
        return "too many triangles for 32-bit indices";
    case SPX_MESHIO_ERR_OUT_OF_MEMORY:
        return "out of memory";
    }
    return "unknown meshio result";
}
