/* sepax_bench: table and CSV writers. The CSV carries the same header as "# " lines, so a saved file
   says on its own what machine, compiler and seed produced it. */
#include "report.h"

#include <stdarg.h>
#include <string.h>

bool bench_report_open(bench_report* r, const char* csv_path, const char* save_path)
{
    memset(r, 0, sizeof *r);
    r->table = stdout;
    const char* paths[BENCH_MAX_CSV] = { csv_path, save_path };
    for (int i = 0; i < BENCH_MAX_CSV; ++i) {
        if (!paths[i]) continue;
        if (strcmp(paths[i], "-") == 0) {
            r->table = stderr;
            r->csv[r->csv_count] = stdout;
            r->csv_owned[r->csv_count++] = false;
            continue;
        }
        FILE* f = fopen(paths[i], "w");
        if (!f) {
            bench_report_close(r);
            return false;
        }
        r->csv[r->csv_count] = f;
        r->csv_owned[r->csv_count++] = true;
    }
    return true;
}

void bench_report_note(bench_report* r, const char* format, ...)
{
    char line[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    fprintf(r->table, "%s\n", line);
    const char* text = line + strspn(line, "\n"); /* the table's blank lines stay out of the CSV */
    for (int i = 0; i < r->csv_count; ++i) fprintf(r->csv[i], "# %s\n", text);
}

void bench_report_remark(bench_report* r, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    vfprintf(r->table, format, args);
    va_end(args);
    fputc('\n', r->table);
    fflush(r->table);
}

void bench_report_columns(bench_report* r)
{
    fprintf(r->table, "\n%-24s %-8s %-12s %8s %6s %10s %10s %9s %8s %8s %8s %6s\n", "query", "set", "engine", "pairs",
            "passes", "ns_median", "ns_min", "sepax/eng", "hits", "disagree", "vs_exact", "errors");
    for (int i = 0; i < r->csv_count; ++i)
        fprintf(r->csv[i], "query,set,engine,pairs,runs,passes,ns_median,ns_min,ratio_sepax_engine,hits,"
                           "disagreements,vs_exact,errors\n");
}

void bench_report_row(bench_report* r, const bench_row* row)
{
    char ratio[32] = "-", disagree[32] = "-";
    if (row->ratio >= 0.0) snprintf(ratio, sizeof ratio, "%.2f", row->ratio);
    if (row->disagreements >= 0) snprintf(disagree, sizeof disagree, "%lld", row->disagreements);
    fprintf(r->table, "%-24s %-8s %-12s %8zu %6zu %10.2f %10.2f %9s %8zu %8s %8lld %6zu\n", row->query, row->set,
            row->engine, row->pairs, row->passes, row->ns_median, row->ns_min, ratio, row->hits, disagree,
            row->vs_exact, row->errors);
    fflush(r->table);
    if (row->ratio >= 0.0) snprintf(ratio, sizeof ratio, "%.4f", row->ratio);
    else ratio[0] = '\0';
    if (row->disagreements < 0) disagree[0] = '\0';
    for (int i = 0; i < r->csv_count; ++i) {
        fprintf(r->csv[i], "%s,%s,%s,%zu,%d,%zu,%.3f,%.3f,%s,%zu,%s,%lld,%zu\n", row->query, row->set, row->engine,
                row->pairs, row->runs, row->passes, row->ns_median, row->ns_min, ratio, row->hits, disagree,
                row->vs_exact, row->errors);
        fflush(r->csv[i]);
    }
}

bool bench_report_close(bench_report* r)
{
    bool ok = true;
    for (int i = 0; i < r->csv_count; ++i) {
        if (r->csv_owned[i]) ok &= fclose(r->csv[i]) == 0;
        else ok &= fflush(r->csv[i]) == 0;
    }
    r->csv_count = 0;
    return ok;
}
