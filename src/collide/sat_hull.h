/* The separating-axis loop of sat_hull.c for a placed hull A against any hull view B with a pose: a hull, a box, a
 * triangle. */
#ifndef SPX_SAT_HULL_H
#define SPX_SAT_HULL_H

#include <sepax/hull.h>
#include "geometry/hull.h"

/* B as a view with its pose, and storage for a box's or triangle's view. */
typedef struct spx_hull_query {
    spx_hull_view box_view;
    spx_vec3 box_vertices[8];
    spx_hull_plane box_faces[6];
    const spx_hull_view* b;
    spx_vec3 pb;
    const spx_mat3* rb;
    int b_reference;        /* manifold: B's face made the reference (-1: the most separating)... */
    double b_reference_cos; /* ... when the normal is within this cosine of its own; < -1: always */
    uint32_t b_salt;        /* manifold: mixed into the ids of points B's corners or sides make (0: none) */
} spx_hull_query;

/* A placed hull's hull and pose, checked as a box's would be. */
spx_result spx_hull_check_placed(const spx_placed_hull* h);

void spx_hull_query_sweep(const spx_placed_hull* a, spx_vec3 va, const spx_hull_query* q, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out);
/* The sweep with every Minkowski face pushed out by `margin` (m, >= 0): never later than the first time within the
   margin; 0 is spx_hull_query_sweep. For the continuous stage, where a hull cannot take the rotation bound on its own
   corners. */
void spx_hull_query_sweep_margin(const spx_placed_hull* a, spx_vec3 va, const spx_hull_query* q, spx_vec3 vb,
                                 float tmax, double margin, spx_sweep_hit* out);
void spx_hull_query_penetration(const spx_placed_hull* a, const spx_hull_query* q, spx_penetration* out);
bool spx_hull_query_overlap(const spx_placed_hull* a, const spx_hull_query* q);
/* Bit i: point i is a corner of A on B's face (its place on A stays as B changes). */
unsigned spx_hull_query_manifold(const spx_placed_hull* a, const spx_hull_query* q, float margin, spx_manifold* out);

/* The public queries' answers once the query is built (`built`: its faults): INVALID_ARGUMENT for a NULL out, then
   faults in base.h's order with the motion's or margin's; q is read only when all pass. */
spx_result spx_hull_answer_sweep(const spx_placed_hull* a, spx_vec3 va, spx_result built, const spx_hull_query* q,
                                 spx_vec3 vb, float tmax, spx_sweep_hit* out);
spx_result spx_hull_answer_penetration(const spx_placed_hull* a, spx_result built, const spx_hull_query* q,
                                       spx_penetration* out);
spx_result spx_hull_answer_overlap(const spx_placed_hull* a, spx_result built, const spx_hull_query* q,
                                   bool* out_overlap);
spx_result spx_hull_answer_manifold(const spx_placed_hull* a, spx_result built, const spx_hull_query* q, float margin,
                                    spx_manifold* out);

#endif
