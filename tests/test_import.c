/* The whole import pipeline into a real SQLite database: dedupe, attempts,
 * updates, strict rollback, materialised usage, and a kill -9 mid-import.
 * Expected figures were computed with python3 over the same files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/ingest/import.h"
#include "data/store/store.h"
#include "data/store/store_schema.h"
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

static int import_path(Store *st, const char *path, const char *fields, int strict,
                       ImportResult *res, CpErr *err)
{
    ImportOpts o;
    import_opts_init(&o);
    o.fields = fields;
    o.strict = strict;
    return import_sacct(st, path, &o, res, err);
}

static int import_text(Store *st, const char *text, int strict, ImportResult *res, CpErr *err)
{
    ImportOpts o;
    import_opts_init(&o);
    o.strict = strict;
    return tu_import_text(st, "sacct", text, strlen(text), &o, res, err, NULL, 0);
}

/* text imported as a bulk load whatever its size (import_opts_init leaves
 * files under 8 MiB in WAL mode). */
static int import_bulk(Store *st, const char *text, ImportResult *res, CpErr *err)
{
    ImportOpts o;
    import_opts_init(&o);
    o.bulk_min_bytes = 1;
    return tu_import_text(st, "sacct", text, strlen(text), &o, res, err, NULL, 0);
}

/* A NULL reads as 0 here (what sqlite3_column_double gives). */
static double real_of(Store *st, const char *sql, const char *arg)
{
    return tu_db_real(st, sql, arg, 0);
}

/* job_counts (schema v16) and what store_status reads from it agree with
 * the jobs table, counted independently here. */
static void assert_counts_kept(Store *st)
{
    StoreStatus ss;
    CpErr err;
    assert_int_equal(store_status(st, &ss, &err), 0);
    assert_int_equal(ss.jobs, store_scalar(st, "SELECT count(*) FROM jobs WHERE final=1"));
    assert_int_equal(ss.attempts, store_scalar(st, "SELECT count(*) FROM jobs"));
    if (ss.attempts > 0) {
        assert_int_equal(ss.first_submit,
                         store_scalar(st, "SELECT coalesce(min(submit), 0) FROM jobs WHERE submit > 0"));
        assert_int_equal(ss.last_submit,
                         store_scalar(st, "SELECT coalesce(max(submit), 0) FROM jobs"));
    }
    for (int i = 0; i < ss.nclusters; i++) {
        sqlite3_stmt *q;
        assert_int_equal(sqlite3_prepare_v2(store_db(st),
                                            "SELECT count(*) FROM jobs j JOIN clusters c ON "
                                            "c.id = j.cluster_id WHERE c.name = ?1 AND j.final = 1",
                                            -1, &q, NULL),
                         SQLITE_OK);
        sqlite3_bind_text(q, 1, ss.clusters[i].name, -1, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(q), SQLITE_ROW);
        assert_int_equal(ss.clusters[i].count, sqlite3_column_int64(q, 0));
        sqlite3_finalize(q);
    }
    assert_int_equal(ss.nclusters, store_scalar(st, "SELECT count(*) FROM clusters"));
    store_status_free(&ss);
    /* and the rows themselves, per cluster */
    assert_int_equal(store_scalar(st, "SELECT count(*) FROM (SELECT cluster_id, sum(final = 1) AS "
                                      "j, count(*) AS a FROM jobs GROUP BY cluster_id) x "
                                      "LEFT JOIN job_counts k USING (cluster_id) "
                                      "WHERE k.jobs IS NOT x.j OR k.attempts IS NOT x.a"),
                     0);
}

/* python3 over sacct_wide_D.psv: 19 attempts, 18 jobs, 2 PREEMPTED
 * attempts (18, and 19's first run), users per account lab-a 2, lab-b 2,
 * GPU-hours lab-a 0.0025 (job 6: 1 GPU x 9 s), lab-b 0.0016667 (job 8). */
static void test_attempts_and_usage(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, 1,
                                 &r, &err),
                     0);
    assert_int_equal(r.added, 19);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE final=1"), 18);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 19);
    assert_int_equal(store_scalar(d->st, "SELECT sum(preempted) FROM usage_month"), 2);
    assert_int_equal(store_scalar(d->st, "SELECT sum(jobs) FROM usage_month"), 18);
    assert_int_equal(store_scalar(d->st, "SELECT sum(attempts) FROM usage_month"), 19);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs WHERE job_id='19' AND final=1"),
                     CP_ST_COMPLETED);
    assert_float_equal(real_of(d->st,
                               "SELECT total(u.gpu_hours) FROM usage_month u JOIN accounts a "
                               "ON a.id=u.account_id WHERE a.name=?1",
                               "lab-a"),
                       9.0 / 3600, 1e-9);
    assert_float_equal(real_of(d->st,
                               "SELECT total(u.gpu_hours) FROM usage_month u JOIN accounts a "
                               "ON a.id=u.account_id WHERE a.name=?1",
                               "lab-b"),
                       6.0 / 3600, 1e-9);
    assert_int_equal(store_scalar(d->st, "SELECT count(DISTINCT user_id) FROM jobs j JOIN "
                                         "accounts a ON a.id=j.account_id WHERE a.name='lab-a'"),
                     2);
    /* re-importing the same file adds nothing */
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, 1,
                                 &r, &err),
                     0);
    assert_int_equal(r.added, 0);
    assert_int_equal(r.unchanged, 19);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 19);
    assert_int_equal(store_scalar(d->st, "SELECT sum(jobs) FROM usage_month"), 18);
    /* the default (no -D) capture has only the last run of 19: nothing new */
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide.psv"), NULL, 1,
                                 &r, &err),
                     0);
    assert_int_equal(r.added, 0);
    /* status's counts, kept at import (issue 20): 18 jobs, 19 attempts */
    StoreStatus ss;
    assert_int_equal(store_status(d->st, &ss, &err), 0);
    assert_int_equal(ss.jobs, 18);
    assert_int_equal(ss.attempts, 19);
    store_status_free(&ss);
    assert_counts_kept(d->st);
}

/* The earlier attempt arriving after the later one is not final. */
static void test_attempt_order(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide.psv"), NULL, 1,
                                 &r, &err),
                     0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE job_id='19'"), 1);
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, 1,
                                 &r, &err),
                     0);
    assert_int_equal(r.added, 1);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE job_id='19'"), 2);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs WHERE job_id='19' AND final=1"),
                     CP_ST_COMPLETED);
    assert_int_equal(store_scalar(d->st, "SELECT sum(jobs) FROM usage_month"), 18);
}

#define HDR "JobID|JobIDRaw|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES\n"

/* Seen RUNNING, then COMPLETED: one completed job, usage counted once. */
static void test_running_then_completed(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_text(d->st,
                                 HDR "7|7|ann|lab|gpu|RUNNING|2024-03-01T10:00:00|"
                                     "2024-03-01T10:00:00|Unknown|3600|gres/gpu=2\n",
                                 1, &r, &err),
                     0);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL), 2.0,
                       1e-9);
    assert_int_equal(import_text(d->st,
                                 HDR "7|7|ann|lab|gpu|COMPLETED|2024-03-01T10:00:00|"
                                     "2024-03-01T10:00:00|2024-03-01T14:00:00|14400|gres/gpu=2\n",
                                 1, &r, &err),
                     0);
    assert_int_equal(r.updated, 1);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 1);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs"), CP_ST_COMPLETED);
    assert_int_equal(store_scalar(d->st, "SELECT sum(jobs) FROM usage_month"), 1);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL), 8.0,
                       1e-9);
}

/* An array's pending tasks are one record 6_[2-4] with the raw id and
 * submit time of the task that runs last (9 here; 6_2 and 6_3 get raw ids 7
 * and 8 when they leave it). Once the tasks ran, 6_4 replaces the range's
 * record: three jobs, no range left; an older file listing the range again
 * changes nothing (as in tests/slurm/test_collect.sh against a real Slurm). */
static void test_array_pending_range(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    const char *pending = HDR "6_1|6|ann|lab|gpu|RUNNING|2024-03-01T10:00:00|"
                              "2024-03-01T10:00:05|Unknown|60|gres/gpu=1\n"
                              "6_[2-4]|9|ann|lab|gpu|PENDING|2024-03-01T10:00:00|"
                              "Unknown|Unknown|0|\n";
    assert_int_equal(import_text(d->st, pending, 1, &r, &err), 0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 2);
    assert_int_equal(import_text(d->st,
                                 HDR "6_1|6|ann|lab|gpu|COMPLETED|2024-03-01T10:00:00|"
                                     "2024-03-01T10:00:05|2024-03-01T11:00:05|3600|gres/gpu=1\n"
                                     "6_2|7|ann|lab|gpu|COMPLETED|2024-03-01T10:00:00|"
                                     "2024-03-01T11:00:05|2024-03-01T12:00:05|3600|gres/gpu=1\n"
                                     "6_3|8|ann|lab|gpu|FAILED|2024-03-01T10:00:00|"
                                     "2024-03-01T12:00:05|2024-03-01T12:10:05|600|gres/gpu=1\n"
                                     "6_4|9|ann|lab|gpu|COMPLETED|2024-03-01T10:00:00|"
                                     "2024-03-01T12:10:05|2024-03-01T13:10:05|3600|gres/gpu=1\n",
                                 1, &r, &err),
                     0);
    assert_int_equal(r.added, 2);   /* 6_2, 6_3 */
    assert_int_equal(r.updated, 2); /* 6_1 finished, 6_[2-4] became 6_4 */
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 4);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE instr(job_id, '[')"), 0);
    assert_int_equal(store_scalar(d->st, "SELECT sum(jobs) FROM usage_month"), 4);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL),
                       1 + 1 + 600.0 / 3600 + 1, 1e-9);
    assert_int_equal(import_text(d->st, pending, 1, &r, &err), 0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 4);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE instr(job_id, '[')"), 0);
}

/* An import writes its pages once under a rollback journal and leaves the
 * database in WAL mode; with another connection open (a dashboard reading
 * it) it stays in WAL mode, does not wait for the reader, and lands all the
 * same. */
static void test_bulk_journal(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    const char *job = HDR "11|11|ann|lab|gpu|COMPLETED|2024-03-01T10:00:00|"
                          "2024-03-01T10:00:00|2024-03-01T11:00:00|3600|gres/gpu=1\n";
    assert_int_equal(import_bulk(d->st, job, &r, &err), 0);
    sqlite3 *reader;
    assert_int_equal(sqlite3_open_v2(d->path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(reader, "PRAGMA journal_mode", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
    sqlite3_finalize(s);
    /* the reader in the middle of a read transaction */
    assert_int_equal(sqlite3_prepare_v2(reader, "SELECT id FROM jobs", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    const char *more = HDR "12|12|ann|lab|gpu|COMPLETED|2024-03-02T10:00:00|"
                           "2024-03-02T10:00:00|2024-03-02T11:00:00|3600|gres/gpu=2\n";
    assert_int_equal(import_bulk(d->st, more, &r, &err), 0);
    assert_int_equal(r.added, 1);
    sqlite3_finalize(s);
    sqlite3_close(reader);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 2);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL), 3.0,
                       1e-9);
}

/* A job crossing a month boundary is charged pro rata: 2 GPUs from Jan 31
 * 23:00 to Feb 1 01:00 -> 2 GPU-hours in each month; the wait (1 h) and
 * the job count go to the month it started. */
static void test_month_boundary(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_text(d->st,
                                 HDR "8|8|ann|lab|gpu|COMPLETED|2024-01-31T22:00:00|"
                                     "2024-01-31T23:00:00|2024-02-01T01:00:00|7200|gres/gpu=2\n",
                                 1, &r, &err),
                     0);
    assert_float_equal(real_of(d->st, "SELECT gpu_hours FROM usage_month WHERE month=202401",
                               NULL),
                       2.0, 1e-9);
    assert_float_equal(real_of(d->st, "SELECT gpu_hours FROM usage_month WHERE month=202402",
                               NULL),
                       2.0, 1e-9);
    assert_int_equal(store_scalar(d->st, "SELECT jobs FROM usage_month WHERE month=202401"), 1);
    assert_int_equal(store_scalar(d->st, "SELECT wait_s FROM usage_month WHERE month=202401"),
                     3600);
}

/* A fingerprint of everything the database holds. */
static uint64_t fingerprint(Store *st)
{
    static const char *const tables[] = {"jobs", "usage_month", "imports", "users",
                                         "accounts", "clusters", "partitions"};
    uint64_t h = 1469598103934665603ULL;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY 1,2", tables[t]);
        sqlite3_stmt *s;
        assert_int_equal(sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL), SQLITE_OK);
        while (sqlite3_step(s) == SQLITE_ROW)
            for (int c = 0; c < sqlite3_column_count(s); c++) {
                const unsigned char *v = sqlite3_column_text(s, c);
                for (; v && *v; v++)
                    h = (h ^ *v) * 1099511628211ULL;
                h = (h ^ 0xff) * 1099511628211ULL;
            }
        sqlite3_finalize(s);
    }
    return h;
}

static void test_strict_rolls_back(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, 1,
                                 &r, &err),
                     0);
    uint64_t before = fingerprint(d->st);
    const char *bad = HDR "70|70|ann|lab|gpu|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:00|"
                          "2024-01-01T01:00:00|3600|gres/gpu=1\n"
                          "71|71|ann|lab|gpu|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:00|"
                          "2024-01-01T01:00:00|36x0|gres/gpu=1\n";
    assert_int_equal(import_text(d->st, bad, 1, &r, &err), -1);
    assert_non_null(strstr(err.msg, ":3: field ElapsedRaw: bad integer '36x0'"));
    assert_true(fingerprint(d->st) == before);
    assert_counts_kept(d->st); /* a rolled back import's counts go with it */
    /* without --strict: the good row lands, the bad one is counted */
    assert_int_equal(import_text(d->st, bad, 0, &r, &err), 0);
    assert_int_equal(r.added, 1);
    assert_int_equal(r.rejected, 1);
    assert_true(fingerprint(d->st) != before);
}

/* python3 over pozidriv.head.log: CPU-hours (NCPUS x Elapsed) per account. */
static void test_xdmod_cpu_hours(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, tu_shared("data/sacct-pipe-xdmod/pozidriv.head.log"),
                                 "xdmod", 1, &r, &err),
                     0);
    assert_int_equal(r.added, 8659);
    static const struct {
        const char *account;
        double cpu_hours;
    } want[] = {{"calla", 21264.2811}, {"caste", 11206.6678}, {"balsh", 6016.8878},
                {"taifl", 20877.2586}, {"savwa", 2013.9667},  {"ibech", 138.4983},
                {"field", 481.4044}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_float_equal(real_of(d->st,
                                   "SELECT total(u.cpu_hours) FROM usage_month u JOIN accounts a "
                                   "ON a.id=u.account_id WHERE a.name=?1",
                                   want[i].account),
                           want[i].cpu_hours, 1e-3);
    assert_int_equal(store_scalar(d->st, "SELECT sum(preempted) FROM usage_month"), 70);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM users"), 18);
    assert_int_equal(store_scalar(d->st, "SELECT name='pozidriv' FROM clusters"), 1);
}

/* Import a generated 400,000-job file (40 MB) into d in another process
 * and kill -9 it once the file d->path + grows (a suffix: "-wal", or ""
 * for the database itself) passes 4 MB; d->st is closed then reopened. */
static void import_killed(TuDb *d, int strict, const char *grows)
{
    char *big = tu_temp_path(".psv");
    FILE *f = fopen(big, "w");
    fputs(HDR, f);
    for (int i = 0; i < 400000; i++)
        fprintf(f, "%d|%d|u%d|acct%d|gpu|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:10:00|"
                   "2024-01-01T01:00:00|3000|gres/gpu=1\n",
                i + 1000, i + 1000, i % 50, i % 7);
    fclose(f);
    store_close(d->st); /* alone on the database: a bulk load's rollback journal */
    d->st = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        CpErr e2;
        ImportResult r;
        Store *st = store_open(d->path, &e2);
        if (st)
            import_path(st, big, NULL, strict, &r, &e2);
        _exit(0);
    }
    /* wait until the import is under way, then kill it */
    char watch[1100];
    snprintf(watch, sizeof watch, "%s%s", d->path, grows);
    for (int i = 0; i < 1000; i++) {
        FILE *w = fopen(watch, "rb");
        long size = 0;
        if (w) {
            fseek(w, 0, SEEK_END);
            size = ftell(w);
            fclose(w);
        }
        if (size > 4 << 20)
            break;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status));
    unlink(big);
    free(big);
    CpErr err;
    d->st = store_open(d->path, &err);
    assert_non_null(d->st);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM pragma_integrity_check "
                                         "WHERE integrity_check='ok'"),
                     1);
}

/* kill -9 in the middle of an import: the database is as before that file. */
static void test_kill_during_import(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, 1,
                                 &r, &err),
                     0);
    uint64_t before = fingerprint(d->st);
    import_killed(d, 1, "-wal");
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 19);
    assert_true(fingerprint(d->st) == before);
    assert_counts_kept(d->st); /* a rolled back import's counts go with it */
}

/* kill -9 in the middle of a first bulk load, which runs without the
 * jobs_key index until its last attempt (issue 31, data/store/store_keys.h):
 * the database is as before, its index there. */
static void test_kill_during_first_load(void **state)
{
    TuDb *d = *state;
    import_killed(d, 0, ""); /* not strict: a bulk load, the database grows */
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM sqlite_master WHERE "
                                         "name='jobs_key' AND sql LIKE '%(cluster_id, job_raw)'"),
                     1);
}

/* ---- issue 14: what real sites export ---- */

/* A fixture of tests/fixtures/issue14 (tests run from the source tree). */
static const char *fixture(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "tests/fixtures/issue14/%s", name);
    return buf;
}

/* Every stored fact of every attempt and of usage_month, as text, without
 * the row ids and import ids an order of imports changes. Caller frees. */
static char *db_digest(Store *st)
{
    static const char *const sql[] = {
        "SELECT c.name, j.job_raw, j.submit, j.job_id, j.state, coalesce(j.state_raw,''), "
        "coalesce(j.start,''), coalesce(j.end_time,''), coalesce(j.elapsed,''), "
        "coalesce(j.nnodes,''), j.gpus, coalesce(j.req_mem_mib,''), "
        "coalesce(j.max_rss_mib,''), coalesce(j.nodelist,''), j.final, j.rec_hash, "
        "coalesce(u.name,''), coalesce(a.name,'') FROM jobs j JOIN clusters c "
        "ON c.id=j.cluster_id LEFT JOIN users u ON u.id=j.user_id LEFT JOIN accounts a "
        "ON a.id=j.account_id ORDER BY 1, 2, 3",
        "SELECT m.month, c.name, coalesce(a.name,''), coalesce(u.name,''), "
        "coalesce(p.name,''), sum(jobs), sum(attempts), sum(gpu_jobs), "
        "printf('%.6f', total(gpu_hours)), printf('%.6f', total(cpu_hours)), "
        "printf('%.1f', total(wait_s)), sum(waited), sum(preempted) FROM usage_month m "
        "JOIN clusters c ON c.id=m.cluster_id LEFT JOIN accounts a ON a.id=m.account_id "
        "LEFT JOIN users u ON u.id=m.user_id LEFT JOIN partitions p ON p.id=m.partition_id "
        "GROUP BY 1, 2, 3, 4, 5 HAVING sum(jobs)<>0 OR sum(attempts)<>0 ORDER BY 1, 2, 3, 4, 5",
    };
    CpBuf b;
    cpbuf_init(&b);
    for (size_t q = 0; q < 2; q++) {
        sqlite3_stmt *s;
        assert_int_equal(sqlite3_prepare_v2(store_db(st), sql[q], -1, &s, NULL), SQLITE_OK);
        while (sqlite3_step(s) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(s); c++) {
                const char *v = (const char *)sqlite3_column_text(s, c);
                cpbuf_append(&b, v ? v : "", v ? strlen(v) : 0);
                cpbuf_append(&b, "|", 1);
            }
            cpbuf_append(&b, "\n", 1);
        }
        sqlite3_finalize(s);
    }
    cpbuf_append(&b, "", 1);
    return b.data;
}

/* Import files[order[0..n-1]] into a new database; its digest. */
static char *import_in_order(const char *const *files, const int *order, int n)
{
    char *path = tu_temp_path(".db");
    CpErr err;
    Store *st = store_open(path, &err);
    assert_non_null(st);
    for (int i = 0; i < n; i++) {
        ImportResult r;
        assert_int_equal(import_path(st, files[order[i]], NULL, 1, &r, &err), 0);
    }
    /* and once more, every file: nothing changes */
    for (int i = 0; i < n; i++) {
        ImportResult r;
        assert_int_equal(import_path(st, files[order[i]], NULL, 1, &r, &err), 0);
        assert_int_equal(r.added + r.updated, 0);
    }
    char *dg = db_digest(st);
    store_close(st);
    tu_remove_db(path);
    free(path);
    return dg;
}

/* Next permutation of a[0..n-1] in lexicographic order; 0 after the last. */
static int next_perm(int *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

/* Every order of files gives one database; returns how many orders. */
static int same_in_every_order(const char *const *files, int n, char **digest)
{
    int order[8], orders = 0;
    for (int i = 0; i < n; i++)
        order[i] = i;
    *digest = NULL;
    do {
        char *dg = import_in_order(files, order, n);
        if (*digest) {
            assert_string_equal(dg, *digest);
            free(dg);
        } else {
            *digest = dg;
        }
        orders++;
    } while (next_perm(order, n));
    return orders;
}

/* Three daily `sacct -P` snapshots (the shape of ../shared/data/slurm-sandbox
 * sacct_wide*.psv: job rows and .batch steps, -D's requeued attempt) in all
 * 6 orders: one database. By hand over the fixtures: 101 COMPLETED 6 h x 2
 * GPUs with the MaxRSS only day 3 knows, 102 FAILED 6 h x 4 GPUs on 2
 * nodes, 103 RUNNING 49 h in its last snapshot but limited to 48 h (x 1
 * GPU), 104 COMPLETED 0.5 h, 105 REQUEUED after 5 h then COMPLETED in 3 h
 * (1 GPU, 2 CPUs): 5 jobs, 6 attempts, 92.5 GPU-h, 136.5 CPU-h. */
static void test_snapshots_any_order(void **state)
{
    TuDb *d = *state;
    char *f[3];
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "snap_day%d.psv", i + 1);
        f[i] = xstrdup(fixture(name));
    }
    char *digest;
    assert_int_equal(same_in_every_order((const char *const *)f, 3, &digest), 6);
    free(digest);
    /* the figures, in the newest-last order */
    ImportResult r;
    CpErr err;
    for (int i = 2; i >= 0; i--)
        assert_int_equal(import_path(d->st, f[i], NULL, 1, &r, &err), 0);
    for (int i = 0; i < 3; i++)
        free(f[i]);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE final=1"), 5);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 6);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs WHERE job_id='101'"),
                     CP_ST_COMPLETED);
    assert_float_equal(real_of(d->st, "SELECT max_rss_mib FROM jobs WHERE job_id='101'", NULL),
                       12000, 1e-9);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs WHERE job_id='102'"),
                     CP_ST_FAILED);
    assert_int_equal(store_scalar(d->st, "SELECT nnodes FROM jobs WHERE job_id='102'"), 2);
    assert_int_equal(store_scalar(d->st, "SELECT elapsed FROM jobs WHERE job_id='103'"), 172800);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs WHERE job_id='105' AND final=0"),
                     CP_ST_REQUEUED);
    assert_int_equal(store_scalar(d->st, "SELECT state FROM jobs WHERE job_id='105' AND final=1"),
                     CP_ST_COMPLETED);
    assert_int_equal(store_scalar(d->st, "SELECT sum(jobs) FROM usage_month"), 5);
    assert_int_equal(store_scalar(d->st, "SELECT sum(attempts) FROM usage_month"), 6);
    /* status from job_counts (issue 20): 5 jobs, 6 attempts, without a scan */
    StoreStatus ss;
    assert_int_equal(store_status(d->st, &ss, &err), 0);
    assert_int_equal(ss.jobs, 5);
    assert_int_equal(ss.attempts, 6);
    store_status_free(&ss);
    assert_counts_kept(d->st);
    /* the migration's fill gives the same rows from the jobs table */
    assert_int_equal(sqlite3_exec(store_db(d->st), "DROP TABLE job_counts", NULL, NULL, NULL),
                     SQLITE_OK);
    int mig = 0;
    while (mig < store_nmigrations && !strstr(store_migrations[mig], "TABLE job_counts"))
        mig++;
    assert_true(mig < store_nmigrations);
    assert_int_equal(sqlite3_exec(store_db(d->st), store_migrations[mig], NULL, NULL, NULL),
                     SQLITE_OK);
    assert_counts_kept(d->st);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL), 92.5,
                       1e-9);
    assert_float_equal(real_of(d->st, "SELECT total(cpu_hours) FROM usage_month", NULL), 136.5,
                       1e-9);
}

/* The five real `sacct --json` snapshots of mila (SARC, Slurm 25.05) in
 * all 120 orders: one database. python3 over the files: 7 + 7 + 7 + 8 + 7
 * job elements, 28 jobs (job id and submit time); 8, 12, 18 and 19 are seen
 * PENDING or RUNNING before COMPLETED; in the end 25 COMPLETED, 2 FAILED,
 * 1 CANCELLED and 35.788611 GPU-h (RUNNING snapshots beyond their time
 * limit cut to it). */
static void test_mila_snapshots_any_order(void **state)
{
    TuDb *d = *state;
    static const char *const names[] = {"1706227200", "1708819200", "1711411200", "1714003200",
                                        "1716595200"};
    char *f[5];
    for (int i = 0; i < 5; i++) {
        char rel[96];
        snprintf(rel, sizeof rel, "data/sacct-json-sarc/mila_%s.json", names[i]);
        f[i] = xstrdup(tu_shared(rel));
    }
    char *digest;
    assert_int_equal(same_in_every_order((const char *const *)f, 5, &digest), 120);
    free(digest);
    ImportResult r;
    CpErr err;
    for (int i = 4; i >= 0; i--)
        assert_int_equal(import_path(d->st, f[i], NULL, 1, &r, &err), 0);
    for (int i = 0; i < 5; i++)
        free(f[i]);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE final=1"), 28);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 28);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE state=4"), 25);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE state=5"), 2);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE state=6"), 1);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL),
                       35.788611, 1e-6);
}

/* A file imported without --strict; the rejected lines' messages, joined. */
typedef struct Rejects {
    char text[4096];
    int n;
} Rejects;

static void keep_reject(void *ctx, const char *msg)
{
    Rejects *r = ctx;
    size_t used = strlen(r->text);
    snprintf(r->text + used, sizeof r->text - used, "%s\n", msg);
    r->n++;
}

static int import_lenient(Store *st, const char *path, const char *fields, Rejects *rj,
                          ImportResult *res, CpErr *err)
{
    ImportOpts o;
    import_opts_init(&o);
    o.fields = fields;
    o.reject = keep_reject;
    o.reject_ctx = rj;
    memset(rj, 0, sizeof *rj);
    return import_sacct(st, path, &o, res, err);
}

/* A `sacct --json` snapshot in the shape of SARC's slurm_23_2_6.json (23.02):
 * a RUNNING job with end 0 and 100,000,000 s elapsed but a 7,200 min limit
 * runs 5 days (x 2 GPUs = 240 GPU-h); an end of 13798 (1970) is unknown and
 * the 1 h elapsed stands (1 GPU-h); a GPU count of 1e308 and an end before
 * the start are refused, each on its line. 241 GPU-h by hand. */
static void test_running_and_garbage_times(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    Rejects rj;
    assert_int_equal(import_lenient(d->st, fixture("running_garbage.json"), NULL, &rj, &r, &err),
                     0);
    assert_int_equal(r.added, 2);
    assert_int_equal(r.rejected, 2);
    assert_non_null(strstr(rj.text, "running_garbage.json:14: field tres.allocated: GPU count "
                                    "1e+308 above 4096 per job\n"));
    assert_non_null(strstr(rj.text, "running_garbage.json:19: field time.end: end "
                                    "2021-02-19T08:00:09 before start 2021-02-19T09:00:09\n"));
    assert_int_equal(store_scalar(d->st, "SELECT elapsed FROM jobs WHERE job_id='501'"), 432000);
    assert_int_equal(store_scalar(d->st, "SELECT end_time IS NULL FROM jobs WHERE job_id='502'"),
                     1);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL), 241,
                       1e-9);
    /* the real file: 83,853,331 s elapsed, 5 days of limit, 2 GPUs */
    assert_int_equal(import_path(d->st, tu_shared("data/sacct-json-sarc/slurm_23_2_6.json"), NULL,
                                 1, &r, &err),
                     0);
    assert_int_equal(store_scalar(d->st, "SELECT elapsed FROM jobs j JOIN users u ON "
                                         "u.id=j.user_id WHERE j.job_id='4' AND u.name<>'ann'"),
                     432000);
}

/* Open XDMoD's shredder shape (26 fields, no header, as pozidriv.head.log):
 * ReqMem 2147486648Mn (2^31 + 3000: 3000 MiB per CPU with Slurm's old flag)
 * beside ReqTRES mem=24000M keeps 24000 MiB and is flagged; without ReqTRES
 * mem it reads as 3000 MiB x 8 CPUs, flagged; 0n and 0c are unknown (0c
 * gives way to ReqTRES's 24000M); 3000Mc agrees; 48000Mn does not (flagged,
 * ReqTRES kept): 3 flagged, 5 x 24000 MiB, one unknown. */
static void test_bogus_memory(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, fixture("xdmod_reqmem.log"), "xdmod", 1, &r, &err), 0);
    assert_int_equal(r.added, 6);
    assert_int_equal(r.mem_conflicts, 3);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs WHERE req_mem_mib=24000"), 5);
    assert_int_equal(store_scalar(d->st, "SELECT req_mem_mib IS NULL FROM jobs WHERE job_id='303'"),
                     1);
    assert_int_equal(store_scalar(d->st, "SELECT max(req_mem_mib) FROM jobs"), 24000);
    /* the real log: 8,048 of 8,659 jobs carry the artefact; the requests
     * sum to ReqTRES's 234,774,200 MiB (awk over the file) */
    assert_int_equal(import_path(d->st, tu_shared("data/sacct-pipe-xdmod/pozidriv.head.log"),
                                 "xdmod", 1, &r, &err),
                     0);
    assert_int_equal(r.mem_conflicts, 8048);
    assert_float_equal(real_of(d->st,
                               "SELECT total(req_mem_mib) FROM jobs j JOIN clusters c ON "
                               "c.id=j.cluster_id WHERE c.name='pozidriv' AND job_raw > 1000",
                               NULL),
                       234774200.0, 1e-3);
}

/* A `sacct -P` export (header, as slurm-sandbox's) with a 308-digit GPU
 * count, a 309-digit one (not even a finite double), 4097 GPUs, 2 PiB of
 * memory, an 11-year time limit and an end before its start: each refused
 * on its line, the one good job kept; with --strict nothing is written. The
 * corrected file then imports whole: 7 jobs, 2 h each, 2+2+2+1+1+1+1 GPUs =
 * 20 GPU-h, every total finite. */
static void test_out_of_range(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    Rejects rj;
    assert_int_equal(import_path(d->st, fixture("out_of_range.psv"), NULL, 1, &r, &err), -1);
    assert_non_null(strstr(err.msg, "out_of_range.psv:2: field AllocTRES: GPU count 1e+308 "
                                    "above 4096 per job"));
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 0);
    assert_int_equal(import_lenient(d->st, fixture("out_of_range.psv"), NULL, &rj, &r, &err), 0);
    assert_int_equal(r.added, 1);
    assert_int_equal(r.rejected, 6);
    static const char *const want[] = {
        ":3: field AllocTRES: bad TRES count 'gres/gpu=999",
        ":4: field AllocTRES: GPU count 4097 above 4096 per job\n",
        ":5: field ReqMem: memory (MiB) 2.14748e+09 above 1 PiB\n",
        ":6: field Timelimit: duration 345600000 s above 10 years\n",
        ":7: field End: end 2024-03-01T08:00:00 before start 2024-03-01T10:00:00\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_non_null(strstr(rj.text, want[i]));
    assert_int_equal(import_path(d->st, fixture("out_of_range_fixed.psv"), NULL, 1, &r, &err), 0);
    assert_int_equal(r.added, 6);
    assert_int_equal(r.unchanged, 1);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 7);
    assert_float_equal(real_of(d->st, "SELECT total(gpu_hours) FROM usage_month", NULL), 20,
                       1e-9);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM usage_month WHERE "
                                         "gpu_hours > 1e300 OR gpu_hours < -1e300"),
                     0);
}

/* A header with AllocNodes (not NNodes), and steps away from their job, as
 * files cut or concatenated give them: 601.batch two rows after 601 and
 * 601.0 after 603, 603.batch before 603 -- all joined (peak RSS 601 50000
 * MiB, 603 3000 MiB); 999's two steps have no job: counted as orphans. */
static void test_alloc_nodes_and_orphan_steps(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, fixture("alloc_nodes_orphans.psv"), NULL, 1, &r, &err),
                     0);
    assert_int_equal(r.added, 3);
    assert_int_equal(r.orphan_steps, 2);
    assert_int_equal(store_scalar(d->st, "SELECT nnodes FROM jobs WHERE job_id='601'"), 4);
    assert_int_equal(store_scalar(d->st, "SELECT nnodes FROM jobs WHERE job_id='603'"), 2);
    assert_int_equal(store_scalar(d->st, "SELECT max_rss_mib FROM jobs WHERE job_id='601'"),
                     50000);
    assert_int_equal(store_scalar(d->st, "SELECT max_rss_mib FROM jobs WHERE job_id='603'"), 3000);
    assert_int_equal(store_scalar(d->st, "SELECT max_rss_mib IS NULL FROM jobs WHERE job_id='602'"),
                     1);
    assert_int_equal(import_path(d->st, fixture("alloc_nodes_orphans.psv"), NULL, 1, &r, &err),
                     0);
    assert_int_equal(r.unchanged, 3);
}

/* ---- the record's hash, computed on the reader's thread ---- */

/* Three job records as a reader gives them: one naming no cluster. */
static void three_records(CpJobRec r[3])
{
    static const char *const clusters[3] = {"", "alpha", "beta"};
    static const char *const ids[3] = {"101", "102", "103_4"};
    for (int i = 0; i < 3; i++) {
        jobrec_clear(&r[i]);
        r[i].cluster = clusters[i];
        r[i].job_id = ids[i];
        r[i].job_raw = 101 + i;
        r[i].user = i == 2 ? "bob" : "alice";
        r[i].account = "vision";
        r[i].partition = "gpu";
        r[i].job_name = "train";
        r[i].state = CP_ST_COMPLETED;
        r[i].state_raw = "COMPLETED";
        r[i].submit = 1700000000 + 100 * i;
        r[i].start = r[i].submit + 60;
        r[i].end = r[i].start + 3600 * (i + 1);
        r[i].elapsed = 3600 * (i + 1);
        r[i].ncpus = 8;
        r[i].gpus = 0.5 * (i + 1);
        snprintf(r[i].gpu_type, sizeof r[i].gpu_type, "%s", i ? "a100" : "");
    }
}

static int read_three(FILE *f, CpReadCtx *rc, const void *arg, char *fmt, size_t fmtsz,
                      CpErr *err)
{
    (void)f;
    (void)arg;
    snprintf(fmt, fmtsz, "three records");
    CpJobRec r[3];
    three_records(r);
    for (int i = 0; i < 3; i++)
        if (rc->sink.job(rc->sink.ctx, &r[i], err) < 0)
            return -1;
    return 0;
}

/* The rec_hash of row id (0: no row). */
static uint64_t stored_hash(Store *st, int64_t id)
{
    sqlite3_stmt *s;
    uint64_t h = 0;
    assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT rec_hash FROM jobs WHERE id = ?1",
                                        -1, &s, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(s, 1, id);
    if (sqlite3_step(s) == SQLITE_ROW)
        h = (uint64_t)sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return h;
}

/* The three records imported as kind (a trace given --cluster forces it)
 * into one new database, and put by store_job_put, without their hash,
 * into another: both hold the hash store_rec_hash gives each record with
 * the cluster it is stored under. */
static void hash_both_ways(const char *kind, const char *cluster)
{
    void *imported, *put;
    CpErr err;
    ImportResult res;
    ImportOpts o;
    CpJobRec r[3];
    StoreJobCounts counts = {0, 0, 0};
    int forced = cluster != NULL;
    three_records(r);
    assert_int_equal(tu_db_setup(&imported), 0);
    assert_int_equal(tu_db_setup(&put), 0);
    Store *a = ((TuDb *)imported)->st, *b = ((TuDb *)put)->st;
    import_opts_init(&o);
    o.cluster = cluster;
    assert_int_equal(import_jobs_with(a, kind, "/dev/null", &o, read_three, NULL, &res, &err), 0);
    assert_int_equal(res.added, 3);
    assert_int_equal(store_begin(b, &err), 0);
    int64_t imp = store_import_begin(b, "test", "three", "", &err);
    assert_true(imp > 0);
    for (int i = 0; i < 3; i++) {
        assert_true(r[i].rec_hash == 0);
        int rc = forced ? store_job_put_as(b, imp, cluster, &r[i], &counts, &err)
                        : store_job_put(b, imp, "default", &r[i], &counts, &err);
        assert_int_equal(rc, 0);
    }
    assert_int_equal(store_commit(b, &err), 0);
    for (int i = 0; i < 3; i++) {
        CpJobRec h = r[i];
        if (forced)
            h.cluster = cluster;
        uint64_t want = store_rec_hash(&h, "default");
        assert_true(want != 0);
        assert_true(stored_hash(a, i + 1) == want);
        assert_true(stored_hash(b, i + 1) == want);
    }
    /* the cluster is hashed: "default" or forced, "alpha" differ */
    assert_true(stored_hash(a, 1) != stored_hash(a, 2));
    tu_db_teardown(&imported);
    tu_db_teardown(&put);
}

/* An import hashes each record on its reader's thread (store_rec_hash)
 * and store_job_put keeps that hash: it is the one store_job_put computes
 * itself for a record that comes without it (the demo, a collect), also
 * with the cluster a trace's --cluster forces, so that a re-import by
 * either path finds the attempts unchanged. */
static void test_hash_on_reader_thread(void **state)
{
    (void)state;
    hash_both_ways("sacct", NULL);
    hash_both_ways("trace", "forced");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_attempts_and_usage, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_attempt_order, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_running_then_completed, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_array_pending_range, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_bulk_journal, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_month_boundary, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_strict_rolls_back, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_xdmod_cpu_hours, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_import, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_first_load, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_snapshots_any_order, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_mila_snapshots_any_order, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_running_and_garbage_times, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_bogus_memory, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_out_of_range, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_alloc_nodes_and_orphan_steps, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_hash_on_reader_thread, tu_db_setup, tu_db_teardown),
    };
    return cmocka_run_group_tests_name("import", tests, NULL, NULL);
}
