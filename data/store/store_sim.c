/* store_sim: the jobs that ran, for the queue simulation (store_sim.h). */
#include "data/store/store_sim.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

long store_sim_find(char *const *names, size_t n, const char *name)
{
    for (size_t i = n; i-- > 0;)
        if (strcmp(names[i], name) == 0)
            return (long)i;
    return -1;
}

/* name's index in the table, added when new. The last name found is
 * checked first: rows come by cluster, and groups repeat. */
static int32_t intern(char ***names, size_t *n, const char *name)
{
    long i = store_sim_find(*names, *n, name);
    if (i >= 0)
        return (int32_t)i;
    *names = xrealloc(*names, (*n + 1) * sizeof **names);
    (*names)[*n] = xstrdup(name);
    return (int32_t)(*n)++;
}

static const char *col_text(sqlite3_stmt *s, int i)
{
    const char *t = (const char *)sqlite3_column_text(s, i);
    return t ? t : "";
}

static void read_row(sqlite3_stmt *s, StoreSimJobs *o, size_t *cap, int with_part)
{
    size_t had = *cap;
    o->v = sqlrow_grow(o->v, o->n, cap, sizeof *o->v);
    if (with_part) { /* part grows with v */
        if (*cap != had || !o->part)
            o->part = xrealloc(o->part, *cap * sizeof *o->part);
        const char *p = col_text(s, 10);
        o->part[o->n] = *p ? intern(&o->parts, &o->nparts, p) : -1;
    }
    StoreSimJob *j = &o->v[o->n++];
    j->cluster = intern(&o->clusters, &o->nclusters, col_text(s, 0));
    j->group = intern(&o->groups, &o->ngroups, col_text(s, 1));
    const char *m = col_text(s, 9);
    j->model = *m ? intern(&o->models, &o->nmodels, m) : -1;
    j->submit = sqlite3_column_int64(s, 2);
    j->start = sqlite3_column_int64(s, 3);
    j->elapsed = sqlite3_column_int64(s, 4);
    j->limit = sqlite3_column_type(s, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 5);
    j->gpus = sqlite3_column_double(s, 6);
    j->ncpus = sqlite3_column_type(s, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(s, 7);
    j->mem_gib = sqlrow_num(s, 8, 0);
}

#define SIM_JOBS_SQL(PART, PART_JOIN)                                                          \
    "SELECT c.name, a.name, j.submit, j.start, j.elapsed, j.timelimit, "                          \
    "j.gpus, j.ncpus, j.gpu_mem_gib, j.gpu_type" PART " FROM jobs j "                            \
    "JOIN clusters c ON c.id = j.cluster_id "                                                     \
    "LEFT JOIN accounts a ON a.id = j.account_id " PART_JOIN                                      \
    "WHERE j.final = 1 AND j.start IS NOT NULL AND j.elapsed >= 0 "                               \
    "AND j.start >= j.submit AND j.submit >= ?1 AND j.submit < ?2 "                               \
    "ORDER BY c.name, j.submit, j.id"

int store_sim_jobs(Store *st, int64_t from, int64_t to, int with_part, StoreSimJobs *out,
                   CpErr *err)
{
    memset(out, 0, sizeof *out);
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    const char *sql = with_part ? SIM_JOBS_SQL(", p.name", "LEFT JOIN partitions p ON p.id = j.partition_id ")
                                : SIM_JOBS_SQL("", "");
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "jobs");
    sqlite3_bind_int64(s, 1, from);
    sqlite3_bind_int64(s, 2, to);
    size_t cap = 0;
    int rc;
    long long cache = sqlrow_cache_small(db); /* 1M jobs: 67 MB of pages read once */
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        read_row(s, out, &cap, with_part);
    sqlrow_cache_restore(db, cache);
    if (rc != SQLITE_DONE) {
        sqlrow_err(db, err, "jobs");
        sqlite3_finalize(s);
        store_sim_free(out);
        return -1;
    }
    sqlite3_finalize(s);
    return 0;
}

int store_sim_span(Store *st, int64_t *first, int64_t *end, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT min(submit), max(submit) FROM jobs WHERE final = 1 AND "
                           "start IS NOT NULL AND elapsed >= 0 AND start >= submit",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "jobs");
    int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) {
        sqlrow_err(db, err, "jobs");
        sqlite3_finalize(s);
        return -1;
    }
    int none = sqlite3_column_type(s, 0) == SQLITE_NULL;
    *first = sqlite3_column_int64(s, 0);
    *end = sqlite3_column_int64(s, 1) + 1;
    sqlite3_finalize(s);
    return none;
}

int store_sim_count(Store *st, int64_t from, int64_t to, int64_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM jobs WHERE final = 1 AND start IS NOT NULL AND "
                           "elapsed >= 0 AND start >= submit AND submit >= ?1 AND submit < ?2",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "jobs");
    sqlite3_bind_int64(s, 1, from);
    sqlite3_bind_int64(s, 2, to);
    int rc = sqlite3_step(s) == SQLITE_ROW ? 0 : sqlrow_err(db, err, "jobs");
    if (rc == 0)
        *n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc;
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void store_sim_free(StoreSimJobs *j)
{
    free(j->v);
    free_names(j->clusters, j->nclusters);
    free_names(j->groups, j->ngroups);
    free_names(j->models, j->nmodels);
    free(j->part);
    free_names(j->parts, j->nparts);
    memset(j, 0, sizeof *j);
}
