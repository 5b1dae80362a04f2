#include "data/store/store_tui.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobrec.h"
#include "core/stats.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_stats.h"
#include "data/store/store_schema.h"

/* A statement's rows, one callback each. */
typedef int (*RowFn)(sqlite3_stmt *s, void *ctx);

/* Run sql (with ?1 = arg1 when the statement has a parameter) and call fn
 * for every row. what names the query in an error. */
static int query(sqlite3 *db, const char *sql, int64_t arg1, RowFn fn, void *ctx,
                 const char *what, CpErr *err)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, what);
    if (sqlite3_bind_parameter_count(s) > 0)
        sqlite3_bind_int64(s, 1, arg1);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (fn(s, ctx) < 0) {
            sqlite3_finalize(s);
            return cp_err_set(err, "database: %s: bad row", what);
        }
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return sqlrow_err(db, err, what);
    return 0;
}

/* 1 when the database has table name. */
static int has_table(sqlite3 *db, const char *name)
{
    sqlite3_stmt *s = NULL;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", -1,
                           &s, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    found = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    return found;
}

/* ---- names by id ---------------------------------------------------- */

static int row_name(sqlite3_stmt *s, void *ctx)
{
    StoreTuiNames *nm = ctx;
    int64_t id = sqlite3_column_int64(s, 0);
    if (id < 0 || id > 100000000)
        return -1;
    if (id >= nm->n) {
        int64_t n = id + 1;
        nm->names = xrealloc(nm->names, (size_t)n * sizeof *nm->names);
        memset(nm->names + nm->n, 0, (size_t)(n - nm->n) * sizeof *nm->names);
        nm->n = n;
    }
    free(nm->names[id]);
    nm->names[id] = sqlrow_str(s, 1);
    return 0;
}

static void names_free(StoreTuiNames *nm)
{
    for (int64_t i = 0; i < nm->n; i++)
        free(nm->names[i]);
    free(nm->names);
}

/* ---- usage ------------------------------------------------------------ */

typedef struct UsageVec {
    StoreTuiSnapshot *o;
    size_t cap_user, cap_cluster;
} UsageVec;

/* One usage_month row: kept as it is (per user and account), and added to
 * its (month, cluster) total; the table's key order brings a month's
 * clusters together, so the total is the last one or a new one. */
static int row_usage(sqlite3_stmt *s, void *ctx)
{
    UsageVec *v = ctx;
    StoreTuiSnapshot *o = v->o;
    StoreTuiUsage u;
    memset(&u, 0, sizeof u);
    u.month = sqlite3_column_int64(s, 0);
    u.cluster_id = sqlite3_column_int64(s, 1);
    u.user_id = sqlite3_column_int64(s, 2);
    u.account_id = sqlite3_column_int64(s, 3);
    u.jobs = sqlite3_column_int64(s, 4);
    u.gpu_jobs = sqlite3_column_int64(s, 5);
    u.attempts = sqlite3_column_int64(s, 6);
    u.preempted = sqlite3_column_int64(s, 7);
    u.waited = sqlite3_column_int64(s, 8);
    u.gpu_hours = sqlite3_column_double(s, 9);
    u.cpu_hours = sqlite3_column_double(s, 10);
    u.wait_s = sqlite3_column_double(s, 11);
    u.gpu_hours_lost = sqlite3_column_double(s, 12);
    o->user_usage = sqlrow_grow(o->user_usage, o->nuser_usage, &v->cap_user, sizeof u);
    o->user_usage[o->nuser_usage++] = u;
    StoreTuiUsage *c = o->ncluster_usage ? &o->cluster_usage[o->ncluster_usage - 1] : NULL;
    if (!c || c->month != u.month || c->cluster_id != u.cluster_id) {
        o->cluster_usage =
            sqlrow_grow(o->cluster_usage, o->ncluster_usage, &v->cap_cluster, sizeof u);
        c = &o->cluster_usage[o->ncluster_usage++];
        memset(c, 0, sizeof *c);
        c->month = u.month;
        c->cluster_id = u.cluster_id;
    }
    c->jobs += u.jobs;
    c->gpu_jobs += u.gpu_jobs;
    c->attempts += u.attempts;
    c->preempted += u.preempted;
    c->waited += u.waited;
    c->gpu_hours += u.gpu_hours;
    c->cpu_hours += u.cpu_hours;
    c->wait_s += u.wait_s;
    c->gpu_hours_lost += u.gpu_hours_lost;
    return 0;
}

/* In the table's key order (month, cluster, ...): no sort. */
static const char sql_usage[] =
    "SELECT month, cluster_id, user_id, account_id, jobs, gpu_jobs, attempts, preempted, waited, "
    "gpu_hours, cpu_hours, wait_s, gpu_hours_lost FROM usage_month ORDER BY month, cluster_id";

/* ---- reference tables ------------------------------------------------- */

typedef struct Vec {
    void **rows;
    size_t *n, cap;
} Vec;

static int row_person(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiPerson **rows = (StoreTuiPerson **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiPerson *p = &(*rows)[(*v->n)++];
    p->user = sqlrow_str(s, 0);
    p->group = sqlrow_str(s, 1);
    p->role = sqlrow_str(s, 2);
    p->domain = sqlrow_str(s, 3);
    p->start = sqlrow_str(s, 4);
    p->end = sqlrow_str(s, 5);
    p->supervisor = sqlrow_str(s, 6);
    return p->user && p->group ? 0 : -1;
}

static int row_group(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiGroup **rows = (StoreTuiGroup **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiGroup *g = &(*rows)[(*v->n)++];
    g->name = sqlrow_str(s, 0);
    g->domain = sqlrow_str(s, 1);
    g->professor = sqlrow_str(s, 2);
    return g->name ? 0 : -1;
}

static int row_inventory(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiInventory **rows = (StoreTuiInventory **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiInventory *r = &(*rows)[(*v->n)++];
    r->cluster = sqlrow_str(s, 0);
    r->gpu_model = sqlrow_str(s, 1);
    r->gpus = sqlite3_column_int64(s, 2);
    r->gpu_mem_gib = sqlite3_column_double(s, 3);
    r->from = sqlrow_str(s, 4);
    r->to = sqlrow_str(s, 5);
    r->relative_speed = sqlrow_num(s, 6, -1);
    return r->cluster && r->gpu_model && r->from ? 0 : -1;
}

static int row_event(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiEvent **rows = (StoreTuiEvent **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiEvent *e = &(*rows)[(*v->n)++];
    e->date = sqlrow_str(s, 0);
    e->cluster = sqlrow_str(s, 1);
    e->label = sqlrow_str(s, 2);
    return e->date && e->cluster && e->label ? 0 : -1;
}

static int row_note(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiNote **rows = (StoreTuiNote **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiNote *t = &(*rows)[(*v->n)++];
    t->group = sqlrow_str(s, 0);
    t->user = sqlrow_str(s, 1);
    t->date = sqlrow_str(s, 2);
    t->text = sqlrow_str(s, 3);
    return t->group && t->date && t->text ? 0 : -1;
}

static int row_stated(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiStated **rows = (StoreTuiStated **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiStated *t = &(*rows)[(*v->n)++];
    t->user = sqlrow_str(s, 0);
    t->group = sqlrow_str(s, 1);
    t->date = sqlrow_str(s, 2);
    t->gpus_fulltime = sqlrow_num(s, 3, -1);
    t->gpu_mem_class_gib = sqlrow_num(s, 4, -1);
    t->text = sqlrow_str(s, 5);
    return t->user && t->group && t->date ? 0 : -1;
}

static int row_meeting(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    StoreTuiMeeting **rows = (StoreTuiMeeting **)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    StoreTuiMeeting *t = &(*rows)[(*v->n)++];
    t->group = sqlrow_str(s, 0);
    t->date = sqlrow_str(s, 1);
    t->attendees = sqlrow_str(s, 2);
    if (!t->attendees)
        t->attendees = xstrdup("");
    t->status = sqlrow_str(s, 3);
    return t->group && t->date && t->status ? 0 : -1;
}

static int row_string(sqlite3_stmt *s, void *ctx)
{
    Vec *v = ctx;
    char ***rows = (char ***)v->rows;
    *rows = sqlrow_grow(*rows, *v->n, &v->cap, sizeof **rows);
    (*rows)[*v->n] = sqlrow_str(s, 0);
    return (*rows)[(*v->n)++] ? 0 : -1;
}

static int load_names(sqlite3 *db, StoreTuiSnapshot *o, CpErr *err)
{
    if (query(db, "SELECT id, name FROM users", 0, row_name, &o->users, "users", err) < 0 ||
        query(db, "SELECT id, name FROM accounts", 0, row_name, &o->accounts, "accounts", err) <
            0 ||
        query(db, "SELECT id, name FROM clusters", 0, row_name, &o->clusters, "clusters", err) < 0)
        return -1;
    return 0;
}

static int load_usage(sqlite3 *db, StoreTuiSnapshot *o, CpErr *err)
{
    UsageVec v = {o, 0, 0};
    return query(db, sql_usage, 0, row_usage, &v, "usage per month", err);
}

static int load_refs(sqlite3 *db, StoreTuiSnapshot *o, CpErr *err)
{
    Vec p = {(void **)&o->people, &o->npeople, 0};
    Vec g = {(void **)&o->groups, &o->ngroups, 0};
    Vec v = {(void **)&o->inventory, &o->ninventory, 0};
    Vec e = {(void **)&o->events, &o->nevents, 0};
    if (query(db,
              "SELECT user, group_name, role, domain, start_date, end_date, supervisor "
              "FROM people ORDER BY group_name, user, start_date",
              0, row_person, &p, "people", err) < 0 ||
        query(db, "SELECT name, domain, professor FROM groups ORDER BY name", 0, row_group, &g,
              "groups", err) < 0 ||
        query(db,
              "SELECT cluster, gpu_model, gpus, gpu_mem_gib, from_date, to_date, relative_speed "
              "FROM inventory ORDER BY cluster, from_date",
              0, row_inventory, &v, "inventory", err) < 0 ||
        query(db, "SELECT date, cluster, label FROM events ORDER BY date, cluster", 0, row_event,
              &e, "events", err) < 0)
        return -1;
    return 0;
}

static int load_meetings(sqlite3 *db, StoreTuiSnapshot *o, CpErr *err)
{
    Vec n = {(void **)&o->notes, &o->nnotes, 0};
    Vec s = {(void **)&o->stated, &o->nstated, 0};
    Vec sc = {(void **)&o->scenarios, &o->nscenarios, 0};
    if (has_table(db, "notes") &&
        query(db, "SELECT group_name, user, date, text FROM notes ORDER BY group_name, date, id",
              0, row_note, &n, "notes", err) < 0)
        return -1;
    if (has_table(db, "stated_needs") &&
        query(db,
              "SELECT user, group_name, date, gpus_fulltime, gpu_mem_class_gib, text "
              "FROM stated_needs s WHERE date = (SELECT max(date) FROM stated_needs t "
              "WHERE t.user = s.user AND t.group_name = s.group_name) ORDER BY group_name, user",
              0, row_stated, &s, "stated needs", err) < 0)
        return -1;
    if (has_table(db, "scenarios") &&
        query(db, "SELECT name FROM scenarios ORDER BY name", 0, row_string, &sc, "scenarios",
              err) < 0)
        return -1;
    Vec mg = {(void **)&o->met_groups, &o->nmet_groups, 0};
    if (has_table(db, "meetings") &&
        query(db, "SELECT DISTINCT group_name FROM meetings WHERE status = 'held' "
                  "ORDER BY group_name", 0, row_string, &mg, "meetings", err) < 0)
        return -1;
    Vec mt = {(void **)&o->meetings, &o->nmeetings, 0};
    if (has_table(db, "meetings") &&
        query(db, "SELECT group_name, date, attendees, status FROM meetings "
                  "ORDER BY group_name, date", 0, row_meeting, &mt, "meetings", err) < 0)
        return -1;
    return 0;
}

/* The accounting window, as `capplan stats` computes it (core/stats
 * stats_window), kept at import in acct_window (schema v9): none in a
 * database without jobs (the model then takes its whole months). */
static int load_window(Store *st, StoreTuiSnapshot *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT lo, hi FROM acct_window WHERE id = 1", -1, &s, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "accounting window");
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL &&
        sqlite3_column_type(s, 1) != SQLITE_NULL) {
        out->acct_from = sqlite3_column_int64(s, 0);
        out->acct_to = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "accounting window");
}

int store_tui_load(Store *st, StoreTuiSnapshot *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    sqlite3 *db = store_db(st);
    /* One read transaction: every table seen at the same instant. */
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "begin");
    int rc = 0;
    if (load_names(db, out, err) < 0 || load_usage(db, out, err) < 0 ||
        load_refs(db, out, err) < 0 || load_meetings(db, out, err) < 0 ||
        load_window(st, out, err) < 0)
        rc = -1;
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

void store_tui_snapshot_free(StoreTuiSnapshot *s)
{
    names_free(&s->users);
    names_free(&s->accounts);
    names_free(&s->clusters);
    free(s->user_usage);
    free(s->cluster_usage);
    for (size_t i = 0; i < s->npeople; i++) {
        StoreTuiPerson *p = &s->people[i];
        free(p->user), free(p->group), free(p->role), free(p->domain);
        free(p->start), free(p->end), free(p->supervisor);
    }
    free(s->people);
    for (size_t i = 0; i < s->ngroups; i++)
        free(s->groups[i].name), free(s->groups[i].domain), free(s->groups[i].professor);
    free(s->groups);
    for (size_t i = 0; i < s->ninventory; i++) {
        StoreTuiInventory *v = &s->inventory[i];
        free(v->cluster), free(v->gpu_model), free(v->from), free(v->to);
    }
    free(s->inventory);
    for (size_t i = 0; i < s->nevents; i++)
        free(s->events[i].date), free(s->events[i].cluster), free(s->events[i].label);
    free(s->events);
    for (size_t i = 0; i < s->nnotes; i++)
        free(s->notes[i].group), free(s->notes[i].user), free(s->notes[i].date),
            free(s->notes[i].text);
    free(s->notes);
    for (size_t i = 0; i < s->nstated; i++)
        free(s->stated[i].user), free(s->stated[i].group), free(s->stated[i].date),
            free(s->stated[i].text);
    free(s->stated);
    for (size_t i = 0; i < s->nmet_groups; i++)
        free(s->met_groups[i]);
    free(s->met_groups);
    for (size_t i = 0; i < s->nmeetings; i++)
        free(s->meetings[i].group), free(s->meetings[i].date), free(s->meetings[i].attendees),
            free(s->meetings[i].status);
    free(s->meetings);
    for (size_t i = 0; i < s->nscenarios; i++)
        free(s->scenarios[i]);
    free(s->scenarios);
    memset(s, 0, sizeof *s);
}

/* ---- hour-of-week heat map -------------------------------------------- */

#define WEEK_S (168 * 3600)

/* 0 = Monday 00:00 UTC .. 167 = Sunday 23:00 UTC (1970-01-01 was a
 * Thursday, slot 72). */
static int heat_slot(int64_t t)
{
    int64_t h = (t / 3600 + 72) % 168;
    return (int)(h < 0 ? h + 168 : h);
}

/* Spread gpus x (end - start) over the hours of the week. */
static void heat_add(double heat[168], int64_t start, int64_t end, double gpus)
{
    if (end <= start || !(gpus > 0))
        return;
    int64_t weeks = (end - start) / WEEK_S;
    if (weeks > 0) {
        for (int i = 0; i < 168; i++)
            heat[i] += (double)weeks * gpus;
        start += weeks * WEEK_S;
    }
    for (int64_t t = start; t < end;) {
        int64_t stop = (t / 3600 + 1) * 3600;
        if (stop > end)
            stop = end;
        heat[heat_slot(t)] += gpus * (double)(stop - t) / 3600.0;
        t = stop;
    }
}

static double num_or(sqlite3_stmt *s, int i, double unknown)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? unknown : sqlite3_column_double(s, i);
}

/* Add one attempt of gpus over h hours to e. */
static void eff_add(StoreTuiEff *e, double gpus, double h, double util, double mem, double ncpus,
                    double cpu_s, double req, double rss)
{
    if (gpus > 0) {
        e->gpu_h += gpus * h;
        if (util >= 0) {
            e->gpu_h_util += gpus * h;
            e->util_x_h += util * gpus * h;
        }
        if (mem >= 0) {
            e->gpu_h_mem += gpus * h;
            e->mem_x_h += mem * gpus * h;
        }
    }
    if (ncpus > 0 && cpu_s >= 0 && h > 0) {
        e->cpu_alloc_h += ncpus * h;
        e->cpu_used_h += cpu_s / 3600.0;
    }
    if (req > 0 && rss >= 0 && h > 0) {
        e->mem_req_h += req * h;
        e->mem_used_h += rss * h;
    }
}

/* The per-user slot of id (grown as ids come), NULL for no user. */
static StoreTuiEff *user_slot(StoreTuiScan *o, int64_t id)
{
    if (id <= 0 || id > (int64_t)1 << 31)
        return NULL;
    if (id >= o->nby_user) {
        int64_t n = o->nby_user ? o->nby_user : 256;
        while (n <= id)
            n *= 2;
        o->by_user = xrealloc(o->by_user, (size_t)n * sizeof *o->by_user);
        memset(o->by_user + o->nby_user, 0, (size_t)(n - o->nby_user) * sizeof *o->by_user);
        o->nby_user = n;
    }
    return &o->by_user[id];
}

static int row_scan(sqlite3_stmt *s, void *ctx)
{
    StoreTuiScan *o = ctx;
    if (sqlite3_column_type(s, 1) == SQLITE_NULL)
        return 0;
    int64_t start = sqlite3_column_int64(s, 0), end = sqlite3_column_int64(s, 1);
    double h = end > start ? (double)(end - start) / 3600.0 : 0;
    double gpus = sqlite3_column_double(s, 2);
    double util = num_or(s, 3, -1), mem = num_or(s, 4, -1), ncpus = num_or(s, 5, -1);
    double cpu_s = num_or(s, 6, -1), req = num_or(s, 7, -1), rss = num_or(s, 8, -1);
    o->attempts++;
    heat_add(o->heat, start, end, gpus);
    StoreTuiEff all = {o->gpu_h, o->gpu_h_util, o->util_x_h, o->gpu_h_mem, o->mem_x_h,
                       o->cpu_alloc_h, o->cpu_used_h, o->mem_req_h, o->mem_used_h};
    eff_add(&all, gpus, h, util, mem, ncpus, cpu_s, req, rss);
    o->gpu_h = all.gpu_h, o->gpu_h_util = all.gpu_h_util, o->util_x_h = all.util_x_h;
    o->gpu_h_mem = all.gpu_h_mem, o->mem_x_h = all.mem_x_h;
    o->cpu_alloc_h = all.cpu_alloc_h, o->cpu_used_h = all.cpu_used_h;
    o->mem_req_h = all.mem_req_h, o->mem_used_h = all.mem_used_h;
    StoreTuiEff *u = sqlite3_column_type(s, 9) == SQLITE_NULL
                         ? NULL
                         : user_slot(o, sqlite3_column_int64(s, 9));
    if (u)
        eff_add(u, gpus, h, util, mem, ncpus, cpu_s, req, rss);
    return 0;
}

static int row_scan_name(sqlite3_stmt *s, void *ctx)
{
    StoreTuiScan *o = ctx;
    int64_t id = sqlite3_column_int64(s, 0);
    const char *name = (const char *)sqlite3_column_text(s, 1);
    if (id > 0 && id < o->nby_user && name && !o->names[id])
        o->names[id] = xstrdup(name);
    return 0;
}

int store_tui_scan(Store *st, int64_t since, StoreTuiScan *out, CpErr *err)
{
    /* issue 20: whole months come from the statistics' aggregates */
    if (since > 0 && since == stats_month_start(stats_month_of(since)))
        return store_stats_usage_scan(st, since, out, err);
    memset(out, 0, sizeof *out);
    if (query(store_db(st),
              "SELECT start, CASE WHEN elapsed >= 0 THEN start + elapsed ELSE end_time END, "
              "gpus, gpu_util, gpu_mem_gib, " STORE_CPUS_SQL ", total_cpu_s, req_mem_mib, max_rss_mib, user_id "
              "FROM jobs WHERE start >= ?1",
              since, row_scan, out, "job scan", err) < 0)
        return -1;
    out->names = xcalloc(out->nby_user > 0 ? (size_t)out->nby_user : 1, sizeof *out->names);
    return query(store_db(st), "SELECT id, name FROM users", 0, row_scan_name, out, "users", err);
}

void store_tui_scan_free(StoreTuiScan *scan)
{
    for (int64_t i = 0; scan->names && i < scan->nby_user; i++)
        free(scan->names[i]);
    free(scan->names);
    free(scan->by_user);
    scan->names = NULL;
    scan->by_user = NULL;
    scan->nby_user = 0;
}

/* ---- meeting input ---------------------------------------------------- */

static void bind_opt_text(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

static void bind_opt_num(sqlite3_stmt *s, int i, double v)
{
    if (v >= 0)
        sqlite3_bind_double(s, i, v);
    else
        sqlite3_bind_null(s, i);
}

/* Prepare sql, bind up to four texts then two numbers (<0 -> NULL), run. */
static int write_row(Store *st, const char *sql, const char *t[4], double n1, double n2,
                     const char *what, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, what);
    int np = sqlite3_bind_parameter_count(s);
    for (int i = 0; i < 4 && i < np; i++)
        bind_opt_text(s, i + 1, t[i]); /* unbound parameters read as NULL */
    if (np >= 5)
        bind_opt_num(s, 5, n1);
    if (np >= 6)
        bind_opt_num(s, 6, n2);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return sqlrow_err(db, err, what);
    return 0;
}

int store_tui_note_add(Store *st, const char *group, const char *user, const char *date,
                       const char *text, CpErr *err)
{
    const char *t[4] = {group, user, date, text};
    return write_row(st,
                     "INSERT INTO notes(group_name, user, date, text) VALUES(?1, ?2, ?3, ?4) "
                     "ON CONFLICT(group_name, date, text) DO NOTHING",
                     t, -1, -1, "note", err);
}

int store_tui_stated_set(Store *st, const char *user, const char *group, const char *date,
                         double gpus_fulltime, double gpu_mem_class_gib, CpErr *err)
{
    const char *t[4] = {user, group, date, NULL};
    return write_row(st,
                     "INSERT INTO stated_needs(user, group_name, date, gpus_fulltime, "
                     "gpu_mem_class_gib) VALUES(?1, ?2, ?3, ?5, ?6) "
                     "ON CONFLICT(user, group_name, date) DO UPDATE SET "
                     "gpus_fulltime = ?5, gpu_mem_class_gib = ?6",
                     t, gpus_fulltime, gpu_mem_class_gib, "stated need", err);
}

int store_tui_stated_get(Store *st, const char *user, const char *group, const char *date,
                         int *found, double *gpus_fulltime, double *gpu_mem_class_gib,
                         CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT gpus_fulltime, gpu_mem_class_gib FROM stated_needs "
                           "WHERE user = ?1 AND group_name = ?2 AND date = ?3",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "stated need");
    sqlite3_bind_text(s, 1, user, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, group, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, date, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    *found = rc == SQLITE_ROW;
    if (*found) {
        *gpus_fulltime = sqlrow_num(s, 0, -1);
        *gpu_mem_class_gib = sqlrow_num(s, 1, -1);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "stated need");
}

int store_tui_stated_delete(Store *st, const char *user, const char *group, const char *date,
                            CpErr *err)
{
    const char *t[4] = {user, group, date, NULL};
    return write_row(st,
                     "DELETE FROM stated_needs WHERE user = ?1 AND group_name = ?2 AND "
                     "date = ?3",
                     t, -1, -1, "stated need", err);
}

int store_tui_note_delete(Store *st, const char *group, const char *date, const char *text,
                          CpErr *err)
{
    const char *t[4] = {group, date, text, NULL};
    return write_row(st, "DELETE FROM notes WHERE group_name = ?1 AND date = ?2 AND text = ?3", t,
                     -1, -1, "note", err);
}

/* ---- a member's jobs -------------------------------------------------- */

typedef struct JobVec {
    StoreTuiJob **rows;
    size_t *n, cap;
} JobVec;

static int row_job(sqlite3_stmt *s, void *ctx)
{
    JobVec *v = ctx;
    *v->rows = sqlrow_grow(*v->rows, *v->n, &v->cap, sizeof **v->rows);
    StoreTuiJob *j = &(*v->rows)[(*v->n)++];
    j->job_id = sqlrow_str(s, 0);
    j->name = sqlrow_str(s, 1);
    j->state = sqlrow_str(s, 2);
    if (!j->state || !j->state[0]) { /* the raw text is kept only when it differs */
        free(j->state);
        int st = sqlite3_column_int(s, 11);
        CpState state = st >= 0 && st < CP_ST_COUNT ? (CpState)st : CP_ST_OTHER;
        j->state = xstrdup(jobrec_state_name(state));
    }
    j->partition = sqlrow_str(s, 3);
    j->cluster = sqlrow_str(s, 4);
    j->start = sqlite3_column_int64(s, 5);
    j->elapsed = sqlite3_column_int64(s, 6);
    j->gpus = sqlite3_column_double(s, 7);
    j->gpu_hours = sqlite3_column_double(s, 8);
    j->gpu_mem_gib = sqlrow_num(s, 9, -1);
    j->gpu_util = sqlrow_num(s, 10, -1);
    return j->job_id ? 0 : -1;
}

int store_tui_user_jobs(Store *st, const char *user, int64_t since, int limit,
                        StoreTuiJob **out, size_t *n, CpErr *err)
{
    *out = NULL;
    *n = 0;
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(
            db,
            "SELECT j.job_id, j.name, COALESCE(j.state_raw, ''), p.name, c.name, j.start, "
            "max(j.elapsed, 0), j.gpus, j.gpus * max(j.elapsed, 0) / 3600.0 AS gh, "
            "j.gpu_mem_gib, j.gpu_util, j.state "
            "FROM jobs j JOIN clusters c ON c.id = j.cluster_id "
            "LEFT JOIN partitions p ON p.id = j.partition_id "
            "WHERE j.user_id = (SELECT id FROM users WHERE name = ?1) AND j.start >= ?2 "
            "ORDER BY gh DESC, COALESCE(j.total_cpu_s, 0) DESC, j.start DESC LIMIT ?3",
            -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "jobs of a user");
    sqlite3_bind_text(s, 1, user, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 2, since);
    sqlite3_bind_int(s, 3, limit);
    JobVec v = {out, n, 0};
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (row_job(s, &v) < 0)
            break;
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return sqlrow_err(db, err, "jobs of a user");
    return 0;
}

void store_tui_jobs_free(StoreTuiJob *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].job_id), free(v[i].name), free(v[i].state);
        free(v[i].partition), free(v[i].cluster);
    }
    free(v);
}

Store *store_tui_second(Store *st, CpErr *err)
{
    const char *path = sqlite3_db_filename(store_db(st), "main");
    if (!path || !path[0]) {
        err->msg[0] = '\0';
        return NULL;
    }
    return store_open_read(path, err);
}

void store_tui_interrupt(Store *st)
{
    sqlite3_interrupt(store_db(st));
}

/* Page by page (the backup API), not VACUUM INTO: pages are copied as
 * they are, so a corrupt one reaches the copy and the dashboard says so
 * when it reads it, as over the original (VACUUM reads every row first
 * and fails before anything shows). */
int store_tui_copy(Store *st, const char *path, CpErr *err)
{
    sqlite3 *to = NULL;
    int rc = sqlite3_open_v2(path, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(to, "main", store_db(st), "main")
                                        : NULL;
    if (b) {
        rc = sqlite3_backup_step(b, -1);
        sqlite3_backup_finish(b);
    }
    if (rc != SQLITE_DONE)
        cp_err_set(err, "database: copy into %s: %s", path,
                   to ? sqlite3_errmsg(to) : sqlite3_errstr(rc));
    sqlite3_close(to);
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_tui_last_scenario(Store *st, char *out, size_t n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db,
                           "SELECT d.value FROM dashboard_state d WHERE d.key = 'scenario' AND "
                           "(d.value = 'base' OR EXISTS (SELECT 1 FROM scenarios s WHERE "
                           "s.name = d.value))",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "dashboard state");
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(s, 0);
        snprintf(out, n, "%s", v ? v : "");
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "dashboard state");
}

int store_tui_set_last_scenario(Store *st, const char *name, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO dashboard_state(key, value, at) VALUES('scenario', ?1, "
                           "strftime('%s', 'now')) ON CONFLICT(key) DO UPDATE SET "
                           "value = excluded.value, at = excluded.at",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "dashboard state");
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "dashboard state");
}
