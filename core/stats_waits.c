/* stats_waits: `capplan stats waits`: wait and time-to-solution quantiles. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- waits ---- */

/* ---- waits ----
 *
 * Waits and times to solution come from the histograms of the aggregates
 * (see stats.h: each quantile is the mean of the bucket its rank falls in,
 * within 1/STATS_HIST_SUB of the exact figure). Every entry counts in its
 * row (period, partition, GPU class) and the rows that sum it: every
 * class of its partition, every partition of its class, and both. */

static const StatsCol wait_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"partition", "partition", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_TEXT, 0},
    {"attempts", "attempts", "", STATS_COL_INT, 0},
    {"wait_p50_h", "wait p50", "h", STATS_COL_REAL, 2},
    {"wait_p90_h", "p90", "h", STATS_COL_REAL, 2},
    {"wait_p99_h", "p99", "h", STATS_COL_REAL, 2},
    {"wait_mean_h", "mean", "h", STATS_COL_REAL, 2},
    {"jobs_completed", "completed jobs", "", STATS_COL_INT, 0},
    {"tts_p50_h", "time to solution p50", "h", STATS_COL_REAL, 2},
    {"tts_p90_h", "p90", "h", STATS_COL_REAL, 2},
};


/* One row from the sorted entries of a row's waits and times to solution. */
static void wait_row(const Ctx *c, StatsTable *t, const AggKey *k, const StatsHistAcc *w, size_t nw,
                     const StatsHistAcc *tt, size_t ntt)
{
    static const double ps[3] = {0.5, 0.9, 0.99};
    const StatsInput *in = c->in;
    double q[3], sum;
    StatsCell *row = stats_table_add_row(t);
    stats_put_period(c, t, &row[0], k->period);
    stats_cell_set_text(t, &row[1], k->a < 0 ? "all" : stats_name_or(&in->partitions, k->a, "(none)"));
    stats_cell_set_text(t, &row[2], k->b < 0 ? "all" : stats_gpu_class_name[k->b]);
    size_t n = stats_hist_quantiles(w, nw, ps, 3, q, &sum);
    row[3].num = (double)n;
    for (int i = 0; i < 3; i++)
        row[4 + i].num = q[i] / HOUR;
    row[7].num = n ? sum / (double)n / HOUR : NAN;
    row[8].num = (double)stats_hist_quantiles(tt, ntt, ps, 2, q, &sum);
    row[9].num = q[0] / HOUR;
    row[10].num = q[1] / HOUR;
}

void stats_kind_waits(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg rows;
    stats_agg_init(&rows, sizeof(StatsHistAcc));
    for (size_t i = 0; i < c->cl.nhist; i++) {
        const StatsHist *h = &c->cl.hist[i];
        if ((h->what != STATS_HIST_WAIT && h->what != STATS_HIST_TTS) || !c->hkept[h->key])
            continue;
        const StatsCellKey *k = &c->cl.hkeys[h->key];
        int32_t p = stats_period_of_month(c, k->month);
        int32_t part = stats_name_id(&in->partitions, k->partition), gc = k->gclass;
        stats_hist_rows_add(&rows, p, part, gc, h);
    }
    stats_hist_rows_sum(&rows);
    StatsTable *t = stats_report_add_table(r, "waits",
                                 "Waits (submit to start, per attempt) and time to solution "
                                 "(first submit to end, per completed job)",
                                 wait_cols, NCOLS(wait_cols));
    size_t *order = stats_agg_order(&rows, c->part_rank, NULL, NULL);
    StatsHistAcc *w = NULL, *tt = NULL;
    size_t wcap = 0, tcap = 0;
    for (size_t i = 0; i < rows.n;) {
        AggKey k = rows.keys[order[i]];
        size_t nw = 0, ntt = 0;
        if ((k.c >> 16) == STATS_HIST_WAIT)
            i = stats_hist_rows_run(&rows, order, i, &w, &wcap, &nw);
        if (i < rows.n) {
            const AggKey *n = &rows.keys[order[i]];
            if (n->period == k.period && n->a == k.a && n->b == k.b &&
                (n->c >> 16) == STATS_HIST_TTS)
                i = stats_hist_rows_run(&rows, order, i, &tt, &tcap, &ntt);
        }
        wait_row(c, t, &k, w, nw, tt, ntt);
    }
    free(w);
    free(tt);
    free(order);
    stats_agg_done(&rows);
}
