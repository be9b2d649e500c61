/* sepax: debug drawing. The world draws itself through a table of the host's functions: shapes
 * (boxes; meshes whole or by triangles), their bounds and the broad phase's, contact points and
 * normals, joints, body frames (docs/world.md, "Debug drawing"). The world does no drawing of its
 * own and keeps nothing of the table: a renderer, a test or a picture writer all fill one in. */
#ifndef SEPAX_DEBUG_DRAW_H
#define SEPAX_DEBUG_DRAW_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Colours the world suggests, 0xRRGGBB. A host may use its own: every shape call names the shape.
#define SPX_COLOR_STATIC 0x8C918Cu              /* static bodies' shapes */
#define SPX_COLOR_KINEMATIC 0x8C6BBFu           /* kinematic bodies' */
#define SPX_COLOR_DYNAMIC 0xDB8552u             /* awake dynamic bodies' */
#define SPX_COLOR_SLEEPING 0x7F8C99u            /* sleeping dynamic bodies' */
#define SPX_COLOR_SENSOR 0xE6D14Du              /* sensor shapes, whatever their body */
#define SPX_COLOR_SHAPE_BOUNDS 0xBF4DBFu        /* a shape's world bounds */
#define SPX_COLOR_BROAD_PHASE 0x4DBFBFu         /* a body's box in the broad phase (a moving body's: fattened) */
#define SPX_COLOR_CONTACT_TOUCHING 0xE6140Fu    /* a contact point of overlapping or touching shapes */
#define SPX_COLOR_CONTACT_SPECULATIVE 0x3380E6u /* a point still apart (within the speculative distance) */
#define SPX_COLOR_CONTACT_DISABLED 0x999999u    /* a point of a manifold the pre-solve callback switched off */
#define SPX_COLOR_CONTACT_NORMAL 0xF2F2F2u      /* a manifold's normal, from a to b */
#define SPX_COLOR_JOINT 0x4DB34Du               /* joint anchors and the lines from the bodies to them */
#define SPX_COLOR_AXIS_X 0xE63333u              /* frames: body axes and joint frames */
#define SPX_COLOR_AXIS_Y 0x33C033u
#define SPX_COLOR_AXIS_Z 0x3366E6u

/// The shape a shape call draws, so that the host can choose its own look.
typedef struct spx_debug_shape {
    spx_shape_id shape;
    spx_body_id body;
    spx_body_type body_type;
    bool awake; /* false: the body sleeps (or is static) */
    bool sensor;
    void* user_data; /* the shape's */
    uint32_t color;  /* suggested: SPX_COLOR_SENSOR, else by body type and sleep */
} spx_debug_shape;

/// The host's drawing functions and what to draw. Start from spx_default_debug_draw(). A NULL
/// function draws nothing of its kind; the switches say which kinds the world visits at all.
typedef struct spx_debug_draw {
    /* A box shape: its pose (centre, axes) and half extents (m). */
    void (*draw_box)(const spx_transform* pose, spx_vec3 half_extents, const spx_debug_shape* shape, void* context);
    /* A mesh shape whole, at the pose of the mesh's frame. When set, draw_triangle is not called. */
    void (*draw_mesh)(const struct spx_mesh* mesh, const spx_transform* pose, const spx_debug_shape* shape,
                      void* context);
    /* A sphere or capsule shape: the pose of its frame, its radius (m) and half its segment's length
       (m), the segment along the frame's y axis (0 for a sphere). */
    void (*draw_round)(const spx_transform* pose, float radius, float half_height, const spx_debug_shape* shape,
                       void* context);
    /* A convex hull shape whole, at the pose of the hull's frame (hull.h gives its corners, faces and
       edges). When NULL, its edges are drawn by draw_segment in the shape's colour. */
    void (*draw_hull)(const struct spx_hull* hull, const spx_transform* pose, const spx_debug_shape* shape,
                      void* context);
    /* One triangle of a mesh shape, corners in the world (m); `triangle` is its number in the mesh's
       def (indices[3 * triangle]). Within the drawing bounds (when used), only triangles whose
       bounds meet them, found through the mesh's OBB tree: a large terrain costs what is in view. */
    void (*draw_triangle)(const spx_vec3 corners[3], uint32_t triangle, const spx_debug_shape* shape, void* context);
    /* A line from a to b (m): contact normals, joints, body axes. */
    void (*draw_segment)(spx_vec3 a, spx_vec3 b, uint32_t color, void* context);
    /* A point (m) of the given size (pixels, a hint): contact points, joint anchors. */
    void (*draw_point)(spx_vec3 point, float size, uint32_t color, void* context);
    /* A world axis-aligned box from lower to upper (m): shape bounds, broad-phase boxes. */
    void (*draw_bounds)(spx_vec3 lower, spx_vec3 upper, uint32_t color, void* context);
    void* context; /* passed to every function */

    bool draw_shapes;          /* default true: draw_box, draw_round, draw_hull (or its edges), draw_mesh or
                                       draw_triangle */
    bool draw_shape_bounds;    /* each shape's world bounds (as spx_world_overlap_aabb sees them); default false */
    bool draw_broad_phase;     /* each body's box in the broad phase; default false */
    bool draw_contacts;        /* the last step's contact points; default false */
    bool draw_contact_normals; /* each manifold's normal at each of its points, normal_length long; default false */
    bool draw_joints;          /* anchors, lines from each body's centre of mass to its anchor, and the
                                       joint frames' axes (axis_length long); default false */
    bool draw_body_frames;     /* each body's axes at its origin, axis_length long; default false */
    bool use_drawing_bounds;   /* draw only what meets the box drawing_lower .. drawing_upper; default false */
    spx_vec3 drawing_lower, drawing_upper; /* m, lower <= upper on every axis */
    float axis_length;                     /* m, >= 0; default 0.3 */
    float normal_length;                   /* m, >= 0; default 0.3 */
    float point_size;                      /* pixels, > 0; default 5 */
    uint32_t internal_cookie;              /* set by spx_default_debug_draw(); do not touch */
} spx_debug_draw;

/// A table with no functions, shapes switched on and the rest off.
SPX_API spx_debug_draw spx_default_debug_draw(void);

/// Draws the world as the last step left it through `draw`, on the calling thread: bodies in slot
/// order, each body's shapes in index order, then bounds, contacts (in the manifolds' order) and
/// joints. Reads the world only. Errors: SPX_ERR_INVALID_ARGUMENT (NULL; drawing bounds with lower
/// above upper; a negative length or a point size not positive), SPX_ERR_NOT_FINITE (drawing bounds,
/// lengths), SPX_ERR_UNINITIALIZED_DEF (draw not from spx_default_debug_draw()), SPX_ERR_WORLD_LOCKED
/// (called from inside a step or a query's callback). Nothing is drawn on an error.
SPX_API spx_result spx_world_draw(const spx_world* world, const spx_debug_draw* draw);

#ifdef __cplusplus
}
#endif

#endif
