/* Mass properties: box, sphere and capsule in closed form; a closed mesh by signed tetrahedra about
 * its bounding-box centre, in double. See docs/decisions.md#mass-properties for the moments. */
#include "mass.h"
#include "mesh.h"
#include "math/dvec3.h"
#include "validate.h"
#include <float.h>
#include <string.h>

static spx_result check_density(float density)
{
    if (!isfinite(density)) return SPX_ERR_NOT_FINITE;
    if (!(density > 0.0f)) return SPX_ERR_BAD_DENSITY;
    return SPX_OK;
}

/* Within float's range, compared in double before converting (a double beyond FLT_MAX has no float). */
static bool fits_float(double x) { return x <= FLT_MAX && x >= -FLT_MAX; }

/* Only when all fit a float: below FLT_MIN a body cannot invert them. */
static spx_result finish(double volume, float density, const double center[3], const double inertia[3][3],
                         spx_mass_properties* out)
{
    const double mass = volume * (double)density;
    if (!fits_float(mass) || !fits_float(volume) || mass < FLT_MIN || volume < FLT_MIN)
        return SPX_ERR_MASS_OUT_OF_RANGE;
    double I[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            I[i][j] = inertia[i][j] * (double)density;
            if (!fits_float(I[i][j])) return SPX_ERR_MASS_OUT_OF_RANGE;
        }
    for (int i = 0; i < 3; ++i)
        if (I[i][i] < FLT_MIN) return SPX_ERR_MASS_OUT_OF_RANGE;
    out->mass = (float)mass;
    out->volume = (float)volume;
    out->center = spx_v3((float)center[0], (float)center[1], (float)center[2]);
    /* Symmetric by construction: entry (i, j) and (j, i) are the same double, rounded once. */
    for (int c = 0; c < 3; ++c) out->inertia.col[c] = spx_v3((float)I[0][c], (float)I[1][c], (float)I[2][c]);
    return SPX_OK;
}

SPX_API spx_result spx_mass_box(spx_vec3 half_extents, float density, spx_mass_properties* out)
{
    if (!out) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(half_extents) || !isfinite(density)) return SPX_ERR_NOT_FINITE;
    if (!(half_extents.x > 0.0f && half_extents.y > 0.0f && half_extents.z > 0.0f)) return SPX_ERR_BAD_EXTENT;
    spx_result r = check_density(density);
    if (r != SPX_OK) return r;
    const double x2 = (double)half_extents.x * half_extents.x, y2 = (double)half_extents.y * half_extents.y,
                 z2 = (double)half_extents.z * half_extents.z;
    const double volume = 8.0 * half_extents.x * (double)half_extents.y * half_extents.z;
    /* At unit density; the density is applied in finish like the mesh's. */
    const double inertia[3][3] = { { volume * (y2 + z2) / 3.0, 0, 0 },
                                   { 0, volume * (x2 + z2) / 3.0, 0 },
                                   { 0, 0, volume * (x2 + y2) / 3.0 } };
    const double center[3] = { 0, 0, 0 };
    return finish(volume, density, center, inertia, out);
}

SPX_API spx_result spx_mass_mesh(const spx_mesh* mesh, float density, spx_mass_properties* out)
{
    if (!mesh || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_density(density);
    if (r != SPX_OK) return r;
    const spx_unit_mass* u = &mesh->mass;
    if (u->status != SPX_OK) return u->status;
    return finish(u->volume, density, u->center, u->inertia, out);
}

static bool same_point(spx_vec3 a, spx_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

void spx_mass_integrate(const spx_mesh_def* def, bool closed, spx_unit_mass* out)
{
    memset(out, 0, sizeof *out);
    out->status = SPX_ERR_MESH_NOT_CLOSED;
    if (!closed) return;

    /* Reference point: the centre of the box around the corners the triangles use. */
    double lo[3] = { DBL_MAX, DBL_MAX, DBL_MAX }, hi[3] = { -DBL_MAX, -DBL_MAX, -DBL_MAX };
    const size_t index_count = 3 * (size_t)def->triangle_count;
    for (size_t i = 0; i < index_count; ++i) {
        const spx_vec3 p = def->vertices[def->indices[i]];
        const double q[3] = { p.x, p.y, p.z };
        for (int k = 0; k < 3; ++k) lo[k] = spx_dmin(lo[k], q[k]), hi[k] = spx_dmax(hi[k], q[k]);
    }
    /* (lo + hi) / 2 of two floats is exact in double. */
    const spx_dvec3 ref = spx_d3(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]));

    /* Sums of 6 V, 24 (first moment) and 120 (second moment): the constant factors come out once at the end. */
    double vol6 = 0.0, abs6 = 0.0, m1[3] = { 0, 0, 0 }, m2[3][3] = { { 0 } };
    for (uint32_t t = 0; t < def->triangle_count; ++t) {
        const uint32_t* idx = def->indices + 3 * (size_t)t;
        const spx_vec3 a = def->vertices[idx[0]], b = def->vertices[idx[1]], c = def->vertices[idx[2]];
        /* Two equal corners: no area, no volume; skipped so rounding cannot give it any. */
        if (same_point(a, b) || same_point(b, c) || same_point(c, a)) continue;
        const spx_dvec3 p[3] = { spx_d3_sub(spx_d3_from(a), ref), spx_d3_sub(spx_d3_from(b), ref),
                                 spx_d3_sub(spx_d3_from(c), ref) };
        const double det = spx_d3_dot(p[0], spx_d3_cross(p[1], p[2]));
        const spx_dvec3 s = spx_d3_add(spx_d3_add(p[0], p[1]), p[2]);
        vol6 += det;
        abs6 += det < 0.0 ? -det : det;
        const double sv[3] = { s.x, s.y, s.z };
        double pv[3][3];
        for (int k = 0; k < 3; ++k) pv[k][0] = p[k].x, pv[k][1] = p[k].y, pv[k][2] = p[k].z;
        for (int i = 0; i < 3; ++i) {
            m1[i] += det * sv[i];
            for (int j = i; j < 3; ++j)
                m2[i][j] += det * (pv[0][i] * pv[0][j] + pv[1][i] * pv[1][j] + pv[2][i] * pv[2][j] + sv[i] * sv[j]);
        }
    }
    const double volume = vol6 / 6.0;
    /* Not "> 0": also catches a surface whose every tetrahedron is flat (abs6 == 0). */
    const double magnitude = volume < 0.0 ? -volume : volume;
    if (!(magnitude > SPX_MASS_ZERO_VOLUME_RATIO * (abs6 / 6.0))) {
        out->status = SPX_ERR_ZERO_VOLUME;
        return;
    }
    if (volume < 0.0) {
        out->status = SPX_ERR_MESH_INSIDE_OUT;
        return;
    }
    /* Centroid relative to ref, then the second moment about it: C = M2 - V c c^T; the inertia
       tensor is trace(C) E - C. */
    double c[3], C[3][3];
    for (int i = 0; i < 3; ++i) c[i] = m1[i] / 24.0 / volume;
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) C[i][j] = C[j][i] = m2[i][j] / 120.0 - volume * c[i] * c[j];
    const double trace = C[0][0] + C[1][1] + C[2][2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out->inertia[i][j] = (i == j ? trace : 0.0) - C[i][j];
    out->volume = volume;
    out->center[0] = ref.x + c[0], out->center[1] = ref.y + c[1], out->center[2] = ref.z + c[2];
    out->status = SPX_OK;
}

static const double spx_pi = 3.14159265358979323846;

/* A sphere or a capsule: the checks of both, in the order of base.h. */
static spx_result check_round(spx_result shape, float radius, float density, spx_mass_properties* out)
{
    if (!out || shape == SPX_ERR_INVALID_ARGUMENT) return SPX_ERR_INVALID_ARGUMENT;
    if (shape == SPX_OK && !isfinite(density)) shape = SPX_ERR_NOT_FINITE;
    if (shape != SPX_OK) return shape;
    if (!(radius > 0.0f)) return SPX_ERR_BAD_EXTENT;
    return check_density(density);
}

SPX_API spx_result spx_mass_sphere(const spx_sphere* sphere, float density, spx_mass_properties* out)
{
    spx_result r = check_round(spx_sphere_validate(sphere), sphere ? sphere->radius : 0.0f, density, out);
    if (r != SPX_OK) return r;
    const double rr = sphere->radius, volume = 4.0 / 3.0 * spx_pi * rr * rr * rr, I = 0.4 * volume * rr * rr;
    const double inertia[3][3] = { { I, 0, 0 }, { 0, I, 0 }, { 0, 0, I } };
    const double center[3] = { sphere->center.x, sphere->center.y, sphere->center.z };
    return finish(volume, density, center, inertia, out);
}

SPX_API spx_result spx_mass_capsule(const spx_capsule* capsule, float density, spx_mass_properties* out)
{
    spx_result r = check_round(spx_capsule_validate(capsule), capsule ? capsule->radius : 0.0f, density, out);
    if (r != SPX_OK) return r;
    const spx_dvec3 p0 = spx_d3_from(capsule->p[0]), p1 = spx_d3_from(capsule->p[1]), u = spx_d3_sub(p1, p0);
    const double rr = capsule->radius, L = sqrt(spx_d3_len2(u));
    const double cylinder = spx_pi * rr * rr * L, balls = 4.0 / 3.0 * spx_pi * rr * rr * rr;
    /* Along and across the segment; across, each half ball's 2/5 r^2 moves from 3/8 r off its face. */
    const double along = 0.5 * cylinder * rr * rr + 0.4 * balls * rr * rr;
    const double across =
        cylinder * (L * L / 12.0 + rr * rr / 4.0) + balls * (0.4 * rr * rr + L * L / 4.0 + 0.375 * L * rr);
    const spx_dvec3 axis = L > 0.0 ? spx_d3_scale(u, 1.0 / L) : spx_d3(1, 0, 0);
    const double a[3] = { axis.x, axis.y, axis.z };
    double inertia[3][3];
    /* across (identity - a a^T) + along a a^T */
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) inertia[i][j] = (i == j ? across : 0.0) + (along - across) * a[i] * a[j];
    const spx_dvec3 mid = spx_d3_lerp_mid(p0, p1);
    const double center[3] = { mid.x, mid.y, mid.z };
    return finish(cylinder + balls, density, center, (const double(*)[3])inertia, out);
}
