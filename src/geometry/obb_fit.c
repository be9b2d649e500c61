/* OBB fit by area-weighted covariance (OBBTree). Sums in double: far from the origin or on a
 * sliver, float loses the direction. See docs/decisions.md#meshes. */
#include "obb_fit.h"
#include "math/dvec3.h"
#include <float.h>
#include <math.h>

void spx_tri_moment_of(const spx_triangle* t, spx_tri_moment* out)
{
    spx_dvec3 p = spx_d3_from(t->v[0]), q = spx_d3_from(t->v[1]), r = spx_d3_from(t->v[2]);
    spx_dvec3 c = spx_d3_scale(spx_d3_add(spx_d3_add(p, q), r), 1.0 / 3.0);
    out->centroid[0] = c.x;
    out->centroid[1] = c.y;
    out->centroid[2] = c.z;
    out->area = 0.5 * sqrt(spx_d3_len2(spx_d3_cross(spx_d3_sub(q, p), spx_d3_sub(r, p))));
}

/* One Jacobi rotation in the (p, q) plane that zeroes a[p][q]; v collects the rotations. */
static void jacobi_rotate(double a[3][3], double v[3][3], int p, int q)
{
    double apq = a[p][q];
    if (apq == 0.0) return;
    /* The smaller root keeps the rotation under 45 degrees, so Jacobi converges (Golub, Van Loan 8.4). */
    double theta = (a[q][q] - a[p][p]) / (2.0 * apq);
    double t =
        fabs(theta) > 1e150 ? 0.5 / theta : (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
    double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
    for (int k = 0; k < 3; ++k) { /* a J */
        double akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
    }
    for (int k = 0; k < 3; ++k) { /* J^T (a J) */
        double apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
    }
    a[p][q] = a[q][p] = 0.0; /* exactly zero by construction; rounding would leave ~1e-17 */
    for (int k = 0; k < 3; ++k) {
        double vkp = v[k][p], vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
    }
}

void spx_sym3_eigen(const double in[3][3], double values[3], double vectors[3][3])
{
    double a[3][3], v[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (in[i][j] + in[j][i]);
    /* Cyclic sweeps converge quadratically; 3x3 needs about 4-6. The bound only guards NaN. */
    for (int sweep = 0; sweep < 32; ++sweep) {
        double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        /* Off-diagonal below 1e-24 of the diagonal: axes to ~1e-12, beyond float. Stops on NaN too. */
        if (!(off > 1e-24 * diag)) break;
        jacobi_rotate(a, v, 0, 1);
        jacobi_rotate(a, v, 0, 2);
        jacobi_rotate(a, v, 1, 2);
    }
    /* Largest eigenvalue first (a fixed order makes the boxes easier to read; stable sort of 3). */
    int order[3] = { 0, 1, 2 };
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2 - i; ++j)
            if (a[order[j]][order[j]] < a[order[j + 1]][order[j + 1]]) {
                int tmp = order[j];
                order[j] = order[j + 1];
                order[j + 1] = tmp;
            }
    for (int j = 0; j < 3; ++j) {
        values[j] = a[order[j]][order[j]];
        for (int i = 0; i < 3; ++i) vectors[i][j] = v[i][order[j]];
    }
    /* The sort may flip det: the third axis is the first two's cross, so the rotation is proper. */
    spx_dvec3 e0 = spx_d3(vectors[0][0], vectors[1][0], vectors[2][0]);
    spx_dvec3 e1 = spx_d3(vectors[0][1], vectors[1][1], vectors[2][1]);
    spx_dvec3 e2 = spx_d3_cross(e0, e1);
    double n = sqrt(spx_d3_len2(e2));
    vectors[0][2] = e2.x / n;
    vectors[1][2] = e2.y / n;
    vectors[2][2] = e2.z / n;
}

static const spx_triangle* tri_at(const spx_triangle* tris, const uint32_t* index, uint32_t k)
{
    return &tris[index ? index[k] : k];
}

static spx_tri_moment moment_at(const spx_triangle* tris, const spx_tri_moment* moments, const uint32_t* index,
                                uint32_t k)
{
    uint32_t i = index ? index[k] : k;
    if (moments) return moments[i];
    spx_tri_moment m;
    spx_tri_moment_of(&tris[i], &m);
    return m;
}

/* Rounds a non-negative double up to a float, so a float extent never cuts off a corner. */
static float round_up_float(double x)
{
    if (x >= (double)FLT_MAX) return FLT_MAX;
    float f = (float)x;
    if ((double)f < x) f = nextafterf(f, FLT_MAX);
    return f;
}

spx_obb spx_obb_fit_triangles(const spx_triangle* tris, const spx_tri_moment* moments, const uint32_t* index,
                              uint32_t count)
{
    /* Surface centroid; with no area (all segment-like) the triangles weigh the same. */
    double area = 0.0, mean[3] = { 0, 0, 0 };
    for (uint32_t k = 0; k < count; ++k) area += moment_at(tris, moments, index, k).area;
    bool uniform = !(area > 0.0);
    double total = uniform ? (double)count : area;
    for (uint32_t k = 0; k < count; ++k) {
        spx_tri_moment m = moment_at(tris, moments, index, k);
        double w = uniform ? 1.0 : m.area;
        for (int i = 0; i < 3; ++i) mean[i] += w * m.centroid[i];
    }
    for (int i = 0; i < 3; ++i) mean[i] /= total;

    /* a/12 (9 c c^T + p p^T + q q^T + r r^T) a triangle, about the mean so nothing cancels; by
       area, not vertices, so dense patches do not pull the axes. */
    double sxx = 0, sxy = 0, sxz = 0, syy = 0, syz = 0, szz = 0; /* six accumulators stay in registers */
    for (uint32_t k = 0; k < count; ++k) {
        const spx_triangle* t = tri_at(tris, index, k);
        spx_tri_moment m = moment_at(tris, moments, index, k);
        double w = (uniform ? 1.0 : m.area) / 12.0;
        double cx = m.centroid[0] - mean[0], cy = m.centroid[1] - mean[1], cz = m.centroid[2] - mean[2];
        double xx = 9.0 * cx * cx, xy = 9.0 * cx * cy, xz = 9.0 * cx * cz;
        double yy = 9.0 * cy * cy, yz = 9.0 * cy * cz, zz = 9.0 * cz * cz;
        for (int c = 0; c < 3; ++c) {
            double px = (double)t->v[c].x - mean[0], py = (double)t->v[c].y - mean[1], pz = (double)t->v[c].z - mean[2];
            xx += px * px, xy += px * py, xz += px * pz;
            yy += py * py, yz += py * pz, zz += pz * pz;
        }
        sxx += w * xx, sxy += w * xy, sxz += w * xz;
        syy += w * yy, syz += w * yz, szz += w * zz;
    }
    const double cov[3][3] = { { sxx / total, sxy / total, sxz / total },
                               { sxy / total, syy / total, syz / total },
                               { sxz / total, syz / total, szz / total } };

    double values[3], vec[3][3];
    spx_sym3_eigen(cov, values, vec);

    /* Extents measured on the stored float axes, so the box holds every corner. */
    spx_obb box;
    spx_dvec3 axis[3];
    for (int j = 0; j < 3; ++j) {
        box.rotation.col[j] = spx_v3((float)vec[0][j], (float)vec[1][j], (float)vec[2][j]);
        axis[j] = spx_d3_from(box.rotation.col[j]);
    }
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (uint32_t k = 0; k < count; ++k) {
        const spx_triangle* t = tri_at(tris, index, k);
        for (int c = 0; c < 3; ++c) {
            spx_dvec3 p = spx_d3_from(t->v[c]);
            for (int j = 0; j < 3; ++j) {
                double d = spx_d3_dot(axis[j], p);
                lo[j] = d < lo[j] ? d : lo[j];
                hi[j] = d > hi[j] ? d : hi[j];
            }
        }
    }
    spx_dvec3 center = spx_d3(0, 0, 0);
    for (int j = 0; j < 3; ++j) center = spx_d3_mad(center, axis[j], 0.5 * (lo[j] + hi[j]));
    box.center = spx_d3_to_float(center);
    /* About the stored float centre: the larger side of the shadow around its own. */
    spx_dvec3 cf = spx_d3_from(box.center);
    double half[3], largest = 0.0;
    for (int j = 0; j < 3; ++j) {
        double cp = spx_d3_dot(axis[j], cf);
        half[j] = spx_dmax(hi[j] - cp, cp - lo[j]);
        largest = spx_dmax(largest, half[j]);
    }
    float* h = &box.half_extents.x;
    for (int j = 0; j < 3; ++j) {
        /* Flat sets get a slab; the 2^-22 pad covers the shadows' double rounding many times. */
        double e = spx_dmax(spx_dmax(half[j], SPX_OBB_FIT_MIN_RATIO * largest), (double)FLT_MIN);
        h[j] = round_up_float(e * (1.0 + 0x1p-22));
    }
    return box;
}
