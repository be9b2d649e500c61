/* Mass properties at unit density, integrated once when a mesh is built. */
#ifndef SPX_GEOMETRY_MASS_H
#define SPX_GEOMETRY_MASS_H

#include <sepax/mass.h>

/* |volume| below this fraction of the summed |tetrahedra| is zero: rounding cancels to ~1e-16,
   the thinnest float solid is ~1e-7. */
#define SPX_MASS_ZERO_VOLUME_RATIO 1e-9

typedef struct spx_unit_mass {
    spx_result status; /* or MESH_NOT_CLOSED, MESH_INSIDE_OUT, ZERO_VOLUME */
    double volume;     /* m^3 */
    double center[3];
    double inertia[3][3]; /* m^5 about center, density 1 */
} spx_unit_mass;

/* Over every def triangle, degenerate ones too. Not `closed`: MESH_NOT_CLOSED. Def must be valid. */
void spx_mass_integrate(const spx_mesh_def* def, bool closed, spx_unit_mass* out);

#endif
