/* How far a sphere or a capsule sweeps as its body turns. */
#include "shape_round.h"
#include <math.h>

float spx_round_spin_reach(const spx_body_shape* s, vec3s offset, vec3s axis1, vec3s u)
{
    const float across = glms_vec3_norm(glms_vec3_sub(offset, glms_vec3_scale(u, glms_vec3_dot(offset, u))));
    if (s->type != SPX_SHAPE_CAPSULE) return across;
    const float c = glms_vec3_dot(axis1, u);
    return across + s->half_height * sqrtf(fmaxf(1.0f - c * c, 0.0f));
}
