#ifndef JOBSTATS_H
#define JOBSTATS_H
/* jobstats: the job summary that Princeton's jobstats keeps in sacct's
 * AdminComment field: "JS1:" then the base64 of the gzipped JSON
 *   {"gpus": 1, "nodes": {"della-k1g1": {"gpu_used_memory": {"1": 83314868224},
 *    "gpu_utilization": {"1": 98.6}, ...}}, "total_time": 50944}
 * (GPU memory in bytes, utilisation in percent, per node and GPU).
 * "JS1:Short" (too short to be measured) and "JS1:None" carry nothing.
 * Pure decoding: no I/O, no SQLite. */

#include <stddef.h>

#include "core/cp.h"

/* What a summary says: the largest GPU memory used on any GPU (GiB), and
 * the mean utilisation over the job's GPUs (0..100); -1 when unknown. */
typedef struct JobStats {
    double gpu_mem_gib;
    double gpu_util;
} JobStats;

/* Read the AdminComment value s[0..n). Returns 1 with *out filled for a
 * jobstats summary, 0 when s is no summary (empty, another site's comment,
 * "JS1:Short", "JS1:None": *out unknown), -1 with err filled for a summary
 * that cannot be decoded ("bad jobstats summary: not base64"). */
int jobstats_parse(const char *s, size_t n, JobStats *out, CpErr *err);

#endif
