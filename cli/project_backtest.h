#ifndef PROJECT_BACKTEST_H
#define PROJECT_BACKTEST_H
/* project_backtest: the rolling backtest of `capplan project --backtest`
 * (data/plan/plan.h plan_backtest) printed: a table of every cut (per-group WAPE
 * of expected use and of naive, the institute total of both and their
 * errors), the means, the bias and the p10/p50/p90 of actual / forecast;
 * or, with json, every figure including each cut's per-group model, naive
 * and actual (what tests/plan_check.py recomputes). Prints only: no SQL. */

#include <stdio.h>

#include "data/plan/plan.h"

/* Print b to out as text, or as JSON when json. */
void project_backtest_print(const PlanBacktest *b, int json, FILE *out);

#endif
