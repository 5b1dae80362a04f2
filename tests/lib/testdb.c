#include "tests/lib/testdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "tests/lib/testutil.h"

int tu_db_setup(void **state)
{
    TuDb *d = xcalloc(1, sizeof *d);
    CpErr err = {""};
    d->path = tu_temp_path(".db");
    d->st = store_open(d->path, &err);
    if (!d->st)
        fail_msg("store_open %s: %s", d->path, err.msg);
    *state = d;
    return 0;
}

int tu_db_teardown(void **state)
{
    TuDb *d = *state;
    store_close(d->st);
    tu_remove_db(d->path);
    free(d->path);
    free(d);
    return 0;
}

void tu_db_on_reject(void *ctx, const char *msg)
{
    TuDb *d = ctx;
    d->rejected++;
    snprintf(d->last_reject, sizeof d->last_reject, "%s", msg);
}

void tu_db_opts(TuDb *d, ImportOpts *o, int strict)
{
    import_opts_init(o);
    o->strict = strict;
    o->reject = tu_db_on_reject;
    o->reject_ctx = d;
}

int tu_import_file(Store *st, const char *kind, const char *path, const ImportOpts *o,
                   ImportResult *res, CpErr *err)
{
    ImportOpts def;
    if (!o) {
        import_opts_init(&def);
        o = &def;
    }
    if (strcmp(kind, "sacct") == 0)
        return import_sacct(st, path, o, res, err);
    return import_csv(st, kind, path, o, res, err);
}

int tu_import_text(Store *st, const char *kind, const char *text, size_t n, const ImportOpts *o,
                   ImportResult *res, CpErr *err, char *name, size_t cap)
{
    char *p = tu_write_temp(text, n);
    if (name)
        snprintf(name, cap, "%s", p);
    int rc = tu_import_file(st, kind, p, o, res, err);
    unlink(p);
    free(p);
    return rc;
}

double tu_db_real(Store *st, const char *sql, const char *arg, double if_null)
{
    sqlite3_stmt *s;
    double v = -1;
    assert_int_equal(sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL), SQLITE_OK);
    if (arg)
        sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_type(s, 0) == SQLITE_NULL ? if_null : sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return v;
}
