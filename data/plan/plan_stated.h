#ifndef PLAN_STATED_H
#define PLAN_STATED_H
/* plan_stated: the roster's stated needs (table stated_needs, what members
 * said in the planning meetings) feeding the projection (issue 28): each
 * member's latest stated GPUs full-time known at the projection's start,
 * a named part of their group's need (core/projection.h "stated"). */

#include "data/plan/plan.h"
#include "data/store/store.h"

typedef struct PlanStated {
    char *user, *group, *date; /* owned */
    double gpus;               /* stated GPUs full-time (1 GPU = 1 GPU-eq) */
    int group_idx;             /* plan group */
    int proj_user;             /* model user, -1: no use in the window */
} PlanStated;

/* The latest stated need with a GPU figure of every (user, group) dated
 * before the projection's start (p->win_end: what was known then), in a
 * group of the plan; none for a CPU log. *out (caller frees with
 * plan_stated_free) may be NULL when *n is 0. 0, -1 with err. */
int plan_stated_load(Store *st, const Plan *p, PlanStated **out, int *n, CpErr *err);
void plan_stated_free(PlanStated *v, int n);
/* Need s's part of year y's need under params (core/projection.h
 * "stated"): max(0, gpus x share of the year present - expected use); all
 * of it for someone without use in the window. *use, *pres: the member's
 * expected use and share present (0 and 1 for such a one). */
double plan_stated_part(const Plan *p, const ProjParams *params, const PlanStated *s, int y,
                        double *use, double *pres);
/* Loads them into p->model (projection_set_stated). 0, -1 with err. */
int plan_stated_apply(Store *st, Plan *p, CpErr *err);

#endif
