/* OBB-tree descent for the mesh queries (box against tree, or tree against tree), pruned by swept
 * node tests; one descent serves several jobs (spx_descent_mode). See docs/meshes.md#continuous-queries. */
#ifndef SPX_MESH_DESCENT_H
#define SPX_MESH_DESCENT_H

#include "geometry/mesh_instance.h"
#include "math/dvec3.h"
#include <string.h>

typedef enum spx_descent_mode {
    SPX_DESCENT_FIRST,   /* the first contact: bound shrinks to the best time found, ties go to lower ids */
    SPX_DESCENT_COLLECT, /* every pair within a fixed limit: written out, counted, averaged */
    SPX_DESCENT_ANY,     /* stop at the first pair that touches */
    SPX_DESCENT_VISIT    /* box-mesh only: each usable triangle the box reaches at t = 0
                            goes to visit() */
} spx_descent_mode;

/* A pair FIRST keeps for the contact set (ia unused for a box; start: overlaps at t = 0). */
typedef struct spx_gathered {
    spx_mesh_contact c;
    uint32_t ia, ib;
    bool start;
} spx_gathered;

static inline float spx_window_end(float time, float tmax) { return time + SPX_MESH_CONTACT_WINDOW * tmax; }

typedef struct spx_descent {
    /* Set by the caller. */
    spx_descent_mode mode;
    float tmax;
    spx_vec3 velocity_a, velocity_b;
    const spx_obb* box;   /* A as a box (box-mesh), or NULL */
    spx_mesh_instance* a; /* A as a mesh (mesh-mesh), or NULL */
    spx_mesh_instance* b;
    /* Mesh-mesh only: A grown by this (m, >= 0), so pairs within it touch (the continuous stage's
       rotation bound; spx_sweep_mesh_mesh_margin). 0: exact. */
    float margin;
    /* FIRST: stop at the first pair overlapping at t = 0 (which one then depends on the descent order). */
    bool stop_at_start;
    /* COLLECT: pairs with time <= limit; start_only: only those overlapping at t = 0. */
    float limit;
    float tie_time; /* COLLECT, not start_only: the first time, summed in tie_* */
    bool start_only;
    spx_mesh_contact* contacts;
    uint32_t capacity;
    bool measure_depth; /* COLLECT again: overlap along depth_normal */
    /* FIRST: also keep, in descent order, every pair that may belong to the contact set, pruning at the
       window's end, so COLLECT need not run. NULL: none. Overflow: COLLECT must run. */
    spx_gathered* gather;
    uint32_t gather_capacity, gather_count;
    bool gather_overflow;
    spx_dvec3 depth_normal;
    /* B's position less A's, and their (x, y, z) order (-1: A first): tell equally deep pairs apart
       whichever piece is A. */
    spx_dvec3 side;
    int side_order;
    /* VISIT: called with each reached triangle (leaf order); true ends the descent. */
    bool (*visit)(void* context, uint32_t triangle);
    void* visit_context;

    /* Results. */
    bool found;
    bool any_start;        /* FIRST: some pair overlaps at t = 0 */
    spx_mesh_contact best; /* FIRST: the first pair; COLLECT: the first (HIT) or deepest (start) pair */
    uint32_t count;        /* COLLECT: pairs accepted */
    spx_dvec3 normal_sum, point_sum;
    uint32_t tie_count; /* COLLECT: pairs at exactly tie_time, and their sums */
    spx_dvec3 tie_normal_sum, tie_point_sum;
    double depth;                    /* measure_depth: largest overlap along depth_normal */
    uint64_t node_tests, leaf_tests; /* for the benchmark */
} spx_descent;

/* A box as the descents read it, grown for axes off orthonormal by SPX_ROTATION_TOLERANCE. */
spx_world_box spx_descent_query_box(const spx_obb* box);

void spx_descend(spx_descent* d);

/* COLLECT answered from FIRST's gathered pairs, in the same order with the same results as a
   descent; false, nothing done, when there is no gather or it overflowed. */
bool spx_descend_gathered(spx_descent* d);

/* visit(context, t) for every usable triangle t of b's leaves `box` reaches, until one returns true. */
static inline void spx_descend_visit(const spx_obb* box, spx_mesh_instance* b, bool (*visit)(void* context, uint32_t t),
                                     void* context)
{
    spx_descent d = { .mode = SPX_DESCENT_VISIT, .box = box, .b = b, .visit = visit, .visit_context = context };
    spx_descend(&d);
}

#endif
