#ifndef RESEARCH_APPLY_H
#define RESEARCH_APPLY_H
/* research_apply: a stated need applied to a research cluster's students
 * (issue 18). What USER said they need full-time (their latest stated
 * GPUs) becomes, in a scenario, the need of their research cluster's
 * usual compute profile in every group that has students of that cluster:
 * gpus.N per group, one edit each with its reason (who said it, when, the
 * cluster and how many of its students the group has), each undone by
 * `capplan scenario undo`. The meetings' apply does the same for the
 * speaker's own compute profile in their own group. */

#include "core/cp.h"

typedef struct Store Store;
typedef struct Plan Plan;
typedef struct Research Research;

#define RESEARCH_APPLY_MAX_GROUPS 64

typedef struct ResearchApply {
    double value;             /* the stated full-time GPUs */
    char date[16], group[128];/* of the statement, and the speaker's group */
    int cluster, profile;     /* 0-based: the research cluster, its usual profile */
    char key[32];             /* gpus.N */
    int ngroups;              /* groups edited */
    char groups[RESEARCH_APPLY_MAX_GROUPS][128];
    int students[RESEARCH_APPLY_MAX_GROUPS]; /* the cluster's students in each
                                                (research_apply_cluster: flagged) */
    double add[RESEARCH_APPLY_MAX_GROUPS];   /* research_apply_cluster: GPU-eq added */
    double measured[RESEARCH_APPLY_MAX_GROUPS]; /* research_apply_cluster: the group's pool */
    int created;              /* the scenario was created for it */
} ResearchApply;

/* Apply user's latest stated GPUs to their research cluster (r, built on
 * st) in scenario (created when absent; "base" refused). The profile
 * numbering is the latest `capplan profile` run's, which p reuses. -1
 * with err when user has no stated GPUs, no research cluster, or the
 * cluster no usual profile. */
int research_apply(Store *st, const Plan *p, const Research *r, const char *user,
                   const char *scenario, const char *reason, const char *who,
                   ResearchApply *out, CpErr *err);

/* A research cluster's budget figure as a what-if (issue 32): each group
 * with people of cluster c (0-based) whose line implies more than their
 * jobs show gets, in scenario, its pool (GPU-eq, `pool`) raised by their
 * GPU-eq at stake, one edit each with its reason (the cluster's budget
 * line), each undone by `capplan scenario undo`. The pool takes the
 * group's memory class mix: the class of the figure is in the reason, not
 * in the projection. Nothing is applied unless this is called. -1 with
 * err when c is no cluster or no one in it is flagged. */
int research_apply_cluster(Store *st, const Plan *p, const Research *r, int c,
                           const char *scenario, const char *reason, const char *who,
                           ResearchApply *out, CpErr *err);

#endif
