/* sepax: foundation types shared by every layer: export macro, version, result codes, allocator. */
#ifndef SEPAX_BASE_H
#define SEPAX_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#if defined(SPX_STATIC)
#define SPX_API
#elif defined(_WIN32)
#if defined(SPX_BUILDING)
#define SPX_API __declspec(dllexport)
#else
#define SPX_API __declspec(dllimport)
#endif
#else
#define SPX_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SPX_VERSION_MAJOR 0
#define SPX_VERSION_MINOR 1
#define SPX_VERSION_PATCH 0

/// Every call that can fail returns one of these. A failed call changes none of its outputs'
/// meaning: "the call failed" is never "no contact" (a sweep that ran and found nothing is SPX_OK).
/// Input with several faults gets the first that applies, in this order: INVALID_ARGUMENT for a
/// NULL pointer or a bad count; NOT_FINITE anywhere; OUT_OF_RANGE anywhere; the shape of each piece
/// in argument order (BAD_EXTENT, NOT_ORTHONORMAL, NOT_RIGHT_HANDED, DEGENERATE_TRIANGLE); last the
/// interval or margin (BAD_TIME for tmax < 0, INVALID_ARGUMENT for a negative margin). Batched calls
/// follow the same order over all their pairs.
typedef enum spx_result {
    SPX_OK = 0,
    SPX_ERR_INVALID_ARGUMENT, /* a NULL pointer, or a count/size out of range */
    SPX_ERR_NOT_FINITE,       /* a NaN or an infinity in a coordinate, extent, velocity or time */
    SPX_ERR_BAD_EXTENT,       /* a box half extent that is zero or negative */
    SPX_ERR_NOT_ORTHONORMAL, /* rotation matrix not orthonormal (or quaternion not unit) within SPX_ROTATION_TOLERANCE */
    SPX_ERR_NOT_RIGHT_HANDED,    /* rotation matrix orthonormal but a reflection (determinant -1) */
    SPX_ERR_DEGENERATE_TRIANGLE, /* a triangle whose three corners coincide: no direction to answer with */
    SPX_ERR_BAD_TIME,            /* tmax negative */
    SPX_ERR_UNINITIALIZED_DEF,   /* def not from its spx_default_*_def() */
    SPX_ERR_STALE_ID,            /* an id whose body or shape was destroyed, or an id of another world */
    SPX_ERR_WORLD_LOCKED,        /* a call that changes a world made while it steps (from the host's allocator) */
    SPX_ERR_OUT_OF_MEMORY,       /* nothing was changed; retrying is safe */
    SPX_ERR_INDEX_OUT_OF_RANGE,  /* a mesh index names a vertex that does not exist */
    SPX_ERR_EMPTY_MESH,          /* a mesh with no usable triangle (none given, or all degenerate) */
    SPX_ERR_BAD_DENSITY,         /* a density that is zero or negative */
    SPX_ERR_MESH_NOT_CLOSED,     /* mass properties of a mesh that does not enclose a volume (spx_mesh_info.closed);
                                    hull faces with an edge open or met twice the same way (hull.h) */
    SPX_ERR_MESH_INSIDE_OUT,     /* a closed mesh (or hull faces) wound clockwise seen from outside (negative volume) */
    SPX_ERR_ZERO_VOLUME,         /* a closed mesh that encloses no volume (e.g. a sheet, one triangle each way) */
    SPX_ERR_MASS_OUT_OF_RANGE,   /* mass, volume or inertia beyond float range (or a moment below FLT_MIN), or a
                                    dynamic body's beyond the SPX_BODY_* limits of world.h */
    SPX_ERR_SPEED_OUT_OF_RANGE,  /* a body speed beyond SPX_MAX_LINEAR_SPEED or SPX_MAX_ANGULAR_SPEED (world.h) */
    SPX_ERR_TOO_MANY_WORLDS,     /* 65,535 worlds live at once: each needs a number for its ids */
    SPX_ERR_OUT_OF_RANGE,        /* a coordinate, extent, margin or distance travelled beyond SPX_MAX_COORDINATE */
    SPX_ERR_BAD_JOINT,           /* a joint that joins nothing (a body to itself, no dynamic body) or whose limits,
                                    lengths, stiffness or forces are out of order (joint.h) */
    SPX_ERR_ZERO_AREA,           /* a polygon with fewer than three distinct corners, or all on one line (sat2d.h) */
    SPX_ERR_NOT_CONVEX,          /* a polygon with a corner turning the other way, or winding round more than once;
                                    hull faces not flat, turning the other way or below a corner (hull.h) */
    SPX_ERR_FLAT_HULL,           /* a hull's points all on one plane, line or point: no volume (hull.h) */
    SPX_ERR_TOO_MANY_CORNERS,    /* a hull that would need more than SPX_HULL_MAX_CORNERS corners (hull.h) */
    SPX_RESULT_COUNT
} spx_result;

/// A sentence that names the problem and what to do about it. Never NULL.
SPX_API const char* spx_result_string(spx_result result);

/// Version of the library actually linked, as major*10000 + minor*100 + patch.
SPX_API int spx_version(void);

/// Memory comes from the host. `free` receives the size given to `alloc` (arena hosts need it).
typedef struct spx_allocator {
    void* (*alloc)(size_t size, size_t alignment, void* context);
    void (*free)(void* memory, size_t size, void* context);
    void* context;
} spx_allocator;

#ifdef __cplusplus
}
#endif

#endif
