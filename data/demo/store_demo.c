/* store_demo: the SQL of the demo: recognising a capplan database before
 * `capplan demo` replaces it and whether it holds only the demo's own work
 * (site_meta "demo", schema v10), and writing the meeting notes and stated
 * needs (schema version 2) that no CSV import carries yet. Prepared
 * statements and bound parameters only. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "data/demo/demo_model.h"
#include "data/store/store.h"

static int has_capplan_tables(sqlite3 *db)
{
    sqlite3_stmt *s;
    int n = -1;
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM sqlite_master WHERE type='table' AND "
                           "name IN ('jobs','imports','usage_month','people')",
                           -1, &s, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return n < 0 ? -1 : n == 4;
}

int store_demo_is_capplan(const char *path, CpErr *err)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return cp_err_set(err, "%s: cannot read", path);
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n != sizeof head || memcmp(head, magic, sizeof magic) != 0)
        return 0;
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    int is = rc == SQLITE_OK ? has_capplan_tables(db) : -1;
    sqlite3_close(db);
    if (is < 0)
        return cp_err_set(err, "%s: cannot read as a database", path);
    return is;
}

/* Tables that hold what people put in: every import, and what is typed
 * (notes, scenarios, profile names, meetings, ...). Caches and tables
 * derived from the jobs are left out. */
static const char *const work_tables[] = {
    "imports", "notes", "stated_needs", "profile_names", "scenarios", "scenario_params",
    "scenario_edits", "collects", "allocations", "carbon_intensity", "sites", "meetings", "peers"};

/* Rows of table, 0 when the table does not exist (an older schema). */
static int64_t rows_of(sqlite3 *db, const char *table)
{
    char sql[96];
    sqlite3_stmt *s;
    int64_t n = 0;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return n;
}

/* "imports=12 notes=40 ..." of the tables holding rows, into out; the
 * number of such rows. */
static int64_t work_signature(sqlite3 *db, char *out, size_t n)
{
    size_t o = 0;
    int64_t total = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof work_tables / sizeof work_tables[0]; i++) {
        int64_t r = rows_of(db, work_tables[i]);
        total += r;
        if (r > 0 && o < n)
            o += (size_t)snprintf(out + o, n - o, "%s%s=%lld", o ? " " : "", work_tables[i],
                                  (long long)r);
    }
    return total;
}

/* site_meta's "demo" into out ("" when none). */
static void demo_mark(sqlite3 *db, char *out, size_t n)
{
    sqlite3_stmt *s;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db, "SELECT value FROM site_meta WHERE key = 'demo'", -1, &s, NULL) !=
        SQLITE_OK)
        return;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
}

int store_demo_own_work(const char *path, CpErr *err)
{
    sqlite3 *db = NULL;
    char *uri = sqlite3_mprintf("file:%s?mode=ro", path);
    int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    sqlite3_free(uri);
    if (rc != SQLITE_OK) {
        sqlite3_close(db);
        return cp_err_set(err, "%s: cannot read as a database", path);
    }
    sqlite3_busy_timeout(db, 5000);
    char now[512], made[512];
    int64_t total = work_signature(db, now, sizeof now);
    demo_mark(db, made, sizeof made);
    sqlite3_close(db);
    if (total == 0 || (made[0] && strcmp(now, made) == 0))
        return 1;
    cp_err_set(err, "%s holds work not made by `capplan demo` (%s)%s; not replaced "
                    "(--force replaces it, or choose another --db PATH)",
               path, now, made[0] ? "" : ", no demo mark");
    return 0;
}

int store_demo_mark(Store *st, CpErr *err)
{
    sqlite3 *db = store_db(st);
    char sig[512];
    work_signature(db, sig, sizeof sig);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO site_meta(key, value) VALUES('demo', ?1)",
                           -1, &s, NULL) != SQLITE_OK)
        return cp_err_set(err, "database: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(s, 1, sig, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : cp_err_set(err, "database: %s", sqlite3_errmsg(db));
}

static void bind_opt(sqlite3_stmt *s, int i, double v)
{
    if (v > 0)
        sqlite3_bind_double(s, i, v);
    else
        sqlite3_bind_null(s, i);
}

static int step_reset(sqlite3 *db, sqlite3_stmt *s, CpErr *err)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_DONE ? 0 : cp_err_set(err, "database: %s", sqlite3_errmsg(db));
}

static int put_notes(sqlite3 *db, const DemoWorld *w, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "INSERT OR IGNORE INTO notes(group_name, user, date, text) "
                           "VALUES(?1, ?2, ?3, ?4)",
                           -1, &s, NULL) != SQLITE_OK)
        return cp_err_set(err, "database: %s", sqlite3_errmsg(db));
    int rc = 0;
    for (int i = 0; i < w->nnotes && rc == 0; i++) {
        const DemoNote *n = &w->notes[i];
        char date[11];
        demo_fmt_date(n->date, date);
        sqlite3_bind_text(s, 1, w->groups[n->group].name, -1, SQLITE_STATIC);
        if (n->person >= 0)
            sqlite3_bind_text(s, 2, w->people[n->person].user, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, date, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s, 4, n->text, -1, SQLITE_STATIC);
        rc = step_reset(db, s, err);
    }
    sqlite3_finalize(s);
    return rc;
}

static int put_needs(sqlite3 *db, const DemoWorld *w, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "INSERT OR REPLACE INTO stated_needs(user, group_name, date, "
                           "gpus_fulltime, gpu_mem_class_gib, typical_hours, burst_per_month, "
                           "burst_gpus, burst_hours, text) "
                           "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                           -1, &s, NULL) != SQLITE_OK)
        return cp_err_set(err, "database: %s", sqlite3_errmsg(db));
    int rc = 0;
    for (int i = 0; i < w->nneeds && rc == 0; i++) {
        const DemoNeed *n = &w->needs[i];
        const DemoPerson *p = &w->people[n->person];
        char date[11];
        demo_fmt_date(n->date, date);
        sqlite3_bind_text(s, 1, p->user, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, w->groups[p->group].name, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, date, -1, SQLITE_TRANSIENT);
        bind_opt(s, 4, n->gpus_fulltime);
        bind_opt(s, 5, n->mem_class_gib);
        bind_opt(s, 6, n->typical_hours);
        bind_opt(s, 7, n->burst_per_month);
        bind_opt(s, 8, n->burst_gpus);
        bind_opt(s, 9, n->burst_hours);
        sqlite3_bind_text(s, 10, n->text, -1, SQLITE_STATIC);
        rc = step_reset(db, s, err);
    }
    sqlite3_finalize(s);
    return rc;
}

int store_demo_meetings(Store *st, const DemoWorld *w, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (store_begin(st, err) < 0)
        return -1;
    if (put_notes(db, w, err) < 0 || put_needs(db, w, err) < 0) {
        store_rollback(st);
        return -1;
    }
    return store_commit(st, err);
}
