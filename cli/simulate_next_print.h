#ifndef SIMULATE_NEXT_PRINT_H
#define SIMULATE_NEXT_PRINT_H
/* simulate_next_print: what `capplan simulate` prints of next year's
 * simulation (data/plan/simulate_next): text, or JSON (schema
 * capplan.simulate_next/1). Printing only. */

#include <stdio.h>

#include "data/plan/simulate_next.h"

void simnext_text(const SimNext *nx, FILE *out);
/* One line for `project`: next year simulated on scenario (NULL: base)
 * with the effective catalog, buy nothing's p90 wait and the
 * recommendation, as `capplan simulate` and the report's first page; a
 * failure is said on the line, never fatal. Past SIMNEXT_PROJECT_MAX_JOBS
 * jobs in the last 12 months, the line names `capplan simulate` instead. */
void simnext_project_line(Store *st, const char *scenario, FILE *out);

/* Above this many jobs in the last 12 months project leaves the simulation
 * to `capplan simulate` and says so (it would cost seconds on every call;
 * 20k jobs a year: 0.2 s). */
#define SIMNEXT_PROJECT_MAX_JOBS 200000
/* 0, or -1 when it cannot be written. */
int simnext_json(const SimNext *nx, FILE *out);

#endif
