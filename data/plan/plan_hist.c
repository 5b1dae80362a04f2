/* plan_hist: model v2's job history read once (every final job with GPUs,
 * as GPU-eq: GPUs x the relative speed of its model in the inventory),
 * the fit at the plan's window end, and the rolling backtest
 * (data/plan/plan.h, docs/planning.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/leavers.h"
#include "data/plan/plan_int.h"

#define BT_MIN_HISTORY 6 /* months of data a scored cut needs before it */
#define BT_MIN_ORIGIN 3  /* months of data an origin needs before it (records only) */
#define BT_DEFAULT_HALF 2 /* the model's half-life index when the forecaster has none */
#define BUFFER_Q 80.0

/* ---- GPU-eq ---- */

static void read_models(Plan *p, PlanCtx *c, const StorePlanGpus *inv, size_t n)
{
    snprintf(p->ref_model, sizeof p->ref_model, "%s", p->cpu ? "CPU" : "relative speed 1.0");
    for (size_t i = 0; i < n; i++) {
        double sp = inv[i].speed > 0 ? inv[i].speed : 1;
        if (sp == 1 && strcmp(p->ref_model, "relative speed 1.0") == 0)
            snprintf(p->ref_model, sizeof p->ref_model, "%s", inv[i].model);
        int seen = 0;
        for (int m = 0; m < c->nmodels; m++)
            seen |= strcasecmp(c->models[m].name, inv[i].model) == 0;
        if (seen || c->nmodels >= PROJ_MAX_MODELS)
            continue;
        ProjModelInfo *mi = &c->models[c->nmodels++];
        snprintf(mi->name, sizeof mi->name, "%s", inv[i].model);
        mi->speed = sp;
        mi->mem_gib = inv[i].mem_gib;
    }
}

/* The inventory as the fit's fleet (the speed of a row unknown: 1). */
static void read_fleet(PlanCtx *c, const StorePlanGpus *inv, size_t n)
{
    c->hfleet = xcalloc(n + 1, sizeof *c->hfleet);
    for (size_t i = 0; i < n; i++)
        c->hfleet[i] = (DemGpus){inv[i].from, inv[i].to == STORE_PLAN_NO_DATE ? INT64_MAX : inv[i].to,
                                 inv[i].gpus, inv[i].speed > 0 ? inv[i].speed : 1};
    c->hist.fleet = c->hfleet;
    c->hist.nfleet = (int)n;
}

static PlanHistRun *hist_requests(PlanCtx *c, int64_t one, int64_t fit_t, PlanFeedReq **fits,
                                  int *nfits, PlanSumReq **sums, int *nsums);
static void hist_churn(PlanCtx *c, PlanHistRun *b, int64_t fit_t, int64_t roster_t);

int plan_hist_load(Store *st, Plan *p, PlanCtx *c, int64_t roster_t, int64_t fit_t, int64_t one,
                   CpErr *err)
{
    StorePlanGpus *inv = NULL;
    size_t ninv = 0;
    if (!c->hgidx)
        c->hgidx = strmap_new();
    int began = store_plan_read_begin(st); /* one snapshot: the key and both passes */
    int rc = -1;
    if (!p->cpu && store_plan_inventory(st, &inv, &ninv, err) < 0)
        goto out;
    plan_inventory_asof(c, inv, &ninv);
    read_models(p, c, inv, ninv);
    read_fleet(c, inv, ninv);
    int cacheable = c->nocache ? 0
                               : plan_cache_key(st, p, c, inv, ninv, roster_t, fit_t, c->cache_key,
                                                sizeof c->cache_key, err);
    if (cacheable < 0)
        goto out;
    if (cacheable && plan_cache_load(st, c->cache_key, p, c, fit_t != 0)) {
        c->cached = 1;
        c->now_t = fit_t ? fit_t : c->hist_end;
        rc = fit_t ? plan_hist_fit(p, c) : 0;
        goto out;
    }
    c->cache_save = cacheable;
    if (plan_hist_scan(st, p, c, inv, ninv, err) < 0)
        goto out;
    c->now_t = fit_t ? fit_t : c->hist_end;
    if (one && (one < plan_add_months(c->hist.data_start, 6) || one >= c->data_end)) {
        cp_err_set(err, "backtest date: needs 6 months of data before it and some after it");
        goto out;
    }
    PlanFeedReq *fits;
    PlanSumReq *sums;
    int nfits, nsums;
    c->hrun = hist_requests(c, one, fit_t, &fits, &nfits, &sums, &nsums);
    /* the cuts whose entries are good are read, not fed (issue 31) */
    c->hrun->cut_cache = c->cache_save && !one && !c->asof;
    plan_cuts_load(st, p, c, inv, ninv, fits, &nfits);
    rc = plan_hist_pass(st, p, c, fits, nfits, sums, nsums, err);
    free(fits);
    free(sums);
    if (rc == 0)
        hist_churn(c, c->hrun, fit_t, roster_t);
    if (rc == 0 && fit_t)
        rc = plan_hist_fit(p, c);
out:
    store_plan_inventory_free(inv, ninv);
    if (began)
        store_plan_read_end(st);
    return rc;
}

/* ---- one cut ---- */

/* What is known at t0: at a past cut (before the history's present), an
 * end date after it was not known then, nor anyone who starts after it. */
static int known_now(const PlanCtx *c, int64_t t0)
{
    return t0 >= c->now_t;
}

void plan_hist_cut(PlanCtx *c, int64_t t0, DemCut *cut, int64_t *leaves, int *on_roster)
{
    plan_hist_months(t0, cut);
    plan_ctx_roster(c, t0);
    for (int64_t u = 0; u < c->users.n; u++) {
        leaves[u] = PROJ_NEVER;
        on_roster[u] = 0;
        const char *name = c->users.names[u];
        int64_t i;
        if (!name || !strmap_get(c->roster, name, strlen(name), &i))
            continue;
        on_roster[u] = 1;
        leaves[u] = leave_known(c->people[i].end, c->people[i].planned, t0, known_now(c, t0));
    }
    cut->leaves = leaves;
    cut->on_roster = on_roster;
}

ProjArrival *plan_hist_arrivals(const Plan *p, const PlanCtx *c, int64_t t0, int *n)
{
    ProjArrival *a = xcalloc(c->npeople + 1, sizeof *a);
    *n = 0;
    for (size_t i = 0; i < c->npeople && known_now(c, t0); i++) {
        const StorePlanPerson *pp = &c->people[i];
        int64_t g;
        if (pp->start == STORE_PLAN_NO_DATE || pp->start <= t0 ||
            !plan_role_kept(p->roles, pp->role) ||
            !strmap_get(c->hgidx, pp->group, strlen(pp->group), &g))
            continue;
        a[(*n)++] = (ProjArrival){(int)g, pp->start, leave_known(pp->end, pp->planned, t0, 1)};
    }
    return a;
}

/* Year-1 expected use per hist group at the cut fitted in f, half-life h. */
static void forecast(const Plan *p, const PlanCtx *c, const DemFit *f, int64_t t0,
                     const int64_t *leaves, int h, double *out)
{
    ProjUser *u = xcalloc((size_t)f->nactive + 1, sizeof *u);
    for (int i = 0; i < f->nactive; i++) {
        u[i].group = f->users[i].group;
        u[i].profile = -1;
        memcpy(u[i].rate, f->users[i].rate, sizeof u[i].rate);
        u[i].mem_gib = -1;
        u[i].leaves = leaves[f->users[i].user];
        u[i].churn = plan_hist_churn_of(f, u[i].group, u[i].leaves);
    }
    int na;
    ProjArrival *arr = plan_hist_arrivals(p, c, t0, &na);
    int64_t ys[2] = {t0, plan_add_months(t0, 12)};
    ProjInput in = {f->ngroups, 0, 1, 1, NULL, u, f->nactive, arr, na, NULL, 0, NULL, 0, f,
                    {0, NAN, NAN, 0, h, 0}, t0, ys};
    ProjModel *m = projection_prepare(&in);
    ProjParams *par = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, par, r);
    for (int g = 0; g < f->ngroups; g++)
        out[g] = r->gy[g].base;
    out[f->ngroups] = r->total[0].base; /* with new groups */
    projection_result_free(r);
    projection_params_free(par);
    projection_model_free(m);
    free(arr);
    free(u);
}

/* ---- the fit behind the projection ---- */

int plan_hist_fit(Plan *p, PlanCtx *c)
{
    for (int i = 0; i < c->fit.nactive; i++)
        plan_group_add(p, c->gidx, c->hgroups[c->fit.users[i].group]);
    return 0;
}

/* ---- the rolling backtest (issue 28: the forecasters of core/forecast) ---- */

typedef PlanHistRun BtRun;

static int64_t month_index_start(const BtRun *b, int m)
{
    return plan_add_months(b->m0, m);
}

/* The first month counted as data (counted when the data begins in its
 * first 3 days). */
static int64_t first_month(const PlanCtx *c)
{
    int64_t first = plan_ym_start(plan_month_of(c->hist.data_start));
    if (c->hist.data_start - first > 3 * 86400)
        first = plan_add_months(first, 1);
    return first;
}

/* The origins: month starts with 3 months of data before and some after
 * (the backtest's cuts: those with 6 months before, 12 after). */
static int list_cuts(const PlanCtx *c, int64_t **out)
{
    int64_t first = first_month(c);
    int n = 0, cap = 0;
    *out = NULL;
    if (c->hist.njobs == 0)
        return 0;
    for (int64_t t = plan_add_months(first, BT_MIN_ORIGIN); t < c->hist_end;
         t = plan_add_months(t, 1)) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = xrealloc(*out, (size_t)cap * sizeof **out);
        }
        (*out)[n++] = t;
    }
    return n;
}

/* GPU-eq capacity in service at t, and its mean over [t, e). */
static double fleet_at(const DemHist *h, int64_t t, int64_t e)
{
    double s = 0;
    for (int i = 0; i < h->nfleet; i++) {
        const DemGpus *r = &h->fleet[i];
        int64_t a = r->from > t ? r->from : t, z = r->to < e ? r->to : e;
        if (e == t) {
            if (r->from <= t && t < r->to)
                s += r->gpus * r->speed;
        } else if (z > a)
            s += r->gpus * r->speed * (double)(z - a) / (double)(e - t);
    }
    return s;
}

static void bt_run_cut(const Plan *p, PlanCtx *c, BtRun *b, int i, int64_t *leaves, int *onr)
{
    int G = b->G;
    DemCut cut;
    const DemFit *f = &b->fit[i];
    plan_hist_cut(c, b->cut[i], &cut, leaves, onr);
    b->pool[i] = f->pool_inst;
    for (int h = 0; h < DEM_NHALF && b->cached[i] != 1; h++) /* 1: read with the fit */
        forecast(p, c, f, b->cut[i], leaves, h, b->f + ((size_t)i * DEM_NHALF + h) * (G + 1));
    b->users[i] = f->nactive;
    double c0 = fleet_at(&c->hist, b->cut[i], b->cut[i]);
    double c1 = fleet_at(&c->hist, b->cut[i], plan_add_months(b->cut[i], 12));
    b->apart[i] = c0 > 0 && fabs(c1 / c0 - 1) > 0.25;
}

static double hl_of(int k)
{
    return fc_cand_halflife(k);
}

/* The model's half-life index nearest forecaster k's (the projection's
 * members' rates). */
static int model_half(int k)
{
    double h = hl_of(k);
    int best = BT_DEFAULT_HALF;
    double bd = INFINITY;
    for (int i = 0; i < DEM_NHALF && h > 0; i++)
        if (fabs(dem_halflives[i] - h) < bd) {
            bd = fabs(dem_halflives[i] - h);
            best = i;
        }
    return best;
}

/* The cuts, the records, the choice now and its forecast into out. */
static void bt_summary(const PlanCtx *c, BtRun *b, const FcTable *t, PlanBacktest *out)
{
    int n = b->n, G = b->G;
    FcCut *fc = xcalloc((size_t)n + 1, sizeof *fc);
    int nc = fc_backtest(t, b->Tfull, fc, out->rec);
    double *ratio = xcalloc((size_t)nc + 1, sizeof *ratio), *over = xcalloc((size_t)nc + 1, sizeof *over);
    int nr = 0, nk = 0, nnv = 0;
    double mae_nv = 0, bias_nv = 0;
    out->cuts = xcalloc((size_t)nc + 1, sizeof *out->cuts);
    for (int j = 0; j < nc; j++) {
        const FcCut *x = &fc[j];
        int i = x->o;
        if (b->one && b->cut[i] != b->one)
            continue;
        PlanBtCut *k = &out->cuts[nk++];
        const double *nv = fc_table_at(t, i, FC_NAIVE);
        double e = 0, s = 0, ns = 0; /* naive here: the groups' last 12 months alone */
        for (int g = 0; g < G; g++) {
            double a = fc_mean(t, g, b->om[i], b->om[i] + 12);
            e += fabs(nv[g] - a);
            s += a;
            ns += nv[g];
        }
        k->cut = b->cut[i];
        k->until = b->until[i];
        k->cand = x->choice.cand;
        k->nrec = x->choice.nrec;
        k->halflife = hl_of(k->cand);
        k->wape_model = x->wape;
        k->wape_naive = s > 0 ? e / s : 0;
        k->actual = x->actual;
        k->model = x->forecast;
        k->naive = ns;
        k->err_model = x->err;
        k->err_naive = s > 0 ? (ns - s) / s : 0;
        k->apart = x->apart;
        k->calibrated = x->calibrated;
        k->cover_total = x->cover_total;
        k->cover_groups = x->cover_groups;
        memcpy(k->cand_wape, x->cand_wape, sizeof k->cand_wape);
        memcpy(k->cand_err, x->cand_err, sizeof k->cand_err);
        fc_range_of(&x->choice.range, x->forecast, x->forecast, -1, &k->lo, &k->hi);
        out->napart += x->apart;
        if (!x->apart) {
            nnv++;
            mae_nv += fabs(k->err_naive);
            bias_nv += k->err_naive;
        }
        if (x->apart || x->forecast <= 0 || x->actual <= 0)
            continue;
        ratio[nr] = x->actual / x->forecast;
        over[nr] = x->actual / (x->forecast + b->pool[i]) - 1;
        nr++;
    }
    out->ncuts = nk;
    const FcRec *ch = &out->rec[FC_NCAND], *nvr = &out->rec[FC_NAIVE];
    out->mean_wape_model = ch->wape;
    out->mean_wape_naive = nvr->wape;
    out->mae_model = ch->mae;
    out->mae_naive = nnv ? mae_nv / nnv : 0; /* the groups' last 12 months alone */
    out->bias_model = ch->bias;
    out->bias_naive = nnv ? bias_nv / nnv : 0;
    for (int h = 0; h < DEM_NHALF; h++)
        out->wape_by_half[h] = out->rec[FC_MODEL0 + h].wape;
    fc_choose(t, b->T, &out->choice);
    out->calib.half = model_half(out->choice.cand);
    out->calib.ncuts = out->choice.range.n;
    out->calib.q10 = out->choice.range.q10;
    out->calib.q90 = out->choice.range.q90;
    out->calib.widen2 = out->choice.range.widen2;
    double bu = nr ? backtest_percentile(over, nr, BUFFER_Q) : 0;
    out->calib.buffer = nr >= PROJ_MIN_CUTS && bu > 0 ? bu : 0;
    out->ratio_p10 = nr ? backtest_percentile(ratio, nr, 10) : NAN;
    out->ratio_p50 = nr ? backtest_percentile(ratio, nr, 50) : NAN;
    out->ratio_p90 = nr ? backtest_percentile(ratio, nr, 90) : NAN;
    if (b->today || !fc_cand_uses_model(out->choice.cand)) { /* the forecast now */
        out->ntarget = G;
        out->target = xcalloc((size_t)G + 1, sizeof *out->target);
        out->target_groups = xcalloc((size_t)G + 1, sizeof *out->target_groups);
        fc_forecast(t, out->choice.cand, b->T, b->today, out->target);
        out->target[G] = fc_total_with(t, out->target, b->today, out->choice.ng);
        for (int g = 0; g < G; g++)
            out->target_groups[g] = xstrdup(c->hgroups[g]);
    }
    free(ratio);
    free(over);
    free(fc);
}

/* The per-group detail of the last cut listed. */
static void bt_detail(const PlanCtx *c, const BtRun *b, const FcTable *t, PlanBacktest *out)
{
    int G = b->G, nk = out->ncuts;
    out->groups = xcalloc((size_t)G + 1, sizeof *out->groups);
    out->g = xcalloc((size_t)G + 1, sizeof *out->g);
    size_t nc = (size_t)nk * G + 1;
    out->cut_model = xcalloc(nc, sizeof *out->cut_model);
    out->cut_actual = xcalloc(nc, sizeof *out->cut_actual);
    out->cut_naive = xcalloc(nc, sizeof *out->cut_naive);
    int last = -1;
    for (int k = 0; k < nk; k++) {
        int i = 0;
        while (b->cut[i] != out->cuts[k].cut)
            i++;
        last = i;
        const double *f = fc_table_at(t, i, out->cuts[k].cand), *nv = fc_table_at(t, i, FC_NAIVE);
        for (int g = 0; g < G; g++) {
            out->cut_model[(size_t)k * G + g] = f[g];
            out->cut_naive[(size_t)k * G + g] = nv[g];
            out->cut_actual[(size_t)k * G + g] =
                b->one ? b->one_act[g] : fc_mean(t, g, b->om[i], b->om[i] + 12);
        }
    }
    out->cut = b->cut[last];
    out->scored_until = b->until[last];
    out->scored_months = (double)(b->until[last] - b->cut[last]) / FEAT_MONTH_S;
    out->users = b->users[last];
    for (int g = 0; g < G; g++) {
        size_t at = (size_t)(nk - 1) * G + g;
        out->groups[out->ngroups] = xstrdup(c->hgroups[g]);
        BtGroup *x = &out->g[out->ngroups++];
        x->before = out->cut_naive[at];
        x->after = out->cut_actual[at];
        x->model_base = out->cut_model[at];
        x->model_demand = x->model_base * (1 + out->calib.buffer);
    }
    backtest_score(out->g, out->ngroups, &out->score);
}

int plan_hist_backtest(const Plan *p, PlanCtx *c, int64_t one, PlanBacktest *out, CpErr *err)
{
    BtRun *b = c->hrun;
    if (!b || b->one != one)
        return cp_err_set(err, "backtest: the history was not read for this cut");
    size_t nu = (size_t)c->users.n + 1;
    int64_t *leaves = xcalloc(nu, sizeof *leaves);
    int *onr = xcalloc(nu, sizeof *onr);
    int G = b->G;
    for (int i = 0; i < b->n; i++)
        bt_run_cut(p, c, b, i, leaves, onr);
    if (c->fit.groups) { /* the model now, at the fit */
        DemCut cut;
        b->today = xcalloc((size_t)DEM_NHALF * (G + 1) + 1, sizeof *b->today);
        plan_hist_cut(c, p->win_end, &cut, leaves, onr);
        for (int h = 0; h < DEM_NHALF; h++)
            forecast(p, c, &c->fit, p->win_end, leaves, h, b->today + (size_t)h * (G + 1));
    }
    double *use = xcalloc((size_t)G * b->T + 1, sizeof *use); /* G x T */
    for (int m = 0; m < b->T; m++)
        for (int g = 0; g < G; g++)
            use[(size_t)g * b->T + m] = b->months[(size_t)m * G + g];
    int first_cut = 0;
    while (month_index_start(b, first_cut) < plan_add_months(first_month(c), BT_MIN_HISTORY))
        first_cut++;
    int one_o = -1;
    for (int i = 0; i < b->n; i++)
        if (b->one && b->cut[i] == b->one)
            one_o = i;
    FcData d = {G, b->T, use, b->n, b->om, b->f, b->apart, first_cut, b->hours, one_o};
    FcTable *t = fc_table_new(&d);
    out->cpu = p->cpu;
    snprintf(out->ref_model, sizeof out->ref_model, "%s", p->ref_model);
    bt_summary(c, b, t, out);
    if (out->ncuts > 0)
        bt_detail(c, b, t, out);
    fc_table_free(t);
    free(use);
    free(leaves);
    free(onr);
    return 0;
}

void plan_hist_free(PlanCtx *c)
{
    BtRun *b = c->hrun;
    if (!b)
        return;
    for (int i = 0; i < b->n; i++)
        demand_fit_done(&b->fit[i]);
    free(b->fit);
    free(b->cut);
    free(b->until);
    free(b->months);
    free(b->hours);
    free(b->one_act);
    free(b->om);
    free(b->f);
    free(b->today);
    free(b->apart);
    free(b->users);
    free(b->pool);
    free(b->years);
    free(b->cached);
    free(b->eupto);
    free(b);
    c->hrun = NULL;
}

/* What the pass computes: a fit at each origin, each month's use, and with
 * fit_t the fit at fit_t and each past year's use. */
static PlanHistRun *hist_requests(PlanCtx *c, int64_t one, int64_t fit_t, PlanFeedReq **fits,
                                  int *nfits, PlanSumReq **sums, int *nsums)
{
    BtRun *b = xcalloc(1, sizeof *b);
    int G = b->G = c->hist.ngroups;
    b->one = one;
    b->n = list_cuts(c, &b->cut);
    size_t n = (size_t)b->n;
    b->m0 = plan_ym_start(plan_month_of(c->hist.data_start));
    if (c->hist.njobs > 0)
        while (month_index_start(b, b->T) < c->hist_end)
            b->T++;
    while (b->Tfull < b->T && month_index_start(b, b->Tfull + 1) <= c->hist_end)
        b->Tfull++;
    b->hours = xcalloc((size_t)b->T + 1, sizeof *b->hours);
    b->months = xcalloc((size_t)b->T * G + 1, sizeof *b->months);
    b->fit = xcalloc(n + 1, sizeof *b->fit);
    b->until = xcalloc(n + 1, sizeof *b->until);
    b->om = xcalloc(n + 1, sizeof *b->om);
    b->f = xcalloc(n * DEM_NHALF * (G + 1) + 1, sizeof *b->f);
    b->apart = xcalloc(n + 1, sizeof *b->apart);
    b->users = xcalloc(n + 1, sizeof *b->users);
    b->pool = xcalloc(n + 1, sizeof *b->pool);
    int64_t y1 = 0;
    if (fit_t && c->hist.njobs > 0 && c->data_end > c->hist.data_start) {
        b->y0 = plan_month_of(c->hist.data_start) / 100;
        y1 = plan_month_of(c->data_end - 1) / 100;
        b->nyears = (int)(y1 - b->y0 + 1);
    }
    b->years = xcalloc((size_t)b->nyears * G + 1, sizeof *b->years);
    *fits = xcalloc(n + 2, sizeof **fits);
    *sums = xcalloc((size_t)b->T + (size_t)b->nyears + 2, sizeof **sums);
    b->one_act = xcalloc((size_t)G + 1, sizeof *b->one_act);
    *nfits = *nsums = 0;
    for (int i = 0; i < b->n; i++) {
        int64_t until = plan_add_months(b->cut[i], 12);
        b->until[i] = until < c->data_end ? until : c->data_end;
        while (month_index_start(b, b->om[i]) < b->cut[i])
            b->om[i]++;
        (*fits)[(*nfits)++] = (PlanFeedReq){b->cut[i], until <= c->data_end, &b->fit[i]};
    }
    for (int m = 0; m < b->T; m++) {
        int64_t a = month_index_start(b, m), e = month_index_start(b, m + 1);
        if (e > c->hist_end)
            e = c->hist_end;
        b->hours[m] = e > a ? (double)(e - a) / 3600 : 0;
        (*sums)[(*nsums)++] = (PlanSumReq){a, e, b->months + (size_t)m * G};
    }
    if (one) /* the cut asked for, scored on what exists after it */
        (*sums)[(*nsums)++] = (PlanSumReq){one, plan_add_months(one, 12) < c->data_end
                                                    ? plan_add_months(one, 12)
                                                    : c->data_end,
                                           b->one_act};
    if (fit_t)
        (*fits)[(*nfits)++] = (PlanFeedReq){fit_t, 1, &c->fit};
    for (int y = 0; y < b->nyears; y++) {
        int64_t a = plan_ym_start((b->y0 + y) * 100 + 1), e = plan_ym_start((b->y0 + y + 1) * 100 + 1);
        int64_t lo = a > c->hist.data_start ? a : c->hist.data_start;
        int64_t hi = e < c->data_end ? e : c->data_end;
        (*sums)[(*nsums)++] = (PlanSumReq){lo, hi, b->years + (size_t)y * G};
    }
    return b;
}

/* ---- churn (issue 28 item 2: what was known when) ---- */

double plan_hist_churn_of(const DemFit *f, int g, int64_t leaves)
{
    return leaves == PROJ_NEVER && g >= 0 && g < f->ngroups ? f->groups[g].churn : 0;
}

/* Each fit's groups' churn (DemGroup.churn): of the members active at an
 * origin j (use in the 12 months before it) whose leave date was not known
 * at j (leave_known), the share not active at the origin 12 months later,
 * pooled over the pairs whose later origin is before the fit's date, each
 * group's shrunk toward the institute's (leave_churn). The roster is left
 * as at roster_t. */
static void hist_churn(PlanCtx *c, PlanHistRun *b, int64_t fit_t, int64_t roster_t)
{
    int n = b->n, G = b->G;
    size_t nu = (size_t)c->users.n + 1;
    LeaveCount *cum = xcalloc((size_t)(n + 1) * (G + 1) + 1, sizeof *cum); /* pairs ending < origin k */
    unsigned char *act = xcalloc(nu, 1);
    int64_t *leaves = xcalloc(nu, sizeof *leaves);
    int *onr = xcalloc(nu, sizeof *onr);
    for (int k = 0; k < n; k++) {
        LeaveCount *row = cum + (size_t)(k + 1) * (G + 1);
        memcpy(row, row - (G + 1), (size_t)(G + 1) * sizeof *row);
        int j = k - 12;
        if (j < 0 || b->cut[j] != plan_add_months(b->cut[k], -12))
            continue;
        DemCut cut;
        plan_hist_cut(c, b->cut[j], &cut, leaves, onr);
        const DemFit *fj = &b->fit[j], *fk = &b->fit[k];
        for (int i = 0; i < fk->nactive; i++)
            act[fk->users[i].user] = 1;
        for (int i = 0; i < fj->nactive; i++) {
            const DemUser *u = &fj->users[i];
            if (leaves[u->user] != PROJ_NEVER || u->group < 0 || u->group >= G)
                continue;
            LeaveCount *x[2] = {&row[u->group], &row[G]};
            for (int q = 0; q < 2; q++) {
                x[q]->active += 1;
                x[q]->left += !act[u->user];
            }
        }
        for (int i = 0; i < fk->nactive; i++)
            act[fk->users[i].user] = 0;
    }
    /* origin i's fit: the pairs whose later origin is before it (cum row i) */
    for (int i = 0; i <= n; i++) {
        DemFit *f = i < n ? &b->fit[i] : fit_t ? &c->fit : NULL;
        int at = i;
        if (i == n)
            while (at > 0 && b->cut[at - 1] >= fit_t)
                at--;
        const LeaveCount *row = cum + (size_t)at * (G + 1);
        for (int g = 0; f && g < f->ngroups && g < G; g++)
            f->groups[g].churn = leave_churn(row[g], row[G]);
    }
    plan_ctx_roster(c, roster_t);
    free(cum);
    free(leaves);
    free(onr);
    free(act);
}

/* ---- past years on the projection's scale ---- */

void plan_hist_years(Plan *p, const PlanCtx *c, const ProjGpus *gpus, int ngpus)
{
    const BtRun *b = c->hrun;
    if (!b || b->nyears == 0)
        return;
    p->year_use = xcalloc((size_t)b->nyears, sizeof *p->year_use);
    for (int k = 0; k < b->nyears; k++) {
        int64_t y = b->y0 + k;
        int64_t a = plan_ym_start(y * 100 + 1), e = plan_ym_start((y + 1) * 100 + 1);
        int64_t lo = a > c->hist.data_start ? a : c->hist.data_start;
        int64_t hi = e < c->data_end ? e : c->data_end;
        PlanYearUse *u = &p->year_use[p->nyear_use++];
        u->year = (int)y;
        u->months = (double)(hi - lo) / FEAT_MONTH_S;
        const double *act = b->years + (size_t)k * b->G;
        for (int g = 0; g < b->G; g++)
            u->used += act[g];
        for (int i = 0; i < ngpus; i++) {
            int64_t f = gpus[i].from > lo ? gpus[i].from : lo, t = gpus[i].to < hi ? gpus[i].to : hi;
            if (t > f)
                u->capacity += gpus[i].gpus * gpus[i].speed * (double)(t - f) / (double)(hi - lo);
        }
    }
}
