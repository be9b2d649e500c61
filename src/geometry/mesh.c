/* Meshes: validation, a private copy of the triangles, and their OBB tree, in one block. */
#include "mesh.h"
#include "mesh_topology.h"
#include "core/allocator.h"
#include "validate.h"
#include <string.h>

/* The final block is cache-line aligned: node 0 and the first triangles start on a line. */
#define BLOCK_ALIGNMENT 64

SPX_API spx_mesh_def spx_default_mesh_def(void)
{
    spx_mesh_def def;
    memset(&def, 0, sizeof def);
    def.leaf_triangles = 4;
    def.internal_cookie = SPX_MESH_DEF_COOKIE;
    return def;
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

static spx_triangle gather(const spx_mesh_def* def, uint32_t t)
{
    const uint32_t* idx = def->indices + 3 * (size_t)t;
    spx_triangle tri = { { def->vertices[idx[0]], def->vertices[idx[1]], def->vertices[idx[2]] } };
    return tri;
}

/* Everything a user can get wrong, before anything is allocated. */
static spx_result check_def(const spx_mesh_def* def, uint32_t* out_kept)
{
    if (def->internal_cookie != SPX_MESH_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    if (def->leaf_triangles < 1 || def->leaf_triangles > 16) return SPX_ERR_INVALID_ARGUMENT;
    if (def->allocator && (!def->allocator->alloc || !def->allocator->free)) return SPX_ERR_INVALID_ARGUMENT;
    if ((def->vertex_count > 0 && !def->vertices) || (def->triangle_count > 0 && !def->indices))
        return SPX_ERR_INVALID_ARGUMENT;
    /* 2n - 1 nodes must fit a uint32_t. */
    if (def->triangle_count > 0x7FFFFFFFu) return SPX_ERR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < def->vertex_count; ++i)
        if (!spx_finite3(def->vertices[i])) return SPX_ERR_NOT_FINITE;
    for (uint32_t i = 0; i < def->vertex_count; ++i)
        if (!spx_in_range3(def->vertices[i])) return SPX_ERR_OUT_OF_RANGE;
    const size_t index_count = 3 * (size_t)def->triangle_count;
    for (size_t i = 0; i < index_count; ++i)
        if (def->indices[i] >= def->vertex_count) return SPX_ERR_INDEX_OUT_OF_RANGE;
    uint32_t kept = 0;
    for (uint32_t t = 0; t < def->triangle_count; ++t) {
        spx_triangle tri = gather(def, t);
        kept += spx_triangle_validate(&tri) == SPX_OK;
    }
    if (kept == 0) return SPX_ERR_EMPTY_MESH;
    *out_kept = kept;
    return SPX_OK;
}

/* Build-time arrays, one allocation, freed before create returns. */
typedef struct scratch {
    void* block;
    size_t bytes;
    spx_tri_moment* moments; /* kept triangles, reordered by the build */
    spx_triangle* tris;      /* kept triangles, in leaf order after the build */
    spx_obb_node* nodes;     /* room for the worst case, 2n - 1 */
    uint32_t* source;        /* kept triangle -> def triangle, reordered with tris */
} scratch;

static bool scratch_alloc(scratch* s, uint32_t n, const spx_allocator* a)
{
    size_t off_moments = 0;
    size_t off_tris = align_up(off_moments + sizeof(spx_tri_moment) * (size_t)n, 16);
    size_t off_nodes = align_up(off_tris + sizeof(spx_triangle) * (size_t)n, 16);
    size_t off_source = align_up(off_nodes + sizeof(spx_obb_node) * (size_t)spx_obb_tree_max_nodes(n), 16);
    s->bytes = off_source + sizeof(uint32_t) * (size_t)n;
    s->block = spx_alloc(a, s->bytes, 16);
    if (!s->block) return false;
    char* b = s->block;
    s->moments = (spx_tri_moment*)(void*)(b + off_moments);
    s->tris = (spx_triangle*)(void*)(b + off_tris);
    s->nodes = (spx_obb_node*)(void*)(b + off_nodes);
    s->source = (uint32_t*)(void*)(b + off_source);
    return true;
}

SPX_API spx_result spx_mesh_create(const spx_mesh_def* def, spx_mesh** out)
{
    if (!def || !out) return SPX_ERR_INVALID_ARGUMENT;
    uint32_t n = 0;
    spx_result r = check_def(def, &n);
    if (r != SPX_OK) return r;
#if SIZE_MAX < 0xFFFFFFFFFFFFull
    /* Sizes below are at most ~250 bytes a triangle: on a 32-bit size_t a huge n must not wrap. */
    if ((size_t)n > SIZE_MAX / 512) return SPX_ERR_OUT_OF_MEMORY;
#endif

    spx_allocator allocator;
    memset(&allocator, 0, sizeof allocator);
    if (def->allocator) allocator = *def->allocator;

    scratch s;
    if (!scratch_alloc(&s, n, &allocator)) return SPX_ERR_OUT_OF_MEMORY;
    uint32_t k = 0;
    for (uint32_t t = 0; t < def->triangle_count; ++t) {
        spx_triangle tri = gather(def, t);
        if (spx_triangle_validate(&tri) != SPX_OK) continue; /* degenerate: counted, not kept */
        s.tris[k] = tri;
        s.source[k] = t;
        spx_tri_moment_of(&tri, &s.moments[k]);
        ++k;
    }
    uint32_t depth = 0;
    uint32_t node_count = spx_obb_tree_build(s.tris, s.moments, s.source, n, def->leaf_triangles, s.nodes, &depth);

    /* The mesh keeps only what the queries read, sized exactly: the worst-case node room and the
       build's arrays go back to the host. */
    size_t off_nodes = align_up(sizeof(spx_mesh), BLOCK_ALIGNMENT);
    size_t off_tris = align_up(off_nodes + sizeof(spx_obb_node) * (size_t)node_count, 16);
    size_t off_source = off_tris + sizeof(spx_triangle) * (size_t)n;
    size_t off_edges = align_up(off_source + sizeof(uint32_t) * (size_t)n, 8);
    size_t bytes = off_edges + sizeof(spx_mesh_edges) * (size_t)n;
    char* block = spx_alloc(&allocator, bytes, BLOCK_ALIGNMENT);
    if (!block) {
        spx_free(&allocator, s.block, s.bytes);
        return SPX_ERR_OUT_OF_MEMORY;
    }
    spx_mesh* mesh = (spx_mesh*)(void*)block;
    spx_obb_node* nodes = (spx_obb_node*)(void*)(block + off_nodes);
    spx_triangle* tris = (spx_triangle*)(void*)(block + off_tris);
    uint32_t* source = (uint32_t*)(void*)(block + off_source);
    spx_mesh_edges* edges = (spx_mesh_edges*)(void*)(block + off_edges);
    memcpy(nodes, s.nodes, sizeof(spx_obb_node) * (size_t)node_count);
    memcpy(tris, s.tris, sizeof(spx_triangle) * (size_t)n);
    memcpy(source, s.source, sizeof(uint32_t) * (size_t)n);
    spx_free(&allocator, s.block, s.bytes);

    /* From the def's indices (the mesh keeps no connectivity); after the build's scratch is
           freed, so the peak is the larger of the two. */
    bool closed = false;
    r = spx_mesh_topology(def, source, n, &allocator, &closed, edges);
    if (r != SPX_OK) {
        spx_free(&allocator, block, bytes);
        return r;
    }
    /* All def triangles: degenerate ones still bound the solid. */
    spx_unit_mass unit_mass;
    spx_mass_integrate(def, closed, &unit_mass);
    *mesh = (spx_mesh){ .nodes = nodes,
                        .triangles = tris,
                        .source = source,
                        .edges = edges,
                        .triangle_count = n,
                        .degenerate_count = def->triangle_count - n,
                        .node_count = node_count,
                        .depth = depth,
                        .leaf_triangles = def->leaf_triangles,
                        .closed = closed,
                        .mass = unit_mass,
                        .bytes = bytes,
                        .allocator = allocator };
    *out = mesh;
    return SPX_OK;
}

SPX_API void spx_mesh_destroy(spx_mesh* mesh)
{
    if (!mesh) return;
    spx_free_self(&mesh->allocator, mesh, mesh->bytes);
}

SPX_API spx_result spx_mesh_get_info(const spx_mesh* mesh, spx_mesh_info* out)
{
    if (!mesh || !out) return SPX_ERR_INVALID_ARGUMENT;
    *out = (spx_mesh_info){ .triangle_count = mesh->triangle_count,
                            .degenerate_count = mesh->degenerate_count,
                            .node_count = mesh->node_count,
                            .depth = mesh->depth,
                            .bytes = mesh->bytes,
                            .closed = mesh->closed };
    return SPX_OK;
}

SPX_API spx_result spx_mesh_get_triangle_edges(const spx_mesh* mesh, uint32_t i, spx_triangle_edges* out)
{
    if (!mesh || !out || i >= mesh->triangle_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = spx_mesh_edges_unpack(mesh->edges[i]);
    return SPX_OK;
}

SPX_API spx_result spx_mesh_get_triangle(const spx_mesh* mesh, uint32_t i, spx_triangle* out, uint32_t* out_source)
{
    if (!mesh || !out || i >= mesh->triangle_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = mesh->triangles[i];
    if (out_source) *out_source = mesh->source[i];
    return SPX_OK;
}
