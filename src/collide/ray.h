/* Rays as the plain-data ray queries and the world's casts share them: in double, in the frame of the
   piece they are tested against. */
#ifndef SPX_COLLIDE_RAY_H
#define SPX_COLLIDE_RAY_H

#include <sepax/query.h>
#include <math.h>
#include <stdbool.h>

/* A ray origin + t * dir, t in [0, tmax], made ready for the watertight triangle test of Woop,
   Benthin and Wald (JCGT 2013): the axis kz where dir is longest becomes the ray's direction, kx and
   ky the other two (swapped when dir[kz] < 0, to keep the triangles' winding), and the shear
   (sx, sy, sz) maps dir onto (0, 0, 1). */
typedef struct spx_ray {
    double org[3];
    double dir[3];
    int kx, ky, kz;
    double sx, sy, sz;
} spx_ray;

/* The answer of a ray that meets nothing. */
static inline spx_ray_hit spx_ray_miss(void)
{
    return (spx_ray_hit){ .state = SPX_SWEEP_MISS, .triangle = SPX_NO_TRIANGLE };
}

/* A ray through origin along dir (not all zero). */
void spx_ray_init(spx_ray* ray, const double origin[3], const double dir[3]);

/* The ray of a query: from origin along translation (m; not all zero), in double. */
static inline spx_ray spx_ray_from(spx_vec3 origin, spx_vec3 translation)
{
    const double o[3] = { origin.x, origin.y, origin.z }, d[3] = { translation.x, translation.y, translation.z };
    spx_ray ray;
    spx_ray_init(&ray, o, d);
    return ray;
}

/* Where the ray meets triangle (a, b, c), two-sided: true with *out_t in [0, tmax] when it does.
   *out_grazes (may be NULL) is set when the ray passes exactly through an edge or corner of it, and
   (with false) when it lies in the triangle's plane within rounding. */
bool spx_ray_triangle_t(const spx_ray* ray, const spx_vec3* a, const spx_vec3* b, const spx_vec3* c, double tmax,
                        double* out_t, bool* out_grazes);

/* Where the ray enters the box of centre c, half extents h and axes axis[i] (unit), grown by `pad`
   on every side: true with *out_t in [0, tmax] (0 when the origin is inside or on it) and the axis
   entered through (-1 when inside), with the sign of its outward normal there. */
bool spx_ray_box_t(const spx_ray* ray, const double c[3], const double h[3], const double axis[3][3], double pad,
                   double tmax, double* out_t, int* out_axis, double* out_sign);

/* Where the ray enters `box` grown on every side by pad_fraction of its reach from the origin (its
   half extents and the size of its centre's coordinates, summed): true with *out_t in [0, tmax] when
   it does. Grown past rounding, the test never misses what the box holds. */
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

/* spx_ray_obb on a checked ray and box: the ray made by spx_ray_init from the query's origin and
   translation. */
void spx_ray_obb_hit(const spx_ray* ray, const spx_obb* box, float max_fraction, spx_ray_hit* out);

/* A ray made by spx_ray_init from a query's origin and translation against a placed hull whose pose
   passes spx_hull_check_placed: where it enters the solid hull within max_fraction, START_OVERLAP at
   0 when the origin is inside or on it, as spx_ray_obb_hit answers for a box. */
void spx_ray_hull_hit(const spx_ray* ray, const struct spx_placed_hull* h, float max_fraction, spx_ray_hit* out);

/* The ray of a query: an origin and a translation, both checked as the plain-data queries check
   them (query.h), and max_fraction in [0, 1]. */
spx_result spx_ray_check(spx_vec3 origin, spx_vec3 translation, float max_fraction);

/* The first triangle of `mesh` the ray meets, the ray given in the mesh's own frame; ties to the
   lower number in the def. true with *out_t in [0, tmax], the triangle's index in mesh order and
   its normal (mesh frame, not unit, not turned) when it does. */
bool spx_ray_mesh_local(const spx_mesh* mesh, const spx_ray* ray, double tmax, double* out_t, uint32_t* out_triangle);

/* spx_ray_mesh on a checked ray (origin o, translation d: the query's, in double) and a checked pose. */
void spx_ray_mesh_hit(const double o[3], const double d[3], float max_fraction, const spx_mesh* mesh,
                      const spx_transform* pose, spx_ray_hit* out);

/* A pose as a rotation matrix in double (r[i]: column i) and a position; false when the quaternion is
   zero. */
void spx_pose_matrix(const spx_transform* pose, double r[3][3], double p[3]);

/* A ray against the points within `radius` of p[0] (count 1) or of the segment p[0]-p[1] (count 2),
   all checked: spx_ray_sphere and spx_ray_capsule after their checks. */
void spx_ray_round_hit(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_vec3* p, int count,
                       float radius, spx_ray_hit* out);

#endif
