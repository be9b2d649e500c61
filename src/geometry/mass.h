/* Mass properties at unit density, integrated once when a mesh is built. */
#ifndef SPX_GEOMETRY_MASS_H
#define SPX_GEOMETRY_MASS_H

#include <sepax/mass.h>

/* A closed surface's enclosed volume with |volume| at most this fraction of the summed absolute
   volumes of its signed tetrahedra is zero: what cancels to that level is rounding (a doubled-back
   sheet gives about 1e-16), while the thinnest solid float coordinates can describe is near 1e-7. */
#define SPX_MASS_ZERO_VOLUME_RATIO 1e-9

typedef struct spx_unit_mass {
    spx_result status;    /* SPX_OK, or why there are no mass properties: SPX_ERR_MESH_NOT_CLOSED,
                              SPX_ERR_MESH_INSIDE_OUT, SPX_ERR_ZERO_VOLUME */
    double volume;        /* m^3, > 0 when status is SPX_OK */
    double center[3];     /* m, centre of the enclosed volume */
    double inertia[3][3]; /* m^5: inertia tensor about center at density 1 kg/m^3 (symmetric) */
} spx_unit_mass;

/* Integrates the solid bounded by every triangle of the def (those the mesh skips as degenerate too;
   a triangle with two equal corners adds nothing). Without `closed` the status is
   SPX_ERR_MESH_NOT_CLOSED and nothing is integrated. The def must have passed the mesh's checks. */
void spx_mass_integrate(const spx_mesh_def* def, bool closed, spx_unit_mass* out);

#endif
