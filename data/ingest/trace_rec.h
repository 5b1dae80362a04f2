#ifndef TRACE_REC_H
#define TRACE_REC_H
/* trace_rec: what the public-trace readers (data/ingest/trace_csv.c,
 * trace_json.c, trace_swf.c) share, and what trace_read (trace.c) calls
 * of them; not for other modules. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cp.h"
#include "core/jobrec.h"
#include "data/ingest/reader.h"

/* Names of the cluster each trace's records carry. */
#define TRACE_PHILLY "philly"
#define TRACE_HELIOS "helios"
#define TRACE_PAI "pai"
#define TRACE_ALIBABA "alibaba"
#define TRACE_ALIBABA_EPOCH 1672531200 /* 2023-01-01T00:00:00Z: second 0 of a trace */

/* How ctx->path is shown in messages ("<stdin>" for "-"). */
const char *trace_path(const CpReadCtx *ctx);

/* A state word of any trace: Philly's Pass/Failed/Killed, PAI's
 * Terminated/Failed/Running/Waiting, or a Slurm name (fields_state). */
CpState trace_state(const char *s, size_t n);

/* Count the row (ctx->rows_read) and report progress every few thousand
 * rows. Call once per data row, before validating it. */
void trace_count_row(CpReadCtx *ctx, int64_t bytes_read);

/* Final progress report. */
void trace_progress_end(CpReadCtx *ctx, int64_t bytes_read);

/* Hand rec to the sink. Returns its result (-1 with err filled stops).
 * Between trace_censor_begin and trace_censor_flush a run still going
 * (a start, no end, no length, RUNNING) is held back instead (a copy). */
int trace_emit(CpReadCtx *ctx, const CpJobRec *rec, CpErr *err);

/* 1 with why filled ("end ... before start ...") when r's end and start
 * are known and the end comes first; else 0. */
int trace_end_before_start(const CpJobRec *r, CpErr *why);

/* Start holding runs still going (data/ingest/trace_censor.c). */
void trace_censor_begin(CpReadCtx *ctx);

/* With emit, hand the held runs on as RUNNING, elapsed up to the cut
 * (ctx->as_of, else the latest time the file mentions), counting
 * ctx->rows_censored; then free them. Returns the sink's result. */
int trace_censor_flush(CpReadCtx *ctx, int emit, CpErr *err);


/* A time in seconds written as a decimal ("4550879.0"), rounded; "" is
 * CP_TIME_NONE. -1 with err filled ("bad time '...'") otherwise. */
int trace_epoch(const char *s, size_t n, int64_t *out, CpErr *err);

/* A non-negative decimal number ("66.0", "4"); -1 with err filled otherwise. */
int trace_count(const char *s, size_t n, double *out, CpErr *err);

/* The readers behind trace_read, one per format family. */
int trace_swf_read(FILE *f, CpReadCtx *ctx, CpErr *err);
int trace_csv_read(FILE *f, const char *kind, CpReadCtx *ctx, char *format_out,
                   size_t format_sz, CpErr *err);
int trace_philly_json_read(FILE *f, CpReadCtx *ctx, CpErr *err);

#endif
