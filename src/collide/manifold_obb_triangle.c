/* Box-triangle contact manifold for resting contact (DESIGN.md, step 4), and the edge rule that
 * keeps a box from catching on the inside edges of a flat mesh.
 *
 * The separation on each of the 13 axes of box_triangle.h (largest gap, or least overlap as a
 * negative gap) picks the contact: the triangle's face, a box face, or an edge pair. Face contacts
 * clip: the triangle's face against the box's incident face (the one turned most towards the
 * triangle), or a box face against the triangle; the overlap's corners are listed by kind, as in
 * manifold.c, so that every point is named by the features that made it. Double throughout, like
 * the other box-triangle queries: the triangle may be far from the box's centre and thin.
 *
 * Surface edges (spx_triangle_edges). A triangle of a mesh has edges the surface does not have: two
 * coplanar triangles share an edge across which nothing turns. The per-triangle SAT does not know
 * it, and where a box overhangs such an edge by less than it sinks into the face, an axis through
 * the edge (a box face turned sideways, or an edge product) wins with a normal tilted from the face:
 * the box bumps. So an axis may name the normal only when the triangle's feature nearest the box
 * along it (the corners extreme along the axis) is one the surface has: the face always; an edge
 * when, seen from the box's side, the surface turns away across it (convex, or open) and the axis
 * lies within the wedge between the edge's two faces; a corner when the surface has a corner there.
 * Otherwise the next best axis does, in the end the triangle's face. An axis that separates the
 * pieces beyond the margin still proves them apart, whatever feature it meets.
 *
 * Feature ids (spx_manifold_point.id, bits 0-5; spx_manifold_obb_mesh adds the triangle above):
 *   0..7         box corner c against the triangle's face; bit i of c set when the corner is on the
 *                + side of box axis i (as spx_obb_get_corners)
 *   8 + 3f + k   triangle corner k against box face f = 2 * axis + (1 on the axis' negative side)
 *   26 + 3e + j  box edge e against triangle edge j (v[j] to v[(j+1)%3]); e = 4i + b1 + 2 b2 for the
 *                edge along box axis i, b1 (b2) set when it is on the + side of axis (i+1)%3 ((i+2)%3)
 * A pair names the same point whichever face is the reference (the point where box edge e crosses
 * over triangle edge j is that pair's in both clippings), so a switch of reference keeps the ids. */
#include "manifold_triangle.h"
#include "box_triangle.h"
#include "manifold_reduce.h"
#include "geometry/validate.h"

#define TRI_PI 3.14159265358979323846
/* Hysteresis between nearly equal axes, as in manifold.c: the triangle's face is preferred, then
   the box's faces, then edges; another axis must beat the preferred one by 2% of its separation
   plus a size-relative slack (which also swallows an edge axis that coincides with a face axis). */
#define TRI_REL_TOL 0.02
#define TRI_ABS_TOL 1e-5
/* As in manifold.c: an edge axis must beat the faces by a further 1e-3 of the size, and one within
   about 8 degrees of a face normal (the triangle's or a box face's) does not name the contact when
   the faces are at most 1e-2 of the size deeper. A box resting a little tilted on a triangle, or
   across a ridge, is a face contact seen edge-on: one edge point would let it rock, the face
   clipping gives the points along the touching edge. Unlike two boxes, a long triangle edge can
   make such an axis far shallower than any face (seen on random pairs: 0.59 against 1.04 m), and
   then the edge is the contact. "Size" here is the mean of the half extents and the longest edge. */
#define TRI_EDGE_ABS_TOL 1e-3
#define TRI_EDGE_FACE_COS 0.99
#define TRI_EDGE_FACE_TOL 1e-2
/* An axis within this angle (rad) of an edge's wedge still counts as inside it: the wedge's angle
   is stored rounded outward already (mesh_topology.c); this only absorbs the rounding of the axis. */
#define TRI_WEDGE_SLACK 1e-5
/* Below this sine between a box face and the triangle's plane the triangle is seen edge-on from the
   face: its shadow on the face is a sliver, and face corners inside it are left to the crossings. */
#define TRI_EDGE_ON_SINE 1e-6

#define CODE_TRI_CORNER 8
#define CODE_EDGE_PAIR 26
#define CLIP_MAX 16

static int box_corner(const int s[3]) { return (s[0] > 0) | (s[1] > 0) << 1 | (s[2] > 0) << 2; }

/* Box edge along axis i, on the sides s[] of the other two axes. */
static int box_edge(int i, const int s[3]) { return 4 * i + (s[(i + 1) % 3] > 0) + 2 * (s[(i + 2) % 3] > 0); }

/* Points in the box's frame: midway between the two surfaces, with their depth and feature code. */
typedef struct clip {
    spx_dvec3 p[CLIP_MAX];
    double depth[CLIP_MAX];
    uint8_t code[CLIP_MAX];
    int n;
    double margin;
    double same; /* distance under which two points are one */
    double same2;
} clip;

/* A box corner lying on a side plane to rounding is inside it, and the crossing of its edges with
   that plane lands on it again: one point twice, named two ways. The first one added stays: box
   corners come first, then triangle corners, then crossings. */
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

/* The triangle's face is the reference (N: its normal from the box towards it). The box's incident
   face is clipped by the triangle's side planes: its corners inside them, the triangle's corners
   over the face (seen along N), and the crossings of the face's edges with the side planes. */
static void clip_on_triangle(const box_tri* p, spx_dvec3 N, clip* c)
{
    const spx_tri_shape* t = &p->t;
    const double n3[3] = { N.x, N.y, N.z };
    int k = 0;
    if (fabs(n3[1]) > fabs(n3[k])) k = 1;
    if (fabs(n3[2]) > fabs(n3[k])) k = 2;
    const int sk = n3[k] > 0.0 ? 1 : -1, u = (k + 1) % 3, v = (k + 2) % 3, f = 2 * k + (sk < 0);
    const double plane = spx_d3_dot(N, t->p[0]);
    /* Inward side normals: n x e_j points into the triangle for its own winding, from either side.
       A box corner counts as inside up to `same` outside: two triangles of a mesh that share an edge
       are coplanar only to the rounding of their float corners, so their side planes on that edge
       part by some 1e-7 rad, and a box corner lying on the edge (a box resting on a grid with a corner
       on a diagonal) can fall into the gap between them and be nobody's. */
    spx_dvec3 m[3];
    double slack[3];
    for (int j = 0; j < 3; ++j) {
        m[j] = spx_d3_cross(t->n, t->e[j]);
        slack[j] = -c->same * sqrt(spx_d3_len2(m[j]));
    }

    /* The incident face's corners in order around it: (u, v) signs (-,-), (+,-), (+,+), (-,+). */
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
    /* Triangle corners strictly over the face, moved along N onto it: the depth is how far. */
    for (int i = 0; i < 3; ++i) {
        const spx_dvec3 q = t->p[i];
        const double s = (sk * p->h[k] - coord(q, k)) / n3[k];
        const spx_dvec3 on = spx_d3_mad(q, N, s);
        if (fabs(coord(on, u)) < p->h[u] && fabs(coord(on, v)) < p->h[v])
            clip_add(c, spx_d3_mad(q, N, 0.5 * s), s, CODE_TRI_CORNER + 3 * f + i);
    }
    /* Face edges (corner q to q + 1) crossing side plane j strictly, inside plane j + 1 (boundary
       included) and strictly inside plane j + 2, so a crossing at a triangle corner counts once; on
       plane j + 2 too when the edge runs along it (both ends on it), which crosses it nowhere. */
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

/* Box face k on side s (normal s e_k, towards the triangle) is the reference: the triangle is
   clipped by the face's side planes. Its corners over the face, the face's corners inside the
   triangle (seen along e_k), and the crossings of its edges with the side planes. */
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
    /* Triangle edge j crossing side plane (axis a, sign g) strictly; the other coordinate strictly
       inside for the u planes and boundary included for the v planes, so that a crossing at a face
       corner counts once, and boundary included for the u planes too when the edge runs along a v
       plane (which it crosses nowhere). The side plane and the reference face meet in a box edge
       along the other axis. */
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

/* Edge contact on axis 4 + 3i + j: the box edge along axis i that is extreme towards the triangle
   against triangle edge j, one point between their closest points. */
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

/* May the unit direction N (box towards triangle, box frame) name the normal? side: +1 when the box
   is on the triangle's front, -1 behind it. */
static bool admitted(const box_tri* p, const spx_triangle_edges* edges, double side, spx_dvec3 N)
{
    const spx_tri_shape* t = &p->t;
    const spx_dvec3 d = spx_d3_neg(N); /* from the triangle towards the box */
    /* The corners nearest the box along N, with the tie tolerance of spx_tri_feature. */
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
    double sep;    /* largest gap on the axis, or minus the least overlap */
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

    /* Which side of the triangle the box is on: the one its face axis pushes the box to. */
    const bool use_edges = edges != NULL && !p.t.segment;
    const double side = use_edges && spx_d3_dot(s[0].dir, p.t.n) < 0.0 ? 1.0 : -1.0;
    const double slack = TRI_ABS_TOL * (p.h[0] + p.h[1] + p.h[2] + p.t.longest);
    int face = p.t.segment ? -1 : 0, box_face = -1, edge = -1;
    for (int i = 1; i < 13; ++i) {
        if (!s[i].usable || (use_edges && !admitted(&p, edges, side, s[i].dir))) continue;
        int* best = i < 4 ? &box_face : &edge;
        if (*best < 0 || s[i].sep > s[*best].sep) *best = i;
    }
    /* A segment-like triangle has no face axis, but is never given edges: its box faces are admitted. */
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
    /* The surface's features decide the normal, but not a depth beyond what the triangle can hold:
       when every real axis is deeper than the least overlap over all axes by more than the triangle is
       long, the touch is by features the surface does not have (a floor much larger than a torus
       meets the torus's curved side, whose own face normal would read the floor's whole depth, 27 m).
       Such a triangle gives nothing; its neighbours, where the surface has the feature, give the
       contact. */
    if (use_edges) {
        double least = -INFINITY;
        for (int i = 0; i < 13; ++i)
            if (s[i].usable && s[i].sep > least) least = s[i].sep;
        if (s[axis].sep < least - p.t.longest) return;
    }

    clip c;
    c.n = 0;
    c.margin = margin;
    /* The inputs are floats: a point's place is known to a few float steps of the coordinates. */
    const double far = spx_dmax(fabs(a->center.x), spx_dmax(fabs(a->center.y), fabs(a->center.z)));
    const double same = SPX_TRI_SAME_POINT * (far + p.h[0] + p.h[1] + p.h[2]);
    c.same = same;
    c.same2 = same * same;
    if (axis == 0) clip_on_triangle(&p, s[0].dir, &c);
    else if (axis < 4) clip_on_box_face(&p, axis - 1, coord(s[axis].dir, axis - 1) > 0.0 ? 1 : -1, &c);
    /* A face that clips to nothing while an edge axis shows contact within the margin: the pieces
       meet edge to edge beside the face (the tolerances grow with the pieces' size, so a long
       triangle can prefer a face), and the edges' closest points are the contact. Not for a
       triangle of a surface: there its neighbours give the points the face did not. */
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
