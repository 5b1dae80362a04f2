#ifndef PIPELINE_H
#define PIPELINE_H
/* pipeline: run a reader on a second thread, so parsing one batch of
 * records overlaps with storing the previous one. The reader's thread
 * copies each record (strings included) into a batch; the calling thread
 * hands every record to the downstream sink, in order. Memory is bounded
 * by a few batches, whatever the input size.
 *
 * The downstream sink runs on the calling thread only (SQLite stays on one
 * thread); the reader, its reject and progress callbacks run on the
 * worker. */

#include "core/cp.h"
#include "core/jobrec.h"

/* The work done on the worker thread: read everything, sending records to
 * sink. Returns 0 or -1 with err filled. */
typedef int (*PipelineProduce)(void *arg, CpJobSink sink, CpErr *err);

/* Runs produce on a worker thread and delivers its records to out on this
 * thread. Returns 0, or -1 with err holding the first failure (the
 * reader's or the sink's; the other side then stops early). */
int pipeline_run(PipelineProduce produce, void *arg, CpJobSink out, CpErr *err);

#endif
