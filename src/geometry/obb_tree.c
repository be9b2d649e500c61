/* Top-down OBB tree build (OBBTree, 1996): cut across the longest axis at the mean centroid.
 * See docs/decisions.md#meshes. */
#include "obb_tree.h"
#include "math/dvec3.h"

/* Smaller side first, so at most log2(n) + 1 ranges wait (33 for 2^32 triangles). */
#define STACK_CAPACITY 64

typedef struct range {
    uint32_t node, lo, hi, depth;
} range;

/* Reordered together, so a node's triangles are one contiguous run. */
typedef struct arrays {
    spx_triangle* tris;
    spx_tri_moment* moments;
    uint32_t* source;
} arrays;

static double key(const arrays* a, uint32_t i, spx_dvec3 axis)
{
    const double* c = a->moments[i].centroid;
    return axis.x * c[0] + axis.y * c[1] + axis.z * c[2];
}

static void swap(const arrays* a, uint32_t i, uint32_t j)
{
    spx_triangle t = a->tris[i];
    a->tris[i] = a->tris[j];
    a->tris[j] = t;
    spx_tri_moment m = a->moments[i];
    a->moments[i] = a->moments[j];
    a->moments[j] = m;
    uint32_t s = a->source[i];
    a->source[i] = a->source[j];
    a->source[j] = s;
}

/* Wirth's selection around k; the pivot by position, so the result depends on the input alone. */
static void select_kth(const arrays* a, uint32_t lo, uint32_t hi, uint32_t k, spx_dvec3 axis)
{
    int64_t l = lo, r = (int64_t)hi - 1;
    while (l < r) {
        double pivot = key(a, (uint32_t)((l + r) / 2), axis);
        int64_t i = l, j = r;
        do {
            while (key(a, (uint32_t)i, axis) < pivot) ++i;
            while (pivot < key(a, (uint32_t)j, axis)) --j;
            if (i <= j) {
                swap(a, (uint32_t)i, (uint32_t)j);
                ++i;
                --j;
            }
        } while (i <= j);
        if (j < (int64_t)k) l = i;
        if ((int64_t)k < i) r = j;
    }
}

/* At the mean centroid, or the median when median_only; returns a split strictly inside (lo, hi). */
static uint32_t split(const arrays* a, uint32_t lo, uint32_t hi, spx_dvec3 axis, bool median_only)
{
    uint32_t mid = lo + (hi - lo) / 2;
    if (median_only) {
        select_kth(a, lo, hi, mid, axis);
        return mid;
    }
    double sum = 0.0;
    for (uint32_t j = lo; j < hi; ++j) sum += key(a, j, axis);
    double mean = sum / (double)(hi - lo);
    uint32_t i = lo, j = hi;
    while (i < j) { /* centroids before the mean to the left, the rest to the right, in place */
        if (key(a, i, axis) < mean) {
            ++i;
        } else {
            --j;
            swap(a, i, j);
        }
    }
    if (i > lo && i < hi) return i;
    /* All on one side of the mean: the median still halves, so the build ends. */
    select_kth(a, lo, hi, mid, axis);
    return mid;
}

uint32_t spx_obb_tree_build(spx_triangle* tris, spx_tri_moment* moments, uint32_t* source, uint32_t n,
                            uint32_t leaf_max, spx_obb_node* nodes, uint32_t* out_depth)
{
    const arrays a = { tris, moments, source };
    range stack[STACK_CAPACITY];
    int top = 0;
    uint32_t node_count = 1, depth = 0;
    range cur = { 0, 0, n, 1 };
    for (;;) {
        uint32_t count = cur.hi - cur.lo;
        spx_obb_node* node = &nodes[cur.node];
        node->box = spx_obb_fit_triangles(tris + cur.lo, moments + cur.lo, NULL, count);
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
        int longest = h[1] > h[0] ? 1 : 0;
        longest = h[2] > h[longest] ? 2 : longest;
        uint32_t mid = split(&a, cur.lo, cur.hi, spx_d3_from(node->box.rotation.col[longest]),
                             cur.depth >= SPX_OBB_TREE_MEAN_DEPTH);
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
