#include "data/ingest/sacct_kv.h"

#include <string.h>

#include "data/ingest/csvin.h"
#include "data/ingest/sacct_fields.h"

#define KV_PROGRESS_EVERY 4096

typedef struct KvRead {
    CpReadCtx *ctx;
    SacctRow row;       /* reused for every record; its values point into csvin's record */
    int64_t bytes_read; /* input consumed up to the last record */
} KvRead;

/* Reject the current line; 0 to go on, -1 to stop (strict). */
static int reject(CpReadCtx *ctx, CpErr *err, int64_t line, const char *field,
                  const char *reason)
{
    char why[CP_ERR_MAX];
    snprintf(why, sizeof why, "%s", reason); /* reason may be err->msg itself */
    return reader_reject(ctx, err, line, field, why);
}

/* Hand every Key=Value cell of rec to the row. -1 with err (the reason)
 * for a cell that is not Key=Value. */
static int set_cells(SacctRow *row, const CsvinRec *rec, CpErr *err)
{
    for (size_t i = 0; i < rec->n; i++) {
        char *cell = rec->f[i];
        size_t n = rec->len[i];
        if (!n)
            continue; /* a trailing comma */
        char *eq = memchr(cell, '=', n);
        if (!eq || eq == cell)
            return cp_err_set(err, "cell %zu is not Key=Value: '%.*s'", i + 1,
                              (int)(n > 40 ? 40 : n), cell);
        SacctField f = sacctf_lookup(cell, (size_t)(eq - cell));
        sacctf_set(row, f, eq + 1, n - (size_t)(eq + 1 - cell)); /* NUL at cell[n] */
    }
    return 0;
}

static int on_record(void *p, const CsvinRec *rec, CpErr *err)
{
    KvRead *kv = p;
    CpReadCtx *ctx = kv->ctx;
    const char *bad = "";
    if (csvin_rec_comment(rec)) { /* "# exported by ...": neither a record nor a rejected one */
        ctx->rows_comment++;
        return 0;
    }
    ctx->rows_read++;
    kv->bytes_read = rec->bytes_read;
    if (ctx->progress && ctx->rows_read % KV_PROGRESS_EVERY == 0)
        ctx->progress(ctx->progress_ctx, rec->bytes_read, ctx->rows_read);
    sacctf_row_init(&kv->row);
    if (set_cells(&kv->row, rec, err) < 0)
        return reject(ctx, err, rec->line, NULL, err->msg);
    if (sacctf_finish(&kv->row, ctx->tz, &bad, err) < 0)
        return reject(ctx, err, rec->line, bad, err->msg);
    return ctx->sink.job(ctx->sink.ctx, &kv->row.rec, err);
}

int sacct_kv_read(FILE *f, CpReadCtx *ctx, CpErr *err)
{
    KvRead kv;
    const char *name = strcmp(ctx->path, "-") == 0 ? "<stdin>" : ctx->path;
    kv.ctx = ctx;
    kv.bytes_read = 0;
    int rc = csvin_read(f, name, 0, on_record, &kv, err);
    if (rc == 0 && ctx->progress)
        ctx->progress(ctx->progress_ctx, kv.bytes_read, ctx->rows_read);
    return rc;
}
