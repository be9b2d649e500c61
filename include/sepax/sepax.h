/* sepax: umbrella header. */
#ifndef SEPAX_H
#define SEPAX_H
#include "base.h"
#include "math_types.h"
#include "geometry.h"
#include "collide.h"
#include "mesh.h"
#include "mesh_query.h"
#include "world.h"
#include "query.h"
#include "joint.h"
#include "mass.h"
#include "round.h"
#include "sat2d.h"
#include "hull.h"
#include "debug_draw.h"
#endif
