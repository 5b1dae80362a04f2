#ifndef STORE_SIM_H
#define STORE_SIM_H
/* store_sim: the SQL of the queue simulation: the jobs that ran (final
 * attempts with a start and a runtime), as the simulator wants them.
 * Names (clusters, groups, GPU models) are interned in the order first
 * seen; everything returned is owned by the StoreSimJobs (store_sim_free). */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

typedef struct StoreSimJob {
    int64_t submit, start, elapsed; /* epoch s; s */
    int64_t limit;                  /* s, -1 unknown */
    double gpus, mem_gib;           /* mem_gib 0 unknown */
    int32_t ncpus;                  /* -1 unknown */
    int32_t cluster, group, model;  /* indices into the name tables; model -1 none */
} StoreSimJob;

typedef struct StoreSimJobs {
    StoreSimJob *v;
    size_t n;
    char **clusters, **groups, **models;
    size_t nclusters, ngroups, nmodels;
    int32_t *part;       /* per job: its partition's index in parts, -1 none; NULL
                            unless asked for (beside v: the default read stays small) */
    char **parts;
    size_t nparts;
} StoreSimJobs;

/* The jobs submitted in [from, to) (epoch s), by cluster then submit;
 * with_part: their partitions too (part, parts). 0, or -1 with err. */
int store_sim_jobs(Store *st, int64_t from, int64_t to, int with_part, StoreSimJobs *out,
                   CpErr *err);
void store_sim_free(StoreSimJobs *j);
/* The first submit and one past the last of the jobs store_sim_jobs
 * reads; 0, 1 when there is none, -1 with err. */
int store_sim_span(Store *st, int64_t *first, int64_t *end, CpErr *err);

/* How many jobs store_sim_jobs would return for [from, to), without reading
 * them. 0, or -1 with err. */
int store_sim_count(Store *st, int64_t from, int64_t to, int64_t *n, CpErr *err);
/* Index of name in a table of n names, -1 when absent. */
long store_sim_find(char *const *names, size_t n, const char *name);

#endif
