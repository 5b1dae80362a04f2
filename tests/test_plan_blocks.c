/* The planner's job blocks (data/store/store_blocks.c, issues 13 and 20): what
 * store_plan_jobs and store_plan_use read from the packed blocks is what
 * they read from the jobs table itself, in the same order, before the blocks
 * are built, after, after an update and a delete behind capplan's back
 * (the sqlite3 shell: triggers), and on a database of the previous schema
 * version that the migration fills.
 *
 * The jobs, written with SQL at chosen rowids so that they span blocks 0, 1
 * and 4 (4096 rowids a block), cluster c1 (id 1), users u1..u3, account a1:
 *   rowid 1..20   u1, a100, 1 GPU, start 2024-01-01 + i h, 2 h, eligible 30
 *                 min before start; rowid 7 measured at 33 GiB;
 *   rowid 21      u2, no start (submit 2024-01-02 00:00), elapsed 1 h, 2 GPUs
 *   rowid 22      u2, final = 0 (an earlier attempt): not read
 *   rowid 23      no user: not read
 *   rowid 24      u3, CPUs only (8), 3 h
 *   rowid 25      u3, neither elapsed nor end: not read
 *   rowid 5000..5009  u2, l40s, 4 GPUs, start 2024-03-01 + i days, 10 h,
 *                 elapsed NULL (end - start)
 *   rowid 20000..20002 u1, untyped, 1 GPU, start 2024-06-01 + i h, 1 h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "data/ingest/fields.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"
#include "data/store/store_schema.h"
#include "tests/lib/testutil.h"

static int64_t t_of(int y, int mo, int d, int h)
{
    return fields_epoch_of(y, mo, d, h, 0, 0);
}

static void exec_ok(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

/* One job row at rowid id; start < 0: NULL; elapsed < 0: NULL (end from
 * end_s when >= 0); type NULL: none. */
static void put_job(sqlite3 *db, int64_t id, int user, int final, int64_t submit, int64_t elig,
                    int64_t start, int64_t elapsed, int64_t end_s, double gpus, int ncpus,
                    const char *type, double mem)
{
    sqlite3_stmt *s;
    assert_int_equal(
        sqlite3_prepare_v2(db,
                           "INSERT INTO jobs(id, cluster_id, job_raw, submit, job_id, user_id, "
                           "account_id, state, eligible, start, elapsed, end_time, gpus, ncpus, "
                           "gpu_type, gpu_mem_gib, gpu_mem_source, final, rec_hash) VALUES(?1, 1, "
                           "?1, ?2, ?1, ?3, 1, 4, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0)",
                           -1, &s, NULL),
        SQLITE_OK);
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, submit);
    if (user > 0)
        sqlite3_bind_int(s, 3, user);
    sqlite3_bind_int64(s, 4, elig);
    if (start >= 0)
        sqlite3_bind_int64(s, 5, start);
    if (elapsed >= 0)
        sqlite3_bind_int64(s, 6, elapsed);
    if (end_s >= 0)
        sqlite3_bind_int64(s, 7, end_s);
    sqlite3_bind_double(s, 8, gpus);
    sqlite3_bind_int(s, 9, ncpus);
    if (type)
        sqlite3_bind_text(s, 10, type, -1, SQLITE_STATIC);
    if (mem >= 0)
        sqlite3_bind_double(s, 11, mem);
    sqlite3_bind_int(s, 12, mem >= 0 ? 2 : 0);
    sqlite3_bind_int(s, 13, final);
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
}

static void put_site(sqlite3 *db)
{
    exec_ok(db, "INSERT INTO clusters(id, name) VALUES (1, 'c1');"
                "INSERT INTO users(id, name) VALUES (1, 'u1'), (2, 'u2'), (3, 'u3');"
                "INSERT INTO accounts(id, name) VALUES (1, 'a1');"
                "INSERT INTO inventory(cluster, gpu_model, gpus, gpu_mem_gib, from_date) VALUES "
                "('c1', 'a100', 8, 80, '2023-01-01'), ('c1', 'l40s', 4, 48, '2023-01-01');");
    for (int i = 1; i <= 20; i++) {
        int64_t st = t_of(2024, 1, 1, 0) + (int64_t)i * 3600;
        put_job(db, i, 1, 1, st - 3600, st - 1800, st, 7200, st + 7200, 1, 4, "a100",
                i == 7 ? 33 : -1);
    }
    int64_t sub = t_of(2024, 1, 2, 0);
    put_job(db, 21, 2, 1, sub, 0, -1, 3600, -1, 2, 4, "a100", -1);
    put_job(db, 22, 2, 0, sub, sub, sub, 3600, sub + 3600, 2, 4, "a100", -1);
    put_job(db, 23, 0, 1, sub, sub, sub, 3600, sub + 3600, 2, 4, "a100", -1);
    put_job(db, 24, 3, 1, sub, sub, sub, 3 * 3600, sub + 3 * 3600, 0, 8, NULL, -1);
    put_job(db, 25, 3, 1, sub, sub, sub, -1, -1, 1, 4, "a100", -1);
    for (int i = 0; i < 10; i++) {
        int64_t st = t_of(2024, 3, 1 + i, 8);
        put_job(db, 5000 + i, 2, 1, st, st, st, -1, st + 36000, 4, 16, "l40s", -1);
    }
    for (int i = 0; i < 3; i++) {
        int64_t st = t_of(2024, 6, 1, i);
        put_job(db, 20000 + i, 1, 1, st, st, st, 3600, st + 3600, 1, 4, NULL, -1);
    }
}

/* Everything the planner reads, in one struct to compare. */
typedef struct Read {
    FeatJob *jobs;
    size_t njobs;
    int64_t last;
    StorePlanUse *use;
    size_t nuse;
    StorePlanKind *kinds;
    size_t nkinds;
    StorePlanUse *cpu;
    size_t ncpu;
    StorePlanKind *ckinds;
    size_t nckinds;
} Read;

static void read_all(Store *st, Read *r)
{
    CpErr err;
    memset(r, 0, sizeof *r);
    assert_int_equal(store_plan_jobs(st, t_of(2024, 1, 1, 0), t_of(2025, 1, 1, 0), 300, 0,
                                     &r->jobs, &r->njobs, &r->last, &err),
                     0);
    assert_int_equal(store_plan_use(st, 0, &r->use, &r->nuse, &r->kinds, &r->nkinds, &err), 0);
    assert_int_equal(store_plan_use(st, 1, &r->cpu, &r->ncpu, &r->ckinds, &r->nckinds, &err), 0);
}

static void read_free(Read *r)
{
    free(r->jobs);
    store_plan_use_free(r->use, r->kinds, r->nkinds);
    store_plan_use_free(r->cpu, r->ckinds, r->nckinds);
}

/* What the jobs table itself gives: the blocks deleted inside a
 * transaction rolled back afterwards. */
static void read_truth(Store *st, Read *r)
{
    exec_ok(store_db(st), "SAVEPOINT truth; DELETE FROM job_blocks;");
    read_all(st, r);
    exec_ok(store_db(st), "ROLLBACK TO truth; RELEASE truth;");
}

static void same_use(const StorePlanUse *a, const StorePlanKind *ka, const StorePlanUse *b,
                     const StorePlanKind *kb, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(a[i].user_id, b[i].user_id);
        assert_int_equal(a[i].account_id, b[i].account_id);
        assert_int_equal(a[i].elig, b[i].elig);
        assert_int_equal(a[i].start, b[i].start);
        assert_int_equal(a[i].end, b[i].end);
        assert_true(a[i].gpus == b[i].gpus);
        assert_string_equal(ka[a[i].kind].cluster, kb[b[i].kind].cluster);
        assert_string_equal(ka[a[i].kind].type, kb[b[i].kind].type);
    }
}

static void same_read(const Read *a, const Read *b)
{
    assert_int_equal(a->njobs, b->njobs);
    assert_int_equal(a->last, b->last);
    for (size_t i = 0; i < a->njobs; i++) {
        assert_int_equal(a->jobs[i].user, b->jobs[i].user);
        assert_int_equal(a->jobs[i].start, b->jobs[i].start);
        assert_int_equal(a->jobs[i].end, b->jobs[i].end);
        assert_true(a->jobs[i].gpus == b->jobs[i].gpus);
        assert_true(a->jobs[i].mem_gib == b->jobs[i].mem_gib);
        assert_int_equal(a->jobs[i].mem_src, b->jobs[i].mem_src);
    }
    assert_int_equal(a->nuse, b->nuse);
    same_use(a->use, a->kinds, b->use, b->kinds, a->nuse);
    assert_int_equal(a->ncpu, b->ncpu);
    same_use(a->cpu, a->ckinds, b->cpu, b->ckinds, a->ncpu);
}

/* The figures of the site as written above, by hand. */
static void check_site(const Read *r)
{
    /* features: rowids 1..20, 5000..5009, 20000..20002 (21 has no start) */
    assert_int_equal(r->njobs, 33);
    assert_int_equal(r->last, t_of(2024, 6, 1, 2));
    assert_int_equal(r->jobs[6].start, t_of(2024, 1, 1, 7));
    assert_true(r->jobs[6].mem_gib == 33 && r->jobs[6].mem_src == FEAT_MEM_MEASURED);
    assert_true(r->jobs[7].mem_gib == 80 && r->jobs[7].mem_src == FEAT_MEM_REQUESTED);
    assert_true(r->jobs[20].mem_gib == 48 && r->jobs[20].gpus == 4);
    assert_int_equal(r->jobs[20].end - r->jobs[20].start, 36000);
    assert_true(r->jobs[32].mem_gib == -1); /* untyped, two memory sizes on c1 */
    /* model v2: 21 placed at its submit time, eligible 30 min early */
    assert_int_equal(r->nuse, 34);
    assert_int_equal(r->use[0].elig, t_of(2024, 1, 1, 1) - 1800);
    assert_int_equal(r->use[20].start, t_of(2024, 1, 2, 0));
    assert_int_equal(r->use[20].end, t_of(2024, 1, 2, 1));
    assert_true(r->use[20].gpus == 2);
    assert_int_equal(r->nkinds, 3); /* c1/a100, c1/l40s, c1/"" */
    /* CPUs: every row read but 22, 23, 25 (24 has CPUs only) */
    assert_int_equal(r->ncpu, 35);
    assert_true(r->cpu[21].gpus == 8);
}

static Store *site_store(char **path)
{
    CpErr err;
    *path = tu_temp_path(".db");
    Store *st = store_open(*path, &err);
    assert_non_null(st);
    put_site(store_db(st));
    return st;
}

static void test_blocks_read_as_jobs(void **state)
{
    (void)state;
    char *path;
    CpErr err;
    Store *st = site_store(&path);
    Read before, after, truth;
    read_all(st, &before); /* nothing built: every row from the jobs table */
    check_site(&before);
    assert_int_equal(store_flush(st, &err), 0);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(store_db(st),
                                        "SELECT group_concat(block || ':' || n, ' ') FROM "
                                        "(SELECT block, n FROM job_blocks ORDER BY block)",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    /* block 0: 1..21 and 24 (22, 23, 25 are no planning records) */
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "0:22 1:10 4:3");
    sqlite3_finalize(s);
    assert_int_equal(store_scalar(st, "SELECT built_max FROM job_blocks_state"), 20002);
    read_all(st, &after);
    same_read(&before, &after);
    check_site(&after);
    read_free(&after);

    /* behind capplan's back: block 1 stale until the next sync */
    exec_ok(store_db(st), "UPDATE jobs SET gpus = 3 WHERE id = 5005");
    assert_int_equal(store_scalar(st, "SELECT group_concat(block) FROM job_blocks_stale"), 1);
    read_all(st, &after);
    read_truth(st, &truth);
    same_read(&truth, &after);
    assert_true(after.jobs[25].gpus == 3);
    read_free(&after);
    read_free(&truth);
    assert_int_equal(store_flush(st, &err), 0);
    assert_int_equal(store_scalar(st, "SELECT count(*) FROM job_blocks_stale"), 0);
    read_all(st, &after);
    read_truth(st, &truth);
    same_read(&truth, &after);
    read_free(&after);
    read_free(&truth);

    /* the last block deleted, then one of its rowids written again */
    exec_ok(store_db(st), "DELETE FROM jobs WHERE id >= 20000");
    assert_int_equal(store_flush(st, &err), 0);
    assert_int_equal(store_scalar(st, "SELECT n FROM job_blocks WHERE block = 4"), 0);
    assert_int_equal(store_scalar(st, "SELECT built_max FROM job_blocks_state"), 5009);
    int64_t t = t_of(2024, 7, 1, 0);
    put_job(store_db(st), 20001, 3, 1, t, t, t, 600, t + 600, 1, 4, "a100", -1);
    read_all(st, &after); /* 20001 above built_max: from the jobs table */
    read_truth(st, &truth);
    same_read(&truth, &after);
    assert_int_equal(after.njobs, 31);
    assert_int_equal(after.last, t);
    read_free(&after);
    read_free(&truth);

    /* rows of a new block synced, deleted, one further on: the tail's stale
     * block is packed once, empty */
    assert_int_equal(store_flush(st, &err), 0);
    put_job(store_db(st), 25000, 3, 1, t, t, t, 600, t + 600, 1, 4, "a100", -1);
    assert_int_equal(store_flush(st, &err), 0);
    exec_ok(store_db(st), "DELETE FROM jobs WHERE id = 25000");
    put_job(store_db(st), 30000, 3, 1, t + 60, t + 60, t + 60, 600, t + 660, 1, 4, "a100", -1);
    assert_int_equal(store_flush(st, &err), 0);
    assert_int_equal(store_scalar(st, "SELECT n FROM job_blocks WHERE block = 6"), 0);
    assert_int_equal(store_scalar(st, "SELECT n FROM job_blocks WHERE block = 7"), 1);
    read_all(st, &after);
    read_truth(st, &truth);
    same_read(&truth, &after);
    assert_int_equal(after.njobs, 32);
    read_free(&truth);
    store_close(st);

    /* read-only, as the dashboard's second connection may open it */
    st = store_open_read(path, &err);
    assert_non_null(st);
    read_all(st, &truth);
    same_read(&after, &truth);
    read_free(&after);
    read_free(&truth);
    read_free(&before);
    store_close(st);
    tu_remove_db(path);
    free(path);
}

/* A window that holds only block 1's starts reads the same as the jobs
 * table (the other blocks are skipped by their first and last start). */
static void test_blocks_window(void **state)
{
    (void)state;
    char *path;
    CpErr err;
    Store *st = site_store(&path);
    assert_int_equal(store_flush(st, &err), 0);
    FeatJob *a, *b;
    size_t na, nb;
    int64_t la, lb, from = t_of(2024, 3, 3, 0), before = t_of(2024, 3, 6, 0);
    assert_int_equal(store_plan_jobs(st, from, before, 300, 0, &a, &na, &la, &err), 0);
    exec_ok(store_db(st), "DELETE FROM job_blocks");
    assert_int_equal(store_plan_jobs(st, from, before, 300, 0, &b, &nb, &lb, &err), 0);
    assert_int_equal(na, 3); /* March 3, 4, 5 at 08:00 */
    assert_int_equal(nb, 3);
    assert_int_equal(la, t_of(2024, 3, 5, 8));
    assert_int_equal(lb, la);
    for (size_t i = 0; i < na; i++)
        assert_int_equal(a[i].start, b[i].start);
    free(a);
    free(b);
    store_close(st);
    tu_remove_db(path);
    free(path);
}

/* The index in store_migrations of the blocks' migration. */
static int blocks_migration(void)
{
    int v = 0;
    while (v < store_nmigrations && !strstr(store_migrations[v], "job_blocks(block"))
        v++;
    assert_true(v < store_nmigrations);
    return v;
}

static int blob_of(Store *st, int64_t block, unsigned char **out)
{
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(store_db(st),
                                        "SELECT data FROM job_blocks WHERE block = ?1", -1, &s,
                                        NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(s, 1, block);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    int n = sqlite3_column_bytes(s, 0);
    *out = malloc((size_t)n + 1);
    memcpy(*out, sqlite3_column_blob(s, 0), (size_t)n);
    sqlite3_finalize(s);
    return n;
}

/* A database made by the previous schema: opened by this one, the
 * migration fills the blocks with what the sync writes, byte for byte. */
static void test_blocks_migration(void **state)
{
    (void)state;
    char *path = tu_temp_path(".db");
    sqlite3 *db;
    int mig = blocks_migration();
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    for (int v = 0; v < mig; v++)
        exec_ok(db, store_migrations[v]);
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d;", mig);
    exec_ok(db, pragma);
    put_site(db);
    sqlite3_close(db);
    CpErr err;
    Store *st = store_open(path, &err);
    assert_non_null(st);
    assert_int_equal(store_scalar(st, "PRAGMA user_version"), store_nmigrations);
    assert_int_equal(store_scalar(st, "SELECT sum(n) FROM job_blocks"), 35);
    assert_int_equal(store_scalar(st, "SELECT built_max FROM job_blocks_state"), 20002);
    Read r;
    read_all(st, &r);
    check_site(&r);
    read_free(&r);
    unsigned char *m[3], *y[3];
    int nm[3], ny[3];
    const int64_t blocks[3] = {0, 1, 4};
    for (int i = 0; i < 3; i++)
        nm[i] = blob_of(st, blocks[i], &m[i]);
    /* run again (a test winding user_version back does): the same blocks */
    exec_ok(store_db(st), store_migrations[mig]);
    assert_int_equal(store_scalar(st, "SELECT sum(n) FROM job_blocks"), 35);
    exec_ok(store_db(st), "DELETE FROM job_blocks; UPDATE job_blocks_state SET built_max = 0");
    assert_int_equal(store_flush(st, &err), 0);
    for (int i = 0; i < 3; i++) {
        ny[i] = blob_of(st, blocks[i], &y[i]);
        assert_int_equal(nm[i], ny[i]);
        assert_memory_equal(m[i], y[i], (size_t)nm[i]);
        free(m[i]);
        free(y[i]);
    }
    assert_int_equal(nm[0], 16 + 8 + 22 * 64); /* header, "a100\0\0" padded, 22 records */
    store_close(st);
    tu_remove_db(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_read_as_jobs),
        cmocka_unit_test(test_blocks_window),
        cmocka_unit_test(test_blocks_migration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
