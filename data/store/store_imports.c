/* store_imports: the imports table, a row per import (what, from where, when,
 * and its counts), as `capplan status` and the planner's cache keys read it. */
#include "data/store/store_int.h"

#include <time.h>

int64_t store_import_begin(Store *st, const char *kind, const char *path, const char *format,
                           CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO imports(kind, path, format, started_at) "
                           "VALUES(?1, ?2, ?3, ?4)",
                           -1, &s, NULL) != SQLITE_OK)
        return store_db_err(st, err, "record import");
    sqlite3_bind_text(s, 1, kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, format, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 4, (int64_t)time(NULL));
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return store_db_err(st, err, "record import");
    return sqlite3_last_insert_rowid(st->db);
}

int store_import_end(Store *st, int64_t import_id, int64_t rows_read, int64_t added,
                     int64_t updated, int64_t rejected, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "UPDATE imports SET finished_at=?2, rows_read=?3, rows_added=?4, "
                           "rows_updated=?5, rows_rejected=?6 WHERE id=?1",
                           -1, &s, NULL) != SQLITE_OK)
        return store_db_err(st, err, "record import");
    sqlite3_bind_int64(s, 1, import_id);
    sqlite3_bind_int64(s, 2, (int64_t)time(NULL));
    sqlite3_bind_int64(s, 3, rows_read);
    sqlite3_bind_int64(s, 4, added);
    sqlite3_bind_int64(s, 5, updated);
    sqlite3_bind_int64(s, 6, rejected);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, "record import");
}

int store_import_format(Store *st, int64_t import_id, const char *format, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "UPDATE imports SET format=?2 WHERE id=?1", -1, &s, NULL) !=
        SQLITE_OK)
        return store_db_err(st, err, "record import");
    sqlite3_bind_int64(s, 1, import_id);
    sqlite3_bind_text(s, 2, format, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, "record import");
}
