/* plan_scen: a scenario's stored edits applied to the measured parameters,
 * and the backtest (data/plan.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"
#include "data/fields.h"
#include "data/plan_int.h"

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

/* Index of name in the backtest's groups, added when new. */
static int bt_group(PlanBacktest *b, StrMap *idx, const char *name)
{
    int64_t g;
    if (strmap_get(idx, name, strlen(name), &g))
        return (int)g;
    b->groups = xrealloc(b->groups, (size_t)(b->ngroups + 1) * sizeof *b->groups);
    b->g = xrealloc(b->g, (size_t)(b->ngroups + 1) * sizeof *b->g);
    b->groups[b->ngroups] = xstrdup(name);
    memset(&b->g[b->ngroups], 0, sizeof b->g[b->ngroups]);
    strmap_put(idx, name, strlen(name), b->ngroups);
    return b->ngroups++;
}

/* The model's year-1 figures and growth per group. */
static void bt_model(PlanBacktest *b, StrMap *idx, const Plan *p)
{
    ProjResult *r = projection_result_new(p->model);
    projection_run(p->model, p->measured, r);
    for (int g = 0; g < p->ngroups; g++) {
        int i = bt_group(b, idx, p->groups[g]);
        b->g[i].model_base = r->gy[(size_t)g * r->nyears].base;
        b->g[i].model_demand = r->gy[(size_t)g * r->nyears].demand;
        b->g[i].growth = p->measured->growth[g];
    }
    projection_result_free(r);
}

/* Use before and after the cut, as mean GPUs over each period. */
static int bt_usage(Store *st, PlanBacktest *b, StrMap *idx, const Plan *p, const PlanCtx *c,
                    CpErr *err)
{
    int64_t cut_m = plan_month_of(b->cut);
    StorePlanUsage *u;
    size_t n;
    if (store_plan_usage(st, plan_ym_add(cut_m, -12), plan_ym_add(cut_m, 12), p->cpu, &u, &n,
                         err) < 0)
        return -1;
    double before_h = (double)(b->cut - plan_add_months(b->cut, -12)) / 3600.0;
    double after_h = (double)(b->scored_until - b->cut) / 3600.0;
    for (size_t i = 0; i < n; i++) {
        int g = bt_group(b, idx, plan_group_of(c, u[i].user_id, u[i].account_id));
        if (u[i].month < cut_m)
            b->g[g].before += u[i].hours / before_h;
        else if (after_h > 0)
            b->g[g].after += u[i].hours / after_h;
    }
    free(u);
    return 0;
}

int plan_backtest(Store *st, const PlanOpts *o, PlanBacktest *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    int y, mo, d, h, mi, s;
    fields_civil_of(o->cut, &y, &mo, &d, &h, &mi, &s);
    if (d != 1 || h || mi || s)
        return cp_err_set(err, "backtest date must be the first day of a month (use is kept "
                               "per month)");
    PlanOpts fo = *o;
    fo.fresh = 1;
    fo.years = 1;
    Plan *p = plan_build(st, &fo, err);
    if (!p)
        return -1;
    PlanCtx c;
    plan_ctx_init(&c);
    StrMap *idx = strmap_new();
    int64_t data_end;
    int rc = -1;
    if (plan_ctx_load(st, p, &c, err) < 0 || store_plan_data_end(st, &data_end, err) < 0)
        goto out;
    /* the roster line of each user as at the cut, as the plan saw it */
    plan_ctx_roster(&c, p->win_end);
    out->cpu = p->cpu;
    out->cut = o->cut;
    out->scored_until = plan_add_months(o->cut, 12);
    if (data_end < out->scored_until)
        out->scored_until = data_end > o->cut ? data_end : o->cut;
    out->scored_months = (double)(out->scored_until - o->cut) / FEAT_MONTH_S;
    out->profiles = p->fit.k;
    out->users = p->nusers;
    bt_model(out, idx, p);
    if (bt_usage(st, out, idx, p, &c, err) < 0)
        goto out;
    for (int g = 0; g < out->ngroups; g++)
        if (plan_group_index(p, out->groups[g]) < 0)
            out->g[g].growth = p->institute_growth;
    backtest_score(out->g, out->ngroups, &out->score);
    rc = 0;
out:
    strmap_free(idx);
    plan_ctx_done(&c);
    plan_free(p);
    return rc;
}

void plan_backtest_free(PlanBacktest *b)
{
    for (int g = 0; g < b->ngroups; g++)
        free(b->groups[g]);
    free(b->groups);
    free(b->g);
    memset(b, 0, sizeof *b);
}
