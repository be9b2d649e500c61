/* Hull against triangle: the triangle as a flat hull view (each edge's half-circle arc split at its side's normal
 * into two quarter arcs), through sat_hull.c's loop, two-sided. See
 * docs/collision.md#hulls-against-triangles-and-meshes. */
#include "sat_hull_triangle.h"
#include "geometry/validate.h"
#include <string.h>

static const spx_mat3 world_axes = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

static spx_dvec3 square_to(spx_dvec3 u)
{
    const spx_dvec3 v = fabs(u.x) < 0.57735 ? spx_d3(0, -u.z, u.y) : spx_d3(-u.y, u.x, 0);
    return spx_d3_scale(v, 1.0 / sqrt(spx_d3_len2(v)));
}

static void triangle_view(const spx_triangle* t, spx_triangle_view* out)
{
    spx_dvec3 p[3], e[3];
    for (int k = 0; k < 3; ++k) out->vertices[k] = t->v[k], p[k] = spx_d3_from(t->v[k]);
    int longest = 0;
    for (int j = 0; j < 3; ++j) {
        e[j] = spx_d3_sub(p[(j + 1) % 3], p[j]);
        if (spx_d3_len2(e[j]) > spx_d3_len2(e[longest])) longest = j;
    }
    const double l2 = spx_d3_len2(e[longest]);
    const spx_dvec3 along = spx_d3_scale(e[longest], 1.0 / sqrt(l2));
    spx_dvec3 n = spx_d3_cross(e[0], spx_d3_sub(p[2], p[0]));
    /* Corners on one line: a segment, any plane through it; the normal and sides both ways still span its Gauss map.
       Every edge is the whole segment, so edge-pair closest points do not depend on which edge the loop met first. */
    const bool segment = !(spx_d3_len2(n) > SPX_TRIANGLE_FLAT_RATIO * SPX_TRIANGLE_FLAT_RATIO * l2 * l2);
    n = segment ? square_to(along) : spx_d3_scale(n, 1.0 / sqrt(spx_d3_len2(n)));
    const double offset = spx_d3_dot(n, p[0]);
    out->faces[0] = (spx_hull_plane){ n, offset, 0, 3, 0 };
    out->faces[1] = (spx_hull_plane){ spx_d3_neg(n), -offset, 3, 3, 0 };
    static const uint8_t loops[6] = { 0, 1, 2, 0, 2, 1 };
    memcpy(out->corners, loops, sizeof loops);
    for (int j = 0; j < 3; ++j) {
        uint8_t i0 = (uint8_t)j, i1 = (uint8_t)((j + 1) % 3);
        if (segment) {
            const bool same_way = spx_d3_dot(e[j], e[longest]) >= 0.0;
            i0 = (uint8_t)(same_way ? longest : (longest + 1) % 3);
            i1 = (uint8_t)(same_way ? (longest + 1) % 3 : longest);
        }
        /* A segment's sides face square to it (its edges are all the segment): from a short side's own direction
           they would not, and an edge pair's arcs would cross where the pieces' Minkowski faces do not. */
        spx_dvec3 s = spx_d3_cross(segment ? spx_d3_sub(p[i1], p[i0]) : e[j], n);
        /* A side of no length (two corners at one point) still gets a direction square to the normal. */
        const double s2 = spx_d3_len2(s);
        s = s2 > 0.0 ? spx_d3_scale(s, 1.0 / sqrt(s2)) : spx_d3_cross(along, n);
        out->faces[2 + j] = (spx_hull_plane){ s, spx_d3_dot(s, p[i0]), (uint16_t)(6 + 2 * j), 2, i1 };
        out->corners[6 + 2 * j] = i1;
        out->corners[7 + 2 * j] = i0;
        out->edges[2 * j] = (spx_hull_edge){ { i0, i1 }, { 0, (uint16_t)(2 + j) } };
        out->edges[2 * j + 1] = (spx_hull_edge){ { i1, i0 }, { (uint16_t)(2 + j), 1 } };
    }
    const spx_dvec3 c = spx_d3_scale(spx_d3_add(spx_d3_add(p[0], p[1]), p[2]), 1.0 / 3.0);
    double r2 = 0.0;
    for (int k = 0; k < 3; ++k) r2 = spx_dmax(r2, spx_d3_len2(spx_d3_sub(p[k], c)));
    out->view = (spx_hull_view){ .vertices = out->vertices,
                                 .faces = out->faces,
                                 .corners = out->corners,
                                 .edges = out->edges,
                                 .vertex_count = 3,
                                 .face_count = SPX_TRIANGLE_VIEW_FACES,
                                 .edge_count = SPX_TRIANGLE_VIEW_EDGES,
                                 .center = c,
                                 .radius = sqrt(r2),
                                 .opposite_pairs = 1 };
}

void spx_hull_query_triangle(const spx_triangle* t, spx_triangle_view* tv, spx_hull_query* q)
{
    triangle_view(t, tv);
    q->b = &tv->view;
    q->pb = (spx_vec3){ 0.0f, 0.0f, 0.0f };
    q->rb = &world_axes;
    q->b_reference = -1;
    q->b_reference_cos = -2.0;
    q->b_salt = 0;
}

/* Checks in base.h's order (pointers, the hull's pose, the triangle); when all pass, the view in *tv and its query in
   *q. */
static spx_result triangle_query(const spx_placed_hull* a, const spx_triangle* b, const void* out,
                                 spx_triangle_view* tv, spx_hull_query* q)
{
    if (!a || !b || !out || !a->hull) return SPX_ERR_INVALID_ARGUMENT;
    const spx_result r = spx_first_error(spx_hull_check_placed(a), spx_triangle_validate(b));
    if (r == SPX_OK) spx_hull_query_triangle(b, tv, q);
    return r;
}

SPX_API spx_result spx_overlap_hull_triangle(const spx_placed_hull* a, const spx_triangle* b, bool* out_overlap)
{
    spx_triangle_view tv;
    spx_hull_query q;
    return spx_hull_answer_overlap(a, triangle_query(a, b, out_overlap, &tv, &q), &q, out_overlap);
}

SPX_API spx_result spx_penetration_hull_triangle(const spx_placed_hull* a, const spx_triangle* b, spx_penetration* out)
{
    spx_triangle_view tv;
    spx_hull_query q;
    return spx_hull_answer_penetration(a, triangle_query(a, b, out, &tv, &q), &q, out);
}

SPX_API spx_result spx_sweep_hull_triangle(const spx_placed_hull* a, spx_vec3 velocity_a, const spx_triangle* b,
                                           spx_vec3 velocity_b, float tmax, spx_sweep_hit* out)
{
    spx_triangle_view tv;
    spx_hull_query q;
    return spx_hull_answer_sweep(a, velocity_a, triangle_query(a, b, out, &tv, &q), &q, velocity_b, tmax, out);
}

SPX_API spx_result spx_manifold_hull_triangle(const spx_placed_hull* a, const spx_triangle* b, float margin,
                                              spx_manifold* out)
{
    spx_triangle_view tv;
    spx_hull_query q;
    return spx_hull_answer_manifold(a, triangle_query(a, b, out, &tv, &q), &q, margin, out);
}
