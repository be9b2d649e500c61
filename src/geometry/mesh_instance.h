/* A mesh placed in the world, with the lazily filled world-space cache of its tree. */
#ifndef SPX_GEOMETRY_MESH_INSTANCE_H
#define SPX_GEOMETRY_MESH_INSTANCE_H

#include <sepax/mesh_query.h>
#include "mesh.h"

#define SPX_MESH_INSTANCE_DEF_COOKIE 0x494E5354u /* "INST" */

/* A node's world box, one cache line; grown by the move's rounding so it holds the world
   triangles below as the queries see them. */
typedef struct spx_world_box {
    float center[3];
    float half[3];
    float axis[3][3];
    uint32_t stamp; /* == instance stamp: current */
} spx_world_box;

struct spx_mesh_instance {
    const spx_mesh* mesh;
    spx_transform pose;    /* quaternion normalised */
    double rotation[3][3]; /* rotation[i]: column i */
    double position[3];
    uint32_t stamp; /* bumped by every pose; never 0 (never filled) */
    spx_world_box* boxes;
    spx_triangle* triangles; /* filled with their leaf's box */
    uint8_t* usable;         /* 0: the pose's rounding made it degenerate */
    size_t bytes;
    spx_allocator allocator;
};

const spx_world_box* spx_mesh_instance_node_fill(spx_mesh_instance* inst, uint32_t i);

/* Filled on first use at the pose (a leaf's triangles too); inline for the common filled case. */
static inline const spx_world_box* spx_mesh_instance_node(spx_mesh_instance* inst, uint32_t i)
{
    const spx_world_box* w = &inst->boxes[i];
    return w->stamp == inst->stamp ? w : spx_mesh_instance_node_fill(inst, i);
}

/* The one rounding every query sees. */
spx_triangle spx_mesh_instance_world_triangle(const spx_mesh_instance* inst, uint32_t i);

#endif
