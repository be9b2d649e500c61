/* State shared by continuous.c, continuous_toi.c and continuous_impact.c only. */
#ifndef SPX_DYNAMICS_CONTINUOUS_STAGE_H
#define SPX_DYNAMICS_CONTINUOUS_STAGE_H

#include "world.h"
#include "math/glm_bridge.h"
#include "continuous.h"
#include "shape_pair.h"
#include <math.h>

/* Rotation growth a sub-interval, of the least half extent: an impact's largest gap. */
#define SPX_CCD_ROTATION_FRACTION 0.25f
/* Meshes: thicker, no position correction (docs/continuous.md, "Two meshes"). */
#define SPX_CCD_MESH_FRACTION 0.1f
/* Of the tolerance: closing less in a step is no impact. */
#define SPX_CCD_SLOW_FRACTION 0.01f
/* Of the speculative distance: the most a frame-bounded pair closes unseen per look. */
#define SPX_CCD_FRAME_FRACTION 0.05f
/* docs/continuous.md, "Lasting contacts" */
#define SPX_CCD_LASTING_REPEATS 4
#define SPX_CCD_LASTING_FRACTION 0.05f
/* The most dynamic bodies an impact's group reaches. */
#define SPX_CCD_GROUP_BODIES 16

typedef struct spx_ccd_stage {
    spx_world* w;
    spx_continuous* c;
    float dt;
    float now;
    uint32_t limit; /* resolved in full */
    uint32_t impacts;
    bool limited;
    bool static_only;
    bool overflow;
} spx_ccd_stage;

typedef struct spx_ccd_impact {
    float t;
    vec3s normal; /* a to b */
    spx_ccd_points points;
    uint32_t shape_a, shape_b;
} spx_ccd_impact;

/* Bodies an impulse moved besides its two. */
typedef struct spx_ccd_pushed {
    uint32_t count;
    uint32_t id[SPX_CCD_GROUP_BODIES];
    vec3s c[SPX_CCD_GROUP_BODIES];
    versors q[SPX_CCD_GROUP_BODIES];
} spx_ccd_pushed;

/* exp(w t) */
static inline versors turn(vec3s w, float t)
{
    float a = glms_vec3_norm(w) * t;
    if (!(a > 0.0f)) return glms_quat_identity();
    return glms_quatv(a, glms_vec3_normalize(w));
}

static inline float least_half(const spx_body_shape* s)
{
    float h = s->half_extents.x;
    if (s->half_extents.y < h) h = s->half_extents.y;
    if (s->half_extents.z < h) h = s->half_extents.z;
    return h;
}

spx_ccd_body* spx_ccd_segment_start(spx_ccd_stage* s, uint32_t i);

/* Set on first use this step: the solver's motion, or rest. */
static inline spx_ccd_body* seg(spx_ccd_stage* s, uint32_t i)
{
    spx_ccd_body* cb = &s->c->bodies[i];
    return cb->stamp ? cb : spx_ccd_segment_start(s, i);
}

static inline vec3s center_at(const spx_ccd_body* cb, float t)
{
    return glms_vec3_add(cb->c, glms_vec3_scale(cb->v, t - cb->t));
}

static inline versors rotation_at(const spx_ccd_body* cb, float t)
{
    return glms_quat_normalize(glms_quat_mul(turn(cb->w, t - cb->t), cb->q));
}

static inline bool stationary(const spx_ccd_body* cb)
{
    return cb->v.x == 0.0f && cb->v.y == 0.0f && cb->v.z == 0.0f && cb->w.x == 0.0f && cb->w.y == 0.0f &&
           cb->w.z == 0.0f;
}

bool spx_ccd_owns_pair(const spx_continuous* c, uint32_t ia, uint32_t ib);

/* Also the impact manifold's margin. */
float spx_ccd_pair_tolerance(const spx_body_shape* ha, const spx_body_shape* hb);

spx_aabb spx_ccd_shape_aabb(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb);

/* Within the rotation tolerance, approaching; ia < ib. */
bool spx_ccd_pair_toi(spx_ccd_stage* s, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb, float t0, float t_end,
                      spx_ccd_impact* out);

/* overlap: *n is an estimate. */
void spx_ccd_impact_points(const spx_world* w, const spx_body* A, const spx_body_shape* ha, vec3s ca, versors qa,
                           const spx_body* B, const spx_body_shape* hb, vec3s cb, versors qb, vec3s point, vec3s* n,
                           bool overlap, float growth, spx_ccd_points* out);

void spx_ccd_link_supports(spx_world* w);

/* Also on bodies reached through supports (into *pushed). */
void spx_ccd_resolve(spx_ccd_stage* s, uint32_t ia, spx_body* A, versors qa, vec3s ca, uint32_t ib, spx_body* B,
                     versors qb, vec3s cb, const spx_body_shape* ha, const spx_body_shape* hb,
                     const spx_ccd_points* pts, vec3s n, spx_ccd_pushed* pushed);

#endif
