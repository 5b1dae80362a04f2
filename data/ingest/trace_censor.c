/* trace_censor: runs still going when a trace was cut (issue 29 item 1).
 *
 * A public trace lists what was running when it was written with a start
 * and no end (Alibaba's inference instances: an empty deletion_time;
 * Helios and PAI: state Running). Such a run did use its GPUs from its
 * start up to the cut: stored with no length it would count 0 hours and
 * drop out of the profiles. trace_emit holds these runs back (a deep
 * copy: the reader's strings die with the call) and notes the latest time
 * any record mentions; trace_censor_flush hands them on at the end of the
 * file as RUNNING with elapsed = cut - start and no end: the way
 * `sacct` reports a job still running at the snapshot (censored: its
 * length is a lower bound), so hours, statistics and profiles count them.
 * The cut is ctx->as_of when given (--as-of), else the file's last
 * timestamp. Memory: one copy per run still going (the file's tail). */
#include "data/ingest/trace.h"

#include <stdlib.h>
#include <string.h>

typedef struct Held {
    CpJobRec rec;
    char *strs; /* every string of rec, one block */
} Held;

struct TraceHeld {
    Held *v;
    size_t n, cap;
};

static void note_time(CpReadCtx *ctx, int64_t t)
{
    if (t != CP_TIME_NONE && t > ctx->last_seen)
        ctx->last_seen = t;
}

/* 1 when rec is a run cut by the end of its trace. */
static int still_going(const CpJobRec *r)
{
    return r->start != CP_TIME_NONE && r->end == CP_TIME_NONE && r->elapsed < 0 &&
           !r->step && (r->state == CP_ST_RUNNING || r->state == CP_ST_SUSPENDED ||
                        r->state == CP_ST_REQUEUED);
}

/* Copy rec's strings into one block owned by h. */
static void hold(CpReadCtx *ctx, const CpJobRec *rec)
{
    struct TraceHeld *th = ctx->held;
    if (th->n == th->cap) {
        th->cap = th->cap ? th->cap * 2 : 64;
        Held *nv = realloc(th->v, th->cap * sizeof *nv);
        if (!nv)
            abort();
        th->v = nv;
    }
    Held *h = &th->v[th->n++];
    h->rec = *rec;
    const char **s[] = {&h->rec.cluster,   &h->rec.job_id, &h->rec.user,
                        &h->rec.account,   &h->rec.partition, &h->rec.qos,
                        &h->rec.job_name,  &h->rec.nodelist,  &h->rec.state_raw};
    size_t ns = sizeof s / sizeof s[0], total = 0;
    for (size_t i = 0; i < ns; i++)
        total += (*s[i] ? strlen(*s[i]) : 0) + 1;
    char *p = h->strs = xmalloc(total);
    for (size_t i = 0; i < ns; i++) {
        size_t len = *s[i] ? strlen(*s[i]) : 0;
        if (len)
            memcpy(p, *s[i], len);
        p[len] = '\0';
        *s[i] = p;
        p += len + 1;
    }
}

int trace_emit(CpReadCtx *ctx, const CpJobRec *rec, CpErr *err)
{
    note_time(ctx, rec->submit);
    note_time(ctx, rec->start);
    note_time(ctx, rec->end);
    if (rec->start != CP_TIME_NONE && rec->elapsed > 0)
        note_time(ctx, rec->start + rec->elapsed);
    if (ctx->held && still_going(rec)) {
        hold(ctx, rec);
        return 0;
    }
    return ctx->sink.job(ctx->sink.ctx, rec, err);
}

void trace_censor_begin(CpReadCtx *ctx)
{
    ctx->held = xcalloc(1, sizeof *ctx->held);
    ctx->last_seen = INT64_MIN;
}

int trace_censor_flush(CpReadCtx *ctx, int emit, CpErr *err)
{
    struct TraceHeld *th = ctx->held;
    int rc = 0;
    if (!th)
        return 0;
    ctx->held = NULL; /* trace_emit now hands on */
    int64_t cut = ctx->as_of ? ctx->as_of : ctx->last_seen;
    for (size_t i = 0; i < th->n; i++) {
        CpJobRec *r = &th->v[i].rec;
        if (emit && rc == 0) {
            r->elapsed = cut > r->start ? cut - r->start : 0;
            r->state = CP_ST_RUNNING;
            ctx->rows_censored++;
            ctx->censor_at = cut;
            rc = ctx->sink.job(ctx->sink.ctx, r, err);
        }
        free(th->v[i].strs);
    }
    free(th->v);
    free(th);
    return rc;
}
