/* Rays shared by the plain-data queries and the world's casts: in double, in the tested piece's frame. */
#ifndef SPX_COLLIDE_RAY_H
#define SPX_COLLIDE_RAY_H

#include <sepax/query.h>
#include <math.h>
#include <stdbool.h>

/* A ray origin + t * dir, t in [0, tmax], set up for the watertight triangle test (Woop, Benthin, Wald): kz the axis
   where dir is longest, kx, ky the others (swapped when dir[kz] < 0 to keep winding), shear (sx, sy, sz) maps dir
   onto (0, 0, 1). */
typedef struct spx_ray {
    double org[3];
    double dir[3];
    int kx, ky, kz;
    double sx, sy, sz;
} spx_ray;

static inline spx_ray_hit spx_ray_miss(void)
{
    return (spx_ray_hit){ .state = SPX_SWEEP_MISS, .triangle = SPX_NO_TRIANGLE };
}

/* dir not all zero. */
void spx_ray_init(spx_ray* ray, const double origin[3], const double dir[3]);

/* The query's ray: from origin along translation (m; not all zero). */
static inline spx_ray spx_ray_from(spx_vec3 origin, spx_vec3 translation)
{
    const double o[3] = { origin.x, origin.y, origin.z }, d[3] = { translation.x, translation.y, translation.z };
    spx_ray ray;
    spx_ray_init(&ray, o, d);
    return ray;
}

/* Two-sided: true with *out_t in [0, tmax] when the ray meets (a, b, c). *out_grazes (or NULL): through an edge or
   corner exactly, or (with false) in the plane within rounding. */
bool spx_ray_triangle_t(const spx_ray* ray, const spx_vec3* a, const spx_vec3* b, const spx_vec3* c, double tmax,
                        double* out_t, bool* out_grazes);

/* Where the ray enters the box (unit axes) grown by `pad`: true with *out_t in [0, tmax] (0 from inside or on it),
   the axis entered (-1 inside) and its outward normal's sign. */
bool spx_ray_box_t(const spx_ray* ray, const double c[3], const double h[3], const double axis[3][3], double pad,
                   double tmax, double* out_t, int* out_axis, double* out_sign);

/* Where the ray enters `box` grown by pad_fraction of its reach from the origin: true with *out_t in [0, tmax]. Grown
   past rounding, it never misses what the box holds. */
static inline bool spx_ray_obb_entry(const spx_ray* ray, const spx_obb* box, double pad_fraction, double tmax,
                                     double* out_t)
{
    const double* org = ray->org;
    const double* dir = ray->dir;
    const double c[3] = { box->center.x, box->center.y, box->center.z };
    const double rel[3] = { org[0] - c[0], org[1] - c[1], org[2] - c[2] };
    const double pad =
        pad_fraction * ((double)box->half_extents.x + box->half_extents.y + box->half_extents.z + fabs(c[0]) +
                        fabs(c[1]) + fabs(c[2])); /* a bound on the box's reach from the origin */
    double enter = 0.0, leave = tmax;
    for (int i = 0; i < 3; ++i) {
        const spx_vec3 a = box->rotation.col[i];
        const double u[3] = { a.x, a.y, a.z };
        const double o = rel[0] * u[0] + rel[1] * u[1] + rel[2] * u[2];
        const double d = dir[0] * u[0] + dir[1] * u[1] + dir[2] * u[2];
        const double hh = copysign((double)(&box->half_extents.x)[i] + pad, d);
        const double inv = 1.0 / d; /* infinite along a slab: see spx_ray_box_t */
        const double t1 = (-hh - o) * inv, t2 = (hh - o) * inv;
        enter = t1 > enter ? t1 : enter;
        leave = t2 < leave ? t2 : leave;
    }
    *out_t = enter;
    return enter <= leave;
}

/* spx_ray_obb on a checked ray (spx_ray_init of the query) and box. */
void spx_ray_obb_hit(const spx_ray* ray, const spx_obb* box, float max_fraction, spx_ray_hit* out);

/* A query's ray against a checked placed hull: where it enters the solid within max_fraction, START_OVERLAP at 0 from
   inside or on it, as spx_ray_obb_hit. */
void spx_ray_hull_hit(const spx_ray* ray, const struct spx_placed_hull* h, float max_fraction, spx_ray_hit* out);

/* Checks origin and translation as query.h does, and max_fraction in [0, 1]. */
spx_result spx_ray_check(spx_vec3 origin, spx_vec3 translation, float max_fraction);

/* The first triangle the ray (in the mesh's frame) meets, ties to the lower def number: true with *out_t in [0, tmax]
   and its index in mesh order. */
bool spx_ray_mesh_local(const spx_mesh* mesh, const spx_ray* ray, double tmax, double* out_t, uint32_t* out_triangle);

/* spx_ray_mesh on a checked ray (the query's o, d in double) and a checked pose. */
void spx_ray_mesh_hit(const double o[3], const double d[3], float max_fraction, const spx_mesh* mesh,
                      const spx_transform* pose, spx_ray_hit* out);

/* A checked pose as a rotation in double (r[i]: column i, the quaternion normalised) and a position. */
void spx_pose_matrix(const spx_transform* pose, double r[3][3], double p[3]);

/* spx_ray_sphere or spx_ray_capsule after their checks: the points within `radius` of p[0] (count 1) or segment
   p[0]-p[1] (count 2). */
void spx_ray_round_hit(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_vec3* p, int count,
                       float radius, spx_ray_hit* out);

#endif
