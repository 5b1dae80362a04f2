/* stats_effhog: hogging, the efficiency aggregates' second pass: the
 * idle attempts kept by stats_eff_build_job weighed against the hours when
 * others waited for that GPU type (the curves' conditions), and the top hogs
 * per month and cluster. The builder's insides: stats_eff_int.h. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_eff_int.h"

/* ---- hogging ---- */

static void curves_finish(StatsEffBuild *b)
{
    for (size_t i = 0; i < b->curves.n; i++) {
        Curve *c = stats_agg_val(&b->curves, i);
        double run = 0;
        for (size_t hr = 0; hr < MONTH_HOURS; hr++) {
            run += c->diff[hr];
            c->v[hr] += run;
            c->diff[hr] = 0;
        }
    }
    b->finished = 1;
}

/* GPUs of a curve in hour hr of month m: stored before, plus this
 * build's unless old_only. */
static double curve_at(const Curve *const cv[2], size_t hr, int old_only)
{
    return (cv[0] ? cv[0]->v[hr] : 0) + (!old_only && cv[1] ? cv[1]->v[hr] : 0);
}

static void curve_pair(const StatsEffBuild *b, int32_t m, int kind, uint16_t cluster, int32_t type,
                       const Curve *cv[2])
{
    cv[0] = stats_agg_find(&b->old, m, kind, cluster, type);
    cv[1] = stats_agg_find(&b->curves, m, kind, cluster, type);
}

/* Per hour of month m: others of type's class waited on cluster while it
 * was busy (the stored curves alone when old_only). */
static const unsigned char *cond_of(StatsEffBuild *b, int32_t m, uint16_t cluster, int32_t type,
                                    int old_only)
{
    unsigned char *c = stats_agg_find(&b->conds, m, cluster, type, old_only);
    if (c)
        return c;
    const Curve *run[2], *any[2], *typed[2];
    curve_pair(b, m, CURVE_RUN, cluster, 0, run);
    curve_pair(b, m, CURVE_PEND_ANY, cluster, 0, any);
    typed[0] = typed[1] = NULL;
    if (type > 0)
        curve_pair(b, m, CURVE_PEND, cluster, type, typed);
    const char *name = cluster < b->nclusters ? b->cname[cluster] : NULL;
    int64_t m0 = stats_month_start(m);
    uint32_t nh = stats_eff_month_hours(m);
    c = stats_agg_get(&b->conds, m, cluster, type, old_only);
    for (uint32_t hr = 0; hr < nh; hr++) {
        int64_t t = m0 + (int64_t)hr * HOUR;
        double cap = name ? stats_capacity_hours(b->inv, b->ninv, name, t, t + HOUR) : 0;
        double waiting = curve_at(any, hr, old_only) + curve_at(typed, hr, old_only);
        int busy = cap > 0 ? curve_at(run, hr, old_only) >= STATS_BUSY_UTIL * cap : 1;
        c[hr] = waiting >= STATS_WAITING_GPU_H && busy;
    }
    return c;
}

/* 1 when an hour's condition changed where stored idle attempts ran. */
static int stale(StatsEffBuild *b)
{
    size_t n = b->old.n;
    for (size_t i = 0; i < n; i++) {
        AggKey k = b->old.keys[i];
        if (k.a != CURVE_IDLE)
            continue;
        const Curve *idle = stats_agg_val(&b->old, i);
        uint16_t cl = (uint16_t)k.b;
        if (!stats_agg_find(&b->curves, k.period, CURVE_RUN, cl, 0) &&
            !stats_agg_find(&b->curves, k.period, CURVE_PEND_ANY, cl, 0) &&
            !stats_agg_find(&b->curves, k.period, CURVE_PEND, cl, k.c))
            continue;
        cond_of(b, k.period, cl, k.c, 1);
        cond_of(b, k.period, cl, k.c, 0); /* may move the first: found again */
        const unsigned char *was = stats_agg_find(&b->conds, k.period, cl, k.c, 1);
        const unsigned char *now = stats_agg_find(&b->conds, k.period, cl, k.c, 0);
        for (uint32_t hr = 0; hr < stats_eff_month_hours(k.period); hr++)
            if (idle->v[hr] > 0 && was[hr] != now[hr])
                return 1;
    }
    return 0;
}

static int top_before(const StatsHogTop *a, const StatsHogTop *b)
{
    return a->hog != b->hog ? a->hog > b->hog : a->id < b->id;
}

void stats_eff_top_put(TopList *l, const StatsHogTop *e)
{
    if (l->n == STATS_HOG_KEEP && !top_before(e, &l->e[l->n - 1]))
        return;
    int i = l->n < STATS_HOG_KEEP ? l->n++ : l->n - 1;
    while (i > 0 && top_before(e, &l->e[i - 1])) {
        l->e[i] = l->e[i - 1];
        i--;
    }
    l->e[i] = *e;
}

/* GPU-hours an idle attempt held in hours where others of its class
 * waited on its busy cluster. */
static double hog_hours(StatsEffBuild *b, const Idle *x)
{
    int64_t a = x->start, e = (int64_t)x->start + x->elapsed;
    double sum = 0;
    while (a < e) {
        int32_t m = stats_eff_month_of(b, a);
        int64_t m1 = b->mc_to, h0 = b->mc_from / HOUR;
        const unsigned char *cond = cond_of(b, m, x->cluster, x->type, 0);
        int64_t stop = e < m1 ? e : m1;
        while (a < stop) {
            int64_t next = (civil_floor_div(a, HOUR) + 1) * HOUR;
            next = next > stop ? stop : next;
            if (cond[civil_floor_div(a, HOUR) - h0])
                sum += x->gpus * (double)(next - a) / HOUR;
            a = next;
        }
    }
    return sum;
}

static void hog_add(StatsEffBuild *b, const Idle *x)
{
    double hog = hog_hours(b, x);
    if (hog <= 0)
        return;
    StatsEffKey k = {x->month, x->user, x->account, x->cluster, 0};
    stats_eff_cell_of(b, &k)->hog_gh += hog;
    StatsHogTop t;
    memset(&t, 0, sizeof t);
    t.id = x->id;
    t.hog = hog;
    t.month = x->month;
    t.user = x->user;
    t.account = x->account;
    t.elapsed = x->elapsed;
    t.job_raw = x->job_raw;
    t.start = x->start;
    t.gpus = x->gpus;
    t.gpu_util = x->gpu_util;
    t.cluster = x->cluster;
    stats_eff_top_put(stats_agg_get(&b->tops, x->month, x->cluster, 0, 0), &t);
}

int stats_eff_build_finish(StatsEffBuild *b)
{
    curves_finish(b);
    if (stale(b))
        return 1;
    for (size_t i = 0; i < b->nidle; i++)
        hog_add(b, &b->idle[i]);
    free(b->idle);
    b->idle = NULL;
    b->nidle = b->capidle = 0;
    return 0;
}

void stats_eff_build_hog(StatsEffBuild *b, const StatsJob *j, int64_t id, const char *type)
{
    int64_t anchor = stats_job_anchor(j);
    if (!b->finished || !stats_eff_job_idle(j) || anchor == STATS_TIME_NONE)
        return;
    Idle x;
    memset(&x, 0, sizeof x);
    x.id = id;
    x.start = j->start;
    x.job_raw = j->job_raw;
    x.elapsed = j->elapsed;
    x.month = stats_eff_month_of(b, anchor);
    x.user = j->user;
    x.account = j->account;
    x.type = stats_eff_type_intern(b, type);
    x.gpus = j->gpus;
    x.gpu_util = j->gpu_util;
    x.cluster = j->cluster;
    hog_add(b, &x);
}

