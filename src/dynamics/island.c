/* Islands (union-find each step) and sleeping; see docs/world.md, "One step". */
#include "world.h"
#include "island.h"

static uint32_t find(uint32_t* parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void unite(uint32_t* parent, uint32_t x, uint32_t y)
{
    x = find(parent, x), y = find(parent, y);
    if (x == y) return;
    if (x < y) parent[y] = x;
    else parent[x] = y;
}

static bool awake_dynamic(const spx_body* b) { return b->type == SPX_BODY_DYNAMIC && spx_body_moves(b); }

void spx_island_wake(spx_world* w, uint32_t body)
{
    spx_body* b = &w->bodies[body];
    if (b->type != SPX_BODY_DYNAMIC || b->awake) return;
    /* Members form a cycle through island_next: any member reaches all. */
    uint32_t k = body;
    do {
        spx_body* m = &w->bodies[k];
        m->awake = true;
        m->sleep_time = 0.0f;
        uint32_t next = m->island_next;
        m->island_next = SPX_NO_BODY;
        k = next;
    } while (k != SPX_NO_BODY && k != body);
}

/* Closes the chain into a cycle. */
static void put_to_sleep(spx_world* w, uint32_t head)
{
    uint32_t k = head;
    for (;;) {
        spx_body* m = &w->bodies[k];
        m->awake = false;
        m->sleep_time = 0.0f;
        m->v = glms_vec3_zero();
        m->w = glms_vec3_zero();
        /* Cannot fail: the finder has room for every body (spx_world_reserve_bodies). */
        spx_world_track_body(w, k, m);
        if (m->island_next == SPX_NO_BODY) {
            m->island_next = head;
            return;
        }
        k = m->island_next;
    }
}

static void link_islands(spx_world* w, uint32_t* parent)
{
    for (uint32_t i = 0; i < w->body_slots; ++i) parent[i] = i;
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        if (awake_dynamic(&w->bodies[c->body_a]) && awake_dynamic(&w->bodies[c->body_b]))
            unite(parent, c->body_a, c->body_b);
    }
    spx_joints_link_islands(w, parent, unite); /* jointed bodies sleep and wake together */
}

uint32_t spx_islands_update(spx_world* w, float dt)
{
    uint32_t* parent = w->island_parent;
    float* least = w->island_min_sleep;
    const spx_world_def* d = &w->def;
    link_islands(w, parent);
    if (!d->enable_sleep) {
        /* No island may sleep: no rest to measure, only the islands to count. */
        uint32_t islands = 0;
        for (uint32_t i = 0; i < w->body_slots; ++i) {
            spx_body* b = &w->bodies[i];
            if (!awake_dynamic(b)) continue;
            b->sleep_time = 0.0f;
            islands += find(parent, i) == i;
        }
        return islands;
    }
    /* Rest times, and each island's least. */
    for (uint32_t i = 0; i < w->body_slots; ++i) least[i] = INFINITY;
    for (uint32_t i = 0; i < w->body_slots; ++i) {
        spx_body* b = &w->bodies[i];
        if (!awake_dynamic(b)) continue;
        bool slow = glms_vec3_norm2(b->v) <= d->sleep_linear_speed * d->sleep_linear_speed &&
                    glms_vec3_norm2(b->w) <= d->sleep_angular_speed * d->sleep_angular_speed;
        /* A body rocking in place rests too while it stays near where it began resting; its pose says so
           only while it turns under half a turn a step (docs/world.md, "One step"). */
        if (!slow && b->sleep_time > 0.0f && glms_vec3_norm(b->w) * dt < 3.14159265f) {
            float reach = 0.5f * d->sleep_linear_speed * d->time_to_sleep;
            float turn = 0.5f * d->sleep_angular_speed * d->time_to_sleep;
            /* 2 acos |q0 . q1|, compared through the cosine. */
            float c = fabsf(glms_quat_dot(b->rotation, b->rest_rotation));
            slow = glms_vec3_norm2(glms_vec3_sub(b->center, b->rest_center)) <= reach * reach && c >= cosf(0.5f * turn);
        }
        if (slow && b->enable_sleep && d->enable_sleep) {
            if (b->sleep_time == 0.0f) b->rest_center = b->center, b->rest_rotation = b->rotation;
            b->sleep_time += dt;
        } else {
            b->sleep_time = 0.0f;
        }
        uint32_t r = find(parent, i);
        if (b->sleep_time < least[r]) least[r] = b->sleep_time;
    }
    /* Carried by a moving kinematic body is not resting. */
    for (uint32_t k = 0; k < w->contacts.count; ++k) {
        const spx_contact* c = &w->contacts.list[k];
        const spx_body *a = &w->bodies[c->body_a], *b = &w->bodies[c->body_b];
        bool kin_a = a->type == SPX_BODY_KINEMATIC && (glms_vec3_norm2(a->v) > 0.0f || glms_vec3_norm2(a->w) > 0.0f);
        bool kin_b = b->type == SPX_BODY_KINEMATIC && (glms_vec3_norm2(b->v) > 0.0f || glms_vec3_norm2(b->w) > 0.0f);
        if (kin_a && awake_dynamic(b)) least[find(parent, c->body_b)] = 0.0f;
        if (kin_b && awake_dynamic(a)) least[find(parent, c->body_a)] = 0.0f;
    }
    /* Chain each rested island's members in index order before sleeping it. */
    uint32_t islands = 0;
    uint32_t* head = w->island_head;
    for (uint32_t i = 0; i < w->body_slots; ++i) head[i] = SPX_NO_BODY;
    for (uint32_t i = w->body_slots; i-- > 0;) {
        if (!awake_dynamic(&w->bodies[i])) continue;
        uint32_t r = find(parent, i);
        islands += r == i;
        /* A member that may not sleep, or is not resting, keeps its rest time at 0: with
           time_to_sleep 0 too, the island stays awake. */
        if (!(least[r] > 0.0f && least[r] >= d->time_to_sleep)) continue;
        w->bodies[i].island_next = head[r];
        head[r] = i;
    }
    for (uint32_t i = 0; i < w->body_slots; ++i)
        if (head[i] != SPX_NO_BODY) put_to_sleep(w, head[i]);
    return islands;
}

void spx_island_sleep_now(spx_world* w, uint32_t body)
{
    spx_body* b = &w->bodies[body];
    if (b->type != SPX_BODY_DYNAMIC || !b->awake) return;
    uint32_t* parent = w->island_parent;
    link_islands(w, parent);
    uint32_t root = find(parent, body), head = SPX_NO_BODY;
    for (uint32_t k = w->body_slots; k-- > 0;) {
        if (!awake_dynamic(&w->bodies[k]) || find(parent, k) != root) continue;
        w->bodies[k].island_next = head;
        head = k;
    }
    put_to_sleep(w, head);
}
