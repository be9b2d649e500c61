/* A ray against a sphere or a capsule: the interval of the line within the radius of the core (a
   point, a segment), exact in closed form (round_line.c), in double about the piece's first point. */
#include "ray.h"
#include "round_core.h"
#include "geometry/validate.h"
#include <sepax/round.h>
#include <string.h>

void spx_ray_round_hit(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_vec3* p, int count,
                       float radius, spx_ray_hit* out)
{
    memset(out, 0, sizeof *out);
    out->state = SPX_SWEEP_MISS;
    out->triangle = SPX_NO_TRIANGLE;
    const spx_dvec3 at = spx_d3_from(p[0]);
    round_core core;
    if (count == 1) round_core_point(p[0], at, &core);
    else round_core_segment(p[0], p[1], at, &core);
    const spx_dvec3 o = spx_d3_sub(spx_d3_from(origin), at), d = spx_d3_from(translation);
    double t0, t1;
    if (!round_line_interval(&core, radius, o, d, 0.0, max_fraction, &t0, &t1)) return;
    const spx_dvec3 x = spx_d3_mad(o, d, t0);
    out->fraction = (float)t0;
    out->point = spx_d3_to_float(spx_d3_add(at, x));
    const spx_dvec3 off = spx_d3_sub(x, round_closest_to_point(&core, x));
    const double len = sqrt(spx_d3_len2(off));
    /* Entering at 0 with the origin inside (nearer the core than the radius) is a start inside; on the
       surface it is a hit there. */
    if (t0 == 0.0 && len < (double)radius * (1.0 - 1e-12)) {
        out->state = SPX_SWEEP_START_OVERLAP;
        out->normal = spx_d3_to_float(spx_d3_scale(d, -1.0 / sqrt(spx_d3_len2(d))));
        return;
    }
    out->state = SPX_SWEEP_HIT;
    /* The surface's normal from the core; a radius of zero has none there: against the ray. */
    out->normal = len > 0.0 ? spx_d3_to_float(spx_d3_scale(off, 1.0 / len))
                            : spx_d3_to_float(spx_d3_scale(d, -1.0 / sqrt(spx_d3_len2(d))));
}

SPX_API spx_result spx_ray_sphere(spx_vec3 origin, spx_vec3 translation, float max_fraction, const spx_sphere* sphere,
                                  spx_ray_hit* out)
{
    if (!sphere || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_ray_check(origin, translation, max_fraction), spx_sphere_validate(sphere));
    if (r != SPX_OK) return r;
    spx_ray_round_hit(origin, translation, max_fraction, &sphere->center, 1, sphere->radius, out);
    return SPX_OK;
}

SPX_API spx_result spx_ray_capsule(spx_vec3 origin, spx_vec3 translation, float max_fraction,
                                   const spx_capsule* capsule, spx_ray_hit* out)
{
    if (!capsule || !out) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_ray_check(origin, translation, max_fraction), spx_capsule_validate(capsule));
    if (r != SPX_OK) return r;
    spx_ray_round_hit(origin, translation, max_fraction, capsule->p, 2, capsule->radius, out);
    return SPX_OK;
}
