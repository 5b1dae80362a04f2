#ifndef TRACE_H
#define TRACE_H
/* trace: readers for public cluster traces, one CpJobRec per job.
 *
 *   philly  Microsoft Philly: the JSON job list (sampled_jobs.json), its
 *           flattened CSV (job_id,user,vc,gpu_num,node_num,state,...) or
 *           the VC-level table (timestamp,duration,num_gpus,gpu_time,cluster),
 *           told apart by the first bytes and the header;
 *   swf     the Parallel Workloads Archive's Standard Workload Format;
 *   helios  SenseTime Helios cluster_log.csv;
 *   pai     Alibaba PAI 2020 pai_job_table.csv or pai_task_table.csv
 *           (with or without header), told apart by the field count;
 *   alibaba-pod  Alibaba's GPU-sharing pod lists (cluster-trace-gpu-v2023:
 *           name,...,num_gpu,gpu_milli,...,qos,pod_phase,creation_time,...)
 *           and inference-instance lists (cluster-trace-gpu-v2025:
 *           instance_sn,role,app_name,...,gpu_request,...), told apart by
 *           the header; times are seconds from the trace's start, which
 *           is ctx->time_origin, else TRACE_ALIBABA_EPOCH (the traces
 *           publish no date).
 *
 * Every record gets a cluster name (the trace's: "philly", "helios", "pai",
 * or the SWF header's installation), a numeric job_raw (the trace's job
 * number, or the 1-based data row number where the trace has none: see
 * each reader), the trace's virtual cluster or Unix group as account, and
 * a normalised state with the raw text kept. Readers stream their input
 * (memory bounded by the longest line or JSON element); they know nothing
 * of SQLite: the records go to ctx->sink. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cp.h"
#include "data/ingest/jobrec.h"
#include "data/ingest/reader.h"

/* Read the trace f of kind "philly", "swf", "helios", "pai" or
 * "alibaba-pod" to its end,
 * calling ctx->sink.job for every job (strings borrowed for the call),
 * reader_reject for every bad line, ctx->progress now and then, and
 * counting ctx->rows_read (data rows, rejected ones included).
 * format_out receives what was read, e.g. "trace-swf", "trace-philly-json".
 * Returns 0 at the end of the input, -1 with err filled for an unknown
 * kind, an empty or unreadable input, a sink error, or the first rejected
 * line when ctx->strict. f stays open: the caller closes it. */
int trace_read(FILE *f, const char *kind, CpReadCtx *ctx, char *format_out, size_t format_sz,
               CpErr *err);

/* The trace kind the first bytes of a file look like ("swf", "philly",
 * "helios", "pai", "alibaba-pod"), or NULL: for the hints of `import
 * trace` without --kind and of `import sacct` given a trace (#29). */
const char *trace_guess_kind(const char *head, size_t n);

/* trace_guess_kind of the first 4 KiB of the file at path ("-": NULL). */
const char *trace_guess_file(const char *path);

/* ---- shared by the data/trace_*.c readers; not for other modules ---- */

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
