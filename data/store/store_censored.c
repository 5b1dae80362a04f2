/* store_censored: the runs still going at their file's end (see
 * store_censored.h). One query on the partial index jobs_unfinished. */
#include "data/store/store_censored.h"

#include <sqlite3.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

/* CP_ST_RUNNING, CP_ST_SUSPENDED as literals: the partial index's WHERE
 * (store_schema.c) must appear as is for SQLite to use it. */
static const char censored_sql[] =
    "SELECT count(*), min(cut), max(cut) FROM ("
    "  SELECT j.start, j.start + j.elapsed AS cut FROM jobs j"
    "  WHERE j.state IN (2, 3) AND j.final = 1 AND j.start IS NOT NULL"
    "  AND j.end_time IS NULL AND j.elapsed IS NOT NULL"
    "  AND (?1 IS NULL OR j.cluster_id = (SELECT id FROM clusters WHERE name = ?1))"
    "  AND (?4 < 0 OR (?4 = 0 AND j.gpus > 0) OR (?4 = 1 AND j.ncpus > 0)))"
    " WHERE cut > start AND (?2 = 0 OR cut >= ?2) AND (?3 = 0 OR start < ?3)";

int store_censored(Store *st, const StoreCensoredWhere *w, StoreCensored *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    memset(out, 0, sizeof *out);
    if (sqlite3_prepare_v2(db, censored_sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "censored runs");
    if (w->cluster)
        sqlite3_bind_text(s, 1, w->cluster, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, w->lo);
    sqlite3_bind_int64(s, 3, w->hi);
    sqlite3_bind_int(s, 4, w->unit);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        out->runs = sqlite3_column_int64(s, 0);
        out->first_cut = sqlite3_column_int64(s, 1);
        out->last_cut = sqlite3_column_int64(s, 2);
    } else {
        sqlrow_err(db, err, "censored runs");
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : -1;
}
