/* project_json: `capplan project --json` (cli/project_json.h). */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "cli/project_json.h"
#include "core/memclass_nest.h"

static const char *const group_keys[] = {"growth", "pool", "buffer"};

const char *project_unit_of(const Plan *p)
{
    return p->cpu ? "CPUs" : "GPU-eq";
}

static cJSON *by_class(const double v[MEMCLASS_COUNT])
{
    cJSON *o = cJSON_CreateObject();
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        cJSON_AddNumberToObject(o, profiles_mem_class_name(c), v[c]);
    return o;
}

static cJSON *param_pair(double value, double measured)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", value);
    cJSON_AddNumberToObject(o, "measured", measured);
    cJSON_AddBoolToObject(o, "edited", value != measured);
    return o;
}

/* {"p10": lo, "p90": hi} or null when not calibrated. */
static void add_range(cJSON *o, const char *key, ProjRange r)
{
    if (!isfinite(r.lo) || !isfinite(r.hi)) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    cJSON *x = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(x, "p10", r.lo);
    cJSON_AddNumberToObject(x, "p90", r.hi);
}

static void json_years(cJSON *o, const View *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, "years");
    for (int y = 1; y <= v->r->nyears; y++) {
        int64_t f, t;
        char a1[16], a2[16];
        projection_year_span(v->p->model, y, &f, &t);
        plan_cli_date(f, a1, sizeof a1);
        plan_cli_date(t, a2, sizeof a2);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "year", y);
        cJSON_AddStringToObject(e, "from", a1);
        cJSON_AddStringToObject(e, "to", a2);
        cJSON_AddItemToArray(a, e);
    }
}

static void json_profiles(cJSON *o, const View *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, "profiles");
    const ProjModel *m = v->p->model;
    for (int i = 0; i < v->p->fit.k; i++) {
        double g, gm, mem, memm;
        char key[32];
        snprintf(key, sizeof key, "gpus.%d", i + 1);
        projection_param_get(m, v->params, key, -1, &g, NULL);
        projection_param_get(m, v->p->measured, key, -1, &gm, NULL);
        snprintf(key, sizeof key, "mem.%d", i + 1);
        projection_param_get(m, v->params, key, -1, &mem, NULL);
        projection_param_get(m, v->p->measured, key, -1, &memm, NULL);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "id", i + 1);
        cJSON_AddStringToObject(e, "name", v->p->names[i]);
        cJSON_AddItemToObject(e, "gpus", param_pair(g, gm));
        cJSON_AddItemToObject(e, "mem_gib", param_pair(mem, memm));
        cJSON_AddStringToObject(e, "mem_class", profiles_mem_class_name(profiles_mem_class(mem)));
        cJSON_AddItemToArray(a, e);
    }
}

/* Group g's stated needs known at t0, each with its part of year 1's need
 * (issue 28; plan_stated_part). */
static void json_stated(cJSON *e, const View *v, int g)
{
    cJSON *a = cJSON_AddArrayToObject(e, "stated_needs");
    for (int i = 0; i < v->nstated; i++) {
        const PlanStated *s = &v->stated[i];
        if (s->group_idx != g)
            continue;
        double use, pres, part = plan_stated_part(v->p, v->params, s, 1, &use, &pres);
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "user", s->user);
        cJSON_AddStringToObject(x, "date", s->date);
        cJSON_AddNumberToObject(x, "gpus_fulltime", s->gpus);
        cJSON_AddBoolToObject(x, "measured_member", s->proj_user >= 0);
        cJSON_AddNumberToObject(x, "present_share", pres);
        cJSON_AddNumberToObject(x, "expected_use", use);
        cJSON_AddNumberToObject(x, "part", part);
        cJSON_AddItemToArray(a, x);
    }
}

static cJSON *group_year(const ProjGroupYear *t, int y)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "year", y);
    cJSON_AddNumberToObject(e, "stay", t->stay);
    cJSON_AddNumberToObject(e, "arrivals", t->arrivals);
    cJSON_AddNumberToObject(e, "newcomers", t->newcomers);
    cJSON_AddNumberToObject(e, "heads", t->heads);
    cJSON_AddNumberToObject(e, "stayers", t->stayers);
    cJSON_AddNumberToObject(e, "leavers", t->leavers);
    cJSON_AddNumberToObject(e, "newcomers_use", t->newcomers_use);
    cJSON_AddNumberToObject(e, "intensity", t->intensity);
    cJSON_AddNumberToObject(e, "expected_use", t->base);
    add_range(e, "expected_use_range", t->base_r);
    cJSON_AddNumberToObject(e, "pool", t->pool);
    cJSON_AddNumberToObject(e, "pool_cut", t->pool_cut); /* issue 28: the cap's */
    cJSON_AddNumberToObject(e, "buffer", t->buffer_add);
    cJSON_AddNumberToObject(e, "stated", t->stated); /* issue 28: beyond expected use */
    cJSON_AddNumberToObject(e, "need", t->demand);
    add_range(e, "need_range", t->demand_r);
    cJSON_AddItemToObject(e, "need_by_class", by_class(t->demand_c));
    cJSON_AddNumberToObject(e, "demand", t->demand); /* the need, as model v1 named it */
    return e;
}

/* Group g's leavers in year 1 as the projection takes them (issue 28,
 * what was known when): the members whose known leave date (an actual end
 * already passed, else a planned end) falls in year 1, and the yearly churn
 * the members with no known date leave by. */
static void json_leavers(cJSON *e, const Plan *p, int g)
{
    int64_t y0, y1;
    double churn = 0;
    projection_year_span(p->model, 1, &y0, &y1);
    cJSON *a = cJSON_AddArrayToObject(e, "leavers_year1");
    for (int i = 0; i < p->nproj_users; i++) {
        if (projection_user_group(p->model, i) != g)
            continue;
        double q = projection_user_churn(p->model, i);
        churn = q > churn ? q : churn;
        int64_t t = projection_user_leaves(p->model, i);
        if (t == PROJ_NEVER || t < y0 || t >= y1)
            continue;
        char d[16];
        plan_cli_date(t, d, sizeof d);
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "user", p->proj_user_name[i]);
        cJSON_AddStringToObject(x, "leaves", d);
        cJSON_AddItemToArray(a, x);
    }
    cJSON_AddNumberToObject(e, "churn", churn);
}

static void json_groups(cJSON *o, const View *v)
{
    const Plan *p = v->p;
    cJSON *a = cJSON_AddArrayToObject(o, "groups");
    const double *meas[] = {p->measured->growth, p->measured->pool, p->measured->buffer};
    const double *val[] = {v->params->growth, v->params->pool, v->params->buffer};
    for (int g = 0; g < p->ngroups; g++) {
        cJSON *e = cJSON_CreateObject();
        int capped;
        cJSON_AddStringToObject(e, "name", p->groups[g]);
        cJSON_AddStringToObject(e, "domain", p->domains[p->group_domain[g]]);
        cJSON_AddNumberToObject(e, "heads_now", projection_heads0(p->model, g));
        cJSON_AddNumberToObject(e, "used_last_12_months", projection_used_now(p->model, g));
        cJSON_AddNumberToObject(e, "growth_raw", projection_growth_raw(p->model, g, &capped));
        cJSON_AddBoolToObject(e, "growth_capped", capped);
        json_leavers(e, p, g);
        cJSON_AddItemToObject(e, "mix",
                              cJSON_CreateDoubleArray(projection_mix(p->model, g), p->fit.k));
        cJSON *pa = cJSON_AddObjectToObject(e, "params");
        for (int k = 0; k < 3; k++)
            cJSON_AddItemToObject(pa, group_keys[k], param_pair(val[k][g], meas[k][g]));
        /* members' rate per profile as this group sees it: its own value (a
         * stated need applied to the group), the profile's, else measured */
        cJSON *bp = cJSON_AddArrayToObject(pa, "gpus");
        for (int q = 0; q < p->fit.k; q++) {
            char key[32];
            double mv, vv = projection_gpus_of(v->params, g, q);
            snprintf(key, sizeof key, "gpus.%d", q + 1);
            projection_param_get(p->model, p->measured, key, -1, &mv, NULL);
            cJSON_AddItemToArray(bp, param_pair(vv, mv));
        }
        json_stated(e, v, g);
        cJSON *ys = cJSON_AddArrayToObject(e, "years");
        for (int y = 1; y <= v->r->nyears; y++)
            cJSON_AddItemToArray(ys, group_year(&v->r->gy[(size_t)g * v->r->nyears + y - 1], y));
        cJSON_AddItemToArray(a, e);
    }
}

static cJSON *totals(const ProjTotals *t, int y, int with_capacity)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "year", y);
    cJSON_AddNumberToObject(e, "heads", t->heads);
    cJSON_AddNumberToObject(e, "expected_use", t->base);
    add_range(e, "expected_use_range", t->base_r);
    cJSON_AddNumberToObject(e, "pool", t->pool);
    cJSON_AddNumberToObject(e, "buffer", t->buffer_add);
    cJSON_AddNumberToObject(e, "stated", t->stated);
    cJSON_AddNumberToObject(e, "need", t->demand);
    add_range(e, "need_range", t->demand_r);
    cJSON_AddItemToObject(e, "need_by_class", by_class(t->demand_c));
    cJSON_AddNumberToObject(e, "demand", t->demand); /* the need, as model v1 named it */
    cJSON_AddItemToObject(e, "demand_by_class", by_class(t->demand_c));
    if (with_capacity) {
        cJSON_AddNumberToObject(e, "pool_sum_of_groups", t->pool_sum);
        cJSON_AddNumberToObject(e, "shared_between_groups", t->pool_sum - t->pool);
        cJSON_AddNumberToObject(e, "capacity", t->capacity);
        cJSON_AddNumberToObject(e, "gap", t->gap);
        add_range(e, "gap_range", t->gap_r);
        cJSON_AddItemToObject(e, "capacity_by_class", by_class(t->capacity_c));
        cJSON_AddItemToObject(e, "gap_by_class", by_class(t->gap_c));
        /* #33: after the bigger classes' room served the smaller ones, as
         * the report, the Overview's alerts and the institute page show */
        double nest[MEMCLASS_COUNT];
        memclass_nest(t->demand_c, t->capacity_c, nest);
        cJSON_AddItemToObject(e, "gap_by_class_nested", by_class(nest));
    }
    return e;
}

static void json_totals(cJSON *o, const View *v)
{
    cJSON *d = cJSON_AddArrayToObject(o, "domains");
    for (int k = 0; k < v->p->ndomains; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", v->p->domains[k]);
        cJSON *ys = cJSON_AddArrayToObject(e, "years");
        for (int y = 1; y <= v->r->nyears; y++)
            cJSON_AddItemToArray(ys, totals(&v->r->dom[(size_t)k * v->r->nyears + y - 1], y, 0));
        cJSON_AddItemToArray(d, e);
    }
    cJSON *t = cJSON_AddArrayToObject(o, "total");
    for (int y = 1; y <= v->r->nyears; y++)
        cJSON_AddItemToArray(t, totals(&v->r->total[y - 1], y, 1));
}

static void json_edits(cJSON *o, const View *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, "edits");
    for (size_t i = 0; i < v->nedits; i++) {
        const StorePlanParam *e = &v->edits[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "key", e->key);
        cJSON_AddStringToObject(x, "group", e->group);
        cJSON_AddNumberToObject(x, "value", e->value);
        if (!isnan(e->measured))
            cJSON_AddNumberToObject(x, "measured", e->measured);
        else
            cJSON_AddNullToObject(x, "measured");
        cJSON_AddStringToObject(x, "reason", e->reason ? e->reason : "");
        cJSON_AddStringToObject(x, "who", e->who ? e->who : "");
        cJSON_AddNumberToObject(x, "at", (double)e->at);
        cJSON_AddItemToArray(a, x);
    }
    cJSON_AddNumberToObject(o, "edits_skipped", v->skipped);
}

/* The forecaster and its past coverage (issue 28). */
static void json_forecaster(cJSON *o, const Plan *p)
{
    char buf[512], key[32];
    if (!p->bt)
        return;
    const PlanBacktest *b = p->bt;
    cJSON *f = cJSON_AddObjectToObject(o, "forecaster");
    fc_cand_name(b->choice.cand, buf, sizeof buf);
    fc_cand_key(b->choice.cand, key, sizeof key);
    cJSON_AddStringToObject(f, "name", buf);
    cJSON_AddStringToObject(f, "key", key);
    cJSON_AddNumberToObject(f, "cuts", b->choice.nrec);
    cJSON_AddBoolToObject(f, "default", b->choice.nrec < FC_MIN_RECORD);
    plan_forecaster_text(b, buf, sizeof buf);
    cJSON_AddStringToObject(f, "text", buf);
    int cal = 0, in = 0;
    for (int i = 0; i < b->ncuts; i++)
        if (b->cuts[i].calibrated && !b->cuts[i].apart) {
            cal++;
            in += b->cuts[i].cover_total;
        }
    cJSON *c = cJSON_AddObjectToObject(o, "coverage");
    cJSON_AddNumberToObject(c, "held", in);
    cJSON_AddNumberToObject(c, "cuts", cal);
    plan_coverage_text(b, buf, sizeof buf);
    cJSON_AddStringToObject(c, "text", buf);
    if (p->bt->target) {
        cJSON *t = cJSON_AddObjectToObject(f, "expected_use"); /* year 1, per group */
        for (int g = 0; g < b->ntarget; g++)
            if (b->target[g] > 0)
                cJSON_AddNumberToObject(t, b->target_groups[g], b->target[g]);
        cJSON_AddNumberToObject(f, "expected_total", b->target[b->ntarget]);
    }
}

void project_print_json(const View *v, FILE *out)
{
    char t0[16];
    const ProjCalib *c = projection_calib(v->p->model);
    int capped;
    plan_cli_date(v->p->win_end, t0, sizeof t0);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "unit", project_unit_of(v->p));
    cJSON_AddStringToObject(o, "reference_model", v->p->ref_model);
    cJSON_AddStringToObject(o, "scenario", v->scenario ? v->scenario : "base");
    cJSON_AddStringToObject(o, "t0", t0);
    cJSON_AddNumberToObject(o, "institute_growth", v->p->institute_growth);
    cJSON_AddNumberToObject(o, "intensity", v->params->intensity);
    cJSON_AddNumberToObject(o, "intensity_raw", projection_intensity_raw(v->p->model, &capped));
    cJSON_AddBoolToObject(o, "intensity_capped", capped);
    cJSON_AddNumberToObject(o, "halflife_months", v->params->halflife);
    cJSON_AddNumberToObject(o, "institute_buffer", v->p->institute_buffer);
    cJSON_AddNumberToObject(o, "backtest_cuts", c->ncuts);
    cJSON_AddBoolToObject(o, "calibrated", c->ncuts >= PROJ_MIN_CUTS);
    /* issue 28: year 2's range over year 1's, measured (0: not, sqrt 2 instead) */
    cJSON_AddNumberToObject(o, "range_widening_year2", c->widen2);
    cJSON_AddNumberToObject(o, "range_year2_cuts", v->p->bt ? v->p->bt->choice.range.n2 : 0);
    json_forecaster(o, v->p);
    if (v->r->nyears > PROJ_WARN_YEARS)
        cJSON_AddStringToObject(o, "warning", "past 5 years the ranges are wide and the roster "
                                              "rarely says who will be there");
    json_years(o, v);
    cJSON *past = cJSON_AddArrayToObject(o, "past_years"); /* on the same scale */
    for (int i = 0; i < v->p->nyear_use; i++) {
        const PlanYearUse *u = &v->p->year_use[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "year", u->year);
        cJSON_AddNumberToObject(e, "months", u->months);
        cJSON_AddNumberToObject(e, "used", u->used);
        cJSON_AddNumberToObject(e, "capacity", u->capacity);
        cJSON_AddItemToArray(past, e);
    }
    json_profiles(o, v);
    json_groups(o, v);
    json_totals(o, v);
    json_edits(o, v);
    cli_json_schema(o, "project");
    cli_print_json(o, out);
    cJSON_Delete(o);
}
