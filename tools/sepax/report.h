/* sepax (the program): the summary `sepax run` prints at the end, and the trajectory CSV. */
#ifndef SEPAX_TOOL_REPORT_H
#define SEPAX_TOOL_REPORT_H

#include "measure.h"

#include <stdio.h>

/// What a run did, for its summary.
typedef struct run_figures {
    uint32_t steps;
    float dt;                   /* s a step */
    double ms_median, ms_mean;  /* wall time of spx_world_step */
    double total_s;             /* wall time of all steps */
    uint32_t points, manifolds; /* contact points and manifolds of the last step (spx_world_get_stats) */
    double mean_points;         /* contact points a step, mean over the run */
    uint32_t peak_points;
    double broad_ms, narrow_ms, solver_ms, island_ms; /* mean a step */
    measure_result end;                               /* measured after the last step, with its points */
} run_figures;

/// The one wording of contact counts that `run` and `render` both print: the solver's points and
/// manifolds (spx_step_stats, which count every point within the speculative distance, gaps
/// included) and the points of shapes touching, no more than MEASURE_TOUCH_GAP apart, found with
/// the public queries (measure_result.touching_points).
void report_contacts(char* out, size_t size, uint32_t solver_points, uint32_t manifolds, uint32_t touching_points);

/// The summary: the scene, steps, time a step, contacts, sleeping, energy, penetration, fallen.
void report_summary(FILE* f, const scene* s, const run_figures* r);

/// The CSV header, then one row a moving (dynamic or kinematic) body at `time`. false on a write error.
/// exact: every float with 9 significant digits and the time with 17, which read back (strtof,
/// strtod) to the same bits; otherwise 6 or 7 digits, for reading by eye.
bool report_csv_header(FILE* f);
bool report_csv_rows(FILE* f, const scene* s, double time, bool exact);

#endif
