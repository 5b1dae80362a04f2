/* stats_eff: `capplan stats efficiency`: requested against used, hogging. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- efficiency: requested against used, hogging ---- */

/* GPU memory of each GPU type and cluster, from the inventory. */
typedef struct GpuMem {
    double *type_mem;    /* per gpu_type id, GiB; -1 unknown */
    unsigned char *mig;  /* per gpu_type id: a MIG slice */
    double *cluster_mem; /* per cluster id: the memory all its GPUs have, else -1 */
    double *sizes;       /* distinct sizes in the inventory, ascending */
    size_t nsizes;
} GpuMem;

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a, y = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* "a100_3g.20gb" -> 20 (and *mig = 1); -1 when the name gives no size. */
static double mem_from_name(const char *name, int *mig)
{
    double gib = -1;
    *mig = 0;
    for (const char *p = name; *p; p++) {
        if (p[0] >= '0' && p[0] <= '9' && p[1] == 'g' && p[2] == '.')
            *mig = 1;
        if ((p[0] == 'g' || p[0] == 'G') && (p[1] == 'b' || p[1] == 'B') && p > name &&
            p[-1] >= '0' && p[-1] <= '9') {
            const char *q = p;
            while (q > name && q[-1] >= '0' && q[-1] <= '9')
                q--;
            gib = strtod(q, NULL);
        }
    }
    return gib;
}

static int dbl_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static void gpumem_init(GpuMem *m, const StatsInput *in)
{
    memset(m, 0, sizeof *m);
    m->type_mem = xmalloc((in->gpu_types.n + 1) * sizeof *m->type_mem);
    m->mig = xcalloc(in->gpu_types.n + 1, 1);
    for (size_t t = 0; t < in->gpu_types.n + 1; t++) {
        const char *name = t < in->gpu_types.n ? in->gpu_types.v[t] : NULL;
        int mig = 0;
        m->type_mem[t] = -1;
        if (!name || !name[0])
            continue;
        for (size_t i = 0; i < in->ninventory && m->type_mem[t] < 0; i++)
            if (ieq(in->inventory[i].gpu_model, name))
                m->type_mem[t] = in->inventory[i].gpu_mem_gib;
        double named = mem_from_name(name, &mig);
        m->mig[t] = (unsigned char)mig;
        if (m->type_mem[t] < 0 || mig)
            m->type_mem[t] = named;
    }
    m->cluster_mem = xmalloc((in->clusters.n + 1) * sizeof *m->cluster_mem);
    for (size_t c = 0; c < in->clusters.n + 1; c++) {
        m->cluster_mem[c] = -1;
        for (size_t i = 0; c < in->clusters.n && i < in->ninventory; i++) {
            const StatsGpus *g = &in->inventory[i];
            if (!stats_str_eq(g->cluster, in->clusters.v[c]))
                continue;
            if (m->cluster_mem[c] < 0)
                m->cluster_mem[c] = g->gpu_mem_gib;
            else if (m->cluster_mem[c] != g->gpu_mem_gib) {
                m->cluster_mem[c] = -1;
                break;
            }
        }
    }
    m->sizes = xmalloc((in->ninventory + 1) * sizeof *m->sizes);
    for (size_t i = 0; i < in->ninventory; i++)
        m->sizes[m->nsizes++] = in->inventory[i].gpu_mem_gib;
    qsort(m->sizes, m->nsizes, sizeof *m->sizes, dbl_cmp);
}

static void gpumem_done(GpuMem *m)
{
    free(m->type_mem);
    free(m->mig);
    free(m->cluster_mem);
    free(m->sizes);
}

/* Memory of the GPUs a job held, -1 unknown. */
static double job_gpu_mem(const GpuMem *m, const StatsInput *in, const StatsJob *j)
{
    if (j->gpu_type > 0 && (size_t)j->gpu_type < in->gpu_types.n && m->type_mem[j->gpu_type] > 0)
        return m->type_mem[j->gpu_type];
    return (size_t)j->cluster < in->clusters.n ? m->cluster_mem[j->cluster] : -1;
}

/* 1 when the job's measured peak fits a GPU of the inventory smaller than
 * the one it held. */
static int fits_smaller(const GpuMem *m, double held, double peak)
{
    for (size_t i = 0; i < m->nsizes; i++)
        if (peak <= STATS_MEM_HEADROOM * m->sizes[i])
            return m->sizes[i] < held;
    return 0;
}

/* 1 when a one-GPU job (not already on a slice) would fit a MIG slice. */
static int fits_mig(const GpuMem *m, const StatsJob *j, double peak)
{
    if (j->gpus < 0.99f || j->gpus > 1.01f || m->mig[j->gpu_type])
        return 0;
    return peak <= STATS_MEM_HEADROOM * STATS_MIG_MEM_GIB &&
           (j->gpu_util < 0 || j->gpu_util <= STATS_MIG_UTIL);
}

/* Time grid of whole hours [h0, h0 + nh): a value per hour, built from
 * intervals in O(1) each (partial hours direct, whole hours through a
 * difference array), read after grid_finish. */
typedef struct Grid {
    int64_t h0;
    size_t nh;
} Grid;

typedef struct Series {
    double *v, *diff;
} Series;

static void series_alloc(Series *s, const Grid *g)
{
    s->v = xcalloc(g->nh + 1, sizeof *s->v);
    s->diff = xcalloc(g->nh + 2, sizeof *s->diff);
}

static void series_add(Series *s, const Grid *g, int64_t a, int64_t b, double w)
{
    int64_t lo = g->h0 * HOUR, hi = (g->h0 + (int64_t)g->nh) * HOUR;
    a = a < lo ? lo : a;
    b = b > hi ? hi : b;
    if (b <= a)
        return;
    int64_t ha = civil_floor_div(a, HOUR) - g->h0, hb = civil_floor_div(b, HOUR) - g->h0;
    if (ha == hb) {
        s->v[ha] += w * (double)(b - a) / HOUR;
        return;
    }
    s->v[ha] += w * (double)((ha + 1 + g->h0) * HOUR - a) / HOUR;
    s->v[hb] += w * (double)(b - (hb + g->h0) * HOUR) / HOUR;
    s->diff[ha + 1] += w;
    s->diff[hb] -= w;
}

static void series_finish(Series *s, const Grid *g)
{
    double run = 0;
    for (size_t h = 0; h < g->nh; h++) {
        run += s->diff[h];
        s->v[h] += run;
    }
    free(s->diff);
    s->diff = NULL;
}

static void series_free(Series *s)
{
    free(s->v);
    free(s->diff);
}

/* Hogging: per cluster, GPU-hours running, pending without a GPU type
 * (waiting for any GPU) and provided; per (cluster, GPU type) pending. */
typedef struct Hog {
    Grid g;
    size_t nclusters;
    Series *run, *cap, *pend_any;
    Agg pend;    /* (cluster, gpu_type) -> Series */
    double *hog; /* per job: GPU-hours held idle while others waited */
} Hog;

static int hog_job(const StatsJob *j)
{
    return j->gpus > 0;
}

static void hog_grid(Hog *h, const Ctx *c)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < c->in->njobs; i++) {
        const StatsJob *j = &c->in->jobs[i];
        int64_t end = stats_job_end(j);
        if (!hog_job(j) || !stats_cluster_kept(c, j->cluster) || end == STATS_TIME_NONE)
            continue;
        int64_t a = stats_jsub(j) != STATS_TIME_NONE ? stats_jsub(j) : stats_jstart(j);
        lo = a < lo ? a : lo;
        hi = end > hi ? end : hi;
    }
    const int64_t max_hours = 24 * 366 * 30;
    if (hi <= lo) {
        h->g.h0 = 0;
        h->g.nh = 0;
        return;
    }
    int64_t h0 = civil_floor_div(lo, HOUR), h1 = civil_floor_div(hi, HOUR) + 1;
    if (h1 - h0 > max_hours)
        h0 = h1 - max_hours;
    h->g.h0 = h0;
    h->g.nh = (size_t)(h1 - h0);
}

static Series *pend_series(Hog *h, int32_t cluster, int32_t type)
{
    size_t before = h->pend.n;
    Series *s = stats_agg_get(&h->pend, cluster, type, 0, 0);
    if (h->pend.n > before)
        series_alloc(s, &h->g);
    return s;
}

static void hog_build(Hog *h, const Ctx *c)
{
    const StatsInput *in = c->in;
    h->nclusters = in->clusters.n + 1;
    h->run = xcalloc(h->nclusters, sizeof *h->run);
    h->cap = xcalloc(h->nclusters, sizeof *h->cap);
    h->pend_any = xcalloc(h->nclusters, sizeof *h->pend_any);
    stats_agg_init(&h->pend, sizeof(Series));
    for (size_t k = 0; k < h->nclusters; k++) {
        series_alloc(&h->run[k], &h->g);
        series_alloc(&h->cap[k], &h->g);
        series_alloc(&h->pend_any[k], &h->g);
    }
    for (size_t i = 0; i < in->ninventory; i++) {
        const StatsGpus *v = &in->inventory[i];
        int32_t k = stats_names_find(&in->clusters, v->cluster);
        if (k > 0)
            series_add(&h->cap[k], &h->g, v->from == STATS_TIME_NONE ? INT64_MIN / 2 : v->from,
                       v->to == STATS_TIME_NONE ? INT64_MAX / 2 : v->to, v->gpus);
    }
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!hog_job(j) || (size_t)j->cluster >= h->nclusters || !stats_cluster_kept(c, j->cluster))
            continue;
        int64_t end = stats_job_end(j);
        if (end != STATS_TIME_NONE)
            series_add(&h->run[j->cluster], &h->g, stats_jstart(j), end, j->gpus);
        if (stats_jstart(j) != STATS_TIME_NONE && stats_jsub(j) != STATS_TIME_NONE && stats_jstart(j) > stats_jsub(j)) {
            Series *p = j->gpu_type > 0 ? pend_series(h, j->cluster, j->gpu_type)
                                        : &h->pend_any[j->cluster];
            series_add(p, &h->g, stats_jsub(j), stats_jstart(j), j->gpus);
        }
    }
    for (size_t k = 0; k < h->nclusters; k++) {
        series_finish(&h->run[k], &h->g);
        series_finish(&h->cap[k], &h->g);
        series_finish(&h->pend_any[k], &h->g);
    }
    for (size_t i = 0; i < h->pend.n; i++)
        series_finish(stats_agg_val(&h->pend, i), &h->g);
}

/* GPU-hours job j held idle in hours where others of its class waited
 * on a busy cluster. */
static double hog_hours(const Hog *h, const StatsJob *j)
{
    int64_t a = stats_jstart(j), b = stats_job_end(j);
    const Series *typed =
        j->gpu_type > 0 ? stats_agg_find(&h->pend, j->cluster, j->gpu_type, 0, 0) : NULL;
    const Series *any = &h->pend_any[j->cluster];
    const Series *run = &h->run[j->cluster], *cap = &h->cap[j->cluster];
    int64_t lo = h->g.h0 * HOUR, hi = (h->g.h0 + (int64_t)h->g.nh) * HOUR;
    a = a < lo ? lo : a;
    b = b > hi ? hi : b;
    double sum = 0;
    while (a < b) {
        int64_t next = (civil_floor_div(a, HOUR) + 1) * HOUR;
        next = next > b ? b : next;
        size_t k = (size_t)(civil_floor_div(a, HOUR) - h->g.h0);
        double waiting = any->v[k] + (typed ? typed->v[k] : 0);
        int busy = cap->v[k] > 0 ? run->v[k] >= STATS_BUSY_UTIL * cap->v[k] : 1;
        if (waiting >= STATS_WAITING_GPU_H && busy)
            sum += j->gpus * (double)(next - a) / HOUR;
        a = next;
    }
    return sum;
}

static int job_idle(const StatsJob *j)
{
    return j->gpus > 0 && j->gpu_util >= 0 && j->gpu_util < STATS_IDLE_UTIL &&
           stats_job_end(j) != STATS_TIME_NONE && j->elapsed > 0;
}

static void hog_init(Hog *h, const Ctx *c)
{
    memset(h, 0, sizeof *h);
    h->hog = xcalloc(c->in->njobs + 1, sizeof *h->hog);
    hog_grid(h, c);
    hog_build(h, c);
    for (size_t i = 0; i < c->in->njobs; i++) {
        const StatsJob *j = &c->in->jobs[i];
        if (job_idle(j) && (size_t)j->cluster < h->nclusters && stats_cluster_kept(c, j->cluster))
            h->hog[i] = hog_hours(h, j);
    }
}

static void hog_done(Hog *h)
{
    for (size_t k = 0; k < h->nclusters; k++) {
        series_free(&h->run[k]);
        series_free(&h->cap[k]);
        series_free(&h->pend_any[k]);
    }
    for (size_t i = 0; i < h->pend.n; i++)
        series_free(stats_agg_val(&h->pend, i));
    stats_agg_done(&h->pend);
    free(h->run);
    free(h->cap);
    free(h->pend_any);
    free(h->hog);
}

typedef struct EffAcc {
    int64_t attempts, smaller_jobs, mig_jobs;
    double gpu_h, gh_util, util_x_gh, gh_mem, mem_x_gh, cpu_alloc_h, cpu_used_h;
    double mem_req_h, mem_used_h, lim_h, lim_used_h, idle_gh, hog_gh, smaller_gh, mig_gh;
} EffAcc;

static void eff_add(EffAcc *x, const GpuMem *m, const StatsInput *in, const StatsJob *j, double hog)
{
    double h = j->elapsed > 0 && stats_jstart(j) != STATS_TIME_NONE ? (double)j->elapsed / HOUR : 0;
    double gh = j->gpus * h;
    x->attempts++;
    x->gpu_h += gh;
    x->hog_gh += hog;
    if (j->gpu_util >= 0 && gh > 0) {
        x->gh_util += gh;
        x->util_x_gh += j->gpu_util * gh;
        x->idle_gh += j->gpu_util < STATS_IDLE_UTIL ? gh : 0;
    }
    double held = job_gpu_mem(m, in, j);
    if ((j->flags & STATS_JOB_MEM_MEASURED) && j->gpu_mem_gib >= 0 && gh > 0 && held > 0) {
        x->gh_mem += gh;
        x->mem_x_gh += (j->gpu_mem_gib / held) * gh;
        if (fits_smaller(m, held, j->gpu_mem_gib)) {
            x->smaller_jobs++;
            x->smaller_gh += gh;
        }
        if (fits_mig(m, j, j->gpu_mem_gib)) {
            x->mig_jobs++;
            x->mig_gh += gh;
        }
    }
    if (j->total_cpu_s >= 0 && j->ncpus > 0 && h > 0) {
        x->cpu_alloc_h += j->ncpus * h;
        x->cpu_used_h += j->total_cpu_s / HOUR;
    }
    if (j->max_rss_mib >= 0 && j->req_mem_mib > 0 && h > 0) {
        x->mem_req_h += j->req_mem_mib * h;
        x->mem_used_h += j->max_rss_mib * h;
    }
    if (j->timelimit > 0 && h > 0) {
        x->lim_h += (double)j->timelimit / HOUR;
        x->lim_used_h += h;
    }
}

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

static void eff_rows(const Ctx *c, StatsTable *te, StatsTable *tw, const AggKey *k, const EffAcc *x)
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

typedef struct HogRank {
    double hog;
    size_t idx;
} HogRank;

static int hog_cmp(const void *pa, const void *pb)
{
    const HogRank *a = pa, *b = pb;
    if (a->hog != b->hog)
        return a->hog < b->hog ? 1 : -1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

enum { TOP_HOGS = 10 };

static void top_hogs(const Ctx *c, StatsReport *r, const Hog *h)
{
    const StatsInput *in = c->in;
    HogRank *v = xmalloc((in->njobs + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < in->njobs; i++) {
        if (h->hog[i] > 0 && stats_job_kept(c, i)) {
            v[n].hog = h->hog[i];
            v[n++].idx = i;
        }
    }
    qsort(v, n, sizeof *v, hog_cmp);
    StatsTable *t =
        stats_report_add_table(r, "top_hogs", "Attempts that held the most GPUs idle while others waited",
                     hog_cols, NCOLS(hog_cols));
    for (size_t i = 0; i < n && i < TOP_HOGS; i++) {
        const StatsJob *j = &in->jobs[v[i].idx];
        int32_t g = c->jgroup[v[i].idx];
        char date[32];
        int64_t y;
        int mo, dd;
        civil_from_days(civil_floor_div(stats_jstart(j), DAY), &y, &mo, &dd);
        snprintf(date, sizeof date, "%04lld-%02d-%02d", (long long)y, mo, dd);
        StatsCell *row = stats_table_add_row(t);
        char id[24];
        snprintf(id, sizeof id, "%lu", (unsigned long)j->job_raw);
        stats_cell_set_text(t, &row[0], id);
        stats_cell_set_text(t, &row[1], stats_name_or(&in->clusters, j->cluster, "(none)"));
        stats_cell_set_text(t, &row[2], stats_name_or(&in->users, j->user, "(none)"));
        stats_cell_set_text(t, &row[3], c->ro.groups.name[g]);
        stats_cell_set_text(t, &row[4], date);
        row[5].num = j->gpus;
        row[6].num = j->gpu_util;
        row[7].num = (double)j->elapsed / HOUR;
        row[8].num = v[i].hog;
    }
    free(v);
}

void stats_kind_efficiency(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    GpuMem m;
    Hog h;
    Agg g;
    gpumem_init(&m, in);
    hog_init(&h, c);
    stats_agg_init(&g, sizeof(EffAcc));
    int per_user = c->group >= 0;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!stats_job_kept(c, i))
            continue;
        int32_t p = stats_job_period(c, i), grp = c->jgroup[i];
        eff_add(stats_agg_get(&g, p, grp, -1, 0), &m, in, j, h.hog[i]);
        if (per_user)
            eff_add(stats_agg_get(&g, p, grp, stats_name_id(&in->users, j->user), 0), &m, in, j, h.hog[i]);
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
    top_hogs(c, r, &h);
    stats_agg_done(&g);
    hog_done(&h);
    gpumem_done(&m);
}
