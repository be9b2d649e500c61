/* The all-pairs brute force for the mesh queries of mesh_query.h, and the comparison of a query's
 * answer with it (tests/test_mesh_query.c, tests/test_mesh_query_models.c).
 *
 * It runs the single-pair tests of collide.h on every world triangle of A against every world
 * triangle of B (or the box against every triangle), taking the triangles from
 * spx_mesh_instance_get_triangle, which gives exactly the corners the queries test. What the
 * header promises is then worked out from those answers alone: the state, the first pair by
 * (time, triangle_a, triangle_b), the contact set within SPX_MESH_CONTACT_WINDOW * tmax of the
 * first time (or every pair overlapping at t = 0), the averaged normal, the mean point and the
 * depth estimate of a start overlap. Nothing here knows the trees. */
#ifndef TEST_SUPPORT_MESH_BRUTE_H
#define TEST_SUPPORT_MESH_BRUTE_H

#include <sepax/sepax.h>
#include <stdio.h>

/* One side of a query: the box, or an instance's world triangles with their def numbers. */
typedef struct test_brute_side {
    bool is_box;
    spx_obb box;
    spx_triangle* tri;
    uint32_t* source; /* def number of tri[i] */
    uint32_t count;
    uint32_t skipped; /* world triangles that spx_triangle_validate refuses (the queries skip them) */
} test_brute_side;

/* One pair that is not a miss, as the single-pair test answered it. */
typedef struct test_brute_pair {
    uint32_t ia, ib;   /* index into the sides (ia is 0 for the box) */
    uint32_t ta, tb;   /* def numbers (ta SPX_NO_TRIANGLE for the box) */
    spx_sweep_hit hit; /* static queries: normal and depth from spx_penetration_*, point from a
                                  sweep with no motion and tmax 0 */
} test_brute_pair;

typedef struct test_brute_answer {
    spx_sweep_state state;
    float time, tmax;
    test_brute_pair* pairs; /* every pair that is not a miss, sorted by (ta, tb) */
    uint32_t pair_count;
    uint32_t first;         /* HIT: the least (time, ta, tb); START_OVERLAP: a deepest pair */
    uint32_t set_count;     /* pairs certainly in the contact set */
    uint32_t set_optional;  /* pairs within a float step or so of the window's end: either way is right */
    bool* in_set;           /* per pair: certainly in the set */
    bool* optional;         /* per pair: at the window's edge */
    spx_vec3 normal, point; /* START_OVERLAP: normalised mean of the set's normals (the deepest pair's when the
                                  mean is shorter than 1e-3), mean of their points */
    double mean_length;     /* length of the mean normal */
    float depth;            /* START_OVERLAP: the depth estimate along `normal` */
    uint64_t tests;         /* single-pair calls made */
    uint32_t inconsistent;  /* static: pairs where overlap, penetration and a still sweep disagree */
} test_brute_answer;

/* Statistics over many comparisons, printed at the end of a test. */
typedef struct test_brute_stats {
    uint64_t compared, hits, misses, overlaps;
    uint64_t time_exact;    /* HIT answers whose time equals the brute force's bit for bit */
    double worst_time;      /* largest |time - brute time| / tmax */
    double worst_normal;    /* largest component difference of a START_OVERLAP averaged normal */
    uint64_t contacts;      /* contacts compared one by one */
    uint64_t optional_seen; /* pairs at the window's edge */
    uint64_t tests;         /* single-pair calls of the brute force */
    uint64_t ties;          /* HIT answers whose first time is shared by several pairs */
    int dumped;             /* failures printed in full */
} test_brute_stats;

bool test_brute_side_from_instance(test_brute_side* out, const spx_mesh_instance* instance);
void test_brute_side_from_box(test_brute_side* out, const spx_obb* box);
void test_brute_side_free(test_brute_side* s);

/* The swept problem: a moves at va, b at vb over [0, tmax]. */
bool test_brute_sweep(const test_brute_side* a, spx_vec3 va, const test_brute_side* b, spx_vec3 vb, float tmax,
                      test_brute_answer* out);
/* The static problem at the current poses. */
bool test_brute_static(const test_brute_side* a, const test_brute_side* b, test_brute_answer* out);
void test_brute_answer_free(test_brute_answer* r);

/* Compares a query's answer with the brute force's: state, time, first pair, contact set and every
 * written contact field by field, the averaged normal, mean point and depth estimate. `contacts`
 * holds what the query wrote with `capacity`; `scale` is the problem's size for point tolerances.
 * Prints what differs (under `label`) and returns 1 on any difference, 0 when they agree. */
int test_brute_compare(const test_brute_answer* e, const test_brute_side* a, const test_brute_side* b,
                       const spx_mesh_hit* got, const spx_mesh_contact* contacts, uint32_t capacity, double scale,
                       const char* label, test_brute_stats* st);

/* The pair with these def numbers, or NULL. */
const test_brute_pair* test_brute_find(const test_brute_answer* e, uint32_t ta, uint32_t tb);

const char* test_brute_state_name(int state);

/* ---- running queries against the brute force ------------------------------------------------------ */

/* A contacts array of `capacity` entries and one guard entry past its end that no call may write. */
typedef struct test_brute_buffer {
    spx_mesh_contact* c;
    uint32_t capacity;
} test_brute_buffer;

bool test_brute_buffer_make(test_brute_buffer* b, uint32_t capacity);
bool test_brute_buffer_intact(const test_brute_buffer* b);
void test_brute_buffer_free(test_brute_buffer* b);

/* One query of either kind. */
typedef struct test_brute_query {
    const spx_obb* box; /* A is this box when not NULL, else the instance a */
    spx_mesh_instance* a;
    spx_mesh_instance* b;
    spx_vec3 va, vb;
    float tmax;
} test_brute_query;

spx_result test_brute_run_sweep(const test_brute_query* q, test_brute_buffer* buf, spx_mesh_hit* out);
spx_result test_brute_run_contacts(const test_brute_query* q, test_brute_buffer* buf, spx_mesh_hit* out);
bool test_brute_sides_of(const test_brute_query* q, test_brute_side* a, test_brute_side* b);
/* The size of a problem, for point tolerances: the farthest any corner gets from the origin. */
double test_brute_problem_scale(const test_brute_side* a, const test_brute_side* b, const test_brute_query* q);
/* Prints a query so that it can be rebuilt: poses, box, velocities and tmax in %a. */
void test_brute_print_query(const test_brute_query* q);

/* The swept query against the brute force, with room for the whole set (capacity UINT32_MAX) or
   `capacity` contacts; the answer goes to *out (may be NULL). Returns 1 on any difference. */
int test_brute_check_sweep(const test_brute_query* q, uint32_t capacity, const char* label, test_brute_stats* st,
                           spx_mesh_hit* out);
/* The static queries against the brute force: spx_overlap_*, spx_contacts_* and a sweep with tmax 0. */
int test_brute_check_static(const test_brute_query* q, const char* label, test_brute_stats* st, int* overlapping,
                            uint64_t* inconsistent);

/* The full answer and contact list of a query, for comparing two queries with each other. */
typedef struct test_brute_full {
    spx_mesh_hit hit;
    test_brute_buffer buf;
} test_brute_full;

int test_brute_full_run(const test_brute_query* q, test_brute_full* out);
const spx_mesh_contact* test_brute_full_find(const test_brute_full* f, uint32_t ta, uint32_t tb);
/* A and B exchanged must give the same answer seen from the other side (see the definition);
   prints what differs, with the single-pair tests both ways round, and returns 1. */
int test_brute_check_swapped(const test_brute_query* q, const char* label, double scale);
void test_brute_explain_swap(const test_brute_query* q);
void test_brute_print_stats(const char* name, const test_brute_stats* st, double seconds);

double test_brute_len3(spx_vec3 v);
double test_brute_vdiff(spx_vec3 a, spx_vec3 b); /* largest component difference */

#endif
