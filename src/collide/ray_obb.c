/* A ray against a solid box: the slab test (Kay and Kajiya) in the box's frame, in double. */
#include "ray.h"
#include "geometry/validate.h"
#include <math.h>

bool spx_ray_box_t(const spx_ray* ray, const double c[3], const double h[3], const double axis[3][3], double pad,
                   double tmax, double* out_t, int* out_axis, double* out_sign)
{
    const double rel[3] = { ray->org[0] - c[0], ray->org[1] - c[1], ray->org[2] - c[2] };
    /* [0, tmax] clipped by the three slabs. A ray parallel to a slab has an infinite inverse: outside, both times
       fall on one side; inside, -inf and +inf; on its face a NaN, which x > y ? x : y passes over. */
    double enter = 0.0, leave = tmax, sign = 0.0;
    int entered = -1;
    for (int i = 0; i < 3; ++i) {
        const double* u = axis[i];
        const double o = rel[0] * u[0] + rel[1] * u[1] + rel[2] * u[2];
        const double d = ray->dir[0] * u[0] + ray->dir[1] * u[1] + ray->dir[2] * u[2];
        const double hh = copysign(h[i] + pad, d); /* the face met first is at -hh */
        const double inv = 1.0 / d;
        const double t1 = (-hh - o) * inv, t2 = (hh - o) * inv;
        if (t1 > enter) enter = t1, entered = i, sign = signbit(d) ? 1.0 : -1.0;
        leave = t2 < leave ? t2 : leave;
    }
    if (!(enter <= leave)) return false;
    *out_t = enter;
    *out_axis = enter > 0.0 ? entered : -1; /* 0: the origin is in the box or on it */
    *out_sign = sign;
    return true;
}

void spx_pose_matrix(const spx_transform* pose, double r[3][3], double p[3])
{
    double x = pose->q.x, y = pose->q.y, z = pose->q.z, w = pose->q.w;
    const double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    r[0][0] = 1 - 2 * (y * y + z * z), r[0][1] = 2 * (x * y + w * z), r[0][2] = 2 * (x * z - w * y);
    r[1][0] = 2 * (x * y - w * z), r[1][1] = 1 - 2 * (x * x + z * z), r[1][2] = 2 * (y * z + w * x);
    r[2][0] = 2 * (x * z + w * y), r[2][1] = 2 * (y * z - w * x), r[2][2] = 1 - 2 * (x * x + y * y);
    p[0] = pose->p.x, p[1] = pose->p.y, p[2] = pose->p.z;
}

void spx_ray_obb_hit(const spx_ray* ray, const spx_obb* box, float max_fraction, spx_ray_hit* out)
{
    const double* o = ray->org;
    const double* d = ray->dir;
    const double c[3] = { box->center.x, box->center.y, box->center.z };
    const double h[3] = { box->half_extents.x, box->half_extents.y, box->half_extents.z };
    double axis[3][3];
    for (int i = 0; i < 3; ++i)
        axis[i][0] = box->rotation.col[i].x, axis[i][1] = box->rotation.col[i].y, axis[i][2] = box->rotation.col[i].z;
    *out = spx_ray_miss();
    double t, sign;
    int entered;
    if (!spx_ray_box_t(ray, c, h, (const double(*)[3])axis, 0.0, max_fraction, &t, &entered, &sign)) return;
    out->fraction = (float)t;
    out->point = spx_v3((float)(o[0] + t * d[0]), (float)(o[1] + t * d[1]), (float)(o[2] + t * d[2]));
    if (entered < 0) {
        const double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        out->state = SPX_SWEEP_START_OVERLAP;
        out->normal = spx_v3((float)(-d[0] / len), (float)(-d[1] / len), (float)(-d[2] / len));
    } else {
        out->state = SPX_SWEEP_HIT;
        const spx_vec3 a = box->rotation.col[entered];
        out->normal = sign > 0.0 ? a : spx_v3(-a.x, -a.y, -a.z);
    }
}

SPX_API spx_result spx_ray_obb(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_obb* box,
                               spx_ray_hit* out)
{
    if (!box || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_ray_check(origin, translation, max_fraction), spx_obb_validate(box));
    if (r != SPX_OK) return r;
    const spx_ray ray = spx_ray_from(origin, translation);
    spx_ray_obb_hit(&ray, box, max_fraction, out);
    return SPX_OK;
}
