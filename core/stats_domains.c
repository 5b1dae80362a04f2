/* stats_domains: `capplan stats domains`. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- domains ---- */

typedef struct DomAcc {
    double gpu_h, cpu_h;
    int64_t researchers, active;
} DomAcc;

static const StatsCol dom_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"domain", "domain", "", STATS_COL_TEXT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"share_pct", "share", "%", STATS_COL_REAL, 1},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 0},
    {"researchers", "researchers", "", STATS_COL_INT, 0},
    {"active_users", "active users", "", STATS_COL_INT, 0},
    {"gpu_hours_per_researcher", "GPU-h per researcher", "GPU-h", STATS_COL_REAL, 1},
};

/* Researchers on the roster in each period, per domain: every line that
 * overlaps the period counts its user once in its domain. */
static void dom_researchers(const Ctx *c, Agg *dom, const int32_t *per, size_t np)
{
    const Roster *ro = &c->ro;
    Agg seen;
    stats_agg_init(&seen, 1);
    int32_t user = -1;
    for (size_t i = 0; i < ro->nlines; i++) {
        const StatsPerson *pl = ro->lines[i];
        if (i == 0 || strcmp(pl->user, ro->lines[i - 1]->user) != 0)
            user++;
        if (c->group >= 0 && ro->line_group[i] != c->group)
            continue;
        for (size_t k = 0; k < np; k++) {
            int64_t from, to;
            stats_period_bounds(c, per[k], &from, &to);
            if ((pl->start != STATS_TIME_NONE && pl->start >= to) ||
                (pl->end != STATS_TIME_NONE && pl->end <= from))
                continue;
            size_t before = seen.n;
            stats_agg_get(&seen, per[k], ro->line_domain[i], user, 0);
            if (seen.n > before)
                ((DomAcc *)stats_agg_get(dom, per[k], ro->line_domain[i], 0, 0))->researchers++;
        }
    }
    stats_agg_done(&seen);
}

void stats_kind_domains(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg dom, tot, active;
    stats_agg_init(&dom, sizeof(DomAcc));
    stats_agg_init(&tot, sizeof(DomAcc));
    stats_agg_init(&active, 1);
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d;
        if (!stats_usage_kept(c, u, &g, &d))
            continue;
        int32_t p = stats_period_of_month(c, u->month);
        DomAcc *x = stats_agg_get(&dom, p, d, 0, 0);
        x->gpu_h += u->gpu_hours;
        x->cpu_h += u->cpu_hours;
        ((DomAcc *)stats_agg_get(&tot, p, 0, 0, 0))->gpu_h += u->gpu_hours;
        size_t before = active.n;
        if (u->jobs > 0 || u->gpu_hours > 0 || u->cpu_hours > 0)
            stats_agg_get(&active, p, d, u->user, 0);
        if (active.n > before)
            ((DomAcc *)stats_agg_get(&dom, p, d, 0, 0))->active++;
    }
    size_t np;
    int32_t *per = stats_periods_list(c, &np);
    dom_researchers(c, &dom, per, np);
    free(per);
    StatsTable *t = stats_report_add_table(r, "domains", "GPU-hours and researchers per research domain",
                                 dom_cols, NCOLS(dom_cols));
    size_t *order = stats_agg_order(&dom, c->ro.domains.rank, NULL, NULL);
    for (size_t i = 0; i < dom.n; i++) {
        const AggKey *k = &dom.keys[order[i]];
        const DomAcc *x = stats_agg_val(&dom, order[i]);
        const DomAcc *all = stats_agg_find(&tot, k->period, 0, 0, 0);
        StatsCell *row = stats_table_add_row(t);
        stats_put_period(c, t, &row[0], k->period);
        stats_cell_set_text(t, &row[1], c->ro.domains.name[k->a]);
        row[2].num = x->gpu_h;
        row[3].num = 100 * stats_ratio(x->gpu_h, all ? all->gpu_h : 0);
        row[4].num = x->cpu_h;
        row[5].num = (double)x->researchers;
        row[6].num = (double)x->active;
        row[7].num = stats_ratio(x->gpu_h, (double)x->researchers);
    }
    free(order);
    stats_agg_done(&dom);
    stats_agg_done(&tot);
    stats_agg_done(&active);
}
