/* Bodies: creation from defs, mass from shapes, ids, getters and setters. */
#include "world.h"
#include "math/glm_bridge.h"
#include "island.h"
#include "shape.h"
#include "filter.h"
#include "id_getter.h"
#include "core/allocator.h"
#include "geometry/validate.h"
#include "geometry/mesh.h"
#include "geometry/hull.h"
#include "math/simd.h"
#include <sepax/mass.h>
#include <float.h>
#include <math.h>
#include <string.h>

SPX_API spx_body_def spx_default_body_def(void)
{
    spx_body_def def;
    memset(&def, 0, sizeof def);
    def.type = SPX_BODY_STATIC;
    def.rotation.w = 1.0f;
    def.angular_damping = 0.05f;
    def.gravity_scale = 1.0f;
    def.friction = 0.6f;
    def.enable_sleep = true;
    def.awake = true;
    def.internal_cookie = SPX_BODY_DEF_COOKIE;
    return def;
}

SPX_API spx_shape_def spx_default_shape_def(void)
{
    spx_shape_def def;
    memset(&def, 0, sizeof def);
    def.type = SPX_SHAPE_BOX;
    def.half_extents = spx_v3(0.5f, 0.5f, 0.5f);
    def.radius = 0.5f;
    def.half_height = 0.5f;
    def.local.q.w = 1.0f;
    def.density = 1000.0f;
    def.friction = -1.0f; /* the body's */
    def.restitution = -1.0f;
    def.filter = spx_default_filter();
    def.internal_cookie = SPX_SHAPE_DEF_COOKIE;
    return def;
}

static bool finite_quat(spx_quat q) { return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w); }

static spx_result check_rotation(spx_quat q)
{
    if (!finite_quat(q)) return SPX_ERR_NOT_FINITE;
    double n2 = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
    return fabs(n2 - 1.0) > 2.0 * SPX_ROTATION_TOLERANCE ? SPX_ERR_NOT_ORTHONORMAL : SPX_OK;
}

/* m: the farthest corner of a hull from its frame's origin. */
static float hull_reach(const spx_hull* h)
{
    const spx_hull_view* v = &h->view;
    double far2 = 0.0;
    for (uint32_t i = 0; i < v->vertex_count; ++i) {
        const spx_vec3 p = v->vertices[i];
        far2 = fmax(far2, (double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z);
    }
    return (float)sqrt(far2);
}

spx_result spx_shape_check_def(const spx_shape_def* s, spx_body_type type)
{
    if (s->internal_cookie != SPX_SHAPE_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    if (s->type != SPX_SHAPE_BOX && s->type != SPX_SHAPE_MESH && s->type != SPX_SHAPE_SPHERE &&
        s->type != SPX_SHAPE_CAPSULE && s->type != SPX_SHAPE_HULL)
        return SPX_ERR_INVALID_ARGUMENT;
    if (s->type == SPX_SHAPE_MESH && !s->mesh) return SPX_ERR_INVALID_ARGUMENT;
    if (s->type == SPX_SHAPE_HULL && !s->hull) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(s->local.p) || !isfinite(s->density) || !isfinite(s->friction) || !isfinite(s->restitution))
        return SPX_ERR_NOT_FINITE;
    if (s->restitution > 1.0f) return SPX_ERR_INVALID_ARGUMENT; /* a negative friction or restitution: the body's */
    const bool round = s->type == SPX_SHAPE_SPHERE || s->type == SPX_SHAPE_CAPSULE;
    const float half_height = s->type == SPX_SHAPE_CAPSULE ? s->half_height : 0.0f;
    if (s->type == SPX_SHAPE_BOX && !spx_finite3(s->half_extents)) return SPX_ERR_NOT_FINITE;
    if (round && (!isfinite(s->radius) || !isfinite(half_height))) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(s->local.p) || (s->type == SPX_SHAPE_BOX && !spx_in_range3(s->half_extents)))
        return SPX_ERR_OUT_OF_RANGE;
    /* The bounding box's half length, radius + half height, must stay within range too. */
    if (round && !(fabsf(s->radius) + fabsf(half_height) <= SPX_MAX_COORDINATE)) return SPX_ERR_OUT_OF_RANGE;
    /* A hull's corners lie within range of its own origin; placed by the offset they must stay so. */
    if (s->type == SPX_SHAPE_HULL &&
        !(hull_reach(s->hull) + glms_vec3_norm(spx_to_glm_vec3(s->local.p)) <= SPX_MAX_COORDINATE))
        return SPX_ERR_OUT_OF_RANGE;
    if (s->type == SPX_SHAPE_BOX) {
        if (!(s->half_extents.x > 0.0f && s->half_extents.y > 0.0f && s->half_extents.z > 0.0f))
            return SPX_ERR_BAD_EXTENT;
    }
    if (round && !(s->radius > 0.0f && half_height >= 0.0f)) return SPX_ERR_BAD_EXTENT;
    if (type == SPX_BODY_DYNAMIC && !(s->density > 0.0f)) return SPX_ERR_BAD_DENSITY;
    return check_rotation(s->local.q);
}

/* Speeds within SPX_MAX_LINEAR_SPEED and SPX_MAX_ANGULAR_SPEED, measured in double (a float's square
   can overflow). Finite velocities assumed. */
static bool speeds_in_range(spx_vec3 v, spx_vec3 w)
{
    const double v2 = (double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z;
    const double w2 = (double)w.x * w.x + (double)w.y * w.y + (double)w.z * w.z;
    return v2 <= (double)SPX_MAX_LINEAR_SPEED * SPX_MAX_LINEAR_SPEED &&
           w2 <= (double)SPX_MAX_ANGULAR_SPEED * SPX_MAX_ANGULAR_SPEED;
}

static spx_result check_def(const spx_body_def* d)
{
    if (d->internal_cookie != SPX_BODY_DEF_COOKIE) return SPX_ERR_UNINITIALIZED_DEF;
    if (d->type != SPX_BODY_STATIC && d->type != SPX_BODY_KINEMATIC && d->type != SPX_BODY_DYNAMIC)
        return SPX_ERR_INVALID_ARGUMENT;
    if (!d->shapes || d->shape_count == 0 || d->shape_count > SPX_MAX_BODY_SHAPES) return SPX_ERR_INVALID_ARGUMENT;
    if (!spx_finite3(d->position) || !spx_finite3(d->linear_velocity) || !spx_finite3(d->angular_velocity) ||
        !isfinite(d->linear_damping) || !isfinite(d->angular_damping) || !isfinite(d->gravity_scale) ||
        !isfinite(d->friction) || !isfinite(d->restitution))
        return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(d->position)) return SPX_ERR_OUT_OF_RANGE;
    if (d->linear_damping < 0.0f || d->angular_damping < 0.0f || d->friction < 0.0f || d->restitution < 0.0f ||
        d->restitution > 1.0f)
        return SPX_ERR_INVALID_ARGUMENT;
    if (!speeds_in_range(d->linear_velocity, d->angular_velocity)) return SPX_ERR_SPEED_OUT_OF_RANGE;
    spx_result r = check_rotation(d->rotation);
    for (uint32_t i = 0; r == SPX_OK && i < d->shape_count; ++i) r = spx_shape_check_def(&d->shapes[i], d->type);
    return r;
}

/* I = P diag(moments) P^T by Jacobi in double; P made a rotation (a reflection's last column
   negated). A diagonal I gives the identity. */
static void principal_axes(const mat3s* I, vec3s* moments, versors* frame)
{
    double a[3][3], v[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) a[r][c] = 0.5 * ((double)I->col[c].raw[r] + (double)I->col[r].raw[c]);
    static const int pairs[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
    for (int sweep = 0; sweep < 32; ++sweep) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if (!(off > 1e-30 * diag)) break;
        for (int k = 0; k < 3; ++k) {
            const int p = pairs[k][0], q = pairs[k][1];
            if (a[p][q] == 0.0) continue;
            const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            const double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
            const double c = 1.0 / sqrt(t * t + 1.0), sn = t * c;
            for (int j = 0; j < 3; ++j) { /* a = J^T a J, v = v J */
                const double apj = a[p][j], aqj = a[q][j];
                a[p][j] = c * apj - sn * aqj, a[q][j] = sn * apj + c * aqj;
            }
            for (int j = 0; j < 3; ++j) {
                const double ajp = a[j][p], ajq = a[j][q];
                a[j][p] = c * ajp - sn * ajq, a[j][q] = sn * ajp + c * ajq;
                const double vjp = v[j][p], vjq = v[j][q];
                v[j][p] = c * vjp - sn * vjq, v[j][q] = sn * vjp + c * vjq;
            }
        }
    }
    const double det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) -
                       v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) +
                       v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
    mat3s P;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) P.col[c].raw[r] = (float)(c == 2 && det < 0.0 ? -v[r][c] : v[r][c]);
    *moments = (vec3s){ { (float)a[0][0], (float)a[1][1], (float)a[2][2] } };
    *frame = glms_quat_normalize(glms_mat3_quat(P));
}

static spx_result mass_from_shapes(const spx_shape_def* shapes, uint32_t shape_count, spx_body* b);

void spx_body_shape_init(spx_body_shape* bs, const spx_shape_def* s, float body_friction, float body_restitution)
{
    memset(bs, 0, sizeof *bs);
    bs->type = s->type;
    versors q = glms_quat_normalize(spx_to_glm_quat(s->local.q));
    mat3s rot = glms_quat_mat3(q);
    if (s->type == SPX_SHAPE_BOX) {
        bs->half_extents = spx_to_glm_vec3(s->half_extents);
        bs->local_center = spx_to_glm_vec3(s->local.p);
        bs->local_rotation = rot;
        bs->axes_aligned = q.x == 0.0f && q.y == 0.0f && q.z == 0.0f;
    } else if (s->type == SPX_SHAPE_SPHERE || s->type == SPX_SHAPE_CAPSULE) {
        /* Its box bounds it, the capsule's segment along the box's axis 1 (shape_round.h). */
        const float hh = s->type == SPX_SHAPE_CAPSULE ? s->half_height : 0.0f;
        bs->round_radius = s->radius;
        bs->half_height = hh;
        bs->half_extents = (vec3s){ { s->radius, hh + s->radius, s->radius } };
        bs->local_center = spx_to_glm_vec3(s->local.p);
        bs->local_rotation = rot;
        bs->axes_aligned = q.x == 0.0f && q.y == 0.0f && q.z == 0.0f;
    } else if (s->type == SPX_SHAPE_HULL) {
        /* The box of its corners in its own frame, placed and turned with it. */
        const spx_hull_view* v = &s->hull->view;
        vec3s lo = { { FLT_MAX, FLT_MAX, FLT_MAX } }, hi = { { -FLT_MAX, -FLT_MAX, -FLT_MAX } };
        for (uint32_t i = 0; i < v->vertex_count; ++i) {
            lo = glms_vec3_minv(lo, spx_to_glm_vec3(v->vertices[i]));
            hi = glms_vec3_maxv(hi, spx_to_glm_vec3(v->vertices[i]));
        }
        bs->hull = s->hull;
        bs->hull_center = glms_vec3_scale(glms_vec3_add(lo, hi), 0.5f);
        /* Grown by the rounding of the centre's halving so that the box holds every corner. */
        const vec3s half = glms_vec3_scale(glms_vec3_sub(hi, lo), 0.5f);
        float far = 0.0f;
        for (int k = 0; k < 3; ++k) far = fmaxf(far, fmaxf(fabsf(lo.raw[k]), fabsf(hi.raw[k])));
        const float pad = 4.0f * FLT_EPSILON * far;
        bs->half_extents = glms_vec3_adds(half, pad);
        bs->local_center = glms_vec3_add(spx_to_glm_vec3(s->local.p), glms_mat3_mulv(rot, bs->hull_center));
        bs->local_rotation = rot;
        bs->axes_aligned = q.x == 0.0f && q.y == 0.0f && q.z == 0.0f;
    } else {
        bs->mesh = s->mesh;
        bs->mesh_local.p = s->local.p;
        bs->mesh_local.q = spx_from_glm_quat(q);
        const spx_obb* root = &s->mesh->nodes[0].box;
        mat3s root_axes;
        for (int k = 0; k < 3; ++k) root_axes.col[k] = spx_to_glm_vec3(root->rotation.col[k]);
        bs->half_extents = spx_to_glm_vec3(root->half_extents);
        bs->local_center =
            glms_vec3_add(spx_to_glm_vec3(s->local.p), glms_mat3_mulv(rot, spx_to_glm_vec3(root->center)));
        bs->local_rotation = glms_mat3_mul(rot, root_axes);
    }
    bs->local = s->local;
    bs->density = s->density;
    bs->friction = s->friction < 0.0f ? body_friction : s->friction;
    bs->restitution = s->restitution < 0.0f ? body_restitution : s->restitution;
    bs->user_data = s->user_data;
    bs->filter = s->filter;
    bs->sensor = s->is_sensor;
}

spx_shape_def spx_body_shape_def(const spx_body_shape* bs)
{
    spx_shape_def d = spx_default_shape_def();
    d.type = bs->type;
    d.local = bs->local;
    d.density = bs->density;
    d.friction = bs->friction;
    d.restitution = bs->restitution;
    d.user_data = bs->user_data;
    d.filter = bs->filter;
    d.is_sensor = bs->sensor;
    if (bs->type == SPX_SHAPE_BOX) d.half_extents = spx_from_glm_vec3(bs->half_extents);
    else if (bs->type == SPX_SHAPE_MESH) d.mesh = bs->mesh;
    else if (bs->type == SPX_SHAPE_HULL) d.hull = bs->hull;
    else d.radius = bs->round_radius, d.half_height = bs->half_height;
    return d;
}

spx_result spx_body_update_mass(spx_body* b)
{
    if (b->type != SPX_BODY_DYNAMIC) return SPX_OK;
    spx_shape_def defs[SPX_MAX_BODY_SHAPES];
    for (uint32_t i = 0; i < b->shape_count; ++i) defs[i] = spx_body_shape_def(&b->shapes[i]);
    return mass_from_shapes(defs, b->shape_count, b);
}

void spx_body_set_radii(spx_body* b)
{
    float radius = 0.0f;
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        spx_body_shape* bs = &b->shapes[i];
        if (bs->type == SPX_SHAPE_BOX) {
            /* Sphere about the centre of mass: the box's centre offset plus its half diagonal. */
            bs->radius =
                glms_vec3_norm(glms_vec3_sub(bs->local_center, b->local_center)) + glms_vec3_norm(bs->half_extents);
        } else if (bs->type == SPX_SHAPE_HULL) {
            /* Sphere about the centre of mass through the farthest corner. */
            const mat3s rot = glms_quat_mat3(glms_quat_normalize(spx_to_glm_quat(bs->local.q)));
            const spx_hull_view* v = &bs->hull->view;
            float far2 = 0.0f;
            for (uint32_t k = 0; k < v->vertex_count; ++k) {
                const vec3s p =
                    glms_vec3_add(spx_to_glm_vec3(bs->local.p), glms_mat3_mulv(rot, spx_to_glm_vec3(v->vertices[k])));
                far2 = fmaxf(far2, glms_vec3_norm2(glms_vec3_sub(p, b->local_center)));
            }
            bs->radius = sqrtf(far2) * (1.0f + 4.0f * FLT_EPSILON);
        } else if (bs->type != SPX_SHAPE_MESH) {
            /* A sphere or capsule: its centre's offset plus half its length, a little grown for rounding. */
            bs->radius = (glms_vec3_norm(glms_vec3_sub(bs->local_center, b->local_center)) + bs->half_extents.y) *
                         (1.0f + 4.0f * FLT_EPSILON);
        } else {
            /* Sphere about the centre of mass through the farthest corner: tighter than the root box's
               and what the broad phase's sweep of the turning body needs. */
            const mat3s rot = glms_quat_mat3(glms_quat_normalize(spx_to_glm_quat(bs->local.q)));
            float far2 = 0.0f;
            for (uint32_t t = 0; t < bs->mesh->triangle_count; ++t) {
                const spx_vec3* corner = &bs->mesh->triangles[t].v[0];
                for (int k = 0; k < 3; ++k) {
                    vec3s p =
                        glms_vec3_add(spx_to_glm_vec3(bs->local.p), glms_mat3_mulv(rot, spx_to_glm_vec3(corner[k])));
                    float d2 = glms_vec3_norm2(glms_vec3_sub(p, b->local_center));
                    if (d2 > far2) far2 = d2;
                }
            }
            bs->radius = sqrtf(far2) * (1.0f + 4.0f * FLT_EPSILON);
        }
        if (bs->radius > radius) radius = bs->radius;
    }
    b->radius = radius;
}

spx_result spx_body_make_instance(const spx_world* w, spx_body_shape* bs)
{
    if (bs->type != SPX_SHAPE_MESH) return SPX_OK;
    spx_mesh_instance_def def = spx_default_mesh_instance_def(); /* at the identity until posed */
    def.mesh = bs->mesh;
    def.allocator = w->allocator.alloc ? &w->allocator : NULL;
    return spx_mesh_instance_create(&def, &bs->instance) == SPX_OK ? SPX_OK : SPX_ERR_OUT_OF_MEMORY;
}

void spx_body_count_shapes(spx_world* w, spx_body* b)
{
    uint32_t boxes = 0, sensors = 0;
    b->filtered = false;
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        boxes += b->shapes[i].type != SPX_SHAPE_MESH;
        sensors += b->shapes[i].sensor;
        b->filtered |= !spx_filter_is_default(&b->shapes[i].filter) || b->shapes[i].sensor;
    }
    b->box_count = boxes;
    w->sensor_shape_count = w->sensor_shape_count - b->sensor_count + sensors;
    b->sensor_count = sensors;
    /* Without the mesh pair cache queries are slower, not wrong: failure is no error. */
    if (boxes < b->shape_count) spx_contacts_reserve_mesh_pairs(&w->contacts, &w->allocator);
}

mat3s spx_mat3_inverse(mat3s m)
{
    float big = 0.0f;
    for (int k = 0; k < 9; ++k) big = fmaxf(big, fabsf(m.raw[k / 3][k % 3]));
    if (!(big > 0.0f) || !isfinite(big)) return glms_mat3_zero();
    int e;
    (void)frexpf(big, &e);
    const float down = ldexpf(1.0f, -e); /* exact: scaling by a power of two rounds nothing */
    return glms_mat3_scale(glms_mat3_inv(glms_mat3_scale(m, down)), down);
}

/* Moments below SPX_BODY_MIN_INERTIA or SPX_BODY_MIN_INERTIA_RATIO of the largest (rounding can
   leave a needle's negative) are floored and both tensors remade in double; else I is inverted. */
static void invert_inertia(spx_body* b, mat3s I)
{
    vec3s* m = &b->principal_inertia;
    const float largest = fmaxf(m->x, fmaxf(m->y, m->z));
    const float least = fmaxf(SPX_BODY_MIN_INERTIA, SPX_BODY_MIN_INERTIA_RATIO * largest);
    if (m->x >= least && m->y >= least && m->z >= least) {
        b->inertia_local = I;
        b->inv_inertia_local = spx_mat3_inverse(I);
        return;
    }
    for (int k = 0; k < 3; ++k) m->raw[k] = fmaxf(m->raw[k], least);
    const mat3s P = glms_quat_mat3(b->principal); /* columns: the principal axes in the body's frame */
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            double direct = 0.0, inverse = 0.0; /* P diag(m) P^T and P diag(1 / m) P^T */
            for (int k = 0; k < 3; ++k) {
                const double pp = (double)P.col[k].raw[r] * P.col[k].raw[c];
                direct += pp * m->raw[k], inverse += pp / m->raw[k];
            }
            b->inertia_local.col[c].raw[r] = (float)direct;
            b->inv_inertia_local.col[c].raw[r] = (float)inverse;
        }
}

static spx_result mass_from_shapes(const spx_shape_def* shapes, uint32_t shape_count, spx_body* b)
{
    double mass = 0.0, c[3] = { 0, 0, 0 };
    spx_mass_properties parts[SPX_MAX_BODY_SHAPES];
    spx_vec3 part_center[SPX_MAX_BODY_SHAPES]; /* each part's centre of mass in the body's frame */
    for (uint32_t i = 0; i < shape_count; ++i) {
        const spx_shape_def* sd = &shapes[i];
        /* A mesh that is not closed, or is inside out, has no mass: its error goes to the host. */
        spx_result r;
        if (sd->type == SPX_SHAPE_MESH) {
            r = spx_mass_mesh(sd->mesh, sd->density, &parts[i]);
        } else if (sd->type == SPX_SHAPE_HULL) {
            r = spx_mass_hull(sd->hull, sd->density, &parts[i]); /* in the hull's frame, turned below */
        } else if (sd->type == SPX_SHAPE_SPHERE) {
            const spx_sphere ball = { { 0.0f, 0.0f, 0.0f }, sd->radius };
            r = spx_mass_sphere(&ball, sd->density, &parts[i]);
        } else if (sd->type == SPX_SHAPE_CAPSULE) {
            /* In the shape's frame, the segment along y: the tensor is turned into the body's below. */
            const spx_capsule cap = { { { 0.0f, -sd->half_height, 0.0f }, { 0.0f, sd->half_height, 0.0f } },
                                      sd->radius };
            r = spx_mass_capsule(&cap, sd->density, &parts[i]);
        } else {
            r = spx_mass_box(sd->half_extents, sd->density, &parts[i]);
        }
        if (r != SPX_OK) return r;
        vec3s pc =
            glms_quat_rotatev(glms_quat_normalize(spx_to_glm_quat(sd->local.q)), spx_to_glm_vec3(parts[i].center));
        part_center[i] = spx_from_glm_vec3(glms_vec3_add(spx_to_glm_vec3(sd->local.p), pc));
        const spx_vec3 p = part_center[i];
        mass += parts[i].mass;
        c[0] += parts[i].mass * (double)p.x, c[1] += parts[i].mass * (double)p.y, c[2] += parts[i].mass * (double)p.z;
    }
    /* Each part fits a float (spx_mass_box, spx_mass_mesh); their sum must fit the solver. */
    if (!(mass >= SPX_BODY_MIN_MASS && mass <= SPX_BODY_MAX_MASS)) return SPX_ERR_MASS_OUT_OF_RANGE;
    c[0] /= mass, c[1] /= mass, c[2] /= mass;
    double inertia[3][3] = { { 0 } };
    for (uint32_t i = 0; i < shape_count; ++i) {
        /* The shape's tensor turned into the body frame (R I R^T), then moved to the common centre. */
        mat3s rot = glms_quat_mat3(glms_quat_normalize(spx_to_glm_quat(shapes[i].local.q)));
        const spx_mat3* I = &parts[i].inertia;
        const spx_vec3 p = part_center[i];
        double off[3] = { p.x - c[0], p.y - c[1], p.z - c[2] };
        double o2 = off[0] * off[0] + off[1] * off[1] + off[2] * off[2];
        const float* Icol[3] = { &I->col[0].x, &I->col[1].x, &I->col[2].x };
        for (int r = 0; r < 3; ++r) {
            for (int k = 0; k < 3; ++k) {
                double sum = 0.0;
                for (int m = 0; m < 3; ++m)
                    for (int q = 0; q < 3; ++q) sum += (double)rot.col[m].raw[r] * Icol[q][m] * rot.col[q].raw[k];
                sum += parts[i].mass * ((r == k ? o2 : 0.0) - off[r] * off[k]);
                inertia[r][k] += sum;
            }
        }
    }
    mat3s Im;
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) {
            if (!(fabs(inertia[r][k]) <= SPX_BODY_MAX_INERTIA)) return SPX_ERR_MASS_OUT_OF_RANGE;
            Im.col[k].raw[r] = (float)inertia[r][k];
        }
    b->mass = (float)mass;
    b->inv_mass = (float)(1.0 / mass);
    b->local_center = (vec3s){ { (float)c[0], (float)c[1], (float)c[2] } };
    principal_axes(&Im, &b->principal_inertia, &b->principal);
    invert_inertia(b, Im);
    /* 0.5 sqrt(1 / (mass |I^-1|_F)): docs/world.md, "How the solver is laid out". */
    double f2 = 0.0; /* in double: a small body's I^-1 squared is beyond float */
    for (int k = 0; k < 9; ++k)
        f2 += (double)b->inv_inertia_local.raw[k / 3][k % 3] * b->inv_inertia_local.raw[k / 3][k % 3];
    b->lever_limit = f2 > 0.0 ? (float)(0.5 * sqrt(b->inv_mass / sqrt(f2))) : INFINITY;
    /* All round: contacts stay under its centre, so no lever shift (shifted, the normal force
       would act ahead of a rolling ball's centre and brake it). */
    bool all_round = true;
    for (uint32_t i = 0; i < shape_count; ++i)
        all_round &= shapes[i].type == SPX_SHAPE_SPHERE || shapes[i].type == SPX_SHAPE_CAPSULE;
    if (all_round) b->lever_limit = 0.0f;
    return SPX_OK;
}

#if SPX_HAS_SIMD
/* Column k as the scalar formula below: lane i is 2 (p_i +- q_i), or 1 minus that in lane k. */
static inline spx_f4 quat_column(spx_f4 p, spx_f4 q, spx_f4 negate, spx_f4 k)
{
    /* p - q as p + (-q): the same float. */
    const spx_f4 t = spx_f4_mul(spx_f4_splat(2.0f), spx_f4_add(p, spx_f4_xor(q, negate)));
    return spx_f4_or(spx_f4_and(k, spx_f4_sub(spx_f4_splat(1.0f), t)), spx_f4_andnot(k, t));
}
#endif

spx_obb spx_body_make_box(const spx_body* b, const spx_body_shape* s)
{
#if SPX_HAS_SIMD
    /* SSE2 columns, the same operations as the scalar formula, so the same floats. */
    const spx_f4 q = spx_f4_load(&b->rotation.x);
    const spx_f4 neg2 = spx_i4_as_f4(spx_i4_set(0, 0, (int)0x80000000u, 0));
    const spx_f4 neg1 = spx_i4_as_f4(spx_i4_set(0, (int)0x80000000u, 0, 0));
    const spx_f4 neg0 = spx_i4_as_f4(spx_i4_set((int)0x80000000u, 0, 0, 0));
    const spx_f4 lane0 = spx_i4_as_f4(spx_i4_set(-1, 0, 0, 0)), lane1 = spx_i4_as_f4(spx_i4_set(0, -1, 0, 0));
    const spx_f4 lane2 = spx_i4_as_f4(spx_i4_set(0, 0, -1, 0));
    /* (1 - 2(yy + zz), 2(xy + wz), 2(xz - wy)), (2(xy - wz), 1 - 2(xx + zz), 2(yz + wx)),
       (2(xz + wy), 2(yz - wx), 1 - 2(xx + yy)); lanes x 0, y 1, z 2, w 3. */
    const spx_f4 r0 =
        quat_column(spx_f4_mul(SPX_F4_SWIZZLE(q, 1, 0, 0, 0), SPX_F4_SWIZZLE(q, 1, 1, 2, 0)),
                    spx_f4_mul(SPX_F4_SWIZZLE(q, 2, 3, 3, 0), SPX_F4_SWIZZLE(q, 2, 2, 1, 0)), neg2, lane0);
    const spx_f4 r1 =
        quat_column(spx_f4_mul(SPX_F4_SWIZZLE(q, 0, 0, 1, 0), SPX_F4_SWIZZLE(q, 1, 0, 2, 0)),
                    spx_f4_mul(SPX_F4_SWIZZLE(q, 3, 2, 3, 0), SPX_F4_SWIZZLE(q, 2, 2, 0, 0)), neg0, lane1);
    const spx_f4 r2 =
        quat_column(spx_f4_mul(SPX_F4_SWIZZLE(q, 0, 1, 0, 0), SPX_F4_SWIZZLE(q, 2, 2, 0, 0)),
                    spx_f4_mul(SPX_F4_SWIZZLE(q, 3, 3, 1, 0), SPX_F4_SWIZZLE(q, 1, 0, 1, 0)), neg1, lane2);
    const vec3s c = s->local_center;
    const spx_f4 center =
        spx_f4_add(spx_f4_add(spx_f4_add(spx_f4_load(&b->origin.x), spx_f4_mul(r0, spx_f4_splat(c.x))),
                              spx_f4_mul(r1, spx_f4_splat(c.y))),
                   spx_f4_mul(r2, spx_f4_splat(c.z)));
    spx_f4 col[3] = { r0, r1, r2 };
    if (!s->axes_aligned)
        for (int i = 0; i < 3; ++i) {
            const vec3s l = s->local_rotation.col[i];
            col[i] = spx_f4_add(spx_f4_add(spx_f4_mul(r0, spx_f4_splat(l.x)), spx_f4_mul(r1, spx_f4_splat(l.y))),
                                spx_f4_mul(r2, spx_f4_splat(l.z)));
        }
    /* spx_obb is 15 floats: centre, half extents, the three columns. */
    float out[16];
    spx_f4_store(out, center);
    spx_f4_store(out + 3, spx_f4_load(&s->half_extents.x));
    spx_f4_store(out + 6, col[0]);
    spx_f4_store(out + 9, col[1]);
    spx_f4_store(out + 12, col[2]);
    spx_obb box;
    memcpy(&box, out, sizeof box);
    return box;
#else
    /* Written out in scalars: the struct-returning matrix helpers do not inline here. */
    const float x = b->rotation.x, y = b->rotation.y, z = b->rotation.z, w = b->rotation.w;
    const float r[3][3] = { /* r[i]: column i */
                            { 1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y + w * z), 2.0f * (x * z - w * y) },
                            { 2.0f * (x * y - w * z), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z + w * x) },
                            { 2.0f * (x * z + w * y), 2.0f * (y * z - w * x), 1.0f - 2.0f * (x * x + y * y) }
    };
    const vec3s c = s->local_center;
    spx_obb box;
    box.center.x = b->origin.x + r[0][0] * c.x + r[1][0] * c.y + r[2][0] * c.z;
    box.center.y = b->origin.y + r[0][1] * c.x + r[1][1] * c.y + r[2][1] * c.z;
    box.center.z = b->origin.z + r[0][2] * c.x + r[1][2] * c.y + r[2][2] * c.z;
    box.half_extents = spx_from_glm_vec3(s->half_extents);
    for (int i = 0; i < 3; ++i) {
        const vec3s l = s->local_rotation.col[i];
        if (s->axes_aligned) {
            box.rotation.col[i] = spx_v3(r[i][0], r[i][1], r[i][2]);
        } else {
            box.rotation.col[i].x = r[0][0] * l.x + r[1][0] * l.y + r[2][0] * l.z;
            box.rotation.col[i].y = r[0][1] * l.x + r[1][1] * l.y + r[2][1] * l.z;
            box.rotation.col[i].z = r[0][2] * l.x + r[1][2] * l.y + r[2][2] * l.z;
        }
    }
    return box;
#endif
}

void spx_body_update_boxes(spx_body* b)
{
    for (uint32_t i = 0; i < b->shape_count; ++i) {
        spx_body_shape* s = &b->shapes[i];
        s->world_box = spx_body_make_box(b, s);
        s->world_box_valid = s->type == SPX_SHAPE_BOX && spx_obb_validate(&s->world_box) == SPX_OK;
    }
    b->boxes_origin = b->origin;
    b->boxes_rotation = b->rotation;
    b->boxes_matrix = glms_quat_mat3(b->rotation);
}

bool spx_body_pose_mesh(const spx_body* b, const spx_body_shape* s)
{
    versors lq = { { s->mesh_local.q.x, s->mesh_local.q.y, s->mesh_local.q.z, s->mesh_local.q.w } };
    versors q = glms_quat_mul(b->rotation, lq);
    spx_transform pose;
    pose.p =
        spx_from_glm_vec3(glms_vec3_add(b->origin, glms_quat_rotatev(b->rotation, spx_to_glm_vec3(s->mesh_local.p))));
    pose.q = spx_from_glm_quat(q);
    /* A body gone non-finite is refused here: the narrow phase then skips the shape. */
    return spx_mesh_instance_set_pose(s->instance, &pose) == SPX_OK;
}

void spx_body_free_shapes(const spx_allocator* allocator, spx_body* b)
{
    if (!b->shapes) return;
    for (uint32_t i = 0; i < b->shape_count; ++i) spx_mesh_instance_destroy(b->shapes[i].instance);
    spx_free(allocator, b->shapes, sizeof(spx_body_shape) * b->shape_count);
    b->shapes = NULL;
}

#if SPX_HAS_SIMD && defined(CGLM_SSE_FP) && defined(CGLM_SIMD) && !defined(__FMA__)
/* Column i of m1 m2 as cglm's SSE2 glm_mat3_mul: row j is (a0 b0 + a1 b1) + a2 b2. */
static inline spx_f4 mul_column(spx_f4 c0, spx_f4 c1, spx_f4 c2, float m0, float m1, float m2)
{
    const spx_f4 head = spx_f4_add(spx_f4_mul(c0, spx_f4_splat(m0)), spx_f4_mul(c1, spx_f4_splat(m1)));
    return spx_f4_add(head, spx_f4_mul(c2, spx_f4_splat(m2)));
}

/* cglm's [2][2] is a horizontal sum (p0 + p1) + (p2 + 0); adding (-0, -0, +0) reproduces its +0. */
static inline spx_f4 mul_column2(spx_f4 c0, spx_f4 c1, spx_f4 c2, float m0, float m1, float m2)
{
    const spx_f4 head = spx_f4_add(spx_f4_mul(c0, spx_f4_splat(m0)), spx_f4_mul(c1, spx_f4_splat(m1)));
    return spx_f4_add(head, spx_f4_add(spx_f4_mul(c2, spx_f4_splat(m2)), spx_f4_set(-0.0f, -0.0f, 0.0f, 0.0f)));
}
#endif

float spx_body_kinetic_energy(const spx_body* b, versors q)
{
    if (b->type != SPX_BODY_DYNAMIC) return 0.0f;
    const vec3s w = glms_quat_rotatev(glms_quat_conjugate(q), b->w); /* in the body's frame */
    return 0.5f * b->mass * glms_vec3_norm2(b->v) + 0.5f * glms_vec3_dot(w, glms_mat3_mulv(b->inertia_local, w));
}

mat3s spx_body_inv_inertia_world(const spx_body* b)
{
#if SPX_HAS_SIMD && defined(CGLM_SSE_FP) && defined(CGLM_SIMD) && !defined(__FMA__)
    /* r I^-1 r^T operation for operation as cglm under SSE2 (same floats), kept in registers: half
       the cost of the general products, asked twice a body a step. */
    const float norm = glms_quat_norm(b->rotation);
    const float s = norm > 0.0f ? 2.0f / norm : 0.0f;
    const float x = b->rotation.x, y = b->rotation.y, z = b->rotation.z, w = b->rotation.w;
    const float xx = s * x * x, xy = s * x * y, wx = s * w * x;
    const float yy = s * y * y, yz = s * y * z, wy = s * w * y;
    const float zz = s * z * z, xz = s * x * z, wz = s * w * z;
    const float r[3][3] = { { 1.0f - yy - zz, xy + wz, xz - wy },
                            { xy - wz, 1.0f - xx - zz, yz + wx },
                            { xz + wy, yz - wx, 1.0f - xx - yy } };
    const spx_f4 r0 = spx_f4_set(r[0][0], r[0][1], r[0][2], 0.0f);
    const spx_f4 r1 = spx_f4_set(r[1][0], r[1][1], r[1][2], 0.0f);
    const spx_f4 r2 = spx_f4_set(r[2][0], r[2][1], r[2][2], 0.0f);
    const mat3s* in = &b->inv_inertia_local;
    const spx_f4 t0 = mul_column(r0, r1, r2, in->col[0].x, in->col[0].y, in->col[0].z);
    const spx_f4 t1 = mul_column(r0, r1, r2, in->col[1].x, in->col[1].y, in->col[1].z);
    const spx_f4 t2 = mul_column2(r0, r1, r2, in->col[2].x, in->col[2].y, in->col[2].z);
    /* Times r^T, whose column i is row i of r. */
    const spx_f4 w0 = mul_column(t0, t1, t2, r[0][0], r[1][0], r[2][0]);
    const spx_f4 w1 = mul_column(t0, t1, t2, r[0][1], r[1][1], r[2][1]);
    const spx_f4 w2 = mul_column2(t0, t1, t2, r[0][2], r[1][2], r[2][2]);
    float out[12];
    spx_f4_store(out, w0);
    spx_f4_store(out + 3, w1);
    spx_f4_store(out + 6, w2);
    mat3s m;
    memcpy(&m, out, sizeof m);
    return m;
#else
    mat3s r = glms_quat_mat3(b->rotation);
    return glms_mat3_mul(glms_mat3_mul(r, b->inv_inertia_local), glms_mat3_transpose(r));
#endif
}

void spx_body_sync_origin(spx_body* b)
{
    b->origin = glms_vec3_sub(b->center, glms_quat_rotatev(b->rotation, b->local_center));
}

static void place(spx_body* b, spx_vec3 position, spx_quat rotation)
{
    b->rotation = glms_quat_normalize(spx_to_glm_quat(rotation));
    b->origin = spx_to_glm_vec3(position);
    b->center = glms_vec3_add(b->origin, glms_quat_rotatev(b->rotation, b->local_center));
}

uint32_t spx_body_lookup(const spx_world* w, spx_body_id id)
{
    if (!w || id.world != w->number || id.index == 0 || id.index > w->body_slots) return SPX_NO_BODY;
    const spx_body* b = &w->bodies[id.index - 1];
    return b->alive && b->generation == id.generation ? id.index - 1 : SPX_NO_BODY;
}

SPX_API bool spx_body_is_valid(const spx_world* w, spx_body_id id) { return spx_body_lookup(w, id) != SPX_NO_BODY; }

spx_result spx_body_list(const spx_world* w, spx_body_id id, void* out, uint32_t capacity, uint32_t* out_count,
                         spx_body_fill fill)
{
    if (!w || !out_count || (!out && capacity > 0)) return SPX_ERR_INVALID_ARGUMENT;
    const uint32_t slot = spx_body_lookup(w, id);
    if (slot == SPX_NO_BODY) return SPX_ERR_STALE_ID;
    *out_count = fill(w, slot, out, capacity);
    return SPX_OK;
}

SPX_API spx_result spx_body_create(spx_world* w, const spx_body_def* def, spx_body_id* out)
{
    if (!w || !def || !out) return SPX_ERR_INVALID_ARGUMENT;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    spx_result r = check_def(def);
    if (r != SPX_OK) return r;
    const bool awake = def->type != SPX_BODY_STATIC && def->awake;
    spx_body b = { .type = def->type,
                   .inertia_local = glms_mat3_zero(),
                   .inv_inertia_local = glms_mat3_zero(),
                   .lever_limit = INFINITY,
                   .linear_damping = def->linear_damping,
                   .angular_damping = def->angular_damping,
                   .gravity_scale = def->gravity_scale,
                   .friction = def->friction,
                   .restitution = def->restitution,
                   .enable_sleep = def->enable_sleep,
                   .awake = awake,
                   .was_awake = awake,
                   .user_data = def->user_data,
                   .island_next = SPX_NO_BODY,
                   .alive = true };
    if (def->type == SPX_BODY_DYNAMIC && (r = mass_from_shapes(def->shapes, def->shape_count, &b)) != SPX_OK) return r;
    /* A slot, and room for everything a step sizes per body, before anything changes. */
    uint32_t slot = w->free_list != SPX_NO_BODY ? w->free_list : w->body_slots;
    if (slot >= SPX_PAIR_FINDER_MAX_BODIES - 1) return SPX_ERR_OUT_OF_MEMORY;
    if ((r = spx_world_reserve_bodies(w, slot + 1)) != SPX_OK) return r;
    size_t shape_bytes = sizeof(spx_body_shape) * def->shape_count;
    b.shapes = spx_alloc(&w->allocator, shape_bytes, 16);
    if (!b.shapes) return SPX_ERR_OUT_OF_MEMORY;
    memset(b.shapes, 0, shape_bytes);
    b.shape_count = def->shape_count;
    for (uint32_t i = 0; i < def->shape_count; ++i)
        spx_body_shape_init(&b.shapes[i], &def->shapes[i], def->friction, def->restitution);
    spx_body_set_radii(&b);
    place(&b, def->position, def->rotation);
    spx_body_update_boxes(&b);
    for (uint32_t i = 0; i < def->shape_count; ++i)
        if (spx_body_make_instance(w, &b.shapes[i]) != SPX_OK) {
            spx_body_free_shapes(&w->allocator, &b);
            return SPX_ERR_OUT_OF_MEMORY;
        }
    if (def->type != SPX_BODY_STATIC) {
        b.v = spx_to_glm_vec3(def->linear_velocity);
        b.w = spx_to_glm_vec3(def->angular_velocity);
    }
    if ((r = spx_shape_slots_reserve(w, b.shape_count)) != SPX_OK ||
        (r = spx_world_track_body(w, slot, &b)) != SPX_OK) {
        spx_body_free_shapes(&w->allocator, &b);
        return r;
    }
    for (uint32_t k = 0; k < b.shape_count; ++k) b.shapes[k].slot = spx_shape_slot_take(w, slot, k);
    if (slot == w->free_list) w->free_list = w->bodies[slot].next_free;
    else ++w->body_slots;
    /* 1..65535 and round again: an id kept through 65,535 reuses of its slot would name the body anew. */
    b.generation = (uint16_t)(w->bodies[slot].generation % 0xFFFFu + 1u);
    w->bodies[slot] = b;
    spx_body_count_shapes(w, &w->bodies[slot]);
    /* A body created asleep sleeps alone until something touches it. */
    if (b.type == SPX_BODY_DYNAMIC && !b.awake) w->bodies[slot].island_next = slot;
    ++w->body_count;
    *out = spx_world_body_id(w, slot);
    return SPX_OK;
}

SPX_API spx_result spx_body_destroy(spx_world* w, spx_body_id id)
{
    if (!w) return SPX_ERR_INVALID_ARGUMENT;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    uint32_t i = spx_body_lookup(w, id);
    if (i == SPX_NO_BODY) return SPX_ERR_STALE_ID;
    spx_body* b = &w->bodies[i];
    /* Wake what it held up: a sleeping stack must not hang in the air. */
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (c->body_a == i) spx_island_wake(w, c->body_b);
        if (c->body_b == i) spx_island_wake(w, c->body_a);
    }
    spx_result r = spx_contacts_remove_body(w, i);
    if (r != SPX_OK) return r;
    spx_joints_remove_body(w, i);                                        /* wakes the bodies they held */
    if (b->type == SPX_BODY_DYNAMIC && !b->awake) spx_island_wake(w, i); /* unchain it from its island */
    spx_pair_finder_remove(w->pairs, i);
    for (uint32_t k = 0; k < b->shape_count; ++k) spx_shape_slot_release(w, b->shapes[k].slot);
    w->sensor_shape_count -= b->sensor_count;
    spx_body_free_shapes(&w->allocator, b);
    uint16_t generation = b->generation;
    memset(b, 0, sizeof *b);
    b->generation = generation;
    b->next_free = w->free_list;
    b->island_next = SPX_NO_BODY;
    w->free_list = i;
    --w->body_count;
    return SPX_OK;
}

#define LOOKUP(w, id, i)                       \
    if (!(w)) return SPX_ERR_INVALID_ARGUMENT; \
    uint32_t i = spx_body_lookup((w), (id));   \
    if (i == SPX_NO_BODY) return SPX_ERR_STALE_ID

/* LOOKUP for a call that changes the body: refused inside a step's callbacks. */
#define CHANGE(w, id, i) \
    LOOKUP(w, id, i);    \
    if ((w)->locked) return SPX_ERR_WORLD_LOCKED

static spx_transform transform_of(const spx_body* b)
{
    return (spx_transform){ spx_from_glm_vec3(b->origin),
                            { b->rotation.x, b->rotation.y, b->rotation.z, b->rotation.w } };
}

#define BODY_GETTER(function, out_type, value) \
    SPX_ID_GETTER(function, spx_body_id, spx_body_lookup, SPX_NO_BODY, out_type, value)

BODY_GETTER(spx_body_get_transform, spx_transform, transform_of(&w->bodies[slot]))
BODY_GETTER(spx_body_get_center_of_mass, spx_vec3, spx_from_glm_vec3(w->bodies[slot].center))
BODY_GETTER(spx_body_get_mass, float, w->bodies[slot].mass)
BODY_GETTER(spx_body_get_type, spx_body_type, w->bodies[slot].type)
BODY_GETTER(spx_body_is_awake, bool, w->bodies[slot].awake)
BODY_GETTER(spx_body_get_user_data, void*, w->bodies[slot].user_data)

SPX_API spx_result spx_body_set_transform(spx_world* w, spx_body_id id, const spx_transform* t)
{
    LOOKUP(w, id, i);
    if (!t) return SPX_ERR_INVALID_ARGUMENT;
    if (w->locked) return SPX_ERR_WORLD_LOCKED;
    if (!spx_finite3(t->p)) return SPX_ERR_NOT_FINITE;
    if (!spx_in_range3(t->p)) return SPX_ERR_OUT_OF_RANGE;
    spx_result r = check_rotation(t->q);
    if (r != SPX_OK) return r;
    spx_body* b = &w->bodies[i];
    spx_body copy = *b;
    place(&copy, t->p, t->q);
    if ((r = spx_world_track_body(w, i, &copy)) != SPX_OK) return r;
    place(b, t->p, t->q);
    spx_body_update_boxes(b);
    if (b->type == SPX_BODY_DYNAMIC) spx_island_wake(w, i);
    return SPX_OK;
}

SPX_API spx_result spx_body_get_velocity(const spx_world* w, spx_body_id id, spx_vec3* out_linear,
                                         spx_vec3* out_angular)
{
    LOOKUP(w, id, i);
    if (out_linear) *out_linear = spx_from_glm_vec3(w->bodies[i].v);
    if (out_angular) *out_angular = spx_from_glm_vec3(w->bodies[i].w);
    return SPX_OK;
}

SPX_API spx_result spx_body_set_velocity(spx_world* w, spx_body_id id, spx_vec3 linear, spx_vec3 angular)
{
    CHANGE(w, id, i);
    if (!spx_finite3(linear) || !spx_finite3(angular)) return SPX_ERR_NOT_FINITE;
    spx_body* b = &w->bodies[i];
    if (b->type == SPX_BODY_STATIC) return SPX_ERR_INVALID_ARGUMENT;
    if (!speeds_in_range(linear, angular)) return SPX_ERR_SPEED_OUT_OF_RANGE;
    b->v = spx_to_glm_vec3(linear);
    b->w = spx_to_glm_vec3(angular);
    if (b->type == SPX_BODY_DYNAMIC) spx_island_wake(w, i);
    else b->awake = true;
    return SPX_OK;
}

SPX_API spx_result spx_body_apply_impulse(spx_world* w, spx_body_id id, spx_vec3 impulse, spx_vec3 point)
{
    CHANGE(w, id, i);
    if (!spx_finite3(impulse) || !spx_finite3(point)) return SPX_ERR_NOT_FINITE;
    spx_body* b = &w->bodies[i];
    if (b->type != SPX_BODY_DYNAMIC) return SPX_ERR_INVALID_ARGUMENT;
    /* Refused, not clamped: a clamp would change the impulse's effect. Non-finite is beyond. */
    const vec3s p = spx_to_glm_vec3(impulse), r = glms_vec3_sub(spx_to_glm_vec3(point), b->center);
    const vec3s v = glms_vec3_add(b->v, glms_vec3_scale(p, b->inv_mass));
    const vec3s av = glms_vec3_add(b->w, glms_mat3_mulv(spx_body_inv_inertia_world(b), glms_vec3_cross(r, p)));
    const spx_vec3 nv = spx_from_glm_vec3(v), nw = spx_from_glm_vec3(av);
    if (!spx_finite3(nv) || !spx_finite3(nw) || !speeds_in_range(nv, nw)) return SPX_ERR_SPEED_OUT_OF_RANGE;
    spx_island_wake(w, i);
    b->v = v;
    b->w = av;
    return SPX_OK;
}

SPX_API spx_result spx_body_set_awake(spx_world* w, spx_body_id id, bool awake)
{
    CHANGE(w, id, i);
    spx_body* b = &w->bodies[i];
    if (b->type == SPX_BODY_KINEMATIC) b->awake = awake;
    else if (b->type == SPX_BODY_DYNAMIC) {
        if (awake) spx_island_wake(w, i);
        else spx_island_sleep_now(w, i);
    }
    return SPX_OK;
}

SPX_API spx_result spx_body_set_user_data(spx_world* w, spx_body_id id, void* user_data)
{
    LOOKUP(w, id, i);
    w->bodies[i].user_data = user_data;
    return SPX_OK;
}

spx_result spx_material_check(float friction, float restitution)
{
    if (!isfinite(friction) || !isfinite(restitution)) return SPX_ERR_NOT_FINITE;
    if (friction < 0.0f || restitution < 0.0f || restitution > 1.0f) return SPX_ERR_INVALID_ARGUMENT;
    return SPX_OK;
}

SPX_API spx_result spx_body_set_material(spx_world* w, spx_body_id id, float friction, float restitution)
{
    CHANGE(w, id, i);
    const spx_result r = spx_material_check(friction, restitution);
    if (r != SPX_OK) return r;
    spx_body* b = &w->bodies[i];
    b->friction = friction;
    b->restitution = restitution;
    for (uint32_t k = 0; k < b->shape_count; ++k)
        b->shapes[k].friction = friction, b->shapes[k].restitution = restitution;
    return SPX_OK;
}
