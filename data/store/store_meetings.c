/* store_meetings: the meeting workflow's SQL (data/store/store_meetings.h). */
#include "data/store/store_meetings.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

static void bind_num(sqlite3_stmt *s, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

/* Run a statement that returns no rows. */
static int step_done(sqlite3 *db, sqlite3_stmt *s, const char *what, CpErr *err)
{
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

int store_meetings_ensure(Store *st, CpErr *err)
{
    sqlite3 *db = store_db(st);
    static const char ddl[] =
        "CREATE TABLE IF NOT EXISTS meetings(id INTEGER PRIMARY KEY, group_name TEXT NOT NULL,"
        " date TEXT NOT NULL, attendees TEXT NOT NULL DEFAULT '',"
        " status TEXT NOT NULL CHECK(status IN ('planned','held','cancelled')),"
        " UNIQUE(group_name, date))";
    if (sqlite3_exec(db, ddl, NULL, NULL, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "create meetings");
    return 0;
}

int store_meetings_list(Store *st, StoreMeeting **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (store_meetings_ensure(st, err) < 0)
        return -1;
    if (sqlite3_prepare_v2(db, "SELECT group_name, date, attendees, status FROM meetings "
                               "ORDER BY date, group_name", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read meetings");
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        StoreMeeting *m = &(*out)[(*n)++];
        m->group = sqlrow_str(s, 0);
        m->date = sqlrow_str(s, 1);
        m->attendees = sqlrow_str(s, 2);
        m->status = sqlrow_str(s, 3);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read meetings");
}

void store_meetings_free(StoreMeeting *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(m[i].group);
        free(m[i].date);
        free(m[i].attendees);
        free(m[i].status);
    }
    free(m);
}

int store_meetings_put(Store *st, const StoreMeeting *m, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT INTO meetings(group_name, date, attendees, status) "
                               "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(group_name, date) DO UPDATE "
                               "SET attendees = excluded.attendees, status = excluded.status",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "write meeting");
    sqlite3_bind_text(s, 1, m->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, m->date, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, m->attendees ? m->attendees : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, m->status, -1, SQLITE_STATIC);
    return step_done(db, s, "write meeting", err);
}

int store_meetings_get(Store *st, const char *group, const char *date, StoreMeeting *out,
                       CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    memset(out, 0, sizeof *out);
    if (store_meetings_ensure(st, err) < 0)
        return -1;
    if (sqlite3_prepare_v2(db, "SELECT group_name, date, attendees, status FROM meetings "
                               "WHERE group_name = ?1 AND date = ?2", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read a meeting");
    sqlite3_bind_text(s, 1, group, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, date, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        out->group = sqlrow_str(s, 0);
        out->date = sqlrow_str(s, 1);
        out->attendees = sqlrow_str(s, 2);
        out->status = sqlrow_str(s, 3);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "read a meeting");
    return rc == SQLITE_ROW;
}

void store_meetings_clear(StoreMeeting *m)
{
    free(m->group);
    free(m->date);
    free(m->attendees);
    free(m->status);
    memset(m, 0, sizeof *m);
}

int store_meetings_delete(Store *st, const char *group, const char *date, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "DELETE FROM meetings WHERE group_name = ?1 AND date = ?2", -1, &s,
                           NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "delete meeting");
    sqlite3_bind_text(s, 1, group, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, date, -1, SQLITE_STATIC);
    return step_done(db, s, "delete meeting", err);
}

int store_meetings_needs(Store *st, StoreNeed **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db, "SELECT user, group_name, date, gpus_fulltime, gpu_mem_class_gib, "
                               "typical_hours, burst_per_month, burst_gpus, burst_hours, text "
                               "FROM stated_needs ORDER BY group_name, user, date",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read stated needs");
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        StoreNeed *v = &(*out)[(*n)++];
        v->user = sqlrow_str(s, 0);
        v->group = sqlrow_str(s, 1);
        v->date = sqlrow_str(s, 2);
        for (int i = 0; i < NEED_NUM; i++)
            v->num[i] = sqlite3_column_type(s, 3 + i) == SQLITE_NULL
                            ? NAN
                            : sqlite3_column_double(s, 3 + i);
        v->text = sqlrow_str(s, 9);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read stated needs");
}

void store_meetings_needs_free(StoreNeed *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].user);
        free(v[i].group);
        free(v[i].date);
        free(v[i].text);
    }
    free(v);
}

int store_meetings_need_put(Store *st, const StoreNeed *v, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT INTO stated_needs(user, group_name, date, gpus_fulltime, "
                               "gpu_mem_class_gib, typical_hours, burst_per_month, burst_gpus, "
                               "burst_hours, text) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
                               "ON CONFLICT(user, group_name, date) DO UPDATE SET "
                               "gpus_fulltime = excluded.gpus_fulltime, "
                               "gpu_mem_class_gib = excluded.gpu_mem_class_gib, "
                               "typical_hours = excluded.typical_hours, "
                               "burst_per_month = excluded.burst_per_month, "
                               "burst_gpus = excluded.burst_gpus, "
                               "burst_hours = excluded.burst_hours, text = excluded.text",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "write stated need");
    sqlite3_bind_text(s, 1, v->user, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, v->group, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, v->date, -1, SQLITE_STATIC);
    for (int i = 0; i < NEED_NUM; i++)
        bind_num(s, 4 + i, v->num[i]);
    if (v->text && v->text[0])
        sqlite3_bind_text(s, 10, v->text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, 10);
    return step_done(db, s, "write stated need", err);
}

/* 1 when sql (one parameter: name) returns a row. */
static int exists(Store *st, const char *sql, const char *name, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "look up a name");
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "look up a name");
    return rc == SQLITE_ROW;
}

int store_meetings_user_known(Store *st, const char *name, CpErr *err)
{
    return exists(st, "SELECT 1 FROM users WHERE name = ?1 UNION ALL "
                      "SELECT 1 FROM people WHERE user = ?1 LIMIT 1", name, err);
}

int store_meetings_member(Store *st, const char *user, const char *group, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    /* on the roster in that group (any line), or ran jobs under that account */
    if (sqlite3_prepare_v2(db,
                           "SELECT 1 FROM people WHERE user = ?1 AND group_name = ?2 UNION ALL "
                           "SELECT 1 FROM usage_month m JOIN users u ON u.id = m.user_id "
                           "JOIN accounts a ON a.id = m.account_id "
                           "WHERE u.name = ?1 AND a.name = ?2 LIMIT 1",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "look up a member");
    sqlite3_bind_text(s, 1, user, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, group, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "look up a member");
    return rc == SQLITE_ROW;
}

int store_meetings_noted(Store *st, const char *group, CpErr *err)
{
    return exists(st, "SELECT 1 FROM notes WHERE group_name = ?1 LIMIT 1", group, err);
}

int store_meetings_group_known(Store *st, const char *name, CpErr *err)
{
    return exists(st, "SELECT 1 FROM groups WHERE name = ?1 UNION ALL "
                      "SELECT 1 FROM people WHERE group_name = ?1 UNION ALL "
                      "SELECT 1 FROM accounts WHERE name = ?1 LIMIT 1", name, err);
}
