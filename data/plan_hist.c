/* plan_hist: model v2's job history read once (every final job with GPUs,
 * as GPU-eq: GPUs x the relative speed of its model in the inventory),
 * the fit at the plan's window end, and the rolling backtest
 * (data/plan.h, docs/planning.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/plan_int.h"

#define BT_MIN_HISTORY 6 /* months of data a cut needs before it */
#define BT_DEFAULT_HALF 2 /* 6 months while no earlier cut is scored */
#define BUFFER_Q 80.0

/* ---- GPU-eq ---- */

/* The speed of (cluster, type): the inventory's model of that name on that
 * cluster, else on any cluster, else the cluster's most common model
 * (*guessed = 1), else 1. */
static double kind_speed(const StorePlanGpus *inv, size_t n, const StorePlanKind *k, int *guessed)
{
    double any = -1, best = -1, best_n = -1;
    *guessed = 0;
    for (size_t i = 0; i < n; i++) {
        double sp = inv[i].speed > 0 ? inv[i].speed : 1;
        if (k->type[0] && strcasecmp(inv[i].model, k->type) == 0) {
            if (strcmp(inv[i].cluster, k->cluster) == 0)
                return sp;
            any = sp;
        }
        if (strcmp(inv[i].cluster, k->cluster) == 0 && inv[i].gpus > best_n) {
            best_n = inv[i].gpus;
            best = sp;
        }
    }
    if (any > 0)
        return any;
    *guessed = n > 0;
    return best > 0 ? best : 1;
}

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

static int hist_group(PlanCtx *c, const char *name)
{
    int64_t g;
    if (strmap_get(c->hgidx, name, strlen(name), &g))
        return (int)g;
    c->hgroups = xrealloc(c->hgroups, (size_t)(c->hist.ngroups + 1) * sizeof *c->hgroups);
    c->hgroups[c->hist.ngroups] = xstrdup(name);
    strmap_put(c->hgidx, name, strlen(name), c->hist.ngroups);
    return c->hist.ngroups++;
}

/* The hist group of a job of (user, account): the roster's or the
 * account's, remembered per user for their last account (ucache: users.n
 * pairs, account -2 none) so that a million jobs cost a few lookups. */
static int job_group(PlanCtx *c, int64_t (*ucache)[2], int64_t user, int64_t account)
{
    if (user < 0 || user >= c->users.n)
        return hist_group(c, plan_group_of(c, user, account));
    if (ucache[user][0] != account) {
        ucache[user][0] = account;
        ucache[user][1] = hist_group(c, plan_group_of(c, user, account));
    }
    return (int)ucache[user][1];
}

/* The jobs as they stream from store_plan_use_each, into c->hjobs. */
typedef struct HistRead {
    Plan *p;
    PlanCtx *c;
    const StorePlanGpus *inv;
    size_t ninv;
    double *speed; /* per kind named so far */
    int *guessed;
    size_t nk, n, cap;
    int64_t (*ucache)[2];
} HistRead;

static void hist_sized(void *ctx, size_t n)
{
    HistRead *r = ctx;
    if (n + 1 > r->cap) {
        r->cap = n + 1;
        r->c->hjobs = xrealloc(r->c->hjobs, r->cap * sizeof *r->c->hjobs);
    }
}

static void hist_kinds(HistRead *r, const StorePlanKind *kinds, size_t nkinds)
{
    if (nkinds <= r->nk)
        return;
    r->speed = xrealloc(r->speed, nkinds * sizeof *r->speed);
    r->guessed = xrealloc(r->guessed, nkinds * sizeof *r->guessed);
    for (size_t k = r->nk; k < nkinds; k++) {
        r->guessed[k] = 0;
        r->speed[k] = r->p->cpu ? 1 : kind_speed(r->inv, r->ninv, &kinds[k], &r->guessed[k]);
    }
    r->nk = nkinds;
}

static void hist_rows(void *ctx, const StorePlanUse *rows, size_t n, const StorePlanKind *kinds,
                      size_t nkinds)
{
    HistRead *r = ctx;
    PlanCtx *c = r->c;
    hist_kinds(r, kinds, nkinds);
    if (r->n + n + 1 > r->cap) {
        r->cap = (r->n + n + 1) * 2;
        c->hjobs = xrealloc(c->hjobs, r->cap * sizeof *c->hjobs);
    }
    for (size_t i = 0; i < n; i++) {
        const StorePlanUse *u = &rows[i];
        if (r->n == 0) {
            c->hist.data_start = u->start;
            c->data_end = u->end; /* the latest end of a run */
        }
        if (u->start < c->hist.data_start)
            c->hist.data_start = u->start;
        if (u->end > c->data_end)
            c->data_end = u->end;
        DemJob *j = &c->hjobs[r->n++];
        j->user = (int32_t)u->user_id;
        j->group = job_group(c, r->ucache, u->user_id, u->account_id);
        j->elig = u->elig;
        j->start = u->start;
        j->end = u->end;
        j->eq = u->gpus * r->speed[u->kind];
        r->p->unflagged_speed += r->guessed[u->kind];
    }
}

int plan_hist_load(Store *st, Plan *p, PlanCtx *c, int64_t roster_t, int64_t fit_t,
                   CpErr *err)
{
    StorePlanGpus *inv = NULL;
    size_t ninv = 0;
    if (!c->hgidx)
        c->hgidx = strmap_new();
    if (!p->cpu && store_plan_inventory(st, &inv, &ninv, err) < 0)
        return -1;
    read_models(p, c, inv, ninv);
    read_fleet(c, inv, ninv);
    int cacheable = c->nocache ? 0
                               : plan_cache_key(st, p, c, inv, ninv, roster_t, fit_t, c->cache_key,
                                                sizeof c->cache_key, err);
    if (cacheable < 0) {
        store_plan_inventory_free(inv, ninv);
        return -1;
    }
    if (cacheable && plan_cache_load(st, c->cache_key, p, c, fit_t != 0)) {
        c->cached = 1;
        store_plan_inventory_free(inv, ninv);
        for (int i = 0; i < c->fit.nactive; i++)
            plan_group_add(p, c->gidx, c->hgroups[c->fit.users[i].group]);
        return 0;
    }
    c->cache_save = cacheable;
    HistRead r = {p, c, inv, ninv, NULL, NULL, 0, 0, 0, NULL};
    r.ucache = xmalloc(((size_t)c->users.n + 1) * sizeof *r.ucache);
    for (int64_t u = 0; u < c->users.n; u++)
        r.ucache[u][0] = -2;
    c->hist.data_start = 0;
    c->data_end = INT64_MIN;
    StorePlanUseVisit v = {hist_sized, hist_rows, &r};
    int rc = store_plan_use_each(st, p->cpu, &v, err);
    free(r.ucache);
    free(r.speed);
    free(r.guessed);
    store_plan_inventory_free(inv, ninv);
    if (rc < 0)
        return -1;
    if (!c->hjobs)
        c->hjobs = xcalloc(1, sizeof *c->hjobs);
    c->hist.jobs = c->hjobs;
    c->hist.njobs = r.n;
    c->hist.nusers = (int)c->users.n;
    size_t ns = demand_nspans(r.n);
    c->hspans = xmalloc((2 * ns + 1) * sizeof *c->hspans);
    demand_spans(&c->hist, c->hspans, c->hspans + ns);
    c->hist.span_end = c->hspans;
    c->hist.span_start = c->hspans + ns;
    return fit_t ? plan_hist_fit(p, c) : 0;
}

/* ---- one cut ---- */

void plan_hist_cut(PlanCtx *c, int64_t t0, DemCut *cut, int64_t *leaves, int *on_roster)
{
    for (int m = 0; m <= DEM_HISTORY; m++)
        cut->mb[m] = plan_add_months(t0, m - DEM_HISTORY);
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
    DemCut cut;
    int64_t *leaves = xcalloc((size_t)c->users.n + 1, sizeof *leaves);
    int *onr = xcalloc((size_t)c->users.n + 1, sizeof *onr);
    plan_hist_cut(c, p->win_end, &cut, leaves, onr);
    demand_fit(&c->hist, &cut, 1, &c->fit);
    for (int i = 0; i < c->fit.nactive; i++)
        plan_group_add(p, c->gidx, c->hgroups[c->fit.users[i].group]);
    free(leaves);
    free(onr);
    return 0;
}

/* ---- the rolling backtest ---- */

typedef struct BtRun {
    int n;                   /* cuts */
    int G;
    double *f;               /* n x DEM_NHALF x G forecasts */
    double *actual, *naive;  /* n x G */
    double *inner;           /* n x DEM_NHALF: WAPE of the last 3 months before the cut,
                                forecast from 3 months before */
    int64_t *cut, *until;
    int *users;
    double *pool;            /* n: the institute's pool at each cut */
    DemFit keep[3];          /* the fits of the last BT_KEEP cuts (bt_kept) */
    int64_t keep_t[3];
} BtRun;

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

/* The fits of the last BT_KEEP cuts: the inner validation at cut i refits
 * at cut i - INNER_MONTHS, i.e. cut i - 2, already fitted (with pools, which
 * it does not use: zeroed, the fit is demand_fit's without them). */
#define BT_KEEP 3

static const DemFit *bt_kept(const BtRun *b, int64_t t)
{
    for (int k = 0; k < BT_KEEP; k++)
        if (b->keep_t[k] == t && b->keep[k].groups)
            return &b->keep[k];
    return NULL;
}

/* The inner validation at cut i: refit 3 months before it, score each
 * half-life's forecast on those 3 months (all known at the cut). */
static void bt_inner(const Plan *p, PlanCtx *c, BtRun *b, int i, int64_t *leaves, int *onr)
{
    int G = b->G;
    int64_t t = plan_add_months(b->cut[i], -INNER_MONTHS);
    DemCut cut;
    DemFit f;
    double *fc = xcalloc((size_t)G + 2, sizeof *fc), *act = xcalloc((size_t)G + 1, sizeof *act);
    plan_hist_cut(c, t, &cut, leaves, onr);
    const DemFit *kept = bt_kept(b, t);
    DemGroup *groups = NULL;
    if (kept) { /* the same fit, less its pools */
        f = *kept;
        groups = xmalloc(((size_t)f.ngroups + 1) * sizeof *groups);
        memcpy(groups, kept->groups, (size_t)f.ngroups * sizeof *groups);
        for (int g = 0; g < f.ngroups; g++)
            groups[g].burst_mean = groups[g].pool = 0;
        f.groups = groups;
        f.pool_inst = f.pool_sum = 0;
    } else {
        demand_fit(&c->hist, &cut, 0, &f);
    }
    demand_actual(&c->hist, t, b->cut[i], act);
    for (int h = 0; h < DEM_NHALF; h++) {
        forecast(p, c, &f, t, leaves, h, fc);
        b->inner[(size_t)i * DEM_NHALF + h] = wape(fc, act, G);
    }
    if (kept)
        free(groups);
    else
        demand_fit_done(&f);
    free(fc);
    free(act);
}

/* Use of [from, to) per group into out: a copy of an earlier cut's actual
 * use over the same months (the naive forecast of cut i is what cut i - 12
 * scored), else summed. */
static void bt_use(const PlanCtx *c, const BtRun *b, int i, int64_t from, int64_t to, double *out)
{
    for (int k = 0; k < i; k++)
        if (b->cut[k] == from && b->until[k] == to) {
            memcpy(out, b->actual + (size_t)k * b->G, (size_t)b->G * sizeof *out);
            return;
        }
    demand_actual(&c->hist, from, to, out);
}

static void bt_run_cut(const Plan *p, PlanCtx *c, BtRun *b, int i, int64_t *leaves, int *onr)
{
    int G = b->G;
    DemCut cut;
    DemFit *f = &b->keep[i % BT_KEEP];
    demand_fit_done(f);
    plan_hist_cut(c, b->cut[i], &cut, leaves, onr);
    demand_fit(&c->hist, &cut, 1, f);
    b->keep_t[i % BT_KEEP] = b->cut[i];
    b->pool[i] = f->pool_inst;
    for (int h = 0; h < DEM_NHALF; h++)
        forecast(p, c, f, b->cut[i], leaves, h, b->f + ((size_t)i * DEM_NHALF + h) * (G + 1));
    b->users[i] = f->nactive;
    int64_t until = plan_add_months(b->cut[i], 12);
    b->until[i] = until < c->data_end ? until : c->data_end;
    demand_actual(&c->hist, b->cut[i], b->until[i], b->actual + (size_t)i * G);
    int64_t from = cut.mb[DEM_HISTORY - DEM_WINDOW];
    int64_t first = plan_ym_start(plan_month_of(c->hist.data_start));
    if (from < first)
        from = first; /* the months that exist */
    bt_use(c, b, i, from, b->cut[i], b->naive + (size_t)i * G);
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
    (void)err;
    BtRun b;
    memset(&b, 0, sizeof b);
    b.G = c->hist.ngroups;
    b.n = list_cuts(c, one, &b.cut);
    size_t nu = (size_t)c->users.n + 1;
    int64_t *leaves = xcalloc(nu, sizeof *leaves);
    int *onr = xcalloc(nu, sizeof *onr);
    b.f = xcalloc((size_t)b.n * DEM_NHALF * (b.G + 1) + 1, sizeof *b.f);
    b.actual = xcalloc((size_t)b.n * b.G + 1, sizeof *b.actual);
    b.naive = xcalloc((size_t)b.n * b.G + 1, sizeof *b.naive);
    b.inner = xcalloc((size_t)b.n * DEM_NHALF + 1, sizeof *b.inner);
    b.pool = xcalloc((size_t)b.n + 1, sizeof *b.pool);
    b.until = xcalloc((size_t)b.n + 1, sizeof *b.until);
    b.users = xcalloc((size_t)b.n + 1, sizeof *b.users);
    for (int i = 0; i < b.n; i++)
        bt_run_cut(p, c, &b, i, leaves, onr);
    out->cpu = p->cpu;
    snprintf(out->ref_model, sizeof out->ref_model, "%s", p->ref_model);
    bt_summary(&b, out);
    if (b.n > 0)
        bt_detail(c, &b, b.n - 1, out);
    for (int k = 0; k < BT_KEEP; k++)
        demand_fit_done(&b.keep[k]);
    free(leaves);
    free(onr);
    free(b.f);
    free(b.actual);
    free(b.naive);
    free(b.inner);
    free(b.pool);
    free(b.cut);
    free(b.until);
    free(b.users);
    return 0;
}

/* ---- past years on the projection's scale ---- */

void plan_hist_years(Plan *p, const PlanCtx *c, const ProjGpus *gpus, int ngpus)
{
    if (c->hist.njobs == 0 || c->data_end <= c->hist.data_start)
        return;
    int64_t y0 = plan_month_of(c->hist.data_start) / 100, y1 = plan_month_of(c->data_end - 1) / 100;
    double *act = xcalloc((size_t)c->hist.ngroups + 1, sizeof *act);
    p->year_use = xcalloc((size_t)(y1 - y0 + 1), sizeof *p->year_use);
    for (int64_t y = y0; y <= y1; y++) {
        int64_t a = plan_ym_start(y * 100 + 1), b = plan_ym_start((y + 1) * 100 + 1);
        int64_t lo = a > c->hist.data_start ? a : c->hist.data_start;
        int64_t hi = b < c->data_end ? b : c->data_end;
        PlanYearUse *u = &p->year_use[p->nyear_use++];
        u->year = (int)y;
        u->months = (double)(hi - lo) / FEAT_MONTH_S;
        demand_actual(&c->hist, lo, hi, act);
        for (int g = 0; g < c->hist.ngroups; g++)
            u->used += act[g];
        for (int i = 0; i < ngpus; i++) {
            int64_t f = gpus[i].from > lo ? gpus[i].from : lo, t = gpus[i].to < hi ? gpus[i].to : hi;
            if (t > f)
                u->capacity += gpus[i].gpus * gpus[i].speed * (double)(t - f) / (double)(hi - lo);
        }
    }
    free(act);
}
