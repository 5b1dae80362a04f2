#ifndef PROJECT_JSON_H
#define PROJECT_JSON_H
/* project_json: what one projection shows (the View that cli/cmd_project.c
 * fills) and `capplan project --json`, its JSON document (schema
 * "project", docs/planning.md lists the fields). Prints only. */

#include <stdio.h>

#include "data/plan/plan.h"
#include "data/plan/plan_stated.h"
#include "data/store/store_plan.h"

/* What one projection shows: the plan, the scenario's parameters, the
 * measured ones, the result. */
typedef struct View {
    const Plan *p;
    const char *scenario;
    ProjParams *params;
    ProjResult *r;
    StorePlanParam *edits;
    size_t nedits;
    int skipped;
    PlanStated *stated; /* the stated needs known at t0 (issue 28) */
    int nstated;
} View;

/* The unit of every projected figure: "GPU-eq" (reference model named
 * in the header) or "CPUs". Static. */
const char *project_unit_of(const Plan *p);

/* Print v as `capplan project --json`'s document to out. */
void project_print_json(const View *v, FILE *out);

#endif
