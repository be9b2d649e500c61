/* The mesh queries: checks, then up to three descents (mesh_descent.c): FIRST, COLLECT for the
 * contact set (separate: while the best time falls, early pairs would be thrown out), and a depth
 * pass for a start overlap. See docs/meshes.md#continuous-queries. */
#include "mesh_descent.h"
#include "sat_axes.h"
#include "sweep_mesh_margin.h"
#include "geometry/validate.h"
#include <string.h>

/* A mean of unit normals shorter than this has no direction (they cancel). */
#define SPX_MEAN_NORMAL_MIN 1e-3

static void fill_start(spx_descent* d, spx_mesh_hit* h)
{
    h->state = SPX_SWEEP_START_OVERLAP;
    h->time = 0.0f;
    h->first = d->best;
    h->contact_count = d->count;
    h->contacts_written = d->count < d->capacity ? d->count : d->capacity;
    const double inv = 1.0 / (double)d->count;
    spx_dvec3 mean = spx_d3_scale(d->normal_sum, inv);
    double len = sqrt(spx_d3_len2(mean));
    spx_dvec3 n = len >= SPX_MEAN_NORMAL_MIN ? spx_d3_scale(mean, 1.0 / len) : spx_d3_from(d->best.normal);
    h->normal = spx_d3_to_float(n);
    h->point = spx_d3_to_float(spx_d3_scale(d->point_sum, inv));
    /* Depth pass (over the gathered pairs when the first descent kept them all). */
    d->mode = SPX_DESCENT_COLLECT;
    d->measure_depth = true;
    d->depth_normal = n;
    spx_descent m = *d;
    if (!spx_descend_gathered(&m)) spx_descend(&m);
    d->node_tests = m.node_tests, d->leaf_tests = m.leaf_tests;
    h->depth = (float)spx_dmax(m.depth, 0.0);
}

/* COLLECT prunes tighter, and far out the node boxes' rounding can drop the first pair itself; a
   contact's set is never empty, so that pair is then the set. */
static void keep_first(spx_descent* d, const spx_mesh_contact* first)
{
    if (d->count > 0) return;
    if (d->capacity > 0) d->contacts[0] = *first;
    d->count = 1;
    d->normal_sum = spx_d3_from(first->normal);
    d->point_sum = spx_d3_from(first->point);
    d->best = *first;
    d->found = true;
}

/* ~15 KB of stack (docs/decisions.md has the budget) so COLLECT need not run; a larger tie falls back to it. */
#define GATHER_PAIRS 256

static void sweep(spx_descent* d, spx_mesh_contact* contacts, uint32_t capacity, spx_mesh_hit* out)
{
    spx_mesh_hit h;
    memset(&h, 0, sizeof h);
    spx_gathered gathered[GATHER_PAIRS];
    d->mode = SPX_DESCENT_FIRST;
    d->gather = gathered;
    d->gather_capacity = GATHER_PAIRS;
    spx_descend(d);
    if (!d->found) {
        h.state = SPX_SWEEP_MISS;
        *out = h;
        return;
    }
    const spx_mesh_contact first = d->best;
    d->mode = SPX_DESCENT_COLLECT;
    d->contacts = contacts;
    d->capacity = capacity;
    if (d->any_start) {
        d->start_only = true;
        d->limit = 0.0f;
        if (!spx_descend_gathered(d)) spx_descend(d);
        keep_first(d, &first);
        fill_start(d, &h);
    } else {
        d->start_only = false;
        d->limit = spx_window_end(first.time, d->tmax);
        d->tie_time = first.time;
        if (!spx_descend_gathered(d)) spx_descend(d);
        keep_first(d, &first);
        h.state = SPX_SWEEP_HIT;
        h.time = first.time;
        h.normal = first.normal;
        h.point = first.point;
        if (d->tie_count > 1) {
            /* All pairs at exactly the first time: independent of the def's order. */
            const double inv = 1.0 / (double)d->tie_count;
            spx_dvec3 mean = spx_d3_scale(d->tie_normal_sum, inv);
            double len = sqrt(spx_d3_len2(mean));
            if (len >= SPX_MEAN_NORMAL_MIN) h.normal = spx_d3_to_float(spx_d3_scale(mean, 1.0 / len));
            h.point = spx_d3_to_float(spx_d3_scale(d->tie_point_sum, inv));
        }
        h.first = first;
        h.contact_count = d->count;
        h.contacts_written = d->count < capacity ? d->count : capacity;
    }
    *out = h;
}

static void contacts_at_rest(spx_descent* d, spx_mesh_contact* contacts, uint32_t capacity, spx_mesh_hit* out)
{
    spx_mesh_hit h;
    memset(&h, 0, sizeof h);
    /* With tmax 0 FIRST visits what COLLECT would, in order, and keeps them. */
    spx_gathered gathered[GATHER_PAIRS];
    d->mode = SPX_DESCENT_FIRST;
    d->gather = gathered;
    d->gather_capacity = GATHER_PAIRS;
    spx_descend(d);
    d->mode = SPX_DESCENT_COLLECT;
    d->start_only = true;
    d->limit = 0.0f;
    d->contacts = contacts;
    d->capacity = capacity;
    if (d->found && !spx_descend_gathered(d)) spx_descend(d);
    if (d->found) fill_start(d, &h);
    else h.state = SPX_SWEEP_MISS;
    *out = h;
}

static spx_descent descent_for(const spx_obb* box, spx_mesh_instance* a, spx_mesh_instance* b, spx_vec3 va, spx_vec3 vb,
                               float tmax)
{
    spx_descent d = { .box = box, .a = a, .b = b, .velocity_a = va, .velocity_b = vb, .tmax = tmax };
    spx_transform pose;
    spx_dvec3 pa = box ? spx_d3_from(box->center) : spx_d3(0, 0, 0), pb = spx_d3(0, 0, 0);
    if (a && spx_mesh_instance_get_pose(a, &pose) == SPX_OK) pa = spx_d3_from(pose.p);
    if (spx_mesh_instance_get_pose(b, &pose) == SPX_OK) pb = spx_d3_from(pose.p);
    d.side = spx_d3_sub(pb, pa);
    d.side_order = spx_d3_order(pa, pb);
    return d;
}

static const spx_vec3 zero = { 0.0f, 0.0f, 0.0f };

/* Pointers, then the box (the instance's pose and mesh were checked when set). */
static spx_result check_box_mesh(const spx_obb* a, const spx_mesh_instance* b, const void* out)
{
    if (!a || !b || !out) return SPX_ERR_INVALID_ARGUMENT;
    return spx_obb_validate(a);
}

static spx_result check_mesh_mesh(const spx_mesh_instance* a, const spx_mesh_instance* b, const void* out)
{
    if (!a || !b || !out || a == b) return SPX_ERR_INVALID_ARGUMENT;
    return SPX_OK;
}

SPX_API spx_result spx_sweep_obb_mesh(const spx_obb* a, spx_vec3 velocity_a, spx_mesh_instance* b, spx_vec3 velocity_b,
                                      float tmax, spx_mesh_contact* contacts, uint32_t capacity, spx_mesh_hit* out)
{
    if (!a || !b || !out || (!contacts && capacity > 0)) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = spx_first_error(spx_obb_validate(a), spx_check_motion(velocity_a, velocity_b, tmax));
    if (r != SPX_OK) return r;
    spx_descent d = descent_for(a, NULL, b, velocity_a, velocity_b, tmax);
    sweep(&d, contacts, capacity, out);
    return SPX_OK;
}

SPX_API spx_result spx_sweep_mesh_mesh(spx_mesh_instance* a, spx_vec3 velocity_a, spx_mesh_instance* b,
                                       spx_vec3 velocity_b, float tmax, spx_mesh_contact* contacts, uint32_t capacity,
                                       spx_mesh_hit* out)
{
    if (!contacts && capacity > 0) return SPX_ERR_INVALID_ARGUMENT;
    spx_result r = check_mesh_mesh(a, b, out);
    if (r == SPX_OK) r = spx_check_motion(velocity_a, velocity_b, tmax);
    if (r != SPX_OK) return r;
    spx_descent d = descent_for(NULL, a, b, velocity_a, velocity_b, tmax);
    sweep(&d, contacts, capacity, out);
    return SPX_OK;
}

/* The overlap query of a checked pair: box-mesh (box) or mesh-mesh (a). */
static spx_result overlap_checked(spx_result checked, const spx_obb* box, spx_mesh_instance* a, spx_mesh_instance* b,
                                  bool* out_overlap)
{
    if (checked != SPX_OK) return checked;
    spx_descent d = descent_for(box, a, b, zero, zero, 0.0f);
    d.mode = SPX_DESCENT_ANY;
    spx_descend(&d);
    *out_overlap = d.found;
    return SPX_OK;
}

SPX_API spx_result spx_overlap_obb_mesh(const spx_obb* a, spx_mesh_instance* b, bool* out_overlap)
{
    return overlap_checked(check_box_mesh(a, b, out_overlap), a, NULL, b, out_overlap);
}

SPX_API spx_result spx_overlap_mesh_mesh(spx_mesh_instance* a, spx_mesh_instance* b, bool* out_overlap)
{
    return overlap_checked(check_mesh_mesh(a, b, out_overlap), NULL, a, b, out_overlap);
}

/* The contacts query of a checked pair: box-mesh (box) or mesh-mesh (a). */
static spx_result contacts_checked(spx_result checked, const spx_obb* box, spx_mesh_instance* a, spx_mesh_instance* b,
                                   spx_mesh_contact* contacts, uint32_t capacity, spx_mesh_hit* out)
{
    if (checked != SPX_OK) return checked;
    spx_descent d = descent_for(box, a, b, zero, zero, 0.0f);
    contacts_at_rest(&d, contacts, capacity, out);
    return SPX_OK;
}

SPX_API spx_result spx_penetration_obb_mesh(const spx_obb* a, spx_mesh_instance* b, spx_mesh_contact* contacts,
                                            uint32_t capacity, spx_mesh_hit* out)
{
    if (!contacts && capacity > 0) return SPX_ERR_INVALID_ARGUMENT;
    return contacts_checked(check_box_mesh(a, b, out), a, NULL, b, contacts, capacity, out);
}

SPX_API spx_result spx_penetration_mesh_mesh(spx_mesh_instance* a, spx_mesh_instance* b, spx_mesh_contact* contacts,
                                             uint32_t capacity, spx_mesh_hit* out)
{
    if (!contacts && capacity > 0) return SPX_ERR_INVALID_ARGUMENT;
    return contacts_checked(check_mesh_mesh(a, b, out), NULL, a, b, contacts, capacity, out);
}

void spx_sweep_mesh_mesh_margin(spx_mesh_instance* a, spx_vec3 velocity_a, spx_mesh_instance* b, spx_vec3 velocity_b,
                                float tmax, float margin, spx_mesh_hit* out)
{
    spx_descent d = descent_for(NULL, a, b, velocity_a, velocity_b, tmax);
    d.margin = margin > 0.0f ? margin : 0.0f;
    d.mode = SPX_DESCENT_FIRST;
    d.stop_at_start = true; /* the stage wants only whether */
    spx_descend(&d);
    spx_mesh_hit h;
    memset(&h, 0, sizeof h);
    h.state = !d.found ? SPX_SWEEP_MISS : d.any_start ? SPX_SWEEP_START_OVERLAP : SPX_SWEEP_HIT;
    if (d.found) {
        h.time = d.any_start ? 0.0f : d.best.time;
        h.normal = d.best.normal;
        h.point = d.best.point;
        h.depth = d.any_start ? d.best.depth : 0.0f;
        h.first = d.best;
    }
    *out = h;
}
