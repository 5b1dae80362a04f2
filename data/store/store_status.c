/* store_status: what `capplan status` prints, read from the counts kept at
 * import (job_counts, usage_month) and the small reference tables. A failed
 * count is an error (a corrupt page), never a 0. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

/* One count for status: a table a database does not have yet reads as 0,
 * any other failure (a corrupt page) is an error, never a 0. */
static int status_count(Store *st, const char *sql, int64_t *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *out = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return (sqlite3_errcode(db) & 0xff) == SQLITE_ERROR ? 0 : sqlrow_err(db, err, "status");
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, "status");
}

static int named_counts(Store *st, const char *sql, StoreNamedCount **out, int *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "status");
    int cap = 0, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            *out = xrealloc(*out, (size_t)cap * sizeof **out);
        }
        const char *name = (const char *)sqlite3_column_text(s, 0);
        (*out)[*n].name = xstrdup(name ? name : "");
        (*out)[*n].count = sqlite3_column_int64(s, 1);
        (*n)++;
    }
    if (rc != SQLITE_DONE)
        sqlrow_err(db, err, "status");
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The jobs' counts: from job_counts (schema v16, kept at import: no scan),
 * else, on an older database opened read-only, counted in the jobs table. */
static int job_figures(Store *st, StoreStatus *o, CpErr *err)
{
    int kept = store_scalar(st, "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                "AND name = 'job_counts'") > 0;
    struct {
        int64_t *out;
        const char *kept, *scan;
    } counts[] = {
        {&o->jobs, "SELECT total(jobs) FROM job_counts", "SELECT count(*) FROM jobs WHERE final=1"},
        {&o->attempts, "SELECT total(attempts) FROM job_counts", "SELECT count(*) FROM jobs"},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (status_count(st, kept ? counts[i].kept : counts[i].scan, counts[i].out, err) < 0)
            return -1;
    o->first_submit = o->last_submit = CP_TIME_NONE;
    if (o->attempts > 0 &&
        (status_count(st,
                      kept ? "SELECT min(first_submit) FROM job_counts"
                           : "SELECT min(submit) FROM jobs WHERE submit > 0",
                      &o->first_submit, err) < 0 ||
         status_count(st,
                      kept ? "SELECT max(last_submit) FROM job_counts"
                           : "SELECT max(submit) FROM jobs",
                      &o->last_submit, err) < 0))
        return -1;
    return named_counts(st,
                        kept ? "SELECT c.name, coalesce(k.jobs, 0) FROM clusters c LEFT JOIN "
                               "job_counts k ON k.cluster_id = c.id ORDER BY c.name"
                             : "SELECT c.name, count(j.id) FROM clusters c LEFT JOIN jobs j "
                               "ON j.cluster_id=c.id AND j.final=1 GROUP BY c.id ORDER BY c.name",
                        &o->clusters, &o->nclusters, err);
}

int store_status(Store *st, StoreStatus *o, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(o, 0, sizeof *o);
    struct {
        int64_t *out;
        const char *sql;
    } counts[] = {
        {&o->users, "SELECT count(*) FROM users"},
        {&o->accounts, "SELECT count(*) FROM accounts"},
        {&o->groups, "SELECT count(DISTINCT group_name) FROM people"},
        {&o->people, "SELECT count(DISTINCT user) FROM people"},
        {&o->clusters_n, "SELECT count(*) FROM clusters"},
        {&o->inventory_rows, "SELECT count(*) FROM inventory"},
        {&o->events, "SELECT count(*) FROM events"},
        {&o->pubs, "SELECT count(*) FROM pubs"},
        {&o->gpu_metrics, "SELECT count(*) FROM gpu_metrics"},
        {&o->imports, "SELECT count(*) FROM imports WHERE finished_at IS NOT NULL"},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (status_count(st, counts[i].sql, counts[i].out, err) < 0)
            return -1;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT total(gpu_hours), total(cpu_hours) FROM usage_month",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "status");
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        o->gpu_hours = sqlite3_column_double(s, 0);
        o->cpu_hours = sqlite3_column_double(s, 1);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return sqlrow_err(db, err, "status");
    if (job_figures(st, o, err) < 0)
        return -1;
    return named_counts(st,
                        "SELECT kind || ' ' || path || ' (' || coalesce(format,'') || ')', "
                        "coalesce(rows_added,0) FROM imports WHERE finished_at IS NOT NULL "
                        "ORDER BY id DESC LIMIT 10",
                        &o->recent_imports, &o->nrecent, err);
}

void store_status_free(StoreStatus *s)
{
    for (int i = 0; i < s->nclusters; i++)
        free(s->clusters[i].name);
    for (int i = 0; i < s->nrecent; i++)
        free(s->recent_imports[i].name);
    free(s->clusters);
    free(s->recent_imports);
    memset(s, 0, sizeof *s);
}
