#include "data/store/store_collect.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <time.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

int store_collect_windows(Store *st, const char *source, const char *clusters,
                          StoreCollectWindow **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT since, until FROM collect_windows WHERE clusters=?1 "
                           "AND source IN (?2, '') ORDER BY since, until",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read collect windows");
    sqlite3_bind_text(s, 1, clusters, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, source, -1, SQLITE_STATIC);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        (*out)[*n].since = sqlite3_column_int64(s, 0);
        (*out)[*n].until = sqlite3_column_int64(s, 1);
        (*n)++;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return sqlrow_err(db, err, "read collect windows");
    }
    return 0;
}

/* Run one bound statement to its end; finalizes it. */
static int run_done(sqlite3 *db, sqlite3_stmt *s, const char *what, CpErr *err)
{
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

/* The latest import recorded under path, 0 when none. */
static int find_import(sqlite3 *db, const char *path, int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    *id = 0;
    if (sqlite3_prepare_v2(db, "SELECT max(id) FROM imports WHERE path=?1", -1, &s, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "find the import");
    sqlite3_bind_text(s, 1, path, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
        *id = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, "find the import");
}

static int rename_import(sqlite3 *db, int64_t id, const char *label, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "UPDATE imports SET kind='collect', path=?1 WHERE id=?2", -1, &s,
                           NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "record the collect");
    sqlite3_bind_text(s, 1, label, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, id);
    return run_done(db, s, "record the collect", err);
}

static int insert_window(sqlite3 *db, const char *source, const char *clusters, int64_t since,
                         int64_t until, int64_t import_id, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO collects(clusters, since, until, import_id, at) "
                           "VALUES(?1, ?2, ?3, ?4, ?5)",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "record the collect");
    sqlite3_bind_text(s, 1, clusters, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, since);
    sqlite3_bind_int64(s, 3, until);
    if (import_id > 0)
        sqlite3_bind_int64(s, 4, import_id);
    else
        sqlite3_bind_null(s, 4);
    sqlite3_bind_int64(s, 5, (int64_t)time(NULL));
    if (run_done(db, s, "record the collect", err) < 0)
        return -1;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO collect_sources(collect_id, source) "
                           "VALUES(last_insert_rowid(), ?1)",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "record the collect");
    sqlite3_bind_text(s, 1, source, -1, SQLITE_STATIC);
    return run_done(db, s, "record the collect", err);
}

static int drop_import(sqlite3 *db, int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "DELETE FROM imports WHERE id=?1", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "record the collect");
    sqlite3_bind_int64(s, 1, *id);
    *id = 0;
    return run_done(db, s, "record the collect", err);
}

int store_collect_record(Store *st, const char *source, const char *clusters, int64_t since,
                         int64_t until, const char *import_path, const char *label,
                         int keep_import, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t import_id;
    if (store_begin(st, err) < 0)
        return -1;
    if (find_import(db, import_path, &import_id, err) < 0 ||
        (import_id > 0 && keep_import && rename_import(db, import_id, label, err) < 0) ||
        (import_id > 0 && !keep_import && drop_import(db, &import_id, err) < 0) ||
        insert_window(db, source, clusters, since, until, import_id, err) < 0) {
        store_rollback(st);
        return -1;
    }
    return store_commit(st, err);
}
