#ifndef PLAN_CLI_H
#define PLAN_CLI_H
/* plan_cli: what the profile, project and scenario commands share: their
 * common options (--window, --roles, --min-jobs, --k), dates as text, CSV
 * cells safe in a spreadsheet, and who is at the keyboard. Printing only:
 * the figures come from data/plan. */

#include <stdint.h>
#include <stdio.h>

#include "data/plan/plan.h"

/* Consume argv[*i] (and its value) when it is one of the shared plan
 * options, filling o. Returns 1 consumed, 0 not a plan option, -1 bad
 * value (message printed). */
int plan_cli_option(int argc, char **argv, int *i, PlanOpts *o);

/* "YYYY-MM-DD" of t into buf. */
void plan_cli_date(int64_t t, char *buf, size_t n);
/* Parse "YYYY-MM-DD" or "YYYY-MM" (first of the month) as UTC; -1 if bad. */
int plan_cli_parse_date(const char *s, int64_t *t);

/* Write one CSV cell through reports/csvw's csvw_text: RFC 4180 quoting,
 * a cell starting with = + - @ tab CR LF after blanks neutralised with a
 * leading ', control characters as '?'. */
void plan_cli_csv_cell(FILE *out, const char *s);
void plan_cli_csv_num(FILE *out, double v);

/* $USER, else "unknown". Static storage. */
const char *plan_cli_who(void);

/* "GPU" or "CPU". */
const char *plan_cli_unit(const Plan *p);

#endif
