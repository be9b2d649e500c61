/* The continuous stage during one step, as its files share it: the stage's state, each body's motion
 * as a segment, and what each file gives the others. continuous.c runs the stage (which bodies are
 * fast, the event loop), continuous_toi.c finds times of impact, continuous_impact.c resolves one
 * impact with the contacts that support its bodies. Included by those files only. */
#ifndef SPX_DYNAMICS_CONTINUOUS_STAGE_H
#define SPX_DYNAMICS_CONTINUOUS_STAGE_H

#include "world.h"
#include "math/glm_bridge.h"
#include "continuous.h"
#include "shape_pair.h"
#include <math.h>

/* Rotation is bounded to this fraction of the thinner shape's least half extent per sub-interval:
   an impact found under that growth leaves the shapes at most this far apart. */
#define SPX_CCD_ROTATION_FRACTION 0.25f
/* The same for two meshes, smaller: a mesh's thickness (a ball's radius, a torus's tube) is
   larger against its size than a box's, and the stage has no position correction (0.25 let a
   rolling ball mesh sink 5 cm into a mesh ground). */
#define SPX_CCD_MESH_FRACTION 0.1f
/* Of the pair's tolerance: a touching pair that could not close more than this in a whole step at
   the speed it approaches is no impact (continuous_toi.c, approaching). */
#define SPX_CCD_SLOW_FRACTION 0.01f
/* Of the speculative distance: how near a touching pair may come, at most, before the stage looks
   at it again, when a body's frame bounds its closing (continuous_toi.c, pass_time). Such a bound is
   tight, so the pair closes nearly that much unseen, and the overlaps a held contact leaves add up
   from look to look. */
#define SPX_CCD_FRAME_FRACTION 0.05f
/* A pair struck this many times in a row in a step whose touching points, approaching as fast as
   they came to since its last impact and gathering speed at that rate, cannot overlap more than
   SPX_CCD_LASTING_FRACTION of the speculative distance before the step ends is a lasting contact,
   the solver's at the next step (continuous_toi.c, approaching), not an impact every millisecond
   to the impact limit. */
#define SPX_CCD_LASTING_REPEATS 4
#define SPX_CCD_LASTING_FRACTION 0.05f
/* The most dynamic bodies one impact's impulse reaches (continuous_impact.c, an impact's group). */
#define SPX_CCD_GROUP_BODIES 16

typedef struct spx_ccd_stage {
    spx_world* w;
    spx_continuous* c;
    float dt;       /* the step */
    float now;      /* time of the latest impact handled */
    uint32_t limit; /* impacts resolved in full */
    uint32_t impacts;
    bool limited;
    bool static_only;
    bool overflow;
} spx_ccd_stage;

/* A shape pair's first impact (continuous_toi.c). */
typedef struct spx_ccd_impact {
    float t;
    vec3s normal; /* from body a to body b */
    spx_ccd_points points;
    uint32_t shape_a, shape_b;
} spx_ccd_impact;

/* The bodies an impact's impulse moved besides its own two, in its group's order, each where it is
   at the impact (continuous_impact.c). */
typedef struct spx_ccd_pushed {
    uint32_t count;
    uint32_t id[SPX_CCD_GROUP_BODIES];
    vec3s c[SPX_CCD_GROUP_BODIES];
    versors q[SPX_CCD_GROUP_BODIES];
} spx_ccd_pushed;

/* The rotation turning at w for time t: exp of the rotation vector w t. */
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

/* ---- segments: a body's motion from one impact to the next (continuous.c) ---- */

spx_ccd_body* spx_ccd_segment_start(spx_ccd_stage* s, uint32_t i);

/* The segment of body i, set on first use this step: the solver's motion for a body that moved,
   rest for one that did not. */
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

/* Whether the stage owns the contacts of bodies ia < ib this step (continuous.c, begin). */
bool spx_ccd_owns_pair(const spx_continuous* c, uint32_t ia, uint32_t ib);

/* ---- times of impact (continuous_toi.c) ---- */

/* How far apart a shape pair may be when its contact is taken as an impact under rotation, and the
   margin of the manifold that places the impact. */
float spx_ccd_pair_tolerance(const spx_body_shape* ha, const spx_body_shape* hb);

/* World box of shape sh (a box, or a mesh's root box) of a stationary body, rounded outwards. */
spx_aabb spx_ccd_shape_aabb(const spx_body* b, const spx_body_shape* sh, const spx_ccd_body* cb);

/* First time in [t0, t_end] at which shape sa of body ia (< ib) and shape sb of body ib touch,
   within the rotation tolerance, while approaching. */
bool spx_ccd_pair_toi(spx_ccd_stage* s, uint32_t ia, uint32_t sa, uint32_t ib, uint32_t sb, float t0, float t_end,
                      spx_ccd_impact* out);

/* Where an impact acts: the points of the shape pair's manifold at the impact's pose, or the
   impact's own point. Normal from A to B into *n. overlap: *n comes from a sweep that started
   overlapping, an estimate (for a box and a mesh the manifold's normal is then taken). */
void spx_ccd_impact_points(const spx_world* w, const spx_body* A, const spx_body_shape* ha, vec3s ca, versors qa,
                           const spx_body* B, const spx_body_shape* hb, vec3s cb, versors qb, vec3s point, vec3s* n,
                           bool overlap, float growth, spx_ccd_points* out);

/* ---- impacts and their supports (continuous_impact.c) ---- */

/* Each dynamic body's contacts that the solver owns, which an impact on it acts through too. */
void spx_ccd_link_supports(spx_world* w);

/* The impulse of an impact of shape ha of body ia < ib and shape hb of body ib at their poses (c, q)
   with points pts and normal n (A to B), with the shapes' friction and restitution, on the bodies'
   velocities, and on those of the bodies it reaches through their supports: those that moved into
   *pushed. */
void spx_ccd_resolve(spx_ccd_stage* s, uint32_t ia, spx_body* A, versors qa, vec3s ca, uint32_t ib, spx_body* B,
                     versors qb, vec3s cb, const spx_body_shape* ha, const spx_body_shape* hb,
                     const spx_ccd_points* pts, vec3s n, spx_ccd_pushed* pushed);

#endif
