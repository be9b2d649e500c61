/* Ray and box casts through the dynamic trees, in double: a node's float box is tested exactly
   enough that a leaf is never missed by rounding (the leaves' boxes are padded by their owners). */
#include "tree_cast.h"
#include <math.h>

/* Where the cast enters the node's box grown by `extent`: true with *out_t in [0, tmax]. inv[k] is
   1 / d[k] (unused where d[k] is 0): a product rounds as the quotient does, to within a unit of the
   last place in double, far inside the leaves' padding. */
static bool entry(const spx_aabb* box, const double o[3], const double d[3], const double inv[3], const double e[3],
                  double tmax, double* out_t)
{
    double enter = 0.0, leave = tmax;
    for (int k = 0; k < 3; ++k) {
        const double lo = (double)box->min[k] - e[k] - o[k], hi = (double)box->max[k] + e[k] - o[k];
        if (d[k] == 0.0) {
            if (lo > 0.0 || hi < 0.0) return false;
            continue;
        }
        double t1 = lo * inv[k], t2 = hi * inv[k];
        if (t1 > t2) {
            double t = t1;
            t1 = t2, t2 = t;
        }
        if (t1 > enter) enter = t1;
        if (t2 < leave) leave = t2;
        if (enter > leave) return false;
    }
    *out_t = enter;
    return true;
}

void spx_tree_cast(const spx_dynamic_tree* tree, int which, const double origin[3], const double translation[3],
                   const double extent[3], double max_fraction, spx_tree_cast_fn* fn, void* context)
{
    typedef struct item {
        uint32_t node;
        double t;
    } item;
    const double zero[3] = { 0.0, 0.0, 0.0 };
    const double* e = extent ? extent : zero;
    double inv[3];
    for (int k = 0; k < 3; ++k) inv[k] = translation[k] != 0.0 ? 1.0 / translation[k] : 0.0;
    const uint32_t root = tree->root[which];
    double t;
    if (root == SPX_TREE_NULL || !entry(&tree->nodes[root].box, origin, translation, inv, e, max_fraction, &t)) return;
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
        double t0, t1;
        const bool h0 = entry(&nodes[c0].box, origin, translation, inv, e, max_fraction, &t0);
        const bool h1 = entry(&nodes[c1].box, origin, translation, inv, e, max_fraction, &t1);
        if (h0 && h1 && t0 < t1) stack[top++] = (item){ c1, t1 }, stack[top++] = (item){ c0, t0 };
        else {
            if (h0) stack[top++] = (item){ c0, t0 };
            if (h1) stack[top++] = (item){ c1, t1 };
        }
    }
}
