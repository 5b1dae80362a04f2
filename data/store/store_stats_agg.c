/* store_stats_agg: the aggregates and the efficiency aggregates as a
 * load reads, builds and writes them (see store_stats.h and
 * store_stats_int.h). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_stats_int.h"

/* ---- the aggregates (issue 20) ----
 *
 * stats_agg holds one row a month (the blob core/stats writes) and, in
 * month 0, the fingerprint of the jobs they describe (agg_fingerprint).
 * The import merges its new attempts into the months they touch
 * (store_stats_extend); a load whose fingerprint does not match builds
 * them with two passes over the jobs (their earlier attempts, then every
 * attempt, as it streams: memory does not grow with the jobs) and writes
 * them when it can take the write lock at once. */

#define AGG_LAYOUT 2

int agg_fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err)
{
    char fp[160];
    if (store_stats_fingerprint(db, fp, sizeof fp, err) < 0)
        return -1;
    snprintf(buf, n, "agg %d %zu %zu %zu %zu %s", AGG_LAYOUT, sizeof(StatsCellSum),
             sizeof(StatsCellKey), sizeof(StatsHist), sizeof(StatsHeat), fp);
    return 0;
}

/* 1 when stats_agg describes the jobs as afp says. */
int agg_current(sqlite3 *db, const char *afp)
{
    sqlite3_stmt *s;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month = 0", -1, &s, NULL) !=
        SQLITE_OK)
        return 0;
    if (sqlite3_step(s) == SQLITE_ROW) {
        const void *b = sqlite3_column_blob(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        ok = b && n == strlen(afp) && memcmp(b, afp, n) == 0;
    }
    sqlite3_finalize(s);
    return ok;
}

/* Room in buf for every stored month, from their headers (read alone:
 * the arrays are then allocated once, at their size). */
static void agg_reserve(sqlite3 *db, StatsCellsBuf *buf)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT month FROM stats_agg WHERE month > 0", -1, &s, NULL) !=
        SQLITE_OK)
        return;
    size_t total[4] = {0, 0, 0, 0};
    while (sqlite3_step(s) == SQLITE_ROW) {
        sqlite3_blob *b;
        uint32_t h[6];
        if (sqlite3_blob_open(db, "main", "stats_agg", "data", sqlite3_column_int64(s, 0), 0, &b) !=
            SQLITE_OK)
            continue;
        if (sqlite3_blob_bytes(b) >= (int)sizeof h && sqlite3_blob_read(b, h, sizeof h, 0) == SQLITE_OK)
            for (int i = 0; i < 4; i++)
                total[i] += h[1 + i];
        sqlite3_blob_close(b);
    }
    sqlite3_finalize(s);
    stats_cells_buf_reserve(buf, total);
}

/* Every stored month into buf: 0, or -1 when one does not parse. */
static int agg_read(sqlite3 *db, StatsCellsBuf *buf)
{
    sqlite3_stmt *s;
    agg_reserve(db, buf);
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month > 0 ORDER BY month", -1, &s,
                           NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW)
        rc = stats_cells_buf_add(buf, sqlite3_column_blob(s, 0),
                                 (size_t)sqlite3_column_bytes(s, 0));
    sqlite3_finalize(s);
    return rc;
}

/* Stored month m merged into b (nothing when absent): 0, or -1. */
int agg_merge_month(sqlite3_stmt *sel, StatsCellsBuild *b, int32_t m)
{
    sqlite3_bind_int(sel, 1, m);
    int rc = 0;
    if (sqlite3_step(sel) == SQLITE_ROW)
        rc = stats_cells_build_blob(b, sqlite3_column_blob(sel, 0),
                                    (size_t)sqlite3_column_bytes(sel, 0));
    sqlite3_reset(sel);
    return rc;
}

/* One month's bytes into stats_agg (ctx: the INSERT): 0, or -1. */
static int put_month(void *ctx, int32_t month, const void *blob, size_t n)
{
    sqlite3_stmt *ins = ctx;
    sqlite3_bind_int(ins, 1, month);
    sqlite3_bind_blob64(ins, 2, blob, n, SQLITE_STATIC);
    int rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(ins);
    return rc;
}

/* b's months (replacing those stored) and the header afp (NULL: not). */
int agg_write(sqlite3 *db, const StatsCellsBuild *b, const char *afp)
{
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO stats_agg(month, data) VALUES(?1, ?2)", -1,
                           &ins, NULL) != SQLITE_OK)
        return -1;
    int rc = stats_cells_month_blobs(b, put_month, ins);
    if (rc == 0 && afp) {
        sqlite3_bind_int(ins, 1, 0);
        sqlite3_bind_blob64(ins, 2, afp, strlen(afp), SQLITE_STATIC);
        rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(ins);
    return rc;
}

/* Every attempt into b, linked to its job's earlier attempts (first
 * submission, preemptions): those first, then every attempt as it
 * streams. */
static int agg_scan(sqlite3 *db, StatsCellsBuild *b, CpErr *err)
{
    StoreStatsData *d = xcalloc(1, sizeof *d);
    Scan sc;
    scan_init(&sc, d);
    sqlite3_stmt *s = NULL;
    int rc = store_stats_each_row(db, "SELECT cluster_id, job_raw, submit, state FROM jobs WHERE final = 0",
                      earlier_row, &sc, "read jobs", err);
    if (rc == 0 && sqlite3_prepare_v2(db, JOB_SQL, -1, &s, NULL) != SQLITE_OK)
        rc = sqlrow_err(db, err, "read jobs");
    while (rc == 0) {
        int step = sqlite3_step(s);
        if (step != SQLITE_ROW) {
            rc = step == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read jobs");
            break;
        }
        StatsJob j;
        memset(&j, 0, sizeof j);
        job_fill(&sc, s, &j);
        link_one(&sc, &j);
        stats_cells_build_job(b, &j);
    }
    sqlite3_finalize(s);
    scan_done(&sc);
    store_stats_free(d);
    return rc;
}

static void window_row(sqlite3_stmt *s, void *ctx)
{
    StatsInput *in = ctx;
    in->win_from = sqlite3_column_int64(s, 0);
    in->win_to = sqlite3_column_int64(s, 1);
}

/* The aggregates and the window: stored when current, else built (afp
 * left set for the caller to write them). */
int store_stats_load_cells(sqlite3 *db, StoreStatsData *d, char *afp, size_t afpsz, CpErr *err)
{
    if (agg_fingerprint(db, afp, afpsz, err) < 0 ||
        store_stats_each_row(db, "SELECT coalesce(lo, 0), coalesce(hi, 0) FROM acct_window", window_row,
                 &d->in, "read the window", err) < 0)
        return -1;
    d->in.has_cells = 1;
    if (agg_current(db, afp) && agg_read(db, &d->cells) == 0) {
        d->cells_cached = 1;
        afp[0] = '\0';
        return 0;
    }
    stats_cells_buf_done(&d->cells);
    d->rebuilt = stats_cells_build_new(0);
    if (agg_scan(db, d->rebuilt, err) < 0)
        return -1;
    stats_cells_buf_from(&d->cells, d->rebuilt);
    return 0;
}

/* Write the aggregates a load built, when the write lock is free at once
 * and the jobs are still those afp describes. Best effort. */
void store_stats_cells_write(Store *st, const StoreStatsData *d, const char *afp)
{
    sqlite3 *db = store_db(st);
    char now[256];
    store_wait(st, 0);
    if (store_stats_exec(db, "BEGIN IMMEDIATE") == 0) {
        if (agg_fingerprint(db, now, sizeof now, NULL) == 0 && strcmp(now, afp) == 0 &&
            store_stats_exec(db, "DELETE FROM stats_agg WHERE month >= 0") == 0 &&
            agg_write(db, d->rebuilt, afp) == 0 &&
            store_stats_exec(db, "COMMIT") == 0) {
            store_wait(st, 1);
            return;
        }
        store_stats_exec(db, "ROLLBACK");
    }
    store_wait(st, 1); /* store_open's */
}

static void eff_row(sqlite3_stmt *s, void *ctx)
{
    Scan *sc = ctx;
    StatsJob j;
    memset(&j, 0, sizeof j);
    job_fill(sc, s, &j);
    eff_job(sc, s, &j);
}

/* Every attempt into b (the curves, then each idle attempt's hogging: a
 * second pass when b could not keep them); names: the cluster names. */
static int eff_scan(sqlite3 *db, StoreStatsData *names, StatsEffBuild *b, CpErr *err)
{
    StoreStatsData *d = xcalloc(1, sizeof *d);
    Scan sc;
    EffFeed e = {b, names, db, 0};
    scan_init(&sc, d);
    sc.eff = &e;
    int rc = store_stats_each_row(db, JOB_SQL, eff_row, &sc, "read jobs", err);
    if (rc == 0 && stats_eff_build_finish(b) == 0 && stats_eff_build_second_pass(b))
        rc = store_stats_each_row(db, EFF_IDLE_SQL, eff_hog_row, &sc, "read jobs", err);
    scan_done(&sc);
    store_stats_free(d);
    return rc;
}

/* The efficiency aggregates: stored when current, else built (efp left
 * set for the caller to write them). */
int store_stats_load_eff(sqlite3 *db, StoreStatsData *d, char *efp, size_t efpsz, CpErr *err)
{
    char afp[256];
    if (agg_fingerprint(db, afp, sizeof afp, err) < 0)
        return -1;
    if (store_eff_fingerprint(db, afp, efp, efpsz) < 0)
        return sqlrow_err(db, err, "read the inventory");
    d->in.has_eff = 1;
    if (store_eff_current(db, efp) && store_eff_read(db, &d->eff) == 0) {
        d->eff_cached = 1;
        efp[0] = '\0';
        return 0;
    }
    stats_eff_buf_done(&d->eff);
    d->eff_rebuilt = stats_eff_build_new(d->inventory, d->in.ninventory, STATS_EFF_IDLE_KEEP);
    /* a scan through the memory map would count every page of the jobs
     * in the process's memory */
    store_stats_exec(db, "PRAGMA mmap_size=0");
    if (eff_scan(db, d, d->eff_rebuilt, err) < 0)
        return -1;
    stats_eff_buf_from(&d->eff, d->eff_rebuilt);
    return 0;
}

/* Write the efficiency aggregates a load built, when the write lock is
 * free at once and the jobs and inventory are still those efp describes.
 * Best effort. */
void store_stats_eff_write(Store *st, const StoreStatsData *d, const char *efp)
{
    sqlite3 *db = store_db(st);
    char afp[256], now[512];
    store_wait(st, 0);
    if (store_stats_exec(db, "BEGIN IMMEDIATE") == 0) {
        if (agg_fingerprint(db, afp, sizeof afp, NULL) == 0 &&
            store_eff_fingerprint(db, afp, now, sizeof now) == 0 && strcmp(now, efp) == 0 &&
            store_eff_clear(db) == 0 && store_eff_write(db, d->eff_rebuilt, efp) == 0 &&
            store_stats_exec(db, "COMMIT") == 0) {
            store_wait(st, 1);
            return;
        }
        store_stats_exec(db, "ROLLBACK");
    }
    store_wait(st, 1); /* store_open's */
}
