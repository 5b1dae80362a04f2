/* store_stats_load: store_stats_load and store_stats_refresh (see
 * store_stats.h): what a statistics query needs, in one read transaction:
 * the names, the reference tables, the attempts and usage rows (from the
 * cache when it is current, else one scan of the jobs, then the cache
 * rewritten), and the aggregates (store_stats_agg.c). */
#include "data/store/store_stats.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_stats_eff.h"
#include "data/store/store_stats_int.h"

static int load_names(sqlite3 *db, StoreStatsData *d, CpErr *err)
{
    static const char *const sql[N_GPU_TYPES] = {
        "SELECT id, name FROM clusters", "SELECT id, name FROM users",
        "SELECT id, name FROM accounts", "SELECT id, name FROM partitions"};
    for (int w = 0; w < N_GPU_TYPES; w++) {
        NamesCtx nc = {d, w};
        if (store_stats_each_row(db, sql[w], store_stats_name_row, &nc, "read names", err) < 0)
            return -1;
    }
    return 0;
}

static void names_publish(StoreStatsData *d)
{
    StatsNames *dst[N_COUNT] = {&d->in.clusters, &d->in.users, &d->in.accounts, &d->in.partitions,
                                &d->in.gpu_types};
    for (int w = 0; w < N_COUNT; w++) {
        dst[w]->v = (const char *const *)d->names[w];
        dst[w]->n = d->nnames[w];
    }
}

/* Read count records of size bytes from the cache's parts 1, 2, ...
 * (jobs) or -1, -2, ... (usage rows) into a new *out: 0, or -1 when the
 * parts do not add up (then the caller reads the tables). */
static int cache_read(sqlite3 *db, int usage, size_t size, size_t count, void **out)
{
    sqlite3_stmt *s;
    const char *sql = usage ? "SELECT part, length(data) FROM stats_cache WHERE part < 0 "
                              "ORDER BY part DESC"
                            : "SELECT part, length(data) FROM stats_cache WHERE part > 0 "
                              "ORDER BY part";
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return -1;
    char *dst = xmalloc((count + 1) * size);
    size_t got = 0;
    int rc = 0;
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW) {
        int64_t part = sqlite3_column_int64(s, 0);
        size_t bytes = (size_t)sqlite3_column_int64(s, 1);
        sqlite3_blob *b;
        if (bytes % size || got + bytes / size > count ||
            sqlite3_blob_open(db, "main", "stats_cache", "data", part, 0, &b) != SQLITE_OK) {
            rc = -1;
            break;
        }
        if (sqlite3_blob_read(b, dst + got * size, (int)bytes, 0) != SQLITE_OK)
            rc = -1;
        sqlite3_blob_close(b);
        got += bytes / size;
    }
    sqlite3_finalize(s);
    if (rc == 0 && got == count) {
        *out = dst;
        return 0;
    }
    free(dst);
    return -1;
}

/* Replace the cache with d's attempts, tagged fp, when the write lock is
 * free at once and the jobs are still those fp describes. Best effort. */
static void cache_write(Store *st, const StoreStatsData *d, const char *fp)
{
    sqlite3 *db = store_db(st);
    char now[160];
    sqlite3_stmt *ins = NULL;
    store_wait(st, 0);
    if (store_stats_exec(db, "BEGIN IMMEDIATE") < 0)
        goto out;
    if (store_stats_fingerprint(db, now, sizeof now, NULL) < 0 || strcmp(now, fp) != 0 ||
        store_stats_exec(db, "DELETE FROM stats_cache") < 0 ||
        sqlite3_prepare_v2(db,
                           "INSERT INTO stats_cache(part, fingerprint, data) VALUES(?1, ?2, ?3)",
                           -1, &ins, NULL) != SQLITE_OK)
        goto fail;
    CpBuf h;
    cpbuf_init(&h);
    header_blob(d, &h);
    int rc = put_part(ins, 0, fp, h.data, h.len);
    cpbuf_done(&h);
    for (size_t i = 0, part = 1; rc == 0 && i < d->in.njobs; i += CACHE_CHUNK, part++) {
        size_t n = d->in.njobs - i < CACHE_CHUNK ? d->in.njobs - i : CACHE_CHUNK;
        rc = put_part(ins, (int64_t)part, fp, d->jobs + i, n * sizeof *d->jobs);
    }
    for (size_t i = 0, part = 1; rc == 0 && i < d->in.nusage; i += CACHE_CHUNK, part++) {
        size_t n = d->in.nusage - i < CACHE_CHUNK ? d->in.nusage - i : CACHE_CHUNK;
        rc = put_part(ins, -(int64_t)part, fp, d->usage + i, n * sizeof *d->usage);
    }
    sqlite3_finalize(ins);
    ins = NULL;
    if (rc == 0 && store_stats_exec(db, "COMMIT") == 0)
        goto out;
fail:
    sqlite3_finalize(ins);
    store_stats_exec(db, "ROLLBACK");
out:
    store_wait(st, 1); /* store_open's */
}

static void drop_gpu_types(StoreStatsData *d)
{
    for (size_t i = 0; i < d->nnames[N_GPU_TYPES]; i++)
        free(d->names[N_GPU_TYPES][i]);
    free(d->names[N_GPU_TYPES]);
    d->names[N_GPU_TYPES] = NULL;
    d->nnames[N_GPU_TYPES] = 0;
}

/* What needs asks of the attempts and usage: from the cache when it is
 * current, else from the tables (one scan of the jobs; then fp is left
 * set for the caller to rewrite the cache, with the usage rows read too). */
static int load_cached(sqlite3 *db, StoreStatsData *d, unsigned needs, char *fp, size_t fpsz,
                       CpErr *err)
{
    size_t njobs = 0, nusage = 0;
    void *jobs = NULL, *usage = NULL;
    int want_jobs = (needs & STATS_NEED_JOBS) != 0, want_usage = (needs & STATS_NEED_USAGE) != 0;
    if (store_stats_fingerprint(db, fp, fpsz, err) < 0)
        return -1;
    if (cache_header(db, d, fp, &njobs, &nusage) &&
        (!want_jobs || cache_read(db, 0, sizeof *d->jobs, njobs, &jobs) == 0) &&
        (!want_usage || cache_read(db, 1, sizeof *d->usage, nusage, &usage) == 0)) {
        d->jobs = jobs;
        d->in.njobs = want_jobs ? njobs : 0;
        d->usage = usage;
        d->in.nusage = want_usage ? nusage : 0;
        d->cached = 1;
        fp[0] = '\0';
        return 0;
    }
    free(jobs);
    drop_gpu_types(d);
    if (!want_jobs)
        fp[0] = '\0'; /* usage alone: read it, leave the cache to a jobs load */
    return store_stats_load_usage(db, d, err) < 0 || (want_jobs && scan_jobs(db, d, err) < 0) ? -1 : 0;
}

StoreStatsData *store_stats_load(Store *st, unsigned needs, CpErr *err)
{
    sqlite3 *db = store_db(st);
    StoreStatsData *d = xcalloc(1, sizeof *d);
    char fp[160] = "", afp[256] = "", efp[512] = "";
    int own = sqlite3_get_autocommit(db);
    /* Read the cache's BLOBs through a memory map (one copy less), then
     * back to store_open's setting (none). */
    store_stats_exec(db, "PRAGMA mmap_size=4294967296");
    if (own && store_stats_exec(db, "BEGIN") < 0) {
        sqlrow_err(db, err, "begin");
        goto fail;
    }
    if (load_names(db, d, err) < 0 || store_stats_load_refs(db, d, needs, err) < 0 ||
        ((needs & (STATS_NEED_JOBS | STATS_NEED_USAGE)) &&
         load_cached(db, d, needs, fp, sizeof fp, err) < 0) ||
        ((needs & STATS_NEED_CELLS) && store_stats_load_cells(db, d, afp, sizeof afp, err) < 0) ||
        ((needs & STATS_NEED_EFF) && store_stats_load_eff(db, d, efp, sizeof efp, err) < 0)) {
        if (own)
            store_stats_exec(db, "ROLLBACK");
        goto fail;
    }
    if (own)
        store_stats_exec(db, "COMMIT");
    store_stats_exec(db, "PRAGMA mmap_size=0");
    d->in.jobs = d->jobs;
    d->in.usage = d->usage;
    d->in.cells = d->cells.c;
    d->in.eff = d->eff.e;
    names_publish(d);
    if (own && fp[0])
        cache_write(st, d, fp);
    if (own && afp[0] && d->rebuilt)
        store_stats_cells_write(st, d, afp);
    stats_cells_build_free(d->rebuilt);
    d->rebuilt = NULL;
    if (own && efp[0] && d->eff_rebuilt)
        store_stats_eff_write(st, d, efp);
    stats_eff_build_free(d->eff_rebuilt);
    d->eff_rebuilt = NULL;
    return d;
fail:
    store_stats_exec(db, "PRAGMA mmap_size=0");
    store_stats_free(d);
    return NULL;
}

int store_stats_refresh(Store *st, CpErr *err)
{
    StoreStatsData *d =
        store_stats_load(st, STATS_NEED_JOBS | STATS_NEED_CELLS | STATS_NEED_EFF, err);
    int rc = d ? 0 : -1;
    store_stats_free(d);
    return rc;
}
