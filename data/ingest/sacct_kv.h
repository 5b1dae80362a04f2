#ifndef SACCT_KV_H
#define SACCT_KV_H
/* sacct_kv: the Key=Value CSV shape of sacct records, as sonar (NAICNO
 * Jobanalyzer) stores them: one record per line, RFC 4180 quoting, every
 * cell "Key=Value" with a sacct field name as key
 * ("JobID=1639021.batch", "\"AllocTRES=billing=19,cpu=1,gres/gpu=1\"").
 * Keys may be absent (sonar leaves out empty and zero values) and come in
 * any order; unknown keys (e.g. "v=0.1.0") are ignored. Step rows
 * (.batch, .extern, .0) are passed on like job rows, with rec.step set:
 * folding them into their job is fold's work, not this reader's. Lines
 * whose first cell starts with '#' are comments: skipped and counted in
 * ctx->rows_comment, neither records nor rejected lines.
 *
 * A reader in the sense of reader.h: it streams through csvin (libcsv),
 * knows nothing of the store, and reports each bad line through
 * reader_reject as "path:line: field X: reason". */

#include <stdio.h>

#include "core/cp.h"
#include "data/ingest/reader.h"

/* Read f to its end, calling ctx->sink.job for each record (borrowed: it
 * dies when the sink returns) and ctx->progress, when set, every few
 * thousand records. Counts ctx->rows_read, ctx->rows_rejected and
 * ctx->rows_comment. Returns 0 at the end of the input (rejected lines
 * included), -1 with err filled on an I/O error, a record too large, a
 * sink error, or the first rejected line when ctx->strict. f stays open. */
int sacct_kv_read(FILE *f, CpReadCtx *ctx, CpErr *err);

#endif
