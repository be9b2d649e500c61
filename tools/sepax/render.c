/* sepax render: pictures of a scene as it runs, drawn with cairo. A fixed perspective camera (the
 * scene's "camera", else one framed on the bodies), every face of every shape the world draws
 * through its debug-draw table (spx_world_draw) shaded by one light and painted far to near (faces
 * larger than a tile are cut into tiles so that the ground sorts well against the bodies on it),
 * contact points found by the public queries marked in red; with --contacts and --joints the
 * world's own contact points, normals and joints drawn over them. Writes
 * frame-NNN.png, sheet.png (every frame on one page) and plot.png (kinetic energy and deepest
 * penetration over time). */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "machine.h"
#include "measure.h"
#include "report.h"
#include "tool_math.h"

#include <cairo.h>

#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NEAR_PLANE 0.1f /* m: faces closer to the eye than this are left out rather than clipped */
#define TILE 2.0f       /* m: a box face is cut into tiles at most this long */
#define MAX_TILES 64    /* along one edge of a face */

typedef struct camera {
    spx_vec3 eye, right, up, forward;
    float focal; /* pixels */
    float cx, cy;
    spx_vec3 light; /* towards the light: above, over the viewer's left shoulder, so the faces seen are lit */
} camera;

typedef struct face {
    float depth;      /* m along the view direction; painted largest first */
    float x[4], y[4]; /* pixels */
    int n;
    float r, g, b;
    bool outline; /* box faces get a darker edge; mesh triangles are filled seamlessly */
} face;

/* A line or a point the world's debug drawing gave (contacts, joints), drawn over the faces. */
typedef struct mark {
    spx_vec3 a, b;  /* a point has a == b */
    uint32_t color; /* 0xRRGGBB */
    bool point;
} mark;

typedef struct canvas {
    face* faces;
    size_t count, capacity;
    mark* marks;
    size_t mark_count, mark_capacity;
    int width, height;
    camera cam;
    const scene* s;
    uint32_t* body_of_slot; /* scene body of each body id's slot (id.index - 1) */
    uint32_t slot_count;
    bool failed; /* a callback ran out of memory or met an unknown body */
} canvas;

static bool project(const camera* c, spx_vec3 p, float* x, float* y, float* depth)
{
    spx_vec3 d = tm_sub(p, c->eye);
    float z = tm_dot(d, c->forward);
    if (z < NEAR_PLANE) return false;
    *x = c->cx + c->focal * tm_dot(d, c->right) / z;
    *y = c->cy - c->focal * tm_dot(d, c->up) / z;
    *depth = z;
    return true;
}

static camera make_camera(spx_vec3 eye, spx_vec3 target, float fov_deg, int width, int height)
{
    camera c;
    c.eye = eye;
    c.forward = tm_normalize(tm_sub(target, eye));
    spx_vec3 up = fabsf(c.forward.y) > 0.99f ? spx_v3(0, 0, -1) : spx_v3(0, 1, 0);
    c.right = tm_normalize(tm_cross(c.forward, up));
    c.up = tm_cross(c.right, c.forward);
    c.focal = 0.5f * (float)height / tanf(fov_deg * 3.14159265f / 360.0f);
    c.cx = 0.5f * (float)width, c.cy = 0.5f * (float)height;
    c.light = tm_normalize(tm_add(tm_add(spx_v3(0, 1.0f, 0), tm_scale(c.forward, -0.6f)), tm_scale(c.right, -0.3f)));
    return c;
}

/* The scene's camera, or one looking down at the dynamic bodies from the front right. */
static camera framing_camera(const scene* s, int width, int height)
{
    if (s->camera.given) return make_camera(s->camera.eye, s->camera.target, s->camera.fov_deg, width, height);
    spx_vec3 lo = spx_v3(FLT_MAX, FLT_MAX, FLT_MAX), hi = spx_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX);
    for (int pass = 0; pass < 2 && lo.x == FLT_MAX; ++pass)
        for (uint32_t i = 0; i < s->body_count; ++i) {
            if (pass == 0 && s->bodies[i].def.type == SPX_BODY_STATIC) continue;
            spx_vec3 p = s->bodies[i].def.position;
            lo = spx_v3(fminf(lo.x, p.x), fminf(lo.y, p.y), fminf(lo.z, p.z));
            hi = spx_v3(fmaxf(hi.x, p.x), fmaxf(hi.y, p.y), fmaxf(hi.z, p.z));
        }
    spx_vec3 target = tm_scale(tm_add(lo, hi), 0.5f);
    target.y = lo.y + 0.35f * (hi.y - lo.y);
    float extent = 0.5f * tm_length(tm_sub(hi, lo)) + 2.0f;
    float fov = 40.0f, distance = 1.25f * extent / tanf(fov * 3.14159265f / 360.0f);
    spx_vec3 eye = tm_add(target, tm_scale(tm_normalize(spx_v3(0.55f, 0.5f, 1.0f)), distance));
    return make_camera(eye, target, fov, width, height);
}

static bool push_face(canvas* cv, const face* f)
{
    if (cv->count == cv->capacity) {
        size_t next = cv->capacity ? 2 * cv->capacity : 4096;
        face* p = realloc(cv->faces, next * sizeof *p);
        if (!p) return false;
        cv->faces = p, cv->capacity = next;
    }
    cv->faces[cv->count++] = *f;
    return true;
}

/* A flat polygon (3 or 4 corners, world) with its outward normal, shaded and projected. */
static bool add_polygon(canvas* cv, const spx_vec3* p, int n, spx_vec3 normal, const float color[3], float tint,
                        bool two_sided, bool outline, bool behind)
{
    spx_vec3 center = p[0];
    for (int k = 1; k < n; ++k) center = tm_add(center, p[k]);
    center = tm_scale(center, 1.0f / (float)n);
    if (tm_dot(normal, tm_sub(center, cv->cam.eye)) > 0.0f) {
        if (!two_sided) return true; /* seen from behind */
        normal = tm_scale(normal, -1.0f);
    }
    face f;
    f.n = n;
    f.outline = outline;
    float depth = 0.0f, farthest = 0.0f;
    for (int k = 0; k < n; ++k) {
        float z;
        if (!project(&cv->cam, p[k], &f.x[k], &f.y[k], &z)) return true;
        depth += z;
        farthest = fmaxf(farthest, z);
    }
    /* The ground (`behind`: static bodies) sorts by its farthest corner, so a tile never covers what
       stands on it; moving bodies by their centre. */
    f.depth = behind ? farthest : depth / (float)n;
    float light = 0.42f + 0.58f * fmaxf(0.0f, tm_dot(normal, cv->cam.light));
    f.r = color[0] * light * tint, f.g = color[1] * light * tint, f.b = color[2] * light * tint;
    return push_face(cv, &f);
}

static void body_color(const scene* s, uint32_t i, bool asleep, float out[3])
{
    static const float palette[8][3] = { { 0.86f, 0.45f, 0.32f }, { 0.32f, 0.56f, 0.84f }, { 0.93f, 0.74f, 0.30f },
                                         { 0.45f, 0.72f, 0.44f }, { 0.70f, 0.47f, 0.80f }, { 0.36f, 0.74f, 0.76f },
                                         { 0.88f, 0.55f, 0.66f }, { 0.60f, 0.60f, 0.38f } };
    const scene_body* b = &s->bodies[i];
    if (b->color[0] >= 0.0f) memcpy(out, b->color, 3 * sizeof(float));
    else if (b->def.type == SPX_BODY_STATIC) out[0] = 0.62f, out[1] = 0.64f, out[2] = 0.62f;
    else if (b->def.type == SPX_BODY_KINEMATIC) out[0] = 0.55f, out[1] = 0.42f, out[2] = 0.75f;
    else memcpy(out, palette[(i * 2654435761u >> 7) % 8], 3 * sizeof(float));
    if (asleep) /* sleeping bodies fade towards grey-blue */
        for (int k = 0; k < 3; ++k) out[k] = 0.6f * out[k] + 0.4f * (k == 2 ? 0.62f : 0.5f);
}

/* A box's six faces, cut into tiles where they are large (a ground box), every other tile darker. */
static bool add_box(canvas* cv, spx_transform t, spx_vec3 h, const float color[3], bool checker)
{
    static const int axes[3][2] = { { 1, 2 }, { 2, 0 }, { 0, 1 } };
    float he[3] = { h.x, h.y, h.z };
    for (int a = 0; a < 3; ++a)
        for (int side = -1; side <= 1; side += 2) {
            int u = axes[a][0], v = axes[a][1];
            int nu = (int)fminf(MAX_TILES, ceilf(2.0f * he[u] / TILE)),
                nv = (int)fminf(MAX_TILES, ceilf(2.0f * he[v] / TILE));
            float n_local[3] = { 0, 0, 0 };
            n_local[a] = (float)side;
            spx_vec3 normal = tm_rotate(t.q, spx_v3(n_local[0], n_local[1], n_local[2]));
            for (int i = 0; i < nu; ++i)
                for (int j = 0; j < nv; ++j) {
                    spx_vec3 p[4];
                    for (int k = 0; k < 4; ++k) {
                        /* corners counter-clockwise seen from outside */
                        int di = k == 1 || k == 2, dj = k >= 2;
                        if (side < 0) di = k == 2 || k == 3, dj = k == 1 || k == 2;
                        float c[3];
                        c[a] = (float)side * he[a];
                        c[u] = -he[u] + 2.0f * he[u] * (float)(i + di) / (float)nu;
                        c[v] = -he[v] + 2.0f * he[v] * (float)(j + dj) / (float)nv;
                        p[k] = tm_apply(t, spx_v3(c[0], c[1], c[2]));
                    }
                    float tint = checker && ((i + j) & 1) ? 0.9f : 1.0f;
                    if (!add_polygon(cv, p, 4, normal, color, tint, false, !checker, checker)) return false;
                }
        }
    return true;
}

static bool add_mesh(canvas* cv, spx_transform t, const spx_mesh* m, const float color[3], bool checker)
{
    spx_mesh_info info;
    if (spx_mesh_get_info(m, &info) != SPX_OK) return false;
    for (uint32_t i = 0; i < info.triangle_count; ++i) {
        spx_triangle tri;
        if (spx_mesh_get_triangle(m, i, &tri, NULL) != SPX_OK) return false;
        spx_vec3 p[3];
        for (int k = 0; k < 3; ++k) p[k] = tm_apply(t, tri.v[k]);
        spx_vec3 normal = tm_normalize(tm_cross(tm_sub(p[1], p[0]), tm_sub(p[2], p[0])));
        float tint = 1.0f;
        if (checker) {
            spx_vec3 c = tm_scale(tm_add(tm_add(tri.v[0], tri.v[1]), tri.v[2]), 1.0f / 3.0f);
            tint = ((int)floorf(c.x / TILE) + (int)floorf(c.z / TILE)) & 1 ? 0.9f : 1.0f;
        }
        if (!add_polygon(cv, p, 3, normal, color, tint, !info.closed, false, checker)) return false;
    }
    return true;
}

/* A convex hull: each face a fan of triangles from its first corner, lit by the face's normal. */
static bool add_hull(canvas* cv, spx_transform t, const spx_hull* h, const float color[3])
{
    spx_hull_info info;
    if (spx_hull_get_info(h, &info) != SPX_OK) return false;
    for (uint32_t i = 0; i < info.face_count; ++i) {
        spx_hull_face f;
        if (spx_hull_get_face(h, i, &f) != SPX_OK) return false;
        const spx_vec3 normal = tm_rotate(t.q, f.normal);
        spx_vec3 p[3], c;
        if (spx_hull_get_corner(h, f.corners[0], &c) != SPX_OK) return false;
        p[0] = tm_apply(t, c);
        for (uint32_t k = 1; k + 1 < f.corner_count; ++k) {
            for (int m = 0; m < 2; ++m) {
                if (spx_hull_get_corner(h, f.corners[k + (uint32_t)m], &c) != SPX_OK) return false;
                p[1 + m] = tm_apply(t, c);
            }
            if (!add_polygon(cv, p, 3, normal, color, 1.0f, false, false, false)) return false;
        }
    }
    return true;
}

/* A sphere (half_height 0) or a capsule along the shape's y axis: rings of latitude from pole to
   pole, the two half balls apart by the segment, each quad lit by the surface's normal at its middle. */
static bool add_round(canvas* cv, spx_transform t, float radius, float half_height, const float color[3])
{
    enum { AROUND = 16, HALF = 5 };
    /* Ring k of 2 (HALF + 1): latitude -pi/2 .. 0 on the lower ball, then 0 .. pi/2 on the upper. */
    float lat[2 * (HALF + 1)], y[2 * (HALF + 1)];
    for (int k = 0; k <= HALF; ++k) {
        lat[k] = -1.5707963f + 1.5707963f * (float)k / HALF, y[k] = -half_height;
        lat[HALF + 1 + k] = 1.5707963f * (float)k / HALF, y[HALF + 1 + k] = half_height;
    }
    for (int k = 0; k + 1 < 2 * (HALF + 1); ++k) {
        if (k == HALF && !(half_height > 0.0f)) continue; /* a sphere: no band between the halves */
        for (int j = 0; j < AROUND; ++j) {
            spx_vec3 p[4];
            const int ks[4] = { k, k, k + 1, k + 1 }, js[4] = { j, j + 1, j + 1, j };
            for (int m = 0; m < 4; ++m) {
                const float a = 6.2831853f * (float)js[m] / AROUND, c = cosf(lat[ks[m]]);
                p[m] = tm_apply(
                    t, spx_v3(radius * c * cosf(a), y[ks[m]] + radius * sinf(lat[ks[m]]), -radius * c * sinf(a)));
            }
            const float a = 6.2831853f * ((float)j + 0.5f) / AROUND, l = 0.5f * (lat[k] + lat[k + 1]);
            const spx_vec3 normal = tm_rotate(t.q, spx_v3(cosf(l) * cosf(a), sinf(l), -cosf(l) * sinf(a)));
            /* At a pole two corners meet: a triangle. */
            if (k == 0) {
                const spx_vec3 tri[3] = { p[0], p[2], p[3] };
                if (!add_polygon(cv, tri, 3, normal, color, 1.0f, false, false, false)) return false;
            } else if (k + 2 == 2 * (HALF + 1)) {
                if (!add_polygon(cv, p, 3, normal, color, 1.0f, false, false, false)) return false;
            } else if (!add_polygon(cv, p, 4, normal, color, 1.0f, false, false, false)) {
                return false;
            }
        }
    }
    return true;
}

static int by_depth(const void* a, const void* b)
{
    float x = ((const face*)a)->depth, y = ((const face*)b)->depth;
    return x > y ? -1 : x < y;
}

static void draw_sky(cairo_t* cr, int height)
{
    cairo_pattern_t* sky = cairo_pattern_create_linear(0, 0, 0, height);
    cairo_pattern_add_color_stop_rgb(sky, 0.0, 0.62, 0.76, 0.90);
    cairo_pattern_add_color_stop_rgb(sky, 1.0, 0.95, 0.96, 0.97);
    cairo_set_source(cr, sky);
    cairo_paint(cr);
    cairo_pattern_destroy(sky);
}

static void label_box(cairo_t* cr, double x, double y, const char* lines[], int n)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 14);
    double w = 0;
    for (int i = 0; i < n; ++i) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, lines[i], &e);
        if (e.x_advance > w) w = e.x_advance;
    }
    cairo_set_source_rgba(cr, 1, 1, 1, 0.78);
    cairo_rectangle(cr, x - 6, y - 16, w + 12, 19.0 * n + 8);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
    for (int i = 0; i < n; ++i) {
        cairo_move_to(cr, x, y + 19.0 * i);
        cairo_show_text(cr, lines[i]);
    }
}

/* ---- the world's debug drawing into the canvas --------------------------------------------------- */

/* The scene's colour of the shape's body (faded when it sleeps); false for a body the scene did not make. */
static bool shape_color(canvas* cv, const spx_debug_shape* sh, float color[3])
{
    const uint32_t slot = sh->body.index - 1;
    if (sh->body.index == 0 || slot >= cv->slot_count || cv->body_of_slot[slot] == UINT32_MAX) return false;
    body_color(cv->s, cv->body_of_slot[slot], sh->body_type != SPX_BODY_STATIC && !sh->awake, color);
    return true;
}

static void on_box(const spx_transform* pose, spx_vec3 half, const spx_debug_shape* sh, void* context)
{
    canvas* cv = context;
    float color[3];
    if (!shape_color(cv, sh, color) || !add_box(cv, *pose, half, color, sh->body_type == SPX_BODY_STATIC))
        cv->failed = true;
}

static void on_mesh(const spx_mesh* mesh, const spx_transform* pose, const spx_debug_shape* sh, void* context)
{
    canvas* cv = context;
    float color[3];
    if (!shape_color(cv, sh, color) || !add_mesh(cv, *pose, mesh, color, sh->body_type == SPX_BODY_STATIC))
        cv->failed = true;
}

static void on_round(const spx_transform* pose, float radius, float half_height, const spx_debug_shape* sh,
                     void* context)
{
    canvas* cv = context;
    float color[3];
    if (!shape_color(cv, sh, color) || !add_round(cv, *pose, radius, half_height, color)) cv->failed = true;
}

static void on_hull(const spx_hull* hull, const spx_transform* pose, const spx_debug_shape* sh, void* context)
{
    canvas* cv = context;
    float color[3];
    if (!shape_color(cv, sh, color) || !add_hull(cv, *pose, hull, color)) cv->failed = true;
}

static void push_mark(canvas* cv, spx_vec3 a, spx_vec3 b, uint32_t color, bool point)
{
    if (cv->mark_count == cv->mark_capacity) {
        size_t next = cv->mark_capacity ? 2 * cv->mark_capacity : 1024;
        mark* p = realloc(cv->marks, next * sizeof *p);
        if (!p) {
            cv->failed = true;
            return;
        }
        cv->marks = p, cv->mark_capacity = next;
    }
    cv->marks[cv->mark_count++] = (mark){ a, b, color, point };
}

static void on_segment(spx_vec3 a, spx_vec3 b, uint32_t color, void* context)
{
    push_mark(context, a, b, color, false);
}

static void on_point(spx_vec3 p, float size, uint32_t color, void* context)
{
    (void)size;
    push_mark(context, p, p, color, true);
}

static void set_rgb(cairo_t* cr, uint32_t color, double scale)
{
    cairo_set_source_rgb(cr, scale * (double)(color >> 16 & 0xFF) / 255.0, scale * (double)(color >> 8 & 0xFF) / 255.0,
                         scale * (double)(color & 0xFF) / 255.0);
}

/* The marks over the faces: lines first, points on top. */
static void draw_marks(cairo_t* cr, const canvas* cv)
{
    cairo_set_line_width(cr, 1.5);
    for (size_t i = 0; i < cv->mark_count; ++i) {
        const mark* k = &cv->marks[i];
        float x0, y0, z0, x1, y1, z1;
        if (k->point || !project(&cv->cam, k->a, &x0, &y0, &z0) || !project(&cv->cam, k->b, &x1, &y1, &z1)) continue;
        cairo_move_to(cr, x0, y0);
        cairo_line_to(cr, x1, y1);
        set_rgb(cr, k->color, 1.0);
        cairo_stroke(cr);
    }
    for (size_t i = 0; i < cv->mark_count; ++i) {
        const mark* k = &cv->marks[i];
        float x, y, z;
        if (!k->point || !project(&cv->cam, k->a, &x, &y, &z)) continue;
        cairo_arc(cr, x, y, fmax(1.5, fmin(3.5, 50.0 / z)), 0, 6.2831853);
        set_rgb(cr, k->color, 1.0);
        cairo_fill_preserve(cr);
        set_rgb(cr, k->color, 0.4);
        cairo_set_line_width(cr, 0.6);
        cairo_stroke(cr);
    }
}

/* One frame of the scene as it is now: the world draws its shapes (and, as `extra` asks, its
   contacts and joints) into the canvas through the debug-draw table. */
static bool draw_frame(canvas* cv, const scene* s, measure* m, cairo_surface_t* surface, uint32_t step, uint32_t steps,
                       const measure_result* q, const spx_debug_draw* extra)
{
    cv->count = 0;
    cv->mark_count = 0;
    cv->failed = false;
    spx_debug_draw d = *extra;
    d.draw_box = on_box, d.draw_mesh = on_mesh, d.draw_round = on_round, d.draw_hull = on_hull,
    d.draw_segment = on_segment, d.draw_point = on_point;
    d.draw_triangle = NULL, d.draw_bounds = NULL;
    d.context = cv;
    d.draw_shapes = true;
    if (spx_world_draw(s->w, &d) != SPX_OK || cv->failed) return false;
    qsort(cv->faces, cv->count, sizeof *cv->faces, by_depth);
    cairo_t* cr = cairo_create(surface);
    draw_sky(cr, cv->height);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (size_t i = 0; i < cv->count; ++i) {
        const face* f = &cv->faces[i];
        cairo_move_to(cr, f->x[0], f->y[0]);
        for (int k = 1; k < f->n; ++k) cairo_line_to(cr, f->x[k], f->y[k]);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, f->r, f->g, f->b);
        /* A thin stroke in the fill's colour closes the hairline gaps antialiasing leaves between faces. */
        cairo_fill_preserve(cr);
        if (f->outline) cairo_set_source_rgb(cr, 0.55 * f->r, 0.55 * f->g, 0.55 * f->b);
        cairo_set_line_width(cr, f->outline ? 0.9 : 0.6);
        cairo_stroke(cr);
    }
    uint32_t count;
    const measure_point* points = measure_points(m, &count);
    /* Only points in contact (the margin's speculative ones left out), smaller when there are many. */
    double size = count > 1500 ? 0.45 : count > 300 ? 0.7 : 1.0;
    uint32_t shown = 0;
    for (uint32_t i = 0; i < count; ++i) {
        float x, y, z;
        if (points[i].depth < -MEASURE_TOUCH_GAP || !project(&cv->cam, points[i].point, &x, &y, &z)) continue;
        ++shown;
        double radius = size * fmax(1.5, fmin(4.0, 60.0 / z));
        cairo_arc(cr, x, y, radius, 0, 6.2831853);
        cairo_set_source_rgb(cr, 0.9, 0.08, 0.06);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.35, 0.0, 0.0);
        cairo_set_line_width(cr, 0.6);
        cairo_stroke(cr);
    }
    draw_marks(cr, cv);
    char l0[160], l1[160], l2[160];
    snprintf(l0, sizeof l0, "%s   t = %.2f s   step %u of %u", s->name, (double)step * (double)s->dt, step, steps);
    snprintf(l1, sizeof l1, "kinetic energy %.4g J   deepest penetration %.1f mm", q->kinetic,
             1000.0 * (double)q->deepest);
    spx_step_stats st;
    spx_world_get_stats(s->w, &st);
    snprintf(l2, sizeof l2,
             "%u touching points (red; %u in view) of %u solver points   %u of %u dynamic bodies asleep   %u fallen",
             q->touching_points, shown, st.contact_point_count, q->sleeping, q->dynamic, q->fallen);
    const char* lines[3] = { l0, l1, l2 };
    label_box(cr, 14, 24, lines, 3);
    bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    return ok;
}

/* ---- the plot --------------------------------------------------------------------------------- */

/* A round tick step giving about `want` ticks over `range`. */
static double tick_step(double range, int want)
{
    double raw = range / want, p = pow(10.0, floor(log10(raw))), f = raw / p;
    return p * (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0);
}

static void plot_panel(cairo_t* cr, double x0, double y0, double w, double h, const double* t, const double* v,
                       size_t n, double t_end, const char* title, const char* unit, double r, double g, double b)
{
    double vmax = 0.0;
    for (size_t i = 0; i < n; ++i) vmax = fmax(vmax, v[i]);
    if (!(vmax > 0.0)) vmax = 1.0;
    double vstep = tick_step(vmax, 4);
    vmax = ceil(vmax / vstep) * vstep;
    if (!(t_end > 0.0)) t_end = 1.0;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, x0, y0, w, h);
    cairo_fill(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    char text[64];
    for (double y = 0.0; y <= vmax * 1.0001; y += vstep) {
        double py = y0 + h - h * y / vmax;
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.9);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, x0, py);
        cairo_line_to(cr, x0 + w, py);
        cairo_stroke(cr);
        snprintf(text, sizeof text, "%g", y);
        cairo_text_extents_t e;
        cairo_text_extents(cr, text, &e);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.3);
        cairo_move_to(cr, x0 - 8 - e.x_advance, py + 4);
        cairo_show_text(cr, text);
    }
    double tstep = tick_step(t_end, 8);
    for (double x = 0.0; x <= t_end * 1.0001; x += tstep) {
        double px = x0 + w * x / t_end;
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.9);
        cairo_move_to(cr, px, y0);
        cairo_line_to(cr, px, y0 + h);
        cairo_stroke(cr);
        snprintf(text, sizeof text, "%g", x);
        cairo_text_extents_t e;
        cairo_text_extents(cr, text, &e);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.3);
        cairo_move_to(cr, px - e.x_advance / 2, y0 + h + 16);
        cairo_show_text(cr, text);
    }
    cairo_set_source_rgb(cr, r, g, b);
    cairo_set_line_width(cr, 1.8);
    for (size_t i = 0; i < n; ++i) {
        double px = x0 + w * t[i] / t_end, py = y0 + h - h * v[i] / vmax;
        if (i == 0) cairo_move_to(cr, px, py);
        else cairo_line_to(cr, px, py);
    }
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.35);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x0, y0, w, h);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 14);
    cairo_move_to(cr, x0, y0 - 8);
    snprintf(text, sizeof text, "%s (%s)", title, unit);
    cairo_show_text(cr, text);
}

static bool write_plot(const char* path, const scene* s, const double* t, const double* energy, const double* depth,
                       size_t n, double t_end)
{
    int width = 960, height = 600;
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t* cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 0.96, 0.96, 0.97);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 16);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
    char title[128];
    snprintf(title, sizeof title, "%s: energy and penetration over time", s->name);
    cairo_move_to(cr, 80, 28);
    cairo_show_text(cr, title);
    plot_panel(cr, 80, 70, 850, 200, t, energy, n, t_end, "kinetic energy", "J", 0.15, 0.4, 0.75);
    double* scaled = malloc((n ? n : 1) * sizeof *scaled);
    if (scaled) {
        for (size_t i = 0; i < n; ++i) scaled[i] = depth[i] * 1000.0;
        plot_panel(cr, 80, 340, 850, 200, t, scaled, n, t_end, "deepest penetration between two bodies", "mm", 0.8, 0.2,
                   0.15);
    }
    cairo_set_font_size(cr, 13);
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.3);
    cairo_move_to(cr, 460, 585);
    cairo_show_text(cr, "time (s)");
    cairo_destroy(cr);
    bool ok = scaled && cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS;
    free(scaled);
    cairo_surface_destroy(surface);
    return ok;
}

/* ---- the command -------------------------------------------------------------------------------- */

static bool write_sheet(const char* path, cairo_surface_t** frames, int count, int width, int height)
{
    int cols = count <= 4 ? 2 : 3, rows = (count + cols - 1) / cols;
    double scale = 0.5;
    int tw = (int)(width * scale), th = (int)(height * scale), gap = 6;
    cairo_surface_t* sheet =
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, cols * tw + (cols + 1) * gap, rows * th + (rows + 1) * gap);
    cairo_t* cr = cairo_create(sheet);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.22);
    cairo_paint(cr);
    for (int i = 0; i < count; ++i) {
        cairo_save(cr);
        cairo_translate(cr, gap + (i % cols) * (tw + gap), gap + (i / cols) * (th + gap));
        cairo_scale(cr, scale, scale);
        cairo_set_source_surface(cr, frames[i], 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_paint(cr);
        cairo_restore(cr);
    }
    cairo_destroy(cr);
    bool ok = cairo_surface_write_to_png(sheet, path) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(sheet);
    return ok;
}

int command_render(int argc, char** argv)
{
    scene_options o = { NULL, -1, 0.0, SCENE_UNKNOWN_KEY_ERROR };
    const char* dir = NULL;
    long frames = 6;
    int width = 960, height = 540;
    spx_debug_draw extra = spx_default_debug_draw();
    for (int i = 1; i < argc; ++i) {
        int used = scene_option(argc, argv, &i, &o, "render");
        if (used < 0) return EXIT_USAGE;
        if (used) continue;
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--out") == 0 && v) {
            dir = v, ++i;
        } else if (strcmp(a, "--frames") == 0) {
            double x = parse_positive(v, a, "render", true);
            if (x < 0.0 || x > 1000)
                return x < 0.0 ? EXIT_USAGE : (fprintf(stderr, "sepax render: --frames wants 1..1000\n"), EXIT_USAGE);
            frames = (long)x, ++i;
        } else if (strcmp(a, "--contacts") == 0) {
            extra.draw_contacts = extra.draw_contact_normals = true;
        } else if (strcmp(a, "--joints") == 0) {
            extra.draw_joints = true;
        } else if (strcmp(a, "--size") == 0 && v) {
            char tail;
            if (sscanf(v, "%dx%d%c", &width, &height, &tail) != 2 || width < 64 || height < 64 || width > 8192 ||
                height > 8192) {
                fprintf(stderr, "sepax render: --size wants WIDTHxHEIGHT, 64..8192 each (got '%s')\n", v);
                return EXIT_USAGE;
            }
            ++i;
        } else {
            return option_error("render", a, (const char* const[]){ "--out", "--size", NULL });
        }
    }
    if (!dir) {
        fprintf(stderr, "sepax render: --out DIR is required (the folder for the pictures)\n");
        return EXIT_USAGE;
    }
    if (!bench_make_directories(dir)) {
        fprintf(stderr, "sepax render: cannot make %s: %s\n", dir, strerror(errno));
        return EXIT_FAILED;
    }
    scene s;
    if (!scene_open(&o, &s)) return EXIT_FAILED;
    uint32_t steps = scene_steps(&o, &s);
    if (frames > (long)steps + 1) frames = (long)steps + 1;
    canvas cv;
    memset(&cv, 0, sizeof cv);
    cv.width = width, cv.height = height, cv.cam = framing_camera(&s, width, height), cv.s = &s;
    for (uint32_t i = 0; i < s.body_count; ++i)
        if (s.ids[i].index > cv.slot_count) cv.slot_count = s.ids[i].index;
    cv.body_of_slot = malloc((cv.slot_count ? cv.slot_count : 1) * sizeof *cv.body_of_slot);
    for (uint32_t i = 0; cv.body_of_slot && i < cv.slot_count; ++i) cv.body_of_slot[i] = UINT32_MAX;
    for (uint32_t i = 0; cv.body_of_slot && i < s.body_count; ++i) cv.body_of_slot[s.ids[i].index - 1] = i;
    measure* m = measure_create(&s);
    size_t samples_max = steps + 1;
    double* t = malloc(samples_max * sizeof *t);
    double* energy = malloc(samples_max * sizeof *energy);
    double* depth = malloc(samples_max * sizeof *depth);
    cairo_surface_t** pictures = calloc((size_t)frames, sizeof *pictures);
    int status = EXIT_DONE;
    if (!m || !t || !energy || !depth || !pictures || !cv.body_of_slot) {
        fprintf(stderr, "sepax render: out of memory\n");
        status = EXIT_FAILED;
    }
    /* Penetration is measured every `every` steps (a query per touching pair): about 400 points a plot. */
    uint32_t every = steps > 400 ? steps / 400 : 1;
    size_t samples = 0;
    long frame = 0;
    char path[1200];
    for (uint32_t step = 0; status == EXIT_DONE && step <= steps; ++step) {
        if (step > 0) {
            spx_result r = spx_world_step(s.w, s.dt);
            if (r != SPX_OK) {
                fprintf(stderr, "sepax render: step %u failed: %s\n", step, spx_result_string(r));
                status = EXIT_FAILED;
                break;
            }
        }
        bool draw =
            frame < frames && step == (frames > 1 ? (uint32_t)((uint64_t)frame * steps / (uint64_t)(frames - 1)) : 0);
        if (!draw && step % every != 0 && step != steps) continue;
        measure_result q;
        if (!measure_now(m, &s, draw, &q)) {
            fprintf(stderr, "sepax render: measuring step %u failed\n", step);
            status = EXIT_FAILED;
            break;
        }
        t[samples] = (double)step * (double)s.dt, energy[samples] = q.kinetic, depth[samples] = q.deepest;
        ++samples;
        if (!draw) continue;
        pictures[frame] = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
        snprintf(path, sizeof path, "%s/frame-%03ld.png", dir, frame);
        if (!draw_frame(&cv, &s, m, pictures[frame], step, steps, &q, &extra) ||
            cairo_surface_write_to_png(pictures[frame], path) != CAIRO_STATUS_SUCCESS) {
            fprintf(stderr, "sepax render: cannot draw or write %s\n", path);
            status = EXIT_FAILED;
            break;
        }
        spx_step_stats st;
        spx_world_get_stats(s.w, &st);
        char contacts[160];
        report_contacts(contacts, sizeof contacts, st.contact_point_count, st.manifold_count, q.touching_points);
        printf("%s  (t = %.2f s)  contacts: %s\n", path, (double)step * (double)s.dt, contacts);
        ++frame;
    }
    if (status == EXIT_DONE) {
        snprintf(path, sizeof path, "%s/sheet.png", dir);
        if (write_sheet(path, pictures, (int)frame, width, height)) printf("%s  (all %ld frames)\n", path, frame);
        else status = EXIT_FAILED, fprintf(stderr, "sepax render: cannot write %s\n", path);
        snprintf(path, sizeof path, "%s/plot.png", dir);
        if (write_plot(path, &s, t, energy, depth, samples, (double)steps * (double)s.dt))
            printf("%s  (kinetic energy and deepest penetration over time)\n", path);
        size_t worst = 0;
        for (size_t k = 1; k < samples; ++k)
            if (depth[k] > depth[worst]) worst = k;
        if (samples > 0)
            printf("deepest penetration %.2f mm at t = %.2f s (measured every %u step%s)\n", 1000.0 * depth[worst],
                   t[worst], every, every > 1 ? "s" : "");
        else status = EXIT_FAILED, fprintf(stderr, "sepax render: cannot write %s\n", path);
    }
    for (long i = 0; pictures && i < frames; ++i)
        if (pictures[i]) cairo_surface_destroy(pictures[i]);
    free(pictures), free(t), free(energy), free(depth), free(cv.faces), free(cv.marks), free(cv.body_of_slot);
    measure_destroy(m);
    scene_free(&s);
    /* cairo keeps font and surface caches for the process; hand them back so that a leak checker sees
       only real leaks (fontconfig's own cache stays: see tools/sepax/lsan-fontconfig.supp). */
    cairo_debug_reset_static_data();
    return status;
}
