/* The double-precision brute-force reference: GJK distance on vertex sets, exact penetration depth
   over the facet-normal candidates of the Minkowski difference, and the swept answer from the
   convex signed distance sd(t). See reference.h for why each part is sound. */
#include "reference.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- small vector helpers (double[3]) -------------------------------------------------------- */

static void v_set(double r[3], double x, double y, double z)
{
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
static void v_copy(double r[3], const double a[3]) { memcpy(r, a, 3 * sizeof(double)); }
static void v_sub(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}
static void v_add(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] + b[0];
    r[1] = a[1] + b[1];
    r[2] = a[2] + b[2];
}
static void v_scale_add(double r[3], const double a[3], double s, const double b[3])
{
    r[0] = a[0] + s * b[0];
    r[1] = a[1] + s * b[1];
    r[2] = a[2] + s * b[2];
}
static void v_cross(double r[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    v_set(r, x, y, z);
}
double test_ref_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double v_len2(const double a[3]) { return test_ref_dot(a, a); }

double test_ref_angle(const double a[3], const double b[3])
{
    /* atan2 of |a x b| and a.b stays accurate for tiny angles, where acos of the dot does not. */
    double c[3];
    v_cross(c, a, b);
    return atan2(sqrt(v_len2(c)), test_ref_dot(a, b));
}

static void from_spx(double r[3], spx_vec3 v) { v_set(r, v.x, v.y, v.z); }

/* ---- pieces ---------------------------------------------------------------------------------- */

/* Keeps a cross product as a direction only when it is not the rounding noise of parallel inputs. */
static bool unit_cross(double r[3], const double a[3], const double b[3])
{
    v_cross(r, a, b);
    double l2 = v_len2(r), scale = v_len2(a) * v_len2(b);
    if (!(l2 > 1e-24 * scale) || l2 == 0.0) return false;
    double inv = 1.0 / sqrt(l2);
    r[0] *= inv;
    r[1] *= inv;
    r[2] *= inv;
    return true;
}

void test_ref_piece_from_obb(const spx_obb* box, test_ref_piece* out)
{
    memset(out, 0, sizeof *out);
    double c[3], h[3] = { box->half_extents.x, box->half_extents.y, box->half_extents.z }, col[3][3];
    from_spx(c, box->center);
    for (int i = 0; i < 3; ++i) from_spx(col[i], box->rotation.col[i]);
    /* Corner k takes +h along axis i when bit i of k is set (the order of spx_obb_get_corners, though
       nothing here depends on it). The float columns are taken as they are: if they are a hair
       off orthonormal, the piece is that parallelepiped, and its face normals are crosses. */
    out->count = 8;
    for (int k = 0; k < 8; ++k) {
        double p[3];
        v_copy(p, c);
        for (int i = 0; i < 3; ++i) v_scale_add(p, p, (k >> i) & 1 ? h[i] : -h[i], col[i]);
        v_copy(out->v[k], p);
    }
    out->edge_count = 3;
    for (int i = 0; i < 3; ++i) v_copy(out->edge[i], col[i]);
    for (int i = 0; i < 3; ++i)
        if (unit_cross(out->normal[out->normal_count], col[(i + 1) % 3], col[(i + 2) % 3])) ++out->normal_count;
    out->flat = false;
}

void test_ref_piece_from_triangle(const spx_triangle* tri, test_ref_piece* out)
{
    memset(out, 0, sizeof *out);
    out->count = 3;
    for (int i = 0; i < 3; ++i) from_spx(out->v[i], tri->v[i]);
    out->edge_count = 3;
    for (int i = 0; i < 3; ++i) v_sub(out->edge[i], out->v[(i + 1) % 3], out->v[i]);
    /* Take the normal from the two longest edges: the cross of a short edge is the noisier. */
    int shortest = 0;
    for (int i = 1; i < 3; ++i)
        if (v_len2(out->edge[i]) < v_len2(out->edge[shortest])) shortest = i;
    if (unit_cross(out->normal[0], out->edge[(shortest + 1) % 3], out->edge[(shortest + 2) % 3])) {
        out->normal_count = 1;
        out->flat = true; /* a plane piece: its in-plane edge normals bound coplanar overlaps */
    }
}

void test_ref_piece_from_point(const double p[3], test_ref_piece* out)
{
    memset(out, 0, sizeof *out);
    out->count = 1;
    v_copy(out->v[0], p);
}

/* ---- GJK ------------------------------------------------------------------------------------- */

typedef struct gjk_vertex {
    double w[3]; /* b - a */
    double a[3], b[3];
    int ia, ib;
} gjk_vertex;

typedef struct gjk_simplex {
    int n;
    gjk_vertex s[4];
    double lambda[4];
    double p[3]; /* closest point of the simplex to the origin */
} gjk_simplex;

static void closest_on_segment(const gjk_vertex* p, const gjk_vertex* q, gjk_simplex* out)
{
    double ab[3];
    v_sub(ab, q->w, p->w);
    double l2 = v_len2(ab);
    double t = l2 > 0.0 ? -test_ref_dot(p->w, ab) / l2 : 0.0;
    if (t <= 0.0) {
        out->n = 1;
        out->s[0] = *p;
        out->lambda[0] = 1.0;
        v_copy(out->p, p->w);
    } else if (t >= 1.0) {
        out->n = 1;
        out->s[0] = *q;
        out->lambda[0] = 1.0;
        v_copy(out->p, q->w);
    } else {
        out->n = 2;
        out->s[0] = *p;
        out->s[1] = *q;
        out->lambda[0] = 1.0 - t;
        out->lambda[1] = t;
        /* The component of p across the segment: subtracting the along part keeps the small
           perpendicular distance accurate when the segment is long. */
        v_scale_add(out->p, p->w, t, ab);
    }
}

static void simplex_point(const gjk_simplex* s, double v[3]) { v_copy(v, s->p); }

static void set_vertex(gjk_simplex* out, const gjk_vertex* a)
{
    out->n = 1;
    out->s[0] = *a;
    out->lambda[0] = 1.0;
    v_copy(out->p, a->w);
}

static void set_edge(gjk_simplex* out, const gjk_vertex* a, const gjk_vertex* b, double t)
{
    out->n = 2;
    out->s[0] = *a;
    out->s[1] = *b;
    out->lambda[0] = 1.0 - t;
    out->lambda[1] = t;
    double ab[3];
    v_sub(ab, b->w, a->w);
    v_scale_add(out->p, a->w, t, ab);
}

/* Closest point of triangle (a, b, c) to the origin by its Voronoi regions (Ericson, RTCD 5.1.5). */
static void closest_on_triangle(const gjk_vertex* A, const gjk_vertex* B, const gjk_vertex* C, gjk_simplex* out)
{
    const double *a = A->w, *b = B->w, *c = C->w;
    double ab[3], ac[3], n[3];
    v_sub(ab, b, a);
    v_sub(ac, c, a);
    v_cross(n, ab, ac);
    if (!(v_len2(n) > 1e-24 * v_len2(ab) * v_len2(ac))) {
        /* Collinear corners: the closest point is on one of the edges. */
        gjk_simplex best, cand;
        memset(&best, 0, sizeof best);
        memset(&cand, 0, sizeof cand);
        double vb[3], vc[3];
        closest_on_segment(A, B, &best);
        simplex_point(&best, vb);
        const gjk_vertex* pairs[2][2] = { { A, C }, { B, C } };
        for (int k = 0; k < 2; ++k) {
            closest_on_segment(pairs[k][0], pairs[k][1], &cand);
            simplex_point(&cand, vc);
            if (v_len2(vc) < v_len2(vb)) {
                best = cand;
                v_copy(vb, vc);
            }
        }
        *out = best;
        return;
    }
    double ap[3] = { -a[0], -a[1], -a[2] }, bp[3] = { -b[0], -b[1], -b[2] }, cp[3] = { -c[0], -c[1], -c[2] };
    double d1 = test_ref_dot(ab, ap), d2 = test_ref_dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) {
        set_vertex(out, A);
        return;
    }
    double d3 = test_ref_dot(ab, bp), d4 = test_ref_dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) {
        set_vertex(out, B);
        return;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        set_edge(out, A, B, d1 / (d1 - d3));
        return;
    }
    double d5 = test_ref_dot(ab, cp), d6 = test_ref_dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) {
        set_vertex(out, C);
        return;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        set_edge(out, A, C, d2 / (d2 - d6));
        return;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        set_edge(out, B, C, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
        return;
    }
    double denom = 1.0 / (va + vb + vc);
    out->n = 3;
    out->s[0] = *A;
    out->s[1] = *B;
    out->s[2] = *C;
    out->lambda[1] = vb * denom;
    out->lambda[2] = vc * denom;
    out->lambda[0] = 1.0 - out->lambda[1] - out->lambda[2];
    /* Inside the face the closest point is the foot on the plane: n (n.a) / (n.n) is accurate
       even when the triangle is huge against the distance, where summing weighted corners is not. */
    double s_ = test_ref_dot(n, a) / v_len2(n);
    v_set(out->p, s_ * n[0], s_ * n[1], s_ * n[2]);
}

/* Returns true when the origin is inside the tetrahedron (distance 0). */
static bool closest_on_tetrahedron(const gjk_simplex* in, gjk_simplex* out)
{
    static const int faces[4][4] = { { 0, 1, 2, 3 }, { 0, 2, 3, 1 }, { 0, 3, 1, 2 }, { 1, 3, 2, 0 } };
    const gjk_vertex* s = in->s;
    double e1[3], e2[3], e3[3], n[3];
    v_sub(e1, s[1].w, s[0].w);
    v_sub(e2, s[2].w, s[0].w);
    v_sub(e3, s[3].w, s[0].w);
    v_cross(n, e1, e2);
    double vol = test_ref_dot(n, e3);
    double scale = sqrt(v_len2(e1) * v_len2(e2) * v_len2(e3));
    bool flat = !(fabs(vol) > 1e-12 * scale);
    bool any = false;
    double best_d2 = DBL_MAX;
    for (int f = 0; f < 4; ++f) {
        const gjk_vertex *p = &s[faces[f][0]], *q = &s[faces[f][1]], *r = &s[faces[f][2]], *o = &s[faces[f][3]];
        if (!flat) {
            /* The origin can be closest to this face only if it lies on the far side of its plane
               from the opposite vertex. */
            double pq[3], pr[3], fn[3], po[3];
            v_sub(pq, q->w, p->w);
            v_sub(pr, r->w, p->w);
            v_cross(fn, pq, pr);
            v_sub(po, o->w, p->w);
            double side_o = test_ref_dot(fn, po), side_origin = -test_ref_dot(fn, p->w);
            if (side_origin * side_o > 0.0) continue;
        }
        gjk_simplex cand;
        memset(&cand, 0, sizeof cand);
        double v[3];
        closest_on_triangle(p, q, r, &cand);
        simplex_point(&cand, v);
        if (v_len2(v) < best_d2) {
            best_d2 = v_len2(v);
            *out = cand;
            any = true;
        }
    }
    return !any;
}

static int support(const test_ref_piece* p, const double off[3], const double d[3], double out[3])
{
    int best = 0;
    double bd = test_ref_dot(p->v[0], d);
    for (int i = 1; i < p->count; ++i) {
        double x = test_ref_dot(p->v[i], d);
        if (x > bd) {
            bd = x;
            best = i;
        }
    }
    v_add(out, p->v[best], off);
    return best;
}

double test_ref_gjk_distance(const test_ref_piece* a, const double offset_a[3], const test_ref_piece* b,
                             const double offset_b[3], test_ref_distance* out)
{
    static const double zero[3] = { 0, 0, 0 };
    const double* oa = offset_a ? offset_a : zero;
    const double* ob = offset_b ? offset_b : zero;
    gjk_simplex sim;
    memset(&sim, 0, sizeof sim);
    sim.n = 1;
    sim.lambda[0] = 1.0;
    gjk_vertex* s0 = &sim.s[0];
    s0->ia = 0;
    s0->ib = 0;
    v_add(s0->a, a->v[0], oa);
    v_add(s0->b, b->v[0], ob);
    v_sub(s0->w, s0->b, s0->a);
    double v[3];
    v_copy(v, s0->w);
    double scale2 = v_len2(v);
    bool converged = false, inside = false;
    int it = 0;
    for (; it < 128; ++it) {
        double d2 = v_len2(v);
        /* Zero within the resolution of double at this scale: touching or overlapping. */
        if (d2 <= 1e-30 * scale2) {
            inside = true;
            converged = true;
            break;
        }
        double dir_a[3] = { v[0], v[1], v[2] }, dir_b[3] = { -v[0], -v[1], -v[2] };
        gjk_vertex w;
        w.ia = support(a, oa, dir_a, w.a); /* a extreme along v, b extreme along -v: b - a extreme along -v */
        w.ib = support(b, ob, dir_b, w.b);
        v_sub(w.w, w.b, w.a);
        if (v_len2(w.w) > scale2) scale2 = v_len2(w.w);
        /* Lower bound v.w / |v| on the distance against the upper bound |v|: stop when they meet. */
        if (d2 - test_ref_dot(v, w.w) <= 1e-14 * d2) {
            converged = true;
            break;
        }
        bool repeated = false;
        for (int i = 0; i < sim.n; ++i)
            if (sim.s[i].ia == w.ia && sim.s[i].ib == w.ib) repeated = true;
        if (repeated) {
            converged = true;
            break;
        } /* no new support point: no further progress */
        gjk_simplex grown = sim, next;
        memset(&next, 0, sizeof next);
        grown.s[grown.n++] = w;
        if (grown.n == 2) closest_on_segment(&grown.s[0], &grown.s[1], &next);
        else if (grown.n == 3) closest_on_triangle(&grown.s[0], &grown.s[1], &grown.s[2], &next);
        else if (closest_on_tetrahedron(&grown, &next)) {
            inside = true;
            converged = true;
            sim = grown;
            break;
        }
        double nv[3];
        simplex_point(&next, nv);
        if (v_len2(nv) >= d2) {
            converged = true;
            break;
        } /* rounding stalls the descent: |v| is final */
        sim = next;
        v_copy(v, nv);
    }
    double dist = inside ? 0.0 : sqrt(v_len2(v));
    if (out) {
        memset(out, 0, sizeof *out);
        out->distance = dist;
        out->iterations = it;
        out->converged = converged;
        if (!inside) {
            for (int i = 0; i < sim.n; ++i) {
                v_scale_add(out->point_a, out->point_a, sim.lambda[i], sim.s[i].a);
                v_scale_add(out->point_b, out->point_b, sim.lambda[i], sim.s[i].b);
            }
            if (dist > 0.0)
                for (int k = 0; k < 3; ++k) out->direction[k] = v[k] / dist;
        }
    }
    return dist;
}

/* ---- candidate axes and penetration ---------------------------------------------------------- */

static void add_axis(test_ref_axes* ax, const double n[3])
{
    if (ax->count < TEST_REF_MAX_AXES) v_copy(ax->n[ax->count++], n);
}

void test_ref_candidate_axes(const test_ref_piece* a, const test_ref_piece* b, test_ref_axes* out)
{
    out->count = 0;
    for (int i = 0; i < a->normal_count; ++i) add_axis(out, a->normal[i]);
    for (int i = 0; i < b->normal_count; ++i) add_axis(out, b->normal[i]);
    double n[3];
    for (int i = 0; i < a->edge_count; ++i)
        for (int j = 0; j < b->edge_count; ++j)
            if (unit_cross(n, a->edge[i], b->edge[j])) add_axis(out, n);
    /* In-plane edge normals: facets of the Minkowski sum of two pieces in parallel planes. They
       never lower the minimum wrongly (every direction bounds the depth from above). */
    const test_ref_piece* flat[2] = { a, b };
    for (int k = 0; k < 2; ++k)
        if (flat[k]->flat)
            for (int i = 0; i < flat[k]->edge_count; ++i)
                if (unit_cross(n, flat[k]->normal[0], flat[k]->edge[i])) add_axis(out, n);
}

static void project(const test_ref_piece* p, const double v[3], double t, const double n[3], double* lo, double* hi)
{
    double mn = DBL_MAX, mx = -DBL_MAX;
    for (int i = 0; i < p->count; ++i) {
        double x = test_ref_dot(p->v[i], n);
        if (x < mn) mn = x;
        if (x > mx) mx = x;
    }
    double shift = t * test_ref_dot(v, n);
    *lo = mn + shift;
    *hi = mx + shift;
}

double test_ref_gap_along(const test_ref_problem* p, const double n[3], double t)
{
    double alo, ahi, blo, bhi;
    project(&p->a, p->va, t, n, &alo, &ahi);
    project(&p->b, p->vb, t, n, &blo, &bhi);
    return blo - ahi;
}

void test_ref_penetration_at(const test_ref_problem* p, double t, test_ref_penetration* out)
{
    double best = DBL_MAX, best_n[3] = { 0, 0, 0 };
    double over[TEST_REF_MAX_AXES][2];
    for (int i = 0; i < p->axes.count; ++i) {
        double alo, ahi, blo, bhi;
        project(&p->a, p->va, t, p->axes.n[i], &alo, &ahi);
        project(&p->b, p->vb, t, p->axes.n[i], &blo, &bhi);
        over[i][0] = ahi - blo; /* B pushed along +n */
        over[i][1] = bhi - alo; /* B pushed along -n */
        for (int s = 0; s < 2; ++s)
            if (over[i][s] < best) {
                best = over[i][s];
                for (int k = 0; k < 3; ++k) best_n[k] = s == 0 ? p->axes.n[i][k] : -p->axes.n[i][k];
            }
    }
    double second = DBL_MAX;
    for (int i = 0; i < p->axes.count; ++i)
        for (int s = 0; s < 2; ++s) {
            double d[3];
            for (int k = 0; k < 3; ++k) d[k] = s == 0 ? p->axes.n[i][k] : -p->axes.n[i][k];
            if (test_ref_angle(d, best_n) > 5e-4 && over[i][s] < second) second = over[i][s];
        }
    out->depth = p->axes.count > 0 && best > 0.0 ? best : 0.0;
    v_copy(out->normal, best_n);
    out->second = second;
}

double test_ref_signed_distance(const test_ref_problem* p, double t, test_ref_distance* out_optional)
{
    double oa[3], ob[3];
    for (int k = 0; k < 3; ++k) {
        oa[k] = t * p->va[k];
        ob[k] = t * p->vb[k];
    }
    test_ref_distance tmp;
    test_ref_distance* d = out_optional ? out_optional : &tmp;
    double dist = test_ref_gjk_distance(&p->a, oa, &p->b, ob, d);
    if (dist > 0.0) return dist;
    test_ref_penetration pen;
    test_ref_penetration_at(p, t, &pen);
    return -pen.depth;
}

double test_ref_point_distance(const test_ref_problem* p, int which, const double point[3], double t)
{
    test_ref_piece q;
    test_ref_piece_from_point(point, &q);
    const test_ref_piece* piece = which == 0 ? &p->a : &p->b;
    const double* v = which == 0 ? p->va : p->vb;
    double off[3] = { t * v[0], t * v[1], t * v[2] };
    return test_ref_gjk_distance(piece, off, &q, NULL, NULL);
}

/* ---- problems -------------------------------------------------------------------------------- */

static double diameter(const test_ref_piece* p)
{
    double best = 0.0;
    for (int i = 0; i < p->count; ++i)
        for (int j = i + 1; j < p->count; ++j) {
            double d[3];
            v_sub(d, p->v[i], p->v[j]);
            if (v_len2(d) > best) best = v_len2(d);
        }
    return sqrt(best);
}

static void finish_problem(test_ref_problem* out, spx_vec3 va, spx_vec3 vb, float tmax)
{
    from_spx(out->va, va);
    from_spx(out->vb, vb);
    out->tmax = tmax;
    test_ref_candidate_axes(&out->a, &out->b, &out->axes);
    double w[3];
    v_sub(w, out->vb, out->va);
    double s = fmax(diameter(&out->a), diameter(&out->b));
    s = fmax(s, sqrt(v_len2(out->va)) * out->tmax);
    s = fmax(s, sqrt(v_len2(out->vb)) * out->tmax);
    s = fmax(s, sqrt(v_len2(w)) * out->tmax);
    out->size = s;
}

void test_ref_problem_obb_obb(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, float tmax,
                              test_ref_problem* out)
{
    memset(out, 0, sizeof *out);
    test_ref_piece_from_obb(a, &out->a);
    test_ref_piece_from_obb(b, &out->b);
    finish_problem(out, va, vb, tmax);
}

void test_ref_problem_obb_triangle(const spx_obb* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb, float tmax,
                                   test_ref_problem* out)
{
    memset(out, 0, sizeof *out);
    test_ref_piece_from_obb(a, &out->a);
    test_ref_piece_from_triangle(b, &out->b);
    finish_problem(out, va, vb, tmax);
}

void test_ref_problem_triangle_triangle(const spx_triangle* a, spx_vec3 va, const spx_triangle* b, spx_vec3 vb,
                                        float tmax, test_ref_problem* out)
{
    memset(out, 0, sizeof *out);
    test_ref_piece_from_triangle(a, &out->a);
    test_ref_piece_from_triangle(b, &out->b);
    finish_problem(out, va, vb, tmax);
}

/* ---- the swept answer ------------------------------------------------------------------------ */

double test_ref_first_time_below(const test_ref_problem* p, double level, double t0, double t1)
{
    /* sd is convex, so {t : sd(t) <= level} is an interval and its left end is a clean bisection. */
    double lo = t0, hi = t1;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * fmax(p->tmax, fabs(hi)); ++i) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (test_ref_signed_distance(p, mid, NULL) <= level) hi = mid;
        else lo = mid;
    }
    return hi;
}

test_ref_golden test_ref_golden_search(test_ref_time_fn* f, const void* context, double lo, double hi, int steps,
                                       double width, bool ties_left, int* evals)
{
    const double g = 0.5 * (sqrt(5.0) - 1.0);
    test_ref_golden s;
    s.x1 = hi - g * (hi - lo), s.x2 = lo + g * (hi - lo);
    s.f1 = f(context, s.x1), s.f2 = f(context, s.x2);
    if (evals) *evals += 2;
    for (int i = 0; i < steps && (width < 0.0 || hi - lo > width); ++i) {
        if (ties_left ? s.f1 <= s.f2 : s.f1 < s.f2) {
            hi = s.x2;
            s.x2 = s.x1;
            s.f2 = s.f1;
            s.x1 = hi - g * (hi - lo);
            s.f1 = f(context, s.x1);
        } else {
            lo = s.x1;
            s.x1 = s.x2;
            s.f1 = s.f2;
            s.x2 = lo + g * (hi - lo);
            s.f2 = f(context, s.x2);
        }
        if (evals) ++*evals;
    }
    return s;
}

static double problem_sd(const void* p, double t) { return test_ref_signed_distance(p, t, NULL); }

/* The minimum of the convex sd on [lo, hi], at *t_at. */
static double golden_min(const test_ref_problem* p, double lo, double hi, double* t_at, int* evals)
{
    const test_ref_golden s = test_ref_golden_search(problem_sd, p, lo, hi, 80, 1e-13 * p->tmax, true, evals);
    *t_at = s.f1 <= s.f2 ? s.x1 : s.x2;
    return s.f1 <= s.f2 ? s.f1 : s.f2;
}

/* The contact normal is unique when no other candidate axis is (nearly) supporting too: a second
   direction with gap within tol of zero at the contact time means the contact is at or near an
   edge or vertex of the Minkowski difference, where a whole cone of normals is valid. */
static bool contact_normal_unique(const test_ref_problem* p, double t, const double normal[3], double tol)
{
    double w[3];
    v_sub(w, p->vb, p->va);
    for (int i = 0; i < p->axes.count; ++i)
        for (int s = 0; s < 2; ++s) {
            double d[3];
            for (int k = 0; k < 3; ++k) d[k] = s == 0 ? p->axes.n[i][k] : -p->axes.n[i][k];
            if (test_ref_angle(d, normal) <= 5e-4) continue;
            /* Only a direction along which the gap is closing can be the axis of latest entry. One
               whose gap opens reaches zero at t as an exit (two flat pieces meeting in one plane
               touch from both sides, and the approach picks the side); one whose gap stays put at
               zero (coplanar pieces sliding in their plane) never separated them at all. */
            if (test_ref_dot(w, d) >= -1e-12 * sqrt(v_len2(w))) continue;
            if (test_ref_gap_along(p, d, t) >= -tol) return false;
        }
    return true;
}

void test_ref_sweep_solve(const test_ref_problem* p, double unique_tol, test_ref_sweep* out)
{
    memset(out, 0, sizeof *out);
    const double tmax = p->tmax;
    double sd0 = test_ref_signed_distance(p, 0.0, NULL);
    out->sd_start = sd0;
    out->evaluations = 1;
    if (sd0 <= 0.0) {
        test_ref_penetration pen;
        test_ref_penetration_at(p, 0.0, &pen);
        out->state = sd0 < 0.0 ? TEST_REF_START_OVERLAP : TEST_REF_HIT; /* exactly touching at 0 is a hit at 0 */
        out->time = 0.0;
        out->depth = pen.depth;
        v_copy(out->normal, pen.normal);
        out->sd_min = sd0;
        out->t_min = 0.0;
        out->normal_unique = sd0 < 0.0 && pen.second > pen.depth + unique_tol;
        /* A point inside the overlap: the midpoint of the pieces' centroids is not always inside,
           so report the centroid of A's vertices pushed nowhere; tests do not rely on it. */
        for (int i = 0; i < p->a.count; ++i) v_scale_add(out->point, out->point, 1.0 / p->a.count, p->a.v[i]);
        return;
    }

    enum { SAMPLES = 16 };
    double sd[SAMPLES + 1];
    sd[0] = sd0;
    int kmin = 0, kfirst = -1;
    for (int k = 1; k <= SAMPLES; ++k) {
        sd[k] = test_ref_signed_distance(p, tmax * k / SAMPLES, NULL);
        if (sd[k] < sd[kmin]) kmin = k;
        if (kfirst < 0 && sd[k] <= 0.0) kfirst = k;
    }
    out->evaluations += SAMPLES;
    /* Convexity puts the minimum between the neighbours of the smallest sample. */
    double lo = tmax * (kmin > 0 ? kmin - 1 : 0) / SAMPLES, hi = tmax * (kmin < SAMPLES ? kmin + 1 : SAMPLES) / SAMPLES;
    double t_at = 0.0;
    double m = tmax > 0.0 ? golden_min(p, lo, hi, &t_at, &out->evaluations) : sd0;
    if (sd[kmin] <= m) {
        m = sd[kmin];
        t_at = tmax * kmin / SAMPLES;
    }
    out->sd_min = m;
    out->t_min = t_at;
    if (m > 0.0) {
        out->state = TEST_REF_MISS;
        return;
    }
    double t0, t1;
    if (kfirst > 0) {
        t0 = tmax * (kfirst - 1) / SAMPLES;
        t1 = tmax * kfirst / SAMPLES;
    } else {
        int k = (int)floor(t_at / tmax * SAMPLES);
        if (k >= SAMPLES) k = SAMPLES - 1;
        while (k > 0 && tmax * k / SAMPLES >= t_at) --k;
        t0 = tmax * k / SAMPLES;
        t1 = t_at;
    }
    out->state = TEST_REF_HIT;
    out->time = test_ref_first_time_below(p, 0.0, t0, t1);
    out->evaluations += 60;

    /* The normal: the closest-point direction a little before contact, where the distance is
       1e-7 of the size: far above GJK's rounding, close enough that the closest features are the
       contact features. */
    double level = 1e-7 * p->size, tn = 0.0;
    if (sd0 > level) tn = test_ref_first_time_below(p, level, 0.0, out->time);
    out->evaluations += 60;
    test_ref_distance d;
    test_ref_signed_distance(p, tn, &d);
    if (d.distance > 0.0) {
        v_copy(out->normal, d.direction);
        /* Witnesses are taken at tn; carry them on to the contact time with the mean velocity. */
        for (int k = 0; k < 3; ++k)
            out->point[k] = 0.5 * (d.point_a[k] + d.point_b[k]) + (out->time - tn) * 0.5 * (p->va[k] + p->vb[k]);
    }
    out->normal_unique = d.distance > 0.0 && contact_normal_unique(p, out->time, out->normal, unique_tol);
}
