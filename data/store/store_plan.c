/* store_plan: the helpers every store_plan file shares (store_plan_int.h)
 * and the planner's small reads: names, monthly usage, the roster, groups,
 * the GPU inventory. Profile runs: store_plan_runs.c; scenarios:
 * store_plan_scenarios.c; jobs: store_plan_jobs.c. */
#include "data/store/store_plan.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/civil.h"
#include "core/fieldtext.h"
#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_plan_int.h"

/* ---- helpers (store_plan_int.h) ---- */

int store_plan_prep(sqlite3 *db, const char *sql, sqlite3_stmt **s, const char *what, CpErr *err)
{
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK) {
        *s = NULL;
        return sqlrow_err(db, err, what);
    }
    return 0;
}

/* Step s to its end calling fn on each row; finalizes s. */
int store_plan_each_row(sqlite3 *db, sqlite3_stmt *s, StorePlanRowFn fn, void *ctx, const char *what,
                    CpErr *err)
{
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (fn(s, ctx) < 0)
            break;
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return sqlrow_err(db, err, what);
    return 0;
}

/* Step a statement that returns nothing; finalizes it. */
int store_plan_run_done(sqlite3 *db, sqlite3_stmt *s, const char *what, CpErr *err)
{
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

/* A "YYYY-MM-DD" column as epoch seconds; STORE_PLAN_NO_DATE when NULL or bad. */
int64_t store_plan_col_date(sqlite3_stmt *s, int i)
{
    const char *t = (const char *)sqlite3_column_text(s, i);
    int64_t v;
    if (!t || fields_time(t, strlen(t), 0, &v, NULL) < 0 || v == CP_TIME_NONE)
        return STORE_PLAN_NO_DATE;
    return v;
}

void store_plan_bind_text_or_null(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

void store_plan_bind_real_or_null(sqlite3_stmt *s, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

int store_plan_scalar_int(sqlite3 *db, const char *sql, int64_t arg, int64_t *out, const char *what,
                      CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db, sql, &s, what, err) < 0)
        return -1;
    if (sqlite3_bind_parameter_count(s) > 0)
        sqlite3_bind_int64(s, 1, arg);
    int rc = sqlite3_step(s);
    *out = rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL ? sqlite3_column_int64(s, 0)
                                                                        : 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

int store_plan_exec(sqlite3 *db, const char *sql, CpErr *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        cp_err_set(err, "database: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* ---- small reads ---- */

int store_plan_cpu_only(Store *st, int *cpu_only, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (store_plan_prep(db, "SELECT total(gpu_hours), total(cpu_hours) FROM usage_month", &s, "usage", err) <
        0)
        return -1;
    int rc = sqlite3_step(s);
    *cpu_only = rc == SQLITE_ROW && sqlite3_column_double(s, 0) <= 0 &&
                sqlite3_column_double(s, 1) > 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, "usage");
}

int store_plan_last_month(Store *st, int64_t before_month, int64_t *month, CpErr *err)
{
    return store_plan_scalar_int(store_db(st),
                      "SELECT max(month) FROM usage_month "
                      "WHERE jobs > 0 AND (?1 = 0 OR month < ?1)",
                      before_month, month, "usage", err);
}

int store_plan_data_end(Store *st, int64_t *t, CpErr *err)
{
    int64_t v, any;
    if (store_plan_scalar_int(store_db(st), "SELECT count(*) FROM jobs WHERE final = 1 AND start IS NOT NULL",
                   0, &any, "jobs", err) < 0 ||
        store_plan_scalar_int(store_db(st),
                   "SELECT max(coalesce(end_time, start)) FROM jobs WHERE final = 1", 0, &v,
                   "jobs", err) < 0)
        return -1;
    *t = any > 0 ? v : INT64_MIN;
    return 0;
}

int store_plan_last_import(Store *st, int64_t *id, CpErr *err)
{
    return store_plan_scalar_int(store_db(st), "SELECT max(id) FROM imports", 0, id, "imports", err);
}

/* ---- names, usage, roster, groups, inventory ---- */

static int row_name(sqlite3_stmt *s, void *ctx)
{
    StorePlanNames *nm = ctx;
    int64_t id = sqlite3_column_int64(s, 0);
    if (id < 0 || id >= nm->n)
        return 0;
    nm->names[id] = sqlrow_str(s, 1);
    return 0;
}

int store_plan_names(Store *st, const char *table, StorePlanNames *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int which = strcmp(table, "users") == 0 ? 0 : strcmp(table, "clusters") == 0 ? 2 : 1;
    static const char *const max_sql[] = {"SELECT max(id) FROM users", "SELECT max(id) FROM accounts",
                                          "SELECT max(id) FROM clusters"};
    static const char *const names_sql[] = {"SELECT id, name FROM users",
                                            "SELECT id, name FROM accounts",
                                            "SELECT id, name FROM clusters"};
    int64_t maxid;
    memset(out, 0, sizeof *out);
    if (store_plan_scalar_int(db, max_sql[which], 0, &maxid, table, err) < 0)
        return -1;
    out->n = maxid + 1;
    out->names = xcalloc((size_t)out->n + 1, sizeof *out->names);
    sqlite3_stmt *s;
    if (store_plan_prep(db, names_sql[which], &s, table, err) < 0)
        return -1;
    return store_plan_each_row(db, s, row_name, out, table, err);
}

void store_plan_names_free(StorePlanNames *nm)
{
    for (int64_t i = 0; i < nm->n; i++)
        free(nm->names[i]);
    free(nm->names);
    memset(nm, 0, sizeof *nm);
}

typedef struct UsageVec {
    StorePlanUsage *rows;
    size_t n, cap;
} UsageVec;

static int row_usage(sqlite3_stmt *s, void *ctx)
{
    UsageVec *v = ctx;
    v->rows = sqlrow_grow(v->rows, v->n, &v->cap, sizeof *v->rows);
    StorePlanUsage *u = &v->rows[v->n++];
    u->month = sqlite3_column_int64(s, 0);
    u->user_id = sqlite3_column_int64(s, 1);
    u->account_id = sqlite3_column_int64(s, 2);
    u->hours = sqlite3_column_double(s, 3);
    return 0;
}

int store_plan_usage(Store *st, int64_t from_month, int64_t to_month, int cpu,
                     StorePlanUsage **rows, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    UsageVec v = {NULL, 0, 0};
    const char *sql = cpu ? "SELECT month, user_id, account_id, total(cpu_hours) FROM usage_month "
                            "WHERE month >= ?1 AND month < ?2 GROUP BY month, user_id, account_id "
                            "HAVING total(cpu_hours) > 0"
                          : "SELECT month, user_id, account_id, total(gpu_hours) FROM usage_month "
                            "WHERE month >= ?1 AND month < ?2 GROUP BY month, user_id, account_id "
                            "HAVING total(gpu_hours) > 0";
    if (store_plan_prep(db, sql, &s, "usage", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, from_month);
    sqlite3_bind_int64(s, 2, to_month);
    int rc = store_plan_each_row(db, s, row_usage, &v, "usage", err);
    *rows = v.rows;
    *n = v.n;
    return rc;
}

typedef struct PeopleVec {
    StorePlanPerson *p;
    size_t n, cap;
} PeopleVec;

static int row_person(sqlite3_stmt *s, void *ctx)
{
    PeopleVec *v = ctx;
    v->p = sqlrow_grow(v->p, v->n, &v->cap, sizeof *v->p);
    StorePlanPerson *p = &v->p[v->n++];
    p->user = sqlrow_str(s, 0);
    p->group = sqlrow_str(s, 1);
    p->role = sqlrow_str(s, 2);
    p->domain = sqlrow_str(s, 3);
    p->start = store_plan_col_date(s, 4);
    p->end = store_plan_col_date(s, 5);
    p->planned = store_plan_col_date(s, 6);
    return 0;
}

int store_plan_people(Store *st, StorePlanPerson **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    PeopleVec v = {NULL, 0, 0};
    *out = NULL;
    *n = 0;
    if (store_plan_prep(db,
             "SELECT user, group_name, role, domain, start_date, end_date, planned_end FROM people "
             "ORDER BY user, start_date, id",
             &s, "roster", err) < 0)
        return -1;
    int rc = store_plan_each_row(db, s, row_person, &v, "roster", err);
    *out = v.p;
    *n = v.n;
    return rc;
}

void store_plan_people_free(StorePlanPerson *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].user);
        free(p[i].group);
        free(p[i].role);
        free(p[i].domain);
    }
    free(p);
}

typedef struct GroupVec {
    StorePlanGroup *g;
    size_t n, cap;
} GroupVec;

static int row_group(sqlite3_stmt *s, void *ctx)
{
    GroupVec *v = ctx;
    v->g = sqlrow_grow(v->g, v->n, &v->cap, sizeof *v->g);
    v->g[v->n].name = sqlrow_str(s, 0);
    v->g[v->n].domain = sqlrow_str(s, 1);
    v->n++;
    return 0;
}

int store_plan_groups(Store *st, StorePlanGroup **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    GroupVec v = {NULL, 0, 0};
    if (store_plan_prep(db, "SELECT name, domain FROM groups ORDER BY name", &s, "groups", err) < 0)
        return -1;
    int rc = store_plan_each_row(db, s, row_group, &v, "groups", err);
    *out = v.g;
    *n = v.n;
    return rc;
}

void store_plan_groups_free(StorePlanGroup *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(g[i].name);
        free(g[i].domain);
    }
    free(g);
}

typedef struct GpusVec {
    StorePlanGpus *g;
    size_t n, cap;
} GpusVec;

static int row_gpus(sqlite3_stmt *s, void *ctx)
{
    GpusVec *v = ctx;
    v->g = sqlrow_grow(v->g, v->n, &v->cap, sizeof *v->g);
    StorePlanGpus *g = &v->g[v->n++];
    g->cluster = sqlrow_str(s, 0);
    g->model = sqlrow_str(s, 1);
    g->gpus = sqlite3_column_double(s, 2);
    g->mem_gib = sqlite3_column_double(s, 3);
    g->from = store_plan_col_date(s, 4);
    g->to = store_plan_col_date(s, 5);
    g->speed = sqlrow_num(s, 6, -1);
    if (g->from == STORE_PLAN_NO_DATE)
        g->from = INT64_MIN;
    return 0;
}

int store_plan_inventory(Store *st, StorePlanGpus **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    GpusVec v = {NULL, 0, 0};
    if (store_plan_prep(db,
             "SELECT cluster, gpu_model, gpus, gpu_mem_gib, from_date, to_date, relative_speed "
             "FROM inventory ORDER BY cluster, gpu_model, from_date",
             &s, "inventory", err) < 0)
        return -1;
    int rc = store_plan_each_row(db, s, row_gpus, &v, "inventory", err);
    *out = v.g;
    *n = v.n;
    return rc;
}

void store_plan_inventory_free(StorePlanGpus *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(g[i].cluster);
        free(g[i].model);
    }
    free(g);
}
