#ifndef READER_H
#define READER_H
/* reader: what every accounting reader (sacct text, sacct --json,
 * Key=Value CSV, public traces) shares: where its records go, how it
 * reports a rejected line, and how it shows progress.
 *
 * A reader streams its input (bounded memory, never the whole file), calls
 * sink.job for every record (steps included: see fold.h), and for a bad
 * line calls reject with "path:line: field X: reason". It returns 0 when
 * it reached the end of the input (rejected lines included) and -1 with
 * err filled when it had to stop: an I/O error, a sink error, a format it
 * cannot read at all, or the first rejected line when strict. */

#include <stdint.h>
#include <stdio.h>

#include "core/cp.h"
#include "core/jobrec.h"

typedef struct CpTz CpTz; /* data/ingest/tz.h */

typedef struct CpReadCtx {
    const char *path;      /* as the user gave it; "-" is shown as "<stdin>" */
    const CpTz *tz;        /* zone of zone-less times (borrowed); NULL: UTC */
    int strict;            /* stop at the first rejected line */
    CpJobSink sink;
    void (*reject)(void *ctx, const char *msg); /* one line, no newline */
    void *reject_ctx;
    void (*progress)(void *ctx, int64_t bytes_read, int64_t rows); /* may be NULL */
    void *progress_ctx;
    int64_t rows_read;     /* updated by the reader: records seen */
    int64_t rows_rejected; /* updated by the reader */
    int64_t rows_comment;  /* updated by the reader: '#' comment lines skipped */
    int64_t time_origin;   /* traces in seconds from their start: the epoch of
                              second 0; 0 for the reader's default */
    int64_t as_of;         /* traces: when the file was cut (epoch); 0: its last
                              timestamp. Runs still going count up to it. */
    int64_t rows_censored; /* updated by trace_read: runs counted up to the cut */
    int64_t censor_at;     /* updated by trace_read: the cut they were counted to */
    struct TraceHeld *held; /* trace_read's runs waiting for the cut; NULL outside */
    int64_t last_seen;     /* trace_read: latest time any record mentions */
} CpReadCtx;

/* Report a rejected line through ctx->reject and count it. Returns -1
 * with err filled when ctx->strict (the caller then stops), else 0. */
int reader_reject(CpReadCtx *ctx, CpErr *err, int64_t line, const char *field,
                  const char *reason);

#endif
