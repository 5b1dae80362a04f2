#ifndef SACCT_JSON_H
#define SACCT_JSON_H
/* sacct_json: reads `sacct --json` from Slurm 21.08 to 25.x, one job
 * element at a time (json_stream), and turns each into one CpJobRec for the
 * sink. Steps are nested inside their job in this format, so they are folded
 * here (peak RSS and peak GPU memory: maxima of steps[].tres.requested.max;
 * CPU time: the job's time.total, else the sum over its steps) and no step
 * record is ever emitted: do not put a fold in front of this reader.
 *
 * It copes with what changed across versions: meta.Slurm / meta.slurm,
 * plain numbers / {set,infinite,number}, state.current a string / a list,
 * exit_code.signal.signal_id / .id. Every attempt of a requeued job is its
 * own element and its own record. It must not touch the store, and must
 * never hold more than one job element in memory. */

#include <stddef.h>
#include <stdio.h>

#include "core/cp.h"
#include "data/ingest/reader.h"

/* Largest job element accepted (a job with thousands of steps stays far
 * below); a larger one is rejected as a bad line. */
#define SACCT_JSON_MAX_JOB_BYTES ((size_t)64 << 20)

/* Read f (from its current position, not closed) and call ctx->sink.job for
 * each job element. A job without a usable job_id, or with a field of the
 * wrong type, goes to reader_reject (naming the line where the element
 * starts); a broken file (truncated, junk, not sacct JSON) stops with -1.
 * Updates ctx->rows_read (job elements seen) and calls ctx->progress now and
 * then. format_out (may be NULL) receives e.g. "sacct-json 22.05" from meta,
 * or "sacct-json" when meta does not say. Returns 0 at the end of the input,
 * -1 with err filled (I/O, broken file, sink error, strict rejection). */
int sacct_json_read(FILE *f, CpReadCtx *ctx, char *format_out, size_t format_sz, CpErr *err);

#endif
