#ifndef STORE_STATS_INT_H
#define STORE_STATS_INT_H
/* store_stats_int: what the files of data/store_stats share (not part of
 * the API of data/store/store_stats.h): the loaded data, the scan that makes
 * StatsJob records of the jobs table or of the import's attempts, the
 * cache's parts, the aggregates' storage and the import's extension.
 *   data/store/store_stats.c         names, reference tables, the scan, the cache, store_stats_load
 *   data/store/store_stats_agg.c     the aggregates and the efficiency aggregates: read, built, written
 *   data/store/store_stats_extend.c  the import extends the cache and aggregates by reading back
 *   data/store/store_stats_feed.c    ... or from the import's own records (store_feed_add)
 *   data/store/store_stats_usage.c   the dashboard's Usage view */

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/stats.h"
#include "core/strmap.h"
#include "data/store/store_feed.h"
#include "data/store/store_stats.h"
#include "data/store/store_stats_eff.h"
#include "data/store/store_schema.h"

#define CACHE_CHUNK 65536 /* records per BLOB of the cache */
#define EXTEND_CHUNK 8192 /* ... of those an import appends (its memory stays small) */

enum { N_CLUSTERS, N_USERS, N_ACCOUNTS, N_PARTITIONS, N_GPU_TYPES, N_COUNT };

struct StoreStatsData {
    StatsInput in;
    char **names[N_COUNT]; /* owned arrays behind in's StatsNames */
    size_t nnames[N_COUNT];
    StatsUsage *usage;
    StatsPerson *people;
    StatsGroupInfo *groups;
    StatsGpus *inventory;
    StatsEvent *events;
    StatsPub *pubs;
    StatsJob *jobs;
    char **strs; /* every other string */
    size_t nstrs, capstrs;
    int cached;
    StatsCellsBuf cells;     /* the aggregates */
    StatsCellsBuild *rebuilt; /* made by a scan: to write once the read is over */
    int cells_cached;
    StatsEffBuf eff;             /* the efficiency aggregates */
    StatsEffBuild *eff_rebuilt;  /* made by a scan: to write once the read is over */
    int eff_cached;
};

/* Growable array of fixed-size items. */
typedef struct Vec {
    void **data;
    size_t *n;
    size_t cap, size;
} Vec;

/* store_stats_name_row's context: the names of kind which (N_*) of d. */
typedef struct NamesCtx {
    StoreStatsData *d;
    int which;
} NamesCtx;

typedef struct Scan {
    StoreStatsData *d;
    Vec v;
    StrMap *types;   /* gpu type name -> id */
    StrMap *earlier; /* (cluster, job_raw) of non-final attempts -> earlier_pack() */
    struct EffFeed *eff; /* the efficiency aggregates the attempts go to, or NULL */
    const char *last_name; /* job_of_attempt: the last GPU type name seen, */
    uint16_t last_type;    /* ... and its id */
} Scan;

/* Where a scan's attempts go for the efficiency aggregates: the builder,
 * and the cluster names it learns (names' clusters, read again when an
 * attempt names a cluster made after they were read). */
typedef struct EffFeed {
    StatsEffBuild *b;
    StoreStatsData *names;
    sqlite3 *db;   /* NULL: not read again here (the import's feed: feed_clusters) */
    size_t reread; /* ids below it were looked for in the table */
} EffFeed;

/* The columns a StatsJob is read from, in job_fill's order. */
#define JOB_SQL                                                                           \
    "SELECT cluster_id, job_raw, submit, start, end_time, elapsed, timelimit, "           \
    STORE_CPU_MILLI_SQL ", coalesce(user_id, 0), coalesce(account_id, 0), "              \
    "coalesce(partition_id, 0), gpus, gpu_util, gpu_mem_gib, gpu_mem_source, "           \
    "max_rss_mib, req_mem_mib, total_cpu_s, gpu_type, state, final, id FROM jobs"

#define EFF_IDLE_SQL JOB_SQL " WHERE gpus > 0 AND gpu_util < 10"

/* A row id as StatsJob keeps it: 16 bits, 0 unknown. */
static inline uint16_t id16(int64_t v)
{
    return v > 0 && v <= UINT16_MAX ? (uint16_t)v : 0;
}

/* ---- data/store/store_stats.c ---- */

/* Prepare sql, call row for each result row: 0, or -1 with err (what says what failed). */
int store_stats_each_row(sqlite3 *db, const char *sql, void (*row)(sqlite3_stmt *s, void *ctx),
                         void *ctx, const char *what, CpErr *err);
/* d's name id of kind which set to a copy of name (owned by d). */
void store_stats_name_set(StoreStatsData *d, int which, size_t id, const char *name);
/* An "id, name" row into the NamesCtx ctx (ids out of range skipped). */
void store_stats_name_row(sqlite3_stmt *s, void *ctx);
/* usage_month's rows into d->usage (owned by d): 0, or -1 with err. */
int store_stats_load_usage(sqlite3 *db, StoreStatsData *d, CpErr *err);
/* The reference tables needs (STATS_NEED_*) asks for, into d (owned by d): 0, or -1 with err. */
int store_stats_load_refs(sqlite3 *db, StoreStatsData *d, unsigned needs, CpErr *err);
/* An empty scan that appends its attempts to d (borrowed); scan_done frees what it owns. */
void scan_init(Scan *sc, StoreStatsData *d);
/* Frees what the scan owns (not d). */
void scan_done(Scan *sc);
/* Every attempt of the jobs table into d->jobs, linked (store_stats.c;
 * store_stats_load reads through it when the cache is not current). 0, or
 * -1 with err. */
int scan_jobs(sqlite3 *db, StoreStatsData *d, CpErr *err);
/* A non-final attempt: sc remembers its job's earliest submit and whether it was preempted. */
void scan_earlier(Scan *sc, const StatsJob *j);
/* *j (zeroed) from a JOB_SQL row (a new GPU type name is added to sc->d's). */
void job_fill(Scan *sc, sqlite3_stmt *s, StatsJob *j);
/* *j (zeroed) from an attempt the import wrote, as job_fill reads its row back. */
void job_of_attempt(Scan *sc, const StoreAttempt *a, StatsJob *j);
/* Is cluster id one to read the names again for, known names held and
 * ids below reread looked for already? */
int cluster_unseen(size_t known, size_t reread, uint16_t id);
/* Attempt *j (of order id) into the scan's efficiency aggregates (sc->eff set). */
void eff_put(Scan *sc, const StatsJob *j, int64_t id);
/* Attempt *j of JOB_SQL row s into the scan's efficiency aggregates (sc->eff set). */
void eff_job(Scan *sc, sqlite3_stmt *s, const StatsJob *j);
/* The second pass: a JOB_SQL row's hogging into the Scan ctx's efficiency aggregates. */
void eff_hog_row(sqlite3_stmt *s, void *ctx);
/* A final attempt learns its job's first submission and preemptions from sc. */
void link_one(const Scan *sc, StatsJob *j);
/* The final attempt j's job forgotten by sc->earlier. */
void forget_job(Scan *sc, const StatsJob *j);
/* The jobs table's state as the cache's fingerprint, into buf: 0, or -1 with err (err may be NULL). */
int store_stats_fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err);
/* 1 when the cache's header matches fp (sets the counts and d's GPU type
 * names, owned by d), 0 when stale or absent. */
int cache_header(sqlite3 *db, StoreStatsData *d, const char *fp, size_t *njobs, size_t *nusage);
/* sql run without a result: 0, or -1. */
int store_stats_exec(sqlite3 *db, const char *sql);
/* One cache part (data borrowed) through the INSERT ins: 0, or -1. */
int put_part(sqlite3_stmt *ins, int64_t part, const char *fp, const void *data, size_t n);
/* The cache's header (part 0) of d's counts and GPU type names, appended to b. */
void header_blob(const StoreStatsData *d, CpBuf *b);
/* A non-final attempt's (cluster, job_raw, submit, state) row into the Scan ctx. */
void earlier_row(sqlite3_stmt *s, void *ctx);

/* ---- data/store/store_stats_agg.c ---- */

/* The aggregates' fingerprint (layout and the cache's fingerprint) into buf: 0, or -1 with err. */
int agg_fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err);
/* 1 when stats_agg describes the jobs as afp says. */
int agg_current(sqlite3 *db, const char *afp);
/* Stored month m (the prepared SELECT sel) merged into b (nothing when absent): 0, or -1. */
int agg_merge_month(sqlite3_stmt *sel, StatsCellsBuild *b, int32_t m);
/* b's months (replacing those stored) and the header afp (NULL: not): 0, or -1. */
int agg_write(sqlite3 *db, const StatsCellsBuild *b, const char *afp);
/* The aggregates and the window into d: stored when current, else built
 * (afp left set for the caller to write them). 0, or -1 with err. */
int store_stats_load_cells(sqlite3 *db, StoreStatsData *d, char *afp, size_t afpsz, CpErr *err);
/* Write the aggregates a load built (d->rebuilt), when the write lock is
 * free at once and the jobs are still those afp describes. Best effort. */
void store_stats_cells_write(Store *st, const StoreStatsData *d, const char *afp);
/* The efficiency aggregates into d: stored when current, else built (efp
 * left set for the caller to write them). 0, or -1 with err. */
int store_stats_load_eff(sqlite3 *db, StoreStatsData *d, char *efp, size_t efpsz, CpErr *err);
/* Write the efficiency aggregates a load built (d->eff_rebuilt), when the
 * write lock is free at once and efp still holds. Best effort. */
void store_stats_eff_write(Store *st, const StoreStatsData *d, const char *efp);

/* ---- data/store/store_stats_extend.c ---- */

/* Aggregates past this many cells and buckets are merged into the stored
 * months during an import (store_stats_merge_every). */
extern size_t store_stats_agg_flush;
/* The months cells touched, merged with those stored, written back (with
 * the new fingerprint when final): 0; 1 when the stored months were
 * dropped (one did not parse); -1 with err. cells stays the caller's. */
int extend_cells(sqlite3 *db, StatsCellsBuild *cells, int final, CpErr *err);
/* The usage rows (read into d) as the cache's parts -1, -2, ... through ins: 0, or -1 with err. */
int store_stats_write_usage(sqlite3 *db, StoreStatsData *d, sqlite3_stmt *ins, const char *fp,
                            CpErr *err);
/* The import's attempts read back from the jobs table into the cache (ins,
 * NULL: not), *cells (NULL: not; may be replaced) and sc->eff: 0, or -1 with err. */
int store_stats_extend_back(Store *st, const StoreStatsMark *m, StoreStatsData *d, Scan *sc,
                            sqlite3_stmt *ins, StatsCellsBuild **cells, CpErr *err);
/* The import's efficiency aggregates started when m allows (e->b NULL:
 * not kept); eff_end frees what e owns. 0, or -1 with err. */
int eff_begin(sqlite3 *db, const StoreStatsMark *m, EffFeed *e, CpErr *err);
/* Frees what eff_begin gave e. */
void eff_end(EffFeed *e);
/* The import's efficiency aggregates (sc->eff) merged and written, or
 * forgotten for the next load to rebuild: 0, or -1 with err. */
int eff_finish(sqlite3 *db, const StoreStatsMark *m, Scan *sc, CpErr *err);

/* ---- data/store/store_stats_feed.c ---- */

/* A feed for the import's attempts into m->feed (owned by m: freed by
 * store_stats_mark_done) when the store hands them on and the cache or
 * the aggregates can be extended: 0, or -1 with err. */
int store_stats_feed_start(Store *st, StoreStatsMark *m, CpErr *err);

#endif
