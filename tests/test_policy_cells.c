/* The energy tables over the runs' aggregate (core/policy_cells.c,
 * issue 20): four runs whose figures are worked out by hand below (a
 * roster line that changes mid-month, an account without a roster line,
 * a measured and an unmeasured utilisation, a preempted attempt that
 * makes its partition preemptible, a run that never started); the cells
 * packed and unpacked give the same tables without the attempts; and
 * 5,000 pseudo-random runs against the sums taken attempt by attempt, in
 * their order, as the tables were computed before the aggregate: the
 * bound the documentation states (docs/policy-speed.md). Then the
 * stored aggregate: built by a first import, extended by the next one to
 * the bytes a rebuild gives, rebuilt when the roster changes, and built
 * on a database of the schema before it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sqlite3.h>

#include "core/energy.h"
#include "core/policy.h"
#include "data/store/store.h"
#include "data/store/store_policy.h"
#include "data/store/store_schema.h"
#include "tests/lib/testdb.h"

#define H 3600
#define DAY 86400
/* 2024-03-01 00:00:00 UTC */
#define T0 ((int64_t)1709251200)

static const char *const clusters[] = {NULL, "c1", "c2"};
static const char *const users[] = {NULL, "alice", "bob"};
static const char *const accounts[] = {NULL, "acct-a", "acct-b"};
static const char *const partitions[] = {NULL, "gpu", "long"};
static const char *const types[] = {NULL, "a100", "v100"};

/* alice: lab-x (physics) to 15 March, lab-y (chemistry) from 16 March. */
static const StatsPerson people[] = {
    {"alice", "lab-x", "physics", T0, T0 + 15 * DAY},
    {"alice", "lab-y", "chemistry", T0 + 15 * DAY, STATS_TIME_NONE},
};

static StatsJob job(int32_t user, int32_t account, uint16_t cluster, uint16_t part, uint16_t type,
                    int64_t start, int32_t elapsed, float gpus, float util)
{
    StatsJob j;
    memset(&j, 0, sizeof j);
    j.user = user;
    j.account = account;
    j.cluster = cluster;
    j.partition = part;
    j.gpu_type = type;
    j.submit = (uint32_t)(start ? start - 60 : T0);
    j.start = (uint32_t)start;
    j.elapsed = elapsed;
    j.gpus = gpus;
    j.gpu_util = util;
    j.state = STATS_ST_COMPLETED;
    j.flags = STATS_JOB_FINAL;
    return j;
}

static void input(StatsInput *in, const StatsJob *jobs, size_t n)
{
    memset(in, 0, sizeof *in);
    in->clusters = (StatsNames){clusters, 3};
    in->users = (StatsNames){users, 3};
    in->accounts = (StatsNames){accounts, 3};
    in->partitions = (StatsNames){partitions, 3};
    in->gpu_types = (StatsNames){types, 3};
    in->people = people;
    in->npeople = 2;
    in->jobs = jobs;
    in->njobs = n;
}

static double num(const StatsReport *r, const char *table, size_t row, const char *col)
{
    const StatsTable *t = stats_report_table(r, table);
    assert_non_null(t);
    assert_true(row < t->nrows);
    const StatsCell *c = stats_table_cell(t, row, col);
    assert_non_null(c);
    return c->num;
}

static const char *text(const StatsReport *r, const char *table, size_t row, const char *col)
{
    const StatsCell *c = stats_table_cell(stats_report_table(r, table), row, col);
    assert_non_null(c);
    return c->text;
}

/* TDP a100 400 W, v100 300 W (spec sheets), PUE 1.2, 480 gCO2e/kWh:
 *   1 alice c1 gpu a100, 1 Mar, 2 h x 2 GPUs at 50 %: 2x2x400x0.5x1.2/1000 = 0.96 kWh,
 *     0.4608 kg; lab-x (physics)
 *   2 alice c1 gpu a100, 21 Mar, 1 h x 1 GPU unmeasured: 0.48 kWh, 0.2304 kg; lab-y
 *   3 bob acct-b c2 long v100, 10 Apr, 3 h x 4 GPUs at 80 %: 4x3x300x0.8x1.2/1000 =
 *     3.456 kWh, 1.65888 kg; acct-b, (unknown)
 *   4 bob acct-b c2 long v100, 11 Apr, 1 h x 1 GPU unmeasured, preempted: 0.36 kWh,
 *     0.1728 kg
 *   5 never started: nothing. */
static StatsJob *four_runs(size_t *n)
{
    StatsJob *v = calloc(5, sizeof *v);
    v[0] = job(1, 1, 1, 1, 1, T0 + H, 2 * H, 2, 50);
    v[1] = job(1, 1, 1, 1, 1, T0 + 20 * DAY, H, 1, -1);
    v[2] = job(2, 2, 2, 2, 2, T0 + 40 * DAY, 3 * H, 4, 80);
    v[3] = job(2, 2, 2, 2, 2, T0 + 41 * DAY, H, 1, -1);
    v[3].state = STATS_ST_PREEMPTED;
    v[4] = job(2, 2, 2, 1, 2, 0, -1, 1, -1);
    *n = 5;
    return v;
}

static void check_four(const StatsReport *r)
{
    /* per month */
    assert_string_equal(text(r, "energy", 0, "period"), "2024-03");
    assert_float_equal(num(r, "energy", 0, "attempts"), 2, 0);
    assert_float_equal(num(r, "energy", 0, "gpu_hours"), 5, 1e-12);
    assert_float_equal(num(r, "energy", 0, "kwh"), 1.44, 1e-12);
    assert_float_equal(num(r, "energy", 0, "kwh_at_tdp"), 0.48, 1e-12);
    assert_float_equal(num(r, "energy", 0, "measured_pct"), 80, 1e-12);
    assert_float_equal(num(r, "energy", 0, "kg_co2e"), 0.6912, 1e-12);
    assert_string_equal(text(r, "energy", 1, "period"), "2024-04");
    assert_float_equal(num(r, "energy", 1, "gpu_hours"), 13, 1e-12);
    assert_float_equal(num(r, "energy", 1, "kwh"), 3.816, 1e-12);
    assert_float_equal(num(r, "energy", 1, "kg_co2e"), 1.83168, 1e-12);
    assert_string_equal(text(r, "energy", 2, "period"), "total");
    assert_float_equal(num(r, "energy", 2, "attempts"), 4, 0);
    /* per group, by name: acct-b, lab-x, lab-y */
    assert_string_equal(text(r, "groups", 0, "group"), "acct-b");
    assert_float_equal(num(r, "groups", 0, "kwh"), 3.816, 1e-12);
    assert_float_equal(num(r, "groups", 0, "kwh_at_tdp"), 0.36, 1e-12);
    assert_string_equal(text(r, "groups", 1, "group"), "lab-x");
    assert_float_equal(num(r, "groups", 1, "kwh"), 0.96, 1e-12);
    assert_string_equal(text(r, "groups", 2, "group"), "lab-y");
    assert_float_equal(num(r, "groups", 2, "kwh"), 0.48, 1e-12);
    /* per domain: (unknown), chemistry, physics */
    assert_string_equal(text(r, "domains", 0, "domain"), "(unknown)");
    assert_string_equal(text(r, "domains", 1, "domain"), "chemistry");
    assert_float_equal(num(r, "domains", 1, "kg_co2e"), 0.2304, 1e-12);
    assert_string_equal(text(r, "domains", 2, "domain"), "physics");
    /* per cluster: TDP GPU-hour weighted */
    assert_float_equal(num(r, "clusters", 0, "tdp_w"), 400, 1e-9);
    assert_float_equal(num(r, "clusters", 1, "tdp_w"), 300, 1e-9);
    assert_float_equal(num(r, "clusters", 1, "g_per_kwh"), 480, 1e-9);
    /* shifting: "long" saw a preemption, so runs 3 and 4 may move; at a
     * constant intensity none does */
    assert_string_equal(text(r, "shifting", 1, "cluster"), "c2");
    assert_float_equal(num(r, "shifting", 1, "movable"), 2, 0);
    assert_float_equal(num(r, "shifting", 1, "moved"), 0, 0);
    assert_float_equal(num(r, "shifting", 1, "kg_before"), 1.83168, 1e-12);
    assert_float_equal(num(r, "shifting", 1, "kg_after"), 1.83168, 1e-12);
    assert_float_equal(num(r, "shifting", 0, "movable"), 0, 0);
    assert_string_equal(text(r, "shifting", 2, "cluster"), "all");
    assert_float_equal(num(r, "shifting", 2, "movable"), 2, 0);
}

static void test_by_hand(void **state)
{
    (void)state;
    size_t n;
    StatsJob *jobs = four_runs(&n);
    StatsInput in;
    input(&in, jobs, n);
    PolicyInput pi;
    policy_input_init(&pi);
    pi.stats = &in;
    StatsOpts o = {.by = STATS_BY_MONTH};
    StatsReport r;
    CpErr err;
    assert_int_equal(policy_energy(&pi, &o, &r, &err), 0);
    check_four(&r);
    stats_report_free(&r);
    /* --group lab-y: run 2 alone; an unknown group is an error */
    o.group = "lab-y";
    assert_int_equal(policy_energy(&pi, &o, &r, &err), 0);
    assert_float_equal(num(&r, "energy", 0, "attempts"), 1, 0);
    assert_float_equal(num(&r, "energy", 0, "kwh"), 0.48, 1e-12);
    stats_report_free(&r);
    o.group = "lab-z";
    assert_int_equal(policy_energy(&pi, &o, &r, &err), -1);
    stats_report_free(&r);
    free(jobs);
}

/* c1 at an hourly series (the only zone: 100 g, 50 g from the third
 * hour of 1 March): with the attempts, run 1 (moved to "long", which saw
 * a preemption) starts 2 h late at half the carbon; with the cells alone
 * and no delay (nothing read run by run) it stays, and both count it. */
static void test_hourly(void **state)
{
    (void)state;
    size_t n;
    StatsJob *jobs = four_runs(&n);
    jobs[0].partition = 2;
    StatsInput in;
    input(&in, jobs, n);
    PolicyCarbon ci[48];
    for (int h = 0; h < 48; h++)
        ci[h] = (PolicyCarbon){"FR", T0 + h * H, h < 3 ? 100.0 : 50.0};
    PolicyInput pi;
    policy_input_init(&pi);
    pi.stats = &in;
    pi.carbon = ci;
    pi.ncarbon = 48;
    assert_true(policy_energy_needs_jobs(&pi));
    assert_true(policy_cluster_hourly(&pi, "c1"));
    StatsOpts o = {.by = STATS_BY_ALL};
    StatsReport r;
    CpErr err;
    assert_int_equal(policy_energy(&pi, &o, &r, &err), 0);
    /* 0.96 kWh over 01:00-03:00 at 100 g: 0.096 kg; from 03:00, 50 g */
    assert_string_equal(text(&r, "shifting", 0, "cluster"), "c1");
    assert_float_equal(num(&r, "shifting", 0, "movable"), 1, 0);
    assert_float_equal(num(&r, "shifting", 0, "moved"), 1, 0);
    assert_float_equal(num(&r, "shifting", 0, "kg_before"), 0.096, 1e-12);
    assert_float_equal(num(&r, "shifting", 0, "kg_after"), 0.048, 1e-12);
    stats_report_free(&r);
    PolicyCellsBuild *b = policy_cells_build_new(&pi);
    policy_cells_build_add(b, jobs, n, &in.gpu_types);
    PolicyCells c;
    policy_cells_build_finish(b, &c);
    input(&in, NULL, 0);
    pi.cells = &c;
    pi.shift_delay_h = 0;
    assert_false(policy_energy_needs_jobs(&pi));
    assert_int_equal(policy_energy(&pi, &o, &r, &err), 0);
    assert_float_equal(num(&r, "shifting", 0, "movable"), 1, 0);
    assert_float_equal(num(&r, "shifting", 0, "moved"), 0, 0);
    assert_float_equal(num(&r, "shifting", 0, "kg_before"), 0.096, 1e-12);
    assert_float_equal(num(&r, "shifting", 0, "kg_after"), 0.096, 1e-12);
    stats_report_free(&r);
    policy_cells_free(&c);
    free(jobs);
}

/* Built in chunks, packed and unpacked: the same tables, read without the
 * attempts; bytes that are not cells are refused. */
static void test_pack(void **state)
{
    (void)state;
    size_t n;
    StatsJob *jobs = four_runs(&n);
    StatsInput in;
    input(&in, jobs, n);
    PolicyInput pi;
    policy_input_init(&pi);
    pi.stats = &in;
    PolicyCellsBuild *b = policy_cells_build_new(&pi);
    policy_cells_build_add(b, jobs, 2, &in.gpu_types);
    policy_cells_build_add(b, jobs + 2, n - 2, &in.gpu_types);
    PolicyCells c, back, bad;
    policy_cells_build_finish(b, &c);
    assert_int_equal(c.ncells, 3); /* runs 3 and 4 share their (month, group, ...) */
    assert_int_equal(c.npreempted, 1);
    assert_int_equal(c.preempted[0], 2);
    CpBuf buf;
    cpbuf_init(&buf);
    policy_cells_pack(&c, &buf);
    assert_int_equal(policy_cells_unpack(buf.data, buf.len, &back), 0);
    assert_int_equal(back.ncells, c.ncells);
    assert_memory_equal(back.cells, c.cells, c.ncells * sizeof *c.cells);
    assert_int_equal(policy_cells_unpack(buf.data, buf.len - 8, &bad), -1);
    assert_int_equal(policy_cells_unpack("PCL0", 4, &bad), -1);
    cpbuf_done(&buf);
    policy_cells_free(&c);
    input(&in, NULL, 0);
    pi.cells = &back;
    StatsOpts o = {.by = STATS_BY_MONTH};
    StatsReport r;
    CpErr err;
    assert_int_equal(policy_energy(&pi, &o, &r, &err), 0);
    check_four(&r);
    stats_report_free(&r);
    policy_cells_free(&back);
    free(jobs);
}

/* 5,000 runs over three years (2024 to 2027): every sum of the per-year
 * table within 1e-12 of itself of the attempt-by-attempt sums. */
static void test_bound(void **state)
{
    (void)state;
    enum { N = 5000 };
    StatsJob *jobs = calloc(N, sizeof *jobs);
    uint64_t x = 88172645463325252ull;
    double kwh[4] = {0, 0, 0, 0}, kg[4] = {0, 0, 0, 0}, gh[4] = {0, 0, 0, 0};
    const double tdp[3] = {0, 400, 300};
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t start = T0 + (int64_t)(x % (3 * 365 * (uint64_t)DAY));
        int32_t el = 60 + (int32_t)((x >> 20) % (30 * H));
        float gpus = (float)(1 + (x >> 40) % 8), util = (x >> 50) % 4 ? (float)((x >> 8) % 1000) / 10 : -1;
        uint16_t type = (uint16_t)(1 + (x >> 30) % 2);
        jobs[i] = job(2, 2, 1, 1, type, start, el, gpus, util);
        int y = fairshare_year_of(start) - 2024;
        double k = energy_kwh(gpus, el / 3600.0, tdp[type], util, 1.2);
        kwh[y] += k;
        kg[y] += energy_carbon_kg(k, 480);
        gh[y] += gpus * el / 3600.0;
    }
    StatsInput in;
    input(&in, jobs, N);
    PolicyInput pi;
    policy_input_init(&pi);
    pi.stats = &in;
    StatsOpts o = {.by = STATS_BY_YEAR};
    StatsReport r;
    CpErr err;
    assert_int_equal(policy_energy(&pi, &o, &r, &err), 0);
    for (size_t y = 0; y < 4; y++) {
        assert_float_equal(num(&r, "energy", y, "kwh"), kwh[y], 1e-12 * kwh[y]);
        assert_float_equal(num(&r, "energy", y, "kg_co2e"), kg[y], 1e-12 * kg[y]);
        assert_float_equal(num(&r, "energy", y, "gpu_hours"), gh[y], 1e-12 * gh[y]);
    }
    stats_report_free(&r);
    free(jobs);
}

/* ---- the stored aggregate ---- */

#define HDR "JobID|JobIDRaw|Cluster|Partition|Account|User|State|Submit|Start|End|ElapsedRaw|" \
            "AllocTRES\n"
/* a100 at 400 W, PUE 1.2, utilisation unmeasured: 0.48 kWh a GPU-hour.
 * 101: 2 GPUs x 4 h; 102: 1 x 3 h preempted, then 1 x 2 h; 103 and 104:
 * 2 x 10 h: 53 GPU-h, 25.44 kWh (acc-a 28 h, acc-b 25 h). */
static const char sacct_a[] = HDR
    "101|101|c1|gpu|acc-a|ann|COMPLETED|2024-01-31T20:00:00|2024-01-31T22:00:00|"
    "2024-02-01T02:00:00|14400|cpu=8,gres/gpu:a100=2,gres/gpu=2,node=1\n"
    "102|102|c1|preempt|acc-b|bob|PREEMPTED|2024-01-10T00:00:00|2024-01-10T01:00:00|"
    "2024-01-10T04:00:00|10800|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
    "102|102|c1|preempt|acc-b|bob|COMPLETED|2024-01-10T04:00:00|2024-01-10T05:00:00|"
    "2024-01-10T07:00:00|7200|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
    "103|103|c1|gpu|acc-a|cat|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
    "2024-01-05T10:00:00|36000|cpu=4,gres/gpu:a100=2,gres/gpu=2,node=1\n"
    "104|104|c1|gpu|acc-b|dan|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
    "2024-01-05T10:00:00|36000|cpu=4,gres/gpu:a100=2,gres/gpu=2,node=1\n";
/* 105: 1 x 2 h; 106: 1 x 12 h: with the above 67 GPU-h, 32.16 kWh. */
static const char sacct_b[] = HDR
    "105|105|c1|gpu|acc-b|eve|COMPLETED|2024-01-05T02:00:00|2024-01-05T10:00:00|"
    "2024-01-05T12:00:00|7200|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
    "106|106|c1|gpu|acc-b|fay|COMPLETED|2024-02-29T12:00:00|2024-02-29T12:00:00|"
    "2024-03-01T00:00:00|43200|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n";
static const char roster[] = "user,group,role,domain,start,end\n"
                             "ann,lab-a,phd-student,ML,2020-01-01,\n"
                             "fay,lab-a,msc-student,ML,2022-01-01,2024-01-31\n"
                             "fay,lab-b,phd-student,Physics,2024-02-01,\n";

static void import_text(Store *st, const char *kind, const char *text)
{
    ImportResult res;
    CpErr err;
    assert_int_equal(tu_import_text(st, kind, text, strlen(text), NULL, &res, &err, NULL, 0), 0);
}

/* store_policy_cells' *built: 1 when it had to build them. */
static int built_now(Store *st)
{
    CpErr err;
    StorePolicyData *pd = store_policy_load(st, NULL, &err);
    StoreStatsData *sd = store_stats_load(st, STATS_NEED_ROSTER | STATS_NEED_INVENTORY, &err);
    assert_non_null(pd);
    assert_non_null(sd);
    PolicyInput in;
    policy_input_init(&in);
    store_policy_input(pd, store_stats_input(sd), &in);
    PolicyCells c;
    int built;
    assert_int_equal(store_policy_cells(st, &in, &c, &built, &err), 0);
    policy_cells_free(&c);
    store_stats_free(sd);
    store_policy_free(pd);
    return built;
}

/* The energy tables over all time, as `stats energy --by all` reads them. */
static void energy_of(Store *st, StatsReport *r)
{
    PolicyInput in;
    CpErr err;
    StorePolicyOpen *o = store_policy_open(st, NULL, STORE_POLICY_ENERGY, NULL, &in, &err);
    assert_non_null(o);
    StatsOpts so = {.by = STATS_BY_ALL};
    assert_int_equal(policy_energy(&in, &so, r, &err), 0);
    store_policy_close(o);
}

static void check_total(Store *st, double gpu_h, double kwh)
{
    StatsReport r;
    energy_of(st, &r);
    assert_float_equal(num(&r, "energy", 0, "gpu_hours"), gpu_h, 1e-9);
    assert_float_equal(num(&r, "energy", 0, "kwh"), kwh, 1e-9);
    stats_report_free(&r);
}

static char *stored(Store *st, int *n)
{
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT data FROM policy_agg", -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    *n = sqlite3_column_bytes(s, 0);
    char *v = malloc((size_t)*n + 1);
    memcpy(v, sqlite3_column_blob(s, 0), (size_t)*n);
    sqlite3_finalize(s);
    return v;
}

static void test_store(void **state)
{
    TuDb *d = *state;
    import_text(d->st, "sacct", sacct_a);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM policy_agg"), 1);
    assert_int_equal(built_now(d->st), 0); /* the import built them */
    check_total(d->st, 53, 25.44);
    import_text(d->st, "sacct", sacct_b);
    assert_int_equal(built_now(d->st), 0); /* ... and the next one extended them */
    check_total(d->st, 67, 32.16);
    int n1, n2;
    char *ext = stored(d->st, &n1);
    assert_int_equal(sqlite3_exec(store_db(d->st), "DELETE FROM policy_agg", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(built_now(d->st), 1);
    char *re = stored(d->st, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(ext, re, (size_t)n1); /* extended = rebuilt, byte for byte */
    free(ext);
    free(re);
    /* a roster: the groups change, so do the cells */
    import_text(d->st, "roster", roster);
    assert_int_equal(built_now(d->st), 1);
    assert_int_equal(built_now(d->st), 0);
    /* cat has no roster line: acc-a; ann lab-a; fay's run of 29 February
     * lab-b (her line from 1 February) */
    StatsReport r;
    energy_of(d->st, &r);
    const char *const g[] = {"acc-a", "acc-b", "lab-a", "lab-b"};
    const double kwh[] = {9.6, 12.96, 3.84, 5.76};
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(text(&r, "groups", i, "group"), g[i]);
        assert_float_equal(num(&r, "groups", i, "kwh"), kwh[i], 1e-9);
    }
    stats_report_free(&r);
}

/* A database of the schema before the aggregate's: opened, it gets the
 * table; the first replay builds the cells, the next reads them. */
static void test_old_schema(void **state)
{
    TuDb *d = *state;
    import_text(d->st, "sacct", sacct_a);
    store_close(d->st);
    sqlite3 *db;
    char sql[192];
    int v = 0; /* the aggregate's migration; the later ones undone where they would not
                  run twice (issue 28's people.planned_end) */
    while (v < store_nmigrations && !strstr(store_migrations[v], "policy_agg"))
        v++;
    assert_int_equal(sqlite3_open(d->path, &db), SQLITE_OK);
    /* wound back to just before the migration that made policy_agg (not
     * the last one: migrations are appended after it) */
    int mig = 0;
    while (mig < store_nmigrations &&
           !strstr(store_migrations[mig], "CREATE TABLE IF NOT EXISTS policy_agg"))
        mig++;
    assert_true(mig < store_nmigrations);
    snprintf(sql, sizeof sql, "DROP TABLE policy_agg; ALTER TABLE people DROP COLUMN planned_end; "
             "ALTER TABLE jobs DROP COLUMN cpu_milli; "
             "PRAGMA user_version=%d;",
             mig);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    CpErr err;
    d->st = store_open(d->path, &err);
    assert_non_null(d->st);
    assert_int_equal(store_scalar(d->st, "PRAGMA user_version"), store_nmigrations);
    assert_int_equal(built_now(d->st), 1);
    assert_int_equal(built_now(d->st), 0);
    check_total(d->st, 53, 25.44);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_hourly),
        cmocka_unit_test_setup_teardown(test_store, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_old_schema, tu_db_setup, tu_db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
