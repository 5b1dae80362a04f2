/* stats_util: `capplan stats utilization`: utilisation per period and
 * cluster, and each group's share (then stats_events.c and stats_heat.c
 * add their tables). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- utilization ---- */

typedef struct UtilAcc {
    double gpu_h, cpu_h, wait_s;
    int64_t jobs, waited;
} UtilAcc;

static const StatsCol util_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_REAL, 1},
    {"capacity_gpu_hours", "capacity GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"gpu_hours", "used GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"util_pct", "util", "%", STATS_COL_REAL, 1},
    {"jobs", "jobs", "", STATS_COL_INT, 0},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 0},
    {"wait_mean_h", "wait mean", "h", STATS_COL_REAL, 2},
};

static const StatsCol share_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"share_pct", "share", "%", STATS_COL_REAL, 1},
    {"capacity_pct", "of capacity", "%", STATS_COL_REAL, 1},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 0},
    {"jobs", "jobs", "", STATS_COL_INT, 0},
};


/* Cluster names of usage and inventory, in one dictionary; map[id] is
 * the dictionary id of database cluster id. */
typedef struct ClusterSet {
    Dict d;
    int32_t *map;
} ClusterSet;

static void clusters_init(ClusterSet *cs, const Ctx *c)
{
    const StatsInput *in = c->in;
    stats_dict_init(&cs->d);
    cs->map = xmalloc((in->clusters.n + 1) * sizeof *cs->map);
    for (size_t i = 0; i < in->clusters.n + 1; i++)
        cs->map[i] = -1;
    for (size_t i = 0; i < in->nusage; i++) {
        int32_t id = in->usage[i].cluster;
        if (stats_cluster_kept(c, id) && id >= 0 && (size_t)id < in->clusters.n && cs->map[id] < 0)
            cs->map[id] = stats_dict_id(&cs->d, stats_name_or(&in->clusters, id, "(none)"));
    }
    for (size_t i = 0; i < c->cl.ncells; i++) {
        int32_t id = c->cl.cells[i].k.cluster;
        if (stats_cluster_kept(c, id) && id >= 0 && (size_t)id < in->clusters.n && cs->map[id] < 0)
            cs->map[id] = stats_dict_id(&cs->d, stats_name_or(&in->clusters, id, "(none)"));
    }
    for (size_t i = 0; i < in->ninventory; i++)
        if (stats_cluster_name_kept(c, in->inventory[i].cluster))
            stats_dict_id(&cs->d, in->inventory[i].cluster);
    stats_dict_rank(&cs->d);
}

static void clusters_done(ClusterSet *cs)
{
    stats_dict_done(&cs->d);
    free(cs->map);
}

static int32_t cs_id(const ClusterSet *cs, const StatsNames *names, int32_t id)
{
    return id >= 0 && (size_t)id < names->n + 1 ? cs->map[id] : -1;
}

/* usage and waits per (period, cluster of cs) and per (period, -1). */
static void util_collect(const Ctx *c, const ClusterSet *cs, Agg *a)
{
    const StatsInput *in = c->in;
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d, k = cs_id(cs, &in->clusters, u->cluster);
        if (k < 0 || !stats_usage_kept(c, u, &g, &d))
            continue;
        UtilAcc *x = stats_agg_get(a, stats_period_of_month(c, u->month), k, 0, 0);
        x->gpu_h += u->gpu_hours;
        x->cpu_h += u->cpu_hours;
        x->jobs += u->jobs;
        if (!c->has_cells) {
            x->wait_s += u->wait_s;
            x->waited += u->waited;
        }
    }
    for (size_t i = 0; i < c->cl.ncells; i++) {
        const StatsCellSum *x = &c->cl.cells[i];
        int32_t k = cs_id(cs, &in->clusters, x->k.cluster);
        if (k < 0 || !c->ckept[i] || x->waited == 0)
            continue;
        UtilAcc *u = stats_agg_get(a, stats_period_of_month(c, x->k.month), k, 0, 0);
        u->wait_s += x->wait_s;
        u->waited += x->waited;
    }
    size_t n = a->n; /* the clusters' cells, summed into (period, -1) */
    for (size_t i = 0; i < n; i++) {
        AggKey k = a->keys[i];
        if (k.a < 0)
            continue;
        UtilAcc *all = stats_agg_get(a, k.period, -1, 0, 0), *x = stats_agg_val(a, i);
        all->gpu_h += x->gpu_h;
        all->cpu_h += x->cpu_h;
        all->jobs += x->jobs;
        all->wait_s += x->wait_s;
        all->waited += x->waited;
    }
}

/* cap < 0: the inventory says nothing of the cluster. */
static void util_row(const Ctx *c, StatsTable *t, int32_t p, const char *cluster, const UtilAcc *x,
                     double cap)
{
    int64_t from, to;
    stats_period_bounds(c, p, &from, &to);
    from = from < c->w0 ? c->w0 : from;
    to = to > c->w1 ? c->w1 : to;
    StatsCell *row = stats_table_add_row(t);
    stats_put_period(c, t, &row[0], p);
    stats_cell_set_text(t, &row[1], cluster);
    row[2].num = to > from && cap >= 0 ? cap * HOUR / (double)(to - from) : NAN;
    row[3].num = cap >= 0 ? cap : NAN;
    row[4].num = x ? x->gpu_h : 0;
    row[5].num = 100 * stats_ratio(x ? x->gpu_h : 0, cap);
    row[6].num = x ? (double)x->jobs : 0;
    row[7].num = x ? x->cpu_h : 0;
    row[8].num = x ? stats_ratio(x->wait_s, (double)x->waited) / HOUR : NAN;
}

static void util_table(const Ctx *c, StatsReport *r, const ClusterSet *cs, const Agg *a)
{
    StatsTable *t = stats_report_add_table(r, "utilization", "GPU utilisation per period and cluster",
                                 util_cols, NCOLS(util_cols));
    size_t np, nc = cs->d.n;
    int32_t *per = stats_periods_list(c, &np);
    int32_t *order = xmalloc((nc + 1) * sizeof *order);
    for (size_t i = 0; i < nc; i++)
        order[cs->d.rank[i]] = (int32_t)i;
    for (size_t i = 0; i < np; i++) {
        int64_t from, to;
        stats_period_bounds(c, per[i], &from, &to);
        double cap_all = 0;
        int known_all = 0;
        for (size_t k = 0; k < nc; k++) {
            cap_all += stats_ctx_capacity(c, cs->d.name[k], from, to);
            known_all |= stats_inventory_has(c->in, cs->d.name[k]);
        }
        util_row(c, t, per[i], "all", stats_agg_find(a, per[i], -1, 0, 0), known_all ? cap_all : -1);
        for (size_t k = 0; k < nc; k++) {
            const char *name = cs->d.name[order[k]];
            double cap = stats_ctx_capacity(c, name, from, to);
            const UtilAcc *x = stats_agg_find(a, per[i], order[k], 0, 0);
            if (cap > 0 || x)
                util_row(c, t, per[i], name, x, stats_inventory_has(c->in, name) ? cap : -1);
        }
    }
    for (size_t i = 0; i < t->nrows; i++)
        if (t->cells[i * t->ncols + 5].num > 100) /* NaN (no inventory) is not */
            t->note = "util over 100 %: the jobs used more GPU-hours than the inventory's GPUs "
                      "give, so the inventory lists fewer GPUs than the jobs ran on";
    free(order);
    free(per);
}

typedef struct ShareAcc {
    double gpu_h, cpu_h;
    int64_t jobs;
} ShareAcc;

static void share_table(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg g, tot;
    stats_agg_init(&g, sizeof(ShareAcc));
    stats_agg_init(&tot, sizeof(ShareAcc));
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t grp, d;
        if (!stats_cluster_kept(c, u->cluster))
            continue;
        int kept = stats_usage_kept(c, u, &grp, &d);
        int32_t p = stats_period_of_month(c, u->month);
        ShareAcc *t = stats_agg_get(&tot, p, 0, 0, 0);
        t->gpu_h += u->gpu_hours;
        if (!kept)
            continue;
        ShareAcc *x = stats_agg_get(&g, p, grp, 0, 0);
        x->gpu_h += u->gpu_hours;
        x->cpu_h += u->cpu_hours;
        x->jobs += u->jobs;
    }
    StatsTable *t = stats_report_add_table(r, "groups", "Each group's share of the GPU-hours", share_cols,
                                 NCOLS(share_cols));
    size_t *order = stats_agg_order(&g, c->ro.groups.rank, NULL, NULL);
    for (size_t i = 0; i < g.n; i++) {
        const AggKey *k = &g.keys[order[i]];
        const ShareAcc *x = stats_agg_val(&g, order[i]);
        if (x->gpu_h == 0 && x->cpu_h == 0 && x->jobs == 0)
            continue;
        int64_t from, to;
        stats_period_bounds(c, k->period, &from, &to);
        StatsCell *row = stats_table_add_row(t);
        stats_put_period(c, t, &row[0], k->period);
        stats_cell_set_text(t, &row[1], c->ro.groups.name[k->a]);
        row[2].num = x->gpu_h;
        const ShareAcc *all = stats_agg_find(&tot, k->period, 0, 0, 0);
        row[3].num = 100 * stats_ratio(x->gpu_h, all ? all->gpu_h : 0);
        row[4].num = 100 * stats_ratio(x->gpu_h, stats_ctx_capacity(c, NULL, from, to));
        row[5].num = x->cpu_h;
        row[6].num = (double)x->jobs;
    }
    free(order);
    stats_agg_done(&g);
    stats_agg_done(&tot);
}

/* One event's windows: months [m0, m1) before and after. */
void stats_kind_utilization(const Ctx *c, StatsReport *r)
{
    ClusterSet cs;
    Agg a;
    clusters_init(&cs, c);
    stats_agg_init(&a, sizeof(UtilAcc));
    util_collect(c, &cs, &a);
    util_table(c, r, &cs, &a);
    share_table(c, r);
    stats_events_table(c, r);
    stats_heat_tables(c, r);
    stats_agg_done(&a);
    clusters_done(&cs);
}
