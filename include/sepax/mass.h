/* sepax: mass properties of boxes, spheres, capsules and closed meshes, for rigid bodies. */
#ifndef SEPAX_MASS_H
#define SEPAX_MASS_H

#include "base.h"
#include "math_types.h"
#include "mesh.h"
#include "round.h"

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

/// Mass properties of a solid sphere at `density` kg/m^3, in the frame its centre is given in: mass
/// 4/3 pi r^3 density, centre the sphere's, inertia 2/5 mass r^2 on the diagonal. Errors:
/// SPX_ERR_INVALID_ARGUMENT (NULL), as spx_sphere_validate, SPX_ERR_NOT_FINITE (density),
/// SPX_ERR_BAD_EXTENT (radius 0), SPX_ERR_BAD_DENSITY (<= 0), SPX_ERR_MASS_OUT_OF_RANGE. *out written
/// only on success.
SPX_API spx_result spx_mass_sphere(const spx_sphere* sphere, float density, spx_mass_properties* out);

/// Mass properties of a solid capsule (a cylinder of length L = |p1 - p0| and two half balls) at
/// `density` kg/m^3, in the frame its points are given in: centre the segment's middle; about the
/// segment, I = m_c r^2 / 2 + 2/5 m_s r^2; across it, I = m_c (L^2 / 12 + r^2 / 4) + m_s (2/5 r^2 +
/// L^2 / 4 + 3/8 L r), where m_c is the cylinder's mass and m_s the two half balls'. Equal points give
/// the sphere's. Errors as spx_mass_sphere, for spx_capsule_validate.
SPX_API spx_result spx_mass_capsule(const spx_capsule* capsule, float density, spx_mass_properties* out);

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
