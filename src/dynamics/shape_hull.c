/* The sweep of a convex hull against a hull or a mesh, neither of which can grow. */
#include "shape_hull.h"
#include "collide/hull_mesh.h"
#include "collide/sat_hull.h"
#include "geometry/validate.h"

spx_result spx_hull_sweep_margin(const spx_placed_hull* x, spx_vec3 vx, const spx_placed_shape* y, spx_vec3 vy,
                                 float tmax, float grow, spx_sweep_hit* out)
{
    spx_result r = spx_first_error(spx_hull_check_placed(x), spx_check_motion(vx, vy, tmax));
    if (r == SPX_OK && !(grow >= 0.0f && grow <= SPX_MAX_COORDINATE)) r = SPX_ERR_INVALID_ARGUMENT;
    if (r != SPX_OK) return r;
    if (y->shape->type == SPX_SHAPE_HULL) {
        const spx_placed_hull hy = spx_placed_shape_hull(y);
        if ((r = spx_hull_check_placed(&hy)) != SPX_OK) return r;
        spx_hull_query q = { 0 };
        q.b = &hy.hull->view;
        q.pb = hy.position;
        q.rb = &hy.rotation;
        q.b_reference = -1;
        q.b_reference_cos = -2.0;
        spx_hull_query_sweep_margin(x, vx, &q, vy, tmax, grow, out);
        return SPX_OK;
    }
    spx_mesh_hit mh;
    spx_sweep_hull_mesh_margin(x, vx, y->shape->instance, vy, tmax, grow, &mh);
    *out = (spx_sweep_hit){
        .state = mh.state, .time = mh.time, .point = mh.point, .normal = mh.normal, .depth = mh.depth, .axis = -1
    };
    return SPX_OK;
}
