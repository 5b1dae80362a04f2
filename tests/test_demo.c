/* test_demo: `capplan demo` builds what issue 3 describes. A small demo
 * (20,000 jobs, seed 7, history ending 2026-11-22) is built once through
 * demo_build, the entry point of the command, and the database is
 * questioned with SQL: groups, domains, five years, the dated roster,
 * inventory and events, each job pattern, preempted attempts and their
 * requeues, waits that follow the load and the events, publications,
 * meeting notes whose stated needs differ from the measured use. A second
 * build with the same options must give identical files and jobs; the
 * demo must refuse to replace what is not a capplan database. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/demo/demo.h"
#include "data/ingest/fields.h"
#include "data/store/store.h"

#define TEST_JOBS 20000
#define TEST_SEED 7

static char tmpdir[256];
static char db_a[300];
static Store *st;
static DemoSummary sum_a;

static DemoOpts test_opts(const char *db)
{
    DemoOpts o;
    demo_opts_init(&o);
    o.seed = TEST_SEED;
    o.jobs = TEST_JOBS;
    o.today = fields_epoch_of(2026, 11, 22, 0, 0, 0);
    o.db_path = db;
    return o;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/capplan-test-demo-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(db_a, sizeof db_a, "%s/a.db", tmpdir);
    DemoOpts o = test_opts(db_a);
    CpErr err;
    if (demo_build(&o, &sum_a, &err) < 0) {
        fprintf(stderr, "demo_build: %s\n", err.msg);
        return -1;
    }
    st = store_open(db_a, &err);
    return st ? 0 : -1;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            rm_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static int teardown(void **state)
{
    (void)state;
    store_close(st);
    rm_tree(tmpdir);
    return 0;
}

/* One number from SQL with printf-style text (numbers only, no data). */
static double q(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static double q(const char *fmt, ...)
{
    char sql[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    sqlite3_stmt *s;
    double v = -1;
    if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(store_db(st)));
        return -1;
    }
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return v;
}

static int64_t day(int y, int m, int d)
{
    return fields_epoch_of(y, m, d, 0, 0, 0);
}

/* Jobs whose state is st (the store's numbering of jobrec.h). */
static double state_count(CpState s)
{
    return q("SELECT count(*) FROM jobs WHERE state=%d", (int)s);
}

static void test_summary_and_imports(void **state)
{
    (void)state;
    assert_int_equal(sum_a.rejected, 0);
    assert_true(sum_a.jobs > TEST_JOBS * 8 / 10 && sum_a.jobs < TEST_JOBS * 12 / 10);
    assert_int_equal(sum_a.groups, 25);
    assert_int_equal(sum_a.domains, 6);
    assert_true(sum_a.files >= 15);
    assert_true(q("SELECT count(*) FROM jobs WHERE final=1") == (double)sum_a.jobs);
    assert_true(q("SELECT count(*) FROM jobs") == (double)sum_a.attempts);
    assert_true(q("SELECT count(*) FROM imports WHERE kind='sacct' AND format LIKE "
                  "'sacct-json%%'") == 1);
    assert_true(q("SELECT count(*) FROM imports WHERE kind='sacct' AND format LIKE "
                  "'sacct-text%%'") >= 10);
    assert_true(q("SELECT count(*) FROM imports WHERE kind IN ('roster','inventory','events',"
                  "'pubs','gpu-metrics')") == 5);
    assert_true(q("SELECT total(rows_rejected) FROM imports") == 0);
}

static void test_groups_domains_roster(void **state)
{
    (void)state;
    assert_true(q("SELECT count(*) FROM groups") == 25);
    assert_true(q("SELECT count(DISTINCT domain) FROM groups") == 6);
    assert_true(q("SELECT count(*) FROM groups WHERE professor IS NOT NULL") == 25);
    assert_true(q("SELECT count(*) FROM people WHERE role='professor'") == 25);
    assert_true(q("SELECT count(*) FROM people WHERE role='postdoc'") >= 10);
    assert_true(q("SELECT count(*) FROM people WHERE role='staff'") >= 2);
    /* students arrive and graduate inside the history */
    assert_true(q("SELECT count(*) FROM people WHERE role LIKE '%%student' AND "
                  "start_date > '2021-11-22'") >= 100);
    assert_true(q("SELECT count(*) FROM people WHERE role='phd-student' AND "
                  "end_date BETWEEN '2021-11-22' AND '2026-11-21'") >= 30);
    /* current students have their expected end in the future */
    assert_true(q("SELECT count(*) FROM people WHERE role LIKE '%%student' AND "
                  "end_date > '2026-11-22'") >= 60);
    /* groups that start: professors arriving during the history */
    assert_true(q("SELECT count(*) FROM people WHERE role='professor' AND "
                  "start_date > '2021-11-22'") == 3);
    /* an MSc who goes on to a PhD in the same group: two roster lines */
    assert_true(q("SELECT count(*) FROM (SELECT user FROM people GROUP BY user "
                  "HAVING count(*) > 1)") >= 1);
}

static void test_five_years(void **state)
{
    (void)state;
    int64_t t0 = day(2021, 11, 22), today = day(2026, 11, 22);
    assert_true(q("SELECT min(submit) FROM jobs") >= (double)t0);
    assert_true(q("SELECT min(submit) FROM jobs") < (double)(t0 + 7 * 86400));
    assert_true(q("SELECT max(submit) FROM jobs") < (double)today);
    assert_true(q("SELECT max(submit) FROM jobs") > (double)(today - 3 * 86400));
    assert_true(q("SELECT count(DISTINCT strftime('%%Y', submit, 'unixepoch')) FROM jobs") == 6);
    /* jobs still running today have no end (End Unknown) */
    assert_true(q("SELECT count(*) FROM jobs WHERE state=%d AND end_time IS NOT NULL",
                  (int)CP_ST_RUNNING) == 0);
}

static void test_inventory_and_events(void **state)
{
    (void)state;
    assert_true(q("SELECT count(DISTINCT cluster) FROM inventory") == 3);
    assert_true(q("SELECT count(DISTINCT gpu_mem_gib) FROM inventory") == 3);
    assert_true(q("SELECT count(*) FROM inventory WHERE gpu_mem_gib=16") >= 1);
    assert_true(q("SELECT count(*) FROM inventory WHERE gpu_mem_gib=48") >= 1);
    assert_true(q("SELECT count(*) FROM inventory WHERE gpu_mem_gib=80") >= 1);
    /* the inventory changes: a retired part, an allocation cut */
    assert_true(q("SELECT count(*) FROM inventory WHERE to_date IS NOT NULL") >= 2);
    assert_true(q("SELECT count(*) FROM events") >= 4);
    assert_true(q("SELECT count(*) FROM events WHERE label LIKE '%%upgrade%%'") == 1);
    assert_true(q("SELECT count(*) FROM events WHERE label LIKE '%%allocation change%%'") == 1);
    assert_true(q("SELECT count(DISTINCT gpu_type) FROM jobs WHERE gpus > 0") == 5);
}

static void test_job_patterns(void **state)
{
    (void)state;
    /* multi-GPU long training */
    assert_true(q("SELECT count(*) FROM jobs WHERE gpus=8 AND elapsed > 86400") >= 10);
    /* GPU counts 1/2/4/8, mostly one GPU (Philly: 93 %) */
    for (int g = 1; g <= 8; g *= 2)
        assert_true(q("SELECT count(*) FROM jobs WHERE gpus=%d", g) > 0);
    double one = q("SELECT count(*) FROM jobs WHERE gpus=1");
    double any = q("SELECT count(*) FROM jobs WHERE gpus>0");
    assert_true(one / any > 0.8);
    /* HPO bursts: arrays of many short one-GPU jobs submitted at once */
    assert_true(q("SELECT count(*) FROM (SELECT array_job FROM jobs WHERE gpus=1 AND "
                  "array_job IS NOT NULL AND elapsed < 7200 GROUP BY cluster_id, array_job "
                  "HAVING count(*) >= 20 AND count(DISTINCT submit) <= 3)") >= 5);
    /* CPU-only work on the GPU partitions */
    assert_true(q("SELECT count(*) FROM jobs j JOIN partitions p ON p.id=j.partition_id "
                  "WHERE j.gpus=0 AND p.name IN ('gpu','preempt')") >= 100);
    /* large-memory models, and light notebooks */
    assert_true(q("SELECT count(*) FROM jobs WHERE gpu_mem_gib > 48") >= 50);
    assert_true(q("SELECT count(*) FROM jobs j JOIN partitions p ON p.id=j.partition_id "
                  "WHERE p.name='interactive' AND j.gpu_mem_gib < 12") >= 100);
    /* heavy-tailed durations */
    double n1 = q("SELECT count(*) FROM jobs WHERE gpus=1 AND elapsed IS NOT NULL");
    double p50 = q("SELECT elapsed FROM jobs WHERE gpus=1 AND elapsed IS NOT NULL "
                   "ORDER BY elapsed LIMIT 1 OFFSET %d", (int)(n1 * 0.5));
    double p99 = q("SELECT elapsed FROM jobs WHERE gpus=1 AND elapsed IS NOT NULL "
                   "ORDER BY elapsed LIMIT 1 OFFSET %d", (int)(n1 * 0.99));
    assert_true(p99 > 20 * p50);
    /* GPU memory: known, unknown (never zero) where not recorded */
    assert_true(q("SELECT count(*) FROM jobs WHERE gpus > 0 AND gpu_mem_gib IS NULL") > 0);
    assert_true(q("SELECT count(*) FROM jobs WHERE gpu_mem_gib = 0") == 0);
    assert_true(q("SELECT count(*) FROM jobs WHERE gpu_mem_source = 2") > 0);
}

static void test_outcomes_and_idle(void **state)
{
    (void)state;
    assert_true(state_count(CP_ST_COMPLETED) > 0.5 * q("SELECT count(*) FROM jobs"));
    assert_true(state_count(CP_ST_FAILED) >= 100);
    assert_true(state_count(CP_ST_TIMEOUT) >= 100);
    assert_true(state_count(CP_ST_CANCELLED) >= 100);
    assert_true(state_count(CP_ST_OUT_OF_MEMORY) >= 5);
    assert_true(q("SELECT count(*) FROM jobs WHERE state_raw LIKE 'CANCELLED by %%'") >= 100);
    /* a few groups hold GPUs idle */
    assert_true(q("SELECT count(*) FROM (SELECT account_id FROM jobs WHERE gpus > 0 "
                  "GROUP BY account_id HAVING avg(gpu_util) < 25)") >= 2);
}

static void test_preemption(void **state)
{
    (void)state;
    double preempted = state_count(CP_ST_PREEMPTED);
    assert_true(preempted >= 50);
    assert_true(preempted == (double)sum_a.preempted);
    /* every preempted attempt has a later attempt of the same job */
    assert_true(q("SELECT count(*) FROM jobs a WHERE a.state=%d AND NOT EXISTS (SELECT 1 FROM "
                  "jobs b WHERE b.cluster_id=a.cluster_id AND b.job_raw=a.job_raw AND "
                  "b.submit > a.submit)",
                  (int)CP_ST_PREEMPTED) == 0);
    assert_true(q("SELECT count(*) FROM jobs WHERE state=%d AND final=1",
                  (int)CP_ST_PREEMPTED) == 0);
    /* preemption happens on the low-priority partition only */
    assert_true(q("SELECT count(*) FROM jobs j JOIN partitions p ON p.id=j.partition_id "
                  "WHERE j.state=%d AND p.name <> 'preempt'",
                  (int)CP_ST_PREEMPTED) == 0);
}

/* Mean wait (h) of GPU jobs on cluster c submitted in [lo, hi). */
static double mean_wait(const char *c, int64_t lo, int64_t hi)
{
    return q("SELECT avg(j.start - j.submit) / 3600.0 FROM jobs j JOIN clusters c ON "
             "c.id=j.cluster_id WHERE c.name='%s' AND j.gpus > 0 AND j.start IS NOT NULL "
             "AND j.submit >= %lld AND j.submit < %lld",
             c, (long long)lo, (long long)hi);
}

typedef struct MonthLoad {
    double gpu_hours, wait;
} MonthLoad;

static int by_load(const void *a, const void *b)
{
    double x = ((const MonthLoad *)a)->gpu_hours, y = ((const MonthLoad *)b)->gpu_hours;
    return x < y ? -1 : x > y;
}

/* On atlas before its upgrade (constant capacity), the busiest third of
 * the months has longer waits than the quietest third. */
static void test_waits_follow_load(void **state)
{
    (void)state;
    sqlite3_stmt *s;
    const char *sql =
        "SELECT strftime('%Y%m', j.start, 'unixepoch') m, sum(j.gpus * j.elapsed) / 3600.0, "
        "avg(j.start - j.submit) / 3600.0 FROM jobs j JOIN clusters c ON c.id=j.cluster_id "
        "WHERE c.name='atlas' AND j.gpus > 0 AND j.start >= ?1 AND j.start < "
        "(SELECT strftime('%s', date) FROM events WHERE label LIKE '%upgrade%') GROUP BY m";
    assert_int_equal(sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL), SQLITE_OK);
    sqlite3_bind_int64(s, 1, day(2021, 12, 1));
    MonthLoad m[64];
    int n = 0;
    while (sqlite3_step(s) == SQLITE_ROW && n < 64) {
        m[n].gpu_hours = sqlite3_column_double(s, 1);
        m[n].wait = sqlite3_column_double(s, 2);
        n++;
    }
    sqlite3_finalize(s);
    assert_true(n >= 20);
    qsort(m, (size_t)n, sizeof m[0], by_load);
    double low = 0, high = 0;
    int third = n / 3;
    for (int i = 0; i < third; i++) {
        low += m[i].wait / third;
        high += m[n - 1 - i].wait / third;
    }
    assert_true(high > 2 * low);
}

/* The events show: waits on atlas fall after its upgrade, waits on the
 * national cluster rise after its allocation is cut. */
static void test_event_effects(void **state)
{
    (void)state;
    int64_t up = (int64_t)q("SELECT strftime('%%s', date) FROM events WHERE label LIKE "
                            "'%%upgrade%%'");
    int64_t cut = (int64_t)q("SELECT strftime('%%s', date) FROM events WHERE label LIKE "
                             "'%%allocation change%%'");
    int64_t quarter = 91 * 86400;
    assert_true(up > day(2023, 1, 1) && cut > up);
    assert_true(mean_wait("atlas", up - quarter, up) > 2 * mean_wait("atlas", up + 30 * 86400,
                                                                    up + 30 * 86400 + quarter));
    assert_true(mean_wait("cirrus", cut, cut + 2 * quarter) >
                2 * mean_wait("cirrus", cut - 2 * quarter, cut));
}

static void test_pubs_notes_needs(void **state)
{
    (void)state;
    assert_true(q("SELECT count(*) FROM pubs") >= 200);
    assert_true(q("SELECT count(DISTINCT year) FROM pubs") == 6);
    assert_true(q("SELECT count(DISTINCT domain) FROM pubs") == 6);
    assert_true(q("SELECT count(*) FROM pubs p WHERE NOT EXISTS (SELECT 1 FROM groups g "
                  "WHERE g.name=p.group_name)") == 0);
    assert_true(q("SELECT count(*) FROM notes") >= 6);
    assert_true(q("SELECT count(DISTINCT group_name) FROM stated_needs") == 6);
    assert_true(q("SELECT count(*) FROM stated_needs") >= 12);
    /* someone says several times what they used over the last year */
    assert_true(q("SELECT count(*) FROM stated_needs n WHERE n.gpus_fulltime > 3 * (SELECT "
                  "total(j.gpus * j.elapsed) / (365 * 86400.0) FROM jobs j JOIN users u ON "
                  "u.id=j.user_id WHERE u.name=n.user AND j.start >= %lld)",
                  (long long)(day(2026, 11, 22) - 365 * 86400)) >= 3);
    /* and somebody's statement is close to it */
    assert_true(q("SELECT count(*) FROM stated_needs n WHERE abs(n.gpus_fulltime - (SELECT "
                  "total(j.gpus * j.elapsed) / (365 * 86400.0) FROM jobs j JOIN users u ON "
                  "u.id=j.user_id WHERE u.name=n.user AND j.start >= %lld)) < 0.2",
                  (long long)(day(2026, 11, 22) - 365 * 86400)) >= 3);
}

/* FNV-1a over every column of every job, in key order. */
static uint64_t jobs_checksum(sqlite3 *db)
{
    sqlite3_stmt *s;
    uint64_t h = 1469598103934665603ULL;
    if (sqlite3_prepare_v2(db, "SELECT * FROM jobs ORDER BY cluster_id, job_raw, submit", -1, &s,
                           NULL) != SQLITE_OK)
        return 0;
    while (sqlite3_step(s) == SQLITE_ROW)
        for (int c = 0; c < sqlite3_column_count(s); c++) {
            const unsigned char *t = sqlite3_column_text(s, c);
            for (; t && *t; t++)
                h = (h ^ *t) * 1099511628211ULL;
            h = (h ^ 0xff) * 1099511628211ULL;
        }
    sqlite3_finalize(s);
    return h;
}

static uint64_t file_checksum(const char *path, uint64_t h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ (unsigned char)buf[i]) * 1099511628211ULL;
    fclose(f);
    return h;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names and contents of every file of dir, in name order. */
static uint64_t dir_checksum(const char *dir)
{
    char *names[64];
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 64)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        h = file_checksum(path, h ^ (uint64_t)strlen(names[i]));
        free(names[i]);
    }
    return n ? h : 0;
}

static void test_same_seed_same_database(void **state)
{
    (void)state;
    char db_b[300], dir_a[320], dir_b[320];
    snprintf(db_b, sizeof db_b, "%s/b.db", tmpdir);
    DemoOpts o = test_opts(db_b);
    DemoSummary sum_b;
    CpErr err;
    assert_int_equal(demo_build(&o, &sum_b, &err), 0);
    CpErr e2;
    Store *sb = store_open(db_b, &e2);
    assert_non_null(sb);
    uint64_t ha = jobs_checksum(store_db(st)), hb = jobs_checksum(store_db(sb));
    store_close(sb);
    assert_true(ha != 0);
    assert_true(ha == hb);
    snprintf(dir_a, sizeof dir_a, "%s.demo-input", db_a);
    snprintf(dir_b, sizeof dir_b, "%s.demo-input", db_b);
    uint64_t fa = dir_checksum(dir_a), fb = dir_checksum(dir_b);
    assert_true(fa != 0 && fa == fb);
    assert_int_equal(sum_b.jobs, sum_a.jobs);
    assert_int_equal(sum_b.bytes, sum_a.bytes);
    /* another seed, another institute */
    o.seed = TEST_SEED + 1;
    assert_int_equal(demo_build(&o, &sum_b, &err), 0);
    sb = store_open(db_b, &e2);
    assert_non_null(sb);
    assert_true(jobs_checksum(store_db(sb)) != ha);
    store_close(sb);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_refuses_foreign_files(void **state)
{
    (void)state;
    char path[300], dir[300], other[320];
    CpErr err;
    /* a database path holding something else is left alone */
    snprintf(path, sizeof path, "%s/notes.db", tmpdir);
    write_text(path, "my notes, not a database\n");
    DemoOpts o = test_opts(path);
    o.jobs = 1000;
    assert_int_equal(demo_build(&o, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "not a capplan database"));
    assert_true(access(path, F_OK) == 0);
    /* a folder that is not a demo folder is not emptied */
    snprintf(path, sizeof path, "%s/c.db", tmpdir);
    snprintf(dir, sizeof dir, "%s/mine", tmpdir);
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(other, sizeof other, "%s/roster.csv", dir);
    write_text(other, "user,group\n");
    o = test_opts(path);
    o.jobs = 1000;
    o.dir = dir;
    assert_int_equal(demo_build(&o, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "not a demo folder"));
    assert_true(access(other, F_OK) == 0);
    /* bad sizes are refused */
    o = test_opts(path);
    o.jobs = 10;
    assert_int_equal(demo_build(&o, NULL, &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_and_imports),
        cmocka_unit_test(test_groups_domains_roster),
        cmocka_unit_test(test_five_years),
        cmocka_unit_test(test_inventory_and_events),
        cmocka_unit_test(test_job_patterns),
        cmocka_unit_test(test_outcomes_and_idle),
        cmocka_unit_test(test_preemption),
        cmocka_unit_test(test_waits_follow_load),
        cmocka_unit_test(test_event_effects),
        cmocka_unit_test(test_pubs_notes_needs),
        cmocka_unit_test(test_same_seed_same_database),
        cmocka_unit_test(test_refuses_foreign_files),
    };
    return cmocka_run_group_tests_name("demo", tests, setup, teardown);
}
