/* sepax (the program): reading a JSON scene file (docs/scene-format.md) into a scene description.
 * cJSON parses; everything else here checks, so that each error names the file, the JSON path of
 * the value (or the line and column of a syntax error) and what is wrong, before anything runs. */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"
#include "support/scenes.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_LEN 256
#define MAX_BODIES 200000u /* a guard against a generator count typed one digit too long */
#define MAX_GRID_CELLS 2000u
#define MAX_SEGMENTS 1024u

typedef struct reader {
    const char* file;
    char* dir; /* the scene file's folder, "" for the current one */
    scene_unknown_keys unknown;
    char* message;
    size_t message_size;
    scene* s;
} reader;

static bool fail(reader* r, const char* path, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(reader* r, const char* path, const char* fmt, ...)
{
    char what[SCENE_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (r->message_size)
        snprintf(r->message, r->message_size, "%s: %s: %s", r->file, path[0] ? path : "(top level)", what);
    return false;
}

/* Copies as much of src as fits, always terminated (paths and names are cut, never overrun). */
static void copy_text(char* out, size_t size, const char* src)
{
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(out, src, n);
    out[n] = '\0';
}

static void join_key(char out[PATH_MAX_LEN], const char* path, const char* key)
{
    copy_text(out, PATH_MAX_LEN, path);
    size_t n = strlen(out);
    if (n && n + 1 < PATH_MAX_LEN) out[n++] = '.', out[n] = '\0';
    copy_text(out + n, PATH_MAX_LEN - n, key);
}

static void join_index(char out[PATH_MAX_LEN], const char* path, unsigned index)
{
    char number[16];
    snprintf(number, sizeof number, "[%u]", index);
    copy_text(out, PATH_MAX_LEN, path);
    size_t n = strlen(out);
    copy_text(out + n, PATH_MAX_LEN - n, number);
}

static const char* kind_of(const cJSON* v)
{
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    if (cJSON_IsBool(v)) return "true or false";
    if (cJSON_IsNull(v)) return "null";
    return "something else";
}

/* Every key of `obj` must be in one of the lists (NULL-terminated; the second may be NULL), and
   none may come twice: cJSON keeps duplicates and would silently read the first. */
static bool check_keys(reader* r, const cJSON* obj, const char* path, const char* const* known, const char* const* more)
{
    for (const cJSON* c = obj->child; c; c = c->next) {
        char p[PATH_MAX_LEN];
        join_key(p, path, c->string);
        for (const cJSON* d = c->next; d; d = d->next)
            if (strcmp(c->string, d->string) == 0) return fail(r, p, "key given twice");
        if (c->string[0] == '_') continue; /* a comment */
        bool found = false;
        for (const char* const* k = known; *k && !found; ++k) found = strcmp(*k, c->string) == 0;
        for (const char* const* k = more; k && *k && !found; ++k) found = strcmp(*k, c->string) == 0;
        if (found) continue;
        char list[512] = "";
        for (int pass = 0; pass < 2; ++pass)
            for (const char* const* k = pass ? more : known; k && *k; ++k) {
                size_t n = strlen(list);
                snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", *k);
            }
        if (r->unknown == SCENE_UNKNOWN_KEY_WARN) {
            fprintf(stderr, "sepax: warning: %s: %s: unknown key, ignored (known here: %s)\n", r->file, p, list);
            continue;
        }
        return fail(r, p, "unknown key (known here: %s; keys starting with '_' are comments)", list);
    }
    return true;
}

static bool expect_object(reader* r, const cJSON* v, const char* path)
{
    return cJSON_IsObject(v) || fail(r, path, "must be an object {...} (found %s)", kind_of(v));
}

/* The field key of obj, or NULL when absent; p receives its path for messages. */
static const cJSON* field(const cJSON* obj, const char* key, const char* path, char p[PATH_MAX_LEN])
{
    join_key(p, path, key);
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* v, at path p, must be a finite number within [lo, hi] (lo excluded when lo_open). */
static bool number_in(reader* r, const cJSON* v, const char* p, double lo, double hi, bool lo_open, double* out)
{
    if (!cJSON_IsNumber(v)) return fail(r, p, "must be a number (found %s)", kind_of(v));
    const double x = v->valuedouble;
    if (!isfinite(x)) return fail(r, p, "must be finite");
    if (lo_open ? !(x > lo) : !(x >= lo)) return fail(r, p, "must be %s %g (found %g)", lo_open ? ">" : ">=", lo, x);
    if (x > hi) return fail(r, p, "must be at most %g (found %g)", hi, x);
    *out = x;
    return true;
}

/* A number field: absent leaves *out alone and returns true; present must be finite and within
   [lo, hi] (lo excluded when lo_open). */
static bool read_number(reader* r, const cJSON* obj, const char* key, const char* path, double lo, double hi,
                        bool lo_open, double* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    return !v || number_in(r, v, p, lo, hi, lo_open, out);
}

static bool read_float(reader* r, const cJSON* obj, const char* key, const char* path, double lo, double hi,
                       bool lo_open, float* out)
{
    double x = *out;
    if (!read_number(r, obj, key, path, lo, hi, lo_open, &x)) return false;
    *out = (float)x;
    return true;
}

static bool read_uint(reader* r, const cJSON* obj, const char* key, const char* path, uint32_t lo, uint32_t hi,
                      uint32_t* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    if (!cJSON_IsNumber(v)) return fail(r, p, "must be a whole number (found %s)", kind_of(v));
    double x = v->valuedouble;
    if (!isfinite(x) || x != floor(x)) return fail(r, p, "must be a whole number (found %g)", x);
    if (x < lo || x > hi) return fail(r, p, "must be %u..%u (found %g)", lo, hi, x);
    *out = (uint32_t)x;
    return true;
}

static bool read_bool(reader* r, const cJSON* obj, const char* key, const char* path, bool* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    if (!cJSON_IsBool(v)) return fail(r, p, "must be true or false (found %s)", kind_of(v));
    *out = cJSON_IsTrue(v);
    return true;
}

/* A string field into out (size bytes); absent leaves it alone. */
static bool read_string(reader* r, const cJSON* obj, const char* key, const char* path, char* out, size_t size)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    if (!cJSON_IsString(v)) return fail(r, p, "must be a string (found %s)", kind_of(v));
    if (strlen(v->valuestring) >= size) return fail(r, p, "longer than %zu characters", size - 1);
    memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
    return true;
}

/* An array of n numbers, each checked as read_number does; the path names the element. */
static bool read_numbers(reader* r, const cJSON* obj, const char* key, const char* path, int n, double lo, double hi,
                         bool lo_open, double* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n)
        return fail(r, p, "must be an array of %d numbers (found %s%s)", n, kind_of(v),
                    cJSON_IsArray(v) ? " of another length" : "");
    int i = 0;
    for (const cJSON* e = v->child; e; e = e->next, ++i) {
        char pe[PATH_MAX_LEN];
        join_index(pe, p, (unsigned)i);
        if (!number_in(r, e, pe, lo, hi, lo_open, &out[i])) return false;
    }
    return true;
}

static bool read_vec3(reader* r, const cJSON* obj, const char* key, const char* path, double lo, double hi,
                      bool lo_open, spx_vec3* out)
{
    double x[3] = { out->x, out->y, out->z };
    if (!read_numbers(r, obj, key, path, 3, lo, hi, lo_open, x)) return false;
    *out = spx_v3((float)x[0], (float)x[1], (float)x[2]);
    return true;
}

static bool read_uint2(reader* r, const cJSON* obj, const char* key, const char* path, uint32_t lo, uint32_t hi,
                       uint32_t out[2])
{
    double x[2] = { out[0], out[1] };
    if (!read_numbers(r, obj, key, path, 2, lo, hi, false, x)) return false;
    for (int i = 0; i < 2; ++i) {
        char p[PATH_MAX_LEN], pe[PATH_MAX_LEN];
        join_key(p, path, key);
        join_index(pe, p, (unsigned)i);
        if (x[i] != floor(x[i])) return fail(r, pe, "must be a whole number (found %g)", x[i]);
        out[i] = (uint32_t)x[i];
    }
    return true;
}

static bool require(reader* r, const cJSON* obj, const char* key, const char* path)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key) || fail(r, path, "missing field '%s'", key);
}

#define FAR 1e6 /* m: a coordinate beyond this is a typo, and floats there are coarser than the contacts */
#define BIG 1e9

/* A rotation: a quaternion [x, y, z, w] (normalised here; must not be zero) or {"axis": [x, y, z],
   "degrees": a}. */
static bool read_rotation(reader* r, const cJSON* obj, const char* key, const char* path, spx_quat* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    double q[4];
    if (cJSON_IsArray(v)) {
        if (!read_numbers(r, obj, key, path, 4, -BIG, BIG, false, q)) return false;
    } else if (cJSON_IsObject(v)) {
        static const char* const keys[] = { "axis", "degrees", NULL };
        if (!check_keys(r, v, p, keys, NULL) || !require(r, v, "axis", p) || !require(r, v, "degrees", p)) return false;
        double axis[3], degrees = 0.0;
        if (!read_numbers(r, v, "axis", p, 3, -BIG, BIG, false, axis) ||
            !read_number(r, v, "degrees", p, -1e6, 1e6, false, &degrees))
            return false;
        double len = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        char pa[PATH_MAX_LEN];
        join_key(pa, p, "axis");
        if (!(len > 1e-12)) return fail(r, pa, "must not be the zero vector");
        double half = degrees * 3.14159265358979323846 / 360.0, s = sin(half) / len;
        q[0] = axis[0] * s, q[1] = axis[1] * s, q[2] = axis[2] * s, q[3] = cos(half);
    } else {
        return fail(r, p, "must be a quaternion [x, y, z, w] or {\"axis\": [x, y, z], \"degrees\": a} (found %s)",
                    kind_of(v));
    }
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 1e-12)) return fail(r, p, "must not be the zero quaternion");
    *out = (spx_quat){ (float)(q[0] / len), (float)(q[1] / len), (float)(q[2] / len), (float)(q[3] / len) };
    return true;
}

/* ---- growing arrays ------------------------------------------------------------------------------ */

static bool grow(reader* r, void** items, uint32_t* capacity, uint32_t count, size_t size, const char* path)
{
    if (count < *capacity) return true;
    uint32_t next = *capacity ? *capacity * 2 : 16;
    void* p = realloc(*items, (size_t)next * size);
    if (!p) return fail(r, path, "out of memory");
    *items = p;
    *capacity = next;
    return true;
}

#define PUSH(r, s, array, count, capacity, path)                                               \
    (grow((r), (void**)&(s)->array, &(s)->capacity, (s)->count, sizeof *(s)->array, (path))    \
         ? (memset(&(s)->array[(s)->count], 0, sizeof *(s)->array), &(s)->array[(s)->count++]) \
         : NULL)

/* ---- world, camera, materials ---------------------------------------------------------------- */

static bool read_world(reader* r, const cJSON* v, const char* path)
{
    static const char* const keys[] = { "gravity",
                                        "dt",
                                        "steps",
                                        "substeps",
                                        "max_stack_substeps",
                                        "contact_hertz",
                                        "contact_damping_ratio",
                                        "max_push_speed",
                                        "restitution_threshold",
                                        "speculative_distance",
                                        "sleep",
                                        "sleep_linear_speed",
                                        "sleep_angular_speed",
                                        "time_to_sleep",
                                        "ground_y",
                                        NULL };
    scene* s = r->s;
    spx_world_def* w = &s->world;
    double ground = 0.0;
    bool ok = expect_object(r, v, path) && check_keys(r, v, path, keys, NULL) &&
              read_vec3(r, v, "gravity", path, -1e4, 1e4, false, &w->gravity) &&
              read_float(r, v, "dt", path, 0.0, 1.0, true, &s->dt) &&
              read_uint(r, v, "steps", path, 0, 100000000u, &s->steps) &&
              read_uint(r, v, "substeps", path, 1, 64, &w->substeps) &&
              read_uint(r, v, "max_stack_substeps", path, 0, 64, &w->max_stack_substeps) &&
              read_float(r, v, "contact_hertz", path, 0.0, 1e6, true, &w->contact_hertz) &&
              read_float(r, v, "contact_damping_ratio", path, 0.0, 1e6, false, &w->contact_damping_ratio) &&
              read_float(r, v, "max_push_speed", path, 0.0, 1e6, false, &w->max_push_speed) &&
              read_float(r, v, "restitution_threshold", path, 0.0, 1e6, false, &w->restitution_threshold) &&
              read_float(r, v, "speculative_distance", path, 0.0, 1e3, false, &w->speculative_distance) &&
              read_bool(r, v, "sleep", path, &w->enable_sleep) &&
              read_float(r, v, "sleep_linear_speed", path, 0.0, 1e6, false, &w->sleep_linear_speed) &&
              read_float(r, v, "sleep_angular_speed", path, 0.0, 1e6, false, &w->sleep_angular_speed) &&
              read_float(r, v, "time_to_sleep", path, 0.0, 1e6, false, &w->time_to_sleep) &&
              read_number(r, v, "ground_y", path, -FAR, FAR, false, &ground);
    if (ok && cJSON_GetObjectItemCaseSensitive(v, "ground_y")) s->ground_given = true, s->ground_y = (float)ground;
    return ok;
}

static bool read_camera(reader* r, const cJSON* v, const char* path)
{
    static const char* const keys[] = { "eye", "target", "fov_deg", NULL };
    scene_camera* c = &r->s->camera;
    c->given = true;
    c->fov_deg = 40.0f;
    if (!expect_object(r, v, path) || !check_keys(r, v, path, keys, NULL) || !require(r, v, "eye", path) ||
        !require(r, v, "target", path) || !read_vec3(r, v, "eye", path, -FAR, FAR, false, &c->eye) ||
        !read_vec3(r, v, "target", path, -FAR, FAR, false, &c->target) ||
        !read_float(r, v, "fov_deg", path, 1.0, 170.0, false, &c->fov_deg))
        return false;
    float dx = c->eye.x - c->target.x, dy = c->eye.y - c->target.y, dz = c->eye.z - c->target.z;
    if (dx * dx + dy * dy + dz * dz < 1e-6f) return fail(r, path, "eye and target must differ");
    return true;
}

static int find_material(const scene* s, const char* name)
{
    for (uint32_t i = 0; i < s->material_count; ++i)
        if (strcmp(s->materials[i].name, name) == 0) return (int)i;
    return -1;
}

/* A key of a table of named things ("materials", "meshes"): 1..SCENE_NAME_MAX - 1 characters. */
static bool name_fits(reader* r, const char* name, const char* p, const char* what)
{
    return (strlen(name) < SCENE_NAME_MAX && name[0]) ||
           fail(r, p, "a %s name must be 1..%d characters", what, SCENE_NAME_MAX - 1);
}

static bool read_materials(reader* r, const cJSON* v, const char* path)
{
    static const char* const keys[] = { "friction", "restitution", "density", NULL };
    if (!expect_object(r, v, path)) return false;
    for (const cJSON* m = v->child; m; m = m->next) {
        char p[PATH_MAX_LEN];
        join_key(p, path, m->string);
        if (m->string[0] == '_') continue;
        if (!name_fits(r, m->string, p, "material")) return false;
        for (const cJSON* d = m->next; d; d = d->next)
            if (strcmp(m->string, d->string) == 0) return fail(r, p, "key given twice");
        int found = find_material(r->s, m->string);
        scene_material* mat =
            found >= 0 ? &r->s->materials[found] : PUSH(r, r->s, materials, material_count, material_capacity, p);
        if (!mat) return false;
        if (found < 0) *mat = (scene_material){ "", 0.6f, 0.0f, 1000.0f };
        snprintf(mat->name, sizeof mat->name, "%s", m->string);
        if (!expect_object(r, m, p) || !check_keys(r, m, p, keys, NULL) ||
            !read_float(r, m, "friction", p, 0.0, 1e3, false, &mat->friction) ||
            !read_float(r, m, "restitution", p, 0.0, 1.0, false, &mat->restitution) ||
            !read_float(r, m, "density", p, 0.0, 1e7, true, &mat->density))
            return false;
    }
    return true;
}

/* ---- meshes ------------------------------------------------------------------------------------ */

static bool file_readable(const char* path, char* why, size_t size)
{
    FILE* f = fopen(path, "rb");
    if (!f) {
        snprintf(why, size, "%s", strerror(errno));
        return false;
    }
    fclose(f);
    return true;
}

/* An object's required "type" string into type; pt receives the key's path for messages. */
static bool read_type(reader* r, const cJSON* v, const char* path, char type[16], char pt[PATH_MAX_LEN])
{
    join_key(pt, path, "type");
    return expect_object(r, v, path) && require(r, v, "type", path) && read_string(r, v, "type", path, type, 16);
}

static bool read_mesh_def(reader* r, const cJSON* v, const char* path, scene_mesh* m)
{
    static const char* const keys_file[] = { "type", "path", "scale", NULL };
    static const char* const keys_grid[] = { "type", "cells", "cell_size", "amplitude", "wavelength", NULL };
    static const char* const keys_torus[] = { "type", "major_radius", "minor_radius", "segments", NULL };
    static const char* const keys_sphere[] = { "type", "radius", "segments", NULL };
    static const char* const keys_box[] = { "type", "half_extents", NULL };
    copy_text(m->where, sizeof m->where, path);
    char type[16] = "", pt[PATH_MAX_LEN];
    if (!read_type(r, v, path, type, pt)) return false;
    if (strcmp(type, "file") == 0) {
        m->kind = SCENE_MESH_FILE;
        m->scale = 1.0f;
        char given[1024] = "";
        if (!check_keys(r, v, path, keys_file, NULL) || !require(r, v, "path", path) ||
            !read_string(r, v, "path", path, given, sizeof given) ||
            !read_float(r, v, "scale", path, 0.0, 1e6, true, &m->scale))
            return false;
        char pp[PATH_MAX_LEN];
        join_key(pp, path, "path");
        if (!given[0]) return fail(r, pp, "must not be empty");
        size_t n = strlen(r->dir) + strlen(given) + 2;
        if (!(m->path = malloc(n))) return fail(r, pp, "out of memory");
        snprintf(m->path, n, "%s%s", given[0] == '/' ? "" : r->dir, given);
        char why[256];
        if (!file_readable(m->path, why, sizeof why))
            return fail(r, pp, "mesh file '%s' cannot be read: %s", m->path, why);
        return true;
    }
    if (strcmp(type, "grid") == 0) {
        m->kind = SCENE_MESH_GRID;
        m->cells[0] = m->cells[1] = 10;
        m->cell_size = 1.0f;
        m->wavelength = 10.0f;
        return check_keys(r, v, path, keys_grid, NULL) &&
               read_uint2(r, v, "cells", path, 1, MAX_GRID_CELLS, m->cells) &&
               read_float(r, v, "cell_size", path, 0.0, 1e4, true, &m->cell_size) &&
               read_float(r, v, "amplitude", path, 0.0, 1e4, false, &m->amplitude) &&
               read_float(r, v, "wavelength", path, 0.0, 1e6, true, &m->wavelength);
    }
    if (strcmp(type, "torus") == 0) {
        m->kind = SCENE_MESH_TORUS;
        m->segments[0] = 32, m->segments[1] = 16;
        if (!check_keys(r, v, path, keys_torus, NULL) || !require(r, v, "major_radius", path) ||
            !require(r, v, "minor_radius", path) ||
            !read_float(r, v, "major_radius", path, 0.0, 1e4, true, &m->major_radius) ||
            !read_float(r, v, "minor_radius", path, 0.0, 1e4, true, &m->minor_radius) ||
            !read_uint2(r, v, "segments", path, 3, MAX_SEGMENTS, m->segments))
            return false;
        char pm[PATH_MAX_LEN];
        join_key(pm, path, "minor_radius");
        if (m->minor_radius >= m->major_radius)
            return fail(r, pm, "must be below major_radius (the tube would cross the axis)");
        return true;
    }
    if (strcmp(type, "sphere") == 0) {
        m->kind = SCENE_MESH_SPHERE;
        m->segments[0] = 12, m->segments[1] = 24;
        return check_keys(r, v, path, keys_sphere, NULL) && require(r, v, "radius", path) &&
               read_float(r, v, "radius", path, 0.0, 1e4, true, &m->radius) &&
               read_uint2(r, v, "segments", path, 3, MAX_SEGMENTS, m->segments);
    }
    if (strcmp(type, "box") == 0) {
        m->kind = SCENE_MESH_BOX;
        return check_keys(r, v, path, keys_box, NULL) && require(r, v, "half_extents", path) &&
               read_vec3(r, v, "half_extents", path, 0.0, FAR, true, &m->half_extents);
    }
    return fail(r, pt, "unknown mesh type '%s' (file, grid, torus, sphere, box)", type);
}

static int find_mesh(const scene* s, const char* name)
{
    for (uint32_t i = 0; i < s->mesh_count; ++i)
        if (s->meshes[i].name[0] && strcmp(s->meshes[i].name, name) == 0) return (int)i;
    return -1;
}

static bool read_meshes(reader* r, const cJSON* v, const char* path)
{
    if (!expect_object(r, v, path)) return false;
    for (const cJSON* m = v->child; m; m = m->next) {
        char p[PATH_MAX_LEN];
        join_key(p, path, m->string);
        if (m->string[0] == '_') continue;
        if (!name_fits(r, m->string, p, "mesh")) return false;
        if (find_mesh(r->s, m->string) >= 0) return fail(r, p, "key given twice");
        scene_mesh* mesh = PUSH(r, r->s, meshes, mesh_count, mesh_capacity, p);
        if (!mesh) return false;
        snprintf(mesh->name, sizeof mesh->name, "%s", m->string);
        if (!read_mesh_def(r, m, p, mesh)) return false;
    }
    return true;
}

/* ---- bodies and shapes ----------------------------------------------------------------------- */

/* A 64-bit whole number of at least `least` (0 or 1): a JSON number up to 2^53, or a string such as
   `example` for all 64 bits (a JSON number is a double). */
static bool read_u64(reader* r, const cJSON* obj, const char* key, const char* path, unsigned least,
                     const char* example, uint64_t* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    if (cJSON_IsNumber(v)) {
        const double x = v->valuedouble;
        if (!(x >= (double)least && x <= 9007199254740992.0 && x == floor(x)))
            return fail(r, p, "must be a whole number %u..2^53, or a string such as \"%s\"", least, example);
        *out = (uint64_t)x;
        return true;
    }
    if (!cJSON_IsString(v)) return fail(r, p, "must be a number or a string (found %s)", kind_of(v));
    char* end;
    errno = 0;
    const unsigned long long x = strtoull(v->valuestring, &end, 0);
    if (errno || end == v->valuestring || *end || x < least || v->valuestring[0] == '-')
        return fail(r, p, "'%s' is not a %s64-bit whole number", v->valuestring, least ? "non-zero " : "");
    *out = x;
    return true;
}

/* 64 filter bits. */
static bool read_bits(reader* r, const cJSON* obj, const char* key, const char* path, uint64_t* out)
{
    return read_u64(r, obj, key, path, 0, "0xFFFFFFFFFFFFFFFF", out);
}

/* A shape's "filter": { "category", "mask", "group" } (spx_filter; absent keys keep the default). */
static bool read_filter(reader* r, const cJSON* obj, const char* path, spx_filter* out)
{
    static const char* const keys[] = { "category", "mask", "group", NULL };
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, "filter");
    if (!v) return true;
    char p[PATH_MAX_LEN];
    join_key(p, path, "filter");
    double group = 0.0;
    if (!expect_object(r, v, p) || !check_keys(r, v, p, keys, NULL) ||
        !read_bits(r, v, "category", p, &out->category_bits) || !read_bits(r, v, "mask", p, &out->mask_bits) ||
        !read_number(r, v, "group", p, -2147483648.0, 2147483647.0, false, &group))
        return false;
    char pg[PATH_MAX_LEN];
    join_key(pg, p, "group");
    if (group != floor(group)) return fail(r, pg, "must be a whole number (found %g)", group);
    out->group_index = (int32_t)group;
    return true;
}

/* What a shape is when the file says nothing: at the body's origin, unturned, the body's material,
   no sensor, the default filter. Every shape starts from it, the shorthand box of a body too. */
static void shape_defaults(scene_shape* sh, const char* path)
{
    memset(sh, 0, sizeof *sh);
    copy_text(sh->where, sizeof sh->where, path);
    sh->local.q.w = 1.0f;
    sh->material = -1;
    sh->filter = spx_default_filter();
}

/* A hull's cloud: an array of 4 to SCENE_HULL_MAX_POINTS points [x, y, z] (quickhull keeps the
   corners; repeated and inside points are fine). */
#define SCENE_HULL_MAX_POINTS 65536
static bool read_points(reader* r, const cJSON* v, const char* path, scene_hull* h)
{
    const int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (n < 4 || n > SCENE_HULL_MAX_POINTS)
        return fail(r, path, "must be an array of 4..%d points [x, y, z] (found %s%s)", SCENE_HULL_MAX_POINTS,
                    kind_of(v), cJSON_IsArray(v) ? " of another length" : "");
    if (!(h->points = malloc((size_t)n * sizeof *h->points))) return fail(r, path, "out of memory");
    int i = 0;
    for (const cJSON* e = v->child; e; e = e->next, ++i) {
        char pe[PATH_MAX_LEN];
        join_index(pe, path, (unsigned)i);
        double x[3] = { 0, 0, 0 };
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3)
            return fail(r, pe, "must be a point [x, y, z] (found %s)", kind_of(e));
        int k = 0;
        for (const cJSON* c = e->child; c; c = c->next, ++k) {
            char pc[PATH_MAX_LEN];
            join_index(pc, pe, (unsigned)k);
            if (!number_in(r, c, pc, -FAR, FAR, false, &x[k])) return false;
        }
        h->points[i] = spx_v3((float)x[0], (float)x[1], (float)x[2]);
        h->point_count = (uint32_t)i + 1;
    }
    return true;
}

static bool read_shape(reader* r, const cJSON* v, const char* path, scene_shape* sh)
{
    static const char* const keys[] = { "type",   "half_extents", "mesh",     "radius",  "half_height",
                                        "points", "position",     "rotation", "density", "material",
                                        "sensor", "filter",       NULL };
    shape_defaults(sh, path);
    char type[16] = "", material[SCENE_NAME_MAX] = "";
    if (!expect_object(r, v, path) || !check_keys(r, v, path, keys, NULL) || !require(r, v, "type", path) ||
        !read_string(r, v, "type", path, type, sizeof type) ||
        !read_vec3(r, v, "position", path, -FAR, FAR, false, &sh->local.p) ||
        !read_rotation(r, v, "rotation", path, &sh->local.q) ||
        !read_float(r, v, "density", path, 0.0, 1e7, true, &sh->density) ||
        !read_string(r, v, "material", path, material, sizeof material) ||
        !read_bool(r, v, "sensor", path, &sh->sensor) || !read_filter(r, v, path, &sh->filter))
        return false;
    if (material[0]) {
        char pmat[PATH_MAX_LEN];
        join_key(pmat, path, "material");
        if ((sh->material = find_material(r->s, material)) < 0)
            return fail(r, pmat, "no material named '%s' in \"materials\"", material);
    }
    char pt[PATH_MAX_LEN], ph[PATH_MAX_LEN], pm[PATH_MAX_LEN];
    join_key(pt, path, "type");
    join_key(ph, path, "half_extents");
    join_key(pm, path, "mesh");
    const cJSON* mesh = cJSON_GetObjectItemCaseSensitive(v, "mesh");
    const bool sphere = strcmp(type, "sphere") == 0, capsule = strcmp(type, "capsule") == 0;
    char pr[PATH_MAX_LEN], phh[PATH_MAX_LEN];
    join_key(pr, path, "radius");
    join_key(phh, path, "half_height");
    if (!sphere && !capsule && cJSON_GetObjectItemCaseSensitive(v, "radius"))
        return fail(r, pr, "only a sphere or a capsule takes a radius");
    if (!capsule && cJSON_GetObjectItemCaseSensitive(v, "half_height"))
        return fail(r, phh, "only a capsule takes a half_height");
    const bool hull = strcmp(type, "hull") == 0;
    char pp[PATH_MAX_LEN];
    join_key(pp, path, "points");
    if (!hull && cJSON_GetObjectItemCaseSensitive(v, "points")) return fail(r, pp, "only a hull takes points");
    if (hull) {
        sh->type = SPX_SHAPE_HULL;
        if (mesh) return fail(r, pm, "a hull takes points, not a mesh");
        if (cJSON_GetObjectItemCaseSensitive(v, "half_extents"))
            return fail(r, ph, "a hull takes points, not half_extents");
        if (!require(r, v, "points", path)) return false;
        scene_hull* h = PUSH(r, r->s, hulls, hull_count, hull_capacity, pp);
        if (!h) return false;
        sh->hull = r->s->hull_count - 1;
        copy_text(h->where, sizeof h->where, pp);
        return read_points(r, cJSON_GetObjectItemCaseSensitive(v, "points"), pp, h);
    }
    if (sphere || capsule) {
        sh->type = sphere ? SPX_SHAPE_SPHERE : SPX_SHAPE_CAPSULE;
        if (mesh) return fail(r, pm, "a %s takes a radius, not a mesh", type);
        if (cJSON_GetObjectItemCaseSensitive(v, "half_extents"))
            return fail(r, ph, "a %s takes a radius, not half_extents", type);
        return require(r, v, "radius", path) && read_float(r, v, "radius", path, 0.0, FAR, true, &sh->radius) &&
               (sphere || (require(r, v, "half_height", path) &&
                           read_float(r, v, "half_height", path, 0.0, FAR, false, &sh->half_height)));
    }
    if (strcmp(type, "box") == 0) {
        sh->type = SPX_SHAPE_BOX;
        if (mesh) return fail(r, pm, "a box shape takes half_extents, not a mesh");
        return require(r, v, "half_extents", path) &&
               read_vec3(r, v, "half_extents", path, 0.0, FAR, true, &sh->half_extents);
    }
    if (strcmp(type, "mesh") != 0)
        return fail(r, pt, "unknown shape type '%s' (box, sphere, capsule, hull, mesh)", type);
    sh->type = SPX_SHAPE_MESH;
    if (cJSON_GetObjectItemCaseSensitive(v, "half_extents"))
        return fail(r, ph, "a mesh shape takes a mesh, not half_extents");
    if (!require(r, v, "mesh", path)) return false;
    if (cJSON_IsString(mesh)) {
        int i = find_mesh(r->s, mesh->valuestring);
        if (i < 0) return fail(r, pm, "no mesh named '%s' in \"meshes\"", mesh->valuestring);
        sh->mesh = (uint32_t)i;
        return true;
    }
    if (!cJSON_IsObject(mesh))
        return fail(r, pm, "must be the name of a mesh in \"meshes\" or a mesh object (found %s)", kind_of(mesh));
    scene_mesh* m = PUSH(r, r->s, meshes, mesh_count, mesh_capacity, pm);
    if (!m) return false;
    sh->mesh = r->s->mesh_count - 1;
    return read_mesh_def(r, mesh, pm, m);
}

/* A body's rotation; a generator's may also be "random" (each body turned at random, see below). */
static bool read_body_rotation(reader* r, const cJSON* v, const char* path, bool generator, spx_quat* out)
{
    const cJSON* rot = cJSON_GetObjectItemCaseSensitive(v, "rotation");
    if (generator && cJSON_IsString(rot)) {
        char p[PATH_MAX_LEN];
        join_key(p, path, "rotation");
        return strcmp(rot->valuestring, "random") == 0 ||
               fail(r, p, "must be \"random\", a quaternion [x, y, z, w] or {\"axis\": [x, y, z], \"degrees\": a}");
    }
    return read_rotation(r, v, "rotation", path, out);
}

static const char* const body_keys[] = { "name",
                                         "type",
                                         "position",
                                         "rotation",
                                         "linear_velocity",
                                         "angular_velocity",
                                         "linear_damping",
                                         "angular_damping",
                                         "gravity_scale",
                                         "material",
                                         "mass",
                                         "sleep",
                                         "awake",
                                         "color",
                                         "shapes",
                                         NULL };

/* The fields of a body, or of a generator's bodies (which also allow `more` keys and may give their
   shape as a box's half_extents alone). */
static bool read_body(reader* r, const cJSON* v, const char* path, scene_body* b, const char* const* more,
                      bool half_extents_shorthand)
{
    b->def = spx_default_body_def();
    b->def.type = SPX_BODY_DYNAMIC;
    b->color[0] = b->color[1] = b->color[2] = -1.0f;
    copy_text(b->where, sizeof b->where, path);
    char type[16] = "dynamic", material[SCENE_NAME_MAX] = "default";
    double color[3] = { -1, -1, -1 };
    if (!expect_object(r, v, path) || !check_keys(r, v, path, body_keys, more) ||
        !read_string(r, v, "name", path, b->name, sizeof b->name) ||
        !read_string(r, v, "type", path, type, sizeof type) ||
        !read_vec3(r, v, "position", path, -FAR, FAR, false, &b->def.position) ||
        !read_body_rotation(r, v, path, more != NULL, &b->def.rotation) ||
        !read_vec3(r, v, "linear_velocity", path, -1e5, 1e5, false, &b->def.linear_velocity) ||
        !read_vec3(r, v, "angular_velocity", path, -1e5, 1e5, false, &b->def.angular_velocity) ||
        !read_float(r, v, "linear_damping", path, 0.0, 1e6, false, &b->def.linear_damping) ||
        !read_float(r, v, "angular_damping", path, 0.0, 1e6, false, &b->def.angular_damping) ||
        !read_float(r, v, "gravity_scale", path, -1e3, 1e3, false, &b->def.gravity_scale) ||
        !read_string(r, v, "material", path, material, sizeof material) ||
        !read_float(r, v, "mass", path, 0.0, 1e12, true, &b->mass) ||
        !read_bool(r, v, "sleep", path, &b->def.enable_sleep) || !read_bool(r, v, "awake", path, &b->def.awake) ||
        !read_numbers(r, v, "color", path, 3, 0.0, 1.0, false, color))
        return false;
    for (int k = 0; k < 3; ++k) b->color[k] = (float)color[k];
    char p[PATH_MAX_LEN];
    join_key(p, path, "type");
    if (strcmp(type, "static") == 0) b->def.type = SPX_BODY_STATIC;
    else if (strcmp(type, "kinematic") == 0) b->def.type = SPX_BODY_KINEMATIC;
    else if (strcmp(type, "dynamic") == 0) b->def.type = SPX_BODY_DYNAMIC;
    else return fail(r, p, "unknown body type '%s' (static, kinematic, dynamic)", type);
    join_key(p, path, "mass");
    if (b->mass > 0.0f && b->def.type != SPX_BODY_DYNAMIC)
        return fail(r, p, "only a dynamic body has a mass (static and kinematic ones do not move under forces)");
    join_key(p, path, "material");
    int m = find_material(r->s, material);
    if (m < 0) return fail(r, p, "no material named '%s' in \"materials\"", material);
    b->material = (uint32_t)m;
    b->def.friction = r->s->materials[m].friction;
    b->def.restitution = r->s->materials[m].restitution;

    const cJSON* shapes = cJSON_GetObjectItemCaseSensitive(v, "shapes");
    const cJSON* half = cJSON_GetObjectItemCaseSensitive(v, "half_extents");
    b->first_shape = r->s->shape_count;
    if (half_extents_shorthand && half) {
        join_key(p, path, "half_extents");
        if (shapes) return fail(r, p, "give either half_extents (one box) or shapes, not both");
        scene_shape* sh = PUSH(r, r->s, shapes, shape_count, shape_capacity, p);
        if (!sh) return false;
        shape_defaults(sh, path);
        sh->type = SPX_SHAPE_BOX;
        if (!read_vec3(r, v, "half_extents", path, 0.0, FAR, true, &sh->half_extents)) return false;
        b->shape_count = 1;
        return true;
    }
    if (!shapes)
        return fail(r, path,
                    half_extents_shorthand ? "missing field 'shapes' (or 'half_extents')" : "missing field 'shapes'");
    join_key(p, path, "shapes");
    if (!cJSON_IsArray(shapes)) return fail(r, p, "must be an array of shapes (found %s)", kind_of(shapes));
    int n = cJSON_GetArraySize(shapes);
    if (n < 1 || n > SPX_MAX_BODY_SHAPES)
        return fail(r, p, "must hold 1..%d shapes (found %d)", SPX_MAX_BODY_SHAPES, n);
    unsigned i = 0;
    for (const cJSON* e = shapes->child; e; e = e->next, ++i) {
        char pe[PATH_MAX_LEN];
        join_index(pe, p, i);
        scene_shape* sh = PUSH(r, r->s, shapes, shape_count, shape_capacity, pe);
        if (!sh || !read_shape(r, e, pe, sh)) return false;
    }
    b->shape_count = (uint32_t)n;
    return true;
}

/* Every item of the array v (of `what`, for the message) through read_item, each at its own path. */
static bool read_array(reader* r, const cJSON* v, const char* path, const char* what,
                       bool (*read_item)(reader* r, const cJSON* item, const char* path))
{
    if (!cJSON_IsArray(v)) return fail(r, path, "must be an array of %s (found %s)", what, kind_of(v));
    unsigned i = 0;
    for (const cJSON* e = v->child; e; e = e->next, ++i) {
        char p[PATH_MAX_LEN];
        join_index(p, path, i);
        if (!read_item(r, e, p)) return false;
    }
    return true;
}

static bool read_listed_body(reader* r, const cJSON* e, const char* p)
{
    if (r->s->body_count >= MAX_BODIES) return fail(r, p, "more than %u bodies", MAX_BODIES);
    scene_body* b = PUSH(r, r->s, bodies, body_count, body_capacity, p);
    if (!b || !read_body(r, e, p, b, NULL, false)) return false;
    if (!b->name[0]) copy_text(b->name, sizeof b->name, p);
    return true;
}

/* ---- generators -------------------------------------------------------------------------------- */

/* A generator's seed: not zero. */
static bool read_seed(reader* r, const cJSON* obj, const char* path, uint64_t* out)
{
    return read_u64(r, obj, "seed", path, 1, "0x9E3779B97F4A7C15", out);
}

/* Adds a copy of the template body at pose t; the copies share the template's shapes. */
static bool add_generated(reader* r, const scene_body* tpl, const char* prefix, unsigned index, spx_vec3 p, spx_quat q,
                          const char* path)
{
    if (r->s->body_count >= MAX_BODIES) return fail(r, path, "makes more than %u bodies", MAX_BODIES);
    scene_body* b = PUSH(r, r->s, bodies, body_count, body_capacity, path);
    if (!b) return false;
    *b = *tpl;
    b->def.position = p;
    b->def.rotation = q;
    snprintf(b->name, sizeof b->name, "%.40s[%u]", prefix, index);
    return true;
}

static bool read_generator(reader* r, const cJSON* v, const char* path)
{
    static const char* const grid_keys[] = { "generator", "half_extents", "count", "spacing", "origin", "seed", NULL };
    static const char* const pyramid_keys[] = { "generator", "half_extents", "base", "pitch", "row_height", NULL };
    char kind[16] = "";
    if (!expect_object(r, v, path) || !require(r, v, "generator", path) ||
        !read_string(r, v, "generator", path, kind, sizeof kind))
        return false;
    char pk[PATH_MAX_LEN];
    join_key(pk, path, "generator");
    bool grid = strcmp(kind, "grid") == 0;
    if (!grid && strcmp(kind, "pyramid") != 0) return fail(r, pk, "unknown generator '%s' (grid, pyramid)", kind);
    scene_body tpl;
    memset(&tpl, 0, sizeof tpl);
    if (!read_body(r, v, path, &tpl, grid ? grid_keys : pyramid_keys, true)) return false;
    const char* prefix = tpl.name[0] ? tpl.name : kind;
    char prefix_copy[SCENE_NAME_MAX];
    snprintf(prefix_copy, sizeof prefix_copy, "%s", prefix);
    /* The first shape's box size gives the default spacing; a template of mesh shapes must say it. */
    const scene_shape* first = &r->s->shapes[tpl.first_shape];
    bool box = tpl.shape_count == 1 && first->type == SPX_SHAPE_BOX;
    spx_vec3 h = box ? first->half_extents : spx_v3(0, 0, 0);
    if (grid) {
        uint32_t count[3] = { 1, 1, 1 };
        double c[3] = { 1, 1, 1 }, spacing[3] = { 2 * h.x, 2 * h.y, 2 * h.z };
        const cJSON* sp = cJSON_GetObjectItemCaseSensitive(v, "spacing");
        bool ok = require(r, v, "count", path) && read_numbers(r, v, "count", path, 3, 1, MAX_BODIES, false, c);
        if (ok && cJSON_IsNumber(sp)) {
            ok = read_number(r, v, "spacing", path, 0.0, FAR, true, &spacing[0]);
            spacing[1] = spacing[2] = spacing[0];
        } else if (ok) {
            ok = read_numbers(r, v, "spacing", path, 3, 0.0, FAR, true, spacing);
        }
        spx_vec3 origin = spx_v3(0, 0, 0);
        uint64_t seed = 0x9E3779B97F4A7C15ull;
        ok = ok && read_vec3(r, v, "origin", path, -FAR, FAR, false, &origin) && read_seed(r, v, path, &seed);
        if (!ok) return false;
        char p[PATH_MAX_LEN];
        join_key(p, path, "count");
        double total = c[0] * c[1] * c[2];
        for (int k = 0; k < 3; ++k) {
            char pe[PATH_MAX_LEN];
            join_index(pe, p, (unsigned)k);
            if (c[k] != floor(c[k])) return fail(r, pe, "must be a whole number (found %g)", c[k]);
            count[k] = (uint32_t)c[k];
        }
        if (total > MAX_BODIES) return fail(r, p, "makes %.0f bodies, more than %u", total, MAX_BODIES);
        if (!box && !sp) return fail(r, path, "missing field 'spacing' (needed when the shapes are not one box)");
        /* "rotation": "random" turns every body by a uniformly random rotation from the seed. */
        const cJSON* rot = cJSON_GetObjectItemCaseSensitive(v, "rotation");
        bool random = cJSON_IsString(rot) && strcmp(rot->valuestring, "random") == 0;
        /* Layers bottom to top, then x, then z: the order of tests/support/scenes.c's falling scene. */
        unsigned index = 0;
        for (uint32_t j = 0; j < count[1]; ++j)
            for (uint32_t i = 0; i < count[0]; ++i)
                for (uint32_t k = 0; k < count[2]; ++k) {
                    spx_vec3 pos =
                        spx_v3(origin.x + (float)i * (float)spacing[0], origin.y + (float)j * (float)spacing[1],
                               origin.z + (float)k * (float)spacing[2]);
                    spx_quat q = random ? test_scene_random_rotation(&seed) : tpl.def.rotation;
                    if (!add_generated(r, &tpl, prefix_copy, index++, pos, q, path)) return false;
                }
        return true;
    }
    uint32_t base = 0;
    float pitch = 2.0f * h.x, row_height = 2.0f * h.y;
    if (!require(r, v, "base", path) || !read_uint(r, v, "base", path, 1, 2000, &base) ||
        !read_float(r, v, "pitch", path, 0.0, FAR, true, &pitch) ||
        !read_float(r, v, "row_height", path, 0.0, FAR, true, &row_height))
        return false;
    if (!box && (!cJSON_GetObjectItemCaseSensitive(v, "pitch") || !cJSON_GetObjectItemCaseSensitive(v, "row_height")))
        return fail(r, path, "missing field 'pitch' or 'row_height' (needed when the shapes are not one box)");
    /* Rows along x in the plane z = position.z, bottom row resting on y = position.y; row r holds
       base - r bodies at x = (i - (n-1)/2) pitch, as tests/support/scenes.c's pyramid. */
    spx_vec3 at = tpl.def.position;
    unsigned index = 0;
    for (uint32_t row = 0; row < base; ++row) {
        uint32_t n = base - row;
        for (uint32_t i = 0; i < n; ++i) {
            spx_vec3 pos = spx_v3(at.x + ((float)i - (float)(n - 1) * 0.5f) * pitch,
                                  at.y + row_height * 0.5f + (float)row * row_height, at.z);
            if (!add_generated(r, &tpl, prefix_copy, index++, pos, tpl.def.rotation, path)) return false;
        }
    }
    return true;
}

/* ---- joints ------------------------------------------------------------------------------------ */

/* A body named by a joint: its name (a listed body without one is named by its path, "bodies[2]";
   a generator's are "NAME[i]") or its index in file order. */
static bool read_body_ref(reader* r, const cJSON* obj, const char* key, const char* path, int* out)
{
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    const scene* s = r->s;
    if (s->body_count == 0) return fail(r, p, "names a body, but the scene has none before its joints");
    if (cJSON_IsNumber(v)) {
        double x = v->valuedouble;
        if (!(x >= 0.0 && x < (double)s->body_count && x == floor(x)))
            return fail(r, p, "must be a body's index 0..%u or its name (found %g)", s->body_count - 1, x);
        *out = (int)x;
        return true;
    }
    if (!cJSON_IsString(v)) return fail(r, p, "must be a body's name or index (found %s)", kind_of(v));
    int found = -1;
    for (uint32_t i = 0; i < s->body_count; ++i)
        if (strcmp(s->bodies[i].name, v->valuestring) == 0) {
            if (found >= 0) return fail(r, p, "'%s' names more than one body: name them apart", v->valuestring);
            found = (int)i;
        }
    if (found < 0) return fail(r, p, "no body named '%s'", v->valuestring);
    *out = found;
    return true;
}

/* A frame in a body's frame: {"position": [x, y, z], "rotation": ...}. */
static bool read_frame(reader* r, const cJSON* obj, const char* key, const char* path, spx_transform* out)
{
    static const char* const keys[] = { "position", "rotation", NULL };
    char p[PATH_MAX_LEN];
    const cJSON* v = field(obj, key, path, p);
    if (!v) return true;
    return expect_object(r, v, p) && check_keys(r, v, p, keys, NULL) &&
           read_vec3(r, v, "position", p, -FAR, FAR, false, &out->p) && read_rotation(r, v, "rotation", p, &out->q);
}

/* The rotation taking the x axis onto the unit direction d (the shortest turn). */
static spx_quat x_onto(spx_vec3 d)
{
    /* Half-way vector h = x + d: the turn is about x cross h by twice the angle between them. */
    double hx = 1.0 + d.x, hy = d.y, hz = d.z;
    if (hx < 1e-9) return (spx_quat){ 0.0f, 0.0f, 1.0f, 0.0f }; /* d = -x: half a turn about z */
    double n = sqrt(hx * hx + hy * hy + hz * hz);
    hx /= n, hy /= n, hz /= n;
    /* q = (x cross h, x . h) */
    return (spx_quat){ 0.0f, (float)-hz, (float)hy, (float)hx };
}

typedef struct joint_kind {
    const char* name;
    spx_joint_type type;
    const char* const* keys; /* what this kind reads beyond the common keys */
} joint_kind;

static const char* const ball_keys[] = { NULL };
static const char* const hinge_keys[] = { "limit", "motor", "spring", NULL };
static const char* const weld_keys[] = { "spring", NULL };
static const char* const distance_keys[] = { "anchor_b", "length", "min_length", "max_length", "spring", NULL };
static const char* const cone_keys[] = { "swing_limit", "limit", NULL };
static const char* const wheel_keys[] = { "limit", "motor", "spring", "steering", NULL };
static const char* const drag_keys[] = { "target", "max_force", "spring", NULL };
static const joint_kind joint_kinds[] = {
    { "ball", SPX_JOINT_BALL, ball_keys },
    { "hinge", SPX_JOINT_HINGE, hinge_keys },
    { "slider", SPX_JOINT_SLIDER, hinge_keys },
    { "weld", SPX_JOINT_WELD, weld_keys },
    { "distance", SPX_JOINT_DISTANCE, distance_keys },
    { "cone_twist", SPX_JOINT_CONE_TWIST, cone_keys },
    { "wheel", SPX_JOINT_WHEEL, wheel_keys },
    { "drag", SPX_JOINT_DRAG, drag_keys },
};

/* "limit": {"lower", "upper"}, "motor": {"speed", "max_force"}, "spring": {"hertz", "damping_ratio"}:
   given, each is on; a spring's absent fields keep the kind's default. */
static bool read_joint_parts(reader* r, const cJSON* v, const char* path, spx_joint_def* d)
{
    static const char* const limit_keys[] = { "lower", "upper", NULL };
    static const char* const motor_keys[] = { "speed", "max_force", NULL };
    static const char* const spring_keys[] = { "hertz", "damping_ratio", NULL };
    const cJSON* limit = cJSON_GetObjectItemCaseSensitive(v, "limit");
    const cJSON* motor = cJSON_GetObjectItemCaseSensitive(v, "motor");
    const cJSON* spring = cJSON_GetObjectItemCaseSensitive(v, "spring");
    char p[PATH_MAX_LEN];
    if (limit) {
        join_key(p, path, "limit");
        d->limit.enable = true;
        if (!expect_object(r, limit, p) || !check_keys(r, limit, p, limit_keys, NULL) ||
            !require(r, limit, "lower", p) || !require(r, limit, "upper", p) ||
            !read_float(r, limit, "lower", p, -BIG, BIG, false, &d->limit.lower) ||
            !read_float(r, limit, "upper", p, -BIG, BIG, false, &d->limit.upper))
            return false;
        if (d->limit.lower > d->limit.upper)
            return fail(r, p, "lower (%g) must not be above upper (%g)", d->limit.lower, d->limit.upper);
    }
    if (motor) {
        join_key(p, path, "motor");
        d->motor.enable = true;
        if (!expect_object(r, motor, p) || !check_keys(r, motor, p, motor_keys, NULL) ||
            !require(r, motor, "max_force", p) ||
            !read_float(r, motor, "speed", p, -BIG, BIG, false, &d->motor.speed) ||
            !read_float(r, motor, "max_force", p, 0.0, BIG, false, &d->motor.max_force))
            return false;
    }
    if (spring) {
        join_key(p, path, "spring");
        d->spring.enable = true;
        if (!expect_object(r, spring, p) || !check_keys(r, spring, p, spring_keys, NULL) ||
            !read_float(r, spring, "hertz", p, 0.0, 1e6, false, &d->spring.hertz) ||
            !read_float(r, spring, "damping_ratio", p, 0.0, 1e6, false, &d->spring.damping_ratio))
            return false;
    }
    return true;
}

/* The fields of one kind: the distance joint's lengths, the cone's swing, the wheel's steering, the
   drag joint's target and force. A distance joint given in the world is as long as its anchors are
   apart unless told; a drag joint's target is its anchor unless told. */
static bool read_kind_fields(reader* r, const cJSON* v, const char* path, scene_joint* j)
{
    spx_joint_def* d = &j->def;
    char p[PATH_MAX_LEN];
    switch (d->type) {
    case SPX_JOINT_DISTANCE: {
        if (j->world_given) {
            float dx = j->anchor_b.x - j->anchor.x, dy = j->anchor_b.y - j->anchor.y, dz = j->anchor_b.z - j->anchor.z;
            float apart = sqrtf(dx * dx + dy * dy + dz * dz);
            if (apart > 0.0f) d->length = apart;
        }
        const bool min = cJSON_GetObjectItemCaseSensitive(v, "min_length") != NULL;
        const bool max = cJSON_GetObjectItemCaseSensitive(v, "max_length") != NULL;
        if (!read_float(r, v, "length", path, 0.0, FAR, true, &d->length)) return false;
        d->min_length = 0.0f, d->max_length = d->length;
        if (!read_float(r, v, "min_length", path, 0.0, FAR, false, &d->min_length) ||
            !read_float(r, v, "max_length", path, 0.0, FAR, false, &d->max_length))
            return false;
        d->limit.enable = min || max;
        join_key(p, path, "min_length");
        if (d->min_length > d->max_length)
            return fail(r, p, "must not be above max_length (%g > %g)", d->min_length, d->max_length);
        return true;
    }
    case SPX_JOINT_CONE_TWIST:
        return read_float(r, v, "swing_limit", path, 0.0, 3.14159265358979, false, &d->swing_limit);
    case SPX_JOINT_WHEEL:
        return read_float(r, v, "steering", path, -BIG, BIG, false, &d->steering);
    case SPX_JOINT_DRAG:
        if (j->world_given) d->target = j->anchor;
        return read_vec3(r, v, "target", path, -FAR, FAR, false, &d->target) &&
               read_float(r, v, "max_force", path, 0.0, BIG, true, &d->max_force);
    default:
        return true;
    }
}

static bool read_joint(reader* r, const cJSON* v, const char* path)
{
    static const char* const common[] = { "name",        "type",         "a",       "b",       "anchor",
                                          "axis",        "rotation",     "frame_a", "frame_b", "collide_connected",
                                          "break_force", "break_torque", NULL };
    char type[16] = "", pt[PATH_MAX_LEN];
    if (!read_type(r, v, path, type, pt)) return false;
    const joint_kind* kind = NULL;
    for (size_t i = 0; i < sizeof joint_kinds / sizeof joint_kinds[0]; ++i)
        if (strcmp(joint_kinds[i].name, type) == 0) kind = &joint_kinds[i];
    if (!kind)
        return fail(r, pt, "unknown joint type '%s' (ball, hinge, slider, weld, distance, cone_twist, wheel, drag)",
                    type);
    scene_joint* j = PUSH(r, r->s, joints, joint_count, joint_capacity, path);
    if (!j) return false;
    copy_text(j->where, sizeof j->where, path);
    j->def = spx_default_joint_def(kind->type);
    j->a = -1, j->b = -1;
    j->rotation = (spx_quat){ 0.0f, 0.0f, 0.0f, 1.0f };
    spx_joint_def* d = &j->def;
    if (!check_keys(r, v, path, common, kind->keys) || !read_string(r, v, "name", path, j->name, sizeof j->name) ||
        !require(r, v, "b", path) || !read_body_ref(r, v, "a", path, &j->a) || !read_body_ref(r, v, "b", path, &j->b) ||
        !read_bool(r, v, "collide_connected", path, &d->collide_connected) ||
        !read_float(r, v, "break_force", path, 0.0, FLT_MAX, false, &d->break_force) ||
        !read_float(r, v, "break_torque", path, 0.0, FLT_MAX, false, &d->break_torque) ||
        !read_joint_parts(r, v, path, d))
        return false;
    if (!j->name[0]) copy_text(j->name, sizeof j->name, path);
    char p[PATH_MAX_LEN];
    const scene_body* bodies = r->s->bodies;
    if (j->a == j->b) {
        join_key(p, path, "b");
        return fail(r, p, "a joint joins two different bodies (a and b are the same)");
    }
    if ((j->a < 0 || bodies[j->a].def.type != SPX_BODY_DYNAMIC) && bodies[j->b].def.type != SPX_BODY_DYNAMIC)
        return fail(r, path, "neither body is dynamic: a joint must move at least one");
    if (kind->type == SPX_JOINT_DRAG && j->a >= 0) {
        join_key(p, path, "a");
        return fail(r, p, "a drag joint pulls b to a world target: it takes no body a");
    }

    /* The frames: in the bodies' frames, or in the world at the start (the default: both frames
       on B's origin, unturned). */
    const bool frames =
        cJSON_GetObjectItemCaseSensitive(v, "frame_a") || cJSON_GetObjectItemCaseSensitive(v, "frame_b");
    const bool world = cJSON_GetObjectItemCaseSensitive(v, "anchor") || cJSON_GetObjectItemCaseSensitive(v, "axis") ||
                       cJSON_GetObjectItemCaseSensitive(v, "rotation") ||
                       cJSON_GetObjectItemCaseSensitive(v, "anchor_b");
    if (frames && world)
        return fail(r, path,
                    "give the frames either in the bodies (frame_a, frame_b) or in the world (anchor, "
                    "anchor_b, axis or rotation), not both");
    if (frames)
        return read_frame(r, v, "frame_a", path, &d->frame_a) && read_frame(r, v, "frame_b", path, &d->frame_b) &&
               read_kind_fields(r, v, path, j);
    j->world_given = true;
    j->anchor = bodies[j->b].def.position;
    if (!read_vec3(r, v, "anchor", path, -FAR, FAR, false, &j->anchor)) return false;
    j->anchor_b = j->anchor;
    if (!read_vec3(r, v, "anchor_b", path, -FAR, FAR, false, &j->anchor_b)) return false;
    if (cJSON_GetObjectItemCaseSensitive(v, "axis")) {
        join_key(p, path, "axis");
        if (cJSON_GetObjectItemCaseSensitive(v, "rotation"))
            return fail(r, p, "give the joint's axis or its rotation, not both");
        spx_vec3 axis = spx_v3(1, 0, 0);
        if (!read_vec3(r, v, "axis", path, -BIG, BIG, false, &axis)) return false;
        float n = sqrtf(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
        if (!(n > 1e-6f)) return fail(r, p, "must not be the zero vector");
        j->rotation = x_onto(spx_v3(axis.x / n, axis.y / n, axis.z / n));
    }
    return read_rotation(r, v, "rotation", path, &j->rotation) && read_kind_fields(r, v, path, j);
}

/* ---- the file ------------------------------------------------------------------------------------ */

static bool syntax_error(reader* r, const char* text, size_t length, const char* at)
{
    size_t pos = at && at >= text && at <= text + length ? (size_t)(at - text) : length;
    /* cJSON points into a string it could not finish: one that runs to the end of the text means the
       file was cut short, and the place to name is the end. */
    bool in_string = (pos < length && text[pos] == '"') || (pos > 0 && text[pos - 1] == '"');
    if (in_string && pos < length && !memchr(text + pos + 1, '"', length - pos - 1)) pos = length;
    size_t rest = pos;
    while (rest < length && (text[rest] == ' ' || text[rest] == '\t' || text[rest] == '\r' || text[rest] == '\n'))
        ++rest;
    if (rest >= length || text[rest] == '\0') pos = rest;
    unsigned line = 1, column = 1;
    for (size_t i = 0; i < pos; ++i) {
        if (text[i] == '\n') ++line, column = 1;
        else ++column;
    }
    if (r->message_size) {
        if (rest >= length || text[rest] == '\0')
            snprintf(r->message, r->message_size,
                     "%s:%u:%u: JSON syntax error: the file ends too early (truncated? "
                     "a string, '}' or ']' is not closed)",
                     r->file, line, column);
        else {
            /* Up to 12 characters of the text, which need not end with a NUL. */
            const int shown = length - pos < 12 ? (int)(length - pos) : 12;
            snprintf(r->message, r->message_size, "%s:%u:%u: JSON syntax error near '%.*s'", r->file, line, column,
                     shown, text + pos);
        }
        for (char* c = r->message; *c; ++c)
            if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
    }
    return false;
}

bool scene_read_text(const char* text, size_t length, const char* file, scene_unknown_keys unknown, scene* out,
                     char* message, size_t message_size)
{
    memset(out, 0, sizeof *out);
    if (message_size) message[0] = '\0';
    reader r = { file ? file : "<text>", NULL, unknown, message, message_size, out };
    /* Mesh paths are relative to the scene file's folder, kept with its final '/'. */
    const char* slash = file ? strrchr(file, '/') : NULL;
    size_t dir_len = slash ? (size_t)(slash - file) + 1 : 0;
    if (!(r.dir = malloc(dir_len + 1)) || !(out->file = strdup(r.file))) {
        free(r.dir);
        fail(&r, "", "out of memory");
        scene_free(out);
        return false;
    }
    memcpy(r.dir, file ? file : "", dir_len);
    r.dir[dir_len] = '\0';

    out->world = spx_default_world_def();
    out->dt = 1.0f / 60.0f;
    out->steps = 300;
    copy_text(out->name, sizeof out->name, r.file);
    bool ok = true;
    scene_material* def = PUSH(&r, out, materials, material_count, material_capacity, "materials");
    if (def) *def = (scene_material){ "default", 0.6f, 0.0f, 1000.0f };
    else ok = false;

    const char* end = NULL;
    cJSON* root = ok ? cJSON_ParseWithLengthOpts(text, length, &end, false) : NULL;
    if (ok && !root) ok = syntax_error(&r, text, length, end);
    if (ok) {
        /* Anything but white space after the value is an error too (cJSON stops at the value's end). */
        size_t pos = (size_t)(end - text);
        while (pos < length && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r' || text[pos] == '\n')) ++pos;
        if (pos < length && text[pos] != '\0') ok = syntax_error(&r, text, length, text + pos);
    }
    if (ok && !cJSON_IsObject(root))
        ok = fail(&r, "", "the file must hold one JSON object {...} (found %s)", kind_of(root));
    static const char* const top_keys[] = { "name",   "description", "world",      "camera", "materials",
                                            "meshes", "bodies",      "generators", "joints", NULL };
    ok = ok && check_keys(&r, root, "", top_keys, NULL);
    char description[4096];
    ok = ok && read_string(&r, root, "name", "", out->name, sizeof out->name) &&
         read_string(&r, root, "description", "", description, sizeof description);
    /* Sections in dependency order: materials and meshes are named by bodies. */
    static const char* const order[] = { "world", "camera", "materials", "meshes", "bodies", "generators", "joints" };
    for (size_t i = 0; ok && i < sizeof order / sizeof order[0]; ++i) {
        const cJSON* v = cJSON_GetObjectItemCaseSensitive(root, order[i]);
        if (!v) continue;
        switch (i) {
        case 0:
            ok = read_world(&r, v, order[i]);
            break;
        case 1:
            ok = read_camera(&r, v, order[i]);
            break;
        case 2:
            ok = read_materials(&r, v, order[i]);
            break;
        case 3:
            ok = read_meshes(&r, v, order[i]);
            break;
        case 4:
            ok = read_array(&r, v, order[i], "bodies", read_listed_body);
            break;
        case 5:
            ok = read_array(&r, v, order[i], "generators", read_generator);
            break;
        default:
            ok = read_array(&r, v, order[i], "joints", read_joint);
            break;
        }
    }
    if (ok && out->body_count == 0) ok = fail(&r, "", "no bodies: give \"bodies\" or \"generators\"");
    cJSON_Delete(root);
    free(r.dir);
    if (!ok) scene_free(out);
    return ok;
}

bool scene_read_file(const char* path, scene_unknown_keys unknown, scene* out, char* message, size_t message_size)
{
    memset(out, 0, sizeof *out);
    FILE* f = fopen(path, "rb");
    if (!f) {
        if (message_size) snprintf(message, message_size, "%s: cannot open the scene file: %s", path, strerror(errno));
        return false;
    }
    size_t size = 0, capacity = 65536;
    char* text = malloc(capacity);
    bool ok = text != NULL;
    while (ok) {
        if (size == capacity) {
            char* bigger = capacity < ((size_t)1 << 30) ? realloc(text, capacity * 2) : NULL;
            if (!bigger) {
                ok = false;
                break;
            }
            text = bigger, capacity *= 2;
        }
        size_t got = fread(text + size, 1, capacity - size, f);
        size += got;
        if (got == 0) break;
    }
    bool read_error = ferror(f);
    fclose(f);
    if (!ok || read_error) {
        if (message_size)
            snprintf(message, message_size, "%s: cannot read the scene file: %s", path,
                     read_error ? "read error" : "too large or out of memory");
        free(text);
        return false;
    }
    ok = scene_read_text(text, size, path, unknown, out, message, message_size);
    free(text);
    return ok;
}
