#ifndef PLAN_EXPLAIN_H
#define PLAN_EXPLAIN_H
/* plan_explain: one year's need of a group or of the institute in parts
 * (stayers, leavers, newcomers with the ramp, intensity, pool share,
 * buffer share, stated need) and the people each part comes from. What `capplan
 * project --explain` prints and the dashboard's Projection view draws: one
 * computation, so that the two never disagree. Reads a plan and a
 * projection result; prints nothing, allocates nothing. */

#include "data/plan/plan.h"

enum {
    PLAN_X_STAYERS,
    PLAN_X_LEAVERS,
    PLAN_X_NEWCOMERS,
    PLAN_X_INTENSITY,
    PLAN_X_POOL,
    PLAN_X_BUFFER,
    PLAN_X_STATED, /* members' stated needs beyond their expected use (issue 28) */
    PLAN_X_PARTS
};

typedef struct PlanExplain {
    int group;                  /* plan group, -1: the institute */
    int year;                   /* 1-based projected year */
    double part[PLAN_X_PARTS];  /* GPU-eq (CPUs with CPUs); they sum to need */
    double need;                /* the projection's need */
    ProjRange need_r;           /* its p10-p90 */
    double used_now;            /* mean GPU-eq used over the window before t0 (over the
                                   part of it the data covers: used_cover) */
    double used_cover;          /* that part, a share of the window (1: all of it) */
    double heads0;              /* members today */
    double arrivals, newcomers; /* people in the year (the institute: its groups'
                                   plus new_heads in newcomers) */
    double new_groups;          /* institute: use of groups that do not exist yet
                                   (in the newcomers part), else 0 */
    double ramp;                /* measured newcomers' first-year ramp */
    double intensity_rate;      /* a share a year */
    double buffer_rate;         /* a share of expected use + pool */
    double pool_shared;         /* institute: sum of groups' pools - the shared pool */
    double heads_t0;            /* members still there at the start (roster end after it):
                                   the heads newcomers keep, times the growth */
    double maturation;          /* the measured maturation of the newly arrived (rate x) */
} PlanExplain;

/* The labels of the parts ("stayers", ..., "stated need"). Static. */
extern const char *const plan_explain_part_names[PLAN_X_PARTS];

/* Fill ex for group g (-1: the institute) and year y (1..r->nyears) under
 * params, r being projection_run's result for them. 0, -1 when g or y is
 * out of range. */
int plan_explain(const Plan *p, const ProjParams *params, const ProjResult *r, int g, int y,
                 PlanExplain *ex);

/* The model users (indices into Plan.proj_user_name) of group g (-1:
 * every group): today's members, all of them, heads0 of them (leaving 0),
 * or those whose known leave date (roster end, else planned end, issue 28)
 * falls before the end of year y, before year 1 included (leaving 1; those
 * with no known date, who leave by the group's churn, are not listed), in
 * the model's order: up to max into idx; returns
 * how many there are in all (may exceed max). */
int plan_explain_people(const Plan *p, int g, int y, int leaving, int *idx, int max);

/* The model users of group g (-1: every group) who arrived in the last
 * DEM_MATURE_MONTHS months: their rate is their own x the measured
 * maturation. Up to max into idx; returns how many in all. */
int plan_explain_matured(const Plan *p, int g, int *idx, int max);

/* When model user i leaves, for a name in a list: " (leaves 2027-03-31)",
 * " (left 2026-10-31, before year 1)", or "" when their roster end is past
 * year y (or none). Into buf of n bytes (always terminated). */
void plan_explain_leave_text(const Plan *p, int i, int y, char *buf, size_t n);

#endif
