/* plan_hist: model v2's job history read once (every final job with GPUs,
 * as GPU-eq: GPUs x the relative speed of its model in the inventory),
 * the fit at the plan's window end, and the rolling backtest
 * (data/plan.h, docs/planning.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/plan/plan_int.h"

#define BT_MIN_HISTORY 6 /* months of data a cut needs before it */
#define BT_DEFAULT_HALF 2 /* 6 months while no earlier cut is scored */
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
    read_models(p, c, inv, ninv);
    read_fleet(c, inv, ninv);
    int cacheable = c->nocache ? 0
                               : plan_cache_key(st, p, c, inv, ninv, roster_t, fit_t, c->cache_key,
                                                sizeof c->cache_key, err);
    if (cacheable < 0)
        goto out;
    if (cacheable && plan_cache_load(st, c->cache_key, p, c, fit_t != 0)) {
        c->cached = 1;
        rc = fit_t ? plan_hist_fit(p, c) : 0;
        goto out;
    }
    c->cache_save = cacheable;
    if (plan_hist_scan(st, p, c, inv, ninv, err) < 0)
        goto out;
    if (one && (one < plan_add_months(c->hist.data_start, 6) || one >= c->data_end)) {
        cp_err_set(err, "backtest date: needs 6 months of data before it and some after it");
        goto out;
    }
    PlanFeedReq *fits;
    PlanSumReq *sums;
    int nfits, nsums;
    c->hrun = hist_requests(c, one, fit_t, &fits, &nfits, &sums, &nsums);
    rc = plan_hist_pass(st, p, c, fits, nfits, sums, nsums, err);
    free(fits);
    free(sums);
    if (rc == 0 && fit_t)
        rc = plan_hist_fit(p, c);
out:
    store_plan_inventory_free(inv, ninv);
    if (began)
        store_plan_read_end(st);
    return rc;
}

/* ---- one cut ---- */

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
        if (c->people[i].end != STORE_PLAN_NO_DATE)
            leaves[u] = c->people[i].end;
    }
    cut->leaves = leaves;
    cut->on_roster = on_roster;
}

ProjArrival *plan_hist_arrivals(const Plan *p, const PlanCtx *c, int64_t t0, int *n)
{
    ProjArrival *a = xcalloc(c->npeople + 1, sizeof *a);
    *n = 0;
    for (size_t i = 0; i < c->npeople; i++) {
        const StorePlanPerson *pp = &c->people[i];
        int64_t g;
        if (pp->start == STORE_PLAN_NO_DATE || pp->start <= t0 ||
            !plan_role_kept(p->roles, pp->role) ||
            !strmap_get(c->hgidx, pp->group, strlen(pp->group), &g))
            continue;
        a[(*n)++] = (ProjArrival){(int)g, pp->start,
                                  pp->end == STORE_PLAN_NO_DATE ? PROJ_NEVER : pp->end};
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
    }
    int na;
    ProjArrival *arr = plan_hist_arrivals(p, c, t0, &na);
    int64_t ys[2] = {t0, plan_add_months(t0, 12)};
    ProjInput in = {f->ngroups, 0, 1, 1, NULL, u, f->nactive, arr, na, NULL, 0, NULL, 0, f,
                    {0, NAN, NAN, 0, h}, t0, ys};
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

/* ---- the rolling backtest ---- */

struct PlanHistRun {
    int n;                   /* cuts */
    int G;
    int64_t one;             /* the cut asked for (0: every cut) */
    int64_t *cut, *until;
    DemFit *fit;             /* n: at each cut, with pools (from the pass) */
    DemFit *inner_fit;       /* n: at each cut - INNER_MONTHS, without pools, when no
                                earlier cut is that month (groups NULL otherwise) */
    double *actual, *naive;  /* n x G: used after each cut, in the 12 months before it */
    double *inner_act;       /* n x G: used in the INNER_MONTHS before each cut */
    int *naive_of;           /* n: the earlier cut whose actual is cut i's naive, -1 */
    double *f;               /* n x DEM_NHALF x (G + 1) forecasts */
    double *inner;           /* n x DEM_NHALF: WAPE of the inner validation */
    int *users;
    double *pool;            /* n: the institute's pool at each cut */
    int64_t y0;              /* past years: y0.., nyears of them */
    int nyears;
    double *years;           /* nyears x G */
};
typedef PlanHistRun BtRun;

static double wape(const double *f, const double *a, int n)
{
    double e = 0, s = 0;
    for (int i = 0; i < n; i++) {
        e += fabs(f[i] - a[i]);
        s += a[i];
    }
    return s > 0 ? e / s : 0;
}

static double sum(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* The month starts of the cuts: 6 months of data before, 12 after (a
 * single cut asked for: as far as the data goes after it). */
static int list_cuts(const PlanCtx *c, int64_t one, int64_t **out)
{
    int64_t first = plan_ym_start(plan_ym_add(plan_month_of(c->hist.data_start), 1));
    int n = 0, cap = 0;
    *out = NULL;
    if (one) {
        *out = xmalloc(sizeof **out);
        (*out)[0] = one;
        return 1;
    }
    if (c->hist.njobs == 0)
        return 0;
    for (int64_t t = plan_add_months(first, BT_MIN_HISTORY);
         plan_add_months(t, 12) <= c->data_end; t = plan_add_months(t, 1)) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = xrealloc(*out, (size_t)cap * sizeof **out);
        }
        (*out)[n++] = t;
    }
    return n;
}

#define INNER_MONTHS 2 /* the backtest's comparison: 1, 2, 3, 4, 6 tried */

/* The inner validation at cut i: the fit 2 months before it (cut i - 2's,
 * with pools, which it does not use: zeroed, it is demand_fit's without
 * them; else its own), each half-life's forecast scored on those 2 months
 * (all known at the cut). */
static void bt_inner(const Plan *p, PlanCtx *c, BtRun *b, int i, int64_t *leaves, int *onr)
{
    int G = b->G;
    int64_t t = plan_add_months(b->cut[i], -INNER_MONTHS);
    DemCut cut;
    double *fc = xcalloc((size_t)G + 2, sizeof *fc);
    plan_hist_cut(c, t, &cut, leaves, onr);
    DemFit f = b->inner_fit[i];
    DemGroup *groups = NULL;
    for (int k = 0; k < i && !f.groups; k++)
        if (b->cut[k] == t) { /* the same fit, less its pools */
            f = b->fit[k];
            groups = xmalloc(((size_t)f.ngroups + 1) * sizeof *groups);
            memcpy(groups, b->fit[k].groups, (size_t)f.ngroups * sizeof *groups);
            for (int g = 0; g < f.ngroups; g++)
                groups[g].burst_mean = groups[g].pool = 0;
            f.groups = groups;
            f.pool_inst = f.pool_sum = 0;
        }
    for (int h = 0; h < DEM_NHALF; h++) {
        forecast(p, c, &f, t, leaves, h, fc);
        b->inner[(size_t)i * DEM_NHALF + h] = wape(fc, b->inner_act + (size_t)i * G, G);
    }
    free(groups);
    free(fc);
}

static void bt_run_cut(const Plan *p, PlanCtx *c, BtRun *b, int i, int64_t *leaves, int *onr)
{
    int G = b->G;
    DemCut cut;
    const DemFit *f = &b->fit[i];
    plan_hist_cut(c, b->cut[i], &cut, leaves, onr);
    b->pool[i] = f->pool_inst;
    for (int h = 0; h < DEM_NHALF; h++)
        forecast(p, c, f, b->cut[i], leaves, h, b->f + ((size_t)i * DEM_NHALF + h) * (G + 1));
    b->users[i] = f->nactive;
    if (b->naive_of[i] >= 0) /* the naive forecast of cut i is what cut i - 12 scored */
        memcpy(b->naive + (size_t)i * G, b->actual + (size_t)b->naive_of[i] * G,
               (size_t)G * sizeof *b->naive);
    bt_inner(p, c, b, i, leaves, onr);
}

/* The half-life chosen at cut i: the best per-group WAPE of the inner
 * validation (the 2 months before the cut forecast from 2 months before:
 * all known at the cut); for today's projection (i < 0): the best mean
 * per-group WAPE over every cut (by_half gets each mean). */
static int choose_half(const BtRun *b, int i, double *by_half)
{
    int best = BT_DEFAULT_HALF, k = 0;
    double bw = INFINITY, w[DEM_NHALF] = {0};
    if (i >= 0) { /* at a cut: the inner validation, what was known then */
        for (int h = 0; h < DEM_NHALF; h++)
            if (b->inner[(size_t)i * DEM_NHALF + h] < bw) {
                bw = b->inner[(size_t)i * DEM_NHALF + h];
                best = h;
            }
        return best;
    }
    for (int j = 0; j < b->n; j++) {
        k++;
        for (int h = 0; h < DEM_NHALF; h++)
            w[h] += wape(b->f + ((size_t)j * DEM_NHALF + h) * (b->G + 1), b->actual + (size_t)j * b->G,
                         b->G);
    }
    for (int h = 0; h < DEM_NHALF && k > 0; h++) {
        if (by_half)
            by_half[h] = w[h] / k;
        if (w[h] < bw) {
            bw = w[h];
            best = h;
        }
    }
    return best;
}

static void bt_summary(BtRun *b, PlanBacktest *out)
{
    int n = b->n, G = b->G;
    double *ratio = xcalloc((size_t)n + 1, sizeof *ratio), *lr = xcalloc((size_t)n + 1, sizeof *lr);
    double *over = xcalloc((size_t)n + 1, sizeof *over);
    int nr = 0;
    out->cuts = xcalloc((size_t)n + 1, sizeof *out->cuts);
    out->ncuts = n;
    for (int i = 0; i < n; i++) {
        int h = choose_half(b, i, NULL);
        const double *f = b->f + ((size_t)i * DEM_NHALF + h) * (G + 1), *a = b->actual + (size_t)i * G,
                     *nv = b->naive + (size_t)i * G;
        PlanBtCut *k = &out->cuts[i];
        k->cut = b->cut[i];
        k->until = b->until[i];
        k->halflife = dem_halflives[h];
        k->wape_model = wape(f, a, G);
        k->wape_naive = wape(nv, a, G);
        k->actual = sum(a, G);
        k->model = f[G]; /* the groups' forecasts and the institute's new groups */
        k->naive = sum(nv, G);
        k->err_model = k->actual > 0 ? (k->model - k->actual) / k->actual : 0;
        k->err_naive = k->actual > 0 ? (k->naive - k->actual) / k->actual : 0;
        out->mean_wape_model += k->wape_model / n;
        out->mean_wape_naive += k->wape_naive / n;
        out->mae_model += fabs(k->err_model) / n;
        out->mae_naive += fabs(k->err_naive) / n;
        out->bias_model += k->err_model / n;
        out->bias_naive += k->err_naive / n;
        if (k->model > 0 && k->actual > 0) {
            ratio[nr] = k->actual / k->model;
            lr[nr] = log(ratio[nr]);
            over[nr] = k->actual / (k->model + b->pool[i]) - 1; /* use above expected + pool */
            nr++;
        }
    }
    out->calib.half = choose_half(b, -1, out->wape_by_half);
    out->calib.ncuts = nr;
    out->calib.q10 = nr ? backtest_percentile(lr, nr, 10) : NAN;
    out->calib.q90 = nr ? backtest_percentile(lr, nr, 90) : NAN;
    double bu = nr ? backtest_percentile(over, nr, BUFFER_Q) : 0;
    out->calib.buffer = nr >= PROJ_MIN_CUTS && bu > 0 ? bu : 0;
    out->ratio_p10 = nr ? backtest_percentile(ratio, nr, 10) : NAN;
    out->ratio_p50 = nr ? backtest_percentile(ratio, nr, 50) : NAN;
    out->ratio_p90 = nr ? backtest_percentile(ratio, nr, 90) : NAN;
    free(ratio);
    free(lr);
    free(over);
}

/* The per-group detail of cut i (the last one). */
static void bt_detail(const PlanCtx *c, const BtRun *b, int i, PlanBacktest *out)
{
    int G = b->G, h = demand_half_index(out->cuts[i].halflife);
    out->cut = b->cut[i];
    out->scored_until = b->until[i];
    out->scored_months = (double)(b->until[i] - b->cut[i]) / FEAT_MONTH_S;
    out->users = b->users[i];
    out->groups = xcalloc((size_t)G + 1, sizeof *out->groups);
    out->g = xcalloc((size_t)G + 1, sizeof *out->g);
    size_t nc = (size_t)b->n * G + 1;
    out->cut_model = xcalloc(nc, sizeof *out->cut_model);
    out->cut_actual = xcalloc(nc, sizeof *out->cut_actual);
    out->cut_naive = xcalloc(nc, sizeof *out->cut_naive);
    for (int k = 0; k < b->n; k++) {
        int hk = demand_half_index(out->cuts[k].halflife);
        memcpy(out->cut_model + (size_t)k * G, b->f + ((size_t)k * DEM_NHALF + hk) * (G + 1),
               (size_t)G * sizeof(double));
        memcpy(out->cut_actual + (size_t)k * G, b->actual + (size_t)k * G, (size_t)G * sizeof(double));
        memcpy(out->cut_naive + (size_t)k * G, b->naive + (size_t)k * G, (size_t)G * sizeof(double));
    }
    for (int g = 0; g < G; g++) {
        const double *f = b->f + ((size_t)i * DEM_NHALF + h) * (G + 1);
        out->groups[out->ngroups] = xstrdup(c->hgroups[g]);
        BtGroup *x = &out->g[out->ngroups++];
        x->before = b->naive[(size_t)i * G + g];
        x->after = b->actual[(size_t)i * G + g];
        x->model_base = f[g];
        x->model_demand = f[g] * (1 + out->calib.buffer);
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
    for (int i = 0; i < b->n; i++)
        bt_run_cut(p, c, b, i, leaves, onr);
    out->cpu = p->cpu;
    snprintf(out->ref_model, sizeof out->ref_model, "%s", p->ref_model);
    bt_summary(b, out);
    if (b->n > 0)
        bt_detail(c, b, b->n - 1, out);
    free(leaves);
    free(onr);
    return 0;
}

void plan_hist_free(PlanCtx *c)
{
    BtRun *b = c->hrun;
    if (!b)
        return;
    for (int i = 0; i < b->n; i++) {
        demand_fit_done(&b->fit[i]);
        demand_fit_done(&b->inner_fit[i]);
    }
    free(b->fit);
    free(b->inner_fit);
    free(b->cut);
    free(b->until);
    free(b->actual);
    free(b->naive);
    free(b->inner_act);
    free(b->naive_of);
    free(b->f);
    free(b->inner);
    free(b->users);
    free(b->pool);
    free(b->years);
    free(b);
    c->hrun = NULL;
}

/* What the pass computes: the backtest's fits and sums at each cut (one:
 * that cut alone), and with fit_t the fit at fit_t and each past year's
 * use. */
static PlanHistRun *hist_requests(PlanCtx *c, int64_t one, int64_t fit_t, PlanFeedReq **fits,
                                  int *nfits, PlanSumReq **sums, int *nsums)
{
    BtRun *b = xcalloc(1, sizeof *b);
    int G = b->G = c->hist.ngroups;
    b->one = one;
    b->n = list_cuts(c, one, &b->cut);
    size_t n = (size_t)b->n;
    b->fit = xcalloc(n + 1, sizeof *b->fit);
    b->inner_fit = xcalloc(n + 1, sizeof *b->inner_fit);
    b->until = xcalloc(n + 1, sizeof *b->until);
    b->actual = xcalloc(n * G + 1, sizeof *b->actual);
    b->naive = xcalloc(n * G + 1, sizeof *b->naive);
    b->inner_act = xcalloc(n * G + 1, sizeof *b->inner_act);
    b->naive_of = xcalloc(n + 1, sizeof *b->naive_of);
    b->f = xcalloc(n * DEM_NHALF * (G + 1) + 1, sizeof *b->f);
    b->inner = xcalloc(n * DEM_NHALF + 1, sizeof *b->inner);
    b->users = xcalloc(n + 1, sizeof *b->users);
    b->pool = xcalloc(n + 1, sizeof *b->pool);
    int64_t y1 = 0;
    if (fit_t && c->hist.njobs > 0 && c->data_end > c->hist.data_start) {
        b->y0 = plan_month_of(c->hist.data_start) / 100;
        y1 = plan_month_of(c->data_end - 1) / 100;
        b->nyears = (int)(y1 - b->y0 + 1);
    }
    b->years = xcalloc((size_t)b->nyears * G + 1, sizeof *b->years);
    *fits = xcalloc(2 * n + 2, sizeof **fits);
    *sums = xcalloc(3 * n + (size_t)b->nyears + 1, sizeof **sums);
    *nfits = *nsums = 0;
    int64_t first = plan_ym_start(plan_month_of(c->hist.data_start));
    for (int i = 0; i < b->n; i++) {
        int64_t until = plan_add_months(b->cut[i], 12), t = plan_add_months(b->cut[i], -INNER_MONTHS);
        b->until[i] = until < c->data_end ? until : c->data_end;
        (*fits)[(*nfits)++] = (PlanFeedReq){b->cut[i], 1, &b->fit[i]};
        int kept = 0;
        for (int k = 0; k < i; k++)
            kept |= b->cut[k] == t;
        if (!kept)
            (*fits)[(*nfits)++] = (PlanFeedReq){t, 0, &b->inner_fit[i]};
        (*sums)[(*nsums)++] = (PlanSumReq){b->cut[i], b->until[i], b->actual + (size_t)i * G};
        DemCut cut;
        plan_hist_months(b->cut[i], &cut);
        int64_t from = cut.mb[DEM_HISTORY - DEM_WINDOW];
        if (from < first)
            from = first; /* the months that exist */
        b->naive_of[i] = -1;
        for (int k = 0; k < i; k++)
            if (b->cut[k] == from && b->until[k] == b->cut[i])
                b->naive_of[i] = k;
        if (b->naive_of[i] < 0)
            (*sums)[(*nsums)++] = (PlanSumReq){from, b->cut[i], b->naive + (size_t)i * G};
        (*sums)[(*nsums)++] = (PlanSumReq){t, b->cut[i], b->inner_act + (size_t)i * G};
    }
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
