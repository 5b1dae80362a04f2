/* The efficiency aggregates (issue 20): kept by the import, merged month
 * by month, forgotten and rebuilt when an import changes an hour's
 * hogging condition under stored idle attempts, when the inventory
 * changes, or when a database holds none (one of the version before);
 * and the same figures as the attempts give on real data. Every
 * expected figure below is worked out by hand in its comment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/stats.h"
#include "data/ingest/import.h"
#include "data/store/store.h"
#include "data/store/store_stats.h"
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

/* ---- the fixture ----
 *
 * Cluster c1: 4 A100 (80 GB) from 2024-01-01; no roster (groups are the
 * accounts). Four files, imported in this order:
 *  A: 103 cat acc-a 2 GPUs Jan 5 00-10, 2 % busy (idle); 104 dan acc-b 2
 *     GPUs Jan 5 00-10, 90 %: c1 full (4 of 4), but nobody waits.
 *  B: 105 eve acc-b 1 GPU submitted Jan 5 02:00, runs 10-12: it waits
 *     02-10, under 103's idle hours (an older file's jobs in hours already
 *     aggregated: 103 now hogs 2 GPUs x 8 h = 16 GPU-h).
 *  C: 107 fay acc-b 1 GPU submitted Jan 5 03:00, runs 11-12: it waits in
 *     hours where others already waited (03-10) or where no idle attempt
 *     ran (10-11): no stored figure changes.
 *  D: February: 201 cat acc-a 1 GPU Feb 10 00-04, 5 % (idle); 202 dan
 *     acc-b 4 GPUs 00-04, 90 %; 203 eve acc-b 1 GPU submitted 01:00, runs
 *     04-05: 201 hogs 1 GPU x 3 h (01-04) = 3 GPU-h. */
#define HDR                                                                                        \
    "JobID|JobIDRaw|Cluster|Partition|Account|User|State|Submit|Start|End|ElapsedRaw|"             \
    "Timelimit|NCPUS|ReqMem|MaxRSS|TotalCPU|AllocTRES|TRESUsageInMax\n"
#define GPU1 "cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1"
#define GPU2 "cpu=2,gres/gpu:a100=2,gres/gpu=2,node=1"
#define GPU4 "cpu=4,gres/gpu:a100=4,gres/gpu=4,node=1"

static const char file_a[] =
    HDR "103|103|c1|gpu|acc-a|cat|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
        "2024-01-05T10:00:00|36000|UNLIMITED|2||||" GPU2 "|gres/gpuutil=2\n"
        "104|104|c1|gpu|acc-b|dan|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
        "2024-01-05T10:00:00|36000|UNLIMITED|2||||" GPU2 "|gres/gpuutil=90\n";
static const char file_b[] =
    HDR "105|105|c1|gpu|acc-b|eve|COMPLETED|2024-01-05T02:00:00|2024-01-05T10:00:00|"
        "2024-01-05T12:00:00|7200|UNLIMITED|1||||" GPU1 "|gres/gpuutil=80\n";
static const char file_c[] =
    HDR "107|107|c1|gpu|acc-b|fay|COMPLETED|2024-01-05T03:00:00|2024-01-05T11:00:00|"
        "2024-01-05T12:00:00|3600|UNLIMITED|1||||" GPU1 "|gres/gpuutil=80\n";
static const char file_d[] =
    HDR "201|201|c1|gpu|acc-a|cat|COMPLETED|2024-02-10T00:00:00|2024-02-10T00:00:00|"
        "2024-02-10T04:00:00|14400|UNLIMITED|1||||" GPU1 "|gres/gpuutil=5\n"
        "202|202|c1|gpu|acc-b|dan|COMPLETED|2024-02-10T00:00:00|2024-02-10T00:00:00|"
        "2024-02-10T04:00:00|14400|UNLIMITED|4||||" GPU4 "|gres/gpuutil=90\n"
        "203|203|c1|gpu|acc-b|eve|COMPLETED|2024-02-10T01:00:00|2024-02-10T04:00:00|"
        "2024-02-10T05:00:00|3600|UNLIMITED|1||||" GPU1 "|gres/gpuutil=80\n";
static const char inventory[] = "cluster,gpu_model,gpus,gpu_mem_gib,from,to\n"
                                "c1,a100,4,80,2024-01-01,\n";

/* text imported as kind, strictly: any rejected line fails the test. */
static void import_text(Store *st, const char *kind, const char *text)
{
    ImportOpts o;
    ImportResult res;
    CpErr err;
    import_opts_init(&o);
    o.strict = 1;
    if (tu_import_text(st, kind, text, strlen(text), &o, &res, &err, NULL, 0) != 0)
        fail_msg("import %s: %s", kind, err.msg);
}

/* Rows of stats_agg with month = m. */
static int64_t rows(TuDb *d, int m)
{
    char sql[80];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM stats_agg WHERE month = %d", m);
    return store_scalar(d->st, sql);
}

/* Efficiency by by, from the stored aggregates (want_cached: read as
 * stored, else built by a scan), or from the attempts when jobs. */
static StatsReport eff(TuDb *d, StatsBy by, int jobs, int want_cached)
{
    CpErr err;
    StatsOpts o = {STATS_EFFICIENCY, by, NULL, NULL};
    unsigned needs = jobs ? STATS_NEED_JOBS | STATS_NEED_ROSTER | STATS_NEED_INVENTORY
                          : stats_opts_needs(&o);
    StoreStatsData *sd = store_stats_load(d->st, needs, &err);
    if (!sd)
        fail_msg("load: %s", err.msg);
    if (!jobs) {
        assert_int_equal(store_stats_input(sd)->njobs, 0);
        assert_int_equal(store_stats_eff_cached(sd), want_cached);
    }
    StatsReport r;
    if (stats_run(store_stats_input(sd), &o, &r, &err) < 0)
        fail_msg("run: %s", err.msg);
    store_stats_free(sd);
    return r;
}

static double num(const StatsReport *r, const char *table, const char *col, const char *k1,
                  const char *v1, const char *k2, const char *v2)
{
    const StatsTable *t = stats_report_table(r, table);
    const char *keys[2] = {k1, k2}, *vals[2] = {v1, v2};
    assert_non_null(t);
    long row = stats_table_find(t, keys, vals, k2 ? 2 : 1);
    if (row < 0)
        fail_msg("%s: no row %s=%s", table, k1, v1);
    const StatsCell *c = stats_table_cell(t, (size_t)row, col);
    assert_non_null(c);
    return c->num;
}

#define near(a, b) assert_float_equal((a), (b), 1e-9)

/* Every number and text of the tables of a and b is the same (sums in
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

/* The stored aggregates, the attempts, and a rebuild from nothing give
 * the same tables, by month and over everything. */
static void paths_agree(TuDb *d, int want_cached)
{
    static const StatsBy bys[] = {STATS_BY_MONTH, STATS_BY_ALL};
    CpErr err;
    for (size_t i = 0; i < 2; i++) {
        StatsReport kept = eff(d, bys[i], 0, want_cached), jobs = eff(d, bys[i], 1, 0);
        same_report(&kept, &jobs);
        assert_int_equal(store_stats_forget(d->st, &err), 0);
        StatsReport built = eff(d, bys[i], 0, 0);
        same_report(&kept, &built);
        stats_report_free(&kept);
        stats_report_free(&jobs);
        stats_report_free(&built);
    }
}

static void hogs(TuDb *d, int want_cached, double jan, double feb)
{
    StatsReport r = eff(d, STATS_BY_MONTH, 0, want_cached);
    near(num(&r, "waste", "hog_gpu_hours", "period", "2024-01", "group", "acc-a"), jan);
    near(num(&r, "waste", "hog_gpu_hours", "period", "2024-01", "group", "acc-b"), 0);
    near(num(&r, "waste", "idle_gpu_hours", "period", "2024-01", "group", "acc-a"), 20);
    if (feb >= 0)
        near(num(&r, "waste", "hog_gpu_hours", "period", "2024-02", "group", "acc-a"), feb);
    const StatsTable *t = stats_report_table(&r, "top_hogs");
    assert_int_equal(t->nrows, (jan > 0) + (feb > 0));
    if (jan > 0) {
        assert_string_equal(stats_table_cell(t, 0, "job")->text, "103");
        near(stats_table_cell(t, 0, "hog_gpu_hours")->num, jan);
        assert_string_equal(stats_table_cell(t, 0, "start")->text, "2024-01-05");
    }
    if (feb > 0)
        near(stats_table_cell(t, 1, "hog_gpu_hours")->num, feb);
    stats_report_free(&r);
}

static void test_hogging_across_imports(void **state)
{
    TuDb *d = *state;
    import_text(d->st, "inventory", inventory);
    import_text(d->st, "sacct", file_a);
    assert_int_equal(rows(d, -1), 1); /* kept by the import */
    hogs(d, 1, 0, -1);
    /* B's wait falls under 103's idle hours: the import forgets the set */
    import_text(d->st, "sacct", file_b);
    assert_int_equal(rows(d, -1), 0);
    hogs(d, 0, 16, -1);
    hogs(d, 1, 16, -1); /* the load wrote it back */
    /* C changes no stored figure: extended, still current */
    import_text(d->st, "sacct", file_c);
    assert_int_equal(rows(d, -1), 1);
    hogs(d, 1, 16, -1);
    import_text(d->st, "sacct", file_d);
    assert_int_equal(rows(d, -1), 1);
    hogs(d, 1, 16, 3);
    StatsReport r = eff(d, STATS_BY_ALL, 0, 1);
    const StatsTable *t = stats_report_table(&r, "top_hogs");
    assert_string_equal(stats_table_cell(t, 1, "job")->text, "201");
    near(stats_table_cell(t, 1, "hours")->num, 4);
    /* acc-b: 104 90 % x 20, 105 80 % x 2, 107 80 % x 1, 202 90 % x 16,
     * 203 80 % x 1 over 40 GPU-h -> (1800 + 160 + 80 + 1440 + 80) / 40 = 89 % */
    near(num(&r, "efficiency", "gpu_util_pct", "group", "acc-b", NULL, NULL), 89);
    stats_report_free(&r);
    paths_agree(d, 1);
}

/* The set built from the attempts, keeping up to keep idle attempts (a
 * second pass for the rest), as month blobs one after another. */
static void build_blobs(const StatsInput *in, size_t keep, CpBuf *out)
{
    StatsEffBuild *b = stats_eff_build_new(in->inventory, in->ninventory, keep);
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        stats_eff_build_job(b, j, (int64_t)i, in->clusters.v[j->cluster],
                            in->gpu_types.v[j->gpu_type], 1);
    }
    assert_int_equal(stats_eff_build_finish(b), 0);
    assert_int_equal(stats_eff_build_second_pass(b), keep < 2);
    for (size_t i = 0; stats_eff_build_second_pass(b) && i < in->njobs; i++)
        stats_eff_build_hog(b, &in->jobs[i], (int64_t)i, in->gpu_types.v[in->jobs[i].gpu_type]);
    int32_t *months;
    size_t n = stats_eff_build_months(b, &months);
    for (size_t i = 0; i < n; i++)
        stats_eff_month_blob(b, months[i], out);
    free(months);
    stats_eff_build_free(b);
}

/* Past the bound on idle attempts kept (two here: 103 and 201), the
 * second pass gives the same bytes. */
static void test_second_pass(void **state)
{
    TuDb *d = *state;
    CpErr err;
    import_text(d->st, "inventory", inventory);
    import_text(d->st, "sacct", file_a);
    import_text(d->st, "sacct", file_b);
    import_text(d->st, "sacct", file_d);
    StoreStatsData *sd = store_stats_load(d->st, STATS_NEED_JOBS | STATS_NEED_INVENTORY, &err);
    assert_non_null(sd);
    CpBuf all, none, one;
    cpbuf_init(&all);
    cpbuf_init(&none);
    cpbuf_init(&one);
    build_blobs(store_stats_input(sd), STATS_EFF_IDLE_KEEP, &all);
    build_blobs(store_stats_input(sd), 0, &none);
    build_blobs(store_stats_input(sd), 1, &one);
    assert_true(all.len > 0 && all.len == none.len && all.len == one.len);
    assert_memory_equal(all.data, none.data, all.len);
    assert_memory_equal(all.data, one.data, all.len);
    cpbuf_done(&all);
    cpbuf_done(&none);
    cpbuf_done(&one);
    store_stats_free(sd);
}

/* A database of the version before (stats_agg without the efficiency
 * rows): the first load builds them from the jobs and writes them. */
static void test_database_before(void **state)
{
    TuDb *d = *state;
    import_text(d->st, "inventory", inventory);
    import_text(d->st, "sacct", file_a);
    import_text(d->st, "sacct", file_b);
    import_text(d->st, "sacct", file_d);
    hogs(d, 0, 16, 3);
    assert_int_equal(
        sqlite3_exec(store_db(d->st), "DELETE FROM stats_agg WHERE month < 0", NULL, NULL, NULL),
        SQLITE_OK);
    hogs(d, 0, 16, 3);
    assert_true(rows(d, -1) == 1 && rows(d, -202401) == 1 && rows(d, -10202401) == 1);
    hogs(d, 1, 16, 3);
}

/* The inventory decides what a job held and whether the cluster was busy:
 * a new inventory makes the next load rebuild. With 8 GPUs, c1 is 50 %
 * busy on Jan 5: nobody hogs. */
static void test_inventory_change(void **state)
{
    TuDb *d = *state;
    import_text(d->st, "inventory", inventory);
    import_text(d->st, "sacct", file_a);
    import_text(d->st, "sacct", file_b);
    hogs(d, 0, 16, -1);
    hogs(d, 1, 16, -1);
    import_text(d->st, "inventory", "cluster,gpu_model,gpus,gpu_mem_gib,from,to\n"
                                    "c1,a100,8,80,2024-01-01,\n");
    hogs(d, 0, 0, -1);
    hogs(d, 1, 0, -1);
}

/* A cluster first named by the import itself (the inventory names c1; no
 * job did before): the efficiency aggregates the import keeps learn its
 * name as its first attempt reaches them (read on the import's thread,
 * handed to the statistics' worker: data/store/store_stats_feed.c, feed_clusters),
 * so its inventory counts. Files A and B in one import, c1 with 8 GPUs:
 * 50 % busy while 105 waits, nobody hogs (without the name the capacity
 * is unknown, the cluster counts as busy, and 103 would hog 16 GPU-h). */
static void test_cluster_named_by_import(void **state)
{
    TuDb *d = *state;
    import_text(d->st, "inventory", "cluster,gpu_model,gpus,gpu_mem_gib,from,to\n"
                                    "c1,a100,8,80,2024-01-01,\n");
    char both[sizeof file_a + sizeof file_b];
    snprintf(both, sizeof both, "%s%s", file_a, file_b + strlen(HDR));
    import_text(d->st, "sacct", both);
    assert_int_equal(rows(d, -1), 1); /* kept by the import */
    hogs(d, 1, 0, -1);
    paths_agree(d, 1);
}

/* Real files: the stored aggregates (kept by the import), the attempts
 * and a rebuild agree (and match main's per-attempt computation: see
 * docs/scale.md). */
static void test_real_data(void **state)
{
    TuDb *d = *state;
    ImportOpts o;
    ImportResult res;
    CpErr err;
    import_opts_init(&o);
    o.trace_kind = "alibaba-pod";
    o.trace_start = 1700000000;
    assert_int_equal(import_trace(d->st,
                                  tu_shared("data/gpu-trace-alibaba-openb-sample/"
                                            "openb_node_list_gpu_node.csv"),
                                  &o, &res, &err),
                     0);
    assert_int_equal(import_trace(d->st,
                                  tu_shared("data/gpu-trace-alibaba-openb-sample/"
                                            "openb_pod_list_gpushare40.csv"),
                                  &o, &res, &err),
                     0);
    o.trace_kind = "philly";
    assert_int_equal(
        import_trace(d->st, tu_shared("data/gpu-trace-philly-dre-sample/sampled_jobs.shared.json"),
                     &o, &res, &err),
        0);
    import_opts_init(&o);
    assert_int_equal(
        import_sacct(d->st, tu_shared("data/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv"), &o,
                     &res, &err),
        0);
    StatsReport r = eff(d, STATS_BY_ALL, 0, 1);
    assert_true(stats_report_table(&r, "efficiency")->nrows >= 10);
    stats_report_free(&r);
    paths_agree(d, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hogging_across_imports, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_second_pass, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_database_before, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_inventory_change, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_cluster_named_by_import, tu_db_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_real_data, tu_db_setup, tu_db_teardown),
    };
    return cmocka_run_group_tests_name("stats_eff", tests, NULL, NULL);
}
