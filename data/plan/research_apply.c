#include "data/plan/research_apply.h"

#include <stdio.h>
#include <string.h>

#include "core/projection.h"
#include "data/plan/plan.h"
#include "data/plan/research_run.h"
#include "data/store/store_plan.h"

/* The planner's groups with students of cluster c, and how many in each. */
static void cluster_groups(const Research *r, const Plan *p, int c, ResearchApply *out)
{
    for (int i = 0; i < r->nrows; i++) {
        if (r->rows[i].cluster != c || plan_group_index(p, r->rows[i].group) < 0)
            continue;
        int g = 0;
        while (g < out->ngroups && strcmp(out->groups[g], r->rows[i].group) != 0)
            g++;
        if (g == out->ngroups) {
            if (g == RESEARCH_APPLY_MAX_GROUPS)
                continue;
            snprintf(out->groups[g], sizeof out->groups[g], "%s", r->rows[i].group);
            out->ngroups++;
        }
        out->students[g]++;
    }
}

static int check(const Research *r, const ResearchRow *w, const char *user, const Plan *p,
                 ResearchApply *out, CpErr *err)
{
    if (!w || w->cluster < 0)
        return cp_err_set(err, "%s has no research cluster (no paper since %d naming a "
                               "research term)", user, r->opts.since);
    out->cluster = w->cluster;
    out->profile = r->cmp.usual ? r->cmp.usual[w->cluster] : -1;
    if (out->profile < 0)
        return cp_err_set(err, "research cluster R%d has no usual compute profile "
                               "(run `capplan profile`)", w->cluster + 1);
    if (out->profile >= p->measured->nprofiles)
        return cp_err_set(err, "the compute profiles changed since the research figures: "
                               "run `capplan profile` again");
    return 0;
}

int research_apply(Store *st, const Plan *p, const Research *r, const char *user,
                   const char *scenario, const char *reason, const char *who,
                   ResearchApply *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(scenario, "base") == 0)
        return cp_err_set(err, "'base' is the measured values: name a scenario to edit");
    int found = store_research_stated(st, user, &out->value, out->date, sizeof out->date,
                                      out->group, sizeof out->group, err);
    if (found < 0)
        return -1;
    if (!found)
        return cp_err_set(err, "%s has no stated full-time GPUs (capplan meetings "
                               "import-needs)", user);
    if (check(r, research_row(r, user), user, p, out, err) < 0)
        return -1;
    cluster_groups(r, p, out->cluster, out);
    snprintf(out->key, sizeof out->key, "gpus.%d", out->profile + 1);
    int e = store_plan_scenario_exists(st, scenario, err);
    if (e < 0 || (e == 0 && store_plan_scenario_new(st, scenario, NULL, who, err) < 0))
        return -1;
    out->created = e == 0;
    double measured = p->measured->gpus[out->profile];
    for (int g = 0; g < out->ngroups; g++) {
        char why[768];
        snprintf(why, sizeof why,
                 "%s%sstated by %s (%s, %s): %g GPUs full-time, applied to the %d students "
                 "of research cluster R%d (%s) in %s",
                 reason ? reason : "", reason ? "; " : "", user, out->group, out->date,
                 out->value, out->students[g], out->cluster + 1, r->cluster_name[out->cluster],
                 out->groups[g]);
        if (store_plan_param_set(st, scenario, out->key, out->groups[g], out->value, measured,
                                 plan_key_label(p, out->key), why, who, err) < 0)
            return -1;
    }
    return 0;
}

int research_apply_cluster(Store *st, const Plan *p, const Research *r, int c,
                           const char *scenario, const char *reason, const char *who,
                           ResearchApply *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(scenario, "base") == 0)
        return cp_err_set(err, "'base' is the measured values: name a scenario to edit");
    if (c < 0 || c >= r->clusters.k)
        return cp_err_set(err, "no research cluster R%d (R1..R%d)", c + 1, r->clusters.k);
    char line[512];
    if (!research_budget_text(r, c, line, sizeof line))
        return cp_err_set(err, "R%d: no one runs below their line's usual need (nothing to apply)",
                          c + 1);
    out->cluster = c;
    out->profile = -1;
    snprintf(out->key, sizeof out->key, "pool");
    for (int i = 0; i < r->nrows; i++) {
        const ResearchRow *w = &r->rows[i];
        int pg = plan_group_index(p, w->group);
        if (w->cluster != c || w->need.stake <= 0 || pg < 0)
            continue;
        int g = 0;
        while (g < out->ngroups && strcmp(out->groups[g], w->group) != 0)
            g++;
        if (g == out->ngroups) {
            if (g == RESEARCH_APPLY_MAX_GROUPS)
                continue;
            snprintf(out->groups[g], sizeof out->groups[g], "%s", w->group);
            out->measured[g] = p->measured->pool[pg];
            out->ngroups++;
        }
        out->students[g]++;
        out->add[g] += w->need.stake;
    }
    int e = store_plan_scenario_exists(st, scenario, err);
    if (e < 0 || (e == 0 && store_plan_scenario_new(st, scenario, NULL, who, err) < 0))
        return -1;
    out->created = e == 0;
    for (int g = 0; g < out->ngroups; g++) {
        char why[1024];
        snprintf(why, sizeof why, "%s%s%s; %d of them in %s: +%.2f GPU-eq", reason ? reason : "",
                 reason ? "; " : "", line, out->students[g], out->groups[g], out->add[g]);
        if (store_plan_param_set(st, scenario, out->key, out->groups[g],
                                 out->measured[g] + out->add[g], out->measured[g], NULL, why, who,
                                 err) < 0)
            return -1;
    }
    return 0;
}
