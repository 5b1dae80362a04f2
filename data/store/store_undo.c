/* store_undo: conditional puts of scenario parameters (store_undo.h). */
#include "data/store/store_undo.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

void store_undo_param_clear(StoreUndoParam *p)
{
    free(p->label);
    free(p->reason);
    free(p->who);
    memset(p, 0, sizeof *p);
}

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void store_undo_param_copy(StoreUndoParam *dst, const StoreUndoParam *src)
{
    *dst = *src;
    dst->label = dup_or_null(src->label);
    dst->reason = dup_or_null(src->reason);
    dst->who = dup_or_null(src->who);
}

void store_undo_put_clear(StoreUndoPut *out)
{
    store_undo_param_clear(&out->before);
    free(out->other_who);
    memset(out, 0, sizeof *out);
}

static int exec(sqlite3 *db, const char *sql, CpErr *err)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return err ? sqlrow_err(db, err, "scenario undo") : -1;
    return 0;
}

/* sql prepared with ?1 the scenario id, ?2 the key and ?3 the group bound:
 * every statement here addresses one parameter of one scenario that way. */
static int prep_param(sqlite3 *db, const char *sql, int64_t id, const char *key,
                      const char *group, sqlite3_stmt **s, CpErr *err)
{
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK) {
        *s = NULL;
        return sqlrow_err(db, err, "scenario undo");
    }
    sqlite3_bind_int64(*s, 1, id);
    sqlite3_bind_text(*s, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(*s, 3, group, -1, SQLITE_TRANSIENT);
    return 0;
}

/* Finalize s, whose last step returned rc: 0 when that was the end, or a
 * row when row_ok, else -1 with err naming what. */
static int finish(sqlite3 *db, sqlite3_stmt *s, int rc, int row_ok, const char *what, CpErr *err)
{
    sqlite3_finalize(s);
    return rc == SQLITE_DONE || (row_ok && rc == SQLITE_ROW) ? 0 : sqlrow_err(db, err, what);
}

/* The scenario's id, 0 when it is not stored. */
static int scenario_id(sqlite3 *db, const char *name, int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT id FROM scenarios WHERE name = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "scenario undo");
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    return finish(db, s, rc, 1, "scenarios", err);
}

/* The parameter's row now (p->had 0 when there is none). */
static int read_param(sqlite3 *db, int64_t id, const char *key, const char *group,
                      StoreUndoParam *p, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep_param(db,
                   "SELECT value, measured, label, reason, who, at FROM scenario_params "
                   "WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3",
                   id, key, group, &s, err) < 0)
        return -1;
    int rc = sqlite3_step(s);
    memset(p, 0, sizeof *p);
    p->measured = NAN;
    if (rc == SQLITE_ROW) {
        p->had = 1;
        p->value = sqlite3_column_double(s, 0);
        p->measured = sqlrow_num(s, 1, NAN);
        p->label = sqlrow_str(s, 2);
        p->reason = sqlrow_str(s, 3);
        p->who = sqlrow_str(s, 4);
        p->at = sqlite3_column_int64(s, 5);
    }
    return finish(db, s, rc, 1, "scenario undo", err);
}

/* The parameter's last history entry: its id (0: none), who and when. */
static int last_entry(sqlite3 *db, int64_t id, const char *key, const char *group,
                      int64_t *entry, char **who, int64_t *at, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep_param(db,
                   "SELECT id, who, at FROM scenario_edits WHERE scenario_id = ?1 AND key = ?2 "
                   "AND group_name = ?3 ORDER BY id DESC LIMIT 1",
                   id, key, group, &s, err) < 0)
        return -1;
    int rc = sqlite3_step(s);
    *entry = 0;
    if (rc == SQLITE_ROW) {
        *entry = sqlite3_column_int64(s, 0);
        *who = sqlrow_str(s, 1);
        *at = sqlite3_column_int64(s, 2);
    }
    return finish(db, s, rc, 1, "scenario undo", err);
}

static int write_param(sqlite3 *db, int64_t id, const char *key, const char *group,
                       const StoreUndoParam *to, int64_t now, CpErr *err)
{
    sqlite3_stmt *s;
    const char *sql =
        to->had ? "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, "
                  "label, reason, who, at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9) "
                  "ON CONFLICT(scenario_id, key, group_name) DO UPDATE SET "
                  "value=excluded.value, measured=excluded.measured, label=excluded.label, "
                  "reason=excluded.reason, who=excluded.who, at=excluded.at"
                : "DELETE FROM scenario_params WHERE scenario_id = ?1 AND key = ?2 AND "
                  "group_name = ?3";
    if (prep_param(db, sql, id, key, group, &s, err) < 0)
        return -1;
    if (to->had) {
        sqlite3_bind_double(s, 4, to->value);
        sqlrow_bind_num(s, 5, to->measured);
        sqlrow_bind_str(s, 6, to->label);
        sqlrow_bind_str(s, 7, to->reason);
        sqlrow_bind_str(s, 8, to->who);
        sqlite3_bind_int64(s, 9, to->at ? to->at : now);
    }
    return finish(db, s, sqlite3_step(s), 0, "scenario parameters", err);
}

static int log_entry(sqlite3 *db, int64_t id, const char *key, const char *group,
                     const StoreUndoParam *from, const StoreUndoParam *to, const char *reason,
                     const char *who, int64_t now, int64_t *entry, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep_param(db,
                   "INSERT INTO scenario_edits(scenario_id, key, group_name, old_value, "
                   "new_value, measured, label, reason, who, at) "
                   "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
                   id, key, group, &s, err) < 0)
        return -1;
    const StoreUndoParam *row = to->had ? to : from;
    sqlrow_bind_num(s, 4, from->had ? from->value : NAN);
    sqlrow_bind_num(s, 5, to->had ? to->value : NAN);
    sqlrow_bind_num(s, 6, row->measured);
    sqlrow_bind_str(s, 7, row->label);
    sqlrow_bind_str(s, 8, reason);
    sqlrow_bind_str(s, 9, who);
    sqlite3_bind_int64(s, 10, now);
    int rc = sqlite3_step(s);
    *entry = sqlite3_last_insert_rowid(db);
    return finish(db, s, rc, 0, "scenario history", err);
}

/* Inside the transaction: check, then write and log. */
static int put_locked(sqlite3 *db, const char *scenario, const char *key, const char *group,
                      const StoreUndoParam *to, int64_t expect, const char *log_reason,
                      const char *who, StoreUndoPut *out, CpErr *err)
{
    int64_t id, last;
    if (scenario_id(db, scenario, &id, err) < 0)
        return -1;
    if (id == 0)
        return cp_err_set(err, "no scenario '%s' any more", scenario);
    if (expect >= 0) {
        if (last_entry(db, id, key, group, &last, &out->other_who, &out->other_at, err) < 0)
            return -1;
        if (last != expect) {
            out->conflict = 1;
            if (last < expect) { /* the entry expected is gone (capplan scenario undo) */
                free(out->other_who);
                out->other_who = NULL;
                out->other_at = 0;
            }
            return 0;
        }
        free(out->other_who);
        out->other_who = NULL;
        out->other_at = 0;
    }
    int64_t now = (int64_t)time(NULL);
    if (read_param(db, id, key, group, &out->before, err) < 0 ||
        write_param(db, id, key, group, to, now, err) < 0)
        return -1;
    return log_entry(db, id, key, group, &out->before, to, log_reason ? log_reason : to->reason,
                     who, now, &out->edit, err);
}

int store_undo_put(Store *st, const char *scenario, const char *key, const char *group,
                   const StoreUndoParam *to, int64_t expect, const char *log_reason,
                   const char *who, StoreUndoPut *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(out, 0, sizeof *out);
    if (exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (put_locked(db, scenario, key, group ? group : "", to, expect, log_reason, who, out,
                   err) < 0) {
        exec(db, "ROLLBACK", NULL);
        store_undo_put_clear(out);
        return -1;
    }
    if (out->conflict)
        return exec(db, "ROLLBACK", err);
    if (exec(db, "COMMIT", err) < 0) {
        exec(db, "ROLLBACK", NULL);
        store_undo_put_clear(out);
        return -1;
    }
    return 0;
}
