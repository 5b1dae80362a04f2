/* sqlrow: see sqlrow.h. */
#include "data/store/sqlrow.h"

#include <math.h>
#include <stdio.h>

int sqlrow_err(sqlite3 *db, CpErr *err, const char *what)
{
    return cp_err_set(err, "database: %s: %s", what, sqlite3_errmsg(db));
}

char *sqlrow_str(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return t ? xstrdup((const char *)t) : NULL;
}

double sqlrow_num(sqlite3_stmt *s, int i, double unknown)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? unknown : sqlite3_column_double(s, i);
}

void sqlrow_bind_str(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

void sqlrow_bind_num(sqlite3_stmt *s, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

void *sqlrow_grow(void *p, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 64;
    return xrealloc(p, *cap * sz);
}

long long sqlrow_cache_small(sqlite3 *db)
{
    long long old = 0;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA cache_size", -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        old = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_exec(db, "PRAGMA cache_size=-2048", NULL, NULL, NULL);
    return old;
}

void sqlrow_cache_restore(sqlite3 *db, long long old)
{
    if (old == 0)
        return; /* not read: leave the small cache */
    char pragma[48];
    snprintf(pragma, sizeof pragma, "PRAGMA cache_size=%lld", old);
    sqlite3_exec(db, pragma, NULL, NULL, NULL);
}
