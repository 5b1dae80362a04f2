/* store_plan_cut: the SQL of the planner's per-cut cache (issue 31;
 * store_plan.h "the per-cut cache"; what an entry holds:
 * data/plan/plan_cache.c). */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/store.h"
#include "data/store/store_plan_int.h"

int store_plan_cut_state(Store *st, int64_t *upto, int64_t *edits)
{
    sqlite3_stmt *s;
    *upto = *edits = 0;
    if (sqlite3_prepare_v2(store_db(st),
                           "SELECT (SELECT max(id) FROM jobs), (SELECT max(seq) FROM plan_job_edits),"
                           " (SELECT count(*) FROM plan_cut_cache WHERE 0)",
                           -1, &s, NULL) != SQLITE_OK)
        return -1; /* no tables: an older schema */
    int rc = sqlite3_step(s) == SQLITE_ROW ? 0 : -1;
    if (rc == 0) {
        *upto = sqlite3_column_int64(s, 0);
        *edits = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    return rc;
}

int64_t store_plan_cut_since(Store *st, int64_t upto, int64_t edits)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(store_db(st),
                           "SELECT min(coalesce((SELECT min(coalesce(start, submit, 0)) FROM jobs "
                           "WHERE id > ?1), 9223372036854775807), coalesce((SELECT min(at) FROM "
                           "plan_job_edits WHERE seq > ?2), 9223372036854775807)), "
                           "EXISTS(SELECT 1 FROM jobs WHERE id > ?1) "
                           "OR EXISTS(SELECT 1 FROM plan_job_edits WHERE seq > ?2)",
                           -1, &s, NULL) != SQLITE_OK)
        return INT64_MIN;
    sqlite3_bind_int64(s, 1, upto);
    sqlite3_bind_int64(s, 2, edits);
    int64_t at = INT64_MIN;
    if (sqlite3_step(s) == SQLITE_ROW) {
        if (!sqlite3_column_int(s, 1))
            at = INT64_MAX; /* nothing since */
        else if (sqlite3_column_type(s, 0) != SQLITE_NULL)
            at = sqlite3_column_int64(s, 0);
    }
    sqlite3_finalize(s);
    return at;
}

int store_plan_cut_get(Store *st, int64_t t0, char *key, size_t nkey, int64_t *upto,
                       int64_t *edits, unsigned char **data, size_t *n)
{
    sqlite3_stmt *s;
    *data = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(store_db(st),
                           "SELECT upto, edits, data, key FROM plan_cut_cache WHERE cut = ?1",
                           -1, &s, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_int64(s, 1, t0);
    int found = 0;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 2) == SQLITE_BLOB) {
        int len = sqlite3_column_bytes(s, 2);
        const void *b = sqlite3_column_blob(s, 2);
        const char *k = (const char *)sqlite3_column_text(s, 3);
        if (b && len > 0 && k && strlen(k) < nkey) {
            memcpy(key, k, strlen(k) + 1);
            *upto = sqlite3_column_int64(s, 0);
            *edits = sqlite3_column_int64(s, 1);
            *data = malloc((size_t)len);
            if (*data) {
                memcpy(*data, b, (size_t)len);
                *n = (size_t)len;
                found = 1;
            }
        }
    }
    sqlite3_finalize(s);
    return found;
}

void store_plan_cut_put(Store *st, const StorePlanCut *cuts, int n)
{
    if (n <= 0)
        return;
    sqlite3 *db = store_plan_side_begin(st);
    sqlite3_stmt *s = NULL;
    if (!db)
        return;
    int ok = sqlite3_prepare_v2(db,
                                "INSERT OR REPLACE INTO plan_cut_cache(cut, key, upto, edits, data) "
                                "VALUES(?1, ?2, ?3, ?4, ?5)",
                                -1, &s, NULL) == SQLITE_OK;
    for (int i = 0; ok && i < n; i++) {
        const StorePlanCut *x = &cuts[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, x->t0);
        sqlite3_bind_text(s, 2, x->key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 3, x->upto);
        sqlite3_bind_int64(s, 4, x->edits);
        ok = x->n <= 0x7fffffff;
        if (ok) {
            sqlite3_bind_blob(s, 5, x->data, (int)x->n, SQLITE_STATIC);
            ok = sqlite3_step(s) == SQLITE_DONE;
        }
    }
    sqlite3_finalize(s);
    /* the edits before every entry's own are read by none: the log stays
     * short (its last row stays: AUTOINCREMENT never reuses a seq) */
    ok = ok && sqlite3_exec(db,
                            "DELETE FROM plan_job_edits WHERE seq < "
                            "(SELECT min(edits) FROM plan_cut_cache)",
                            NULL, NULL, NULL) == SQLITE_OK;
    store_plan_side_end(db, ok);
}
