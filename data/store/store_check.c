/* store_check: PRAGMA integrity_check, then the materialised tables against
 * the jobs table, each recomputed in one SQL statement (see store.c's
 * usage_apply and schema v9 for what they hold). */
#include "data/store/store_check.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>

#include "data/store/sqlrow.h"
#include "core/jobrec.h"
#include "data/store/store.h"

#define MAX_INTEGRITY_LINES 20

typedef struct Say {
    void (*fn)(void *ctx, const char *line);
    void *ctx;
    int n;
} Say;

static void say(Say *s, const char *line)
{
    s->fn(s->ctx, line);
    s->n++;
}

static int integrity(sqlite3 *db, Say *s, int *corrupt, CpErr *err)
{
    sqlite3_stmt *st;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA integrity_check(%d)", MAX_INTEGRITY_LINES);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "integrity check");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (t && sqlite3_stricmp(t, "ok") != 0) {
            char line[512];
            snprintf(line, sizeof line, "integrity: %s", t);
            say(s, line);
            *corrupt = 1;
        }
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return 0;
    if ((sqlite3_errcode(db) & 0xff) == SQLITE_CORRUPT || (sqlite3_errcode(db) & 0xff) == SQLITE_NOTADB) {
        char line[512];
        snprintf(line, sizeof line, "integrity: %s", sqlite3_errmsg(db));
        say(s, line);
        *corrupt = 1;
        return 0;
    }
    return sqlrow_err(db, err, "integrity check");
}

/* One comparison: a statement giving (what the kept table holds, what the
 * jobs give); a problem when they differ by more than tol (relative). */
typedef struct Pair {
    const char *table, *what;
    const char *sql;
    double tol;
} Pair;

/* An attempt's run as usage_apply counts it. */
#define RUN_END "CASE WHEN elapsed >= 0 AND start IS NOT NULL THEN start + elapsed ELSE end_time END"
#define ANCHOR "coalesce(start, submit)"

static const Pair pairs[] = {
    {"usage_month", "jobs", "SELECT (SELECT total(jobs) FROM usage_month), "
             "(SELECT count(*) FROM jobs WHERE final = 1 AND " ANCHOR " > 0)", 0},
    {"usage_month", "attempts", "SELECT (SELECT total(attempts) FROM usage_month), "
                 "(SELECT count(*) FROM jobs WHERE " ANCHOR " > 0)", 0},
    {"usage_month", "GPU jobs", "SELECT (SELECT total(gpu_jobs) FROM usage_month), "
                 "(SELECT count(*) FROM jobs WHERE final = 1 AND gpus > 0 AND " ANCHOR " > 0)", 0},
    {"usage_month", "preempted attempts", "SELECT (SELECT total(preempted) FROM usage_month), "
                           "(SELECT count(*) FROM jobs WHERE state = ?1 AND " ANCHOR " > 0)", 0},
    {"usage_month", "GPU-hours", "SELECT (SELECT total(gpu_hours) FROM usage_month), "
                  "(SELECT total(gpus * (" RUN_END " - start)) / 3600.0 FROM jobs "
                  "WHERE start IS NOT NULL AND " ANCHOR " > 0 AND " RUN_END " > start)", 1e-6},
    {"usage_month", "CPU-hours", "SELECT (SELECT total(cpu_hours) FROM usage_month), "
                  "(SELECT total(max(coalesce(ncpus, 0), 0) * (" RUN_END " - start)) / 3600.0 "
                  "FROM jobs WHERE start IS NOT NULL AND " ANCHOR " > 0 AND " RUN_END " > start)",
     1e-6},
    /* schema v16 (issue 20): what status reads */
    {"job_counts", "jobs", "SELECT (SELECT total(jobs) FROM job_counts), "
                           "(SELECT count(*) FROM jobs WHERE final = 1)", 0},
    {"job_counts", "attempts", "SELECT (SELECT total(attempts) FROM job_counts), "
                               "(SELECT count(*) FROM jobs)", 0},
    {"job_counts", "first submission (epoch s)",
     "SELECT (SELECT min(first_submit) FROM job_counts), "
     "(SELECT min(submit) FROM jobs WHERE submit > 0)", 0},
    {"job_counts", "last submission (epoch s)",
     "SELECT (SELECT max(last_submit) FROM job_counts), (SELECT max(submit) FROM jobs)", 0},
};

static int compare(sqlite3 *db, const Pair *p, Say *s, CpErr *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, p->sql, -1, &st, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, p->what);
    if (sqlite3_bind_parameter_count(st) > 0)
        sqlite3_bind_int(st, 1, CP_ST_PREEMPTED);
    int rc = sqlite3_step(st);
    double kept = sqlite3_column_double(st, 0), jobs = sqlite3_column_double(st, 1);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return sqlrow_err(db, err, p->what);
    if (fabs(kept - jobs) > p->tol * fmax(1.0, fabs(jobs))) {
        char line[256];
        snprintf(line, sizeof line, "%s: %s %.6g, the jobs table gives %.6g", p->table, p->what,
                 kept, jobs);
        say(s, line);
    }
    return 0;
}

/* acct_window against the jobs, with schema v9's formula. */
static const char window_sql[] =
    "SELECT (SELECT lo FROM acct_window WHERE id = 1), (SELECT hi FROM acct_window WHERE id = 1), "
    "min(a), max(b) FROM (\n"
    "  SELECT CASE WHEN s32 > 0 THEN s32 WHEN st32 > 0 THEN st32 END AS a,\n"
    "         CASE WHEN st32 > 0 AND el >= 0 THEN st32 + el WHEN st32 > 0 THEN st32\n"
    "              WHEN s32 > 0 THEN s32 END AS b\n"
    "  FROM (SELECT CASE WHEN submit > 0 AND submit <= 4294967295 THEN submit ELSE 0 END AS s32,\n"
    "               CASE WHEN start > 0 AND start <= 4294967295 THEN start ELSE 0 END AS st32,\n"
    "               CASE WHEN elapsed IS NOT NULL THEN max(min(elapsed, 2147483647), -2147483648)\n"
    "                    WHEN start > 0 AND start <= 4294967295 AND end_time > 0\n"
    "                         AND end_time >= start THEN min(end_time - start, 2147483647)\n"
    "                    ELSE -1 END AS el FROM jobs))";

static int window(sqlite3 *db, Say *s, CpErr *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, window_sql, -1, &st, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "accounting window");
    int rc = sqlite3_step(st);
    int64_t v[4];
    for (int i = 0; i < 4; i++)
        v[i] = sqlite3_column_type(st, i) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, i);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return sqlrow_err(db, err, "accounting window");
    if (v[0] != v[2] || v[1] != v[3]) {
        char line[256];
        snprintf(line, sizeof line,
                 "acct_window: %lld..%lld (epoch s), the jobs table gives %lld..%lld",
                 (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3]);
        say(s, line);
    }
    return 0;
}

int store_check(Store *st, void (*fn)(void *ctx, const char *line), void *ctx, int *corrupt,
                CpErr *err)
{
    sqlite3 *db = store_db(st);
    Say s = {fn, ctx, 0};
    *corrupt = 0;
    if (integrity(db, &s, corrupt, err) < 0)
        return -1;
    if (*corrupt)
        return s.n;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "begin");
    int rc = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0] && rc == 0; i++)
        rc = compare(db, &pairs[i], &s, err);
    if (rc == 0)
        rc = window(db, &s, err);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return rc < 0 ? -1 : s.n;
}
