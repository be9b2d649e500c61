/* sepax: mass properties of boxes and closed meshes, for rigid bodies. */
#ifndef SEPAX_MASS_H
#define SEPAX_MASS_H

#include "base.h"
#include "math_types.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a rigid body needs to move: mass, centre of mass and inertia tensor of a shape of uniform
/// density, in the shape's own frame.
typedef struct spx_mass_properties {
    float mass;       /* kg */
    spx_vec3 center;  /* m, centre of mass in the shape's own frame */
    spx_mat3 inertia; /* kg m^2, about the centre of mass, in the shape's frame (symmetric) */
    float volume;     /* m^3 */
} spx_mass_properties;

/// Mass properties of the solid box [-h, h] (centred at the origin, axis-aligned in its own frame)
/// at `density` kg/m^3: mass 8 hx hy hz density, inertia diagonal, Ixx = mass (hy^2 + hz^2) / 3.
/// Errors: SPX_ERR_INVALID_ARGUMENT (NULL out), SPX_ERR_NOT_FINITE (half extents or density),
/// SPX_ERR_BAD_EXTENT (a half extent <= 0), SPX_ERR_BAD_DENSITY (<= 0), SPX_ERR_MASS_OUT_OF_RANGE.
/// *out is written only on success.
SPX_API spx_result spx_mass_box(spx_vec3 half_extents, float density, spx_mass_properties* out);

/// Mass properties of the solid a closed mesh encloses, at `density` kg/m^3, in the mesh's own
/// frame: exact polyhedral integration (divergence theorem, in double, about a point near the mesh),
/// done once in spx_mesh_create; this call only scales it. Errors: SPX_ERR_INVALID_ARGUMENT (NULL),
/// SPX_ERR_NOT_FINITE (density), SPX_ERR_BAD_DENSITY (<= 0), SPX_ERR_MESH_NOT_CLOSED,
/// SPX_ERR_MESH_INSIDE_OUT, SPX_ERR_ZERO_VOLUME, SPX_ERR_MASS_OUT_OF_RANGE. *out written only on success.
SPX_API spx_result spx_mass_mesh(const spx_mesh* mesh, float density, spx_mass_properties* out);

#ifdef __cplusplus
}
#endif

#endif
