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

/* ---- helpers ---- */

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **s, const char *what, CpErr *err)
{
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK) {
        *s = NULL;
        return sqlrow_err(db, err, what);
    }
    return 0;
}

/* Step s to its end calling fn on each row; finalizes s. */
static int each_row(sqlite3 *db, sqlite3_stmt *s, StorePlanRowFn fn, void *ctx, const char *what,
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
static int run_done(sqlite3 *db, sqlite3_stmt *s, const char *what, CpErr *err)
{
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

/* A "YYYY-MM-DD" column as epoch seconds; STORE_PLAN_NO_DATE when NULL or bad. */
static int64_t col_date(sqlite3_stmt *s, int i)
{
    const char *t = (const char *)sqlite3_column_text(s, i);
    int64_t v;
    if (!t || fields_time(t, strlen(t), 0, &v, NULL) < 0 || v == CP_TIME_NONE)
        return STORE_PLAN_NO_DATE;
    return v;
}

static void bind_text_or_null(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

static void bind_real_or_null(sqlite3_stmt *s, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

static int scalar_int(sqlite3 *db, const char *sql, int64_t arg, int64_t *out, const char *what,
                      CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db, sql, &s, what, err) < 0)
        return -1;
    if (sqlite3_bind_parameter_count(s) > 0)
        sqlite3_bind_int64(s, 1, arg);
    int rc = sqlite3_step(s);
    *out = rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL ? sqlite3_column_int64(s, 0)
                                                                        : 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

/* For store_plan_jobs.c (store_plan_int.h). */
int store_plan_prep(sqlite3 *db, const char *sql, sqlite3_stmt **s, const char *what, CpErr *err)
{
    return prep(db, sql, s, what, err);
}

int store_plan_each_row(sqlite3 *db, sqlite3_stmt *s, StorePlanRowFn fn, void *ctx,
                        const char *what, CpErr *err)
{
    return each_row(db, s, fn, ctx, what, err);
}

int store_plan_scalar_int(sqlite3 *db, const char *sql, int64_t arg, int64_t *out,
                          const char *what, CpErr *err)
{
    return scalar_int(db, sql, arg, out, what, err);
}

/* ---- small reads ---- */

int store_plan_cpu_only(Store *st, int *cpu_only, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (prep(db, "SELECT total(gpu_hours), total(cpu_hours) FROM usage_month", &s, "usage", err) <
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
    return scalar_int(store_db(st),
                      "SELECT max(month) FROM usage_month "
                      "WHERE jobs > 0 AND (?1 = 0 OR month < ?1)",
                      before_month, month, "usage", err);
}

int store_plan_data_end(Store *st, int64_t *t, CpErr *err)
{
    int64_t v, any;
    if (scalar_int(store_db(st), "SELECT count(*) FROM jobs WHERE final = 1 AND start IS NOT NULL",
                   0, &any, "jobs", err) < 0 ||
        scalar_int(store_db(st),
                   "SELECT max(coalesce(end_time, start)) FROM jobs WHERE final = 1", 0, &v,
                   "jobs", err) < 0)
        return -1;
    *t = any > 0 ? v : INT64_MIN;
    return 0;
}

int store_plan_last_import(Store *st, int64_t *id, CpErr *err)
{
    return scalar_int(store_db(st), "SELECT max(id) FROM imports", 0, id, "imports", err);
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
    if (scalar_int(db, max_sql[which], 0, &maxid, table, err) < 0)
        return -1;
    out->n = maxid + 1;
    out->names = xcalloc((size_t)out->n + 1, sizeof *out->names);
    sqlite3_stmt *s;
    if (prep(db, names_sql[which], &s, table, err) < 0)
        return -1;
    return each_row(db, s, row_name, out, table, err);
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
    if (prep(db, sql, &s, "usage", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, from_month);
    sqlite3_bind_int64(s, 2, to_month);
    int rc = each_row(db, s, row_usage, &v, "usage", err);
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
    p->start = col_date(s, 4);
    p->end = col_date(s, 5);
    p->planned = col_date(s, 6);
    return 0;
}

int store_plan_people(Store *st, StorePlanPerson **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    PeopleVec v = {NULL, 0, 0};
    *out = NULL;
    *n = 0;
    if (prep(db,
             "SELECT user, group_name, role, domain, start_date, end_date, planned_end FROM people "
             "ORDER BY user, start_date, id",
             &s, "roster", err) < 0)
        return -1;
    int rc = each_row(db, s, row_person, &v, "roster", err);
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
    if (prep(db, "SELECT name, domain FROM groups ORDER BY name", &s, "groups", err) < 0)
        return -1;
    int rc = each_row(db, s, row_group, &v, "groups", err);
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
    g->from = col_date(s, 4);
    g->to = col_date(s, 5);
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
    if (prep(db,
             "SELECT cluster, gpu_model, gpus, gpu_mem_gib, from_date, to_date, relative_speed "
             "FROM inventory ORDER BY cluster, gpu_model, from_date",
             &s, "inventory", err) < 0)
        return -1;
    int rc = each_row(db, s, row_gpus, &v, "inventory", err);
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

/* ---- profile runs ---- */

static int exec(sqlite3 *db, const char *sql, CpErr *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        cp_err_set(err, "database: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int save_run_row(sqlite3 *db, StorePlanRun *r, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "INSERT INTO profile_runs(created_at, who, unit, win_start, win_end, window_months, "
             "roles, min_jobs, k, k_auto, silhouette, inertia, seed, restarts, jobs_used, "
             "last_import) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
             &s, "save profiles", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, r->created_at);
    bind_text_or_null(s, 2, r->who);
    sqlite3_bind_text(s, 3, r->cpu ? "cpu" : "gpu", -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, r->win_start);
    sqlite3_bind_int64(s, 5, r->win_end);
    sqlite3_bind_int(s, 6, r->window_months);
    bind_text_or_null(s, 7, r->roles);
    sqlite3_bind_int(s, 8, r->min_jobs);
    sqlite3_bind_int(s, 9, r->k);
    sqlite3_bind_int(s, 10, r->k_auto);
    sqlite3_bind_double(s, 11, r->silhouette);
    sqlite3_bind_double(s, 12, r->inertia);
    sqlite3_bind_int64(s, 13, (int64_t)r->seed);
    sqlite3_bind_int(s, 14, r->restarts);
    sqlite3_bind_int64(s, 15, r->jobs_used);
    sqlite3_bind_int64(s, 16, r->last_import);
    if (run_done(db, s, "save profiles", err) < 0)
        return -1;
    r->id = sqlite3_last_insert_rowid(db);
    return 0;
}

static void bind_raw(sqlite3_stmt *s, int first, const double raw[FEAT_COUNT])
{
    for (int f = 0; f < FEAT_COUNT; f++) {
        if (f == FEAT_MEM_GIB && raw[f] < 0)
            sqlite3_bind_null(s, first + f);
        else
            sqlite3_bind_double(s, first + f, raw[f]);
    }
}

static int save_profiles(sqlite3 *db, int64_t run, const StorePlanProfile *p, int k, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "INSERT INTO profiles(run_id, idx, generated, size, mem_requested, gpus_p90, mem_gib, "
             "dur_mean_h, dur_max_h, gpu_hours_month, conc_mean, conc_peak) "
             "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)",
             &s, "save profiles", err) < 0)
        return -1;
    for (int i = 0; i < k; i++) {
        sqlite3_bind_int64(s, 1, run);
        sqlite3_bind_int(s, 2, i);
        sqlite3_bind_text(s, 3, p[i].generated, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 4, p[i].size);
        sqlite3_bind_int(s, 5, p[i].mem_requested);
        bind_raw(s, 6, p[i].centroid);
        if (sqlite3_step(s) != SQLITE_DONE) {
            sqlite3_finalize(s);
            return sqlrow_err(db, err, "save profiles");
        }
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return 0;
}

static int save_members(sqlite3 *db, int64_t run, const StorePlanMember *m, size_t n, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "INSERT INTO profile_members(run_id, user_id, profile, group_name, domain, role, "
             "end_date, njobs, gpu_hours, mem_source, burst_frac, gpus_p90, mem_gib, dur_mean_h, "
             "dur_max_h, gpu_hours_month, conc_mean, conc_peak) "
             "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
             &s, "save profiles", err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char date[16] = "";
        if (m[i].end != STORE_PLAN_NO_DATE) {
            int y, mo, d, h, mi, sec;
            fields_civil_of(m[i].end, &y, &mo, &d, &h, &mi, &sec);
            snprintf(date, sizeof date, "%04d-%02d-%02d", y, mo, d);
        }
        sqlite3_bind_int64(s, 1, run);
        sqlite3_bind_int64(s, 2, m[i].user_id);
        sqlite3_bind_int(s, 3, m[i].profile);
        sqlite3_bind_text(s, 4, m[i].group, -1, SQLITE_STATIC);
        bind_text_or_null(s, 5, m[i].domain);
        bind_text_or_null(s, 6, m[i].role);
        bind_text_or_null(s, 7, date[0] ? date : NULL);
        sqlite3_bind_int(s, 8, m[i].njobs);
        sqlite3_bind_double(s, 9, m[i].gpu_hours);
        sqlite3_bind_int(s, 10, m[i].mem_source);
        sqlite3_bind_double(s, 11, m[i].burst_frac);
        bind_raw(s, 12, m[i].raw);
        if (sqlite3_step(s) != SQLITE_DONE) {
            sqlite3_finalize(s);
            return sqlrow_err(db, err, "save profiles");
        }
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return 0;
}

int store_plan_run_save(Store *st, StorePlanRun *run, const StorePlanProfile *profiles, int k,
                        const StorePlanMember *members, size_t n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (save_run_row(db, run, err) < 0 || save_profiles(db, run->id, profiles, k, err) < 0 ||
        save_members(db, run->id, members, n, err) < 0) {
        exec(db, "ROLLBACK", NULL);
        return -1;
    }
    return exec(db, "COMMIT", err);
}

static void read_raw(sqlite3_stmt *s, int first, double raw[FEAT_COUNT])
{
    for (int f = 0; f < FEAT_COUNT; f++)
        raw[f] = sqlrow_num(s, first + f, f == FEAT_MEM_GIB ? -1 : 0);
}

static int load_run_row(sqlite3 *db, StorePlanRun *r, int *found, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "SELECT id, created_at, who, unit, win_start, win_end, window_months, roles, "
             "min_jobs, k, k_auto, silhouette, inertia, seed, restarts, jobs_used, last_import "
             "FROM profile_runs ORDER BY id DESC LIMIT 1",
             &s, "read profiles", err) < 0)
        return -1;
    int rc = sqlite3_step(s);
    *found = rc == SQLITE_ROW;
    if (*found) {
        r->id = sqlite3_column_int64(s, 0);
        r->created_at = sqlite3_column_int64(s, 1);
        r->who = sqlrow_str(s, 2);
        r->cpu = strcmp((const char *)sqlite3_column_text(s, 3), "cpu") == 0;
        r->win_start = sqlite3_column_int64(s, 4);
        r->win_end = sqlite3_column_int64(s, 5);
        r->window_months = sqlite3_column_int(s, 6);
        r->roles = sqlrow_str(s, 7);
        r->min_jobs = sqlite3_column_int(s, 8);
        r->k = sqlite3_column_int(s, 9);
        r->k_auto = sqlite3_column_int(s, 10);
        r->silhouette = sqlite3_column_double(s, 11);
        r->inertia = sqlite3_column_double(s, 12);
        r->seed = (uint64_t)sqlite3_column_int64(s, 13);
        r->restarts = sqlite3_column_int(s, 14);
        r->jobs_used = sqlite3_column_int64(s, 15);
        r->last_import = sqlite3_column_int64(s, 16);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read profiles");
}

static int load_profiles(sqlite3 *db, const StorePlanRun *r, StorePlanProfile **out, CpErr *err)
{
    sqlite3_stmt *s;
    *out = xcalloc((size_t)(r->k > 0 ? r->k : 1), sizeof **out);
    if (prep(db,
             "SELECT idx, generated, size, mem_requested, gpus_p90, mem_gib, dur_mean_h, "
             "dur_max_h, gpu_hours_month, conc_mean, conc_peak FROM profiles WHERE run_id = ?1",
             &s, "read profiles", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, r->id);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int i = sqlite3_column_int(s, 0);
        if (i < 0 || i >= r->k || (*out)[i].generated)
            continue;
        StorePlanProfile *p = &(*out)[i];
        p->generated = sqlrow_str(s, 1);
        p->size = sqlite3_column_int(s, 2);
        p->mem_requested = sqlite3_column_int(s, 3);
        read_raw(s, 4, p->centroid);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read profiles");
}

typedef struct MemberVec {
    StorePlanMember *m;
    size_t n, cap;
} MemberVec;

static int row_member(sqlite3_stmt *s, void *ctx)
{
    MemberVec *v = ctx;
    v->m = sqlrow_grow(v->m, v->n, &v->cap, sizeof *v->m);
    StorePlanMember *m = &v->m[v->n++];
    m->user_id = sqlite3_column_int64(s, 0);
    m->profile = sqlite3_column_int(s, 1);
    m->group = sqlrow_str(s, 2);
    m->domain = sqlrow_str(s, 3);
    m->role = sqlrow_str(s, 4);
    m->end = col_date(s, 5);
    m->njobs = sqlite3_column_int(s, 6);
    m->gpu_hours = sqlite3_column_double(s, 7);
    m->mem_source = sqlite3_column_int(s, 8);
    m->burst_frac = sqlite3_column_double(s, 9);
    read_raw(s, 10, m->raw);
    return 0;
}

int store_plan_run_latest(Store *st, StorePlanRun *run, StorePlanProfile **profiles,
                          StorePlanMember **members, size_t *n, int *found, CpErr *err)
{
    sqlite3 *db = store_db(st);
    MemberVec v = {NULL, 0, 0};
    sqlite3_stmt *s;
    memset(run, 0, sizeof *run);
    *profiles = NULL;
    *members = NULL;
    *n = 0;
    *found = 0;
    if (load_run_row(db, run, found, err) < 0)
        return -1;
    if (!*found)
        return 0;
    if (load_profiles(db, run, profiles, err) < 0)
        return -1;
    if (prep(db,
             "SELECT user_id, profile, group_name, domain, role, end_date, njobs, gpu_hours, "
             "mem_source, burst_frac, gpus_p90, mem_gib, dur_mean_h, dur_max_h, gpu_hours_month, "
             "conc_mean, conc_peak FROM profile_members WHERE run_id = ?1 ORDER BY user_id",
             &s, "read profiles", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, run->id);
    int rc = each_row(db, s, row_member, &v, "read profiles", err);
    *members = v.m;
    *n = v.n;
    return rc;
}

void store_plan_run_free(StorePlanRun *run, StorePlanProfile *profiles, int k,
                         StorePlanMember *members, size_t n)
{
    if (run) {
        free(run->roles);
        free(run->who);
    }
    for (int i = 0; profiles && i < k; i++)
        free(profiles[i].generated);
    free(profiles);
    for (size_t i = 0; i < n; i++) {
        free(members[i].group);
        free(members[i].domain);
        free(members[i].role);
    }
    free(members);
}

int store_plan_rename(Store *st, const char *generated, const char *name, const char *who,
                      const char *reason, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (prep(db,
             "INSERT INTO profile_names(generated, name, who, reason, at) VALUES(?1,?2,?3,?4,?5) "
             "ON CONFLICT(generated) DO UPDATE SET name=excluded.name, who=excluded.who, "
             "reason=excluded.reason, at=excluded.at",
             &s, "rename profile", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, generated, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
    bind_text_or_null(s, 3, who);
    bind_text_or_null(s, 4, reason);
    sqlite3_bind_int64(s, 5, (int64_t)time(NULL));
    return run_done(db, s, "rename profile", err);
}

int store_plan_chosen_name(Store *st, const char *generated, char *out, size_t n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (prep(db, "SELECT name FROM profile_names WHERE generated = ?1", &s, "profile names",
             err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, generated, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW) {
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(s, 0));
        found = 1;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "profile names");
    return found ? 0 : 1;
}

/* ---- scenarios ---- */

typedef struct ScenVec {
    StorePlanScenario *s;
    size_t n, cap;
} ScenVec;

static int row_scenario(sqlite3_stmt *s, void *ctx)
{
    ScenVec *v = ctx;
    v->s = sqlrow_grow(v->s, v->n, &v->cap, sizeof *v->s);
    StorePlanScenario *c = &v->s[v->n++];
    c->name = sqlrow_str(s, 0);
    c->base = sqlrow_str(s, 1);
    c->who = sqlrow_str(s, 2);
    c->created_at = sqlite3_column_int64(s, 3);
    c->nparams = sqlite3_column_int(s, 4);
    return 0;
}

int store_plan_scenarios(Store *st, StorePlanScenario **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    ScenVec v = {NULL, 0, 0};
    if (prep(db,
             "SELECT s.name, s.base, s.who, s.created_at, "
             "(SELECT count(*) FROM scenario_params p WHERE p.scenario_id = s.id) "
             "FROM scenarios s ORDER BY s.name",
             &s, "scenarios", err) < 0)
        return -1;
    int rc = each_row(db, s, row_scenario, &v, "scenarios", err);
    *out = v.s;
    *n = v.n;
    return rc;
}

void store_plan_scenarios_free(StorePlanScenario *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].name);
        free(s[i].base);
        free(s[i].who);
    }
    free(s);
}

static int scenario_id(sqlite3 *db, const char *name, int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db, "SELECT id FROM scenarios WHERE name = ?1", &s, "scenarios", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "scenarios");
    return 0;
}

int store_plan_scenario_exists(Store *st, const char *name, CpErr *err)
{
    int64_t id;
    if (scenario_id(store_db(st), name, &id, err) < 0)
        return -1;
    return id > 0;
}

static int copy_params(sqlite3 *db, int64_t from, int64_t to, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, label, "
             "reason, who, at) SELECT ?2, key, group_name, value, measured, label, reason, who, at "
             "FROM scenario_params WHERE scenario_id = ?1",
             &s, "copy scenario", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, from);
    sqlite3_bind_int64(s, 2, to);
    return run_done(db, s, "copy scenario", err);
}

static int insert_scenario(sqlite3 *db, const char *name, const char *base, const char *who,
                           int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db, "INSERT INTO scenarios(name, base, created_at, who) VALUES(?1,?2,?3,?4)", &s,
             "new scenario", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    bind_text_or_null(s, 2, base);
    sqlite3_bind_int64(s, 3, (int64_t)time(NULL));
    bind_text_or_null(s, 4, who);
    if (run_done(db, s, "new scenario", err) < 0)
        return -1;
    *id = sqlite3_last_insert_rowid(db);
    return 0;
}

/* A scenario's name: 1 to 63 bytes, no control character, no space at
 * either end, not starting with '-' (it would read as an option). */
static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63 || name[0] == '-' || name[0] == ' ' || name[n - 1] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            return 0;
    return 1;
}

int store_plan_scenario_new(Store *st, const char *name, const char *base, const char *who,
                            CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t id, base_id = 0;
    if (!name_ok(name))
        return cp_err_set(err, "bad scenario name '%s': 1 to 63 characters, no control "
                               "character, not starting with '-' or a space",
                          name);
    if (exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, name, &id, err) < 0)
        goto fail;
    if (id > 0) {
        cp_err_set(err, "scenario '%s' exists", name);
        goto fail;
    }
    if (base && scenario_id(db, base, &base_id, err) < 0)
        goto fail;
    if (base && base_id == 0) {
        cp_err_set(err, "no scenario '%s'", base);
        goto fail;
    }
    if (insert_scenario(db, name, base, who, &id, err) < 0 ||
        (base_id > 0 && copy_params(db, base_id, id, err) < 0))
        goto fail;
    return exec(db, "COMMIT", err);
fail:
    exec(db, "ROLLBACK", NULL);
    return -1;
}

static int delete_by_id(sqlite3 *db, const char *sql, int64_t id, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db, sql, &s, "remove scenario", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    return run_done(db, s, "remove scenario", err);
}

int store_plan_scenario_rm(Store *st, const char *name, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t id;
    if (exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, name, &id, err) < 0)
        goto fail;
    if (id == 0) {
        cp_err_set(err, "no scenario '%s'", name);
        goto fail;
    }
    if (delete_by_id(db, "DELETE FROM scenario_params WHERE scenario_id = ?1", id, err) < 0 ||
        delete_by_id(db, "DELETE FROM scenario_edits WHERE scenario_id = ?1", id, err) < 0 ||
        delete_by_id(db, "DELETE FROM scenarios WHERE id = ?1", id, err) < 0)
        goto fail;
    return exec(db, "COMMIT", err);
fail:
    exec(db, "ROLLBACK", NULL);
    return -1;
}

typedef struct ParamVec {
    StorePlanParam *p;
    size_t n, cap;
} ParamVec;

static int row_param(sqlite3_stmt *s, void *ctx)
{
    ParamVec *v = ctx;
    v->p = sqlrow_grow(v->p, v->n, &v->cap, sizeof *v->p);
    StorePlanParam *p = &v->p[v->n++];
    p->key = sqlrow_str(s, 0);
    p->group = sqlrow_str(s, 1);
    p->value = sqlite3_column_double(s, 2);
    p->measured = sqlrow_num(s, 3, NAN);
    p->label = sqlrow_str(s, 4);
    p->reason = sqlrow_str(s, 5);
    p->who = sqlrow_str(s, 6);
    p->at = sqlite3_column_int64(s, 7);
    return 0;
}

int store_plan_params(Store *st, const char *name, StorePlanParam **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    ParamVec v = {NULL, 0, 0};
    if (prep(db,
             "SELECT p.key, p.group_name, p.value, p.measured, p.label, p.reason, p.who, p.at "
             "FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id "
             "WHERE s.name = ?1 ORDER BY p.key, p.group_name",
             &s, "scenario parameters", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    int rc = each_row(db, s, row_param, &v, "scenario parameters", err);
    *out = v.p;
    *n = v.n;
    return rc;
}

void store_plan_params_free(StorePlanParam *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].key);
        free(p[i].group);
        free(p[i].label);
        free(p[i].reason);
        free(p[i].who);
    }
    free(p);
}

/* The current row of (key, group) in scenario id: 1 with its value,
 * measured value and label (caller frees *label) when edited, else 0. */
static int current_value(sqlite3 *db, int64_t id, const char *key, const char *group, double *v,
                         double *measured, char **label, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "SELECT value, measured, label FROM scenario_params WHERE scenario_id = ?1 AND "
             "key = ?2 AND group_name = ?3",
             &s, "scenario parameters", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, group, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s), found = rc == SQLITE_ROW;
    if (found) {
        *v = sqlite3_column_double(s, 0);
        *measured = sqlrow_num(s, 1, NAN);
        *label = sqlrow_str(s, 2);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "scenario parameters");
    return found;
}

/* One edit: old and new values (NAN = not edited), measured, label, why. */
typedef struct Edit {
    int64_t scenario;
    const char *key, *group, *label, *reason, *who;
    double old_value, new_value, measured;
} Edit;

static int log_edit(sqlite3 *db, const Edit *e, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "INSERT INTO scenario_edits(scenario_id, key, group_name, old_value, new_value, "
             "measured, label, reason, who, at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
             &s, "scenario history", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, e->scenario);
    sqlite3_bind_text(s, 2, e->key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, e->group, -1, SQLITE_TRANSIENT);
    bind_real_or_null(s, 4, e->old_value);
    bind_real_or_null(s, 5, e->new_value);
    bind_real_or_null(s, 6, e->measured);
    bind_text_or_null(s, 7, e->label);
    bind_text_or_null(s, 8, e->reason);
    bind_text_or_null(s, 9, e->who);
    sqlite3_bind_int64(s, 10, (int64_t)time(NULL));
    return run_done(db, s, "scenario history", err);
}

/* Write (or with new_value NAN remove) the parameter row of e. */
static int write_param(sqlite3 *db, const Edit *e, CpErr *err)
{
    sqlite3_stmt *s;
    if (isnan(e->new_value)) {
        if (prep(db,
                 "DELETE FROM scenario_params WHERE scenario_id = ?1 AND key = ?2 AND "
                 "group_name = ?3",
                 &s, "scenario parameters", err) < 0)
            return -1;
    } else if (prep(db,
                    "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, "
                    "label, reason, who, at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9) "
                    "ON CONFLICT(scenario_id, key, group_name) DO UPDATE SET value=excluded.value, "
                    "measured=excluded.measured, label=excluded.label, reason=excluded.reason, "
                    "who=excluded.who, at=excluded.at",
                    &s, "scenario parameters", err) < 0) {
        return -1;
    }
    sqlite3_bind_int64(s, 1, e->scenario);
    sqlite3_bind_text(s, 2, e->key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, e->group, -1, SQLITE_TRANSIENT);
    if (!isnan(e->new_value)) {
        sqlite3_bind_double(s, 4, e->new_value);
        bind_real_or_null(s, 5, e->measured);
        bind_text_or_null(s, 6, e->label);
        bind_text_or_null(s, 7, e->reason);
        bind_text_or_null(s, 8, e->who);
        sqlite3_bind_int64(s, 9, (int64_t)time(NULL));
    }
    return run_done(db, s, "scenario parameters", err);
}

/* Apply e (its old value read here) and log it, in one transaction. A
 * drop (new value NAN) logs the dropped row's measured value and label,
 * so that an undo can put the row back. */
static int apply_edit(sqlite3 *db, const char *scenario, Edit *e, CpErr *err)
{
    char *old_label = NULL;
    if (exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, scenario, &e->scenario, err) < 0)
        goto fail;
    if (e->scenario == 0) {
        cp_err_set(err, "no scenario '%s' (capplan scenario new %s)", scenario, scenario);
        goto fail;
    }
    double old = NAN, old_measured = NAN;
    int had = current_value(db, e->scenario, e->key, e->group, &old, &old_measured, &old_label,
                            err);
    if (had < 0)
        goto fail;
    e->old_value = had ? old : NAN;
    if (isnan(e->new_value)) {
        e->measured = old_measured;
        e->label = old_label;
    }
    if (write_param(db, e, err) < 0 || log_edit(db, e, err) < 0)
        goto fail;
    free(old_label);
    return exec(db, "COMMIT", err);
fail:
    free(old_label);
    exec(db, "ROLLBACK", NULL);
    return -1;
}

int store_plan_param_set(Store *st, const char *scenario, const char *key, const char *group,
                         double value, double measured, const char *label, const char *reason,
                         const char *who, CpErr *err)
{
    Edit e = {0, key, group ? group : "", label, reason, who, NAN, value, measured};
    return apply_edit(store_db(st), scenario, &e, err);
}

int store_plan_param_unset(Store *st, const char *scenario, const char *key, const char *group,
                           const char *reason, const char *who, CpErr *err)
{
    Edit e = {0, key, group ? group : "", NULL, reason, who, NAN, NAN, NAN};
    return apply_edit(store_db(st), scenario, &e, err);
}

/* The latest edit of scenario id: its id, key, group and old value
 * (strings owned by the caller). */
static int last_edit(sqlite3 *db, int64_t id, int64_t *edit_id, char **key, char **group,
                     double *old_value, CpErr *err)
{
    sqlite3_stmt *s;
    if (prep(db,
             "SELECT id, key, group_name, old_value FROM scenario_edits "
             "WHERE scenario_id = ?1 ORDER BY id DESC LIMIT 1",
             &s, "scenario history", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    *edit_id = 0;
    if (rc == SQLITE_ROW) {
        *edit_id = sqlite3_column_int64(s, 0);
        *key = sqlrow_str(s, 1);
        *group = sqlrow_str(s, 2);
        *old_value = sqlrow_num(s, 3, NAN);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "scenario history");
}

/* Put (key, group) of scenario id back to old (NAN: not edited). Who, why
 * and the measured value come back from the edit before edit_id of the
 * same parameter; without one (a parameter copied from a base), from the
 * row itself, else from edit_id (a drop logs the dropped row's). */
static const char restore_sql[] =
    "WITH prev AS (SELECT measured, label, reason, who, at FROM scenario_edits "
    "  WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3 AND id < ?5 "
    "  ORDER BY id DESC LIMIT 1), "
    "cur AS (SELECT measured, label, reason, who, at FROM scenario_params "
    "  WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3), "
    "this AS (SELECT measured, label, at FROM scenario_edits WHERE id = ?5) "
    "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, label, reason, "
    "  who, at) VALUES(?1, ?2, ?3, ?4, "
    "  coalesce((SELECT measured FROM prev), (SELECT measured FROM cur), "
    "           (SELECT measured FROM this)), "
    "  coalesce((SELECT label FROM prev), (SELECT label FROM cur), (SELECT label FROM this)), "
    "  CASE WHEN EXISTS(SELECT 1 FROM prev) THEN (SELECT reason FROM prev) "
    "       ELSE (SELECT reason FROM cur) END, "
    "  coalesce((SELECT who FROM prev), (SELECT who FROM cur)), "
    "  coalesce((SELECT at FROM prev), (SELECT at FROM cur), (SELECT at FROM this))) "
    "ON CONFLICT(scenario_id, key, group_name) DO UPDATE SET value = excluded.value, "
    "  measured = excluded.measured, label = excluded.label, reason = excluded.reason, "
    "  who = excluded.who, at = excluded.at";

static int restore_param(sqlite3 *db, int64_t id, int64_t edit_id, const char *key,
                         const char *group, double old, CpErr *err)
{
    sqlite3_stmt *s;
    const char *sql =
        isnan(old)
            ? "DELETE FROM scenario_params WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3"
            : restore_sql;
    if (prep(db, sql, &s, "scenario parameters", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, group, -1, SQLITE_TRANSIENT);
    if (!isnan(old)) {
        sqlite3_bind_double(s, 4, old);
        sqlite3_bind_int64(s, 5, edit_id);
    }
    return run_done(db, s, "scenario parameters", err);
}

int store_plan_undo(Store *st, const char *scenario, int *undone, CpErr *err)
{
    sqlite3 *db = store_db(st);
    char *key = NULL, *group = NULL;
    double old = NAN;
    int64_t id, edit_id = 0;
    int rc = -1;
    *undone = 0;
    if (exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, scenario, &id, err) < 0)
        goto out;
    if (id == 0) {
        cp_err_set(err, "no scenario '%s'", scenario);
        goto out;
    }
    if (last_edit(db, id, &edit_id, &key, &group, &old, err) < 0)
        goto out;
    if (edit_id > 0 &&
        (restore_param(db, id, edit_id, key, group ? group : "", old, err) < 0 ||
         delete_by_id(db, "DELETE FROM scenario_edits WHERE id = ?1", edit_id, err) < 0))
        goto out;
    *undone = edit_id > 0;
    rc = exec(db, "COMMIT", err);
out:
    if (rc < 0)
        exec(db, "ROLLBACK", NULL);
    free(key);
    free(group);
    return rc;
}
