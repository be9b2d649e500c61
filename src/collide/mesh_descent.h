/* The descent of OBB trees for the mesh queries: a box against a tree, or a tree against a tree,
 * pruned by swept node tests, with the exact swept tests at the leaves. One descent serves three
 * jobs (spx_descent_mode); mesh_query.c runs them in turn and fills the answers. */
#ifndef SPX_MESH_DESCENT_H
#define SPX_MESH_DESCENT_H

#include "geometry/mesh_instance.h"
#include "math/dvec3.h"
#include <string.h>

typedef enum spx_descent_mode {
    SPX_DESCENT_FIRST,   /* the first contact: bound shrinks to the best time found, ties go to lower ids */
    SPX_DESCENT_COLLECT, /* every pair within a fixed limit: written out, counted, averaged */
    SPX_DESCENT_ANY,     /* stop at the first pair that touches */
    SPX_DESCENT_VISIT    /* box-mesh only: hand every usable triangle of every leaf the box reaches at t = 0 to
                            visit(), which runs its own test */
} spx_descent_mode;

/* A pair the first descent keeps for the contact set: its contact, its triangles (mesh order; ia
   unused for a box) and whether it overlaps at t = 0. */
typedef struct spx_gathered {
    spx_mesh_contact c;
    uint32_t ia, ib;
    bool start;
} spx_gathered;

/* The end of the contact window that opens at `time`: the limit of the contact set. */
static inline float spx_window_end(float time, float tmax) { return time + SPX_MESH_CONTACT_WINDOW * tmax; }

typedef struct spx_descent {
    /* Set by the caller. */
    spx_descent_mode mode;
    float tmax;
    spx_vec3 velocity_a, velocity_b;
    const spx_obb* box;   /* A as a box (box-mesh), or NULL */
    spx_mesh_instance* a; /* A as a mesh (mesh-mesh), or NULL */
    spx_mesh_instance* b;
    /* Mesh-mesh only: A grown by this (m, >= 0) everywhere, so that pairs within it count as touching
       (the world's continuous stage bounds rotation so; spx_sweep_mesh_mesh_margin). 0: exact. */
    float margin;
    /* FIRST: stop at the first pair found overlapping at t = 0 (nothing comes earlier; which pair it
       is then depends on the descent's order, not the lowest numbers). */
    bool stop_at_start;
    /* COLLECT: pairs with time <= limit; start_only keeps only pairs overlapping at t = 0. */
    float limit;
    float tie_time; /* COLLECT, not start_only: the first time, whose pairs tie_* sum */
    bool start_only;
    spx_mesh_contact* contacts;
    uint32_t capacity;
    bool measure_depth; /* COLLECT a second time: the pairs' overlap along depth_normal */
    /* FIRST: also keep, in descent order, every pair that may belong to the contact set (those
       within the window of the best so far, or overlapping at t = 0), pruning at the window's end
       rather than at the best time, so that the collecting descent need not run. NULL: none.
       gather_overflow: more than gather_capacity at once; the collecting descent must run. */
    spx_gathered* gather;
    uint32_t gather_capacity, gather_count;
    bool gather_overflow;
    spx_dvec3 depth_normal;
    /* B's position less A's (a mesh's pose, a box's centre) and the order of the two in (x, y, z)
       order (-1: A's first), which tell equally deep pairs apart whichever piece is A. */
    spx_dvec3 side;
    int side_order;
    /* VISIT: called with the mesh's triangle number (leaf order) of each triangle reached; true ends
       the descent there. */
    bool (*visit)(void* context, uint32_t triangle);
    void* visit_context;

    /* Results. */
    bool found;
    bool any_start;        /* FIRST: some pair overlaps at t = 0 */
    spx_mesh_contact best; /* FIRST: the first pair; COLLECT: the first (HIT) or deepest (start) pair */
    uint32_t count;        /* COLLECT: pairs accepted */
    spx_dvec3 normal_sum, point_sum;
    uint32_t tie_count; /* COLLECT: pairs whose time is exactly tie_time, and their sums */
    spx_dvec3 tie_normal_sum, tie_point_sum;
    double depth;                    /* measure_depth: the largest overlap along depth_normal */
    uint64_t node_tests, leaf_tests; /* statistics, for the benchmark */
} spx_descent;

/* A box as the descents read it, grown for axes off orthonormal by SPX_ROTATION_TOLERANCE. */
spx_world_box spx_descent_query_box(const spx_obb* box);

/* Runs the descent; d->found tells whether any pair was accepted. */
void spx_descend(spx_descent* d);

/* A COLLECT descent (its settings as for spx_descend) answered from the pairs gathered by the FIRST
   descent before it, in the same order and with the same results as descending again; false, and
   nothing done, when there is no gather or it overflowed. */
bool spx_descend_gathered(spx_descent* d);

/* A VISIT descent: visit(context, t) for every usable triangle t of every leaf of b that `box` reaches,
   until a visit returns true. */
static inline void spx_descend_visit(const spx_obb* box, spx_mesh_instance* b, bool (*visit)(void* context, uint32_t t),
                                     void* context)
{
    spx_descent d = { .mode = SPX_DESCENT_VISIT, .box = box, .b = b, .visit = visit, .visit_context = context };
    spx_descend(&d);
}

#endif
