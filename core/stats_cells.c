/* stats_cells: the aggregates utilisation, preemption and waits read (see
 * stats.h): built from attempts, merged month by month, written as and
 * read from bytes; and the histograms' quantiles. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats_int.h"

/* ---- histograms ---- */

int stats_hist_bucket(double v)
{
    uint32_t x = v <= 0 ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v;
    if (x < 2 * STATS_HIST_SUB)
        return (int)x;
    int e = 31;
    while (!(x >> e))
        e--;
    int sub = (int)((x >> (e - 6)) & (STATS_HIST_SUB - 1));
    return 2 * STATS_HIST_SUB + (e - 7) * STATS_HIST_SUB + sub;
}

/* The mean of the values of the bucket of rank r (0-based) among h[0..n). */
static double hist_value(const StatsHistAcc *h, size_t n, int64_t r)
{
    for (size_t i = 0; i < n; i++) {
        if (r < h[i].count)
            return h[i].sum / (double)h[i].count;
        r -= h[i].count;
    }
    return NAN;
}

size_t stats_hist_quantiles(const StatsHistAcc *h, size_t n, const double *ps, size_t k,
                            double *out, double *sum)
{
    int64_t total = 0;
    *sum = 0;
    for (size_t i = 0; i < n; i++) {
        total += h[i].count;
        *sum += h[i].sum;
    }
    for (size_t q = 0; q < k; q++) {
        if (total == 0) {
            out[q] = NAN;
            continue;
        }
        double at = (double)(total - 1) * ps[q];
        int64_t lo = (int64_t)at;
        double a = hist_value(h, n, lo);
        double b = lo + 1 < total && at > (double)lo ? hist_value(h, n, lo + 1) : a;
        out[q] = a + (at - (double)lo) * (b - a);
    }
    return (size_t)total;
}

/* ---- the builder ---- */

typedef struct HistVal {
    int64_t count;
    double sum;
} HistVal;

/* The histograms, dense: per (hkey, kind) a row of blocks found by index,
 * a block (one cache line) HIST_BLK buckets wide made on first use, and
 * the buckets themselves in the order they were made (the order a month's
 * blob lists them). A value costs two index steps, a block and its bucket,
 * not a probe of a hash over (hkey, kind, bucket) of up to 400,000
 * buckets. */
enum { HIST_BLK = 16, HIST_NBLK = (STATS_HIST_BUCKETS + HIST_BLK - 1) / HIST_BLK };

typedef struct HistBlock {
    uint32_t ent[HIST_BLK]; /* the bucket's index in refs + 1, 0 none */
} HistBlock;

typedef struct HistRow {
    uint32_t blk[HIST_NBLK]; /* block index + 1, 0 none */
} HistRow;

typedef struct HistRef {
    HistVal v;
    uint32_t hkey;
    uint16_t bucket;
    uint8_t what;
} HistRef;

typedef struct Hist {
    uint32_t *row_of; /* [hkey * STATS_HIST_KINDS + kind]: row index + 1, 0 none */
    HistRow *rows;
    HistBlock *blocks;
    HistRef *refs; /* the buckets, in the order they were made */
    size_t nrow_of, nrows, nblocks, n;
    size_t cap_row_of, cap_rows, cap_blocks, cap_refs;
} Hist;

struct StatsCellsBuild {
    int fine;
    Agg cells; /* packed key -> StatsCellSum */
    Agg hkeys; /* packed key -> StatsCellKey */
    Hist hist;
    Agg heat;  /* packed key -> HeatVal */
    /* per cell (index in cells) the index + 1 of the keys its attempts
     * add to (LINK_*; 0 not looked up yet): one hash look-up an attempt */
    uint32_t *link;
    size_t nlink, cap_link;
    int64_t mc_from, mc_to;
    int32_t mc_month;
};

typedef struct HeatVal {
    StatsCellKey k;
    Week w;
} HeatVal;

/* A key in the aggregator's four integers. */
static void pack(const StatsCellKey *k, int32_t out[4])
{
    out[0] = k->month * 8 + k->gclass;
    out[1] = k->user;
    out[2] = k->account;
    out[3] = (int32_t)(((uint32_t)k->cluster << 16) | k->partition);
}

static void *get(Agg *a, const StatsCellKey *k, int *created)
{
    int32_t p[4];
    pack(k, p);
    size_t before = a->n;
    void *v = stats_agg_get(a, p[0], p[1], p[2], p[3]);
    *created = a->n > before;
    return v;
}

size_t stats_cells_build_size(const StatsCellsBuild *b)
{
    return b->cells.n + b->hist.n;
}

StatsCellsBuild *stats_cells_build_new(int fine)
{
    StatsCellsBuild *b = xcalloc(1, sizeof *b);
    b->fine = fine;
    stats_agg_init(&b->cells, sizeof(StatsCellSum));
    stats_agg_init(&b->hkeys, sizeof(StatsCellKey));
    stats_agg_init(&b->heat, sizeof(HeatVal));
    b->mc_from = 1;
    return b;
}

void stats_cells_build_free(StatsCellsBuild *b)
{
    if (!b)
        return;
    stats_agg_done(&b->cells);
    stats_agg_done(&b->hkeys);
    free(b->hist.row_of);
    free(b->hist.rows);
    free(b->hist.blocks);
    free(b->hist.refs);
    free(b->link);
    stats_agg_done(&b->heat);
    free(b);
}

static StatsCellSum *cell_of(StatsCellsBuild *b, const StatsCellKey *k)
{
    int created;
    StatsCellSum *c = get(&b->cells, k, &created);
    if (created)
        c->k = *k;
    return c;
}

static uint32_t hkey_of(StatsCellsBuild *b, const StatsCellKey *k)
{
    int created;
    StatsCellKey *x = get(&b->hkeys, k, &created);
    if (created)
        *x = *k;
    return (uint32_t)(x - (StatsCellKey *)b->hkeys.vals);
}

/* Room for need items of size bytes in v (capacity *cap); items n to
 * need zeroed (the capacity beyond them is left untouched). */
static void *room(void *v, size_t *cap, size_t n, size_t need, size_t size)
{
    if (need > *cap) {
        size_t want = *cap ? *cap * 2 : 64;
        *cap = want > need ? want : need;
        v = xrealloc(v, *cap * size);
    }
    memset((char *)v + n * size, 0, (need - n) * size);
    return v;
}

/* Bucket's value in row (hkey, what), made (zeroed, listed) when new. */
static HistVal *hist_get(Hist *h, uint32_t hkey, int what, int bucket)
{
    size_t r = (size_t)hkey * STATS_HIST_KINDS + (size_t)what;
    if (r >= h->nrow_of) {
        h->row_of = room(h->row_of, &h->cap_row_of, h->nrow_of, r + 1, sizeof *h->row_of);
        h->nrow_of = r + 1;
    }
    if (!h->row_of[r]) {
        h->rows = room(h->rows, &h->cap_rows, h->nrows, h->nrows + 1, sizeof *h->rows);
        h->row_of[r] = (uint32_t)++h->nrows;
    }
    uint32_t *blk = &h->rows[h->row_of[r] - 1].blk[bucket / HIST_BLK];
    if (!*blk) {
        h->blocks = room(h->blocks, &h->cap_blocks, h->nblocks, h->nblocks + 1, sizeof *h->blocks);
        *blk = (uint32_t)++h->nblocks;
    }
    uint32_t *e = &h->blocks[*blk - 1].ent[(unsigned)bucket % HIST_BLK];
    if (!*e) {
        h->refs = room(h->refs, &h->cap_refs, h->n, h->n + 1, sizeof *h->refs);
        HistRef *f = &h->refs[h->n];
        f->hkey = hkey;
        f->bucket = (uint16_t)bucket;
        f->what = (uint8_t)what;
        *e = (uint32_t)++h->n;
    }
    return &h->refs[*e - 1].v;
}

/* The value of the i-th bucket made. */
static const HistVal *hist_val(const Hist *h, size_t i)
{
    return &h->refs[i].v;
}

static void hist_add(StatsCellsBuild *b, uint32_t hkey, int what, int bucket, int64_t count,
                     double sum)
{
    HistVal *v = hist_get(&b->hist, hkey, what, bucket);
    v->count += count;
    v->sum += sum;
}

static HeatVal *heat_of(StatsCellsBuild *b, const StatsCellKey *k)
{
    int created;
    HeatVal *h = get(&b->heat, k, &created);
    if (created)
        h->k = *k;
    return h;
}

/* The keys a cell's attempts add to besides the cell: the histograms'
 * (the cell's own key, or every user's), the runs before a preemption's
 * (the cell's own) and the heat map's. */
enum { LINK_HKEY, LINK_FINE, LINK_HEAT, NLINK };

/* Cell ci's link slot (zeroed when new). */
static uint32_t *link_of(StatsCellsBuild *b, size_t ci, int slot)
{
    size_t need = b->cells.n * NLINK;
    if (need > b->nlink) {
        b->link = room(b->link, &b->cap_link, b->nlink, need, sizeof *b->link);
        b->nlink = need;
    }
    return &b->link[ci * NLINK + (size_t)slot];
}

/* The index of hkey k, which cell ci's link slot keeps after the first
 * look-up (k follows from the cell's key: the same every time). */
static uint32_t linked_hkey(StatsCellsBuild *b, size_t ci, int slot, const StatsCellKey *k)
{
    uint32_t *l = link_of(b, ci, slot);
    if (!*l)
        *l = hkey_of(b, k) + 1;
    return *l - 1;
}

/* The heat map entry of key k, kept in cell ci's link as linked_hkey. */
static HeatVal *linked_heat(StatsCellsBuild *b, size_t ci, const StatsCellKey *k)
{
    uint32_t *l = link_of(b, ci, LINK_HEAT);
    if (!*l)
        *l = (uint32_t)(heat_of(b, k) - (HeatVal *)b->heat.vals) + 1;
    return (HeatVal *)b->heat.vals + (*l - 1);
}

/* The same key summed over every user (user, account -1; partition and
 * class 0 for the heat map). */
static StatsCellKey coarse(const StatsCellKey *k, int heat)
{
    StatsCellKey c = *k;
    c.user = c.account = -1;
    if (heat)
        c.partition = c.gclass = 0;
    return c;
}

static int32_t month_of(StatsCellsBuild *b, int64_t t)
{
    if (t < b->mc_from || t >= b->mc_to) {
        b->mc_month = stats_month_of(t);
        b->mc_from = stats_month_start(b->mc_month);
        b->mc_to = stats_month_start(stats_month_add(b->mc_month, 1));
    }
    return b->mc_month;
}

/* The dashboard's requested against used, of an attempt that ran h hours. */
static void add_ran(StatsCellSum *x, const StatsJob *j, double h)
{
    double gpus = j->gpus;
    x->ran++;
    if (gpus > 0) {
        x->ran_gpu_h += gpus * h;
        if (j->gpu_util >= 0) {
            x->ran_gpu_h_util += gpus * h;
            x->ran_util_x_h += j->gpu_util * gpus * h;
        }
        if (j->gpu_mem_gib >= 0) {
            x->ran_gpu_h_mem += gpus * h;
            x->ran_mem_x_h += j->gpu_mem_gib * gpus * h;
        }
    }
    if (j->cpu_milli > 0 && j->total_cpu_s >= 0 && h > 0) {
        x->ran_cpu_alloc_h += j->cpu_milli / 1000.0 * h;
        x->ran_cpu_used_h += j->total_cpu_s / 3600.0;
    }
    if (j->req_mem_mib > 0 && j->max_rss_mib >= 0 && h > 0) {
        x->ran_mem_req_h += j->req_mem_mib * h;
        x->ran_mem_used_h += j->max_rss_mib * h;
    }
}

static void add_sums(StatsCellSum *x, const StatsJob *j, double wait, double tts)
{
    double h = j->elapsed > 0 && stats_jstart(j) != STATS_TIME_NONE ? (double)j->elapsed / HOUR : 0;
    double cpus = j->cpu_milli > 0 ? j->cpu_milli / 1000.0 : 0;
    int pre = j->state == STATS_ST_PREEMPTED;
    x->attempts++;
    x->gpu_h += j->gpus * h;
    x->cpu_h += cpus * h;
    if (pre) {
        x->pre_attempts++;
        x->gpu_lost += j->gpus * h;
        x->cpu_lost += cpus * h;
    }
    if (j->flags & STATS_JOB_FINAL) {
        int was = (j->flags & STATS_JOB_WAS_PREEMPTED) || pre;
        int done = j->state == STATS_ST_COMPLETED;
        x->jobs++;
        x->completed += done;
        x->pre_jobs += was;
        x->pre_completed += was && done;
    }
    if (wait >= 0) {
        x->waited++;
        x->wait_s += wait;
    }
    if (tts >= 0) {
        x->tts_n++;
        x->tts_s += tts;
    }
    if (stats_jstart(j) != STATS_TIME_NONE && j->elapsed >= 0)
        add_ran(x, j, h);
}

void stats_cells_build_job(StatsCellsBuild *b, const StatsJob *j)
{
    int64_t t = stats_job_anchor(j);
    if (t == STATS_TIME_NONE)
        return;
    StatsCellKey k;
    memset(&k, 0, sizeof k);
    k.month = month_of(b, t);
    k.user = j->user;
    k.account = j->account;
    k.cluster = j->cluster;
    k.partition = j->partition;
    k.gclass = (uint8_t)stats_gpu_class(j->gpus);
    double wait = stats_job_wait(j), tts = stats_job_tts(j);
    StatsCellSum *cell = cell_of(b, &k);
    size_t ci = (size_t)(cell - (StatsCellSum *)b->cells.vals);
    add_sums(cell, j, wait, tts);
    StatsCellKey ck = coarse(&k, 0);
    uint32_t hk = wait >= 0 || tts >= 0 ? linked_hkey(b, ci, LINK_HKEY, b->fine ? &k : &ck) : 0;
    if (wait >= 0)
        hist_add(b, hk, STATS_HIST_WAIT, stats_hist_bucket(wait), 1, wait);
    if (tts >= 0)
        hist_add(b, hk, STATS_HIST_TTS, stats_hist_bucket(tts), 1, tts);
    if (j->state == STATS_ST_PREEMPTED && j->elapsed >= 0 && stats_jstart(j) != STATS_TIME_NONE)
        hist_add(b, linked_hkey(b, ci, LINK_FINE, &k), STATS_HIST_PRERUN, stats_hist_bucket(j->elapsed), 1,
                 (double)j->elapsed);
    int64_t end = stats_job_end(j);
    if (j->gpus > 0 && end != STATS_TIME_NONE) {
        StatsCellKey hk2 = coarse(&k, 1);
        if (b->fine) {
            hk2.user = k.user;
            hk2.account = k.account;
        }
        stats_week_add(&linked_heat(b, ci, &hk2)->w, stats_jstart(j), end, j->gpus);
    }
}

/* ---- months as bytes ---- */

#define BLOB_MAGIC 0x43454c31u /* "CEL1" */

typedef struct BlobHead {
    uint32_t magic, ncells, nhkeys, nhist, nheat, pad;
} BlobHead;

static int32_t key_month(const Agg *a, size_t i)
{
    return a->keys[i].period / 8;
}

static int month_cmp(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

size_t stats_cells_build_months(const StatsCellsBuild *b, int32_t **months)
{
    const Agg *aggs[3] = {&b->cells, &b->hkeys, &b->heat};
    size_t n = 0, cap = 0;
    int32_t *v = NULL;
    for (int a = 0; a < 3; a++) {
        for (size_t i = 0; i < aggs[a]->n; i++) {
            int32_t m = key_month(aggs[a], i);
            if (n > 0 && v[n - 1] == m)
                continue;
            if (n == cap)
                v = xrealloc(v, (cap = cap ? cap * 2 : 64) * sizeof *v);
            v[n++] = m;
        }
    }
    if (n > 1)
        qsort(v, n, sizeof *v, month_cmp);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || v[u - 1] != v[i])
            v[u++] = v[i];
    *months = v;
    return u;
}

void stats_cells_month_blob(const StatsCellsBuild *b, int32_t month, CpBuf *out)
{
    BlobHead h = {BLOB_MAGIC, 0, 0, 0, 0, 0};
    uint32_t *local = xmalloc((b->hkeys.n + 1) * sizeof *local);
    for (size_t i = 0; i < b->cells.n; i++)
        h.ncells += key_month(&b->cells, i) == month;
    for (size_t i = 0; i < b->hkeys.n; i++)
        local[i] = key_month(&b->hkeys, i) == month ? h.nhkeys++ : UINT32_MAX;
    for (size_t i = 0; i < b->hist.n; i++)
        h.nhist += local[b->hist.refs[i].hkey] != UINT32_MAX;
    for (size_t i = 0; i < b->heat.n; i++)
        h.nheat += key_month(&b->heat, i) == month;
    cpbuf_append(out, &h, sizeof h);
    for (size_t i = 0; i < b->cells.n; i++)
        if (key_month(&b->cells, i) == month)
            cpbuf_append(out, stats_agg_val(&b->cells, i), sizeof(StatsCellSum));
    for (size_t i = 0; i < b->hkeys.n; i++)
        if (local[i] != UINT32_MAX)
            cpbuf_append(out, stats_agg_val(&b->hkeys, i), sizeof(StatsCellKey));
    for (size_t i = 0; i < b->hist.n; i++) {
        const HistRef *f = &b->hist.refs[i];
        if (local[f->hkey] == UINT32_MAX)
            continue;
        const HistVal *v = hist_val(&b->hist, i);
        StatsHist e;
        memset(&e, 0, sizeof e);
        e.key = local[f->hkey];
        e.what = f->what;
        e.bucket = f->bucket;
        e.count = v->count > UINT32_MAX ? UINT32_MAX : (uint32_t)v->count;
        e.sum = v->sum;
        cpbuf_append(out, &e, sizeof e);
    }
    for (size_t i = 0; i < b->heat.n; i++) {
        if (key_month(&b->heat, i) != month)
            continue;
        const HeatVal *v = stats_agg_val(&b->heat, i);
        StatsHeat e;
        memset(&e, 0, sizeof e);
        e.k = v->k;
        stats_week_finish(&v->w, e.gpu_h);
        cpbuf_append(out, &e, sizeof e);
    }
    free(local);
}

/* Entries 0..n-1 grouped by their month's index mi(ctx, i) < nm, each
 * group in entry order (a stable counting sort): ord[start[k]..start[k+1])
 * are month k's. ord holds n, start nm + 1 (caller's). */
static void group_months(size_t n, size_t nm, uint32_t (*mi)(const void *, size_t),
                         const void *ctx, uint32_t *ord, size_t *start)
{
    memset(start, 0, (nm + 1) * sizeof *start);
    for (size_t i = 0; i < n; i++)
        start[mi(ctx, i) + 1]++;
    for (size_t k = 0; k < nm; k++)
        start[k + 1] += start[k];
    size_t *at = xmalloc((nm + 1) * sizeof *at);
    memcpy(at, start, (nm + 1) * sizeof *at);
    for (size_t i = 0; i < n; i++)
        ord[at[mi(ctx, i)]++] = (uint32_t)i;
    free(at);
}

typedef struct MonthIx {
    const int32_t *months;
    size_t nm;
    const Agg *agg;
    const uint32_t *hk_month; /* per hkey: its month's index */
    const Hist *hist;
} MonthIx;

static uint32_t month_ix(const MonthIx *x, int32_t m)
{
    size_t lo = 0, hi = x->nm; /* x->months ascending, m among them */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (x->months[mid] <= m)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

static uint32_t agg_month_ix(const void *ctx, size_t i)
{
    const MonthIx *x = ctx;
    return month_ix(x, key_month(x->agg, i));
}

static uint32_t hist_month_ix(const void *ctx, size_t i)
{
    const MonthIx *x = ctx;
    return x->hk_month[x->hist->refs[i].hkey];
}

int stats_cells_month_blobs(const StatsCellsBuild *b, StatsMonthBlobFn fn, void *ctx)
{
    int32_t *months;
    size_t nm = stats_cells_build_months(b, &months);
    const Agg *aggs[3] = {&b->cells, &b->hkeys, &b->heat};
    uint32_t *ord[4];
    size_t *start[4];
    MonthIx x = {months, nm, NULL, NULL, &b->hist};
    for (int a = 0; a < 3; a++) {
        x.agg = aggs[a];
        ord[a] = xmalloc((aggs[a]->n + 1) * sizeof *ord[a]);
        start[a] = xmalloc((nm + 1) * sizeof *start[a]);
        group_months(aggs[a]->n, nm, agg_month_ix, &x, ord[a], start[a]);
    }
    /* per hkey: its month and its place among that month's (the blob's key) */
    uint32_t *hk_month = xmalloc((b->hkeys.n + 1) * sizeof *hk_month);
    uint32_t *local = xmalloc((b->hkeys.n + 1) * sizeof *local);
    for (size_t k = 0; k < nm; k++)
        for (size_t j = start[1][k]; j < start[1][k + 1]; j++) {
            hk_month[ord[1][j]] = (uint32_t)k;
            local[ord[1][j]] = (uint32_t)(j - start[1][k]);
        }
    x.hk_month = hk_month;
    ord[3] = xmalloc((b->hist.n + 1) * sizeof *ord[3]);
    start[3] = xmalloc((nm + 1) * sizeof *start[3]);
    group_months(b->hist.n, nm, hist_month_ix, &x, ord[3], start[3]);
    CpBuf out;
    cpbuf_init(&out);
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < nm; k++) {
        cpbuf_clear(&out);
        BlobHead h = {BLOB_MAGIC, (uint32_t)(start[0][k + 1] - start[0][k]),
                      (uint32_t)(start[1][k + 1] - start[1][k]),
                      (uint32_t)(start[3][k + 1] - start[3][k]),
                      (uint32_t)(start[2][k + 1] - start[2][k]), 0};
        cpbuf_append(&out, &h, sizeof h);
        for (size_t j = start[0][k]; j < start[0][k + 1]; j++)
            cpbuf_append(&out, stats_agg_val(&b->cells, ord[0][j]), sizeof(StatsCellSum));
        for (size_t j = start[1][k]; j < start[1][k + 1]; j++)
            cpbuf_append(&out, stats_agg_val(&b->hkeys, ord[1][j]), sizeof(StatsCellKey));
        for (size_t j = start[3][k]; j < start[3][k + 1]; j++) {
            const HistRef *f = &b->hist.refs[ord[3][j]];
            StatsHist e;
            memset(&e, 0, sizeof e);
            e.key = local[f->hkey];
            e.what = f->what;
            e.bucket = f->bucket;
            e.count = f->v.count > UINT32_MAX ? UINT32_MAX : (uint32_t)f->v.count;
            e.sum = f->v.sum;
            cpbuf_append(&out, &e, sizeof e);
        }
        for (size_t j = start[2][k]; j < start[2][k + 1]; j++) {
            const HeatVal *v = stats_agg_val(&b->heat, ord[2][j]);
            StatsHeat e;
            memset(&e, 0, sizeof e);
            e.k = v->k;
            stats_week_finish(&v->w, e.gpu_h);
            cpbuf_append(&out, &e, sizeof e);
        }
        rc = fn(ctx, months[k], out.data, out.len);
    }
    cpbuf_done(&out);
    for (int a = 0; a < 4; a++) {
        free(ord[a]);
        free(start[a]);
    }
    free(hk_month);
    free(local);
    free(months);
    return rc;
}

/* The parts of a blob, or -1 when n does not match its counts. */
static int blob_parse(const void *blob, size_t n, BlobHead *h, const char **p)
{
    if (n < sizeof *h)
        return -1;
    memcpy(h, blob, sizeof *h);
    uint64_t want = sizeof *h + (uint64_t)h->ncells * sizeof(StatsCellSum) +
                    (uint64_t)h->nhkeys * sizeof(StatsCellKey) +
                    (uint64_t)h->nhist * sizeof(StatsHist) + (uint64_t)h->nheat * sizeof(StatsHeat);
    if (h->magic != BLOB_MAGIC || want != n)
        return -1;
    *p = (const char *)blob + sizeof *h;
    return 0;
}

static void sums_merge(StatsCellSum *x, const StatsCellSum *y)
{
    x->attempts += y->attempts;
    x->jobs += y->jobs;
    x->pre_attempts += y->pre_attempts;
    x->pre_jobs += y->pre_jobs;
    x->completed += y->completed;
    x->pre_completed += y->pre_completed;
    x->waited += y->waited;
    x->tts_n += y->tts_n;
    x->gpu_h += y->gpu_h;
    x->gpu_lost += y->gpu_lost;
    x->cpu_h += y->cpu_h;
    x->cpu_lost += y->cpu_lost;
    x->wait_s += y->wait_s;
    x->tts_s += y->tts_s;
    x->ran += y->ran;
    x->ran_gpu_h += y->ran_gpu_h;
    x->ran_gpu_h_util += y->ran_gpu_h_util;
    x->ran_util_x_h += y->ran_util_x_h;
    x->ran_gpu_h_mem += y->ran_gpu_h_mem;
    x->ran_mem_x_h += y->ran_mem_x_h;
    x->ran_cpu_alloc_h += y->ran_cpu_alloc_h;
    x->ran_cpu_used_h += y->ran_cpu_used_h;
    x->ran_mem_req_h += y->ran_mem_req_h;
    x->ran_mem_used_h += y->ran_mem_used_h;
}

int stats_cells_build_blob(StatsCellsBuild *b, const void *blob, size_t n)
{
    BlobHead h;
    const char *p;
    if (blob_parse(blob, n, &h, &p) < 0)
        return -1;
    /* the bytes may not be aligned: every record is copied out */
    const char *cells = p, *hkeys = cells + h.ncells * sizeof(StatsCellSum);
    const char *hist = hkeys + h.nhkeys * sizeof(StatsCellKey);
    const char *heat = hist + h.nhist * sizeof(StatsHist);
    for (uint32_t i = 0; i < h.nhist; i++) {
        StatsHist e;
        memcpy(&e, hist + i * sizeof e, sizeof e);
        if (e.key >= h.nhkeys || e.what >= STATS_HIST_KINDS || e.bucket >= STATS_HIST_BUCKETS)
            return -1;
    }
    for (uint32_t i = 0; i < h.ncells; i++) {
        StatsCellSum c;
        memcpy(&c, cells + i * sizeof c, sizeof c);
        sums_merge(cell_of(b, &c.k), &c);
    }
    uint32_t *map = xmalloc((h.nhkeys + 1) * sizeof *map);
    for (uint32_t i = 0; i < h.nhkeys; i++) {
        StatsCellKey k;
        memcpy(&k, hkeys + i * sizeof k, sizeof k);
        map[i] = hkey_of(b, &k);
    }
    for (uint32_t i = 0; i < h.nhist; i++) {
        StatsHist e;
        memcpy(&e, hist + i * sizeof e, sizeof e);
        hist_add(b, map[e.key], e.what, e.bucket, e.count, e.sum);
    }
    free(map);
    for (uint32_t i = 0; i < h.nheat; i++) {
        StatsHeat e;
        memcpy(&e, heat + i * sizeof e, sizeof e);
        HeatVal *v = heat_of(b, &e.k);
        for (int s = 0; s < 168; s++)
            v->w.slot[s] += e.gpu_h[s];
    }
    return 0;
}

/* ---- the owned arrays ---- */

static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
    if (v && need <= *cap)
        return v;
    size_t want = *cap ? *cap * 2 : 256;
    *cap = want > need ? want : need; /* a reservation gets its size */
    return xrealloc(v, *cap * size);
}

int stats_cells_buf_add(StatsCellsBuf *buf, const void *blob, size_t n)
{
    BlobHead h;
    const char *p;
    if (blob_parse(blob, n, &h, &p) < 0)
        return -1;
    StatsCells *c = &buf->c;
    size_t off = c->nhkeys;
    const char *hp = p + h.ncells * sizeof(StatsCellSum) + h.nhkeys * sizeof(StatsCellKey);
    for (uint32_t i = 0; i < h.nhist; i++) {
        uint32_t key;
        memcpy(&key, hp + i * sizeof(StatsHist) + offsetof(StatsHist, key), sizeof key);
        if (key >= h.nhkeys)
            return -1;
    }
    buf->cells = grow(buf->cells, &buf->cap[0], c->ncells + h.ncells, sizeof *buf->cells);
    memcpy(buf->cells + c->ncells, p, h.ncells * sizeof *buf->cells);
    p += h.ncells * sizeof *buf->cells;
    buf->hkeys = grow(buf->hkeys, &buf->cap[1], c->nhkeys + h.nhkeys, sizeof *buf->hkeys);
    memcpy(buf->hkeys + c->nhkeys, p, h.nhkeys * sizeof *buf->hkeys);
    p += h.nhkeys * sizeof *buf->hkeys;
    buf->hist = grow(buf->hist, &buf->cap[2], c->nhist + h.nhist, sizeof *buf->hist);
    memcpy(buf->hist + c->nhist, p, h.nhist * sizeof *buf->hist);
    for (size_t i = c->nhist; i < c->nhist + h.nhist; i++)
        buf->hist[i].key += (uint32_t)off;
    p += h.nhist * sizeof *buf->hist;
    buf->heat = grow(buf->heat, &buf->cap[3], c->nheat + h.nheat, sizeof *buf->heat);
    memcpy(buf->heat + c->nheat, p, h.nheat * sizeof *buf->heat);
    c->cells = buf->cells;
    c->ncells += h.ncells;
    c->hkeys = buf->hkeys;
    c->nhkeys += h.nhkeys;
    c->hist = buf->hist;
    c->nhist += h.nhist;
    c->heat = buf->heat;
    c->nheat += h.nheat;
    return 0;
}

void stats_cells_buf_reserve(StatsCellsBuf *buf, const size_t n[4])
{
    StatsCells *c = &buf->c;
    buf->cells = grow(buf->cells, &buf->cap[0], c->ncells + n[0], sizeof *buf->cells);
    buf->hkeys = grow(buf->hkeys, &buf->cap[1], c->nhkeys + n[1], sizeof *buf->hkeys);
    buf->hist = grow(buf->hist, &buf->cap[2], c->nhist + n[2], sizeof *buf->hist);
    buf->heat = grow(buf->heat, &buf->cap[3], c->nheat + n[3], sizeof *buf->heat);
    c->cells = buf->cells;
    c->hkeys = buf->hkeys;
    c->hist = buf->hist;
    c->heat = buf->heat;
}

static int buf_add_month(void *ctx, int32_t month, const void *blob, size_t n)
{
    (void)month;
    stats_cells_buf_add(ctx, blob, n);
    return 0;
}

void stats_cells_buf_from(StatsCellsBuf *buf, const StatsCellsBuild *b)
{
    stats_cells_month_blobs(b, buf_add_month, buf);
}

void stats_cells_buf_done(StatsCellsBuf *buf)
{
    free(buf->cells);
    free(buf->hkeys);
    free(buf->hist);
    free(buf->heat);
    memset(buf, 0, sizeof *buf);
}
