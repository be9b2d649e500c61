/* Dynamic AABB tree: SAH-guided insertion, AVL rotations, fat leaves, box and self-pair queries. */
#include "dynamic_tree.h"
#include "core/allocator.h"

#include <stdint.h>
#include <string.h>

#define TREE_ALIGN 64

static inline bool is_leaf(const spx_tree_node* n)
{
    return n->child[0] == SPX_TREE_NULL;
}

/* ---- the node pool --------------------------------------------------------------------------- */

/* Grows the pool to at least `need` nodes; new nodes go on the free list in index order, so the
   nodes handed out depend only on the sequence of calls. */
static spx_result grow(spx_dynamic_tree* t, uint32_t need)
{
    if (need <= t->capacity) return SPX_OK;
    uint64_t cap = (uint64_t)t->capacity * 2u;
    if (cap < need) cap = need;
    if (cap < 16) cap = 16;
    if (cap > 2ull * SPX_TREE_MAX_LEAVES) cap = 2ull * SPX_TREE_MAX_LEAVES;
    if (cap > SIZE_MAX / sizeof(spx_tree_node)) return SPX_ERR_OUT_OF_MEMORY;
    spx_tree_node* nodes = spx_alloc(&t->allocator, (size_t)cap * sizeof *nodes, TREE_ALIGN);
    if (!nodes) return SPX_ERR_OUT_OF_MEMORY;
    if (t->capacity) memcpy(nodes, t->nodes, (size_t)t->capacity * sizeof *nodes);
    /* Link the new nodes ahead of whatever was still free. */
    uint32_t next = t->free_list;
    for (uint64_t i = cap; i-- > t->capacity;) {
        memset(&nodes[i], 0, sizeof nodes[i]);
        nodes[i].parent = next;
        nodes[i].child[0] = nodes[i].child[1] = SPX_TREE_NULL;
        next = (uint32_t)i;
    }
    spx_free(&t->allocator, t->nodes, (size_t)t->capacity * sizeof *t->nodes);
    t->nodes = nodes;
    t->free_list = next;
    t->capacity = (uint32_t)cap;
    return SPX_OK;
}

/* Callers made room first (insert grows, move has just freed a node). */
static uint32_t take_node(spx_dynamic_tree* t)
{
    uint32_t i = t->free_list;
    spx_tree_node* n = &t->nodes[i];
    t->free_list = n->parent;
    n->parent = n->child[0] = n->child[1] = SPX_TREE_NULL;
    n->height = 0;
    n->active = 0;
    n->used = 1;
    n->user = 0;
    t->node_count++;
    return i;
}

static void give_node(spx_dynamic_tree* t, uint32_t i)
{
    spx_tree_node* n = &t->nodes[i];
    n->used = 0;
    n->child[0] = n->child[1] = SPX_TREE_NULL;
    n->parent = t->free_list;
    t->free_list = i;
    t->node_count--;
}

spx_result spx_tree_init(spx_dynamic_tree* tree, const spx_allocator* allocator, uint32_t leaf_capacity,
                         float fat_fraction)
{
    memset(tree, 0, sizeof *tree);
    if (allocator) tree->allocator = *allocator;
    tree->root = tree->free_list = SPX_TREE_NULL;
    tree->fat_fraction = fat_fraction >= 0.0f && fat_fraction < 1e30f ? fat_fraction : 0.0f;
    return leaf_capacity ? spx_tree_reserve(tree, leaf_capacity) : SPX_OK;
}

void spx_tree_destroy(spx_dynamic_tree* tree)
{
    spx_free(&tree->allocator, tree->nodes, (size_t)tree->capacity * sizeof *tree->nodes);
    float fat = tree->fat_fraction;
    spx_allocator a = tree->allocator;
    memset(tree, 0, sizeof *tree);
    tree->root = tree->free_list = SPX_TREE_NULL;
    tree->fat_fraction = fat;
    tree->allocator = a;
}

spx_result spx_tree_reserve(spx_dynamic_tree* tree, uint32_t leaf_count)
{
    if (leaf_count > SPX_TREE_MAX_LEAVES) return SPX_ERR_INVALID_ARGUMENT;
    /* n leaves need n - 1 inner nodes. */
    return leaf_count ? grow(tree, 2u * leaf_count - 1u) : SPX_OK;
}

/* ---- keeping inner nodes right ---------------------------------------------------------------- */

static void refit(spx_dynamic_tree* t, uint32_t i)
{
    spx_tree_node* n = &t->nodes[i];
    const spx_tree_node* a = &t->nodes[n->child[0]];
    const spx_tree_node* b = &t->nodes[n->child[1]];
    n->box = spx_aabb_union(&a->box, &b->box);
    n->height = (uint16_t)(1 + (a->height > b->height ? a->height : b->height));
    n->active = a->active | b->active;
}

/* Node a's child in `slot` is more than one level taller than the other child y: lift it. Its own
   children f and g: the taller, f, stays under it, and a goes down in g's place, taking g as the
   child in `slot`:
           a                 x
         /   \             /   \
        y     x    ->     a     f
             / \         / \
            f   g       y   g
   With heights h (y), h + 2 (x), h + 1 (f) and h or h + 1 (g), a ends at h + 1 or h + 2 and x at
   h + 2 or h + 3, both balanced: one rotation always restores the AVL rule after one insertion or
   removal below. The children of a node have no order, so no double rotation is ever needed. */
static uint32_t lift(spx_dynamic_tree* t, uint32_t a, int slot)
{
    spx_tree_node* na = &t->nodes[a];
    uint32_t x = na->child[slot];
    spx_tree_node* nx = &t->nodes[x];
    int g_slot = t->nodes[nx->child[0]].height > t->nodes[nx->child[1]].height ? 1 : 0;
    uint32_t g = nx->child[g_slot];

    nx->parent = na->parent;
    if (na->parent == SPX_TREE_NULL) {
        t->root = x;
    } else {
        spx_tree_node* p = &t->nodes[na->parent];
        p->child[p->child[0] == a ? 0 : 1] = x;
    }
    nx->child[g_slot] = a;
    na->parent = x;
    na->child[slot] = g;
    t->nodes[g].parent = a;
    refit(t, a);
    refit(t, x);
    return x;
}

/* Node i's children are right; rotates if they differ in height by more than one. Returns the
   node now at i's place, refitted. */
static uint32_t balance(spx_dynamic_tree* t, uint32_t i)
{
    const spx_tree_node* n = &t->nodes[i];
    int h0 = t->nodes[n->child[0]].height, h1 = t->nodes[n->child[1]].height;
    if (h1 - h0 > 1) return lift(t, i, 1);
    if (h0 - h1 > 1) return lift(t, i, 0);
    refit(t, i);
    return i;
}

/* From node i up to the root: rebalance and refit every ancestor of a change. */
static void walk_up(spx_dynamic_tree* t, uint32_t i)
{
    while (i != SPX_TREE_NULL) {
        i = balance(t, i);
        i = t->nodes[i].parent;
    }
}

/* ---- insertion and removal ------------------------------------------------------------------- */

/* Where to put a leaf with box b: start at the root and go down the child that costs less, by the
   surface area heuristic (a box's chance of being opened by a query grows with its area). Making a
   new parent for node i and the leaf costs area(i + b) for the parent; going down instead costs
   the growth of the child, area(child + b) - area(child), plus the growth that every node on the
   way down suffers anyway, area(i + b) - area(i). A leaf child counts whole: going below it makes a
   new parent of the leaf and b. The search stops only at a node at most one high: a new parent there
   is balanced, the subtree grows by one level at most, and one rotation per ancestor keeps the AVL
   rule (hanging a leaf beside a tall subtree would unbalance the new parent by more than one
   rotation can mend, and the traversals' fixed stacks rely on the height bound). */
static uint32_t pick_sibling(const spx_dynamic_tree* t, const spx_aabb* b)
{
    uint32_t i = t->root;
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
        if (n->height <= 1 && here < down[0] && here < down[1]) break;
        i = n->child[down[1] < down[0] ? 1 : 0];
    }
    return i;
}

/* Hangs a detached leaf (its box set) into the tree; needs one free node unless the tree is empty. */
static void attach(spx_dynamic_tree* t, uint32_t leaf)
{
    if (t->root == SPX_TREE_NULL) {
        t->root = leaf;
        t->nodes[leaf].parent = SPX_TREE_NULL;
        return;
    }
    uint32_t s = pick_sibling(t, &t->nodes[leaf].box);
    uint32_t old_parent = t->nodes[s].parent;
    uint32_t p = take_node(t);
    spx_tree_node* np = &t->nodes[p];
    np->parent = old_parent;
    np->child[0] = s;
    np->child[1] = leaf;
    t->nodes[s].parent = p;
    t->nodes[leaf].parent = p;
    if (old_parent == SPX_TREE_NULL) {
        t->root = p;
    } else {
        spx_tree_node* op = &t->nodes[old_parent];
        op->child[op->child[0] == s ? 0 : 1] = p;
    }
    walk_up(t, p);
}

/* Takes a leaf out of the tree, keeping its node; its parent goes back to the pool. */
static void detach(spx_dynamic_tree* t, uint32_t leaf)
{
    if (leaf == t->root) {
        t->root = SPX_TREE_NULL;
        return;
    }
    uint32_t p = t->nodes[leaf].parent;
    spx_tree_node* np = &t->nodes[p];
    uint32_t s = np->child[np->child[0] == leaf ? 1 : 0];
    uint32_t g = np->parent;
    t->nodes[s].parent = g;
    if (g == SPX_TREE_NULL) {
        t->root = s;
    } else {
        spx_tree_node* ng = &t->nodes[g];
        ng->child[ng->child[0] == p ? 0 : 1] = s;
    }
    give_node(t, p);
    t->nodes[leaf].parent = SPX_TREE_NULL;
    if (g != SPX_TREE_NULL) walk_up(t, g);
}

/* The fat box of a tight box: every side pushed out by fat_fraction times the largest extent, so a
   body moving by less than that per step is put back only every few steps. Relative rather than in
   metres, so the rule holds at any scale. Half extents are taken before subtracting so that boxes
   near FLT_MAX give infinities at worst, never NaN. */
static spx_aabb fatten(const spx_dynamic_tree* t, const spx_aabb* b, bool active)
{
    if (!active) return *b;
    float e = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float ek = 0.5f * b->max[k] - 0.5f * b->min[k];
        e = ek > e ? ek : e;
    }
    float m = 2.0f * t->fat_fraction * e;
    spx_aabb f;
    for (int k = 0; k < 3; ++k) {
        f.min[k] = b->min[k] - m;
        f.max[k] = b->max[k] + m;
    }
    return f;
}

spx_result spx_tree_insert(spx_dynamic_tree* tree, const spx_aabb* box, uint32_t user, bool active,
                           uint32_t* out_proxy)
{
    if (tree->leaf_count >= SPX_TREE_MAX_LEAVES) return SPX_ERR_INVALID_ARGUMENT;
    /* A leaf and its new parent: make room before touching anything. */
    if (tree->capacity - tree->node_count < 2) {
        spx_result r = grow(tree, tree->node_count + 2);
        if (r != SPX_OK) return r;
    }
    uint32_t leaf = take_node(tree);
    spx_tree_node* n = &tree->nodes[leaf];
    n->box = fatten(tree, box, active);
    n->user = user;
    n->active = active ? 1 : 0;
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

/* Largest extent of a box, as twice the largest half extent (no overflow to NaN). */
static float largest_extent(const spx_aabb* b)
{
    float e = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float ek = 0.5f * b->max[k] - 0.5f * b->min[k];
        e = ek > e ? ek : e;
    }
    return 2.0f * e;
}

bool spx_tree_move(spx_dynamic_tree* tree, uint32_t proxy, const spx_aabb* box)
{
    spx_tree_node* n = &tree->nodes[proxy];
    if (spx_aabb_contains(&n->box, box)) {
        /* Still inside. Put back anyway when the fat box is more than twice the size a fresh one
           would have: it would keep reporting neighbours the body no longer comes near. */
        float fresh = largest_extent(box) * (1.0f + (n->active ? 2.0f * tree->fat_fraction : 0.0f));
        if (largest_extent(&n->box) <= 2.0f * fresh) return false;
    }
    detach(tree, proxy);
    n = &tree->nodes[proxy];
    n->box = fatten(tree, box, n->active);
    attach(tree, proxy);
    return true;
}

void spx_tree_set_active(spx_dynamic_tree* tree, uint32_t proxy, bool active)
{
    uint8_t a = active ? 1 : 0;
    if (tree->nodes[proxy].active == a) return;
    tree->nodes[proxy].active = a;
    /* Up while the "some leaf below is active" flag changes. */
    for (uint32_t i = tree->nodes[proxy].parent; i != SPX_TREE_NULL; i = tree->nodes[i].parent) {
        spx_tree_node* n = &tree->nodes[i];
        uint8_t f = tree->nodes[n->child[0]].active | tree->nodes[n->child[1]].active;
        if (f == n->active) break;
        n->active = f;
    }
}

/* ---- queries ---------------------------------------------------------------------------------- */

void spx_tree_query(const spx_dynamic_tree* tree, const spx_aabb* box, spx_tree_query_fn* fn, void* context)
{
    if (tree->root == SPX_TREE_NULL) return;
    /* Depth first, one node popped and at most two pushed: never more than height + 1 waiting. */
    uint32_t stack[SPX_TREE_MAX_HEIGHT + 1];
    int top = 0;
    stack[top++] = tree->root;
    while (top > 0) {
        uint32_t i = stack[--top];
        const spx_tree_node* n = &tree->nodes[i];
        if (!spx_aabb_overlap(&n->box, box)) continue;
        if (is_leaf(n)) {
            if (!fn(context, i, n->user)) return;
        } else {
            stack[top++] = n->child[1];
            stack[top++] = n->child[0];
        }
    }
}

typedef struct node_pair {
    uint32_t a, b;
} node_pair;

void spx_tree_query_pairs(const spx_dynamic_tree* tree, spx_tree_pair_fn* fn, void* context)
{
    if (tree->root == SPX_TREE_NULL) return;
    /* Items (a, a) stand for "pairs within subtree a" and open into three; (a, b) for "pairs across
       two subtrees" and open into two. Along any path of the descent there are at most h items of
       the first kind and 2h of the second (each opening lowers a height), each leaving at most 2
       resp. 1 siblings waiting: no more than 4h + 1 items are ever on the stack. */
    node_pair stack[4 * SPX_TREE_MAX_HEIGHT + 2];
    const spx_tree_node* nodes = tree->nodes;
    int top = 0;
    stack[top++] = (node_pair){ tree->root, tree->root };
    while (top > 0) {
        node_pair p = stack[--top];
        const spx_tree_node* a = &nodes[p.a];
        if (p.a == p.b) {
            if (is_leaf(a) || !a->active) continue;
            uint32_t c0 = a->child[0], c1 = a->child[1];
            stack[top++] = (node_pair){ c0, c1 };
            stack[top++] = (node_pair){ c1, c1 };
            stack[top++] = (node_pair){ c0, c0 };
            continue;
        }
        const spx_tree_node* b = &nodes[p.b];
        if (!(a->active | b->active) || !spx_aabb_overlap(&a->box, &b->box)) continue;
        bool la = is_leaf(a), lb = is_leaf(b);
        if (la && lb) {
            fn(context, a->user, b->user);
        } else if (lb || (!la && a->height >= b->height)) {
            /* Open the taller side: both heights fall evenly, and a leaf is never opened. */
            stack[top++] = (node_pair){ a->child[1], p.b };
            stack[top++] = (node_pair){ a->child[0], p.b };
        } else {
            stack[top++] = (node_pair){ p.a, b->child[1] };
            stack[top++] = (node_pair){ p.a, b->child[0] };
        }
    }
}
