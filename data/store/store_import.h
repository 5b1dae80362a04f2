#ifndef STORE_IMPORT_H
#define STORE_IMPORT_H
/* store_import: what one import did, as the importers of data/ingest/ and
 * the store's writers (store_catalog_put, store_feed...) count it together.
 * A plain record, filled by the callee, owned by the caller. */

#include <stdint.h>

typedef struct ImportResult {
    char format[48];        /* what was detected, e.g. "sacct-pipe", "sacct-json 22.05" */
    int64_t mem_conflicts;  /* jobs whose ReqMem disagreed with ReqTRES (CP_REC_MEM_CONFLICT) */
    int64_t orphan_steps;   /* steps whose job row was not in reach (data/ingest/fold.h) */
    int64_t rows_read;      /* records (job and step rows, or CSV rows) read */
    int64_t added, updated, unchanged, rejected;
    int64_t comments;       /* '#' comment lines skipped (sacct text) */
    int64_t censored;       /* trace runs still going at the cut, counted up to it */
    int64_t censor_at;      /* that cut (epoch) */
    int64_t cpu_nodes;      /* node list: CPU-only nodes, not in the GPU inventory */
    int stats_fed;          /* the statistics' cache and aggregates were extended from
                               the attempts as written, not read back (issue 20) */
    int policy_fed;         /* the energy aggregate likewise */
} ImportResult;

#endif
