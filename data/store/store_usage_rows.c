/* store_usage_rows: the virtual table usage_rows over an import's usage sums
 * (see store_usage_rows.h). A cursor walks the rows in order; nothing is
 * filtered (the one statement that reads it takes every row). */
#include "data/store/store_usage_rows.h"

#include <string.h>

typedef struct RowsTab {
    sqlite3_vtab base;
    StoreUsageRows *rows;
} RowsTab;

typedef struct RowsCursor {
    sqlite3_vtab_cursor base;
    size_t i;
} RowsCursor;

static int rows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **errmsg)
{
    (void)argc;
    (void)argv;
    (void)errmsg;
    /* usage_month's columns, named as there (statements name them) */
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(month, cluster_id, account_id, user_id, "
                                      "partition_id, jobs, attempts, gpu_jobs, waited, "
                                      "preempted, gpu_hours, cpu_hours, wait_s, gpu_hours_lost)");
    if (rc != SQLITE_OK)
        return rc;
    RowsTab *t = sqlite3_malloc(sizeof *t);
    if (!t)
        return SQLITE_NOMEM;
    memset(t, 0, sizeof *t);
    t->rows = aux;
    *out = &t->base;
    return SQLITE_OK;
}

static int rows_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int rows_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    (void)vt;
    info->estimatedCost = 1e6;
    return SQLITE_OK;
}

static int rows_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    RowsCursor *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int rows_close(sqlite3_vtab_cursor *cur)
{
    sqlite3_free(cur);
    return SQLITE_OK;
}

static int rows_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc,
                       sqlite3_value **argv)
{
    (void)idx;
    (void)idx_str;
    (void)argc;
    (void)argv;
    ((RowsCursor *)cur)->i = 0;
    return SQLITE_OK;
}

static int rows_next(sqlite3_vtab_cursor *cur)
{
    ((RowsCursor *)cur)->i++;
    return SQLITE_OK;
}

static int rows_eof(sqlite3_vtab_cursor *cur)
{
    const RowsTab *t = (const RowsTab *)cur->pVtab;
    return ((const RowsCursor *)cur)->i >= t->rows->n;
}

static int rows_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    const RowsTab *t = (const RowsTab *)cur->pVtab;
    const UsageSums *u = &t->rows->v[((const RowsCursor *)cur)->i];
    /* in the order rows_connect declares them: the integers, then the sums */
    const int64_t ints[] = {u->key.month, u->key.cluster_id, u->key.account_id,
                            u->key.user_id, u->key.partition_id, u->jobs,
                            u->attempts, u->gpu_jobs, u->waited, u->preempted};
    const double reals[] = {u->gpu_hours, u->cpu_hours, u->wait_s, u->gpu_hours_lost};
    if (col < 10)
        sqlite3_result_int64(ctx, ints[col]);
    else
        sqlite3_result_double(ctx, reals[col - 10]);
    return SQLITE_OK;
}

static int rows_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = (sqlite3_int64)((const RowsCursor *)cur)->i;
    return SQLITE_OK;
}

static const sqlite3_module rows_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: never in the schema */
    .xConnect = rows_connect,
    .xBestIndex = rows_best_index,
    .xDisconnect = rows_disconnect,
    .xDestroy = rows_disconnect,
    .xOpen = rows_open,
    .xClose = rows_close,
    .xFilter = rows_filter,
    .xNext = rows_next,
    .xEof = rows_eof,
    .xColumn = rows_column,
    .xRowid = rows_rowid,
};

int store_usage_rows_register(sqlite3 *db, StoreUsageRows *rows)
{
    return sqlite3_create_module(db, "usage_rows", &rows_module, rows);
}
