#ifndef STORE_STATS_H
#define STORE_STATS_H
/* store_stats: the SQL behind `capplan stats`: it reads what core/stats
 * computes over into the plain arrays of a StatsInput (names by id,
 * usage_month, the roster, groups, inventory, events, publications, the
 * aggregates and the job attempts as compact StatsJob records). Nothing
 * here computes a figure.
 *
 * The aggregates (STATS_NEED_CELLS: what utilization, preemption and
 * waits read; issue 20) live in stats_agg, one row a month, kept by the
 * import: store_stats_extend merges the new attempts into the months they
 * touch. Their size grows with months, users and partitions, not with the
 * jobs. A load whose fingerprint does not match (an older database, an
 * import that rewrote jobs it holds) builds them in two streaming passes
 * over the jobs and writes them when it can take the write lock at once.
 *
 * The attempts (STATS_NEED_JOBS: efficiency, --group, the policy kinds)
 * cost one pass over the jobs table (every statement prepared, values
 * bound). So that they stay fast, the compact array (and usage_month's
 * rows) is kept in the stats_cache table, tagged with a fingerprint of
 * what the jobs table holds (its highest id, the last import that can
 * change jobs, the record layout); a later load whose fingerprint matches
 * reads them back as a few BLOBs instead of scanning the jobs. The import
 * extends it too; when it is stale the next load scans again and rewrites
 * it (only when it can take the write lock at once: a stats command never
 * waits for an import, and a read-only or busy database is simply
 * scanned). */

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
/* 1 when the efficiency aggregates came from the stored set (0: built by
 * a scan of the jobs, or not asked for). */
int store_stats_eff_cached(const StoreStatsData *d);

/* Bring the cache up to date now (a scan and a write when it is stale;
 * nothing when it is current). For an import or a benchmark that wants
 * the next `capplan stats` to be fast. 0, or -1 with err. */
int store_stats_refresh(Store *st, CpErr *err);

/* The import keeps the cache and the aggregates current (issue 20):
 * store_stats_mark, inside the import's transaction before any job is
 * written (after store_feed_begin, data/store/store.h), notes the state of the
 * jobs and whether each describes it, and asks the store to hand it every
 * attempt the import writes (data/store/store_feed.h): each goes to the cache's
 * new parts and the aggregates (the efficiency ones too) as it is
 * written, in id order (memory does not grow with the jobs).
 * store_stats_extend, after store_feed_finish and before the commit,
 * writes the last part, the usage rows and the header and merges the
 * aggregates into the stored months, so that the first `capplan stats`
 * after an import reads them. When an attempt changed after it was handed
 * on (a requeue further back than the feed's window, GPU metrics linked to
 * the import's jobs), it reads the import's new attempts back instead, as
 * without a feed. When the import rewrote or added to jobs they already
 * held, or one was stale, it leaves that one (the next load rebuilds it).
 * 0, or -1 with err on a database error. store_stats_mark_done frees what
 * the mark holds, after the commit or the rollback. */
typedef struct StoreStatsFeed StoreStatsFeed;
typedef struct StoreStatsMark {
    char fp[160], afp[256];
    int64_t since_id;     /* the highest attempt id before the import */
    int usable;           /* the cache describes the jobs up to since_id */
    int agg_usable;       /* ... and so do the aggregates */
    int eff_usable;       /* ... and so do the efficiency aggregates (issue 20) */
    StoreStatsFeed *feed; /* the attempts as written; NULL: read them back */
} StoreStatsMark;
int store_stats_mark(Store *st, StoreStatsMark *m, CpErr *err);
int store_stats_extend(Store *st, const StoreStatsMark *m, CpErr *err);
void store_stats_mark_done(StoreStatsMark *m);
/* 1 when store_stats_extend extended them from the attempts as written,
 * 0 when it read them back (or did nothing). */
int store_stats_fed(const StoreStatsMark *m);

/* Tests: an import merges the aggregates it built into the stored months
 * whenever they hold n cells and buckets (0: 400,000), as an import of
 * years of jobs does. Set between imports (the statistics' feed reads it
 * on its worker thread). */
void store_stats_merge_every(size_t n);

/* What the dashboard's Usage view shows (data/store/store_tui.h's
 * store_tui_scan) from the aggregates: the attempts of the months from
 * since's (since a month's first second) that ran, their hour-of-week
 * GPU-hours and requested against used, per user too. No scan of the
 * jobs when the aggregates are current. Caller frees with
 * store_tui_scan_free (also after an error). 0, or -1 with err. */
typedef struct StoreTuiScan StoreTuiScan;
int store_stats_usage_scan(Store *st, int64_t since, StoreTuiScan *out, CpErr *err);

/* Drop the cache (the next load scans). 0, or -1 with err. */
int store_stats_forget(Store *st, CpErr *err);

#endif
