#include "data/ingest/reader.h"

#include <string.h>

int reader_reject(CpReadCtx *ctx, CpErr *err, int64_t line, const char *field,
                  const char *reason)
{
    char msg[CP_ERR_MAX];
    const char *path = strcmp(ctx->path, "-") == 0 ? "<stdin>" : ctx->path;
    if (field && field[0])
        snprintf(msg, sizeof msg, "%s:%lld: field %s: %s", path, (long long)line, field, reason);
    else
        snprintf(msg, sizeof msg, "%s:%lld: %s", path, (long long)line, reason);
    ctx->rows_rejected++;
    if (ctx->strict)
        return cp_err_set(err, "%s", msg);
    if (ctx->reject)
        ctx->reject(ctx->reject_ctx, msg);
    return 0;
}
