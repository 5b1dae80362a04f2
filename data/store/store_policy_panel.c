/* store_policy_panel: store_policy_panel (see store_policy.h), what the
 * dashboard's Usage view shows of the policy replay, read through
 * store_policy_open (store_policy_agg.c). */
#include "data/store/store_policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double cell_num(const StatsTable *t, size_t r, const char *col)
{
    const StatsCell *c = stats_table_cell(t, r, col);
    return c ? c->num : NAN;
}

static void panel_energy(const PolicyInput *in, StorePolicyPanel *out)
{
    StatsOpts o = {.by = STATS_BY_YEAR};
    StatsReport rep;
    CpErr err;
    if (policy_energy(in, &o, &rep, &err) == 0) {
        const StatsTable *t = stats_report_table(&rep, "energy");
        size_t n = t && t->nrows ? t->nrows - 1 : 0; /* the last row is the total */
        double h = 0, hm = 0;
        for (size_t r = n > 2 ? n - 2 : 0; r < n; r++, out->nyears++) {
            out->year[out->nyears] = atoi(stats_table_cell(t, r, "period")->text);
            out->kwh[out->nyears] = cell_num(t, r, "kwh");
            out->kg[out->nyears] = cell_num(t, r, "kg_co2e");
            h += cell_num(t, r, "gpu_hours");
            hm += cell_num(t, r, "gpu_hours") * cell_num(t, r, "measured_pct") / 100.0;
        }
        out->measured_pct = h > 0 ? 100.0 * hm / h : NAN;
    }
    stats_report_free(&rep);
}

static int panel_used_cmp(const void *pa, const void *pb)
{
    double a = ((const double *)pa)[0], b = ((const double *)pb)[0];
    a = isnan(a) ? -1 : a;
    b = isnan(b) ? -1 : b;
    return (a < b) - (a > b);
}

static void panel_groups(const PolicyInput *in, StorePolicyPanel *out)
{
    StatsOpts o = {.by = STATS_BY_ALL};
    StatsReport rep;
    CpErr err;
    out->has_allocations = in->nallocs > 0;
    if (in->nallocs && policy_fairshare(in, &o, &rep, &err) == 0) {
        const StatsTable *t = stats_report_table(&rep, "series");
        size_t n = t ? t->nrows : 0;
        double *key = xmalloc((2 * n + 1) * sizeof *key); /* (used %, row) pairs */
        for (size_t r = 0; r < n; r++) {
            key[2 * r] = cell_num(t, r, "used_pct");
            key[2 * r + 1] = (double)r;
        }
        qsort(key, n, 2 * sizeof *key, panel_used_cmp);
        for (size_t i = 0; i < n && out->ngroups < STORE_POLICY_PANEL_GROUPS; i++) {
            size_t r = (size_t)key[2 * i + 1];
            int k = out->ngroups++;
            snprintf(out->group[k].name, sizeof out->group[k].name, "%s",
                     stats_table_cell(t, r, "group")->text);
            out->group[k].used_pct = cell_num(t, r, "used_pct");
            out->group[k].factor = cell_num(t, r, "factor");
            out->group[k].blocked = cell_num(t, r, "blocked") > 0;
        }
        free(key);
    }
    if (in->nallocs)
        stats_report_free(&rep);
}

int store_policy_panel(Store *st, const char *scenario, StorePolicyPanel *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    PolicyInput in;
    StorePolicyOpen *o = store_policy_open(
        st, scenario, STORE_POLICY_ENERGY | STORE_POLICY_FAIRSHARE, NULL, &in, err);
    if (!o)
        return -1;
    panel_energy(&in, out);
    panel_groups(&in, out);
    store_policy_close(o);
    return 0;
}
