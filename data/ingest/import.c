#include "data/ingest/import.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/ingest/fold.h"
#include "data/ingest/peekfile.h"
#include "data/ingest/pipeline.h"
#include "data/ingest/reader.h"
#include "data/ingest/sacct_json.h"
#include "data/ingest/sacct_kv.h"
#include "data/ingest/sacct_text.h"
#include "data/store/store.h"
#include "data/store/store_policy.h"
#include "data/store/store_stats.h"
#include "data/store/store_sources.h"
#include "data/ingest/textenc.h"

#define BULK_MIN_BYTES (8 << 20) /* smaller files load fast in WAL mode anyway */

void import_opts_init(ImportOpts *o)
{
    memset(o, 0, sizeof *o);
    o->bulk_min_bytes = BULK_MIN_BYTES;
}

/* ---- progress on a terminal: rows, rows/s, ETA ---- */

typedef struct Progress {
    int64_t total_bytes; /* 0 when unknown (a pipe) */
    double started, last;
    int shown;
} Progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void show_progress(void *ctx, int64_t bytes, int64_t rows)
{
    Progress *p = ctx;
    double t = now_s();
    if (t - p->last < 0.25)
        return;
    p->last = t;
    double rate = rows / (t - p->started + 1e-9);
    char eta[32] = "";
    if (p->total_bytes > 0 && bytes > 0) {
        double left = (t - p->started) * (double)(p->total_bytes - bytes) / (double)bytes;
        snprintf(eta, sizeof eta, ", ETA %.0f s", left < 0 ? 0 : left);
    }
    fprintf(stderr, "\r  %lld rows, %.0f rows/s%s   ", (long long)rows, rate, eta);
    p->shown = 1;
}

/* ---- the store as the end of the pipeline ---- */

typedef struct StoreSink {
    Store *st;
    int64_t import_id;
    const char *default_cluster;
    int override_cluster; /* default_cluster replaces the records' own */
    StoreJobCounts counts;
    int64_t mem_conflicts;
    int64_t first_submit, last_submit; /* span of the jobs brought; first > last: none */
} StoreSink;

static int store_sink_job(void *ctx, const CpJobRec *r, CpErr *err)
{
    StoreSink *s = ctx;
    s->mem_conflicts += (r->flags & CP_REC_MEM_CONFLICT) != 0;
    if (r->submit > 0 && r->submit != CP_TIME_NONE) {
        s->first_submit = r->submit < s->first_submit ? r->submit : s->first_submit;
        s->last_submit = r->submit > s->last_submit ? r->submit : s->last_submit;
    }
    if (s->override_cluster)
        return store_job_put_as(s->st, s->import_id, s->default_cluster, r, &s->counts, err);
    return store_job_put(s->st, s->import_id, s->default_cluster, r, &s->counts, err);
}

/* ---- opening inputs ---- */

static FILE *open_input(const char *path, int64_t *size, CpErr *err)
{
    *size = 0;
    if (strcmp(path, "-") == 0)
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) {
        cp_err_set(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode))
        *size = (int64_t)sb.st_size;
    else if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        cp_err_set(err, "%s: is a directory", path);
        return NULL;
    }
    return f;
}

static const char *shown_path(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* What the reader's thread needs: read f through rc, steps folded. */
typedef struct Produce {
    FILE *f;
    CpReadCtx *rc;
    ImportReadFn read;
    const void *arg;
    char *fmt;
    size_t fmtsz;
    int64_t orphans; /* steps without their job (fold_orphans) */
    const char *cluster; /* the store sink's default_cluster */
    int override;        /* ... which replaces the records' own */
} Produce;

/* A folded record's hash (store_rec_hash, for the cluster the store sink
 * will give it), set in place as it leaves the fold for the pipeline:
 * hashing it here, on the reader's thread, takes it off the writer's. */
static void add_hash(void *ctx, CpJobRec *r)
{
    Produce *p = ctx;
    const char *own = r->cluster;
    if (p->override)
        r->cluster = p->cluster;
    r->rec_hash = store_rec_hash(r, p->cluster);
    r->cluster = own;
}

static int produce(void *arg, CpJobSink sink, CpErr *err)
{
    Produce *p = arg;
    Fold *fold = fold_new(sink);
    fold_on_emit(fold, add_hash, p);
    p->rc->sink = fold_sink(fold);
    int rc = p->read(p->f, p->rc, p->arg, p->fmt, p->fmtsz, err);
    if (rc == 0)
        rc = fold_flush(fold, err);
    p->orphans = fold_orphans(fold);
    fold_free(fold);
    return rc;
}

int import_jobs_with(Store *st, const char *kind, const char *path, const ImportOpts *o,
                     ImportReadFn read, const void *arg, ImportResult *res, CpErr *err)
{
    memset(res, 0, sizeof *res);
    int64_t size;
    FILE *f = open_input(path, &size, err);
    if (!f)
        return -1;
    StoreStatsMark mark;
    StorePolicyMark pmark; /* the energy aggregate (hpol, issue 20 item 4) */
    memset(&mark, 0, sizeof mark);
    memset(&pmark, 0, sizeof pmark);
    Progress prog = {size, now_s(), 0, 0};
    int given = o->cluster && o->cluster[0];
    StoreSink sink = {st, 0, given ? o->cluster : "default", given && strcmp(kind, "trace") == 0,
                      {0, 0, 0}, 0, INT64_MAX, 0};
    CpReadCtx rc;
    memset(&rc, 0, sizeof rc);
    rc.path = path;
    rc.tz = o->tz;
    rc.time_origin = o->trace_start;
    rc.as_of = o->as_of;
    rc.strict = o->strict;
    rc.reject = o->reject;
    rc.reject_ctx = o->reject_ctx;
    if (o->progress) {
        rc.progress = show_progress;
        rc.progress_ctx = &prog;
    }
    int ok = -1;
    FILE *in = o->encoding != TEXTENC_UTF8 ? textenc_open(f, (TextEnc)o->encoding) : f;
    if (!in) {
        cp_err_set(err, "%s: %s", shown_path(path), strerror(errno));
        goto out;
    }
    Produce pr = {in, &rc, read, arg, res->format, sizeof res->format, 0, sink.default_cluster,
                  sink.override_cluster};
    /* A bulk load for a large file only: the journal mode's switch rewrites
     * the file's header, and --strict, a collect (a pipe) or a small file
     * that fails must leave the database byte for byte as it was. */
    int bulk = !o->strict && o->bulk_min_bytes > 0 && size >= o->bulk_min_bytes;
    if ((bulk ? store_begin_bulk(st, err) : store_begin(st, err)) < 0)
        goto out;
    /* the attempts reach the job blocks and the statistics as they are
     * written (data/store/store_feed.h), not read back */
    if (store_feed_begin(st, err) < 0 || store_stats_mark(st, &mark, err) < 0)
        goto fail;
    if (store_policy_mark(st, &pmark, err) < 0)
        goto fail;
    sink.import_id = store_import_begin(st, kind, path, "", err);
    if (sink.import_id < 0 ||
        pipeline_run(produce, &pr, (CpJobSink){store_sink_job, &sink}, err) < 0 ||
        store_feed_finish(st, err) < 0)
        goto fail;
    res->rows_read = rc.rows_read;
    res->rejected = rc.rows_rejected;
    res->comments = rc.rows_comment;
    res->censored = rc.rows_censored;
    res->censor_at = rc.censor_at;
    res->added = sink.counts.added;
    res->updated = sink.counts.updated;
    res->unchanged = sink.counts.unchanged;
    res->mem_conflicts = sink.mem_conflicts;
    res->orphan_steps = pr.orphans;
    if (store_import_end(st, sink.import_id, res->rows_read, res->added, res->updated,
                         res->rejected, err) < 0 ||
        store_import_format(st, sink.import_id, res->format, err) < 0 ||
        store_import_span(st, sink.import_id, sink.first_submit, sink.last_submit, err) < 0 ||
        store_link_metrics(st, sink.import_id, err) < 0 ||
        store_stats_extend(st, &mark, err) < 0 || store_policy_extend(st, &pmark, err) < 0 ||
        store_commit(st, err) < 0)
        goto fail;
    res->stats_fed = store_stats_fed(&mark);
    res->policy_fed = store_policy_fed(&pmark);
    ok = 0;
    goto out;
fail:
    store_rollback(st);
    if (strncmp(err->msg, shown_path(path), strlen(shown_path(path))) != 0)
        cp_err_prefix(err, shown_path(path));
out:
    store_stats_mark_done(&mark);
    store_policy_mark_done(&pmark);
    if (prog.shown)
        fprintf(stderr, "\r%*s\r", 60, "");
    if (in && in != f)
        fclose(in);
    if (f != stdin)
        fclose(f);
    return ok;
}

/* ---- sacct: detect text, Key=Value CSV or JSON ---- */

typedef enum { FMT_TEXT, FMT_KV, FMT_JSON } SacctFormat;

static SacctFormat detect_sacct(const char *head, size_t n)
{
    size_t i = 0;
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    for (;;) { /* blanks and '#' comment lines come before the first record */
        while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
            i++;
        if (i == n || head[i] != '#')
            break;
        const char *eol = memchr(head + i, '\n', n - i);
        i = eol ? (size_t)(eol - head) + 1 : n;
    }
    if (i < n && (head[i] == '{' || head[i] == '['))
        return FMT_JSON;
    /* Key=Value CSV: the first cell is Name=value, and it comes before any '|' */
    size_t j = i;
    while (j < n && ((head[j] >= 'A' && head[j] <= 'Z') || (head[j] >= 'a' && head[j] <= 'z')))
        j++;
    if (j > i && j < n && head[j] == '=') {
        const char *comma = memchr(head + j, ',', n - j);
        const char *pipe = memchr(head + j, '|', n - j);
        if (comma && (!pipe || pipe > comma))
            return FMT_KV;
    }
    return FMT_TEXT;
}

static int read_sacct(FILE *f, CpReadCtx *rc, const void *arg, char *fmt, size_t fmtsz, CpErr *err)
{
    const ImportOpts *o = arg;
    char head[4096];
    size_t n;
    FILE *pf = peekfile_open(f, head, sizeof head, &n);
    if (!pf)
        return cp_err_set(err, "read error: %s", strerror(errno));
    int rcode;
    if (n == 0) {
        rcode = cp_err_set(err, "empty file");
    } else {
        switch (detect_sacct(head, n)) {
        case FMT_JSON:
            rcode = sacct_json_read(pf, rc, fmt, fmtsz, err);
            break;
        case FMT_KV:
            rcode = sacct_kv_read(pf, rc, err);
            snprintf(fmt, fmtsz, "sacct-keyvalue-csv");
            break;
        default:
            rcode = sacct_text_read(pf, rc, o->delimiter, o->fields, fmt, fmtsz, err);
            break;
        }
    }
    peekfile_close(pf, f);
    return rcode;
}

int import_sacct(Store *st, const char *path, const ImportOpts *o, ImportResult *res, CpErr *err)
{
    return import_jobs_with(st, "sacct", path, o, read_sacct, o, res, err);
}
