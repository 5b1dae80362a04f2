/* The energy aggregate fed from the import's feed (data/store/store_policy_agg.c,
 * data/store/store_feed.h; issue 20): the cells an import builds from the
 * attempts as it writes them are those, byte for byte, that reading the
 * attempts back after the import builds (store_policy_feed_use(0): the
 * read-back as before the feed), and those a rebuild from nothing builds.
 *
 * The files stand for a site's first sacct exports after its roster,
 * sites and carbon series were imported: a first import into a database
 * that holds no job yet (every user, account and cluster is new to the
 * input the import loaded before its first attempt: a user with roster
 * lines and one without, a person whose group changes on 1 February, an
 * attempt with no account, a pending job, a preempted one, clusters with
 * a constant intensity, an hourly series and the only zone's series), a
 * second import naming a new user who has roster lines, new accounts and
 * new clusters (one with a site, one without), and imports the feed cannot
 * follow: a requeue across files (the aggregate is dropped, as before),
 * a requeue after its attempt left a window of 2 (read back), GPU metrics
 * linked after the feed (read back). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <sqlite3.h>

#include "core/policy.h"
#include "data/store/store.h"
#include "data/ingest/policy_csv.h"
#include "data/store/store_policy.h"
#include "data/ingest/textenc.h"
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

#define HDR "JobID|JobIDRaw|Cluster|Partition|Account|User|State|Submit|Start|End|ElapsedRaw|" \
            "AllocTRES\n"

static const char roster[] = "user,group,role,domain,start,end\n"
                             "ann,lab-a,phd-student,ML,2020-01-01,\n"
                             "fay,lab-a,msc-student,ML,2022-01-01,2024-01-31\n"
                             "fay,lab-b,phd-student,Physics,2024-02-01,\n"
                             "gus,lab-c,postdoc,Chemistry,2023-01-01,\n";
/* c1 100 gCO2e/kWh; c2 FR's hourly series; c4 200; c3 and c5 have no
 * site: the only zone's series (FR). FR: 40 and 80 at 00:00 and 01:00 on
 * 5 January, its mean (60) at every other hour. */
static const char sites[] = "cluster,pue,carbon_zone,carbon_intensity\n"
                            "c1,1.2,,100\n"
                            "c2,1.5,FR,\n"
                            "c4,1.1,,200\n";
static const char carbon[] = "datetime,zone,carbon_intensity\n"
                             "2024-01-05T00:00:00,FR,40\n"
                             "2024-01-05T01:00:00,FR,80\n";

/* 201 zed (no roster line, no account) c1 1 GPU 2 h: (none), 200 g-h;
 * 202 ann c2 2 x a100 2 h over FR's 40 and 80: lab-a, 4 GPU-h, 240;
 * 203 fay 10 Jan (lab-a) c1 preempt v100 3 h preempted: 300;
 * 204 cat (no line) acc-c c3 4 x a100 1 h at 01:00: FR's 80, 320;
 * 205 fay 10 Feb (lab-b) c2 2 x a100 5 h: FR's mean 60, 600;
 * 206 dan pending (acc-a named, no cell); 207 ann c1 a100 1 h: 100. */
static const char first[] =
    HDR "201|201|c1|gpu||zed|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
        "2024-01-05T02:00:00|7200|cpu=2,gres/gpu=1,node=1\n"
        "202|202|c2|gpu|acc-a|ann|COMPLETED|2024-01-05T00:00:00|2024-01-05T00:00:00|"
        "2024-01-05T02:00:00|7200|cpu=8,gres/gpu:a100=2,gres/gpu=2,node=1\n"
        "203|203|c1|preempt|acc-b|fay|PREEMPTED|2024-01-10T00:00:00|2024-01-10T01:00:00|"
        "2024-01-10T04:00:00|10800|cpu=2,gres/gpu:v100=1,gres/gpu=1,node=1\n"
        "204|204|c3|gpu|acc-c|cat|COMPLETED|2024-01-05T01:00:00|2024-01-05T01:00:00|"
        "2024-01-05T02:00:00|3600|cpu=4,gres/gpu:a100=4,gres/gpu=4,node=1\n"
        "205|205|c2|gpu|acc-b|fay|COMPLETED|2024-02-10T00:00:00|2024-02-10T00:00:00|"
        "2024-02-10T05:00:00|18000|cpu=2,gres/gpu:a100=2,gres/gpu=2,node=1\n"
        "206|206|c1|gpu|acc-a|dan|PENDING|2024-02-11T00:00:00|Unknown|Unknown|0|\n"
        "207|207|c1|gpu|acc-a|ann|COMPLETED|2024-01-20T00:00:00|2024-01-20T00:00:00|"
        "2024-01-20T01:00:00|3600|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n";
/* 301 gus (lab-c from his line) acc-d c4 h100 10 h: 2000; 302 hal (no
 * line) acc-e c5 2 GPUs 2 h on 2 March: FR's mean, 240; 303 ann c1 a100
 * 1 h on 20 January: into 207's cell. */
static const char second[] =
    HDR "301|301|c4|gpu|acc-d|gus|COMPLETED|2024-03-01T00:00:00|2024-03-01T00:00:00|"
        "2024-03-01T10:00:00|36000|cpu=2,gres/gpu:h100=1,gres/gpu=1,node=1\n"
        "302|302|c5|gpu|acc-e|hal|COMPLETED|2024-03-02T00:00:00|2024-03-02T00:00:00|"
        "2024-03-02T02:00:00|7200|cpu=2,gres/gpu=2,node=1\n"
        "303|303|c1|gpu|acc-a|ann|COMPLETED|2024-01-20T02:00:00|2024-01-20T02:00:00|"
        "2024-01-20T03:00:00|3600|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n";
/* 401 preempted, then three jobs, then 401's requeued run (submitted as
 * it ended): with a window of 2 its first attempt was handed on. */
static const char requeue[] =
    HDR "401|401|c1|gpu|acc-a|ann|PREEMPTED|2024-04-01T00:00:00|2024-04-01T00:00:00|"
        "2024-04-01T01:00:00|3600|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n"
        "402|402|c2|gpu|acc-b|bob|COMPLETED|2024-04-01T00:00:00|2024-04-01T00:00:00|"
        "2024-04-01T01:00:00|3600|cpu=2,gres/gpu=1,node=1\n"
        "403|403|c6|gpu|acc-f|ann|COMPLETED|2024-04-01T00:00:00|2024-04-01T00:00:00|"
        "2024-04-01T01:00:00|3600|cpu=2,gres/gpu=1,node=1\n"
        "404|404|c1|gpu|acc-a|gus|COMPLETED|2024-04-01T00:00:00|2024-04-01T00:00:00|"
        "2024-04-01T01:00:00|3600|cpu=2,gres/gpu=1,node=1\n"
        "401|401|c1|gpu|acc-a|ann|COMPLETED|2024-04-01T01:00:00|2024-04-01T01:00:00|"
        "2024-04-01T03:00:00|7200|cpu=2,gres/gpu:a100=1,gres/gpu=1,node=1\n";

static void import_text(Store *st, const char *kind, const char *text, ImportResult *res)
{
    ImportResult r;
    CpErr err;
    if (tu_import_text(st, kind, text, strlen(text), NULL, res ? res : &r, &err, NULL, 0) < 0)
        fail_msg("import %s: %s", kind, err.msg);
}

/* Sites and carbon go through their own importer (store_policy_import). */
static void import_policy(Store *st, const char *kind, const char *text)
{
    char *p = tu_write_temp(text, strlen(text));
    StorePolicyResult res;
    CpErr err;
    if (store_policy_import(st, kind, p, TEXTENC_UTF8, &res, &err) < 0)
        fail_msg("import %s: %s", kind, err.msg);
    unlink(p);
    free(p);
}

typedef struct Db {
    char *path;
    Store *st;
} Db;

/* A database holding the roster, sites and series; window: the feed's
 * (0: the default). */
static Db open_db(size_t window)
{
    Db d;
    CpErr err;
    d.path = tu_temp_path(".db");
    d.st = store_open(d.path, &err);
    if (!d.st)
        fail_msg("store_open: %s", err.msg);
    store_feed_window(d.st, window);
    import_text(d.st, "roster", roster, NULL);
    import_policy(d.st, "sites", sites);
    import_policy(d.st, "carbon", carbon);
    return d;
}

static void close_db(Db *d)
{
    store_close(d->st);
    tu_remove_db(d->path);
    free(d->path);
}

/* The sacct text imported with the feed used (on) or not. */
static ImportResult import_jobs(Db *d, const char *text, int on)
{
    ImportResult res;
    store_policy_feed_use(on);
    import_text(d->st, "sacct", text, &res);
    store_policy_feed_use(1);
    return res;
}

/* The stored aggregate's bytes (*n of them; NULL when there is none). */
static unsigned char *stored(Store *st, size_t *n)
{
    sqlite3_stmt *s;
    unsigned char *v = NULL;
    *n = 0;
    assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT data FROM policy_agg WHERE id = 1",
                                        -1, &s, NULL),
                     SQLITE_OK);
    if (sqlite3_step(s) == SQLITE_ROW) {
        *n = (size_t)sqlite3_column_bytes(s, 0);
        v = malloc(*n + 1);
        memcpy(v, sqlite3_column_blob(s, 0), *n);
    }
    sqlite3_finalize(s);
    return v;
}

static void same_bytes(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
}

/* a's and b's stored aggregates are the same bytes, and those a rebuild
 * from nothing of a's gives. */
static void same_as_read_back(Store *a, Store *b)
{
    size_t na, nb, nr;
    unsigned char *va = stored(a, &na), *vb = stored(b, &nb);
    same_bytes(va, na, vb, nb);
    CpErr err;
    StorePolicyData *pd = store_policy_load(a, NULL, &err);
    StoreStatsData *sd = store_stats_load(a, STATS_NEED_ROSTER, &err);
    assert_non_null(pd);
    assert_non_null(sd);
    PolicyInput in;
    policy_input_init(&in);
    store_policy_input(pd, store_stats_input(sd), &in);
    assert_int_equal(sqlite3_exec(store_db(a), "DELETE FROM policy_agg", NULL, NULL, NULL),
                     SQLITE_OK);
    PolicyCells c;
    int built;
    assert_int_equal(store_policy_cells(a, &in, &c, &built, &err), 0);
    assert_int_equal(built, 1);
    policy_cells_free(&c);
    store_stats_free(sd);
    store_policy_free(pd);
    unsigned char *vr = stored(a, &nr);
    same_bytes(va, na, vr, nr);
    free(va);
    free(vb);
    free(vr);
}

static PolicyCells cells_of(Store *st)
{
    size_t n;
    unsigned char *v = stored(st, &n);
    assert_non_null(v);
    PolicyCells c;
    assert_int_equal(policy_cells_unpack(v, n, &c), 0);
    free(v);
    return c;
}

static int64_t id_of(Store *st, const char *table, const char *name)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE name = ?1", table);
    return (int64_t)tu_db_real(st, sql, name, -1);
}

/* Cell i: month, group and domain names, cluster, GPU type, runs, GPU-h
 * and GPU-h x mean intensity. */
static void check_cell(Store *st, const PolicyCells *c, size_t i, int32_t month,
                       const char *group, const char *domain, const char *cluster,
                       const char *type, double runs, double gpu_h, double ghu_ci)
{
    assert_true(i < c->ncells);
    const PolicyCell *x = &c->cells[i];
    assert_int_equal(x->month, month);
    assert_string_equal(c->groups[x->group], group);
    assert_string_equal(c->domains[x->domain], domain);
    assert_int_equal(x->cluster, id_of(st, "clusters", cluster));
    assert_string_equal(c->types[x->gpu_type], type);
    assert_float_equal(x->runs, runs, 0);
    assert_float_equal(x->gpu_h, gpu_h, 1e-12);
    assert_float_equal(x->ghu, gpu_h, 1e-12); /* unmeasured: at 100 % */
    assert_float_equal(x->ghu_ci, ghu_ci, 1e-9);
    assert_float_equal(x->gpu_h_meas, 0, 0);
}

/* (a) and (b): a first import into a database with no job, then a second
 * one naming new users, accounts and clusters. */
static void test_fed_as_read_back(void **state)
{
    (void)state;
    Db a = open_db(0), b = open_db(0);
    ImportResult ra = import_jobs(&a, first, 1), rb = import_jobs(&b, first, 0);
    assert_int_equal(ra.added, 7);
    assert_int_equal(ra.policy_fed, 1);
    assert_int_equal(rb.policy_fed, 0);
    same_as_read_back(a.st, b.st);
    PolicyCells c = cells_of(a.st);
    /* the roster's groups first, then as the attempts name them (the
     * pending 206 names acc-a through dan, who has no line) */
    assert_int_equal(c.ngroups, 6);
    const char *const g[] = {"lab-a", "lab-b", "lab-c", "(none)", "acc-c", "acc-a"};
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(c.groups[i], g[i]);
    assert_int_equal(c.ncells, 6);
    check_cell(a.st, &c, 0, 202401, "(none)", "(unknown)", "c1", "", 1, 2, 200);
    check_cell(a.st, &c, 1, 202401, "lab-a", "ML", "c2", "a100", 1, 4, 240);
    check_cell(a.st, &c, 2, 202401, "lab-a", "ML", "c1", "v100", 1, 3, 300);
    check_cell(a.st, &c, 3, 202401, "acc-c", "(unknown)", "c3", "a100", 1, 4, 320);
    check_cell(a.st, &c, 4, 202402, "lab-b", "Physics", "c2", "a100", 1, 10, 600);
    check_cell(a.st, &c, 5, 202401, "lab-a", "ML", "c1", "a100", 1, 1, 100);
    assert_int_equal(c.npreempted, 1); /* the partition "preempt" */
    assert_int_equal(c.preempted[0], id_of(a.st, "partitions", "preempt"));
    policy_cells_free(&c);

    ra = import_jobs(&a, second, 1);
    rb = import_jobs(&b, second, 0);
    assert_int_equal(ra.policy_fed, 1);
    assert_int_equal(rb.policy_fed, 0);
    same_as_read_back(a.st, b.st);
    c = cells_of(a.st);
    assert_int_equal(c.ncells, 8);
    check_cell(a.st, &c, 5, 202401, "lab-a", "ML", "c1", "a100", 2, 2, 200);
    check_cell(a.st, &c, 6, 202403, "lab-c", "Chemistry", "c4", "h100", 1, 10, 2000);
    check_cell(a.st, &c, 7, 202403, "acc-e", "(unknown)", "c5", "", 1, 4, 240);
    assert_string_equal(c.groups[6], "acc-e");
    policy_cells_free(&c);
    close_db(&a);
    close_db(&b);
}

/* (c) A requeue of a job an earlier file held: the aggregate is dropped
 * for the next replay to build, as before the feed. */
static void test_requeue_across_files(void **state)
{
    (void)state;
    Db a = open_db(0);
    import_jobs(&a, first, 1);
    static const char again[] =
        HDR "205|205|c2|gpu|acc-b|fay|COMPLETED|2024-02-10T05:00:00|2024-02-10T05:00:00|"
            "2024-02-10T06:00:00|3600|cpu=2,gres/gpu:a100=2,gres/gpu=2,node=1\n";
    ImportResult r = import_jobs(&a, again, 1);
    assert_int_equal(r.added, 1);
    assert_int_equal(r.policy_fed, 0);
    assert_int_equal(store_scalar(a.st, "SELECT count(*) FROM policy_agg"), 0);
    close_db(&a);
}

/* (c) A requeue after its attempt left the feed's window, on top of a fed
 * aggregate: read back, to the bytes a database that never fed gives. */
static void test_window_spoiled(void **state)
{
    (void)state;
    Db a = open_db(2), b = open_db(2);
    import_jobs(&a, first, 1);
    import_jobs(&b, first, 0);
    ImportResult ra = import_jobs(&a, requeue, 1), rb = import_jobs(&b, requeue, 0);
    assert_int_equal(ra.added, 5);
    assert_int_equal(ra.policy_fed, 0);
    assert_int_equal(rb.policy_fed, 0);
    same_as_read_back(a.st, b.st);
    /* 401's two runs in one cell: 1 h then 2 h at 100 g */
    PolicyCells c = cells_of(a.st);
    check_cell(a.st, &c, 6, 202404, "lab-a", "ML", "c1", "a100", 2, 3, 300);
    policy_cells_free(&c);
    close_db(&a);
    close_db(&b);
}

/* (c) GPU metrics linked to the import's attempts after the feed handed
 * them on: read back, with the utilisation. */
static void test_metrics_after_feed(void **state)
{
    (void)state;
    Db a = open_db(0), b = open_db(0);
    static const char metrics[] = "job_id,gpu_mem_max_gib,gpu_util_mean,cluster\n"
                                  "202,30,50,c2\n";
    import_text(a.st, "gpu-metrics", metrics, NULL);
    import_text(b.st, "gpu-metrics", metrics, NULL);
    ImportResult ra = import_jobs(&a, first, 1), rb = import_jobs(&b, first, 0);
    assert_int_equal(ra.policy_fed, 0);
    assert_int_equal(rb.policy_fed, 0);
    same_as_read_back(a.st, b.st);
    PolicyCells c = cells_of(a.st);
    assert_float_equal(c.cells[1].gpu_h_meas, 4, 1e-12);
    assert_float_equal(c.cells[1].ghu, 2, 1e-12);
    assert_float_equal(c.cells[1].util_x_h, 200, 1e-12);
    policy_cells_free(&c);
    close_db(&a);
    close_db(&b);
}

/* Real exports, one after the other: the Fox cluster's sacct text and two
 * of Mila's monthly sacct --json snapshots (users with no roster line,
 * accounts as groups, two clusters named by the imports). Fed and read
 * back give the same bytes after every file; the runs and GPU-hours the
 * cells hold are those sqlite3 counts over the jobs table. */
static void test_real_files(void **state)
{
    (void)state;
    static const char *const files[] = {"data/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv",
                                        "data/sacct-json-sarc/mila_1706227200.json",
                                        "data/sacct-json-sarc/mila_1708819200.json"};
    (void)tu_shared(files[0]); /* skips before anything is opened */
    Db a = open_db(0), b = open_db(0);
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        ImportResult ra, rb;
        CpErr err;
        const char *path = tu_shared(files[f]);
        store_policy_feed_use(1);
        assert_int_equal(tu_import_file(a.st, "sacct", path, NULL, &ra, &err), 0);
        store_policy_feed_use(0);
        assert_int_equal(tu_import_file(b.st, "sacct", path, NULL, &rb, &err), 0);
        store_policy_feed_use(1);
        assert_int_equal(ra.added, rb.added);
        assert_int_equal(ra.policy_fed, 1); /* appended: nothing the feed cannot follow */
        assert_int_equal(rb.policy_fed, 0);
        size_t na, nb;
        unsigned char *va = stored(a.st, &na), *vb = stored(b.st, &nb);
        same_bytes(va, na, vb, nb);
        free(va);
        free(vb);
    }
    same_as_read_back(a.st, b.st);
    PolicyCells c = cells_of(a.st);
    double runs = 0, gpu_h = 0;
    for (size_t i = 0; i < c.ncells; i++) {
        runs += c.cells[i].runs;
        gpu_h += c.cells[i].gpu_h;
    }
    /* what core/policy counts as a run: started, ran, held GPUs */
    static const char ran[] =
        "FROM jobs WHERE start > 0 AND gpus > 0 AND "
        "coalesce(elapsed, CASE WHEN end_time >= start THEN end_time - start END) > 0";
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) %s", ran);
    double want_runs = tu_db_real(a.st, sql, NULL, -1);
    snprintf(sql, sizeof sql,
             "SELECT total(gpus * coalesce(elapsed, end_time - start) / 3600.0) %s", ran);
    double want_h = tu_db_real(a.st, sql, NULL, -1);
    assert_true(want_runs == 94); /* 84 of Fox's 294 jobs, 10 of Mila's 14 (sqlite3) */
    assert_true(runs == want_runs);
    assert_true(fabs(gpu_h - want_h) <= 1e-9 * want_h);
    assert_true(tu_db_real(a.st, "SELECT count(DISTINCT cluster_id) FROM jobs", NULL, -1) == 2);
    policy_cells_free(&c);
    close_db(&a);
    close_db(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fed_as_read_back),
        cmocka_unit_test(test_requeue_across_files),
        cmocka_unit_test(test_window_spoiled),
        cmocka_unit_test(test_metrics_after_feed),
        cmocka_unit_test(test_real_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
