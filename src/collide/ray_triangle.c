/* A ray against a triangle, watertight (Woop, Benthin, Wald, JCGT 2013) in double: one shear puts the ray on +z, so
   shared corners land alike and a shared edge's function flips sign exactly, letting no ray pass between triangles.
   See docs/queries.md#rays. */
#include "ray.h"
#include "geometry/validate.h"
#include <math.h>

void spx_ray_init(spx_ray* ray, const double origin[3], const double dir[3])
{
    for (int k = 0; k < 3; ++k) ray->org[k] = origin[k], ray->dir[k] = dir[k];
    int kz = 0;
    if (fabs(dir[1]) > fabs(dir[kz])) kz = 1;
    if (fabs(dir[2]) > fabs(dir[kz])) kz = 2;
    int kx = (kz + 1) % 3, ky = (kx + 1) % 3;
    if (dir[kz] < 0.0) {
        int t = kx;
        kx = ky, ky = t;
    }
    ray->kx = kx, ray->ky = ky, ray->kz = kz;
    ray->sx = dir[kx] / dir[kz];
    ray->sy = dir[ky] / dir[kz];
    ray->sz = 1.0 / dir[kz];
}

bool spx_ray_triangle_t(const spx_ray* ray, const spx_vec3* a, const spx_vec3* b, const spx_vec3* c, double tmax,
                        double* out_t, bool* out_grazes)
{
    const int kx = ray->kx, ky = ray->ky, kz = ray->kz;
    const double A[3] = { a->x - ray->org[0], a->y - ray->org[1], a->z - ray->org[2] };
    const double B[3] = { b->x - ray->org[0], b->y - ray->org[1], b->z - ray->org[2] };
    const double C[3] = { c->x - ray->org[0], c->y - ray->org[1], c->z - ray->org[2] };
    const double ax = A[kx] - ray->sx * A[kz], ay = A[ky] - ray->sy * A[kz];
    const double bx = B[kx] - ray->sx * B[kz], by = B[ky] - ray->sy * B[kz];
    const double cx = C[kx] - ray->sx * C[kz], cy = C[ky] - ray->sy * C[kz];
    const double u = cx * by - cy * bx;
    const double v = ax * cy - ay * cx;
    const double w = bx * ay - by * ax;
    if ((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0)) return false;
    /* All three zero up to the shear's rounding (about 2^-52 of the corner's distance along the ray, times the
       projected size): the ray lies in the plane and grazes, not meets, the triangle. */
    const double size = fmax(fmax(fmax(fabs(ax), fabs(ay)), fmax(fabs(bx), fabs(by))), fmax(fabs(cx), fabs(cy)));
    const double reach = fmax(fmax(fabs(A[0]) + fabs(A[1]) + fabs(A[2]), fabs(B[0]) + fabs(B[1]) + fabs(B[2])),
                              fabs(C[0]) + fabs(C[1]) + fabs(C[2]));
    const double rounding = 0x1p-46 * size * reach;
    if (fabs(u) <= rounding && fabs(v) <= rounding && fabs(w) <= rounding) {
        if (out_grazes) *out_grazes = true;
        return false;
    }
    const double det = u + v + w;
    const double t = (u * ray->sz * A[kz] + v * ray->sz * B[kz] + w * ray->sz * C[kz]) / det;
    if (!(t >= 0.0 && t <= tmax)) return false;
    *out_t = t;
    if (out_grazes) *out_grazes = u == 0.0 || v == 0.0 || w == 0.0;
    return true;
}

static bool zero3(spx_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

spx_result spx_ray_check(spx_vec3 origin, spx_vec3 translation, float max_fraction)
{
    if (!spx_finite3(origin) || !spx_finite3(translation) || !isfinite(max_fraction)) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(origin) || !spx_in_range3(translation)) return SPX_ERR_OUT_OF_RANGE;
    if (zero3(translation) || !(max_fraction >= 0.0f && max_fraction <= 1.0f)) return SPX_ERR_INVALID_ARGUMENT;
    return SPX_OK;
}

static spx_vec3 facing_normal(const spx_triangle* t, const double dir[3])
{
    const double e1[3] = { (double)t->v[1].x - t->v[0].x, (double)t->v[1].y - t->v[0].y,
                           (double)t->v[1].z - t->v[0].z };
    const double e2[3] = { (double)t->v[2].x - t->v[0].x, (double)t->v[2].y - t->v[0].y,
                           (double)t->v[2].z - t->v[0].z };
    double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0.0) len = -len;
    if (len != 0.0) return spx_v3((float)(n[0] / len), (float)(n[1] / len), (float)(n[2] / len));
    /* Corners on one line have no plane: the hit (a rounding of the ray's own test) faces the ray. */
    const double dl = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    return spx_v3((float)(-dir[0] / dl), (float)(-dir[1] / dl), (float)(-dir[2] / dl));
}

SPX_API spx_result spx_ray_triangle(spx_vec3 origin, spx_vec3 translation, float max_fraction,
                                    const spx_triangle* triangle, spx_ray_hit* out)
{
    if (!triangle || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_ray_check(origin, translation, max_fraction), spx_triangle_validate(triangle));
    if (r != SPX_OK) return r;
    const spx_ray ray = spx_ray_from(origin, translation);
    *out = spx_ray_miss();
    double t;
    if (!spx_ray_triangle_t(&ray, &triangle->v[0], &triangle->v[1], &triangle->v[2], max_fraction, &t, NULL))
        return SPX_OK;
    out->state = SPX_SWEEP_HIT;
    out->fraction = (float)t;
    const double *o = ray.org, *d = ray.dir;
    out->point = spx_v3((float)(o[0] + t * d[0]), (float)(o[1] + t * d[1]), (float)(o[2] + t * d[2]));
    out->normal = facing_normal(triangle, d);
    return SPX_OK;
}
