/* One dispatch over shape pair kinds. Queries take the order sphere, capsule, hull, box, mesh; a pair
   the other way is swapped here (manifold flipped, sweep normal negated). New kinds go here. */
#include "shape_pair.h"
#include "collide/hull_mesh.h"
#include "collide/sat_hull.h"

enum { SPHERE, CAPSULE, HULL, BOX, MESH, KINDS };

static int kind(const spx_placed_shape* p)
{
    switch (p->shape->type) {
    case SPX_SHAPE_SPHERE:
        return SPHERE;
    case SPX_SHAPE_CAPSULE:
        return CAPSULE;
    case SPX_SHAPE_HULL:
        return HULL;
    case SPX_SHAPE_BOX:
        return BOX;
    default:
        return MESH;
    }
}

#define PAIR(x, y) ((x)*KINDS + (y))

/* Round and hull shapes posed, radius grown; boxes and meshes are read from the placed shape. */
typedef struct piece {
    spx_sphere s;
    spx_capsule c;
    spx_placed_hull h;
} piece;

static piece piece_of(const spx_placed_shape* p, float grow)
{
    piece q;
    spx_placed_shape g = *p;
    g.grow = grow;
    switch (kind(p)) {
    case SPHERE:
        q.s = spx_placed_sphere(&g);
        break;
    case CAPSULE:
        q.c = spx_placed_capsule(&g);
        break;
    case HULL:
        q.h = spx_placed_shape_hull(p);
        break;
    default:
        break;
    }
    return q;
}

/* The pair in the queries' order: x the lower rank (a on a tie), y the other; swapped when x is b. */
typedef struct ordered {
    const spx_placed_shape *x, *y;
    int pair;
    bool swapped;
} ordered;

static ordered order(const spx_placed_shape* a, const spx_placed_shape* b)
{
    ordered o;
    o.swapped = kind(b) < kind(a);
    o.x = o.swapped ? b : a;
    o.y = o.swapped ? a : b;
    o.pair = PAIR(kind(o.x), kind(o.y));
    return o;
}

uint32_t spx_shape_pair_manifolds(const spx_placed_shape* a, const spx_placed_shape* b, float margin, spx_manifold* out,
                                  uint32_t capacity, bool* flip)
{
    *flip = false;
    if (capacity == 0) return 0;
    const ordered o = order(a, b);
    *flip = o.swapped;
    const piece x = piece_of(o.x, o.x->grow), y = piece_of(o.y, o.y->grow);
    spx_mesh_instance* mesh = o.y->shape->instance;
    const spx_obb* box = &o.y->box;
    spx_result r = SPX_ERR_INVALID_ARGUMENT;
    uint32_t n = 1;
    switch (o.pair) {
    case PAIR(SPHERE, SPHERE):
        r = spx_manifold_sphere_sphere(&x.s, &y.s, margin, out);
        break;
    case PAIR(SPHERE, CAPSULE):
        r = spx_manifold_sphere_capsule(&x.s, &y.c, margin, out);
        break;
    case PAIR(SPHERE, HULL):
        r = spx_manifold_sphere_hull(&x.s, &y.h, margin, out);
        break;
    case PAIR(SPHERE, BOX):
        r = spx_manifold_sphere_obb(&x.s, box, margin, out);
        break;
    case PAIR(SPHERE, MESH):
        r = spx_manifold_sphere_mesh(&x.s, mesh, margin, out, capacity, &n);
        break;
    case PAIR(CAPSULE, CAPSULE):
        r = spx_manifold_capsule_capsule(&x.c, &y.c, margin, out);
        break;
    case PAIR(CAPSULE, HULL):
        r = spx_manifold_capsule_hull(&x.c, &y.h, margin, out);
        break;
    case PAIR(CAPSULE, BOX):
        r = spx_manifold_capsule_obb(&x.c, box, margin, out);
        break;
    case PAIR(CAPSULE, MESH):
        r = spx_manifold_capsule_mesh(&x.c, mesh, margin, out, capacity, &n);
        break;
    case PAIR(HULL, HULL):
        r = spx_manifold_hull_hull(&x.h, &y.h, margin, out);
        break;
    case PAIR(HULL, BOX):
        r = spx_manifold_hull_obb(&x.h, box, margin, out);
        break;
    case PAIR(HULL, MESH):
        r = spx_manifold_hull_mesh(&x.h, mesh, margin, out, capacity, &n);
        break;
    default:
        break; /* box-box, box-mesh, mesh-mesh: not pairs of this dispatch */
    }
    return r == SPX_OK ? n : 0;
}

bool spx_shape_pair_overlap(const spx_placed_shape* a, const spx_placed_shape* b)
{
    const ordered o = order(a, b);
    const piece x = piece_of(o.x, o.x->grow), y = piece_of(o.y, o.y->grow);
    spx_mesh_instance* mesh = o.y->shape->instance;
    const spx_obb* box = &o.y->box;
    bool hit = false;
    spx_result r = SPX_ERR_INVALID_ARGUMENT;
    switch (o.pair) {
    case PAIR(SPHERE, SPHERE):
        r = spx_overlap_sphere_sphere(&x.s, &y.s, &hit);
        break;
    case PAIR(SPHERE, CAPSULE):
        r = spx_overlap_sphere_capsule(&x.s, &y.c, &hit);
        break;
    case PAIR(SPHERE, HULL):
        r = spx_overlap_sphere_hull(&x.s, &y.h, &hit);
        break;
    case PAIR(SPHERE, BOX):
        r = spx_overlap_sphere_obb(&x.s, box, &hit);
        break;
    case PAIR(SPHERE, MESH):
        r = spx_overlap_sphere_mesh(&x.s, mesh, &hit);
        break;
    case PAIR(CAPSULE, CAPSULE):
        r = spx_overlap_capsule_capsule(&x.c, &y.c, &hit);
        break;
    case PAIR(CAPSULE, HULL):
        r = spx_overlap_capsule_hull(&x.c, &y.h, &hit);
        break;
    case PAIR(CAPSULE, BOX):
        r = spx_overlap_capsule_obb(&x.c, box, &hit);
        break;
    case PAIR(CAPSULE, MESH):
        r = spx_overlap_capsule_mesh(&x.c, mesh, &hit);
        break;
    case PAIR(HULL, HULL):
        r = spx_overlap_hull_hull(&x.h, &y.h, &hit);
        break;
    case PAIR(HULL, BOX):
        r = spx_overlap_hull_obb(&x.h, box, &hit);
        break;
    case PAIR(HULL, MESH):
        r = spx_overlap_hull_mesh(&x.h, mesh, &hit);
        break;
    default:
        break;
    }
    return r == SPX_OK && hit;
}

static bool can_grow(int k) { return k != HULL && k != MESH; }

bool spx_shape_pair_sweep(const spx_placed_shape* a, spx_vec3 va, const spx_placed_shape* b, spx_vec3 vb, float tmax,
                          spx_sweep_hit* out)
{
    const ordered o = order(a, b);
    const spx_vec3 vx = o.swapped ? vb : va, vy = o.swapped ? va : vb;
    const int kx = kind(o.x), ky = kind(o.y);
    /* Each takes the growth of a partner that cannot grow. */
    float gx = o.x->grow, gy = o.y->grow;
    if (can_grow(kx) && !can_grow(ky)) gx = o.x->grow + o.y->grow;
    if (can_grow(ky) && !can_grow(kx)) gy = o.y->grow + o.x->grow;
    const piece x = piece_of(o.x, gx), y = piece_of(o.y, gy);
    spx_mesh_instance* mesh = o.y->shape->instance;
    spx_obb box = o.y->box;
    box.half_extents = spx_v3(box.half_extents.x + gy, box.half_extents.y + gy, box.half_extents.z + gy);
    spx_result r = SPX_ERR_INVALID_ARGUMENT;
    switch (o.pair) {
    case PAIR(SPHERE, SPHERE):
        r = spx_sweep_sphere_sphere(&x.s, vx, &y.s, vy, tmax, out);
        break;
    case PAIR(SPHERE, CAPSULE):
        r = spx_sweep_sphere_capsule(&x.s, vx, &y.c, vy, tmax, out);
        break;
    case PAIR(SPHERE, HULL):
        r = spx_sweep_sphere_hull(&x.s, vx, &y.h, vy, tmax, out);
        break;
    case PAIR(SPHERE, BOX):
        r = spx_sweep_sphere_obb(&x.s, vx, &box, vy, tmax, out);
        break;
    case PAIR(SPHERE, MESH):
        r = spx_sweep_sphere_mesh(&x.s, vx, mesh, vy, tmax, out, NULL);
        break;
    case PAIR(CAPSULE, CAPSULE):
        r = spx_sweep_capsule_capsule(&x.c, vx, &y.c, vy, tmax, out);
        break;
    case PAIR(CAPSULE, HULL):
        r = spx_sweep_capsule_hull(&x.c, vx, &y.h, vy, tmax, out);
        break;
    case PAIR(CAPSULE, BOX):
        r = spx_sweep_capsule_obb(&x.c, vx, &box, vy, tmax, out);
        break;
    case PAIR(CAPSULE, MESH):
        r = spx_sweep_capsule_mesh(&x.c, vx, mesh, vy, tmax, out, NULL);
        break;
    case PAIR(HULL, BOX):
        r = spx_sweep_hull_obb(&x.h, vx, &box, vy, tmax, out);
        break;
    case PAIR(HULL, HULL):
    case PAIR(HULL, MESH):
        r = spx_hull_sweep_margin(&x.h, vx, o.y, vy, tmax, gx + gy, out);
        break;
    default:
        break;
    }
    if (r != SPX_OK) return false;
    if (o.swapped) out->normal = spx_v3(-out->normal.x, -out->normal.y, -out->normal.z);
    return true;
}
