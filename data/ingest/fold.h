#ifndef FOLD_H
#define FOLD_H
/* fold: turns a stream of job rows and step rows (.batch, .extern, .0,
 * as sacct lists them, each step right after its job) into one record per
 * job attempt: peak memory and GPU memory are the maxima over the steps,
 * CPU time their sum when the job row lacks it. Sits between a reader and
 * the real sink. sacct lists each step right after its job, but files that
 * were concatenated, sorted or cut do not: a step finds its job (same
 * cluster and raw id) among the last 64 job rows, which are held back
 * before they go downstream (in their order), or, listed before its job,
 * waits for it. A step whose job row never comes within that reach is an
 * orphan: counted (fold_orphans), never silently dropped. */

#include "core/jobrec.h"

typedef struct Fold Fold;

/* Caller frees with fold_free. out is the downstream sink (borrowed). */
Fold *fold_new(CpJobSink out);
void fold_free(Fold *f);

/* fn(ctx, job) is called on each folded job record just before it goes
 * downstream (import.c: the record's hash, on the reader's thread), where
 * it may set what depends on the whole record. */
void fold_on_emit(Fold *f, void (*fn)(void *ctx, CpJobRec *job), void *ctx);

/* The sink to hand to a reader. */
CpJobSink fold_sink(Fold *f);

/* Emit the held jobs. Call at the end of the input; then fold_orphans
 * counts every step that found no job. */
int fold_flush(Fold *f, CpErr *err);

/* Steps that found no job row (not counted anywhere). */
int64_t fold_orphans(const Fold *f);

/* Steps joined to a job row they were not listed right after. */
int64_t fold_joined(const Fold *f);

#endif
