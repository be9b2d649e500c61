/* Box-mesh contact manifolds: the box-triangle manifolds (surface edges) of the triangles the grown
 * box reaches, merged by normal; leaders deepest first (ties to the lower def number), so the result
 * does not depend on the tree's order. See docs/meshes.md#contact-manifolds. */
#include "manifold_mesh.h"
#include "manifold_triangle.h"
#include "manifold_group.h"
#include "mesh_descent.h"
#include "geometry/validate.h"
#include <float.h>
#include <string.h>

#define CACHE_TRIANGLES 32

typedef struct tri_entry {
    spx_tri_manifold m;
    uint32_t source;
    float deepest;
} tri_entry;

typedef struct mesh_manifold {
    const spx_obb* box;
    spx_mesh_instance* inst;
    float margin;
    float same; /* points closer than this are one (SPX_TRI_SAME_POINT) */
    bool surface_edges;
    /* The triangles found, while they fit. */
    tri_entry cache[CACHE_TRIANGLES];
    uint32_t cached;
    bool overflow;
    /* Leaders, and the best next one among triangles none takes. */
    spx_group_leaders leaders;
} mesh_manifold;

/* Contact plane directions: the box axes farthest from the normal. */
static void group_start(mesh_manifold* mm, spx_vec3 normal)
{
    const spx_vec3* ax = mm->box->rotation.col;
    int k = 0;
    for (int i = 1; i < 3; ++i)
        if (fabsf(spx_group_dot(ax[i], normal)) > fabsf(spx_group_dot(ax[k], normal))) k = i;
    spx_point_group* g = &mm->leaders.groups[mm->leaders.count++];
    /* Lean capped: leaning by every gap, a tumbling box keeps only its lowest corners and the dropped
       ones swing into the ground within the step. */
    spx_group_init(g, normal, ax[(k + 1) % 3], ax[(k + 2) % 3], mm->box->center, SPX_GROUP_LEAN_GAP);
}

static void take(mesh_manifold* mm, const tri_entry* e)
{
    const uint32_t g = spx_group_find(mm->leaders.groups, mm->leaders.count, e->m.normal);
    if (g == mm->leaders.count) { /* no leader takes it: a candidate for the next one */
        spx_leaders_offer(&mm->leaders, e->deepest, e->source, e->m.normal);
        return;
    }
    /* Re-offering changes nothing. A box corner beats a crossing at the same place within a few float
       steps: its id stays. */
    spx_point_group* gr = &mm->leaders.groups[g];
    const float scale = spx_group_dot(e->m.normal, gr->normal);
    for (int i = 0; i < e->m.point_count; ++i) {
        spx_manifold_point p = e->m.points[i];
        p.depth *= scale;
        const bool corner = p.id < SPX_TRI_CODE_TRI_FEATURE;
        if (!corner) p.id |= e->source << 6;
        spx_group_offer(gr, &p, corner ? mm->same : 0.0f);
    }
}

/* One triangle (leaf order) during a descent. */
static bool visit(void* context, uint32_t t)
{
    mesh_manifold* mm = context;
    spx_mesh_instance* inst = mm->inst;
    tri_entry e;
    spx_triangle_edges edges = spx_mesh_edges_unpack(inst->mesh->edges[t]);
    spx_manifold_obb_triangle_checked(mm->box, &inst->triangles[t], mm->surface_edges ? &edges : NULL, mm->margin,
                                      SPX_TRI_MANIFOLD_POINTS, &e.m);
    if (e.m.point_count == 0) return false;
    e.source = inst->mesh->source[t];
    e.deepest = -FLT_MAX;
    for (int i = 0; i < e.m.point_count; ++i)
        e.deepest = e.m.points[i].depth > e.deepest ? e.m.points[i].depth : e.deepest;
    if (mm->cached < CACHE_TRIANGLES) mm->cache[mm->cached++] = e;
    else mm->overflow = true;
    take(mm, &e);
    return false;
}

/* Re-offers every triangle manifold: from the cache, or by descending again. */
static void replay(mesh_manifold* mm, const spx_obb* grown)
{
    if (!mm->overflow) {
        for (uint32_t i = 0; i < mm->cached; ++i) take(mm, &mm->cache[i]);
        return;
    }
    mm->cached = CACHE_TRIANGLES; /* full: visit() only offers */
    spx_descend_visit(grown, mm->inst, visit, mm);
}

void spx_manifold_obb_mesh_checked(const spx_obb* a, spx_mesh_instance* b, float margin, bool surface_edges,
                                   spx_manifold* out, uint32_t capacity, uint32_t* out_count)
{
    mesh_manifold state; /* written before read: no need to clear its 6 KB */
    mesh_manifold* mm = &state;
    mm->cached = 0;
    mm->overflow = false;
    mm->leaders.count = 0;
    mm->leaders.found = false;
    mm->box = a;
    mm->inst = b;
    mm->margin = margin;
    mm->surface_edges = surface_edges;
    const float far = fmaxf(fabsf(a->center.x), fmaxf(fabsf(a->center.y), fabsf(a->center.z)));
    mm->same = (float)SPX_TRI_SAME_POINT * (far + a->half_extents.x + a->half_extents.y + a->half_extents.z);
    mm->leaders.max = capacity < SPX_MAX_MESH_MANIFOLDS ? capacity : SPX_MAX_MESH_MANIFOLDS;
    *out_count = 0;
    if (mm->leaders.max == 0) return;

    /* A triangle within the margin of the box lies in the grown box. */
    spx_obb grown = *a;
    float* h = &grown.half_extents.x;
    for (int i = 0; i < 3; ++i) {
        h[i] += margin;
        if (!(h[i] <= FLT_MAX)) h[i] = FLT_MAX;
    }

    /* Leaders deepest first; each pass collects and finds the next; one group takes two passes. */
    spx_descend_visit(&grown, b, visit, mm);
    while (mm->leaders.found) {
        group_start(mm, mm->leaders.found_normal);
        mm->leaders.found = false;
        replay(mm, &grown);
    }
    spx_leaders_finish(&mm->leaders, out, out_count);
}

SPX_API spx_result spx_manifold_obb_mesh(const spx_obb* a, spx_mesh_instance* b, float margin, spx_manifold* out,
                                         uint32_t capacity, uint32_t* out_count)
{
    if (!a || !b || !out_count || (!out && capacity > 0)) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_obb_validate(a), spx_check_margin(margin));
    if (r != SPX_OK) return r;
    spx_manifold_obb_mesh_checked(a, b, margin, true, out, capacity, out_count);
    return SPX_OK;
}
