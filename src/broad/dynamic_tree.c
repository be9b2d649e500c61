/* Dynamic AABB trees: surface-area insertion, rotations within a height bound, queries and pair
   descents. See docs/decisions.md#broad-phase. */
#include "dynamic_tree.h"
#include "core/allocator.h"

#include <stdint.h>
#include <string.h>

#define TREE_ALIGN 64

/* A moved leaf stays in place while one of this many nearest ancestors holds its new box: the boxes
   it stretches lie under one that already held it. */
#define KEEP_LEVELS 6

static inline bool is_leaf(const spx_tree_node* n) { return n->child[0] == SPX_TREE_NULL; }

/* ---- the node pool --------------------------------------------------------------------------- */

_Static_assert(sizeof(spx_tree_node) == 32, "a node is half a cache line");

/* Free nodes in index order, so the nodes handed out depend only on the sequence of calls. */
static spx_result grow(spx_dynamic_tree* t, uint64_t need)
{
    if (need <= t->capacity) return SPX_OK;
    uint64_t cap = (uint64_t)t->capacity * 2u;
    if (cap < need) cap = need;
    if (cap < 16) cap = 16;
    /* Indices stay below SPX_TREE_NULL. */
    if (cap > 2ull * SPX_TREE_MAX_LEAVES) cap = 2ull * SPX_TREE_MAX_LEAVES;
    const size_t each = sizeof(spx_tree_node) + sizeof(spx_tree_link);
    if (cap < need || cap > SIZE_MAX / each) return SPX_ERR_OUT_OF_MEMORY;
    spx_tree_node* nodes = spx_alloc(&t->allocator, (size_t)cap * each, TREE_ALIGN);
    if (!nodes) return SPX_ERR_OUT_OF_MEMORY;
    spx_tree_link* links = (spx_tree_link*)(nodes + cap);
    if (t->capacity) {
        memcpy(nodes, t->nodes, (size_t)t->capacity * sizeof *nodes);
        memcpy(links, t->links, (size_t)t->capacity * sizeof *links);
    }
    /* Link the new nodes ahead of whatever was still free. */
    uint32_t next = t->free_list;
    for (uint64_t i = cap; i-- > t->capacity;) {
        memset(&nodes[i], 0, sizeof nodes[i]);
        nodes[i].child[0] = nodes[i].child[1] = SPX_TREE_NULL;
        links[i] = (spx_tree_link){ next, 0, 0, 0 };
        next = (uint32_t)i;
    }
    spx_free(&t->allocator, t->nodes, (size_t)t->capacity * each);
    t->nodes = nodes;
    t->links = links;
    t->free_list = next;
    t->capacity = (uint32_t)cap;
    return SPX_OK;
}

/* Callers made room first (insert grows, the others have just freed a node or reserved). */
static uint32_t take_node(spx_dynamic_tree* t, int which)
{
    uint32_t i = t->free_list;
    t->free_list = t->links[i].parent;
    t->nodes[i].child[0] = t->nodes[i].child[1] = SPX_TREE_NULL;
    t->links[i] = (spx_tree_link){ SPX_TREE_NULL, 0, (uint8_t)which, 1 };
    t->node_count++;
    return i;
}

static void give_node(spx_dynamic_tree* t, uint32_t i)
{
    t->nodes[i].child[0] = t->nodes[i].child[1] = SPX_TREE_NULL;
    t->links[i] = (spx_tree_link){ t->free_list, 0, 0, 0 };
    t->free_list = i;
    t->node_count--;
}

static void reset(spx_dynamic_tree* t, const spx_allocator* allocator)
{
    memset(t, 0, sizeof *t);
    if (allocator) t->allocator = *allocator;
    for (int k = 0; k < SPX_TREE_COUNT; ++k) t->root[k] = SPX_TREE_NULL;
    t->free_list = SPX_TREE_NULL;
}

spx_result spx_tree_init(spx_dynamic_tree* tree, const spx_allocator* allocator, uint32_t leaf_capacity)
{
    reset(tree, allocator);
    return leaf_capacity ? spx_tree_reserve(tree, leaf_capacity) : SPX_OK;
}

void spx_tree_destroy(spx_dynamic_tree* tree)
{
    spx_free(&tree->allocator, tree->nodes, (size_t)tree->capacity * (sizeof(spx_tree_node) + sizeof(spx_tree_link)));
    spx_allocator a = tree->allocator;
    reset(tree, &a);
}

spx_result spx_tree_reserve(spx_dynamic_tree* tree, uint32_t leaf_count)
{
    if (leaf_count > SPX_TREE_MAX_LEAVES) return SPX_ERR_INVALID_ARGUMENT;
    /* 2l - 1 nodes for one tree; a lone leaf passing trees takes one more: 2l always suffice. */
    return leaf_count ? grow(tree, 2ull * leaf_count) : SPX_OK;
}

/* ---- keeping inner nodes right ---------------------------------------------------------------- */

static inline int height_of(const spx_dynamic_tree* t, uint32_t i) { return t->links[i].height; }

static void refit(spx_dynamic_tree* t, uint32_t i)
{
    spx_tree_node* n = &t->nodes[i];
    n->box = spx_aabb_union(&t->nodes[n->child[0]].box, &t->nodes[n->child[1]].box);
    int h0 = height_of(t, n->child[0]), h1 = height_of(t, n->child[1]);
    t->links[i].height = (uint16_t)(1 + (h0 > h1 ? h0 : h1));
}

static inline bool balanced(int h0, int h1) { return h0 - h1 <= SPX_TREE_SLACK && h1 - h0 <= SPX_TREE_SLACK; }

/* Points whatever held `old` (a's parent, or the tree's root) at `now`. */
static void replace_child(spx_dynamic_tree* t, uint32_t parent, uint32_t old, uint32_t now)
{
    if (parent == SPX_TREE_NULL) {
        t->root[t->links[now].tree] = now;
    } else {
        spx_tree_node* p = &t->nodes[parent];
        p->child[p->child[0] == old ? 0 : 1] = now;
    }
    t->links[now].parent = parent;
}

/* Child x (in `slot`) is over SPX_TREE_SLACK taller than its sibling: x takes a's place, one of
   x's children g goes under a. Sending the shorter child always rebalances; of the balanced
   choices the smaller box for a wins. See docs/decisions.md#broad-phase, "Tree invariants". */
static uint32_t lift(spx_dynamic_tree* t, uint32_t a, int slot)
{
    spx_tree_node* na = &t->nodes[a];
    uint32_t x = na->child[slot], y = na->child[1 - slot];
    spx_tree_node* nx = &t->nodes[x];
    int hy = height_of(t, y), h0 = height_of(t, nx->child[0]), h1 = height_of(t, nx->child[1]);
    int g_slot = h0 > h1 ? 1 : 0;
    int other = 1 - g_slot, hg = g_slot ? h1 : h0, ho = g_slot ? h0 : h1;
    if (balanced(hy, ho) && balanced(1 + (hy > ho ? hy : ho), hg)) {
        spx_aabb u0 = spx_aabb_union(&t->nodes[y].box, &t->nodes[nx->child[g_slot]].box);
        spx_aabb u1 = spx_aabb_union(&t->nodes[y].box, &t->nodes[nx->child[other]].box);
        if (spx_aabb_half_area(&u1) < spx_aabb_half_area(&u0)) g_slot = other;
    }
    uint32_t g = nx->child[g_slot];
    replace_child(t, t->links[a].parent, a, x);
    nx->child[g_slot] = a;
    t->links[a].parent = x;
    na->child[slot] = g;
    t->links[g].parent = a;
    refit(t, a);
    refit(t, x);
    return x;
}

/* Returns the node now at i's place, refitted. */
static uint32_t balance(spx_dynamic_tree* t, uint32_t i)
{
    const spx_tree_node* n = &t->nodes[i];
    int h0 = height_of(t, n->child[0]), h1 = height_of(t, n->child[1]);
    if (h1 - h0 > SPX_TREE_SLACK) return lift(t, i, 1);
    if (h0 - h1 > SPX_TREE_SLACK) return lift(t, i, 0);
    refit(t, i);
    return i;
}

/* Kensler's rotation (2008): swap a's child q with a grandchild f under p when it shrinks p's box
   most, keeping balance and a's height, so one lift a node still keeps the bound. */
static void tighten(spx_dynamic_tree* t, uint32_t a)
{
    spx_tree_node* na = &t->nodes[a];
    int ha = height_of(t, a);
    float best = 0.0f;
    int best_side = -1, best_k = 0;
    for (int side = 0; side < 2; ++side) {
        const spx_tree_node* p = &t->nodes[na->child[side]];
        if (is_leaf(p)) continue;
        uint32_t q = na->child[1 - side];
        int hq = height_of(t, q);
        float area_p = spx_aabb_half_area(&p->box);
        for (int k = 0; k < 2; ++k) {
            uint32_t f = p->child[k], g = p->child[1 - k];
            int hf = height_of(t, f), hg = height_of(t, g);
            int hp = 1 + (hq > hg ? hq : hg);
            if (!balanced(hq, hg) || !balanced(hf, hp) || 1 + (hf > hp ? hf : hp) != ha) continue;
            spx_aabb u = spx_aabb_union(&t->nodes[q].box, &t->nodes[g].box);
            float gain = area_p - spx_aabb_half_area(&u);
            if (gain > best) best = gain, best_side = side, best_k = k;
        }
    }
    if (best_side < 0) return;
    uint32_t p = na->child[best_side], q = na->child[1 - best_side];
    spx_tree_node* np = &t->nodes[p];
    uint32_t f = np->child[best_k];
    na->child[1 - best_side] = f;
    t->links[f].parent = a;
    np->child[best_k] = q;
    t->links[q].parent = p;
    refit(t, p);
    refit(t, a);
}

/* Up from i (always done: it may be new), until an ancestor keeps its box and height: nothing
   above reads more. */
static void walk_up(spx_dynamic_tree* t, uint32_t i)
{
    bool first = true;
    while (i != SPX_TREE_NULL) {
        spx_aabb box = t->nodes[i].box;
        uint16_t height = t->links[i].height;
        i = balance(t, i);
        tighten(t, i);
        if (!first && t->links[i].height == height && memcmp(&t->nodes[i].box, &box, sizeof box) == 0) return;
        first = false;
        i = t->links[i].parent;
    }
}

/* ---- insertion and removal ------------------------------------------------------------------- */

/* Surface area descent to the cheaper child. Stops only at a node no higher than the slack, so
   one lift per ancestor keeps the height bound. See docs/decisions.md#broad-phase. */
static uint32_t pick_sibling(const spx_dynamic_tree* t, uint32_t root, const spx_aabb* b)
{
    uint32_t i = root;
    while (!is_leaf(&t->nodes[i])) {
        const spx_tree_node* n = &t->nodes[i];
        spx_aabb u = spx_aabb_union(&n->box, b);
        float joined = spx_aabb_half_area(&u);
        float here = 2.0f * joined;
        float inherited = 2.0f * (joined - spx_aabb_half_area(&n->box));
        float down[2];
        for (int k = 0; k < 2; ++k) {
            const spx_tree_node* c = &t->nodes[n->child[k]];
            spx_aabb cu = spx_aabb_union(&c->box, b);
            down[k] = spx_aabb_half_area(&cu) + inherited - (is_leaf(c) ? 0.0f : spx_aabb_half_area(&c->box));
        }
        if (height_of(t, i) <= SPX_TREE_SLACK && here < down[0] && here < down[1]) break;
        i = n->child[down[1] < down[0] ? 1 : 0];
    }
    return i;
}

/* Takes one free node unless the tree is empty. */
static void attach(spx_dynamic_tree* t, uint32_t leaf)
{
    int which = t->links[leaf].tree;
    if (t->root[which] == SPX_TREE_NULL) {
        t->root[which] = leaf;
        t->links[leaf].parent = SPX_TREE_NULL;
        return;
    }
    uint32_t s = pick_sibling(t, t->root[which], &t->nodes[leaf].box);
    uint32_t p = take_node(t, which);
    replace_child(t, t->links[s].parent, s, p);
    spx_tree_node* np = &t->nodes[p];
    np->child[0] = s;
    np->child[1] = leaf;
    t->links[s].parent = p;
    t->links[leaf].parent = p;
    walk_up(t, p);
}

/* Takes a leaf out of its tree, keeping its node; its parent goes back to the pool. */
static void detach(spx_dynamic_tree* t, uint32_t leaf)
{
    int which = t->links[leaf].tree;
    if (leaf == t->root[which]) {
        t->root[which] = SPX_TREE_NULL;
        return;
    }
    uint32_t p = t->links[leaf].parent;
    spx_tree_node* np = &t->nodes[p];
    uint32_t s = np->child[np->child[0] == leaf ? 1 : 0];
    uint32_t g = t->links[p].parent;
    replace_child(t, g, p, s);
    give_node(t, p);
    t->links[leaf].parent = SPX_TREE_NULL;
    if (g != SPX_TREE_NULL) walk_up(t, g);
}

spx_result spx_tree_insert(spx_dynamic_tree* tree, int which, const spx_aabb* fat, uint32_t user, uint32_t* out_proxy)
{
    if (which < 0 || which >= SPX_TREE_COUNT || tree->leaf_count >= SPX_TREE_MAX_LEAVES)
        return SPX_ERR_INVALID_ARGUMENT;
    /* A leaf and its new parent: make room before touching anything. */
    if (tree->capacity - tree->node_count < 2) {
        spx_result r = grow(tree, (uint64_t)tree->node_count + 2u);
        if (r != SPX_OK) return r;
    }
    uint32_t leaf = take_node(tree, which);
    spx_tree_node* n = &tree->nodes[leaf];
    n->box = *fat;
    n->child[1] = user; /* a leaf: child[0] stays SPX_TREE_NULL */
    attach(tree, leaf);
    tree->leaf_count++;
    *out_proxy = leaf;
    return SPX_OK;
}

void spx_tree_remove(spx_dynamic_tree* tree, uint32_t proxy)
{
    detach(tree, proxy);
    give_node(tree, proxy);
    tree->leaf_count--;
}

/* ---- building and clearing a whole tree -------------------------------------------------------- */

static float centre_along(const spx_aabb* b, int axis) { return b->min[axis] + b->max[axis]; }

/* Hoare's selection of the k-th centre; ties by position, so deterministic. */
static void select_kth(const spx_aabb* boxes, uint32_t* order, uint32_t count, uint32_t k, int axis)
{
    uint32_t lo = 0, hi = count - 1;
    while (lo < hi) {
        const float pivot = centre_along(&boxes[order[lo + (hi - lo) / 2]], axis);
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (centre_along(&boxes[order[i]], axis) < pivot) ++i;
            while (centre_along(&boxes[order[j]], axis) > pivot) --j;
            if (i <= j) {
                uint32_t x = order[i];
                order[i] = order[j], order[j] = x;
                ++i;
                if (j == 0) break;
                --j;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return;
    }
}

/* The subtree over order[0 .. count), nodes from the pool; its root. */
static uint32_t build_range(spx_dynamic_tree* t, int which, const spx_aabb* boxes, const uint32_t* users,
                            uint32_t* order, uint32_t count, uint32_t* out_proxies)
{
    if (count == 1) {
        uint32_t leaf = take_node(t, which);
        t->nodes[leaf].box = boxes[order[0]];
        t->nodes[leaf].child[1] = users[order[0]];
        out_proxies[order[0]] = leaf;
        return leaf;
    }
    float lo[3], hi[3];
    for (int a = 0; a < 3; ++a) lo[a] = hi[a] = centre_along(&boxes[order[0]], a);
    for (uint32_t k = 1; k < count; ++k)
        for (int a = 0; a < 3; ++a) {
            float c = centre_along(&boxes[order[k]], a);
            lo[a] = c < lo[a] ? c : lo[a];
            hi[a] = c > hi[a] ? c : hi[a];
        }
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    const uint32_t half = count / 2;
    select_kth(boxes, order, count, half, axis);
    uint32_t left = build_range(t, which, boxes, users, order, half, out_proxies);
    uint32_t right = build_range(t, which, boxes, users, order + half, count - half, out_proxies);
    uint32_t p = take_node(t, which);
    t->nodes[p].child[0] = left;
    t->nodes[p].child[1] = right;
    t->links[left].parent = p;
    t->links[right].parent = p;
    refit(t, p);
    return p;
}

spx_result spx_tree_build(spx_dynamic_tree* tree, int which, const spx_aabb* boxes, const uint32_t* users,
                          uint32_t count, uint32_t* order, uint32_t* out_proxies)
{
    if (which < 0 || which >= SPX_TREE_COUNT || tree->root[which] != SPX_TREE_NULL ||
        count > SPX_TREE_MAX_LEAVES - tree->leaf_count)
        return SPX_ERR_INVALID_ARGUMENT;
    if (count == 0) return SPX_OK;
    if (tree->capacity - tree->node_count < 2ull * count - 1u) {
        spx_result r = grow(tree, (uint64_t)tree->node_count + 2ull * count - 1u);
        if (r != SPX_OK) return r;
    }
    for (uint32_t k = 0; k < count; ++k) order[k] = k;
    uint32_t root = build_range(tree, which, boxes, users, order, count, out_proxies);
    tree->links[root].parent = SPX_TREE_NULL;
    tree->root[which] = root;
    tree->leaf_count += count;
    return SPX_OK;
}

void spx_tree_clear(spx_dynamic_tree* tree, int which)
{
    uint32_t stack[SPX_TREE_MAX_HEIGHT + 2];
    int top = 0;
    if (tree->root[which] != SPX_TREE_NULL) stack[top++] = tree->root[which];
    tree->root[which] = SPX_TREE_NULL;
    while (top > 0) {
        uint32_t i = stack[--top];
        spx_tree_node* n = &tree->nodes[i];
        if (is_leaf(n)) {
            tree->leaf_count--;
        } else {
            stack[top++] = n->child[0];
            stack[top++] = n->child[1];
        }
        give_node(tree, i);
    }
}

/* The boxes from i up, each the union of its children, until one is unchanged. */
static void refit_boxes(spx_dynamic_tree* t, uint32_t i)
{
    for (; i != SPX_TREE_NULL; i = t->links[i].parent) {
        spx_tree_node* n = &t->nodes[i];
        const spx_aabb u = spx_aabb_union(&t->nodes[n->child[0]].box, &t->nodes[n->child[1]].box);
        if (memcmp(&u, &n->box, sizeof u) == 0) return;
        n->box = u;
    }
}

/* Whether the box lies within one of the leaf's KEEP_LEVELS nearest ancestors' boxes. */
static bool near_ancestor_holds(const spx_dynamic_tree* t, uint32_t leaf, const spx_aabb* box)
{
    uint32_t a = t->links[leaf].parent;
    for (int up = 0; up < KEEP_LEVELS && a != SPX_TREE_NULL; ++up, a = t->links[a].parent)
        if (spx_aabb_contains(&t->nodes[a].box, box)) return true;
    return false;
}

void spx_tree_reinsert(spx_dynamic_tree* tree, uint32_t proxy, int which, const spx_aabb* fat)
{
    /* A leaf moving within a near ancestor's box keeps its place: boxes are refitted, no height
       changes, and the removal, the descent and the rotations are spared. */
    if (which == tree->links[proxy].tree &&
        (tree->links[proxy].parent == SPX_TREE_NULL || near_ancestor_holds(tree, proxy, fat))) {
        tree->nodes[proxy].box = *fat;
        refit_boxes(tree, tree->links[proxy].parent);
        return;
    }
    detach(tree, proxy);
    tree->links[proxy].tree = (uint8_t)which;
    tree->nodes[proxy].box = *fat;
    attach(tree, proxy);
}

bool spx_tree_move(spx_dynamic_tree* tree, uint32_t proxy, const spx_aabb* box, float fraction, const float sweep[3])
{
    if (spx_fat_box_fits(&tree->nodes[proxy].box, box, fraction, sweep)) return false;
    spx_aabb fat = spx_fat_box(box, fraction, sweep);
    spx_tree_reinsert(tree, proxy, tree->links[proxy].tree, &fat);
    return true;
}

/* ---- queries ---------------------------------------------------------------------------------- */

void spx_tree_query(const spx_dynamic_tree* tree, int which, const spx_aabb* box, spx_tree_query_fn* fn, void* context)
{
    uint32_t root = tree->root[which];
    if (root == SPX_TREE_NULL || !spx_aabb_overlap(&tree->nodes[root].box, box)) return;
    /* Both children tested together so their cache misses overlap; at most height + 1 wait. */
    uint32_t stack[SPX_TREE_MAX_HEIGHT + 1];
    const spx_tree_node* nodes = tree->nodes;
    int top = 0;
    stack[top++] = root;
    while (top > 0) {
        uint32_t i = stack[--top];
        const spx_tree_node* n = &nodes[i];
        if (is_leaf(n)) {
            if (!fn(context, i, n->child[1])) return;
            continue;
        }
        uint32_t c0 = n->child[0], c1 = n->child[1];
        bool o0 = spx_aabb_overlap(&nodes[c0].box, box), o1 = spx_aabb_overlap(&nodes[c1].box, box);
        if (o1) stack[top++] = c1;
        if (o0) stack[top++] = c0;
    }
}

typedef struct node_pair {
    uint32_t a, b;
} node_pair;

/* Items (a, a): pairs within a, open into three; (a, b): across, open into two. At most 4h + 1
   wait on the stack (docs/decisions.md#broad-phase). */
#define PAIR_STACK (4 * SPX_TREE_MAX_HEIGHT + 2)

/* spent: NULL or a flag a node. Returns whether it skipped an overlapping item. */
static bool descend(const spx_tree_node* nodes, const uint8_t* spent, node_pair* stack, int top, spx_tree_pair_fn* fn,
                    void* context)
{
    bool left_out = false;
    while (top > 0) {
        node_pair p = stack[--top];
        const spx_tree_node* a = &nodes[p.a];
        if (p.a == p.b) {
            if (is_leaf(a)) continue;
            if (spent && spent[p.a]) {
                left_out = true;
                continue;
            }
            uint32_t c0 = a->child[0], c1 = a->child[1];
            stack[top++] = (node_pair){ c0, c1 };
            stack[top++] = (node_pair){ c1, c1 };
            stack[top++] = (node_pair){ c0, c0 };
            continue;
        }
        const spx_tree_node* b = &nodes[p.b];
        if (!spx_aabb_overlap(&a->box, &b->box)) continue;
        if (spent && spent[p.a] && spent[p.b]) {
            left_out = true;
            continue;
        }
        bool la = is_leaf(a), lb = is_leaf(b);
        if (la && lb) {
            fn(context, a->child[1], b->child[1]);
        } else if (lb || (!la && spx_aabb_half_area(&a->box) >= spx_aabb_half_area(&b->box))) {
            /* Open the larger non-leaf side; the side in `a` stays first (spx_tree_query_across). */
            stack[top++] = (node_pair){ a->child[1], p.b };
            stack[top++] = (node_pair){ a->child[0], p.b };
        } else {
            stack[top++] = (node_pair){ p.a, b->child[1] };
            stack[top++] = (node_pair){ p.a, b->child[0] };
        }
    }
    return left_out;
}

void spx_tree_query_pairs(const spx_dynamic_tree* tree, int which, spx_tree_pair_fn* fn, void* context)
{
    if (tree->root[which] == SPX_TREE_NULL) return;
    node_pair stack[PAIR_STACK];
    stack[0] = (node_pair){ tree->root[which], tree->root[which] };
    descend(tree->nodes, NULL, stack, 1, fn, context);
}

bool spx_tree_query_pairs_spent(const spx_dynamic_tree* tree, int which, const uint8_t* spent, spx_tree_pair_fn* fn,
                                void* context)
{
    if (tree->root[which] == SPX_TREE_NULL) return false;
    node_pair stack[PAIR_STACK];
    stack[0] = (node_pair){ tree->root[which], tree->root[which] };
    return descend(tree->nodes, spent, stack, 1, fn, context);
}

void spx_tree_spend(const spx_dynamic_tree* tree, uint32_t leaf, uint8_t* spent)
{
    spent[leaf] = 1;
    for (uint32_t p = tree->links[leaf].parent; p != SPX_TREE_NULL; p = tree->links[p].parent) {
        const spx_tree_node* n = &tree->nodes[p];
        if (!spent[n->child[0]] || !spent[n->child[1]]) return;
        spent[p] = 1;
    }
}

void spx_tree_query_across(const spx_dynamic_tree* tree, int a, int b, spx_tree_pair_fn* fn, void* context)
{
    if (tree->root[a] == SPX_TREE_NULL || tree->root[b] == SPX_TREE_NULL) return;
    /* Two different roots: only items of the second kind, at most hA + hB + 1 waiting. */
    node_pair stack[PAIR_STACK];
    stack[0] = (node_pair){ tree->root[a], tree->root[b] };
    descend(tree->nodes, NULL, stack, 1, fn, context);
}
