/* sepax (the program): a scene description into meshes and a world, on the public API. Generated
 * meshes come from the tests' own generators (tests/support/shapes.c), mesh files through
 * tools/meshio (assimp). Whatever the library still refuses is reported with the JSON path. */
#include "scene.h"
#include "support/shapes.h"
#if defined(SEPAX_TOOL_HAVE_MESHIO)
#include "meshio.h"
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(const scene* s, char* message, size_t size, const char* where, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));
static bool fail(const scene* s, char* message, size_t size, const char* where, const char* fmt, ...)
{
    char what[SCENE_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (size) snprintf(message, size, "%s: %s: %s", s->file ? s->file : "<scene>", where, what);
    return false;
}

/* A closed box of 12 triangles, counter-clockwise seen from outside; corner i has bits (x, y, z). */
static bool box_mesh(test_shape* out, spx_vec3 h)
{
    static const uint32_t quads[6][4] = { { 0, 4, 6, 2 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 },
                                          { 2, 6, 7, 3 }, { 0, 2, 3, 1 }, { 4, 5, 7, 6 } };
    out->vertices = malloc(8 * sizeof *out->vertices);
    out->indices = malloc(36 * sizeof *out->indices);
    if (!out->vertices || !out->indices) return test_shape_free(out), false;
    for (int i = 0; i < 8; ++i) out->vertices[i] = spx_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    for (int f = 0; f < 6; ++f) {
        const uint32_t* q = quads[f];
        uint32_t* t = out->indices + 6 * f;
        t[0] = q[0], t[1] = q[1], t[2] = q[2], t[3] = q[0], t[4] = q[2], t[5] = q[3];
    }
    out->vertex_count = 8;
    out->triangle_count = 12;
    return true;
}

/* The triangles of one mesh description, in plain arrays (the caller frees them). */
static bool mesh_arrays(const scene* s, const scene_mesh* m, test_shape* out, char* message, size_t size)
{
    memset(out, 0, sizeof *out);
    switch (m->kind) {
    case SCENE_MESH_FILE: {
#if defined(SEPAX_TOOL_HAVE_MESHIO)
        spx_meshio_mesh file;
        char why[512];
        if (spx_meshio_load(m->path, m->scale, &file, why, sizeof why) != SPX_MESHIO_OK)
            return fail(s, message, size, m->where, "%s", why);
        out->vertices = file.vertices, out->vertex_count = file.vertex_count;
        out->indices = file.indices, out->triangle_count = file.triangle_count;
        return true;
#else
        return fail(s, message, size, m->where,
                    "this sepax was built without assimp: mesh files cannot be read "
                    "(apt-get install libassimp-dev, then configure again)");
#endif
    }
    case SCENE_MESH_GRID: {
        if (!test_shape_grid(out, m->cells[0], m->cells[1])) break;
        /* Centred on the origin; a gentle wave when asked, so bodies roll and slide on it. */
        const double two_pi = 6.283185307179586;
        for (uint32_t i = 0; i < out->vertex_count; ++i) {
            spx_vec3* v = &out->vertices[i];
            float x = (v->x - 0.5f * (float)m->cells[0]) * m->cell_size,
                  z = (v->z - 0.5f * (float)m->cells[1]) * m->cell_size;
            float y = m->amplitude > 0.0f
                          ? m->amplitude * (float)(sin(two_pi * x / m->wavelength) * sin(two_pi * z / m->wavelength))
                          : 0.0f;
            *v = spx_v3(x, y, z);
        }
        return true;
    }
    case SCENE_MESH_TORUS:
        if (test_shape_torus(out, m->major_radius, m->minor_radius, m->segments[0], m->segments[1])) return true;
        break;
    case SCENE_MESH_SPHERE:
        if (test_shape_solid_sphere(out, m->radius, m->segments[0], m->segments[1])) return true;
        break;
    case SCENE_MESH_BOX:
        if (box_mesh(out, m->half_extents)) return true;
        break;
    }
    return fail(s, message, size, m->where, "out of memory making the mesh");
}

static bool build_mesh(scene* s, scene_mesh* m, char* message, size_t size)
{
    test_shape arrays;
    if (!mesh_arrays(s, m, &arrays, message, size)) return false;
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = arrays.vertices;
    def.vertex_count = arrays.vertex_count;
    def.indices = arrays.indices;
    def.triangle_count = arrays.triangle_count;
    spx_result r = spx_mesh_create(&def, &m->mesh);
    float bound = 0.0f;
    for (uint32_t i = 0; i < arrays.vertex_count; ++i) {
        spx_vec3 v = arrays.vertices[i];
        float d = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
        if (d > bound) bound = d;
    }
    test_shape_free(&arrays);
    if (r != SPX_OK) return fail(s, message, size, m->where, "the mesh cannot be made: %s", spx_result_string(r));
    m->radius_bound = bound;
    spx_mesh_info info;
    spx_mesh_get_info(m->mesh, &info);
    m->closed = info.closed;
    spx_mass_properties mp;
    if (m->closed && spx_mass_mesh(m->mesh, 1.0f, &mp) == SPX_OK) m->volume = mp.volume;
    else m->closed = false;
    return true;
}

static spx_quat quat_mul(spx_quat a, spx_quat b)
{
    return (spx_quat){ a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                       a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
}

static spx_quat quat_conj(spx_quat q) { return (spx_quat){ -q.x, -q.y, -q.z, q.w }; }

static spx_vec3 quat_rotate(spx_quat q, spx_vec3 v)
{
    spx_quat r = quat_mul(quat_mul(q, (spx_quat){ v.x, v.y, v.z, 0.0f }), quat_conj(q));
    return spx_v3(r.x, r.y, r.z);
}

/* A world frame (point p, axes q) in the frame of a body at pose (bp, bq). */
static spx_transform frame_in_body(spx_vec3 bp, spx_quat bq, spx_vec3 p, spx_quat q)
{
    spx_quat inv = quat_conj(bq);
    spx_transform t = { quat_rotate(inv, spx_v3(p.x - bp.x, p.y - bp.y, p.z - bp.z)), quat_mul(inv, q) };
    float n = sqrtf(t.q.x * t.q.x + t.q.y * t.q.y + t.q.z * t.q.z + t.q.w * t.q.w);
    t.q = (spx_quat){ t.q.x / n, t.q.y / n, t.q.z / n, t.q.w / n };
    return t;
}

static bool build_joints(scene* s, char* message, size_t size)
{
    if (!s->joint_count) return true;
    if (!(s->joint_ids = calloc(s->joint_count, sizeof *s->joint_ids)))
        return fail(s, message, size, "joints", "out of memory");
    for (uint32_t i = 0; i < s->joint_count; ++i) {
        scene_joint* j = &s->joints[i];
        spx_joint_def d = j->def;
        d.body_a = j->a >= 0 ? s->ids[j->a] : (spx_body_id){ 0 };
        d.body_b = s->ids[j->b];
        if (j->world_given) {
            const spx_body_def* b = &s->bodies[j->b].def;
            d.frame_a = j->a >= 0 ? frame_in_body(s->bodies[j->a].def.position, s->bodies[j->a].def.rotation, j->anchor,
                                                  j->rotation)
                                  : (spx_transform){ j->anchor, j->rotation };
            d.frame_b = frame_in_body(b->position, b->rotation, j->anchor_b, j->rotation);
        }
        spx_result r = spx_joint_create(s->w, &d, &s->joint_ids[i]);
        if (r != SPX_OK) return fail(s, message, size, j->where, "the joint cannot be made: %s", spx_result_string(r));
    }
    return true;
}

bool scene_build(scene* s, char* message, size_t size)
{
    for (uint32_t i = 0; i < s->mesh_count; ++i)
        if (!build_mesh(s, &s->meshes[i], message, size)) return false;
    for (uint32_t i = 0; i < s->hull_count; ++i) {
        scene_hull* h = &s->hulls[i];
        spx_hull_def hd = spx_default_hull_def();
        hd.points = h->points;
        hd.point_count = h->point_count;
        const spx_result r = spx_hull_create(&hd, &h->hull);
        if (r != SPX_OK) return fail(s, message, size, h->where, "the hull cannot be made: %s", spx_result_string(r));
    }
    spx_world_def wd = s->world;
    wd.body_capacity = s->body_count;
    spx_result r = spx_world_create(&wd, &s->w);
    if (r != SPX_OK) return fail(s, message, size, "world", "the world cannot be made: %s", spx_result_string(r));
    if (!(s->ids = calloc(s->body_count ? s->body_count : 1, sizeof *s->ids)))
        return fail(s, message, size, "bodies", "out of memory");
    spx_shape_def defs[SPX_MAX_BODY_SHAPES];
    for (uint32_t i = 0; i < s->body_count; ++i) {
        scene_body* b = &s->bodies[i];
        const scene_material* mat = &s->materials[b->material];
        bool dynamic = b->def.type == SPX_BODY_DYNAMIC;
        double volume = 0.0;
        for (uint32_t k = 0; k < b->shape_count; ++k) {
            const scene_shape* sh = &s->shapes[b->first_shape + k];
            spx_shape_def* d = &defs[k];
            *d = spx_default_shape_def();
            d->type = sh->type;
            d->local = sh->local;
            /* A shape's own material gives its friction, restitution and default density. */
            const scene_material* own = sh->material >= 0 ? &s->materials[sh->material] : mat;
            d->density = sh->density > 0.0f ? sh->density : own->density;
            if (sh->material >= 0) d->friction = own->friction, d->restitution = own->restitution;
            d->is_sensor = sh->sensor;
            d->filter = sh->filter;
            if (sh->type == SPX_SHAPE_BOX) {
                d->half_extents = sh->half_extents;
                volume += 8.0 * sh->half_extents.x * sh->half_extents.y * sh->half_extents.z;
                continue;
            }
            if (sh->type == SPX_SHAPE_SPHERE || sh->type == SPX_SHAPE_CAPSULE) {
                const double rr = sh->radius, hh = sh->type == SPX_SHAPE_CAPSULE ? sh->half_height : 0.0;
                d->radius = sh->radius;
                d->half_height = (float)hh;
                volume += 3.14159265358979 * rr * rr * (4.0 / 3.0 * rr + 2.0 * hh);
                continue;
            }
            if (sh->type == SPX_SHAPE_HULL) {
                const spx_hull* h = s->hulls[sh->hull].hull;
                spx_mass_properties unit; /* at density 1 its mass is its volume */
                d->hull = h;
                if (spx_mass_hull(h, 1.0f, &unit) == SPX_OK) volume += unit.mass;
                continue;
            }
            const scene_mesh* m = &s->meshes[sh->mesh];
            d->mesh = m->mesh;
            if (dynamic && !m->closed)
                return fail(s, message, size, sh->where,
                            "mesh '%s' is not closed: a dynamic body's mesh must enclose "
                            "a volume (every edge shared by two triangles, wound counter-clockwise seen from outside)",
                            m->name[0] ? m->name : m->where);
            volume += m->volume;
        }
        /* A mass for the body: one density over all its shapes that gives it. */
        if (dynamic && b->mass > 0.0f) {
            if (!(volume > 0.0))
                return fail(s, message, size, b->where, "mass given, but the shapes enclose no volume");
            for (uint32_t k = 0; k < b->shape_count; ++k) defs[k].density = (float)(b->mass / volume);
        }
        b->def.shapes = defs;
        b->def.shape_count = b->shape_count;
        r = spx_body_create(s->w, &b->def, &s->ids[i]);
        b->def.shapes = NULL;
        if (r != SPX_OK) return fail(s, message, size, b->where, "the body cannot be made: %s", spx_result_string(r));
    }
    return build_joints(s, message, size);
}

void scene_free(scene* s)
{
    spx_world_destroy(s->w);
    for (uint32_t i = 0; i < s->mesh_count; ++i) {
        spx_mesh_destroy(s->meshes[i].mesh);
        free(s->meshes[i].path);
    }
    free(s->meshes);
    for (uint32_t i = 0; i < s->hull_count; ++i) {
        spx_hull_destroy(s->hulls[i].hull);
        free(s->hulls[i].points);
    }
    free(s->hulls);
    free(s->materials);
    free(s->bodies);
    free(s->shapes);
    free(s->ids);
    free(s->joints);
    free(s->joint_ids);
    free(s->file);
    memset(s, 0, sizeof *s);
}
