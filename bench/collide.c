/* sepax_bench collide: ns a query for sepax's collision queries (collide.h), and for FCL, ODE and
   Bullet on the same pairs when built with -DSEPAX_BENCH_PEERS=ON. See bench/README.md.

   sepax_bench collide [-q=<query,...>] [-s=hot|streamed|all] [--runs=<n>] [-n=<streamed pairs>]
                       [--hot=<pairs>] [--seed=<n>] [--csv=<file>|-] [--save] [--machine=<name>] ...

   Exit status: 0; 2 for a bad option; 1 when a file cannot be written; 3 when a sepax call failed
   on the generated (valid) input or a set could not be built, so a smoke run catches broken queries. */
#define _POSIX_C_SOURCE 200112L
#include "kernels.h"
#include "machine.h"
#include "pairs.h"
#include "peers/peers.h"
#include "report.h"
#include "suite.h"
#include "timer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SEED 0x5E9A5EEDu

typedef struct options {
    const char* filter; /* comma-separated substrings of query names; NULL: all */
    bench_common common;
    bench_output output;
    int runs;
    size_t hot_pairs;
    size_t streamed_pairs;
    bool hot, streamed;
    uint64_t seed;
    bool peers;
    double min_ms; /* a timed run repeats passes over a set until it lasts this long */
    int show;      /* disagreeing pairs to print a row */
} options;

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sepax_bench collide [options]\n"
            "  -q=<q1,q2,...>     only queries whose name contains one of these (see -l); name$: that name alone\n"
            "  -n=<pairs>         pairs in the streamed set (default 1048576)\n"
            "  --hot=<pairs>      pairs in the hot set (default 256)\n"
            "  -s=<set>           hot, streamed or all (default all); --hot-only, --streamed-only\n"
            "  --seed=<n>         seed of the pair sets (default 0x%X)\n"
            "  --min-ms=<ms>      shortest timed run; hot sets repeat passes to fill it (default 20)\n"
            "  --show=<k>         print the first k pairs of each row that disagree (or differ from\n"
            "                     the exact answer), with the pieces at full float precision\n"
            "  -l, --list         list queries and engines, then exit\n"
            "  (default 7 runs; --quick: the hot sets, 3 runs)\n",
            DEFAULT_SEED);
    bench_common_usage(f);
    bench_output_usage(f, "collide-");
}

/* "-q=x" / "--seed x": the value after '=' or, for long options, the next argument. */
static const char* option_value(int argc, char** argv, int* i, const char* name)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) != 0) return NULL;
    if (argv[*i][len] == '=') return argv[*i] + len + 1;
    if (argv[*i][len] == '\0' && *i + 1 < argc) return argv[++*i];
    return NULL;
}

static bool parse_size(const char* text, size_t* out)
{
    char* end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || end == text || *end) return false;
    *out = (size_t)v;
    return true;
}

static void list_queries(void)
{
    size_t nk = 0, np = 0;
    const bench_kernel* k = bench_kernels(&nk);
    const bench_peer* p = bench_peer_list(&np);
    for (size_t i = 0; i < nk; ++i)
        printf("%-20s %-12s %s set\n", k[i].query, k[i].engine, k[i].swept ? "swept" : "static");
    for (size_t i = 0; i < np; ++i) printf("%-20s %-12s %s\n", p[i].query, p[i].engine, p[i].call);
}

/* The collide suite's own options (bench_option_fn). */
static int own_option(int argc, char** argv, int* i, void* context)
{
    options* o = context;
    const char* program = argv[0];
    const char* v;
    size_t n = 0;
    if ((v = option_value(argc, argv, i, "-q")) || (v = option_value(argc, argv, i, "--query"))) o->filter = v;
    else if ((v = option_value(argc, argv, i, "-n")) || (v = option_value(argc, argv, i, "--streamed"))) {
        if (!parse_size(v, &o->streamed_pairs) || o->streamed_pairs < 1)
            return fprintf(stderr, "%s: -n wants a pair count\n", program), -1;
    } else if ((v = option_value(argc, argv, i, "--hot"))) {
        if (!parse_size(v, &o->hot_pairs) || o->hot_pairs < 1)
            return fprintf(stderr, "%s: --hot wants a pair count\n", program), -1;
    } else if ((v = option_value(argc, argv, i, "-s")) || (v = option_value(argc, argv, i, "--set"))) {
        o->hot = strcmp(v, "hot") == 0 || strcmp(v, "all") == 0 || strcmp(v, "hot,streamed") == 0;
        o->streamed = strcmp(v, "streamed") == 0 || strcmp(v, "all") == 0 || strcmp(v, "hot,streamed") == 0;
        if (!o->hot && !o->streamed) return fprintf(stderr, "%s: -s wants hot, streamed or all\n", program), -1;
    } else if (strcmp(argv[*i], "--hot-only") == 0) o->streamed = false;
    else if (strcmp(argv[*i], "--streamed-only") == 0) o->hot = false;
    else if ((v = option_value(argc, argv, i, "--seed"))) {
        if (!parse_size(v, &n)) return fprintf(stderr, "%s: --seed wants a number\n", program), -1;
        o->seed = n;
    } else if ((v = option_value(argc, argv, i, "--min-ms"))) {
        o->min_ms = atof(v);
        if (!(o->min_ms >= 0.0)) return fprintf(stderr, "%s: --min-ms wants milliseconds\n", program), -1;
    } else if ((v = option_value(argc, argv, i, "--show"))) {
        if (!parse_size(v, &n)) return fprintf(stderr, "%s: --show wants a count\n", program), -1;
        o->show = (int)n;
    } else if (strcmp(argv[*i], "-l") == 0 || strcmp(argv[*i], "--list") == 0) {
        list_queries();
        return BENCH_OPTION_DONE;
    } else return 0;
    return 1;
}

static int parse_options(int argc, char** argv, options* o)
{
    *o = (options){ .common = BENCH_COMMON_DEFAULTS,
                    .output = BENCH_OUTPUT_DEFAULTS,
                    .hot_pairs = 256,
                    .streamed_pairs = 1u << 20,
                    .hot = true,
                    .streamed = true,
                    .seed = DEFAULT_SEED,
                    .min_ms = 20.0 };
    int status = bench_parse_options(argc, argv, &o->common, &o->output, 1000, own_option, o, usage);
    if (status >= 0) return status;
    /* --quick: the hot sets, 3 runs (a streamed set of 1M pairs takes seconds to build) */
    if (o->common.quick) o->streamed = false;
    o->runs = o->common.runs ? o->common.runs : o->common.quick ? 3 : 7;
    o->peers = o->common.peers;
    if (!o->hot && !o->streamed)
        return fprintf(stderr, "%s: --hot-only and --streamed-only leave nothing to run\n", argv[0]), 2;
    return -1;
}

static bool selected(const options* o, const char* query)
{
    if (!o->filter || !o->filter[0]) return true;
    const char* token = o->filter;
    while (*token) {
        size_t len = strcspn(token, ",");
        /* "name$": that query alone, not the longer names that contain it */
        if (len > 1 && token[len - 1] == '$') {
            if (strlen(query) == len - 1 && strncmp(query, token, len - 1) == 0) return true;
        } else {
            for (const char* q = query; len && strlen(q) >= len; ++q)
                if (strncmp(q, token, len) == 0) return true;
        }
        token += len + (token[len] == ',');
    }
    return false;
}

/* ---- what a pass runs ------------------------------------------------------------------------ */

typedef struct kernel_context {
    const bench_kernel* kernel;
    const bench_pairs* set;
} kernel_context;

static size_t kernel_pass(void* context, uint8_t* out)
{
    kernel_context* c = context;
    return c->kernel->run(c->set, out);
}

typedef struct peer_context {
    const bench_peer* peer;
    void* prepared;
    size_t count;
} peer_context;

static size_t peer_pass(void* context, uint8_t* out)
{
    peer_context* c = context;
    c->peer->run(c->prepared, c->count, out);
    return 0;
}

/* ---- one set: every selected query on it ----------------------------------------------------- */

/* What the summary line and the exit status report. */
typedef struct totals {
    int rows;
    size_t sepax_errors;
    long long sepax_disagreements; /* between two sepax queries that must agree */
    long long peer_disagreements;
    long long sepax_vs_exact; /* sepax answers that differ from the exact one */
    int failures;             /* sets or inputs that could not be built */
} totals;

/* sepax's own answers on the current set, kept for the rows that are compared with them. */
typedef struct answer {
    const char* query;
    uint8_t* out;
    double ns;
} answer;

#define MAX_ANSWERS 8

typedef struct set_run {
    const options* o;
    totals* totals;
    bench_report* report;
    bench_pairs* set;
    const char* set_name;
    answer answers[MAX_ANSWERS];
    int answer_count;
} set_run;

static const answer* find_answer(const set_run* s, const char* query)
{
    for (int i = 0; query && i < s->answer_count; ++i)
        if (strcmp(s->answers[i].query, query) == 0) return &s->answers[i];
    return NULL;
}

static void print_vec(char* buf, size_t size, const char* name, spx_vec3 v)
{
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, " %s=(%.9g %.9g %.9g)", name, v.x, v.y, v.z);
}

static void print_piece(set_run* s, const char* label, const spx_obb* box, const spx_triangle* tri)
{
    char line[512];
    snprintf(line, sizeof line, "      %s:", label);
    if (box) {
        print_vec(line, sizeof line, "c", box->center);
        print_vec(line, sizeof line, "h", box->half_extents);
        for (int i = 0; i < 3; ++i) print_vec(line, sizeof line, i == 0 ? "axes" : "", box->rotation.col[i]);
    } else {
        for (int k = 0; k < 3; ++k) print_vec(line, sizeof line, "v", tri->v[k]);
    }
    bench_report_remark(s->report, "%s", line);
}

static void print_pair(set_run* s, size_t i)
{
    const bench_pairs* set = s->set;
    print_piece(s, "A", set->box_a ? &set->box_a[i] : NULL, set->tri_a ? &set->tri_a[i] : NULL);
    print_piece(s, "B", set->box_b ? &set->box_b[i] : NULL, set->tri_b ? &set->tri_b[i] : NULL);
    if (set->swept) {
        char line[256] = "     ";
        print_vec(line, sizeof line, "va", set->vel_a[i]);
        print_vec(line, sizeof line, "vb", set->vel_b[i]);
        bench_report_remark(s->report, "%s tmax=%.9g", line, set->tmax);
    }
}

static long long count_disagreements(set_run* s, const uint8_t* out, const answer* ref, const char* query,
                                     const char* engine)
{
    if (!ref) return -1;
    long long n = 0;
    const bench_pairs* set = s->set;
    for (size_t i = 0; i < set->count; ++i) {
        if ((out[i] != 0) == (ref->out[i] != 0)) continue;
        if (n++ < s->o->show) {
            bench_report_remark(s->report, "    %s pair %zu: %s %s says %u, sepax %s says %u (built at %s-1=%.3g)",
                                s->set_name, i, query, engine, (unsigned)out[i], ref->query, (unsigned)ref->out[i],
                                set->swept ? "g" : "f", (double)set->built[i]);
            print_pair(s, i);
        }
    }
    return n;
}

/* Answers that differ from the exact one on the same floats. Only pairs within a tolerance of
   touching (about 1e-6 of the pieces' size) may differ honestly. */
static long long count_vs_exact(set_run* s, const uint8_t* out, const char* query, const char* engine)
{
    long long n = 0;
    const bench_pairs* set = s->set;
    for (size_t i = 0; i < set->count; ++i) {
        if ((out[i] != 0) == (set->exact[i] != 0)) continue;
        if (n++ < s->o->show) {
            bench_report_remark(s->report, "    %s pair %zu: %s %s says %u, exact says %u (built at %s-1=%.3g)",
                                s->set_name, i, query, engine, (unsigned)out[i], (unsigned)set->exact[i],
                                set->swept ? "g" : "f", (double)set->built[i]);
            print_pair(s, i);
        }
    }
    return n;
}

static size_t count_hits(const uint8_t* out, size_t count)
{
    size_t hits = 0;
    for (size_t i = 0; i < count; ++i) hits += out[i] != 0;
    return hits;
}

static void emit(set_run* s, const char* query, const char* engine, const bench_timing* t, const uint8_t* out,
                 const answer* ratio_to, const answer* compare_to, size_t errors)
{
    bench_row row = {
        .query = query,
        .set = s->set_name,
        .engine = engine,
        .pairs = s->set->count,
        .runs = s->o->runs,
        .passes = t->passes,
        .ns_median = t->ns_median,
        .ns_min = t->ns_min,
        .ratio = -1.0,
        .hits = count_hits(out, s->set->count),
        .errors = errors,
    };
    if (ratio_to && t->ns_median > 0.0) row.ratio = ratio_to->ns / t->ns_median;
    row.disagreements = count_disagreements(s, out, compare_to, query, engine);
    row.vs_exact = count_vs_exact(s, out, query, engine);
    bench_report_row(s->report, &row);
    bool sepax = strncmp(engine, "sepax", 5) == 0;
    s->totals->rows++;
    s->totals->sepax_errors += sepax ? errors : 0;
    if (row.disagreements > 0)
        *(sepax ? &s->totals->sepax_disagreements : &s->totals->peer_disagreements) += row.disagreements;
    s->totals->sepax_vs_exact += sepax ? row.vs_exact : 0;
}

static void run_kernel(set_run* s, const bench_kernel* k)
{
    bench_pairs* set = s->set;
    bool primary = strcmp(k->engine, "sepax") == 0;
    uint8_t* out = calloc(set->count, 1);
    if (!out) {
        bench_report_remark(s->report, "  %s %s: out of memory", k->query, k->engine);
        s->totals->failures++;
        return;
    }
    if (k->run == NULL ||
        (strcmp(k->engine, "sepax") != 0 && set->kind == BENCH_OBB_OBB && !bench_pairs_make_soa(set))) {
        bench_report_remark(s->report,
                            "  %s %s: could not build its input (spx_obb_soa_set_box or spx_obb_check failed)",
                            k->query, k->engine);
        s->totals->failures++;
        free(out);
        return;
    }
    kernel_context context = { k, set };
    bench_timing t = bench_measure(s->o->runs, s->o->min_ms, set->count, kernel_pass, &context, out);
    /* The single sepax call's answers stay for the rows compared with them. */
    const answer* own = find_answer(s, k->query);
    bool keep = primary && !own && s->answer_count < MAX_ANSWERS;
    if (keep) {
        s->answers[s->answer_count] = (answer){ k->query, out, t.ns_median };
        own = &s->answers[s->answer_count++];
    }
    emit(s, k->query, k->engine, &t, out, own, find_answer(s, k->reference), t.errors);
    if (!keep) free(out);
}

/* query: the name of the sepax row the peer is compared with. */
static void run_peer(set_run* s, const bench_peer* p, const char* query)
{
    bench_pairs* set = s->set;
    uint8_t* out = calloc(set->count, 1);
    void* prepared = !out                         ? NULL
                     : set->kind == BENCH_OBB_TRI ? p->prepare_triangle(set->box_a, set->tri_b, set->count)
                                                  : p->prepare(set->box_a, set->box_b, set->count);
    if (!prepared) {
        bench_report_remark(s->report, "  %s %s: out of memory", p->query, p->engine);
        free(out);
        return;
    }
    peer_context context = { p, prepared, set->count };
    bench_timing t = bench_measure(s->o->runs, s->o->min_ms, set->count, peer_pass, &context, out);
    p->release(prepared);
    const answer* own = find_answer(s, query);
    emit(s, query, p->engine, &t, out, own, own, 0);
    free(out);
}

/* Peers answer the box-box questions by name; on the resting set the same question carries the
   suffix _resting, so that its rows do not read as the random set's. */
static bool peer_answers(const bench_peer* p, const bench_kernel* k)
{
    size_t len = strlen(p->query);
    if (strncmp(p->query, k->query, len) != 0) return false;
    return k->query[len] == '\0' || (k->kind == BENCH_OBB_OBB_RESTING && strcmp(k->query + len, "_resting") == 0);
}

static bool group_selected(const options* o, bench_pair_kind kind, bool swept)
{
    size_t nk = 0;
    const bench_kernel* k = bench_kernels(&nk);
    for (size_t i = 0; i < nk; ++i)
        if (k[i].kind == kind && k[i].swept == swept && selected(o, k[i].query)) return true;
    return false;
}

static void run_set(const options* o, bench_report* report, totals* sum, bench_pair_kind kind, bool swept, bool hot)
{
    size_t count = hot ? o->hot_pairs : o->streamed_pairs;
    bench_pairs set;
    const char* set_name = hot ? "hot" : "streamed";
    if (!bench_pairs_make(&set, kind, swept, count, o->seed)) {
        bench_report_remark(report, "# %s %s set of %zu pairs: out of memory or a piece rejected",
                            bench_pair_kind_name(kind), set_name, count);
        sum->failures++;
        return;
    }
    size_t bytes = bench_pairs_bytes(&set);
    bool mib = bytes >= 1024 * 1024;
    bench_report_remark(report,
                        "# %s%s %s: %zu pairs, %.1f %s, %zu built to %s (%.1f%%; %zu exactly on the stored floats), "
                        "set seed 0x%016" PRIx64,
                        swept ? "sweep " : "", bench_pair_kind_name(kind), set_name, set.count,
                        (double)bytes / (mib ? 1024.0 * 1024.0 : 1024.0), mib ? "MiB" : "KiB", set.built_hits,
                        swept ? "hit within tmax" : "overlap", 100.0 * (double)set.built_hits / (double)set.count,
                        set.exact_hits, set.seed);

    set_run s = { .o = o, .totals = sum, .report = report, .set = &set, .set_name = set_name };
    size_t nk = 0, np = 0;
    const bench_kernel* kernels = bench_kernels(&nk);
    const bench_peer* peers = o->peers ? bench_peer_list(&np) : NULL;
    for (size_t i = 0; i < nk; ++i) {
        const bench_kernel* k = &kernels[i];
        if (k->kind != kind || k->swept != swept || !selected(o, k->query)) continue;
        run_kernel(&s, k);
        /* Peers follow the last sepax row of their query. */
        bool last = i + 1 == nk || strcmp(kernels[i + 1].query, k->query) != 0;
        bool boxes = kind == BENCH_OBB_OBB || kind == BENCH_OBB_OBB_RESTING; /* peers take box pairs */
        for (size_t j = 0; last && !swept && j < np; ++j)
            if (peer_answers(&peers[j], k) && (kind == BENCH_OBB_TRI ? peers[j].prepare_triangle != NULL : boxes))
                run_peer(&s, &peers[j], k->query);
    }
    for (int i = 0; i < s.answer_count; ++i) free(s.answers[i].out);
    bench_pairs_free(&set);
}

int bench_collide(int argc, char** argv)
{
    options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0) return status;
    const char* program = argv[0];

    bench_machine m;
    bench_report report;
    char save_path[1200];
    if (bench_output_open(&o.output, program, "collide-", &m, &report, save_path, sizeof save_path) != 0) return 1;
    bench_report_header(&report, program, &m, "", &o.output);
    bench_report_note(&report, "peers: %s%s", bench_peer_versions(), o.peers ? "" : " (skipped: --no-peers)");
    bench_report_note(&report,
                      "seed: 0x%" PRIX64 "  runs: %d (median and min reported)  min run: %.1f ms  hot: %zu pairs  "
                      "streamed: %zu pairs  sweep tmax: %.6g s",
                      o.seed, o.runs, o.min_ms, o.hot_pairs, o.streamed_pairs, (double)BENCH_TMAX);
    if (m.llc_bytes) {
        /* The smallest streamed set holds two triangles a pair. */
        double smallest = (double)o.streamed_pairs * 2.0 * sizeof(spx_triangle);
        bench_report_note(&report, "last-level cache: %.1f MiB%s", (double)m.llc_bytes / (1024.0 * 1024.0),
                          o.streamed && smallest < 4.0 * (double)m.llc_bytes
                              ? "  (streamed sets are not 4x larger than that: raise -n to measure memory)"
                              : "");
    }
    if (o.filter) bench_report_note(&report, "filter: -q=%s", o.filter);
    bench_report_columns(&report);

    static const struct {
        bench_pair_kind kind;
        bool swept;
    } groups[] = {
        { BENCH_OBB_OBB, false }, { BENCH_OBB_OBB_RESTING, false }, { BENCH_OBB_TRI, false }, { BENCH_TRI_TRI, false },
        { BENCH_OBB_OBB, true },  { BENCH_OBB_TRI, true },          { BENCH_TRI_TRI, true },
    };
    totals sum = { 0 };
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
        if (!group_selected(&o, groups[g].kind, groups[g].swept)) continue;
        if (o.hot) run_set(&o, &report, &sum, groups[g].kind, groups[g].swept, true);
        if (o.streamed) run_set(&o, &report, &sum, groups[g].kind, groups[g].swept, false);
    }
    bench_report_remark(&report,
                        "\n%d rows; sepax calls failed: %zu; disagreements between sepax queries: %lld, "
                        "with peers: %lld; sepax answers unlike the exact one: %lld; sets or inputs not built: %d",
                        sum.rows, sum.sepax_errors, sum.sepax_disagreements, sum.peer_disagreements, sum.sepax_vs_exact,
                        sum.failures);
    return bench_output_close(&report, &o.output, program, save_path, sum.sepax_errors || sum.failures ? 3 : 0);
}
