/* Box-triangle contact manifold, in double, with the surface-edge rule against ghost bumps. Rules and
 * ids: docs/collision.md#box-triangle-contact-manifold, docs/collision.md#feature-ids. */
#include "manifold_triangle.h"
#include "box_triangle.h"
#include "manifold_reduce.h"
#include "geometry/validate.h"

#define TRI_PI 3.14159265358979323846
/* Hysteresis as in manifold.c: triangle face, then box faces, then edges. */
#define TRI_REL_TOL 0.02
#define TRI_ABS_TOL 1e-5
/* As in manifold.c, plus: a near-face edge axis yields only when the faces are within 1e-2 of the
   size (a long triangle edge can make it far shallower). Size: mean half extent and longest edge. */
#define TRI_EDGE_ABS_TOL 1e-3
#define TRI_EDGE_FACE_COS 0.99
#define TRI_EDGE_FACE_TOL 1e-2
/* rad: the axis's rounding; wedges are stored rounded outward (mesh_topology.c). */
#define TRI_WEDGE_SLACK 1e-5
/* Below this sine a box face sees the triangle as a sliver: face corners inside go to the crossings. */
#define TRI_EDGE_ON_SINE 1e-6

#define CODE_TRI_CORNER 8
#define CODE_EDGE_PAIR 26
#define CLIP_MAX 16

static int box_corner(const int s[3]) { return (s[0] > 0) | (s[1] > 0) << 1 | (s[2] > 0) << 2; }

/* Box edge along axis i, on the sides s[] of the other two axes. */
static int box_edge(int i, const int s[3]) { return 4 * i + (s[(i + 1) % 3] > 0) + 2 * (s[(i + 2) % 3] > 0); }

/* Box-frame points midway between the surfaces, with depth and feature code. */
typedef struct clip {
    spx_dvec3 p[CLIP_MAX];
    double depth[CLIP_MAX];
    uint8_t code[CLIP_MAX];
    int n;
    double margin;
    double same; /* distance under which two points are one */
    double same2;
} clip;

/* A box corner on a side plane and its edges' crossing there are one point; the first added (box
   corners, triangle corners, crossings) stays. */
static void clip_add(clip* c, spx_dvec3 mid, double depth, int code)
{
    if (!(-depth <= c->margin) || c->n == CLIP_MAX) return;
    for (int i = 0; i < c->n; ++i)
        if (spx_d3_len2(spx_d3_sub(c->p[i], mid)) <= c->same2) return;
    c->p[c->n] = mid;
    c->depth[c->n] = depth;
    c->code[c->n] = (uint8_t)code;
    ++c->n;
}

static double coord(spx_dvec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }

/* Triangle face as reference (N: box towards it): the box's incident face clipped by its sides. */
static void clip_on_triangle(const box_tri* p, spx_dvec3 N, clip* c)
{
    const spx_tri_shape* t = &p->t;
    const double n3[3] = { N.x, N.y, N.z };
    int k = 0;
    if (fabs(n3[1]) > fabs(n3[k])) k = 1;
    if (fabs(n3[2]) > fabs(n3[k])) k = 2;
    const int sk = n3[k] > 0.0 ? 1 : -1, u = (k + 1) % 3, v = (k + 2) % 3, f = 2 * k + (sk < 0);
    const double plane = spx_d3_dot(N, t->p[0]);
    /* Inward n x e_j. A corner up to `same` outside is inside: coplanar mesh triangles' side planes
       part by ~1e-7 rad, and a corner on their shared edge must not fall between them. */
    spx_dvec3 m[3];
    double slack[3];
    for (int j = 0; j < 3; ++j) {
        m[j] = spx_d3_cross(t->n, t->e[j]);
        slack[j] = -c->same * sqrt(spx_d3_len2(m[j]));
    }

    /* (u, v) signs in order: (-,-), (+,-), (+,+), (-,+). */
    static const int su[4] = { -1, 1, 1, -1 }, sv[4] = { -1, -1, 1, 1 };
    spx_dvec3 x[4];
    double dist[4][3];
    int sgn[4][3];
    for (int q = 0; q < 4; ++q) {
        sgn[q][k] = sk, sgn[q][u] = su[q], sgn[q][v] = sv[q];
        x[q] = spx_d3(sgn[q][0] * p->h[0], sgn[q][1] * p->h[1], sgn[q][2] * p->h[2]);
        bool inside = true;
        for (int j = 0; j < 3; ++j) {
            dist[q][j] = spx_d3_dot(m[j], spx_d3_sub(x[q], t->p[j]));
            inside = inside && dist[q][j] >= slack[j];
        }
        if (inside) {
            double depth = spx_d3_dot(N, x[q]) - plane;
            clip_add(c, spx_d3_mad(x[q], N, -0.5 * depth), depth, box_corner(sgn[q]));
        }
    }
    /* Triangle corners strictly over the face, moved along N onto it. */
    for (int i = 0; i < 3; ++i) {
        const spx_dvec3 q = t->p[i];
        const double s = (sk * p->h[k] - coord(q, k)) / n3[k];
        const spx_dvec3 on = spx_d3_mad(q, N, s);
        if (fabs(coord(on, u)) < p->h[u] && fabs(coord(on, v)) < p->h[v])
            clip_add(c, spx_d3_mad(q, N, 0.5 * s), s, CODE_TRI_CORNER + 3 * f + i);
    }
    /* Edges crossing plane j strictly, inside j + 1 and strictly inside j + 2 (a triangle-corner crossing
       counts once); on j + 2 too when the edge runs along it. */
    for (int q = 0; q < 4; ++q) {
        const int q1 = (q + 1) & 3;
        const int along = q % 2 == 0 ? u : v;
        const int e = box_edge(along, sgn[q]);
        for (int j = 0; j < 3; ++j) {
            const double da = dist[q][j], db = dist[q1][j];
            if (!((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0))) continue;
            const double s = da / (da - db);
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const double d1 = dist[q][j1] + s * (dist[q1][j1] - dist[q][j1]);
            const double d2 = dist[q][j2] + s * (dist[q1][j2] - dist[q][j2]);
            if (!(d1 >= 0.0 && (d2 > 0.0 || (d2 >= 0.0 && dist[q][j2] == dist[q1][j2])))) continue;
            const spx_dvec3 xx = spx_d3_mad(x[q], spx_d3_sub(x[q1], x[q]), s);
            const double depth = spx_d3_dot(N, xx) - plane;
            clip_add(c, spx_d3_mad(xx, N, -0.5 * depth), depth, CODE_EDGE_PAIR + 3 * e + j);
        }
    }
}

/* Box face k on side s (normal s e_k) as reference: the triangle clipped by the face's sides. */
static void clip_on_box_face(const box_tri* p, int k, int s, clip* c)
{
    const spx_tri_shape* t = &p->t;
    const int u = (k + 1) % 3, v = (k + 2) % 3, f = 2 * k + (s < 0);
    const spx_dvec3 N = spx_d3(k == 0 ? s : 0, k == 1 ? s : 0, k == 2 ? s : 0);
    const double* h = p->h;
    for (int i = 0; i < 3; ++i) {
        const spx_dvec3 q = t->p[i];
        if (fabs(coord(q, u)) <= h[u] && fabs(coord(q, v)) <= h[v]) {
            const double depth = h[k] - s * coord(q, k);
            clip_add(c, spx_d3_mad(q, N, 0.5 * depth), depth, CODE_TRI_CORNER + 3 * f + i);
        }
    }
    const double nk = coord(t->n, k);
    if (!t->segment && fabs(nk) > TRI_EDGE_ON_SINE * sqrt(spx_d3_len2(t->n))) {
        static const int su[4] = { -1, 1, 1, -1 }, sv[4] = { -1, -1, 1, 1 };
        spx_dvec3 m[3];
        double slack[3];
        for (int j = 0; j < 3; ++j) {
            m[j] = spx_d3_cross(t->n, t->e[j]);
            slack[j] = c->same * sqrt(spx_d3_len2(m[j])); /* inside to rounding, as in clip_on_triangle */
        }
        const spx_dvec3 p0 = t->p[0];
        for (int q = 0; q < 4; ++q) {
            int sg[3];
            sg[k] = s, sg[u] = su[q], sg[v] = sv[q];
            double xc[3];
            xc[u] = su[q] * h[u];
            xc[v] = sv[q] * h[v];
            xc[k] =
                coord(p0, k) - (coord(t->n, u) * (xc[u] - coord(p0, u)) + coord(t->n, v) * (xc[v] - coord(p0, v))) / nk;
            const spx_dvec3 x = spx_d3(xc[0], xc[1], xc[2]);
            bool inside = true;
            for (int j = 0; j < 3; ++j) inside = inside && spx_d3_dot(m[j], spx_d3_sub(x, t->p[j])) > -slack[j];
            if (inside) {
                const double depth = h[k] - s * xc[k];
                clip_add(c, spx_d3_mad(x, N, 0.5 * depth), depth, box_corner(sg));
            }
        }
    }
    /* Triangle edge j crossing side plane (a, g) strictly; the other coordinate strictly inside for u,
       boundary included for v (and u when the edge runs along v): a face-corner crossing counts once. */
    for (int j = 0; j < 3; ++j) {
        const spx_dvec3 A = t->p[j], B = t->p[(j + 1) % 3];
        for (int plane = 0; plane < 4; ++plane) {
            const int a = plane < 2 ? u : v, o = plane < 2 ? v : u, g = plane % 2 == 0 ? 1 : -1;
            const double da = g * coord(A, a) - h[a], db = g * coord(B, a) - h[a];
            if (!((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0))) continue;
            const spx_dvec3 x = spx_d3_mad(A, spx_d3_sub(B, A), da / (da - db));
            const double xo = fabs(coord(x, o));
            if (!(xo < h[o] || (xo <= h[o] && (plane >= 2 || coord(A, o) == coord(B, o))))) continue;
            int sg[3];
            sg[k] = s, sg[a] = g, sg[o] = 1;
            const double depth = h[k] - s * coord(x, k);
            clip_add(c, spx_d3_mad(x, N, 0.5 * depth), depth, CODE_EDGE_PAIR + 3 * box_edge(o, sg) + j);
        }
    }
}

/* Edge axis 4 + 3i + j: one point between box edge (along i, extreme towards the triangle) and
   triangle edge j. */
static void clip_edges(const box_tri* p, int index, spx_dvec3 N, double sep, clip* c)
{
    const int i = (index - 4) / 3, j = (index - 4) % 3;
    const double n3[3] = { N.x, N.y, N.z };
    int sg[3];
    double b[3];
    for (int a = 0; a < 3; ++a) {
        sg[a] = n3[a] >= 0.0 ? 1 : -1;
        b[a] = a == i ? 0.0 : sg[a] * p->h[a];
    }
    const spx_dvec3 base = spx_d3(b[0], b[1], b[2]);
    const spx_dvec3 ei = spx_d3(i == 0 ? p->h[0] : 0, i == 1 ? p->h[1] : 0, i == 2 ? p->h[2] : 0);
    const spx_dvec3 q0 = p->t.p[j], q1 = p->t.p[(j + 1) % 3];
    spx_dvec3 mid;
    if (!spx_segments_mid_3d(spx_d3_sub(base, ei), spx_d3_add(base, ei), q0, q1, &mid))
        mid = spx_d3_lerp_mid(base, spx_d3_lerp_mid(q0, q1)); /* parallel: the face axes see to that */
    clip_add(c, mid, -sep, CODE_EDGE_PAIR + 3 * box_edge(i, sg) + j);
}

/* May unit N (box towards triangle, box frame) name the normal? side: +1 box in front. */
static bool admitted(const box_tri* p, const spx_triangle_edges* edges, double side, spx_dvec3 N)
{
    const spx_tri_shape* t = &p->t;
    const spx_dvec3 d = spx_d3_neg(N); /* from the triangle towards the box */
    /* nearest corners along N (spx_tri_feature's ties) */
    const unsigned near = spx_tri_extreme_corners(t, d);
    if (near == 7u) return true; /* the face itself */
    if (near == 1u || near == 2u || near == 4u) return (edges->corners & near) != 0;
    const int j = near == 3u ? 0 : (near == 6u ? 1 : 2);
    const double a = edges->angle[j];
    const double wedge = fabs(a) >= SPX_EDGE_OPEN ? TRI_PI : side * a;
    if (!(wedge > 0.0)) return false; /* flat or concave from this side */
    const spx_dvec3 ns = spx_d3_scale(t->n, side / sqrt(spx_d3_len2(t->n)));
    const double angle = atan2(sqrt(spx_d3_len2(spx_d3_cross(d, ns))), spx_d3_dot(d, ns));
    return angle <= wedge + TRI_WEDGE_SLACK;
}

typedef struct separation {
    double sep;    /* largest gap, or minus the least overlap */
    spx_dvec3 dir; /* unit, box towards triangle */
    bool usable;
} separation;

void spx_manifold_obb_triangle_checked(const spx_obb* a, const spx_triangle* b, const spx_triangle_edges* edges,
                                       float margin, int cap, spx_tri_manifold* out)
{
    out->normal = spx_v3(0.0f, 0.0f, 0.0f);
    out->point_count = 0;
    box_tri p;
    const spx_vec3 still = { 0.0f, 0.0f, 0.0f };
    box_tri_make(a, still, b, still, &p);

    separation s[13];
    for (int i = 0; i < 13; ++i) {
        spx_dvec3 l;
        double len2, gap_pos, gap_neg;
        s[i].usable = box_tri_axis_usable(&p, i, &l, &len2);
        if (!s[i].usable) continue;
        box_tri_gaps(&p, l, &gap_pos, &gap_neg);
        const bool ahead = gap_pos >= gap_neg;
        const double len = sqrt(len2);
        s[i].sep = (ahead ? gap_pos : gap_neg) / len;
        if (s[i].sep > (double)margin) return; /* a separating axis beyond the margin: apart */
        s[i].dir = spx_d3_scale(l, (ahead ? 1.0 : -1.0) / len);
    }

    /* The box's side: where the face axis pushes it. */
    const bool use_edges = edges != NULL && !p.t.segment;
    const double side = use_edges && spx_d3_dot(s[0].dir, p.t.n) < 0.0 ? 1.0 : -1.0;
    const double slack = TRI_ABS_TOL * (p.h[0] + p.h[1] + p.h[2] + p.t.longest);
    int face = p.t.segment ? -1 : 0, box_face = -1, edge = -1;
    for (int i = 1; i < 13; ++i) {
        if (!s[i].usable || (use_edges && !admitted(&p, edges, side, s[i].dir))) continue;
        int* best = i < 4 ? &box_face : &edge;
        if (*best < 0 || s[i].sep > s[*best].sep) *best = i;
    }
    /* Segment-like: no face axis and no edges; box faces admitted. */
    if (face < 0 || (box_face >= 0 && s[box_face].sep > s[0].sep + TRI_REL_TOL * fabs(s[0].sep) + slack))
        face = box_face;
    const double size = (p.h[0] + p.h[1] + p.h[2] + p.t.longest) / 4.0;
    bool edge_wins =
        edge >= 0 && s[edge].sep > s[face].sep + TRI_REL_TOL * fabs(s[face].sep) + slack + TRI_EDGE_ABS_TOL * size;
    if (edge_wins && s[face].sep >= s[edge].sep - TRI_EDGE_FACE_TOL * size) {
        const spx_dvec3 d = s[edge].dir;
        edge_wins = fabs(d.x) <= TRI_EDGE_FACE_COS && fabs(d.y) <= TRI_EDGE_FACE_COS &&
                    fabs(d.z) <= TRI_EDGE_FACE_COS &&
                    (p.t.segment || fabs(spx_d3_dot(d, p.t.n)) <= TRI_EDGE_FACE_COS * sqrt(spx_d3_len2(p.t.n)));
    }
    int axis = edge_wins ? edge : face;
    /* The features decide the normal, not a depth beyond the triangle: every real axis deeper than the
       least overlap by more than the triangle is long gives nothing (docs/meshes.md#limits). */
    if (use_edges) {
        double least = -INFINITY;
        for (int i = 0; i < 13; ++i)
            if (s[i].usable && s[i].sep > least) least = s[i].sep;
        if (s[axis].sep < least - p.t.longest) return;
    }

    clip c;
    c.n = 0;
    c.margin = margin;
    /* Float inputs: a point's place is known to a few float steps. */
    const double far = spx_dmax(fabs(a->center.x), spx_dmax(fabs(a->center.y), fabs(a->center.z)));
    const double same = SPX_TRI_SAME_POINT * (far + p.h[0] + p.h[1] + p.h[2]);
    c.same = same;
    c.same2 = same * same;
    if (axis == 0) clip_on_triangle(&p, s[0].dir, &c);
    else if (axis < 4) clip_on_box_face(&p, axis - 1, coord(s[axis].dir, axis - 1) > 0.0 ? 1 : -1, &c);
    /* Nothing over the face but an edge axis within the margin: edge to edge beside the face. Not for a
       surface triangle: its neighbours answer. */
    if (!edges && axis < 4 && c.n == 0 && edge >= 0 && s[edge].sep <= (double)margin) axis = edge;
    const spx_dvec3 N = s[axis].dir;
    if (axis >= 4) clip_edges(&p, axis, N, s[axis].sep, &c);

    int keep[SPX_TRI_MANIFOLD_POINTS], n = c.n;
    for (int i = 0; i < n && i < SPX_TRI_MANIFOLD_POINTS; ++i) keep[i] = i;
    if (n > cap) {
        /* In the plane of the two box axes farthest from the normal. */
        const int k = fabs(N.x) >= fabs(N.y) && fabs(N.x) >= fabs(N.z) ? 0 : (fabs(N.y) >= fabs(N.z) ? 1 : 2);
        float x[CLIP_MAX], y[CLIP_MAX], gap[CLIP_MAX];
        for (int i = 0; i < n; ++i) {
            x[i] = (float)coord(c.p[i], (k + 1) % 3);
            y[i] = (float)coord(c.p[i], (k + 2) % 3);
            gap[i] = (float)-c.depth[i];
        }
        spx_reduce_to_four(x, y, gap, n, keep);
        n = SPX_MAX_MANIFOLD_POINTS;
    }
    spx_dvec3 normal = spx_d3(0, 0, 0);
    for (int i = 0; i < 3; ++i) normal = spx_d3_mad(normal, p.axes[i], coord(N, i));
    out->normal = spx_d3_to_float(spx_d3_scale(normal, 1.0 / sqrt(spx_d3_len2(normal))));
    const spx_dvec3 center = spx_d3_from(a->center);
    for (int m = 0; m < n; ++m) {
        const int i = keep[m];
        spx_dvec3 w = center;
        for (int r = 0; r < 3; ++r) w = spx_d3_mad(w, p.axes[r], coord(c.p[i], r));
        out->points[m].point = spx_d3_to_float(w);
        out->points[m].depth = (float)c.depth[i];
        out->points[m].id = c.code[i];
    }
    out->point_count = n;
}

SPX_API spx_result spx_manifold_obb_mesh_triangle(const spx_obb* a, const spx_triangle* b,
                                                  const spx_triangle_edges* edges, float margin, spx_manifold* out)
{
    if (!a || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_obb_validate(a), spx_triangle_validate(b));
    if (edges)
        for (int j = 0; j < 3; ++j)
            if (isnan(edges->angle[j])) r = spx_first_error(r, SPX_ERR_NOT_FINITE);
    r = spx_first_error(r, spx_check_margin(margin));
    if (r != SPX_OK) return r;
    spx_tri_manifold m;
    spx_manifold_obb_triangle_checked(a, b, edges, margin, SPX_MAX_MANIFOLD_POINTS, &m);
    out->normal = m.normal;
    out->point_count = m.point_count;
    for (int i = 0; i < m.point_count; ++i) out->points[i] = m.points[i];
    return SPX_OK;
}

SPX_API spx_result spx_manifold_obb_triangle(const spx_obb* a, const spx_triangle* b, float margin, spx_manifold* out)
{
    return spx_manifold_obb_mesh_triangle(a, b, NULL, margin, out);
}
