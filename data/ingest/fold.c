#include "data/ingest/fold.h"

#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

#define FOLD_WINDOW 64 /* job rows held back for their steps (see fold.h) */

/* A job row held back: a deep copy of its record, strings in one buffer. */
typedef struct Held {
    CpJobRec job;
    CpBuf strings;
    int step_cpu; /* total_cpu_s comes from steps (the job row had none) */
} Held;

/* The steps of a job not seen yet, folded together. */
typedef struct Early {
    double max_rss_mib, gpu_mem_gib, gpu_util, cpu_s; /* -1 unknown */
    int64_t steps;
    int joined;
} Early;

struct Fold {
    CpJobSink out;
    Held held[FOLD_WINDOW]; /* a ring: the oldest at first, nheld of them */
    int first, nheld;
    StrMap *early_index; /* cluster NUL job_raw -> index in early */
    Early *early;
    size_t nearly, capearly;
    CpBuf key;
    int64_t orphans, joined;
    void (*on_emit)(void *ctx, CpJobRec *job); /* NULL: none */
    void *on_emit_ctx;
};

enum { S_CLUSTER, S_JOBID, S_USER, S_ACCOUNT, S_PARTITION, S_QOS, S_NAME, S_NODES, S_STATE, S_N };

static Held *held_at(Fold *f, int i)
{
    return &f->held[(f->first + i) % FOLD_WINDOW];
}

static int emit_oldest(Fold *f, CpErr *err)
{
    Held *h = held_at(f, 0);
    f->first = (f->first + 1) % FOLD_WINDOW;
    f->nheld--;
    if (f->on_emit)
        f->on_emit(f->on_emit_ctx, &h->job);
    return f->out.job(f->out.ctx, &h->job, err);
}

static void keep_copy(Held *h, const CpJobRec *r)
{
    const char *src[S_N] = {r->cluster, r->job_id, r->user, r->account, r->partition,
                            r->qos, r->job_name, r->nodelist, r->state_raw};
    size_t len[S_N], total = 0;
    for (int i = 0; i < S_N; i++)
        total += len[i] = strlen(src[i]) + 1;
    cpbuf_clear(&h->strings);
    cpbuf_reserve(&h->strings, total); /* once: the strings are copied as they are */
    h->job = *r;
    const char **dst[S_N] = {&h->job.cluster, &h->job.job_id, &h->job.user, &h->job.account,
                             &h->job.partition, &h->job.qos, &h->job.job_name,
                             &h->job.nodelist, &h->job.state_raw};
    char *d = h->strings.data;
    for (int i = 0; i < S_N; i++) {
        memcpy(d, src[i], len[i]);
        *dst[i] = d;
        d += len[i];
    }
    *d = '\0';
    h->strings.len = total;
    h->job.step = NULL;
    h->step_cpu = r->total_cpu_s < 0;
}

static double max_known(double a, double b)
{
    return a < 0 ? b : b < 0 ? a : (a > b ? a : b);
}

/* sacct's job row sums its steps' CPU time; add steps only when it did not
 * say. The .extern step does no work of the job's. */
static double step_cpu(const CpJobRec *s)
{
    return s->total_cpu_s >= 0 && strcmp(s->step, "extern") != 0 ? s->total_cpu_s : -1;
}

static void add_cpu(double *total, double c)
{
    if (c >= 0)
        *total = (*total < 0 ? 0 : *total) + c;
}

static void fold_step(Held *h, const CpJobRec *s)
{
    CpJobRec *j = &h->job;
    j->max_rss_mib = max_known(j->max_rss_mib, s->max_rss_mib);
    j->gpu_mem_gib = max_known(j->gpu_mem_gib, s->gpu_mem_gib);
    j->gpu_util = max_known(j->gpu_util, s->gpu_util);
    if (h->step_cpu)
        add_cpu(&j->total_cpu_s, step_cpu(s));
}

/* The key of a job in early_index: its cluster and raw id. */
static void make_key(Fold *f, const CpJobRec *r)
{
    cpbuf_clear(&f->key);
    cpbuf_append(&f->key, r->cluster, strlen(r->cluster) + 1);
    cpbuf_append(&f->key, (const char *)&r->job_raw, sizeof r->job_raw);
}

/* A step before its job: kept, folded, until the job row comes. */
static void keep_early(Fold *f, const CpJobRec *s)
{
    int64_t idx;
    make_key(f, s);
    if (!strmap_get(f->early_index, f->key.data, f->key.len, &idx)) {
        if (f->nearly == f->capearly) {
            f->capearly = f->capearly ? f->capearly * 2 : 16;
            f->early = xrealloc(f->early, f->capearly * sizeof *f->early);
        }
        idx = (int64_t)f->nearly++;
        Early e = {-1, -1, -1, -1, 0, 0};
        f->early[idx] = e;
        strmap_put(f->early_index, f->key.data, f->key.len, idx);
    }
    Early *e = &f->early[idx];
    e->max_rss_mib = max_known(e->max_rss_mib, s->max_rss_mib);
    e->gpu_mem_gib = max_known(e->gpu_mem_gib, s->gpu_mem_gib);
    e->gpu_util = max_known(e->gpu_util, s->gpu_util);
    add_cpu(&e->cpu_s, step_cpu(s));
    e->steps++;
}

/* The steps seen before this job row, folded into it. */
static void join_early(Fold *f, Held *h)
{
    int64_t idx;
    make_key(f, &h->job);
    if (!strmap_get(f->early_index, f->key.data, f->key.len, &idx) || f->early[idx].joined)
        return;
    Early *e = &f->early[idx];
    CpJobRec *j = &h->job;
    j->max_rss_mib = max_known(j->max_rss_mib, e->max_rss_mib);
    j->gpu_mem_gib = max_known(j->gpu_mem_gib, e->gpu_mem_gib);
    j->gpu_util = max_known(j->gpu_util, e->gpu_util);
    if (h->step_cpu)
        add_cpu(&j->total_cpu_s, e->cpu_s);
    e->joined = 1;
    f->joined += e->steps;
}

/* The held job a step belongs to: the newest held row of its id and
 * cluster (a step row that names no cluster takes its job's). */
static Held *held_job_of(Fold *f, const CpJobRec *s)
{
    for (int i = f->nheld - 1; i >= 0; i--) {
        Held *h = held_at(f, i);
        if (h->job.job_raw == s->job_raw &&
            (!s->cluster[0] || strcmp(h->job.cluster, s->cluster) == 0))
            return h;
    }
    return NULL;
}

static int on_record(void *ctx, const CpJobRec *r, CpErr *err)
{
    Fold *f = ctx;
    if (!r->step) {
        if (f->nheld == FOLD_WINDOW && emit_oldest(f, err) < 0)
            return -1;
        Held *h = held_at(f, f->nheld++);
        keep_copy(h, r);
        if (f->nearly)
            join_early(f, h);
        return 0;
    }
    Held *h = held_job_of(f, r);
    if (h) {
        fold_step(h, r);
        if (h != held_at(f, f->nheld - 1))
            f->joined++;
    } else {
        keep_early(f, r);
    }
    return 0;
}

Fold *fold_new(CpJobSink out)
{
    Fold *f = xcalloc(1, sizeof *f);
    f->out = out;
    for (int i = 0; i < FOLD_WINDOW; i++)
        cpbuf_init(&f->held[i].strings);
    f->early_index = strmap_new();
    cpbuf_init(&f->key);
    return f;
}

void fold_free(Fold *f)
{
    if (!f)
        return;
    for (int i = 0; i < FOLD_WINDOW; i++)
        cpbuf_done(&f->held[i].strings);
    strmap_free(f->early_index);
    free(f->early);
    cpbuf_done(&f->key);
    free(f);
}

void fold_on_emit(Fold *f, void (*fn)(void *ctx, CpJobRec *job), void *ctx)
{
    f->on_emit = fn;
    f->on_emit_ctx = ctx;
}

CpJobSink fold_sink(Fold *f)
{
    CpJobSink s = {on_record, f};
    return s;
}

int fold_flush(Fold *f, CpErr *err)
{
    while (f->nheld > 0)
        if (emit_oldest(f, err) < 0)
            return -1;
    for (size_t i = 0; i < f->nearly; i++)
        if (!f->early[i].joined) {
            f->orphans += f->early[i].steps;
            f->early[i].joined = 1;
        }
    return 0;
}

int64_t fold_orphans(const Fold *f)
{
    return f->orphans;
}

int64_t fold_joined(const Fold *f)
{
    return f->joined;
}
