/* report_decide: the report's first page, before section 1: today's use
 * and capacity, the need of each projected year with its p10-p90 range,
 * the gap per GPU memory class, the GPUs to buy in which year to cover the
 * p80 need (docs/reports.md, "The first page"), and how sure it is. Every
 * figure is the projection's (`capplan project --json`) or the rolling
 * backtest's (`capplan project --backtest --json`); nothing from data but
 * GPU model names reaches the page. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "data/ingest/catalog.h"
#include "reports/mdw.h"
#include "reports/report_int.h"

#define NB 64

/* A GPU one could buy: the catalog's, else an inventory model. */
typedef struct Cand {
    const char *name;
    double speed, mem_gib, tdp_w, price; /* tdp_w, price -1: unknown */
    const char *currency;
} Cand;

static const char *unit_of(const Report *r)
{
    return r->plan->cpu ? "CPUs" : "GPU-eq";
}

/* The candidates: the catalog (capplan import catalog), else the
 * inventory's models. Caller frees the array. */
static Cand *candidates(const Report *r, int *n)
{
    const ProjModel *m = r->plan->model;
    int nm = r->ncatalog ? (int)r->ncatalog : projection_nmodels(m);
    Cand *c = xcalloc((size_t)nm + 1, sizeof *c);
    for (int i = 0; i < nm; i++) {
        if (r->ncatalog) {
            const CatalogGpu *g = &r->catalog[i];
            c[i] = (Cand){g->model, g->relative_speed, g->mem_gib, g->tdp_w, g->price,
                          g->currency};
        } else {
            const ProjModelInfo *mi = projection_model_info(m, i);
            c[i] = (Cand){mi->name, mi->speed > 0 ? mi->speed : 1, mi->mem_gib, -1, -1, ""};
        }
    }
    *n = nm;
    return c;
}

/* The candidate that serves memory class k: one whose memory fits the
 * class (its own class k or above; any for unknown), the lowest price per
 * GPU-eq among those with a price, else the smallest memory class, then
 * the fastest, then the first name. -1 when none fits. */
static int pick(const Cand *c, int n, int k)
{
    int best = -1;
    for (int i = 0; i < n; i++) {
        int ci = profiles_mem_class(c[i].mem_gib);
        if (c[i].speed <= 0 || (k != MEMCLASS_UNKNOWN && (ci == MEMCLASS_UNKNOWN || ci < k)))
            continue;
        if (best < 0) {
            best = i;
            continue;
        }
        const Cand *a = &c[i], *b = &c[best];
        double pa = a->price >= 0 ? a->price / a->speed : INFINITY;
        double pb = b->price >= 0 ? b->price / b->speed : INFINITY;
        int ca = profiles_mem_class(a->mem_gib), cb = profiles_mem_class(b->mem_gib);
        int better = pa != pb         ? pa < pb
                     : ca != cb       ? ca < cb
                     : a->speed != b->speed ? a->speed > b->speed
                                      : strcmp(a->name, b->name) < 0;
        if (better)
            best = i;
    }
    return best;
}

/* The factor from a figure of year y to its p80: e^(q80 sqrt y); 1 when
 * not calibrated. */
static double p80_factor(const Report *r, int y)
{
    return isnan(r->bts.q80) ? 1 : exp(r->bts.q80 * sqrt((double)y));
}

static void today(const Report *r, FILE *out)
{
    const Plan *p = r->plan;
    const char *u = unit_of(r);
    if (p->cpu)
        fprintf(out, "No job holds a GPU: CPUs stand in for GPUs throughout. ");
    else {
        fprintf(out, "All figures in GPU-eq: GPUs x relative speed, reference model ");
        mdw_text(out, p->ref_model);
        fprintf(out, " = 1.0. ");
    }
    if (p->nyear_use > 0) {
        const PlanYearUse *y = &p->year_use[p->nyear_use - 1];
        char a[NB], b[NB], m[NB];
        mdw_num(a, NB, y->used, 2, u);
        mdw_num(b, NB, y->capacity, 2, u);
        mdw_num(m, NB, y->months, 1, "months");
        fprintf(out, "**Today** (%d, %s of data): use %s on average against a capacity of %s.",
                y->year, m, a, b);
    }
    fputs("\n\n", out);
}

static void need_table(const Report *r, FILE *out)
{
    const char *u = unit_of(r);
    static const char *const titles[] = {"Year", "Need", "Need p10-p90", "Need p80",
                                         "Capacity", "Gap at p80"};
    mdw_head(out, titles, "lrrrrr", 6);
    for (int y = 1; y <= r->res->nyears; y++) {
        const ProjTotals *t = &r->res->total[y - 1];
        char yl[NB], c[5][NB];
        rpt_proj_year(r, y, RPT_YEAR_SHORT, yl, sizeof yl);
        mdw_num(c[0], NB, t->demand, 2, u);
        plan_range_text(t->demand_r, u, c[1], NB);
        mdw_num(c[2], NB, t->demand * p80_factor(r, y), 2, u);
        mdw_num(c[3], NB, t->capacity, 2, u);
        mdw_num(c[4], NB, t->demand * p80_factor(r, y) - t->capacity, 2, u);
        const char *cells[] = {yl, c[0], c[1], c[2], c[3], c[4]};
        mdw_row(out, cells, 6);
    }
    fputc('\n', out);
}

static void class_gaps(const Report *r, FILE *out)
{
    const char *u = unit_of(r);
    fprintf(out, "Gap (need - capacity; negative: spare) per GPU memory class, %s:\n\n", u);
    const char *titles[MEMCLASS_COUNT + 1] = {"Year"};
    char tt[MEMCLASS_COUNT][32], align[MEMCLASS_COUNT + 2] = "l";
    for (int k = 0; k < MEMCLASS_COUNT; k++) {
        snprintf(tt[k], sizeof tt[k], k == MEMCLASS_UNKNOWN ? "Unknown"
                                      : k == MEMCLASS_GT80  ? "Over 80 GiB"
                                                            : "To %s GiB",
                 profiles_mem_class_name(k));
        titles[k + 1] = tt[k];
        align[k + 1] = 'r';
    }
    mdw_head(out, titles, align, MEMCLASS_COUNT + 1);
    for (int y = 1; y <= r->res->nyears; y++) {
        char yl[NB], c[MEMCLASS_COUNT][NB];
        const char *cells[MEMCLASS_COUNT + 1];
        rpt_proj_year(r, y, RPT_YEAR_SHORT, yl, sizeof yl);
        cells[0] = yl;
        for (int k = 0; k < MEMCLASS_COUNT; k++) {
            mdw_num(c[k], NB, r->res->total[y - 1].gap_c[k], 2, u);
            cells[k + 1] = c[k];
        }
        mdw_row(out, cells, MEMCLASS_COUNT + 1);
    }
    fputc('\n', out);
}

/* GPUs of the class-k candidate to have bought by year y: the p80 gap of
 * every year up to y over its speed, rounded up (bought GPUs stay). */
static int bought_by(const Report *r, int k, int y, double speed)
{
    int n = 0;
    for (int j = 1; j <= y; j++) {
        const ProjTotals *t = &r->res->total[j - 1];
        double gap = t->demand_c[k] * p80_factor(r, j) - t->capacity_c[k];
        int need = gap > 0 ? (int)ceil(gap / speed - 1e-9) : 0;
        if (need > n)
            n = need;
    }
    return n;
}

static void money(char *buf, size_t n, double v, const char *currency)
{
    mdw_num(buf, n, v, 0, currency && currency[0] ? currency : "");
}

/* One purchase row; adds its cost and power to the totals (NAN once one
 * is unknown). */
static void buy_row(const Report *r, FILE *out, int y, int k, const Cand *c, int count,
                    double *cost, double *kw)
{
    char yl[NB], n[NB], eq[NB], co[NB], pw[NB];
    rpt_proj_year(r, y, RPT_YEAR_SHORT, yl, sizeof yl);
    snprintf(n, sizeof n, "%d", count);
    mdw_num(eq, NB, count * c->speed, 2, unit_of(r));
    double cv = c->price >= 0 ? count * c->price : NAN;
    double pv = c->tdp_w >= 0 ? count * c->tdp_w / 1000 : NAN;
    money(co, NB, cv, c->currency);
    mdw_num(pw, NB, pv, 1, "kW");
    *cost += cv;
    *kw += pv;
    char cls[32];
    snprintf(cls, sizeof cls, "%s", profiles_mem_class_name(k));
    const char *cells[] = {yl, cls, c->name, n, eq, co, pw};
    mdw_row(out, cells, 7);
}

static void recommendation(const Report *r, FILE *out)
{
    fprintf(out, "### Covering the p80 need (the forecaster's need, for comparison)\n\n");
    if (r->plan->cpu) {
        fprintf(out, "No recommendation in GPUs: the data holds no GPU job.\n\n");
        return;
    }
    int nc;
    Cand *c = candidates(r, &nc);
    fprintf(out, "GPUs of the %s covering the p80 need per year and memory class (the GPU "
                 "with enough memory and the lowest price per GPU-eq, else the smallest memory, "
                 "the fastest; bought GPUs stay, no class covers another):\n\n",
            r->ncatalog ? "catalog" : "inventory's models (no catalog: no price or power)");
    static const char *const titles[] = {"Year", "Memory class (GiB)", "Model", "GPUs",
                                         "Adds", "Cost", "Power"};
    double cost = 0, kw = 0;
    int rows = 0, missing = -1;
    const char *cur = nc > 0 ? c[0].currency : "";
    for (int y = 1; y <= r->res->nyears; y++)
        for (int k = 0; k < MEMCLASS_COUNT; k++) {
            int i = pick(c, nc, k);
            if (i < 0) {
                if (bought_by(r, k, y, 1) > 0 && missing < 0)
                    missing = k;
                continue;
            }
            int now = bought_by(r, k, y, c[i].speed), before = bought_by(r, k, y - 1, c[i].speed);
            if (now <= before)
                continue;
            if (rows++ == 0)
                mdw_head(out, titles, "lllrrrr", 7);
            buy_row(r, out, y, k, &c[i], now - before, &cost, &kw);
        }
    if (rows) {
        char co[NB], pw[NB];
        money(co, NB, cost, cur);
        mdw_num(pw, NB, kw, 1, "kW");
        const char *cells[] = {"total", "", "", "", "", co, pw};
        mdw_row(out, cells, 7);
        fputc('\n', out);
    } else
        fprintf(out, "Nothing to buy: capacity covers the p80 need in every year and class.\n\n");
    if (missing >= 0)
        fprintf(out, "No candidate has the memory of the %s GiB class: its gap is left open.\n\n",
                profiles_mem_class_name(missing));
    free(c);
}

static void band_cell(char *buf, size_t n, const SimBand *b)
{
    snprintf(buf, n, "%.1f-%.1f", b->lo, b->hi);
}

/* One option's row: name, GPUs, cost, power, p90, its range, mean. */
static void option_row(FILE *out, const char *name, const char *gpus, const char *cost,
                       const char *kw, const SimFleetWaits *w)
{
    char p90[NB], rg[NB], mean[NB];
    mdw_num(p90, NB, w->p90.mid, 1, "");
    band_cell(rg, NB, &w->p90);
    mdw_num(mean, NB, w->mean.mid, 1, "");
    const char *cells[] = {name, gpus, cost, kw, p90, rg, mean};
    mdw_row(out, cells, 7);
}

static void purchase_row(FILE *out, const SimNext *nx)
{
    const SimPurchase *b = &nx->buy;
    char name[160], gpus[NB], cost[NB], kw[NB], d[NB];
    int64_t y;
    int m, dd;
    civil_from_days(b->arrives / 86400, &y, &m, &dd);
    snprintf(d, NB, "%04d-%02d-%02d", (int)y, m, dd);
    snprintf(name, sizeof name, "Buy %s, arriving %s (quarter %d)", b->model, d, b->quarter);
    snprintf(gpus, NB, "%d", b->count);
    money(cost, NB, b->cost >= 0 ? b->cost : NAN, b->currency);
    mdw_num(kw, NB, b->kw >= 0 ? b->kw : NAN, 1, "kW");
    option_row(out, name, gpus, cost, kw, &b->w);
}

/* The verdict under the options: why there is or is no purchase. */
static void verdict(const SimNext *nx, FILE *out)
{
    if (nx->cpu)
        fprintf(out, "No job holds a GPU: nothing from the GPU catalog is recommended.\n\n");
    else if (nx->policy)
        fprintf(out, "**No purchase.** %.0f %% of the last 12 months' recorded waiting passed "
                     "while GPUs the job could use stood idle: these waits are policy (limits, "
                     "fair share, holds), not capacity, and buying GPUs will not shorten them.\n\n",
                100 * nx->idle_share);
    else if (nx->meets_nothing)
        fprintf(out, "**Recommendation: buy nothing**; it meets the target.\n\n");
    else if (!nx->buy.found)
        fprintf(out, "No purchase of up to %d GPUs of one catalog model meets the target.\n\n",
                SIMULATE_MAX_GPUS);
    else {
        fprintf(out, "**Recommendation: buy %d ", nx->buy.count);
        mdw_text(out, nx->buy.model);
        fprintf(out, "** (the cheapest catalog purchase meeting the target; +%.1f GPU-eq over %d "
                     "cluster%s, in the latest quarter that still meets it).\n\n",
                nx->buy.gpu_eq, nx->buy.nsplit, nx->buy.nsplit == 1 ? "" : "s");
    }
}

static void curve_line(const SimNext *nx, FILE *out)
{
    if (!nx->ncurve)
        return;
    fprintf(out, "Capacity curve (");
    mdw_text(out, nx->curve_model);
    fprintf(out, " added at next year's start; GPU-eq added: p90 wait, range over replicas):");
    for (int k = 0; k < nx->ncurve; k++) {
        const SimCurvePt *p = &nx->curve[k];
        fprintf(out, "%s %.0f: %.1f h (%.1f-%.1f)", k ? ";" : "", p->gpu_eq, p->w.p90.mid,
                p->w.p90.lo, p->w.p90.hi);
    }
    fprintf(out, ". Sensitivity: +10 %% capacity on the last 12 months replayed moves the mean "
                 "wait from %.2f h to %.2f h.\n\n",
            nx->last_sim.mean_h, nx->last_plus10.mean_h);
}

/* What each option does to waiting: the last 12 months recorded, buying
 * nothing and the recommendation next year (`capplan simulate`). */
static void waiting(const Report *r, FILE *out)
{
    fprintf(out, "### What each option does to waiting\n\n");
    const SimNext *nx = r->sim;
    if (!nx) {
        fprintf(out, "Not simulated: ");
        mdw_text(out, r->sim_why);
        fprintf(out, ".\n\n");
        return;
    }
    fprintf(out, "Next year's queue simulated (`capplan simulate`, docs/simulate.md): each "
                 "group's jobs of the last 12 months resampled to the forecaster's expected use "
                 "(%.1f -> %.1f %s), %d replicas, FCFS with EASY backfill per cluster. Target: "
                 "p90 wait at most %.1f h (%s). Purchases from the %s catalog.\n\n",
            nx->use_last, nx->use_next, unit_of(r), SIMULATE_REPLICAS, nx->target_h,
            nx->target_given ? "given" : "the last 12 months' recorded p90",
            nx->builtin_catalog ? "reference (" CATALOG_BUILTIN_DATE ")" : "imported");
    static const char *const titles[] = {"Option (next year)", "GPUs", "Cost", "Power",
                                         "p90 wait (h)", "p90 range (h)", "Mean wait (h)"};
    mdw_head(out, titles, "lrrrrrr", 7);
    char p90[NB], mean[NB];
    mdw_num(p90, NB, nx->last.p90_h, 1, "");
    mdw_num(mean, NB, nx->last.mean_h, 1, "");
    const char *last[] = {"Last 12 months, recorded", "", "", "", p90, "", mean};
    mdw_row(out, last, 7);
    option_row(out, "Buy nothing", "0", "0", "0.0 kW", &nx->nothing);
    if (nx->buy.found)
        purchase_row(out, nx);
    fputc('\n', out);
    verdict(nx, out);
    curve_line(nx, out);
}

static void how_sure(const Report *r, FILE *out)
{
    const RBtSummary *b = &r->bts;
    fprintf(out, "**How sure.** ");
    if (b->ncuts < PROJ_MIN_CUTS) {
        fprintf(out, "Not calibrated: the rolling backtest scored %d cuts (%d needed), so the "
                     "need has no range and its p80 is the need itself. Treat the figures as "
                     "the model's best guess, with no measured error.\n\n",
                b->ncuts, PROJ_MIN_CUTS);
        return;
    }
    const ProjCalib *cal = projection_calib(r->plan->model);
    double lo = 100 * (exp(cal->q10) - 1), hi = 100 * (exp(cal->q90) - 1);
    char within[96];
    if ((lo < 0) == (hi < 0))
        snprintf(within, sizeof within, "%.0f %% and %.0f %% %s", fabs(lo), fabs(hi),
                 hi < 0 ? "below" : "above");
    else
        snprintf(within, sizeof within, "%.0f %% below and %.0f %% above", fabs(lo), hi);
    fprintf(out, "The model was refit at %d monthly cuts of the past, each scored on the year "
                 "after: the total's forecast missed by %.0f %% on average; in the mean it %s "
                 "by %.1f %% (its bias). In 8 of 10 cuts use fell between %s the forecast (the "
                 "p10-p90, widened with the square root of the year); the p80 is %.0f %% %s the "
                 "need in year 1.\n\n",
            b->ncuts, 100 * b->mae, b->bias < 0 ? "under-forecast" : "over-forecast",
            100 * fabs(b->bias), within, fabs(100 * (exp(b->q80) - 1)),
            b->q80 < 0 ? "below" : "above");
}

int rpt_first_page(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    (void)dir, (void)rel, (void)err;
    fprintf(out, "## %s\n\n", RPT_FIRST_TITLE);
    today(r, out);
    fprintf(out, "Need (expected use + pool + buffer) per projected year, with its p10-p90 "
                 "range and p80 from the rolling backtest, against capacity (with the "
                 "scenario's purchases):\n\n");
    need_table(r, out);
    waiting(r, out);
    class_gaps(r, out);
    recommendation(r, out);
    how_sure(r, out);
    return 0;
}
