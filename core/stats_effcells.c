/* stats_effcells: the efficiency aggregates (see stats.h): per-attempt
 * sums and hourly curves of running and pending GPUs, built from attempts,
 * merged month by month, written as and read from bytes. Hogging and the top
 * hogs: stats_effhog.c; the builder's insides: stats_eff_int.h. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"

#include "core/stats_eff_int.h"

/* ---- GPU memory: what a job held, what it would fit ---- */

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

/* The id of GPU type name (0 untyped), interned with its memory. */
int32_t stats_eff_type_intern(StatsEffBuild *b, const char *name)
{
    int64_t id;
    if (!name || !name[0])
        return 0;
    size_t len = strlen(name);
    if (strmap_get(b->tmap, name, len, &id))
        return (int32_t)id;
    if (b->ntypes == b->captypes) {
        b->captypes *= 2;
        b->tname = xrealloc(b->tname, b->captypes * sizeof *b->tname);
        b->tmem = xrealloc(b->tmem, b->captypes * sizeof *b->tmem);
        b->tmig = xrealloc(b->tmig, b->captypes);
    }
    id = (int64_t)b->ntypes++;
    b->tname[id] = xstrdup(name);
    double mem = -1;
    for (size_t i = 0; i < b->ninv && mem < 0; i++)
        if (b->inv[i].gpu_model && ieq(b->inv[i].gpu_model, name))
            mem = b->inv[i].gpu_mem_gib;
    int mig = 0;
    double named = mem_from_name(name, &mig);
    b->tmem[id] = mem < 0 || mig ? named : mem;
    b->tmig[id] = (unsigned char)mig;
    strmap_put(b->tmap, name, len, id);
    return (int32_t)id;
}

/* Cluster id's name learnt (first sight) and its GPUs' memory, -1 when
 * they differ or are unknown. */
static void cluster_learn(StatsEffBuild *b, uint16_t id, const char *name)
{
    if (id >= b->nclusters) {
        size_t n = (size_t)id + 16;
        b->cname = xrealloc(b->cname, n * sizeof *b->cname);
        b->cmem = xrealloc(b->cmem, n * sizeof *b->cmem);
        for (size_t i = b->nclusters; i < n; i++) {
            b->cname[i] = NULL;
            b->cmem[i] = -1;
        }
        b->nclusters = n;
    }
    if (b->cname[id] || !name)
        return;
    b->cname[id] = xstrdup(name);
    double m = -1;
    for (size_t i = 0; i < b->ninv; i++) {
        if (!stats_str_eq(b->inv[i].cluster, name))
            continue;
        if (m < 0) {
            m = b->inv[i].gpu_mem_gib;
        } else if (m != b->inv[i].gpu_mem_gib) {
            m = -1;
            break;
        }
    }
    b->cmem[id] = m;
}

static double held_mem(const StatsEffBuild *b, uint16_t cluster, int32_t type)
{
    if (type > 0 && b->tmem[type] > 0)
        return b->tmem[type];
    return cluster < b->nclusters ? b->cmem[cluster] : -1;
}

/* 1 when the peak fits a GPU of the inventory smaller than the one held. */
static int fits_smaller(const StatsEffBuild *b, double held, double peak)
{
    for (size_t i = 0; i < b->nsizes; i++)
        if (peak <= STATS_MEM_HEADROOM * b->sizes[i])
            return b->sizes[i] < held;
    return 0;
}

/* 1 when a one-GPU job (not already on a slice) would fit a MIG slice. */
static int fits_mig(const StatsEffBuild *b, const StatsJob *j, int32_t type, double peak)
{
    if (j->gpus < 0.99f || j->gpus > 1.01f || b->tmig[type])
        return 0;
    return peak <= STATS_MEM_HEADROOM * STATS_MIG_MEM_GIB &&
           (j->gpu_util < 0 || j->gpu_util <= STATS_MIG_UTIL);
}

/* ---- the builder ---- */

StatsEffBuild *stats_eff_build_new(const StatsGpus *inv, size_t ninv, size_t keep_idle)
{
    StatsEffBuild *b = xcalloc(1, sizeof *b);
    b->inv = inv;
    b->ninv = ninv;
    b->sizes = xmalloc((ninv + 1) * sizeof *b->sizes);
    for (size_t i = 0; i < ninv; i++)
        b->sizes[b->nsizes++] = inv[i].gpu_mem_gib;
    qsort(b->sizes, b->nsizes, sizeof *b->sizes, dbl_cmp);
    b->tmap = strmap_new();
    b->captypes = 16;
    b->tname = xmalloc(b->captypes * sizeof *b->tname);
    b->tmem = xmalloc(b->captypes * sizeof *b->tmem);
    b->tmig = xmalloc(b->captypes);
    b->tname[0] = NULL;
    b->tmem[0] = -1;
    b->tmig[0] = 0;
    b->ntypes = 1;
    stats_agg_init(&b->cells, sizeof(StatsEffSum));
    stats_agg_init(&b->tops, sizeof(TopList));
    stats_agg_init(&b->curves, sizeof(Curve));
    stats_agg_init(&b->old, sizeof(Curve));
    stats_agg_init(&b->conds, MONTH_HOURS);
    b->keep_idle = keep_idle;
    b->mc_from = 1;
    for (int k = 0; k <= CURVE_KINDS; k++)
        b->lastkey[k].period = INT32_MIN;
    return b;
}

void stats_eff_build_free(StatsEffBuild *b)
{
    if (!b)
        return;
    free(b->sizes);
    strmap_free(b->tmap);
    for (size_t i = 0; i < b->ntypes; i++)
        free(b->tname[i]);
    free(b->tname);
    free(b->tmem);
    free(b->tmig);
    free(b->tcache);
    for (size_t i = 0; i < b->nclusters; i++)
        free(b->cname[i]);
    free(b->cname);
    free(b->cmem);
    stats_agg_done(&b->cells);
    stats_agg_done(&b->tops);
    stats_agg_done(&b->curves);
    stats_agg_done(&b->old);
    stats_agg_done(&b->conds);
    free(b->idle);
    free(b);
}

int stats_eff_build_types(StatsEffBuild *b, const void *blob, size_t n)
{
    const char *p = blob;
    if (b->ntypes != 1 || (n > 0 && p[n - 1] != '\0'))
        return -1;
    for (size_t i = 0; i < n;) {
        size_t len = strlen(p + i);
        if (len == 0 || stats_eff_type_intern(b, p + i) != (int32_t)b->ntypes - 1)
            return -1;
        i += len + 1;
    }
    return 0;
}

void stats_eff_types_blob(const StatsEffBuild *b, CpBuf *out)
{
    for (size_t i = 1; i < b->ntypes; i++)
        cpbuf_append(out, b->tname[i], strlen(b->tname[i]) + 1);
}

int32_t stats_eff_month_of(StatsEffBuild *b, int64_t t)
{
    if (t < b->mc_from || t >= b->mc_to) {
        b->mc_month = stats_month_of(t);
        b->mc_from = stats_month_start(b->mc_month);
        b->mc_to = stats_month_start(stats_month_add(b->mc_month, 1));
    }
    return b->mc_month;
}

/* stats_agg_get through the last key of slot (the sums and each curve
 * kind alternate: the aggregator's own one-key memory would miss). */
static void *get_cached(StatsEffBuild *b, Agg *g, int slot, int32_t p, int32_t x, int32_t y,
                        int32_t z)
{
    AggKey *k = &b->lastkey[slot];
    if (k->period == p && k->a == x && k->b == y && k->c == z)
        return stats_agg_val(g, b->lastidx[slot]);
    char *v = stats_agg_get(g, p, x, y, z);
    *k = (AggKey){p, x, y, z};
    b->lastidx[slot] = (size_t)(v - g->vals) / g->valsz;
    return v;
}

/* The id of the caller's GPU type id (named name). */
static int32_t type_of(StatsEffBuild *b, uint16_t id, const char *name)
{
    if (id >= b->ntcache) {
        size_t n = (size_t)id + 16;
        b->tcache = xrealloc(b->tcache, n * sizeof *b->tcache);
        memset(b->tcache + b->ntcache, 0, (n - b->ntcache) * sizeof *b->tcache);
        b->ntcache = n;
    }
    if (b->tcache[id] == 0)
        b->tcache[id] = stats_eff_type_intern(b, name) + 1;
    return b->tcache[id] - 1;
}

/* Add w GPUs over [a, t1) to a curve, month by month. */
static void curve_add(StatsEffBuild *b, int kind, uint16_t cluster, int32_t type, int64_t a,
                      int64_t t1, double w)
{
    while (a < t1) {
        int32_t m = stats_eff_month_of(b, a);
        int64_t m0 = b->mc_from, m1 = b->mc_to, e = t1 < m1 ? t1 : m1;
        Curve *c = get_cached(b, &b->curves, kind, m, kind, cluster, type);
        int64_t h0 = m0 / HOUR, ha = civil_floor_div(a, HOUR) - h0,
                hb = civil_floor_div(e, HOUR) - h0;
        if (ha == hb) {
            c->v[ha] += w * (double)(e - a) / HOUR;
        } else {
            c->v[ha] += w * (double)((ha + 1 + h0) * HOUR - a) / HOUR;
            if (e > (hb + h0) * HOUR)
                c->v[hb] += w * (double)(e - (hb + h0) * HOUR) / HOUR;
            c->diff[ha + 1] += w;
            c->diff[hb] -= w;
        }
        a = e;
    }
}

StatsEffSum *stats_eff_cell_of(StatsEffBuild *b, const StatsEffKey *k)
{
    size_t before = b->cells.n;
    StatsEffSum *x = get_cached(b, &b->cells, CURVE_KINDS, k->month, k->user, k->account, k->cluster);
    if (b->cells.n > before)
        x->k = *k;
    return x;
}

static void sums_add(StatsEffBuild *b, StatsEffSum *x, const StatsJob *j, int32_t type)
{
    double h = j->elapsed > 0 && stats_jstart(j) != STATS_TIME_NONE ? (double)j->elapsed / HOUR : 0;
    double gh = j->gpus * h;
    x->attempts++;
    x->gpu_h += gh;
    if (j->gpu_util >= 0 && gh > 0) {
        x->gh_util += gh;
        x->util_x_gh += j->gpu_util * gh;
        x->idle_gh += j->gpu_util < STATS_IDLE_UTIL ? gh : 0;
    }
    double held = held_mem(b, j->cluster, type);
    if ((j->flags & STATS_JOB_MEM_MEASURED) && j->gpu_mem_gib >= 0 && gh > 0 && held > 0) {
        x->gh_mem += gh;
        x->mem_x_gh += (j->gpu_mem_gib / held) * gh;
        if (fits_smaller(b, held, j->gpu_mem_gib)) {
            x->smaller_jobs++;
            x->smaller_gh += gh;
        }
        if (fits_mig(b, j, type, j->gpu_mem_gib)) {
            x->mig_jobs++;
            x->mig_gh += gh;
        }
    }
    if (j->total_cpu_s >= 0 && j->cpu_milli > 0 && h > 0) {
        x->cpu_alloc_h += j->cpu_milli / 1000.0 * h;
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

int stats_eff_job_idle(const StatsJob *j)
{
    return j->gpus > 0 && j->gpu_util >= 0 && j->gpu_util < STATS_IDLE_UTIL &&
           stats_job_end(j) != STATS_TIME_NONE && j->elapsed > 0;
}

static void idle_keep(StatsEffBuild *b, const StatsJob *j, int64_t id, int32_t month, int32_t type)
{
    if (b->nidle == b->capidle)
        b->idle = xrealloc(b->idle, (b->capidle = b->capidle ? b->capidle * 2 : 1024) *
                                        sizeof *b->idle);
    Idle *x = &b->idle[b->nidle++];
    memset(x, 0, sizeof *x);
    x->id = id;
    x->start = j->start;
    x->job_raw = j->job_raw;
    x->elapsed = j->elapsed;
    x->month = month;
    x->user = j->user;
    x->account = j->account;
    x->type = type;
    x->gpus = j->gpus;
    x->gpu_util = j->gpu_util;
    x->cluster = j->cluster;
}

void stats_eff_build_job(StatsEffBuild *b, const StatsJob *j, int64_t id, const char *cluster,
                         const char *type, int count)
{
    int32_t t = type_of(b, j->gpu_type, type);
    cluster_learn(b, j->cluster, cluster);
    int64_t start = stats_jstart(j), sub = stats_jsub(j), end = stats_job_end(j);
    if (j->gpus > 0) {
        if (end != STATS_TIME_NONE)
            curve_add(b, CURVE_RUN, j->cluster, 0, start, end, j->gpus);
        if (start != STATS_TIME_NONE && sub != STATS_TIME_NONE && start > sub)
            curve_add(b, t > 0 ? CURVE_PEND : CURVE_PEND_ANY, j->cluster, t, sub, start, j->gpus);
    }
    int64_t anchor = stats_job_anchor(j);
    if (!count || anchor == STATS_TIME_NONE)
        return;
    StatsEffKey k = {stats_eff_month_of(b, anchor), j->user, j->account, j->cluster, 0};
    sums_add(b, stats_eff_cell_of(b, &k), j, t);
    if (!stats_eff_job_idle(j))
        return;
    curve_add(b, CURVE_IDLE, j->cluster, t, start, end, j->gpus);
    if (!b->dropped && b->nidle < b->keep_idle) {
        idle_keep(b, j, id, k.month, t);
        return;
    }
    b->dropped = 1;
    free(b->idle);
    b->idle = NULL;
    b->nidle = b->capidle = 0;
}

int stats_eff_build_second_pass(const StatsEffBuild *b)
{
    return b->dropped;
}

/* ---- curves as bytes ---- */

#define CURVE_MAGIC 0x31434645u /* "EFC1" */
#define MONTH_MAGIC 0x31464645u /* "EFF1" */

typedef struct CurveHead {
    uint32_t magic;
    int32_t month;
    uint32_t nseries, nhours;
} CurveHead;

typedef struct CurveKey {
    uint8_t kind, pad;
    uint16_t cluster;
    int32_t type;
} CurveKey;

uint32_t stats_eff_month_hours(int32_t m)
{
    return (uint32_t)((stats_month_start(stats_month_add(m, 1)) - stats_month_start(m)) / HOUR);
}

int stats_eff_build_old_curves(StatsEffBuild *b, const void *blob, size_t n)
{
    CurveHead h;
    if (n < sizeof h)
        return -1;
    memcpy(&h, blob, sizeof h);
    size_t each = sizeof(CurveKey) + h.nhours * sizeof(double);
    if (h.magic != CURVE_MAGIC || h.month < 100001 || h.nhours != stats_eff_month_hours(h.month) ||
        n != sizeof h + (size_t)h.nseries * each)
        return -1;
    const char *p = (const char *)blob + sizeof h;
    for (uint32_t i = 0; i < h.nseries; i++, p += each) {
        CurveKey k;
        memcpy(&k, p, sizeof k);
        if (k.kind >= CURVE_KINDS || k.type < 0 || (size_t)k.type >= b->ntypes)
            return -1;
    }
    p = (const char *)blob + sizeof h;
    for (uint32_t i = 0; i < h.nseries; i++, p += each) {
        CurveKey k;
        memcpy(&k, p, sizeof k);
        Curve *c = stats_agg_get(&b->old, h.month, k.kind, k.cluster, k.type);
        memcpy(c->v, p + sizeof k, h.nhours * sizeof(double));
    }
    return 0;
}

static int i32_cmp(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* The distinct periods of the keys of aggs[0..n), ascending. */
static size_t agg_months(const Agg *const *aggs, int n, int32_t **months)
{
    size_t total = 0, u = 0;
    for (int a = 0; a < n; a++)
        total += aggs[a]->n;
    int32_t *v = xmalloc((total + 1) * sizeof *v);
    for (int a = 0; a < n; a++)
        for (size_t i = 0; i < aggs[a]->n; i++)
            v[u++] = aggs[a]->keys[i].period;
    qsort(v, u, sizeof *v, i32_cmp);
    size_t k = 0;
    for (size_t i = 0; i < u; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    *months = v;
    return k;
}

size_t stats_eff_build_curve_months(const StatsEffBuild *b, int32_t **months)
{
    const Agg *a[1] = {&b->curves};
    return agg_months(a, 1, months);
}

void stats_eff_curve_blob(const StatsEffBuild *b, int32_t month, CpBuf *out)
{
    CurveHead h = {CURVE_MAGIC, month, 0, stats_eff_month_hours(month)};
    size_t at = out->len;
    cpbuf_append(out, &h, sizeof h);
    const Agg *src[2] = {&b->old, &b->curves};
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < src[s]->n; i++) {
            const AggKey *k = &src[s]->keys[i];
            if (k->period != month || (s == 1 && stats_agg_find(&b->old, k->period, k->a, k->b, k->c)))
                continue;
            const Curve *c = stats_agg_val(src[s], i);
            const Curve *o = s == 0 ? stats_agg_find(&b->curves, k->period, k->a, k->b, k->c) : NULL;
            CurveKey ck = {(uint8_t)k->a, 0, (uint16_t)k->b, k->c};
            cpbuf_append(out, &ck, sizeof ck);
            for (uint32_t hr = 0; hr < h.nhours; hr++) {
                double v = c->v[hr] + (o ? o->v[hr] : 0);
                cpbuf_append(out, &v, sizeof v);
            }
            h.nseries++;
        }
    }
    memcpy(out->data + at, &h, sizeof h);
}

/* ---- sums and tops as bytes ---- */

typedef struct MonthHead {
    uint32_t magic;
    int32_t month;
    uint32_t ncells, ntops;
} MonthHead;

void stats_eff_sum_merge(StatsEffSum *x, const StatsEffSum *y)
{
    x->attempts += y->attempts;
    x->smaller_jobs += y->smaller_jobs;
    x->mig_jobs += y->mig_jobs;
    double *xd = &x->gpu_h;
    const double *yd = &y->gpu_h;
    for (size_t i = 0; i < (sizeof *x - offsetof(StatsEffSum, gpu_h)) / sizeof(double); i++)
        xd[i] += yd[i];
}

static int month_parse(const void *blob, size_t n, MonthHead *h)
{
    if (n < sizeof *h)
        return -1;
    memcpy(h, blob, sizeof *h);
    uint64_t want = sizeof *h + (uint64_t)h->ncells * sizeof(StatsEffSum) +
                    (uint64_t)h->ntops * sizeof(StatsHogTop);
    return h->magic == MONTH_MAGIC && want == n ? 0 : -1;
}

int stats_eff_build_month(StatsEffBuild *b, const void *blob, size_t n)
{
    MonthHead h;
    if (month_parse(blob, n, &h) < 0)
        return -1;
    const char *p = (const char *)blob + sizeof h;
    for (uint32_t i = 0; i < h.ncells; i++, p += sizeof(StatsEffSum)) {
        StatsEffSum c;
        memcpy(&c, p, sizeof c);
        stats_eff_sum_merge(stats_eff_cell_of(b, &c.k), &c);
    }
    for (uint32_t i = 0; i < h.ntops; i++, p += sizeof(StatsHogTop)) {
        StatsHogTop t;
        memcpy(&t, p, sizeof t);
        stats_eff_top_put(stats_agg_get(&b->tops, t.month, t.cluster, 0, 0), &t);
    }
    return 0;
}

size_t stats_eff_build_months(const StatsEffBuild *b, int32_t **months)
{
    const Agg *a[2] = {&b->cells, &b->tops};
    return agg_months(a, 2, months);
}

void stats_eff_month_blob(const StatsEffBuild *b, int32_t month, CpBuf *out)
{
    MonthHead h = {MONTH_MAGIC, month, 0, 0};
    size_t at = out->len;
    cpbuf_append(out, &h, sizeof h);
    for (size_t i = 0; i < b->cells.n; i++) {
        if (b->cells.keys[i].period != month)
            continue;
        cpbuf_append(out, stats_agg_val(&b->cells, i), sizeof(StatsEffSum));
        h.ncells++;
    }
    for (size_t i = 0; i < b->tops.n; i++) {
        if (b->tops.keys[i].period != month)
            continue;
        const TopList *l = stats_agg_val(&b->tops, i);
        cpbuf_append(out, l->e, (size_t)l->n * sizeof *l->e);
        h.ntops += (uint32_t)l->n;
    }
    memcpy(out->data + at, &h, sizeof h);
}

/* ---- the owned arrays ---- */

int stats_eff_buf_add(StatsEffBuf *buf, const void *blob, size_t n)
{
    MonthHead h;
    if (month_parse(blob, n, &h) < 0)
        return -1;
    StatsEff *e = &buf->e;
    const char *p = (const char *)blob + sizeof h;
    if (e->ncells + h.ncells > buf->cap[0]) {
        buf->cap[0] = (e->ncells + h.ncells) * 2;
        buf->cells = xrealloc(buf->cells, buf->cap[0] * sizeof *buf->cells);
    }
    if (e->ntops + h.ntops > buf->cap[1]) {
        buf->cap[1] = (e->ntops + h.ntops) * 2;
        buf->tops = xrealloc(buf->tops, buf->cap[1] * sizeof *buf->tops);
    }
    if (h.ncells)
        memcpy(buf->cells + e->ncells, p, h.ncells * sizeof *buf->cells);
    if (h.ntops)
        memcpy(buf->tops + e->ntops, p + h.ncells * sizeof *buf->cells,
               h.ntops * sizeof *buf->tops);
    e->ncells += h.ncells;
    e->ntops += h.ntops;
    e->cells = buf->cells;
    e->tops = buf->tops;
    return 0;
}

void stats_eff_buf_from(StatsEffBuf *buf, const StatsEffBuild *b)
{
    int32_t *months;
    size_t n = stats_eff_build_months(b, &months);
    CpBuf blob;
    cpbuf_init(&blob);
    for (size_t i = 0; i < n; i++) {
        cpbuf_clear(&blob);
        stats_eff_month_blob(b, months[i], &blob);
        stats_eff_buf_add(buf, blob.data, blob.len);
    }
    cpbuf_done(&blob);
    free(months);
}

void stats_eff_buf_done(StatsEffBuf *buf)
{
    free(buf->cells);
    free(buf->tops);
    memset(buf, 0, sizeof *buf);
}
