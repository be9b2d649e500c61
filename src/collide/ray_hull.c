/* A ray against a convex hull: the ray clipped by every face's half-space in the hull's frame, in
   double (Cyrus and Beck). */
#include "ray.h"
#include "geometry/hull.h"

void spx_ray_hull_hit(const spx_ray* ray, const spx_placed_hull* h, float max_fraction, spx_ray_hit* out)
{
    const spx_hull_view* v = &h->hull->view;
    *out = spx_ray_miss();
    /* Origin and direction in the hull's frame: R^T (o - p), R^T d. */
    spx_dvec3 axis[3];
    for (int k = 0; k < 3; ++k) axis[k] = spx_d3_from(h->rotation.col[k]);
    const spx_dvec3 rel = spx_d3(ray->org[0] - h->position.x, ray->org[1] - h->position.y, ray->org[2] - h->position.z);
    const spx_dvec3 dw = spx_d3(ray->dir[0], ray->dir[1], ray->dir[2]);
    const spx_dvec3 o = spx_d3(spx_d3_dot(axis[0], rel), spx_d3_dot(axis[1], rel), spx_d3_dot(axis[2], rel));
    const spx_dvec3 d = spx_d3(spx_d3_dot(axis[0], dw), spx_d3_dot(axis[1], dw), spx_d3_dot(axis[2], dw));
    double enter = 0.0, leave = max_fraction;
    int entered = -1;
    for (uint32_t f = 0; f < v->face_count; ++f) {
        const double gap = v->faces[f].offset - spx_d3_dot(v->faces[f].normal, o); /* >= 0: inside the face's plane */
        const double along = spx_d3_dot(v->faces[f].normal, d);
        if (along == 0.0) {
            if (gap < 0.0) return; /* beside the face's plane, running along it */
            continue;
        }
        const double t = gap / along;
        if (along < 0.0) {
            if (t > enter) enter = t, entered = (int)f;
        } else if (t < leave) {
            leave = t;
        }
        if (enter > leave) return;
    }
    out->fraction = (float)enter;
    out->point = spx_v3((float)(ray->org[0] + enter * ray->dir[0]), (float)(ray->org[1] + enter * ray->dir[1]),
                        (float)(ray->org[2] + enter * ray->dir[2]));
    if (entered < 0) {
        const double len = sqrt(spx_d3_len2(dw));
        out->state = SPX_SWEEP_START_OVERLAP;
        out->normal = spx_d3_to_float(spx_d3_scale(dw, -1.0 / len));
    } else {
        out->state = SPX_SWEEP_HIT;
        const spx_dvec3 n = v->faces[entered].normal;
        out->normal = spx_d3_to_float(spx_d3_mad(spx_d3_mad(spx_d3_scale(axis[0], n.x), axis[1], n.y), axis[2], n.z));
    }
}
