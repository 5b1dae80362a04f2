/* simulate_next_print: `capplan simulate` (next year) as text and JSON.
 * Printing only: the figures come from data/plan/simulate_next. */
#include "cli/simulate_next_print.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "data/ingest/catalog.h"

static void band_text(const SimBand *b, char *buf, size_t n)
{
    snprintf(buf, n, "%.1f h (%.1f-%.1f)", b->mid, b->lo, b->hi);
}

static void waits_line(const char *what, const SimFleetWaits *w, FILE *out)
{
    char p90[64], mean[64];
    band_text(&w->p90, p90, sizeof p90);
    band_text(&w->mean, mean, sizeof mean);
    fprintf(out, "%s: p90 wait %s, mean %s, p50 %.1f h\n", what, p90, mean, w->p50.mid);
}

static void quarter_text(const SimPurchase *b, char *buf, size_t n)
{
    char d[16];
    plan_cli_date(b->arrives, d, sizeof d);
    snprintf(buf, n, "quarter %d of next year (%s)", b->quarter, d);
}

static void purchase_text(const SimNext *nx, FILE *out)
{
    const SimPurchase *b = &nx->buy;
    if (nx->cpu) {
        fprintf(out, "No GPUs: the history holds no GPU job, so nothing from the GPU catalog is "
                     "recommended.\n");
        return;
    }
    if (nx->policy) {
        fprintf(out, "No purchase: %.0f %% of the last year's recorded waiting passed while the "
                     "GPUs the job could use stood idle. These waits are policy (limits, fair "
                     "share, holds), not capacity: buying GPUs will not shorten them.\n",
                100 * nx->idle_share);
        return;
    }
    if (nx->meets_nothing) {
        fprintf(out, "Recommendation: buy nothing; it meets the target.\n");
        return;
    }
    if (!b->found) {
        fprintf(out, "No purchase of up to %d GPUs of one catalog model meets the target.\n",
                SIMULATE_MAX_GPUS);
        return;
    }
    char model[80], cl[256] = "", q[64], cost[64] = "price unknown", kw[32] = "power unknown";
    cli_sanitize(model, sizeof model, b->model);
    for (int k = 0; k < b->nsplit; k++) {
        char one[80];
        cli_sanitize(one, sizeof one, b->split_cluster[k]);
        size_t l = strlen(cl);
        snprintf(cl + l, sizeof cl - l, "%s%d on %s", k ? ", " : "", b->split_count[k], one);
    }
    quarter_text(b, q, sizeof q);
    if (b->cost >= 0)
        snprintf(cost, sizeof cost, "%.0f %s", b->cost, b->currency);
    if (b->kw >= 0)
        snprintf(kw, sizeof kw, "%.1f kW", b->kw);
    fprintf(out, "Recommendation: buy %d %s (%.0f GiB, speed %.2g: +%.1f GPU-eq): %s, "
                 "arriving in %s; %s, %s.\n",
            b->count, model, b->mem_gib, b->speed, b->gpu_eq, cl, q, cost, kw);
    waits_line("  with it", &b->w, out);
}

void simnext_project_line(Store *st, const char *scenario, FILE *out)
{
    SimNextOpts o = {0, scenario, NULL, 0, 0};
    SimNext nx;
    CpErr err;
    int64_t recent = 0;
    if (simulate_last_year_jobs(st, &recent, &err) == 0 && recent > SIMNEXT_PROJECT_MAX_JOBS) {
        fprintf(out, "\nnext year: not simulated here (%lld jobs in the last 12 months, "
                     "more than project simulates on the way); `capplan simulate` does it\n",
                (long long)recent);
        return;
    }
    CatalogGpu *cat = NULL;
    int failed = catalog_effective(st, &cat, &o.ncatalog, &o.builtin_catalog, &err) < 0;
    o.catalog = cat;
    failed = failed || simulate_next(st, &o, &nx, &err) < 0;
    catalog_free(cat, o.ncatalog);
    if (failed) {
        char msg[CP_ERR_MAX];
        cli_sanitize(msg, sizeof msg, err.msg);
        fprintf(out, "\nnext year not simulated: %s\n", msg);
        return;
    }
    fprintf(out, "\nnext year simulated (capplan simulate): buy nothing, p90 wait %.1f h; ",
            nx.nothing.p90.mid);
    const SimPurchase *b = &nx.buy;
    char model[80];
    cli_sanitize(model, sizeof model, b->model);
    if (nx.cpu)
        fprintf(out, "no GPU job: no GPU purchase");
    else if (nx.policy)
        fprintf(out, "no purchase: the waits are policy, not capacity");
    else if (nx.meets_nothing)
        fprintf(out, "recommendation: buy nothing");
    else if (!b->found)
        fprintf(out, "no purchase of up to %d GPUs meets the target", SIMULATE_MAX_GPUS);
    else
        fprintf(out, "recommendation: buy %d %s (quarter %d), p90 wait %.1f h", b->count, model,
                b->quarter, b->w.p90.mid);
    fprintf(out, "; target %.1f h\n", nx.target_h);
}

static void curve_text(const SimNext *nx, FILE *out)
{
    if (!nx->ncurve)
        return;
    char model[80];
    cli_sanitize(model, sizeof model, nx->curve_model);
    fprintf(out, "\nCapacity curve: %s added at next year's start -> waits (median over %d "
                 "replicas, lowest-highest)\n",
            model, SIMULATE_REPLICAS);
    fprintf(out, "%6s %8s %22s %22s\n", "GPUs", "GPU-eq", "p90 wait", "mean wait");
    for (int k = 0; k < nx->ncurve; k++) {
        const SimCurvePt *p = &nx->curve[k];
        char a[64], b[64];
        band_text(&p->w.p90, a, sizeof a);
        band_text(&p->w.mean, b, sizeof b);
        fprintf(out, "%6d %8.1f %22s %22s\n", p->count, p->gpu_eq, a, b);
    }
}

void simnext_text(const SimNext *nx, FILE *out)
{
    char a[16], b[16], c[16];
    plan_cli_date(nx->last_from, a, sizeof a);
    plan_cli_date(nx->from, b, sizeof b);
    plan_cli_date(nx->to - 1, c, sizeof c);
    fprintf(out, "Last year (%s .. %s) recorded: p50 wait %.1f h, p90 %.1f h, mean %.1f h.\n", a,
            b, nx->last.p50_h, nx->last.p90_h, nx->last.mean_h);
    fprintf(out, "Next year (%s .. %s): %zu jobs, each group's last-year jobs resampled to the "
                 "forecaster's expected use (%.1f -> %.1f %s; %.1f of groups with no job last "
                 "year not drawn), %d replicas.\n",
            b, c, nx->jobs_next, nx->use_last, nx->use_next, nx->cpu ? "CPUs" : "GPU-eq",
            nx->new_use, SIMULATE_REPLICAS);
    fprintf(out, "Target: p90 wait at most %.1f h (%s).\n\n", nx->target_h,
            nx->target_given ? "--target-wait" : "the last year's recorded p90");
    waits_line("Buy nothing", &nx->nothing, out);
    purchase_text(nx, out);
    curve_text(nx, out);
    char depth[48] = "the whole queue";
    if (nx->bf_depth)
        snprintf(depth, sizeof depth, "%zu jobs deep", nx->bf_depth);
    fprintf(out, "\nCatalog: %s. %d fleets simulated (%sbackfill %s) in %.1f s.\n",
            nx->builtin_catalog ? "the reference catalog shipped with capplan, dated "
                                  CATALOG_BUILTIN_DATE " (capplan import catalog replaces it)"
                                : "the imported one",
            nx->fleets, nx->fairshare ? "fair-share order from the allocations, " : "", depth,
            nx->seconds);
}

static cJSON *band_json(const SimBand *b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "low", b->lo);
    cJSON_AddNumberToObject(o, "median", b->mid);
    cJSON_AddNumberToObject(o, "high", b->hi);
    return o;
}

static cJSON *fleet_json(const SimFleetWaits *w)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "p50_h", band_json(&w->p50));
    cJSON_AddItemToObject(o, "p90_h", band_json(&w->p90));
    cJSON_AddItemToObject(o, "mean_h", band_json(&w->mean));
    return o;
}

static cJSON *purchase_json(const SimNext *nx)
{
    const SimPurchase *b = &nx->buy;
    if (!b->found)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char d[16];
    plan_cli_date(b->arrives, d, sizeof d);
    cJSON_AddStringToObject(o, "model", b->model);
    cJSON *sp = cJSON_AddArrayToObject(o, "clusters");
    for (int k = 0; k < b->nsplit; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "cluster", b->split_cluster[k]);
        cJSON_AddNumberToObject(e, "gpus", b->split_count[k]);
        cJSON_AddItemToArray(sp, e);
    }
    cJSON_AddNumberToObject(o, "count", b->count);
    cJSON_AddNumberToObject(o, "quarter", b->quarter);
    cJSON_AddStringToObject(o, "arrives", d);
    cJSON_AddNumberToObject(o, "mem_gib", b->mem_gib);
    cJSON_AddNumberToObject(o, "gpu_eq", b->gpu_eq);
    if (b->cost >= 0)
        cJSON_AddNumberToObject(o, "cost", b->cost);
    else
        cJSON_AddNullToObject(o, "cost");
    cJSON_AddStringToObject(o, "currency", b->currency);
    if (b->kw >= 0)
        cJSON_AddNumberToObject(o, "power_kw", b->kw);
    else
        cJSON_AddNullToObject(o, "power_kw");
    cJSON_AddItemToObject(o, "waits", fleet_json(&b->w));
    return o;
}

int simnext_json(const SimNext *nx, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    char a[16], b[16], c[16];
    plan_cli_date(nx->last_from, a, sizeof a);
    plan_cli_date(nx->from, b, sizeof b);
    plan_cli_date(nx->to - 1, c, sizeof c);
    cJSON_AddStringToObject(o, "last_year_from", a);
    cJSON_AddStringToObject(o, "next_year_from", b);
    cJSON_AddStringToObject(o, "next_year_to", c);
    cJSON *last = cJSON_AddObjectToObject(o, "last_year_recorded");
    cJSON_AddNumberToObject(last, "p50_h", nx->last.p50_h);
    cJSON_AddNumberToObject(last, "p90_h", nx->last.p90_h);
    cJSON_AddNumberToObject(last, "mean_h", nx->last.mean_h);
    cJSON_AddNumberToObject(o, "target_p90_h", nx->target_h);
    cJSON_AddNumberToObject(o, "use_last", nx->use_last);
    cJSON_AddNumberToObject(o, "use_next", nx->use_next);
    cJSON_AddNumberToObject(o, "use_not_drawn", nx->new_use);
    cJSON_AddNumberToObject(o, "jobs_next", (double)nx->jobs_next);
    cJSON_AddNumberToObject(o, "replicas", SIMULATE_REPLICAS);
    cJSON_AddNumberToObject(o, "bf_depth", (double)nx->bf_depth); /* 0: the whole queue */
    cJSON_AddStringToObject(o, "order", nx->fairshare ? "fairshare" : "fcfs");
    cJSON_AddNumberToObject(o, "fleets", nx->fleets);
    cJSON_AddNumberToObject(o, "idle_share_last_year", nx->idle_share);
    cJSON_AddBoolToObject(o, "waits_are_policy", nx->policy);
    cJSON_AddItemToObject(o, "buy_nothing", fleet_json(&nx->nothing));
    cJSON_AddBoolToObject(o, "buy_nothing_meets_target", nx->meets_nothing);
    cJSON_AddItemToObject(o, "purchase", purchase_json(nx));
    cJSON *cv = cJSON_AddObjectToObject(o, "capacity_curve");
    cJSON_AddStringToObject(cv, "model", nx->curve_model);
    cJSON *pts = cJSON_AddArrayToObject(cv, "points");
    for (int k = 0; k < nx->ncurve; k++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "gpus", nx->curve[k].count);
        cJSON_AddNumberToObject(p, "gpu_eq_added", nx->curve[k].gpu_eq);
        cJSON_AddItemToObject(p, "waits", fleet_json(&nx->curve[k].w));
        cJSON_AddItemToArray(pts, p);
    }
    cJSON_AddStringToObject(o, "catalog", nx->builtin_catalog ? "reference " CATALOG_BUILTIN_DATE
                                                              : "imported");
    cli_json_schema(o, "simulate_next");
    int rc = cli_print_json(o, out);
    cJSON_Delete(o);
    return rc;
}
