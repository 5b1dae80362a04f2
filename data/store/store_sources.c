#include "data/store/store_sources.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

static int64_t count_of(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, i);
}

int store_sources(Store *st, StoreSource **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT kind, path, format, coalesce(finished_at, started_at), "
                           "rows_read, rows_added, rows_updated, rows_rejected, first_submit, "
                           "last_submit FROM imports "
                           "WHERE finished_at IS NOT NULL ORDER BY id",
                           -1, &q, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "imports");
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *out = sqlrow_grow(*out, *n, &cap, sizeof **out);
        StoreSource *s = &(*out)[(*n)++];
        s->kind = sqlrow_str(q, 0);
        s->path = sqlrow_str(q, 1);
        s->format = sqlrow_str(q, 2);
        s->at = sqlite3_column_int64(q, 3);
        s->rows_read = count_of(q, 4);
        s->added = count_of(q, 5);
        s->updated = count_of(q, 6);
        s->rejected = count_of(q, 7);
        s->first_submit = count_of(q, 8);
        s->last_submit = count_of(q, 9);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        store_sources_free(*out, *n);
        *out = NULL;
        *n = 0;
        return sqlrow_err(db, err, "imports");
    }
    return 0;
}

void store_sources_free(StoreSource *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].kind);
        free(v[i].path);
        free(v[i].format);
    }
    free(v);
}

int store_import_span(Store *st, int64_t import_id, int64_t lo, int64_t hi, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "UPDATE imports SET first_submit=?2, last_submit=?3 WHERE id=?1",
                           -1, &q, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "record import");
    sqlite3_bind_int64(q, 1, import_id);
    if (lo <= hi) {
        sqlite3_bind_int64(q, 2, lo);
        sqlite3_bind_int64(q, 3, hi);
    } /* else both stay NULL */
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "record import");
}
