/* Convex hulls: quickhull against a brute force (every point on or inside every face, every face on
 * three points, Euler's formula), hulls given by faces and their checks, mass properties against the
 * box's, and the queries: a box given as the hull of its 8 corners answers as the box queries do, the
 * static overlap and depth agree with a brute-force separating-axis test over every face normal and
 * every edge cross product, the swept time agrees with the static test just before and after it, and
 * every answer keeps under swapping A and B and under moving the whole problem. --long: ten times the
 * random cases. */
#include "support/test.h"
#include "support/pieces.h"
#include <sepax/hull.h>
#include "collide/sat_hull.h"
#include <float.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static int scale_cases = 1;

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static spx_mat3 random_rotation(void) { return test_random_rotation_matrix(uniform); }

static spx_result make_hull(const spx_vec3* p, uint32_t n, spx_hull** out)
{
    spx_hull_def def = spx_default_hull_def();
    def.points = p;
    def.point_count = n;
    return spx_hull_create(&def, out);
}

static double dot3(spx_vec3 a, spx_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }

static void shuffle(spx_vec3* p, uint32_t n)
{
    for (uint32_t i = n; i > 1; --i) {
        uint32_t j = (uint32_t)uniform(0, i);
        if (j >= i) j = i - 1;
        spx_vec3 t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* The brute force: every input point on or under every face plane (within the tolerance), every face
   plane through at least three input points, each face's corners on its plane, V - E + F = 2, every
   edge's faces holding it in opposite directions. */
static int check_hull(const spx_hull* h, const spx_vec3* p, uint32_t n)
{
    spx_hull_info info;
    TEST_ENSURE_CODE(spx_hull_get_info(h, &info), SPX_OK);
    TEST_ENSURE(info.corner_count >= 4 && info.corner_count <= SPX_HULL_MAX_CORNERS);
    TEST_ENSURE((int)info.corner_count - (int)info.edge_count + (int)info.face_count == 2);
    double size = 0;
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < 3; ++j) size = fmax(size, fabs((&p[i].x)[j]));
    const double tol = 4.0 * SPX_HULL_PLANE_TOLERANCE * size + 1e-6;
    for (uint32_t f = 0; f < info.face_count; ++f) {
        spx_hull_face face;
        TEST_ENSURE_CODE(spx_hull_get_face(h, f, &face), SPX_OK);
        TEST_ENSURE(fabs(dot3(face.normal, face.normal) - 1.0) < 1e-5);
        int on = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const double d = dot3(face.normal, p[i]) - face.offset;
            TEST_ENSURE(d <= tol);
            on += fabs(d) <= tol;
        }
        TEST_ENSURE(on >= 3);
        for (uint32_t k = 0; k < face.corner_count; ++k) {
            spx_vec3 c;
            TEST_ENSURE_CODE(spx_hull_get_corner(h, face.corners[k], &c), SPX_OK);
            TEST_ENSURE(fabs(dot3(face.normal, c) - face.offset) <= tol);
        }
    }
    for (uint32_t e = 0; e < info.edge_count; ++e) {
        spx_hull_edge edge;
        TEST_ENSURE_CODE(spx_hull_get_edge(h, e, &edge), SPX_OK);
        for (int s = 0; s < 2; ++s) {
            spx_hull_face face;
            TEST_ENSURE_CODE(spx_hull_get_face(h, edge.face[s], &face), SPX_OK);
            bool found = false;
            for (uint32_t k = 0; k < face.corner_count; ++k)
                found = found || (face.corners[k] == edge.corner[s] &&
                                  face.corners[(k + 1) % face.corner_count] == edge.corner[1 - s]);
            TEST_ENSURE(found);
        }
    }
    return 0;
}

/* ---- building ------------------------------------------------------------------------------------ */

static void cube_corners(spx_vec3 h, spx_vec3 out[8])
{
    for (int c = 0; c < 8; ++c) out[c] = spx_v3(c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z);
}

static int hull_of_cube_with_inside_points(void)
{
    const uint32_t n = 8 + (uint32_t)test_cases(100000);
    spx_vec3* p = malloc(sizeof *p * (n + 8));
    TEST_ENSURE(p);
    cube_corners(spx_v3(1, 2, 0.5f), p);
    for (uint32_t i = 8; i < n; ++i) {
        const float z = (float)uniform(-0.5, 0.5), y = (float)uniform(-2, 2), x = (float)uniform(-1, 1);
        p[i] = spx_v3(x, y, z);
    }
    for (uint32_t i = 0; i < 8; ++i) p[n + i] = p[i]; /* repeated corners */
    shuffle(p, n + 8);
    spx_hull* h = NULL;
    TEST_ENSURE_CODE(make_hull(p, n + 8, &h), SPX_OK);
    spx_hull_info info;
    spx_hull_get_info(h, &info);
    TEST_ENSURE(info.corner_count == 8 && info.face_count == 6 && info.edge_count == 12);
    int bad = check_hull(h, p, n + 8);
    spx_hull_destroy(h);
    free(p);
    return bad;
}

static int hull_of_cube_lattice(void)
{
    /* 7^3 points on a lattice: 218 on the faces, many on their edges, all coplanar in sixes. */
    spx_vec3 p[343];
    int n = 0;
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j)
            for (int k = 0; k < 7; ++k) p[n++] = spx_v3((float)(i - 3), (float)(j - 3) * 0.5f, (float)(k - 3) * 2.0f);
    for (int round = 0; round < 5; ++round) {
        shuffle(p, 343);
        spx_hull* h = NULL;
        TEST_ENSURE_CODE(make_hull(p, 343, &h), SPX_OK);
        spx_hull_info info;
        spx_hull_get_info(h, &info);
        TEST_ENSURE(info.corner_count == 8 && info.face_count == 6 && info.edge_count == 12);
        for (uint32_t f = 0; f < 6; ++f) {
            spx_hull_face face;
            spx_hull_get_face(h, f, &face);
            TEST_ENSURE(face.corner_count == 4);
        }
        int bad = check_hull(h, p, 343);
        spx_hull_destroy(h);
        if (bad) return bad;
    }
    return 0;
}

/* Random clouds: in a ball, on a sphere, in a box of random size far from the origin, with repeats. */
static int hull_of_random_clouds(void)
{
    const int cases = test_cases(300) * scale_cases;
    spx_vec3 p[400];
    for (int c = 0; c < cases; ++c) {
        const int kind = c % 3;
        const uint32_t n = kind == 1 ? 4 + (uint32_t)uniform(0, 120) : 4 + (uint32_t)uniform(0, 390);
        const double r = uniform(0.01, 100);
        spx_vec3 at = spx_v3(0, 0, 0);
        if (c % 5 == 0) {
            const float ay = (float)uniform(-1e4, 1e4), ax = (float)uniform(-1e4, 1e4);
            at = spx_v3(ax, ay, 0);
        }
        for (uint32_t i = 0; i < n; ++i) {
            double x, y, z, l;
            do {
                x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1), l = x * x + y * y + z * z;
            } while (l > 1 || l < 1e-6);
            if (kind == 1) l = sqrt(l), x /= l, y /= l, z /= l;
            if (kind == 2) x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
            p[i] = spx_v3((float)(at.x + r * x), (float)(at.y + r * y), (float)(at.z + r * z));
            if (i > 4 && uniform(0, 1) < 0.1) p[i] = p[(uint32_t)uniform(0, i)];
        }
        spx_hull* h = NULL;
        const spx_result res = make_hull(p, n, &h);
        if (res == SPX_ERR_TOO_MANY_CORNERS) continue;
        TEST_ENSURE_CODE(res, SPX_OK);
        int bad = check_hull(h, p, n);
        /* The same cloud in another order: the same corners. */
        spx_hull_info i1, i2;
        spx_hull_get_info(h, &i1);
        shuffle(p, n);
        spx_hull* g = NULL;
        TEST_ENSURE_CODE(make_hull(p, n, &g), SPX_OK);
        spx_hull_get_info(g, &i2);
        if (!bad && i1.corner_count != i2.corner_count) {
            fprintf(stderr, "case %d: %u corners, %u reordered\n", c, i1.corner_count, i2.corner_count);
            bad = 1;
        }
        for (uint32_t k = 0; k < i1.corner_count && !bad; ++k) {
            spx_vec3 v;
            spx_hull_get_corner(h, k, &v);
            bool found = false;
            for (uint32_t m = 0; m < i2.corner_count && !found; ++m) {
                spx_vec3 w;
                spx_hull_get_corner(g, m, &w);
                found = v.x == w.x && v.y == w.y && v.z == w.z;
            }
            if (!found) bad = 1;
        }
        if (!bad) bad = check_hull(g, p, n);
        spx_hull_destroy(h);
        spx_hull_destroy(g);
        if (bad) {
            fprintf(stderr, "cloud case %d (kind %d, %u points)\n", c, kind, n);
            return 1;
        }
    }
    return 0;
}

static int hull_bad_input(void)
{
    spx_vec3 p[300];
    spx_hull* h = (spx_hull*)&p; /* must stay untouched on error */
    spx_hull* const keep = h;
    cube_corners(spx_v3(1, 1, 1), p);
    spx_hull_def def = { 0 };
    def.points = p, def.point_count = 8;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_UNINITIALIZED_DEF);
    TEST_ENSURE_CODE(spx_hull_create(NULL, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(make_hull(p, 3, &h), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(make_hull(NULL, 8, &h), SPX_ERR_INVALID_ARGUMENT);
    p[5].y = NAN;
    TEST_ENSURE_CODE(make_hull(p, 8, &h), SPX_ERR_NOT_FINITE);
    p[5].y = INFINITY;
    TEST_ENSURE_CODE(make_hull(p, 8, &h), SPX_ERR_NOT_FINITE);
    p[5].y = 2e7f;
    TEST_ENSURE_CODE(make_hull(p, 8, &h), SPX_ERR_OUT_OF_RANGE);
    /* No volume: one point, a line, a plane (with noise far below the tolerance). */
    for (int i = 0; i < 50; ++i) p[i] = spx_v3(3, 4, 5);
    TEST_ENSURE_CODE(make_hull(p, 50, &h), SPX_ERR_FLAT_HULL);
    for (int i = 0; i < 50; ++i) p[i] = spx_v3((float)i, 2.0f * (float)i, -0.5f * (float)i);
    TEST_ENSURE_CODE(make_hull(p, 50, &h), SPX_ERR_FLAT_HULL);
    for (int i = 0; i < 50; ++i) {
        const float x = (float)uniform(-1, 1), y = (float)uniform(-1, 1);
        p[i] = spx_v3(x, y, x + y + (float)uniform(-1e-7, 1e-7));
    }
    TEST_ENSURE_CODE(make_hull(p, 50, &h), SPX_ERR_FLAT_HULL);
    /* 300 points on a sphere: each is a corner. */
    for (int i = 0; i < 300; ++i) {
        const double z = -1 + (2 * i + 1) / 300.0, r = sqrt(1 - z * z), a = i * 2.399963229728653;
        p[i] = spx_v3((float)(r * cos(a)), (float)(r * sin(a)), (float)z);
    }
    TEST_ENSURE_CODE(make_hull(p, 300, &h), SPX_ERR_TOO_MANY_CORNERS);
    TEST_ENSURE(h == keep);
    TEST_ENSURE_CODE(make_hull(p, 250, &h), SPX_OK);
    spx_hull_destroy(h);
    spx_hull_destroy(NULL);
    return 0;
}

/* A cube given by its faces, and the faults the checks must find. */
static int hull_from_faces(void)
{
    spx_vec3 p[9];
    cube_corners(spx_v3(1, 1, 1), p);
    p[8] = spx_v3(0, 0, 0); /* unused */
    uint32_t corners[24] = { 1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1 };
    uint32_t sizes[6] = { 4, 4, 4, 4, 4, 4 };
    spx_hull_def def = spx_default_hull_def();
    def.points = p, def.point_count = 9, def.face_corners = corners, def.face_sizes = sizes, def.face_count = 6;
    spx_hull* h = NULL;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_OK);
    spx_hull_info info;
    spx_hull_get_info(h, &info);
    TEST_ENSURE(info.corner_count == 8 && info.face_count == 6 && info.edge_count == 12);
    TEST_ENSURE(check_hull(h, p, 8) == 0);
    spx_mass_properties m;
    TEST_ENSURE_CODE(spx_mass_hull(h, 2.0f, &m), SPX_OK);
    TEST_ENSURE_NEAR(m.mass, 16.0, 1e-5);
    spx_hull_destroy(h);
    /* Every face the other way round. */
    uint32_t rev[24];
    for (int f = 0; f < 6; ++f)
        for (int k = 0; k < 4; ++k) rev[4 * f + k] = corners[4 * f + 3 - k];
    def.face_corners = rev;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_MESH_INSIDE_OUT);
    /* One face the other way round: its edges meet their neighbours the same way. */
    for (int k = 0; k < 24; ++k) rev[k] = corners[k];
    for (int k = 0; k < 4; ++k) rev[k] = corners[3 - k];
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_MESH_NOT_CLOSED);
    /* A face missing. */
    def.face_corners = corners;
    def.face_count = 5;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_MESH_NOT_CLOSED);
    def.face_count = 6;
    /* A corner out of range, a corner twice, a face of two corners. */
    corners[3] = 9;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_INDEX_OUT_OF_RANGE);
    corners[3] = 1;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_INVALID_ARGUMENT);
    corners[3] = 5;
    sizes[0] = 2;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_INVALID_ARGUMENT);
    sizes[0] = 4;
    /* A corner pushed out: its three faces bend, the hull is not convex. */
    p[7] = spx_v3(1.5f, 1.5f, 1.5f);
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_NOT_CONVEX);
    /* Pushed in: a dent. */
    p[7] = spx_v3(0.5f, 0.5f, 0.5f);
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_NOT_CONVEX);
    p[7] = spx_v3(1, 1, 1);
    p[2].x = NAN;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_ERR_NOT_FINITE);
    p[2].x = -1;
    TEST_ENSURE_CODE(spx_hull_create(&def, &h), SPX_OK);
    spx_hull_destroy(h);
    return 0;
}

/* Mass of a box's hull against spx_mass_box, rotated and far from the origin: I = R I_box R^T. */
static int hull_mass_matches_box(void)
{
    for (int c = 0; c < test_cases(200); ++c) {
        const spx_vec3 half = test_random_vec3(uniform, 0.1, 3);
        const spx_mat3 R = random_rotation();
        const float az = (float)uniform(-10, 10), ay = (float)uniform(-1000, 1000), ax = (float)uniform(-1000, 1000);
        const spx_vec3 at = spx_v3(ax, ay, az);
        spx_vec3 local[8], p[8];
        cube_corners(half, local);
        for (int k = 0; k < 8; ++k) {
            const spx_vec3 v = local[k];
            p[k] = spx_v3(at.x + R.col[0].x * v.x + R.col[1].x * v.y + R.col[2].x * v.z,
                          at.y + R.col[0].y * v.x + R.col[1].y * v.y + R.col[2].y * v.z,
                          at.z + R.col[0].z * v.x + R.col[1].z * v.y + R.col[2].z * v.z);
        }
        spx_hull* h = NULL;
        TEST_ENSURE_CODE(make_hull(p, 8, &h), SPX_OK);
        spx_mass_properties mh, mb;
        TEST_ENSURE_CODE(spx_mass_hull(h, 3.0f, &mh), SPX_OK);
        TEST_ENSURE_CODE(spx_mass_box(half, 3.0f, &mb), SPX_OK);
        spx_hull_destroy(h);
        const double scale = (double)mb.inertia.col[0].x + mb.inertia.col[1].y + mb.inertia.col[2].z;
        TEST_ENSURE_NEAR(mh.mass, mb.mass, 1e-3 * mb.mass);
        TEST_ENSURE_NEAR3(mh.center, at.x, at.y, at.z, 1e-3);
        const double ib[3] = { mb.inertia.col[0].x, mb.inertia.col[1].y, mb.inertia.col[2].z };
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                double e = 0;
                for (int k = 0; k < 3; ++k) e += (&R.col[k].x)[i] * ib[k] * (&R.col[k].x)[j];
                TEST_ENSURE_NEAR((&mh.inertia.col[j].x)[i], e, 2e-3 * scale);
            }
    }
    return 0;
}

/* ---- queries ------------------------------------------------------------------------------------- */

/* A placed hull in the world, as the brute force sees it: corners, face normals, edge directions. */
typedef struct ref_piece {
    int nv, nf, ne;
    double v[SPX_HULL_MAX_CORNERS][3];
    double n[2 * SPX_HULL_MAX_CORNERS][3];
    double e[3 * SPX_HULL_MAX_CORNERS][3];
} ref_piece;

static void to_world(const spx_placed_hull* h, spx_vec3 x, const double shift[3], double out[3])
{
    const spx_mat3* R = &h->rotation;
    for (int i = 0; i < 3; ++i)
        out[i] = (double)(&h->position.x)[i] + shift[i] + (double)(&R->col[0].x)[i] * x.x +
                 (double)(&R->col[1].x)[i] * x.y + (double)(&R->col[2].x)[i] * x.z;
}

static void ref_make(const spx_placed_hull* h, const double shift[3], ref_piece* r)
{
    spx_hull_info info;
    spx_hull_get_info(h->hull, &info);
    r->nv = (int)info.corner_count, r->nf = (int)info.face_count, r->ne = (int)info.edge_count;
    const double zero[3] = { 0, 0, 0 };
    for (int i = 0; i < r->nv; ++i) {
        spx_vec3 c;
        spx_hull_get_corner(h->hull, (uint32_t)i, &c);
        to_world(h, c, shift, r->v[i]);
    }
    for (int f = 0; f < r->nf; ++f) {
        spx_hull_face face;
        spx_hull_get_face(h->hull, (uint32_t)f, &face);
        double o[3], d[3];
        to_world(h, spx_v3(0, 0, 0), zero, o);
        to_world(h, face.normal, zero, d);
        for (int k = 0; k < 3; ++k) r->n[f][k] = d[k] - o[k];
    }
    for (int e = 0; e < r->ne; ++e) {
        spx_hull_edge edge;
        spx_hull_get_edge(h->hull, (uint32_t)e, &edge);
        for (int k = 0; k < 3; ++k) r->e[e][k] = r->v[edge.corner[1]][k] - r->v[edge.corner[0]][k];
    }
}

/* Least overlap over every face normal of both and every edge cross product (both ways on each
   axis): > 0 the depth, <= 0 minus the largest gap. */
static double ref_depth(const ref_piece* a, const ref_piece* b)
{
    double best = DBL_MAX, worst_gap = -DBL_MAX;
    const int axes = a->nf + b->nf + a->ne * b->ne;
    for (int k = 0; k < axes; ++k) {
        double l[3];
        if (k < a->nf) memcpy(l, a->n[k], sizeof l);
        else if (k < a->nf + b->nf) memcpy(l, b->n[k - a->nf], sizeof l);
        else {
            const double *x = a->e[(k - a->nf - b->nf) / b->ne], *y = b->e[(k - a->nf - b->nf) % b->ne];
            l[0] = x[1] * y[2] - x[2] * y[1], l[1] = x[2] * y[0] - x[0] * y[2], l[2] = x[0] * y[1] - x[1] * y[0];
            const double c = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
            const double lx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]),
                         ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
            if (c < 1e-6 * lx * ly) continue;
        }
        const double len = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
        double alo = DBL_MAX, ahi = -DBL_MAX, blo = DBL_MAX, bhi = -DBL_MAX;
        for (int i = 0; i < a->nv; ++i) {
            const double d = (a->v[i][0] * l[0] + a->v[i][1] * l[1] + a->v[i][2] * l[2]) / len;
            alo = fmin(alo, d), ahi = fmax(ahi, d);
        }
        for (int i = 0; i < b->nv; ++i) {
            const double d = (b->v[i][0] * l[0] + b->v[i][1] * l[1] + b->v[i][2] * l[2]) / len;
            blo = fmin(blo, d), bhi = fmax(bhi, d);
        }
        const double overlap = fmin(ahi - blo, bhi - alo);
        if (overlap < 0) worst_gap = fmax(worst_gap, -overlap);
        best = fmin(best, overlap);
    }
    return best >= 0 ? best : -worst_gap;
}

/* A random hull of 5 to 40 points about the origin, placed at random. */
static spx_hull* random_hull(double r)
{
    spx_vec3 p[40];
    for (;;) {
        const uint32_t n = 5 + (uint32_t)uniform(0, 35);
        const double sx = uniform(0.3, 1), sy = uniform(0.3, 1), sz = uniform(0.3, 1);
        for (uint32_t i = 0; i < n; ++i) {
            const float z = (float)(r * sz * uniform(-1, 1)), y = (float)(r * sy * uniform(-1, 1)),
                        x = (float)(r * sx * uniform(-1, 1));
            p[i] = spx_v3(x, y, z);
        }
        spx_hull* h = NULL;
        if (make_hull(p, n, &h) == SPX_OK) return h;
    }
}

/* Distance of two unit vectors (about the angle between them). */
static double angle_gap(spx_vec3 a, spx_vec3 b)
{
    const double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
    return sqrt(x * x + y * y + z * z);
}

static spx_obb random_box(double spread)
{
    spx_obb b;
    b.center = test_random_vec3(uniform, -spread, spread);
    b.half_extents = test_random_vec3(uniform, 0.1, 1.5);
    b.rotation = random_rotation();
    if (uniform(0, 1) < 0.2) b.rotation = test_identity;
    return b;
}

/* A box as the hull of its 8 corners answers as the box queries: overlap, depth and normal, sweep
   state, time and normal, hull-hull and hull-box alike. */
static int box_as_hull_matches_box(void)
{
    const int cases = test_cases(3000) * scale_cases;
    int compared_pen = 0, compared_sweep = 0;
    double worst_depth = 0, worst_time = 0, worst_normal = 0;
    for (int c = 0; c < cases; ++c) {
        spx_obb a = random_box(0.2), b = random_box(2.5);
        spx_hull *ha = test_hull_box(a.half_extents), *hb = test_hull_box(b.half_extents);
        TEST_ENSURE(ha && hb);
        const spx_placed_hull pa = { ha, a.center, a.rotation }, pb = { hb, b.center, b.rotation };
        spx_penetration box_pen, hh_pen, hb_pen;
        TEST_ENSURE_CODE(spx_penetration_obb_obb(&a, &b, &box_pen), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&pa, &pb, &hh_pen), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_hull_obb(&pa, &b, &hb_pen), SPX_OK);
        bool ov_hh, ov_hb;
        TEST_ENSURE_CODE(spx_overlap_hull_hull(&pa, &pb, &ov_hh), SPX_OK);
        TEST_ENSURE_CODE(spx_overlap_hull_obb(&pa, &b, &ov_hb), SPX_OK);
        TEST_ENSURE(ov_hh == hh_pen.overlapping && ov_hb == hb_pen.overlapping);
        const double near = 1e-5;
        if (box_pen.overlapping && box_pen.depth > near) {
            TEST_ENSURE(hh_pen.overlapping && hb_pen.overlapping);
            TEST_ENSURE_NEAR(hh_pen.depth, box_pen.depth, 1e-5);
            TEST_ENSURE_NEAR(hb_pen.depth, box_pen.depth, 1e-5);
            worst_depth =
                fmax(worst_depth, fmax(fabs(hh_pen.depth - box_pen.depth), fabs(hb_pen.depth - box_pen.depth)));
            TEST_ENSURE(angle_gap(hh_pen.normal, box_pen.normal) < 1e-4 ||
                        fabs(box_pen.depth - hh_pen.depth) < 1e-6); /* equally deep axes */
            TEST_ENSURE(angle_gap(hb_pen.normal, box_pen.normal) < 1e-4 || fabs(box_pen.depth - hb_pen.depth) < 1e-6);
            ++compared_pen;
        } else if (!box_pen.overlapping) {
            TEST_ENSURE(!hh_pen.overlapping || hh_pen.depth < near);
            TEST_ENSURE(!hb_pen.overlapping || hb_pen.depth < near);
        }
        const spx_vec3 va = test_random_vec3(uniform, -2, 2);
        const spx_vec3 vb = test_random_vec3(uniform, -4, 4);
        spx_sweep_hit box_hit, hh_hit, hb_hit;
        TEST_ENSURE_CODE(spx_sweep_obb_obb(&a, va, &b, vb, 1.0f, &box_hit), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_hull_hull(&pa, va, &pb, vb, 1.0f, &hh_hit), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_hull_obb(&pa, va, &b, vb, 1.0f, &hb_hit), SPX_OK);
        if (box_hit.state == SPX_SWEEP_HIT && box_hit.time > 1e-4f && box_hit.time < 1.0f - 1e-4f) {
            TEST_ENSURE(hh_hit.state == SPX_SWEEP_HIT && hb_hit.state == SPX_SWEEP_HIT);
            TEST_ENSURE_NEAR(hh_hit.time, box_hit.time, 1e-5);
            TEST_ENSURE_NEAR(hb_hit.time, box_hit.time, 1e-5);
            worst_time = fmax(worst_time, fmax(fabs(hh_hit.time - box_hit.time), fabs(hb_hit.time - box_hit.time)));
            worst_normal = fmax(
                worst_normal, fmax(angle_gap(hh_hit.normal, box_hit.normal), angle_gap(hb_hit.normal, box_hit.normal)));
            TEST_ENSURE(angle_gap(hh_hit.normal, box_hit.normal) < 1e-3);
            TEST_ENSURE(angle_gap(hb_hit.normal, box_hit.normal) < 1e-3);
            TEST_ENSURE(fabs(hh_hit.point.x - box_hit.point.x) + fabs(hh_hit.point.y - box_hit.point.y) +
                            fabs(hh_hit.point.z - box_hit.point.z) <
                        1e-3);
            ++compared_sweep;
        } else if (box_hit.state == SPX_SWEEP_MISS) {
            TEST_ENSURE(hh_hit.state == SPX_SWEEP_MISS || hh_hit.time > 1.0f - 1e-4f);
        }
        spx_hull_destroy(ha);
        spx_hull_destroy(hb);
    }
    printf("  %d depths and %d sweeps compared of %d pairs; worst depth %.2g m, time %.2g s, normal %.2g\n",
           compared_pen, compared_sweep, cases, worst_depth, worst_time, worst_normal);
    TEST_ENSURE(compared_pen > cases / 20 && compared_sweep > cases / 20);
    return 0;
}

static float grid(double lo, double hi) { return (float)(floor(uniform(lo, hi) * 1024.0) / 1024.0); }
/* Three of those, z first, then y, then x. */
static spx_vec3 grid3(double lo, double hi)
{
    const float z = grid(lo, hi), y = grid(lo, hi);
    return spx_v3(grid(lo, hi), y, z);
}

/* Random hulls: overlap and depth against the brute force; the sweep time against the brute force's
   overlap just before and after it; the answers under swapping A and B and under a far shift. */
static int hulls_against_brute_force(void)
{
    const int cases = test_cases(2000) * scale_cases;
    int hits = 0, overlaps = 0;
    double worst_ref = 0;
    const double zero[3] = { 0, 0, 0 };
    static ref_piece ra, rb;
    for (int c = 0; c < cases; ++c) {
        spx_hull *ha = random_hull(uniform(0.2, 1.5)), *hb = random_hull(uniform(0.2, 1.5));
        /* Positions on a 1/1024 m grid: moved by the far shift below they stay exact. */
        const float ay = grid(-0.3, 0.3), ax = grid(-0.3, 0.3);
        spx_placed_hull pa = { ha, spx_v3(ax, ay, 0), random_rotation() };
        const spx_vec3 at_b = grid3(-1.8, 1.8);
        spx_placed_hull pb = { hb, at_b, random_rotation() };
        ref_make(&pa, zero, &ra);
        ref_make(&pb, zero, &rb);
        const double ref = ref_depth(&ra, &rb);
        spx_penetration pen, sw;
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&pa, &pb, &pen), SPX_OK);
        if (fabs(ref) > 1e-5) TEST_ENSURE(pen.overlapping == (ref > 0));
        if (pen.overlapping && ref > 0) {
            TEST_ENSURE_NEAR(pen.depth, ref, 1e-5);
            worst_ref = fmax(worst_ref, fabs(pen.depth - ref));
            ++overlaps;
            /* Moving B by the minimum translation just separates it. */
            const double shift[3] = { pen.normal.x * (pen.depth + 1e-4), pen.normal.y * (pen.depth + 1e-4),
                                      pen.normal.z * (pen.depth + 1e-4) };
            ref_piece moved;
            ref_make(&pb, shift, &moved);
            TEST_ENSURE(ref_depth(&ra, &moved) < 0);
        }
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&pb, &pa, &sw), SPX_OK);
        TEST_ENSURE(sw.overlapping == pen.overlapping);
        if (pen.overlapping) {
            if (angle_gap(sw.normal, spx_v3(-pen.normal.x, -pen.normal.y, -pen.normal.z)) >= 1e-4)
                fprintf(stderr, "swap: depth %.9g axis %d normal %g %g %g / depth %.9g axis %d normal %g %g %g\n",
                        pen.depth, pen.axis, pen.normal.x, pen.normal.y, pen.normal.z, sw.depth, sw.axis, sw.normal.x,
                        sw.normal.y, sw.normal.z);
            TEST_ENSURE_NEAR(sw.depth, pen.depth, 1e-6);
            TEST_ENSURE(angle_gap(sw.normal, spx_v3(-pen.normal.x, -pen.normal.y, -pen.normal.z)) < 1e-4);
        }
        /* Swept, from a distance. */
        const spx_vec3 va = test_random_vec3(uniform, -1, 1);
        const spx_vec3 vb = test_random_vec3(uniform, -6, 6);
        spx_sweep_hit hit, back, far_hit;
        TEST_ENSURE_CODE(spx_sweep_hull_hull(&pa, va, &pb, vb, 1.0f, &hit), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_hull_hull(&pb, vb, &pa, va, 1.0f, &back), SPX_OK);
        TEST_ENSURE(hit.state == back.state || fabs(hit.time - 1.0f) < 1e-5 || hit.time < 1e-5f);
        if (hit.state == back.state && hit.state != SPX_SWEEP_MISS) {
            TEST_ENSURE_NEAR(back.time, hit.time, 1e-6);
            TEST_ENSURE(angle_gap(back.normal, spx_v3(-hit.normal.x, -hit.normal.y, -hit.normal.z)) < 1e-4);
        }
        const double rel[3] = { (double)vb.x - va.x, (double)vb.y - va.y, (double)vb.z - va.z };
        if (hit.state == SPX_SWEEP_HIT) {
            ++hits;
            const double dt = 1e-4;
            const double before[3] = { rel[0] * (hit.time - dt), rel[1] * (hit.time - dt), rel[2] * (hit.time - dt) };
            const double after[3] = { rel[0] * (hit.time + dt), rel[1] * (hit.time + dt), rel[2] * (hit.time + dt) };
            ref_piece moved;
            ref_make(&pb, before, &moved);
            TEST_ENSURE(ref_depth(&ra, &moved) < 1e-6);
            if (hit.time + dt <= 1.0) {
                ref_make(&pb, after, &moved);
                TEST_ENSURE(ref_depth(&ra, &moved) > -1e-6);
            }
        } else if (hit.state == SPX_SWEEP_MISS) {
            /* Apart at every sampled time. */
            for (int k = 0; k <= 16; ++k) {
                const double t = k / 16.0, at[3] = { rel[0] * t, rel[1] * t, rel[2] * t };
                ref_piece moved;
                ref_make(&pb, at, &moved);
                TEST_ENSURE(ref_depth(&ra, &moved) < 1e-5);
            }
        }
        /* The whole problem far from the origin. */
        spx_placed_hull fa = pa, fb = pb;
        const spx_vec3 off = spx_v3(3000.0f, -1500.0f, 700.0f);
        fa.position = spx_v3(pa.position.x + off.x, pa.position.y + off.y, pa.position.z + off.z);
        fb.position = spx_v3(pb.position.x + off.x, pb.position.y + off.y, pb.position.z + off.z);
        TEST_ENSURE_CODE(spx_sweep_hull_hull(&fa, va, &fb, vb, 1.0f, &far_hit), SPX_OK);
        TEST_ENSURE(far_hit.state == hit.state);
        if (hit.state != SPX_SWEEP_MISS) {
            TEST_ENSURE_NEAR(far_hit.time, hit.time, 1e-6);
            TEST_ENSURE_NEAR(far_hit.depth, hit.depth, 1e-6);
            TEST_ENSURE(angle_gap(far_hit.normal, hit.normal) < 1e-5);
            TEST_ENSURE(
                angle_gap(far_hit.point, spx_v3(hit.point.x + off.x, hit.point.y + off.y, hit.point.z + off.z)) < 2e-3);
        }
        spx_hull_destroy(ha);
        spx_hull_destroy(hb);
    }
    printf("  %d overlapping and %d hits of %d pairs; worst depth against the brute force %.2g m\n", overlaps, hits,
           cases, worst_ref);
    TEST_ENSURE(overlaps > cases / 20 && hits > cases / 20);
    return 0;
}

static int hull_query_bad_input(void)
{
    spx_hull* h = test_hull_box(spx_v3(1, 1, 1));
    TEST_ENSURE(h);
    spx_placed_hull a = { h, spx_v3(0, 0, 0), test_identity }, b = a;
    spx_obb box = { spx_v3(0, 0, 0), spx_v3(1, 1, 1), test_identity };
    spx_sweep_hit hit;
    spx_penetration pen;
    bool ov;
    TEST_ENSURE_CODE(spx_overlap_hull_hull(&a, NULL, &ov), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_overlap_hull_hull(&a, &b, NULL), SPX_ERR_INVALID_ARGUMENT);
    b.hull = NULL;
    TEST_ENSURE_CODE(spx_penetration_hull_hull(&a, &b, &pen), SPX_ERR_INVALID_ARGUMENT);
    b = a;
    b.position.x = NAN;
    TEST_ENSURE_CODE(spx_penetration_hull_hull(&a, &b, &pen), SPX_ERR_NOT_FINITE);
    b = a;
    b.rotation.col[0].x = 2;
    TEST_ENSURE_CODE(spx_overlap_hull_hull(&a, &b, &ov), SPX_ERR_NOT_ORTHONORMAL);
    b = a;
    TEST_ENSURE_CODE(spx_sweep_hull_hull(&a, spx_v3(0, 0, 0), &b, spx_v3(1, 0, 0), -1.0f, &hit), SPX_ERR_BAD_TIME);
    TEST_ENSURE_CODE(spx_sweep_hull_obb(&a, spx_v3(NAN, 0, 0), &box, spx_v3(1, 0, 0), 1.0f, &hit), SPX_ERR_NOT_FINITE);
    box.half_extents.y = -1;
    TEST_ENSURE_CODE(spx_overlap_hull_obb(&a, &box, &ov), SPX_ERR_BAD_EXTENT);
    box.half_extents.y = 1;
    /* Touching faces count as overlap, with depth 0. */
    b.position = spx_v3(2, 0, 0);
    TEST_ENSURE_CODE(spx_penetration_hull_hull(&a, &b, &pen), SPX_OK);
    TEST_ENSURE(test_overlapping_by(&pen, 0, 1e-7));
    TEST_ENSURE_NEAR(pen.normal.x, 1, 1e-7);
    /* Head-on: 2 m gap closing at 4 m/s. */
    b.position = spx_v3(4, 0, 0);
    TEST_ENSURE_CODE(spx_sweep_hull_hull(&a, spx_v3(2, 0, 0), &b, spx_v3(-2, 0, 0), 1.0f, &hit), SPX_OK);
    TEST_ENSURE(hit.state == SPX_SWEEP_HIT);
    TEST_ENSURE_NEAR(hit.time, 0.5, 1e-7);
    TEST_ENSURE_NEAR(hit.normal.x, 1, 1e-7);
    TEST_ENSURE_NEAR(hit.point.x, 2, 1e-6);
    TEST_ENSURE(hit.feature_a == SPX_FEATURE_FACE && hit.feature_b == SPX_FEATURE_FACE);
    spx_hull_destroy(h);
    return 0;
}

/* A box's hull resting on a ground box, turned about the vertical: four points at the depth, the
   normal straight down (A to B), ids kept while the box slides a little; swapped, the same points. */
static int hull_manifold_resting(void)
{
    spx_hull* h = test_hull_box(spx_v3(0.5f, 0.25f, 0.75f));
    TEST_ENSURE(h);
    const spx_obb ground = { spx_v3(0, -1, 0), spx_v3(10, 1, 10), test_identity };
    spx_hull* gh = test_hull_box(ground.half_extents);
    TEST_ENSURE(gh);
    for (int c = 0; c < 50; ++c) {
        const double yaw = uniform(0, 6.283185307179586);
        spx_mat3 R = test_identity;
        R.col[0] = spx_v3((float)cos(yaw), 0, (float)-sin(yaw));
        R.col[2] = spx_v3((float)sin(yaw), 0, (float)cos(yaw));
        const float az = (float)uniform(-3, 3), ax = (float)uniform(-3, 3);
        const spx_placed_hull a = { h, spx_v3(ax, 0.24f, az), R };
        spx_manifold m, m2, sw;
        TEST_ENSURE_CODE(spx_manifold_hull_obb(&a, &ground, 0.02f, &m), SPX_OK);
        TEST_ENSURE(m.point_count == 4);
        TEST_ENSURE(angle_gap(m.normal, spx_v3(0, -1, 0)) < 1e-6);
        for (int k = 0; k < 4; ++k) {
            TEST_ENSURE_NEAR(m.points[k].depth, 0.01, 1e-6);
            TEST_ENSURE_NEAR(m.points[k].point.y, -0.005, 1e-6);
        }
        spx_placed_hull moved = a;
        moved.position.x += 1e-3f;
        moved.position.y += 1e-3f;
        TEST_ENSURE_CODE(spx_manifold_hull_obb(&moved, &ground, 0.02f, &m2), SPX_OK);
        TEST_ENSURE(m2.point_count == 4);
        for (int k = 0; k < 4; ++k) {
            bool same = false;
            for (int j = 0; j < 4; ++j) same = same || m2.points[j].id == m.points[k].id;
            TEST_ENSURE(same);
        }
        const spx_placed_hull g = { gh, ground.center, ground.rotation };
        TEST_ENSURE_CODE(spx_manifold_hull_hull(&g, &a, 0.02f, &sw), SPX_OK);
        TEST_ENSURE(sw.point_count == 4);
        TEST_ENSURE(angle_gap(sw.normal, spx_v3(0, 1, 0)) < 1e-6);
        for (int k = 0; k < 4; ++k) TEST_ENSURE_NEAR(sw.points[k].depth, 0.01, 1e-6);
        /* Lifted above the margin: nothing. */
        moved.position.y = 0.3f;
        TEST_ENSURE_CODE(spx_manifold_hull_obb(&moved, &ground, 0.02f, &m2), SPX_OK);
        TEST_ENSURE(m2.point_count == 0);
    }
    TEST_ENSURE_CODE(spx_manifold_hull_obb(NULL, &ground, 0.02f, NULL), SPX_ERR_INVALID_ARGUMENT);
    spx_manifold m;
    const spx_placed_hull a = { h, spx_v3(0, 0, 0), test_identity };
    TEST_ENSURE_CODE(spx_manifold_hull_obb(&a, &ground, -1.0f, &m), SPX_ERR_INVALID_ARGUMENT);
    TEST_ENSURE_CODE(spx_manifold_hull_obb(&a, &ground, NAN, &m), SPX_ERR_NOT_FINITE);
    spx_hull_destroy(h);
    spx_hull_destroy(gh);
    return 0;
}

/* Random overlapping hulls: the manifold's deepest point is as deep as the minimum translation when
   they share the normal, no point deeper than it, every point inside both pieces grown by the
   depth; swapped, the normal flips and the count stays. */
static int hull_manifold_random(void)
{
    const int cases = test_cases(1000) * scale_cases;
    static ref_piece ra, rb;
    const double zero[3] = { 0, 0, 0 };
    int shared = 0, with_points = 0, shallow = 0, outside_one = 0;
    for (int c = 0; c < cases; ++c) {
        spx_hull *ha = random_hull(uniform(0.3, 1.5)), *hb = random_hull(uniform(0.3, 1.5));
        const spx_placed_hull pa = { ha, spx_v3(0, 0, 0), random_rotation() };
        const spx_vec3 at_b = grid3(-1.5, 1.5);
        const spx_placed_hull pb = { hb, at_b, random_rotation() };
        spx_penetration pen;
        spx_manifold m, sw;
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&pa, &pb, &pen), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_hull_hull(&pa, &pb, 0.0f, &m), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_hull_hull(&pb, &pa, 0.0f, &sw), SPX_OK);
        if (!pen.overlapping) TEST_ENSURE(m.point_count == 0 && sw.point_count == 0);
        if (pen.overlapping && pen.depth > 1e-4) {
            TEST_ENSURE(m.point_count >= 1 && m.point_count <= 4);
            ++with_points;
            ref_make(&pa, zero, &ra);
            ref_make(&pb, zero, &rb);
            double deepest = -1;
            for (int k = 0; k < m.point_count; ++k) {
                /* A face wins over an edge pair up to 1e-3 of the size (hull.h): that much deeper at most. */
                TEST_ENSURE(m.points[k].depth <= pen.depth + 1e-5 + 1e-3 * 2 * 1.5 * sqrt(3.0));
                deepest = fmax(deepest, m.points[k].depth);
                /* On the touching surface: within the point's depth of one piece (the clipped face's)
                   below every face plane; within the other's face prism, which a sharp edge of it may
                   leave by more, so that one is counted, not asserted. */
                const double q[3] = { m.points[k].point.x, m.points[k].point.y, m.points[k].point.z };
                bool within[2] = { true, true };
                for (int side = 0; side < 2; ++side) {
                    const ref_piece* r = side ? &rb : &ra;
                    for (int f = 0; f < r->nf; ++f) {
                        double hi = -DBL_MAX;
                        for (int v = 0; v < r->nv; ++v)
                            hi = fmax(hi, r->v[v][0] * r->n[f][0] + r->v[v][1] * r->n[f][1] + r->v[v][2] * r->n[f][2]);
                        within[side] = within[side] && q[0] * r->n[f][0] + q[1] * r->n[f][1] + q[2] * r->n[f][2] <=
                                                           hi + fabs(m.points[k].depth) + 1e-4;
                    }
                }
                TEST_ENSURE(within[0] || within[1]);
                outside_one += !(within[0] && within[1]);
            }
            if (angle_gap(m.normal, pen.normal) < 1e-5) {
                /* The deepest corner is kept unless it lies beyond the reference face's sides. */
                shallow += !(fabs(deepest - pen.depth) <= 1e-5);
                ++shared;
            }
            TEST_ENSURE(sw.point_count >= 1);
            TEST_ENSURE(angle_gap(sw.normal, spx_v3(-m.normal.x, -m.normal.y, -m.normal.z)) < 1e-4 ||
                        fabs(sw.points[0].depth - m.points[0].depth) < 1e-3 * pen.depth + 1e-5);
        }
        spx_hull_destroy(ha);
        spx_hull_destroy(hb);
    }
    printf("  %d manifolds, %d along the minimum translation (%d without its deepest point), of %d pairs; %d points "
           "beyond a sharp edge of the other piece\n",
           with_points, shared, shallow, cases, outside_one);
    TEST_ENSURE(with_points > cases / 10 && shared > with_points / 2 && shallow <= shared / 50);
    return 0;
}

/* A cube resting edge across another's ridge, turned about the ridge's normal plane so that one of the
   lower cube's faces beside the ridge comes within 2 to 4 degrees of the contact normal: the manifold
   is that face's, with points within the margin past the crossing and none deeper than the overlap;
   swapped, the same count and the opposite normal. */
static int hull_manifold_edge_turning_onto_face(void)
{
    spx_hull* h = test_hull_box(spx_v3(0.5f, 0.5f, 0.5f));
    TEST_ENSURE(h);
    const float c = 0.70710678f;
    spx_mat3 ra = test_identity; /* turned 45 degrees about z: a ridge along z at y = 0.5 sqrt 2 */
    ra.col[0] = spx_v3(c, c, 0);
    ra.col[1] = spx_v3(-c, c, 0);
    const spx_placed_hull a = { h, spx_v3(0, 0, 0), ra };
    const float margin = 0.04f, depth = 0.002f;
    for (int deg = 41; deg <= 43; ++deg) {
        const float phi = (float)deg * 0.017453293f, cp = cosf(phi), sp = sinf(phi);
        /* B: 45 degrees about x (an edge along x underneath), then phi about z; its edge crosses the
           ridge at (0, 0.5 sqrt 2, 0), the normal n = (-sin phi, cos phi, 0). */
        spx_mat3 rb;
        rb.col[0] = spx_v3(cp, sp, 0);
        rb.col[1] = spx_v3(-sp * c, cp * c, c);
        rb.col[2] = spx_v3(sp * c, -cp * c, c);
        const spx_vec3 n = spx_v3(-sp, cp, 0);
        const float up = c - depth; /* B's edge lies 0.5 sqrt 2 below its centre */
        const spx_placed_hull b = { h, spx_v3(n.x * up, c + n.y * up, 0), rb };
        spx_penetration pen;
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&a, &b, &pen), SPX_OK);
        TEST_ENSURE(test_overlapping_by(&pen, depth, 1e-5));
        spx_manifold m, sw;
        TEST_ENSURE_CODE(spx_manifold_hull_hull(&a, &b, margin, &m), SPX_OK);
        TEST_ENSURE_CODE(spx_manifold_hull_hull(&b, &a, margin, &sw), SPX_OK);
        TEST_ENSURE(m.point_count == 2 && sw.point_count == 2);
        /* A's face beside the ridge towards B's lower end: normal (-1, 1, 0) / sqrt 2. */
        TEST_ENSURE(angle_gap(m.normal, spx_v3(-c, c, 0)) < 1e-5);
        TEST_ENSURE(angle_gap(sw.normal, spx_v3(c, -c, 0)) < 1e-5);
        float deepest = -1.0f, farthest = 0.0f;
        for (int k = 0; k < m.point_count; ++k) {
            TEST_ENSURE(m.points[k].depth <= pen.depth + 1e-6f && m.points[k].depth >= -margin);
            deepest = fmaxf(deepest, m.points[k].depth);
            const spx_vec3 q = m.points[k].point;
            farthest = fmaxf(farthest, sqrtf(q.x * q.x + (q.y - c) * (q.y - c) + q.z * q.z));
        }
        TEST_ENSURE(deepest > 0.0f);
        /* The face's points reach along B's edge past the crossing, where the face would land. */
        TEST_ENSURE(farthest > 0.05f);
    }
    spx_hull_destroy(h);
    return 0;
}

/* Two placed hulls' depth asked both ways round against the brute force: the same overlap wherever the brute force
   is beyond `gate` of touching, and the depth within 1e-6 m. *ref: the brute force; *worst takes the largest
   difference. */
static int depth_both_ways(const spx_placed_hull pieces[2], double gate, double* ref, double* worst)
{
    static ref_piece ra, rb;
    const double zero[3] = { 0, 0, 0 };
    ref_make(&pieces[0], zero, &ra);
    ref_make(&pieces[1], zero, &rb);
    *ref = ref_depth(&ra, &rb);
    for (int k = 0; k < 2; ++k) {
        spx_penetration pen;
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&pieces[k], &pieces[1 - k], &pen), SPX_OK);
        if (fabs(*ref) > gate) TEST_ENSURE(pen.overlapping == (*ref > 0));
        if (pen.overlapping && *ref > 0) {
            TEST_ENSURE_NEAR(pen.depth, *ref, 1e-6);
            *worst = fmax(*worst, fabs(pen.depth - *ref));
        }
    }
    return 0;
}

/* A hull with more edges than a pair holds for its B (they are then formed per edge pair): the depth agrees with the
   brute force within 1e-6 m and with the pieces swapped, and its edge count is checked to be past the pair's block.
   Its faces are merged within the build tolerance, so not flat: each way round, a face's plane is that of its
   farthest corner. */
static int many_edged_hull_against_brute_force(void)
{
    const int cases = test_cases(200) * scale_cases;
    spx_vec3 p[90];
    int overlaps = 0;
    double worst = 0.0;
    for (int c = 0; c < cases; ++c) {
        for (int i = 0; i < 90; ++i) {
            const double z = uniform(-1, 1), t = uniform(0, 6.283185307179586), r = sqrt(1 - z * z);
            p[i] = spx_v3((float)(r * cos(t)), (float)(r * sin(t)), (float)z);
        }
        spx_hull* big = NULL;
        TEST_ENSURE_CODE(make_hull(p, 90, &big), SPX_OK);
        spx_hull_info info;
        spx_hull_get_info(big, &info);
        TEST_ENSURE(info.edge_count > 128);
        spx_hull* small = random_hull(uniform(0.3, 1.2));
        const spx_vec3 at = grid3(-1.8, 1.8);
        const spx_mat3 ra_small = random_rotation();
        const spx_mat3 ra_big = random_rotation();
        const spx_placed_hull pieces[2] = { { small, spx_v3(0, 0, 0), ra_small }, { big, at, ra_big } };
        double ref;
        TEST_ENSURE(depth_both_ways(pieces, 1e-5, &ref, &worst) == 0);
        overlaps += ref > 1e-5;
        spx_hull_destroy(small);
        spx_hull_destroy(big);
    }
    printf("  %d of %d overlapping; worst depth against the brute force %.2g m\n", overlaps, cases, worst);
    TEST_ENSURE(overlaps > cases / 10);
    return 0;
}

/* The shortcut for faces whose normals are exact opposites (one dot product serves both) changes no answer: each
   query to the bit against the same pieces with it switched off, on boxes and box-shaped hulls (the pairs) and random
   hulls, on a grid and square to the axes often so that many sides come out exactly zero. */
static int opposite_faces_change_no_answer(void)
{
    /* Faces +x, -x, +y, -y, +z, -z, as a box's view has them. */
    static const uint32_t loops[24] = { 1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1 };
    static const uint32_t fours[6] = { 4, 4, 4, 4, 4, 4 };
    spx_vec3 p[8];
    cube_corners(spx_v3(0.5f, 0.25f, 0.75f), p);
    spx_hull_def def = spx_default_hull_def();
    def.points = p, def.point_count = 8, def.face_count = 6;
    def.face_corners = loops, def.face_sizes = fours;
    spx_hull* boxy = NULL;
    TEST_ENSURE_CODE(spx_hull_create(&def, &boxy), SPX_OK);
    TEST_ENSURE(boxy->view.opposite_pairs == 3);
    const int cases = test_cases(4000) * scale_cases;
    int zero_gaps = 0, manifolds = 0, hits = 0;
    for (int c = 0; c < cases; ++c) {
        spx_hull* random = c % 2 ? random_hull(0.8) : NULL;
        const spx_hull* a = random ? random : boxy;
        spx_hull plain = *a;
        plain.view.opposite_pairs = 0;
        const bool square = uniform(0, 1) < 0.5;
        const spx_vec3 at = grid3(-1, 1);
        spx_placed_hull pa = { a, at, square ? test_identity : random_rotation() };
        spx_placed_hull pa0 = pa;
        pa0.hull = &plain;
        const spx_vec3 box_at = grid3(-1, 1);
        spx_obb box = { box_at, spx_v3(0.5f, 0.5f, 0.5f), square ? test_identity : random_rotation() };
        spx_hull_query q = { 0 }, q0;
        spx_hull_box_view(box.half_extents, q.box_vertices, q.box_faces, &q.box_view);
        q.b = &q.box_view, q.pb = box.center, q.rb = &box.rotation, q.b_reference = -1, q.b_reference_cos = -2.0;
        q0 = q;
        q0.box_view.opposite_pairs = 0;
        q0.b = &q0.box_view;
        const spx_vec3 va = grid3(-2, 2), vb = c % 3 ? grid3(-2, 2) : spx_v3(0, 0, 0);
        const double margin = c % 4 ? 0.0 : 0.01;
        spx_sweep_hit h1, h0;
        memset(&h1, 0, sizeof h1), memset(&h0, 0, sizeof h0);
        spx_hull_query_sweep_margin(&pa, va, &q, vb, 1.0f, margin, &h1);
        spx_hull_query_sweep_margin(&pa0, va, &q0, vb, 1.0f, margin, &h0);
        TEST_ENSURE(memcmp(&h1, &h0, sizeof h1) == 0);
        hits += h1.state != SPX_SWEEP_MISS;
        spx_penetration n1, n0;
        spx_hull_query_penetration(&pa, &q, &n1);
        spx_hull_query_penetration(&pa0, &q0, &n0);
        TEST_ENSURE(n1.overlapping == n0.overlapping && n1.axis == n0.axis);
        TEST_ENSURE(memcmp(&n1.normal, &n0.normal, sizeof n1.normal) == 0 &&
                    memcmp(&n1.depth, &n0.depth, sizeof n1.depth) == 0);
        zero_gaps += n1.overlapping && n1.depth == 0.0f;
        TEST_ENSURE(spx_hull_query_overlap(&pa, &q) == spx_hull_query_overlap(&pa0, &q0));
        spx_manifold m1, m0;
        memset(&m1, 0, sizeof m1), memset(&m0, 0, sizeof m0);
        const unsigned k1 = spx_hull_query_manifold(&pa, &q, 0.02f, &m1);
        const unsigned k0 = spx_hull_query_manifold(&pa0, &q0, 0.02f, &m0);
        TEST_ENSURE(k1 == k0 && memcmp(&m1, &m0, sizeof m1) == 0);
        manifolds += m1.point_count > 0;
        spx_hull_destroy(random);
    }
    spx_hull_destroy(boxy);
    printf("  %d cases: %d sweeps hit, %d manifolds, %d touching at depth 0\n", cases, hits, manifolds, zero_gaps);
    TEST_ENSURE(hits > cases / 10 && manifolds > cases / 10);
    return 0;
}

/* A cube whose top face has one corner raised by 2e-5 m (within the build tolerance, so the face stays one, not flat),
   pressed by a small hull from above: the depth agrees with a brute force within 1e-6 m each way round, whichever
   corner is raised (the face's plane is that of its farthest corner, not of the first of its loop). */
static int bulged_face_against_brute_force(void)
{
    int overlaps = 0;
    double worst = 0.0;
    for (int raised = 0; raised < 4; ++raised) {
        spx_vec3 p[8];
        cube_corners(spx_v3(1, 1, 1), p);
        int top = 0;
        for (int i = 0; i < 8; ++i)
            if (p[i].z > 0 && top++ == raised) p[i].z += 2e-5f;
        spx_hull* cube = NULL;
        TEST_ENSURE_CODE(make_hull(p, 8, &cube), SPX_OK);
        spx_hull_info info;
        spx_hull_get_info(cube, &info);
        TEST_ENSURE(info.face_count == 6);
        for (int c = 0; c < test_cases(50); ++c) {
            spx_hull* small = random_hull(0.3);
            const float x = grid(-0.5, 0.5), y = grid(-0.5, 0.5);
            const spx_placed_hull pieces[2] = { { cube, spx_v3(0, 0, 0), test_identity },
                                                { small, spx_v3(x, y, 1.2f), random_rotation() } };
            double ref;
            TEST_ENSURE(depth_both_ways(pieces, 1e-6, &ref, &worst) == 0);
            overlaps += ref > 1e-6;
            spx_hull_destroy(small);
        }
        spx_hull_destroy(cube);
    }
    printf("  %d of %d overlapping; worst depth against the brute force %.2g m\n", overlaps, 4 * test_cases(50), worst);
    TEST_ENSURE(overlaps > test_cases(50));
    return 0;
}

/* A hull far smaller than its distance from the other's origin (1e-30 to 1e-4 m across, in and about a hull of a
   metre): in the larger one's frame its corners round to a point or a segment, while its faces keep their normals.
   Asked either way round, the same state, and the depth of its deepest corner below the larger one's faces (a
   brute force that needs no edges) within 1e-6 m; swept, the same state and time. */
static int small_hull_against_large_swapped(void)
{
    const int cases = test_cases(1000) * scale_cases;
    int overlaps = 0, hits = 0;
    for (int c = 0; c < cases; ++c) {
        const double size = pow(10.0, uniform(-30, -4));
        spx_hull *big = random_hull(uniform(0.5, 1.5)), *small = random_hull(size);
        const spx_vec3 at_big = grid3(-1, 1);
        const spx_placed_hull pb = { big, at_big, random_rotation() };
        const spx_vec3 at = grid3(-0.6, 0.6);
        const spx_placed_hull ps = { small, spx_v3(pb.position.x + at.x, pb.position.y + at.y, pb.position.z + at.z),
                                     random_rotation() };
        /* The small hull's deepest corner below the large one's faces (world, double). */
        static ref_piece rb, rs;
        const double zero[3] = { 0, 0, 0 };
        ref_make(&pb, zero, &rb);
        ref_make(&ps, zero, &rs);
        double ref = -DBL_MAX;
        for (int i = 0; i < rs.nv; ++i) {
            double d = DBL_MAX;
            for (int f = 0; f < rb.nf; ++f) {
                double hi = -DBL_MAX;
                for (int v = 0; v < rb.nv; ++v)
                    hi = fmax(hi, rb.v[v][0] * rb.n[f][0] + rb.v[v][1] * rb.n[f][1] + rb.v[v][2] * rb.n[f][2]);
                d = fmin(d, hi - (rs.v[i][0] * rb.n[f][0] + rs.v[i][1] * rb.n[f][1] + rs.v[i][2] * rb.n[f][2]));
            }
            ref = fmax(ref, d);
        }
        spx_penetration pen[2];
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&ps, &pb, &pen[0]), SPX_OK);
        TEST_ENSURE_CODE(spx_penetration_hull_hull(&pb, &ps, &pen[1]), SPX_OK);
        for (int k = 0; k < 2; ++k) {
            if (fabs(ref) > 1e-6) TEST_ENSURE(pen[k].overlapping == (ref > 0));
            if (pen[k].overlapping && ref > 1e-6) TEST_ENSURE_NEAR(pen[k].depth, ref, 1e-6);
        }
        overlaps += ref > 1e-6;
        const spx_vec3 vs = test_random_vec3(uniform, -2, 2), vb = test_random_vec3(uniform, -2, 2);
        spx_sweep_hit hit, back;
        TEST_ENSURE_CODE(spx_sweep_hull_hull(&ps, vs, &pb, vb, 1.0f, &hit), SPX_OK);
        TEST_ENSURE_CODE(spx_sweep_hull_hull(&pb, vb, &ps, vs, 1.0f, &back), SPX_OK);
        if (fabs(ref) > 1e-6) TEST_ENSURE(hit.state == back.state || hit.time < 1e-5f || hit.time > 1.0f - 1e-5f);
        if (hit.state == SPX_SWEEP_HIT && back.state == SPX_SWEEP_HIT) {
            TEST_ENSURE_NEAR(back.time, hit.time, 1e-5);
            TEST_ENSURE(angle_gap(back.normal, spx_v3(-hit.normal.x, -hit.normal.y, -hit.normal.z)) < 1e-3);
        }
        hits += hit.state == SPX_SWEEP_HIT;
        spx_hull_destroy(big);
        spx_hull_destroy(small);
    }
    printf("  %d of %d overlapping, %d sweeps hit\n", overlaps, cases, hits);
    TEST_ENSURE(overlaps > cases / 10 && hits > cases / 10);
    return 0;
}

int main(int argc, char** argv)
{
    if (test_long_run(argc, argv)) scale_cases = 10;
    int failures = 0;
    TEST_RUN(hull_of_cube_with_inside_points, failures);
    TEST_RUN(hull_of_cube_lattice, failures);
    TEST_RUN(hull_of_random_clouds, failures);
    TEST_RUN(hull_bad_input, failures);
    TEST_RUN(hull_from_faces, failures);
    TEST_RUN(hull_mass_matches_box, failures);
    TEST_RUN(hull_query_bad_input, failures);
    TEST_RUN(box_as_hull_matches_box, failures);
    TEST_RUN(hulls_against_brute_force, failures);
    TEST_RUN(hull_manifold_resting, failures);
    TEST_RUN(hull_manifold_random, failures);
    TEST_RUN(hull_manifold_edge_turning_onto_face, failures);
    TEST_RUN(opposite_faces_change_no_answer, failures);
    TEST_RUN(many_edged_hull_against_brute_force, failures);
    TEST_RUN(bulged_face_against_brute_force, failures);
    TEST_RUN(small_hull_against_large_swapped, failures);
    return failures != 0;
}
