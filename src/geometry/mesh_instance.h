/* A mesh placed in the world, with the lazily filled world-space cache of its tree. */
#ifndef SPX_GEOMETRY_MESH_INSTANCE_H
#define SPX_GEOMETRY_MESH_INSTANCE_H

#include <sepax/mesh_query.h>
#include "mesh.h"

#define SPX_MESH_INSTANCE_DEF_COOKIE 0x494E5354u /* "INST" */

/* A tree node's box in world space, one cache line with its stamp. The half extents are the node's
   own grown by the rounding of the move into world space (spx_mesh_instance_node), so the box
   holds every world triangle below the node exactly as the queries see them. */
typedef struct spx_world_box {
    float center[3];
    float half[3];
    float axis[3][3]; /* axis[i]: box axis i in world coordinates */
    uint32_t stamp;   /* equal to the instance's stamp: this entry is at the current pose */
} spx_world_box;

struct spx_mesh_instance {
    const spx_mesh* mesh;
    spx_transform pose;    /* as stored: quaternion normalised */
    double rotation[3][3]; /* rotation[i]: column i, the image of the mesh's axis i */
    double position[3];
    uint32_t stamp;          /* bumped by every pose; never 0 (0 marks an entry never filled) */
    spx_world_box* boxes;    /* node_count */
    spx_triangle* triangles; /* triangle_count world triangles, filled with their leaf's box */
    uint8_t* usable;         /* triangle_count: 0 for a triangle the pose's rounding made degenerate */
    size_t bytes;
    spx_allocator allocator;
};

/* Fills node i's world box (and a leaf's world triangles) at the current pose. */
const spx_world_box* spx_mesh_instance_node_fill(spx_mesh_instance* inst, uint32_t i);

/* Node i's box in world space at the current pose, computed on first use. A leaf's world triangles
   are filled at the same time. Inline: the descents ask for boxes already filled far more often. */
static inline const spx_world_box* spx_mesh_instance_node(spx_mesh_instance* inst, uint32_t i)
{
    const spx_world_box* w = &inst->boxes[i];
    return w->stamp == inst->stamp ? w : spx_mesh_instance_node_fill(inst, i);
}

/* Triangle i (mesh order) moved to the current pose: the one rounding every query sees. */
spx_triangle spx_mesh_instance_world_triangle(const spx_mesh_instance* inst, uint32_t i);

#endif
