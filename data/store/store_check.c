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
#include "data/store/store_schema.h"

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

static int integrity(sqlite3 *db, int quick, Say *s, int *corrupt, CpErr *err)
{
    sqlite3_stmt *st;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA %s(%d)", quick ? "quick_check" : "integrity_check",
             MAX_INTEGRITY_LINES);
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

/* The kept tables' totals and the same figures recomputed from the jobs,
 * each side in one scan (a full check of 10M jobs reads the jobs table
 * once). The run of an attempt is counted as store.c's usage_apply counts
 * it: anchored at its start, else its submit time (> 0); started at its
 * start, else (a known length with no start: SWF's wait -1) at its submit;
 * ended at start + elapsed when the length is known, else at its end. */
#define ANCHOR "coalesce(start, submit)"
#define RUN_START "coalesce(start, CASE WHEN elapsed > 0 AND submit > 0 THEN submit END)"
#define RUN_END "CASE WHEN elapsed >= 0 THEN " RUN_START " + elapsed ELSE end_time END"
#define RUN_H "(" RUN_END " - " RUN_START ") / 3600.0"
#define COUNTED "(" ANCHOR " > 0 AND " RUN_START " IS NOT NULL AND " RUN_END " > " RUN_START ")"

enum { K_JOBS, K_ATTEMPTS, K_GPU_JOBS, K_PREEMPTED, K_GPU_H, K_CPU_H, K_CJOBS, K_CATTEMPTS,
       K_FIRST, K_LAST, K_N };

static const struct {
    const char *table, *what;
    double tol;
} figures[K_N] = {
    {"usage_month", "jobs", 0},
    {"usage_month", "attempts", 0},
    {"usage_month", "GPU jobs", 0},
    {"usage_month", "preempted attempts", 0},
    {"usage_month", "GPU-hours", 1e-6},
    {"usage_month", "CPU-hours", 1e-6},
    /* schema v16 (issue 20): what status reads */
    {"job_counts", "jobs", 0},
    {"job_counts", "attempts", 0},
    {"job_counts", "first submission (epoch s)", 0},
    {"job_counts", "last submission (epoch s)", 0},
};

static const char kept_sql[] =
    "SELECT total(jobs), total(attempts), total(gpu_jobs), total(preempted), total(gpu_hours), "
    "total(cpu_hours), (SELECT total(jobs) FROM job_counts), "
    "(SELECT total(attempts) FROM job_counts), (SELECT min(first_submit) FROM job_counts), "
    "(SELECT max(last_submit) FROM job_counts) FROM usage_month";

static const char jobs_sql[] =
    "SELECT total(final = 1 AND " ANCHOR " > 0), total(" ANCHOR " > 0), "
    "total(final = 1 AND gpus > 0 AND " ANCHOR " > 0), total(state = ?1 AND " ANCHOR " > 0), "
    "total(CASE WHEN " COUNTED " THEN gpus * " RUN_H " END), "
    "total(CASE WHEN " COUNTED " THEN max(coalesce(" STORE_CPUS_SQL ", 0), 0) * " RUN_H " END), "
    "total(final = 1), count(*), min(CASE WHEN submit > 0 THEN submit END), max(submit) "
    "FROM jobs";

static int totals(sqlite3 *db, const char *sql, double v[K_N], CpErr *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "check totals");
    if (sqlite3_bind_parameter_count(st) > 0)
        sqlite3_bind_int(st, 1, CP_ST_PREEMPTED);
    int rc = sqlite3_step(st);
    for (int i = 0; i < K_N; i++)
        v[i] = sqlite3_column_double(st, i); /* NULL (no rows) reads 0 */
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, "check totals");
}

static int compare(sqlite3 *db, Say *s, CpErr *err)
{
    double kept[K_N], jobs[K_N];
    if (totals(db, kept_sql, kept, err) < 0 || totals(db, jobs_sql, jobs, err) < 0)
        return -1;
    for (int i = 0; i < K_N; i++) {
        if (fabs(kept[i] - jobs[i]) <= figures[i].tol * fmax(1.0, fabs(jobs[i])))
            continue;
        char line[256];
        snprintf(line, sizeof line, "%s: %s %.17g, the jobs table gives %.17g",
                 figures[i].table, figures[i].what, kept[i], jobs[i]);
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
    return store_check_with(st, 0, fn, ctx, corrupt, err);
}

int store_check_with(Store *st, int quick, void (*fn)(void *ctx, const char *line), void *ctx,
                     int *corrupt, CpErr *err)
{
    sqlite3 *db = store_db(st);
    Say s = {fn, ctx, 0};
    *corrupt = 0;
    if (integrity(db, quick, &s, corrupt, err) < 0)
        return -1;
    if (*corrupt)
        return s.n;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "begin");
    int rc = compare(db, &s, err);
    if (rc == 0)
        rc = window(db, &s, err);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return rc < 0 ? -1 : s.n;
}
