/* report_decide: the report's first page, before section 1: today's use
 * and capacity, the need of each projected year with its p10-p90 range,
 * what buying nothing and the recommended purchase do to next year's waits
 * (`capplan simulate`: the one purchase the report, purchase.csv and the
 * workbook name; docs/reports.md, "The first page"), and how sure it is. Every
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

static const char *unit_of(const Report *r)
{
    return r->plan->cpu ? "CPUs" : "GPU-eq";
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
        fprintf(out, "All figures in GPU-eq: GPUs x relative speed (the reference model = 1.0, "
                     "section 1). ");
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

static void money(char *buf, size_t n, double v, const char *currency)
{
    mdw_num(buf, n, v, 0, currency && currency[0] ? currency : "");
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

void rpt_sim_line(const Report *r, FILE *out)
{
    const SimNext *nx = r->sim;
    if (!nx) {
        fprintf(out, "Next year not simulated: ");
        mdw_text(out, r->sim_why);
        fprintf(out, ".\n\n");
        return;
    }
    fprintf(out, "Next year simulated (the first page, `capplan simulate`): buy nothing, p90 "
                 "wait %.1f h (%.1f-%.1f); ",
            nx->nothing.p90.mid, nx->nothing.p90.lo, nx->nothing.p90.hi);
    if (nx->buy.found) {
        fprintf(out, "buy %d ", nx->buy.count);
        mdw_text(out, nx->buy.model);
        fprintf(out, " (quarter %d), p90 wait %.1f h (%.1f-%.1f); ", nx->buy.quarter,
                nx->buy.w.p90.mid, nx->buy.w.p90.lo, nx->buy.w.p90.hi);
    }
    fprintf(out, "target %.1f h. ", nx->target_h);
    verdict(nx, out);
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

/* Issue 28: the members' stated needs are a named part of the need; when
 * year 1 has some, the first page says so and how much. */
static void stated_part(const Report *r, FILE *out)
{
    double st = r->res->nyears > 0 ? r->res->total[0].stated : 0;
    if (!(st > 0.005))
        return;
    char a[NB];
    mdw_num(a, NB, st, 2, unit_of(r));
    fprintf(out, " + members' stated needs beyond their expected use, %s in year 1", a);
}

int rpt_first_page(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    (void)dir, (void)rel, (void)err;
    fprintf(out, "## %s\n\n", RPT_FIRST_TITLE);
    today(r, out);
    fprintf(out, "Need (expected use + pool + buffer");
    stated_part(r, out);
    fprintf(out, ") per projected year, with its p10-p90 range and p80 from the rolling "
                 "backtest, against capacity (with the scenario's purchases):\n\n");
    need_table(r, out);
    waiting(r, out);
    how_sure(r, out);
    return 0;
}
