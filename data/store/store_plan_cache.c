/* store_plan_cache: the SQL of the planner's cache (store_plan.h, "the
 * planner's cache"; what it holds: data/plan/plan_cache.c). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_fault.h"
#include "data/store/store_plan_int.h"

int store_plan_read_begin(Store *st)
{
    sqlite3 *db = store_db(st);
    return sqlite3_get_autocommit(db) && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
}

void store_plan_read_end(Store *st)
{
    sqlite3_exec(store_db(st), "COMMIT", NULL, NULL, NULL);
}

int store_plan_jobs_state(Store *st, char *buf, size_t n, int *clean, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *clean = 0;
    snprintf(buf, n, "no blocks");
    /* a database without the blocks or the cache's tables (an older schema
     * read-only): nothing cached, nothing wrong */
    if (sqlite3_prepare_v2(db,
                           "SELECT (SELECT gen FROM plan_cache_gen WHERE id = 1), "
                           "(SELECT count(*) FROM job_blocks_stale), "
                           "(SELECT built_max FROM job_blocks_state WHERE id = 1), "
                           "(SELECT max(id) FROM jobs)",
                           -1, &s, NULL) != SQLITE_OK)
        return 0;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL &&
        sqlite3_column_type(s, 2) != SQLITE_NULL) {
        int64_t gen = sqlite3_column_int64(s, 0), stale = sqlite3_column_int64(s, 1);
        int64_t built = sqlite3_column_int64(s, 2), maxid = sqlite3_column_int64(s, 3);
        *clean = stale == 0 && maxid <= built;
        snprintf(buf, n, "gen %lld jobs %lld", (long long)gen, (long long)maxid);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW) {
        *clean = 0;
        return sqlrow_err(db, err, "read the jobs' state");
    }
    return 0;
}

/* *any: the integer sql reads. 0, or -1 with err ("read WHAT"). */
static int exists(Store *st, const char *sql, const char *what, int *any, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *any = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, what);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *any = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, what);
}

int store_plan_has_jobs(Store *st, int *any, CpErr *err)
{
    return exists(st, "SELECT EXISTS(SELECT 1 FROM jobs)", "read the jobs", any, err);
}

int store_plan_cached(Store *st, int *any, CpErr *err)
{
    return exists(st,
                  "SELECT EXISTS(SELECT 1 FROM plan_cache) OR EXISTS(SELECT 1 FROM plan_cut_cache)",
                  "read the planner's cache", any, err);
}

int store_plan_cache_get(Store *st, const char *key, unsigned char **data, size_t *n)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *data = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db, "SELECT data FROM plan_cache WHERE key = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return 0;
    sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
    int found = 0;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_BLOB) {
        int len = sqlite3_column_bytes(s, 0);
        const void *b = sqlite3_column_blob(s, 0);
        if (b && len > 0) {
            *data = xmalloc((size_t)len);
            memcpy(*data, b, (size_t)len);
            *n = (size_t)len;
            found = 1;
        }
    }
    sqlite3_finalize(s);
    return found;
}

sqlite3 *store_plan_side_begin(Store *st)
{
    const char *path = sqlite3_db_filename(store_db(st), "main");
    sqlite3 *db = NULL;
    if (!path || !path[0] ||
        sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL; /* in memory, or not ours to write */
    }
    store_fault_guard(db); /* nothing into a file found corrupt (#29) */
    /* no busy handler: a lock held elsewhere fails at once */
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

void store_plan_side_end(sqlite3 *db, int ok)
{
    sqlite3_exec(db, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
}

void store_plan_cache_put(Store *st, const char *key, const unsigned char *data, size_t n)
{
    sqlite3_stmt *s = NULL;
    sqlite3 *db = n > 0x7fffffff ? NULL : store_plan_side_begin(st);
    if (!db)
        return;
    int ok = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO plan_cache(key, data) VALUES(?1, ?2)",
                                -1, &s, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_blob(s, 2, data, (int)n, SQLITE_STATIC);
        ok = sqlite3_step(s) == SQLITE_DONE;
    }
    sqlite3_finalize(s);
    sqlite3_stmt *d = NULL;
    if (ok && sqlite3_prepare_v2(db,
                                 "DELETE FROM plan_cache WHERE rowid NOT IN (SELECT rowid FROM "
                                 "plan_cache ORDER BY rowid DESC LIMIT ?1)",
                                 -1, &d, NULL) == SQLITE_OK) {
        sqlite3_bind_int(d, 1, STORE_PLAN_CACHE_KEEP);
        ok = sqlite3_step(d) == SQLITE_DONE;
    }
    sqlite3_finalize(d);
    store_plan_side_end(db, ok);
}
