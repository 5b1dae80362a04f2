/* core/stats and data/store_stats over small fixtures imported through the
 * real import path (sacct text, inventory, roster, GPU metrics, events,
 * publications), with every expected figure computed by hand below; the
 * pure building blocks (quantiles, capacity, calendar); the cache; and a
 * real file of ../shared/data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/stats.h"
#include "data/ingest/fields.h"
#include "data/ingest/import.h"
#include "data/ingest/pubs.h"
#include "data/store/store.h"
#include "data/store/store_stats.h"
#include "data/store/store_tui.h"
#include "tests/lib/testutil.h"

/* ---- the fixture ----
 *
 * Cluster c1: 4 A100 (80 GB) 2024-01-01..2024-01-15, then 8 from
 * 2024-01-16 (a capacity change mid-month); cluster c2: 2 L40S (48 GB)
 * from 2024-01-01, never used. The accounting covers exactly
 * [2024-01-01 00:00, 2024-03-01 00:00): J0 is submitted at its start, J6
 * ends at its end. All times UTC.
 *
 *  J0 100 ann  cpu      0 GPU 4 CPU  Jan 1 00:00-01:00, limit 4 h, TotalCPU 2 h, 8G asked, 2G used
 *  J1 101 ann  gpu      2 GPU 8 CPU  submit Jan 31 20:00, run Jan 31 22:00 - Feb 1 02:00 (month
 * boundary) J2 102 bob  preempt  1 GPU 2 CPU  Jan 10: submit 00:00, run 01-04 PREEMPTED; requeued
 * 04:00, run 05-07 COMPLETED J3 103 cat  gpu      2 GPU        Jan 5 00-10, 2 % busy (the idle
 * GPUs) J4 104 dan  gpu      2 GPU        Jan 5 00-10, 90 % busy (c1 full: 4 of 4 GPUs) J5 105 eve
 * gpu      1 GPU        submit Jan 5 02:00, waits until 10:00, runs to 12:00 J6 106 fay  gpu      1
 * GPU        Feb 29 12:00 - Mar 1 00:00, 8 GiB, 30 % busy (fits a MIG slice)
 *
 * Roster: ann, cat in lab-a (Machine Learning); bob, dan, eve in lab-b
 * (Physics); fay in lab-a until 2024-01-31, lab-b from 2024-02-01. */
#define SACCT_HDR                                                                                  \
    "JobID|JobIDRaw|Cluster|Partition|Account|User|State|Submit|Start|End|ElapsedRaw|"             \
    "Timelimit|NCPUS|ReqMem|MaxRSS|TotalCPU|AllocTRES\n"

static const char fixture_sacct[] = SACCT_HDR
    "100|100|c1|cpu|acc-a|ann|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:00|"
    "2024-01-01T01:00:00|3600|04:00:00|4|8G|2G|02:00:00|cpu=4,mem=8G,node=1\n"
    "101|101|c1|gpu|acc-a|ann|COMPLETED|2024-01-31T20:00:00|2024-01-31T22:00:00|"
    "2024-02-01T02:00:00|14400|UNLIMITED|8||||billing=8,cpu=8,gres/gpu:a100=2,gres/gpu=2,node=1\n"
    "102|102|c1|preempt|acc-b|bob|PREEMPTED|2024-01-10T00:00:00|2024-01-10T01:00:00|"
    "2024-01-10T04:00:00|10800|UNLIMITED|2||||cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
    "102|102|c1|preempt|acc-b|bob|COMPLETED|2024-01-10T04:00:00|2024-01-10T05:00:00|"
    "2024-01-10T07:00:00|7200|UNLIMITED|2||||cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
    "103|103|c1|gpu|acc-a|cat|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
    "2024-01-05T10:00:00|36000|UNLIMITED|4||||cpu=4,gres/gpu:a100=2,gres/gpu=2,node=1\n"
    "104|104|c1|gpu|acc-b|dan|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
    "2024-01-05T10:00:00|36000|UNLIMITED|4||||cpu=4,gres/gpu:a100=2,gres/gpu=2,node=1\n"
    "105|105|c1|gpu|acc-b|eve|COMPLETED|2024-01-05T02:00:00|2024-01-05T10:00:00|"
    "2024-01-05T12:00:00|7200|UNLIMITED|2||||cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
    "106|106|c1|gpu|acc-b|fay|COMPLETED|2024-02-29T12:00:00|2024-02-29T12:00:00|"
    "2024-03-01T00:00:00|43200|UNLIMITED|2||||cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n";

static const char fixture_inventory[] = "cluster,gpu_model,gpus,gpu_mem_gib,from,to\n"
                                        "c1,a100,4,80,2024-01-01,2024-01-15\n"
                                        "c1,a100,8,80,2024-01-16,\n"
                                        "c2,l40s,2,48,2024-01-01,\n";

static const char fixture_roster[] =
    "user,group,role,domain,start,end\n"
    "ann,lab-a,phd-student,Machine Learning,2020-01-01,\n"
    "cat,lab-a,msc-student,Machine Learning,2022-09-01,\n"
    "bob,lab-b,phd-student,Physics,2021-01-01,\n"
    "dan,lab-b,postdoc,Physics,2021-01-01,\n"
    "eve,lab-b,phd-student,Physics,2023-01-01,\n"
    "fay,lab-a,msc-student,Machine Learning,2022-01-01,2024-01-31\n"
    "fay,lab-b,phd-student,Physics,2024-02-01,\n";

static const char fixture_metrics[] = "job_id,gpu_mem_max_gib,gpu_util_mean,cluster\n"
                                      "101,30,50,c1\n"
                                      "103,5,2,c1\n"
                                      "104,60,90,c1\n"
                                      "105,40,80,c1\n"
                                      "106,8,30,c1\n";

static const char fixture_events[] = "date,cluster,label\n"
                                     "2024-02-01,c1,c1 upgrade\n"
                                     "2024-01-16,,allocation change\n";

static const char fixture_pubs[] = "year,group,title,domain\n"
                                   "2024,lab-a,Paper A,Machine Learning\n"
                                   "2024,lab-a,Paper B,\n"
                                   "2024,lab-b,Paper C,Physics\n"
                                   "2023,lab-b,Paper D,Physics\n";

typedef struct Db {
    char *path;
    Store *st;
} Db;

static void import_text(Store *st, const char *kind, const char *text)
{
    char *p = tu_write_temp(text, strlen(text));
    ImportOpts o;
    ImportResult res;
    CpErr err;
    import_opts_init(&o);
    o.strict = 1;
    int rc = strcmp(kind, "sacct") == 0 ? import_sacct(st, p, &o, &res, &err)
                                        : import_csv(st, kind, p, &o, &res, &err);
    if (rc != 0)
        fail_msg("import %s: %s", kind, err.msg);
    unlink(p);
    free(p);
}

static int db_open(void **state)
{
    Db *d = calloc(1, sizeof *d);
    CpErr err;
    d->path = tu_temp_path(".db");
    d->st = store_open(d->path, &err);
    assert_non_null(d->st);
    *state = d;
    return 0;
}

static int fixture_setup(void **state)
{
    db_open(state);
    Db *d = *state;
    import_text(d->st, "inventory", fixture_inventory);
    import_text(d->st, "roster", fixture_roster);
    import_text(d->st, "sacct", fixture_sacct);
    import_text(d->st, "gpu-metrics", fixture_metrics);
    import_text(d->st, "events", fixture_events);
    import_text(d->st, "pubs", fixture_pubs);
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

/* Run kind over the database with the given options. */
static StatsReport run(Db *d, StatsKind kind, StatsBy by, const char *group, const char *cluster)
{
    CpErr err;
    StatsOpts o = {kind, by, group, cluster};
    StoreStatsData *sd = store_stats_load(d->st, stats_opts_needs(&o), &err);
    if (!sd)
        fail_msg("load: %s", err.msg);
    StatsReport r;
    if (stats_run(store_stats_input(sd), &o, &r, &err) < 0)
        fail_msg("run: %s", err.msg);
    store_stats_free(sd);
    return r;
}

/* The number in column col of the row whose key columns hold the values
 * ("k1", "v1", "k2", "v2", ..., NULL). Fails the test when absent. */
static double num(const StatsReport *r, const char *table, const char *col, ...)
{
    const StatsTable *t = stats_report_table(r, table);
    const char *keys[4], *vals[4];
    size_t n = 0;
    va_list ap;
    if (!t)
        fail_msg("no table %s", table);
    va_start(ap, col);
    for (const char *k; n < 4 && (k = va_arg(ap, const char *)) != NULL; n++) {
        keys[n] = k;
        vals[n] = va_arg(ap, const char *);
    }
    va_end(ap);
    long row = stats_table_find(t, keys, vals, n);
    if (row < 0)
        fail_msg("%s: no row %s=%s", table, n ? keys[0] : "", n ? vals[0] : "");
    const StatsCell *c = stats_table_cell(t, (size_t)row, col);
    if (!c)
        fail_msg("%s: no column %s", table, col);
    return c->num;
}

#define near(a, b) assert_float_equal((a), (b), 1e-6)

/* Capacity: c1 Jan = 4 GPUs x 15 days + 8 x 16 days = 1440 + 3072 = 4512
 * GPU-h; Feb = 8 x 29 x 24 = 5568; c2 = 2 x 24 x 31 = 1488, 2 x 24 x 29 =
 * 1392. Used on c1: Jan = J1 4 (2 GPUs, 22:00-24:00) + J2 3 + 2 + J3 20 +
 * J4 20 + J5 2 = 51; Feb = J1 4 + J6 12 = 16. */
static void test_utilization(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_UTILIZATION, STATS_BY_MONTH, NULL, NULL);
    near(num(&r, "utilization", "capacity_gpu_hours", "period", "2024-01", "cluster", "c1", NULL),
         4512);
    near(num(&r, "utilization", "gpu_hours", "period", "2024-01", "cluster", "c1", NULL), 51);
    near(num(&r, "utilization", "util_pct", "period", "2024-01", "cluster", "c1", NULL),
         100.0 * 51 / 4512);
    near(num(&r, "utilization", "gpus", "period", "2024-01", "cluster", "c1", NULL), 4512.0 / 744);
    near(num(&r, "utilization", "util_pct", "period", "2024-02", "cluster", "c1", NULL),
         100.0 * 16 / 5568);
    near(num(&r, "utilization", "gpus", "period", "2024-02", "cluster", "c1", NULL), 8);
    near(num(&r, "utilization", "util_pct", "period", "2024-01", "cluster", "c2", NULL), 0);
    near(num(&r, "utilization", "util_pct", "period", "2024-01", "cluster", "all", NULL),
         100.0 * 51 / 6000);
    near(num(&r, "utilization", "util_pct", "period", "2024-02", "cluster", "all", NULL),
         100.0 * 16 / 6960);
    /* jobs counted in the month they started; CPU-hours pro rata: J0 4 +
     * J1 16 (8 CPUs, 2 h in January) + J2 6 + 4 + J3 40 + J4 40 + J5 4 */
    near(num(&r, "utilization", "jobs", "period", "2024-01", "cluster", "c1", NULL), 6);
    near(num(&r, "utilization", "cpu_hours", "period", "2024-01", "cluster", "c1", NULL), 114);
    /* waits of the attempts started in January: 0, 2, 1, 1, 0, 0, 8 h */
    near(num(&r, "utilization", "wait_mean_h", "period", "2024-01", "cluster", "c1", NULL),
         12.0 / 7);
    /* group shares: January lab-a = J1 4 + J3 20 = 24 of 51; February
     * fay is in lab-b: lab-b = J6 12 of 16 */
    near(num(&r, "groups", "share_pct", "period", "2024-01", "group", "lab-a", NULL),
         100.0 * 24 / 51);
    near(num(&r, "groups", "share_pct", "period", "2024-01", "group", "lab-b", NULL),
         100.0 * 27 / 51);
    near(num(&r, "groups", "capacity_pct", "period", "2024-01", "group", "lab-a", NULL),
         100.0 * 24 / 6000);
    near(num(&r, "groups", "share_pct", "period", "2024-02", "group", "lab-b", NULL), 75);
    near(num(&r, "groups", "gpu_hours", "period", "2024-02", "group", "lab-a", NULL), 4);
    stats_report_free(&r);
}

/* Events: "c1 upgrade" on Feb 1 (a first day): before = Nov-Jan (only
 * January is covered), after = Feb-Apr (only February). "allocation
 * change" on Jan 16, every cluster: before = Oct-Dec 2023 (nothing
 * covered: unknown), after = Feb-Apr. */
static void test_events(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_UTILIZATION, STATS_BY_MONTH, NULL, NULL);
    near(num(&r, "events", "util_before_pct", "label", "c1 upgrade", NULL), 100.0 * 51 / 4512);
    near(num(&r, "events", "util_after_pct", "label", "c1 upgrade", NULL), 100.0 * 16 / 5568);
    near(num(&r, "events", "util_change_pts", "label", "c1 upgrade", NULL),
         100.0 * 16 / 5568 - 100.0 * 51 / 4512);
    near(num(&r, "events", "wait_before_h", "label", "c1 upgrade", NULL), 12.0 / 7);
    near(num(&r, "events", "wait_p50_before_h", "label", "c1 upgrade", NULL), 1);
    near(num(&r, "events", "wait_after_h", "label", "c1 upgrade", NULL), 0);
    near(num(&r, "events", "gpu_hours_before", "label", "c1 upgrade", NULL), 51);
    assert_true(isnan(num(&r, "events", "util_before_pct", "label", "allocation change", NULL)));
    near(num(&r, "events", "util_after_pct", "label", "allocation change", "cluster", "all", NULL),
         100.0 * 16 / 6960);
    stats_report_free(&r);
}

/* Hour of the week: the window holds 8 Fridays (Jan 5 .. Feb 23); at
 * Friday 05:00 only J3 and J4 run (Jan 5, 4 GPUs); capacity = c1 4 + 4 +
 * 6 x 8 and c2 8 x 2 = 72 GPU-h. */
static void test_heat_map(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_UTILIZATION, STATS_BY_MONTH, NULL, NULL);
    near(num(&r, "hour_of_week", "h05", "day", "Fri", NULL), 100.0 * 4 / 72);
    near(num(&r, "hour_of_week_gpus", "h05", "day", "Fri", NULL), 0.5);
    near(num(&r, "hour_of_week", "h05", "day", "Sat", NULL), 0);
    stats_report_free(&r);
    StatsOpts o = {STATS_UTILIZATION, STATS_BY_MONTH, NULL, "c1"};
    CpErr err;
    StoreStatsData *sd = store_stats_load(d->st, STATS_NEED_JOBS, &err);
    assert_non_null(sd);
    double used[168], cap[168];
    int64_t from = fields_epoch_of(2024, 1, 1, 0, 0, 0), to = fields_epoch_of(2024, 3, 1, 0, 0, 0);
    stats_hour_of_week(store_stats_input(sd), &o, from, to, used, cap);
    near(used[4 * 24 + 5], 4);
    near(cap[4 * 24 + 5], 56);
    store_stats_free(sd);
}

/* Filters: lab-a's use of c1 in January is 24 of 4512 GPU-h; c2 alone is
 * unused. An unknown group or cluster is an error. */
static void test_filters(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_UTILIZATION, STATS_BY_MONTH, "lab-a", NULL);
    near(num(&r, "utilization", "util_pct", "period", "2024-01", "cluster", "c1", NULL),
         100.0 * 24 / 4512);
    assert_int_equal(stats_report_table(&r, "groups")->nrows, 2);
    stats_report_free(&r);
    r = run(d, STATS_UTILIZATION, STATS_BY_YEAR, NULL, "c2");
    near(num(&r, "utilization", "gpu_hours", "period", "2024", "cluster", "all", NULL), 0);
    near(num(&r, "utilization", "capacity_gpu_hours", "period", "2024", "cluster", "all", NULL),
         1488 + 1392);
    stats_report_free(&r);
    CpErr err;
    StoreStatsData *sd = store_stats_load(d->st, STATS_NEED_USAGE | STATS_NEED_ROSTER, &err);
    StatsOpts o = {STATS_DOMAINS, STATS_BY_YEAR, "no-such-lab", NULL};
    assert_int_equal(stats_run(store_stats_input(sd), &o, &r, &err), -1);
    assert_non_null(strstr(err.msg, "no-such-lab"));
    stats_report_free(&r);
    o.group = NULL;
    o.cluster = "nowhere";
    assert_int_equal(stats_run(store_stats_input(sd), &o, &r, &err), -1);
    stats_report_free(&r);
    store_stats_free(sd);
}

/* Column col of the preemption row of partition (every group). */
static double part_num(const StatsReport *r, const char *col, const char *partition)
{
    return num(r, "preemption", col, "group", "all", "partition", partition, NULL);
}

/* J2 was preempted after 3 h on 1 GPU and 2 CPUs, requeued and completed
 * after 2 h. */
static void test_preemption(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_PREEMPTION, STATS_BY_ALL, NULL, NULL);
    const char *t = "preemption";
    near(part_num(&r, "preemptible", "preempt"), 1);
    near(part_num(&r, "preemptible", "gpu"), 0);
    near(part_num(&r, "jobs", "preempt"), 1);
    near(part_num(&r, "attempts", "preempt"), 2);
    near(part_num(&r, "preempted_attempts", "preempt"), 1);
    near(part_num(&r, "preempted_jobs", "preempt"), 1);
    near(part_num(&r, "completed_pct", "preempt"), 100);
    near(part_num(&r, "preempted_completed_pct", "preempt"), 100);
    near(part_num(&r, "gpu_hours", "preempt"), 5);
    near(part_num(&r, "gpu_hours_lost", "preempt"), 3);
    near(part_num(&r, "lost_pct", "preempt"), 60);
    near(part_num(&r, "cpu_hours_lost", "preempt"), 6);
    near(part_num(&r, "run_before_preempt_p50_h", "preempt"), 3);
    near(part_num(&r, "jobs", "all"), 7);
    near(part_num(&r, "attempts", "all"), 8);
    near(part_num(&r, "preempted_jobs_pct", "all"), 100.0 / 7);
    assert_true(isnan(part_num(&r, "preempted_completed_pct", "gpu")));
    near(num(&r, t, "preempted_attempts", "group", "lab-b", "partition", "all", NULL), 1);
    near(num(&r, t, "preempted_attempts", "group", "lab-a", "partition", "all", NULL), 0);
    near(num(&r, t, "gpu_hours_lost", "group", "lab-b", "partition", "preempt", NULL), 3);
    stats_report_free(&r);
}

/* Waits per attempt: 0 0 0 0 1 1 2 8 h -> p50 0.5, p90 2 + 0.3 x 6 =
 * 3.8, p99 2 + 0.93 x 6 = 7.58, mean 1.5. Time to solution of the 7
 * completed jobs: 1 6 7 10 10 10 12 h (J2 from its first submission,
 * 00:00, to 07:00) -> p50 10, p90 10.8. */
static void test_waits(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_WAITS, STATS_BY_ALL, NULL, NULL);
    const char *t = "waits";
    near(num(&r, t, "attempts", "partition", "all", "gpus", "all", NULL), 8);
    near(num(&r, t, "wait_p50_h", "partition", "all", "gpus", "all", NULL), 0.5);
    near(num(&r, t, "wait_p90_h", "partition", "all", "gpus", "all", NULL), 3.8);
    near(num(&r, t, "wait_p99_h", "partition", "all", "gpus", "all", NULL), 7.58);
    near(num(&r, t, "wait_mean_h", "partition", "all", "gpus", "all", NULL), 1.5);
    near(num(&r, t, "jobs_completed", "partition", "all", "gpus", "all", NULL), 7);
    near(num(&r, t, "tts_p50_h", "partition", "all", "gpus", "all", NULL), 10);
    near(num(&r, t, "tts_p90_h", "partition", "all", "gpus", "all", NULL), 10.8);
    near(num(&r, t, "tts_p50_h", "partition", "preempt", "gpus", "all", NULL), 7);
    /* two-GPU attempts: J1 2 h, J3 0, J4 0 -> p90 at 1.8 of 2: 1.6 h */
    near(num(&r, t, "wait_p90_h", "partition", "all", "gpus", "2", NULL), 1.6);
    near(num(&r, t, "wait_p50_h", "partition", "gpu", "gpus", "1", NULL), 4);
    stats_report_free(&r);
}

/* CPUs fractional (#29): J0 held 2.5 CPUs (a trace's cpu_milli 2500, ncpus
 * rounded up to 3) for 1 h and used 2 h of CPU: 80 %, not 2 / 3; its 2.5
 * CPU-hours count in the CPU-hours. The statistics' caches are dropped so
 * that the jobs are read again. */
static void test_cpu_fraction(void **state)
{
    Db *d = *state;
    sqlite3 *db = store_db(d->st);
    assert_int_equal(sqlite3_exec(db,
                                  "UPDATE jobs SET cpu_milli = 2500, ncpus = 3 WHERE job_raw = 100;"
                                  "DELETE FROM stats_cache; DELETE FROM stats_agg;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    StatsReport r = run(d, STATS_EFFICIENCY, STATS_BY_ALL, NULL, NULL);
    near(num(&r, "efficiency", "cpu_eff_pct", "group", "lab-a", NULL), 80);
    stats_report_free(&r);
    r = run(d, STATS_PREEMPTION, STATS_BY_ALL, NULL, NULL);
    /* every attempt: J0 2.5 + J1 8 x 4 + J2 2 x 3 + 2 x 2 + J3 4 x 10 + J4 4 x 10 + J5 2 x 2
     * + J6 2 x 12 = 152.5 (154 with J0's 4 CPUs, 153 with 3) */
    near(num(&r, "preemption", "cpu_hours", "group", "all", "partition", "all", NULL), 152.5);
    stats_report_free(&r);
}

/* Efficiency. lab-a: J1 50 % on 8 GPU-h, J3 2 % on 20 -> 440 / 28 %; GPU
 * memory 30/80 on 8 and 5/80 on 20 GPU-h -> 4.25 / 28; J0: CPU 2 h of 4,
 * memory 2G of 8G, 1 h of a 4 h limit. lab-b: J4 90 % x 20, J5 80 % x 2,
 * J6 30 % x 12 over 34 of its 39 GPU-h (J2 unmeasured). Hogging: J3's 2
 * GPUs, idle, from 02:00 (J5 waits) to 10:00 on a full c1: 16 GPU-h.
 * Smaller GPU (48 GB: peak <= 43.2 GiB): J1, J3 (lab-a, 28 GPU-h), J5, J6
 * (lab-b, 14 GPU-h); MIG slice: J6 only. */
static void test_efficiency(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_EFFICIENCY, STATS_BY_ALL, NULL, NULL);
    const char *e = "efficiency", *w = "waste";
    near(num(&r, e, "gpu_util_pct", "group", "lab-a", NULL), 440.0 / 28);
    near(num(&r, e, "gpu_mem_pct", "group", "lab-a", NULL), 100 * 4.25 / 28);
    near(num(&r, e, "cpu_eff_pct", "group", "lab-a", NULL), 50);
    near(num(&r, e, "mem_eff_pct", "group", "lab-a", NULL), 25);
    near(num(&r, e, "time_used_pct", "group", "lab-a", NULL), 25);
    near(num(&r, e, "gpu_util_pct", "group", "lab-b", NULL), 2320.0 / 34);
    near(num(&r, e, "util_measured_pct", "group", "lab-b", NULL), 100.0 * 34 / 39);
    assert_true(isnan(num(&r, e, "cpu_eff_pct", "group", "lab-b", NULL)));
    near(num(&r, w, "idle_gpu_hours", "group", "lab-a", NULL), 20);
    near(num(&r, w, "hog_gpu_hours", "group", "lab-a", NULL), 16);
    near(num(&r, w, "hog_gpu_hours", "group", "lab-b", NULL), 0);
    near(num(&r, w, "smaller_gpu_jobs", "group", "lab-a", NULL), 2);
    near(num(&r, w, "smaller_gpu_hours", "group", "lab-a", NULL), 28);
    near(num(&r, w, "smaller_gpu_jobs", "group", "lab-b", NULL), 2);
    near(num(&r, w, "mig_jobs", "group", "lab-b", NULL), 1);
    near(num(&r, w, "mig_gpu_hours", "group", "lab-b", NULL), 12);
    near(num(&r, w, "mig_jobs", "group", "lab-a", NULL), 0);
    near(num(&r, "top_hogs", "hog_gpu_hours", "job", "103", NULL), 16);
    assert_int_equal(stats_report_table(&r, "top_hogs")->nrows, 1);
    stats_report_free(&r);
    /* per user with --group */
    r = run(d, STATS_EFFICIENCY, STATS_BY_ALL, "lab-a", NULL);
    near(num(&r, e, "gpu_util_pct", "group", "lab-a", "user", "cat", NULL), 2);
    near(num(&r, e, "gpu_util_pct", "group", "lab-a", "user", "ann", NULL), 50);
    stats_report_free(&r);
}

/* 2024: Machine Learning 28 GPU-h (lab-a), Physics 39 (lab-b, with
 * fay's February); researchers on the roster: ann, cat, fay | bob, dan,
 * eve, fay; active: ann, cat | bob, dan, eve, fay. */
static void test_domains(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_DOMAINS, STATS_BY_YEAR, NULL, NULL);
    const char *t = "domains";
    near(num(&r, t, "gpu_hours", "domain", "Machine Learning", NULL), 28);
    near(num(&r, t, "share_pct", "domain", "Machine Learning", NULL), 100.0 * 28 / 67);
    near(num(&r, t, "share_pct", "domain", "Physics", NULL), 100.0 * 39 / 67);
    near(num(&r, t, "researchers", "domain", "Machine Learning", NULL), 3);
    near(num(&r, t, "researchers", "domain", "Physics", NULL), 4);
    near(num(&r, t, "active_users", "domain", "Machine Learning", NULL), 2);
    near(num(&r, t, "active_users", "domain", "Physics", NULL), 4);
    near(num(&r, t, "cpu_hours", "domain", "Machine Learning", NULL), 4 + 32 + 40);
    stats_report_free(&r);
}

/* lab-a: 2 papers in 2024 (Paper B takes the group's domain), 28 GPU-h;
 * lab-b: 1 paper, 39 GPU-h; 2023: one paper, no GPU-hours. */
static void test_pubs(void **state)
{
    Db *d = *state;
    StatsReport r = run(d, STATS_PUBS, STATS_BY_YEAR, NULL, NULL);
    near(num(&r, "groups", "pubs", "year", "2024", "group", "lab-a", NULL), 2);
    near(num(&r, "groups", "gpu_hours_per_pub", "year", "2024", "group", "lab-a", NULL), 14);
    near(num(&r, "groups", "gpu_hours_per_pub", "year", "2024", "group", "lab-b", NULL), 39);
    near(num(&r, "groups", "gpu_hours_per_pub", "year", "2023", "group", "lab-b", NULL), 0);
    near(num(&r, "domains", "pubs", "year", "2024", "domain", "Machine Learning", NULL), 2);
    near(num(&r, "domains", "gpu_hours_per_pub", "year", "2024", "domain", "Physics", NULL), 39);
    stats_report_free(&r);
}

/* The first load scans and writes the cache, the second reads it back
 * with the same figures; an import of a new job extends it, one that adds
 * to a job it holds makes it stale. */
static void test_cache(void **state)
{
    Db *d = *state;
    CpErr err;
    assert_int_equal(store_stats_forget(d->st, &err), 0);
    StoreStatsData *a = store_stats_load(d->st, STATS_NEED_JOBS | STATS_NEED_USAGE, &err);
    StoreStatsData *b = store_stats_load(d->st, STATS_NEED_JOBS | STATS_NEED_USAGE, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(store_stats_cached(a), 0);
    assert_int_equal(store_stats_cached(b), 1);
    const StatsInput *ia = store_stats_input(a), *ib = store_stats_input(b);
    assert_int_equal(ia->njobs, 8);
    assert_int_equal(ib->njobs, 8);
    assert_memory_equal(ia->jobs, ib->jobs, ia->njobs * sizeof *ia->jobs);
    assert_int_equal(ia->nusage, ib->nusage);
    assert_true(ia->nusage > 0);
    assert_memory_equal(ia->usage, ib->usage, ia->nusage * sizeof *ia->usage);
    assert_int_equal(ib->gpu_types.n, ia->gpu_types.n);
    assert_string_equal(ib->gpu_types.v[1], "a100");
    store_stats_free(a);
    store_stats_free(b);
    import_text(d->st, "sacct",
                SACCT_HDR "107|107|c1|gpu|acc-a|ann|COMPLETED|2024-02-10T00:00:00|"
                          "2024-02-10T00:00:00|2024-02-10T01:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n");
    /* the import appended job 107 to the cache (issue 20): read back at once */
    a = store_stats_load(d->st, STATS_NEED_USAGE | STATS_NEED_JOBS, &err);
    assert_int_equal(store_stats_cached(a), 1);
    assert_int_equal(store_stats_input(a)->njobs, 9);
    /* ... and it is what a rebuild from the tables gives, byte for byte */
    assert_int_equal(store_stats_forget(d->st, &err), 0);
    b = store_stats_load(d->st, STATS_NEED_USAGE | STATS_NEED_JOBS, &err);
    assert_int_equal(store_stats_cached(b), 0);
    ia = store_stats_input(a);
    ib = store_stats_input(b);
    assert_int_equal(ib->njobs, 9);
    assert_memory_equal(ia->jobs, ib->jobs, ia->njobs * sizeof *ia->jobs);
    assert_int_equal(ia->nusage, ib->nusage);
    assert_memory_equal(ia->usage, ib->usage, ia->nusage * sizeof *ia->usage);
    assert_int_equal(ia->gpu_types.n, ib->gpu_types.n);
    size_t nusage = ia->nusage;
    store_stats_free(a);
    store_stats_free(b);
    /* job 107 again, saying more (memory, CPU time, a GPU type): the
     * import rewrites an attempt the cache holds, which leaves it stale */
    import_text(d->st, "sacct",
                SACCT_HDR "107|107|c1|gpu|acc-a|ann|COMPLETED|2024-02-10T00:00:00|"
                          "2024-02-10T00:00:00|2024-02-10T01:00:00|3600|UNLIMITED|1|4G|2G|"
                          "00:30:00|cpu=1,gres/gpu:h100=1,gres/gpu=1,node=1\n");
    a = store_stats_load(d->st, STATS_NEED_USAGE, &err);
    assert_int_equal(store_stats_cached(a), 0); /* stale: usage read from its table */
    assert_int_equal(store_stats_input(a)->nusage, nusage);
    store_stats_free(a);
    a = store_stats_load(d->st, STATS_NEED_JOBS, &err);
    assert_int_equal(store_stats_cached(a), 0);
    assert_int_equal(store_stats_input(a)->njobs, 9);
    store_stats_free(a);
    a = store_stats_load(d->st, STATS_NEED_USAGE, &err);
    assert_int_equal(store_stats_cached(a), 1);
    assert_int_equal(store_stats_input(a)->nusage, nusage);
    store_stats_free(a);
    assert_int_equal(store_stats_refresh(d->st, &err), 0);
    a = store_stats_load(d->st, STATS_NEED_JOBS, &err);
    assert_int_equal(store_stats_cached(a), 1);
    store_stats_free(a);
}

/* A gpu-metrics import rewrites the jobs' measured utilisation and leaves
 * the cache current (the fixture imports its metrics after the jobs): the
 * first load reads the cache, holds job 104's 90 %, and is what a rebuild
 * from the tables gives, byte for byte. */
static void test_cache_kept_by_metrics_import(void **state)
{
    Db *d = *state;
    CpErr err;
    StoreStatsData *a = store_stats_load(d->st, STATS_NEED_JOBS, &err);
    assert_non_null(a);
    assert_int_equal(store_stats_cached(a), 1);
    const StatsInput *ia = store_stats_input(a);
    int seen90 = 0;
    for (size_t i = 0; i < ia->njobs; i++)
        seen90 += ia->jobs[i].gpu_util == 90.0f;
    assert_int_equal(seen90, 1);
    assert_int_equal(store_stats_forget(d->st, &err), 0);
    StoreStatsData *b = store_stats_load(d->st, STATS_NEED_JOBS, &err);
    assert_int_equal(store_stats_cached(b), 0);
    const StatsInput *ib = store_stats_input(b);
    assert_int_equal(ia->njobs, ib->njobs);
    assert_memory_equal(ia->jobs, ib->jobs, ia->njobs * sizeof *ia->jobs);
    store_stats_free(a);
    store_stats_free(b);
}

/* A publication import changes no job: the cache stays current, so the
 * next stats does not rescan (the demo imports its papers after the jobs). */
static void test_cache_kept_by_papers_import(void **state)
{
    Db *d = *state;
    CpErr err;
    assert_int_equal(store_stats_refresh(d->st, &err), 0);
    static const char bib[] = "@article{ann2024,\n  author = {Ann Example},\n"
                              "  title = {Sharing GPUs},\n  year = {2024},\n"
                              "  journal = {J. Tests}\n}\n";
    char *p = tu_write_temp(bib, strlen(bib));
    char *bibpath = malloc(strlen(p) + 5);
    sprintf(bibpath, "%s.bib", p);
    assert_int_equal(rename(p, bibpath), 0);
    ImportOpts o;
    ImportResult res;
    import_opts_init(&o);
    o.strict = 1;
    if (pubs_import(d->st, bibpath, &o, &res, &err) != 0)
        fail_msg("import papers: %s", err.msg);
    assert_int_equal(res.added, 1);
    unlink(bibpath);
    free(bibpath);
    free(p);
    StoreStatsData *a = store_stats_load(d->st, STATS_NEED_USAGE | STATS_NEED_JOBS, &err);
    assert_non_null(a);
    assert_int_equal(store_stats_cached(a), 1);
    assert_int_equal(store_stats_input(a)->njobs, 8);
    store_stats_free(a);
}

/* An import of new jobs extends the cache: new GPU types after the known
 * ones, requeued attempts linked (first submission, preemption), the same
 * bytes as a rebuild. */
static void test_cache_extended_by_import(void **state)
{
    Db *d = *state;
    CpErr err;
    assert_int_equal(store_stats_refresh(d->st, &err), 0);
    import_text(d->st, "sacct",
                SACCT_HDR "301|301|c1|gpu|acc-a|ann|PREEMPTED|2024-03-01T00:00:00|"
                          "2024-03-01T01:00:00|2024-03-01T02:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:l40s=2,gres/gpu=2,node=1\n"
                          "301|301|c1|gpu|acc-a|ann|COMPLETED|2024-03-01T02:00:00|"
                          "2024-03-01T03:00:00|2024-03-01T05:00:00|7200|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:l40s=2,gres/gpu=2,node=1\n"
                          "302|302|c2|gpu|acc-b|bob|COMPLETED|2024-03-02T00:00:00|"
                          "2024-03-02T00:00:00|2024-03-02T01:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n"
                          /* 303's requeued run listed before its first one */
                          "303|303|c1|gpu|acc-b|bob|COMPLETED|2024-03-03T01:00:00|"
                          "2024-03-03T01:00:00|2024-03-03T02:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n"
                          "303|303|c1|gpu|acc-b|bob|PREEMPTED|2024-03-03T00:00:00|"
                          "2024-03-03T00:00:00|2024-03-03T01:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n");
    StoreStatsData *a = store_stats_load(d->st, STATS_NEED_USAGE | STATS_NEED_JOBS, &err);
    assert_non_null(a);
    assert_int_equal(store_stats_cached(a), 1);
    const StatsInput *ia = store_stats_input(a);
    assert_int_equal(ia->njobs, 13);
    const StatsJob *last = NULL, *late = NULL;
    for (size_t i = 0; i < ia->njobs; i++) {
        if (ia->jobs[i].job_raw == 301 && (ia->jobs[i].flags & STATS_JOB_FINAL))
            last = &ia->jobs[i];
        if (ia->jobs[i].job_raw == 303 && (ia->jobs[i].flags & STATS_JOB_FINAL))
            late = &ia->jobs[i];
    }
    assert_non_null(last);
    assert_int_equal(last->first_ago, 7200); /* submitted 2 h after the first attempt */
    assert_true(last->flags & STATS_JOB_WAS_PREEMPTED);
    assert_string_equal(ia->gpu_types.v[last->gpu_type], "l40s");
    assert_non_null(late);
    assert_int_equal(late->first_ago, 3600);
    assert_true(late->flags & STATS_JOB_WAS_PREEMPTED);
    assert_int_equal(store_stats_forget(d->st, &err), 0);
    StoreStatsData *b = store_stats_load(d->st, STATS_NEED_USAGE | STATS_NEED_JOBS, &err);
    assert_int_equal(store_stats_cached(b), 0);
    const StatsInput *ib = store_stats_input(b);
    assert_int_equal(ib->njobs, 13);
    assert_memory_equal(ia->jobs, ib->jobs, ia->njobs * sizeof *ia->jobs);
    assert_int_equal(ia->nusage, ib->nusage);
    assert_memory_equal(ia->usage, ib->usage, ia->nusage * sizeof *ia->usage);
    assert_int_equal(ia->gpu_types.n, ib->gpu_types.n);
    for (size_t i = 1; i < ia->gpu_types.n; i++)
        assert_string_equal(ia->gpu_types.v[i], ib->gpu_types.v[i]);
    store_stats_free(a);
    store_stats_free(b);
}

/* With --group, waits are lab-b's attempts alone (read from the
 * attempts: the stored histograms sum every user): J2 1 h and 1 h, J4 0,
 * J5 8 h, J6 0 (fay is in lab-b from February) -> 0 0 1 1 8: p50 1, p90
 * 1 + 0.6 x 7 = 5.2, mean 2. */
static void test_waits_group(void **state)
{
    Db *d = *state;
    StatsOpts o = {STATS_WAITS, STATS_BY_ALL, "lab-b", NULL};
    assert_true(stats_opts_needs(&o) & STATS_NEED_JOBS);
    StatsReport r = run(d, STATS_WAITS, STATS_BY_ALL, "lab-b", NULL);
    const char *t = "waits";
    near(num(&r, t, "attempts", "partition", "all", "gpus", "all", NULL), 5);
    near(num(&r, t, "wait_p50_h", "partition", "all", "gpus", "all", NULL), 1);
    near(num(&r, t, "wait_p90_h", "partition", "all", "gpus", "all", NULL), 5.2);
    near(num(&r, t, "wait_mean_h", "partition", "all", "gpus", "all", NULL), 2);
    stats_report_free(&r);
}

/* Every number and text of kind's tables in a and b is the same (sums in
 * another order: within 1e-9 relative). */
static void same_report(const StatsReport *a, const StatsReport *b)
{
    assert_int_equal(a->ntables, b->ntables);
    for (size_t i = 0; i < a->ntables; i++) {
        const StatsTable *x = &a->tables[i], *y = &b->tables[i];
        assert_int_equal(x->nrows, y->nrows);
        for (size_t k = 0; k < x->nrows * x->ncols; k++) {
            const StatsCell *p = &x->cells[k], *q = &y->cells[k];
            if (p->text || q->text) {
                assert_string_equal(p->text ? p->text : "", q->text ? q->text : "");
                continue;
            }
            assert_int_equal(isnan(p->num), isnan(q->num));
            if (!isnan(p->num))
                assert_float_equal(p->num, q->num, 1e-9 * (1 + fabs(p->num)));
        }
    }
}

static StatsReport run_loaded(Db *d, StatsKind kind, int want_cached)
{
    CpErr err;
    StatsOpts o = {kind, STATS_BY_MONTH, NULL, NULL};
    StoreStatsData *sd = store_stats_load(d->st, stats_opts_needs(&o), &err);
    assert_non_null(sd);
    assert_int_equal(store_stats_cells_cached(sd), want_cached);
    assert_int_equal(store_stats_input(sd)->njobs, 0);
    StatsReport r;
    assert_int_equal(stats_run(store_stats_input(sd), &o, &r, &err), 0);
    store_stats_free(sd);
    return r;
}

/* The aggregates: rebuilt by the GPU metrics import (it changed the jobs
 * and keeps the statistics current), read back by every load; an import of
 * new jobs (one in February, a month already stored, two jobs in March, one
 * requeued across the file) merges them into the months it touches: the
 * figures are those of a rebuild from the jobs. */
static void test_cells_kept_by_import(void **state)
{
    static const StatsKind kinds[] = {STATS_UTILIZATION, STATS_PREEMPTION, STATS_WAITS};
    Db *d = *state;
    CpErr err;
    StatsReport r = run_loaded(d, STATS_WAITS, 1);
    stats_report_free(&r);
    r = run_loaded(d, STATS_WAITS, 1);
    near(num(&r, "waits", "wait_p50_h", "period", "2024-01", "partition", "all", "gpus", "all",
             NULL),
         1);
    stats_report_free(&r);
    import_text(d->st, "sacct",
                SACCT_HDR "107|107|c1|gpu|acc-a|ann|COMPLETED|2024-02-10T00:00:00|"
                          "2024-02-10T03:00:00|2024-02-10T04:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n"
                          "303|303|c1|gpu|acc-b|bob|COMPLETED|2024-03-03T01:00:00|"
                          "2024-03-03T01:30:00|2024-03-03T02:00:00|1800|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n"
                          "303|303|c1|gpu|acc-b|bob|PREEMPTED|2024-03-03T00:00:00|"
                          "2024-03-03T00:00:00|2024-03-03T01:00:00|3600|UNLIMITED|1||||"
                          "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1\n");
    StatsReport kept[3], built[3];
    for (int k = 0; k < 3; k++)
        kept[k] = run_loaded(d, kinds[k], 1);
    /* February: J1 0 (its start is in January), 107 3 h; J6 0 -> p50 0 */
    near(num(&kept[2], "waits", "attempts", "period", "2024-02", "partition", "all", "gpus", "all",
             NULL),
         2);
    near(num(&kept[2], "waits", "wait_mean_h", "period", "2024-02", "partition", "all", "gpus",
             "all", NULL),
         1.5);
    /* March: 303 waited 0 then 0.5 h; its time to solution 2 h */
    near(num(&kept[2], "waits", "tts_p50_h", "period", "2024-03", "partition", "all", "gpus", "all",
             NULL),
         2);
    near(num(&kept[1], "preemption", "run_before_preempt_p50_h", "period", "2024-03", "group",
             "all", "partition", "all", NULL),
         1);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(store_stats_forget(d->st, &err), 0);
        built[k] = run_loaded(d, kinds[k], 0);
        same_report(&kept[k], &built[k]);
        stats_report_free(&kept[k]);
        stats_report_free(&built[k]);
    }
}

static void eff_near(const StoreTuiEff *a, const StoreTuiEff *b)
{
    const double x[] = {a->gpu_h,       a->gpu_h_util, a->util_x_h,  a->gpu_h_mem, a->mem_x_h,
                        a->cpu_alloc_h, a->cpu_used_h, a->mem_req_h, a->mem_used_h};
    const double y[] = {b->gpu_h,       b->gpu_h_util, b->util_x_h,  b->gpu_h_mem, b->mem_x_h,
                        b->cpu_alloc_h, b->cpu_used_h, b->mem_req_h, b->mem_used_h};
    for (size_t i = 0; i < sizeof x / sizeof *x; i++)
        assert_float_equal(x[i], y[i], 1e-6 * (1 + fabs(y[i])));
}

/* The dashboard's Usage view from whole months comes from the aggregates:
 * the same figures as the scan of the jobs that started from that time
 * (one second earlier: no attempt of the fixture starts then). From
 * February: J1 does not count (it started in January), J6 (12 h on one
 * GPU) does; from January every attempt but none. */
static void test_usage_view_from_aggregates(void **state)
{
    Db *d = *state;
    CpErr err;
    const int64_t months[] = {1704067200 /* 2024-01-01 */, 1706745600 /* 2024-02-01 */};
    for (int m = 0; m < 2; m++) {
        StoreTuiScan a, b;
        assert_int_equal(store_tui_scan(d->st, months[m], &a, &err), 0);
        assert_int_equal(store_tui_scan(d->st, months[m] - 1, &b, &err), 0);
        assert_int_equal(a.attempts, b.attempts);
        StoreTuiEff ea = {a.gpu_h,       a.gpu_h_util, a.util_x_h,  a.gpu_h_mem, a.mem_x_h,
                          a.cpu_alloc_h, a.cpu_used_h, a.mem_req_h, a.mem_used_h};
        StoreTuiEff eb = {b.gpu_h,       b.gpu_h_util, b.util_x_h,  b.gpu_h_mem, b.mem_x_h,
                          b.cpu_alloc_h, b.cpu_used_h, b.mem_req_h, b.mem_used_h};
        eff_near(&ea, &eb);
        for (int s = 0; s < 168; s++)
            assert_float_equal(a.heat[s], b.heat[s], 1e-9);
        for (int64_t u = 1; u < b.nby_user; u++) {
            static const StoreTuiEff zero;
            const StoreTuiEff *x = u < a.nby_user ? &a.by_user[u] : &zero;
            eff_near(x, &b.by_user[u]);
            if (b.names[u] && b.by_user[u].gpu_h > 0)
                assert_string_equal(a.names[u], b.names[u]);
        }
        if (m == 1) {
            assert_int_equal(a.attempts, 1);
            near(a.gpu_h, 12);
        } else {
            assert_int_equal(a.attempts, 8);
        }
        store_tui_scan_free(&a);
        store_tui_scan_free(&b);
    }
}

/* Without a roster, groups are the accounts. */
static void test_accounts_as_groups(void **state)
{
    Db *d = *state;
    import_text(d->st, "sacct", fixture_sacct);
    StatsReport r = run(d, STATS_UTILIZATION, STATS_BY_ALL, NULL, NULL);
    near(num(&r, "groups", "gpu_hours", "group", "acc-a", NULL), 28);
    near(num(&r, "groups", "gpu_hours", "group", "acc-b", NULL), 39);
    /* no inventory: capacity unknown, not zero */
    assert_true(isnan(num(&r, "utilization", "capacity_gpu_hours", "cluster", "c1", NULL)));
    assert_true(isnan(num(&r, "utilization", "util_pct", "cluster", "all", NULL)));
    stats_report_free(&r);
}

/* The real -D capture of the Slurm sandbox: jobs 18 and 19 were preempted
 * once each; 19 was requeued and completed (python3 over the file). */
static void test_sandbox_preemption(void **state)
{
    Db *d = *state;
    ImportOpts o;
    ImportResult res;
    CpErr err;
    import_opts_init(&o);
    assert_int_equal(
        import_sacct(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), &o, &res, &err), 0);
    StatsReport r = run(d, STATS_PREEMPTION, STATS_BY_ALL, NULL, NULL);
    const char *t = "preemption";
    near(num(&r, t, "preempted_attempts", "group", "all", "partition", "all", NULL), 2);
    near(num(&r, t, "preempted_jobs", "group", "all", "partition", "all", NULL), 2);
    near(num(&r, t, "attempts", "group", "all", "partition", "all", NULL), 19);
    near(num(&r, t, "jobs", "group", "all", "partition", "all", NULL), 18);
    stats_report_free(&r);
}

/* acct_window (kept at import for the dashboard) is stats_window over what
 * `capplan stats` loads: on the sandbox's -D capture, then the XDMoD log
 * (a second import widens it); a RUNNING record that completes later
 * widens it to the end of its run. */
static void window_matches(Db *d)
{
    CpErr err;
    StoreStatsData *sd = store_stats_load(d->st, STATS_NEED_JOBS | STATS_NEED_USAGE, &err);
    assert_non_null(sd);
    int64_t from, to;
    stats_window(store_stats_input(sd), &from, &to);
    store_stats_free(sd);
    assert_int_equal(store_scalar(d->st, "SELECT lo FROM acct_window"), from);
    assert_int_equal(store_scalar(d->st, "SELECT hi FROM acct_window"), to);
}

static void test_acct_window(void **state)
{
    Db *d = *state;
    ImportOpts o;
    ImportResult res;
    CpErr err;
    import_opts_init(&o);
    assert_int_equal(
        import_sacct(d->st, tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), &o, &res, &err), 0);
    window_matches(d);
    o.fields = "xdmod";
    assert_int_equal(import_sacct(d->st, tu_shared("data/sacct-pipe-xdmod/pozidriv.head.log"), &o,
                                  &res, &err),
                     0);
    window_matches(d);
    int64_t hi = store_scalar(d->st, "SELECT hi FROM acct_window");
    import_text(d->st, "sacct",
                SACCT_HDR "901|901|c1|gpu|acc-a|ann|RUNNING|2030-01-01T00:00:00|"
                          "2030-01-01T00:00:00|Unknown|60|UNLIMITED|1||||gres/gpu=1\n");
    window_matches(d);
    assert_true(store_scalar(d->st, "SELECT hi FROM acct_window") > hi);
    import_text(d->st, "sacct",
                SACCT_HDR "901|901|c1|gpu|acc-a|ann|COMPLETED|2030-01-01T00:00:00|"
                          "2030-01-01T00:00:00|2030-01-02T00:00:00|86400|UNLIMITED|1||||"
                          "gres/gpu=1\n");
    window_matches(d);
    assert_int_equal(store_scalar(d->st, "SELECT hi FROM acct_window"), 1893456000 + 86400);
}

/* ---- pure building blocks ---- */

static void test_quantile(void **state)
{
    (void)state;
    double v[] = {8, 0, 1, 2, 0, 1, 0, 0};
    near(stats_quantile(v, 8, 0.5), 0.5);
    near(stats_quantile(v, 8, 0.9), 3.8);
    near(stats_quantile(v, 8, 0), 0);
    near(stats_quantile(v, 8, 1), 8);
    double one[] = {42};
    near(stats_quantile(one, 1, 0.99), 42);
    assert_true(isnan(stats_quantile(NULL, 0, 0.5)));
    /* 1..1000 shuffled: p99 = 990.01, p50 = 500.5 */
    double w[1000];
    for (int i = 0; i < 1000; i++)
        w[i] = (double)((i * 379) % 1000 + 1);
    near(stats_quantile(w, 1000, 0.99), 990.01);
    near(stats_quantile(w, 1000, 0.5), 500.5);
}

static void test_calendar_and_capacity(void **state)
{
    (void)state;
    assert_int_equal(stats_month_start(202402), fields_epoch_of(2024, 2, 1, 0, 0, 0));
    assert_int_equal(stats_month_of(fields_epoch_of(2024, 2, 29, 23, 59, 59)), 202402);
    assert_int_equal(stats_month_of(fields_epoch_of(2024, 3, 1, 0, 0, 0)), 202403);
    assert_int_equal(stats_month_of(fields_epoch_of(1999, 12, 31, 12, 0, 0)), 199912);
    StatsGpus inv[] = {
        {"c1", "a100", 4, 80, fields_epoch_of(2024, 1, 1, 0, 0, 0),
         fields_epoch_of(2024, 1, 16, 0, 0, 0)},
        {"c1", "a100", 8, 80, fields_epoch_of(2024, 1, 16, 0, 0, 0), STATS_TIME_NONE},
        {"c2", "l40s", 2, 48, STATS_TIME_NONE, STATS_TIME_NONE},
    };
    int64_t jan = fields_epoch_of(2024, 1, 1, 0, 0, 0), feb = fields_epoch_of(2024, 2, 1, 0, 0, 0);
    near(stats_capacity_hours(inv, 3, "c1", jan, feb), 4512);
    near(stats_capacity_hours(inv, 3, NULL, jan, feb), 4512 + 1488);
    near(stats_capacity_hours(inv, 3, "c1", jan - 86400, jan), 0);
}

/* The hour-of-week spread (O(1) per job) against an hour-by-hour walk,
 * on runs from seconds to three weeks that start anywhere. */
static void test_hour_of_week_walk(void **state)
{
    (void)state;
    enum { N = 200 };
    static const char *const cl[] = {NULL, "c"}, *const us[] = {NULL, "u"},
                             *const ac[] = {NULL, "a"};
    StatsJob jobs[N];
    double want[168] = {0};
    uint64_t x = 88172645463325252ULL;
    int64_t base = fields_epoch_of(2024, 1, 1, 0, 0, 0);
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        StatsJob *j = &jobs[i];
        j->start = j->submit = (uint32_t)(base + (int64_t)(x % (60 * 86400)));
        j->elapsed = (int32_t)((x >> 24) % (i % 4 == 0 ? 21 * 86400 : 7200));
        j->gpus = (float)(1 + i % 3);
        j->cluster = j->user = j->account = 1;
        j->flags = STATS_JOB_FINAL;
        for (int64_t t = j->start; t < (int64_t)j->start + j->elapsed;) {
            int64_t next = (t / 3600 + 1) * 3600, end = (int64_t)j->start + j->elapsed;
            int64_t days = t / 86400, dow = (days + 3) % 7;
            next = next < end ? next : end;
            want[dow * 24 + (t % 86400) / 3600] += j->gpus * (double)(next - t) / 3600;
            t = next;
        }
    }
    StatsInput in;
    memset(&in, 0, sizeof in);
    in.clusters = (StatsNames){cl, 2};
    in.users = (StatsNames){us, 2};
    in.accounts = (StatsNames){ac, 2};
    in.jobs = jobs;
    in.njobs = N;
    StatsOpts o = {STATS_UTILIZATION, STATS_BY_MONTH, NULL, NULL};
    double used[168], cap[168];
    stats_hour_of_week(&in, &o, 0, INT64_MAX / 4, used, cap);
    for (int s = 0; s < 168; s++)
        assert_float_equal(used[s], want[s], 1e-6);
}

/* ---- the histograms' layout in a month's blob ---- */

/* A bucket as stats.h describes them: whole seconds below 128, then 64 an
 * octave. */
static int ref_bucket(uint32_t v)
{
    if (v < 128)
        return (int)v;
    int e = 31;
    while (!(v >> e))
        e--;
    return 128 + (e - 7) * 64 + (int)((v >> (e - 6)) & 63);
}

/* One bucket of the model: its month, key (user, account -1 when summed
 * over users), kind, bucket, count and sum, in the order first seen. */
typedef struct RefBucket {
    int32_t month, user, account;
    uint16_t cluster, partition;
    uint8_t gclass, what;
    int bucket;
    uint32_t count;
    double sum;
} RefBucket;

static void ref_add(RefBucket *m, size_t *n, const RefBucket *x)
{
    for (size_t i = 0; i < *n; i++) {
        RefBucket *y = &m[i];
        if (y->month == x->month && y->user == x->user && y->account == x->account &&
            y->cluster == x->cluster && y->partition == x->partition && y->gclass == x->gclass &&
            y->what == x->what && y->bucket == x->bucket) {
            y->count++;
            y->sum += x->sum;
            return;
        }
    }
    m[(*n)++] = *x;
}

/* The blob's header (magic, cells, hkeys, buckets, heat entries, pad). */
static void blob_counts(const CpBuf *b, uint32_t h[6])
{
    assert_true(b->len >= 6 * sizeof *h);
    memcpy(h, b->data, 6 * sizeof *h);
}

/* N attempts over three months from 1 s to 190 days of wait, three kinds
 * of histogram (waits and times to solution summed over users, runs
 * before a preemption per user): each month's blob lists its buckets in
 * the order they were first filled, with the counts and sums of a plain
 * list; merged back into a new builder the months give the same bytes,
 * merged twice twice the counts and sums; a bucket or kind out of range is
 * refused. */
/* stats_cells_month_blobs's months, each checked against
 * stats_cells_month_blob's bytes for it. */
typedef struct BlobsSeen {
    const StatsCellsBuild *b;
    const int32_t *months;
    size_t n;
} BlobsSeen;

static int blobs_check(void *ctx, int32_t month, const void *blob, size_t n)
{
    BlobsSeen *s = ctx;
    assert_int_equal(month, s->months[s->n++]);
    CpBuf one;
    cpbuf_init(&one);
    stats_cells_month_blob(s->b, month, &one);
    assert_int_equal(n, one.len);
    assert_memory_equal(blob, one.data, n);
    cpbuf_done(&one);
    return 0;
}

static void same_blobs(const StatsCellsBuild *b, const int32_t *months, size_t nm)
{
    BlobsSeen s = {b, months, 0};
    assert_int_equal(stats_cells_month_blobs(b, blobs_check, &s), 0);
    assert_int_equal(s.n, nm);
}

static void test_hist_layout(void **state)
{
    (void)state;
    enum { N = 4000 };
    StatsJob *jobs = calloc(N, sizeof *jobs);
    RefBucket *model = calloc(3 * N, sizeof *model);
    size_t nmodel = 0;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    uint32_t base = (uint32_t)fields_epoch_of(2024, 1, 1, 0, 0, 0);
    StatsCellsBuild *b = stats_cells_build_new(0);
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        StatsJob *j = &jobs[i];
        uint32_t wait = (uint32_t)((x >> 20) % (1u << (1 + (x >> 8) % 24)));
        j->submit = base + (uint32_t)((x >> 40) % (80 * 86400));
        j->start = j->submit + wait;
        j->elapsed = (int32_t)((x >> 16) % 200000);
        j->first_ago = i % 5 == 0 ? (int32_t)(i * 7) : 0;
        j->gpus = (float)(i % 3); /* classes 0, 2 (1 GPU), 3 (2 GPUs) */
        j->user = 1 + i % 7;
        j->account = 1 + i % 2;
        j->cluster = (uint16_t)(1 + i % 2);
        j->partition = (uint16_t)(i % 3);
        j->state = i % 4 == 0 ? STATS_ST_PREEMPTED : STATS_ST_COMPLETED;
        j->flags = i % 4 == 0 ? 0 : STATS_JOB_FINAL;
        stats_cells_build_job(b, j);
        RefBucket r = {stats_month_of(j->start), -1, -1, j->cluster, j->partition,
                       (uint8_t)(i % 3 == 0 ? 0 : i % 3 == 1 ? 2 : 3), STATS_HIST_WAIT,
                       ref_bucket(wait), 1, wait};
        ref_add(model, &nmodel, &r);
        if (j->state == STATS_ST_COMPLETED) {
            uint32_t tts = wait + (uint32_t)j->elapsed + (uint32_t)j->first_ago;
            r.what = STATS_HIST_TTS;
            r.bucket = ref_bucket(tts);
            r.sum = tts;
            ref_add(model, &nmodel, &r);
        } else {
            r.user = j->user;
            r.account = j->account;
            r.what = STATS_HIST_PRERUN;
            r.bucket = ref_bucket((uint32_t)j->elapsed);
            r.sum = j->elapsed;
            ref_add(model, &nmodel, &r);
        }
    }
    int32_t *months;
    size_t nm = stats_cells_build_months(b, &months), seen = 0;
    assert_true(nm >= 3);
    StatsCellsBuild *again = stats_cells_build_new(0);
    CpBuf blob, blob2;
    cpbuf_init(&blob);
    cpbuf_init(&blob2);
    for (size_t m = 0; m < nm; m++) {
        cpbuf_clear(&blob);
        stats_cells_month_blob(b, months[m], &blob);
        uint32_t h[6];
        blob_counts(&blob, h);
        const char *keys = blob.data + 6 * sizeof *h + h[1] * sizeof(StatsCellSum);
        const char *hist = keys + h[2] * sizeof(StatsCellKey);
        size_t k = 0;
        for (size_t i = 0; i < nmodel; i++) {
            if (model[i].month != months[m])
                continue;
            assert_true(k < h[3]);
            StatsHist e;
            StatsCellKey key;
            memcpy(&e, hist + k++ * sizeof e, sizeof e);
            assert_true(e.key < h[2]);
            memcpy(&key, keys + e.key * sizeof key, sizeof key);
            assert_int_equal(key.month, model[i].month);
            assert_int_equal(key.user, model[i].user);
            assert_int_equal(key.account, model[i].account);
            assert_int_equal(key.cluster, model[i].cluster);
            assert_int_equal(key.partition, model[i].partition);
            assert_int_equal(key.gclass, model[i].gclass);
            assert_int_equal(e.what, model[i].what);
            assert_int_equal(e.bucket, model[i].bucket);
            assert_int_equal(e.count, model[i].count);
            assert_true(e.sum == model[i].sum);
        }
        assert_int_equal(k, h[3]);
        seen += k;
        assert_int_equal(stats_cells_build_blob(again, blob.data, blob.len), 0);
        cpbuf_clear(&blob2);
        stats_cells_month_blob(again, months[m], &blob2);
        assert_int_equal(blob2.len, blob.len);
        assert_memory_equal(blob2.data, blob.data, blob.len);
        /* merged twice: the same buckets in the same order, twice the counts and sums */
        assert_int_equal(stats_cells_build_blob(again, blob.data, blob.len), 0);
        cpbuf_clear(&blob2);
        stats_cells_month_blob(again, months[m], &blob2);
        assert_int_equal(blob2.len, blob.len);
        for (size_t i = 0; i < h[3]; i++) {
            StatsHist e1, e2;
            memcpy(&e1, hist + i * sizeof e1, sizeof e1);
            memcpy(&e2, blob2.data + (hist - blob.data) + i * sizeof e2, sizeof e2);
            assert_int_equal(e2.key, e1.key);
            assert_int_equal(e2.what, e1.what);
            assert_int_equal(e2.bucket, e1.bucket);
            assert_int_equal(e2.count, 2 * e1.count);
            assert_true(e2.sum == 2 * e1.sum);
        }
    }
    assert_int_equal(seen, nmodel);
    /* every month in one pass: the same bytes, built and merged from blobs */
    same_blobs(b, months, nm);
    same_blobs(again, months, nm);
    /* the first bucket of the last month out of range, then its kind */
    uint32_t h[6];
    blob_counts(&blob, h);
    assert_true(h[3] > 0);
    size_t at = 6 * sizeof *h + h[1] * sizeof(StatsCellSum) + h[2] * sizeof(StatsCellKey);
    StatsHist e;
    memcpy(&e, blob.data + at, sizeof e);
    StatsHist bad = e;
    bad.bucket = STATS_HIST_BUCKETS;
    memcpy(blob.data + at, &bad, sizeof bad);
    assert_int_equal(stats_cells_build_blob(again, blob.data, blob.len), -1);
    bad = e;
    bad.what = STATS_HIST_KINDS;
    memcpy(blob.data + at, &bad, sizeof bad);
    assert_int_equal(stats_cells_build_blob(again, blob.data, blob.len), -1);
    cpbuf_done(&blob);
    cpbuf_done(&blob2);
    free(months);
    stats_cells_build_free(again);
    stats_cells_build_free(b);
    free(model);
    free(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_utilization, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_events, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_heat_map, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_filters, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_preemption, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_waits, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_efficiency, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_fraction, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_domains, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_pubs, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_cache, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_cache_extended_by_import, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_cache_kept_by_papers_import, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_cache_kept_by_metrics_import, fixture_setup,
                                        db_teardown),
        cmocka_unit_test_setup_teardown(test_waits_group, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_cells_kept_by_import, fixture_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_usage_view_from_aggregates, fixture_setup,
                                        db_teardown),
        cmocka_unit_test_setup_teardown(test_accounts_as_groups, db_open, db_teardown),
        cmocka_unit_test_setup_teardown(test_sandbox_preemption, db_open, db_teardown),
        cmocka_unit_test_setup_teardown(test_acct_window, db_open, db_teardown),
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_calendar_and_capacity),
        cmocka_unit_test(test_hour_of_week_walk),
        cmocka_unit_test(test_hist_layout),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
