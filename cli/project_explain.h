#ifndef PROJECT_EXPLAIN_H
#define PROJECT_EXPLAIN_H
/* project_explain: `capplan project --explain GROUP`: a group's year-1
 * need in parts (stayers, leavers, newcomers with the ramp, intensity, pool
 * share, buffer share, and a stated need when members stated one: issue
 * 28), each naming the people it comes from, the parts summing to the need
 * shown. Prints only. */

#include <stdio.h>

#include "data/plan/plan.h"
#include "data/plan/plan_stated.h"

/* Print group's explanation under params (r: projection_run's result for
 * them) to out. 0, or cli_error's status (message on stderr) when there is
 * no such group. */
int project_explain_print(const Plan *p, const ProjParams *params, const ProjResult *r,
                          const PlanStated *stated, int nstated, const char *group, FILE *out);

#endif
