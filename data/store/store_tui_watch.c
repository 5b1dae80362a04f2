/* store_tui_watch: another process's changes, noticed (store_tui_watch.h). */
#include "data/store/store_tui_watch.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

int store_tui_data_version(Store *st, int64_t *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "data version");
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, "data version");
}

/* One figure of a table's state; 0 when the table is not there. */
static double figure(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *s = NULL;
    double v = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return 0; /* an older schema: the table is not there */
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return v;
}

static const char *const sig_edits = "SELECT coalesce(max(id), 0) FROM scenario_edits";
static const char *const sig_scenarios[] = {
    "SELECT count(*) + 1000.0 * coalesce(max(id), 0) FROM scenarios",
    "SELECT count(*) + total(value) + total(length(reason)) FROM scenario_params",
};
static const char *const sig_rest[] = {
    "SELECT count(*) + total(gpus_fulltime) + total(gpu_mem_class_gib) FROM stated_needs",
    "SELECT count(*) + total(length(text)) FROM notes",
    "SELECT count(*) + total(length(status) + length(attendees)) FROM meetings",
    "SELECT coalesce(max(id), 0) FROM imports",
    "SELECT count(*) FROM people",
    "SELECT count(*) FROM groups",
    "SELECT count(*) + total(gpus) FROM inventory",
    "SELECT count(*) FROM events",
};

int store_tui_signature(Store *st, StoreTuiSig *out, CpErr *err)
{
    (void)err;
    sqlite3 *db = store_db(st);
    memset(out, 0, sizeof *out);
    out->v[STORE_TUI_SIG_EDITS] = figure(db, sig_edits);
    for (size_t i = 0; i < sizeof sig_scenarios / sizeof *sig_scenarios; i++)
        out->v[STORE_TUI_SIG_SCENARIOS] += figure(db, sig_scenarios[i]) * (double)(i + 1);
    for (size_t i = 0; i < sizeof sig_rest / sizeof *sig_rest; i++)
        out->v[STORE_TUI_SIG_REST] += figure(db, sig_rest[i]) * (double)(i + 1);
    return 0;
}

int store_tui_change_newest(Store *st, int64_t after, StoreTuiChange *out, int *found, int *count,
                            CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    memset(out, 0, sizeof *out);
    *found = *count = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT s.name, e.key, e.group_name, e.label, e.who, e.reason, "
                           "e.old_value, e.new_value, e.at, e.id, "
                           "(SELECT count(*) FROM scenario_edits WHERE id > ?1) "
                           "FROM scenario_edits e JOIN scenarios s ON s.id = e.scenario_id "
                           "WHERE e.id > ?1 ORDER BY e.id DESC LIMIT 1",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlite3_errcode(db) == SQLITE_ERROR ? 0 : sqlrow_err(db, err, "scenario edits");
    sqlite3_bind_int64(s, 1, after);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *found = 1;
        out->scenario = sqlrow_str(s, 0);
        out->key = sqlrow_str(s, 1);
        out->group = sqlrow_str(s, 2);
        out->label = sqlrow_str(s, 3);
        out->who = sqlrow_str(s, 4);
        out->reason = sqlrow_str(s, 5);
        out->old_value = sqlrow_num(s, 6, NAN);
        out->new_value = sqlrow_num(s, 7, NAN);
        out->at = sqlite3_column_int64(s, 8);
        out->id = sqlite3_column_int64(s, 9);
        *count = sqlite3_column_int(s, 10);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "scenario edits");
}

void store_tui_change_clear(StoreTuiChange *c)
{
    free(c->scenario);
    free(c->key);
    free(c->group);
    free(c->label);
    free(c->who);
    free(c->reason);
    memset(c, 0, sizeof *c);
}
