/* stats_waits: `capplan stats waits`: wait and time-to-solution quantiles. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- waits ---- */

/* Waits and times to solution are whole seconds: each cell of the table
 * keeps them as a sorted array of 32-bit integers (radix-sorted once), and
 * a row that sums several cells (a partition, a GPU count, a period) finds
 * its quantiles over the union of their sorted arrays by bisection on the
 * value, without copying them. */
typedef struct UVec {
    uint32_t *v;
    size_t n, cap;
    double sum;
} UVec;

static void uvec_push(UVec *u, double x)
{
    if (u->n == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 16;
        u->v = xrealloc(u->v, u->cap * sizeof *u->v);
    }
    u->v[u->n++] = x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x;
    u->sum += x;
}

/* LSD radix sort, three passes of 11 bits. */
static void radix_sort(uint32_t *v, size_t n)
{
    if (n < 2)
        return;
    uint32_t *tmp = xmalloc(n * sizeof *tmp), *src = v, *dst = tmp;
    for (int shift = 0; shift < 33; shift += 11) {
        size_t count[2049] = {0};
        for (size_t i = 0; i < n; i++)
            count[((src[i] >> shift) & 2047) + 1]++;
        for (int b = 0; b < 2048; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 2047]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(tmp);
}

/* Values <= x in sorted v. */
static size_t count_le(const UVec *u, uint32_t x)
{
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->v[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The k-th smallest (0-based) of the union of sorted sets. */
static uint32_t union_kth(const UVec *const *sets, size_t nsets, size_t k)
{
    if (nsets == 1)
        return sets[0]->v[k];
    uint32_t lo = 0, hi = UINT32_MAX;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        size_t c = 0;
        for (size_t i = 0; i < nsets; i++)
            c += count_le(sets[i], mid);
        if (c > k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Quantiles ps[0..k) of the union (numpy's linear interpolation), and
 * the count and mean. */
static size_t union_quantiles(const UVec *const *sets, size_t nsets, const double *ps, size_t k,
                              double *out, double *mean)
{
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; i < nsets; i++) {
        n += sets[i]->n;
        sum += sets[i]->sum;
    }
    *mean = n ? sum / (double)n : NAN;
    for (size_t q = 0; q < k; q++) {
        if (n == 0) {
            out[q] = NAN;
            continue;
        }
        double h = (double)(n - 1) * ps[q];
        size_t lo = (size_t)h;
        double a = union_kth(sets, nsets, lo);
        double b = lo + 1 < n && h > (double)lo ? union_kth(sets, nsets, lo + 1) : a;
        out[q] = a + (h - (double)lo) * (b - a);
    }
    return n;
}

typedef struct WaitAcc {
    UVec waits, tts; /* s, sorted once collected */
} WaitAcc;

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

/* Time from the job's first submission to the end of its final run, for
 * a completed final attempt; -1 otherwise. */
static double job_tts(const StatsJob *j)
{
    int64_t end = stats_job_end(j);
    if (!(j->flags & STATS_JOB_FINAL) || j->state != STATS_ST_COMPLETED || end == STATS_TIME_NONE ||
        stats_jsub(j) == STATS_TIME_NONE)
        return -1;
    int64_t first = stats_jsub(j) - (j->first_ago > 0 ? j->first_ago : 0);
    return end >= first ? (double)(end - first) : -1;
}

/* One row over the cells in cells[0..n). */
static void wait_row(const Ctx *c, StatsTable *t, int32_t p, const char *part, const char *gpus,
                     const WaitAcc *const *cells, size_t n)
{
    static const double ps[3] = {0.5, 0.9, 0.99};
    const UVec *w[64], *tt[64];
    double q[3], mean, tmean;
    assert(n <= 64);
    for (size_t i = 0; i < n; i++) {
        w[i] = &cells[i]->waits;
        tt[i] = &cells[i]->tts;
    }
    StatsCell *row = stats_table_add_row(t);
    size_t nw = union_quantiles(w, n, ps, 3, q, &mean);
    stats_put_period(c, t, &row[0], p);
    stats_cell_set_text(t, &row[1], part);
    stats_cell_set_text(t, &row[2], gpus);
    row[3].num = (double)nw;
    for (int k = 0; k < 3; k++)
        row[4 + k].num = q[k] / HOUR;
    row[7].num = mean / HOUR;
    row[8].num = (double)union_quantiles(tt, n, ps, 2, q, &tmean);
    row[9].num = q[0] / HOUR;
    row[10].num = q[1] / HOUR;
}

/* A row over several cells, many at a time (a union of up to 64 sets is
 * searched directly; more are merged first). */
static void wait_row_many(const Ctx *c, StatsTable *t, int32_t p, const char *part,
                          const char *gpus, const WaitAcc *const *cells, size_t n)
{
    if (n == 0)
        return;
    if (n <= 64) {
        wait_row(c, t, p, part, gpus, cells, n);
        return;
    }
    WaitAcc merged;
    memset(&merged, 0, sizeof merged);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < cells[i]->waits.n; k++)
            uvec_push(&merged.waits, cells[i]->waits.v[k]);
        for (size_t k = 0; k < cells[i]->tts.n; k++)
            uvec_push(&merged.tts, cells[i]->tts.v[k]);
    }
    radix_sort(merged.waits.v, merged.waits.n);
    radix_sort(merged.tts.v, merged.tts.n);
    const WaitAcc *one = &merged;
    wait_row(c, t, p, part, gpus, &one, 1);
    free(merged.waits.v);
    free(merged.tts.v);
}

/* The rows of one period: cells [lo, hi) of order, sorted by partition
 * then GPU class. */
static void wait_period(const Ctx *c, StatsTable *t, const Agg *g, const size_t *order, size_t lo,
                        size_t hi)
{
    const StatsInput *in = c->in;
    int32_t p = g->keys[order[lo]].period;
    size_t n = hi - lo, ncls[NGPU_CLASS] = {0};
    const WaitAcc **all = xmalloc((n + 1) * sizeof *all);
    const WaitAcc **cls = xmalloc((n * NGPU_CLASS + 1) * sizeof *cls);
    for (size_t i = lo; i < hi; i++) {
        int32_t gc = g->keys[order[i]].b;
        all[i - lo] = stats_agg_val(g, order[i]);
        cls[gc * n + ncls[gc]++] = all[i - lo];
    }
    wait_row_many(c, t, p, "all", "all", all, n);
    for (int gc = 0; gc < NGPU_CLASS; gc++)
        wait_row_many(c, t, p, "all", stats_gpu_class_name[gc], cls + gc * n, ncls[gc]);
    for (size_t i = 0; i < n;) {
        int32_t part = g->keys[order[lo + i]].a;
        const char *pname = stats_name_or(&in->partitions, part, "(none)");
        size_t j = i;
        while (j < n && g->keys[order[lo + j]].a == part)
            j++;
        wait_row_many(c, t, p, pname, "all", all + i, j - i);
        for (; i < j; i++)
            wait_row(c, t, p, pname, stats_gpu_class_name[g->keys[order[lo + i]].b], all + i, 1);
    }
    free(all);
    free(cls);
}

void stats_kind_waits(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg g;
    stats_agg_init(&g, sizeof(WaitAcc));
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        double w = stats_job_wait(j), tts = job_tts(j);
        if ((w < 0 && tts < 0) || !stats_job_kept(c, i))
            continue;
        int32_t part = stats_name_id(&in->partitions, j->partition);
        WaitAcc *x = stats_agg_get(&g, stats_job_period(c, i), part, stats_gpu_class(j->gpus), 0);
        if (w >= 0)
            uvec_push(&x->waits, w);
        if (tts >= 0)
            uvec_push(&x->tts, tts);
    }
    for (size_t i = 0; i < g.n; i++) {
        WaitAcc *x = stats_agg_val(&g, i);
        radix_sort(x->waits.v, x->waits.n);
        radix_sort(x->tts.v, x->tts.n);
    }
    StatsTable *t = stats_report_add_table(r, "waits",
                                 "Waits (submit to start, per attempt) and time to solution "
                                 "(first submit to end, per completed job)",
                                 wait_cols, NCOLS(wait_cols));
    size_t *order = stats_agg_order(&g, c->part_rank, NULL, NULL);
    for (size_t lo = 0; lo < g.n;) {
        size_t hi = lo;
        while (hi < g.n && g.keys[order[hi]].period == g.keys[order[lo]].period)
            hi++;
        wait_period(c, t, &g, order, lo, hi);
        lo = hi;
    }
    for (size_t i = 0; i < g.n; i++) {
        WaitAcc *x = stats_agg_val(&g, i);
        free(x->waits.v);
        free(x->tts.v);
    }
    free(order);
    stats_agg_done(&g);
}
