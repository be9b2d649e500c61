/* Top-down OBB tree build (Gottschalk, Lin, Manocha, OBBTree, 1996): fit a box to a node's
 * triangles, cut across its longest axis at the mean of their centroids, recurse on both sides. */
#include "obb_tree.h"
#include "math/dvec3.h"

/* The smaller side of every split is built first and the larger one waits on the stack, so the stack
   never holds more than log2(n) + 1 ranges: 33 for 2^32 triangles. */
#define STACK_CAPACITY 64

typedef struct range {
    uint32_t node, lo, hi, depth;
} range;

static double key(const spx_tri_moment* moments, uint32_t i, spx_dvec3 axis)
{
    const double* c = moments[i].centroid;
    return axis.x * c[0] + axis.y * c[1] + axis.z * c[2];
}

/* Wirth's selection: afterwards perm[lo..k) have keys <= perm[k]'s <= perm[k+1..hi)'s. The pivot is
   the middle element, chosen by position only, so the result depends on the input alone. */
static void select_kth(uint32_t* perm, uint32_t lo, uint32_t hi, uint32_t k, const spx_tri_moment* moments,
                       spx_dvec3 axis)
{
    int64_t l = lo, r = (int64_t)hi - 1;
    while (l < r) {
        double pivot = key(moments, perm[(l + r) / 2], axis);
        int64_t i = l, j = r;
        do {
            while (key(moments, perm[i], axis) < pivot) ++i;
            while (pivot < key(moments, perm[j], axis)) --j;
            if (i <= j) {
                uint32_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
                ++i;
                --j;
            }
        } while (i <= j);
        if (j < (int64_t)k) l = i;
        if ((int64_t)k < i) r = j;
    }
}

/* Splits perm[lo..hi) (at least two triangles) across axis; returns the first index of the right side,
   strictly between lo and hi. */
static uint32_t split(uint32_t* perm, uint32_t lo, uint32_t hi, const spx_tri_moment* moments, spx_dvec3 axis)
{
    double sum = 0.0;
    for (uint32_t j = lo; j < hi; ++j) sum += key(moments, perm[j], axis);
    double mean = sum / (double)(hi - lo);
    uint32_t i = lo, j = hi;
    while (i < j) { /* centroids before the mean to the left, the rest to the right, in place */
        if (key(moments, perm[i], axis) < mean) {
            ++i;
        } else {
            --j;
            uint32_t t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
    }
    if (i > lo && i < hi) return i;
    /* Every centroid on one side of the mean (all equal along the axis, or rounding): the median
       still halves the set, so the build always ends. */
    uint32_t mid = lo + (hi - lo) / 2;
    select_kth(perm, lo, hi, mid, moments, axis);
    return mid;
}

uint32_t spx_obb_tree_build(const spx_triangle* tris, const spx_tri_moment* moments, uint32_t n, uint32_t leaf_max,
                            uint32_t* perm, spx_obb_node* nodes, uint32_t* out_depth)
{
    for (uint32_t i = 0; i < n; ++i) perm[i] = i;
    range stack[STACK_CAPACITY];
    int top = 0;
    uint32_t node_count = 1, depth = 0;
    range cur = { 0, 0, n, 1 };
    for (;;) {
        uint32_t count = cur.hi - cur.lo;
        spx_obb_node* node = &nodes[cur.node];
        node->box = spx_obb_fit_triangles(tris, moments, perm + cur.lo, count);
        depth = cur.depth > depth ? cur.depth : depth;
        if (count <= leaf_max) {
            node->first = cur.lo;
            node->count = count;
            if (top == 0) break;
            cur = stack[--top];
            continue;
        }
        /* Longest axis of the node's own box: the direction along which the triangles spread most. */
        const float* h = &node->box.half_extents.x;
        int a = h[1] > h[0] ? 1 : 0;
        a = h[2] > h[a] ? 2 : a;
        uint32_t mid = split(perm, cur.lo, cur.hi, moments, spx_d3_from(node->box.rotation.col[a]));
        uint32_t left = node_count;
        node_count += 2;
        node->first = left;
        node->count = 0;
        range l = { left, cur.lo, mid, cur.depth + 1 }, r = { left + 1, mid, cur.hi, cur.depth + 1 };
        bool left_smaller = mid - cur.lo <= cur.hi - mid;
        stack[top++] = left_smaller ? r : l;
        cur = left_smaller ? l : r;
    }
    *out_depth = depth;
    return node_count;
}
