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
#include "core/jobrec.h"
#include "data/ingest/reader.h"
#include "data/ingest/trace_rec.h" /* what trace.c shares with its readers */

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

#endif
