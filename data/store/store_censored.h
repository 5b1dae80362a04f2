#ifndef STORE_CENSORED_H
#define STORE_CENSORED_H
/* store_censored: how many runs were still going when their file was
 * written (#29 item 1), so that what shows hours can say so. A censored
 * run is a final attempt RUNNING or SUSPENDED with a start, a length and
 * no end: sacct's job running at the snapshot, a trace's run with no end
 * (data/ingest/trace_censor.c gives it the trace's end, or --as-of, as its
 * length). Its hours run up to that cut, start + elapsed: a lower bound.
 * (Alibaba's openb pods in phase Running come with a deletion time, their
 * end: not censored.) Reads only. */

#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

typedef struct StoreCensored {
    int64_t runs;                /* censored runs */
    int64_t first_cut, last_cut; /* the earliest and latest cut, epoch s; 0 when runs == 0 */
} StoreCensored;

/* Which runs store_censored counts: those of cluster (NULL: every
 * cluster) overlapping [lo, hi) (0: unbounded) that hold GPUs (unit 0),
 * CPUs (1) or either (-1). */
typedef struct StoreCensoredWhere {
    const char *cluster;
    int64_t lo, hi;
    int unit;
} StoreCensoredWhere;

/* *out for the runs w selects. 0, or -1 with err. */
int store_censored(Store *st, const StoreCensoredWhere *w, StoreCensored *out, CpErr *err);

#endif
