/* Closed meshes: weld vertices by their coordinates, then match every directed edge with its
   reverse. Both steps are sorts of 64-bit keys, so the cost is linear in the input (a few radix
   passes) and the answer depends on the input alone. */
#include "mesh_closed.h"
#include "core/allocator.h"
#include "core/radix_sort.h"
#include <string.h>

/* The bits of a coordinate as a key: equal floats, equal keys (-0 and +0 are one point; NaN was
   rejected before). */
static uint64_t coord_key(float f)
{
    if (f == 0.0f) f = 0.0f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t xy_key(spx_vec3 v) { return coord_key(v.x) << 32 | coord_key(v.y); }

/* rep[i] = a number shared by exactly the vertices with vertex i's coordinates. Sorted by z, then
   stably by (x, y): equal points end up side by side. */
static void weld(const spx_vec3* v, uint32_t n, uint32_t* rep, uint64_t* keys, uint64_t* tmp_keys, uint32_t* order,
                 uint32_t* tmp_order)
{
    for (uint32_t i = 0; i < n; ++i) keys[i] = coord_key(v[i].z), order[i] = i;
    spx_radix_sort_u64(keys, order, tmp_keys, tmp_order, n);
    for (uint32_t i = 0; i < n; ++i) keys[i] = xy_key(v[order[i]]);
    spx_radix_sort_u64(keys, order, tmp_keys, tmp_order, n);
    uint32_t group = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (i > 0 && (keys[i] != keys[i - 1] || coord_key(v[order[i]].z) != coord_key(v[order[i - 1]].z))) ++group;
        rep[order[i]] = group;
    }
}

spx_result spx_mesh_check_closed(const spx_mesh_def* def, const spx_allocator* allocator, bool* out_closed)
{
    const size_t nv = def->vertex_count, ne = 3 * (size_t)def->triangle_count;
    /* rep, then one region used twice: the weld's keys and orders, later the edge keys. */
    const size_t weld_bytes = 24 * nv, edge_bytes = 24 * ne;
    if (nv > SIZE_MAX / 64 || ne > SIZE_MAX / 64) return SPX_ERR_OUT_OF_MEMORY;
    const size_t off_region = (sizeof(uint32_t) * nv + 7) & ~(size_t)7;
    const size_t bytes = off_region + (weld_bytes > edge_bytes ? weld_bytes : edge_bytes);
    char* block = spx_alloc(allocator, bytes, 8);
    if (!block) return SPX_ERR_OUT_OF_MEMORY;
    uint32_t* rep = (uint32_t*)(void*)block;
    uint64_t* region = (uint64_t*)(void*)(block + off_region);

    weld(def->vertices, def->vertex_count, rep, region, region + nv, (uint32_t*)(void*)(region + 2 * nv),
         (uint32_t*)(void*)(region + 2 * nv) + nv);

    /* Each directed edge a->b as a key, and its reverse b->a in a second array. The surface is
       closed exactly when no directed edge repeats and the two sorted arrays are equal: then every
       a->b has one b->a and nothing else shares the edge. */
    uint64_t *fwd = region, *rev = region + ne, *tmp = region + 2 * ne;
    size_t m = 0;
    for (uint32_t t = 0; t < def->triangle_count; ++t) {
        const uint32_t* idx = def->indices + 3 * (size_t)t;
        const uint64_t c[3] = { rep[idx[0]], rep[idx[1]], rep[idx[2]] };
        if (c[0] == c[1] || c[1] == c[2] || c[2] == c[0]) continue; /* a->b and b->a of its own: nothing */
        for (int k = 0; k < 3; ++k) {
            const uint64_t a = c[k], b = c[(k + 1) % 3];
            fwd[m] = a << 32 | b;
            rev[m] = b << 32 | a;
            ++m;
        }
    }
    spx_radix_sort_u64(fwd, NULL, tmp, NULL, m);
    spx_radix_sort_u64(rev, NULL, tmp, NULL, m);
    bool closed = m > 0;
    for (size_t i = 0; closed && i < m; ++i) closed = fwd[i] == rev[i] && (i == 0 || fwd[i] != fwd[i - 1]);
    spx_free(allocator, block, bytes);
    *out_closed = closed;
    return SPX_OK;
}
