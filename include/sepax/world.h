/* sepax: the rigid-body world. Bodies with shapes (boxes, spheres, capsules, convex hulls, triangle
 * meshes), advanced by spx_world_step(world, elapsed): broad phase of swept spheres, narrow phase
 * through the collision queries, persistent contact manifolds, a warm-started sequential-impulse
 * solver with soft contacts and substeps, islands and sleeping. docs/world.md explains the step and
 * its settings.
 *
 * Units: metres, kilograms, seconds, radians; y up. The world never creates threads and, after the
 * first steps have sized its buffers, a step allocates nothing. */
#ifndef SEPAX_WORLD_H
#define SEPAX_WORLD_H

#include "base.h"
#include "math_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An opaque world, owned by the host.
typedef struct spx_world spx_world;

/// A body handle, 8 bytes, to store, compare and hash as a value: which slot, of which world, in
/// which use. Every call taking one returns SPX_ERR_STALE_ID for an id the world did not give out or
/// whose body is gone: destroyed (the slot's generation moved on) or of another world, live or
/// destroyed (the world numbers differ). An all-zero id is the null id and names no body.
typedef struct spx_body_id {
    uint32_t index;      /* the body's slot + 1 (0: null) */
    uint16_t world;      /* number of the world that made it, 1..65535: no two live worlds share one,
                            and a destroyed world's comes back only after 65,534 other worlds are made */
    uint16_t generation; /* the slot's use, 1..65535: after 65,535 reuses of one slot it comes round */
} spx_body_id;

/// A shape handle, laid out as spx_body_id and checked the same way: SPX_ERR_STALE_ID for a shape
/// destroyed (alone or with its body) or of another world. All zero is the null id.
typedef struct spx_shape_id {
    uint32_t index;      /* the shape's slot + 1 (0: null) */
    uint16_t world;      /* number of the world that made it */
    uint16_t generation; /* the slot's use, 1..65535 */
} spx_shape_id;

/// Which shapes collide (docs/world.md, "Filtering"). Two shapes of one group (group_index equal and
/// not 0) always collide when it is positive and never when it is negative; otherwise they collide
/// when each one's mask has a bit of the other's category. Start from spx_default_filter().
typedef struct spx_filter {
    uint64_t category_bits; /* what the shape is; default 1 */
    uint64_t mask_bits;     /* what it collides with; default every bit */
    int32_t group_index;    /* default 0: no group */
} spx_filter;

/// The host's last word on a shape pair the filters let collide (spx_world_def.custom_filter): false
/// keeps them apart this step. Called from inside spx_world_step, on the calling thread, for such
/// shape pairs of body pairs whose bounds meet (a's body before b's in body order), every step while
/// they do and maybe more than once a step; the world is locked (its getters answer). The answer
/// must depend on the shapes alone (their user data, say) for the step to stay deterministic.
typedef bool spx_custom_filter_fn(spx_shape_id a, spx_shape_id b, void* context);

/// One contact point of a manifold, as spx_body_get_contacts and the pre-solve callback give it.
typedef struct spx_contact_point_data {
    spx_vec3 point;            /* m, world: the point, moved with the bodies to where they are now */
    float separation;          /* m when the step started: < 0 overlapping, > 0 a speculative gap */
    float normal_impulse;      /* N s: the solver's accumulated impulse along the normal at the end of
                                       the step (a substep's share: the step applied about substeps times it) */
    float friction_impulse[2]; /* N s along the two tangents, likewise */
} spx_contact_point_data;

/// A manifold: the contact of two shapes along one normal (a box on a mesh may have several).
typedef struct spx_contact_data {
    spx_body_id a, b;
    spx_shape_id shape_a, shape_b;
    spx_vec3 normal;      /* unit, from a to b */
    spx_vec3 tangent[2];  /* unit, the friction impulses' directions */
    bool enabled;         /* false: the pre-solve callback switched it off for the last step */
    uint32_t point_count; /* 1..4 */
    spx_contact_point_data points[4];
} spx_contact_data;

/// Called once a step for each manifold the solver is about to work on (at least one of its bodies
/// an awake dynamic one), in the manifolds' order (by body, then shape), on the calling thread,
/// before any body moves; points and separations as the step found them, impulses those it will
/// warm-start with. Return false to switch the manifold off for this step: no impulse, no hit event
/// (a one-way platform lets a body through from below). The world is locked (its getters answer).
/// The answer must depend on the data given and the world's state for the step to stay deterministic.
/// The continuous stage asks it too for each impact of a fast body it finds (maybe more than once a
/// step for one pair), with the impact's points (their gaps as separations) and normal and no impulses:
/// false passes the impact over.
typedef bool spx_pre_solve_fn(const spx_contact_data* contact, void* context);

/// How a body moves.
typedef enum spx_body_type {
    SPX_BODY_STATIC = 0, /* never moves; infinite mass */
    SPX_BODY_KINEMATIC,  /* moves with the velocity the host sets; infinite mass, pushes dynamic bodies */
    SPX_BODY_DYNAMIC     /* moved by gravity, contacts and impulses; mass from its shapes */
} spx_body_type;

/// Which copy of the contact solver a world runs. Both give the same results bit for bit (the
/// manifolds of a colour are solved side by side and do not interact); only the speed differs.
typedef enum spx_world_simd {
    SPX_SIMD_AUTO = 0, /* AVX2 (8 manifolds at once) where the CPU and OS have it, else the baseline */
    SPX_SIMD_BASELINE /* the build's own: SSE2, 4 at once (8 in a -DSEPAX_AVX2=ON build, 1 with -DSEPAX_DISABLE_SIMD=ON) */
} spx_world_simd;

/// How a world steps. Start from spx_default_world_def().
typedef struct spx_world_def {
    spx_vec3 gravity;                /* m/s^2; default (0, -9.81, 0) */
    const spx_allocator* allocator;  /* NULL: malloc/free; copied, must outlive the world */
    uint32_t body_capacity;          /* bodies to make room for at creation (the world grows past it) */
    uint32_t contact_capacity;       /* contact manifolds to make room for at creation */
    uint32_t substeps;               /* solver substeps a step, 1..64; default 6 */
    uint32_t solve_iterations;       /* passes with the position bias a substep, 1..16; default 2 */
    uint32_t relax_iterations;       /* passes without it (after moving the bodies) a substep, 0..16; default 1 */
    float contact_hertz;             /* stiffness of contact position correction, Hz; default 60 */
    float contact_damping_ratio;     /* damping of that correction, non-dimensional; default 5 */
    uint32_t max_stack_substeps;     /* 0..64: most substeps a step for an island stacked too deep for the contact
                                       spring (docs/world.md, "Tall stacks"); <= substeps: none; default 48 */
    float max_push_speed;            /* m/s: fastest the correction separates overlapping bodies, shared among
                                       a body's overlapping manifolds; default 3 */
    float restitution_threshold;     /* m/s: closing speeds below this do not bounce; default 1 */
    float speculative_distance;      /* m: contacts are made this far ahead of touching; default 0.04 */
    bool enable_sleep;               /* default true */
    float sleep_linear_speed;        /* m/s: a body slower than this (and below the angular) may sleep; default 0.05 */
    float sleep_angular_speed;       /* rad/s; default 0.05 */
    float time_to_sleep;             /* s: an island rests this long before it sleeps; default 0.5 */
    bool enable_continuous;          /* continuous collision of fast bodies (docs/continuous.md); default true */
    bool continuous_static_only;     /* trade: fast bodies meet only static and kinematic bodies continuously
                                       (dynamic ones through speculative contacts alone); default false */
    uint32_t continuous_max_impacts; /* impacts a step resolves in full; later ones stop both bodies where they
                                       touch (SPX_STEP_IMPACT_LIMIT); default 65536 */
    spx_world_simd simd;             /* the solver's SIMD path, chosen at creation; default SPX_SIMD_AUTO */
    spx_custom_filter_fn* custom_filter; /* NULL: the filters alone decide */
    void* custom_filter_context;         /* passed to custom_filter */
    spx_pre_solve_fn* pre_solve;         /* NULL: every manifold is solved */
    void* pre_solve_context;             /* passed to pre_solve */
    float hit_event_threshold;           /* m/s, >= 0: approaches at least this fast give hit events; default 1 */
    uint32_t internal_cookie;            /* set by spx_default_world_def(); do not touch */
} spx_world_def;

/// What a shape is.
typedef enum spx_shape_type {
    SPX_SHAPE_BOX = 0,
    SPX_SHAPE_MESH,    /* a triangle mesh (spx_mesh); on a dynamic body it must be closed (spx_mass_mesh) */
    SPX_SHAPE_SPHERE,  /* a ball of `radius` about the shape's origin (docs/shapes.md) */
    SPX_SHAPE_CAPSULE, /* the points within `radius` of the segment from -half_height to +half_height along
                          the shape's local y axis (docs/shapes.md) */
    SPX_SHAPE_HULL     /* a convex hull (spx_hull, hull.h) in the shape's frame (docs/shapes.md) */
} spx_shape_type;

/// One shape of a body. Start from spx_default_shape_def().
typedef struct spx_shape_def {
    spx_shape_type type;
    spx_vec3 half_extents;       /* m, > 0: SPX_SHAPE_BOX */
    float radius;                /* m, > 0: SPX_SHAPE_SPHERE and SPX_SHAPE_CAPSULE; default 0.5 */
    float half_height;           /* m, >= 0: SPX_SHAPE_CAPSULE, half its segment's length (the capsule is
                                       2 (half_height + radius) long); default 0.5 */
    const struct spx_mesh* mesh; /* SPX_SHAPE_MESH: the host's mesh, unchanged and alive while the body lives */
    const struct spx_hull* hull; /* SPX_SHAPE_HULL: the host's hull, alive while the body lives (one hull may
                                       serve any number of shapes) */
    spx_transform local;         /* the shape's placement in the body's frame; default identity */
    float density;               /* kg/m^3, > 0 on a dynamic body; default 1000 */
    float friction;    /* Coulomb coefficient, >= 0; default -1 (any negative): the body's (spx_body_def.friction).
                                       Two shapes mix as sqrt(a b) */
    float restitution; /* 0..1; default -1 (any negative): the body's. Two shapes mix as max(a, b) */
    void* user_data;
    spx_filter filter;        /* from spx_default_filter(): collides with everything */
    bool is_sensor;           /* default false. A sensor makes no contact and reports the shapes it
                                       overlaps (spx_world_get_sensor_events); it weighs as any shape */
    uint32_t internal_cookie; /* set by spx_default_shape_def(); do not touch */
} spx_shape_def;

/// How to make a body. Start from spx_default_body_def().
typedef struct spx_body_def {
    spx_body_type type;        /* default SPX_BODY_STATIC */
    spx_vec3 position;         /* m: the body's origin in the world */
    spx_quat rotation;         /* unit quaternion (w last); default identity */
    spx_vec3 linear_velocity;  /* m/s, of the centre of mass */
    spx_vec3 angular_velocity; /* rad/s, world axes */
    float linear_damping;      /* 1/s, >= 0: velocity decays as v' = -damping v; default 0 */
    float angular_damping;     /* 1/s, >= 0; default 0.05 */
    float gravity_scale;       /* default 1 */
    float friction;            /* Coulomb coefficient, >= 0; default 0.6: of its shapes that give none */
    float restitution;         /* 0..1; default 0: of its shapes that give none */
    bool enable_sleep;         /* default true */
    bool awake;                /* default true */
    void* user_data;
    const spx_shape_def* shapes; /* shape_count shapes, read during spx_body_create only */
    uint32_t shape_count;        /* 1..SPX_MAX_BODY_SHAPES */
    uint32_t internal_cookie;    /* set by spx_default_body_def(); do not touch */
} spx_body_def;

/// Most shapes a body may have.
#define SPX_MAX_BODY_SHAPES 64

/// Limits of a dynamic body (docs/world.md, "Limits"). Its mass must lie in SPX_BODY_MIN_MASS ..
/// SPX_BODY_MAX_MASS kg and every entry of its inertia tensor within SPX_BODY_MAX_INERTIA kg m^2, or
/// spx_body_create returns SPX_ERR_MASS_OUT_OF_RANGE.
#define SPX_BODY_MIN_MASS 1e-15f
#define SPX_BODY_MAX_MASS 1e15f
#define SPX_BODY_MAX_INERTIA 1e25f
/// A principal moment of inertia below SPX_BODY_MIN_INERTIA kg m^2, or below SPX_BODY_MIN_INERTIA_RATIO
/// times the body's largest, is raised to it: the body turns about that axis a little more slowly
/// than its shapes say, and its inverse inertia stays finite (a needle's spin about its length, a grain).
#define SPX_BODY_MIN_INERTIA 1e-30f
#define SPX_BODY_MIN_INERTIA_RATIO 1e-12f
/// Fastest a body moves (m/s, of its centre of mass) and turns (rad/s). A body def, spx_body_set_velocity
/// or spx_body_apply_impulse beyond either gets SPX_ERR_SPEED_OUT_OF_RANGE (nothing changes); a body
/// the step would take faster is slowed to them at the end of the step (SPX_STEP_SPEED_LIMIT).
#define SPX_MAX_LINEAR_SPEED 1e5f
#define SPX_MAX_ANGULAR_SPEED 1e5f

/// Counters and times of the last step.
typedef struct spx_step_stats {
    uint32_t body_count;          /* bodies in the world */
    uint32_t awake_body_count;    /* dynamic and kinematic bodies simulated this step */
    uint32_t pair_count;          /* pairs of shapes whose swept bounds met */
    uint32_t manifold_count;      /* pairs with at least one contact point */
    uint32_t contact_point_count; /* contact points given to the solver */
    uint32_t island_count;        /* islands solved */
    uint32_t flags;               /* spx_step_flag bits: what the step had to give up */
    uint32_t fast_body_count;     /* bodies the continuous stage followed (docs/continuous.md) */
    uint32_t impact_count;        /* impacts it resolved, within the step */
    uint32_t reused_pair_count;   /* body pairs whose manifolds were moved with the bodies, not made
                                       again: they had moved less than 1 mm against each other (docs/world.md) */
    double broad_ms, narrow_ms, solver_ms, island_ms, total_ms; /* wall-clock time of each stage */
    double continuous_ms;            /* of the continuous stage, its preparation included (part of total_ms) */
    uint32_t quarantined_body_count; /* bodies found non-finite after the step and quarantined (SPX_STEP_QUARANTINE) */
} spx_step_stats;

/// A contact event: two shapes (of bodies a and b) started or stopped touching during the last step.
/// Shapes touch while their pair has a manifold: contact points within the step's contact margin, the
/// speculative distance plus what the pair's motion can close in the step (docs/world.md).
typedef struct spx_contact_event {
    spx_body_id a, b;
    spx_shape_id shape_a, shape_b; /* a shape of a and a shape of b */
    float approach_speed;          /* m/s, begin events: how fast the fastest point of the pair closed along the
                                       normal when the step started (< 0: it was opening); 0 in end events */
} spx_contact_event;

/// A hit: a contact point closing faster than spx_world_def.hit_event_threshold that the step brings
/// together (its gap, if any, closes within the step at that speed). One a shape pair and step, its
/// fastest point; for sound and damage.
typedef struct spx_contact_hit_event {
    spx_body_id a, b;
    spx_shape_id shape_a, shape_b;
    spx_vec3 point;  /* m, world, when the step started */
    spx_vec3 normal; /* unit, from a to b */
    float speed;     /* m/s: the approach speed along the normal */
} spx_contact_hit_event;

/// A body the last step moved (awake, or fell asleep during it), where it is now.
typedef struct spx_body_move_event {
    spx_body_id body;
    spx_transform transform;
    void* user_data;
    bool fell_asleep;
} spx_body_move_event;

/// A body that woke (awake true) or fell asleep since the step before the last.
typedef struct spx_body_sleep_event {
    spx_body_id body;
    bool awake;
} spx_body_sleep_event;

/// A sensor event: a shape began or stopped overlapping a sensor shape (docs/world.md, "Sensors").
typedef struct spx_sensor_event {
    spx_shape_id sensor, visitor;
    spx_body_id sensor_body, visitor_body;
} spx_sensor_event;

/// The bits of spx_step_stats.flags: what a step had to give up.
typedef enum spx_step_flag {
    /// Contact points beyond a manifold's 4 were dropped (kept the 4 that best span the contact).
    /// Informational.
    SPX_STEP_REDUCED_MANIFOLD = 1u << 0,
    /// More impacts than continuous_max_impacts (or than SPX_CONTINUOUS_BODY_IMPACTS for one body):
    /// the bodies of the later ones stopped where they touched and lost the rest of the step's motion
    /// (their velocities still changed, and of what they did not move with, each keeps the share its
    /// restitution gives back: docs/continuous.md). Nothing passed through anything.
    SPX_STEP_IMPACT_LIMIT = 1u << 1,
    /// A dynamic body met more than SPX_MAX_BODY_CONTACTS other bodies (bodies made overlapping in
    /// one spot, a crowd): it kept the nearest that many, the rest passed through it this step. Its
    /// speed of separation stays within max_push_speed; the step's cost within bodies x the limit.
    SPX_STEP_CONTACT_LIMIT = 1u << 2,
    /// A body the step would have taken past SPX_MAX_LINEAR_SPEED or SPX_MAX_ANGULAR_SPEED was
    /// slowed to them.
    SPX_STEP_SPEED_LIMIT = 1u << 3,
    /// A body's state (placement or velocity) came out of the step NaN or infinite. Each such body is
    /// quarantined: put back where it was at the start of the step, stopped, put to sleep and its
    /// contacts dropped (end events at the next step), so that nothing non-finite reaches another
    /// body or a later step; spx_world_get_quarantined names them. The step still returns SPX_OK:
    /// the rest of the world stepped. A quarantined body wakes as any sleeping one does.
    SPX_STEP_QUARANTINE = 1u << 4,
} spx_step_flag;
/// Most other bodies one dynamic body keeps contacts with in a step: the nearest (by the gap between
/// their bounding spheres, deepest first; ties in body order), chosen so that no body of a kept pair
/// is over its limit. Static and kinematic bodies have none. A body pair may hold several manifolds
/// (one a shape pair; a box on a mesh up to 8).
#define SPX_MAX_BODY_CONTACTS 32u
/// Impacts one body resolves in full in a step (a box caught between two others could bounce
/// without end); later ones stop it as above.
#define SPX_CONTINUOUS_BODY_IMPACTS 16u

/// A def with every field at its default.
SPX_API spx_world_def spx_default_world_def(void);
SPX_API spx_body_def spx_default_body_def(void);
SPX_API spx_shape_def spx_default_shape_def(void);
SPX_API spx_filter spx_default_filter(void);

/// Do shapes with these filters collide, before the host's custom_filter? (The rule of spx_filter;
/// symmetric.)
SPX_API bool spx_filter_should_collide(spx_filter a, spx_filter b);

/// Creates a world. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, a setting out of range, an allocator
/// without alloc or free), SPX_ERR_NOT_FINITE, SPX_ERR_UNINITIALIZED_DEF, SPX_ERR_OUT_OF_MEMORY,
/// SPX_ERR_TOO_MANY_WORLDS (65,535 live already).
SPX_API spx_result spx_world_create(const spx_world_def* def, spx_world** out);

/// Destroys a world and every body in it (NULL is fine). Meshes are the host's and stay.
SPX_API void spx_world_destroy(spx_world* world);

/// Advances every body by `elapsed` seconds (>= 0; 0 updates contacts without moving anything).
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_NOT_FINITE, SPX_ERR_BAD_TIME (elapsed < 0),
/// SPX_ERR_OUT_OF_MEMORY (nothing moved; the world is as before the call; a crowd made in one spot
/// needs room for bodies x 128 pairs and bodies x 32 manifolds: docs/world.md, crowds),
/// SPX_ERR_WORLD_LOCKED.
/// The host code a step runs is its allocator (while a buffer grows) and the def's custom_filter and
/// pre_solve. Called from there, every call that changes this world (step, body and shape create
/// and destroy, set_transform, set_velocity, apply_impulse, set_awake, set_material, set_filter)
/// returns SPX_ERR_WORLD_LOCKED and changes nothing; the getters answer with the state of the step
/// under way; spx_world_destroy must not be called.
SPX_API spx_result spx_world_step(spx_world* world, float elapsed);

/// The statistics of the last step. Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_world_get_stats(const spx_world* world, spx_step_stats* out);

/// Contact events of the last step, valid until the next step or body or shape destruction: pairs of
/// shapes that began touching, and pairs that stopped (or one of which was destroyed, whose ids are
/// then stale), each list sorted by (body a, body b, shape a, shape b) in body and shape order. Any
/// pointer may be NULL. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world).
SPX_API spx_result spx_world_get_contact_events(const spx_world* world, const spx_contact_event** out_begin,
                                                uint32_t* out_begin_count, const spx_contact_event** out_end,
                                                uint32_t* out_end_count);

/// Hit events of the last step, valid until the next step, in the manifolds' order (by body, then
/// shape). Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_world_get_hit_events(const spx_world* world, const spx_contact_hit_event** out,
                                            uint32_t* out_count);

/// Body events of the last step, valid until the next step, in body order: every body it moved
/// (dynamic and kinematic bodies that were awake; a game syncs only these), and every body whose
/// sleep changed since the step before (woken by the host or a contact, or fallen asleep). Any
/// pointer may be NULL. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world).
SPX_API spx_result spx_world_get_body_events(const spx_world* world, const spx_body_move_event** out_moves,
                                             uint32_t* out_move_count, const spx_body_sleep_event** out_sleeps,
                                             uint32_t* out_sleep_count);

/// Sensor events of the last step, valid until the next step: visitors that began overlapping a
/// sensor and those that stopped (or whose shape or body, or the sensor's, was destroyed: their ids
/// are then stale), each list sorted by (sensor id's index, visitor id's index). Overlaps are those
/// at the start of the step. Any pointer may be NULL. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world).
SPX_API spx_result spx_world_get_sensor_events(const spx_world* world, const spx_sensor_event** out_begin,
                                               uint32_t* out_begin_count, const spx_sensor_event** out_end,
                                               uint32_t* out_end_count);

/// The bodies the last step quarantined (SPX_STEP_QUARANTINE), valid until the next step; *out_count
/// is 0 after a step that quarantined none. Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_world_get_quarantined(const spx_world* world, const spx_body_id** out, uint32_t* out_count);

/// Creates a body with its shapes. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, no shapes or too many, a
/// negative damping or friction, restitution outside 0..1, an unknown shape type, a mesh shape without
/// its mesh or a hull shape without its hull, a density that is not positive on a dynamic body),
/// SPX_ERR_UNINITIALIZED_DEF (the body def or a shape def), SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE
/// (a position, shape offset, half extent, radius or half height beyond SPX_MAX_COORDINATE, or a hull
/// reaching beyond it from its shape's offset; a body that later moves beyond it is still simulated,
/// at float's precision), SPX_ERR_BAD_EXTENT (a half extent or radius not positive, a negative half
/// height), SPX_ERR_NOT_ORTHONORMAL (a rotation not unit), SPX_ERR_MASS_OUT_OF_RANGE (a
/// dynamic body's mass or inertia beyond the limits above, or a shape's beyond float),
/// SPX_ERR_SPEED_OUT_OF_RANGE (a velocity beyond SPX_MAX_LINEAR_SPEED or SPX_MAX_ANGULAR_SPEED),
/// SPX_ERR_OUT_OF_MEMORY, SPX_ERR_WORLD_LOCKED. *out set only on success.
SPX_API spx_result spx_body_create(spx_world* world, const spx_body_def* def, spx_body_id* out);

/// Destroys a body; its contacts end (end events at the next step). Errors: SPX_ERR_INVALID_ARGUMENT
/// (NULL world), SPX_ERR_STALE_ID, SPX_ERR_WORLD_LOCKED.
SPX_API spx_result spx_body_destroy(spx_world* world, spx_body_id id);

/// Is the id a live body of this world? false for NULL or a stale id.
SPX_API bool spx_body_is_valid(const spx_world* world, spx_body_id id);

/// The body's origin and rotation. Errors: SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_STALE_ID.
SPX_API spx_result spx_body_get_transform(const spx_world* world, spx_body_id id, spx_transform* out);
/// Moves a body (teleports it; wakes it). Errors as get, SPX_ERR_NOT_FINITE, SPX_ERR_OUT_OF_RANGE (a
/// position beyond SPX_MAX_COORDINATE), SPX_ERR_NOT_ORTHONORMAL, SPX_ERR_WORLD_LOCKED (as every call
/// below that changes a body, set_user_data excepted).
SPX_API spx_result spx_body_set_transform(spx_world* world, spx_body_id id, const spx_transform* transform);
/// Velocity of the centre of mass (m/s) and angular velocity (rad/s, world axes).
SPX_API spx_result spx_body_get_velocity(const spx_world* world, spx_body_id id, spx_vec3* out_linear,
                                         spx_vec3* out_angular);
/// Sets both velocities and wakes the body (ignored for static bodies: SPX_ERR_INVALID_ARGUMENT).
/// SPX_ERR_NOT_FINITE, SPX_ERR_SPEED_OUT_OF_RANGE (beyond SPX_MAX_LINEAR_SPEED or SPX_MAX_ANGULAR_SPEED).
SPX_API spx_result spx_body_set_velocity(spx_world* world, spx_body_id id, spx_vec3 linear, spx_vec3 angular);
/// Applies an impulse (N s) at a world point to a dynamic body and wakes it. SPX_ERR_NOT_FINITE,
/// SPX_ERR_INVALID_ARGUMENT (not dynamic), SPX_ERR_SPEED_OUT_OF_RANGE (the body would move or turn
/// faster than SPX_MAX_LINEAR_SPEED or SPX_MAX_ANGULAR_SPEED; nothing changes).
SPX_API spx_result spx_body_apply_impulse(spx_world* world, spx_body_id id, spx_vec3 impulse, spx_vec3 point);
/// Centre of mass in world space (m).
SPX_API spx_result spx_body_get_center_of_mass(const spx_world* world, spx_body_id id, spx_vec3* out);
/// Mass (kg; 0 for static and kinematic bodies).
SPX_API spx_result spx_body_get_mass(const spx_world* world, spx_body_id id, float* out);
SPX_API spx_result spx_body_get_type(const spx_world* world, spx_body_id id, spx_body_type* out);
/// Awake or sleeping. Static bodies never are awake.
SPX_API spx_result spx_body_is_awake(const spx_world* world, spx_body_id id, bool* out);
/// Wakes a body and its island (true) or puts its island to sleep now (false).
SPX_API spx_result spx_body_set_awake(spx_world* world, spx_body_id id, bool awake);
SPX_API spx_result spx_body_get_user_data(const spx_world* world, spx_body_id id, void** out);
SPX_API spx_result spx_body_set_user_data(spx_world* world, spx_body_id id, void* user_data);
/// Friction (>= 0) and restitution (0..1) of all the body's shapes, and of shapes added to it later
/// without their own.
SPX_API spx_result spx_body_set_material(spx_world* world, spx_body_id id, float friction, float restitution);

/// Adds a shape to a body (docs/world.md, "Shapes"). A dynamic body's mass, centre of mass and inertia
/// are made again from all its shapes; its origin stays where it is. The body and what touches it
/// wake. Errors: SPX_ERR_INVALID_ARGUMENT (NULL, the body has SPX_MAX_BODY_SHAPES shapes already, a
/// bad shape as spx_body_create has it), SPX_ERR_STALE_ID (the body), SPX_ERR_UNINITIALIZED_DEF and
/// the shape def's errors of spx_body_create, SPX_ERR_MASS_OUT_OF_RANGE, SPX_ERR_OUT_OF_MEMORY,
/// SPX_ERR_WORLD_LOCKED. Nothing changes on an error; *out set only on success.
SPX_API spx_result spx_shape_create(spx_world* world, spx_body_id body, const spx_shape_def* def, spx_shape_id* out);
/// Removes a shape from its body; its contacts end (end events at the next step), the body's mass is
/// made again and the later shapes of the body move down one index. A body keeps at least one shape:
/// removing its last is SPX_ERR_INVALID_ARGUMENT (destroy the body instead). Errors also
/// SPX_ERR_STALE_ID, SPX_ERR_MASS_OUT_OF_RANGE, SPX_ERR_OUT_OF_MEMORY, SPX_ERR_WORLD_LOCKED.
SPX_API spx_result spx_shape_destroy(spx_world* world, spx_shape_id shape);
/// Is the id a live shape of this world? false for NULL or a stale id.
SPX_API bool spx_shape_is_valid(const spx_world* world, spx_shape_id shape);
/// The body the shape is on. Errors: SPX_ERR_INVALID_ARGUMENT (NULL), SPX_ERR_STALE_ID (as every call
/// below taking a shape).
SPX_API spx_result spx_shape_get_body(const spx_world* world, spx_shape_id shape, spx_body_id* out);
/// The shape's index among its body's shapes (spx_body_get_shape's), which changes when an earlier
/// shape of the body is destroyed.
SPX_API spx_result spx_shape_get_index(const spx_world* world, spx_shape_id shape, uint32_t* out);
SPX_API spx_result spx_shape_get_type(const spx_world* world, spx_shape_id shape, spx_shape_type* out);
SPX_API spx_result spx_shape_is_sensor(const spx_world* world, spx_shape_id shape, bool* out);
/// Makes a shape a sensor (true) or a solid shape (false); its mass stays. Becoming a sensor, its
/// manifolds are dropped now (contact end events at the next step) and the shapes it overlaps begin
/// as visitors at the next step; becoming solid, its overlaps end at the next step (sensor end events)
/// and the shapes it overlaps meet it as contacts from then on. The body wakes, and so do those
/// touching or visiting it. Errors: SPX_ERR_OUT_OF_MEMORY (nothing changed), SPX_ERR_WORLD_LOCKED.
SPX_API spx_result spx_shape_set_sensor(spx_world* world, spx_shape_id shape, bool sensor);
SPX_API spx_result spx_shape_get_user_data(const spx_world* world, spx_shape_id shape, void** out);
SPX_API spx_result spx_shape_set_user_data(spx_world* world, spx_shape_id shape, void* user_data);
/// The shape's friction and restitution (either pointer may be NULL).
SPX_API spx_result spx_shape_get_material(const spx_world* world, spx_shape_id shape, float* out_friction,
                                          float* out_restitution);
/// Sets them: friction >= 0, restitution 0..1, else SPX_ERR_INVALID_ARGUMENT; SPX_ERR_NOT_FINITE,
/// SPX_ERR_WORLD_LOCKED. Contacts take them at the next step.
SPX_API spx_result spx_shape_set_material(spx_world* world, spx_shape_id shape, float friction, float restitution);
SPX_API spx_result spx_shape_get_filter(const spx_world* world, spx_shape_id shape, spx_filter* out);
/// Sets a shape's filter. The shape's manifolds the new filter forbids are dropped now (end events at
/// the next step); the body wakes, and so do those touching it, so that pairs the filter now allows
/// meet at the next step. Errors: SPX_ERR_OUT_OF_MEMORY (nothing changed), SPX_ERR_WORLD_LOCKED.
SPX_API spx_result spx_shape_set_filter(spx_world* world, spx_shape_id shape, spx_filter filter);
/// The body's shapes, in index order: the first min(capacity, count) ids into out (NULL with capacity
/// 0 asks only the count), the count into *out_count. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world or
/// out_count, NULL out with capacity > 0), SPX_ERR_STALE_ID.
SPX_API spx_result spx_body_get_shapes(const spx_world* world, spx_body_id body, spx_shape_id* out, uint32_t capacity,
                                       uint32_t* out_count);
/// The id of the body's shape number `index` (as queries that answer a body and a shape index give
/// it). Errors: SPX_ERR_INVALID_ARGUMENT (NULL, index not below the body's shape count), SPX_ERR_STALE_ID.
SPX_API spx_result spx_body_get_shape(const spx_world* world, spx_body_id body, uint32_t index, spx_shape_id* out);

/// The body's manifolds after the last step (those with any of its shapes, a or b as the manifold
/// has them: the body of lower index first): the first min(capacity, count) into out (NULL with
/// capacity 0 asks only the count), the count into *out_count. Costs a pass over the world's
/// manifolds. Errors: SPX_ERR_INVALID_ARGUMENT (NULL world or out_count, NULL out with capacity > 0),
/// SPX_ERR_STALE_ID.
SPX_API spx_result spx_body_get_contacts(const spx_world* world, spx_body_id body, spx_contact_data* out,
                                         uint32_t capacity, uint32_t* out_count);

/// Sum of the kinetic energies of the dynamic bodies (J): for checks and tools.
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL).
SPX_API spx_result spx_world_get_kinetic_energy(const spx_world* world, double* out);

#ifdef __cplusplus
}
#endif

#endif
