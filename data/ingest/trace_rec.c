/* trace_rec: see trace_rec.h. */
#include "data/ingest/trace_rec.h"

#include <math.h>
#include <string.h>

#include "data/ingest/fields.h"

#define TRACE_PROGRESS_ROWS 4096 /* progress is reported every so many rows */

static int word_ieq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    if (n != m)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char a = s[i], b = lit[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a + 32);
        if (b >= 'A' && b <= 'Z')
            b = (char)(b + 32);
        if (a != b)
            return 0;
    }
    return 1;
}

const char *trace_path(const CpReadCtx *ctx)
{
    return strcmp(ctx->path, "-") == 0 ? "<stdin>" : ctx->path;
}

CpState trace_state(const char *s, size_t n)
{
    static const struct {
        const char *word;
        CpState st;
    } words[] = {
        {"Pass", CP_ST_COMPLETED},       /* Philly */
        {"Killed", CP_ST_CANCELLED},     /* Philly */
        {"Terminated", CP_ST_COMPLETED}, /* PAI: "only Terminated tasks are successful" */
        {"Waiting", CP_ST_PENDING},      /* PAI */
        {"Succeeded", CP_ST_COMPLETED},  /* Kubernetes pod phase (Alibaba) */
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (word_ieq(s, n, words[i].word))
            return words[i].st;
    return fields_state(s, n); /* Failed, Running, COMPLETED, CANCELLED... */
}

void trace_count_row(CpReadCtx *ctx, int64_t bytes_read)
{
    ctx->rows_read++;
    if (ctx->progress && ctx->rows_read % TRACE_PROGRESS_ROWS == 0)
        ctx->progress(ctx->progress_ctx, bytes_read, ctx->rows_read);
}

void trace_progress_end(CpReadCtx *ctx, int64_t bytes_read)
{
    if (ctx->progress)
        ctx->progress(ctx->progress_ctx, bytes_read, ctx->rows_read);
}

int trace_end_before_start(const CpJobRec *r, CpErr *why)
{
    if (r->start == CP_TIME_NONE || r->end == CP_TIME_NONE || r->end >= r->start)
        return 0;
    char a[32], b[32];
    cp_err_set(why, "end %s before start %s", fields_iso(r->end, a, sizeof a),
               fields_iso(r->start, b, sizeof b));
    return 1;
}

int trace_count(const char *s, size_t n, double *out, CpErr *err)
{
    double v;
    if (fields_double(s, n, &v, err) < 0)
        return -1;
    if (!(v >= 0) || !isfinite(v))
        return cp_err_set(err, "bad number '%.*s'", (int)(n > 64 ? 64 : n), s);
    *out = v;
    return 0;
}

int trace_epoch(const char *s, size_t n, int64_t *out, CpErr *err)
{
    double v;
    if (n == 0) {
        *out = CP_TIME_NONE;
        return 0;
    }
    if (fields_double(s, n, &v, NULL) < 0 || !(v >= 0) || v > 1e15)
        return cp_err_set(err, "bad time '%.*s'", (int)(n > 64 ? 64 : n), s);
    *out = llround(v);
    return 0;
}

/* The first byte of head after a byte order mark and white space, or -1
 * when there is none. */
