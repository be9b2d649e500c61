/* Quickhull (Barber, Dobkin, Huhdanpaa 1996) in double, then coplanar triangles merged. Visibility
 * uses a tolerance a million times finer than the corner tolerance, so the mesh stays convex.
 * See docs/tolerances.md#convex-hulls. */
#include "hull.h"
#include "core/allocator.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>

/* Before merging, points just off a face are corners too. */
#define BUILD_CORNERS 1024
#define MAX_TRIS (4 * BUILD_CORNERS + 16)

/* Visibility beyond rounding: a fraction of the cloud's size. */
#define SEE_FRACTION 1e-11

typedef struct tri {
    int v[3];   /* point numbers, counter-clockwise seen from outside */
    int adj[3]; /* triangle across edge v[i] -> v[i + 1] */
    spx_dvec3 n;
    double off;
    int outside; /* first point of its outside set, -1: none */
    int visit;
    int group;
    bool alive;
} tri;

typedef struct qh {
    const spx_dvec3* p;
    int n;
    tri* t;
    int tri_count, free_head; /* free triangles chained through outside */
    int* next;                /* outside sets, chained */
    int* horizon_from;        /* point -> horizon edge starting there, -1 */
    int* stack;
    int* horizon; /* triangle * 3 + edge, of visible triangles */
    int* cone;
    double tol, see;
    int visit;
    int corners;
} qh;

static double above(const tri* t, spx_dvec3 p) { return spx_d3_dot(t->n, p) - t->off; }

static int tri_new(qh* q, int a, int b, int c)
{
    int i;
    if (q->free_head >= 0) {
        i = q->free_head;
        q->free_head = q->t[i].outside;
    } else if (q->tri_count < MAX_TRIS) i = q->tri_count++;
    else return -1;
    tri* t = &q->t[i];
    t->v[0] = a, t->v[1] = b, t->v[2] = c;
    const spx_dvec3 pa = q->p[a];
    spx_dvec3 nrm = spx_d3_cross(spx_d3_sub(q->p[b], pa), spx_d3_sub(q->p[c], pa));
    const double len = sqrt(spx_d3_len2(nrm));
    t->n = len > 0.0 ? spx_d3_scale(nrm, 1.0 / len) : spx_d3(0, 0, 0);
    t->off = spx_d3_dot(t->n, pa);
    t->outside = -1;
    t->visit = 0;
    t->alive = true;
    t->group = -1;
    return i;
}

static void tri_free(qh* q, int i)
{
    q->t[i].alive = false;
    q->t[i].outside = q->free_head;
    q->free_head = i;
}

/* Gives point i to the first triangle of `list` it lies above by more than tol; else drops it. */
static void assign(qh* q, int i, const int* list, int count)
{
    for (int k = 0; k < count; ++k) {
        tri* t = &q->t[list[k]];
        if (above(t, q->p[i]) > q->tol) {
            q->next[i] = t->outside;
            t->outside = i;
            return;
        }
    }
}

/* Edge index of triangle t that runs a -> b. */
static int edge_of(const tri* t, int a) { return t->v[0] == a ? 0 : (t->v[1] == a ? 1 : 2); }

/* false: rounding leaves no simple horizon; the point, within rounding of the surface, is dropped. */
static bool add_point(qh* q, int start, int eye)
{
    const spx_dvec3 pe = q->p[eye];
    const int stamp = ++q->visit;
    int top = 0, visible = 0, hcount = 0;
    q->stack[top++] = start;
    q->t[start].visit = stamp;
    /* Visible triangles collected in stack[0..visible); horizon edges as they are met. */
    while (visible < top) {
        const int ti = q->stack[visible++];
        for (int e = 0; e < 3; ++e) {
            const int nb = q->t[ti].adj[e];
            if (q->t[nb].visit == stamp) continue;
            if (above(&q->t[nb], pe) > q->see) {
                q->t[nb].visit = stamp;
                q->stack[top++] = nb;
            } else q->horizon[hcount++] = ti * 3 + e;
        }
    }
    /* A visible triangle met twice as non-visible neighbour is fine; chain the horizon a -> b. */
    bool ok = hcount >= 3;
    for (int h = 0; h < hcount && ok; ++h) {
        const tri* t = &q->t[q->horizon[h] / 3];
        const int a = t->v[q->horizon[h] % 3];
        if (q->horizon_from[a] >= 0) ok = false;
        else q->horizon_from[a] = h;
    }
    int chained = 0;
    if (ok) {
        int h = 0;
        do {
            const tri* t = &q->t[q->horizon[h] / 3];
            const int b = t->v[(q->horizon[h] % 3 + 1) % 3];
            q->cone[chained++] = h;
            h = q->horizon_from[b];
        } while (h > 0 && chained <= hcount);
        ok = h == 0 && chained == hcount;
    }
    for (int h = 0; h < hcount; ++h) q->horizon_from[q->t[q->horizon[h] / 3].v[q->horizon[h] % 3]] = -1;
    if (!ok) return false;
    /* The cone: triangle (a, b, eye) for each horizon edge a -> b, in chain order. */
    int first = -1, prev = -1;
    for (int k = 0; k < hcount; ++k) {
        const int h = q->cone[k];
        const int ti = q->horizon[h] / 3, e = q->horizon[h] % 3;
        const int a = q->t[ti].v[e], b = q->t[ti].v[(e + 1) % 3];
        const int out = q->t[ti].adj[e];
        const int nt = tri_new(q, a, b, eye);
        if (nt < 0) return false; /* cannot happen below BUILD_CORNERS */
        q->t[nt].adj[0] = out;
        q->t[out].adj[edge_of(&q->t[out], b)] = nt;
        if (prev >= 0) {
            q->t[nt].adj[2] = prev;
            q->t[prev].adj[1] = nt;
        } else first = nt;
        prev = nt;
        q->cone[k] = nt;
    }
    q->t[prev].adj[1] = first;
    q->t[first].adj[2] = prev;
    /* The visible triangles' points go to the cone or are inside now. */
    for (int k = 0; k < visible; ++k) {
        const int ti = q->stack[k];
        int i = q->t[ti].outside;
        while (i >= 0) {
            const int nx = q->next[i];
            if (i != eye) assign(q, i, q->cone, hcount);
            i = nx;
        }
        tri_free(q, ti);
    }
    q->corners++;
    return true;
}

/* Farthest point of the cloud from the line a-b, or from the plane of a, b, c. */
static int farthest_from_line(const qh* q, int a, int b, double* out)
{
    const spx_dvec3 d = spx_d3_sub(q->p[b], q->p[a]);
    const double d2 = spx_d3_len2(d);
    int best = -1;
    double far = -1.0;
    for (int i = 0; i < q->n; ++i) {
        const double x = spx_d3_len2(spx_d3_cross(spx_d3_sub(q->p[i], q->p[a]), d)) / d2;
        if (x > far) far = x, best = i;
    }
    *out = sqrt(far);
    return best;
}

/* The merged faces: groups of triangles near one plane, their boundary loops. */
static int by_area_desc(const void* x, const void* y)
{
    const double a = ((const double*)x)[0], b = ((const double*)y)[0];
    return a < b ? 1 : (a > b ? -1 : 0);
}

typedef struct merged {
    uint32_t* corners;
    uint32_t* sizes;
    uint32_t count, total;
} merged;

static bool group_loop(qh* q, int g, const int* members, int count, uint32_t* out, uint32_t* out_count)
{
    /* Boundary edges a -> b of the group, chained through horizon_from. */
    int edges = 0;
    bool ok = true;
    for (int k = 0; k < count && ok; ++k) {
        const tri* t = &q->t[members[k]];
        for (int e = 0; e < 3; ++e) {
            if (q->t[t->adj[e]].group == g) continue;
            const int a = t->v[e];
            if (q->horizon_from[a] >= 0) ok = false;
            q->horizon_from[a] = t->v[(e + 1) % 3];
            q->horizon[edges++] = a;
        }
    }
    uint32_t n = 0;
    if (ok && edges >= 3) {
        int a = q->horizon[0];
        do {
            out[n++] = (uint32_t)a;
            a = q->horizon_from[a];
        } while (a != q->horizon[0] && a >= 0 && (int)n <= edges);
        ok = a == q->horizon[0] && (int)n == edges;
    } else ok = false;
    for (int k = 0; k < edges; ++k) q->horizon_from[q->horizon[k]] = -1;
    *out_count = n;
    return ok;
}

spx_result spx_quickhull(const spx_vec3* points, uint32_t count, const spx_allocator* allocator, spx_hull** out)
{
    if (count > 0x3FFFFFFFu) return SPX_ERR_INVALID_ARGUMENT;
    const int n = (int)count;
    /* Scratch: points in double about the box centre, the chains, the triangles. */
    const size_t bytes = sizeof(spx_dvec3) * (size_t)n + 2 * sizeof(int) * (size_t)n + sizeof(tri) * MAX_TRIS +
                         5 * sizeof(int) * MAX_TRIS + sizeof(int) * 3 * MAX_TRIS + 2 * sizeof(double) * MAX_TRIS +
                         sizeof(uint32_t) * (3 * MAX_TRIS + 2 * MAX_TRIS);
    char* block = spx_alloc(allocator, bytes, 16);
    if (!block) return SPX_ERR_OUT_OF_MEMORY;
    char* at = block;
    spx_dvec3* p = (spx_dvec3*)at;
    at += sizeof(spx_dvec3) * (size_t)n;
    tri* tris = (tri*)at;
    at += sizeof(tri) * MAX_TRIS;
    double* areas = (double*)at; /* (area, triangle) pairs */
    at += 2 * sizeof(double) * MAX_TRIS;
    int* next = (int*)at;
    at += sizeof(int) * (size_t)n;
    int* horizon_from = (int*)at;
    at += sizeof(int) * (size_t)n;
    int* stack = (int*)at;
    at += sizeof(int) * MAX_TRIS;
    int* horizon = (int*)at;
    at += sizeof(int) * 3 * MAX_TRIS;
    int* cone = (int*)at;
    at += sizeof(int) * MAX_TRIS;
    int* members = (int*)at;
    at += sizeof(int) * 3 * MAX_TRIS;
    uint32_t* loop_corners = (uint32_t*)at;
    at += sizeof(uint32_t) * 3 * MAX_TRIS;
    uint32_t* loop_sizes = (uint32_t*)at;

    spx_dvec3 lo = spx_d3(DBL_MAX, DBL_MAX, DBL_MAX), hi = spx_d3(-DBL_MAX, -DBL_MAX, -DBL_MAX);
    for (int i = 0; i < n; ++i) {
        const spx_dvec3 x = spx_d3_from(points[i]);
        lo = spx_d3(spx_dmin(lo.x, x.x), spx_dmin(lo.y, x.y), spx_dmin(lo.z, x.z));
        hi = spx_d3(spx_dmax(hi.x, x.x), spx_dmax(hi.y, x.y), spx_dmax(hi.z, x.z));
    }
    const spx_dvec3 mid = spx_d3_lerp_mid(lo, hi);
    for (int i = 0; i < n; ++i) {
        p[i] = spx_d3_sub(spx_d3_from(points[i]), mid);
        next[i] = -1;
        horizon_from[i] = -1;
    }
    const double size = sqrt(spx_d3_len2(spx_d3_sub(hi, lo)));
    qh q = { p,
             n,
             tris,
             0,
             -1,
             next,
             horizon_from,
             stack,
             horizon,
             cone,
             (double)SPX_HULL_PLANE_TOLERANCE * size,
             SEE_FRACTION * size,
             0,
             4 };
    spx_result r = SPX_OK;

    /* The first tetrahedron: the two farthest apart of the six extreme points, the point farthest
       from their line, the point farthest from the plane of the three. */
    int ext[6] = { 0, 0, 0, 0, 0, 0 };
    for (int i = 0; i < n; ++i) {
        const double c[3] = { p[i].x, p[i].y, p[i].z };
        for (int k = 0; k < 3; ++k) {
            const spx_dvec3 lo_k = p[ext[2 * k]], hi_k = p[ext[2 * k + 1]];
            const double l[3] = { lo_k.x, lo_k.y, lo_k.z }, h[3] = { hi_k.x, hi_k.y, hi_k.z };
            if (c[k] < l[k]) ext[2 * k] = i;
            if (c[k] > h[k]) ext[2 * k + 1] = i;
        }
    }
    int i0 = ext[0], i1 = ext[1];
    double far = -1.0;
    for (int a = 0; a < 6; ++a)
        for (int b = a + 1; b < 6; ++b) {
            const double d = spx_d3_len2(spx_d3_sub(p[ext[a]], p[ext[b]]));
            if (d > far) far = d, i0 = ext[a], i1 = ext[b];
        }
    int i2 = -1, i3 = -1;
    if (!(sqrt(far) > q.tol)) r = SPX_ERR_FLAT_HULL;
    if (r == SPX_OK) {
        i2 = farthest_from_line(&q, i0, i1, &far);
        if (!(far > q.tol)) r = SPX_ERR_FLAT_HULL;
    }
    if (r == SPX_OK) {
        const spx_dvec3 nrm = spx_d3_cross(spx_d3_sub(p[i1], p[i0]), spx_d3_sub(p[i2], p[i0]));
        const double len = sqrt(spx_d3_len2(nrm));
        far = 0.0;
        for (int i = 0; i < n; ++i) {
            const double d = fabs(spx_d3_dot(nrm, spx_d3_sub(p[i], p[i0]))) / len;
            if (d > far) far = d, i3 = i;
        }
        if (!(far > q.tol)) r = SPX_ERR_FLAT_HULL;
        else if (spx_d3_dot(nrm, spx_d3_sub(p[i3], p[i0])) > 0.0) { /* i3 above: turn the base over */ const int s = i1;
            i1 = i2;
            i2 = s;
        }
    }
    if (r == SPX_OK) {
        /* Base (i0, i1, i2) faces away from i3; the sides each take one base edge reversed. */
        const int t0 = tri_new(&q, i0, i1, i2), t1 = tri_new(&q, i1, i0, i3), t2 = tri_new(&q, i2, i1, i3),
                  t3 = tri_new(&q, i0, i2, i3);
        const int adj[4][3] = { { t1, t2, t3 }, { t0, t3, t2 }, { t0, t1, t3 }, { t0, t2, t1 } };
        const int ts[4] = { t0, t1, t2, t3 };
        for (int k = 0; k < 4; ++k)
            for (int e = 0; e < 3; ++e) tris[ts[k]].adj[e] = adj[k][e];
        for (int i = 0; i < n; ++i)
            if (i != i0 && i != i1 && i != i2 && i != i3) assign(&q, i, ts, 4);
        /* Add the farthest point of any outside set until none is left. */
        for (int ti = 0; ti < q.tri_count && r == SPX_OK;) {
            tri* t = &tris[ti];
            if (!t->alive || t->outside < 0) {
                ++ti;
                continue;
            }
            int eye = t->outside;
            double best = above(t, p[eye]);
            for (int i = next[eye]; i >= 0; i = next[i]) {
                const double d = above(t, p[i]);
                if (d > best) best = d, eye = i;
            }
            if (q.corners >= BUILD_CORNERS) r = SPX_ERR_TOO_MANY_CORNERS;
            else if (!add_point(&q, ti, eye)) {
                /* Drop the point from this set and go on. */
                int* link = &t->outside;
                while (*link != eye) link = &next[*link];
                *link = next[eye];
            }
            ti = 0;
        }
    }
    /* Merge: from the largest triangle down, each group takes its neighbours whose corners lie
       within the tolerance of the group's first plane. */
    uint32_t loop_count = 0, total = 0;
    int group_count = 0;
    if (r == SPX_OK) {
        int live = 0;
        for (int i = 0; i < q.tri_count; ++i) {
            if (!tris[i].alive) continue;
            const tri* t = &tris[i];
            const spx_dvec3 c = spx_d3_cross(spx_d3_sub(p[t->v[1]], p[t->v[0]]), spx_d3_sub(p[t->v[2]], p[t->v[0]]));
            areas[2 * live] = spx_d3_len2(c);
            areas[2 * live + 1] = i;
            ++live;
        }
        qsort(areas, (size_t)live, 2 * sizeof(double), by_area_desc);
        for (int s = 0; s < live && r == SPX_OK; ++s) {
            const int seed = (int)areas[2 * s + 1];
            if (tris[seed].group >= 0) continue;
            const int g = group_count++;
            int in_group = 0, head = 0;
            tris[seed].group = g;
            members[in_group++] = seed;
            const tri* st = &tris[seed];
            while (head < in_group) {
                const tri* t = &tris[members[head++]];
                for (int e = 0; e < 3; ++e) {
                    tri* nb = &tris[t->adj[e]];
                    if (nb->group >= 0 || spx_d3_dot(nb->n, st->n) <= 0.0) continue;
                    bool flat = true;
                    for (int k = 0; k < 3; ++k) flat = flat && fabs(above(st, p[nb->v[k]])) <= q.tol;
                    if (flat) {
                        nb->group = g;
                        members[in_group++] = (int)(nb - tris);
                    }
                }
            }
            uint32_t size_g = 0;
            if (group_loop(&q, g, members, in_group, loop_corners + total, &size_g)) {
                loop_sizes[loop_count++] = size_g;
                total += size_g;
            } else {
                /* Not one simple loop: keep the group's triangles as faces of their own. */
                for (int k = 0; k < in_group; ++k) {
                    tri* t = &tris[members[k]];
                    t->group = k == 0 ? g : group_count++;
                    for (int c = 0; c < 3; ++c) loop_corners[total++] = (uint32_t)t->v[c];
                    loop_sizes[loop_count++] = 3;
                }
            }
        }
    }
    if (r == SPX_OK) {
        /* Corners in fewer than three faces are dropped unless a face would keep under three. */
        for (uint32_t k = 0; k < total; ++k) horizon_from[loop_corners[k]] = 0;
        for (uint32_t k = 0; k < total; ++k) horizon_from[loop_corners[k]]++;
        bool can_drop = true;
        for (uint32_t f = 0, k = 0; f < loop_count; k += loop_sizes[f++]) {
            uint32_t kept = 0;
            for (uint32_t i = 0; i < loop_sizes[f]; ++i) kept += horizon_from[loop_corners[k + i]] >= 3;
            if (kept < 3) can_drop = false;
        }
        if (can_drop) {
            uint32_t w = 0;
            for (uint32_t f = 0, k = 0; f < loop_count; ++f) {
                const uint32_t given = loop_sizes[f];
                uint32_t kept = 0;
                for (uint32_t i = 0; i < given; ++i)
                    if (horizon_from[loop_corners[k + i]] >= 3) loop_corners[w + kept++] = loop_corners[k + i];
                loop_sizes[f] = kept;
                w += kept;
                k += given;
            }
            total = w;
        }
        for (uint32_t k = 0; k < total; ++k) horizon_from[loop_corners[k]] = -1;
        const spx_hull_loops loops = { points, loop_corners, loop_sizes, loop_count, count };
        r = spx_hull_from_loops(&loops, false, size, allocator, out);
    }
    spx_free(allocator, block, bytes);
    return r;
}
