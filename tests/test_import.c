/* The whole import pipeline into a real SQLite database: dedupe, attempts,
 * updates, strict rollback, materialised usage, and a kill -9 mid-import.
 * Expected figures were computed with python3 over the same files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/import.h"
#include "data/store.h"
#include "tests/lib/testutil.h"

typedef struct Db {
    char *path;
    Store *st;
} Db;

static int db_setup(void **state)
{
    Db *d = calloc(1, sizeof *d);
    d->path = tu_temp_path(".db");
    CpErr err;
    d->st = store_open(d->path, &err);
    assert_non_null(d->st);
    *state = d;
    return 0;
}

static int db_teardown(void **state)
{
    Db *d = *state;
    store_close(d->st);
    tu_remove_db(d->path);
    free(d->path);
    free(d);
    return 0;
}

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
    char *p = tu_write_temp(text, strlen(text));
    int rc = import_path(st, p, NULL, strict, res, err);
    unlink(p);
    free(p);
    return rc;
}

/* text imported as a bulk load whatever its size (import_opts_init leaves
 * files under 8 MiB in WAL mode). */
static int import_bulk(Store *st, const char *text, ImportResult *res, CpErr *err)
{
    char *p = tu_write_temp(text, strlen(text));
    ImportOpts o;
    import_opts_init(&o);
    o.bulk_min_bytes = 1;
    int rc = import_sacct(st, p, &o, res, err);
    unlink(p);
    free(p);
    return rc;
}

static double real_of(Store *st, const char *sql, const char *arg)
{
    sqlite3_stmt *s;
    double v = -1;
    assert_int_equal(sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL), SQLITE_OK);
    if (arg)
        sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return v;
}

/* python3 over sacct_wide_D.psv: 19 attempts, 18 jobs, 2 PREEMPTED
 * attempts (18, and 19's first run), users per account lab-a 2, lab-b 2,
 * GPU-hours lab-a 0.0025 (job 6: 1 GPU x 9 s), lab-b 0.0016667 (job 8). */
static void test_attempts_and_usage(void **state)
{
    Db *d = *state;
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
}

/* The earlier attempt arriving after the later one is not final. */
static void test_attempt_order(void **state)
{
    Db *d = *state;
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
    Db *d = *state;
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
    Db *d = *state;
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
    Db *d = *state;
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
    Db *d = *state;
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
    Db *d = *state;
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
    /* without --strict: the good row lands, the bad one is counted */
    assert_int_equal(import_text(d->st, bad, 0, &r, &err), 0);
    assert_int_equal(r.added, 1);
    assert_int_equal(r.rejected, 1);
    assert_true(fingerprint(d->st) != before);
}

/* python3 over pozidriv.head.log: CPU-hours (NCPUS x Elapsed) per account. */
static void test_xdmod_cpu_hours(void **state)
{
    Db *d = *state;
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

/* kill -9 in the middle of an import: the database is as before that file. */
static void test_kill_during_import(void **state)
{
    Db *d = *state;
    ImportResult r;
    CpErr err;
    assert_int_equal(import_path(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, 1,
                                 &r, &err),
                     0);
    uint64_t before = fingerprint(d->st);
    char *big = tu_temp_path(".psv");
    FILE *f = fopen(big, "w");
    fputs(HDR, f);
    for (int i = 0; i < 400000; i++)
        fprintf(f, "%d|%d|u%d|acct%d|gpu|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:10:00|"
                   "2024-01-01T01:00:00|3000|gres/gpu=1\n",
                i + 1000, i + 1000, i % 50, i % 7);
    fclose(f);
    pid_t pid = fork();
    if (pid == 0) {
        CpErr e2;
        Store *st = store_open(d->path, &e2);
        if (st)
            import_path(st, big, NULL, 1, &r, &e2);
        _exit(0);
    }
    /* wait until the import is under way (the WAL grows), then kill it */
    char wal[1100];
    snprintf(wal, sizeof wal, "%s-wal", d->path);
    for (int i = 0; i < 400; i++) {
        FILE *w = fopen(wal, "rb");
        long size = 0;
        if (w) {
            fseek(w, 0, SEEK_END);
            size = ftell(w);
            fclose(w);
        }
        if (size > 4 << 20)
            break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status));
    unlink(big);
    free(big);
    store_close(d->st);
    d->st = store_open(d->path, &err);
    assert_non_null(d->st);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM jobs"), 19);
    assert_true(fingerprint(d->st) == before);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM pragma_integrity_check "
                                         "WHERE integrity_check='ok'"),
                     1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_attempts_and_usage, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_attempt_order, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_running_then_completed, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_array_pending_range, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_bulk_journal, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_month_boundary, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_strict_rolls_back, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_xdmod_cpu_hours, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_import, db_setup, db_teardown),
    };
    return cmocka_run_group_tests_name("import", tests, NULL, NULL);
}
