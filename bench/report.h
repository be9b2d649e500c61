/* sepax_bench: the report, as a table for people and as CSV for tools. */
#ifndef SPX_BENCH_REPORT_H
#define SPX_BENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// One measured (query, set, engine).
typedef struct bench_row {
    const char* query;
    const char* set; /* "hot" or "streamed" */
    const char* engine;
    size_t pairs;
    int runs;
    size_t passes;    /* full passes over the set in one timed run */
    double ns_median; /* ns a query, median over the runs */
    double ns_min;
    double ratio;            /* sepax ns / this engine's ns (< 1: sepax faster); < 0 unknown */
    size_t hits;             /* pairs answered overlap / hit / at least one point */
    long long disagreements; /* yes/no answers that differ from the reference; < 0 none to compare */
    long long vs_exact;      /* yes/no answers that differ from the exact one (double, on the same floats) */
    size_t errors;           /* calls that did not return SPX_OK */
} bench_row;

#define BENCH_MAX_CSV 2

typedef struct bench_report {
    FILE* table; /* stdout, or stderr when the CSV goes to stdout */
    FILE* csv[BENCH_MAX_CSV];
    bool csv_owned[BENCH_MAX_CSV];
    int csv_count;
} bench_report;

/// Opens the sinks: `csv_path` ("-" for stdout, NULL for none) and `save_path` (NULL for none).
/// False when a file cannot be opened (errno tells why).
bool bench_report_open(bench_report* r, const char* csv_path, const char* save_path);

/// A line of the header: plain in the table, "# " in front in CSV (without the line's leading
/// newlines, which space out the table).
void bench_report_note(bench_report* r, const char* format, ...);

/// Column names: once, after the header.
void bench_report_columns(bench_report* r);

void bench_report_row(bench_report* r, const bench_row* row);

/// A line for the table only (progress, remarks about a set).
void bench_report_remark(bench_report* r, const char* format, ...);

/// Closes the files it opened (flushes stdout). False if writing one failed.
bool bench_report_close(bench_report* r);

#endif
