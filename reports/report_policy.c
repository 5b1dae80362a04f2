/* report_policy: the report's sections on energy and carbon and on the
 * allocation policy (issue 9), appended after the others. The figures are
 * `capplan stats energy --by year` and `capplan stats fairshare --by year`
 * (core/policy over data/store_policy), with the projected demand of the
 * report's scenario taken from the report's own projection; this file
 * only picks columns. */
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"
#include "data/store/store_policy.h"
#include "data/store/store_stats.h"
#include "reports/report_int.h"

/* What rpt_policy_gather keeps (Report.policy). */
typedef struct RPolicy {
    StatsReport energy, fairshare;
    int have_fairshare;
    FsParams params;
    char why[CP_ERR_MAX]; /* why there is no replay */
} RPolicy;

static void projection_of(const Report *r, double *gpus, int32_t *years, size_t *n)
{
    *n = 0;
    for (int y = 1; y <= r->res->nyears; y++) {
        int64_t from, to;
        projection_year_span(r->plan->model, y, &from, &to);
        gpus[*n] = r->res->total[y - 1].demand;
        years[(*n)++] = fairshare_year_of(from);
    }
}

int rpt_policy_gather(Report *r, Store *st, CpErr *err)
{
    /* the report's own load when it holds the roster and inventory (that
     * with the attempts first, when it read them) */
    unsigned needs = STATS_NEED_ROSTER | STATS_NEED_INVENTORY;
    const StoreStatsData *have = (r->jobs_needs & needs) == needs    ? r->jobs_data
                                 : (r->stats_needs & needs) == needs ? r->stats_data
                                                                     : NULL;
    PolicyInput in;
    StorePolicyOpen *o = store_policy_open(
        st, r->scenario, STORE_POLICY_ENERGY | STORE_POLICY_FAIRSHARE, have, &in, err);
    if (!o)
        return -1;
    RPolicy *p = xcalloc(1, sizeof *p);
    double gpus[PROJ_MAX_YEARS + 1];
    int32_t years[PROJ_MAX_YEARS + 1];
    projection_of(r, gpus, years, &in.nproj);
    in.proj_gpus = gpus;
    in.proj_year = years;
    p->params = in.params;
    StatsOpts so = {.by = STATS_BY_YEAR};
    CpErr e;
    int rc = policy_energy(&in, &so, &p->energy, err);
    if (rc == 0) {
        p->have_fairshare = policy_fairshare(&in, &so, &p->fairshare, &e) == 0;
        if (!p->have_fairshare)
            snprintf(p->why, sizeof p->why, "%s", e.msg);
    }
    store_policy_close(o);
    r->policy = p;
    return rc;
}

void rpt_policy_free(Report *r)
{
    RPolicy *p = r->policy;
    if (!p)
        return;
    stats_report_free(&p->energy);
    stats_report_free(&p->fairshare);
    free(p);
    r->policy = NULL;
}

static const StatsTable *table(const StatsReport *rep, const char *key)
{
    return stats_report_table(rep, key);
}

static void energy_section(const Report *r, const RPolicy *p, FILE *out)
{
    static const char *const ecols[] = {"period",      "gpu_hours", "kwh",     "measured_pct",
                                        "kwh_at_tdp", "kg_co2e",   "g_per_kwh"};
    static const char *const ccols[] = {"cluster",          "pue",  "pue_source", "g_per_kwh",
                                        "intensity_source", "zone", "tdp_w",      "tdp_source"};
    static const char *const scols[] = {"cluster", "movable", "moved",    "kg_before",
                                        "kg_after", "kg_saved", "saved_pct", "delay_h"};
    static const char *const pcols[] = {"year", "gpu_eq", "gpus", "util_pct", "tdp_w",
                                        "pue",  "mwh",    "g_per_kwh", "t_co2e"};
    fprintf(out, "Energy of the GPUs = GPUs x hours x board power (TDP) x the measured GPU "
                 "utilisation (at TDP where it was not measured: an upper bound) x the site's "
                 "PUE; carbon = energy x the grid's intensity over the hours each run spans. "
                 "CPUs, memory and network are not counted.\n\n");
    rpt_stats_md(r, out, table(&p->energy, "energy"), ecols, 7, NULL, 0);
    fprintf(out, "\nWhere the figures come from, per cluster (defaults: PUE 1.2, 480 gCO2e/kWh, "
                 "the world average of 2023; TDPs from the vendors' data sheets where the "
                 "inventory gives none):\n\n");
    rpt_stats_md(r, out, table(&p->energy, "clusters"), ccols, 8, NULL, 0);
    fprintf(out, "\nTemporal shifting: runs on preemptible partitions started at the cleanest "
                 "hour within the delay, where the GPUs left free allowed it:\n\n");
    rpt_stats_md(r, out, table(&p->energy, "shifting"), scols, 8, NULL, 0);
    int64_t y1_from, y1_to;
    char d0[16];
    projection_year_span(r->plan->model, 1, &y1_from, &y1_to);
    rpt_date(y1_from, d0, sizeof d0);
    if (r->plan->cpu) {
        fprintf(out, "\nNo GPUs: energy not projected (the history holds no GPU job; the "
                     "projection counts CPUs, whose power the inventory does not give).\n\n");
        return;
    }
    fprintf(out, "\nThe projected demand of scenario **%s** in physical GPUs (GPU-eq / the runs' "
                 "mean relative speed, GPU-hour weighted), at the measured utilisation, each "
                 "model's TDP (GPU-hour weighted), PUE and intensity (year: the calendar year in "
                 "which each projected year begins; the first is the 12 months from %s, as in "
                 "section 5):\n\n",
            r->scenario, d0);
    rpt_stats_md(r, out, table(&p->energy, "projection"), pcols, 9, NULL, 0);
    fputc('\n', out);
}

static void policy_section(const Report *r, const RPolicy *p, FILE *out)
{
    static const char *const gcols[] = {"group",  "allocated_h",   "used_h",       "used_pct",
                                        "lost_h", "first_blocked", "days_blocked", "factor"};
    static const char *const mcols[] = {"period", "capacity_h", "used_h", "replayed_h",
                                        "unused_h", "unused_pct"};
    static const char *const bcols[] = {"group", "year", "blocked_at", "allocated_h", "lost_h"};
    if (!p->have_fairshare) {
        fprintf(out, "No replay: %s.\n\n", p->why);
        return;
    }
    fprintf(out, "The real jobs replayed under the imported allocations, in the style of IDRIS "
                 "Jean Zay: a group may use up to %.0f %% of its yearly allocation and is "
                 "blocked beyond; the fair-share factor 2^(-U/S) ranks groups by their usage "
                 "decayed with a %g-day half-life against their share of the allocations "
                 "(scenario keys policy.*).\n\n",
            100.0 * p->params.ceiling, p->params.half_life_days);
    rpt_stats_md(r, out, table(&p->fairshare, "groups"), gcols, 8, NULL, 0);
    fprintf(out, "\nWhen groups would have been blocked:\n\n");
    rpt_stats_md(r, out, table(&p->fairshare, "blocks"), bcols, 5, NULL, 0);
    fprintf(out, "\nGPU-hours the machine would have left unused under the replay:\n\n");
    rpt_stats_md(r, out, table(&p->fairshare, "machine"), mcols, 6, NULL, 0);
    fputc('\n', out);
}

int rpt_energy(const Report *r, FILE *out, CpErr *err)
{
    (void)err;
    if (r->policy)
        energy_section(r, r->policy, out);
    return 0;
}

int rpt_allocation(const Report *r, FILE *out, CpErr *err)
{
    (void)err;
    if (r->policy)
        policy_section(r, r->policy, out);
    return 0;
}
