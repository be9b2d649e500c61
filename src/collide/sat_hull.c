/* Hull against hull or box: the separating-axis test over the faces of the Minkowski difference (A's faces, B's, edge
 * pairs whose Gauss-map arcs cross), static and swept, in double in A's frame. See docs/collision.md#convex-hulls. */
#include "sat_hull.h"
#include "geometry/validate.h"
#include "sat_axes.h"
#include "contact_point.h"
#include "manifold_reduce.h"
#include <float.h>

/* A hull's corners touching a plane within this fraction of its size count as one feature. */
#define FEATURE_FRACTION 1e-6

typedef struct hull_pair {
    const spx_hull_view* a;
    const spx_hull_view* b;
    spx_dvec3 av[SPX_HULL_MAX_CORNERS];
    spx_dvec3 bv[SPX_HULL_MAX_CORNERS];     /* in A's frame */
    spx_dvec3 bn[2 * SPX_HULL_MAX_CORNERS]; /* in A's frame */
    spx_dvec3 rel[3];                       /* B's axes in A's frame */
    spx_dvec3 u;                            /* B relative to A, in A's frame */
    spx_dvec3 va;                           /* world */
    spx_dvec3 frame[3];                     /* world */
    spx_dvec3 origin;                       /* world */
    int b_reference;                        /* manifold: B's face made the reference, or -1 */
    double b_reference_cos;                 /* ... when the normal is this near its own (< -1: always) */
    uint32_t b_salt;                        /* manifold: mixed into the ids of points B's features make */
    double margin;                          /* sweep: Minkowski faces pushed out this far (m) */
} hull_pair;

static spx_dvec3 rotate(const spx_dvec3 m[3], spx_dvec3 v)
{
    return spx_d3_mad(spx_d3_mad(spx_d3_scale(m[0], v.x), m[1], v.y), m[2], v.z);
}

/* m^T v: a world vector in the frame whose axes are m. */
static spx_dvec3 unrotate(const spx_dvec3 m[3], spx_dvec3 v)
{
    return spx_d3(spx_d3_dot(m[0], v), spx_d3_dot(m[1], v), spx_d3_dot(m[2], v));
}

/* The pair in A's frame; ra, rb: rotations (columns). */
static void pair_make(hull_pair* p, const spx_hull_view* a, spx_vec3 pa, const spx_mat3* ra, spx_vec3 va,
                      const spx_hull_view* b, spx_vec3 pb, const spx_mat3* rb, spx_vec3 vb)
{
    p->a = a;
    p->b = b;
    p->b_reference = -1;
    p->b_reference_cos = -2.0;
    p->b_salt = 0;
    p->margin = 0.0;
    spx_dvec3 fb[3];
    for (int k = 0; k < 3; ++k) {
        p->frame[k] = spx_d3_from(ra->col[k]);
        fb[k] = spx_d3_from(rb->col[k]);
    }
    p->origin = spx_d3_from(pa);
    p->va = spx_d3_from(va);
    for (int k = 0; k < 3; ++k) p->rel[k] = unrotate(p->frame, fb[k]);
    const spx_dvec3 t = unrotate(p->frame, spx_d3_sub(spx_d3_from(pb), p->origin));
    p->u = unrotate(p->frame, spx_d3_sub(spx_d3_from(vb), spx_d3_from(va)));
    for (uint32_t i = 0; i < a->vertex_count; ++i) p->av[i] = spx_d3_from(a->vertices[i]);
    for (uint32_t i = 0; i < b->vertex_count; ++i)
        p->bv[i] = spx_d3_add(t, rotate(p->rel, spx_d3_from(b->vertices[i])));
    for (uint32_t f = 0; f < b->face_count; ++f) p->bn[f] = rotate(p->rel, b->faces[f].normal);
}

static double least(const spx_dvec3* v, uint32_t count, spx_dvec3 n)
{
    double lo = DBL_MAX;
    for (uint32_t i = 0; i < count; ++i) lo = spx_dmin(lo, spx_d3_dot(v[i], n));
    return lo;
}

/* least(v, n) for face f of a piece whose first `pairs` face pairs are opposite: an even face leaves -greatest in *next
   for the odd one (the same bits, negation rounding alike, but for a zero's sign: a zero is formed again). */
static inline __attribute__((always_inline)) double least_of_face(const spx_dvec3* v, uint32_t count, spx_dvec3 n,
                                                                  int f, uint32_t pairs, double* next)
{
    if ((uint32_t)f >= 2 * pairs) return least(v, count, n);
    if (f & 1) return *next != 0.0 ? *next : least(v, count, n);
    double lo = DBL_MAX, hi = -DBL_MAX;
    for (uint32_t i = 0; i < count; ++i) {
        const double d = spx_d3_dot(v[i], n);
        lo = spx_dmin(lo, d);
        hi = spx_dmax(hi, d);
    }
    *next = -hi;
    return lo;
}

/* Do arcs a1-a2 (A's Gauss map) and c1-c2 (B's, negated) cross at the same point, not its antipode? Arcs are under
 * half a circle; s1, s2: c1 and c2 on a1 x a2, and nc = c1 x c2, formed once by the caller. */
static bool arcs_cross_sides(spx_dvec3 a1, spx_dvec3 a2, double s1, double s2, spx_dvec3 nc)
{
    if (!(s1 * s2 < 0.0)) return false;
    const double t1 = spx_d3_dot(a1, nc), t2 = spx_d3_dot(a2, nc);
    return t1 * t2 < 0.0 && s1 * t2 > 0.0;
}

/* B's corner i turned into A's frame about B's own origin, not yet placed. */
static inline __attribute__((always_inline)) spx_dvec3 b_turned(const hull_pair* p, uint32_t i)
{
    return rotate(p->rel, spx_d3_from(p->b->vertices[i]));
}

/* B's edge from its corners turned but not placed: the direction its faces' normals (bn) agree with. Placed corners
   would lose a piece much smaller than its distance from A's origin to rounding, and an axis crossed with such an edge
   matches neither piece's Gauss map, reading a gap where there is none. */
static inline __attribute__((always_inline)) spx_dvec3 b_edge_vector(const hull_pair* p, const spx_hull_edge* e)
{
    return spx_d3_sub(b_turned(p, e->corner[1]), b_turned(p, e->corner[0]));
}

/* ea x eb, pointing out of A across its edge i; zero for parallel edges. */
static spx_dvec3 edge_axis(const hull_pair* p, int i, int j)
{
    const spx_hull_edge* ea = &p->a->edges[i];
    const spx_hull_edge* eb = &p->b->edges[j];
    const spx_dvec3 da = spx_d3_sub(p->av[ea->corner[1]], p->av[ea->corner[0]]);
    const spx_dvec3 l = spx_d3_cross(da, b_edge_vector(p, eb));
    const spx_dvec3 mid = spx_d3_add(p->a->faces[ea->face[0]].normal, p->a->faces[ea->face[1]].normal);
    return spx_d3_dot(l, mid) < 0.0 ? spx_d3_neg(l) : l;
}

/* Unnormalised axis `index` in A's frame, from A to B when it separates. */
static spx_dvec3 pair_axis(const void* pair, int index)
{
    const hull_pair* p = pair;
    const int fa = (int)p->a->face_count, fb = (int)p->b->face_count;
    if (index < fa) return p->a->faces[index].normal;
    if (index < fa + fb) return spx_d3_neg(p->bn[index - fa]);
    const int e = index - fa - fb;
    return edge_axis(p, e / (int)p->b->edge_count, e % (int)p->b->edge_count);
}

/* A's edge i as its Gauss-map arc, with B's normals' sides of its great circle formed once per edge. */
typedef struct edge_arc {
    spx_dvec3 a1, a2;
    spx_dvec3 pa0, da; /* the edge's first corner, and to its second */
    double da2;        /* |da|^2 */
    double side[2 * SPX_HULL_MAX_CORNERS];
} edge_arc;

/* B's edges held for the pair when it has at most this many (7 KB of stack, and 3 KB while they are formed; the stack
   budget is in docs/decisions.md). */
#define B_EDGES_HELD 128

/* B's edges, formed once per pair rather than once per A edge they meet: the normal of each one's Gauss-map arc
   (negated normals' cross product), and the edge's vector and its length squared. */
typedef struct b_edges {
    bool held;
    spx_dvec3 nc[B_EDGES_HELD], db[B_EDGES_HELD];
    double db2[B_EDGES_HELD];
} b_edges;

static inline __attribute__((always_inline)) spx_dvec3 b_arc_normal(const hull_pair* p, int j)
{
    const spx_hull_edge* e = &p->b->edges[j];
    return spx_d3_cross(spx_d3_neg(p->bn[e->face[0]]), spx_d3_neg(p->bn[e->face[1]]));
}

static void b_edges_of(const hull_pair* p, b_edges* out)
{
    out->held = p->b->edge_count <= B_EDGES_HELD;
    if (!out->held) return;
    spx_dvec3 turned[B_EDGES_HELD]; /* a hull has no more corners than edges */
    for (uint32_t i = 0; i < p->b->vertex_count; ++i) turned[i] = b_turned(p, i);
    for (int j = 0; j < (int)p->b->edge_count; ++j) {
        const spx_hull_edge* e = &p->b->edges[j];
        out->nc[j] = b_arc_normal(p, j);
        out->db[j] = spx_d3_sub(turned[e->corner[1]], turned[e->corner[0]]);
        out->db2[j] = spx_d3_len2(out->db[j]);
    }
}

static inline __attribute__((always_inline)) void edge_arc_of(const hull_pair* p, int i, edge_arc* out)
{
    const spx_hull_edge* ea = &p->a->edges[i];
    out->a1 = p->a->faces[ea->face[0]].normal, out->a2 = p->a->faces[ea->face[1]].normal;
    const spx_dvec3 na = spx_d3_cross(out->a1, out->a2);
    out->pa0 = p->av[ea->corner[0]];
    out->da = spx_d3_sub(p->av[ea->corner[1]], out->pa0);
    out->da2 = spx_d3_len2(out->da);
    const uint32_t fb = p->b->face_count, paired = 2 * p->b->opposite_pairs;
    /* An opposite face's side is the negation (a zero's sign aside, which no test reads). */
    for (uint32_t g = 0; g < paired; g += 2) {
        out->side[g] = spx_d3_dot(spx_d3_neg(p->bn[g]), na);
        out->side[g + 1] = -out->side[g];
    }
    for (uint32_t g = paired; g < fb; ++g) out->side[g] = spx_d3_dot(spx_d3_neg(p->bn[g]), na);
}

/* The Minkowski face of A's edge and B's edge j when their arcs cross and the edges are not parallel: l
   (unnormalised, out of A), |l|^2, and the gap times |l|. */
static inline __attribute__((always_inline)) bool edge_pair_face(const hull_pair* p, const b_edges* be, bool held,
                                                                 const edge_arc* arc, int j, spx_dvec3* l, double* len2,
                                                                 double* gap)
{
    const spx_hull_edge* e = &p->b->edges[j];
    const double s1 = arc->side[e->face[0]], s2 = arc->side[e->face[1]];
    if (!(s1 * s2 < 0.0)) return false; /* the usual exit, before the arc's own product */
    if (!arcs_cross_sides(arc->a1, arc->a2, s1, s2, held ? be->nc[j] : b_arc_normal(p, j))) return false;
    const spx_dvec3 pb0 = p->bv[e->corner[0]];
    const spx_dvec3 db = held ? be->db[j] : b_edge_vector(p, e);
    *l = spx_d3_cross(arc->da, db);
    *len2 = spx_d3_len2(*l);
    if (!spx_edge_axis_usable(*len2, arc->da2, held ? be->db2[j] : spx_d3_len2(db))) return false;
    if (spx_d3_dot(*l, spx_d3_add(arc->a1, arc->a2)) < 0.0) *l = spx_d3_neg(*l);
    *gap = spx_d3_dot(*l, spx_d3_sub(pb0, arc->pa0));
    return true;
}

/* The edge pairs: for pair_sat given s (false once one separates throughout), else the manifold's greatest separation
   above *sep (*sep, *ei, *ej). `held` and s are constants at each call, so each case compiles without the others. */
static inline __attribute__((always_inline)) bool edge_pairs(const hull_pair* p, const b_edges* be, bool held,
                                                             spx_sat* s, double* sep, int* ei, int* ej)
{
    const int fa = (int)p->a->face_count, fb = (int)p->b->face_count, eb = (int)p->b->edge_count;
    edge_arc arc;
    for (int i = 0; i < (int)p->a->edge_count; ++i) {
        edge_arc_of(p, i, &arc);
        for (int j = 0; j < eb; ++j) {
            spx_dvec3 l;
            double len2, gap;
            if (!edge_pair_face(p, be, held, &arc, j, &l, &len2, &gap)) continue;
            if (!s) {
                const double d = gap / sqrt(len2);
                if (d > *sep) *sep = d, *ei = i, *ej = j;
                continue;
            }
            if (p->margin > 0.0) gap -= p->margin * sqrt(len2);
            if (!spx_sat_axis_test(s, fa + fb + i * eb + j, SPX_AXIS_EDGE, len2, gap, -DBL_MAX, spx_d3_dot(l, p->u)))
                return false;
        }
    }
    return true;
}

/* Every Minkowski face through the interval logic; false once one separates throughout. Faces first: they separate
   most misses and win ties. */
static bool pair_sat(const hull_pair* p, double tmax, spx_sat* s, bool track_depth)
{
    const spx_hull_view *a = p->a, *b = p->b;
    const int fa = (int)a->face_count, fb = (int)b->face_count;
    spx_sat_init(s, tmax, track_depth);
    /* Ties are told apart by direction, not order, so swapping A and B agrees. */
    s->tie_dir = pair_axis;
    s->tie_pair = p;
    s->tie_frame = p->frame;
    double next = 0.0;
    for (int f = 0; f < fa; ++f) {
        const spx_dvec3 n = a->faces[f].normal;
        const double lo = least_of_face(p->bv, b->vertex_count, n, f, a->opposite_pairs, &next);
        const double gap = lo - a->faces[f].offset - p->margin;
        if (!spx_sat_axis_test(s, f, SPX_AXIS_FACE, 1.0, gap, -DBL_MAX, spx_d3_dot(n, p->u))) return false;
    }
    for (int g = 0; g < fb; ++g) {
        /* Along -m (B's outward normal); B's offset is that of the corner its plane passes through. */
        const spx_dvec3 m = p->bn[g];
        const double boff = spx_d3_dot(m, p->bv[b->faces[g].far]);
        const double gap = least_of_face(p->av, a->vertex_count, m, g, b->opposite_pairs, &next) - boff - p->margin;
        if (!spx_sat_axis_test(s, fa + g, SPX_AXIS_FACE, 1.0, gap, -DBL_MAX, -spx_d3_dot(m, p->u))) return false;
    }
    b_edges be;
    b_edges_of(p, &be);
    const bool apart =
        !(be.held ? edge_pairs(p, &be, true, s, NULL, NULL, NULL) : edge_pairs(p, &be, false, s, NULL, NULL, NULL));
    if (apart) return false;
    return spx_sat_touches(s);
}

/* Corners within the tolerance of a piece's extreme along n, ordered round for spx_contact_point. */
typedef struct feature_set {
    spx_dvec3 p[SPX_HULL_MAX_CORNERS];
    int count;
} feature_set;

static void extreme_set(const spx_dvec3* v, uint32_t count, spx_dvec3 n, double slack, feature_set* out)
{
    double hi = -DBL_MAX;
    for (uint32_t i = 0; i < count; ++i) hi = spx_dmax(hi, spx_d3_dot(v[i], n));
    out->count = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (spx_d3_dot(v[i], n) >= hi - slack) out->p[out->count++] = v[i];
}

/* Corners in order round their mean, seen along n. */
static void order_round(feature_set* f, spx_dvec3 n)
{
    if (f->count < 3) return;
    spx_dvec3 c = spx_d3(0, 0, 0);
    for (int i = 0; i < f->count; ++i) c = spx_d3_add(c, f->p[i]);
    c = spx_d3_scale(c, 1.0 / f->count);
    spx_dvec3 x = spx_d3_sub(f->p[0], c);
    x = spx_d3_sub(x, spx_d3_scale(n, spx_d3_dot(x, n)));
    const spx_dvec3 y = spx_d3_cross(n, x);
    double ang[SPX_HULL_MAX_CORNERS];
    for (int i = 0; i < f->count; ++i) {
        const spx_dvec3 d = spx_d3_sub(f->p[i], c);
        ang[i] = atan2(spx_d3_dot(d, y), spx_d3_dot(d, x));
    }
    for (int i = 1; i < f->count; ++i)
        for (int j = i; j > 0 && ang[j - 1] > ang[j]; --j) {
            const double t = ang[j];
            ang[j] = ang[j - 1];
            ang[j - 1] = t;
            const spx_dvec3 q = f->p[j];
            f->p[j] = f->p[j - 1];
            f->p[j - 1] = q;
        }
}

static spx_feature_kind kind_of(int count)
{
    return count == 1 ? SPX_FEATURE_VERTEX : (count == 2 ? SPX_FEATURE_EDGE : SPX_FEATURE_FACE);
}

/* Up to four corners spread round the set (every count/4-th). */
static void to_feature(const feature_set* f, spx_feature* out)
{
    out->count = f->count < 4 ? f->count : 4;
    for (int k = 0; k < out->count; ++k) out->p[k] = f->p[f->count <= 4 ? k : k * f->count / 4];
}

/* How far q lies outside a piece: its greatest face-plane distance (B's planes through corners bt). */
static double outside_a(const hull_pair* p, spx_dvec3 q)
{
    double worst = -DBL_MAX;
    for (uint32_t f = 0; f < p->a->face_count; ++f)
        worst = spx_dmax(worst, spx_d3_dot(p->a->faces[f].normal, q) - p->a->faces[f].offset);
    return worst;
}

static double outside_b(const hull_pair* p, const spx_dvec3* bt, spx_dvec3 q)
{
    double worst = -DBL_MAX;
    for (uint32_t g = 0; g < p->b->face_count; ++g)
        worst = spx_dmax(worst, spx_d3_dot(p->bn[g], spx_d3_sub(q, bt[p->b->faces[g].far])));
    return worst;
}

/* Point, normal and features at time tc from each piece's extreme corners along the axis. A face tied with nearly
   parallel edges can leave one far corner standing out by a hair: the slack grows tenfold until the point lies on
   both pieces. */
static void pair_contact(const hull_pair* p, const spx_sat_axis* axis, double tc, spx_sweep_hit* out)
{
    spx_dvec3 n = pair_axis(p, axis->index);
    n = spx_d3_scale(n, axis->sign / sqrt(spx_d3_len2(n)));
    feature_set sa, sb;
    const double size = p->a->radius + p->b->radius;
    const spx_dvec3 shift = spx_d3_scale(p->u, tc);
    spx_dvec3 bt[SPX_HULL_MAX_CORNERS];
    for (uint32_t i = 0; i < p->b->vertex_count; ++i) bt[i] = spx_d3_add(p->bv[i], shift);
    spx_dvec3 q;
    for (double slack = FEATURE_FRACTION * size;; slack *= 10.0) {
        extreme_set(p->av, p->a->vertex_count, n, slack, &sa);
        extreme_set(bt, p->b->vertex_count, spx_d3_neg(n), slack, &sb);
        order_round(&sa, n);
        order_round(&sb, n);
        spx_feature ka, kb;
        to_feature(&sa, &ka);
        to_feature(&sb, &kb);
        q = spx_contact_point(&ka, &kb, n);
        const double off = spx_dmax(outside_a(p, q), outside_b(p, bt, q)) - p->margin -
                           (out->state == SPX_SWEEP_START_OVERLAP ? out->depth : 0.0);
        if (off <= 10.0 * FEATURE_FRACTION * size || slack >= 1e-2 * size) break;
    }
    out->feature_a = kind_of(sa.count);
    out->feature_b = kind_of(sb.count);
    out->point = spx_d3_to_float(spx_d3_add(spx_d3_mad(p->origin, p->va, tc), rotate(p->frame, q)));
    const spx_dvec3 nw = rotate(p->frame, n);
    out->normal = spx_d3_to_float(spx_d3_scale(nw, 1.0 / sqrt(spx_d3_len2(nw))));
}

/* One-sided faces leave no equal-depth ways out to settle. */
static void pair_sweep(const hull_pair* p, float tmax, spx_sweep_hit* out)
{
    spx_sweep_hit hit = { 0 };
    hit.axis = -1;
    spx_sat s;
    if (pair_sat(p, tmax, &s, false)) {
        if (!s.separated_at_start) pair_sat(p, tmax, &s, true); /* overlapping at t = 0: the least-overlap axis */
        double tc;
        const spx_sat_axis* axis = spx_sat_fill_hit(&s, pair_axis, p, &hit, &tc);
        pair_contact(p, axis, tc, &hit);
    }
    *out = hit;
}

static void pair_penetration(const hull_pair* p, spx_penetration* out)
{
    spx_sat s;
    const bool touches = pair_sat(p, 0.0, &s, true);
    spx_sat_fill_penetration(&s, touches, pair_axis, p, p->frame, out);
}

/* ---- manifold by face clipping ---- */

/* An edge pair names the contact only when better than the best face by this fraction of the size: near ties flipping
   face/edge would make points jump. */
#define EDGE_PREFERENCE 1e-3

/* cos of about 8 degrees (as for boxes): a face beside an edge contact this near the normal is the one the pieces
   turn onto. */
#define EDGE_TURN_COS 0.99

/* the incident face's corners plus one per side plane */
#define CLIP_MAX (2 * SPX_HULL_MAX_CORNERS + 8)

typedef struct clip_point {
    spx_dvec3 p;
    uint32_t tag; /* an incident corner, or an incident edge cut by a side */
} clip_point;

/* Keeps dot(n, p) <= d (Sutherland-Hodgman), tagging new points by incident edge and `side`. Two points are one
   segment, not a loop. */
static int clip_side(const clip_point* in, int n, spx_dvec3 nrm, double d, uint32_t side, clip_point* out)
{
    int m = 0;
    const int edges = n == 2 ? 1 : n;
    for (int i = 0; i < edges; ++i) {
        const clip_point *a = &in[i], *b = &in[(i + 1) % n];
        const double da = spx_d3_dot(nrm, a->p) - d, db = spx_d3_dot(nrm, b->p) - d;
        if (da <= 0.0) out[m++] = *a;
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
            const double t = da / (da - db);
            out[m].p = spx_d3_add(a->p, spx_d3_scale(spx_d3_sub(b->p, a->p), t));
            out[m++].tag = 0x10000u | ((a->tag & 0xFFu) << 8) | side;
        }
        if (edges == 1 && db <= 0.0) out[m++] = *b;
    }
    return m;
}

/* FNV-1a of the reference side, reference and incident faces, and the point's tag. */
static uint32_t feature_id(uint32_t ref_b, uint32_t ref, uint32_t inc, uint32_t tag)
{
    const uint32_t w[4] = { ref_b, ref, inc, tag };
    uint32_t h = 2166136261u;
    for (int k = 0; k < 4; ++k)
        for (int b = 0; b < 4; ++b) h = (h ^ ((w[k] >> (8 * b)) & 0xFFu)) * 16777619u;
    return h;
}

static unsigned face_manifold(const hull_pair* p, int face, int inc, double margin, spx_manifold* out,
                              spx_dvec3* local);

static unsigned pair_manifold(const hull_pair* p, double margin, spx_manifold* out)
{
    const spx_hull_view *a = p->a, *b = p->b;
    const int fa = (int)a->face_count, fb = (int)b->face_count;
    spx_manifold m = { 0 };
    if (p->b_reference >= 0 && p->b_reference_cos < -1.0)
        return face_manifold(p, fa + p->b_reference, -1, margin, out, NULL);
    double face_sep = -DBL_MAX, edge_sep = -DBL_MAX;
    int face = -1, ei = -1, ej = -1;
    double next = 0.0;
    for (int f = 0; f < fa; ++f) {
        const double lo = least_of_face(p->bv, b->vertex_count, a->faces[f].normal, f, a->opposite_pairs, &next);
        const double sep = lo - a->faces[f].offset;
        if (sep > face_sep) face_sep = sep, face = f;
    }
    /* Apart by more than the margin along one face: no points. */
    if (face_sep > margin) {
        *out = m;
        return 0;
    }
    const double size = a->radius + b->radius;
    const double bias = 1e-6 * size; /* A's face wins ties */
    for (int g = 0; g < fb; ++g) {
        /* A face of two corners (a triangle's side) cannot clip: never the reference. */
        if (b->faces[g].count < 3) {
            next = 0.0; /* the odd face after it forms its own */
            continue;
        }
        const spx_dvec3 mg = p->bn[g];
        const double lo = least_of_face(p->av, a->vertex_count, mg, g, b->opposite_pairs, &next);
        const double sep = lo - spx_d3_dot(mg, p->bv[b->faces[g].far]);
        if (sep > face_sep + bias) face_sep = sep, face = fa + g;
    }
    if (face_sep > margin) {
        *out = m;
        return 0;
    }
    b_edges be;
    b_edges_of(p, &be);
    if (be.held) edge_pairs(p, &be, true, NULL, &edge_sep, &ei, &ej);
    else edge_pairs(p, &be, false, NULL, &edge_sep, &ei, &ej);
    if (spx_dmax(face_sep, edge_sep) > margin) {
        *out = m;
        return 0;
    }
    const bool edges = ei >= 0 && edge_sep > face_sep + EDGE_PREFERENCE * size;
    if (p->b_reference >= 0) {
        spx_dvec3 n = edges ? edge_axis(p, ei, ej) : face < fa ? a->faces[face].normal : spx_d3_neg(p->bn[face - fa]);
        n = spx_d3_scale(n, 1.0 / sqrt(spx_d3_len2(n)));
        if (-spx_d3_dot(n, p->bn[p->b_reference]) >= p->b_reference_cos)
            return face_manifold(p, fa + p->b_reference, -1, margin, out, NULL);
    }
    if (edges) {
        const spx_hull_edge *ea = &a->edges[ei], *e = &b->edges[ej];
        spx_dvec3 n = edge_axis(p, ei, ej);
        n = spx_d3_scale(n, 1.0 / sqrt(spx_d3_len2(n)));
        spx_dvec3 ca, cb;
        spx_segments_closest_3d(p->av[ea->corner[0]], p->av[ea->corner[1]], p->bv[e->corner[0]], p->bv[e->corner[1]],
                                &ca, &cb);
        const spx_manifold_point edge_point = {
            spx_d3_to_float(spx_d3_add(p->origin, rotate(p->frame, spx_d3_lerp_mid(ca, cb)))),
            (float)-edge_sep,
            feature_id(2, (uint32_t)ei, (uint32_t)ej, p->b_salt),
        };
        /* The pieces turn about the edges' point onto the face beside an edge nearest the normal, held within the
           margin before it lands. The edges' point keeps its depth along that face's normal (a push there parts the
           edges by less; the solver pushes again next step), and no face point is deeper. */
        int turn = -1;
        double turn_cos = EDGE_TURN_COS;
        /* A triangle has no volume to turn onto: the edges' point alone. */
        for (int k = 0; k < 2 && b->vertex_count > 3; ++k) {
            const double ca_cos = spx_d3_dot(n, a->faces[ea->face[k]].normal);
            if (ca_cos > turn_cos) turn_cos = ca_cos, turn = ea->face[k];
            const uint32_t g = e->face[k];
            const double cb_cos = -spx_d3_dot(n, p->bn[g]);
            if (b->faces[g].count >= 3 && cb_cos > turn_cos) turn_cos = cb_cos, turn = fa + (int)g;
        }
        if (turn >= 0) {
            int inc = -1;
            double most = DBL_MAX;
            for (int k = 0; k < 2; ++k) {
                const int g = turn < fa ? (int)e->face[k] : (int)ea->face[k];
                const double d = turn < fa ? spx_d3_dot(a->faces[turn].normal, p->bn[g])
                                           : spx_d3_dot(p->bn[turn - fa], a->faces[g].normal);
                if ((turn < fa ? b : a)->faces[g].count >= 3 && d < most) most = d, inc = g;
            }
            spx_dvec3 local[SPX_MAX_MANIFOLD_POINTS];
            unsigned mask = face_manifold(p, turn, inc, margin, &m, local);
            if (m.point_count >= 1) {
                /* A face point where the edges cross is the edges' point. */
                int slot = m.point_count;
                const double same = 1e-3 * size;
                for (int k = 0; k < m.point_count && slot == m.point_count; ++k)
                    if (spx_d3_len2(spx_d3_sub(local[k], spx_d3_lerp_mid(ca, cb))) <= same * same) slot = k;
                if (slot < m.point_count) {
                    mask &= ~(1u << slot);
                } else if (slot == SPX_MAX_MANIFOLD_POINTS) {
                    /* Full: the edges' point replaces the face point farthest out. */
                    slot = 0;
                    for (int k = 1; k < m.point_count; ++k)
                        if (m.points[k].depth < m.points[slot].depth) slot = k;
                    mask &= ~(1u << slot);
                } else {
                    ++m.point_count;
                }
                for (int k = 0; k < m.point_count; ++k)
                    if (k != slot) m.points[k].depth = fminf(m.points[k].depth, edge_point.depth);
                m.points[slot] = edge_point;
                *out = m;
                return mask;
            }
            m = (spx_manifold){ 0 };
        }
        m.normal = spx_d3_to_float(rotate(p->frame, n));
        m.point_count = 1;
        m.points[0] = edge_point;
        *out = m;
        return 0;
    }
    return face_manifold(p, face, -1, margin, out, NULL);
}

/* The manifold with `face` (A's, then B's) as the reference, clipping face `inc` (-1: most opposed); `local` (or
   NULL) takes the points in A's frame. Bit i: point i is a corner of A on B's face. */
static unsigned face_manifold(const hull_pair* p, int face, int inc_face, double margin, spx_manifold* out,
                              spx_dvec3* local)
{
    const spx_hull_view *a = p->a, *b = p->b;
    const int fa = (int)a->face_count;
    spx_manifold m = { 0 };
    const bool ref_b = face >= fa;
    const spx_hull_view* rv = ref_b ? b : a;
    const spx_hull_view* iv = ref_b ? a : b;
    const spx_dvec3* rp = ref_b ? p->bv : p->av;
    const spx_dvec3* ip = ref_b ? p->av : p->bv;
    const int rf = ref_b ? face - fa : face;
    const spx_dvec3 rn = ref_b ? p->bn[rf] : a->faces[rf].normal;
    /* The incident face: of those round the other piece's deepest corner, the most opposed. */
    int deepest = 0;
    for (uint32_t k = 1; k < iv->vertex_count; ++k)
        if (spx_d3_dot(rn, ip[k]) < spx_d3_dot(rn, ip[deepest])) deepest = (int)k;
    int inc = inc_face < 0 ? 0 : inc_face;
    double most = DBL_MAX;
    for (uint32_t g = 0; g < iv->face_count && inc_face < 0; ++g) {
        const uint8_t* c = iv->corners + iv->faces[g].first;
        bool round = false;
        for (uint32_t k = 0; k < iv->faces[g].count && !round; ++k) round = c[k] == deepest;
        if (!round) continue;
        const double d = spx_d3_dot(rn, ref_b ? iv->faces[g].normal : p->bn[g]);
        if (d < most) most = d, inc = (int)g;
    }
    clip_point buf[2][CLIP_MAX];
    int n = (int)iv->faces[inc].count;
    const uint8_t* ic = iv->corners + iv->faces[inc].first;
    for (int k = 0; k < n; ++k) buf[0][k] = (clip_point){ ip[ic[k]], (uint32_t)k };
    const uint8_t* rc = rv->corners + rv->faces[rf].first;
    const int rn_count = (int)rv->faces[rf].count;
    int cur = 0;
    for (int k = 0; k < rn_count && n > 0; ++k) {
        const spx_dvec3 q0 = rp[rc[k]], q1 = rp[rc[(k + 1) % rn_count]];
        const spx_dvec3 side = spx_d3_cross(spx_d3_sub(q1, q0), rn);
        n = clip_side(buf[cur], n, side, spx_d3_dot(side, q0), (uint32_t)k, buf[1 - cur]);
        cur = 1 - cur;
    }
    const double plane = spx_d3_dot(rn, rp[rc[0]]);
    float x[CLIP_MAX], y[CLIP_MAX], gap[CLIP_MAX];
    int kept[CLIP_MAX], count = 0;
    spx_dvec3 ux = spx_d3_sub(rp[rc[1]], rp[rc[0]]);
    ux = spx_d3_scale(ux, 1.0 / sqrt(spx_d3_len2(ux)));
    const spx_dvec3 uy = spx_d3_cross(rn, ux);
    /* A cut on a corner makes the point twice: keep it once. */
    const double same = 1e-9 * (a->radius + b->radius);
    for (int k = 0; k < n; ++k) {
        const double sep = spx_d3_dot(rn, buf[cur][k].p) - plane;
        if (sep > margin) continue;
        bool repeated = false;
        for (int j = 0; j < count && !repeated; ++j)
            repeated = spx_d3_len2(spx_d3_sub(buf[cur][kept[j]].p, buf[cur][k].p)) <= same * same;
        if (repeated) continue;
        x[count] = (float)spx_d3_dot(ux, buf[cur][k].p);
        y[count] = (float)spx_d3_dot(uy, buf[cur][k].p);
        gap[count] = (float)sep;
        kept[count++] = k;
    }
    if (count == 0) {
        /* Clipped away (a corner reaching past the reference's edge): the deepest corner alone. */
        const double sep = spx_d3_dot(rn, ip[deepest]) - plane;
        if (sep <= margin) {
            buf[cur][0] = (clip_point){ ip[deepest], 0x20000u | (uint32_t)deepest };
            gap[0] = (float)sep;
            kept[0] = 0;
            count = 1;
        }
    }
    int pick[4] = { 0, 1, 2, 3 };
    if (count > 4) {
        spx_reduce_to_four(x, y, gap, count, pick);
        count = 4;
    }
    const spx_dvec3 nab = ref_b ? spx_d3_neg(rn) : rn;
    m.normal = spx_d3_to_float(rotate(p->frame, nab));
    unsigned mask = 0;
    for (int k = 0; k < count; ++k) {
        const clip_point* c = &buf[cur][kept[pick[k]]];
        const double sep = gap[pick[k]];
        const spx_dvec3 q = spx_d3_mad(c->p, rn, -0.5 * sep);
        m.points[k].point = spx_d3_to_float(spx_d3_add(p->origin, rotate(p->frame, q)));
        if (local) local[k] = q;
        m.points[k].depth = (float)-sep;
        /* Points B's corners or sides make carry B's salt. */
        const bool of_b = !ref_b || (c->tag & 0x10000u);
        if (!of_b) mask |= 1u << k;
        m.points[k].id = feature_id(ref_b, (uint32_t)rf, (uint32_t)inc, c->tag ^ (of_b ? p->b_salt : 0u));
    }
    m.point_count = count;
    *out = m;
    return mask;
}

/* ---- checks and entry points ---- */

spx_result spx_hull_check_placed(const spx_placed_hull* h)
{
    if (!h->hull) return SPX_ERR_INVALID_ARGUMENT;
    const spx_obb pose = { h->position, { 1.0f, 1.0f, 1.0f }, h->rotation };
    return spx_obb_validate(&pose);
}

typedef spx_hull_query query;

static spx_result query_hull(const spx_placed_hull* a, const spx_placed_hull* b, query* q)
{
    if (!a || !b) return SPX_ERR_INVALID_ARGUMENT;
    if (!a->hull || !b->hull) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_hull_check_placed(a), spx_hull_check_placed(b));
    q->b_reference = -1;
    q->b_reference_cos = -2.0;
    q->b_salt = 0;
    q->b = &b->hull->view;
    q->pb = b->position;
    q->rb = &b->rotation;
    return r;
}

static spx_result query_box(const spx_placed_hull* a, const spx_obb* b, query* q)
{
    if (!a || !b || !a->hull) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_hull_check_placed(a), spx_obb_validate(b));
    if (r != SPX_OK) return r;
    spx_hull_box_view(b->half_extents, q->box_vertices, q->box_faces, &q->box_view);
    q->b_reference = -1;
    q->b_reference_cos = -2.0;
    q->b_salt = 0;
    q->b = &q->box_view;
    q->pb = b->center;
    q->rb = &b->rotation;
    return SPX_OK;
}

/* True when the bounding spheres stay farther apart than `margin` over [0, tmax]: a miss without the axes. Radii grow
   by 1e-6 and distances by 1e-9 (the double rounding), so a rejected pair is apart. */
static bool spheres_miss(const spx_placed_hull* a, spx_vec3 va, const query* q, spx_vec3 vb, double tmax, double margin)
{
    const spx_hull_view* av = &a->hull->view;
    spx_dvec3 fa[3], fb[3];
    for (int k = 0; k < 3; ++k) fa[k] = spx_d3_from(a->rotation.col[k]), fb[k] = spx_d3_from(q->rb->col[k]);
    const spx_dvec3 ca = spx_d3_add(spx_d3_from(a->position), rotate(fa, av->center));
    const spx_dvec3 cb = spx_d3_add(spx_d3_from(q->pb), rotate(fb, q->b->center));
    const spx_dvec3 d = spx_d3_sub(cb, ca);
    const spx_dvec3 w = spx_d3_scale(spx_d3_sub(spx_d3_from(vb), spx_d3_from(va)), tmax);
    const double reach = (av->radius + q->b->radius) * (1.0 + 1e-6) + margin +
                         1e-9 * (fabs(ca.x) + fabs(ca.y) + fabs(ca.z) + fabs(cb.x) + fabs(cb.y) + fabs(cb.z) +
                                 fabs(w.x) + fabs(w.y) + fabs(w.z));
    const double r2 = reach * reach, dw = spx_d3_dot(d, w), ww = spx_d3_len2(w);
    if (dw >= 0.0) return spx_d3_len2(d) > r2;                /* closest at t = 0 */
    if (-dw >= ww) return spx_d3_len2(spx_d3_add(d, w)) > r2; /* closest at tmax */
    return spx_d3_len2(spx_d3_cross(d, w)) > r2 * ww;         /* closest in between */
}

static const spx_vec3 still = { 0, 0, 0 };

static void pair_at_rest(hull_pair* p, const spx_placed_hull* a, const query* q)
{
    pair_make(p, &a->hull->view, a->position, &a->rotation, still, q->b, q->pb, q->rb, still);
}

void spx_hull_query_sweep_margin(const spx_placed_hull* a, spx_vec3 va, const query* q, spx_vec3 vb, float tmax,
                                 double margin, spx_sweep_hit* out)
{
    if (spheres_miss(a, va, q, vb, tmax, margin)) {
        *out = (spx_sweep_hit){ .state = SPX_SWEEP_MISS, .axis = -1 };
        return;
    }
    hull_pair p;
    pair_make(&p, &a->hull->view, a->position, &a->rotation, va, q->b, q->pb, q->rb, vb);
    p.margin = margin;
    pair_sweep(&p, tmax, out);
}

void spx_hull_query_sweep(const spx_placed_hull* a, spx_vec3 va, const query* q, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out)
{
    spx_hull_query_sweep_margin(a, va, q, vb, tmax, 0.0, out);
}

void spx_hull_query_penetration(const spx_placed_hull* a, const query* q, spx_penetration* out)
{
    if (spheres_miss(a, still, q, still, 0.0, 0.0)) {
        *out = (spx_penetration){ .overlapping = false, .axis = -1 };
        return;
    }
    hull_pair p;
    pair_at_rest(&p, a, q);
    pair_penetration(&p, out);
}

bool spx_hull_query_overlap(const spx_placed_hull* a, const query* q)
{
    if (spheres_miss(a, still, q, still, 0.0, 0.0)) return false;
    hull_pair p;
    pair_at_rest(&p, a, q);
    spx_sat s;
    return pair_sat(&p, 0.0, &s, false);
}

spx_result spx_hull_answer_sweep(const spx_placed_hull* a, spx_vec3 va, spx_result built, const query* q, spx_vec3 vb,
                                 float tmax, spx_sweep_hit* out)
{
    if (!out || built == SPX_ERR_INVALID_ARGUMENT) return SPX_ERR_INVALID_ARGUMENT;
    const spx_result r = spx_first_error(built, spx_check_motion(va, vb, tmax));
    if (r != SPX_OK) return r;
    spx_hull_query_sweep(a, va, q, vb, tmax, out);
    return SPX_OK;
}

spx_result spx_hull_answer_penetration(const spx_placed_hull* a, spx_result built, const query* q, spx_penetration* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    if (built != SPX_OK) return built;
    spx_hull_query_penetration(a, q, out);
    return SPX_OK;
}

spx_result spx_hull_answer_overlap(const spx_placed_hull* a, spx_result built, const query* q, bool* out_overlap)
{
    if (!out_overlap) return SPX_ERR_INVALID_ARGUMENT;
    if (built != SPX_OK) return built;
    *out_overlap = spx_hull_query_overlap(a, q);
    return SPX_OK;
}

typedef enum { ASK_SWEEP, ASK_PENETRATION, ASK_OVERLAP } question;

/* One public hull query against b_box if set, else b_hull (both NULL: SPX_ERR_INVALID_ARGUMENT), answered as `ask`
   says (motions read by a sweep only). */
static spx_result ask(question ask, const spx_placed_hull* a, spx_vec3 va, const spx_placed_hull* b_hull,
                      const spx_obb* b_box, spx_vec3 vb, float tmax, void* out)
{
    query q;
    const spx_result built = b_box ? query_box(a, b_box, &q) : query_hull(a, b_hull, &q);
    switch (ask) {
    case ASK_SWEEP:
        return spx_hull_answer_sweep(a, va, built, &q, vb, tmax, out);
    case ASK_PENETRATION:
        return spx_hull_answer_penetration(a, built, &q, out);
    default:
        return spx_hull_answer_overlap(a, built, &q, out);
    }
}

SPX_API spx_result spx_sweep_hull_hull(const spx_placed_hull* a, spx_vec3 velocity_a, const spx_placed_hull* b,
                                       spx_vec3 velocity_b, float tmax, spx_sweep_hit* out)
{
    return ask(ASK_SWEEP, a, velocity_a, b, NULL, velocity_b, tmax, out);
}

SPX_API spx_result spx_sweep_hull_obb(const spx_placed_hull* a, spx_vec3 velocity_a, const spx_obb* b,
                                      spx_vec3 velocity_b, float tmax, spx_sweep_hit* out)
{
    return ask(ASK_SWEEP, a, velocity_a, NULL, b, velocity_b, tmax, out);
}

SPX_API spx_result spx_penetration_hull_hull(const spx_placed_hull* a, const spx_placed_hull* b, spx_penetration* out)
{
    return ask(ASK_PENETRATION, a, still, b, NULL, still, 0.0f, out);
}

SPX_API spx_result spx_penetration_hull_obb(const spx_placed_hull* a, const spx_obb* b, spx_penetration* out)
{
    return ask(ASK_PENETRATION, a, still, NULL, b, still, 0.0f, out);
}

SPX_API spx_result spx_overlap_hull_hull(const spx_placed_hull* a, const spx_placed_hull* b, bool* out_overlap)
{
    return ask(ASK_OVERLAP, a, still, b, NULL, still, 0.0f, out_overlap);
}

SPX_API spx_result spx_overlap_hull_obb(const spx_placed_hull* a, const spx_obb* b, bool* out_overlap)
{
    return ask(ASK_OVERLAP, a, still, NULL, b, still, 0.0f, out_overlap);
}

unsigned spx_hull_query_manifold(const spx_placed_hull* a, const query* q, float margin, spx_manifold* out)
{
    if (spheres_miss(a, still, q, still, 0.0, margin)) {
        *out = (spx_manifold){ .point_count = 0 };
        return 0;
    }
    hull_pair p;
    pair_at_rest(&p, a, q);
    p.b_reference = q->b_reference;
    p.b_reference_cos = q->b_reference_cos;
    p.b_salt = q->b_salt;
    return pair_manifold(&p, margin, out);
}

spx_result spx_hull_answer_manifold(const spx_placed_hull* a, spx_result built, const query* q, float margin,
                                    spx_manifold* out)
{
    if (!out || built == SPX_ERR_INVALID_ARGUMENT) return SPX_ERR_INVALID_ARGUMENT;
    const spx_result r = spx_first_error(built, spx_check_margin(margin));
    if (r != SPX_OK) return r;
    spx_hull_query_manifold(a, q, margin, out);
    return SPX_OK;
}

SPX_API spx_result spx_manifold_hull_hull(const spx_placed_hull* a, const spx_placed_hull* b, float margin,
                                          spx_manifold* out)
{
    query q;
    return spx_hull_answer_manifold(a, query_hull(a, b, &q), &q, margin, out);
}

SPX_API spx_result spx_manifold_hull_obb(const spx_placed_hull* a, const spx_obb* b, float margin, spx_manifold* out)
{
    query q;
    return spx_hull_answer_manifold(a, query_box(a, b, &q), &q, margin, out);
}
