/* sepax bench toi: swept box-box queries whose first contact time is known in closed form, timed
 * and checked. Each family builds, in a frame where B sits above A and closes on it straight down,
 * two boxes whose extreme features along that direction (A's highest, B's lowest) face each other
 * across a gap g: face on face, edge across edge, or a corner over a face. Nothing else can touch
 * first, so the time of impact is the gap along the separating direction n over the closing speed
 * along n. The frame is then turned and moved at random (but for the axis-aligned family) and a
 * common velocity added to both boxes. The analytic answer is evaluated in double on the very
 * floats the queries get (n: A's face normal, or A's edge x B's edge), so input rounding is not
 * counted as error:
 *     t* = (n.(cB - cA) - sum_i hA_i |n.a_i| - sum_i hB_i |n.b_i|) / (-n.(vB - vA)).
 * Per family and engine: the median ns a query over the repetitions, how many cases it called a
 * hit, and its largest |t - t*| (s) and |t - t*| / t* over the hits. The comparison build adds
 * FCL's continuousCollide (bench/peers/fcl_peer.cpp) on the same boxes and motions. */
#define _POSIX_C_SOURCE 200809L
#include "scene_suites.h"
#include "commands.h"
#include "timer.h"
#include "support/cases.h"
#if defined(SPX_BENCH_HAVE_FCL)
#include "peers/peers.h"
#endif

#include <sepax/sepax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CASES 1000 /* a family */
#define MAX_REPS 101
#define MAX_ENGINES 4
#define TMAX 1.0f /* s: every case hits within it, at 0.05 to 0.95 s */

typedef enum family { FACE_ALIGNED, FACE, EDGE, CORNER, FAMILY_COUNT } family;
static const char* const family_names[FAMILY_COUNT] = { "face-aligned", "face", "edge", "corner" };

typedef struct toi_set {
    spx_obb a[CASES], b[CASES];
    spx_vec3 va[CASES], vb[CASES];
    double exact[CASES];  /* s: t*, on the floats above */
    double design[CASES]; /* s: gap / speed before the inputs were rounded to float */
    double speed[CASES];  /* m/s: |vB - vA| on the floats */
} toi_set;

/* ---- the cases --------------------------------------------------------------------------------- */

typedef double mat[3][3]; /* column-major: m[i] is axis i */

static void rotation_about(int axis, double angle, mat m)
{
    memset(m, 0, sizeof(mat));
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    m[axis][axis] = 1.0;
    m[i][i] = cos(angle), m[i][j] = sin(angle);
    m[j][i] = -sin(angle), m[j][j] = cos(angle);
}

static void apply(mat m, /* not const: C11 will not pass a mat to a const one */ const double v[3], double out[3])
{
    for (int r = 0; r < 3; ++r) out[r] = m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2];
}

static double sign0(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0; }

/* The box's extreme point along s * y (s = +1 highest, -1 lowest), relative to its centre: the
   middle of the face or edge when the box has one there (axes exactly across y give 0). */
static void extreme(mat axes, const double h[3], double s, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int r = 0; r < 3; ++r) out[r] += s * sign0(axes[i][1]) * h[i] * axes[i][r];
}

static spx_obb to_obb(const double c[3], const double h[3], mat axes)
{
    spx_mat3 m;
    for (int i = 0; i < 3; ++i) m.col[i] = spx_v3((float)axes[i][0], (float)axes[i][1], (float)axes[i][2]);
    spx_obb o;
    if (spx_obb_from_matrix(spx_v3((float)c[0], (float)c[1], (float)c[2]),
                            spx_v3((float)h[0], (float)h[1], (float)h[2]), &m, &o) != SPX_OK)
        memset(&o, 0, sizeof o); /* cannot happen for a rotation rounded to float; validated below */
    return o;
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void vec_of(spx_vec3 v, double out[3]) { out[0] = v.x, out[1] = v.y, out[2] = v.z; }

/* Entry and exit times of the moving pair's shadows on n (double, from the floats): where
   |n.(cB - cA) + t n.(vB - vA)| <= sum_i hA_i |n.a_i| + sum_i hB_i |n.b_i|. */
static void shadow_times(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb, const double n_in[3],
                         double* enter, double* exit)
{
    double n[3], ca[3], cb[3], wa[3], wb[3], d[3], w[3];
    const double len = sqrt(dot3(n_in, n_in));
    for (int r = 0; r < 3; ++r) n[r] = n_in[r] / len;
    vec_of(a->center, ca), vec_of(b->center, cb), vec_of(va, wa), vec_of(vb, wb);
    for (int r = 0; r < 3; ++r) d[r] = cb[r] - ca[r], w[r] = wb[r] - wa[r];
    const float ha[3] = { a->half_extents.x, a->half_extents.y, a->half_extents.z };
    const float hb[3] = { b->half_extents.x, b->half_extents.y, b->half_extents.z };
    double reach = 0.0;
    for (int i = 0; i < 3; ++i) {
        double ai[3], bi[3];
        vec_of(a->rotation.col[i], ai), vec_of(b->rotation.col[i], bi);
        reach += ha[i] * fabs(dot3(n, ai)) + hb[i] * fabs(dot3(n, bi));
    }
    const double p = dot3(n, d), v = dot3(n, w);
    if (v == 0.0) {
        *enter = fabs(p) <= reach ? -INFINITY : INFINITY;
        *exit = fabs(p) <= reach ? INFINITY : -INFINITY;
        return;
    }
    const double t1 = (-reach - p) / v, t2 = (reach - p) / v;
    *enter = fmin(t1, t2), *exit = fmax(t1, t2);
}

/* t* on the floats: the boxes touch at t exactly when no axis of the 15 separates them, so the first
   contact is the latest entry of the shadows (the design's own axis, for a family built right). */
static double analytic_toi(const spx_obb* a, spx_vec3 va, const spx_obb* b, spx_vec3 vb)
{
    double axes[15][3];
    int n = 0;
    for (int i = 0; i < 3; ++i) vec_of(a->rotation.col[i], axes[n++]);
    for (int i = 0; i < 3; ++i) vec_of(b->rotation.col[i], axes[n++]);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double* x = axes[n];
            const double* u = axes[i];
            const double* v = axes[3 + j];
            x[0] = u[1] * v[2] - u[2] * v[1], x[1] = u[2] * v[0] - u[0] * v[2], x[2] = u[0] * v[1] - u[1] * v[0];
            /* Parallel edges (to double precision) add nothing the face axes do not. */
            if (dot3(x, x) > 1e-24) ++n;
        }
    double first = -INFINITY, last = INFINITY;
    for (int k = 0; k < n; ++k) {
        double enter, exit;
        shadow_times(a, va, b, vb, axes[k], &enter, &exit);
        first = fmax(first, enter), last = fmin(last, exit);
    }
    return first <= last ? first : NAN;
}

static void make_case(family f, test_case_rng* rng, toi_set* s, int k)
{
    double ha[3], hb[3];
    for (int i = 0; i < 3; ++i) ha[i] = test_case_uniform(rng, 0.1, 1.0), hb[i] = test_case_uniform(rng, 0.1, 1.0);
    mat la, lb;
    double ox, oz;
    if (f == FACE_ALIGNED || f == FACE) {
        /* Both turned about y only (not at all when aligned): their faces across y stay parallel,
           offsets small enough that B's lowest face lies over A's highest. */
        rotation_about(1, f == FACE ? test_case_uniform(rng, 0, 6.2831853) : 0.0, la);
        rotation_about(1, f == FACE ? test_case_uniform(rng, 0, 6.2831853) : 0.0, lb);
        double m = fmin(fmin(ha[0], ha[2]), fmin(hb[0], hb[2]));
        ox = test_case_uniform(rng, -0.3, 0.3) * m, oz = test_case_uniform(rng, -0.3, 0.3) * m;
    } else if (f == EDGE) {
        /* A turned 15..75 degrees about x: its top is an edge along x. B turned about z: its bottom is
           an edge along z. B's edge over A's, crossing within both. */
        rotation_about(0, test_case_uniform(rng, 0.26, 1.31), la);
        rotation_about(2, test_case_uniform(rng, 0.26, 1.31), lb);
        ox = test_case_uniform(rng, -0.5, 0.5) * ha[0], oz = test_case_uniform(rng, -0.5, 0.5) * hb[2];
    } else {
        /* A turned about y (its top a face), B at random (its bottom a corner), over A's face. */
        rotation_about(1, test_case_uniform(rng, 0, 6.2831853), la);
        spx_quat q = test_case_random_quat(rng);
        for (int i = 0; i < 3; ++i) {
            const double e[3] = { i == 0, i == 1, i == 2 };
            test_case_rotate(q, e, lb[i]);
        }
        double m = fmin(ha[0], ha[2]);
        ox = test_case_uniform(rng, -0.3, 0.3) * m, oz = test_case_uniform(rng, -0.3, 0.3) * m;
    }
    const double gap = test_case_log_uniform(rng, 1e-3, 1.0), t = test_case_uniform(rng, 0.05, 0.95), speed = gap / t;
    double top_a[3], low_b[3], cb[3];
    extreme(la, ha, 1.0, top_a);
    extreme(lb, hb, -1.0, low_b);
    cb[0] = top_a[0] - low_b[0] + ox, cb[1] = top_a[1] - low_b[1] + gap, cb[2] = top_a[2] - low_b[2] + oz;
    /* The frame turned and moved, a common velocity of up to 1 m/s on both. */
    mat g;
    double shift[3] = { 0, 0, 0 }, u[3] = { 0, 0, 0 };
    if (f == FACE_ALIGNED) {
        rotation_about(0, 0.0, g);
    } else {
        spx_quat q = test_case_random_quat(rng);
        for (int i = 0; i < 3; ++i) {
            const double e[3] = { i == 0, i == 1, i == 2 };
            test_case_rotate(q, e, g[i]);
        }
    }
    for (int r = 0; r < 3; ++r) shift[r] = test_case_uniform(rng, -5.0, 5.0);
    test_case_unit_vector(rng, u);
    const double um = test_case_uniform(rng, 0.0, 1.0);
    mat wa, wb;
    for (int i = 0; i < 3; ++i) apply(g, la[i], wa[i]), apply(g, lb[i], wb[i]);
    double ca_w[3], cb_w[3], down[3], down_w[3] = { 0, -speed, 0 };
    apply(g, cb, cb_w);
    apply(g, down_w, down);
    for (int r = 0; r < 3; ++r) ca_w[r] = shift[r], cb_w[r] += shift[r];
    s->a[k] = to_obb(ca_w, ha, wa);
    s->b[k] = to_obb(cb_w, hb, wb);
    s->va[k] = spx_v3((float)(um * u[0]), (float)(um * u[1]), (float)(um * u[2]));
    s->vb[k] = spx_v3((float)(um * u[0] + down[0]), (float)(um * u[1] + down[1]), (float)(um * u[2] + down[2]));
    s->exact[k] = analytic_toi(&s->a[k], s->va[k], &s->b[k], s->vb[k]);
    s->design[k] = t;
    const spx_vec3 w = { s->vb[k].x - s->va[k].x, s->vb[k].y - s->va[k].y, s->vb[k].z - s->va[k].z };
    s->speed[k] = sqrt((double)w.x * w.x + (double)w.y * w.y + (double)w.z * w.z);
}

/* ---- engines ----------------------------------------------------------------------------------- */

typedef struct toi_row {
    family f;
    const char* engine;
    int hits;                /* cases answered with a first contact */
    double max_err, max_rel; /* s, and of t* */
    double max_err_m;        /* m: the time error times the closing speed */
    double ns[MAX_REPS], ns_median;
    bool ok;
} toi_row;

static double times[CASES];

static void judge(toi_row* r, const toi_set* s)
{
    r->hits = 0, r->max_err = r->max_rel = r->max_err_m = 0.0;
    for (int k = 0; k < CASES; ++k) {
        if (times[k] < 0.0) continue;
        ++r->hits;
        double e = fabs(times[k] - s->exact[k]);
        r->max_err = fmax(r->max_err, e);
        r->max_rel = fmax(r->max_rel, e / s->exact[k]);
        r->max_err_m = fmax(r->max_err_m, e * s->speed[k]);
    }
}

/* One pass of sepax over the family: ns a query. */
static double run_sepax(const toi_set* s)
{
    uint64_t t0 = bench_now_ns();
    for (int k = 0; k < CASES; ++k) {
        spx_sweep_hit h;
        spx_result res = spx_sweep_obb_obb(&s->a[k], s->va[k], &s->b[k], s->vb[k], TMAX, &h);
        times[k] = res == SPX_OK && h.state == SPX_SWEEP_HIT ? (double)h.time : -1.0;
    }
    return (double)(bench_now_ns() - t0) / CASES;
}

static void print_row(const toi_row* r)
{
    printf("%-13s %-10s %6d %6d %9.0f %12.3g %12.3g %12.3g\n", family_names[r->f], r->engine, CASES, r->hits,
           r->ns_median, r->max_err, r->max_rel, r->max_err_m);
}

static bool write_csv(const char* path, const void* all, int n)
{
    const toi_row* rows = all;
    FILE* f = fopen(path, "w");
    if (!f) return false;
    fprintf(f,
            "suite,family,engine,cases,hits,ns_query_median,max_abs_toi_error_s,max_rel_toi_error,max_toi_error_m\n");
    for (int i = 0; i < n; ++i)
        if (rows[i].ok)
            fprintf(f, "toi,%s,%s,%d,%d,%.1f,%.6g,%.6g,%.6g\n", family_names[rows[i].f], rows[i].engine, CASES,
                    rows[i].hits, rows[i].ns_median, rows[i].max_err, rows[i].max_rel, rows[i].max_err_m);
    return fclose(f) == 0;
}

static bool write_json(const bench_suite_options* o, const void* all, int n)
{
    const toi_row* rows = all;
    cJSON* root = bench_json_root(o->machine, o->reps);
    cJSON_AddStringToObject(root, "suite", "toi");
    cJSON* results = cJSON_AddArrayToObject(root, "results");
    for (int i = 0; i < n; ++i) {
        const toi_row* r = &rows[i];
        if (!r->ok) continue;
        cJSON* j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "family", family_names[r->f]);
        cJSON_AddStringToObject(j, "engine", r->engine);
        const bench_json_number numbers[] = {
            { "cases", CASES },
            { "hits", r->hits },
            { "ns_query_median", r->ns_median },
            { "max_abs_toi_error_s", r->max_err },
            { "max_rel_toi_error", r->max_rel },
            { "max_toi_error_m", r->max_err_m },
        };
        bench_json_add_numbers(j, numbers, BENCH_COUNT(numbers));
        cJSON_AddItemToArray(results, j);
    }
    return bench_json_write(o->json, root);
}

int bench_toi(const bench_suite_options* o)
{
    size_t peer_count = 0;
    const void* peers = NULL;
#if defined(SPX_BENCH_HAVE_FCL)
    const bench_sweep_peer* list = bench_sweep_peers_fcl(&peer_count);
    peers = list;
    if (!o->peers) peer_count = 0;
    for (size_t p = 0; p < peer_count; ++p) printf("%s: %s %s\n", list[p].engine, bench_version_fcl(), list[p].call);
#endif
    if (peer_count + 1 > MAX_ENGINES) peer_count = MAX_ENGINES - 1;
    printf(
        "suite toi: %d swept box-box queries a family, each hitting at a time t* known in closed form (0.05 to 0.95 "
        "of tmax = %g s); face-aligned: axis-aligned boxes face on face; face, edge, corner: B's face, edge or corner "
        "first, turned and moved at random\nhits: cases answered with a contact; ns_query: median ns a query over %d "
        "repetitions; max_err_s: largest |t - t*| over the hits; max_rel_err: largest |t - t*| / t*; max_err_m: "
        "largest "
        "|t - t*| times the closing speed (how far the contact pose is off)\n"
        "gaps 1 mm to 1 m, closing speeds 1 mm/s to 20 m/s, centres up to 5 m from the origin: float inputs there are "
        "good to about 5e-7 m, so a slow case's t* moves by that over its speed\n\n",
        CASES, (double)TMAX, o->reps);
    printf("%-13s %-10s %6s %6s %9s %12s %12s %12s\n", "family", "engine", "cases", "hits", "ns_query", "max_err_s",
           "max_rel_err", "max_err_m");
    static toi_set set;
    static toi_row rows[FAMILY_COUNT * MAX_ENGINES];
    int n = 0, failures = 0;
    for (int f = 0; f < FAMILY_COUNT; ++f) {
        test_case_rng rng = { 0x5E9A0000u + (uint64_t)f };
        for (int k = 0; k < CASES; ++k) make_case((family)f, &rng, &set, k);
        toi_row* r = &rows[n++];
        *r = (toi_row){ .f = (family)f, .engine = "sepax", .ok = true };
        for (int k = 0; k < o->reps; ++k) r->ns[k] = run_sepax(&set);
        r->ns_median = bench_median(r->ns, (size_t)o->reps);
        judge(r, &set);
        print_row(r);
        for (size_t p = 0; p < peer_count; ++p) {
#if defined(SPX_BENCH_HAVE_FCL)
            const bench_sweep_peer* peer = &((const bench_sweep_peer*)peers)[p];
            r = &rows[n++];
            *r = (toi_row){ .f = (family)f, .engine = peer->engine, .ok = true };
            void* prepared = peer->prepare(set.a, set.va, set.b, set.vb, CASES, TMAX);
            if (!prepared) {
                fprintf(stderr, "sepax bench: toi: %s: out of memory\n", peer->engine);
                r->ok = false, ++failures;
                continue;
            }
            for (int k = 0; k < o->reps; ++k) {
                uint64_t t0 = bench_now_ns();
                peer->run(prepared, CASES, times);
                r->ns[k] = (double)(bench_now_ns() - t0) / CASES;
            }
            peer->release(prepared);
            r->ns_median = bench_median(r->ns, (size_t)o->reps);
            judge(r, &set);
            print_row(r);
#endif
        }
        double off = 0.0;
        for (int k = 0; k < CASES; ++k) off = fmax(off, fabs(set.exact[k] - set.design[k]));
        printf("  (%s: t* on the float inputs differs from the design's gap / speed by %.2g s at most)\n",
               family_names[f], off);
        fflush(stdout);
    }
    (void)peers;
    return bench_write_files(o, failures ? EXIT_FAILED : EXIT_DONE, write_csv, write_json, rows, n);
}
