/* Weld vertices, radix-sort edges by welded ends: closedness, edge turns and corners in linear,
   deterministic time. See docs/decisions.md#contact-manifolds-for-meshes. */
#include "mesh_topology.h"
#include "core/allocator.h"
#include "core/radix_sort.h"
#include "math/dvec3.h"
#include "validate.h"
#include <string.h>

#define TOPO_PI 3.14159265358979323846

/* Equal floats, equal keys (-0 is +0; NaN rejected before). */
static uint64_t coord_key(float f)
{
    if (f == 0.0f) f = 0.0f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t xy_key(spx_vec3 v) { return coord_key(v.x) << 32 | coord_key(v.y); }

/* rep[i]: shared by exactly the vertices at vertex i's coordinates. */
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

static spx_dvec3 vertex(const spx_mesh_def* def, uint32_t t, int k)
{
    return spx_d3_from(def->vertices[def->indices[3 * (size_t)t + (size_t)k]]);
}

/* Is def triangle t segment-like, as spx_tri_shape_finish judges (area against longest edge)? */
static bool segment_like(const spx_mesh_def* def, uint32_t t)
{
    const spx_dvec3 a = vertex(def, t, 0), b = vertex(def, t, 1), c = vertex(def, t, 2);
    const spx_dvec3 e0 = spx_d3_sub(b, a), e1 = spx_d3_sub(c, b), e2 = spx_d3_sub(a, c);
    const double l2 = spx_dmax(spx_d3_len2(e0), spx_dmax(spx_d3_len2(e1), spx_d3_len2(e2)));
    return !(spx_d3_len2(spx_d3_cross(e0, spx_d3_sub(c, a))) >
             SPX_TRIANGLE_FLAT_RATIO * SPX_TRIANGLE_FLAT_RATIO * l2 * l2);
}

/* The turn across edge k of t toward the neighbour's corner w, from t's front (rad, (-pi, pi],
   > 0 convex). The neighbour's winding plays no part: the queries are two-sided. */
static double turn(const spx_mesh_def* def, uint32_t t, int k, spx_dvec3 w)
{
    const spx_dvec3 a = vertex(def, t, k), b = vertex(def, t, (k + 1) % 3), c = vertex(def, t, (k + 2) % 3);
    const spx_dvec3 e = spx_d3_sub(b, a);
    const spx_dvec3 n = spx_d3_cross(e, spx_d3_sub(c, a));
    const spx_dvec3 out = spx_d3_cross(e, n); /* n x e points into t, so e x n out of it */
    const spx_dvec3 q = spx_d3_sub(w, a);
    const double x = spx_d3_dot(q, out) / sqrt(spx_d3_len2(out)), y = spx_d3_dot(q, n) / sqrt(spx_d3_len2(n));
    return atan2(-y, x);
}

static int16_t pack_turn(double angle)
{
    if (fabs(angle) < SPX_EDGE_FLAT_ANGLE) return 0;
    double steps = ceil(fabs(angle) / SPX_EDGE_ANGLE_STEP);
    if (steps > SPX_EDGE_PACKED_OPEN) steps = SPX_EDGE_PACKED_OPEN;
    return (int16_t)(angle < 0.0 ? -steps : steps);
}

/* Per welded vertex: whether sharp edges meet there, and at an angle. */
typedef struct corner_state {
    float dir[3];  /* the first sharp edge seen, away from the vertex, unit */
    uint8_t state; /* 0: no sharp edge yet, 1: all along dir (a ridge or a straight boundary), 2: a corner */
} corner_state;

static void corner_add(corner_state* c, spx_dvec3 from, spx_dvec3 to)
{
    if (c->state == 2) return;
    spx_dvec3 d = spx_d3_sub(to, from);
    d = spx_d3_scale(d, 1.0 / sqrt(spx_d3_len2(d)));
    if (c->state == 0) {
        c->dir[0] = (float)d.x, c->dir[1] = (float)d.y, c->dir[2] = (float)d.z;
        c->state = 1;
        return;
    }
    /* Along the first edge or straight on past the vertex: still a line. */
    const spx_dvec3 f = spx_d3(c->dir[0], c->dir[1], c->dir[2]);
    if (spx_d3_len2(spx_d3_cross(d, f)) > SPX_EDGE_FLAT_ANGLE * SPX_EDGE_FLAT_ANGLE) c->state = 2;
}

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

spx_result spx_mesh_topology(const spx_mesh_def* def, const uint32_t* source, uint32_t kept,
                             const spx_allocator* allocator, bool* out_closed, spx_mesh_edges* out_edges)
{
    const size_t nv = def->vertex_count, nt = def->triangle_count, ne = 3 * nt;
    if (nv > SIZE_MAX / 64 || ne > SIZE_MAX / 64) return SPX_ERR_OUT_OF_MEMORY;
    /* One region serves the weld's keys, then the edge keys and corner states. */
    const size_t off_kept = align8(sizeof(uint32_t) * nv);
    const size_t off_region = align8(off_kept + sizeof(uint32_t) * nt);
    const size_t weld_bytes = 24 * nv;
    const size_t off_tri = 16 * ne, off_corner = align8(off_tri + 8 * ne);
    const size_t edge_bytes = off_corner + sizeof(corner_state) * nv;
    const size_t bytes = off_region + (weld_bytes > edge_bytes ? weld_bytes : edge_bytes);
    char* block = spx_alloc(allocator, bytes, 8);
    if (!block) return SPX_ERR_OUT_OF_MEMORY;
    uint32_t* rep = (uint32_t*)(void*)block;
    uint32_t* mesh_index = (uint32_t*)(void*)(block + off_kept);
    char* region = block + off_region;

    weld(def->vertices, def->vertex_count, rep, (uint64_t*)(void*)region, (uint64_t*)(void*)region + nv,
         (uint32_t*)(void*)((uint64_t*)(void*)region + 2 * nv),
         (uint32_t*)(void*)((uint64_t*)(void*)region + 2 * nv) + nv);

    /* Which def triangles are the mesh's, and usable for turns: kept and not segment-like. */
    const uint32_t none = 0xFFFFFFFFu;
    for (size_t t = 0; t < nt; ++t) mesh_index[t] = none;
    for (uint32_t i = 0; i < kept; ++i) {
        const bool seg = segment_like(def, source[i]);
        mesh_index[source[i]] = seg ? none : i;
        for (int j = 0; j < 3; ++j) out_edges[i].angle[j] = SPX_EDGE_PACKED_OPEN;
        out_edges[i].corners = seg ? 7u : 0u;
        out_edges[i].unused = 0;
    }

    /* Edges keyed by welded ends (lower first): sorted, sharing triangles are side by side. */
    uint64_t* keys = (uint64_t*)(void*)region;
    uint64_t* tmp_keys = keys + ne;
    uint32_t* tri = (uint32_t*)(void*)(region + off_tri);
    uint32_t* tmp_tri = tri + ne;
    size_t m = 0;
    for (size_t t = 0; t < nt; ++t) {
        const uint32_t* idx = def->indices + 3 * t;
        const uint64_t c[3] = { rep[idx[0]], rep[idx[1]], rep[idx[2]] };
        if (c[0] == c[1] || c[1] == c[2] || c[2] == c[0]) continue; /* a->b and b->a of its own: nothing */
        for (int k = 0; k < 3; ++k) {
            const uint64_t a = c[k], b = c[(k + 1) % 3];
            keys[m] = a < b ? a << 32 | b : b << 32 | a;
            tri[m] = (uint32_t)t;
            ++m;
        }
    }
    spx_radix_sort_u64(keys, tri, tmp_keys, tmp_tri, m);

    /* Each run of equal keys is one edge of the surface. */
    corner_state* corners = (corner_state*)(void*)(region + off_corner);
    memset(corners, 0, sizeof(corner_state) * nv);
    bool closed = m > 0;
    for (size_t r = 0; r < m;) {
        size_t end = r + 1;
        while (end < m && keys[end] == keys[r]) ++end;
        const uint32_t lo = (uint32_t)(keys[r] >> 32), hi = (uint32_t)keys[r];
        /* Closed needs exactly two, running opposite ways. */
        int usable = 0;
        size_t use[2] = { 0, 0 };
        bool forward_seen = false, backward_seen = false;
        for (size_t q = r; q < end; ++q) {
            const uint32_t* idx = def->indices + 3 * (size_t)tri[q];
            for (int k = 0; k < 3; ++k)
                if (rep[idx[k]] == lo && rep[idx[(k + 1) % 3]] == hi) forward_seen = true;
                else if (rep[idx[k]] == hi && rep[idx[(k + 1) % 3]] == lo) backward_seen = true;
            if (mesh_index[tri[q]] != none) {
                if (usable < 2) use[usable] = q;
                ++usable;
            }
        }
        closed = closed && end - r == 2 && forward_seen && backward_seen;
        if (usable == 2) {
            for (int side = 0; side < 2; ++side) {
                const uint32_t t = tri[use[side]], other = tri[use[1 - side]];
                const uint32_t* idx = def->indices + 3 * (size_t)t;
                const uint32_t* oidx = def->indices + 3 * (size_t)other;
                int k = 0;
                while (!((rep[idx[k]] == lo || rep[idx[k]] == hi) &&
                         (rep[idx[(k + 1) % 3]] == lo || rep[idx[(k + 1) % 3]] == hi)))
                    ++k;
                int w = 0;
                while (rep[oidx[w]] == lo || rep[oidx[w]] == hi) ++w;
                out_edges[mesh_index[t]].angle[k] = pack_turn(turn(def, t, k, vertex(def, other, w)));
            }
        }
        /* A sharp edge marks both ends; a turn is the same seen from either side. */
        for (size_t q = r; q < end; ++q) {
            const uint32_t t = tri[q];
            if (mesh_index[t] == none) continue;
            const uint32_t* idx = def->indices + 3 * (size_t)t;
            int k = 0;
            while (!((rep[idx[k]] == lo || rep[idx[k]] == hi) &&
                     (rep[idx[(k + 1) % 3]] == lo || rep[idx[(k + 1) % 3]] == hi)))
                ++k;
            if (out_edges[mesh_index[t]].angle[k] == 0) continue;
            const spx_dvec3 a = vertex(def, t, k), b = vertex(def, t, (k + 1) % 3);
            corner_add(&corners[rep[idx[k]]], a, b);
            corner_add(&corners[rep[idx[(k + 1) % 3]]], b, a);
        }
        r = end;
    }
    for (uint32_t i = 0; i < kept; ++i) {
        const uint32_t* idx = def->indices + 3 * (size_t)source[i];
        if (mesh_index[source[i]] == none) continue;
        for (int k = 0; k < 3; ++k)
            if (corners[rep[idx[k]]].state == 2) out_edges[i].corners |= (uint8_t)(1u << k);
    }
    spx_free(allocator, block, bytes);
    *out_closed = closed;
    return SPX_OK;
}
