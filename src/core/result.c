/* Sentences for result codes: each says what went wrong and what to do. */
#include <sepax/base.h>

SPX_API const char* spx_result_string(spx_result result)
{
    switch (result) {
    case SPX_OK:
        return "success";
    case SPX_ERR_INVALID_ARGUMENT:
        return "invalid argument: a required pointer is NULL or a count or index is out of range";
    case SPX_ERR_NOT_FINITE:
        return "a coordinate, extent, velocity or time is NaN or infinite: pass finite numbers";
    case SPX_ERR_BAD_EXTENT:
        return "a box half extent is zero or negative: every half extent must be > 0";
    case SPX_ERR_NOT_ORTHONORMAL:
        return "rotation is not orthonormal (or the quaternion is not unit length) within SPX_ROTATION_TOLERANCE: "
               "normalise it";
    case SPX_ERR_NOT_RIGHT_HANDED:
        return "rotation matrix is a reflection (determinant -1): flip one axis";
    case SPX_ERR_DEGENERATE_TRIANGLE:
        return "triangle corners coincide: it has no extent to collide with; drop it";
    case SPX_ERR_BAD_TIME:
        return "time interval is negative: tmax must be >= 0";
    case SPX_ERR_UNINITIALIZED_DEF:
        return "definition not initialised: start from its spx_default_*_def() function";
    case SPX_ERR_STALE_ID:
        return "id is stale: the object was destroyed or belongs to another world";
    case SPX_ERR_WORLD_LOCKED:
        return "world is locked: it is stepping (this call came from the host's allocator during spx_world_step); "
               "change the world after the step";
    case SPX_ERR_OUT_OF_MEMORY:
        return "out of memory: nothing was changed, the call can be retried";
    case SPX_ERR_INDEX_OUT_OF_RANGE:
        return "a mesh index is not below the vertex count: fix the index array";
    case SPX_ERR_EMPTY_MESH:
        return "the mesh has no usable triangle (none given, or every one degenerate)";
    case SPX_ERR_BAD_DENSITY:
        return "density is zero or negative: pass kilograms per cubic metre, > 0";
    case SPX_ERR_MESH_NOT_CLOSED:
        return "the mesh is not closed (an edge without its opposite twin, or shared by more than two triangles): it "
               "has no volume to weigh; close it, or make the body static or a box";
    case SPX_ERR_MESH_INSIDE_OUT:
        return "the closed mesh is wound clockwise seen from outside (negative volume): reverse the order of each "
               "triangle's indices";
    case SPX_ERR_ZERO_VOLUME:
        return "the closed mesh encloses no volume (a flat or doubled-back surface): give the body a solid shape";
    case SPX_ERR_MASS_OUT_OF_RANGE:
        return "mass, volume or inertia would not fit a float (too large, or a moment too small), or a dynamic body's "
               "is beyond SPX_BODY_MIN_MASS, SPX_BODY_MAX_MASS or SPX_BODY_MAX_INERTIA: change the units, the density "
               "or the size";
    case SPX_ERR_SPEED_OUT_OF_RANGE:
        return "a body's speed (given, or after the impulse) is beyond SPX_MAX_LINEAR_SPEED or SPX_MAX_ANGULAR_SPEED: "
               "nothing was changed; pass a smaller velocity or impulse";
    case SPX_ERR_TOO_MANY_WORLDS:
        return "65,535 worlds are live, the most ids can tell apart: destroy one before making another";
    case SPX_ERR_OUT_OF_RANGE:
        return "a coordinate, half extent, margin or distance travelled (|velocity| * tmax) exceeds SPX_MAX_COORDINATE "
               "(1e7 m): move the origin near the action, or change the units";
    case SPX_ERR_BAD_JOINT:
        return "the joint joins nothing (a body to itself, or no dynamic body) or a parameter is out of order (lower "
               "limit above upper, min length above max, a negative stiffness, damping, length or force): fix the "
               "joint def";
    case SPX_ERR_ZERO_AREA:
        return "the polygon has fewer than three distinct corners or they lie on one line: give corners that enclose "
               "an area";
    case SPX_ERR_NOT_CONVEX:
        return "the polygon is not convex (a corner turns the other way, or the boundary winds round more than once): "
               "give its corners in order round a convex boundary";
    case SPX_ERR_FLAT_HULL:
        return "the hull's points lie on one plane, one line or one point (within SPX_HULL_PLANE_TOLERANCE of its "
               "size): it has no volume; give points that enclose a solid, or use a triangle";
    case SPX_ERR_TOO_MANY_CORNERS:
        return "the hull would have more than SPX_HULL_MAX_CORNERS (255) corners: simplify the point cloud first";
    case SPX_RESULT_COUNT:
        break;
    }
    return "unknown result code";
}

SPX_API int spx_version(void) { return SPX_VERSION_MAJOR * 10000 + SPX_VERSION_MINOR * 100 + SPX_VERSION_PATCH; }
