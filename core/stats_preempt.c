/* stats_preempt: `capplan stats preemption`. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- preemption ---- */

typedef struct PreAcc {
    int64_t jobs, attempts, pre_attempts, pre_jobs, completed, pre_completed;
    double gpu_h, gpu_lost, cpu_h, cpu_lost;
    double run_p50; /* median run of the preempted attempts, s */
} PreAcc;

static const StatsCol pre_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"partition", "partition", "", STATS_COL_TEXT, 0},
    {"preemptible", "preemptible", "", STATS_COL_BOOL, 0},
    {"jobs", "jobs", "", STATS_COL_INT, 0},
    {"attempts", "attempts", "", STATS_COL_INT, 0},
    {"preempted_attempts", "preempted", "", STATS_COL_INT, 0},
    {"preempted_jobs", "jobs hit", "", STATS_COL_INT, 0},
    {"preempted_jobs_pct", "hit", "%", STATS_COL_REAL, 1},
    {"completed_pct", "completed", "%", STATS_COL_REAL, 1},
    {"preempted_completed_pct", "hit, completed", "%", STATS_COL_REAL, 1},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"gpu_hours_lost", "GPU-h lost", "GPU-h", STATS_COL_REAL, 1},
    {"lost_pct", "lost", "%", STATS_COL_REAL, 1},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 1},
    {"cpu_hours_lost", "CPU-h lost", "CPU-h", STATS_COL_REAL, 1},
    {"run_before_preempt_p50_h", "run p50", "h", STATS_COL_REAL, 2},
};

static const char pre_note[] =
    "preempted: attempts ended by preemption; jobs hit: jobs preempted at least once; "
    "lost: the runs of preempted attempts; run p50: median run before a preemption";

static int name_has(const char *name, const char *part)
{
    return name && strstr(name, part) != NULL;
}

/* preemptible[id]: the partition saw a preemption, or its name says so. */
static unsigned char *preemptible_partitions(const Ctx *c)
{
    const StatsInput *in = c->in;
    unsigned char *p = xcalloc(in->partitions.n + 1, 1);
    for (size_t i = 0; i < in->partitions.n; i++) {
        const char *n = in->partitions.v[i];
        p[i] = name_has(n, "preempt") || name_has(n, "scaveng") || name_has(n, "spot");
    }
    for (size_t i = 0; i < c->cl.ncells; i++) {
        int32_t id = c->cl.cells[i].k.partition;
        if (c->cl.cells[i].pre_attempts > 0 && (size_t)id < in->partitions.n)
            p[id] = 1;
    }
    return p;
}

static void pre_row(const Ctx *c, StatsTable *t, const AggKey *k, PreAcc *x,
                    const unsigned char *preemptible)
{
    const StatsInput *in = c->in;
    StatsCell *row = stats_table_add_row(t);
    stats_put_period(c, t, &row[0], k->period);
    stats_cell_set_text(t, &row[1], k->a < 0 ? "all" : c->ro.groups.name[k->a]);
    stats_cell_set_text(t, &row[2], k->b < 0 ? "all" : stats_name_or(&in->partitions, k->b, "(none)"));
    if (k->b >= 0)
        row[3].num = (size_t)k->b < in->partitions.n && preemptible[k->b];
    row[4].num = (double)x->jobs;
    row[5].num = (double)x->attempts;
    row[6].num = (double)x->pre_attempts;
    row[7].num = (double)x->pre_jobs;
    row[8].num = 100 * stats_ratio((double)x->pre_jobs, (double)x->jobs);
    row[9].num = 100 * stats_ratio((double)x->completed, (double)x->jobs);
    row[10].num = 100 * stats_ratio((double)x->pre_completed, (double)x->pre_jobs);
    row[11].num = x->gpu_h;
    row[12].num = x->gpu_lost;
    row[13].num = 100 * stats_ratio(x->gpu_lost, x->gpu_h);
    row[14].num = x->cpu_h;
    row[15].num = x->cpu_lost;
    row[16].num = x->run_p50 / HOUR;
}

static void pre_merge(PreAcc *x, const StatsCellSum *y)
{
    x->jobs += y->jobs;
    x->attempts += y->attempts;
    x->pre_attempts += y->pre_attempts;
    x->pre_jobs += y->pre_jobs;
    x->completed += y->completed;
    x->pre_completed += y->pre_completed;
    x->gpu_h += y->gpu_h;
    x->gpu_lost += y->gpu_lost;
    x->cpu_h += y->cpu_h;
    x->cpu_lost += y->cpu_lost;
    x->run_p50 = NAN;
}

/* Each row's median run before a preemption, from the histograms. */
static void pre_medians(const Ctx *c, Agg *out)
{
    static const double half = 0.5;
    const StatsInput *in = c->in;
    Agg rows;
    stats_agg_init(&rows, sizeof(StatsHistAcc));
    for (size_t i = 0; i < c->cl.nhist; i++) {
        const StatsHist *h = &c->cl.hist[i];
        if (h->what != STATS_HIST_PRERUN || !c->hkept[h->key])
            continue;
        const StatsCellKey *k = &c->cl.hkeys[h->key];
        int32_t p = stats_period_of_month(c, k->month), g = c->hgroup[h->key];
        int32_t part = stats_name_id(&in->partitions, k->partition);
        stats_hist_rows_add(&rows, p, g, part, h);
    }
    stats_hist_rows_sum(&rows);
    size_t *order = stats_agg_order(&rows, NULL, NULL, NULL), cap = 0, n;
    StatsHistAcc *buf = NULL;
    for (size_t i = 0; i < rows.n;) {
        const AggKey *k = &rows.keys[order[i]];
        PreAcc *x = stats_agg_find(out, k->period, k->a, k->b, 0);
        double sum;
        i = stats_hist_rows_run(&rows, order, i, &buf, &cap, &n);
        if (x)
            stats_hist_quantiles(buf, n, &half, 1, &x->run_p50, &sum);
    }
    free(buf);
    free(order);
    stats_agg_done(&rows);
}

/* Rows per (period, group, partition) from the cells, and their sums over
 * groups ("all"), partitions ("all") and both. */
void stats_kind_preemption(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    unsigned char *pp = preemptible_partitions(c);
    Agg rows;
    stats_agg_init(&rows, sizeof(PreAcc));
    for (size_t i = 0; i < c->cl.ncells; i++) {
        const StatsCellSum *x = &c->cl.cells[i];
        if (!c->ckept[i])
            continue;
        int32_t p = stats_period_of_month(c, x->k.month), g = c->cgroup[i];
        int32_t part = stats_name_id(&in->partitions, x->k.partition);
        pre_merge(stats_agg_get(&rows, p, -1, -1, 0), x);
        pre_merge(stats_agg_get(&rows, p, -1, part, 0), x);
        pre_merge(stats_agg_get(&rows, p, g, -1, 0), x);
        pre_merge(stats_agg_get(&rows, p, g, part, 0), x);
    }
    pre_medians(c, &rows);
    StatsTable *t = stats_report_add_table(r, "preemption", "Preemption per group and partition", pre_cols,
                                 NCOLS(pre_cols));
    t->note = pre_note;
    size_t *order = stats_agg_order(&rows, c->ro.groups.rank, c->part_rank, NULL);
    for (size_t i = 0; i < rows.n; i++) {
        PreAcc *x = stats_agg_val(&rows, order[i]);
        /* with --group, the rows of every group are the group's own: once */
        if (!(c->o->group && rows.keys[order[i]].a < 0))
            pre_row(c, t, &rows.keys[order[i]], x, pp);
    }
    free(order);
    stats_agg_done(&rows);
    free(pp);
}
