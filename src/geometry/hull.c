/* Convex hulls: the def, the face checks and the block a hull owns. Mass is exact: face fans as
 * signed tetrahedra about the mean corner, as mass.c does for meshes. See docs/shapes.md#convex-hulls. */
#include "hull.h"
#include "core/allocator.h"
#include "validate.h"
#include <float.h>
#include <string.h>

SPX_API spx_hull_def spx_default_hull_def(void)
{
    spx_hull_def def;
    memset(&def, 0, sizeof def);
    def.internal_cookie = SPX_HULL_DEF_COOKIE;
    return def;
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

#define NO_EDGE 0xFFFFu

/* Scratch for the checks and the edge table, freed before spx_hull_from_loops returns. */
typedef struct loop_scratch {
    void* block;
    size_t bytes;
    uint16_t* corner_of; /* point -> corner number, NO_EDGE when unused */
    uint16_t* edge_of;   /* corner a * V + corner b -> edge running a to b in some loop */
} loop_scratch;

/* Newell's normal of a loop (twice its vector area), about p0 to keep far hulls exact enough. */
static spx_dvec3 loop_area(const spx_dvec3* v, const uint8_t* c, uint32_t n)
{
    spx_dvec3 s = spx_d3(0, 0, 0);
    const spx_dvec3 o = v[c[0]];
    for (uint32_t i = 1; i + 1 < n; ++i)
        s = spx_d3_add(s, spx_d3_cross(spx_d3_sub(v[c[i]], o), spx_d3_sub(v[c[i + 1]], o)));
    return s;
}

uint32_t spx_hull_opposite_pairs(const spx_hull_plane* faces, uint32_t count)
{
    uint32_t k = 0;
    while (2 * k + 1 < count) {
        const spx_dvec3 n = faces[2 * k].normal, m = faces[2 * k + 1].normal;
        if (!(m.x == -n.x && m.y == -n.y && m.z == -n.z)) break;
        ++k;
    }
    return k;
}

spx_result spx_hull_from_loops(const spx_hull_loops* loops, bool check, double size, const spx_allocator* allocator,
                               spx_hull** out)
{
    const uint32_t F = loops->loop_count;
    size_t total = 0;
    for (uint32_t f = 0; f < F; ++f) {
        if (loops->sizes[f] < 3) return SPX_ERR_INVALID_ARGUMENT;
        total += loops->sizes[f];
    }
    if (F > 2 * SPX_HULL_MAX_CORNERS || total > 6 * SPX_HULL_MAX_CORNERS) return SPX_ERR_TOO_MANY_CORNERS;

    loop_scratch s;
    const size_t edge_table = align_up(sizeof(uint16_t) * SPX_HULL_MAX_CORNERS * SPX_HULL_MAX_CORNERS, 16);
    s.bytes = align_up(sizeof(uint16_t) * (size_t)loops->point_count, 16) + edge_table +
              sizeof(spx_dvec3) * SPX_HULL_MAX_CORNERS;
    s.block = spx_alloc(allocator, s.bytes, 16);
    if (!s.block) return SPX_ERR_OUT_OF_MEMORY;
    s.corner_of = s.block;
    s.edge_of = (uint16_t*)((char*)s.block + align_up(sizeof(uint16_t) * (size_t)loops->point_count, 16));
    spx_dvec3* dv = (spx_dvec3*)((char*)s.edge_of + edge_table);
    memset(s.corner_of, 0xFF, sizeof(uint16_t) * (size_t)loops->point_count);

    spx_result r = SPX_OK;
    uint32_t V = 0;
    uint32_t order[SPX_HULL_MAX_CORNERS]; /* corner -> point */
    for (size_t k = 0; k < total && r == SPX_OK; ++k) {
        const uint32_t p = loops->corners[k];
        if (s.corner_of[p] != NO_EDGE) continue;
        if (V == SPX_HULL_MAX_CORNERS) r = SPX_ERR_TOO_MANY_CORNERS;
        else {
            order[V] = p;
            s.corner_of[p] = (uint16_t)V++;
        }
    }
    /* Corners about their mean: exact enough for a hull far from the origin. */
    spx_dvec3 center = spx_d3(0, 0, 0);
    for (uint32_t i = 0; i < V; ++i) center = spx_d3_add(center, spx_d3_from(loops->points[order[i]]));
    if (V > 0) center = spx_d3_scale(center, 1.0 / V);
    double radius = 0.0;
    for (uint32_t i = 0; i < V; ++i) {
        dv[i] = spx_d3_sub(spx_d3_from(loops->points[order[i]]), center);
        radius = spx_dmax(radius, spx_d3_len2(dv[i]));
    }
    radius = sqrt(radius);
    const double tol = (double)SPX_HULL_PLANE_TOLERANCE * size;

    /* The block: the struct, corners, planes, loops, edges. */
    const size_t off_vertices = align_up(sizeof(spx_hull), 16);
    const size_t off_faces = align_up(off_vertices + sizeof(spx_vec3) * V, 16);
    const size_t off_corners = off_faces + sizeof(spx_hull_plane) * F;
    const size_t off_edges = align_up(off_corners + total, 16);
    const size_t edge_cap = 3 * (size_t)V; /* E = V + F - 2 < 3V for a closed hull */
    const size_t bytes = off_edges + sizeof(spx_hull_edge) * edge_cap;
    char* block = r == SPX_OK ? spx_alloc(allocator, bytes, 16) : NULL;
    if (r == SPX_OK && !block) r = SPX_ERR_OUT_OF_MEMORY;
    if (r != SPX_OK) {
        spx_free(allocator, s.block, s.bytes);
        return r;
    }
    spx_hull* hull = (spx_hull*)block;
    memset(hull, 0, sizeof *hull);
    spx_vec3* vertices = (spx_vec3*)(block + off_vertices);
    spx_hull_plane* faces = (spx_hull_plane*)(block + off_faces);
    uint8_t* corners = (uint8_t*)(block + off_corners);
    spx_hull_edge* edges = (spx_hull_edge*)(block + off_edges);
    for (uint32_t i = 0; i < V; ++i) vertices[i] = loops->points[order[i]];

    /* Loops in corner numbers; a corner twice in one loop is a bad face. */
    size_t k = 0;
    for (uint32_t f = 0; f < F && r == SPX_OK; ++f) {
        const uint32_t n = loops->sizes[f];
        faces[f].first = (uint16_t)k;
        faces[f].count = (uint16_t)n;
        for (uint32_t i = 0; i < n; ++i) {
            const uint8_t c = (uint8_t)s.corner_of[loops->corners[k + i]];
            for (uint32_t j = 0; j < i; ++j)
                if (corners[k + j] == c) r = SPX_ERR_INVALID_ARGUMENT;
            corners[k + i] = c;
        }
        k += n;
    }

    /* Edges: each loop edge a -> b meets its twin b -> a in another loop exactly once. */
    uint32_t E = 0;
    memset(s.edge_of, 0xFF, sizeof(uint16_t) * SPX_HULL_MAX_CORNERS * SPX_HULL_MAX_CORNERS);
    for (uint32_t f = 0; f < F && r == SPX_OK; ++f) {
        const uint8_t* c = corners + faces[f].first;
        const uint32_t n = faces[f].count;
        for (uint32_t i = 0; i < n && r == SPX_OK; ++i) {
            const uint32_t a = c[i], b = c[(i + 1) % n];
            if (s.edge_of[a * SPX_HULL_MAX_CORNERS + b] != NO_EDGE) r = SPX_ERR_MESH_NOT_CLOSED;
            else if (s.edge_of[b * SPX_HULL_MAX_CORNERS + a] != NO_EDGE) {
                const uint16_t e = s.edge_of[b * SPX_HULL_MAX_CORNERS + a];
                edges[e].face[1] = (uint16_t)f;
                s.edge_of[a * SPX_HULL_MAX_CORNERS + b] = e;
            } else if (E == edge_cap) r = SPX_ERR_MESH_NOT_CLOSED;
            else {
                edges[E] = (spx_hull_edge){ { (uint8_t)a, (uint8_t)b }, { (uint16_t)f, NO_EDGE } };
                s.edge_of[a * SPX_HULL_MAX_CORNERS + b] = (uint16_t)E++;
            }
        }
    }
    for (uint32_t e = 0; e < E && r == SPX_OK; ++e)
        if (edges[e].face[1] == NO_EDGE) r = SPX_ERR_MESH_NOT_CLOSED;
    if (r == SPX_OK && (int64_t)V - (int64_t)E + (int64_t)F != 2) r = SPX_ERR_MESH_NOT_CLOSED;

    /* Signed volume and moments by tetrahedra from the mean of the corners (the origin of dv). */
    double volume = 0.0, first[3] = { 0, 0, 0 }, second[3][3] = { { 0 } };
    for (uint32_t f = 0; f < F && r == SPX_OK; ++f) {
        const uint8_t* c = corners + faces[f].first;
        for (uint32_t i = 1; i + 1 < faces[f].count; ++i) {
            const spx_dvec3 p[3] = { dv[c[0]], dv[c[i]], dv[c[i + 1]] };
            const double det = spx_d3_dot(p[0], spx_d3_cross(p[1], p[2]));
            const spx_dvec3 sum = spx_d3_add(spx_d3_add(p[0], p[1]), p[2]);
            const double sv[3] = { sum.x, sum.y, sum.z };
            volume += det / 6.0;
            for (int a = 0; a < 3; ++a) first[a] += det / 24.0 * sv[a];
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) {
                    double m = sv[a] * sv[b];
                    for (int q = 0; q < 3; ++q) {
                        const double pq[3] = { p[q].x, p[q].y, p[q].z };
                        m += pq[a] * pq[b];
                    }
                    second[a][b] += det / 120.0 * m;
                }
        }
    }
    /* No volume within the tolerance: the faces of a flat piece, both sides of one polygon. */
    if (r == SPX_OK && fabs(volume) <= tol * size * size) r = SPX_ERR_FLAT_HULL;
    else if (r == SPX_OK && volume < 0.0) r = SPX_ERR_MESH_INSIDE_OUT;

    /* Newell's normal, offset by the farthest corner, so every corner is on or below every plane. */
    for (uint32_t f = 0; f < F && r == SPX_OK; ++f) {
        const uint8_t* c = corners + faces[f].first;
        const uint32_t n = faces[f].count;
        spx_dvec3 a = loop_area(dv, c, n);
        const double len = sqrt(spx_d3_len2(a));
        if (!(len > 0.0)) {
            r = check ? SPX_ERR_ZERO_AREA : SPX_ERR_FLAT_HULL;
            break;
        }
        const spx_dvec3 nrm = spx_d3_scale(a, 1.0 / len);
        double lo = DBL_MAX, hi = -DBL_MAX;
        for (uint32_t i = 0; i < n; ++i) {
            const double d = spx_d3_dot(nrm, dv[c[i]]);
            lo = spx_dmin(lo, d);
            hi = spx_dmax(hi, d);
        }
        double best = -DBL_MAX;
        uint32_t top = 0;
        for (uint32_t i = 0; i < V; ++i) {
            const double d = spx_d3_dot(nrm, dv[i]);
            if (d > best) best = d, top = i;
        }
        const double offset = spx_dmax(hi, best);
        /* Faces merged within the build tolerance are not flat: the plane passes through the farthest corner. */
        faces[f].far = (uint8_t)(offset - spx_d3_dot(nrm, dv[c[0]]) > 1e-12 * size ? top : c[0]);
        if (check) {
            if (len <= tol * size) r = SPX_ERR_ZERO_AREA;
            else if (hi - lo > tol || offset - hi > tol) r = SPX_ERR_NOT_CONVEX;
            /* Each corner turns the same way as the face (counter-clockwise about its normal). */
            for (uint32_t i = 0; i < n && r == SPX_OK; ++i) {
                const spx_dvec3 e0 = spx_d3_sub(dv[c[(i + 1) % n]], dv[c[i]]);
                const spx_dvec3 e1 = spx_d3_sub(dv[c[(i + 2) % n]], dv[c[(i + 1) % n]]);
                if (spx_d3_dot(spx_d3_cross(e0, e1), nrm) < -tol * sqrt(spx_d3_len2(e0) + spx_d3_len2(e1)))
                    r = SPX_ERR_NOT_CONVEX;
            }
        }
        faces[f].normal = nrm;
        faces[f].offset = offset + spx_d3_dot(nrm, center);
    }
    spx_free(allocator, s.block, s.bytes);
    if (r != SPX_OK) {
        spx_free(allocator, block, bytes);
        return r;
    }

    hull->view =
        (spx_hull_view){ vertices, faces, corners, edges, V, F, E, center, radius, spx_hull_opposite_pairs(faces, F) };
    hull->volume = volume;
    const spx_dvec3 c = spx_d3(first[0] / volume, first[1] / volume, first[2] / volume);
    const double cv[3] = { c.x, c.y, c.z };
    hull->mass_center = spx_d3_add(center, c);
    /* About the centre of mass (parallel axes), then I = tr(C) 1 - C of the second moment C. */
    double C[3][3];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) C[a][b] = second[a][b] - volume * cv[a] * cv[b];
    const double trace = C[0][0] + C[1][1] + C[2][2];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) hull->inertia[a][b] = (a == b ? trace : 0.0) - C[a][b];
    hull->allocator = allocator ? *allocator : (spx_allocator){ 0 };
    hull->bytes = bytes;
    *out = hull;
    return SPX_OK;
}

static spx_result check_def(const spx_hull_def* def)
{
    if (def->internal_cookie != SPX_HULL_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    if (def->allocator && (!def->allocator->alloc || !def->allocator->free)) return SPX_ERR_INVALID_ARGUMENT;
    if (!def->points || def->point_count < 4) return SPX_ERR_INVALID_ARGUMENT;
    if (def->face_count > 0 && (!def->face_corners || !def->face_sizes)) return SPX_ERR_INVALID_ARGUMENT;
    if (def->face_count > 2 * SPX_HULL_MAX_CORNERS) return SPX_ERR_TOO_MANY_CORNERS;
    size_t total = 0;
    for (uint32_t f = 0; f < def->face_count; ++f) {
        if (def->face_sizes[f] < 3) return SPX_ERR_INVALID_ARGUMENT;
        total += def->face_sizes[f];
        if (total > 6 * SPX_HULL_MAX_CORNERS) return SPX_ERR_TOO_MANY_CORNERS;
    }
    for (uint32_t i = 0; i < def->point_count; ++i)
        if (!spx_finite3(def->points[i])) return SPX_ERR_NOT_FINITE;
    for (uint32_t i = 0; i < def->point_count; ++i)
        if (!spx_in_range3(def->points[i])) return SPX_ERR_OUT_OF_RANGE;
    for (size_t k = 0; k < total; ++k)
        if (def->face_corners[k] >= def->point_count) return SPX_ERR_INDEX_OUT_OF_RANGE;
    return SPX_OK;
}

SPX_API spx_result spx_hull_create(const spx_hull_def* def, spx_hull** out)
{
    if (!def || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_def(def);
    if (r != SPX_OK) return r;
    if (def->face_count == 0) return spx_quickhull(def->points, def->point_count, def->allocator, out);
    /* Size: the diagonal of the bounding box of the faces' corners. */
    size_t total = 0;
    for (uint32_t f = 0; f < def->face_count; ++f) total += def->face_sizes[f];
    spx_dvec3 lo = spx_d3(DBL_MAX, DBL_MAX, DBL_MAX), hi = spx_d3(-DBL_MAX, -DBL_MAX, -DBL_MAX);
    for (size_t k = 0; k < total; ++k) {
        const spx_dvec3 p = spx_d3_from(def->points[def->face_corners[k]]);
        lo = spx_d3(spx_dmin(lo.x, p.x), spx_dmin(lo.y, p.y), spx_dmin(lo.z, p.z));
        hi = spx_d3(spx_dmax(hi.x, p.x), spx_dmax(hi.y, p.y), spx_dmax(hi.z, p.z));
    }
    const double size = sqrt(spx_d3_len2(spx_d3_sub(hi, lo)));
    if (!(size > 0.0)) return SPX_ERR_FLAT_HULL;
    const spx_hull_loops loops = { def->points, def->face_corners, def->face_sizes, def->face_count, def->point_count };
    return spx_hull_from_loops(&loops, true, size, def->allocator, out);
}

SPX_API void spx_hull_destroy(spx_hull* hull)
{
    if (!hull) return;
    spx_free_self(&hull->allocator, hull, hull->bytes);
}

SPX_API spx_result spx_hull_get_info(const spx_hull* hull, spx_hull_info* out)
{
    if (!hull || !out) return SPX_ERR_INVALID_ARGUMENT;
    *out = (spx_hull_info){ hull->view.vertex_count, hull->view.face_count, hull->view.edge_count, hull->bytes };
    return SPX_OK;
}

SPX_API spx_result spx_hull_get_corner(const spx_hull* hull, uint32_t i, spx_vec3* out)
{
    if (!hull || !out || i >= hull->view.vertex_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = hull->view.vertices[i];
    return SPX_OK;
}

SPX_API spx_result spx_hull_get_face(const spx_hull* hull, uint32_t i, spx_hull_face* out)
{
    if (!hull || !out || i >= hull->view.face_count) return SPX_ERR_INVALID_ARGUMENT;
    const spx_hull_plane* f = &hull->view.faces[i];
    *out = (spx_hull_face){ spx_d3_to_float(f->normal), (float)f->offset, f->count, hull->view.corners + f->first };
    return SPX_OK;
}

SPX_API spx_result spx_hull_get_edge(const spx_hull* hull, uint32_t i, spx_hull_edge* out)
{
    if (!hull || !out || i >= hull->view.edge_count) return SPX_ERR_INVALID_ARGUMENT;
    *out = hull->view.edges[i];
    return SPX_OK;
}

/* Within float's range, compared in double before converting. */
static bool fits_float(double x) { return x <= FLT_MAX && x >= -FLT_MAX; }

SPX_API spx_result spx_mass_hull(const spx_hull* hull, float density, spx_mass_properties* out)
{
    if (!hull || !out) return SPX_ERR_INVALID_ARGUMENT;
    if (!isfinite(density)) return SPX_ERR_NOT_FINITE;
    if (!(density > 0.0f)) return SPX_ERR_BAD_DENSITY;
    const double mass = hull->volume * (double)density;
    if (!fits_float(mass) || !fits_float(hull->volume) || mass < FLT_MIN || hull->volume < FLT_MIN)
        return SPX_ERR_MASS_OUT_OF_RANGE;
    double I[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            I[i][j] = hull->inertia[i][j] * (double)density;
            if (!fits_float(I[i][j])) return SPX_ERR_MASS_OUT_OF_RANGE;
        }
    for (int i = 0; i < 3; ++i)
        if (I[i][i] < FLT_MIN) return SPX_ERR_MASS_OUT_OF_RANGE;
    out->mass = (float)mass;
    out->volume = (float)hull->volume;
    out->center = spx_d3_to_float(hull->mass_center);
    for (int c = 0; c < 3; ++c) out->inertia.col[c] = spx_v3((float)I[0][c], (float)I[1][c], (float)I[2][c]);
    return SPX_OK;
}

/* Loops counter-clockwise from outside; edges in the loops' order of first meeting. */
static const uint8_t box_corners[24] = { 1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1 };
static const spx_hull_edge box_edges[12] = {
    { { 1, 3 }, { 0, 5 } }, { { 3, 7 }, { 0, 2 } }, { { 7, 5 }, { 0, 4 } }, { { 5, 1 }, { 0, 3 } },
    { { 0, 4 }, { 1, 3 } }, { { 4, 6 }, { 1, 4 } }, { { 6, 2 }, { 1, 2 } }, { { 2, 0 }, { 1, 5 } },
    { { 6, 7 }, { 2, 4 } }, { { 3, 2 }, { 2, 5 } }, { { 0, 1 }, { 3, 5 } }, { { 5, 4 }, { 3, 4 } },
};

void spx_hull_box_view(spx_vec3 h, spx_vec3 vertices[8], spx_hull_plane faces[6], spx_hull_view* out)
{
    for (int c = 0; c < 8; ++c) vertices[c] = spx_v3(c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z);
    const double hh[3] = { h.x, h.y, h.z };
    for (int k = 0; k < 3; ++k) {
        const spx_dvec3 e = spx_d3(k == 0, k == 1, k == 2);
        faces[2 * k] = (spx_hull_plane){ e, hh[k], (uint16_t)(8 * k), 4, box_corners[8 * k] };
        faces[2 * k + 1] = (spx_hull_plane){ spx_d3_neg(e), hh[k], (uint16_t)(8 * k + 4), 4, box_corners[8 * k + 4] };
    }
    *out = (spx_hull_view){ vertices,
                            faces,
                            box_corners,
                            box_edges,
                            8,
                            6,
                            12,
                            spx_d3(0, 0, 0),
                            sqrt((double)h.x * h.x + (double)h.y * h.y + (double)h.z * h.z),
                            3 };
}
