/* stats_eff: `capplan stats efficiency`: requested against used, hogging,
 * from the efficiency aggregates (core/stats_effcells.c): the input's,
 * or made here from its attempts (with --group). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

static const StatsCol eff_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"user", "user", "", STATS_COL_TEXT, 0},
    {"attempts", "attempts", "", STATS_COL_INT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"gpu_util_pct", "GPU util", "%", STATS_COL_REAL, 1},
    {"util_measured_pct", "measured", "%", STATS_COL_REAL, 0},
    {"gpu_mem_pct", "GPU mem", "%", STATS_COL_REAL, 1},
    {"mem_measured_pct", "measured", "%", STATS_COL_REAL, 0},
    {"cpu_eff_pct", "CPU eff", "%", STATS_COL_REAL, 1},
    {"mem_eff_pct", "mem eff", "%", STATS_COL_REAL, 1},
    {"time_used_pct", "time/limit", "%", STATS_COL_REAL, 1},
};

static const StatsCol waste_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"user", "user", "", STATS_COL_TEXT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"idle_gpu_hours", "idle GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"idle_pct", "idle", "%", STATS_COL_REAL, 1},
    {"hog_gpu_hours", "hogged GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"hog_pct", "hogged", "%", STATS_COL_REAL, 1},
    {"smaller_gpu_jobs", "fit smaller GPU", "", STATS_COL_INT, 0},
    {"smaller_gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"mig_jobs", "fit MIG slice", "", STATS_COL_INT, 0},
    {"mig_gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
};

static const StatsCol hog_cols[] = {
    {"job", "job", "", STATS_COL_TEXT, 0},
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"user", "user", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"start", "start", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_REAL, 1},
    {"gpu_util_pct", "GPU util", "%", STATS_COL_REAL, 1},
    {"hours", "ran", "h", STATS_COL_REAL, 1},
    {"hog_gpu_hours", "hogged GPU-h", "GPU-h", STATS_COL_REAL, 1},
};

static void eff_rows(const Ctx *c, StatsTable *te, StatsTable *tw, const AggKey *k,
                     const StatsEffSum *x)
{
    const char *group = c->ro.groups.name[k->a];
    const char *user = k->b < 0 ? "all" : stats_name_or(&c->in->users, k->b, "(none)");
    StatsCell *e = stats_table_add_row(te);
    stats_put_period(c, te, &e[0], k->period);
    stats_cell_set_text(te, &e[1], group);
    stats_cell_set_text(te, &e[2], user);
    e[3].num = (double)x->attempts;
    e[4].num = x->gpu_h;
    e[5].num = stats_ratio(x->util_x_gh, x->gh_util);
    e[6].num = 100 * stats_ratio(x->gh_util, x->gpu_h);
    e[7].num = 100 * stats_ratio(x->mem_x_gh, x->gh_mem);
    e[8].num = 100 * stats_ratio(x->gh_mem, x->gpu_h);
    e[9].num = 100 * stats_ratio(x->cpu_used_h, x->cpu_alloc_h);
    e[10].num = 100 * stats_ratio(x->mem_used_h, x->mem_req_h);
    e[11].num = 100 * stats_ratio(x->lim_used_h, x->lim_h);
    StatsCell *w = stats_table_add_row(tw);
    stats_put_period(c, tw, &w[0], k->period);
    stats_cell_set_text(tw, &w[1], group);
    stats_cell_set_text(tw, &w[2], user);
    w[3].num = x->gpu_h;
    w[4].num = x->gh_util > 0 ? x->idle_gh : NAN;
    w[5].num = 100 * stats_ratio(x->idle_gh, x->gh_util);
    w[6].num = x->gh_util > 0 ? x->hog_gh : NAN;
    w[7].num = 100 * stats_ratio(x->hog_gh, x->gh_util);
    w[8].num = (double)x->smaller_jobs;
    w[9].num = x->smaller_gh;
    w[10].num = (double)x->mig_jobs;
    w[11].num = x->mig_gh;
}

static const char *job_type(const StatsInput *in, const StatsJob *j)
{
    return j->gpu_type < in->gpu_types.n ? in->gpu_types.v[j->gpu_type] : NULL;
}

/* The aggregates of in's attempts: the curves from every attempt, the
 * sums and top hogs from those the filters keep (group at the middle of
 * the attempt's month, as the stored aggregates count it). */
static void eff_from_jobs(const Ctx *c, StatsEffBuf *buf)
{
    const StatsInput *in = c->in;
    StatsEffBuild *b = stats_eff_build_new(in->inventory, in->ninventory, STATS_EFF_IDLE_KEEP);
    unsigned char *kept = xmalloc(in->njobs + 1);
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        kept[i] = (unsigned char)(stats_cluster_kept(c, j->cluster) && c->jmonth[i] != 0 &&
                                  (c->group < 0 || stats_month_group(c, j->user, j->account,
                                                                     c->jmonth[i]) == c->group));
        stats_eff_build_job(b, j, (int64_t)i, stats_name_or(&in->clusters, j->cluster, NULL),
                            job_type(in, j), kept[i]);
    }
    stats_eff_build_finish(b);
    for (size_t i = 0; stats_eff_build_second_pass(b) && i < in->njobs; i++)
        if (kept[i])
            stats_eff_build_hog(b, &in->jobs[i], (int64_t)i, job_type(in, &in->jobs[i]));
    free(kept);
    stats_eff_buf_from(buf, b);
    stats_eff_build_free(b);
}

static int eff_kept(const Ctx *c, int32_t cluster, int32_t group)
{
    return stats_cluster_kept(c, cluster) && (c->group < 0 || group == c->group);
}

static int hog_cmp(const void *pa, const void *pb)
{
    const StatsHogTop *a = pa, *b = pb;
    if (a->hog != b->hog)
        return a->hog < b->hog ? 1 : -1;
    return (a->id > b->id) - (a->id < b->id);
}

enum { TOP_HOGS = 10 };
_Static_assert(TOP_HOGS <= STATS_HOG_KEEP, "the shown top hogs are among those kept");

static void top_hogs(const Ctx *c, StatsReport *r, const StatsEff *e)
{
    const StatsInput *in = c->in;
    StatsHogTop *v = xmalloc((e->ntops + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < e->ntops; i++) {
        const StatsHogTop *t = &e->tops[i];
        if (t->hog > 0 &&
            eff_kept(c, t->cluster, stats_month_group(c, t->user, t->account, t->month)))
            v[n++] = *t;
    }
    qsort(v, n, sizeof *v, hog_cmp);
    StatsTable *t =
        stats_report_add_table(r, "top_hogs", "Attempts that held the most GPUs idle while others waited",
                     hog_cols, NCOLS(hog_cols));
    for (size_t i = 0; i < n && i < TOP_HOGS; i++) {
        const StatsHogTop *h = &v[i];
        int32_t g = stats_month_group(c, h->user, h->account, h->month);
        char date[32];
        int64_t y;
        int mo, dd;
        civil_from_days(civil_floor_div((int64_t)h->start, DAY), &y, &mo, &dd);
        snprintf(date, sizeof date, "%04lld-%02d-%02d", (long long)y, mo, dd);
        StatsCell *row = stats_table_add_row(t);
        char id[24];
        snprintf(id, sizeof id, "%lu", (unsigned long)h->job_raw);
        stats_cell_set_text(t, &row[0], id);
        stats_cell_set_text(t, &row[1], stats_name_or(&in->clusters, h->cluster, "(none)"));
        stats_cell_set_text(t, &row[2], stats_name_or(&in->users, h->user, "(none)"));
        stats_cell_set_text(t, &row[3], c->ro.groups.name[g]);
        stats_cell_set_text(t, &row[4], date);
        row[5].num = h->gpus;
        row[6].num = h->gpu_util;
        row[7].num = (double)h->elapsed / HOUR;
        row[8].num = h->hog;
    }
    free(v);
}

void stats_kind_efficiency(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    StatsEffBuf own;
    memset(&own, 0, sizeof own);
    const StatsEff *e = &in->eff;
    if (!in->has_eff || (c->o->group && in->njobs > 0)) {
        eff_from_jobs(c, &own);
        e = &own.e;
    }
    Agg g;
    stats_agg_init(&g, sizeof(StatsEffSum));
    int per_user = c->group >= 0;
    for (size_t i = 0; i < e->ncells; i++) {
        const StatsEffSum *x = &e->cells[i];
        int32_t grp = stats_month_group(c, x->k.user, x->k.account, x->k.month);
        if (!eff_kept(c, x->k.cluster, grp))
            continue;
        int32_t p = stats_period_of_month(c, x->k.month);
        stats_eff_sum_merge(stats_agg_get(&g, p, grp, -1, 0), x);
        if (per_user)
            stats_eff_sum_merge(stats_agg_get(&g, p, grp, stats_name_id(&in->users, x->k.user), 0), x);
    }
    StatsTable *te = stats_report_add_table(r, "efficiency", "Requested against used, per group (and user)",
                                  eff_cols, NCOLS(eff_cols));
    StatsTable *tw = stats_report_add_table(r, "waste", "GPUs idle, hogged, or bigger than needed",
                                  waste_cols, NCOLS(waste_cols));
    te->note = "GPU util and GPU mem over the GPU-hours measured (measured: their share); CPU eff "
               "= CPU time / (run time x CPUs); mem eff = peak RSS / requested; time/limit = run "
               "time / time limit";
    tw->note = "idle: utilisation under 10 %; hogged: idle while jobs of the same GPU type waited "
               "on a cluster at least 80 % busy; fit: peak memory within 90 % of a smaller GPU of "
               "the inventory, or of a 20 GB MIG slice (one GPU, under 40 % busy)";
    size_t *order = stats_agg_order(&g, c->ro.groups.rank, c->user_rank, NULL);
    for (size_t i = 0; i < g.n; i++)
        eff_rows(c, te, tw, &g.keys[order[i]], stats_agg_val(&g, order[i]));
    free(order);
    top_hogs(c, r, e);
    stats_agg_done(&g);
    stats_eff_buf_done(&own);
}
