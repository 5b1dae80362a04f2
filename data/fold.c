#include "data/fold.h"

#include <stdlib.h>
#include <string.h>

/* The pending job: a deep copy of its record, strings in one buffer. */
struct Fold {
    CpJobSink out;
    int pending;
    CpJobRec job;
    CpBuf strings;
    int64_t orphans;
    int step_cpu; /* total_cpu_s came from steps (the job row had none) */
};

enum { S_CLUSTER, S_JOBID, S_USER, S_ACCOUNT, S_PARTITION, S_QOS, S_NAME, S_NODES, S_STATE, S_N };

static int emit_pending(Fold *f, CpErr *err)
{
    if (!f->pending)
        return 0;
    f->pending = 0;
    return f->out.job(f->out.ctx, &f->job, err);
}

static void keep_copy(Fold *f, const CpJobRec *r)
{
    const char *src[S_N] = {r->cluster, r->job_id, r->user, r->account, r->partition,
                            r->qos, r->job_name, r->nodelist, r->state_raw};
    size_t off[S_N];
    cpbuf_clear(&f->strings);
    for (int i = 0; i < S_N; i++) {
        off[i] = f->strings.len;
        cpbuf_append(&f->strings, src[i], strlen(src[i]) + 1);
    }
    f->job = *r;
    const char **dst[S_N] = {&f->job.cluster, &f->job.job_id, &f->job.user, &f->job.account,
                             &f->job.partition, &f->job.qos, &f->job.job_name,
                             &f->job.nodelist, &f->job.state_raw};
    for (int i = 0; i < S_N; i++)
        *dst[i] = f->strings.data + off[i];
    f->job.step = NULL;
    f->step_cpu = r->total_cpu_s < 0;
    f->pending = 1;
}

static double max_known(double a, double b)
{
    return a < 0 ? b : b < 0 ? a : (a > b ? a : b);
}

static void fold_step(Fold *f, const CpJobRec *s)
{
    CpJobRec *j = &f->job;
    j->max_rss_mib = max_known(j->max_rss_mib, s->max_rss_mib);
    j->gpu_mem_gib = max_known(j->gpu_mem_gib, s->gpu_mem_gib);
    j->gpu_util = max_known(j->gpu_util, s->gpu_util);
    /* sacct's job row sums its steps' CPU time; add steps only when it
     * did not say. The .extern step does no work of the job's. */
    if (f->step_cpu && s->total_cpu_s >= 0 && strcmp(s->step, "extern") != 0)
        j->total_cpu_s = (j->total_cpu_s < 0 ? 0 : j->total_cpu_s) + s->total_cpu_s;
}

static int on_record(void *ctx, const CpJobRec *r, CpErr *err)
{
    Fold *f = ctx;
    if (!r->step) {
        if (emit_pending(f, err) < 0)
            return -1;
        keep_copy(f, r);
        return 0;
    }
    if (f->pending && f->job.job_raw == r->job_raw)
        fold_step(f, r);
    else
        f->orphans++;
    return 0;
}

Fold *fold_new(CpJobSink out)
{
    Fold *f = xcalloc(1, sizeof *f);
    f->out = out;
    cpbuf_init(&f->strings);
    return f;
}

void fold_free(Fold *f)
{
    if (!f)
        return;
    cpbuf_done(&f->strings);
    free(f);
}

CpJobSink fold_sink(Fold *f)
{
    CpJobSink s = {on_record, f};
    return s;
}

int fold_flush(Fold *f, CpErr *err)
{
    return emit_pending(f, err);
}

int64_t fold_orphans(const Fold *f)
{
    return f->orphans;
}
