/* Small meshes (1 to 6 triangles, any corners and indices) placed at any pose, against a box and
 * against each other, through every mesh query: sweep, overlap, contacts, manifold. Properties:
 * mesh and instance creation refuse bad input with a documented code; the queries give the code of
 * the first fault in the order of base.h; every answer is finite; a HIT or START_OVERLAP has at least
 * one contact and a MISS none; the static queries agree with each other and with the triangle
 * queries on the instance's own world triangles (the descent may miss a pair that overlaps by no
 * more than its float node boxes round, 16 float steps of the coordinates); swapping the meshes
 * keeps the answer. */
#include "fuzz.h"

static const spx_obb unit_box = { { 0, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
static const spx_obb far_box = { { 100, 0, 0 }, { 1, 1, 1 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };

enum { CAPACITY = 4 };

static bool mesh_code(spx_result r)
{
    return fuzz_input_code(r) || r == SPX_ERR_INDEX_OUT_OF_RANGE || r == SPX_ERR_EMPTY_MESH;
}

/* A mesh from the input, or NULL when spx_mesh_create refuses it (with a documented code). */
static spx_mesh* make_mesh(fuzz_input* in)
{
    spx_vec3 vertices[8];
    uint32_t indices[18];
    const uint32_t vertex_count = 3 + fuzz_next_byte(in) % 6, triangle_count = 1 + fuzz_next_byte(in) % 6;
    for (uint32_t i = 0; i < vertex_count; ++i) vertices[i] = fuzz_vec3(in);
    for (uint32_t i = 0; i < 3 * triangle_count; ++i) {
        const uint8_t k = fuzz_next_byte(in);
        indices[i] = k == 255 ? vertex_count : k % vertex_count; /* now and then an index past the end */
    }
    spx_mesh_def def = spx_default_mesh_def();
    def.vertices = vertices;
    def.vertex_count = vertex_count;
    def.indices = indices;
    def.triangle_count = triangle_count;
    def.leaf_triangles = 1 + fuzz_next_byte(in) % 4;
    spx_mesh* mesh = NULL;
    const spx_result r = spx_mesh_create(&def, &mesh);
    FUZZ_CHECK(r == SPX_OK || mesh_code(r));
    FUZZ_CHECK((r == SPX_OK) == (mesh != NULL));
    return mesh;
}

static spx_mesh_instance* place(fuzz_input* in, const spx_mesh* mesh)
{
    spx_mesh_instance_def def = spx_default_mesh_instance_def();
    def.mesh = mesh;
    def.pose.p = (fuzz_next_byte(in) & 3) ? spx_v3(0, 0, 0) : fuzz_vec3(in);
    def.pose.q = fuzz_quat(in);
    spx_mesh_instance* inst = NULL;
    const spx_result r = spx_mesh_instance_create(&def, &inst);
    FUZZ_CHECK(r == SPX_OK || fuzz_input_code(r));
    FUZZ_CHECK((r == SPX_OK) == (inst != NULL));
    return inst;
}

static void check_mesh_hit(const spx_mesh_hit* h, const spx_mesh_contact* contacts, float tmax)
{
    FUZZ_CHECK(h->state == SPX_SWEEP_MISS || h->state == SPX_SWEEP_HIT || h->state == SPX_SWEEP_START_OVERLAP);
    FUZZ_CHECK(h->contacts_written == (h->contact_count < CAPACITY ? h->contact_count : CAPACITY));
    if (h->state == SPX_SWEEP_MISS) {
        FUZZ_CHECK(h->contact_count == 0);
        return;
    }
    FUZZ_CHECK(h->contact_count >= 1);
    FUZZ_CHECK(isfinite(h->time) && isfinite(h->depth) && fuzz_finite3(h->point) && fuzz_finite3(h->normal));
    FUZZ_CHECK(fuzz_unit(h->normal));
    FUZZ_CHECK(h->time >= 0.0f && h->time <= tmax && h->depth >= 0.0f);
    if (h->state == SPX_SWEEP_START_OVERLAP) FUZZ_CHECK(h->time == 0.0f);
    for (uint32_t i = 0; i < h->contacts_written; ++i) {
        const spx_mesh_contact* c = &contacts[i];
        FUZZ_CHECK(fuzz_finite3(c->point) && fuzz_finite3(c->normal) && isfinite(c->time) && isfinite(c->depth));
        FUZZ_CHECK(fuzz_unit(c->normal) && c->time >= 0.0f && c->time <= tmax && c->depth >= 0.0f);
    }
}

static void check_manifolds(const spx_manifold* m, uint32_t count, float margin, float slack)
{
    FUZZ_CHECK(count <= CAPACITY);
    for (uint32_t g = 0; g < count; ++g) {
        FUZZ_CHECK(m[g].point_count >= 1);
        fuzz_check_manifold(&m[g], margin, slack);
    }
}

/* Largest |world coordinate| of an instance's triangles. */
static float instance_reach(const spx_mesh_instance* inst)
{
    spx_mesh_info info;
    const spx_mesh* mesh_of_info = NULL;
    spx_mesh_instance_get_mesh(inst, &mesh_of_info);
    spx_mesh_get_info(mesh_of_info, &info);
    float r = 0.0f;
    for (uint32_t t = 0; t < info.triangle_count; ++t) {
        spx_triangle tri;
        FUZZ_CHECK(spx_mesh_instance_get_triangle(inst, t, &tri, NULL) == SPX_OK);
        FUZZ_CHECK(fuzz_finite3(tri.v[0]) && fuzz_finite3(tri.v[1]) && fuzz_finite3(tri.v[2]));
        r = fmaxf(r, fuzz_triangle_reach(&tri));
    }
    return r;
}

static void box_against_mesh(const spx_obb* box, spx_mesh_instance* b, spx_vec3 va, spx_vec3 vb, float tmax,
                             float margin)
{
    spx_mesh_contact contacts[CAPACITY];
    spx_mesh_hit hit, rest;
    spx_sweep_hit ref_hit;
    const spx_result r_box = spx_obb_validate(box);
    const spx_result r_motion = spx_sweep_obb_obb(&unit_box, va, &far_box, vb, tmax, &ref_hit);
    spx_manifold ref_m;
    const spx_result r_margin = spx_manifold_obb_obb(&unit_box, &far_box, margin, &ref_m);
    const spx_result r_sweep = spx_sweep_obb_mesh(box, va, b, vb, tmax, contacts, CAPACITY, &hit);
    FUZZ_CHECK(r_sweep == fuzz_first(r_box, r_motion));
    if (r_sweep == SPX_OK) check_mesh_hit(&hit, contacts, tmax);
    bool overlap = false;
    FUZZ_CHECK(spx_overlap_obb_mesh(box, b, &overlap) == r_box);
    FUZZ_CHECK(spx_penetration_obb_mesh(box, b, contacts, CAPACITY, &rest) == r_box);
    spx_manifold m[CAPACITY];
    uint32_t count = 0;
    FUZZ_CHECK(spx_manifold_obb_mesh(box, b, margin, m, CAPACITY, &count) == fuzz_first(r_box, r_margin));
    if (r_box != SPX_OK) return;
    check_mesh_hit(&rest, contacts, 0.0f);
    FUZZ_CHECK(rest.state != SPX_SWEEP_HIT);
    FUZZ_CHECK(overlap == (rest.state == SPX_SWEEP_START_OVERLAP));
    if (r_sweep == SPX_OK) FUZZ_CHECK(overlap == (hit.state == SPX_SWEEP_START_OVERLAP));
    /* The descent agrees with the box-triangle test on every world triangle of the instance. */
    spx_mesh_info info;
    const spx_mesh* mesh_of_info = NULL;
    spx_mesh_instance_get_mesh(b, &mesh_of_info);
    spx_mesh_get_info(mesh_of_info, &info);
    const float rounding = 16.0f * FLT_EPSILON * fmaxf(fuzz_box_reach(box), instance_reach(b));
    bool any = false, deep = false;
    for (uint32_t t = 0; t < info.triangle_count; ++t) {
        spx_triangle tri;
        spx_penetration pen;
        spx_mesh_instance_get_triangle(b, t, &tri, NULL);
        if (spx_penetration_obb_triangle(box, &tri, &pen) != SPX_OK || !pen.overlapping) continue;
        any = true;
        deep |= pen.depth > rounding;
    }
    if (overlap) FUZZ_CHECK(any);
    if (deep) FUZZ_CHECK(overlap);
    if (r_margin == SPX_OK) check_manifolds(m, count, margin, 1e-4f * fmaxf(fuzz_box_reach(box), instance_reach(b)));
}

static void mesh_against_mesh(spx_mesh_instance* a, spx_mesh_instance* b, spx_vec3 va, spx_vec3 vb, float tmax,
                              float margin)
{
    spx_mesh_contact contacts[CAPACITY];
    spx_mesh_hit hit, rest;
    spx_sweep_hit ref_hit;
    const spx_result r_motion = spx_sweep_obb_obb(&unit_box, va, &far_box, vb, tmax, &ref_hit);
    spx_manifold ref_m;
    const spx_result r_margin = spx_manifold_obb_obb(&unit_box, &far_box, margin, &ref_m);
    const spx_result r_sweep = spx_sweep_mesh_mesh(a, va, b, vb, tmax, contacts, CAPACITY, &hit);
    FUZZ_CHECK(r_sweep == r_motion);
    if (r_sweep == SPX_OK) check_mesh_hit(&hit, contacts, tmax);
    bool overlap = false, overlap_ba = false;
    FUZZ_CHECK(spx_overlap_mesh_mesh(a, b, &overlap) == SPX_OK);
    FUZZ_CHECK(spx_overlap_mesh_mesh(b, a, &overlap_ba) == SPX_OK);
    FUZZ_CHECK(overlap == overlap_ba);
    FUZZ_CHECK(spx_penetration_mesh_mesh(a, b, contacts, CAPACITY, &rest) == SPX_OK);
    check_mesh_hit(&rest, contacts, 0.0f);
    FUZZ_CHECK(rest.state != SPX_SWEEP_HIT);
    FUZZ_CHECK(overlap == (rest.state == SPX_SWEEP_START_OVERLAP));
    /* The descent agrees with the triangle-triangle test on every pair of world triangles. */
    spx_mesh_info ia, ib;
    const spx_mesh* mesh_of_ia = NULL;
    spx_mesh_instance_get_mesh(a, &mesh_of_ia);
    spx_mesh_get_info(mesh_of_ia, &ia);
    const spx_mesh* mesh_of_ib = NULL;
    spx_mesh_instance_get_mesh(b, &mesh_of_ib);
    spx_mesh_get_info(mesh_of_ib, &ib);
    const float rounding = 16.0f * FLT_EPSILON * fmaxf(instance_reach(a), instance_reach(b));
    bool any = false, deep = false;
    for (uint32_t s = 0; s < ia.triangle_count; ++s)
        for (uint32_t t = 0; t < ib.triangle_count; ++t) {
            spx_triangle ta, tb;
            spx_penetration pen;
            spx_mesh_instance_get_triangle(a, s, &ta, NULL);
            spx_mesh_instance_get_triangle(b, t, &tb, NULL);
            /* a world triangle whose corners rounded together is not one the queries test */
            if (spx_penetration_triangle_triangle(&ta, &tb, &pen) != SPX_OK || !pen.overlapping) continue;
            any = true;
            deep |= pen.depth > rounding;
        }
    if (overlap) FUZZ_CHECK(any);
    if (deep) FUZZ_CHECK(overlap);
    /* At rest and swept agree but where the pieces touch within rounding: the swept query adds axes
       that depend on the motion (docs/tolerances.md), which may decide such a touch otherwise. */
    if (r_sweep == SPX_OK && (deep || !any)) FUZZ_CHECK(overlap == (hit.state == SPX_SWEEP_START_OVERLAP));
    spx_manifold m[CAPACITY];
    uint32_t count = 0;
    FUZZ_CHECK(spx_manifold_mesh_mesh(a, b, margin, m, CAPACITY, &count) == r_margin);
    if (r_margin == SPX_OK) check_manifolds(m, count, margin, 1e-4f * fmaxf(instance_reach(a), instance_reach(b)));
}

int fuzz_mesh(const uint8_t* data, size_t size)
{
    fuzz_input in = { data, size };
    spx_mesh* mesh_a = make_mesh(&in);
    spx_mesh* mesh_b = make_mesh(&in);
    spx_mesh_instance* a = mesh_a ? place(&in, mesh_a) : NULL;
    spx_mesh_instance* b = mesh_b ? place(&in, mesh_b) : NULL;
    const spx_obb box = fuzz_obb(&in);
    const fuzz_motion mo = fuzz_read_motion(&in);
    const float margin = fuzz_mostly_positive(&in);
    if (b) box_against_mesh(&box, b, mo.va, mo.vb, mo.tmax, margin);
    if (a && b) mesh_against_mesh(a, b, mo.va, mo.vb, mo.tmax, margin);
    spx_mesh_instance_destroy(a);
    spx_mesh_instance_destroy(b);
    spx_mesh_destroy(mesh_a);
    spx_mesh_destroy(mesh_b);
    return 0;
}

SPX_FUZZ_ENTRY(fuzz_mesh)
