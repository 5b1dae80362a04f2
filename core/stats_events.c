/* stats_events: utilisation and waits three months before and after each
 * event (a table of `capplan stats utilization`). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

static const StatsCol event_cols[] = {
    {"date", "date", "", STATS_COL_TEXT, 0},
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"label", "event", "", STATS_COL_TEXT, 0},
    {"util_before_pct", "util before", "%", STATS_COL_REAL, 1},
    {"util_after_pct", "util after", "%", STATS_COL_REAL, 1},
    {"util_change_pts", "change pts", "", STATS_COL_REAL, 1},
    {"wait_before_h", "wait before", "h", STATS_COL_REAL, 2},
    {"wait_after_h", "wait after", "h", STATS_COL_REAL, 2},
    {"wait_change_h", "change", "h", STATS_COL_REAL, 2},
    {"wait_p50_before_h", "p50 before", "h", STATS_COL_REAL, 2},
    {"wait_p50_after_h", "p50 after", "h", STATS_COL_REAL, 2},
    {"gpu_hours_before", "GPU-h before", "GPU-h", STATS_COL_REAL, 0},
    {"gpu_hours_after", "GPU-h after", "GPU-h", STATS_COL_REAL, 0},
};

typedef struct EventWin {
    int32_t b0, b1, a0, a1;
    const char *cluster; /* NULL: every cluster kept */
    int32_t cluster_id;  /* its id; -1 every cluster, 0 one with no jobs */
    double used[2], wait_s[2];
    int64_t waited[2];
    double p50[2];
} EventWin;

static int month_in(int32_t m, int32_t from, int32_t to)
{
    return m >= from && m < to;
}

static void event_window(const Ctx *c, const StatsEvent *e, EventWin *w)
{
    memset(w, 0, sizeof *w);
    int32_t m = stats_month_of(e->at);
    int32_t a0 = e->at == stats_month_start(m) ? m : stats_month_add(m, 1);
    w->b0 = stats_month_add(m, -STATS_EVENT_MONTHS);
    w->b1 = m;
    w->a0 = a0;
    w->a1 = stats_month_add(a0, STATS_EVENT_MONTHS);
    w->cluster = e->cluster && e->cluster[0] ? e->cluster : NULL;
    w->cluster_id = w->cluster ? stats_names_find(&c->in->clusters, w->cluster) : -1;
    w->cluster_id = w->cluster && w->cluster_id < 0 ? 0 : w->cluster_id;
}

/* Which side of w (0 before, 1 after) month m of cluster falls in, or -1. */
static int event_side(const EventWin *w, int32_t m, int32_t cluster)
{
    if (w->cluster_id >= 0 && (cluster != w->cluster_id || cluster == 0))
        return -1;
    return month_in(m, w->b0, w->b1) ? 0 : month_in(m, w->a0, w->a1) ? 1 : -1;
}

/* Each side's median wait, from the histograms. */
static void events_medians(const Ctx *c, EventWin *w, size_t nw)
{
    static const double half = 0.5;
    Agg rows;
    stats_agg_init(&rows, sizeof(StatsHistAcc));
    for (size_t e = 0; e < nw; e++)
        w[e].p50[0] = w[e].p50[1] = NAN;
    for (size_t i = 0; i < c->cl.nhist && nw > 0; i++) {
        const StatsHist *h = &c->cl.hist[i];
        const StatsCellKey *k = &c->cl.hkeys[h->key];
        if (h->what != STATS_HIST_WAIT || !c->hkept[h->key])
            continue;
        for (size_t e = 0; e < nw; e++) {
            int s = event_side(&w[e], k->month, k->cluster);
            if (s >= 0)
                stats_hist_rows_add(&rows, (int32_t)e, s, 0, h);
        }
    }
    size_t *order = stats_agg_order(&rows, NULL, NULL, NULL), cap = 0, n;
    StatsHistAcc *buf = NULL;
    for (size_t i = 0; i < rows.n;) {
        const AggKey *k = &rows.keys[order[i]];
        double sum;
        i = stats_hist_rows_run(&rows, order, i, &buf, &cap, &n);
        stats_hist_quantiles(buf, n, &half, 1, &w[k->period].p50[k->a], &sum);
    }
    free(buf);
    free(order);
    stats_agg_done(&rows);
}

static void events_collect(const Ctx *c, EventWin *w, size_t nw)
{
    const StatsInput *in = c->in;
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d;
        if (!stats_usage_kept(c, u, &g, &d))
            continue;
        for (size_t e = 0; e < nw; e++) {
            int s = event_side(&w[e], u->month, u->cluster);
            if (s < 0)
                continue;
            w[e].used[s] += u->gpu_hours;
            if (!c->has_cells) {
                w[e].wait_s[s] += u->wait_s;
                w[e].waited[s] += u->waited;
            }
        }
    }
    for (size_t i = 0; i < c->cl.ncells && nw > 0; i++) {
        const StatsCellSum *x = &c->cl.cells[i];
        if (!c->ckept[i] || x->waited == 0)
            continue;
        for (size_t e = 0; e < nw; e++) {
            int s = event_side(&w[e], x->k.month, x->k.cluster);
            if (s >= 0) {
                w[e].wait_s[s] += x->wait_s;
                w[e].waited[s] += x->waited;
            }
        }
    }
    events_medians(c, w, nw);
}

void stats_events_table(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    EventWin *w = xcalloc(in->nevents + 1, sizeof *w);
    size_t *idx = xcalloc(in->nevents + 1, sizeof *idx), nw = 0;
    for (size_t i = 0; i < in->nevents; i++) {
        const StatsEvent *e = &in->events[i];
        if (e->at == STATS_TIME_NONE ||
            (e->cluster && e->cluster[0] && !stats_cluster_name_kept(c, e->cluster)))
            continue;
        event_window(c, e, &w[nw]);
        idx[nw++] = i;
    }
    events_collect(c, w, nw);
    StatsTable *t =
        stats_report_add_table(r, "events", "Utilisation and waits three months before and after each event",
                     event_cols, NCOLS(event_cols));
    t->note = "whole months; the event's own month is left out unless the event falls on its "
              "first day; waits are means and medians of the attempts that started";
    for (size_t k = 0; k < nw; k++) {
        const StatsEvent *e = &in->events[idx[k]];
        EventWin *x = &w[k];
        double cap[2] = {
            stats_ctx_capacity(c, x->cluster, stats_month_start(x->b0), stats_month_start(x->b1)),
            stats_ctx_capacity(c, x->cluster, stats_month_start(x->a0), stats_month_start(x->a1))};
        StatsCell *row = stats_table_add_row(t);
        stats_cell_set_text(t, &row[0], e->date);
        stats_cell_set_text(t, &row[1], x->cluster ? x->cluster : c->o->cluster ? c->o->cluster : "all");
        stats_cell_set_text(t, &row[2], e->label);
        for (int s = 0; s < 2; s++) {
            row[3 + s].num = 100 * stats_ratio(x->used[s], cap[s]);
            row[6 + s].num = stats_ratio(x->wait_s[s], (double)x->waited[s]) / HOUR;
            row[9 + s].num = x->p50[s] / HOUR;
            row[11 + s].num = x->used[s];
        }
        row[5].num = row[4].num - row[3].num;
        row[8].num = row[7].num - row[6].num;
    }
    free(w);
    free(idx);
}
