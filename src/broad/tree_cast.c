/* Ray and box casts through the dynamic trees, in double, so rounding never misses a (padded) leaf. */
#include "tree_cast.h"
#include "math/simd.h"
#include <math.h>

/* The slab test's per-axis near bound and inverse, made once; the inverse's rounding is far inside
   the leaves' padding. A still axis gives infinities or NaN, which the max and min pass over. */
typedef struct cast_setup {
    int near[3], far[3]; /* index into the box's six floats (min x y z, max x y z) */
    double near_shift[3], far_shift[3];
    double inv[3];
} cast_setup;

static void setup(const double o[3], const double d[3], const double e[3], cast_setup* s)
{
    for (int k = 0; k < 3; ++k) {
        const bool down = signbit(d[k]);
        s->near[k] = down ? 3 + k : k, s->far[k] = down ? k : 3 + k;
        s->near_shift[k] = (down ? e[k] : -e[k]) - o[k];
        s->far_shift[k] = (down ? -e[k] : e[k]) - o[k];
        s->inv[k] = 1.0 / d[k]; /* +-inf where d[k] is +-0 */
    }
}

/* true with *out_t in [0, tmax]. Branch-free; x > y ? x : y keeps y when x is NaN. */
static inline bool entry(const spx_aabb* box, const cast_setup* s, double tmax, double* out_t)
{
    const float* b = &box->min[0];
    double enter = 0.0, leave = tmax;
    for (int k = 0; k < 3; ++k) {
        const double tn = ((double)b[s->near[k]] + s->near_shift[k]) * s->inv[k];
        const double tf = ((double)b[s->far[k]] + s->far_shift[k]) * s->inv[k];
        enter = tn > enter ? tn : enter;
        leave = tf < leave ? tf : leave;
    }
    *out_t = enter;
    return enter <= leave;
}

/* The cast's setup in both lanes, made once a cast. */
typedef struct cast_lanes {
    spx_d2 near_shift[3], far_shift[3], inv[3];
} cast_lanes;

/* entry on two boxes, the same operations so the same bits; bit l: box l entered at out_t[l]. */
static inline int entry2(const spx_aabb* box0, const spx_aabb* box1, const cast_setup* s, const cast_lanes* l,
                         double tmax, double out_t[2])
{
    const float* b0 = &box0->min[0];
    const float* b1 = &box1->min[0];
    spx_d2 enter = spx_d2_splat(0.0), leave = spx_d2_splat(tmax);
    for (int k = 0; k < 3; ++k) {
        const int n = s->near[k], f = s->far[k];
        const spx_d2 tn = spx_d2_mul(spx_d2_add(spx_d2_of_floats(b0[n], b1[n]), l->near_shift[k]), l->inv[k]);
        const spx_d2 tf = spx_d2_mul(spx_d2_add(spx_d2_of_floats(b0[f], b1[f]), l->far_shift[k]), l->inv[k]);
        enter = spx_d2_max(tn, enter);
        leave = spx_d2_min(tf, leave);
    }
    spx_d2_store(out_t, enter);
    return spx_d2_le_mask(enter, leave);
}

void spx_tree_cast(const spx_dynamic_tree* tree, int which, const double origin[3], const double translation[3],
                   const double extent[3], double max_fraction, spx_tree_cast_fn* fn, void* context)
{
    typedef struct item {
        uint32_t node;
        double t;
    } item;
    const double zero[3] = { 0.0, 0.0, 0.0 };
    cast_setup s;
    setup(origin, translation, extent ? extent : zero, &s);
    cast_lanes lanes;
    for (int k = 0; k < 3; ++k) {
        lanes.near_shift[k] = spx_d2_splat(s.near_shift[k]), lanes.far_shift[k] = spx_d2_splat(s.far_shift[k]);
        lanes.inv[k] = spx_d2_splat(s.inv[k]);
    }
    const uint32_t root = tree->root[which];
    double t;
    if (root == SPX_TREE_NULL || !entry(&tree->nodes[root].box, &s, max_fraction, &t)) return;
    /* Two pushed a pop, one taken: never more than height + 1 waiting. */
    item stack[SPX_TREE_MAX_HEIGHT + 2];
    int top = 0;
    stack[top++] = (item){ root, t };
    const spx_tree_node* nodes = tree->nodes;
    while (top > 0) {
        const item it = stack[--top];
        if (it.t > max_fraction) continue;
        const spx_tree_node* n = &nodes[it.node];
        if (n->child[0] == SPX_TREE_NULL) {
            const double next = fn(context, it.node, n->child[1], max_fraction);
            if (next < 0.0) return;
            if (next < max_fraction) max_fraction = next;
            continue;
        }
        const uint32_t c0 = n->child[0], c1 = n->child[1];
        double tc[2];
        const int hit = entry2(&nodes[c0].box, &nodes[c1].box, &s, &lanes, max_fraction, tc);
        const bool h0 = hit & 1, h1 = hit >> 1;
        const double t0 = tc[0], t1 = tc[1];
        /* The farther pushed first, so that the nearer is opened next and shortens the cast sooner. */
        if (h0 && h1) {
            const bool first = t0 < t1;
            stack[top++] = first ? (item){ c1, t1 } : (item){ c0, t0 };
            stack[top++] = first ? (item){ c0, t0 } : (item){ c1, t1 };
        } else if (h0) stack[top++] = (item){ c0, t0 };
        else if (h1) stack[top++] = (item){ c1, t1 };
    }
}
