#ifndef FOLD_H
#define FOLD_H
/* fold: turns a stream of job rows and step rows (.batch, .extern, .0,
 * as sacct lists them, each step right after its job) into one record per
 * job attempt: peak memory and GPU memory are the maxima over the steps,
 * CPU time their sum when the job row lacks it. Sits between a reader and
 * the real sink. A step whose job row was not just seen is counted as an
 * orphan and dropped (sacct never separates them). */

#include "data/jobrec.h"

typedef struct Fold Fold;

/* Caller frees with fold_free. out is the downstream sink (borrowed). */
Fold *fold_new(CpJobSink out);
void fold_free(Fold *f);

/* The sink to hand to a reader. */
CpJobSink fold_sink(Fold *f);

/* Emit the pending job, if any. Call at the end of the input. */
int fold_flush(Fold *f, CpErr *err);

/* Steps dropped because their job row was not the one just seen. */
int64_t fold_orphans(const Fold *f);

#endif
