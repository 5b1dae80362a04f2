/* plan_scen: a scenario's stored edits applied to the measured parameters,
 * and the backtest (data/plan/plan.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"
#include "core/civil.h"
#include "data/plan/plan_int.h"

/* ---- scenario edits ---- */

const char *plan_key_label(const Plan *p, const char *key)
{
    const char *num = strncmp(key, "gpus.", 5) == 0 ? key + 5
                      : strncmp(key, "mem.", 4) == 0 ? key + 4
                                                      : NULL;
    if (!num)
        return NULL;
    int i = plan_profile_index(p, num);
    return i >= 0 && num[0] >= '0' && num[0] <= '9' ? p->fit.profiles[i].name : NULL;
}

/* The profile key aimed at the profile generated as label: "gpus.3" stays
 * when profile 3 still has that name, else follows the name. 0 when the
 * profile is gone. */
static int follow_label(const Plan *p, const char *key, const char *label, char *out, size_t n)
{
    snprintf(out, n, "%s", key);
    if (!label || !plan_key_label(p, key))
        return 1;
    if (strcmp(plan_key_label(p, key), label) == 0)
        return 1;
    for (int i = 0; i < p->fit.k; i++) {
        if (strcmp(p->fit.profiles[i].name, label) == 0) {
            snprintf(out, n, "%.*s%d", (int)(strchr(key, '.') - key + 1), key, i + 1);
            return 1;
        }
    }
    return 0;
}

int plan_apply(const Plan *p, ProjParams *params, const char *key, const char *group,
               const char *label, double value, CpErr *err)
{
    char k[64];
    int g = -1;
    if (policy_key_known(key)) /* policy.*, energy.*: read by core/policy, not the projection */
        return policy_param_set(NULL, key, value, err) < 0 ? -1 : 1;
    if (group && group[0]) {
        g = plan_group_index(p, group);
        if (g < 0)
            return 0;
    }
    if (!follow_label(p, key, label, k, sizeof k))
        return 0;
    if (strncmp(k, "gpus.", 5) == 0 || strncmp(k, "mem.", 4) == 0) {
        int n = atoi(strchr(k, '.') + 1);
        if (n < 1 || n > p->fit.k)
            return 0;
    }
    return projection_param_set(p->model, params, k, g, value, err) < 0 ? -1 : 1;
}

int plan_params(Store *st, const Plan *p, const char *scenario, ProjParams **out, int *skipped,
                CpErr *err)
{
    *out = projection_params_copy(p->measured);
    if (skipped)
        *skipped = 0;
    if (!scenario || strcmp(scenario, "base") == 0)
        return 0;
    StorePlanParam *pp;
    size_t n;
    if (store_plan_params(st, scenario, &pp, &n, err) < 0)
        goto fail;
    for (size_t i = 0; i < n; i++) { /* ordered by key, then group: '' (all) first */
        int rc = plan_apply(p, *out, pp[i].key, pp[i].group, pp[i].label, pp[i].value, err);
        if (rc < 0) {
            store_plan_params_free(pp, n);
            goto fail;
        }
        if (rc == 0 && skipped)
            (*skipped)++;
    }
    store_plan_params_free(pp, n);
    return 0;
fail:
    projection_params_free(*out);
    *out = NULL;
    return -1;
}

/* ---- backtest ---- */

int plan_backtest(Store *st, const PlanOpts *o, PlanBacktest *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    if (o->cut) {
        int y, mo, d, h, mi, s;
        fields_civil_of(o->cut, &y, &mo, &d, &h, &mi, &s);
        if (d != 1 || h || mi || s)
            return cp_err_set(err, "backtest date must be the first day of a month (use is "
                                   "kept per month)");
    }
    Plan *p = xcalloc(1, sizeof *p);
    PlanCtx c;
    plan_ctx_init(&c);
    int rc = -1;
    p->roles = o->roles ? xstrdup(o->roles) : NULL;
    if (store_plan_cpu_only(st, &p->cpu, err) < 0 || plan_ctx_load(st, p, &c, err) < 0)
        goto out;
    plan_ctx_roster(&c, INT64_MAX - 1);
    c.nocache = o->cut != 0; /* one cut: not what the cache keeps */
    if (plan_hist_load(st, p, &c, INT64_MAX - 1, 0, o->cut, err) < 0)
        goto out;
    if (c.cached) { /* the cache's, handed over */
        *out = *p->bt;
        free(p->bt);
        p->bt = NULL;
        rc = 0;
        goto out;
    }
    rc = plan_hist_backtest(p, &c, o->cut, out, err);
    if (rc == 0)
        plan_cuts_save(st, p, &c); /* the cuts computed here (issue 31) */
    if (rc == 0 && c.cache_save) {
        p->bt = out;
        plan_cache_save(st, c.cache_key, p, &c, 0);
        p->bt = NULL;
    }
out:
    plan_ctx_done(&c);
    plan_free(p);
    return rc;
}
