#ifndef IMPORT_H
#define IMPORT_H
/* import: one file into the store, whole or not at all. Opens the file (or
 * standard input for "-"), detects the format, streams it through its
 * reader into the store inside one transaction, records the import, and
 * commits. With strict, the first rejected line rolls everything back;
 * without, the good rows land and every rejected line is reported. */

#include <stdint.h>

#include <stdio.h>

#include "core/cp.h"
#include "data/ingest/reader.h"
#include "data/store/store_import.h"

typedef struct CpTz CpTz; /* data/ingest/tz.h */

typedef struct Store Store;

typedef struct ImportOpts {
    const char *cluster;    /* cluster name for records that carry none */
    int strict;
    const CpTz *tz;         /* zone of zone-less times (borrowed); NULL: UTC */
    int encoding;           /* TextEnc (data/ingest/textenc.h): the files' encoding */
    const char *fields;     /* sacct text without header: field list or "xdmod" */
    const char *delimiter;  /* sacct text: delimiter (multi-byte allowed); NULL: "|" */
    const char *trace_kind; /* import trace: "philly", "swf", "helios", "pai", "alibaba-pod" */
    int64_t trace_start;    /* epoch of second 0 of a relative-time trace; 0: default */
    int64_t as_of;          /* traces: when the file was cut; 0: its last timestamp */
    int progress;           /* show rows, rows/s, ETA on stderr */
    int64_t bulk_min_bytes; /* a file this large or larger loads as a bulk load
                               (store_begin_bulk); import_opts_init: 8 MiB */
    void (*reject)(void *ctx, const char *msg); /* each rejected line */
    void *reject_ctx;
} ImportOpts;

/* A reader of job records, as import_jobs_with calls it: reads f to its
 * end through rc, writes the detected format into fmt. arg is the
 * caller's. Returns 0, or -1 with err filled. */
typedef int (*ImportReadFn)(FILE *f, CpReadCtx *rc, const void *arg, char *fmt, size_t fmtsz,
                            CpErr *err);

/* The shared pipeline of every job import: open path ("-" = stdin), one
 * transaction, read -> fold steps -> store, record the import (kind), commit
 * or roll back. */
int import_jobs_with(Store *st, const char *kind, const char *path, const ImportOpts *o,
                     ImportReadFn read, const void *arg, ImportResult *res, CpErr *err);

/* Default options: no cluster, not strict, UTC, auto-detection. */
void import_opts_init(ImportOpts *o);

/* import sacct: pipe/other-delimiter text with or without header,
 * Key=Value CSV, or sacct --json (auto-detected). */
int import_sacct(Store *st, const char *path, const ImportOpts *o, ImportResult *res, CpErr *err);

/* import trace --kind K (o->trace_kind). */
int import_trace(Store *st, const char *path, const ImportOpts *o, ImportResult *res, CpErr *err);

/* import roster|inventory|gpu-metrics|events|pubs (kind names the table). */
int import_csv(Store *st, const char *kind, const char *path, const ImportOpts *o,
               ImportResult *res, CpErr *err);

#endif
