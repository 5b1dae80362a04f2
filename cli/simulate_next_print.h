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
 * failure is said on the line, never fatal. */
void simnext_project_line(Store *st, const char *scenario, FILE *out);
/* 0, or -1 when it cannot be written. */
int simnext_json(const SimNext *nx, FILE *out);

#endif
