#ifndef STORE_STATS_H
#define STORE_STATS_H
/* store_stats: the SQL behind `capplan stats`: it reads what core/stats
 * computes over into the plain arrays of a StatsInput (names by id,
 * usage_month, the roster, groups, inventory, events, publications, and
 * the job attempts as compact StatsJob records). Nothing here computes a
 * figure.
 *
 * Job attempts cost one pass over the jobs table (every statement
 * prepared, values bound). So that a stats command on a large database
 * stays fast, the compact array (and usage_month's rows) is kept in the
 * stats_cache table, tagged with a fingerprint of what the jobs table holds
 * (its highest id, the last import that can change jobs, the record
 * layout); a later load whose fingerprint matches reads them back as a few
 * BLOBs instead of scanning the jobs. An import that touches jobs changes the fingerprint, and the
 * next load scans again and rewrites the cache (only when it can take the
 * write lock at once: a stats command never waits for an import, and a
 * read-only or busy database is simply scanned). */

#include <stdint.h>

#include "core/cp.h"
#include "core/stats.h"

typedef struct Store Store;
typedef struct StoreStatsData StoreStatsData;

/* Read what needs (STATS_NEED_* bits, see stats_kind_needs) asks for, in
 * one read transaction (a consistent snapshot). Caller frees with
 * store_stats_free. NULL with err on a database error. */
StoreStatsData *store_stats_load(Store *st, unsigned needs, CpErr *err);
void store_stats_free(StoreStatsData *d);

/* The arrays, borrowed until store_stats_free. */
const StatsInput *store_stats_input(const StoreStatsData *d);

/* 1 when the job attempts came from the cache, 0 from a scan (or not
 * loaded). */
int store_stats_cached(const StoreStatsData *d);

/* 1 when the aggregates (STATS_NEED_CELLS) were read as stored, 0 when
 * built by a scan of the jobs (or not loaded). */
int store_stats_cells_cached(const StoreStatsData *d);

/* Bring the cache up to date now (a scan and a write when it is stale;
 * nothing when it is current). For an import or a benchmark that wants
 * the next `capplan stats` to be fast. 0, or -1 with err. */
int store_stats_refresh(Store *st, CpErr *err);

/* The import keeps the cache current (issue 20): store_stats_mark, inside
 * the import's transaction before any job is written, notes the state of
 * the jobs and whether the cache describes it; store_stats_extend, before
 * the commit, appends the import's new attempts to the cache (read once
 * more, in chunks: memory does not grow with the jobs) and rewrites the
 * usage rows and the header, so that the first `capplan stats` after an
 * import reads the cache. When the import rewrote or added to jobs the
 * cache already held, or the cache was stale, it does nothing (the next
 * load rescans, as before). 0, or -1 with err on a database error. */
typedef struct StoreStatsMark {
    char fp[160], afp[256];
    int64_t since_id; /* the highest attempt id before the import */
    int usable;       /* the cache describes the jobs up to since_id */
    int agg_usable;   /* ... and so do the aggregates */
} StoreStatsMark;
int store_stats_mark(Store *st, StoreStatsMark *m, CpErr *err);
int store_stats_extend(Store *st, const StoreStatsMark *m, CpErr *err);

/* Drop the cache (the next load scans). 0, or -1 with err. */
int store_stats_forget(Store *st, CpErr *err);

#endif
